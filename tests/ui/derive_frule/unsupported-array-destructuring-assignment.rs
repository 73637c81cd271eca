// Destructuring assignment of an array (`[a, b] = [b, a + b]`). Workaround: the tuple form
// `(a, b) = (b, a + b)`, which is supported.
use fwdad::prelude::*;

#[derive_frule]
fn fibonacci(x: f64, n: usize) -> f64 {
    let (mut a, mut b) = (x, x);
    for _ in 0..n {
        [a, b] = [b, a + b];
    }
    a
}

fn main() {}
