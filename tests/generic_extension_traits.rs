//! Extension traits on floats, as code written for readability has them: `trait
//! Activation { fn sigmoid(self) -> Self; }` implemented for `f64` and `f32`, then
//! `x.sigmoid()`. `#[derive_frule]` on the trait and on each `impl` gives the methods
//! rules; calls on floats in derived bodies run them. Checked against closed forms and
//! central differences in one direction, batched and at second order, primals bit for bit.

#[macro_use]
mod common;

use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;

/// Activations, read as methods of the pre-activation.
#[derive_frule]
pub trait Activation {
    fn sigmoid(self) -> Self;
    fn swish(self) -> Self;
    fn softplus(self) -> Self;
    /// A leaky ReLU with slope `alpha` below zero.
    fn leaky_relu(self, alpha: Self) -> Self;
}

#[derive_frule]
impl Activation for f64 {
    fn sigmoid(self) -> Self {
        1.0 / (1.0 + (-self).exp())
    }
    fn swish(self) -> Self {
        self * self.sigmoid()
    }
    fn softplus(self) -> Self {
        if self > 30.0 {
            self
        } else {
            self.exp().ln_1p()
        }
    }
    fn leaky_relu(self, alpha: Self) -> Self {
        if self > 0.0 {
            self
        } else {
            alpha * self
        }
    }
}

#[derive_frule]
impl Activation for f32 {
    fn sigmoid(self) -> Self {
        1.0 / (1.0 + (-self).exp())
    }
    fn swish(self) -> Self {
        self * self.sigmoid()
    }
    fn softplus(self) -> Self {
        if self > 15.0 {
            self
        } else {
            self.exp().ln_1p()
        }
    }
    fn leaky_relu(self, alpha: Self) -> Self {
        if self > 0.0 {
            self
        } else {
            alpha * self
        }
    }
}

/// Interpolation helpers taking the receiver by reference.
#[derive_frule]
pub trait Interp {
    fn lerp_to(&self, other: f64, t: f64) -> f64;
    fn smoothstep(&self) -> f64;
}

#[derive_frule]
impl Interp for f64 {
    fn lerp_to(&self, other: f64, t: f64) -> f64 {
        self + (other - self) * t
    }
    fn smoothstep(&self) -> f64 {
        let t = self.clamp(0.0, 1.0);
        t * t * (3.0 - 2.0 * t)
    }
}

/// A two-layer perceptron on three inputs: weights `w` (3×2, then 2), bias-free.
#[derive_frule]
fn mlp(w: &[f64]) -> f64 {
    let x = [0.5, -1.2, 2.0];
    let mut h = [0.0; 2];
    for j in 0..2 {
        let mut z = 0.0;
        for i in 0..3 {
            z += w[3 * j + i] * x[i];
        }
        h[j] = z.swish();
    }
    (w[6] * h[0] + w[7] * h[1]).sigmoid()
}

/// A loss with each method of the traits.
#[derive_frule]
fn mixed(v: &[f64]) -> f64 {
    let (a, b) = (v[0], v[1]);
    a.softplus() + b.leaky_relu(0.1) + a.lerp_to(b, 0.3) * (0.5 * b).smoothstep()
}

#[derive_frule]
fn mixed32(a: f32, b: f32) -> f32 {
    a.softplus() * b.sigmoid() + b.leaky_relu(0.1)
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

#[test]
fn activations_as_methods_against_closed_forms() {
    for x in [-3.0f64, -0.4, 0.7, 2.5] {
        check_modes!(mixed {}, mixed, [x, 0.5 * x + 0.9]);
        // At b = 3 the smoothstep of b/2 is clamped to one: ∂/∂a = σ(a) + 0.7 (softplus'
        // = σ, the lerp's weight 1 − t), ∂/∂b = 1 + 0.3 (the leaky ReLU above zero).
        let s = 1.0 / (1.0 + (-x).exp());
        let (v, g) = gradient(mixed {}, &[x, 3.0]);
        assert_eq!(v.to_bits(), mixed(&[x, 3.0]).to_bits());
        assert!(close(g[0], s + 0.7, 1e-14));
        assert!(close(g[1], 1.3, 1e-14));
        // Below zero the leaky ReLU's slope is α.
        let (_, g) = gradient(mixed {}, &[x, -1.0]);
        let smooth = 0.0;
        assert!(close(g[1], 0.1 + 0.3 * smooth, 1e-14));
    }
}

#[test]
fn a_perceptron_written_with_activation_methods() {
    let w = [0.3, -0.2, 0.5, 0.1, 0.4, -0.6, 1.2, -0.7];
    check_modes!(mlp {}, mlp, w);
    // ∂/∂w₆ = σ'(z) h₀ with z = w₆h₀ + w₇h₁, by hand.
    let x = [0.5, -1.2, 2.0];
    let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
    let h: Vec<f64> = (0..2)
        .map(|j| {
            let z: f64 = (0..3).map(|i| w[3 * j + i] * x[i]).sum();
            z * sig(z)
        })
        .collect();
    let z = w[6] * h[0] + w[7] * h[1];
    let (_, g) = gradient(mlp {}, &w);
    assert!(close(g[6], sig(z) * (1.0 - sig(z)) * h[0], 1e-14));
}

#[test]
fn f32_impls() {
    for (a, b) in [(0.3f32, -1.2f32), (-2.0, 0.8)] {
        let d = mixed32_frule(Dual::new(a, 1.0), Dual::new(b, 0.0));
        assert_eq!(d.primal.to_bits(), mixed32(a, b).to_bits());
        let sa = 1.0 / (1.0 + (-(a as f64)).exp());
        let sb = 1.0 / (1.0 + (-(b as f64)).exp());
        assert!(close(d.tangent as f64, sa * sb, 1e-6));
        let d = mixed32_frule(Dual::new(a, 0.0), Dual::new(b, 1.0));
        let sp = (a as f64).exp().ln_1p();
        let relu = if b > 0.0 { 1.0 } else { 0.1 };
        assert!(close(d.tangent as f64, sp * sb * (1.0 - sb) + relu, 1e-6));
    }
    let (_, g) = gradient(bind(mixed32_f64 {}, (Var(0), Var(1))), &[0.3, -1.2]);
    assert!(g[0].is_finite() && g[1].is_finite());
}

/// The `f32` model called from `f64` code.
#[derive_frule]
fn mixed32_f64(a: f64, b: f64) -> f64 {
    mixed32(a as f32, b as f32) as f64
}
