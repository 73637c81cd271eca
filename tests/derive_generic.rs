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
    // To rounding: one direction forms the quotient's tangent as `(ȧ - y·ḃ)/b`, a batch
    // from the partials `1/b`, `-y/b` (docs/design.md).
    approx::assert_relative_eq!(b.tangent.0[0], dx, max_relative = 1e-14);
    approx::assert_relative_eq!(b.tangent.0[1], dk, max_relative = 1e-14);
    // And both against the math: ∂/∂x = sech²(kx) + x, ∂/∂k = (x·sech²(kx) - y)/k.
    let (x, k) = (0.3f64, 1.7f64);
    let s2 = 1.0 - (k * x).tanh().powi(2);
    let y = (k * x).tanh() / k;
    approx::assert_relative_eq!(dx, s2 + x, max_relative = 1e-14);
    approx::assert_relative_eq!(dk, (x * s2 - y) / k, max_relative = 1e-14);
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

// ---------------------------------------------------------------------------------------
// Generic bodies as num-traits code writes them: `sum`/`product` of `T`s, `fold` with
// `T::max`/`Float::min`, `T::from`, `T::one()`, `.into()`/`f64::from` conversions and
// `[T; N]::map`. Each is checked against finite differences in one direction and batched
// (`test_frule`, `test_frule_batched`), and the Hessian against one written by hand.
// ---------------------------------------------------------------------------------------

use fwdad::testing::test_frule_batched;
use num_traits::FromPrimitive;
use std::iter::{Product, Sum};

/// The log-sum-exp of a vector, shifted by its maximum for stability.
#[derive_frule]
fn log_sum_exp<T: Float + Sum>(x: &[T]) -> T {
    let m = x.iter().copied().fold(T::neg_infinity(), T::max);
    m + x.iter().map(|&v| (v - m).exp()).sum::<T>().ln()
}

/// The geometric mean of positive numbers.
#[derive_frule]
fn geometric_mean<T: Float + Product>(x: &[T]) -> T {
    let n = T::from(x.len()).unwrap();
    x.iter().copied().product::<T>().powf(T::one() / n)
}

/// The spread of a sample, with the extremes found by `Float::max` and `T::min`.
#[derive_frule]
fn spread<T: Float>(x: &[T]) -> T {
    let hi = x.iter().fold(T::neg_infinity(), |a, &b| Float::max(a, b));
    let lo = x.iter().fold(T::infinity(), |a, &b| T::min(a, b));
    hi - lo
}

/// Mean squared value, accumulated in `f64` whatever the storage type.
#[derive_frule]
fn mean_square<T: Float + Into<f64>>(x: &[T]) -> f64 {
    let mut s = 0.0;
    for &v in x {
        let v: f64 = v.into();
        s += v * v;
    }
    s / x.len() as f64
}

/// A `f32` gain applied to an `f64` signal, the gain converted with `f64::from`; the
/// result converted back to the storage type with `T::from`.
#[derive_frule]
fn gained<T: Float + FromPrimitive>(x: T, gain: f32, offset: f64) -> T {
    let g = f64::from(gain) * offset;
    x * T::from(g).unwrap() + T::from_f64(offset.sin()).unwrap()
}

/// A point scaled and shifted coordinate-wise with `[T; 2]::map`, then its area.
#[derive_frule]
fn mapped_area<T: Float>(p: &[T; 2], s: T) -> T {
    let [a, b] = p.map(|v| v * s + T::one());
    a * b
}

/// `[f64; 3]::map` of an array value.
#[derive_frule]
fn sum_of_squares(p: [f64; 3]) -> f64 {
    let q = p.map(|v| v * v);
    q[0] + q[1] + q[2]
}

#[derive_frule]
fn squash(v: f64) -> f64 {
    v / (1.0 + v * v)
}

/// `[..].map(f64::exp)` of an array literal, and a parameter's `map` with a function of
/// the user's by name.
#[derive_frule]
fn mapped_by_name(p: [f64; 3], s: f64) -> f64 {
    let e = [p[0] * s, p[2]].map(f64::exp);
    let q = p.map(squash);
    e[0] * e[1] + q[0] + q[1] * q[2]
}

/// Slice adapters for the Hessian driver.
#[derive_frule]
fn log_sum_exp_f64(x: &[f64]) -> f64 {
    log_sum_exp(x)
}

#[derive_frule]
fn geometric_mean_f64(x: &[f64]) -> f64 {
    geometric_mean(x)
}

#[derive_frule]
fn mapped_area_f64(x: &[f64]) -> f64 {
    mapped_area(&[x[0], x[1]], x[2])
}

#[test]
fn generic_sum_product_and_fold_match_finite_differences() {
    let x = vec![0.3, -1.2, 2.1, 0.7];
    test_frule(
        (x.clone(),),
        |a| log_sum_exp(&a.0[..]),
        |a, da| log_sum_exp_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule(
        (x.iter().map(|&v| v as f32).collect::<Vec<f32>>(),),
        |a| log_sum_exp(&a.0[..]),
        |a, da| log_sum_exp_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule_batched::<3, _, _>(
        (x.clone(),),
        |a| log_sum_exp(&a.0[..]),
        |a, da| {
            <log_sum_exp as Frule<_, Batch<f64, 3>>>::frule(
                &log_sum_exp {},
                (Dual::new(&a.0[..], &da.0[..]),),
            )
        },
    );
    let pos = vec![0.5, 1.5, 2.25, 4.0];
    test_frule(
        (pos.clone(),),
        |a| geometric_mean(&a.0[..]),
        |a, da| geometric_mean_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule_batched::<2, _, _>(
        (pos.clone(),),
        |a| geometric_mean(&a.0[..]),
        |a, da| {
            <geometric_mean as Frule<_, Batch<f64, 2>>>::frule(
                &geometric_mean {},
                (Dual::new(&a.0[..], &da.0[..]),),
            )
        },
    );
    test_frule(
        (x.clone(),),
        |a| spread(&a.0[..]),
        |a, da| spread_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    // spread = max - min: the tangent is the difference of the extremes' tangents.
    let dx = [0.1, 0.2, 0.3, 0.4];
    let d = spread_frule(Dual::new(&x[..], &dx[..]));
    assert_eq!(d.primal, 2.1 - -1.2);
    approx::assert_relative_eq!(d.tangent, 0.3 - 0.2, max_relative = 1e-15);
}

/// An empty sum is `-0.0` and an empty product `1.0`, as `Sum`/`Product` give them.
#[test]
fn empty_generic_sum_and_product_start_as_std() {
    #[derive_frule]
    fn total<T: Float + Sum>(x: &[T]) -> T {
        x.iter().copied().sum()
    }
    let empty: [f64; 0] = [];
    let d = total_frule(Dual::new(&empty[..], &empty[..]));
    assert_eq!(d.primal.to_bits(), (-0.0f64).to_bits());
    assert_eq!(d.primal.to_bits(), total(&empty).to_bits());
    let d = geometric_mean_frule(Dual::new(&empty[..], &empty[..]));
    assert_eq!(d.primal.to_bits(), geometric_mean(&empty).to_bits());
}

#[test]
fn generic_hessians_match_formulas_by_hand() {
    // log-sum-exp: ∇ = softmax p, ∇² = diag(p) - p pᵀ.
    let x = [0.3, -1.2, 2.1, 0.7];
    let (v, g, h) = fwdad::hessian(log_sum_exp_f64 {}, &x);
    assert_eq!(v, log_sum_exp(&x));
    let z: f64 = x.iter().map(|v| v.exp()).sum();
    let p: Vec<f64> = x.iter().map(|v| v.exp() / z).collect();
    for i in 0..4 {
        approx::assert_relative_eq!(g[i], p[i], max_relative = 1e-13);
        for j in 0..4 {
            let want = if i == j { p[i] } else { 0.0 } - p[i] * p[j];
            approx::assert_relative_eq!(h[(i, j)], want, max_relative = 1e-12, epsilon = 1e-15);
        }
    }
    // Geometric mean g: ∂g/∂xᵢ = g/(n xᵢ), ∂²g/∂xᵢ∂xⱼ = g/(n² xᵢ xⱼ) - δᵢⱼ g/(n xᵢ²).
    let x = [0.5, 1.5, 2.25, 4.0];
    let (v, g, h) = fwdad::hessian(geometric_mean_f64 {}, &x);
    assert_eq!(v, geometric_mean(&x));
    let n = 4.0;
    for i in 0..4 {
        approx::assert_relative_eq!(g[i], v / (n * x[i]), max_relative = 1e-13);
        for j in 0..4 {
            let diag = if i == j { v / (n * x[i] * x[i]) } else { 0.0 };
            let want = v / (n * n * x[i] * x[j]) - diag;
            approx::assert_relative_eq!(h[(i, j)], want, max_relative = 1e-12);
        }
    }
    // Mapped area (p₀ s + 1)(p₁ s + 1) in (p₀, p₁, s).
    let x = [0.4, -0.9, 1.3];
    let (v, g, h) = fwdad::hessian(mapped_area_f64 {}, &x);
    let (a, b, s) = (x[0] * x[2] + 1.0, x[1] * x[2] + 1.0, x[2]);
    assert_eq!(v, a * b);
    let want_g = [s * b, a * s, x[0] * b + a * x[1]];
    let want_h = [
        [0.0, s * s, b + x[1] * s],
        [s * s, 0.0, a + x[0] * s],
        [b + x[1] * s, a + x[0] * s, 2.0 * x[0] * x[1]],
    ];
    for i in 0..3 {
        approx::assert_relative_eq!(g[i], want_g[i], max_relative = 1e-14);
        for j in 0..3 {
            approx::assert_relative_eq!(h[(i, j)], want_h[i][j], max_relative = 1e-14);
        }
    }
}

#[test]
fn conversions_of_generic_and_f32_values() {
    // Stored as `f32`, differentiated through `.into()` to `f64`: d/dxᵢ = 2xᵢ/n.
    let x32 = vec![0.5f32, -1.25, 2.0];
    test_frule(
        (x32.clone(),),
        |a| mean_square(&a.0[..]),
        |a, da| mean_square_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    let dx = [1.0f32, 0.0, 0.0];
    let d = mean_square_frule(Dual::new(&x32[..], &dx[..]));
    assert_eq!(d.primal, mean_square(&x32));
    approx::assert_relative_eq!(d.tangent, 2.0 * 0.5 / 3.0, max_relative = 1e-15);
    test_frule(
        (vec![0.3, -0.8],),
        |a| mean_square(&a.0[..]),
        |a, da| mean_square_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    // gained = x·(gain·offset) + sin(offset), with `T = f32` and `T = f64`.
    for (x, gain, offset) in [(0.7f64, 1.5f32, -0.4f64), (-2.0, 0.25, 1.1)] {
        test_frule(
            (x, gain, offset),
            |a| gained(a.0, a.1, a.2),
            |a, da| {
                gained_frule(
                    Dual::new(a.0, da.0),
                    Dual::new(a.1, da.1),
                    Dual::new(a.2, da.2),
                )
            },
        );
        test_frule(
            (x as f32, gain, offset),
            |a| gained(a.0, a.1, a.2),
            |a, da| {
                gained_frule(
                    Dual::new(a.0, da.0),
                    Dual::new(a.1, da.1),
                    Dual::new(a.2, da.2),
                )
            },
        );
        test_frule_batched::<3, _, _>(
            (x, gain, offset),
            |a| gained(a.0, a.1, a.2),
            |a, da| {
                <gained as Frule<_, Batch<f64, 3>>>::frule(
                    &gained {},
                    (
                        Dual::new(a.0, da.0),
                        Dual::new(a.1, da.1),
                        Dual::new(a.2, da.2),
                    ),
                )
            },
        );
        // ∂/∂gain = x·offset, ∂/∂offset = x·gain + cos(offset), by hand.
        let g = f64::from(gain);
        let d = gained_frule(
            Dual::new(x, 0.0),
            Dual::new(gain, 1.0),
            Dual::new(offset, 0.0),
        );
        approx::assert_relative_eq!(d.tangent, x * offset, max_relative = 1e-15);
        let d = gained_frule(
            Dual::new(x, 0.0),
            Dual::new(gain, 0.0),
            Dual::new(offset, 1.0),
        );
        approx::assert_relative_eq!(d.tangent, x * g + offset.cos(), max_relative = 1e-15);
    }
}

#[test]
fn array_map_with_a_closure() {
    test_frule(
        ([0.4, -0.9], 1.3),
        |a| mapped_area(&a.0, a.1),
        |a, da| mapped_area_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
    );
    test_frule(
        ([0.4f32, -0.9], 1.3f32),
        |a| mapped_area(&a.0, a.1),
        |a, da| mapped_area_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
    );
    test_frule(
        ([0.5, -1.5, 2.0],),
        |a| sum_of_squares(a.0),
        |a, da| sum_of_squares_frule(Dual::new(a.0, da.0)),
    );
    let d = sum_of_squares_frule(Dual::new([0.5, -1.5, 2.0], [1.0, 1.0, 1.0]));
    assert_eq!(d.primal, 0.25 + 2.25 + 4.0);
    approx::assert_relative_eq!(d.tangent, 2.0 * (0.5 - 1.5 + 2.0), max_relative = 1e-15);
}

#[test]
fn array_map_with_a_function_by_name() {
    test_frule(
        ([0.5, -1.5, 2.0], 0.8),
        |a| mapped_by_name(a.0, a.1),
        |a, da| mapped_by_name_frule(Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
    );
    // Closed form along ds only: d/ds e^{p0 s + p2} = p0 e^{p0 s + p2}.
    let p = [0.5, -1.5, 2.0];
    let d = mapped_by_name_frule(Dual::new(p, [0.0; 3]), Dual::new(0.8, 1.0));
    assert_eq!(d.primal, mapped_by_name(p, 0.8));
    approx::assert_relative_eq!(
        d.tangent,
        0.5 * (0.5f64 * 0.8 + 2.0).exp(),
        max_relative = 1e-14
    );
}

/// An array field mapped after binding it to a local of array type.
#[derive(Differentiable)]
struct Frame {
    p: [f64; 3],
}

#[derive_frule]
fn frame_energy(f: &Frame, k: f64) -> f64 {
    let p: [f64; 3] = f.p;
    let q = p.map(|v| k * v * v);
    q[0] + q[1] + q[2]
}

#[test]
fn array_field_mapped_through_a_typed_local() {
    let f = Frame {
        p: [0.5, -1.5, 2.0],
    };
    // d/dk = Σ p², along p = (1, 1, 1): 2k Σ p.
    let df = FrameTangent { p: [1.0, 1.0, 1.0] };
    let d = frame_energy_frule(Dual::new(&f, &df), Dual::new(0.7, 0.0));
    assert_eq!(d.primal, frame_energy(&f, 0.7));
    approx::assert_relative_eq!(
        d.tangent,
        2.0 * 0.7 * (0.5 - 1.5 + 2.0),
        max_relative = 1e-15
    );
    let d = frame_energy_frule(
        Dual::new(&f, &FrameTangent { p: [0.0; 3] }),
        Dual::new(0.7, 1.0),
    );
    approx::assert_relative_eq!(d.tangent, 0.25 + 2.25 + 4.0, max_relative = 1e-15);
}

/// A spring energy accumulated in `f64` through `to_f64()`, as num-traits code converts.
#[derive_frule]
fn spring_energy<T: Float>(x: &[T], k: f64) -> f64 {
    let mut e = 0.0;
    for &v in x {
        let v = v.to_f64().unwrap();
        e += 0.5 * k * v * v;
    }
    e
}

#[test]
fn to_f64_of_generic_values() {
    test_frule(
        (vec![0.5f32, -1.25, 2.0], 3.0),
        |a| spring_energy(&a.0[..], a.1),
        |a, da| spring_energy_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
    test_frule(
        (vec![0.5, -1.25, 2.0], 3.0),
        |a| spring_energy(&a.0[..], a.1),
        |a, da| spring_energy_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
    // ∂e/∂x₁ = k x₁, ∂e/∂k = Σ x²/2, by hand.
    let x = [0.5f32, -1.25, 2.0];
    let d = spring_energy_frule(Dual::new(&x[..], &[0.0, 1.0, 0.0][..]), Dual::new(3.0, 0.0));
    assert_eq!(d.primal, spring_energy(&x, 3.0));
    approx::assert_relative_eq!(d.tangent, 3.0 * -1.25, max_relative = 1e-15);
    let d = spring_energy_frule(Dual::new(&x[..], &[0.0; 3][..]), Dual::new(3.0, 1.0));
    approx::assert_relative_eq!(d.tangent, 0.5 * (0.25 + 1.5625 + 4.0), max_relative = 1e-15);
}

/// `f64::sin(x.into())`: the float function's argument type is the conversion's target.
#[derive_frule]
fn sin_of_generic<T: Float + Into<f64>>(x: T) -> f64 {
    f64::sin(x.into()) * 2.0
}

#[test]
fn into_as_the_argument_of_a_float_function() {
    let d = sin_of_generic_frule(Dual::new(0.4f32, 1.0));
    assert_eq!(d.primal, sin_of_generic(0.4f32));
    approx::assert_relative_eq!(d.tangent, 2.0 * (0.4f32 as f64).cos(), max_relative = 1e-15);
    test_frule(
        (0.4,),
        |a| sin_of_generic(a.0),
        |a, da| sin_of_generic_frule(Dual::new(a.0, da.0)),
    );
}

/// Softmax of a fixed-size array, as written with `[f64; N]::map` (issue 28's list).
#[derive_frule]
fn softmax3(z: [f64; 3]) -> [f64; 3] {
    let m = z[0].max(z[1]).max(z[2]);
    let e = z.map(|v| (v - m).exp());
    let s: f64 = e.iter().sum();
    e.map(|v| v / s)
}

#[derive_frule]
fn softmax_of_slice(x: &[f64]) -> [f64; 3] {
    softmax3([x[0], x[1], x[2]])
}

/// Cross-entropy of class 0 under the softmax: log Σ exp(z) − z₀.
#[derive_frule]
fn cross_entropy0(x: &[f64]) -> f64 {
    let p = softmax3([x[0], x[1], x[2]]);
    -p[0].ln()
}

#[test]
fn softmax_over_an_array_with_map() {
    let x = [0.3, -1.2, 2.0];
    let (p, j) = fwdad::jacobian(softmax_of_slice {}, &x);
    assert_eq!(p, softmax3([x[0], x[1], x[2]]).to_vec());
    // ∂pᵢ/∂zⱼ = pᵢ (δᵢⱼ − pⱼ).
    for i in 0..3 {
        for k in 0..3 {
            let want = p[i] * (if i == k { 1.0 } else { 0.0 } - p[k]);
            assert!(
                (j[(i, k)] - want).abs() < 1e-15,
                "({i}, {k}): {} vs {want}",
                j[(i, k)]
            );
        }
    }
    // One direction: the Jacobian times v.
    let v = [0.5, -1.0, 0.25];
    let (_, t) = fwdad::jvp(softmax_of_slice {}, &x, &v);
    for i in 0..3 {
        let want: f64 = (0..3).map(|k| j[(i, k)] * v[k]).sum();
        assert!((t[i] - want).abs() < 1e-15);
    }
    // Second order: the Hessian of −log p₀ is diag(p) − p pᵀ.
    let (_, g, h) = fwdad::hessian(cross_entropy0 {}, &x);
    for i in 0..3 {
        let gi = p[i] - if i == 0 { 1.0 } else { 0.0 };
        assert!((g[i] - gi).abs() < 1e-14);
        for k in 0..3 {
            let want = if i == k { p[i] } else { 0.0 } - p[i] * p[k];
            assert!((h[(i, k)] - want).abs() < 1e-14, "({i}, {k})");
        }
    }
}

/// Linear interpolation in a uniform table, generic over the float type, its cell found
/// with `to_usize` (`num_traits::ToPrimitive`).
#[derive_frule]
fn lerp_table<T: Float>(table: &[T], x: T, h: T) -> T {
    let k = (x / h).floor().to_usize().unwrap().min(table.len() - 2);
    let t = x / h - T::from(k).unwrap();
    table[k] * (T::one() - t) + table[k + 1] * t
}

#[test]
fn float_to_integer_conversions() {
    // y = x² sampled at 0, 1, 2, ...: on the cell [2, 3] the slope is 9 − 4 = 5, and the
    // table's entries move the value by (1 − t) and t.
    let table = [0.0, 1.0, 4.0, 9.0, 16.0];
    let d = lerp_table_frule(
        Dual::new(&table[..], &[0.0; 5][..]),
        Dual::new(2.5, 1.0),
        Dual::new(1.0, 0.0),
    );
    assert_eq!(d.primal, lerp_table(&table, 2.5, 1.0));
    assert_eq!(d.tangent, 5.0);
    let dt = [0.0, 0.0, 1.0, 2.0, 0.0];
    let d = lerp_table_frule(
        Dual::new(&table[..], &dt[..]),
        Dual::new(2.5, 0.0),
        Dual::new(1.0, 0.0),
    );
    assert_eq!(d.tangent, 0.5 * 1.0 + 0.5 * 2.0);
    let d = lerp_table_frule(
        Dual::new(&[0.0f32, 1.0, 4.0][..], &[0.0f32; 3][..]),
        Dual::new(1.25f32, 1.0),
        Dual::new(1.0f32, 0.0),
    );
    assert_eq!(d.tangent, 3.0);
}

/// A `const fn` stays usable in constants; its rule is an ordinary function.
#[derive_frule]
const fn cube_plus(x: f64, c: f64) -> f64 {
    x * x * x + c
}

const CUBE_AT_TWO: f64 = cube_plus(2.0, 1.0);

#[test]
fn const_fn_keeps_const() {
    assert_eq!(CUBE_AT_TWO, 9.0);
    let d = cube_plus_frule(Dual::new(2.0, 1.0), Dual::new(1.0, 0.0));
    assert_eq!((d.primal, d.tangent), (9.0, 12.0));
}
