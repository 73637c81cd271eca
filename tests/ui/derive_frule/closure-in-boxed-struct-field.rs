// A generalised linear model keeping its link function in a boxed field
// (`link: Box<dyn Fn(f64) -> f64>`) and calling it, `(m.link)(eta)`: the rule would need
// the struct to hold the closure's dual form, which no field type can. Instead: pass the
// link as a parameter (`fn predict<F: Fn(f64) -> f64>(link: F, ..)`) or call it by name.
use fwdad::prelude::*;

struct Glm {
    link: Box<dyn Fn(f64) -> f64>,
    beta: f64,
}

#[derive_frule]
fn predict(x: &[f64]) -> f64 {
    let m = Glm {
        link: Box::new(|eta: f64| 1.0 / (1.0 + (-eta).exp())),
        beta: x[0],
    };
    (m.link)(m.beta * x[1])
}

fn main() {}
