// A trait of one's own implemented for every type convertible into a colour (deltae's
// `impl<T: Into<LabValue>> Delta for T {}`): a blanket `impl` has no rules.
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Lab {
    pub l: f64,
    pub a: f64,
    pub b: f64,
}

#[derive_frule]
pub trait Delta: Into<Lab> {
    fn delta(self, other: Lab) -> f64 {
        let reference: Lab = self.into();
        ((reference.l - other.l).powi(2) + (reference.a - other.a).powi(2)).sqrt()
    }
}

#[derive_frule]
impl<T: Into<Lab>> Delta for T {}

fn main() {}
