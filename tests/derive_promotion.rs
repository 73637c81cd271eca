//! Constant references merged with active ones: a constant `&c`, `&c[..i]` or `&v` that
//! meets an active reference at an `if` gets a zero tangent that lives as long as the
//! merged value (for a referent defined outside a loop, as long as the loop, also for a
//! sub-slice or element whose range or index changes each iteration), and an array
//! reference merges into an annotated slice variable, also when the variable is
//! reassigned in a branch or a loop. Expected gradients are written out from the math.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

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

/// A slice variable reassigned to a constant array in a branch (its annotation holds for
/// the merged value too).
#[derive_frule]
fn reassign_in_branch(x: &[f64]) -> f64 {
    let c = [1.0, 2.0];
    let mut s: &[f64] = x;
    if x[0] > 0.0 {
        s = &c;
    }
    s[0] * s[1] + x[1]
}

/// The same with a second variable changed in the branch, and one in an `else`.
#[derive_frule]
fn reassign_two_in_branches(x: &[f64]) -> f64 {
    let c = [4.0, 5.0];
    let mut s: &[f64] = x;
    let mut k = 1.0;
    if x[0] > 0.0 {
        s = &c;
        k = x[1];
    } else {
        k *= 2.0;
    }
    k * (s[0] + s[1])
}

/// A slice variable carried through a loop, reassigned to a constant array defined before
/// the loop (the promoted reference outlives the iteration that made it).
#[derive_frule]
fn reassign_in_loop(x: &[f64]) -> f64 {
    let c = [1.0, 2.0];
    let mut s: &[f64] = x;
    for i in 0..2 {
        if x[i] > 1.5 {
            s = &c;
        }
    }
    s[0] * s[1] + x[0]
}

/// The same with an active array.
#[derive_frule]
fn reassign_active_in_loop(x: &[f64]) -> f64 {
    let c = [x[0] * 2.0, x[1]];
    let mut s: &[f64] = x;
    for i in 0..2 {
        if x[i] > 1.5 {
            s = &c;
        }
    }
    s[0] * s[1]
}

/// A constant window `&c[i - 1..=i]` whose range moves with the loop, carried into the
/// next iteration through a slice variable.
#[derive_frule]
fn carried_window(x: &[f64]) -> f64 {
    let c = [1.0, 2.0, 3.0, 4.0];
    let mut s: &[f64] = x;
    let mut acc = 0.0;
    for i in 1..4 {
        acc += s[0] * x[0];
        s = &c[i - 1..=i];
    }
    acc + s[1]
}

/// Growing prefixes `&c[..i]` of a local `Vec`, carried and passed to a rule.
#[derive_frule]
#[allow(clippy::useless_vec)] // a `Vec` is the case under test
fn carried_prefix(x: &[f64]) -> f64 {
    let c = vec![1.0, 2.0, 3.0];
    let mut s: &[f64] = x;
    let mut acc = 0.0;
    for i in 1..=3 {
        acc += total(s) * x[1];
        s = &c[..i];
    }
    acc + total(s)
}

/// Elements `&c[i]` of a loop's `i`, carried through a reference variable.
#[derive_frule]
fn carried_element(x: &[f64]) -> f64 {
    let c = [1.0, 2.0, 3.0, 4.0];
    let mut r: &f64 = &x[0];
    let mut acc = 0.0;
    for i in 1..4 {
        acc += *r * x[1];
        r = &c[i];
    }
    acc + *r
}

/// An array read by element methods in the loop (`c[i].abs()`, which change nothing)
/// while a reference to it is carried: its cell stays outside the loop.
#[derive_frule]
fn carried_while_read(x: &[f64]) -> f64 {
    let c = [-1.0f64, 2.0];
    let mut s: &[f64] = x;
    let mut acc = 0.0;
    for i in 0..2 {
        acc += s[0] * x[1] + c[i].abs() * c.len() as f64;
        s = &c;
    }
    acc
}

/// Suffixes `&w[i..]` of an `inactive` parameter, carried.
#[derive_frule(inactive(w))]
fn carried_suffix(x: &[f64], w: &[f64]) -> f64 {
    let mut s: &[f64] = x;
    let mut acc = 0.0;
    for i in 0..2 {
        acc += s[0] * s[1];
        s = &w[i..];
    }
    acc
}

/// A local `Vec` that grows in the loop, merged whole and as a suffix with an active
/// slice: each iteration's zero tangent has that iteration's length.
#[derive_frule]
fn growing_buffer(x: &[f64]) -> f64 {
    let mut c: Vec<f64> = Vec::new();
    let mut acc = 0.0;
    for i in 0..3 {
        c.push(i as f64 + 1.0);
        let s: &[f64] = if x[1] > 0.0 { &c } else { x };
        let t: &[f64] = if x[1] > 0.0 { &c[i..] } else { x };
        acc += x[0] * total(s) + t[0] * x[1];
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
        assert_eq!(
            gradient(reassign_in_branch {}, &x).0,
            reassign_in_branch(&x)
        );
        assert_eq!(
            gradient(reassign_two_in_branches {}, &x).0,
            reassign_two_in_branches(&x)
        );
        assert_eq!(gradient(reassign_in_loop {}, &x).0, reassign_in_loop(&x));
        assert_eq!(
            gradient(reassign_active_in_loop {}, &x).0,
            reassign_active_in_loop(&x)
        );
        assert_eq!(gradient(product2 {}, &x).0, product2(&x));
        assert_eq!(gradient(total {}, &x).0, total(&x));
    }
}

#[test]
fn constant_array_merged_into_a_slice() {
    assert_eq!(gradient(merge_array_ref {}, &[1.0, 3.0]), (2.0, [0.0, 0.0]));
    // x₀x₁
    assert_eq!(gradient(merge_array_ref {}, &[-1.0, 3.0]).1, [3.0, -1.0]);
}

#[test]
fn active_array_merged_into_a_slice() {
    // 2x₀·x₁, then x₀x₁
    assert_eq!(
        gradient(merge_active_array_ref {}, &[1.0, 3.0]),
        (6.0, [6.0, 2.0])
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
    assert_eq!((v, g), (20.0, [0.0, 10.0, 0.0]));
    // x₁(3x₀ + 2x₁ + x₂)
    let x = [-1.0, 2.0, 0.5];
    let (v, g) = gradient(merge_in_loop {}, &x);
    assert_eq!(v, x[1] * (3.0 * x[0] + 2.0 * x[1] + x[2]));
    assert_eq!(g, [3.0 * x[1], 3.0 * x[0] + 4.0 * x[1] + x[2], x[1]]);
}

#[test]
fn slice_variable_reassigned_in_a_branch() {
    // 1·2 + x₁, then x₀x₁ + x₁
    assert_eq!(
        gradient(reassign_in_branch {}, &[1.0, 3.0]),
        (5.0, [0.0, 1.0])
    );
    assert_eq!(
        gradient(reassign_in_branch {}, &[-1.0, 3.0]),
        (0.0, [3.0, 0.0])
    );
    // x₁·9, then 2(x₀ + x₁)
    assert_eq!(
        gradient(reassign_two_in_branches {}, &[1.0, 3.0]),
        (27.0, [0.0, 9.0])
    );
    assert_eq!(
        gradient(reassign_two_in_branches {}, &[-1.0, 3.0]),
        (4.0, [2.0, 2.0])
    );
}

#[test]
fn slice_variable_reassigned_in_a_loop() {
    // x₁ > 1.5: 1·2 + x₀; otherwise x₀x₁ + x₀
    assert_eq!(
        gradient(reassign_in_loop {}, &[1.0, 3.0]),
        (3.0, [1.0, 0.0])
    );
    assert_eq!(
        gradient(reassign_in_loop {}, &[1.0, 0.5]),
        (1.5, [1.5, 1.0])
    );
    // 2x₀·x₁ (once reassigned), otherwise x₀x₁
    assert_eq!(
        gradient(reassign_active_in_loop {}, &[2.0, 3.0]),
        (12.0, [6.0, 4.0])
    );
    assert_eq!(
        gradient(reassign_active_in_loop {}, &[1.0, 0.5]),
        (0.5, [0.5, 1.0])
    );
}

#[test]
fn constant_sub_slices_carried_across_iterations() {
    // x₀² + 1·x₀ + 2·x₀ + 4
    let x = [1.5, -2.0];
    let (v, g) = gradient(carried_window {}, &x);
    assert_eq!(v, carried_window(&x));
    assert_eq!(v, x[0] * x[0] + 3.0 * x[0] + 4.0);
    assert_eq!(g, [2.0 * x[0] + 3.0, 0.0]);
    // (x₀ + x₁)x₁ + 1·x₁ + 3·x₁ + 6
    let (v, g) = gradient(carried_prefix {}, &x);
    assert_eq!(v, carried_prefix(&x));
    assert_eq!(v, (x[0] + x[1]) * x[1] + 4.0 * x[1] + 6.0);
    assert_eq!(g, [x[1], x[0] + 2.0 * x[1] + 4.0]);
    let (_, _, h) = hessian(carried_prefix {}, &x);
    assert_eq!(h.to_rows(), [[0.0, 1.0], [1.0, 2.0]]);
    // x₀x₁ + 2x₁ + 3x₁ + 4
    let (v, g) = gradient(carried_element {}, &x);
    assert_eq!(v, carried_element(&x));
    assert_eq!(v, x[0] * x[1] + 5.0 * x[1] + 4.0);
    assert_eq!(g, [x[1], x[0] + 5.0]);
    // x₀x₁ - x₁ + 2(1 + 2)
    let (v, g) = gradient(carried_while_read {}, &x);
    assert_eq!(v, carried_while_read(&x));
    assert_eq!(v, x[0] * x[1] - x[1] + 6.0);
    assert_eq!(g, [x[1], x[0] - 1.0]);
    // x₀x₁ + w₀w₁
    let w = [2.0, 3.0, 5.0];
    let (v, g) = gradient(bind(carried_suffix {}, (Wrt, Inactive(&w[..]))), &x);
    assert_eq!(v, carried_suffix(&x, &w));
    assert_eq!(v, x[0] * x[1] + 6.0);
    assert_eq!(g, [x[1], x[0]]);
}

#[test]
fn zero_tangents_follow_a_buffer_that_grows() {
    // x₀(1 + 3 + 6) + (1 + 2 + 3)x₁ for x₁ > 0
    let x = [1.5, 2.0];
    let (v, g) = gradient(growing_buffer {}, &x);
    assert_eq!(v, growing_buffer(&x));
    assert_eq!(v, 10.0 * x[0] + 6.0 * x[1]);
    assert_eq!(g, [10.0, 6.0]);
    // 3x₀(x₀ + x₁) + 3x₀x₁ for x₁ ≤ 0
    let x = [1.5, -2.0];
    let (v, g) = gradient(growing_buffer {}, &x);
    assert_eq!(v, growing_buffer(&x));
    assert_eq!(g, [6.0 * x[0] + 6.0 * x[1], 6.0 * x[0]]);
}
