// A function path as the default of `unwrap_or_else` on a `Result`: the macro cannot see
// that the receiver is a `Result` and calls the default as `Option`'s form does, with no
// argument. Workaround: a closure taking the error, `unwrap_or_else(|e| on_error(e))`.
use fwdad::prelude::*;

#[derive_frule]
fn fall_time(h: f64, g: f64) -> Result<f64, String> {
    if h < 0.0 {
        return Err(String::from("below ground"));
    }
    Ok((2.0 * h / g).sqrt())
}

#[non_differentiable]
fn on_error(_e: String) -> f64 {
    0.0
}

#[derive_frule]
fn time_or_zero(h: f64, g: f64) -> f64 {
    fall_time(h, g).unwrap_or_else(on_error)
}

fn main() {}
