// A trait implemented for every type implementing another trait of one's own (`impl<T:
// Shape> Area for T`): a blanket `impl` has no rules; the error says to implement the
// trait for each type or to write a generic function over `Shape`.
use fwdad::prelude::*;

#[derive_frule]
pub trait Shape {
    fn width(&self) -> f64;
    fn height(&self) -> f64;
}

#[derive_frule]
pub trait Area {
    fn area(&self) -> f64;
}

#[derive_frule]
impl<T: Shape> Area for T {
    fn area(&self) -> f64 {
        self.width() * self.height()
    }
}

fn main() {}
