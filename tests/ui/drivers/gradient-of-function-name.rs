// `gradient(loss, &w)` with the function itself: the drivers take the rule's handle,
// `loss {}` (the function's name with braces), which carries its forward rule.
use fwdad::prelude::*;

#[derive_frule]
fn loss(w: &[f64]) -> f64 {
    w.iter().map(|v| (v - 1.0).powi(2)).sum()
}

fn main() {
    let w = [0.5, 2.0];
    let (_, g) = gradient(loss, &w);
    println!("{g:?}");
}
