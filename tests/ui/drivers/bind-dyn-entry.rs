// A `&dyn Trait` value bound as a plain entry of `bind` (found by a newcomer's camera
// program): the drivers' reference entries are sized (a `?Sized` one would overlap the
// slices'). Instead: `Const(l)`, which binds it (tested in tests/derive_traits_dyn_args.rs).
use fwdad::drivers::{bind, gradient, Wrt};
use fwdad::prelude::*;

#[derive_frule]
pub trait Lens {
    fn distort(&self, r2: f64) -> f64;
}

#[derive(Clone, Copy, Differentiable)]
pub struct Pinhole {
    pub k1: f64,
}

#[derive_frule]
impl Lens for Pinhole {
    fn distort(&self, r2: f64) -> f64 {
        1.0 + self.k1 * r2
    }
}

#[derive_frule]
fn radial(p: &[f64], lens: &dyn Lens) -> f64 {
    lens.distort(p[0] * p[0] + p[1] * p[1])
}

fn main() {
    let l: &dyn Lens = &Pinhole { k1: -0.1 };
    let _ = gradient(bind(radial {}, (Wrt, l)), &[0.3, 0.4]);
}
