// A nalgebra vector over the generic float type (`SVector<T, N>` with `T: RealField`):
// the runtime lifts nalgebra values of `f64` only. The error at the type is the only one.
// (A function generic over the dimension alone, `SVector<f64, N>`, is supported:
// `tests/lib_nalgebra_generic.rs`.)
use fwdad::prelude::*;
use nalgebra::{RealField, SVector};

/// Kinetic energy `½ Σ mᵢ vᵢ²`, generic over the float type and the dimension.
#[derive_frule]
fn kinetic<T: RealField + Copy, const N: usize>(m: &SVector<T, N>, v: &SVector<T, N>) -> T {
    m.component_mul(v).dot(v) / T::from_f64(2.0).unwrap()
}

fn main() {}
