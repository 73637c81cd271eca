// A float reached through an associated type the macro cannot see declared as a float:
// the trait declares `type Scalar;` without a float bound (as another crate's trait may).
// Instead: `where M::Scalar: Float` on the function.
use fwdad::prelude::*;
use num_traits::Zero;

#[derive_frule]
pub trait Model {
    type Scalar;
    fn response(&self, x: Self::Scalar) -> Self::Scalar;
}

#[derive_frule]
pub fn sse<M: Model>(m: &M, xs: &[M::Scalar], ys: &[M::Scalar]) -> M::Scalar
where
    M::Scalar: Zero + Copy + core::ops::Sub<Output = M::Scalar> + core::ops::Mul<Output = M::Scalar>,
{
    let mut s = M::Scalar::zero();
    for i in 0..xs.len() {
        let r = m.response(xs[i]) - ys[i];
        s = s + r * r;
    }
    s
}

fn main() {}
