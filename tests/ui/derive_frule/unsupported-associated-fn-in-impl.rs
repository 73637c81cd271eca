use fwdad::prelude::*;

struct Spring;

impl Spring {
    #[derive_frule]
    fn energy(x: f64) -> f64 {
        0.5 * x * x
    }
}

fn main() {}
