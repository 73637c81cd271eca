// A parameter struct declared without `#[derive(Differentiable)]` and its helper methods,
// in an `impl` without `#[derive_frule]`, called from a derived function with values that
// depend on the inputs: the method has no rule. Instead: add `#[derive_frule]` to
// `impl Channel` (the struct needs nothing: its methods take it as constant data).
use fwdad::prelude::*;

#[derive(Clone, Copy)]
pub struct Channel {
    pub bottom: f64,
    pub side_slope: f64,
    pub n: f64,
    pub slope: f64,
}

impl Channel {
    pub fn area(&self, y: f64) -> f64 {
        (self.bottom + self.side_slope * y) * y
    }
    pub fn perimeter(&self, y: f64) -> f64 {
        self.bottom + 2.0 * y * (1.0 + self.side_slope * self.side_slope).sqrt()
    }
    pub fn discharge(&self, y: f64) -> f64 {
        let a = self.area(y);
        a * (a / self.perimeter(y)).powf(2.0 / 3.0) * self.slope.sqrt() / self.n
    }
}

#[derive_frule]
fn normal_depth(q: f64, ch: &Channel) -> f64 {
    let mut y = 1.0;
    for _ in 0..50 {
        let f = ch.discharge(y) - q;
        let dy = 1e-6 * y;
        let df = (ch.discharge(y + dy) - ch.discharge(y - dy)) / (2.0 * dy);
        y -= f / df;
    }
    y
}

/// The reaches of a network, each at its own depth.
#[derive_frule]
fn total_area(depths: &[f64], reaches: &[Channel]) -> f64 {
    let mut a = 0.0;
    for ch in reaches {
        a += ch.area(depths[0]);
    }
    a
}

fn main() {}
