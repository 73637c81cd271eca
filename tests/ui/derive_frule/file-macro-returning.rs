// A `macro_rules!` of the file that returns from the function, as ellip 1.2.3's argument
// checks (`check!(@nan, elliprf, [x, y, z])`, `if x.is_nan() { return Err(..) }`): run as
// written on plain values, its `return` hands a plain `Result` to the rule, whose result is
// a dual (type error at the macro's `return`).
use fwdad::prelude::*;

macro_rules! check_nan {
    ($($var:ident),+) => {
        $(
            if $var.is_nan() {
                return Err("arguments cannot be NAN");
            }
        )+
    };
}

#[derive_frule]
fn ratio(x: f64, y: f64) -> Result<f64, &'static str> {
    check_nan!(x, y);
    Ok(x / (1.0 + y * y))
}

fn main() {}
