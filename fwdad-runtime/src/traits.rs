//! What `#[derive_frule]` on a trait definition needs at run time (see `docs/design.md`,
//! "Traits").
//!
//! * [`DerivedTrait`] is implemented by `dyn Trait` for each dyn-compatible trait whose
//!   definition carries `#[derive_frule]` (a rule taking `&dyn Trait` asks for it), the
//!   trait is registered in [`Traits`] under its [`trait_key`], and [`DerivedImpl<KEY>`]
//!   is implemented by each type whose `impl Trait` carries it: a rule generic over `M:
//!   Trait` asks for both, so a missing annotation is a compile error naming what to
//!   annotate.
//! * A method called on a `dyn Trait` value runs the implementing type's rule through a
//!   table of function pointers, which cannot be generic over the mode. Every mode is
//!   independent lanes of one of two kinds ([`DynLanes`]): first-order lanes (`f64`, each
//!   lane of a `Batch`) and second-order lanes (`Hyper<f64, f64>`, each lane `k` of a
//!   `Hyper<f64, Batch<f64, N>>` being `(d1[k], d2, d12[k])`). The table holds the rule at
//!   those two modes, and a call in any mode runs it once per lane.

#[cfg(feature = "alloc")]
use crate::alloc_paths::Vec;
use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::frule::{CoerceTo, Frule, Promoted};
#[cfg(feature = "std")]
use crate::sparsity::HessianSet;
use crate::sparsity::IndexSet;
use crate::tangent::{Batch, Hyper, MaybeZero, Mode, NoTangent};

/// The trait of a trait object has forward rules: `#[derive_frule]` is on its definition.
#[diagnostic::on_unimplemented(
    message = "the trait of `{Self}` has no forward rules",
    label = "a trait without `#[derive_frule]` on its definition",
    note = "add `#[derive_frule]` to the trait's definition (`#[derive_frule] trait Name {{ .. }}`), and to each `impl` of it for a type you differentiate through it"
)]
pub trait DerivedTrait {}

/// `Self`'s `impl` of the trait whose name hashes to `TRAIT` ([`trait_key`]) carries
/// `#[derive_frule]`. A derived blanket `impl<T: Shape> Area for T` cannot give it to
/// every `T` (the orphan rules), so a parameter `A: Area` does not take its types. Keyed by the name, not by `dyn Trait`: a trait that is not dyn
/// compatible (`trait Curve: Sized`, associated constants) cannot be named as `dyn Trait`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` implements a trait with `#[derive_frule]` without forward rules",
    label = "its `impl` of the trait lacks `#[derive_frule]`",
    note = "add `#[derive_frule]` to the `impl` of the trait (the one bounding the parameter this value is passed as) for `{Self}`; if a blanket `impl<T: Shape> Area for T` implements it, bound the parameter by the blanket impl's traits instead (`A: Shape`), which `{Self}`'s derived `impl`s satisfy"
)]
pub trait DerivedImpl<const TRAIT: u64> {}

/// What the expansion of a trait with `#[derive_frule]` registers itself in: `Traits:
/// TraitRules<KEY, Table>` with the trait's own table type, so [`trait_has_rules`] finds
/// it from the trait's name alone.
#[doc(hidden)]
pub struct Traits;

/// See [`Traits`].
#[diagnostic::on_unimplemented(
    message = "a trait bounding a type parameter of this function has no forward rules",
    label = "a trait without `#[derive_frule]` on its definition",
    note = "add `#[derive_frule]` to the trait's definition (`#[derive_frule] trait Name {{ .. }}`), and to each `impl` of it for a type you differentiate through it"
)]
#[doc(hidden)]
pub trait TraitRules<const TRAIT: u64, K> {}

/// Holds when the trait keyed `TRAIT` has `#[derive_frule]` on its definition.
#[doc(hidden)]
pub fn trait_has_rules<const TRAIT: u64, K>()
where
    Traits: TraitRules<TRAIT, K>,
{
}

/// The key of a trait by its name (FNV-1a), as the macro computes it at the trait, at
/// its `impl`s and at the parameters it bounds.
pub const fn trait_key(name: &str) -> u64 {
    let b = name.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < b.len() {
        h ^= b[i] as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    h
}

/// The bound of the dispatch of a trait method `#[derive_frule]` cannot differentiate
/// through (generic, an `impl Trait` parameter, a returned reference): never holds, so a
/// call of it in a derived body is an error at the call.
#[diagnostic::on_unimplemented(
    message = "this method of a trait with `#[derive_frule]` has no forward rule (on `{Self}`)",
    label = "a method `#[derive_frule]` cannot differentiate through",
    note = "a trait method that is generic, takes an `impl Trait` parameter or returns a reference gets no rule; call it outside the differentiated function and pass its result in, or give the trait a method with concrete types"
)]
#[doc(hidden)]
pub trait MethodWithoutRule<W> {}

/// The bound of the dispatch on `dyn Trait` of a method a trait object cannot run
/// lane by lane: never holds, so a call of it on a `dyn` value is an error at the call.
#[diagnostic::on_unimplemented(
    message = "this method cannot be differentiated through `{Self}`",
    label = "not differentiable on a trait object",
    note = "on a `dyn Trait` only methods taking `&self` or `&mut self` have rules, with arguments passed as values, `&T`, `&[T]`, `&mut T` or `&mut [T]` of types holding no reference, and a result holding none; take the value through a generic parameter (`fn f<M: Trait>(m: &M, ..)`) to call this one"
)]
#[doc(hidden)]
pub trait NotOnDyn<W> {}

/// A type with `#[derive(Differentiable)]` itself, or a library type the runtime knows
/// (`Vector3<f64>`, `DVec3`, ...), not a reference or box of one: a method call on it in a
/// derived body that finds no rule (its `impl` lacks `#[derive_frule]`, or a library
/// value's type is not written) falls back to a stand-in that only applies to such types,
/// whose error names the type and the method (`emit`'s `no_rule_fallback`). A
/// `Box<dyn Trait>` receiver keeps dereferencing to its trait object's rule instead.
#[doc(hidden)]
pub trait UserValue {}
/// Floats too: a method of an extension trait of the user's (`x.halve()`) whose trait or
/// `impl .. for f64` lacks `#[derive_frule]` gets the same message.
impl UserValue for f64 {}
impl UserValue for f32 {}
/// `Option`s and `Result`s too (they deref to nothing): one of their methods the macro has
/// no rule for (`opt.get_or_insert_with(..)`) is taken for a method of the user's, and its
/// error then names the method and the value's type.
impl<T> UserValue for Option<T> {}
impl<T, E> UserValue for Result<T, E> {}

/// The rule of a method of an extension trait on a sequence type (`#[derive_frule] impl
/// VecOps for [f64]`), as a call on a slice, an array or a `Vec` finds it: the trait's
/// marker of the method (`__fwdad_dispatch_VecOps_dot_unsized`, what the trait's
/// `__fwdad_rule_unsized_dot(&self)` returns: a `&self` method, found on `[f64]` itself,
/// which a dispatch needing `Self: Sized` is not) implements it, in the derived `impl`,
/// with the rule of the `impl`'s method. Without it (an `impl` that lacks
/// `#[derive_frule]`, or a default method it does not define), the message below is the
/// error at the call.
#[diagnostic::on_unimplemented(
    message = "this method of a trait of yours has no forward rule on this slice, array or `Vec`",
    label = "this method has no forward rule",
    note = "add `#[derive_frule]` to the trait and to its `impl` for the receiver's type (`impl VecOps for [f64]`), and define the method in that `impl`: on a slice, an array or a `Vec`, a default method of the trait has no rule of its own"
)]
#[doc(hidden)]
pub trait SequenceRule<Args, S: Mode> {
    /// The rule of the `impl`'s method.
    type Rule: Frule<Args, S>;
    /// The rule.
    fn rule() -> Self::Rule;
}

/// `recv.m(..)` on a sequence type: `call` through [`SequenceRule`].
#[doc(hidden)]
#[inline(always)]
pub fn call_on_sequence<S: Mode, R: SequenceRule<T, S>, T, A: crate::frule::CoerceArgs<T>>(
    _: &R,
    args: A,
) -> <R::Rule as Frule<T, S>>::Output {
    R::rule().frule(args.coerce_args())
}

/// The items it is given with the `alloc` feature, nothing without (what a trait's
/// expansion in a `no_std` crate writes of `Box`).
#[cfg(feature = "alloc")]
#[doc(hidden)]
#[macro_export]
macro_rules! __fwdad_with_alloc {
    ($($t:tt)*) => { $($t)* };
}
/// See the `alloc` version.
#[cfg(not(feature = "alloc"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __fwdad_with_alloc {
    ($($t:tt)*) => {};
}
#[doc(hidden)]
pub use crate::__fwdad_with_alloc as with_alloc;

/// `Self` (`dyn Trait`) is what a value of `P` unsizes to: implemented by the expansion of
/// a dyn-compatible trait with `#[derive_frule]` for every `P` whose `impl` of it carries
/// `#[derive_frule]` and is not generic (it has the table a `dyn` call runs). It lets a
/// constant `&Linear { .. }`, `&lin` or `Box::new(Linear { .. })` be passed straight to a
/// rule's `&dyn Trait` or `Box<dyn Trait>` parameter: Rust's unsizing coercion at the call
/// cannot happen through the rule's generic argument conversion (`CoerceTo`), and a
/// conversion to `Dual<&dyn Trait, _>` cannot be written for `Dual<&P, _>` generically
/// (it would overlap the identity at `P = dyn Trait`), so it is written for a constant
/// ([`Promoted`](crate::Promoted), [`ConstBox`]) to a parameter whose tangent is
/// [`DynConst`].
#[diagnostic::on_unimplemented(
    message = "`{P}` cannot be passed as `{Self}` to a rule",
    label = "its `impl` of the trait lacks `#[derive_frule]`, or is generic",
    note = "add `#[derive_frule]` to the `impl` of the trait for `{P}`; a trait object of a type whose derived `impl` is generic (`impl<T> Trait for Ty<T>`) has no rules: pass the value through a generic parameter (`fn f<M: Trait>(m: &M, ..)`)"
)]
#[doc(hidden)]
pub trait UnsizeFrom<'a, P: 'a>: 'a {
    /// `p` as the trait object.
    fn unsize_ref(p: &'a P) -> &'a Self;
    /// The box of `p` as the boxed trait object.
    #[cfg(feature = "alloc")]
    fn unsize_box(p: crate::alloc_paths::Box<P>) -> crate::alloc_paths::Box<Self>;
}

/// `Self`'s `impl` of the trait keyed `TRAIT` carries `#[derive_frule]` and is not generic,
/// so its values have a `dyn` table ([`UnsizeFrom`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no rules behind a trait object",
    label = "its `impl` of the trait lacks `#[derive_frule]`, or is generic",
    note = "add `#[derive_frule]` to the `impl` of the trait for `{Self}`; a trait object of a type whose derived `impl` is generic (`impl<T> Trait for Ty<T>`) has no rules: pass the value through a generic parameter (`fn f<M: Trait>(m: &M, ..)`)"
)]
#[doc(hidden)]
pub trait DynImpl<const TRAIT: u64> {}

/// `Self`'s `impl` of the trait keyed `TRAIT` carries `#[derive_frule]` and is generic: its
/// values have no `dyn` table ([`CastCheck`]).
#[doc(hidden)]
pub trait GenericDerivedImpl<const TRAIT: u64> {}

/// A cast `&p as &dyn Trait` in a derived body, checked at compile time when `P`'s derived
/// `impl` is generic (its trait object would have no rules, and the call would panic):
/// `(&CastCheck::<_, KEY>::of(&p)).check_dyn_cast()` finds [`CastOfGenericImpl`] for such a
/// `P`, whose method needs `P: DynImpl` (never, so an error naming `P`), and
/// [`CastOfOtherImpl`] one autoref later for every other type (non-generic derived
/// impls, `impl`s without the attribute, a type only known to be `M: Trait`), so no cast
/// that compiled before is rejected.
#[doc(hidden)]
pub struct CastCheck<P: ?Sized, const TRAIT: u64>(core::marker::PhantomData<fn() -> *const P>);

impl<P: ?Sized, const TRAIT: u64> CastCheck<P, TRAIT> {
    /// The check for the reference `p` (`&&P`).
    #[inline(always)]
    pub fn of(_: &&P) -> Self {
        CastCheck(core::marker::PhantomData)
    }
}

/// See [`CastCheck`].
#[doc(hidden)]
pub trait CastOfGenericImpl<P: ?Sized, const TRAIT: u64> {
    /// An error for `P`: a generic `impl` has no table of rules.
    #[inline(always)]
    fn check_dyn_cast(&self)
    where
        P: DynImpl<TRAIT>,
    {
    }
}
impl<P: ?Sized + GenericDerivedImpl<TRAIT>, const TRAIT: u64> CastOfGenericImpl<P, TRAIT>
    for CastCheck<P, TRAIT>
{
}

/// See [`CastCheck`].
#[doc(hidden)]
pub trait CastOfOtherImpl {
    /// Nothing to check.
    #[inline(always)]
    fn check_dyn_cast(&self) {}
}
impl<P: ?Sized, const TRAIT: u64> CastOfOtherImpl for &CastCheck<P, TRAIT> {}

/// The tangent of a constant passed straight to a `&dyn Trait` or `Box<dyn Trait>`
/// parameter ([`UnsizeFrom`]): a trait object's tangent is `NoTangent` anyway. Not a
/// reference, so its conversions cannot overlap those to a `Dual<&P, &P::Tangent>`.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DynConst;

/// The tangent a rule's `&dyn Trait` / `Box<dyn Trait>` parameter accepts: the trait
/// object's own (`&NoTangent`, `Box<NoTangent>`), or [`DynConst`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the tangent of a trait object",
    note = "a trait object's fields are constants in a rule: pass it as `Dual::constant(..)` or `Const(..)`"
)]
#[doc(hidden)]
pub trait DynArgTangent<T>: Sized {
    /// The trait object's tangent.
    fn dyn_tangent(self) -> T;
}

impl<T> DynArgTangent<T> for T {
    #[inline(always)]
    fn dyn_tangent(self) -> T {
        self
    }
}

impl<'a> DynArgTangent<&'a NoTangent> for DynConst {
    #[inline(always)]
    fn dyn_tangent(self) -> &'a NoTangent {
        &NoTangent
    }
}

#[cfg(feature = "alloc")]
impl DynArgTangent<crate::alloc_paths::Box<NoTangent>> for DynConst {
    #[inline(always)]
    fn dyn_tangent(self) -> crate::alloc_paths::Box<NoTangent> {
        crate::alloc_paths::Box::new(NoTangent)
    }
}

/// A `&dyn Trait` / `Box<dyn Trait>` argument converted on entry to the rule's dual of the
/// mode.
#[doc(hidden)]
#[inline(always)]
pub fn dyn_arg<P: Differentiable, T, A: DynArgTangent<T>>(d: Dual<P, A>) -> Dual<P, T> {
    Dual::new(d.primal, d.tangent.dyn_tangent())
}

impl<'a, P: ZeroTangent + 'a, D: ?Sized + UnsizeFrom<'a, P> + Differentiable + 'a, S: Mode>
    CoerceTo<Dual<&'a D, DynConst>> for Promoted<'a, &'a P, S>
where
    P::TangentIn<S>: 'a,
{
    #[inline(always)]
    fn coerce(self) -> Dual<&'a D, DynConst> {
        Dual::new(D::unsize_ref(self.value()), DynConst)
    }
}

/// A constant `Box::new(..)` passed to a rule: the constant dual of the box, or, for a
/// `Box<dyn Trait>` parameter, the boxed trait object ([`UnsizeFrom`]).
#[doc(hidden)]
#[cfg(feature = "alloc")]
pub struct ConstBox<P, S>(crate::alloc_paths::Box<P>, core::marker::PhantomData<S>);

#[cfg(feature = "alloc")]
impl<P, S: Mode> ConstBox<P, S> {
    /// Wraps the box.
    #[inline(always)]
    pub fn new(b: crate::alloc_paths::Box<P>) -> Self {
        ConstBox(b, core::marker::PhantomData)
    }
}

#[cfg(feature = "alloc")]
impl<P: ZeroTangent, S: Mode>
    CoerceTo<Dual<crate::alloc_paths::Box<P>, crate::alloc_paths::Box<P::TangentIn<S>>>>
    for ConstBox<P, S>
{
    #[inline(always)]
    fn coerce(self) -> Dual<crate::alloc_paths::Box<P>, crate::alloc_paths::Box<P::TangentIn<S>>> {
        crate::dual::constant_in::<S, _>(self.0)
    }
}

#[cfg(feature = "alloc")]
impl<P: 'static, D: ?Sized + UnsizeFrom<'static, P> + Differentiable, S: Mode>
    CoerceTo<Dual<crate::alloc_paths::Box<D>, DynConst>> for ConstBox<P, S>
{
    #[inline(always)]
    fn coerce(self) -> Dual<crate::alloc_paths::Box<D>, DynConst> {
        Dual::new(D::unsize_box(self.0), DynConst)
    }
}

/// What an argument that carries a tangent meets at a `&dyn Trait` parameter: never
/// holds, so passing it is an error at the call naming the reason (a trait object's
/// fields are constants in a rule, and the derivative would be lost).
#[diagnostic::on_unimplemented(
    message = "`#[derive_frule]` takes a trait object's fields as constants, and this argument (a `{Self}`) may depend on the differentiated inputs (its derivative would be lost)",
    label = "passed to a `&dyn` trait object parameter",
    note = "pass the value through a generic parameter (`fn f<M: Trait>(m: &M, ..)`), or build it from constants in this function (`&Linear {{ e: 2.0 }}`)"
)]
#[doc(hidden)]
pub trait DynOfActive<D: ?Sized> {}

impl<'a, P: Differentiable + 'a, T: 'a, D: ?Sized + Differentiable + 'a>
    CoerceTo<Dual<&'a D, DynConst>> for Dual<&'a P, &'a T>
where
    P: DynOfActive<D>,
{
    fn coerce(self) -> Dual<&'a D, DynConst> {
        unreachable!()
    }
}

/// The bound of a trait object's `box_with_its_derivative` when its trait's objects cannot
/// carry a tangent (a supertrait other than `Debug`, `Send` and `Sync`, a method with
/// another receiver than `&self`, `&mut self` or `self`, an `unsafe` or `async` one):
/// never holds, so boxing a value that depends on the inputs as such an object is an
/// error there.
#[diagnostic::on_unimplemented(
    message = "a value that depends on the differentiated inputs cannot be boxed as `{Self}`: its trait's objects cannot carry derivatives",
    label = "boxed from a value that depends on the differentiated inputs",
    note = "a trait object carries its derivative when its trait's supertraits are among `Debug`, `Send` and `Sync` and its methods take `&self`, `&mut self` or `self` (none `unsafe` or `async`); otherwise take the value through a generic parameter (`fn f<T: Trait>(t: &T, ..)`), or build the trait object from constants"
)]
#[doc(hidden)]
pub trait CarriedObject<W> {}

/// The reason type of [`MethodWithoutRule`] and [`NotOnDyn`].
#[doc(hidden)]
pub struct NoRule;

/// A mode's tangent of `f64` seen as independent lanes of a first-order (`f64`) or a
/// second-order (`Hyper<f64, f64>`) tangent (see the module docs).
pub trait DynLanes: Sized {
    /// The number of lanes.
    const DYN_LANES: usize;
    /// Whether the lanes are second order.
    const DYN_SECOND: bool;
    /// Lane `k` of a first-order tangent.
    fn lane1(&self, k: usize) -> f64;
    /// Sets lane `k` of a first-order tangent.
    fn set_lane1(&mut self, k: usize, v: f64);
    /// Lane `k` of a second-order tangent.
    fn lane2(&self, k: usize) -> Hyper<f64, f64>;
    /// Sets lane `k` of a second-order tangent.
    fn set_lane2(&mut self, k: usize, v: Hyper<f64, f64>);
}

#[cold]
#[track_caller]
fn unsupported(what: &str) -> ! {
    panic!("a method called on a `dyn` trait object cannot be differentiated {what}")
}

impl DynLanes for f64 {
    const DYN_LANES: usize = 1;
    const DYN_SECOND: bool = false;
    #[inline(always)]
    fn lane1(&self, _: usize) -> f64 {
        *self
    }
    #[inline(always)]
    fn set_lane1(&mut self, _: usize, v: f64) {
        *self = v;
    }
    fn lane2(&self, _: usize) -> Hyper<f64, f64> {
        unsupported("at this order")
    }
    fn set_lane2(&mut self, _: usize, _: Hyper<f64, f64>) {
        unsupported("at this order")
    }
}

impl<const N: usize> DynLanes for Batch<f64, N> {
    const DYN_LANES: usize = N;
    const DYN_SECOND: bool = false;
    #[inline(always)]
    fn lane1(&self, k: usize) -> f64 {
        self.0[k]
    }
    #[inline(always)]
    fn set_lane1(&mut self, k: usize, v: f64) {
        self.0[k] = v;
    }
    fn lane2(&self, _: usize) -> Hyper<f64, f64> {
        unsupported("at this order")
    }
    fn set_lane2(&mut self, _: usize, _: Hyper<f64, f64>) {
        unsupported("at this order")
    }
}

impl<T: DynLanes + Copy> DynLanes for crate::tangent::Fused<T> {
    const DYN_LANES: usize = T::DYN_LANES;
    const DYN_SECOND: bool = T::DYN_SECOND;
    #[inline(always)]
    fn lane1(&self, k: usize) -> f64 {
        self.0.lane1(k)
    }
    #[inline(always)]
    fn set_lane1(&mut self, k: usize, v: f64) {
        self.0.set_lane1(k, v);
    }
    #[inline(always)]
    fn lane2(&self, k: usize) -> crate::tangent::Hyper<f64, f64> {
        self.0.lane2(k)
    }
    #[inline(always)]
    fn set_lane2(&mut self, k: usize, v: crate::tangent::Hyper<f64, f64>) {
        self.0.set_lane2(k, v);
    }
}

/// The lanes of `T`; writing a lane makes the tangent live.
impl<T: DynLanes + Copy> DynLanes for MaybeZero<T> {
    const DYN_LANES: usize = T::DYN_LANES;
    const DYN_SECOND: bool = T::DYN_SECOND;
    #[inline(always)]
    fn lane1(&self, k: usize) -> f64 {
        self.get_ref().lane1(k)
    }
    #[inline(always)]
    fn set_lane1(&mut self, k: usize, v: f64) {
        self.get_mut().set_lane1(k, v);
    }
    #[inline(always)]
    fn lane2(&self, k: usize) -> Hyper<f64, f64> {
        self.get_ref().lane2(k)
    }
    #[inline(always)]
    fn set_lane2(&mut self, k: usize, v: Hyper<f64, f64>) {
        self.get_mut().set_lane2(k, v);
    }
}

/// Lane `k` of `Hyper<f64, T>` is `(d1[k], d2, d12[k])`: the second-order term of a lane
/// depends on that lane's first direction and the shared second one only.
impl<T: Mode> DynLanes for Hyper<f64, T> {
    const DYN_LANES: usize = T::DYN_LANES;
    const DYN_SECOND: bool = true;
    fn lane1(&self, _: usize) -> f64 {
        unsupported("at this order")
    }
    fn set_lane1(&mut self, _: usize, _: f64) {
        unsupported("at this order")
    }
    #[inline(always)]
    fn lane2(&self, k: usize) -> Hyper<f64, f64> {
        if T::DYN_SECOND {
            unsupported("beyond second order");
        }
        Hyper {
            d1: self.d1.lane1(k),
            d2: self.d2,
            d12: self.d12.lane1(k),
        }
    }
    #[inline(always)]
    fn set_lane2(&mut self, k: usize, v: Hyper<f64, f64>) {
        if T::DYN_SECOND {
            unsupported("beyond second order");
        }
        self.d1.set_lane1(k, v.d1);
        self.d2 = v.d2;
        self.d12.set_lane1(k, v.d12);
    }
}

macro_rules! no_lanes {
    ($($t:ident),*) => {$(
        /// Sparsity detection does not go through `dyn` calls.
        impl<const W: usize> DynLanes for $t<W> {
            const DYN_LANES: usize = 0;
            const DYN_SECOND: bool = false;
            fn lane1(&self, _: usize) -> f64 {
                unsupported("in sparsity detection")
            }
            fn set_lane1(&mut self, _: usize, _: f64) {
                unsupported("in sparsity detection")
            }
            fn lane2(&self, _: usize) -> Hyper<f64, f64> {
                unsupported("in sparsity detection")
            }
            fn set_lane2(&mut self, _: usize, _: Hyper<f64, f64>) {
                unsupported("in sparsity detection")
            }
        }
    )*};
}
no_lanes!(IndexSet);
#[cfg(feature = "std")]
no_lanes!(HessianSet);

/// Whether mode `S` can go through a `dyn` call; panics with the reason if not.
#[inline(always)]
#[track_caller]
pub fn check_dyn_mode<S: Mode>() {
    if S::DYN_LANES == 0 {
        unsupported("in sparsity detection");
    }
}

/// A rule of a trait method called for a type whose `impl` of the trait lacks
/// `#[derive_frule]` (a generic parameter's bound asks for it at compile time; this is
/// the last guard, as the trait's own rules would not be the impl's methods).
#[cold]
#[track_caller]
pub fn no_derived_impl(tr: &str, ty: &str) -> ! {
    panic!(
        "`{ty}` implements `{tr}` without `#[derive_frule]` on its `impl`: it has no forward rules"
    )
}

/// A `dyn` value whose type's `impl` of the trait lacks `#[derive_frule]`: its table of
/// rules is missing (found at run time, since the type is known only then).
#[cold]
#[track_caller]
pub fn no_dyn_rules(tr: &str, method: &str) -> ! {
    panic!(
        "`{tr}::{method}` was called on a `dyn {tr}` whose type implements `{tr}` without `#[derive_frule]` on its `impl`, or with a generic `impl`: it has no forward rule"
    )
}

/// A value whose tangent in any mode is independent lanes of the tangent at a first-order
/// (`f64`) or second-order (`Hyper<f64, f64>`) lane, leaf by leaf ([`DynLanes`]): what a
/// method called on a `dyn` trait object takes and returns (floats, integers, `bool`,
/// library values, arrays, tuples, `Vec`s and `Option`s of them, and types with
/// `#[derive(Differentiable)]`, which implement it leaf by leaf).
#[diagnostic::on_unimplemented(
    message = "a method called on a trait object cannot take or return `{Self}`",
    label = "not differentiable through a `dyn` call",
    note = "through `dyn Trait` a method's arguments and result are floats, integers, `bool`, library values (nalgebra, glam, ndarray, `Complex`), arrays, tuples, `Vec`s and `Option`s of them, types with `#[derive(Differentiable)]` that do not contain themselves, and slices or references of these; take the value through a generic parameter (`fn f<M: Trait>(m: &M, ..)`) to call this one"
)]
pub trait LaneValue: Differentiable {
    /// Lane `k` of `t` (first order).
    fn lane1<S: Mode>(t: &Self::TangentIn<S>, k: usize) -> Self::TangentIn<f64>;
    /// Lane `k` of `t` (second order).
    fn lane2<S: Mode>(t: &Self::TangentIn<S>, k: usize) -> Self::TangentIn<Hyper<f64, f64>>;
    /// Sets lane `k` of `t` (first order).
    fn set_lane1<S: Mode>(t: &mut Self::TangentIn<S>, k: usize, v: &Self::TangentIn<f64>);
    /// Sets lane `k` of `t` (second order).
    fn set_lane2<S: Mode>(
        t: &mut Self::TangentIn<S>,
        k: usize,
        v: &Self::TangentIn<Hyper<f64, f64>>,
    );
}

impl LaneValue for f64 {
    #[inline(always)]
    fn lane1<S: Mode>(t: &S, k: usize) -> f64 {
        t.lane1(k)
    }
    #[inline(always)]
    fn lane2<S: Mode>(t: &S, k: usize) -> Hyper<f64, f64> {
        t.lane2(k)
    }
    #[inline(always)]
    fn set_lane1<S: Mode>(t: &mut S, k: usize, v: &f64) {
        t.set_lane1(k, *v);
    }
    #[inline(always)]
    fn set_lane2<S: Mode>(t: &mut S, k: usize, v: &Hyper<f64, f64>) {
        t.set_lane2(k, *v);
    }
}

/// An `f32`'s lanes are its mode's `f64` lanes: widening is exact, and a lane written back
/// holds an `f32` value, so narrowing the others again is exact too.
impl LaneValue for f32 {
    #[inline(always)]
    fn lane1<S: Mode>(t: &S::Of<f32>, k: usize) -> f32 {
        S::widen::<f32>(*t).lane1(k) as f32
    }
    #[inline(always)]
    fn lane2<S: Mode>(t: &S::Of<f32>, k: usize) -> Hyper<f32, f32> {
        let h = S::widen::<f32>(*t).lane2(k);
        <Hyper<f64, f64> as Mode>::cast::<f64, f32>(h)
    }
    #[inline(always)]
    fn set_lane1<S: Mode>(t: &mut S::Of<f32>, k: usize, v: &f32) {
        let mut w = S::widen::<f32>(*t);
        w.set_lane1(k, *v as f64);
        *t = S::narrow::<f32>(w);
    }
    #[inline(always)]
    fn set_lane2<S: Mode>(t: &mut S::Of<f32>, k: usize, v: &Hyper<f32, f32>) {
        let mut w = S::widen::<f32>(*t);
        w.set_lane2(k, <Hyper<f64, f64> as Mode>::widen::<f32>(*v));
        *t = S::narrow::<f32>(w);
    }
}

macro_rules! discrete_lanes {
    ($($t:ty),*) => {$(
        impl LaneValue for $t {
            #[inline(always)]
            fn lane1<S: Mode>(_: &NoTangent, _: usize) -> NoTangent {
                NoTangent
            }
            #[inline(always)]
            fn lane2<S: Mode>(_: &NoTangent, _: usize) -> NoTangent {
                NoTangent
            }
            #[inline(always)]
            fn set_lane1<S: Mode>(_: &mut NoTangent, _: usize, _: &NoTangent) {}
            #[inline(always)]
            fn set_lane2<S: Mode>(_: &mut NoTangent, _: usize, _: &NoTangent) {}
        }
    )*};
}
crate::differentiable::for_each_discrete_type!(discrete_lanes);

impl<T: LaneValue, const N: usize> LaneValue for [T; N] {
    #[inline]
    fn lane1<S: Mode>(t: &[T::TangentIn<S>; N], k: usize) -> [T::TangentIn<f64>; N] {
        core::array::from_fn(|i| T::lane1::<S>(&t[i], k))
    }
    #[inline]
    fn lane2<S: Mode>(t: &[T::TangentIn<S>; N], k: usize) -> [T::TangentIn<Hyper<f64, f64>>; N] {
        core::array::from_fn(|i| T::lane2::<S>(&t[i], k))
    }
    #[inline]
    fn set_lane1<S: Mode>(t: &mut [T::TangentIn<S>; N], k: usize, v: &[T::TangentIn<f64>; N]) {
        for (t, v) in t.iter_mut().zip(v) {
            T::set_lane1::<S>(t, k, v);
        }
    }
    #[inline]
    fn set_lane2<S: Mode>(
        t: &mut [T::TangentIn<S>; N],
        k: usize,
        v: &[T::TangentIn<Hyper<f64, f64>>; N],
    ) {
        for (t, v) in t.iter_mut().zip(v) {
            T::set_lane2::<S>(t, k, v);
        }
    }
}

#[cfg(feature = "alloc")]
impl<T: LaneValue> LaneValue for Vec<T> {
    fn lane1<S: Mode>(t: &Vec<T::TangentIn<S>>, k: usize) -> Vec<T::TangentIn<f64>> {
        t.iter().map(|t| T::lane1::<S>(t, k)).collect()
    }
    fn lane2<S: Mode>(t: &Vec<T::TangentIn<S>>, k: usize) -> Vec<T::TangentIn<Hyper<f64, f64>>> {
        t.iter().map(|t| T::lane2::<S>(t, k)).collect()
    }
    fn set_lane1<S: Mode>(t: &mut Vec<T::TangentIn<S>>, k: usize, v: &Vec<T::TangentIn<f64>>) {
        for (t, v) in t.iter_mut().zip(v) {
            T::set_lane1::<S>(t, k, v);
        }
    }
    fn set_lane2<S: Mode>(
        t: &mut Vec<T::TangentIn<S>>,
        k: usize,
        v: &Vec<T::TangentIn<Hyper<f64, f64>>>,
    ) {
        for (t, v) in t.iter_mut().zip(v) {
            T::set_lane2::<S>(t, k, v);
        }
    }
}

impl<T: LaneValue> LaneValue for Option<T> {
    #[inline]
    fn lane1<S: Mode>(t: &Option<T::TangentIn<S>>, k: usize) -> Option<T::TangentIn<f64>> {
        t.as_ref().map(|t| T::lane1::<S>(t, k))
    }
    #[inline]
    fn lane2<S: Mode>(
        t: &Option<T::TangentIn<S>>,
        k: usize,
    ) -> Option<T::TangentIn<Hyper<f64, f64>>> {
        t.as_ref().map(|t| T::lane2::<S>(t, k))
    }
    #[inline]
    fn set_lane1<S: Mode>(
        t: &mut Option<T::TangentIn<S>>,
        k: usize,
        v: &Option<T::TangentIn<f64>>,
    ) {
        if let (Some(t), Some(v)) = (t, v) {
            T::set_lane1::<S>(t, k, v);
        }
    }
    #[inline]
    fn set_lane2<S: Mode>(
        t: &mut Option<T::TangentIn<S>>,
        k: usize,
        v: &Option<T::TangentIn<Hyper<f64, f64>>>,
    ) {
        if let (Some(t), Some(v)) = (t, v) {
            T::set_lane2::<S>(t, k, v);
        }
    }
}

impl<T: LaneValue, E> LaneValue for Result<T, E> {
    #[inline]
    fn lane1<S: Mode>(
        t: &Result<T::TangentIn<S>, NoTangent>,
        k: usize,
    ) -> Result<T::TangentIn<f64>, NoTangent> {
        t.as_ref()
            .map(|t| T::lane1::<S>(t, k))
            .map_err(|_| NoTangent)
    }
    #[inline]
    fn lane2<S: Mode>(
        t: &Result<T::TangentIn<S>, NoTangent>,
        k: usize,
    ) -> Result<T::TangentIn<Hyper<f64, f64>>, NoTangent> {
        t.as_ref()
            .map(|t| T::lane2::<S>(t, k))
            .map_err(|_| NoTangent)
    }
    #[inline]
    fn set_lane1<S: Mode>(
        t: &mut Result<T::TangentIn<S>, NoTangent>,
        k: usize,
        v: &Result<T::TangentIn<f64>, NoTangent>,
    ) {
        if let (Ok(t), Ok(v)) = (t, v) {
            T::set_lane1::<S>(t, k, v);
        }
    }
    #[inline]
    fn set_lane2<S: Mode>(
        t: &mut Result<T::TangentIn<S>, NoTangent>,
        k: usize,
        v: &Result<T::TangentIn<Hyper<f64, f64>>, NoTangent>,
    ) {
        if let (Ok(t), Ok(v)) = (t, v) {
            T::set_lane2::<S>(t, k, v);
        }
    }
}

macro_rules! lane_tuple {
    ($($T:ident $_t:ident $i:tt),+) => {
        impl<$($T: LaneValue),+> LaneValue for ($($T,)+) {
            #[inline]
            fn lane1<S: Mode>(t: &($($T::TangentIn<S>,)+), k: usize) -> ($($T::TangentIn<f64>,)+) {
                ($($T::lane1::<S>(&t.$i, k),)+)
            }
            #[inline]
            fn lane2<S: Mode>(
                t: &($($T::TangentIn<S>,)+),
                k: usize,
            ) -> ($($T::TangentIn<Hyper<f64, f64>>,)+) {
                ($($T::lane2::<S>(&t.$i, k),)+)
            }
            #[inline]
            fn set_lane1<S: Mode>(t: &mut ($($T::TangentIn<S>,)+), k: usize, v: &($($T::TangentIn<f64>,)+)) {
                $($T::set_lane1::<S>(&mut t.$i, k, &v.$i);)+
            }
            #[inline]
            fn set_lane2<S: Mode>(
                t: &mut ($($T::TangentIn<S>,)+),
                k: usize,
                v: &($($T::TangentIn<Hyper<f64, f64>>,)+),
            ) {
                $($T::set_lane2::<S>(&mut t.$i, k, &v.$i);)+
            }
        }
    };
}
crate::for_tuples!(lane_tuple);

/// Lane `k` of the tangent of a `&[T]` argument, copied (first order).
#[cfg(feature = "alloc")]
pub fn slice_lanes1<T: LaneValue, S: Mode>(
    t: &[T::TangentIn<S>],
    k: usize,
) -> Vec<T::TangentIn<f64>> {
    t.iter().map(|t| T::lane1::<S>(t, k)).collect()
}

/// Lane `k` of the tangent of a `&[T]` argument, copied (second order).
#[cfg(feature = "alloc")]
pub fn slice_lanes2<T: LaneValue, S: Mode>(
    t: &[T::TangentIn<S>],
    k: usize,
) -> Vec<T::TangentIn<Hyper<f64, f64>>> {
    t.iter().map(|t| T::lane2::<S>(t, k)).collect()
}

/// Writes lane `k` of a `&mut [T]` argument's tangent back (first order).
pub fn set_slice_lanes1<T: LaneValue, S: Mode>(
    t: &mut [T::TangentIn<S>],
    k: usize,
    v: &[T::TangentIn<f64>],
) {
    for (t, v) in t.iter_mut().zip(v) {
        T::set_lane1::<S>(t, k, v);
    }
}

/// Writes lane `k` of a `&mut [T]` argument's tangent back (second order).
pub fn set_slice_lanes2<T: LaneValue, S: Mode>(
    t: &mut [T::TangentIn<S>],
    k: usize,
    v: &[T::TangentIn<Hyper<f64, f64>>],
) {
    for (t, v) in t.iter_mut().zip(v) {
        T::set_lane2::<S>(t, k, v);
    }
}

/// The lanes of a `&mut` argument's tangent, all cut before the first lane runs: a lane
/// writes its part back after it, and the second-order part `d2` is shared by all lanes, so
/// a later lane must read the argument's tangent as it came, not as an earlier lane left it.
#[cfg(feature = "alloc")]
pub struct PreLanes<A, B> {
    first: crate::alloc_paths::vec::IntoIter<A>,
    second: crate::alloc_paths::vec::IntoIter<B>,
}

/// [`PreLanes`] in mode `S`, lane `k` cut by `f1(k)` (first order) or `f2(k)` (second).
#[cfg(feature = "alloc")]
pub fn pre_lanes<S: Mode, A, B>(
    f1: impl Fn(usize) -> A,
    f2: impl Fn(usize) -> B,
) -> PreLanes<A, B> {
    let n = S::DYN_LANES;
    let (first, second): (Vec<A>, Vec<B>) = match S::DYN_SECOND {
        true => (Vec::new(), (0..n).map(f2).collect()),
        false => ((0..n).map(f1).collect(), Vec::new()),
    };
    PreLanes {
        first: first.into_iter(),
        second: second.into_iter(),
    }
}

#[cfg(feature = "alloc")]
impl<A, B> PreLanes<A, B> {
    /// The next first-order lane.
    #[inline]
    pub fn next1(&mut self) -> A {
        match self.first.next() {
            Some(a) => a,
            None => unsupported("in a mode without lanes"),
        }
    }
    /// The next second-order lane.
    #[inline]
    pub fn next2(&mut self) -> B {
        match self.second.next() {
            Some(b) => b,
            None => unsupported("in a mode without lanes"),
        }
    }
}

/// A `dyn` call's result assembled lane by lane: the first lane sizes the tangent from the
/// primal (`ZeroTangent`), each lane writes its part.
pub struct LaneResult<R: Differentiable, S: Mode> {
    primal: Option<R>,
    tangent: Option<R::TangentIn<S>>,
}

impl<R: LaneValue + ZeroTangent, S: Mode> LaneResult<R, S> {
    /// No lane yet.
    #[inline(always)]
    pub fn new() -> Self {
        LaneResult {
            primal: None,
            tangent: None,
        }
    }
    /// Lane `k`'s result (first order).
    #[inline]
    pub fn put1(&mut self, k: usize, r: Dual<R, R::TangentIn<f64>>) {
        let t = self
            .tangent
            .get_or_insert_with(|| r.primal.zero_tangent_in::<S>());
        R::set_lane1::<S>(t, k, &r.tangent);
        self.primal = Some(r.primal);
    }
    /// Lane `k`'s result (second order).
    #[inline]
    pub fn put2(&mut self, k: usize, r: Dual<R, R::TangentIn<Hyper<f64, f64>>>) {
        let t = self
            .tangent
            .get_or_insert_with(|| r.primal.zero_tangent_in::<S>());
        R::set_lane2::<S>(t, k, &r.tangent);
        self.primal = Some(r.primal);
    }
    /// The assembled dual (a mode has at least one lane: [`check_dyn_mode`]).
    #[inline]
    pub fn finish(self) -> Dual<R, R::TangentIn<S>> {
        match (self.primal, self.tangent) {
            (Some(p), Some(t)) => Dual::new(p, t),
            _ => unsupported("in a mode without lanes"),
        }
    }
}

impl<R: LaneValue + ZeroTangent, S: Mode> Default for LaneResult<R, S> {
    fn default() -> Self {
        Self::new()
    }
}

/// The table of a trait's rules at the two lane modes, which a `dyn Trait` value gives
/// for its type (implemented by `dyn Trait` for each trait with `#[derive_frule]`).
pub trait DynTable {
    /// The generated table struct.
    type Table: Copy;
}

// A receiver reaching a `dyn Trait` through a box or a reference (`Box<dyn Trait>`, an
// element of `&[Box<dyn Trait>]` or `&[&dyn Trait]`) converted to the `&dyn Trait` dual the
// method's rule takes (`&dyn Trait` itself converts as every `&P` receiver does). A box of
// a sized type (the children of a recursive `enum Expr { Add(Box<Expr>, Box<Expr>), .. }`)
// converts to the `&Expr` dual in the same way.
mod coerce {
    #[cfg(feature = "alloc")]
    use crate::alloc_paths::Box;
    use crate::differentiable::Differentiable;
    use crate::dual::Dual;
    use crate::frule::CoerceTo;

    #[cfg(feature = "alloc")]
    impl<'a, D: ?Sized + Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a D, &'a T>>
        for &'a mut Dual<Box<D>, Box<T>>
    {
        #[inline(always)]
        fn coerce(self) -> Dual<&'a D, &'a T> {
            Dual::new(&*self.primal, &*self.tangent)
        }
    }
    #[cfg(feature = "alloc")]
    impl<'a, 'c: 'a, D: ?Sized + Differentiable + 'c, T: 'c> CoerceTo<Dual<&'a D, &'a T>>
        for &'a mut Dual<&'c Box<D>, &'c Box<T>>
    {
        #[inline(always)]
        fn coerce(self) -> Dual<&'a D, &'a T> {
            Dual::new(&**self.primal, &**self.tangent)
        }
    }
    // `for b in bodies.iter_mut() { b.update(dt, g); }` over `Vec<Box<dyn Body>>`: the
    // `&mut dyn Body` dual a `&mut self` method's rule takes.
    #[cfg(feature = "alloc")]
    impl<'a, 'c: 'a, D: ?Sized + Differentiable + 'c, T: 'c> CoerceTo<Dual<&'a mut D, &'a mut T>>
        for &'a mut Dual<&'c mut Box<D>, &'c mut Box<T>>
    {
        #[inline(always)]
        fn coerce(self) -> Dual<&'a mut D, &'a mut T> {
            Dual::new(&mut **self.primal, &mut **self.tangent)
        }
    }
    // `bodies[0].energy(g)` on a `mut` vector of boxes: its element is reached through a
    // `&mut` borrow, and the `&self` method's rule takes the `&dyn Body` dual.
    #[cfg(feature = "alloc")]
    impl<'a, 'c: 'a, D: ?Sized + Differentiable + 'c, T: 'c> CoerceTo<Dual<&'a D, &'a T>>
        for &'a mut Dual<&'c mut Box<D>, &'c mut Box<T>>
    {
        #[inline(always)]
        fn coerce(self) -> Dual<&'a D, &'a T> {
            Dual::new(&**self.primal, &**self.tangent)
        }
    }
    #[cfg(feature = "alloc")]
    impl<'a, D: ?Sized + Differentiable + 'a, T: 'a> CoerceTo<Dual<&'a mut D, &'a mut T>>
        for &'a mut Dual<Box<D>, Box<T>>
    {
        #[inline(always)]
        fn coerce(self) -> Dual<&'a mut D, &'a mut T> {
            Dual::new(&mut *self.primal, &mut *self.tangent)
        }
    }
    // Also a reference to a struct read from a field (`self.geoid.area()` with
    // `geoid: &'a Geodesic`), whatever the referent.
    impl<'a, 'c: 'a, 'd: 'c, D: ?Sized + Differentiable + 'd, T: 'd> CoerceTo<Dual<&'a D, &'a T>>
        for &'a mut Dual<&'c &'d D, &'c &'d T>
    {
        #[inline(always)]
        fn coerce(self) -> Dual<&'a D, &'a T> {
            Dual::new(*self.primal, *self.tangent)
        }
    }
}

/// A value that depends on the differentiated inputs, boxed as a trait object in a derived
/// body (`let shapes: Vec<Box<dyn Sdf>> = vec![Box::new(Sphere { r }), ..];`): the value
/// with its tangent, cut into the lanes of the mode the rule runs in ([`DynLanes`]). A trait
/// object's own tangent is `NoTangent`, so the derivative travels inside the object: the
/// trait's expansion wraps this in a type of its own that implements the trait by
/// delegating to `value`, and whose `__fwdad_dyn_lane` gives a `dyn` call the lane of its
/// receiver's tangent (a constant object gives none: its tangent is zero).
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub struct Carried<P: Differentiable> {
    /// The value.
    pub value: P,
    /// The mode the lanes were cut in: read in another (the object escaped the rule that
    /// built it), it is a constant.
    mode: core::any::TypeId,
    first: Vec<P::TangentIn<f64>>,
    second: Vec<P::TangentIn<Hyper<f64, f64>>>,
}

#[cfg(feature = "alloc")]
impl<P: LaneValue + 'static> Carried<P> {
    /// `x` with its tangent's lanes in mode `S`.
    #[inline]
    pub fn new<S: Mode>(x: Dual<P, P::TangentIn<S>>) -> Self {
        check_dyn_mode::<S>();
        let n = S::DYN_LANES;
        let (first, second) = match S::DYN_SECOND {
            true => (
                Vec::new(),
                (0..n).map(|k| P::lane2::<S>(&x.tangent, k)).collect(),
            ),
            false => (
                (0..n).map(|k| P::lane1::<S>(&x.tangent, k)).collect(),
                Vec::new(),
            ),
        };
        Carried {
            value: x.primal,
            mode: core::any::TypeId::of::<S>(),
            first,
            second,
        }
    }

    /// Lane `k` of the value's tangent in the mode `mode` (`P::TangentIn<f64>`, or
    /// `P::TangentIn<Hyper<f64, f64>>` when `second`), if the lanes were cut in it.
    #[inline]
    pub fn lane(
        &self,
        mode: core::any::TypeId,
        second: bool,
        k: usize,
    ) -> Option<&dyn core::any::Any> {
        if mode != self.mode {
            return None;
        }
        match second {
            true => self.second.get(k).map(|t| t as &dyn core::any::Any),
            false => self.first.get(k).map(|t| t as &dyn core::any::Any),
        }
    }

    /// Lane `k` of the value's tangent, to be written by a `&mut self` method, with the
    /// value; `None` for the lane when read in another mode.
    #[inline]
    pub fn lane_mut(
        &mut self,
        mode: core::any::TypeId,
        second: bool,
        k: usize,
    ) -> (&mut P, Option<&mut dyn core::any::Any>) {
        let lane = match (mode == self.mode, second) {
            (false, _) => None,
            (true, true) => self.second.get_mut(k).map(|t| t as &mut dyn core::any::Any),
            (true, false) => self.first.get_mut(k).map(|t| t as &mut dyn core::any::Any),
        };
        (&mut self.value, lane)
    }
}

#[cfg(feature = "alloc")]
impl<P: Differentiable + core::fmt::Debug> core::fmt::Debug for Carried<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.value.fmt(f)
    }
}

/// A copy of a trait object's value, restored before each lane after the first of a
/// `&mut self` method called through `dyn` (each lane runs the whole method on the value
/// as it was): `Some` for a `Clone` type, found by autoref at the derived `impl`, where the
/// type is known (`(&DynSnapshot(self)).dyn_snapshot()`).
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub type Restore = crate::alloc_paths::Box<dyn Fn(&mut dyn core::any::Any)>;

/// See [`Restore`].
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub struct DynSnapshot<'a, T>(pub &'a T);

/// See [`Restore`]: a `Clone` type's copy.
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub trait DynSnapshotClone {
    /// The copy, and how to put it back.
    fn dyn_snapshot(&self) -> Option<Restore>;
}
#[cfg(feature = "alloc")]
impl<T: Clone + 'static> DynSnapshotClone for DynSnapshot<'_, T> {
    fn dyn_snapshot(&self) -> Option<Restore> {
        let v = self.0.clone();
        Some(crate::alloc_paths::Box::new(
            move |dst: &mut dyn core::any::Any| {
                if let Some(d) = dst.downcast_mut::<T>() {
                    *d = v.clone();
                }
            },
        ))
    }
}

/// See [`Restore`]: any other type has none.
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub trait DynSnapshotNone {
    /// No copy.
    fn dyn_snapshot(&self) -> Option<Restore> {
        None
    }
}
#[cfg(feature = "alloc")]
impl<T> DynSnapshotNone for &DynSnapshot<'_, T> {}

/// A `&mut self` method called through `dyn` in a mode of several lanes on a value whose
/// type is not `Clone`: each lane runs the method on the value as it was, which needs a copy.
#[cold]
#[track_caller]
pub fn dyn_mut_needs_clone(tr: &str, method: &str) -> ! {
    panic!(
        "`{tr}::{method}` takes `&mut self` and was called through `dyn {tr}` in a batch of directions or at second order: the type behind the trait object must be `Clone` (each direction runs the method on the value as it was); derive `Clone` for it, or call it through a generic parameter (`fn f<T: {tr}>(t: &mut T, ..)`)"
    )
}

/// A `&mut self` method called through `dyn` on a trait object that carries no tangent (one
/// passed in, or built from constants outside a derived body): what it stores in the value
/// would lose its derivative.
#[cold]
#[track_caller]
pub fn dyn_mut_of_constant(tr: &str, method: &str) -> ! {
    panic!(
        "`{tr}::{method}` takes `&mut self` and was called through `dyn {tr}` on a trait object that carries no derivative (one passed in from outside the differentiated function): what the method stores in it would lose its derivative; box the values in the differentiated function (`let bodies: Vec<Box<dyn {tr}>> = vec![Box::new(..), ..];`), or take them through a generic parameter (`fn f<T: {tr}>(t: &mut T, ..)`)"
    )
}

/// Trait objects passed in to a derived function (`fn step_all(bodies: &mut [Box<dyn
/// Body>], dt: f64)`, `fn advance(b: &mut dyn Body, dt: f64)`) carry no tangent: they are
/// constants where they come from. A `&mut self` method called on one through `dyn` with
/// arguments that depend on the inputs stores values that do; the tangent of the object's
/// state then lives here, beside it, keyed by the object's address and type, the mode and
/// the lane, for as long as the outermost derived function taking such a parameter runs
/// (its [`DynScope`]), and later calls on the object (`&self` or `&mut self`) read it.
/// Without `std` (no thread-local) there is no such place, and the call panics as before
/// ([`dyn_mut_of_constant`]).
#[doc(hidden)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SideKey {
    addr: usize,
    ty: core::any::TypeId,
    mode: core::any::TypeId,
    second: bool,
    k: usize,
}

impl SideKey {
    /// The key of the value `v` (a trait object's value as `&dyn Any`) at lane `k`.
    #[inline]
    pub fn of(v: &dyn core::any::Any, mode: core::any::TypeId, second: bool, k: usize) -> Self {
        SideKey {
            addr: v as *const dyn core::any::Any as *const () as usize,
            ty: core::any::Any::type_id(v),
            mode,
            second,
            k,
        }
    }
}

#[cfg(feature = "std")]
mod side {
    use super::SideKey;
    use crate::alloc_paths::{Box, Vec};
    use core::cell::{Cell, RefCell};

    thread_local! {
        /// How many [`super::DynScope`]s are open on this thread.
        pub(super) static DEPTH: Cell<usize> = const { Cell::new(0) };
        /// The lanes of the passed-in objects' tangents, while a scope is open.
        pub(super) static LANES: RefCell<Vec<(SideKey, Box<dyn core::any::Any>)>> =
            const { RefCell::new(Vec::new()) };
        /// How many lanes were made for objects that had none (a count [`super::DynLend`]
        /// compares, without copying the keys).
        pub(super) static MADE: Cell<usize> = const { Cell::new(0) };
        /// Whether `LANES` may hold a lane: set by `put`, cleared when the outermost scope
        /// empties it. A plain word, so that closing a scope that stored nothing (a
        /// `DynLend` around a user method called in a loop) reads no `RefCell` and no
        /// thread-local with a destructor.
        pub(super) static HELD: Cell<bool> = const { Cell::new(false) };
    }

    pub(super) fn made() -> usize {
        MADE.try_with(Cell::get).unwrap_or(0)
    }

    pub(super) fn count_made() {
        let _ = MADE.try_with(|m| m.set(m.get().wrapping_add(1)));
    }

    pub(super) fn active() -> bool {
        DEPTH.try_with(|d| d.get() > 0).unwrap_or(false)
    }

    pub(super) fn take(key: &SideKey) -> Option<Box<dyn core::any::Any>> {
        LANES
            .try_with(|l| {
                let mut l = l.borrow_mut();
                let i = l.iter().position(|(k, _)| k == key)?;
                Some(l.swap_remove(i).1)
            })
            .ok()
            .flatten()
    }

    /// Drops the lanes of the object at `addr` (whatever its type, mode and lane).
    pub(super) fn forget(addr: usize) {
        let _ = LANES.try_with(|l| {
            if let Ok(mut l) = l.try_borrow_mut() {
                l.retain(|(k, _)| k.addr != addr);
            }
        });
    }

    pub(super) fn put(key: SideKey, lane: Box<dyn core::any::Any>) {
        if active() {
            let _ = LANES.try_with(|l| l.borrow_mut().push((key, lane)));
            let _ = HELD.try_with(|h| h.set(true));
        }
    }

    /// Empties `LANES` if it may hold a lane (a read of `HELD` only, when it cannot).
    pub(super) fn clear() {
        if HELD.try_with(|h| h.get()).unwrap_or(true) {
            let _ = HELD.try_with(|h| h.set(false));
            let lanes = LANES
                .try_with(|l| core::mem::take(&mut *l.borrow_mut()))
                .unwrap_or_default();
            drop(lanes);
        }
    }
}

/// Opened on entry to a derived function with a parameter that lends trait objects
/// mutably (`&mut dyn Body`, `&mut [Box<dyn Body>]`, `&mut Vec<Box<dyn Body>>`); the
/// tangents of passed-in objects ([`SideKey`]) are dropped when the outermost one closes.
#[doc(hidden)]
pub struct DynScope(());

impl DynScope {
    /// Opens a scope.
    #[inline]
    pub fn enter() -> Self {
        #[cfg(feature = "std")]
        let _ = side::DEPTH.try_with(|d| d.set(d.get() + 1));
        DynScope(())
    }
}

impl Drop for DynScope {
    #[inline]
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        {
            let last = side::DEPTH
                .try_with(|d| {
                    let n = d.get().saturating_sub(1);
                    d.set(n);
                    n == 0
                })
                .unwrap_or(false);
            if last {
                side::clear();
            }
        }
    }
}

/// Held around a call in a derived function that lends a value it holds without a
/// tangent, of a type the macro does not see through, to a derived function or method
/// (`let mut bodies = scene(); step_all(&mut bodies, dt, g);`, `w.run(g)` on a local `w`).
/// If that value holds trait objects, what the callee's `&mut self` calls through `dyn`
/// stored in them has its tangent beside them ([`SideLane`]): dropped when the outermost
/// [`DynScope`] closes, so the caller, which may call them again, would find none; kept
/// by an enclosing scope, it would outlive an object freed meanwhile (a scene made afresh
/// in a loop) and be found by the next one allocated at its address. A tangent the call
/// made for an object without one before it then panics
/// ([`lent_objects_lose_their_derivative`]). It is a scope itself, for that check.
#[doc(hidden)]
pub struct DynLend {
    /// [`side::MADE`] on entry: a lane made during the call is one for an object that had
    /// none (a count, so that the guard costs two thread-local reads, not a copy of keys).
    #[cfg(feature = "std")]
    before: usize,
    /// [`side::DEPTH`] on entry, restored on drop (scopes nest, so this is its value less
    /// one): a store of a value held in a register, not a second read-modify-write of the
    /// thread-local, which a user method called under the guard in a loop would wait on
    /// every iteration.
    #[cfg(feature = "std")]
    depth: usize,
}

impl DynLend {
    /// Opens it.
    #[inline]
    pub fn enter() -> Self {
        #[cfg(feature = "std")]
        {
            let before = side::made();
            let depth = side::DEPTH.try_with(core::cell::Cell::get).unwrap_or(0);
            let _ = side::DEPTH.try_with(|d| d.set(depth + 1));
            DynLend { before, depth }
        }
        #[cfg(not(feature = "std"))]
        DynLend {}
    }
}

impl Drop for DynLend {
    #[inline]
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        {
            let made = side::made() != self.before;
            let _ = side::DEPTH.try_with(|d| d.set(self.depth));
            if self.depth == 0 {
                side::clear();
            }
            if made {
                lent_check();
            }
        }
    }
}

/// [`DynLend`]'s panic, unless the thread is unwinding already: out of line, off the path
/// of a guard whose call made no lane.
#[cfg(feature = "std")]
#[cold]
#[inline(never)]
fn lent_check() {
    if !std::thread::panicking() {
        lent_objects_lose_their_derivative();
    }
}

/// See [`DynLend`].
#[cold]
#[inline(never)]
#[doc(hidden)]
pub fn lent_objects_lose_their_derivative() -> ! {
    panic!(
        "trait objects that carry no derivative (built by a plain function, `let mut bodies = scene();`, or held in such a value) were lent to a differentiated function whose `&mut self` calls through `dyn` stored values depending on the differentiated inputs in them, and the differentiated function that lent them may read them again, where that derivative would be lost: build the objects in the differentiated function (`let bodies: Vec<Box<dyn Body>> = vec![Box::new(Ball {{ .. }}), ..];`, or a function returning `Box<dyn Body>` with `#[derive_frule]`), or take them as a `&mut` parameter of it (`fn f(bodies: &mut [Box<dyn Body>], ..)`)"
    )
}

/// A value about to be overwritten in a place of a parameter that holds trait objects
/// (`bodies[i] = fresh_ball();` with `bodies: &mut Vec<Box<dyn Body>>`): the object it
/// holds dies, and the tangent its `&mut self` calls stored beside it ([`SideLane`]) must
/// not be found by the next object allocated at its address (the new one, often). By
/// autoref: `(&&Forget(&old)).forget_lanes()` is [`ForgetBoxedLanes`]'s for a box or a
/// `Vec` of boxes, [`ForgetNoLanes`]'s (nothing) for anything else.
#[doc(hidden)]
pub struct Forget<'a, T: ?Sized>(pub &'a T);

#[doc(hidden)]
pub trait ForgetBoxedLanes {
    fn forget_lanes(&self);
}

#[cfg(feature = "alloc")]
impl<U: ?Sized> ForgetBoxedLanes for &Forget<'_, crate::alloc_paths::Box<U>> {
    #[inline]
    fn forget_lanes(&self) {
        #[cfg(feature = "std")]
        side::forget(&**self.0 as *const U as *const () as usize);
    }
}

#[cfg(feature = "alloc")]
impl<U: ?Sized> ForgetBoxedLanes
    for &Forget<'_, crate::alloc_paths::Vec<crate::alloc_paths::Box<U>>>
{
    #[inline]
    fn forget_lanes(&self) {
        #[cfg(feature = "std")]
        for b in self.0.iter() {
            side::forget(&**b as *const U as *const () as usize);
        }
    }
}

#[doc(hidden)]
pub trait ForgetNoLanes {
    fn forget_lanes(&self);
}

impl<T: ?Sized> ForgetNoLanes for Forget<'_, T> {
    #[inline]
    fn forget_lanes(&self) {}
}

/// Opened on entry to a derived function taking trait objects by value (`fn settle(mut
/// bodies: Vec<Box<dyn Body>>, ..)`, `b: Box<dyn Body>`). Objects that come without a
/// tangent (built by a plain function: `settle(scene(), g, dt)`) keep what their `&mut
/// self` calls through `dyn` store beside them ([`SideLane`]), keyed by address; the
/// function owns them, so they are freed when it returns, but the lanes stay while an
/// enclosing scope is open, and the next objects allocated at their addresses (the next
/// `settle(scene(), ..)`) would start from them. It is a scope itself: the outermost one,
/// its lanes are dropped when it closes, which is right when the objects die with the
/// call. A lane made during the call then panics when an enclosing scope was open on
/// entry, or when the function may return the objects (`keeps`), whose derivative would
/// be lost ([`moved_objects_lose_their_derivative`]).
#[doc(hidden)]
pub struct DynOwned {
    #[cfg(feature = "std")]
    before: usize,
    #[cfg(feature = "std")]
    panics: bool,
}

impl DynOwned {
    /// Opens it; `keeps`: the function's result may hold the objects.
    #[inline]
    pub fn enter(keeps: bool) -> Self {
        #[cfg(feature = "std")]
        {
            let before = side::made();
            let outer = side::active();
            let _ = side::DEPTH.try_with(|d| d.set(d.get() + 1));
            DynOwned {
                before,
                panics: outer || keeps,
            }
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = keeps;
            DynOwned {}
        }
    }
}

impl Drop for DynOwned {
    #[inline]
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        {
            let made = side::made() != self.before;
            drop(DynScope(()));
            if made && self.panics && !std::thread::panicking() {
                moved_objects_lose_their_derivative();
            }
        }
    }
}

/// See [`DynOwned`].
#[cold]
#[inline(never)]
#[doc(hidden)]
pub fn moved_objects_lose_their_derivative() -> ! {
    panic!(
        "trait objects that carry no derivative (built by a plain function, `settle(scene(), ..)`) were moved into a differentiated function whose `&mut self` calls through `dyn` stored values depending on the differentiated inputs in them, inside another differentiated function that keeps such derivatives (or returning the objects): that derivative would outlive the objects and be found by the next ones allocated at their addresses (or be lost with the result): build the objects in the differentiated function (`let bodies: Vec<Box<dyn Body>> = vec![Box::new(Ball {{ .. }}), ..];`, or a function returning `Box<dyn Body>` with `#[derive_frule]`), or pass objects the caller keeps as a `&mut` parameter (`fn f(bodies: &mut [Box<dyn Body>], ..)`)"
    )
}

/// The lane of a passed-in trait object's tangent taken out of its [`DynScope`] for one
/// `dyn` call, and put back when dropped.
#[doc(hidden)]
pub struct SideLane {
    #[cfg(feature = "std")]
    key: SideKey,
    #[cfg(feature = "std")]
    lane: Option<crate::alloc_paths::Box<dyn core::any::Any>>,
    #[cfg(not(feature = "std"))]
    never: core::convert::Infallible,
}

impl SideLane {
    /// The lane stored for the value `v` (`None`: no scope, or a zero tangent).
    #[inline]
    pub fn take(
        v: &dyn core::any::Any,
        mode: core::any::TypeId,
        second: bool,
        k: usize,
    ) -> Option<Self> {
        #[cfg(feature = "std")]
        {
            if !side::active() {
                return None;
            }
            let key = SideKey::of(v, mode, second, k);
            side::take(&key).map(|lane| SideLane {
                key,
                lane: Some(lane),
            })
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = (v, mode, second, k);
            None
        }
    }

    /// The lane stored for the value `v`, or the zero lane `zero` gives when none is
    /// (`None`: no scope).
    #[cfg(feature = "alloc")]
    #[inline]
    pub fn take_or(
        v: &dyn core::any::Any,
        mode: core::any::TypeId,
        second: bool,
        k: usize,
        zero: impl FnOnce() -> Option<crate::alloc_paths::Box<dyn core::any::Any>>,
    ) -> Option<Self> {
        #[cfg(feature = "std")]
        {
            if !side::active() {
                return None;
            }
            let key = SideKey::of(v, mode, second, k);
            let lane = match side::take(&key) {
                Some(lane) => lane,
                None => {
                    let lane = zero()?;
                    side::count_made();
                    lane
                }
            };
            Some(SideLane {
                key,
                lane: Some(lane),
            })
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = (v, mode, second, k, zero);
            None
        }
    }

    /// The lane, to read.
    #[inline]
    pub fn get(&self) -> Option<&dyn core::any::Any> {
        #[cfg(feature = "std")]
        {
            self.lane.as_deref()
        }
        #[cfg(not(feature = "std"))]
        match self.never {}
    }

    /// The lane, to write.
    #[inline]
    pub fn get_mut(&mut self) -> Option<&mut dyn core::any::Any> {
        #[cfg(feature = "std")]
        {
            self.lane.as_deref_mut()
        }
        #[cfg(not(feature = "std"))]
        match self.never {}
    }
}

impl Drop for SideLane {
    #[inline]
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        if let Some(lane) = self.lane.take() {
            side::put(self.key, lane);
        }
    }
}

/// A zero lane of a trait object's value's tangent, found by autoref at the derived
/// `impl`, where the type is known (`(&ZeroLaneOf(self)).zero_lane(second)`): `Some` for a
/// type with tangents ([`zero_lane`]), `None` for any other (whose `impl` has its own
/// error already).
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub struct ZeroLaneOf<'a, T>(pub &'a T);

/// See [`ZeroLaneOf`]: a type with tangents.
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub trait ZeroLaneSome {
    /// The zero lane.
    fn zero_lane(&self, second: bool) -> Option<crate::alloc_paths::Box<dyn core::any::Any>>;
}
#[cfg(feature = "alloc")]
impl<T: ZeroTangent + 'static> ZeroLaneSome for ZeroLaneOf<'_, T>
where
    T::TangentIn<f64>: 'static,
    T::TangentIn<Hyper<f64, f64>>: 'static,
{
    #[inline]
    fn zero_lane(&self, second: bool) -> Option<crate::alloc_paths::Box<dyn core::any::Any>> {
        Some(zero_lane(self.0, second))
    }
}

/// See [`ZeroLaneOf`]: any other type has none.
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub trait ZeroLaneNone {
    /// No zero lane.
    fn zero_lane(&self, second: bool) -> Option<crate::alloc_paths::Box<dyn core::any::Any>> {
        let _ = second;
        None
    }
}
#[cfg(feature = "alloc")]
impl<T> ZeroLaneNone for &ZeroLaneOf<'_, T> {}

/// A zero lane of `p`'s tangent (first order, or second when `second`), boxed.
#[cfg(feature = "alloc")]
#[doc(hidden)]
#[inline]
pub fn zero_lane<P: ZeroTangent + 'static>(
    p: &P,
    second: bool,
) -> crate::alloc_paths::Box<dyn core::any::Any>
where
    P::TangentIn<f64>: 'static,
    P::TangentIn<Hyper<f64, f64>>: 'static,
{
    match second {
        true => crate::alloc_paths::Box::new(p.zero_tangent_in::<Hyper<f64, f64>>()),
        false => crate::alloc_paths::Box::new(p.zero_tangent_in::<f64>()),
    }
}
