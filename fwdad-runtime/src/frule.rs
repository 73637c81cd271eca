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

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::structural::PromoteRef;
use crate::tangent::Mode;
#[cfg(feature = "alloc")]
use crate::tangent::NoTangent;
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::{vec, vec::Vec};
use core::cell::OnceCell;
use core::marker::PhantomData;

/// A forward rule: `Args` is the tuple of argument duals, `S` the differentiation mode.
#[diagnostic::on_unimplemented(
    message = "no forward rule for `{Self}` taking `{Args}`",
    label = "no forward rule for these arguments",
    note = "annotate the function with `#[derive_frule]` (a method: its `impl` block), write a rule with `#[primitive]`, or mark it `#[non_differentiable]`; a rule takes one `Dual` per argument, of the argument's type (a plain reference where the function declares a borrowed parameter `inactive(..)`); a method's takes its receiver first: bind it with `bind(rule!(Model::loss), (&model, Wrt))`"
)]
pub trait Frule<Args, S: Mode = f64> {
    /// The dual of the function's result.
    type Output;
    /// Runs the function and propagates tangents.
    fn frule(&self, args: Args) -> Self::Output;

    /// The Jacobian entry of a rule whose body is one linearised chain (see
    /// [`JacobianSink`]): runs the function at `args`' primals and writes its outputs and
    /// their coefficients with respect to the elements of the arguments `cols` names
    /// (`cols[k] = Some(c)`: element `i` of argument `k` is column `c + i`; `None`: its
    /// tangent is taken as zero) into `out`, without reading any tangent. Returns `false`,
    /// having done nothing, when the rule has no such entry (the default): the drivers
    /// then run seeded passes. `#[derive_frule]` emits it for bodies that are one chain of
    /// scalar operations (through `if`s whose arms are chains) on elements of the
    /// arguments, and for bodies that only pass sub-slices and elements of their arguments
    /// to one such function.
    #[doc(hidden)]
    #[inline(always)]
    fn chain_jacobian<J: JacobianSink>(
        &self,
        args: Args,
        cols: &[Option<usize>],
        out: &mut J,
    ) -> bool {
        let _ = (args, cols, out);
        false
    }
}

/// Where a rule's Jacobian entry ([`Frule::chain_jacobian`]) writes: first the number of
/// output reals (`rows`, once), then each output's value and its coefficients, added to
/// entries that `rows` zeroed (two reads of one element add up).
///
/// With unit seeds, a linearised chain's tangent of output `i` is `Σ_r c_r·e_{col(r)}`:
/// one whole-tangent multiply-add per root where this entry writes `c_r` into row `i`,
/// column `col(r)`. The values equal the seeded pass's (a seeded lane takes `0 + c·1`,
/// the same number but for the sign of a zero; a coefficient that is infinite or NaN
/// lands in its own column only, as the seeded pass's strong product keeps it).
#[doc(hidden)]
pub trait JacobianSink {
    /// The number of output reals; zeroes the rows.
    fn rows(&mut self, m: usize);
    /// Output `i`'s value.
    fn value(&mut self, i: usize, v: f64);
    /// Adds `d` to the entry `(i, j)`.
    fn add(&mut self, i: usize, j: usize, d: f64);
}

/// The Jacobian entry ([`Frule::chain_jacobian`]) of rule `R`, as a rule returning
/// whether it ran: the entry of a forwarding body calls its callee's through [`call`],
/// so that arguments that do not fit the callee are reported once, by the rule's own
/// call, not a second time by the entry's.
#[doc(hidden)]
pub struct ChainJacobianOf<'r, R, J> {
    rule: &'r R,
    cols: &'r [Option<usize>],
    out: core::cell::RefCell<&'r mut J>,
}

impl<'r, R, J> ChainJacobianOf<'r, R, J> {
    /// `rule`'s entry with the columns `cols`, writing to `out`.
    #[inline(always)]
    pub fn new(rule: &'r R, cols: &'r [Option<usize>], out: &'r mut J) -> Self {
        ChainJacobianOf {
            rule,
            cols,
            out: core::cell::RefCell::new(out),
        }
    }
}

impl<R: Frule<T, S>, T, S: Mode, J: JacobianSink> Frule<T, S> for ChainJacobianOf<'_, R, J> {
    type Output = bool;
    #[inline(always)]
    fn frule(&self, args: T) -> bool {
        self.rule
            .chain_jacobian(args, self.cols, &mut **self.out.borrow_mut())
    }
}

/// Column `c + i` of element `i` of an argument at column `c`, if it has one (what a
/// derived Jacobian entry writes a coefficient to).
#[inline(always)]
#[doc(hidden)]
pub fn column(c: Option<usize>, i: usize) -> Option<usize> {
    c.map(|c| c + i)
}

/// Calls rule `r` under mode `S`: what generated code emits for a call to a function with
/// a rule. The rule's single impl fixes its parameter types `T`; the arguments `A` are
/// converted to them as Rust's call coercions would (`&v` of a `Vec`, `&[x, y]` of an
/// array, to a `&[f64]` parameter), and a mismatch reports at the user's call.
// Each bound on a line of its own, which rustc's "required by a bound in `call`" quotes.
#[inline(always)]
#[doc(hidden)]
#[rustfmt::skip]
pub fn call<
    S: Mode,
    R: Frule<T, S>,
    T,
    A: CoerceArgs<T>,
>(r: &R, args: A) -> R::Output {
    r.frule(args.coerce_args())
}

/// One argument dual converted to its parameter's dual type: itself, or a borrowed `Vec`
/// or array dual to a slice dual; a constant reference ([`Promoted`]) also to the plain
/// reference a parameter declared `inactive` takes.
#[diagnostic::on_unimplemented(
    // No `{Self}`: it is the argument's dual (`Dual<&[f64], &[__FwdadMode]>`), which the
    // help line below names anyway. Worded for both ways it fails: an argument of another
    // type than the parameter's (rustc's error on the plain call says which), and one that
    // may carry a derivative passed to a parameter the callee declares `inactive` (`{T}`
    // is then a plain reference). The macro reports the second itself where the files
    // show the callee's `inactive(..)` (`plain_fns::inactive_params`).
    message = "this argument does not fit the called function's parameter, which its forward rule takes as `{T}`",
    label = "this argument does not fit the parameter",
    note = "a forward rule takes each argument the plain function takes, as a `Dual` (its value and derivative): pass what the plain function takes (`&v` of a `Vec` for a `&[f64]` parameter); where the rule takes a plain reference, not a `Dual`, the called function declares that parameter `inactive(..)`, which takes constant data: an argument that may carry a derivative cannot be passed to it (its derivative would be lost), so declare the caller's parameter it comes from `inactive` too, or remove it from the callee's `inactive(..)`"
)]
#[doc(hidden)]
pub trait CoerceTo<T> {
    /// The conversion.
    fn coerce(self) -> T;
}

/// `x` converted to the type the context expects (a merge under the user's annotation:
/// `let s: &[f64] = if c { &array } else { x };`).
#[doc(hidden)]
#[inline(always)]
pub fn coerce_to<T, X: CoerceTo<T>>(x: X) -> T {
    x.coerce()
}

impl<X> CoerceTo<X> for X {
    #[inline(always)]
    fn coerce(self) -> X {
        self
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a [E], &'a [T]>>
    for Dual<&'a Vec<E>, &'a Vec<T>>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [T]> {
        Dual::new(&self.primal[..], &self.tangent[..])
    }
}

/// A borrowed `Box` to a parameter taking a reference to its content, as Rust's deref
/// coercion (`eval(a, x)` on `a: &Box<Expr>`, a child of an expression tree bound by a
/// `match`; a boxed trait object to a `&dyn Trait` parameter, `for s in &shapes {
/// distance_to(s, p) }`, its tangent, if it carries one, inside it): the dual of a
/// borrowed box, and a plain one for a parameter declared `inactive`.
#[cfg(feature = "alloc")]
impl<'a, E: ?Sized + Differentiable + 'a, T: ?Sized + 'a> CoerceTo<Dual<&'a E, &'a T>>
    for Dual<&'a alloc::boxed::Box<E>, &'a alloc::boxed::Box<T>>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a E, &'a T> {
        Dual::new(&**self.primal, &**self.tangent)
    }
}

/// See the dual's.
#[cfg(feature = "alloc")]
impl<'a, E: ?Sized + 'a> CoerceTo<&'a E> for &'a alloc::boxed::Box<E> {
    #[inline(always)]
    fn coerce(self) -> &'a E {
        self
    }
}

/// A pair or triple of borrowed `Vec`s to a parameter taking a tuple of slices (an LSTM
/// step's state `(h, c): (&[f64], &[f64])` passed `(&h, &c)`), as Rust coerces each.
#[cfg(feature = "alloc")]
impl<'a, E: Differentiable + 'a, T: 'a> CoerceTo<Dual<(&'a [E], &'a [E]), (&'a [T], &'a [T])>>
    for Dual<(&'a Vec<E>, &'a Vec<E>), (&'a Vec<T>, &'a Vec<T>)>
{
    #[inline(always)]
    fn coerce(self) -> Dual<(&'a [E], &'a [E]), (&'a [T], &'a [T])> {
        Dual::new(
            (&self.primal.0[..], &self.primal.1[..]),
            (&self.tangent.0[..], &self.tangent.1[..]),
        )
    }
}

/// See the pair's.
#[cfg(feature = "alloc")]
impl<'a, E: Differentiable + 'a, T: 'a>
    CoerceTo<Dual<(&'a [E], &'a [E], &'a [E]), (&'a [T], &'a [T], &'a [T])>>
    for Dual<(&'a Vec<E>, &'a Vec<E>, &'a Vec<E>), (&'a Vec<T>, &'a Vec<T>, &'a Vec<T>)>
{
    #[inline(always)]
    fn coerce(self) -> Dual<(&'a [E], &'a [E], &'a [E]), (&'a [T], &'a [T], &'a [T])> {
        Dual::new(
            (&self.primal.0[..], &self.primal.1[..], &self.primal.2[..]),
            (
                &self.tangent.0[..],
                &self.tangent.1[..],
                &self.tangent.2[..],
            ),
        )
    }
}

impl<'a, E: Differentiable + 'a, T: 'a, const N: usize> CoerceTo<Dual<&'a [E], &'a [T]>>
    for Dual<&'a [E; N], &'a [T; N]>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [T]> {
        Dual::new(&self.primal[..], &self.tangent[..])
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a mut [E], &'a mut [T]>>
    for Dual<&'a mut Vec<E>, &'a mut Vec<T>>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a mut [E], &'a mut [T]> {
        Dual::new(&mut self.primal[..], &mut self.tangent[..])
    }
}

impl<'a, E: Differentiable + 'a, T: 'a, const N: usize> CoerceTo<Dual<&'a mut [E], &'a mut [T]>>
    for Dual<&'a mut [E; N], &'a mut [T; N]>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a mut [E], &'a mut [T]> {
        Dual::new(&mut self.primal[..], &mut self.tangent[..])
    }
}

// An array or `Vec` built in the body (a local array of glam vectors, unlifted) lent to a
// slice parameter.

impl<'a, E: Differentiable + 'a, T: 'a, const N: usize> CoerceTo<Dual<&'a [E], &'a [T]>>
    for &'a Dual<[E; N], [T; N]>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [T]> {
        Dual::new(&self.primal[..], &self.tangent[..])
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a [E], &'a [T]>>
    for &'a Dual<Vec<E>, Vec<T>>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [T]> {
        Dual::new(&self.primal[..], &self.tangent[..])
    }
}

// A `&mut` argument where the parameter is shared: Rust's `&mut T` to `&T` coercion
// (`sum(y)` with `y: &mut [f64]`), also combined with the unsizing ones above.

impl<'a, P: Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a P, &'a T>>
    for Dual<&'a mut P, &'a mut T>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a P, &'a T> {
        Dual::new(&*self.primal, &*self.tangent)
    }
}

impl<'a, E: Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a [E], &'a [T]>>
    for Dual<&'a mut [E], &'a mut [T]>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [T]> {
        Dual::new(&*self.primal, &*self.tangent)
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a [E], &'a [T]>>
    for Dual<&'a mut Vec<E>, &'a mut Vec<T>>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [T]> {
        Dual::new(&self.primal[..], &self.tangent[..])
    }
}

impl<'a, E: Differentiable + 'a, T: 'a, const N: usize> CoerceTo<Dual<&'a [E], &'a [T]>>
    for Dual<&'a mut [E; N], &'a mut [T; N]>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [T]> {
        Dual::new(&self.primal[..], &self.tangent[..])
    }
}

// A reference to a borrowed value passed on (an element of `chans.iter()` over a
// `Vec<&[f64]>`, `&ch` of a `&Vec<f64>`): Rust's auto-deref of `&&P` to `&P`, and of
// `&&Vec<E>` on to the slice.

impl<'a, 'b: 'a, P: Differentiable + 'b, T: 'b> CoerceTo<Dual<&'a P, &'a T>>
    for Dual<&'a &'b P, &'a &'b T>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a P, &'a T> {
        Dual::new(*self.primal, *self.tangent)
    }
}

impl<'a, 'b: 'a, E: Differentiable + 'b, T: 'b> CoerceTo<Dual<&'a [E], &'a [T]>>
    for Dual<&'a &'b [E], &'a &'b [T]>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [T]> {
        Dual::new(*self.primal, *self.tangent)
    }
}

#[cfg(feature = "alloc")]
impl<'a, 'b: 'a, E: Differentiable + 'b, T: 'b> CoerceTo<Dual<&'a [E], &'a [T]>>
    for Dual<&'a &'b Vec<E>, &'a &'b Vec<T>>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [T]> {
        Dual::new(&self.primal[..], &self.tangent[..])
    }
}

// Parameters declared `#[derive_frule(inactive(..))]` take borrowed data as the plain
// reference. Only constants reach them: generated code passes a constant shared reference
// as `Promoted`, which converts to the plain reference for free and builds its zero
// tangent only for a parameter that takes a dual. An argument that carries a tangent stays
// a `Dual`, which has no conversion to a plain reference: passing it to an `inactive`
// parameter is a compile error instead of a silently dropped tangent.

/// A constant shared reference passed to a rule, with a cell for its zero tangent (built
/// on first use, at most once per cell).
#[doc(hidden)]
pub struct Promoted<'a, X: PromoteRef<'a, S>, S: Mode> {
    value: X,
    /// What the cell's zero tangent is built from: `value` itself, or the whole slice
    /// that `value` is the sub-slice from `start` of ([`Promoted::sub`]).
    whole: X,
    start: usize,
    buffer: &'a OnceCell<X::Buffer>,
    mode: PhantomData<S>,
}

impl<'a, X: PromoteRef<'a, S> + Copy, S: Mode> Promoted<'a, X, S> {
    /// Wraps `value`; `buffer` receives its zero tangent if a dual is needed.
    #[inline(always)]
    pub fn new(value: X, buffer: &'a OnceCell<X::Buffer>) -> Self {
        Promoted {
            value,
            whole: value,
            start: 0,
            buffer,
            mode: PhantomData,
        }
    }

    /// The constant value itself.
    #[inline(always)]
    pub fn value(&self) -> X {
        self.value
    }

    /// The constant dual (allocating the zero tangent on first use).
    #[inline(always)]
    pub fn dual(self) -> Dual<X, X::TangentIn<S>> {
        let whole = self.whole;
        X::with_buffer(
            self.value,
            self.buffer.get_or_init(|| whole.zero_buffer()),
            self.start,
        )
    }
}

/// A constant reference passed on to a rule from a parameter declared `inactive` (or a
/// field of one), for [`PromoteZero::promote`] and [`PromotePlain::promote`], which
/// generated code calls as `(&PromoteProbe(x, PhantomData)).promote(&cell)`: Rust's
/// method lookup takes the first where the reference has a zero tangent (a
/// [`Promoted`], which a parameter taking a dual may also take), and the plain reference
/// otherwise (a configuration or a lookup table of a type without `Differentiable`,
/// which only a parameter declared `inactive` takes, as the caller's was).
#[doc(hidden)]
pub struct PromoteProbe<X, S>(pub X, pub PhantomData<S>);

/// See [`PromoteProbe`].
#[doc(hidden)]
pub trait PromoteZero<'a, X: PromoteRef<'a, S>, S: Mode> {
    /// The reference as [`Promoted`], its zero tangent built in `cell` if needed.
    fn promote(&self, cell: &'a OnceCell<X::Buffer>) -> Promoted<'a, X, S>;
}

impl<'a, X: PromoteRef<'a, S> + Copy, S: Mode> PromoteZero<'a, X, S> for PromoteProbe<X, S> {
    #[inline(always)]
    fn promote(&self, cell: &'a OnceCell<X::Buffer>) -> Promoted<'a, X, S> {
        Promoted::new(self.0, cell)
    }
}

/// See [`PromoteProbe`].
#[doc(hidden)]
pub trait PromotePlain<X> {
    /// The plain reference (`cell` stays empty).
    fn promote(&self, cell: &OnceCell<()>) -> X;
}

impl<X: Copy, S> PromotePlain<X> for &PromoteProbe<X, S> {
    #[inline(always)]
    fn promote(&self, _: &OnceCell<()>) -> X {
        self.0
    }
}

/// [`PromoteProbe`] of an element `&whole[index]` (a [`PromotedElem`], or the plain
/// reference).
#[doc(hidden)]
#[cfg(feature = "alloc")]
pub struct PromoteElemProbe<'a, E, S>(pub &'a [E], pub usize, pub PhantomData<S>);

/// See [`PromoteElemProbe`].
#[doc(hidden)]
#[cfg(feature = "alloc")]
pub trait PromoteElemZero<'a, E: ZeroTangent, S: Mode> {
    /// The element as [`PromotedElem`].
    fn promote(&self, cell: &'a OnceCell<Vec<E::TangentIn<S>>>) -> PromotedElem<'a, E, S>;
}

#[cfg(feature = "alloc")]
impl<'a, E: ZeroTangent + 'a, S: Mode> PromoteElemZero<'a, E, S> for PromoteElemProbe<'a, E, S> {
    #[inline(always)]
    fn promote(&self, cell: &'a OnceCell<Vec<E::TangentIn<S>>>) -> PromotedElem<'a, E, S> {
        PromotedElem::new(self.0, self.1, cell)
    }
}

/// See [`PromoteElemProbe`].
#[doc(hidden)]
#[cfg(feature = "alloc")]
pub trait PromoteElemPlain<'a, E> {
    /// The plain element reference.
    fn promote(&self, cell: &OnceCell<()>) -> &'a E;
}

#[cfg(feature = "alloc")]
impl<'a, E, S> PromoteElemPlain<'a, E> for &PromoteElemProbe<'a, E, S> {
    #[inline(always)]
    fn promote(&self, _: &OnceCell<()>) -> &'a E {
        &self.0[self.1]
    }
}

/// [`PromoteProbe`] of a sub-slice `value` of `whole` from `start` (`Promoted::sub`, or
/// the plain sub-slice).
#[doc(hidden)]
#[cfg(feature = "alloc")]
pub struct PromoteSubProbe<'a, E, S>(pub &'a [E], pub usize, pub &'a [E], pub PhantomData<S>);

/// See [`PromoteSubProbe`].
#[doc(hidden)]
#[cfg(feature = "alloc")]
pub trait PromoteSubZero<'a, E: ZeroTangent, S: Mode> {
    /// The sub-slice as [`Promoted`].
    fn promote(&self, cell: &'a OnceCell<Vec<E::TangentIn<S>>>) -> Promoted<'a, &'a [E], S>;
}

#[cfg(feature = "alloc")]
impl<'a, E: ZeroTangent + 'a, S: Mode> PromoteSubZero<'a, E, S> for PromoteSubProbe<'a, E, S>
where
    E::TangentIn<S>: 'a,
{
    #[inline(always)]
    fn promote(&self, cell: &'a OnceCell<Vec<E::TangentIn<S>>>) -> Promoted<'a, &'a [E], S> {
        Promoted::sub(self.0, self.1, self.2, cell)
    }
}

/// See [`PromoteSubProbe`].
#[doc(hidden)]
#[cfg(feature = "alloc")]
pub trait PromoteSubPlain<'a, E> {
    /// The plain sub-slice.
    fn promote(&self, cell: &OnceCell<()>) -> &'a [E];
}

#[cfg(feature = "alloc")]
impl<'a, E, S> PromoteSubPlain<'a, E> for &PromoteSubProbe<'a, E, S> {
    #[inline(always)]
    fn promote(&self, _: &OnceCell<()>) -> &'a [E] {
        self.2
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: ZeroTangent + 'a, S: Mode> Promoted<'a, &'a [E], S>
where
    E::TangentIn<S>: 'a,
{
    /// Wraps the sub-slice `value` of `whole` that starts at `start`; `buffer` receives
    /// `whole`'s zero tangent, of which the dual borrows the same range. The cell can so
    /// live as long as `whole` while the range changes: a sub-slice `&c[..i]` of a loop's
    /// `i` may be carried into the next iteration.
    #[inline(always)]
    pub fn sub(
        whole: &'a [E],
        start: usize,
        value: &'a [E],
        buffer: &'a OnceCell<Vec<E::TangentIn<S>>>,
    ) -> Self {
        Promoted {
            value,
            whole,
            start,
            buffer,
            mode: PhantomData,
        }
    }
}

/// A constant element reference `&whole[index]` passed to a rule: [`Promoted`] with the
/// cell holding `whole`'s zero tangent, of which the dual borrows the same element, so
/// that the cell can live as long as `whole` while the index changes (an element
/// `&c[i]` of a loop's `i` may be carried into the next iteration).
#[doc(hidden)]
#[cfg(feature = "alloc")]
pub struct PromotedElem<'a, E: ZeroTangent, S: Mode> {
    whole: &'a [E],
    index: usize,
    buffer: &'a OnceCell<Vec<E::TangentIn<S>>>,
}

#[cfg(feature = "alloc")]
impl<'a, E: ZeroTangent + 'a, S: Mode> PromotedElem<'a, E, S> {
    /// Wraps `&whole[index]`; `buffer` receives `whole`'s zero tangent if a dual is needed.
    #[inline(always)]
    pub fn new(whole: &'a [E], index: usize, buffer: &'a OnceCell<Vec<E::TangentIn<S>>>) -> Self {
        PromotedElem {
            whole,
            index,
            buffer,
        }
    }

    /// The constant dual (allocating the zero tangent on first use).
    #[inline(always)]
    pub fn dual(self) -> Dual<&'a E, &'a E::TangentIn<S>> {
        let whole = self.whole;
        let buffer = self
            .buffer
            .get_or_init(|| PromoteRef::<S>::zero_buffer(&whole));
        Dual::new(&whole[self.index], &buffer[self.index])
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: ZeroTangent + 'a, S: Mode> CoerceTo<Dual<&'a E, &'a E::TangentIn<S>>>
    for PromotedElem<'a, E, S>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a E, &'a E::TangentIn<S>> {
        self.dual()
    }
}

/// An element of a constant `&[&str]` (`for t in terms { term(t, ..) }`) to a `&str`
/// parameter: the deref coercion `&&str → &str` the plain call makes.
#[cfg(feature = "alloc")]
impl<'a, S: Mode> CoerceTo<Dual<&'a str, crate::NoTangent>> for PromotedElem<'a, &'a str, S> {
    #[inline(always)]
    fn coerce(self) -> Dual<&'a str, crate::NoTangent> {
        Dual::new(self.whole[self.index], crate::NoTangent)
    }
}

/// A constant `&str` a closure captured (`|x| activate(kind, x)` with `kind: &str` a
/// parameter) to a `&str` parameter: a string has no tangent.
impl<'a> CoerceTo<Dual<&'a str, crate::NoTangent>> for &'a str {
    #[inline(always)]
    fn coerce(self) -> Dual<&'a str, crate::NoTangent> {
        Dual::new(self, crate::NoTangent)
    }
}

/// A constant `Vec` element (`doc` of `for doc in docs` with `docs: &[Vec<&str>]`) passed
/// to a slice parameter, as Rust coerces `&Vec<T>` to `&[T]`.
#[cfg(feature = "alloc")]
impl<'a, T: ZeroTangent + 'a, S: Mode> CoerceTo<Dual<&'a [T], &'a [T::TangentIn<S>]>>
    for PromotedElem<'a, Vec<T>, S>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [T], &'a [T::TangentIn<S>]> {
        let d = self.dual();
        Dual::new(&d.primal[..], &d.tangent[..])
    }
}

/// A constant array element (`x` of `for x in xs` with `xs: &[[f64; 3]]`) passed to a
/// slice parameter, as Rust coerces `&[T; N]` to `&[T]`.
#[cfg(feature = "alloc")]
impl<'a, T: ZeroTangent + 'a, S: Mode, const N: usize>
    CoerceTo<Dual<&'a [T], &'a [T::TangentIn<S>]>> for PromotedElem<'a, [T; N], S>
where
    [T; N]: ZeroTangent<TangentIn<S> = [T::TangentIn<S>; N]>,
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [T], &'a [T::TangentIn<S>]> {
        let d = self.dual();
        Dual::new(&d.primal[..], &d.tangent[..])
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: ZeroTangent + 'a, S: Mode> CoerceTo<&'a E> for PromotedElem<'a, E, S> {
    #[inline(always)]
    fn coerce(self) -> &'a E {
        &self.whole[self.index]
    }
}

// The constant dual, one impl per kind of `PromoteRef` with its tangent type written out
// (`&P::TangentIn<S>`, not `<&P as Differentiable>::TangentIn<S>`), so that coherence sees
// that it is a reference and cannot overlap the conversion to a `dyn` parameter's
// `DynConst` tangent (`traits::UnsizeFrom`).

impl<'a, P: ZeroTangent + 'a, S: Mode> CoerceTo<Dual<&'a P, &'a P::TangentIn<S>>>
    for Promoted<'a, &'a P, S>
where
    P::TangentIn<S>: 'a,
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a P, &'a P::TangentIn<S>> {
        self.dual()
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: ZeroTangent + 'a, S: Mode> CoerceTo<Dual<&'a [E], &'a [E::TangentIn<S>]>>
    for Promoted<'a, &'a [E], S>
where
    E::TangentIn<S>: 'a,
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [E::TangentIn<S>]> {
        self.dual()
    }
}

macro_rules! promoted_owned {
    ($($f:ty),*) => {$(
        impl<'a, S: Mode> CoerceTo<Dual<$f, <$f as Differentiable>::TangentIn<S>>>
            for Promoted<'a, $f, S>
        {
            #[inline(always)]
            fn coerce(self) -> Dual<$f, <$f as Differentiable>::TangentIn<S>> {
                self.dual()
            }
        }
    )*};
}
promoted_owned!(f32, f64);
promoted_owned!(bool, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl<'a, X: PromoteRef<'a, S> + Copy, S: Mode> CoerceTo<X> for Promoted<'a, X, S> {
    #[inline(always)]
    fn coerce(self) -> X {
        self.value
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: ZeroTangent + 'a, S: Mode> CoerceTo<Dual<&'a [E], &'a [E::TangentIn<S>]>>
    for Promoted<'a, &'a Vec<E>, S>
where
    E::TangentIn<S>: 'a,
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [E::TangentIn<S>]> {
        self.dual().coerce()
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: ZeroTangent + 'a, S: Mode> CoerceTo<&'a [E]> for Promoted<'a, &'a Vec<E>, S>
where
    E::TangentIn<S>: 'a,
{
    #[inline(always)]
    fn coerce(self) -> &'a [E] {
        &self.value[..]
    }
}

impl<'a, E: ZeroTangent + 'a, S: Mode, const N: usize>
    CoerceTo<Dual<&'a [E], &'a [E::TangentIn<S>]>> for Promoted<'a, &'a [E; N], S>
where
    E::TangentIn<S>: 'a,
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a [E], &'a [E::TangentIn<S>]> {
        self.dual().coerce()
    }
}

impl<'a, E: ZeroTangent + 'a, S: Mode, const N: usize> CoerceTo<&'a [E]>
    for Promoted<'a, &'a [E; N], S>
where
    E::TangentIn<S>: 'a,
{
    #[inline(always)]
    fn coerce(self) -> &'a [E] {
        &self.value[..]
    }
}

// Method receivers: generated code passes `&mut recv` for `recv.method(..)`, and the
// method's rule takes `&self` or `&mut self` as a dual; these convert it.

impl<'a, P: Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a P, &'a T>> for &'a mut Dual<P, T> {
    #[inline(always)]
    fn coerce(self) -> Dual<&'a P, &'a T> {
        Dual::new(&self.primal, &self.tangent)
    }
}

impl<'a, P: Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a mut P, &'a mut T>>
    for &'a mut Dual<P, T>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a mut P, &'a mut T> {
        Dual::new(&mut self.primal, &mut self.tangent)
    }
}

impl<'a, 'b, P: Differentiable + ?Sized + 'b, T: 'b> CoerceTo<Dual<&'a P, &'a T>>
    for &'a mut Dual<&'b P, &'b T>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a P, &'a T> {
        Dual::new(self.primal, self.tangent)
    }
}

impl<'a, 'b, P: Differentiable + ?Sized + 'b, T: 'b> CoerceTo<Dual<&'a P, &'a T>>
    for &'a mut Dual<&'b mut P, &'b mut T>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a P, &'a T> {
        Dual::new(&*self.primal, &*self.tangent)
    }
}

impl<'a, 'b, P: Differentiable + ?Sized + 'b, T: 'b> CoerceTo<Dual<&'a mut P, &'a mut T>>
    for &'a mut Dual<&'b mut P, &'b mut T>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a mut P, &'a mut T> {
        Dual::new(&mut *self.primal, &mut *self.tangent)
    }
}

// A constant receiver of a type declared without `Differentiable` (a parameter struct,
// `ch.discharge(y)` with `ch: &Channel`): the method's rule takes it as the plain
// reference, as a free function's rule takes a parameter declared `inactive`. Generated
// code passes `&mut recv` with `recv` the plain reference (`into_recv`).
impl<'a, 'b: 'a, P: ?Sized + 'b> CoerceTo<&'a P> for &'a mut &'b P {
    #[inline(always)]
    fn coerce(self) -> &'a P {
        self
    }
}

/// A constant receiver as the call passes it (`&mut` of the result): a [`Promoted`] or
/// [`PromotedElem`] as its constant dual, a plain reference (which `PromoteProbe` gives
/// for a type without a zero tangent) as it is.
#[doc(hidden)]
pub trait IntoRecv {
    /// The receiver's form.
    type Recv;
    /// The conversion.
    fn into_recv(self) -> Self::Recv;
}

impl<'a, X: PromoteRef<'a, S> + Copy, S: Mode> IntoRecv for Promoted<'a, X, S> {
    type Recv = Dual<X, X::TangentIn<S>>;
    #[inline(always)]
    fn into_recv(self) -> Self::Recv {
        self.dual()
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: ZeroTangent + 'a, S: Mode> IntoRecv for PromotedElem<'a, E, S> {
    type Recv = Dual<&'a E, &'a E::TangentIn<S>>;
    #[inline(always)]
    fn into_recv(self) -> Self::Recv {
        self.dual()
    }
}

impl<'a, P: ?Sized> IntoRecv for &'a P {
    type Recv = &'a P;
    #[inline(always)]
    fn into_recv(self) -> &'a P {
        self
    }
}

/// See [`IntoRecv`].
#[doc(hidden)]
#[inline(always)]
pub fn into_recv<X: IntoRecv>(x: X) -> X::Recv {
    x.into_recv()
}

/// An owned constant receiver (`let ch = Channel { .. }; ch.discharge(y)`), for
/// [`RecvZero::promote_recv`] and [`RecvPlain::promote_recv`], which generated code calls
/// as `(&RecvProbe(&x, PhantomData)).promote_recv()`: the constant dual of a clone where
/// the type has a zero tangent (`promote_receiver`), else the plain reference (a struct
/// declared without `Differentiable`, whose methods' rules take it so).
#[doc(hidden)]
pub struct RecvProbe<'a, P, S>(pub &'a P, pub PhantomData<S>);

/// See [`RecvProbe`].
#[doc(hidden)]
pub trait RecvZero<P: Differentiable, S: Mode> {
    /// The constant dual.
    fn promote_recv(&self) -> Dual<P, P::TangentIn<S>>;
}

impl<P: crate::structural::ConstReceiver, S: Mode> RecvZero<P, S> for RecvProbe<'_, P, S> {
    #[inline(always)]
    fn promote_recv(&self) -> Dual<P, P::TangentIn<S>> {
        crate::structural::promote_receiver::<S, P>(self.0)
    }
}

/// See [`RecvProbe`].
#[doc(hidden)]
pub trait RecvPlain<'a, P> {
    /// The plain reference.
    fn promote_recv(&self) -> &'a P;
}

impl<'a, P, S> RecvPlain<'a, P> for &RecvProbe<'a, P, S> {
    #[inline(always)]
    fn promote_recv(&self) -> &'a P {
        self.0
    }
}

// A reference read from a field of a `&mut self` (`self.geoid._gen_inverse(..)` with
// `geoid: &'a Geodesic` in a `&mut self` method) taken by a `&self` method.
impl<'a, 'c: 'a, 'd: 'c, P: Differentiable + ?Sized + 'd, T: 'd> CoerceTo<Dual<&'a P, &'a T>>
    for &'a mut Dual<&'c mut &'d P, &'c mut &'d T>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a P, &'a T> {
        Dual::new(*self.primal, *self.tangent)
    }
}

// A buffer of non-differentiable elements (`perm: Vec<usize>`) lent `&mut` to a derived
// callee: its dual pairs it with a slice of `NoTangent`, a zero-sized type, so the slice
// (`vec![NoTangent; n].leak()`) takes no memory.

#[cfg(feature = "alloc")]
impl<'a, E: Differentiable> CoerceTo<Dual<&'a mut [E], &'a mut [NoTangent]>> for &'a mut [E] {
    #[inline(always)]
    fn coerce(self) -> Dual<&'a mut [E], &'a mut [NoTangent]> {
        let n = self.len();
        Dual::new(self, vec![NoTangent; n].leak())
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: Differentiable> CoerceTo<Dual<&'a mut [E], &'a mut [NoTangent]>> for &'a mut Vec<E> {
    #[inline(always)]
    fn coerce(self) -> Dual<&'a mut [E], &'a mut [NoTangent]> {
        CoerceTo::coerce(&mut self[..])
    }
}

#[cfg(feature = "alloc")]
impl<'a, E: Differentiable, const N: usize> CoerceTo<Dual<&'a mut [E], &'a mut [NoTangent]>>
    for &'a mut [E; N]
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a mut [E], &'a mut [NoTangent]> {
        CoerceTo::coerce(&mut self[..])
    }
}

/// A constant buffer of non-differentiable elements lent `&mut` to a derived callee
/// (`logged_step(x, &mut log)` with `let mut log: Vec<String>`), beside its zero tangent:
/// a temporary of the call's argument list, so that the callee's `&mut Vec<String>`
/// parameter gets a `&mut Vec<NoTangent>` tangent that lives as long as the call.
#[doc(hidden)]
pub struct LentMut<'b, P: ?Sized, Z> {
    primal: &'b mut P,
    zero: Z,
}

/// [`LentMut`] of `p`, its zero tangent in mode `S`.
#[doc(hidden)]
#[inline(always)]
pub fn lend_mut<S: Mode, P: ZeroTangent>(p: &mut P) -> LentMut<'_, P, P::TangentIn<S>> {
    let zero = p.zero_tangent_in::<S>();
    LentMut { primal: p, zero }
}

impl<'a, 'b: 'a, P: Differentiable + 'b, Z: 'a> CoerceTo<Dual<&'a mut P, &'a mut Z>>
    for &'a mut LentMut<'b, P, Z>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a mut P, &'a mut Z> {
        Dual::new(&mut *self.primal, &mut self.zero)
    }
}

#[cfg(feature = "alloc")]
impl<'a, 'b: 'a, E: Differentiable + 'b, T: 'a> CoerceTo<Dual<&'a mut [E], &'a mut [T]>>
    for &'a mut LentMut<'b, Vec<E>, Vec<T>>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a mut [E], &'a mut [T]> {
        Dual::new(&mut self.primal[..], &mut self.zero[..])
    }
}

impl<'a, 'b: 'a, E: Differentiable + 'b, T: 'a, const N: usize>
    CoerceTo<Dual<&'a mut [E], &'a mut [T]>> for &'a mut LentMut<'b, [E; N], [T; N]>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a mut [E], &'a mut [T]> {
        Dual::new(&mut self.primal[..], &mut self.zero[..])
    }
}

// A method of an extension trait on slices (`#[derive_frule] impl VecOps for [f64]`)
// called on a slice, an array or a `Vec` (`a.dot(b)`, Rust's auto-deref): the receiver
// dual as the rule's `&[E]` (or `&mut [E]`) dual.

macro_rules! slice_receiver {
    ($([$($g:tt)*] $from:ty, $p:ident, $t:ident => $conv:expr;)*) => {$(
        impl<'a, 'b: 'a, E: Differentiable + 'b, T: 'b, $($g)*> CoerceTo<Dual<&'a [E], &'a [T]>>
            for $from
        {
            #[inline(always)]
            fn coerce(self) -> Dual<&'a [E], &'a [T]> {
                let ($p, $t) = (&self.primal, &self.tangent);
                $conv
            }
        }
    )*};
}

slice_receiver! {
    [] &'a mut Dual<&'b [E], &'b [T]>, p, t => Dual::new(*p, *t);
    [] &'a mut Dual<&'b mut [E], &'b mut [T]>, p, t => Dual::new(&p[..], &t[..]);
    [const N: usize] &'a mut Dual<[E; N], [T; N]>, p, t => Dual::new(&p[..], &t[..]);
    [const N: usize] &'a mut Dual<&'b [E; N], &'b [T; N]>, p, t => Dual::new(&p[..], &t[..]);
    [const N: usize] &'a mut Dual<&'b mut [E; N], &'b mut [T; N]>, p, t => Dual::new(&p[..], &t[..]);
    [] &'a Dual<&'b [E], &'b [T]>, p, t => Dual::new(*p, *t);
}

#[cfg(feature = "alloc")]
slice_receiver! {
    [] &'a mut Dual<Vec<E>, Vec<T>>, p, t => Dual::new(&p[..], &t[..]);
    [] &'a mut Dual<&'b Vec<E>, &'b Vec<T>>, p, t => Dual::new(&p[..], &t[..]);
    [] &'a mut Dual<&'b mut Vec<E>, &'b mut Vec<T>>, p, t => Dual::new(&p[..], &t[..]);
}

macro_rules! slice_receiver_mut {
    ($([$($g:tt)*] $from:ty;)*) => {$(
        impl<'a, 'b: 'a, E: Differentiable + 'b, T: 'b, $($g)*> CoerceTo<Dual<&'a mut [E], &'a mut [T]>>
            for $from
        {
            #[inline(always)]
            fn coerce(self) -> Dual<&'a mut [E], &'a mut [T]> {
                Dual::new(&mut self.primal[..], &mut self.tangent[..])
            }
        }
    )*};
}

slice_receiver_mut! {
    [] &'a mut Dual<&'b mut [E], &'b mut [T]>;
    [const N: usize] &'a mut Dual<[E; N], [T; N]>;
    [const N: usize] &'a mut Dual<&'b mut [E; N], &'b mut [T; N]>;
}

#[cfg(feature = "alloc")]
slice_receiver_mut! {
    [] &'a mut Dual<Vec<E>, Vec<T>>;
    [] &'a mut Dual<&'b mut Vec<E>, &'b mut Vec<T>>;
}

// A receiver also lent to an argument (`a.dot(&a)`) is passed shared: the method takes
// `&self` (Rust rejects the call otherwise), so these convert `&recv` to it.

impl<'a, P: Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a P, &'a T>> for &'a Dual<P, T> {
    #[inline(always)]
    fn coerce(self) -> Dual<&'a P, &'a T> {
        Dual::new(&self.primal, &self.tangent)
    }
}

impl<'a, 'b, P: Differentiable + 'b, T: 'b> CoerceTo<Dual<&'a P, &'a T>>
    for &'a Dual<&'b P, &'b T>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a P, &'a T> {
        Dual::new(self.primal, self.tangent)
    }
}

impl<'a, 'b, P: Differentiable + ?Sized + 'b, T: 'b> CoerceTo<Dual<&'a P, &'a T>>
    for &'a Dual<&'b mut P, &'b mut T>
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a P, &'a T> {
        Dual::new(&*self.primal, &*self.tangent)
    }
}

/// The tuple of argument duals converted to the rule's parameter tuple.
#[diagnostic::on_unimplemented(
    message = "these arguments do not fit the forward rule's parameters",
    label = "arguments `{Self}`",
    note = "the rule takes `{T}`: one `Dual` per parameter, of the parameter's type (a plain reference where the called function declares a borrowed parameter `inactive(..)`)"
)]
#[doc(hidden)]
pub trait CoerceArgs<T> {
    /// The conversion.
    fn coerce_args(self) -> T;
}

impl CoerceArgs<()> for () {
    #[inline(always)]
    fn coerce_args(self) {}
}

macro_rules! coerce_args {
    ($($X:ident $Y:ident $i:tt),+) => {
        impl<$($X: CoerceTo<$Y>, $Y),+> CoerceArgs<($($Y,)+)> for ($($X,)+) {
            #[inline(always)]
            fn coerce_args(self) -> ($($Y,)+) {
                ($(self.$i.coerce(),)+)
            }
        }
    };
}
crate::for_tuples!(coerce_args);
// Calls pass every argument through one tuple, and numeric code has long parameter lists
// (sgp4's `third_body::perturbations_and_dots` takes 16, `near_earth::constants` 20): the
// arities past `for_tuples!`'s 12, for this conversion only.
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13, P TP 14);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13, P TP 14, Q TQ 15);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13, P TP 14, Q TQ 15, R TR 16);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13, P TP 14, Q TQ 15, R TR 16, U TU 17);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13, P TP 14, Q TQ 15, R TR 16, U TU 17, V TV 18);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13, P TP 14, Q TQ 15, R TR 16, U TU 17, V TV 18, W TW 19);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13, P TP 14, Q TQ 15, R TR 16, U TU 17, V TV 18, W TW 19, X TX 20);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13, P TP 14, Q TQ 15, R TR 16, U TU 17, V TV 18, W TW 19, X TX 20, Y TY 21);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13, P TP 14, Q TQ 15, R TR 16, U TU 17, V TV 18, W TW 19, X TX 20, Y TY 21, Z TZ 22);
coerce_args!(A TA 0, B TB 1, C TC 2, D TD 3, E TE 4, G TG 5, H TH 6, I TI 7, J TJ 8, K TK 9, L TL 10, M TM 11, N TN 12, O TO 13, P TP 14, Q TQ 15, R TR 16, U TU 17, V TV 18, W TW 19, X TX 20, Y TY 21, Z TZ 22, AA TAA 23);

/// The rule of a method taking `self` by value, as a call `recv.m(..)` in a derived body
/// finds it: the call passes `&mut recv` (as for `&self` methods, since the call site
/// cannot see the receiver kind), and this hands the rule an owned copy of the receiver
/// dual. The primal call moves or copies the receiver (auto-deref copies a borrowed
/// `Copy` one), so no one observes the original again.
#[doc(hidden)]
pub struct SelfByValue<R>(pub R);

/// The `Self` type of a method rule (generated for methods taking `self` by value).
#[doc(hidden)]
pub trait MethodOf {
    /// The type the method belongs to.
    type SelfTy: Differentiable + Clone;
}

/// The owned receiver dual a `self` method's rule takes, as `SelfByValue` receives it:
/// the call site's `&mut` receiver dual (owned, borrowed or mutably borrowed) converts to
/// it by cloning. A wrapper, so these conversions never compete with the `&self` ones.
#[doc(hidden)]
pub struct OwnedRecv<D>(pub D);

impl<P: Differentiable + Clone, T: Clone> CoerceTo<OwnedRecv<Dual<P, T>>> for &mut Dual<P, T> {
    #[inline(always)]
    fn coerce(self) -> OwnedRecv<Dual<P, T>> {
        OwnedRecv(Dual::new(self.primal.clone(), self.tangent.clone()))
    }
}

impl<P: Differentiable + Clone, T: Clone> CoerceTo<OwnedRecv<Dual<P, T>>> for &mut Dual<&P, &T> {
    #[inline(always)]
    fn coerce(self) -> OwnedRecv<Dual<P, T>> {
        OwnedRecv(Dual::new(self.primal.clone(), self.tangent.clone()))
    }
}

impl<P: Differentiable + Clone, T: Clone> CoerceTo<OwnedRecv<Dual<P, T>>>
    for &mut Dual<&mut P, &mut T>
{
    #[inline(always)]
    fn coerce(self) -> OwnedRecv<Dual<P, T>> {
        OwnedRecv(Dual::new(self.primal.clone(), self.tangent.clone()))
    }
}

/// The receiver's tangent type in mode `S`.
type RecvTangent<R, S> = <<R as MethodOf>::SelfTy as Differentiable>::TangentIn<S>;

// Receiver plus up to 11 arguments, as `CoerceArgs` goes to 12.
macro_rules! self_by_value {
    ($($A:ident $a:ident),*) => {
        impl<R, S: Mode, $($A),*> Frule<(OwnedRecv<Dual<R::SelfTy, RecvTangent<R, S>>>, $($A,)*), S>
            for SelfByValue<R>
        where
            R: MethodOf + Frule<(Dual<R::SelfTy, RecvTangent<R, S>>, $($A,)*), S>,
        {
            type Output = <R as Frule<(Dual<R::SelfTy, RecvTangent<R, S>>, $($A,)*), S>>::Output;
            #[inline(always)]
            fn frule(
                &self,
                (recv, $($a,)*): (OwnedRecv<Dual<R::SelfTy, RecvTangent<R, S>>>, $($A,)*),
            ) -> Self::Output {
                self.0.frule((recv.0, $($a,)*))
            }
        }
    };
}
self_by_value!();
self_by_value!(A1 a1);
self_by_value!(A1 a1, A2 a2);
self_by_value!(A1 a1, A2 a2, A3 a3);
self_by_value!(A1 a1, A2 a2, A3 a3, A4 a4);
self_by_value!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5);
self_by_value!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6);
self_by_value!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6, A7 a7);
self_by_value!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6, A7 a7, A8 a8);
self_by_value!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6, A7 a7, A8 a8, A9 a9);
self_by_value!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6, A7 a7, A8 a8, A9 a9, A10 a10);
self_by_value!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6, A7 a7, A8 a8, A9 a9, A10 a10, A11 a11);

/// A rule given as a closure of the argument duals, in mode `S`: what `#[derive_frule]` on
/// a single method of a plain `impl` returns from the method's hidden dispatch. An
/// attribute on a method can add only items of that `impl`, so there is no marker type to
/// implement [`Frule`] on; the closure (written where `Self` is the type) is the rule.
#[doc(hidden)]
pub struct FnRule<F, S>(F, PhantomData<fn() -> S>);

impl<F, S> FnRule<F, S> {
    /// The rule of closure `f`.
    #[inline(always)]
    pub fn new(f: F) -> Self {
        FnRule(f, PhantomData)
    }
}

impl<F, A, O, S: Mode> Frule<A, S> for FnRule<F, S>
where
    F: Fn(A) -> O,
{
    type Output = O;
    #[inline(always)]
    fn frule(&self, args: A) -> O {
        (self.0)(args)
    }
}
