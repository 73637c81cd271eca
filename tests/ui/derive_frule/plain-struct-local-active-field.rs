// A plain struct (no `#[derive(Differentiable)]`) built in the body with a field that
// depends on the differentiated input, then its derived method called: the struct would
// have to carry a derivative. Instead: derive `Differentiable` for it, or pass the value
// as a separate argument.
use fwdad::prelude::*;

#[derive(Clone, Copy)]
pub struct Channel {
    pub bottom: f64,
    pub side_slope: f64,
}

#[derive_frule]
impl Channel {
    pub fn area(&self, y: f64) -> f64 {
        (self.bottom + self.side_slope * y) * y
    }
}

#[derive_frule]
fn area_of_width(bottom: f64) -> f64 {
    let ch = Channel {
        bottom,
        side_slope: 1.5,
    };
    ch.area(1.2)
}

fn main() {}
