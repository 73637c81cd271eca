//! More methods of plain structs (no `#[derive(Differentiable)]`), annotated unmodified:
//! a battery's equivalent circuit whose method hands `self` on to a free function, a
//! yield curve whose methods return a `Vec`, a cantilever whose method takes a slice of
//! loads. Derivatives against closed forms and central differences (`check_widths!`:
//! one direction, batches, second order), primals bit for bit.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, gradient, jvp, Var, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// --- A Thevenin battery model, discharged at a current profile. ---

pub struct Cell {
    pub capacity_ah: f64,
    pub r0: f64,
    pub r1: f64,
    pub c1: f64,
    pub ocv_coeffs: Vec<f64>,
}

/// The open-circuit voltage, a polynomial in the state of charge (a free function taking
/// the cell, as the method below hands it `self`).
#[derive_frule]
fn open_circuit(cell: &Cell, soc: f64) -> f64 {
    let mut v = 0.0;
    for c in cell.ocv_coeffs.iter().rev() {
        v = v * soc + c;
    }
    v
}

#[derive_frule]
impl Cell {
    pub fn terminal_voltage(&self, soc: f64, v1: f64, current: f64) -> f64 {
        open_circuit(self, soc) - v1 - self.r0 * current
    }
    pub fn step(&self, soc: f64, v1: f64, current: f64, dt: f64) -> (f64, f64) {
        let tau = self.r1 * self.c1;
        let a = (-dt / tau).exp();
        let soc_next = soc - current * dt / (3600.0 * self.capacity_ah);
        let v1_next = a * v1 + self.r1 * (1.0 - a) * current;
        (soc_next, v1_next)
    }
}

#[derive_frule]
fn end_voltage(currents: &[f64], cell: &Cell, soc0: f64, dt: f64) -> f64 {
    let (mut soc, mut v1) = (soc0, 0.0);
    for &i in currents {
        let (s, v) = cell.step(soc, v1, i, dt);
        soc = s;
        v1 = v;
    }
    cell.terminal_voltage(soc, v1, currents[currents.len() - 1])
}

fn cell() -> Cell {
    Cell {
        capacity_ah: 2.5,
        r0: 0.03,
        r1: 0.015,
        c1: 2400.0,
        ocv_coeffs: vec![3.2, 1.1, -0.9, 0.35],
    }
}

#[test]
fn battery_voltage_sensitivity() {
    let cell = cell();
    let currents = [2.0, 5.0, 1.0, 3.5];
    check_widths!(
        bind(end_voltage {}, (Wrt, &cell, 0.8, 30.0)),
        |x: &[f64]| end_voltage(x, &cell, 0.8, 30.0),
        currents
    );
    // ∂V/∂soc through the method's entry: the polynomial's derivative, closed form.
    let soc = 0.6;
    let d = Cell::terminal_voltage_frule(
        &cell,
        Dual::new(soc, 1.0),
        Dual::constant(0.1),
        Dual::constant(2.0),
    );
    assert_eq!(
        d.primal.to_bits(),
        cell.terminal_voltage(soc, 0.1, 2.0).to_bits()
    );
    let c = &cell.ocv_coeffs;
    same(
        d.tangent,
        c[1] + 2.0 * c[2] * soc + 3.0 * c[3] * soc * soc,
        1e-14,
        "dV/dsoc",
    );
}

// --- A Nelson-Siegel yield curve pricing a bond. ---

pub struct Curve {
    pub tau: f64,
    pub tenors: Vec<f64>,
}

#[derive_frule]
impl Curve {
    pub fn zero_rate(&self, beta: &[f64], t: f64) -> f64 {
        let x = t / self.tau;
        let f = (1.0 - (-x).exp()) / x;
        beta[0] + beta[1] * f + beta[2] * (f - (-x).exp())
    }
    pub fn discount_factors(&self, beta: &[f64]) -> Vec<f64> {
        self.tenors
            .iter()
            .map(|&t| (-self.zero_rate(beta, t) * t).exp())
            .collect()
    }
}

#[derive_frule]
fn bond_price(beta: &[f64], curve: &Curve, coupon: f64) -> f64 {
    let df = curve.discount_factors(beta);
    let n = df.len();
    let mut p = 0.0;
    for k in 0..n {
        p += coupon * df[k];
    }
    p + 100.0 * df[n - 1]
}

#[test]
fn yield_curve_bond() {
    let curve = Curve {
        tau: 1.8,
        tenors: vec![1.0, 2.0, 3.0, 4.0, 5.0],
    };
    let beta = [0.04, -0.01, 0.015];
    check_widths!(
        bind(bond_price {}, (Wrt, &curve, 4.0)),
        |x: &[f64]| bond_price(x, &curve, 4.0),
        beta
    );
    // A level shift: ∂P/∂β₀ = -Σ cᵢ tᵢ DFᵢ, closed form (the duration's numerator).
    let (v, g) = gradient(bind(bond_price {}, (Wrt, &curve, 4.0)), &beta[..]);
    assert_eq!(v.to_bits(), bond_price(&beta, &curve, 4.0).to_bits());
    let df = curve.discount_factors(&beta);
    let mut want = 0.0;
    for (k, t) in curve.tenors.iter().enumerate() {
        let cash = if k == 4 { 104.0 } else { 4.0 };
        want -= cash * t * df[k];
    }
    same(g[0], want, 1e-12, "dP/dβ0");
}

// --- A cantilever under point loads (Euler-Bernoulli), tip deflection. ---

pub struct Cantilever {
    pub length: f64,
    pub youngs: f64,
    pub inertia: f64,
}

#[derive_frule]
impl Cantilever {
    /// Deflection at `x` from a point load `p` at `a` (superposed by the caller).
    pub fn deflection(&self, x: f64, a: f64, p: f64) -> f64 {
        let ei = self.youngs * self.inertia;
        if x <= a {
            p * x * x * (3.0 * a - x) / (6.0 * ei)
        } else {
            p * a * a * (3.0 * x - a) / (6.0 * ei)
        }
    }
    pub fn tip(&self, loads: &[(f64, f64)], scale: &[f64]) -> f64 {
        let mut w = 0.0;
        for (k, &(a, p)) in loads.iter().enumerate() {
            w += self.deflection(self.length, a, p * scale[k]);
        }
        w
    }
}

#[derive_frule]
fn tip_deflection(scale: &[f64], beam: &Cantilever, loads: &[(f64, f64)]) -> f64 {
    beam.tip(loads, scale)
}

#[derive_frule]
fn load_position_sensitivity(a: f64, p: f64, beam: &Cantilever) -> f64 {
    beam.deflection(beam.length, a, p)
}

#[test]
fn cantilever_tip() {
    let beam = Cantilever {
        length: 2.0,
        youngs: 200e9,
        inertia: 8e-6,
    };
    let loads = [(0.5, 1000.0), (1.5, 2500.0), (2.0, 500.0)];
    let scale = [1.0, 0.8, 1.2];
    check_widths!(
        bind(tip_deflection {}, (Wrt, &beam, &loads[..])),
        |x: &[f64]| tip_deflection(x, &beam, &loads),
        scale
    );
    // Linear in each scale: ∂w/∂sₖ = pₖ aₖ² (3L - aₖ) / (6 EI).
    let (_, g) = gradient(
        bind(tip_deflection {}, (Wrt, &beam, &loads[..])),
        &scale[..],
    );
    let ei = beam.youngs * beam.inertia;
    for k in 0..3 {
        let (a, p) = loads[k];
        same(
            g[k],
            p * a * a * (3.0 * beam.length - a) / (6.0 * ei),
            1e-13,
            "dw/ds",
        );
    }
    // ∂w/∂a = p (6 a L - 3 a²) / (6 EI) for a load inside the span.
    let (a, p) = (1.1, 3000.0);
    let (v, d): (f64, f64) = jvp(
        bind(load_position_sensitivity {}, (Var(0), Var(1), &beam)),
        &[a, p],
        &[1.0, 0.0],
    );
    assert_eq!(
        v.to_bits(),
        load_position_sensitivity(a, p, &beam).to_bits()
    );
    same(
        d,
        p * (6.0 * a * beam.length - 3.0 * a * a) / (6.0 * ei),
        1e-13,
        "dw/da",
    );
    let plain = |x: &[f64]| load_position_sensitivity(x[0], x[1], &beam);
    let (_, _, h) = fwdad::drivers::hessian(
        bind(load_position_sensitivity {}, (Var(0), Var(1), &beam)),
        &[a, p],
    );
    let want = fd_hessian(&plain, &[a, p]);
    let grad = fd_gradient(&plain, &[a, p]);
    assert_close(grad[0], d, 1e-6, "fd dw/da");
    for i in 0..2 {
        for j in 0..2 {
            assert_close(h[(i, j)] * 1e6, want[i][j] * 1e6, 1e-4, "hessian");
        }
    }
}
