// Plain functions of another file of the crate (`model/physics.rs`), called through the
// module's path and through a `use`, and one passed a closure: the error names each
// function and its file, where rustc would say "expected struct, variant or union type,
// found function".
use fwdad::prelude::*;

mod model {
    pub mod physics;
}

use model::physics::drag;

#[derive_frule]
fn net_force(v: f64, c: f64) -> f64 {
    model::physics::lift(v) - drag(v, c)
}

/// The impulse of a force growing linearly in time, `k s`, over `[0, t]`.
#[derive_frule]
fn impulse(k: f64, t: f64) -> f64 {
    model::physics::integrate(|s| k * s, t, 100)
}

fn main() {}
