//! Trait objects built in a derived body from values that depend on the inputs carry
//! their derivatives: a scene of signed distance functions boxed from the function's
//! parameters (`let shapes: Vec<Box<dyn Sdf>> = vec![Box::new(Sphere { r }), ..]`) and
//! walked by `iter().map(..).fold(..)`, a smooth union of such a scene, one shape borrowed
//! as `&dyn Sdf` from its box, and a planar robot arm whose joints are a
//! `Vec<Box<dyn Joint>>` built from its link lengths. Written as a graphics programmer and
//! a roboticist write them, checked in one direction, in batches and at second order
//! against central differences of the plain functions and against closed forms, each
//! primal bit for bit.

mod common;

use fwdad::prelude::*;

/// A signed distance function.
#[derive_frule]
pub trait Sdf {
    fn dist(&self, p: [f64; 3]) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Sphere {
    pub r: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Plane {
    pub h: f64,
}

/// A sphere of radius `r` around `c`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Ball {
    pub c: [f64; 3],
    pub r: f64,
}

#[derive_frule]
impl Sdf for Sphere {
    fn dist(&self, p: [f64; 3]) -> f64 {
        (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt() - self.r
    }
}

#[derive_frule]
impl Sdf for Plane {
    fn dist(&self, p: [f64; 3]) -> f64 {
        p[2] - self.h
    }
}

#[derive_frule]
impl Sdf for Ball {
    fn dist(&self, p: [f64; 3]) -> f64 {
        let d = [p[0] - self.c[0], p[1] - self.c[1], p[2] - self.c[2]];
        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() - self.r
    }
}

/// The distance to the nearest of a sphere of radius `r` and a floor at height `h`.
#[derive_frule]
pub fn scene(r: f64, h: f64, p: [f64; 3]) -> f64 {
    let shapes: Vec<Box<dyn Sdf>> = vec![Box::new(Sphere { r }), Box::new(Plane { h })];
    shapes
        .iter()
        .map(|s| s.dist(p))
        .fold(f64::INFINITY, f64::min)
}

/// A blobby scene: two balls and a floor, blended by an exponential smooth minimum of
/// sharpness `k`. The balls' centres and radii are the parameters.
#[derive_frule]
pub fn blobs(x: &[f64], p: [f64; 3], k: f64) -> f64 {
    let shapes: Vec<Box<dyn Sdf>> = vec![
        Box::new(Ball {
            c: [x[0], x[1], 0.5],
            r: x[2],
        }),
        Box::new(Ball {
            c: [x[3], 0.2, x[4]],
            r: 0.4,
        }),
        Box::new(Plane { h: -0.3 }),
    ];
    let s: f64 = shapes.iter().map(|s| (-k * s.dist(p)).exp()).sum();
    -s.ln() / k
}

/// The nearest distance in a scene passed by reference, as a renderer's marcher reads it.
#[derive_frule]
pub fn nearest(shapes: &[Box<dyn Sdf>], p: [f64; 3]) -> f64 {
    let mut d = f64::INFINITY;
    for s in shapes {
        d = d.min(s.dist(p));
    }
    d
}

/// A scene built here and handed on to functions over the boxes.
#[derive_frule]
pub fn handed_on(x: &[f64], p: [f64; 3]) -> f64 {
    let shapes: Vec<Box<dyn Sdf>> = vec![
        Box::new(Sphere { r: x[0] }),
        Box::new(Ball {
            c: [x[1], 0.0, 0.0],
            r: 0.5 * x[0],
        }),
    ];
    nearest(&shapes, p) + 0.25 * nearest(&shapes[1..], p)
}

/// A planar joint: moves the pose `(x, y, θ)` of the link's start to its end.
#[derive_frule]
pub trait Joint: std::fmt::Debug {
    fn advance(&self, pose: [f64; 3], q: f64) -> [f64; 3];
}

/// A revolute joint turning by `q`, then a link of length `len`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Revolute {
    pub len: f64,
}

/// A prismatic joint sliding by `q` along the link, from an offset `base`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Prismatic {
    pub base: f64,
}

#[derive_frule]
impl Joint for Revolute {
    fn advance(&self, pose: [f64; 3], q: f64) -> [f64; 3] {
        let th = pose[2] + q;
        [
            pose[0] + self.len * th.cos(),
            pose[1] + self.len * th.sin(),
            th,
        ]
    }
}

#[derive_frule]
impl Joint for Prismatic {
    fn advance(&self, pose: [f64; 3], q: f64) -> [f64; 3] {
        let d = self.base + q;
        [
            pose[0] + d * pose[2].cos(),
            pose[1] + d * pose[2].sin(),
            pose[2],
        ]
    }
}

/// The squared distance from an RRP-R arm's tip to a target, for the joint values `q` and
/// the link lengths `l`: `x = [q0, q1, q2, q3, l0, l1, l2]`.
#[derive_frule]
pub fn tip_error(x: &[f64], target: [f64; 2]) -> f64 {
    let (q, l) = x.split_at(4);
    let joints: Vec<Box<dyn Joint>> = vec![
        Box::new(Revolute { len: l[0] }),
        Box::new(Revolute { len: l[1] }),
        Box::new(Prismatic { base: 0.1 }),
        Box::new(Revolute { len: l[2] }),
    ];
    let mut pose = [0.0, 0.0, 0.0];
    for (j, qi) in joints.iter().zip(q) {
        pose = j.advance(pose, *qi);
    }
    let (ex, ey) = (pose[0] - target[0], pose[1] - target[1]);
    ex * ex + ey * ey
}

/// A scene assembled shape by shape, as a level loader does: a ball per `(x, r)` pair of
/// the parameters, and a floor.
#[derive_frule]
pub fn assembled(params: &[f64], p: [f64; 3]) -> f64 {
    let mut shapes: Vec<Box<dyn Sdf>> = Vec::new();
    for i in 0..params.len() / 2 {
        shapes.push(Box::new(Ball {
            c: [params[2 * i], 0.0, 0.0],
            r: params[2 * i + 1],
        }));
    }
    shapes.push(Box::new(Plane { h: -1.0 }));
    nearest(&shapes, p)
}

/// One shape boxed by a typed `let`: the squared distance, as a soft contact penalty.
#[derive_frule]
pub fn penalty(r: f64, p: [f64; 3]) -> f64 {
    let b: Box<dyn Sdf> = Box::new(Sphere { r });
    let d = b.dist(p);
    d * d
}

/// A two-link arm whose joints are an array of boxes that may cross threads: the product
/// of the tip's coordinates, `x = [q0, q1, l0, l1]`.
#[derive_frule]
pub fn two_link(x: &[f64]) -> f64 {
    let arm: [Box<dyn Joint + Send>; 2] = [
        Box::new(Revolute { len: x[2] }),
        Box::new(Revolute { len: x[3] }),
    ];
    let mut pose = [0.0; 3];
    for (j, q) in arm.iter().zip(&x[..2]) {
        pose = j.advance(pose, *q);
    }
    pose[0] * pose[1]
}

#[test]
fn a_sphere_and_a_floor_boxed_from_the_parameters_in_every_mode() {
    let p = [0.3, -0.4, 0.9];
    // Nearer the sphere (|p| - r = 0.4 < p.z - h = 1.1): ∂/∂r = -1, ∂/∂h = 0.
    let (r, h) = (0.6, -0.2);
    let (v, g) = gradient(bind(scene {}, (Var(0), Var(1), p)), &[r, h]);
    assert_eq!(v.to_bits(), scene(r, h, p).to_bits());
    assert_eq!(g, [-1.0, 0.0]);
    // Nearer the floor: ∂/∂r = 0, ∂/∂h = -1.
    let (r, h) = (0.1, 0.5);
    let (v, g) = gradient(bind(scene {}, (Var(0), Var(1), p)), &[r, h]);
    assert_eq!(v.to_bits(), scene(r, h, p).to_bits());
    assert_eq!(g, [0.0, -1.0]);
    check_modes!(
        bind(scene {}, (Var(0), Var(1), p)),
        |x: &[f64]| scene(x[0], x[1], p),
        [0.6, -0.2]
    );
}

#[test]
fn a_smooth_union_of_boxed_balls_in_every_mode() {
    let p = [0.2, 0.1, 0.3];
    let x = [0.1, -0.2, 0.35, 0.6, 0.4];
    check_modes!(
        bind(blobs {}, (Wrt, p, 8.0)),
        |x: &[f64]| blobs(x, p, 8.0),
        x
    );
    // Against the closed form: ∂/∂dᵢ of -ln(Σ e^(-k dⱼ))/k is wᵢ = e^(-k dᵢ) / Σ, and the
    // first ball's distance falls with its radius, ∂d₀/∂r = -1: ∂/∂r = -w₀.
    let d0 = ((p[0] - x[0]).powi(2) + (p[1] - x[1]).powi(2) + (p[2] - 0.5).powi(2)).sqrt() - x[2];
    let d1 = ((p[0] - x[3]).powi(2) + (p[1] - 0.2).powi(2) + (p[2] - x[4]).powi(2)).sqrt() - 0.4;
    let d2 = p[2] + 0.3;
    let e = [(-8.0 * d0).exp(), (-8.0 * d1).exp(), (-8.0 * d2).exp()];
    let w0 = e[0] / (e[0] + e[1] + e[2]);
    let (_, g) = gradient(bind(blobs {}, (Wrt, p, 8.0)), &x);
    assert!((g[2] + w0).abs() < 1e-12, "{} against {}", g[2], -w0);
}

#[test]
fn a_scene_handed_to_functions_in_every_mode() {
    let p = [0.7, 0.2, -0.1];
    check_modes!(
        bind(handed_on {}, (Wrt, p)),
        |x: &[f64]| handed_on(x, p),
        [0.4, 0.3]
    );
}

#[test]
fn a_robot_arm_of_boxed_joints_built_from_its_link_lengths_in_every_mode() {
    let target = [1.1, 0.7];
    let x = [0.3, -0.5, 0.2, 0.4, 0.8, 0.6, 0.3];
    check_modes!(
        bind(tip_error {}, (Wrt, target)),
        |x: &[f64]| tip_error(x, target),
        x
    );
    // ∂/∂l₀ in closed form: the tip moves by (cos q₀, sin q₀) per unit of l₀.
    let (v, g) = gradient(bind(tip_error {}, (Wrt, target)), &x);
    assert_eq!(v.to_bits(), tip_error(&x, target).to_bits());
    let th1 = x[0] + x[1];
    let d = 0.1 + x[2];
    let th3 = th1 + x[3];
    let tip = [
        x[4] * x[0].cos() + x[5] * th1.cos() + d * th1.cos() + x[6] * th3.cos(),
        x[4] * x[0].sin() + x[5] * th1.sin() + d * th1.sin() + x[6] * th3.sin(),
    ];
    let want = 2.0 * (tip[0] - target[0]) * x[0].cos() + 2.0 * (tip[1] - target[1]) * x[0].sin();
    assert!((g[4] - want).abs() < 1e-12, "{} against {want}", g[4]);
}

#[test]
fn constant_scenes_are_still_constants() {
    // A scene built outside from constants, passed in: its shapes have no tangent, the
    // derivative is with respect to the point only.
    let shapes: Vec<Box<dyn Sdf>> = vec![Box::new(Sphere { r: 0.5 }), Box::new(Plane { h: -1.0 })];
    let p = [0.3, 0.4, 0.2];
    let (v, g) = gradient(bind(nearest {}, (&shapes[..], Wrt)), &p);
    assert_eq!(v.to_bits(), nearest(&shapes, p).to_bits());
    let n = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
    for k in 0..3 {
        assert!((g[k] - p[k] / n).abs() < 1e-15);
    }
}

#[test]
fn one_box_and_an_array_of_boxes_in_every_mode() {
    let p = [0.3, 0.5, -0.2];
    check_modes!(
        bind(penalty {}, (Var(0), p)),
        |x: &[f64]| penalty(x[0], p),
        [0.4]
    );
    // d = |p| - r: ∂(d²)/∂r = -2d.
    let (v, d) = derivative(bind(penalty {}, (Var(0), p)), 0.4);
    assert_eq!(v.to_bits(), penalty(0.4, p).to_bits());
    let n = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
    assert!((d + 2.0 * (n - 0.4)).abs() < 1e-15, "{d}");
    check_modes!(two_link {}, |x: &[f64]| two_link(x), [0.4, 0.7, 1.1, 0.8]);
}

#[test]
fn a_scene_pushed_shape_by_shape_in_every_mode() {
    let p = [0.9, 0.3, 0.1];
    let x = [0.0, 0.5, 1.5, 0.3];
    check_modes!(bind(assembled {}, (Wrt, p)), |x: &[f64]| assembled(x, p), x);
    // The second ball is nearest: ∂/∂r₁ = -1, ∂/∂x₁ = (x₁ - pₓ) / |p - c₁|.
    let (v, g) = gradient(bind(assembled {}, (Wrt, p)), &x);
    assert_eq!(v.to_bits(), assembled(&x, p).to_bits());
    let n = ((p[0] - x[2]).powi(2) + p[1] * p[1] + p[2] * p[2]).sqrt();
    assert_eq!(g[3], -1.0);
    assert!((g[2] - (x[2] - p[0]) / n).abs() < 1e-15);
    assert_eq!((g[0], g[1]), (0.0, 0.0));
}
