//! `Frule`: the forward-rule interface (Mooncake's `frule!!`).
//!
//! A rule for a function `f` is a value whose `frule`, applied to the duals of `f`'s
//! arguments, returns the dual of `f`'s result, leaves every primal in the state `f` leaves
//! it, and writes the propagated tangents into the tangent buffers of mutated arguments.
//!
//! `#[derive_frule] fn f(x: f64, y: &[f64]) -> f64` registers its rule on a same-named
//! braced struct `f {}` (the struct lives in the type namespace, the function in the value
//! namespace, so paths and `use` find both). The generated impl is generic over the mode:
//!
//! ```ignore
//! impl<'a, S: Mode> Frule<(Dual<f64, S>, Dual<&'a [f64], &'a [S]>), S> for f {
//!     type Output = Dual<f64, S>;
//!     fn frule(&self, (x, y): (Dual<f64, S>, Dual<&'a [f64], &'a [S]>)) -> Dual<f64, S> { .. }
//! }
//! ```
//! and a call `f(a, b)` in another derived body becomes
//! `<f as Frule<_, S>>::frule(&f {}, (a, b))`, the caller's own mode named explicitly.

use crate::tangent::Mode;

/// A forward rule: `Args` is the tuple of argument duals, `S` the differentiation mode.
#[diagnostic::on_unimplemented(
    message = "no forward rule for `{Self}` taking `{Args}`",
    label = "no forward rule for these arguments",
    note = "annotate the function with `#[derive_frule]`, write a rule with `#[primitive]`, or mark it `#[non_differentiable]`; a rule takes one `Dual` per argument, of the argument's type"
)]
pub trait Frule<Args, S: Mode = f64> {
    /// The dual of the function's result.
    type Output;
    /// Runs the function and propagates tangents.
    fn frule(&self, args: Args) -> Self::Output;
}

/// Calls rule `r` under mode `S`: what generated code emits for a call to a function with
/// a rule. Going through this bound (rather than `<R as Frule<_, S>>::frule`) lets the
/// argument types pick the impl, so a mismatch reports "no forward rule for `f` taking
/// `(..)`" at the user's call.
#[inline(always)]
pub fn call<S: Mode, R: Frule<A, S>, A>(r: &R, args: A) -> R::Output {
    r.frule(args)
}
