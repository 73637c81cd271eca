//! Operators on the user's types: `a + b`, `-a`, `k * v`, `p += d` where an operand is a
//! type of the user's with `#[derive_frule] impl Add for Vec3 { .. }` (and the other
//! `std::ops` traits).
//!
//! `#[derive_frule]` on such an impl registers the method's rule as usual (a marker
//! struct) and ties it to the operator and the operand types through [`OpRule`]:
//!
//! ```ignore
//! impl OpRule<Mul, f64> for Vec3 { type Rule = __fwdad_Vec3_mul_f64; .. }  // Vec3 * f64
//! impl OpRule<Mul, Vec3> for f64 { type Rule = __fwdad_f64_mul_Vec3; .. }  // f64 * Vec3
//! ```
//!
//! An operator the macro emits on the user's types becomes
//! `user_ops::binary::<S, Mul, _, _>(a, b)`: rustc picks the rule from the operands'
//! primal types, as it picks the `impl Mul` itself. The same
//! operators between floats have rows here too ([`FloatRule`]), so an operand the macro
//! took for a user type that is a float after all (`type Real = f64`, a method of the user's
//! returning `f64`) gets the float rule, `ops::mul(a, b)` as the float path emits it (a
//! float constant stays plain), never a wrong derivative.
//!
//! The primal helpers (`add`, `add_assign`, ...) are what an inactive operator emits:
//! the user's own `impl` called as Rust's operator calls it, bit for bit.

use crate::differentiable::Differentiable;
use crate::dual::Dual;
use crate::frule::{Frule, Promoted};
use crate::real::Real;
use crate::rules::Operand;
use crate::structural::PromoteRef;
use crate::tangent::{Mode, NoTangent, ScalarTangent};

macro_rules! op_tags {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug, Default)]
            pub struct $name;
        )*
    };
}

op_tags!(
    /// `a + b` (`core::ops::Add`).
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`.
    Div,
    /// `a % b`.
    Rem,
    /// `-a` (the right-hand side is `()`).
    Neg,
    /// `a += b` (`core::ops::AddAssign`).
    AddAssign,
    /// `a -= b`.
    SubAssign,
    /// `a *= b`.
    MulAssign,
    /// `a /= b`.
    DivAssign,
    /// `a %= b`.
    RemAssign,
    /// `v[i]` (`core::ops::Index`).
    Index,
    /// `v[i] = x`, `v[i] += x` (`core::ops::IndexMut`).
    IndexMut,
);

/// The rule of operator `Op` with `Self` on the left and `Rhs` on the right, registered by
/// `#[derive_frule]` on the operator's `impl`.
#[diagnostic::on_unimplemented(
    message = "no forward rule for this operator between `{Self}` and `{Rhs}`",
    label = "this operator has no forward rule",
    note = "if `{Self}` is a type of yours, put `#[derive_frule]` on the operator's `impl`: `#[derive_frule] impl Add for Vec3 {{ .. }}` for `a + b` (`impl Mul<Vec3> for f64` for `k * v`); `a += b` uses the `AddAssign` impl, `-a` the `Neg` impl, `v[i]` the `Index` impl (`#[derive_frule] impl Index<usize> for Poly {{ .. }}`), `v[i] = x` the `IndexMut` impl",
    note = "if `{Self}` is a library type named through a type alias of yours (`type State = SVector<f64, 3>`), name the alias in the attribute, `#[derive_frule(alias(State = SVector<f64, 3>))]`, or write the library's name in the derived function (`x: &SVector<f64, 3>`): `#[derive_frule]` recognises library types by their names and cannot see the alias",
    note = "if `{Self}` is a library type read from a field of a struct of yours (`self.z * self.step` with `z: Complex<f64>`), read the field into a local with its type written first (`let z: Complex<f64> = self.z;`)"
)]
pub trait OpRule<Op, Rhs> {
    /// The rule's marker.
    type Rule;
    /// The marker.
    fn rule() -> Self::Rule;
}

/// An operand as generated code passes it to an operator: a dual (`Dual<P, T>`, also
/// borrowed, `Dual<&P, &T>`), a constant reference ([`Promoted`]), or a plain float
/// constant. A float rule takes each as it is (a constant's zero tangent is never
/// multiplied); a rule of the user's takes duals ([`OpArg::dual`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an operand the forward rule of an operator takes",
    note = "an operator on your own type takes values of that type (`a + b` of two `Vec3`) or floats; pass the value itself"
)]
pub trait OpArg<S: Mode> {
    /// The operand's primal type: what picks the operator's `impl`.
    type Primal;
    /// The operand as a dual.
    type Dual;
    /// The conversion (a plain constant gets its zero tangent).
    fn dual(self) -> Self::Dual;
    /// The operand as a float rule takes it: a dual, or a plain float.
    type Plain;
    /// The conversion (a plain float stays plain).
    fn plain(self) -> Self::Plain;
}

impl<S: Mode, P: Differentiable, T> OpArg<S> for Dual<P, T> {
    type Primal = P;
    type Dual = Self;
    #[inline(always)]
    fn dual(self) -> Self {
        self
    }
    type Plain = Self;
    #[inline(always)]
    fn plain(self) -> Self {
        self
    }
}

impl<'a, X: PromoteRef<'a, S> + Copy, S: Mode> OpArg<S> for Promoted<'a, X, S> {
    type Primal = X;
    type Dual = Dual<X, X::TangentIn<S>>;
    #[inline(always)]
    fn dual(self) -> Self::Dual {
        Promoted::dual(self)
    }
    type Plain = Self::Dual;
    #[inline(always)]
    fn plain(self) -> Self::Dual {
        Promoted::dual(self)
    }
}

/// A constant element `&whole[i]` of an array the rule reads in place (`q` of
/// `err.iter().zip(Q.iter()).map(|(e, q)| q * e)` with a `const Q: [f64; 3]`): the
/// element with its zero tangent, as [`Promoted`] is.
#[cfg(feature = "alloc")]
impl<'a, E: crate::differentiable::ZeroTangent + 'a, S: Mode> OpArg<S>
    for crate::frule::PromotedElem<'a, E, S>
where
    &'a E: Differentiable,
{
    type Primal = &'a E;
    type Dual = Dual<&'a E, &'a E::TangentIn<S>>;
    #[inline(always)]
    fn dual(self) -> Self::Dual {
        crate::frule::PromotedElem::dual(self)
    }
    type Plain = Self::Dual;
    #[inline(always)]
    fn plain(self) -> Self::Dual {
        crate::frule::PromotedElem::dual(self)
    }
}

macro_rules! plain_float_args {
    ($($F:ty),*) => {
        $(
            impl<S: Mode> OpArg<S> for $F {
                type Primal = $F;
                type Dual = Dual<$F, Td<$F, S>>;
                #[inline(always)]
                fn dual(self) -> Self::Dual {
                    crate::dual::constant_in::<S, $F>(self)
                }
                type Plain = $F;
                #[inline(always)]
                fn plain(self) -> $F {
                    self
                }
            }
        )*
    };
}
plain_float_args!(f32, f64);

/// How a rule takes operand `X` (generated for each operator rule of the user's: as a
/// dual; a float rule takes it as it is).
#[doc(hidden)]
pub trait TakeArg<X, S: Mode> {
    /// What the rule receives.
    type Arg;
    /// The conversion.
    fn take(x: X) -> Self::Arg;
}

impl<Op, F, X: OpArg<S>, S: Mode> TakeArg<X, S> for FloatRule<Op, F> {
    type Arg = X::Plain;
    #[inline(always)]
    fn take(x: X) -> X::Plain {
        x.plain()
    }
}

/// The rule of `Op` between operands `A` and `B`.
type Rule2<Op, A, B, S> = <<A as OpArg<S>>::Primal as OpRule<Op, <B as OpArg<S>>::Primal>>::Rule;
/// What rule `R` receives for operand `X`.
type Taken<R, X, S> = <R as TakeArg<X, S>>::Arg;
/// What the rule of `Op` between `A` and `B` receives.
type Args2<Op, A, B, S> = (
    Taken<Rule2<Op, A, B, S>, A, S>,
    Taken<Rule2<Op, A, B, S>, B, S>,
);
/// What it returns.
type Out2<Op, A, B, S> = <Rule2<Op, A, B, S> as Frule<Args2<Op, A, B, S>, S>>::Output;
/// The rule of unary `Op` on `A`, what it receives and what it returns.
type Rule1<Op, A, S> = <<A as OpArg<S>>::Primal as OpRule<Op, ()>>::Rule;
type Args1<Op, A, S> = (Taken<Rule1<Op, A, S>, A, S>,);
type Out1<Op, A, S> = <Rule1<Op, A, S> as Frule<Args1<Op, A, S>, S>>::Output;
/// What the `Index` rule of `P` returns for index `I`.
type IndexOut<'a, P, T, I, S> = <<P as OpRule<Index, <I as OpArg<S>>::Primal>>::Rule as Frule<
    (
        Dual<&'a P, &'a T>,
        Taken<<P as OpRule<Index, <I as OpArg<S>>::Primal>>::Rule, I, S>,
    ),
    S,
>>::Output;

/// `a op b` (`Op` one of `Add`, `Sub`, `Mul`, `Div`, `Rem`): the rule of the operator's
/// `impl` for the operands' primal types, in mode `S`.
#[inline(always)]
pub fn binary<S: Mode, Op, A: OpArg<S>, B: OpArg<S>>(a: A, b: B) -> Out2<Op, A, B, S>
where
    A::Primal: OpRule<Op, B::Primal>,
    Rule2<Op, A, B, S>: TakeArg<A, S> + TakeArg<B, S>,
    Rule2<Op, A, B, S>: Frule<
        (
            Taken<Rule2<Op, A, B, S>, A, S>,
            Taken<Rule2<Op, A, B, S>, B, S>,
        ),
        S,
    >,
{
    type R<Op, A, B, S> = Rule2<Op, A, B, S>;
    let (a, b) = (
        <R<Op, A, B, S> as TakeArg<A, S>>::take(a),
        <R<Op, A, B, S> as TakeArg<B, S>>::take(b),
    );
    <A::Primal as OpRule<Op, B::Primal>>::rule().frule((a, b))
}

/// `-a`: the rule of the type's `Neg` impl, in mode `S`.
#[inline(always)]
pub fn unary<S: Mode, Op, A: OpArg<S>>(a: A) -> Out1<Op, A, S>
where
    A::Primal: OpRule<Op, ()>,
    <A::Primal as OpRule<Op, ()>>::Rule: TakeArg<A, S>,
    Rule1<Op, A, S>: Frule<Args1<Op, A, S>, S>,
{
    let a = <<A::Primal as OpRule<Op, ()>>::Rule as TakeArg<A, S>>::take(a);
    <A::Primal as OpRule<Op, ()>>::rule().frule((a,))
}

/// `a op= b` (`Op` one of `AddAssign`, ...): the rule of the `*Assign` impl on `a`'s dual
/// in place, in mode `S`; returns the new value of `a`.
#[inline(always)]
pub fn assign<S: Mode, Op, P, T, B: OpArg<S>>(mut a: Dual<P, T>, b: B) -> Dual<P, T>
where
    P: Differentiable + OpRule<Op, B::Primal>,
    P::Rule: TakeArg<B, S>,
    for<'r> P::Rule: Frule<(Dual<&'r mut P, &'r mut T>, Taken<P::Rule, B, S>), S>,
{
    let b = <P::Rule as TakeArg<B, S>>::take(b);
    let _ = P::rule().frule((Dual::new(&mut a.primal, &mut a.tangent), b));
    a
}

/// `v[i]`: the rule of the type's `Index` impl on the borrowed dual `v`, in mode `S`; a
/// borrowed element dual.
#[inline(always)]
pub fn index<'a, S: Mode, P, T, I: OpArg<S>>(
    v: Dual<&'a P, &'a T>,
    i: I,
) -> IndexOut<'a, P, T, I, S>
where
    P: Differentiable + OpRule<Index, I::Primal>,
    P::Rule: TakeArg<I, S> + Frule<(Dual<&'a P, &'a T>, Taken<P::Rule, I, S>), S>,
{
    let i = <P::Rule as TakeArg<I, S>>::take(i);
    P::rule().frule((v, i))
}

/// What the `IndexMut` rule of `P` returns for index `I`.
type IndexMutOut<'a, P, T, I, S> =
    <<P as OpRule<IndexMut, <I as OpArg<S>>::Primal>>::Rule as Frule<
        (
            Dual<&'a mut P, &'a mut T>,
            Taken<<P as OpRule<IndexMut, <I as OpArg<S>>::Primal>>::Rule, I, S>,
        ),
        S,
    >>::Output;

/// `v[i] = x`: the rule of the type's `IndexMut` impl on the mutably borrowed dual `v`, in
/// mode `S`; a `&mut` element dual, through which generated code writes the place.
#[inline(always)]
pub fn index_mut<'a, S: Mode, P, T, I: OpArg<S>>(
    v: Dual<&'a mut P, &'a mut T>,
    i: I,
) -> IndexMutOut<'a, P, T, I, S>
where
    P: Differentiable + OpRule<IndexMut, I::Primal>,
    P::Rule: TakeArg<I, S> + Frule<(Dual<&'a mut P, &'a mut T>, Taken<P::Rule, I, S>), S>,
{
    let i = <P::Rule as TakeArg<I, S>>::take(i);
    P::rule().frule((v, i))
}

/// `&mut v[i]` through `core::ops::IndexMut`.
#[inline(always)]
pub fn index_mut_primal<P: core::ops::IndexMut<I> + ?Sized, I>(v: &mut P, i: I) -> &mut P::Output {
    &mut v[i]
}

/// `v[i]` read through `core::ops::Index`.
#[inline(always)]
pub fn index_primal<P: core::ops::Index<I> + ?Sized, I>(v: &P, i: I) -> &P::Output {
    &v[i]
}

// Primal forms: the user's impls, called as the operators call them.

macro_rules! primal_binary {
    ($($f:ident $Tr:ident $m:ident;)*) => {
        $(
            #[doc = concat!("`a ", stringify!($m), " b` through `core::ops::", stringify!($Tr), "`.")]
            #[inline(always)]
            pub fn $f<L: core::ops::$Tr<R>, R>(a: L, b: R) -> L::Output {
                core::ops::$Tr::$m(a, b)
            }
        )*
    };
}
primal_binary!(add Add add; sub Sub sub; mul Mul mul; div Div div; rem Rem rem;);

/// `-a` through `core::ops::Neg`.
#[inline(always)]
pub fn neg<L: core::ops::Neg>(a: L) -> L::Output {
    -a
}

macro_rules! primal_assign {
    ($($f:ident $Tr:ident $m:ident;)*) => {
        $(
            #[doc = concat!("`a` after `a ", stringify!($m), "(b)` through `core::ops::", stringify!($Tr), "`: the new value of the place.")]
            #[inline(always)]
            pub fn $f<L: core::ops::$Tr<R>, R>(mut a: L, b: R) -> L {
                core::ops::$Tr::$m(&mut a, b);
                a
            }
        )*
    };
}
primal_assign!(
    add_assign AddAssign add_assign; sub_assign SubAssign sub_assign;
    mul_assign MulAssign mul_assign; div_assign DivAssign div_assign;
    rem_assign RemAssign rem_assign;
);

/// The rule of an operator between floats, for an operand the macro took for a user type
/// (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct FloatRule<Op, F>(core::marker::PhantomData<(Op, F)>);

type Td<F, S> = <F as Differentiable>::TangentIn<S>;

macro_rules! float_rows {
    ($($Op:ident $f:ident;)*) => {
        $(
            float_rows!(@pairs $Op, f32);
            float_rows!(@pairs $Op, f64);
            impl<F: Real, S: Mode, A, B> Frule<(A, B), S> for FloatRule<$Op, F>
            where
                Td<F, S>: ScalarTangent<F>,
                A: Operand<F, Td<F, S>>,
                B: Operand<F, Td<F, S>>,
            {
                type Output = Dual<F, Td<F, S>>;
                #[inline(always)]
                fn frule(&self, (a, b): (A, B)) -> Self::Output {
                    crate::ops::$f(a, b)
                }
            }
        )*
    };
    // The rows of an operator whose rule is written below, not by this macro.
    (@rows_only $Op:ident) => {
        float_rows!(@pairs $Op, f32);
        float_rows!(@pairs $Op, f64);
    };
    (@pairs $Op:ident, $F:ty) => {
        float_rows!(@pair $Op, $F, $F, $F);
        float_rows!(@pair $Op, $F, &'a $F, $F);
        float_rows!(@pair $Op, $F, $F, &'a $F);
        float_rows!(@pair $Op, $F, &'a $F, &'b $F);
    };
    (@pair $Op:ident, $F:ty, $L:ty, $R:ty) => {
        impl<'a, 'b> OpRule<$Op, $R> for $L {
            type Rule = FloatRule<$Op, $F>;
            #[inline(always)]
            fn rule() -> Self::Rule {
                FloatRule(core::marker::PhantomData)
            }
        }
    };
}
float_rows!(Add add; Sub sub; Mul mul; Rem rem;);
float_rows!(@rows_only Div);

/// `a / b` between floats. In a first-order mode with both operands active, the tangent is
/// `(ȧ - y·ḃ)·(1/b)` ([`crate::linear::quotient`], as linearised chains compute it): two
/// divisions per quotient where the rule's partials `1/b` and `-y/b` take three. This is the
/// path of every quotient of a struct field (`d.dot(&d)` divided by, in a method of the
/// user's `Vec3`), which the macro cannot see as floats: a Lennard-Jones force
/// (`σ²/r²`, `(..)/r²`) spent a third of its divisions on the partials. The primal is
/// `a / b`, the same bits.
impl<F: Real, S: Mode, A, B> Frule<(A, B), S> for FloatRule<Div, F>
where
    Td<F, S>: ScalarTangent<F>,
    A: Operand<F, Td<F, S>>,
    B: Operand<F, Td<F, S>>,
{
    type Output = Dual<F, Td<F, S>>;
    #[inline(always)]
    fn frule(&self, (a, b): (A, B)) -> Self::Output {
        if S::ORDER == 1 && A::ACTIVE && B::ACTIVE {
            let (pa, pb) = (a.primal(), b.primal());
            let y = pa / pb;
            Dual::new(y, crate::linear::quotient(a.tangent(), b.tangent(), y, pb))
        } else {
            crate::ops::div(a, b)
        }
    }
}

/// The rule of `#[derive_frule] impl From<Src> for Self`, found by the source type: a type
/// may have several conversions (deltae's `From<LchValue>` and `From<XyzValue>` for
/// `LabValue`), so the rule is not a method of the type named after `from` alone.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no forward rule for its conversion from `{Src}`",
    label = "this conversion has no forward rule",
    note = "add `#[derive_frule]` to `impl From<{Src}> for {Self}` (each `impl From` of a type may have it)"
)]
pub trait FromRule<Src> {
    /// The rule's marker.
    type Rule;
    /// The marker.
    fn rule() -> Self::Rule;
}

/// `T::from(x)` in a derived body (also `let y: T = x.into();`): the rule of `T`'s `impl
/// From` for `x`'s primal type.
pub struct ConvertTo<T>(core::marker::PhantomData<T>);

impl<T> ConvertTo<T> {
    /// The conversion into `T`.
    #[inline(always)]
    pub fn new() -> Self {
        ConvertTo(core::marker::PhantomData)
    }
}

impl<T> Default for ConvertTo<T> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

/// The rule `T::from` takes for its argument's primal type, and what it receives.
type FromRuleOf<T, A, S> = <T as FromRule<<A as OpArg<S>>::Primal>>::Rule;

impl<T, A: OpArg<S>, S: Mode> Frule<(A,), S> for ConvertTo<T>
where
    T: FromRule<A::Primal>,
    FromRuleOf<T, A, S>: TakeArg<A, S> + Frule<(Taken<FromRuleOf<T, A, S>, A, S>,), S>,
{
    type Output = <FromRuleOf<T, A, S> as Frule<(Taken<FromRuleOf<T, A, S>, A, S>,), S>>::Output;
    #[inline(always)]
    fn frule(&self, (a,): (A,)) -> Self::Output {
        let a = <FromRuleOf<T, A, S> as TakeArg<A, S>>::take(a);
        <T as FromRule<A::Primal>>::rule().frule((a,))
    }
}

/// `a op b` between an `f32` and a float literal that the macro typed `f64`: beside a
/// struct field or a value computed from one, whose type the syntax does not show, an
/// unsuffixed literal is typed `f64` (deltae's `(lab_0.l + lab_1.l) / 2.0` of `f32`
/// fields; a local bound to a literal, `let s_l = 1.0;`, likewise). In the primal rustc
/// typed the literal `f32`, so the primal code never has `f32` beside an `f64` value, and
/// the rule rounds the literal to `f32` ([`NarrowArg`]) and runs the `f32` rule. That
/// rounding equals rustc's direct one unless the literal lies within 2⁻⁵³ of an `f32`
/// rounding tie (no literal of up to 8 significant digits does).
pub struct NarrowRule<Op>(core::marker::PhantomData<Op>);

/// An operand of [`NarrowRule`] as the `f32` rule takes it: an `f64` literal rounded to
/// `f32`, an `f32` (plain, a dual, a borrowed dual) as it is.
#[doc(hidden)]
pub trait NarrowArg<S: Mode> {
    /// What the `f32` rule receives.
    type Arg;
    /// The conversion.
    fn narrow(self) -> Self::Arg;
}

impl<S: Mode> NarrowArg<S> for f64 {
    type Arg = f32;
    #[inline(always)]
    fn narrow(self) -> f32 {
        self as f32
    }
}

impl<S: Mode> NarrowArg<S> for f32 {
    type Arg = f32;
    #[inline(always)]
    fn narrow(self) -> f32 {
        self
    }
}

impl<S: Mode, T> NarrowArg<S> for Dual<f32, T> {
    type Arg = Self;
    #[inline(always)]
    fn narrow(self) -> Self {
        self
    }
}

impl<'a, S: Mode, T> NarrowArg<S> for Dual<&'a f32, &'a T> {
    type Arg = Self;
    #[inline(always)]
    fn narrow(self) -> Self {
        self
    }
}

impl<Op, X: NarrowArg<S>, S: Mode> TakeArg<X, S> for NarrowRule<Op> {
    type Arg = X::Arg;
    #[inline(always)]
    fn take(x: X) -> X::Arg {
        x.narrow()
    }
}

impl<Op, A, B, S: Mode> Frule<(A, B), S> for NarrowRule<Op>
where
    FloatRule<Op, f32>: Frule<(A, B), S>,
{
    type Output = <FloatRule<Op, f32> as Frule<(A, B), S>>::Output;
    #[inline(always)]
    fn frule(&self, args: (A, B)) -> Self::Output {
        FloatRule::<Op, f32>(core::marker::PhantomData).frule(args)
    }
}

macro_rules! narrow_rows {
    ($($Op:ident)*) => {
        $(
            narrow_rows!(@row $Op, f32, f64);
            narrow_rows!(@row $Op, &'a f32, f64);
            narrow_rows!(@row $Op, f64, f32);
            narrow_rows!(@row $Op, f64, &'a f32);
        )*
    };
    (@row $Op:ident, $L:ty, $R:ty) => {
        impl<'a> OpRule<$Op, $R> for $L {
            type Rule = NarrowRule<$Op>;
            #[inline(always)]
            fn rule() -> Self::Rule {
                NarrowRule(core::marker::PhantomData)
            }
        }
    };
}
narrow_rows!(Add Sub Mul Div Rem);

macro_rules! float_assign_rows {
    (@rows $Op:ident, $F:ty) => {
        impl OpRule<$Op, $F> for $F {
            type Rule = FloatRule<$Op, $F>;
            #[inline(always)]
            fn rule() -> Self::Rule {
                FloatRule(core::marker::PhantomData)
            }
        }
        impl<'a> OpRule<$Op, &'a $F> for $F {
            type Rule = FloatRule<$Op, $F>;
            #[inline(always)]
            fn rule() -> Self::Rule {
                FloatRule(core::marker::PhantomData)
            }
        }
    };
    ($($Op:ident $f:ident;)*) => {
        $(
            float_assign_rows!(@rows $Op, f32);
            float_assign_rows!(@rows $Op, f64);
            impl<'r, F: Real, S: Mode, B> Frule<(Dual<&'r mut F, &'r mut Td<F, S>>, B), S>
                for FloatRule<$Op, F>
            where
                Td<F, S>: ScalarTangent<F>,
                B: Operand<F, Td<F, S>>,
            {
                type Output = Dual<(), NoTangent>;
                #[inline(always)]
                fn frule(&self, (a, b): (Dual<&'r mut F, &'r mut Td<F, S>>, B)) -> Self::Output {
                    let r = crate::ops::$f(Dual::new(*a.primal, *a.tangent), b);
                    *a.primal = r.primal;
                    *a.tangent = r.tangent;
                    Dual::new((), NoTangent)
                }
            }
        )*
    };
}
float_assign_rows!(AddAssign add; SubAssign sub; MulAssign mul; DivAssign div; RemAssign rem;);

macro_rules! float_neg_rows {
    ($($F:ident $L:ty),*) => {
        $(
            impl<'a> OpRule<Neg, ()> for $L {
                type Rule = FloatRule<Neg, $F>;
                #[inline(always)]
                fn rule() -> Self::Rule {
                    FloatRule(core::marker::PhantomData)
                }
            }
        )*
    };
}
float_neg_rows!(f32 f32, f64 f64, f32 &'a f32, f64 &'a f64);

/// The operators' float rows, as a bound every [`Real`] has, so that generic code
/// (`fn f<T: Float>`) finds them for `T` too.
pub trait FloatOperators:
    Sized
    + OpRule<Add, Self, Rule = FloatRule<Add, Self>>
    + OpRule<Sub, Self, Rule = FloatRule<Sub, Self>>
    + OpRule<Mul, Self, Rule = FloatRule<Mul, Self>>
    + OpRule<Div, Self, Rule = FloatRule<Div, Self>>
    + OpRule<Rem, Self, Rule = FloatRule<Rem, Self>>
    + OpRule<Neg, (), Rule = FloatRule<Neg, Self>>
    + OpRule<AddAssign, Self, Rule = FloatRule<AddAssign, Self>>
    + OpRule<SubAssign, Self, Rule = FloatRule<SubAssign, Self>>
    + OpRule<MulAssign, Self, Rule = FloatRule<MulAssign, Self>>
    + OpRule<DivAssign, Self, Rule = FloatRule<DivAssign, Self>>
    + OpRule<RemAssign, Self, Rule = FloatRule<RemAssign, Self>>
{
}

impl FloatOperators for f32 {}
impl FloatOperators for f64 {}

impl<F: Real, S: Mode, A> Frule<(A,), S> for FloatRule<Neg, F>
where
    Td<F, S>: ScalarTangent<F>,
    A: Operand<F, Td<F, S>>,
{
    type Output = Dual<F, Td<F, S>>;
    #[inline(always)]
    fn frule(&self, (a,): (A,)) -> Self::Output {
        crate::ops::neg(a)
    }
}

/// The rule of an operator between integers, for an operand of a type the macro cannot
/// see that is an integer (`let (i, v) = argmax(x); x[i + 1]`): the primal operation, with
/// no tangent.
#[derive(Clone, Copy, Debug, Default)]
pub struct IntRule<Op, I>(core::marker::PhantomData<(Op, I)>);

impl<Op, I, X: OpArg<S>, S: Mode> TakeArg<X, S> for IntRule<Op, I> {
    type Arg = X::Dual;
    #[inline(always)]
    fn take(x: X) -> X::Dual {
        x.dual()
    }
}

macro_rules! int_rows {
    ($($I:ty),*) => {$(
        int_rows!(@op $I, Add add, Sub sub, Mul mul, Div div, Rem rem);
        int_rows!(
            @assign $I,
            AddAssign add_assign, SubAssign sub_assign, MulAssign mul_assign,
            DivAssign div_assign, RemAssign rem_assign
        );
    )*};
    (@op $I:ty, $($Op:ident $f:ident),*) => {$(
        impl OpRule<$Op, $I> for $I {
            type Rule = IntRule<$Op, $I>;
            #[inline(always)]
            fn rule() -> Self::Rule {
                IntRule(core::marker::PhantomData)
            }
        }
        impl<S: Mode, TA, TB> Frule<(Dual<$I, TA>, Dual<$I, TB>), S> for IntRule<$Op, $I> {
            type Output = Dual<$I, NoTangent>;
            #[inline(always)]
            fn frule(&self, (a, b): (Dual<$I, TA>, Dual<$I, TB>)) -> Self::Output {
                Dual::new(core::ops::$Op::$f(a.primal, b.primal), NoTangent)
            }
        }
    )*};
    (@assign $I:ty, $($Op:ident $f:ident),*) => {$(
        impl OpRule<$Op, $I> for $I {
            type Rule = IntRule<$Op, $I>;
            #[inline(always)]
            fn rule() -> Self::Rule {
                IntRule(core::marker::PhantomData)
            }
        }
        impl<'r, S: Mode, TA, TB> Frule<(Dual<&'r mut $I, &'r mut TA>, Dual<$I, TB>), S>
            for IntRule<$Op, $I>
        {
            type Output = Dual<(), NoTangent>;
            #[inline(always)]
            fn frule(&self, (a, b): (Dual<&'r mut $I, &'r mut TA>, Dual<$I, TB>)) -> Self::Output {
                core::ops::$Op::$f(a.primal, b.primal);
                Dual::new((), NoTangent)
            }
        }
    )*};
}
int_rows!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

macro_rules! int_neg_rows {
    ($($I:ty),*) => {$(
        impl OpRule<Neg, ()> for $I {
            type Rule = IntRule<Neg, $I>;
            #[inline(always)]
            fn rule() -> Self::Rule {
                IntRule(core::marker::PhantomData)
            }
        }
        impl<S: Mode, TA> Frule<(Dual<$I, TA>,), S> for IntRule<Neg, $I> {
            type Output = Dual<$I, NoTangent>;
            #[inline(always)]
            fn frule(&self, (a,): (Dual<$I, TA>,)) -> Self::Output {
                Dual::new(-a.primal, NoTangent)
            }
        }
    )*};
}
int_neg_rows!(i8, i16, i32, i64, i128, isize);

/// The rule of `v[i]` / `v[i] = x` on a `Vec`, an array or a borrowed slice, for a value
/// whose type the macro cannot see (an element of a tuple a function returned, `let (p, v)
/// = unpack(q);`): indexed through [`OpRule`] as a user type's `Index` is, rustc picks this
/// row or the user's `impl Index` from the value's type.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeqIndex;

impl<X: OpArg<S>, S: Mode> TakeArg<X, S> for SeqIndex {
    type Arg = X::Dual;
    #[inline(always)]
    fn take(x: X) -> X::Dual {
        x.dual()
    }
}

macro_rules! seq_index_rows {
    ($([$($g:tt)*] $P:ty, $T:ty;)*) => {
        $(
            impl<$($g)*> OpRule<Index, usize> for $P {
                type Rule = SeqIndex;
                #[inline(always)]
                fn rule() -> SeqIndex {
                    SeqIndex
                }
            }
            impl<$($g)*> OpRule<IndexMut, usize> for $P {
                type Rule = SeqIndex;
                #[inline(always)]
                fn rule() -> SeqIndex {
                    SeqIndex
                }
            }
            impl<'r, $($g)*, TE: 'r, TI, S: Mode> Frule<(Dual<&'r $P, &'r $T>, Dual<usize, TI>), S>
                for SeqIndex
            {
                type Output = Dual<&'r E, &'r TE>;
                #[inline(always)]
                fn frule(&self, (v, i): (Dual<&'r $P, &'r $T>, Dual<usize, TI>)) -> Self::Output {
                    let (p, t): (&'r [E], &'r [TE]) = (&v.primal[..], &v.tangent[..]);
                    Dual::new(&p[i.primal], &t[i.primal])
                }
            }
            impl<'r, $($g)*, TE: 'r, TI, S: Mode>
                Frule<(Dual<&'r mut $P, &'r mut $T>, Dual<usize, TI>), S> for SeqIndex
            {
                type Output = Dual<&'r mut E, &'r mut TE>;
                #[inline(always)]
                fn frule(&self, (v, i): (Dual<&'r mut $P, &'r mut $T>, Dual<usize, TI>)) -> Self::Output {
                    let (p, t): (&'r mut [E], &'r mut [TE]) = (&mut v.primal[..], &mut v.tangent[..]);
                    Dual::new(&mut p[i.primal], &mut t[i.primal])
                }
            }
        )*
    };
}
seq_index_rows!([E: Differentiable, const N: usize] [E; N], [TE; N];);
#[cfg(feature = "alloc")]
seq_index_rows!([E: Differentiable] crate::alloc_paths::Vec<E>, crate::alloc_paths::Vec<TE>;);

/// A type of the user's with a derived method named like a `std` method (`len`, `get`,
/// `iter`, ...), registered by `#[derive_frule]` on its inherent `impl` (for the type and
/// its references, `Type` the type itself), `NAME` the method's name hashed: where the
/// macro cannot see a receiver's type (a field, a local a function returned) it takes
/// such a call for the `std` method, and [`std_method_receiver`] then reports the user's
/// type first, instead of rustc's error on the dual.
#[doc(hidden)]
pub trait ShadowsStd<const NAME: u64> {
    /// The type itself, without references.
    type Type: ?Sized;
}

/// The receiver of a call read as a `std` method `NAME` (see [`ShadowsStd`]), probed by
/// autoref: [`ProbeUser`] applies when the receiver's primal type has a method of the
/// user's of that name, [`ProbeStd`] otherwise.
#[doc(hidden)]
pub struct StdProbe<X, const NAME: u64>(core::marker::PhantomData<fn() -> X>);

/// The probe of receiver `x`.
#[doc(hidden)]
#[inline(always)]
pub fn std_probe<X, const NAME: u64>(_: &X) -> StdProbe<X, NAME> {
    StdProbe(core::marker::PhantomData)
}

/// See [`StdProbe`].
#[doc(hidden)]
pub trait ProbeUser {
    /// What the probe found.
    type Found;
    /// The probe.
    fn __fwdad_probe(&self) -> Self::Found;
}

impl<P: Differentiable + ShadowsStd<NAME>, T, const NAME: u64> ProbeUser
    for StdProbe<Dual<P, T>, NAME>
{
    type Found = NamedLikeStd<P::Type>;
    #[inline(always)]
    fn __fwdad_probe(&self) -> Self::Found {
        NamedLikeStd(core::marker::PhantomData)
    }
}

/// See [`StdProbe`].
#[doc(hidden)]
pub trait ProbeStd {
    /// The probe.
    #[inline(always)]
    fn __fwdad_probe(&self) -> StdReceiver {
        StdReceiver
    }
}

impl<X, const NAME: u64> ProbeStd for &StdProbe<X, NAME> {}

/// A receiver of a `std` method.
#[doc(hidden)]
pub struct StdReceiver;

/// A receiver whose type `P` has a method of the user's named like the `std` one.
#[doc(hidden)]
pub struct NamedLikeStd<P: ?Sized>(core::marker::PhantomData<fn() -> P>);

/// What [`std_method_receiver`] accepts.
#[doc(hidden)]
pub trait StdMethodCheck {}

impl StdMethodCheck for StdReceiver {}

impl<P: ?Sized + MethodNamedLikeStd> StdMethodCheck for NamedLikeStd<P> {}

/// Implemented by no type: the error of a call of a user's method named like a `std`
/// one on a receiver whose type the macro cannot see.
#[diagnostic::on_unimplemented(
    message = "`#[derive_frule]` cannot see the type of this method's receiver and read the call as the `std` method of that name, but the receiver is a `{Self}`, which has a method of its own with that name",
    label = "the receiver's type is not written here",
    note = "bind the receiver with its type written first (`let r: &{Self} = &s.field;` or `let r: {Self} = f(..);`, then call the method on `r`), or rename the method"
)]
#[doc(hidden)]
pub trait MethodNamedLikeStd {}

/// Checks a receiver probed by [`StdProbe`] (see [`ShadowsStd`]).
#[doc(hidden)]
#[inline(always)]
pub fn std_method_receiver<C: StdMethodCheck>(_: C) {}

/// The fields of a value whose type carries no tangent, as generated code reads them:
/// `self.0` of a `struct Lcg(u64)` reads `self.tangent.0`, and the tangent of `Lcg` (no
/// field holds a float) is [`NoTangent`]. Through this `Deref`, each numbered field of a
/// `NoTangent` is a `NoTangent` again, so the methods of such a type compile in derived
/// bodies as they are written.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoTangentFields(
    pub NoTangent,
    pub NoTangent,
    pub NoTangent,
    pub NoTangent,
    pub NoTangent,
    pub NoTangent,
    pub NoTangent,
    pub NoTangent,
);

static NO_TANGENT_FIELDS: NoTangentFields = NoTangentFields(
    NoTangent, NoTangent, NoTangent, NoTangent, NoTangent, NoTangent, NoTangent, NoTangent,
);

impl core::ops::Deref for NoTangent {
    type Target = NoTangentFields;
    #[inline(always)]
    fn deref(&self) -> &NoTangentFields {
        &NO_TANGENT_FIELDS
    }
}

impl core::ops::DerefMut for NoTangent {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut NoTangentFields {
        // A zero-sized value: every `&mut` to one is valid and none aliases data.
        // `Box::leak` is not available without `alloc`; a dangling well-aligned pointer to a
        // ZST is a valid `&mut`.
        unsafe { &mut *core::ptr::NonNull::<NoTangentFields>::dangling().as_ptr() }
    }
}

/// [`crate::SelfByValue`] for a method of a generic `impl` (`impl<T: Float> V2<T> { fn
/// norm(self) -> T }`): the receiver's type `P` is carried here, named by the dispatch
/// method on the type (where `Self` is `V2<T>`), since the rule's marker is not generic.
#[doc(hidden)]
pub struct SelfByValueOf<R, P>(pub R, pub core::marker::PhantomData<fn() -> P>);

type TangentOf<P, S> = <P as Differentiable>::TangentIn<S>;

// Receiver plus up to 11 arguments, as `CoerceArgs` goes to 12.
macro_rules! self_by_value_of {
    ($($A:ident $a:ident),*) => {
        impl<R, P: Differentiable + Clone, S: Mode, $($A),*>
            Frule<(crate::frule::OwnedRecv<Dual<P, TangentOf<P, S>>>, $($A,)*), S>
            for SelfByValueOf<R, P>
        where
            R: Frule<(Dual<P, TangentOf<P, S>>, $($A,)*), S>,
        {
            type Output = <R as Frule<(Dual<P, TangentOf<P, S>>, $($A,)*), S>>::Output;
            #[inline(always)]
            fn frule(
                &self,
                (recv, $($a,)*): (crate::frule::OwnedRecv<Dual<P, TangentOf<P, S>>>, $($A,)*),
            ) -> Self::Output {
                self.0.frule((recv.0, $($a,)*))
            }
        }
    };
}
self_by_value_of!();
self_by_value_of!(A1 a1);
self_by_value_of!(A1 a1, A2 a2);
self_by_value_of!(A1 a1, A2 a2, A3 a3);
self_by_value_of!(A1 a1, A2 a2, A3 a3, A4 a4);
self_by_value_of!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5);
self_by_value_of!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6);
self_by_value_of!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6, A7 a7);
self_by_value_of!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6, A7 a7, A8 a8);
self_by_value_of!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6, A7 a7, A8 a8, A9 a9);
self_by_value_of!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6, A7 a7, A8 a8, A9 a9, A10 a10);
self_by_value_of!(A1 a1, A2 a2, A3 a3, A4 a4, A5 a5, A6 a6, A7 a7, A8 a8, A9 a9, A10 a10, A11 a11);

/// The rule of an associated function of a generic `impl` (`impl<T: Float> V2<T> { fn
/// new(x: T, y: T) -> Self }`), called as `V2::new(x, y)`: the dispatch function on the
/// type returns the marker with the type `P` (`V2<?T>`) it was named on, and
/// [`MethodSelf`] ties `P` to the arguments, so rustc infers `T` from them as it does for
/// the plain call (the marker alone leaves it open: E0283).
#[doc(hidden)]
pub struct AssocOf<R, P>(pub R, pub core::marker::PhantomData<fn() -> P>);

/// The type whose `impl` defines the rule, for the arguments `Args` (emitted by
/// `#[derive_frule]` beside each `Frule` impl of a method of a generic `impl`).
#[doc(hidden)]
pub trait MethodSelf<Args, S: Mode> {
    /// The `impl`'s type at these arguments.
    type SelfTy;
}

// Not listed among `Frule`'s implementors in errors: it forwards to a marker's rule.
#[diagnostic::do_not_recommend]
impl<R, P, A, S: Mode> Frule<A, S> for AssocOf<R, P>
where
    R: Frule<A, S> + MethodSelf<A, S, SelfTy = P>,
{
    type Output = <R as Frule<A, S>>::Output;
    #[inline(always)]
    fn frule(&self, args: A) -> Self::Output {
        self.0.frule(args)
    }
    #[inline(always)]
    fn chain_jacobian<J: crate::frule::JacobianSink>(
        &self,
        args: A,
        cols: &[Option<usize>],
        out: &mut J,
    ) -> bool {
        self.0.chain_jacobian(args, cols, out)
    }
}

/// `.len()` / `.is_empty()` on a field whose type the macro cannot see (`self.ys.len()`,
/// `m.label.len()`): `std`'s method on the field's primal, for every `std` type that has
/// one; on a type of the user's (a method of the user's named `len`), the error says what
/// to write.
#[diagnostic::on_unimplemented(
    message = "`#[derive_frule]` read `.len()` (or `.is_empty()`) on this field as the `std` method, but the field is a `{Self}`",
    label = "the field's type is not written here, so `#[derive_frule]` took this for the slice or `Vec` method",
    note = "if `{Self}` has a method of its own with this name, bind the field with its type first (`let r: &{Self} = &s.field;`, then `r.len()`) or rename the method"
)]
#[doc(hidden)]
pub trait FieldLen {
    /// The length.
    fn field_len(&self) -> usize;
}

impl<E> FieldLen for [E] {
    #[inline(always)]
    fn field_len(&self) -> usize {
        self.len()
    }
}
impl<E, const N: usize> FieldLen for [E; N] {
    #[inline(always)]
    fn field_len(&self) -> usize {
        N
    }
}
#[cfg(feature = "alloc")]
impl<E> FieldLen for crate::alloc_paths::Vec<E> {
    #[inline(always)]
    fn field_len(&self) -> usize {
        self.len()
    }
}
impl FieldLen for str {
    #[inline(always)]
    fn field_len(&self) -> usize {
        self.len()
    }
}
#[cfg(feature = "alloc")]
impl FieldLen for crate::alloc_paths::String {
    #[inline(always)]
    fn field_len(&self) -> usize {
        self.len()
    }
}
impl<X: FieldLen + ?Sized> FieldLen for &X {
    #[inline(always)]
    fn field_len(&self) -> usize {
        (**self).field_len()
    }
}
impl<X: FieldLen + ?Sized> FieldLen for &mut X {
    #[inline(always)]
    fn field_len(&self) -> usize {
        (**self).field_len()
    }
}
#[cfg(feature = "alloc")]
impl<X: FieldLen + ?Sized> FieldLen for crate::alloc_paths::Box<X> {
    #[inline(always)]
    fn field_len(&self) -> usize {
        (**self).field_len()
    }
}

/// `field.len()` of a field's dual.
#[inline(always)]
#[doc(hidden)]
pub fn field_len<P: Differentiable + FieldLen, T>(d: &Dual<P, T>) -> usize {
    d.primal.field_len()
}

/// `field.is_empty()` of a field's dual.
#[inline(always)]
#[doc(hidden)]
pub fn field_is_empty<P: Differentiable + FieldLen, T>(d: &Dual<P, T>) -> bool {
    d.primal.field_len() == 0
}

/// A field (`g.n`) read as a float operand of a linearised chain: generated code passes
/// it here first, so that a field that is not a float (`g.n * g.m` of two `usize` fields;
/// `s.a + s.b` of two fields of a type of the user's) is reported at the field, by its type.
#[diagnostic::on_unimplemented(
    message = "`#[derive_frule]` read this field as a float in arithmetic, but it is a `{Self}`",
    label = "the field's type is not written here, so `#[derive_frule]` took this for float arithmetic",
    note = "integer fields: bind one with its type first (`let n: usize = g.n;`), or convert (`g.n as f64`)",
    note = "a field of your own type in an operator: bind it with its type first (`let a: V2 = s.a;`)"
)]
#[doc(hidden)]
pub trait FloatField {}

impl FloatField for f32 {}
impl FloatField for f64 {}

/// A field (`b.pos`) whose method the macro read as a float method (`b.pos.abs()`): the
/// field's type is not written, and a method of the user's type named like a float method
/// is taken for the float one. Generated code passes the receiver here first, so that the
/// error names the field's type and says what to write.
#[diagnostic::on_unimplemented(
    message = "`#[derive_frule]` read this method on a field as the float method of that name, but the field is a `{Self}`",
    label = "the field's type is not written here, so `#[derive_frule]` took this for a float method",
    note = "if `{Self}` has a method of its own with this name, bind the field with its type written first (`let p: &{Self} = &b.pos;`, then `p.abs()`), or rename the method"
)]
#[doc(hidden)]
pub trait FloatMethodField {}

impl FloatMethodField for f32 {}
impl FloatMethodField for f64 {}
impl<X: FloatMethodField + ?Sized> FloatMethodField for &X {}
impl<X: FloatMethodField + ?Sized> FloatMethodField for &mut X {}

/// The receiver's dual itself, once its primal is known to be a float.
// The bound on a line of its own, which rustc's "required by a bound" quotes (not the
// dual types).
#[inline(always)]
#[doc(hidden)]
#[rustfmt::skip]
pub fn float_method_field<
    P: FloatMethodField + Differentiable,
    T,
>(d: Dual<P, T>) -> Dual<P, T> {
    d
}

/// The field's dual itself, once its primal is known to be a float.
#[inline(always)]
#[doc(hidden)]
pub fn float_field<P: Differentiable + FloatField, T>(d: &Dual<P, T>) -> &Dual<P, T> {
    d
}
