//! Fallible physics helpers returning `Result<f64, FallError>`, chained the way Rust code
//! chains them: `map`, `and_then`, `map_err`, `map_or`, `map_or_else`, `unwrap_or_else`,
//! `or_else`, `is_ok_and`, `?`, and `ok_or`/`ok_or_else` from an `Option`, on a helper's
//! result, on an untyped local bound from one, on a typed local and on a parameter.
//! Closures capture differentiated values and call derived functions. Each function is
//! differentiated unmodified and checked against central finite differences of the plain
//! function in one direction (`jvp`), batched (`gradient_with::<4>`) and at second order
//! (`hessian_with::<2>`), primals bit for bit, and against derivatives written out from the
//! physics (v = √(2gh), E = mgh, ...).
// Written as users write them (`unwrap_or_else(|_| 0.0)`, `map_or(0.0, ..)`).
#![allow(clippy::unnecessary_lazy_evaluations, clippy::unnecessary_map_or)]

use fwdad::drivers::{bind, derivative, gradient_with, hessian_with, Wrt};
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

/// Why a fall cannot be computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FallError {
    /// A drop from below the ground.
    BelowGround,
    /// Gravity that does not pull down.
    NoGravity,
    /// Brakes that cannot stop anything.
    NoBrakes,
    /// A height the projectile never reaches.
    NeverReached,
}

/// An error of a model built on the fall (`map_err` converts into it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelError {
    Fall(FallError),
    Unstable,
}

impl From<FallError> for ModelError {
    fn from(e: FallError) -> Self {
        ModelError::Fall(e)
    }
}

/// Time to fall a height `h` from rest: √(2h/g).
#[derive_frule]
pub fn fall_time(h: f64, g: f64) -> Result<f64, FallError> {
    if h < 0.0 {
        return Err(FallError::BelowGround);
    }
    if g <= 0.0 {
        return Err(FallError::NoGravity);
    }
    Ok((2.0 * h / g).sqrt())
}

/// Distance to stop a kinetic energy `e` with a braking force `f`.
#[derive_frule]
pub fn braking_distance(e: f64, f: f64) -> Result<f64, FallError> {
    if f <= 0.0 {
        Err(FallError::NoBrakes)
    } else {
        Ok(e / f)
    }
}

/// Speed at impact, `g t`: `map` on the helper's result, the closure capturing `g`.
#[derive_frule]
pub fn impact_speed(h: f64, g: f64) -> Result<f64, FallError> {
    fall_time(h, g).map(|t| g * t)
}

/// Kinetic energy at impact, through `?`.
#[derive_frule]
pub fn impact_energy(m: f64, h: f64, g: f64) -> Result<f64, FallError> {
    let v = impact_speed(h, g)?;
    Ok(0.5 * m * v * v)
}

/// How far the brakes take to stop the body: `and_then` calling a derived function in the
/// closure, then `map_err` into the model's error.
#[derive_frule]
pub fn stopping_distance(m: f64, h: f64, g: f64, brake: f64) -> Result<f64, ModelError> {
    impact_energy(m, h, g)
        .and_then(|e| braking_distance(e, brake))
        .map_err(ModelError::from)
}

/// A drop from a tower of height `h` onto a ledge `d` lower, with a spring `k` absorbing
/// the rest: `?` after `map_err`, an untyped local bound from a helper, `map_or`,
/// `map_or_else` taking the error, and `is_ok_and`.
#[derive_frule]
pub fn ledge_score(h: f64, d: f64, g: f64, k: f64) -> Result<f64, ModelError> {
    let to_ledge = fall_time(h - d, g).map_err(ModelError::Fall)?;
    let full = fall_time(h, g);
    let rest = full.map_or(0.0, |t| t - to_ledge);
    let compress = impact_energy(1.0, d, g).map_or_else(|_e| 0.0, |e| (2.0 * e / k).sqrt());
    let safe = full.is_ok_and(|t| t * g < 30.0);
    if !safe {
        return Err(ModelError::Unstable);
    }
    Ok(rest + compress)
}

/// Two falls, the second from twice as high: `?` and `return` inside the closures of
/// `and_then` and `map`, leaving the closure (not the function), the error converted by
/// `From` as `?` converts it.
#[derive_frule]
pub fn two_falls(h: f64, g: f64) -> Result<f64, ModelError> {
    let total = fall_time(h, g).map_err(ModelError::from).and_then(|t| {
        let u = fall_time(2.0 * h, g)?;
        if u > 100.0 {
            return Err(ModelError::Unstable);
        }
        Ok(t + u)
    });
    let doubled = fall_time(h, g).map(|t| {
        if t > 10.0 {
            return 0.0;
        }
        2.0 * t
    });
    Ok(total? + doubled.unwrap_or(0.0))
}

/// What a failed fall is scored as (a default given by name; a plain function: it sees
/// no differentiated value).
pub fn score_of_error(e: FallError) -> f64 {
    match e {
        FallError::NoGravity => 100.0,
        _ => 10.0,
    }
}

/// A default time when no fall was computed (a default of an `Option` given by name).
pub fn no_time() -> f64 {
    -1.0
}

/// Defaults given by name, and a default closure bound with `let`.
#[derive_frule]
pub fn scored(h: f64, g: f64) -> f64 {
    let t = fall_time(h, g).unwrap_or_else(score_of_error);
    let s = fall_time(h, g).map_or_else(score_of_error, |t| g * t);
    let o = first_pass(h, 0.0, 1.0, g).map_or_else(no_time, |t| t * t);
    let fallback = |e: FallError| if e == FallError::BelowGround { h } else { 0.0 };
    t + s + o + fall_time(-h, g).unwrap_or_else(fallback)
}

/// The plain score of a drop that may fail: `unwrap_or_else` with the error's closure, and
/// `or_else` falling back to a second helper.
#[derive_frule]
pub fn drop_cost(p: &[f64]) -> f64 {
    let (m, h, g, brake) = (p[0], p[1], p[2], p[3]);
    let stop = stopping_distance(m, h, g, brake).unwrap_or_else(|_| h);
    // Below ground: the fall is taken from the mirrored height instead.
    let t = fall_time(-h, g)
        .or_else(|_| fall_time(h, g))
        .unwrap_or_else(|e| if e == FallError::NoGravity { 0.0 } else { 1.0 });
    let e = impact_energy(m, h, g).unwrap_or(0.0);
    stop * t + e.sqrt()
}

/// The first time a projectile thrown up at `v` from `h` is at height `y`, if ever.
#[derive_frule]
pub fn first_pass(v: f64, h: f64, y: f64, g: f64) -> Option<f64> {
    let disc = v * v - 2.0 * g * (y - h);
    if disc < 0.0 {
        None
    } else {
        Some((v - disc.sqrt()) / g)
    }
}

/// `ok_or`/`ok_or_else` from an `Option` helper into a `Result`, then `?`.
#[derive_frule]
pub fn pass_then_fall(v: f64, h: f64, y: f64, g: f64) -> Result<f64, FallError> {
    let t1 = first_pass(v, h, y, g).ok_or(FallError::NeverReached)?;
    let t2 = first_pass(v, h, 0.5 * y, g).ok_or_else(|| FallError::NeverReached)?;
    let back = fall_time(y, g)?;
    Ok(t1 + t2 + back)
}

/// A measurement that may have failed, passed in as a typed parameter, and a typed local.
#[derive_frule]
pub fn calibrated(reading: Result<f64, FallError>, gain: f64) -> f64 {
    let fallback: Result<f64, FallError> = if gain > 1.0 {
        Ok(gain)
    } else {
        Err(FallError::NoBrakes)
    };
    let r = reading.map(|v| gain * v.sin()).unwrap_or_else(|_| -gain);
    r + fallback.map_or(0.0, |f| f * f)
}

/// A drag model whose coefficient may be unknown (an `Option` field).
#[derive(Clone, Debug, Differentiable)]
pub struct Drag {
    pub coefficient: Option<f64>,
    pub area: f64,
}

/// Combinators on a field read through a reference, and on a typed `Option` local.
#[derive_frule]
pub fn drag_force(d: &Drag, v: f64) -> f64 {
    let quadratic = d.coefficient.map_or(0.0, |c| 0.5 * c * d.area * v * v);
    let linear: Option<f64> = if v > 1.0 { None } else { Some(v) };
    quadratic + linear.map(|u| 3.0 * u).unwrap_or_else(|| d.area)
}

// ---------------------------------------------------------------------------------------
// The plain functions as slices, for the drivers and finite differences

#[derive_frule]
fn stopping(p: &[f64]) -> f64 {
    stopping_distance(p[0], p[1], p[2], p[3]).unwrap()
}

#[derive_frule]
fn ledge(p: &[f64]) -> f64 {
    ledge_score(p[0], p[1], p[2], p[3]).expect("a stable drop")
}

#[derive_frule]
fn falls(p: &[f64]) -> f64 {
    two_falls(p[0], p[1]).unwrap_or(-1.0)
}

#[derive_frule]
fn pass(p: &[f64]) -> f64 {
    pass_then_fall(p[0], p[1], p[2], p[3]).unwrap_or(-1.0)
}

// ---------------------------------------------------------------------------------------
// Checks

#[test]
fn impact_speed_is_root_two_g_h() {
    // v = √(2gh): dv/dh = g/v, dv/dg = h/v; d²v/dh² = −g²/v³.
    let (h, g) = (5.0f64, 9.81f64);
    let v = (2.0 * g * h).sqrt();
    let (r, d) = derivative(bind(impact_speed {}, (Wrt, g)), h);
    assert_eq!(r, Ok(g * fall_time(h, g).unwrap()));
    assert_close(d.unwrap(), g / v, 1e-14, "dv/dh");
    let (_, d) = derivative(bind(impact_speed {}, (h, Wrt)), g);
    assert_close(d.unwrap(), h / v, 1e-14, "dv/dg");
    // The error passes through `map` with no tangent to carry.
    let (r, _) = derivative(bind(impact_speed {}, (Wrt, g)), -1.0);
    assert_eq!(r, Err(FallError::BelowGround));
}

#[test]
fn stopping_distance_is_m_g_h_over_the_braking_force() {
    // s = m g h / F, through `?`, `and_then` and `map_err`.
    let p = [2.0, 5.0, 9.81, 40.0];
    check_modes!(stopping {}, stopping, p);
    let (_, g) = gradient_with::<4>(stopping {}, &p);
    let (m, h, gr, f) = (p[0], p[1], p[2], p[3]);
    let want = [gr * h / f, m * gr / f, m * h / f, -m * gr * h / (f * f)];
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-13, &format!("ds/dp{k}"));
    }
    let (_, _, hess) = hessian_with::<2>(stopping {}, &p);
    // ∂²s/∂m∂h = g/F.
    assert_close(hess[(0, 1)], gr / f, 1e-12, "d2s/dm dh");
    // Both errors: the brakes' (through `and_then`) and the fall's (before it).
    assert_eq!(
        stopping_distance(2.0, 5.0, 9.81, 0.0),
        Err(ModelError::Fall(FallError::NoBrakes))
    );
    let bad = stopping_distance_frule(
        Dual::new(2.0, 1.0),
        Dual::new(5.0, 0.0),
        Dual::new(-9.81, 0.0),
        Dual::new(40.0, 0.0),
    );
    assert_eq!(bad.primal, Err(ModelError::Fall(FallError::NoGravity)));
}

#[test]
fn ledge_score_through_map_or_and_map_or_else() {
    check_modes!(ledge {}, ledge, [5.0, 1.5, 9.81, 200.0]);
    // Written out: √(2h/g) − √(2(h−d)/g) + √(2 g d / k) (the energy of a unit mass).
    let [h, d, g, k] = [5.0f64, 1.5, 9.81, 200.0];
    let (_, grad) = gradient_with::<4>(ledge {}, &[h, d, g, k]);
    let want_h = 1.0 / (2.0 * h * g).sqrt() - 1.0 / (2.0 * (h - d) * g).sqrt();
    let want_d = 1.0 / (2.0 * (h - d) * g).sqrt() + 0.5 * (2.0 * g / (d * k)).sqrt();
    let want_k = -0.5 * (2.0 * g * d).sqrt() * k.powf(-1.5);
    assert_close(grad[0], want_h, 1e-12, "d/dh");
    assert_close(grad[1], want_d, 1e-12, "d/dd");
    assert_close(grad[3], want_k, 1e-12, "d/dk");
    // Too fast at impact: `is_ok_and` says so, and the error is the model's.
    assert_eq!(
        ledge_score(500.0, 1.0, 9.81, 200.0),
        Err(ModelError::Unstable)
    );
    let r = ledge_score_frule(
        Dual::new(500.0, 1.0),
        Dual::new(1.0, 0.0),
        Dual::new(9.81, 0.0),
        Dual::new(200.0, 0.0),
    );
    assert_eq!(r.primal, Err(ModelError::Unstable));
    // Below the ledge's height: the error of the first `?`.
    let r = ledge_score_frule(
        Dual::new(1.0, 1.0),
        Dual::new(2.0, 0.0),
        Dual::new(9.81, 0.0),
        Dual::new(200.0, 0.0),
    );
    assert_eq!(r.primal, Err(ModelError::Fall(FallError::BelowGround)));
}

#[test]
fn drop_cost_through_unwrap_or_else_and_or_else() {
    // Every branch: a stop and a fall; no brakes (the height instead).
    check_modes!(drop_cost {}, drop_cost, [2.0, 5.0, 9.81, 40.0]);
    check_modes!(drop_cost {}, drop_cost, [2.0, 5.0, 9.81, -1.0]);
    // Written out for the first: (mgh/F)·√(2h/g) + √(mgh).
    let [m, h, g, f] = [2.0f64, 5.0, 9.81, 40.0];
    let (_, grad) = gradient_with::<4>(drop_cost {}, &[m, h, g, f]);
    let t = (2.0 * h / g).sqrt();
    let want_f = -m * g * h / (f * f) * t;
    let want_m = g * h / f * t + 0.5 * (g * h / m).sqrt();
    assert_close(grad[3], want_f, 1e-13, "d/dF");
    assert_close(grad[0], want_m, 1e-13, "d/dm");
    // No gravity: `or_else` fails too and `unwrap_or_else` reads the error.
    assert_eq!(drop_cost(&[2.0, 5.0, 0.0, 40.0]), 5.0 * 0.0 + 0.0);
}

#[test]
fn option_into_result_with_ok_or() {
    check_modes!(pass {}, pass, [12.0, 1.0, 4.0, 9.81]);
    // Never reaches y: `ok_or`'s error, then `unwrap_or`'s constant.
    let (v, g) = gradient_with::<4>(pass {}, &[1.0, 0.0, 40.0, 9.81]);
    assert_eq!((v, g), (-1.0, vec![0.0; 4]));
    assert_eq!(
        pass_then_fall(1.0, 0.0, 40.0, 9.81),
        Err(FallError::NeverReached)
    );
    // Thrown from a pit (h = −3) to y = −4 but not to y/2 = −2: `ok_or_else`'s error.
    assert!(first_pass(1.0, -3.0, -4.0, 9.81).is_some());
    let r = pass_then_fall_frule(
        Dual::new(1.0, 1.0),
        Dual::new(-3.0, 0.0),
        Dual::new(-4.0, 0.0),
        Dual::new(9.81, 0.0),
    );
    assert_eq!(r.primal, Err(FallError::NeverReached));
    // Written out: t = (v − √(v² − 2g(y − h)))/g at y and at y/2, plus √(2y/g).
    let [v0, h, y, g] = [12.0f64, 1.0, 4.0, 9.81];
    let (_, grad) = gradient_with::<4>(pass {}, &[v0, h, y, g]);
    let s1 = (v0 * v0 - 2.0 * g * (y - h)).sqrt();
    let s2 = (v0 * v0 - 2.0 * g * (0.5 * y - h)).sqrt();
    let want_v = (1.0 - v0 / s1) / g + (1.0 - v0 / s2) / g;
    let want_y = 1.0 / s1 + 0.5 / s2 + 1.0 / (2.0 * y * g).sqrt();
    assert_close(grad[2], want_y, 1e-12, "d/dy");
    assert_close(grad[0], want_v, 1e-12, "d/dv");
}

#[test]
fn typed_parameter_and_local() {
    // ∂/∂gain of gain·sin(v) + gain², and ∂/∂v = gain·cos(v) through the parameter's
    // tangent.
    let (v, gain) = (0.7f64, 1.5f64);
    let d = calibrated_frule(Dual::new(Ok(v), Ok(0.0)), Dual::new(gain, 1.0));
    assert_eq!(d.primal.to_bits(), calibrated(Ok(v), gain).to_bits());
    assert_close(d.tangent, v.sin() + 2.0 * gain, 1e-15, "d/dgain");
    let d = calibrated_frule(Dual::new(Ok(v), Ok(1.0)), Dual::new(gain, 0.0));
    assert_close(d.tangent, gain * v.cos(), 1e-15, "d/dv");
    // A failed reading: −gain (+ nothing from the fallback below 1).
    let d = calibrated_frule(
        Dual::new(Err(FallError::BelowGround), Err(NoTangent)),
        Dual::new(0.5, 1.0),
    );
    assert_eq!((d.primal, d.tangent), (-0.5, -1.0));
}

#[test]
fn option_field_and_typed_local() {
    // ½ c A v², and 3v below 1 (A above): in v, c A v + 3; in c, ½ A v².
    let d = Drag {
        coefficient: Some(0.47),
        area: 2.0,
    };
    let (f, dv) = derivative(bind(drag_force {}, (&d, Wrt)), 0.5);
    assert_eq!(f.to_bits(), drag_force(&d, 0.5).to_bits());
    assert_close(dv, 0.47 * 2.0 * 0.5 + 3.0, 1e-15, "d/dv below 1");
    let (_, dv) = derivative(bind(drag_force {}, (&d, Wrt)), 4.0);
    assert_close(dv, 0.47 * 2.0 * 4.0, 1e-15, "d/dv above 1");
    let dd = DragTangent {
        coefficient: Some(1.0),
        area: 0.0,
    };
    let r = drag_force_frule(Dual::new(&d, &dd), Dual::new(4.0, 0.0));
    assert_close(r.tangent, 0.5 * 2.0 * 16.0, 1e-15, "d/dc");
    // No coefficient: only the linear part, whose area tangent comes through `unwrap_or_else`.
    let d = Drag {
        coefficient: None,
        area: 2.0,
    };
    let dd = DragTangent {
        coefficient: None,
        area: 1.0,
    };
    let r = drag_force_frule(Dual::new(&d, &dd), Dual::new(4.0, 0.0));
    assert_eq!((r.primal, r.tangent), (2.0, 1.0));
}

#[test]
fn question_mark_and_return_inside_the_closures() {
    check_modes!(falls {}, falls, [5.0, 9.81]);
    // Written out: √(2h/g) + √(4h/g) + 2√(2h/g).
    let (h, g) = (5.0f64, 9.81f64);
    let (_, grad) = gradient_with::<4>(falls {}, &[h, g]);
    let want_h = (3.0 / (2.0 * h * g).sqrt()) + 1.0 / (h * g).sqrt();
    assert_close(grad[0], want_h, 1e-13, "d/dh");
    // The closure's `return` leaves the closure: the fall of 600 m takes 11 s, so `map`
    // gives 0, and the `and_then` closure's `return Err(..)` is not taken.
    assert_eq!(
        two_falls(600.0, 9.81),
        Ok((1200.0f64 / 9.81).sqrt() + (2400.0f64 / 9.81).sqrt())
    );
    // `?` in the closure returns the closure's `Err`, converted by `From`.
    assert_eq!(
        two_falls(5.0, -1.0),
        Err(ModelError::Fall(FallError::NoGravity))
    );
    let r = two_falls_frule(Dual::new(5.0, 1.0), Dual::new(-1.0, 0.0));
    assert_eq!(r.primal, Err(ModelError::Fall(FallError::NoGravity)));
    let r = two_falls_frule(Dual::new(1e5, 1.0), Dual::new(9.81, 0.0));
    assert_eq!(r.primal, Err(ModelError::Unstable));
}

#[test]
fn defaults_by_name_and_let_bound() {
    // √(2h/g) + g√(2h/g) + ((h − √(h² − 2g))/g)² + h, all differentiable in h.
    let (h, g) = (5.0f64, 9.81f64);
    let (v, d) = derivative(bind(scored {}, (Wrt, g)), h);
    assert_eq!(v.to_bits(), scored(h, g).to_bits());
    let f = |h: f64| scored(h, g);
    let fd = (f(h + 1e-6) - f(h - 1e-6)) / 2e-6;
    assert_close(d, fd, 1e-6, "d/dh");
    let s = (h * h - 2.0 * g).sqrt();
    let t1 = (h - s) / g;
    let want =
        1.0 / (2.0 * h * g).sqrt() + g / (2.0 * h * g).sqrt() + 2.0 * t1 * (1.0 - h / s) / g + 1.0;
    assert_close(d, want, 1e-12, "d/dh written out");
    // Gravity upwards: the named default's constant (100) twice, the pass as above, and
    // the closure's h below ground.
    let g = -1.0;
    let (v, d) = derivative(bind(scored {}, (Wrt, g)), h);
    let s = (h * h - 2.0 * g).sqrt();
    let t1 = (h - s) / g;
    assert_eq!(v.to_bits(), (100.0 + 100.0 + t1 * t1 + h).to_bits());
    assert_close(d, 2.0 * t1 * (1.0 - h / s) / g + 1.0, 1e-12, "d/dh, g < 0");
    // Never passes y = 1 with g > 0 and too little speed: the `Option` default by name.
    let (v, d) = derivative(bind(scored {}, (Wrt, 9.81)), 0.5);
    let t = (2.0 * 0.5 / 9.81f64).sqrt();
    assert_eq!(v.to_bits(), (t + 9.81 * t - 1.0 + 0.5).to_bits());
    assert_close(
        d,
        (1.0 + 9.81) / (2.0 * 0.5 * 9.81f64).sqrt() + 1.0,
        1e-12,
        "d/dh, no pass",
    );
}
