//! Jacobians of residuals made of small blocks (bundle adjustment, a sum of
//! per-element or per-observation terms): each block is a small function of a few
//! parameters gathered from `x`, differentiated on its own, in cache.

use super::{CsrMatrix, SparsityPattern};
use crate::drivers::{FlatOutput, SliceRule};
use fwdad_runtime::{Batch, JacobianSink, Lanes};

/// One group of blocks of the same kind (same rule, same number of output rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockGroup(usize);

#[derive(Clone, Debug)]
struct Group {
    /// The group's first block (index into the per-block arrays).
    first: usize,
    /// Number of blocks.
    count: usize,
    /// Output rows per block.
    rows: usize,
    /// The first row of the group's first block.
    row0: usize,
}

/// The layout of a residual `r(x) = [g₀(x[I₀]), g₁(x[I₁]), …]` made of blocks: block `k`
/// reads the inputs `I_k` (a few indices into `x`, in the order its function takes them)
/// and writes its own consecutive rows of `r`. Blocks of one kind form a
/// [`group`](BlockLayout::group): the same rule (up to per-block data) and the same
/// number of rows. Turn it into a [`BlockJacobianWorkspace`] to evaluate.
#[derive(Clone, Debug)]
pub struct BlockLayout {
    ncols: usize,
    groups: Vec<Group>,
    /// Per block: where its inputs start in `inputs` (one more entry at the end).
    in_offsets: Vec<usize>,
    inputs: Vec<usize>,
    nrows: usize,
}

impl BlockLayout {
    /// An empty layout over `ncols` inputs.
    pub fn new(ncols: usize) -> Self {
        BlockLayout {
            ncols,
            groups: Vec::new(),
            in_offsets: vec![0],
            inputs: Vec::new(),
            nrows: 0,
        }
    }

    /// Appends a group of `count` blocks of `rows` output rows each, after the rows of the
    /// previous groups (block `b` of the group writes rows `row0 + b·rows ..`, `row0` the
    /// number of rows before the group). Block `b` reads the inputs `inputs(b)`, in the
    /// order its rule takes them.
    ///
    /// # Panics
    /// If a block names an input `>= ncols` or names one twice.
    pub fn group<I>(
        &mut self,
        count: usize,
        rows: usize,
        mut inputs: impl FnMut(usize) -> I,
    ) -> BlockGroup
    where
        I: IntoIterator<Item = usize>,
    {
        let first = self.in_offsets.len() - 1;
        let mut sorted = Vec::new();
        for b in 0..count {
            let start = self.inputs.len();
            self.inputs.extend(inputs(b));
            sorted.clear();
            sorted.extend_from_slice(&self.inputs[start..]);
            sorted.sort_unstable();
            assert!(
                sorted.windows(2).all(|w| w[0] < w[1]),
                "BlockLayout::group: block {b} names an input twice"
            );
            assert!(
                sorted.last().is_none_or(|&j| j < self.ncols),
                "BlockLayout::group: block {b} names an input past {}",
                self.ncols
            );
            self.in_offsets.push(self.inputs.len());
        }
        self.groups.push(Group {
            first,
            count,
            rows,
            row0: self.nrows,
        });
        self.nrows += count * rows;
        BlockGroup(self.groups.len() - 1)
    }

    /// Number of rows of the residual.
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// The workspace that evaluates the blocks with `N` directions per pass (a block of
    /// up to `N` inputs takes one pass).
    pub fn workspace<const N: usize>(self) -> BlockJacobianWorkspace<N> {
        BlockJacobianWorkspace::new(self)
    }
}

/// The Jacobian of a residual made of blocks ([`BlockLayout`]), evaluated block by block:
/// each block's inputs are gathered into a small buffer and its rule runs once with
/// `Batch<f64, N>` tangents seeded with the unit directions of its inputs (more passes
/// only for a block of more than `N` inputs); the block's rows are written straight into
/// the compressed-sparse-row matrix, whose pattern is fixed by the layout.
///
/// Where [`SparseResidualWorkspace`](super::SparseResidualWorkspace) differentiates the
/// whole residual as one function (detection and colouring find the same structure, but
/// every pass streams the tangents of all of `x` and all of `r` through memory), this
/// keeps one block's tangents in registers or L1: for bundle adjustment, 15 inputs and
/// 2 rows per observation. The price is that you state the structure: which inputs each
/// block reads, what its rule is.
///
/// Every entry of a block's rows is stored, zeros included (a reprojection row of bundle
/// adjustment stores all 15 columns as ADBench does, though one of them is always zero);
/// the values are those of the dense [`jacobian_with::<N>`](crate::jacobian_with) of the
/// block's rule, bit for bit.
///
/// ```
/// use fwdad::prelude::*;
/// use fwdad::sparse::BlockLayout;
///
/// /// A spring between two points of the plane, `p = [xa, ya, xb, yb]`: its elongation.
/// #[derive_frule]
/// fn elongation(p: &[f64], rest: f64) -> f64 {
///     ((p[2] - p[0]).powi(2) + (p[3] - p[1]).powi(2)).sqrt() - rest
/// }
///
/// /// An anchor pulling a point towards the origin.
/// #[derive_frule]
/// fn anchor(p: &[f64]) -> [f64; 2] {
///     [0.1 * p[0], 0.1 * p[1]]
/// }
///
/// // Four points (x = [x0, y0, x1, y1, ..]), springs 0-1, 1-2, 2-3, an anchor on point 0.
/// let springs = [(0, 1, 1.0), (1, 2, 1.5), (2, 3, 1.0)];
/// let mut layout = BlockLayout::new(8);
/// let spring_rows = layout.group(3, 1, |s| {
///     let (a, b, _) = springs[s];
///     [2 * a, 2 * a + 1, 2 * b, 2 * b + 1]
/// });
/// let anchor_rows = layout.group(1, 2, |_| [0, 1]);
/// let mut ws = layout.workspace::<4>();
///
/// let x = [0.0, 0.0, 1.2, 0.1, 2.5, 0.0, 3.0, 0.9];
/// ws.eval(spring_rows, &x, |s| bind(elongation {}, (Wrt, springs[s].2)));
/// ws.eval(anchor_rows, &x, |_| anchor {});
/// let (r, j) = (ws.values(), ws.jacobian());
/// assert_eq!(r.len(), 5);
/// assert_eq!(j.nnz(), 3 * 4 + 2 * 2);
/// // ∂(elongation of spring 0)/∂x1 = (x1 - x0) / length.
/// let len0 = (1.2f64.powi(2) + 0.1f64.powi(2)).sqrt();
/// assert!((j.get(0, 2) - 1.2 / len0).abs() < 1e-15);
/// assert_eq!(j.get(4, 1), 0.1);
/// assert_eq!(j.get(0, 4), 0.0); // spring 0 does not touch point 2
/// ```
#[derive(Clone, Debug)]
pub struct BlockJacobianWorkspace<const N: usize = 16> {
    layout: BlockLayout,
    /// Per block input (layout order): its entry's position within its block's row.
    slot: Vec<u32>,
    values: Vec<f64>,
    jac: CsrMatrix,
    /// The unit seeds `e_0 .. e_{N-1}`, for blocks of up to `N` inputs.
    units: Vec<Batch<f64, N>>,
    /// Gathered inputs and, for blocks of more than `N` inputs, their seeds.
    xbuf: Vec<f64>,
    seeds: Vec<Batch<f64, N>>,
}

impl<const N: usize> BlockJacobianWorkspace<N> {
    /// The workspace of `layout` (see [`BlockLayout::workspace`]).
    pub fn new(layout: BlockLayout) -> Self {
        const { assert!(N >= 1, "a batch needs at least one lane") };
        let mut rows: Vec<Vec<usize>> = Vec::with_capacity(layout.nrows);
        let mut slot = vec![0u32; layout.inputs.len()];
        let mut widest = 0;
        for g in &layout.groups {
            for b in g.first..g.first + g.count {
                let ins = &layout.inputs[layout.in_offsets[b]..layout.in_offsets[b + 1]];
                widest = widest.max(ins.len());
                let mut sorted = ins.to_vec();
                sorted.sort_unstable();
                for (k, j) in ins.iter().enumerate() {
                    slot[layout.in_offsets[b] + k] = sorted.binary_search(j).unwrap_or(0) as u32;
                }
                for _ in 0..g.rows {
                    rows.push(sorted.clone());
                }
            }
        }
        let pattern = SparsityPattern::from_rows(layout.ncols, &rows);
        let nnz = pattern.nnz();
        BlockJacobianWorkspace {
            slot,
            values: vec![0.0; layout.nrows],
            jac: CsrMatrix::new(pattern, vec![0.0; nnz]),
            units: (0..N).map(Batch::unit).collect(),
            xbuf: vec![0.0; widest],
            seeds: vec![Batch::default(); widest],
            layout,
        }
    }

    /// Evaluates the blocks of `group` at `x`: block `b`'s rule is `rule(b)` (a rule of
    /// one `&[f64]`, its inputs in the order the layout gave them, returning its rows:
    /// `f64`, `[f64; M]`, ...; [`bind`](crate::bind) fixes per-block data). Writes the
    /// blocks' residual values and Jacobian rows; evaluate every group before reading
    /// [`values`](Self::values) and [`jacobian`](Self::jacobian).
    ///
    /// # Panics
    /// If `x` has another length than the layout's inputs, or a block's rule returns
    /// another number of rows than its group's.
    pub fn eval<R>(&mut self, group: BlockGroup, x: &[f64], mut rule: impl FnMut(usize) -> R)
    where
        R: SliceRule<Batch<f64, N>, Output: FlatOutput<Batch<f64, N>>>,
    {
        assert_eq!(
            x.len(),
            self.layout.ncols,
            "BlockJacobianWorkspace::eval: x has {} inputs, the layout {}",
            x.len(),
            self.layout.ncols
        );
        let g = self.layout.groups[group.0].clone();
        let offsets = &self.jac.pattern.offsets;
        for b in 0..g.count {
            let blk = g.first + b;
            let (i0, i1) = (self.layout.in_offsets[blk], self.layout.in_offsets[blk + 1]);
            let ni = i1 - i0;
            let xb = &mut self.xbuf[..ni];
            for (v, &j) in xb.iter_mut().zip(&self.layout.inputs[i0..i1]) {
                *v = x[j];
            }
            let slots = &self.slot[i0..i1];
            let row0 = g.row0 + b * g.rows;
            let r = rule(b);
            // A rule whose body is one chain writes its coefficients straight into the
            // block's rows (the seeds only give the argument its type).
            let mut sink = BlockSink {
                values: &mut self.values,
                jac: &mut self.jac.values,
                offsets,
                slots,
                row0,
                rows: g.rows,
                block: b,
            };
            let seeds = if ni <= N {
                &self.units[..ni]
            } else {
                &self.seeds[..ni]
            };
            if r.eval_jacobian(xb, seeds, &mut sink) {
                continue;
            }
            if ni <= N {
                let y = r.eval(xb, &self.units[..ni]);
                assert_eq!(
                    y.len(),
                    g.rows,
                    "BlockJacobianWorkspace::eval: block {b} returned {} rows, its group has {}",
                    y.len(),
                    g.rows
                );
                for i in 0..g.rows {
                    self.values[row0 + i] = y.value(i);
                    let t = y.tangent(i);
                    let vals = &mut self.jac.values[offsets[row0 + i]..offsets[row0 + i + 1]];
                    for (k, &s) in slots.iter().enumerate() {
                        vals[s as usize] = t.lane(k);
                    }
                }
            } else {
                let seeds = &mut self.seeds[..ni];
                for c0 in (0..ni).step_by(N) {
                    let c1 = (c0 + N).min(ni);
                    for (lane, s) in seeds[c0..c1].iter_mut().enumerate() {
                        *s = Batch::unit(lane);
                    }
                    let y = r.eval(xb, seeds);
                    assert_eq!(
                        y.len(),
                        g.rows,
                        "BlockJacobianWorkspace::eval: block {b} returned {} rows, its group has {}",
                        y.len(),
                        g.rows
                    );
                    for i in 0..g.rows {
                        self.values[row0 + i] = y.value(i);
                        let t = y.tangent(i);
                        let vals = &mut self.jac.values[offsets[row0 + i]..offsets[row0 + i + 1]];
                        for k in c0..c1 {
                            vals[slots[k] as usize] = t.lane(k - c0);
                        }
                    }
                    seeds[c0..c1].fill(Batch::default());
                }
            }
        }
    }

    /// The residual's values from the last evaluations.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The Jacobian from the last evaluations.
    pub fn jacobian(&self) -> &CsrMatrix {
        &self.jac
    }

    /// The Jacobian's pattern (every entry of every block's rows).
    pub fn pattern(&self) -> &SparsityPattern {
        self.jac.pattern()
    }
}

/// Where a block's rule writes its Jacobian entry ([`fwdad_runtime::Frule::chain_jacobian`]):
/// its values and rows, column `j` being the block's input `j`.
struct BlockSink<'b> {
    values: &'b mut [f64],
    jac: &'b mut [f64],
    offsets: &'b [usize],
    slots: &'b [u32],
    row0: usize,
    rows: usize,
    block: usize,
}

impl JacobianSink for BlockSink<'_> {
    #[inline]
    fn rows(&mut self, m: usize) {
        assert_eq!(
            m, self.rows,
            "BlockJacobianWorkspace::eval: block {} returned {} rows, its group has {}",
            self.block, m, self.rows
        );
        let (r0, r1) = (self.row0, self.row0 + m);
        self.jac[self.offsets[r0]..self.offsets[r1]].fill(0.0);
    }
    #[inline(always)]
    fn value(&mut self, i: usize, v: f64) {
        self.values[self.row0 + i] = v;
    }
    #[inline(always)]
    fn add(&mut self, i: usize, j: usize, d: f64) {
        self.jac[self.offsets[self.row0 + i] + self.slots[j] as usize] += d;
    }
}
