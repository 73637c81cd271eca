//! # fwdad: forward-mode automatic differentiation of plain `f64` Rust
//!
//! Put `#[derive_frule]` on a function written with ordinary `f64` code; the macro
//! generates `name_frule`, which takes and returns [`Dual`]s (value + tangent) and
//! computes the value together with its exact directional derivative.
//!
//! ```
//! use fwdad::prelude::*;
//!
//! #[derive_frule]
//! fn energy(x: &[f64], k: f64, steps: usize) -> f64 {
//!     let mut e = 0.0;
//!     for i in 0..steps {
//!         e += k * x[i % x.len()].sin();
//!     }
//!     e
//! }
//!
//! let x = [0.5, 1.0];
//! let dx = [1.0, 0.0]; // differentiate along x[0]
//! let y = energy_frule(Dual::new(&x[..], &dx[..]), Dual::new(2.0, 0.0), Dual::constant(3));
//! assert_eq!(y.primal, energy(&x, 2.0, 3));
//! // d/dx0 of 2·(sin x0 + sin x1 + sin x0) = 4·cos x0
//! assert!((y.tangent - 4.0 * 0.5_f64.cos()).abs() < 1e-14);
//! ```
//!
//! See the crate README for the rule interface, batch mode and the design.

pub use fwdad_macros::{derive_frule, non_differentiable, primitive, Differentiable};

pub mod coloring;
pub mod drivers;
pub mod sparse;
pub use drivers::{
    bind, derivative, gradient, gradient_width, gradient_with, hessian, hessian_with, hvp,
    hvp_with, inplace, inplace_from, jacobian, jacobian_with, jvp, second_derivative, Const,
    GradientRule, GradientWorkspace, Inactive, JacobianWorkspace, Matrix, Out, Scratch, Wrt,
    DEFAULT_WIDTH,
};
pub use fwdad_runtime::{
    constant_in, ops, testing, Batch, Binary, Differentiable, Dual, Frule, HoldsNoFloat, Hyper,
    Lanes, Mode, NoTangent, Real, ScalarTangent, TangentSpace, Unary, ZeroTangent,
};
pub use sparse::{
    hessian_sparsity, jacobian_sparsity, sparse_hessian, sparse_jacobian, CsrMatrix,
    SparseHessianWorkspace, SparseJacobianWorkspace, SparseResidualWorkspace, SparsityPattern,
};

/// `use fwdad::prelude::*;` brings the macro, `Dual` and the traits a user names.
pub mod prelude {
    pub use crate::drivers::{
        bind, derivative, gradient, hessian, hvp, inplace, jacobian, jvp, second_derivative,
        Inactive, Wrt,
    };
    pub use crate::{
        derive_frule, non_differentiable, primitive, Batch, Differentiable, Dual, Frule, NoTangent,
        ZeroTangent,
    };
}

/// Items generated code refers to. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use fwdad_macros::derive_frule;
    pub use fwdad_runtime::collections::{vec_from, vec_repeat};
    pub use fwdad_runtime::linear as lin;
    pub use fwdad_runtime::ops;
    pub use fwdad_runtime::structural::{
        array, at_mut, at_mut_owned, cast, debug_assertions, deref, fail, index, integer,
        mem_replace, mem_take, none_in, ok, promote_receiver, range_at, range_from_at, reborrow,
        sin_cos_dual, slice_mut, some, store_deref, store_index, struct_literal, swap, tuple,
        ElemAt,
    };
    pub use fwdad_runtime::{
        call, coerce_to, constant_in, holds_no_float, Differentiable, Dual, Frule, HoldsNoFloat,
        MethodOf, Mode, Promoted, PromotedElem, Real, SelfByValue, ZeroTangent,
    };
    // `#[primitive]`: scalar-partials rules.
    pub use fwdad_runtime::rules::{binary, LiftTo, Operand, ScalarOperand};
    pub use fwdad_runtime::{Binary, Hyper, NoTangent, ScalarTangent, Unary};
    // `#[derive(Differentiable)]`.
    pub use fwdad_runtime::testing::{Precision, Rng, TestTangent};
    pub use fwdad_runtime::{Batch, TangentSpace};
}
