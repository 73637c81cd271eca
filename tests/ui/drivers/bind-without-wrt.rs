// `bind` with the point's own slice in the slot `Wrt` belongs in: every argument is a
// constant, and the gradient would be zero; mark the slot `Wrt`.
use fwdad::prelude::*;

#[derive_frule]
fn fit(theta: &[f64], data: &[f64]) -> f64 {
    theta.iter().zip(data).map(|(t, d)| (t - d).powi(2)).sum::<f64>()
}

fn main() {
    let data = [1.0, 2.0];
    let theta = [0.5, 0.5];
    let (_, g) = gradient(bind(fit {}, (&theta[..], &data[..])), &theta);
    println!("{g:?}");
}
