// A type parameter bounded by a trait of the user's and `?Sized`, so that trait objects
// fit too (as library code writes `fn fit<M: Model + ?Sized>`): its methods' rules are
// the implementing type's, which a generic body cannot take from a trait object. Instead:
// `M: Model` for values of concrete types, and a `&dyn Model` parameter for trait objects.
use fwdad::prelude::*;

#[derive_frule]
pub trait Model {
    fn len(&self) -> usize;
    fn residual(&self, x: &[f64], out: &mut [f64]);
}

#[derive_frule]
pub fn fit<M: Model + ?Sized>(m: &M, x: &[f64]) -> f64 {
    let mut r = vec![0.1; m.len()];
    m.residual(x, &mut r);
    r.iter().map(|v| v * v).sum::<f64>()
}

#[derive_frule]
pub fn fit_where<M>(m: &M, x: &[f64]) -> f64
where
    M: Model + ?Sized,
{
    let mut r = vec![0.0; m.len()];
    m.residual(x, &mut r);
    r[0]
}

fn main() {}
