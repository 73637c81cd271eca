//! ADBench bundle adjustment: the reprojection error of one observation, its dense 2×15
//! Jacobian block (11 camera parameters, 3 point coordinates, 1 weight) in one pass of
//! width 15, and the sparse Jacobian of a whole instance assembled in ADBench's CSR layout.
//!
//! Camera = `[r (3, angle-axis), C (3, centre), f, u0, v0, k1, k2]`. Per observation
//! `Xo = X - C`, `Xcam = R(r) Xo` (Rodrigues), `p = Xcam[0..2] / Xcam[2]`,
//! `L = 1 + k1 |p|² + k2 |p|⁴`, `proj = f L p + (u0, v0)`, error `w (proj - feature)`;
//! and one weight error `1 - w²` per observation.

use fwdad::prelude::*;
use fwdad::ScalarTangent;
use num_dual::{DualNum, DualSVec64};

/// Parameters per camera.
pub const NCAM: usize = 11;
/// Width of a Jacobian block: 11 camera + 3 point + 1 weight.
pub const NBLOCK: usize = 15;

/// The reprojection error of one observation: camera `cam` (11), point `x` (3), weight
/// `w`, feature `(fx, fy)`.
#[derive_frule]
pub fn ba_residual(cam: &[f64], x: &[f64], w: f64, fx: f64, fy: f64) -> [f64; 2] {
    let r0 = cam[0];
    let r1 = cam[1];
    let r2 = cam[2];
    let xo0 = x[0] - cam[3];
    let xo1 = x[1] - cam[4];
    let xo2 = x[2] - cam[5];
    let sqtheta = r0 * r0 + r1 * r1 + r2 * r2;
    let (xc0, xc1, xc2) = if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let st = theta.sin();
        let ct = theta.cos();
        let w0 = r0 / theta;
        let w1 = r1 / theta;
        let w2 = r2 / theta;
        let wx0 = w1 * xo2 - w2 * xo1;
        let wx1 = w2 * xo0 - w0 * xo2;
        let wx2 = w0 * xo1 - w1 * xo0;
        let tmp = (w0 * xo0 + w1 * xo1 + w2 * xo2) * (1.0 - ct);
        (
            xo0 * ct + wx0 * st + w0 * tmp,
            xo1 * ct + wx1 * st + w1 * tmp,
            xo2 * ct + wx2 * st + w2 * tmp,
        )
    } else {
        (
            xo0 + (r1 * xo2 - r2 * xo1),
            xo1 + (r2 * xo0 - r0 * xo2),
            xo2 + (r0 * xo1 - r1 * xo0),
        )
    };
    let px = xc0 / xc2;
    let py = xc1 / xc2;
    let rsq = px * px + py * py;
    let l = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    let projx = px * l * cam[6] + cam[7];
    let projy = py * l * cam[6] + cam[8];
    [w * (projx - fx), w * (projy - fy)]
}

/// [`ba_residual`], its rule always inlined (`#[inline(always)]` holds for the rule): the
/// rule compiled inside a caller built for wider vectors (issue 30, runtime dispatch).
#[derive_frule]
#[inline(always)]
pub fn ba_residual_inline(cam: &[f64], x: &[f64], w: f64, fx: f64, fy: f64) -> [f64; 2] {
    let r0 = cam[0];
    let r1 = cam[1];
    let r2 = cam[2];
    let xo0 = x[0] - cam[3];
    let xo1 = x[1] - cam[4];
    let xo2 = x[2] - cam[5];
    let sqtheta = r0 * r0 + r1 * r1 + r2 * r2;
    let (xc0, xc1, xc2) = if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let st = theta.sin();
        let ct = theta.cos();
        let w0 = r0 / theta;
        let w1 = r1 / theta;
        let w2 = r2 / theta;
        let wx0 = w1 * xo2 - w2 * xo1;
        let wx1 = w2 * xo0 - w0 * xo2;
        let wx2 = w0 * xo1 - w1 * xo0;
        let tmp = (w0 * xo0 + w1 * xo1 + w2 * xo2) * (1.0 - ct);
        (
            xo0 * ct + wx0 * st + w0 * tmp,
            xo1 * ct + wx1 * st + w1 * tmp,
            xo2 * ct + wx2 * st + w2 * tmp,
        )
    } else {
        (
            xo0 + (r1 * xo2 - r2 * xo1),
            xo1 + (r2 * xo0 - r0 * xo2),
            xo2 + (r0 * xo1 - r1 * xo0),
        )
    };
    let px = xc0 / xc2;
    let py = xc1 / xc2;
    let rsq = px * px + py * py;
    let l = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    let projx = px * l * cam[6] + cam[7];
    let projy = py * l * cam[6] + cam[8];
    [w * (projx - fx), w * (projy - fy)]
}

/// [`ba_residual`] of the 15 block parameters in one slice `[cam, x, w]`, for the
/// `jacobian` driver.
#[derive_frule]
pub fn ba_residual_packed(p: &[f64], fx: f64, fy: f64) -> [f64; 2] {
    ba_residual(&p[0..11], &p[11..14], p[14], fx, fy)
}

/// The weight error `1 - w²`.
#[inline]
pub fn weight_error(w: f64) -> f64 {
    1.0 - w * w
}

/// Generic for num-dual (the feature is plain data).
pub fn ba_residual_nd<D: DualNum<Primitive = f64> + Copy>(
    cam: &[D],
    x: &[D],
    w: D,
    fx: f64,
    fy: f64,
) -> [D; 2] {
    let (r0, r1, r2) = (cam[0], cam[1], cam[2]);
    let xo0 = x[0] - cam[3];
    let xo1 = x[1] - cam[4];
    let xo2 = x[2] - cam[5];
    let sqtheta = r0 * r0 + r1 * r1 + r2 * r2;
    let (xc0, xc1, xc2);
    if sqtheta.re() != 0.0 {
        let theta = sqtheta.sqrt();
        let (st, ct) = theta.sin_cos();
        let (w0, w1, w2) = (r0 / theta, r1 / theta, r2 / theta);
        let wx0 = w1 * xo2 - w2 * xo1;
        let wx1 = w2 * xo0 - w0 * xo2;
        let wx2 = w0 * xo1 - w1 * xo0;
        let tmp = (w0 * xo0 + w1 * xo1 + w2 * xo2) * (-ct + 1.0);
        xc0 = xo0 * ct + wx0 * st + w0 * tmp;
        xc1 = xo1 * ct + wx1 * st + w1 * tmp;
        xc2 = xo2 * ct + wx2 * st + w2 * tmp;
    } else {
        xc0 = xo0 + (r1 * xo2 - r2 * xo1);
        xc1 = xo1 + (r2 * xo0 - r0 * xo2);
        xc2 = xo2 + (r0 * xo1 - r1 * xo0);
    }
    let px = xc0 / xc2;
    let py = xc1 / xc2;
    let rsq = px * px + py * py;
    let l = cam[9] * rsq + cam[10] * rsq * rsq + 1.0;
    let projx = px * l * cam[6] + cam[7];
    let projy = py * l * cam[6] + cam[8];
    [w * (projx - fx), w * (projy - fy)]
}

/// The hand-derived residual and 2×15 Jacobian block (row-major), from the math:
/// `∂(R u)/∂r = -R [u]× (r rᵀ + (Rᵀ - I)[r]×) / |r|²` (Gallego and Yezzi's compact
/// formula for the derivative of a rotation in exponential coordinates), the quotient
/// rule for the projection and the product rule for the distortion.
#[allow(clippy::needless_range_loop)]
pub fn ba_residual_hand(
    cam: &[f64],
    x: &[f64],
    w: f64,
    fx: f64,
    fy: f64,
) -> ([f64; 2], [f64; 2 * NBLOCK]) {
    let r = [cam[0], cam[1], cam[2]];
    let xo = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
    let sqtheta = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    // rot: the 3×3 matrix ∂Xcam/∂Xo; dr: ∂Xcam/∂r.
    let mut rot = [[0.0; 3]; 3];
    let mut dr = [[0.0; 3]; 3];
    let ux = skew(xo);
    if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let (s, c) = theta.sin_cos();
        let k = [r[0] / theta, r[1] / theta, r[2] / theta];
        let kx = skew(k);
        for i in 0..3 {
            for j in 0..3 {
                let id = if i == j { 1.0 } else { 0.0 };
                rot[i][j] = c * id + s * kx[i][j] + (1.0 - c) * k[i] * k[j];
            }
        }
        // M = r rᵀ + (Rᵀ - I)[r]×, then dr = -R [Xo]× M / θ².
        let rx = skew(r);
        let mut m = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                let mut t = r[i] * r[j];
                for l in 0..3 {
                    let rti = rot[l][i] - if l == i { 1.0 } else { 0.0 };
                    t += rti * rx[l][j];
                }
                m[i][j] = t;
            }
        }
        let rux = matmul(&rot, &ux);
        let a = matmul(&rux, &m);
        for i in 0..3 {
            for j in 0..3 {
                dr[i][j] = -a[i][j] / sqtheta;
            }
        }
    } else {
        // Xcam = Xo + r × Xo: ∂/∂r = -[Xo]×, ∂/∂Xo = I + [r]×.
        let rx = skew(r);
        for i in 0..3 {
            for j in 0..3 {
                rot[i][j] = if i == j { 1.0 } else { 0.0 } + rx[i][j];
                dr[i][j] = -ux[i][j];
            }
        }
    }
    let mut xc = [0.0; 3];
    for i in 0..3 {
        xc[i] = rot[i][0] * xo[0] + rot[i][1] * xo[1] + rot[i][2] * xo[2];
    }
    let pn = [xc[0] / xc[2], xc[1] / xc[2]];
    let rsq = pn[0] * pn[0] + pn[1] * pn[1];
    let (k1, k2, f) = (cam[9], cam[10], cam[6]);
    let l = 1.0 + k1 * rsq + k2 * rsq * rsq;
    let pd = [pn[0] * l, pn[1] * l];
    let proj = [pd[0] * f + cam[7], pd[1] * f + cam[8]];
    let err = [w * (proj[0] - fx), w * (proj[1] - fy)];
    // ∂pn/∂Xcam (2×3), ∂pd/∂pn (2×2), their product times w·f: A (2×3).
    let iz = 1.0 / xc[2];
    let dpn = [[iz, 0.0, -xc[0] * iz * iz], [0.0, iz, -xc[1] * iz * iz]];
    let dl = 2.0 * (k1 + 2.0 * k2 * rsq);
    let dpd = [
        [l + pn[0] * dl * pn[0], pn[0] * dl * pn[1]],
        [pn[1] * dl * pn[0], l + pn[1] * dl * pn[1]],
    ];
    let mut a = [[0.0; 3]; 2];
    for i in 0..2 {
        for j in 0..3 {
            a[i][j] = w * f * (dpd[i][0] * dpn[0][j] + dpd[i][1] * dpn[1][j]);
        }
    }
    let mut jac = [0.0; 2 * NBLOCK];
    for i in 0..2 {
        let row = &mut jac[i * NBLOCK..(i + 1) * NBLOCK];
        for j in 0..3 {
            let mut dxr = 0.0;
            let mut dxx = 0.0;
            for l in 0..3 {
                dxr += a[i][l] * dr[l][j];
                dxx += a[i][l] * rot[l][j];
            }
            row[j] = dxr; // r
            row[3 + j] = -dxx; // C
            row[11 + j] = dxx; // X
        }
        row[6] = w * pd[i];
        row[7] = if i == 0 { w } else { 0.0 };
        row[8] = if i == 1 { w } else { 0.0 };
        row[9] = w * f * pn[i] * rsq;
        row[10] = w * f * pn[i] * rsq * rsq;
        row[14] = proj[i] - if i == 0 { fx } else { fy };
    }
    (err, jac)
}

fn skew(v: [f64; 3]) -> [[f64; 3]; 3] {
    [[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]]
}

#[allow(clippy::needless_range_loop)]
fn matmul(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mut c = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
        }
    }
    c
}

// --- instances --------------------------------------------------------------------------

/// A BA instance: `n` cameras, `m` points, `p` observations.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Number of cameras.
    pub n: usize,
    /// Number of points.
    pub m: usize,
    /// Number of observations.
    pub p: usize,
    /// Cameras, `n × 11`.
    pub cams: Vec<f64>,
    /// Points, `m × 3`.
    pub points: Vec<f64>,
    /// Weights, one per observation.
    pub weights: Vec<f64>,
    /// Features, `p × 2`.
    pub feats: Vec<f64>,
    /// `(camera, point)` of each observation.
    pub obs: Vec<(usize, usize)>,
}

impl Instance {
    /// An instance from ADBench's replicated format: `n m p`, one camera, one point, one
    /// weight, one feature; observation `i` uses camera `i mod n` and point `i mod m`.
    ///
    /// # Panics
    /// If the text is too short.
    pub fn parse(text: &str) -> Instance {
        let v = crate::data::numbers(text);
        let (n, m, p) = (v[0] as usize, v[1] as usize, v[2] as usize);
        let cam = &v[3..14];
        let x = &v[14..17];
        let (w, feat) = (v[17], &v[18..20]);
        Instance {
            n,
            m,
            p,
            cams: cam.repeat(n),
            points: x.repeat(m),
            weights: vec![w; p],
            feats: feat.repeat(p),
            obs: (0..p).map(|i| (i % n, i % m)).collect(),
        }
    }

    /// `ba/<file>` from the ADBench data, when present.
    pub fn load(file: &str) -> Option<Instance> {
        crate::data::read(&format!("ba/{file}")).map(|t| Instance::parse(&t))
    }

    /// A generated instance of the same shape as ADBench's (distinct random cameras,
    /// points and weights, so the blocks differ).
    pub fn generate(n: usize, m: usize, p: usize, seed: u64) -> Instance {
        let mut r = crate::rng::Rng::new(seed);
        let mut cams = Vec::with_capacity(n * NCAM);
        for _ in 0..n {
            cams.extend(r.vec(3, -0.8, 0.8)); // rotation
            cams.extend(r.vec(3, -1.0, 1.0)); // centre
            cams.push(r.uniform(300.0, 500.0)); // f
            cams.extend(r.vec(2, -10.0, 10.0)); // u0, v0
            cams.extend(r.vec(2, -0.05, 0.05)); // k1, k2
        }
        let mut points = Vec::with_capacity(m * 3);
        for _ in 0..m {
            points.extend(r.vec(2, -1.0, 1.0));
            points.push(r.uniform(6.0, 10.0));
        }
        Instance {
            n,
            m,
            p,
            cams,
            points,
            weights: r.vec(p, 0.2, 1.0),
            feats: r.vec(2 * p, -100.0, 100.0),
            obs: (0..p).map(|i| (i % n, i % m)).collect(),
        }
    }

    /// The data of observation `i`: camera, point, weight, feature.
    #[inline]
    pub fn observation(&self, i: usize) -> (&[f64], &[f64], f64, f64, f64) {
        let (c, q) = self.obs[i];
        (
            &self.cams[c * NCAM..(c + 1) * NCAM],
            &self.points[q * 3..q * 3 + 3],
            self.weights[i],
            self.feats[2 * i],
            self.feats[2 * i + 1],
        )
    }

    /// Number of Jacobian rows (`2p` reprojection + `p` weight rows) and columns.
    pub fn jacobian_shape(&self) -> (usize, usize) {
        (3 * self.p, NCAM * self.n + 3 * self.m + self.p)
    }
}

/// The objective: `2p` reprojection errors followed by `p` weight errors.
pub fn objective(inst: &Instance, out: &mut [f64]) {
    for i in 0..inst.p {
        let (cam, x, w, fx, fy) = inst.observation(i);
        let e = ba_residual(cam, x, w, fx, fy);
        out[2 * i] = e[0];
        out[2 * i + 1] = e[1];
    }
    for i in 0..inst.p {
        out[2 * inst.p + i] = weight_error(inst.weights[i]);
    }
}

/// A sparse Jacobian in ADBench's CSR layout (`rows` has `nrows + 1` entries).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Csr {
    /// Number of rows.
    pub nrows: usize,
    /// Number of columns.
    pub ncols: usize,
    /// Row starts.
    pub rows: Vec<usize>,
    /// Column of each value.
    pub cols: Vec<usize>,
    /// The values.
    pub vals: Vec<f64>,
}

impl Csr {
    /// Clears the matrix for an instance, keeping the allocations.
    fn reset(&mut self, inst: &Instance) {
        (self.nrows, self.ncols) = inst.jacobian_shape();
        let nnz = 2 * NBLOCK * inst.p + inst.p;
        self.rows.clear();
        self.cols.clear();
        self.vals.clear();
        self.rows.reserve(self.nrows + 1);
        self.cols.reserve(nnz);
        self.vals.reserve(nnz);
        self.rows.push(0);
    }

    /// Appends the two rows of observation `i` from its row-major 2×15 block.
    #[inline]
    fn push_block(&mut self, inst: &Instance, i: usize, block: &[f64; 2 * NBLOCK]) {
        let (c, q) = inst.obs[i];
        let (cam0, pt0) = (NCAM * c, NCAM * inst.n + 3 * q);
        let wcol = NCAM * inst.n + 3 * inst.m + i;
        for r in 0..2 {
            self.cols.extend(cam0..cam0 + NCAM);
            self.cols.extend(pt0..pt0 + 3);
            self.cols.push(wcol);
            self.vals
                .extend_from_slice(&block[r * NBLOCK..(r + 1) * NBLOCK]);
            self.rows.push(self.cols.len());
        }
    }

    /// Appends the weight rows: `∂(1 - w²)/∂w = -2w`.
    fn push_weights(&mut self, inst: &Instance) {
        for i in 0..inst.p {
            self.cols.push(NCAM * inst.n + 3 * inst.m + i);
            self.vals.push(-2.0 * inst.weights[i]);
            self.rows.push(self.cols.len());
        }
    }
}

/// The sparse Jacobian from per-observation blocks computed by `block`.
pub fn jacobian_with(
    inst: &Instance,
    csr: &mut Csr,
    mut block: impl FnMut(&Instance, usize) -> [f64; 2 * NBLOCK],
) {
    csr.reset(inst);
    for i in 0..inst.p {
        let b = block(inst, i);
        csr.push_block(inst, i, &b);
    }
    csr.push_weights(inst);
}

/// The seeds of one block pass: unit directions 0..11 for the camera, 11..14 for the
/// point, 14 for the weight.
pub struct Seeds {
    cam: [Batch<f64, NBLOCK>; NCAM],
    x: [Batch<f64, NBLOCK>; 3],
    w: Batch<f64, NBLOCK>,
}

impl Default for Seeds {
    fn default() -> Self {
        Seeds {
            cam: std::array::from_fn(Batch::unit),
            x: std::array::from_fn(|k| Batch::unit(NCAM + k)),
            w: Batch::unit(14),
        }
    }
}

/// One block by the derived rule: one pass of width 15 through [`ba_residual`]'s `Frule`
/// impl, the feature passed as a constant dual.
#[inline]
pub fn block_rule(inst: &Instance, i: usize, seeds: &Seeds) -> [f64; 2 * NBLOCK] {
    type B = Batch<f64, NBLOCK>;
    let (cam, x, w, fx, fy) = inst.observation(i);
    let y = <ba_residual as Frule<_, B>>::frule(
        &ba_residual {},
        (
            Dual::new(cam, &seeds.cam[..]),
            Dual::new(x, &seeds.x[..]),
            Dual::new(w, seeds.w),
            Dual::new(fx, B::default()),
            Dual::new(fy, B::default()),
        ),
    );
    let mut out = [0.0; 2 * NBLOCK];
    out[..NBLOCK].copy_from_slice(&y.tangent[0].0);
    out[NBLOCK..].copy_from_slice(&y.tangent[1].0);
    out
}

/// [`block_rule`] through [`ba_residual_inline`]: the rule inlined into the caller.
#[inline(always)]
pub fn block_rule_inline(inst: &Instance, i: usize, seeds: &Seeds) -> [f64; 2 * NBLOCK] {
    type B = Batch<f64, NBLOCK>;
    let (cam, x, w, fx, fy) = inst.observation(i);
    let y = <ba_residual_inline as Frule<_, B>>::frule(
        &ba_residual_inline {},
        (
            Dual::new(cam, &seeds.cam[..]),
            Dual::new(x, &seeds.x[..]),
            Dual::new(w, seeds.w),
            Dual::new(fx, B::default()),
            Dual::new(fy, B::default()),
        ),
    );
    let mut out = [0.0; 2 * NBLOCK];
    out[..NBLOCK].copy_from_slice(&y.tangent[0].0);
    out[NBLOCK..].copy_from_slice(&y.tangent[1].0);
    out
}

/// [`Seeds`] as [`fwdad::Fused`] tangents (updates by fused multiply-adds).
pub struct FusedSeeds {
    cam: [fwdad::Fused<Batch<f64, NBLOCK>>; NCAM],
    x: [fwdad::Fused<Batch<f64, NBLOCK>>; 3],
    w: fwdad::Fused<Batch<f64, NBLOCK>>,
}

impl From<&Seeds> for FusedSeeds {
    fn from(s: &Seeds) -> Self {
        FusedSeeds {
            cam: s.cam.map(fwdad::Fused),
            x: s.x.map(fwdad::Fused),
            w: fwdad::Fused(s.w),
        }
    }
}

/// [`block_rule_inline`] in the [`fwdad::Fused`] mode: for a caller compiled with FMA.
#[inline(always)]
pub fn block_rule_fused(inst: &Instance, i: usize, seeds: &FusedSeeds) -> [f64; 2 * NBLOCK] {
    type B = fwdad::Fused<Batch<f64, NBLOCK>>;
    let (cam, x, w, fx, fy) = inst.observation(i);
    let y = <ba_residual_inline as Frule<_, B>>::frule(
        &ba_residual_inline {},
        (
            Dual::new(cam, &seeds.cam[..]),
            Dual::new(x, &seeds.x[..]),
            Dual::new(w, seeds.w),
            Dual::new(fx, B::default()),
            Dual::new(fy, B::default()),
        ),
    );
    let mut out = [0.0; 2 * NBLOCK];
    out[..NBLOCK].copy_from_slice(&y.tangent[0].0 .0);
    out[NBLOCK..].copy_from_slice(&y.tangent[1].0 .0);
    out
}

/// One block by [`ba_residual`]'s Jacobian entry (`Frule::chain_jacobian`, what
/// `jacobian` and `BlockJacobianWorkspace` call for a rule whose body is one chain): the
/// backward sweep's coefficients written to the block's columns (camera 0..11, point
/// 11..14, weight 14), no seeds; the arguments' tangents are never read.
#[inline]
pub fn block_entry(inst: &Instance, i: usize, seeds: &Seeds) -> [f64; 2 * NBLOCK] {
    type B = Batch<f64, NBLOCK>;
    struct Block([f64; 2 * NBLOCK]);
    impl fwdad::drivers::JacobianSink for Block {
        #[inline(always)]
        fn rows(&mut self, m: usize) {
            assert_eq!(m, 2);
            self.0 = [0.0; 2 * NBLOCK];
        }
        #[inline(always)]
        fn value(&mut self, _: usize, _: f64) {}
        #[inline(always)]
        fn add(&mut self, i: usize, j: usize, d: f64) {
            self.0[i * NBLOCK + j] += d;
        }
    }
    let (cam, x, w, fx, fy) = inst.observation(i);
    let mut out = Block([0.0; 2 * NBLOCK]);
    let ok = <ba_residual as Frule<_, B>>::chain_jacobian(
        &ba_residual {},
        (
            Dual::new(cam, &seeds.cam[..]),
            Dual::new(x, &seeds.x[..]),
            Dual::new(w, seeds.w),
            Dual::new(fx, B::default()),
            Dual::new(fy, B::default()),
        ),
        &[Some(0), Some(NCAM), Some(NCAM + 3), None, None],
        &mut out,
    );
    assert!(ok, "ba_residual has a Jacobian entry");
    out.0
}

/// One block by the expert batched Jacobian
/// ([`crate::expert::ba_residual_expert_batched`]): adjoints of the two outputs
/// accumulated backwards by hand, then multiplied by the same seeds as [`block_rule`].
#[inline]
pub fn block_expert(inst: &Instance, i: usize, seeds: &Seeds) -> [f64; 2 * NBLOCK] {
    let (cam, x, w, fx, fy) = inst.observation(i);
    let (_, t) = crate::expert::ba_residual_expert_batched(
        cam,
        x,
        w,
        fx,
        fy,
        (&seeds.cam, &seeds.x, seeds.w),
    );
    let mut out = [0.0; 2 * NBLOCK];
    out[..NBLOCK].copy_from_slice(&t[0].0);
    out[NBLOCK..].copy_from_slice(&t[1].0);
    out
}

/// A block's two tangents from its Jacobian block `j` (rows of 15, as [`block_entry`]
/// writes them) and the seeds, `ėₖ = Σⱼ Jₖⱼ·ṗⱼ` over the 14 parameters each output depends
/// on (`e₀` has no `v0`, `e₁` no `u0`): 28 updates of 15 lanes, the work any pass with
/// arbitrary seeds adds to the primal and its partial derivatives (issue 30's bound on
/// BA's batched pass).
#[inline]
pub fn block_seed_product(j: &[f64; 2 * NBLOCK], seeds: &Seeds) -> [f64; 2 * NBLOCK] {
    let roots = || {
        seeds
            .cam
            .iter()
            .chain(&seeds.x)
            .chain(std::iter::once(&seeds.w))
    };
    let mut out = [0.0; 2 * NBLOCK];
    for (k, skip) in [(0, 8), (1, 7)] {
        let row = &j[k * NBLOCK..(k + 1) * NBLOCK];
        let t = roots()
            .zip(row)
            .enumerate()
            .filter(|&(p, _)| p != skip)
            .fold(Batch::<f64, NBLOCK>::default(), |t, (_, (s, &c))| {
                t.axpy(c, *s)
            });
        out[k * NBLOCK..(k + 1) * NBLOCK].copy_from_slice(&t.0);
    }
    out
}

/// Observation `i`'s block parameters in [`ba_residual_packed`]'s layout (camera, point,
/// weight), with the feature `(fx, fy)`.
fn packed(inst: &Instance, i: usize) -> ([f64; NBLOCK], f64, f64) {
    let (cam, x, w, fx, fy) = inst.observation(i);
    let mut p = [0.0; NBLOCK];
    p[..NCAM].copy_from_slice(cam);
    p[NCAM..NCAM + 3].copy_from_slice(x);
    p[14] = w;
    (p, fx, fy)
}

/// One block by fwdad's `jacobian_with::<15>` driver on [`ba_residual_packed`] (the block
/// parameters copied into one slice; the driver allocates its seeds and result).
pub fn block_driver(inst: &Instance, i: usize) -> [f64; 2 * NBLOCK] {
    let (p, fx, fy) = packed(inst, i);
    let (_, j) = fwdad::drivers::jacobian_with::<NBLOCK>(
        fwdad::drivers::bind(ba_residual_packed {}, (fwdad::drivers::Wrt, fx, fy)),
        &p,
    );
    let mut out = [0.0; 2 * NBLOCK];
    out.copy_from_slice(j.as_slice());
    out
}

/// One block by fwdad's [`JacobianWorkspace::<15>`](fwdad::drivers::JacobianWorkspace)
/// on [`ba_residual_packed`]: the driver with its buffers kept between observations.
pub fn block_workspace(
    inst: &Instance,
    i: usize,
    ws: &mut fwdad::drivers::JacobianWorkspace<NBLOCK>,
) -> [f64; 2 * NBLOCK] {
    let (p, fx, fy) = packed(inst, i);
    let (_, j) = ws.jacobian(
        fwdad::drivers::bind(ba_residual_packed {}, (fwdad::drivers::Wrt, fx, fy)),
        &p,
    );
    let mut out = [0.0; 2 * NBLOCK];
    out.copy_from_slice(j.as_slice());
    out
}

/// One block by the hand-derived Jacobian.
#[inline]
pub fn block_hand(inst: &Instance, i: usize) -> [f64; 2 * NBLOCK] {
    let (cam, x, w, fx, fy) = inst.observation(i);
    ba_residual_hand(cam, x, w, fx, fy).1
}

/// One block by num-dual (`DualSVec64<15>`).
pub fn block_nd(inst: &Instance, i: usize) -> [f64; 2 * NBLOCK] {
    type D = DualSVec64<NBLOCK>;
    let (cam, x, w, fx, fy) = inst.observation(i);
    let camd: [D; NCAM] = std::array::from_fn(|k| D::from_re(cam[k]).derivative(k));
    let xd: [D; 3] = std::array::from_fn(|k| D::from_re(x[k]).derivative(NCAM + k));
    let wd = D::from_re(w).derivative(14);
    let y = ba_residual_nd(&camd, &xd, wd, fx, fy);
    let mut out = [0.0; 2 * NBLOCK];
    for r in 0..2 {
        let e = y[r]
            .eps
            .unwrap_generic(nalgebra::Const::<NBLOCK>, nalgebra::U1);
        out[r * NBLOCK..(r + 1) * NBLOCK].copy_from_slice(e.as_slice());
    }
    out
}

/// One block by central finite differences (30 evaluations of the residual).
pub fn block_fd(inst: &Instance, i: usize) -> [f64; 2 * NBLOCK] {
    let (cam, x, w, fx, fy) = inst.observation(i);
    let mut p = [0.0; NBLOCK];
    p[..NCAM].copy_from_slice(cam);
    p[NCAM..NCAM + 3].copy_from_slice(x);
    p[14] = w;
    let mut buf = [0.0; NBLOCK];
    let mut cols = [[0.0; 2]; NBLOCK];
    crate::fd::jacobian(
        |q| ba_residual(&q[..NCAM], &q[NCAM..NCAM + 3], q[14], fx, fy),
        &p,
        &mut buf,
        &mut cols,
    );
    let mut out = [0.0; 2 * NBLOCK];
    for (j, c) in cols.iter().enumerate() {
        out[j] = c[0];
        out[NBLOCK + j] = c[1];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_close, assert_close_tol, FD_TOL};

    fn small() -> Instance {
        Instance::generate(3, 5, 12, 42)
    }

    #[test]
    fn blocks_agree_with_the_hand_derived_jacobian() {
        let inst = small();
        let seeds = Seeds::default();
        let mut ws = fwdad::drivers::JacobianWorkspace::new();
        for i in 0..inst.p {
            let (cam, x, w, fx, fy) = inst.observation(i);
            let (e, hand) = ba_residual_hand(cam, x, w, fx, fy);
            assert_close("ba residual", &ba_residual(cam, x, w, fx, fy), &e);
            assert_close("ba rule", &block_rule(&inst, i, &seeds), &hand);
            assert_close("ba entry", &block_entry(&inst, i, &seeds), &hand);
            assert_close("ba expert", &block_expert(&inst, i, &seeds), &hand);
            assert_close(
                "ba rule inlined",
                &block_rule_inline(&inst, i, &seeds),
                &hand,
            );
            let fused = FusedSeeds::from(&seeds);
            assert_close("ba rule fused", &block_rule_fused(&inst, i, &fused), &hand);
            assert_close(
                "ba seeds product",
                &block_seed_product(&hand, &seeds),
                &hand,
            );
            // Seeds that are not unit vectors: the hand-derived block times them, against
            // the rule's pass with them.
            let mixed = Seeds {
                cam: std::array::from_fn(|p| {
                    Batch::from_fn(|l| ((p * 7 + l * 3) % 5) as f64 - 2.0)
                }),
                x: std::array::from_fn(|p| Batch::from_fn(|l| 0.5 * ((p + l) % 3) as f64)),
                w: Batch::from_fn(|l| l as f64 * 0.25 - 1.0),
            };
            assert_close(
                "ba seeds product, mixed seeds",
                &block_seed_product(&hand, &mixed),
                &block_rule(&inst, i, &mixed),
            );
            let (e_expert, _) = crate::expert::ba_residual_expert_batched(
                cam,
                x,
                w,
                fx,
                fy,
                (&seeds.cam, &seeds.x, seeds.w),
            );
            assert_eq!(
                e_expert,
                ba_residual(cam, x, w, fx, fy),
                "the expert's primal is the residual's, bit for bit"
            );
            assert_close("ba driver", &block_driver(&inst, i), &hand);
            assert_close("ba workspace", &block_workspace(&inst, i, &mut ws), &hand);
            assert_close("ba num-dual", &block_nd(&inst, i), &hand);
            assert_close_tol("ba fd", &block_fd(&inst, i), &hand, FD_TOL);
        }
    }

    #[test]
    fn zero_rotation_branch() {
        let mut inst = small();
        for c in 0..inst.n {
            inst.cams[c * NCAM..c * NCAM + 3].fill(0.0);
        }
        let seeds = Seeds::default();
        let (cam, x, w, fx, fy) = inst.observation(0);
        let (_, hand) = ba_residual_hand(cam, x, w, fx, fy);
        assert_close("ba rule θ=0", &block_rule(&inst, 0, &seeds), &hand);
        assert_close("ba entry θ=0", &block_entry(&inst, 0, &seeds), &hand);
        assert_close("ba expert θ=0", &block_expert(&inst, 0, &seeds), &hand);
        assert_close_tol("ba fd θ=0", &block_fd(&inst, 0), &hand, FD_TOL);
        assert_close("ba num-dual θ=0", &block_nd(&inst, 0), &hand);
    }

    #[test]
    fn sparse_jacobian_layout() {
        let inst = small();
        let seeds = Seeds::default();
        let mut a = Csr::default();
        let mut b = Csr::default();
        jacobian_with(&inst, &mut a, |s, i| block_rule(s, i, &seeds));
        jacobian_with(&inst, &mut b, block_hand);
        assert_eq!((a.nrows, a.ncols), (36, 11 * 3 + 15 + 12));
        assert_eq!(a.rows.len(), a.nrows + 1);
        assert_eq!(a.vals.len(), 2 * 15 * 12 + 12);
        assert_eq!(a.rows, b.rows);
        assert_eq!(a.cols, b.cols);
        assert_close("ba sparse", &a.vals, &b.vals);
        // Columns ascend within each row.
        for r in 0..a.nrows {
            let c = &a.cols[a.rows[r]..a.rows[r + 1]];
            assert!(c.windows(2).all(|w| w[0] < w[1]));
        }
        let mut out = vec![0.0; 3 * inst.p];
        objective(&inst, &mut out);
        assert_eq!(out[2 * inst.p], weight_error(inst.weights[0]));
    }

    #[test]
    fn parses_adbench_format() {
        let text = "2 3 4\n1 2 3 4 5 6 7 8 9 10 11\n0.1 0.2 0.3\n0.5\n1.5 2.5\n";
        let inst = Instance::parse(text);
        assert_eq!((inst.n, inst.m, inst.p), (2, 3, 4));
        assert_eq!(inst.obs[3], (1, 0));
        assert_eq!(inst.observation(3).1, [0.1, 0.2, 0.3]);
        assert_eq!(inst.feats[7], 2.5);
    }
}
