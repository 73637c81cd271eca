// An iterator passed from a derived body to a function taking `impl Iterator<Item = f64>`
// or `I: Iterator<Item = f64>`: an iterator has no tangent, and the callee takes an
// iterator parameter's items as constants.
use fwdad::prelude::*;

/// The energy of a stream of samples.
#[derive_frule]
fn energy_of(samples: impl Iterator<Item = f64>) -> f64 {
    samples.map(|s| s * s).sum()
}

/// A frame's energy, its samples handed on as an iterator.
#[derive_frule]
fn frame_energy(frame: &[f64]) -> f64 {
    energy_of(frame.iter().copied())
}

/// The mean of a stream.
#[derive_frule]
fn mean_of<I: Iterator<Item = f64>>(it: I) -> f64 {
    let mut n = 0.0;
    let mut s = 0.0;
    for v in it {
        s += v;
        n += 1.0;
    }
    s / n
}

/// The mean of a frame's doubled samples.
#[derive_frule]
fn frame_mean(frame: &[f64]) -> f64 {
    mean_of(frame.iter().map(|v| v * 2.0))
}

fn main() {}
