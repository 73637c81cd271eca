//! A three-link spatial arm (base yaw, shoulder and elbow pitch), its aliases imported from
//! sibling module files.

use super::types::{Joints, Vec3, M3};
use crate::traits5::Real;
use fwdad::prelude::*;

/// Link lengths.
pub const LINKS: [Real; 2] = [0.8, 0.55];

/// Rotation by `a` about z.
#[derive_frule]
pub fn rot_z(a: Real) -> M3 {
    let (s, c) = a.sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

/// Rotation by `a` about y.
#[derive_frule]
pub fn rot_y(a: Real) -> M3 {
    let (s, c) = a.sin_cos();
    [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
}

#[derive_frule]
pub fn mat_mul(a: &M3, b: &M3) -> M3 {
    let mut c = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            for k in 0..3 {
                c[i][j] += a[i][k] * b[k][j];
            }
        }
    }
    c
}

#[derive_frule]
pub fn mat_vec(a: &M3, v: &Vec3) -> Vec3 {
    let mut out: Vec3 = [0.0; 3];
    for i in 0..3 {
        for j in 0..3 {
            out[i] += a[i][j] * v[j];
        }
    }
    out
}

/// Forward kinematics: the tip of the arm.
#[derive_frule]
pub fn tip(q: &Joints) -> Vec3 {
    let base = rot_z(q[0]);
    let shoulder = mat_mul(&base, &rot_y(q[1]));
    let elbow = mat_mul(&shoulder, &rot_y(q[2]));
    let upper = mat_vec(&shoulder, &[LINKS[0], 0.0, 0.0]);
    let fore = mat_vec(&elbow, &[LINKS[1], 0.0, 0.0]);
    [upper[0] + fore[0], upper[1] + fore[1], upper[2] + fore[2]]
}

/// Half the squared distance of the tip from a target: an inverse-kinematics loss.
#[derive_frule]
pub fn reach_loss(q: &[f64]) -> Real {
    let joints: Joints = [q[0], q[1], q[2]];
    let p = tip(&joints);
    let target: Vec3 = [0.6, 0.4, 0.3];
    let mut loss = 0.0;
    for i in 0..3 {
        loss += 0.5 * (p[i] - target[i]).powi(2);
    }
    loss
}
