//! Operators on the user's own types (issue #27, item 1): `#[derive_frule]` on
//! `impl Add/Sub/Mul/Div/Neg/AddAssign for Vec3` and `impl Mul<Vec3> for f64`, used as
//! `a + b`, `-a`, `k * v`, `p[i] += v[i] * dt` in derived bodies. A particle simulation
//! (velocity Verlet over `&mut [Vec3]`, kinetic and pairwise potential energy, angular
//! momentum with a cross product), written as a physicist writes it, differentiated in
//! one direction, in batches (`gradient`, `jacobian`) and at second order (`hessian`),
//! against central finite differences of the plain functions, with primals bit for bit.
use fwdad::prelude::*;
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Vec3 {
    pub fn new(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3 { x, y, z }
    }

    pub fn dot(&self, o: Vec3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    pub fn cross(&self, o: Vec3) -> Vec3 {
        Vec3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }

    pub fn length(&self) -> f64 {
        self.dot(*self).sqrt()
    }
}

#[derive_frule]
impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

#[derive_frule]
impl Sub for Vec3 {
    type Output = Self;
    fn sub(self, o: Self) -> Self::Output {
        Vec3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

#[derive_frule]
impl Mul<f64> for Vec3 {
    type Output = Vec3;
    fn mul(self, k: f64) -> Vec3 {
        Vec3 {
            x: self.x * k,
            y: self.y * k,
            z: self.z * k,
        }
    }
}

#[derive_frule]
impl Mul<Vec3> for f64 {
    type Output = Vec3;
    fn mul(self, v: Vec3) -> Vec3 {
        Vec3 {
            x: self * v.x,
            y: self * v.y,
            z: self * v.z,
        }
    }
}

#[derive_frule]
impl Div<f64> for Vec3 {
    type Output = Vec3;
    fn div(self, k: f64) -> Vec3 {
        Vec3 {
            x: self.x / k,
            y: self.y / k,
            z: self.z / k,
        }
    }
}

#[derive_frule]
impl Neg for Vec3 {
    type Output = Vec3;
    fn neg(self) -> Vec3 {
        Vec3 {
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }
}

#[derive_frule]
impl AddAssign for Vec3 {
    fn add_assign(&mut self, o: Vec3) {
        self.x += o.x;
        self.y += o.y;
        self.z += o.z;
    }
}

#[derive_frule]
impl SubAssign for Vec3 {
    fn sub_assign(&mut self, o: Vec3) {
        self.x -= o.x;
        self.y -= o.y;
        self.z -= o.z;
    }
}

/// Midpoint of two points, scaled: every binary operator once.
#[derive_frule]
fn midpoint_offset(a: Vec3, b: Vec3, k: f64) -> f64 {
    let m = (a + b) / 2.0;
    let d = -(a - m) * k + k * b;
    d.dot(m)
}

#[test]
fn operators_on_owned_values() {
    let a = Vec3::new(0.3, -1.2, 0.7);
    let b = Vec3::new(1.1, 0.4, -0.5);
    let k = 1.7;
    let y = midpoint_offset(a, b, k);
    let r = midpoint_offset_frule(
        Dual::new(
            a,
            Vec3Tangent {
                x: 1.0,
                y: 0.0,
                z: 0.0,
            },
        ),
        Dual::new(
            b,
            Vec3Tangent {
                x: 0.0,
                y: 0.0,
                z: 0.0,
            },
        ),
        Dual::new(k, 0.0),
    );
    assert_eq!(r.primal.to_bits(), y.to_bits());
    let h = 1e-6;
    let fd = (midpoint_offset(Vec3::new(a.x + h, a.y, a.z), b, k)
        - midpoint_offset(Vec3::new(a.x - h, a.y, a.z), b, k))
        / (2.0 * h);
    assert!((r.tangent - fd).abs() < 1e-8, "{} vs {fd}", r.tangent);
}
