// A `&mut` argument whose type holds floats without spelling `f64` (a struct, an alias):
// its tangent is checked to hold no float, at the argument's type.
use fwdad::prelude::*;

#[derive(Differentiable, Clone)]
pub struct State {
    pub k: f64,
    pub n: usize,
}

#[non_differentiable]
fn bump(s: &mut State) -> usize {
    s.k *= 2.0;
    s.n += 1;
    s.n
}

type Buf = [f64; 1];

#[non_differentiable]
fn double(b: &mut Buf, count: &mut Vec<usize>) {
    b[0] *= 2.0;
    count.push(1);
}

// A `&mut` inside a tuple or an `Option`.
#[non_differentiable]
fn nested(p: (&mut f64, u32), o: Option<&mut [f64]>) {
    *p.0 *= 2.0;
    if let Some(v) = o {
        v[0] = 1.0;
    }
}

fn main() {}
