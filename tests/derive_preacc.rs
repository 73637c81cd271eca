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
