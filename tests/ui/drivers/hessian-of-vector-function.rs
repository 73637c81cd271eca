// `hessian` of a function with two outputs: a Hessian is of a scalar function. Instead:
// one `hessian` per output (a function returning each), or `jacobian` for the first
// derivatives.
use fwdad::prelude::*;

#[derive_frule]
fn polar(p: &[f64]) -> [f64; 2] {
    [p[0] * p[1].cos(), p[0] * p[1].sin()]
}

fn main() {
    let p = [1.0, 0.5];
    let (_, _, h) = hessian(polar {}, &p);
    println!("{h:?}");
}
