use fwdad::prelude::*;
use fwdad::ScalarTangent;

#[primitive(rule = scale_rule)]
fn scale(k: f64, x: &mut [f64]) {
    for v in x.iter_mut() {
        *v *= k;
    }
}

// The buffer is taken by shared reference: the rule cannot write its tangent.
fn scale_rule<T: ScalarTangent<f64>>(k: Dual<f64, T>, x: Dual<&[f64], &[T]>) -> Dual<(), NoTangent> {
    let _ = (k, x);
    Dual::new((), NoTangent)
}

fn main() {}
