//! Methods called through `dyn` trait objects that take or return `f32`, the user's enums
//! and library values (`fn eval(&self, p: Vector3<f64>) -> f64` through `&dyn Field`),
//! each against central differences of the plain functions in every mode, primal bit for
//! bit.

mod common;

use fwdad::prelude::*;
use glam::DVec3;
use nalgebra::{UnitQuaternion, Vector3};
use ndarray::Array1;
use num_complex::Complex;

// --- A scalar field of a point, behind `&dyn Field` ---------------------------------------

#[derive_frule]
pub trait Field {
    fn eval(&self, p: Vector3<f64>) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Gaussian {
    pub width: f64,
}

#[derive_frule]
impl Field for Gaussian {
    fn eval(&self, p: Vector3<f64>) -> f64 {
        (-p.norm_squared() / (2.0 * self.width * self.width)).exp()
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Plane {
    pub nz: f64,
}

#[derive_frule]
impl Field for Plane {
    fn eval(&self, p: Vector3<f64>) -> f64 {
        p.z * self.nz + p.x * p.y
    }
}

#[derive_frule]
fn sample(field: &dyn Field, x: &[f64]) -> f64 {
    let p = Vector3::new(x[0], x[1], x[2]);
    field.eval(p)
}

#[test]
fn field_of_a_point_through_dyn() {
    let x = [0.3, -0.7, 1.1];
    for f in [&Gaussian { width: 1.3 } as &dyn Field, &Plane { nz: 0.8 }] {
        check_modes!(bind(sample {}, (f, Wrt)), |x: &[f64]| sample(f, x), x);
    }
}

// --- f32 arguments and results -------------------------------------------------------------

#[derive_frule]
pub trait Sensor {
    fn read(&self, t: f32) -> f32;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Thermistor {
    pub beta: f32,
}

#[derive_frule]
impl Sensor for Thermistor {
    fn read(&self, t: f32) -> f32 {
        (self.beta * t).tanh() + t * t
    }
}

#[derive_frule]
fn reading(s: &dyn Sensor, x: &[f64]) -> f64 {
    let r = s.read(x[0] as f32);
    r as f64 * x[1]
}

/// The same reading at second order and in batches: the `f32` lanes widened and narrowed
/// back.
#[test]
fn f32_through_dyn_every_mode() {
    let s = Thermistor { beta: 0.7 };
    let plain = |x: &[f64]| reading(&s, x);
    // `f32` arithmetic inside: central differences of the plain function at a step the
    // `f32` rounding does not swamp.
    let x = [0.4, 1.3];
    let y = plain(&x);
    let t = x[0] as f32;
    let dr = (s.beta * (1.0 - (s.beta * t).tanh().powi(2)) + 2.0 * t) as f64;
    let d2r = (-2.0 * s.beta * s.beta * (s.beta * t).tanh() * (1.0 - (s.beta * t).tanh().powi(2))
        + 2.0) as f64;
    let r = ((s.beta * t).tanh() + t * t) as f64;
    let (v, g) = fwdad::drivers::gradient_with::<4>(bind(reading {}, (&s as &dyn Sensor, Wrt)), &x);
    assert_eq!(v.to_bits(), y.to_bits());
    assert!((g[0] - dr * x[1]).abs() < 1e-5 && g[1] == r);
    let (v, _, h) = hessian(bind(reading {}, (&s as &dyn Sensor, Wrt)), &x);
    assert_eq!(v.to_bits(), y.to_bits());
    assert!(
        (h[(0, 0)] - d2r * x[1]).abs() < 1e-4,
        "{} {}",
        h[(0, 0)],
        d2r * x[1]
    );
    assert!((h[(0, 1)] - dr).abs() < 1e-5 && (h[(1, 0)] - dr).abs() < 1e-5);
    assert_eq!(h[(1, 1)], 0.0);
}

#[test]
fn f32_through_dyn() {
    let s = Thermistor { beta: 0.7 };
    let x = [0.4, 1.3];
    let (v, g) = gradient(bind(reading {}, (&s as &dyn Sensor, Wrt)), &x);
    assert_eq!(v.to_bits(), reading(&s, &x).to_bits());
    let t = x[0] as f32;
    let r = (s.beta * t).tanh() + t * t;
    let dr = s.beta * (1.0 - (s.beta * t).tanh().powi(2)) + 2.0 * t;
    assert!((g[0] - dr as f64 * x[1]).abs() < 1e-5, "{} {}", g[0], dr);
    assert_eq!(g[1], r as f64);
}

// --- The user's enums ---------------------------------------------------------------------

#[derive(Clone, Copy, Debug, Differentiable)]
pub enum Load {
    Point { f: f64 },
    Spread { w: f64, len: f64 },
}

#[derive_frule]
pub trait Beam {
    fn deflection(&self, load: Load) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Cantilever {
    pub stiffness: f64,
}

#[derive_frule]
impl Beam for Cantilever {
    fn deflection(&self, load: Load) -> f64 {
        match load {
            Load::Point { f } => f / (3.0 * self.stiffness),
            Load::Spread { w, len } => w * len / (8.0 * self.stiffness),
        }
    }
}

#[derive_frule]
fn sag(beam: &dyn Beam, x: &[f64]) -> f64 {
    let a = beam.deflection(Load::Point { f: x[0] });
    let b = beam.deflection(Load::Spread {
        w: x[1],
        len: x[0] * x[1],
    });
    a + b * b
}

#[test]
fn enums_through_dyn() {
    let c = Cantilever { stiffness: 2.5 };
    let x = [0.9, 1.4];
    check_modes!(
        bind(sag {}, (&c as &dyn Beam, Wrt)),
        |x: &[f64]| sag(&c, x),
        x
    );
}

// --- Library values in and out: a gradient field, glam, ndarray, Complex, rotations -------

/// What a potential gives a particle: its value and its force, both through `dyn`.
#[derive_frule]
pub trait Potential {
    fn energy(&self, p: &Vector3<f64>) -> f64;
    fn force(&self, p: &Vector3<f64>) -> Vector3<f64>;
    fn energy_glam(&self, p: DVec3) -> f64;
    fn spread(&self, w: &Array1<f64>) -> Array1<f64>;
    fn phase(&self, z: Complex<f64>) -> Complex<f64>;
    fn turn(&self, q: &UnitQuaternion<f64>, v: &Vector3<f64>) -> Vector3<f64>;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Harmonic {
    pub k: f64,
}

#[derive_frule]
impl Potential for Harmonic {
    fn energy(&self, p: &Vector3<f64>) -> f64 {
        0.5 * self.k * p.norm_squared()
    }
    fn force(&self, p: &Vector3<f64>) -> Vector3<f64> {
        -self.k * p
    }
    fn energy_glam(&self, p: DVec3) -> f64 {
        0.5 * self.k * p.length_squared()
    }
    fn spread(&self, w: &Array1<f64>) -> Array1<f64> {
        w.mapv(|v| (self.k * v).sin())
    }
    fn phase(&self, z: Complex<f64>) -> Complex<f64> {
        (z * self.k).exp()
    }
    fn turn(&self, q: &UnitQuaternion<f64>, v: &Vector3<f64>) -> Vector3<f64> {
        q * v * self.k
    }
}

#[derive_frule]
fn work(pot: &dyn Potential, x: &[f64]) -> f64 {
    let p = Vector3::new(x[0], x[1], x[2]);
    let f: Vector3<f64> = pot.force(&p);
    let g = DVec3::new(x[2], x[0], x[1]);
    let w = Array1::from_vec(vec![x[0], x[1] * x[2]]);
    let s: Array1<f64> = pot.spread(&w);
    let z: Complex<f64> = pot.phase(Complex::new(x[0], x[1]));
    let q = UnitQuaternion::from_euler_angles(x[0], 0.3, x[2]);
    let r: Vector3<f64> = pot.turn(&q, &p);
    pot.energy(&p) + f.dot(&p) * x[1] + pot.energy_glam(g) * s.sum() + z.norm() + r.x * r.z
}

#[test]
fn library_values_in_and_out_through_dyn() {
    let h = Harmonic { k: 1.7 };
    let x = [0.3, -0.4, 0.9];
    check_modes!(
        bind(work {}, (&h as &dyn Potential, Wrt)),
        |x: &[f64]| work(&h, x),
        x
    );
}
