//! Simulation code on the user's own vector, matrix, quaternion and pose types, written
//! as physicists and roboticists write it (operators owned, borrowed and mixed, `*Assign`,
//! `Index`/`IndexMut`, a type generic over its scalar), annotated unmodified. Each
//! program is checked against central differences of the plain function in one
//! direction, in batches and at second order, primals bit for bit (`check_modes!`).
#![allow(clippy::needless_range_loop)]
// The borrowed operators (`&a - &b`) are what the file exercises.
#![allow(clippy::op_ref)]

use fwdad::prelude::*;
use num_traits::Float;
use std::ops::{Add, AddAssign, Index, IndexMut, Mul, MulAssign, Neg, Sub, SubAssign};

mod common;

// ---------------------------------------------------------------------------------------
// A 3-vector with every operator form.

#[derive(Differentiable, Clone, Copy, Debug, Default, PartialEq)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl V3 {
    pub const ZERO: V3 = V3 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };

    pub fn new(x: f64, y: f64, z: f64) -> Self {
        Self { x, y, z }
    }

    pub fn dot(&self, o: &V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    pub fn cross(&self, o: &V3) -> V3 {
        V3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    pub fn norm_squared(&self) -> f64 {
        self.dot(self)
    }

    pub fn norm(&self) -> f64 {
        self.norm_squared().sqrt()
    }

    pub fn normalized(&self) -> V3 {
        *self * (1.0 / self.norm())
    }
}

#[derive_frule]
impl Add for V3 {
    type Output = V3;
    fn add(self, rhs: V3) -> V3 {
        V3::new(self.x + rhs.x, self.y + rhs.y, self.z + rhs.z)
    }
}

#[derive_frule]
impl<'a> Add<&'a V3> for &'a V3 {
    type Output = V3;
    fn add(self, rhs: &'a V3) -> V3 {
        V3::new(self.x + rhs.x, self.y + rhs.y, self.z + rhs.z)
    }
}

#[derive_frule]
impl Sub for V3 {
    type Output = V3;
    fn sub(self, rhs: V3) -> V3 {
        V3::new(self.x - rhs.x, self.y - rhs.y, self.z - rhs.z)
    }
}

#[derive_frule]
impl<'a> Sub<&'a V3> for &'a V3 {
    type Output = V3;
    fn sub(self, rhs: &'a V3) -> V3 {
        V3::new(self.x - rhs.x, self.y - rhs.y, self.z - rhs.z)
    }
}

#[derive_frule]
impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, s: f64) -> V3 {
        V3::new(self.x * s, self.y * s, self.z * s)
    }
}

#[derive_frule]
impl Mul<V3> for f64 {
    type Output = V3;
    fn mul(self, v: V3) -> V3 {
        V3::new(self * v.x, self * v.y, self * v.z)
    }
}

#[derive_frule]
impl Neg for V3 {
    type Output = V3;
    fn neg(self) -> V3 {
        V3::new(-self.x, -self.y, -self.z)
    }
}

#[derive_frule]
impl AddAssign for V3 {
    fn add_assign(&mut self, rhs: V3) {
        self.x += rhs.x;
        self.y += rhs.y;
        self.z += rhs.z;
    }
}

#[derive_frule]
impl SubAssign for V3 {
    fn sub_assign(&mut self, rhs: V3) {
        self.x -= rhs.x;
        self.y -= rhs.y;
        self.z -= rhs.z;
    }
}

#[derive_frule]
impl MulAssign<f64> for V3 {
    fn mul_assign(&mut self, s: f64) {
        self.x *= s;
        self.y *= s;
        self.z *= s;
    }
}

#[derive_frule]
impl Index<usize> for V3 {
    type Output = f64;
    fn index(&self, i: usize) -> &f64 {
        match i {
            0 => &self.x,
            1 => &self.y,
            2 => &self.z,
            _ => panic!("V3 index {i} out of range"),
        }
    }
}

#[derive_frule]
impl IndexMut<usize> for V3 {
    fn index_mut(&mut self, i: usize) -> &mut f64 {
        match i {
            0 => &mut self.x,
            1 => &mut self.y,
            2 => &mut self.z,
            _ => panic!("V3 index {i} out of range"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Program 1: N-body gravity, velocity Verlet over `Vec<Body>` with `iter_mut`, energy at
// the end as a function of the initial positions and velocities.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Body {
    pub pos: V3,
    pub vel: V3,
    pub mass: f64,
}

#[derive_frule]
fn accelerations(bodies: &[Body], soft: f64) -> Vec<V3> {
    let mut acc = vec![V3::ZERO; bodies.len()];
    for i in 0..bodies.len() {
        for j in 0..bodies.len() {
            if i == j {
                continue;
            }
            let d = &bodies[j].pos - &bodies[i].pos;
            let r2 = d.norm_squared() + soft * soft;
            let inv_r3 = 1.0 / (r2 * r2.sqrt());
            acc[i] += d * (bodies[j].mass * inv_r3);
        }
    }
    acc
}

#[derive_frule]
fn total_energy(bodies: &[Body], soft: f64) -> f64 {
    let mut ke = 0.0;
    for b in bodies {
        ke += 0.5 * b.mass * b.vel.norm_squared();
    }
    let mut pe = 0.0;
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[i + 1..] {
            let r = ((a.pos - b.pos).norm_squared() + soft * soft).sqrt();
            pe -= a.mass * b.mass / r;
        }
    }
    ke + pe
}

/// The energy and the virial `Σ mᵢ rᵢ·aᵢ` of three bodies; `x` holds the positions then
/// the velocities.
#[derive_frule]
fn nbody_energy_and_virial(x: &[f64]) -> f64 {
    let masses = [1.0, 0.5, 0.25];
    let bodies: Vec<Body> = (0..3)
        .map(|i| Body {
            pos: V3::new(x[3 * i], x[3 * i + 1], x[3 * i + 2]),
            vel: V3::new(x[9 + 3 * i], x[9 + 3 * i + 1], x[9 + 3 * i + 2]),
            mass: masses[i],
        })
        .collect();
    let soft = 0.1;
    let acc = accelerations(&bodies, soft);
    let mut virial = 0.0;
    for (b, a) in bodies.iter().zip(acc.iter()) {
        virial += b.mass * b.pos.dot(a);
    }
    total_energy(&bodies, soft) + 0.5 * virial
}

// ---------------------------------------------------------------------------------------
// Program 2: a row-major 3x3 matrix with `Index<(usize, usize)>`, products with vectors
// and matrices, a rotation about an axis (Rodrigues) and a rigid body's kinetic energy
// ½ ωᵀ R I Rᵀ ω.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct M3 {
    pub m: [[f64; 3]; 3],
}

#[derive_frule]
impl M3 {
    pub fn identity() -> M3 {
        M3 {
            m: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        }
    }

    pub fn diag(a: f64, b: f64, c: f64) -> M3 {
        M3 {
            m: [[a, 0.0, 0.0], [0.0, b, 0.0], [0.0, 0.0, c]],
        }
    }

    pub fn transpose(&self) -> M3 {
        let mut t = M3::identity();
        for i in 0..3 {
            for j in 0..3 {
                t.m[i][j] = self.m[j][i];
            }
        }
        t
    }

    /// Rotation by `angle` about the unit `axis` (Rodrigues' formula).
    pub fn rotation(axis: V3, angle: f64) -> M3 {
        let (s, c) = angle.sin_cos();
        let t = 1.0 - c;
        let V3 { x, y, z } = axis;
        M3 {
            m: [
                [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
                [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
                [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
            ],
        }
    }
}

#[derive_frule]
impl Index<(usize, usize)> for M3 {
    type Output = f64;
    fn index(&self, (i, j): (usize, usize)) -> &f64 {
        &self.m[i][j]
    }
}

#[derive_frule]
impl Mul<V3> for M3 {
    type Output = V3;
    fn mul(self, v: V3) -> V3 {
        let mut out = V3::ZERO;
        for i in 0..3 {
            out[i] = self[(i, 0)] * v.x + self[(i, 1)] * v.y + self[(i, 2)] * v.z;
        }
        out
    }
}

#[derive_frule]
impl Mul for M3 {
    type Output = M3;
    fn mul(self, rhs: M3) -> M3 {
        let mut out = M3 { m: [[0.0; 3]; 3] };
        for i in 0..3 {
            for j in 0..3 {
                for k in 0..3 {
                    out.m[i][j] += self.m[i][k] * rhs.m[k][j];
                }
            }
        }
        out
    }
}

/// `x` = (axis angle θ, axis polar φ, axis azimuth ψ, ωx, ωy, ωz).
#[derive_frule]
fn rigid_body_kinetic(x: &[f64]) -> f64 {
    let axis = V3::new(x[1].sin() * x[2].cos(), x[1].sin() * x[2].sin(), x[1].cos());
    let r = M3::rotation(axis, x[0]);
    let inertia_body = M3::diag(1.0, 2.0, 3.5);
    let inertia_world = r * inertia_body * r.transpose();
    let omega = V3::new(x[3], x[4], x[5]);
    0.5 * omega.dot(&(inertia_world * omega))
}

// ---------------------------------------------------------------------------------------
// Program 3: quaternions. Hamilton product, conjugate, rotating a vector, integrating a
// constant body rate with renormalisation, and the angle between the result and a target.

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Quat {
    pub w: f64,
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Quat {
    pub fn identity() -> Self {
        Quat {
            w: 1.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        }
    }

    pub fn from_axis_angle(axis: &V3, angle: f64) -> Self {
        let half = 0.5 * angle;
        let s = half.sin();
        Quat {
            w: half.cos(),
            x: axis.x * s,
            y: axis.y * s,
            z: axis.z * s,
        }
    }

    pub fn conj(&self) -> Self {
        Quat {
            w: self.w,
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }

    pub fn norm(&self) -> f64 {
        (self.w * self.w + self.x * self.x + self.y * self.y + self.z * self.z).sqrt()
    }

    pub fn normalize(&mut self) {
        let n = self.norm();
        self.w /= n;
        self.x /= n;
        self.y /= n;
        self.z /= n;
    }

    pub fn rotate(&self, v: V3) -> V3 {
        let p = Quat {
            w: 0.0,
            x: v.x,
            y: v.y,
            z: v.z,
        };
        let r = *self * p * self.conj();
        V3::new(r.x, r.y, r.z)
    }
}

#[derive_frule]
impl Mul for Quat {
    type Output = Quat;
    fn mul(self, q: Quat) -> Quat {
        Quat {
            w: self.w * q.w - self.x * q.x - self.y * q.y - self.z * q.z,
            x: self.w * q.x + self.x * q.w + self.y * q.z - self.z * q.y,
            y: self.w * q.y - self.x * q.z + self.y * q.w + self.z * q.x,
            z: self.w * q.z + self.x * q.y - self.y * q.x + self.z * q.w,
        }
    }
}

/// `x` = body rate (ωx, ωy, ωz) and a duration.
#[derive_frule]
fn attitude_error(x: &[f64]) -> f64 {
    let omega = V3::new(x[0], x[1], x[2]);
    let t = x[3];
    let n = 20;
    let dt = t / n as f64;
    let mut q = Quat::identity();
    for _ in 0..n {
        let rate = omega.norm();
        let dq = Quat::from_axis_angle(&omega.normalized(), rate * dt);
        q = q * dq;
        q.normalize();
    }
    let nose = q.rotate(V3::new(1.0, 0.0, 0.0));
    let target = V3::new(0.0, 1.0, 0.0);
    nose.dot(&target).clamp(-1.0, 1.0).acos()
}

// ---------------------------------------------------------------------------------------
// Program 4: a 2-vector generic over its scalar, a projectile with quadratic drag.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Vec2<T> {
    pub x: T,
    pub y: T,
}

#[derive_frule]
impl<T: Float> Vec2<T> {
    pub fn new(x: T, y: T) -> Self {
        Vec2 { x, y }
    }

    pub fn length(self) -> T {
        self.x.hypot(self.y)
    }
}

#[derive_frule]
impl<T: Float> Add for Vec2<T> {
    type Output = Vec2<T>;
    fn add(self, o: Self) -> Self {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

#[derive_frule]
impl<T: Float> Mul<T> for Vec2<T> {
    type Output = Vec2<T>;
    fn mul(self, s: T) -> Self {
        Vec2::new(self.x * s, self.y * s)
    }
}

#[derive_frule]
fn projectile_range<T: Float>(speed: T, angle: T, drag: T) -> T {
    let g = Vec2::new(T::zero(), T::from(-9.81).unwrap());
    let mut p = Vec2::new(T::zero(), T::zero());
    let mut v = Vec2::new(speed * angle.cos(), speed * angle.sin());
    let dt = T::from(0.01).unwrap();
    let mut last = p;
    while p.y >= T::zero() {
        last = p;
        let a = g + v * (-drag * v.length());
        v = v + a * dt;
        p = p + v * dt;
    }
    // Linear interpolation to the ground between the last two points.
    let frac = last.y / (last.y - p.y);
    last.x + (p.x - last.x) * frac
}

#[derive_frule]
fn range_of(x: &[f64]) -> f64 {
    projectile_range(x[0], x[1], x[2])
}

// ---------------------------------------------------------------------------------------
// Program 5: planar poses (SE(2)) composed with `*`, inverted, and an odometry chain
// compared with a landmark.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Pose2 {
    pub x: f64,
    pub y: f64,
    pub theta: f64,
}

#[derive_frule]
impl Pose2 {
    pub fn new(x: f64, y: f64, theta: f64) -> Self {
        Pose2 { x, y, theta }
    }

    pub fn inverse(&self) -> Pose2 {
        let (s, c) = self.theta.sin_cos();
        Pose2::new(
            -c * self.x - s * self.y,
            s * self.x - c * self.y,
            -self.theta,
        )
    }

    pub fn transform_point(&self, p: [f64; 2]) -> [f64; 2] {
        let (s, c) = self.theta.sin_cos();
        [self.x + c * p[0] - s * p[1], self.y + s * p[0] + c * p[1]]
    }
}

#[derive_frule]
impl Mul for Pose2 {
    type Output = Pose2;
    fn mul(self, b: Pose2) -> Pose2 {
        let (s, c) = self.theta.sin_cos();
        let theta = (self.theta + b.theta + std::f64::consts::PI)
            .rem_euclid(2.0 * std::f64::consts::PI)
            - std::f64::consts::PI;
        Pose2 {
            x: self.x + c * b.x - s * b.y,
            y: self.y + s * b.x + c * b.y,
            theta,
        }
    }
}

#[derive_frule]
impl<'a> Mul<&'a Pose2> for &'a Pose2 {
    type Output = Pose2;
    fn mul(self, b: &'a Pose2) -> Pose2 {
        *self * *b
    }
}

/// `x` holds three odometry increments (dx, dy, dθ each); the squared distance between
/// a landmark seen in the last frame and its map position.
#[derive_frule]
fn odometry_residual(x: &[f64]) -> f64 {
    let mut pose = Pose2::new(0.0, 0.0, 0.0);
    for step in x.chunks_exact(3) {
        let delta = Pose2::new(step[0], step[1], step[2]);
        pose = &pose * &delta;
    }
    let seen = [1.5, -0.25];
    let world = pose.transform_point(seen);
    let back = (pose.inverse() * pose).transform_point(seen);
    let map = [3.0, 1.0];
    (world[0] - map[0]).powi(2) + (world[1] - map[1]).powi(2) + (back[0] - seen[0]).powi(2)
}

// ---------------------------------------------------------------------------------------

#[test]
fn nbody_energy_and_virial_in_every_mode() {
    let x = [
        0.0, 0.0, 0.0, 1.0, 0.1, 0.0, -0.3, 0.9, 0.2, // positions
        0.0, 0.0, 0.1, 0.0, 0.8, 0.0, -0.6, -0.2, 0.05, // velocities
    ];
    check_modes!(nbody_energy_and_virial {}, nbody_energy_and_virial, x);
}

#[test]
fn rigid_body_kinetic_in_every_mode() {
    let x = [0.7, 0.4, 1.1, 0.3, -1.2, 0.8];
    check_modes!(rigid_body_kinetic {}, rigid_body_kinetic, x);
    // Closed form: about the z axis, ωz alone sees the body's third principal moment.
    let z = [0.7, 0.0, 0.0, 0.0, 0.0, 2.0];
    let (v, g) = gradient(rigid_body_kinetic {}, &z);
    assert!((v - 0.5 * 3.5 * 4.0).abs() < 1e-12);
    assert!((g[5] - 3.5 * 2.0).abs() < 1e-12);
}

#[test]
fn attitude_error_in_every_mode() {
    let x = [0.2, -0.1, 1.3, 1.0];
    check_modes!(attitude_error {}, attitude_error, x);
}

#[test]
fn projectile_range_in_every_mode() {
    let x = [20.0, 0.7, 0.01];
    check_modes!(range_of {}, range_of, x);
    // Without drag the range is v² sin 2θ / g up to the step's error: its derivative in
    // the speed is close to 2 v sin 2θ / g.
    let (_, g) = gradient(range_of {}, &[20.0, 0.7, 0.0]);
    let want = 2.0 * 20.0 * (1.4f64).sin() / 9.81;
    assert!((g[0] - want).abs() < 0.05 * want, "{} vs {want}", g[0]);
}

#[test]
fn odometry_residual_in_every_mode() {
    let x = [1.0, 0.2, 0.3, 0.8, -0.1, 0.25, 0.5, 0.0, -0.2];
    check_modes!(odometry_residual {}, odometry_residual, x);
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Spring32 {
    pub k: f32,
    pub rest: f32,
}

#[derive_frule]
fn spring32_energy(s: &Spring32, x: f32) -> f32 {
    let d = x - s.rest;
    0.5 * s.k * d * d + s.k * 0.25 * (s.rest / 2.0).sin()
}

#[test]
fn f32_fields_beside_literals() {
    let s = Spring32 { k: 3.0, rest: 0.5 };
    let r = spring32_energy_frule(
        Dual::new(&s, &Spring32Tangent { k: 0.0, rest: 0.0 }),
        Dual::new(1.5f32, 1.0f32),
    );
    assert_eq!(r.primal.to_bits(), spring32_energy(&s, 1.5).to_bits());
    assert!((r.tangent - 3.0).abs() < 1e-6);
}

/// A grid with integer fields: `g.nx * g.ny` of two integer fields, and `g.nx + 1`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Grid {
    pub h: f64,
    pub nx: usize,
    pub ny: usize,
}

#[derive_frule]
fn grid_area(g: &Grid) -> f64 {
    let cells = g.nx * g.ny;
    let nodes = (g.nx + 1) * (g.ny + 1);
    g.h * g.h * cells as f64 + 1e-3 * g.h * nodes as f64
}

#[test]
fn integer_fields_of_a_differentiated_struct() {
    let g = Grid {
        h: 0.5,
        nx: 4,
        ny: 3,
    };
    let r = grid_area_frule(Dual::new(
        &g,
        &GridTangent {
            h: 1.0,
            nx: NoTangent,
            ny: NoTangent,
        },
    ));
    assert_eq!(r.primal.to_bits(), grid_area(&g).to_bits());
    // d/dh of h² n m + 10⁻³ h (n + 1)(m + 1).
    assert!((r.tangent - (2.0 * 0.5 * 12.0 + 1e-3 * 20.0)).abs() < 1e-12);
}
