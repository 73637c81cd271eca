//! Machine-learning code as ML engineers write it, annotated unmodified: an MLP whose
//! layers are structs of `Vec<Vec<f64>>` weights, activations as an enum with data,
//! softmax, log-sum-exp, cross-entropy, layer norm, scaled dot-product attention,
//! SGD with momentum and Adam as structs updated through `&mut self` (differentiated
//! through the unrolled training run: hypergradients), a k-means step and a Gaussian
//! mixture's EM step. Each is checked against central finite differences of the plain
//! function in every mode (`check_modes!`), or against a closed form, primals bit for bit.

mod common;

use common::modes::{assert_close, fd_gradient};
use fwdad::prelude::*;

// ---------------------------------------------------------------- activations, layers

/// Activations as a configuration enum, some with hyperparameters.
#[derive(Clone, Copy, Debug, Differentiable)]
pub enum Activation {
    Identity,
    Relu,
    LeakyRelu(f64),
    Elu { alpha: f64 },
    Tanh,
    Softplus { beta: f64 },
    Gelu,
}

#[derive_frule]
impl Activation {
    pub fn apply(&self, x: f64) -> f64 {
        match *self {
            Activation::Identity => x,
            Activation::Relu => x.max(0.0),
            Activation::LeakyRelu(slope) => {
                if x > 0.0 {
                    x
                } else {
                    slope * x
                }
            }
            Activation::Elu { alpha } => {
                if x > 0.0 {
                    x
                } else {
                    alpha * (x.exp() - 1.0)
                }
            }
            Activation::Tanh => x.tanh(),
            Activation::Softplus { beta } => (1.0 + (beta * x).exp()).ln() / beta,
            Activation::Gelu => {
                let c = (2.0 / std::f64::consts::PI).sqrt();
                0.5 * x * (1.0 + (c * (x + 0.044715 * x.powi(3))).tanh())
            }
        }
    }
}

/// A dense layer: `w` is `out × in`, row by row.
#[derive(Clone, Debug, Differentiable)]
pub struct Layer {
    pub w: Vec<Vec<f64>>,
    pub b: Vec<f64>,
    pub act: Activation,
}

#[derive_frule]
impl Layer {
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.b.len());
        for (row, bias) in self.w.iter().zip(&self.b) {
            let mut z = *bias;
            for (wij, xj) in row.iter().zip(x) {
                z += wij * xj;
            }
            out.push(self.act.apply(z));
        }
        out
    }
}

#[derive_frule]
pub fn mlp(layers: &[Layer], x: &[f64]) -> Vec<f64> {
    let mut h = x.to_vec();
    for layer in layers {
        h = layer.forward(&h);
    }
    h
}

// ---------------------------------------------------------------- losses and norms

#[derive_frule]
pub fn log_sum_exp(z: &[f64]) -> f64 {
    let m = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    m + z.iter().map(|&v| (v - m).exp()).sum::<f64>().ln()
}

#[derive_frule]
pub fn softmax(z: &[f64]) -> Vec<f64> {
    let m = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = z.iter().map(|&v| (v - m).exp()).collect();
    let s: f64 = e.iter().sum();
    e.iter().map(|&v| v / s).collect()
}

/// Cross-entropy of logits against a class label.
#[derive_frule]
pub fn cross_entropy(logits: &[f64], label: usize) -> f64 {
    log_sum_exp(logits) - logits[label]
}

/// The classification loss of an MLP on a batch (inputs row-major, `dim` per sample).
#[derive_frule]
pub fn mlp_loss(layers: &[Layer], xs: &[f64], labels: &[usize], dim: usize) -> f64 {
    let mut loss = 0.0;
    for (x, &y) in xs.chunks(dim).zip(labels) {
        let logits = mlp(layers, x);
        loss += cross_entropy(&logits, y);
    }
    loss / labels.len() as f64
}

#[derive_frule]
pub fn layer_norm(x: &[f64], gamma: &[f64], beta: &[f64], eps: f64) -> Vec<f64> {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let inv = 1.0 / (var + eps).sqrt();
    x.iter()
        .zip(gamma.iter().zip(beta))
        .map(|(v, (g, b))| (v - mean) * inv * g + b)
        .collect()
}

/// Scaled dot-product attention of one head: `softmax(q kᵀ / √d) v`, row by row.
#[derive_frule]
pub fn attention(q: &[Vec<f64>], k: &[Vec<f64>], v: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let d = q[0].len() as f64;
    let scale = 1.0 / d.sqrt();
    let mut out = Vec::new();
    for qi in q {
        let scores: Vec<f64> = k
            .iter()
            .map(|kj| qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f64>() * scale)
            .collect();
        let weights = softmax(&scores);
        let mut row = vec![0.0; v[0].len()];
        for (w, vj) in weights.iter().zip(v) {
            for (r, x) in row.iter_mut().zip(vj) {
                *r += w * x;
            }
        }
        out.push(row);
    }
    out
}

/// Self-attention over `n` tokens of width `d` (row-major `x`) with projections
/// `wq`, `wk`, `wv` (`d × d`), followed by a residual and layer norm; the loss is the
/// squared norm of the output.
#[derive_frule]
pub fn self_attention_block(x: &[f64], wq: &[f64], wk: &[f64], wv: &[f64], d: usize) -> f64 {
    let tokens: Vec<Vec<f64>> = x.chunks(d).map(|t| t.to_vec()).collect();
    let project = |w: &[f64]| -> Vec<Vec<f64>> {
        tokens
            .iter()
            .map(|t| {
                (0..d)
                    .map(|i| (0..d).map(|j| w[i * d + j] * t[j]).sum::<f64>())
                    .collect()
            })
            .collect()
    };
    let q = project(wq);
    let k = project(wk);
    let v = project(wv);
    let att = attention(&q, &k, &v);
    let ones = vec![1.0; d];
    let zeros = vec![0.0; d];
    let mut loss = 0.0;
    for (t, a) in tokens.iter().zip(&att) {
        let h: Vec<f64> = t.iter().zip(a).map(|(x, y)| x + y).collect();
        let y = layer_norm(&h, &ones, &zeros, 1e-5);
        loss += y.iter().map(|v| v * v).sum::<f64>() * (1.0 + t[0]);
    }
    loss
}

// ---------------------------------------------------------------- optimisers

#[derive(Clone, Debug, Differentiable)]
pub struct Sgd {
    pub lr: f64,
    pub momentum: f64,
    pub velocity: Vec<f64>,
}

#[derive_frule]
impl Sgd {
    pub fn new(lr: f64, momentum: f64, n: usize) -> Self {
        Sgd {
            lr,
            momentum,
            velocity: vec![0.0; n],
        }
    }

    pub fn step(&mut self, params: &mut [f64], grads: &[f64]) {
        for ((p, g), v) in params.iter_mut().zip(grads).zip(self.velocity.iter_mut()) {
            *v = self.momentum * *v + g;
            *p -= self.lr * *v;
        }
    }
}

#[derive(Clone, Debug, Differentiable)]
pub struct Adam {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
    pub m: Vec<f64>,
    pub v: Vec<f64>,
    pub t: i32,
}

#[derive_frule]
impl Adam {
    pub fn new(lr: f64, n: usize) -> Self {
        Adam {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    pub fn step(&mut self, params: &mut [f64], grads: &[f64]) {
        self.t += 1;
        let bc1 = 1.0 - self.beta1.powi(self.t);
        let bc2 = 1.0 - self.beta2.powi(self.t);
        for i in 0..params.len() {
            self.m[i] = self.beta1 * self.m[i] + (1.0 - self.beta1) * grads[i];
            self.v[i] = self.beta2 * self.v[i] + (1.0 - self.beta2) * grads[i] * grads[i];
            let m_hat = self.m[i] / bc1;
            let v_hat = self.v[i] / bc2;
            params[i] -= self.lr * m_hat / (v_hat.sqrt() + self.eps);
        }
    }
}

/// The Rosenbrock valley and its gradient, as a training loop writes them.
#[derive_frule]
pub fn rosenbrock(p: &[f64]) -> f64 {
    (1.0 - p[0]).powi(2) + 100.0 * (p[1] - p[0] * p[0]).powi(2)
}

#[derive_frule]
pub fn rosenbrock_grad(p: &[f64]) -> Vec<f64> {
    vec![
        -2.0 * (1.0 - p[0]) - 400.0 * p[0] * (p[1] - p[0] * p[0]),
        200.0 * (p[1] - p[0] * p[0]),
    ]
}

/// The loss after `steps` of SGD with momentum from `theta0`, as a function of the
/// starting point and the learning rate (`hyper = [lr, momentum]`).
#[derive_frule]
pub fn sgd_run(theta0: &[f64], hyper: &[f64], steps: usize) -> f64 {
    let mut theta = theta0.to_vec();
    let mut opt = Sgd::new(hyper[0], hyper[1], theta.len());
    for _ in 0..steps {
        let g = rosenbrock_grad(&theta);
        opt.step(&mut theta, &g);
    }
    rosenbrock(&theta)
}

#[derive_frule]
pub fn adam_run(theta0: &[f64], lr: f64, steps: usize) -> f64 {
    let mut theta = theta0.to_vec();
    let mut opt = Adam::new(lr, theta.len());
    for _ in 0..steps {
        let g = rosenbrock_grad(&theta);
        opt.step(&mut theta, &g);
    }
    rosenbrock(&theta)
}

// ---------------------------------------------------------------- clustering

/// One Lloyd step: assign each 2-D point to its nearest centroid, move each centroid to
/// the mean of its points (an empty cluster keeps its centroid).
#[derive_frule]
pub fn kmeans_step(points: &[[f64; 2]], centroids: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let k = centroids.len();
    let mut sums = vec![[0.0, 0.0]; k];
    let mut counts = vec![0usize; k];
    for p in points {
        let mut best = 0;
        let mut best_d = f64::INFINITY;
        for (j, c) in centroids.iter().enumerate() {
            let d = (p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2);
            if d < best_d {
                best_d = d;
                best = j;
            }
        }
        sums[best][0] += p[0];
        sums[best][1] += p[1];
        counts[best] += 1;
    }
    let mut out = Vec::with_capacity(k);
    for j in 0..k {
        if counts[j] == 0 {
            out.push(centroids[j]);
        } else {
            let n = counts[j] as f64;
            out.push([sums[j][0] / n, sums[j][1] / n]);
        }
    }
    out
}

/// The k-means inertia after one step, of points given flat (`x0, y0, x1, y1, ..`).
#[derive_frule]
pub fn kmeans_inertia(xy: &[f64], centroids: &[[f64; 2]]) -> f64 {
    let points: Vec<[f64; 2]> = xy.chunks(2).map(|c| [c[0], c[1]]).collect();
    let new_c = kmeans_step(&points, centroids);
    points
        .iter()
        .map(|p| {
            new_c
                .iter()
                .map(|c| (p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2))
                .fold(f64::INFINITY, f64::min)
        })
        .sum()
}

/// A 1-D Gaussian mixture.
#[derive(Clone, Debug, Differentiable)]
pub struct Gmm {
    pub weights: Vec<f64>,
    pub means: Vec<f64>,
    pub vars: Vec<f64>,
}

#[derive_frule]
impl Gmm {
    fn log_component(&self, j: usize, x: f64) -> f64 {
        let d = x - self.means[j];
        self.weights[j].ln()
            - 0.5 * (2.0 * std::f64::consts::PI * self.vars[j]).ln()
            - 0.5 * d * d / self.vars[j]
    }

    pub fn log_likelihood(&self, xs: &[f64]) -> f64 {
        let mut total = 0.0;
        for &x in xs {
            let logs: Vec<f64> = (0..self.weights.len())
                .map(|j| self.log_component(j, x))
                .collect();
            total += log_sum_exp(&logs);
        }
        total
    }

    /// One EM step: responsibilities, then the weighted moments.
    pub fn em_step(&self, xs: &[f64]) -> Gmm {
        let k = self.weights.len();
        let n = xs.len();
        let mut resp = vec![vec![0.0; k]; n];
        for (i, &x) in xs.iter().enumerate() {
            let logs: Vec<f64> = (0..k).map(|j| self.log_component(j, x)).collect();
            let norm = log_sum_exp(&logs);
            for j in 0..k {
                resp[i][j] = (logs[j] - norm).exp();
            }
        }
        let mut weights = vec![0.0; k];
        let mut means = vec![0.0; k];
        let mut vars = vec![0.0; k];
        for j in 0..k {
            let nk: f64 = resp.iter().map(|r| r[j]).sum();
            let mu = xs.iter().zip(&resp).map(|(x, r)| r[j] * x).sum::<f64>() / nk;
            let var = xs
                .iter()
                .zip(&resp)
                .map(|(x, r)| r[j] * (x - mu).powi(2))
                .sum::<f64>()
                / nk;
            weights[j] = nk / n as f64;
            means[j] = mu;
            vars[j] = var;
        }
        Gmm {
            weights,
            means,
            vars,
        }
    }
}

/// The log-likelihood after one EM step, as a function of the data.
#[derive_frule]
pub fn gmm_after_em(xs: &[f64], init: &Gmm) -> f64 {
    let next = init.em_step(xs);
    next.log_likelihood(xs)
}

// ================================================================ tests

fn net() -> Vec<Layer> {
    let w1 = vec![
        vec![0.4, -0.3, 0.2],
        vec![-0.5, 0.1, 0.7],
        vec![0.3, 0.8, -0.6],
        vec![0.2, -0.4, -0.1],
    ];
    let w2 = vec![
        vec![0.5, -0.2, 0.3, 0.1],
        vec![-0.3, 0.6, -0.1, 0.4],
        vec![0.2, 0.1, 0.5, -0.7],
    ];
    vec![
        Layer {
            w: w1,
            b: vec![0.1, -0.2, 0.05, 0.3],
            act: Activation::Elu { alpha: 0.8 },
        },
        Layer {
            w: w2,
            b: vec![0.0, 0.1, -0.1],
            act: Activation::Softplus { beta: 2.0 },
        },
    ]
}

#[test]
fn activations_match_finite_differences_on_each_side() {
    let acts = [
        Activation::Identity,
        Activation::Relu,
        Activation::LeakyRelu(0.1),
        Activation::Elu { alpha: 0.8 },
        Activation::Tanh,
        Activation::Softplus { beta: 2.0 },
        Activation::Gelu,
    ];
    for act in acts {
        for x in [-1.3, -0.2, 0.4, 1.7] {
            let d =
                Activation::apply_frule(Dual::new(&act, &act.zero_tangent()), Dual::new(x, 1.0));
            assert_eq!(d.primal.to_bits(), act.apply(x).to_bits());
            let h = 1e-6;
            let fd = (act.apply(x + h) - act.apply(x - h)) / (2.0 * h);
            assert_close(d.tangent, fd, 1e-7, &format!("{act:?} at {x}"));
        }
    }
}

#[test]
fn mlp_loss_in_every_mode_against_finite_differences() {
    let layers = net();
    let labels = [2usize, 0, 1];
    let xs = [0.3, -0.8, 1.1, 0.5, 0.2, -0.4, -1.0, 0.7, 0.9];
    check_modes!(
        bind(mlp_loss {}, (&layers[..], Wrt, &labels[..], 3)),
        |x: &[f64]| mlp_loss(&layers, x, &labels, 3),
        xs
    );
}

#[test]
fn mlp_jacobian_against_finite_differences() {
    let layers = net();
    let x = [0.3, -0.8, 1.1];
    let (y, jac) = fwdad::jacobian(bind(mlp {}, (&layers[..], Wrt)), &x);
    assert_eq!(y, mlp(&layers, &x));
    for i in 0..3 {
        let g = fd_gradient(&|x| mlp(&layers, x)[i], &x);
        for j in 0..3 {
            assert_close(jac[(i, j)], g[j], 1e-7, &format!("J[{i},{j}]"));
        }
    }
}

#[test]
fn mlp_loss_with_respect_to_the_weights_in_one_direction() {
    // The tangent of the layers is a direction in weight space: compare with the
    // difference quotient along it.
    let layers = net();
    let labels = [2usize, 0, 1];
    let xs = [0.3, -0.8, 1.1, 0.5, 0.2, -0.4, -1.0, 0.7, 0.9];
    let dir: Vec<LayerTangent> = layers
        .iter()
        .enumerate()
        .map(|(l, layer)| LayerTangent {
            w: layer
                .w
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    (0..r.len())
                        .map(|j| ((l + 2 * i + 3 * j) % 5) as f64 * 0.1 - 0.2)
                        .collect()
                })
                .collect(),
            b: (0..layer.b.len()).map(|i| 0.1 * i as f64).collect(),
            act: layer.act.zero_tangent(),
        })
        .collect();
    let shifted = |s: f64| -> Vec<Layer> {
        layers
            .iter()
            .zip(&dir)
            .map(|(layer, d)| Layer {
                w: layer
                    .w
                    .iter()
                    .zip(&d.w)
                    .map(|(r, dr)| r.iter().zip(dr).map(|(a, b)| a + s * b).collect())
                    .collect(),
                b: layer.b.iter().zip(&d.b).map(|(a, b)| a + s * b).collect(),
                act: layer.act,
            })
            .collect()
    };
    let out = mlp_loss_frule(
        Dual::new(&layers[..], &dir[..]),
        Dual::constant(&xs[..]),
        Dual::constant(&labels[..]),
        Dual::constant(3),
    );
    assert_eq!(
        out.primal.to_bits(),
        mlp_loss(&layers, &xs, &labels, 3).to_bits()
    );
    let h = 1e-6;
    let fd = (mlp_loss(&shifted(h), &xs, &labels, 3) - mlp_loss(&shifted(-h), &xs, &labels, 3))
        / (2.0 * h);
    assert_close(
        out.tangent,
        fd,
        1e-7,
        "directional derivative in weight space",
    );
}

#[test]
fn softmax_jacobian_is_diag_minus_outer() {
    let z = [0.3, -1.2, 2.0, 0.7];
    let (p, jac) = fwdad::jacobian(softmax {}, &z);
    assert_eq!(p, softmax(&z));
    for i in 0..4 {
        for j in 0..4 {
            let want = p[i] * (f64::from(u8::from(i == j)) - p[j]);
            assert_close(jac[(i, j)], want, 1e-14, &format!("dp{i}/dz{j}"));
        }
    }
    // ∇ log-sum-exp = softmax, and its Hessian is the same Jacobian.
    let (_, g, h) = fwdad::hessian(log_sum_exp {}, &z);
    for i in 0..4 {
        assert_close(g[i], p[i], 1e-15, "∇lse");
        for j in 0..4 {
            assert_close(h[(i, j)], jac[(i, j)], 1e-14, "∇²lse");
        }
    }
}

#[test]
fn cross_entropy_gradient_is_softmax_minus_onehot() {
    let z = [0.3, -1.2, 2.0, 0.7];
    check_modes!(
        bind(cross_entropy {}, (Wrt, 1)),
        |z: &[f64]| cross_entropy(z, 1),
        z
    );
    let (_, g) = fwdad::gradient(bind(cross_entropy {}, (Wrt, 1)), &z);
    let p = softmax(&z);
    for i in 0..4 {
        assert_close(g[i], p[i] - f64::from(u8::from(i == 1)), 1e-15, "∂CE");
    }
}

#[test]
fn layer_norm_against_finite_differences() {
    let x = [0.3, -1.2, 2.0, 0.7, 0.1];
    let gamma = [1.0, 0.5, 2.0, -1.0, 0.3];
    let beta = [0.0, 0.1, -0.2, 0.3, 0.0];
    let (y, jac) = fwdad::jacobian(bind(layer_norm {}, (Wrt, &gamma[..], &beta[..], 1e-5)), &x);
    assert_eq!(y, layer_norm(&x, &gamma, &beta, 1e-5));
    for i in 0..5 {
        let g = fd_gradient(&|x| layer_norm(x, &gamma, &beta, 1e-5)[i], &x);
        for j in 0..5 {
            assert_close(jac[(i, j)], g[j], 1e-6, &format!("J[{i},{j}]"));
        }
        // The normalised vector does not move when x moves along (1, .., 1).
        let along: f64 = (0..5).map(|j| jac[(i, j)]).sum();
        assert!(along.abs() < 1e-12, "row {i} along the mean: {along}");
    }
}

#[test]
fn self_attention_in_every_mode() {
    let d = 3;
    let x = [
        0.3, -0.8, 1.1, 0.5, 0.2, -0.4, -1.0, 0.7, 0.9, 0.1, 0.0, 0.6,
    ];
    let wq = [0.4, -0.3, 0.2, -0.5, 0.1, 0.7, 0.3, 0.8, -0.6];
    let wk = [0.2, 0.5, -0.1, 0.3, -0.4, 0.6, -0.2, 0.1, 0.9];
    let wv = [1.0, 0.2, 0.0, -0.3, 0.7, 0.4, 0.5, -0.6, 0.8];
    check_modes!(
        bind(self_attention_block {}, (Wrt, &wq[..], &wk[..], &wv[..], d)),
        |x: &[f64]| self_attention_block(x, &wq, &wk, &wv, d),
        x
    );
    check_modes!(
        bind(self_attention_block {}, (&x[..], Wrt, &wk[..], &wv[..], d)),
        |w: &[f64]| self_attention_block(&x, w, &wk, &wv, d),
        wq
    );
}

#[test]
fn sgd_hypergradients_against_finite_differences() {
    let theta0 = [-0.5, 0.8];
    let hyper = [1e-3, 0.9];
    // The loss is steep in the learning rate (about 3·10³ per unit at 1e-3): differences
    // with steps scaled to each hyperparameter.
    let (v, g) = fwdad::gradient(bind(sgd_run {}, (&theta0[..], Wrt, 20)), &hyper);
    assert_eq!(v.to_bits(), sgd_run(&theta0, &hyper, 20).to_bits());
    for k in 0..2 {
        let h = 1e-6 * hyper[k];
        let (mut p, mut m) = (hyper, hyper);
        p[k] += h;
        m[k] -= h;
        let fd = (sgd_run(&theta0, &p, 20) - sgd_run(&theta0, &m, 20)) / (2.0 * h);
        assert_close(g[k], fd, 1e-6, &format!("d loss / d hyper[{k}]"));
    }
    check_modes!(
        bind(sgd_run {}, (Wrt, &hyper[..], 20)),
        |t: &[f64]| sgd_run(t, &hyper, 20),
        theta0
    );
}

#[test]
fn adam_hypergradient_against_finite_differences() {
    let theta0 = [-0.5, 0.8];
    check_modes!(
        bind(adam_run {}, (Wrt, 0.01, 15)),
        |t: &[f64]| adam_run(t, 0.01, 15),
        theta0
    );
    let lr = 0.01;
    let (v, d) = fwdad::derivative(bind(adam_run {}, (&theta0[..], Var(0), 15)), lr);
    assert_eq!(v.to_bits(), adam_run(&theta0, lr, 15).to_bits());
    let h = 1e-7;
    let fd = (adam_run(&theta0, lr + h, 15) - adam_run(&theta0, lr - h, 15)) / (2.0 * h);
    assert_close(d, fd, 1e-6, "d loss / d lr");
}

#[test]
fn kmeans_step_moves_centroids_with_their_points() {
    let xy = [0.1, 0.2, 0.3, -0.1, 2.0, 2.1, 1.8, 2.4, 2.2, 1.9, -0.2, 0.0];
    let centroids = [[0.0, 0.0], [2.0, 2.0]];
    check_modes!(
        bind(kmeans_inertia {}, (Wrt, &centroids[..])),
        |p: &[f64]| kmeans_inertia(p, &centroids),
        xy
    );
    // Closed form: a centroid is the mean of its points, so moving one point by dp moves
    // its centroid by dp / n.
    let points: Vec<[f64; 2]> = xy.chunks(2).map(|c| [c[0], c[1]]).collect();
    let dpoints: Vec<[f64; 2]> = (0..6)
        .map(|i| if i == 2 { [1.0, 0.0] } else { [0.0, 0.0] })
        .collect();
    let fixed = [[0.0; 2]; 2];
    let out = kmeans_step_frule(
        Dual::new(&points[..], &dpoints[..]),
        Dual::new(&centroids[..], &fixed[..]),
    );
    assert_eq!(out.primal, kmeans_step(&points, &centroids));
    assert_eq!(out.tangent[0], [0.0, 0.0]);
    assert_eq!(out.tangent[1], [1.0 / 3.0, 0.0]);
}

#[test]
fn gmm_em_step_against_finite_differences() {
    let xs = [-1.2, -0.8, -1.0, 0.9, 1.3, 1.1, 0.2];
    let init = Gmm {
        weights: vec![0.4, 0.6],
        means: vec![-0.5, 0.5],
        vars: vec![0.8, 1.2],
    };
    check_modes!(
        bind(gmm_after_em {}, (Wrt, &init)),
        |x: &[f64]| gmm_after_em(x, &init),
        xs
    );
}
