//! Simulation models with enums carrying data (integrators, boundary conditions, force
//! laws, joint types) matched with nested patterns and guards, and traits for forces,
//! potentials and constraints with default methods, used through generics, `&dyn`,
//! `Box<dyn>` and `Vec<Box<dyn Force>>` fields, annotated unmodified. Each program is
//! checked against central differences in one direction, in batches and at second order,
//! primals bit for bit (`check_modes!`), and against closed forms where there is one.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::Const;
use fwdad::prelude::*;

mod common;

// ---------------------------------------------------------------------------------------
// Program 6: an oscillator stepped by an integrator chosen by an enum.

#[derive(Differentiable, Clone, Copy, Debug)]
pub enum Integrator {
    Euler,
    SymplecticEuler,
    VelocityVerlet,
    Rk4,
    /// Implicit midpoint by fixed-point iteration.
    Midpoint {
        iterations: usize,
    },
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Oscillator {
    pub omega: f64,
    pub gamma: f64,
}

#[derive_frule]
impl Oscillator {
    pub fn accel(&self, x: f64, v: f64) -> f64 {
        -self.omega * self.omega * x - 2.0 * self.gamma * v
    }

    pub fn step(&self, scheme: Integrator, x: f64, v: f64, dt: f64) -> (f64, f64) {
        match scheme {
            Integrator::Euler => (x + dt * v, v + dt * self.accel(x, v)),
            Integrator::SymplecticEuler => {
                let v1 = v + dt * self.accel(x, v);
                (x + dt * v1, v1)
            }
            Integrator::VelocityVerlet => {
                let a0 = self.accel(x, v);
                let x1 = x + dt * v + 0.5 * dt * dt * a0;
                // Velocity-dependent force: predict v, then correct once.
                let vp = v + dt * a0;
                let a1 = self.accel(x1, vp);
                (x1, v + 0.5 * dt * (a0 + a1))
            }
            Integrator::Rk4 => {
                let k1 = (v, self.accel(x, v));
                let k2 = (
                    v + 0.5 * dt * k1.1,
                    self.accel(x + 0.5 * dt * k1.0, v + 0.5 * dt * k1.1),
                );
                let k3 = (
                    v + 0.5 * dt * k2.1,
                    self.accel(x + 0.5 * dt * k2.0, v + 0.5 * dt * k2.1),
                );
                let k4 = (v + dt * k3.1, self.accel(x + dt * k3.0, v + dt * k3.1));
                (
                    x + dt / 6.0 * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0),
                    v + dt / 6.0 * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1),
                )
            }
            Integrator::Midpoint { iterations } => {
                let (mut x1, mut v1) = (x, v);
                for _ in 0..iterations {
                    let xm = 0.5 * (x + x1);
                    let vm = 0.5 * (v + v1);
                    x1 = x + dt * vm;
                    v1 = v + dt * self.accel(xm, vm);
                }
                (x1, v1)
            }
        }
    }
}

#[derive_frule]
fn final_energy(scheme: Integrator, x: &[f64]) -> f64 {
    let osc = Oscillator {
        omega: x[0],
        gamma: x[1],
    };
    let (mut q, mut p) = (x[2], x[3]);
    let dt = 0.05;
    for _ in 0..40 {
        (q, p) = osc.step(scheme, q, p, dt);
    }
    0.5 * p * p + 0.5 * osc.omega * osc.omega * q * q
}

// ---------------------------------------------------------------------------------------
// Program 7: particles in a box with boundary conditions chosen per axis, matched with
// nested patterns and guards.

#[derive(Differentiable, Clone, Copy, Debug)]
pub enum Boundary {
    Periodic { length: f64 },
    Reflecting { lo: f64, hi: f64 },
    Open,
}

#[derive_frule]
fn apply_boundary(b: &Boundary, x: f64, v: f64) -> (f64, f64) {
    match *b {
        Boundary::Periodic { length } => (x.rem_euclid(length), v),
        Boundary::Reflecting { lo, .. } if x < lo => (2.0 * lo - x, -v),
        Boundary::Reflecting { hi, .. } if x > hi => (2.0 * hi - x, -v),
        Boundary::Reflecting { .. } | Boundary::Open => (x, v),
    }
}

#[derive_frule]
fn box_drift(x: &[f64]) -> f64 {
    let bcs = [
        Boundary::Periodic { length: 2.0 },
        Boundary::Reflecting { lo: 0.0, hi: 1.5 },
    ];
    let mut pos = [x[0], x[1]];
    let mut vel = [x[2], x[3]];
    let dt = 0.1;
    for _ in 0..30 {
        for (axis, bc) in bcs.iter().enumerate() {
            let moved = pos[axis] + vel[axis] * dt;
            let (p, v) = apply_boundary(bc, moved, vel[axis]);
            pos[axis] = p;
            vel[axis] = v;
        }
    }
    (pos[0] - 1.0).powi(2) + pos[1] * vel[1]
}

// ---------------------------------------------------------------------------------------
// Program 8: pair forces with a law chosen per pair type; nested tuple/enum patterns and
// guards on the distance.

#[derive(Differentiable, Clone, Copy, Debug)]
pub enum ForceLaw {
    Spring { k: f64, rest: f64 },
    LennardJones { eps: f64, sigma: f64 },
    Coulomb(f64),
    Morse { d: f64, a: f64, r0: f64 },
}

#[derive_frule]
fn pair_energy(law: &ForceLaw, r: f64, cutoff: f64) -> f64 {
    match (law, r) {
        (_, r) if r > cutoff => 0.0,
        (ForceLaw::Spring { k, rest }, r) => 0.5 * k * (r - rest) * (r - rest),
        (ForceLaw::LennardJones { eps, sigma }, r) => {
            let s6 = (sigma / r).powi(6);
            4.0 * eps * (s6 * s6 - s6)
        }
        (ForceLaw::Coulomb(q), r) if *q < 0.0 => q / r,
        (ForceLaw::Coulomb(q), r) => q / r * (-r / cutoff).exp(),
        (&ForceLaw::Morse { d, a, r0 }, r) => {
            let e = 1.0 - (-a * (r - r0)).exp();
            d * e * e
        }
    }
}

#[derive_frule]
fn chain_energy(x: &[f64]) -> f64 {
    let laws = [
        ForceLaw::Spring { k: 10.0, rest: 1.0 },
        ForceLaw::LennardJones {
            eps: 0.5,
            sigma: 0.9,
        },
        ForceLaw::Coulomb(-0.3),
        ForceLaw::Coulomb(0.4),
        ForceLaw::Morse {
            d: 2.0,
            a: 1.5,
            r0: 1.1,
        },
    ];
    let mut e = 0.0;
    for (i, law) in laws.iter().enumerate() {
        let r = (x[i + 1] - x[i]).abs();
        e += pair_energy(law, r, 3.0);
    }
    e
}

// ---------------------------------------------------------------------------------------
// Program 9: a planar serial arm whose joints are an enum; forward kinematics by matching
// the joint type.

#[derive(Differentiable, Clone, Copy, Debug)]
pub enum Joint {
    Revolute { link: f64 },
    Prismatic { angle: f64 },
    Fixed { dx: f64, dy: f64 },
}

#[derive_frule]
fn tool_point(joints: &[Joint], q: &[f64]) -> [f64; 2] {
    let (mut x, mut y, mut th) = (0.0, 0.0, 0.0);
    let mut k = 0;
    for j in joints {
        match j {
            Joint::Revolute { link } => {
                th += q[k];
                x += link * th.cos();
                y += link * th.sin();
                k += 1;
            }
            Joint::Prismatic { angle } => {
                let a = th + angle;
                x += q[k] * a.cos();
                y += q[k] * a.sin();
                k += 1;
            }
            Joint::Fixed { dx, dy } => {
                let (s, c) = th.sin_cos();
                x += c * dx - s * dy;
                y += s * dx + c * dy;
            }
        }
    }
    [x, y]
}

#[derive_frule]
fn reach_cost(q: &[f64]) -> f64 {
    let arm = [
        Joint::Revolute { link: 1.0 },
        Joint::Fixed { dx: 0.1, dy: 0.05 },
        Joint::Revolute { link: 0.7 },
        Joint::Prismatic { angle: 0.3 },
    ];
    let p = tool_point(&arm, q);
    let target = [1.2, 0.9];
    (p[0] - target[0]).powi(2) + (p[1] - target[1]).powi(2)
}

// ---------------------------------------------------------------------------------------
// Program 10: forces as a trait with a default method, used through a generic, `&dyn`,
// `Box<dyn>` and a `Vec<Box<dyn Force>>` field of a world.

#[derive_frule]
pub trait Force {
    /// Force on a particle at `x` with velocity `v`.
    fn force(&self, x: f64, v: f64) -> f64;

    /// Power the force delivers.
    fn power(&self, x: f64, v: f64) -> f64 {
        self.force(x, v) * v
    }
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Spring {
    pub k: f64,
    pub x0: f64,
}

#[derive_frule]
impl Force for Spring {
    fn force(&self, x: f64, _v: f64) -> f64 {
        -self.k * (x - self.x0)
    }
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Drag {
    pub c: f64,
}

#[derive_frule]
impl Force for Drag {
    fn force(&self, _x: f64, v: f64) -> f64 {
        -self.c * v * v.abs()
    }
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Gravity;

#[derive_frule]
impl Force for Gravity {
    fn force(&self, _x: f64, _v: f64) -> f64 {
        -9.81
    }

    fn power(&self, _x: f64, v: f64) -> f64 {
        -9.81 * v
    }
}

#[derive(Differentiable)]
pub struct World {
    pub forces: Vec<Box<dyn Force>>,
    pub mass: f64,
}

#[derive_frule]
fn net_force(forces: &[Box<dyn Force>], x: f64, v: f64) -> f64 {
    forces.iter().map(|f| f.force(x, v)).sum()
}

#[derive_frule]
fn spring_work<F: Force>(f: &F, x: &[f64]) -> f64 {
    let mut w = 0.0;
    for i in 0..x.len() - 1 {
        w += f.power(x[i], x[i + 1] - x[i]);
    }
    w
}

#[derive_frule]
fn through_dyn(f: &dyn Force, x: &[f64]) -> f64 {
    f.force(x[0], x[1]) + f.power(x[0], x[1])
}

/// Falls a body under the world's forces with semi-implicit Euler; `x` = (x0, v0).
#[derive_frule]
fn fall(world: &World, x: &[f64]) -> f64 {
    let (mut pos, mut vel) = (x[0], x[1]);
    let dt = 0.02;
    for _ in 0..50 {
        let f = net_force(&world.forces, pos, vel);
        vel += dt * f / world.mass;
        pos += dt * vel;
    }
    pos
}

// ---------------------------------------------------------------------------------------
// Program 11: pair potentials as a trait with defaults for the force and a shifted,
// truncated version, summed over all pairs through a generic.

#[derive_frule]
pub trait PairPotential {
    fn energy(&self, r: f64) -> f64;
    fn cutoff(&self) -> f64;

    fn shifted(&self, r: f64) -> f64 {
        if r < self.cutoff() {
            self.energy(r) - self.energy(self.cutoff())
        } else {
            0.0
        }
    }
}

#[derive(Differentiable, Clone, Debug)]
pub struct LennardJones {
    pub epsilon: f64,
    pub sigma: f64,
}

#[derive_frule]
impl PairPotential for LennardJones {
    fn energy(&self, r: f64) -> f64 {
        let sr6 = (self.sigma / r).powi(6);
        4.0 * self.epsilon * (sr6 * sr6 - sr6)
    }
    fn cutoff(&self) -> f64 {
        2.5 * self.sigma
    }
}

#[derive(Differentiable, Clone, Debug)]
pub struct Yukawa {
    pub a: f64,
    pub kappa: f64,
}

#[derive_frule]
impl PairPotential for Yukawa {
    fn energy(&self, r: f64) -> f64 {
        self.a * (-self.kappa * r).exp() / r
    }
    fn cutoff(&self) -> f64 {
        4.0 / self.kappa
    }
}

#[derive_frule]
fn cluster_energy<P: PairPotential>(pot: &P, xyz: &[f64]) -> f64 {
    let n = xyz.len() / 3;
    let mut e = 0.0;
    for i in 0..n {
        for j in (i + 1)..n {
            let dx = xyz[3 * i] - xyz[3 * j];
            let dy = xyz[3 * i + 1] - xyz[3 * j + 1];
            let dz = xyz[3 * i + 2] - xyz[3 * j + 2];
            e += pot.shifted((dx * dx + dy * dy + dz * dz).sqrt());
        }
    }
    e
}

// ---------------------------------------------------------------------------------------
// Program 12: constraints with a default penalty, held in `Vec<Box<dyn Constraint>>`.

#[derive_frule]
pub trait Constraint {
    fn violation(&self, q: &[f64]) -> f64;

    fn penalty(&self, q: &[f64], mu: f64) -> f64 {
        let c = self.violation(q);
        0.5 * mu * c * c
    }
}

#[derive(Differentiable, Clone, Debug)]
pub struct Distance {
    pub i: usize,
    pub j: usize,
    pub length: f64,
}

#[derive_frule]
impl Constraint for Distance {
    fn violation(&self, q: &[f64]) -> f64 {
        let dx = q[2 * self.i] - q[2 * self.j];
        let dy = q[2 * self.i + 1] - q[2 * self.j + 1];
        (dx * dx + dy * dy).sqrt() - self.length
    }
}

#[derive(Differentiable, Clone, Debug)]
pub struct OnCircle {
    pub i: usize,
    pub radius: f64,
}

#[derive_frule]
impl Constraint for OnCircle {
    fn violation(&self, q: &[f64]) -> f64 {
        q[2 * self.i].hypot(q[2 * self.i + 1]) - self.radius
    }
}

#[derive_frule]
fn augmented_energy(cs: &Vec<Box<dyn Constraint>>, q: &[f64]) -> f64 {
    // Gravity on every node plus the constraint penalties.
    let mut e = 0.0;
    for k in 0..q.len() / 2 {
        e += 9.81 * q[2 * k + 1];
    }
    for c in cs {
        e += c.penalty(q, 100.0);
    }
    e
}

// ---------------------------------------------------------------------------------------

#[test]
fn integrators_in_every_mode() {
    let x = [1.3, 0.1, 0.8, -0.2];
    for scheme in [
        Integrator::Euler,
        Integrator::SymplecticEuler,
        Integrator::VelocityVerlet,
        Integrator::Rk4,
        Integrator::Midpoint { iterations: 3 },
    ] {
        let plain = |x: &[f64]| final_energy(scheme, x);
        check_modes!(bind(final_energy {}, (Const(scheme), Wrt)), plain, x);
    }
    // Closed form: undamped RK4 energy after n steps scales by the amplification
    // |R(iωh)|² per step, R(z) = 1 + z + z²/2 + z³/6 + z⁴/24; d/dq0 of E = 2E/q0 at p0 = 0.
    let w: f64 = 1.3;
    let z = w * 0.05;
    let re = 1.0 - z * z / 2.0 + z.powi(4) / 24.0;
    let im = z - z.powi(3) / 6.0;
    let amp = (re * re + im * im).powi(40);
    let (e, g) = gradient(
        bind(final_energy {}, (Const(Integrator::Rk4), Wrt)),
        &[w, 0.0, 0.8, 0.0],
    );
    let want = 0.5 * w * w * 0.64 * amp;
    assert!((e - want).abs() < 1e-12 * want);
    assert!((g[2] - 2.0 * want / 0.8).abs() < 1e-10);
}

#[test]
fn boundaries_in_every_mode() {
    check_modes!(box_drift {}, box_drift, [0.3, 0.4, 0.7, 0.45]);
}

#[test]
fn force_laws_in_every_mode() {
    let x = [0.0, 1.2, 2.15, 3.3, 4.0, 5.2];
    check_modes!(chain_energy {}, chain_energy, x);
    // Closed form of one law: the spring's derivative in r.
    let law = ForceLaw::Spring { k: 10.0, rest: 1.0 };
    let d = derivative(bind(pair_energy {}, (&law, Wrt, 3.0)), 1.4);
    assert!((d.1 - 10.0 * 0.4).abs() < 1e-12);
}

#[test]
fn joints_in_every_mode() {
    check_modes!(reach_cost {}, reach_cost, [0.4, 0.9, 0.35]);
}

#[test]
fn forces_through_generics_and_dyn() {
    let s = Spring { k: 3.0, x0: 0.5 };
    let plain = |x: &[f64]| spring_work(&s, x);
    check_modes!(bind(spring_work {}, (&s, Wrt)), plain, [0.1, 0.4, 1.0, 0.7]);
    let d = Drag { c: 0.3 };
    let plain = |x: &[f64]| through_dyn(&d, x);
    check_modes!(
        bind(through_dyn {}, (Const(&d as &dyn Force), Wrt)),
        plain,
        [0.4, -1.5]
    );
    // Closed form: the drag's power −c v² |v| in v.
    let (_, g) = gradient(
        bind(through_dyn {}, (Const(&d as &dyn Force), Wrt)),
        &[0.4, -1.5],
    );
    let v: f64 = -1.5;
    let want = -0.3 * 2.0 * v.abs() - 0.3 * 3.0 * v * v.abs();
    assert!((g[1] - want).abs() < 1e-12, "{} vs {want}", g[1]);

    let world = World {
        forces: vec![
            Box::new(Spring { k: 2.0, x0: 1.0 }),
            Box::new(Drag { c: 0.1 }),
            Box::new(Gravity),
        ],
        mass: 1.5,
    };
    let plain = |x: &[f64]| fall(&world, x);
    check_modes!(bind(fall {}, (&world, Wrt)), plain, [2.0, 0.5]);
}

#[test]
fn pair_potentials_through_a_generic() {
    let xyz = [0.0, 0.0, 0.0, 1.1, 0.1, 0.0, 0.4, 1.0, 0.2, 0.5, 0.5, 0.9];
    let lj = LennardJones {
        epsilon: 1.0,
        sigma: 1.0,
    };
    let plain = |x: &[f64]| cluster_energy(&lj, x);
    check_modes!(bind(cluster_energy {}, (&lj, Wrt)), plain, xyz);
    let yk = Yukawa { a: 2.0, kappa: 1.5 };
    let plain = |x: &[f64]| cluster_energy(&yk, x);
    check_modes!(bind(cluster_energy {}, (&yk, Wrt)), plain, xyz);
}

#[test]
fn constraints_in_a_vec_of_boxes() {
    let cs: Vec<Box<dyn Constraint>> = vec![
        Box::new(OnCircle { i: 0, radius: 1.0 }),
        Box::new(Distance {
            i: 0,
            j: 1,
            length: 0.8,
        }),
        Box::new(Distance {
            i: 1,
            j: 2,
            length: 0.5,
        }),
    ];
    let plain = |q: &[f64]| augmented_energy(&cs, q);
    check_modes!(
        bind(augmented_energy {}, (&cs, Wrt)),
        plain,
        [0.9, -0.3, 1.5, -0.6, 1.7, -1.1]
    );
}
