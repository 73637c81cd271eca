use fwdad::prelude::*;
use fwdad::ScalarTangent;

#[primitive(rule = dot_rule)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn dot_rule<T: ScalarTangent<f64>>(a: Dual<&[f64], &[T]>) -> Dual<f64, T> {
    let mut s = Dual::new(0.0, T::zero());
    for i in 0..a.len() {
        s += a.at(i).copied();
    }
    s
}

fn main() {}
