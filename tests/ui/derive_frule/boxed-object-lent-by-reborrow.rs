// A boxed trait object lent by hand to a function taking `&mut dyn Body`
// (`advance(&mut *b, dt)`): the error says to pass the box, `&mut b`, to a function
// taking `&mut Box<dyn Body>`, or to call the method on the box.
use fwdad::prelude::*;

#[derive_frule]
pub trait Body {
    fn step(&mut self, dt: f64);
    fn height(&self) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Ball {
    pub h: f64,
    pub v: f64,
}

#[derive_frule]
impl Body for Ball {
    fn step(&mut self, dt: f64) {
        self.v -= 9.81 * dt;
        self.h += self.v * dt;
    }
    fn height(&self) -> f64 {
        self.h
    }
}

#[derive_frule]
fn advance(b: &mut dyn Body, dt: f64) {
    b.step(dt);
}

#[derive_frule]
fn height_after(x: &[f64], dt: f64, n: usize) -> f64 {
    let mut b: Box<dyn Body> = Box::new(Ball { h: x[0], v: x[1] });
    for _ in 0..n {
        advance(&mut *b, dt);
    }
    b.height()
}

fn main() {}
