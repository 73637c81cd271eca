// A type imported by a `use` inside the function's body, then built by a literal: the
// literal's tangent is built by the name `PredictionTangent`, which the `use` does not
// bring, and the macro reads only the `use` items of modules, not of bodies (limits.md:
// import the type at the module, or write `use m::{Prediction, PredictionTangent};`).
use fwdad::prelude::*;

mod m {
    #[derive(Clone, Copy, fwdad::Differentiable)]
    pub struct Prediction {
        pub mean: f64,
        pub var: f64,
    }
}

#[derive_frule]
pub fn predict(x: f64, s: f64) -> m::Prediction {
    use m::Prediction;
    Prediction { mean: 2.0 * x, var: s * s }
}

fn main() {}
