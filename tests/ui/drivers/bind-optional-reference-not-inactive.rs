// An optional reference to a struct of yours, `anchor: Option<&Spring>`, bound as a
// constant (`Some(&s)`) where the parameter is not declared `inactive(anchor)`: rustc says
// the `&Spring` has no zero tangent. Declare it `#[derive_frule(inactive(anchor))]`, then
// bind `Some(&s)` or `None` as it is.
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
}

#[derive_frule]
fn chain_energy(x: &[f64], anchor: Option<&Spring>) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i] - 1.0;
        e += 0.5 * d * d;
    }
    if let Some(s) = anchor {
        e += 0.5 * s.k * (x[0] - s.rest).powi(2);
    }
    e
}

fn main() {
    let s = Spring { k: 4.0, rest: 0.5 };
    let x = [0.3, 1.1, 2.4];
    let (_, g) = gradient(bind(chain_energy {}, (Wrt, Some(&s))), &x);
    println!("{g:?}");
}
