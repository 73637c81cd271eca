//! What the eleventh session's newcomer programs found, written as they were written.
//!
//! - A list of closures mapped by an iterator chain (`features.iter().map(|f| f(x))
//!   .collect()`, `features.iter().zip(&w).map(|(f, wi)| wi * f(x)).sum()`): a
//!   regression on basis functions; only `for` loops over such a list compiled.
//! - A field of a value whose type the macro cannot see (a `match` arm's binding of a
//!   call's result, `Some(h) => h`): `hit.normal * 1e-6` was read as float arithmetic,
//!   although the file declares `normal` only as a `V3`.
//!
//! Each against central differences and closed forms in one direction, every batch width
//! and second order, primals bit for bit.
#![allow(clippy::needless_range_loop, clippy::type_complexity)]
use fwdad::drivers::{bind, jvp, Inactive, Wrt};
use fwdad::prelude::*;
use std::ops::{Add, Mul, Sub};

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// ---------------------------------------------------------------------------------------
// Basis functions as a list of boxed closures, walked by chains.

#[derive_frule]
fn basis_fit_error(p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let ell = p[0];
    let features: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(|_x| 1.0),
        Box::new(move |x| (-(x * x) / (2.0 * ell * ell)).exp()),
        Box::new(move |x| (x / ell).tanh()),
    ];
    let w = [p[1], p[2], p[3]];
    let mut err = 0.0;
    for (x, y) in xs.iter().zip(ys) {
        let phi: Vec<f64> = features.iter().map(|f| f(*x)).collect();
        let pred: f64 = features.iter().zip(&w).map(|(f, wi)| wi * f(*x)).sum();
        let check = phi[0] * w[0] + phi[1] * w[1] + phi[2] * w[2];
        err += (pred - y).powi(2) + 0.1 * (check - pred).abs();
    }
    err
}

fn basis_closed(p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let (ell, w) = (p[0], [p[1], p[2], p[3]]);
    let mut err = 0.0;
    for (x, y) in xs.iter().zip(ys) {
        let phi = [1.0, (-(x * x) / (2.0 * ell * ell)).exp(), (x / ell).tanh()];
        let pred = w[0] * phi[0] + w[1] * phi[1] + w[2] * phi[2];
        err += (pred - y).powi(2);
    }
    err
}

#[derive_frule]
fn product_of_factors(p: &[f64]) -> f64 {
    let a = p[0];
    let factors = [
        Box::new(move |t: f64| 1.0 + a * t) as Box<dyn Fn(f64) -> f64>,
        Box::new(move |t: f64| (a * t).cos()),
    ];
    let mut total = 0.0;
    for k in 1..4 {
        let t = k as f64 * p[1];
        total += factors.iter().map(|f| f(t)).product::<f64>();
    }
    total
}

#[test]
fn closures_in_a_list_mapped_by_chains() {
    let xs: Vec<f64> = (0..9).map(|i| -2.0 + 0.5 * i as f64).collect();
    let ys: Vec<f64> = xs.iter().map(|x| 0.3 + (x * 1.3).sin()).collect();
    let p = [1.1, 0.4, -0.3, 0.8];
    // The two sums agree to rounding, so the |check - pred| term is 0 or a few ulps: compare
    // with the closed form without it, to a tolerance far above that.
    let plain = |p: &[f64]| basis_fit_error(p, &xs, &ys);
    assert!((plain(&p) - basis_closed(&p, &xs, &ys)).abs() < 1e-12);
    let rule = bind(basis_fit_error {}, (Wrt, &xs[..], &ys[..]));
    let (v, g) = gradient(rule, &p[..]);
    assert_eq!(v.to_bits(), plain(&p).to_bits());
    let want = fd_gradient(&|p: &[f64]| basis_closed(p, &xs, &ys), &p);
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-6, &format!("d/dp{k}"));
    }
    // one direction
    let (v1, d1): (f64, f64) = jvp(rule, &p, &[1.0, 0.0, 0.0, 0.0]);
    assert_eq!(v1.to_bits(), v.to_bits());
    assert_close(d1, want[0], 1e-6, "jvp d/dell");

    let q = [0.7, 0.4];
    check_widths!(product_of_factors {}, product_of_factors, q);
}

// ---------------------------------------------------------------------------------------
// A ray caster's closest hit, bound by a `match` on a call's `Option`.

#[derive(Clone, Copy, Debug, Differentiable)]
struct V3 {
    x: f64,
    y: f64,
    z: f64,
}

#[derive_frule]
impl V3 {
    fn new(x: f64, y: f64, z: f64) -> Self {
        V3 { x, y, z }
    }
    fn dot(self, o: V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
}

#[derive_frule]
impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        V3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

#[derive_frule]
impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

#[derive_frule]
impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, s: f64) -> V3 {
        V3::new(self.x * s, self.y * s, self.z * s)
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
struct Hit {
    t: f64,
    point: V3,
    normal: V3,
}

#[derive_frule]
fn hit_sphere(center: V3, radius: f64, origin: V3, dir: V3) -> Option<Hit> {
    let oc = origin - center;
    let b = oc.dot(dir);
    let c = oc.dot(oc) - radius * radius;
    let disc = b * b - c;
    if disc < 0.0 {
        return None;
    }
    let t = -b - disc.sqrt();
    let point = origin + dir * t;
    let normal = (point - center) * (1.0 / radius);
    Some(Hit { t, point, normal })
}

/// Where a ray from `p[0..2]` (on the plane z = 0) straight down −z, bounced off the
/// unit sphere at depth 3, is pushed off the surface by 1e-3 along the normal: its z.
#[derive_frule]
fn offset_point_z(p: &[f64]) -> f64 {
    let origin = V3::new(p[0], p[1], 0.0);
    let dir = V3::new(0.0, 0.0, -1.0);
    let hit = match hit_sphere(V3::new(0.0, 0.0, -3.0), p[2], origin, dir) {
        Some(h) => h,
        None => return 0.0,
    };
    let lifted = hit.point + hit.normal * 1e-3;
    lifted.z + hit.t * 0.0
}

/// The same by hand: z of the hit is −3 + √(r² − x² − y²), the normal's z is that over r.
fn offset_point_z_closed(p: &[f64]) -> f64 {
    let (x, y, r) = (p[0], p[1], p[2]);
    let h = (r * r - x * x - y * y).sqrt();
    -3.0 + h + 1e-3 * h / r
}

#[test]
fn field_of_a_match_binding_takes_its_declared_type() {
    let p = [0.2, -0.3, 1.0];
    assert!((offset_point_z(&p) - offset_point_z_closed(&p)).abs() < 1e-14);
    check_widths!(offset_point_z {}, offset_point_z, p);
    let (_, g) = gradient(offset_point_z {}, &p[..]);
    let want = fd_gradient(&offset_point_z_closed, &p);
    for k in 0..3 {
        assert_close(g[k], want[k], 1e-6, &format!("closed d/dp{k}"));
    }
    let (_, _, h) = hessian(offset_point_z {}, &p[..]);
    let want = fd_hessian(&offset_point_z_closed, &p);
    for i in 0..3 {
        for j in 0..3 {
            assert_close(h[(i, j)], want[i][j], 1e-4, &format!("closed h{i}{j}"));
        }
    }
}

// ---------------------------------------------------------------------------------------
// An expression tree evaluated by a recursive free function: `eval(a, x)` on a child
// `a: &Box<Expr>` bound by a `match`, which Rust coerces to `&Expr`. The tree is constant
// data (`inactive(e)`, the type without a tangent), or a `Differentiable` value passed as a
// constant.

#[derive(Clone, Debug)]
pub enum Expr {
    Num(f64),
    X,
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
    Sin(Box<Expr>),
    Exp(Box<Expr>),
    Pow(Box<Expr>, i32),
}

#[derive_frule(inactive(e))]
pub fn eval(e: &Expr, x: f64) -> f64 {
    match e {
        Expr::Num(c) => *c,
        Expr::X => x,
        Expr::Add(a, b) => eval(a, x) + eval(b, x),
        Expr::Mul(a, b) => eval(a, x) * eval(b, x),
        Expr::Div(a, b) => eval(a, x) / eval(b, x),
        Expr::Sin(a) => eval(a, x).sin(),
        Expr::Exp(a) => eval(a, x).exp(),
        Expr::Pow(a, n) => eval(a, x).powi(*n),
    }
}

#[derive(Clone, Debug, Differentiable)]
pub enum Term {
    Num(f64),
    X,
    Add(Box<Term>, Box<Term>),
    Mul(Box<Term>, Box<Term>),
    Cos(Box<Term>),
}

#[derive_frule]
pub fn eval_term(t: &Term, x: f64) -> f64 {
    match t {
        Term::Num(c) => *c,
        Term::X => x,
        Term::Add(a, b) => eval_term(a, x) + eval_term(b, x),
        Term::Mul(a, b) => eval_term(a, x) * eval_term(b, x),
        Term::Cos(a) => eval_term(a, x).cos(),
    }
}

/// The tree at each point, summed (a batch over the points).
#[derive_frule]
pub fn eval_term_sum(t: &Term, xs: &[f64]) -> f64 {
    let mut s = 0.0;
    for &x in xs {
        s += eval_term(t, x);
    }
    s
}

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

#[test]
fn recursive_eval_of_boxed_children() {
    use Expr::*;
    // f(x) = sin(x²) · exp(x / (1 + x)) + 3 x³
    let f = Add(
        bx(Mul(
            bx(Sin(bx(Pow(bx(X), 2)))),
            bx(Exp(bx(Div(bx(X), bx(Add(bx(Num(1.0)), bx(X))))))),
        )),
        bx(Mul(bx(Num(3.0)), bx(Pow(bx(X), 3)))),
    );
    let closed = |x: f64| (x * x).sin() * (x / (1.0 + x)).exp() + 3.0 * x.powi(3);
    let d_closed = |x: f64| {
        let e = (x / (1.0 + x)).exp();
        2.0 * x * (x * x).cos() * e + (x * x).sin() * e / (1.0 + x).powi(2) + 9.0 * x * x
    };
    for x in [0.3, 1.1, -0.4, 2.5] {
        let (v, d) = derivative(bind(eval {}, (Inactive(&f), Wrt)), x);
        assert_eq!(v.to_bits(), eval(&f, x).to_bits());
        assert!((v - closed(x)).abs() < 1e-12);
        assert_close(d, d_closed(x), 1e-12, "d/dx");
        let (_, d1, d2) = second_derivative(bind(eval {}, (Inactive(&f), Wrt)), x);
        assert_close(d1, d_closed(x), 1e-12, "d/dx, second order");
        let h = 1e-4;
        let fd2 = (d_closed(x + h) - d_closed(x - h)) / (2.0 * h);
        assert_close(d2, fd2, 1e-6, "d²/dx²");
    }
    // t(x) = cos(2 x) · x + 1, a `Differentiable` tree passed as a constant.
    let t = Term::Add(
        Box::new(Term::Mul(
            Box::new(Term::Cos(Box::new(Term::Mul(
                Box::new(Term::Num(2.0)),
                Box::new(Term::X),
            )))),
            Box::new(Term::X),
        )),
        Box::new(Term::Num(1.0)),
    );
    for x in [0.2, 1.7] {
        let (v, d) = derivative(bind(eval_term {}, (&t, Wrt)), x);
        assert_eq!(v.to_bits(), eval_term(&t, x).to_bits());
        assert_close(
            d,
            (2.0 * x).cos() - 2.0 * x * (2.0 * x).sin(),
            1e-12,
            "term d/dx",
        );
    }
    let xs = [0.3, 1.1, -0.4, 2.5, 0.9];
    let (s, g) = gradient(bind(eval_term_sum {}, (&t, Wrt)), &xs[..]);
    assert_eq!(s.to_bits(), eval_term_sum(&t, &xs).to_bits());
    for (gi, &x) in g.iter().zip(&xs) {
        assert_close(
            *gi,
            (2.0 * x).cos() - 2.0 * x * (2.0 * x).sin(),
            1e-12,
            "batch d/dx",
        );
    }
}
