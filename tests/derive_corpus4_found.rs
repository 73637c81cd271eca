//! Constructs the fourth verbatim corpus (`tests/kurbo_shapes_verbatim.rs`) found, each in
//! a small program written the way kurbo writes it, against closed forms, primals bit for
//! bit: an operator's method called by its name on `self` in another operator's `impl`
//! (`*self = self.mul(other)` in kurbo's `impl MulAssign for Affine`,
//! `self.mul_assign(other.recip())` in its `impl DivAssign<f64> for Vec2`), which had no
//! rule ("`Affine` has no forward rule for its method `mul`"); and a trait
//! with a `where` clause on an associated type of its supertrait (kurbo's
//! `trait ParamCurveCurvature: ParamCurveDeriv where Self::DerivResult: ParamCurveDeriv`,
//! whose default `curvature` differentiates twice), rejected.

use fwdad::prelude::*;
use std::ops::{Add, DivAssign, Mul, MulAssign, Neg, Sub};

/// A 2×2 linear map, columns `[a, b]`, `[c, d]`.
#[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
pub struct M2([f64; 4]);

#[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

#[derive_frule]
impl M2 {
    pub fn rotate(th: f64) -> M2 {
        let (s, c) = th.sin_cos();
        M2([c, s, -s, c])
    }
}

#[derive_frule]
impl Mul for M2 {
    type Output = M2;
    fn mul(self, o: M2) -> M2 {
        M2([
            self.0[0] * o.0[0] + self.0[2] * o.0[1],
            self.0[1] * o.0[0] + self.0[3] * o.0[1],
            self.0[0] * o.0[2] + self.0[2] * o.0[3],
            self.0[1] * o.0[2] + self.0[3] * o.0[3],
        ])
    }
}

#[derive_frule]
impl Mul<V2> for M2 {
    type Output = V2;
    fn mul(self, v: V2) -> V2 {
        V2 {
            x: self.0[0] * v.x + self.0[2] * v.y,
            y: self.0[1] * v.x + self.0[3] * v.y,
        }
    }
}

#[derive_frule]
impl MulAssign for M2 {
    fn mul_assign(&mut self, other: M2) {
        *self = self.mul(other);
    }
}

#[derive_frule]
impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2 {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
}

#[derive_frule]
impl Neg for V2 {
    type Output = V2;
    fn neg(self) -> V2 {
        V2 {
            x: -self.x,
            y: -self.y,
        }
    }
}

#[derive_frule]
impl Sub for V2 {
    type Output = V2;
    fn sub(self, o: V2) -> V2 {
        self.add(-o)
    }
}

#[derive_frule]
impl MulAssign<f64> for V2 {
    fn mul_assign(&mut self, k: f64) {
        self.x *= k;
        self.y *= k;
    }
}

#[derive_frule]
impl DivAssign<f64> for V2 {
    fn div_assign(&mut self, k: f64) {
        self.mul_assign(k.recip());
    }
}

/// `n` turns by `th` composed in place, applied to `v / 2`, then `w - (that)`.
#[derive_frule]
fn turned(th: f64, n: usize, v: &[f64; 2], w: &[f64; 2]) -> [f64; 2] {
    let mut view = M2::rotate(0.0);
    for _ in 0..n {
        view *= M2::rotate(th);
    }
    let mut d = V2 { x: v[0], y: v[1] };
    d /= 2.0;
    let q = view * d;
    let e = V2 { x: w[0], y: w[1] };
    let r = e - q;
    [r.x, r.y]
}

#[test]
fn operator_methods_called_by_name() {
    let (th, n, v, w) = (0.3_f64, 4, [1.0, -2.0], [0.5, 0.25]);
    let a = n as f64 * th;
    let (s, c) = a.sin_cos();
    let (hx, hy) = (v[0] / 2.0, v[1] / 2.0);
    // r = w − R(nθ) v / 2.
    let (r, d) = derivative(bind(turned {}, (Wrt, n, &v, &w)), th);
    let want = [w[0] - (c * hx - s * hy), w[1] - (s * hx + c * hy)];
    assert!((r[0] - want[0]).abs() < 1e-15 && (r[1] - want[1]).abs() < 1e-15);
    // dr/dθ = −n R'(nθ) v / 2.
    let dwant = [
        -(n as f64) * (-s * hx - c * hy),
        -(n as f64) * (c * hx - s * hy),
    ];
    for k in 0..2 {
        assert!((d[k] - dwant[k]).abs() < 1e-14, "{d:?} vs {dwant:?}");
    }
    // In v: −R(nθ) / 2; in w: I.
    let (_, jv) = jacobian(bind(turned {}, (th, n, Wrt, &w)), &v);
    let rot = [[c, -s], [s, c]];
    for i in 0..2 {
        for j in 0..2 {
            assert!((jv[(i, j)] + 0.5 * rot[i][j]).abs() < 1e-15);
        }
    }
    let (_, jw) = jacobian(bind(turned {}, (th, n, &v, Wrt)), &w);
    assert!(jw[(0, 0)] == 1.0 && jw[(1, 1)] == 1.0 && jw[(0, 1)] == 0.0 && jw[(1, 0)] == 0.0);
}

// ---- A trait with a `where` clause ----

#[derive_frule]
pub trait Curve: Sized {
    fn at(&self, t: f64) -> f64;
}

#[derive_frule]
pub trait Deriv {
    type D: Curve;
    fn deriv(&self) -> Self::D;
}

/// The second derivative's value over the first's, by the default method.
#[derive_frule]
pub trait Bend: Deriv
where
    Self::D: Deriv,
{
    fn bend(&self, t: f64) -> f64 {
        let d = self.deriv();
        let dd = d.deriv();
        dd.at(t) / d.at(t)
    }
}

/// `c₀ + c₁ t + c₂ t²`.
#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Quad {
    pub c: [f64; 3],
}

/// `c₀ + c₁ t`.
#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Lin {
    pub c: [f64; 2],
}

/// The constant `c`.
#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Konst {
    pub c: f64,
}

#[derive_frule]
impl Curve for Quad {
    fn at(&self, t: f64) -> f64 {
        self.c[0] + t * (self.c[1] + t * self.c[2])
    }
}

#[derive_frule]
impl Curve for Lin {
    fn at(&self, t: f64) -> f64 {
        self.c[0] + t * self.c[1]
    }
}

#[derive_frule]
impl Curve for Konst {
    fn at(&self, _t: f64) -> f64 {
        self.c
    }
}

#[derive_frule]
impl Deriv for Quad {
    type D = Lin;
    fn deriv(&self) -> Lin {
        Lin {
            c: [self.c[1], 2.0 * self.c[2]],
        }
    }
}

#[derive_frule]
impl Deriv for Lin {
    type D = Konst;
    fn deriv(&self) -> Konst {
        Konst { c: self.c[1] }
    }
}

#[derive_frule]
impl Bend for Quad {}

/// Generic over the trait, restating its `where` clause as Rust requires.
#[derive_frule]
fn bend_of<C: Bend>(c: &C, t: f64) -> f64
where
    C::D: Deriv,
{
    c.bend(t)
}

#[derive_frule]
fn quad_bend(c: &[f64; 3], t: f64) -> f64 {
    let q = Quad { c: *c };
    bend_of(&q, t)
}

#[test]
fn a_default_method_under_a_where_clause() {
    let (c, t) = ([0.5, 1.5, -0.75], 0.4);
    // b = 2c₂ / (c₁ + 2c₂ t).
    let den = c[1] + 2.0 * c[2] * t;
    let (v, g) = gradient(bind(quad_bend {}, (Wrt, t)), &c);
    assert_eq!(v.to_bits(), (2.0 * c[2] / den).to_bits());
    let want = [
        0.0,
        -2.0 * c[2] / (den * den),
        2.0 / den - 4.0 * c[2] * t / (den * den),
    ];
    for i in 0..3 {
        assert!(
            (g[i] - want[i]).abs() < 1e-14,
            "∂b/∂c{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
    let (_, dt) = derivative(bind(quad_bend {}, (&c, Wrt)), t);
    let want = -4.0 * c[2] * c[2] / (den * den);
    assert!((dt - want).abs() < 1e-14, "{dt} vs {want}");
}
