// A `macro_rules!` of the user's that returns a pair of floats (polar to Cartesian): the
// macro cannot see through a macro it does not know, and says what to write instead.
use fwdad::prelude::*;

macro_rules! polar {
    ($r:expr, $t:expr) => {
        ($r * $t.cos(), $r * $t.sin())
    };
}

#[derive_frule]
fn reach(r: f64, theta: f64) -> f64 {
    let (x, y) = polar!(r, theta);
    x + 2.0 * y
}

fn main() {}
