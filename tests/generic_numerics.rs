//! Generic numeric code as library authors write it: special functions, root finders,
//! interpolation, quadrature, an ODE stepper and statistics over `T: Float` (with
//! `FromPrimitive`, `FloatConst`, `NumCast`), a generic `Vec3<T>` with generic operator
//! impls, a model `impl<T: Float> Oscillator<T>`, and `f32` code with mixed casts. Each
//! function is annotated unmodified; each is checked against central differences in one
//! direction, batched and at second order (`check_modes!`, primals bit for bit), and
//! against a closed form where one exists, at `f64` and at `f32`.

#[macro_use]
mod common;

use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;
use fwdad::testing::test_frule;
use num_traits::{Float, FloatConst, FromPrimitive, NumCast};
use std::ops::{Add, Mul, Neg, Sub};

// ---------------------------------------------------------------------------------------
// Special functions
// ---------------------------------------------------------------------------------------

/// The logistic function.
#[derive_frule]
pub fn logistic<T: Float>(x: T) -> T {
    T::one() / (T::one() + (-x).exp())
}

/// `ln(1 + eˣ)`, switching to its asymptote where `eˣ` would swamp the one.
#[derive_frule]
pub fn softplus<T: Float + FromPrimitive>(x: T) -> T {
    let threshold = T::from_f64(20.0).unwrap();
    if x > threshold {
        x
    } else {
        x.exp().ln_1p()
    }
}

/// The normalised sinc function, `sin(πx)/(πx)`, one at the origin.
#[derive_frule]
pub fn sinc<T: Float + FloatConst>(x: T) -> T {
    if x.abs() < T::epsilon() {
        return T::one();
    }
    let px = T::PI() * x;
    px.sin() / px
}

/// The error function to 1.5e-7 (Abramowitz & Stegun 7.1.26).
#[derive_frule]
pub fn erf_as<T: Float>(x: T) -> T {
    let a1 = T::from(0.254829592).unwrap();
    let a2 = T::from(-0.284496736).unwrap();
    let a3 = T::from(1.421413741).unwrap();
    let a4 = T::from(-1.453152027).unwrap();
    let a5 = T::from(1.061405429).unwrap();
    let p = T::from(0.3275911).unwrap();

    let sign = x.signum();
    let x = x.abs();
    let t = T::one() / (T::one() + p * x);
    let y = T::one() - (((((a5 * t + a4) * t) + a3) * t + a2) * t + a1) * t * (-x * x).exp();
    sign * y
}

const LANCZOS_G: f64 = 7.0;
const LANCZOS_COEF: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// Γ(x) by Lanczos' approximation (g = 7, n = 9), reflected below one half.
#[derive_frule]
pub fn gamma<T: Float + FloatConst>(x: T) -> T {
    let half = T::from(0.5).unwrap();
    if x < half {
        // Γ(x) Γ(1 − x) = π / sin(πx)
        T::PI() / ((T::PI() * x).sin() * gamma(T::one() - x))
    } else {
        let x = x - T::one();
        let g = T::from(LANCZOS_G).unwrap();
        let mut a = T::from(LANCZOS_COEF[0]).unwrap();
        let t = x + g + half;
        for (i, &c) in LANCZOS_COEF.iter().enumerate().skip(1) {
            a = a + T::from(c).unwrap() / (x + T::from(i).unwrap());
        }
        (T::from(2.0).unwrap() * T::PI()).sqrt() * t.powf(x + half) * (-t).exp() * a
    }
}

// ---------------------------------------------------------------------------------------
// Root finders
// ---------------------------------------------------------------------------------------

/// The cube root by Newton's method, stopped on a relative step below machine epsilon.
#[derive_frule]
pub fn cbrt_newton<T: Float>(a: T) -> T {
    let three = T::from(3).unwrap();
    let mut x = if a > T::one() { a / three } else { T::one() };
    for _ in 0..100 {
        let dx = (x * x * x - a) / (three * x * x);
        x = x - dx;
        if dx.abs() <= T::epsilon() * x.abs() {
            break;
        }
    }
    x
}

/// The eccentric anomaly `E` of Kepler's equation `E − e sin E = M`, by Newton's method
/// to a few ulps of the type.
#[derive_frule]
pub fn eccentric_anomaly<T: Float + FloatConst>(mean_anomaly: T, e: T) -> T {
    let tol = T::from(4.0).unwrap() * T::epsilon();
    let mut ea = if e < T::from(0.8).unwrap() {
        mean_anomaly
    } else {
        T::PI()
    };
    for _ in 0..50 {
        let f = ea - e * ea.sin() - mean_anomaly;
        let step = f / (T::one() - e * ea.cos());
        ea = ea - step;
        if step.abs() <= tol * ea.abs().max(T::one()) {
            break;
        }
    }
    ea
}

// ---------------------------------------------------------------------------------------
// Interpolation
// ---------------------------------------------------------------------------------------

/// Linear interpolation between `a` and `b`.
#[derive_frule]
pub fn lerp<T: Float>(a: T, b: T, t: T) -> T {
    a + (b - a) * t
}

/// The cubic Hermite spline through `p0`, `p1` with slopes `m0`, `m1`, at `t` in [0, 1].
#[derive_frule]
pub fn hermite<T: Float>(p0: T, m0: T, p1: T, m1: T, t: T) -> T {
    let two = T::from(2.0).unwrap();
    let three = T::from(3.0).unwrap();
    let t2 = t * t;
    let t3 = t2 * t;
    (two * t3 - three * t2 + T::one()) * p0
        + (t3 - two * t2 + t) * m0
        + (three * t2 - two * t3) * p1
        + (t3 - t2) * m1
}

/// Piecewise-linear interpolation in a table sorted by `xs`, clamped at its ends.
#[derive_frule]
pub fn interp1<T: Float>(xs: &[T], ys: &[T], x: T) -> T {
    let n = xs.len();
    if x <= xs[0] {
        return ys[0];
    }
    if x >= xs[n - 1] {
        return ys[n - 1];
    }
    let mut i = 0;
    while xs[i + 1] < x {
        i += 1;
    }
    let t = (x - xs[i]) / (xs[i + 1] - xs[i]);
    ys[i] + t * (ys[i + 1] - ys[i])
}

// ---------------------------------------------------------------------------------------
// Quadrature
// ---------------------------------------------------------------------------------------

/// `∫ₐᵇ e^(−k x²) dx` by composite Simpson's rule on `n` (even) panels.
#[derive_frule]
pub fn gaussian_integral<T: Float + FromPrimitive>(k: T, a: T, b: T, n: usize) -> T {
    let h = (b - a) / T::from_usize(n).unwrap();
    let f = |x: T| (-k * x * x).exp();
    let mut s = f(a) + f(b);
    for i in 1..n {
        let x = a + T::from_usize(i).unwrap() * h;
        let w = if i % 2 == 1 {
            T::from(4.0).unwrap()
        } else {
            T::from(2.0).unwrap()
        };
        s = s + w * f(x);
    }
    s * h / T::from(3.0).unwrap()
}

const GL5_NODES: [f64; 5] = [
    -0.906_179_845_938_664,
    -0.538_469_310_105_683,
    0.0,
    0.538_469_310_105_683,
    0.906_179_845_938_664,
];
const GL5_WEIGHTS: [f64; 5] = [
    0.236_926_885_056_189,
    0.478_628_670_499_366,
    0.568_888_888_888_889,
    0.478_628_670_499_366,
    0.236_926_885_056_189,
];

/// `∫ₐᵇ sin(ωx) dx` by five-point Gauss–Legendre quadrature.
#[derive_frule]
pub fn sine_integral_gl5<T: Float>(omega: T, a: T, b: T) -> T {
    let half = T::from(0.5).unwrap();
    let mid = (a + b) * half;
    let rad = (b - a) * half;
    let mut s = T::zero();
    for k in 0..5 {
        let x = mid + rad * T::from(GL5_NODES[k]).unwrap();
        s = s + T::from(GL5_WEIGHTS[k]).unwrap() * (omega * x).sin();
    }
    s * rad
}

// ---------------------------------------------------------------------------------------
// An ODE stepper and a model with a generic `impl`
// ---------------------------------------------------------------------------------------

/// A damped harmonic oscillator `x'' = −ω²x − 2ζωx'`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Oscillator<T> {
    pub omega: T,
    pub zeta: T,
}

#[derive_frule]
impl<T: Float> Oscillator<T> {
    pub fn new(omega: T, zeta: T) -> Self {
        Oscillator { omega, zeta }
    }

    /// The acceleration at position `x` and velocity `v`.
    pub fn accel(&self, x: T, v: T) -> T {
        let two = T::one() + T::one();
        -self.omega * self.omega * x - two * self.zeta * self.omega * v
    }

    /// The energy per unit mass.
    pub fn energy(&self, x: T, v: T) -> T {
        (v * v + self.omega * self.omega * x * x) / (T::one() + T::one())
    }

    /// `steps` classical Runge–Kutta steps of length `h` from `(x, v)`.
    pub fn rk4(&self, x: T, v: T, h: T, steps: usize) -> (T, T) {
        let two = T::from(2.0).unwrap();
        let six = T::from(6.0).unwrap();
        let (mut x, mut v) = (x, v);
        for _ in 0..steps {
            let (k1x, k1v) = (v, self.accel(x, v));
            let (k2x, k2v) = (
                v + h / two * k1v,
                self.accel(x + h / two * k1x, v + h / two * k1v),
            );
            let (k3x, k3v) = (
                v + h / two * k2v,
                self.accel(x + h / two * k2x, v + h / two * k2v),
            );
            let (k4x, k4v) = (v + h * k3v, self.accel(x + h * k3x, v + h * k3v));
            x = x + h / six * (k1x + two * k2x + two * k3x + k4x);
            v = v + h / six * (k1v + two * k2v + two * k3v + k4v);
        }
        (x, v)
    }
}

/// The oscillator's energy after integrating from rest at `x0` for `t` time units.
#[derive_frule]
pub fn energy_after<T: Float + FromPrimitive>(omega: T, zeta: T, x0: T, t: T) -> T {
    let osc = Oscillator::new(omega, zeta);
    let steps = 200;
    let h = t / T::from_usize(steps).unwrap();
    let (x, v) = osc.rk4(x0, T::zero(), h, steps);
    osc.energy(x, v)
}

// ---------------------------------------------------------------------------------------
// A generic vector type with generic operator impls
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Vec3<T> {
    pub x: T,
    pub y: T,
    pub z: T,
}

#[derive_frule]
impl<T: Float> Add for Vec3<T> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Vec3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

#[derive_frule]
impl<T: Float> Sub for Vec3<T> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Vec3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

#[derive_frule]
impl<T: Float> Mul<T> for Vec3<T> {
    type Output = Self;
    fn mul(self, k: T) -> Self {
        Vec3 {
            x: self.x * k,
            y: self.y * k,
            z: self.z * k,
        }
    }
}

#[derive_frule]
impl<T: Float> Neg for Vec3<T> {
    type Output = Self;
    fn neg(self) -> Self {
        Vec3 {
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }
}

#[derive_frule]
impl<T: Float> Vec3<T> {
    pub fn new(x: T, y: T, z: T) -> Self {
        Vec3 { x, y, z }
    }

    pub fn dot(&self, o: &Self) -> T {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    pub fn cross(&self, o: &Self) -> Self {
        Vec3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }

    pub fn norm(&self) -> T {
        self.dot(self).sqrt()
    }
}

/// The Lennard-Jones energy of two particles.
#[derive_frule]
pub fn lennard_jones<T: Float>(a: Vec3<T>, b: Vec3<T>, sigma: T, epsilon: T) -> T {
    let r = (b - a).norm();
    let s6 = (sigma / r).powi(6);
    T::from(4.0).unwrap() * epsilon * (s6 * s6 - s6)
}

/// The area of the triangle `abc`, half the norm of the cross product of two edges.
#[derive_frule]
pub fn triangle_area<T: Float>(a: Vec3<T>, b: Vec3<T>, c: Vec3<T>) -> T {
    let u: Vec3<T> = b - a;
    let w: Vec3<T> = c - a;
    u.cross(&w).norm() * T::from(0.5).unwrap()
}

/// A point moved a distance `s` along `-n` (`Neg`, `Mul<T>`, `Add` of generic vectors).
#[derive_frule]
pub fn pushed_height<T: Float>(p: Vec3<T>, n: Vec3<T>, s: T) -> T {
    let q: Vec3<T> = p + (-n) * s;
    q.z
}

// ---------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------

/// The arithmetic mean.
#[derive_frule]
pub fn mean<T: Float + FromPrimitive>(x: &[T]) -> T {
    x.iter().fold(T::zero(), |acc, &v| acc + v) / T::from_usize(x.len()).unwrap()
}

/// The unbiased sample variance, in two passes.
#[derive_frule]
pub fn variance<T: Float + FromPrimitive>(x: &[T]) -> T {
    let m = mean(x);
    let ss = x
        .iter()
        .map(|&v| (v - m) * (v - m))
        .fold(T::zero(), |a, b| a + b);
    ss / T::from_usize(x.len() - 1).unwrap()
}

/// Mean and unbiased variance in one pass (Welford).
#[derive_frule]
pub fn welford<T: Float + NumCast>(x: &[T]) -> (T, T) {
    let mut mean = T::zero();
    let mut m2 = T::zero();
    for (k, &v) in x.iter().enumerate() {
        let n: T = NumCast::from(k + 1).unwrap();
        let d = v - mean;
        mean = mean + d / n;
        m2 = m2 + d * (v - mean);
    }
    let dof: T = NumCast::from(x.len() - 1).unwrap();
    (mean, m2 / dof)
}

/// Pearson's correlation coefficient of two samples.
#[derive_frule]
pub fn correlation<T: Float + FromPrimitive>(x: &[T], y: &[T]) -> T {
    let mx = mean(x);
    let my = mean(y);
    let mut sxy = T::zero();
    let mut sxx = T::zero();
    let mut syy = T::zero();
    for (&a, &b) in x.iter().zip(y.iter()) {
        sxy = sxy + (a - mx) * (b - my);
        sxx = sxx + (a - mx) * (a - mx);
        syy = syy + (b - my) * (b - my);
    }
    sxy / (sxx * syy).sqrt()
}

/// The Huber loss of a residual.
#[derive_frule]
pub fn huber<T: Float>(r: T, delta: T) -> T {
    let half = T::from(0.5).unwrap();
    let a = r.abs();
    if a <= delta {
        half * r * r
    } else {
        delta * (a - half * delta)
    }
}

/// The density of the normal distribution.
#[derive_frule]
pub fn normal_pdf<T: Float + FloatConst>(x: T, mu: T, sigma: T) -> T {
    let z = (x - mu) / sigma;
    (-z * z / T::from(2).unwrap()).exp() / (sigma * T::TAU().sqrt())
}

/// A polynomial with `f64` coefficients (highest degree first) at a point of any float
/// type, the coefficients cast with `T::from`.
#[derive_frule]
pub fn horner<T: Float>(coeffs: &[f64], x: T) -> T {
    let mut acc = T::zero();
    for &c in coeffs {
        acc = acc * x + T::from(c).unwrap();
    }
    acc
}

/// A Chebyshev series `Σ cₖ Tₖ(x)` by Clenshaw's recurrence, the coefficients cast with
/// `num_traits::cast`.
#[derive_frule]
pub fn clenshaw<T: Float>(c: &[f64], x: T) -> T {
    let two_x = x + x;
    let mut b1 = T::zero();
    let mut b2 = T::zero();
    for &ck in c.iter().skip(1).rev() {
        let ck: T = num_traits::cast(ck).unwrap();
        let b0 = two_x * b1 - b2 + ck;
        b2 = b1;
        b1 = b0;
    }
    let c0: T = num_traits::cast(c[0]).unwrap();
    x * b1 - b2 + c0
}

// ---------------------------------------------------------------------------------------
// `f32` code and mixed `f32`/`f64` casts (in a module of their own: `f64::from` is
// ambiguous where `NumCast` is imported, in plain Rust too)
// ---------------------------------------------------------------------------------------

mod f32_code {
    use fwdad::prelude::*;

    /// A one-pole low-pass filter over a block of samples, in `f32` as audio code writes it.
    #[derive_frule]
    pub fn one_pole(x: &[f32], cutoff: f32, sample_rate: f32) -> f32 {
        let a = (-2.0 * std::f32::consts::PI * cutoff / sample_rate).exp();
        let mut y = 0.0f32;
        for &v in x {
            y = a * y + (1.0 - a) * v;
        }
        y
    }

    /// A dot product of `f32` data accumulated in `f64`.
    #[derive_frule]
    pub fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
        let mut acc = 0.0f64;
        for i in 0..a.len() {
            acc += a[i] as f64 * b[i] as f64;
        }
        acc as f32
    }

    /// A gain in decibels given as `f32`, applied to an `f64` signal.
    #[derive_frule]
    pub fn apply_gain_db(x: f64, db: f32) -> f64 {
        x * 10f64.powf(f64::from(db) / 20.0)
    }

    /// An `f64` value stored as `f32` and read back (the rounding's derivative is one).
    #[derive_frule]
    pub fn through_f32(x: f64, k: f64) -> f64 {
        let stored = (x * k) as f32;
        let y = stored.sin() as f64;
        y * x
    }
}
use f32_code::*;

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

/// `d/dx` of a generic one-argument rule at `f32`, in one direction, against `want`.
fn d32(rule: impl Fn(Dual<f32>) -> Dual<f32>, x: f32) -> (f32, f32) {
    let d = rule(Dual::new(x, 1.0));
    (d.primal, d.tangent)
}

#[test]
fn special_functions_in_every_mode_and_against_closed_forms() {
    for x in [-2.5, -0.3, 0.7, 3.0] {
        check_modes!(
            bind(logistic {}, (Var(0),)),
            |v: &[f64]| logistic(v[0]),
            [x]
        );
        check_modes!(
            bind(softplus {}, (Var(0),)),
            |v: &[f64]| softplus(v[0]),
            [x]
        );
        check_modes!(bind(sinc {}, (Var(0),)), |v: &[f64]| sinc(v[0]), [x]);
        check_modes!(bind(erf_as {}, (Var(0),)), |v: &[f64]| erf_as(v[0]), [x]);
        // σ' = σ(1 − σ); softplus' = σ; sinc' = (cos πx − sinc x)/x.
        let s = logistic(x);
        let (_, d) = derivative(bind(logistic {}, (Var(0),)), x);
        assert!(close(d, s * (1.0 - s), 1e-15));
        let (_, d) = derivative(bind(softplus {}, (Var(0),)), x);
        assert!(close(d, s, 1e-15));
        let (_, d) = derivative(bind(sinc {}, (Var(0),)), x);
        let pi = std::f64::consts::PI;
        assert!(close(d, ((pi * x).cos() - sinc(x)) / x, 1e-14));
        // f32: the same rule, primal bit for bit.
        let (v, d) = d32(logistic_frule, x as f32);
        assert_eq!(v.to_bits(), logistic(x as f32).to_bits());
        assert!(close(d as f64, s * (1.0 - s), 1e-6));
    }
    // Past the switch softplus is the identity.
    let (_, d) = derivative(bind(softplus {}, (Var(0),)), 25.0);
    assert_eq!(d, 1.0);
    // sinc at the origin is the constant branch.
    assert_eq!(sinc_frule(Dual::new(0.0, 1.0)).tangent, 0.0);
}

#[test]
fn lanczos_gamma_through_both_branches() {
    // Γ'(1) = −γ, Γ'(2) = 1 − γ (γ Euler's constant); Γ'(x) = Γ(x)ψ(x) elsewhere.
    let euler = 0.577_215_664_901_532_9;
    let (v, d) = derivative(bind(gamma {}, (Var(0),)), 1.0);
    assert!(close(v, 1.0, 1e-14));
    assert!(close(d, -euler, 1e-12), "{d}");
    let (_, d) = derivative(bind(gamma {}, (Var(0),)), 2.0);
    assert!(close(d, 1.0 - euler, 1e-12), "{d}");
    // The reflected branch: Γ(1/2)ψ(1/2) = √π(−γ − 2 ln 2) at x = 0.4999..
    for x in [0.3, 1.7, 4.2, -1.4] {
        check_modes!(bind(gamma {}, (Var(0),)), |v: &[f64]| gamma(v[0]), [x]);
        let psi = statrs::function::gamma::digamma(x);
        let (v, d) = derivative(bind(gamma {}, (Var(0),)), x);
        assert!(close(d, v * psi, 1e-11), "Γ'({x}) = {d}, Γψ = {}", v * psi);
    }
    let (v, d) = d32(gamma_frule, 1.7f32);
    assert_eq!(v.to_bits(), gamma(1.7f32).to_bits());
    assert!(close(
        d as f64,
        gamma(1.7f64) * statrs::function::gamma::digamma(1.7),
        1e-5
    ));
}

#[test]
fn root_finders_differentiate_through_their_iterations() {
    // Not at a = 1, where the start is the root: Newton stops after one step, whose second
    // derivative is not yet the root's (an iteration is differentiated as it runs).
    for a in [0.2, 2.5, 8.0, 30.0] {
        check_modes!(
            bind(cbrt_newton {}, (Var(0),)),
            |v: &[f64]| cbrt_newton(v[0]),
            [a]
        );
        let (x, d) = derivative(bind(cbrt_newton {}, (Var(0),)), a);
        assert!(close(x, a.cbrt(), 1e-15));
        // d a^(1/3) / da = 1 / (3 a^(2/3))
        assert!(close(d, 1.0 / (3.0 * a.cbrt() * a.cbrt()), 1e-13));
    }
    for (m, e) in [(0.4, 0.1), (2.0, 0.5), (1.0, 0.9)] {
        check_modes!(
            bind(eccentric_anomaly {}, (Var(0), Var(1))),
            |v: &[f64]| eccentric_anomaly(v[0], v[1]),
            [m, e]
        );
        // dE/dM = 1/(1 − e cos E), dE/de = sin E/(1 − e cos E).
        let (ea, g) = gradient(bind(eccentric_anomaly {}, (Var(0), Var(1))), &[m, e]);
        let q = 1.0 - e * ea.cos();
        assert!(close(g[0], 1.0 / q, 1e-12));
        assert!(close(g[1], ea.sin() / q, 1e-12));
        let d = eccentric_anomaly_frule(Dual::new(m as f32, 1.0), Dual::new(e as f32, 0.0));
        assert_eq!(
            d.primal.to_bits(),
            eccentric_anomaly(m as f32, e as f32).to_bits()
        );
        assert!(close(d.tangent as f64, 1.0 / q, 1e-5));
    }
}

#[test]
fn interpolation_and_quadrature() {
    let p = [0.3, -1.0, 2.0, 0.5, 0.35];
    check_modes!(
        bind(hermite {}, (Var(0), Var(1), Var(2), Var(3), Var(4))),
        |v: &[f64]| hermite(v[0], v[1], v[2], v[3], v[4]),
        p
    );
    // The spline's derivative in t at its ends is the given slope.
    let (_, d0) = derivative(bind(hermite {}, (0.3, -1.0, 2.0, 0.5, Var(0))), 0.0);
    let (_, d1) = derivative(bind(hermite {}, (0.3, -1.0, 2.0, 0.5, Var(0))), 1.0);
    assert!(close(d0, -1.0, 1e-15) && close(d1, 0.5, 1e-15));
    check_modes!(
        bind(lerp {}, (Var(0), Var(1), Var(2))),
        |v: &[f64]| lerp(v[0], v[1], v[2]),
        [1.0, 3.0, 0.25]
    );

    let xs = [0.0f64, 1.0, 2.5, 4.0];
    let ys = [1.0f64, 3.0, 2.0, 5.0];
    for x in [0.4, 1.7, 3.2] {
        let i = xs.iter().rposition(|&v| v < x).unwrap();
        let slope = (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]);
        let d = interp1_frule(
            Dual::new(&xs[..], &[0.0; 4][..]),
            Dual::new(&ys[..], &[0.0; 4][..]),
            Dual::new(x, 1.0),
        );
        assert_eq!(d.primal.to_bits(), interp1(&xs, &ys, x).to_bits());
        assert!(close(d.tangent, slope, 1e-15));
        // With respect to the table: the hat weights 1 − t and t.
        test_frule(
            (xs.to_vec(), ys.to_vec(), x),
            |a| interp1(&a.0, &a.1, a.2),
            |a, da| {
                interp1_frule(
                    Dual::new(&a.0[..], &da.0[..]),
                    Dual::new(&a.1[..], &da.1[..]),
                    Dual::new(a.2, da.2),
                )
            },
        );
    }

    let n = 64;
    check_modes!(
        bind(gaussian_integral {}, (Var(0), Var(1), Var(2), n)),
        |v: &[f64]| gaussian_integral(v[0], v[1], v[2], n),
        [0.7, -0.5, 1.5]
    );
    // ∂/∂b of ∫ₐᵇ f is f(b), up to Simpson's error.
    let (_, g) = gradient(
        bind(gaussian_integral {}, (Var(0), Var(1), Var(2), n)),
        &[0.7, -0.5, 1.5],
    );
    assert!(close(g[2], (-0.7f64 * 1.5 * 1.5).exp(), 1e-6));
    assert!(close(g[1], -(-0.7f64 * 0.25).exp(), 1e-6));

    check_modes!(
        bind(sine_integral_gl5 {}, (Var(0), Var(1), Var(2))),
        |v: &[f64]| sine_integral_gl5(v[0], v[1], v[2]),
        [1.3, 0.0, 1.0]
    );
    // ∫₀¹ sin(ωx) dx = (1 − cos ω)/ω, so d/dω = (ω sin ω − 1 + cos ω)/ω².
    let w = 1.3f64;
    let (_, d) = derivative(bind(sine_integral_gl5 {}, (Var(0), 0.0, 1.0)), w);
    assert!(close(d, (w * w.sin() - 1.0 + w.cos()) / (w * w), 1e-8));
}

#[test]
fn oscillator_model_with_a_generic_impl() {
    check_modes!(
        bind(energy_after {}, (Var(0), Var(1), Var(2), Var(3))),
        |v: &[f64]| energy_after(v[0], v[1], v[2], v[3]),
        [2.0, 0.1, 0.5, 1.5]
    );
    // Undamped, the energy is conserved (to RK4's error): ω²x₀²/2, ∂/∂x₀ = ω²x₀, ∂/∂ω = ωx₀².
    let (e, g) = gradient(
        bind(energy_after {}, (Var(0), 0.0, Var(1), 1.5)),
        &[2.0, 0.5],
    );
    assert!(close(e, 0.5, 1e-6));
    assert!(close(g[0], 2.0 * 0.25, 1e-5) && close(g[1], 4.0 * 0.5, 1e-5));
    let d = energy_after_frule(
        Dual::new(2.0f32, 0.0),
        Dual::new(0.0, 0.0),
        Dual::new(0.5, 1.0),
        Dual::new(1.5, 0.0),
    );
    assert_eq!(
        d.primal.to_bits(),
        energy_after(2.0f32, 0.0, 0.5, 1.5).to_bits()
    );
    assert!(close(d.tangent as f64, 2.0, 1e-4));
}

/// Test adapters: particles as coordinates.
#[derive_frule]
fn lj_of(x: &[f64]) -> f64 {
    lennard_jones(
        Vec3::new(x[0], x[1], x[2]),
        Vec3::new(x[3], x[4], x[5]),
        x[6],
        1.5,
    )
}

#[derive_frule]
fn area_of(x: &[f64]) -> f64 {
    triangle_area(
        Vec3::new(x[0], x[1], x[2]),
        Vec3::new(x[3], x[4], x[5]),
        Vec3::new(x[6], x[7], x[8]),
    )
}

#[derive_frule]
fn pushed_of(x: &[f64]) -> f64 {
    pushed_height(
        Vec3::new(x[0], x[1], x[2]),
        Vec3::new(x[3], x[4], x[5]),
        x[6],
    )
}

#[test]
fn generic_vectors_with_generic_operators() {
    let x = [0.1, 0.2, -0.1, 1.0, 0.9, 0.4, 1.1];
    check_modes!(lj_of {}, lj_of, x);
    // dE/dr = 4ε(−12σ¹²/r¹³ + 6σ⁶/r⁷) along the separation.
    let d = [0.9f64, 0.7, 0.5];
    let r = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    let (sigma, eps) = (1.1f64, 1.5);
    let de_dr = 4.0 * eps * (-12.0 * sigma.powi(12) / r.powi(13) + 6.0 * sigma.powi(6) / r.powi(7));
    let (_, g) = gradient(lj_of {}, &x);
    for k in 0..3 {
        assert!(close(g[3 + k], de_dr * d[k] / r, 1e-12));
        assert!(close(g[k], -de_dr * d[k] / r, 1e-12));
    }
    let tri = [0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.5, 1.5, 0.3];
    check_modes!(area_of {}, area_of, tri);
    check_modes!(
        pushed_of {},
        pushed_of,
        [0.1, 0.2, 0.3, 0.2, -0.4, 0.6, 0.7]
    );
    // f32 vectors through the same impls.
    let a = Vec3::new(0.0f32, 0.0, 0.0);
    let b = Vec3::new(1.0f32, 0.5, 0.25);
    let zero = Vec3Tangent {
        x: 0.0f32,
        y: 0.0,
        z: 0.0,
    };
    let dir = Vec3Tangent {
        x: 1.0f32,
        y: 0.0,
        z: 0.0,
    };
    let dl = lennard_jones_frule(
        Dual::new(a, zero),
        Dual::new(b, dir),
        Dual::new(1.0, 0.0),
        Dual::new(1.0, 0.0),
    );
    assert_eq!(
        dl.primal.to_bits(),
        lennard_jones(a, b, 1.0f32, 1.0).to_bits()
    );
    let r = (1.0f64 + 0.25 + 0.0625).sqrt();
    let want = 4.0 * (-12.0 / r.powi(13) + 6.0 / r.powi(7)) * (1.0 / r);
    assert!(close(dl.tangent as f64, want, 1e-4));
}

#[derive_frule]
fn welford_variance(x: &[f64]) -> f64 {
    welford(x).1
}

#[derive_frule]
fn correlation_of(x: &[f64]) -> f64 {
    let n = x.len() / 2;
    correlation(&x[..n], &x[n..])
}

#[test]
fn statistics() {
    let x = [1.2, -0.4, 2.5, 0.3, 1.9];
    check_modes!(mean {}, mean, x);
    check_modes!(variance {}, variance, x);
    check_modes!(welford_variance {}, welford_variance, x);
    check_modes!(
        correlation_of {},
        correlation_of,
        [1.0, 2.0, 3.5, 0.5, 1.5, 1.0, 3.0, 2.0]
    );
    // ∂s²/∂xᵢ = 2(xᵢ − x̄)/(n − 1); the one-pass and two-pass variances agree.
    let m = x.iter().sum::<f64>() / 5.0;
    let (_, g) = gradient(variance {}, &x);
    let (_, gw) = gradient(welford_variance {}, &x);
    for i in 0..5 {
        assert!(close(g[i], 2.0 * (x[i] - m) / 4.0, 1e-14));
        assert!(close(gw[i], g[i], 1e-13));
    }
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    test_frule(
        (x32,),
        |a| welford(&a.0),
        |a, da| welford_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    for r in [-2.0, -0.3, 0.5, 1.7] {
        check_modes!(
            bind(huber {}, (Var(0), Var(1))),
            |v: &[f64]| huber(v[0], v[1]),
            [r, 1.0]
        );
        let (_, d) = derivative(bind(huber {}, (Var(0), 1.0)), r);
        assert_eq!(d, r.clamp(-1.0, 1.0));
    }
    check_modes!(
        bind(normal_pdf {}, (Var(0), Var(1), Var(2))),
        |v: &[f64]| normal_pdf(v[0], v[1], v[2]),
        [0.3, -0.2, 1.4]
    );
    let (p, d) = derivative(bind(normal_pdf {}, (Var(0), -0.2, 1.4)), 0.3);
    assert!(close(d, -p * 0.5 / (1.4 * 1.4), 1e-15));
}

#[test]
fn coefficients_cast_with_t_from_and_num_traits_cast() {
    let c = vec![2.0, -1.0, 0.5, 3.0];
    test_frule(
        (c.clone(), 0.7),
        |a| horner(&a.0, a.1),
        |a, da| horner_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
    // p(x) = 2x³ − x² + x/2 + 3, p' = 6x² − 2x + 1/2.
    let d = horner_frule(Dual::new(&c[..], &[0.0; 4][..]), Dual::new(0.7, 1.0));
    assert!(close(d.tangent, 6.0 * 0.49 - 1.4 + 0.5, 1e-15));
    test_frule(
        (c.clone(), 0.3f32),
        |a| horner(&a.0, a.1),
        |a, da| horner_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
    // T₃(x) = 4x³ − 3x: its derivative 12x² − 3; the coefficients' tangents are the Tₖ.
    let t3 = [0.0, 0.0, 0.0, 1.0];
    for x in [-0.6f64, 0.2, 0.9] {
        let d = clenshaw_frule(Dual::new(&t3[..], &[0.0; 4][..]), Dual::new(x, 1.0));
        assert_eq!(d.primal.to_bits(), clenshaw(&t3, x).to_bits());
        assert!(close(d.tangent, 12.0 * x * x - 3.0, 1e-14));
        let d = clenshaw_frule(
            Dual::new(&t3[..], &[0.0, 0.0, 1.0, 0.0][..]),
            Dual::new(x, 0.0),
        );
        assert!(close(d.tangent, 2.0 * x * x - 1.0, 1e-14));
        test_frule(
            (c.clone(), x),
            |a| clenshaw(&a.0, a.1),
            |a, da| clenshaw_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
        );
    }
}

#[test]
fn f32_code_and_mixed_casts() {
    let x = vec![0.5f32, -1.0, 2.0, 0.25];
    test_frule(
        // In cycles per sample: finite differences in `f32` of a rate of 48 kHz are noise.
        (x.clone(), 0.05f32, 1.0f32),
        |a| one_pole(&a.0, a.1, a.2),
        |a, da| {
            one_pole_frule(
                Dual::new(&a.0[..], &da.0[..]),
                Dual::new(a.1, da.1),
                Dual::new(a.2, da.2),
            )
        },
    );
    // y = (1 − a) Σ a^(N−1−i) xᵢ: ∂y/∂xᵢ = (1 − a) a^(N−1−i).
    let a = (-2.0 * std::f64::consts::PI * 1000.0f32 as f64 / 48000.0).exp();
    for i in 0..4 {
        let mut dx = [0.0f32; 4];
        dx[i] = 1.0;
        let d = one_pole_frule(
            Dual::new(&x[..], &dx[..]),
            Dual::new(1000.0, 0.0),
            Dual::new(48000.0, 0.0),
        );
        assert_eq!(d.primal.to_bits(), one_pole(&x, 1000.0, 48000.0).to_bits());
        assert!(close(
            d.tangent as f64,
            (1.0 - a) * a.powi(3 - i as i32),
            1e-5
        ));
    }
    let b = vec![1.5f32, 0.25, -2.0, 4.0];
    let d = dot_f32_frule(
        Dual::new(&x[..], &b[..]),
        Dual::new(&b[..], &[0.0f32; 4][..]),
    );
    assert_eq!(d.primal.to_bits(), dot_f32(&x, &b).to_bits());
    // Along dx = b: Σ bᵢ².
    assert!(close(
        d.tangent as f64,
        1.5 * 1.5 + 0.0625 + 4.0 + 16.0,
        1e-6
    ));
    check_modes!(
        bind(apply_gain_db {}, (Var(0), -6.0f32)),
        |v: &[f64]| apply_gain_db(v[0], -6.0),
        [0.8]
    );
    let d = apply_gain_db_frule(Dual::new(0.8, 0.0), Dual::new(-6.0f32, 1.0));
    let k = 10f64.powf(-6.0 / 20.0);
    assert!(close(d.tangent, 0.8 * k * 10f64.ln() / 20.0, 1e-15));
    // Through `f32` storage the function is a staircase at 1e-7, which central differences
    // cannot step over: against the derivative of sin(xk)·x, cos(xk)·k·x + sin(xk), to
    // `f32`'s precision, in one direction and batched.
    let (x, k) = (0.6f64, 1.3f64);
    let want = (x * k).cos() * k * x + (x * k).sin();
    let (v, d) = derivative(bind(through_f32 {}, (Var(0), k)), x);
    assert_eq!(v.to_bits(), through_f32(x, k).to_bits());
    assert!(close(d, want, 1e-6));
    let (_, g) = gradient(bind(through_f32 {}, (Var(0), Var(1))), &[x, k]);
    assert!(close(g[0], want, 1e-6));
    assert!(close(g[1], (x * k).cos() * x * x, 1e-6));
}
