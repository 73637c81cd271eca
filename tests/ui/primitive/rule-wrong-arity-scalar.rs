// A hand-written rule of a two-parameter function that takes one dual (the author wrote
// the rule of the one-parameter version first).
use fwdad::prelude::*;
use fwdad::ScalarTangent;

#[primitive(rule = softplus_rule)]
fn softplus(x: f64, beta: f64) -> f64 {
    (1.0 + (beta * x).exp()).ln() / beta
}

fn softplus_rule<T: ScalarTangent<f64>>(x: Dual<f64, T>) -> Dual<f64, T> {
    let s = 1.0 / (1.0 + (-x.primal).exp());
    Dual::new((1.0 + x.primal.exp()).ln(), x.tangent.scale(s))
}

fn main() {}
