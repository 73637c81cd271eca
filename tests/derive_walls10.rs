//! The fuzzer's seed 124 (`p82`), reduced, and walls the thirteenth session's newcomers
//! hit, in small programs written as they wrote them.
//! Derivatives against closed forms and central differences (single, batched, second
//! order), primals bit for bit against the plain functions.

#![allow(clippy::needless_range_loop)]

mod common;

use fwdad::drivers::{bind, Wrt};
use fwdad::prelude::*;

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} against {want}"
    );
}

// ---------------------------------------------------------------------------------------
// Fuzz seed 124, `p82`, reduced: a user method's result (a type the macro does not see)
// held in an array, an element of it plus a float literal (an operator on an unknown type,
// the literal left untyped), then a float method in a linearised chain: rustc could not
// type the method's receiver where it was written (E0282 at the attribute).

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Spring {
    pub k: f64,
}

#[derive_frule]
impl Spring {
    pub fn stiffness(&self) -> f64 {
        self.k.abs()
    }
}

/// Two gains, one a model's, softened through a logarithm.
#[derive_frule]
fn softened_gain(x: &[f64]) -> f64 {
    let s = Spring { k: x[1] };
    let gains = [s.stiffness(), x[0]];
    (gains[1] * gains[1] + 1.0).ln() * x[0] + gains[0]
}

/// The same through `sqrt`, the model's stiffness scaled from the inputs.
#[derive_frule]
fn rooted_gain(x: &[f64]) -> f64 {
    let s = Spring {
        k: x[1].abs() / (x[1] * x[1] + 1.0),
    };
    let gains = [s.stiffness(), x[0]];
    (gains[1] + 1.0).sqrt() * x[0] + gains[0] * x[1]
}

#[test]
fn fuzz_seed_124_user_method_result_in_an_array_then_a_float_method() {
    let x = [0.7, -1.3];
    // ln(x0² + 1)·x0 + |x1|.
    let (v, gr) = gradient(softened_gain {}, &x);
    assert_eq!(v.to_bits(), softened_gain(&x).to_bits());
    let q = x[0] * x[0] + 1.0;
    assert_close(gr[0], q.ln() + 2.0 * x[0] * x[0] / q, 1e-14, "d/dx0");
    assert_close(gr[1], -1.0, 1e-15, "d/dx1");
    crate::check_modes!(softened_gain {}, softened_gain, x);
    // √(x0 + 1)·x0 + x1·|x1|/(x1² + 1).
    let x = [0.7, 1.3];
    let (v, gr) = gradient(rooted_gain {}, &x);
    assert_eq!(v.to_bits(), rooted_gain(&x).to_bits());
    let r = (x[0] + 1.0).sqrt();
    assert_close(gr[0], r + x[0] / (2.0 * r), 1e-14, "d/dx0");
    let d = x[1] * x[1] + 1.0;
    // d/dx1 of x1²/(x1² + 1) for x1 > 0: 2 x1 / (x1² + 1)².
    assert_close(gr[1], 2.0 * x[1] / (d * d), 1e-14, "d/dx1");
    crate::check_modes!(rooted_gain {}, rooted_gain, x);
}
