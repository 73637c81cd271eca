//! Chemistry, biology, geodesy and astronomy as scientists write it, annotated unmodified:
//! Arrhenius kinetics integrated by RK4 over a reaction struct, a Michaelis–Menten fit
//! loss, SIR and SEIR epidemics with a parameters struct and a compartment enum, a
//! Lennard-Jones cluster energy with a cutoff from a `const` table, Hill functions for a
//! gene circuit, haversine and Vincenty distances (an iteration with a convergence error),
//! Kepler's equation solved by Newton, and orbital elements to a state vector. Each is
//! checked against central differences in every mode (`check_modes!`, primals bit for
//! bit) and against closed forms where there is one.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::drivers::{Const, Var};
use fwdad::prelude::*;
use std::f64::consts::PI;

// ---------------------------------------------------------------------------------------
// Program 6: A → B → C with Arrhenius rates, RK4 over a reaction network struct.

const R_GAS: f64 = 8.314462618;

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Arrhenius {
    /// Pre-exponential factor (1/s).
    pub a: f64,
    /// Activation energy (J/mol).
    pub ea: f64,
}

#[derive_frule]
impl Arrhenius {
    pub fn rate(&self, temp: f64) -> f64 {
        self.a * (-self.ea / (R_GAS * temp)).exp()
    }
}

#[derive(Differentiable, Clone, Debug)]
pub struct Network {
    pub k1: Arrhenius,
    pub k2: Arrhenius,
    pub temp: f64,
}

#[derive_frule]
impl Network {
    /// d[A, B, C]/dt.
    fn rhs(&self, c: [f64; 3]) -> [f64; 3] {
        let r1 = self.k1.rate(self.temp) * c[0];
        let r2 = self.k2.rate(self.temp) * c[1];
        [-r1, r1 - r2, r2]
    }

    pub fn integrate(&self, c0: [f64; 3], t_end: f64, steps: usize) -> [f64; 3] {
        let h = t_end / steps as f64;
        let mut c = c0;
        for _ in 0..steps {
            let k1 = self.rhs(c);
            let k2 = self.rhs(std::array::from_fn(|i| c[i] + 0.5 * h * k1[i]));
            let k3 = self.rhs(std::array::from_fn(|i| c[i] + 0.5 * h * k2[i]));
            let k4 = self.rhs(std::array::from_fn(|i| c[i] + h * k3[i]));
            for i in 0..3 {
                c[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
            }
        }
        c
    }
}

/// The yield of the intermediate B after 10 s, as a function of temperature and the two
/// activation energies (kJ/mol).
#[derive_frule]
pub fn intermediate_yield(temp: f64, ea1_kj: f64, ea2_kj: f64) -> f64 {
    let net = Network {
        k1: Arrhenius {
            a: 1.0e7,
            ea: ea1_kj * 1e3,
        },
        k2: Arrhenius {
            a: 5.0e6,
            ea: ea2_kj * 1e3,
        },
        temp,
    };
    let [_, b, _] = net.integrate([1.0, 0.0, 0.0], 10.0, 200);
    b
}

// ---------------------------------------------------------------------------------------
// Program 7: a Michaelis–Menten fit by least squares, with log-parameters.

#[derive(Clone, Copy, Debug)]
pub struct Observation {
    pub substrate: f64,
    pub velocity: f64,
}

#[derive_frule]
pub fn michaelis_menten(s: f64, vmax: f64, km: f64) -> f64 {
    vmax * s / (km + s)
}

#[derive_frule(inactive(data))]
pub fn mm_loss(log_params: &[f64], data: &[f64]) -> f64 {
    let (vmax, km) = (log_params[0].exp(), log_params[1].exp());
    data.chunks_exact(2)
        .map(|obs| {
            let r = michaelis_menten(obs[0], vmax, km) - obs[1];
            r * r
        })
        .sum::<f64>()
        / (data.len() / 2) as f64
}

// ---------------------------------------------------------------------------------------
// Program 8: SIR and SEIR compartment models with a parameter struct.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct EpiParams {
    pub beta: f64,
    pub gamma: f64,
    /// 1 / incubation period; SEIR only.
    pub sigma: f64,
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum Model {
    Sir,
    Seir,
}

#[derive(Differentiable, Clone, Copy, Debug, Default)]
pub struct State {
    pub s: f64,
    pub e: f64,
    pub i: f64,
    pub r: f64,
}

#[derive_frule]
pub fn epi_step(model: Model, p: &EpiParams, st: State, dt: f64) -> State {
    let n = st.s + st.e + st.i + st.r;
    let infections = p.beta * st.s * st.i / n;
    let recoveries = p.gamma * st.i;
    match model {
        Model::Sir => State {
            s: st.s - dt * infections,
            i: st.i + dt * (infections - recoveries),
            r: st.r + dt * recoveries,
            ..st
        },
        Model::Seir => {
            let onset = p.sigma * st.e;
            State {
                s: st.s - dt * infections,
                e: st.e + dt * (infections - onset),
                i: st.i + dt * (onset - recoveries),
                r: st.r + dt * recoveries,
            }
        }
    }
}

/// Peak prevalence and final size of an epidemic, as a weighted objective.
#[derive_frule]
pub fn epidemic_summary(model: Model, theta: &[f64]) -> f64 {
    let p = EpiParams {
        beta: theta[0],
        gamma: theta[1],
        sigma: theta[2],
    };
    let mut st = State {
        s: 0.99,
        i: 0.01,
        ..Default::default()
    };
    let mut peak = st.i;
    let dt = 0.25;
    let mut t = 0.0;
    while t < 120.0 {
        st = epi_step(model, &p, st, dt);
        peak = peak.max(st.i);
        t += dt;
    }
    peak + 0.1 * st.r
}

// ---------------------------------------------------------------------------------------
// Program 9: a Lennard-Jones cluster with per-species parameters from a `const` table,
// Lorentz–Berthelot mixing and a shifted cutoff.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Species {
    Argon,
    Krypton,
    Xenon,
}

/// (ε in K, σ in Å), Rowley et al.
const LJ_TABLE: [(f64, f64); 3] = [(119.8, 3.405), (164.0, 3.65), (229.0, 3.97)];

impl Species {
    fn params(self) -> (f64, f64) {
        LJ_TABLE[self as usize]
    }
}

#[derive_frule]
pub fn lj_cluster_energy(pos: &[f64], species: &[usize], cutoff: f64) -> f64 {
    let n = species.len();
    let mut energy = 0.0;
    for i in 0..n {
        let (eps_i, sig_i) = LJ_TABLE[species[i]];
        for j in (i + 1)..n {
            let (eps_j, sig_j) = LJ_TABLE[species[j]];
            let eps = (eps_i * eps_j).sqrt();
            let sigma = 0.5 * (sig_i + sig_j);
            let d: [f64; 3] = std::array::from_fn(|k| pos[3 * i + k] - pos[3 * j + k]);
            let r2 = d.iter().map(|x| x * x).sum::<f64>();
            if r2 > cutoff * cutoff {
                continue;
            }
            let sr6 = (sigma * sigma / r2).powi(3);
            let sc6 = (sigma / cutoff).powi(6);
            energy += 4.0 * eps * ((sr6 * sr6 - sr6) - (sc6 * sc6 - sc6));
        }
    }
    energy
}

// ---------------------------------------------------------------------------------------
// Program 10: Hill functions in a toggle switch, relaxed to steady state.

#[derive_frule]
pub fn hill_repression(x: f64, k: f64, n: f64) -> f64 {
    1.0 / (1.0 + (x / k).powf(n))
}

#[derive_frule]
pub fn hill_activation(x: f64, k: f64, n: f64) -> f64 {
    let xn = x.powf(n);
    xn / (k.powf(n) + xn)
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Toggle {
    pub alpha: f64,
    pub k: f64,
    pub n: f64,
    pub inducer: f64,
}

#[derive_frule]
impl Toggle {
    pub fn steady_state(&self, mut u: f64, mut v: f64) -> (f64, f64) {
        let dt = 0.05;
        for _ in 0..400 {
            let du = self.alpha * hill_repression(v, self.k, self.n) - u;
            let dv = self.alpha
                * hill_repression(u, self.k, self.n)
                * (1.0 - 0.5 * hill_activation(self.inducer, 1.0, 2.0))
                - v;
            u += dt * du;
            v += dt * dv;
        }
        (u, v)
    }
}

#[derive_frule]
pub fn toggle_output(alpha: f64, n: f64, inducer: f64) -> f64 {
    let t = Toggle {
        alpha,
        k: 1.0,
        n,
        inducer,
    };
    let (u, v) = t.steady_state(2.0, 0.5);
    u - v
}

// ---------------------------------------------------------------------------------------
// Program 11: great-circle distances, haversine and Vincenty.

const EARTH_RADIUS_KM: f64 = 6371.0088;

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct LatLon {
    pub lat: f64,
    pub lon: f64,
}

#[derive_frule]
impl LatLon {
    pub fn from_degrees(lat: f64, lon: f64) -> Self {
        LatLon {
            lat: lat.to_radians(),
            lon: lon.to_radians(),
        }
    }

    pub fn haversine_km(&self, other: &LatLon) -> f64 {
        let dlat = other.lat - self.lat;
        let dlon = other.lon - self.lon;
        let a = (dlat / 2.0).sin().powi(2)
            + self.lat.cos() * other.lat.cos() * (dlon / 2.0).sin().powi(2);
        2.0 * EARTH_RADIUS_KM * a.sqrt().asin()
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GeodesicError {
    Antipodal,
}

/// Vincenty's inverse formula on the WGS-84 ellipsoid, in metres.
#[derive_frule]
pub fn vincenty_m(p1: &LatLon, p2: &LatLon) -> Result<f64, GeodesicError> {
    const A: f64 = 6378137.0;
    const F: f64 = 1.0 / 298.257223563;
    const B: f64 = A * (1.0 - F);
    let l = p2.lon - p1.lon;
    let u1 = ((1.0 - F) * p1.lat.tan()).atan();
    let u2 = ((1.0 - F) * p2.lat.tan()).atan();
    let (sin_u1, cos_u1) = u1.sin_cos();
    let (sin_u2, cos_u2) = u2.sin_cos();

    let mut lambda = l;
    let mut iterations = 0;
    let (sin_sigma, cos_sigma, sigma, cos_sq_alpha, cos_2sigma_m) = loop {
        let (sin_lambda, cos_lambda) = lambda.sin_cos();
        let sin_sigma = ((cos_u2 * sin_lambda).powi(2)
            + (cos_u1 * sin_u2 - sin_u1 * cos_u2 * cos_lambda).powi(2))
        .sqrt();
        let cos_sigma = sin_u1 * sin_u2 + cos_u1 * cos_u2 * cos_lambda;
        let sigma = sin_sigma.atan2(cos_sigma);
        let sin_alpha = cos_u1 * cos_u2 * sin_lambda / sin_sigma;
        let cos_sq_alpha = 1.0 - sin_alpha * sin_alpha;
        let cos_2sigma_m = if cos_sq_alpha != 0.0 {
            cos_sigma - 2.0 * sin_u1 * sin_u2 / cos_sq_alpha
        } else {
            0.0
        };
        let c = F / 16.0 * cos_sq_alpha * (4.0 + F * (4.0 - 3.0 * cos_sq_alpha));
        let prev = lambda;
        lambda = l
            + (1.0 - c)
                * F
                * sin_alpha
                * (sigma
                    + c * sin_sigma
                        * (cos_2sigma_m + c * cos_sigma * (-1.0 + 2.0 * cos_2sigma_m.powi(2))));
        iterations += 1;
        if (lambda - prev).abs() < 1e-12 {
            break (sin_sigma, cos_sigma, sigma, cos_sq_alpha, cos_2sigma_m);
        }
        if iterations > 200 {
            return Err(GeodesicError::Antipodal);
        }
    };
    let u_sq = cos_sq_alpha * (A * A - B * B) / (B * B);
    let big_a = 1.0 + u_sq / 16384.0 * (4096.0 + u_sq * (-768.0 + u_sq * (320.0 - 175.0 * u_sq)));
    let big_b = u_sq / 1024.0 * (256.0 + u_sq * (-128.0 + u_sq * (74.0 - 47.0 * u_sq)));
    let delta_sigma = big_b
        * sin_sigma
        * (cos_2sigma_m
            + big_b / 4.0
                * (cos_sigma * (-1.0 + 2.0 * cos_2sigma_m.powi(2))
                    - big_b / 6.0
                        * cos_2sigma_m
                        * (-3.0 + 4.0 * sin_sigma.powi(2))
                        * (-3.0 + 4.0 * cos_2sigma_m.powi(2))));
    Ok(B * big_a * (sigma - delta_sigma))
}

/// The length of a route through waypoints (degrees), haversine or Vincenty.
#[derive_frule]
pub fn route_length_km(waypoints: &[f64], ellipsoidal: bool) -> f64 {
    let pts: Vec<LatLon> = waypoints
        .chunks(2)
        .map(|c| LatLon::from_degrees(c[0], c[1]))
        .collect();
    let mut total = 0.0;
    for w in pts.windows(2) {
        total += if ellipsoidal {
            vincenty_m(&w[0], &w[1]).unwrap_or(f64::NAN) / 1000.0
        } else {
            w[0].haversine_km(&w[1])
        };
    }
    total
}

// ---------------------------------------------------------------------------------------
// Program 12: Kepler's equation by Newton, and orbital elements to a state vector.

#[derive_frule]
pub fn eccentric_anomaly(mean_anomaly: f64, e: f64) -> f64 {
    let mut ea = if e < 0.8 { mean_anomaly } else { PI };
    for _ in 0..30 {
        let f = ea - e * ea.sin() - mean_anomaly;
        let step = f / (1.0 - e * ea.cos());
        ea -= step;
        if step.abs() < 1e-14 {
            break;
        }
    }
    ea
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Elements {
    /// Semi-major axis (km).
    pub a: f64,
    pub e: f64,
    pub inc: f64,
    pub raan: f64,
    pub argp: f64,
    pub mean_anomaly: f64,
}

const MU_EARTH: f64 = 398600.4418;

#[derive_frule]
impl Elements {
    /// Position and velocity in the inertial frame (km, km/s).
    pub fn to_state(&self) -> ([f64; 3], [f64; 3]) {
        let ea = eccentric_anomaly(self.mean_anomaly, self.e);
        let (sin_e, cos_e) = ea.sin_cos();
        let b = self.a * (1.0 - self.e * self.e).sqrt();
        // Perifocal frame.
        let x = self.a * (cos_e - self.e);
        let y = b * sin_e;
        let r = self.a * (1.0 - self.e * cos_e);
        let n = (MU_EARTH / self.a.powi(3)).sqrt();
        let vx = -self.a * n * sin_e * self.a / r;
        let vy = b * n * cos_e * self.a / r;
        // Rotation R3(−Ω) R1(−i) R3(−ω).
        let (so, co) = self.raan.sin_cos();
        let (si, ci) = self.inc.sin_cos();
        let (sw, cw) = self.argp.sin_cos();
        let rot = [
            [co * cw - so * sw * ci, -co * sw - so * cw * ci],
            [so * cw + co * sw * ci, -so * sw + co * cw * ci],
            [sw * si, cw * si],
        ];
        let mut pos = [0.0; 3];
        let mut vel = [0.0; 3];
        for k in 0..3 {
            pos[k] = rot[k][0] * x + rot[k][1] * y;
            vel[k] = rot[k][0] * vx + rot[k][1] * vy;
        }
        (pos, vel)
    }
}

#[derive_frule]
pub fn state_vector(el: &[f64]) -> [f64; 6] {
    let orbit = Elements {
        a: el[0],
        e: el[1],
        inc: el[2],
        raan: el[3],
        argp: el[4],
        mean_anomaly: el[5],
    };
    let (r, v) = orbit.to_state();
    [r[0], r[1], r[2], v[0], v[1], v[2]]
}

/// The specific orbital energy from the state: v²/2 − μ/r, which is −μ/2a whatever the
/// other elements.
#[derive_frule]
pub fn specific_energy(el: &[f64]) -> f64 {
    let s = state_vector(el);
    let r = (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]).sqrt();
    let v2 = s[3] * s[3] + s[4] * s[4] + s[5] * s[5];
    0.5 * v2 - MU_EARTH / r
}

// ---------------------------------------------------------------------------------------

#[test]
fn arrhenius_network_in_every_mode() {
    let plain = |x: &[f64]| intermediate_yield(x[0], x[1], x[2]);
    check_modes!(
        bind(intermediate_yield {}, (Var(0), Var(1), Var(2))),
        plain,
        [320.0, 55.0, 60.0]
    );
    // Closed form of one rate: d ln k / dT = Ea / (R T²).
    let k = Arrhenius { a: 1e7, ea: 55e3 };
    let (v, d) = derivative(bind(log_rate {}, (Var(0),)), 320.0);
    assert_eq!(v.to_bits(), k.rate(320.0).ln().to_bits());
    assert_close(d, 55e3 / (R_GAS * 320.0 * 320.0), 1e-12, "d ln k/dT");
}

#[derive_frule]
fn log_rate(temp: f64) -> f64 {
    Arrhenius { a: 1e7, ea: 55e3 }.rate(temp).ln()
}

#[test]
fn michaelis_menten_fit_in_every_mode() {
    let data = [0.5, 0.9, 1.0, 1.4, 2.0, 2.1, 4.0, 2.6, 8.0, 3.1, 16.0, 3.3];
    let plain = |x: &[f64]| mm_loss(x, &data);
    check_modes!(
        bind(mm_loss {}, (Wrt, Inactive(&data[..]))),
        plain,
        [1.2_f64.ln(), 1.5_f64.ln()]
    );
    // Closed form: ∂v/∂Km = −Vmax s / (Km + s)².
    let (_, g) = gradient(
        bind(michaelis_menten {}, (2.0, Var(0), Var(1))),
        &[3.0, 1.5],
    );
    assert_close(g[0], 2.0 / 3.5, 1e-15, "∂v/∂Vmax");
    assert_close(g[1], -3.0 * 2.0 / (3.5 * 3.5), 1e-15, "∂v/∂Km");
    let _ = Observation {
        substrate: 1.0,
        velocity: 1.0,
    };
}

#[test]
fn sir_and_seir_in_every_mode() {
    for model in [Model::Sir, Model::Seir] {
        let plain = |x: &[f64]| epidemic_summary(model, x);
        check_modes!(
            bind(epidemic_summary {}, (Const(model), Wrt)),
            plain,
            [0.31, 0.1, 0.2]
        );
    }
}

#[test]
fn lennard_jones_cluster_in_every_mode() {
    let pos = [
        0.0, 0.0, 0.0, 3.9, 0.2, 0.0, 1.6, 3.5, 0.3, 1.9, 1.4, 3.4, 6.1, 2.2, 1.0,
    ];
    let species = [
        Species::Argon as usize,
        Species::Krypton as usize,
        Species::Xenon as usize,
        Species::Argon as usize,
        Species::Xenon as usize,
    ];
    assert_eq!(Species::Krypton.params(), (164.0, 3.65));
    let plain = |x: &[f64]| lj_cluster_energy(x, &species, 6.0);
    check_modes!(
        bind(lj_cluster_energy {}, (Wrt, &species[..], 6.0)),
        plain,
        pos
    );
    // Closed form for a pair of argon atoms: dE/dr = 4ε(−12 σ¹²/r¹³ + 6 σ⁶/r⁷).
    let r = 3.9;
    let (_, g) = gradient(
        bind(lj_cluster_energy {}, (Wrt, &[0usize, 0][..], 10.0)),
        &[0.0, 0.0, 0.0, r, 0.0, 0.0],
    );
    let (eps, s): (f64, f64) = (119.8, 3.405);
    let want = 4.0 * eps * (-12.0 * s.powi(12) / r.powi(13) + 6.0 * s.powi(6) / r.powi(7));
    assert_close(g[3], want, 1e-12, "dE/dr");
}

#[test]
fn toggle_switch_in_every_mode() {
    let plain = |x: &[f64]| toggle_output(x[0], x[1], x[2]);
    check_modes!(
        bind(toggle_output {}, (Var(0), Var(1), Var(2))),
        plain,
        [3.0, 2.5, 0.8]
    );
    // Closed form: d/dx of the repressing Hill function.
    let (x, k, n): (f64, f64, f64) = (1.3, 0.9, 2.2);
    let (_, d) = derivative(bind(hill_repression {}, (Var(0), k, n)), x);
    let q = (x / k).powf(n);
    assert_close(d, -n * q / (x * (1.0 + q).powi(2)), 1e-14, "Hill'");
}

#[test]
fn route_lengths_in_every_mode() {
    // Paris, Frankfurt, Vienna, Budapest (degrees).
    let pts = [
        48.8566, 2.3522, 50.1109, 8.6821, 48.2082, 16.3738, 47.4979, 19.0402,
    ];
    for ellipsoidal in [false, true] {
        let plain = |x: &[f64]| route_length_km(x, ellipsoidal);
        check_modes!(bind(route_length_km {}, (Wrt, ellipsoidal)), plain, pts);
    }
    // Closed form: along a meridian the haversine distance is R·Δφ, so ∂d/∂lat₂ = R·π/180.
    let (_, g) = gradient(
        bind(route_length_km {}, (Wrt, false)),
        &[10.0, 5.0, 20.0, 5.0],
    );
    assert_close(g[2], EARTH_RADIUS_KM * PI / 180.0, 1e-12, "∂d/∂lat₂");
    assert_close(g[0], -EARTH_RADIUS_KM * PI / 180.0, 1e-12, "∂d/∂lat₁");
}

#[test]
fn kepler_and_orbital_state_in_every_mode() {
    // Closed form: dE/dM = 1 / (1 − e cos E), dE/de = sin E / (1 − e cos E).
    let (m, e) = (1.1, 0.3);
    let (ea, g) = gradient(bind(eccentric_anomaly {}, (Var(0), Var(1))), &[m, e]);
    assert_eq!(ea.to_bits(), eccentric_anomaly(m, e).to_bits());
    assert_close(g[0], 1.0 / (1.0 - e * ea.cos()), 1e-13, "dE/dM");
    assert_close(g[1], ea.sin() / (1.0 - e * ea.cos()), 1e-13, "dE/de");
    // A high-eccentricity orbit starts Newton from π.
    let (ea, g) = gradient(bind(eccentric_anomaly {}, (Var(0), Var(1))), &[0.4, 0.93]);
    assert_close(
        g[0],
        1.0 / (1.0 - 0.93 * ea.cos()),
        1e-12,
        "dE/dM, e = 0.93",
    );

    let el = [7000.0, 0.05, 0.9, 0.4, 1.2, 2.0];
    check_modes!(specific_energy {}, specific_energy, el);
    // Closed form: the energy is −μ/2a, so ∂/∂a = μ/2a² and the rest vanish.
    let (en, g) = gradient(specific_energy {}, &el);
    assert_close(en, -MU_EARTH / 14000.0, 1e-12, "energy");
    assert_close(g[0], MU_EARTH / (2.0 * 7000.0 * 7000.0), 1e-9, "∂ε/∂a");
    for k in 1..6 {
        assert!(g[k].abs() < 1e-12, "∂ε/∂el{k} = {}", g[k]);
    }
    // The state's Jacobian against central differences.
    let (s, jac) = jacobian(state_vector {}, &el);
    assert_eq!(s, state_vector(&el).to_vec());
    for k in 0..6 {
        let h = 1e-6 * el[k].abs().max(1.0);
        let (mut p, mut q) = (el, el);
        p[k] += h;
        q[k] -= h;
        let (sp, sq) = (state_vector(&p), state_vector(&q));
        for i in 0..6 {
            let fd = (sp[i] - sq[i]) / (2.0 * h);
            assert_close(jac[(i, k)], fd, 1e-6, &format!("∂s{i}/∂el{k}"));
        }
    }
}
