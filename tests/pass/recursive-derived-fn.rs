//! A derived fn may call itself.
use fwdad::prelude::*;

#[derive_frule]
fn power(x: f64, n: u32) -> f64 {
    if n == 0 {
        1.0
    } else {
        x * power(x, n - 1)
    }
}

fn main() {
    let y = power_frule(Dual::new(2.0, 1.0), Dual::constant(3));
    assert_eq!(y.primal, 8.0);
    assert_eq!(y.tangent, 12.0);
}
