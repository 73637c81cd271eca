// Closures a factory returns, boxed into a `Vec` by `collect` and called out of it (a
// basis of shifted bumps): the rule has no collection of differentiated closures.
// Instead: call the factory where each closure is used (`(0..n).map(|i| make(i, k)(x))`),
// or write the list in the body (`vec![Box::new(..), ..]`, walked by a `for` loop).
use fwdad::prelude::*;

#[derive_frule]
fn make(i: usize, k: f64) -> Box<dyn Fn(f64) -> f64> {
    let c = i as f64 * 0.5;
    Box::new(move |x| (-(x - c) * (x - c) * k).exp())
}

#[derive_frule]
fn basis_sum(x: f64, k: f64) -> f64 {
    let n = 4;
    let fs: Vec<Box<dyn Fn(f64) -> f64>> = (0..n).map(|i| make(i, k)).collect();
    fs.iter().map(|f| f(x)).sum()
}

fn main() {}
