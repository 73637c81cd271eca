// `rule!(f)` of a free function: its handle is its marker, `f {}`; `rule!` names the
// handle of a method (`rule!(Model::loss)`).
use fwdad::prelude::*;

#[derive_frule]
fn loss(w: &[f64]) -> f64 {
    w.iter().map(|v| v * v).sum()
}

fn main() {
    let w = [0.5, 1.0];
    let (_, g) = gradient(rule!(loss), &w);
    println!("{g:?}");
}
