// `successors` and `from_fn` are read as `scan`/`map_while` over `0..`, ended by a `take`
// right after them (or after `map`s), a `take_while`, or their own `None`; an index
// adaptor after them (`skip`, `enumerate`, `step_by`, a `take` after `filter`) is not.
// Instead: `take` first, and `skip` the first item in the closure or the loop.
use fwdad::prelude::*;

#[derive_frule]
fn tail_sum(r: f64) -> f64 {
    std::iter::successors(Some(1.0), |p| Some(p * r)).skip(1).take(5).sum()
}

fn main() {}
