// `Wrt` in the receiver's slot and the model's reference in the weights' slot: the
// receiver comes first, `(&m, Wrt)`.
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
    let m = Model { scale: 2.0 };
    let w = [0.5, 1.0];
    let (_, g) = gradient(bind(rule!(Model::loss), (Wrt, &w[..])), &w);
    println!("{g:?}");
}
