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
//! Your own types get their tangent type from `#[derive(Differentiable)]`, and the
//! [`drivers`] give values and derivatives in one call:
//!
//! ```
//! use fwdad::prelude::*;
//!
//! #[derive(Clone, Copy, Debug, Differentiable)]
//! struct Spring {
//!     k: f64,
//!     turns: usize,
//! }
//!
//! #[derive_frule]
//! fn stored_energy(s: &Spring, x: f64) -> f64 {
//!     0.5 * s.k * x * x * s.turns as f64
//! }
//!
//! let s = Spring { k: 2.0, turns: 3 };
//! let (e, de_dx) = derivative(bind(stored_energy {}, (&s, Wrt)), 1.5);
//! assert_eq!(e, stored_energy(&s, 1.5));
//! assert_eq!(de_dx, 2.0 * 1.5 * 3.0); // k·x·turns
//! ```
//!
//! `fwdad::testing` (the `testing` feature) checks rules against finite differences. See the
//! crate README for what a differentiated function may contain, and `docs/design.md` for
//! how it works.

#![cfg_attr(not(feature = "std"), no_std)]

pub use fwdad_macros::{derive_frule, non_differentiable, primitive, Differentiable};

// The drivers allocate and use `std` (the sparse Hessian's recorder is a thread-local).
#[cfg(feature = "std")]
pub mod coloring;
#[cfg(feature = "std")]
pub mod drivers;
#[cfg(feature = "nalgebra")]
pub mod na;
#[cfg(feature = "std")]
pub mod sparse;
#[cfg(feature = "std")]
pub use drivers::{
    bind, derivative, derivative_f32, gradient, gradient_f32, gradient_width, gradient_with,
    hessian, hessian_array, hessian_with, hvp, hvp_array, hvp_width, hvp_with, inplace,
    inplace_from, jacobian, jacobian_array, jacobian_f32, jacobian_width, jacobian_with, jvp,
    second_derivative, Const, GradientPlan, GradientRule, GradientWorkspace, HvpRule, Inactive,
    JacobianRule, JacobianWorkspace, Matrix, Out, Scratch, Var, Wrt, DEFAULT_WIDTH,
};
pub use fwdad_runtime::{implicit_root, implicit_system, Residual};
pub use fwdad_runtime::{
    Batch, ConstTangent, Differentiable, Dual, Frule, HoldsNoFloat, Hyper, MaybeZero, Mode,
    NoTangent, Real, ScalarTangent, TangentSpace, ZeroTangent,
};
#[cfg(feature = "std")]
pub use sparse::{
    hessian_sparsity, jacobian_sparsity, sparse_hessian, sparse_jacobian, CsrMatrix,
    SparseHessianWorkspace, SparseJacobianWorkspace, SparseResidualWorkspace, SparsityPattern,
};

/// Test utilities: [`test_frule`](testing::test_frule) checks any rule against central
/// finite differences. Needs the `testing` feature (it brings `rand` and `approx`), which
/// you would enable for tests only:
/// `[dev-dependencies] fwdad = { version = "..", features = ["testing"] }`.
#[cfg(feature = "testing")]
#[doc(inline)]
pub use fwdad_runtime::testing;

// Reachable for generated code, tests and hand-written rules, but not part of the
// documented surface: the scalar rules as functions (`ops::sin`), the rule traits that
// `#[primitive]` implements, and the constant dual of any mode.
#[doc(hidden)]
pub use fwdad_runtime::{constant_in, ops, Binary, Fused, Lanes, Unary};

/// `use fwdad::prelude::*;` brings the attributes, `Dual`, the traits a user names, and the
/// drivers with the markers and result type they take and return.
pub mod prelude {
    #[cfg(feature = "std")]
    pub use crate::drivers::{
        bind, derivative, derivative_f32, gradient, gradient_f32, hessian, hessian_array, hvp,
        hvp_array, inplace, jacobian, jacobian_array, jacobian_f32, jvp, second_derivative, Const,
        Inactive, Matrix, Out, Scratch, Var, Wrt,
    };
    pub use crate::{
        derive_frule, non_differentiable, primitive, Batch, Differentiable, Dual, Frule, NoTangent,
        ZeroTangent,
    };
}

/// The items it is given with the `std` feature (the drivers), nothing without: what a
/// trait's expansion writes of `bind`'s entries for its trait objects.
#[cfg(feature = "std")]
#[doc(hidden)]
#[macro_export]
macro_rules! __fwdad_with_drivers {
    ($($t:tt)*) => { $($t)* };
}
/// See the `std` version.
#[cfg(not(feature = "std"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __fwdad_with_drivers {
    ($($t:tt)*) => {};
}

/// Items generated code refers to. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::__fwdad_with_drivers as with_drivers;
    /// `bind`'s entries (`Fits`, `Slot`), which a trait's expansion implements for its
    /// trait objects.
    #[cfg(feature = "std")]
    pub use crate::drivers;
    pub use fwdad_macros::derive_frule;
    pub use fwdad_runtime::__fwdad_constant as constant;
    #[cfg(feature = "alloc")]
    pub use fwdad_runtime::alloc_paths as alloc;
    #[cfg(feature = "alloc")]
    pub use fwdad_runtime::collections::{vec_from, vec_repeat};
    #[cfg(feature = "num-complex")]
    pub use fwdad_runtime::complex;
    #[cfg(feature = "alloc")]
    pub use fwdad_runtime::const_iter::const_iter_vec;
    pub use fwdad_runtime::const_iter::ConstIter;
    pub use fwdad_runtime::fallible::{branch, else_call, err_from, err_of, rebuild, residual};
    #[cfg(feature = "glam")]
    pub use fwdad_runtime::glam;
    pub use fwdad_runtime::lift::{
        lib_elem_at, lib_elem_at_mut, lift, lift_index, store_field, unlift,
    };
    pub use fwdad_runtime::linear as lin;
    #[cfg(feature = "nalgebra")]
    pub use fwdad_runtime::nalgebra_linalg as na_linalg;
    #[cfg(feature = "ndarray")]
    pub use fwdad_runtime::ndarray::{arr_elems, f64_array};
    pub use fwdad_runtime::ops;
    #[cfg(feature = "alloc")]
    pub use fwdad_runtime::structural::empty_vec_in;
    pub use fwdad_runtime::structural::{
        array, array_from_fn, at_mut, at_mut_owned, cast, debug_assertions, deref, drop, fail, fit,
        float_from, index, index_ref, integer, mem_replace, mem_take, none_in, ok, opaque_macro,
        promote_receiver, range, range_at, range_from_at, reborrow, sin_cos_dual, slice_mut, some,
        store_deref, store_index, store_index_real, struct_literal, swap, tuple, undef, ElemAt,
    };
    pub use fwdad_runtime::traits;
    pub use fwdad_runtime::user_ops;
    #[cfg(feature = "alloc")]
    pub use fwdad_runtime::{
        PromoteElemPlain, PromoteElemProbe, PromoteElemZero, PromoteSubPlain, PromoteSubProbe,
        PromoteSubZero, PromotedElem,
    };
    // A float method by its trait in a generic rule, whose `T` may also have nalgebra's
    // `RealField` (`Float::exp(x)`, not `x.exp()`, which would be ambiguous).
    pub use fwdad_runtime::__num_traits::Float as NumFloat;
    pub use fwdad_runtime::{
        call, coerce_to, column, constant_in, holds_no_float, lend_mut, ChainJacobianOf,
        Differentiable, Dual, FnRule, Frule, HoldsNoFloat, JacobianSink, MethodOf, Mode,
        PromotePlain, PromoteProbe, PromoteZero, Promoted, Real, SelfByValue, ZeroTangent,
    };
    // Element tangents that may be a constant's (`ConstTangent`), converted on entry.
    pub use fwdad_runtime::constant::{
        active_array, active_array_ref, active_ref, active_scalar, active_slice, const_arg,
        ZeroCell,
    };
    pub use fwdad_runtime::{ArgTangent, ConstTangent, Constant, RefTangent, SliceTangent};
    // A large rule's entry compiled for AVX2 and FMA (runtime dispatch).
    pub use fwdad_runtime::dispatch::{self, Unfuse};
    pub use fwdad_runtime::Fused;
    // `#[primitive]`: scalar-partials rules.
    pub use fwdad_runtime::rules::{binary, LiftTo, Operand, ScalarOperand};
    pub use fwdad_runtime::{Binary, Hyper, NoTangent, ScalarTangent, Unary};
    // `#[derive(Differentiable)]` (`TestTangent` exists without the `testing` feature too).
    pub use fwdad_runtime::testing::{Precision, Rng, TestTangent};
    pub use fwdad_runtime::{Batch, TangentSpace};
}
