// A library constant whose scalar type the code does not write (`Matrix3::identity()`),
// scaled by an active scalar, is ambiguous in a derived body: the macro lifts it to the
// mode's duals without knowing it is an `f64` matrix. Write `Matrix3::<f64>::identity()`.
// (Next to an active matrix, `Matrix3::identity() + m`, the `f64` is inferred.)
use fwdad::prelude::*;
use nalgebra::{Matrix3, Vector3};

#[derive_frule]
fn scaled(s: f64, v: &Vector3<f64>) -> Vector3<f64> {
    let a = Matrix3::identity() * s;
    a * v
}

fn main() {}
