//! Methods of plain structs: configuration, parameter and model structs declared without
//! `#[derive(Differentiable)]`, whose `impl` carries `#[derive_frule]`, called from derived
//! functions that hold the struct as constant data (`ch: &Channel`, `chans: &[Channel]`, a
//! local built from constants). Written as engineers write them, annotated unmodified
//! (the `impl`s and the functions, not the structs). Before, the `impl` failed with
//! "`Channel` has no tangent type" at the attribute.
//! Derivatives against closed forms and central differences, in one direction, in
//! batches and at second order (`check_widths!`); primals bit for bit.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, derivative, gradient, jvp, Var, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// --- 1. A trapezoidal channel (Manning), normal depth by Newton. ---

#[derive(Clone, Copy)]
pub struct Channel {
    pub bottom: f64,
    pub side_slope: f64,
    pub n: f64,
    pub slope: f64,
}

#[derive_frule]
impl Channel {
    pub fn new(bottom: f64, side_slope: f64, n: f64, slope: f64) -> Self {
        Channel {
            bottom,
            side_slope,
            n,
            slope,
        }
    }
    pub fn area(&self, y: f64) -> f64 {
        (self.bottom + self.side_slope * y) * y
    }
    pub fn perimeter(&self, y: f64) -> f64 {
        self.bottom + 2.0 * y * (1.0 + self.side_slope * self.side_slope).sqrt()
    }
    pub fn discharge(&self, y: f64) -> f64 {
        let a = self.area(y);
        let r = a / self.perimeter(y);
        a * r.powf(2.0 / 3.0) * self.slope.sqrt() / self.n
    }
}

#[derive_frule]
fn normal_depth(q: f64, ch: &Channel) -> f64 {
    let mut y = 1.0;
    for _ in 0..50 {
        let f = ch.discharge(y) - q;
        let dy = 1e-6 * y;
        let df = (ch.discharge(y + dy) - ch.discharge(y - dy)) / (2.0 * dy);
        let step = f / df;
        y -= step;
        if step.abs() < 1e-14 * y {
            break;
        }
    }
    y
}

/// The wetted area and perimeter by the associated-function path.
#[derive_frule]
fn hydraulic_radius(y: f64, ch: &Channel) -> f64 {
    Channel::area(ch, y) / Channel::perimeter(ch, y)
}

/// A channel built in the body from constants.
#[derive_frule]
fn design_flow(y: f64) -> f64 {
    let ch = Channel {
        bottom: 2.5,
        side_slope: 2.0,
        n: 0.015,
        slope: 0.001,
    };
    ch.discharge(y)
}

/// A channel from its constructor (which returns the plain struct: no rule, called on
/// constants), in the body and chained.
#[derive_frule]
fn culvert_flow(y: f64) -> f64 {
    let ch = Channel::new(1.2, 0.0, 0.012, 0.004);
    ch.discharge(y) + Channel::new(0.8, 1.0, 0.03, 0.004).discharge(0.5 * y)
}

/// A network of reaches, each at its own depth.
#[derive_frule]
fn total_flow(depths: &[f64], reaches: &[Channel]) -> f64 {
    let mut q = 0.0;
    for (ch, y) in reaches.iter().zip(depths) {
        q += ch.discharge(*y);
    }
    q
}

fn channel() -> Channel {
    Channel {
        bottom: 3.0,
        side_slope: 1.5,
        n: 0.013,
        slope: 0.0008,
    }
}

#[test]
fn channel_normal_depth() {
    let ch = channel();
    let q = 12.0;
    let d = normal_depth_frule(Dual::new(q, 1.0), &ch);
    let y = normal_depth(q, &ch);
    assert_eq!(d.primal.to_bits(), y.to_bits());
    // The implicit function: dy/dQ = 1 / Q'(y).
    let h = 1e-6;
    let dq = (ch.discharge(y + h) - ch.discharge(y - h)) / (2.0 * h);
    assert_close(d.tangent, 1.0 / dq, 1e-6, "dy/dQ");
    check_widths!(
        bind(normal_depth {}, (Var(0), &ch)),
        |x: &[f64]| normal_depth(x[0], &ch),
        [q]
    );
    let (v, g) = derivative(bind(normal_depth {}, (Wrt, &ch)), q);
    assert_eq!(v.to_bits(), y.to_bits());
    same(g, d.tangent, 1e-12, "derivative driver");
}

#[test]
fn channel_methods_and_paths() {
    let ch = channel();
    let y = 1.3;
    // The method's own entry takes the plain struct.
    let d = Channel::discharge_frule(&ch, Dual::new(y, 1.0));
    assert_eq!(d.primal.to_bits(), ch.discharge(y).to_bits());
    let dq = fd_gradient(&|x: &[f64]| ch.discharge(x[0]), &[y])[0];
    assert_close(d.tangent, dq, 1e-6, "dQ/dy");
    // A = (b + m y) y: dA/dy = b + 2 m y, closed form.
    let a = Channel::area_frule(&ch, Dual::new(y, 1.0));
    assert_eq!(a.primal.to_bits(), ch.area(y).to_bits());
    same(
        a.tangent,
        ch.bottom + 2.0 * ch.side_slope * y,
        1e-15,
        "dA/dy",
    );
    // Through `rule!` and the drivers, the receiver bound as it is.
    let (v, g) = derivative(bind(rule!(Channel::discharge), (&ch, Wrt)), y);
    assert_eq!(v.to_bits(), ch.discharge(y).to_bits());
    same(g, d.tangent, 1e-12, "rule! derivative");
    // R = A / P, dR/dy = (A' P - A P') / P².
    let (a0, p0) = (ch.area(y), ch.perimeter(y));
    let dp = 2.0 * (1.0 + ch.side_slope * ch.side_slope).sqrt();
    let da = ch.bottom + 2.0 * ch.side_slope * y;
    let r = hydraulic_radius_frule(Dual::new(y, 1.0), &ch);
    assert_eq!(r.primal.to_bits(), hydraulic_radius(y, &ch).to_bits());
    same(r.tangent, (da * p0 - a0 * dp) / (p0 * p0), 1e-13, "dR/dy");
    check_widths!(
        bind(hydraulic_radius {}, (Var(0), &ch)),
        |x: &[f64]| hydraulic_radius(x[0], &ch),
        [y]
    );
}

#[test]
fn channel_built_in_the_body() {
    let y = 0.9;
    let d = design_flow_frule(Dual::new(y, 1.0));
    assert_eq!(d.primal.to_bits(), design_flow(y).to_bits());
    check_widths!(
        bind(design_flow {}, (Var(0),)),
        |x: &[f64]| design_flow(x[0]),
        [y]
    );
}

#[test]
fn channel_from_its_constructor() {
    let y = 0.7;
    let d = culvert_flow_frule(Dual::new(y, 1.0));
    assert_eq!(d.primal.to_bits(), culvert_flow(y).to_bits());
    check_widths!(
        bind(culvert_flow {}, (Var(0),)),
        |x: &[f64]| culvert_flow(x[0]),
        [y]
    );
    // A rectangle (m = 0): Q = b y (b y / (b + 2y))^(2/3) √S / n, closed form of dQ/dy.
    let (b, n, s) = (1.2f64, 0.012, 0.004f64);
    let r = b * y / (b + 2.0 * y);
    let dr = b * b / ((b + 2.0 * y) * (b + 2.0 * y));
    let dq = s.sqrt() / n * (b * r.powf(2.0 / 3.0) + b * y * (2.0 / 3.0) * r.powf(-1.0 / 3.0) * dr);
    let other = Channel::new(0.8, 1.0, 0.03, 0.004);
    let h = 1e-6;
    let d_other = (other.discharge(0.5 * (y + h)) - other.discharge(0.5 * (y - h))) / (2.0 * h);
    assert_close(d.tangent, dq + d_other, 1e-7, "dQ/dy");
}

#[test]
fn channel_network_through_a_slice() {
    let reaches = [
        channel(),
        Channel {
            bottom: 1.5,
            side_slope: 0.5,
            n: 0.02,
            slope: 0.002,
        },
        Channel {
            bottom: 4.0,
            side_slope: 1.0,
            n: 0.011,
            slope: 0.0005,
        },
    ];
    let y = [1.1, 0.7, 1.6];
    check_widths!(
        bind(total_flow {}, (Wrt, &reaches[..])),
        |x: &[f64]| total_flow(x, &reaches),
        y
    );
    // Each reach's flow depends on its own depth only: the gradient is the reaches' Q'.
    let (v, g) = gradient(bind(total_flow {}, (Wrt, &reaches[..])), &y[..]);
    assert_eq!(v.to_bits(), total_flow(&y, &reaches).to_bits());
    for k in 0..3 {
        let ch = reaches[k];
        let want = fd_gradient(&|x: &[f64]| ch.discharge(x[0]), &[y[k]])[0];
        assert_close(g[k], want, 1e-6, "dQ/dy_k");
    }
}

// --- 2. A rubber's uniaxial law (neo-Hookean plus a cubic stiffening), a thermal strain. ---

pub struct Thermal {
    pub alpha: f64,
    pub dt: f64,
}

pub struct Material {
    pub shear: f64,
    pub stiffening: f64,
}

#[derive_frule]
impl Material {
    /// Nominal stress at the engineering strain (stretch λ = 1 + ε).
    pub fn stress(&self, strain: f64) -> f64 {
        let stretch = 1.0 + strain;
        self.shear * (stretch - stretch.powi(-2)) + self.stiffening * strain.powi(3)
    }
    pub fn energy(&self, strain: f64, n: usize) -> f64 {
        // Trapezoid rule of the stress from 0 to the strain.
        let h = strain / n as f64;
        let mut w = 0.5 * (self.stress(0.0) + self.stress(strain));
        for i in 1..n {
            w += self.stress(i as f64 * h);
        }
        w * h
    }
    /// The stress with the thermal strain removed: another plain struct, borrowed.
    pub fn stress_hot(&self, strain: f64, th: &Thermal) -> f64 {
        self.stress(strain - th.alpha * th.dt)
    }
}

#[derive_frule]
fn bar_energy(strains: &[f64], lengths: &[f64], mat: &Material) -> f64 {
    strains
        .iter()
        .zip(lengths)
        .map(|(e, l)| mat.energy(*e, 20) * l)
        .sum()
}

#[derive_frule]
fn hot_force(strain: f64, area: f64, mat: &Material, th: &Thermal) -> f64 {
    mat.stress_hot(strain, th) * area
}

#[test]
fn material_stress_and_energy() {
    let mat = Material {
        shear: 0.4,
        stiffening: 0.15,
    };
    let s = [0.1, 0.35, 0.6];
    let l = [1.0, 0.5, 2.0];
    check_widths!(
        bind(bar_energy {}, (Wrt, &l[..], &mat)),
        |x: &[f64]| bar_energy(x, &l, &mat),
        s
    );
    // dσ/dε = μ (1 + 2 λ⁻³) + 3 c ε², closed form.
    let e = 0.23;
    let d = Material::stress_frule(&mat, Dual::new(e, 1.0));
    assert_eq!(d.primal.to_bits(), mat.stress(e).to_bits());
    let stretch: f64 = 1.0 + e;
    same(
        d.tangent,
        mat.shear * (1.0 + 2.0 * stretch.powi(-3)) + 3.0 * mat.stiffening * e * e,
        1e-14,
        "dσ/dε",
    );
    let th = Thermal {
        alpha: 1.2e-4,
        dt: 40.0,
    };
    check_widths!(
        bind(hot_force {}, (Var(0), Var(1), &mat, &th)),
        |x: &[f64]| hot_force(x[0], x[1], &mat, &th),
        [0.27, 3.0]
    );
}

// --- 3. Logit demand shares, a firm's revenue. ---

pub struct Prefs {
    pub quality: [f64; 2],
    pub price_weight: f64,
}

#[derive_frule]
impl Prefs {
    pub fn share(&self, p1: f64, p2: f64) -> f64 {
        let u1 = self.quality[0] - self.price_weight * p1;
        let u2 = self.quality[1] - self.price_weight * p2;
        u1.exp() / (1.0 + u1.exp() + u2.exp())
    }
}

#[derive_frule]
fn revenue(prices: &[f64], prefs: &Prefs, market: f64) -> f64 {
    market * prices[0] * prefs.share(prices[0], prices[1])
}

#[test]
fn logit_share_revenue() {
    let prefs = Prefs {
        quality: [2.0, 1.5],
        price_weight: 0.8,
    };
    let p = [1.7, 2.2];
    check_widths!(
        bind(revenue {}, (Wrt, &prefs, 1000.0)),
        |x: &[f64]| revenue(x, &prefs, 1000.0),
        p
    );
    // ∂s₁/∂p₁ = -β s₁ (1 - s₁), ∂s₁/∂p₂ = β s₁ s₂: closed forms.
    let s1 = prefs.share(p[0], p[1]);
    let s2 = {
        let u1 = prefs.quality[0] - prefs.price_weight * p[0];
        let u2 = prefs.quality[1] - prefs.price_weight * p[1];
        u2.exp() / (1.0 + u1.exp() + u2.exp())
    };
    let b = prefs.price_weight;
    let (v, g) = gradient(bind(revenue {}, (Wrt, &prefs, 1.0)), &p[..]);
    assert_eq!(v.to_bits(), revenue(&p, &prefs, 1.0).to_bits());
    same(g[0], s1 + p[0] * (-b * s1 * (1.0 - s1)), 1e-13, "dR/dp1");
    same(g[1], p[0] * b * s1 * s2, 1e-13, "dR/dp2");
}

// --- 4. A Keplerian orbit: the radius at a time. ---

pub struct Orbit {
    pub a: f64,
    pub e: f64,
    pub mu: f64,
}

#[derive_frule]
impl Orbit {
    pub fn mean_motion(&self) -> f64 {
        (self.mu / (self.a * self.a * self.a)).sqrt()
    }
    pub fn eccentric_anomaly(&self, m: f64) -> f64 {
        let mut big_e = m;
        for _ in 0..30 {
            big_e -= (big_e - self.e * big_e.sin() - m) / (1.0 - self.e * big_e.cos());
        }
        big_e
    }
    pub fn radius(&self, t: f64) -> f64 {
        let big_e = self.eccentric_anomaly(self.mean_motion() * t);
        self.a * (1.0 - self.e * big_e.cos())
    }
}

#[derive_frule]
fn radius_at(t: f64, orbit: &Orbit) -> f64 {
    orbit.radius(t)
}

#[test]
fn orbit_radius_rate() {
    let orbit = Orbit {
        a: 7000.0,
        e: 0.1,
        mu: 398600.0,
    };
    let t = 1500.0;
    let d = radius_at_frule(Dual::new(t, 1.0), &orbit);
    assert_eq!(d.primal.to_bits(), radius_at(t, &orbit).to_bits());
    // dr/dt = a e sin E · n / (1 - e cos E), closed form.
    let n = orbit.mean_motion();
    let big_e = orbit.eccentric_anomaly(n * t);
    let want = orbit.a * orbit.e * big_e.sin() * n / (1.0 - orbit.e * big_e.cos());
    assert_close(d.tangent, want, 1e-10, "dr/dt");
    check_widths!(
        bind(radius_at {}, (Var(0), &orbit)),
        |x: &[f64]| radius_at(x[0], &orbit),
        [t]
    );
}

// --- 5. A pinhole camera, reprojection error of a point. ---

pub struct Camera {
    pub focal: f64,
    pub center: [f64; 2],
    pub k1: f64,
}

#[derive_frule]
impl Camera {
    pub fn project(&self, p: [f64; 3]) -> [f64; 2] {
        let (x, y) = (p[0] / p[2], p[1] / p[2]);
        let d = 1.0 + self.k1 * (x * x + y * y);
        [
            self.focal * d * x + self.center[0],
            self.focal * d * y + self.center[1],
        ]
    }
}

#[derive_frule]
fn reprojection_error(point: &[f64], cams: &[Camera], obs: &[[f64; 2]]) -> f64 {
    let p = [point[0], point[1], point[2]];
    let mut err = 0.0;
    for (cam, o) in cams.iter().zip(obs) {
        let uv = cam.project(p);
        err += (uv[0] - o[0]).powi(2) + (uv[1] - o[1]).powi(2);
    }
    err
}

#[test]
fn camera_reprojection() {
    let cams = [
        Camera {
            focal: 500.0,
            center: [320.0, 240.0],
            k1: -0.1,
        },
        Camera {
            focal: 650.0,
            center: [300.0, 250.0],
            k1: 0.05,
        },
    ];
    let obs = [[350.0, 260.0], [330.0, 275.0]];
    let point = [0.1, 0.05, 2.0];
    check_widths!(
        bind(reprojection_error {}, (Wrt, &cams[..], &obs[..])),
        |x: &[f64]| reprojection_error(x, &cams, &obs),
        point
    );
    // The projection's Jacobian through the method's entry: ∂u/∂X = f (d + 2 k1 x²) / Z.
    let c = &cams[0];
    let u = Camera::project_frule(c, Dual::new(point, [1.0, 0.0, 0.0]));
    let want = c.project(point);
    assert_eq!(u.primal[0].to_bits(), want[0].to_bits());
    assert_eq!(u.primal[1].to_bits(), want[1].to_bits());
    let (x, y) = (point[0] / point[2], point[1] / point[2]);
    let d = 1.0 + c.k1 * (x * x + y * y);
    same(
        u.tangent[0],
        c.focal * (d + 2.0 * c.k1 * x * x) / point[2],
        1e-12,
        "du/dX",
    );
    same(
        u.tangent[1],
        c.focal * 2.0 * c.k1 * x * y / point[2],
        1e-12,
        "dv/dX",
    );
}

// --- 6. A grid's index arithmetic in a smoothness energy. ---

pub struct Grid {
    pub nx: usize,
    pub ny: usize,
    pub h: f64,
}

#[derive_frule]
impl Grid {
    pub fn index(&self, i: usize, j: usize) -> usize {
        j * self.nx + i
    }
    pub fn gradient_energy(&self, u: &[f64]) -> f64 {
        let mut e = 0.0;
        for j in 0..self.ny {
            for i in 0..self.nx - 1 {
                let d = (u[self.index(i + 1, j)] - u[self.index(i, j)]) / self.h;
                e += 0.5 * d * d;
            }
        }
        for j in 0..self.ny - 1 {
            for i in 0..self.nx {
                let d = (u[self.index(i, j + 1)] - u[self.index(i, j)]) / self.h;
                e += 0.5 * d * d;
            }
        }
        e * self.h * self.h
    }
}

#[derive_frule]
fn membrane(u: &[f64], grid: &Grid, load: f64) -> f64 {
    let mut w = 0.0;
    for j in 0..grid.ny {
        for i in 0..grid.nx {
            w += load * u[grid.index(i, j)] * grid.h * grid.h;
        }
    }
    grid.gradient_energy(u) - w + u.iter().map(|v| v.powi(4)).sum::<f64>()
}

#[test]
fn grid_membrane_energy() {
    let grid = Grid {
        nx: 3,
        ny: 2,
        h: 0.5,
    };
    let u = [0.1, 0.3, -0.2, 0.4, 0.0, 0.25];
    check_widths!(
        bind(membrane {}, (Wrt, &grid, 2.0)),
        |x: &[f64]| membrane(x, &grid, 2.0),
        u
    );
}

// --- 7. A pendulum's parameters in an RK4 integrator. ---

#[derive(Debug)]
pub struct Pendulum {
    pub g: f64,
    pub length: f64,
    pub damping: f64,
}

#[derive_frule]
impl Pendulum {
    pub fn accel(&self, theta: f64, omega: f64) -> f64 {
        -self.g / self.length * theta.sin() - self.damping * omega
    }
}

#[derive_frule]
fn swing(state0: &[f64], p: &Pendulum, dt: f64, steps: usize) -> f64 {
    let (mut th, mut om) = (state0[0], state0[1]);
    for _ in 0..steps {
        let k1 = (om, p.accel(th, om));
        let k2 = (
            om + 0.5 * dt * k1.1,
            p.accel(th + 0.5 * dt * k1.0, om + 0.5 * dt * k1.1),
        );
        let k3 = (
            om + 0.5 * dt * k2.1,
            p.accel(th + 0.5 * dt * k2.0, om + 0.5 * dt * k2.1),
        );
        let k4 = (om + dt * k3.1, p.accel(th + dt * k3.0, om + dt * k3.1));
        th += dt / 6.0 * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0);
        om += dt / 6.0 * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1);
    }
    th
}

#[test]
fn pendulum_sensitivity() {
    let p = Pendulum {
        g: 9.81,
        length: 1.2,
        damping: 0.1,
    };
    check_widths!(
        bind(swing {}, (Wrt, &p, 0.01, 200)),
        |x: &[f64]| swing(x, &p, 0.01, 200),
        [0.4, -0.2]
    );
    // Small angles, no damping: θ(t) = θ₀ cos ωt + (ω₀/ω) sin ωt, so ∂θ/∂θ₀ ≈ cos ωt.
    let still = Pendulum {
        g: 9.81,
        length: 1.2,
        damping: 0.0,
    };
    let (_, g) = gradient(bind(swing {}, (Wrt, &still, 0.001, 1000)), &[1e-6, 0.0][..]);
    let w = (9.81f64 / 1.2).sqrt();
    assert_close(g[0], w.cos(), 1e-6, "dθ/dθ0");
    assert_close(g[1], w.sin() / w, 1e-6, "dθ/dω0");
}

// --- 8. A lookup table's interpolation, a `Vec` field. ---

pub struct Table {
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
}

#[derive_frule]
impl Table {
    pub fn interp(&self, x: f64) -> f64 {
        let n = self.xs.len();
        if x <= self.xs[0] {
            return self.ys[0];
        }
        for i in 1..n {
            if x < self.xs[i] {
                let t = (x - self.xs[i - 1]) / (self.xs[i] - self.xs[i - 1]);
                return self.ys[i - 1] + t * (self.ys[i] - self.ys[i - 1]);
            }
        }
        self.ys[n - 1]
    }
}

#[derive_frule]
fn drag_work(v: &[f64], cd: &Table, rho: f64) -> f64 {
    v.iter().map(|&s| 0.5 * rho * cd.interp(s) * s * s).sum()
}

#[test]
fn table_interpolation() {
    let cd = Table {
        xs: vec![0.0, 10.0, 20.0, 40.0],
        ys: vec![0.5, 0.45, 0.38, 0.3],
    };
    let v = [5.0, 15.0, 33.0];
    check_widths!(
        bind(drag_work {}, (Wrt, &cd, 1.2)),
        |x: &[f64]| drag_work(x, &cd, 1.2),
        v
    );
    // On the segment [10, 20]: cd = 0.45 - 0.007 (s - 10), d(½ρ cd s²)/ds closed form.
    let (_, g) = gradient(bind(drag_work {}, (Wrt, &cd, 1.2)), &v[..]);
    let s = 15.0;
    let c = 0.45 - 0.007 * (s - 10.0);
    same(
        g[1],
        0.5 * 1.2 * (-0.007 * s * s + 2.0 * c * s),
        1e-12,
        "dW/dv1",
    );
}

// --- 9. One-direction `jvp` and the hessian driver on a method's model. ---

#[test]
fn drivers_on_a_plain_struct() {
    let prefs = Prefs {
        quality: [1.0, 0.5],
        price_weight: 1.1,
    };
    let p = [0.9, 1.4];
    let (v, d): (f64, f64) = jvp(bind(revenue {}, (Wrt, &prefs, 10.0)), &p[..], &[1.0, -1.0]);
    assert_eq!(v.to_bits(), revenue(&p, &prefs, 10.0).to_bits());
    let fd = fd_gradient(&|x: &[f64]| revenue(x, &prefs, 10.0), &p);
    assert_close(d, fd[0] - fd[1], 1e-6, "jvp");
    let (_, _, h) = fwdad::drivers::hessian(bind(revenue {}, (Wrt, &prefs, 10.0)), &p[..]);
    let want = fd_hessian(&|x: &[f64]| revenue(x, &prefs, 10.0), &p);
    for i in 0..2 {
        for j in 0..2 {
            assert_close(h[(i, j)], want[i][j], 1e-4, "hessian");
        }
    }
}
