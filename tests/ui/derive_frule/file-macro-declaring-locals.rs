// A `macro_rules!` of the file that declares locals, as ellip 1.2.3's `declare!(mut [xn =
// x, yn = y])` starts its Carlson iterations: run on plain values, as macros the macro does
// not know are, its `let`s would be unknown to the rest of the body. An error at the macro
// instead of ``can only assign local variables; `xn` is not one`` at the first assignment.
use fwdad::prelude::*;

macro_rules! declare {
    (mut [$($var:ident = $value:expr),+ $(,)?]) => {
        $(let mut $var = $value;)+
    };
}

#[derive_frule]
fn agm(x: f64, y: f64) -> f64 {
    declare!(mut [xn = x, yn = y]);
    for _ in 0..5 {
        let t = (xn * yn).sqrt();
        xn = 0.5 * (xn + yn);
        yn = t;
    }
    xn
}

fn main() {}
