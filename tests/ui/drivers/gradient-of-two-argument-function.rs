// `gradient` calls its rule with one `&[f64]`; a rule of two arguments is reported at the
// call, with a pointer to `bind` (once per width `gradient` compiles the rule for: 8, 16,
// 32).
use fwdad::prelude::*;

#[derive_frule]
fn weighted(x: &[f64], w: f64) -> f64 {
    w * x[0]
}

fn main() {
    let _ = gradient(weighted {}, &[1.0, 0.5]);
}
