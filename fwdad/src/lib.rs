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

pub use fwdad_macros::{derive_frule, non_differentiable, primitive, rule, Differentiable};

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
        derive_frule, non_differentiable, primitive, rule, Batch, Differentiable, Dual, Frule,
        NoTangent, ZeroTangent,
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
    pub use fwdad_runtime::nalgebra::complex_field;
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
        store_deref, store_index, store_index_real, struct_literal, swap, tuple, undef, undef_dual,
        ElemAt,
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
    // A rule's `T` of a function over nalgebra's `T: ComplexField` is a real float type:
    // its where clause says so (`T: RealField`), for nalgebra's methods asking it (`norm`).
    pub use fwdad_runtime::{
        call, coerce_to, column, constant_in, holds_no_float, into_recv, lend_mut, ChainJacobianOf,
        Differentiable, Dual, FnRule, Frule, HoldsNoFloat, JacobianSink, MethodOf, Mode,
        PromotePlain, PromoteProbe, PromoteZero, Promoted, Real, RecvPlain, RecvProbe, RecvZero,
        SelfByValue, ZeroTangent,
    };
    #[cfg(feature = "nalgebra")]
    pub use nalgebra::RealField as NaRealField;
    // Element tangents that may be a constant's (`ConstTangent`), converted on entry.
    pub use fwdad_runtime::constant::{
        active_array, active_array_ref, active_ref, active_scalar, active_slice, const_arg,
        ZeroCell,
    };
    pub use fwdad_runtime::{
        ArgTangent, ConstTangent, Constant, IntArgument, RefTangent, SliceTangent,
    };
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

// The names rustc prints for the runtime's checks. When a bound of generated code fails,
// rustc's `help: the trait .. is not implemented for ..` line, its list of other impls
// and its `required by a bound in ..` note name the trait, its parameters and the
// function by their shortest visible path, which was the hidden `fwdad::__private::..`
// or `fwdad_runtime::..` one. A re-export at the crate root is shorter, so rustc prints
// it, under the name given here (bare when no other item has it): the check in words.
// The first line of such an error is the trait's `#[diagnostic::on_unimplemented]`
// message; these names only keep the lines under it in the user's terms
// (docs/notes/first-errors-audit.md). Generated code still writes the `__private` paths.
#[doc(hidden)]
pub use fwdad_runtime::constant::Constant as a_constant_with_a_zero_tangent;
#[doc(hidden)]
pub use fwdad_runtime::fallible::{
    branch as a_combinator_of_option_or_result, Branch as a_split_option_or_result,
    BranchReceiver as a_receiver_of_an_option_or_result_method,
    OptionOrResult as an_option_or_a_result,
};
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub use fwdad_runtime::maps::{
    DefaultPrimal as a_map_value_with_a_default,
    DefaultValue as a_default_derivative_of_a_map_value, MapKey as a_map_key_without_floats,
};
#[doc(hidden)]
pub use fwdad_runtime::rules::Operand as a_float_operand;
#[doc(hidden)]
pub use fwdad_runtime::structural::{
    integer as an_integer_method, opaque_macro as a_macro_derive_frule_does_not_know,
    undef as a_variable_declared_without_a_value,
    undef_dual as a_variable_declared_without_a_value_that_carries_a_derivative,
    Integer as an_integer, OpaqueMacroValue as a_macro_value_holding_no_float,
    PromoteRef as a_constant_that_can_be_passed_on_by_value,
    Undef as a_default_value_for_a_variable_declared_without_one,
    UndefPrimal as a_default_value_of_the_variables_type,
    UndefTangent as a_default_derivative_of_the_variables_type,
};
#[doc(hidden)]
pub use fwdad_runtime::traits::{
    call_on_sequence as a_trait_method_called_on_a_slice_array_or_vec,
    trait_has_rules as a_trait_bounding_a_type_parameter,
    CarriedObject as a_trait_object_that_carries_derivatives,
    CastOfGenericImpl as a_cast_to_a_trait_object_with_forward_rules,
    DerivedImpl as an_impl_with_derive_frule, DerivedTrait as a_trait_with_derive_frule,
    DynConst as the_tangent_of_a_constant_trait_object,
    DynImpl as forward_rules_behind_a_trait_object,
    DynOfActive as a_trait_object_argument_holding_constants,
    LaneValue as a_value_that_can_cross_a_dyn_call,
    MethodWithoutRule as a_trait_method_with_a_forward_rule, NoRule as without_a_forward_rule,
    SequenceRule as a_forward_rule_for_this_trait_method_on_a_sequence,
    TraitRules as forward_rules_of_the_trait, Traits as the_traits_of_this_function,
    UnsizeFrom as a_trait_object_with_forward_rules_made_from,
};
#[doc(hidden)]
pub use fwdad_runtime::user_ops::{
    binary as an_operator_between_values_of_your_types,
    float_method_field as a_float_method_on_a_field, index as indexing_a_value_of_your_type,
    std_method_receiver as a_receiver_of_a_std_method, Add as the_plus_operator,
    AddAssign as the_plus_assign_operator, Div as the_division_operator,
    DivAssign as the_divide_assign_operator, FloatMethodField as a_float_field,
    Index as the_index_operator, IndexMut as the_index_assign_operator,
    MethodNamedLikeStd as no_method_of_its_own_named_like_the_std_method,
    Mul as the_times_operator, MulAssign as the_times_assign_operator,
    NamedLikeStd as a_receiver_whose_type_is_not_written, Neg as the_minus_sign,
    OpRule as a_forward_rule_for_this_operator, Rem as the_remainder_operator,
    RemAssign as the_remainder_assign_operator, StdMethodCheck as a_receiver_of_the_std_method,
    Sub as the_minus_operator, SubAssign as the_minus_assign_operator,
};
// In rustc's list of other `Frule` impls (a closure passed to `gradient`).
#[doc(hidden)]
pub use fwdad_runtime::user_ops::{
    ConvertTo as a_forward_rule_of_a_conversion, FloatRule as a_forward_rule_of_a_float_operator,
};
#[doc(hidden)]
pub use fwdad_runtime::{
    call as calling_a_function_with_a_forward_rule,
    frule::CoerceArgs as arguments_fitting_the_called_functions_parameters,
    frule::CoerceTo as an_argument_fitting_the_parameter,
    holds_no_float as a_value_holding_no_float, MethodOf as a_method_of_the_receivers_type,
    Promoted as a_constant_passed_on_to_a_rule,
};
