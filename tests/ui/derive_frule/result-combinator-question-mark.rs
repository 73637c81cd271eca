// `?` inside the closure of a `Result` combinator: the closure is inlined where it is
// called, so its `?` would leave the function rather than the closure. Workaround: `match`
// inside the closure, or `?` on the combinator's result.
use fwdad::prelude::*;

#[derive_frule]
fn fall_time(h: f64, g: f64) -> Result<f64, String> {
    if h < 0.0 {
        return Err(String::from("below ground"));
    }
    Ok((2.0 * h / g).sqrt())
}

#[derive_frule]
fn two_falls(h: f64, g: f64) -> Result<f64, String> {
    fall_time(h, g).and_then(|t| {
        let u = fall_time(2.0 * h, g)?;
        Ok(t + u)
    })
}

fn main() {}
