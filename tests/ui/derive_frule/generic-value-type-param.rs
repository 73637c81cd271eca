// splines 5.0.0's `impl<T, V> Spline<T, V>`, sampling keys whose values are of any type
// `V: Interpolate<T>` (a float, a vector, a colour) at a time of any type `T:
// Interpolator`: a type parameter of a derived function is taken to be a float type, and
// a value type bounded by a trait of yours is not one. Instead: write the function for
// the value type you differentiate (`keys: &[f64]`), or keep the generic code plain and
// call the trait's derived `impl` for that type (`<f64 as Blend>::lerp(..)`:
// `tests/splines_verbatim.rs`).
use fwdad::prelude::*;

#[derive_frule]
pub trait Blend: Copy {
    fn lerp(t: f64, a: Self, b: Self) -> Self;
}

#[derive_frule]
impl Blend for f64 {
    fn lerp(t: f64, a: Self, b: Self) -> Self {
        a * (1. - t) + b * t
    }
}

#[derive_frule]
fn segment<V: Blend>(keys: &[V], t: f64) -> V {
    let i = t.floor() as usize;
    V::lerp(t - i as f64, keys[i], keys[i + 1])
}

#[derive_frule]
fn sample<V: Blend>(keys: &[V], t: f64) -> V {
    let t = t.clamp(0.0, (keys.len() - 1) as f64 - 1e-9);
    segment(keys, t)
}

fn main() {}
