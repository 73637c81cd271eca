//! Operators on the user's own types (issue #27, item 1): `#[derive_frule]` on
//! `impl Add/Sub/Mul/Div/Neg/AddAssign for Vec3` and `impl Mul<Vec3> for f64`, used as
//! `a + b`, `-a`, `k * v`, `p[i] += v[i] * dt` in derived bodies. A particle simulation
//! (velocity Verlet over `&mut [Vec3]`, kinetic and pairwise potential energy, angular
//! momentum with a cross product), written as a physicist writes it, differentiated in
//! one direction, in batches (`gradient`, `jacobian`) and at second order (`hessian`),
//! against central finite differences of the plain functions, with primals bit for bit.
use fwdad::drivers::Const;
use fwdad::prelude::*;
use num_traits::Float;
use std::ops::{Add, AddAssign, Div, Index, Mul, Neg, Sub, SubAssign};

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
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

    pub fn dot(&self, o: Vec3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    pub fn cross(&self, o: Vec3) -> Vec3 {
        Vec3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }

    pub fn length(&self) -> f64 {
        self.dot(*self).sqrt()
    }
}

#[derive_frule]
impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

#[derive_frule]
impl Sub for Vec3 {
    type Output = Self;
    fn sub(self, o: Self) -> Self::Output {
        Vec3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

#[derive_frule]
impl Mul<f64> for Vec3 {
    type Output = Vec3;
    fn mul(self, k: f64) -> Vec3 {
        Vec3 {
            x: self.x * k,
            y: self.y * k,
            z: self.z * k,
        }
    }
}

#[derive_frule]
impl Mul<Vec3> for f64 {
    type Output = Vec3;
    fn mul(self, v: Vec3) -> Vec3 {
        Vec3 {
            x: self * v.x,
            y: self * v.y,
            z: self * v.z,
        }
    }
}

#[derive_frule]
impl Div<f64> for Vec3 {
    type Output = Vec3;
    fn div(self, k: f64) -> Vec3 {
        Vec3 {
            x: self.x / k,
            y: self.y / k,
            z: self.z / k,
        }
    }
}

#[derive_frule]
impl Neg for Vec3 {
    type Output = Vec3;
    fn neg(self) -> Vec3 {
        Vec3 {
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
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

/// Midpoint of two points, scaled: every binary operator and `-a`, owned operands, float
/// scalars on either side.
#[derive_frule]
fn midpoint_offset(a: Vec3, b: Vec3, k: f64) -> f64 {
    let m = (a + b) / 2.0;
    let d = -(a - m) * k + k * b;
    d.dot(m)
}

// ---------------------------------------------------------------------------------------
// A particle simulation, written as a physicist writes it.

/// Kinetic energy `Σ ½ mᵢ |vᵢ|²`.
#[derive_frule]
fn kinetic(v: &[Vec3], m: &[f64]) -> f64 {
    v.iter().zip(m).map(|(v, m)| 0.5 * m * v.dot(*v)).sum()
}

/// Lennard-Jones pair potential summed over all pairs.
#[derive_frule]
fn potential(p: &[Vec3], eps: f64, sigma: f64) -> f64 {
    let mut e = 0.0;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let r = (p[i] - p[j]).length();
            let s6 = (sigma / r).powi(6);
            e += 4.0 * eps * (s6 * s6 - s6);
        }
    }
    e
}

/// Forces `F = -∇U` of the Lennard-Jones potential, into `f`.
#[derive_frule]
fn forces(p: &[Vec3], eps: f64, sigma: f64, f: &mut [Vec3]) {
    for fi in f.iter_mut() {
        *fi = Vec3::new(0.0, 0.0, 0.0);
    }
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let d = p[i] - p[j];
            let r2 = d.dot(d);
            let s6 = (sigma * sigma / r2).powi(3);
            let fij = d * (24.0 * eps * (2.0 * s6 * s6 - s6) / r2);
            f[i] += fij;
            f[j] -= fij;
        }
    }
}

/// One velocity-Verlet step, in place.
#[derive_frule]
fn verlet_step(p: &mut [Vec3], v: &mut [Vec3], m: &[f64], dt: f64, eps: f64, sigma: f64) {
    let n = p.len();
    let mut f = vec![Vec3::new(0.0, 0.0, 0.0); n];
    forces(p, eps, sigma, &mut f);
    for i in 0..n {
        v[i] += f[i] * (0.5 * dt / m[i]);
        p[i] += v[i] * dt;
    }
    forces(p, eps, sigma, &mut f);
    for i in 0..n {
        v[i] += f[i] / m[i] * (0.5 * dt);
    }
}

/// Angular momentum `Σ mᵢ rᵢ × vᵢ`.
#[derive_frule]
fn angular_momentum(p: &[Vec3], v: &[Vec3], m: &[f64]) -> Vec3 {
    let mut l = Vec3::new(0.0, 0.0, 0.0);
    for i in 0..p.len() {
        l += m[i] * p[i].cross(v[i]);
    }
    l
}

/// Positions and velocities of `m.len()` particles from one flat state vector.
#[derive_frule]
fn unpack(q: &[f64], n: usize) -> (Vec<Vec3>, Vec<Vec3>) {
    let p: Vec<Vec3> = (0..n)
        .map(|i| Vec3::new(q[3 * i], q[3 * i + 1], q[3 * i + 2]))
        .collect();
    let v: Vec<Vec3> = (0..n)
        .map(|i| Vec3::new(q[3 * n + 3 * i], q[3 * n + 3 * i + 1], q[3 * n + 3 * i + 2]))
        .collect();
    (p, v)
}

/// Total energy of the state `q` (positions, then velocities).
#[derive_frule]
fn energy(q: &[f64], m: &[f64], eps: f64, sigma: f64) -> f64 {
    let (p, v) = unpack(q, m.len());
    kinetic(&v, m) + potential(&p, eps, sigma)
}

/// The state after `steps` Verlet steps, flat.
#[derive_frule]
fn simulate(q: &[f64], m: &[f64], dt: f64, steps: usize) -> Vec<f64> {
    let (mut p, mut v) = unpack(q, m.len());
    for _ in 0..steps {
        verlet_step(&mut p, &mut v, m, dt, 1.0, 1.0);
    }
    let mut out = Vec::with_capacity(q.len());
    for pi in &p {
        out.push(pi.x);
        out.push(pi.y);
        out.push(pi.z);
    }
    for vi in &v {
        out.push(vi.x);
        out.push(vi.y);
        out.push(vi.z);
    }
    out
}

/// The angular momentum of the state `q`, as an array.
#[derive_frule]
fn angular_momentum_of(q: &[f64], m: &[f64]) -> [f64; 3] {
    let (p, v) = unpack(q, m.len());
    let l = angular_momentum(&p, &v, m);
    [l.x, l.y, l.z]
}

/// Three particles near the minimum of the pair potential, moving.
fn state() -> (Vec<f64>, Vec<f64>) {
    let q = vec![
        0.0, 0.0, 0.0, 1.12, 0.05, -0.03, 0.4, 1.02, 0.1, // positions
        0.1, -0.2, 0.05, -0.05, 0.1, 0.2, 0.03, 0.02, -0.1, // velocities
    ];
    (q, vec![1.0, 1.3, 0.8])
}

fn fd_gradient(f: impl Fn(&[f64]) -> f64, x: &[f64], h: f64) -> Vec<f64> {
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

#[test]
fn operators_on_owned_values() {
    let a = Vec3::new(0.3, -1.2, 0.7);
    let b = Vec3::new(1.1, 0.4, -0.5);
    let k = 1.7;
    let y = midpoint_offset(a, b, k);
    let plain = |x: &[f64]| {
        midpoint_offset(
            Vec3::new(x[0], x[1], x[2]),
            Vec3::new(x[3], x[4], x[5]),
            x[6],
        )
    };
    let x = [a.x, a.y, a.z, b.x, b.y, b.z, k];
    let fd = fd_gradient(plain, &x, 1e-6);
    // One direction per input, through the one-direction rule.
    for (j, want) in fd.iter().enumerate() {
        let e = |i: usize| if i == j { 1.0 } else { 0.0 };
        let r = midpoint_offset_frule(
            Dual::new(
                a,
                Vec3Tangent {
                    x: e(0),
                    y: e(1),
                    z: e(2),
                },
            ),
            Dual::new(
                b,
                Vec3Tangent {
                    x: e(3),
                    y: e(4),
                    z: e(5),
                },
            ),
            Dual::new(k, e(6)),
        );
        assert_eq!(r.primal.to_bits(), y.to_bits());
        assert_close(r.tangent, *want, 1e-8, &format!("d/dx{j}"));
    }
}

#[test]
fn energy_gradient_in_batches_and_one_direction() {
    let (q, m) = state();
    let plain = |x: &[f64]| energy(x, &m, 1.0, 1.0);
    let (e, g) = gradient(bind(energy {}, (Wrt, &m[..], 1.0, 1.0)), &q);
    assert_eq!(e.to_bits(), plain(&q).to_bits());
    let fd = fd_gradient(plain, &q, 1e-6);
    for j in 0..q.len() {
        assert_close(g[j], fd[j], 1e-6, &format!("∂E/∂q{j}"));
    }
    // The velocity part is m·v exactly.
    for i in 0..3 {
        for c in 0..3 {
            assert_close(g[9 + 3 * i + c], m[i] * q[9 + 3 * i + c], 1e-14, "∂E/∂v");
        }
    }
}

#[test]
fn energy_hessian_second_order() {
    let (q, m) = state();
    let plain = |x: &[f64]| energy(x, &m, 1.0, 1.0);
    let (e, g, h) = hessian(bind(energy {}, (Wrt, &m[..], 1.0, 1.0)), &q);
    assert_eq!(e.to_bits(), plain(&q).to_bits());
    let (_, g1) = gradient(bind(energy {}, (Wrt, &m[..], 1.0, 1.0)), &q);
    for j in 0..q.len() {
        assert_close(g[j], g1[j], 1e-12, "gradient from hessian");
    }
    // Each Hessian column against central differences of the gradient.
    let hstep = 1e-5;
    for j in 0..q.len() {
        let (mut a, mut b) = (q.clone(), q.clone());
        a[j] += hstep;
        b[j] -= hstep;
        let (_, ga) = gradient(bind(energy {}, (Wrt, &m[..], 1.0, 1.0)), &a);
        let (_, gb) = gradient(bind(energy {}, (Wrt, &m[..], 1.0, 1.0)), &b);
        for i in 0..q.len() {
            let fd = (ga[i] - gb[i]) / (2.0 * hstep);
            assert_close(h[(i, j)], fd, 1e-5, &format!("H[{i}, {j}]"));
        }
    }
}

#[test]
fn verlet_jacobian_matches_finite_differences() {
    let (q, m) = state();
    let (dt, steps) = (0.01, 3);
    let (y, jac) = jacobian(bind(simulate {}, (Wrt, &m[..], dt, steps)), &q);
    let plain = simulate(&q, &m, dt, steps);
    assert_eq!(y.len(), plain.len());
    for (a, b) in y.iter().zip(&plain) {
        assert_eq!(a.to_bits(), b.to_bits());
    }
    for i in 0..q.len() {
        let fd = fd_gradient(|x| simulate(x, &m, dt, steps)[i], &q, 1e-6);
        for j in 0..q.len() {
            assert_close(jac[(i, j)], fd[j], 1e-6, &format!("J[{i}, {j}]"));
        }
    }
    // Verlet is symplectic: det J = 1 is not checked here, but energy is nearly kept.
    let e0 = energy(&q, &m, 1.0, 1.0);
    let e1 = energy(&plain, &m, 1.0, 1.0);
    assert!((e1 - e0).abs() < 1e-3, "energy drift {}", e1 - e0);
}

#[test]
fn verlet_step_one_direction_and_batch_agree() {
    let (q, m) = state();
    let (p0, v0) = unpack(&q, 3);
    // A direction moving the first particle along x.
    let mut dp = [Vec3Tangent {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    }; 3];
    dp[0].x = 1.0;
    let mut dv = [Vec3Tangent {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    }; 3];
    let (mut p, mut v) = (p0.clone(), v0.clone());
    verlet_step_frule(
        Dual::new(&mut p[..], &mut dp[..]),
        Dual::new(&mut v[..], &mut dv[..]),
        Dual::new(&m[..], &[0.0; 3][..]),
        Dual::new(0.01, 0.0),
        Dual::new(1.0, 0.0),
        Dual::new(1.0, 0.0),
    );
    let (mut pp, mut vp) = (p0.clone(), v0.clone());
    verlet_step(&mut pp, &mut vp, &m, 0.01, 1.0, 1.0);
    assert_eq!(p, pp);
    assert_eq!(v, vp);
    // Column 0 of the one-step Jacobian, by the batched driver.
    let (_, jac) = jacobian(bind(simulate {}, (Wrt, &m[..], 0.01, 1)), &q);
    for i in 0..3 {
        assert_close(dp[i].x, jac[(3 * i, 0)], 1e-12, "dp.x");
        assert_close(dp[i].y, jac[(3 * i + 1, 0)], 1e-12, "dp.y");
        assert_close(dv[i].z, jac[(9 + 3 * i + 2, 0)], 1e-12, "dv.z");
    }
}

#[test]
fn angular_momentum_jacobian() {
    let (q, m) = state();
    let (l, jac) = jacobian(bind(angular_momentum_of {}, (Wrt, &m[..])), &q);
    let plain = angular_momentum_of(&q, &m);
    for c in 0..3 {
        assert_eq!(l[c].to_bits(), plain[c].to_bits());
        let fd = fd_gradient(|x| angular_momentum_of(x, &m)[c], &q, 1e-6);
        for j in 0..q.len() {
            assert_close(jac[(c, j)], fd[j], 1e-8, &format!("∂L{c}/∂q{j}"));
        }
    }
    // ∂L/∂v_i = m_i (r_i ×): the z row against v_i.x is -m_i y_i.
    for i in 0..3 {
        assert_close(jac[(2, 9 + 3 * i)], -m[i] * q[3 * i + 1], 1e-14, "∂Lz/∂vx");
    }
}

// ---------------------------------------------------------------------------------------
// A rigid body's inertia tensor, read through `impl Index`.

impl Vec3 {
    fn zero() -> Vec3 {
        Vec3::new(0.0, 0.0, 0.0)
    }
}

#[derive_frule]
impl Index<usize> for Vec3 {
    type Output = f64;
    fn index(&self, i: usize) -> &f64 {
        match i {
            0 => &self.x,
            1 => &self.y,
            _ => &self.z,
        }
    }
}

/// A symmetric 3×3 matrix, row-major.
#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Mat3 {
    pub m: [f64; 9],
}

#[derive_frule]
impl Index<(usize, usize)> for Mat3 {
    type Output = f64;
    fn index(&self, (i, j): (usize, usize)) -> &f64 {
        &self.m[3 * i + j]
    }
}

/// The inertia tensor `I = Σ mₖ (|rₖ|² 1 - rₖ rₖᵀ)` of point masses.
#[derive_frule]
fn inertia(p: &[Vec3], m: &[f64]) -> Mat3 {
    let mut t = [0.0; 9];
    for k in 0..p.len() {
        let r = p[k];
        let r2 = r.dot(r);
        for i in 0..3 {
            for j in 0..3 {
                let delta = if i == j { 1.0 } else { 0.0 };
                t[3 * i + j] += m[k] * (r2 * delta - r[i] * r[j]);
            }
        }
    }
    Mat3 { m: t }
}

/// Rotational kinetic energy `½ ωᵀ I ω` of the bodies `q` (positions) spinning at `ω`.
#[derive_frule]
fn rotational_energy(q: &[f64], m: &[f64], w: Vec3) -> f64 {
    let (p, _) = unpack(q, m.len());
    let tensor = inertia(&p, m);
    let mut e = 0.0;
    for i in 0..3 {
        for j in 0..3 {
            e += 0.5 * w[i] * tensor[(i, j)] * w[j];
        }
    }
    e
}

#[test]
fn inertia_through_index_in_every_mode() {
    let (q, m) = state();
    let w = Vec3::new(0.3, -0.7, 1.1);
    let plain = |x: &[f64]| rotational_energy(x, &m, w);
    let (e, g) = gradient(bind(rotational_energy {}, (Wrt, &m[..], Const(w))), &q);
    assert_eq!(e.to_bits(), plain(&q).to_bits());
    let fd = fd_gradient(plain, &q, 1e-6);
    for j in 0..q.len() {
        assert_close(g[j], fd[j], 1e-7, &format!("∂E/∂q{j}"));
    }
    // ½ωᵀIω = ½ Σ mₖ |ω × rₖ|², written out independently.
    let mut want = 0.0;
    for k in 0..3 {
        let r = Vec3::new(q[3 * k], q[3 * k + 1], q[3 * k + 2]);
        let c = w.cross(r);
        want += 0.5 * m[k] * c.dot(c);
    }
    assert_close(e, want, 1e-13, "E");
    // Second order: the energy is quadratic in each position.
    let (_, _, h) = hessian(bind(rotational_energy {}, (Wrt, &m[..], Const(w))), &q);
    let hstep = 1e-5;
    for j in 0..9 {
        let (mut a, mut b) = (q.clone(), q.clone());
        a[j] += hstep;
        b[j] -= hstep;
        let ga = fd_gradient(|x| rotational_energy(x, &m, w), &a, 1e-5);
        let gb = fd_gradient(|x| rotational_energy(x, &m, w), &b, 1e-5);
        for i in 0..9 {
            assert_close(h[(i, j)], (ga[i] - gb[i]) / (2.0 * hstep), 1e-4, "H");
        }
    }
    // One direction, through the rule with ω active.
    let r = rotational_energy_frule(
        Dual::new(&q[..], &[0.0; 18][..]),
        Dual::new(&m[..], &[0.0; 3][..]),
        Dual::new(
            w,
            Vec3Tangent {
                x: 0.0,
                y: 1.0,
                z: 0.0,
            },
        ),
    );
    assert_eq!(r.primal.to_bits(), e.to_bits());
    let dw = (rotational_energy(&q, &m, Vec3::new(w.x, w.y + 1e-6, w.z))
        - rotational_energy(&q, &m, Vec3::new(w.x, w.y - 1e-6, w.z)))
        / 2e-6;
    assert_close(r.tangent, dw, 1e-7, "∂E/∂ωy");
    assert_eq!(Vec3::zero().x, 0.0);
}

// ---------------------------------------------------------------------------------------
// Quaternion rotation: `impl Mul for Quat` and `impl Mul<Vec3> for Quat`.

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Quat {
    pub w: f64,
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Quat {
    /// The rotation by `angle` about the unit `axis`.
    pub fn from_axis_angle(axis: Vec3, angle: f64) -> Quat {
        let (s, c) = (0.5 * angle).sin_cos();
        Quat {
            w: c,
            x: axis.x * s,
            y: axis.y * s,
            z: axis.z * s,
        }
    }
}

#[derive_frule]
impl Mul for Quat {
    type Output = Quat;
    /// The Hamilton product.
    fn mul(self, o: Quat) -> Quat {
        Quat {
            w: self.w * o.w - self.x * o.x - self.y * o.y - self.z * o.z,
            x: self.w * o.x + self.x * o.w + self.y * o.z - self.z * o.y,
            y: self.w * o.y - self.x * o.z + self.y * o.w + self.z * o.x,
            z: self.w * o.z + self.x * o.y - self.y * o.x + self.z * o.w,
        }
    }
}

#[derive_frule]
impl Mul<Vec3> for Quat {
    type Output = Vec3;
    /// Rotates `v` by the unit quaternion: `v + 2w (u × v) + 2 u × (u × v)`.
    fn mul(self, v: Vec3) -> Vec3 {
        let u = Vec3::new(self.x, self.y, self.z);
        let t = 2.0 * u.cross(v);
        v + self.w * t + u.cross(t)
    }
}

/// The point `x` rotated about `axis` by `a`, then about z by `b`; returns its x coordinate
/// plus twice its y (a scalar to differentiate).
#[derive_frule]
fn rotated(params: &[f64], x: Vec3) -> f64 {
    let axis = Vec3::new(params[0], params[1], params[2]);
    let axis = axis / axis.length();
    let q1 = Quat::from_axis_angle(axis, params[3]);
    let q2 = Quat::from_axis_angle(Vec3::new(0.0, 0.0, 1.0), params[4]);
    let y = (q2 * q1) * x;
    y.x + 2.0 * y.y
}

#[test]
fn quaternion_rotation_in_every_mode() {
    let params = [0.3, -0.4, 0.85, 0.7, -1.2];
    let x = Vec3::new(1.0, 0.5, -0.25);
    let plain = |p: &[f64]| rotated(p, x);
    let (y, g) = gradient(bind(rotated {}, (Wrt, Const(x))), &params);
    assert_eq!(y.to_bits(), plain(&params).to_bits());
    let fd = fd_gradient(plain, &params, 1e-6);
    for j in 0..5 {
        assert_close(g[j], fd[j], 1e-7, &format!("∂y/∂p{j}"));
    }
    // A rotation keeps lengths: about z by b only, x = (1, 0, 0) goes to (cos b, sin b, 0).
    let only_z = [0.0, 0.0, 1.0, 0.0, 0.4];
    assert_close(
        rotated(&only_z, Vec3::new(1.0, 0.0, 0.0)),
        0.4f64.cos() + 2.0 * 0.4f64.sin(),
        1e-15,
        "rotation about z",
    );
    let (_, _, h) = hessian(bind(rotated {}, (Wrt, Const(x))), &params);
    for j in 0..5 {
        let (mut a, mut b) = (params, params);
        a[j] += 1e-5;
        b[j] -= 1e-5;
        let ga = fd_gradient(plain, &a, 1e-5);
        let gb = fd_gradient(plain, &b, 1e-5);
        for i in 0..5 {
            assert_close(h[(i, j)], (ga[i] - gb[i]) / 2e-5, 1e-4, "H");
        }
    }
}

// ---------------------------------------------------------------------------------------
// A generic vector type, `V2<T: Float>`, with its operators in generic impls.

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct V2<T> {
    pub x: T,
    pub y: T,
}

#[derive_frule]
impl<T: Float> Add for V2<T> {
    type Output = V2<T>;
    fn add(self, o: V2<T>) -> V2<T> {
        V2 {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
}

#[derive_frule]
impl<T: Float> Mul<T> for V2<T> {
    type Output = V2<T>;
    fn mul(self, k: T) -> V2<T> {
        V2 {
            x: self.x * k,
            y: self.y * k,
        }
    }
}

/// `|a + b·k|²`, generic over the float type.
#[derive_frule]
fn spread<T: Float>(a: V2<T>, b: V2<T>, k: T) -> T {
    let c = a + b * k;
    c.x * c.x + c.y * c.y
}

#[test]
fn generic_vector_operators_in_f64_and_f32() {
    let (a, b, k) = (V2 { x: 0.5, y: -1.5 }, V2 { x: 2.0, y: 0.25 }, 0.75f64);
    let r = spread_frule(
        Dual::new(a, V2Tangent { x: 0.0, y: 0.0 }),
        Dual::new(b, V2Tangent { x: 0.0, y: 0.0 }),
        Dual::new(k, 1.0),
    );
    assert_eq!(r.primal.to_bits(), spread(a, b, k).to_bits());
    // d/dk |a + bk|² = 2 (a + bk)·b.
    let c = (a.x + b.x * k, a.y + b.y * k);
    assert_close(r.tangent, 2.0 * (c.0 * b.x + c.1 * b.y), 1e-15, "d/dk");
    let (a32, b32) = (V2 { x: 0.5f32, y: -1.5 }, V2 { x: 2.0f32, y: 0.25 });
    let r32 = spread_frule(
        Dual::new(a32, V2Tangent { x: 1.0f32, y: 0.0 }),
        Dual::new(b32, V2Tangent { x: 0.0, y: 0.0 }),
        Dual::new(0.75f32, 0.0),
    );
    assert_eq!(r32.primal.to_bits(), spread(a32, b32, 0.75f32).to_bits());
    // d/da.x = 2 c.x.
    assert!((r32.tangent - 2.0 * (0.5 + 2.0 * 0.75)).abs() < 1e-6);
}

// ---------------------------------------------------------------------------------------
// Methods of the user's named like `std` ones (`len`, `push`, `sum`, `max`, `pow`), on
// values whose type is written as the user's (issue #27, item 4).

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Polyline {
    pub ys: Vec<f64>,
}

#[derive_frule]
impl Polyline {
    /// Arc length over unit steps in x.
    pub fn len(&self) -> f64 {
        let mut s = 0.0;
        for i in 1..self.ys.len() {
            let d = self.ys[i] - self.ys[i - 1];
            s += (1.0 + d * d).sqrt();
        }
        s
    }

    pub fn sum(&self) -> f64 {
        self.ys.iter().sum()
    }

    /// The largest height, at least `floor`.
    pub fn max(&self, floor: f64) -> f64 {
        let mut m = floor;
        for &y in &self.ys {
            m = m.max(y);
        }
        m
    }

    /// `Σ yᵢᵏ`.
    pub fn pow(&self, k: i32) -> f64 {
        self.ys.iter().map(|y| y.powi(k)).sum()
    }

    pub fn push(&mut self, y: f64) {
        self.ys.push(y);
    }
}

/// Extends the line by `y` and combines its measures.
#[derive_frule]
fn measures(line: &Polyline, y: f64) -> f64 {
    let mut longer = line.clone();
    longer.push(y);
    longer.len() + line.sum() * longer.max(0.0) + longer.pow(2)
}

#[test]
fn user_methods_named_like_std_ones() {
    let line = Polyline {
        ys: vec![0.2, 0.9, -0.4, 0.3],
    };
    let y = 1.3;
    let zero = PolylineTangent { ys: vec![0.0; 4] };
    let r = measures_frule(Dual::new(&line, &zero), Dual::new(y, 1.0));
    assert_eq!(r.primal.to_bits(), measures(&line, y).to_bits());
    // ∂/∂y by hand: the last segment's length, line.sum() times ∂max (y is the max), 2y.
    let d = y - 0.3;
    let want = d / (1.0 + d * d).sqrt() + line.sum() + 2.0 * y;
    assert_close(r.tangent, want, 1e-14, "∂/∂y");
    let fd = (measures(&line, y + 1e-6) - measures(&line, y - 1e-6)) / 2e-6;
    assert_close(r.tangent, fd, 1e-8, "finite differences");
}

// ---------------------------------------------------------------------------------------
// Borrowed operands: `&a - &b` through `impl<'a> Sub<&'a Vec3> for &'a Vec3`.

#[derive_frule]
impl<'a> Sub<&'a Vec3> for &'a Vec3 {
    type Output = Vec3;
    fn sub(self, o: &'a Vec3) -> Vec3 {
        Vec3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

/// Squared lengths of a polygon's sides, plus the length of a difference of a local and
/// an element (borrowed on purpose: `Vec3` is `Copy`, but a type that is not would be
/// written this way).
#[allow(clippy::op_ref)]
#[derive_frule]
fn sides(p: &[Vec3], v: &[Vec3]) -> f64 {
    let mut s = 0.0;
    for i in 1..p.len() {
        let d = &p[i] - &p[i - 1];
        s += d.dot(d);
    }
    let w = v[0];
    let e = &w - &v[1];
    s + e.length()
}

/// `sides` of the state `q`.
#[derive_frule]
fn sides_of(q: &[f64], n: usize) -> f64 {
    let (p, v) = unpack(q, n);
    sides(&p, &v)
}

#[test]
fn borrowed_operands_in_every_mode() {
    let (q, _) = state();
    let plain = |x: &[f64]| sides_of(x, 3);
    let (y, g) = gradient(bind(sides_of {}, (Wrt, 3)), &q);
    assert_eq!(y.to_bits(), plain(&q).to_bits());
    let fd = fd_gradient(plain, &q, 1e-6);
    for j in 0..q.len() {
        assert_close(g[j], fd[j], 1e-7, &format!("∂s/∂q{j}"));
    }
    let (_, _, h) = hessian(bind(sides_of {}, (Wrt, 3)), &q);
    // ∂²/∂x₀² of |p₁ - p₀|² is 2.
    assert_close(h[(0, 0)], 2.0, 1e-12, "H[0, 0]");
    assert_close(h[(0, 3)], -2.0, 1e-12, "H[0, 3]");
}

/// Drag laws for a projectile, chosen per call.
#[derive(Clone, Copy, Debug, Differentiable)]
enum Drag {
    None,
    Linear(f64),
    Quadratic { c: f64 },
}

/// Range of a projectile after 100 explicit Euler steps: the acceleration is a `match`
/// whose arms are user-type values (`g`, `g - k * vel`), then used in operators.
#[allow(clippy::assign_op_pattern)] // written as users write it
#[derive_frule(inactive(drag))]
fn flight(p: &[f64], drag: Drag) -> f64 {
    let g = Vec3::new(0.0, -9.81, 0.0);
    let mut pos = Vec3::new(0.0, 0.0, 0.0);
    let mut vel = Vec3::new(p[0] * p[1].cos(), p[0] * p[1].sin(), 0.0);
    let dt = 0.01;
    for _ in 0..100 {
        let a = match drag {
            Drag::None => g,
            Drag::Linear(k) => g - k * vel,
            Drag::Quadratic { c } => g - (c * vel.length()) * vel,
        };
        pos = pos + dt * vel;
        vel = vel + dt * a;
    }
    pos.x
}

#[test]
fn operators_on_a_match_of_user_values() {
    let p = [20.0, 0.7];
    for drag in [Drag::None, Drag::Linear(0.1), Drag::Quadratic { c: 0.02 }] {
        let (v, g) = gradient(bind(flight {}, (Wrt, Inactive(drag))), &p);
        assert_eq!(v.to_bits(), flight(&p, drag).to_bits());
        let want = fd_gradient(|p| flight(p, drag), &p, 1e-6);
        for (a, b) in g.iter().zip(&want) {
            assert!(
                (a - b).abs() < 1e-6 * (1.0 + b.abs()),
                "{drag:?}: {g:?} vs {want:?}"
            );
        }
    }
    let (_, g) = gradient(bind(flight {}, (Wrt, Inactive(Drag::None))), &p);
    // Without drag x = 100 · dt · v cos θ = v cos θ: ∂x/∂v = cos θ, ∂x/∂θ = -v sin θ.
    assert!((g[0] - p[1].cos()).abs() < 1e-12 && (g[1] + p[0] * p[1].sin()).abs() < 1e-10);
}
