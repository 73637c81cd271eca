// `println!` needs its format string as a literal, as in plain Rust; the macro says so at
// the argument.
use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let msg = "x";
    println!(msg, x);
    x * x
}

fn main() {}
