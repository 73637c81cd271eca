// A generalised linear model keeping its link function in a boxed field, built by its
// constructor and used in the same expression (`Glm::new(Box::new(..), beta).predict(x)`):
// the rule sees into a constructor only where its result is bound with `let`. Instead:
// `let m = Glm::new(..); m.predict(x)` (supported: tests/fields12_ctors.rs).
use fwdad::prelude::*;

pub struct Glm {
    link: Box<dyn Fn(f64) -> f64>,
    beta: f64,
}

impl Glm {
    pub fn new(link: Box<dyn Fn(f64) -> f64>, beta: f64) -> Self {
        Glm { link, beta }
    }
}

#[derive_frule]
impl Glm {
    pub fn predict(&self, x: f64) -> f64 {
        (self.link)(self.beta * x)
    }
}

#[derive_frule]
fn predict(x: &[f64]) -> f64 {
    Glm::new(Box::new(|eta: f64| 1.0 / (1.0 + (-eta).exp())), x[0]).predict(x[1])
}

fn main() {}
