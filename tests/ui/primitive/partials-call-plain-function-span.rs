use fwdad::prelude::*;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

// Partials are also evaluated on duals (for second-order tangents): a plain `f64` helper
// cannot take one, and the error points at the call.
#[primitive(d = sigmoid(x))]
fn softplus(x: f64) -> f64 {
    x.exp().ln_1p()
}

fn main() {}
