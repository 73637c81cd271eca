//! Runtime of [fwdad](https://docs.rs/fwdad): dual numbers, the one-tangent-type-per-primal
//! system, the forward-rule trait, the rules of every scalar operation, and test utilities.
//!
//! ```
//! use fwdad_runtime::Dual;
//!
//! // d/dx [sin(x) · x] at x = 2, by hand-composed rules:
//! let x = Dual::new(2.0_f64, 1.0);
//! let y = x.sin() * x;
//! assert_eq!(y.primal, 2.0_f64.sin() * 2.0);
//! assert!((y.tangent - (2.0_f64.cos() * 2.0 + 2.0_f64.sin())).abs() < 1e-15);
//! ```
//!
//! Users normally reach all of this through the `fwdad` facade and `#[derive_frule]`.
//!
//! Without the default `std` feature the crate is `no_std`: the rules' float functions go
//! through `libm` (by `num_traits::Float`), and `alloc` brings back what allocates (`Vec`
//! and `Box` tangents, constant slices promoted to duals). See `docs/no_std.md`.

#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "alloc")]
extern crate alloc;

/// A qualified path read as written in a rule (`<f64 as Scale>::K`): a constant whose type
/// the macro does not see, which `#[derive_frule]` passes through this macro rather than
/// through its IR's paths (which have no `<T as Trait>` part). Also a `const { .. }` block,
/// which edition 2021's `expr` fragment does not match.
#[doc(hidden)]
#[macro_export]
macro_rules! __fwdad_constant {
    (const $b:block) => {
        const $b
    };
    ($e:expr) => {
        $e
    };
}

/// Applies `$mac!(A TA 0, B TB 1, ...)` for tuples of arity 1 to 12: per element a type
/// parameter, a second one (for impls that pair each element with another type) and the
/// index.
#[doc(hidden)]
#[macro_export]
macro_rules! for_tuples {
    ($mac:ident) => {
        $mac!(A TA 0);
        $mac!(A TA 0, B TB 1);
        $mac!(A TA 0, B TB 1, C TC 2);
        $mac!(A TA 0, B TB 1, C TC 2, D TD 3);
        $mac!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4);
        $mac!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5);
        $mac!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6);
        $mac!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7);
        $mac!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8);
        $mac!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9);
        $mac!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10);
        $mac!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11);
    };
}

/// What generated code names of `alloc` (`vec!`, `Vec`, `Box`, `format!`), so that it
/// compiles in `no_std` crates as in `std` ones.
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub mod alloc_paths {
    pub use alloc::{boxed::Box, format, string::String, vec, vec::Vec};
}
#[doc(hidden)] // generated code's helpers, reached through `fwdad::__private`
pub mod collections;
#[cfg(feature = "num-complex")]
pub mod complex;
pub mod const_iter;
pub mod constant;
pub mod differentiable;
pub mod dispatch;
pub mod dual;
#[doc(hidden)] // generated code's helpers, reached through `fwdad::__private`
pub mod fallible;
pub mod frule;
#[cfg(feature = "glam")]
pub mod glam;
pub mod implicit;
#[doc(hidden)] // generated code's helpers, reached through `fwdad::__private`
pub mod lift;
#[doc(hidden)] // generated code's helpers, reached through `fwdad::__private`
pub mod linear;
#[cfg(feature = "alloc")]
pub mod maps;
#[cfg(feature = "nalgebra")]
pub mod nalgebra;
#[cfg(feature = "nalgebra")]
pub mod nalgebra_dyn;
#[cfg(feature = "nalgebra")]
pub mod nalgebra_geometry;
#[cfg(feature = "nalgebra")]
#[doc(hidden)] // generated code's helpers, reached through `fwdad::__private`
pub mod nalgebra_linalg;
#[cfg(feature = "ndarray")]
pub mod ndarray;
pub mod num;
pub mod real;
pub mod rules;
pub mod sparsity;
#[doc(hidden)] // generated code's helpers, reached through `fwdad::__private`
pub mod structural;
pub mod tangent;
#[cfg_attr(not(feature = "testing"), doc(hidden))] // only `TestTangent` without the feature
pub mod testing;
#[doc(hidden)] // generated code's helpers, reached through `fwdad::__private`
pub mod traits;
#[doc(hidden)] // generated code's helpers, reached through `fwdad::__private`
pub mod user_ops;

pub use constant::{ArgTangent, ConstTangent, Constant, IntArgument, RefTangent, SliceTangent};
pub use differentiable::{
    holds_no_float, Differentiable, DiscreteTangent, HoldsNoFloat, ZeroTangent,
};
pub use dual::{constant_in, Dual, DualSlice, DualSliceMut};
pub use frule::{
    call, coerce_to, column, into_recv, lend_mut, ChainJacobianOf, FnRule, Frule, IntoRecv,
    JacobianSink, MethodOf, PromotePlain, PromoteProbe, PromoteZero, Promoted, RecvPlain,
    RecvProbe, RecvZero, SelfByValue,
};
#[cfg(feature = "alloc")]
pub use frule::{
    PromoteElemPlain, PromoteElemProbe, PromoteElemZero, PromoteSubPlain, PromoteSubProbe,
    PromoteSubZero, PromotedElem,
};
pub use implicit::{implicit_root, implicit_system, Residual};
#[doc(hidden)]
pub use num_traits as __num_traits;
pub use real::Real;
pub use tangent::{
    Batch, Binary, Fused, Hyper, Lanes, MaybeZero, Mode, NoTangent, ScalarTangent, TangentSpace,
    Unary,
};

/// Every scalar rule as a free function (`ops::sin(x)`, `ops::mul(a, 2.0)`, ...): what
/// generated code calls.
pub mod ops {
    pub use crate::rules::arith::*;
    pub use crate::rules::compare::*;
    pub use crate::rules::exp_log::*;
    pub use crate::rules::hyperbolic::*;
    pub use crate::rules::nondiff::*;
    pub use crate::rules::trig::*;
}
