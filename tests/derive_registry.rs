//! Calls the macro resolves through its registry of `std` names, written as users write
//! them: float methods in every spelling (method, `f64::` path, `<f64>::` and `<T>::`
//! qualified paths, a float trait), integer methods on struct fields, `std` slice methods
//! next to float ones. Derivatives against analytic formulas and central differences;
//! primals bit for bit.

// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;

/// The magnitude of a damped oscillator's response, every float call spelled differently.
#[derive_frule]
fn response(w: f64, zeta: f64) -> f64 {
    let a = <f64>::abs(1.0 - w * w);
    let b = f64::hypot(a, 2.0 * zeta * w);
    <f64>::recip(b).max(1e-300)
}

/// A generic softplus with a temperature, through `<T>::` and `<T as Float>::` paths.
#[derive_frule]
fn softplus<T: num_traits::Float>(x: T, t: T) -> T {
    let z = x / t;
    t * <T>::ln(T::one() + <T as num_traits::Float>::exp(z))
}

#[derive(Clone, Copy, Differentiable)]
struct Grid {
    h: f64,
    n: usize,
}

/// The energy of a uniform grid: integer methods of a field (`pow`, `min`) next to floats.
#[derive_frule]
fn grid_energy(g: &Grid, x: &[f64]) -> f64 {
    let cells = g.n.pow(2).min(x.len());
    let mut e = 0.0;
    for i in 0..cells {
        e += 0.5 * g.h * x[i] * x[i];
    }
    e / (cells as f64)
}

/// Scales a buffer in place.
#[derive_frule]
fn scale_into(buf: &mut [f64], k: f64) {
    for v in buf.iter_mut() {
        *v *= k;
    }
}

/// Halves of a work buffer lent `&mut` to a helper, then used again (issue 28, item 4):
/// each call reborrows the half, as the plain code does.
#[derive_frule]
fn two_halves(x: &[f64], k: f64) -> f64 {
    let mut work = x.to_vec();
    let (left, right) = work.split_at_mut(2);
    scale_into(left, k);
    scale_into(right, 2.0 * k);
    scale_into(left, k);
    left[0] + right[0] + left[1]
}

fn central(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * x.abs().max(1.0);
    (f(x + h) - f(x - h)) / (2.0 * h)
}

#[test]
fn response_matches_central_differences() {
    for &(w, zeta) in &[(0.3, 0.1), (0.9, 0.05), (1.7, 0.4)] {
        let dw = response_frule(Dual::new(w, 1.0), Dual::new(zeta, 0.0));
        let dz = response_frule(Dual::new(w, 0.0), Dual::new(zeta, 1.0));
        assert_eq!(dw.primal.to_bits(), response(w, zeta).to_bits());
        let fw = central(|v| response(v, zeta), w);
        let fz = central(|v| response(w, v), zeta);
        approx::assert_relative_eq!(dw.tangent, fw, max_relative = 1e-6);
        approx::assert_relative_eq!(dz.tangent, fz, max_relative = 1e-6);
    }
}

#[test]
fn generic_softplus_matches_its_derivative() {
    for &(x, t) in &[(-2.0f64, 0.5f64), (0.3, 1.0), (4.0, 2.0)] {
        let d = softplus_frule(Dual::new(x, 1.0), Dual::new(t, 0.0));
        assert_eq!(d.primal.to_bits(), softplus(x, t).to_bits());
        // d/dx t·ln(1 + e^(x/t)) = σ(x/t).
        let sigma = 1.0 / (1.0 + (-x / t).exp());
        approx::assert_relative_eq!(d.tangent, sigma, max_relative = 1e-12);
        // And in f32, where the path `<T>::ln` names f32's.
        let d32 = softplus_frule(Dual::new(x as f32, 1.0f32), Dual::new(t as f32, 0.0f32));
        assert_eq!(d32.primal.to_bits(), softplus(x as f32, t as f32).to_bits());
        approx::assert_relative_eq!(d32.tangent, sigma as f32, max_relative = 1e-5);
    }
}

#[test]
fn grid_energy_keeps_integer_methods_on_primals() {
    let g = Grid { h: 0.7, n: 2 };
    let x = [0.5, -1.0, 2.0, 0.25, 3.0];
    let dx = [1.0, 0.5, -1.0, 2.0, 4.0];
    let d = grid_energy_frule(
        Dual::new(
            &g,
            &GridTangent {
                h: 0.0,
                n: NoTangent,
            },
        ),
        Dual::new(&x[..], &dx[..]),
    );
    assert_eq!(d.primal.to_bits(), grid_energy(&g, &x).to_bits());
    // cells = min(4, 5) = 4: e = h/2 Σ_{i<4} xᵢ² / 4, de = h Σ xᵢ dxᵢ / 4.
    let expected: f64 = g.h * (0..4).map(|i| x[i] * dx[i]).sum::<f64>() / 4.0;
    approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-14);
    // Along h: Σ xᵢ² / 8.
    let dh = grid_energy_frule(
        Dual::new(
            &g,
            &GridTangent {
                h: 1.0,
                n: NoTangent,
            },
        ),
        Dual::new(&x[..], &[0.0; 5][..]),
    );
    let expected_h: f64 = (0..4).map(|i| x[i] * x[i]).sum::<f64>() / 8.0;
    approx::assert_relative_eq!(dh.tangent, expected_h, max_relative = 1e-14);
}

#[test]
fn split_at_mut_halves_are_reborrowed_for_each_call() {
    let x = [1.5, -2.0, 3.0];
    let dx = [0.25, 1.0, -0.5];
    for &k in &[0.5, -1.25, 2.0] {
        let d = two_halves_frule(Dual::new(&x[..], &dx[..]), Dual::new(k, 1.0));
        assert_eq!(d.primal.to_bits(), two_halves(&x, k).to_bits());
        // f = k²x₀ + 2k x₂ + k²x₁: ∂f/∂k = 2k(x₀ + x₁) + 2x₂, ∂f/∂x = (k², k², 2k).
        let expected =
            2.0 * k * (x[0] + x[1]) + 2.0 * x[2] + k * k * dx[0] + k * k * dx[1] + 2.0 * k * dx[2];
        approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-14);
    }
}
