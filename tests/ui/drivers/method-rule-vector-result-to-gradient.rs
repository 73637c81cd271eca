// `gradient` of a method returning a `Vec<f64>` (a model's residuals): a gradient is of
// one `f64`; `jacobian` takes the residuals.
use fwdad::prelude::*;

#[derive(Clone, Debug, Differentiable)]
pub struct Model {
    pub scale: f64,
}

#[derive_frule]
impl Model {
    pub fn residuals(&self, w: &[f64]) -> Vec<f64> {
        w.iter().map(|v| self.scale * v - 1.0).collect()
    }
}

fn main() {
    let m = Model { scale: 2.0 };
    let w = [0.5, 1.0];
    let (_, g) = gradient(bind(rule!(Model::residuals), (&m, Wrt)), &w);
    println!("{g:?}");
}
