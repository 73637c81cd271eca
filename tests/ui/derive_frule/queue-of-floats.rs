// A `VecDeque` of floats (a moving-average window): no tangent type; the error is at the
// written type and says to keep the floats in a `Vec`.
use fwdad::prelude::*;
use std::collections::VecDeque;

#[derive_frule]
fn moving_average_last(x: &[f64], k: usize) -> f64 {
    let mut window: VecDeque<f64> = VecDeque::with_capacity(k);
    let mut sum = 0.0;
    for &v in x {
        window.push_back(v);
        sum += v;
        if window.len() > k {
            sum -= window.pop_front().unwrap();
        }
    }
    sum / window.len() as f64
}

fn main() {}
