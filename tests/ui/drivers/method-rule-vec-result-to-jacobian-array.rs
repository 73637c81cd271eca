// `jacobian_array` of a method returning a `Vec<f64>`: the array drivers need a result of
// a size known at compile time (`[f64; M]`); `jacobian` takes a `Vec`.
use fwdad::prelude::*;

#[derive(Clone, Debug, Differentiable)]
pub struct Arm {
    pub l1: f64,
    pub l2: f64,
}

#[derive_frule]
impl Arm {
    pub fn tip(&self, q: &[f64; 2]) -> Vec<f64> {
        let x = self.l1 * q[0].cos() + self.l2 * (q[0] + q[1]).cos();
        let y = self.l1 * q[0].sin() + self.l2 * (q[0] + q[1]).sin();
        vec![x, y]
    }
}

fn main() {
    let arm = Arm { l1: 1.0, l2: 0.5 };
    let q = [0.3, 0.2];
    let (_, j) = jacobian_array(bind(rule!(Arm::tip), (&arm, Wrt)), &q);
    println!("{j:?}");
}
