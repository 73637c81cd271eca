// A generalised linear model keeping its link function in a boxed field, built by a
// constructor (`Glm::new(Box::new(..), beta)`): the rule cannot see into `new` to find the
// closure it stores. Instead: write the struct literal in the differentiated function
// (`Glm { link: Box::new(..), beta }`, supported: tests/fields11_models.rs).
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
fn predict(x: &[f64]) -> f64 {
    let m = Glm::new(Box::new(|eta: f64| 1.0 / (1.0 + (-eta).exp())), x[0]);
    (m.link)(m.beta * x[1])
}

fn main() {}
