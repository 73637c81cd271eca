// The drivers' traits only name bounds (what `gradient`, `jacobian` and `bind` accept);
// they are sealed, so a result type or a `bind` argument of your own cannot join them.
use fwdad::drivers::{Fits, FlatOutput, SliceRule};
use fwdad::Dual;

struct Forces(Vec<f64>);

impl FlatOutput<f64> for Forces {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn value(&self, i: usize) -> f64 {
        self.0[i]
    }
    fn tangent(&self, _: usize) -> f64 {
        0.0
    }
}

struct Mask;

impl Fits<Dual<f64>> for Mask {}

// A rule of one slice argument is any `#[derive_frule]` handle: there is nothing to
// implement by hand.
struct Norm;

impl SliceRule<f64> for Norm {
    type Output = Dual<f64>;
    fn eval(&self, x: &[f64], dx: &[f64]) -> Dual<f64> {
        let n = x.iter().map(|v| v * v).sum::<f64>().sqrt();
        let dn = x.iter().zip(dx).map(|(v, d)| v * d).sum::<f64>() / n;
        Dual::new(n, dn)
    }
}

fn main() {}
