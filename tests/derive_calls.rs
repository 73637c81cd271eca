//! Calls between derived functions: same module, another module by path, through `use`,
//! and from another crate; checked against analytic derivatives.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop, clippy::manual_is_multiple_of)]

use fwdad::prelude::*;

#[derive_frule]
fn square(x: f64) -> f64 {
    x * x
}

mod inner {
    use fwdad::prelude::*;

    #[derive_frule]
    pub fn cube(x: f64) -> f64 {
        x * x * x
    }

    pub mod deeper {
        use fwdad::prelude::*;

        #[derive_frule]
        pub fn scaled(x: f64, k: f64) -> f64 {
            k * super::cube(x)
        }
    }
}

use fwdad_special::geometry::norm3;
use inner::deeper::scaled;

#[derive_frule]
fn composite(x: f64, k: f64) -> f64 {
    let a = square(x);
    let b = inner::cube(a);
    let c = scaled(x, k);
    let d = fwdad_special::softplus(c - b);
    let v = [x, 2.0 * x, k];
    d + norm3(&v) + square(3.0)
}

#[test]
fn composite_matches_chain_rule() {
    let sp = |z: f64| z.exp().ln_1p();
    let dsp = |z: f64| 1.0 / (1.0 + (-z).exp());
    for &(x, k) in &[(0.3, 1.5), (-0.8, 0.25), (1.1, -2.0)] {
        let f = composite(x, k);
        // d/dx
        let dx = composite_frule(Dual::new(x, 1.0), Dual::new(k, 0.0));
        // d/dk
        let dk = composite_frule(Dual::new(x, 0.0), Dual::new(k, 1.0));
        assert_eq!(dx.primal.to_bits(), f.to_bits());
        let z = k * x.powi(3) - x.powi(6);
        let n = (5.0 * x * x + k * k).sqrt();
        let exp_dx = dsp(z) * (3.0 * k * x * x - 6.0 * x.powi(5)) + 5.0 * x / n;
        let exp_dk = dsp(z) * x.powi(3) + k / n;
        approx::assert_relative_eq!(dx.tangent, exp_dx, max_relative = 1e-12);
        approx::assert_relative_eq!(dk.tangent, exp_dk, max_relative = 1e-12);
        let _ = sp;
    }
}

/// A `&[f64]` / `&mut [f64]` parameter takes `&v` of a `Vec`, `&[..]` of an array, or a
/// slice, as Rust's call coercions allow.
#[derive_frule]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for (x, y) in a.iter().zip(b) {
        s += x * y;
    }
    s
}

#[derive_frule]
fn fill_scaled(out: &mut [f64], k: f64) {
    for v in out.iter_mut() {
        *v = k;
    }
}

#[derive_frule]
fn coerced(x: f64) -> f64 {
    let v = vec![x, 2.0 * x];
    let arr = [x * x, 1.0];
    let mut buf = vec![0.0; 2];
    fill_scaled(&mut buf, x);
    dot(&v, &arr) + dot(&v[..], &[3.0, x]) + buf[1]
}

#[test]
fn slice_parameters_take_vecs_and_arrays() {
    let x = 1.5;
    let d = coerced_frule(Dual::new(x, 1.0));
    assert_eq!(d.primal, coerced(x));
    // f = x³ + 2x + 3x + 2x² + x; f' = 3x² + 4x + 6
    approx::assert_relative_eq!(d.tangent, 3.0 * x * x + 4.0 * x + 6.0, max_relative = 1e-14);
}

/// A helper `fn` nested in the body, called on active values (it gets a rule of its own)
/// and on constants only (it stays plain).
#[derive_frule]
fn with_nested_helpers(x: f64, n: usize) -> f64 {
    fn cube(t: f64) -> f64 {
        t * t * t
    }
    fn half(k: usize) -> usize {
        k / 2
    }
    cube(x) + half(n) as f64 * x
}

#[test]
fn nested_function_items_are_differentiated() {
    // x³ + ⌊n/2⌋ x; derivative 3x² + ⌊n/2⌋.
    let r = with_nested_helpers_frule(Dual::new(1.5, 1.0), Dual::constant(5));
    assert_eq!(r.primal, with_nested_helpers(1.5, 5));
    assert_eq!(r.primal, 1.5f64.powi(3) + 2.0 * 1.5);
    assert!(
        (r.tangent - (3.0 * 2.25 + 2.0)).abs() < 1e-12,
        "{}",
        r.tangent
    );
}

/// A nested helper called only from another nested helper gets a rule too.
#[derive_frule]
fn with_chained_helpers(p: &[f64]) -> f64 {
    fn sq(t: f64) -> f64 {
        t * t
    }
    fn dist(a: f64, b: f64) -> f64 {
        (sq(a) + sq(b)).sqrt()
    }
    dist(p[0], p[1])
}

#[test]
fn nested_helpers_calling_nested_helpers() {
    // r = √(a² + b²): ∇r = (a, b)/r.
    let (v, g) = fwdad::drivers::gradient(with_chained_helpers {}, &[3.0, 4.0]);
    assert_eq!(v, 5.0);
    assert!(
        (g[0] - 0.6).abs() < 1e-15 && (g[1] - 0.8).abs() < 1e-15,
        "{g:?}"
    );
}

/// LU with partial pivoting, the row permutation kept in a `&mut [usize]` the caller lends
/// from a local `Vec<usize>` (a buffer of non-differentiable elements).
#[allow(clippy::needless_range_loop)]
#[derive_frule]
fn lu_in_place(a: &mut [f64], n: usize, perm: &mut [usize]) -> f64 {
    let mut sign = 1.0;
    for i in 0..n {
        perm[i] = i;
    }
    for k in 0..n {
        let mut p = k;
        for i in k + 1..n {
            if a[i * n + k].abs() > a[p * n + k].abs() {
                p = i;
            }
        }
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
            perm.swap(k, p);
            sign = -sign;
        }
        for i in k + 1..n {
            let f = a[i * n + k] / a[k * n + k];
            a[i * n + k] = f;
            for j in k + 1..n {
                a[i * n + j] -= f * a[k * n + j];
            }
        }
    }
    sign
}

#[derive_frule]
fn det_by_lu(m: &[f64]) -> f64 {
    let n = 3;
    let mut a = m.to_vec();
    let mut perm = vec![0usize; n];
    let mut d = lu_in_place(&mut a, n, &mut perm);
    for i in 0..n {
        d *= a[i * n + i];
    }
    d
}

#[test]
fn determinant_through_lu_with_a_permutation_buffer() {
    let m = [2.0, -1.0, 0.5, 4.0, 1.0, -2.0, 1.0, 3.0, 1.5];
    // ∂det/∂mᵢⱼ is the cofactor Cᵢⱼ = (-1)^(i+j) · the minor without row i and column j.
    let at = |i: usize, j: usize| m[i * 3 + j];
    let cofactor = |i: usize, j: usize| {
        let (r, c): (Vec<usize>, Vec<usize>) = (
            (0..3).filter(|&k| k != i).collect(),
            (0..3).filter(|&k| k != j).collect(),
        );
        let minor = at(r[0], c[0]) * at(r[1], c[1]) - at(r[0], c[1]) * at(r[1], c[0]);
        if (i + j) % 2 == 0 {
            minor
        } else {
            -minor
        }
    };
    let det: f64 = (0..3).map(|j| at(0, j) * cofactor(0, j)).sum();
    let (v, g) = fwdad::drivers::gradient(det_by_lu {}, &m);
    assert_eq!(v, det_by_lu(&m));
    assert!((v - det).abs() < 1e-12, "{v} vs {det}");
    for i in 0..3 {
        for j in 0..3 {
            let want = cofactor(i, j);
            assert!(
                (g[i * 3 + j] - want).abs() < 1e-12,
                "({i}, {j}): {} vs {want}",
                g[i * 3 + j]
            );
        }
    }
}
