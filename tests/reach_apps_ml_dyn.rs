//! A network as a `Vec<Box<dyn Layer>>`, the way frameworks in the PyTorch mould compose
//! modules: each layer maps a `&[f64]` to a `Vec<f64>`. Checked against central finite
//! differences in every mode, primals bit for bit.

mod common;

use fwdad::prelude::*;
use fwdad::Const;

#[derive_frule]
pub trait Layer {
    fn forward(&self, x: &[f64]) -> Vec<f64>;
}

#[derive(Clone, Debug, Differentiable)]
pub struct Dense {
    pub w: Vec<Vec<f64>>,
    pub b: Vec<f64>,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Tanh;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Scale {
    pub k: f64,
}

#[derive_frule]
impl Layer for Dense {
    fn forward(&self, x: &[f64]) -> Vec<f64> {
        self.w
            .iter()
            .zip(&self.b)
            .map(|(row, b)| row.iter().zip(x).map(|(w, x)| w * x).sum::<f64>() + b)
            .collect()
    }
}

#[derive_frule]
impl Layer for Tanh {
    fn forward(&self, x: &[f64]) -> Vec<f64> {
        x.iter().map(|v| v.tanh()).collect()
    }
}

#[derive_frule]
impl Layer for Scale {
    fn forward(&self, x: &[f64]) -> Vec<f64> {
        x.iter().map(|v| self.k * v).collect()
    }
}

/// The network's output weighed by a fixed readout `(1, 2, 3, ..)`.
#[derive_frule]
pub fn network(layers: &[Box<dyn Layer>], x: &[f64]) -> f64 {
    let mut h = x.to_vec();
    for layer in layers {
        h = layer.forward(&h);
    }
    h.iter()
        .enumerate()
        .map(|(i, v)| (i as f64 + 1.0) * v)
        .sum()
}

/// One layer behind a reference, its outputs summed.
#[derive_frule]
pub fn sequential_out(model: &dyn Layer, x: &[f64]) -> f64 {
    model.forward(x).iter().sum()
}

fn layers() -> Vec<Box<dyn Layer>> {
    vec![
        Box::new(Dense {
            w: vec![vec![0.4, -0.3, 0.2], vec![-0.5, 0.1, 0.7]],
            b: vec![0.1, -0.2],
        }),
        Box::new(Tanh),
        Box::new(Dense {
            w: vec![vec![0.5, -0.2], vec![-0.3, 0.6], vec![0.9, 0.1]],
            b: vec![0.0, 0.1, -0.1],
        }),
        Box::new(Scale { k: 1.5 }),
        Box::new(Tanh),
    ]
}

fn plain_network(layers: &[Box<dyn Layer>], x: &[f64]) -> f64 {
    network(layers, x)
}

#[test]
fn boxed_layers_in_every_mode() {
    let ls = layers();
    let x = [0.3, -0.8, 1.1];
    check_modes!(
        bind(network {}, (&ls[..], Wrt)),
        |x: &[f64]| plain_network(&ls, x),
        x
    );
}

#[test]
fn one_dyn_layer_in_every_mode() {
    let dense = Dense {
        w: vec![vec![0.4, -0.3, 0.2], vec![-0.5, 0.1, 0.7]],
        b: vec![0.1, -0.2],
    };
    let x = [0.3, -0.8, 1.1];
    check_modes!(
        bind(sequential_out {}, (Const(&dense as &dyn Layer), Wrt)),
        |x: &[f64]| sequential_out(&dense, x),
        x
    );
}
