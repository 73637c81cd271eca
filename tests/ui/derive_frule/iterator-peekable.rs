// `peekable()` read by a method other than `next` and `peek` (`next_if`): the error is at
// the method and says to index the slice with a cursor.
use fwdad::prelude::*;

#[derive_frule]
fn run_weighted(x: &[f64]) -> f64 {
    let mut it = x.iter().peekable();
    let mut total = 0.0;
    while let Some(&v) = it.next() {
        let w = match it.next_if(|&&next| next * v > 0.0) {
            Some(_) => 2.0,
            None => 1.0,
        };
        total += w * v * v;
    }
    total
}

fn main() {}
