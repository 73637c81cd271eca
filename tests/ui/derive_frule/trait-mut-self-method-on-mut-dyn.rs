// `&mut dyn Trait` parameters work for `&self` methods (tests/derive_traits_mut_dyn.rs);
// a `&mut self` method through the trait object has no rule (a trait object runs its
// type's rule lane by lane, from `&self`): the first error says so and what to write.
use fwdad::prelude::*;

#[derive_frule]
trait Integrator {
    fn step(&mut self, dt: f64);
    fn position(&self) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
struct Euler {
    x: f64,
    v: f64,
}

#[derive_frule]
impl Integrator for Euler {
    fn step(&mut self, dt: f64) {
        self.x += self.v * dt;
    }
    fn position(&self) -> f64 {
        self.x
    }
}

#[derive_frule]
fn advance(it: &mut dyn Integrator, dt: f64) -> f64 {
    it.step(dt);
    it.position()
}

fn main() {}
