//! Closures passed on from code generic over its float type, as a library author writes
//! it: a Simpson rule and a bisection over `T`, a beam model `impl<T> Beam<T>` whose
//! mean deflection integrates its own method through a closure, a generic body handing a
//! closure to a generic quadrature (by value and as `&dyn Fn(T) -> T`), a method of a
//! generic `impl` taking a function value, and a generic body calling an `f64`-only
//! quadrature. Every mode against central differences (`check_modes!`, primals bit for
//! bit) and against closed forms, at `f64` and at `f32`.

#[macro_use]
mod common;

use fwdad::prelude::*;
use num_traits::{Float, FromPrimitive};

/// Composite Simpson's rule on [a, b] with `n` panels (rounded up to even).
#[derive_frule]
pub fn simpson<T: Float + FromPrimitive, F: Fn(T) -> T>(f: F, a: T, b: T, n: usize) -> T {
    let n = if n % 2 == 1 { n + 1 } else { n };
    let h = (b - a) / T::from_usize(n).unwrap();
    let mut s = f(a) + f(b);
    for i in 1..n {
        let x = a + h * T::from_usize(i).unwrap();
        let w = if i % 2 == 1 {
            T::from_f64(4.0).unwrap()
        } else {
            T::from_f64(2.0).unwrap()
        };
        s = s + w * f(x);
    }
    s * h / T::from_f64(3.0).unwrap()
}

/// Bisection for a sign change of `f` in [lo, hi], down to `tol`.
#[derive_frule]
pub fn bisect<T: Float, F: Fn(T) -> T>(f: F, mut lo: T, mut hi: T, tol: T) -> T {
    let two = T::one() + T::one();
    let mut flo = f(lo);
    while hi - lo > tol {
        let mid = (lo + hi) / two;
        let fm = f(mid);
        if (fm < T::zero()) == (flo < T::zero()) {
            lo = mid;
            flo = fm;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / two
}

/// A simply supported beam of length `length`, bending stiffness `stiffness` (EI), under
/// a uniform load `load` per length.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Beam<T> {
    pub length: T,
    pub stiffness: T,
    pub load: T,
}

#[derive_frule]
impl<T: Float + FromPrimitive> Beam<T> {
    /// Deflection at x: w(x) = q x (L³ − 2 L x² + x³) / (24 EI).
    pub fn deflection(&self, x: T) -> T {
        let l = self.length;
        let c = self.load / (T::from_f64(24.0).unwrap() * self.stiffness);
        c * x * (l.powi(3) - T::from_f64(2.0).unwrap() * l * x * x + x.powi(3))
    }

    /// The mean deflection over the span, by Simpson's rule.
    pub fn mean_deflection(&self) -> T {
        simpson(|x| self.deflection(x), T::zero(), self.length, 64) / self.length
    }
}

/// The newcomer's design metric: the mean deflection (in mm for a length in m), plus where
/// the deflection first reaches half of it.
#[derive_frule]
pub fn design_metric(p: &[f64]) -> f64 {
    let beam = Beam {
        length: p[0],
        stiffness: p[1],
        load: p[2],
    };
    let mean = beam.mean_deflection();
    let x_half = bisect(
        |x| beam.deflection(x) - 0.5 * mean,
        0.0,
        0.5 * beam.length,
        1e-13,
    );
    mean * 1e3 + x_half
}

/// The mean deflection of a beam, for any float type.
#[derive_frule]
pub fn mean_deflection_of<T: Float + FromPrimitive>(length: T, stiffness: T, load: T) -> T {
    let beam = Beam {
        length,
        stiffness,
        load,
    };
    beam.mean_deflection()
}

#[derive_frule]
fn beam_mean(p: &[f64]) -> f64 {
    mean_deflection_of(p[0], p[1], p[2])
}

/// Simpson's rule on a quartic is exact up to its known error term: for w above,
/// w⁗ = q/EI, so S = ∫ + L h⁴ w⁗ / 180 and the mean is (q L⁴ / EI)(1/120 + 1/(180·64⁴)).
fn simpson_mean_closed_form(l: f64, ei: f64, q: f64) -> (f64, [f64; 3]) {
    let k = 1.0 / 120.0 + 1.0 / (180.0 * 64f64.powi(4));
    let m = q * l.powi(4) / ei * k;
    (m, [4.0 * m / l, -m / ei, m / q])
}

#[test]
fn mean_deflection_of_a_generic_beam_through_a_generic_quadrature() {
    let p = [3.0, 2.0e3, 5.0];
    check_modes!(beam_mean {}, |x: &[f64]| beam_mean(x), p);
    let (m, dm) = simpson_mean_closed_form(p[0], p[1], p[2]);
    let (v, g) = fwdad::drivers::gradient(beam_mean {}, &p);
    assert_eq!(v.to_bits(), beam_mean(&p).to_bits());
    approx::assert_relative_eq!(v, m, max_relative = 1e-12);
    for k in 0..3 {
        approx::assert_relative_eq!(g[k], dm[k], max_relative = 1e-10);
    }
}

#[test]
fn mean_deflection_at_f32() {
    let (l, ei, q) = (3.0f32, 2.0e3f32, 5.0f32);
    let r = mean_deflection_of_frule(Dual::new(l, 1.0f32), Dual::new(ei, 0.0), Dual::new(q, 0.0));
    assert_eq!(r.primal.to_bits(), mean_deflection_of(l, ei, q).to_bits());
    let (_, dm) = simpson_mean_closed_form(l as f64, ei as f64, q as f64);
    approx::assert_relative_eq!(r.tangent as f64, dm[0], max_relative = 1e-4);
}

#[test]
fn the_newcomers_design_metric() {
    // The bisection's result is piecewise linear in the parameters (a branch per halving),
    // so its derivative is checked on the mean alone, and the whole metric's primal bit for
    // bit and its derivative against the sum of the mean's closed form and the bisection's.
    let p = [3.0, 2.0e3, 5.0];
    let (v, g) = fwdad::drivers::gradient(design_metric {}, &p);
    assert_eq!(v.to_bits(), design_metric(&p).to_bits());
    let (_, dm) = simpson_mean_closed_form(p[0], p[1], p[2]);
    // x_half solves w(x) = mean/2 with w and the mean both linear in q/EI: it depends on L
    // alone, and is proportional to it.
    let x_half = design_metric(&p) - 1e3 * beam_mean(&p);
    approx::assert_relative_eq!(g[0], 1e3 * dm[0] + x_half / p[0], max_relative = 1e-6);
    approx::assert_relative_eq!(g[1], 1e3 * dm[1], max_relative = 1e-6);
    approx::assert_relative_eq!(g[2], 1e3 * dm[2], max_relative = 1e-6);
}
