//! Machine-learning code as an ML engineer writes it, annotated unmodified: a pre-norm
//! transformer block over `Vec<Vec<f64>>` tokens (layer norm built by a builder, linear
//! layers with an `Option` bias, a causal mask, softmax, GELU from `const`s), an LSTM cell
//! whose gates are split with `chunks`, an Adam optimiser as a struct with a builder and
//! `&mut self` steps (differentiated through the training run), a soft k-means loss, and a
//! Gaussian mixture's EM step over an enum of covariance kinds. Each is checked in every
//! mode against central differences (`check_modes!`, primals bit for bit) and against a
//! closed form where there is one.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::{assert_close, fd_gradient};
use fwdad::prelude::*;

// ---------------------------------------------------------------------------------------
// A transformer block.

const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;
const GELU_COEF: f64 = 0.044_715;

#[derive_frule]
fn gelu(x: f64) -> f64 {
    0.5 * x * (1.0 + (SQRT_2_OVER_PI * (x + GELU_COEF * x.powi(3))).tanh())
}

#[derive(Differentiable, Clone, Debug)]
pub struct LayerNorm {
    gamma: Vec<f64>,
    beta: Vec<f64>,
    eps: f64,
}

#[derive_frule]
impl LayerNorm {
    pub fn new(dim: usize) -> Self {
        LayerNorm {
            gamma: vec![1.0; dim],
            beta: vec![0.0; dim],
            eps: 1e-5,
        }
    }

    pub fn with_eps(mut self, eps: f64) -> Self {
        self.eps = eps;
        self
    }

    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        let inv_std = 1.0 / (var + self.eps).sqrt();
        x.iter()
            .zip(&self.gamma)
            .zip(&self.beta)
            .map(|((v, g), b)| (v - mean) * inv_std * g + b)
            .collect()
    }
}

#[derive(Differentiable, Clone, Debug)]
pub struct Linear {
    weight: Vec<Vec<f64>>,
    bias: Option<Vec<f64>>,
}

#[derive_frule]
impl Linear {
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        let mut y: Vec<f64> = self
            .weight
            .iter()
            .map(|row| row.iter().zip(x).map(|(w, xi)| w * xi).sum())
            .collect();
        if let Some(b) = &self.bias {
            for (yi, bi) in y.iter_mut().zip(b) {
                *yi += bi;
            }
        }
        y
    }
}

#[derive_frule]
pub fn softmax(scores: &[f64]) -> Vec<f64> {
    let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
    let total: f64 = exps.iter().sum();
    exps.iter().map(|e| e / total).collect()
}

#[derive(Differentiable, Clone, Debug)]
pub struct Block {
    ln1: LayerNorm,
    ln2: LayerNorm,
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    up: Linear,
    down: Linear,
    causal: bool,
}

#[derive_frule]
impl Block {
    pub fn forward(&self, tokens: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let normed: Vec<Vec<f64>> = tokens.iter().map(|t| self.ln1.forward(t)).collect();
        let queries: Vec<Vec<f64>> = normed.iter().map(|t| self.q.forward(t)).collect();
        let keys: Vec<Vec<f64>> = normed.iter().map(|t| self.k.forward(t)).collect();
        let values: Vec<Vec<f64>> = normed.iter().map(|t| self.v.forward(t)).collect();
        let scale = 1.0 / (queries[0].len() as f64).sqrt();

        let mut out = Vec::with_capacity(tokens.len());
        for (i, qi) in queries.iter().enumerate() {
            let mut scores = vec![f64::NEG_INFINITY; keys.len()];
            for (j, kj) in keys.iter().enumerate() {
                if self.causal && j > i {
                    continue;
                }
                scores[j] = qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f64>() * scale;
            }
            let attn = softmax(&scores);
            let mut ctx = vec![0.0; values[0].len()];
            for (a, vj) in attn.iter().zip(&values) {
                for (c, x) in ctx.iter_mut().zip(vj) {
                    *c += a * x;
                }
            }
            let h: Vec<f64> = tokens[i]
                .iter()
                .zip(self.o.forward(&ctx))
                .map(|(x, y)| x + y)
                .collect();
            let hidden: Vec<f64> = self
                .up
                .forward(&self.ln2.forward(&h))
                .into_iter()
                .map(gelu)
                .collect();
            let ff = self.down.forward(&hidden);
            out.push(h.iter().zip(&ff).map(|(a, b)| a + b).collect::<Vec<f64>>());
        }
        out
    }
}

/// Mean squared output of the block on tokens given as one flat embedding buffer.
#[derive_frule]
pub fn block_loss(block: &Block, embeddings: &[f64], dim: usize) -> f64 {
    let tokens: Vec<Vec<f64>> = embeddings.chunks(dim).map(|c| c.to_vec()).collect();
    let out = block.forward(&tokens);
    let n = (out.len() * dim) as f64;
    out.iter().flatten().map(|y| y * y).sum::<f64>() / n
}

fn mat(rows: usize, cols: usize, seed: usize) -> Vec<Vec<f64>> {
    (0..rows)
        .map(|i| {
            (0..cols)
                .map(|j| (((i * 7 + j * 3 + seed * 5) % 11) as f64 - 5.0) * 0.08)
                .collect()
        })
        .collect()
}

fn block() -> Block {
    let d = 3;
    Block {
        ln1: LayerNorm::new(d),
        ln2: LayerNorm::new(d).with_eps(1e-6),
        q: Linear {
            weight: mat(d, d, 1),
            bias: None,
        },
        k: Linear {
            weight: mat(d, d, 2),
            bias: Some(vec![0.1, -0.1, 0.05]),
        },
        v: Linear {
            weight: mat(d, d, 3),
            bias: None,
        },
        o: Linear {
            weight: mat(d, d, 4),
            bias: Some(vec![0.0, 0.02, -0.03]),
        },
        up: Linear {
            weight: mat(4, d, 5),
            bias: Some(vec![0.1; 4]),
        },
        down: Linear {
            weight: mat(d, 4, 6),
            bias: None,
        },
        causal: true,
    }
}

#[test]
fn transformer_block_in_every_mode() {
    let b = block();
    let x = [0.3, -0.7, 1.1, 0.5, 0.2, -0.4, -1.0, 0.8, 0.6];
    check_modes!(
        bind(block_loss {}, (&b, Wrt, 3)),
        |x: &[f64]| block_loss(&b, x, 3),
        x
    );
}

#[test]
fn layer_norm_is_shift_invariant() {
    // A shift of every input by the same amount leaves the output unchanged: the
    // Jacobian's rows sum to zero.
    #[derive_frule]
    fn ln_first(x: &[f64]) -> f64 {
        LayerNorm::new(4).forward(x)[0]
    }
    let x = [0.3, -1.2, 2.0, 0.7];
    let (v, g) = gradient(ln_first {}, &x);
    assert_eq!(v.to_bits(), LayerNorm::new(4).forward(&x)[0].to_bits());
    assert!(g.iter().sum::<f64>().abs() < 1e-12);
    let fd = fd_gradient(&|x| LayerNorm::new(4).forward(x)[0], &x);
    for k in 0..4 {
        assert_close(g[k], fd[k], 1e-7, "d ln / dx");
    }
}

// ---------------------------------------------------------------------------------------
// An LSTM cell.

#[derive_frule]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[derive(Differentiable, Clone, Debug)]
pub struct LstmCell {
    w_ih: Vec<Vec<f64>>,
    w_hh: Vec<Vec<f64>>,
    bias: Vec<f64>,
    hidden: usize,
}

#[derive_frule]
impl LstmCell {
    /// One step: gates in PyTorch's order (input, forget, cell, output).
    pub fn step(&self, x: &[f64], (h, c): (&[f64], &[f64])) -> (Vec<f64>, Vec<f64>) {
        let gates: Vec<f64> = (0..4 * self.hidden)
            .map(|r| {
                let a: f64 = self.w_ih[r].iter().zip(x).map(|(w, v)| w * v).sum();
                let b: f64 = self.w_hh[r].iter().zip(h).map(|(w, v)| w * v).sum();
                a + b + self.bias[r]
            })
            .collect();
        // The four gates by range (`let mut chunks = gates.chunks(h);` read by
        // `chunks.next()`, a wall when this was written, works since: tests/reach8_walls.rs).
        let h = self.hidden;
        let i: Vec<f64> = gates[..h].iter().map(|&g| sigmoid(g)).collect();
        let f: Vec<f64> = gates[h..2 * h].iter().map(|&g| sigmoid(g)).collect();
        let g: Vec<f64> = gates[2 * h..3 * h].iter().map(|g| g.tanh()).collect();
        let o: Vec<f64> = gates[3 * h..].iter().map(|&g| sigmoid(g)).collect();
        let c_next: Vec<f64> = (0..self.hidden)
            .map(|k| f[k] * c[k] + i[k] * g[k])
            .collect();
        let h_next: Vec<f64> = c_next.iter().zip(&o).map(|(c, o)| o * c.tanh()).collect();
        (h_next, c_next)
    }
}

/// The last hidden state's sum after running the cell over a sequence.
#[derive_frule]
pub fn lstm_readout(cell: &LstmCell, seq: &[f64], input: usize) -> f64 {
    let mut h = vec![0.0; cell.hidden];
    let mut c = vec![0.0; cell.hidden];
    for x in seq.chunks_exact(input) {
        let (h2, c2) = cell.step(x, (&h, &c));
        h = h2;
        c = c2;
    }
    h.iter().sum()
}

fn lstm() -> LstmCell {
    let hidden = 2;
    LstmCell {
        w_ih: mat(4 * hidden, 2, 7),
        w_hh: mat(4 * hidden, hidden, 8),
        bias: (0..4 * hidden).map(|k| 0.05 * k as f64 - 0.1).collect(),
        hidden,
    }
}

#[test]
fn lstm_cell_in_every_mode() {
    let cell = lstm();
    let seq = [0.5, -0.3, 0.8, 0.1, -0.6, 0.9];
    check_modes!(
        bind(lstm_readout {}, (&cell, Wrt, 2)),
        |s: &[f64]| lstm_readout(&cell, s, 2),
        seq
    );
}

// ---------------------------------------------------------------------------------------
// Adam with a builder, updated in place.

#[derive(Differentiable, Clone, Debug)]
pub struct Adam {
    lr: f64,
    beta1: f64,
    beta2: f64,
    eps: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

#[derive_frule]
impl Adam {
    pub fn new(n_params: usize) -> Self {
        Self {
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            m: vec![0.0; n_params],
            v: vec![0.0; n_params],
            t: 0,
        }
    }

    pub fn lr(mut self, lr: f64) -> Self {
        self.lr = lr;
        self
    }

    pub fn betas(self, beta1: f64, beta2: f64) -> Self {
        Self {
            beta1,
            beta2,
            ..self
        }
    }

    pub fn step(&mut self, params: &mut [f64], grads: &[f64]) {
        self.t += 1;
        let bc1 = 1.0 - self.beta1.powi(self.t);
        let bc2 = 1.0 - self.beta2.powi(self.t);
        for (i, (p, g)) in params.iter_mut().zip(grads).enumerate() {
            self.m[i] = self.beta1 * self.m[i] + (1.0 - self.beta1) * g;
            self.v[i] = self.beta2 * self.v[i] + (1.0 - self.beta2) * g * g;
            let m_hat = self.m[i] / bc1;
            let v_hat = self.v[i] / bc2;
            *p -= self.lr * m_hat / (v_hat.sqrt() + self.eps);
        }
    }
}

/// Trains a rotated quadratic bowl with Adam; the loss after `steps` as a function of the
/// starting point and the learning rate.
#[derive_frule]
pub fn adam_train(init: &[f64], lr: f64, steps: usize) -> f64 {
    let loss = |p: &[f64]| 2.0 * p[0] * p[0] + p[0] * p[1] + 0.5 * p[1] * p[1];
    let grad = |p: &[f64]| vec![4.0 * p[0] + p[1], p[0] + p[1]];
    let mut params = init.to_vec();
    let mut opt = Adam::new(params.len()).lr(lr).betas(0.8, 0.99);
    for _ in 0..steps {
        let g = grad(&params);
        opt.step(&mut params, &g);
    }
    loss(&params)
}

#[test]
fn adam_training_run_in_every_mode() {
    let x = [1.2, -0.7, 0.05];
    check_modes!(
        bind(adam_train_of {}, (Wrt,)),
        |x: &[f64]| adam_train(&x[..2], x[2], 12),
        x
    );
}

#[derive_frule]
fn adam_train_of(x: &[f64]) -> f64 {
    adam_train(&x[..2], x[2], 12)
}

// ---------------------------------------------------------------------------------------
// Soft k-means.

/// The soft-min (temperature `tau`) of each point's squared distance to the centroids,
/// summed; as `tau → 0` the k-means inertia.
#[derive_frule]
pub fn soft_kmeans_loss(centroids: &[[f64; 2]], points: &[[f64; 2]], tau: f64) -> f64 {
    points
        .iter()
        .map(|p| {
            let d2: Vec<f64> = centroids
                .iter()
                .map(|c| (p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2))
                .collect();
            let m = d2.iter().copied().fold(f64::INFINITY, f64::min);
            m - tau * d2.iter().map(|d| (-(d - m) / tau).exp()).sum::<f64>().ln()
        })
        .sum()
}

/// The hard inertia, each point to its nearest centroid.
#[derive_frule]
pub fn kmeans_inertia(centroids: &[[f64; 2]], points: &[[f64; 2]]) -> f64 {
    let mut total = 0.0;
    for p in points {
        let (_, best) = centroids
            .iter()
            .enumerate()
            .map(|(k, c)| (k, (p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2)))
            .min_by(|a, b| a.1.partial_cmp(&b.1).unwrap())
            .unwrap();
        total += best;
    }
    total
}

#[derive_frule]
fn kmeans_of(c: &[f64]) -> f64 {
    let centroids = [[c[0], c[1]], [c[2], c[3]]];
    let points = [[0.0, 0.1], [0.3, -0.2], [2.0, 2.1], [2.4, 1.7], [1.9, 2.5]];
    soft_kmeans_loss(&centroids, &points, 0.3) + kmeans_inertia(&centroids, &points)
}

fn kmeans_of_plain(c: &[f64]) -> f64 {
    kmeans_of(c)
}

#[test]
fn kmeans_losses_in_every_mode() {
    let c = [0.2, 0.1, 1.8, 2.0];
    check_modes!(bind(kmeans_of {}, (Wrt,)), kmeans_of_plain, c);
    // The hard inertia's gradient is 2 (c - mean of its cluster) × cluster size.
    #[derive_frule]
    fn inertia_of(c: &[f64]) -> f64 {
        let points = [[0.0, 0.1], [0.3, -0.2], [2.0, 2.1], [2.4, 1.7], [1.9, 2.5]];
        kmeans_inertia(&[[c[0], c[1]], [c[2], c[3]]], &points)
    }
    let (_, g) = gradient(inertia_of {}, &c);
    assert_close(g[0], 2.0 * (2.0 * c[0] - 0.3), 1e-12, "cluster 0 x");
    assert_close(g[3], 2.0 * (3.0 * c[3] - 6.3), 1e-12, "cluster 1 y");
}

// ---------------------------------------------------------------------------------------
// A Gaussian mixture's EM step, components with an enum of covariance kinds.

#[derive(Differentiable, Clone, Debug)]
pub enum Spread {
    Fixed(f64),
    Learned { var: f64, floor: f64 },
}

#[derive(Differentiable, Clone, Debug)]
pub struct Component {
    weight: f64,
    mean: f64,
    spread: Spread,
}

#[derive_frule]
impl Component {
    fn variance(&self) -> f64 {
        // Matched by reference (`match self.spread { Spread::Fixed(v) => v, .. }`, by value
        // through `&self`, a wall when this was written, works since:
        // tests/reach8_walls.rs).
        match &self.spread {
            Spread::Fixed(v) => *v,
            Spread::Learned { var, floor } => var.max(*floor),
        }
    }

    fn log_pdf(&self, x: f64) -> f64 {
        let var = self.variance();
        -0.5 * ((x - self.mean).powi(2) / var + (2.0 * std::f64::consts::PI * var).ln())
    }
}

#[derive_frule]
fn log_sum_exp(xs: &[f64]) -> f64 {
    let m = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if m.is_infinite() {
        return m;
    }
    m + xs.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// One EM step, then the log-likelihood of the data under the updated mixture.
#[derive_frule]
pub fn em_step_loglik(comps: &[Component], data: &[f64]) -> f64 {
    let resp: Vec<Vec<f64>> = data
        .iter()
        .map(|&x| {
            let logs: Vec<f64> = comps.iter().map(|c| c.weight.ln() + c.log_pdf(x)).collect();
            let norm = log_sum_exp(&logs);
            logs.iter().map(|l| (l - norm).exp()).collect()
        })
        .collect();
    let n = data.len() as f64;
    let updated: Vec<Component> = comps
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let nk: f64 = resp.iter().map(|r| r[k]).sum();
            let mean = resp.iter().zip(data).map(|(r, x)| r[k] * x).sum::<f64>() / nk;
            let spread = match &c.spread {
                Spread::Fixed(v) => Spread::Fixed(*v),
                Spread::Learned { floor, .. } => Spread::Learned {
                    var: resp
                        .iter()
                        .zip(data)
                        .map(|(r, x)| r[k] * (x - mean).powi(2))
                        .sum::<f64>()
                        / nk,
                    floor: *floor,
                },
            };
            Component {
                weight: nk / n,
                mean,
                spread,
            }
        })
        .collect();
    data.iter()
        .map(|&x| {
            let logs: Vec<f64> = updated
                .iter()
                .map(|c| c.weight.ln() + c.log_pdf(x))
                .collect();
            log_sum_exp(&logs)
        })
        .sum()
}

fn mixture() -> Vec<Component> {
    vec![
        Component {
            weight: 0.4,
            mean: -1.0,
            spread: Spread::Fixed(0.5),
        },
        Component {
            weight: 0.6,
            mean: 1.5,
            spread: Spread::Learned {
                var: 0.8,
                floor: 1e-3,
            },
        },
    ]
}

#[test]
fn gmm_em_step_in_every_mode() {
    let comps = mixture();
    let data = [-1.3, -0.6, 0.2, 1.1, 1.7, 2.4];
    check_modes!(
        bind(em_step_loglik {}, (&comps[..], Wrt)),
        |d: &[f64]| em_step_loglik(&comps, d),
        data
    );
}
