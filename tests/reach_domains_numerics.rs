//! More everyday numerics, annotated unmodified, where a wrong derivative would hide in
//! state handling: Dijkstra's shortest path over float weights (its derivative picks the
//! path's edges), an explicit heat equation double-buffered with `std::mem::swap`,
//! Welford's running variance as a `fold` over a tuple, a natural cubic spline by the
//! Thomas algorithm, an `Iterator` implemented on an RNG struct, and a battery whose mode
//! enum changes through `&mut self`. Each is checked against central differences in every
//! mode (`check_modes!`, primals bit for bit) and against closed forms where there is one.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

// ---------------------------------------------------------------------------------------
// Program 31: Dijkstra on a dense graph whose edge weights are the inputs.

/// Edges `(from, to)`; the weight of edge `k` is `w[k]`.
const EDGES: [(usize, usize); 8] = [
    (0, 1),
    (0, 2),
    (1, 2),
    (1, 3),
    (2, 3),
    (2, 4),
    (3, 5),
    (4, 5),
];

#[derive_frule]
pub fn shortest_path(w: &[f64], source: usize, target: usize) -> f64 {
    let n = 6;
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[source] = 0.0;
    loop {
        // The closest vertex not yet settled.
        let mut best: Option<usize> = None;
        for v in 0..n {
            if !done[v] && dist[v].is_finite() && best.is_none_or(|b| dist[v] < dist[b]) {
                best = Some(v);
            }
        }
        let Some(u) = best else { break };
        if u == target {
            break;
        }
        done[u] = true;
        for (k, &(a, b)) in EDGES.iter().enumerate() {
            let other = match (a == u, b == u) {
                (true, _) => b,
                (_, true) => a,
                _ => continue,
            };
            let cand = dist[u] + w[k];
            if cand < dist[other] {
                dist[other] = cand;
            }
        }
    }
    dist[target]
}

// ---------------------------------------------------------------------------------------
// Program 32: the heat equation, explicit, two buffers swapped each step.

#[derive_frule]
pub fn heat_profile(initial: &[f64], diffusivity: f64, steps: usize) -> f64 {
    let n = initial.len();
    let dx = 1.0 / (n - 1) as f64;
    let dt = 0.4 * dx * dx / diffusivity.max(1e-12);
    let r = diffusivity * dt / (dx * dx);
    let mut u = initial.to_vec();
    let mut next = vec![0.0; n];
    for _ in 0..steps {
        next[0] = 0.0;
        next[n - 1] = 0.0;
        for (i, win) in u.windows(3).enumerate() {
            next[i + 1] = win[1] + r * (win[0] - 2.0 * win[1] + win[2]);
        }
        std::mem::swap(&mut u, &mut next);
    }
    // Heat left in the middle third.
    u[n / 3..2 * n / 3].iter().sum::<f64>() * dx
}

// ---------------------------------------------------------------------------------------
// Program 33: Welford's running mean and variance as a fold over a tuple.

#[derive_frule]
pub fn welford_variance(x: &[f64]) -> f64 {
    let (n, _mean, m2) = x.iter().fold((0usize, 0.0, 0.0), |(n, mean, m2), &v| {
        let n = n + 1;
        let delta = v - mean;
        let mean = mean + delta / n as f64;
        (n, mean, m2 + delta * (v - mean))
    });
    if n < 2 {
        0.0
    } else {
        m2 / (n - 1) as f64
    }
}

// ---------------------------------------------------------------------------------------
// Program 34: a natural cubic spline through (xᵢ, yᵢ), by the Thomas algorithm.

#[derive(Differentiable, Clone, Debug)]
pub struct Spline {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    /// Second derivatives at the knots.
    pub m: Vec<f64>,
}

#[derive_frule]
impl Spline {
    pub fn natural(x: &[f64], y: &[f64]) -> Spline {
        let n = x.len();
        let h: Vec<f64> = x.windows(2).map(|w| w[1] - w[0]).collect();
        // Tridiagonal system for the interior second derivatives.
        let mut diag = vec![0.0; n];
        let mut rhs = vec![0.0; n];
        let mut upper = vec![0.0; n];
        for i in 1..n - 1 {
            diag[i] = 2.0 * (h[i - 1] + h[i]);
            upper[i] = h[i];
            rhs[i] = 6.0 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1]);
        }
        // Forward sweep.
        for i in 2..n - 1 {
            let factor = h[i - 1] / diag[i - 1];
            diag[i] -= factor * upper[i - 1];
            rhs[i] -= factor * rhs[i - 1];
        }
        let mut m = vec![0.0; n];
        for i in (1..n - 1).rev() {
            m[i] = (rhs[i] - upper[i] * m[i + 1]) / diag[i];
        }
        Spline {
            x: x.to_vec(),
            y: y.to_vec(),
            m,
        }
    }

    pub fn eval(&self, t: f64) -> f64 {
        let n = self.x.len();
        let i = match self.x.iter().position(|&xi| xi > t) {
            Some(0) => 0,
            Some(j) => j - 1,
            None => n - 2,
        };
        let h = self.x[i + 1] - self.x[i];
        let a = (self.x[i + 1] - t) / h;
        let b = (t - self.x[i]) / h;
        a * self.y[i]
            + b * self.y[i + 1]
            + ((a * a * a - a) * self.m[i] + (b * b * b - b) * self.m[i + 1]) * h * h / 6.0
    }
}

#[derive_frule]
pub fn spline_at(y: &[f64], t: f64) -> f64 {
    let x: Vec<f64> = (0..y.len()).map(|i| (i as f64).powf(1.2)).collect();
    Spline::natural(&x, y).eval(t)
}

// ---------------------------------------------------------------------------------------
// Program 35: an RNG as an `Iterator`, consumed by `take` and a `for` loop.

#[derive(Differentiable, Clone, Debug)]
pub struct Xorshift {
    state: u64,
}

impl Iterator for Xorshift {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state = x;
        Some((x >> 11) as f64 / (1u64 << 53) as f64)
    }
}

/// A stochastic estimate of E[exp(−θ U)] with common random numbers.
#[derive_frule]
pub fn mc_laplace(theta: f64, n: usize) -> f64 {
    let rng = Xorshift {
        state: 0x9E3779B97F4A7C15,
    };
    let mut total = 0.0;
    for u in rng.take(n) {
        total += (-theta * u).exp();
    }
    total / n as f64
}

// ---------------------------------------------------------------------------------------
// Program 36: a battery with a mode enum changed through `&mut self`.

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    Charging,
    Discharging,
    Idle,
}

#[derive(Differentiable, Clone, Debug)]
pub struct Battery {
    pub capacity: f64,
    pub soc: f64,
    pub mode: Mode,
    pub efficiency: f64,
}

#[derive_frule]
impl Battery {
    pub fn apply(&mut self, power: f64, dt: f64) -> f64 {
        self.mode = if power > 0.0 {
            Mode::Charging
        } else if power < 0.0 {
            Mode::Discharging
        } else {
            Mode::Idle
        };
        let energy = match self.mode {
            Mode::Charging => power * dt * self.efficiency,
            Mode::Discharging => power * dt / self.efficiency,
            Mode::Idle => 0.0,
        };
        let before = self.soc;
        self.soc = (self.soc + energy / self.capacity).clamp(0.0, 1.0);
        // The energy actually exchanged, after clipping.
        (self.soc - before) * self.capacity
    }
}

#[derive_frule]
pub fn arbitrage_revenue(x: &[f64], prices: &[f64]) -> f64 {
    let mut battery = Battery {
        capacity: x[0],
        soc: 0.5,
        mode: Mode::Idle,
        efficiency: x[1],
    };
    let mut revenue = 0.0;
    for (t, &price) in prices.iter().enumerate() {
        let power = if price < 30.0 {
            2.0
        } else if price > 60.0 {
            -2.0
        } else {
            0.0
        };
        let exchanged = battery.apply(power * (1.0 + 0.1 * (t as f64).sin()), 1.0);
        revenue -= exchanged * price;
    }
    revenue + 40.0 * battery.soc * battery.capacity
}

// ---------------------------------------------------------------------------------------

#[test]
fn dijkstra_against_its_closed_form() {
    let w = [1.0, 4.0, 2.0, 6.0, 3.2, 1.5, 1.0, 2.5];
    check_modes!(
        bind(shortest_path {}, (Wrt, 0, 5)),
        |w: &[f64]| shortest_path(w, 0, 5),
        w
    );
    // The path 0–1–2–4–5 (1 + 2 + 1.5 + 2.5 = 7): the gradient is 1 on its edges.
    let (d, g) = gradient(bind(shortest_path {}, (Wrt, 0, 5)), &w);
    assert_eq!(d, 7.0);
    assert_eq!(g, [1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn heat_equation_with_swapped_buffers() {
    let init: Vec<f64> = (0..12)
        .map(|i| {
            let s = i as f64 / 11.0;
            (std::f64::consts::PI * s).sin() + 0.2 * s
        })
        .collect();
    let plain = |u: &[f64]| heat_profile(u, 0.7, 30);
    check_modes!(bind(heat_profile {}, (Wrt, 0.7, 30)), plain, init);
    // Linear in the initial data: the Hessian vanishes, and the diffusivity only rescales
    // time (dt ∝ 1/κ), so the result does not depend on κ.
    let (_, d) = derivative(bind(heat_profile {}, (&init[..], Wrt, 30)), 0.7);
    assert!(d.abs() < 1e-12, "∂/∂κ = {d}");
}

#[test]
fn welford_against_the_two_pass_variance() {
    let x = [1.5, -0.3, 2.2, 0.8, 1.1, -1.4];
    check_modes!(welford_variance {}, welford_variance, x);
    // ∂s²/∂xᵢ = 2 (xᵢ − x̄)/(n − 1).
    let (v, g) = gradient(welford_variance {}, &x);
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    assert_close(v, var, 1e-14, "variance");
    for i in 0..x.len() {
        assert_close(
            g[i],
            2.0 * (x[i] - mean) / (n - 1.0),
            1e-14,
            &format!("∂/∂x{i}"),
        );
    }
}

#[test]
fn cubic_spline_in_every_mode() {
    let y = [0.0, 0.8, 0.9, 0.1, -0.7, -1.0, -0.3];
    for t in [0.3, 2.2, 4.9] {
        let plain = |y: &[f64]| spline_at(y, t);
        check_modes!(bind(spline_at {}, (Wrt, t)), plain, y);
    }
    // The spline is linear in the data, and reproduces it at the knots: ∂s(xⱼ)/∂yᵢ = δᵢⱼ.
    let xj = 3f64.powf(1.2);
    let (v, g) = gradient(bind(spline_at {}, (Wrt, xj)), &y);
    assert_close(v, y[3], 1e-12, "s(x₃)");
    for i in 0..y.len() {
        let want = if i == 3 { 1.0 } else { 0.0 };
        assert!((g[i] - want).abs() < 1e-12, "∂s(x₃)/∂y{i} = {}", g[i]);
    }
}

#[test]
fn rng_iterator_against_its_closed_form() {
    let theta = 1.3;
    let (v, d) = derivative(bind(mc_laplace {}, (Wrt, 4000)), theta);
    assert_eq!(v.to_bits(), mc_laplace(theta, 4000).to_bits());
    // With the same numbers: d/dθ mean(e^{−θu}) = −mean(u e^{−θu}), written out.
    let rng = Xorshift {
        state: 0x9E3779B97F4A7C15,
    };
    let want = -rng.take(4000).map(|u| u * (-theta * u).exp()).sum::<f64>() / 4000.0;
    assert_close(d, want, 1e-14, "d/dθ");
    // And the estimate is near the exact (1 − e^{−θ})/θ.
    assert!((v - (1.0 - (-theta).exp()) / theta).abs() < 0.02);
}

#[test]
fn battery_modes_in_every_mode() {
    let prices = [20.0, 25.0, 45.0, 70.0, 80.0, 28.0, 65.0, 90.0, 22.0, 75.0];
    let plain = |x: &[f64]| arbitrage_revenue(x, &prices);
    check_modes!(
        bind(arbitrage_revenue {}, (Wrt, &prices[..])),
        plain,
        [7.0, 0.92]
    );
}
