use fwdad::prelude::*;

#[derive_frule]
fn f(x: &Vec<f64>) -> f64 {
    let y = x.repeat(2);
    y[3]
}

fn main() {}
