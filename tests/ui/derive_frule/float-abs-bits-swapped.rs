// The absolute values of two floats taken by clearing their sign bits, then swapped by
// their bits before they are rebuilt, as libm 0.2.16's `hypot` orders `|x| >= |y|`: the
// bits merged from two branches could come from either float, and no derivative follows
// them (a float rebuilt from bits it masked directly is `x.copysign(1.0)`, supported).
use fwdad::prelude::*;

#[derive_frule]
fn larger_magnitude(x: f64, y: f64) -> f64 {
    let mut uxi = x.to_bits();
    let mut uyi = y.to_bits();
    uxi &= -1i64 as u64 >> 1;
    uyi &= -1i64 as u64 >> 1;
    if uxi < uyi {
        let uti = uxi;
        uxi = uyi;
        uyi = uti;
    }
    f64::from_bits(uxi) + 0.5 * f64::from_bits(uyi)
}

fn main() {}
