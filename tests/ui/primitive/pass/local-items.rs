//! Primitives declared inside a function body, and called there by derived code.
use fwdad::prelude::*;

fn main() {
    #[primitive(d = 3.0 * x * x)]
    fn cube(x: f64) -> f64 {
        x * x * x
    }

    #[derive_frule]
    fn user(x: f64) -> f64 {
        cube(x) + 1.0
    }

    assert_eq!(user_frule(Dual::new(2.0, 1.0)).tangent, 12.0);
}
