// A macro the registry does not know runs on plain values; one whose value is a float
// would lose its derivative, so it is a compile error naming the macro's value.
use fwdad::prelude::*;

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

#[derive_frule]
fn f(x: f64) -> f64 {
    square!(x) + x
}

fn main() {}
