//! # Sparse Jacobians and Hessians
//!
//! Most Jacobians are sparse: a discretised PDE's residual is banded, bundle adjustment's
//! is block-sparse. Forward mode then needs one pass per *colour* of the columns, not one
//! per input: columns that share no row are pushed together, in one lane, and each nonzero
//! is read back from its row (Curtis–Powell–Reid). This module does it in three steps,
//! all through the same derived rule:
//!
//! 1. **Detect** the pattern: the rule runs with [`IndexSet`] tangents, sets of input
//!    indices that every operation unions ([`jacobian_sparsity`]; [`hessian_sparsity`]
//!    with [`HessianSet`], whose nonlinear rules record the Hessian's pairs). One pass per
//!    512 inputs (a Hessian: one per pair of blocks of 256).
//! 2. **Colour** the columns ([`color_columns`]; [`star_coloring`] for a Hessian).
//! 3. **Evaluate**: one batched pass (`Batch<f64, N>`) per `N` colours, each nonzero read
//!    from its row's lane. The values are those of the dense [`jacobian`](crate::jacobian),
//!    bit for bit.
//!
//! [`SparseJacobianWorkspace`] does steps 1 and 2 once and step 3 at every new point;
//! [`SparseResidualWorkspace`] the same for a residual written into a buffer
//! (`f(x, r: &mut [f64])`), whose buffer it keeps too, and [`NarrowResidualWorkspace`]
//! with a batch width it chooses from the colours (3 lanes for 3 colours: at large `n` the
//! tangents' memory is most of the cost); [`sparse_jacobian`] all three at one point. [`SparseHessianWorkspace`] and [`sparse_hessian`] do the same for Hessians,
//! with a star colouring. For a residual made of many small blocks of known inputs
//! (bundle adjustment's observations), a [`BlockJacobianWorkspace`] differentiates block by
//! block instead, in cache ([`BlockLayout`] states the structure).
//!
//! ## When to use it
//!
//! When the Jacobian has many columns and few colours: a residual of a discretised PDE, a
//! chain or network of local couplings, bundle adjustment. A tridiagonal residual costs
//! one batched pass at any `n` (the dense driver: `n / 8`). Detection and colouring cost
//! a few hundred to a few thousand evaluations of the function, once: keep a workspace
//! for the evaluations that follow. With few inputs (`n ≤ 8`) or a dense Jacobian the
//! dense [`jacobian`](crate::jacobian) is as fast and needs no setup.
//!
//! ```
//! use fwdad::prelude::*;
//! use fwdad::sparse::{sparse_jacobian, SparseJacobianWorkspace};
//!
//! /// The residual of -u'' + u³ = 1 on a uniform grid, u = 0 outside.
//! #[derive_frule]
//! fn residual(u: &[f64]) -> Vec<f64> {
//!     let n = u.len();
//!     let mut r = vec![0.0; n];
//!     for i in 0..n {
//!         let left = if i > 0 { u[i - 1] } else { 0.0 };
//!         let right = if i + 1 < n { u[i + 1] } else { 0.0 };
//!         r[i] = 2.0 * u[i] - left - right + u[i].powi(3) - 1.0;
//!     }
//!     r
//! }
//!
//! let u = vec![0.5; 1000];
//! let mut ws = SparseJacobianWorkspace::new(residual {}, &u);
//! assert_eq!(ws.colors(), 3); // one batched pass, not 1000 / 8
//! let (r, j) = ws.jacobian(&u);
//! assert_eq!(r[10], 2.0 * 0.5 - 0.5 - 0.5 + 0.125 - 1.0);
//! assert_eq!(j.get(10, 10), 2.0 + 3.0 * 0.25);
//! assert_eq!(j.get(10, 11), -1.0);
//! assert_eq!(j.nnz(), 3 * 1000 - 2);
//! ```
//!
//! ## What a pattern assumes
//!
//! Detection follows the primal at the point it is given, as every mode does: the branch
//! an `if` takes, a loop's trip count, and the piece a piecewise rule (`abs`, `min`, `max`,
//! `clamp`) selects. A partial derivative's *value* never matters (a product by `0`, an
//! infinite slope: the dependence is kept). So the pattern found at `x` holds at every
//! point where the control flow goes the same way; at a point where it goes another way an
//! entry may be missing, and the compressed evaluation would then add it to another
//! column's. If the branches depend on the point, detect at several points and take the
//! union ([`SparsityPattern::union`], [`SparseJacobianWorkspace::with_pattern`]), check a
//! new point with [`SparseJacobianWorkspace::pattern_holds_at`] (one detection pass per
//! 512 inputs), or use the dense [`jacobian`](crate::jacobian).

mod blocks;
pub use blocks::{BlockGroup, BlockJacobianWorkspace, BlockLayout};

use crate::coloring::{color_columns, star_coloring, star_recovery, Coloring};
use crate::drivers::{FlatOutput, Matrix, SliceRule, DEFAULT_WIDTH};
use fwdad_runtime::sparsity::{record_hessian, HessianSet, IndexSet};
use fwdad_runtime::{Batch, Dual, Frule, Hyper, Lanes, Mode, ScalarTangent};

/// Words of the detection sets: 512 inputs per pass.
const WORDS: usize = 8;

/// The tangent of Jacobian pattern detection.
pub type JacobianDetect = IndexSet<WORDS>;
/// The tangent of Hessian pattern detection.
pub type HessianDetect = HessianSet<WORDS>;

// ---------------------------------------------------------------------------------------
// Patterns and matrices
// ---------------------------------------------------------------------------------------

/// The positions of a sparse matrix's nonzeros, in compressed sparse rows: row `i` holds
/// the columns `col_indices()[row_offsets()[i]..row_offsets()[i + 1]]`, increasing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SparsityPattern {
    nrows: usize,
    ncols: usize,
    offsets: Vec<usize>,
    cols: Vec<usize>,
}

impl SparsityPattern {
    /// The pattern whose row `i` holds the columns `rows[i]`.
    ///
    /// # Panics
    /// If a row is not strictly increasing or names a column `>= ncols`.
    pub fn from_rows<R: AsRef<[usize]>>(ncols: usize, rows: &[R]) -> Self {
        let mut offsets = Vec::with_capacity(rows.len() + 1);
        let mut cols = Vec::new();
        offsets.push(0);
        for (i, r) in rows.iter().enumerate() {
            let r = r.as_ref();
            assert!(
                r.windows(2).all(|w| w[0] < w[1]),
                "row {i} of a sparsity pattern is not strictly increasing"
            );
            assert!(
                r.last().is_none_or(|&j| j < ncols),
                "row {i} of a sparsity pattern names a column past {ncols}"
            );
            cols.extend_from_slice(r);
            offsets.push(cols.len());
        }
        SparsityPattern {
            nrows: rows.len(),
            ncols,
            offsets,
            cols,
        }
    }

    /// The pattern of the entries of `m` that are not `0.0`.
    pub fn of_nonzeros(m: &Matrix) -> Self {
        let rows: Vec<Vec<usize>> = m
            .rows()
            .map(|r| (0..r.len()).filter(|&j| r[j] != 0.0).collect())
            .collect();
        SparsityPattern::from_rows(m.ncols(), &rows)
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }
    /// Number of entries.
    pub fn nnz(&self) -> usize {
        self.cols.len()
    }
    /// The columns of row `i`, increasing.
    pub fn row(&self, i: usize) -> &[usize] {
        &self.cols[self.offsets[i]..self.offsets[i + 1]]
    }
    /// Where each row starts in [`col_indices`](Self::col_indices) (`nrows + 1` offsets).
    pub fn row_offsets(&self) -> &[usize] {
        &self.offsets
    }
    /// The columns of all rows, one row after the other.
    pub fn col_indices(&self) -> &[usize] {
        &self.cols
    }
    /// Whether `(i, j)` is an entry.
    pub fn contains(&self, i: usize, j: usize) -> bool {
        i < self.nrows && self.row(i).binary_search(&j).is_ok()
    }
    /// The entries `(i, j)` in row order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.nrows).flat_map(move |i| self.row(i).iter().map(move |&j| (i, j)))
    }
    /// The transposed pattern.
    pub fn transpose(&self) -> SparsityPattern {
        let mut rows = vec![Vec::new(); self.ncols];
        for (i, j) in self.iter() {
            rows[j].push(i);
        }
        SparsityPattern::from_rows(self.nrows, &rows)
    }
    /// The entries of either pattern (of the same shape).
    ///
    /// # Panics
    /// If the shapes differ.
    pub fn union(&self, other: &SparsityPattern) -> SparsityPattern {
        assert_eq!(
            (self.nrows, self.ncols),
            (other.nrows, other.ncols),
            "union of sparsity patterns of different shapes"
        );
        let rows: Vec<Vec<usize>> = (0..self.nrows)
            .map(|i| {
                let mut r: Vec<usize> = self.row(i).iter().chain(other.row(i)).copied().collect();
                r.sort_unstable();
                r.dedup();
                r
            })
            .collect();
        SparsityPattern::from_rows(self.ncols, &rows)
    }
    /// The union with the transpose (square patterns).
    pub fn symmetrized(&self) -> SparsityPattern {
        self.union(&self.transpose())
    }
}

/// A sparse `f64` matrix in compressed sparse rows: a [`SparsityPattern`] and one value
/// per entry, in the pattern's order. What the sparse drivers return.
#[derive(Clone, Debug, PartialEq)]
pub struct CsrMatrix {
    pattern: SparsityPattern,
    values: Vec<f64>,
}

impl CsrMatrix {
    /// The matrix with `values[k]` at the `k`-th entry of `pattern`.
    ///
    /// # Panics
    /// If `values.len() != pattern.nnz()`.
    pub fn new(pattern: SparsityPattern, values: Vec<f64>) -> Self {
        assert_eq!(
            values.len(),
            pattern.nnz(),
            "one value per entry of the pattern"
        );
        CsrMatrix { pattern, values }
    }
    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.pattern.nrows
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.pattern.ncols
    }
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.values.len()
    }
    /// Where the entries are.
    pub fn pattern(&self) -> &SparsityPattern {
        &self.pattern
    }
    /// The stored values, in the pattern's row order.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
    /// Row `i`: its columns and their values.
    pub fn row(&self, i: usize) -> (&[usize], &[f64]) {
        let r = self.pattern.offsets[i]..self.pattern.offsets[i + 1];
        (&self.pattern.cols[r.clone()], &self.values[r])
    }
    /// Entry `(i, j)`: its stored value, or `0.0` outside the pattern.
    ///
    /// # Panics
    /// If `(i, j)` is outside the matrix.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        assert!(
            i < self.nrows() && j < self.ncols(),
            "entry ({i}, {j}) outside a {} × {} matrix",
            self.nrows(),
            self.ncols()
        );
        let (cols, vals) = self.row(i);
        cols.binary_search(&j).map_or(0.0, |k| vals[k])
    }
    /// The entries `(i, j, value)` in row order.
    pub fn triplets(&self) -> impl Iterator<Item = (usize, usize, f64)> + '_ {
        self.pattern
            .iter()
            .zip(&self.values)
            .map(|((i, j), &v)| (i, j, v))
    }
    /// The dense matrix.
    pub fn to_dense(&self) -> Matrix {
        let mut m = Matrix::zeros(self.nrows(), self.ncols());
        for (i, j, v) in self.triplets() {
            m[(i, j)] = v;
        }
        m
    }
    /// `A·v`.
    ///
    /// # Panics
    /// If `v.len() != ncols`.
    pub fn mul_vec(&self, v: &[f64]) -> Vec<f64> {
        assert_eq!(v.len(), self.ncols(), "mul_vec: length of v");
        (0..self.nrows())
            .map(|i| {
                let (cols, vals) = self.row(i);
                cols.iter().zip(vals).map(|(&j, a)| a * v[j]).sum()
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------
// Detection
// ---------------------------------------------------------------------------------------

/// The pattern of `f`'s Jacobian at `x`: row `i` holds the inputs that output `i` depends
/// on along the control flow taken at `x` (see the module doc for what that assumes).
///
/// One pass of the rule with [`IndexSet`] tangents per 512 inputs.
///
/// ```
/// use fwdad::prelude::*;
/// use fwdad::sparse::jacobian_sparsity;
///
/// #[derive_frule]
/// fn f(x: &[f64]) -> [f64; 3] {
///     [x[0] * x[1], x[2].sin(), 0.0 * x[3] + 2.0]
/// }
///
/// let p = jacobian_sparsity(&f {}, &[1.0, 0.0, 2.0, 3.0]);
/// assert_eq!(p.row(0), [0, 1]); // ∂/∂x0 = x1 = 0 here: still an entry
/// assert_eq!(p.row(1), [2]);
/// assert_eq!(p.row(2), [3]); // a product by the constant 0: still an entry
/// ```
pub fn jacobian_sparsity<F>(f: &F, x: &[f64]) -> SparsityPattern
where
    F: SliceRule<JacobianDetect, Output: FlatOutput<JacobianDetect>>,
{
    let n = x.len();
    let cap = JacobianDetect::CAPACITY;
    let mut seeds = vec![JacobianDetect::empty(); n];
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut lo = 0;
    loop {
        let hi = (lo + cap).min(n);
        for (k, s) in seeds[lo..hi].iter_mut().enumerate() {
            *s = JacobianDetect::single(k);
        }
        let y = f.eval(x, &seeds);
        if lo == 0 {
            rows.resize(y.len(), Vec::new());
        }
        assert_eq!(
            y.len(),
            rows.len(),
            "jacobian_sparsity: the number of outputs changed between passes"
        );
        for (i, row) in rows.iter_mut().enumerate() {
            row.extend(y.tangent(i).iter().map(|k| lo + k));
        }
        seeds[lo..hi].fill(JacobianDetect::empty());
        lo = hi;
        if lo >= n {
            break;
        }
    }
    SparsityPattern::from_rows(n, &rows)
}

/// The pattern of the Hessian of `f: &[f64] → f64` at `x`, symmetric: `(i, j)` is an entry
/// when a nonlinear operation's partial derivative along an input `i` depends on `j`.
///
/// One pass with [`HessianSet`] tangents for up to 512 inputs; beyond, one per pair of
/// blocks of 256 inputs (about `n² / 131072` passes).
///
/// ```
/// use fwdad::prelude::*;
/// use fwdad::sparse::hessian_sparsity;
///
/// #[derive_frule]
/// fn f(x: &[f64]) -> f64 {
///     x[0] * x[1] + x[2].exp() + 3.0 * x[3]
/// }
///
/// let p = hessian_sparsity(&f {}, &[1.0, 2.0, 3.0, 4.0]);
/// assert_eq!(p.iter().collect::<Vec<_>>(), [(0, 1), (1, 0), (2, 2)]);
/// ```
pub fn hessian_sparsity<F>(f: &F, x: &[f64]) -> SparsityPattern
where
    F: SliceRule<HessianDetect, Output = Dual<f64, HessianDetect>>,
{
    let n = x.len();
    let cap = IndexSet::<WORDS>::CAPACITY;
    let mut seeds = vec![HessianSet(IndexSet::empty()); n];
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); n];
    // Windows: all inputs at once, or every pair of half-window blocks.
    let windows: Vec<(usize, usize)> = if n <= cap {
        vec![(0, 0)]
    } else {
        let blocks = n.div_ceil(cap / 2);
        (0..blocks)
            .flat_map(|a| (a..blocks).map(move |b| (a, b)))
            .collect()
    };
    let half = cap / 2;
    for (a, b) in windows {
        // Bit k of the window ↔ input index[k].
        let index: Vec<usize> = if n <= cap {
            (0..n).collect()
        } else {
            let block = |c: usize| c * half..((c + 1) * half).min(n);
            if a == b {
                block(a).collect()
            } else {
                block(a).chain(block(b)).collect()
            }
        };
        for (k, &i) in index.iter().enumerate() {
            seeds[i] = HessianSet(IndexSet::single(k));
        }
        let (_, pairs) = record_hessian::<WORDS, _>(|| f.eval(x, &seeds));
        for (k, js) in pairs.iter().enumerate().take(index.len()) {
            rows[index[k]].extend(js.iter().map(|m| index[m]));
        }
        for &i in &index {
            seeds[i] = HessianSet(IndexSet::empty());
        }
    }
    for r in &mut rows {
        r.sort_unstable();
        r.dedup();
    }
    SparsityPattern::from_rows(n, &rows).symmetrized()
}

// ---------------------------------------------------------------------------------------
// Jacobians
// ---------------------------------------------------------------------------------------

/// What a sparse Jacobian workspace keeps whatever form the rule returns its result in:
/// the colouring, the seeds of the current colour group and the matrix, with each entry's
/// lane and group precomputed.
#[derive(Clone, Debug)]
struct Compressed<const N: usize> {
    coloring: Coloring,
    /// Per entry (pattern order): the lane of its column's colour within its group.
    entry_lane: Vec<u16>,
    /// Per entry: its column's colour group (colour / N).
    entry_group: Vec<u32>,

    seeds: Vec<Batch<f64, N>>,
    /// Which colour group `seeds` holds now.
    seeded: Option<usize>,
    jac: CsrMatrix,
}

impl<const N: usize> Compressed<N> {
    fn new(pattern: SparsityPattern) -> Self {
        let coloring = color_columns(&pattern);
        Self::with_coloring(pattern, coloring)
    }

    fn with_coloring(pattern: SparsityPattern, coloring: Coloring) -> Self {
        const { assert!(N >= 1 && N <= 1 << 16, "a batch needs 1 to 65536 lanes") };
        let colors = coloring.colors();
        let of_entry = |f: fn(usize) -> usize| -> Vec<u32> {
            pattern
                .col_indices()
                .iter()
                .map(|&j| f(colors[j]) as u32)
                .collect()
        };
        let entry_lane = of_entry(|c| c % N).into_iter().map(|l| l as u16).collect();
        let entry_group = of_entry(|c| c / N);
        let (n, nnz) = (pattern.ncols(), pattern.nnz());
        Compressed {
            entry_lane,
            entry_group,
            seeds: vec![Batch::default(); n],
            seeded: None,
            coloring,
            jac: CsrMatrix::new(pattern, vec![0.0; nnz]),
        }
    }

    /// Number of batched passes.
    fn groups(&self) -> usize {
        self.coloring.count().div_ceil(N).max(1)
    }

    fn check_len(&self, x: &[f64]) {
        let n = self.jac.ncols();
        assert_eq!(
            x.len(),
            n,
            "sparse Jacobian: x has {} inputs, the pattern {n}",
            x.len()
        );
    }

    /// The seeds of group `g`: lane `c - gN` of every column of colour `c` in the group.
    fn seed(&mut self, g: usize) {
        if self.seeded != Some(g) {
            let c0 = g * N;
            for (s, &c) in self.seeds.iter_mut().zip(self.coloring.colors()) {
                *s = Batch::from_fn(|l| if c == c0 + l { 1.0 } else { 0.0 });
            }
            self.seeded = Some(g);
        }
    }

    /// Reads group `g`'s entries from the rows' tangents `dr` and zeroes each row once
    /// read (while it is in cache), one sweep in row order.
    fn read_and_zero(&mut self, g: usize, dr: &mut [Batch<f64, N>]) {
        let rows = dr.len();
        assert_eq!(
            rows,
            self.jac.nrows(),
            "sparse Jacobian: the rule returned {rows} outputs, the pattern has {} rows",
            self.jac.nrows()
        );
        let offsets = &self.jac.pattern.offsets[1..];
        let values = &mut self.jac.values[..];
        let lanes = &self.entry_lane[..];
        let mut k = 0;
        if self.coloring.count() <= N {
            for (t, &end) in dr.iter_mut().zip(offsets) {
                for (v, &l) in values[k..end].iter_mut().zip(&lanes[k..end]) {
                    *v = t.0[l as usize];
                }
                k = end;
                *t = Batch::default();
            }
        } else {
            let groups = &self.entry_group[..];
            for (t, &end) in dr.iter_mut().zip(offsets) {
                for ((v, &l), &h) in values[k..end]
                    .iter_mut()
                    .zip(&lanes[k..end])
                    .zip(&groups[k..end])
                {
                    if h as usize == g {
                        *v = t.0[l as usize];
                    }
                }
                k = end;
                *t = Batch::default();
            }
        }
    }

    /// Reads group `g`'s entries from the rows' tangents.
    fn read(&mut self, g: usize, rows: usize, tangent: impl Fn(usize) -> Batch<f64, N>) {
        assert_eq!(
            rows,
            self.jac.nrows(),
            "sparse Jacobian: the rule returned {rows} outputs, the pattern has {} rows",
            self.jac.nrows()
        );
        let one_group = self.groups() == 1;
        let offsets = &self.jac.pattern.offsets;
        for i in 0..rows {
            let t = tangent(i);
            for k in offsets[i]..offsets[i + 1] {
                if one_group || self.entry_group[k] as usize == g {
                    self.jac.values[k] = t.lane(usize::from(self.entry_lane[k]));
                }
            }
        }
    }
}

/// A sparse Jacobian driver that detects the pattern and colours it once, then evaluates
/// at new points with one batched pass per `N` colours (`Batch<f64, N>`), its buffers kept.
///
/// The rule is any rule the dense [`jacobian`](crate::jacobian) takes (the handle
/// `f {}` of a `#[derive_frule] fn f(x: &[f64]) -> ..`, [`bind`](crate::bind),
/// [`inplace`](crate::inplace)). For a residual written into a buffer, a
/// [`SparseResidualWorkspace`] also keeps the buffer. See the [module doc](self) for an
/// example and for what the pattern assumes.
#[derive(Clone, Debug)]
pub struct SparseJacobianWorkspace<F, const N: usize = DEFAULT_WIDTH> {
    rule: F,
    core: Compressed<N>,
    values: Vec<f64>,
}

impl<F> SparseJacobianWorkspace<F> {
    /// Detects the pattern of `rule`'s Jacobian at `x` ([`jacobian_sparsity`]) and colours
    /// its columns ([`color_columns`]); [`DEFAULT_WIDTH`] colours per pass (another width:
    /// `SparseJacobianWorkspace::<_, 16>::detect`).
    pub fn new(rule: F, x: &[f64]) -> Self
    where
        F: SliceRule<JacobianDetect, Output: FlatOutput<JacobianDetect>>,
    {
        Self::detect(rule, x)
    }

    /// Uses `pattern` (which must hold every nonzero of the Jacobian wherever it is
    /// evaluated: a union of detected patterns, or one known from the problem) and colours
    /// it; [`DEFAULT_WIDTH`] colours per pass.
    pub fn with_pattern(rule: F, pattern: SparsityPattern) -> Self {
        Self::from_pattern(rule, pattern)
    }
}

impl<F, const N: usize> SparseJacobianWorkspace<F, N> {
    /// [`new`](SparseJacobianWorkspace::new) with `N` colours per pass.
    pub fn detect(rule: F, x: &[f64]) -> Self
    where
        F: SliceRule<JacobianDetect, Output: FlatOutput<JacobianDetect>>,
    {
        let pattern = jacobian_sparsity(&rule, x);
        Self::from_pattern(rule, pattern)
    }

    /// [`with_pattern`](SparseJacobianWorkspace::with_pattern) with `N` colours per pass.
    pub fn from_pattern(rule: F, pattern: SparsityPattern) -> Self {
        SparseJacobianWorkspace {
            rule,
            core: Compressed::new(pattern),
            values: Vec::new(),
        }
    }

    /// Number of colours: the Jacobian costs ⌈colours / N⌉ batched passes.
    pub fn colors(&self) -> usize {
        self.core.coloring.count()
    }

    /// The colouring of the columns.
    pub fn coloring(&self) -> &Coloring {
        &self.core.coloring
    }

    /// The Jacobian's pattern.
    pub fn pattern(&self) -> &SparsityPattern {
        self.core.jac.pattern()
    }

    /// Number of batched passes per Jacobian.
    pub fn passes(&self) -> usize {
        self.colors().div_ceil(N)
    }

    /// The rule.
    pub fn rule(&self) -> &F {
        &self.rule
    }

    /// Whether the pattern detected at `x` lies within the workspace's, so that
    /// [`jacobian`](Self::jacobian) at `x` is exact (the control flow at `x` may differ
    /// from the point of detection's).
    pub fn pattern_holds_at(&self, x: &[f64]) -> bool
    where
        F: SliceRule<JacobianDetect, Output: FlatOutput<JacobianDetect>>,
    {
        let here = jacobian_sparsity(&self.rule, x);
        here.nrows() == self.pattern().nrows()
            && here.iter().all(|(i, j)| self.pattern().contains(i, j))
    }

    /// `(f(x), J(x))`, borrowed from the workspace until the next call. The values equal
    /// those of the dense [`jacobian_with::<N>`](crate::jacobian_with) wherever the
    /// pattern holds.
    ///
    /// # Panics
    /// If `x` has another length than the point of detection, or the rule returns another
    /// number of outputs.
    pub fn jacobian(&mut self, x: &[f64]) -> (&[f64], &CsrMatrix)
    where
        F: SliceRule<Batch<f64, N>, Output: FlatOutput<Batch<f64, N>>>,
    {
        self.core.check_len(x);
        // A rule whose body is one chain writes its coefficients into the pattern's
        // entries directly, in one run (the seeds only give the argument its type).
        if self.core.seeds.len() == x.len() {
            let mut sink = CsrSink {
                values: &mut self.values,
                jac: &mut self.core.jac,
            };
            if self.rule.eval_jacobian(x, &self.core.seeds, &mut sink) {
                return (&self.values, &self.core.jac);
            }
        }
        for g in 0..self.core.groups() {
            self.core.seed(g);
            let y = self.rule.eval(x, &self.core.seeds);
            if g == 0 {
                self.values.clear();
                self.values.extend((0..y.len()).map(|i| y.value(i)));
            }
            self.core.read(g, y.len(), |i| y.tangent(i));
        }
        (&self.values, &self.core.jac)
    }
}

/// The values and the CSR entries a rule's Jacobian entry writes
/// ([`Frule::chain_jacobian`](fwdad_runtime::Frule::chain_jacobian)): a coefficient
/// outside the pattern (where the pattern does not hold) is dropped, as no colour group
/// reads it either.
struct CsrSink<'b> {
    values: &'b mut Vec<f64>,
    jac: &'b mut CsrMatrix,
}

impl fwdad_runtime::JacobianSink for CsrSink<'_> {
    #[inline]
    fn rows(&mut self, m: usize) {
        assert_eq!(
            m,
            self.jac.nrows(),
            "sparse Jacobian: the rule returned {m} values, the pattern has {} rows",
            self.jac.nrows()
        );
        self.values.clear();
        self.values.resize(m, 0.0);
        self.jac.values.fill(0.0);
    }
    #[inline]
    fn value(&mut self, i: usize, v: f64) {
        self.values[i] = v;
    }
    #[inline]
    fn add(&mut self, i: usize, j: usize, d: f64) {
        let p = &self.jac.pattern;
        let (a, b) = (p.offsets[i], p.offsets[i + 1]);
        if let Ok(k) = p.cols[a..b].binary_search(&j) {
            self.jac.values[a + k] += d;
        }
    }
}

/// [`SparseJacobianWorkspace`] for a residual written into a buffer, `f(x, r: &mut [f64])`
/// (a derived function of two arguments, or [`bind`](crate::bind) with [`Wrt`](crate::Wrt)
/// and [`Out`](crate::Out)), keeping the buffer and its tangents between passes as well.
/// Each pass starts from a zeroed buffer, as [`inplace`](crate::inplace) does.
///
/// ```
/// use fwdad::prelude::*;
/// use fwdad::sparse::SparseResidualWorkspace;
///
/// #[derive_frule]
/// fn heat_step(u: &[f64], r: &mut [f64]) {
///     let n = u.len();
///     for i in 1..n - 1 {
///         r[i] = u[i - 1] - 2.0 * u[i] + u[i + 1] - 0.1 * u[i].powi(3);
///     }
///     r[0] = u[0];
///     r[n - 1] = u[n - 1];
/// }
///
/// let u = vec![0.5; 100];
/// let mut ws = SparseResidualWorkspace::new(heat_step {}, 100, &u);
/// assert_eq!(ws.colors(), 3);
/// let (_, j) = ws.jacobian(&u);
/// assert_eq!(j.get(5, 5), -2.0 - 0.3 * 0.25);
/// assert_eq!(j.to_dense(), jacobian(inplace(heat_step {}, 100), &u).1);
/// ```
#[derive(Clone, Debug)]
pub struct SparseResidualWorkspace<F, const N: usize = DEFAULT_WIDTH> {
    rule: F,
    res: ResidualCore<N>,
}

/// What a residual workspace keeps at one width: the compressed Jacobian, the residual
/// buffer and its tangents.
#[derive(Clone, Debug)]
struct ResidualCore<const N: usize> {
    core: Compressed<N>,
    r: Vec<f64>,
    /// Zero between calls: each pass's reading zeroes the rows it has read, so that the
    /// next pass starts from a zeroed buffer without a pass of its own over the memory.
    dr: Vec<Batch<f64, N>>,
    /// Set while a pass may have left `dr` non-zero (a rule that panicked).
    dirty: bool,
}

impl<const N: usize> ResidualCore<N> {
    fn new(core: Compressed<N>) -> Self {
        let m = core.jac.nrows();
        ResidualCore {
            core,
            r: vec![0.0; m],
            dr: vec![Batch::default(); m],
            dirty: false,
        }
    }

    fn jacobian<F: ResidualRule<Batch<f64, N>>>(
        &mut self,
        rule: &F,
        x: &[f64],
    ) -> (&[f64], &CsrMatrix) {
        self.core.check_len(x);
        for g in 0..self.core.groups() {
            self.core.seed(g);
            self.r.fill(0.0);
            if self.dirty {
                self.dr.fill(Batch::default());
            }
            self.dirty = true;
            rule.frule((
                Dual::new(x, &self.core.seeds[..]),
                Dual::new(&mut self.r[..], &mut self.dr[..]),
            ));
            self.core.read_and_zero(g, &mut self.dr);
            self.dirty = false;
        }
        (&self.r, &self.core.jac)
    }
}

/// The bound of a residual rule `f(x, r)` under the mode `S`.
pub trait ResidualRule<S: Mode>:
    for<'a, 'z> Frule<(Dual<&'a [f64], &'a [S]>, Dual<&'z mut [f64], &'z mut [S]>), S>
{
}

impl<S: Mode, F> ResidualRule<S> for F where
    F: for<'a, 'z> Frule<(Dual<&'a [f64], &'a [S]>, Dual<&'z mut [f64], &'z mut [S]>), S>
{
}

/// A residual rule seen as a rule returning its buffer (a fresh one per call), for
/// detection.
struct ResidualOf<'r, F>(&'r F, usize);

impl<'a, S: Mode, F: ResidualRule<S>> Frule<(Dual<&'a [f64], &'a [S]>,), S> for ResidualOf<'_, F> {
    type Output = Dual<Vec<f64>, Vec<S>>;
    fn frule(&self, (x,): (Dual<&'a [f64], &'a [S]>,)) -> Self::Output {
        let mut r = vec![0.0; self.1];
        let mut dr = vec![S::zero(); self.1];
        self.0.frule((x, Dual::new(&mut r[..], &mut dr[..])));
        Dual::new(r, dr)
    }
}

impl<F> SparseResidualWorkspace<F> {
    /// Detects the pattern of the Jacobian of the residual (`m` outputs) at `x` and colours
    /// it; [`DEFAULT_WIDTH`] colours per pass (another width:
    /// `SparseResidualWorkspace::<_, 16>::detect`).
    pub fn new(rule: F, m: usize, x: &[f64]) -> Self
    where
        F: ResidualRule<JacobianDetect>,
    {
        Self::detect(rule, m, x)
    }
}

impl<F, const N: usize> SparseResidualWorkspace<F, N> {
    /// [`new`](SparseResidualWorkspace::new) with `N` colours per pass.
    pub fn detect(rule: F, m: usize, x: &[f64]) -> Self
    where
        F: ResidualRule<JacobianDetect>,
    {
        let pattern = jacobian_sparsity(&ResidualOf(&rule, m), x);
        Self::from_pattern(rule, pattern)
    }

    /// Uses `pattern` (`m × n`; it must hold every nonzero of the Jacobian wherever it is
    /// evaluated) and colours it.
    pub fn from_pattern(rule: F, pattern: SparsityPattern) -> Self {
        SparseResidualWorkspace {
            rule,
            res: ResidualCore::new(Compressed::new(pattern)),
        }
    }

    /// Number of colours: the Jacobian costs ⌈colours / N⌉ batched passes.
    pub fn colors(&self) -> usize {
        self.res.core.coloring.count()
    }

    /// The Jacobian's pattern.
    pub fn pattern(&self) -> &SparsityPattern {
        self.res.core.jac.pattern()
    }

    /// Number of batched passes per Jacobian.
    pub fn passes(&self) -> usize {
        self.colors().div_ceil(N)
    }

    /// `(r(x), J(x))`, borrowed from the workspace until the next call.
    ///
    /// # Panics
    /// If `x` has another length than the point of detection.
    pub fn jacobian(&mut self, x: &[f64]) -> (&[f64], &CsrMatrix)
    where
        F: ResidualRule<Batch<f64, N>>,
    {
        self.res.jacobian(&self.rule, x)
    }
}

/// The widths a [`NarrowResidualWorkspace`] chooses from.
pub const NARROW_WIDTHS: [usize; 8] = [2, 3, 4, 5, 6, 8, 12, 16];

/// The width of [`NARROW_WIDTHS`] a [`NarrowResidualWorkspace`] takes for `colors`
/// colours: the one of least `passes × (width + 4)`, a pass costing about four lanes'
/// worth besides its lanes (the primal, zeroing the buffer, seeding and reading the
/// entries). Up to 16 colours that is the narrowest width that holds them all, except
/// that 9 to 12 colours take 12 lanes and 13 to 16 take 16; for more, the fewest idle
/// lanes in the fewest passes. A heuristic: the narrowest width was measured against
/// 8 lanes on the tridiagonal (3 colours) and 5-point (5 colours) residuals of the sparse
/// benchmarks (BENCHMARKS.md), not every count.
///
/// ```
/// use fwdad::sparse::narrow_width;
///
/// assert_eq!(narrow_width(3), 3); // tridiagonal
/// assert_eq!(narrow_width(5), 5); // 5-point stencil
/// assert_eq!(narrow_width(7), 8);
/// assert_eq!(narrow_width(14), 16);
/// assert_eq!(narrow_width(24), 12); // two passes of 12, not 16 + 8 idle lanes
/// ```
pub const fn narrow_width(colors: usize) -> usize {
    let mut best = NARROW_WIDTHS[0];
    let mut best_cost = usize::MAX;
    let mut k = 0;
    while k < NARROW_WIDTHS.len() {
        let w = NARROW_WIDTHS[k];
        let passes = if colors == 0 { 1 } else { colors.div_ceil(w) };
        let cost = passes * (w + 4);
        if cost < best_cost {
            best_cost = cost;
            best = w;
        }
        k += 1;
    }
    best
}

/// A residual rule a [`NarrowResidualWorkspace`] can run: a [`ResidualRule`] at every
/// width of [`NARROW_WIDTHS`] (each `#[derive_frule] fn f(x: &[f64], r: &mut [f64])` and
/// each [`bind`](crate::bind) with [`Wrt`](crate::Wrt) and [`Out`](crate::Out) is one;
/// nothing to implement).
pub trait NarrowResidualRule:
    ResidualRule<Batch<f64, 2>>
    + ResidualRule<Batch<f64, 3>>
    + ResidualRule<Batch<f64, 4>>
    + ResidualRule<Batch<f64, 5>>
    + ResidualRule<Batch<f64, 6>>
    + ResidualRule<Batch<f64, 8>>
    + ResidualRule<Batch<f64, 12>>
    + ResidualRule<Batch<f64, 16>>
{
}

impl<F> NarrowResidualRule for F where
    F: ResidualRule<Batch<f64, 2>>
        + ResidualRule<Batch<f64, 3>>
        + ResidualRule<Batch<f64, 4>>
        + ResidualRule<Batch<f64, 5>>
        + ResidualRule<Batch<f64, 6>>
        + ResidualRule<Batch<f64, 8>>
        + ResidualRule<Batch<f64, 12>>
        + ResidualRule<Batch<f64, 16>>
{
}

/// The buffers of one width.
#[derive(Clone, Debug)]
enum AnyWidth {
    W2(ResidualCore<2>),
    W3(ResidualCore<3>),
    W4(ResidualCore<4>),
    W5(ResidualCore<5>),
    W6(ResidualCore<6>),
    W8(ResidualCore<8>),
    W12(ResidualCore<12>),
    W16(ResidualCore<16>),
}

/// A [`SparseResidualWorkspace`] that chooses its batch width by itself, once, from the
/// number of colours ([`narrow_width`]): 3 lanes for a tridiagonal residual, 5 for a
/// 5-point stencil, where the default width 8 would carry 5 or 3 lanes of zeros through
/// every operation and through memory. At large `n` the tangents no longer fit in cache
/// and their memory is most of the cost: the narrowest width that holds every colour
/// streams the least.
///
/// The rule is compiled at the eight widths of [`NARROW_WIDTHS`] (the price of the
/// choice at run time; [`SparseResidualWorkspace::<_, N>`](SparseResidualWorkspace)
/// compiles one). The values are those of the fixed-width workspace, bit for bit (the
/// same at every width of two or more lanes).
///
/// ```
/// use fwdad::prelude::*;
/// use fwdad::sparse::NarrowResidualWorkspace;
///
/// #[derive_frule]
/// fn stencil(u: &[f64], r: &mut [f64]) {
///     let n = u.len();
///     for i in 0..n {
///         let left = if i > 0 { u[i - 1] } else { 0.0 };
///         let right = if i + 1 < n { u[i + 1] } else { 0.0 };
///         r[i] = 2.0 * u[i] - left - right + u[i].sin();
///     }
/// }
///
/// let u = vec![0.25; 1000];
/// let mut ws = NarrowResidualWorkspace::new(stencil {}, 1000, &u);
/// assert_eq!((ws.colors(), ws.width()), (3, 3)); // one pass of 3 lanes
/// let (_, j) = ws.jacobian(&u);
/// assert_eq!(j.get(7, 7), 2.0 + 0.25f64.cos());
/// assert_eq!(j.get(7, 8), -1.0);
/// ```
#[derive(Clone, Debug)]
pub struct NarrowResidualWorkspace<F> {
    rule: F,
    res: AnyWidth,
}

impl<F> NarrowResidualWorkspace<F> {
    /// Detects the pattern of the Jacobian of the residual (`m` outputs) at `x`, colours
    /// it and chooses the width.
    pub fn new(rule: F, m: usize, x: &[f64]) -> Self
    where
        F: ResidualRule<JacobianDetect>,
    {
        let pattern = jacobian_sparsity(&ResidualOf(&rule, m), x);
        Self::from_pattern(rule, pattern)
    }

    /// Uses `pattern` (`m × n`; it must hold every nonzero of the Jacobian wherever it is
    /// evaluated), colours it and chooses the width.
    pub fn from_pattern(rule: F, pattern: SparsityPattern) -> Self {
        let coloring = color_columns(&pattern);
        fn at<const N: usize>(p: SparsityPattern, c: Coloring) -> ResidualCore<N> {
            ResidualCore::new(Compressed::with_coloring(p, c))
        }
        let res = match narrow_width(coloring.count()) {
            2 => AnyWidth::W2(at(pattern, coloring)),
            3 => AnyWidth::W3(at(pattern, coloring)),
            4 => AnyWidth::W4(at(pattern, coloring)),
            5 => AnyWidth::W5(at(pattern, coloring)),
            6 => AnyWidth::W6(at(pattern, coloring)),
            8 => AnyWidth::W8(at(pattern, coloring)),
            12 => AnyWidth::W12(at(pattern, coloring)),
            _ => AnyWidth::W16(at(pattern, coloring)),
        };
        NarrowResidualWorkspace { rule, res }
    }

    fn core_parts(&self) -> (&Coloring, &CsrMatrix, usize) {
        match &self.res {
            AnyWidth::W2(c) => (&c.core.coloring, &c.core.jac, 2),
            AnyWidth::W3(c) => (&c.core.coloring, &c.core.jac, 3),
            AnyWidth::W4(c) => (&c.core.coloring, &c.core.jac, 4),
            AnyWidth::W5(c) => (&c.core.coloring, &c.core.jac, 5),
            AnyWidth::W6(c) => (&c.core.coloring, &c.core.jac, 6),
            AnyWidth::W8(c) => (&c.core.coloring, &c.core.jac, 8),
            AnyWidth::W12(c) => (&c.core.coloring, &c.core.jac, 12),
            AnyWidth::W16(c) => (&c.core.coloring, &c.core.jac, 16),
        }
    }

    /// Number of colours.
    pub fn colors(&self) -> usize {
        self.core_parts().0.count()
    }

    /// The width it chose ([`narrow_width`] of the colours).
    pub fn width(&self) -> usize {
        self.core_parts().2
    }

    /// Number of batched passes per Jacobian.
    pub fn passes(&self) -> usize {
        self.colors().div_ceil(self.width()).max(1)
    }

    /// The Jacobian's pattern.
    pub fn pattern(&self) -> &SparsityPattern {
        self.core_parts().1.pattern()
    }

    /// `(r(x), J(x))`, borrowed from the workspace until the next call.
    ///
    /// # Panics
    /// If `x` has another length than the point of detection.
    pub fn jacobian(&mut self, x: &[f64]) -> (&[f64], &CsrMatrix)
    where
        F: NarrowResidualRule,
    {
        let rule = &self.rule;
        match &mut self.res {
            AnyWidth::W2(c) => c.jacobian(rule, x),
            AnyWidth::W3(c) => c.jacobian(rule, x),
            AnyWidth::W4(c) => c.jacobian(rule, x),
            AnyWidth::W5(c) => c.jacobian(rule, x),
            AnyWidth::W6(c) => c.jacobian(rule, x),
            AnyWidth::W8(c) => c.jacobian(rule, x),
            AnyWidth::W12(c) => c.jacobian(rule, x),
            AnyWidth::W16(c) => c.jacobian(rule, x),
        }
    }
}

/// `(f(x), J(x))` with `J` in compressed sparse rows: the pattern detected at `x`, its
/// columns coloured, one batched pass per [`DEFAULT_WIDTH`] colours. For several points,
/// keep a [`SparseJacobianWorkspace`].
///
/// ```
/// use fwdad::prelude::*;
/// use fwdad::sparse::sparse_jacobian;
///
/// #[derive_frule]
/// fn springs(x: &[f64]) -> Vec<f64> {
///     // Tension of each spring of a chain: couples neighbours only.
///     x.windows(2).map(|w| (w[1] - w[0] - 1.0).powi(2)).collect()
/// }
///
/// let x = [0.0, 1.5, 2.0, 4.0];
/// let (t, j) = sparse_jacobian(springs {}, &x);
/// let (t_dense, j_dense) = jacobian(springs {}, &x);
/// assert_eq!(t, t_dense);
/// assert_eq!(j.to_dense(), j_dense);
/// assert_eq!(j.nnz(), 6);
/// ```
pub fn sparse_jacobian<F>(f: F, x: &[f64]) -> (Vec<f64>, CsrMatrix)
where
    F: SliceRule<JacobianDetect, Output: FlatOutput<JacobianDetect>>
        + SliceRule<Batch<f64, DEFAULT_WIDTH>, Output: FlatOutput<Batch<f64, DEFAULT_WIDTH>>>,
{
    let mut ws = SparseJacobianWorkspace::new(f, x);
    ws.jacobian(x);
    (ws.values, ws.core.jac)
}

// ---------------------------------------------------------------------------------------
// Hessians
// ---------------------------------------------------------------------------------------

/// Second-order tangents: `N` rows in `d1`, a colour's direction in `d2`.
type Hyper2<const N: usize> = Hyper<f64, Batch<f64, N>>;

/// A sparse Hessian driver: detects the Hessian's pattern and star-colours it once, then
/// evaluates at new points from the compressed `H·S` (`S` the colours' indicator vectors),
/// reading each entry directly, by symmetry where needed.
///
/// The result is exactly symmetric. An entry read from the row of its smaller index (the
/// orientation in which the dense [`hessian`](crate::hessian) computes it) has the dense
/// Hessian's bits; one the star colouring only lets us read from the other row (a hub
/// whose neighbours share a colour) is `e_jᵀ H e_i` for the dense `e_iᵀ H e_j`, equal to
/// rounding.
///
/// Forward-over-forward yields `N` numbers `e_iᵀ H s` per pass, so `H·S` costs
/// `colours · ⌈n / N⌉` second-order passes, against about `n² / 2N` for the dense
/// [`hessian`](crate::hessian): a saving of `n / 2·colours`, not a cost independent of
/// `n` (that would need reverse mode).
///
/// ```
/// use fwdad::prelude::*;
/// use fwdad::sparse::SparseHessianWorkspace;
///
/// #[derive_frule]
/// fn chain_energy(x: &[f64]) -> f64 {
///     let mut e = 0.0;
///     for i in 0..x.len() - 1 {
///         e += (x[i + 1] - x[i] - 1.0).powi(2) + 0.1 * x[i].powi(4);
///     }
///     e
/// }
///
/// let x: Vec<f64> = (0..40).map(|i| 1.1 * i as f64).collect();
/// let mut ws = SparseHessianWorkspace::new(chain_energy {}, &x);
/// assert_eq!(ws.colors(), 3);
/// let (e, g, h) = ws.hessian(&x);
/// let (e_dense, g_dense, h_dense) = hessian(chain_energy {}, &x);
/// assert_eq!((e, g), (e_dense, &g_dense[..]));
/// assert_eq!(h.to_dense(), h_dense);
/// ```
#[derive(Clone, Debug)]
pub struct SparseHessianWorkspace<F, const N: usize = DEFAULT_WIDTH> {
    rule: F,
    coloring: Coloring,
    /// For each entry: the row and colour of `H·S` holding it.
    recovery: Vec<(usize, usize)>,
    seeds: Vec<Hyper2<N>>,
    grad: Vec<f64>,
    /// `H·S`, row-major, `n × colours`.
    compressed: Vec<f64>,
    hess: CsrMatrix,
}

impl<F> SparseHessianWorkspace<F> {
    /// Detects the pattern of `rule`'s Hessian at `x` ([`hessian_sparsity`]) and
    /// star-colours it ([`star_coloring`]); [`DEFAULT_WIDTH`] rows per pass (another
    /// width: `SparseHessianWorkspace::<_, 16>::detect`).
    pub fn new(rule: F, x: &[f64]) -> Self
    where
        F: SliceRule<HessianDetect, Output = Dual<f64, HessianDetect>>,
    {
        Self::detect(rule, x)
    }

    /// Uses `pattern` (symmetrised; it must hold every nonzero of the Hessian wherever it
    /// is evaluated) and star-colours it.
    pub fn with_pattern(rule: F, pattern: SparsityPattern) -> Self {
        Self::from_pattern(rule, pattern)
    }
}

impl<F, const N: usize> SparseHessianWorkspace<F, N> {
    /// [`new`](SparseHessianWorkspace::new) with `N` rows per pass.
    pub fn detect(rule: F, x: &[f64]) -> Self
    where
        F: SliceRule<HessianDetect, Output = Dual<f64, HessianDetect>>,
    {
        let pattern = hessian_sparsity(&rule, x);
        Self::from_pattern(rule, pattern)
    }

    /// [`with_pattern`](SparseHessianWorkspace::with_pattern) with `N` rows per pass.
    pub fn from_pattern(rule: F, pattern: SparsityPattern) -> Self {
        const { assert!(N >= 1, "a batch needs at least one lane") };
        let pattern = pattern.symmetrized();
        let coloring = star_coloring(&pattern);
        let recovery = star_recovery(&pattern, &coloring)
            .expect("internal error: the star colouring does not allow a direct recovery");
        let n = pattern.nrows();
        let nnz = pattern.nnz();
        SparseHessianWorkspace {
            rule,
            recovery,
            seeds: vec![ScalarTangent::<f64>::zero(); n],
            grad: vec![0.0; n],
            compressed: vec![0.0; n * coloring.count()],
            coloring,
            hess: CsrMatrix::new(pattern, vec![0.0; nnz]),
        }
    }

    /// Number of colours: the Hessian costs `colours · ⌈n / N⌉` second-order passes.
    pub fn colors(&self) -> usize {
        self.coloring.count()
    }

    /// The Hessian's pattern.
    pub fn pattern(&self) -> &SparsityPattern {
        self.hess.pattern()
    }

    /// `(f(x), ∇f(x), ∇²f(x))`, the gradient and the Hessian borrowed from the workspace
    /// until the next call.
    ///
    /// # Panics
    /// If `x` has another length than the point of detection.
    pub fn hessian(&mut self, x: &[f64]) -> (f64, &[f64], &CsrMatrix)
    where
        F: SliceRule<Hyper2<N>, Output = Dual<f64, Hyper2<N>>>,
    {
        let n = self.hess.nrows();
        assert_eq!(
            x.len(),
            n,
            "SparseHessianWorkspace::hessian: x has {} inputs, the pattern {n}",
            x.len()
        );
        let p = self.coloring.count();
        let colors = self.coloring.colors();
        let mut value = f64::NAN;
        if n == 0 {
            return (
                self.rule.eval(x, &self.seeds).primal,
                &self.grad,
                &self.hess,
            );
        }
        // Colour 0 (or, with no colour, a pass without `d2`) also gives the gradient.
        for c in 0..p.max(1) {
            for (s, &cj) in self.seeds.iter_mut().zip(colors) {
                s.d2 = if cj == c { 1.0 } else { 0.0 };
            }
            for r0 in (0..n).step_by(N) {
                let r1 = (r0 + N).min(n);
                for (lane, seed) in self.seeds[r0..r1].iter_mut().enumerate() {
                    seed.d1 = Batch::unit(lane);
                }
                let y = self.rule.eval(x, &self.seeds);
                if c == 0 {
                    value = y.primal;
                    self.grad[r0..r1].copy_from_slice(&y.tangent.d1.0[..r1 - r0]);
                }
                if p > 0 {
                    for r in r0..r1 {
                        self.compressed[r * p + c] = y.tangent.d12.lane(r - r0);
                    }
                }
                for seed in &mut self.seeds[r0..r1] {
                    seed.d1 = Batch::default();
                }
            }
        }
        for (v, &(r, c)) in self.hess.values.iter_mut().zip(&self.recovery) {
            *v = self.compressed[r * p + c];
        }
        (value, &self.grad, &self.hess)
    }
}

/// `(f(x), ∇f(x), ∇²f(x))` of `f: &[f64] → f64` with the Hessian in compressed sparse rows
/// (pattern detected at `x`, star colouring, see [`SparseHessianWorkspace`]).
#[allow(clippy::type_complexity)]
pub fn sparse_hessian<F>(f: F, x: &[f64]) -> (f64, Vec<f64>, CsrMatrix)
where
    F: SliceRule<HessianDetect, Output = Dual<f64, HessianDetect>>
        + SliceRule<Hyper2<DEFAULT_WIDTH>, Output = Dual<f64, Hyper2<DEFAULT_WIDTH>>>,
{
    let mut ws = SparseHessianWorkspace::new(f, x);
    let (v, _, _) = ws.hessian(x);
    (v, ws.grad, ws.hess)
}

// ---------------------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------------------

impl CsrMatrix {
    /// `(nrows, ncols, row_offsets, col_indices, values)`: the compressed-sparse-row arrays
    /// most sparse libraries take.
    pub fn into_parts(self) -> (usize, usize, Vec<usize>, Vec<usize>, Vec<f64>) {
        let SparsityPattern {
            nrows,
            ncols,
            offsets,
            cols,
        } = self.pattern;
        (nrows, ncols, offsets, cols, self.values)
    }
}

/// With the `sprs` feature: a `sprs::CsMat` in CSR storage.
#[cfg(feature = "sprs")]
impl From<CsrMatrix> for sprs::CsMat<f64> {
    fn from(m: CsrMatrix) -> Self {
        let (nrows, ncols, offsets, cols, values) = m.into_parts();
        sprs::CsMat::new((nrows, ncols), offsets, cols, values)
    }
}

/// With the `nalgebra-sparse` feature: a `nalgebra_sparse::CsrMatrix`.
#[cfg(feature = "nalgebra-sparse")]
impl From<CsrMatrix> for nalgebra_sparse::CsrMatrix<f64> {
    fn from(m: CsrMatrix) -> Self {
        let (nrows, ncols, offsets, cols, values) = m.into_parts();
        nalgebra_sparse::CsrMatrix::try_from_csr_data(nrows, ncols, offsets, cols, values)
            .expect("a CsrMatrix's rows are sorted and in range")
    }
}

/// With the `faer` feature: a `faer::sparse::SparseRowMat`.
#[cfg(feature = "faer")]
impl From<CsrMatrix> for faer::sparse::SparseRowMat<usize, f64> {
    fn from(m: CsrMatrix) -> Self {
        let (nrows, ncols, offsets, cols, values) = m.into_parts();
        let symbolic =
            faer::sparse::SymbolicSparseRowMat::new_checked(nrows, ncols, offsets, None, cols);
        faer::sparse::SparseRowMat::new(symbolic, values)
    }
}

#[cfg(all(
    test,
    any(feature = "sprs", feature = "nalgebra-sparse", feature = "faer")
))]
mod conversion_tests {
    use super::*;

    /// [[1, 0, 2], [0, 0, 3]]
    fn sample() -> CsrMatrix {
        let p = SparsityPattern::from_rows(3, &[vec![0, 2], vec![2]]);
        CsrMatrix::new(p, vec![1.0, 2.0, 3.0])
    }

    #[cfg(feature = "sprs")]
    #[test]
    fn into_sprs() {
        let m: sprs::CsMat<f64> = sample().into();
        assert_eq!(m.shape(), (2, 3));
        assert_eq!(m.get(0, 2), Some(&2.0));
        assert_eq!(m.get(1, 2), Some(&3.0));
        assert_eq!(m.get(1, 0), None);
    }

    #[cfg(feature = "nalgebra-sparse")]
    #[test]
    fn into_nalgebra_sparse() {
        let m: nalgebra_sparse::CsrMatrix<f64> = sample().into();
        assert_eq!((m.nrows(), m.ncols(), m.nnz()), (2, 3, 3));
        assert_eq!(m.row(0).col_indices(), [0, 2]);
        assert_eq!(m.row(1).values(), [3.0]);
    }

    #[cfg(feature = "faer")]
    #[test]
    fn into_faer() {
        let m: faer::sparse::SparseRowMat<usize, f64> = sample().into();
        assert_eq!((m.nrows(), m.ncols()), (2, 3));
        assert_eq!(m.col_idx_of_row_raw(0), [0, 2]);
        assert_eq!(m.val_of_row(1), [3.0]);
    }
}
