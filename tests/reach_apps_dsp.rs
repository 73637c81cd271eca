//! Signal-processing code as DSP engineers write it with num-complex, annotated
//! unmodified: a naive DFT and its power spectrum, window functions, FIR and biquad IIR
//! filters as structs holding their state and taps (`&mut self` per sample), a biquad's
//! frequency response, Goertzel's algorithm, a phasor and a phase-locked loop, and
//! `Complex<f64>` methods (`exp`, `norm`, `arg`, `conj`, `powf`, `sqrt`, `ln`). Each is
//! checked against central finite differences of the plain function in every mode
//! (`check_modes!`) or against a closed form, primals bit for bit.
//!
//! Run with `cargo test --features num-complex --test reach_apps_dsp`.

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use num_complex::{Complex, Complex64};
use std::f64::consts::PI;

// ---------------------------------------------------------------- spectra and windows

#[derive_frule]
fn dft(x: &[f64]) -> Vec<Complex64> {
    let n = x.len();
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let mut acc = Complex64::new(0.0, 0.0);
        for (t, &v) in x.iter().enumerate() {
            let phase = -2.0 * PI * (k * t) as f64 / n as f64;
            acc += v * Complex64::from_polar(1.0, phase);
        }
        out.push(acc);
    }
    out
}

#[derive_frule]
fn hann(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| 0.5 - 0.5 * (2.0 * PI * i as f64 / (n - 1) as f64).cos())
        .collect()
}

/// The power in bin `k` of a Hann-windowed frame, in dB.
#[derive_frule]
fn windowed_power_db(frame: &[f64], k: usize) -> f64 {
    let w = hann(frame.len());
    let xw: Vec<f64> = frame.iter().zip(&w).map(|(x, w)| x * w).collect();
    let spectrum = dft(&xw);
    10.0 * spectrum[k].norm_sqr().log10()
}

/// Spectral centroid of a frame, `Σ k |X_k| / Σ |X_k|` over the lower half.
#[derive_frule]
fn spectral_centroid(frame: &[f64]) -> f64 {
    let spectrum = dft(frame);
    let half = frame.len() / 2;
    let mut num = 0.0;
    let mut den = 0.0;
    for (k, c) in spectrum.iter().take(half).enumerate() {
        let mag = c.norm();
        num += k as f64 * mag;
        den += mag;
    }
    num / den
}

/// Goertzel's algorithm: the power at bin `k` with one second-order recursion.
#[derive_frule]
fn goertzel(x: &[f64], k: usize) -> f64 {
    let n = x.len();
    let w = 2.0 * PI * k as f64 / n as f64;
    let coeff = 2.0 * w.cos();
    let (mut s1, mut s2) = (0.0, 0.0);
    for &v in x {
        let s0 = v + coeff * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    s1 * s1 + s2 * s2 - coeff * s1 * s2
}

// ---------------------------------------------------------------- filters

/// A direct-form FIR filter with a circular delay line.
#[derive(Clone, Debug, Differentiable)]
pub struct Fir {
    pub taps: Vec<f64>,
    pub delay: Vec<f64>,
    pub pos: usize,
}

#[derive_frule]
impl Fir {
    pub fn new(taps: Vec<f64>) -> Self {
        let n = taps.len();
        Fir {
            taps,
            delay: vec![0.0; n],
            pos: 0,
        }
    }

    pub fn process(&mut self, x: f64) -> f64 {
        let n = self.taps.len();
        self.delay[self.pos] = x;
        let mut y = 0.0;
        for k in 0..n {
            y += self.taps[k] * self.delay[(self.pos + n - k) % n];
        }
        self.pos = (self.pos + 1) % n;
        y
    }
}

/// A biquad in transposed direct form II.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Biquad {
    pub b0: f64,
    pub b1: f64,
    pub b2: f64,
    pub a1: f64,
    pub a2: f64,
    pub z1: f64,
    pub z2: f64,
}

#[derive_frule]
impl Biquad {
    /// The RBJ cookbook low-pass.
    pub fn lowpass(cutoff: f64, q: f64, sample_rate: f64) -> Self {
        let w0 = 2.0 * PI * cutoff / sample_rate;
        let (sin_w0, cos_w0) = w0.sin_cos();
        let alpha = sin_w0 / (2.0 * q);
        let a0 = 1.0 + alpha;
        Biquad {
            b0: (1.0 - cos_w0) / 2.0 / a0,
            b1: (1.0 - cos_w0) / a0,
            b2: (1.0 - cos_w0) / 2.0 / a0,
            a1: -2.0 * cos_w0 / a0,
            a2: (1.0 - alpha) / a0,
            z1: 0.0,
            z2: 0.0,
        }
    }

    pub fn process(&mut self, x: f64) -> f64 {
        let y = self.b0 * x + self.z1;
        self.z1 = self.b1 * x - self.a1 * y + self.z2;
        self.z2 = self.b2 * x - self.a2 * y;
        y
    }

    /// `H(e^{iω})` at `ω` radians per sample.
    pub fn response(&self, w: f64) -> Complex<f64> {
        let z1 = Complex::from_polar(1.0, -w);
        let z2 = z1 * z1;
        (self.b0 + self.b1 * z1 + self.b2 * z2) / (1.0 + self.a1 * z1 + self.a2 * z2)
    }
}

/// Energy of a signal after an FIR filter, as a function of the taps and the signal.
#[derive_frule]
fn fir_output_energy(taps: &[f64], signal: &[f64]) -> f64 {
    let mut fir = Fir::new(taps.to_vec());
    let mut e = 0.0;
    for &x in signal {
        let y = fir.process(x);
        e += y * y;
    }
    e
}

/// The last output of a low-pass biquad driven by a signal, as a function of the cutoff
/// and Q (`[cutoff, q]`).
#[derive_frule]
fn biquad_tail(params: &[f64], signal: &[f64]) -> f64 {
    let mut f = Biquad::lowpass(params[0], params[1], 48_000.0);
    let mut y = 0.0;
    for &x in signal {
        y = f.process(x);
    }
    y
}

/// Magnitude (dB) and phase of the low-pass at a frequency in Hz.
#[derive_frule]
fn biquad_bode(params: &[f64], freq: f64) -> f64 {
    let f = Biquad::lowpass(params[0], params[1], 48_000.0);
    let h = f.response(2.0 * PI * freq / 48_000.0);
    20.0 * h.norm().log10() + h.arg()
}

// ---------------------------------------------------------------- phasors and PLL

/// A complex oscillator advanced by a rotation per sample. (Its fields are read into
/// locals whose type is written, `let z: Complex<f64> = self.z;`: the macro does not see
/// a field's type, docs/limits.md §8.)
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Phasor {
    pub z: Complex<f64>,
    pub step: Complex<f64>,
}

#[derive_frule]
impl Phasor {
    pub fn new(freq: f64, sample_rate: f64) -> Self {
        let w = 2.0 * PI * freq / sample_rate;
        Phasor {
            z: Complex::new(1.0, 0.0),
            step: Complex::new(0.0, w).exp(),
        }
    }

    /// The current sample, then one step on (an oscillator's `next`, not an iterator's).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Complex<f64> {
        let z: Complex<f64> = self.z;
        let step: Complex<f64> = self.step;
        // Renormalised against drift, as oscillators in long loops are.
        let next = z * step;
        self.z = next / next.norm();
        z
    }
}

/// Mixing a signal down with a phasor and summing: one DFT bin by oscillator.
#[derive_frule]
fn phasor_bin(signal: &[f64], freq: f64) -> f64 {
    let mut osc: Phasor = Phasor::new(freq, 1000.0);
    let mut acc = Complex::new(0.0, 0.0);
    for &x in signal {
        let z: Complex<f64> = osc.next();
        acc += x * z.conj();
    }
    acc.norm()
}

/// A second-order phase-locked loop tracking a real input through its analytic phasor.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Pll {
    pub phase: f64,
    pub freq: f64,
    pub kp: f64,
    pub ki: f64,
}

#[derive_frule]
impl Pll {
    pub fn step(&mut self, input: Complex<f64>) -> f64 {
        let err = (input * Complex::from_polar(1.0, -self.phase)).arg();
        self.freq += self.ki * err;
        self.phase += self.freq + self.kp * err;
        err
    }
}

/// The PLL's final phase error locking onto a tone of frequency `w` (rad/sample) and
/// phase offset `phi` (`x = [w, phi, kp]`).
#[derive_frule]
fn pll_lock(x: &[f64], steps: usize) -> f64 {
    let mut pll = Pll {
        phase: 0.0,
        freq: 0.1,
        kp: x[2],
        ki: 0.01,
    };
    let mut err = 0.0;
    for n in 0..steps {
        let input = Complex::from_polar(1.0, x[0] * n as f64 + x[1]);
        err = pll.step(input);
    }
    err + 0.5 * pll.freq
}

// ---------------------------------------------------------------- complex methods

/// A mix of `Complex<f64>` methods: `exp`, `ln`, `sqrt`, `powf`, `conj`, `norm`, `arg`.
#[derive_frule]
fn complex_mix(x: &[f64]) -> f64 {
    let z = Complex::new(x[0], x[1]);
    let w = z.exp() * z.conj() + z.powf(1.5) - z.sqrt() * z.ln();
    w.norm() + 0.3 * w.arg() + (z * z.conj()).re
}

// ================================================================ tests

fn test_signal(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| (0.3 * i as f64).sin() + 0.5 * (1.1 * i as f64 + 0.4).cos() + 0.05 * i as f64)
        .collect()
}

#[test]
fn dft_is_linear_with_the_twiddles_as_its_jacobian() {
    #[derive_frule]
    fn dft_re_im(x: &[f64]) -> Vec<f64> {
        let spectrum = dft(x);
        spectrum.iter().flat_map(|c| [c.re, c.im]).collect()
    }
    let x = test_signal(8);
    let (y, jac) = fwdad::jacobian(dft_re_im {}, &x);
    assert_eq!(y, dft_re_im(&x));
    for k in 0..8 {
        for t in 0..8 {
            let phase = -2.0 * PI * (k * t) as f64 / 8.0;
            assert_close(jac[(2 * k, t)], phase.cos(), 1e-15, "∂Re X/∂x");
            assert_close(jac[(2 * k + 1, t)], phase.sin(), 1e-15, "∂Im X/∂x");
        }
    }
}

#[test]
fn windowed_power_and_centroid_in_every_mode() {
    let x = test_signal(16);
    check_modes!(
        bind(windowed_power_db {}, (Wrt, 3)),
        |x: &[f64]| windowed_power_db(x, 3),
        x
    );
    check_modes!(spectral_centroid {}, |x: &[f64]| spectral_centroid(x), x);
}

#[test]
fn goertzel_is_the_dft_power() {
    let x = test_signal(12);
    check_modes!(bind(goertzel {}, (Wrt, 2)), |x: &[f64]| goertzel(x, 2), x);
    // Goertzel's power is |X_k|², whose gradient is 2 Re(conj(X_k) e^{-iωt}).
    let (p, g) = fwdad::gradient(bind(goertzel {}, (Wrt, 2)), &x);
    let xk = dft(&x)[2];
    assert_close(p, xk.norm_sqr(), 1e-10, "power");
    for (t, gt) in g.iter().enumerate() {
        let e = Complex64::from_polar(1.0, -2.0 * PI * (2 * t) as f64 / 12.0);
        assert_close(*gt, 2.0 * (xk.conj() * e).re, 1e-9, "∂|X|²/∂x");
    }
}

#[test]
fn fir_filter_in_every_mode() {
    let taps = [0.2, 0.5, 0.2, -0.1];
    let signal = test_signal(10);
    check_modes!(
        bind(fir_output_energy {}, (Wrt, &signal[..])),
        |t: &[f64]| fir_output_energy(t, &signal),
        taps
    );
    check_modes!(
        bind(fir_output_energy {}, (&taps[..], Wrt)),
        |s: &[f64]| fir_output_energy(&taps, s),
        signal
    );
}

#[test]
fn biquad_in_every_mode() {
    let signal = test_signal(24);
    let params = [2000.0, 0.9];
    // The output is steep in the cutoff (Hz): differences scaled to each parameter.
    let (y, g) = fwdad::gradient(bind(biquad_tail {}, (Wrt, &signal[..])), &params);
    assert_eq!(y.to_bits(), biquad_tail(&params, &signal).to_bits());
    let (_, _, h) = fwdad::hessian(bind(biquad_tail {}, (Wrt, &signal[..])), &params);
    for k in 0..2 {
        let step = 1e-6 * params[k];
        let (mut p, mut m) = (params, params);
        p[k] += step;
        m[k] -= step;
        let fd = (biquad_tail(&p, &signal) - biquad_tail(&m, &signal)) / (2.0 * step);
        assert_close(g[k], fd, 1e-6, &format!("∂y/∂param{k}"));
        let (_, gp) = fwdad::gradient(bind(biquad_tail {}, (Wrt, &signal[..])), &p);
        let (_, gm) = fwdad::gradient(bind(biquad_tail {}, (Wrt, &signal[..])), &m);
        for j in 0..2 {
            assert_close(
                h[(j, k)],
                (gp[j] - gm[j]) / (2.0 * step),
                1e-5,
                &format!("∂²y/∂p{j}∂p{k}"),
            );
        }
    }
    // At DC the low-pass passes everything: |H(1)| = 1 whatever the cutoff, so the
    // gain's derivative there is zero.
    let (v, gd) = fwdad::gradient(bind(biquad_bode {}, (Wrt, 0.0)), &params);
    assert!(v.abs() < 1e-12, "0 dB at DC: {v}");
    assert!(gd.iter().all(|d| d.abs() < 1e-12), "{gd:?}");
    let (v, gb) = fwdad::gradient(bind(biquad_bode {}, (Wrt, 3000.0)), &params);
    assert_eq!(v.to_bits(), biquad_bode(&params, 3000.0).to_bits());
    for k in 0..2 {
        let step = 1e-6 * params[k];
        let (mut p, mut m) = (params, params);
        p[k] += step;
        m[k] -= step;
        let fd = (biquad_bode(&p, 3000.0) - biquad_bode(&m, 3000.0)) / (2.0 * step);
        assert_close(gb[k], fd, 1e-6, &format!("∂bode/∂param{k}"));
    }
}

#[test]
fn pll_in_every_mode() {
    check_modes!(
        bind(pll_lock {}, (Wrt, 40)),
        |x: &[f64]| pll_lock(x, 40),
        [0.12, 0.3, 0.2]
    );
}

#[test]
fn complex_methods_in_every_mode() {
    check_modes!(complex_mix {}, |x: &[f64]| complex_mix(x), [0.7, 0.4]);
    // Cauchy-Riemann through the rule: for analytic f, ∂Re f/∂x = ∂Im f/∂y.
    #[derive_frule]
    fn analytic(x: &[f64]) -> Vec<f64> {
        let z = Complex::new(x[0], x[1]);
        let w = z.exp() * z.powf(1.5) + z.sqrt();
        vec![w.re, w.im]
    }
    let (_, jac) = fwdad::jacobian(analytic {}, &[0.7, 0.4]);
    assert_close(jac[(0, 0)], jac[(1, 1)], 1e-13, "∂u/∂x = ∂v/∂y");
    assert_close(jac[(0, 1)], -jac[(1, 0)], 1e-13, "∂u/∂y = −∂v/∂x");
}

/// Heston's parameters, as a quant keeps them.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Heston {
    pub v0: f64,
    pub kappa: f64,
    pub theta: f64,
    pub sigma: f64,
    pub rho: f64,
}

/// Real part of Heston's characteristic function of log(S_T/S_0) at `u = w − i/2` (the
/// "little Heston trap" form): float fields meet complex values in every product.
#[derive_frule]
fn heston_cf_re(w: f64, t: f64, p: &Heston) -> f64 {
    let u = Complex64::new(w, -0.5);
    let i = Complex64::new(0.0, 1.0);
    let b = p.kappa - p.rho * p.sigma * i * u;
    let d = (b * b + p.sigma * p.sigma * (u * u + i * u)).sqrt();
    let g = (b - d) / (b + d);
    let e = (-d * t).exp();
    let c = p.kappa * p.theta / (p.sigma * p.sigma)
        * ((b - d) * t - 2.0 * ((1.0 - g * e) / (1.0 - g)).ln());
    let dd = (b - d) / (p.sigma * p.sigma) * ((1.0 - e) / (1.0 - g * e));
    (c + dd * p.v0).exp().re
}

#[derive_frule]
fn heston_cf_of(q: &[f64]) -> f64 {
    let p = Heston {
        v0: q[0],
        kappa: q[1],
        theta: q[2],
        sigma: q[3],
        rho: q[4],
    };
    heston_cf_re(1.3, 0.75, &p)
}

#[test]
fn heston_fields_times_complex_in_every_mode() {
    check_modes!(
        heston_cf_of {},
        |q: &[f64]| heston_cf_of(q),
        [0.05, 2.0, 0.04, 0.5, -0.7]
    );
}
