//! `#[derive_frule(crate = path)]`: generated code reaches the runtime through `path`,
//! here a re-export under another name, with no `fwdad` in scope at the call site.
#![allow(dead_code)]

mod reexport {
    pub use ::fwdad as ad;
}

mod user {
    use crate::reexport::ad::derive_frule;

    #[derive_frule(crate = crate::reexport::ad)]
    pub fn square(x: f64) -> f64 {
        x * x
    }

    #[derive_frule(crate = crate::reexport::ad)]
    pub fn twice_square(x: f64) -> f64 {
        2.0 * square(x)
    }
}

fn main() {
    let y = user::twice_square_frule(fwdad::Dual::new(3.0, 1.0));
    assert_eq!(y.primal, 18.0);
    assert_eq!(y.tangent, 12.0);
}
