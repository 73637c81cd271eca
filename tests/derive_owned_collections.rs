//! Owned collections moved and consumed as Rust allows: `p.pts.into_iter()` of a field,
//! `w.into_iter()` of a `v.to_vec()`, a `Vec` chosen by an `if` and moved, an
//! `Option<Vec<f64>>` tested with `matches!(opt, Some(ref v) if ..)`, read through `if let
//! Some(v) = &opt` and emptied with `unwrap_or_default()`, and a struct borrowed then
//! consumed. A newcomer's program; its first version kept the worklist in a `VecDeque`
//! (a clear error, UI test `queue-of-floats`) and counted with `opt.as_ref().map(..)`; here
//! a `Vec` and an `if let`. Every mode against central differences, primal bit for bit.

#![allow(clippy::iter_cloned_collect)]

mod common;

use fwdad::prelude::*;

#[derive(Clone, Debug, Differentiable)]
pub struct Path {
    pub pts: Vec<f64>,
    pub closed: bool,
}

#[derive_frule]
fn length(p: &Path) -> f64 {
    let mut s: f64 = p.pts.windows(2).map(|w| (w[1] - w[0]).abs()).sum();
    if p.closed {
        s += (p.pts[p.pts.len() - 1] - p.pts[0]).abs();
    }
    s
}

#[derive_frule]
fn consume(p: Path) -> f64 {
    p.pts.into_iter().map(|v| v * v).sum()
}

#[derive_frule]
pub fn work(x: &[f64]) -> f64 {
    let mut queue: Vec<f64> = x.iter().copied().collect();
    let mut acc = 0.0;
    while let Some(v) = queue.pop() {
        if v > 1.0 {
            queue.push(v * 0.5);
        }
        acc += v;
    }
    let a = vec![x[0], x[1]];
    let b = vec![x[1] * 2.0, x[2]];
    let chosen = if x[0] > 0.0 { a } else { b };
    let moved = chosen;
    let opt: Option<Vec<f64>> = if acc > 0.0 { Some(moved.clone()) } else { None };
    let has = matches!(opt, Some(ref v) if !v.is_empty());
    let n = if let Some(v) = &opt { v.len() } else { 0 };
    let inner = opt.unwrap_or_default();
    let path = Path {
        pts: inner,
        closed: has,
    };
    let l = length(&path);
    let c = consume(path);
    acc + l * n as f64 + c + moved[0]
}

#[derive_frule]
fn squares_of_copy(v: &[f64]) -> f64 {
    let w = v.to_vec();
    w.into_iter().map(|x| x * x).sum::<f64>() + v.iter().map(|x| x * 2.0).sum::<f64>()
}

#[test]
fn owned_collections_moved_and_consumed() {
    check_modes!(work {}, work, [0.7, 2.3, 0.4]);
    check_modes!(work {}, work, [-0.3, 0.9, 1.4]);
    check_modes!(squares_of_copy {}, squares_of_copy, [0.5, -1.5, 2.0]);
}
