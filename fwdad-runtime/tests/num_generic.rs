//! Generic `T: Float` code, written for floats and never annotated, instantiated at `Dual`
//! in every mode (one direction, batches, second order).
//!
//! Expected values come from finite differences of the plain `f64` instantiation
//! (`test_frule`, `test_frule_batched`, and second differences here) and from derivatives
//! worked out by hand; primals must equal the `f64` instantiation's bit for bit.

// Gradients and Hessians are indexed as the math writes them (`g[i]`, `p[i] p[j]`).
#![allow(clippy::needless_range_loop)]

use fwdad_runtime::testing::{test_frule, test_frule_batched};
use fwdad_runtime::{Batch, Dual, Hyper};
use num_traits::{Float, FloatConst, FromPrimitive, Num, NumCast, One, Signed, ToPrimitive, Zero};
use std::iter::{Product, Sum};

// ---------------------------------------------------------------------------------------
// The user's generic code.

/// Lennard-Jones energy of a cluster of atoms in the plane, `pos = [x0, y0, x1, y1, ..]`.
fn lennard_jones<T: Float>(pos: &[T], sigma: T, eps: T) -> T {
    let n = pos.len() / 2;
    let four = T::from(4.0).unwrap();
    let mut e = T::zero();
    for i in 0..n {
        for j in (i + 1)..n {
            let dx = pos[2 * i] - pos[2 * j];
            let dy = pos[2 * i + 1] - pos[2 * j + 1];
            let r = dx.hypot(dy);
            let s6 = (sigma / r).powi(6);
            e = e + four * eps * (s6 * s6 - s6);
        }
    }
    e
}

/// `log Σ exp(z_i)`, shifted by the maximum (argmin_testfunctions' `fold` idiom).
fn log_sum_exp<T: Float + Sum>(z: &[T]) -> T {
    let m = z.iter().copied().fold(T::neg_infinity(), T::max);
    m + z.iter().map(|&v| (v - m).exp()).sum::<T>().ln()
}

/// `sin(x)/x`, with the removable singularity handled as everyone writes it.
fn sinc<T: Float>(x: T) -> T {
    if x == T::zero() {
        T::one()
    } else {
        x.sin() / x
    }
}

/// Planck's law in wavelength form, `B = a λ⁻⁵ / (exp(b / (λ T)) - 1)`, in units where
/// `a = 1` and `b = 1.4388e4` µm·K (λ in µm, T in K).
fn planck<T: Float + FromPrimitive>(lambda: T, temp: T) -> T {
    let b = T::from_f64(1.4388e4).unwrap();
    lambda.powi(-5) / (b / (lambda * temp)).exp_m1()
}

/// Damped oscillator displacement `x(t) = A e^{-ζωt} cos(ω_d t + φ)`, `ω_d = ω√(1-ζ²)`.
fn damped_oscillator<T: Float>(amp: T, zeta: T, omega: T, t: T) -> T {
    let omega_d = omega * (T::one() - zeta * zeta).sqrt();
    amp * (-zeta * omega * t).exp() * (omega_d * t).cos()
}

/// Geometric mean through `Product`, and the root mean square through `Sum`.
fn geometric_mean<T: Float + Product>(x: &[T]) -> T {
    let n = T::from(x.len()).unwrap();
    x.iter().copied().product::<T>().powf(n.recip())
}

fn rms<T: Float + Sum>(x: &[T]) -> T {
    let n = T::from(x.len()).unwrap();
    (x.iter().map(|&v| v * v).sum::<T>() / n).sqrt()
}

fn mean<'a, T: Float + Sum<&'a T>>(x: &'a [T]) -> T {
    x.iter().sum::<T>() / T::from(x.len()).unwrap()
}

/// Huber loss with `Signed` and `clamp`, as robust statistics code writes it.
fn huber<T: Float + Signed>(r: &[T], delta: T) -> T {
    let half = T::from(0.5).unwrap();
    r.iter().fold(T::zero(), |acc, &x| {
        let a = Signed::abs(&x);
        if a <= delta {
            acc + half * x * x
        } else {
            acc + delta * (a - half * delta)
        }
    })
}

// ---------------------------------------------------------------------------------------
// Helpers.

type H = Dual<f64, Hyper<f64, f64>>;

/// The zero second-order tangent (a constant).
const HZ: Hyper<f64, f64> = Hyper {
    d1: 0.0,
    d2: 0.0,
    d12: 0.0,
};

fn duals(x: &[f64], dx: &[f64]) -> Vec<Dual<f64>> {
    x.iter().zip(dx).map(|(&p, &t)| Dual::new(p, t)).collect()
}

/// The `N` unit directions of `x` as batch tangents (a whole gradient in one pass).
fn seeded<const N: usize>(x: &[f64; N]) -> [Dual<f64, Batch<f64, N>>; N] {
    core::array::from_fn(|i| Dual::new(x[i], Batch::unit(i)))
}

/// `x` perturbed along `u` (first) and `v` (second): the output's `d12` is `uᵀ∇²f v`.
fn hyper(x: &[f64], u: &[f64], v: &[f64]) -> Vec<H> {
    (0..x.len())
        .map(|i| {
            Dual::new(
                x[i],
                Hyper {
                    d1: u[i],
                    d2: v[i],
                    d12: 0.0,
                },
            )
        })
        .collect()
}

fn unit(n: usize, i: usize) -> Vec<f64> {
    (0..n).map(|k| if k == i { 1.0 } else { 0.0 }).collect()
}

#[track_caller]
fn assert_close(got: f64, want: f64, rtol: f64) {
    assert!(
        (got - want).abs() <= rtol * want.abs().max(1.0),
        "got {got:e}, want {want:e} (rtol {rtol:e})"
    );
}

/// Central second difference of `f` along `u` and `v`: `uᵀ∇²f v`.
fn fd_second(f: impl Fn(&[f64]) -> f64, x: &[f64], u: &[f64], v: &[f64], h: f64) -> f64 {
    let at = |a: f64, b: f64| {
        let p: Vec<f64> = (0..x.len()).map(|i| x[i] + a * u[i] + b * v[i]).collect();
        f(&p)
    };
    (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4.0 * h * h)
}

// ---------------------------------------------------------------------------------------
// Lennard-Jones: analytic gradient and Hessian by finite differences of it.

const LJ_POS: [f64; 6] = [0.0, 0.0, 1.12, 0.05, 0.48, 0.97];

/// The LJ force law written out: `∂E/∂pos`.
fn lennard_jones_gradient(pos: &[f64], sigma: f64, eps: f64) -> Vec<f64> {
    let n = pos.len() / 2;
    let mut g = vec![0.0; pos.len()];
    for i in 0..n {
        for j in (i + 1)..n {
            let (dx, dy) = (pos[2 * i] - pos[2 * j], pos[2 * i + 1] - pos[2 * j + 1]);
            let r = (dx * dx + dy * dy).sqrt();
            let de_dr =
                4.0 * eps * (-12.0 * sigma.powi(12) / r.powi(13) + 6.0 * sigma.powi(6) / r.powi(7));
            for (k, d) in [(0, dx), (1, dy)] {
                g[2 * i + k] += de_dr * d / r;
                g[2 * j + k] -= de_dr * d / r;
            }
        }
    }
    g
}

#[test]
fn lennard_jones_matches_finite_differences_in_one_direction_and_batches() {
    let (sigma, eps) = (1.0_f64, 0.8_f64);
    test_frule(
        LJ_POS.to_vec(),
        |p| lennard_jones(&p[..], sigma, eps),
        |p, dp| lennard_jones(&duals(p, dp), Dual::new(sigma, 0.0), Dual::new(eps, 0.0)),
    );
    test_frule_batched::<3, _, _>(
        LJ_POS.to_vec(),
        |p| lennard_jones(&p[..], sigma, eps),
        |p, dp| {
            let x: Vec<_> = p
                .iter()
                .zip(dp.iter())
                .map(|(&a, &t)| Dual::new(a, t))
                .collect();
            lennard_jones(
                &x,
                Dual::new(sigma, Batch([0.0; 3])),
                Dual::new(eps, Batch([0.0; 3])),
            )
        },
    );
}

#[test]
fn lennard_jones_gradient_in_one_batch_is_the_force_law() {
    let (sigma, eps) = (1.0_f64, 0.8_f64);
    let want = lennard_jones_gradient(&LJ_POS, sigma, eps);
    let y = lennard_jones(
        &seeded(&LJ_POS),
        Dual::new(sigma, Batch([0.0; 6])),
        Dual::new(eps, Batch([0.0; 6])),
    );
    assert_eq!(
        y.primal.to_bits(),
        lennard_jones(&LJ_POS, sigma, eps).to_bits()
    );
    for i in 0..6 {
        assert_close(y.tangent.0[i], want[i], 1e-12);
    }
    // The parameters are differentiable too: E is linear in ε.
    let y = lennard_jones(
        &duals(&LJ_POS, &[0.0; 6]),
        Dual::new(sigma, 0.0),
        Dual::new(eps, 1.0),
    );
    assert_close(y.tangent, lennard_jones(&LJ_POS, sigma, eps) / eps, 1e-14);
}

#[test]
fn lennard_jones_hessian_is_the_jacobian_of_the_force_law() {
    let (sigma, eps) = (1.0_f64, 0.8_f64);
    let h = 1e-6;
    for i in 0..6 {
        for j in 0..6 {
            let (u, v) = (unit(6, i), unit(6, j));
            let y = lennard_jones(
                &hyper(&LJ_POS, &u, &v),
                Dual::new(sigma, HZ),
                Dual::new(eps, HZ),
            );
            assert_eq!(
                y.primal.to_bits(),
                lennard_jones(&LJ_POS, sigma, eps).to_bits()
            );
            // ∂g_i/∂x_j by central differences of the analytic gradient.
            let mut xp = LJ_POS;
            let mut xm = LJ_POS;
            xp[j] += h;
            xm[j] -= h;
            let want = (lennard_jones_gradient(&xp, sigma, eps)[i]
                - lennard_jones_gradient(&xm, sigma, eps)[i])
                / (2.0 * h);
            assert_close(y.tangent.d12, want, 1e-6);
            assert_close(
                y.tangent.d1,
                lennard_jones_gradient(&LJ_POS, sigma, eps)[i],
                1e-12,
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// log-sum-exp: the gradient is softmax, the Hessian diag(p) - p pᵀ.

#[test]
fn log_sum_exp_gradient_is_softmax_and_hessian_its_jacobian() {
    let z = [0.3, -1.2, 2.0, 0.7];
    let lse = log_sum_exp(&z);
    let p: Vec<f64> = z.iter().map(|v| (v - lse).exp()).collect();

    let y = log_sum_exp(&seeded(&z));
    assert_eq!(y.primal.to_bits(), lse.to_bits());
    for i in 0..4 {
        assert_close(y.tangent.0[i], p[i], 1e-14);
    }
    for i in 0..4 {
        for j in 0..4 {
            let y = log_sum_exp(&hyper(&z, &unit(4, i), &unit(4, j)));
            let want = if i == j {
                p[i] - p[i] * p[j]
            } else {
                -p[i] * p[j]
            };
            assert_close(y.tangent.d12, want, 1e-13);
        }
    }
    test_frule(
        z.to_vec(),
        |x| log_sum_exp(&x[..]),
        |x, dx| log_sum_exp(&duals(x, dx)),
    );
}

#[test]
fn a_hessian_block_in_one_pass_with_batched_first_directions() {
    // d1 a batch of all unit directions, d2 = e_j: one pass gives column j of ∇²f.
    let z = [0.3, -1.2, 2.0];
    let lse = log_sum_exp(&z);
    let p: Vec<f64> = z.iter().map(|v| (v - lse).exp()).collect();
    for j in 0..3 {
        let x: Vec<Dual<f64, Hyper<f64, Batch<f64, 3>>>> = (0..3)
            .map(|i| {
                let d2 = if i == j { 1.0 } else { 0.0 };
                Dual::new(
                    z[i],
                    Hyper {
                        d1: Batch::unit(i),
                        d2,
                        d12: Batch([0.0; 3]),
                    },
                )
            })
            .collect();
        let y = log_sum_exp(&x);
        for i in 0..3 {
            let want = if i == j {
                p[i] - p[i] * p[j]
            } else {
                -p[i] * p[j]
            };
            assert_close(y.tangent.d12.0[i], want, 1e-13);
            assert_close(y.tangent.d1.0[i], p[i], 1e-14);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Branches on comparisons follow the primal.

#[test]
fn sinc_takes_the_float_branches() {
    // At 0 the guard must fire for a dual with a nonzero tangent, as it does for the float.
    let y = sinc(Dual::new(0.0_f64, 1.0));
    assert_eq!(y.primal.to_bits(), sinc(0.0_f64).to_bits());
    assert_eq!(y.tangent, 0.0); // sinc'(0) = 0
    for x in [-2.5_f64, 0.3, 1.7] {
        let y = sinc(Dual::new(x, 1.0));
        assert_eq!(y.primal.to_bits(), sinc(x).to_bits());
        assert_close(y.tangent, (x * x.cos() - x.sin()) / (x * x), 1e-14);
        let h: H = sinc(Dual::new(
            x,
            Hyper {
                d1: 1.0,
                d2: 1.0,
                d12: 0.0,
            },
        ));
        let want = -x.sin() / x - 2.0 * x.cos() / (x * x) + 2.0 * x.sin() / (x * x * x);
        assert_close(h.tangent.d12, want, 1e-13);
    }
}

#[test]
fn huber_loss_switches_branch_on_primals() {
    let r = vec![0.4, -2.5, 1.0, -0.9, 3.0];
    let delta = 1.0;
    // ∂/∂r_i: r_i inside the quadratic zone, ±δ outside; at |r| = δ both pieces give ±δ.
    let want: Vec<f64> = r
        .iter()
        .map(|&x: &f64| {
            if x.abs() <= delta {
                x
            } else {
                delta * x.signum()
            }
        })
        .collect();
    for (i, w) in want.iter().enumerate() {
        let y = huber(&duals(&r, &unit(5, i)), Dual::new(delta, 0.0));
        assert_eq!(y.primal.to_bits(), huber(&r, delta).to_bits());
        assert_eq!(y.tangent, *w);
    }
    // ∂/∂δ = Σ_{|r|>δ} (|r| - δ).
    let y = huber(&duals(&r, &[0.0; 5]), Dual::new(delta, 1.0));
    assert_close(y.tangent, (2.5 - 1.0) + (3.0 - 1.0), 1e-15);
    test_frule(
        (r, 0.7),
        |a| huber(&a.0[..], a.1),
        |a, da| huber(&duals(&a.0, &da.0), Dual::new(a.1, da.1)),
    );
}

// ---------------------------------------------------------------------------------------
// Physics formulas with exp_m1, powi, sqrt, exp, cos; f32 too.

#[test]
fn planck_law_matches_its_derivatives() {
    let (lambda, temp) = (5.0_f64, 900.0_f64);
    let b = 1.4388e4;
    let u = b / (lambda * temp);
    let y = planck(Dual::new(lambda, 0.0), Dual::new(temp, 1.0));
    assert_eq!(y.primal.to_bits(), planck(lambda, temp).to_bits());
    let db_dt = lambda.powi(-5) * u.exp() * u / temp / u.exp_m1().powi(2);
    assert_close(y.tangent, db_dt, 1e-13);
    // Both partials in one pass, against finite differences, at a few temperatures.
    for temp in [300.0, 1500.0, 5800.0] {
        test_frule_batched::<2, _, _>(
            (lambda, temp),
            |a| planck(a.0, a.1),
            |a, da| planck(Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
        );
    }
}

#[test]
fn damped_oscillator_sensitivities_in_every_mode() {
    let (amp, zeta, omega, t) = (1.5_f64, 0.1_f64, 2.0_f64, 3.0_f64);
    let wd = omega * (1.0 - zeta * zeta).sqrt();
    let env = (-zeta * omega * t).exp();
    // ∂x/∂t = A e^{-ζωt} (-ζω cos(ω_d t) - ω_d sin(ω_d t)).
    let dx_dt = amp * env * (-zeta * omega * (wd * t).cos() - wd * (wd * t).sin());
    let y = damped_oscillator(
        Dual::new(amp, 0.0),
        Dual::new(zeta, 0.0),
        Dual::new(omega, 0.0),
        Dual::new(t, 1.0),
    );
    assert_eq!(
        y.primal.to_bits(),
        damped_oscillator(amp, zeta, omega, t).to_bits()
    );
    assert_close(y.tangent, dx_dt, 1e-14);
    // Second derivative in t: the oscillator equation, x'' = -2ζω x' - ω² x.
    let y: H = damped_oscillator(
        Dual::new(amp, HZ),
        Dual::new(zeta, HZ),
        Dual::new(omega, HZ),
        Dual::new(
            t,
            Hyper {
                d1: 1.0,
                d2: 1.0,
                d12: 0.0,
            },
        ),
    );
    let x = damped_oscillator(amp, zeta, omega, t);
    assert_close(
        y.tangent.d12,
        -2.0 * zeta * omega * dx_dt - omega * omega * x,
        1e-13,
    );
    test_frule_batched::<4, _, _>(
        (amp, zeta, omega, t),
        |a| damped_oscillator(a.0, a.1, a.2, a.3),
        |a, da| {
            damped_oscillator(
                Dual::new(a.0, da.0),
                Dual::new(a.1, da.1),
                Dual::new(a.2, da.2),
                Dual::new(a.3, da.3),
            )
        },
    );
}

#[test]
fn f32_duals_instantiate_the_same_code() {
    let (amp, zeta, omega, t) = (1.5_f32, 0.1_f32, 2.0_f32, 3.0_f32);
    let y = damped_oscillator(
        Dual::new(amp, 0.0),
        Dual::new(zeta, 0.0),
        Dual::new(omega, 0.0),
        Dual::new(t, 1.0_f32),
    );
    assert_eq!(
        y.primal.to_bits(),
        damped_oscillator(amp, zeta, omega, t).to_bits()
    );
    let (a, z, w, tt) = (amp as f64, zeta as f64, omega as f64, t as f64);
    let wd = w * (1.0 - z * z).sqrt();
    let want = a * (-z * w * tt).exp() * (-z * w * (wd * tt).cos() - wd * (wd * tt).sin());
    assert!(
        (y.tangent as f64 - want).abs() < 1e-5,
        "{} vs {want}",
        y.tangent
    );
    let s: Dual<f32, Batch<f32, 2>> = log_sum_exp(&[
        Dual::new(1.0_f32, Batch([1.0, 0.0])),
        Dual::new(2.0_f32, Batch([0.0, 1.0])),
    ]);
    assert_eq!(s.primal.to_bits(), log_sum_exp(&[1.0_f32, 2.0]).to_bits());
    let e = 1.0_f64.exp() + 2.0_f64.exp();
    assert!((s.tangent.0[0] as f64 - 1.0_f64.exp() / e).abs() < 1e-6);
    assert!((s.tangent.0[1] as f64 - 2.0_f64.exp() / e).abs() < 1e-6);
}

// ---------------------------------------------------------------------------------------
// Sum and Product.

#[test]
fn sum_and_product_start_as_floats_do() {
    let x = [1.3, 0.4, 2.2];
    let g = geometric_mean(&seeded(&x));
    assert_eq!(g.primal.to_bits(), geometric_mean(&x).to_bits());
    // ∂/∂x_i (Π x)^{1/n} = g / (n x_i).
    for i in 0..3 {
        assert_close(g.tangent.0[i], g.primal / (3.0 * x[i]), 1e-14);
    }
    let r = rms(&seeded(&x));
    assert_eq!(r.primal.to_bits(), rms(&x).to_bits());
    for i in 0..3 {
        assert_close(r.tangent.0[i], x[i] / (3.0 * r.primal), 1e-14);
    }
    let m = mean(&seeded(&x));
    assert_eq!(m.primal.to_bits(), mean(&x).to_bits());
    assert_eq!(m.tangent.0, [1.0 / 3.0; 3]);
    // Empty sums and products: -0.0 and 1.0, as for f64.
    let empty: [Dual<f64>; 0] = [];
    let s: Dual<f64> = empty.iter().sum();
    let sf: f64 = [0.0_f64; 0].iter().sum();
    assert_eq!(s.primal.to_bits(), sf.to_bits());
    let p: Dual<f64> = empty.into_iter().product();
    assert_eq!((p.primal, p.tangent), (1.0, 0.0));
    // -0.0 + -0.0 stays -0.0 in both.
    let s: Dual<f64> = [Dual::new(-0.0, 1.0), Dual::new(-0.0, 2.0)]
        .into_iter()
        .sum();
    let sf: f64 = [-0.0_f64, -0.0].into_iter().sum();
    assert_eq!((s.primal.to_bits(), s.tangent), (sf.to_bits(), 3.0));
}

// ---------------------------------------------------------------------------------------
// Every `Float` method, through the trait, against finite differences (first order, one
// direction and a batch) and second differences (second order).

/// A generic function per method, called by path through the trait.
macro_rules! float_methods {
    ($($name:ident: ($($lo:literal..$hi:literal),+) => |$($x:ident),+| $body:expr;)*) => {$(
        #[test]
        fn $name() {
            fn f<T: Float + FloatConst + Signed>($($x: T),+) -> T {
                $body
            }
            let ranges = [$(($lo, $hi)),+];
            for k in 1..=3 {
                // Points spread through each range.
                let at = |r: (f64, f64)| r.0 + (r.1 - r.0) * (0.13 + 0.27 * k as f64);
                let mut it = ranges.iter().copied().map(at);
                let args = ($({ let $x = it.next().unwrap(); $x },)+);
                test_frule(
                    args,
                    |a| { let ($($x,)+) = *a; f($($x),+) },
                    |a, da| { let ($($x,)+) = *a; let d = *da; let ($($x,)+) = float_methods!(@zip ($($x),+) d); f($($x),+) },
                );
                test_frule_batched::<3, _, _>(
                    args,
                    |a| { let ($($x,)+) = *a; f($($x),+) },
                    |a, da| { let ($($x,)+) = *a; let d = *da; let ($($x,)+) = float_methods!(@zip ($($x),+) d); f($($x),+) },
                );
                // Second order along the diagonal direction (1, 1, ..), against the
                // second difference of the f64 function.
                let ($($x,)+) = args;
                let xs = [$($x),+];
                let ones = vec![1.0; xs.len()];
                let h: Vec<H> = hyper(&xs, &ones, &ones);
                let mut it = h.into_iter();
                let y: H = f($({ let _ = $x; it.next().unwrap() }),+);
                let mut it0 = xs.iter().copied();
                assert_eq!(y.primal.to_bits(), f($({ let _ = $x; it0.next().unwrap() }),+).to_bits());
                let plain = |p: &[f64]| { let mut it = p.iter().copied(); f($({ let _ = $x; it.next().unwrap() }),+) };
                let want = fd_second(plain, &xs, &ones, &ones, 1e-4);
                assert!(
                    (y.tangent.d12 - want).abs() <= 1e-5 * want.abs().max(1.0),
                    "{}: second derivative {} vs {want}", stringify!($name), y.tangent.d12
                );
            }
        }
    )*};
    (@zip ($a:ident) $d:ident) => { (Dual::new($a, $d.0),) };
    (@zip ($a:ident, $b:ident) $d:ident) => { (Dual::new($a, $d.0), Dual::new($b, $d.1)) };
    (@zip ($a:ident, $b:ident, $c:ident) $d:ident) => {
        (Dual::new($a, $d.0), Dual::new($b, $d.1), Dual::new($c, $d.2))
    };
}

float_methods! {
    float_sqrt: (0.5..3.0) => |x| Float::sqrt(x);
    float_cbrt: (0.5..3.0) => |x| Float::cbrt(x);
    float_exp: (-1.0..1.0) => |x| Float::exp(x);
    float_exp2: (-1.0..1.0) => |x| Float::exp2(x);
    float_exp_m1: (-1.0..1.0) => |x| Float::exp_m1(x);
    float_ln: (0.5..3.0) => |x| Float::ln(x);
    float_ln_1p: (0.5..3.0) => |x| Float::ln_1p(x);
    float_log2: (0.5..3.0) => |x| Float::log2(x);
    float_log10: (0.5..3.0) => |x| Float::log10(x);
    float_log: (0.5..3.0, 1.5..4.0) => |x, b| Float::log(x, b);
    float_powi: (0.5..3.0) => |x| Float::powi(x, 3);
    float_powf: (0.5..3.0, -1.0..2.0) => |x, p| Float::powf(x, p);
    float_recip: (0.5..3.0) => |x| Float::recip(x);
    float_sin: (-2.0..2.0) => |x| Float::sin(x);
    float_cos: (-2.0..2.0) => |x| Float::cos(x);
    float_tan: (-1.0..1.0) => |x| Float::tan(x);
    float_asin: (-0.8..0.8) => |x| Float::asin(x);
    float_acos: (-0.8..0.8) => |x| Float::acos(x);
    float_atan: (-2.0..2.0) => |x| Float::atan(x);
    float_atan2: (-2.0..2.0, 0.5..2.0) => |y, x| Float::atan2(y, x);
    float_sin_cos: (-2.0..2.0) => |x| { let (s, c) = Float::sin_cos(x); s * T::from(2.0).unwrap() + c * c * c };
    float_sinh: (-2.0..2.0) => |x| Float::sinh(x);
    float_cosh: (-2.0..2.0) => |x| Float::cosh(x);
    float_tanh: (-2.0..2.0) => |x| Float::tanh(x);
    float_asinh: (-2.0..2.0) => |x| Float::asinh(x);
    float_acosh: (1.5..3.0) => |x| Float::acosh(x);
    float_atanh: (-0.8..0.8) => |x| Float::atanh(x);
    float_hypot: (0.5..2.0, -2.0..-0.5) => |x, y| Float::hypot(x, y);
    float_mul_add: (0.5..2.0, -2.0..-0.5, 1.0..3.0) => |a, b, c| Float::mul_add(a, b, c);
    float_to_degrees: (-2.0..2.0) => |x| Float::to_degrees(x);
    float_to_radians: (-90.0..90.0) => |x| Float::to_radians(x);
    float_abs: (-2.0..-0.5) => |x| Float::abs(x) * x;
    float_signum: (-2.0..-0.5) => |x| Float::signum(x) * x * x;
    float_max: (0.5..1.0, 1.5..2.0) => |a, b| Float::max(a * a, b) + Float::max(b * b, a);
    float_min: (0.5..1.0, 1.5..2.0) => |a, b| Float::min(a * a, b) + Float::min(b * b, a);
    float_clamp: (0.3..0.6, 0.9..1.1) => |x, hi| Float::clamp(x * x, T::zero(), hi) + Float::clamp(x, T::zero(), hi * T::from(0.1).unwrap());
    float_copysign: (0.5..2.0, -2.0..-1.0) => |a, s| Float::copysign(a * a, s);
    float_abs_sub: (1.5..2.0, 0.5..1.0) => |a, b| { #[allow(deprecated)] let y = Float::abs_sub(a * a, b) + Float::abs_sub(b, a); y };
    float_floor_fract: (0.2..3.7) => |x| Float::floor(x) * x + Float::fract(x * x) + Float::ceil(x) + Float::round(x) + Float::trunc(x);
    float_consts: (0.2..3.7) => |x| x * T::PI() + T::E() * x * x + T::epsilon() + T::max_value().recip();
    signed_abs_signum: (-2.0..-0.5) => |x| Signed::abs(&x) * x + Signed::signum(&x) * x * x;
}

// ---------------------------------------------------------------------------------------
// `num_traits::real::Real` (implemented through `Float`).

/// Logistic growth `K / (1 + ((K - N₀)/N₀) e^{-rt})`, written against `Real`.
fn logistic_growth<T: num_traits::real::Real>(n0: T, k: T, r: T, t: T) -> T {
    k / (T::one() + (k - n0) / n0 * (-r * t).exp())
}

#[test]
fn real_bound_instantiates() {
    let (n0, k, r, t) = (10.0_f64, 100.0_f64, 0.3_f64, 5.0_f64);
    let y = logistic_growth(
        Dual::new(n0, 0.0),
        Dual::new(k, 0.0),
        Dual::new(r, 0.0),
        Dual::new(t, 1.0),
    );
    let n = logistic_growth(n0, k, r, t);
    assert_eq!(y.primal.to_bits(), n.to_bits());
    // dN/dt = r N (1 - N/K).
    assert_close(y.tangent, r * n * (1.0 - n / k), 1e-14);
}

// ---------------------------------------------------------------------------------------
// The companion traits.

#[test]
fn conversions_build_constants_and_read_primals() {
    type D = Dual<f64, Batch<f64, 2>>;
    let c: D = NumCast::from(3_u8).unwrap();
    assert_eq!((c.primal, c.tangent), (3.0, Batch([0.0; 2])));
    let c = D::from_f64(0.1).unwrap();
    assert_eq!(c.primal.to_bits(), 0.1_f64.to_bits());
    let c = <Dual<f32, f32> as FromPrimitive>::from_f64(0.1).unwrap();
    assert_eq!(c.primal.to_bits(), 0.1_f32.to_bits());
    let c = D::from_str_radix("2.5", 10).unwrap();
    assert_eq!(c.primal, 2.5);
    assert!(D::from_str_radix("x", 10).is_err());
    let x = D::new(2.75, Batch([1.0, -1.0]));
    assert_eq!(
        (x.to_i32(), x.to_u8(), x.to_f64()),
        (Some(2), Some(2), Some(2.75))
    );
    assert_eq!(D::new(-1.0, Batch([1.0, 0.0])).to_u32(), None);
    assert_eq!((D::zero().primal, D::one().primal), (0.0, 1.0));
    assert!(D::new(0.0, Batch([1.0, 0.0])).is_zero());
    assert!(
        D::new(-0.0, Batch([0.0; 2])).is_negative() && D::new(0.0, Batch([0.0; 2])).is_positive()
    );
    assert!(Float::is_nan(D::nan()) && Float::is_infinite(D::neg_infinity()));
    assert_eq!(Float::integer_decode(x), 2.75_f64.integer_decode());
    assert_eq!(
        Float::classify(D::min_positive_value() / 4.0),
        core::num::FpCategory::Subnormal
    );
}

#[test]
fn comparisons_read_primals() {
    let a = Dual::new(1.0, 5.0);
    let b = Dual::new(1.0, -5.0);
    let c = Dual::new(2.0, 0.0);
    assert!(a == b && a <= b && a >= b);
    assert_eq!(a.partial_cmp(&b), Some(core::cmp::Ordering::Equal));
    assert!(a < c && c > b && a != c);
    assert_eq!(a.partial_cmp(&Dual::new(f64::NAN, 0.0)), None);
}

#[test]
fn operators_with_plain_floats_on_either_side() {
    let x = Dual::new(3.0, Batch([1.0, 2.0]));
    let t = |d: Dual<f64, Batch<f64, 2>>| (d.primal, d.tangent.0);
    assert_eq!(t(2.0 * x), (6.0, [2.0, 4.0]));
    assert_eq!(t(x * 2.0), (6.0, [2.0, 4.0]));
    assert_eq!(t(1.0 - x), (-2.0, [-1.0, -2.0]));
    assert_eq!(t(x - 1.0), (2.0, [1.0, 2.0]));
    assert_eq!(t(x + 1.0), (4.0, [1.0, 2.0]));
    assert_eq!(t(1.0 + x), (4.0, [1.0, 2.0]));
    assert_eq!(t(6.0 / x), (2.0, [-6.0 / 9.0, -12.0 / 9.0]));
    assert_eq!(t(x / 2.0), (1.5, [0.5, 1.0]));
    assert_eq!(t(x % 2.0), (1.0, [1.0, 2.0]));
    assert_eq!(t(7.0 % x), (1.0, [-2.0, -4.0])); // 7 - 3·2: ∂/∂x = -2
    assert_eq!(t(-x), (-3.0, [-1.0, -2.0]));
    let mut y = x;
    y += 1.0;
    y *= x;
    y -= 2.0;
    y /= 2.0;
    y %= 100.0;
    // y = ((x + 1)·x - 2) / 2, y' = (2x + 1)/2 · dx = 3.5 dx
    assert_eq!(t(y), (5.0, [3.5, 7.0]));
    let z = Dual::new(3.0_f32, 1.0_f32);
    assert_eq!((2.0_f32 * z - z / 2.0_f32).tangent, 1.5);
}
