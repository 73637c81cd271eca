// A struct with named fields none of which carries a tangent (its tangent is `NoTangent`),
// its field written in a derived method: `NoTangent` has numbered fields only (a tuple
// struct, `struct Rng(u64)`, works). Workaround: a tuple struct, or mark the method
// `#[non_differentiable]`.
use fwdad::prelude::*;

#[derive(Clone, Debug, Differentiable)]
struct Rng {
    state: u64,
}

#[derive_frule]
impl Rng {
    fn next_f64(&mut self) -> f64 {
        self.state = self.state.wrapping_mul(6364136223846793005).wrapping_add(1);
        (self.state >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[derive_frule]
fn noisy(mu: f64) -> f64 {
    let mut rng = Rng { state: 7 };
    mu * rng.next_f64()
}

fn main() {}
