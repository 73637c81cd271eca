use fwdad::prelude::*;

#[non_differentiable]
fn fill_noise(out: &mut [f64], seed: &mut u64) {
    for v in out.iter_mut() {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        *v = (*seed >> 11) as f64 / (1u64 << 53) as f64;
    }
}

fn main() {}
