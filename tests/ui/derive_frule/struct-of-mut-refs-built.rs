// splines 5.0.0's `Spline::get_mut`, lending a key's value and interpolation mode through a
// struct of `&mut` references, `KeyMut<'a, T, V> { value: &'a mut V, interpolation: &'a mut
// Interpolation<T, V> }`, built in a closure from `Vec::get_mut`'s element: the struct's
// derived tangent does not make a built value of it a dual (its fields are borrows of
// the rule's values and their tangents, which the struct literal cannot pair). Written
// `Option<KeyMut>` (the lifetime elided in the path, as splines writes it), the first error
// is rustc's `missing lifetime specifier` (E0106) in the rule's signature: write
// `Option<KeyMut<'_>>`. Instead: write through the element itself (`if let Some(v) =
// self.0.get_mut(i) { *v += x; }`), or return the index.
use fwdad::prelude::*;

#[derive(Clone, Debug, Differentiable)]
pub struct Track(Vec<f64>);

#[derive(Debug, Differentiable)]
pub struct KeyMut<'a> {
    pub value: &'a mut f64,
}

#[derive_frule]
impl Track {
    pub fn get_mut(&mut self, index: usize) -> Option<KeyMut<'_>> {
        self.0.get_mut(index).map(|v| KeyMut { value: v })
    }
}

fn main() {}
