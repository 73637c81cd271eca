//! rust-kepler-solver 0.1.0 (MIT, Copyright (c) 2024 Idra; crates.io source): the
//! elliptic Kepler equation M = E − e sin E solved by Laguerre's method from Tommasini and
//! Olivieri's seed, and the hyperbolic one M = e sinh F − F by a piecewise Padé start, a
//! cubic solved by Halley's method and one Halley step (Wu et al.), copied from
//! `src/ellipse.rs` and `src/hyperbola.rs` whole but their tests, with
//! `#[fwdad::derive_frule]` on the free functions and on `impl EllipseSolver`, and
//! `fwdad::Differentiable` added to `EllipseSolver`'s derive list (its eccentricity is
//! differentiated). `impl HyperbolaSolver` stays plain: its constructor maps a
//! `lazy_static!` table, `PADE_ECCENTRIC_ANOMALY_THRESHOLDS.map(..)`, whose array type the
//! macro cannot see (docs/limits.md); its private free functions (the Padé coefficients,
//! the cubic's Halley solve) compile annotated, and the plain solver calls them. `src/lib.rs`'s test-only `bisection` is left out.
//!
//! The derivatives are checked against the implicit function theorem on the equations
//! (∂E/∂M = 1/(1 − e cos E), ∂E/∂e = sin E/(1 − e cos E)) evaluated at the published
//! crate's roots and central differences, in one direction, in batches and at second
//! order; primals bit for bit against the published crate.

#![allow(clippy::excessive_precision, clippy::needless_range_loop)]

mod common;

/// `src/ellipse.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code)]
pub mod ellipse {
use std::f64::consts::PI;

use serde::{Deserialize, Serialize};

const DELTA_THRESHOLD: f64 = 1.0e-10;

#[fwdad::derive_frule]
fn laguerre_delta(f: f64, f_prime: f64, f_prime_prime: f64) -> f64 {
    let n: f64 = 2.0; // N=2, modified Newton-Raphson
    let a = (n-1.0).powi(2) * f_prime.powi(2) - n*(n-1.0)*f*f_prime_prime;
    let mut b = f64::sqrt(a.abs());
    b = b.abs() * f_prime.signum(); // prevent catastrophic cancellation
    - (n*f) / (f_prime + b)
}

/// ## Example
/// ```rs
/// use std::f64::consts::PI;
/// use rust_kepler_solver::ellipse::EllipseSolver;
/// 
/// fn example_ellipse() {
///     let eccentricity = 1.0;
///     let solver = EllipseSolver::new(eccentricity);
///     println!("{}", solver.solve(1.2));
///     println!("{}", solver.solve(PI / 4.0));
/// }
/// ```
#[derive(Debug, Clone, Serialize, Deserialize, fwdad::Differentiable)]
pub struct EllipseSolver {
    eccentricity: f64
}

#[fwdad::derive_frule]
impl EllipseSolver {
    pub fn new(eccentricity: f64) -> Self {
        Self { eccentricity }
    }

    /// Works for 0 < `mean_anomaly` < 2pi
    pub fn solve(&self, mean_anomaly: f64) -> f64 {
        // Choosing an initial seed: https://www.aanda.org/articles/aa/full_html/2022/02/aa41423-21/aa41423-21.html#S5
        // Yes, they're actually serious about that 0.999999 thing (lmao)
        let mut eccentric_anomaly = mean_anomaly
            + (0.999_999 * 4.0 * self.eccentricity * mean_anomaly * (PI - mean_anomaly))
            / (8.0 * self.eccentricity * mean_anomaly + 4.0 * self.eccentricity * (self.eccentricity - PI) + PI.powi(2));

        // Iteration using laguerre method
        // According to this 1985 paper laguerre should practially always converge (they tested it 500,000 times on different values)
        // https://link.springer.com/content/pdf/10.1007/bf01230852.pdf
        loop {
            let sin_eccentric_anomaly = eccentric_anomaly.sin();
            let cos_eccentric_anomaly = eccentric_anomaly.cos();
            let f = mean_anomaly - eccentric_anomaly + self.eccentricity*sin_eccentric_anomaly;
            let f_prime = -1.0 + self.eccentricity*cos_eccentric_anomaly;
            let f_prime_prime = -self.eccentricity*sin_eccentric_anomaly;
            let delta = laguerre_delta(f, f_prime, f_prime_prime);
            if delta.abs() < DELTA_THRESHOLD {
                break;
            }
            eccentric_anomaly += delta;
        }
        eccentric_anomaly
    }
}

}

/// `src/hyperbola.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code)]
pub mod hyperbola {
use lazy_static::lazy_static;
use serde::{Deserialize, Serialize};

const CUBIC_DELTA_THRESHOLD: f64 = 1.0e-6;

lazy_static! {
    // From eq. 4 in the B. Wu et all paper
    // Max value in each interval
    static ref PADE_ECCENTRIC_ANOMALY_THRESHOLDS: [f64; 15] = [
        40.0 / 8.0,
        38.0 / 8.0,
        34.0 / 8.0,
        30.0 / 8.0,
        26.0 / 8.0,
        22.0 / 8.0,
        18.0 / 8.0,
        15.0 / 8.0,
        13.0 / 8.0,
        11.0 / 8.0,
        9.0  / 8.0,
        7.0  / 8.0,
        5.0  / 8.0,
        3.0  / 8.0,
        29.0 / 200.0];

    static ref PADE_ORDERS: [f64; 15] = [
        10.0 / 2.0,
        9.0 / 2.0,
        8.0 / 2.0,
        7.0 / 2.0,
        6.0 / 2.0,
        5.0 / 2.0,
        8.0 / 4.0,
        7.0 / 4.0,
        6.0 / 4.0,
        5.0 / 4.0,
        4.0 / 4.0,
        3.0 / 4.0,
        2.0 / 4.0,
        1.0 / 4.0,
        0.0 / 4.0];
}

#[fwdad::derive_frule]
fn hyperbolic_kepler_equation(eccentricity: f64, eccentric_anomaly: f64) -> f64 {
    eccentricity * f64::sinh(eccentric_anomaly) - eccentric_anomaly
}

#[fwdad::derive_frule]
fn pade_approximation(ec: f64, mh: f64, a: f64) -> [f64; 4] {
    let ex = f64::exp(a);
    let enx = f64::exp(-a);
    let sa = (ex-enx) / 2.0; // sinh(a)
    let ca = (ex+enx) / 2.0; // cosh(a)
    let d1 = ca.powi(2) + 3.0;
    let d2 = sa.powi(2) + 4.0;
    let p1 = ca * (3.0 * ca.powi(2) + 17.0) / (5.0 * d1);
    let p2 = sa * (3.0 * sa.powi(2) + 28.0) / (20.0 * d2);
    let p3 = ca * (ca.powi(2) + 27.0) / (60.0 * d1);
    let q1 = -2.0 * ca * sa / (5.0 * d1);
    let q2 = (sa.powi(2) - 4.0) / (20.0 * d2);
    let coefficient_f3 = ec * p3 - q2;
    let coefficient_f2 = ec * p2 - (mh + a) * q2 - q1;
    let coefficient_f1 = ec * p1 - (mh + a) * q1 - 1.0;
    let coefficient_f0 = ec * sa - mh - a;
    [coefficient_f3,coefficient_f2, coefficient_f1, coefficient_f0]
}

#[fwdad::derive_frule]
fn solve_cubic(coefficients: [f64; 4], mh: f64, ec: f64) -> f64 {
    let mut x = mh / (ec - 1.0); // starting value from series expansion of HKE
    loop {
        // halley's method
        let f = ((coefficients[0]*x + coefficients[1])*x + coefficients[2])*x + coefficients[3];
        let f_prime = (3.0*coefficients[0]*x + 2.0*coefficients[1])*x + coefficients[2];
        let f_prime_prime = 6.0*coefficients[0]*x + 2.0*coefficients[1];
        let delta = -2.0*f*f_prime / (2.0*f_prime.powi(2) - f*f_prime_prime);
        if delta.abs() < CUBIC_DELTA_THRESHOLD {
            break;
        }
        x += delta;
    }
    x
}

/// ## Example
/// ```rs
/// use rust_kepler_solver::hyperbola::HyperbolaSolver;
///
/// fn example_hyperbola() {
///     let eccentricity = 1.0;
///     let solver = HyperbolaSolver::new(eccentricity);
///     println!("{}", solver.solve(1.2));
///     println!("{}", solver.solve(100.0));
/// }
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HyperbolaSolver {
    eccentricity: f64,
    pade_mean_anomaly_thresholds: [f64; 15],
}

// Not `#[fwdad::derive_frule]`: `new` maps the `lazy_static!` table
// (`PADE_ECCENTRIC_ANOMALY_THRESHOLDS.map(|eccentric_anomaly| ..)`), whose type the macro
// cannot see: it reads `.map` as `Option::map` (docs/limits.md).
impl HyperbolaSolver {
    pub fn new(eccentricity: f64) -> Self {
        let pade_mean_anomaly_thresholds = PADE_ECCENTRIC_ANOMALY_THRESHOLDS.map(|eccentric_anomaly| hyperbolic_kepler_equation(eccentricity, eccentric_anomaly));
        Self { eccentricity, pade_mean_anomaly_thresholds }
    }

    /// Works with all values of mean anomaly 0 to infinity
    pub fn solve(&self, mean_anomaly: f64) -> f64 {
        // Solver assumes mean anomaly > 0
        // The equation is symmetric, so for mean anomaly < 0, we just flip the sign o the output
        let ec = self.eccentricity;
        let mh = mean_anomaly.abs();

        let f0 = if mh <= self.pade_mean_anomaly_thresholds[0] {
            // For mh < 5 we use a 'piecewise pade approximation' to get the starting estimate
            let mut i = 0;
            while i < self.pade_mean_anomaly_thresholds.len()-1 && mh < self.pade_mean_anomaly_thresholds[i+1] {
                i += 1;
            }
            let a = PADE_ORDERS[i];
            let coefficients = pade_approximation(ec, mh, a);

            solve_cubic(coefficients, mh, ec) + a

        } else {
            // For mh >= 5, we can use this... thing that I copied from the above paper
            // I have no idea how it works, but it works very very very well
            let fa = f64::ln(2.0 * mh / ec);
            let ca = 0.5 * (2.0 * mh / ec + ec / (2.0 * mh));
            let sa = 0.5 * (2.0 * mh / ec - ec / (2.0 * mh));
            let top = 6.0 * (ec.powi(2) / (4.0 * mh) + fa) / (ec * ca - 1.0) 
                + 3.0 * (ec * sa / (ec * ca - 1.0)) * ((ec.powi(2) / (4.0 * mh) + fa) / (ec * ca - 1.0)).powi(2);
            let bottom = 6.0 + 6.0 * (ec * sa / (ec * ca - 1.0)) * ((ec.powi(2) / (4.0 * mh) + fa) / (ec * ca - 1.0))
                + (ec * ca / (ec * ca - 1.0)) * ((ec.powi(2) / (4.0 * mh) + fa) / (ec * ca - 1.0)).powi(2);
            let delta = top / bottom;
            fa + delta
        };

        // Halley method
        let f = ec * f0.sinh() - f0 - mh;
        let f_prime = ec * f0.cosh() - 1.0;
        let f_prime_prime = f_prime + 1.0;
        let f1 = f0 - (2.0 * f / f_prime) / (2.0 - f * f_prime_prime / f_prime.powi(2));

        f1 * mean_anomaly.signum()
    }
}

}

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;
use ellipse::EllipseSolver;
use fwdad::prelude::*;

/// The eccentric anomaly of an orbit of eccentricity `e` at mean anomaly `m`, as a caller
/// of the crate writes it: a solver built for the orbit, then solved.
#[fwdad::derive_frule]
fn eccentric_anomaly(e: f64, m: f64) -> f64 {
    let solver = EllipseSolver::new(e);
    solver.solve(m)
}

/// The orbit's radius at mean anomaly `m`, r = a (1 − e cos E).
#[fwdad::derive_frule]
fn radius(a: f64, e: f64, m: f64) -> f64 {
    let big_e = EllipseSolver::new(e).solve(m);
    a * (1.0 - e * big_e.cos())
}

fn published_ellipse(e: f64, m: f64) -> f64 {
    rust_kepler_solver::ellipse::EllipseSolver::new(e).solve(m)
}

#[test]
fn elliptic_against_the_implicit_function_theorem() {
    for e in [0.01, 0.2, 0.5, 0.8, 0.97] {
        for m in [0.05, 0.7, 1.5, 3.0, 4.4, 6.1] {
            let (v, g) = gradient(bind(eccentric_anomaly {}, (Var(0), Var(1))), &[e, m]);
            assert_eq!(
                v.to_bits(),
                published_ellipse(e, m).to_bits(),
                "E({e}, {m})"
            );
            let denom = 1.0 - e * v.cos();
            // The iteration stops below a step of 1e-10: its tangent, like its value, is
            // the root's to about that.
            assert_close(g[0], v.sin() / denom, 1e-8, &format!("∂E/∂e at ({e}, {m})"));
            assert_close(g[1], 1.0 / denom, 1e-8, &format!("∂E/∂M at ({e}, {m})"));
        }
    }
}

#[test]
fn every_mode() {
    for (e, m) in [(0.3, 1.2), (0.75, 4.0)] {
        check_widths!(
            bind(eccentric_anomaly {}, (Var(0), Var(1))),
            |p: &[f64]| eccentric_anomaly(p[0], p[1]),
            [e, m]
        );
        check_widths!(
            bind(radius {}, (Var(0), Var(1), Var(2))),
            |p: &[f64]| radius(p[0], p[1], p[2]),
            [7000.0, e, m]
        );
    }
}

/// d²E/dM² = −e sin E/(1 − e cos E)³ from differentiating 1/(1 − e cos E).
#[test]
fn second_derivative_in_the_mean_anomaly() {
    for (e, m) in [(0.1, 0.4), (0.6, 2.0), (0.9, 5.5)] {
        let (v, d1, d2) =
            fwdad::drivers::second_derivative(bind(eccentric_anomaly {}, (e, Var(0))), m);
        let denom = 1.0 - e * v.cos();
        assert_close(d1, 1.0 / denom, 1e-8, "E'");
        assert_close(d2, -e * v.sin() / denom.powi(3), 1e-7, "E''");
    }
}
