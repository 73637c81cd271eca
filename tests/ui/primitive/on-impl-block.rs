use fwdad::prelude::*;

struct Model;

#[primitive(d = 2.0 * x)]
impl Model {
    fn square(x: f64) -> f64 {
        x * x
    }
}

fn main() {}
