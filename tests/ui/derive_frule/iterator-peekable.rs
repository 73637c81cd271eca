// `peekable` (and `next`/`peek` on it) over values that carry derivatives. Instead: index
// the slice (`for i in 0..x.len() { let next = x.get(i + 1); .. }`) or use `windows(2)`.
use fwdad::prelude::*;

#[derive_frule]
fn run_weighted(x: &[f64]) -> f64 {
    let mut it = x.iter().peekable();
    let mut total = 0.0;
    while let Some(&v) = it.next() {
        let w = match it.peek() {
            Some(&&next) if next * v > 0.0 => 2.0,
            _ => 1.0,
        };
        total += w * v * v;
    }
    total
}

fn main() {}
