//! # Drivers
//!
//! Value and derivatives in one call, in the spirit of num-dual's and JAX's drivers. A
//! driver takes the *rule handle* of a function and plain `f64` inputs, and returns plain
//! values. The handle of `#[derive_frule] fn f(..)` is the zero-sized marker `f {}` that
//! the macro generates next to `f`: it implements the rule for every tangent mode, so one
//! handle serves single directions, batches and second order alike. Hand-written
//! `#[primitive]` rules register the same kind of marker.
//!
//! ```
//! use fwdad::prelude::*;
//!
//! #[derive_frule]
//! fn rosenbrock(x: &[f64]) -> f64 {
//!     let mut s = 0.0;
//!     for i in 0..x.len() - 1 {
//!         s += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
//!     }
//!     s
//! }
//!
//! let x = [1.5, 2.0, -0.5];
//! let (value, grad) = gradient(rosenbrock {}, &x);
//! let (_, _, hess) = hessian(rosenbrock {}, &x);
//! assert_eq!(value, rosenbrock(&x));
//! assert_eq!(grad[0], -400.0 * 1.5 * (2.0 - 1.5 * 1.5) - 2.0 * (1.0 - 1.5));
//! assert_eq!(hess[(0, 1)], -400.0 * 1.5);
//! ```
//!
//! ## The drivers
//!
//! | driver | function | returns | passes |
//! |---|---|---|---|
//! | [`derivative`] | `f64 → R` | `(R, dR/dx)` | 1 |
//! | [`second_derivative`] | `f64 → f64` | `(f, f', f'')` | 1 |
//! | [`jvp`] | `&[f64] → R` | `(R, J·v)` | 1 |
//! | [`gradient`] | `&[f64] → f64` | `(f, ∇f)`, `∇f` a `Vec<f64>`, or a `[f64; N]` at an array ([`GradientPoint`]) | ⌈n/N⌉ |
//! | [`jacobian`] | `&[f64] → R` | `(values, J)`, `J` an m × n [`Matrix`] | ⌈n/N⌉ |
//! | [`hessian`] | `&[f64] → f64` | `(f, ∇f, ∇²f)` | about n²/2N + n/2 |
//! | [`hvp`] | `&[f64] → f64` | `(f, ∇f, ∇²f·v)` | ⌈n/N⌉ |
//! | [`jacobian_array`] | `&[f64] → [f64; M]` or `f64`, at `&[f64; N]` | `([f64; M], [[f64; N]; M])`, on the stack | 1 up to 32 inputs |
//! | [`hessian_array`] | `&[f64] → f64`, at `&[f64; N]` | `(f64, [f64; N], [[f64; N]; N])` | n up to 8 inputs |
//! | [`hvp_array`] | `&[f64] → f64`, at `&[f64; N]` | `(f64, [f64; N], [f64; N])` | 1 up to 12 inputs |
//!
//! `R` is any result the rule returns: `f64`, `[f64; M]`, `Vec<f64>`, tuples of `f64`
//! (for [`derivative`] and [`jvp`], any differentiable type). For [`jacobian`] the results
//! that are read as a flat list of reals are those of [`FlatOutput`].
//!
//! At a fixed size, an array `[f64; N]` in and an `f64` or `[f64; M]` out (a robot's
//! kinematics, an ODE right-hand side in a Newton iteration, an EKF's linearisation at each
//! step), the `_array` drivers return arrays on the stack and allocate nothing, as
//! [`gradient`] at an array does: [`jacobian`] allocates its seeds, values and
//! [`Matrix`] per call, which costs more than a 2 × 2 Jacobian itself.
//!
//! ## Several arguments: [`bind`]
//!
//! A driver differentiates a function of one argument. For a function of several, [`bind`]
//! fixes all arguments but the one marked [`Wrt`] ("with respect to"); the fixed ones are
//! constants (their tangents are zero): numbers, arrays, `&T`, `&[T]`, or anything in
//! [`Const`]. An output buffer `&mut [f64]` is marked [`Out`] and read back by
//! [`inplace`] (a work buffer whose content is not wanted is [`Scratch`]`(len)`):
//!
//! ```
//! use fwdad::drivers::{bind, inplace, Out, Wrt};
//! use fwdad::prelude::*;
//!
//! #[derive_frule]
//! fn energy(x: &[f64], k: f64, weights: &[f64]) -> f64 {
//!     let mut e = 0.0;
//!     for i in 0..x.len() {
//!         e += 0.5 * k * weights[i] * x[i] * x[i];
//!     }
//!     e
//! }
//!
//! #[derive_frule]
//! fn scale_into(a: f64, x: &[f64], y: &mut [f64]) {
//!     for i in 0..x.len() {
//!         y[i] = a * x[i].exp();
//!     }
//! }
//!
//! let w = vec![1.0, 2.0];
//! let (_, g) = gradient(bind(energy {}, (Wrt, 3.0, &w[..])), &[1.0, -1.0]);
//! assert_eq!(g, [3.0, -6.0]);
//!
//! // d/dx of y = 2·exp(x) written into y: a diagonal Jacobian.
//! let (y, j) = jacobian(inplace(bind(scale_into {}, (2.0, Wrt, Out)), 2), &[0.0, 1.0]);
//! assert_eq!(y, [2.0, 2.0 * 1f64.exp()]);
//! assert_eq!(j.to_rows(), [[2.0, 0.0], [0.0, 2.0 * 1f64.exp()]]);
//! ```
//!
//! ## Methods: [`rule!`](crate::rule)
//!
//! A method of a `#[derive_frule] impl` has no marker a path can name (`Model::loss {}` is
//! rustc's E0223, an associated type); its handle is `rule!(Model::loss)`, whose first
//! argument is the receiver. [`bind`] holds it fixed: `&model` for a `&self` method,
//! [`Const`]`(model)` for a `self` one. The type may be generic (`rule!(Quadratic::eval)`
//! infers its parameters from the bound receiver, `rule!(Quadratic::<f64>::eval)` names
//! them), and the method one of a trait's `impl` (`rule!(Morse::at)`, `rule!(<Morse as
//! Potential>::at)`).
//!
//! ```
//! use fwdad::drivers::{bind, Wrt};
//! use fwdad::prelude::*;
//!
//! #[derive(Clone, Debug, Differentiable)]
//! pub struct Ridge {
//!     pub xs: Vec<f64>,
//!     pub ys: Vec<f64>,
//!     pub lambda: f64,
//! }
//!
//! #[derive_frule]
//! impl Ridge {
//!     pub fn loss(&self, w: &[f64]) -> f64 {
//!         let mut l = 0.5 * self.lambda * (w[0] * w[0] + w[1] * w[1]);
//!         for (x, y) in self.xs.iter().zip(&self.ys) {
//!             let r = w[0] * x + w[1] - y;
//!             l += 0.5 * r * r;
//!         }
//!         l
//!     }
//! }
//!
//! let m = Ridge { xs: vec![1.0, 2.0], ys: vec![0.5, 2.5], lambda: 0.1 };
//! let w = [0.8, 0.2];
//! let (l, g) = gradient(bind(rule!(Ridge::loss), (&m, Wrt)), &w);
//! assert_eq!(l, m.loss(&w));
//! // Σ rᵢ xᵢ + λ w0 and Σ rᵢ + λ w1, with r = [0.5, -0.7].
//! assert!((g[0] - (0.5 - 1.4 + 0.08)).abs() < 1e-14);
//! assert!((g[1] - (0.5 - 0.7 + 0.02)).abs() < 1e-14);
//! // Σ [xᵢ, 1]ᵀ[xᵢ, 1] + λ I.
//! let (_, _, h) = hessian(bind(rule!(Ridge::loss), (&m, Wrt)), &w);
//! assert!((h[(0, 0)] - 5.1).abs() < 1e-14 && (h[(1, 1)] - 2.1).abs() < 1e-14);
//! assert_eq!((h[(0, 1)], h[(1, 0)]), (3.0, 3.0));
//! ```
//!
//! ## Batch mode
//!
//! [`gradient`], [`jacobian`], [`hessian`] and [`hvp`] push `N` directions through each
//! pass of the rule ([`Batch<f64, N>`](crate::Batch) tangents, ForwardDiff's chunks): the
//! primal is computed once per pass, the tangent arithmetic runs on `N` lanes. `N` is
//! measured per driver (BENCHMARKS.md, "Driver widths"): [`hessian`] 8 ([`DEFAULT_WIDTH`]),
//! [`jacobian`] 4, 8 or 16 by the input length ([`jacobian_width`]), [`hvp`] 8 or 16
//! ([`hvp_width`]), and [`gradient`], which takes one pass of `n` directions
//! rounded up to 4, 8, 10, 12 or 16 lanes for up to 16 inputs and, above, chooses among
//! one pass of 20 or 32 lanes and
//! 8, 16 and 32 lanes of `Batch` or
//! of [`MaybeZero`] (which skips the zero tangents of the inputs outside a pass's chunk)
//! by timing its own first calls per function ([`GradientPlan`]; [`gradient_width`] for
//! the first call; [`GradientWorkspace`] times the plans on its first call); the
//! `_with::<N>` variants choose it
//! (`gradient_with::<16>(f, &x)`).
//! Any `N ≥ 1` works: the rules are written once, generic over the tangent type, so no
//! code depends on the width. The last pass is padded with zero directions when `N` does
//! not divide the input length. Batches of two or more lanes run linearised chains (a
//! straight-line run of scalar operations computes its partial derivatives once, as
//! scalars, and updates the `N`-lane tangents only where a value leaves the run; see
//! `docs/design.md`): the same derivative summed in another order, so a batched Jacobian
//! equals the column-by-column one to rounding, and is the same bit for bit at every width
//! `N ≥ 2`. `N = 1` compiles to the same scalar arithmetic as the one-direction rule, with no
//! per-lane loop left after inlining (measured: equal time on Ackley, within 10 % on
//! Rosenbrock, where LLVM pairs the one-direction primal and tangent in SIMD registers).
//! [`MaybeZero<Batch<f64, N>>`](MaybeZero) runs the same linearised code and skips the
//! known-zero terms, whose contribution is an exact zero: its gradient equals `Batch`'s
//! (`==` on every entry; a zero's sign may differ, and a known zero times an infinite
//! partial stays zero where `Batch` gives NaN).
//!
//! ## Second order
//!
//! [`hessian`], [`hvp`] and [`second_derivative`] run the *same* derived rule with
//! second-order tangents [`Hyper<f64, Batch<f64, N>>`](crate::Hyper): each input carries
//! `x + d1·ε₁ + d2·ε₂ + d12·ε₁ε₂` with `ε₁² = ε₂² = 0`, `d1` a batch of `N` directions and
//! `d2` one direction. Every scalar rule propagates `d12 ← f'·d12 + f''·d1·d2`, so seeding
//! `d1 = e_i` (batched over a chunk of `i`) and `d2 = v` yields `(∇²f·v)_i` in lane `i` of
//! `d12`, and `∂f/∂x_i` in `d1`. This is forward-over-forward without nesting: the two
//! perturbations are distinct fields of one tangent, so they cannot be confused
//! (d/dx [x · d/dy (x + y)] = 1, see the tests). [`hessian`] seeds `d2 = e_j` for the
//! columns `j` at or right of each chunk and mirrors the rest, so the result is exactly
//! symmetric.
//!
//! ## What a rule must look like
//!
//! The vector drivers call the rule with one argument of type `&[f64]`; [`derivative`] and
//! [`second_derivative`] with one `f64`. Use [`bind`] for other signatures. Bounds are
//! written with [`Frule`] (or [`SliceRule`], the same for a `&[f64]` argument): a type that
//! has no rule is reported as "no forward rule for ...".

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Index, IndexMut};
use fwdad_runtime::{
    constant_in, Batch, ConstTangent, Differentiable, Dual, Frule, Hyper, Lanes, MaybeZero, Mode,
    NoTangent, ScalarTangent, ZeroTangent,
};

/// Directions per pass of [`hessian`], and the default of the workspaces' width
/// parameter ([`JacobianWorkspace`], the sparse workspaces).
///
/// Eight `f64` lanes fill two 256-bit vector registers; wider batches amortise the primal
/// over more directions at the price of more tangent memory per value. For the Hessian 8
/// was measured best or within 4 % of the best (BENCHMARKS.md, "Driver widths":
/// `hessian_with::<w>` ÷ `hessian_with::<8>` on Rosenbrock and Ackley at 10 and 20 inputs
/// and a GMM objective of 30 parameters; 4 lanes 0.96-1.20, 16 lanes 1.14-1.47), so it is
/// fixed. [`jacobian`] ([`jacobian_width`]), [`hvp`] ([`hvp_width`]) and [`gradient`]
/// ([`gradient_width`], [`GradientPlan`]) choose theirs by the input length, from
/// measurements. Choose another width with the `_with::<N>` variants.
pub const DEFAULT_WIDTH: usize = 8;

/// Where a rule's Jacobian entry writes (see `Frule::chain_jacobian`).
#[doc(hidden)]
pub use fwdad_runtime::JacobianSink;

/// The traits of this module name bounds: they are implemented here for everything the
/// drivers accept, and a supertrait from this private module keeps other crates from
/// adding impls, so that the list stays the one documented (and can grow without a
/// breaking change).
/// The seal of `bind`'s entries, which `#[derive(Differentiable)]` implements for a
/// fieldless enum of the user's (`bind(f {}, (Wrt, Kind::Call))`). Not public API.
#[doc(hidden)]
pub use sealed::Entry as BindEntry;

mod sealed {
    /// Seal of [`SliceRule`](super::SliceRule) (and through it of
    /// [`GradientRule`](super::GradientRule)): the rules of one `&[f64]` argument.
    pub trait SliceRule<S> {}
    /// Seal of [`FlatOutput`](super::FlatOutput): the result duals `jacobian` reads.
    pub trait FlatOutput<S> {}
    /// Seal of [`ScalarOutput`](super::ScalarOutput): the dual of one `f64`.
    pub trait ScalarOutput<S> {}
    /// Seal of the traits of one [`bind`](super::bind) argument
    /// ([`Slot`](super::Slot), [`Fits`](super::Fits), [`Settled`](super::Settled)): the
    /// entries listed at `bind`.
    pub trait Entry {}
    /// Seal of the traits of `bind`'s argument tuple ([`BindArgs`](super::BindArgs),
    /// [`SettledArgs`](super::SettledArgs), [`BoundCall`](super::BoundCall)).
    pub trait Args {}
}

// ---------------------------------------------------------------------------------------
// Rules of one slice argument
// ---------------------------------------------------------------------------------------

/// A rule of one `&[f64]` argument under the mode `S`: implemented for every `F` with
/// `for<'a> F: Frule<(Dual<&'a [f64], &'a [S]>,), S>`, that is for the handle of every
/// `#[derive_frule] fn f(x: &[f64]) -> ..`, for [`bind`] and for [`inplace`].
///
/// It only names the bound of the vector drivers; there is nothing to implement (it is
/// sealed: no other crate can implement it).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rule of one `&[f64]` argument (mode `{S}`)",
    label = "the vector drivers call this rule with one `x: &[f64]`",
    note = "pass the handle of a `#[derive_frule]` function of `x: &[f64]` (`f {{}}`); of a method of a `#[derive_frule] impl`, `rule!(Model::loss)`, its receiver bound first (`bind(rule!(Model::loss), (&model, Wrt))`); fix its other arguments with `bind(f {{}}, (Wrt, ..))`; for a function of `x: &[f64; N]`, `[f64; N]`, `&Vec<f64>` or `Vec<f64>` write `bind(f {{}}, (Wrt,))`; for a function of several `f64`s write `bind(f {{}}, (Var(0), Var(1), ..))`; for a function of one `f64` use `derivative`"
)]
pub trait SliceRule<S: Mode>: sealed::SliceRule<S> {
    /// The dual of the result (`Dual<f64, S>` for a scalar function).
    type Output;
    /// Runs the rule at `x` along the tangent `dx` (`dx.len() == x.len()`).
    fn eval(&self, x: &[f64], dx: &[S]) -> Self::Output;
    /// The rule's Jacobian entry at `x` ([`Frule::chain_jacobian`], `x`'s elements the
    /// columns; `dx` only gives the arguments their type, it is not read): `false` when
    /// the rule has none.
    #[doc(hidden)]
    #[inline(always)]
    fn eval_jacobian<J: JacobianSink>(&self, x: &[f64], dx: &[S], out: &mut J) -> bool {
        let _ = (x, dx, out);
        false
    }
}

impl<F, S: Mode> sealed::SliceRule<S> for F where F: for<'a> Frule<(Dual<&'a [f64], &'a [S]>,), S> {}

impl<F, S: Mode, O> SliceRule<S> for F
where
    F: for<'a> Frule<(Dual<&'a [f64], &'a [S]>,), S, Output = O>,
{
    type Output = O;
    #[inline(always)]
    fn eval(&self, x: &[f64], dx: &[S]) -> O {
        self.frule((Dual::new(x, dx),))
    }
    #[inline(always)]
    fn eval_jacobian<J: JacobianSink>(&self, x: &[f64], dx: &[S], out: &mut J) -> bool {
        self.chain_jacobian((Dual::new(x, dx),), &[Some(0)], out)
    }
}

// ---------------------------------------------------------------------------------------
// bind: fix all arguments but one
// ---------------------------------------------------------------------------------------

/// Marks the differentiated argument in [`bind`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wrt;

/// A scalar argument taken from the point the vector drivers are given, for [`bind`]:
/// `Var(i)` passes element `i` of `x` (and its tangent). With it a function of several
/// scalars (`fn price(s: f64, k: f64, r: f64, sigma: f64, t: f64)`) has a gradient, a
/// Jacobian or a Hessian with respect to any of them.
///
/// ```
/// use fwdad::drivers::{bind, Var};
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn cone(r: f64, height: f64, density: f64) -> f64 {
///     density * std::f64::consts::PI * r * r * height / 3.0
/// }
///
/// // The mass's gradient with respect to the radius and the height, at density 2.
/// let (m, g) = gradient(bind(cone {}, (Var(0), Var(1), 2.0)), &[0.5, 3.0]);
/// assert_eq!(m, cone(0.5, 3.0, 2.0));
/// let pi = std::f64::consts::PI;
/// assert!((g[0] - 2.0 * pi * 2.0 * 0.5 * 3.0 / 3.0).abs() < 1e-14);
/// assert!((g[1] - 2.0 * pi * 0.25 / 3.0).abs() < 1e-14);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Var(pub usize);

/// Marks the output buffer (`&mut [f64]`) in [`bind`], for [`inplace`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Out;

/// A scratch buffer argument (`&mut [f64]`) of the given length for [`bind`]: zeroed for
/// each pass, its content is discarded (use [`Out`] and [`inplace`] to read it instead).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Scratch(pub usize);

/// A constant argument of any type with a zero tangent (for [`bind`]), passed to the rule
/// by value (cloned for each pass). Plain `f64`, integers, `bool`, arrays, `Option`s
/// (`Some(0.5)`, `None`), `&T`, `&[T]` and a fieldless enum with
/// `#[derive(Differentiable)]` (`bind(f {}, (Wrt, Activation::Tanh))`) need no wrapper.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Const<P>(pub P);

/// Borrowed data for a parameter declared `#[derive_frule(inactive(..))]` (for [`bind`]):
/// the rule takes it as the plain reference, with no tangent to build. The reference
/// alone (`&data[..]`) binds there too; `Inactive` says so at the call.
///
/// ```
/// use fwdad::drivers::{bind, Inactive, Wrt};
/// use fwdad::prelude::*;
///
/// #[derive_frule(inactive(data))]
/// fn sq_error(w: f64, data: &[f64]) -> f64 {
///     let mut s = 0.0;
///     for d in data {
///         s += (w - d) * (w - d);
///     }
///     s
/// }
///
/// let data = vec![1.0, 2.0, 4.0];
/// let (_, dw) = derivative(bind(sq_error {}, (Wrt, Inactive(&data[..]))), 0.5);
/// assert_eq!(dw, 2.0 * ((0.5 - 1.0) + (0.5 - 2.0) + (0.5 - 4.0)));
/// let (_, same) = derivative(bind(sq_error {}, (Wrt, &data[..])), 0.5);
/// assert_eq!(same, dw);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inactive<P>(pub P);

/// A rule with all arguments but one fixed: see [`bind`].
pub struct Bound<F, A, D = ()> {
    rule: F,
    args: A,
    /// The one-direction duals of the rule's parameters, as `bind` inferred them: they
    /// tell a [`Wrt`] entry the shape the rule takes (a slice, or an array it converts to).
    params: PhantomData<fn() -> D>,
}

// By hand: the derives would ask `D` (the parameter duals, `&mut` ones included) for
// `Clone`, `Copy` and `Debug`, which only the rule and the arguments need.
impl<F: Clone, A: Clone, D> Clone for Bound<F, A, D> {
    fn clone(&self) -> Self {
        Bound {
            rule: self.rule.clone(),
            args: self.args.clone(),
            params: PhantomData,
        }
    }
}

impl<F: Copy, A: Copy, D> Copy for Bound<F, A, D> {}

impl<F: fmt::Debug, A: fmt::Debug, D> fmt::Debug for Bound<F, A, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bound")
            .field("rule", &self.rule)
            .field("args", &self.args)
            .finish()
    }
}

/// Fixes all arguments of a rule but the one marked [`Wrt`], which becomes the argument
/// the drivers differentiate (JAX's `argnums`, or a closure `|x| f(x, a, b)`).
///
/// `args` holds one entry per parameter of the function, in order:
/// - [`Wrt`] for the differentiated argument: `x: f64`, `x: &[f64]`, or an array
///   `x: &[f64; N]` or `x: [f64; N]`, which the vector drivers fill from the slice they
///   are given (a slice of another length panics);
/// - a constant: `f64`, `f32`, integers, `bool`, `char`, arrays `[T; K]` by value, `&T`
///   for any `T: ZeroTangent` (a `&Params`), `&[T]` for a slice (write `&v[..]` for a
///   `Vec`; an array `&[1.0, 0.8]` binds to a slice parameter too), a struct or enum of
///   yours (`#[derive(Clone, Differentiable)]`, not generic) by value, or
///   [`Const`]`(value)` for any other value; constants get zero tangents;
/// - [`Var`]`(i)` for a scalar parameter `f64` taken from element `i` of the point, so that
///   the drivers differentiate with respect to several scalar parameters at once;
/// - for a borrowed parameter declared `inactive(..)`, the reference itself (`&data`,
///   `&v[..]`), of any type (it needs no `Differentiable`), or [`Inactive`]`(&data)`; for
///   an optional one (`anchor: Option<&Spring>`), `Some(&s)` or `None` as it is;
/// - [`Out`] for an output buffer `&mut [f64]`, to be wrapped in [`inplace`];
/// - [`Scratch`]`(len)` for a work buffer `&mut [f64]` whose content is not wanted.
///
/// The argument types are checked against the rule when `bind` is called, which also
/// gives untyped literals their type (`10` becomes the `usize` the function takes). A
/// literal bound to a parameter of a generic function (`c: T` of `fn f<T: Float>`) takes
/// its type only at the end of type checking, where it falls back to `f64`; until then the
/// types of the results of [`derivative`] and [`jvp`] are unknown too, so if the compiler
/// asks for type annotations there, type the literal (`2.0f64`).
/// Binding works up to 8 parameters (pricing functions take seven or eight scalars). Marking two arguments [`Wrt`] differentiates
/// `x ↦ f(x, x)`.
///
/// ```
/// use fwdad::drivers::{bind, Wrt};
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn potential(r: f64, depth: f64, steps: usize) -> f64 {
///     let mut v = 0.0;
///     for k in 0..steps {
///         v += depth * (-(k as f64 + 1.0) * r).exp();
///     }
///     v
/// }
///
/// // d/dr at r = 0.5 with depth = 2 and 3 terms.
/// let (v, dv) = derivative(bind(potential {}, (Wrt, 2.0, 3)), 0.5);
/// assert_eq!(v, potential(0.5, 2.0, 3));
/// let exact: f64 = (1..=3).map(|k| -2.0 * k as f64 * (-(k as f64) * 0.5).exp()).sum();
/// assert!((dv - exact).abs() < 1e-14);
/// ```
pub fn bind<F, A, D>(rule: F, args: A) -> Bound<F, A, D>
where
    A: BindArgs<F, D>,
{
    Bound {
        rule,
        args,
        params: PhantomData,
    }
}

#[doc(hidden)]
/// An entry of the argument tuple of [`bind`]: how it becomes a dual under mode `S`,
/// given the differentiated argument's dual `X` and the output buffer's dual `Y`.
///
/// Implemented for [`Wrt`], [`Out`], [`Scratch`], [`Const`], [`Inactive`] and the
/// constants listed at [`bind`].
pub trait Slot<X, Y, S: Mode, D>: sealed::Entry + for<'z> SlotDual<'z, X, Y, S, D> {
    /// Owned storage of the zero tangent of a borrowed constant, or of a scratch buffer
    /// (`()` for the others).
    type Store;
    /// Builds the storage (once per pass).
    fn store(&self) -> Self::Store;
    /// The dual passed to the rule.
    fn dual<'z>(
        &'z self,
        store: &'z mut Self::Store,
        x: X,
        y: &mut Option<Y>,
    ) -> <Self as SlotDual<'z, X, Y, S, D>>::Dual;
    /// The Jacobian column of the argument's first element, given the differentiated
    /// argument's (`col`): the same for [`Wrt`], shifted for [`Var`], `None` (a constant)
    /// for the others ([`Frule::chain_jacobian`]).
    #[inline(always)]
    fn column(&self, col: Option<usize>) -> Option<usize> {
        let _ = col;
        None
    }
}

#[doc(hidden)]
/// The dual type of a [`Slot`] borrowed for `'z`.
///
/// A lifetime-generic associated type written as a trait, so that the bound
/// `for<'z> F: Frule<(<A as SlotDual<'z, ..>>::Dual, ..)>` carries the implied bound
/// `A: 'z` (through the defaulted parameter) instead of demanding `A: 'static`.
pub trait SlotDual<'z, X, Y, S: Mode, D, ImpliedBound = &'z Self>: sealed::Entry {
    /// The dual passed to the rule.
    type Dual;
}

/// Whether a [`bind`] argument fits the rule's parameter whose one-direction dual is `D`.
///
/// Checked by [`bind`] in the one-direction mode, which also resolves untyped literals.
/// Sealed: implemented for the entries listed at [`bind`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be bound to a parameter taking `{D}`",
    label = "this argument does not fit the rule's parameter",
    note = "bind a `&[f64]` parameter to a slice (`&v[..]`), `&T` to a reference, a value of another type with `fwdad::Const(value)`, a borrowed parameter declared `inactive` to its reference (`&v[..]`, `&value`), one taken by value as constant data (declared `inactive`, an enum of units without `Differentiable`) with `fwdad::Inactive(value)`; mark the differentiated argument `Wrt` and an output buffer `Out`",
    note = "the entries follow the parameters in order; a method's handle (`rule!(Model::loss)`) takes its receiver first: `&model` for `&self`, `Const(model)` for `self` (`bind(rule!(Model::loss), (&model, Wrt))`)"
)]
pub trait Fits<D>: sealed::Entry {}

/// The argument tuple of [`bind`], checked against the rule `F` whose parameters have the
/// one-direction duals `D`.
#[diagnostic::on_unimplemented(
    message = "the arguments `{Self}` do not fit the rule `{F}`",
    label = "one entry per parameter of the function, in order",
    note = "mark the differentiated argument `Wrt` and an output buffer `Out`; give every other argument a constant value",
    note = "a method's handle (`rule!(Model::loss)`) takes its receiver first, bound to `&model` for `&self` or `Const(model)` for `self`: `bind(rule!(Model::loss), (&model, Wrt))`"
)]
pub trait BindArgs<F, D>: sealed::Args {}

#[doc(hidden)]
/// The absent output buffer of a [`Bound`] called with the differentiated argument only.
/// It reaches a rule only where `Out` is bound without [`inplace`] giving the buffer, so
/// its name is what rustc's "found `..`" then tells the user to do.
#[derive(Clone, Copy, Debug)]
pub struct OutNeedsInplace;

// A dual (the drivers pass one), not any `D`: a scalar `#[primitive(d = ..)]` rule takes
// a dual or a plain float per argument, and this picks the dual.
// The one-direction dual of the primal type: a rule generic over a parameter's element
// tangent (which may be a constant's) then takes the drivers' tangent there.
impl<P: Differentiable> Fits<Dual<P, P::Tangent>> for Wrt {}
impl<'z, X, Y, S: Mode, D: WrtInto<'z, X>> SlotDual<'z, X, Y, S, D> for Wrt {
    type Dual = D::Dual;
}
impl<X, Y, S: Mode, D: WrtFrom<X> + for<'z> WrtInto<'z, X>> Slot<X, Y, S, D> for Wrt {
    type Store = D::Store;
    #[inline(always)]
    fn store(&self) -> D::Store {
        D::store()
    }
    #[inline(always)]
    fn dual<'z>(
        &'z self,
        store: &'z mut D::Store,
        x: X,
        _: &mut Option<Y>,
    ) -> <D as WrtInto<'z, X>>::Dual {
        D::convert(x, store)
    }
    #[inline(always)]
    fn column(&self, col: Option<usize>) -> Option<usize> {
        col
    }
}

#[doc(hidden)]
/// How the drivers' argument `X` reaches a rule parameter marked [`Wrt`] whose
/// one-direction dual is `Self`: as it is, or, for a parameter `&[f64; N]` or `[f64; N]`
/// fed from a slice, converted to the array (the length is checked once per pass), or,
/// for a nalgebra vector (`&Vector3<f64>`, `&DVector<f64>`), copied into storage the pass
/// owns ([`WrtFrom::Store`]) and borrowed from there ([`WrtInto`]).
#[diagnostic::on_unimplemented(
    message = "the parameter marked `Wrt` does not take the point this driver differentiates at",
    label = "`Wrt` marks a parameter this driver cannot fill",
    note = "`derivative` differentiates a float parameter at a float; `gradient`, `jacobian` and `hessian` a `&[f64]`, `&[f64; N]`, `[f64; N]`, `&Vec<f64>` or `Vec<f64>` parameter (or a nalgebra vector) at a slice or an array",
    note = "to differentiate with respect to several float parameters at once, bind them `Var(0)`, `Var(1)`, ... instead of `Wrt` (two `Wrt`s mean the same value passed twice)",
    note = "a method's handle (`rule!(Model::loss)`) takes its receiver first: `Wrt` goes in the slot of the parameter differentiated, `bind(rule!(Model::loss), (&model, Wrt))`"
)]
pub trait WrtFrom<X> {
    /// What the pass owns for the parameter to borrow (`()` for most).
    type Store;
    /// Builds it (once per pass, before the point is known).
    fn store() -> Self::Store;
}

#[doc(hidden)]
/// The conversion of [`WrtFrom`], borrowing the pass's storage for `'z`.
#[diagnostic::on_unimplemented(
    message = "the parameter marked `Wrt` does not take the point this driver differentiates at",
    label = "`Wrt` marks a parameter this driver cannot fill",
    note = "`derivative` differentiates a float parameter at a float; `gradient`, `jacobian` and `hessian` a `&[f64]`, `&[f64; N]`, `[f64; N]`, `&Vec<f64>` or `Vec<f64>` parameter (or a nalgebra vector) at a slice or an array",
    note = "to differentiate with respect to several float parameters at once, bind them `Var(0)`, `Var(1)`, ... instead of `Wrt` (two `Wrt`s mean the same value passed twice)",
    note = "a method's handle (`rule!(Model::loss)`) takes its receiver first: `Wrt` goes in the slot of the parameter differentiated, `bind(rule!(Model::loss), (&model, Wrt))`"
)]
pub trait WrtInto<'z, X>: WrtFrom<X> {
    /// The dual the rule takes.
    type Dual;
    /// `x` in that shape.
    fn convert(x: X, store: &'z mut Self::Store) -> Self::Dual;
}

// The rule takes the drivers' type: `x` as it is. One impl per shape of primal (a
// blanket `Dual<P, _>` would overlap the array conversions below, lifetimes aside).
impl<P: ?Sized, T, U> WrtFrom<Dual<&P, U>> for Dual<&P, T>
where
    for<'x> &'x P: Differentiable,
{
    type Store = ();
    #[inline(always)]
    fn store() {}
}
impl<'z, 'a, P: ?Sized, T, U> WrtInto<'z, Dual<&'a P, U>> for Dual<&P, T>
where
    for<'x> &'x P: Differentiable,
{
    type Dual = Dual<&'a P, U>;
    #[inline(always)]
    fn convert(x: Dual<&'a P, U>, _: &'z mut ()) -> Dual<&'a P, U> {
        x
    }
}

impl<P: ?Sized, T, U> WrtFrom<Dual<&mut P, U>> for Dual<&mut P, T>
where
    for<'x> &'x mut P: Differentiable,
{
    type Store = ();
    #[inline(always)]
    fn store() {}
}
impl<'z, 'a, P: ?Sized, T, U> WrtInto<'z, Dual<&'a mut P, U>> for Dual<&mut P, T>
where
    for<'x> &'x mut P: Differentiable,
{
    type Dual = Dual<&'a mut P, U>;
    #[inline(always)]
    fn convert(x: Dual<&'a mut P, U>, _: &'z mut ()) -> Dual<&'a mut P, U> {
        x
    }
}

macro_rules! wrt_by_value {
    ($([$($g:tt)*] $p:ty),*) => {$(
        impl<$($g)* T, U> WrtFrom<Dual<$p, U>> for Dual<$p, T> {
            type Store = ();
            #[inline(always)]
            fn store() {}
        }
        impl<'z, $($g)* T, U> WrtInto<'z, Dual<$p, U>> for Dual<$p, T> {
            type Dual = Dual<$p, U>;
            #[inline(always)]
            fn convert(x: Dual<$p, U>, _: &'z mut ()) -> Dual<$p, U> {
                x
            }
        }
    )*};
}
wrt_by_value!([] f64, [] f32, [E: Differentiable, const K: usize,] [E; K]);

impl<'a, 'd, S: Mode, const N: usize> WrtFrom<Dual<&'a [f64], &'a [S]>>
    for Dual<&'d [f64; N], &'d [f64; N]>
{
    type Store = ();
    #[inline(always)]
    fn store() {}
}
impl<'z, 'a, 'd, S: Mode, const N: usize> WrtInto<'z, Dual<&'a [f64], &'a [S]>>
    for Dual<&'d [f64; N], &'d [f64; N]>
{
    type Dual = Dual<&'a [f64; N], &'a [S; N]>;
    #[inline(always)]
    fn convert(x: Dual<&'a [f64], &'a [S]>, _: &'z mut ()) -> Self::Dual {
        Dual::new(wrt_array(x.primal), wrt_array(x.tangent))
    }
}

impl<'a, S: Mode, const N: usize> WrtFrom<Dual<&'a [f64], &'a [S]>> for Dual<[f64; N], [f64; N]> {
    type Store = ();
    #[inline(always)]
    fn store() {}
}
impl<'z, 'a, S: Mode, const N: usize> WrtInto<'z, Dual<&'a [f64], &'a [S]>>
    for Dual<[f64; N], [f64; N]>
{
    type Dual = Dual<[f64; N], [S; N]>;
    #[inline(always)]
    fn convert(x: Dual<&'a [f64], &'a [S]>, _: &'z mut ()) -> Self::Dual {
        Dual::new(*wrt_array(x.primal), *wrt_array(x.tangent))
    }
}

// A `Vec<f64>` parameter, by reference (`x: &Vec<f64>`, as newcomers write it) or by
// value: the point copied into a `Vec` the pass owns (once per pass).
impl<'a, 'd, S: Mode> WrtFrom<Dual<&'a [f64], &'a [S]>> for Dual<&'d Vec<f64>, &'d Vec<f64>> {
    type Store = (Vec<f64>, Vec<S>);
    #[inline(always)]
    fn store() -> Self::Store {
        (Vec::new(), Vec::new())
    }
}
impl<'z, 'a, 'd, S: Mode> WrtInto<'z, Dual<&'a [f64], &'a [S]>>
    for Dual<&'d Vec<f64>, &'d Vec<f64>>
{
    type Dual = Dual<&'z Vec<f64>, &'z Vec<S>>;
    #[inline(always)]
    fn convert(x: Dual<&'a [f64], &'a [S]>, store: &'z mut Self::Store) -> Self::Dual {
        store.0.clear();
        store.0.extend_from_slice(x.primal);
        store.1.clear();
        store.1.extend_from_slice(x.tangent);
        Dual::new(&store.0, &store.1)
    }
}

impl<'a, S: Mode> WrtFrom<Dual<&'a [f64], &'a [S]>> for Dual<Vec<f64>, Vec<f64>> {
    type Store = ();
    #[inline(always)]
    fn store() {}
}
impl<'z, 'a, S: Mode> WrtInto<'z, Dual<&'a [f64], &'a [S]>> for Dual<Vec<f64>, Vec<f64>> {
    type Dual = Dual<Vec<f64>, Vec<S>>;
    #[inline(always)]
    fn convert(x: Dual<&'a [f64], &'a [S]>, _: &'z mut ()) -> Self::Dual {
        Dual::new(x.primal.to_vec(), x.tangent.to_vec())
    }
}

mod fixed;
#[cfg(feature = "nalgebra")]
mod na_args;
mod point;
mod single;

pub use fixed::{
    hessian_array, hvp_array, jacobian_array, ArrayOutput, HESSIAN_ARRAY_ONE_PASS,
    HVP_ARRAY_ONE_PASS, JACOBIAN_ARRAY_ONE_PASS,
};
#[doc(hidden)]
pub use fixed::{hessian_array_with, hvp_array_with, jacobian_array_with};
pub use point::GradientPoint;
pub use single::{
    derivative_f32, gradient_f32, jacobian_f32, FlatOutputF32, GradientRuleF32, JacobianRuleF32,
    SliceRuleF32,
};

/// The differentiated slice as the array the rule's parameter is.
#[inline(always)]
pub(crate) fn wrt_array<T, const N: usize>(x: &[T]) -> &[T; N] {
    match x.try_into() {
        Ok(a) => a,
        Err(_) => panic!(
            "the differentiated argument has {} elements, but the function takes an array of {N}",
            x.len()
        ),
    }
}

// The one-direction tangent, as for `Wrt`: a rule generic over the element tangent takes
// the drivers' there.
impl Fits<Dual<f64, f64>> for Var {}
impl<'z, 'a, Y, S: Mode, D> SlotDual<'z, Dual<&'a [f64], &'a [S]>, Y, S, D> for Var {
    type Dual = Dual<f64, S>;
}
impl<'a, Y, S: Mode, D> Slot<Dual<&'a [f64], &'a [S]>, Y, S, D> for Var {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(
        &'z self,
        _: &'z mut (),
        x: Dual<&'a [f64], &'a [S]>,
        _: &mut Option<Y>,
    ) -> Dual<f64, S> {
        match (x.primal.get(self.0), x.tangent.get(self.0)) {
            (Some(&p), Some(&t)) => Dual::new(p, t),
            _ => panic!(
                "`Var({})` is bound, but the point has {} elements",
                self.0,
                x.primal.len()
            ),
        }
    }
    #[inline(always)]
    fn column(&self, col: Option<usize>) -> Option<usize> {
        col.map(|c| c + self.0)
    }
}

// A scalar point (`derivative(bind(jn {}, (3, Var(0))), x)`): `Var(0)` is the scalar.
impl<'z, Y, S: Mode, D> SlotDual<'z, Dual<f64, S>, Y, S, D> for Var {
    type Dual = Dual<f64, S>;
}
impl<Y, S: Mode, D> Slot<Dual<f64, S>, Y, S, D> for Var {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(&'z self, _: &'z mut (), x: Dual<f64, S>, _: &mut Option<Y>) -> Dual<f64, S> {
        assert!(
            self.0 == 0,
            "`Var({})` is bound, but the point is one scalar: bind it as `Var(0)`",
            self.0
        );
        x
    }
}

impl<P: Differentiable, T> Fits<Dual<P, T>> for Out {}
impl<'z, X, Y, S: Mode, D> SlotDual<'z, X, Y, S, D> for Out {
    type Dual = Y;
}
impl<X, Y, S: Mode, D> Slot<X, Y, S, D> for Out {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(&'z self, _: &'z mut (), _: X, y: &mut Option<Y>) -> Y {
        y.take()
            .expect("`Out` marks one output buffer: bind it once, and wrap the rule in `inplace`")
    }
}

impl<'z> Fits<Dual<&'z mut [f64], &'z mut [f64]>> for Scratch {}
impl<'z, X, Y, S: Mode, D> SlotDual<'z, X, Y, S, D> for Scratch {
    type Dual = Dual<&'z mut [f64], &'z mut [S]>;
}
impl<X, Y, S: Mode, D> Slot<X, Y, S, D> for Scratch {
    type Store = (Vec<f64>, Vec<S>);
    #[inline(always)]
    fn store(&self) -> (Vec<f64>, Vec<S>) {
        (vec![0.0; self.0], vec![S::zero(); self.0])
    }
    #[inline(always)]
    fn dual<'z>(
        &'z self,
        store: &'z mut (Vec<f64>, Vec<S>),
        _: X,
        _: &mut Option<Y>,
    ) -> Dual<&'z mut [f64], &'z mut [S]> {
        Dual::new(&mut store.0[..], &mut store.1[..])
    }
}

impl<P: Copy> Fits<P> for Inactive<P> {}
impl<'z, X, Y, S: Mode, D, P: Copy> SlotDual<'z, X, Y, S, D> for Inactive<P> {
    type Dual = P;
}
impl<X, Y, S: Mode, D, P: Copy> Slot<X, Y, S, D> for Inactive<P> {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(&'z self, _: &'z mut (), _: X, _: &mut Option<Y>) -> P {
        self.0
    }
}

impl<P: ZeroTangent + Clone> Fits<Dual<P, P::Tangent>> for Const<P> {}
impl<'z, X, Y, S: Mode, D, P: ZeroTangent + Clone> SlotDual<'z, X, Y, S, D> for Const<P> {
    type Dual = Dual<P, P::TangentIn<S>>;
}
impl<X, Y, S: Mode, D, P: ZeroTangent + Clone> Slot<X, Y, S, D> for Const<P> {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(&'z self, _: &'z mut (), _: X, _: &mut Option<Y>) -> Dual<P, P::TangentIn<S>> {
        constant_in::<S, P>(self.0.clone())
    }
}

#[doc(hidden)]
/// A struct or enum of the user's (`#[derive(Differentiable)]`, no generics) bound by value
/// as a constant, `bind(f {}, (Wrt, body))`: copied into each call with `Clone`. The bound
/// is on the mode so that a type without `Clone` still derives, and fails only where bound
/// (rustc then says ``the trait bound `T: Clone` is not satisfied`` at the `bind`).
pub trait BoundByValue<T: Differentiable>: Mode {
    /// `t`'s copy with the zero tangent of this mode.
    fn constant(t: &T) -> Dual<T, T::TangentIn<Self>>;
}
impl<S: Mode, T: ZeroTangent + Clone> BoundByValue<T> for S {
    #[inline(always)]
    fn constant(t: &T) -> Dual<T, T::TangentIn<S>> {
        constant_in::<S, T>(t.clone())
    }
}

/// The entries bound by value as constants (`Const`'s, without the wrapper), one set of
/// impls per type: `[generics] type`, or a list of types without generics.
macro_rules! slot_by_value {
    (@one [$($g:tt)*] $t:ty) => {
        impl<$($g)*> Fits<Dual<$t, <$t as Differentiable>::Tangent>> for $t {}
        impl<'z, $($g)* X, Y, S: Mode, D> SlotDual<'z, X, Y, S, D> for $t {
            type Dual = Dual<$t, <$t as Differentiable>::TangentIn<S>>;
        }
        impl<$($g)* X, Y, S: Mode, D> Slot<X, Y, S, D> for $t {
            type Store = ();
            #[inline(always)]
            fn store(&self) {}
            #[inline(always)]
            fn dual<'z>(
                &'z self,
                _: &'z mut (),
                _: X,
                _: &mut Option<Y>,
            ) -> Dual<$t, <$t as Differentiable>::TangentIn<S>> {
                constant_in::<S, $t>(<$t as Clone>::clone(self))
            }
        }
    };
    ($($t:ty),*) => {$(slot_by_value!(@one [] $t);)*};
}
// An optional constant (`bind(f {}, (Wrt, Some(0.5)))`, `None`), by value as `Const`, to a
// parameter that takes a dual (keyed on it, so that the impls below for a parameter
// declared `inactive(..)` do not overlap).
impl<T: ZeroTangent + Clone> Fits<Dual<Option<T>, Option<T::Tangent>>> for Option<T> {}
impl<'z, X, Y, S: Mode, DT, T: ZeroTangent + Clone> SlotDual<'z, X, Y, S, Dual<Option<T>, DT>>
    for Option<T>
{
    type Dual = Dual<Option<T>, Option<T::TangentIn<S>>>;
}
impl<X, Y, S: Mode, DT, T: ZeroTangent + Clone> Slot<X, Y, S, Dual<Option<T>, DT>> for Option<T> {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(
        &'z self,
        _: &'z mut (),
        _: X,
        _: &mut Option<Y>,
    ) -> Dual<Option<T>, Option<T::TangentIn<S>>> {
        constant_in::<S, Option<T>>(self.clone())
    }
}

// An optional reference bound to a parameter declared `inactive(..)` (`anchor:
// Option<&Spring>`): the rule takes it as it is, as a reference (`Some(&s)`, `None`).
impl<'p, T: ?Sized + 'p> Fits<Option<&'p T>> for Option<&'p T> {}
impl<'z, 'p, X, Y, S: Mode, T: ?Sized + 'p> SlotDual<'z, X, Y, S, Option<&'p T>> for Option<&'p T> {
    type Dual = Option<&'p T>;
}
impl<'p, X, Y, S: Mode, T: ?Sized + 'p> Slot<X, Y, S, Option<&'p T>> for Option<&'p T> {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(&'z self, _: &'z mut (), _: X, _: &mut Option<Y>) -> Option<&'p T> {
        *self
    }
}
slot_by_value!(
    f64, f32, bool, char, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);
// Counts that are never zero (a quadrature rule's degree), bound as integers are.
slot_by_value!(
    core::num::NonZeroU8,
    core::num::NonZeroU16,
    core::num::NonZeroU32,
    core::num::NonZeroU64,
    core::num::NonZeroU128,
    core::num::NonZeroUsize,
    core::num::NonZeroI8,
    core::num::NonZeroI16,
    core::num::NonZeroI32,
    core::num::NonZeroI64,
    core::num::NonZeroI128,
    core::num::NonZeroIsize
);

impl<T: ZeroTangent + Clone, const K: usize> Fits<Dual<[T; K], [T::Tangent; K]>> for [T; K] {}
impl<'z, X, Y, S: Mode, D, T: ZeroTangent + Clone, const K: usize> SlotDual<'z, X, Y, S, D>
    for [T; K]
{
    type Dual = Dual<[T; K], [T::TangentIn<S>; K]>;
}
impl<X, Y, S: Mode, D, T: ZeroTangent + Clone, const K: usize> Slot<X, Y, S, D> for [T; K] {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(
        &'z self,
        _: &'z mut (),
        _: X,
        _: &mut Option<Y>,
    ) -> Dual<[T; K], [T::TangentIn<S>; K]> {
        constant_in::<S, [T; K]>(self.clone())
    }
}

impl<'p, 'z, T: ZeroTangent + 'p> Fits<Dual<&'z T, &'z T::Tangent>> for &'p T {}
impl<'z, 'p, X, Y, S: Mode, DT, T: ZeroTangent + 'p> SlotDual<'z, X, Y, S, Dual<&T, DT>> for &'p T {
    type Dual = Dual<&'z T, &'z T::TangentIn<S>>;
}
impl<'p, X, Y, S: Mode, DT, T: ZeroTangent + 'p> Slot<X, Y, S, Dual<&T, DT>> for &'p T {
    type Store = T::TangentIn<S>;
    #[inline(always)]
    fn store(&self) -> T::TangentIn<S> {
        (**self).zero_tangent_in::<S>()
    }
    #[inline(always)]
    fn dual<'z>(
        &'z self,
        store: &'z mut T::TangentIn<S>,
        _: X,
        _: &mut Option<Y>,
    ) -> Dual<&'z T, &'z T::TangentIn<S>> {
        Dual::new(&**self, store)
    }
}

// A string (`bind(layer {}, (Wrt, "tanh"))`, an activation chosen by name): no tangent.
impl Fits<Dual<&str, NoTangent>> for &str {}
impl<'z, X, Y, S: Mode, DT> SlotDual<'z, X, Y, S, Dual<&str, DT>> for &str {
    type Dual = Dual<&'z str, NoTangent>;
}
impl<X, Y, S: Mode, DT> Slot<X, Y, S, Dual<&str, DT>> for &str {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(&'z self, _: &'z mut (), _: X, _: &mut Option<Y>) -> Dual<&'z str, NoTangent> {
        Dual::new(*self, NoTangent)
    }
}

// `&[1.0, 0.8, 0.5]` bound to a `&[f64]` parameter: the array as the slice it coerces to.
impl<'p, 'z, T: ZeroTangent + 'p, const K: usize> Fits<Dual<&'z [T], &'z [T::Tangent]>>
    for &'p [T; K]
{
}
impl<'z, 'p, X, Y, S: Mode, DT, T: ZeroTangent + 'p, const K: usize>
    SlotDual<'z, X, Y, S, Dual<&[T], DT>> for &'p [T; K]
{
    type Dual = Dual<&'z [T], &'z [T::TangentIn<S>]>;
}
impl<'p, X, Y, S: Mode, DT, T: ZeroTangent + 'p, const K: usize> Slot<X, Y, S, Dual<&[T], DT>>
    for &'p [T; K]
{
    type Store = [T::TangentIn<S>; K];
    #[inline(always)]
    fn store(&self) -> [T::TangentIn<S>; K] {
        core::array::from_fn(|i| self[i].zero_tangent_in::<S>())
    }
    #[inline(always)]
    fn dual<'z>(
        &'z self,
        store: &'z mut [T::TangentIn<S>; K],
        _: X,
        _: &mut Option<Y>,
    ) -> Dual<&'z [T], &'z [T::TangentIn<S>]> {
        Dual::new(&self[..], &store[..])
    }
}

impl<'p, 'z, T: ZeroTangent + 'p> Fits<Dual<&'z [T], &'z [T::Tangent]>> for &'p [T] {}
impl<'z, 'p, X, Y, S: Mode, DT, T: ZeroTangent + 'p> SlotDual<'z, X, Y, S, Dual<&[T], DT>>
    for &'p [T]
{
    type Dual = Dual<&'z [T], &'z [T::TangentIn<S>]>;
}
impl<'p, X, Y, S: Mode, DT, T: ZeroTangent + 'p> Slot<X, Y, S, Dual<&[T], DT>> for &'p [T] {
    type Store = Vec<T::TangentIn<S>>;
    #[inline(always)]
    fn store(&self) -> Vec<T::TangentIn<S>> {
        self.iter().map(|e| e.zero_tangent_in::<S>()).collect()
    }
    #[inline(always)]
    fn dual<'z>(
        &'z self,
        store: &'z mut Vec<T::TangentIn<S>>,
        _: X,
        _: &mut Option<Y>,
    ) -> Dual<&'z [T], &'z [T::TangentIn<S>]> {
        Dual::new(&**self, &store[..])
    }
}

// A reference bound to a parameter declared `inactive(..)`: the rule takes it as it is (no
// dual, no zero tangent), so it needs no `Differentiable` type; `Inactive(&v)` says the
// same explicitly. Keyed on the parameter's plain reference type, so that a reference to a
// parameter that is differentiated still gets the zero tangent of the impls above.
impl<'p, T: ?Sized + 'p> Fits<&'p T> for &'p T {}
impl<'z, 'p, X, Y, S: Mode, T: ?Sized + 'p> SlotDual<'z, X, Y, S, &'p T> for &'p T {
    type Dual = &'p T;
}
impl<'p, X, Y, S: Mode, T: ?Sized + 'p> Slot<X, Y, S, &'p T> for &'p T {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(&'z self, _: &'z mut (), _: X, _: &mut Option<Y>) -> &'p T {
        self
    }
}

// A constant built by `Dual::constant` (a borrowed slice or array: its tangent is zero by
// its type, `ConstTangent`), or a dual with `ConstTangent`s: passed as it is in every mode,
// with no zero tangent to build. A rule derived with `#[derive_frule]` takes it for a float
// parameter and runs the code of an `inactive` one.
macro_rules! slot_constant {
    ($([$($g:tt)*] $t:ty => $tz:ty),* $(,)?) => {$(
        impl<'z, $($g)*> Fits<$tz> for $t {}
        impl<'z, $($g)* X, Y, S: Mode, D> SlotDual<'z, X, Y, S, D> for $t {
            type Dual = $tz;
        }
        impl<$($g)* X, Y, S: Mode, D> Slot<X, Y, S, D> for $t {
            type Store = ();
            #[inline(always)]
            fn store(&self) {}
            #[inline(always)]
            fn dual<'z>(&'z self, _: &'z mut (), _: X, _: &mut Option<Y>) -> $tz {
                Dual::new(self.primal, self.tangent)
            }
        }
    )*};
}
slot_constant!(
    ['p, E: Differentiable + 'p,] Dual<&'p [E], &'p [ConstTangent]>
        => Dual<&'z [E], &'z [ConstTangent]>,
    ['p, E: Differentiable + 'p, const K: usize,] Dual<&'p [E; K], &'p [ConstTangent; K]>
        => Dual<&'z [E; K], &'z [ConstTangent; K]>,
    [E: Differentiable + Copy, const K: usize,] Dual<[E; K], [ConstTangent; K]>
        => Dual<[E; K], [ConstTangent; K]>,
    [] Dual<f64, ConstTangent> => Dual<f64, ConstTangent>,
    [] Dual<f32, ConstTangent> => Dual<f32, ConstTangent>,
);

#[doc(hidden)]
/// The identity on the types `T`, implemented for each [`bind`] argument type one by one
/// (one impl for `f64`, one for `f32`, ...), never by a blanket impl: an argument whose type
/// is still an untyped literal (`{float}`, `{integer}`) selects no impl, and leaves
/// `Out<T>` unknown, until the literal has its type. See [`SettledArgs`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an argument `bind` accepts",
    label = "this `bind` has an argument of type `{Self}`",
    note = "bind a `&[f64]` parameter to a slice (`&v[..]`), `&T` to a reference, a value of another type with `fwdad::Const(value)`, a borrowed parameter declared `inactive` to its reference (`&v[..]`, `&value`), one taken by value as constant data (declared `inactive`, an enum of units without `Differentiable`) with `fwdad::Inactive(value)`; mark the differentiated argument `Wrt` and an output buffer `Out`; a method's receiver is its first entry, `&model` for `&self`, `Const(model)` for `self`"
)]
pub trait Settled: sealed::Entry {
    /// `T`, once `Self` is known.
    type Out<T>;
    /// `t` itself.
    fn settle<T>(t: &T) -> &Self::Out<T>;
}

#[doc(hidden)]
/// The argument tuple of a [`Bound`] as a type that stays unknown while one of its entries
/// is an untyped literal, and is the tuple itself once they all have types.
///
/// A literal bound to a parameter of a generic rule (`c: T` of `fn f<T: Float>`) gets no
/// type from [`bind`]: the rule fits both `f32` and `f64`. The rule bound of
/// [`BoundCall`], `for<'z> F: Frule<(<A as SlotDual<'z, ..>>::Dual, ..)>`, then holds a
/// projection on `{float}` under a binder, which the trait solver can neither normalize
/// (the impls for `f32` and `f64` both apply) nor defer, so it rejects the call. Reaching
/// [`BoundCall`] through `SettledArgs::Out` defers it until the literal falls back to `f64`
/// (`i32` for an integer), where the projection normalizes; with typed arguments
/// `SettledArgs::Out` is the tuple at once and nothing changes.
pub trait SettledArgs: sealed::Args {
    /// `Self`, once all entries are known.
    type Out;
    /// `self` itself.
    fn settle(&self) -> &Self::Out;
}

#[doc(hidden)]
/// A [`bind`] argument tuple called as the rule `F` of its [`Wrt`] argument `x` and its
/// [`Out`] buffer `y`.
pub trait BoundCall<F, X, Y, S: Mode, D>: sealed::Args {
    /// The dual of the result.
    type Output;
    /// Runs `rule` on the argument tuple with `x` (and `y`) filled in.
    fn call(&self, rule: &F, x: X, y: Option<Y>) -> Self::Output;
    /// The rule's Jacobian entry ([`Frule::chain_jacobian`]) on the argument tuple, the
    /// differentiated argument at column `col`.
    fn chain_jacobian<J: JacobianSink>(
        &self,
        rule: &F,
        x: X,
        col: Option<usize>,
        out: &mut J,
    ) -> bool;
}

macro_rules! settled {
    ($is:ident: $([$($g:tt)*] $t:ty),* $(,)?) => {$(
        impl<$($g)*> PointMark for $t {
            type Is = $is;
        }
        impl<$($g)*> sealed::Entry for $t {}
        impl<$($g)*> Settled for $t {
            type Out<T> = T;
            #[inline(always)]
            fn settle<T>(t: &T) -> &T {
                t
            }
        }
    )*};
}
settled!(AnArgumentMarkedWrt: [] Wrt, [] Var);
settled!(
    NoArgumentMarkedWrt:
    [] Out, [] Scratch, [P] Const<P>, [P] Inactive<P>,
    [] f64, [] f32, [] bool, [] char, [] u8, [] u16, [] u32, [] u64, [] u128, [] usize,
    [] i8, [] i16, [] i32, [] i64, [] i128, [] isize,
    [] core::num::NonZeroU8, [] core::num::NonZeroU16, [] core::num::NonZeroU32,
    [] core::num::NonZeroU64, [] core::num::NonZeroU128, [] core::num::NonZeroUsize,
    [] core::num::NonZeroI8, [] core::num::NonZeroI16, [] core::num::NonZeroI32,
    [] core::num::NonZeroI64, [] core::num::NonZeroI128, [] core::num::NonZeroIsize,
    [U, const K: usize] [U; K], ['p, U: ?Sized] &'p U, [U] Option<U>,
    ['p, E: Differentiable + 'p] Dual<&'p [E], &'p [ConstTangent]>,
    ['p, E: Differentiable + 'p, const K: usize] Dual<&'p [E; K], &'p [ConstTangent; K]>,
    [E: Differentiable, const K: usize] Dual<[E; K], [ConstTangent; K]>,
    [] Dual<f64, ConstTangent>, [] Dual<f32, ConstTangent>,
);

#[doc(hidden)]
/// Whether a [`bind`] entry marks the point: [`AnArgumentMarkedWrt`] for [`Wrt`] and
/// [`Var`], [`NoArgumentMarkedWrt`] for a constant.
pub trait PointMark {
    /// [`AnArgumentMarkedWrt`] or [`NoArgumentMarkedWrt`].
    type Is: EitherMarks;
}

#[doc(hidden)]
/// A [`bind`] with an entry [`Wrt`] or [`Var`] (as a type: the [`PointMark`] of its tuple).
pub struct AnArgumentMarkedWrt;

#[doc(hidden)]
/// A [`bind`] whose every entry is a constant (as a type: the [`PointMark`] of its tuple).
pub struct NoArgumentMarkedWrt;

#[doc(hidden)]
/// Type-level "or" of two [`PointMark`]s.
pub trait EitherMarks {
    /// [`AnArgumentMarkedWrt`] when either is.
    type Or<B: EitherMarks>: EitherMarks;
}

impl EitherMarks for AnArgumentMarkedWrt {
    type Or<B: EitherMarks> = AnArgumentMarkedWrt;
}

impl EitherMarks for NoArgumentMarkedWrt {
    type Or<B: EitherMarks> = B;
}

/// A driver's bound rule must have its point somewhere: without an entry [`Wrt`] or
/// [`Var`], every argument is a constant and the derivative would be zero, silently.
#[diagnostic::on_unimplemented(
    message = "no argument of this `bind` is marked `Wrt` (or `Var(i)`): the driver would differentiate with respect to nothing",
    label = "every argument of this `bind` is a constant",
    note = "put `Wrt` in the slot of the parameter the driver differentiates with respect to, in place of the value the driver passes (`bind(f {{}}, (Wrt, &data[..]))`; a method's handle takes its receiver first, `bind(rule!(Model::loss), (&model, Wrt))`), or `Var(0)`, `Var(1)`, .. in the slots of several `f64` parameters; a value bound there is a constant, whose derivative is zero"
)]
pub trait BindMarkingThePoint {}

impl BindMarkingThePoint for AnArgumentMarkedWrt {}

/// `<<NoArgumentMarkedWrt as EitherMarks>::Or<A::Is> as EitherMarks>::Or<B::Is> ..`.
macro_rules! marks_chain {
    ($t:ty;) => { $t };
    ($t:ty; $A:ident $($rest:ident)*) => {
        marks_chain!(<$t as EitherMarks>::Or<<$A as PointMark>::Is>; $($rest)*)
    };
}

/// The bound rule as a rule of its [`Wrt`] argument alone.
impl<X: Copy, S: Mode, F, A, D, O> Frule<(X,), S> for Bound<F, A, D>
where
    A: SettledArgs,
    A::Out: BoundCall<F, X, OutNeedsInplace, S, D, Output = O>,
    A::Out: PointMark<Is: BindMarkingThePoint>,
{
    type Output = O;
    #[inline]
    fn frule(&self, (x,): (X,)) -> O {
        self.args.settle().call(&self.rule, x, None)
    }
    #[inline]
    fn chain_jacobian<J: JacobianSink>(
        &self,
        (x,): (X,),
        cols: &[Option<usize>],
        out: &mut J,
    ) -> bool {
        let col = cols.first().copied().flatten();
        self.args.settle().chain_jacobian(&self.rule, x, col, out)
    }
}

/// The bound rule as a rule of its [`Wrt`] argument and its [`Out`] buffer (what
/// [`inplace`] calls).
impl<X: Copy, Y, S: Mode, F, A, D, O> Frule<(X, Y), S> for Bound<F, A, D>
where
    A: SettledArgs,
    A::Out: BoundCall<F, X, Y, S, D, Output = O>,
    A::Out: PointMark<Is: BindMarkingThePoint>,
{
    type Output = O;
    #[inline]
    fn frule(&self, (x, y): (X, Y)) -> O {
        self.args.settle().call(&self.rule, x, Some(y))
    }
}

/// `<H as Settled>::Out<..<B as Settled>::Out<<A as Settled>::Out<$t>>>`.
macro_rules! settle_chain {
    ($t:ty;) => { $t };
    ($t:ty; $A:ident $($rest:ident)*) => {
        settle_chain!(<$A as Settled>::Out<$t>; $($rest)*)
    };
}

macro_rules! bound_impl {
    ($($A:ident $a:ident $s:ident $D:ident),+) => {
        impl<F, $($A, $D),+> BindArgs<F, ($($D,)+)> for ($($A,)+)
        where
            F: Frule<($($D,)+), f64>,
            $($A: Fits<$D>,)+
        {
        }

        impl<$($A: sealed::Entry),+> sealed::Args for ($($A,)+) {}

        impl<$($A: PointMark),+> PointMark for ($($A,)+) {
            type Is = marks_chain!(NoArgumentMarkedWrt; $($A)+);
        }

        impl<$($A: Settled),+> SettledArgs for ($($A,)+) {
            type Out = settle_chain!(Self; $($A)+);
            #[inline(always)]
            fn settle(&self) -> &Self::Out {
                let t = self;
                $(let t = $A::settle(t);)+
                t
            }
        }

        impl<X: Copy, Y, S: Mode, F, O, $($A, $D),+> BoundCall<F, X, Y, S, ($($D,)+)> for ($($A,)+)
        where
            $($A: Slot<X, Y, S, $D>,)+
            F: for<'z> Frule<($(<$A as SlotDual<'z, X, Y, S, $D>>::Dual,)+), S, Output = O>,
        {
            type Output = O;
            #[inline(always)]
            fn call(&self, rule: &F, x: X, mut y: Option<Y>) -> O {
                let ($($a,)+) = self;
                $(let mut $s = Slot::<X, Y, S, $D>::store($a);)+
                rule.frule(($(Slot::<X, Y, S, $D>::dual($a, &mut $s, x, &mut y),)+))
            }
            #[inline(always)]
            fn chain_jacobian<J: JacobianSink>(
                &self,
                rule: &F,
                x: X,
                col: Option<usize>,
                out: &mut J,
            ) -> bool {
                let ($($a,)+) = self;
                let cols = [$(Slot::<X, Y, S, $D>::column($a, col),)+];
                let mut y: Option<Y> = None;
                $(let mut $s = Slot::<X, Y, S, $D>::store($a);)+
                rule.chain_jacobian(
                    ($(Slot::<X, Y, S, $D>::dual($a, &mut $s, x, &mut y),)+),
                    &cols,
                    out,
                )
            }
        }
    };
}
bound_impl!(A a sa DA);
bound_impl!(A a sa DA, B b sb DB);
bound_impl!(A a sa DA, B b sb DB, C c sc DC);
bound_impl!(A a sa DA, B b sb DB, C c sc DC, E e se DE);
bound_impl!(A a sa DA, B b sb DB, C c sc DC, E e se DE, G g sg DG);
bound_impl!(A a sa DA, B b sb DB, C c sc DC, E e se DE, G g sg DG, H h sh DH);
bound_impl!(A a sa DA, B b sb DB, C c sc DC, E e se DE, G g sg DG, H h sh DH, I i si DI);
bound_impl!(A a sa DA, B b sb DB, C c sc DC, E e se DE, G g sg DG, H h sh DH, I i si DI, K k sk DK);

// ---------------------------------------------------------------------------------------
// inplace: an output buffer as the result
// ---------------------------------------------------------------------------------------

/// A rule that writes its result into a buffer, seen as a rule returning the buffer: see
/// [`inplace`].
#[derive(Clone, Debug)]
pub struct InPlace<F> {
    rule: F,
    init: Vec<f64>,
}

/// Turns `f(x, y: &mut [f64])` into the rule of `x ↦ y`, with `y` a zeroed buffer of
/// length `len` allocated for each pass; the result is `Vec<f64>`.
///
/// `f` takes the differentiated argument first and the buffer second; for other
/// signatures, [`bind`] the rule with [`Wrt`] and [`Out`] first. A function that
/// accumulates into `y` starts from zeros; use [`inplace_from`] for another start.
///
/// ```
/// use fwdad::drivers::inplace;
/// use fwdad::prelude::*;
///
/// /// Cumulative products: y[i] = x[0]·…·x[i].
/// #[derive_frule]
/// fn cumprod(x: &[f64], y: &mut [f64]) {
///     let mut p = 1.0;
///     for i in 0..x.len() {
///         p *= x[i];
///         y[i] = p;
///     }
/// }
///
/// let (y, j) = jacobian(inplace(cumprod {}, 3), &[2.0, 3.0, 4.0]);
/// assert_eq!(y, [2.0, 6.0, 24.0]);
/// assert_eq!(j.row(2), [12.0, 8.0, 6.0]);
/// assert_eq!(j[(0, 1)], 0.0);
/// ```
pub fn inplace<F>(rule: F, len: usize) -> InPlace<F> {
    InPlace {
        rule,
        init: vec![0.0; len],
    }
}

/// [`inplace`] with the buffer starting as a copy of `y0` (its tangent starts at zero).
pub fn inplace_from<F>(rule: F, y0: &[f64]) -> InPlace<F> {
    InPlace {
        rule,
        init: y0.to_vec(),
    }
}

impl<X, S: Mode, F> Frule<(X,), S> for InPlace<F>
where
    F: for<'z> Frule<(X, Dual<&'z mut [f64], &'z mut [S]>), S>,
{
    type Output = Dual<Vec<f64>, Vec<S>>;
    #[inline]
    fn frule(&self, (x,): (X,)) -> Dual<Vec<f64>, Vec<S>> {
        let mut y = self.init.clone();
        let mut dy = vec![S::zero(); y.len()];
        self.rule.frule((x, Dual::new(&mut y[..], &mut dy[..])));
        Dual::new(y, dy)
    }
}

// ---------------------------------------------------------------------------------------
// Results read as lists of reals
// ---------------------------------------------------------------------------------------

/// The dual of a result read as a flat list of reals (the rows of a Jacobian): `f64`,
/// `[f64; M]`, `Vec<f64>` and tuples of up to 6 `f64`. Sealed: these are all.
#[diagnostic::on_unimplemented(
    message = "`jacobian` cannot read the result `{Self}` as a list of reals",
    note = "`jacobian` reads results of type `f64`, `[f64; M]`, `Vec<f64>` or tuples of `f64`; for a result written into a `&mut [f64]` buffer, wrap the rule in `inplace`"
)]
pub trait FlatOutput<S>: sealed::FlatOutput<S> {
    /// Number of reals.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The value of real `i`.
    fn value(&self, i: usize) -> f64;
    /// The tangent of real `i`.
    fn tangent(&self, i: usize) -> S;
}

impl<S: Copy> sealed::FlatOutput<S> for Dual<f64, S> {}
impl<S: Copy> FlatOutput<S> for Dual<f64, S> {
    #[inline]
    fn len(&self) -> usize {
        1
    }
    #[inline]
    fn value(&self, _: usize) -> f64 {
        self.primal
    }
    #[inline]
    fn tangent(&self, _: usize) -> S {
        self.tangent
    }
}

/// `FlatOutput` of an indexable result (`[f64; M]`, `Vec<f64>`, nalgebra vectors): its
/// `len` and its elements, read in place.
macro_rules! flat_output_by_index {
    ($([$($g:tt)*] $p:ty, $t:ty;)*) => {$(
        impl<S: Copy, $($g)*> $crate::drivers::sealed::FlatOutput<S> for Dual<$p, $t> {}
        impl<S: Copy, $($g)*> $crate::drivers::FlatOutput<S> for Dual<$p, $t> {
            #[inline]
            fn len(&self) -> usize {
                self.primal.len()
            }
            #[inline]
            fn value(&self, i: usize) -> f64 {
                self.primal[i]
            }
            #[inline]
            fn tangent(&self, i: usize) -> S {
                self.tangent[i]
            }
        }
    )*};
}
#[cfg(feature = "nalgebra")]
pub(crate) use flat_output_by_index;

flat_output_by_index! {
    [const M: usize] [f64; M], [S; M];
    [] Vec<f64>, Vec<S>;
}

macro_rules! flat_tuple {
    ($n:literal; $($F:ident $S:ident $i:tt),+) => {
        impl<S: Copy> sealed::FlatOutput<S> for Dual<($($F,)+), ($($S,)+)> {}
        impl<S: Copy> FlatOutput<S> for Dual<($($F,)+), ($($S,)+)> {
            #[inline]
            fn len(&self) -> usize {
                $n
            }
            #[inline]
            fn value(&self, i: usize) -> f64 {
                match i {
                    $($i => self.primal.$i,)+
                    _ => panic!("index {i} out of range for a {}-tuple", $n),
                }
            }
            #[inline]
            fn tangent(&self, i: usize) -> S {
                match i {
                    $($i => self.tangent.$i,)+
                    _ => panic!("index {i} out of range for a {}-tuple", $n),
                }
            }
        }
    };
}
flat_tuple!(1; f64 S 0);
flat_tuple!(2; f64 S 0, f64 S 1);
flat_tuple!(3; f64 S 0, f64 S 1, f64 S 2);
flat_tuple!(4; f64 S 0, f64 S 1, f64 S 2, f64 S 3);
flat_tuple!(5; f64 S 0, f64 S 1, f64 S 2, f64 S 3, f64 S 4);
flat_tuple!(6; f64 S 0, f64 S 1, f64 S 2, f64 S 3, f64 S 4, f64 S 5);

// ---------------------------------------------------------------------------------------
// Matrix
// ---------------------------------------------------------------------------------------

/// A dense `f64` matrix stored row-major: what [`jacobian`] and [`hessian`] return.
///
/// Element `(i, j)` is `m[(i, j)]`; for a Jacobian, row `i` is the gradient of output `i`
/// and column `j` the derivative along input `j`. [`Matrix::as_slice`] is the row-major
/// data, [`Matrix::to_rows`] a `Vec<Vec<f64>>`. With the `nalgebra` feature, a `Matrix`
/// converts into `nalgebra::DMatrix<f64>` (`.into()`).
///
/// ```
/// use fwdad::drivers::Matrix;
///
/// let m = Matrix::from_rows(&[vec![1.0, 2.0], vec![3.0, 4.0]]);
/// assert_eq!(m[(1, 0)], 3.0);
/// assert_eq!(m.row(0), [1.0, 2.0]);
/// assert_eq!(m[1][0], 3.0);
/// assert_eq!(m.column(1), [2.0, 4.0]);
/// assert_eq!(m.as_slice(), [1.0, 2.0, 3.0, 4.0]);
/// assert_eq!(m.mul_vec(&[1.0, 1.0]), [3.0, 7.0]);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matrix {
    nrows: usize,
    ncols: usize,
    data: Vec<f64>,
}

impl Matrix {
    /// The `nrows × ncols` zero matrix.
    pub fn zeros(nrows: usize, ncols: usize) -> Self {
        Matrix {
            nrows,
            ncols,
            data: vec![0.0; nrows * ncols],
        }
    }

    /// Reshapes to `nrows × ncols`, keeping the allocation; the entries are left as they
    /// are (zero where the matrix grew), for a caller that overwrites every one of them.
    #[inline]
    fn reshape_for_overwrite(&mut self, nrows: usize, ncols: usize) {
        self.nrows = nrows;
        self.ncols = ncols;
        self.data.resize(nrows * ncols, 0.0);
    }

    /// The `n × n` identity.
    pub fn identity(n: usize) -> Self {
        let mut m = Self::zeros(n, n);
        for i in 0..n {
            m[(i, i)] = 1.0;
        }
        m
    }

    /// A matrix from its row-major data.
    ///
    /// # Panics
    /// If `data.len() != nrows * ncols`.
    pub fn from_row_major(nrows: usize, ncols: usize, data: Vec<f64>) -> Self {
        assert_eq!(
            data.len(),
            nrows * ncols,
            "a {nrows} × {ncols} matrix needs {} elements",
            nrows * ncols
        );
        Matrix { nrows, ncols, data }
    }

    /// A matrix from its rows.
    ///
    /// # Panics
    /// If the rows do not all have the same length.
    pub fn from_rows<R: AsRef<[f64]>>(rows: &[R]) -> Self {
        let ncols = rows.first().map_or(0, |r| r.as_ref().len());
        let mut data = Vec::with_capacity(rows.len() * ncols);
        for r in rows {
            assert_eq!(r.as_ref().len(), ncols, "rows of different lengths");
            data.extend_from_slice(r.as_ref());
        }
        Matrix {
            nrows: rows.len(),
            ncols,
            data,
        }
    }

    /// Number of rows.
    #[inline]
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Number of columns.
    #[inline]
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// `(nrows, ncols)`.
    #[inline]
    pub fn shape(&self) -> (usize, usize) {
        (self.nrows, self.ncols)
    }

    /// Row `i`.
    ///
    /// # Panics
    /// If `i >= nrows`.
    #[inline]
    pub fn row(&self, i: usize) -> &[f64] {
        assert!(i < self.nrows, "row {i} of a {}-row matrix", self.nrows);
        &self.data[i * self.ncols..(i + 1) * self.ncols]
    }

    /// Row `i`, mutably.
    ///
    /// # Panics
    /// If `i >= nrows`.
    #[inline]
    pub fn row_mut(&mut self, i: usize) -> &mut [f64] {
        assert!(i < self.nrows, "row {i} of a {}-row matrix", self.nrows);
        &mut self.data[i * self.ncols..(i + 1) * self.ncols]
    }

    /// Column `j`, copied.
    ///
    /// # Panics
    /// If `j >= ncols`.
    pub fn column(&self, j: usize) -> Vec<f64> {
        assert!(
            j < self.ncols,
            "column {j} of a {}-column matrix",
            self.ncols
        );
        (0..self.nrows)
            .map(|i| self.data[i * self.ncols + j])
            .collect()
    }

    /// The rows, in order.
    pub fn rows(&self) -> impl Iterator<Item = &[f64]> + '_ {
        (0..self.nrows).map(move |i| self.row(i))
    }

    /// The row-major data.
    #[inline]
    pub fn as_slice(&self) -> &[f64] {
        &self.data
    }

    /// The row-major data, by value.
    pub fn into_vec(self) -> Vec<f64> {
        self.data
    }

    /// The rows as vectors.
    pub fn to_rows(&self) -> Vec<Vec<f64>> {
        self.rows().map(<[f64]>::to_vec).collect()
    }

    /// The transpose.
    pub fn transpose(&self) -> Matrix {
        let mut t = Matrix::zeros(self.ncols, self.nrows);
        for i in 0..self.nrows {
            for j in 0..self.ncols {
                t[(j, i)] = self[(i, j)];
            }
        }
        t
    }

    /// The product `self · v`.
    ///
    /// # Panics
    /// If `v.len() != ncols`.
    pub fn mul_vec(&self, v: &[f64]) -> Vec<f64> {
        assert_eq!(v.len(), self.ncols, "vector length differs from ncols");
        self.rows()
            .map(|r| r.iter().zip(v).map(|(a, b)| a * b).sum())
            .collect()
    }
}

impl Index<(usize, usize)> for Matrix {
    type Output = f64;
    /// Element `(i, j)`.
    ///
    /// # Panics
    /// If `i >= nrows` or `j >= ncols`.
    #[inline]
    fn index(&self, (i, j): (usize, usize)) -> &f64 {
        assert!(
            i < self.nrows && j < self.ncols,
            "index ({i}, {j}) out of a {} × {} matrix",
            self.nrows,
            self.ncols
        );
        &self.data[i * self.ncols + j]
    }
}

impl IndexMut<(usize, usize)> for Matrix {
    #[inline]
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut f64 {
        assert!(
            i < self.nrows && j < self.ncols,
            "index ({i}, {j}) out of a {} × {} matrix",
            self.nrows,
            self.ncols
        );
        &mut self.data[i * self.ncols + j]
    }
}

/// Row `i` as a slice, so `m[i][j]` reads like nested `Vec`s (the same entry as `m[(i, j)]`).
impl Index<usize> for Matrix {
    type Output = [f64];
    /// # Panics
    /// If `i >= nrows`.
    #[inline]
    fn index(&self, i: usize) -> &[f64] {
        self.row(i)
    }
}

impl IndexMut<usize> for Matrix {
    /// # Panics
    /// If `i >= nrows`.
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut [f64] {
        self.row_mut(i)
    }
}

impl From<Matrix> for Vec<Vec<f64>> {
    fn from(m: Matrix) -> Self {
        m.to_rows()
    }
}

/// One row per line, entries separated by spaces (the format's width and precision apply
/// to each entry: `{:10.4}`).
impl fmt::Display for Matrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.rows().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            for (j, v) in r.iter().enumerate() {
                if j > 0 {
                    f.write_str(" ")?;
                }
                fmt::Display::fmt(v, f)?;
            }
        }
        Ok(())
    }
}

#[cfg(feature = "nalgebra")]
impl From<Matrix> for nalgebra::DMatrix<f64> {
    fn from(m: Matrix) -> Self {
        nalgebra::DMatrix::from_row_slice(m.nrows, m.ncols, &m.data)
    }
}

#[cfg(feature = "nalgebra")]
impl From<&nalgebra::DMatrix<f64>> for Matrix {
    fn from(m: &nalgebra::DMatrix<f64>) -> Self {
        let (nrows, ncols) = m.shape();
        let mut out = Matrix::zeros(nrows, ncols);
        for i in 0..nrows {
            for j in 0..ncols {
                out[(i, j)] = m[(i, j)];
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------
// The drivers
// ---------------------------------------------------------------------------------------

/// The value and the derivative of a function of one `f64`, in one pass.
///
/// The result may be anything differentiable: for `f64 → f64` this returns
/// `(f(x), f'(x))`, for `f64 → [f64; 3]` the value and the derivative of each component.
///
/// ```
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn sigmoid(x: f64) -> f64 {
///     1.0 / (1.0 + (-x).exp())
/// }
///
/// #[derive_frule]
/// fn helix(t: f64) -> [f64; 3] {
///     [t.cos(), t.sin(), 0.5 * t]
/// }
///
/// let (s, ds) = derivative(sigmoid {}, 0.3);
/// assert!((ds - s * (1.0 - s)).abs() < 1e-16);
///
/// let (p, v) = derivative(helix {}, 1.0);
/// assert_eq!(p, helix(1.0));
/// assert_eq!(v, [-1f64.sin(), 1f64.cos(), 0.5]);
/// ```
pub fn derivative<F, O, T>(f: F, x: f64) -> (O, T)
where
    O: Differentiable,
    F: Frule<(Dual<f64>,), f64, Output = Dual<O, T>>,
{
    f.frule((Dual::new(x, 1.0),)).into_parts()
}

/// `(f(x), f'(x), f''(x))` of a function `f64 → f64`, in one second-order pass.
///
/// ```
/// use fwdad::drivers::second_derivative;
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn cube_root_ish(x: f64) -> f64 {
///     x.cbrt() + x * x.ln()
/// }
///
/// let x = 2.0_f64;
/// let (f, d1, d2) = second_derivative(cube_root_ish {}, x);
/// assert_eq!(f, cube_root_ish(x));
/// assert!((d1 - (x.powf(-2.0 / 3.0) / 3.0 + x.ln() + 1.0)).abs() < 1e-15);
/// assert!((d2 - (-2.0 / 9.0 * x.powf(-5.0 / 3.0) + 1.0 / x)).abs() < 1e-15);
/// ```
pub fn second_derivative<F>(f: F, x: f64) -> (f64, f64, f64)
where
    F: Frule<(Dual<f64, Hyper<f64, f64>>,), Hyper<f64, f64>, Output = Dual<f64, Hyper<f64, f64>>>,
{
    let seed = Hyper {
        d1: 1.0,
        d2: 1.0,
        d12: 0.0,
    };
    let y = f.frule((Dual::new(x, seed),));
    (y.primal, y.tangent.d1, y.tangent.d12)
}

/// The value of `f` at `x` and its directional derivative `J·v` (Jacobian-vector
/// product), in one pass.
///
/// The result may be anything differentiable: `(f64, f64)` for a scalar function,
/// `(Vec<f64>, Vec<f64>)` for [`inplace`], `([f64; M], [f64; M])` for an array.
///
/// # Panics
/// If `v.len() != x.len()`.
///
/// ```
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn norm2(x: &[f64]) -> f64 {
///     let mut s = 0.0;
///     for i in 0..x.len() {
///         s += x[i] * x[i];
///     }
///     s.sqrt()
/// }
///
/// let (r, dr) = jvp(norm2 {}, &[3.0, 4.0], &[1.0, 1.0]);
/// assert_eq!(r, 5.0);
/// assert!((dr - 7.0 / 5.0).abs() < 1e-15); // (x·v) / |x|
/// ```
pub fn jvp<F, O, T>(f: F, x: &[f64], v: &[f64]) -> (O, T)
where
    O: Differentiable,
    F: SliceRule<f64, Output = Dual<O, T>>,
{
    assert_eq!(
        x.len(),
        v.len(),
        "jvp: the direction's length differs from x's"
    );
    f.eval(x, v).into_parts()
}

/// `(f(x), ∇f(x))` of a function `&[f64] → f64`, in ⌈n / w⌉ batched passes of `w`
/// directions each, `w` 4 to 32, with `Batch` or [`MaybeZero`] tangents, chosen by
/// measurement on this machine.
///
/// The point is a slice or a `Vec` (the gradient comes back in a `Vec<f64>`) or an array
/// `[f64; N]`, by value or by reference (the gradient comes back as a `[f64; N]`, on the
/// stack, as num-dual's `gradient` of an `SVector`): [`GradientPoint`]. The function is the
/// same `f(x: &[f64])` either way.
///
/// Every pass recomputes the primal, so wide passes pay off for a costly primal; for a
/// cheap one the tangent lanes cost most and a narrower width can be faster. A pass seeds
/// `w` inputs and gives the others zero tangents: `MaybeZero` skips the operations on
/// them (as num-dual does), which pays where terms read few inputs and costs a test per
/// operation where they do not ([`GradientPlan`]). Which plan is fastest depends on the
/// function and the CPU, not on `n` alone (BENCHMARKS.md, "Gradient widths"), so
/// `gradient` measures it: up to 16 inputs it takes one pass of `Batch`, `n` lanes rounded
/// up to 4, 8, 10, 12 or 16 ([`gradient_width`]; one pass beats every chunked plan there);
/// above, its first call for a function (the type of its rule) and a length takes
/// [`gradient_width(n)`](gradient_width) lanes of `Batch`, and its next
/// calls time every plan of [`GradientPlan::candidates(n)`](GradientPlan::candidates) three times (each call computes
/// a real gradient: the result is the same at every plan), then again, up to eight times
/// each, the plans within 15 % of the fastest and any plan whose two shortest times
/// differ by more than 3 %, and then keep the fastest for that function and length, for
/// the rest of the process ([`gradient_plan_chosen`] tells which). The cost of the choice
/// is, over the first 18 to 48 calls (about 25 to 35 typically), the time of the slower
/// plans (the shortest of a plan's wall-clock times, each over repeated gradients of at
/// least 20 µs in all: on a loaded machine the choice can still be wrong, less often).
///
/// Up to 64 inputs a gradient keeps nothing: the seeds of one pass, and of each chunk of
/// a chunked plan, are read from tables built at compile time, and it allocates nothing
/// but a `Vec` result (nothing at all for an array; above 16 inputs, once its plan is
/// settled: its first calls of a function and length record their times in a table).
/// Above 64, plans other than one pass keep their buffers per thread between calls, the
/// seeds of every chunk as windows of one buffer laid out once per length. The rule is
/// compiled for every plan (the price of `gradient` is ten instantiations of the rule:
/// `Batch` at 4, 8, 10, 12, 16, 20 and 32 lanes, `MaybeZero` at 8, 16 and 32; for one
/// width, use [`gradient_with`]). To keep buffers between calls, as an optimiser
/// does, use [`GradientWorkspace`], which measures the plans on its first call instead.
///
/// ```
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn log_sum_exp(x: &[f64]) -> f64 {
///     let mut s = 0.0;
///     for i in 0..x.len() {
///         s += x[i].exp();
///     }
///     s.ln()
/// }
///
/// let x: Vec<f64> = (0..20).map(|i| 0.1 * i as f64).collect();
/// let (lse, g) = gradient(log_sum_exp {}, &x);
/// // The gradient is the softmax.
/// for i in 0..20 {
///     assert!((g[i] - (x[i] - lse).exp()).abs() < 1e-15);
/// }
///
/// // At an array, the gradient is an array of the same length.
/// let (_, g): (f64, [f64; 3]) = gradient(log_sum_exp {}, &[0.0, 0.0, 0.0]);
/// assert!(g.iter().all(|&gi| (gi - 1.0 / 3.0).abs() < 1e-15));
/// ```
pub fn gradient<X: GradientPoint>(f: impl GradientRule, x: X) -> (f64, X::Gradient) {
    gradient_at(&f, x.coordinates())
}

/// [`gradient`] at the coordinates `x`, the gradient in a `G`.
#[inline(always)]
fn gradient_at<F: GradientRule, G: point::sealed::Gradient>(f: &F, x: &[f64]) -> (f64, G) {
    let n = x.len();
    // One pass of 4, 8, 10, 12 or 16 lanes: nothing to choose, nothing kept. For an
    // array the length is a constant: the match folds to one arm, inlined, so that the
    // caller keeps the gradient in registers (and sees the unit seeds). From 17 inputs
    // the plans are timed: one pass of 20 lanes is not the fastest everywhere
    // (Rosenbrock, n = 20, on an AMD EPYC: chunks of 8 of `MaybeZero` seeded from static
    // windows 0.68 × num-dual's best, one pass 0.96; BENCHMARKS.md §11); chosen, at an
    // array, it is inlined as here.
    if G::FIXED {
        match n {
            0..=4 => return point::one_pass_inline::<4, _, G>(f, x),
            5..=8 => return point::one_pass_inline::<8, _, G>(f, x),
            9..=10 => return point::one_pass_inline::<10, _, G>(f, x),
            11..=12 => return point::one_pass_inline::<12, _, G>(f, x),
            13..=16 => return point::one_pass_inline::<16, _, G>(f, x),
            _ => {}
        }
    } else {
        match n {
            0..=4 => return point::one_pass::<4, _, G>(f, x),
            5..=8 => return point::one_pass::<8, _, G>(f, x),
            9..=10 => return point::one_pass::<10, _, G>(f, x),
            11..=12 => return point::one_pass::<12, _, G>(f, x),
            13..=16 => return point::one_pass::<16, _, G>(f, x),
            _ => {}
        }
    }
    let (plan, measuring) = gradient_plan::<F>(n);
    if n <= point::WINDOW_INPUTS {
        // Every plan's seeds are static up to 64 inputs: nothing kept, and the plans are
        // timed as they run.
        if !measuring {
            return gradient_static(f, x, plan);
        }
        return gradient_timed(f, x, plan, || gradient_static(f, x, plan));
    }
    gradient_kept(f, x, plan, measuring)
}

/// [`gradient`] of up to 64 inputs with `plan`, every pass seeded from a static table:
/// one pass of 20 or 32 lanes of `Batch` ([`point::one_pass`]), or chunks
/// ([`point::chunked`]), no per-thread buffers.
#[inline(always)]
fn gradient_static<F: GradientRule, G: point::sealed::Gradient>(
    f: &F,
    x: &[f64],
    plan: GradientPlan,
) -> (f64, G) {
    let n = x.len();
    match (plan.known_zeros, plan.width) {
        (false, 32) if G::FIXED && gradient_width(n) == 32 => {
            point::one_pass_inline::<32, _, G>(f, x)
        }
        (false, 32) if n <= 32 => point::one_pass::<32, _, G>(f, x),
        (false, 32) => point::chunked::<Batch<f64, 32>, _, G>(f, x),
        (false, 20) if G::FIXED && n <= 20 => point::one_pass_inline::<20, _, G>(f, x),
        (false, 20) if n <= 20 => point::one_pass::<20, _, G>(f, x),
        (false, 8) => point::chunked::<Batch<f64, 8>, _, G>(f, x),
        (false, 16) => point::chunked::<Batch<f64, 16>, _, G>(f, x),
        (true, 8) => point::chunked::<Zeros<8>, _, G>(f, x),
        (true, 16) => point::chunked::<Zeros<16>, _, G>(f, x),
        (true, 32) => point::chunked::<Zeros<32>, _, G>(f, x),
        // Not a candidate up to 64 inputs.
        _ => gradient_kept(f, x, plan, false),
    }
}

/// `run` (a gradient of `f` at `x` with `plan`), timed for [`width_tuning`]: a gradient
/// of a few microseconds over repeated calls (the same result each time), so that one
/// clock read or one preemption does not decide.
#[inline(never)]
fn gradient_timed<F, G>(
    _f: &F,
    x: &[f64],
    plan: GradientPlan,
    mut run: impl FnMut() -> (f64, G),
) -> (f64, G) {
    let start = std::time::Instant::now();
    let result = run();
    let mut calls = 1;
    while start.elapsed() < GradientWorkspace::MIN_SAMPLE && calls < 1000 {
        core::hint::black_box(run());
        calls += 1;
    }
    width_tuning::record(
        (core::any::type_name::<F>(), x.len()),
        plan,
        start.elapsed() / calls,
    );
    result
}

/// The plan of [`gradient`]'s next call of the rule `F` with `n` inputs (above 16), and
/// whether that call is a measurement ([`width_tuning`]); a settled plan is read from this
/// thread's list, without a lock.
#[inline(never)]
fn gradient_plan<F>(n: usize) -> (GradientPlan, bool) {
    std::thread_local! {
        /// The plans this thread has seen settled, so that later calls take no lock.
        static SETTLED: core::cell::RefCell<Vec<((&'static str, usize), GradientPlan)>> =
            const { core::cell::RefCell::new(Vec::new()) };
    }
    std::thread_local! {
        /// The last settled plan looked up: `(address and length of the rule's name, n,
        /// plan)`. A `Cell` of plain words, without a destructor: read with no borrow
        /// flag and no lazy registration (a one-shot gradient of 20 inputs takes 100 to
        /// 200 ns, of which the lookup through `SETTLED` took a few per cent).
        static LAST: core::cell::Cell<(usize, usize, usize, GradientPlan)> =
            const { core::cell::Cell::new((0, 0, usize::MAX, GradientPlan::dense(0))) };
    }
    let key = (core::any::type_name::<F>(), n);
    let last = LAST.with(|l| l.get());
    if last.0 == key.0.as_ptr() as usize && last.1 == key.0.len() && last.2 == n {
        return (last.3, false);
    }
    // The length first (a compare of two words), then the name (usually the same
    // pointer; a compare of characters otherwise).
    let same = |k: &(&'static str, usize)| k.1 == n && (core::ptr::eq(k.0, key.0) || k.0 == key.0);
    let settled = SETTLED.with(|s| s.borrow().iter().find(|e| same(&e.0)).map(|e| e.1));
    if let Some(plan) = settled {
        LAST.with(|l| l.set((key.0.as_ptr() as usize, key.0.len(), n, plan)));
        return (plan, false);
    }
    let (plan, measuring) = width_tuning::next(key);
    if !measuring {
        SETTLED.with(|s| {
            let mut s = s.borrow_mut();
            if s.len() >= 64 {
                s.remove(0);
            }
            s.push((key, plan));
        });
    }
    (plan, measuring)
}

/// [`gradient`] with `plan`, through this thread's kept buffers (timed if `measuring`).
#[inline(never)]
fn gradient_kept<F: GradientRule, G: point::sealed::Gradient>(
    f: &F,
    x: &[f64],
    plan: GradientPlan,
    measuring: bool,
) -> (f64, G) {
    std::thread_local! {
        /// The seeds and buffers of this thread's last `gradient`, kept for the next.
        static KEPT: core::cell::RefCell<GradientWorkspace> =
            core::cell::RefCell::new(GradientWorkspace::new());
    }
    let run = |ws: &mut GradientWorkspace| -> (f64, G) {
        if !measuring {
            let (value, g) = ws.run(f, x, plan);
            return (value, G::from_slice(g));
        }
        gradient_timed(f, x, plan, || {
            let (value, g) = ws.run(f, x, plan);
            (value, G::from_slice(g))
        })
    };
    // A rule that itself calls `gradient` finds the buffers taken: it gets fresh ones.
    KEPT.with(|kept| match kept.try_borrow_mut() {
        Ok(mut ws) => run(&mut ws),
        Err(_) => run(&mut GradientWorkspace::new()),
    })
}

/// What [`gradient`] learns of its plans on this machine: for each function (the name of
/// its rule's type) and input length, the shortest time of a call with each plan
/// ([`GradientPlan::CANDIDATES`]), over its first calls.
mod width_tuning {
    use super::{gradient_width, GradientPlan};
    use core::time::Duration;
    use std::sync::Mutex;

    /// How many candidates ([`GradientPlan::candidates`]).
    const K: usize = GradientPlan::CANDIDATES.len();
    /// Functions and lengths remembered (the oldest forgotten first).
    const CAPACITY: usize = 64;

    /// The choice among the candidates from timed samples, shared by [`gradient`](super::gradient)'s
    /// first calls and [`GradientWorkspace`](super::GradientWorkspace)'s first call of a
    /// length. A candidate's time is the shortest of its samples (a preempted or cold
    /// sample only adds time). Each candidate is timed [`Race::FIRST`] times, in turn; then,
    /// in turn again and up to [`Race::MOST`] samples each, the candidates within
    /// [`Race::CLOSE`] of the fastest so far (while there are two of them), and any
    /// candidate whose two shortest samples differ by more than [`Race::AGREE`] (its time
    /// not yet confirmed: all its samples may have been disturbed). Three samples each
    /// decided between `Batch` 16 and `MaybeZero` 16 on GMM d = 2, K = 10, about 10 %
    /// apart in steady state, the wrong way in one run of three (BENCHMARKS.md §11); a
    /// candidate clearly slower, and confirmed so, costs no more samples.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub(super) struct Race {
        /// The shortest and the second shortest sample of each candidate.
        best: [Duration; K],
        second: [Duration; K],
        samples: [u8; K],
    }

    impl Default for Race {
        fn default() -> Self {
            Race {
                best: [Duration::MAX; K],
                second: [Duration::MAX; K],
                samples: [0; K],
            }
        }
    }

    impl Race {
        /// Samples of every candidate.
        pub(super) const FIRST: u8 = 3;
        /// Samples of a candidate at most.
        pub(super) const MOST: u8 = 8;
        /// A candidate whose time is within this fraction of the fastest's is a contender.
        pub(super) const CLOSE: f64 = 0.15;
        /// Two samples within this fraction of each other confirm a candidate's time.
        pub(super) const AGREE: f64 = 0.03;

        /// The candidate to time next, or `None` once decided. Among the candidates still
        /// to be timed, one with the fewest samples, the first from `start` in the table's
        /// order (cyclically).
        pub(super) fn next(&self, start: usize) -> Option<usize> {
            let order = (0..K).map(|i| (start + i) % K);
            let fewest = order.clone().min_by_key(|&k| self.samples[k])?;
            if self.samples[fewest] < Self::FIRST {
                return Some(fewest);
            }
            let within = |a: Duration, b: Duration, f: f64| {
                a == b || a.as_secs_f64() <= b.as_secs_f64() * (1.0 + f)
            };
            let lead = self.best[self.winner()];
            let close = |k: usize| within(self.best[k], lead, Self::CLOSE);
            let race = order.clone().filter(|&k| close(k)).count() >= 2;
            let confirmed = |k: usize| within(self.second[k], self.best[k], Self::AGREE);
            order
                .filter(|&k| self.samples[k] < Self::MOST)
                .filter(|&k| (race && close(k)) || !confirmed(k))
                .min_by_key(|&k| self.samples[k])
        }

        /// Records a sample of candidate `k`.
        pub(super) fn record(&mut self, k: usize, took: Duration) {
            if k < K {
                if took < self.best[k] {
                    self.second[k] = self.best[k];
                    self.best[k] = took;
                } else {
                    self.second[k] = self.second[k].min(took);
                }
                self.samples[k] = self.samples[k].saturating_add(1);
            }
        }

        /// The candidate with the shortest time; among equal times the first in the table,
        /// so a plain `Batch` wins a tie with its `MaybeZero` (which must be faster to be
        /// chosen).
        pub(super) fn winner(&self) -> usize {
            (0..K).min_by_key(|&k| self.best[k]).unwrap_or(0)
        }
    }

    /// What is known of one function and length.
    pub(super) struct Entry {
        key: (&'static str, usize),
        /// The candidates for the key's length.
        plans: [GradientPlan; K],
        race: Race,
    }

    impl Entry {
        fn new(key: (&'static str, usize)) -> Self {
            Entry {
                key,
                plans: GradientPlan::candidates(key.1),
                race: Race::default(),
            }
        }

        /// The plan of the next call, and whether that call is a measurement: the next
        /// sample of the [`Race`] (the default plan first), until it is decided; then its
        /// winner.
        fn next(&self) -> (GradientPlan, bool) {
            match self.race.next(self.default_index()) {
                Some(k) => (self.plans[k], true),
                None => (self.plans[self.race.winner()], false),
            }
        }

        /// The plan a first call takes: `gradient_width(n)` lanes of `Batch`.
        fn default_index(&self) -> usize {
            let plan = GradientPlan::dense(gradient_width(self.key.1));
            self.plans.iter().position(|&p| p == plan).unwrap_or(0)
        }

        fn record(&mut self, plan: GradientPlan, took: Duration) {
            if let Some(k) = self.plans.iter().position(|&p| p == plan) {
                self.race.record(k, took);
            }
        }

        fn chosen(&self) -> Option<GradientPlan> {
            self.race
                .next(self.default_index())
                .is_none()
                .then(|| self.plans[self.race.winner()])
        }
    }

    static TABLE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

    /// The plan of the next call for `key`, and whether that call is a measurement.
    pub(super) fn next(key: (&'static str, usize)) -> (GradientPlan, bool) {
        let mut table = TABLE.lock().unwrap_or_else(|e| e.into_inner());
        match table.iter().find(|e| e.key == key) {
            Some(e) => e.next(),
            None => {
                if table.len() >= CAPACITY {
                    table.remove(0);
                }
                let e = Entry::new(key);
                let first = e.next();
                table.push(e);
                first
            }
        }
    }

    /// Records a measured call.
    pub(super) fn record(key: (&'static str, usize), plan: GradientPlan, took: Duration) {
        let mut table = TABLE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = table.iter_mut().find(|e| e.key == key) {
            e.record(plan, took);
        }
    }

    /// The plan chosen for `key`, once the race is decided.
    pub(super) fn chosen(key: (&'static str, usize)) -> Option<GradientPlan> {
        let table = TABLE.lock().unwrap_or_else(|e| e.into_inner());
        table.iter().find(|e| e.key == key)?.chosen()
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The candidates above 20 inputs (the lengths of these tests but one).
        const PLANS: [GradientPlan; K] = GradientPlan::CANDIDATES;

        /// Up to 20 inputs one pass of `gradient_width(n)` lanes stands in for `Batch` 32,
        /// and is the first call's plan.
        #[test]
        fn a_short_input_times_one_pass_of_its_own_width() {
            for (n, w) in [(17, 20), (20, 20), (21, 32), (24, 32), (25, 32), (32, 32)] {
                let plans = GradientPlan::candidates(n);
                assert!(plans.contains(&GradientPlan::dense(w)), "n = {n}");
                assert_eq!(Entry::new(("f", n)).next(), (GradientPlan::dense(w), true));
            }
            assert_eq!(GradientPlan::candidates(100), PLANS);
        }

        /// Times in µs by candidate (the table's order), as if measured, until decided.
        fn entry_with(n: usize, micros: [u64; K]) -> Entry {
            let mut e = Entry::new(("f", n));
            for _ in 0..(Race::MOST as usize) * K {
                let (plan, measuring) = e.next();
                if !measuring {
                    break;
                }
                let k = PLANS.iter().position(|&p| p == plan).unwrap();
                e.record(plan, Duration::from_micros(micros[k]));
            }
            assert!(e.chosen().is_some());
            e
        }

        #[test]
        fn every_candidate_is_timed_before_a_choice_and_the_first_call_takes_the_default() {
            let mut e = Entry::new(("f", 100));
            assert_eq!(e.next(), (GradientPlan::dense(gradient_width(100)), true));
            let mut seen = [0; K];
            // Equal times: every candidate a contender to the end.
            for _ in 0..(Race::MOST as usize) * K {
                assert_eq!(e.chosen(), None);
                let (plan, measuring) = e.next();
                assert!(measuring);
                let k = PLANS.iter().position(|&p| p == plan).unwrap();
                seen[k] += 1;
                e.record(plan, Duration::from_micros(10));
                if seen.iter().sum::<usize>() == (Race::FIRST as usize) * K {
                    assert_eq!(seen, [Race::FIRST as usize; K]);
                }
            }
            assert_eq!(seen, [Race::MOST as usize; K]);
            assert_eq!(e.chosen(), Some(PLANS[0]), "a tie: the first in the table");
            assert!(!e.next().1, "no more measurements once chosen");
        }

        #[test]
        fn known_zeros_are_chosen_only_when_faster() {
            let dense = |w| {
                PLANS
                    .iter()
                    .position(|&p| p == GradientPlan::dense(w))
                    .unwrap()
            };
            let zeros = |w| {
                PLANS
                    .iter()
                    .position(|&p| p == GradientPlan::known_zeros(w))
                    .unwrap()
            };
            // Known zeros faster at width 16: chosen.
            let mut t = [100; K];
            t[zeros(16)] = 60;
            t[dense(16)] = 80;
            let e = entry_with(100, t);
            assert_eq!(e.chosen(), Some(GradientPlan::known_zeros(16)));
            assert_eq!(e.next(), (GradientPlan::known_zeros(16), false));
            // A tie with the dense plan of the same width: the dense plan.
            let mut t = [100; K];
            t[zeros(8)] = 50;
            t[dense(8)] = 50;
            assert_eq!(entry_with(100, t).chosen(), Some(GradientPlan::dense(8)));
            // Known zeros slower everywhere: never chosen.
            let mut t = [100; K];
            for w in [8, 16, 32] {
                t[zeros(w)] = 120;
            }
            t[dense(32)] = 90;
            assert_eq!(entry_with(500, t).chosen(), Some(GradientPlan::dense(32)));
        }

        #[test]
        fn the_shortest_of_several_calls_counts() {
            let mut e = Entry::new(("f", 64));
            for round in 0..Race::FIRST {
                for &plan in &PLANS {
                    // Dense 8 is slow once (a preempted call) and fast otherwise.
                    let us = if plan == GradientPlan::dense(8) {
                        if round == 0 {
                            1000
                        } else {
                            10
                        }
                    } else {
                        20
                    };
                    e.record(plan, Duration::from_micros(us));
                }
            }
            assert_eq!(e.chosen(), Some(GradientPlan::dense(8)));
        }

        /// Runs a race on the given samples (µs, by candidate, in the order taken; the last
        /// repeated if more are asked for): the winner and the samples taken of each.
        fn race(samples: &[&[f64]; K]) -> (usize, [usize; K]) {
            let mut r = Race::default();
            let mut taken = [0; K];
            while let Some(k) = r.next(0) {
                let s = samples[k];
                let us = s[taken[k].min(s.len() - 1)];
                r.record(k, Duration::from_nanos((us * 1000.0) as u64));
                taken[k] += 1;
                assert!(taken.iter().sum::<usize>() <= (Race::MOST as usize) * K);
            }
            (r.winner(), taken)
        }

        /// GMM d = 2, K = 10 (60 parameters) as measured: `MaybeZero` 16 about 10 % faster
        /// than `Batch` 16 in steady state, the other plans far behind. Three samples of
        /// `MaybeZero` 16 that all came out slow (disturbed, or the plan still cold) decided
        /// for `Batch` 16 before; now the two are timed again, and the clearly slower plans
        /// are not.
        #[test]
        fn a_close_race_is_timed_again_and_three_slow_samples_do_not_decide_it() {
            // Batch 8, 16, 32, MaybeZero 8, 16, 32 (µs).
            let b8: &[f64] = &[1500.0];
            let b16: &[f64] = &[1130.0, 1125.0, 1128.0, 1126.0];
            let b32: &[f64] = &[1300.0];
            let z8: &[f64] = &[1700.0];
            let z16: &[f64] = &[1190.0, 1180.0, 1175.0, 1020.0, 1015.0, 1030.0];
            let z32: &[f64] = &[1450.0];
            let (winner, taken) = race(&[b8, b16, b32, z8, z16, z32]);
            assert_eq!(PLANS[winner], GradientPlan::known_zeros(16));
            let first = Race::FIRST as usize;
            assert_eq!([taken[0], taken[2], taken[3], taken[5]], [first; 4]);
            assert!(taken[1] > first && taken[4] > first, "{taken:?}");
            // Three samples each would have chosen `Batch` 16.
            let mut r = Race::default();
            for (k, s) in [b8, b16, b32, z8, z16, z32].iter().enumerate() {
                for &us in s.iter().cycle().take(first) {
                    r.record(k, Duration::from_nanos((us * 1000.0) as u64));
                }
            }
            assert_eq!(PLANS[r.winner()], GradientPlan::dense(16));
            // Once the leader is clearly ahead and its time confirmed by a second sample,
            // the race stops.
            let z16: &[f64] = &[1190.0, 1180.0, 1175.0, 950.0, 960.0];
            let (winner, taken) = race(&[b8, b16, b32, z8, z16, z32]);
            assert_eq!(PLANS[winner], GradientPlan::known_zeros(16));
            assert_eq!(taken[4], first + 2, "{taken:?}");
            assert_eq!(taken[1], first + 1, "{taken:?}");
        }

        /// A candidate whose every sample so far was disturbed is timed again, though it
        /// looked slow: its time is not confirmed until two samples agree.
        #[test]
        fn a_plan_whose_first_samples_were_all_disturbed_is_timed_again() {
            let others: &[f64] = &[1500.0];
            let b16: &[f64] = &[1120.0];
            // 30-60 % over its steady 1000 µs, then undisturbed.
            let z16: &[f64] = &[1600.0, 1300.0, 1450.0, 1005.0, 1000.0];
            let (winner, taken) = race(&[others, b16, others, others, z16, others]);
            assert_eq!(PLANS[winner], GradientPlan::known_zeros(16));
            assert!(taken[4] >= 5, "{taken:?}");
            // Confirmed slow plans are not timed again.
            assert_eq!([taken[0], taken[2], taken[3], taken[5]], [3; 4]);
        }

        /// The decision on many simulated first calls of one rule: each sample is the
        /// plan's steady-state time, plus 0-2 % of jitter, and with probability `p` a
        /// disturbance of 5-40 % (another process, a cold cache): `(wrong choices, wrong
        /// choices of three samples each, samples taken)` over 2000 runs.
        fn noisy_runs(p: f64) -> (usize, usize, usize) {
            // Batch 8, 16, 32, MaybeZero 8, 16 (the fastest), 32 (µs).
            let steady = [1300.0, 1120.0, 1150.0, 1400.0, 1000.0, 1200.0];
            let mut state = 0x2545_f491_4f6c_dd1d_u64;
            let mut uniform = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 11) as f64 / (1u64 << 53) as f64
            };
            let mut sample = |k: usize| {
                let jitter = 0.02 * uniform();
                let hit = if uniform() < p {
                    0.05 + 0.35 * uniform()
                } else {
                    0.0
                };
                Duration::from_nanos((steady[k] * 1000.0 * (1.0 + jitter + hit)) as u64)
            };
            let (mut wrong, mut wrong_three, mut samples) = (0, 0, 0);
            for _ in 0..2000 {
                let mut r = Race::default();
                while let Some(k) = r.next(0) {
                    r.record(k, sample(k));
                    samples += 1;
                }
                wrong += usize::from(r.winner() != 4);
                let mut three = Race::default();
                for _ in 0..Race::FIRST {
                    for k in 0..K {
                        three.record(k, sample(k));
                    }
                }
                wrong_three += usize::from(three.winner() != 4);
            }
            (wrong, wrong_three, samples)
        }

        /// One sample in five disturbed: the plan 10 % faster than the next is chosen in
        /// every run, where three samples each chose wrong about one run in 200. One in
        /// three (a loaded machine): at most a tenth of the wrong choices.
        #[test]
        fn the_choice_is_stable_under_noisy_samples() {
            let (wrong, wrong_three, samples) = noisy_runs(0.2);
            assert_eq!(
                wrong, 0,
                "of 2000 runs ({wrong_three} with three samples each)"
            );
            assert!(
                wrong_three > 0,
                "the noise model decides wrongly with three samples"
            );
            // Fewer samples than eight of every plan (48 a run): the slow plans are mostly
            // left after three.
            assert!(samples < 2000 * 36, "{samples} samples in 2000 runs");
            let (wrong, wrong_three, _) = noisy_runs(1.0 / 3.0);
            assert!(
                wrong * 10 <= wrong_three && wrong_three > 0,
                "{wrong} wrong choices of 2000 against {wrong_three} with three samples each"
            );
        }
    }
}

/// The width [`gradient`] has settled on for the rule `F` and `n` inputs in this process,
/// once it has timed its plans ([`GradientPlan::CANDIDATES`]) on its first calls (18 to
/// 48, see [`gradient`]); `None` before, and up to 16 inputs (one pass, nothing to choose).
/// [`gradient_plan_chosen`] tells the tangent type too.
///
/// ```
/// use fwdad::drivers::{gradient, gradient_width_chosen, GradientPlan};
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn energy(x: &[f64]) -> f64 {
///     let mut e = x[0].cosh();
///     for i in 1..x.len() {
///         e += (x[i] - x[i - 1]).powi(2);
///     }
///     e
/// }
///
/// let x: Vec<f64> = (0..60).map(|i| 0.01 * i as f64).collect();
/// let (_, first) = gradient(energy {}, &x);
/// assert_eq!(gradient_width_chosen(&energy {}, 60), None);
/// let mut calls = 1;
/// while gradient_width_chosen(&energy {}, 60).is_none() {
///     // Each call a real gradient, the same values with every plan.
///     assert_eq!(gradient(energy {}, &x).1, first);
///     calls += 1;
/// }
/// assert!((3 * GradientPlan::CANDIDATES.len()..=48).contains(&calls));
/// assert!([8, 16, 32].contains(&gradient_width_chosen(&energy {}, 60).unwrap()));
/// ```
pub fn gradient_width_chosen<F: GradientRule>(f: &F, n: usize) -> Option<usize> {
    gradient_plan_chosen(f, n).map(|p| p.width)
}

/// The plan (width, and whether tangents carry known zeros) [`gradient`] has settled on
/// for the rule `F` and `n` inputs in this process, once it has timed
/// [`GradientPlan::CANDIDATES`] on its first calls; `None` before, and up to 16 inputs.
pub fn gradient_plan_chosen<F: GradientRule>(_f: &F, n: usize) -> Option<GradientPlan> {
    if n <= 16 {
        return None;
    }
    width_tuning::chosen((core::any::type_name::<F>(), n))
}

/// The chunk width [`gradient`] uses for `n` inputs: one pass up to 32 inputs, of 4, 8,
/// 10, 12, 16, 20 or 32 lanes (the fewest that hold `n`); 16 below 256, 32 from there on.
/// ([`GradientWorkspace`] measures the plan instead, above 16 inputs, and so does
/// [`gradient`] on its later calls above 16.)
///
/// One pass of padding lanes costs what num-dual's one pass of exactly `n` lanes does not
/// (issue 30, the same machine, one pass ÷ num-dual's best: Ackley at n = 10, 16 lanes
/// 1.09, 12 lanes 0.97, 10 lanes 0.91; Rosenbrock at n = 10, 16 lanes 0.92, 12 lanes
/// 0.75, 10 lanes 0.50; at n = 20, 32 lanes 1.15, 20 lanes 0.82). Each width is an
/// instantiation of the rule, so the set is a trade: 10 lanes (for 9 or 10 inputs, a
/// common size) replaced 24, whose inputs (21 to 24) are above 16 and so have their plan
/// timed among [`GradientPlan::CANDIDATES`]: at 24 inputs `MaybeZero` 8 is faster than
/// one pass of 24 lanes on Rosenbrock (0.89 against 1.02 × num-dual's best) and
/// `MaybeZero` 32 within 5 % of it on Ackley (0.80 against 0.76).
///
/// Measured in `fwdad-bench` (BENCHMARKS.md, issue 30 section; 2-core Intel Xeon at
/// 2.5 GHz, one codegen unit, thin LTO), as time ÷ width 8's on Rosenbrock (a cheap primal) and Ackley
/// (a costly one): one pass beats several up to 32 inputs (n = 10 at width 16: 0.73 and
/// 0.70; n = 20 at width 32: 0.81 and 0.77); from 50 to 100 inputs width 16 costs
/// Rosenbrock 0.96–1.06 and saves Ackley a third (0.65–0.75) while width 32 is slower
/// than 16 on both; from a few hundred inputs width 32 is the fastest on both (n = 300:
/// 0.85 and 0.50; n = 1000: 0.76 and 0.43). Which width is best depends on the function
/// (the primal's cost against its tangent lanes'), not on `n` alone: for a function
/// called many times, [`GradientWorkspace`] times the three widths on it.
///
/// ```
/// use fwdad::drivers::gradient_width;
///
/// assert_eq!(gradient_width(3), 4);
/// assert_eq!(gradient_width(6), 8);
/// assert_eq!(gradient_width(10), 10);
/// assert_eq!(gradient_width(12), 12);
/// assert_eq!(gradient_width(20), 20);
/// assert_eq!(gradient_width(24), 32);
/// assert_eq!(gradient_width(30), 32);
/// assert_eq!(gradient_width(100), 16);
/// assert_eq!(gradient_width(1000), 32);
/// ```
pub const fn gradient_width(n: usize) -> usize {
    if n <= 20 {
        // One pass, of the fewest lanes that hold `n`.
        match n {
            0..=4 => 4,
            5..=8 => 8,
            9..=10 => 10,
            11..=12 => 12,
            13..=16 => 16,
            _ => 20,
        }
    } else if n <= 32 || n >= 256 {
        32
    } else {
        16
    }
}

/// A rule [`gradient`] can run: a [`SliceRule`] with a scalar result in each mode of its
/// plans (`Batch` at widths 4, 8, 10, 12, 16, 20 and 32, `MaybeZero` at 8, 16 and 32). Every
/// `#[derive_frule]` rule of one `&[f64]` argument is one, as is every [`bind`] of a rule;
/// there is nothing to implement (it is sealed).
/// A rule that does not fit is reported at the call, once per mode.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rule of one `&[f64]` argument with an `f64` result",
    label = "`gradient` calls this rule with one `x: &[f64]` and needs an `f64` result",
    note = "pass the handle of a `#[derive_frule]` function `f(x: &[f64]) -> f64` (`f {{}}`); of a method of a `#[derive_frule] impl`, `rule!(Model::loss)`, its receiver bound first (`bind(rule!(Model::loss), (&model, Wrt))`); fix its other arguments with `bind(f {{}}, (Wrt, ..))`; for a function of `x: &[f64; N]`, `[f64; N]`, `&Vec<f64>` or `Vec<f64>` write `bind(f {{}}, (Wrt,))`; for a function of several `f64`s write `bind(f {{}}, (Var(0), Var(1), ..))`; for a vector result use `jacobian`"
)]
pub trait GradientRule:
    SliceRule<Batch<f64, 4>, Output: ScalarOutput<Batch<f64, 4>>>
    + SliceRule<Batch<f64, 8>, Output: ScalarOutput<Batch<f64, 8>>>
    + SliceRule<Batch<f64, 10>, Output: ScalarOutput<Batch<f64, 10>>>
    + SliceRule<Batch<f64, 12>, Output: ScalarOutput<Batch<f64, 12>>>
    + SliceRule<Batch<f64, 16>, Output: ScalarOutput<Batch<f64, 16>>>
    + SliceRule<Batch<f64, 20>, Output: ScalarOutput<Batch<f64, 20>>>
    + SliceRule<Batch<f64, 32>, Output: ScalarOutput<Batch<f64, 32>>>
    + SliceRule<Zeros<8>, Output: ScalarOutput<Zeros<8>>>
    + SliceRule<Zeros<16>, Output: ScalarOutput<Zeros<16>>>
    + SliceRule<Zeros<32>, Output: ScalarOutput<Zeros<32>>>
{
}

impl<F> GradientRule for F where
    F: SliceRule<Batch<f64, 4>, Output: ScalarOutput<Batch<f64, 4>>>
        + SliceRule<Batch<f64, 8>, Output: ScalarOutput<Batch<f64, 8>>>
        + SliceRule<Batch<f64, 10>, Output: ScalarOutput<Batch<f64, 10>>>
        + SliceRule<Batch<f64, 12>, Output: ScalarOutput<Batch<f64, 12>>>
        + SliceRule<Batch<f64, 16>, Output: ScalarOutput<Batch<f64, 16>>>
        + SliceRule<Batch<f64, 20>, Output: ScalarOutput<Batch<f64, 20>>>
        + SliceRule<Batch<f64, 32>, Output: ScalarOutput<Batch<f64, 32>>>
        + SliceRule<Zeros<8>, Output: ScalarOutput<Zeros<8>>>
        + SliceRule<Zeros<16>, Output: ScalarOutput<Zeros<16>>>
        + SliceRule<Zeros<32>, Output: ScalarOutput<Zeros<32>>>
{
}

/// `N` lanes with their zero known ([`MaybeZero`]): the tangents of [`GradientPlan`]s
/// with `known_zeros`.
type Zeros<const N: usize> = MaybeZero<Batch<f64, N>>;

/// How [`gradient`] runs a rule: `width` directions per pass, in `Batch<f64, width>`
/// tangents, or with `known_zeros` in [`MaybeZero<Batch<f64, width>>`](MaybeZero).
///
/// A pass seeds `width` inputs; the others carry zero tangents. `Batch` pushes their zero
/// lanes through every operation; `MaybeZero` knows them zero and skips the operation
/// (and the partial derivative behind it), as num-dual's `Option` derivatives do, at the
/// price of a test per operation. Which pays depends on the function: a cheap primal whose
/// terms each read few inputs (Rosenbrock) gains, a function whose every value soon
/// depends on a seeded input gains nothing and pays the tests. The gradient is the same at
/// every plan (equal as values; see [`MaybeZero`] for the sign of a zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GradientPlan {
    /// Directions per pass.
    pub width: usize,
    /// Whether the tangents know their zeros ([`MaybeZero`]).
    pub known_zeros: bool,
}

impl GradientPlan {
    /// The plans [`gradient`] and [`GradientWorkspace`] time: `Batch` at widths 8, 16 and
    /// 32, then `MaybeZero` at the same widths (a tie goes to the first).
    pub const CANDIDATES: [GradientPlan; 6] = [
        Self::dense(8),
        Self::dense(16),
        Self::dense(32),
        Self::known_zeros(8),
        Self::known_zeros(16),
        Self::known_zeros(32),
    ];

    /// The plans timed for `n` inputs (above 16): [`Self::CANDIDATES`], with one pass of
    /// [`gradient_width(n)`](gradient_width) lanes of `Batch` in place of `Batch` 32 up to
    /// 20 inputs (20 lanes: a pass of 32 would carry 12 to 15 padding lanes).
    pub const fn candidates(n: usize) -> [GradientPlan; 6] {
        let mut plans = Self::CANDIDATES;
        if n <= 20 {
            plans[2] = Self::dense(gradient_width(n));
        }
        plans
    }

    /// `width` lanes of `Batch`.
    pub const fn dense(width: usize) -> Self {
        GradientPlan {
            width,
            known_zeros: false,
        }
    }

    /// `width` lanes of `MaybeZero<Batch>`.
    pub const fn known_zeros(width: usize) -> Self {
        GradientPlan {
            width,
            known_zeros: true,
        }
    }
}

/// The dual of an `f64` result, `Dual<f64, S>`: what the gradient drivers ask of a rule's
/// output, as a trait rather than a type equality so that a vector result is reported
/// with a pointer to `jacobian`.
#[diagnostic::on_unimplemented(
    message = "`gradient` needs a rule with an `f64` result, not `{Self}`",
    label = "the rule's result is not one `f64`",
    note = "for a function with several results use `jacobian`; for one result among several, wrap the function in one that returns it"
)]
pub trait ScalarOutput<S>: FlatOutput<S> + sealed::ScalarOutput<S> {}

impl<S: Copy> sealed::ScalarOutput<S> for Dual<f64, S> {}
impl<S: Copy> ScalarOutput<S> for Dual<f64, S> {}

/// The dual of an `f64` result under second-order tangents: what [`hessian`] asks of a
/// rule's output, as a trait rather than a type equality so that a vector result is
/// reported as such (rustc's `type mismatch resolving ..` otherwise).
#[diagnostic::on_unimplemented(
    message = "`hessian` needs a rule with an `f64` result, not `{Self}`",
    label = "the rule's result is not one `f64`",
    note = "a Hessian is of a function with one `f64` result: for several results, take the Hessian of each through a function that returns it; for their first derivatives use `jacobian`"
)]
pub trait HessianOutput<S>: sealed::ScalarOutput<S> {
    /// The dual itself.
    #[doc(hidden)]
    fn into_scalar(self) -> Dual<f64, S>;
}

impl<S: Copy> HessianOutput<S> for Dual<f64, S> {
    #[inline(always)]
    fn into_scalar(self) -> Dual<f64, S> {
        self
    }
}

/// [`gradient`] with `N` directions per pass (`N ≥ 1`).
///
/// Each pass recomputes the primal, so a large gradient (hundreds of inputs) is faster
/// with wider passes; [`gradient`] picks the width by the input's length
/// ([`gradient_width`]). This one compiles the rule for one width only.
///
/// ```
/// use fwdad::drivers::gradient_with;
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn dot_self(x: &[f64]) -> f64 {
///     let mut s = 0.0;
///     for i in 0..x.len() {
///         s += x[i] * x[i];
///     }
///     s
/// }
///
/// let x = [1.0, 2.0, 3.0, 4.0, 5.0];
/// let (_, g) = gradient_with::<2>(dot_self {}, &x); // 3 passes: 2 + 2 + 1 (padded)
/// assert_eq!(g, [2.0, 4.0, 6.0, 8.0, 10.0]);
/// ```
pub fn gradient_with<const N: usize>(
    f: impl SliceRule<Batch<f64, N>, Output: ScalarOutput<Batch<f64, N>>>,
    x: &[f64],
) -> (f64, Vec<f64>) {
    let (value, jac) = jacobian_in::<Batch<f64, N>, _, _>(f, x);
    (value[0], jac.into_vec())
}

/// The values of `f` at `x` and its Jacobian `J` (an m × n row-major [`Matrix`],
/// `J[(i, j)] = ∂fᵢ/∂xⱼ`), in ⌈n / w⌉ batched passes of [`jacobian_width(n)`](jacobian_width)
/// directions (4 up to 4 inputs, 8 up to 8, 16 above: one pass up to 16 inputs).
///
/// `f` maps `&[f64]` to anything [`FlatOutput`] reads: `f64`, `[f64; M]`, `Vec<f64>`, a
/// tuple of `f64`, or a buffer through [`inplace`].
///
/// ```
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn polar_to_cartesian(p: &[f64]) -> [f64; 2] {
///     [p[0] * p[1].cos(), p[0] * p[1].sin()]
/// }
///
/// let (r, t) = (2.0_f64, 0.5_f64);
/// let (xy, j) = jacobian(polar_to_cartesian {}, &[r, t]);
/// assert_eq!(xy, [r * t.cos(), r * t.sin()]);
/// assert_eq!(j.to_rows(), [[t.cos(), -r * t.sin()], [t.sin(), r * t.cos()]]);
/// ```
pub fn jacobian<F: JacobianRule>(f: F, x: &[f64]) -> (Vec<f64>, Matrix) {
    match jacobian_width(x.len()) {
        4 => jacobian_with::<4>(f, x),
        8 => jacobian_with::<8>(f, x),
        _ => jacobian_with::<16>(f, x),
    }
}

/// The directions per pass [`jacobian`] takes for `n` inputs: 4 up to 4 inputs, 8 up to
/// 8, 16 above (one pass up to 16 inputs, chunks of 16 above).
///
/// Measured (BENCHMARKS.md, "Driver widths": `jacobian_with::<w>` ÷ `jacobian_with::<8>`
/// in one process, 2-core Xeon at 2.5 GHz, one codegen unit, thin LTO): a pass costs the
/// primal once and its lanes, so one pass of as few lanes as hold the inputs wins up to 16
/// inputs (12 × 3 exponential fit: 4 lanes 0.87, 16 lanes 1.33; 10 × 10 chain: 16 lanes
/// one pass 0.65, 32 lanes 1.14); above, chunks of 16 (50 × 50 chain: 16 lanes 0.66, 32
/// lanes 0.61, 4 lanes 1.78). A rule accumulated backwards (a straight-line residual such
/// as bundle adjustment's 2 × 15 block) costs the same from 2 to 8 lanes and 1.06 at 16. The
/// rule is compiled at the three widths; for one, use [`jacobian_with`].
///
/// ```
/// use fwdad::drivers::jacobian_width;
///
/// assert_eq!(jacobian_width(2), 4);
/// assert_eq!(jacobian_width(8), 8);
/// assert_eq!(jacobian_width(9), 16);
/// assert_eq!(jacobian_width(500), 16);
/// ```
pub const fn jacobian_width(n: usize) -> usize {
    if n <= 4 {
        4
    } else if n <= 8 {
        8
    } else {
        16
    }
}

/// A rule [`jacobian`] can run: a [`SliceRule`] whose result [`FlatOutput`] reads, at each
/// width [`jacobian_width`] may take (`Batch` of 4, 8 and 16 lanes). Every
/// `#[derive_frule]` rule of one `&[f64]` argument is one, as is every [`bind`] of a rule
/// and every [`inplace`]; there is nothing to implement (it is sealed).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rule of one `&[f64]` argument with an `f64`, array, `Vec<f64>` or tuple result",
    label = "`jacobian` calls this rule with one `x: &[f64]`",
    note = "pass the handle of a `#[derive_frule]` function of `x: &[f64]` (`f {{}}`); of a method of a `#[derive_frule] impl`, `rule!(Model::loss)`, its receiver bound first (`bind(rule!(Model::loss), (&model, Wrt))`); fix its other arguments with `bind(f {{}}, (Wrt, ..))`; for a result written into a `&mut [f64]` use `inplace(bind(f {{}}, (Wrt, .., Out)), m)`"
)]
pub trait JacobianRule:
    SliceRule<Batch<f64, 4>, Output: FlatOutput<Batch<f64, 4>>>
    + SliceRule<Batch<f64, 8>, Output: FlatOutput<Batch<f64, 8>>>
    + SliceRule<Batch<f64, 16>, Output: FlatOutput<Batch<f64, 16>>>
{
}

impl<F> JacobianRule for F where
    F: SliceRule<Batch<f64, 4>, Output: FlatOutput<Batch<f64, 4>>>
        + SliceRule<Batch<f64, 8>, Output: FlatOutput<Batch<f64, 8>>>
        + SliceRule<Batch<f64, 16>, Output: FlatOutput<Batch<f64, 16>>>
{
}

/// [`jacobian`] with `N` directions per pass (`N ≥ 1`).
///
/// ```
/// use fwdad::drivers::jacobian_with;
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn squares(x: &[f64]) -> [f64; 3] {
///     [x[0] * x[0], x[1] * x[1], x[2] * x[2]]
/// }
///
/// let (_, j) = jacobian_with::<32>(squares {}, &[1.0, 2.0, 3.0]);
/// assert_eq!(j.to_rows(), [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]]);
/// ```
pub fn jacobian_with<const N: usize>(
    f: impl SliceRule<Batch<f64, N>, Output: FlatOutput<Batch<f64, N>>>,
    x: &[f64],
) -> (Vec<f64>, Matrix) {
    jacobian_in::<Batch<f64, N>, _, _>(f, x)
}

/// The Jacobian in chunks of `S::LANES` directions, in fresh buffers.
fn jacobian_in<S, F, Y>(f: F, x: &[f64]) -> (Vec<f64>, Matrix)
where
    S: Mode + Lanes<f64>,
    F: SliceRule<S, Output = Y>,
    Y: FlatOutput<S>,
{
    let (mut seeds, mut values, mut jac) = (Seeds::default(), Vec::new(), Matrix::zeros(0, 0));
    jacobian_into(&f, x, &mut seeds, &mut values, &mut jac);
    (values, jac)
}

/// Input tangents for [`jacobian_into`], kept between calls: the seeds of every chunk of
/// `n` inputs as windows of one buffer, laid out once per length as zeros (as many as the
/// last chunk's first input, `last`), the `S::LANES` unit directions, then zeros (`n -
/// S::LANES`, or none). The chunk starting at input `s` reads the `n` entries from `last -
/// s`: inputs `s..s + S::LANES` get the unit lanes, the others zeros, so a chunk has
/// nothing to build or clear (as the static windows of `point::WindowSeeds` up to 64
/// inputs; a chunk that rebuilt its seeds and cleared them after paid about 2 × `LANES`
/// seed stores per pass, a quarter of Ackley's gradient at 50 inputs in `MaybeZero` 32).
/// One chunk (`n ≤ LANES`) is the unit directions alone, as before.
#[derive(Clone, Debug)]
struct Seeds<S> {
    tangents: Vec<S>,
    /// `Some(n)`: `tangents` holds the windows of `n` inputs.
    built: Option<usize>,
}

impl<S> Default for Seeds<S> {
    fn default() -> Self {
        Seeds {
            tangents: Vec::new(),
            built: None,
        }
    }
}

impl<S: Mode + Lanes<f64>> Seeds<S> {
    /// The first input of the last chunk of `n` inputs (`0` for one chunk).
    #[inline(always)]
    fn last_chunk(n: usize) -> usize {
        S::LANES * (n.saturating_sub(1) / S::LANES)
    }

    /// Lays out the windows of `n` inputs, unless they are in place from the previous call.
    #[inline]
    fn windows(&mut self, n: usize) {
        if self.built == Some(n) {
            return;
        }
        let (w, last) = (S::LANES, Self::last_chunk(n));
        self.tangents.clear();
        self.tangents
            .resize(last + w + n.saturating_sub(w), S::zero());
        for (lane, seed) in self.tangents[last..last + w].iter_mut().enumerate() {
            *seed = S::from_lanes(|l| if l == lane { 1.0 } else { 0.0 });
        }
        self.built = Some(n);
    }

    /// The seeds of the chunk starting at input `start` of the `n` of [`Self::windows`].
    #[inline(always)]
    fn window(&self, n: usize, start: usize) -> &[S] {
        let at = Self::last_chunk(n) - start;
        &self.tangents[at..at + n]
    }
}

/// The Jacobian in chunks of `S::LANES` directions: chunk `c` seeds `e_{cw+k}` in lane `k`
/// and reads column `cw+k` from lane `k`; lanes past the input length stay zero. `values`
/// and `jac` are overwritten (their allocations reused). Never inlined: inlined into
/// [`Buffers::gradient`] beside its one-pass path, it made a second copy of the rule there
/// and LLVM then inlined neither (Ackley, 12 lanes).
#[inline(never)]
fn jacobian_into<S, F, Y>(
    f: &F,
    x: &[f64],
    seeds: &mut Seeds<S>,
    values: &mut Vec<f64>,
    jac: &mut Matrix,
) where
    S: Mode + Lanes<f64>,
    F: SliceRule<S, Output = Y>,
    Y: FlatOutput<S>,
{
    const { assert!(S::LANES >= 1, "a batch needs at least one lane") };
    let n = x.len();
    seeds.windows(n);
    // A rule whose body is one chain writes its coefficients directly (no seeded pass;
    // the tangents are only the arguments' type).
    let mut sink = DenseSink { values, jac, n };
    if f.eval_jacobian(x, seeds.window(n, 0), &mut sink) {
        return;
    }
    values.clear();
    let mut start = 0;
    loop {
        let end = (start + S::LANES).min(n);
        let y = f.eval(x, seeds.window(n, start));
        if start == 0 {
            values.extend((0..y.len()).map(|i| y.value(i)));
            jac.reshape_for_overwrite(values.len(), n);
        }
        for i in 0..values.len() {
            let t = y.tangent(i);
            let row = &mut jac.row_mut(i)[start..end];
            // A trip count known at compile time (unrolled): a copy of `end - start`
            // lanes becomes a call of `memcpy`, which cost a one-pass gradient of 10
            // inputs 6 % of its time.
            for lane in 0..S::LANES {
                if let Some(entry) = row.get_mut(lane) {
                    *entry = t.lane(lane);
                }
            }
        }
        start = end;
        if start >= n {
            break;
        }
    }
}

/// The values and the dense Jacobian a rule's Jacobian entry writes
/// ([`Frule::chain_jacobian`]), for `n` inputs.
struct DenseSink<'b> {
    values: &'b mut Vec<f64>,
    jac: &'b mut Matrix,
    n: usize,
}

impl JacobianSink for DenseSink<'_> {
    #[inline]
    fn rows(&mut self, m: usize) {
        self.values.clear();
        self.values.resize(m, 0.0);
        self.jac.reshape_for_overwrite(m, self.n);
        self.jac.data.fill(0.0);
    }
    #[inline(always)]
    fn value(&mut self, i: usize, v: f64) {
        self.values[i] = v;
    }
    #[inline(always)]
    fn add(&mut self, i: usize, j: usize, d: f64) {
        self.jac.data[i * self.n + j] += d;
    }
}

/// [`jacobian_with`] with its buffers kept between calls: for many small Jacobians (one per
/// residual block, one per solver step), evaluation allocates nothing after the first.
///
/// ```
/// use fwdad::drivers::JacobianWorkspace;
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn polar(p: &[f64]) -> [f64; 2] {
///     [p[0] * p[1].cos(), p[0] * p[1].sin()]
/// }
///
/// let mut ws = JacobianWorkspace::<2>::new();
/// for r in [1.0, 2.0, 3.0] {
///     let (values, j) = ws.jacobian(polar {}, &[r, 0.0]);
///     assert_eq!(values, [r, 0.0]);
///     assert_eq!(j.to_rows(), [[1.0, 0.0], [0.0, r]]);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct JacobianWorkspace<const N: usize = DEFAULT_WIDTH> {
    buffers: Buffers<Batch<f64, N>>,
}

/// What [`jacobian_into`] keeps between calls in mode `S`.
#[derive(Clone, Debug)]
struct Buffers<S> {
    seeds: Seeds<S>,
    values: Vec<f64>,
    jac: Matrix,
}

impl<S> Default for Buffers<S> {
    fn default() -> Self {
        Buffers {
            seeds: Seeds::default(),
            values: Vec::new(),
            jac: Matrix::zeros(0, 0),
        }
    }
}

impl<S: Mode + Lanes<f64>> Buffers<S> {
    /// The gradient of `f` at `x`, borrowed from the buffers.
    #[inline(never)]
    fn gradient<F>(&mut self, f: &F, x: &[f64]) -> (f64, &[f64])
    where
        F: SliceRule<S, Output: ScalarOutput<S>>,
    {
        if let Some((value, t)) = self.one_pass(f, x) {
            let g = &mut self.jac.data[..x.len()];
            // A trip count known at compile time (unrolled): a copy of `n` lanes becomes
            // a call of `memcpy`, which cost a one-pass gradient of 10 inputs 6 %.
            for lane in 0..S::LANES {
                if let Some(entry) = g.get_mut(lane) {
                    *entry = t.lane(lane);
                }
            }
            return (value, &self.jac.data);
        }
        (self.values[0], self.jac.as_slice())
    }

    /// The gradient of `f` at `x`: the value and the tangent of one seeded pass, when the
    /// unit seeds of that pass are in place from the previous call of the same length (an
    /// optimiser's calls); otherwise `None`, the gradient in `values[0]` and `jac`
    /// (by [`jacobian_into`], which answers a rule with a Jacobian entry without seeds).
    /// Through `jacobian_into`'s general loop, a one-pass gradient of 10 inputs took 10-20 %
    /// longer (Ackley, Rosenbrock; `fwdad-bench`'s `grad_probe`).
    #[inline(always)]
    fn one_pass<F>(&mut self, f: &F, x: &[f64]) -> Option<(f64, S)>
    where
        F: SliceRule<S, Output: ScalarOutput<S>>,
    {
        let n = x.len();
        if n <= S::LANES && self.seeds.built == Some(n) && self.jac.data.len() == n {
            let seeds = self.seeds.window(n, 0);
            let mut sink = DenseSink {
                values: &mut self.values,
                jac: &mut self.jac,
                n,
            };
            // Nothing (`false`) for a rule without a Jacobian entry.
            if !f.eval_jacobian(x, seeds, &mut sink) {
                let y = f.eval(x, seeds);
                return Some((y.value(0), y.tangent(0)));
            }
            return None;
        }
        jacobian_into(f, x, &mut self.seeds, &mut self.values, &mut self.jac);
        None
    }
}

impl<const N: usize> Default for JacobianWorkspace<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> JacobianWorkspace<N> {
    /// Empty buffers (they grow on first use).
    pub fn new() -> Self {
        JacobianWorkspace {
            buffers: Buffers::default(),
        }
    }

    /// `(f(x), J(x))`, as [`jacobian_with::<N>`](jacobian_with) computes them, borrowed
    /// from the workspace until the next call.
    pub fn jacobian(
        &mut self,
        f: impl SliceRule<Batch<f64, N>, Output: FlatOutput<Batch<f64, N>>>,
        x: &[f64],
    ) -> (&[f64], &Matrix) {
        let b = &mut self.buffers;
        jacobian_into(&f, x, &mut b.seeds, &mut b.values, &mut b.jac);
        (&b.values, &b.jac)
    }

    /// `(f(x), ∇f(x))` of a function `&[f64] → f64`, as
    /// [`gradient_with::<N>`](gradient_with) computes them, the gradient borrowed from the
    /// workspace until the next call.
    ///
    /// ```
    /// use fwdad::drivers::JacobianWorkspace;
    /// use fwdad::prelude::*;
    ///
    /// #[derive_frule]
    /// fn norm2(x: &[f64]) -> f64 {
    ///     x.iter().map(|v| v * v).sum()
    /// }
    ///
    /// let mut ws = JacobianWorkspace::<4>::new();
    /// let (v, g) = ws.gradient(norm2 {}, &[1.0, 2.0, 3.0]);
    /// assert_eq!((v, g), (14.0, &[2.0, 4.0, 6.0][..]));
    /// ```
    pub fn gradient(
        &mut self,
        f: impl SliceRule<Batch<f64, N>, Output: ScalarOutput<Batch<f64, N>>>,
        x: &[f64],
    ) -> (f64, &[f64]) {
        self.buffers.gradient(&f, x)
    }
}

/// [`gradient`] with its buffers kept between calls (one set per plan it may pick), for
/// an optimiser that asks for many gradients: evaluation allocates nothing after the first
/// call of a size.
///
/// The workspace also chooses its plan by measurement. Above 16 inputs, the first call
/// for an input length times gradients with each of
/// [`GradientPlan::candidates(n)`](GradientPlan::candidates) (`Batch` and [`MaybeZero`]
/// tangents at widths 8, 16 and 32, one pass of 20 lanes in place of `Batch` 32 up
/// to 20 inputs), alternating, keeps the
/// fastest, and uses it for every later call of that length ([`Self::plan`] tells
/// which). The best plan depends on the function, not only on `n`: every pass recomputes
/// the primal, so a costly primal (`exp`, `cos`) favours wide passes, while a cheap one
/// pays mostly for tangent lanes, which `MaybeZero` skips where they are known zero
/// (Rosenbrock: every term reads two inputs, so most terms of a pass touch no seeded
/// input), and for padding lanes. Up to 16 inputs it takes one pass of `Batch`, `n` lanes
/// rounded up to 4, 8, 10, 12 or 16 ([`gradient_width`]), as [`gradient`]; up to 20, that
/// one pass stands in for `Batch` 32 among the timed plans ([`GradientPlan::candidates`]). The gradient is the same at every plan (equal values; see
/// the module docs), so the measurement changes the speed only, never the result. The
/// first call of a length times each plan over three rounds of at least 20 µs each (or one
/// gradient, if longer), then up to eight of the plans within 15 % of the fastest and of
/// those whose two shortest times differ by more than 3 % (the same decision as
/// [`gradient`]'s): about 0.4 to 1 ms, or 18 to 48 gradients of a large input.
///
/// ```
/// use fwdad::drivers::{GradientPlan, GradientWorkspace};
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn norm2(x: &[f64]) -> f64 {
///     x.iter().map(|v| v * v).sum()
/// }
///
/// let mut ws = GradientWorkspace::new();
/// let mut x = vec![1.0; 100];
/// for _ in 0..3 {
///     let (_, g) = ws.gradient(norm2 {}, &x);
///     let step: Vec<f64> = g.iter().map(|gi| 0.25 * gi).collect();
///     x.iter_mut().zip(step).for_each(|(xi, s)| *xi -= s);
/// }
/// assert!(x.iter().all(|&xi| xi == 0.125)); // halved three times
/// assert!([8, 16, 32].contains(&ws.width(100).unwrap()));
/// assert!(GradientPlan::CANDIDATES.contains(&ws.plan(100).unwrap()));
/// ```
#[derive(Clone, Debug, Default)]
pub struct GradientWorkspace {
    w4: Buffers<Batch<f64, 4>>,
    w8: Buffers<Batch<f64, 8>>,
    w10: Buffers<Batch<f64, 10>>,
    w12: Buffers<Batch<f64, 12>>,
    w16: Buffers<Batch<f64, 16>>,
    w20: Buffers<Batch<f64, 20>>,
    w32: Buffers<Batch<f64, 32>>,
    z8: Buffers<Zeros<8>>,
    z16: Buffers<Zeros<16>>,
    z32: Buffers<Zeros<32>>,
    /// The gradient of a chunked plan up to 64 inputs, whose seeds are static windows
    /// ([`point::chunked_into`]).
    small: Vec<f64>,
    /// `(n, plan)`: the plan measured fastest for `n` inputs.
    measured: Option<(usize, GradientPlan)>,
}

impl GradientWorkspace {
    /// Empty buffers (they grow on first use).
    pub fn new() -> Self {
        Self::default()
    }

    /// `(f(x), ∇f(x))`, the same values as [`gradient`] computes, the gradient borrowed
    /// from the workspace until the next call. The plan is measured on the first call
    /// of each input length above 16 (see [`GradientWorkspace`]).
    pub fn gradient<F: GradientRule>(&mut self, f: F, x: &[f64]) -> (f64, &[f64]) {
        let n = x.len();
        let plan = match self.measured {
            Some((m, p)) if m == n => p,
            _ if n <= 16 => GradientPlan::dense(gradient_width(n)),
            _ => {
                let p = self.fastest_plan(&f, x);
                self.measured = Some((n, p));
                p
            }
        };
        self.run(&f, x, plan)
    }

    /// `(f(x), ∇f(x))` with the given plan, whatever was measured (`plan.width` 4, 8,
    /// 10, 12, 16, 20 or 32 for `Batch`, 8, 16 or 32 for `MaybeZero`; another width is
    /// taken as 32).
    pub fn gradient_with_plan<F: GradientRule>(
        &mut self,
        f: F,
        x: &[f64],
        plan: GradientPlan,
    ) -> (f64, &[f64]) {
        self.run(&f, x, plan)
    }

    /// The width the workspace measured fastest for `n` inputs, if it has measured it
    /// (`None` before the first call of that length, and up to 16 inputs).
    pub fn width(&self, n: usize) -> Option<usize> {
        self.plan(n).map(|p| p.width)
    }

    /// The plan the workspace measured fastest for `n` inputs, as [`Self::width`].
    pub fn plan(&self, n: usize) -> Option<GradientPlan> {
        self.measured.filter(|m| m.0 == n).map(|m| m.1)
    }

    fn run<F: GradientRule>(&mut self, f: &F, x: &[f64], plan: GradientPlan) -> (f64, &[f64]) {
        let n = x.len();
        if n > plan.width && n <= point::WINDOW_INPUTS {
            // Chunks up to 64 inputs: their seeds are windows of static tables, nothing to
            // rebuild between chunks (÷ num-dual: Rosenbrock n = 20, `MaybeZero` 8,
            // 0.81-0.94 → 0.64; Ackley n = 50, `MaybeZero` 32, 1.00 → 0.72; BENCHMARKS.md
            // §11).
            self.small.resize(n, 0.0);
            let out = &mut self.small[..];
            let value = match (plan.known_zeros, plan.width) {
                (false, 8) => point::chunked_into::<Batch<f64, 8>, _>(f, x, out),
                (false, 16) => point::chunked_into::<Batch<f64, 16>, _>(f, x, out),
                (true, 8) => point::chunked_into::<Zeros<8>, _>(f, x, out),
                (true, 16) => point::chunked_into::<Zeros<16>, _>(f, x, out),
                (false, 32) => point::chunked_into::<Batch<f64, 32>, _>(f, x, out),
                (true, 32) => point::chunked_into::<Zeros<32>, _>(f, x, out),
                _ => return self.run_kept(f, x, plan),
            };
            return (value, &self.small);
        }
        self.run_kept(f, x, plan)
    }

    /// [`Self::run`] through the plan's kept buffers.
    fn run_kept<F: GradientRule>(&mut self, f: &F, x: &[f64], plan: GradientPlan) -> (f64, &[f64]) {
        match (plan.known_zeros, plan.width) {
            (false, 4) => self.w4.gradient(f, x),
            (false, 8) => self.w8.gradient(f, x),
            (false, 10) => self.w10.gradient(f, x),
            (false, 12) => self.w12.gradient(f, x),
            (false, 16) => self.w16.gradient(f, x),
            (false, 20) => self.w20.gradient(f, x),
            (false, _) => self.w32.gradient(f, x),
            (true, 8) => self.z8.gradient(f, x),
            (true, 16) => self.z16.gradient(f, x),
            (true, _) => self.z32.gradient(f, x),
        }
    }

    /// Times gradients with each of [`GradientPlan::CANDIDATES`] in turn, in the rounds of
    /// a [`width_tuning::Race`] (three of every plan, then up to eight of those within 15 %
    /// of the fastest or not yet confirmed), and returns the plan of the shortest time per call. A sample times
    /// a plan over enough calls to take [`Self::MIN_SAMPLE`] (one call for a large
    /// gradient), so that a gradient of a fraction of a microsecond is not judged by one
    /// clock read.
    fn fastest_plan<F: GradientRule>(&mut self, f: &F, x: &[f64]) -> GradientPlan {
        let plans = GradientPlan::candidates(x.len());
        let mut calls = [1u32; 6];
        let mut race = width_tuning::Race::default();
        while let Some(k) = race.next(0) {
            let p = plans[k];
            let start = std::time::Instant::now();
            for _ in 0..calls[k] {
                core::hint::black_box(self.run(f, x, p));
            }
            let took = start.elapsed();
            race.record(k, took / calls[k]);
            if took < Self::MIN_SAMPLE {
                // The next sample takes enough calls for the sample's length.
                let per_call = (took / calls[k]).max(core::time::Duration::from_nanos(10));
                calls[k] =
                    (Self::MIN_SAMPLE.as_nanos() / per_call.as_nanos()).clamp(1, 10_000) as u32;
            }
        }
        plans[race.winner()]
    }

    /// The shortest time a sample of the plan measurement may take.
    const MIN_SAMPLE: core::time::Duration = core::time::Duration::from_micros(20);
}

/// Second-order tangents: `N` directions in `d1`, one in `d2`.
type Hyper2<const N: usize> = Hyper<f64, Batch<f64, N>>;

/// `(f(x), ∇f(x), ∇²f(x))` of a function `&[f64] → f64`, by forward-over-forward with
/// [`Hyper<f64, Batch<f64, N>>`](crate::Hyper) tangents, `N` = [`DEFAULT_WIDTH`].
///
/// Each pass yields `N` entries of a Hessian column; the upper triangle is computed and
/// mirrored, so the result is exactly symmetric (about n²/2N + n/2 passes).
///
/// ```
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn f(x: &[f64]) -> f64 {
///     x[0] * x[0] * x[1] + x[1].sin()
/// }
///
/// let (v, g, h) = hessian(f {}, &[2.0, 0.5]);
/// assert_eq!(v, f(&[2.0, 0.5]));
/// assert_eq!(g, [2.0 * 2.0 * 0.5, 2.0 * 2.0 + 0.5f64.cos()]);
/// assert_eq!(h.to_rows(), [[2.0 * 0.5, 2.0 * 2.0], [2.0 * 2.0, -0.5f64.sin()]]);
/// ```
#[allow(clippy::type_complexity)]
pub fn hessian<F>(f: F, x: &[f64]) -> (f64, Vec<f64>, Matrix)
where
    F: SliceRule<Hyper2<DEFAULT_WIDTH>, Output: HessianOutput<Hyper2<DEFAULT_WIDTH>>>,
{
    hessian_with::<DEFAULT_WIDTH>(f, x)
}

/// [`hessian`] with `N` directions per pass (`N ≥ 1`).
///
/// ```
/// use fwdad::drivers::hessian_with;
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn quartic(x: &[f64]) -> f64 {
///     let mut s = 0.0;
///     for i in 0..x.len() {
///         s += x[i].powi(4);
///     }
///     s
/// }
///
/// let (_, _, h) = hessian_with::<4>(quartic {}, &[1.0, 2.0, 3.0, 4.0, 5.0]);
/// assert_eq!(h[(4, 4)], 12.0 * 25.0);
/// assert_eq!(h[(1, 3)], 0.0);
/// ```
pub fn hessian_with<const N: usize>(
    f: impl SliceRule<Hyper2<N>, Output: HessianOutput<Hyper2<N>>>,
    x: &[f64],
) -> (f64, Vec<f64>, Matrix) {
    const { assert!(N >= 1, "a batch needs at least one lane") };
    let n = x.len();
    let mut seeds = vec![<Hyper2<N> as ScalarTangent<f64>>::zero(); n];
    let mut grad = vec![0.0; n];
    let mut h = Matrix::zeros(n, n);
    if n == 0 {
        return (f.eval(x, &seeds).into_scalar().primal, grad, h);
    }
    let mut value = 0.0;
    // Chunk [r0, r1) of rows rides in d1; column j in d2.
    for r0 in (0..n).step_by(N) {
        let r1 = (r0 + N).min(n);
        for (lane, seed) in seeds[r0..r1].iter_mut().enumerate() {
            seed.d1 = Batch::unit(lane);
        }
        for j in r0..n {
            seeds[j].d2 = 1.0;
            let y = f.eval(x, &seeds).into_scalar();
            seeds[j].d2 = 0.0;
            if j == r0 {
                value = y.primal;
                grad[r0..r1].copy_from_slice(&y.tangent.d1.0[..r1 - r0]);
            }
            // Rows r ≤ j of column j: the upper triangle; the lower one is its mirror.
            for r in r0..r1.min(j + 1) {
                let v = y.tangent.d12.0[r - r0];
                h[(r, j)] = v;
                h[(j, r)] = v;
            }
        }
        for seed in &mut seeds[r0..r1] {
            seed.d1 = Batch::default();
        }
    }
    (value, grad, h)
}

/// `(f(x), ∇f(x), ∇²f(x)·v)`: the Hessian-vector product of a function `&[f64] → f64`,
/// without forming the Hessian, in ⌈n / w⌉ second-order passes of
/// [`hvp_width(n)`](hvp_width) directions (8 up to 48 inputs, 16 above).
///
/// # Panics
/// If `v.len() != x.len()`.
///
/// ```
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn f(x: &[f64]) -> f64 {
///     x[0] * x[0] * x[1] + x[1].sin()
/// }
///
/// let x = [2.0, 0.5];
/// let (_, _, hv) = hvp(f {}, &x, &[1.0, -1.0]);
/// let (_, _, h) = hessian(f {}, &x);
/// assert_eq!(hv, h.mul_vec(&[1.0, -1.0]));
/// ```
#[allow(clippy::type_complexity)]
pub fn hvp<F: HvpRule>(f: F, x: &[f64], v: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
    match hvp_width(x.len()) {
        8 => hvp_with::<8>(f, x, v),
        _ => hvp_with::<16>(f, x, v),
    }
}

/// The directions per pass [`hvp`] takes for `n` inputs: 8 up to 48, 16 above.
///
/// Measured (BENCHMARKS.md, "Driver widths": `hvp_with::<w>` ÷ `hvp_with::<8>`, 2-core
/// Xeon, one codegen unit, thin LTO): each pass recomputes the primal for `w` rows, so
/// wider passes pay once there are many (n = 100: 16 lanes 0.96 on Rosenbrock, 0.84 on
/// Ackley; 32 lanes 1.36 and 0.90), not for a few (n = 20: 16 lanes 1.17 and 1.08, 4
/// lanes 0.99 and 1.06). The rule is compiled at both widths; for one, use [`hvp_with`].
///
/// ```
/// use fwdad::drivers::hvp_width;
///
/// assert_eq!(hvp_width(20), 8);
/// assert_eq!(hvp_width(100), 16);
/// ```
pub const fn hvp_width(n: usize) -> usize {
    if n <= 48 {
        8
    } else {
        16
    }
}

/// A rule [`hvp`] can run: a [`SliceRule`] with an `f64` result under second-order
/// tangents of 8 and 16 lanes ([`hvp_width`]). Every `#[derive_frule]` rule of one
/// `&[f64]` argument with an `f64` result is one, as is every [`bind`] of one; there is
/// nothing to implement (it is sealed).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rule of one `&[f64]` argument with an `f64` result",
    label = "`hvp` calls this rule with one `x: &[f64]` and needs an `f64` result",
    note = "pass the handle of a `#[derive_frule]` function `f(x: &[f64]) -> f64` (`f {{}}`); of a method of a `#[derive_frule] impl`, `rule!(Model::loss)`, its receiver bound first (`bind(rule!(Model::loss), (&model, Wrt))`); fix its other arguments with `bind(f {{}}, (Wrt, ..))`"
)]
pub trait HvpRule:
    SliceRule<Hyper2<8>, Output = Dual<f64, Hyper2<8>>>
    + SliceRule<Hyper2<16>, Output = Dual<f64, Hyper2<16>>>
{
}

impl<F> HvpRule for F where
    F: SliceRule<Hyper2<8>, Output = Dual<f64, Hyper2<8>>>
        + SliceRule<Hyper2<16>, Output = Dual<f64, Hyper2<16>>>
{
}

/// [`hvp`] with `N` directions per pass (`N ≥ 1`).
///
/// # Panics
/// If `v.len() != x.len()`.
pub fn hvp_with<const N: usize>(
    f: impl SliceRule<Hyper2<N>, Output = Dual<f64, Hyper2<N>>>,
    x: &[f64],
    v: &[f64],
) -> (f64, Vec<f64>, Vec<f64>) {
    const { assert!(N >= 1, "a batch needs at least one lane") };
    assert_eq!(
        x.len(),
        v.len(),
        "hvp: the direction's length differs from x's"
    );
    let n = x.len();
    // d2 = v everywhere; d1 = e_k for the k of the current chunk.
    let mut seeds: Vec<Hyper2<N>> = v
        .iter()
        .map(|&vk| Hyper {
            d1: Batch::default(),
            d2: vk,
            d12: Batch::default(),
        })
        .collect();
    let mut grad = vec![0.0; n];
    let mut hv = vec![0.0; n];
    let mut value = 0.0;
    let mut r0 = 0;
    loop {
        let r1 = (r0 + N).min(n);
        for (lane, seed) in seeds[r0..r1].iter_mut().enumerate() {
            seed.d1 = Batch::unit(lane);
        }
        let y = f.eval(x, &seeds);
        if r0 == 0 {
            value = y.primal;
        }
        grad[r0..r1].copy_from_slice(&y.tangent.d1.0[..r1 - r0]);
        hv[r0..r1].copy_from_slice(&y.tangent.d12.0[..r1 - r0]);
        for seed in &mut seeds[r0..r1] {
            seed.d1 = Batch::default();
        }
        r0 = r1;
        if r0 >= n {
            break;
        }
    }
    (value, grad, hv)
}

#[cfg(all(test, feature = "nalgebra"))]
mod nalgebra_tests {
    use super::Matrix;

    #[test]
    fn matrix_round_trips_through_dmatrix() {
        let m = Matrix::from_rows(&[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
        let d: nalgebra::DMatrix<f64> = m.clone().into();
        assert_eq!(d.shape(), (2, 3));
        assert_eq!(d[(1, 0)], 4.0);
        assert_eq!(d[(0, 2)], 3.0);
        assert_eq!(Matrix::from(&d), m);
    }
}
