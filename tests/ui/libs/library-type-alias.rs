// A type alias of a library type, as robotics code names its state and covariance
// (`type State = SVector<f64, 3>`): the macro recognises library types by their names and
// cannot see the alias, so `State` is taken for a type of the user's and its operators
// and constructor look for the user's rules. The first error is at the operator and says
// to write the library's name.
use fwdad::prelude::*;
use nalgebra::{SMatrix, SVector};

type State = SVector<f64, 3>;
type Cov = SMatrix<f64, 3, 3>;

#[derive_frule]
fn predict(x: &State, p: &Cov, v: f64, dt: f64) -> f64 {
    let th = x[2];
    let moved = State::new(x[0] + v * dt * th.cos(), x[1] + v * dt * th.sin(), th);
    (p * moved).norm()
}

fn main() {}
