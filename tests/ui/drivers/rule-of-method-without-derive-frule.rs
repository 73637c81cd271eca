// `rule!(Model::loss)` of a method whose `impl` has no `#[derive_frule]`: rustc's error
// names the hidden entry `add_derive_frule_to_the_impl_of_loss`, which says what to add.
use fwdad::prelude::*;

#[derive(Clone, Debug, Differentiable)]
pub struct Model {
    pub scale: f64,
}

impl Model {
    pub fn loss(&self, w: &[f64]) -> f64 {
        self.scale * w.iter().map(|v| v * v).sum::<f64>()
    }
}

fn main() {
    let m = Model { scale: 2.0 };
    let w = [0.5, 1.0];
    let (_, g) = gradient(bind(rule!(Model::loss), (&m, Wrt)), &w);
    println!("{g:?}");
}
