// `Model::loss {}`, a free function's marker spelling, on a method of a `#[derive_frule]
// impl`: rustc reads the path as an associated type (E0223). A method's handle is
// `rule!(Model::loss)`, the receiver bound first: `bind(rule!(Model::loss), (&m, Wrt))`.
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
    let (_, g) = gradient(bind(Model::loss {}, (&m, Wrt)), &w);
    println!("{g:?}");
}
