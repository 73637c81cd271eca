//! Function values in functions generic over their float type (issue #28's reach): a
//! quadrature written once for `f32` and `f64`, called with closures from derived `f64`
//! code and with functions of duals directly. Derivatives in every mode against closed
//! forms and central differences; primals bit for bit.
use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};
use fwdad::Hyper;
use num_traits::Float;

/// The composite midpoint rule on [a, b] with `n` panels, for any float type.
#[derive_frule]
fn midpoint<T: Float, F: Fn(T) -> T>(f: F, a: T, b: T, n: usize) -> T {
    let h = (b - a) / T::from(n).unwrap();
    let mut s = T::zero();
    for i in 0..n {
        let x = a + (T::from(i).unwrap() + T::from(0.5).unwrap()) * h;
        s = s + f(x);
    }
    s * h
}

/// The mass of an unnormalised Gaussian of width `s` centred at `c`, on [−1, 1].
#[derive_frule]
fn gauss_mass(s: f64, c: f64) -> f64 {
    midpoint(
        |x| (-(x - c) * (x - c) / (2.0 * s * s)).exp(),
        -1.0,
        1.0,
        400,
    )
}

#[test]
fn generic_quadrature_called_with_a_closure_from_f64_code() {
    let (s, c) = (0.6, 0.2);
    let plain = |a: &mut (f64, f64)| gauss_mass(a.0, a.1);
    test_frule((s, c), plain, |a, da| {
        gauss_mass_frule(Dual::new(a.0, da.0), Dual::new(a.1, da.1))
    });
    test_frule_batched::<2, _, _>((s, c), plain, |a, da| {
        <gauss_mass as Frule<_, Batch<f64, 2>>>::frule(
            &gauss_mass {},
            (Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
        )
    });
    // Closed form: ∫ e^{−(x−c)²/2s²} dx = s√(π/2) [erf((1−c)/(s√2)) + erf((1+c)/(s√2))],
    // so ∂/∂c = e^{−(1+c)²/2s²} − e^{−(1−c)²/2s²} (the integrand at the ends), up to the
    // rule's O(h²) error.
    let d = gauss_mass_frule(Dual::new(s, 0.0), Dual::new(c, 1.0));
    assert_eq!(d.primal.to_bits(), gauss_mass(s, c).to_bits());
    let g = |x: f64| (-(x - c) * (x - c) / (2.0 * s * s)).exp();
    approx::assert_relative_eq!(d.tangent, g(-1.0) - g(1.0), max_relative = 1e-4);
    // Second order in s against differences of the derived first derivative.
    let ds = |s: f64| gauss_mass_frule(Dual::new(s, 1.0), Dual::new(c, 0.0)).tangent;
    let fd = (ds(s + 1e-5) - ds(s - 1e-5)) / 2e-5;
    let h = <gauss_mass as Frule<_, Hyper<f64, f64>>>::frule(
        &gauss_mass {},
        (
            Dual::new(
                s,
                Hyper {
                    d1: 1.0,
                    d2: 1.0,
                    d12: 0.0,
                },
            ),
            Dual::new(
                c,
                Hyper {
                    d1: 0.0,
                    d2: 0.0,
                    d12: 0.0,
                },
            ),
        ),
    );
    assert_eq!(h.primal.to_bits(), gauss_mass(s, c).to_bits());
    approx::assert_relative_eq!(h.tangent.d12, fd, max_relative = 1e-6);
}

#[test]
fn generic_quadrature_at_f32_with_a_function_of_duals() {
    // ∫₀^b x² dx over f32 duals, the function of duals written by hand.
    let b = 1.5f32;
    let r = midpoint_frule(
        |x: Dual<f32>| x * x,
        Dual::new(0.0f32, 0.0),
        Dual::new(b, 1.0),
        Dual::new(64, NoTangent),
    );
    assert_eq!(
        r.primal.to_bits(),
        midpoint(|x: f32| x * x, 0.0, b, 64).to_bits()
    );
    // The midpoint rule on x² with n panels is exact up to its known error:
    // M(b) = b³/3 − b³/(12 n²), so dM/db = b² (1 − 1/(4 n²)).
    let n = 64.0f32;
    approx::assert_relative_eq!(
        r.tangent,
        b * b * (1.0 - 1.0 / (4.0 * n * n)),
        max_relative = 1e-5
    );
}
