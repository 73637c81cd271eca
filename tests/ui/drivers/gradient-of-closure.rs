// `gradient` takes a rule's handle (`loss {}`, or `bind(loss {}, ..)`), not a closure:
// a closure has no forward rule. Instead: `gradient(loss {}, &w)`, or for fixed extra
// arguments `gradient(bind(loss {}, (Wrt, &data[..])), &w)`.
use fwdad::prelude::*;

#[derive_frule]
fn loss(w: &[f64]) -> f64 {
    w.iter().map(|v| (v - 1.0).powi(2)).sum()
}

fn main() {
    let w = [0.5, 2.0];
    let (_, g) = gradient(|x: &[f64]| loss(x), &w);
    println!("{g:?}");
}
