//! Closures that make closures, as users write them: a factory bound with `let` that
//! returns a `move` closure (`let kernel = |w: f64| move |d: f64| ..; let k = kernel(x[0]);`),
//! one with statements before the closure it returns, one called at once
//! (`make(k)(x)`), one called afresh in a loop; and a function returning `impl Fn` whose
//! result is called twice. Each is checked against central differences in every mode
//! (`check_modes!`, primals bit for bit) and against its closed form.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

/// A Gaussian kernel density at the points `x[1..]`, its width `x[0]` picked by a
/// factory as a kernel-methods user writes it.
#[derive_frule]
fn kernel_density(x: &[f64]) -> f64 {
    let gaussian = |width: f64| move |d: f64| (-d * d / (2.0 * width * width)).exp();
    let k = gaussian(x[0]);
    let mut total = 0.0;
    for i in 1..x.len() {
        total += k(x[i] - 0.5);
    }
    total / (x.len() - 1) as f64
}

#[test]
fn factory_of_a_kernel() {
    let x = [0.8, 0.1, 0.9, 1.7];
    check_modes!(bind(kernel_density {}, (Wrt,)), kernel_density, x);
    // Closed form: each term e^{-d²/(2w²)}, ∂/∂w = term · d²/w³, ∂/∂xᵢ = -term · d/w².
    let (v, g) = gradient(bind(kernel_density {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), kernel_density(&x).to_bits());
    let w = x[0];
    let mut dw = 0.0;
    for i in 1..4 {
        let d: f64 = x[i] - 0.5;
        let t = (-d * d / (2.0 * w * w)).exp();
        dw += t * d * d / (w * w * w) / 3.0;
        assert_close(g[i], -t * d / (w * w) / 3.0, 1e-12, "d/dx_i");
    }
    assert_close(g[0], dw, 1e-12, "d/dwidth");
}

/// Spring energies whose stiffness law is made per spring from the inputs, with a
/// statement before the closure the factory returns, and the factory called afresh in a
/// loop.
#[derive_frule]
fn chain_energy(x: &[f64]) -> f64 {
    let law = |k: f64, rest: f64| {
        let half_k = 0.5 * k;
        move |len: f64| half_k * (len - rest) * (len - rest)
    };
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        let spring = law(1.0 + x[i] * x[i], 0.25);
        e += spring(x[i + 1] - x[i]);
    }
    e
}

#[test]
fn factory_called_in_a_loop() {
    let x = [0.3, 0.9, 1.2, 2.0];
    check_modes!(bind(chain_energy {}, (Wrt,)), chain_energy, x);
    // Closed form: e = Σ ½(1 + xᵢ²)(xᵢ₊₁ - xᵢ - ¼)².
    let (v, g) = gradient(bind(chain_energy {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), chain_energy(&x).to_bits());
    let mut want = [0.0; 4];
    for i in 0..3 {
        let s = x[i + 1] - x[i] - 0.25;
        let k = 1.0 + x[i] * x[i];
        want[i] += x[i] * s * s - k * s;
        want[i + 1] += k * s;
    }
    for i in 0..4 {
        assert_close(g[i], want[i], 1e-12, "d/dx");
    }
}

/// A factory called at once (`scaled(a)(t)`), and a `move` factory capturing a value of
/// the body.
#[derive_frule]
fn scaled_sines(p: &[f64]) -> f64 {
    let phase = p[2];
    let scaled = move |a: f64| move |t: f64| a * (t + phase).sin();
    scaled(p[0])(p[1]) + scaled(2.0)(p[0] * p[1])
}

#[test]
fn factory_called_at_once() {
    let p = [0.7, 1.3, 0.2];
    check_modes!(bind(scaled_sines {}, (Wrt,)), scaled_sines, p);
    let (_, g) = gradient(bind(scaled_sines {}, (Wrt,)), &p);
    let (a, t, ph) = (p[0], p[1], p[2]);
    let c1 = (t + ph).cos();
    let c2 = (a * t + ph).cos();
    assert_close(g[0], (t + ph).sin() + 2.0 * c2 * t, 1e-12, "d/da");
    assert_close(g[1], a * c1 + 2.0 * c2 * a, 1e-12, "d/dt");
    assert_close(g[2], a * c1 + 2.0 * c2, 1e-12, "d/dphase");
}

/// A potential made by a function returning `impl Fn`, called twice.
#[derive_frule]
fn harmonic(k: f64, rest: f64) -> impl Fn(f64) -> f64 {
    move |len| 0.5 * k * (len - rest).powi(2)
}

#[derive_frule]
fn two_bonds(p: &[f64]) -> f64 {
    let bond = harmonic(p[0], 1.0);
    bond(p[1]) + bond(p[2] - p[1])
}

#[test]
fn returned_impl_fn_called_twice() {
    let p = [3.0, 1.4, 2.1];
    check_modes!(bind(two_bonds {}, (Wrt,)), two_bonds, p);
    let (_, g) = gradient(bind(two_bonds {}, (Wrt,)), &p);
    let (k, a, b) = (p[0], p[1] - 1.0, p[2] - p[1] - 1.0);
    assert_close(g[0], 0.5 * (a * a + b * b), 1e-12, "d/dk");
    assert_close(g[1], k * a - k * b, 1e-12, "d/dx1");
    assert_close(g[2], k * b, 1e-12, "d/dx2");
}
