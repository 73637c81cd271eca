// spa 0.5.1's float backend (`tests/spa_verbatim.rs`): a trait of associated functions
// without `self`, implemented for an empty enum that only selects them. The `impl`'s rules
// still ask the type for a tangent type: derive `Differentiable` on it (an empty enum
// derives), as `tests/spa_verbatim.rs` does.
use fwdad::prelude::*;

#[derive_frule]
pub trait FloatOps {
    fn sin(x: f64) -> f64;
}

pub enum StdFloatOps {}

#[derive_frule]
impl FloatOps for StdFloatOps {
    fn sin(x: f64) -> f64 {
        f64::sin(x)
    }
}

#[derive_frule]
fn wave<F: FloatOps>(t: f64) -> f64 {
    3.0 * F::sin(t) + 1.0
}

fn main() {
    let _ = wave_frule::<StdFloatOps>(Dual::new(0.5, 1.0));
}
