//! A derived fn calls another derived fn imported under another name; the rule marker
//! (type namespace) travels with the `use` like the function does.
#![allow(dead_code)]

use fwdad::prelude::*;

mod m {
    use fwdad::prelude::*;

    #[derive_frule]
    pub fn g(x: f64) -> f64 {
        x.exp()
    }
}

use self::m::g as h;

#[derive_frule]
fn f(x: f64) -> f64 {
    h(x) * x
}

fn main() {
    let y = f_frule(Dual::new(1.0, 1.0));
    let e = 1.0f64.exp();
    assert_eq!(y.primal, e);
    assert!((y.tangent - 2.0 * e).abs() < 1e-12);
}
