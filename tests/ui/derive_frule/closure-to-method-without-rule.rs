// A method of the user's that takes a closure (a quadrature over a grid), its `impl` not
// annotated: the first error is at the closure, names the type and the method and says
// to annotate the `impl`, not rustc's "no method named `__fwdad_fn_arg1_integrate`".
use fwdad::prelude::*;

#[derive(Clone, Copy, Differentiable)]
pub struct Grid {
    pub h: f64,
    pub n: usize,
}

impl Grid {
    pub fn integrate(&self, f: impl Fn(f64) -> f64) -> f64 {
        (0..self.n).map(|i| f(i as f64 * self.h)).sum::<f64>() * self.h
    }
}

#[derive_frule]
fn mass(g: Grid, rho: f64) -> f64 {
    g.integrate(|x| rho * x.exp())
}

fn main() {}
