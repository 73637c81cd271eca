//! A `&mut [f64]` parameter read while it is borrowed (issue 26).
use fwdad::prelude::*;

/// Writes `x` into the buffer, then a weighted sum of it read through `iter()`.
#[derive_frule]
fn weighted_fill(x: f64, out: &mut [f64]) -> f64 {
    out[0] = x;
    out[1] = 2.0 * x;
    let mut s = 0.0;
    for v in out.iter() {
        s += v * out.len() as f64;
    }
    s
}

#[derive_frule]
fn dot_first(a: &[f64], b: f64) -> f64 {
    a[0] * b
}

#[derive_frule]
fn reads_slice_and_elem(x: f64, out: &mut [f64]) -> f64 {
    out[1] = x * x;
    dot_first(&out[..], out[1])
}

#[derive_frule]
fn first_or_zero(x: f64, out: &mut [f64], k: usize) -> f64 {
    out[0] = 3.0 * x;
    let a = out.get(k).copied().unwrap_or(0.0);
    let b = *out.first().unwrap_or(&0.0);
    a + b
}

#[test]
fn reads_of_a_mut_buffer() {
    let mut out = [0.0, 0.0];
    let mut dout = [0.0, 0.0];
    // s = 2 (x + 2x) = 6x.
    let d = weighted_fill_frule(Dual::new(1.5, 1.0), Dual::new(&mut out[..], &mut dout[..]));
    assert_eq!((d.primal, d.tangent), (9.0, 6.0));
    assert_eq!((out, dout), ([1.5, 3.0], [1.0, 2.0]));
    // x² · x² = x⁴: 4x³.
    let (mut out, mut dout) = ([1.0, 0.0], [0.0, 0.0]);
    let d = reads_slice_and_elem_frule(Dual::new(2.0, 1.0), Dual::new(&mut out[..], &mut dout[..]));
    assert_eq!((d.primal, d.tangent), (4.0, 4.0));
    let (mut out, mut dout) = ([0.0, 5.0], [0.0, 0.0]);
    let d = first_or_zero_frule(
        Dual::new(2.0, 1.0),
        Dual::new(&mut out[..], &mut dout[..]),
        Dual::constant(1),
    );
    assert_eq!((d.primal, d.tangent), (11.0, 3.0));
}
