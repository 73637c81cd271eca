// A library constant whose scalar type the code does not write (`Matrix3::identity()`,
// inferred from the sum in plain code) is ambiguous in a derived body: the macro lifts it
// to the mode's duals without knowing it is an `f64` matrix. Write `Matrix3::<f64>::identity()`.
use fwdad::prelude::*;
use nalgebra::{Matrix3, Vector3};

#[derive_frule]
fn shear(m: &Matrix3<f64>, v: &Vector3<f64>) -> Vector3<f64> {
    let a = Matrix3::identity() + m;
    a * v
}

fn main() {}
