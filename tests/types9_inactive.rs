//! Values users pass around (twelfth session): a parameter declared `inactive` of a type
//! of the user's without `Differentiable` (a simulation's configuration, a coefficient
//! table, an expression tree) passed on to other derived functions, which take it
//! `inactive` too. Nothing asks the user to derive anything for these types.
//!
//! Each against central differences or closed forms in one direction, in batches and at
//! second order, primals bit for bit.
#![allow(clippy::needless_range_loop)]
use fwdad::drivers::{bind, Inactive, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::assert_close;

// ---------------------------------------------------------------------------------------
// A projectile with quadratic drag: the configuration struct and a drag-coefficient
// polynomial (a fitted table), both plain types, handed down to the helpers.

/// Simulation settings, as read from a file.
#[derive(Debug, Clone)]
pub struct SimConfig {
    pub dt: f64,
    pub steps: usize,
    pub gravity: f64,
    pub air_density: f64,
    pub area: f64,
    pub mass: f64,
}

/// A drag coefficient fitted as a polynomial in the speed (Horner's scheme).
#[derive(Debug, Clone)]
pub struct DragTable {
    pub coeffs: Vec<f64>,
    pub v_ref: f64,
}

#[derive_frule(inactive(table))]
fn drag_coefficient(table: &DragTable, speed: f64) -> f64 {
    let s = speed / table.v_ref;
    let mut c = 0.0;
    for k in (0..table.coeffs.len()).rev() {
        c = c * s + table.coeffs[k];
    }
    c
}

#[derive_frule(inactive(cfg, table))]
fn drag_accel(cfg: &SimConfig, table: &DragTable, vx: f64, vy: f64) -> (f64, f64) {
    let speed = (vx * vx + vy * vy).sqrt();
    let cd = drag_coefficient(table, speed);
    let k = 0.5 * cfg.air_density * cd * cfg.area / cfg.mass * speed;
    (-k * vx, -k * vy)
}

/// Horizontal range after a fixed number of steps, plus the final height: launch speed
/// `p[0]` and angle `p[1]`.
#[derive_frule(inactive(cfg, table))]
pub fn flight(p: &[f64], cfg: &SimConfig, table: &DragTable) -> f64 {
    let (mut x, mut y) = (0.0, 0.0);
    let (mut vx, mut vy) = (p[0] * p[1].cos(), p[0] * p[1].sin());
    for _ in 0..cfg.steps {
        let (ax, ay) = drag_accel(cfg, table, vx, vy);
        vx += ax * cfg.dt;
        vy += (ay - cfg.gravity) * cfg.dt;
        x += vx * cfg.dt;
        y += vy * cfg.dt;
    }
    x + 0.5 * y
}

fn sim() -> (SimConfig, DragTable) {
    (
        SimConfig {
            dt: 0.01,
            steps: 120,
            gravity: 9.81,
            air_density: 1.2,
            area: 0.01,
            mass: 0.4,
        },
        DragTable {
            coeffs: vec![0.47, -0.05, 0.02],
            v_ref: 30.0,
        },
    )
}

#[test]
fn configuration_and_table_passed_down() {
    let (cfg, table) = sim();
    let plain = |p: &[f64]| flight(p, &cfg, &table);
    check_modes!(
        bind(flight {}, (Wrt, Inactive(&cfg), Inactive(&table))),
        plain,
        [22.0, 0.7]
    );
}

// A field of the configuration passed on (`&cfg.table`), the table's type plain too.

pub struct Material {
    pub name: String,
    pub table: DragTable,
    pub scale: f64,
}

#[derive_frule(inactive(m))]
pub fn scaled_drag(p: &[f64], m: &Material) -> f64 {
    let mut total = 0.0;
    for k in 0..p.len() {
        total += m.scale * drag_coefficient(&m.table, p[k]) * p[k] * p[k];
    }
    total
}

#[test]
fn field_of_a_plain_struct_passed_down() {
    let (_, table) = sim();
    let m = Material {
        name: "steel".to_string(),
        table,
        scale: 1.5,
    };
    assert_eq!(m.name, "steel");
    // Closed form: Σ scale · (c0 + c1 s + c2 s²) v², s = v / v_ref.
    let closed_grad = |v: f64| {
        let c = &m.table.coeffs;
        let s = v / m.table.v_ref;
        let cd = c[0] + c[1] * s + c[2] * s * s;
        let dcd = (c[1] + 2.0 * c[2] * s) / m.table.v_ref;
        m.scale * (dcd * v * v + 2.0 * cd * v)
    };
    let p = [3.0, 12.0, 40.0];
    let (v, g) = gradient(bind(scaled_drag {}, (Wrt, Inactive(&m))), &p);
    assert_eq!(v.to_bits(), scaled_drag(&p, &m).to_bits());
    for k in 0..3 {
        assert_close(g[k], closed_grad(p[k]), 1e-12, "d/dv");
    }
    let plain = |p: &[f64]| scaled_drag(p, &m);
    check_modes!(bind(scaled_drag {}, (Wrt, Inactive(&m))), plain, p);
}

// ---------------------------------------------------------------------------------------
// An expression tree (no `Differentiable`): the sum over points calls the recursive
// evaluator, both `inactive(e)`.

#[derive(Clone, Debug)]
pub enum Expr {
    Num(f64),
    X,
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Sin(Box<Expr>),
    Exp(Box<Expr>),
}

#[derive_frule(inactive(e))]
pub fn eval(e: &Expr, x: f64) -> f64 {
    match e {
        Expr::Num(c) => *c,
        Expr::X => x,
        Expr::Add(a, b) => eval(a, x) + eval(b, x),
        Expr::Mul(a, b) => eval(a, x) * eval(b, x),
        Expr::Sin(a) => eval(a, x).sin(),
        Expr::Exp(a) => eval(a, x).exp(),
    }
}

#[derive_frule(inactive(e))]
pub fn eval_sum(e: &Expr, xs: &[f64]) -> f64 {
    let mut s = 0.0;
    for &x in xs {
        s += eval(e, x);
    }
    s
}

#[test]
fn expression_tree_summed_over_points() {
    use Expr::*;
    // f(x) = sin(x) · exp(0.5 x) + x
    let f = Add(
        Box::new(Mul(
            Box::new(Sin(Box::new(X))),
            Box::new(Exp(Box::new(Mul(Box::new(Num(0.5)), Box::new(X))))),
        )),
        Box::new(X),
    );
    let d_closed = |x: f64| x.cos() * (0.5 * x).exp() + 0.5 * x.sin() * (0.5 * x).exp() + 1.0;
    let xs = [0.3, -1.2, 2.0];
    let (v, g) = gradient(bind(eval_sum {}, (Inactive(&f), Wrt)), &xs);
    assert_eq!(v.to_bits(), eval_sum(&f, &xs).to_bits());
    for k in 0..3 {
        assert_close(g[k], d_closed(xs[k]), 1e-12, "d/dx");
    }
    let plain = |x: &[f64]| eval_sum(&f, x);
    check_modes!(bind(eval_sum {}, (Inactive(&f), Wrt)), plain, xs);
}

// ---------------------------------------------------------------------------------------
// A slice of plain tables, one chosen per sample (`&tables[band]`) and passed down.

pub struct Band {
    pub gain: f64,
    pub centre: f64,
}

#[derive_frule(inactive(band))]
fn band_response(band: &Band, f: f64) -> f64 {
    band.gain / (1.0 + (f - band.centre).powi(2))
}

#[derive_frule(inactive(bands))]
pub fn equaliser(freqs: &[f64], bands: &[Band]) -> f64 {
    let mut total = 0.0;
    for i in 0..freqs.len() {
        let band = &bands[i % bands.len()];
        total += band_response(band, freqs[i]);
        for b in bands {
            total += 0.1 * band_response(b, freqs[i]);
        }
    }
    total
}

#[test]
fn elements_of_a_slice_of_plain_tables() {
    let bands = [
        Band {
            gain: 2.0,
            centre: 0.5,
        },
        Band {
            gain: 1.0,
            centre: 1.5,
        },
    ];
    let plain = |x: &[f64]| equaliser(x, &bands);
    check_modes!(
        bind(equaliser {}, (Wrt, Inactive(&bands[..]))),
        plain,
        [0.2, 1.1, 1.9]
    );
}

// ---------------------------------------------------------------------------------------
// The same in code generic over its float type: a weights slice and a plain settings
// struct, both `inactive`, passed on between generic functions.

pub struct Smoothing {
    pub width: f64,
}

#[derive_frule(inactive(w, s))]
fn smooth_term<T: num_traits::Float>(x: T, w: &[T], s: &Smoothing) -> T {
    let k = T::from(s.width).unwrap();
    let mut acc = T::zero();
    for wi in w {
        acc = acc + *wi * (x / k).tanh();
    }
    acc
}

#[derive_frule(inactive(w, s))]
fn smooth_total<T: num_traits::Float>(xs: &[T], w: &[T], s: &Smoothing) -> T {
    let mut total = T::zero();
    for x in xs {
        total = total + smooth_term(*x, w, s);
    }
    total
}

#[test]
fn generic_functions_pass_plain_settings_on() {
    let s = Smoothing { width: 0.7 };
    let w = [0.5, 1.5];
    let x = [0.2, -0.4, 1.1];
    let plain = |x: &[f64]| smooth_total(x, &w, &s);
    check_modes!(
        bind(smooth_total {}, (Wrt, Inactive(&w[..]), Inactive(&s))),
        plain,
        x
    );
    // Closed form: d/dx Σ w · tanh(x / k) = Σw (1 − tanh²(x / k)) / k.
    let (_, g) = gradient(
        bind(smooth_total {}, (Wrt, Inactive(&w[..]), Inactive(&s))),
        &x,
    );
    for k in 0..3 {
        let t = (x[k] / 0.7).tanh();
        assert_close(g[k], 2.0 * (1.0 - t * t) / 0.7, 1e-12, "d/dx");
    }
    // At f32, through the rule.
    let (x32, w32) = ([0.2f32, -0.4, 1.1], [0.5f32, 1.5]);
    let d = smooth_total_frule(Dual::new(&x32[..], &[1.0f32, 0.0, 0.0][..]), &w32[..], &s);
    assert_eq!(d.primal.to_bits(), smooth_total(&x32, &w32, &s).to_bits());
}
