// A `VecDeque` of floats used otherwise than a `Vec` can stand for (`rotate_left`): no
// tangent type; the error is at the written type and says to keep the floats in a `Vec`.
// (A local window read by `push_back`, `pop_front`, `len`, indexing and `for` is read as a
// `Vec`: `tests/reach7_found.rs`.)
use fwdad::prelude::*;
use std::collections::VecDeque;

#[derive_frule]
fn rotated_first(x: &[f64], k: usize) -> f64 {
    let mut ring: VecDeque<f64> = VecDeque::with_capacity(x.len());
    for &v in x {
        ring.push_back(v * v);
    }
    ring.rotate_left(k);
    ring[0]
}

fn main() {}
