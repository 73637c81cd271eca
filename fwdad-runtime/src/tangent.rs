//! Tangent representations.
//!
//! * [`NoTangent`]: the tangent of every non-differentiable value (integers, `bool`, ...).
//! * [`ScalarTangent<F>`]: how the tangent of a real scalar `F` is represented. One direction
//!   is `F` itself; [`Batch<F, N>`] carries `N` directions at once; [`Hyper`] carries
//!   second-order information. Every scalar rule is written once against this trait
//!   ([`ScalarTangent::chain1`], [`ScalarTangent::chain2`]) and so serves every representation.
//! * [`Mode`]: a whole differentiation mode, named by the tangent type it gives to `f64`.
//!   `Differentiable::TangentIn<S>` maps every primal type to its tangent under mode `S`.
//! * [`TangentSpace`]: vector-space operations on (owned or mutably borrowed) tangents.

use crate::dual::Dual;
use crate::real::Real;
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::{boxed::Box, vec::Vec};
use core::fmt::Debug;

/// The tangent of a value that cannot be differentiated: a zero-sized type, so it costs
/// nothing to carry around.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NoTangent;

impl core::fmt::Display for NoTangent {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("NoTangent")
    }
}

/// A scalar function of one argument, seen through its derivative.
///
/// `d` is `f'(x)` given `x` and the primal result `y = f(x)`; `d_dual` evaluates the same
/// expression on first-order duals, which is how second-order tangents obtain `f''`
/// without a second rule. Implemented by [`crate::scalar_rule!`].
pub trait Unary<F: Real> {
    /// Whether `f'` may be infinite or NaN where `f` is finite (`sqrt` at `0`, `asin` at
    /// `±1`). The chain rule then keeps a zero tangent zero ([`ScalarTangent::scale_strong`])
    /// rather than `0·∞ = NaN`, so a direction that does not move `x` is not polluted by the
    /// kink. Rules whose partials are finite wherever they are evaluated (`mul`, `sin`) say
    /// `false` and skip the test; the default is the safe choice.
    const UNBOUNDED: bool = true;
    /// Whether `d_dual`'s tangent depends only on the tangents passed to it, so that it is
    /// zero where they are (second order zeroes it there for an unbounded rule, see
    /// [`ScalarTangent::zero_off_support`]). `false` for an adapter that reads other
    /// arguments' tangents (an n-ary `#[primitive]`'s partial in one argument).
    const LOCAL_TANGENT: bool = true;
    /// `f'(x)`, where `y = f(x)`.
    fn d(&self, x: F, y: F) -> F;
    /// `f'` evaluated on duals: its tangent is `f''(x) · dx`.
    fn d_dual<T: ScalarTangent<F>>(&self, x: Dual<F, T>, y: Dual<F, T>) -> Dual<F, T>;
}

/// A scalar function of two arguments, seen through its partial derivatives.
pub trait Binary<F: Real> {
    /// As [`Unary::UNBOUNDED`], for either partial.
    const UNBOUNDED: bool = true;
    /// `(∂f/∂x1, ∂f/∂x2)`, where `y = f(x1, x2)`.
    fn d(&self, x1: F, x2: F, y: F) -> (F, F);
    /// The partials evaluated on duals (for second-order tangents).
    fn d_dual<T: ScalarTangent<F>>(
        &self,
        x1: Dual<F, T>,
        x2: Dual<F, T>,
        y: Dual<F, T>,
    ) -> (Dual<F, T>, Dual<F, T>);
    /// `∂f/∂x1` on duals with `x2` a constant: a plain value, not a dual with a zero
    /// tangent, so that `∂f/∂x1`'s own dependence on `x2` (`ln a` in `powf`'s
    /// `b·a^(b-1)`) is never evaluated (it may be NaN where `f` is smooth in `x1`).
    fn d1_dual<T: ScalarTangent<F>>(&self, x1: Dual<F, T>, x2: F, y: Dual<F, T>) -> Dual<F, T> {
        self.d_dual(x1, Dual::new(x2, T::zero()), y).0
    }
    /// `∂f/∂x2` on duals with `x1` a constant (see [`d1_dual`](Self::d1_dual)).
    fn d2_dual<T: ScalarTangent<F>>(&self, x1: F, x2: Dual<F, T>, y: Dual<F, T>) -> Dual<F, T> {
        self.d_dual(Dual::new(x1, T::zero()), x2, y).1
    }
}

/// How the tangent of a real scalar `F` is represented.
///
/// The linear operations are all a rule needs for linear and piecewise-linear functions;
/// smooth nonlinear functions go through [`chain1`](Self::chain1) / [`chain2`](Self::chain2),
/// which a first-order representation implements as `f' · dx` and a second-order one
/// extends with the `f''` term.
pub trait ScalarTangent<F: Real>: Copy + Debug + PartialEq + Send + Sync + 'static {
    /// The zero tangent.
    fn zero() -> Self;
    /// `self + other`.
    fn add(self, other: Self) -> Self;
    /// `self - other`.
    fn sub(self, other: Self) -> Self;
    /// `-self`.
    fn neg(self) -> Self;
    /// `a · self` for a scalar `a` that is locally constant (does not depend on the input).
    fn scale(self, a: F) -> Self;
    /// `a · self`, except that a zero component stays zero when `a` is infinite or NaN (a
    /// *strong zero*: a direction that does not move an input takes nothing from a kink
    /// there, as in ForwardDiff's NaN-safe mode). Branch-free: a compare and a select per
    /// component, which LLVM vectorises like the product (a test of `a` that branched
    /// cost BA's linearised Jacobian 10 %, from the split blocks).
    fn scale_strong(self, a: F) -> Self;
    /// `self` with zero in every component where both `a` and `b` are zero: `self` is a
    /// linear function of `(a, b)` (the tangent of a partial derivative along them), so it
    /// is zero there, but evaluating it may have met `0 · NaN` (`ln a` at `a < 0`).
    fn zero_off_support(self, a: Self, b: Self) -> Self;
    /// [`scale`](Self::scale), or [`scale_strong`](Self::scale_strong) for a partial of a
    /// rule that is [`UNBOUNDED`](Unary::UNBOUNDED) (a constant: one branch survives).
    #[inline(always)]
    fn scale_partial(self, a: F, unbounded: bool) -> Self {
        if unbounded {
            self.scale_strong(a)
        } else {
            self.scale(a)
        }
    }
    /// `self + c · t` (a linearised chain's update).
    #[inline(always)]
    fn axpy(self, c: F, t: Self) -> Self {
        self.add(t.scale(c))
    }
    /// [`axpy`](Self::axpy) with one rounding per lane where that is cheap: what
    /// [`Fused`] calls (a fused multiply-add, for code compiled with FMA).
    #[doc(hidden)]
    #[inline(always)]
    fn __axpy_fused(self, c: F, t: Self) -> Self {
        self.axpy(c, t)
    }
    /// Whether this tangent is exactly zero, so that a linearised chain may skip its term
    /// and the partial derivative behind it (a symbolic zero, as num-dual's and JAX's). A
    /// representation that cannot tell cheaply answers `false`.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        false
    }
    /// `*slot = v`: a tangent written into memory (an element of a buffer). A
    /// representation that knows its zeros may leave a known zero in place instead of
    /// rewriting its lanes.
    #[inline(always)]
    fn store(slot: &mut Self, v: Self) {
        *slot = v;
    }

    /// The tangent of `y = f(x)`.
    #[inline(always)]
    fn chain1<R: Unary<F>>(rule: &R, x: F, y: F, dx: Self) -> Self {
        dx.scale_partial(rule.d(x, y), R::UNBOUNDED)
    }

    /// The tangent of `y = f(x1, x2)`, both arguments active.
    #[inline(always)]
    fn chain2<R: Binary<F>>(rule: &R, x1: F, x2: F, y: F, dx1: Self, dx2: Self) -> Self {
        let (d1, d2) = rule.d(x1, x2, y);
        let u = R::UNBOUNDED;
        dx1.scale_partial(d1, u).add(dx2.scale_partial(d2, u))
    }
}

impl<F: Real> ScalarTangent<F> for F {
    #[inline(always)]
    fn zero() -> Self {
        F::zero()
    }
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        self + other
    }
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        self - other
    }
    #[inline(always)]
    fn neg(self) -> Self {
        -self
    }
    #[inline(always)]
    fn scale(self, a: F) -> Self {
        a * self
    }
    #[inline(always)]
    fn scale_strong(self, a: F) -> Self {
        if self == F::zero() {
            F::zero()
        } else {
            a * self
        }
    }
    #[inline(always)]
    fn zero_off_support(self, a: Self, b: Self) -> Self {
        if a == F::zero() && b == F::zero() {
            F::zero()
        } else {
            self
        }
    }
}

/// `N` tangent directions of a scalar, pushed through one pass (batch mode).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(transparent)]
pub struct Batch<F, const N: usize>(pub [F; N]);

impl<F: Real, const N: usize> Batch<F, N> {
    /// The batch whose lane `k` is `f(k)`.
    #[inline(always)]
    pub fn from_fn(f: impl FnMut(usize) -> F) -> Self {
        Batch(core::array::from_fn(f))
    }
    /// The `k`-th direction (unit vector): `1` in lane `k`, `0` elsewhere.
    #[inline]
    pub fn unit(k: usize) -> Self {
        Self::from_fn(|i| if i == k { F::one() } else { F::zero() })
    }
}

impl<F: Real, const N: usize> Default for Batch<F, N> {
    fn default() -> Self {
        Batch([F::zero(); N])
    }
}

impl<F: Real, const N: usize> ScalarTangent<F> for Batch<F, N> {
    #[inline(always)]
    fn zero() -> Self {
        Batch([F::zero(); N])
    }
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        Self::from_fn(|i| self.0[i] + other.0[i])
    }
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        Self::from_fn(|i| self.0[i] - other.0[i])
    }
    #[inline(always)]
    fn neg(self) -> Self {
        Self::from_fn(|i| -self.0[i])
    }
    #[inline(always)]
    fn scale(self, a: F) -> Self {
        Self::from_fn(|i| a * self.0[i])
    }
    #[inline(always)]
    fn scale_strong(self, a: F) -> Self {
        Self::from_fn(|i| self.0[i].scale_strong(a))
    }
    #[inline(always)]
    fn zero_off_support(self, a: Self, b: Self) -> Self {
        Self::from_fn(|i| self.0[i].zero_off_support(a.0[i], b.0[i]))
    }
    #[inline(always)]
    fn axpy(self, c: F, t: Self) -> Self {
        Batch(F::__lanes_axpy(self.0, c, t.0))
    }
    #[inline(always)]
    fn __axpy_fused(self, c: F, t: Self) -> Self {
        Batch(F::__lanes_axpy_fused(self.0, c, t.0))
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        F::__lanes_zero(&self.0)
    }
}

/// A tangent `T` that knows, without reading its lanes, when it is zero: num-dual's
/// `Option` derivative as a mode. A chunked gradient seeds a few inputs and gives the others
/// zero tangents; with `Batch` every operation still runs on their lanes, with `MaybeZero`
/// an operation with a known-zero operand returns the other operand, and a rule whose
/// argument is a known zero does not evaluate its partial derivative.
///
/// A known zero added to anything gives exactly that thing, so the results equal `T`'s as
/// values: only the sign of a zero lane may differ, and a known zero times an infinite or
/// NaN partial stays zero where `T` makes it NaN (a strong zero, as
/// [`ScalarTangent::scale_strong`] keeps for unbounded rules).
///
/// The lanes always hold the value (zeros for a known zero), so reading them needs no
/// test, and an operation whose result is a known zero returns the constant [`zero`]
/// rather than passing an operand through: LLVM then needs no lanes of a known-zero
/// operand and loads a seed's lanes only where they are used; `add` of two known zeros
/// is the exception, it returns the second (a loop's accumulator, kept as it is). Branches
/// that combine two live tangents are marked rare. (Leaving a known zero's
/// lanes uninitialised, as an `Option` does, let LLVM load every seed's lanes before
/// testing its flag and carry them into the next iteration; Rosenbrock's gradient got
/// 25 % slower.) The flag is a `u64`, not a `bool`, so that the struct has no padding:
/// LLVM copied a `bool` flag's padding with overlapping moves that stalled store
/// forwarding (BENCHMARKS.md, issue 8, section 2).
///
/// [`zero`]: ScalarTangent::zero
#[derive(Clone, Copy, Debug)]
pub struct MaybeZero<T> {
    /// `0`: every lane of `tangent` is zero, known without reading them.
    live: u64,
    /// The value, zero lanes included.
    tangent: T,
}

impl<T: Copy> MaybeZero<T> {
    /// A tangent that may be non-zero.
    #[inline(always)]
    pub fn new(tangent: T) -> Self {
        MaybeZero { live: 1, tangent }
    }

    /// The tangent's value.
    #[inline(always)]
    pub fn get(self) -> T {
        self.tangent
    }

    /// Whether the tangent is known to be zero.
    #[inline(always)]
    pub fn is_known_zero(&self) -> bool {
        self.live == 0
    }

    /// The tangent, read in place.
    #[inline(always)]
    pub(crate) fn get_ref(&self) -> &T {
        &self.tangent
    }

    /// The tangent, to be written in place: it is no longer a known zero.
    #[inline(always)]
    pub(crate) fn get_mut(&mut self) -> &mut T {
        self.live = 1;
        &mut self.tangent
    }
}

impl<const N: usize> MaybeZero<Batch<f64, N>> {
    /// A known zero, as a constant: the seeds of a chunked gradient pass built at
    /// compile time (the drivers' static seed tables).
    #[doc(hidden)]
    pub const __KNOWN_ZERO: Self = MaybeZero {
        live: 0,
        tangent: Batch([0.0; N]),
    };

    /// The unit direction `e_k` (`k < N`), live, as a constant (see [`Self::__KNOWN_ZERO`]).
    #[doc(hidden)]
    pub const fn __unit(k: usize) -> Self {
        let mut lanes = [0.0; N];
        lanes[k] = 1.0;
        MaybeZero {
            live: 1,
            tangent: Batch(lanes),
        }
    }
}

/// A known zero (the default of every tangent type here is its zero).
impl<T: Default> Default for MaybeZero<T> {
    fn default() -> Self {
        MaybeZero {
            live: 0,
            tangent: T::default(),
        }
    }
}

/// Equal as values: a known zero equals a tangent whose lanes happen to be zero.
impl<T: PartialEq> PartialEq for MaybeZero<T> {
    fn eq(&self, other: &Self) -> bool {
        self.tangent == other.tangent
    }
}

/// Marks the branch that calls it as rarely taken: `core::hint::cold_path`, newer than this
/// crate's minimum Rust, written as the standard library first wrote it.
///
/// `MaybeZero` is chosen where most tangents are known zeros, so an operation on two live
/// tangents is the rare case; told so, LLVM keeps a loop's primal accumulator in a register
/// and spills the carried lanes instead (it spilled the accumulator, so that each term of
/// Rosenbrock waited for a store and a reload: its gradient at n = 50, `MaybeZero` 16,
/// 1.0 → 0.93 × num-dual at its best width, BENCHMARKS.md "Gradient widths").
#[cold]
#[inline(always)]
fn rarely_taken() {}

impl<F: Real, T: ScalarTangent<F>> ScalarTangent<F> for MaybeZero<T> {
    #[inline(always)]
    fn zero() -> Self {
        MaybeZero {
            live: 0,
            tangent: T::zero(),
        }
    }
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        // A known-zero `self` first: generated code passes a loop's accumulator as `other`
        // (`ṫ + ṡ`), which is then carried as it is; a known-zero result built from the
        // constant zero instead rewrote every carried lane with zeros each iteration.
        if self.live == 0 {
            other
        } else if other.live == 0 {
            self
        } else {
            rarely_taken();
            // `b + 1·a` is `a + b` bit for bit; `T::axpy` is the form `T` vectorises
            // (`Batch<f64, N>` in SSE2 pairs), where the branches around it left `add`'s
            // lanes scalar; and generated code passes an accumulator last (`ṫ + ṡ`), whose
            // registers the sum then reuses.
            MaybeZero::new(other.tangent.axpy(F::one(), self.tangent))
        }
    }
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        if other.live == 0 {
            self
        } else if self.live == 0 {
            other.neg()
        } else {
            MaybeZero::new(self.tangent.sub(other.tangent))
        }
    }
    #[inline(always)]
    fn neg(self) -> Self {
        if self.live == 0 {
            Self::zero()
        } else {
            MaybeZero::new(self.tangent.neg())
        }
    }
    #[inline(always)]
    fn scale(self, a: F) -> Self {
        if self.live == 0 {
            Self::zero()
        } else {
            rarely_taken();
            MaybeZero::new(self.tangent.scale(a))
        }
    }
    #[inline(always)]
    fn scale_strong(self, a: F) -> Self {
        if self.live == 0 {
            Self::zero()
        } else {
            MaybeZero::new(self.tangent.scale_strong(a))
        }
    }
    #[inline(always)]
    fn zero_off_support(self, a: Self, b: Self) -> Self {
        if self.live == 0 || (a.live == 0 && b.live == 0) {
            Self::zero()
        } else {
            MaybeZero::new(self.tangent.zero_off_support(a.tangent, b.tangent))
        }
    }
    #[inline(always)]
    fn axpy(self, c: F, t: Self) -> Self {
        // A known-zero `self` is zero lanes: `0 + c·t` is `c·t` as a value, and `t`'s lanes
        // are read in one branch only, which LLVM sinks their loads into.
        if t.live == 0 {
            self
        } else {
            MaybeZero::new(self.tangent.axpy(c, t.tangent))
        }
    }
    #[inline(always)]
    fn __axpy_fused(self, c: F, t: Self) -> Self {
        if t.live == 0 {
            self
        } else {
            MaybeZero::new(self.tangent.__axpy_fused(c, t.tangent))
        }
    }
    /// The flag only: a tangent whose lanes cancelled to zero is not tested.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.live == 0
    }
    /// A known zero onto a known zero writes nothing: the slot's lanes are zeros already.
    /// A per-point buffer of a chunked gradient (GMM's `xc[j]`, `qx[j]`) is rewritten with
    /// known zeros for every point and unseeded component; writing their lanes cost 136
    /// bytes a store at width 16, where num-dual's `None` writes its tag (BENCHMARKS.md,
    /// issue 30).
    #[inline(always)]
    fn store(slot: &mut Self, v: Self) {
        if v.live != 0 || slot.live != 0 {
            *slot = v;
        }
    }
    /// A known-zero argument skips the rule's partial derivative.
    #[inline(always)]
    fn chain1<R: Unary<F>>(rule: &R, x: F, y: F, dx: Self) -> Self {
        if dx.live == 0 {
            Self::zero()
        } else {
            MaybeZero::new(T::chain1(rule, x, y, dx.tangent))
        }
    }
    #[inline(always)]
    fn chain2<R: Binary<F>>(rule: &R, x1: F, x2: F, y: F, dx1: Self, dx2: Self) -> Self {
        // One known-zero argument still goes through `T`'s rule: a second-order `T` takes
        // a term from the other argument's partial along it.
        if dx1.live == 0 && dx2.live == 0 {
            Self::zero()
        } else {
            MaybeZero::new(T::chain2(rule, x1, x2, y, dx1.tangent, dx2.tangent))
        }
    }
}

/// `T` whose linearised updates `acc + c·t` are fused multiply-adds (`f64::mul_add`, one
/// rounding per lane), everything else `T`'s: the mode of a pass compiled for FMA by
/// runtime dispatch (issue 30). A rule called with it from code compiled for AVX2 and
/// FMA takes four lanes per instruction; from default `x86-64` code each lane is a
/// call to libm's `fma`, so it is meant for the inside of such a function only. Lanes
/// equal `T`'s to rounding; primals are the same bits (only tangent updates are fused).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(transparent)]
pub struct Fused<T>(pub T);

impl<F: Real, T: ScalarTangent<F>> ScalarTangent<F> for Fused<T> {
    #[inline(always)]
    fn zero() -> Self {
        Fused(T::zero())
    }
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        Fused(self.0.add(other.0))
    }
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        Fused(self.0.sub(other.0))
    }
    #[inline(always)]
    fn neg(self) -> Self {
        Fused(self.0.neg())
    }
    #[inline(always)]
    fn scale(self, a: F) -> Self {
        Fused(self.0.scale(a))
    }
    #[inline(always)]
    fn scale_strong(self, a: F) -> Self {
        Fused(self.0.scale_strong(a))
    }
    #[inline(always)]
    fn zero_off_support(self, a: Self, b: Self) -> Self {
        Fused(self.0.zero_off_support(a.0, b.0))
    }
    #[inline(always)]
    fn axpy(self, c: F, t: Self) -> Self {
        Fused(self.0.__axpy_fused(c, t.0))
    }
    #[inline(always)]
    fn __axpy_fused(self, c: F, t: Self) -> Self {
        Fused(self.0.__axpy_fused(c, t.0))
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.0.is_zero()
    }
    #[inline(always)]
    fn store(slot: &mut Self, v: Self) {
        T::store(&mut slot.0, v.0)
    }
    #[inline(always)]
    fn chain1<R: Unary<F>>(rule: &R, x: F, y: F, dx: Self) -> Self {
        Fused(T::chain1(rule, x, y, dx.0))
    }
    #[inline(always)]
    fn chain2<R: Binary<F>>(rule: &R, x1: F, x2: F, y: F, dx1: Self, dx2: Self) -> Self {
        Fused(T::chain2(rule, x1, x2, y, dx1.0, dx2.0))
    }
}

/// A second-order tangent (hyper-dual number without its primal): the input is perturbed as
/// `x + d1·ε₁ + d2·ε₂ + d12·ε₁ε₂` with `ε₁² = ε₂² = 0`.
///
/// Pushing it through a rule yields `d12 = f'·d12 + f''·d1·d2`: with `d1 = u` and `d2 = v`,
/// `d12` of the output is `uᵀ∇²f v`. `d1` may itself be a batch, so one pass gives a whole
/// Hessian-vector product block. The primal stays a plain `F`, so there is no perturbation
/// confusion between the two levels: they are distinct fields, not nested duals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hyper<F, T> {
    /// First-order tangent along the first direction(s).
    pub d1: T,
    /// First-order tangent along the second direction.
    pub d2: F,
    /// The mixed second-order part.
    pub d12: T,
}

impl<F: Real, T: ScalarTangent<F>> ScalarTangent<F> for Hyper<F, T> {
    #[inline(always)]
    fn zero() -> Self {
        Hyper {
            d1: T::zero(),
            d2: F::zero(),
            d12: T::zero(),
        }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Hyper {
            d1: self.d1.add(o.d1),
            d2: self.d2 + o.d2,
            d12: self.d12.add(o.d12),
        }
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Hyper {
            d1: self.d1.sub(o.d1),
            d2: self.d2 - o.d2,
            d12: self.d12.sub(o.d12),
        }
    }
    #[inline(always)]
    fn neg(self) -> Self {
        Hyper {
            d1: self.d1.neg(),
            d2: -self.d2,
            d12: self.d12.neg(),
        }
    }
    #[inline(always)]
    fn scale(self, a: F) -> Self {
        Hyper {
            d1: self.d1.scale(a),
            d2: a * self.d2,
            d12: self.d12.scale(a),
        }
    }
    #[inline(always)]
    fn scale_strong(self, a: F) -> Self {
        Hyper {
            d1: self.d1.scale_strong(a),
            d2: self.d2.scale_strong(a),
            d12: self.d12.scale_strong(a),
        }
    }
    #[inline(always)]
    fn zero_off_support(self, a: Self, b: Self) -> Self {
        Hyper {
            d1: self.d1.zero_off_support(a.d1, b.d1),
            d2: self.d2.zero_off_support(a.d2, b.d2),
            d12: self.d12.zero_off_support(a.d12, b.d12),
        }
    }

    #[inline(always)]
    fn chain1<R: Unary<F>>(rule: &R, x: F, y: F, dx: Self) -> Self {
        let u = R::UNBOUNDED;
        let p = rule.d(x, y);
        let dy1 = dx.d1.scale_partial(p, u);
        // Tangent of f' along d1: f''(x)·d1.
        let dp = rule.d_dual(Dual::new(x, dx.d1), Dual::new(y, dy1)).tangent;
        let dp = if u && R::LOCAL_TANGENT {
            dp.zero_off_support(dx.d1, dx.d1)
        } else {
            dp
        };
        Hyper {
            d1: dy1,
            d2: dx.d2.scale_partial(p, u),
            d12: dx.d12.scale_partial(p, u).add(along_d2(dp, dx.d2)),
        }
    }

    #[inline(always)]
    fn chain2<R: Binary<F>>(rule: &R, x1: F, x2: F, y: F, dx1: Self, dx2: Self) -> Self {
        let u = R::UNBOUNDED;
        let (p1, p2) = rule.d(x1, x2, y);
        let dy1 = dx1.d1.scale_partial(p1, u).add(dx2.d1.scale_partial(p2, u));
        let (q1, q2) = rule.d_dual(
            Dual::new(x1, dx1.d1),
            Dual::new(x2, dx2.d1),
            Dual::new(y, dy1),
        );
        let (q1, q2) = if u {
            let s = |q: T| q.zero_off_support(dx1.d1, dx2.d1);
            (s(q1.tangent), s(q2.tangent))
        } else {
            (q1.tangent, q2.tangent)
        };
        Hyper {
            d1: dy1,
            d2: dx1.d2.scale_partial(p1, u) + dx2.d2.scale_partial(p2, u),
            d12: dx1
                .d12
                .scale_partial(p1, u)
                .add(dx2.d12.scale_partial(p2, u))
                .add(along_d2(q1, dx1.d2))
                .add(along_d2(q2, dx2.d2)),
        }
    }
}

/// `t · d2`, the `f''` term of a second-order tangent, with strong zeros both ways: a second
/// direction that does not move the argument (`d2 = 0`) or a partial that does not change
/// along the first (a zero lane of `t`) contributes nothing, even where the other factor is
/// infinite after an unbounded rule's kink (`2·√x` at 0: `0 · ∞` would make the Hessian
/// NaN where it is 0).
#[inline(always)]
fn along_d2<F: Real, T: ScalarTangent<F>>(t: T, d2: F) -> T {
    if d2 == F::zero() {
        T::zero()
    } else {
        t.scale_strong(d2)
    }
}

/// A differentiation mode, named by the tangent type of `f64` under it: `f64` (one
/// direction), `Batch<f64, N>` (N directions), `Hyper<f64, T>` (second order).
///
/// Generated rules are generic over the mode, so one derived rule serves them all.
pub trait Mode: ScalarTangent<f64> + crate::traits::DynLanes {
    /// Whether generated code linearises straight-line chains (see
    /// [`linear`](crate::linear)): true for batches of two or more first-order directions;
    /// false for one direction (a chain's scalar coefficients cost as much as the tangent
    /// updates they replace) and for second order (where the derivative of a partial
    /// derivative contributes). A batch's lanes therefore equal the one-direction rule's
    /// to rounding, not bit for bit.
    const LINEARIZE: bool;
    /// Whether generated code linearises the chains whose values each depend on one
    /// root (a value read from outside the chain): true for one direction only (`f64`,
    /// `Batch<f64, 1>`), where a
    /// coefficient costs what a tangent update costs, so only a chain of one root gains
    /// (the operation that reads the root itself multiplies nothing: Horner's
    /// `p = p·x + c` costs one multiply-add for `∂p/∂x` where the product rule takes
    /// two multiplies and an add). Tangents equal the line-by-line rule's to rounding;
    /// primals are the same bits.
    const LINEARIZE_SINGLE_ROOT: bool = false;
    /// The highest order of derivative the mode carries: 1, and one more per `Hyper`
    /// level. An implicit rule that corrects its tangent by fixed-point steps (the linear
    /// solves of the runtime's `nalgebra_linalg`) takes this many steps to be exact.
    const ORDER: usize = 1;
    /// Whether a rule with a wide entry (`crate::dispatch`) takes it in this mode: batches
    /// of four lanes or more, whose updates then take one fused instruction per four
    /// lanes.
    #[doc(hidden)]
    const __WIDE: bool = false;
    /// The tangent of a real scalar `F` under this mode.
    type Of<F: Real>: ScalarTangent<F>;
    /// Converts a tangent between float types (for `x as f32`).
    fn cast<F: Real, G: Real>(t: Self::Of<F>) -> Self::Of<G>;
    /// This mode's `f64` tangent as a tangent of `G`.
    #[inline(always)]
    fn narrow<G: Real>(t: Self) -> Self::Of<G> {
        Self::cast::<f64, G>(Self::from_own(t))
    }
    /// A tangent of `F` as this mode's `f64` tangent.
    fn widen<F: Real>(t: Self::Of<F>) -> Self;
    /// `Self` seen as `Self::Of<f64>` (they are the same type).
    fn from_own(t: Self) -> Self::Of<f64>;
}

impl Mode for f64 {
    const LINEARIZE: bool = false;
    const LINEARIZE_SINGLE_ROOT: bool = true;
    type Of<F: Real> = F;
    #[inline(always)]
    fn cast<F: Real, G: Real>(t: F) -> G {
        G::cst(t.to_f64_lossless())
    }
    #[inline(always)]
    fn widen<F: Real>(t: F) -> f64 {
        t.to_f64_lossless()
    }
    #[inline(always)]
    fn from_own(t: f64) -> f64 {
        t
    }
}

impl<const N: usize> Mode for Batch<f64, N> {
    const LINEARIZE: bool = N > 1;
    const __WIDE: bool = N >= 4;
    // One lane is one direction: the same body as `f64`, so the two agree bit for bit.
    const LINEARIZE_SINGLE_ROOT: bool = N == 1;
    type Of<F: Real> = Batch<F, N>;
    #[inline(always)]
    fn cast<F: Real, G: Real>(t: Batch<F, N>) -> Batch<G, N> {
        Batch::from_fn(|i| G::cst(t.0[i].to_f64_lossless()))
    }
    #[inline(always)]
    fn widen<F: Real>(t: Batch<F, N>) -> Self {
        Batch::from_fn(|i| t.0[i].to_f64_lossless())
    }
    #[inline(always)]
    fn from_own(t: Self) -> Batch<f64, N> {
        t
    }
}

/// `T`'s mode with known zeros: linearised as `T` is, so the results equal `T`'s as
/// values (see [`MaybeZero`]).
impl<T: Mode> Mode for MaybeZero<T> {
    const LINEARIZE: bool = T::LINEARIZE;
    const LINEARIZE_SINGLE_ROOT: bool = T::LINEARIZE_SINGLE_ROOT;
    const ORDER: usize = T::ORDER;
    type Of<F: Real> = MaybeZero<T::Of<F>>;
    #[inline(always)]
    fn cast<F: Real, G: Real>(t: MaybeZero<T::Of<F>>) -> MaybeZero<T::Of<G>> {
        MaybeZero {
            live: t.live,
            tangent: T::cast::<F, G>(t.tangent),
        }
    }
    #[inline(always)]
    fn widen<F: Real>(t: MaybeZero<T::Of<F>>) -> Self {
        MaybeZero {
            live: t.live,
            tangent: T::widen::<F>(t.tangent),
        }
    }
    #[inline(always)]
    fn from_own(t: Self) -> MaybeZero<T::Of<f64>> {
        MaybeZero {
            live: t.live,
            tangent: T::from_own(t.tangent),
        }
    }
}

/// `T`'s mode, its updates fused (see [`Fused`]).
impl<T: Mode> Mode for Fused<T> {
    const LINEARIZE: bool = T::LINEARIZE;
    const LINEARIZE_SINGLE_ROOT: bool = T::LINEARIZE_SINGLE_ROOT;
    const ORDER: usize = T::ORDER;
    type Of<F: Real> = Fused<T::Of<F>>;
    #[inline(always)]
    fn cast<F: Real, G: Real>(t: Fused<T::Of<F>>) -> Fused<T::Of<G>> {
        Fused(T::cast::<F, G>(t.0))
    }
    #[inline(always)]
    fn widen<F: Real>(t: Fused<T::Of<F>>) -> Self {
        Fused(T::widen::<F>(t.0))
    }
    #[inline(always)]
    fn from_own(t: Self) -> Fused<T::Of<f64>> {
        Fused(T::from_own(t.0))
    }
}

impl<T: Mode> Mode for Hyper<f64, T> {
    const LINEARIZE: bool = false;
    const ORDER: usize = T::ORDER + 1;
    type Of<F: Real> = Hyper<F, T::Of<F>>;
    #[inline(always)]
    fn cast<F: Real, G: Real>(t: Hyper<F, T::Of<F>>) -> Hyper<G, T::Of<G>> {
        Hyper {
            d1: T::cast::<F, G>(t.d1),
            d2: G::cst(t.d2.to_f64_lossless()),
            d12: T::cast::<F, G>(t.d12),
        }
    }
    #[inline(always)]
    fn widen<F: Real>(t: Hyper<F, T::Of<F>>) -> Self {
        Hyper {
            d1: T::widen::<F>(t.d1),
            d2: t.d2.to_f64_lossless(),
            d12: T::widen::<F>(t.d12),
        }
    }
    #[inline(always)]
    fn from_own(t: Self) -> Hyper<f64, T::Of<f64>> {
        Hyper {
            d1: T::from_own(t.d1),
            d2: t.d2,
            d12: T::from_own(t.d12),
        }
    }
}

/// A scalar tangent made of independent lanes (one direction, or a batch): what drivers
/// and tests need to seed directions and read results.
pub trait Lanes<F: Real>: ScalarTangent<F> {
    /// Number of directions.
    const LANES: usize;
    /// The value in lane `k`.
    fn lane(&self, k: usize) -> F;
    /// The tangent whose lane `k` is `f(k)`.
    fn from_lanes(f: impl FnMut(usize) -> F) -> Self;
}

impl<F: Real> Lanes<F> for F {
    const LANES: usize = 1;
    #[inline(always)]
    fn lane(&self, _k: usize) -> F {
        *self
    }
    #[inline(always)]
    fn from_lanes(mut f: impl FnMut(usize) -> F) -> Self {
        f(0)
    }
}

impl<F: Real, const N: usize> Lanes<F> for Batch<F, N> {
    const LANES: usize = N;
    #[inline(always)]
    fn lane(&self, k: usize) -> F {
        self.0[k]
    }
    #[inline(always)]
    fn from_lanes(f: impl FnMut(usize) -> F) -> Self {
        Batch::from_fn(f)
    }
}

impl<F: Real, T: Lanes<F>> Lanes<F> for Fused<T> {
    const LANES: usize = T::LANES;
    #[inline(always)]
    fn lane(&self, k: usize) -> F {
        self.0.lane(k)
    }
    #[inline(always)]
    fn from_lanes(f: impl FnMut(usize) -> F) -> Self {
        Fused(T::from_lanes(f))
    }
}

/// A lane tangent with its zero known: seeding all-zero lanes gives a known zero.
impl<F: Real, T: Lanes<F>> Lanes<F> for MaybeZero<T> {
    const LANES: usize = T::LANES;
    #[inline(always)]
    fn lane(&self, k: usize) -> F {
        self.tangent.lane(k)
    }
    #[inline(always)]
    fn from_lanes(f: impl FnMut(usize) -> F) -> Self {
        let tangent = T::from_lanes(f);
        let live = (0..T::LANES).any(|k| tangent.lane(k) != F::zero());
        MaybeZero {
            live: live as u64,
            tangent,
        }
    }
}

/// Vector-space operations on tangent values (Mooncake's `increment!!`, `_scale`, `_dot`).
///
/// Implemented for owned tangents and for mutably borrowed tangent buffers, which is all
/// accumulation and testing need; a shared `&[T]` tangent cannot be written, only read.
pub trait TangentSpace {
    /// `self += other`.
    fn increment(&mut self, other: &Self);
    /// `self *= a`.
    fn scale_by(&mut self, a: f64);
    /// The Euclidean inner product, as `f64`.
    fn dot(&self, other: &Self) -> f64;
}

impl TangentSpace for NoTangent {
    #[inline(always)]
    fn increment(&mut self, _: &Self) {}
    #[inline(always)]
    fn scale_by(&mut self, _: f64) {}
    #[inline(always)]
    fn dot(&self, _: &Self) -> f64 {
        0.0
    }
}

macro_rules! tangent_space_float {
    ($($f:ty),*) => {$(
        impl TangentSpace for $f {
            #[inline(always)]
            fn increment(&mut self, other: &Self) {
                *self += *other;
            }
            #[inline(always)]
            fn scale_by(&mut self, a: f64) {
                *self *= a as $f;
            }
            #[inline(always)]
            fn dot(&self, other: &Self) -> f64 {
                (*self as f64) * (*other as f64)
            }
        }
    )*};
}
tangent_space_float!(f32, f64);

impl<F: Real, const N: usize> TangentSpace for Batch<F, N> {
    fn increment(&mut self, other: &Self) {
        *self = ScalarTangent::add(*self, *other);
    }
    fn scale_by(&mut self, a: f64) {
        *self = ScalarTangent::scale(*self, F::cst(a));
    }
    fn dot(&self, other: &Self) -> f64 {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| a.to_f64_lossless() * b.to_f64_lossless())
            .sum()
    }
}

impl<T: TangentSpace> TangentSpace for [T] {
    fn increment(&mut self, other: &Self) {
        assert_eq!(self.len(), other.len(), "tangent length mismatch");
        self.iter_mut().zip(other).for_each(|(a, b)| a.increment(b));
    }
    fn scale_by(&mut self, a: f64) {
        self.iter_mut().for_each(|t| t.scale_by(a));
    }
    fn dot(&self, other: &Self) -> f64 {
        assert_eq!(self.len(), other.len(), "tangent length mismatch");
        self.iter().zip(other).map(|(a, b)| a.dot(b)).sum()
    }
}

impl<T: TangentSpace> TangentSpace for Fused<T> {
    fn increment(&mut self, other: &Self) {
        self.0.increment(&other.0);
    }
    fn scale_by(&mut self, a: f64) {
        self.0.scale_by(a);
    }
    fn dot(&self, other: &Self) -> f64 {
        self.0.dot(&other.0)
    }
}

impl<T: TangentSpace> TangentSpace for MaybeZero<T> {
    fn increment(&mut self, other: &Self) {
        if other.live != 0 {
            self.live = 1;
            self.tangent.increment(&other.tangent);
        }
    }
    fn scale_by(&mut self, a: f64) {
        if self.live != 0 {
            self.tangent.scale_by(a);
        }
    }
    fn dot(&self, other: &Self) -> f64 {
        if self.live == 0 || other.live == 0 {
            0.0
        } else {
            self.tangent.dot(&other.tangent)
        }
    }
}

impl<T: TangentSpace, const N: usize> TangentSpace for [T; N] {
    fn increment(&mut self, other: &Self) {
        self[..].increment(&other[..]);
    }
    fn scale_by(&mut self, a: f64) {
        self[..].scale_by(a);
    }
    fn dot(&self, other: &Self) -> f64 {
        self[..].dot(&other[..])
    }
}

#[cfg(feature = "alloc")]
impl<T: TangentSpace> TangentSpace for Vec<T> {
    fn increment(&mut self, other: &Self) {
        self[..].increment(&other[..]);
    }
    fn scale_by(&mut self, a: f64) {
        self[..].scale_by(a);
    }
    fn dot(&self, other: &Self) -> f64 {
        self[..].dot(&other[..])
    }
}

impl<T: TangentSpace> TangentSpace for Option<T> {
    fn increment(&mut self, other: &Self) {
        if let (Some(a), Some(b)) = (self.as_mut(), other.as_ref()) {
            a.increment(b);
        }
    }
    fn scale_by(&mut self, a: f64) {
        if let Some(t) = self {
            t.scale_by(a);
        }
    }
    fn dot(&self, other: &Self) -> f64 {
        match (self, other) {
            (Some(a), Some(b)) => a.dot(b),
            _ => 0.0,
        }
    }
}

#[cfg(feature = "alloc")]
impl<T: TangentSpace + ?Sized> TangentSpace for Box<T> {
    fn increment(&mut self, other: &Self) {
        (**self).increment(&**other);
    }
    fn scale_by(&mut self, a: f64) {
        (**self).scale_by(a);
    }
    fn dot(&self, other: &Self) -> f64 {
        (**self).dot(&**other)
    }
}

impl<T: TangentSpace + ?Sized> TangentSpace for &mut T {
    fn increment(&mut self, other: &Self) {
        (**self).increment(&**other);
    }
    fn scale_by(&mut self, a: f64) {
        (**self).scale_by(a);
    }
    fn dot(&self, other: &Self) -> f64 {
        (**self).dot(&**other)
    }
}

macro_rules! tangent_space_tuple {
    ($($T:ident $_pair:ident $i:tt),+) => {
        impl<$($T: TangentSpace),+> TangentSpace for ($($T,)+) {
            fn increment(&mut self, other: &Self) {
                $(self.$i.increment(&other.$i);)+
            }
            fn scale_by(&mut self, a: f64) {
                $(self.$i.scale_by(a);)+
            }
            fn dot(&self, other: &Self) -> f64 {
                0.0 $(+ self.$i.dot(&other.$i))+
            }
        }
    };
}
crate::for_tuples!(tangent_space_tuple);

impl TangentSpace for () {
    fn increment(&mut self, _: &Self) {}
    fn scale_by(&mut self, _: f64) {}
    fn dot(&self, _: &Self) -> f64 {
        0.0
    }
}
