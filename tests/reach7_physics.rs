//! Physics code as a computational physicist writes it, annotated unmodified: SPH density
//! summation over neighbour lists built from a cell grid (`HashMap<(i64, i64),
//! Vec<usize>>`) with the cubic spline kernel's piecewise `match`, a lattice spring
//! network whose rest lengths are a `HashMap<(usize, usize), f64>`, a heat equation stepped
//! explicitly with ghost cells under an enum of boundary conditions (`windows(3)`), and a
//! damped pendulum integrated by a generic RK4 helper taking a closure. Each is checked in
//! every mode against central differences (`check_modes!`, primals bit for bit) and
//! against closed forms.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use std::collections::HashMap;
use std::f64::consts::PI;

// ---------------------------------------------------------------------------------------
// SPH density.

/// The 2-D cubic spline kernel (Monaghan), support `2h`.
#[derive_frule]
pub fn cubic_spline(r: f64, h: f64) -> f64 {
    let sigma = 10.0 / (7.0 * PI * h * h);
    let q = r / h;
    match q {
        q if q < 1.0 => sigma * (1.0 - 1.5 * q * q + 0.75 * q * q * q),
        q if q < 2.0 => sigma * 0.25 * (2.0 - q).powi(3),
        _ => 0.0,
    }
}

/// Neighbour lists from a uniform grid of cells of side `2h`.
pub fn neighbour_lists(pos: &[[f64; 2]], h: f64) -> Vec<Vec<usize>> {
    let cell = 2.0 * h;
    let key = |p: &[f64; 2]| ((p[0] / cell).floor() as i64, (p[1] / cell).floor() as i64);
    let mut grid: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, p) in pos.iter().enumerate() {
        grid.entry(key(p)).or_default().push(i);
    }
    pos.iter()
        .map(|p| {
            let (cx, cy) = key(p);
            let mut near = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(members) = grid.get(&(cx + dx, cy + dy)) {
                        near.extend(members.iter().copied());
                    }
                }
            }
            near.sort_unstable();
            near
        })
        .collect()
}

/// Density at each particle by summation over its neighbours.
#[derive_frule]
pub fn densities(pos: &[[f64; 2]], mass: f64, h: f64, neighbours: &[Vec<usize>]) -> Vec<f64> {
    pos.iter()
        .zip(neighbours)
        .map(|(pi, list)| {
            list.iter()
                .map(|&j| {
                    let r = ((pi[0] - pos[j][0]).powi(2) + (pi[1] - pos[j][1]).powi(2)).sqrt();
                    mass * cubic_spline(r, h)
                })
                .sum()
        })
        .collect()
}

/// The equation-of-state pressure energy `Σ k (ρ/ρ₀ - 1)²` of a particle block.
#[derive_frule]
pub fn pressure_energy(flat: &[f64], neighbours: &[Vec<usize>], h: f64) -> f64 {
    let pos: Vec<[f64; 2]> = flat.chunks_exact(2).map(|c| [c[0], c[1]]).collect();
    let rho = densities(&pos, 0.02, h, neighbours);
    let rho0 = 1.0;
    rho.iter().map(|r| 50.0 * (r / rho0 - 1.0).powi(2)).sum()
}

fn particle_block() -> Vec<f64> {
    let mut flat = Vec::new();
    for i in 0..4 {
        for j in 0..3 {
            flat.push(0.09 * i as f64 + 0.013 * j as f64);
            flat.push(0.1 * j as f64 + 0.007 * (i * i) as f64);
        }
    }
    flat
}

#[test]
fn sph_density_in_every_mode() {
    let flat = particle_block();
    let h = 0.1;
    let pos: Vec<[f64; 2]> = flat.chunks(2).map(|c| [c[0], c[1]]).collect();
    let nl = neighbour_lists(&pos, h);
    check_modes!(
        bind(pressure_energy {}, (Wrt, &nl[..], h)),
        |x: &[f64]| pressure_energy(x, &nl, h),
        flat
    );
}

#[test]
fn cubic_spline_kernel_against_its_derivative() {
    // dW/dr in closed form on both pieces.
    let h = 0.3;
    let sigma = 10.0 / (7.0 * PI * h * h);
    for r in [0.1, 0.25, 0.4, 0.55] {
        let (w, dw) = derivative(bind(cubic_spline {}, (Var(0), h)), r);
        assert_eq!(w.to_bits(), cubic_spline(r, h).to_bits());
        let q: f64 = r / h;
        let want = if q < 1.0 {
            sigma * (-3.0 * q + 2.25 * q * q) / h
        } else {
            -sigma * 0.75 * (2.0 - q).powi(2) / h
        };
        assert_close(dw, want, 1e-12, "dW/dr");
    }
}

// ---------------------------------------------------------------------------------------
// A lattice spring network.

#[derive(Differentiable)]
pub struct Lattice {
    pub nx: usize,
    pub ny: usize,
    pub stiffness: f64,
}

impl Lattice {
    pub fn index(&self, i: usize, j: usize) -> usize {
        j * self.nx + i
    }

    /// Rest lengths of the nearest-neighbour and diagonal springs.
    pub fn rest_lengths(&self, spacing: f64) -> HashMap<(usize, usize), f64> {
        let mut springs = HashMap::new();
        for j in 0..self.ny {
            for i in 0..self.nx {
                let a = self.index(i, j);
                if i + 1 < self.nx {
                    springs.insert((a, self.index(i + 1, j)), spacing);
                }
                if j + 1 < self.ny {
                    springs.insert((a, self.index(i, j + 1)), spacing);
                }
                if i + 1 < self.nx && j + 1 < self.ny {
                    springs.insert((a, self.index(i + 1, j + 1)), spacing * 2f64.sqrt());
                }
            }
        }
        springs
    }
}

/// Elastic energy of the network at positions `x` (flat `[x0, y0, x1, y1, ..]`).
#[derive_frule]
pub fn spring_energy(x: &[f64], rest: &HashMap<(usize, usize), f64>, k: f64) -> f64 {
    let mut energy = 0.0;
    for (&(a, b), &l0) in rest {
        let dx = x[2 * b] - x[2 * a];
        let dy = x[2 * b + 1] - x[2 * a + 1];
        let stretch = (dx * dx + dy * dy).sqrt() - l0;
        energy += 0.5 * k * stretch * stretch;
    }
    energy
}

/// The springs' energy plus gravity on each node.
#[derive_frule]
pub fn network_energy(x: &[f64], rest: &HashMap<(usize, usize), f64>, lattice: &Lattice) -> f64 {
    let gravity: f64 = x.iter().skip(1).step_by(2).map(|y| 0.1 * 9.81 * y).sum();
    spring_energy(x, rest, lattice.stiffness) + gravity
}

fn lattice_positions(l: &Lattice) -> Vec<f64> {
    let mut x = Vec::new();
    for j in 0..l.ny {
        for i in 0..l.nx {
            x.push(i as f64 * 1.05 + 0.02 * (j as f64).sin());
            x.push(j as f64 * 0.97 - 0.03 * (i as f64).cos());
        }
    }
    x
}

#[test]
fn spring_network_in_every_mode() {
    let lattice = Lattice {
        nx: 3,
        ny: 3,
        stiffness: 40.0,
    };
    let rest = lattice.rest_lengths(1.0);
    let x = lattice_positions(&lattice);
    check_modes!(
        bind(network_energy {}, (Wrt, &rest, &lattice)),
        |x: &[f64]| network_energy(x, &rest, &lattice),
        x
    );
    // Closed form: the force of one spring along its axis, k (|d| - l0).
    let mut one = HashMap::new();
    one.insert((0usize, 1usize), 1.0);
    let p = [0.0, 0.0, 1.3, 0.4];
    let (_, g) = gradient(bind(spring_energy {}, (Wrt, &one, 40.0)), &p);
    let len = (1.3f64 * 1.3 + 0.4 * 0.4).sqrt();
    let f = 40.0 * (len - 1.0);
    assert_close(g[2], f * 1.3 / len, 1e-12, "force x");
    assert_close(g[3], f * 0.4 / len, 1e-12, "force y");
    assert_close(g[0], -g[2], 1e-12, "reaction");
}

// ---------------------------------------------------------------------------------------
// The heat equation with ghost cells.

#[derive(Differentiable, Clone, Copy, Debug)]
pub enum Boundary {
    /// Fixed temperatures at both ends.
    Dirichlet(f64, f64),
    /// Zero flux.
    Insulated,
    Periodic,
}

#[derive(Differentiable, Clone, Debug)]
pub struct Rod {
    pub diffusivity: f64,
    pub dx: f64,
    pub boundary: Boundary,
}

#[derive_frule]
impl Rod {
    fn with_ghosts(&self, u: &[f64]) -> Vec<f64> {
        let n = u.len();
        let (left, right) = match self.boundary {
            Boundary::Dirichlet(a, b) => (2.0 * a - u[0], 2.0 * b - u[n - 1]),
            Boundary::Insulated => (u[0], u[n - 1]),
            Boundary::Periodic => (u[n - 1], u[0]),
        };
        let mut g = Vec::with_capacity(n + 2);
        g.push(left);
        g.extend_from_slice(u);
        g.push(right);
        g
    }

    /// One explicit Euler step; `None` when `dt` breaks the stability limit.
    pub fn step(&self, u: &[f64], dt: f64) -> Option<Vec<f64>> {
        let r = self.diffusivity * dt / (self.dx * self.dx);
        if r > 0.5 {
            return None;
        }
        let g = self.with_ghosts(u);
        Some(
            g.windows(3)
                .map(|w| w[1] + r * (w[0] - 2.0 * w[1] + w[2]))
                .collect(),
        )
    }

    pub fn evolve(&self, u0: &[f64], dt: f64, steps: usize) -> Option<Vec<f64>> {
        let mut u = u0.to_vec();
        for _ in 0..steps {
            u = self.step(&u, dt)?;
        }
        Some(u)
    }
}

/// The temperature profile's squared mismatch to a measurement after a time, as a
/// function of the diffusivity, a boundary temperature and the initial profile.
#[derive_frule]
pub fn heat_misfit(p: &[f64], measured: &[f64]) -> f64 {
    let rods = [
        Rod {
            diffusivity: p[0],
            dx: 0.1,
            boundary: Boundary::Dirichlet(p[1], 0.0),
        },
        Rod {
            diffusivity: p[0],
            dx: 0.1,
            boundary: Boundary::Insulated,
        },
        Rod {
            diffusivity: p[0],
            dx: 0.1,
            boundary: Boundary::Periodic,
        },
    ];
    let u0 = &p[2..];
    let mut total = 0.0;
    for rod in &rods {
        let Some(u) = rod.evolve(u0, 0.002, 25) else {
            return f64::INFINITY;
        };
        total += u
            .iter()
            .zip(measured)
            .map(|(a, b)| (a - b).powi(2))
            .sum::<f64>();
    }
    total
}

#[test]
fn heat_equation_in_every_mode() {
    let measured = [0.2, 0.4, 0.5, 0.45, 0.3, 0.1];
    let p = [1.1, 0.8, 0.1, 0.6, 0.9, 0.7, 0.4, 0.0];
    check_modes!(
        bind(heat_misfit {}, (Wrt, &measured[..])),
        |p: &[f64]| heat_misfit(p, &measured),
        p
    );
}

#[test]
fn insulated_rod_conserves_heat() {
    // Closed form: with zero flux the total heat is conserved, so its derivative in the
    // diffusivity is zero and in each initial value one.
    #[derive_frule]
    fn total_heat(p: &[f64]) -> f64 {
        let rod = Rod {
            diffusivity: p[0],
            dx: 0.1,
            boundary: Boundary::Insulated,
        };
        rod.evolve(&p[1..], 0.002, 30).unwrap().iter().sum()
    }
    let p = [1.1, 0.1, 0.6, 0.9, 0.7, 0.4];
    let (_, g) = gradient(total_heat {}, &p);
    assert!(g[0].abs() < 1e-12, "d heat / d diffusivity = {}", g[0]);
    for k in 1..p.len() {
        assert_close(g[k], 1.0, 1e-12, "d heat / d u0");
    }
}

// ---------------------------------------------------------------------------------------
// A damped pendulum through a generic RK4 helper.

#[derive_frule]
pub fn rk4<F>(f: F, y: [f64; 2], t: f64, h: f64) -> [f64; 2]
where
    F: Fn(f64, [f64; 2]) -> [f64; 2],
{
    let add = |a: [f64; 2], b: [f64; 2], s: f64| [a[0] + s * b[0], a[1] + s * b[1]];
    let k1 = f(t, y);
    let k2 = f(t + h / 2.0, add(y, k1, h / 2.0));
    let k3 = f(t + h / 2.0, add(y, k2, h / 2.0));
    let k4 = f(t + h, add(y, k3, h));
    [
        y[0] + h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
        y[1] + h / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
    ]
}

#[derive(Differentiable, Clone, Debug)]
pub struct Pendulum {
    pub length: f64,
    pub damping: f64,
    pub drive: Option<(f64, f64)>,
}

#[derive_frule]
impl Pendulum {
    pub fn rhs(&self, t: f64, [theta, omega]: [f64; 2]) -> [f64; 2] {
        let mut acc = -9.81 / self.length * theta.sin() - self.damping * omega;
        if let Some((amp, freq)) = self.drive {
            acc += amp * (freq * t).cos();
        }
        [omega, acc]
    }

    pub fn simulate(&self, y0: [f64; 2], dt: f64, steps: usize) -> [f64; 2] {
        (0..steps).fold(y0, |y, n| rk4(|t, y| self.rhs(t, y), y, n as f64 * dt, dt))
    }
}

#[derive_frule]
fn pendulum_end(p: &[f64]) -> f64 {
    let pend = Pendulum {
        length: p[0],
        damping: p[1],
        drive: Some((p[2], 2.0)),
    };
    let [theta, omega] = pend.simulate([p[3], 0.0], 0.01, 150);
    theta + 0.1 * omega
}

fn pendulum_end_plain(p: &[f64]) -> f64 {
    pendulum_end(p)
}

#[test]
fn driven_pendulum_in_every_mode() {
    check_modes!(
        bind(pendulum_end {}, (Wrt,)),
        pendulum_end_plain,
        [1.2, 0.3, 0.5, 0.4]
    );
}
