//! Qualified paths as users write them: a trait's constant (`<f64 as Scale>::K`), a
//! derived trait's method called through its trait (`<Vec3 as Norm>::norm(&v)`,
//! `<T as Norm>::norm(v)` in a generic function), and `Self::CONST` in an `impl`. Each
//! derivative against central differences in every mode (`check_modes!`), primals bit for
//! bit.
use fwdad::prelude::*;

mod common;

pub trait Scale {
    const K: f64;
}

impl Scale for f64 {
    const K: f64 = 2.5;
}

#[derive_frule]
fn scaled(x: &[f64]) -> f64 {
    let offset = <f64 as Default>::default() + 0.25;
    x[0] * <f64 as Scale>::K + (x[1] / <f64 as Scale>::K).sin() + offset * x[1]
}

#[derive_frule]
pub trait Norm {
    fn norm(&self) -> f64;
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Vec3 {
    x: f64,
    y: f64,
    z: f64,
}

#[derive_frule]
impl Norm for Vec3 {
    fn norm(&self) -> f64 {
        (self.x * self.x + self.y * self.y + self.z * self.z).sqrt()
    }
}

#[derive_frule]
fn twice_norm<T: Norm>(v: &T) -> f64 {
    <T as Norm>::norm(v) * 2.0
}

#[derive_frule]
fn qualified_norm(x: &[f64]) -> f64 {
    let v = Vec3 {
        x: x[0],
        y: x[1],
        z: x[2],
    };
    <Vec3 as Norm>::norm(&v) + twice_norm(&v) * x[0] - <Vec3>::norm(&v).powi(2)
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Spring {
    k: f64,
}

#[derive_frule]
impl Spring {
    const REST: f64 = 1.5;

    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * (x - Self::REST).powi(2)
    }
}

#[derive_frule]
fn spring_energy(x: &[f64]) -> f64 {
    let s = Spring { k: x[0] };
    s.energy(x[1])
}

#[test]
fn qualified_paths() {
    check_modes!(scaled {}, scaled, [0.7, 1.1]);
    check_modes!(qualified_norm {}, qualified_norm, [0.7, 1.1, -0.4]);
    check_modes!(spring_energy {}, spring_energy, [0.7, 1.1]);
}
