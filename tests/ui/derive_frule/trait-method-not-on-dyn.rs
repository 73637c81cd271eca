// A trait whose methods take `&mut self` or return an array: accepted, and differentiable
// through a generic parameter (`B: Body`), but a `dyn Body` runs only the methods taking
// `&self` and floats, returning `f64` or `Vec<f64>`; calls of the others on a trait object are errors at
// the call, saying to take the value through a generic parameter.
use fwdad::prelude::*;

#[derive_frule]
pub trait Body {
    fn advance(&mut self, dt: f64);
    fn energy(&self, t: f64) -> f64;
    fn position(&self, t: f64) -> [f64; 3];
}

#[derive_frule]
fn height(b: &dyn Body, t: f64) -> f64 {
    b.position(t)[2] + b.energy(t)
}

#[derive_frule]
fn step(bodies: &[Box<dyn Body>], t: f64) -> f64 {
    let mut e = 0.0;
    for b in bodies {
        e += b.energy(t) * b.position(t)[0];
    }
    e
}

fn main() {}
