//! `#[derive(Differentiable)]` structs as parameters of `#[derive_frule]` functions.

use fwdad::prelude::*;

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub k: f64,
    pub n: usize,
}

#[derive_frule]
fn f(p: &Params, x: f64) -> f64 {
    p.k * x * x
}

#[test]
fn derived_rule_reads_struct_fields() {
    let p = Params { k: 2.0, n: 3 };
    let x = 1.5;
    // d/dk and d/dx.
    let dk = f_frule(
        Dual::new(
            &p,
            &ParamsTangent {
                k: 1.0,
                n: NoTangent,
            },
        ),
        Dual::new(x, 0.0),
    );
    assert_eq!(dk.primal, f(&p, x));
    assert_eq!(dk.tangent, x * x);
    let dp = Dual::constant(p).tangent;
    let dx = f_frule(Dual::new(&p, &dp), Dual::new(x, 1.0));
    assert_eq!(dx.tangent, 2.0 * p.k * x);
    // Both at once, batched.
    let db = ParamsTangent {
        k: Batch([1.0, 0.0]),
        n: NoTangent,
    };
    let b = <f as Frule<_, Batch<f64, 2>>>::frule(
        &f {},
        (Dual::new(&p, &db), Dual::new(x, Batch([0.0, 1.0]))),
    );
    assert_eq!(b.tangent.0, [dk.tangent, dx.tangent]);
}

/// The same rule through `test_frule`.
#[test]
fn derived_rule_passes_test_frule() {
    use fwdad::testing::{test_frule, test_frule_batched};
    let args = (Params { k: 2.0, n: 3 }, 1.5);
    test_frule(
        args,
        |a| f(&a.0, a.1),
        |a, da| f_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| f(&a.0, a.1),
        |a, da| {
            <f as Frule<_, Batch<f64, 4>>>::frule(
                &f {},
                (Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
            )
        },
    );
}

/// A tuple struct, built by its constructor from active and constant values.
#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct V2(pub f64, pub f64);

#[derive_frule]
impl V2 {
    fn scaled(&self, s: f64) -> Self {
        Self(self.0 * s, self.1 * s)
    }
}

#[derive_frule]
fn tuple_ctor(v: V2, s: f64) -> f64 {
    let u = V2(v.0 * s, v.1);
    let w = V2(2.0, s).scaled(u.0);
    u.0 * u.1 + w.0 + w.1
}

#[test]
fn tuple_struct_constructors() {
    let (v, s) = (V2(1.5, -0.4), 0.8);
    // f = v0·s·v1 + 2·v0·s + s·v0·s: ∂f/∂s = v0·v1 + 2·v0 + 2·s·v0, ∂f/∂v0 = s·v1 + 2s + s².
    let d = tuple_ctor_frule(Dual::new(v, V2Tangent(0.0, 0.0)), Dual::new(s, 1.0));
    assert_eq!(d.primal, tuple_ctor(v, s));
    approx::assert_relative_eq!(
        d.tangent,
        v.0 * v.1 + 2.0 * v.0 + 2.0 * s * v.0,
        max_relative = 1e-14
    );
    let d = tuple_ctor_frule(Dual::new(v, V2Tangent(1.0, 0.0)), Dual::new(s, 0.0));
    approx::assert_relative_eq!(d.tangent, s * v.1 + 2.0 * s + s * s, max_relative = 1e-14);
}

/// `Option` fields read through a reference.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Layer {
    pub w: f64,
    pub bias: Option<f64>,
    pub scale: Option<f64>,
}

#[derive_frule]
fn layer(p: &Layer, x: f64) -> f64 {
    let mut y = p.w * x + p.bias.unwrap_or(0.0);
    if let Some(s) = p.scale {
        y *= s;
    }
    if p.bias.is_none() {
        y += p.w.min(p.scale.expect("a layer without bias has a scale"));
    }
    y
}

#[test]
fn option_fields_through_references() {
    let p = Layer {
        w: 2.0,
        bias: Some(0.5),
        scale: None,
    };
    let pt = LayerTangent {
        w: 0.0,
        bias: Some(1.0),
        scale: None,
    };
    // y = w·x + b: ∂y/∂b = 1, ∂y/∂x = w.
    let r = layer_frule(Dual::new(&p, &pt), Dual::new(3.0, 0.0));
    assert_eq!((r.primal, r.tangent), (layer(&p, 3.0), 1.0));
    let q = Layer {
        w: 2.0,
        bias: None,
        scale: Some(3.0),
    };
    let qt = LayerTangent {
        w: 1.0,
        bias: None,
        scale: Some(0.0),
    };
    // y = 3·w·x + min(w, 3) with w = 2: ∂y/∂w = 3x + 1.
    let r = layer_frule(Dual::new(&q, &qt), Dual::new(1.5, 0.0));
    assert_eq!((r.primal, r.tangent), (layer(&q, 1.5), 5.5));
}
