//! Locals bound from fields whose type the macro cannot see, read as integers
//! (`let mut i = self.i; while i > 0 { .. i % self.base .. i /= self.base }`,
//! `let n = self.n; for k in 0..n`): computed on primals like integers whose type is
//! written. A float field bound by a name that a later `let` binds again to an integer
//! keeps its derivative. Checked in every mode against central differences and closed
//! forms, primals bit for bit.
use fwdad::drivers::{bind, gradient, Wrt};
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

/// A digit expansion and a sampled sum, driven by integer fields.
#[derive(Clone, Debug, Differentiable)]
pub struct Sampler {
    base: u64,
    seed: u64,
    n: usize,
    weight: f64,
}

#[derive_frule]
impl Sampler {
    /// The radical inverse of `self.seed` in `self.base`.
    pub fn radical_inverse(&self) -> f64 {
        let mut i = self.seed;
        let mut f = 1.0;
        let mut r = 0.0;
        while i > 0 {
            f /= self.base as f64;
            r += f * (i % self.base) as f64;
            i /= self.base;
        }
        r
    }

    /// Σₖ w·sin((k+1)x) for k < n.
    pub fn harmonics(&self, x: f64) -> f64 {
        let n = self.n;
        let mut s = 0.0;
        for k in 0..n {
            s += self.weight * ((k + 1) as f64 * x).sin();
        }
        s
    }

    /// `w` is the float field first, then a count: the first stays differentiable.
    pub fn shadowed(&self, x: f64) -> f64 {
        let w = self.weight;
        let y = w * x * x;
        let w = 3;
        if w > 0 {
            y * 2.0
        } else {
            y
        }
    }
}

#[derive_frule]
pub fn sampled(p: &[f64]) -> f64 {
    let s = Sampler {
        base: 3,
        seed: 22,
        n: 4,
        weight: p[1],
    };
    s.radical_inverse() * p[0] + s.harmonics(p[0]) + s.shadowed(p[1])
}

#[test]
fn integer_locals_from_fields_in_every_mode() {
    check_modes!(sampled {}, sampled, [0.8, 1.7]);
}

#[test]
fn integer_locals_from_fields_match_the_closed_form() {
    // 22 = 211 in base 3: radical inverse 1/3 + 1/9 + 2/27 = 14/27.
    let r = 14.0 / 27.0;
    let (x, w) = (0.8, 1.7);
    let (v, g) = gradient(bind(sampled {}, (Wrt,)), &[x, w]);
    assert_eq!(v.to_bits(), sampled(&[x, w]).to_bits());
    let dx: f64 = r
        + (0..4)
            .map(|k| w * (k + 1) as f64 * ((k + 1) as f64 * x).cos())
            .sum::<f64>();
    assert_close(g[0], dx, 1e-14, "d/dx");
    // shadowed(w) = 2·w·w² = 2w³: d/dw = 6w²; harmonics: Σ sin((k+1)x).
    let dw_closed: f64 = (0..4).map(|k| ((k + 1) as f64 * x).sin()).sum::<f64>() + 6.0 * w * w;
    assert_close(g[1], dw_closed, 1e-13, "d/dw");
}
