// `alias(..)` names type aliases for one free function; on an `impl` block (or a single
// method) it is rejected: write the library's name there.
use fwdad::prelude::*;
use nalgebra::SVector;

type State = SVector<f64, 3>;

#[derive(Clone, Copy)]
pub struct Filter {
    pub gain: f64,
}

#[derive_frule(alias(State = SVector<f64, 3>))]
impl Filter {
    pub fn correct(&self, x: &State, z: f64) -> f64 {
        x[0] + self.gain * (z - x[0])
    }
}

fn main() {}
