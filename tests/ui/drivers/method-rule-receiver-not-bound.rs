// A method's handle passed to `gradient` as it is: its first argument is the receiver,
// so the rule takes two arguments; bind the receiver, `bind(rule!(Model::loss), (&m,
// Wrt))`.
use fwdad::prelude::*;

#[derive(Clone, Debug, Differentiable)]
pub struct Model {
    pub scale: f64,
}

#[derive_frule]
impl Model {
    pub fn loss(&self, w: &[f64]) -> f64 {
        self.scale * w.iter().map(|v| v * v).sum::<f64>()
    }
}

fn main() {
    let w = [0.5, 1.0];
    let (_, g) = gradient(rule!(Model::loss), &w);
    println!("{g:?}");
}
