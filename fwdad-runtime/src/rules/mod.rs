//! Forward rules for the scalar operations, organised by family.
//!
//! Every smooth scalar rule is one line, written with [`scalar_rule!`](crate::scalar_rule)
//! from its partial derivative(s) in terms of the inputs and the primal output `y`:
//!
//! ```ignore
//! scalar_rule!(y = exp(x) => y);
//! scalar_rule!(y = tanh(x) => 1.0 - y * y);
//! scalar_rule!(y = atan2(a, b) => (b / (a * a + b * b), -a / (a * a + b * b)));
//! ```
//!
//! One line gives, for `f32` and `f64` and every tangent representation
//! ([`ScalarTangent`]: one direction, batches, second order):
//! * a marker struct (`exp`) implementing [`Unary`] / [`Binary`], whose `d_dual` evaluates
//!   the same partial expression on duals so second-order tangents get `f''` for free;
//! * a free function `exp(x: Dual<F, T>) -> Dual<F, T>` (binary rules accept any mix of
//!   active duals and inactive plain scalars through [`Operand`], and never multiply a
//!   zero tangent: an inactive operand contributes nothing);
//! * an inherent method `Dual::exp`, so hand-written rules read like plain float code.
//!
//! The primal is computed by the same `f32`/`f64` method the plain function calls, so it is
//! bit-identical. Piecewise-linear rules (abs, min, max, floor, ...) are written by hand
//! from the linear operations of [`ScalarTangent`].

use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::{Binary, ScalarTangent, Unary};

pub mod arith;
pub mod compare;
pub mod exp_log;
pub mod hyperbolic;
pub mod nondiff;
pub mod trig;

/// An argument of a scalar rule: an active `Dual<F, T>` (or a borrowed `Dual<&F, &T>`, as
/// iterating a slice yields) or an inactive plain `F`.
///
/// `ACTIVE` is a constant, so after inlining a rule keeps only the branch for its
/// argument mix: `mul(x, 2.0)` computes `2.0 · dx` and nothing else.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an operand of a differentiated `{F}` operation",
    label = "expected `{F}` (or a value derived from the inputs)",
    note = "operands of float arithmetic and methods must have the same float type; convert with `as`",
    note = "a call's integer result is a `Dual` unless its type is written: `let i: usize = argmax(x);`"
)]
pub trait Operand<F: Real, T: ScalarTangent<F>>: Copy {
    /// Whether the operand carries a tangent.
    const ACTIVE: bool;
    /// The primal value.
    fn primal(&self) -> F;
    /// The tangent (zero for an inactive operand; rules never read it then).
    fn tangent(&self) -> T;
}

impl<F: Real, T: ScalarTangent<F>> Operand<F, T> for F {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn primal(&self) -> F {
        *self
    }
    #[inline(always)]
    fn tangent(&self) -> T {
        T::zero()
    }
}

impl<F: Real, T: ScalarTangent<F>> Operand<F, T> for Dual<F, T> {
    const ACTIVE: bool = true;
    #[inline(always)]
    fn primal(&self) -> F {
        self.primal
    }
    #[inline(always)]
    fn tangent(&self) -> T {
        self.tangent
    }
}

impl<F: Real, T: ScalarTangent<F>> Operand<F, T> for &F {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn primal(&self) -> F {
        **self
    }
    #[inline(always)]
    fn tangent(&self) -> T {
        T::zero()
    }
}

impl<F: Real, T: ScalarTangent<F>> Operand<F, T> for Dual<&F, &T> {
    const ACTIVE: bool = true;
    #[inline(always)]
    fn primal(&self) -> F {
        *self.primal
    }
    #[inline(always)]
    fn tangent(&self) -> T {
        *self.tangent
    }
}

/// Converts the value of a partial-derivative expression to the type it is evaluated at: a
/// plain scalar stays a scalar; on duals, a constant partial (`1.0`) becomes a constant dual.
pub trait LiftTo<Out> {
    /// The conversion.
    fn lift(self) -> Out;
}

impl<F: Real> LiftTo<F> for F {
    #[inline(always)]
    fn lift(self) -> F {
        self
    }
}

impl<F: Real, T: ScalarTangent<F>> LiftTo<Dual<F, T>> for F {
    #[inline(always)]
    fn lift(self) -> Dual<F, T> {
        Dual::new(self, T::zero())
    }
}

impl<F: Real, T: ScalarTangent<F>> LiftTo<Dual<F, T>> for Dual<F, T> {
    #[inline(always)]
    fn lift(self) -> Dual<F, T> {
        self
    }
}

/// Applies a unary rule: `y` is the primal result, already computed.
#[inline(always)]
pub fn unary<F: Real, T: ScalarTangent<F>, R: Unary<F>>(
    rule: &R,
    x: Dual<F, T>,
    y: F,
) -> Dual<F, T> {
    Dual::new(y, T::chain1(rule, x.primal, y, x.tangent))
}

/// Applies a binary rule to any mix of active and inactive operands.
#[inline(always)]
pub fn binary<F, T, A, B, R>(rule: &R, a: A, b: B, y: F) -> Dual<F, T>
where
    F: Real,
    T: ScalarTangent<F>,
    A: Operand<F, T>,
    B: Operand<F, T>,
    R: Binary<F>,
{
    let (x1, x2) = (a.primal(), b.primal());
    let tangent = match (A::ACTIVE, B::ACTIVE) {
        (true, true) => T::chain2(rule, x1, x2, y, a.tangent(), b.tangent()),
        (true, false) => T::chain1(&FixSecond(rule, x2), x1, y, a.tangent()),
        (false, true) => T::chain1(&FixFirst(rule, x1), x2, y, b.tangent()),
        (false, false) => T::zero(),
    };
    Dual::new(y, tangent)
}

/// A binary rule seen as a function of its first argument, the second held constant.
struct FixSecond<'r, R, F>(&'r R, F);
/// A binary rule seen as a function of its second argument, the first held constant.
struct FixFirst<'r, R, F>(&'r R, F);

impl<F: Real, R: Binary<F>> Unary<F> for FixSecond<'_, R, F> {
    #[inline(always)]
    fn d(&self, x: F, y: F) -> F {
        self.0.d(x, self.1, y).0
    }
    #[inline(always)]
    fn d_dual<T: ScalarTangent<F>>(&self, x: Dual<F, T>, y: Dual<F, T>) -> Dual<F, T> {
        self.0.d_dual(x, Dual::new(self.1, T::zero()), y).0
    }
}

impl<F: Real, R: Binary<F>> Unary<F> for FixFirst<'_, R, F> {
    #[inline(always)]
    fn d(&self, x: F, y: F) -> F {
        self.0.d(self.1, x, y).1
    }
    #[inline(always)]
    fn d_dual<T: ScalarTangent<F>>(&self, x: Dual<F, T>, y: Dual<F, T>) -> Dual<F, T> {
        self.0.d_dual(Dual::new(self.1, T::zero()), x, y).1
    }
}

/// A unary scalar rule's derivative, written once and expanded for `f32` and `f64` (plain
/// and on duals) by [`scalar_rule!`](crate::scalar_rule). [`Real`] dispatches to the right
/// function, so [`Unary<F>`] holds for every `F: Real` through one blanket impl and generic
/// code needs no per-rule bounds.
#[doc(hidden)]
pub trait UnaryDef {
    fn d_f32(x: f32, y: f32) -> f32;
    fn d_f64(x: f64, y: f64) -> f64;
    fn d_dual_f32<T: ScalarTangent<f32>>(x: Dual<f32, T>, y: Dual<f32, T>) -> Dual<f32, T>;
    fn d_dual_f64<T: ScalarTangent<f64>>(x: Dual<f64, T>, y: Dual<f64, T>) -> Dual<f64, T>;
}

/// The binary counterpart of [`UnaryDef`].
#[doc(hidden)]
#[allow(clippy::type_complexity)]
pub trait BinaryDef {
    fn d_f32(a: f32, b: f32, y: f32) -> (f32, f32);
    fn d_f64(a: f64, b: f64, y: f64) -> (f64, f64);
    fn d_dual_f32<T: ScalarTangent<f32>>(
        a: Dual<f32, T>,
        b: Dual<f32, T>,
        y: Dual<f32, T>,
    ) -> (Dual<f32, T>, Dual<f32, T>);
    fn d_dual_f64<T: ScalarTangent<f64>>(
        a: Dual<f64, T>,
        b: Dual<f64, T>,
        y: Dual<f64, T>,
    ) -> (Dual<f64, T>, Dual<f64, T>);
}

impl<F: Real, R: UnaryDef> Unary<F> for R {
    #[inline(always)]
    fn d(&self, x: F, y: F) -> F {
        F::__d_unary::<R>(x, y)
    }
    #[inline(always)]
    fn d_dual<T: ScalarTangent<F>>(&self, x: Dual<F, T>, y: Dual<F, T>) -> Dual<F, T> {
        F::__d_dual_unary::<R, T>(x, y)
    }
}

impl<F: Real, R: BinaryDef> Binary<F> for R {
    #[inline(always)]
    fn d(&self, a: F, b: F, y: F) -> (F, F) {
        F::__d_binary::<R>(a, b, y)
    }
    #[inline(always)]
    fn d_dual<T: ScalarTangent<F>>(
        &self,
        a: Dual<F, T>,
        b: Dual<F, T>,
        y: Dual<F, T>,
    ) -> (Dual<F, T>, Dual<F, T>) {
        F::__d_dual_binary::<R, T>(a, b, y)
    }
}

/// Defines a smooth scalar rule from its partial derivatives (see the [module docs](self)).
///
/// ```ignore
/// scalar_rule!(y = sin(x) => x.cos());
/// ```
/// expands to (for `F` in `f32`, `f64`):
/// ```ignore
/// pub struct sin {}                                 // the rule's marker
/// impl Unary<F> for sin {
///     fn d(&self, x: F, y: F) -> F { x.cos() }
///     fn d_dual<T>(&self, x: Dual<F, T>, y: Dual<F, T>) -> Dual<F, T> { x.cos() }
/// }
/// pub fn sin<F, T>(x: Dual<F, T>) -> Dual<F, T> { unary(&sin {}, x, Float::sin(x.primal)) }
/// impl<F, T> Dual<F, T> { pub fn sin(self) -> Self { sin(self) } }
/// ```
/// Inside the partial expressions `F` names the float type (for constants: `F::LN_2()`).
#[macro_export]
#[doc(hidden)]
macro_rules! scalar_rule {
    ($(#[$m:meta])* $y:ident = $name:ident($x:ident) => $d:expr) => {
        $crate::scalar_rule!($(#[$m])* $y = $name($x) = <F as ::num_traits::Float>::$name($x) => $d);
    };
    ($(#[$m:meta])* $y:ident = $name:ident($x:ident) = $p:expr => $d:expr) => {
        $(#[$m])*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name {}

        $crate::scalar_rule!(@unary_impl $y, $name, $x, $d);

        $(#[$m])*
        #[inline(always)]
        pub fn $name<F, T, X>(x: X) -> $crate::Dual<F, T>
        where
            F: $crate::Real,
            T: $crate::ScalarTangent<F>,
            X: $crate::rules::Operand<F, T>,
        {
            let y = {
                let $x = x.primal();
                $p
            };
            $crate::rules::unary(&$name {}, $crate::Dual::new(x.primal(), x.tangent()), y)
        }

        impl<F: $crate::Real, T: $crate::ScalarTangent<F>> $crate::Dual<F, T>
        where
        {
            $(#[$m])*
            #[inline(always)]
            pub fn $name(self) -> Self {
                $name(self)
            }
        }
    };
    (@unary_impl $y:ident, $name:ident, $x:ident, $d:expr) => {
        impl $crate::rules::UnaryDef for $name {
            $crate::scalar_rule!(@unary_fns d_f32 d_dual_f32 f32, $y, $x, $d);
            $crate::scalar_rule!(@unary_fns d_f64 d_dual_f64 f64, $y, $x, $d);
        }
    };
    (@unary_fns $d_fn:ident $dd_fn:ident $F:ty, $y:ident, $x:ident, $d:expr) => {
        #[inline(always)]
        #[allow(unused_variables, clippy::all)]
        fn $d_fn($x: $F, $y: $F) -> $F {
            #[allow(dead_code)]
            type F = $F;
            $crate::rules::LiftTo::<$F>::lift($d)
        }
        #[inline(always)]
        #[allow(unused_variables, clippy::all)]
        fn $dd_fn<T: $crate::ScalarTangent<$F>>(
            $x: $crate::Dual<$F, T>,
            $y: $crate::Dual<$F, T>,
        ) -> $crate::Dual<$F, T> {
            #[allow(dead_code)]
            type F = $F;
            $crate::rules::LiftTo::<$crate::Dual<$F, T>>::lift($d)
        }
    };
    ($(#[$m:meta])* $y:ident = $name:ident($a:ident, $b:ident) => ($da:expr, $db:expr)) => {
        $crate::scalar_rule!(
            $(#[$m])* $y = $name($a, $b) = <F as ::num_traits::Float>::$name($a, $b) => ($da, $db)
        );
    };
    ($(#[$m:meta])* $y:ident = $name:ident($a:ident, $b:ident) = $p:expr => ($da:expr, $db:expr)) => {
        $(#[$m])*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name {}

        $crate::scalar_rule!(@binary_impl $y, $name, $a, $b, $da, $db);

        $(#[$m])*
        #[inline(always)]
        pub fn $name<F, T, A, B>(a: A, b: B) -> $crate::Dual<F, T>
        where
            F: $crate::Real,
            T: $crate::ScalarTangent<F>,
            A: $crate::rules::Operand<F, T>,
            B: $crate::rules::Operand<F, T>,
        {
            let y = {
                let ($a, $b) = (a.primal(), b.primal());
                $p
            };
            $crate::rules::binary(&$name {}, a, b, y)
        }

        impl<F: $crate::Real, T: $crate::ScalarTangent<F>> $crate::Dual<F, T>
        where
        {
            $(#[$m])*
            #[inline(always)]
            // `mul`, `div`, `rem`: the `std::ops` traits are implemented as well (arith.rs);
            // the method also takes an inactive operand, as generated code may pass one.
            #[allow(clippy::should_implement_trait)]
            pub fn $name<B: $crate::rules::Operand<F, T>>(self, other: B) -> Self {
                $name(self, other)
            }
        }
    };
    (@binary_impl $y:ident, $name:ident, $a:ident, $b:ident, $da:expr, $db:expr) => {
        impl $crate::rules::BinaryDef for $name {
            $crate::scalar_rule!(@binary_fns d_f32 d_dual_f32 f32, $y, $a, $b, $da, $db);
            $crate::scalar_rule!(@binary_fns d_f64 d_dual_f64 f64, $y, $a, $b, $da, $db);
        }
    };
    (@binary_fns $d_fn:ident $dd_fn:ident $F:ty, $y:ident, $a:ident, $b:ident, $da:expr, $db:expr) => {
        #[inline(always)]
        #[allow(unused_variables, clippy::all)]
        fn $d_fn($a: $F, $b: $F, $y: $F) -> ($F, $F) {
            #[allow(dead_code)]
            type F = $F;
            (
                $crate::rules::LiftTo::<$F>::lift($da),
                $crate::rules::LiftTo::<$F>::lift($db),
            )
        }
        #[inline(always)]
        #[allow(unused_variables, clippy::all)]
        fn $dd_fn<T: $crate::ScalarTangent<$F>>(
            $a: $crate::Dual<$F, T>,
            $b: $crate::Dual<$F, T>,
            $y: $crate::Dual<$F, T>,
        ) -> ($crate::Dual<$F, T>, $crate::Dual<$F, T>) {
            #[allow(dead_code)]
            type F = $F;
            (
                $crate::rules::LiftTo::<$crate::Dual<$F, T>>::lift($da),
                $crate::rules::LiftTo::<$crate::Dual<$F, T>>::lift($db),
            )
        }
    };
}
