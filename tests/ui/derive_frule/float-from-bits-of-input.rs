// A float taken apart through its bits and rebuilt with `f64::from_bits`, as libm 0.2.16's
// `log` reduces its argument to [√2/2, √2]: the mantissa depends on `x`, but no derivative
// flows through the integers. An error at `f64::from_bits` instead of a silent zero.
use fwdad::prelude::*;

#[derive_frule]
fn log_mantissa(x: f64) -> f64 {
    let ui = x.to_bits();
    let mut hx = (ui >> 32) as u32;
    hx = (hx & 0x000fffff) + 0x3fe6a09e;
    let m = f64::from_bits(((hx as u64) << 32) | (ui & 0xffffffff));
    m - 1.0
}

fn main() {}
