//! Signal-processing code as audio and sensor engineers write it, annotated unmodified: an
//! FIR filter whose delay line is a `VecDeque<f64>` ring buffer (`push_front`,
//! `pop_back`), a moving average over a `VecDeque` window, a biquad in transposed direct
//! form II built by cookbook constructors and run sample by sample through `&mut self`, a
//! Goertzel tone detector over `impl Iterator` frames, and window functions as an enum
//! with data and `const` coefficient tables. Each is checked in every mode against
//! central differences (`check_modes!`, primals bit for bit) and against closed forms.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use std::collections::VecDeque;
use std::f64::consts::PI;

// ---------------------------------------------------------------------------------------
// FIR with a ring buffer.

// Wall: a `VecDeque<f64>` field has no tangent type (docs/limits.md); a local
// `VecDeque` is supported (`smoothed_peak` below). The delay line as a `Vec`.
#[derive(Differentiable, Clone, Debug)]
pub struct Fir {
    taps: Vec<f64>,
    delay: Vec<f64>,
}

#[derive_frule]
impl Fir {
    pub fn new(taps: Vec<f64>) -> Self {
        let n = taps.len();
        Fir {
            taps,
            delay: vec![0.0; n],
        }
    }

    pub fn process(&mut self, x: f64) -> f64 {
        self.delay.pop();
        self.delay.insert(0, x);
        self.taps
            .iter()
            .zip(self.delay.iter())
            .map(|(h, s)| h * s)
            .sum()
    }
}

/// The filter's output energy on a signal.
#[derive_frule]
pub fn fir_energy(taps: &[f64], signal: &[f64]) -> f64 {
    let mut fir = Fir::new(taps.to_vec());
    signal.iter().map(|&x| fir.process(x).powi(2)).sum()
}

#[test]
fn fir_ring_buffer_in_every_mode() {
    let signal: Vec<f64> = (0..24)
        .map(|n| (0.4 * n as f64).sin() + 0.1 * n as f64 % 0.7)
        .collect();
    let taps = [0.25, 0.5, 0.25, -0.1];
    check_modes!(
        bind(fir_energy {}, (Wrt, &signal[..])),
        |t: &[f64]| fir_energy(t, &signal),
        taps
    );
    // The output is linear in the taps: the gradient of the energy is 2 Σ y[n] x[n - k].
    let (_, g) = gradient(bind(fir_energy {}, (Wrt, &signal[..])), &taps);
    let y: Vec<f64> = (0..signal.len())
        .map(|n| {
            (0..4)
                .filter(|&k| k <= n)
                .map(|k| taps[k] * signal[n - k])
                .sum()
        })
        .collect();
    for k in 0..4 {
        let want: f64 = (k..signal.len()).map(|n| 2.0 * y[n] * signal[n - k]).sum();
        assert_close(g[k], want, 1e-12, "d energy / d tap");
    }
}

// ---------------------------------------------------------------------------------------
// A moving average over a `VecDeque` window, then a soft peak.

#[derive_frule]
pub fn smoothed_peak(signal: &[f64], width: usize, sharpness: f64) -> f64 {
    let mut window: VecDeque<f64> = VecDeque::with_capacity(width);
    let mut sum = 0.0;
    let mut smoothed = Vec::new();
    for &x in signal {
        window.push_back(x);
        sum += x;
        if window.len() > width {
            if let Some(old) = window.pop_front() {
                sum -= old;
            }
        }
        smoothed.push(sum / window.len() as f64);
    }
    // A soft maximum of the smoothed signal.
    smoothed
        .iter()
        .map(|s| (sharpness * s).exp())
        .sum::<f64>()
        .ln()
        / sharpness
}

#[test]
fn moving_average_window_in_every_mode() {
    let signal = [0.1, 0.5, 0.9, 1.2, 0.7, 0.3, -0.2, 0.4];
    check_modes!(
        bind(smoothed_peak {}, (Wrt, 3, 4.0)),
        |s: &[f64]| smoothed_peak(s, 3, 4.0),
        signal
    );
}

// ---------------------------------------------------------------------------------------
// A biquad from the cookbook, transposed direct form II.

#[derive(Differentiable, Clone, Debug, Default)]
pub struct Biquad {
    b0: f64,
    b1: f64,
    b2: f64,
    a1: f64,
    a2: f64,
    z1: f64,
    z2: f64,
}

#[derive_frule]
impl Biquad {
    pub fn lowpass(cutoff: f64, q: f64, sample_rate: f64) -> Self {
        let w0 = 2.0 * PI * cutoff / sample_rate;
        let (sin, cos) = w0.sin_cos();
        let alpha = sin / (2.0 * q);
        let a0 = 1.0 + alpha;
        Biquad {
            b0: (1.0 - cos) / 2.0 / a0,
            b1: (1.0 - cos) / a0,
            b2: (1.0 - cos) / 2.0 / a0,
            a1: -2.0 * cos / a0,
            a2: (1.0 - alpha) / a0,
            ..Default::default()
        }
    }

    pub fn peaking(center: f64, q: f64, gain_db: f64, sample_rate: f64) -> Self {
        let a = 10f64.powf(gain_db / 40.0);
        let w0 = 2.0 * PI * center / sample_rate;
        let alpha = w0.sin() / (2.0 * q);
        let a0 = 1.0 + alpha / a;
        Self {
            b0: (1.0 + alpha * a) / a0,
            b1: -2.0 * w0.cos() / a0,
            b2: (1.0 - alpha * a) / a0,
            a1: -2.0 * w0.cos() / a0,
            a2: (1.0 - alpha / a) / a0,
            z1: 0.0,
            z2: 0.0,
        }
    }

    #[inline]
    pub fn tick(&mut self, x: f64) -> f64 {
        let y = self.b0 * x + self.z1;
        self.z1 = self.b1 * x - self.a1 * y + self.z2;
        self.z2 = self.b2 * x - self.a2 * y;
        y
    }

    pub fn process_block(&mut self, input: &[f64], output: &mut [f64]) {
        for (o, &i) in output.iter_mut().zip(input) {
            *o = self.tick(i);
        }
    }

    /// The magnitude response at `f`.
    pub fn gain_at(&self, f: f64, sample_rate: f64) -> f64 {
        let w = 2.0 * PI * f / sample_rate;
        let (c1, s1) = (w.cos(), -w.sin());
        let (c2, s2) = ((2.0 * w).cos(), -(2.0 * w).sin());
        let (nr, ni) = (
            self.b0 + self.b1 * c1 + self.b2 * c2,
            self.b1 * s1 + self.b2 * s2,
        );
        let (dr, di) = (
            1.0 + self.a1 * c1 + self.a2 * c2,
            self.a1 * s1 + self.a2 * s2,
        );
        ((nr * nr + ni * ni) / (dr * dr + di * di)).sqrt()
    }
}

/// An EQ chain (low-pass then a peak) run over a block; the RMS of the output.
#[derive_frule]
pub fn eq_rms(params: &[f64], input: &[f64]) -> f64 {
    let fs = 48_000.0;
    let mut chain = [
        Biquad::lowpass(params[0], params[1], fs),
        Biquad::peaking(params[2], 1.2, params[3], fs),
    ];
    let mut buf = input.to_vec();
    let mut out = vec![0.0; input.len()];
    for stage in chain.iter_mut() {
        stage.process_block(&buf, &mut out);
        buf.copy_from_slice(&out);
    }
    (buf.iter().map(|y| y * y).sum::<f64>() / buf.len() as f64).sqrt()
}

#[test]
fn biquad_chain_in_every_mode() {
    let input: Vec<f64> = (0..64)
        .map(|n| {
            let t = n as f64 / 48_000.0;
            (2.0 * PI * 440.0 * t).sin() + 0.5 * (2.0 * PI * 9_000.0 * t).sin()
        })
        .collect();
    let p = [2_000.0, 0.707, 1_000.0, 6.0];
    check_modes!(
        bind(eq_rms {}, (Wrt, &input[..])),
        |p: &[f64]| eq_rms(p, &input),
        p
    );
}

#[derive_frule]
fn peak_gain_db(gain_db: f64) -> f64 {
    let eq = Biquad::peaking(1_000.0, 0.9, gain_db, 48_000.0);
    20.0 * eq.gain_at(1_000.0, 48_000.0).log10()
}

#[test]
fn peaking_filter_gain_at_its_centre_is_its_gain() {
    // Closed form: at the centre frequency the peaking EQ's gain is exactly `gain_db`.
    for g in [-6.0, 3.0, 9.5] {
        let (v, d) = derivative(peak_gain_db {}, g);
        assert_eq!(v.to_bits(), peak_gain_db(g).to_bits());
        assert_close(v, g, 1e-9, "gain");
        assert_close(d, 1.0, 1e-9, "d gain / d gain_db");
    }
}

// ---------------------------------------------------------------------------------------
// Goertzel over frames.

/// The power of the bin nearest `target_hz` in each frame, through Goertzel's recurrence.
#[derive_frule]
// Wall: `samples: impl Iterator<Item = f64>` takes constant elements only; an active
// frame's `iter().copied()` is a type error (docs/limits.md). The frame as a slice.
pub fn goertzel_power(samples: &[f64], target_hz: f64, sample_rate: f64, n: usize) -> f64 {
    let k = (0.5 + n as f64 * target_hz / sample_rate).floor();
    let coeff = 2.0 * (2.0 * PI * k / n as f64).cos();
    let (mut s1, mut s2) = (0.0, 0.0);
    for &x in samples.iter().take(n) {
        let s0 = x + coeff * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    s1 * s1 + s2 * s2 - coeff * s1 * s2
}

/// Detects a tone of amplitude `a` and phase `phi` in a frame (with a little noise).
#[derive_frule]
pub fn tone_power(p: &[f64], n: usize) -> f64 {
    let (a, phi) = (p[0], p[1]);
    let frame: Vec<f64> = (0..n)
        .map(|i| a * (2.0 * PI * 8.0 * i as f64 / n as f64 + phi).cos() + 0.01 * (i % 3) as f64)
        .collect();
    goertzel_power(&frame, 8.0 * 8_000.0 / n as f64, 8_000.0, n)
}

#[test]
fn goertzel_detector_in_every_mode() {
    let n = 32;
    check_modes!(
        bind(tone_power {}, (Wrt, n)),
        |p: &[f64]| tone_power(p, n),
        [0.8, 0.3]
    );
}

// ---------------------------------------------------------------------------------------
// Window functions.

const BLACKMAN: [f64; 3] = [0.42, 0.5, 0.08];

#[derive(Differentiable, Clone, Copy, Debug)]
pub enum Window {
    Rectangular,
    Hann,
    Blackman,
    /// A Tukey window with taper fraction `alpha`.
    Tukey(f64),
    /// A Gaussian window of width `sigma` (relative to half the length).
    Gaussian {
        sigma: f64,
    },
}

#[derive_frule]
impl Window {
    pub fn coefficient(&self, n: usize, len: usize) -> f64 {
        let m = (len - 1) as f64;
        let x = n as f64 / m;
        match *self {
            Window::Rectangular => 1.0,
            Window::Hann => 0.5 - 0.5 * (2.0 * PI * x).cos(),
            Window::Blackman => {
                BLACKMAN[0] - BLACKMAN[1] * (2.0 * PI * x).cos()
                    + BLACKMAN[2] * (4.0 * PI * x).cos()
            }
            Window::Tukey(alpha) => {
                let edge = alpha / 2.0;
                if x < edge {
                    0.5 * (1.0 - (PI * x / edge).cos())
                } else if x > 1.0 - edge {
                    0.5 * (1.0 - (PI * (1.0 - x) / edge).cos())
                } else {
                    1.0
                }
            }
            Window::Gaussian { sigma } => (-0.5 * ((x - 0.5) / (0.5 * sigma)).powi(2)).exp(),
        }
    }

    pub fn apply(&self, frame: &mut [f64]) {
        let len = frame.len();
        for (n, s) in frame.iter_mut().enumerate() {
            *s *= self.coefficient(n, len);
        }
    }
}

/// The energy of a windowed frame, normalised by the window's own energy.
#[derive_frule]
pub fn windowed_energy(frame: &[f64], window: Window) -> f64 {
    let mut buf = frame.to_vec();
    window.apply(&mut buf);
    let norm: f64 = (0..frame.len())
        .map(|n| window.coefficient(n, frame.len()).powi(2))
        .sum();
    buf.iter().map(|s| s * s).sum::<f64>() / norm
}

#[derive_frule]
fn window_energies(p: &[f64]) -> f64 {
    let frame = &p[2..];
    let windows = [
        Window::Rectangular,
        Window::Hann,
        Window::Blackman,
        Window::Tukey(p[0]),
        Window::Gaussian { sigma: p[1] },
    ];
    windows.iter().map(|&w| windowed_energy(frame, w)).sum()
}

fn window_energies_plain(p: &[f64]) -> f64 {
    window_energies(p)
}

#[test]
fn windows_in_every_mode() {
    let p = [0.4, 0.5, 0.3, -0.2, 0.8, 1.1, 0.6, -0.4, 0.2, 0.9];
    check_modes!(bind(window_energies {}, (Wrt,)), window_energies_plain, p);
    // The Gaussian window's energy in the width: closed form for a constant frame, where
    // the normalised energy is the frame's value squared, whatever σ.
    #[derive_frule]
    fn flat_gauss(s: f64) -> f64 {
        windowed_energy(&[2.0; 9], Window::Gaussian { sigma: s })
    }
    let (v, d) = derivative(flat_gauss {}, 0.7);
    assert_close(v, 4.0, 1e-14, "flat frame");
    assert!(d.abs() < 1e-13, "σ does not matter: {d}");
}
