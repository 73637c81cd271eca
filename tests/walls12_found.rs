//! The fifteenth session's walls of ordinary code: each program is written as users wrote
//! it and failed to compile through `#[derive_frule]` before its fix. Every rule is checked
//! in one direction, in batches and at second order against central differences (or
//! closed forms), primals bit for bit against the plain function (`check_modes!`).
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;

#[macro_use]
mod common;

// ---------------------------------------------------------------------------------------
// A list of function items called by position: `basis[k](x)`.

#[derive_frule]
fn b0(t: f64) -> f64 {
    (1.0 - t).powi(3) / 6.0
}
#[derive_frule]
fn b1(t: f64) -> f64 {
    (3.0 * t.powi(3) - 6.0 * t * t + 4.0) / 6.0
}
#[derive_frule]
fn b2(t: f64) -> f64 {
    (-3.0 * t.powi(3) + 3.0 * t * t + 3.0 * t + 1.0) / 6.0
}
#[derive_frule]
fn b3(t: f64) -> f64 {
    t.powi(3) / 6.0
}

/// A uniform cubic B-spline segment: control points weighted by the four basis functions,
/// the basis held in an array of function pointers and called by position.
#[derive_frule]
fn bspline(c: &[f64], t: f64) -> f64 {
    let basis: [fn(f64) -> f64; 4] = [b0, b1, b2, b3];
    let mut s = 0.0;
    for k in 0..4 {
        s += c[k] * basis[k](t);
    }
    s
}

/// Closed form: the basis functions' derivatives.
fn bspline_dt(c: &[f64], t: f64) -> f64 {
    let d = [
        -(1.0 - t).powi(2) / 2.0,
        (9.0 * t * t - 12.0 * t) / 6.0,
        (-9.0 * t * t + 6.0 * t + 3.0) / 6.0,
        t * t / 2.0,
    ];
    (0..4).map(|k| c[k] * d[k]).sum()
}

#[test]
fn an_array_of_function_items_called_by_position() {
    let c = [1.0, 2.5, -0.5, 3.0];
    for t in [0.1, 0.45, 0.9] {
        let d = bspline_frule(Dual::constant(&c[..]), Dual::new(t, 1.0));
        assert_eq!(d.primal.to_bits(), bspline(&c, t).to_bits());
        assert!((d.tangent - bspline_dt(&c, t)).abs() < 1e-13);
    }
    // With respect to the control points and the parameter together.
    check_modes!(
        bspline_at {},
        |x: &[f64]| bspline(&x[..4], x[4]),
        [1.0, 2.5, -0.5, 3.0, 0.3]
    );
}

/// The control points and the parameter in one vector, for the drivers.
#[derive_frule]
fn bspline_at(p: &[f64]) -> f64 {
    bspline(&p[..4], p[4])
}

/// Features of a regression, closures capturing the width `s`, picked by position.
#[derive_frule]
fn features(w: &[f64], x: f64, s: f64) -> f64 {
    let phis: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(|_t| 1.0),
        Box::new(|t| (t * s).sin()),
        Box::new(|t| (-t * t / s).exp()),
    ];
    let mut y = 0.0;
    for k in 0..w.len() {
        y += w[k] * phis[k % 3](x);
    }
    y
}

#[derive_frule]
fn features_at(p: &[f64]) -> f64 {
    features(&p[..4], p[4], p[5])
}

#[test]
fn a_list_of_closures_called_by_position() {
    check_modes!(
        features_at {},
        |p: &[f64]| features(&p[..4], p[4], p[5]),
        [0.5, -1.0, 2.0, 0.7, 0.8, 1.3]
    );
}

#[test]
#[should_panic(expected = "index out of bounds: the len is 4")]
fn a_position_past_the_list_panics_as_indexing_does() {
    #[derive_frule]
    fn past(x: f64, k: usize) -> f64 {
        let basis: [fn(f64) -> f64; 4] = [b0, b1, b2, b3];
        basis[k](x)
    }
    let _ = past_frule(Dual::new(0.5, 1.0), 4);
}

// ---------------------------------------------------------------------------------------
// `len()` of iterator chains (`ExactSizeIterator`).

/// The mean of every third sample (a decimated signal), and a per-block penalty over the
/// blocks of three, counted by the iterators' `len()`.
#[derive_frule]
fn decimated_mean(xs: &[f64]) -> f64 {
    let n = xs.iter().step_by(3).len();
    let blocks = xs.chunks(3).len();
    let full = xs.chunks_exact(3).len();
    let pairs = xs.windows(2).len();
    let s: f64 = xs.iter().step_by(3).sum();
    let tail = xs.iter().skip(1).take(4).len() as f64;
    s / n as f64 + (blocks as f64) * xs[0] * xs[0] + (full + pairs) as f64 * xs[1] + tail
}

#[test]
fn lengths_of_iterator_chains() {
    for x in [
        vec![0.3, -1.2, 0.8, 2.0, 0.1],
        vec![0.3, -1.2, 0.8, 2.0, 0.1, 0.9, 1.5],
    ] {
        check_modes!(decimated_mean {}, |x: &[f64]| decimated_mean(x), x);
    }
    // The counts against `std`'s.
    let x = [0.3, -1.2, 0.8, 2.0, 0.1, 0.9, 1.5];
    // 3 samples of step 3, 3 blocks, 2 full ones, 6 pairs, 4 after the first.
    let want = (0.3 + 2.0 + 1.5) / 3.0 + 3.0 * 0.3 * 0.3 + (2.0 + 6.0) * -1.2 + 4.0;
    assert!((decimated_mean(&x) - want).abs() < 1e-12);
}

/// A zipped, enumerated chain's length, and a range's stepped count.
#[derive_frule]
fn zipped_count(a: &[f64], b: &[f64]) -> f64 {
    let m = a.iter().zip(b).enumerate().len();
    let k = (1..a.len()).step_by(2).len();
    let mut s = 0.0;
    for (x, y) in a.iter().zip(b) {
        s += x * y;
    }
    s / m as f64 + k as f64 * a[0]
}

#[derive_frule]
fn zipped_count_at(p: &[f64]) -> f64 {
    zipped_count(&p[..5], &p[5..])
}

#[test]
fn lengths_of_zipped_chains_and_ranges() {
    check_modes!(
        zipped_count_at {},
        |p: &[f64]| zipped_count(&p[..5], &p[5..]),
        [0.5, 1.0, -0.4, 0.2, 2.0, 1.5, -0.3, 0.7]
    );
    // m = min(5, 3) = 3, k = |{1, 3}| = 2.
    let (a, b) = ([1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 1.0, 1.0]);
    assert_eq!(zipped_count(&a, &b), 6.0 / 3.0 + 2.0);
}

// ---------------------------------------------------------------------------------------
// A `const` settings struct of the user's (no `Differentiable`) passed by reference to a
// derived function's plain-data parameter: `response(x, &KNOBS)`.

/// A plain settings struct, as a `const` item.
pub struct Knobs {
    pub gain: f64,
    pub damping: f64,
    pub steps: usize,
}

const KNOBS: Knobs = Knobs {
    gain: 0.5,
    damping: 0.1,
    steps: 4,
};

/// A damped nonlinear recurrence with its settings read from `cfg`.
#[derive_frule]
fn response(x: f64, cfg: &Knobs) -> f64 {
    let mut y = x;
    for _ in 0..cfg.steps {
        y = y * cfg.gain + (1.0 - cfg.damping) * y.sin();
    }
    y
}

#[derive_frule]
fn tuned(p: &[f64]) -> f64 {
    response(p[0], &KNOBS) * p[1] + response(p[1], &KNOBS)
}

#[test]
fn a_const_settings_struct_passed_by_reference() {
    check_modes!(
        tuned {},
        |p: &[f64]| response(p[0], &KNOBS) * p[1] + response(p[1], &KNOBS),
        [0.3, -0.7]
    );
    // d/dx of the recurrence: y' = y' (g + (1 - c) cos y) per step.
    let (mut y, mut dy) = (0.3f64, 1.0);
    for _ in 0..4 {
        dy *= 0.5 + 0.9 * y.cos();
        y = y * 0.5 + 0.9 * y.sin();
    }
    let d = response_frule(Dual::new(0.3, 1.0), &KNOBS);
    assert_eq!(d.primal.to_bits(), response(0.3, &KNOBS).to_bits());
    assert!((d.tangent - dy).abs() < 1e-14 && (d.primal - y).abs() < 1e-15);
}

// ---------------------------------------------------------------------------------------
// An operator between two calls of a derived function returning the user's type:
// `efield(p, w) - efield(p, 2.0 * w)`.

use std::ops::Sub;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

/// A smoothed field at the point `p` at scale `w`.
#[derive_frule]
fn field(p: &[f64], w: f64) -> V3 {
    V3 {
        x: (p[0] * w).sin(),
        y: p[1] * w,
        z: (p[2] * w).exp(),
    }
}

/// A difference of scales (a band-pass), its squared norm.
#[derive_frule]
fn band(p: &[f64], w: f64) -> f64 {
    let d = field(p, w) - field(p, 2.0 * w);
    d.x * d.x + d.y * d.y + d.z * d.z
}

#[derive_frule]
fn band_at(q: &[f64]) -> f64 {
    band(&q[..3], q[3])
}

#[test]
fn an_operator_on_two_results_of_a_derived_function() {
    check_modes!(
        band_at {},
        |q: &[f64]| band(&q[..3], q[3]),
        [0.4, -0.3, 0.2, 0.9]
    );
    // Closed form in the scale: d = (sin(aw) - sin(2aw), -bw, e^{cw} - e^{2cw}).
    let (a, b, c, w) = (0.4f64, -0.3f64, 0.2f64, 0.9f64);
    let dx = (a * w).sin() - (2.0 * a * w).sin();
    let dy = -b * w;
    let dz = (c * w).exp() - (2.0 * c * w).exp();
    let ddx = a * (a * w).cos() - 2.0 * a * (2.0 * a * w).cos();
    let ddy = -b;
    let ddz = c * (c * w).exp() - 2.0 * c * (2.0 * c * w).exp();
    let want = 2.0 * (dx * ddx + dy * ddy + dz * ddz);
    let d = band_frule(Dual::constant(&[a, b, c][..]), Dual::new(w, 1.0));
    assert!((d.tangent - want).abs() < 1e-13);
}

// ---------------------------------------------------------------------------------------
// `let mut prev = None;` first read by `prev.take()`, typed by a later `prev = Some(x)`.

/// Total variation of a signal, squared steps, as a filter keeps its previous sample.
#[derive_frule]
fn roughness(xs: &[f64]) -> f64 {
    let mut prev = None;
    let mut acc = 0.0;
    for &x in xs {
        if let Some(p) = prev.take() {
            acc += (x - p) * (x - p) + 0.1 * x * p;
        }
        prev = Some(x);
    }
    acc
}

#[test]
fn an_untyped_option_taken_before_it_is_assigned() {
    check_modes!(roughness {}, roughness, [0.3, -0.2, 0.9, 1.4]);
    // Closed form at one sample: ∂/∂x1 of (x1 - x0)² + 0.1 x1 x0 + (x2 - x1)² + 0.1 x2 x1.
    let x: [f64; 4] = [0.3, -0.2, 0.9, 1.4];
    let want = 2.0 * (x[1] - x[0]) + 0.1 * x[0] - 2.0 * (x[2] - x[1]) + 0.1 * x[2];
    let d = roughness_frule(Dual::new(&x[..], &[0.0, 1.0, 0.0, 0.0][..]));
    assert!((d.tangent - want).abs() < 1e-14);
}
// ---------------------------------------------------------------------------------------
// The `_frule` of a generic function, or of one taking a function value, called with
// `Dual::constant(..)` arguments (a slice, a `Vec`, a float), as for a plain function.

use num_traits::Float;

/// Horner's rule over coefficients of any float type.
#[derive_frule]
fn horner<T: Float>(c: &[T], x: T) -> T {
    let mut s = T::zero();
    for &ci in c.iter().rev() {
        s = s * x + ci;
    }
    s
}

/// A weighted response through an activation the caller passes.
#[derive_frule]
fn activated<F: Fn(f64) -> f64>(w: &[f64], act: F, x: f64) -> f64 {
    w.iter()
        .enumerate()
        .map(|(k, wk)| wk * act(x * (k as f64 + 1.0)))
        .sum()
}

#[derive_frule]
fn horner_at(p: &[f64]) -> f64 {
    horner(&p[..3], p[3])
}

#[test]
fn a_generic_functions_rule_takes_constants() {
    let c: [f64; 3] = [1.0, -2.0, 0.5];
    let x: f64 = 0.7;
    // d/dx (1 - 2x + 0.5x²) = -2 + x.
    let d = horner_frule(Dual::constant(&c[..]), Dual::new(x, 1.0));
    assert_eq!(d.primal.to_bits(), horner(&c, x).to_bits());
    assert!((d.tangent - (-2.0 + x)).abs() < 1e-15);
    // The coefficients from a `Vec`, the function's type parameter named.
    let cv = c.to_vec();
    let d = horner_frule::<f64>(Dual::constant(&cv), Dual::new(x, 1.0));
    assert!((d.tangent - (-2.0 + x)).abs() < 1e-15);
    // ∂/∂c₂ = x², the point a constant.
    let d = horner_frule(Dual::new(&c[..], &[0.0, 0.0, 1.0][..]), Dual::constant(x));
    assert!((d.tangent - x * x).abs() < 1e-15);
    // At `f32`.
    let c32 = [1.0f32, -2.0, 0.5];
    let d = horner_frule(Dual::constant(&c32[..]), Dual::new(0.5f32, 1.0));
    assert_eq!(d.primal.to_bits(), horner(&c32, 0.5f32).to_bits());
    assert!((d.tangent - (-1.5)).abs() < 1e-6);
    check_modes!(
        horner_at {},
        |p: &[f64]| horner(&p[..3], p[3]),
        [1.0, -2.0, 0.5, 0.7]
    );
}

#[test]
fn a_rule_taking_a_function_value_takes_constants() {
    let w = vec![0.5, -1.0, 2.0];
    let x = 0.3;
    let d = activated_frule(
        Dual::constant(&w),
        |z: Dual<f64>| z.tanh(),
        Dual::new(x, 1.0),
    );
    assert_eq!(
        d.primal.to_bits(),
        activated(&w, |z: f64| z.tanh(), x).to_bits()
    );
    let want: f64 = (0..3)
        .map(|k| {
            let a = k as f64 + 1.0;
            w[k] * a * (1.0 - (a * x).tanh().powi(2))
        })
        .sum();
    assert!((d.tangent - want).abs() < 1e-14);
}

/// The same filter over `f32` samples, its sum kept in `f64`.
#[derive_frule]
fn roughness32(xs: &[f32]) -> f64 {
    let mut prev = None;
    let mut acc = 0.0;
    for &x in xs {
        if let Some(p) = prev.take() {
            acc += ((x - p) * (x - p)) as f64;
        }
        prev = Some(x);
    }
    acc
}

#[test]
fn an_untyped_option_of_f32_samples() {
    let x: [f32; 3] = [0.3, -0.2, 0.9];
    let d = roughness32_frule(Dual::new(&x[..], &[0.0f32, 1.0, 0.0][..]));
    assert_eq!(d.primal.to_bits(), roughness32(&x).to_bits());
    // ∂/∂x1 of (x1 - x0)² + (x2 - x1)², in f32.
    let want = 2.0 * (x[1] - x[0]) - 2.0 * (x[2] - x[1]);
    assert!((d.tangent - want as f64).abs() < 1e-5);
}
