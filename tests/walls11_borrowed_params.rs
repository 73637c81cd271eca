//! Borrowed parameters as newcomers pass them: an optional spring `Option<&Spring>` as
//! constant data (an anchor that may be absent; declared `inactive(anchor)` and bound as
//! it is, `Some(&s)` or `None`), and a `Box<dyn Body>` stepped by a derived function
//! (`advance(&mut b, dt)`; lent by hand, `advance(&mut *b, dt)`, is a UI test's error).
//! Derivatives against closed forms and central differences (single, batched, second
//! order), primals bit for bit against the plain functions.

#![allow(clippy::needless_range_loop)]

mod common;

use fwdad::drivers::{bind, Wrt};
use fwdad::prelude::*;

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} against {want}"
    );
}

// ---------------------------------------------------------------------------------------
// `Option<&Spring>`: a chain of unit springs, optionally anchored at its first bead.

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
}

#[derive_frule(inactive(anchor))]
fn chain_energy(x: &[f64], anchor: Option<&Spring>) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i] - 1.0;
        e += 0.5 * d * d;
    }
    if let Some(s) = anchor {
        e += 0.5 * s.k * (x[0] - s.rest).powi(2);
    }
    e
}

/// The anchor read by `map_or` and `match`.
#[derive_frule(inactive(anchor))]
fn anchored_pull(x: &[f64], anchor: Option<&Spring>) -> f64 {
    let pull = anchor.map_or(0.0, |s| s.k * (x[0] - s.rest));
    let stiff = match anchor {
        Some(s) => s.k,
        None => 1.0,
    };
    pull * x[1] + stiff * x[1] * x[1]
}

#[test]
fn optional_borrowed_struct_as_constant_data() {
    let x = [0.3, 1.1, 2.4];
    let s = Spring { k: 4.0, rest: 0.5 };
    for anchor in [Some(&s), None] {
        let (v, g) = gradient(bind(chain_energy {}, (Wrt, anchor)), &x);
        assert_eq!(v.to_bits(), chain_energy(&x, anchor).to_bits());
        let d0 = x[1] - x[0] - 1.0;
        let d1 = x[2] - x[1] - 1.0;
        let a = anchor.map_or(0.0, |s| s.k * (x[0] - s.rest));
        assert_close(g[0], -d0 + a, 1e-15, "d/dx0");
        assert_close(g[1], d0 - d1, 1e-15, "d/dx1");
        assert_close(g[2], d1, 1e-15, "d/dx2");
        crate::check_modes!(
            bind(chain_energy {}, (Wrt, anchor)),
            |x: &[f64]| chain_energy(x, anchor),
            x
        );
        let (v, g) = gradient(bind(anchored_pull {}, (Wrt, anchor)), &x);
        assert_eq!(v.to_bits(), anchored_pull(&x, anchor).to_bits());
        let k = anchor.map_or(1.0, |s| s.k);
        // pull·x1 + k x1²: ∂/∂x0 = k_anchor x1.
        let ka = anchor.map_or(0.0, |s| s.k);
        assert_close(g[0], ka * x[1], 1e-15, "pull d/dx0");
        assert_close(g[1], a + 2.0 * k * x[1], 1e-15, "pull d/dx1");
        crate::check_modes!(
            bind(anchored_pull {}, (Wrt, anchor)),
            |x: &[f64]| anchored_pull(x, anchor),
            x
        );
    }
}

// ---------------------------------------------------------------------------------------
// A boxed body stepped by a function: `advance(&mut *b, dt)` to a `&mut dyn Body` parameter
// is an error that says to pass the box (UI test `boxed-object-lent-by-reborrow`); the
// function taking `&mut Box<dyn Body>`, as the error says.

#[derive_frule]
pub trait Body {
    fn step(&mut self, dt: f64);
    fn height(&self) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Ball {
    pub h: f64,
    pub v: f64,
}

#[derive_frule]
impl Body for Ball {
    fn step(&mut self, dt: f64) {
        self.v -= 9.81 * dt;
        self.h += self.v * dt;
    }
    fn height(&self) -> f64 {
        self.h
    }
}

#[derive_frule]
fn advance(b: &mut Box<dyn Body>, dt: f64) {
    b.step(dt);
}

/// The ball's height after `n` steps of semi-implicit Euler, `x = [h0, v0]`.
#[derive_frule]
fn height_after(x: &[f64], dt: f64, n: usize) -> f64 {
    let mut b: Box<dyn Body> = Box::new(Ball { h: x[0], v: x[1] });
    for _ in 0..n {
        advance(&mut b, dt);
    }
    b.height()
}

#[test]
fn boxed_object_passed_to_a_function() {
    let x = [10.0, 2.5];
    let (dt, n) = (0.05, 7);
    let (v, g) = gradient(bind(height_after {}, (Wrt, dt, n)), &x);
    assert_eq!(v.to_bits(), height_after(&x, dt, n).to_bits());
    // h_n = h0 + n dt v0 − g dt² n(n + 1)/2: ∂/∂h0 = 1, ∂/∂v0 = n dt.
    assert_close(g[0], 1.0, 1e-15, "d/dh0");
    assert_close(g[1], n as f64 * dt, 1e-15, "d/dv0");
    crate::check_first_order!(
        bind(height_after {}, (Wrt, dt, n)),
        |x: &[f64]| height_after(x, dt, n),
        x,
        vec![1.0, n as f64 * dt]
    );
    // Second order: h_n is linear in (h0, v0).
    let (_, _, h) = hessian(bind(height_after {}, (Wrt, dt, n)), &x);
    assert_eq!(h.to_rows(), [[0.0, 0.0], [0.0, 0.0]]);
}

// ---------------------------------------------------------------------------------------
// An optional float bound as it is (`Some(0.5)`, `None`), beside the optional reference.

#[derive_frule]
fn biased_norm(x: &[f64], bias: Option<f64>) -> f64 {
    let s: f64 = x.iter().map(|v| v * v).sum();
    s.sqrt() + bias.unwrap_or(0.0) * x[0]
}

#[test]
fn optional_float_bound_as_it_is() {
    let x = [0.6, -0.8];
    for bias in [Some(0.5), None] {
        let (v, g) = gradient(bind(biased_norm {}, (Wrt, bias)), &x);
        assert_eq!(v.to_bits(), biased_norm(&x, bias).to_bits());
        let b = bias.unwrap_or(0.0);
        assert_close(g[0], x[0] + b, 1e-15, "d/dx0");
        assert_close(g[1], x[1], 1e-15, "d/dx1");
    }
    let (_, g) = gradient(bind(biased_norm {}, (Wrt, None)), &x);
    assert_close(g[0], x[0], 1e-15, "None: d/dx0");
}
