//! Constant references merged with active ones: a constant `&c`, `&c[..i]` or `&v` that
//! meets an active reference at an `if` gets a zero tangent that lives as long as the
//! merged value, and an array reference merges into an annotated slice. Expected
//! gradients are written out from the math.

use fwdad::prelude::*;

#[derive_frule]
fn product2(v: &[f64]) -> f64 {
    v[0] * v[1]
}

#[derive_frule]
fn total(v: &[f64]) -> f64 {
    v.iter().sum()
}

/// A constant array and the active input, merged into an annotated slice.
#[derive_frule]
fn merge_array_ref(x: &[f64]) -> f64 {
    let c = [1.0, 2.0];
    let s: &[f64] = if x[0] > 0.0 { &c } else { x };
    s[0] * s[1]
}

/// An active array merged into an annotated slice (the coercion alone).
#[derive_frule]
fn merge_active_array_ref(x: &[f64]) -> f64 {
    let c = [x[0] * 2.0, x[1]];
    let s: &[f64] = if x[0] > 0.0 { &c } else { x };
    s[0] * s[1]
}

/// A constant scalar reference and an element reference, merged.
#[derive_frule]
fn merge_scalar_ref(x: &[f64]) -> f64 {
    let c = 5.0;
    let r: &f64 = if x[0] > 0.0 { &c } else { &x[1] };
    *r * x[0]
}

/// A constant `Vec` passed to a rule in one branch, the input in the other.
#[derive_frule]
fn call_in_branch(x: &[f64]) -> f64 {
    let c = vec![3.0, 4.0];
    let r = if x[0] > 0.0 {
        product2(&c)
    } else {
        product2(x)
    };
    r * x[1]
}

/// Constant prefixes of changing length, merged inside a loop.
#[derive_frule]
fn merge_in_loop(x: &[f64]) -> f64 {
    let c = [1.0, 2.0, 3.0, 4.0];
    let mut acc = 0.0;
    for i in 1..4 {
        let s: &[f64] = if x[0] > 0.0 { &c[..i] } else { &x[..i] };
        acc += total(s) * x[1];
    }
    acc
}

/// The rule's value is the primal's, at points on both sides of every branch.
#[test]
fn values_are_the_primals() {
    for x in [[1.0, 3.0, 0.5], [-1.0, 3.0, 0.5]] {
        assert_eq!(gradient(merge_array_ref {}, &x).0, merge_array_ref(&x));
        assert_eq!(
            gradient(merge_active_array_ref {}, &x).0,
            merge_active_array_ref(&x)
        );
        assert_eq!(gradient(merge_scalar_ref {}, &x).0, merge_scalar_ref(&x));
        assert_eq!(gradient(call_in_branch {}, &x).0, call_in_branch(&x));
        assert_eq!(gradient(merge_in_loop {}, &x).0, merge_in_loop(&x));
        assert_eq!(gradient(product2 {}, &x).0, product2(&x));
        assert_eq!(gradient(total {}, &x).0, total(&x));
    }
}

#[test]
fn constant_array_merged_into_a_slice() {
    assert_eq!(
        gradient(merge_array_ref {}, &[1.0, 3.0]),
        (2.0, vec![0.0, 0.0])
    );
    // x₀x₁
    assert_eq!(gradient(merge_array_ref {}, &[-1.0, 3.0]).1, [3.0, -1.0]);
}

#[test]
fn active_array_merged_into_a_slice() {
    // 2x₀·x₁, then x₀x₁
    assert_eq!(
        gradient(merge_active_array_ref {}, &[1.0, 3.0]),
        (6.0, vec![6.0, 2.0])
    );
    assert_eq!(
        gradient(merge_active_array_ref {}, &[-1.0, 3.0]).1,
        [3.0, -1.0]
    );
}

#[test]
fn constant_scalar_reference_merged() {
    assert_eq!(gradient(merge_scalar_ref {}, &[1.0, 3.0]).1, [5.0, 0.0]);
    assert_eq!(gradient(merge_scalar_ref {}, &[-1.0, 3.0]).1, [3.0, -1.0]);
}

#[test]
fn constant_passed_to_a_rule_in_a_branch() {
    // 12·x₁, then x₀x₁²
    assert_eq!(gradient(call_in_branch {}, &[1.0, 3.0]).1, [0.0, 12.0]);
    assert_eq!(gradient(call_in_branch {}, &[-1.0, 3.0]).1, [9.0, -6.0]);
}

#[test]
fn constant_prefixes_of_changing_length_in_a_loop() {
    // (1 + 3 + 6)·x₁
    let (v, g) = gradient(merge_in_loop {}, &[1.0, 2.0, 0.5]);
    assert_eq!((v, g), (20.0, vec![0.0, 10.0, 0.0]));
    // x₁(3x₀ + 2x₁ + x₂)
    let x = [-1.0, 2.0, 0.5];
    let (v, g) = gradient(merge_in_loop {}, &x);
    assert_eq!(v, x[1] * (3.0 * x[0] + 2.0 * x[1] + x[2]));
    assert_eq!(g, [3.0 * x[1], 3.0 * x[0] + 4.0 * x[1] + x[2], x[1]]);
}
