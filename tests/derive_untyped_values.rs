//! Values whose types the syntax does not show: the parts of a tuple or array a function
//! returned, bound without a written type (`let (p, v) = split_state(s);`). Floats, values
//! of the user's types (with their operators, `Index` and methods), `Vec<f64>` and arrays,
//! read, combined and written in place, as users write them. Every derivative is checked
//! against central finite differences of the plain function in every mode (`jvp`: one
//! direction; `gradient`, `jacobian`: batched; `hessian`: second order), and every primal
//! bit for bit against the plain function.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use std::ops::{Add, AddAssign, Index, IndexMut, Mul, Neg, Sub};

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Vec2 {
    pub x: f64,
    pub y: f64,
}

#[derive_frule]
impl Vec2 {
    pub fn new(x: f64, y: f64) -> Self {
        Vec2 { x, y }
    }

    pub fn dot(&self, o: Vec2) -> f64 {
        self.x * o.x + self.y * o.y
    }

    pub fn norm(&self) -> f64 {
        self.dot(*self).sqrt()
    }
}

#[derive_frule]
impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

#[derive_frule]
impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

#[derive_frule]
impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

#[derive_frule]
impl Mul<Vec2> for f64 {
    type Output = Vec2;
    fn mul(self, v: Vec2) -> Vec2 {
        Vec2::new(self * v.x, self * v.y)
    }
}

#[derive_frule]
impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

#[derive_frule]
impl AddAssign for Vec2 {
    fn add_assign(&mut self, o: Vec2) {
        self.x += o.x;
        self.y += o.y;
    }
}

#[derive_frule]
impl Index<usize> for Vec2 {
    type Output = f64;
    fn index(&self, i: usize) -> &f64 {
        match i {
            0 => &self.x,
            _ => &self.y,
        }
    }
}

#[derive_frule]
impl IndexMut<usize> for Vec2 {
    fn index_mut(&mut self, i: usize) -> &mut f64 {
        match i {
            0 => &mut self.x,
            _ => &mut self.y,
        }
    }
}

// =======================================================================================
// Floats

/// The roots of `a t² + b t + c`, smaller first.
#[derive_frule]
fn roots(a: f64, b: f64, c: f64) -> (f64, f64) {
    let d = (b * b - 4.0 * a * c).sqrt();
    let (r1, r2) = ((-b - d) / (2.0 * a), (-b + d) / (2.0 * a));
    (r1.min(r2), r1.max(r2))
}

/// The area between the parabola `a t² + b t + c` (opening downwards) and the axis, and
/// a Gaussian weight at the midpoint of its roots.
#[derive_frule]
fn cap_area(p: &[f64]) -> f64 {
    let (lo, hi) = roots(p[0], p[1], p[2]);
    let w = hi - lo;
    let mid = 0.5 * (lo + hi);
    -p[0] * w * w * w / 6.0 + (-mid * mid).exp() - 2.0 * lo.sin()
}

/// Widens `[a, b]` about its ends until `f` changes sign on it.
#[derive_frule]
fn bracket<F: Fn(f64) -> f64>(f: F, a: f64, b: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (a, b);
    while f(lo) * f(hi) > 0.0 {
        let w = hi - lo;
        lo -= w;
        hi += w;
    }
    (lo, hi)
}

/// A bracket of `√p` from `[a, b]`, narrowed by a few bisection steps, weighted.
#[derive_frule]
fn bracketed(q: &[f64]) -> f64 {
    let p = q[2];
    let (mut lo, mut hi) = bracket(|x| x * x - p, q[0], q[1]);
    for _ in 0..3 {
        let mid = 0.5 * (lo + hi);
        if mid * mid > p {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    (hi - lo) * lo.exp() + hi * p
}

/// The bracket of a root of `a t² + b t + c` and its width, if it has real roots.
#[derive_frule]
fn real_roots(a: f64, b: f64, c: f64) -> Option<(f64, f64)> {
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return None;
    }
    Some(roots(a, b, c))
}

/// The roots' spread, taken out with `?` and with `unwrap`.
#[derive_frule]
fn spread(p: &[f64]) -> Option<f64> {
    let (lo, hi) = real_roots(p[0], p[1], p[2])?;
    let (l2, h2) = real_roots(p[0], 2.0 * p[1], p[2]).unwrap();
    Some((hi - lo) * (h2 - l2) + lo * h2)
}

#[derive_frule]
fn spread_or_zero(p: &[f64]) -> f64 {
    spread(p).unwrap_or(0.0)
}

/// The largest entry and where it is.
#[derive_frule]
fn argmax(x: &[f64]) -> (usize, f64) {
    let mut best = (0, x[0]);
    for i in 1..x.len() {
        if x[i] > best.1 {
            best = (i, x[i]);
        }
    }
    best
}

/// The peak, its right neighbour and the entries before it.
#[derive_frule]
fn peak_profile(x: &[f64]) -> f64 {
    let (i, v) = argmax(x);
    let mut left = 0.0;
    for j in 0..i {
        left += x[j];
    }
    let mut k = i;
    k += 1;
    v * x[k % x.len()] + left * (i as f64) - x[(i + x.len() - 1) % x.len()]
}

// =======================================================================================
// Values of the user's types

/// Position and velocity of a point mass, from a flat state.
#[derive_frule]
fn split_state(s: &[f64]) -> (Vec2, Vec2) {
    (Vec2::new(s[0], s[1]), Vec2::new(s[2], s[3]))
}

/// Energy of a mass on an anisotropic spring anchored at `(1, 0)`.
#[derive_frule]
fn oscillator_energy(s: &[f64], k: f64, m: f64) -> f64 {
    let (p, v) = split_state(s);
    let stretch = p - Vec2::new(1.0, 0.0);
    0.5 * m * v.dot(v) + 0.5 * k * stretch.dot(stretch) + 0.1 * k * stretch[1] * stretch[1]
}

/// One semi-implicit Euler step of the same oscillator, as a flat state.
#[derive_frule]
fn euler_step(s: &[f64], k: f64, dt: f64) -> [f64; 4] {
    let (mut p, mut v) = split_state(s);
    v += -k * (p - Vec2::new(1.0, 0.0)) * dt;
    p += v * dt;
    p[1] = 0.5 * p[1] + 0.5 * (-v)[0];
    [p[0], p[1], v[0], v.norm()]
}

/// The state's position and velocity, if the state is long enough.
#[derive_frule]
fn split_checked(s: &[f64]) -> Option<(Vec2, Vec2)> {
    if s.len() < 4 {
        return None;
    }
    Some(split_state(s))
}

/// Energies of the state, its parts taken out with `?` and with `unwrap`.
#[derive_frule]
fn checked_energy(s: &[f64]) -> Option<f64> {
    let (p, v) = split_checked(s)?;
    let (p2, _) = split_checked(s).unwrap();
    Some(0.5 * v.dot(v) + (p - v)[0] * (p2 + p).norm())
}

#[derive_frule]
fn checked_energy_or_zero(s: &[f64]) -> f64 {
    checked_energy(s).unwrap_or(0.0)
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    pub a: Vec2,
    pub b: Vec2,
}

#[derive_frule]
impl Segment {
    /// The two ends.
    pub fn ends(&self) -> (Vec2, Vec2) {
        (self.a, self.b)
    }
}

/// The corners of the box spanned by two points.
#[derive_frule]
fn corners(q: &[f64]) -> [Vec2; 2] {
    [Vec2::new(q[0], q[1]), Vec2::new(q[2], q[3])]
}

/// A segment's length (through a method returning a tuple), plus the box's diagonal
/// (through a function returning an array).
#[derive_frule]
fn lengths(q: &[f64]) -> f64 {
    let s = Segment {
        a: Vec2::new(q[0], q[1]),
        b: Vec2::new(q[2], q[3]),
    };
    let (a, b) = s.ends();
    let [lo, hi] = corners(q);
    (b - a).norm() + 0.5 * (hi - lo).dot(hi + lo)
}

// =======================================================================================
// Methods of the user's on fields and on locals whose types are not written

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Body {
    pub pos: Vec2,
    pub vel: Vec2,
    pub mass: f64,
}

#[derive_frule]
impl Body {
    /// The speed away from the origin.
    pub fn radial_speed(&self) -> f64 {
        self.pos.dot(self.vel) / self.pos.norm()
    }

    /// The kinetic energy.
    pub fn kinetic(&self) -> f64 {
        0.5 * self.mass * self.vel.dot(self.vel)
    }
}

/// A body from a flat state `[x, y, vx, vy, m]`.
#[derive_frule]
fn body(q: &[f64]) -> Body {
    Body {
        pos: Vec2::new(q[0], q[1]),
        vel: Vec2::new(q[2], q[3]),
        mass: q[4],
    }
}

/// Methods on a body and on its fields, each bound without its type.
#[derive_frule]
fn body_measures(q: &[f64]) -> f64 {
    let b = body(q);
    let p = b.pos;
    b.radial_speed() + b.kinetic() + p.norm() * b.vel.norm() + b.pos.dot(p)
}

// =======================================================================================
// `Vec<f64>` and arrays

/// Three-point Gauss–Legendre nodes and weights on `[a, b]`.
#[derive_frule]
fn gauss3(a: f64, b: f64) -> (Vec<f64>, Vec<f64>) {
    let (c, h) = (0.5 * (a + b), 0.5 * (b - a));
    let r = 0.6f64.sqrt();
    let xs = vec![c - h * r, c, c + h * r];
    let ws = vec![5.0 / 9.0 * h, 8.0 / 9.0 * h, 5.0 / 9.0 * h];
    (xs, ws)
}

/// `∫_a^b e^{k x} dx` by the rule, over `p = [a, b, k]`, and a second pass over the nodes
/// with an iterator chain.
#[derive_frule]
fn integral_exp(p: &[f64]) -> f64 {
    let (xs, mut ws) = gauss3(p[0], p[1]);
    let mut s = 0.0;
    for i in 0..xs.len() {
        s += ws[i] * (p[2] * xs[i]).exp();
    }
    ws[1] *= 0.5;
    s + xs.iter().zip(&ws).map(|(x, w)| w * x * x).sum::<f64>()
}

/// Cartesian coordinates and the area element of the polar map.
#[derive_frule]
fn polar(r: f64, t: f64) -> ([f64; 2], f64) {
    ([r * t.cos(), r * t.sin()], r)
}

/// A point on an ellipse and two of its moments.
#[derive_frule]
fn ellipse_moments(q: &[f64]) -> [f64; 3] {
    let (mut xy, det) = polar(q[0], q[1]);
    xy[1] *= 2.0;
    [xy[0] * xy[1], det * xy[0], xy[0] - xy[1] / det]
}

// =======================================================================================
// Checks

fn fd_gradient(f: &dyn Fn(&[f64]) -> f64, x: &[f64], h: f64) -> Vec<f64> {
    (0..x.len())
        .map(|j| {
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[j] += h;
            b[j] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} vs {want}"
    );
}

/// `gradient` (batched) and `jvp` (one direction) against finite differences, `hessian`
/// (second order) against finite differences of the gradient; primals bit for bit.
macro_rules! check_scalar {
    ($rule:expr, $plain:expr, $x:expr) => {{
        let x: &[f64] = $x;
        let plain: &dyn Fn(&[f64]) -> f64 = &$plain;
        let y = plain(x);
        let fd = fd_gradient(plain, x, 1e-6);
        let (v, g) = gradient($rule, x);
        assert_eq!(v.to_bits(), y.to_bits(), "gradient's primal");
        for j in 0..x.len() {
            assert_close(g[j], fd[j], 1e-6, &format!("gradient[{j}]"));
        }
        let dir: Vec<f64> = (0..x.len()).map(|i| 0.3 - 0.1 * i as f64).collect();
        let (v, d): (f64, f64) = jvp($rule, x, &dir);
        assert_eq!(v.to_bits(), y.to_bits(), "jvp's primal");
        let want: f64 = fd.iter().zip(&dir).map(|(a, b)| a * b).sum();
        assert_close(d, want, 1e-6, "jvp");
        let (v, _, h) = hessian($rule, x);
        assert_eq!(v.to_bits(), y.to_bits(), "hessian's primal");
        for j in 0..x.len() {
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[j] += 1e-5;
            b[j] -= 1e-5;
            let (_, ga) = gradient($rule, &a);
            let (_, gb) = gradient($rule, &b);
            for i in 0..x.len() {
                assert_close(
                    h[(i, j)],
                    (ga[i] - gb[i]) / 2e-5,
                    1e-5,
                    &format!("H[{i}, {j}]"),
                );
            }
        }
    }};
}

/// `jacobian` (batched) and `jvp` (one direction) against finite differences; primals bit
/// for bit.
macro_rules! check_vector {
    ($rule:expr, $plain:expr, $x:expr) => {{
        let x: &[f64] = $x;
        let plain = $plain;
        let y: Vec<f64> = plain(x).to_vec();
        let (v, jac) = jacobian($rule, x);
        for (a, b) in v.iter().zip(&y) {
            assert_eq!(a.to_bits(), b.to_bits(), "jacobian's primal");
        }
        for i in 0..y.len() {
            let fd = fd_gradient(&|x: &[f64]| plain(x)[i], x, 1e-6);
            for j in 0..x.len() {
                assert_close(jac[(i, j)], fd[j], 1e-6, &format!("J[{i}, {j}]"));
            }
        }
        let dir: Vec<f64> = (0..x.len()).map(|i| 0.2 + 0.05 * i as f64).collect();
        let (v, d) = jvp($rule, x, &dir);
        for i in 0..y.len() {
            assert_eq!(v[i].to_bits(), y[i].to_bits(), "jvp's primal");
            let want: f64 = fd_gradient(&|x: &[f64]| plain(x)[i], x, 1e-6)
                .iter()
                .zip(&dir)
                .map(|(a, b)| a * b)
                .sum();
            assert_close(d[i], want, 1e-6, &format!("jvp[{i}]"));
        }
    }};
}

#[test]
fn floats_from_a_tuple() {
    check_scalar!(cap_area {}, |p: &[f64]| cap_area(p), &[-1.5, 0.4, 2.0]);
}

#[test]
fn floats_from_a_bracketing_search() {
    check_scalar!(bracketed {}, |q: &[f64]| bracketed(q), &[0.1, 0.2, 2.0]);
}

#[test]
fn floats_from_a_tuple_taken_out_of_an_option() {
    check_scalar!(
        spread_or_zero {},
        |p: &[f64]| spread_or_zero(p),
        &[-1.5, 0.4, 2.0]
    );
}

#[test]
fn integers_from_a_tuple() {
    check_scalar!(
        peak_profile {},
        |x: &[f64]| peak_profile(x),
        &[0.3, 1.1, 2.5, 0.7, -0.2]
    );
}

#[test]
fn user_values_from_a_tuple() {
    let (k, m) = (3.0, 1.7);
    check_scalar!(
        bind(oscillator_energy {}, (Wrt, k, m)),
        |s: &[f64]| oscillator_energy(s, k, m),
        &[1.3, -0.4, 0.7, 0.25]
    );
}

#[test]
fn user_values_from_a_tuple_taken_out_of_an_option() {
    check_scalar!(
        checked_energy_or_zero {},
        |s: &[f64]| checked_energy_or_zero(s),
        &[1.3, -0.4, 0.7, 0.25]
    );
}

#[test]
fn user_values_from_a_tuple_updated_in_place() {
    let (k, dt) = (3.0, 0.1);
    check_vector!(
        bind(euler_step {}, (Wrt, k, dt)),
        |s: &[f64]| euler_step(s, k, dt),
        &[1.3, -0.4, 0.7, 0.25]
    );
}

#[test]
fn user_values_from_a_method_and_an_array() {
    check_scalar!(lengths {}, |q: &[f64]| lengths(q), &[0.3, -1.2, 2.1, 0.8]);
}

#[test]
fn user_methods_on_fields_and_untyped_locals() {
    check_scalar!(
        body_measures {},
        |q: &[f64]| body_measures(q),
        &[1.2, -0.7, 0.4, 0.9, 2.5]
    );
}

#[test]
fn vecs_from_a_tuple() {
    check_scalar!(
        integral_exp {},
        |p: &[f64]| integral_exp(p),
        &[0.2, 1.4, 0.7]
    );
}

#[test]
fn arrays_from_a_tuple() {
    check_vector!(
        ellipse_moments {},
        |q: &[f64]| ellipse_moments(q),
        &[1.4, 0.6]
    );
}
