//! Closures and arrays as ordinary numerical code hands them around: an array field
//! mapped (`self.q.map(|v| v / n)`, a quaternion normalised) and zipped with
//! `core::array::from_fn(|i| self.a[i] * x[i])`; closures handed to the user's own
//! solvers (a generic Newton iteration, a trapezoid rule taking `impl Fn`, `&mut dyn
//! FnMut` callbacks accumulating into a captured variable or a captured `&mut f64`, a
//! stateful low-pass filter returned as `impl FnMut` by a `move` closure, an RK4 stepper
//! taking `&dyn Fn(f64, &[f64]) -> Vec<f64>`); and `get_or_insert_with` on a local bound
//! without its type. Each is checked against central differences in one direction, in
//! batches and at second order (`check_modes!`, primals bit for bit), and against a
//! closed form where there is one.
//
// Index loops as physicists write them.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

// ---------------------------------------------------------------------------------------
// Array fields: `self.q.map(..)`, `core::array::from_fn(|i| self.a[i] * x[i])`.

/// A rigid body's attitude (a quaternion `w, x, y, z`, not necessarily of unit norm, as
/// an optimiser leaves it) and the per-axis scale of a sensor.
#[derive(Differentiable, Clone, Debug)]
struct Attitude {
    q: [f64; 4],
    gain: [f64; 3],
}

#[derive_frule]
impl Attitude {
    /// The unit quaternion.
    fn unit(&self) -> [f64; 4] {
        let n = (self.q[0] * self.q[0]
            + self.q[1] * self.q[1]
            + self.q[2] * self.q[2]
            + self.q[3] * self.q[3])
            .sqrt();
        self.q.map(|c| c / n)
    }

    /// The sensor's reading of `v`, axis by axis.
    fn scaled(&self, v: &[f64; 3]) -> [f64; 3] {
        core::array::from_fn(|i| self.gain[i] * v[i])
    }

    /// `v` rotated by the unit quaternion (`v + 2w (u × v) + 2 u × (u × v)`), then scaled.
    fn measure(&self, v: &[f64; 3]) -> [f64; 3] {
        let [w, x, y, z] = self.unit();
        let c1 = [
            y * v[2] - z * v[1],
            z * v[0] - x * v[2],
            x * v[1] - y * v[0],
        ];
        let c2 = [
            y * c1[2] - z * c1[1],
            z * c1[0] - x * c1[2],
            x * c1[1] - y * c1[0],
        ];
        let r = [
            v[0] + 2.0 * (w * c1[0] + c2[0]),
            v[1] + 2.0 * (w * c1[1] + c2[1]),
            v[2] + 2.0 * (w * c1[2] + c2[2]),
        ];
        self.scaled(&r)
    }
}

/// A squared residual of a gravity measurement against the model's prediction.
#[derive_frule]
fn attitude_residual(p: &[f64]) -> f64 {
    let att = Attitude {
        q: [p[0], p[1], p[2], p[3]],
        gain: [p[4], p[5], p[6]],
    };
    let m = att.measure(&[0.0, 0.0, 9.81]);
    let seen = [0.8, -1.9, 9.5];
    (0..3).map(|i| (m[i] - seen[i]).powi(2)).sum()
}

fn attitude_residual_plain(p: &[f64]) -> f64 {
    attitude_residual(p)
}

#[test]
fn array_field_map_and_from_fn() {
    let p = [0.9, 0.1, -0.2, 0.3, 1.02, 0.97, 1.01];
    check_modes!(
        bind(attitude_residual {}, (Wrt,)),
        attitude_residual_plain,
        p
    );
    // The mapped field is the unit quaternion, and its tangent the closed form
    // dq̂ = (I − q̂ q̂ᵀ) dq / |q|.
    let att = Attitude {
        q: [p[0], p[1], p[2], p[3]],
        gain: [p[4], p[5], p[6]],
    };
    let norm = p[..4].iter().map(|c| c * c).sum::<f64>().sqrt();
    let u = att.unit();
    for k in 0..4 {
        assert_eq!(u[k].to_bits(), (p[k] / norm).to_bits());
    }
    let unit_of = |x: &[f64]| -> f64 {
        let a = Attitude {
            q: [x[0], x[1], x[2], x[3]],
            gain: [1.0; 3],
        };
        a.unit()[1]
    };
    #[derive_frule]
    fn unit_y(x: &[f64]) -> f64 {
        let a = Attitude {
            q: [x[0], x[1], x[2], x[3]],
            gain: [1.0, 1.0, 1.0],
        };
        a.unit()[1]
    }
    let (v, g) = gradient(bind(unit_y {}, (Wrt,)), &p[..4]);
    assert_eq!(v.to_bits(), unit_of(&p[..4]).to_bits());
    for k in 0..4 {
        let delta = if k == 1 { 1.0 } else { 0.0 };
        let want = (delta - u[1] * u[k]) / norm;
        assert_close(g[k], want, 1e-14, "d unit / dq");
    }
}

// ---------------------------------------------------------------------------------------
// A generic Newton solver taking the function and its derivative.

/// Newton's method as a numerics course writes it: the function and its derivative as
/// type parameters, a fixed number of steps.
#[derive_frule]
fn newton<F: Fn(f64) -> f64, G: Fn(f64) -> f64>(f: F, df: G, x0: f64) -> f64 {
    let mut x = x0;
    for _ in 0..40 {
        x -= f(x) / df(x);
    }
    x
}

/// The cube root of `a` and the square root of `b` by Newton, summed.
#[derive_frule]
fn roots(p: &[f64]) -> f64 {
    let (a, b) = (p[0], p[1]);
    let cbrt = newton(|x| x * x * x - a, |x| 3.0 * x * x, 1.0);
    let sqrt = newton(|x| x * x - b, |x| 2.0 * x, 1.0);
    cbrt + sqrt
}

fn roots_plain(p: &[f64]) -> f64 {
    roots(p)
}

#[test]
fn generic_newton_solver() {
    let p = [5.0, 2.0];
    check_modes!(bind(roots {}, (Wrt,)), roots_plain, p);
    // Closed forms: d∛a/da = 1 / (3 a^(2/3)), d√b/db = 1 / (2 √b); second derivatives
    // −2 / (9 a^(5/3)) and −1 / (4 b^(3/2)).
    let (_, g, h) = hessian(bind(roots {}, (Wrt,)), &p);
    assert_close(g[0], 1.0 / (3.0 * p[0].powf(2.0 / 3.0)), 1e-12, "d cbrt");
    assert_close(g[1], 1.0 / (2.0 * p[1].sqrt()), 1e-12, "d sqrt");
    assert_close(
        h[(0, 0)],
        -2.0 / (9.0 * p[0].powf(5.0 / 3.0)),
        1e-10,
        "d2 cbrt",
    );
    assert_close(h[(1, 1)], -1.0 / (4.0 * p[1].powf(1.5)), 1e-10, "d2 sqrt");
    assert_eq!(h[(0, 1)], 0.0);
}

// ---------------------------------------------------------------------------------------
// A quadrature rule taking `impl Fn`.

/// The composite trapezoid rule on `n` intervals.
#[derive_frule]
fn integrate(f: impl Fn(f64) -> f64, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let mut s = 0.5 * (f(a) + f(b));
    for i in 1..n {
        s += f(a + i as f64 * h);
    }
    s * h
}

/// The mass of an unnormalised Gaussian bump of centre `mu` and width `sigma` on
/// `[-1, 2]`, and its first moment.
#[derive_frule]
fn bump_moments(p: &[f64]) -> f64 {
    let (mu, sigma) = (p[0], p[1]);
    let mass = integrate(
        |x| (-(x - mu) * (x - mu) / (2.0 * sigma * sigma)).exp(),
        -1.0,
        2.0,
        64,
    );
    let first = integrate(
        |x| x * (-0.5 * ((x - mu) / sigma).powi(2)).exp(),
        -1.0,
        2.0,
        64,
    );
    mass + 0.5 * first
}

fn bump_moments_plain(p: &[f64]) -> f64 {
    bump_moments(p)
}

#[test]
fn quadrature_of_a_closure_capturing_parameters() {
    let p = [0.4, 0.7];
    check_modes!(bind(bump_moments {}, (Wrt,)), bump_moments_plain, p);
    // The trapezoid rule is linear in the integrand: d/dμ is the same rule applied to
    // ∂/∂μ of the integrand, (x − μ)/σ² · e(x), written out here by hand.
    let (mu, s) = (p[0], p[1]);
    let h = 3.0 / 64.0;
    let mut want_mu = 0.0;
    for i in 0..=64 {
        let x = -1.0 + i as f64 * h;
        let w = if i == 0 || i == 64 { 0.5 * h } else { h };
        let e = (-(x - mu) * (x - mu) / (2.0 * s * s)).exp();
        want_mu += w * (1.0 + 0.5 * x) * (x - mu) / (s * s) * e;
    }
    let (_, g) = gradient(bind(bump_moments {}, (Wrt,)), &p);
    assert_close(g[0], want_mu, 1e-13, "d/dmu");
}

// ---------------------------------------------------------------------------------------
// Callbacks: `&mut dyn FnMut(f64)` accumulating into what it captures.

/// Visits each sample, as a data loader or a mesh walker does.
#[derive_frule]
fn for_each_sample(xs: &[f64], visit: &mut dyn FnMut(f64)) {
    for &x in xs {
        visit(x);
    }
}

/// The energy of springs of stiffness `k` stretched by the samples, summed by a callback
/// into a local.
#[derive_frule]
fn spring_energy(p: &[f64]) -> f64 {
    let k = p[0];
    let mut e = 0.0;
    for_each_sample(&p[1..], &mut |x| e += 0.5 * k * x * x);
    e
}

fn spring_energy_plain(p: &[f64]) -> f64 {
    spring_energy(p)
}

/// The same sum written into the caller's `&mut f64`, which the callback captures.
#[derive_frule]
fn log_likelihood_into(p: &[f64], total: &mut f64) {
    let (mu, s) = (p[0], p[1]);
    for_each_sample(&[0.3, 1.1, -0.4, 0.9], &mut |x| {
        *total += -0.5 * ((x - mu) / s).powi(2) - s.ln()
    });
}

#[derive_frule]
fn log_likelihood(p: &[f64]) -> f64 {
    let mut total = 0.0;
    log_likelihood_into(p, &mut total);
    total
}

fn log_likelihood_plain(p: &[f64]) -> f64 {
    log_likelihood(p)
}

#[test]
fn fnmut_callbacks_accumulate() {
    let p = [3.0, 0.5, -1.2, 2.0];
    check_modes!(bind(spring_energy {}, (Wrt,)), spring_energy_plain, p);
    // Closed form: ∂E/∂k = ½ Σ xᵢ², ∂E/∂xᵢ = k xᵢ.
    let (e, g) = gradient(bind(spring_energy {}, (Wrt,)), &p);
    assert_eq!(e.to_bits(), spring_energy(&p).to_bits());
    assert_close(g[0], 0.5 * (0.25 + 1.44 + 4.0), 1e-14, "dE/dk");
    for i in 1..4 {
        assert_close(g[i], p[0] * p[i], 1e-14, "dE/dx");
    }

    let q = [0.4, 0.8];
    check_modes!(bind(log_likelihood {}, (Wrt,)), log_likelihood_plain, q);
    // Closed form: ∂/∂μ = Σ (xᵢ − μ)/s², ∂/∂s = Σ (xᵢ − μ)²/s³ − n/s.
    let xs = [0.3, 1.1, -0.4, 0.9];
    let (_, g) = gradient(bind(log_likelihood {}, (Wrt,)), &q);
    let d_mu: f64 = xs.iter().map(|x| (x - q[0]) / (q[1] * q[1])).sum();
    let d_s: f64 = xs
        .iter()
        .map(|x| (x - q[0]).powi(2) / q[1].powi(3) - 1.0 / q[1])
        .sum();
    assert_close(g[0], d_mu, 1e-14, "d/dmu");
    assert_close(g[1], d_s, 1e-14, "d/ds");
}

// ---------------------------------------------------------------------------------------
// A stateful filter returned as `impl FnMut` by a `move` closure.

/// A first-order low-pass filter: each call moves the output a fraction `alpha` of the
/// way to the input, the state held by the closure.
#[derive_frule]
fn low_pass(alpha: f64) -> impl FnMut(f64) -> f64 {
    let mut y = 0.0;
    move |x| {
        y += alpha * (x - y);
        y
    }
}

/// The filter's last output over a signal.
#[derive_frule]
fn filtered(p: &[f64]) -> f64 {
    let mut filter = low_pass(p[0]);
    let mut out = 0.0;
    for &x in &p[1..] {
        out = filter(x);
    }
    out
}

fn filtered_plain(p: &[f64]) -> f64 {
    filtered(p)
}

#[test]
fn stateful_filter_returned_by_a_move_closure() {
    let p = [0.3, 1.0, 0.5, -0.2, 0.8, 1.4];
    check_modes!(bind(filtered {}, (Wrt,)), filtered_plain, p);
    // Closed form: y_N = Σₖ α (1 − α)^(N−k) xₖ, so ∂y_N/∂xₖ = α (1 − α)^(N−k).
    let (y, g) = gradient(bind(filtered {}, (Wrt,)), &p);
    assert_eq!(y.to_bits(), filtered(&p).to_bits());
    let (a, n) = (p[0], p.len() - 1);
    for k in 1..=n {
        assert_close(g[k], a * (1.0 - a).powi((n - k) as i32), 1e-14, "dy/dx");
    }
}

/// A running mean of what a sensor reports, the state a count and a sum held by a
/// returned `move` closure, each reading scaled by a gain.
#[derive_frule]
fn running_mean(gain: f64) -> impl FnMut(f64) -> f64 {
    let mut n = 0usize;
    let mut sum = 0.0;
    move |x| {
        n += 1;
        sum += gain * x;
        sum / n as f64
    }
}

#[derive_frule]
fn mean_of_readings(p: &[f64]) -> f64 {
    let mut mean = running_mean(p[0]);
    let mut m = 0.0;
    for &x in &p[1..] {
        m = mean(x);
    }
    m * m
}

fn mean_of_readings_plain(p: &[f64]) -> f64 {
    mean_of_readings(p)
}

#[test]
fn running_mean_returned_by_a_move_closure() {
    let p = [1.5, 0.2, -0.7, 1.9];
    check_modes!(bind(mean_of_readings {}, (Wrt,)), mean_of_readings_plain, p);
    // Closed form: f = (g x̄)², ∂f/∂g = 2 g x̄², ∂f/∂xᵢ = 2 g² x̄ / n.
    let mean = (p[1] + p[2] + p[3]) / 3.0;
    let (_, g) = gradient(bind(mean_of_readings {}, (Wrt,)), &p);
    assert_close(g[0], 2.0 * p[0] * mean * mean, 1e-14, "df/dg");
    for i in 1..4 {
        assert_close(g[i], 2.0 * p[0] * p[0] * mean / 3.0, 1e-14, "df/dx");
    }
}

// ---------------------------------------------------------------------------------------
// An RK4 stepper taking the right-hand side as `&dyn Fn(f64, &[f64]) -> Vec<f64>`.

/// One classical Runge-Kutta step of `y' = f(t, y)`.
#[derive_frule]
fn rk4_step(f: &dyn Fn(f64, &[f64]) -> Vec<f64>, t: f64, y: &[f64], h: f64) -> Vec<f64> {
    let k1 = f(t, y);
    let y2: Vec<f64> = y.iter().zip(&k1).map(|(a, k)| a + 0.5 * h * k).collect();
    let k2 = f(t + 0.5 * h, &y2);
    let y3: Vec<f64> = y.iter().zip(&k2).map(|(a, k)| a + 0.5 * h * k).collect();
    let k3 = f(t + 0.5 * h, &y3);
    let y4: Vec<f64> = y.iter().zip(&k3).map(|(a, k)| a + h * k).collect();
    let k4 = f(t + h, &y4);
    (0..y.len())
        .map(|i| y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
        .collect()
}

/// A damped oscillator of frequency `w` and damping `c`, released from `x0`: its
/// position after one second.
#[derive_frule]
fn oscillator_position(p: &[f64]) -> f64 {
    let (w, c) = (p[0], p[1]);
    let rhs = |_t: f64, y: &[f64]| vec![y[1], -w * w * y[0] - c * y[1]];
    let mut y = vec![p[2], 0.0];
    let h = 0.01;
    for k in 0..100 {
        y = rk4_step(&rhs, k as f64 * h, &y, h);
    }
    y[0]
}

fn oscillator_position_plain(p: &[f64]) -> f64 {
    oscillator_position(p)
}

#[test]
fn rk4_stepper_with_a_dyn_right_hand_side() {
    let p = [2.0, 0.3, 1.0];
    check_modes!(
        bind(oscillator_position {}, (Wrt,)),
        oscillator_position_plain,
        p
    );
    // Against the exact solution's derivative (RK4 at h = 0.01 is within 1e-9 of it):
    // x(t) = x0 e^(−ct/2) (cos ωd t + c/(2ωd) sin ωd t), ωd = √(w² − c²/4); linear in x0.
    let (w, c, x0) = (p[0], p[1], p[2]);
    let wd = (w * w - c * c / 4.0).sqrt();
    let exact = (-c / 2.0).exp() * (wd.cos() + c / (2.0 * wd) * wd.sin());
    let (x, g) = gradient(bind(oscillator_position {}, (Wrt,)), &p);
    assert_close(x, x0 * exact, 1e-8, "x(1)");
    assert_close(g[2], exact, 1e-8, "dx/dx0");
}

// ---------------------------------------------------------------------------------------
// `get_or_insert_with` on a local bound without its type.

/// A lazily computed normalisation: the cache is filled by an earlier branch or by the
/// closure.
#[derive_frule]
fn lazily_normalised(p: &[f64]) -> f64 {
    let x = p[0];
    let mut cache = None;
    if p[1] > 1.0 {
        cache = Some(p[1] * p[1]);
    }
    let z = *cache.get_or_insert_with(|| x.exp() + 1.0);
    x / z + cache.unwrap_or(0.0)
}

fn lazily_normalised_plain(p: &[f64]) -> f64 {
    lazily_normalised(p)
}

#[test]
fn get_or_insert_with_on_an_untyped_local() {
    // The closure runs: f = x / (eˣ + 1) + eˣ + 1.
    let p = [0.7, 0.5];
    check_modes!(
        bind(lazily_normalised {}, (Wrt,)),
        lazily_normalised_plain,
        p
    );
    let (_, g) = gradient(bind(lazily_normalised {}, (Wrt,)), &p);
    let e = p[0].exp();
    assert_close(
        g[0],
        1.0 / (e + 1.0) - p[0] * e / ((e + 1.0) * (e + 1.0)) + e,
        1e-14,
        "df/dx",
    );
    assert_eq!(g[1], 0.0);
    // The branch filled it: f = x / b² + b².
    let q = [0.7, 1.5];
    check_modes!(
        bind(lazily_normalised {}, (Wrt,)),
        lazily_normalised_plain,
        q
    );
    let (_, g) = gradient(bind(lazily_normalised {}, (Wrt,)), &q);
    assert_close(g[0], 1.0 / (q[1] * q[1]), 1e-14, "df/dx");
    assert_close(
        g[1],
        -2.0 * q[0] / q[1].powi(3) + 2.0 * q[1],
        1e-14,
        "df/db",
    );
}
