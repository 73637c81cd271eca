//! Comparisons: they read primals only, so a rule's control flow is the primal's.

use super::Operand;
use crate::real::Real;
use crate::tangent::ScalarTangent;

macro_rules! comparison {
    ($($(#[$m:meta])* $name:ident $op:tt),*) => {$(
        $(#[$m])*
        #[inline(always)]
        pub fn $name<F: Real, T: ScalarTangent<F>, A: Operand<F, T>, B: Operand<F, T>>(a: A, b: B) -> bool {
            a.primal() $op b.primal()
        }
    )*};
}
comparison!(
    /// `a < b` on primals.
    lt <,
    /// `a <= b` on primals.
    le <=,
    /// `a > b` on primals.
    gt >,
    /// `a >= b` on primals.
    ge >=,
    /// `a == b` on primals.
    eq ==,
    /// `a != b` on primals.
    ne !=
);
