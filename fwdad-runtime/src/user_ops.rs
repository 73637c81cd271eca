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
//! `call::<S, _, _, _>(&user_ops::rule2::<Mul, _, _>(&a, &b), (a, b))`: rustc picks the rule
//! from the operands' primal types, as it picks the `impl Mul` itself. The same
//! operators between floats have rows here too ([`FloatRule`]), so an operand the macro
//! took for a user type that is a float after all (`type Real = f64`) gets the float
//! rule: slower than the inline float code, never a wrong derivative.
//!
//! The primal helpers (`add`, `add_assign`, ...) are what an inactive operator emits:
//! the user's own `impl` called as Rust's operator calls it, bit for bit.

use crate::differentiable::Differentiable;
use crate::dual::Dual;
use crate::frule::{Frule, Promoted};
use crate::real::Real;
use crate::structural::PromoteRef;
use crate::tangent::Mode;

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
);

/// The rule of operator `Op` with `Self` on the left and `Rhs` on the right, registered by
/// `#[derive_frule]` on the operator's `impl`.
#[diagnostic::on_unimplemented(
    message = "no forward rule for this operator between `{Self}` and `{Rhs}`",
    label = "this operator has no forward rule",
    note = "put `#[derive_frule]` on the operator's `impl` (`#[derive_frule] impl Add for Vec3 {{ .. }}`, `#[derive_frule] impl Mul<Vec3> for f64 {{ .. }}`); `a += b` uses the `AddAssign` impl, `-a` the `Neg` impl"
)]
pub trait OpRule<Op, Rhs> {
    /// The rule's marker.
    type Rule;
    /// The marker.
    fn rule() -> Self::Rule;
}

/// The primal type of an operand as generated code passes it (a dual, or a promoted
/// constant reference).
#[doc(hidden)]
pub trait OperandOf {
    /// The operand's primal type.
    type Primal;
}

impl<P: Differentiable, T> OperandOf for Dual<P, T> {
    type Primal = P;
}

impl<'a, X: PromoteRef<'a, S>, S: Mode> OperandOf for Promoted<'a, X, S> {
    type Primal = X;
}

/// The rule of binary operator `Op` between the operands `a` and `b`.
#[inline(always)]
pub fn rule2<Op, A: OperandOf, B: OperandOf>(
    _a: &A,
    _b: &B,
) -> <A::Primal as OpRule<Op, B::Primal>>::Rule
where
    A::Primal: OpRule<Op, B::Primal>,
{
    <A::Primal as OpRule<Op, B::Primal>>::rule()
}

/// The rule of unary operator `Op` (`-a`) on the operand `a`.
#[inline(always)]
pub fn rule1<Op, A: OperandOf>(_a: &A) -> <A::Primal as OpRule<Op, ()>>::Rule
where
    A::Primal: OpRule<Op, ()>,
{
    <A::Primal as OpRule<Op, ()>>::rule()
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
pub struct FloatRule<Op>(core::marker::PhantomData<Op>);

type Td<F, S> = <F as Differentiable>::TangentIn<S>;

macro_rules! float_rows {
    ($($Op:ident $f:ident;)*) => {
        $(
            impl<F: Real> OpRule<$Op, F> for F {
                type Rule = FloatRule<$Op>;
                #[inline(always)]
                fn rule() -> FloatRule<$Op> {
                    FloatRule(core::marker::PhantomData)
                }
            }
            impl<F: Real, S: Mode> Frule<(Dual<F, Td<F, S>>, Dual<F, Td<F, S>>), S> for FloatRule<$Op>
            where
                Td<F, S>: crate::tangent::ScalarTangent<F>,
            {
                type Output = Dual<F, Td<F, S>>;
                #[inline(always)]
                fn frule(&self, (a, b): (Dual<F, Td<F, S>>, Dual<F, Td<F, S>>)) -> Self::Output {
                    crate::ops::$f(a, b)
                }
            }
        )*
    };
}
float_rows!(Add add; Sub sub; Mul mul; Div div; Rem rem;);

macro_rules! float_assign_rows {
    ($($Op:ident $f:ident;)*) => {
        $(
            impl<F: Real> OpRule<$Op, F> for F {
                type Rule = FloatRule<$Op>;
                #[inline(always)]
                fn rule() -> FloatRule<$Op> {
                    FloatRule(core::marker::PhantomData)
                }
            }
            impl<'a, F: Real, S: Mode> Frule<(Dual<&'a mut F, &'a mut Td<F, S>>, Dual<F, Td<F, S>>), S>
                for FloatRule<$Op>
            where
                Td<F, S>: crate::tangent::ScalarTangent<F>,
            {
                type Output = Dual<(), crate::tangent::NoTangent>;
                #[inline(always)]
                fn frule(
                    &self,
                    (a, b): (Dual<&'a mut F, &'a mut Td<F, S>>, Dual<F, Td<F, S>>),
                ) -> Self::Output {
                    let r = crate::ops::$f(Dual::new(*a.primal, *a.tangent), b);
                    *a.primal = r.primal;
                    *a.tangent = r.tangent;
                    Dual::new((), crate::tangent::NoTangent)
                }
            }
        )*
    };
}
float_assign_rows!(AddAssign add; SubAssign sub; MulAssign mul; DivAssign div; RemAssign rem;);

impl<F: Real> OpRule<Neg, ()> for F {
    type Rule = FloatRule<Neg>;
    #[inline(always)]
    fn rule() -> FloatRule<Neg> {
        FloatRule(core::marker::PhantomData)
    }
}

impl<F: Real, S: Mode> Frule<(Dual<F, Td<F, S>>,), S> for FloatRule<Neg>
where
    Td<F, S>: crate::tangent::ScalarTangent<F>,
{
    type Output = Dual<F, Td<F, S>>;
    #[inline(always)]
    fn frule(&self, (a,): (Dual<F, Td<F, S>>,)) -> Self::Output {
        crate::ops::neg(a)
    }
}
