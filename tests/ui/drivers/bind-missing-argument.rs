// `bind` with one slot too few for the function's arguments: each argument gets a
// slot (`Wrt` for the differentiated one, the value for each other).
use fwdad::prelude::*;

#[derive_frule]
fn fit(theta: &[f64], data: &[f64], k: f64) -> f64 {
    k * theta.iter().zip(data).map(|(t, d)| (t - d).powi(2)).sum::<f64>()
}

fn main() {
    let data = [1.0, 2.0];
    let theta = [0.5, 0.5];
    let (_, g) = gradient(bind(fit {}, (Wrt, &data[..])), &theta);
    println!("{g:?}");
}
