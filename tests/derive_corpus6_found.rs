//! What the sixth verbatim corpus (`tests/spa_verbatim.rs`) found, in a small program written
//! the way spa 0.5.1 writes its solar position, against closed forms, primals bit for bit:
//! a float backend chosen by a type parameter (`trait FloatOps { fn sin(x: f64) -> f64; .. }`
//! implemented for an empty enum, for `no_std` targets), whose functions a generic body
//! calls through the parameter, `F::sin(x)`. The call was taken for a value of the
//! implementing type (as `V3::new(..)` is), so `2.0 * F::sin(x)` became the user's `Mul`,
//! and rustc could not infer the arithmetic around it (E0282, E0308); the file's declaration
//! of the trait now says the function returns a float. And, from keyframe 1.1.1
//! (`tests/keyframe_verbatim.rs`, its `as_f64(value: impl Float) -> f64`): a parameter
//! `impl Float` was rejected as an `impl Trait` parameter; it is the float type parameter
//! it stands for.

mod common;

use fwdad::prelude::*;

/// The float functions a `no_std` build supplies (spa's `FloatOps`).
#[derive_frule]
pub trait Maths {
    fn sin(x: f64) -> f64;
    fn cos(x: f64) -> f64;
    fn exp(x: f64) -> f64;
}

/// `std`'s, chosen by naming the type (`Maths` has no `self`).
#[derive(fwdad::Differentiable)]
pub enum StdMaths {}

#[derive_frule]
impl Maths for StdMaths {
    fn sin(x: f64) -> f64 {
        f64::sin(x)
    }
    fn cos(x: f64) -> f64 {
        x.cos()
    }
    fn exp(x: f64) -> f64 {
        x.exp()
    }
}

/// A damped wave read through the backend: literals beside `M::sin(..)`, a compound
/// assignment in a branch on the result, a tuple of results.
#[derive_frule]
fn damped<M: Maths>(t: f64, k: f64) -> (f64, f64) {
    let mut y = 2.0 * M::sin(3.0 * t) * M::exp(-k * t);
    if y < 0.0 {
        y += 0.5;
    }
    let mut z = 1.0 - y;
    z *= 0.5;
    (z + M::exp(-t) / 4.0, M::cos(t) * y)
}

#[derive_frule]
fn damped_first(p: &[f64]) -> f64 {
    damped::<StdMaths>(p[0], p[1]).0
}

#[derive_frule]
fn damped_second(p: &[f64]) -> f64 {
    damped::<StdMaths>(p[0], p[1]).1
}

#[test]
fn a_float_backend_through_a_type_parameter() {
    // y₀ = 2 sin 3t e^{−kt} (plus 0.5 where negative), f = (1 − y)/2 + e^{−t}/4,
    // g = cos t · y.
    for p in [[0.4_f64, 0.7], [1.3, 0.2], [0.05, 2.0]] {
        let (t, k) = (p[0], p[1]);
        let e = (-k * t).exp();
        let y0 = 2.0 * (3.0 * t).sin() * e;
        let y = if y0 < 0.0 { y0 + 0.5 } else { y0 };
        let dy_dt = 2.0 * (3.0 * (3.0 * t).cos() - k * (3.0 * t).sin()) * e;
        let dy_dk = -t * y0;
        let (v, g) = gradient(damped_first {}, &p);
        assert_eq!(v.to_bits(), damped::<StdMaths>(t, k).0.to_bits());
        let close = |a: f64, b: f64| assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{a} {b}");
        close(g[0], -0.5 * dy_dt - (-t).exp() / 4.0);
        close(g[1], -0.5 * dy_dk);
        let (v, g) = gradient(damped_second {}, &p);
        assert_eq!(v.to_bits(), damped::<StdMaths>(t, k).1.to_bits());
        close(g[0], -t.sin() * y + t.cos() * dy_dt);
        close(g[1], t.cos() * dy_dk);
        crate::check_modes!(damped_first {}, damped_first, p);
        crate::check_modes!(damped_second {}, damped_second, p);
    }
}

/// A blend at a time of any float type, as keyframe's `as_f64(value: impl Float)` takes it.
#[derive_frule]
fn blend(from: f64, to: f64, time: impl num_traits::Float) -> f64 {
    let t = time.to_f64().unwrap();
    from + (to - from) * t * t
}

#[test]
fn an_impl_float_parameter() {
    // ∂/∂from = 1 − t², ∂/∂to = t², ∂/∂t = 2(to − from)t, at an f64 and an f32 time.
    let (from, to) = (1.5, -2.0);
    for t in [0.25_f64, 0.8] {
        let d = blend_frule(Dual::new(from, 0.0), Dual::new(to, 0.0), Dual::new(t, 1.0));
        assert_eq!(d.primal.to_bits(), blend(from, to, t).to_bits());
        assert!((d.tangent - 2.0 * (to - from) * t).abs() < 1e-15);
        let d = blend_frule(Dual::new(from, 1.0), Dual::new(to, 0.0), Dual::new(t, 0.0));
        assert!((d.tangent - (1.0 - t * t)).abs() < 1e-15);
    }
    let t = 0.5_f32;
    let d = blend_frule(Dual::new(from, 0.0), Dual::new(to, 1.0), Dual::new(t, 0.0));
    assert_eq!(d.primal.to_bits(), blend(from, to, t).to_bits());
    assert_eq!(d.tangent, 0.25);
    let d = blend_frule(Dual::new(from, 0.0), Dual::new(to, 0.0), Dual::new(t, 1.0));
    assert_eq!(d.tangent, 2.0 * (to - from) * 0.5);
}
