// A method with `#[derive_frule]` calling another method of the same plain `impl`
// through `Self::`: the callee has no rule. Instead: annotate the `impl` block itself
// (every method gets a rule).
use fwdad::prelude::*;

#[derive(Clone, Copy, Differentiable)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
}

impl Spring {
    fn stretch(x: f64, rest: f64) -> f64 {
        x - rest
    }

    #[derive_frule]
    fn energy(&self, x: f64) -> f64 {
        let s = Self::stretch(x, self.rest);
        0.5 * self.k * s * s
    }
}

fn main() {}
