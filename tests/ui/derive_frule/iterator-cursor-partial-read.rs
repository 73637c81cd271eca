// An iterator held in a `let mut` and read by a method that takes part of its items and
// leaves it to be read on (`nth`, `find`, `any`, `position`, ...) as well as by `next()`:
// the cursor that stands for a slice iterator read by `next()` does not move past what
// those read. Instead: index the slice (`x[1]`, then `x[2]`).
use fwdad::prelude::*;

#[derive_frule]
fn second_times_third(x: &[f64]) -> f64 {
    let mut it = x.iter();
    let a = it.nth(1).unwrap();
    let b = it.next().unwrap();
    a * b
}

fn main() {}
