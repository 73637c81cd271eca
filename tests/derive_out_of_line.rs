//! Rules whose body runs out of line (`#[inline(never)]`, float references split into
//! primal and tangent parameters, design.md "emit"): a loop writes memory and the function
//! takes a reference to floats. The shapes that split touches (generic floats, const
//! generics, `inactive(..)` slices, arguments left whole, methods, the user's own
//! `#[inline(..)]`, which `#[inline(always)]` carries to the rule) in every mode, checked against derivatives written from the math.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::Hyper;
use num_traits::Float;

/// `out[i] = x[i]·sin(x[i])`, generic over the float type.
#[derive_frule]
fn wave_into<T: Float>(x: &[T], out: &mut [T]) {
    for i in 0..x.len() {
        out[i] = x[i] * x[i].sin();
    }
}

#[test]
fn generic_float_outputs_get_their_tangents() {
    let x = [0.3, -1.2, 2.0];
    let dx = [1.0, -0.5, 0.25];
    let (mut out, mut dout) = ([0.0; 3], [0.0; 3]);
    wave_into_frule(
        Dual::new(&x[..], &dx[..]),
        Dual::new(&mut out[..], &mut dout[..]),
    );
    let mut plain = [0.0; 3];
    wave_into(&x, &mut plain);
    assert_eq!(out, plain);
    for i in 0..3 {
        assert_eq!(out[i], x[i] * x[i].sin());
        let d = x[i].sin() + x[i] * x[i].cos();
        approx::assert_relative_eq!(dout[i], d * dx[i], max_relative = 1e-14);
    }
    let x32 = [0.3f32, -1.2];
    let (mut o32, mut d32) = ([0.0f32; 2], [0.0f32; 2]);
    wave_into_frule(
        Dual::new(&x32[..], &[1.0f32, 1.0][..]),
        Dual::new(&mut o32[..], &mut d32[..]),
    );
    for i in 0..2 {
        let d = x32[i].sin() + x32[i] * x32[i].cos();
        approx::assert_relative_eq!(d32[i], d, max_relative = 1e-6);
    }
}

/// `out = a·exp(s)`, with a const generic length and a scalar argument left whole.
#[derive_frule]
fn scale_into<const N: usize>(a: &[f64; N], s: f64, out: &mut [f64; N]) {
    let e = s.exp();
    for i in 0..N {
        out[i] = a[i] * e;
    }
}

#[test]
fn const_generic_arrays_and_whole_scalars() {
    let a = [1.0, -2.0, 0.5];
    let s = 0.4;
    let (mut out, mut dout) = ([0.0; 3], [0.0; 3]);
    // Direction: da = [0, 1, 0], ds = 2.
    scale_into_frule(
        Dual::new(&a, &[0.0, 1.0, 0.0]),
        Dual::new(s, 2.0),
        Dual::new(&mut out, &mut dout),
    );
    let mut plain = [0.0; 3];
    scale_into(&a, s, &mut plain);
    assert_eq!(out, plain);
    for i in 0..3 {
        let da = if i == 1 { 1.0 } else { 0.0 };
        assert_eq!(out[i], a[i] * s.exp());
        approx::assert_relative_eq!(dout[i], (da + 2.0 * a[i]) * s.exp(), max_relative = 1e-14);
    }
}

/// `|L x|²` for a lower-triangular `L` given by rows, built in a local buffer as GMM's
/// `Q (x − μ)` is (the case the split is for); `l` is data.
#[derive_frule(inactive(l))]
fn lower_norm(l: &[f64], x: &[f64]) -> f64 {
    let n = x.len();
    let mut y = vec![0.0; n];
    let mut at = 0;
    for i in 0..n {
        for j in 0..i + 1 {
            y[i] += l[at] * x[j];
            at += 1;
        }
    }
    let mut s = 0.0;
    for i in 0..n {
        s += y[i] * y[i];
    }
    s
}

/// `L` as a dense matrix, rows of the packed lower triangle.
fn dense(l: &[f64], n: usize) -> Vec<Vec<f64>> {
    let mut m = vec![vec![0.0; n]; n];
    let mut at = 0;
    for i in 0..n {
        for j in 0..=i {
            m[i][j] = l[at];
            at += 1;
        }
    }
    m
}

#[test]
fn local_buffers_give_gradient_and_hessian() {
    let n = 4;
    let l: Vec<f64> = (0..n * (n + 1) / 2).map(|k| 0.3 + 0.1 * k as f64).collect();
    let x = [0.5, -1.0, 2.0, 0.25];
    let m = dense(&l, n);
    let y: Vec<f64> = (0..n)
        .map(|i| (0..n).map(|j| m[i][j] * x[j]).sum())
        .collect();
    // ∇ = 2 Lᵀ y, ∇² = 2 LᵀL.
    let grad: Vec<f64> = (0..n)
        .map(|j| 2.0 * (0..n).map(|i| m[i][j] * y[i]).sum::<f64>())
        .collect();
    let (v, g) = gradient(bind(lower_norm {}, (Inactive(&l[..]), Wrt)), &x);
    approx::assert_relative_eq!(v, lower_norm(&l, &x), max_relative = 1e-15);
    for j in 0..n {
        approx::assert_relative_eq!(g[j], grad[j], max_relative = 1e-13);
    }
    let (_, _, h) = fwdad::hessian(bind(lower_norm {}, (Inactive(&l[..]), Wrt)), &x);
    for a in 0..n {
        for b in 0..n {
            let want = 2.0 * (0..n).map(|i| m[i][a] * m[i][b]).sum::<f64>();
            approx::assert_relative_eq!(h[(a, b)], want, max_relative = 1e-13);
        }
    }
}

/// A method: `&self` stays whole, the output slice is split.
#[derive(Differentiable, Clone, Copy, Debug)]
struct Gain {
    k: f64,
}

#[derive_frule]
impl Gain {
    fn apply(&self, x: &[f64], out: &mut [f64]) {
        for i in 0..x.len() {
            out[i] = self.k * x[i] * x[i];
        }
    }
}

/// The user's `#[inline(never)]` splits a body without loops; their `#[inline]` keeps a
/// looping one in `frule`. Either way the derivative is the same.
#[derive_frule]
#[inline(never)]
fn product(x: &[f64]) -> f64 {
    x[0] * x[1]
}

#[derive_frule]
#[inline]
fn squares_into(x: &[f64], out: &mut [f64]) {
    for i in 0..x.len() {
        out[i] = x[i] * x[i];
    }
}

#[test]
fn methods_and_the_users_inline_attributes() {
    let x = [0.5, -3.0];
    let dx = [1.0, 2.0];
    let (mut out, mut dout) = ([0.0; 2], [0.0; 2]);
    let gain = Gain { k: 1.5 };
    let dgain = GainTangent { k: 2.0 };
    Gain::apply_frule(
        Dual::new(&gain, &dgain),
        Dual::new(&x[..], &dx[..]),
        Dual::new(&mut out[..], &mut dout[..]),
    );
    let mut plain = [0.0; 2];
    gain.apply(&x, &mut plain);
    assert_eq!(out, plain);
    for i in 0..2 {
        assert_eq!(out[i], 1.5 * x[i] * x[i]);
        // d(k x²) = dk x² + 2 k x dx.
        let want = 2.0 * x[i] * x[i] + 3.0 * x[i] * dx[i];
        approx::assert_relative_eq!(dout[i], want, max_relative = 1e-15);
    }
    let d = product_frule(Dual::new(&x[..], &dx[..]));
    assert_eq!(d.primal, product(&x));
    approx::assert_relative_eq!(d.tangent, dx[0] * x[1] + x[0] * dx[1], max_relative = 1e-15);
    squares_into_frule(
        Dual::new(&x[..], &dx[..]),
        Dual::new(&mut out[..], &mut dout[..]),
    );
    squares_into(&x, &mut plain);
    assert_eq!(out, plain);
    for i in 0..2 {
        approx::assert_relative_eq!(dout[i], 2.0 * x[i] * dx[i], max_relative = 1e-15);
    }
}

/// The user's `#[inline(always)]` is carried to the rule (generic, batched, nested in a
/// caller's rule): the derivative is still the math's, `∇|x| = x / |x|`.
#[derive_frule]
#[inline(always)]
fn radius<T: Float>(x: &[T]) -> T {
    (x[0] * x[0] + x[1] * x[1]).sqrt()
}

#[derive_frule]
fn scaled_radius(x: &[f64]) -> f64 {
    3.0 * radius(x)
}

#[test]
fn the_users_inline_always_reaches_the_rule() {
    let x = [3.0, -4.0];
    let (v, g) = gradient(scaled_radius {}, &x);
    assert_eq!(v, scaled_radius(&x));
    assert_eq!(v, 15.0);
    for i in 0..2 {
        approx::assert_relative_eq!(g[i], 3.0 * x[i] / 5.0, max_relative = 1e-15);
    }
    let xf = [0.6f32, 0.8];
    let d = radius_frule(Dual::new(&xf[..], &[1.0f32, 0.0][..]));
    assert_eq!(d.primal, radius(&xf));
    approx::assert_relative_eq!(d.tangent, 0.6f32, max_relative = 1e-6);
}

#[test]
fn batches_and_second_order_through_a_split_body() {
    // Two directions at once, lane by lane equal to one direction each.
    let x = [0.7, -0.4];
    let seeds = [Batch([1.0, 0.0]), Batch([0.0, 1.0])];
    let (mut out, mut dout) = ([0.0; 2], [Batch([0.0; 2]); 2]);
    <wave_into as Frule<_, Batch<f64, 2>>>::frule(
        &wave_into {},
        (
            Dual::new(&x[..], &seeds[..]),
            Dual::new(&mut out[..], &mut dout[..]),
        ),
    );
    for i in 0..2 {
        let d = x[i].sin() + x[i] * x[i].cos();
        for lane in 0..2 {
            let want = if lane == i { d } else { 0.0 };
            approx::assert_relative_eq!(dout[i].0[lane], want, max_relative = 1e-15);
        }
    }
    // Second order: d²/dx² (x sin x) = 2 cos x − x sin x.
    let seed = [Hyper {
        d1: 1.0,
        d2: 1.0,
        d12: 0.0,
    }];
    let (mut o, mut t) = (
        [0.0],
        [Hyper {
            d1: 0.0,
            d2: 0.0,
            d12: 0.0,
        }],
    );
    <wave_into as Frule<_, Hyper<f64, f64>>>::frule(
        &wave_into {},
        (
            Dual::new(&x[..1], &seed[..]),
            Dual::new(&mut o[..], &mut t[..]),
        ),
    );
    let want = 2.0 * x[0].cos() - x[0] * x[0].sin();
    approx::assert_relative_eq!(t[0].d12, want, max_relative = 1e-14);
}
