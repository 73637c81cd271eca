// A type alias the macro cannot read: `State` is defined twice in this file (a planar and a
// spatial state), so which one a function sees depends on its module, and the macro reads
// neither. `State` is then taken for a type of the user's, and the first error, at the
// operator, says to name the alias in `alias(..)` or write the library's name.
use fwdad::prelude::*;

mod planar {
    #[allow(dead_code)]
    pub type State = nalgebra::SVector<f64, 2>;
}

mod spatial {
    use fwdad::prelude::*;
    use nalgebra::SMatrix;

    pub type State = nalgebra::SVector<f64, 3>;
    pub type Cov = SMatrix<f64, 3, 3>;

    #[derive_frule]
    pub fn predict(x: &State, p: &Cov, v: f64, dt: f64) -> f64 {
        let th = x[2];
        let moved = State::new(x[0] + v * dt * th.cos(), x[1] + v * dt * th.sin(), th);
        (p * moved).norm()
    }
}

#[derive_frule]
fn unused(x: f64) -> f64 {
    x
}

fn main() {}
