//! Constructs the third verbatim corpus (`tests/sun_verbatim.rs`, `tests/pid_verbatim.rs`,
//! `tests/deltae_verbatim.rs`) found, each in a small program written the way those crates
//! write it, against closed forms, primals bit for bit: setters and constructors taking
//! `gain: impl Into<T>` of the impl's float type `T` (or `impl Into<f64>`) and storing
//! `gain.into()` (pid's builder `pid.p(10.0, 100.0).i(..)`), which had no rule for `into`
//! on a float whose target the body does not write.

use fwdad::prelude::*;
use num_traits::float::FloatCore;

/// A first-order low-pass filter generic over its float type, configured pid-style.
#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct LowPass<T: FloatCore> {
    pub alpha: T,
    pub gain: T,
    state: T,
}

#[fwdad::derive_frule]
impl<T> LowPass<T>
where
    T: FloatCore,
{
    pub fn new(alpha: impl Into<T>) -> Self {
        Self {
            alpha: alpha.into(),
            gain: T::one(),
            state: T::zero(),
        }
    }

    pub fn gain(&mut self, gain: impl Into<T>) -> &mut Self {
        self.gain = gain.into();
        self
    }

    pub fn next_output(&mut self, input: T) -> T {
        self.state = self.state + self.alpha * (input - self.state);
        self.state * self.gain
    }
}

/// The filter's output after two samples, `p = [alpha, gain, x0, x1]`.
#[derive_frule]
fn two_samples(p: &[f64]) -> f64 {
    let mut f = LowPass::new(p[0]);
    f.gain(p[1]);
    f.next_output(p[2]);
    f.next_output(p[3])
}

#[test]
fn into_of_the_impls_float_type_in_a_builder() {
    // s₁ = a x₀, s₂ = s₁ + a (x₁ − s₁) = a x₁ + a (1 − a) x₀; y = g s₂.
    let p = [0.3, 2.0, 1.5, -0.5];
    let (a, g, x0, x1) = (p[0], p[1], p[2], p[3]);
    let (y, grad) = gradient(two_samples {}, &p);
    assert_eq!(y.to_bits(), two_samples(&p).to_bits());
    let s2 = a * x1 + a * (1.0 - a) * x0;
    let want = [
        g * (x1 + (1.0 - 2.0 * a) * x0),
        s2,
        g * a * (1.0 - a),
        g * a,
    ];
    for k in 0..4 {
        assert!(
            (grad[k] - want[k]).abs() < 1e-14,
            "∂y/∂p{k}: {} against {}",
            grad[k],
            want[k]
        );
    }
}

/// The same with a concrete float type, `impl Into<f64>`.
#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Spring {
    k: f64,
}

#[fwdad::derive_frule]
impl Spring {
    pub fn new(k: impl Into<f64>) -> Self {
        Spring { k: k.into() }
    }

    pub fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

#[derive_frule]
fn spring_energy(p: &[f64]) -> f64 {
    Spring::new(p[0]).energy(p[1])
}

#[test]
fn into_of_f64_in_a_constructor() {
    let p = [3.0, 0.4];
    let (e, g) = gradient(spring_energy {}, &p);
    assert_eq!(e.to_bits(), spring_energy(&p).to_bits());
    assert_eq!(g, [0.5 * p[1] * p[1], p[0] * p[1]]);
}
