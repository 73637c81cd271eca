//! Forward rules for the scalar operations, organised by family.
//!
//! Every smooth scalar rule is one line, written with [`scalar_rule!`](crate::scalar_rule)
//! from its partial derivative(s) in terms of the inputs and the primal output `y`:
//!
//! ```ignore
//! scalar_rule!(y = exp(x) => y);
//! scalar_rule!(y = tan(x) => 1.0 + y * y);
//! scalar_rule!(unbounded y = div(a, b) => (b.recip(), -y / b));
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

use crate::constant::ArgTangent;
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::{Binary, ScalarTangent, Unary};

/// `1 - x²` in a rule's partial expression (`x` a plain scalar or a dual): `1 - x·x` for
/// |x| < 0.5, `(1 - x)(1 + x)` from there. The factors are exact near |x| = 1, where
/// `1 - x·x` cancels; but on duals the factored form's tangent `(1 - x) - (1 + x)` cancels
/// for small |x| (second derivatives of `asin`, `acos`, `atanh`: rel. error 8e-8 at 1e-10,
/// 0 below 1e-17), where `1 - x·x` has the tangent `-2x` exactly.
macro_rules! one_minus_sq {
    ($x:expr) => {
        if $crate::rules::Primal::value($x).abs() < 0.5 {
            1.0 - $x * $x
        } else {
            (1.0 - $x) * (1.0 + $x)
        }
    };
}

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
    // No `{Self}` here: it is often the dual of a value of the user's type
    // (`Dual<V2, V2Tangent<..>>`), which the help line below names anyway.
    message = "`#[derive_frule]` read this as float arithmetic, but an operand is not a float of the operation's type",
    label = "expected `{F}` (or a value derived from the inputs)",
    note = "operands of float arithmetic and methods must have the same float type; convert with `as`",
    note = "a call's integer result is a `Dual` unless its type is written, as the integer type itself (not an alias): `let i: usize = argmax(x);`",
    note = "an operator on your own type (`a + b` of a `Vec3`) uses the rule of its `#[derive_frule] impl Add for Vec3` where the macro sees an operand's type: a parameter or `let` with the type written, an element of a slice of it, `Vec3 {{ .. }}`, `Vec3::new(..)`, a method's result, a call of a function of the file whose result type is written (`fn accel(..) -> Vec3`), another such operator; a field the file's structs declare with one type of yours (`v: Vec3`, and no other `v`); other fields' types it cannot see: name the value first (`let v: Vec3 = q.v;`)"
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

/// A dual, whose tangent is the mode's (active) or a [`ConstTangent`](crate::ConstTangent)
/// (inactive: an element of a constant argument, `Dual::constant`).
impl<F: Real, T: ScalarTangent<F>, M: ArgTangent<F, T>> Operand<F, T> for Dual<F, M> {
    const ACTIVE: bool = M::ACTIVE;
    #[inline(always)]
    fn primal(&self) -> F {
        self.primal
    }
    #[inline(always)]
    fn tangent(&self) -> T {
        self.tangent.tangent()
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

impl<F: Real, T: ScalarTangent<F>, M: ArgTangent<F, T>> Operand<F, T> for Dual<&F, &M> {
    const ACTIVE: bool = M::ACTIVE;
    #[inline(always)]
    fn primal(&self) -> F {
        *self.primal
    }
    #[inline(always)]
    fn tangent(&self) -> T {
        (*self.tangent).tangent()
    }
}

/// An argument of a `#[primitive(d = ..)]` rule: an active `Dual<F, T>` or a plain `F`.
///
/// Narrower than [`Operand`] on purpose: such a function takes `F` by value, so derived
/// code never passes it a borrowed dual, and with two impls a dual argument of unknown
/// type (the differentiated slot of `bind`) resolves to `Dual<F, T>`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an argument of a scalar `#[primitive]` rule over `{F}`",
    label = "expected `{F}` or `Dual<{F}, _>`"
)]
pub trait ScalarOperand<F: Real, T: ScalarTangent<F>>: Operand<F, T> {}

impl<F: Real, T: ScalarTangent<F>> ScalarOperand<F, T> for F {}
impl<F: Real, T: ScalarTangent<F>> ScalarOperand<F, T> for Dual<F, T> {}

/// A dual read through two references: the second field of an `enumerate()` item seen
/// by a closure (`|a, b| a.1.abs()..` in `max_by`), where Rust auto-dereferences.
impl<F: Real, T: ScalarTangent<F>> Operand<F, T> for Dual<&&F, &&T> {
    const ACTIVE: bool = true;
    #[inline(always)]
    fn primal(&self) -> F {
        **self.primal
    }
    #[inline(always)]
    fn tangent(&self) -> T {
        **self.tangent
    }
}

/// Operations a rule's partial expressions use on any mix of plain scalars and duals: a
/// binary rule's partial is also evaluated with the other argument a plain constant
/// ([`Binary::d1_dual`](crate::tangent::Binary::d1_dual)), where a method of `f64` given a
/// dual would not type-check.
#[doc(hidden)]
pub trait Mixed<B>: Sized {
    /// `f32`/`f64`, or a dual if either side is one.
    type Out;
    /// The float type.
    type Scalar: Real;
    /// `self · b`, but zero where `self` is zero even if `b` is infinite or NaN (`0·ln 0`
    /// in `powf`'s `∂/∂b = y·ln a` at `a = 0`, where `0^b` is flat in `b`).
    fn strong_mul(self, b: B) -> Self::Out;
    /// A power of two `s` (a constant: it has no tangent) that brings `max(|self|, |b|)`
    /// near `1` where `(self² + b²)²` would overflow or underflow, else `1`. The scaling is
    /// exact, so `(self·s)² + (b·s)²` rounds as `self² + b²` does where that is in range.
    fn pythag_scale(&self, b: &B) -> Self::Scalar;
    /// `self^b` (`powf`), for `powf`'s own partials in second order, where either side
    /// may be the plain constant.
    fn powf_mixed(self, b: B) -> Self::Out;
}

/// See [`Mixed::pythag_scale`].
fn pythag_scale<F: Real>(a: F, b: F) -> F {
    let m = a.abs().max(b.abs());
    // Fourth roots: second order differentiates `1 / (a² + b²)`, which squares it.
    let big = F::max_value().sqrt().sqrt() * F::cst(0.5);
    let small = F::min_positive_value().sqrt().sqrt() * F::cst(2.0);
    if !m.is_finite() || m == F::zero() || (small..=big).contains(&m) {
        return F::one();
    }
    // 2^k for k near -log2(m), within range (`powi` of 2 is exact).
    let limit = F::max_value().log2().floor() - F::cst(4.0);
    let k = (-m.log2().round()).max(-limit).min(limit);
    F::cst(2.0).powi(k.to_i32().unwrap_or(0))
}

impl<F: Real> Mixed<F> for F {
    type Out = F;
    type Scalar = F;
    #[inline(always)]
    fn strong_mul(self, b: F) -> F {
        // A plain float is its own one-direction tangent: the same strong product.
        ScalarTangent::scale_strong(self, b)
    }
    #[inline(always)]
    fn pythag_scale(&self, b: &F) -> F {
        pythag_scale(*self, *b)
    }
    #[inline(always)]
    fn powf_mixed(self, b: F) -> F {
        self.powf(b)
    }
}

impl<F: Real, T: ScalarTangent<F>, B: Operand<F, T>> Mixed<B> for Dual<F, T> {
    type Out = Dual<F, T>;
    type Scalar = F;
    #[inline(always)]
    fn strong_mul(self, b: B) -> Dual<F, T> {
        if self.primal == F::zero() {
            // d(self·b) = dself·b + self·db, and self = 0.
            Dual::new(F::zero(), self.tangent.scale_strong(b.primal()))
        } else {
            arith::mul(self, b)
        }
    }
    #[inline(always)]
    fn pythag_scale(&self, b: &B) -> F {
        pythag_scale(self.primal, b.primal())
    }
    #[inline(always)]
    fn powf_mixed(self, b: B) -> Dual<F, T> {
        exp_log::powf(self, b)
    }
}

impl<F: Real, T: ScalarTangent<F>> Mixed<Dual<F, T>> for F {
    type Out = Dual<F, T>;
    type Scalar = F;
    #[inline(always)]
    fn strong_mul(self, b: Dual<F, T>) -> Dual<F, T> {
        if self == F::zero() {
            Dual::new(F::zero(), T::zero())
        } else {
            arith::mul(self, b)
        }
    }
    #[inline(always)]
    fn pythag_scale(&self, b: &Dual<F, T>) -> F {
        pythag_scale(*self, b.primal)
    }
    #[inline(always)]
    fn powf_mixed(self, b: Dual<F, T>) -> Dual<F, T> {
        exp_log::powf(self, b)
    }
}

/// The primal value of an operand or intermediate of a rule's partial expression: the plain
/// scalar itself, or a dual's primal. A rule that picks its formula by the size of a value
/// (`tanh`, `atan`) tests this, so the one expression serves plain floats and duals, and
/// second order differentiates the formula picked.
#[doc(hidden)]
pub trait Primal: Copy {
    /// The float type.
    type Scalar: Real;
    /// The primal value.
    fn value(self) -> Self::Scalar;
}

impl<F: Real> Primal for F {
    type Scalar = F;
    #[inline(always)]
    fn value(self) -> F {
        self
    }
}

impl<F: Real, T: ScalarTangent<F>> Primal for Dual<F, T> {
    type Scalar = F;
    #[inline(always)]
    fn value(self) -> F {
        self.primal
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
    const UNBOUNDED: bool = R::UNBOUNDED;
    #[inline(always)]
    fn d(&self, x: F, y: F) -> F {
        self.0.d(x, self.1, y).0
    }
    #[inline(always)]
    fn d_dual<T: ScalarTangent<F>>(&self, x: Dual<F, T>, y: Dual<F, T>) -> Dual<F, T> {
        self.0.d1_dual(x, self.1, y)
    }
}

impl<F: Real, R: Binary<F>> Unary<F> for FixFirst<'_, R, F> {
    const UNBOUNDED: bool = R::UNBOUNDED;
    #[inline(always)]
    fn d(&self, x: F, y: F) -> F {
        self.0.d(self.1, x, y).1
    }
    #[inline(always)]
    fn d_dual<T: ScalarTangent<F>>(&self, x: Dual<F, T>, y: Dual<F, T>) -> Dual<F, T> {
        self.0.d2_dual(self.1, x, y)
    }
}

/// A unary scalar rule's derivative, written once and expanded for `f32` and `f64` (plain
/// and on duals) by [`scalar_rule!`](crate::scalar_rule). [`Real`] dispatches to the right
/// function, so [`Unary<F>`] holds for every `F: Real` through one blanket impl and generic
/// code needs no per-rule bounds.
#[doc(hidden)]
pub trait UnaryDef {
    const UNBOUNDED: bool;
    fn d_f32(x: f32, y: f32) -> f32;
    fn d_f64(x: f64, y: f64) -> f64;
    fn d_dual_f32<T: ScalarTangent<f32>>(x: Dual<f32, T>, y: Dual<f32, T>) -> Dual<f32, T>;
    fn d_dual_f64<T: ScalarTangent<f64>>(x: Dual<f64, T>, y: Dual<f64, T>) -> Dual<f64, T>;
}

/// The binary counterpart of [`UnaryDef`].
#[doc(hidden)]
#[allow(clippy::type_complexity)]
pub trait BinaryDef {
    const UNBOUNDED: bool;
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
    fn d1_dual_f32<T: ScalarTangent<f32>>(a: Dual<f32, T>, b: f32, y: Dual<f32, T>)
        -> Dual<f32, T>;
    fn d1_dual_f64<T: ScalarTangent<f64>>(a: Dual<f64, T>, b: f64, y: Dual<f64, T>)
        -> Dual<f64, T>;
    fn d2_dual_f32<T: ScalarTangent<f32>>(a: f32, b: Dual<f32, T>, y: Dual<f32, T>)
        -> Dual<f32, T>;
    fn d2_dual_f64<T: ScalarTangent<f64>>(a: f64, b: Dual<f64, T>, y: Dual<f64, T>)
        -> Dual<f64, T>;
}

impl<F: Real, R: UnaryDef> Unary<F> for R {
    const UNBOUNDED: bool = <R as UnaryDef>::UNBOUNDED;
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
    const UNBOUNDED: bool = <R as BinaryDef>::UNBOUNDED;
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
    #[inline(always)]
    fn d1_dual<T: ScalarTangent<F>>(&self, a: Dual<F, T>, b: F, y: Dual<F, T>) -> Dual<F, T> {
        F::__d1_dual_binary::<R, T>(a, b, y)
    }
    #[inline(always)]
    fn d2_dual<T: ScalarTangent<F>>(&self, a: F, b: Dual<F, T>, y: Dual<F, T>) -> Dual<F, T> {
        F::__d2_dual_binary::<R, T>(a, b, y)
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
    // `unbounded`: a partial may be infinite or NaN where the function is finite (see
    // `Unary::UNBOUNDED`); the chain rule then keeps zero tangents zero.
    ($(#[$m:meta])* unbounded $y:ident = $($rest:tt)*) => {
        $crate::scalar_rule!(@rule true, $(#[$m])* $y = $($rest)*);
    };
    (@rule $u:literal, $(#[$m:meta])* $y:ident = $name:ident($x:ident) => $d:expr) => {
        $crate::scalar_rule!(
            @rule $u, $(#[$m])* $y = $name($x) = <F as ::num_traits::Float>::$name($x) => $d
        );
    };
    (@rule $u:literal, $(#[$m:meta])* $y:ident = $name:ident($x:ident) = $p:expr => $d:expr) => {
        $(#[$m])*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name {}

        impl $crate::rules::UnaryDef for $name {
            const UNBOUNDED: bool = $u;
            $crate::scalar_rule!(@unary_fns d_f32 d_dual_f32 f32, $y, $x, $d);
            $crate::scalar_rule!(@unary_fns d_f64 d_dual_f64 f64, $y, $x, $d);
        }

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
            if !X::ACTIVE {
                // An element of a constant argument: nothing to differentiate.
                return $crate::Dual::new(y, T::zero());
            }
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
    (@rule $u:literal, $(#[$m:meta])* $y:ident = $name:ident($a:ident, $b:ident) =>
        $(let $v:ident = $e:expr;)* ($da:expr, $db:expr)) => {
        $crate::scalar_rule!(
            @rule $u, $(#[$m])* $y = $name($a, $b) = <F as ::num_traits::Float>::$name($a, $b)
                => $(let $v = $e;)* ($da, $db)
        );
    };
    (@rule $u:literal, $(#[$m:meta])* $y:ident = $name:ident($a:ident, $b:ident) = $p:expr =>
        $(let $v:ident = $e:expr;)* ($da:expr, $db:expr)) => {
        $(#[$m])*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name {}

        impl $crate::rules::BinaryDef for $name {
            const UNBOUNDED: bool = $u;
            $crate::scalar_rule!(
                @binary_fns [d_f32 d_dual_f32 d1_dual_f32 d2_dual_f32] f32,
                $y, $a, $b, [$(let $v = $e;)*], $da, $db
            );
            $crate::scalar_rule!(
                @binary_fns [d_f64 d_dual_f64 d1_dual_f64 d2_dual_f64] f64,
                $y, $a, $b, [$(let $v = $e;)*], $da, $db
            );
        }

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
    // Each partial is also evaluated alone with the other argument a plain constant
    // (`d1_dual`, `d2_dual`), so the shared `let`s must accept either kind of argument.
    (@binary_fns [$d_fn:ident $dd_fn:ident $d1_fn:ident $d2_fn:ident] $F:ty,
        $y:ident, $a:ident, $b:ident, [$($pre:stmt;)*], $da:expr, $db:expr) => {
        #[inline(always)]
        #[allow(unused_variables, clippy::all)]
        fn $d_fn($a: $F, $b: $F, $y: $F) -> ($F, $F) {
            #[allow(dead_code)]
            type F = $F;
            $($pre)*
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
            $($pre)*
            (
                $crate::rules::LiftTo::<$crate::Dual<$F, T>>::lift($da),
                $crate::rules::LiftTo::<$crate::Dual<$F, T>>::lift($db),
            )
        }
        #[inline(always)]
        #[allow(unused_variables, clippy::all)]
        fn $d1_fn<T: $crate::ScalarTangent<$F>>(
            $a: $crate::Dual<$F, T>,
            $b: $F,
            $y: $crate::Dual<$F, T>,
        ) -> $crate::Dual<$F, T> {
            #[allow(dead_code)]
            type F = $F;
            $($pre)*
            $crate::rules::LiftTo::<$crate::Dual<$F, T>>::lift($da)
        }
        #[inline(always)]
        #[allow(unused_variables, clippy::all)]
        fn $d2_fn<T: $crate::ScalarTangent<$F>>(
            $a: $F,
            $b: $crate::Dual<$F, T>,
            $y: $crate::Dual<$F, T>,
        ) -> $crate::Dual<$F, T> {
            #[allow(dead_code)]
            type F = $F;
            $($pre)*
            $crate::rules::LiftTo::<$crate::Dual<$F, T>>::lift($db)
        }
    };
    ($(#[$m:meta])* $y:ident = $($rest:tt)*) => {
        $crate::scalar_rule!(@rule false, $(#[$m])* $y = $($rest)*);
    };
}
