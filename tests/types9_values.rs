//! Values users pass around (twelfth session): the drivers' `bind` given a fieldless enum
//! of the user's as it is (`bind(f {}, (Wrt, Activation::Tanh, ..))`, no `Const(..)`), an
//! `Option<f64>`, a `bool` and a `usize`.
//!
//! Each against central differences and closed forms in one direction, in batches and at
//! second order, primals bit for bit.
#![allow(clippy::needless_range_loop)]
use fwdad::drivers::{bind, Const, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::assert_close;

/// The activation of a small network's hidden layer, chosen by a setting.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub enum Activation {
    Tanh,
    Sigmoid,
    Softplus,
}

#[derive_frule]
fn activate(kind: Activation, z: f64) -> f64 {
    match kind {
        Activation::Tanh => z.tanh(),
        Activation::Sigmoid => 1.0 / (1.0 + (-z).exp()),
        Activation::Softplus => (1.0 + z.exp()).ln(),
    }
}

/// A one-hidden-unit regression: weights `w = [a, b, c]`, prediction `c · act(a x + b)`;
/// an optional L2 penalty, an option to average, and a number of refinement passes
/// (each one sharpens the prediction by another activation).
#[derive_frule]
pub fn fit_loss(
    w: &[f64],
    act: Activation,
    l2: Option<f64>,
    mean: bool,
    passes: usize,
    xs: &[f64],
    ys: &[f64],
) -> f64 {
    let mut loss = 0.0;
    for (x, y) in xs.iter().zip(ys) {
        let mut h = w[0] * x + w[1];
        for _ in 0..passes {
            h = activate(act, h);
        }
        let r = w[2] * h - y;
        loss += r * r;
    }
    if mean {
        loss /= xs.len() as f64;
    }
    if let Some(lambda) = l2 {
        loss += lambda * w.iter().map(|v| v * v).sum::<f64>();
    }
    loss
}

fn data() -> (Vec<f64>, Vec<f64>) {
    let xs: Vec<f64> = (0..7).map(|i| -1.5 + 0.5 * i as f64).collect();
    let ys: Vec<f64> = xs.iter().map(|x| 0.8 * (1.2 * x - 0.3).tanh()).collect();
    (xs, ys)
}

#[test]
fn enum_bound_as_it_is() {
    let (xs, ys) = data();
    let w = [1.1, -0.2, 0.7];
    for act in [Activation::Tanh, Activation::Sigmoid, Activation::Softplus] {
        let plain = |w: &[f64]| fit_loss(w, act, Some(0.01), true, 2, &xs, &ys);
        check_modes!(
            bind(
                fit_loss {},
                (Wrt, act, Some(0.01), true, 2, &xs[..], &ys[..])
            ),
            plain,
            w
        );
        // The same as `Const(..)`, which stays supported.
        let (v, g) = gradient(
            bind(
                fit_loss {},
                (Wrt, Const(act), Some(0.01), true, 2, &xs[..], &ys[..]),
            ),
            &w,
        );
        let (v2, g2) = gradient(
            bind(
                fit_loss {},
                (Wrt, act, Some(0.01), true, 2, &xs[..], &ys[..]),
            ),
            &w,
        );
        assert_eq!(v.to_bits(), v2.to_bits());
        assert_eq!(g, g2);
    }
}

#[test]
fn variant_path_option_none_bool_and_count() {
    let (xs, ys) = data();
    let w = [0.9, 0.1, 1.3];
    let plain = |w: &[f64]| fit_loss(w, Activation::Sigmoid, None, false, 1, &xs, &ys);
    check_modes!(
        bind(
            fit_loss {},
            (
                Wrt,
                Activation::Sigmoid,
                None,
                false,
                1usize,
                &xs[..],
                &ys[..]
            )
        ),
        plain,
        w
    );
    // Closed form at one pass, no penalty, summed: L = Σ (c σ(a x + b) − y)².
    let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
    let mut want = [0.0; 3];
    for (x, y) in xs.iter().zip(&ys) {
        let s = sig(w[0] * x + w[1]);
        let r = w[2] * s - y;
        let ds = s * (1.0 - s);
        want[0] += 2.0 * r * w[2] * ds * x;
        want[1] += 2.0 * r * w[2] * ds;
        want[2] += 2.0 * r * s;
    }
    let (v, g) = gradient(
        bind(
            fit_loss {},
            (Wrt, Activation::Sigmoid, None, false, 1, &xs[..], &ys[..]),
        ),
        &w,
    );
    assert_eq!(v.to_bits(), plain(&w).to_bits());
    for k in 0..3 {
        assert_close(g[k], want[k], 1e-12, "closed form");
    }
}

/// A fieldless enum bound beside a scalar point (`derivative`), and declared in a function.
#[test]
fn enum_bound_to_a_scalar_function() {
    for act in [Activation::Tanh, Activation::Sigmoid, Activation::Softplus] {
        for z in [-0.7, 0.2, 1.9] {
            let (v, d) = derivative(bind(activate {}, (act, Wrt)), z);
            assert_eq!(v.to_bits(), activate(act, z).to_bits());
            let want = match act {
                Activation::Tanh => 1.0 - z.tanh().powi(2),
                Activation::Sigmoid => {
                    let s = 1.0 / (1.0 + (-z).exp());
                    s * (1.0 - s)
                }
                Activation::Softplus => 1.0 / (1.0 + (-z).exp()),
            };
            assert_close(d, want, 1e-14, "d act / dz");
        }
    }
}
