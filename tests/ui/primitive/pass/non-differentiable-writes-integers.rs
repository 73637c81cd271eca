// `&mut` arguments whose tangents hold no float: integers, their containers, a struct of
// integers, tuples of them.
use fwdad::prelude::*;

#[derive(Differentiable, Clone)]
pub struct Counter {
    pub n: u64,
    pub last: usize,
}

#[non_differentiable]
fn tick(c: &mut Counter, ids: &mut [u32], pair: &mut (usize, bool), log: &mut Vec<Vec<i64>>) -> u64 {
    c.n += 1;
    c.last = ids.len();
    ids[0] += 1;
    pair.0 += 1;
    log.push(vec![1]);
    c.n
}

#[derive_frule]
fn f(x: f64) -> f64 {
    let mut c = Counter { n: 0, last: 0 };
    let mut ids = [0u32; 2];
    let mut pair = (0usize, false);
    let mut log = Vec::new();
    let n: u64 = tick(&mut c, &mut ids, &mut pair, &mut log);
    x * n as f64
}

fn main() {
    let _ = f_frule(Dual::new(2.0, 1.0));
}
