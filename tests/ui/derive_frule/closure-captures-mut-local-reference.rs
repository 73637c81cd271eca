// A closure passed to a function writes through a `&mut` local it captures (`let r = &mut
// total;`, then `*r += x`): not supported yet (the writes would not reach `total` as the
// body reads it afterwards). Closures that assign their captures directly are supported
// (`tests/derive_closure_captures.rs`, `tests/derive_closure_borrows.rs`).
use fwdad::prelude::*;

#[derive_frule]
fn simpson<F: FnMut(f64) -> f64>(mut f: F, a: f64, b: f64) -> f64 {
    (b - a) / 6.0 * (f(a) + 4.0 * f(0.5 * (a + b)) + f(b))
}

#[derive_frule]
fn accumulated(k: f64) -> f64 {
    let mut total = 0.0;
    let r = &mut total;
    let s = simpson(
        |x| {
            *r += x;
            k * x
        },
        0.0,
        1.0,
    );
    s + total
}

fn main() {}
