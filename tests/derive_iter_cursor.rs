//! An iterator bound by `let mut it = x.iter();` and read by hand, as parsers and
//! integrators are written: the first item taken with `it.next()`, then `for v in it`
//! over the rest; `while let Some(v) = it.next()`; `match it.next()`; pairs taken with two
//! `next()` calls. Checked against derivatives written out and central differences in
//! every mode (`check_modes!`), primals bit for bit.
// Written as people write a scanner's loop.
#![allow(clippy::while_let_on_iterator)]

use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

/// The trapezoid rule over equally spaced samples.
#[derive_frule]
fn trapz(ys: &[f64]) -> f64 {
    let dt = 0.1;
    let mut it = ys.iter();
    let mut prev = *it.next().unwrap();
    let mut s = 0.0;
    for &y in it {
        s += 0.5 * (prev + y) * dt;
        prev = y;
    }
    s
}

/// The largest jump between neighbours.
#[derive_frule]
fn max_gap(ys: &[f64]) -> f64 {
    let mut it = ys.iter().copied();
    let mut best = 0.0;
    let mut last = match it.next() {
        Some(v) => v,
        None => return 0.0,
    };
    while let Some(v) = it.next() {
        let gap = (v - last).abs();
        if gap > best {
            best = gap;
        }
        last = v;
    }
    best
}

/// Two header values, then a weighted sum of the rest.
#[derive_frule]
fn header_then_body(x: &[f64]) -> f64 {
    let mut it = x.iter().cloned();
    let scale = it.next().unwrap_or(1.0);
    let shift = it.next().unwrap_or(0.0);
    let mut acc = 0.0;
    for (k, v) in it.enumerate() {
        acc += (k as f64 + 1.0) * (scale * v + shift).sin();
    }
    acc
}

#[test]
fn first_item_then_the_rest() {
    let ys = [0.1, 0.5, 0.2, 0.9, 0.4];
    check_modes!(trapz {}, trapz, ys);
    let (v, g) = fwdad::gradient(trapz {}, &ys);
    assert_eq!(v.to_bits(), trapz(&ys).to_bits());
    assert_eq!(g, [0.05, 0.1, 0.1, 0.1, 0.05]);
}

#[test]
fn while_let_next() {
    let ys = [0.1, 0.5, 0.2, 0.9, 0.4];
    check_modes!(max_gap {}, max_gap, ys);
    let (v, g) = fwdad::gradient(max_gap {}, &ys);
    assert_eq!(v.to_bits(), max_gap(&ys).to_bits());
    assert_eq!(g, [0.0, 0.0, -1.0, 1.0, 0.0]);
    assert_eq!(fwdad::gradient(max_gap {}, &[] as &[f64]).0, 0.0);
}

#[test]
fn two_nexts_then_an_adaptor_on_the_rest() {
    let x = [0.7, 0.2, 0.3, -0.4, 1.1];
    let (v, g) = fwdad::gradient(header_then_body {}, &x);
    assert_eq!(v.to_bits(), header_then_body(&x).to_bits());
    let (s, b) = (x[0], x[1]);
    let mut want = [0.0; 5];
    for k in 0..3 {
        let c = (k as f64 + 1.0) * (s * x[k + 2] + b).cos();
        want[0] += c * x[k + 2];
        want[1] += c;
        want[k + 2] = c * s;
    }
    for k in 0..5 {
        assert_close(g[k], want[k], 1e-14, &format!("d/dx{k}"));
    }
}
