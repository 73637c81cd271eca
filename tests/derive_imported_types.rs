//! Literals and patterns of types a module imports alone by name (`use
//! crate::geometry::Vec3;`, a crate root's `pub use propagator::Prediction;`, as sgp4 and
//! kurbo are laid out). A derived body builds a literal's tangent as the type's
//! `#[derive(Differentiable)]` twin (`Vec3Tangent`), which such a `use` does not bring; the
//! macro reads the `use` items and module files and names the twin by its module's path.
//! Before, each twin had to be imported by hand. Derivatives against closed forms.
use fwdad::drivers::{gradient, gradient_with, hessian};
use fwdad::prelude::*;

mod imported_types;

/// A module defining a type, re-exported alone from the crate root (sgp4's layout).
mod propagator {
    #[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
    pub struct Prediction {
        pub mean: f64,
        pub var: f64,
    }
}
pub use propagator::Prediction;

#[derive_frule]
pub fn predict(x: f64, s: f64) -> Prediction {
    Prediction {
        mean: 2.0 * x,
        var: s * s,
    }
}

/// Types reached through a glob re-export (`pub use frames::*;`, as kurbo's root does).
mod kinematics {
    pub mod frames {
        #[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
        pub struct Pose2 {
            pub x: f64,
            pub y: f64,
            pub theta: f64,
        }
    }
    pub use frames::*;
}

mod odometry {
    use crate::kinematics::Pose2;
    use fwdad::prelude::*;

    /// Dead reckoning: a unicycle driven at speed `v` and turn rate `w` for `n` steps.
    #[derive_frule]
    pub fn drive(v: f64, w: f64, n: usize) -> Pose2 {
        let mut p = Pose2 {
            x: 0.0,
            y: 0.0,
            theta: 0.0,
        };
        for _ in 0..n {
            let Pose2 { x, y, theta } = p;
            p = Pose2 {
                x: x + 0.1 * v * theta.cos(),
                y: y + 0.1 * v * theta.sin(),
                theta: theta + 0.1 * w,
            };
        }
        p
    }
}

/// A module using the file module's types, imported by name; literals, a struct pattern,
/// enum variants and a tuple struct.
mod scene {
    use crate::imported_types::shapes::{Minutes, Shape, Vec3 as V3};
    use fwdad::prelude::*;

    #[derive_frule]
    pub fn sdf(s: &Shape, p: V3) -> f64 {
        match *s {
            Shape::Sphere { c, r } => {
                let V3 { x, y, z } = c;
                ((p.x - x).powi(2) + (p.y - y).powi(2) + (p.z - z).powi(2)).sqrt() - r
            }
            Shape::Plane(n, h) => p.x * n.x + p.y * n.y + p.z * n.z - h,
        }
    }

    /// A sphere at (q₀, 0, 1) of radius q₂, the plane y = q₁, probed at (0.5, q₃, 0.2).
    #[derive_frule]
    pub fn sdf_sum(q: &[f64]) -> f64 {
        let shapes = [
            Shape::Sphere {
                c: V3 {
                    x: q[0],
                    y: 0.0,
                    z: 1.0,
                },
                r: q[2],
            },
            Shape::Plane(
                V3 {
                    x: 0.0,
                    y: 1.0,
                    z: 0.0,
                },
                q[1],
            ),
        ];
        let p = V3 {
            x: 0.5,
            y: q[3],
            z: 0.2,
        };
        shapes.iter().map(|s| sdf(s, p)).sum()
    }

    #[derive_frule]
    pub fn later(t: Minutes, dt: f64) -> Minutes {
        let Minutes(m) = t;
        Minutes(m + 60.0 * dt * dt)
    }
}

#[test]
fn reexported_type_literal() {
    for (x, sd) in [(1.5, 3.0), (-0.25, 0.5)] {
        let by_x = predict_frule(Dual::new(x, 1.0), Dual::new(sd, 0.0));
        assert_eq!(by_x.primal, predict(x, sd));
        assert_eq!((by_x.tangent.mean, by_x.tangent.var), (2.0, 0.0));
        let by_s = predict_frule(Dual::new(x, 0.0), Dual::new(sd, 1.0));
        assert_eq!((by_s.tangent.mean, by_s.tangent.var), (0.0, 2.0 * sd));
    }
}

#[test]
fn imported_types_in_literals_and_patterns() {
    let q = [0.3, -0.2, 1.5, 0.8];
    let (v, g) = gradient(scene::sdf_sum {}, &q[..]);
    assert_eq!(v.to_bits(), scene::sdf_sum(&q).to_bits());
    // sphere: |p - c| - r with p - c = (0.5 - q₀, q₃, -0.8); plane: q₃ - q₁
    let d = [0.5 - q[0], q[3], -0.8];
    let n = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    let want = [-d[0] / n, -1.0, -1.0, d[1] / n + 1.0];
    for k in 0..4 {
        assert!(
            (g[k] - want[k]).abs() < 1e-14,
            "{k}: {} vs {}",
            g[k],
            want[k]
        );
    }
    let (v8, g8) = gradient_with::<8>(scene::sdf_sum {}, &q[..]);
    assert_eq!(v8.to_bits(), v.to_bits());
    for k in 0..4 {
        assert!((g8[k] - want[k]).abs() < 1e-14);
    }
    // ∂²/∂q₃² of |p - c| = (n² - d₁²) / n³
    let (_, _, h) = hessian(scene::sdf_sum {}, &q[..]);
    let want33 = (n * n - d[1] * d[1]) / (n * n * n);
    assert!((h[(3, 3)] - want33).abs() < 1e-13);
}

#[test]
fn imported_tuple_struct() {
    use imported_types::shapes::{Minutes, MinutesTangent};
    let t = scene::later_frule(
        Dual::new(Minutes(10.0), MinutesTangent(1.0)),
        Dual::new(0.5, 1.0),
    );
    assert_eq!(t.primal, scene::later(Minutes(10.0), 0.5));
    // d(m + 60 dt²) = dm + 120 dt ddt
    assert_eq!(t.tangent.0, 1.0 + 120.0 * 0.5);
}

#[test]
fn type_reached_through_a_glob_reexport() {
    // θₖ = 0.1·k·w, x = Σₖ 0.1·v·cos(θₖ): ∂x/∂v = x / v, ∂x/∂w = -Σₖ 0.01·k·v·sin(θₖ).
    let (v, w, n) = (2.0, 0.3, 12);
    let by_v = odometry::drive_frule(
        Dual::new(v, 1.0),
        Dual::new(w, 0.0),
        Dual::new(n, NoTangent),
    );
    let by_w = odometry::drive_frule(
        Dual::new(v, 0.0),
        Dual::new(w, 1.0),
        Dual::new(n, NoTangent),
    );
    let plain = odometry::drive(v, w, n);
    assert_eq!(by_v.primal, plain);
    assert_eq!(by_w.primal, plain);
    assert!((by_v.tangent.x - plain.x / v).abs() < 1e-14);
    let dx_dw: f64 = (0..n)
        .map(|k| -0.01 * k as f64 * v * (0.1 * k as f64 * w).sin())
        .sum();
    assert!((by_w.tangent.x - dx_dw).abs() < 1e-13);
    assert!((by_w.tangent.theta - 0.1 * n as f64).abs() < 1e-14);
}
