use fwdad::prelude::*;

// `method`: the rule of `x.two()` on the first argument's type; this function has none.
#[primitive(d = 0.0, method)]
fn two() -> f64 {
    2.0
}

fn main() {}
