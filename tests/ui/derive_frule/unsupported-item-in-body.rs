// Local `struct`, `enum` and `impl` items are supported (tests/derive_local_items.rs); a
// local trait is not.
use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    trait Twice {
        fn twice(self) -> Self;
    }
    impl Twice for f64 {
        fn twice(self) -> f64 {
            2.0 * self
        }
    }
    x.twice()
}

fn main() {}
