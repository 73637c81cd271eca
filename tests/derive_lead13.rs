//! What the thirteenth session's newcomer programs found, in small programs written as
//! they wrote them. Each failed to compile before its fix.
//! Derivatives against closed forms and central differences, primals bit for bit.

use fwdad::drivers::jvp;
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

/// A planar three-link arm whose forward kinematics is a method with `#[derive_frule]`
/// on the method itself (not on the `impl`), taking the joint angles as a slice: its
/// entry `Arm::tip_frule` did not compile (E0716: the rule, a temporary of the entry's
/// last expression, outlived the zero tangent lent to the slice).
#[derive(Clone, Debug, Differentiable)]
pub struct Arm {
    pub lengths: [f64; 3],
}

impl Arm {
    #[derive_frule]
    pub fn tip(&self, q: &[f64]) -> [f64; 2] {
        let mut angle = 0.0;
        let mut p = [0.0, 0.0];
        for (i, l) in self.lengths.iter().enumerate() {
            angle += q[i];
            p[0] += l * angle.cos();
            p[1] += l * angle.sin();
        }
        p
    }

    #[derive_frule]
    pub fn reach(&self, q: &[f64]) -> f64 {
        let p = self.tip(q);
        p[0].hypot(p[1])
    }
}

#[derive_frule]
fn tip_x(q: &[f64]) -> f64 {
    let arm = Arm {
        lengths: [1.0, 0.8, 0.5],
    };
    arm.tip(q)[0]
}

fn plain_tip_x(q: &[f64]) -> f64 {
    Arm {
        lengths: [1.0, 0.8, 0.5],
    }
    .tip(q)[0]
}

#[test]
fn method_attribute_with_a_slice_parameter() {
    let arm = Arm {
        lengths: [1.0, 0.8, 0.5],
    };
    let q = [0.3, -0.4, 0.9];
    let cum: [f64; 3] = [0.3, 0.3 - 0.4, 0.3 - 0.4 + 0.9];
    for k in 0..3 {
        let mut e = [0.0; 3];
        e[k] = 1.0;
        // The method's own entry, the receiver constant.
        let d = Arm::tip_frule(Dual::constant(&arm), Dual::new(&q[..], &e[..]));
        let want = arm.tip(&q);
        assert_eq!(d.primal[0].to_bits(), want[0].to_bits());
        assert_eq!(d.primal[1].to_bits(), want[1].to_bits());
        // d x / d q_k = -Σ_{i ≥ k} l_i sin(cum_i), d y / d q_k = Σ_{i ≥ k} l_i cos(cum_i).
        let dx: f64 = (k..3).map(|i| -arm.lengths[i] * cum[i].sin()).sum();
        let dy: f64 = (k..3).map(|i| arm.lengths[i] * cum[i].cos()).sum();
        assert_close(d.tangent[0], dx, 1e-12, "dx");
        assert_close(d.tangent[1], dy, 1e-12, "dy");
        let r = Arm::reach_frule(Dual::constant(&arm), Dual::new(&q[..], &e[..]));
        assert_eq!(r.primal.to_bits(), arm.reach(&q).to_bits());
        let (x, y) = (want[0], want[1]);
        assert_close(r.tangent, (x * dx + y * dy) / x.hypot(y), 1e-12, "d reach");
    }
    check_widths!(tip_x {}, plain_tip_x, [0.3, -0.4, 0.9]);
}
