use fwdad::prelude::*;

struct Spring {
    k: f64,
}

#[derive_frule]
impl Spring {
    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

fn main() {}
