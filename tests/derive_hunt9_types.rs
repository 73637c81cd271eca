//! Ninth hunt, guards over the user's types, written as users write them: non-`Copy`
//! enums (a variant holding a `Vec<f64>`) matched through `&self` and changed through
//! `&mut self` by `match &mut self.profile`; a struct of borrowed slices built in the body
//! from sub-slices of a differentiated input and read by its methods; a recursive
//! `eval(e, x)` over a `Box`ed expression tree given by the caller; fields of values whose
//! type is not written (a derived function's struct result, a tuple's struct part);
//! itertools' `izip!` over sides of different lengths (one reversed) and `tuple_windows`
//! of three; `#[primitive(d = .., method)]` rules of another crate's extension methods
//! (`v.softplus()` on a chain's `&f64`, `acc.blend(*v, 0.3)` in a `fold`, nested); and
//! large functions that take the AVX2+FMA entry in batches of four lanes or
//! more (a perceptron cut from its parameters by a chunk cursor, activations from a list
//! of closures; a planar arm through an extension trait on `[f64; 2]`), also run with
//! `FWDAD_NO_DISPATCH=1` (same results). Each in one direction, batches of 1 to 16 lanes
//! and second order against central differences or closed forms, primals bit for bit.
#![allow(clippy::needless_range_loop, clippy::ptr_arg, clippy::type_complexity)]
use fwdad::drivers::{bind, jvp, Wrt};
use fwdad::prelude::*;
use itertools::{izip, Itertools};

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// ---------------------------------------------------------------------------------------
// Non-`Copy` enums matched through `&self` and `&mut self`.

#[derive(Differentiable, Clone, Debug)]
pub enum Profile {
    Poly(Vec<f64>),
    Exp { amp: f64, rate: f64 },
    Table { xs: Vec<f64>, ys: Vec<f64> },
}

#[derive(Differentiable, Clone, Debug)]
pub struct Source {
    pub profile: Profile,
    pub scale: f64,
}

#[derive_frule]
impl Source {
    fn eval(&self, t: f64) -> f64 {
        let v = match &self.profile {
            Profile::Poly(c) => c.iter().rev().fold(0.0, |acc, k| acc * t + k),
            Profile::Exp { amp, rate } => amp * (rate * t).exp(),
            Profile::Table { xs, ys } => {
                let mut i = 0;
                while i + 2 < xs.len() && xs[i + 1] < t {
                    i += 1;
                }
                let w = (t - xs[i]) / (xs[i + 1] - xs[i]);
                ys[i] * (1.0 - w) + ys[i + 1] * w
            }
        };
        self.scale * v
    }

    fn stretch(&mut self, k: f64) {
        match &mut self.profile {
            Profile::Poly(c) => {
                for v in c.iter_mut() {
                    *v *= k;
                }
            }
            Profile::Exp { amp, .. } => *amp *= k,
            Profile::Table { ys, .. } => {
                for y in ys.iter_mut() {
                    *y *= k;
                }
            }
        }
    }
}

/// Three sources of every kind, stretched, evaluated at two times.
#[derive_frule]
pub fn sources(p: &[f64]) -> f64 {
    let mut srcs = vec![
        Source {
            profile: Profile::Poly(vec![p[0], p[1], 0.5]),
            scale: 1.0,
        },
        Source {
            profile: Profile::Exp {
                amp: p[2],
                rate: -0.5,
            },
            scale: p[3],
        },
        Source {
            profile: Profile::Table {
                xs: vec![0.0, 1.0, 2.0],
                ys: vec![p[0], p[4], p[1]],
            },
            scale: 2.0,
        },
    ];
    for (i, s) in srcs.iter_mut().enumerate() {
        s.stretch(1.0 + 0.1 * i as f64 + p[4]);
    }
    let mut total = 0.0;
    for s in &srcs {
        total += s.eval(0.7) + s.eval(1.6).powi(2);
    }
    total
}

// ---------------------------------------------------------------------------------------
// Structs of borrowed slices built in the body and read by methods.

#[derive(Differentiable)]
pub struct Window<'a> {
    pub x: &'a [f64],
    pub w: &'a [f64],
}

#[derive_frule]
impl<'a> Window<'a> {
    fn weighted(&self) -> f64 {
        self.x.iter().zip(self.w).map(|(a, b)| a * b).sum()
    }
    fn energy(&self) -> f64 {
        let m = self.weighted();
        self.x.iter().map(|v| (v - m).powi(2)).sum::<f64>()
    }
}

#[derive_frule]
pub fn sliding_energy(x: &[f64]) -> f64 {
    let w = [0.25, 0.5, 0.25];
    let mut s = 0.0;
    for k in 0..x.len() - 2 {
        let win = Window {
            x: &x[k..k + 3],
            w: &w,
        };
        s += win.energy() * (k as f64 + 1.0);
    }
    let tail = Window {
        x: &x[x.len() - 3..],
        w: &x[..3],
    };
    s + tail.weighted()
}

// ---------------------------------------------------------------------------------------
// An expression tree with differentiated constants.

#[derive(Differentiable, Clone, Debug)]
pub enum Expr {
    Num(f64),
    X(usize),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Sin(Box<Expr>),
    Neg(Box<Expr>),
}

#[derive_frule]
pub fn eval(e: &Expr, x: &[f64]) -> f64 {
    match e {
        Expr::Num(c) => *c,
        Expr::X(i) => x[*i],
        Expr::Add(a, b) => eval(a, x) + eval(b, x),
        Expr::Mul(a, b) => eval(a, x) * eval(b, x),
        Expr::Sin(a) => eval(a, x).sin(),
        Expr::Neg(a) => -eval(a, x),
    }
}

/// `sin(x0 · x1) + (−x1 + 0.5)`, a tree of constants built by the caller.
#[derive_frule]
pub fn tree_value(e: &Expr, p: &[f64]) -> f64 {
    let x = [p[0], p[1]];
    eval(e, &x) * p[2]
}

// ---------------------------------------------------------------------------------------
// Fields of values whose type is not written.

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct State {
    pub pos: [f64; 2],
    pub vel: [f64; 2],
    pub t: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Probe {
    pub t: f64,
    pub gain: f64,
}

#[derive_frule]
fn integrate(x: &[f64]) -> State {
    let mut s = State {
        pos: [x[0], x[1]],
        vel: [x[2], 0.0],
        t: 0.0,
    };
    for _ in 0..10 {
        s.vel[1] -= 9.81 * 0.01;
        s.pos[0] += s.vel[0] * 0.01;
        s.pos[1] += s.vel[1] * 0.01;
        s.t += 0.01;
    }
    s
}

#[derive_frule]
fn probe(x: &[f64]) -> (Probe, f64) {
    (
        Probe {
            t: x[0] * 2.0,
            gain: x[1].exp(),
        },
        x[2],
    )
}

#[derive_frule]
pub fn unseen_fields(x: &[f64]) -> f64 {
    let s = integrate(x);
    let r = probe(x);
    let pr = r.0;
    s.pos[1] * s.vel[0] + s.t * pr.gain + pr.t * r.1
}

// ---------------------------------------------------------------------------------------
// itertools.

#[derive_frule]
pub fn izip_uneven(x: &[f64]) -> f64 {
    let a = &x[..4];
    let b = &x[1..];
    let c = [1.0, 2.0, 3.0];
    let mut s = 0.0;
    for (p, q, r) in izip!(a, b.iter().rev(), &c) {
        s += p * q * r;
    }
    s
}

#[derive_frule]
pub fn triples(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (a, b, c) in x.iter().tuple_windows() {
        s += (a - 2.0 * b + c).powi(2);
    }
    let t: f64 = x.iter().tuple_windows().map(|(a, b)| a * a * b * b).sum();
    s + t
}

// ---------------------------------------------------------------------------------------
// Large functions (the AVX2+FMA entry in batches of four lanes or more).

/// A two-layer perceptron whose weights are cut from one parameter vector by a chunk
/// cursor, with a list of activations chosen per layer.
#[derive_frule]
pub fn mlp_loss(p: &[f64], data: &[f64]) -> f64 {
    let acts: Vec<Box<dyn Fn(f64) -> f64>> =
        vec![Box::new(|z| z.tanh()), Box::new(|z| (1.0 + z.exp()).ln())];
    let mut params = p.chunks(3);
    let w1 = params.next().unwrap();
    let w2 = params.next().unwrap();
    let out = params.next().unwrap();
    let mut loss = 0.0;
    for pair in data.chunks_exact(2) {
        let (x, y) = (pair[0], pair[1]);
        let h1: Vec<f64> = acts.iter().map(|a| a(w1[0] * x + w1[1])).collect();
        let h2: f64 = acts
            .iter()
            .zip(&w2[..2])
            .map(|(a, w)| w * a(h1[0] * w1[2] + h1[1]))
            .sum();
        let pred = out[0] * h2 + out[1] * h1[0] + out[2] * w2[2];
        loss += (pred - y).powi(2);
    }
    loss / (data.len() / 2) as f64
}

#[derive_frule]
pub trait Planar {
    fn rotate(&self, th: f64) -> [f64; 2];
    fn add_to(&mut self, o: &[f64; 2]);
}

#[derive_frule]
impl Planar for [f64; 2] {
    fn rotate(&self, th: f64) -> [f64; 2] {
        let (s, c) = th.sin_cos();
        [c * self[0] - s * self[1], s * self[0] + c * self[1]]
    }
    fn add_to(&mut self, o: &[f64; 2]) {
        self[0] += o[0];
        self[1] += o[1];
    }
}

/// A planar arm's tip distance to a target, links rotated by the extension trait.
#[derive_frule]
pub fn arm_error(q: &[f64]) -> f64 {
    let lengths = [1.0, 0.8, 0.5, 0.3];
    let mut tip = [0.0, 0.0];
    let mut angle = 0.0;
    for (l, th) in lengths.iter().zip(q) {
        angle += th;
        let link = [*l, 0.0].rotate(angle);
        tip.add_to(&link);
    }
    let target = [1.2, 0.9];
    let (dx, dy) = (tip[0] - target[0], tip[1] - target[1]);
    if dx * dx + dy * dy < 1e-12 {
        return 0.0;
    }
    (dx * dx + dy * dy).sqrt() + 0.01 * q.iter().map(|t| t * t).sum::<f64>()
}

// ---------------------------------------------------------------------------------------
// `#[primitive(d = .., method)]` rules of another crate's extension methods on `f64`.

mod ext {
    /// A smooth ramp and a blend, extension methods as another crate gives them.
    pub trait Ramp {
        fn softplus(self) -> f64;
        fn blend(self, o: f64, t: f64) -> f64;
    }

    impl Ramp for f64 {
        fn softplus(self) -> f64 {
            if self > 30.0 {
                self
            } else {
                self.exp().ln_1p()
            }
        }
        fn blend(self, o: f64, t: f64) -> f64 {
            self + (o - self) * t
        }
    }
}

mod ramp_rules {
    use crate::ext::Ramp;
    use fwdad::prelude::*;

    #[primitive(d = 1.0 / (1.0 + (-x).exp()), method)]
    pub fn softplus(x: f64) -> f64 {
        Ramp::softplus(x)
    }

    #[primitive(d = (1.0 - t, t, o - x), method)]
    pub fn blend(x: f64, o: f64, t: f64) -> f64 {
        Ramp::blend(x, o, t)
    }
}

use ext::Ramp;
#[allow(unused_imports)]
use ramp_rules::*;

/// The methods on references in chains, on their own results and in a loop.
#[derive_frule]
pub fn ramps(x: &[f64]) -> f64 {
    let a: f64 = x.iter().map(|v| v.softplus()).sum();
    let b = x.iter().fold(0.0, |acc: f64, v| acc.blend(*v, 0.3));
    let c = (x[0] * x[1]).softplus().softplus();
    let mut d = 0.0;
    for &v in x {
        d += (v - 1.0).softplus() * v;
    }
    a + b * c + d + x[2].blend(x[0], x[1])
}

// ---------------------------------------------------------------------------------------

#[test]
fn enums_through_self() {
    check_widths!(sources {}, sources, [0.7, 0.4, -0.3, 0.9, 0.2]);
}

#[test]
fn borrowed_windows() {
    check_widths!(
        sliding_energy {},
        sliding_energy,
        [0.7, 0.4, -0.3, 0.9, 0.2]
    );
}

#[test]
fn expression_tree() {
    let e = Expr::Add(
        Box::new(Expr::Sin(Box::new(Expr::Mul(
            Box::new(Expr::X(0)),
            Box::new(Expr::X(1)),
        )))),
        Box::new(Expr::Add(
            Box::new(Expr::Neg(Box::new(Expr::X(1)))),
            Box::new(Expr::Num(0.5)),
        )),
    );
    let p = [-0.3, 0.9, 1.3];
    let want = ((-0.3f64 * 0.9).sin() + (-0.9 + 0.5)) * 1.3;
    assert!((tree_value(&e, &p) - want).abs() < 1e-15);
    check_widths!(
        bind(tree_value {}, (&e, Wrt)),
        |p: &[f64]| tree_value(&e, p),
        p
    );
}

#[test]
fn fields_of_results() {
    check_widths!(unseen_fields {}, unseen_fields, [0.7, 0.4, -0.3]);
}

#[test]
fn itertools_forms() {
    check_widths!(izip_uneven {}, izip_uneven, [0.7, 0.4, -0.3, 0.9, 0.2, 1.1]);
    check_widths!(triples {}, triples, [0.7, 0.4, -0.3, 0.9, 0.2]);
}

#[test]
fn large_functions() {
    let data = [0.1, 0.3, -0.4, 0.2, 0.9, -0.5, 0.5, 0.8, -1.0, 0.1];
    let p = [0.3, -0.2, 0.8, 0.1, -0.5, 0.4, 0.7, 1.1, -0.6];
    check_widths!(
        bind(mlp_loss {}, (Wrt, &data[..])),
        |p: &[f64]| mlp_loss(p, &data),
        p
    );
    check_widths!(arm_error {}, arm_error, [0.3, -0.2, 0.8, 0.1]);
}

#[test]
fn primitive_methods_in_chains() {
    let x = [0.7, -0.4, 1.3];
    check_widths!(ramps {}, ramps, x);
    // ∂/∂x2 by hand: σ(x2) + b c-part + the loop's term + the blend's (1 − x1).
    let s = |t: f64| 1.0 / (1.0 + (-t).exp());
    let sp = |t: f64| t.exp().ln_1p();
    let (_, g) = gradient(ramps {}, &x[..]);
    let c = sp(sp(x[0] * x[1]));
    // b = ((0·0.7 + 0.3 x0)·0.7 + 0.3 x1)·0.7 + 0.3 x2: ∂b/∂x2 = 0.3.
    let want = s(x[2]) + 0.3 * c + s(x[2] - 1.0) * x[2] + sp(x[2] - 1.0) + (1.0 - x[1]);
    assert_close(g[2], want, 1e-13, "d/dx2");
}
