//! Constructs the verbatim corpus (`tests/*_verbatim.rs`) found, each in a small program
//! written the way those crates write it, against closed forms, primals bit for bit:
//! `Option::as_mut` / `as_ref` passing optional state on (sgp4's
//! `self.initial_state().as_mut()`), num_traits' `Euclid::rem_euclid(&x, &m)` by path
//! (sgp4 without `std`), calls with more than twelve arguments (sgp4's
//! `near_earth::constants` takes twenty), a plain enum matched in place through a field or
//! a reference (astro's `match date.cal_type`, `match *node`), and a lifetime only the
//! result names (astro's `fn date_frm_julian_day<'a>(..) -> Result<.., &'a str>`).

use fwdad::prelude::*;
use num_traits::Euclid;

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Integrator {
    t: f64,
    n: f64,
}

#[derive_frule]
fn initial_state(n0: f64, resonant: bool) -> Option<Integrator> {
    if resonant {
        Some(Integrator { t: 0.0, n: n0 })
    } else {
        None
    }
}

/// Advances the optional integrator and returns the rate.
#[derive_frule]
fn rate(state: Option<&mut Integrator>, n0: f64, dt: f64) -> f64 {
    match state {
        Some(s) => {
            s.t += dt;
            s.n += n0 * n0 * dt;
            s.n
        }
        None => n0,
    }
}

#[derive_frule]
fn propagate(n0: f64, resonant: bool) -> f64 {
    rate(initial_state(n0, resonant).as_mut(), n0, 2.0)
}

#[derive_frule]
fn scaled(o: Option<f64>, k: f64) -> f64 {
    match o.as_ref() {
        Some(v) => v * k,
        None => k,
    }
}

#[derive_frule]
fn scaled_at(k: f64, some: bool) -> f64 {
    let o = if some { Some(1.5 * k) } else { None };
    scaled(o, k)
}

#[derive_frule]
fn angle(theta: f64) -> f64 {
    Euclid::rem_euclid(&theta, &(2.0 * core::f64::consts::PI)) * theta
}

#[allow(clippy::too_many_arguments)]
#[derive_frule]
fn weighted(
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    a10: f64,
    a11: f64,
    a12: f64,
    a13: f64,
    a14: f64,
    a15: f64,
) -> f64 {
    a0 + 2.0 * a1
        + 3.0 * a2
        + 4.0 * a3
        + 5.0 * a4
        + 6.0 * a5
        + 7.0 * a6
        + 8.0 * a7
        + 9.0 * a8
        + 10.0 * a9
        + 11.0 * a10
        + 12.0 * a11
        + 13.0 * a12
        + 14.0 * a13
        + 15.0 * a14
        + 16.0 * a15 * a15
}

#[derive_frule]
fn sixteen(x: f64) -> f64 {
    weighted(x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x)
}

#[test]
fn option_as_mut_passes_the_state_on() {
    let n0 = 0.75;
    // n0 + 2 n0²: d/dn0 = 1 + 4 n0.
    let (v, d) = derivative(bind(propagate {}, (Var(0), true)), n0);
    assert_eq!(v.to_bits(), propagate(n0, true).to_bits());
    assert!((d - (1.0 + 4.0 * n0)).abs() < 1e-12);
    let (v, d) = derivative(bind(propagate {}, (Var(0), false)), n0);
    assert_eq!(v.to_bits(), propagate(n0, false).to_bits());
    assert_eq!(d, 1.0);
}

#[test]
fn option_as_ref() {
    // 1.5 k², or k.
    let (v, d) = derivative(bind(scaled_at {}, (Var(0), true)), 2.0);
    assert_eq!(v.to_bits(), scaled_at(2.0, true).to_bits());
    assert!((d - 6.0).abs() < 1e-12);
    let (_, d) = derivative(bind(scaled_at {}, (Var(0), false)), 2.0);
    assert_eq!(d, 1.0);
}

#[test]
fn euclid_rem_euclid_by_path() {
    for theta in [-1.0, 0.5, 7.0] {
        let (v, d) = derivative(angle {}, theta);
        assert_eq!(v.to_bits(), angle(theta).to_bits());
        // (θ mod 2π) θ: d/dθ = (θ mod 2π) + θ away from the jumps.
        let m = theta.rem_euclid(2.0 * core::f64::consts::PI);
        assert!((d - (m + theta)).abs() < 1e-12, "{d}");
    }
}

#[test]
fn sixteen_arguments() {
    let x = 0.3;
    let (v, d) = derivative(sixteen {}, x);
    assert_eq!(v.to_bits(), sixteen(x).to_bits());
    // Σ k for k = 1..15, plus 32 x.
    assert!((d - (120.0 + 32.0 * x)).abs() < 1e-12);
}

/// A plain enum (neither `Copy` nor `Clone`) matched in place, as astro writes it.
#[derive(fwdad::Differentiable)]
pub enum Calendar {
    Gregorian,
    Julian,
}

#[derive(fwdad::Differentiable)]
pub struct Day {
    pub day: f64,
    pub cal: Calendar,
}

#[derive_frule]
fn shift(d: &Day, node: &Calendar) -> f64 {
    let a = match d.cal {
        Calendar::Gregorian => 2.0 * d.day,
        Calendar::Julian => d.day,
    };
    match *node {
        Calendar::Gregorian => a * a,
        Calendar::Julian => a,
    }
}

/// An error string whose lifetime no parameter names (astro's `date_frm_julian_day<'a>`).
#[derive_frule]
fn checked_sqrt<'a>(x: f64) -> Result<f64, &'a str> {
    if x < 0.0 {
        return Err("negative");
    }
    Ok(x.sqrt())
}

#[derive_frule]
fn root_or_zero(x: f64) -> f64 {
    checked_sqrt(x).unwrap_or(0.0)
}

#[derive_frule]
fn shift_at(x: f64, greg: bool, node_greg: bool) -> f64 {
    let cal = if greg {
        Calendar::Gregorian
    } else {
        Calendar::Julian
    };
    let node = if node_greg {
        Calendar::Gregorian
    } else {
        Calendar::Julian
    };
    shift(&Day { day: x, cal }, &node)
}

#[test]
fn plain_enums_matched_in_place() {
    // (2x)², x², 2x: derivatives 8x, 2x, 2.
    for (greg, node_greg, want) in [
        (true, true, 8.0 * 1.5),
        (false, true, 2.0 * 1.5),
        (true, false, 2.0),
    ] {
        let (v, d) = derivative(bind(shift_at {}, (Var(0), greg, node_greg)), 1.5);
        assert_eq!(v.to_bits(), shift_at(1.5, greg, node_greg).to_bits());
        assert_eq!(d, want);
    }
}

#[test]
fn lifetime_only_in_the_result() {
    let (v, d) = derivative(root_or_zero {}, 4.0);
    assert_eq!(v.to_bits(), root_or_zero(4.0).to_bits());
    assert_eq!(d, 0.25);
    let (_, d) = derivative(root_or_zero {}, -1.0);
    assert_eq!(d, 0.0);
}
