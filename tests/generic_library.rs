//! Generic numerics as library authors write them, each annotated unmodified: an RK4
//! integrator over `&[T]` with a closure right-hand side, a Newton solver taking the
//! function and its derivative, a `Spline<T>` and a `Poly<T>`, statistics over iterators
//! of `T`, a `V2<T>` with generic operator impls used in a loop, a trait whose method is
//! generic over the float type (and an inherent method generic over its own), and code bounded by `num_traits::real::Real`. Each is
//! instantiated at `f64` in a derived function checked in every mode (`check_modes!`:
//! central differences, primals bit for bit) and against a closed form, and at `f32`
//! where the rule is called directly.

#[macro_use]
mod common;

use fwdad::prelude::*;
use num_traits::{Float, FromPrimitive};
use std::iter::Sum;
use std::ops::{Add, Mul, Sub};

// ---------------------------------------------------------------------------------------
// RK4 over a slice state, with a closure right-hand side
// ---------------------------------------------------------------------------------------

/// One classical Runge–Kutta step of `y' = f(t, y)`.
#[derive_frule]
pub fn rk4_step<T, F>(f: &F, t: T, y: &[T], h: T) -> Vec<T>
where
    T: Float + FromPrimitive,
    F: Fn(T, &[T]) -> Vec<T>,
{
    let two = T::from_f64(2.0).unwrap();
    let six = T::from_f64(6.0).unwrap();
    let k1 = f(t, y);
    let y2: Vec<T> = y
        .iter()
        .zip(&k1)
        .map(|(&yi, &k)| yi + h / two * k)
        .collect();
    let k2 = f(t + h / two, &y2);
    let y3: Vec<T> = y
        .iter()
        .zip(&k2)
        .map(|(&yi, &k)| yi + h / two * k)
        .collect();
    let k3 = f(t + h / two, &y3);
    let y4: Vec<T> = y.iter().zip(&k3).map(|(&yi, &k)| yi + h * k).collect();
    let k4 = f(t + h, &y4);
    (0..y.len())
        .map(|i| y[i] + h / six * (k1[i] + two * k2[i] + two * k3[i] + k4[i]))
        .collect()
}

/// Integrates `y' = f(t, y)` from `t0` to `t1` in `n` steps.
#[derive_frule]
pub fn rk4<T, F>(f: F, y0: &[T], t0: T, t1: T, n: usize) -> Vec<T>
where
    T: Float + FromPrimitive,
    F: Fn(T, &[T]) -> Vec<T>,
{
    let h = (t1 - t0) / T::from_usize(n).unwrap();
    let mut y = y0.to_vec();
    let mut t = t0;
    for _ in 0..n {
        y = rk4_step(&f, t, &y, h);
        t = t + h;
    }
    y
}

/// A damped oscillator x'' = −ω² x − 2ζω x' from (x0, 0), its position at time `t1`.
#[derive_frule]
pub fn oscillator_position<T: Float + FromPrimitive>(omega: T, zeta: T, x0: T, t1: T) -> T {
    let two = T::from_f64(2.0).unwrap();
    let y = rk4(
        |_t, s: &[T]| vec![s[1], -omega * omega * s[0] - two * zeta * omega * s[1]],
        &[x0, T::zero()],
        T::zero(),
        t1,
        200,
    );
    y[0]
}

#[derive_frule]
fn oscillator_f64(p: &[f64]) -> f64 {
    oscillator_position(p[0], p[1], p[2], p[3])
}

/// The underdamped solution: x(t) = x0 e^{−ζωt} (cos ω_d t + ζω/ω_d sin ω_d t).
fn oscillator_exact(w: f64, z: f64, x0: f64, t: f64) -> f64 {
    let wd = w * (1.0 - z * z).sqrt();
    x0 * (-z * w * t).exp() * ((wd * t).cos() + z * w / wd * (wd * t).sin())
}

#[test]
fn rk4_over_a_slice_state_with_a_closure() {
    let p = [2.0, 0.1, 1.5, 3.0];
    check_modes!(oscillator_f64 {}, |x: &[f64]| oscillator_f64(x), p);
    let (v, g) = fwdad::drivers::gradient(oscillator_f64 {}, &p);
    approx::assert_relative_eq!(v, oscillator_exact(p[0], p[1], p[2], p[3]), epsilon = 1e-7);
    // The exact solution's gradient by differences (RK4's error is O(h⁴), h = 0.015).
    for k in 0..4 {
        let (mut a, mut b) = (p, p);
        a[k] += 1e-6;
        b[k] -= 1e-6;
        let want = (oscillator_exact(a[0], a[1], a[2], a[3])
            - oscillator_exact(b[0], b[1], b[2], b[3]))
            / 2e-6;
        approx::assert_relative_eq!(g[k], want, epsilon = 1e-6);
    }
}

#[test]
fn rk4_at_f32() {
    let r = oscillator_position_frule(
        Dual::new(2.0f32, 0.0),
        Dual::new(0.1f32, 0.0),
        Dual::new(1.5f32, 1.0),
        Dual::new(3.0f32, 0.0),
    );
    assert_eq!(
        r.primal.to_bits(),
        oscillator_position(2.0f32, 0.1, 1.5, 3.0).to_bits()
    );
    // Linear in x0: ∂x/∂x0 = x/x0.
    approx::assert_relative_eq!(
        r.tangent as f64,
        oscillator_exact(2.0, 0.1, 1.5, 3.0) / 1.5,
        epsilon = 1e-4
    );
}

// ---------------------------------------------------------------------------------------
// Newton's method with the function and its derivative as closures
// ---------------------------------------------------------------------------------------

/// Newton's method from `x0` until the step is below `tol` (or `max_iter` steps).
#[derive_frule]
pub fn newton<T: Float, F: Fn(T) -> T, D: Fn(T) -> T>(
    f: F,
    df: D,
    x0: T,
    tol: T,
    max_iter: usize,
) -> T {
    let mut x = x0;
    for _ in 0..max_iter {
        let step = f(x) / df(x);
        x = x - step;
        if step.abs() < tol {
            break;
        }
    }
    x
}

/// The real root of x³ + p x − q (p > 0), by Newton from q.
#[derive_frule]
pub fn depressed_cubic_root<T: Float + FromPrimitive>(p: T, q: T) -> T {
    let three = T::from_f64(3.0).unwrap();
    newton(
        |x| x * x * x + p * x - q,
        |x| three * x * x + p,
        q,
        T::epsilon() * T::from_f64(16.0).unwrap(),
        60,
    )
}

#[derive_frule]
fn cubic_root_f64(pq: &[f64]) -> f64 {
    depressed_cubic_root(pq[0], pq[1])
}

#[test]
fn newton_with_closures_for_the_function_and_its_derivative() {
    let pq = [1.5, 2.0];
    check_modes!(cubic_root_f64 {}, |x: &[f64]| cubic_root_f64(x), pq);
    // Implicit function theorem on g = x³ + p x − q = 0: ∂x/∂p = −x/g′, ∂x/∂q = 1/g′.
    let (x, g) = fwdad::drivers::gradient(cubic_root_f64 {}, &pq);
    assert!((x * x * x + pq[0] * x - pq[1]).abs() < 1e-14);
    let gp = 3.0 * x * x + pq[0];
    approx::assert_relative_eq!(g[0], -x / gp, max_relative = 1e-12);
    approx::assert_relative_eq!(g[1], 1.0 / gp, max_relative = 1e-12);
    // At f32.
    let r = depressed_cubic_root_frule(Dual::new(1.5f32, 0.0), Dual::new(2.0f32, 1.0));
    assert_eq!(
        r.primal.to_bits(),
        depressed_cubic_root(1.5f32, 2.0).to_bits()
    );
    approx::assert_relative_eq!(r.tangent as f64, 1.0 / gp, max_relative = 1e-5);
}

// ---------------------------------------------------------------------------------------
// A spline and a polynomial, generic structs
// ---------------------------------------------------------------------------------------

/// A cubic Hermite spline through (xs[i], ys[i]) with slopes ds[i].
#[derive(Clone, Debug, Differentiable)]
pub struct Spline<T> {
    pub xs: Vec<T>,
    pub ys: Vec<T>,
    pub ds: Vec<T>,
}

#[derive_frule]
impl<T: Float + FromPrimitive> Spline<T> {
    /// The value at x (clamped to the knots' span).
    pub fn eval(&self, x: T) -> T {
        let n = self.xs.len();
        let mut i = 0;
        while i + 2 < n && x > self.xs[i + 1] {
            i += 1;
        }
        let h = self.xs[i + 1] - self.xs[i];
        let t = ((x - self.xs[i]) / h).max(T::zero()).min(T::one());
        let (two, three) = (T::from_f64(2.0).unwrap(), T::from_f64(3.0).unwrap());
        let t2 = t * t;
        let t3 = t2 * t;
        let h00 = two * t3 - three * t2 + T::one();
        let h10 = t3 - two * t2 + t;
        let h01 = -two * t3 + three * t2;
        let h11 = t3 - t2;
        h00 * self.ys[i] + h10 * h * self.ds[i] + h01 * self.ys[i + 1] + h11 * h * self.ds[i + 1]
    }
}

/// A polynomial with coefficients from the constant term up.
#[derive(Clone, Debug, Differentiable)]
pub struct Poly<T> {
    pub coeffs: Vec<T>,
}

#[derive_frule]
impl<T: Float> Poly<T> {
    /// Horner's rule.
    pub fn eval(&self, x: T) -> T {
        self.coeffs
            .iter()
            .rev()
            .fold(T::zero(), |acc, &c| acc * x + c)
    }

    /// The derivative polynomial's value.
    pub fn slope(&self, x: T) -> T {
        let mut acc = T::zero();
        for k in (1..self.coeffs.len()).rev() {
            acc = acc * x + T::from(k).unwrap() * self.coeffs[k];
        }
        acc
    }
}

/// A spline through a polynomial's values and slopes at knots, evaluated at `x`.
#[derive_frule]
pub fn spline_of_poly<T: Float + FromPrimitive>(coeffs: &[T], knots: &[T], x: T) -> T {
    let p = Poly {
        coeffs: coeffs.to_vec(),
    };
    let s = Spline {
        xs: knots.to_vec(),
        ys: knots.iter().map(|&k| p.eval(k)).collect(),
        ds: knots.iter().map(|&k| p.slope(k)).collect(),
    };
    s.eval(x)
}

#[derive_frule]
fn spline_f64(v: &[f64]) -> f64 {
    // v = [c0, c1, c2, c3, x]
    spline_of_poly(&v[..4], &[0.0, 0.5, 1.25, 2.0], v[4])
}

#[test]
fn a_generic_spline_through_a_generic_polynomial() {
    let v = [0.3, -1.2, 0.7, 0.4, 0.9];
    check_modes!(spline_f64 {}, |x: &[f64]| spline_f64(x), v);
    // A cubic Hermite spline through a cubic's values and slopes is the cubic itself:
    // value Σ cₖ xᵏ, ∂/∂cₖ = xᵏ, ∂/∂x = Σ k cₖ xᵏ⁻¹.
    let x = v[4];
    let (y, g) = fwdad::drivers::gradient(spline_f64 {}, &v);
    let poly = |x: f64| v[0] + v[1] * x + v[2] * x * x + v[3] * x * x * x;
    approx::assert_relative_eq!(y, poly(x), max_relative = 1e-12);
    for (k, gk) in g.iter().take(4).enumerate() {
        approx::assert_relative_eq!(*gk, x.powi(k as i32), max_relative = 1e-12);
    }
    let slope = v[1] + 2.0 * v[2] * x + 3.0 * v[3] * x * x;
    approx::assert_relative_eq!(g[4], slope, max_relative = 1e-12);
}

// ---------------------------------------------------------------------------------------
// Statistics over iterators of T
// ---------------------------------------------------------------------------------------

/// The mean of the items.
#[derive_frule]
pub fn mean<T: Float + FromPrimitive + Sum>(xs: &[T]) -> T {
    xs.iter().copied().sum::<T>() / T::from_usize(xs.len()).unwrap()
}

/// The unbiased sample variance, two passes.
#[derive_frule]
pub fn variance<T: Float + FromPrimitive + Sum>(xs: &[T]) -> T {
    let m = mean(xs);
    let ss = xs
        .iter()
        .map(|&x| (x - m) * (x - m))
        .fold(T::zero(), |a, b| a + b);
    ss / T::from_usize(xs.len() - 1).unwrap()
}

/// The weighted mean of the items' squares, over any iterator of pairs.
#[derive_frule]
pub fn weighted_mean_square<T: Float + Sum>(xs: &[T], ws: &[T]) -> T {
    let num: T = xs.iter().zip(ws).map(|(&x, &w)| w * x * x).sum();
    let den: T = ws.iter().copied().sum();
    num / den
}

#[derive_frule]
fn stats_f64(v: &[f64]) -> f64 {
    let (xs, ws) = v.split_at(4);
    variance(xs) + weighted_mean_square(xs, ws)
}

#[test]
fn statistics_over_iterators_of_t() {
    let v = [1.0, 2.5, -0.5, 3.0, 0.2, 0.4, 0.3, 0.1];
    check_modes!(stats_f64 {}, |x: &[f64]| stats_f64(x), v);
    // ∂var/∂xᵢ = 2 (xᵢ − m)/(n − 1); ∂wms/∂xᵢ = 2 wᵢ xᵢ / Σw; ∂wms/∂wᵢ = (xᵢ² − wms)/Σw.
    let (xs, ws) = v.split_at(4);
    let m = xs.iter().sum::<f64>() / 4.0;
    let sw: f64 = ws.iter().sum();
    let wms = xs.iter().zip(ws).map(|(x, w)| w * x * x).sum::<f64>() / sw;
    let (_, g) = fwdad::drivers::gradient(stats_f64 {}, &v);
    for i in 0..4 {
        let want = 2.0 * (xs[i] - m) / 3.0 + 2.0 * ws[i] * xs[i] / sw;
        approx::assert_relative_eq!(g[i], want, max_relative = 1e-12);
        approx::assert_relative_eq!(g[4 + i], (xs[i] * xs[i] - wms) / sw, max_relative = 1e-12);
    }
    // At f32.
    let xs32 = [1.0f32, 2.5, -0.5, 3.0];
    let r = variance_frule(Dual::new(&xs32[..], &[1.0f32, 0.0, 0.0, 0.0][..]));
    assert_eq!(r.primal.to_bits(), variance(&xs32).to_bits());
    approx::assert_relative_eq!(r.tangent as f64, 2.0 * (1.0 - m) / 3.0, max_relative = 1e-5);
}

// ---------------------------------------------------------------------------------------
// A generic 2-vector with operator impls, stepped in a loop
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V2<T> {
    pub x: T,
    pub y: T,
}

#[derive_frule]
impl<T: Float> Add for V2<T> {
    type Output = V2<T>;
    fn add(self, o: V2<T>) -> V2<T> {
        V2 {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
}

#[derive_frule]
impl<T: Float> Sub for V2<T> {
    type Output = V2<T>;
    fn sub(self, o: V2<T>) -> V2<T> {
        V2 {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
}

#[derive_frule]
impl<T: Float> Mul<T> for V2<T> {
    type Output = V2<T>;
    fn mul(self, k: T) -> V2<T> {
        V2 {
            x: self.x * k,
            y: self.y * k,
        }
    }
}

#[derive_frule]
impl<T: Float> V2<T> {
    pub fn norm(self) -> T {
        (self.x * self.x + self.y * self.y).sqrt()
    }
}

/// A projectile under gravity and linear drag, explicit Euler for `n` steps; its range.
#[derive_frule]
pub fn projectile_x<T: Float + FromPrimitive>(speed: T, angle: T, drag: T, n: usize) -> T {
    let g = V2 {
        x: T::zero(),
        y: T::from_f64(-9.81).unwrap(),
    };
    let dt = T::from_f64(0.01).unwrap();
    let mut p = V2 {
        x: T::zero(),
        y: T::zero(),
    };
    let mut v = V2 {
        x: speed * angle.cos(),
        y: speed * angle.sin(),
    };
    for _ in 0..n {
        let a = g - v * drag;
        v = v + a * dt;
        p = p + v * dt;
    }
    p.x + (p - V2 {
        x: p.x,
        y: T::zero(),
    })
    .norm()
}

#[derive_frule]
fn projectile_f64(v: &[f64]) -> f64 {
    projectile_x(v[0], v[1], v[2], 100)
}

#[test]
fn generic_operators_in_a_loop() {
    let v = [12.0, 0.7, 0.3];
    check_modes!(projectile_f64 {}, |x: &[f64]| projectile_f64(x), v);
    // Closed form of the scheme: with r = 1 − c dt, each velocity component after k steps
    // is rᵏ v₀ + a dt (1 − rᵏ)/(1 − r) (a = 0 for x, −9.81 for y), and the position after n
    // steps dt Σₖ vₖ = v₀ q + a dt (n dt − q)/(1 − r), with q = dt r (1 − rⁿ)/(1 − r).
    let (s, th, c) = (v[0], v[1], v[2]);
    let (dt, n) = (0.01, 100);
    let r: f64 = 1.0 - c * dt;
    let q = dt * r * (1.0 - r.powi(n)) / (1.0 - r);
    let pos = |v0: f64, a: f64| v0 * q + a * dt * (n as f64 * dt - q) / (1.0 - r);
    let (x, y) = (pos(s * th.cos(), 0.0), pos(s * th.sin(), -9.81));
    let (value, g) = fwdad::drivers::gradient(projectile_f64 {}, &v);
    approx::assert_relative_eq!(value, x + y.abs(), max_relative = 1e-12);
    // Both are linear in the initial velocity (v₀ = s (cos θ, sin θ)).
    let sy = y.signum();
    approx::assert_relative_eq!(g[0], q * (th.cos() + sy * th.sin()), max_relative = 1e-10);
    approx::assert_relative_eq!(
        g[1],
        s * q * (-th.sin() + sy * th.cos()),
        max_relative = 1e-10
    );
}

// ---------------------------------------------------------------------------------------
// A trait with a method generic over the float type
// ---------------------------------------------------------------------------------------

/// A one-dimensional response model, evaluated at any float type.
#[derive_frule]
pub trait Response {
    fn eval<T: Float>(&self, x: T) -> T;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Saturating {
    pub gain: f64,
}

#[derive_frule]
impl Response for Saturating {
    fn eval<T: Float>(&self, x: T) -> T {
        let g = T::from(self.gain).unwrap();
        g * x / (T::one() + (g * x).abs())
    }
}

#[derive_frule]
fn response_energy(xs: &[f64]) -> f64 {
    let m = Saturating { gain: 2.0 };
    xs.iter().map(|&x| m.eval(x) * m.eval(x)).sum()
}

#[test]
fn a_trait_with_a_method_generic_over_the_float_type() {
    let xs = [0.3, -0.8, 1.4];
    check_modes!(response_energy {}, |x: &[f64]| response_energy(x), xs);
    // r = g x/(1 + g|x|), r′ = g/(1 + g|x|)²; ∂Σr²/∂xᵢ = 2 rᵢ rᵢ′.
    let (_, g) = fwdad::drivers::gradient(response_energy {}, &xs);
    for i in 0..3 {
        let u = 2.0 * xs[i];
        let (r, dr) = (u / (1.0 + u.abs()), 2.0 / (1.0 + u.abs()).powi(2));
        approx::assert_relative_eq!(g[i], 2.0 * r * dr, max_relative = 1e-12);
    }
}

/// An inherent method generic over its own float type, on a type without one.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Softsign {
    pub width: f64,
}

#[derive_frule]
impl Softsign {
    pub fn apply<T: Float>(&self, x: T) -> T {
        x / (T::from(self.width).unwrap() + x.abs())
    }
}

/// Both, called from a body generic over the float type.
#[derive_frule]
pub fn shaped<T: Float>(x: T) -> T {
    let sat = Saturating { gain: 2.0 };
    let soft = Softsign { width: 0.5 };
    sat.eval(x) * x + soft.apply(x)
}

#[derive_frule]
fn shaped_f64(v: &[f64]) -> f64 {
    shaped(v[0]) * v[1]
}

#[test]
fn generic_methods_from_generic_code_at_f64_and_f32() {
    let v = [0.7, 1.3];
    check_modes!(shaped_f64 {}, |x: &[f64]| shaped_f64(x), v);
    // d/dx [x r(x) + x/(w + |x|)] = r + x r′ + w/(w + |x|)², r = 2x/(1 + 2|x|).
    let want = |x: f64| {
        let r = 2.0 * x / (1.0 + 2.0 * x.abs());
        let dr = 2.0 / (1.0 + 2.0 * x.abs()).powi(2);
        r + x * dr + 0.5 / (0.5 + x.abs()).powi(2)
    };
    let (_, g) = fwdad::drivers::gradient(shaped_f64 {}, &v);
    approx::assert_relative_eq!(g[0], want(v[0]) * v[1], max_relative = 1e-12);
    let r = shaped_frule(Dual::new(0.7f32, 1.0));
    assert_eq!(r.primal.to_bits(), shaped(0.7f32).to_bits());
    approx::assert_relative_eq!(r.tangent as f64, want(0.7), max_relative = 1e-5);
}

// ---------------------------------------------------------------------------------------
// num_traits::real::Real
// ---------------------------------------------------------------------------------------

mod real_bound {
    use fwdad::prelude::*;
    use num_traits::real::Real;

    /// The smooth maximum of two values with temperature `tau` (log-sum-exp), bounded by
    /// `Real` as code that does not need `Float`'s bit-level methods is.
    #[derive_frule]
    pub fn smooth_max<T: Real>(a: T, b: T, tau: T) -> T {
        let m = a.max(b);
        m + tau * (((a - m) / tau).exp() + ((b - m) / tau).exp()).ln()
    }
}

#[derive_frule]
fn smooth_max_f64(v: &[f64]) -> f64 {
    real_bound::smooth_max(v[0], v[1], v[2])
}

#[test]
fn code_bounded_by_num_traits_real() {
    let v = [0.4, 0.9, 0.3];
    check_modes!(smooth_max_f64 {}, |x: &[f64]| smooth_max_f64(x), v);
    // ∂/∂a = σ((a − b)/τ), the softmax weight of a.
    let (_, g) = fwdad::drivers::gradient(smooth_max_f64 {}, &v);
    let wa = 1.0 / (1.0 + ((v[1] - v[0]) / v[2]).exp());
    approx::assert_relative_eq!(g[0], wa, max_relative = 1e-12);
    approx::assert_relative_eq!(g[1], 1.0 - wa, max_relative = 1e-12);
}
