// `&mut` arguments whose tangents hold no float: integers, their containers, a struct of
// integers, tuples of them.
use fwdad::prelude::*;

#[derive(Differentiable, Clone)]
pub struct Counter {
    pub n: u64,
    pub last: usize,
}

/// A struct holding an integer-only struct, and a generic one.
#[derive(Differentiable, Clone)]
pub struct Nested {
    pub inner: Counter,
    pub k: u32,
}

#[derive(Differentiable, Clone)]
pub struct Tagged<T> {
    pub tag: T,
    pub n: usize,
}

#[non_differentiable]
fn rest(
    a: &mut Nested,
    b: &mut Tagged<u8>,
    r: &mut Result<u32, String>,
    t: &mut (u8, u8, u8, u8, u8, u8, u8),
    o: Option<&mut u32>,
    pair: (&mut usize, f64),
) -> usize {
    a.k += 1;
    b.n += 1;
    *r = Ok(1);
    t.6 += 1;
    if let Some(o) = o {
        *o += 1;
    }
    *pair.0 += pair.1 as usize;
    a.k as usize
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
