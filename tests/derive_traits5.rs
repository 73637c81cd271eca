//! Type aliases imported from other module files of the crate (`tests/traits5/`): a
//! three-link arm written with `M3`, `Vec3`, `Joints` and `Real` from `types.rs` and the
//! parent module, used here by path, renamed and through a glob. The arm's tip checked
//! against its closed-form Jacobian, an inverse-kinematics loss against central
//! differences in every mode, primals bit for bit.

use fwdad::drivers::{gradient, jvp};
use fwdad::prelude::*;

#[macro_use]
mod common;
mod traits5;

use common::modes::assert_close;
use traits5::arm::{reach_loss, tip, LINKS};
use traits5::types::{Joints, M3 as Rotation};

/// The tip projected on a fixed direction, through the renamed alias.
#[derive_frule]
pub fn tip_along(q: &[f64]) -> f64 {
    let joints: Joints = [q[0], q[1], q[2]];
    let p = tip(&joints);
    let flip: Rotation = [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
    let mut s = 0.0;
    for i in 0..3 {
        let mut row = 0.0;
        for j in 0..3 {
            row += flip[i][j] * p[j];
        }
        s += W[i] * row;
    }
    s
}

const W: [f64; 3] = [0.3, -1.1, 0.7];

mod glob {
    //! Aliases through a glob import, from an inline module (`use crate::..::*`).
    use crate::traits5::types::*;
    use fwdad::prelude::*;

    /// The squared Frobenius norm of a rotation about z scaled by `s`: 3 s² for every
    /// angle but 2 s² + s⁴ (the z row is scaled twice) — written plainly.
    #[derive_frule]
    pub fn scaled_frobenius(p: &[f64]) -> f64 {
        let (sn, cs) = p[0].sin_cos();
        let s = p[1];
        let mut m: M3 = [[cs, -sn, 0.0], [sn, cs, 0.0], [0.0, 0.0, s]];
        for row in m.iter_mut() {
            for v in row.iter_mut() {
                *v *= s;
            }
        }
        let mut total = 0.0;
        for row in m.iter() {
            let r: Vec3 = *row;
            total += r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        }
        total
    }
}

#[test]
fn the_arm_tip_matches_its_closed_form_jacobian() {
    let q: [f64; 3] = [0.4, -0.3, 0.9];
    let (l0, l1) = (LINKS[0], LINKS[1]);
    let (s0, c0) = q[0].sin_cos();
    let r = l0 * q[1].cos() + l1 * (q[1] + q[2]).cos();
    let z = -(l0 * q[1].sin() + l1 * (q[1] + q[2]).sin());
    let dr2 = -l1 * (q[1] + q[2]).sin();
    let dz2 = -l1 * (q[1] + q[2]).cos();
    // Columns of ∂tip/∂q for tip = (r cos q0, r sin q0, z).
    let jac = [
        [-r * s0, r * c0, 0.0],
        [z * c0, z * s0, -r],
        [dr2 * c0, dr2 * s0, dz2],
    ];
    // `tip_along` is w · (flip · tip): flip swaps x and y.
    let w_flipped = [W[1], W[0], W[2]];
    let p = tip(&q);
    let plain: f64 = W[0] * p[1] + W[1] * p[0] + W[2] * p[2];
    for k in 0..3 {
        let mut e = [0.0; 3];
        e[k] = 1.0;
        let (v, d): (f64, f64) = jvp(tip_along {}, &q, &e);
        assert_eq!(v.to_bits(), tip_along(&q).to_bits(), "primal");
        assert_close(v, plain, 1e-15, "tip_along against the plain tip");
        let expected: f64 = (0..3).map(|i| w_flipped[i] * jac[k][i]).sum();
        assert_close(d, expected, 1e-12, &format!("d/dq{k}"));
    }
    let (_, g) = gradient(tip_along {}, &q[..]);
    for k in 0..3 {
        let expected: f64 = (0..3).map(|i| w_flipped[i] * jac[k][i]).sum();
        assert_close(g[k], expected, 1e-12, &format!("gradient d/dq{k}"));
    }
}

#[test]
fn reach_loss_in_every_mode() {
    check_modes!(reach_loss {}, reach_loss, [0.4, -0.3, 0.9]);
    check_modes!(tip_along {}, tip_along, [1.1, 0.2, -0.7]);
}

#[test]
fn a_glob_imported_alias_in_every_mode() {
    check_modes!(
        glob::scaled_frobenius {},
        glob::scaled_frobenius,
        [0.7, 1.3]
    );
    // Closed form: 2 s² + s⁴, whatever the angle.
    let s: f64 = 1.3;
    let (_, g) = gradient(glob::scaled_frobenius {}, &[0.7, s][..]);
    assert_close(g[0], 0.0, 1e-12, "d/dangle");
    assert_close(g[1], 4.0 * s + 4.0 * s.powi(3), 1e-12, "d/ds");
}
