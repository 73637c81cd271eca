//! Preaccumulation (`preacc`): a straight-line chain with two outputs and many roots is
//! accumulated backwards in batch modes. The batched Jacobian must equal the one built
//! from one-direction passes (which are not linearised: the rules line by line) to
//! rounding, and central finite differences; values bit for bit.

use fwdad::drivers::{jacobian_with, jvp, Matrix};
use fwdad::prelude::*;

/// A pinhole camera with a quaternion rotation and radial distortion: the image point of
/// a world point. `p = [qw, qx, qy, qz, tx, ty, tz, X, Y, Z, f, k1]`. The quaternion need
/// not be normalised (the rotation is then scaled by |q|², as the formula is written).
#[derive_frule]
fn project(p: &[f64]) -> [f64; 2] {
    let (qw, qx, qy, qz) = (p[0], p[1], p[2], p[3]);
    let (px, py, pz) = (p[7], p[8], p[9]);
    let f = p[10];
    let k1 = p[11];
    // R X = X + 2 qw (q × X) + 2 q × (q × X)
    let u0 = qy * pz - qz * py;
    let u1 = qz * px - qx * pz;
    let u2 = qx * py - qy * px;
    let v0 = qy * u2 - qz * u1;
    let v1 = qz * u0 - qx * u2;
    let v2 = qx * u1 - qy * u0;
    let cx = px + 2.0 * (qw * u0 + v0) + p[4];
    let cy = py + 2.0 * (qw * u1 + v1) + p[5];
    let cz = pz + 2.0 * (qw * u2 + v2) + p[6];
    let x = cx / cz;
    let y = cy / cz;
    let r2 = x * x + y * y;
    let d = 1.0 + k1 * r2;
    [f * d * x, f * d * y]
}

fn unit(n: usize, j: usize) -> Vec<f64> {
    let mut e = vec![0.0; n];
    e[j] = 1.0;
    e
}

fn fd_jacobian(f: impl Fn(&[f64]) -> [f64; 2], x: &[f64]) -> Matrix {
    let mut j = Matrix::zeros(2, x.len());
    for c in 0..x.len() {
        let h = 1e-6 * x[c].abs().max(1.0);
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[c] += h;
        xm[c] -= h;
        let (fp, fm) = (f(&xp), f(&xm));
        for r in 0..2 {
            j[(r, c)] = (fp[r] - fm[r]) / (2.0 * h);
        }
    }
    j
}

#[test]
fn projection_jacobian_backwards_equals_one_direction_and_finite_differences() {
    let points = [
        [
            0.9, 0.1, -0.2, 0.3, 0.1, -0.2, 0.3, 0.5, -0.4, 6.0, 500.0, -0.02,
        ],
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 8.0, 300.0, 0.0],
        [
            0.7, -0.5, 0.4, 0.2, -1.0, 0.5, 2.0, -0.3, 0.7, 5.0, 420.0, 0.05,
        ],
    ];
    for x in &points {
        let n = x.len();
        let plain = project(x);
        let mut cols = Matrix::zeros(2, n);
        for j in 0..n {
            let (_, t): (_, [f64; 2]) = jvp(project {}, x, &unit(n, j));
            cols[(0, j)] = t[0];
            cols[(1, j)] = t[1];
        }
        let fd = fd_jacobian(project, x);
        for (v, jac) in [
            jacobian_with::<12>(project {}, x),
            jacobian_with::<16>(project {}, x),
        ] {
            assert_eq!(v[0].to_bits(), plain[0].to_bits());
            assert_eq!(v[1].to_bits(), plain[1].to_bits());
            for r in 0..2 {
                for c in 0..n {
                    let (a, b) = (jac[(r, c)], cols[(r, c)]);
                    assert!(
                        (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs())),
                        "({r}, {c}) at {x:?}: batched {a:e}, one direction {b:e}"
                    );
                    let d = fd[(r, c)];
                    assert!(
                        (a - d).abs() <= 1e-6 * (1.0 + a.abs()),
                        "({r}, {c}) at {x:?}: batched {a:e}, finite differences {d:e}"
                    );
                }
            }
        }
    }
}

/// An angle-axis camera (Rodrigues' formula, with its first-order form at a zero
/// rotation, as ADBench's bundle adjustment writes it) and a radially distorted pinhole
/// projection. `p = [r0, r1, r2, c0, c1, c2, X, Y, Z, f, k1]`. The chain continues through
/// the `if`: each arm yields the rotated point with its coefficients.
#[derive_frule]
fn angle_axis_project(p: &[f64]) -> [f64; 2] {
    let (r0, r1, r2) = (p[0], p[1], p[2]);
    let x0 = p[6] - p[3];
    let x1 = p[7] - p[4];
    let x2 = p[8] - p[5];
    let theta_sq = r0 * r0 + r1 * r1 + r2 * r2;
    let (y0, y1, y2) = if theta_sq != 0.0 {
        let theta = theta_sq.sqrt();
        let (s, c) = (theta.sin(), theta.cos());
        let (k0, k1, k2) = (r0 / theta, r1 / theta, r2 / theta);
        let dot = (k0 * x0 + k1 * x1 + k2 * x2) * (1.0 - c);
        (
            x0 * c + (k1 * x2 - k2 * x1) * s + k0 * dot,
            x1 * c + (k2 * x0 - k0 * x2) * s + k1 * dot,
            x2 * c + (k0 * x1 - k1 * x0) * s + k2 * dot,
        )
    } else {
        (
            x0 + (r1 * x2 - r2 * x1),
            x1 + (r2 * x0 - r0 * x2),
            x2 + (r0 * x1 - r1 * x0),
        )
    };
    let (u, v) = (y0 / y2, y1 / y2);
    let d = 1.0 + p[10] * (u * u + v * v);
    [p[9] * d * u, p[9] * d * v]
}

/// Two residuals of a linear model under a one-sided Huber loss (quadratic up to `delta`,
/// linear beyond), weighted: `p = [a, b, c, d, delta, x, y, t0, t1, w]`. Each `if` yields
/// one value; the second arm of the second is itself an `if`.
#[derive_frule]
fn huber_pair(p: &[f64]) -> [f64; 2] {
    let delta = p[4];
    let e0 = p[0] * p[5] + p[1] * p[6] - p[7];
    let e1 = p[2] * p[5] + p[3] * p[6] - p[8];
    let h0 = if e0 > delta {
        delta * (e0 - 0.5 * delta)
    } else {
        0.5 * e0 * e0
    };
    let h1 = if e1 > delta {
        delta * (e1 - 0.5 * delta)
    } else if e1 < -delta {
        -delta * (e1 + 0.5 * delta)
    } else {
        0.5 * e1 * e1
    };
    [p[9] * h0, p[9] * h1.sqrt()]
}

/// An arm that yields a value from before the `if` unchanged and a constant:
/// `p = [x0, x1, x2]`.
#[derive_frule]
fn gated(p: &[f64]) -> [f64; 2] {
    let (a, b) = (p[0] * p[2], p[1] + p[2]);
    let (s, t) = if p[0] > 0.0 {
        (a * b, b)
    } else {
        (0.0, b * b - a)
    };
    [s.exp() + t * a, t / (1.0 + s * s)]
}

/// Batched Jacobians (two widths) of rule `$f` at `$x` against one-direction passes (not
/// linearised through the `if`) to rounding, and central differences to `$tol`; values
/// bit for bit.
macro_rules! check_jacobian {
    ($f:ident, $x:expr, $tol:expr) => {{
        let x: &[f64] = $x;
        let n = x.len();
        let plain = $f(x);
        let mut cols = Matrix::zeros(2, n);
        for j in 0..n {
            let (v, t): ([f64; 2], [f64; 2]) = jvp($f {}, x, &unit(n, j));
            assert_eq!(
                (v[0].to_bits(), v[1].to_bits()),
                (plain[0].to_bits(), plain[1].to_bits())
            );
            cols[(0, j)] = t[0];
            cols[(1, j)] = t[1];
        }
        let fd = fd_jacobian($f, x);
        for (v, jac) in [jacobian_with::<12>($f {}, x), jacobian_with::<16>($f {}, x)] {
            assert_eq!(
                (v[0].to_bits(), v[1].to_bits()),
                (plain[0].to_bits(), plain[1].to_bits())
            );
            for r in 0..2 {
                for c in 0..n {
                    let (a, b) = (jac[(r, c)], cols[(r, c)]);
                    assert!(
                        (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs())),
                        "({r}, {c}) at {x:?}: batched {a:e}, one direction {b:e}"
                    );
                    let d = fd[(r, c)];
                    assert!(
                        (a - d).abs() <= $tol * (1.0 + a.abs()),
                        "({r}, {c}) at {x:?}: batched {a:e}, finite differences {d:e}"
                    );
                }
            }
        }
    }};
}

#[test]
fn rodrigues_through_both_arms_of_the_if() {
    let points = [
        // A rotation: the first arm.
        [
            0.3, -0.2, 0.1, 0.1, -0.2, -3.0, 0.5, -0.4, 6.0, 500.0, -0.02,
        ],
        [-1.2, 0.7, 0.4, 0.0, 0.3, -2.0, -0.3, 0.7, 5.0, 420.0, 0.05],
        // None: the second arm (a step of the differences lands in the first, whose
        // derivative there is the same).
        [0.0, 0.0, 0.0, 0.1, -0.2, -3.0, 0.5, -0.4, 6.0, 500.0, -0.02],
    ];
    for x in &points {
        check_jacobian!(angle_axis_project, x, 1e-6);
    }
}

#[test]
fn huber_through_each_arm_and_a_nested_if() {
    let points = [
        // e0 ≈ 0.49 > delta, e1 ≈ -0.5 < -delta.
        [1.0, 0.5, -0.3, 0.8, 0.2, 0.7, -0.4, 0.01, 0.45, 1.5],
        // Both quadratic.
        [1.0, 0.5, -0.3, 0.8, 0.9, 0.7, -0.4, 0.3, -0.2, 2.0],
        // e1 > delta.
        [0.2, 0.5, 1.3, 0.8, 0.1, 0.7, -0.4, 0.6, -0.5, 0.5],
    ];
    for x in &points {
        check_jacobian!(huber_pair, x, 1e-6);
    }
}

#[test]
fn arms_yielding_a_value_from_before_and_a_constant() {
    for x in [[0.8, -0.3, 0.6], [-0.5, 0.4, 1.1]] {
        check_jacobian!(gated, &x, 1e-6);
    }
}
