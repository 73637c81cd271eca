// A method of another crate's extension trait on floats called through the trait's path
// (special 0.11.4's `Primitive::erf(self)`), with a `#[primitive(.., method)]` rule for
// it in scope: the macro takes `Prim::half` for a type's associated function, and rustc
// reports the trait where a type is expected. Instead: `x.half()`.
use fwdad::prelude::*;

mod other {
    pub trait Prim {
        fn half(self) -> Self;
    }
    impl Prim for f64 {
        fn half(self) -> f64 {
            0.5 * self
        }
    }
}

mod rules {
    #[fwdad::primitive(d = 0.5, method)]
    pub fn half(x: f64) -> f64 {
        crate::other::Prim::half(x)
    }
}

use other::Prim;
use rules::*;

#[derive_frule]
fn scaled(x: f64) -> f64 {
    Prim::half(x) * x
}

fn main() {}
