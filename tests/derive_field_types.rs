//! Fields of the user's types read in operators (`-self.v`, `self.offset * 2.0`,
//! `self.center - p`): the macro reads the field's type from the file's struct, so a
//! field declared `v: V3` is a `V3` in the body. Written as users write them: an attitude
//! quaternion over a vector type of their own, a rigid transform, a sphere; plus fields
//! of an alias of `f64` and of a generic struct, which stay floats.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

#[derive(Debug, Clone, Copy, PartialEq, Differentiable)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        V3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}
#[derive_frule]
impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}
#[derive_frule]
impl Neg for V3 {
    type Output = V3;
    fn neg(self) -> V3 {
        V3 {
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }
}
#[derive_frule]
impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, s: f64) -> V3 {
        V3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

#[derive_frule]
impl V3 {
    pub fn dot(&self, o: &V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    pub fn cross(&self, o: &V3) -> V3 {
        V3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }
    pub fn norm(&self) -> f64 {
        self.dot(self).sqrt()
    }
}

#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Quat {
    pub w: f64,
    pub v: V3,
}

#[derive_frule]
impl Mul for Quat {
    type Output = Quat;
    fn mul(self, q: Quat) -> Quat {
        Quat {
            w: self.w * q.w - self.v.dot(&q.v),
            v: q.v * self.w + self.v * q.w + self.v.cross(&q.v),
        }
    }
}

#[derive_frule]
impl Quat {
    pub fn from_rotation_vector(r: V3) -> Quat {
        let angle = r.norm();
        if angle < 1e-12 {
            return Quat { w: 1.0, v: r * 0.5 };
        }
        let half = 0.5 * angle;
        Quat {
            w: half.cos(),
            v: r * (half.sin() / angle),
        }
    }
    /// The conjugate: the field `v` negated by `V3`'s `Neg`.
    pub fn conj(&self) -> Quat {
        Quat {
            w: self.w,
            v: -self.v,
        }
    }
    pub fn rotate(&self, p: V3) -> V3 {
        let pq = Quat { w: 0.0, v: p };
        (*self * pq * self.conj()).v
    }
}

/// A rigid transform: rotation then translation; its inverse negates the offset.
#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Pose {
    pub rot: Quat,
    pub offset: V3,
}

#[derive_frule]
impl Pose {
    pub fn apply(&self, p: V3) -> V3 {
        self.rot.rotate(p) + self.offset
    }
    pub fn inverse_apply(&self, p: V3) -> V3 {
        self.rot.conj().rotate(p + -self.offset)
    }
    /// The offset doubled by a literal factor (a field of a user type beside a literal).
    pub fn doubled(&self) -> V3 {
        self.offset * 2.0
    }
}

#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Sphere {
    pub center: V3,
    pub radius: f64,
}

#[derive_frule]
impl Sphere {
    pub fn sdf(&self, p: V3) -> f64 {
        (p - self.center).norm() - self.radius
    }
    /// The point of the surface nearest `p`, from the centre towards `p`.
    pub fn nearest(&self, p: V3) -> V3 {
        let d = self.center - p;
        -d * (self.radius / d.norm()) + self.center
    }
}

/// Angles (rotation vector, 3) and offset (3), applied and undone; a point moved.
#[derive_frule]
fn round_trip(q: &[f64; 6], p: &[f64; 3]) -> [f64; 3] {
    let pose = Pose {
        rot: Quat::from_rotation_vector(V3 {
            x: q[0],
            y: q[1],
            z: q[2],
        }),
        offset: V3 {
            x: q[3],
            y: q[4],
            z: q[5],
        },
    };
    let a = pose.apply(V3 {
        x: p[0],
        y: p[1],
        z: p[2],
    });
    let b = pose.inverse_apply(a + pose.doubled());
    [b.x, b.y, b.z]
}

#[derive_frule]
fn nearest_distance(s: &[f64; 4], p: &[f64; 3]) -> f64 {
    let sphere = Sphere {
        center: V3 {
            x: s[0],
            y: s[1],
            z: s[2],
        },
        radius: s[3],
    };
    let q = V3 {
        x: p[0],
        y: p[1],
        z: p[2],
    };
    let n = sphere.nearest(q);
    sphere.sdf(q) + (n - q).norm()
}

#[derive_frule]
impl AddAssign for V3 {
    fn add_assign(&mut self, o: V3) {
        self.x += o.x;
        self.y += o.y;
        self.z += o.z;
    }
}

/// Bodies on springs to the origin, as an N-body code writes them.
#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Body {
    pub pos: V3,
    pub vel: V3,
}

#[derive_frule]
fn accelerations(bodies: &[Body], k: f64) -> Vec<V3> {
    bodies.iter().map(|b| b.pos * -k).collect()
}

/// Velocity Verlet: the accelerations are what a function returned, bound without their
/// type, and the step a local bound to a literal (`b.vel += *a * (0.5 * dt)`).
#[derive_frule]
fn verlet(bodies: &mut [Body], k: f64, steps: usize) {
    let dt = 0.01;
    for _ in 0..steps {
        let acc = accelerations(bodies, k);
        for (b, a) in bodies.iter_mut().zip(&acc) {
            b.vel += *a * (0.5 * dt);
            b.pos += b.vel * dt;
        }
        let acc = accelerations(bodies, k);
        for (b, a) in bodies.iter_mut().zip(&acc) {
            b.vel += *a * (0.5 * dt);
        }
    }
}

#[derive_frule]
fn final_height(k: f64, z0: f64) -> f64 {
    let mut bodies = vec![
        Body {
            pos: V3 {
                x: 1.0,
                y: 0.0,
                z: z0,
            },
            vel: V3 {
                x: 0.0,
                y: 0.5,
                z: 0.0,
            },
        },
        Body {
            pos: V3 {
                x: 0.0,
                y: 2.0,
                z: 0.0,
            },
            vel: V3 {
                x: 0.1,
                y: 0.0,
                z: 0.3,
            },
        },
    ];
    verlet(&mut bodies, k, 100);
    bodies[0].pos.z + 0.5 * bodies[1].vel.z
}

type Real = f64;

/// A field declared with an alias of `f64` stays a float: negated, a method called.
#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Spring {
    pub stiffness: Real,
    pub rest: Real,
}

#[derive_frule]
impl Spring {
    pub fn force(&self, x: f64) -> f64 {
        -self.stiffness * (x - self.rest) + self.rest.sqrt() * 0.0
    }
}

/// A generic struct's field of the parameter's type stays what the parameter is.
#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Gain<T> {
    pub k: T,
}

#[derive_frule]
fn spring_and_gain(x: f64, k: f64) -> f64 {
    let s = Spring {
        stiffness: k,
        rest: 0.5,
    };
    let g = Gain { k: 2.0 * k };
    s.force(x) + -g.k * x
}

fn central<const N: usize, const M: usize>(
    f: impl Fn(&[f64; N]) -> [f64; M],
    x: &[f64; N],
) -> [[f64; N]; M] {
    let mut j = [[0.0; N]; M];
    for k in 0..N {
        let h = 1e-6 * x[k].abs().max(1.0);
        let mut a = *x;
        let mut b = *x;
        a[k] += h;
        b[k] -= h;
        let (fa, fb) = (f(&a), f(&b));
        for i in 0..M {
            j[i][k] = (fa[i] - fb[i]) / (2.0 * h);
        }
    }
    j
}

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: got {got}, want {want}"
    );
}

#[test]
fn quaternion_conjugate_through_a_negated_field() {
    let q = [0.3, -0.2, 0.5, 1.0, -2.0, 0.25];
    let p = [0.7, 0.1, -0.4];
    // Undoing the pose of a point moved by twice the offset leaves p + R⁻¹(2t)...
    // closed form: b = R⁻¹(R p + t + 2t - t) = p + 2 R⁻¹ t; check primal bit for bit and
    // the Jacobian against central differences.
    let (y, j) = jacobian_array(bind(round_trip {}, (Wrt, &p)), &q);
    assert_eq!(y, round_trip(&q, &p));
    let want = central(|q| round_trip(q, &p), &q);
    for i in 0..3 {
        for k in 0..6 {
            assert_close(j[i][k], want[i][k], 1e-6, &format!("J[{i}][{k}]"));
        }
    }
    // With no rotation, b = p + 2t: dy/dt = 2 I.
    let q0 = [0.0, 0.0, 0.0, 1.0, -2.0, 0.25];
    let (_, j0) = jacobian_array(bind(round_trip {}, (Wrt, &p)), &q0);
    for i in 0..3 {
        for k in 0..3 {
            assert_close(j0[i][3 + k], if i == k { 2.0 } else { 0.0 }, 1e-12, "dt");
        }
    }
}

#[test]
fn quaternion_round_trip_batched() {
    let q = [0.1, 0.4, -0.3, 0.5, 0.5, -1.0];
    let p = [1.0, 2.0, 3.0];
    let (y1, j1) = jacobian_array(bind(round_trip {}, (Wrt, &p)), &q);
    let (y2, j2) = jacobian(bind(round_trip {}, (Wrt, &p)), &q);
    assert_eq!(y1.to_vec(), y2);
    for i in 0..3 {
        for k in 0..6 {
            assert_eq!(j1[i][k].to_bits(), j2[i][k].to_bits(), "J[{i}][{k}]");
        }
    }
}

#[test]
fn sphere_nearest_point_through_negated_difference() {
    let s = [0.5, -0.25, 1.0, 0.8];
    let p = [2.0, 1.0, -0.5];
    let (v, g) = gradient(bind(nearest_distance {}, (Wrt, &p)), &s);
    assert_eq!(v.to_bits(), nearest_distance(&s, &p).to_bits());
    // sdf = |p - c| - r and |n - p| = |p - c| - r too (p outside): v = 2(|p - c| - r).
    let d = [p[0] - s[0], p[1] - s[1], p[2] - s[2]];
    let dist = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    assert_close(v, 2.0 * (dist - s[3]), 1e-12, "value");
    for k in 0..3 {
        assert_close(g[k], -2.0 * d[k] / dist, 1e-10, "d/dc");
    }
    assert_close(g[3], -2.0, 1e-10, "d/dr");
    let (_, _, h) = hessian(bind(nearest_distance {}, (Wrt, &p)), &s);
    // d²/dc_i dc_k of 2|p - c| = 2 (δ_ik - u_i u_k) / |p - c|
    for i in 0..3 {
        for k in 0..3 {
            let want = 2.0 * ((i == k) as i32 as f64 - d[i] * d[k] / (dist * dist)) / dist;
            assert_close(h[i][k], want, 1e-8, "hessian");
        }
    }
}

#[test]
fn alias_and_generic_fields_stay_floats() {
    let (v, d) = derivative(bind(spring_and_gain {}, (Wrt, 3.0)), 1.5);
    assert_eq!(v.to_bits(), spring_and_gain(1.5, 3.0).to_bits());
    // -k (x - 0.5) - 2k x: d/dx = -3k
    assert_close(d, -9.0, 1e-14, "d/dx");
    let (_, dk) = derivative(bind(spring_and_gain {}, (1.5, Wrt)), 3.0);
    assert_close(dk, -(1.5 - 0.5) - 2.0 * 1.5, 1e-14, "d/dk");
}

#[test]
fn verlet_with_accelerations_from_a_function() {
    let (k, z0) = (2.0, 0.4);
    let (v, g) = gradient(bind(final_height {}, (Var(0), Var(1))), &[k, z0]);
    assert_eq!(v.to_bits(), final_height(k, z0).to_bits());
    let h = 1e-6;
    let dk = (final_height(k + h, z0) - final_height(k - h, z0)) / (2.0 * h);
    let dz = (final_height(k, z0 + h) - final_height(k, z0 - h)) / (2.0 * h);
    assert_close(g[0], dk, 1e-7, "d/dk");
    assert_close(g[1], dz, 1e-7, "d/dz0");
    // The z motions are linear in z0 (body 0) and independent of it (body 1).
    assert_close(
        g[1],
        final_height(k, 1.0) - final_height(k, 0.0),
        1e-9,
        "linear in z0",
    );
}
