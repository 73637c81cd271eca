use fwdad::prelude::*;

#[derive(Clone, Copy, Differentiable)]
struct Schedule {
    lr: f64,
    decay: f64,
}

#[derive_frule]
impl Iterator for Schedule {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        let current = self.lr;
        self.lr *= self.decay;
        Some(current)
    }
}

// An endless iterator read until a condition: gathering its items would never end.
#[derive_frule]
fn until_small(lr0: f64) -> f64 {
    Schedule { lr: lr0, decay: 0.5 }.take_while(|lr| *lr > 1e-3).sum::<f64>()
}

#[derive_frule]
fn first_large(lr0: f64) -> f64 {
    let mut found = 0.0;
    for lr in (Schedule { lr: lr0, decay: 0.5 }).map(|lr| lr * 2.0) {
        if lr < 1.0 {
            found = lr;
            break;
        }
    }
    found
}

fn main() {}
