//! Piecewise rules: rounding, sign, `abs`, `min`, `max`, `clamp`, `copysign`, `fract`,
//! `div_euclid`.
//!
//! These are linear on each piece, so they are written by hand from the linear operations of
//! [`ScalarTangent`] (correct for every representation, second order included).
//!
//! Conventions at kinks, following JAX:
//! * `floor ceil round trunc signum`: tangent zero (they are locally constant).
//! * `fract(x) = x - trunc(x)`: tangent `dx`.
//! * `abs(x)`: `sign(x)·dx`, with `abs'(0) = 0` (the midpoint of the subgradient).
//! * `max(a, b)` / `min(a, b)`: the tangent of the selected operand; on a tie, the mean
//!   `(da + db)/2`. A NaN operand is ignored, as `f64::max` ignores it.
//! * `clamp(x, lo, hi)`: `dx` strictly inside, the bound's tangent outside; at a bound, the
//!   mean of the two.
//! * `copysign(a, b)`: `±da` (the sign of `b` is locally constant).
//! * `round_ties_even`: tangent zero, as `round`.
//! * `a.abs_sub(b) = max(a - b, 0)`: `da - db` where `a > b`, zero where `a < b`, and on a
//!   tie half of it, as `max` splits a tie.
//! * `a.midpoint(b)`: `(da + db)/2` (linear; listed here for its hand-written primal).

use super::Operand;
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::ScalarTangent;

macro_rules! locally_constant {
    ($($(#[$m:meta])* $name:ident),*) => {$(
        $(#[$m])*
        #[inline(always)]
        pub fn $name<F: Real, T: ScalarTangent<F>, X: Operand<F, T>>(x: X) -> Dual<F, T> {
            Dual::new(<F as num_traits::Float>::$name(x.primal()), T::zero())
        }
        impl<F: Real, T: ScalarTangent<F>> Dual<F, T> {
            $(#[$m])*
            #[inline(always)]
            pub fn $name(self) -> Self {
                $name(self)
            }
        }
    )*};
}
locally_constant!(
    /// Largest integer `<= x`: tangent zero.
    floor,
    /// Smallest integer `>= x`: tangent zero.
    ceil,
    /// Nearest integer: tangent zero.
    round,
    /// Integer part: tangent zero.
    trunc,
    /// Sign (`±1`, NaN for NaN): tangent zero.
    signum
);

/// Nearest integer, ties to even: tangent zero.
#[inline(always)]
pub fn round_ties_even<F: Real, T: ScalarTangent<F>, X: Operand<F, T>>(x: X) -> Dual<F, T> {
    Dual::new(x.primal().__round_ties_even(), T::zero())
}

/// `a.abs_sub(b)`, C's `fdim` (deprecated in `std`, still compiled): `a - b` where `a > b`,
/// `+0` otherwise, NaN if either is. The primal through `num_traits`, which forwards to
/// `std`'s.
#[inline(always)]
pub fn abs_sub<F: Real, T: ScalarTangent<F>, A: Operand<F, T>, B: Operand<F, T>>(
    a: A,
    b: B,
) -> Dual<F, T> {
    let (pa, pb) = (a.primal(), b.primal());
    #[allow(deprecated)]
    let y = <F as num_traits::Float>::abs_sub(pa, pb);
    let diff = || match (A::ACTIVE, B::ACTIVE) {
        (true, true) => a.tangent().sub(b.tangent()),
        (true, false) => a.tangent(),
        (false, true) => b.tangent().neg(),
        (false, false) => T::zero(),
    };
    let t = if pa > pb {
        diff()
    } else if pa == pb {
        diff().scale(F::cst(0.5))
    } else {
        T::zero()
    };
    Dual::new(y, t)
}

/// `a.midpoint(b)`, `(a + b)/2` without overflow, bit for bit as `std`'s: tangent
/// `(da + db)/2`.
#[inline(always)]
pub fn midpoint<F: Real, T: ScalarTangent<F>, A: Operand<F, T>, B: Operand<F, T>>(
    a: A,
    b: B,
) -> Dual<F, T> {
    let y = a.primal().__midpoint(b.primal());
    let half = F::cst(0.5);
    let t = match (A::ACTIVE, B::ACTIVE) {
        (true, true) => a.tangent().add(b.tangent()).scale(half),
        (true, false) => a.tangent().scale(half),
        (false, true) => b.tangent().scale(half),
        (false, false) => T::zero(),
    };
    Dual::new(y, t)
}

/// Euclidean quotient `a.div_euclid(b)`, an integer-valued float: locally constant,
/// tangent zero. The value as std computes it.
#[inline(always)]
pub fn div_euclid<F: Real, T: ScalarTangent<F>, A: Operand<F, T>, B: Operand<F, T>>(
    a: A,
    b: B,
) -> Dual<F, T> {
    let (a, b) = (a.primal(), b.primal());
    let q = (a / b).trunc();
    let q = if a % b < F::zero() {
        if b > F::zero() {
            q - F::one()
        } else {
            q + F::one()
        }
    } else {
        q
    };
    Dual::new(q, T::zero())
}

/// Fractional part `x - trunc(x)`: tangent `dx`.
#[inline(always)]
pub fn fract<F: Real, T: ScalarTangent<F>, X: Operand<F, T>>(x: X) -> Dual<F, T> {
    let x = Dual::new(x.primal(), x.tangent());
    Dual::new(x.primal.fract(), x.tangent)
}

/// `|x|`: tangent `sign(x)·dx`, zero at `x = 0`.
#[inline(always)]
pub fn abs<F: Real, T: ScalarTangent<F>, X: Operand<F, T>>(x: X) -> Dual<F, T> {
    let x = Dual::new(x.primal(), x.tangent());
    let t = if x.primal > F::zero() {
        x.tangent
    } else if x.primal < F::zero() {
        x.tangent.neg()
    } else {
        T::zero()
    };
    Dual::new(x.primal.abs(), t)
}

/// `a` with the sign of `b`: tangent `±da`.
#[inline(always)]
pub fn copysign<F: Real, T: ScalarTangent<F>, A: Operand<F, T>, B: Operand<F, T>>(
    a: A,
    b: B,
) -> Dual<F, T> {
    let (pa, pb) = (a.primal(), b.primal());
    let y = pa.copysign(pb);
    let t = if !A::ACTIVE {
        T::zero()
    } else if y.is_sign_negative() == pa.is_sign_negative() {
        a.tangent()
    } else {
        a.tangent().neg()
    };
    Dual::new(y, t)
}

/// The tangent of whichever operand `select` picked, or their mean on a tie.
#[inline(always)]
fn select<F: Real, T: ScalarTangent<F>, A: Operand<F, T>, B: Operand<F, T>>(
    a: A,
    b: B,
    y: F,
) -> Dual<F, T> {
    let (pa, pb) = (a.primal(), b.primal());
    let half = F::cst(0.5);
    let t = if pa == pb {
        match (A::ACTIVE, B::ACTIVE) {
            (true, true) => a.tangent().add(b.tangent()).scale(half),
            (true, false) => a.tangent().scale(half),
            (false, true) => b.tangent().scale(half),
            (false, false) => T::zero(),
        }
    } else if y == pa || (y.is_nan() && pa.is_nan()) {
        a.tangent()
    } else {
        b.tangent()
    };
    Dual::new(y, t)
}

/// `max(a, b)`.
#[inline(always)]
pub fn max<F: Real, T: ScalarTangent<F>, A: Operand<F, T>, B: Operand<F, T>>(
    a: A,
    b: B,
) -> Dual<F, T> {
    select(a, b, a.primal().max(b.primal()))
}

/// `min(a, b)`.
#[inline(always)]
pub fn min<F: Real, T: ScalarTangent<F>, A: Operand<F, T>, B: Operand<F, T>>(
    a: A,
    b: B,
) -> Dual<F, T> {
    select(a, b, a.primal().min(b.primal()))
}

/// `x.clamp(lo, hi)`: `max(min(x, hi), lo)` with the same tangent conventions.
///
/// # Panics
/// If `lo > hi` or either bound is NaN, as `f64::clamp` does.
#[inline(always)]
pub fn clamp<F, T, X, L, H>(x: X, lo: L, hi: H) -> Dual<F, T>
where
    F: Real,
    T: ScalarTangent<F>,
    X: Operand<F, T>,
    L: Operand<F, T>,
    H: Operand<F, T>,
{
    let (px, pl, ph) = (x.primal(), lo.primal(), hi.primal());
    assert!(
        pl <= ph,
        "clamp: `min > max`, or either was NaN: min = {pl:?}, max = {ph:?}"
    );
    let y = num_traits::clamp(px, pl, ph);
    if px < pl {
        lift(lo, y)
    } else if px > ph {
        lift(hi, y)
    } else if px == pl {
        select(x, lo, y)
    } else if px == ph {
        select(x, hi, y)
    } else {
        lift(x, y)
    }
}

#[inline(always)]
fn lift<F: Real, T: ScalarTangent<F>, A: Operand<F, T>>(a: A, y: F) -> Dual<F, T> {
    Dual::new(y, if A::ACTIVE { a.tangent() } else { T::zero() })
}

impl<F: Real, T: ScalarTangent<F>> Dual<F, T> {
    /// Fractional part.
    #[inline(always)]
    pub fn fract(self) -> Self {
        fract(self)
    }
    /// Absolute value.
    #[inline(always)]
    pub fn abs(self) -> Self {
        abs(self)
    }
    /// `self` with the sign of `b`.
    #[inline(always)]
    pub fn copysign<B: Operand<F, T>>(self, b: B) -> Self {
        copysign(self, b)
    }
    /// Nearest integer, ties to even (tangent zero).
    #[inline(always)]
    pub fn round_ties_even(self) -> Self {
        round_ties_even(self)
    }
    /// `max(self - b, 0)`, C's `fdim`.
    #[inline(always)]
    pub fn abs_sub<B: Operand<F, T>>(self, b: B) -> Self {
        abs_sub(self, b)
    }
    /// `(self + b)/2` without overflow.
    #[inline(always)]
    pub fn midpoint<B: Operand<F, T>>(self, b: B) -> Self {
        midpoint(self, b)
    }
    /// Euclidean quotient (tangent zero).
    #[inline(always)]
    pub fn div_euclid<B: Operand<F, T>>(self, b: B) -> Self {
        div_euclid(self, b)
    }
    /// Maximum.
    #[inline(always)]
    pub fn max<B: Operand<F, T>>(self, b: B) -> Self {
        max(self, b)
    }
    /// Minimum.
    #[inline(always)]
    pub fn min<B: Operand<F, T>>(self, b: B) -> Self {
        min(self, b)
    }
    /// Clamp into `[lo, hi]`.
    #[inline(always)]
    pub fn clamp<L: Operand<F, T>, H: Operand<F, T>>(self, lo: L, hi: H) -> Self {
        clamp(self, lo, hi)
    }
}
