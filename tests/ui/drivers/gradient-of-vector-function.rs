// `gradient` needs a scalar result; a vector-valued rule is reported at the call, with a
// pointer to `jacobian` (once per width `gradient` compiles the rule for: 8, 16, 32).
use fwdad::prelude::*;

#[derive_frule]
fn polar(p: &[f64]) -> [f64; 2] {
    [p[0] * p[1].cos(), p[0] * p[1].sin()]
}

fn main() {
    let _ = gradient(polar {}, &[1.0, 0.5]);
}
