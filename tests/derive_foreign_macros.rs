//! Macros of other crates and of the user's in derived bodies (approx's `ulps_eq!`,
//! a logging macro): run on the primal values, their value carrying no derivative.

use approx::{abs_diff_eq, relative_eq, ulps_eq};
use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;
use std::cell::Cell;

thread_local! {
    static LOGGED: Cell<usize> = const { Cell::new(0) };
}

/// A logging macro as applications define them: formats its arguments, captured inline
/// too, and counts the lines.
macro_rules! trace {
    ($($arg:tt)*) => {{
        let line = format!($($arg)*);
        LOGGED.with(|n| n.set(n.get() + line.len().min(1)));
    }};
}

/// The regularised lower incomplete gamma function's series, with statrs' early exits
/// written with approx's macros.
#[derive_frule]
fn gamma_lr_series(a: f64, x: f64) -> f64 {
    if ulps_eq!(x, 0.0, epsilon = 0.0) {
        return 0.0;
    }
    let mut term = 1.0 / a;
    let mut sum = term;
    let mut n = 1.0;
    while !abs_diff_eq!(term, 0.0, epsilon = 1e-17 * sum) && n < 500.0 {
        term *= x / (a + n);
        sum += term;
        n += 1.0;
    }
    trace!("series for a = {a}, x = {}: {n} terms", x);
    let log_prefix = a * x.ln() - x - ln_gamma_stirling(a);
    if relative_eq!(sum, 0.0) {
        0.0
    } else {
        sum * log_prefix.exp()
    }
}

/// ln Γ by Stirling's series (enough terms for a > 5 to 1e-15; shifted for smaller a).
#[derive_frule]
fn ln_gamma_stirling(a: f64) -> f64 {
    let mut shift = 0.0;
    let mut z = a;
    while z < 10.0 {
        shift -= z.ln();
        z += 1.0;
    }
    let z2 = z * z;
    shift + (z - 0.5) * z.ln() - z + 0.5 * (2.0 * std::f64::consts::PI).ln() + 1.0 / (12.0 * z)
        - 1.0 / (360.0 * z * z2)
        + 1.0 / (1260.0 * z2 * z2 * z)
}

#[test]
fn approx_macros_and_a_logging_macro_run_on_primal_values() {
    // Not at integer `a`, where `ln_gamma_stirling`'s shift count changes (central
    // differences would straddle the branch).
    for (a, x) in [(2.5, 1.2), (0.7, 0.3), (4.3, 3.5)] {
        LOGGED.with(|n| n.set(0));
        let (p, g) = gradient(bind(gamma_lr_series {}, (Var(0), Var(1))), &[a, x]);
        assert_eq!(p, gamma_lr_series(a, x));
        // d/dx P(a, x) = x^(a-1) e^(-x) / Γ(a), independent of the series.
        let want = ((a - 1.0) * x.ln() - x - ln_gamma_stirling(a)).exp();
        assert!(
            (g[1] - want).abs() < 1e-10 * want,
            "({a}, {x}): {} vs {want}",
            g[1]
        );
        // d/da against central differences.
        let h = 1e-6;
        let fd = (gamma_lr_series(a + h, x) - gamma_lr_series(a - h, x)) / (2.0 * h);
        assert!((g[0] - fd).abs() < 1e-7, "({a}, {x}): {} vs {fd}", g[0]);
        // The plain call and the rule each logged (the rule once per pass).
        assert!(LOGGED.with(Cell::get) >= 2);
    }
    // The early exit at x = 0.
    let (p, g) = gradient(bind(gamma_lr_series {}, (Var(0), Var(1))), &[1.5, 0.0]);
    assert_eq!((p, g), (0.0, [0.0, 0.0]));
}

/// Constants spelled as macros, as Boost-derived code (ellip) writes them: they name no
/// local, so their float values are constants.
macro_rules! pi_2 {
    () => {
        T::from(std::f64::consts::FRAC_PI_2).unwrap()
    };
}
macro_rules! eps {
    () => {
        f64::EPSILON
    };
}

/// The Cauchy principal-value branch of Carlson's R_C for y < 0 is not needed here: R_C(x, y)
/// for 0 < y < x, ln((√x + √(x−y))/√y)/√(x−y), with a near-equal guard spelled by macros.
#[derive_frule]
fn carlson_rc<T: num_traits::Float>(x: T, y: T) -> T {
    if (x - y).abs() < T::from(1e-12).unwrap() {
        return T::one() / x.sqrt();
    }
    if y > x {
        return ((y - x) / x).sqrt().atan() / (y - x).sqrt() * (pi_2!() / pi_2!());
    }
    ((x.sqrt() + (x - y).sqrt()) / y.sqrt()).ln() / (x - y).sqrt()
}

#[derive_frule]
fn relative_step(x: f64) -> f64 {
    x * (1.0 + eps!()).sqrt() - eps!()
}

#[test]
fn macros_naming_no_local_give_float_constants() {
    // R_C(x, y) = ∫₀^∞ ½ (t+x)^(−½) (t+y)^(−1) dt; ∂R_C/∂x against central differences of
    // the plain function, both branches.
    for (x, y) in [(2.0f64, 0.5f64), (0.5, 2.0)] {
        let (v, g) = gradient(bind(carlson_rc {}, (Var(0), Var(1))), &[x, y]);
        assert_eq!(v.to_bits(), carlson_rc(x, y).to_bits());
        for (i, gi) in g.iter().enumerate() {
            let h = 1e-6;
            let (mut a, mut b) = ([x, y], [x, y]);
            a[i] += h;
            b[i] -= h;
            let fd = (carlson_rc(a[0], a[1]) - carlson_rc(b[0], b[1])) / (2.0 * h);
            assert!(
                (gi - fd).abs() < 1e-7,
                "R_C d{i} at ({x}, {y}): {gi} vs {fd}"
            );
        }
    }
    let (v, d) = derivative(relative_step {}, 3.0);
    assert_eq!(v.to_bits(), relative_step(3.0).to_bits());
    assert_eq!(d, (1.0 + f64::EPSILON).sqrt());
}
