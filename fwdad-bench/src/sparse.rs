//! Kernels of the sparse-Jacobian benchmarks (`src/bin/sparse_report.rs`): whole residual
//! vectors written as a user would, for `fwdad::sparse::SparseJacobianWorkspace` to detect,
//! colour and evaluate.
//!
//! * [`bratu_residual`]: 1-D Bratu, `-u'' - λ eᵘ`, central differences (tridiagonal).
//! * [`laplacian_residual`]: 2-D `-Δu + u³ - 1`, 5-point stencil.
//! * [`ba_objective_packed`]: ADBench bundle adjustment's whole objective (reprojection and
//!   weight errors) as a function of all parameters `[cameras, points, weights]`.
//! * [`BaBlocks`]: the same Jacobian block by block (`fwdad::sparse::BlockLayout`), from
//!   the per-observation residual and the observations' camera and point indices.
//! * [`hand_objective_packed`]: ADBench hand tracking's residuals as a function of
//!   `[θ, u]` (`u` empty when simple).

// ADBench's hand objective takes its model data as ten arguments, as `hand.rs` does.
#![allow(clippy::too_many_arguments)]

use crate::ba::{ba_residual, ba_residual_packed, Instance as BaInstance, NCAM};
use crate::hand::{hand_objective, Instance as HandInstance, NTHETA};
use fwdad::prelude::*;
use fwdad::sparse::{BlockGroup, BlockJacobianWorkspace, BlockLayout, CsrMatrix};
use fwdad::Mode;

/// Bratu's problem `-u'' = λ eᵘ` on (0, 1), `u = 0` at both ends: the residual at the `n`
/// interior nodes.
#[derive_frule]
pub fn bratu_residual(u: &[f64], lambda: f64, r: &mut [f64]) {
    let n = u.len();
    let h = 1.0 / (n + 1) as f64;
    let inv_h2 = 1.0 / (h * h);
    for i in 0..n {
        let left = if i > 0 { u[i - 1] } else { 0.0 };
        let right = if i + 1 < n { u[i + 1] } else { 0.0 };
        r[i] = (2.0 * u[i] - left - right) * inv_h2 - lambda * u[i].exp();
    }
}

/// `-Δu + u³ = 1` on the unit square: the residual at the `m × m` interior nodes, `u = 0`
/// on the boundary.
#[derive_frule]
pub fn laplacian_residual(u: &[f64], m: usize, r: &mut [f64]) {
    let h = 1.0 / (m + 1) as f64;
    let inv_h2 = 1.0 / (h * h);
    for i in 0..m {
        for j in 0..m {
            let k = i * m + j;
            let north = if i > 0 { u[k - m] } else { 0.0 };
            let south = if i + 1 < m { u[k + m] } else { 0.0 };
            let west = if j > 0 { u[k - 1] } else { 0.0 };
            let east = if j + 1 < m { u[k + 1] } else { 0.0 };
            let lap = (north + south + west + east - 4.0 * u[k]) * inv_h2;
            r[k] = -lap + u[k] * u[k] * u[k] - 1.0;
        }
    }
}

/// Bundle adjustment's objective over all parameters `x = [cameras (11 n), points (3 m),
/// weights (p)]`: `2p` reprojection errors, then `p` weight errors `1 - w²`, into `out`.
/// Observation `i` uses camera `cam_of[i]` and point `pt_of[i]`, feature `feats[2i..]`.
#[derive_frule(inactive(feats))]
pub fn ba_objective_packed(
    x: &[f64],
    ncams: usize,
    npoints: usize,
    cam_of: &[usize],
    pt_of: &[usize],
    feats: &[f64],
    out: &mut [f64],
) {
    let p = cam_of.len();
    let pts = NCAM * ncams;
    let ws = pts + 3 * npoints;
    for i in 0..p {
        let c = cam_of[i];
        let q = pt_of[i];
        let e = ba_residual(
            &x[NCAM * c..NCAM * c + NCAM],
            &x[pts + 3 * q..pts + 3 * q + 3],
            x[ws + i],
            feats[2 * i],
            feats[2 * i + 1],
        );
        out[2 * i] = e[0];
        out[2 * i + 1] = e[1];
    }
    for i in 0..p {
        let w = x[ws + i];
        out[2 * p + i] = 1.0 - w * w;
    }
}

/// The parameters of [`ba_objective_packed`] and its integer data, from an instance.
pub struct BaPacked {
    /// `[cameras, points, weights]`.
    pub x: Vec<f64>,
    /// Camera of each observation.
    pub cam_of: Vec<usize>,
    /// Point of each observation.
    pub pt_of: Vec<usize>,
}

impl BaPacked {
    /// Packs `inst`.
    pub fn new(inst: &BaInstance) -> Self {
        let mut x = inst.cams.clone();
        x.extend_from_slice(&inst.points);
        x.extend_from_slice(&inst.weights);
        BaPacked {
            x,
            cam_of: inst.obs.iter().map(|o| o.0).collect(),
            pt_of: inst.obs.iter().map(|o| o.1).collect(),
        }
    }
}

/// A weight's error `1 - w²` as a block of one input.
#[derive_frule]
pub fn weight_residual(w: &[f64]) -> f64 {
    1.0 - w[0] * w[0]
}

/// Bundle adjustment's Jacobian block by block: one block per observation (its camera's
/// 11 parameters, its point's 3 and its weight, into [`ba_residual_packed`], two rows),
/// then one block per weight ([`weight_residual`], one row), in ADBench's row order.
/// The parameters are [`BaPacked::x`].
pub struct BaBlocks<const N: usize> {
    /// The workspace.
    pub ws: BlockJacobianWorkspace<N>,
    reprojection: BlockGroup,
    weights: BlockGroup,
}

impl<const N: usize> BaBlocks<N> {
    /// The layout of `inst`'s Jacobian.
    pub fn new(inst: &BaInstance) -> Self {
        let (cams, pts) = (NCAM * inst.n, NCAM * inst.n + 3 * inst.m);
        let mut layout = BlockLayout::new(pts + inst.p);
        let reprojection = layout.group(inst.p, 2, |i| {
            let (c, q) = inst.obs[i];
            (NCAM * c..NCAM * c + NCAM)
                .chain(cams + 3 * q..cams + 3 * q + 3)
                .chain([pts + i])
        });
        let weights = layout.group(inst.p, 1, |i| [pts + i]);
        BaBlocks {
            ws: layout.workspace(),
            reprojection,
            weights,
        }
    }

    /// `(objective, Jacobian)` at `x`.
    pub fn jacobian(&mut self, inst: &BaInstance, x: &[f64]) -> (&[f64], &CsrMatrix) {
        self.ws.eval(self.reprojection, x, |i| {
            bind(
                ba_residual_packed {},
                (Wrt, inst.feats[2 * i], inst.feats[2 * i + 1]),
            )
        });
        self.ws.eval(self.weights, x, |_| weight_residual {});
        (self.ws.values(), self.ws.jacobian())
    }
}

/// Hand tracking's residuals as a function of `p = [θ (26), u (2N, complicated only)]`.
#[derive_frule(inactive(base_rel, inv_base_abs, base_pos, weights, points))]
pub fn hand_objective_packed(
    p: &[f64],
    parents: &[i64],
    base_rel: &[f64],
    inv_base_abs: &[f64],
    base_pos: &[f64],
    weights: &[f64],
    corr: &[usize],
    tri: &[usize],
    points: &[f64],
    err: &mut [f64],
) {
    hand_objective(
        &p[..NTHETA],
        &p[NTHETA..],
        parents,
        base_rel,
        inv_base_abs,
        base_pos,
        weights,
        corr,
        tri,
        points,
        err,
    );
}

/// `[θ, u]` of a hand instance.
pub fn hand_packed_point(inst: &HandInstance) -> Vec<f64> {
    let mut p = inst.theta.clone();
    p.extend_from_slice(&inst.us);
    p
}

/// The rule of `p ↦ residuals` of a hand instance (`p = [θ, u]`), for the sparse and
/// dense Jacobian drivers: [`hand_objective_packed`] with the instance's data bound
/// (`bind` takes up to six arguments; this one has ten).
#[derive(Clone, Copy)]
pub struct HandRule<'a>(pub &'a HandInstance);

impl<'a, 'x, S: Mode> Frule<(Dual<&'x [f64], &'x [S]>,), S> for HandRule<'a> {
    type Output = Dual<Vec<f64>, Vec<S>>;
    fn frule(&self, (p,): (Dual<&'x [f64], &'x [S]>,)) -> Self::Output {
        let mut err = vec![0.0; self.0.nerr()];
        let mut derr = vec![S::zero(); self.0.nerr()];
        self.frule((p, Dual::new(&mut err[..], &mut derr[..])));
        Dual::new(err, derr)
    }
}

/// The residuals written into a buffer (for `SparseResidualWorkspace`).
impl<'a, 'x, 'z, S: Mode> Frule<(Dual<&'x [f64], &'x [S]>, Dual<&'z mut [f64], &'z mut [S]>), S>
    for HandRule<'a>
{
    type Output = ();
    fn frule(&self, (p, err): (Dual<&'x [f64], &'x [S]>, Dual<&'z mut [f64], &'z mut [S]>)) {
        let inst = self.0;
        <hand_objective_packed as Frule<_, S>>::frule(
            &hand_objective_packed {},
            (
                p,
                Dual::new(&inst.parents[..], &[NoTangent; 0][..]),
                &inst.base_rel[..],
                &inst.inv_base_abs[..],
                &inst.base_pos[..],
                &inst.weights[..],
                Dual::new(&inst.corr[..], &[NoTangent; 0][..]),
                Dual::new(&inst.tri[..], &[NoTangent; 0][..]),
                &inst.points[..],
                err,
            ),
        );
    }
}

/// The rule of `x ↦ objective` of a packed BA instance (see [`HandRule`]).
#[derive(Clone, Copy)]
pub struct BaRule<'a>(pub &'a BaInstance, pub &'a BaPacked);

impl<'a, 'x, S: Mode> Frule<(Dual<&'x [f64], &'x [S]>,), S> for BaRule<'a> {
    type Output = Dual<Vec<f64>, Vec<S>>;
    fn frule(&self, (x,): (Dual<&'x [f64], &'x [S]>,)) -> Self::Output {
        let mut out = vec![0.0; 3 * self.0.p];
        let mut dout = vec![S::zero(); 3 * self.0.p];
        self.frule((x, Dual::new(&mut out[..], &mut dout[..])));
        Dual::new(out, dout)
    }
}

/// The objective written into a buffer (for `SparseResidualWorkspace`).
impl<'a, 'x, 'z, S: Mode> Frule<(Dual<&'x [f64], &'x [S]>, Dual<&'z mut [f64], &'z mut [S]>), S>
    for BaRule<'a>
{
    type Output = ();
    fn frule(&self, (x, out): (Dual<&'x [f64], &'x [S]>, Dual<&'z mut [f64], &'z mut [S]>)) {
        let (inst, packed) = (self.0, self.1);
        <ba_objective_packed as Frule<_, S>>::frule(
            &ba_objective_packed {},
            (
                x,
                Dual::new(inst.n, NoTangent),
                Dual::new(inst.m, NoTangent),
                Dual::new(&packed.cam_of[..], &[NoTangent; 0][..]),
                Dual::new(&packed.pt_of[..], &[NoTangent; 0][..]),
                &inst.feats[..],
                out,
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ba, check, hand};
    use fwdad::sparse::SparseJacobianWorkspace;

    #[test]
    fn ba_sparse_jacobian_matches_the_hand_derived_blocks() {
        let inst = ba::Instance::generate(6, 40, 120, 3);
        let packed = BaPacked::new(&inst);
        let mut ws = SparseJacobianWorkspace::<_, 16>::detect(BaRule(&inst, &packed), &packed.x);
        // Camera (11), point (3) and weight columns never share a row with another
        // camera's, point's or weight's; an x-residual does not depend on v0 nor a
        // y-residual on u0, so those two share a colour: 14 colours, one pass of 16 lanes.
        assert_eq!(ws.colors(), 14);
        assert_eq!(ws.passes(), 1);
        let (y, j) = ws.jacobian(&packed.x);
        let mut want_y = vec![0.0; 3 * inst.p];
        ba::objective(&inst, &mut want_y);
        assert_eq!(y, &want_y[..]);
        // ADBench's CSR stores 15 entries per reprojection row, the detected pattern the
        // 14 nonzeros: read ours at ADBench's positions (0 outside our pattern).
        let mut want = ba::Csr::default();
        ba::jacobian_with(&inst, &mut want, ba::block_hand);
        let mut got = Vec::with_capacity(want.vals.len());
        for i in 0..want.nrows {
            for &c in &want.cols[want.rows[i]..want.rows[i + 1]] {
                got.push(j.get(i, c));
            }
        }
        check::assert_close("BA sparse driver", &got, &want.vals);
        assert_eq!(j.nnz(), 2 * 14 * inst.p + inst.p);
    }

    #[test]
    fn ba_block_jacobian_is_adbench_hand_derived_one() {
        let inst = ba::Instance::generate(6, 40, 120, 5);
        let packed = BaPacked::new(&inst);
        let mut want_y = vec![0.0; 3 * inst.p];
        ba::objective(&inst, &mut want_y);
        let mut want = ba::Csr::default();
        ba::jacobian_with(&inst, &mut want, ba::block_hand);
        let mut blocks = BaBlocks::<16>::new(&inst);
        let (y, j) = blocks.jacobian(&inst, &packed.x);
        assert_eq!(y, &want_y[..]);
        // The layout stores ADBench's 15 columns per reprojection row, in its order.
        assert_eq!(j.pattern().row_offsets(), &want.rows[..]);
        assert_eq!(j.pattern().col_indices(), &want.cols[..]);
        check::assert_close("BA block Jacobian", j.values(), &want.vals);
        // And the same bits as the per-observation rule through the dense driver
        // (`jacobian_with::<15>` on the packed block), at a narrower width too.
        let mut by_driver = ba::Csr::default();
        ba::jacobian_with(&inst, &mut by_driver, ba::block_driver);
        assert_eq!(j.values(), &by_driver.vals[..]);
        let mut narrow = BaBlocks::<4>::new(&inst);
        assert_eq!(
            narrow.jacobian(&inst, &packed.x).1.values(),
            &by_driver.vals[..]
        );
    }

    fn hand_case(complicated: bool) {
        let inst = hand::Instance::generate(60, 30, complicated, 9);
        let p = hand_packed_point(&inst);
        let rule = HandRule(&inst);
        let mut ws = SparseJacobianWorkspace::<_, 32>::detect(rule, &p);
        let (err, j) = ws.jacobian(&p);
        let mut want_err = vec![0.0; inst.nerr()];
        let mut jh = vec![0.0; inst.nerr() * if complicated { 28 } else { 26 }];
        hand::jacobian_hand(&inst, &mut want_err, &mut jh);
        assert_eq!(err, &want_err[..]);
        // The hand-derived Jacobian is column-major, the `u` columns (complicated)
        // compressed into its first two columns: point i's u's only touch its rows.
        let rows = inst.nerr();
        let off = if complicated { 2 } else { 0 };
        let mut got = vec![0.0; jh.len()];
        for (r, c, v) in j.triplets() {
            let col = if c < NTHETA {
                off + c
            } else {
                (c - NTHETA) % 2
            };
            got[col * rows + r] = v;
        }
        check::assert_close("hand sparse driver", &got, &jh);
        // And bit for bit the dense driver's.
        let (_, dense) = fwdad::jacobian(rule, &p);
        assert_eq!(j.to_dense(), dense);
    }

    #[test]
    fn hand_simple_sparse_jacobian_matches_the_hand_derived_one() {
        hand_case(false);
    }

    #[test]
    fn hand_complicated_sparse_jacobian_matches_the_hand_derived_one() {
        hand_case(true);
    }

    #[test]
    fn bratu_and_laplacian_take_three_and_five_colours() {
        let n = 2000;
        let u = vec![0.1; n];
        let rule = fwdad::inplace(
            fwdad::bind(bratu_residual {}, (fwdad::Wrt, 1.0, fwdad::Out)),
            n,
        );
        let mut ws = SparseJacobianWorkspace::new(rule.clone(), &u);
        assert_eq!(ws.colors(), 3);
        let (_, j) = ws.jacobian(&u);
        assert_eq!(j.nnz(), 3 * n - 2);
        let m = 30;
        let v: Vec<f64> = (0..m * m).map(|k| (k as f64).sin()).collect();
        let rule = fwdad::inplace(
            fwdad::bind(laplacian_residual {}, (fwdad::Wrt, m, fwdad::Out)),
            m * m,
        );
        let mut ws = SparseJacobianWorkspace::new(rule.clone(), &v);
        assert_eq!(ws.colors(), 5);
        let (_, j) = ws.jacobian(&v);
        assert_eq!(j.to_dense(), fwdad::jacobian(rule, &v).1);
    }
}
