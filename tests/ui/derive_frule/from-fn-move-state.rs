// `from_fn` with a `move` closure that updates its captured state (`from_fn` with a closure
// that is not `move` is supported: tests/derive_closure_programs.rs). Instead: drop `move`.
use fwdad::prelude::*;

#[derive_frule]
fn fibonacci_sum(r: f64) -> f64 {
    let (mut a, mut b) = (0.0, 1.0);
    std::iter::from_fn(move || {
        let next = a + r * b;
        a = b;
        b = next;
        Some(a)
    })
    .take(10)
    .sum()
}

fn main() {}
