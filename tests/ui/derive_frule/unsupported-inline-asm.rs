use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    core::arch::asm!("nop");
    x
}

fn main() {}
