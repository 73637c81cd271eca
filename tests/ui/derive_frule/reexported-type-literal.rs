// A type re-exported alone (`pub use m::Prediction;`) built by a literal in a derived
// body: the literal's tangent is built by the name `PredictionTangent`, which the `use`
// does not bring. rustc's error is at the literal and suggests the import to add
// (limits.md: `use m::{Prediction, PredictionTangent};`, or `m::Prediction { .. }`).
use fwdad::prelude::*;

mod m {
    #[derive(Clone, Copy, fwdad::Differentiable)]
    pub struct Prediction {
        pub mean: f64,
        pub var: f64,
    }
}
pub use m::Prediction;

#[derive_frule]
pub fn predict(x: f64, s: f64) -> Prediction {
    Prediction { mean: 2.0 * x, var: s * s }
}

fn main() {}
