//! Sparsity detection modes: tangents that are sets of input indices.
//!
//! * [`IndexSet<W>`]: the Jacobian pattern. Each input carries the set holding its own index;
//!   every operation unions the sets of its operands, and scaling by a partial derivative
//!   keeps the set whatever the partial's value, so a partial that happens to be `0`, `∞`
//!   or NaN at this point never drops an index. The set of an output is then the set of
//!   inputs it depends on along the control flow taken at the point: its row of the
//!   Jacobian's pattern (TAF-style bit-vector propagation).
//! * [`HessianSet<W>`]: the Hessian pattern. The tangent is the same first-order set; in
//!   addition, each nonlinear scalar rule records, for every input `i` it depends on, the
//!   inputs `j` that the partial derivative itself depends on (evaluating the partial on
//!   `IndexSet` duals, as second order evaluates it on duals): the pairs `(i, j)` of
//!   `∇²f`'s pattern, collected while [`record_hessian`] runs.
//!
//! Both are modes like `f64`, `Batch<f64, N>` and `Hyper`: the derived rules run on them
//! unchanged, so every construct the macro supports is covered. A set holds `64·W` indices,
//! a window of the inputs; the drivers in `fwdad::sparse` slide the window over longer
//! inputs (one pass per window).
//!
//! What a pattern assumes: control flow (`if`, `match`, loop trip counts, and the
//! piecewise rules `abs`, `min`, `max`, `clamp`, which follow the primal as a branch does)
//! goes the way it goes at the point of detection. The pattern then holds at every point
//! where it goes the same way; elsewhere it may miss entries.

#[cfg(feature = "std")]
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::{Binary, Mode, ScalarTangent, Unary};
#[cfg(feature = "std")]
use core::cell::RefCell;
use core::fmt;

/// A set of up to `64·W` input indices: the "tangent" of Jacobian sparsity detection.
///
/// ```
/// use fwdad_runtime::sparsity::IndexSet;
/// use fwdad_runtime::Dual;
///
/// let x = Dual::new(2.0_f64, IndexSet::<1>::single(0));
/// let y = Dual::new(0.0_f64, IndexSet::<1>::single(3));
/// let z = (x * y).sin() + x; // depends on x and y, whatever the partials' values
/// assert_eq!(z.tangent.iter().collect::<Vec<_>>(), [0, 3]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexSet<const W: usize>(pub [u64; W]);

impl<const W: usize> IndexSet<W> {
    /// How many indices a set can hold.
    pub const CAPACITY: usize = 64 * W;

    /// The empty set.
    #[inline(always)]
    pub const fn empty() -> Self {
        IndexSet([0; W])
    }

    /// `{i}`.
    ///
    /// # Panics
    /// If `i >= 64·W`.
    #[inline]
    pub fn single(i: usize) -> Self {
        assert!(i < Self::CAPACITY, "index {i} outside an IndexSet<{W}>");
        let mut s = Self::empty();
        s.0[i / 64] = 1 << (i % 64);
        s
    }

    /// `self ∪ other`.
    #[inline(always)]
    pub fn union(self, other: Self) -> Self {
        IndexSet(core::array::from_fn(|k| self.0[k] | other.0[k]))
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        i < Self::CAPACITY && self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// Number of indices in the set.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The indices, increasing.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            let mut rest = w;
            core::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(64 * k + b)
            })
        })
    }
}

impl<const W: usize> Default for IndexSet<W> {
    fn default() -> Self {
        Self::empty()
    }
}

impl<const W: usize> fmt::Debug for IndexSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Linear operations are unions; scaling keeps the set (the partial may be `0` here and
/// not elsewhere: a structural dependence is never dropped for a value).
impl<F: Real, const W: usize> ScalarTangent<F> for IndexSet<W> {
    #[inline(always)]
    fn zero() -> Self {
        Self::empty()
    }
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        self.union(other)
    }
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        self.union(other)
    }
    #[inline(always)]
    fn neg(self) -> Self {
        self
    }
    #[inline(always)]
    fn scale(self, _a: F) -> Self {
        self
    }
    #[inline(always)]
    fn scale_strong(self, _a: F) -> Self {
        self
    }
    #[inline(always)]
    fn zero_off_support(self, _a: Self, _b: Self) -> Self {
        self
    }
    #[inline(always)]
    fn axpy(self, _c: F, t: Self) -> Self {
        self.union(t)
    }
    /// Only the empty set: skipping it changes no union.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.is_empty()
    }
    #[inline(always)]
    fn chain1<R: Unary<F>>(_rule: &R, _x: F, _y: F, dx: Self) -> Self {
        dx
    }
    #[inline(always)]
    fn chain2<R: Binary<F>>(_rule: &R, _x1: F, _x2: F, _y: F, dx1: Self, dx2: Self) -> Self {
        dx1.union(dx2)
    }
}

impl<const W: usize> Mode for IndexSet<W> {
    /// A linearised chain would compute its coefficients for nothing.
    const LINEARIZE: bool = false;
    type Of<F: Real> = IndexSet<W>;
    #[inline(always)]
    fn cast<F: Real, G: Real>(t: Self) -> Self {
        t
    }
    #[inline(always)]
    fn widen<F: Real>(t: Self) -> Self {
        t
    }
    #[inline(always)]
    fn from_own(t: Self) -> Self {
        t
    }
}

/// The tangent of Hessian sparsity detection: the first-order dependency set, whose
/// nonlinear rules record the pairs of `∇²f`'s pattern (see [`record_hessian`]).
///
/// The pairs come from the rules' own partial derivatives, evaluated on [`IndexSet`]
/// duals: `a·b` records `(a, b)` and `(b, a)`, `sin(a)` records `(a, a)`, `a + b` and
/// `2·a` record nothing. Outside [`record_hessian`] it behaves as [`IndexSet`].
#[cfg(feature = "std")] // the recorder is a thread-local
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct HessianSet<const W: usize>(pub IndexSet<W>);

#[cfg(feature = "std")]
impl<const W: usize> fmt::Debug for HessianSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(feature = "std")]
thread_local! {
    /// While [`record_hessian`] runs: `64·W` rows of `W` words, row `i` the set of `j`
    /// recorded with `i`.
    static INTERACTIONS: RefCell<Option<(usize, Vec<u64>)>> = const { RefCell::new(None) };
}

/// Row `i ∪= with` for every `i` in `of`.
#[cfg(feature = "std")]
fn record<const W: usize>(of: IndexSet<W>, with: IndexSet<W>) {
    if of.is_empty() || with.is_empty() {
        return;
    }
    INTERACTIONS.with(|cell| {
        if let Some((w, rows)) = cell.borrow_mut().as_mut() {
            debug_assert_eq!(*w, W, "HessianSet window differs from the recorder's");
            for i in of.iter() {
                let row = &mut rows[i * W..(i + 1) * W];
                for (r, m) in row.iter_mut().zip(with.0) {
                    *r |= m;
                }
            }
        }
    });
}

/// Runs `f` (a rule evaluated with [`HessianSet<W>`] tangents) and returns its result and
/// the pairs its nonlinear rules recorded: `rows[i]` holds the `j` with `(i, j)` in the
/// pattern of the Hessian, over the window's `64·W` indices.
///
/// The recorder is per thread: a rule that runs part of its work on other threads records
/// nothing there.
///
/// # Panics
/// If called while another recording runs on this thread.
#[cfg(feature = "std")]
pub fn record_hessian<const W: usize, R>(f: impl FnOnce() -> R) -> (R, Vec<IndexSet<W>>) {
    INTERACTIONS.with(|cell| {
        let mut slot = cell.borrow_mut();
        assert!(slot.is_none(), "record_hessian: a recording already runs");
        *slot = Some((W, vec![0; 64 * W * W]));
    });
    // Cleared even if `f` panics, so that the thread can record again.
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            INTERACTIONS.with(|cell| cell.borrow_mut().take());
        }
    }
    let reset = Reset;
    let out = f();
    let (_, words) = INTERACTIONS
        .with(|cell| cell.borrow_mut().take())
        .expect("the recording was in place");
    drop(reset);
    let rows = words
        .chunks_exact(W)
        .map(|c| IndexSet(core::array::from_fn(|k| c[k])))
        .collect();
    (out, rows)
}

#[cfg(feature = "std")]
impl<F: Real, const W: usize> ScalarTangent<F> for HessianSet<W> {
    #[inline(always)]
    fn zero() -> Self {
        HessianSet(IndexSet::empty())
    }
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        HessianSet(self.0.union(other.0))
    }
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        HessianSet(self.0.union(other.0))
    }
    #[inline(always)]
    fn neg(self) -> Self {
        self
    }
    #[inline(always)]
    fn scale(self, _a: F) -> Self {
        self
    }
    #[inline(always)]
    fn scale_strong(self, _a: F) -> Self {
        self
    }
    #[inline(always)]
    fn zero_off_support(self, _a: Self, _b: Self) -> Self {
        self
    }
    #[inline(always)]
    fn axpy(self, _c: F, t: Self) -> Self {
        HessianSet(self.0.union(t.0))
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    /// Records `(i, j)` for `i` in `dx` and `j` in the dependencies of `f'(x)`.
    fn chain1<R: Unary<F>>(rule: &R, x: F, y: F, dx: Self) -> Self {
        let s = dx.0;
        let dp = rule.d_dual(Dual::new(x, s), Dual::new(y, s)).tangent;
        record(s, dp);
        dx
    }
    /// Records `(i, j)` for `i` in `dx1` and `j` in the dependencies of `∂f/∂x1`, and the
    /// same for `x2`.
    fn chain2<R: Binary<F>>(rule: &R, x1: F, x2: F, y: F, dx1: Self, dx2: Self) -> Self {
        let (s1, s2) = (dx1.0, dx2.0);
        let sy = s1.union(s2);
        let (q1, q2) = rule.d_dual(Dual::new(x1, s1), Dual::new(x2, s2), Dual::new(y, sy));
        record(s1, q1.tangent);
        record(s2, q2.tangent);
        HessianSet(sy)
    }
}

#[cfg(feature = "std")]
impl<const W: usize> Mode for HessianSet<W> {
    const LINEARIZE: bool = false;
    // Second order: the runtime's nalgebra rules take the scalar rules' path (whose
    // `chain2` records the interactions) rather than their first-order shortcuts.
    const ORDER: usize = 2;
    type Of<F: Real> = HessianSet<W>;
    #[inline(always)]
    fn cast<F: Real, G: Real>(t: Self) -> Self {
        t
    }
    #[inline(always)]
    fn widen<F: Real>(t: Self) -> Self {
        t
    }
    #[inline(always)]
    fn from_own(t: Self) -> Self {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type S = IndexSet<2>;

    fn set(ix: &[usize]) -> S {
        ix.iter().fold(S::empty(), |s, &i| s.union(S::single(i)))
    }

    #[test]
    fn set_operations() {
        let a = set(&[0, 63, 64, 127]);
        assert_eq!(a.iter().collect::<Vec<_>>(), [0, 63, 64, 127]);
        assert_eq!(a.len(), 4);
        assert!(a.contains(64) && !a.contains(65) && !a.contains(500));
        assert!(S::empty().is_empty() && !a.is_empty());
        assert_eq!(a.union(set(&[5])).len(), 5);
    }

    #[test]
    fn a_zero_partial_keeps_the_dependence() {
        // d(x·y)/dx = y = 0 at this point; the entry is still structural.
        let x = Dual::new(3.0_f64, set(&[0]));
        let y = Dual::new(0.0_f64, set(&[1]));
        assert_eq!((x * y).tangent, set(&[0, 1]));
        // sqrt's partial is infinite at 0, ln's NaN below 0: sets are unaffected.
        assert_eq!(Dual::new(0.0, set(&[2])).sqrt().tangent, set(&[2]));
        assert_eq!(Dual::new(-1.0, set(&[3])).ln().tangent, set(&[3]));
        // Locally constant functions carry no dependence.
        assert!(Dual::new(2.5, set(&[4])).floor().tangent.is_empty());
    }

    #[test]
    fn hessian_pairs_come_from_nonlinear_rules() {
        type H = HessianSet<1>;
        let h = |i: usize| HessianSet(IndexSet::<1>::single(i));
        let ((), rows) = record_hessian::<1, _>(|| {
            let (a, b, c, d) = (
                Dual::new(1.0_f64, h(0)),
                Dual::new(2.0_f64, h(1)),
                Dual::new(0.0_f64, h(2)),
                Dual::new(5.0_f64, h(3)),
            );
            // a·b: (0,1), (1,0); sin(c): (2,2); 3·d + a: nothing.
            let z: Dual<f64, H> = a * b + c.sin() + d * 3.0 + a;
            assert_eq!(z.tangent.0.len(), 4);
        });
        let pairs: Vec<(usize, usize)> = rows
            .iter()
            .enumerate()
            .flat_map(|(i, r)| r.iter().map(move |j| (i, j)))
            .collect();
        assert_eq!(pairs, [(0, 1), (1, 0), (2, 2)]);
    }
}
