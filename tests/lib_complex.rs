//! num-complex inside derived bodies (feature `num-complex`): transfer functions and
//! Fourier sums written with `Complex<f64>`, checked against central finite differences
//! and formulas derived by hand, in one direction, batched and second order; also
//! `Complex<T>` in filter code generic over its float type, at `f64` and `f32`.
//!
//! Run with `cargo test --features num-complex --test lib_complex`.
use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;
use fwdad::Hyper;
use num_complex::Complex;
use num_traits::{Float, FloatConst};
use std::f64::consts::PI;

/// Bode magnitude (dB) of the second-order low-pass `K ωₙ² / (s² + 2ζωₙ s + ωₙ²)` at
/// `s = iω`.
#[derive_frule]
fn bode_magnitude_db(gain: f64, zeta: f64, wn: f64, w: f64) -> f64 {
    let s = Complex::new(0.0, w);
    let h = gain * wn * wn / (s * s + 2.0 * zeta * wn * s + wn * wn);
    20.0 * h.norm().log10()
}

/// Phase (radians) of the same transfer function.
#[derive_frule]
fn bode_phase(gain: f64, zeta: f64, wn: f64, w: f64) -> f64 {
    let s = Complex::new(0.0, w);
    let h = gain * wn * wn / (s * s + 2.0 * zeta * wn * s + wn * wn);
    h.arg()
}

/// Amplitude of the `k`-th DFT coefficient of a real signal, `|Σₜ xₜ e^{−2πikt/n}| / n`.
#[derive_frule]
fn dft_amplitude(x: &[f64], k: usize) -> f64 {
    let n = x.len();
    let mut acc = Complex::new(0.0, 0.0);
    for (t, &xt) in x.iter().enumerate() {
        let angle = -2.0 * PI * (k * t) as f64 / n as f64;
        acc += xt * Complex::from_polar(1.0, angle);
    }
    acc.norm() / n as f64
}

/// A damped oscillation as the real part of a complex exponential, `Re(A e^{(−γ + iω)t})`,
/// with the amplitude as a complex parameter.
#[derive_frule]
fn oscillation(amplitude: &Complex<f64>, gamma: f64, omega: f64, t: f64) -> f64 {
    let z = Complex::new(-gamma, omega) * t;
    let y = amplitude * z.exp();
    y.re + 0.1 * y.conj().im
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

fn central(f: &dyn Fn(&[f64]) -> f64, x: &[f64], v: &[f64], h: f64) -> f64 {
    let at = |s: f64| -> Vec<f64> { x.iter().zip(v).map(|(a, b)| a + s * b).collect() };
    (f(&at(h)) - f(&at(-h))) / (2.0 * h)
}

#[test]
fn bode_magnitude_matches_the_hand_derived_slope() {
    let (gain, zeta, wn) = (2.0, 0.3, 5.0);
    for w in [0.5, 4.0, 5.0, 30.0] {
        let d = bode_magnitude_db_frule(
            Dual::new(gain, 0.0),
            Dual::new(zeta, 0.0),
            Dual::new(wn, 0.0),
            Dual::new(w, 1.0),
        );
        // |H|² = K² ωₙ⁴ / D, D = (ωₙ² − ω²)² + (2ζωₙω)²; dB = 10 log₁₀ |H|²,
        // d dB/dω = −10/ln 10 · D'/D, D' = −4ω(ωₙ² − ω²) + 8ζ²ωₙ²ω.
        let dd = (wn * wn - w * w).powi(2) + (2.0 * zeta * wn * w).powi(2);
        let ddw = -4.0 * w * (wn * wn - w * w) + 8.0 * zeta * zeta * wn * wn * w;
        let db = 10.0 * ((gain * gain * wn.powi(4)) / dd).log10();
        assert!(close(d.primal, db, 1e-13), "{} vs {db}", d.primal);
        assert!(close(d.tangent, -10.0 / 10f64.ln() * ddw / dd, 1e-12));
    }
}

#[test]
fn bode_gradients_and_hessians_match_finite_differences() {
    let p = [2.0, 0.3, 5.0, 4.0];
    let f = |x: &[f64]| bode_magnitude_db(x[0], x[1], x[2], x[3]);
    let (v, g) = fwdad::gradient(bode_db_of {}, &p);
    assert_eq!(v, f(&p));
    for (j, gj) in g.iter().enumerate() {
        let e: Vec<f64> = (0..4).map(|i| f64::from(u8::from(i == j))).collect();
        assert!(close(*gj, central(&f, &p, &e, 1e-6), 1e-8), "∂{j}");
    }
    let (_, g2, h) = fwdad::hessian(bode_db_of {}, &p);
    for j in 0..4 {
        assert!(close(g2[j], g[j], 1e-13));
        let e: Vec<f64> = (0..4).map(|i| f64::from(u8::from(i == j))).collect();
        for i in 0..4 {
            let fd = central(&|y| fwdad::gradient(bode_db_of {}, y).1[i], &p, &e, 1e-5);
            assert!(
                close(h[(i, j)], fd, 1e-6),
                "H[{i},{j}] = {} vs {fd}",
                h[(i, j)]
            );
        }
    }
    let fphase = |x: &[f64]| bode_phase(x[0], x[1], x[2], x[3]);
    let (_, gp) = fwdad::gradient(bode_phase_of {}, &p);
    for (j, gj) in gp.iter().enumerate() {
        let e: Vec<f64> = (0..4).map(|i| f64::from(u8::from(i == j))).collect();
        assert!(
            close(*gj, central(&fphase, &p, &e, 1e-6), 1e-8),
            "∂{j} phase"
        );
    }
    // The phase does not depend on the gain.
    assert_eq!(gp[0], 0.0);
}

/// The drivers take functions of a slice: the Bode magnitude of a parameter vector.
#[derive_frule]
fn bode_db_of(p: &[f64]) -> f64 {
    bode_magnitude_db(p[0], p[1], p[2], p[3])
}

#[derive_frule]
fn bode_phase_of(p: &[f64]) -> f64 {
    bode_phase(p[0], p[1], p[2], p[3])
}

#[test]
fn dft_amplitude_gradient_matches_the_analytic_formula() {
    let x: Vec<f64> = (0..16)
        .map(|t| (0.7 * t as f64).sin() + 0.3 * (2.1 * t as f64).cos())
        .collect();
    let n = x.len() as f64;
    for k in [1, 3] {
        let (a, g) = fwdad::gradient(bind(dft_amplitude {}, (Wrt, k)), &x);
        assert_eq!(a, dft_amplitude(&x, k));
        // X = Σ xₜ e^{−iθₜ}: ∂|X|/∂xₜ = Re(conj(X) e^{−iθₜ}) / |X|, divided by n.
        let (mut re, mut im) = (0.0, 0.0);
        for (t, xt) in x.iter().enumerate() {
            let th = 2.0 * PI * (k * t) as f64 / n;
            re += xt * th.cos();
            im -= xt * th.sin();
        }
        let m = (re * re + im * im).sqrt();
        for (t, gt) in g.iter().enumerate() {
            let th = 2.0 * PI * (k * t) as f64 / n;
            let expected = (re * th.cos() - im * th.sin()) / m / n;
            assert!(close(*gt, expected, 1e-12), "∂/∂x{t}: {gt} vs {expected}");
        }
        // Second order: Hessian-vector product against a difference of gradients.
        let v: Vec<f64> = (0..16).map(|i| 0.1 * i as f64 - 0.5).collect();
        let (_, _, hv) = fwdad::hvp(bind(dft_amplitude {}, (Wrt, k)), &x, &v);
        for (i, hvi) in hv.iter().enumerate() {
            let fd = central(
                &|y| fwdad::gradient(bind(dft_amplitude {}, (Wrt, k)), y).1[i],
                &x,
                &v,
                1e-5,
            );
            assert!(close(*hvi, fd, 1e-6), "(Hv)[{i}] = {hvi} vs {fd}");
        }
    }
}

#[test]
fn complex_parameter_in_every_mode() {
    let a = Complex::new(1.5, -0.4);
    let (gamma, omega, t) = (0.3, 2.0, 1.7);
    // y = Re(A e^{zt}) + 0.1 Im(conj(A e^{zt})), z = −γ + iω.
    let f = |a: Complex<f64>, g: f64| oscillation(&a, g, omega, t);
    let da = Complex::new(0.2, 0.5);
    let d = oscillation_frule(
        Dual::new(&a, &da),
        Dual::new(gamma, 1.0),
        Dual::new(omega, 0.0),
        Dual::new(t, 0.0),
    );
    assert_eq!(d.primal, f(a, gamma));
    let h = 1e-6;
    let fd = (f(a + da * h, gamma + h) - f(a - da * h, gamma - h)) / (2.0 * h);
    assert!(close(d.tangent, fd, 1e-8), "{} vs {fd}", d.tangent);
    // Batched: the two directions (∂/∂Re A, ∂/∂γ) at once. By hand, with e = e^{−γt}:
    // y = e (a_re cos ωt − a_im sin ωt) − 0.1 e (a_re sin ωt + a_im cos ωt).
    let e = (-gamma * t).exp();
    let (c, s) = ((omega * t).cos(), (omega * t).sin());
    let dre = e * c - 0.1 * e * s;
    let dgamma = -t * f(a, gamma);
    let seed = Complex::new(Batch([1.0, 0.0]), Batch([0.0, 0.0]));
    let b = <oscillation as Frule<_, Batch<f64, 2>>>::frule(
        &oscillation {},
        (
            Dual::new(&a, &seed),
            Dual::new(gamma, Batch([0.0, 1.0])),
            Dual::new(omega, Batch([0.0; 2])),
            Dual::new(t, Batch([0.0; 2])),
        ),
    );
    assert!(close(b.tangent.0[0], dre, 1e-14));
    assert!(close(b.tangent.0[1], dgamma, 1e-14));
    // Second order: ∂²y/∂γ² = t² y.
    let hyper = |d1: f64, d2: f64| Hyper { d1, d2, d12: 0.0 };
    let zero = Complex::new(hyper(0.0, 0.0), hyper(0.0, 0.0));
    let out = <oscillation as Frule<_, Hyper<f64, f64>>>::frule(
        &oscillation {},
        (
            Dual::new(&a, &zero),
            Dual::new(gamma, hyper(1.0, 1.0)),
            Dual::new(omega, hyper(0.0, 0.0)),
            Dual::new(t, hyper(0.0, 0.0)),
        ),
    );
    assert!(close(out.tangent.d1, dgamma, 1e-14));
    assert!(close(out.tangent.d12, t * t * f(a, gamma), 1e-13));
}

#[test]
fn dft_amplitude_in_one_direction() {
    let x: Vec<f64> = (0..16)
        .map(|t| (0.7 * t as f64).sin() + 0.3 * (2.1 * t as f64).cos())
        .collect();
    let v: Vec<f64> = (0..16).map(|i| 0.5 - 0.07 * i as f64).collect();
    for k in [1, 3] {
        let d = dft_amplitude_frule(Dual::new(&x[..], &v[..]), Dual::new(k, fwdad::NoTangent));
        assert_eq!(d.primal.to_bits(), dft_amplitude(&x, k).to_bits());
        let fd = central(&|y| dft_amplitude(y, k), &x, &v, 1e-6);
        assert!(close(d.tangent, fd, 1e-8), "k = {k}: {} vs {fd}", d.tangent);
    }
}

/// The Lewis-formula integrand of a Heston pricer, as a quant writes it: `Complex64`,
/// the alias with the scalar fixed, built from differentiated parts.
#[derive_frule]
fn lewis_integrand(u: f64, x: f64, v: f64) -> f64 {
    let z = num_complex::Complex64::new(0.0, u * x).exp();
    let phi = num_complex::Complex64::new(-0.5 * v * u * u, 0.0).exp();
    (z * phi).re / (u * u + 0.25)
}

#[test]
fn complex64_built_from_duals() {
    // Re[e^{iux} e^{−vu²/2}] / (u² + ¼) = cos(ux) e^{−vu²/2} / (u² + ¼).
    let (u, x, v) = (1.3, 0.4, 0.09);
    let f =
        |p: &[f64]| (p[0] * p[1]).cos() * (-0.5 * p[2] * p[0] * p[0]).exp() / (p[0] * p[0] + 0.25);
    let (y, g) = gradient(
        bind(lewis_integrand {}, (Var(0), Var(1), Var(2))),
        &[u, x, v],
    );
    assert_eq!(y, lewis_integrand(u, x, v));
    let e = (-0.5 * v * u * u).exp();
    let den = u * u + 0.25;
    let want = [
        (-x * (u * x).sin() * e - v * u * (u * x).cos() * e) / den
            - (u * x).cos() * e * 2.0 * u / (den * den),
        -u * (u * x).sin() * e / den,
        -0.5 * u * u * (u * x).cos() * e / den,
    ];
    for i in 0..3 {
        assert!(close(g[i], want[i], 1e-13), "d{i}: {} vs {}", g[i], want[i]);
        let mut d = [0.0; 3];
        d[i] = 1.0;
        assert!(close(g[i], central(&f, &[u, x, v], &d, 1e-6), 1e-7));
    }
}

/// Magnitude of an `n`-th order Butterworth low-pass with cutoff `wc` at the frequency
/// `w`, from its poles `e^{iπ(2k+n−1)/2n}` on the unit circle, for any float type.
#[derive_frule]
pub fn butterworth_gain<T: Float + FloatConst>(wc: T, w: T, n: usize) -> T {
    let s = Complex::new(T::zero(), w / wc);
    let mut h = Complex::new(T::one(), T::zero());
    for k in 1..=n {
        let theta = T::PI() * T::from(2 * k + n - 1).unwrap() / T::from(2 * n).unwrap();
        let pole = Complex::from_polar(T::one(), theta);
        h = h / (s - pole);
    }
    h.norm()
}

/// `|H(iω)|` of a second-order low-pass, for any float type: the damping `zeta` and
/// natural frequency `wn` enter as a complex denominator.
#[derive_frule]
pub fn lowpass_gain<T: Float>(zeta: T, wn: T, w: T) -> T {
    let s = Complex::new(T::zero(), w);
    let two = T::from(2.0).unwrap();
    let h = Complex::new(wn * wn, T::zero()) / (s * s + s * (two * zeta * wn) + wn * wn);
    h.norm()
}

#[test]
fn generic_butterworth_matches_its_closed_form() {
    // |H| = (1 + (ω/ω_c)^{2n})^{−1/2}: ∂/∂ω = −n r^{2n−1} (1 + r^{2n})^{−3/2} / ω_c with
    // r = ω/ω_c, and ∂/∂ω_c = −r/ω_c · ∂/∂r.
    let gain = |r: f64, n: i32| (1.0 + r.powi(2 * n)).powf(-0.5);
    let dgain =
        |r: f64, n: i32| -f64::from(n) * r.powi(2 * n - 1) * (1.0 + r.powi(2 * n)).powf(-1.5);
    for n in [2usize, 3, 5] {
        let ni = n as i32;
        let (wc, w) = (2.0, 1.7);
        let r = w / wc;
        let (v, g) = fwdad::gradient(bind(butterworth_gain {}, (Var(0), Var(1), n)), &[wc, w]);
        assert_eq!(v.to_bits(), butterworth_gain(wc, w, n).to_bits());
        assert!((v - gain(r, ni)).abs() < 1e-14);
        assert!((g[1] - dgain(r, ni) / wc).abs() < 1e-13, "{n}");
        assert!((g[0] + r / wc * dgain(r, ni)).abs() < 1e-13, "{n}");
        // Second order in ω against second differences of the plain function.
        let (_, _, hess) = fwdad::hessian(bind(butterworth_gain {}, (Var(0), Var(1), n)), &[wc, w]);
        let h = 1e-4;
        let fd =
            (butterworth_gain(wc, w + h, n) - 2.0 * v + butterworth_gain(wc, w - h, n)) / (h * h);
        assert!(
            (hess[(1, 1)] - fd).abs() < 1e-6,
            "{n}: {} {fd}",
            hess[(1, 1)]
        );
        // The same rule at `f32`, one direction in ω, against the closed form.
        let d = butterworth_gain_frule(
            Dual::new(wc as f32, 0.0),
            Dual::new(w as f32, 1.0),
            Dual::constant(n),
        );
        assert_eq!(
            d.primal.to_bits(),
            butterworth_gain(wc as f32, w as f32, n).to_bits()
        );
        assert!(
            (f64::from(d.tangent) - dgain(r, ni) / wc).abs() < 1e-5,
            "{n}"
        );
    }
}

#[test]
fn generic_lowpass_in_every_mode() {
    let (zeta, wn, w): (f64, f64, f64) = (0.3, 2.0, 1.5);
    // |H| = ωₙ² / √((ωₙ² − ω²)² + (2ζωₙω)²): ∂/∂ζ = −|H| (2ζωₙω)² / (ζ D²), D² the
    // radicand.
    let d2 = (wn * wn - w * w).powi(2) + (2.0 * zeta * wn * w).powi(2);
    let mag = wn * wn / d2.sqrt();
    let dzeta = -mag * (2.0 * zeta * wn * w).powi(2) / (zeta * d2);
    let d = lowpass_gain_frule(Dual::new(zeta, 1.0), Dual::new(wn, 0.0), Dual::new(w, 0.0));
    assert_eq!(d.primal.to_bits(), lowpass_gain(zeta, wn, w).to_bits());
    assert!((d.primal - mag).abs() < 1e-14);
    assert!((d.tangent - dzeta).abs() < 1e-13);
    // Batched: all three partials against central differences.
    let b = <lowpass_gain as Frule<_, Batch<f64, 3>>>::frule(
        &lowpass_gain {},
        (
            Dual::new(zeta, Batch([1.0, 0.0, 0.0])),
            Dual::new(wn, Batch([0.0, 1.0, 0.0])),
            Dual::new(w, Batch([0.0, 0.0, 1.0])),
        ),
    );
    let p = [zeta, wn, w];
    for k in 0..3 {
        let at = |e: f64| {
            let mut q = p;
            q[k] += e;
            lowpass_gain(q[0], q[1], q[2])
        };
        let fd = (at(1e-6) - at(-1e-6)) / 2e-6;
        assert!((b.tangent.0[k] - fd).abs() < 1e-8, "{k}");
    }
    assert!((b.tangent.0[0] - dzeta).abs() < 1e-13);
    // Second order in ζ against second differences.
    let hz = Hyper {
        d1: 0.0,
        d2: 0.0,
        d12: 0.0,
    };
    let out = <lowpass_gain as Frule<_, Hyper<f64, f64>>>::frule(
        &lowpass_gain {},
        (
            Dual::new(
                zeta,
                Hyper {
                    d1: 1.0,
                    d2: 1.0,
                    d12: 0.0,
                },
            ),
            Dual::new(wn, hz),
            Dual::new(w, hz),
        ),
    );
    let h = 1e-4;
    let fd = (lowpass_gain(zeta + h, wn, w) - 2.0 * mag + lowpass_gain(zeta - h, wn, w)) / (h * h);
    assert!((out.tangent.d1 - dzeta).abs() < 1e-13);
    assert!(
        (out.tangent.d12 - fd).abs() < 1e-6,
        "{} {fd}",
        out.tangent.d12
    );
}
