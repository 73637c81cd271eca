use fwdad::prelude::*;

// A `move` closure keeps its own copy of `c` from call to call.
#[derive_frule]
fn running(x: f64) -> f64 {
    let mut c = 0.0;
    let mut acc = move |v: f64| {
        c += v;
        c
    };
    acc(x) + acc(x * x)
}

#[derive_frule]
fn running_in_a_chain(x: &[f64]) -> f64 {
    let mut c = 0.0;
    x.iter()
        .map(move |v| {
            c += v;
            c
        })
        .sum()
}

fn main() {}
