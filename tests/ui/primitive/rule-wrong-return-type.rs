use fwdad::prelude::*;
use fwdad::ScalarTangent;

#[primitive(rule = norm_rule)]
fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

// Returns the squared norm's dual as a tuple: not the dual of `f64`.
fn norm_rule<T: ScalarTangent<f64>>(x: Dual<&[f64], &[T]>) -> (f64, T) {
    let mut s = Dual::new(0.0, T::zero());
    for i in 0..x.len() {
        let v = x.at(i).copied();
        s += v * v;
    }
    let n = s.sqrt();
    (n.primal, n.tangent)
}

fn main() {}
