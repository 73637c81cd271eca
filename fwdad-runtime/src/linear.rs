//! Helpers for linearised code: what `#[derive_frule]` emits, in batch modes, for a
//! straight-line chain of scalar operations (Slang's linearisation, applied locally).
//!
//! In a chain such as `t = x[i+1] - x[i]·x[i]; s += 100·t·t + (1 - x[i])²`, the plain dual
//! transformation updates a tangent at every operation: about a dozen `N`-lane updates.
//! Linearised, the chain computes its primals and the scalar partial derivatives of each
//! value with respect to the chain's *roots* (the tangents it reads: `x[i]`, `x[i+1]`, `s`)
//! and builds a tangent only where a value leaves the chain, as one combination
//! `Σ cᵣ·ṙ`: three `N`-lane updates here. The coefficients are plain floats, so this is
//! exact only for first-order modes ([`Mode::LINEARIZE`](crate::Mode::LINEARIZE)).

use crate::constant::ArgTangent;
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::{Binary, ScalarTangent, Unary};

/// An active scalar operand of a chain: an owned or a borrowed dual. (The float and
/// tangent types are parameters, as in [`Operand`](crate::rules::Operand), so the two impls
/// cannot overlap and each dual type selects exactly one.)
pub trait Root<F: Real, T: ScalarTangent<F>> {
    /// Whether the tangent may be non-zero: false for a [`ConstTangent`] root (an element of
    /// `Dual::constant(&a[..])`, a scalar passed as `Dual::new(k, ConstTangent)`), whose
    /// terms then drop out of a combination at compile time instead of multiplying a zero.
    ///
    /// [`ConstTangent`]: crate::ConstTangent
    const LIVE: bool;
    /// The primal value.
    fn primal_of(&self) -> F;
    /// The tangent.
    fn tangent_of(&self) -> T;
}

// A root's tangent may be a `ConstTangent` (an element of a constant argument): zero.
impl<F: Real, T: ScalarTangent<F>, M: ArgTangent<F, T>> Root<F, T> for Dual<F, M> {
    const LIVE: bool = M::ACTIVE;
    #[inline(always)]
    fn primal_of(&self) -> F {
        self.primal
    }
    #[inline(always)]
    fn tangent_of(&self) -> T {
        self.tangent.tangent()
    }
}

impl<F: Real, T: ScalarTangent<F>, M: ArgTangent<F, T>> Root<F, T> for Dual<&F, &M> {
    const LIVE: bool = M::ACTIVE;
    #[inline(always)]
    fn primal_of(&self) -> F {
        *self.primal
    }
    #[inline(always)]
    fn tangent_of(&self) -> T {
        (*self.tangent).tangent()
    }
}

impl<F: Real, T: ScalarTangent<F>> Root<F, T> for Dual<&mut F, &mut T> {
    const LIVE: bool = true;
    #[inline(always)]
    fn primal_of(&self) -> F {
        *self.primal
    }
    #[inline(always)]
    fn tangent_of(&self) -> T {
        *self.tangent
    }
}

/// An inactive scalar operand: a float or a reference to one.
pub trait Val<F: Real>: Copy {
    /// The value.
    fn val(self) -> F;
}

impl<F: Real> Val<F> for F {
    #[inline(always)]
    fn val(self) -> F {
        self
    }
}

impl<F: Real> Val<F> for &F {
    #[inline(always)]
    fn val(self) -> F {
        *self
    }
}

/// The value of an inactive operand.
#[inline(always)]
pub fn val<F: Real, X: Val<F>>(x: X) -> F {
    x.val()
}

/// `1` in the float type of `like` (a coefficient that sums unit partials).
#[inline(always)]
pub fn one<F: Real>(_like: F) -> F {
    F::one()
}

/// `0` in the float type of `like` (the coefficient an arm of an `if` yields for a value
/// it does not read).
#[inline(always)]
pub fn zero<F: Real>(_like: F) -> F {
    F::zero()
}

/// The tangent of `y = a / b` from its operands' tangents, `(ȧ - y·ḃ)·(1/b)`: one
/// division, where the partials `1/b` and `-y/b` take two (the one-direction copy of a
/// rule, where a tangent is one float). Where `1/b` overflows (a subnormal `b`, whose
/// `-y/b` may not) or `y` is not finite, the two partials with strong zeros, as the rule.
#[inline(always)]
pub fn quotient<F: Real, T: ScalarTangent<F>>(da: T, db: T, y: F, b: F) -> T {
    let r = b.recip();
    if r.is_finite() && y.is_finite() {
        da.sub(db.scale(y)).scale(r)
    } else {
        da.scale_strong(r).add(db.scale_strong(-y / b))
    }
}

/// `p·c` for a partial `p` that may be infinite (an `unbounded` rule's: `sqrt` at 0) and
/// the coefficient `c` of its operand: `0` where `c` is, as the rule's strong product keeps
/// a zero tangent zero. So `√(x·x)` at 0 has `∂/∂x = 0` in every mode (`∞·0` would be
/// NaN in batches only).
#[inline(always)]
pub fn strong<F: Real>(p: F, c: F) -> F {
    if c == F::zero() {
        F::zero()
    } else {
        p * c
    }
}

/// The primal of a root.
#[inline(always)]
pub fn p<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(r: &R) -> F {
    r.primal_of()
}

/// A root read into an owned dual where a chain first uses it, so that a borrowed root
/// (`&p.x`, an element of `iter()`) is not kept borrowed until the chain's tangent is
/// assembled (a `&mut` use of its owner may come in between).
#[inline(always)]
pub fn own<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(r: &R) -> Dual<F, T> {
    Dual::new(r.primal_of(), r.tangent_of())
}

/// The tangent of a root.
#[inline(always)]
pub fn t<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(r: &R) -> T {
    r.tangent_of()
}

// The combination `Σ cᵣ·ṙ` of a materialised value, term by term. Each takes the root
// itself, not its tangent: a root whose tangent is zero by its type ([`Root::LIVE`] false)
// adds nothing, decided at compile time (`0·c` cannot be folded otherwise: `c` may be
// infinite). A combination of such roots only is `-0`, the identity of `+`.

/// The first term with a unit coefficient: `ṙ`.
#[inline(always)]
pub fn first<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(r: &R) -> T {
    if R::LIVE {
        r.tangent_of()
    } else {
        T::zero().neg()
    }
}

/// `c·ṙ`.
#[inline(always)]
pub fn ax<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(c: F, r: &R) -> T {
    if R::LIVE {
        r.tangent_of().scale(c)
    } else {
        T::zero().neg()
    }
}

/// `acc + c·ṙ`.
#[inline(always)]
pub fn axpy<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(acc: T, c: F, r: &R) -> T {
    if R::LIVE {
        acc.axpy(c, r.tangent_of())
    } else {
        acc
    }
}

/// [`ax`] for a root with a costly coefficient (one behind a `sin`, `exp`, a division):
/// `-0` without reading `c` when `ṙ` is zero.
///
/// The test lets a chunked gradient skip, for every input outside the chunk, both the lane
/// update and the partial derivative behind `c` (which the compiler then computes only in
/// the taken branch): `Σ cos(τxᵢ)` costs `cos` per element, not `sin` and `cos` and `N`
/// multiply-adds. A skipped term is `0` where the dense product would be `0·c`: the same,
/// but for the sign of a zero and for `c = ±∞` or NaN, where the dense product is NaN.
/// The zero is `-0`, the identity of `+`, so that adding it folds away. (For a root whose
/// coefficients are all cheap, the test costs about what it saves.)
#[inline(always)]
pub fn ax_sparse<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(c: F, r: &R) -> T {
    let t = r.tangent_of();
    if !R::LIVE || t.is_zero() {
        T::zero().neg()
    } else {
        t.scale(c)
    }
}

/// [`axpy`] for a root with a costly coefficient: `acc` when `ṙ` is zero (see [`ax_sparse`]).
#[inline(always)]
pub fn axpy_sparse<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(acc: T, c: F, r: &R) -> T {
    let t = r.tangent_of();
    if !R::LIVE || t.is_zero() {
        acc
    } else {
        acc.axpy(c, t)
    }
}

/// A term `c·ṙ` whose coefficient passed through an `if` with an arm that does not read
/// the root: a zero `c` is that arm's, and the term is zero whatever `ṙ` is (NaN or
/// infinite where the root's own derivative is: `√(x₀ − x₁)` below 0 in an arm not
/// taken), as in one direction, where the arm taken never meets the root's tangent. `ax`
/// is the product otherwise ([`ax`], [`ax_strong`], ...).
#[inline(always)]
pub fn ax_select<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(
    c: F,
    r: &R,
    ax: impl FnOnce(F, &R) -> T,
) -> T {
    if c == F::zero() {
        T::zero().neg()
    } else {
        ax(c, r)
    }
}

/// `axpy` (one of [`axpy`]'s variants) with [`ax_select`]'s zero terms: `acc` where `c`
/// is zero.
#[inline(always)]
pub fn axpy_select<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(
    acc: T,
    c: F,
    r: &R,
    axpy: impl FnOnce(T, F, &R) -> T,
) -> T {
    if c == F::zero() {
        acc
    } else {
        axpy(acc, c, r)
    }
}

/// A Jacobian entry `t = c·e` of a root reached through an `if` with an arm that does not
/// read it (see [`ax_select`]): zero where `c` is, whatever `e`.
#[inline(always)]
pub fn select<F: Real>(c: F, t: F) -> F {
    if c == F::zero() {
        F::zero()
    } else {
        t
    }
}

/// Whether a coefficient is finite: generated code tests the coefficients with an
/// unbounded factor (a `sqrt` at 0) together, once per assembled tangent, and takes the
/// `_strong` combination only when one is not.
#[inline(always)]
pub fn finite<F: Real>(c: F) -> bool {
    c.is_finite()
}

/// [`ax`] keeping zero lanes of `ṙ` zero when `c` is infinite or NaN
/// ([`ScalarTangent::scale_strong`]; a select per lane, so only where [`finite`] failed).
#[inline(always)]
pub fn ax_strong<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(c: F, r: &R) -> T {
    if R::LIVE {
        r.tangent_of().scale_strong(c)
    } else {
        T::zero().neg()
    }
}

/// [`axpy`] with [`ax_strong`]'s zero lanes.
#[inline(always)]
pub fn axpy_strong<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(acc: T, c: F, r: &R) -> T {
    if R::LIVE {
        acc.add(r.tangent_of().scale_strong(c))
    } else {
        acc
    }
}

/// [`ax_sparse`] and [`ax_strong`]: skip a zero tangent, keep zero lanes zero. The masked
/// product (a select per lane) only where `c` is not finite: with a finite `c` the plain
/// product has the same values (a zero lane may have the other sign).
#[inline(always)]
pub fn ax_sparse_strong<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(c: F, r: &R) -> T {
    let t = r.tangent_of();
    if !R::LIVE || t.is_zero() {
        T::zero().neg()
    } else if c.is_finite() {
        t.scale(c)
    } else {
        t.scale_strong(c)
    }
}

/// [`axpy_sparse`] and [`axpy_strong`] (the masked product only where `c` is not finite).
#[inline(always)]
pub fn axpy_sparse_strong<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(acc: T, c: F, r: &R) -> T {
    let t = r.tangent_of();
    if !R::LIVE || t.is_zero() {
        acc
    } else if c.is_finite() {
        acc.axpy(c, t)
    } else {
        acc.add(t.scale_strong(c))
    }
}

/// `acc + c·ṙ` after a loop whose terms `cᵢ·ṙ` in a loop-invariant root `r` were summed
/// as the scalar `c = Σcᵢ`: nothing where `c` is zero (no term, as a loop of no
/// iteration), and [`ax_strong`]'s zero lanes where it is not finite, as the terms had.
#[inline(always)]
pub fn axpy_hoisted<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(acc: T, c: F, r: &R) -> T {
    if !R::LIVE || c == F::zero() {
        acc
    } else if c.is_finite() {
        acc.axpy(c, r.tangent_of())
    } else {
        acc.add(r.tangent_of().scale_strong(c))
    }
}

/// `acc + ṙ`.
#[inline(always)]
pub fn add<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(acc: T, r: &R) -> T {
    if R::LIVE {
        acc.add(r.tangent_of())
    } else {
        acc
    }
}

/// `acc - ṙ`.
#[inline(always)]
pub fn sub<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(acc: T, r: &R) -> T {
    if R::LIVE {
        acc.sub(r.tangent_of())
    } else {
        acc
    }
}

/// `-ṙ`.
#[inline(always)]
pub fn neg<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(r: &R) -> T {
    if R::LIVE {
        r.tangent_of().neg()
    } else {
        T::zero().neg()
    }
}

/// `2·t` (`t + t`, exact): a combination whose coefficients all carry the factor 2 of a
/// square's partial, applied once (`ṅ = 2·Σ dᵢ·ḋᵢ` for `n = Σ dᵢ²`).
#[inline(always)]
pub fn twice<F: Real, T: ScalarTangent<F>>(t: T) -> T {
    t.add(t)
}

/// `x·2ᵏ` in `x`'s float type (`k` a literal: the power folds to a constant). One
/// direction: a coefficient's power of two kept symbolic by the emitter, applied.
#[inline(always)]
pub fn pow2<F: Real>(x: F, k: i32) -> F {
    let (two, mut p) = (F::cst(2.0), F::one());
    for _ in 0..k.unsigned_abs() {
        p *= two;
    }
    if k < 0 {
        x / p
    } else {
        x * p
    }
}

/// `2ᵏ·t` (exact but for overflow and subnormals): a tangent whose constant factor was
/// deferred (the emitter's `Coef::Scaled`), applied once.
#[inline(always)]
pub fn rescale<F: Real, T: ScalarTangent<F>>(t: T, k: i32) -> T {
    t.scale(pow2(F::one(), k))
}

/// `d` with its tangent times `2ᵏ`: a loop's accumulator enters the loop carrying its
/// tangent divided by the factor its updates defer (`k < 0`), and leaves it multiplied
/// back (`k > 0`).
#[inline(always)]
pub fn rescaled<F: Real, T: ScalarTangent<F>>(d: Dual<F, T>, k: i32) -> Dual<F, T> {
    Dual::new(d.primal, rescale(d.tangent, k))
}

// Overflow guard. A coefficient is a product of partials formed before it meets the
// tangent, so it can overflow where the tangent multiplied factor by factor does not
// (libm's `expo2`, `exp(x - k ln 2) * s * s` with `s = 2^1021`: the coefficient `s * s` of
// the tiny `exp`'s tangent is infinite, the derivative about 10^308). Generated code tests
// the coefficients that could have overflowed (products of two factors or more that may
// exceed 1, the emitter's `Size::Risky`), summed, with [`finite`]; where one is not finite
// it applies the partials to the roots' tangents one by one, in the primal's order, on a
// cold path ([`overflowed`], `sw_*`), as the rule line by line does. Only outside loops:
// the test in a loop body (Rosenbrock's) cost its 10-input gradient 40-50 %.

/// Marks the branch that calls it as rarely taken: the overflow guard's sweep (inlined:
/// run out of line through a closure, it cost Rosenbrock's gradient 2-4 ×, the captured
/// accumulators taken by address).
#[cold]
#[inline(always)]
pub fn overflowed() {}

/// A flag the zero-tested terms of a combination clear when their coefficient is not
/// finite ([`ax_seen`]): those coefficients are computed only where the term is live, so
/// they cannot be tested beforehand.
#[inline(always)]
pub fn flag() -> core::cell::Cell<bool> {
    core::cell::Cell::new(true)
}

/// Whether no term cleared the flag.
#[inline(always)]
pub fn ok(flag: &core::cell::Cell<bool>) -> bool {
    flag.get()
}

/// A zero-tested term `ax(c, ṙ)` whose coefficient may have overflowed: clears `flag`
/// where the term is live and `c` is not finite.
#[inline(always)]
pub fn ax_seen<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(
    flag: &core::cell::Cell<bool>,
    c: F,
    r: &R,
    ax: impl FnOnce(F, &R) -> T,
) -> T {
    if R::LIVE && !r.tangent_of().is_zero() && !c.is_finite() {
        flag.set(false);
    }
    ax(c, r)
}

/// [`ax_seen`] for an `axpy` term.
#[inline(always)]
pub fn axpy_seen<F: Real, T: ScalarTangent<F>, R: Root<F, T>>(
    flag: &core::cell::Cell<bool>,
    acc: T,
    c: F,
    r: &R,
    axpy: impl FnOnce(T, F, &R) -> T,
) -> T {
    if R::LIVE && !r.tangent_of().is_zero() && !c.is_finite() {
        flag.set(false);
    }
    axpy(acc, c, r)
}

/// The sweep: `p·t` for a bounded rule's partial.
#[inline(always)]
pub fn sw_scale<F: Real, T: ScalarTangent<F>>(p: F, t: T) -> T {
    t.scale(p)
}

/// The sweep: `p·t` for an unbounded rule's partial, zero lanes kept zero (as the rule).
#[inline(always)]
pub fn sw_strong<F: Real, T: ScalarTangent<F>>(p: F, t: T) -> T {
    t.scale_strong(p)
}

/// The sweep: `a + b`.
#[inline(always)]
pub fn sw_add<F: Real, T: ScalarTangent<F>>(_like: F, a: T, b: T) -> T {
    a.add(b)
}

/// The sweep: `-t`.
#[inline(always)]
pub fn sw_neg<F: Real, T: ScalarTangent<F>>(_like: F, t: T) -> T {
    t.neg()
}

/// A value leaving the chain: its primal and its assembled tangent.
#[inline(always)]
pub fn dual<F: Real, T: ScalarTangent<F>>(primal: F, tangent: T) -> Dual<F, T> {
    Dual::new(primal, tangent)
}

/// The partial derivative of a unary rule at `x`, where `y = f(x)`.
#[inline(always)]
pub fn d1<F: Real, R: Unary<F>>(rule: R, x: F, y: F) -> F {
    rule.d(x, y)
}

/// The partial derivatives of a binary rule at `(a, b)`, where `y = f(a, b)`.
#[inline(always)]
pub fn d2<F: Real, R: Binary<F>>(rule: R, a: F, b: F, y: F) -> (F, F) {
    rule.d(a, b, y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{arith, trig};
    use crate::tangent::Batch;

    #[test]
    fn partials_are_the_rules() {
        assert_eq!(d1(trig::sin {}, 0.5_f64, 0.5_f64.sin()), 0.5_f64.cos());
        assert_eq!(d2(arith::mul {}, 3.0_f64, 5.0, 15.0), (5.0, 3.0));
        assert_eq!(d2(arith::div {}, 3.0_f64, 4.0, 0.75), (0.25, -0.75 / 4.0));
    }

    /// An owned root with tangent `t` (primal unused by the combinations).
    fn root<T: Copy>(t: T) -> Dual<f64, T> {
        Dual::new(0.5, t)
    }

    #[test]
    fn combinations() {
        let a = Batch([1.0, 2.0]);
        let b = Batch([10.0, 20.0]);
        let (ra, rb) = (root(a), root(b));
        assert_eq!(axpy(ax(2.0, &ra), -1.0, &rb), Batch([-8.0, -16.0]));
        assert_eq!(sub(add(first(&ra), &rb), &ra), b);
        assert_eq!(neg(&ra), Batch([-1.0, -2.0]));
        let (x, dx) = (2.0_f64, 3.0_f64);
        let (r, br) = (&x, &dx);
        let borrowed = Dual::new(r, br);
        assert_eq!((p(&borrowed), t(&borrowed)), (2.0, 3.0));
        assert_eq!(dual(1.0, 2.0_f64).into_parts(), (1.0, 2.0));
    }

    #[test]
    fn constant_roots_add_nothing() {
        // A `ConstTangent` root: its terms are skipped whatever the coefficient, and a
        // combination of constants only is `-0`, the identity of `+`.
        let k: Dual<f64, crate::ConstTangent> = Dual::new(3.0, crate::ConstTangent);
        let acc = Batch([1.0, -2.0]);
        let live = root(Batch([4.0, 5.0]));
        assert_eq!(axpy::<f64, Batch<f64, 2>, _>(acc, f64::NAN, &k), acc);
        assert_eq!(add::<f64, Batch<f64, 2>, _>(acc, &k), acc);
        assert_eq!(sub::<f64, Batch<f64, 2>, _>(acc, &k), acc);
        assert_eq!(
            axpy_sparse_strong::<f64, Batch<f64, 2>, _>(acc, f64::INFINITY, &k),
            acc
        );
        let zero: f64 = ax(f64::INFINITY, &k);
        assert_eq!(zero.to_bits(), (-0.0_f64).to_bits());
        let zero: f64 = first(&k);
        assert_eq!(zero.to_bits(), (-0.0_f64).to_bits());
        assert_eq!(
            axpy(first::<f64, Batch<f64, 2>, _>(&k), 2.0, &live),
            Batch([8.0, 10.0])
        );
    }

    #[test]
    fn zero_tested_terms() {
        let z = Batch([0.0, -0.0, 0.0]);
        let nz = Batch([0.0, 1e-300, 0.0]);
        let nan = Batch([0.0, f64::NAN, 0.0]);
        assert!(z.is_zero());
        assert!(!nz.is_zero() && !nan.is_zero());
        assert!(!1.0_f64.is_zero() && !0.0_f64.is_zero()); // one direction never tests
        let (rz, rnz) = (root(z), root(nz));
        // A zero tangent skips even an infinite coefficient; otherwise the dense result.
        let acc = Batch([1.0, 2.0, 3.0]);
        assert_eq!(axpy_sparse(acc, f64::INFINITY, &rz), acc);
        assert_eq!(axpy_sparse(acc, 2.0, &rnz), axpy(acc, 2.0, &rnz));
        assert_eq!(
            ax_sparse(f64::NAN, &rz).0.map(f64::to_bits),
            [(-0.0_f64).to_bits(); 3]
        );
        assert_eq!(ax_sparse(2.0, &rnz), ax(2.0, &rnz));
        assert_eq!(add(acc, &root(ax_sparse(5.0, &rz))), acc); // `-0` adds nothing
                                                               // Strong products keep zero lanes zero under an infinite coefficient, and equal the
                                                               // plain product under a finite one.
        let inf = axpy_sparse_strong(acc, f64::INFINITY, &rnz);
        assert_eq!(inf.0, [1.0, f64::INFINITY, 3.0]);
        assert_eq!(
            ax_sparse_strong(f64::INFINITY, &rnz).0,
            [0.0, f64::INFINITY, 0.0]
        );
        assert_eq!(axpy_sparse_strong(acc, 2.0, &rnz), axpy(acc, 2.0, &rnz));
        assert_eq!(ax_sparse_strong(2.0, &rnz), ax(2.0, &rnz));
        assert_eq!(
            axpy_strong(acc, f64::INFINITY, &rnz).0,
            [1.0, f64::INFINITY, 3.0]
        );
    }
}
