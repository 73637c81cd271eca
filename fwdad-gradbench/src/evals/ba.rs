//! `ba`: bundle adjustment (ADBench). Each observation `i` of point `Xⱼ` by camera `cᵢ`
//! (`[r₁ r₂ r₃ C₁ C₂ C₃ f u₀ v₀ k₁ k₂]`: Rodrigues rotation, centre, focal length,
//! principal point, radial distortion) has the residual `w (proj(c, X) − feat)` and the
//! weight residual `1 − w²`. The Jacobian is sparse: each residual pair depends on the
//! 11 + 3 + 1 parameters of its own camera, point and weight, so it is computed block by
//! block, one 15-direction forward pass per observation.
//!
//! The eval sends one camera, point, weight and feature and sizes `n, m, p`; the tool
//! replicates them (observation `i` pairs camera `i mod n` with point `i mod m`) and
//! computes every observation, and answers in the eval's compressed form.

use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::drivers::JacobianWorkspace;
use fwdad::prelude::*;
use serde_json::{json, Value};

const CAM: usize = 11;

/// `rot` (axis × angle) applied to `pt`, by Rodrigues' formula; to first order near the
/// identity.
#[derive_frule]
pub fn rodrigues_rotate(rot: &[f64], pt: &[f64; 3]) -> [f64; 3] {
    let sqtheta = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
    if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let (sin, cos) = (theta.sin(), theta.cos());
        let w = [rot[0] / theta, rot[1] / theta, rot[2] / theta];
        let w_cross_pt = [
            w[1] * pt[2] - w[2] * pt[1],
            w[2] * pt[0] - w[0] * pt[2],
            w[0] * pt[1] - w[1] * pt[0],
        ];
        let tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1.0 - cos);
        [
            pt[0] * cos + w_cross_pt[0] * sin + w[0] * tmp,
            pt[1] * cos + w_cross_pt[1] * sin + w[1] * tmp,
            pt[2] * cos + w_cross_pt[2] * sin + w[2] * tmp,
        ]
    } else {
        [
            pt[0] + rot[1] * pt[2] - rot[2] * pt[1],
            pt[1] + rot[2] * pt[0] - rot[0] * pt[2],
            pt[2] + rot[0] * pt[1] - rot[1] * pt[0],
        ]
    }
}

/// The image of `x` in camera `cam`, with radial distortion.
#[derive_frule]
pub fn project(cam: &[f64], x: &[f64]) -> [f64; 2] {
    let shifted = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
    let p = rodrigues_rotate(&cam[0..3], &shifted);
    let (u, v) = (p[0] / p[2], p[1] / p[2]);
    let rsq = u * u + v * v;
    let distortion = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    [
        u * distortion * cam[6] + cam[7],
        v * distortion * cam[6] + cam[8],
    ]
}

/// One observation's weighted reprojection error.
#[derive_frule(inactive(feat))]
pub fn reproj_error(cam: &[f64], x: &[f64], w: f64, feat: &[f64]) -> [f64; 2] {
    let p = project(cam, x);
    [w * (p[0] - feat[0]), w * (p[1] - feat[1])]
}

/// [`reproj_error`] of the block `[camera (11), point (3), weight]`, for the Jacobian.
#[derive_frule(inactive(feat))]
pub fn reproj_error_block(block: &[f64], feat: &[f64]) -> [f64; 2] {
    reproj_error(&block[0..11], &block[11..14], block[14], feat)
}

#[derive_frule]
pub fn weight_error(w: f64) -> f64 {
    1.0 - w * w
}

/// The replicated problem.
pub struct Ba {
    pub n: usize,
    pub m: usize,
    pub cams: Vec<f64>,
    pub points: Vec<f64>,
    pub weights: Vec<f64>,
    pub feats: Vec<f64>,
    /// `(camera, point)` of each observation.
    pub obs: Vec<(usize, usize)>,
}

/// The Jacobian in compressed sparse rows, as ADBench's `SparseMat` builds it: per
/// observation two rows of 15 entries, then one row per weight.
pub struct Sparse {
    pub rows: Vec<usize>,
    pub cols: Vec<usize>,
    pub vals: Vec<f64>,
}

impl Ba {
    pub fn from_input(input: &Value) -> Result<Ba, String> {
        let n = input::int(input, "n")?;
        let m = input::int(input, "m")?;
        let p = input::int(input, "p")?;
        let cam = input::floats(input, "cam")?;
        let x = input::floats(input, "x")?;
        let w = input::float(input, "w")?;
        let feat = input::floats(input, "feat")?;
        if cam.len() != CAM || x.len() != 3 || feat.len() != 2 || n == 0 || m == 0 {
            return Err("`cam`, `x` or `feat` has the wrong length, or n or m is 0".into());
        }
        Ok(Ba {
            n,
            m,
            cams: cam.repeat(n),
            points: x.repeat(m),
            weights: vec![w; p],
            feats: feat.repeat(p),
            obs: (0..p).map(|i| (i % n, i % m)).collect(),
        })
    }

    /// Every reprojection error (2 per observation) and weight error.
    pub fn objective(&self) -> (Vec<f64>, Vec<f64>) {
        let mut reproj = Vec::with_capacity(2 * self.obs.len());
        for (i, &(c, j)) in self.obs.iter().enumerate() {
            let cam = &self.cams[c * CAM..(c + 1) * CAM];
            let e = reproj_error(
                cam,
                &self.points[3 * j..3 * j + 3],
                self.weights[i],
                &self.feats[2 * i..2 * i + 2],
            );
            reproj.extend_from_slice(&e);
        }
        let werr = self.weights.iter().map(|&w| weight_error(w)).collect();
        (reproj, werr)
    }

    pub fn jacobian(&self) -> Sparse {
        let p = self.obs.len();
        let mut rows = Vec::with_capacity(3 * p + 1);
        let mut cols = Vec::with_capacity(31 * p);
        let mut vals = Vec::with_capacity(31 * p);
        rows.push(0);
        let mut ws = JacobianWorkspace::<16>::new();
        let mut block = [0.0; 15];
        for (i, &(c, j)) in self.obs.iter().enumerate() {
            block[..11].copy_from_slice(&self.cams[c * CAM..(c + 1) * CAM]);
            block[11..14].copy_from_slice(&self.points[3 * j..3 * j + 3]);
            block[14] = self.weights[i];
            let f = bind(
                reproj_error_block {},
                (Wrt, Inactive(&self.feats[2 * i..2 * i + 2])),
            );
            let (_, jac) = ws.jacobian(f, &block);
            for r in 0..2 {
                rows.push(rows[rows.len() - 1] + 15);
                let row = jac.row(r);
                cols.extend((0..CAM).map(|q| CAM * c + q));
                vals.extend_from_slice(&row[..CAM]);
                cols.extend((0..3).map(|q| CAM * self.n + 3 * j + q));
                vals.extend_from_slice(&row[CAM..CAM + 3]);
                cols.push(CAM * self.n + 3 * self.m + i);
                vals.push(row[14]);
            }
        }
        for (i, &w) in self.weights.iter().enumerate() {
            rows.push(rows[rows.len() - 1] + 1);
            cols.push(CAM * self.n + 3 * self.m + i);
            vals.push(derivative(weight_error {}, w).1);
        }
        Sparse { rows, cols, vals }
    }
}

/// The eval's form of the objective: the first residual pair and the first weight
/// residual, with how often they repeat.
fn objective_json((reproj, werr): (Vec<f64>, Vec<f64>)) -> Value {
    json!({
        "reproj_error": { "elements": &reproj[..2], "repeated": reproj.len() / 2 },
        "w_err": { "element": werr[0], "repeated": werr.len() },
    })
}

/// The eval's form of the Jacobian: the first 30 entries of each array and its last.
fn jacobian_json(j: Sparse) -> Value {
    fn head_and_last<T: Copy + Into<Value>>(v: &[T]) -> Value {
        let mut out: Vec<Value> = v[..30].iter().map(|&x| x.into()).collect();
        out.push(v[v.len() - 1].into());
        Value::Array(out)
    }
    json!({ "rows": head_and_last(&j.rows), "cols": head_and_last(&j.cols), "vals": head_and_last(&j.vals) })
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let ba = Ba::from_input(input)?;
    if ba.obs.is_empty() {
        return Err("`p` is 0".into());
    }
    let runs = Runs::of(input);
    match function {
        "objective" => Ok(runs.measure(|| ba.objective(), objective_json)),
        "jacobian" => Ok(runs.measure(|| ba.jacobian(), jacobian_json)),
        _ => Err(format!("`ba` has no function `{function}`")),
    }
}
