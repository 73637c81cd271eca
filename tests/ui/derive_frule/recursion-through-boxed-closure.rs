// A closure boxed as a trait object in the body and called (a strategy chosen at run
// time): a boxed `dyn Fn` has no rule; call the function by name or bind the closure with
// `let` as it is.
use fwdad::prelude::*;

#[derive_frule]
fn activation(x: f64, smooth: bool) -> f64 {
    let f: Box<dyn Fn(f64) -> f64> = if smooth {
        Box::new(|v| v.tanh())
    } else {
        Box::new(|v| v.max(0.0))
    };
    f(x) + 0.1 * x
}

fn main() {}
