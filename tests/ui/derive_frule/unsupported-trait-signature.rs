use fwdad::prelude::*;

#[derive_frule]
pub trait Body {
    fn advance(&mut self, dt: f64) -> f64;
    fn forces(&self, x: Vec<f64>) -> f64;
    fn position(&self, t: f64) -> [f64; 3];
}

fn main() {}
