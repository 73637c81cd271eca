// Layers shared through `Rc<dyn Layer>` (a network whose layers are reference-counted):
// not supported; `Box<dyn Layer>` is.
use fwdad::prelude::*;
use std::rc::Rc;

#[derive_frule]
trait Layer {
    fn forward(&self, x: f64) -> f64;
}

#[derive(Clone, Differentiable)]
struct Scale {
    k: f64,
}

#[derive_frule]
impl Layer for Scale {
    fn forward(&self, x: f64) -> f64 {
        self.k * x
    }
}

#[derive_frule]
fn run(k: f64, x: f64) -> f64 {
    let layers: Vec<Rc<dyn Layer>> = vec![Rc::new(Scale { k }), Rc::new(Scale { k: 2.0 })];
    let mut y = x;
    for l in &layers {
        y = l.forward(y);
    }
    y
}

fn main() {
    let _ = run(1.0, 2.0);
}
