// `map` with a closure on a `Result`: `Option`'s combinators are written out as a `match`
// on `Some`/`None`, so a `Result` does not fit. Workaround: `match` the `Result`.
use fwdad::prelude::*;

#[derive_frule]
fn checked_sqrt(x: f64) -> f64 {
    let r: Result<f64, ()> = if x >= 0.0 { Ok(x) } else { Err(()) };
    r.map(|v| v.sqrt()).unwrap_or(0.0)
}

fn main() {}
