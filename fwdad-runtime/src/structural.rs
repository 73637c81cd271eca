//! Structural rules: building, reading and writing composite duals.
//!
//! Generated code uses these where the primal builds a tuple or array, indexes a slice,
//! reads a field through a reference, writes a buffer, or iterates over a slice: the
//! primal operation is applied to `primal` and the same one to `tangent`, so the tangent
//! mirrors the primal's shape exactly.

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::{Dual, DualSlice, DualSliceMut};
use crate::real::Real;
use crate::tangent::{Mode, ScalarTangent};
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::vec::Vec;

/// `x[i]` of a slice-like dual, by value.
///
/// # Panics
/// If `i` is out of bounds, as the primal's indexing would.
#[inline(always)]
pub fn index<D: DualSlice>(x: &D, i: usize) -> Dual<D::Elem, D::TElem>
where
    D::Elem: Copy,
    D::TElem: Copy,
{
    let (p, t) = same_len(x.primal_slice(), x.tangent_slice());
    Dual::new(p[i], t[i])
}

/// `x[i]` of a slice parameter's dual, the element and its tangent by reference (into
/// the caller's slices): a batched rule's linearised body reads an element root so, and
/// each lane update loads the root's lanes where it needs them rather than from a copy
/// made at the read (`emit::reads_element_by_ref` in the macro).
///
/// # Panics
/// If `i` is out of bounds, as the primal's indexing would.
#[inline(always)]
pub fn index_ref<'a, 'b, F: Differentiable, T>(
    x: &Dual<&'a [F], &'b [T]>,
    i: usize,
) -> Dual<&'a F, &'b T> {
    let (p, t) = same_len(x.primal, x.tangent);
    Dual::new(&p[i], &t[i])
}

/// The two slices cut to one length, so that indexing both at `i` costs one bounds check:
/// after this, the compiler knows `t.len() == p.len()` (a dual's tangent has its primal's
/// length by construction, so nothing is lost).
#[inline(always)]
fn same_len<'a, 'b, P, T>(p: &'a [P], t: &'b [T]) -> (&'a [P], &'b [T]) {
    let n = p.len().min(t.len());
    (&p[..n], &t[..n])
}

/// A slice argument's dual with its tangent cut to the primal's length, once on entry to
/// a derived rule: the compiler then knows the two have one length, so that an access
/// `x[i]` costs the primal's bounds check only (which the primal's loop bounds often
/// remove), not a second one for the tangent. A tangent shorter than its primal (a dual
/// built by hand, `Dual::new(&x, &dx)` with `dx` too short) panics here, as its first
/// access past the end would.
#[doc(hidden)]
pub trait FitTangent {
    /// `self` with the tangent cut to the primal's length.
    fn fit(self) -> Self;
}

impl<'a, E: Differentiable + 'a, T> FitTangent for Dual<&'a [E], &'a [T]> {
    #[inline(always)]
    fn fit(self) -> Self {
        let n = self.primal.len();
        Dual::new(self.primal, &self.tangent[..n])
    }
}

impl<'a, E: Differentiable + 'a, T> FitTangent for Dual<&'a mut [E], &'a mut [T]> {
    #[inline(always)]
    fn fit(self) -> Self {
        let n = self.primal.len();
        Dual::new(self.primal, &mut self.tangent[..n])
    }
}

/// See [`FitTangent`].
#[doc(hidden)]
#[inline(always)]
pub fn fit<D: FitTangent>(x: D) -> D {
    x.fit()
}

/// `x[i] = v` on a slice-like dual: the primal gets `v.primal`, the tangent `v.tangent`.
///
/// # Panics
/// If `i` is out of bounds, as the primal's indexing would.
#[inline(always)]
pub fn store_index<D: DualSliceMut>(x: &mut D, i: usize, v: Dual<D::Elem, D::TElem>) {
    let (p, t) = x.slices_mut();
    let n = p.len().min(t.len());
    let (p, t) = (&mut p[..n], &mut t[..n]);
    p[i] = v.primal;
    t[i] = v.tangent;
}

/// [`store_index`] of a real scalar: the tangent goes through [`ScalarTangent::store`], so
/// that a tangent type knowing its zeros leaves a known zero in place (`MaybeZero`).
/// Generated code calls it where the stored value is a linearised chain's, a real scalar.
///
/// # Panics
/// If `i` is out of bounds, as the primal's indexing would.
#[inline(always)]
pub fn store_index_real<F, T, D>(x: &mut D, i: usize, v: Dual<F, T>)
where
    F: Real,
    T: ScalarTangent<F>,
    D: DualSliceMut<Elem = F, TElem = T>,
{
    let (p, t) = x.slices_mut();
    let n = p.len().min(t.len());
    let (p, t) = (&mut p[..n], &mut t[..n]);
    p[i] = v.primal;
    T::store(&mut t[i], v.tangent);
}

/// `*x = v` through a mutable dual reference.
#[inline(always)]
pub fn store_deref<P: Differentiable, T>(x: &mut Dual<&mut P, &mut T>, v: Dual<P, T>) {
    *x.primal = v.primal;
    *x.tangent = v.tangent;
}

/// Dereferencing a dual reference (`*x`), by copy.
pub trait DerefDual {
    /// The dual of the referent.
    type Target;
    /// `*x`.
    fn deref_dual(self) -> Self::Target;
}

impl<'a, P: Differentiable + Copy + 'a, T: Copy> DerefDual for Dual<&'a P, &'a T> {
    type Target = Dual<P, T>;
    #[inline(always)]
    fn deref_dual(self) -> Dual<P, T> {
        Dual::new(*self.primal, *self.tangent)
    }
}

impl<'a, P: Differentiable + Copy + 'a, T: Copy> DerefDual for Dual<&'a mut P, &'a mut T> {
    type Target = Dual<P, T>;
    #[inline(always)]
    fn deref_dual(self) -> Dual<P, T> {
        Dual::new(*self.primal, *self.tangent)
    }
}

impl<'a, P: Differentiable + Copy + 'a, T: Copy> DerefDual for &Dual<&'a mut P, &'a mut T> {
    type Target = Dual<P, T>;
    #[inline(always)]
    fn deref_dual(self) -> Dual<P, T> {
        Dual::new(*self.primal, *self.tangent)
    }
}

/// `*x`.
#[inline(always)]
pub fn deref<D: DerefDual>(x: D) -> D::Target {
    x.deref_dual()
}

/// A tuple of duals as the dual of a tuple: `(Dual<A, TA>, Dual<B, TB>)` to
/// `Dual<(A, B), (TA, TB)>`.
pub trait TupleOfDuals {
    /// The dual of the tuple.
    type Output;
    /// The conversion.
    fn into_dual(self) -> Self::Output;
}

macro_rules! tuple_of_duals {
    ($($P:ident $T:ident $i:tt),+) => {
        impl<$($P: Differentiable, $T),+> TupleOfDuals for ($(Dual<$P, $T>,)+) {
            type Output = Dual<($($P,)+), ($($T,)+)>;
            #[inline(always)]
            fn into_dual(self) -> Self::Output {
                Dual::new(($(self.$i.primal,)+), ($(self.$i.tangent,)+))
            }
        }
    };
}
crate::for_tuples!(tuple_of_duals);

/// `a..b` of duals: a range of floats whose ends carry tangents.
#[inline(always)]
pub fn range<P: crate::Differentiable, T>(
    a: Dual<P, T>,
    b: Dual<P, T>,
) -> Dual<core::ops::Range<P>, core::ops::Range<T>> {
    Dual::new(a.primal..b.primal, a.tangent..b.tangent)
}

/// `(a, b, ..)` of duals.
#[inline(always)]
pub fn tuple<D: TupleOfDuals>(t: D) -> D::Output {
    t.into_dual()
}

/// Struct literals of duals: `Name { a: x, .. }` builds `NameTangent { a: .., .. }`, each
/// field's tangent converted to the tangent struct's field type, which the derived code
/// cannot name: the tangent of the value itself, or `NoTangent` for a field that carries
/// none (`#[differentiable(skip)]`) whatever the value's tangent. The field type `F` is
/// found from the primal ([`struct_tangent`], [`field_type`]); the derived code calls
/// `(&&&FieldTangent::new(x, f)).field_tangent()`, and method lookup tries, in order:
/// [`Same`] (`x`'s tangent has type `F`), [`Dropped`] (`F` is `NoTangent`), [`Kept`] (the
/// tangent itself, which the literal's field then coerces to `F`, as Rust coerces the
/// primal: `&[f64; 2]` or `&Vec<f64>` into a `&[f64]` field).
pub mod struct_literal {
    use crate::differentiable::Differentiable;
    use crate::dual::Dual;
    use crate::tangent::{Mode, NoTangent};
    use core::cell::Cell;
    use core::marker::PhantomData;

    /// A value's tangent `X` bound for a field whose tangent type is `F`; taken out through
    /// shared references (the lookup goes through them), once.
    pub struct FieldTangent<X, F>(Cell<Option<X>>, PhantomData<F>);

    impl<X, F> FieldTangent<X, F> {
        /// Pairs the tangent with the witness of the field's type.
        #[inline(always)]
        pub fn new(x: X, _: PhantomData<F>) -> Self {
            FieldTangent(Cell::new(Some(x)), PhantomData)
        }

        #[inline(always)]
        fn take(&self) -> X {
            self.0
                .take()
                .expect("fwdad: a struct literal's field tangent is taken once")
        }
    }

    /// `X` into a field of type `X`.
    pub trait Same<X> {
        /// The tangent itself.
        fn field_tangent(self) -> X;
    }
    impl<X> Same<X> for &&&FieldTangent<X, X> {
        #[inline(always)]
        fn field_tangent(self) -> X {
            self.take()
        }
    }

    /// Any `X` into a field that carries no tangent.
    pub trait Dropped {
        /// `NoTangent`.
        fn field_tangent(self) -> NoTangent;
    }
    impl<X> Dropped for &&FieldTangent<X, NoTangent> {
        #[inline(always)]
        fn field_tangent(self) -> NoTangent {
            NoTangent
        }
    }

    /// `X` into a field of another type, by the coercion at the literal's field.
    pub trait Kept<X> {
        /// The tangent itself.
        fn field_tangent(self) -> X;
    }
    impl<X, F> Kept<X> for &FieldTangent<X, F> {
        #[inline(always)]
        fn field_tangent(self) -> X {
            self.take()
        }
    }

    /// A witness of the tangent type of `p` under mode `S`.
    #[inline(always)]
    pub fn struct_tangent<S: Mode, P: Differentiable>(_: &P) -> PhantomData<P::TangentIn<S>> {
        PhantomData
    }

    /// A witness of the type of a field of `T` (the closure is never called).
    #[inline(always)]
    pub fn field_type<T, F>(_: PhantomData<T>, _: impl FnOnce(&T) -> &F) -> PhantomData<F> {
        PhantomData
    }

    /// The dual of a struct from its primal and its tangent struct (which this types).
    #[inline(always)]
    pub fn struct_dual<S: Mode, P: Differentiable>(
        p: P,
        t: P::TangentIn<S>,
    ) -> Dual<P, P::TangentIn<S>> {
        Dual::new(p, t)
    }
}

/// `[a, b, ..]` of duals, as the dual of an array.
#[inline(always)]
pub fn array<P: Differentiable, T, const N: usize>(a: [Dual<P, T>; N]) -> Dual<[P; N], [T; N]> {
    let mut primal: [Option<P>; N] = [const { None }; N];
    let mut tangent: [Option<T>; N] = [const { None }; N];
    for (i, d) in a.into_iter().enumerate() {
        primal[i] = Some(d.primal);
        tangent[i] = Some(d.tangent);
    }
    Dual::new(primal.map(unwrap_filled), tangent.map(unwrap_filled))
}

#[inline(always)]
fn unwrap_filled<X>(x: Option<X>) -> X {
    match x {
        Some(x) => x,
        // Every slot of a length-N array was filled by the loop above.
        None => unreachable!("array slot left empty"),
    }
}

/// `x as G` between float types: the tangent is converted lane by lane. The result is
/// typed `Dual<G, <G as Differentiable>::TangentIn<S>>`, the type generated code gives
/// every value of type `G`.
pub trait CastDual<S: Mode, G: Differentiable> {
    /// The conversion.
    fn cast_dual(self) -> Dual<G, G::TangentIn<S>>;
}

/// Between any two float types, generic ones included (`x as f32`, `f64::from(t)` of a
/// `T: Into<f64>`): the primal converts as `as` does (`f64` to `f32` rounds, the other way
/// is exact), the tangent lane by lane.
impl<S: Mode, F: Real, G: Real> CastDual<S, G> for Dual<F, F::TangentIn<S>> {
    #[inline(always)]
    fn cast_dual(self) -> Dual<G, G::TangentIn<S>> {
        let tangent = S::cast::<F, G>(F::__tangent_to_of::<S>(self.tangent));
        Dual::new(
            G::cst(self.primal.to_f64_lossless()),
            G::__tangent_from_of::<S>(tangent),
        )
    }
}

/// `T::from(x)`, `T::from_f64(x)`, `T::from_f32(x)` of a dual float, for a float type
/// parameter `T`: `Some` of `x as T`, which is what `num_traits`' conversions between float
/// types return (never `None`: out of range saturates to infinity, as `as` does).
#[inline(always)]
pub fn float_from<S: Mode, G: Real, X: CastDual<S, G>>(
    x: X,
) -> Dual<Option<G>, Option<G::TangentIn<S>>> {
    some(x.cast_dual())
}

/// `n as f64` of an integer that reached a dual (`Dual<usize, NoTangent>`, e.g. the result
/// of a rule): the float is a constant, its tangent zero.
macro_rules! cast_int_dual {
    ($($i:ty),*) => {$(
        impl<S: Mode> CastDual<S, f64> for Dual<$i, crate::tangent::NoTangent> {
            #[inline(always)]
            fn cast_dual(self) -> Dual<f64, S> {
                Dual::new(self.primal as f64, S::zero())
            }
        }
        impl<S: Mode> CastDual<S, f32> for Dual<$i, crate::tangent::NoTangent> {
            #[inline(always)]
            fn cast_dual(self) -> Dual<f32, S::Of<f32>> {
                Dual::new(self.primal as f32, ScalarTangent::zero())
            }
        }
    )*};
}
cast_int_dual!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

/// `x as G` of a dual float.
#[inline(always)]
pub fn cast<S: Mode, G: Differentiable, X: CastDual<S, G>>(x: X) -> Dual<G, G::TangentIn<S>> {
    x.cast_dual()
}

/// A constant dual for a borrowed, inactive value: the zero tangent needs storage of its
/// own, which generated code keeps in a cell of the caller (see `frule::Promoted`).
#[diagnostic::on_unimplemented(
    message = "a constant `{Self}` is passed by value to a rule that differentiates it",
    label = "a constant of this type can be passed on only borrowed",
    note = "take a parameter of this type that is declared `inactive(..)` by reference (`tip: &{Self}`) and pass `*tip` on, or leave it out of `inactive(..)`"
)]
pub trait PromoteRef<'a, S: Mode>: Differentiable + Sized {
    /// The owned zero tangent.
    type Buffer: 'a;
    /// Allocates it.
    fn zero_buffer(&self) -> Self::Buffer;
    /// The constant dual borrowing it, or for a slice the part of it from `start` (the
    /// buffer built for a longer slice that this one is a sub-slice of).
    fn with_buffer(self, buffer: &'a Self::Buffer, start: usize) -> Dual<Self, Self::TangentIn<S>>;
}

impl<'a, P: ZeroTangent + 'a, S: Mode> PromoteRef<'a, S> for &'a P
where
    P::TangentIn<S>: 'a,
{
    type Buffer = P::TangentIn<S>;
    fn zero_buffer(&self) -> Self::Buffer {
        (**self).zero_tangent_in::<S>()
    }
    fn with_buffer(self, buffer: &'a Self::Buffer, _: usize) -> Dual<Self, Self::TangentIn<S>> {
        Dual::new(self, buffer)
    }
}

/// An owned float or integer whose type the macro cannot see (a constant a closure captured, the
/// value of a `loop`, a call's result) promoted like a borrowed one: its zero tangent is
/// owned, the cell stays empty.
macro_rules! promote_owned {
    ($($f:ty),*) => {$(
        impl<'a, S: Mode> PromoteRef<'a, S> for $f {
            type Buffer = ();
            fn zero_buffer(&self) -> Self::Buffer {}
            fn with_buffer(self, _: &'a (), _: usize) -> Dual<Self, Self::TangentIn<S>> {
                Dual::new(self, self.zero_tangent_in::<S>())
            }
        }
    )*};
}
promote_owned!(f32, f64);
// An integer a closure captured (`|x| powk(n, x)`), passed to a rule's `n: usize`.
promote_owned!(bool, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

#[cfg(feature = "alloc")]
impl<'a, T: ZeroTangent + 'a, S: Mode> PromoteRef<'a, S> for &'a [T]
where
    T::TangentIn<S>: 'a,
{
    type Buffer = Vec<T::TangentIn<S>>;
    fn zero_buffer(&self) -> Self::Buffer {
        self.iter().map(ZeroTangent::zero_tangent_in::<S>).collect()
    }
    fn with_buffer(self, buffer: &'a Self::Buffer, start: usize) -> Dual<Self, Self::TangentIn<S>> {
        Dual::new(self, &buffer[start..start + self.len()])
    }
}

/// `(sin x, cos x)` as one dual of a pair (how generated code represents the pair).
#[inline(always)]
pub fn sin_cos_dual<F: Real, T: ScalarTangent<F>, X: crate::rules::Operand<F, T>>(
    x: X,
) -> Dual<(F, F), (T, T)> {
    let (s, c) = crate::rules::trig::sin_cos(x);
    Dual::new((s.primal, c.primal), (s.tangent, c.tangent))
}

/// Iterates a slice-like dual's elements as borrowed duals (`for v in x.iter()`).
#[derive(Clone, Debug)]
pub struct Iter<'a, P, T> {
    primal: core::slice::Iter<'a, P>,
    tangent: core::slice::Iter<'a, T>,
}

impl<'a, P: Differentiable + 'a, T: 'a> Iterator for Iter<'a, P, T> {
    type Item = Dual<&'a P, &'a T>;
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        Some(Dual::new(self.primal.next()?, self.tangent.next()?))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.primal.size_hint()
    }
}

impl<'a, P: Differentiable + 'a, T: 'a> DoubleEndedIterator for Iter<'a, P, T> {
    #[inline(always)]
    fn next_back(&mut self) -> Option<Self::Item> {
        Some(Dual::new(
            self.primal.next_back()?,
            self.tangent.next_back()?,
        ))
    }
}

impl<'a, P: Differentiable + 'a, T: 'a> ExactSizeIterator for Iter<'a, P, T> {}

impl<P: Differentiable, T> Dual<P, T>
where
    Self: DualSlice,
{
    /// The elements as borrowed duals.
    #[inline(always)]
    pub fn iter(&self) -> Iter<'_, <Self as DualSlice>::Elem, <Self as DualSlice>::TElem> {
        Iter {
            primal: self.primal_slice().iter(),
            tangent: self.tangent_slice().iter(),
        }
    }
}

impl<'a, P: Differentiable + 'a, T: 'a> IntoIterator for Dual<&'a [P], &'a [T]> {
    type Item = Dual<&'a P, &'a T>;
    type IntoIter = Iter<'a, P, T>;
    fn into_iter(self) -> Self::IntoIter {
        Iter {
            primal: self.primal.iter(),
            tangent: self.tangent.iter(),
        }
    }
}

/// `for x in bucket` over a borrowed `Vec` whose type the macro did not see (a map's
/// value, `if let Some(bucket) = m.get(&k)`): its elements as borrowed duals, as a slice's.
#[cfg(feature = "alloc")]
impl<'a, P: Differentiable + 'a, T: 'a> IntoIterator for Dual<&'a Vec<P>, &'a Vec<T>> {
    type Item = Dual<&'a P, &'a T>;
    type IntoIter = Iter<'a, P, T>;
    fn into_iter(self) -> Self::IntoIter {
        Dual::new(self.primal.as_slice(), self.tangent.as_slice()).into_iter()
    }
}

/// `for x in v` over an owned `Vec` (consumed as Rust consumes it): its elements as
/// owned duals, primal and tangent side by side.
#[cfg(feature = "alloc")]
impl<P: Differentiable, T> IntoIterator for Dual<Vec<P>, Vec<T>> {
    type Item = Dual<P, T>;
    type IntoIter = IntoIter<P, T>;
    fn into_iter(self) -> Self::IntoIter {
        // A shorter tangent would end the loop early: never silently.
        assert_eq!(
            self.primal.len(),
            self.tangent.len(),
            "a Vec's tangent has another length than its primal"
        );
        IntoIter {
            primal: self.primal.into_iter(),
            tangent: self.tangent.into_iter(),
        }
    }
}

/// `for x in opt` over an `Option` (the `flat_map(|v| if .. { Some(..) } else { None })`
/// idiom): its value, if any, as one owned dual. A tangent of the other variant than its
/// primal's is a bug of the rule that built it, and panics rather than drop a derivative.
impl<P: Differentiable, T> IntoIterator for Dual<Option<P>, Option<T>> {
    type Item = Dual<P, T>;
    type IntoIter = core::option::IntoIter<Dual<P, T>>;
    fn into_iter(self) -> Self::IntoIter {
        match (self.primal, self.tangent) {
            (Some(p), Some(t)) => Some(Dual::new(p, t)),
            (None, None) => None,
            _ => panic!("an Option's tangent is of another variant than its primal"),
        }
        .into_iter()
    }
}

/// The iterator of an owned `Vec` dual (see its `IntoIterator`).
#[cfg(feature = "alloc")]
pub struct IntoIter<P, T> {
    primal: alloc::vec::IntoIter<P>,
    tangent: alloc::vec::IntoIter<T>,
}

#[cfg(feature = "alloc")]
impl<P: Differentiable, T> Iterator for IntoIter<P, T> {
    type Item = Dual<P, T>;
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        Some(Dual::new(self.primal.next()?, self.tangent.next()?))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.primal.size_hint()
    }
}

impl<'a, P: Differentiable + Copy + 'a, T: Copy> DerefDual for &Dual<&'a P, &'a T> {
    type Target = Dual<P, T>;
    #[inline(always)]
    fn deref_dual(self) -> Dual<P, T> {
        Dual::new(*self.primal, *self.tangent)
    }
}

/// A scalar dual a library lends to a closure (`|m, &v| m.max(v)` given to ndarray's
/// `fold`, `|&v| ..` to its `map`): the rule's closure takes it by value, and the `&v`
/// pattern reads it as it is.
macro_rules! deref_scalar_dual {
    ($($F:ty),*) => {$(
        impl<'a, T: Copy> DerefDual for &'a Dual<$F, T> {
            type Target = Dual<$F, T>;
            #[inline(always)]
            fn deref_dual(self) -> Dual<$F, T> {
                *self
            }
        }
    )*};
}
deref_scalar_dual!(f64, f32);

/// A mutable dual reference that can be reborrowed for one use, as Rust implicitly
/// reborrows a plain `&mut` passed to a function, so the original stays usable afterwards.
pub trait Reborrow {
    /// The reborrowed dual.
    type Out<'b>
    where
        Self: 'b;
    /// Reborrows.
    fn reborrow(&mut self) -> Self::Out<'_>;
}

impl<'a, E: Differentiable + 'a, TE: 'a> Reborrow for Dual<&'a mut [E], &'a mut [TE]> {
    type Out<'b>
        = Dual<&'b mut [E], &'b mut [TE]>
    where
        Self: 'b;
    #[inline(always)]
    fn reborrow(&mut self) -> Self::Out<'_> {
        Dual::new(&mut *self.primal, &mut *self.tangent)
    }
}

// `P` may be a trait object: `advance(b, dt)` passing a `&mut dyn Body` parameter on.
impl<'a, P: Differentiable + ?Sized + 'a, T: 'a> Reborrow for Dual<&'a mut P, &'a mut T> {
    type Out<'b>
        = Dual<&'b mut P, &'b mut T>
    where
        Self: 'b;
    #[inline(always)]
    fn reborrow(&mut self) -> Self::Out<'_> {
        Dual::new(&mut *self.primal, &mut *self.tangent)
    }
}

/// `x.reborrow()`.
#[inline(always)]
pub fn reborrow<R: Reborrow>(x: &mut R) -> R::Out<'_> {
    x.reborrow()
}

impl<'a, E: Differentiable + 'a, TE: 'a> Dual<&'a mut [E], &'a mut [TE]> {
    /// The mutable sub-slice dual for `range`.
    #[inline(always)]
    pub fn slice_mut<R>(&mut self, range: R) -> Dual<&mut [E], &mut [TE]>
    where
        R: core::slice::SliceIndex<[E], Output = [E]>
            + core::slice::SliceIndex<[TE], Output = [TE]>
            + Clone,
    {
        Dual::new(&mut self.primal[range.clone()], &mut self.tangent[range])
    }
}

/// `&x[i]` and `&x[range]` of a slice-like dual, as generated code reads them (with
/// autoref: `x.elem_at(i)`). A dual of a shared borrow (`&'a [E]`, `&'a Vec<E>`,
/// `&'a [E; N]`) is taken by value and the result borrows for `'a`, what `x` borrows, so a
/// rule can return it (`fn f<'a>(x: &'a [f64]) -> &'a f64 { &x[1] }`); any other
/// slice-like dual is borrowed itself.
pub trait ElemAt<'a>: Sized {
    /// Primal element type.
    type Elem: Differentiable + 'a;
    /// Tangent element type.
    type TElem: 'a;
    /// Both element slices, for `'a`.
    fn both(self) -> (&'a [Self::Elem], &'a [Self::TElem]);

    /// The dual of element `i`.
    ///
    /// # Panics
    /// If `i` is out of bounds, as indexing the primal slice would.
    #[inline(always)]
    fn elem_at(self, i: usize) -> Dual<&'a Self::Elem, &'a Self::TElem> {
        // Cut both to one length so indexing them costs one bounds check; a dual's tangent
        // has its primal's length by construction.
        let (p, t) = self.both();
        let n = p.len().min(t.len());
        Dual::new(&p[..n][i], &t[..n][i])
    }

    /// The sub-slice dual for `range`.
    #[inline(always)]
    fn sub_slice<R>(self, range: R) -> Dual<&'a [Self::Elem], &'a [Self::TElem]>
    where
        R: core::slice::SliceIndex<[Self::Elem], Output = [Self::Elem]>
            + core::slice::SliceIndex<[Self::TElem], Output = [Self::TElem]>
            + Clone,
    {
        let (p, t) = self.both();
        Dual::new(&p[range.clone()], &t[range])
    }
}

macro_rules! elem_at_shared {
    ([$($g:tt)*] $P:ty, $T:ty) => {
        impl<'a, $($g)*> ElemAt<'a> for Dual<&'a $P, &'a $T> {
            type Elem = E;
            type TElem = TE;
            #[inline(always)]
            fn both(self) -> (&'a [E], &'a [TE]) {
                (&self.primal[..], &self.tangent[..])
            }
        }
    };
}
elem_at_shared!([E: Differentiable + 'a, TE: 'a] [E], [TE]);
#[cfg(feature = "alloc")]
elem_at_shared!([E: Differentiable + 'a, TE: 'a] Vec<E>, Vec<TE>);
elem_at_shared!([E: Differentiable + 'a, TE: 'a, const N: usize] [E; N], [TE; N]);

impl<'a, D: DualSlice> ElemAt<'a> for &'a D
where
    D::Elem: 'a,
    D::TElem: 'a,
{
    type Elem = D::Elem;
    type TElem = D::TElem;
    #[inline(always)]
    fn both(self) -> (&'a [D::Elem], &'a [D::TElem]) {
        (self.primal_slice(), self.tangent_slice())
    }
}

/// `Some(x)` of a dual.
#[inline(always)]
pub fn some<P: Differentiable, T>(x: Dual<P, T>) -> Dual<Option<P>, Option<T>> {
    Dual::new(Some(x.primal), Some(x.tangent))
}

/// A constant `None` under mode `S`: no zero tangent of the payload is built (it may be a
/// reference), but the tangent's type follows the payload's, so it is known even where
/// nothing else reads it (a `skip` field given `None`).
#[inline(always)]
pub fn none_in<S: Mode, P: Differentiable>(
    p: Option<P>,
) -> Dual<Option<P>, Option<P::TangentIn<S>>> {
    Dual::new(p, None)
}

/// An empty `Vec` as a constant dual under mode `S`: it needs no zero tangent of an
/// element, which a borrowed sub-slice has not (`let mut rows = Vec::new();` made active
/// by pushing rows of a parameter). Lowering writes it only for a `Vec::new()` nothing
/// has changed yet.
#[cfg(feature = "alloc")]
#[inline(always)]
pub fn empty_vec_in<S: Mode, P: Differentiable>(v: Vec<P>) -> Dual<Vec<P>, Vec<P::TangentIn<S>>> {
    assert!(
        v.is_empty(),
        "fwdad: `empty_vec_in` of a non-empty `Vec` (a bug in fwdad)"
    );
    Dual::new(v, Vec::new())
}

/// `Ok(x)` of a dual; the error type is inferred from the context.
#[inline(always)]
pub fn ok<P: Differentiable, T, E>(
    x: Dual<P, T>,
) -> Dual<Result<P, E>, Result<T, crate::tangent::NoTangent>> {
    Dual::new(Ok(x.primal), Ok(x.tangent))
}

/// `&mut x[range]` of a mutable slice-like dual, borrowing `x` itself.
#[inline(always)]
pub fn slice_mut<D: DualSliceMut, R>(x: &mut D, range: R) -> Dual<&mut [D::Elem], &mut [D::TElem]>
where
    R: core::slice::SliceIndex<[D::Elem], Output = [D::Elem]>
        + core::slice::SliceIndex<[D::TElem], Output = [D::TElem]>
        + Clone,
{
    let (p, t) = x.slices_mut();
    Dual::new(&mut p[range.clone()], &mut t[range])
}

/// `&mut x[i]` of a mutable slice-like dual, borrowing `x` itself.
///
/// # Panics
/// If `i` is out of bounds, as the primal's indexing would.
#[inline(always)]
pub fn at_mut<D: DualSliceMut>(x: &mut D, i: usize) -> Dual<&mut D::Elem, &mut D::TElem> {
    let (p, t) = x.slices_mut();
    let n = p.len().min(t.len());
    Dual::new(&mut p[..n][i], &mut t[..n][i])
}

/// `&mut x[i]` returned from the function (`fn pick<'a>(a: &'a mut [f64], ..) -> &'a mut f64`):
/// [`at_mut`] on the `&mut` parameter's dual itself, which the borrow moves out of, so the
/// element keeps the parameter's lifetime rather than a local's.
///
/// # Panics
/// If `i` is out of bounds, as the primal's indexing would.
#[inline(always)]
pub fn at_mut_owned<'a, S, U, P, T>(
    x: Dual<&'a mut S, &'a mut U>,
    i: usize,
) -> Dual<&'a mut P, &'a mut T>
where
    S: ?Sized + AsMut<[P]>,
    U: ?Sized + AsMut<[T]>,
    &'a mut S: Differentiable,
    P: Differentiable + 'a,
{
    let (p, t) = (x.primal.as_mut(), x.tangent.as_mut());
    let n = p.len().min(t.len());
    Dual::new(&mut p[..n][i], &mut t[..n][i])
}

/// `std::mem::swap(a, b)` of two mutable dual references: primals and tangents swapped.
#[inline(always)]
pub fn swap<'a, 'b, P: Differentiable, T>(
    a: Dual<&'a mut P, &'a mut T>,
    b: Dual<&'b mut P, &'b mut T>,
) {
    core::mem::swap(a.primal, b.primal);
    core::mem::swap(a.tangent, b.tangent);
}

/// `std::mem::replace(dst, src)` on duals: primal and tangent replaced, the old ones returned.
#[inline(always)]
pub fn mem_replace<'a, P: Differentiable, T>(
    dst: Dual<&'a mut P, &'a mut T>,
    src: Dual<P, T>,
) -> Dual<P, T> {
    let p = core::mem::replace(dst.primal, src.primal);
    let t = core::mem::replace(dst.tangent, src.tangent);
    Dual::new(p, t)
}

/// `std::mem::take(dst)` on duals: the primal left at its default and the tangent at that
/// default's zero tangent in mode `S` (shaped like it), the old ones returned.
#[inline(always)]
pub fn mem_take<'a, S: Mode, P: ZeroTangent + Default>(
    dst: Dual<&'a mut P, &'a mut P::TangentIn<S>>,
) -> Dual<P, P::TangentIn<S>> {
    let fresh = crate::dual::constant_in::<S, P>(P::default());
    Dual::new(
        core::mem::replace(dst.primal, fresh.primal),
        core::mem::replace(dst.tangent, fresh.tangent),
    )
}

/// `drop(x)` of a dual (a constant's is the call as written).
#[inline(always)]
pub fn drop<T>(x: T) {
    core::mem::drop(x)
}

/// A receiver that does not depend on the inputs, promoted to a constant dual for a method
/// call with a forward rule (`fixed.energy(x)`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the receiver of a differentiated method call",
    label = "this receiver does not depend on the inputs, so it is passed as a constant dual",
    note = "derive `Differentiable` and `Clone` for `{Self}`"
)]
pub trait ConstReceiver: Clone + ZeroTangent {}

impl<P: Clone + ZeroTangent> ConstReceiver for P {}

/// The constant dual of a receiver (a clone, as the method only borrows it).
#[inline(always)]
pub fn promote_receiver<S: Mode, P: ConstReceiver>(p: &P) -> Dual<P, P::TangentIn<S>> {
    crate::dual::constant_in::<S, P>(p.clone())
}

/// `assert!`, `panic!`, `unreachable!` in a derived body: the failure, with the macro's
/// message (its format string as written: the values it would print are duals there).
#[cold]
#[track_caller]
pub fn fail(msg: &str) -> ! {
    panic!("{msg}")
}

/// An integer type: the result of a method floats do not have (`pow`, `isqrt`, ...), or of
/// `min`/`max`/`clamp` with an integer argument, which `#[derive_frule]` computes on the
/// primal when the receiver's type is not written.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an integer, but `#[derive_frule]` read this method as an integer's",
    label = "taken for an integer method: `f32`/`f64` have no method of this name, or it has an integer argument",
    note = "`#[derive_frule]` does not see the types of struct fields and variables of your own types; a method of your own type needs another name"
)]
pub trait Integer: Copy {}

macro_rules! integer_types {
    ($($t:ty),*) => { $(impl Integer for $t {})* };
}
integer_types!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

/// The value of a macro `#[derive_frule]` does not know (`ulps_eq!(x, 1.0)`,
/// `log::debug!("{x}")`), which generated code runs on primal values: a value that carries
/// no derivative (a `bool`, `()`, an integer, a `String`, ...).
#[diagnostic::on_unimplemented(
    message = "this macro's value is `{Self}`, which would carry a derivative, and `#[derive_frule]` runs macros it does not know on plain values",
    label = "a macro `#[derive_frule]` does not know",
    note = "compute the value in a helper function with a rule (`#[derive_frule]`, or `#[primitive]` for a hand-written one) and call it instead"
)]
pub trait OpaqueMacroValue {}

macro_rules! opaque_macro_values {
    ($($t:ty),*) => {$( impl OpaqueMacroValue for $t {} )*};
}
#[rustfmt::skip]
opaque_macro_values!(
    (), bool, char, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize,
    &str, core::cmp::Ordering
);
#[cfg(feature = "alloc")]
impl OpaqueMacroValue for alloc::string::String {}
impl<T: OpaqueMacroValue> OpaqueMacroValue for Option<T> {}
impl<T: OpaqueMacroValue, E> OpaqueMacroValue for Result<T, E> {}

/// See [`OpaqueMacroValue`].
#[inline(always)]
pub fn opaque_macro<T: OpaqueMacroValue>(value: T) -> T {
    value
}

/// The value of `let p;` before its first assignment, in generated code. Rust proves
/// that the function reads `p` only after assigning it, so this value reaches only what
/// nothing reads (a merge of an `if` that assigns `p` in one arm); it needs a value there
/// all the same.
#[diagnostic::on_unimplemented(
    message = "this variable is declared without a value, and its type has no default value for the paths that do not assign it",
    label = "declared here without a value",
    note = "give it its first value where it is declared (`let mut p = ..;`)"
)]
pub trait Undef {
    /// Any value of the type.
    fn undef() -> Self;
}

// Every tangent mode (a generic `S: Mode` in a rule among them), and `f64` itself.
impl<S: crate::tangent::ScalarTangent<f64>> Undef for S {
    #[inline(always)]
    fn undef() -> S {
        S::zero()
    }
}

macro_rules! undef_by_default {
    ($($t:ty),*) => {$(
        impl Undef for $t {
            #[inline(always)]
            fn undef() -> $t {
                <$t>::default()
            }
        }
    )*};
}
undef_by_default!(f32, bool, char, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl<P: Differentiable + Undef, T: Undef> Undef for Dual<P, T> {
    #[inline(always)]
    fn undef() -> Self {
        Dual::new(P::undef(), T::undef())
    }
}

impl<T> Undef for Option<T> {
    #[inline(always)]
    fn undef() -> Self {
        None
    }
}

#[cfg(feature = "alloc")]
impl<T> Undef for alloc::vec::Vec<T> {
    #[inline(always)]
    fn undef() -> Self {
        alloc::vec::Vec::new()
    }
}

impl<T: Undef, const N: usize> Undef for [T; N] {
    #[inline(always)]
    fn undef() -> Self {
        core::array::from_fn(|_| T::undef())
    }
}

impl<A: Undef, B: Undef> Undef for (A, B) {
    #[inline(always)]
    fn undef() -> Self {
        (A::undef(), B::undef())
    }
}

impl<A: Undef, B: Undef, C: Undef> Undef for (A, B, C) {
    #[inline(always)]
    fn undef() -> Self {
        (A::undef(), B::undef(), C::undef())
    }
}

/// See [`Undef`].
#[inline(always)]
pub fn undef<T: Undef>() -> T {
    T::undef()
}

/// The primal types whose dual [`Undef`] gives a value: what [`undef_dual`] bounds, so
/// that the error of `let p;` of a type without one names the user's type (`Pt`), not its
/// dual (`Dual<Pt, PtTangent<..>>`). `Same<T>` is `T`; written through it, the tangent's
/// bound is not checked (nor reported) for a primal type without an impl here.
#[diagnostic::on_unimplemented(
    message = "this variable is declared without a value, and its type `{Self}` has no default value for the paths that do not assign it",
    label = "declared here without a value",
    note = "give it its first value where it is declared (`let mut p = ..;`)"
)]
pub trait UndefPrimal: Undef {
    /// `T` itself.
    type Same<T>;
}

macro_rules! undef_primal {
    ($($t:ty),*) => {$(
        impl UndefPrimal for $t {
            type Same<T> = T;
        }
    )*};
}
undef_primal!(f64, f32, bool, char, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl<P> UndefPrimal for Option<P> {
    type Same<T> = T;
}

#[cfg(feature = "alloc")]
impl<P> UndefPrimal for alloc::vec::Vec<P> {
    type Same<T> = T;
}

impl<P: UndefPrimal, const N: usize> UndefPrimal for [P; N] {
    type Same<T> = T;
}

impl<A: UndefPrimal, B: UndefPrimal> UndefPrimal for (A, B) {
    type Same<T> = T;
}

impl<A: UndefPrimal, B: UndefPrimal, C: UndefPrimal> UndefPrimal for (A, B, C) {
    type Same<T> = T;
}

/// The tangent of `let p;` of a primal `P` that [`UndefPrimal`] has: the zero of an `f64`
/// tangent and of an `f32` one (`<S as Mode>::Of<f32>`, in a rule generic over its mode,
/// which is no `ScalarTangent<f64>` and so has no [`Undef`]), element by element in
/// arrays and tuples, and [`Undef`]'s value otherwise. A trait of its own per primal type
/// (`UndefTangent<f64>`, `UndefTangent<f32>`), so the two scalar impls do not overlap.
#[diagnostic::on_unimplemented(
    message = "this variable is declared without a value, and its type `{P}` has no default value for the paths that do not assign it",
    label = "declared here without a value",
    note = "give it its first value where it is declared (`let mut p = ..;`)"
)]
pub trait UndefTangent<P> {
    /// Any value of the tangent type.
    fn undef_tangent() -> Self;
}

impl<S: ScalarTangent<f64>> UndefTangent<f64> for S {
    #[inline(always)]
    fn undef_tangent() -> S {
        S::zero()
    }
}

impl<S: ScalarTangent<f32>> UndefTangent<f32> for S {
    #[inline(always)]
    fn undef_tangent() -> S {
        S::zero()
    }
}

macro_rules! undef_tangent_by_undef {
    ($($t:ty),*) => {$(
        impl<T: Undef> UndefTangent<$t> for T {
            #[inline(always)]
            fn undef_tangent() -> T {
                T::undef()
            }
        }
    )*};
}
undef_tangent_by_undef!(bool, char, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl<P, T: Undef> UndefTangent<Option<P>> for T {
    #[inline(always)]
    fn undef_tangent() -> T {
        T::undef()
    }
}

#[cfg(feature = "alloc")]
impl<P, T: Undef> UndefTangent<alloc::vec::Vec<P>> for T {
    #[inline(always)]
    fn undef_tangent() -> T {
        T::undef()
    }
}

impl<P, T: UndefTangent<P>, const N: usize> UndefTangent<[P; N]> for [T; N] {
    #[inline(always)]
    fn undef_tangent() -> Self {
        core::array::from_fn(|_| T::undef_tangent())
    }
}

impl<A, B, TA: UndefTangent<A>, TB: UndefTangent<B>> UndefTangent<(A, B)> for (TA, TB) {
    #[inline(always)]
    fn undef_tangent() -> Self {
        (TA::undef_tangent(), TB::undef_tangent())
    }
}

impl<A, B, C, TA: UndefTangent<A>, TB: UndefTangent<B>, TC: UndefTangent<C>> UndefTangent<(A, B, C)>
    for (TA, TB, TC)
{
    #[inline(always)]
    fn undef_tangent() -> Self {
        (
            TA::undef_tangent(),
            TB::undef_tangent(),
            TC::undef_tangent(),
        )
    }
}

/// [`undef`] of a dual (`let p;` of a value that carries a derivative): the same value,
/// `Dual::new(P::undef(), zero)`, with the bound on the primal type. One bound a line:
/// rustc quotes the line of the failed bound, which then shows no dual.
#[inline(always)]
#[rustfmt::skip]
pub fn undef_dual<
    P: UndefPrimal + Differentiable,
    T,
>() -> Dual<P, T>
where
    P::Same<T>: UndefTangent<P> + Into<T>,
{
    Dual::new(P::undef(), <P::Same<T> as UndefTangent<P>>::undef_tangent().into())
}

/// Element `k` of a range starting at `start`, in the range's own integer type: what an
/// iterator chain over `(-2i32..=2)` yields at its `k`-th step (for `usize`, `start + k`).
#[inline(always)]
pub fn range_at<I: RangeStart>(start: I, k: usize) -> I {
    start.step(k)
}

/// Element `k` of an unbounded range (`(250u8..)`, also after `skip`/`step_by`): what
/// [`range_at`] gives, except that, with debug assertions, reaching the type's maximum
/// panics as `RangeFrom`'s iterator does (it computes the next start as it yields the
/// maximum, and `nth` steps over it); release builds wrap, as the iterator does. The
/// iterator follows the calling crate's `overflow-checks`, this check the runtime's
/// `debug_assertions`: the same unless a profile sets them apart.
#[inline(always)]
pub fn range_from_at<I: RangeStart>(start: I, k: usize) -> I {
    if cfg!(debug_assertions) && !start.below_max_after(k) {
        panic!("attempt to add with overflow");
    }
    start.step(k)
}

/// The integer types a range of a chain can count in (see [`range_at`]).
pub trait RangeStart: Copy {
    /// `self + k`, `k` below the range's length: the sum is in range, though `k` may not fit
    /// the type (`-100i8..100` at `k = 128`), so it is added wrapping, which is exact here.
    fn step(self, k: usize) -> Self;
    /// Whether `self + k`, computed exactly, is below the type's maximum.
    fn below_max_after(self, k: usize) -> bool;
}

macro_rules! range_start {
    ($($t:ty => $wide:ty),*) => {$(
        impl RangeStart for $t {
            #[inline(always)]
            fn step(self, k: usize) -> Self {
                self.wrapping_add(k as $t)
            }
            #[inline(always)]
            fn below_max_after(self, k: usize) -> bool {
                // Exact in the wider type (`usize` is at most 64 bits).
                (self as $wide)
                    .checked_add(k as $wide)
                    .is_some_and(|v| v < <$t>::MAX as $wide)
            }
        }
    )*};
}
range_start!(
    i8 => i128, i16 => i128, i32 => i128, i64 => i128, i128 => i128, isize => i128,
    u8 => i128, u16 => i128, u32 => i128, u64 => i128, u128 => u128, usize => i128
);

/// Checks that an integer method's result is an integer (see [`Integer`]).
#[inline(always)]
pub fn integer<I: Integer>(i: I) -> I {
    i
}

/// Whether `debug_assert!` checks: this crate's `debug_assertions`, which follows the
/// profile the user's crate is built with.
#[inline(always)]
pub fn debug_assertions() -> bool {
    cfg!(debug_assertions)
}

/// The rule of `std::array::from_fn(f)`, which lowering calls as it calls a derived
/// function taking a closure: `f`'s dual form (index in, dual element out) is called for
/// `0..N` in order, as `std` calls `f`, and the elements are gathered into one dual array.
/// `N` is a parameter of the marker so that the result's type (the written return type,
/// a typed `let`) fixes it, as it fixes `std`'s.
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, Default)]
pub struct array_from_fn<const N: usize> {}

// The closure helpers generated code calls as `array_from_fn::__fwdad_fn_arg0::<S, F, _>`
// (`F` the caller's float type, which an index does not involve): one impl (at `N = 0`) so
// that the path needs no length.
impl array_from_fn<0> {
    /// Gives a closure its parameter's dual type (the index, which carries no tangent).
    #[doc(hidden)]
    #[inline(always)]
    pub fn __fwdad_fn_arg0<S: Mode, F, R>(
        g: impl FnMut(Dual<usize, <usize as Differentiable>::TangentIn<S>>) -> R,
    ) -> impl FnMut(Dual<usize, <usize as Differentiable>::TangentIn<S>>) -> R {
        g
    }
    #[doc(hidden)]
    #[inline(always)]
    pub fn __fwdad_fn_pass0<S: Mode, F, G>(g: G) -> G {
        g
    }
    /// A function passed by name (`from_fn(weight)`): its rule as a function of duals.
    #[doc(hidden)]
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn __fwdad_rule_arg0<S: Mode, F, R>(
        r: R,
    ) -> impl Fn(
        Dual<usize, <usize as Differentiable>::TangentIn<S>>,
    ) -> <R as crate::frule::Frule<
        (Dual<usize, <usize as Differentiable>::TangentIn<S>>,),
        S,
    >>::Output
    where
        R: crate::frule::Frule<(Dual<usize, <usize as Differentiable>::TangentIn<S>>,), S>,
    {
        move |i| r.frule((i,))
    }
}

impl<S: Mode, P: Differentiable, T, F, const N: usize> crate::frule::Frule<(F,), S>
    for array_from_fn<N>
where
    F: FnMut(Dual<usize, <usize as Differentiable>::TangentIn<S>>) -> Dual<P, T>,
{
    type Output = Dual<[P; N], [T; N]>;
    #[inline]
    fn frule(&self, (mut f,): (F,)) -> Dual<[P; N], [T; N]> {
        array(core::array::from_fn(|k| {
            f(crate::dual::constant_in::<S, usize>(k))
        }))
    }
}
