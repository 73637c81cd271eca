use fwdad::prelude::*;

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Acc {
    pub s: f64,
}

#[derive_frule]
impl Acc {
    pub fn add(&mut self, v: f64) {
        self.s += v * v;
    }
}

// `a[0].add(x)` would write into a copy if the element were read by value; it is borrowed,
// and a `&mut self` method asks for the path form.
#[derive_frule]
fn f(x: f64) -> f64 {
    let mut a = [Acc { s: 1.0 }, Acc { s: 2.0 }];
    a[0].add(x);
    a[0].s
}

fn main() {}
