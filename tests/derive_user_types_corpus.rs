//! The acceptance corpus of issue #27 ("Done when"): user types as values, written as a
//! physicist, a graphics programmer or an ML engineer writes them, annotated unmodified,
//! and differentiated in every mode: one direction (`jvp`), batched (`gradient`,
//! `jacobian`) and second order (`hessian`). Every derivative is checked against central
//! finite differences of the plain function (Hessians against finite differences of the
//! gradient), and every primal bit for bit against the plain function.
//!
//! - a particle simulation: `Vec3` with `Add`, `Sub`, `Mul<f64>`, `Mul<Vec3> for f64`,
//!   `Neg`, `AddAssign`, `SubAssign`, `Index`, `IndexMut`, and methods named like `std`
//!   ones (`dot`, `norm`); velocity Verlet over `&mut [Vec3]`; kinetic energy plus a
//!   pairwise Lennard-Jones potential; angular momentum with a cross product;
//! - a rigid body's inertia tensor, built with `IndexMut<(usize, usize)>` and read with
//!   `Index<(usize, usize)>`;
//! - a quaternion rotation with `impl Mul for Quat` and `impl Mul<Vec3> for Quat`;
//! - a layer of mixed activations, `&[Activation]` with data variants;
//! - shapes as an enum with struct variants;
//! - a Monte-Carlo estimate drawing from `struct Lcg(u64)` (a type with no float field),
//!   and a Monte-Carlo loss drawing from `struct Rng { state: u64 }` (named fields, no
//!   float), borrowed by a derived function and held in a struct with floats;
//! - an `impl` with a lifetime (`Polygon<'a>`), and `self` by value in a generic `impl`;
//! - `len`/`is_empty` of fields (a `Vec`, a `#[differentiable(skip)]` `String`).
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use num_traits::Float;
use std::ops::{Add, AddAssign, Index, IndexMut, Mul, Neg, Sub, SubAssign};

// =======================================================================================
// Vectors

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Vec3 {
    pub fn new(x: f64, y: f64, z: f64) -> Self {
        Vec3 { x, y, z }
    }

    pub fn zero() -> Self {
        Vec3::new(0.0, 0.0, 0.0)
    }

    pub fn dot(&self, other: Vec3) -> f64 {
        self.x * other.x + self.y * other.y + self.z * other.z
    }

    pub fn norm(&self) -> f64 {
        self.dot(*self).sqrt()
    }

    pub fn cross(&self, o: Vec3) -> Vec3 {
        Vec3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }
}

#[derive_frule]
impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

#[derive_frule]
impl Sub for Vec3 {
    type Output = Vec3;
    fn sub(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

#[derive_frule]
impl Mul<f64> for Vec3 {
    type Output = Vec3;
    fn mul(self, k: f64) -> Vec3 {
        Vec3::new(self.x * k, self.y * k, self.z * k)
    }
}

#[derive_frule]
impl Mul<Vec3> for f64 {
    type Output = Vec3;
    fn mul(self, v: Vec3) -> Vec3 {
        Vec3::new(self * v.x, self * v.y, self * v.z)
    }
}

#[derive_frule]
impl Neg for Vec3 {
    type Output = Vec3;
    fn neg(self) -> Vec3 {
        Vec3::new(-self.x, -self.y, -self.z)
    }
}

#[derive_frule]
impl AddAssign for Vec3 {
    fn add_assign(&mut self, o: Vec3) {
        self.x += o.x;
        self.y += o.y;
        self.z += o.z;
    }
}

#[derive_frule]
impl SubAssign for Vec3 {
    fn sub_assign(&mut self, o: Vec3) {
        self.x -= o.x;
        self.y -= o.y;
        self.z -= o.z;
    }
}

#[derive_frule]
impl Index<usize> for Vec3 {
    type Output = f64;
    fn index(&self, i: usize) -> &f64 {
        match i {
            0 => &self.x,
            1 => &self.y,
            2 => &self.z,
            _ => panic!("Vec3 index {i} out of range"),
        }
    }
}

#[derive_frule]
impl IndexMut<usize> for Vec3 {
    fn index_mut(&mut self, i: usize) -> &mut f64 {
        match i {
            0 => &mut self.x,
            1 => &mut self.y,
            2 => &mut self.z,
            _ => panic!("Vec3 index {i} out of range"),
        }
    }
}

// =======================================================================================
// A particle simulation

/// Positions then velocities of `n` particles, from a flat state.
#[derive_frule]
fn unpack(q: &[f64], n: usize) -> (Vec<Vec3>, Vec<Vec3>) {
    let mut p = vec![Vec3::zero(); n];
    let mut v = vec![Vec3::zero(); n];
    for i in 0..n {
        for c in 0..3 {
            p[i][c] = q[3 * i + c];
            v[i][c] = q[3 * n + 3 * i + c];
        }
    }
    (p, v)
}

/// `Σ ½ mᵢ |vᵢ|²`.
#[derive_frule]
fn kinetic(v: &[Vec3], m: &[f64]) -> f64 {
    v.iter().zip(m).map(|(v, m)| 0.5 * m * v.dot(*v)).sum()
}

/// Lennard-Jones potential over all pairs.
#[derive_frule]
fn lennard_jones(p: &[Vec3], eps: f64, sigma: f64) -> f64 {
    let mut u = 0.0;
    for i in 0..p.len() {
        for j in (i + 1)..p.len() {
            let r = (p[i] - p[j]).norm();
            let sr6 = (sigma / r).powi(6);
            u += 4.0 * eps * (sr6 * sr6 - sr6);
        }
    }
    u
}

/// The forces `-∇U` of the pair potential.
#[derive_frule]
fn forces(p: &[Vec3], eps: f64, sigma: f64, f: &mut [Vec3]) {
    for fi in f.iter_mut() {
        *fi = Vec3::zero();
    }
    for i in 0..p.len() {
        for j in (i + 1)..p.len() {
            let d = p[i] - p[j];
            let r2 = d.dot(d);
            let sr6 = (sigma * sigma / r2).powi(3);
            let fij = d * (24.0 * eps * (2.0 * sr6 * sr6 - sr6) / r2);
            f[i] += fij;
            f[j] -= fij;
        }
    }
}

/// One velocity-Verlet step in place.
#[derive_frule]
fn verlet_step(p: &mut [Vec3], v: &mut [Vec3], m: &[f64], dt: f64) {
    let n = p.len();
    let mut f = vec![Vec3::zero(); n];
    forces(p, 1.0, 1.0, &mut f);
    for i in 0..n {
        v[i] += f[i] * (0.5 * dt / m[i]);
        p[i] += dt * v[i];
    }
    forces(p, 1.0, 1.0, &mut f);
    for i in 0..n {
        v[i] += 0.5 * dt / m[i] * f[i];
    }
}

/// Total energy of the state.
#[derive_frule]
fn total_energy(q: &[f64], m: &[f64]) -> f64 {
    let (p, v) = unpack(q, m.len());
    kinetic(&v, m) + lennard_jones(&p, 1.0, 1.0)
}

/// The state after `steps` steps, flat.
#[derive_frule]
fn simulate(q: &[f64], m: &[f64], dt: f64, steps: usize) -> Vec<f64> {
    let n = m.len();
    let (mut p, mut v) = unpack(q, n);
    for _ in 0..steps {
        verlet_step(&mut p, &mut v, m, dt);
    }
    let mut out = vec![0.0; 6 * n];
    for i in 0..n {
        for c in 0..3 {
            out[3 * i + c] = p[i][c];
            out[3 * n + 3 * i + c] = v[i][c];
        }
    }
    out
}

/// `L = Σ mᵢ rᵢ × vᵢ`, and beside it the momentum of the reversed motion, `−Σ mᵢ vᵢ`.
#[derive_frule]
fn momenta(q: &[f64], m: &[f64]) -> [f64; 6] {
    let (p, v) = unpack(q, m.len());
    let mut l = Vec3::zero();
    let mut back = Vec3::zero();
    for i in 0..p.len() {
        l += m[i] * p[i].cross(v[i]);
        back -= -(v[i] * m[i]);
    }
    [l[0], l[1], l[2], -back[0], -back[1], -back[2]]
}

fn particles() -> (Vec<f64>, Vec<f64>) {
    let q = vec![
        0.0, 0.0, 0.0, 1.12, 0.05, -0.03, 0.4, 1.02, 0.1, // positions
        0.1, -0.2, 0.05, -0.05, 0.1, 0.2, 0.03, 0.02, -0.1, // velocities
    ];
    (q, vec![1.0, 1.3, 0.8])
}

// =======================================================================================
// A rigid body's inertia tensor, through `Index<(usize, usize)>` and `IndexMut`

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Mat3 {
    pub a: [f64; 9],
}

#[derive_frule]
impl Index<(usize, usize)> for Mat3 {
    type Output = f64;
    fn index(&self, (i, j): (usize, usize)) -> &Self::Output {
        &self.a[3 * i + j]
    }
}

#[derive_frule]
impl IndexMut<(usize, usize)> for Mat3 {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut Self::Output {
        &mut self.a[3 * i + j]
    }
}

/// `I = Σ mₖ (|rₖ|² 1 − rₖ rₖᵀ)` about the origin.
#[derive_frule]
fn inertia_tensor(p: &[Vec3], m: &[f64]) -> Mat3 {
    let mut t = Mat3 { a: [0.0; 9] };
    for k in 0..p.len() {
        let r = p[k];
        let r2 = r.dot(r);
        for i in 0..3 {
            t[(i, i)] += m[k] * r2;
            for j in 0..3 {
                t[(i, j)] -= m[k] * r[i] * r[j];
            }
        }
    }
    t
}

/// Rotational kinetic energy `½ ωᵀ I ω` of the bodies of the state `q`, spinning at `w`.
#[derive_frule]
fn rotational_energy(q: &[f64], m: &[f64], w: &[f64]) -> f64 {
    let (p, _) = unpack(q, m.len());
    let inertia = inertia_tensor(&p, m);
    let mut e = 0.0;
    for i in 0..3 {
        for j in 0..3 {
            e += 0.5 * w[i] * inertia[(i, j)] * w[j];
        }
    }
    e
}

// =======================================================================================
// Quaternion rotation

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Quat {
    pub w: f64,
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Quat {
    /// The rotation by `angle` about the unit axis `(ax, ay, az)`.
    pub fn from_axis_angle(axis: Vec3, angle: f64) -> Quat {
        let (s, c) = (0.5 * angle).sin_cos();
        let a = axis * (s / axis.norm());
        Quat {
            w: c,
            x: a.x,
            y: a.y,
            z: a.z,
        }
    }

    pub fn conj(&self) -> Quat {
        Quat {
            w: self.w,
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }
}

#[derive_frule]
impl Mul for Quat {
    type Output = Quat;
    fn mul(self, r: Quat) -> Quat {
        Quat {
            w: self.w * r.w - self.x * r.x - self.y * r.y - self.z * r.z,
            x: self.w * r.x + self.x * r.w + self.y * r.z - self.z * r.y,
            y: self.w * r.y - self.x * r.z + self.y * r.w + self.z * r.x,
            z: self.w * r.z + self.x * r.y - self.y * r.x + self.z * r.w,
        }
    }
}

#[derive_frule]
impl Mul<Vec3> for Quat {
    type Output = Vec3;
    fn mul(self, v: Vec3) -> Vec3 {
        let p = Quat {
            w: 0.0,
            x: v.x,
            y: v.y,
            z: v.z,
        };
        let r = self * p * self.conj();
        Vec3::new(r.x, r.y, r.z)
    }
}

/// A point rotated about two axes in turn: `params` = axis 1, angle 1, axis 2, angle 2,
/// the point.
#[derive_frule]
fn rotate_twice(params: &[f64]) -> [f64; 3] {
    let q1 = Quat::from_axis_angle(Vec3::new(params[0], params[1], params[2]), params[3]);
    let q2 = Quat::from_axis_angle(Vec3::new(params[4], params[5], params[6]), params[7]);
    let v = Vec3::new(params[8], params[9], params[10]);
    let q = q2 * q1;
    let r = q * v;
    [r.x, r.y, r.z]
}

/// The squared distance of the rotated point from a target.
#[derive_frule]
fn rotation_misfit(params: &[f64]) -> f64 {
    let r = rotate_twice(params);
    let target = Vec3::new(0.3, -0.4, 1.1);
    let d = Vec3::new(r[0], r[1], r[2]) - target;
    d.dot(d)
}

// =======================================================================================
// A layer of mixed activations

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum Activation {
    Relu,
    LeakyRelu(f64),
    Elu { alpha: f64 },
    Tanh,
}

#[derive_frule]
impl Activation {
    pub fn apply(&self, z: f64) -> f64 {
        match self {
            Activation::Relu => z.max(0.0),
            Activation::LeakyRelu(slope) => {
                if z > 0.0 {
                    z
                } else {
                    slope * z
                }
            }
            Activation::Elu { alpha } => {
                if z > 0.0 {
                    z
                } else {
                    alpha * (z.exp() - 1.0)
                }
            }
            Activation::Tanh => z.tanh(),
        }
    }
}

/// `out[i] = acts[i](Σⱼ w[i, j] x[j] + b[i])`.
#[derive_frule]
fn dense(acts: &[Activation], w: &[f64], b: &[f64], x: &[f64], out: &mut [f64]) {
    let n = x.len();
    for (i, act) in acts.iter().enumerate() {
        let mut z = b[i];
        for j in 0..n {
            z += w[i * n + j] * x[j];
        }
        out[i] = act.apply(z);
    }
}

/// The layer's outputs, its parameters in `theta`: the two activation parameters, then
/// the 4×3 weights and the 4 biases.
#[derive_frule]
fn layer_out(theta: &[f64], x: &[f64]) -> Vec<f64> {
    let acts = [
        Activation::Relu,
        Activation::LeakyRelu(theta[0]),
        Activation::Elu { alpha: theta[1] },
        Activation::Tanh,
    ];
    let mut out = vec![0.0; acts.len()];
    dense(&acts, &theta[2..14], &theta[14..18], x, &mut out);
    out
}

/// A squared-error loss of the layer.
#[derive_frule]
fn layer_loss(theta: &[f64], x: &[f64]) -> f64 {
    let y = layer_out(theta, x);
    let target = [0.5, -0.2, 0.1, 0.3];
    let mut l = 0.0;
    for i in 0..y.len() {
        l += (y[i] - target[i]).powi(2);
    }
    l
}

fn layer_params() -> (Vec<f64>, Vec<f64>) {
    let mut theta = vec![0.1, 0.7];
    theta.extend([
        0.4, -0.3, 0.2, // relu row
        -0.5, 0.1, -0.6, // leaky row (negative pre-activation)
        -0.2, -0.7, 0.3, // elu row (negative pre-activation)
        0.3, 0.2, -0.4, // tanh row
    ]);
    theta.extend([0.15, -0.05, -0.1, 0.05]);
    (theta, vec![0.8, 0.5, -0.3])
}

// =======================================================================================
// Shapes: an enum with struct variants

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Circle { r: f64 },
    Rect { w: f64, h: f64 },
    Ellipse { a: f64, b: f64 },
}

#[derive_frule]
impl Shape {
    pub fn area(&self) -> f64 {
        match *self {
            Shape::Circle { r } => std::f64::consts::PI * r * r,
            Shape::Rect { w, h } => w * h,
            Shape::Ellipse { a, b } => std::f64::consts::PI * a * b,
        }
    }

    /// Second moment of area about the centroid's x axis.
    pub fn second_moment(&self) -> f64 {
        match self {
            Shape::Circle { r } => std::f64::consts::FRAC_PI_4 * r.powi(4),
            Shape::Rect { w, h } => w * h.powi(3) / 12.0,
            Shape::Ellipse { a, b } => std::f64::consts::FRAC_PI_4 * a * b.powi(3),
        }
    }
}

/// The mass and the stiffness of a beam built of the three sections, combined.
#[derive_frule]
fn section_score(dims: &[f64], rho: f64) -> f64 {
    let shapes = [
        Shape::Circle { r: dims[0] },
        Shape::Rect {
            w: dims[1],
            h: dims[2],
        },
        Shape::Ellipse {
            a: dims[3],
            b: dims[4],
        },
    ];
    let mut mass = 0.0;
    let mut stiffness = 0.0;
    for s in &shapes {
        mass += rho * s.area();
        stiffness += s.second_moment();
    }
    stiffness / mass
}

// =======================================================================================
// A Monte-Carlo estimate with a generator of the user's

#[derive(Differentiable, Clone, Debug)]
pub struct Lcg(u64);

#[derive_frule]
impl Lcg {
    /// A uniform number in `[0, 1)` (Knuth's MMIX constants).
    pub fn next_f64(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `E[sin(μ + σ U)]` for `U` uniform on `[0, 1)`, estimated from `n` draws.
#[derive_frule]
fn mc_mean(params: &[f64], n: usize) -> f64 {
    let mut rng = Lcg(2026);
    let mut acc = 0.0;
    for _ in 0..n {
        let u = rng.next_f64();
        acc += (params[0] + params[1] * u).sin();
    }
    acc / n as f64
}

/// A generator with a named field (no float in it either).
#[derive(Differentiable, Clone, Debug)]
pub struct Rng {
    state: u64,
}

#[derive_frule]
impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// A uniform number in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        self.state = self.state.wrapping_mul(6364136223846793005).wrapping_add(1);
        (self.state >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A standard normal number (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.next_f64();
        let u2 = self.next_f64();
        (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

/// A reparameterised Gaussian draw: `mu + sigma * z`, the generator borrowed.
#[derive_frule]
fn gaussian(rng: &mut Rng, mu: f64, sigma: f64) -> f64 {
    mu + sigma * rng.normal()
}

/// A noise source holding its own generator next to its parameters.
#[derive(Differentiable, Clone, Debug)]
pub struct Noise {
    pub scale: f64,
    pub rng: Rng,
}

#[derive_frule]
impl Noise {
    pub fn sample(&mut self) -> f64 {
        self.scale * self.rng.normal()
    }
}

/// A grid description with no float: destructured by a struct pattern in a derived body.
#[derive(Differentiable, Clone, Debug)]
pub struct Grid {
    pub nx: usize,
    pub periodic: bool,
}

#[derive_frule]
fn cell_size(g: &Grid, length: f64) -> f64 {
    let Grid { nx, periodic } = g;
    let cells = if *periodic { *nx } else { *nx - 1 };
    length / cells as f64
}

/// `E[(x - a)²]` for `x ~ N(mu, sigma²)` plus a noisy penalty, from `n` draws each:
/// the gradient of a Monte-Carlo loss by the reparameterisation trick.
#[derive_frule]
fn mc_loss(params: &[f64], n: usize) -> f64 {
    let mut rng = Rng::new(17);
    let mut noise = Noise {
        scale: params[2],
        rng: Rng { state: 99 },
    };
    let mut acc = 0.0;
    for _ in 0..n {
        let x = gaussian(&mut rng, params[0], params[1]);
        let u = rng.next_f64();
        acc += (x - 0.5).powi(2) + u * noise.sample().powi(2);
    }
    acc / n as f64
}

// =======================================================================================
// An `impl` with a lifetime, and `self` by value in a generic `impl`

#[derive(Differentiable, Clone, Debug)]
pub struct Polygon<'a> {
    pub xy: &'a [f64],
}

#[derive_frule]
impl<'a> Polygon<'a> {
    /// The shoelace formula over the vertices `(xy[2k], xy[2k + 1])`.
    pub fn area(&self) -> f64 {
        let n = self.xy.len() / 2;
        let mut s = 0.0;
        for k in 0..n {
            let l = (k + 1) % n;
            s += self.xy[2 * k] * self.xy[2 * l + 1] - self.xy[2 * l] * self.xy[2 * k];
        }
        0.5 * s
    }
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct V2<T> {
    pub x: T,
    pub y: T,
}

#[derive_frule]
impl<T: Float> V2<T> {
    pub fn norm(self) -> T {
        self.x.hypot(self.y)
    }
}

/// The polygon's area over its perimeter.
#[derive_frule]
fn compactness(xy: &[f64]) -> f64 {
    let poly = Polygon { xy };
    let n = xy.len() / 2;
    let mut perimeter = 0.0;
    for k in 0..n {
        let l = (k + 1) % n;
        let edge = V2 {
            x: xy[2 * l] - xy[2 * k],
            y: xy[2 * l + 1] - xy[2 * k + 1],
        };
        perimeter += edge.norm();
    }
    poly.area() / perimeter
}

// =======================================================================================
// A field's `len`: a `Vec`, and a `#[differentiable(skip)]` label

#[derive(Differentiable, Clone, Debug)]
pub struct Spectrum {
    pub weights: Vec<f64>,
    #[differentiable(skip)]
    pub label: String,
}

/// The mean weight, scaled by the label's length.
#[derive_frule]
fn labelled_mean(s: &Spectrum, k: f64) -> f64 {
    let mut total = 0.0;
    for w in &s.weights {
        total += k * w * w;
    }
    total / s.weights.len() as f64 * s.label.len() as f64
}

#[derive_frule]
fn spectrum_score(params: &[f64]) -> f64 {
    let s = Spectrum {
        weights: params[1..].to_vec(),
        label: String::from("argon"),
    };
    if s.label.is_empty() {
        0.0
    } else {
        labelled_mean(&s, params[0])
    }
}

// =======================================================================================
// Methods of the user's named like `std` ones, on a value built with a struct literal

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Profile {
    pub heights: Vec<f64>,
}

#[derive_frule]
impl Profile {
    /// The arc length over unit steps.
    pub fn len(&self) -> f64 {
        let mut s = 0.0;
        for i in 1..self.heights.len() {
            let d = self.heights[i] - self.heights[i - 1];
            s += (1.0 + d * d).sqrt();
        }
        s
    }

    pub fn sum(&self) -> f64 {
        self.heights.iter().sum()
    }

    /// The highest point, at least `floor`.
    pub fn max(&self, floor: f64) -> f64 {
        let mut m = floor;
        for &h in &self.heights {
            m = m.max(h);
        }
        m
    }

    /// `Σ hᵢᵏ`.
    pub fn pow(&self, k: i32) -> f64 {
        self.heights.iter().map(|h| h.powi(k)).sum()
    }

    pub fn push(&mut self, h: f64) {
        self.heights.push(h);
    }
}

#[derive_frule]
fn profile_measures(h: &[f64]) -> f64 {
    let mut p = Profile {
        heights: h[..3].to_vec(),
    };
    p.push(h[3]);
    p.len() + 0.5 * p.sum() + p.max(0.0) * p.pow(2)
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
        "{what}: {got} vs {want} (difference {})",
        got - want
    );
}

/// A scalar objective in every mode: `gradient` (batched) and `jvp` (one direction, along
/// each coordinate and along a mixed direction) against finite differences, `hessian`
/// (second order) against finite differences of the batched gradient; primals bit for bit.
macro_rules! check_scalar {
    ($rule:expr, $plain:expr, $x:expr, $tol:expr) => {{
        let x: &[f64] = $x;
        let plain: &dyn Fn(&[f64]) -> f64 = &$plain;
        let y = plain(x);
        let fd = fd_gradient(plain, x, 1e-6);
        let (v, g) = gradient($rule, x);
        assert_eq!(v.to_bits(), y.to_bits(), "gradient's primal");
        for j in 0..x.len() {
            assert_close(g[j], fd[j], $tol, &format!("gradient[{j}]"));
        }
        for j in 0..x.len() {
            let e: Vec<f64> = (0..x.len())
                .map(|i| if i == j { 1.0 } else { 0.0 })
                .collect();
            let (v, d): (f64, f64) = jvp($rule, x, &e);
            assert_eq!(v.to_bits(), y.to_bits(), "jvp's primal");
            assert_close(d, fd[j], $tol, &format!("jvp along e{j}"));
        }
        let dir: Vec<f64> = (0..x.len()).map(|i| 0.3 - 0.1 * i as f64).collect();
        let (_, d): (f64, f64) = jvp($rule, x, &dir);
        let want: f64 = fd.iter().zip(&dir).map(|(a, b)| a * b).sum();
        assert_close(d, want, $tol, "jvp along a mixed direction");
        let (v, g2, h) = hessian($rule, x);
        assert_eq!(v.to_bits(), y.to_bits(), "hessian's primal");
        for j in 0..x.len() {
            assert_close(g2[j], g[j], 1e-12, &format!("hessian's gradient[{j}]"));
        }
        let step = 1e-5;
        for j in 0..x.len() {
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[j] += step;
            b[j] -= step;
            let (_, ga) = gradient($rule, &a);
            let (_, gb) = gradient($rule, &b);
            for i in 0..x.len() {
                let want = (ga[i] - gb[i]) / (2.0 * step);
                assert_close(h[(i, j)], want, 1e-5, &format!("H[{i}, {j}]"));
                assert_eq!(h[(i, j)].to_bits(), h[(j, i)].to_bits(), "H symmetric");
            }
        }
    }};
}

/// A vector function in every mode: `jacobian` (batched) and `jvp` (one direction)
/// against finite differences, primals bit for bit.
macro_rules! check_vector {
    ($rule:expr, $plain:expr, $x:expr, $tol:expr) => {{
        let x: &[f64] = $x;
        let plain = $plain;
        let y: Vec<f64> = plain(x).to_vec();
        let (v, jac) = jacobian($rule, x);
        assert_eq!(v.len(), y.len());
        for (a, b) in v.iter().zip(&y) {
            assert_eq!(a.to_bits(), b.to_bits(), "jacobian's primal");
        }
        for i in 0..y.len() {
            let fd = fd_gradient(&|x: &[f64]| plain(x)[i], x, 1e-6);
            for j in 0..x.len() {
                assert_close(jac[(i, j)], fd[j], $tol, &format!("J[{i}, {j}]"));
            }
        }
        let dir: Vec<f64> = (0..x.len()).map(|i| 0.2 + 0.05 * i as f64).collect();
        let (v, d) = jvp($rule, x, &dir);
        for i in 0..y.len() {
            assert_eq!(v[i].to_bits(), y[i].to_bits(), "jvp's primal");
            let want: f64 = (0..x.len()).map(|j| jac[(i, j)] * dir[j]).sum();
            assert_close(d[i], want, 1e-12, &format!("jvp[{i}]"));
        }
    }};
}

#[test]
fn particles_total_energy() {
    let (q, m) = particles();
    check_scalar!(
        bind(total_energy {}, (Wrt, &m[..])),
        |x: &[f64]| total_energy(x, &m),
        &q,
        1e-6
    );
}

#[test]
fn particles_velocity_verlet() {
    let (q, m) = particles();
    let (dt, steps) = (0.01, 3);
    check_vector!(
        bind(simulate {}, (Wrt, &m[..], dt, steps)),
        |x: &[f64]| simulate(x, &m, dt, steps),
        &q,
        1e-6
    );
    // The plain simulation keeps the energy (the integrator is symplectic).
    let e0 = total_energy(&q, &m);
    let e1 = total_energy(&simulate(&q, &m, dt, steps), &m);
    assert!((e1 - e0).abs() < 1e-3, "energy drift {}", e1 - e0);
}

#[test]
fn particles_angular_momentum() {
    let (q, m) = particles();
    check_vector!(
        bind(momenta {}, (Wrt, &m[..])),
        |x: &[f64]| momenta(x, &m),
        &q,
        1e-8
    );
    // ∂Lz/∂vₓ of particle i is −mᵢ yᵢ, and the momentum is linear in v: ∂P/∂v = m.
    let (_, jac) = jacobian(bind(momenta {}, (Wrt, &m[..])), &q);
    for i in 0..3 {
        assert_close(jac[(2, 9 + 3 * i)], -m[i] * q[3 * i + 1], 1e-14, "∂Lz/∂vx");
        assert_close(jac[(3, 9 + 3 * i)], -m[i], 1e-14, "∂(−Px)/∂vx");
    }
}

#[test]
fn rigid_body_inertia_tensor() {
    let (q, m) = particles();
    let w = [0.3, -0.7, 1.1];
    check_scalar!(
        bind(rotational_energy {}, (Wrt, &m[..], &w[..])),
        |x: &[f64]| rotational_energy(x, &m, &w),
        &q,
        1e-6
    );
    // The velocities do not enter.
    let (_, g) = gradient(bind(rotational_energy {}, (Wrt, &m[..], &w[..])), &q);
    assert!(g[9..].iter().all(|&d| d == 0.0));
    // The trace of I is 2 Σ mₖ |rₖ|².
    let (p, _) = unpack(&q, 3);
    let t = inertia_tensor(&p, &m);
    let trace = t[(0, 0)] + t[(1, 1)] + t[(2, 2)];
    let want: f64 = (0..3).map(|k| 2.0 * m[k] * p[k].dot(p[k])).sum();
    assert_close(trace, want, 1e-14, "trace of the inertia tensor");
}

#[test]
fn quaternion_rotation() {
    let params = [
        0.2, 0.9, -0.4, 0.8, // axis 1, angle 1
        -0.6, 0.3, 0.7, -1.3, // axis 2, angle 2
        1.0, -0.5, 0.25, // the point
    ];
    check_vector!(rotate_twice {}, rotate_twice, &params, 1e-7);
    check_scalar!(rotation_misfit {}, rotation_misfit, &params, 1e-6);
    // A rotation keeps lengths: the rotated point's length does not move with the angles.
    let (_, jac) = jacobian(rotate_twice {}, &params);
    let r = rotate_twice(&params);
    for j in [3, 7] {
        let d: f64 = (0..3).map(|i| r[i] * jac[(i, j)]).sum();
        assert!(d.abs() < 1e-14, "d|r|²/dangle = {d}");
    }
}

#[test]
fn layer_of_mixed_activations() {
    let (theta, x) = layer_params();
    // Pre-activations away from the kinks, so that finite differences hold; the leaky
    // and ELU rows negative, so that their data variants' parameters matter.
    for i in 0..4 {
        let z: f64 = theta[14 + i] + (0..3).map(|j| theta[2 + 3 * i + j] * x[j]).sum::<f64>();
        assert!(z.abs() > 0.05, "pre-activation {i}: {z}");
        if i == 1 || i == 2 {
            assert!(z < 0.0, "pre-activation {i} should be negative: {z}");
        }
    }
    check_vector!(
        bind(layer_out {}, (Wrt, &x[..])),
        |t: &[f64]| layer_out(t, &x),
        &theta,
        1e-7
    );
    check_scalar!(
        bind(layer_loss {}, (Wrt, &x[..])),
        |t: &[f64]| layer_loss(t, &x),
        &theta,
        1e-6
    );
}

#[test]
fn shapes_with_struct_variants() {
    let dims = [0.4, 0.3, 0.9, 0.5, 0.2];
    let rho = 7.8;
    check_scalar!(
        bind(section_score {}, (Wrt, rho)),
        |d: &[f64]| section_score(d, rho),
        &dims,
        1e-6
    );
}

#[test]
fn monte_carlo_with_a_generator_of_the_users() {
    let params = [0.4, 1.3];
    let n = 200;
    // The same draws in every evaluation: finite differences of the estimate itself.
    check_scalar!(
        bind(mc_mean {}, (Wrt, n)),
        |p: &[f64]| mc_mean(p, n),
        &params,
        1e-7
    );
}

#[test]
fn monte_carlo_with_a_named_field_generator() {
    let params = [0.3, 0.8, 0.2];
    let n = 100;
    check_scalar!(
        bind(mc_loss {}, (Wrt, n)),
        |p: &[f64]| mc_loss(p, n),
        &params,
        1e-7
    );
    // The closed form the estimate converges to: E[(x - a)²] = (mu - a)² + sigma², so
    // its gradient in (mu, sigma) is near (2 (mu - a), 2 sigma) for many draws.
    let (_, g) = gradient(bind(mc_loss {}, (Wrt, 20_000)), &params);
    assert_close(g[0], 2.0 * (0.3 - 0.5), 0.05, "d/dmu, many draws");
    assert_close(g[1], 2.0 * 0.8, 0.05, "d/dsigma, many draws");
}

#[test]
fn struct_pattern_on_a_struct_without_floats() {
    for (periodic, cells) in [(true, 8.0), (false, 7.0)] {
        let g = Grid { nx: 8, periodic };
        let t = GridTangent::default();
        let d = cell_size_frule(Dual::new(&g, &t), Dual::new(2.0, 1.0));
        assert_eq!(d.primal.to_bits(), cell_size(&g, 2.0).to_bits());
        // d(length / cells)/d(length) = 1 / cells.
        assert_eq!(d.tangent, 1.0 / cells);
    }
}

#[test]
fn borrowed_polygon_and_generic_self_by_value() {
    let xy = [0.0, 0.0, 1.0, 0.1, 1.2, 0.9, 0.1, 1.1];
    check_scalar!(compactness {}, compactness, &xy, 1e-6);
    // In f32 too, the generic `norm(self)` through its rule.
    let r = V2::<f32>::norm_frule(Dual::new(
        V2 { x: 3.0f32, y: 4.0 },
        V2Tangent { x: 1.0, y: 0.0 },
    ));
    assert_eq!(r.primal, 5.0);
    assert_close(r.tangent as f64, 0.6, 1e-6, "d|v|/dx");
}

#[test]
fn lengths_of_fields() {
    let params = [1.7, 0.4, -1.1, 0.8];
    check_scalar!(spectrum_score {}, spectrum_score, &params, 1e-6);
    // By hand: 5 k Σ w² / 3.
    let (_, g) = gradient(spectrum_score {}, &params);
    let sw2: f64 = params[1..].iter().map(|w| w * w).sum();
    assert_close(g[0], 5.0 * sw2 / 3.0, 1e-14, "∂/∂k");
    assert_close(g[1], 5.0 * 2.0 * 1.7 * 0.4 / 3.0, 1e-14, "∂/∂w0");
}

#[test]
fn methods_named_like_std_ones_on_a_literal() {
    let h = [0.2, 0.9, -0.4, 1.3];
    check_scalar!(profile_measures {}, profile_measures, &h, 1e-6);
}
