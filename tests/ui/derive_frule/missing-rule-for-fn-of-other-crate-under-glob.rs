// A function of another crate without rules (`libm`), called from a module that imports its
// parent's items with `use super::*;`: the glob brings nothing of that name (the parent's
// items are in this file, and its only glob import is a prelude's), so the error names the
// crate, as without the glob.
use fwdad::prelude::*;

pub fn half(x: f64) -> f64 {
    0.5 * x
}

mod tail {
    use super::*;

    #[derive_frule]
    pub fn normal_tail(x: f64) -> f64 {
        half(libm::erfc(x / std::f64::consts::SQRT_2))
    }
}

fn main() {
    let _ = tail::normal_tail(1.0);
}
