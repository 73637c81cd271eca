// A macro the registry does not know sees copies of the locals it names, bound
// immutably: one that assigns a local is a compile error, never a lost update.
use fwdad::prelude::*;

macro_rules! bump {
    ($k:ident) => {
        $k += 1.0
    };
}

#[derive_frule]
fn f(x: f64) -> f64 {
    let mut y = x * x;
    bump!(y);
    y
}

fn main() {}
