// keyframe 1.1.1's `impl<T: CanTween, const N: usize> CanTween for [T; N]` (`tests/
// keyframe_verbatim.rs`): an `impl` of a trait of your own for an array type.
use fwdad::prelude::*;

#[derive_frule]
pub trait CanTween {
    fn ease(from: Self, to: Self, time: f64) -> Self;
}

#[derive_frule]
impl CanTween for f64 {
    fn ease(from: Self, to: Self, time: f64) -> Self {
        from + (to - from) * time
    }
}

#[derive_frule]
impl<T: CanTween + Copy, const N: usize> CanTween for [T; N] {
    fn ease(from: Self, to: Self, time: f64) -> Self {
        core::array::from_fn(|i| T::ease(from[i], to[i], time))
    }
}

fn main() {}
