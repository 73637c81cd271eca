//! "Messy" everyday code, annotated unmodified: error types with `Display` and `From`
//! and `?` through layers (one carrying the offending input), the US standard atmosphere
//! over a `const` table of layers, `match` on tuples of enums and signs, adaptive Simpson
//! integration over an explicit stack (`while let Some(..) = stack.pop()`), a grid search
//! left by a labelled `break` then refined by golden sections, an expression tree with
//! `Box`ed children evaluated recursively, a polynomial newtype with `Display`, and an
//! empirical quantile after `sort_by`. Each is checked against central differences in every
//! mode (`check_modes!`, primals bit for bit) and closed forms where there is one.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::drivers::{gradient_with, hessian_with, Const, Var};
use fwdad::prelude::*;
use std::fmt;

// ---------------------------------------------------------------------------------------
// Program 24: layered errors with `From`, `Display` and `?`.

#[derive(Debug, Clone, PartialEq)]
pub enum PropertyError {
    OutOfRange { temp_k: f64, min: f64, max: f64 },
}

#[derive(Debug, Clone, PartialEq)]
pub enum CycleError {
    Property(PropertyError),
    NegativeWork,
}

impl fmt::Display for PropertyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PropertyError::OutOfRange { temp_k, min, max } => {
                write!(f, "temperature {temp_k} K outside [{min}, {max}] K")
            }
        }
    }
}

impl fmt::Display for CycleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CycleError::Property(e) => write!(f, "property lookup failed: {e}"),
            CycleError::NegativeWork => f.write_str("the cycle produces no work"),
        }
    }
}

impl From<PropertyError> for CycleError {
    fn from(e: PropertyError) -> Self {
        CycleError::Property(e)
    }
}

/// Water's saturation pressure (kPa) by the Antoine equation, valid 274–373 K.
#[derive_frule]
pub fn saturation_pressure(temp_k: f64) -> Result<f64, PropertyError> {
    const A: f64 = 8.07131;
    const B: f64 = 1730.63;
    const C: f64 = 233.426;
    const RANGE: (f64, f64) = (274.0, 373.0);
    if !(RANGE.0..=RANGE.1).contains(&temp_k) {
        return Err(PropertyError::OutOfRange {
            temp_k,
            min: RANGE.0,
            max: RANGE.1,
        });
    }
    let t_c = temp_k - 273.15;
    let mmhg = 10f64.powf(A - B / (C + t_c));
    Ok(mmhg * 0.133322)
}

/// A toy Rankine-like figure of merit between two temperatures.
#[derive_frule]
pub fn cycle_merit(t_hot: f64, t_cold: f64) -> Result<f64, CycleError> {
    let p_hot = saturation_pressure(t_hot)?;
    let p_cold = saturation_pressure(t_cold)?;
    let work = (p_hot / p_cold).ln() * (t_hot - t_cold);
    if work <= 0.0 {
        return Err(CycleError::NegativeWork);
    }
    Ok(work / t_hot)
}

#[derive_frule]
pub fn merit_or_zero(t: &[f64]) -> f64 {
    match cycle_merit(t[0], t[1]) {
        Ok(m) => m,
        Err(CycleError::NegativeWork) => 0.0,
        Err(e) => panic!("{e}"),
    }
}

// ---------------------------------------------------------------------------------------
// Program 25: the US standard atmosphere (1976) up to 47 km over a `const` table.

/// (base altitude m, base temperature K, lapse rate K/m, base pressure Pa)
const LAYERS: [(f64, f64, f64, f64); 4] = [
    (0.0, 288.15, -0.0065, 101325.0),
    (11000.0, 216.65, 0.0, 22632.06),
    (20000.0, 216.65, 0.001, 5474.889),
    (32000.0, 228.65, 0.0028, 868.0187),
];
const G0: f64 = 9.80665;
const R_AIR: f64 = 287.053;

#[derive_frule]
pub fn air_density(altitude: f64) -> f64 {
    // LIMIT: written `rposition(|&(h, ..)| ..)` (docs/limits.md §3, `..` in tuple patterns).
    let idx = LAYERS
        .iter()
        .rposition(|&(h, _, _, _)| altitude >= h)
        .unwrap_or(0);
    let (h_b, t_b, lapse, p_b) = LAYERS[idx];
    let dh = altitude - h_b;
    let (t, p) = if lapse == 0.0 {
        (t_b, p_b * (-G0 * dh / (R_AIR * t_b)).exp())
    } else {
        let t = t_b + lapse * dh;
        (t, p_b * (t / t_b).powf(-G0 / (lapse * R_AIR)))
    };
    p / (R_AIR * t)
}

/// Drag work along a climb profile (altitudes and speeds at fixed time steps).
#[derive_frule]
pub fn drag_work(profile: &[f64], cd_area: f64) -> f64 {
    let (alts, speeds) = profile.split_at(profile.len() / 2);
    let dt = 10.0;
    alts.iter()
        .zip(speeds)
        .map(|(&h, &v)| 0.5 * air_density(h) * v * v * cd_area * v * dt)
        .sum()
}

// ---------------------------------------------------------------------------------------
// Program 26: a friction model matched on a tuple of (regime, direction).

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum Regime {
    Dry,
    Lubricated { viscosity: f64 },
}

#[derive_frule]
pub fn friction_force(regime: Regime, velocity: f64, normal: f64) -> f64 {
    let direction = if velocity > 1e-9 {
        1
    } else if velocity < -1e-9 {
        -1
    } else {
        0
    };
    match (regime, direction) {
        (_, 0) => 0.0,
        (Regime::Dry, d) => -(d as f64) * 0.4 * normal,
        (Regime::Lubricated { viscosity }, 1) => -(0.05 * normal + viscosity * velocity),
        (Regime::Lubricated { viscosity }, _) => 0.05 * normal - viscosity * velocity,
    }
}

#[derive_frule]
pub fn sliding_distance(x: &[f64], regime: Regime) -> f64 {
    let (mut pos, mut vel) = (0.0, x[0]);
    let (mass, normal, dt) = (2.0, x[1], 0.01);
    for _ in 0..150 {
        let f = friction_force(regime, vel, normal);
        let new_vel = vel + dt * f / mass;
        // Friction stops the block; it does not reverse it.
        vel = if new_vel * vel < 0.0 { 0.0 } else { new_vel };
        pos += dt * vel;
    }
    pos
}

// ---------------------------------------------------------------------------------------
// Program 27: adaptive Simpson over an explicit stack.

#[derive_frule]
fn simpson(f: &dyn Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    let m = 0.5 * (a + b);
    (b - a) / 6.0 * (f(a) + 4.0 * f(m) + f(b))
}

#[derive_frule]
pub fn adaptive_simpson(f: &dyn Fn(f64) -> f64, a: f64, b: f64, tol: f64) -> f64 {
    let mut stack = vec![(a, b, tol, simpson(f, a, b))];
    let mut total = 0.0;
    while let Some((lo, hi, eps, whole)) = stack.pop() {
        let mid = 0.5 * (lo + hi);
        let left = simpson(f, lo, mid);
        let right = simpson(f, mid, hi);
        let delta = left + right - whole;
        if delta.abs() <= 15.0 * eps || hi - lo < 1e-6 {
            total += left + right + delta / 15.0;
        } else {
            stack.push((lo, mid, 0.5 * eps, left));
            stack.push((mid, hi, 0.5 * eps, right));
        }
    }
    total
}

/// ∫₀^b e^{−k t²} dt: its derivatives in b and k are e^{−k b²} and −∫ t² e^{−k t²} dt.
#[derive_frule]
pub fn gaussian_mass(k: f64, b: f64) -> f64 {
    adaptive_simpson(&|t| (-k * t * t).exp(), 0.0, b, 1e-10)
}

// ---------------------------------------------------------------------------------------
// Program 28: a coarse grid search left by a labelled break, then golden sections.

#[derive_frule]
pub fn argmin_1d(f: &dyn Fn(f64) -> f64, lo: f64, hi: f64) -> f64 {
    let n = 40;
    let h = (hi - lo) / n as f64;
    let mut bracket = (lo, hi);
    'scan: for i in 1..n {
        let x = lo + i as f64 * h;
        let (fl, fm, fr) = (f(x - h), f(x), f(x + h));
        if fm <= fl && fm <= fr {
            bracket = (x - h, x + h);
            break 'scan;
        }
    }
    let (mut a, mut b) = bracket;
    let ratio = 0.5 * (5f64.sqrt() - 1.0);
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    while (b - a).abs() > 1e-12 {
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
        c = b - ratio * (b - a);
        d = a + ratio * (b - a);
    }
    0.5 * (a + b)
}

/// The minimum of a tilted double well, found by the search: the optimal value's
/// derivative in the tilt (envelope theorem: ∂/∂s min_x f(x, s) = ∂f/∂s at the minimiser).
#[derive_frule]
pub fn well_minimum(tilt: f64, width: f64) -> f64 {
    let f = |x: f64| (x * x - width * width).powi(2) + tilt * x;
    let x_star = argmin_1d(&f, -3.0, 3.0);
    f(x_star)
}

// ---------------------------------------------------------------------------------------
// Program 29: an expression tree with boxed children (symbolic regression's individuals).

#[derive(Differentiable, Clone, Debug)]
pub enum Expr {
    Const(f64),
    Var(usize),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Sin(Box<Expr>),
    Exp(Box<Expr>),
}

#[derive_frule]
impl Expr {
    pub fn eval(&self, x: &[f64]) -> f64 {
        match self {
            Expr::Const(c) => *c,
            Expr::Var(i) => x[*i],
            Expr::Add(a, b) => a.eval(x) + b.eval(x),
            Expr::Mul(a, b) => a.eval(x) * b.eval(x),
            Expr::Sin(a) => a.eval(x).sin(),
            Expr::Exp(a) => a.eval(x).exp(),
        }
    }
}

#[derive_frule]
pub fn tree_value(tree: &Expr, x: &[f64]) -> f64 {
    tree.eval(x)
}

// ---------------------------------------------------------------------------------------
// Program 30: a polynomial newtype with `Display`, and an empirical quantile.

#[derive(Differentiable, Clone, Debug)]
pub struct Polynomial(pub Vec<f64>);

impl fmt::Display for Polynomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms: Vec<String> = self
            .0
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c}x^{i}"))
            .collect();
        write!(f, "{}", terms.join(" + "))
    }
}

#[derive_frule]
impl Polynomial {
    pub fn eval(&self, x: f64) -> f64 {
        self.0.iter().rev().fold(0.0, |acc, &c| acc * x + c)
    }

    pub fn derivative(&self) -> Polynomial {
        Polynomial(
            self.0
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, &c)| i as f64 * c)
                .collect(),
        )
    }
}

/// The q-quantile (linear interpolation, type 7) of a polynomial's values at points.
#[derive_frule]
pub fn value_quantile(coeffs: &[f64], points: &[f64], q: f64) -> f64 {
    let p = Polynomial(coeffs.to_vec());
    let slope = p.derivative();
    let mut values: Vec<f64> = points
        .iter()
        .map(|&t| p.eval(t) + 0.1 * slope.eval(t))
        .collect();
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let h = (values.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(values.len() - 1);
    values[lo] + (h - lo as f64) * (values[hi] - values[lo])
}

// ---------------------------------------------------------------------------------------

#[test]
fn layered_errors_in_every_mode() {
    check_modes!(merit_or_zero {}, merit_or_zero, [350.0, 300.0]);
    // Closed form: d ln p / dT = B ln 10 / (C + T − 273.15)².
    let (p, d) = derivative(bind(log_psat {}, (Var(0),)), 320.0);
    assert_eq!(
        p.to_bits(),
        saturation_pressure(320.0).unwrap().ln().to_bits()
    );
    let tc: f64 = 320.0 - 273.15;
    assert_close(
        d,
        1730.63 * 10f64.ln() / (233.426 + tc).powi(2),
        1e-12,
        "d ln p/dT",
    );
    // The errors: the offending temperature travels through `?` and `From`.
    let e = cycle_merit(400.0, 300.0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "property lookup failed: temperature 400 K outside [274, 373] K"
    );
    let r = cycle_merit_frule(Dual::new(400.0, 1.0), Dual::new(300.0, 0.0));
    assert_eq!(r.primal, Err(e));
    // Equal temperatures do no work: the error branch, a constant zero.
    assert_eq!(merit_or_zero(&[320.0, 320.0]), 0.0);
    let (_, g) = gradient(merit_or_zero {}, &[320.0, 320.0]);
    assert_eq!(g, [0.0, 0.0]);
}

#[derive_frule]
fn log_psat(t: f64) -> f64 {
    saturation_pressure(t).map(f64::ln).unwrap_or(f64::NAN)
}

#[test]
fn standard_atmosphere_in_every_mode() {
    // Altitudes in three layers, then speeds.
    let profile = [500.0, 9000.0, 15000.0, 25000.0, 120.0, 200.0, 230.0, 260.0];
    // The work is about 1e8 J and the altitudes are metres: the 1e-4 steps of
    // `check_modes!`'s finite-difference Hessian drown in rounding, so the modes are
    // checked here with steps relative to each input, the Hessian by central differences
    // of the (checked) gradient.
    let plain = |x: &[f64]| drag_work(x, 0.8);
    let rule = bind(drag_work {}, (Wrt, 0.8));
    let y = plain(&profile);
    let step = |k: usize| 1e-6 * profile[k].abs();
    let fd: Vec<f64> = (0..8)
        .map(|k| {
            let (mut p, mut m) = (profile, profile);
            p[k] += step(k);
            m[k] -= step(k);
            (plain(&p) - plain(&m)) / (2.0 * step(k))
        })
        .collect();
    for k in 0..8 {
        let mut e = [0.0; 8];
        e[k] = 1.0;
        let (v, d) = jvp(rule, &profile, &e);
        assert_eq!(v.to_bits(), y.to_bits());
        assert_close(d, fd[k], 1e-6, &format!("one direction: ∂/∂x{k}"));
    }
    let (v, g) = gradient_with::<4>(rule, &profile);
    assert_eq!(v.to_bits(), y.to_bits());
    let (v, _, h) = hessian_with::<2>(rule, &profile);
    assert_eq!(v.to_bits(), y.to_bits());
    for k in 0..8 {
        assert_close(g[k], fd[k], 1e-6, &format!("batch: ∂/∂x{k}"));
        let (mut p, mut m) = (profile, profile);
        p[k] += step(k);
        m[k] -= step(k);
        let (gp, gm) = (gradient(rule, &p).1, gradient(rule, &m).1);
        for j in 0..8 {
            let want = (gp[j] - gm[j]) / (2.0 * step(k));
            assert!(
                (h[(j, k)] - want).abs()
                    <= 1e-5 * (1.0 + want.abs() + g[j].abs() / profile[k].abs()),
                "second order: ∂²/∂x{j}∂x{k}: {} against {want}",
                h[(j, k)]
            );
        }
    }
    // Closed form in the isothermal layer: dρ/dh = −ρ g / (R T).
    let h = 15000.0;
    let (rho, d) = derivative(air_density {}, h);
    assert_close(d, -rho * G0 / (R_AIR * 216.65), 1e-12, "dρ/dh");
}

#[test]
fn friction_regimes_in_every_mode() {
    for regime in [Regime::Dry, Regime::Lubricated { viscosity: 0.3 }] {
        let plain = |x: &[f64]| sliding_distance(x, regime);
        check_modes!(
            bind(sliding_distance {}, (Wrt, Const(regime))),
            plain,
            [1.5, 3.0]
        );
    }
    // Closed form (dry, stops within the run): d = v²/(2μg'), g' = N/m: ∂d/∂v = v m/(μ N).
    // The discrete run matches it to O(dt), so against its own central differences above;
    // here the sign: more normal force, shorter slide.
    let (_, g) = gradient(
        bind(sliding_distance {}, (Wrt, Const(Regime::Dry))),
        &[1.5, 3.0],
    );
    assert!(g[0] > 0.0 && g[1] < 0.0);
}

#[test]
fn adaptive_simpson_against_its_closed_form() {
    let (k, b) = (0.7, 1.8);
    let (v, g) = gradient(bind(gaussian_mass {}, (Var(0), Var(1))), &[k, b]);
    assert_eq!(v.to_bits(), gaussian_mass(k, b).to_bits());
    // ∂/∂b = e^{−k b²}; ∂/∂k = −∫₀^b t² e^{−k t²} dt, by a fine plain Simpson rule.
    assert_close(g[1], (-k * b * b).exp(), 1e-8, "∂/∂b");
    let n = 20000;
    let h = b / n as f64;
    let mut m2 = 0.0;
    for i in 0..=n {
        let t = i as f64 * h;
        let w = if i == 0 || i == n {
            1.0
        } else if i % 2 == 1 {
            4.0
        } else {
            2.0
        };
        m2 += w * t * t * (-k * t * t).exp();
    }
    m2 *= h / 3.0;
    assert_close(g[0], -m2, 1e-8, "∂/∂k");
    let plain = |x: &[f64]| gaussian_mass(x[0], x[1]);
    check_modes!(bind(gaussian_mass {}, (Var(0), Var(1))), plain, [k, b]);
}

#[test]
fn grid_then_golden_section_against_the_envelope_theorem() {
    let (s, w) = (0.3, 1.2);
    let (v, g) = gradient(bind(well_minimum {}, (Var(0), Var(1))), &[s, w]);
    assert_eq!(v.to_bits(), well_minimum(s, w).to_bits());
    // The minimiser solves 4x(x² − w²) + s = 0 near −w; ∂/∂s = x*, ∂/∂w = −4w(x*² − w²).
    let mut x = -w;
    for _ in 0..50 {
        x -= (4.0 * x * (x * x - w * w) + s) / (12.0 * x * x - 4.0 * w * w);
    }
    assert_close(g[0], x, 1e-5, "∂/∂tilt");
    assert_close(g[1], -4.0 * w * (x * x - w * w), 1e-5, "∂/∂width");
}

#[test]
fn expression_tree_in_every_mode() {
    use Expr::*;
    // exp(0.5·x₀) · sin(x₁ + x₂·x₀) + 1.5
    let tree = Add(
        Box::new(Mul(
            Box::new(Exp(Box::new(Mul(Box::new(Const(0.5)), Box::new(Var(0)))))),
            Box::new(Sin(Box::new(Add(
                Box::new(Var(1)),
                Box::new(Mul(Box::new(Var(2)), Box::new(Var(0)))),
            )))),
        )),
        Box::new(Const(1.5)),
    );
    let plain = |x: &[f64]| tree_value(&tree, x);
    let x = [0.4, 1.1, -0.7];
    check_modes!(bind(tree_value {}, (&tree, Wrt)), plain, x);
    // Closed form.
    let (_, g) = gradient(bind(tree_value {}, (&tree, Wrt)), &x);
    let (e, a) = ((0.5 * x[0]).exp(), x[1] + x[2] * x[0]);
    assert_close(g[0], 0.5 * e * a.sin() + e * a.cos() * x[2], 1e-14, "∂/∂x0");
    assert_close(g[1], e * a.cos(), 1e-14, "∂/∂x1");
    assert_close(g[2], e * a.cos() * x[0], 1e-14, "∂/∂x2");
}

#[test]
fn polynomial_quantile_in_every_mode() {
    let pts = [-1.0, -0.4, 0.1, 0.5, 0.9, 1.3, 1.7];
    let plain = |c: &[f64]| value_quantile(c, &pts, 0.35);
    check_modes!(
        bind(value_quantile {}, (Wrt, &pts[..], 0.35)),
        plain,
        [0.3, -1.1, 0.6, 0.2]
    );
    assert_eq!(Polynomial(vec![1.0, 2.0]).to_string(), "1x^0 + 2x^1");
}
