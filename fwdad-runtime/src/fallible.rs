//! `Option` and `Result` seen alike, for their combinators in derived bodies.
//!
//! The macro reads tokens, not types: in `checked_ln_beta(a, b).map(|x| x.exp())` it
//! cannot tell an `Option` from a `Result`. Lowering writes every combinator that takes a
//! closure (`map`, `and_then`, `map_or`, `unwrap_or_else`, `or_else`, `map_err`, ...) as a
//! `match` on [`branch`] of the receiver, whose two arms are the same for both types:
//! `Ok(v)` holds the value, `Err(r)` what a short-circuit keeps ([`NoneOf`] for `None`,
//! [`ErrOf`] for an error). A combinator that returns the receiver's kind puts its result
//! back with [`rebuild`], which the residual's type turns into an `Option` or a `Result`:
//!
//! ```text
//! o.map(f)  =>  rebuild(match branch(o) { Ok(v) => Ok(f(v)), Err(r) => Err(r) })
//! ```
//!
//! The closure is inlined by lowering like any other, so it may capture active values
//! and call derived functions; its `?` leaves it through [`residual`], and a default given
//! as a function path is called by [`else_call`] with what the residual holds. Both functions take plain values (a constant receiver's
//! code stays plain Rust) and duals (`Dual<Option<P>, Option<T>>`, and the dual of a
//! `Result` whose error carries no tangent), so one `match` serves every mode.

use crate::differentiable::Differentiable;
use crate::dual::Dual;
use crate::tangent::NoTangent;

const SHAPE: &str = "fwdad: a dual's tangent must have the primal's shape (same variant)";

/// What a short-circuit keeps of an `Option`: that it was `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoneOf;

/// What a short-circuit keeps of a `Result`: its error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrOf<E>(pub E);

/// `Option` or `Result` (or its dual), split into its value or its residual.
#[diagnostic::on_unimplemented(
    message = "`#[derive_frule]` read this method as a combinator of `Option` or `Result`, but its receiver is neither",
    label = "read as the receiver of `Option::map`, `Result::map`, `and_then`, ...",
    note = "on an array that is not a local or parameter of array type (a field, a call's result), bind it to one first (`let p: [f64; 3] = s.p;`); on an iterator, start the chain from a slice or range method (`x.iter().map(..)`)"
)]
pub trait Branch {
    /// `Result<value, residual>` (or its dual).
    type Split;
    /// Splits `self`.
    fn branch(self) -> Self::Split;
}

#[diagnostic::do_not_recommend]
impl<T> Branch for Option<T> {
    type Split = Result<T, NoneOf>;
    #[inline(always)]
    fn branch(self) -> Self::Split {
        self.ok_or(NoneOf)
    }
}

#[diagnostic::do_not_recommend]
impl<T, E> Branch for Result<T, E> {
    type Split = Result<T, ErrOf<E>>;
    #[inline(always)]
    fn branch(self) -> Self::Split {
        self.map_err(ErrOf)
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T> Branch for &'a Option<T> {
    type Split = Result<&'a T, NoneOf>;
    #[inline(always)]
    fn branch(self) -> Self::Split {
        self.as_ref().ok_or(NoneOf)
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T, E> Branch for &'a Result<T, E> {
    type Split = Result<&'a T, ErrOf<&'a E>>;
    #[inline(always)]
    fn branch(self) -> Self::Split {
        self.as_ref().map_err(ErrOf)
    }
}

#[diagnostic::do_not_recommend]
impl<P: Differentiable, T> Branch for Dual<Option<P>, Option<T>> {
    type Split = Dual<Result<P, NoneOf>, Result<T, NoTangent>>;
    #[inline(always)]
    fn branch(self) -> Self::Split {
        match (self.primal, self.tangent) {
            (Some(p), Some(t)) => Dual::new(Ok(p), Ok(t)),
            (None, _) => Dual::new(Err(NoneOf), Err(NoTangent)),
            (Some(_), None) => panic!("{SHAPE}"),
        }
    }
}

#[diagnostic::do_not_recommend]
impl<P: Differentiable, E, T> Branch for Dual<Result<P, E>, Result<T, NoTangent>> {
    type Split = Dual<Result<P, ErrOf<E>>, Result<T, NoTangent>>;
    #[inline(always)]
    fn branch(self) -> Self::Split {
        Dual::new(self.primal.map_err(ErrOf), self.tangent)
    }
}

#[diagnostic::do_not_recommend]
impl<'a, P: Differentiable + 'a, T> Branch for Dual<&'a Option<P>, &'a Option<T>> {
    type Split = Dual<Result<&'a P, NoneOf>, Result<&'a T, NoTangent>>;
    #[inline(always)]
    fn branch(self) -> Self::Split {
        match (self.primal, self.tangent) {
            (Some(p), Some(t)) => Dual::new(Ok(p), Ok(t)),
            (None, _) => Dual::new(Err(NoneOf), Err(NoTangent)),
            (Some(_), None) => panic!("{SHAPE}"),
        }
    }
}

#[diagnostic::do_not_recommend]
impl<'a, P: Differentiable + 'a, E, T> Branch for Dual<&'a Result<P, E>, &'a Result<T, NoTangent>> {
    type Split = Dual<Result<&'a P, ErrOf<&'a E>>, Result<&'a T, NoTangent>>;
    #[inline(always)]
    fn branch(self) -> Self::Split {
        match (self.primal, self.tangent) {
            (Ok(p), Ok(t)) => Dual::new(Ok(p), Ok(t)),
            (Err(e), _) => Dual::new(Err(ErrOf(e)), Err(NoTangent)),
            (Ok(_), Err(_)) => panic!("{SHAPE}"),
        }
    }
}

/// A split value put back together: an `Option` from [`NoneOf`], a `Result` from
/// [`ErrOf`].
pub trait Rebuild {
    /// The `Option` or `Result` (or its dual).
    type Whole;
    /// Puts `self` back together.
    fn rebuild(self) -> Self::Whole;
}

impl<T> Rebuild for Result<T, NoneOf> {
    type Whole = Option<T>;
    #[inline(always)]
    fn rebuild(self) -> Self::Whole {
        self.ok()
    }
}

impl<T, E> Rebuild for Result<T, ErrOf<E>> {
    type Whole = Result<T, E>;
    #[inline(always)]
    fn rebuild(self) -> Self::Whole {
        self.map_err(|ErrOf(e)| e)
    }
}

impl<P: Differentiable, T> Rebuild for Dual<Result<P, NoneOf>, Result<T, NoTangent>> {
    type Whole = Dual<Option<P>, Option<T>>;
    #[inline(always)]
    fn rebuild(self) -> Self::Whole {
        Dual::new(self.primal.ok(), self.tangent.ok())
    }
}

impl<P: Differentiable, E, T> Rebuild for Dual<Result<P, ErrOf<E>>, Result<T, NoTangent>> {
    type Whole = Dual<Result<P, E>, Result<T, NoTangent>>;
    #[inline(always)]
    fn rebuild(self) -> Self::Whole {
        Dual::new(self.primal.map_err(|ErrOf(e)| e), self.tangent)
    }
}

/// `o` split into `Ok(value)` or `Err(residual)` (see the module docs). The check is on
/// the receiver's primal type ([`OptionOrResult`] of [`BranchReceiver::Primal`]), one
/// bound a line: a receiver that is neither an `Option` nor a `Result` (an array the macro
/// read as one) is reported in the user's type (`[f64; 3]`), and the projection
/// `Same<B>` (= `B`) does not normalise then, so rustc reports no failed bound on the dual.
#[inline(always)]
#[rustfmt::skip]
#[allow(clippy::multiple_bound_locations)]
pub fn branch<
    B: BranchReceiver,
>(o: B) -> <<B::Primal as OptionOrResult>::Same<B> as Branch>::Split
where
    B::Primal: OptionOrResult,
    <B::Primal as OptionOrResult>::Same<B>: Branch,
    B: Into<<B::Primal as OptionOrResult>::Same<B>>,
{
    o.into().branch()
}

/// The primal type of a receiver [`branch`] splits: the value itself, or a dual's primal.
#[diagnostic::on_unimplemented(
    message = "`#[derive_frule]` read this method as a combinator of `Option` or `Result`, but its receiver is neither",
    label = "read as the receiver of `Option::map`, `Result::map`, `and_then`, ...",
    note = "on an array that is not a local or parameter of array type (a field, a call's result), bind it to one first (`let p: [f64; 3] = s.p;`); on an iterator, start the chain from a slice or range method (`x.iter().map(..)`)"
)]
pub trait BranchReceiver {
    /// `Option<T>`, `Result<T, E>`, or a reference to one.
    type Primal: ?Sized;
}

impl<T> BranchReceiver for Option<T> {
    type Primal = Option<T>;
}

impl<T, E> BranchReceiver for Result<T, E> {
    type Primal = Result<T, E>;
}

impl<T> BranchReceiver for &Option<T> {
    type Primal = Option<T>;
}

impl<T, E> BranchReceiver for &Result<T, E> {
    type Primal = Result<T, E>;
}

// Not in rustc's list of the receivers (a dual is the runtime's).
#[diagnostic::do_not_recommend]
impl<P: Differentiable, T> BranchReceiver for Dual<P, T> {
    type Primal = P;
}

/// `Option` or `Result` (or a reference to one): the primal types [`branch`] splits.
#[diagnostic::on_unimplemented(
    message = "`#[derive_frule]` read this method as a combinator of `Option` or `Result`, but its receiver is a `{Self}`",
    label = "read as the receiver of `Option::map`, `Result::map`, `and_then`, ...",
    note = "on an array that is not a local or parameter of array type (a field, a call's result), bind it to one first (`let p: [f64; 3] = s.p;`); on an iterator, start the chain from a slice or range method (`x.iter().map(..)`)"
)]
pub trait OptionOrResult {
    /// `B` itself, for every `B` (a projection that normalises only when `Self` is one).
    type Same<B>;
}

impl<T> OptionOrResult for Option<T> {
    type Same<B> = B;
}

impl<T, E> OptionOrResult for Result<T, E> {
    type Same<B> = B;
}

impl<T> OptionOrResult for &Option<T> {
    type Same<B> = B;
}

impl<T, E> OptionOrResult for &Result<T, E> {
    type Same<B> = B;
}

/// A split value put back into the receiver's kind (see the module docs).
#[inline(always)]
pub fn rebuild<R: Rebuild>(r: R) -> R::Whole {
    r.rebuild()
}

/// What `?` returns from a closure of a combinator for a residual: `None` for
/// [`NoneOf`], `Err(From::from(e))` for [`ErrOf`] (lowering writes `e?` inside such a
/// closure as a `match` on [`branch`] that leaves the closure with this).
pub trait FromResidual<R> {
    /// The closure's result for the residual `r`.
    fn from_residual(r: R) -> Self;
}

impl<T> FromResidual<NoneOf> for Option<T> {
    #[inline(always)]
    fn from_residual(_: NoneOf) -> Self {
        None
    }
}

impl<T, E, F: From<E>> FromResidual<ErrOf<E>> for Result<T, F> {
    #[inline(always)]
    fn from_residual(r: ErrOf<E>) -> Self {
        Err(From::from(r.0))
    }
}

/// See [`FromResidual`].
#[inline(always)]
pub fn residual<R, O: FromResidual<R>>(r: R) -> O {
    O::from_residual(r)
}

/// The default of `unwrap_or_else`, `map_or_else` or `or_else` given as a function path,
/// called as the receiver's kind calls it: with no argument for [`NoneOf`], with the error
/// for [`ErrOf`] (a closure's parameters tell lowering which; a path's do not).
pub trait ElseCall<F> {
    /// The default's value.
    type Out;
    /// Calls `f` with what the residual holds.
    fn else_call(self, f: F) -> Self::Out;
}

impl<U, F: FnOnce() -> U> ElseCall<F> for NoneOf {
    type Out = U;
    #[inline(always)]
    fn else_call(self, f: F) -> U {
        f()
    }
}

impl<E, U, F: FnOnce(E) -> U> ElseCall<F> for ErrOf<E> {
    type Out = U;
    #[inline(always)]
    fn else_call(self, f: F) -> U {
        f(self.0)
    }
}

/// See [`ElseCall`].
#[inline(always)]
pub fn else_call<R: ElseCall<F>, F>(r: R, f: F) -> R::Out {
    r.else_call(f)
}

/// The error a `Result`'s residual holds (`unwrap_or_else(|e| ..)`, `map_err(|e| ..)`).
#[inline(always)]
pub fn err_of<E>(r: ErrOf<E>) -> E {
    r.0
}

/// The residual of `Err(e)`, for `map_err` (whose new error is built in an arm).
#[inline(always)]
pub fn err_from<E>(e: E) -> ErrOf<E> {
    ErrOf(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_and_result_round_trip() {
        assert_eq!(rebuild(branch(Some(2.0))), Some(2.0));
        assert_eq!(rebuild(branch(None::<f64>)), None);
        assert_eq!(rebuild(branch(Ok::<f64, u8>(2.0))), Ok(2.0));
        assert_eq!(rebuild(branch(Err::<f64, u8>(3))), Err(3));
    }

    #[test]
    fn duals_keep_their_tangents() {
        let d = rebuild(branch(Dual::new(Some(2.0), Some(5.0))));
        assert_eq!((d.primal, d.tangent), (Some(2.0), Some(5.0)));
        let r: Dual<Result<f64, u8>, Result<f64, NoTangent>> = Dual::new(Err(4), Err(NoTangent));
        let d = rebuild(branch(r));
        assert_eq!(d.primal, Err(4));
    }
}
