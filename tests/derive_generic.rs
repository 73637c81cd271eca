//! Functions generic over `T: num_traits::Float`: the rule is generic too, and works for
//! `f32` and `f64`, in one direction and batched.
use fwdad::prelude::*;
use fwdad::testing::test_frule;
use num_traits::Float;

/// A generic smooth function using `T::from`, `T::one()` and float methods.
#[derive_frule]
fn soft_clip<T: Float>(x: T, k: T) -> T {
    let two = T::from(2.0).unwrap();
    let y = (k * x).tanh() / k;
    y + x * x / two - T::one()
}

/// Generic over slices, calling another generic derived function.
#[derive_frule]
fn total<T>(x: &[T], k: T) -> T
where
    T: Float,
{
    let mut s = T::zero();
    for &v in x.iter() {
        s = s + soft_clip(v, k);
    }
    s
}

/// A const generic parameter.
#[derive_frule]
fn norm_n<const N: usize>(x: [f64; N]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * v;
    }
    s.sqrt()
}

#[test]
fn generic_f64_and_f32() {
    for x in [0.3, -1.2] {
        let k = 1.7;
        let d = soft_clip_frule(Dual::new(x, 1.0), Dual::new(k, 0.0));
        assert_eq!(d.primal, soft_clip(x, k));
        // d/dx [tanh(kx)/k + x²/2 − 1] = 1 − tanh²(kx) + x
        let t = (k * x).tanh();
        approx::assert_relative_eq!(d.tangent, 1.0 - t * t + x, max_relative = 1e-14);
        let d32 = soft_clip_frule(Dual::new(x as f32, 1.0f32), Dual::new(k as f32, 0.0f32));
        assert_eq!(d32.primal, soft_clip(x as f32, k as f32));
        approx::assert_relative_eq!(d32.tangent, (1.0 - t * t + x) as f32, max_relative = 1e-5);
    }
    test_frule(
        (vec![0.2, -0.5, 1.1], 0.8),
        |a| total(&a.0, a.1),
        |a, da| total_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
    test_frule(
        (vec![0.2f32, -0.5, 1.1], 0.8f32),
        |a| total(&a.0, a.1),
        |a, da| total_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
    // The drivers take generic-caller handles too; d/dx total = Σ soft_clip'(x_i).
    let (v, g) = fwdad::gradient(bind_total {}, &[0.2, -0.5, 1.1]);
    assert_eq!(v, bind_total(&[0.2, -0.5, 1.1]));
    let t = (0.8f64 * 0.2).tanh();
    approx::assert_relative_eq!(g[0], 1.0 - t * t + 0.2, max_relative = 1e-14);
}

/// A one-argument wrapper so the drivers can take it.
#[derive_frule]
fn bind_total(x: &[f64]) -> f64 {
    total(x, 0.8)
}

#[test]
fn const_generics_and_batches() {
    let x = [3.0, 4.0];
    let d = norm_n_frule(Dual::new(x, [1.0, 0.0]));
    assert_eq!(d.primal, norm_n(x));
    approx::assert_relative_eq!(d.tangent, 0.6, max_relative = 1e-15);
    let b = <soft_clip as Frule<_, Batch<f64, 2>>>::frule(
        &soft_clip {},
        (
            Dual::new(0.3f64, Batch([1.0, 0.0])),
            Dual::new(1.7f64, Batch([0.0, 1.0])),
        ),
    );
    let dx = soft_clip_frule(Dual::new(0.3, 1.0), Dual::new(1.7, 0.0)).tangent;
    let dk = soft_clip_frule(Dual::new(0.3, 0.0), Dual::new(1.7, 1.0)).tangent;
    assert_eq!(b.tangent.0, [dx, dk]);
}

/// Float methods called by path, the num-traits style: through the type parameter, the
/// trait, and a qualified path.
#[derive_frule]
fn by_path<T: Float>(x: T, y: T) -> T {
    let r = T::sqrt(x * x + y * y);
    let m = T::max(x, y) + Float::min(x, T::zero());
    num_traits::Float::exp(r) + <T as Float>::sin(m) * T::powi(y, 2) + T::atan2(y, x)
}

#[test]
fn float_methods_called_by_path() {
    let (x, y) = (0.7f64, 1.3f64);
    let d = by_path_frule(Dual::new(x, 1.0), Dual::new(y, 0.0));
    assert_eq!(d.primal, by_path(x, y));
    // f = e^r + sin(max(x, y) + min(x, 0))·y² + atan2(y, x) with r = √(x² + y²); here
    // y > x > 0, so max = y, min = 0: ∂f/∂x = e^r·x/r - y/(x² + y²).
    let r = (x * x + y * y).sqrt();
    let want = r.exp() * x / r - y / (x * x + y * y);
    approx::assert_relative_eq!(d.tangent, want, max_relative = 1e-14);
    // ∂f/∂y = e^r·y/r + cos(y)·y² + 2y·sin(y) + x/(x² + y²).
    let d = by_path_frule(Dual::new(x as f32, 0.0), Dual::new(y as f32, 1.0));
    let want = r.exp() * y / r + y.cos() * y * y + 2.0 * y * y.sin() + x / (x * x + y * y);
    approx::assert_relative_eq!(d.tangent, want as f32, max_relative = 1e-5);
}
