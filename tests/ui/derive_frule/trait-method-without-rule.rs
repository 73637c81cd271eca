// A trait method no rule can have (generic, or taking `impl Fn`) does not make the trait an
// error: only its calls in differentiated functions are, at the call.
use fwdad::prelude::*;

#[derive_frule]
pub trait Field {
    fn value(&self, x: f64) -> f64;
    fn at<P: Copy + Into<f64>>(&self, p: P) -> f64 {
        self.value(p.into())
    }
    fn mapped(&self, x: f64, f: impl Fn(f64) -> f64) -> f64 {
        f(self.value(x))
    }
}

#[derive_frule]
fn probe<F: Field>(field: &F, x: f64) -> f64 {
    field.value(x) + field.at(x)
}

fn main() {}
