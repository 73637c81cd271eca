//! Generic traits as library authors lay them out (fifteenth session): a stepper trait
//! generic over its scalar declared in a module file of its own (`mod
//! generic12_schemes;`, `use generic12_schemes::Integrator;`) with its `impl`s here, called
//! on a value and through a bounded type parameter; floats reached through an associated
//! type, a model's `type Scalar: Float` (`M::Scalar`, `<M as Model>::Scalar`,
//! `M::Scalar::zero()`) and an iterable's `I::Item` bounded `where I::Item: Float`. Each
//! annotated unmodified.
//!
//! Each is checked by `check_widths!` (one direction, batches of 1 to 16 lanes, second
//! order, against central differences; primals bit for bit) and against a closed form.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::jvp;
use fwdad::prelude::*;
use num_traits::{Float, Zero};

#[macro_use]
mod common;
mod generic12_schemes;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;
use generic12_schemes::Integrator;

// ---------------------------------------------------------------------------------------
// A generic trait declared in another file
// ---------------------------------------------------------------------------------------

/// Explicit Euler for logistic growth, `y' = r y (1 - y / k)`.
#[derive(Clone, Debug, Differentiable)]
pub struct LogisticEuler {
    pub r: f64,
    pub k: f64,
}

#[derive_frule]
impl Integrator<f64> for LogisticEuler {
    fn step(&self, _t: f64, y: f64, h: f64) -> f64 {
        y + h * self.r * y * (1.0 - y / self.k)
    }
}

/// Linear decay `y' = -a y`, stepped by its exact flow, whose `run` is the closed form.
#[derive(Clone, Debug, Differentiable)]
pub struct Decay {
    pub a: f64,
}

#[derive_frule]
impl generic12_schemes::Integrator<f64> for Decay {
    fn step(&self, _t: f64, y: f64, h: f64) -> f64 {
        y * (-self.a * h).exp()
    }

    fn run(&self, _t0: f64, y0: f64, h: f64, n: usize) -> f64 {
        y0 * (-self.a * h * n as f64).exp()
    }
}

/// The default method on a value of a concrete type.
#[derive_frule]
pub fn logistic_at(p: &[f64]) -> f64 {
    let scheme = LogisticEuler { r: p[0], k: p[1] };
    scheme.run(0.0, p[2], 0.05, 40)
}

/// Through a type parameter bounded by the generic trait.
#[derive_frule]
pub fn final_state<I: Integrator<f64>>(scheme: &I, y0: f64, h: f64) -> f64 {
    scheme.run(0.0, y0, h, 40)
}

#[derive_frule]
pub fn logistic_through_bound(p: &[f64]) -> f64 {
    let scheme = LogisticEuler { r: p[0], k: p[1] };
    final_state(&scheme, p[2], 0.05)
}

#[derive_frule]
pub fn decay_through_bound(p: &[f64]) -> f64 {
    let scheme = Decay { a: p[0] };
    final_state(&scheme, p[1], 0.1)
}

/// The logistic Euler map written out by hand: the reference, independent of the trait.
fn logistic_by_hand(r: f64, k: f64, y0: f64, h: f64, n: usize) -> f64 {
    let mut y = y0;
    for _ in 0..n {
        y += h * r * y * (1.0 - y / k);
    }
    y
}

#[test]
fn trait_declared_in_another_file() {
    let p = [1.3, 2.0, 0.2];
    check_widths!(logistic_at {}, logistic_at, p);
    check_widths!(logistic_through_bound {}, logistic_through_bound, p);
    let (v, g) = gradient(logistic_through_bound {}, &p);
    let by_hand = |q: &[f64]| logistic_by_hand(q[0], q[1], q[2], 0.05, 40);
    assert_eq!(v.to_bits(), by_hand(&p).to_bits());
    let fd = fd_gradient(&by_hand, &p);
    for k in 0..3 {
        assert_close(g[k], fd[k], 1e-7, "d logistic");
    }
    // The overridden `run` through the bound: y0 e^{-a h n}.
    let q = [0.7, 1.5];
    check_widths!(decay_through_bound {}, decay_through_bound, q);
    let (v, g) = gradient(decay_through_bound {}, &q);
    let e = (-q[0] * 0.1 * 40.0).exp();
    assert_close(v, q[1] * e, 1e-15, "y(T)");
    assert_close(g[0], -0.1 * 40.0 * q[1] * e, 1e-14, "dy/da");
    assert_close(g[1], e, 1e-15, "dy/dy0");
}

// ---------------------------------------------------------------------------------------
// A float reached through an associated type
// ---------------------------------------------------------------------------------------

/// A dose-response model, generic over its scalar by an associated type, as fitting
/// libraries declare their models.
#[derive_frule]
pub trait Model {
    type Scalar: Float;
    fn response(&self, x: Self::Scalar) -> Self::Scalar;
}

/// Hill kinetics, `v = vmax xⁿ / (kmⁿ + xⁿ)`.
#[derive(Clone, Debug, Differentiable)]
pub struct Hill {
    pub vmax: f64,
    pub km: f64,
    pub n: f64,
}

#[derive_frule]
impl Model for Hill {
    type Scalar = f64;
    fn response(&self, x: f64) -> f64 {
        let xn = x.powf(self.n);
        self.vmax * xn / (self.km.powf(self.n) + xn)
    }
}

/// The sum of squared residuals of any model, in the model's scalar.
#[derive_frule]
pub fn sse<M: Model>(m: &M, xs: &[M::Scalar], ys: &[M::Scalar]) -> M::Scalar {
    let mut s = M::Scalar::zero();
    for i in 0..xs.len() {
        let r = m.response(xs[i]) - ys[i];
        s = s + r * r;
    }
    s
}

/// A prediction at a shifted dose, the scalar named through the trait.
#[derive_frule]
pub fn shifted<M: Model>(
    m: &M,
    x: <M as Model>::Scalar,
    dx: <M as Model>::Scalar,
) -> <M as Model>::Scalar {
    m.response(x + dx)
}

const DOSES: [f64; 4] = [0.5, 1.0, 2.0, 4.0];
const RATES: [f64; 4] = [0.2, 0.45, 0.7, 0.85];

#[derive_frule]
pub fn hill_sse(p: &[f64]) -> f64 {
    let m = Hill {
        vmax: p[0],
        km: p[1],
        n: p[2],
    };
    sse(&m, &DOSES, &RATES)
}

#[derive_frule]
pub fn hill_shifted(p: &[f64]) -> f64 {
    let m = Hill {
        vmax: p[0],
        km: 1.1,
        n: 1.5,
    };
    shifted(&m, p[1], 0.25)
}

#[test]
fn float_through_an_associated_type() {
    let p = [1.0, 1.1, 1.5];
    check_widths!(hill_sse {}, hill_sse, p);
    // ∂SSE/∂vmax = 2 Σ rᵢ xᵢⁿ / (kmⁿ + xᵢⁿ), r the residuals.
    let (v, g) = gradient(hill_sse {}, &p);
    let (mut s, mut d) = (0.0, 0.0);
    for i in 0..4 {
        let frac = DOSES[i].powf(p[2]) / (p[1].powf(p[2]) + DOSES[i].powf(p[2]));
        let r = p[0] * frac - RATES[i];
        s += r * r;
        d += 2.0 * r * frac;
    }
    assert_close(v, s, 1e-14, "SSE");
    assert_close(g[0], d, 1e-13, "dSSE/dvmax");

    let q = [0.9, 0.6];
    check_widths!(hill_shifted {}, hill_shifted, q);
    // dv/dx = vmax n kmⁿ xⁿ⁻¹ / (kmⁿ + xⁿ)².
    let (_, g) = gradient(hill_shifted {}, &q);
    let (x, km, n) = (q[1] + 0.25, 1.1f64, 1.5);
    let want = q[0] * n * km.powf(n) * x.powf(n - 1.0) / (km.powf(n) + x.powf(n)).powi(2);
    assert_close(g[1], want, 1e-13, "dv/dx");
}

/// Horner's rule over any iterable of coefficients, generic over its item.
#[derive_frule]
pub fn polyval<I>(coeffs: I, x: I::Item) -> I::Item
where
    I: IntoIterator,
    I::Item: Float,
{
    let mut acc = I::Item::zero();
    for c in coeffs {
        acc = acc * x + c;
    }
    acc
}

#[derive_frule]
pub fn poly_of(p: &[f64]) -> f64 {
    polyval([0.5, -1.0, 2.0, 0.25], p[0]) * polyval(vec![1.0, 0.3], p[1])
}

#[test]
fn float_as_an_iterables_item() {
    let p = [0.7, 1.5];
    check_widths!(poly_of {}, poly_of, p);
    // (0.5x³ - x² + 2x + 0.25)(y + 0.3): the product's partials.
    let (v, g) = gradient(poly_of {}, &p);
    let (x, y) = (p[0], p[1]);
    let a = ((0.5 * x - 1.0) * x + 2.0) * x + 0.25;
    assert_eq!(v.to_bits(), (a * (1.0 * y + 0.3)).to_bits());
    assert_close(
        g[0],
        (1.5 * x * x - 2.0 * x + 2.0) * (y + 0.3),
        1e-14,
        "d/dx",
    );
    assert_close(g[1], a, 1e-15, "d/dy");
}

/// A model whose scalar the trait leaves unbounded, as a trait of another crate may: the
/// function says it is a float in its `where` clause, and is called with a turbofish.
#[derive_frule]
pub trait Response {
    type Scalar;
    fn gain(&self) -> f64;
}

#[derive(Clone, Debug, Differentiable)]
pub struct Amplifier {
    pub g: f64,
}

#[derive_frule]
impl Response for Amplifier {
    type Scalar = f64;
    fn gain(&self) -> f64 {
        self.g
    }
}

#[derive_frule]
pub fn distortion<M: Response>(x: M::Scalar, drive: M::Scalar) -> M::Scalar
where
    M::Scalar: Float,
{
    (x * drive).tanh() / drive.tanh()
}

#[derive_frule]
pub fn distortion_of(p: &[f64]) -> f64 {
    distortion::<Amplifier>(p[0], p[1])
}

#[test]
fn float_bounded_in_the_where_clause_with_a_turbofish() {
    let p = [0.4, 2.5];
    check_widths!(distortion_of {}, distortion_of, p);
    // d/dx tanh(x d) / tanh d = d sech²(x d) / tanh d.
    let (_, g) = gradient(distortion_of {}, &p);
    let (x, d) = (p[0], p[1]);
    let sech2 = 1.0 / (x * d).cosh().powi(2);
    assert_close(g[0], d * sech2 / d.tanh(), 1e-14, "d/dx");
}

/// num-traits' `Float` methods by their trait's path (`Float::sqrt(a)`, `<T as
/// Float>::mul_add(..)`, `num_traits::Float::hypot(..)`), as generic library code calls
/// them to avoid ambiguity.
#[derive_frule]
pub fn by_trait_path<T: Float>(a: T, b: T) -> T {
    Float::sqrt(a) * <T as Float>::mul_add(a, b, T::one()) + num_traits::Float::hypot(a, b)
}

#[derive_frule]
pub fn by_trait_path_of(p: &[f64]) -> f64 {
    by_trait_path(p[0], p[1])
}

#[test]
fn float_methods_by_the_trait_of_another_crate() {
    let p = [0.5, 0.7];
    check_widths!(by_trait_path_of {}, by_trait_path_of, p);
    // d/da = (ab + 1) / (2√a) + √a b + a / hypot(a, b).
    let (_, g) = gradient(by_trait_path_of {}, &p);
    let (a, b) = (p[0], p[1]);
    let want = (a * b + 1.0) / (2.0 * a.sqrt()) + a.sqrt() * b + a / a.hypot(b);
    assert_close(g[0], want, 1e-14, "d/da");
}
