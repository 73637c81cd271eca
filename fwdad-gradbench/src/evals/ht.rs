//! `ht`: hand tracking (ADBench). A skinned hand model (bones with rest transforms, vertex
//! weights) is posed by 26 parameters `θ` (global rotation and translation, then finger
//! joint angles); each residual is a data point minus its corresponding vertex
//! ("simple"), or minus a point `u₀v₀ + u₁v₁ + (1 − u₀ − u₁)v₂` of its triangle
//! ("complicated", with `us`).
//!
//! The Jacobian has a column per `θ` and, in the complicated case, one per `u`; point
//! `i`'s residuals depend only on its own `uᵢ`, so the eval asks for them compressed into
//! two columns (`∂/∂uᵢ₀`, `∂/∂uᵢ₁` in point `i`'s rows). In forward mode that is a shift
//! `s` added to every `uᵢ`: the derivative in `s₀` is `∂/∂uᵢ₀` in each row. So the whole
//! Jacobian is one pass of 28 directions (`[s₀, s₁, θ]`), or 26 in the simple case.

// The objectives take the eval's arrays as they come; `#[allow]` on the function does not
// reach the rule `#[derive_frule]` generates next to it, so it is set for the module.
#![allow(clippy::too_many_arguments)]

use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use serde_json::Value;

/// `a · b` for 4 × 4 matrices, row-major.
#[derive_frule]
fn mat4_mul(a: &[f64], b: &[f64]) -> [f64; 16] {
    let mut c = [0.0; 16];
    for i in 0..4 {
        for j in 0..4 {
            let mut s = 0.0;
            for k in 0..4 {
                s += a[4 * i + k] * b[4 * k + j];
            }
            c[4 * i + j] = s;
        }
    }
    c
}

/// The rotation `R_z(θ_z) R_y(θ_y) R_x(θ_x)`, row-major 3 × 3.
#[derive_frule]
fn euler_to_rotation(tx: f64, ty: f64, tz: f64) -> [f64; 9] {
    let (sx, cx) = (tx.sin(), tx.cos());
    let (sy, cy) = (ty.sin(), ty.cos());
    let (sz, cz) = (tz.sin(), tz.cos());
    let rx = [1.0, 0.0, 0.0, 0.0, cx, -sx, 0.0, sx, cx];
    let ry = [cy, 0.0, sy, 0.0, 1.0, 0.0, -sy, 0.0, cy];
    let rz = [cz, -sz, 0.0, sz, cz, 0.0, 0.0, 0.0, 1.0];
    let mut zy = [0.0; 9];
    let mut r = [0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            for k in 0..3 {
                zy[3 * i + j] += rz[3 * i + k] * ry[3 * k + j];
            }
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            for k in 0..3 {
                r[3 * i + j] += zy[3 * i + k] * rx[3 * k + j];
            }
        }
    }
    r
}

/// The rotation by `|a|` about `a / |a|` (Rodrigues), row-major 3 × 3; the identity for
/// `|a| < 10⁻⁴`.
#[derive_frule]
fn angle_axis_to_rotation(a: &[f64]) -> [f64; 9] {
    let norm = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    if norm < 1e-4 {
        return [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    }
    let (x, y, z) = (a[0] / norm, a[1] / norm, a[2] / norm);
    let (s, c) = (norm.sin(), norm.cos());
    [
        x * x + (1.0 - x * x) * c,
        x * y * (1.0 - c) - z * s,
        x * z * (1.0 - c) + y * s,
        x * y * (1.0 - c) + z * s,
        y * y + (1.0 - y * y) * c,
        y * z * (1.0 - c) - x * s,
        x * z * (1.0 - c) - y * s,
        z * y * (1.0 - c) + x * s,
        z * z + (1.0 - z * z) * c,
    ]
}

/// The model's vertices posed by `theta`: `3 × nverts`, vertex-major (`[3v + i]`).
/// `base_relatives` and `inverse_base_absolutes` hold a row-major 4 × 4 matrix per bone,
/// `base_positions` a homogeneous point per vertex, `weights` per vertex a weight per bone;
/// `parents[b] < 0` marks a root.
#[derive_frule(inactive(base_relatives, inverse_base_absolutes, base_positions, weights))]
pub fn posed_vertices(
    theta: &[f64],
    parents: &[i64],
    base_relatives: &[f64],
    inverse_base_absolutes: &[f64],
    base_positions: &[f64],
    weights: &[f64],
    mirrored: bool,
) -> Vec<f64> {
    let bones = parents.len();
    let nverts = base_positions.len() / 4;
    // Pose parameters, 3 per column: global rotation, scale (1), translation, then per
    // bone its Euler angles (x, z, y); the fingers' joints get 2, 1 and 1 angles of θ.
    let mut pose = vec![0.0; 3 * (bones + 3)];
    for i in 0..3 {
        pose[i] = theta[i];
        pose[3 + i] = 1.0;
        pose[6 + i] = theta[3 + i];
    }
    let mut next_theta = 6;
    let mut column = 5;
    for _finger in 0..5 {
        for joint in 0..3 {
            pose[3 * column] = theta[next_theta];
            next_theta += 1;
            if joint == 0 {
                pose[3 * column + 1] = theta[next_theta];
                next_theta += 1;
            }
            column += 1;
        }
        column += 1;
    }
    // Bone transforms: posed relatives chained to absolutes, times the inverse rest pose.
    let mut absolutes = vec![0.0; 16 * bones];
    let mut transforms = vec![0.0; 16 * bones];
    for b in 0..bones {
        let angles = 3 * (b + 3);
        let r = euler_to_rotation(pose[angles], pose[angles + 2], pose[angles + 1]);
        let joint = [
            r[0], r[1], r[2], 0.0, r[3], r[4], r[5], 0.0, r[6], r[7], r[8], 0.0, 0.0, 0.0, 0.0, 1.0,
        ];
        let relative = mat4_mul(&base_relatives[16 * b..16 * b + 16], &joint);
        let absolute = if parents[b] < 0 {
            relative
        } else {
            let p = parents[b] as usize;
            mat4_mul(&absolutes[16 * p..16 * p + 16], &relative)
        };
        absolutes[16 * b..16 * b + 16].copy_from_slice(&absolute);
        let transform = mat4_mul(&absolute, &inverse_base_absolutes[16 * b..16 * b + 16]);
        transforms[16 * b..16 * b + 16].copy_from_slice(&transform);
    }
    // Linear blend skinning.
    let mut positions = vec![0.0; 3 * nverts];
    for b in 0..bones {
        for v in 0..nverts {
            let w = weights[v * bones + b];
            for i in 0..3 {
                let mut moved = 0.0;
                for k in 0..4 {
                    moved += transforms[16 * b + 4 * i + k] * base_positions[4 * v + k];
                }
                positions[3 * v + i] += moved * w;
            }
        }
    }
    if mirrored {
        for v in 0..nverts {
            positions[3 * v] = -positions[3 * v];
        }
    }
    // Global rotation (columns scaled by the scale, 1) and translation.
    let mut rotation = angle_axis_to_rotation(&theta[0..3]);
    for i in 0..3 {
        for j in 0..3 {
            rotation[3 * j + i] *= pose[3 + i];
        }
    }
    let mut posed = vec![0.0; 3 * nverts];
    for v in 0..nverts {
        for i in 0..3 {
            let mut s = 0.0;
            for k in 0..3 {
                s += rotation[3 * i + k] * positions[3 * v + k];
            }
            posed[3 * v + i] = s + pose[6 + i];
        }
    }
    posed
}

/// The residuals `point − model point`, 3 per point. Without `us` the model point is the
/// corresponding vertex; with them, the point `u₀v₀ + u₁v₁ + (1 − u₀ − u₁)v₂` of the
/// corresponding triangle, with `shift` added to every `u`.
#[derive_frule(inactive(
    base_relatives,
    inverse_base_absolutes,
    base_positions,
    weights,
    points,
    us
))]
pub fn residuals(
    theta: &[f64],
    shift: &[f64],
    parents: &[i64],
    base_relatives: &[f64],
    inverse_base_absolutes: &[f64],
    base_positions: &[f64],
    weights: &[f64],
    mirrored: bool,
    triangles: &[usize],
    correspondences: &[usize],
    points: &[f64],
    us: &[f64],
) -> Vec<f64> {
    let vertices = posed_vertices(
        theta,
        parents,
        base_relatives,
        inverse_base_absolutes,
        base_positions,
        weights,
        mirrored,
    );
    let n = correspondences.len();
    let mut err = vec![0.0; 3 * n];
    for p in 0..n {
        if us.is_empty() {
            let v = correspondences[p];
            for j in 0..3 {
                err[3 * p + j] = points[3 * p + j] - vertices[3 * v + j];
            }
        } else {
            let t = correspondences[p];
            let (v0, v1, v2) = (triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2]);
            let u0 = us[2 * p] + shift[0];
            let u1 = us[2 * p + 1] + shift[1];
            for j in 0..3 {
                let on_hand = u0 * vertices[3 * v0 + j]
                    + u1 * vertices[3 * v1 + j]
                    + (1.0 - u0 - u1) * vertices[3 * v2 + j];
                err[3 * p + j] = points[3 * p + j] - on_hand;
            }
        }
    }
    err
}

/// [`residuals`] of `[s₀, s₁, θ]` (complicated) or `θ` (simple), for the Jacobian driver.
#[derive_frule(inactive(
    base_relatives,
    inverse_base_absolutes,
    base_positions,
    weights,
    points,
    us
))]
pub fn residuals_packed(
    params: &[f64],
    parents: &[i64],
    base_relatives: &[f64],
    inverse_base_absolutes: &[f64],
    base_positions: &[f64],
    weights: &[f64],
    mirrored: bool,
    triangles: &[usize],
    correspondences: &[usize],
    points: &[f64],
    us: &[f64],
) -> Vec<f64> {
    if us.is_empty() {
        let no_shift = [0.0, 0.0];
        residuals(
            params,
            &no_shift,
            parents,
            base_relatives,
            inverse_base_absolutes,
            base_positions,
            weights,
            mirrored,
            triangles,
            correspondences,
            points,
            us,
        )
    } else {
        residuals(
            &params[2..],
            &params[0..2],
            parents,
            base_relatives,
            inverse_base_absolutes,
            base_positions,
            weights,
            mirrored,
            triangles,
            correspondences,
            points,
            us,
        )
    }
}

pub struct Ht {
    pub theta: Vec<f64>,
    pub parents: Vec<i64>,
    pub base_relatives: Vec<f64>,
    pub inverse_base_absolutes: Vec<f64>,
    pub base_positions: Vec<f64>,
    pub weights: Vec<f64>,
    pub mirrored: bool,
    pub triangles: Vec<usize>,
    pub correspondences: Vec<usize>,
    pub points: Vec<f64>,
    pub us: Vec<f64>,
}

/// A list of row-major matrices, flattened.
fn matrices(value: &Value, key: &str) -> Result<Vec<f64>, String> {
    let list = value
        .get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("`{key}` is not a list of matrices"))?;
    let mut flat = Vec::new();
    for m in list {
        flat.extend(input::rows_of(m, key)?.0);
    }
    Ok(flat)
}

impl Ht {
    pub fn from_input(input: &Value) -> Result<Ht, String> {
        let data = input.get("data").ok_or("input has no field `data`")?;
        let model = data.get("model").ok_or("`data` has no field `model`")?;
        let parents: Vec<i64> = model
            .get("parents")
            .and_then(Value::as_array)
            .ok_or("`parents` is not an array")?
            .iter()
            .map(|p| {
                p.as_i64()
                    .ok_or("`parents` holds a value that is not an integer")
            })
            .collect::<Result<_, _>>()?;
        let triangles = match model.get("triangles").and_then(Value::as_array) {
            Some(ts) => ts
                .iter()
                .map(|t| input::ints(&serde_json::json!({ "t": t }), "t"))
                .collect::<Result<Vec<_>, _>>()?
                .concat(),
            None => return Err("`triangles` is not an array".into()),
        };
        let (us, _) = input::rows(input, "us")?;
        let ht = Ht {
            theta: input::floats(input, "theta")?,
            parents,
            base_relatives: matrices(model, "base_relatives")?,
            inverse_base_absolutes: matrices(model, "inverse_base_absolutes")?,
            base_positions: input::rows(model, "base_positions")?.0,
            weights: input::rows(model, "weights")?.0,
            mirrored: model
                .get("is_mirrored")
                .and_then(Value::as_bool)
                .ok_or("`is_mirrored` is not a boolean")?,
            triangles,
            correspondences: input::ints(data, "correspondences")?,
            points: input::rows(data, "points")?.0,
            us,
        };
        let bones = ht.parents.len();
        let nverts = ht.base_positions.len() / 4;
        let npts = ht.correspondences.len();
        if ht.theta.len() != 26
            || ht.base_relatives.len() != 16 * bones
            || ht.inverse_base_absolutes.len() != 16 * bones
            || ht.weights.len() != nverts * bones
            || ht.points.len() != 3 * npts
            || !(ht.us.is_empty() || ht.us.len() == 2 * npts)
            || ht.parents.iter().enumerate().any(|(b, &p)| p >= b as i64)
        {
            return Err("the shapes of the hand model, points or us do not match".into());
        }
        if bones < 21 {
            return Err(format!(
                "θ poses 21 bones or more (5 fingers of 4 after 3 columns), the model has {bones}"
            ));
        }
        let limit = if ht.us.is_empty() {
            nverts
        } else {
            ht.triangles.len() / 3
        };
        if ht.correspondences.iter().any(|&c| c >= limit)
            || ht.triangles.iter().any(|&v| v >= nverts)
        {
            return Err("a correspondence or triangle is out of range".into());
        }
        Ok(ht)
    }

    pub fn objective(&self) -> Vec<f64> {
        residuals(
            &self.theta,
            &[0.0, 0.0],
            &self.parents,
            &self.base_relatives,
            &self.inverse_base_absolutes,
            &self.base_positions,
            &self.weights,
            self.mirrored,
            &self.triangles,
            &self.correspondences,
            &self.points,
            &self.us,
        )
    }

    /// The Jacobian, `3·npts × (2 + 26)` (complicated) or `3·npts × 26`, row-major, and its
    /// number of columns.
    pub fn jacobian(&self) -> (Vec<f64>, usize) {
        let params = if self.us.is_empty() {
            self.theta.clone()
        } else {
            [&[0.0, 0.0][..], &self.theta].concat()
        };
        let f = ResidualsOfParams(self);
        let (_, j) = fwdad::jacobian_with::<28>(f, &params);
        (j.into_vec(), params.len())
    }
}

/// The number of directions of the Jacobian's one pass: `[s₀, s₁]` and `θ`.
type Lanes = Batch<f64, 28>;

/// [`residuals_packed`] as a function of its parameters alone, the hand's data fixed: what
/// `bind` does, for a function of more arguments than `bind` takes (it takes up to 6).
struct ResidualsOfParams<'h>(&'h Ht);

impl<'a> Frule<(Dual<&'a [f64], &'a [Lanes]>,), Lanes> for ResidualsOfParams<'_> {
    type Output = Dual<Vec<f64>, Vec<Lanes>>;

    fn frule(&self, (params,): (Dual<&'a [f64], &'a [Lanes]>,)) -> Self::Output {
        let h = self.0;
        // Integer slices carry zero-sized `NoTangent`s.
        let no_tangents = vec![
            NoTangent;
            h.parents
                .len()
                .max(h.triangles.len())
                .max(h.correspondences.len())
        ];
        let args = (
            params,
            Dual::new(&h.parents[..], &no_tangents[..h.parents.len()]),
            &h.base_relatives[..],
            &h.inverse_base_absolutes[..],
            &h.base_positions[..],
            &h.weights[..],
            Dual::new(h.mirrored, NoTangent),
            Dual::new(&h.triangles[..], &no_tangents[..h.triangles.len()]),
            Dual::new(
                &h.correspondences[..],
                &no_tangents[..h.correspondences.len()],
            ),
            &h.points[..],
            &h.us[..],
        );
        <residuals_packed as Frule<_, Lanes>>::frule(&residuals_packed {}, args)
    }
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let ht = Ht::from_input(input)?;
    let runs = Runs::of(input);
    match function {
        "objective" => Ok(runs.measure(|| ht.objective(), Value::from)),
        "jacobian" => Ok(runs.measure(|| ht.jacobian(), |(j, cols)| input::to_rows(&j, cols))),
        _ => Err(format!("`ht` has no function `{function}`")),
    }
}
