use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let y = 'b: {
        if x > 0.0 {
            break 'b x;
        }
        -x
    };
    y * y
}

fn main() {}
