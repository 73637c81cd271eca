//! Kernels on the user's own types: a `Vec3` and a `Quat` with `#[derive(Differentiable)]`
//! and `#[derive_frule] impl Add/Sub/Mul/..`, used through their operators (`p[i] - p[j]`,
//! `v[i] += f[i] * h`, `q * qi`), as a physicist or roboticist writes them. Each derived
//! rule goes through the operators' rules (`OpRule`), so these kernels measure what that
//! path costs against:
//!
//! * an expert JVP written by hand on the same primal operations, generic over the
//!   tangent's lanes ([`HandLanes`]: `f64` for one direction, `Batch<f64, 8>`'s array for
//!   eight), with shared factors folded;
//! * num-dual on the same code made generic (`V3<D: DualNum>`, `Q<D>`).
//!
//! Kernels: one velocity-Verlet step of 16 particles under a Lennard-Jones pair potential
//! (`&mut [Vec3]` positions and velocities), the tip of a chain of 8 quaternion joints
//! (`q = q * Quat::from_axis_angle(..)`, then `q.rotate(tip)`), and the energy of a
//! 4×4×4 grid of `Vec3` nodes joined by springs.

use fwdad::prelude::*;
use num_dual::DualNum;
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// Particles of the Verlet kernel.
pub const N_PARTICLES: usize = 16;
/// Joints of the quaternion chain.
pub const N_JOINTS: usize = 8;
/// Nodes per side of the spring grid.
pub const GRID: usize = 4;

// --- the user's types ---------------------------------------------------------------------

/// A 3-vector, as a simulation code defines it.
#[derive(Differentiable, Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Vec3 {
    pub fn new(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3 { x, y, z }
    }

    pub fn dot(&self, o: &Vec3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    pub fn cross(&self, o: &Vec3) -> Vec3 {
        Vec3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }

    pub fn norm(&self) -> f64 {
        self.dot(self).sqrt()
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
impl Div<f64> for Vec3 {
    type Output = Vec3;
    fn div(self, k: f64) -> Vec3 {
        Vec3::new(self.x / k, self.y / k, self.z / k)
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

/// A unit quaternion `w + xi + yj + zk`.
#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Quat {
    pub w: f64,
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Quat {
    pub fn identity() -> Quat {
        Quat {
            w: 1.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        }
    }

    pub fn from_axis_angle(axis: &Vec3, angle: f64) -> Quat {
        let half = 0.5 * angle;
        let s = half.sin();
        Quat {
            w: half.cos(),
            x: axis.x * s,
            y: axis.y * s,
            z: axis.z * s,
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

    pub fn rotate(&self, v: Vec3) -> Vec3 {
        let p = Quat {
            w: 0.0,
            x: v.x,
            y: v.y,
            z: v.z,
        };
        let r = *self * p * self.conj();
        Vec3::new(r.x, r.y, r.z)
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

// --- the kernels, as users write them --------------------------------------------------------

/// Lennard-Jones forces `F = -∇U` over all pairs, into `f`.
#[derive_frule]
pub fn lj_forces(p: &[Vec3], eps: f64, sigma: f64, f: &mut [Vec3]) {
    for fi in f.iter_mut() {
        *fi = Vec3::new(0.0, 0.0, 0.0);
    }
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let d = p[i] - p[j];
            let r2 = d.dot(&d);
            let s6 = (sigma * sigma / r2).powi(3);
            let fij = d * (24.0 * eps * (2.0 * s6 * s6 - s6) / r2);
            f[i] += fij;
            f[j] -= fij;
        }
    }
}

/// One velocity-Verlet step in place; `f` holds the forces at `p` on entry and on exit.
#[derive_frule]
pub fn verlet_step(
    p: &mut [Vec3],
    v: &mut [Vec3],
    f: &mut [Vec3],
    m: &[f64],
    dt: f64,
    eps: f64,
    sigma: f64,
) {
    for i in 0..p.len() {
        v[i] += f[i] * (0.5 * dt / m[i]);
        p[i] += v[i] * dt;
    }
    lj_forces(p, eps, sigma, f);
    for i in 0..p.len() {
        v[i] += f[i] / m[i] * (0.5 * dt);
    }
}

/// Where the tip of a chain of revolute joints points: each joint turns by `theta[i]`
/// about its axis in the previous joint's frame. The axes and the tip are the arm's
/// geometry, constant data.
#[derive_frule(inactive(axes))]
pub fn chain_tip(theta: &[f64], axes: &[Vec3], tip: Vec3) -> Vec3 {
    let mut q = Quat::identity();
    for i in 0..theta.len() {
        q = q * Quat::from_axis_angle(&axes[i], theta[i]);
    }
    q.rotate(tip)
}

/// Energy `Σ ½ k (|pᵢ - pⱼ| - Lₛ)²` of springs `(i, j)` with rest lengths `rest` (the
/// network's topology and rest lengths are constant data).
#[derive_frule(inactive(springs, rest))]
pub fn spring_energy(p: &[Vec3], springs: &[(usize, usize)], rest: &[f64], k: f64) -> f64 {
    let mut e = 0.0;
    for s in 0..springs.len() {
        let (i, j) = springs[s];
        let stretch = (p[i] - p[j]).norm() - rest[s];
        e += 0.5 * k * stretch * stretch;
    }
    e
}

/// [`spring_energy`] on a flat slice of coordinates (`x[3i..3i + 3]` is node `i`), as it
/// is written without a vector type: the macro's float path, for comparison.
#[derive_frule(inactive(springs, rest))]
pub fn spring_energy_flat(x: &[f64], springs: &[(usize, usize)], rest: &[f64], k: f64) -> f64 {
    let mut e = 0.0;
    for s in 0..springs.len() {
        let (i, j) = springs[s];
        let dx = x[3 * i] - x[3 * j];
        let dy = x[3 * i + 1] - x[3 * j + 1];
        let dz = x[3 * i + 2] - x[3 * j + 2];
        let stretch = (dx * dx + dy * dy + dz * dz).sqrt() - rest[s];
        e += 0.5 * k * stretch * stretch;
    }
    e
}

// --- expert JVPs -------------------------------------------------------------------------------

/// The tangent lanes an expert's JVP is written over: `f64` for one direction, a batch's
/// array for several. Every operation is a loop over the lanes.
pub trait HandLanes: fwdad::Mode + Copy {
    /// All lanes zero.
    fn l_zero() -> Self;
    /// `self + o`.
    fn l_add(self, o: Self) -> Self;
    /// `self - o`.
    fn l_sub(self, o: Self) -> Self;
    /// `self · k`.
    fn l_scale(self, k: f64) -> Self;
    /// `self · k + o`.
    fn l_axpy(self, k: f64, o: Self) -> Self;
}

impl HandLanes for f64 {
    #[inline(always)]
    fn l_zero() -> Self {
        0.0
    }
    #[inline(always)]
    fn l_add(self, o: Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn l_sub(self, o: Self) -> Self {
        self - o
    }
    #[inline(always)]
    fn l_scale(self, k: f64) -> Self {
        self * k
    }
    #[inline(always)]
    fn l_axpy(self, k: f64, o: Self) -> Self {
        self * k + o
    }
}

impl<const N: usize> HandLanes for Batch<f64, N> {
    #[inline(always)]
    fn l_zero() -> Self {
        Batch([0.0; N])
    }
    #[inline(always)]
    fn l_add(self, o: Self) -> Self {
        Batch(std::array::from_fn(|l| self.0[l] + o.0[l]))
    }
    #[inline(always)]
    fn l_sub(self, o: Self) -> Self {
        Batch(std::array::from_fn(|l| self.0[l] - o.0[l]))
    }
    #[inline(always)]
    fn l_scale(self, k: f64) -> Self {
        Batch(std::array::from_fn(|l| self.0[l] * k))
    }
    #[inline(always)]
    fn l_axpy(self, k: f64, o: Self) -> Self {
        Batch(std::array::from_fn(|l| self.0[l] * k + o.0[l]))
    }
}

/// A tangent of a [`Vec3`] in lanes `T` (the same layout as the derived `Vec3Tangent<T>`).
type V3T<T> = Vec3Tangent<T>;

#[inline(always)]
fn v3t_sub<T: HandLanes>(a: V3T<T>, b: V3T<T>) -> V3T<T> {
    V3T {
        x: a.x.l_sub(b.x),
        y: a.y.l_sub(b.y),
        z: a.z.l_sub(b.z),
    }
}

/// `a·k + b`, fieldwise.
#[inline(always)]
fn v3t_axpy<T: HandLanes>(a: V3T<T>, k: f64, b: V3T<T>) -> V3T<T> {
    V3T {
        x: a.x.l_axpy(k, b.x),
        y: a.y.l_axpy(k, b.y),
        z: a.z.l_axpy(k, b.z),
    }
}

/// `d · dd` where `d` is a primal vector and `dd` a tangent.
#[inline(always)]
fn dot_t<T: HandLanes>(d: Vec3, dd: V3T<T>) -> T {
    dd.x.l_scale(d.x)
        .l_add(dd.y.l_scale(d.y))
        .l_add(dd.z.l_scale(d.z))
}

/// [`lj_forces`] and its JVP: `dF_ij = dd·c + d·(dr2·k)`, with `k = dc/dr2` folded once.
pub fn lj_forces_expert<T: HandLanes>(
    p: &[Vec3],
    dp: &[V3T<T>],
    eps: f64,
    sigma: f64,
    f: &mut [Vec3],
    df: &mut [V3T<T>],
) {
    let n = p.len();
    let (dp, f, df) = (&dp[..n], &mut f[..n], &mut df[..n]);
    for (fi, dfi) in f.iter_mut().zip(df.iter_mut()) {
        *fi = Vec3::new(0.0, 0.0, 0.0);
        *dfi = V3T {
            x: T::l_zero(),
            y: T::l_zero(),
            z: T::l_zero(),
        };
    }
    for i in 0..n {
        for j in i + 1..n {
            let d = p[i] - p[j];
            let dd = v3t_sub(dp[i], dp[j]);
            let r2 = d.dot(&d);
            let s6 = (sigma * sigma / r2).powi(3);
            let c = 24.0 * eps * (2.0 * s6 * s6 - s6) / r2;
            let fij = d * c;
            // dr2 = 2 d·dd; ds6 = -3 s6 dr2 / r2; dc = (24 eps (4 s6 - 1) ds6 - c dr2) / r2.
            let inv = 1.0 / r2;
            let k = 2.0 * inv * (-3.0 * s6 * inv * 24.0 * eps * (4.0 * s6 - 1.0) - c);
            let dr2k = dot_t(d, dd);
            let dfij = V3T {
                x: dr2k.l_axpy(d.x * k, dd.x.l_scale(c)),
                y: dr2k.l_axpy(d.y * k, dd.y.l_scale(c)),
                z: dr2k.l_axpy(d.z * k, dd.z.l_scale(c)),
            };
            f[i] += fij;
            f[j] -= fij;
            df[i] = v3t_axpy(dfij, 1.0, df[i]);
            df[j] = v3t_sub(df[j], dfij);
        }
    }
}

/// [`verlet_step`] and its JVP (masses, `dt` and the potential's parameters constant).
#[allow(clippy::too_many_arguments)]
pub fn verlet_step_expert<T: HandLanes>(
    p: &mut [Vec3],
    dp: &mut [V3T<T>],
    v: &mut [Vec3],
    dv: &mut [V3T<T>],
    f: &mut [Vec3],
    df: &mut [V3T<T>],
    m: &[f64],
    dt: f64,
    eps: f64,
    sigma: f64,
) {
    let n = p.len();
    let (dp, v, dv, m) = (&mut dp[..n], &mut v[..n], &mut dv[..n], &m[..n]);
    let (f, df) = (&mut f[..n], &mut df[..n]);
    for i in 0..n {
        let h = 0.5 * dt / m[i];
        v[i] += f[i] * h;
        dv[i] = v3t_axpy(df[i], h, dv[i]);
        p[i] += v[i] * dt;
        dp[i] = v3t_axpy(dv[i], dt, dp[i]);
    }
    lj_forces_expert(p, dp, eps, sigma, f, df);
    for i in 0..n {
        v[i] += f[i] / m[i] * (0.5 * dt);
        dv[i] = v3t_axpy(df[i], 0.5 * dt / m[i], dv[i]);
    }
}

/// A quaternion's tangent in lanes `T`.
type QT<T> = QuatTangent<T>;

/// `a * b` with `a`'s tangent `da`, `b` constant: `da * b`.
#[inline(always)]
fn qt_mul_right<T: HandLanes>(da: QT<T>, b: Quat) -> QT<T> {
    QT {
        w: da
            .w
            .l_scale(b.w)
            .l_sub(da.x.l_scale(b.x))
            .l_sub(da.y.l_scale(b.y))
            .l_sub(da.z.l_scale(b.z)),
        x: da
            .w
            .l_scale(b.x)
            .l_add(da.x.l_scale(b.w))
            .l_add(da.y.l_scale(b.z))
            .l_sub(da.z.l_scale(b.y)),
        y: da
            .w
            .l_scale(b.y)
            .l_sub(da.x.l_scale(b.z))
            .l_add(da.y.l_scale(b.w))
            .l_add(da.z.l_scale(b.x)),
        z: da
            .w
            .l_scale(b.z)
            .l_add(da.x.l_scale(b.y))
            .l_sub(da.y.l_scale(b.x))
            .l_add(da.z.l_scale(b.w)),
    }
}

/// `a * b` with `b`'s tangent `db`, `a` constant: `a * db`.
#[inline(always)]
fn qt_mul_left<T: HandLanes>(a: Quat, db: QT<T>) -> QT<T> {
    QT {
        w: db
            .w
            .l_scale(a.w)
            .l_sub(db.x.l_scale(a.x))
            .l_sub(db.y.l_scale(a.y))
            .l_sub(db.z.l_scale(a.z)),
        x: db
            .x
            .l_scale(a.w)
            .l_add(db.w.l_scale(a.x))
            .l_add(db.z.l_scale(a.y))
            .l_sub(db.y.l_scale(a.z)),
        y: db
            .y
            .l_scale(a.w)
            .l_sub(db.z.l_scale(a.x))
            .l_add(db.w.l_scale(a.y))
            .l_add(db.x.l_scale(a.z)),
        z: db
            .z
            .l_scale(a.w)
            .l_add(db.y.l_scale(a.x))
            .l_sub(db.x.l_scale(a.y))
            .l_add(db.w.l_scale(a.z)),
    }
}

/// [`chain_tip`] and its JVP in the joint angles (axes and tip constant). A joint's
/// quaternion `(cos h, a sin h)`, `h = θ/2`, has tangent `(-sin h, a cos h)·dθ/2`, a
/// single lane vector scaled by four constants.
pub fn chain_tip_expert<T: HandLanes>(
    theta: &[f64],
    dtheta: &[T],
    axes: &[Vec3],
    tip: Vec3,
) -> (Vec3, V3T<T>) {
    let n = theta.len();
    let (dtheta, axes) = (&dtheta[..n], &axes[..n]);
    let mut q = Quat::identity();
    let z = T::l_zero();
    let mut dq = QT {
        w: z,
        x: z,
        y: z,
        z,
    };
    for i in 0..n {
        let a = axes[i];
        let half = 0.5 * theta[i];
        let s = half.sin();
        let c = half.cos();
        let qi = Quat {
            w: c,
            x: a.x * s,
            y: a.y * s,
            z: a.z * s,
        };
        // q·dqi with dqi = u·dh: a quaternion product by the constant u = (-s, a c), times dh.
        let u = Quat {
            w: -0.5 * s,
            x: 0.5 * a.x * c,
            y: 0.5 * a.y * c,
            z: 0.5 * a.z * c,
        };
        let qu = q * u;
        let dh = dtheta[i];
        let right = qt_mul_right(dq, qi);
        dq = QT {
            w: dh.l_axpy(qu.w, right.w),
            x: dh.l_axpy(qu.x, right.x),
            y: dh.l_axpy(qu.y, right.y),
            z: dh.l_axpy(qu.z, right.z),
        };
        q = q * qi;
    }
    let p = Quat {
        w: 0.0,
        x: tip.x,
        y: tip.y,
        z: tip.z,
    };
    let qp = q * p;
    let qc = q.conj();
    let r = qp * qc;
    // d(q p q̄) = dq p q̄ + q p dq̄
    let dqc = QT {
        w: dq.w,
        x: dq.x.l_scale(-1.0),
        y: dq.y.l_scale(-1.0),
        z: dq.z.l_scale(-1.0),
    };
    let a = qt_mul_right(qt_mul_right(dq, p), qc);
    let b = qt_mul_left(qp, dqc);
    (
        Vec3::new(r.x, r.y, r.z),
        V3T {
            x: a.x.l_add(b.x),
            y: a.y.l_add(b.y),
            z: a.z.l_add(b.z),
        },
    )
}

/// [`spring_energy`] and its JVP: `dE = Σ k·stretch·(d·dd)/r`.
pub fn spring_energy_expert<T: HandLanes>(
    p: &[Vec3],
    dp: &[V3T<T>],
    springs: &[(usize, usize)],
    rest: &[f64],
    k: f64,
) -> (f64, T) {
    let mut e = 0.0;
    let mut de = T::l_zero();
    for (s, &(i, j)) in springs.iter().enumerate() {
        let d = p[i] - p[j];
        let dd = v3t_sub(dp[i], dp[j]);
        let r = d.norm();
        let stretch = r - rest[s];
        e += 0.5 * k * stretch * stretch;
        de = dot_t(d, dd).l_axpy(k * stretch / r, de);
    }
    (e, de)
}

// --- the same code, generic for num-dual ---------------------------------------------------------

/// [`Vec3`] generic over num-dual's number types.
#[derive(Clone, Copy, Debug)]
pub struct V3<D> {
    pub x: D,
    pub y: D,
    pub z: D,
}

impl<D: DualNum<Primitive = f64> + Copy> V3<D> {
    #[inline]
    pub fn new(x: D, y: D, z: D) -> Self {
        V3 { x, y, z }
    }
    /// A constant vector.
    #[inline]
    pub fn from_f64(v: Vec3) -> Self {
        V3::new(D::from(v.x), D::from(v.y), D::from(v.z))
    }
    #[inline]
    pub fn dot(&self, o: &Self) -> D {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    #[inline]
    pub fn norm(&self) -> D {
        self.dot(self).sqrt()
    }
}

impl<D: DualNum<Primitive = f64> + Copy> Add for V3<D> {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        V3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}
impl<D: DualNum<Primitive = f64> + Copy> Sub for V3<D> {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        V3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}
impl<D: DualNum<Primitive = f64> + Copy> Mul<D> for V3<D> {
    type Output = Self;
    #[inline]
    fn mul(self, k: D) -> Self {
        V3::new(self.x * k, self.y * k, self.z * k)
    }
}
impl<D: DualNum<Primitive = f64> + Copy> Div<D> for V3<D> {
    type Output = Self;
    #[inline]
    fn div(self, k: D) -> Self {
        V3::new(self.x / k, self.y / k, self.z / k)
    }
}
impl<D: DualNum<Primitive = f64> + Copy> AddAssign for V3<D> {
    #[inline]
    fn add_assign(&mut self, o: Self) {
        self.x += o.x;
        self.y += o.y;
        self.z += o.z;
    }
}
impl<D: DualNum<Primitive = f64> + Copy> SubAssign for V3<D> {
    #[inline]
    fn sub_assign(&mut self, o: Self) {
        self.x -= o.x;
        self.y -= o.y;
        self.z -= o.z;
    }
}

/// [`Quat`] generic over num-dual's number types.
#[derive(Clone, Copy, Debug)]
pub struct Q<D> {
    pub w: D,
    pub x: D,
    pub y: D,
    pub z: D,
}

impl<D: DualNum<Primitive = f64> + Copy> Q<D> {
    #[inline]
    pub fn identity() -> Self {
        Q {
            w: D::one(),
            x: D::zero(),
            y: D::zero(),
            z: D::zero(),
        }
    }
    #[inline]
    pub fn from_axis_angle(axis: &V3<D>, angle: D) -> Self {
        let half = angle * 0.5;
        let s = half.sin();
        Q {
            w: half.cos(),
            x: axis.x * s,
            y: axis.y * s,
            z: axis.z * s,
        }
    }
    #[inline]
    pub fn conj(&self) -> Self {
        Q {
            w: self.w,
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }
    #[inline]
    pub fn rotate(&self, v: V3<D>) -> V3<D> {
        let p = Q {
            w: D::zero(),
            x: v.x,
            y: v.y,
            z: v.z,
        };
        let r = *self * p * self.conj();
        V3::new(r.x, r.y, r.z)
    }
}

impl<D: DualNum<Primitive = f64> + Copy> Mul for Q<D> {
    type Output = Self;
    #[inline]
    fn mul(self, q: Self) -> Self {
        Q {
            w: self.w * q.w - self.x * q.x - self.y * q.y - self.z * q.z,
            x: self.w * q.x + self.x * q.w + self.y * q.z - self.z * q.y,
            y: self.w * q.y - self.x * q.z + self.y * q.w + self.z * q.x,
            z: self.w * q.z + self.x * q.y - self.y * q.x + self.z * q.w,
        }
    }
}

/// [`lj_forces`] for num-dual.
pub fn lj_forces_nd<D: DualNum<Primitive = f64> + Copy>(
    p: &[V3<D>],
    eps: D,
    sigma: D,
    f: &mut [V3<D>],
) {
    for fi in f.iter_mut() {
        *fi = V3::new(D::zero(), D::zero(), D::zero());
    }
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let d = p[i] - p[j];
            let r2 = d.dot(&d);
            let s6 = (sigma * sigma / r2).powi(3);
            let fij = d * (eps * 24.0 * (s6 * s6 * 2.0 - s6) / r2);
            f[i] += fij;
            f[j] -= fij;
        }
    }
}

/// [`verlet_step`] for num-dual (masses and `dt` plain numbers, as num-dual's users pass
/// constants).
pub fn verlet_step_nd<D: DualNum<Primitive = f64> + Copy>(
    p: &mut [V3<D>],
    v: &mut [V3<D>],
    f: &mut [V3<D>],
    m: &[f64],
    dt: f64,
    eps: D,
    sigma: D,
) {
    for i in 0..p.len() {
        v[i] += f[i] * D::from(0.5 * dt / m[i]);
        p[i] += v[i] * D::from(dt);
    }
    lj_forces_nd(p, eps, sigma, f);
    for i in 0..p.len() {
        v[i] += f[i] / D::from(m[i]) * D::from(0.5 * dt);
    }
}

/// [`chain_tip`] for num-dual.
pub fn chain_tip_nd<D: DualNum<Primitive = f64> + Copy>(
    theta: &[D],
    axes: &[Vec3],
    tip: Vec3,
) -> V3<D> {
    let mut q = Q::identity();
    for i in 0..theta.len() {
        q = q * Q::from_axis_angle(&V3::from_f64(axes[i]), theta[i]);
    }
    q.rotate(V3::from_f64(tip))
}

/// [`spring_energy`] for num-dual.
pub fn spring_energy_nd<D: DualNum<Primitive = f64> + Copy>(
    p: &[V3<D>],
    springs: &[(usize, usize)],
    rest: &[f64],
    k: f64,
) -> D {
    let mut e = D::zero();
    for s in 0..springs.len() {
        let (i, j) = springs[s];
        let stretch = (p[i] - p[j]).norm() - rest[s];
        e += stretch * stretch * (0.5 * k);
    }
    e
}

// --- instances ------------------------------------------------------------------------------

/// A Verlet instance: particles on a jittered cubic lattice near the potential's minimum,
/// moving slowly; forces at the start computed.
#[derive(Clone, Debug)]
pub struct VerletCase {
    pub p: Vec<Vec3>,
    pub v: Vec<Vec3>,
    pub f: Vec<Vec3>,
    pub m: Vec<f64>,
    pub dt: f64,
    pub eps: f64,
    pub sigma: f64,
}

impl VerletCase {
    pub fn new(rng: &mut crate::rng::Rng) -> Self {
        let n = N_PARTICLES;
        let side = 3;
        let mut p = Vec::with_capacity(n);
        for i in 0..n {
            let (a, b, c) = (i % side, (i / side) % side, i / (side * side));
            p.push(Vec3::new(
                1.12 * a as f64 + rng.uniform(-0.05, 0.05),
                1.12 * b as f64 + rng.uniform(-0.05, 0.05),
                1.12 * c as f64 + rng.uniform(-0.05, 0.05),
            ));
        }
        let v = (0..n)
            .map(|_| {
                Vec3::new(
                    rng.uniform(-0.2, 0.2),
                    rng.uniform(-0.2, 0.2),
                    rng.uniform(-0.2, 0.2),
                )
            })
            .collect();
        let m = rng.vec(n, 0.8, 1.2);
        let mut f = vec![Vec3::default(); n];
        lj_forces(&p, 1.0, 1.0, &mut f);
        VerletCase {
            p,
            v,
            f,
            m,
            dt: 0.002,
            eps: 1.0,
            sigma: 1.0,
        }
    }
}

/// Quaternion chain instance: angles and unit axes.
pub fn chain_case(rng: &mut crate::rng::Rng) -> (Vec<f64>, Vec<Vec3>, Vec3) {
    let theta = rng.vec(N_JOINTS, -1.5, 1.5);
    let axes = (0..N_JOINTS)
        .map(|_| {
            let a = Vec3::new(
                rng.uniform(-1.0, 1.0),
                rng.uniform(-1.0, 1.0),
                rng.uniform(-1.0, 1.0),
            );
            a * (1.0 / a.norm())
        })
        .collect();
    (theta, axes, Vec3::new(0.3, -0.2, 1.0))
}

/// Spring grid instance: `GRID³` nodes jittered around a unit lattice, springs between
/// lattice neighbours, rest lengths near 1.
pub fn spring_case(rng: &mut crate::rng::Rng) -> (Vec<Vec3>, Vec<(usize, usize)>, Vec<f64>) {
    let g = GRID;
    let id = |a: usize, b: usize, c: usize| a + g * (b + g * c);
    let mut p = vec![Vec3::default(); g * g * g];
    let mut springs = Vec::new();
    for c in 0..g {
        for b in 0..g {
            for a in 0..g {
                p[id(a, b, c)] = Vec3::new(
                    a as f64 + rng.uniform(-0.1, 0.1),
                    b as f64 + rng.uniform(-0.1, 0.1),
                    c as f64 + rng.uniform(-0.1, 0.1),
                );
                if a + 1 < g {
                    springs.push((id(a, b, c), id(a + 1, b, c)));
                }
                if b + 1 < g {
                    springs.push((id(a, b, c), id(a, b + 1, c)));
                }
                if c + 1 < g {
                    springs.push((id(a, b, c), id(a, b, c + 1)));
                }
            }
        }
    }
    let rest = rng.vec(springs.len(), 0.9, 1.1);
    (p, springs, rest)
}

/// Random tangents of `n` vectors in lanes `T`.
pub fn tangents<T: HandLanes>(
    rng: &mut crate::rng::Rng,
    n: usize,
    lane: impl Fn(&mut crate::rng::Rng) -> T,
) -> Vec<V3T<T>> {
    (0..n)
        .map(|_| V3T {
            x: lane(rng),
            y: lane(rng),
            z: lane(rng),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_close, assert_close_tol, FD_TOL};
    use crate::rng::Rng;
    use fwdad::ConstTangent;
    use num_dual::Dual64;

    type B8 = Batch<f64, 8>;

    fn b8(r: &mut Rng) -> B8 {
        Batch(std::array::from_fn(|_| r.uniform(-1.0, 1.0)))
    }

    fn flat(v: &[Vec3]) -> Vec<f64> {
        v.iter().flat_map(|a| [a.x, a.y, a.z]).collect()
    }

    fn flat_t(v: &[V3T<f64>]) -> Vec<f64> {
        v.iter().flat_map(|a| [a.x, a.y, a.z]).collect()
    }

    fn lane(v: &[V3T<B8>], l: usize) -> Vec<f64> {
        v.iter()
            .flat_map(|a| [a.x.0[l], a.y.0[l], a.z.0[l]])
            .collect()
    }

    /// Plain Verlet from the state moved by `h` along `(dp, dv)`: positions and velocities.
    fn verlet_at(c: &VerletCase, dp: &[V3T<f64>], dv: &[V3T<f64>], h: f64) -> Vec<f64> {
        let mv = |a: &[Vec3], d: &[V3T<f64>]| -> Vec<Vec3> {
            a.iter()
                .zip(d)
                .map(|(a, d)| Vec3::new(a.x + h * d.x, a.y + h * d.y, a.z + h * d.z))
                .collect()
        };
        let (mut p, mut v) = (mv(&c.p, dp), mv(&c.v, dv));
        let mut f = vec![Vec3::default(); p.len()];
        lj_forces(&p, c.eps, c.sigma, &mut f);
        verlet_step(&mut p, &mut v, &mut f, &c.m, c.dt, c.eps, c.sigma);
        let mut out = flat(&p);
        out.extend(flat(&v));
        out
    }

    #[test]
    fn verlet_rule_expert_num_dual_and_finite_differences_agree() {
        let mut r = Rng::new(7);
        let c = VerletCase::new(&mut r);
        let n = c.p.len();
        let dp0 = tangents(&mut r, n, |r| r.uniform(-1.0, 1.0));
        let dv0 = tangents(&mut r, n, |r| r.uniform(-1.0, 1.0));
        // The forces' tangent at the start, from the expert (checked against FD below).
        let (mut f, mut df) = (c.f.clone(), dp0.clone());
        lj_forces_expert(&c.p, &dp0, c.eps, c.sigma, &mut f, &mut df);
        assert_eq!(flat(&f), flat(&c.f));
        // Plain.
        let want = verlet_at(&c, &dp0, &dv0, 0.0);
        let h = 1e-6;
        let (plus, minus) = (verlet_at(&c, &dp0, &dv0, h), verlet_at(&c, &dp0, &dv0, -h));
        let fd: Vec<f64> = plus
            .iter()
            .zip(&minus)
            .map(|(a, b)| (a - b) / (2.0 * h))
            .collect();
        // Rule.
        let (mut p, mut v, mut fr) = (c.p.clone(), c.v.clone(), c.f.clone());
        let (mut dp, mut dv, mut dfr) = (dp0.clone(), dv0.clone(), df.clone());
        verlet_step_frule(
            Dual::new(&mut p[..], &mut dp[..]),
            Dual::new(&mut v[..], &mut dv[..]),
            Dual::new(&mut fr[..], &mut dfr[..]),
            Dual::constant(&c.m[..]),
            Dual::new(c.dt, ConstTangent),
            Dual::new(c.eps, ConstTangent),
            Dual::new(c.sigma, ConstTangent),
        );
        let mut got = flat(&p);
        got.extend(flat(&v));
        assert_eq!(
            got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            "rule primal bit for bit"
        );
        let mut rule_t = flat_t(&dp);
        rule_t.extend(flat_t(&dv));
        assert_close_tol("verlet rule vs FD", &rule_t, &fd, FD_TOL);
        // Expert.
        let (mut pe, mut ve, mut fe) = (c.p.clone(), c.v.clone(), c.f.clone());
        let (mut dpe, mut dve, mut dfe) = (dp0.clone(), dv0.clone(), df.clone());
        verlet_step_expert(
            &mut pe, &mut dpe, &mut ve, &mut dve, &mut fe, &mut dfe, &c.m, c.dt, c.eps, c.sigma,
        );
        let mut exp_t = flat_t(&dpe);
        exp_t.extend(flat_t(&dve));
        assert_eq!(flat(&pe), flat(&p));
        assert_close("verlet rule vs expert", &rule_t, &exp_t);
        assert_close_tol("verlet expert vs FD", &exp_t, &fd, FD_TOL);
        // num-dual.
        let d3 = |a: &[Vec3], d: &[V3T<f64>]| -> Vec<V3<Dual64>> {
            a.iter()
                .zip(d)
                .map(|(a, d)| {
                    V3::new(
                        Dual64::new(a.x, d.x),
                        Dual64::new(a.y, d.y),
                        Dual64::new(a.z, d.z),
                    )
                })
                .collect()
        };
        let (mut pn, mut vn, mut fn_) = (d3(&c.p, &dp0), d3(&c.v, &dv0), d3(&c.f, &df));
        verlet_step_nd(
            &mut pn,
            &mut vn,
            &mut fn_,
            &c.m,
            c.dt,
            Dual64::from(c.eps),
            Dual64::from(c.sigma),
        );
        let nd_t: Vec<f64> = pn
            .iter()
            .chain(&vn)
            .flat_map(|a| [a.x.eps, a.y.eps, a.z.eps])
            .collect();
        assert_close("verlet num-dual vs expert", &nd_t, &exp_t);
        // Eight directions: rule and expert, each lane against one direction of the expert.
        let dp8 = tangents(&mut r, n, b8);
        let dv8 = tangents(&mut r, n, b8);
        let mut df8 = dp8.clone();
        lj_forces_expert(&c.p, &dp8, c.eps, c.sigma, &mut f, &mut df8);
        let (mut p, mut v, mut fr) = (c.p.clone(), c.v.clone(), c.f.clone());
        let (mut dp, mut dv, mut dfr) = (dp8.clone(), dv8.clone(), df8.clone());
        <verlet_step as Frule<_, B8>>::frule(
            &verlet_step {},
            (
                Dual::new(&mut p[..], &mut dp[..]),
                Dual::new(&mut v[..], &mut dv[..]),
                Dual::new(&mut fr[..], &mut dfr[..]),
                Dual::constant(&c.m[..]),
                Dual::new(c.dt, ConstTangent),
                Dual::new(c.eps, ConstTangent),
                Dual::new(c.sigma, ConstTangent),
            ),
        );
        let (mut pe, mut ve, mut fe) = (c.p.clone(), c.v.clone(), c.f.clone());
        let (mut dpe, mut dve, mut dfe) = (dp8.clone(), dv8.clone(), df8.clone());
        verlet_step_expert(
            &mut pe, &mut dpe, &mut ve, &mut dve, &mut fe, &mut dfe, &c.m, c.dt, c.eps, c.sigma,
        );
        for l in 0..8 {
            let one = |d: &[V3T<B8>]| -> Vec<V3T<f64>> {
                d.iter()
                    .map(|a| V3T {
                        x: a.x.0[l],
                        y: a.y.0[l],
                        z: a.z.0[l],
                    })
                    .collect()
            };
            let (mut p1, mut v1, mut f1) = (c.p.clone(), c.v.clone(), c.f.clone());
            let (mut dp1, mut dv1, mut df1) = (one(&dp8), one(&dv8), one(&df8));
            verlet_step_expert(
                &mut p1, &mut dp1, &mut v1, &mut dv1, &mut f1, &mut df1, &c.m, c.dt, c.eps, c.sigma,
            );
            assert_close("verlet rule B8 lane", &lane(&dp, l), &flat_t(&dp1));
            assert_close("verlet rule B8 lane (v)", &lane(&dv, l), &flat_t(&dv1));
            assert_close("verlet expert B8 lane", &lane(&dpe, l), &flat_t(&dp1));
        }
    }

    #[test]
    fn chain_tip_rule_expert_num_dual_and_finite_differences_agree() {
        let mut r = Rng::new(8);
        let (theta, axes, tip) = chain_case(&mut r);
        let dth = r.vec(N_JOINTS, -1.0, 1.0);
        let want = chain_tip(&theta, &axes, tip);
        let y = chain_tip_frule(
            Dual::new(&theta[..], &dth[..]),
            &axes[..],
            Dual::new(tip, Default::default()),
        );
        assert_eq!(flat(&[y.primal]), flat(&[want]), "primal bit for bit");
        let h = 1e-6;
        let at = |s: f64| {
            let t: Vec<f64> = theta.iter().zip(&dth).map(|(a, d)| a + s * d).collect();
            flat(&[chain_tip(&t, &axes, tip)])
        };
        let (a, b) = (at(h), at(-h));
        let fd: Vec<f64> = a.iter().zip(&b).map(|(a, b)| (a - b) / (2.0 * h)).collect();
        let rule_t = flat_t(&[y.tangent]);
        assert_close_tol("chain rule vs FD", &rule_t, &fd, FD_TOL);
        let (pe, te) = chain_tip_expert(&theta, &dth, &axes, tip);
        assert_eq!(flat(&[pe]), flat(&[want]));
        assert_close("chain expert vs rule", &flat_t(&[te]), &rule_t);
        let td: Vec<Dual64> = theta
            .iter()
            .zip(&dth)
            .map(|(&a, &d)| Dual64::new(a, d))
            .collect();
        let nd = chain_tip_nd(&td, &axes, tip);
        assert_close(
            "chain num-dual vs rule",
            &[nd.x.eps, nd.y.eps, nd.z.eps],
            &rule_t,
        );
        // Eight directions.
        let dth8: Vec<B8> = (0..N_JOINTS).map(|_| b8(&mut r)).collect();
        let y8 = <chain_tip as Frule<_, B8>>::frule(
            &chain_tip {},
            (
                Dual::new(&theta[..], &dth8[..]),
                &axes[..],
                Dual::new(tip, Default::default()),
            ),
        );
        let (_, te8) = chain_tip_expert(&theta, &dth8, &axes, tip);
        for l in 0..8 {
            let d1: Vec<f64> = dth8.iter().map(|b| b.0[l]).collect();
            let (_, t1) = chain_tip_expert(&theta, &d1, &axes, tip);
            assert_close(
                "chain rule B8 lane",
                &lane(&[y8.tangent], l),
                &flat_t(&[t1]),
            );
            assert_close("chain expert B8 lane", &lane(&[te8], l), &flat_t(&[t1]));
        }
    }

    #[test]
    fn spring_energy_rule_expert_num_dual_and_finite_differences_agree() {
        let mut r = Rng::new(9);
        let (p, springs, rest) = spring_case(&mut r);
        let k = 3.5;
        let dp = tangents(&mut r, p.len(), |r| r.uniform(-1.0, 1.0));
        let want = spring_energy(&p, &springs, &rest, k);
        let y = spring_energy_frule(
            Dual::new(&p[..], &dp[..]),
            &springs[..],
            &rest[..],
            Dual::new(k, ConstTangent),
        );
        assert_eq!(y.primal.to_bits(), want.to_bits());
        let h = 1e-6;
        let at = |s: f64| {
            let q: Vec<Vec3> = p
                .iter()
                .zip(&dp)
                .map(|(a, d)| Vec3::new(a.x + s * d.x, a.y + s * d.y, a.z + s * d.z))
                .collect();
            spring_energy(&q, &springs, &rest, k)
        };
        let fd = (at(h) - at(-h)) / (2.0 * h);
        assert_close_tol("springs rule vs FD", &[y.tangent], &[fd], FD_TOL);
        let (e, de) = spring_energy_expert(&p, &dp, &springs, &rest, k);
        assert_eq!(e.to_bits(), want.to_bits());
        assert_close("springs expert vs rule", &[de], &[y.tangent]);
        let pd: Vec<V3<Dual64>> = p
            .iter()
            .zip(&dp)
            .map(|(a, d)| {
                V3::new(
                    Dual64::new(a.x, d.x),
                    Dual64::new(a.y, d.y),
                    Dual64::new(a.z, d.z),
                )
            })
            .collect();
        let nd = spring_energy_nd(&pd, &springs, &rest, k);
        assert_close("springs num-dual vs rule", &[nd.eps], &[y.tangent]);
        let dp8 = tangents(&mut r, p.len(), b8);
        let y8 = <spring_energy as Frule<_, B8>>::frule(
            &spring_energy {},
            (
                Dual::new(&p[..], &dp8[..]),
                &springs[..],
                &rest[..],
                Dual::new(k, ConstTangent),
            ),
        );
        let (_, de8) = spring_energy_expert(&p, &dp8, &springs, &rest, k);
        for l in 0..8 {
            let d1: Vec<V3T<f64>> = dp8
                .iter()
                .map(|a| V3T {
                    x: a.x.0[l],
                    y: a.y.0[l],
                    z: a.z.0[l],
                })
                .collect();
            let (_, t1) = spring_energy_expert(&p, &d1, &springs, &rest, k);
            assert_close("springs rule B8 lane", &[y8.tangent.0[l]], &[t1]);
            assert_close("springs expert B8 lane", &[de8.0[l]], &[t1]);
        }
    }
}
