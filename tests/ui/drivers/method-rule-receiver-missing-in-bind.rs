// `bind` of a method's handle without its receiver: one entry per parameter, the
// receiver first (`(&m, Wrt)`).
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
    let (_, g) = gradient(bind(rule!(Model::loss), (Wrt,)), &w);
    println!("{g:?}");
}
