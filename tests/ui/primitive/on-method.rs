use fwdad::prelude::*;

struct Model {
    k: f64,
}

impl Model {
    #[primitive(d = self.k)]
    fn scale(&self, x: f64) -> f64 {
        self.k * x
    }
}

fn main() {}
