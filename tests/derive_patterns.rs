//! Patterns and statements as users write them (docs/limits.md §3 until this session):
//! `..` in tuple and tuple-struct patterns, `ref` and `ref mut` bindings, slice patterns,
//! `let (y, z);` declared before it is assigned. Each derivative is checked against central
//! differences of the plain function in one direction, in a batch and at second order
//! (`check_modes!`), each primal bit for bit.
// `let ref y = x;` is under test, as users write it.
#![allow(clippy::toplevel_ref_arg)]
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

/// `ref mut` into a local matched by value, in `match` and `if let`.
#[derive_frule]
fn grown_area(x: &[f64]) -> f64 {
    let mut s = Shape::Rect { w: x[0], h: x[1] };
    match s {
        Shape::Circle { ref mut r } => *r *= x[2],
        Shape::Rect { ref mut w, .. } => *w *= x[2],
    }
    let mut best = Some(x[0]);
    if let Some(ref mut b) = best {
        *b += x[2].sin();
    }
    area(&s) * best.unwrap_or(1.0)
}

/// `ref` into a value that is not `Copy`, matched by value and used after the `match`.
#[derive(Differentiable, Clone, Debug)]
pub enum Samples {
    Empty,
    Weighted { w: Vec<f64>, scale: f64 },
}

#[derive_frule]
fn weighted_total(x: &[f64]) -> f64 {
    let s = Samples::Weighted {
        w: x.to_vec(),
        scale: x[0],
    };
    let total = match s {
        Samples::Empty => 0.0,
        Samples::Weighted { ref w, ref scale } => w.iter().map(|v| v * v).sum::<f64>() * *scale,
    };
    let n = match s {
        Samples::Weighted { ref w, .. } => w.len(),
        Samples::Empty => 0,
    };
    total / n as f64
}

#[test]
fn ref_bindings() {
    check_modes!(weighted_total {}, weighted_total, [0.7, 1.1, 2.3]);
    check_modes!(grown_area {}, grown_area, [0.7, 1.1, 2.3]);
    check_modes!(ref_let {}, ref_let, [0.7, 1.1]);
    check_modes!(ref_mut_let {}, ref_mut_let, [0.7, 1.1, -0.4]);
    check_modes!(shapes {}, shapes, [0.7, 1.1, 2.3]);
}

// ---------------------------------------------------------------------------------------
// Slice patterns

/// A polynomial whose degree is the number of coefficients given.
#[derive_frule]
fn by_length(c: &[f64]) -> f64 {
    match c {
        [] => 0.0,
        [a] => a.sin(),
        [a, b] => a * b + b.exp(),
        [first, rest @ ..] => first * rest.iter().sum::<f64>(),
    }
}

/// The first and last samples of a window, and the middle one when it is odd.
#[derive_frule]
fn ends(x: &[f64]) -> f64 {
    let edge = match x {
        [first, .., last] if first < last => last - first,
        [first, .., last] => (first * last).abs(),
        _ => 0.0,
    };
    let inner = if let [_, middle @ .., _] = x {
        middle.iter().map(|v| v * v).sum::<f64>()
    } else {
        1.0
    };
    edge * inner
}

/// A 3D point read out of a flat buffer with `let .. else`.
#[derive_frule]
fn norm_of_point(p: &[f64]) -> f64 {
    let &[x, y, z] = &p[..3] else {
        return 0.0;
    };
    (x * x + y * y + z * z).sqrt()
}

/// The roboticist's pose, destructured by value from an array.
#[derive_frule]
fn heading_error(pose: &[f64; 3], goal: [f64; 2]) -> f64 {
    let [x, y, theta] = *pose;
    let [gx, gy] = goal;
    let bearing = (gy - y).atan2(gx - x);
    let [first, .., last] = *pose;
    (bearing - theta).sin().powi(2) + 0.1 * first * last
}

#[derive_frule]
fn heading_of(q: &[f64]) -> f64 {
    let pose = [q[0], q[1], q[2]];
    heading_error(&pose, [q[3], 2.0])
}

/// Elements matched by literal, and tuples of names inside a slice pattern.
#[derive_frule]
fn segment_length(pts: &[(f64, f64)], closed: u8) -> f64 {
    match pts {
        [(x0, y0), (x1, y1)] => ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt(),
        [(x0, _), .., (xn, _)] => match [closed] {
            [0] => xn - x0,
            [_] => (xn - x0) * 2.0,
        },
        _ => 0.0,
    }
}

#[derive_frule]
fn segments(x: &[f64]) -> f64 {
    let two = [(x[0], x[1]), (x[2], x[3])];
    let three = [(x[0], x[1]), (x[2], x[3]), (x[1], x[0])];
    segment_length(&two, 0) + segment_length(&three, 0) * segment_length(&three, 1)
}

#[test]
fn slice_patterns() {
    check_modes!(by_length {}, by_length, [0.7]);
    check_modes!(by_length {}, by_length, [0.7, 1.2]);
    check_modes!(by_length {}, by_length, [0.7, 1.2, -0.3, 2.0]);
    check_modes!(ends {}, ends, [0.7, 1.2, -0.3, 2.0]);
    check_modes!(ends {}, ends, [2.7, 1.2, -0.3, 2.0]);
    check_modes!(ends {}, ends, [0.7, 1.2, 0.5]);
    check_modes!(norm_of_point {}, norm_of_point, [0.7, 1.2, -0.3, 2.0]);
    check_modes!(heading_of {}, heading_of, [0.7, 1.2, -0.3, 2.0]);
    check_modes!(segments {}, segments, [0.7, 1.2, -0.3, 2.0]);
}

// ---------------------------------------------------------------------------------------
// Array patterns through `&mut`

/// Scales a 2D point in place through its elements.
#[derive_frule]
fn scale_pair(p: &mut [f64; 2], k: f64) {
    let [a, b] = p;
    *a *= k;
    *b += k * *a;
}

#[derive_frule]
fn scaled_pair(x: &[f64]) -> f64 {
    let mut p = [x[0], x[1]];
    scale_pair(&mut p, x[2]);
    p[0] * p[1].sin()
}

/// A state vector advanced in place, its ends named through the `&mut`.
#[derive_frule]
fn relax_ends(x: &mut [f64], k: f64) {
    if let [first, middle @ .., last] = x {
        *first *= k;
        *last += k * *first;
        for m in middle.iter_mut() {
            *m *= 0.5;
        }
    }
    let [a, .., z] = &mut x[..] else {
        return;
    };
    *a += *z;
}

#[derive_frule]
fn relaxed(x: &[f64]) -> f64 {
    let mut y = [x[0], x[1], x[2], x[1] * x[0]];
    relax_ends(&mut y, x[2]);
    let mut pair = [x[1], x[0]];
    let [p, q] = &mut pair;
    *p *= *q;
    y[0] * y[1] + y[2].sin() - y[3] + pair[0]
}

#[test]
fn array_patterns_through_mut() {
    check_modes!(relaxed {}, relaxed, [0.7, 1.1, 2.3]);
    check_modes!(scaled_pair {}, scaled_pair, [0.7, 1.1, 2.3]);
}
