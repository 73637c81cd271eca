//! Monomorphic, never-inlined instances of the derived rules, so that their machine code
//! can be read (`cargo rustc --release -p fwdad-bench --lib -- --emit asm`, or `objdump -d`
//! on the report binary) and profiled by symbol.

use crate::{ba, optim, simple};
use fwdad::prelude::*;

/// Eight directions.
pub type B8 = Batch<f64, 8>;

/// [`simple::slice_sum`]'s rule, one direction.
#[inline(never)]
pub fn slice_sum_rule(x: &[f64], dx: &[f64]) -> f64 {
    let r = simple::slice_sum_frule(Dual::new(x, dx));
    r.primal + r.tangent
}

/// [`simple::sum_sin`]'s rule, one direction.
#[inline(never)]
pub fn sum_sin_rule(x: &[f64], dx: &[f64]) -> f64 {
    let r = simple::sum_sin_frule(Dual::new(x, dx));
    r.primal + r.tangent
}

/// [`simple::sum_sin`], the primal.
#[inline(never)]
pub fn sum_sin_primal(x: &[f64]) -> f64 {
    simple::sum_sin(x)
}

/// [`optim::rosenbrock`]'s rule with eight directions.
#[inline(never)]
pub fn rosenbrock_rule8(x: &[f64], dx: &[B8]) -> (f64, B8) {
    let r = <optim::rosenbrock as Frule<_, B8>>::frule(&optim::rosenbrock {}, (Dual::new(x, dx),));
    (r.primal, r.tangent)
}

/// [`optim::rosenbrock_jvp_hand`] with eight directions.
#[inline(never)]
pub fn rosenbrock_hand8(x: &[f64], dx: &[[f64; 8]]) -> (f64, [f64; 8]) {
    optim::rosenbrock_jvp_hand::<8>(x, dx)
}

/// One BA block by the derived rule.
#[inline(never)]
pub fn ba_block_rule(inst: &ba::Instance, i: usize, seeds: &ba::Seeds) -> [f64; 30] {
    ba::block_rule(inst, i, seeds)
}

/// One BA block by the hand-derived Jacobian.
#[inline(never)]
pub fn ba_block_hand(inst: &ba::Instance, i: usize) -> [f64; 30] {
    ba::block_hand(inst, i)
}

/// [`simple::matvec`]'s rule, one direction.
#[inline(never)]
pub fn matvec_rule(a: &[f64], da: &[f64], x: &[f64], dx: &[f64], y: &mut [f64], dy: &mut [f64]) {
    simple::matvec_frule(Dual::new(a, da), Dual::new(x, dx), Dual::new(y, dy));
}

/// [`gmm::gmm_objective`]'s rule, one direction.
#[inline(never)]
pub fn gmm_jvp_rule(inst: &crate::gmm::Instance, dtheta: &[f64]) -> (f64, f64) {
    crate::gmm::jvp_rule(inst, dtheta)
}

/// [`optim::ackley`]'s rule with eight directions.
#[inline(never)]
pub fn ackley_rule8(x: &[f64], dx: &[B8]) -> (f64, B8) {
    let r = <optim::ackley as Frule<_, B8>>::frule(&optim::ackley {}, (Dual::new(x, dx),));
    (r.primal, r.tangent)
}

/// Eight directions with their zeros known.
pub type Z8 = fwdad::MaybeZero<B8>;

/// [`optim::rosenbrock`]'s rule with eight directions, zeros known.
#[inline(never)]
pub fn rosenbrock_rule8z(x: &[f64], dx: &[Z8]) -> (f64, Z8) {
    let r = <optim::rosenbrock as Frule<_, Z8>>::frule(&optim::rosenbrock {}, (Dual::new(x, dx),));
    (r.primal, r.tangent)
}

/// [`optim::rosenbrock_nd`] with num-dual's `DualSVec64<8>`.
#[inline(never)]
pub fn rosenbrock_nd8(x: &[num_dual::DualSVec64<8>]) -> num_dual::DualSVec64<8> {
    optim::rosenbrock_nd(x)
}

/// Sixteen directions with their zeros known.
pub type Z16 = fwdad::MaybeZero<Batch<f64, 16>>;

/// [`optim::rosenbrock`]'s rule with sixteen directions, zeros known.
#[inline(never)]
pub fn rosenbrock_rule16z(x: &[f64], dx: &[Z16]) -> (f64, Z16) {
    let r = <optim::rosenbrock as Frule<_, Z16>>::frule(&optim::rosenbrock {}, (Dual::new(x, dx),));
    (r.primal, r.tangent)
}

/// [`optim::ackley`]'s rule with sixteen directions, zeros known.
#[inline(never)]
pub fn ackley_rule16z(x: &[f64], dx: &[Z16]) -> (f64, Z16) {
    let r = <optim::ackley as Frule<_, Z16>>::frule(&optim::ackley {}, (Dual::new(x, dx),));
    (r.primal, r.tangent)
}
