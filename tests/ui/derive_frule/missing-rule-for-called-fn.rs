// A plain function called with values that depend on the differentiated inputs: the
// error names the function to annotate, at the call (in a function, through an inline
// module, and in a method of a derived `impl`). A plain function called with constants
// only runs as it is.
use fwdad::prelude::*;

fn plain(x: f64) -> f64 {
    x * x
}

fn middle(n: usize) -> usize {
    n / 2
}

mod util {
    pub fn cube(x: f64) -> f64 {
        x * x * x
    }
}

#[derive_frule]
fn f(x: &[f64]) -> f64 {
    plain(x[middle(x.len())]) + util::cube(x[0])
}

#[derive(Clone, Copy, Differentiable)]
struct Spring {
    k: f64,
}

#[derive_frule]
impl Spring {
    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * plain(x)
    }
}

fn main() {}
