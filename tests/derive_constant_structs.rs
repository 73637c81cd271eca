//! A borrowed value of a type of the user's passed to a rule's one-direction entry as a
//! constant, `energy_frule(Dual::constant(&spring), Dual::new(x, 1.0))` (also a method's
//! receiver, `Spring::force_frule(Dual::constant(&s), ..)`, and an enum): its tangent is
//! zero by its type (`ConstTangent`) and built in memory on entry, so the caller writes no
//! zero tangent struct. Checked against central differences of the plain function,
//! closed forms, the same call with a zero tangent written out, and the drivers with the
//! value bound as a constant; the primal bit for bit.

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use fwdad::NoTangent;

#[derive(Differentiable, Clone, Debug)]
struct Spring {
    k: f64,
    rest: f64,
    coils: usize,
}

#[derive_frule]
fn energy(s: &Spring, x: f64) -> f64 {
    0.5 * s.k * (x - s.rest).powi(2) * s.coils as f64
}

#[test]
fn constant_spring_in_one_direction() {
    let s = Spring {
        k: 3.5,
        rest: 0.4,
        coils: 2,
    };
    let x = 1.3;
    let d = energy_frule(Dual::constant(&s), Dual::new(x, 1.0));
    assert_eq!(d.primal.to_bits(), energy(&s, x).to_bits());
    assert_close(d.tangent, s.k * (x - s.rest) * 2.0, 1e-14, "dE/dx");
    let h = 1e-6;
    let fd = (energy(&s, x + h) - energy(&s, x - h)) / (2.0 * h);
    assert_close(d.tangent, fd, 1e-8, "dE/dx against central differences");
    // The same as the zero tangent written out, and a tangent along k gives dE/dk.
    let zero = SpringTangent {
        k: 0.0,
        rest: 0.0,
        coils: NoTangent,
    };
    let written = energy_frule(Dual::new(&s, &zero), Dual::new(x, 1.0));
    assert_eq!(written.tangent.to_bits(), d.tangent.to_bits());
    let along_k = SpringTangent { k: 1.0, ..zero };
    let dk = energy_frule(Dual::new(&s, &along_k), Dual::constant(x));
    assert_close(dk.tangent, 0.5 * (x - s.rest).powi(2) * 2.0, 1e-14, "dE/dk");
}

/// A polynomial model with its coefficients in a `Vec` (the zero tangent is sized from
/// the value) fitted to data passed as a constant slice.
#[derive(Differentiable, Clone, Debug)]
struct Poly {
    c: Vec<f64>,
}

#[derive_frule]
fn residual(model: &Poly, data: &[f64], shift: f64) -> f64 {
    let mut r = 0.0;
    for (i, &y) in data.iter().enumerate() {
        let t = i as f64 + shift;
        let mut p = 0.0;
        for &c in model.c.iter().rev() {
            p = p * t + c;
        }
        r += (p - y).powi(2);
    }
    r
}

#[test]
fn constant_model_with_a_vec_field() {
    let model = Poly {
        c: vec![0.5, -1.0, 0.25],
    };
    let data = [0.1, -0.2, 0.9, 2.5];
    let shift = 0.3;
    let d = residual_frule(
        Dual::constant(&model),
        Dual::constant(&data[..]),
        Dual::new(shift, 1.0),
    );
    assert_eq!(d.primal.to_bits(), residual(&model, &data, shift).to_bits());
    // Closed form: Σ 2 (p(t) - y) p'(t).
    let mut want = 0.0;
    for (i, &y) in data.iter().enumerate() {
        let t = i as f64 + shift;
        let p = 0.5 - t + 0.25 * t * t;
        want += 2.0 * (p - y) * (-1.0 + 0.5 * t);
    }
    assert_close(d.tangent, want, 1e-12, "d/dshift");
    // The drivers with the model and the data bound as constants: the same derivative.
    let rule = bind(residual {}, (&model, &data[..], Var(0)));
    let (v, g) = gradient(rule, &[shift]);
    assert_eq!(v.to_bits(), d.primal.to_bits());
    assert_close(g[0], want, 1e-12, "gradient");
    let (_, _, hess) = hessian(rule, &[shift]);
    let h = 1e-5;
    let fd = (residual(&model, &data, shift + h) - 2.0 * residual(&model, &data, shift)
        + residual(&model, &data, shift - h))
        / (h * h);
    assert_close(hess[(0, 0)], fd, 1e-5, "hessian");
}

#[derive_frule]
impl Spring {
    fn force(&self, x: f64) -> f64 {
        -self.k * (x - self.rest) * self.coils as f64
    }
}

#[test]
fn constant_receiver_of_a_method_entry() {
    let s = Spring {
        k: 2.0,
        rest: 0.5,
        coils: 3,
    };
    let x = 0.9;
    let d = Spring::force_frule(Dual::constant(&s), Dual::new(x, 1.0));
    assert_eq!(d.primal.to_bits(), s.force(x).to_bits());
    assert_close(d.tangent, -s.k * 3.0, 1e-14, "dF/dx");
}

/// A beam's load, an enum of your own, passed as a constant.
#[derive(Differentiable, Clone, Debug)]
enum Load {
    Point { f: f64 },
    Spread { w: f64, len: f64 },
}

#[derive_frule]
fn moment(load: &Load, x: f64) -> f64 {
    match load {
        Load::Point { f } => f * x.powi(3) / 3.0,
        Load::Spread { w, len } => w * len * x * x / 2.0,
    }
}

#[test]
fn constant_enum() {
    let x = 1.7;
    for load in [Load::Point { f: 2.5 }, Load::Spread { w: 0.8, len: 1.5 }] {
        let d = moment_frule(Dual::constant(&load), Dual::new(x, 1.0));
        assert_eq!(d.primal.to_bits(), moment(&load, x).to_bits());
        let want = match load {
            Load::Point { f } => f * x * x,
            Load::Spread { w, len } => w * len * x,
        };
        assert_close(d.tangent, want, 1e-14, "dM/dx");
    }
}
