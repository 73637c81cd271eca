// `ref` and `ref mut` bindings and slice patterns are supported in `match`; what is left:
// a `ref mut` inside a `let` pattern (the write would have to reach the tuple), and slice
// patterns through `&mut` in `match` (`if let` and `let .. else` take them).
use fwdad::prelude::*;

#[derive_frule]
fn first_of_pair(mut t: (f64, f64)) -> f64 {
    let (ref mut a, b) = t;
    *a += b;
    t.0
}

#[derive_frule]
fn scale_ends(x: &mut [f64], k: f64) {
    match x {
        [first, .., last] => {
            *first *= k;
            *last *= k;
        }
        _ => {}
    }
}

#[derive_frule]
fn head_and_rest(p: [f64; 3]) -> f64 {
    let [a, rest @ ..] = p;
    a * rest[0] + rest[1]
}

fn main() {}
