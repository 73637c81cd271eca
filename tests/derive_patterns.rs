//! Patterns and statements as users write them (docs/limits.md §3 until this session):
//! `..` in tuple and tuple-struct patterns, `ref` and `ref mut` bindings, slice patterns,
//! `let (y, z);` declared before it is assigned. Each derivative is checked against central
//! differences of the plain function in one direction, in a batch and at second order
//! (`check_modes!`), each primal bit for bit.
use fwdad::prelude::*;

mod common;

// ---------------------------------------------------------------------------------------
// `..` in tuple patterns

/// A particle's state as a tuple; the kinetic energy needs only velocity and mass.
#[derive_frule]
fn kinetic(x: &[f64]) -> f64 {
    let state = (x[0], x[1], 2.5, 7usize);
    let (_, v, m, ..) = state;
    0.5 * m * v * v
}

/// A helper returning four moments; the caller wants the first and the last.
#[derive_frule]
fn moments(a: f64, b: f64) -> (f64, f64, f64, f64) {
    (a, a * b, b * b, a + b.exp())
}

#[derive_frule]
fn endpoints(x: &[f64]) -> f64 {
    let (first, .., last) = moments(x[0], x[1]);
    let (.., tail) = moments(x[1], x[0]);
    first * last.sin() + tail
}

/// A colour as a tuple struct, its channels picked with `..`.
#[derive(Differentiable, Clone, Copy, Debug)]
struct Rgb(f64, f64, f64);

#[derive_frule]
fn luminance_hint(x: &[f64]) -> f64 {
    let c = Rgb(x[0], x[1], x[2]);
    let Rgb(r, ..) = c;
    let Rgb(.., b) = c;
    let Rgb(_, g, ..) = c;
    0.3 * r * r + 0.6 * g + 0.1 * b.sqrt()
}

/// `..` in `match` arms on a tuple.
#[derive_frule]
fn spread_of(x: &[f64]) -> f64 {
    let t = (x[0], x[1], x[2]);
    match t {
        (lo, .., hi) if hi > lo => (hi - lo).powi(2),
        (.., hi) => hi * 0.5,
    }
}

#[test]
fn tuple_rest_patterns() {
    check_modes!(kinetic {}, kinetic, [0.3, 1.7]);
    check_modes!(endpoints {}, endpoints, [0.8, 0.4]);
    check_modes!(luminance_hint {}, luminance_hint, [0.2, 0.5, 0.9]);
    check_modes!(spread_of {}, spread_of, [0.2, 0.5, 0.9]);
    check_modes!(spread_of {}, spread_of, [1.2, 0.5, 0.9]);
}

// ---------------------------------------------------------------------------------------
// `let (y, z);` declared, then assigned

/// Polar to Cartesian, the two results declared first and set in the branches.
#[derive_frule]
fn polar_sum(x: &[f64]) -> f64 {
    let (r, theta) = (x[0], x[1]);
    let (px, py);
    if r > 0.0 {
        px = r * theta.cos();
        py = r * theta.sin();
    } else {
        px = r * 0.5;
        py = -r * theta;
    }
    px * py + px
}

/// The same with the types written.
#[derive_frule]
fn typed_declaration(x: &[f64]) -> f64 {
    let (lo, hi): (f64, f64);
    lo = x[0].min(x[1]);
    hi = x[0].max(x[1]);
    hi.ln() - lo * hi
}

#[test]
fn declared_before_assigned() {
    check_modes!(polar_sum {}, polar_sum, [1.3, 0.4]);
    check_modes!(polar_sum {}, polar_sum, [-1.3, 0.4]);
    check_modes!(typed_declaration {}, typed_declaration, [1.3, 0.4]);
}

// ---------------------------------------------------------------------------------------
// `ref` and `ref mut` bindings

#[derive_frule]
fn ref_let(x: &[f64]) -> f64 {
    let ref y = x[0] * x[1];
    let ref z: f64 = x[1].exp();
    let (ref a, b) = (x[0], x[1]);
    *y * z + a * b
}

#[derive_frule]
fn ref_mut_let(x: &[f64]) -> f64 {
    let mut total = 0.0;
    let ref mut t = total;
    for v in x {
        *t += v * v;
    }
    total.sqrt()
}

#[derive(Differentiable, Clone, Debug)]
pub enum Shape {
    Circle { r: f64 },
    Rect { w: f64, h: f64 },
}

#[derive_frule]
fn area(s: &Shape) -> f64 {
    match s {
        Shape::Circle { ref r } => std::f64::consts::PI * r * r,
        Shape::Rect { w, h } => w * h,
    }
}

#[derive_frule]
fn area_owned(s: Shape) -> f64 {
    match s {
        Shape::Circle { ref r } => std::f64::consts::PI * *r * *r,
        Shape::Rect { ref w, ref h } => w * h,
    }
}

#[derive_frule]
fn grow(s: &mut Shape, k: f64) {
    match s {
        Shape::Circle { ref mut r } => *r *= k,
        Shape::Rect { ref mut w, .. } => *w *= k,
    }
}

#[derive_frule]
fn shapes(x: &[f64]) -> f64 {
    let c = Shape::Circle { r: x[0] };
    let mut r = Shape::Rect { w: x[1], h: x[2] };
    grow(&mut r, x[0]);
    area(&c) + area_owned(r.clone()) + area(&r)
}

#[test]
fn ref_bindings() {
    check_modes!(ref_let {}, ref_let, [0.7, 1.1]);
    check_modes!(ref_mut_let {}, ref_mut_let, [0.7, 1.1, -0.4]);
    check_modes!(shapes {}, shapes, [0.7, 1.1, 2.3]);
}
