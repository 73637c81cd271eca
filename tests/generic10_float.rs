//! Generic numeric code as library authors write it (thirteenth session): functions over
//! `T: Float`, `T: Float + FloatConst`, `T: num_traits::real::Real`, operator bounds
//! alone, `where` clauses, `Sum`/`Product` of iterators of `T`, `num_traits::cast`,
//! `FloatConst::PI()`, generic structs with `impl<T: Float>` methods, a trait with an
//! associated `type Scalar`, and const generic `[T; N]`; each annotated unmodified.
//!
//! Each is checked by `check_widths!` (one direction, batches of 1 to 16 lanes, second
//! order, against central differences; primals bit for bit) and, where there is one,
//! against a closed form.
#![allow(clippy::needless_range_loop, clippy::ptr_arg)]

use fwdad::drivers::{bind, jvp, Var, Wrt};
use fwdad::prelude::*;
use num_traits::{Float, FloatConst, NumCast, One, Zero};
use std::iter::{Product, Sum};
use std::ops::{Add, Mul, Sub};

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// ---------------------------------------------------------------------------------------
// 1. Horner's scheme by a fold over the coefficients, highest first.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn horner<T: Float>(coeffs: &[T], x: T) -> T {
    coeffs.iter().rev().fold(T::zero(), |acc, &c| acc * x + c)
}

#[test]
fn horner_fold() {
    let x = [0.5, -1.25, 2.0, 0.75, 0.3];
    let plain = |v: &[f64]| horner(&v[..4], v[4]);
    #[derive_frule]
    fn horner_of(v: &[f64]) -> f64 {
        horner(&v[..4], v[4])
    }
    check_widths!(horner_of {}, plain, x);
    // d/dx of c0 + c1 x + c2 x² + c3 x³ = c1 + 2 c2 x + 3 c3 x².
    let (_, g) = gradient(horner_of {}, &x);
    let t = x[4];
    assert_close(
        g[4],
        x[1] + 2.0 * x[2] * t + 3.0 * x[3] * t * t,
        1e-14,
        "dp/dx",
    );
}

// ---------------------------------------------------------------------------------------
// 2. log-sum-exp, the maximum by a fold with `T::max` passed by name, the sum by `Sum`.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn logsumexp<T: Float + Sum>(x: &[T]) -> T {
    let m = x.iter().cloned().fold(T::neg_infinity(), T::max);
    m + x.iter().map(|&v| (v - m).exp()).sum::<T>().ln()
}

#[test]
fn logsumexp_with_sum_bound() {
    let x = [0.3, -1.2, 2.1, 0.4];
    check_widths!(bind(logsumexp {}, (Wrt,)), |v: &[f64]| logsumexp(v), x);
    // The gradient is the softmax.
    let (_, g) = gradient(bind(logsumexp {}, (Wrt,)), &x);
    let z: f64 = x.iter().map(|v| v.exp()).sum();
    for i in 0..4 {
        assert_close(g[i], x[i].exp() / z, 1e-14, "softmax");
    }
}

// ---------------------------------------------------------------------------------------
// 3. The geometric mean by `Product`, the exponent from the length by `T::from`.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn geometric_mean<T: Float + Product>(x: &[T]) -> T {
    let n = T::from(x.len()).unwrap();
    x.iter().copied().product::<T>().powf(T::one() / n)
}

#[test]
fn geometric_mean_with_product_bound() {
    let x = [1.5, 2.0, 0.7];
    check_widths!(
        bind(geometric_mean {}, (Wrt,)),
        |v: &[f64]| geometric_mean(v),
        x
    );
    // ∂G/∂xᵢ = G / (n xᵢ).
    let (gm, g) = gradient(bind(geometric_mean {}, (Wrt,)), &x);
    for i in 0..3 {
        assert_close(g[i], gm / (3.0 * x[i]), 1e-14, "dG/dxi");
    }
}

// ---------------------------------------------------------------------------------------
// 4. The normal density with `FloatConst::PI()` called through the trait, and
//    `T::FRAC_1_SQRT_2()`.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn normal_pdf<T: Float + FloatConst>(x: T, mu: T, sigma: T) -> T {
    let two = T::one() + T::one();
    let pi: T = FloatConst::PI();
    let z = (x - mu) / sigma;
    (-(z * z) / two).exp() / (sigma * (two * pi).sqrt())
}

#[derive_frule]
pub fn normal_cdf_tail<T: Float + FloatConst>(x: T) -> T {
    // Mills' ratio asymptote, a library's crude tail estimate.
    let z = x * T::FRAC_1_SQRT_2();
    (-z * z).exp() / (x * T::TAU().sqrt())
}

#[test]
fn normal_density_float_const() {
    let p = [0.4, -0.3, 1.3];
    check_widths!(
        bind(normal_pdf {}, (Var(0), Var(1), Var(2))),
        |v: &[f64]| normal_pdf(v[0], v[1], v[2]),
        p
    );
    // ∂φ/∂x = -(x - μ)/σ² φ.
    let (v, d) = derivative(bind(normal_pdf {}, (Var(0), -0.3, 1.3)), 0.4);
    assert_close(d, -(0.4 + 0.3) / (1.3 * 1.3) * v, 1e-14, "dphi/dx");
    check_widths!(
        bind(normal_cdf_tail {}, (Var(0),)),
        |v: &[f64]| normal_cdf_tail(v[0]),
        [3.0]
    );
}

// ---------------------------------------------------------------------------------------
// 5. `num_traits::real::Real` as the bound (no NaN or infinity assumed).
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn smoothstep_blend<T: num_traits::real::Real>(a: T, b: T, t: T) -> T {
    let two = T::one() + T::one();
    let three = two + T::one();
    let s = t * t * (three - two * t);
    a + (b - a) * s + (a * b).sin() * T::epsilon().sqrt()
}

#[test]
fn real_bound() {
    let p = [0.2, 1.7, 0.35];
    check_widths!(
        bind(smoothstep_blend {}, (Var(0), Var(1), Var(2))),
        |v: &[f64]| smoothstep_blend(v[0], v[1], v[2]),
        p
    );
}

// ---------------------------------------------------------------------------------------
// 6. Operator bounds alone: a dot product over any ring-like `T` with `Zero`.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn dot_generic<T>(a: &[T], b: &[T]) -> T
where
    T: Copy + Zero + Add<Output = T> + Mul<Output = T>,
{
    let mut acc = T::zero();
    for i in 0..a.len() {
        acc = acc + a[i] * b[i];
    }
    acc
}

/// Operator bounds only, without `Zero`: the first product starts the sum.
#[derive_frule]
pub fn weighted_sum<T: Copy + Add<Output = T> + Mul<Output = T>>(w: &[T], x: &[T]) -> T {
    let mut acc = w[0] * x[0];
    for i in 1..w.len() {
        acc = acc + w[i] * x[i];
    }
    acc
}

#[derive_frule]
pub fn weighted_sum_of(v: &[f64]) -> f64 {
    weighted_sum(&v[..3], &v[3..]).sin()
}

#[derive_frule]
pub fn dot_of(v: &[f64]) -> f64 {
    dot_generic(&v[..3], &v[3..]).exp()
}

#[test]
fn operator_bounds_only() {
    let x = [0.5, -0.2, 1.1, 0.9, 0.3, -0.7];
    check_widths!(weighted_sum_of {}, weighted_sum_of, x);
    check_widths!(dot_of {}, dot_of, x);
    // ∂/∂aᵢ of exp(a·b) = bᵢ exp(a·b).
    let (e, g) = gradient(dot_of {}, &x);
    for i in 0..3 {
        assert_close(g[i], x[i + 3] * e, 1e-14, "d/dai");
    }
}

// ---------------------------------------------------------------------------------------
// 7. A `where` clause with `Sum<T>` and a higher-ranked `Sum<&'a T>`.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn rms<T>(x: &[T]) -> T
where
    T: Float + Sum<T>,
{
    let n = T::from(x.len()).unwrap();
    (x.iter().map(|&v| v * v).sum::<T>() / n).sqrt()
}

#[derive_frule]
pub fn centred_variance<T>(x: &[T]) -> T
where
    T: Float + for<'a> Sum<&'a T>,
{
    let n = T::from(x.len()).unwrap();
    let mean = x.iter().sum::<T>() / n;
    let mut s = T::zero();
    for v in x {
        s = s + (*v - mean) * (*v - mean);
    }
    s / (n - T::one())
}

#[test]
fn where_clauses() {
    let x = [0.3, -1.2, 2.1, 0.4];
    check_widths!(bind(rms {}, (Wrt,)), |v: &[f64]| rms(v), x);
    check_widths!(
        bind(centred_variance {}, (Wrt,)),
        |v: &[f64]| centred_variance(v),
        x
    );
    // ∂s²/∂xᵢ = 2 (xᵢ - x̄) / (n - 1).
    let (_, g) = gradient(bind(centred_variance {}, (Wrt,)), &x);
    let mean = x.iter().sum::<f64>() / 4.0;
    for i in 0..4 {
        assert_close(g[i], 2.0 * (x[i] - mean) / 3.0, 1e-14, "dvar/dxi");
    }
}

// ---------------------------------------------------------------------------------------
// 8. `num_traits::cast` and `NumCast::from` for the constants and the counts.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn trapezoid_exp_decay<T: Float>(k: T, t_end: T, n: usize) -> T {
    let h = t_end / num_traits::cast::<usize, T>(n).unwrap();
    let half: T = num_traits::cast(0.5).unwrap();
    let mut s = half * ((-k * T::zero()).exp() + (-k * t_end).exp());
    for i in 1..n {
        let t = h * <T as NumCast>::from(i).unwrap();
        s = s + (-k * t).exp();
    }
    s * h
}

#[test]
fn casts() {
    let p = [0.7, 2.5];
    check_widths!(
        bind(trapezoid_exp_decay {}, (Var(0), Var(1), 200)),
        |v: &[f64]| trapezoid_exp_decay(v[0], v[1], 200),
        p
    );
    // ∂/∂T_end of ∫₀ᵀ e^{-kt} dt ≈ e^{-kT}.
    let (_, g) = gradient(bind(trapezoid_exp_decay {}, (Var(0), Var(1), 200)), &p);
    assert_close(g[1], (-0.7f64 * 2.5).exp(), 1e-4, "d/dT");
}

// ---------------------------------------------------------------------------------------
// 9. A generic struct with `impl<T: Float>` methods: a logistic regression model.
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug, Differentiable)]
pub struct Logistic<T> {
    pub w: Vec<T>,
    pub b: T,
}

#[derive_frule]
impl<T: Float> Logistic<T> {
    pub fn new(w: Vec<T>, b: T) -> Self {
        Logistic { w, b }
    }

    pub fn logit(&self, x: &[T]) -> T {
        let mut z = self.b;
        for (wi, xi) in self.w.iter().zip(x) {
            z = z + *wi * *xi;
        }
        z
    }

    pub fn prob(&self, x: &[T]) -> T {
        T::one() / (T::one() + (-self.logit(x)).exp())
    }

    pub fn nll(&self, xs: &[[T; 2]], ys: &[bool]) -> T {
        let eps = T::epsilon();
        let mut l = T::zero();
        for (x, &y) in xs.iter().zip(ys) {
            let p = self.prob(x);
            l = l - if y {
                (p + eps).ln()
            } else {
                (T::one() - p + eps).ln()
            };
        }
        l
    }
}

#[derive_frule]
pub fn logistic_nll(theta: &[f64]) -> f64 {
    let model = Logistic::new(vec![theta[0], theta[1]], theta[2]);
    let xs = [[0.5, 1.0], [-1.0, 0.3], [2.0, -0.5], [0.1, 0.1]];
    let ys = [true, false, true, false];
    model.nll(&xs, &ys)
}

#[test]
fn generic_struct_methods() {
    check_widths!(logistic_nll {}, logistic_nll, [0.3, -0.4, 0.1]);
}

// ---------------------------------------------------------------------------------------
// 10. A trait with an associated `type Scalar` on a generic struct, and a function
//     generic over its implementors.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub trait Kernel {
    type Scalar;
    fn eval(&self, r: Self::Scalar) -> Self::Scalar;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Gaussian<T> {
    pub width: T,
}

// `impl<T: Float> Kernel for Gaussian<T>` is a compile error (the UI test
// `trait-impl-generic-over-float`): implemented for the float type differentiated at.
#[derive_frule]
impl Kernel for Gaussian<f64> {
    type Scalar = f64;
    fn eval(&self, r: f64) -> f64 {
        (-(r * r) / (self.width * self.width)).exp()
    }
}

#[derive_frule]
pub fn kernel_density<K: Kernel<Scalar = f64>>(k: &K, x: f64, data: &[f64]) -> f64 {
    let mut s = 0.0;
    for &d in data {
        s += k.eval(x - d);
    }
    s / data.len() as f64
}

#[derive_frule]
pub fn density_at(p: &[f64]) -> f64 {
    let k = Gaussian { width: p[0] };
    kernel_density(&k, p[1], &[0.1, 0.5, -0.3, 1.2])
}

#[test]
fn associated_scalar_type() {
    check_widths!(density_at {}, density_at, [0.6, 0.25]);
}

// ---------------------------------------------------------------------------------------
// 11. Const generics: cross-entropy of `[T; N]` logits, returning by value.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn softmax_array<T: Float, const N: usize>(z: [T; N]) -> [T; N] {
    let m = z.iter().fold(T::neg_infinity(), |a, &b| a.max(b));
    let mut e = z.map(|v| (v - m).exp());
    let s = e.iter().fold(T::zero(), |a, &b| a + b);
    for v in e.iter_mut() {
        *v = *v / s;
    }
    e
}

#[derive_frule]
pub fn cross_entropy_array<T: Float, const N: usize>(z: [T; N], target: usize) -> T {
    -softmax_array(z)[target].ln()
}

#[derive_frule]
pub fn ce3(z: &[f64]) -> f64 {
    cross_entropy_array([z[0], z[1], z[2]], 1)
}

#[test]
fn const_generic_by_value() {
    let z = [0.2, 1.4, -0.6];
    check_widths!(ce3 {}, ce3, z);
    // ∂/∂zᵢ = softmaxᵢ - [i = target].
    let (_, g) = gradient(ce3 {}, &z);
    let s: f64 = z.iter().map(|v| v.exp()).sum();
    for i in 0..3 {
        let want = z[i].exp() / s - if i == 1 { 1.0 } else { 0.0 };
        assert_close(g[i], want, 1e-13, "dCE/dzi");
    }
}

// ---------------------------------------------------------------------------------------
// 12. Guards with `T::epsilon()`, `T::min_positive_value()` and `T::max_value()`.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn safe_normalize_x<T: Float>(x: T, y: T, z: T) -> T {
    let n2 = x * x + y * y + z * z;
    let n = n2.max(T::min_positive_value()).sqrt();
    let inv = if n > T::epsilon() {
        T::one() / n
    } else {
        T::max_value().sqrt()
    };
    x * inv
}

#[test]
fn epsilon_guards() {
    let p = [0.3, -0.4, 1.2];
    check_widths!(
        bind(safe_normalize_x {}, (Var(0), Var(1), Var(2))),
        |v: &[f64]| safe_normalize_x(v[0], v[1], v[2]),
        p
    );
}

// ---------------------------------------------------------------------------------------
// 13. Huber loss over a residual vector, generic, with `T::from` thresholds.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn huber<T: Float>(r: T, delta: T) -> T {
    let a = r.abs();
    if a <= delta {
        T::from(0.5).unwrap() * r * r
    } else {
        delta * (a - T::from(0.5).unwrap() * delta)
    }
}

#[derive_frule]
pub fn huber_fit<T: Float + Sum>(theta: &[T], xs: &[T], ys: &[T]) -> T {
    let delta = T::one();
    xs.iter()
        .zip(ys)
        .map(|(&x, &y)| huber(theta[0] * x + theta[1] - y, delta))
        .sum()
}

#[test]
fn huber_regression() {
    let xs = [0.0, 1.0, 2.0, 3.0];
    let ys = [0.1, 1.2, 1.8, 6.0];
    check_widths!(
        bind(huber_fit {}, (Wrt, &xs[..], &ys[..])),
        |v: &[f64]| huber_fit(v, &xs, &ys),
        [0.9, 0.05]
    );
}

// ---------------------------------------------------------------------------------------
// 14. A generic 2-vector with methods taking `self` by value and operator impls.
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V2<T> {
    pub x: T,
    pub y: T,
}

#[derive_frule]
impl<T: Float> V2<T> {
    pub fn new(x: T, y: T) -> Self {
        V2 { x, y }
    }
    pub fn norm(self) -> T {
        self.x.hypot(self.y)
    }
    pub fn rotate(self, a: T) -> Self {
        let (s, c) = a.sin_cos();
        V2::new(c * self.x - s * self.y, s * self.x + c * self.y)
    }
}

#[derive_frule]
impl<T: Float> Sub for V2<T> {
    type Output = V2<T>;
    fn sub(self, o: V2<T>) -> V2<T> {
        V2::new(self.x - o.x, self.y - o.y)
    }
}

#[derive_frule]
pub fn rotated_distance(p: &[f64]) -> f64 {
    let a = V2::new(p[0], p[1]);
    let b = V2::new(1.0, -0.5);
    (a.rotate(p[2]) - b).norm()
}

#[test]
fn generic_vector_type() {
    check_widths!(rotated_distance {}, rotated_distance, [0.4, 0.9, 0.7]);
}

// ---------------------------------------------------------------------------------------
// 15. A generic RK4 integrator taking the right-hand side `F: Fn(T, T) -> T`.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn rk4<T: Float, F: Fn(T, T) -> T>(f: F, t0: T, y0: T, h: T, n: usize) -> T {
    let two = T::from(2.0).unwrap();
    let six = T::from(6.0).unwrap();
    let (mut t, mut y) = (t0, y0);
    for _ in 0..n {
        let k1 = f(t, y);
        let k2 = f(t + h / two, y + h / two * k1);
        let k3 = f(t + h / two, y + h / two * k2);
        let k4 = f(t + h, y + h * k3);
        y = y + h / six * (k1 + two * k2 + two * k3 + k4);
        t = t + h;
    }
    y
}

#[derive_frule]
pub fn logistic_growth(p: &[f64]) -> f64 {
    let (r, k) = (p[0], p[1]);
    rk4(|_t, y| r * y * (1.0 - y / k), 0.0, 0.1, 0.05, 40)
}

#[test]
fn generic_integrator_with_closure() {
    let p = [1.3, 2.0];
    check_widths!(logistic_growth {}, logistic_growth, p);
    // Closed form y(t) = K / (1 + (K/y0 - 1) e^{-rt}), t = 2.
    let (y, _) = gradient(logistic_growth {}, &p);
    let exact = 2.0 / (1.0 + (2.0 / 0.1 - 1.0) * (-1.3f64 * 2.0).exp());
    assert!((y - exact).abs() < 1e-6);
}

// ---------------------------------------------------------------------------------------
// 16. Fully qualified float calls: `Float::sqrt(x)`, `<T as Float>::mul_add`,
//     `T::hypot`, `T::atan2`.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn polar<T: Float>(x: T, y: T) -> (T, T) {
    let r = Float::sqrt(<T as Float>::mul_add(x, x, y * y));
    let theta = T::atan2(y, x);
    (r, theta)
}

#[derive_frule]
pub fn polar_mix(p: &[f64]) -> f64 {
    let (r, th) = polar(p[0], p[1]);
    r * th.cos() + f64::hypot(p[0], r)
}

#[test]
fn qualified_calls() {
    check_widths!(polar_mix {}, polar_mix, [0.8, -0.6]);
}

// ---------------------------------------------------------------------------------------
// 17. A counted mean with `T::from(i)` of integers and `to_f64` back.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn weighted_index_mean<T: Float>(x: &[T]) -> f64 {
    let mut s = T::zero();
    let mut w = T::zero();
    for (i, &v) in x.iter().enumerate() {
        let k = T::from(i + 1).unwrap();
        s = s + k * v.tanh();
        w = w + k;
    }
    (s / w).to_f64().unwrap()
}

#[test]
fn to_f64_result() {
    let x = [0.3, -0.8, 1.5, 0.2];
    check_widths!(
        bind(weighted_index_mean {}, (Wrt,)),
        |v: &[f64]| weighted_index_mean(v),
        x
    );
}

// ---------------------------------------------------------------------------------------
// 18. `One` and `Zero` as bounds with `Float`, and `T::one()`'s powers by `powi`.
// ---------------------------------------------------------------------------------------

#[derive_frule]
pub fn chebyshev_sum<T: Float + One + Zero>(c: &[T], x: T) -> T {
    // Clenshaw's recurrence for Σ cₖ Tₖ(x).
    let two = T::one() + T::one();
    let (mut b1, mut b2) = (T::zero(), T::zero());
    for k in (1..c.len()).rev() {
        let b0 = two * x * b1 - b2 + c[k];
        b2 = b1;
        b1 = b0;
    }
    x * b1 - b2 + c[0]
}

#[derive_frule]
pub fn chebyshev_of(v: &[f64]) -> f64 {
    chebyshev_sum(&v[..4], v[4])
}

#[test]
fn clenshaw() {
    let v = [0.5, -0.3, 0.8, 0.25, 0.6];
    check_widths!(chebyshev_of {}, chebyshev_of, v);
    // Closed form: T0 = 1, T1 = x, T2 = 2x² - 1, T3 = 4x³ - 3x.
    let x = v[4];
    let want = v[0] + v[1] * x + v[2] * (2.0 * x * x - 1.0) + v[3] * (4.0 * x.powi(3) - 3.0 * x);
    assert!((chebyshev_of(&v) - want).abs() < 1e-14);
}

// ---------------------------------------------------------------------------------------
// 19. A generic struct with a const generic array field: a fixed-size FIR filter.
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Fir<T, const N: usize> {
    pub taps: [T; N],
}

#[derive_frule]
impl<T: Float, const N: usize> Fir<T, N> {
    pub fn apply(&self, signal: &[T]) -> Vec<T> {
        let mut out = Vec::with_capacity(signal.len());
        for i in 0..signal.len() {
            let mut acc = T::zero();
            for k in 0..N {
                if i >= k {
                    acc = acc + self.taps[k] * signal[i - k];
                }
            }
            out.push(acc);
        }
        out
    }
}

#[derive_frule]
pub fn fir_energy(taps: &[f64]) -> f64 {
    let f = Fir {
        taps: [taps[0], taps[1], taps[2]],
    };
    let y = f.apply(&[1.0, 0.5, -0.25, 0.75, -1.0]);
    y.iter().map(|v| v * v).sum::<f64>()
}

#[test]
fn const_generic_struct() {
    check_widths!(fir_energy {}, fir_energy, [0.5, 0.3, -0.2]);
}
