// `#[derive_frule]` on a method declared in a trait (no body), where the newcomer wants
// the trait's implementors differentiated.
use fwdad::prelude::*;

pub trait Potential {
    #[derive_frule]
    fn energy(&self, r: f64) -> f64;
}

fn main() {}
