use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let g = |y: f64| {
        if y > 0.0 {
            return y;
        }
        -y
    };
    g(x)
}

fn main() {}
