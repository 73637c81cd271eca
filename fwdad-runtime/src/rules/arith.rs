//! Arithmetic: `+ - * / %`, unary `-`, compound assignment, `recip`, `mul_add`.
//!
//! The free functions (`add`, `mul`, ...) take any mix of active duals and inactive scalars
//! and are what generated code calls; the `std::ops` impls on `Dual` make hand-written rules
//! read like plain arithmetic. An inactive operand never has its (zero) tangent multiplied.

// Without `std`, the float methods of the rules' partials (`x.cos()`) are `Float`'s (libm).
use super::{binary, Operand};
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::ScalarTangent;
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};
#[cfg(not(feature = "std"))]
use num_traits::Float as _;

crate::scalar_rule!(
    /// Multiplication: `∂(a·b) = (b, a)`.
    y = mul(a, b) = a * b => (b, a)
);
crate::scalar_rule!(
    /// Division: `∂(a/b) = (1/b, -y/b)`.
    unbounded y = div(a, b) = a / b => (b.recip(), -y / b)
);
crate::scalar_rule!(
    /// Remainder `a % b = a - b·trunc(a/b)`: `∂ = (1, -trunc(a/b))`.
    y = rem(a, b) = a % b => (1.0, -((a - y) / b).round())
);
crate::scalar_rule!(
    /// Euclidean remainder `a.rem_euclid(b) = a - b·q`, `q = a.div_euclid(b)` locally
    /// constant: `∂ = (1, -q)`. The value as std computes it (`a % b`, plus `|b|` if
    /// negative), bit for bit.
    y = rem_euclid(a, b) = {
        let r = a % b;
        if r < F::zero() { r + b.abs() } else { r }
    } => (1.0, -((a - y) / b).round())
);
crate::scalar_rule!(
    /// `x * x` (what generated code emits for a product of a value with itself): the same
    /// primal bits as `x * x`, one tangent update (`2x·dx`) instead of two.
    y = sq(x) = x * x => 2.0 * x
);
crate::scalar_rule!(
    /// Reciprocal: `∂(1/x) = -y²`.
    unbounded y = recip(x) => -(y * y)
);

/// `a + b`.
#[inline(always)]
pub fn add<F: Real, T: ScalarTangent<F>, A: Operand<F, T>, B: Operand<F, T>>(
    a: A,
    b: B,
) -> Dual<F, T> {
    let y = a.primal() + b.primal();
    let t = match (A::ACTIVE, B::ACTIVE) {
        (true, true) => a.tangent().add(b.tangent()),
        (true, false) => a.tangent(),
        (false, true) => b.tangent(),
        (false, false) => T::zero(),
    };
    Dual::new(y, t)
}

/// `a - b`.
#[inline(always)]
pub fn sub<F: Real, T: ScalarTangent<F>, A: Operand<F, T>, B: Operand<F, T>>(
    a: A,
    b: B,
) -> Dual<F, T> {
    let y = a.primal() - b.primal();
    let t = match (A::ACTIVE, B::ACTIVE) {
        (true, true) => a.tangent().sub(b.tangent()),
        (true, false) => a.tangent(),
        (false, true) => b.tangent().neg(),
        (false, false) => T::zero(),
    };
    Dual::new(y, t)
}

/// `-x`.
#[inline(always)]
pub fn neg<F: Real, T: ScalarTangent<F>, X: Operand<F, T>>(x: X) -> Dual<F, T> {
    Dual::new(-x.primal(), x.tangent().neg())
}

/// `a.mul_add(b, c) = a·b + c` with one rounding, as the primal computes it.
#[inline(always)]
pub fn mul_add<F, T, A, B, C>(a: A, b: B, c: C) -> Dual<F, T>
where
    F: Real,
    T: ScalarTangent<F>,
    A: Operand<F, T>,
    B: Operand<F, T>,
    C: Operand<F, T>,
{
    let y = a.primal().mul_add(b.primal(), c.primal());
    // The tangent of a·b (product rule, second order included), then + dc.
    let ab = binary(&mul {}, a, b, y).tangent;
    let t = if C::ACTIVE { ab.add(c.tangent()) } else { ab };
    Dual::new(y, t)
}

impl<F: Real, T: ScalarTangent<F>> Dual<F, T> {
    /// `self.mul_add(b, c) = self·b + c`.
    #[inline(always)]
    pub fn mul_add<B: Operand<F, T>, C: Operand<F, T>>(self, b: B, c: C) -> Self {
        mul_add(self, b, c)
    }
}

macro_rules! binop {
    ($Tr:ident $m:ident $f:ident, $TrA:ident $ma:ident) => {
        impl<F: Real, T: ScalarTangent<F>> $Tr for Dual<F, T> {
            type Output = Self;
            #[inline(always)]
            fn $m(self, rhs: Self) -> Self {
                $f(self, rhs)
            }
        }
        impl<F: Real, T: ScalarTangent<F>> $Tr<F> for Dual<F, T> {
            type Output = Self;
            #[inline(always)]
            fn $m(self, rhs: F) -> Self {
                $f(self, rhs)
            }
        }
        impl<F: Real, T: ScalarTangent<F>, R: Operand<F, T>> $TrA<R> for Dual<F, T> {
            #[inline(always)]
            fn $ma(&mut self, rhs: R) {
                *self = $f(*self, rhs);
            }
        }
        binop!(@scalar_lhs f32, $Tr $m $f);
        binop!(@scalar_lhs f64, $Tr $m $f);
    };
    // Left out of rustc's list of a float's operator impls: a type error in the user's
    // own float arithmetic (`x * n` of an `f64` and a `u32`) lists std's impls only.
    (@scalar_lhs $S:ty, $Tr:ident $m:ident $f:ident) => {
        #[diagnostic::do_not_recommend]
        impl<T: ScalarTangent<$S>> $Tr<Dual<$S, T>> for $S {
            type Output = Dual<$S, T>;
            #[inline(always)]
            fn $m(self, rhs: Dual<$S, T>) -> Dual<$S, T> {
                $f(self, rhs)
            }
        }
    };
}
binop!(Add add add, AddAssign add_assign);
binop!(Sub sub sub, SubAssign sub_assign);
binop!(Mul mul mul, MulAssign mul_assign);
binop!(Div div div, DivAssign div_assign);
binop!(Rem rem rem, RemAssign rem_assign);

impl<F: Real, T: ScalarTangent<F>> Neg for Dual<F, T> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        neg(self)
    }
}
