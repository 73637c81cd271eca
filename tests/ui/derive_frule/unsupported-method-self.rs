use fwdad::prelude::*;

struct Spring {
    k: f64,
}

impl Spring {
    #[derive_frule]
    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

fn main() {}
