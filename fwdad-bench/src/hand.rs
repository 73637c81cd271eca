//! ADBench hand tracking (small model: 22 bones, 544 vertices): the residuals between
//! measured points and the skinned hand mesh, and their Jacobian in the 26 pose
//! parameters θ — `3N × 26` ("simple"), or `3N × (2 + 26)` with the barycentric
//! coordinates `u` of each correspondence ("complicated"), whose block-diagonal part is
//! compressed into 2 columns: residual `i` depends only on `uᵢ`, so all `uᵢ₀` share one
//! direction and all `uᵢ₁` another.
//!
//! Pose: per bone `R = Rz·Ry·Rx` from its Euler angles, `relative = base_relative · [R 0; 0 1]`,
//! `absolute = absolute_parent · relative`, `transform = absolute · inverse_base_absolute`,
//! vertex `= Σ_bones weight · (transform · base_position)[0..3]`, then the global rotation
//! (angle-axis `θ[0..3]`) and translation `θ[3..6]`.
//!
//! Variants: the derived rule (one pass of width 26 or 28), the hand-derived Jacobian
//! ([`jacobian_hand`]), num-dual (`DualSVec64`) and central finite differences.

#![allow(clippy::too_many_arguments)]

use fwdad::prelude::*;
use num_dual::{DualNum, DualSVec64};
use std::ops::{Add, Mul, Neg, Sub};

/// Number of pose parameters.
pub const NTHETA: usize = 26;

/// The residuals `err` (length `3N`) of the pose `theta`: simple when `us` is empty,
/// complicated otherwise (`us` holds `2N` barycentric coordinates).
///
/// Model data: `parents` (−1 for the root), `base_rel` and `inv_base_abs` (row-major 4×4
/// per bone), `base_pos` (3 per vertex), `weights` (bone-major, `nbones × nverts`),
/// `corr` (vertex, or triangle when complicated, per point), `tri` (3 vertices per
/// triangle), `points` (3 per point). The `f64` data are declared `inactive`: the rule
/// takes them as plain slices and differentiates only in `theta` and `us`.
#[derive_frule(inactive(base_rel, inv_base_abs, base_pos, weights, points))]
pub fn hand_objective(
    theta: &[f64],
    us: &[f64],
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
    let nb = parents.len();
    let nv = base_pos.len() / 3;
    // Pose parameters: 3 × (nb + 3), column c at pp[3c..3c + 3].
    let mut pp = vec![0.0; 3 * (nb + 3)];
    for r in 0..3 {
        pp[r] = theta[r];
        pp[3 + r] = 1.0;
        pp[6 + r] = theta[3 + r];
    }
    let mut it = 6;
    let mut ip = 5;
    for _finger in 0..5 {
        for joint in 2..5 {
            pp[3 * ip] = theta[it];
            it += 1;
            if joint == 2 {
                pp[3 * ip + 1] = theta[it];
                it += 1;
            }
            ip += 1;
        }
        ip += 1;
    }
    // Absolute transforms (row-major 4×4 per bone), bones in parent-first order.
    let mut abs = vec![0.0; 16 * nb];
    let mut rel = [0.0; 16];
    let mut rot = [0.0; 9];
    for b in 0..nb {
        let c = 3 * (b + 3);
        let tx = pp[c];
        let tz = pp[c + 1];
        let ty = pp[c + 2];
        let cx = tx.cos();
        let sx = tx.sin();
        let cy = ty.cos();
        let sy = ty.sin();
        let cz = tz.cos();
        let sz = tz.sin();
        // R = Rz·Ry·Rx, row-major.
        rot[0] = cz * cy;
        rot[1] = -sz * cx + cz * sy * sx;
        rot[2] = sz * sx + cz * sy * cx;
        rot[3] = sz * cy;
        rot[4] = cz * cx + sz * sy * sx;
        rot[5] = -cz * sx + sz * sy * cx;
        rot[6] = -sy;
        rot[7] = cy * sx;
        rot[8] = cy * cx;
        // relative = base_rel · [R 0; 0 1]
        for i in 0..4 {
            for j in 0..3 {
                let mut s = 0.0;
                for k in 0..3 {
                    s += base_rel[16 * b + 4 * i + k] * rot[3 * k + j];
                }
                rel[4 * i + j] = s;
            }
            rel[4 * i + 3] = base_rel[16 * b + 4 * i + 3];
        }
        let p = parents[b];
        if p < 0 {
            for e in 0..16 {
                abs[16 * b + e] = rel[e];
            }
        } else {
            let pb = p as usize;
            for i in 0..4 {
                for j in 0..4 {
                    let mut s = 0.0;
                    for k in 0..4 {
                        s += abs[16 * pb + 4 * i + k] * rel[4 * k + j];
                    }
                    abs[16 * b + 4 * i + j] = s;
                }
            }
        }
    }
    // Skinning: positions (3 per vertex) = Σ_b w(b, v) · (abs_b · inv_base_abs_b · [x; 1])[0..3].
    let mut pos = vec![0.0; 3 * nv];
    let mut tr = [0.0; 12];
    for b in 0..nb {
        for i in 0..3 {
            for j in 0..4 {
                let mut s = 0.0;
                for k in 0..4 {
                    s += abs[16 * b + 4 * i + k] * inv_base_abs[16 * b + 4 * k + j];
                }
                tr[4 * i + j] = s;
            }
        }
        for v in 0..nv {
            let w = weights[b * nv + v];
            for i in 0..3 {
                let t = tr[4 * i] * base_pos[3 * v]
                    + tr[4 * i + 1] * base_pos[3 * v + 1]
                    + tr[4 * i + 2] * base_pos[3 * v + 2]
                    + tr[4 * i + 3];
                pos[3 * v + i] += t * w;
            }
        }
    }
    // Global rotation (angle-axis θ[0..3]; identity below 1e-4) and translation.
    let norm = (theta[0] * theta[0] + theta[1] * theta[1] + theta[2] * theta[2]).sqrt();
    let mut g = [0.0; 9];
    if norm < 0.0001 {
        g[0] = 1.0;
        g[4] = 1.0;
        g[8] = 1.0;
    } else {
        let x = theta[0] / norm;
        let y = theta[1] / norm;
        let z = theta[2] / norm;
        let s = norm.sin();
        let c = norm.cos();
        g[0] = x * x + (1.0 - x * x) * c;
        g[1] = x * y * (1.0 - c) - z * s;
        g[2] = x * z * (1.0 - c) + y * s;
        g[3] = x * y * (1.0 - c) + z * s;
        g[4] = y * y + (1.0 - y * y) * c;
        g[5] = y * z * (1.0 - c) - x * s;
        g[6] = x * z * (1.0 - c) - y * s;
        g[7] = z * y * (1.0 - c) + x * s;
        g[8] = z * z + (1.0 - z * z) * c;
    }
    for v in 0..nv {
        let p0 = pos[3 * v];
        let p1 = pos[3 * v + 1];
        let p2 = pos[3 * v + 2];
        for i in 0..3 {
            pos[3 * v + i] = g[3 * i] * p0 + g[3 * i + 1] * p1 + g[3 * i + 2] * p2 + theta[3 + i];
        }
    }
    // Residuals.
    for n in 0..corr.len() {
        if us.is_empty() {
            let v = corr[n];
            for j in 0..3 {
                err[3 * n + j] = points[3 * n + j] - pos[3 * v + j];
            }
        } else {
            let t = corr[n];
            let va = tri[3 * t];
            let vb = tri[3 * t + 1];
            let vc = tri[3 * t + 2];
            let u0 = us[2 * n];
            let u1 = us[2 * n + 1];
            for j in 0..3 {
                let hp =
                    u0 * pos[3 * va + j] + u1 * pos[3 * vb + j] + (1.0 - u0 - u1) * pos[3 * vc + j];
                err[3 * n + j] = points[3 * n + j] - hp;
            }
        }
    }
}

/// Generic for num-dual: [`hand_objective`] with the model as plain data.
pub fn hand_objective_nd<D: DualNum<Primitive = f64> + Copy>(
    theta: &[D],
    us: &[D],
    m: &Instance,
    err: &mut [D],
) {
    let nb = m.parents.len();
    let nv = m.base_pos.len() / 3;
    let zero = D::from(0.0);
    let mut pp = vec![zero; 3 * (nb + 3)];
    for r in 0..3 {
        pp[r] = theta[r];
        pp[3 + r] = D::from(1.0);
        pp[6 + r] = theta[3 + r];
    }
    let (mut it, mut ip) = (6, 5);
    for _finger in 0..5 {
        for joint in 2..5 {
            pp[3 * ip] = theta[it];
            it += 1;
            if joint == 2 {
                pp[3 * ip + 1] = theta[it];
                it += 1;
            }
            ip += 1;
        }
        ip += 1;
    }
    let mut abs = vec![zero; 16 * nb];
    let mut rel = [zero; 16];
    for b in 0..nb {
        let c = 3 * (b + 3);
        let (tx, tz, ty) = (pp[c], pp[c + 1], pp[c + 2]);
        let (sx, cx) = tx.sin_cos();
        let (sy, cy) = ty.sin_cos();
        let (sz, cz) = tz.sin_cos();
        let rot = euler_rotation((sx, cx), (sy, cy), (sz, cz));
        let br = &m.base_rel[16 * b..16 * b + 16];
        for i in 0..4 {
            for j in 0..3 {
                let mut s = zero;
                for k in 0..3 {
                    s += rot[3 * k + j] * br[4 * i + k];
                }
                rel[4 * i + j] = s;
            }
            rel[4 * i + 3] = D::from(br[4 * i + 3]);
        }
        if m.parents[b] < 0 {
            abs[16 * b..16 * b + 16].copy_from_slice(&rel);
        } else {
            let pb = m.parents[b] as usize;
            for i in 0..4 {
                for j in 0..4 {
                    let mut s = zero;
                    for k in 0..4 {
                        s += abs[16 * pb + 4 * i + k] * rel[4 * k + j];
                    }
                    abs[16 * b + 4 * i + j] = s;
                }
            }
        }
    }
    let mut pos = vec![zero; 3 * nv];
    let mut tr = [zero; 12];
    for b in 0..nb {
        let ib = &m.inv_base_abs[16 * b..16 * b + 16];
        for i in 0..3 {
            for j in 0..4 {
                let mut s = zero;
                for k in 0..4 {
                    s += abs[16 * b + 4 * i + k] * ib[4 * k + j];
                }
                tr[4 * i + j] = s;
            }
        }
        for v in 0..nv {
            let w = m.weights[b * nv + v];
            let bp = &m.base_pos[3 * v..3 * v + 3];
            for i in 0..3 {
                let t = tr[4 * i] * bp[0]
                    + tr[4 * i + 1] * bp[1]
                    + tr[4 * i + 2] * bp[2]
                    + tr[4 * i + 3];
                pos[3 * v + i] += t * w;
            }
        }
    }
    let norm = (theta[0] * theta[0] + theta[1] * theta[1] + theta[2] * theta[2]).sqrt();
    let one = D::from(1.0);
    let g = if norm.re() < 0.0001 {
        [one, zero, zero, zero, one, zero, zero, zero, one]
    } else {
        let (x, y, z) = (theta[0] / norm, theta[1] / norm, theta[2] / norm);
        let (s, c) = norm.sin_cos();
        let omc = one - c;
        [
            x * x + (one - x * x) * c,
            x * y * omc - z * s,
            x * z * omc + y * s,
            x * y * omc + z * s,
            y * y + (one - y * y) * c,
            y * z * omc - x * s,
            x * z * omc - y * s,
            z * y * omc + x * s,
            z * z + (one - z * z) * c,
        ]
    };
    for v in 0..nv {
        let p = [pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]];
        for i in 0..3 {
            pos[3 * v + i] =
                g[3 * i] * p[0] + g[3 * i + 1] * p[1] + g[3 * i + 2] * p[2] + theta[3 + i];
        }
    }
    for n in 0..m.corr.len() {
        if us.is_empty() {
            let v = m.corr[n];
            for j in 0..3 {
                err[3 * n + j] = -pos[3 * v + j] + m.points[3 * n + j];
            }
        } else {
            let t = m.corr[n];
            let (va, vb, vc) = (m.tri[3 * t], m.tri[3 * t + 1], m.tri[3 * t + 2]);
            let (u0, u1) = (us[2 * n], us[2 * n + 1]);
            for j in 0..3 {
                let hp =
                    u0 * pos[3 * va + j] + u1 * pos[3 * vb + j] + (one - u0 - u1) * pos[3 * vc + j];
                err[3 * n + j] = -hp + m.points[3 * n + j];
            }
        }
    }
}

// --- hand-derived Jacobian -------------------------------------------------------------

type M4 = [f64; 16];

fn mm4(a: &M4, b: &M4) -> M4 {
    let mut c = [0.0; 16];
    for i in 0..4 {
        for j in 0..4 {
            c[4 * i + j] = a[4 * i] * b[j]
                + a[4 * i + 1] * b[4 + j]
                + a[4 * i + 2] * b[8 + j]
                + a[4 * i + 3] * b[12 + j];
        }
    }
    c
}

fn m4(v: &[f64]) -> M4 {
    let mut m = [0.0; 16];
    m.copy_from_slice(&v[..16]);
    m
}

/// `R = Rz·Ry·Rx` (row-major, as in [`hand_objective`](fn@hand_objective)) from the
/// `(sin, cos)` of `tx`, `ty` and `tz`, for any number type: one formula for the num-dual
/// objective and the hand-written partials.
#[inline]
fn euler_rotation<T>((sx, cx): (T, T), (sy, cy): (T, T), (sz, cz): (T, T)) -> [T; 9]
where
    T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T> + Neg<Output = T>,
{
    [
        cz * cy,
        -sz * cx + cz * sy * sx,
        sz * sx + cz * sy * cx,
        sz * cy,
        cz * cx + sz * sy * sx,
        -cz * sx + sz * sy * cx,
        -sy,
        cy * sx,
        cy * cx,
    ]
}

/// `R = Rz·Ry·Rx` (row-major, as in [`hand_objective`](fn@hand_objective))
/// and, per entry, its partial derivatives in `(tx, tz, ty)`. (The objective's pose layout
/// always gives `ty = 0` with a zero tangent; its partials are still propagated, as the
/// rule propagates them.) Shared by both hand-written Jacobians.
#[inline]
pub(crate) fn euler_partials(tx: f64, tz: f64, ty: f64) -> ([f64; 9], [[f64; 3]; 9]) {
    let (sx, cx) = tx.sin_cos();
    let (sy, cy) = ty.sin_cos();
    let (sz, cz) = tz.sin_cos();
    let rot = euler_rotation((sx, cx), (sy, cy), (sz, cz));
    let partials = [
        [0.0, -sz * cy, -cz * sy],
        [
            sz * sx + cz * sy * cx,
            -cz * cx - sz * sy * sx,
            cz * cy * sx,
        ],
        [sz * cx - cz * sy * sx, cz * sx - sz * sy * cx, cz * cy * cx],
        [0.0, cz * cy, -sz * sy],
        [
            -cz * sx + sz * sy * cx,
            -sz * cx + cz * sy * sx,
            sz * cy * sx,
        ],
        [
            -cz * cx - sz * sy * sx,
            sz * sx + cz * sy * cx,
            sz * cy * cx,
        ],
        [0.0, 0.0, -cy],
        [cy * cx, 0.0, -sy * sx],
        [-cy * sx, 0.0, -sy * cx],
    ];
    (rot, partials)
}

/// [`euler_partials`]' `R` and its derivatives in `tx` and `tz`, embedded as 4×4 (zero last
/// row and column for the derivatives, `[R 0; 0 1]` for `R`).
fn euler(tx: f64, tz: f64, ty: f64) -> (M4, M4, M4) {
    let (rot, partials) = euler_partials(tx, tz, ty);
    let (mut r, mut dx, mut dz) = ([0.0; 16], [0.0; 16], [0.0; 16]);
    for i in 0..3 {
        for j in 0..3 {
            r[4 * i + j] = rot[3 * i + j];
            dx[4 * i + j] = partials[3 * i + j][0];
            dz[4 * i + j] = partials[3 * i + j][1];
        }
    }
    r[15] = 1.0;
    (r, dx, dz)
}

/// The residuals and their hand-derived Jacobian (column-major, `u` columns first when
/// complicated, like [`jacobian_rule`]), from the math:
///
/// * a finger parameter `θₜ` moves its bone `b` and its descendants:
///   `∂abs_b = ∂abs_parent · rel_b + abs_parent · base_rel_b · [∂R_b 0; 0 0]`, with `∂R`
///   from `Rz·Ry·∂Rx` or `∂Rz·Ry·Rx`; `∂T_b = ∂abs_b · inverse_base_absolute_b`;
/// * `∂vertex = G · Σ_b w_b ∂T_b [x; 1]` over the bones weighting the vertex (sparse);
/// * the global rotation: `∂(G p)/∂r = -G [p]× (r rᵀ + (Gᵀ - I)[r]×) / |r|²` (zero below
///   the threshold where `G = I`), the translation: the identity;
/// * the residual is minus the (interpolated) vertex; `∂/∂uᵢ₀ = -(V_a - V_c)`,
///   `∂/∂uᵢ₁ = -(V_b - V_c)`.
///
/// Only the vertices the points use are differentiated; `err` gets all residuals.
pub fn jacobian_hand(inst: &Instance, err: &mut [f64], jac: &mut [f64]) {
    inst.objective(err);
    let nb = inst.parents.len();
    let nv = inst.base_pos.len() / 3;
    let th = &inst.theta;
    // θ index of each bone's x and z angles (the pose-parameter layout of the objective).
    let mut own: Vec<[Option<usize>; 2]> = vec![[None, None]; nb];
    let (mut it, mut ip) = (6, 5);
    for _finger in 0..5 {
        for joint in 2..5 {
            own[ip - 3][0] = Some(it);
            it += 1;
            if joint == 2 {
                own[ip - 3][1] = Some(it);
                it += 1;
            }
            ip += 1;
        }
        ip += 1;
    }
    // Forward kinematics with derivatives: dabs[b][t] for the finger parameters t.
    let mut abs: Vec<M4> = Vec::with_capacity(nb);
    let mut dabs: Vec<Vec<Option<M4>>> = vec![vec![None; NTHETA]; nb];
    let mut tr: Vec<M4> = Vec::with_capacity(nb);
    let mut dtr: Vec<Vec<(usize, M4)>> = vec![Vec::new(); nb];
    for b in 0..nb {
        let angle = |k: Option<usize>| k.map_or(0.0, |t| th[t]);
        let (r, drx, drz) = euler(angle(own[b][0]), angle(own[b][1]), 0.0);
        let br = m4(&inst.base_rel[16 * b..]);
        let rel = mm4(&br, &r);
        let parent = inst.parents[b];
        let (a, pabs) = if parent < 0 {
            (rel, None)
        } else {
            let p = parent as usize;
            (mm4(&abs[p], &rel), Some(p))
        };
        if let Some(p) = pabs {
            for t in 6..NTHETA {
                if let Some(dp) = dabs[p][t] {
                    dabs[b][t] = Some(mm4(&dp, &rel));
                }
            }
        }
        for (k, dr) in [(0, drx), (1, drz)] {
            if let Some(t) = own[b][k] {
                let d = mm4(&br, &dr);
                dabs[b][t] = Some(match pabs {
                    Some(p) => mm4(&abs[p], &d),
                    None => d,
                });
            }
        }
        let iba = m4(&inst.inv_base_abs[16 * b..]);
        tr.push(mm4(&a, &iba));
        for t in 6..NTHETA {
            if let Some(d) = dabs[b][t] {
                dtr[b].push((t, mm4(&d, &iba)));
            }
        }
        abs.push(a);
    }
    // Global rotation G and the factor of its derivative.
    let r = [th[0], th[1], th[2]];
    let sq = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    let norm = sq.sqrt();
    let mut g = [[0.0; 3]; 3];
    let rotating = norm >= 0.0001;
    if rotating {
        let w = [r[0] / norm, r[1] / norm, r[2] / norm];
        let (s, c) = norm.sin_cos();
        let wx = [[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]];
        for i in 0..3 {
            for j in 0..3 {
                g[i][j] = if i == j { c } else { 0.0 } + s * wx[i][j] + (1.0 - c) * w[i] * w[j];
            }
        }
    } else {
        g = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    }
    // M = (r rᵀ + (Gᵀ - I)[r]×) / |r|²: ∂(G p)/∂r = -G [p]× M.
    let mut mfac = [[0.0; 3]; 3];
    if rotating {
        let rx = [[0.0, -r[2], r[1]], [r[2], 0.0, -r[0]], [-r[1], r[0], 0.0]];
        for i in 0..3 {
            for j in 0..3 {
                let mut t = r[i] * r[j];
                for l in 0..3 {
                    t += (g[l][i] - if l == i { 1.0 } else { 0.0 }) * rx[l][j];
                }
                mfac[i][j] = t / sq;
            }
        }
    }
    // Vertex derivatives: d[t] (3 each) of one vertex, before and after G.
    let vertex_jac = |v: usize| -> ([f64; 3], [[f64; 3]; NTHETA]) {
        let bp = [
            inst.base_pos[3 * v],
            inst.base_pos[3 * v + 1],
            inst.base_pos[3 * v + 2],
            1.0,
        ];
        let mut local = [0.0; 3];
        let mut dl = [[0.0; 3]; NTHETA];
        for b in 0..nb {
            let w = inst.weights[b * nv + v];
            if w == 0.0 {
                continue;
            }
            for i in 0..3 {
                local[i] += w
                    * (tr[b][4 * i] * bp[0]
                        + tr[b][4 * i + 1] * bp[1]
                        + tr[b][4 * i + 2] * bp[2]
                        + tr[b][4 * i + 3]);
            }
            for (t, d) in &dtr[b] {
                for i in 0..3 {
                    dl[*t][i] += w
                        * (d[4 * i] * bp[0]
                            + d[4 * i + 1] * bp[1]
                            + d[4 * i + 2] * bp[2]
                            + d[4 * i + 3]);
                }
            }
        }
        let mut dv = [[0.0; 3]; NTHETA];
        for t in 6..NTHETA {
            for i in 0..3 {
                dv[t][i] = g[i][0] * dl[t][0] + g[i][1] * dl[t][1] + g[i][2] * dl[t][2];
            }
        }
        // -G [p]× M, p = local.
        let px = [
            [0.0, -local[2], local[1]],
            [local[2], 0.0, -local[0]],
            [-local[1], local[0], 0.0],
        ];
        for j in 0..3 {
            for i in 0..3 {
                let mut s = 0.0;
                for a in 0..3 {
                    let mut gp = 0.0;
                    for l in 0..3 {
                        gp += g[i][l] * px[l][a];
                    }
                    s += gp * mfac[a][j];
                }
                dv[j][i] = -s;
            }
            dv[3 + j][j] = 1.0;
        }
        let mut pos = [0.0; 3];
        for i in 0..3 {
            pos[i] = g[i][0] * local[0] + g[i][1] * local[1] + g[i][2] * local[2] + th[3 + i];
        }
        (pos, dv)
    };
    let rows = inst.nerr();
    let off = if inst.complicated() { 2 } else { 0 };
    for n in 0..inst.corr.len() {
        if inst.complicated() {
            let t = inst.corr[n];
            let (pa, da) = vertex_jac(inst.tri[3 * t]);
            let (pb, db) = vertex_jac(inst.tri[3 * t + 1]);
            let (pc, dc) = vertex_jac(inst.tri[3 * t + 2]);
            let (u0, u1) = (inst.us[2 * n], inst.us[2 * n + 1]);
            let u2 = 1.0 - u0 - u1;
            for j in 0..3 {
                let row = 3 * n + j;
                jac[row] = -(pa[j] - pc[j]);
                jac[rows + row] = -(pb[j] - pc[j]);
                for t in 0..NTHETA {
                    jac[(off + t) * rows + row] = -(u0 * da[t][j] + u1 * db[t][j] + u2 * dc[t][j]);
                }
            }
        } else {
            let (_, d) = vertex_jac(inst.corr[n]);
            for j in 0..3 {
                for t in 0..NTHETA {
                    jac[t * rows + 3 * n + j] = -d[t][j];
                }
            }
        }
    }
}

// --- instances --------------------------------------------------------------------------

/// A hand-tracking instance: model, correspondences, points, pose and (complicated) `u`s.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Parent of each bone (−1 for the root).
    pub parents: Vec<i64>,
    /// Row-major 4×4 base relative transform per bone.
    pub base_rel: Vec<f64>,
    /// Row-major 4×4 inverse base absolute transform per bone.
    pub inv_base_abs: Vec<f64>,
    /// Vertex positions, 3 per vertex.
    pub base_pos: Vec<f64>,
    /// Skinning weights, `nbones × nverts`.
    pub weights: Vec<f64>,
    /// Triangles, 3 vertices each.
    pub tri: Vec<usize>,
    /// Vertex (simple) or triangle (complicated) of each point.
    pub corr: Vec<usize>,
    /// Measured points, 3 each.
    pub points: Vec<f64>,
    /// The pose.
    pub theta: Vec<f64>,
    /// Barycentric coordinates, 2 per point (empty when simple).
    pub us: Vec<f64>,
}

impl Instance {
    /// Number of residuals (`3N`).
    pub fn nerr(&self) -> usize {
        3 * self.corr.len()
    }

    /// Whether the instance has `u`s.
    pub fn complicated(&self) -> bool {
        !self.us.is_empty()
    }

    /// Reads `hand/<variant>/model/*` and `hand/<variant>/<file>`, when present.
    pub fn load(variant: &str, file: &str) -> Option<Instance> {
        let bones = crate::data::read(&format!("hand/{variant}/model/bones.txt"))?;
        let verts = crate::data::read(&format!("hand/{variant}/model/vertices.txt"))?;
        let tris = crate::data::read(&format!("hand/{variant}/model/triangles.txt"))?;
        let input = crate::data::read(&format!("hand/{variant}/{file}"))?;
        let mut inst = Instance {
            parents: Vec::new(),
            base_rel: Vec::new(),
            inv_base_abs: Vec::new(),
            base_pos: Vec::new(),
            weights: Vec::new(),
            tri: Vec::new(),
            corr: Vec::new(),
            points: Vec::new(),
            theta: Vec::new(),
            us: Vec::new(),
        };
        for line in bones.lines().filter(|l| !l.trim().is_empty()) {
            let f: Vec<&str> = line.split(':').collect();
            inst.parents.push(f[1].trim().parse().expect("parent"));
            let v = crate::data::numbers(&f[2..34].join(" "));
            inst.base_rel.extend_from_slice(&v[..16]);
            inst.inv_base_abs.extend_from_slice(&v[16..32]);
        }
        let nb = inst.parents.len();
        let vlines: Vec<&str> = verts.lines().filter(|l| !l.trim().is_empty()).collect();
        let nv = vlines.len();
        inst.weights = vec![0.0; nb * nv];
        for (v, line) in vlines.iter().enumerate() {
            let x = crate::data::numbers(line);
            inst.base_pos.extend_from_slice(&x[..3]);
            let n = x[8] as usize;
            for k in 0..n {
                let (b, w) = (x[9 + 2 * k] as usize, x[10 + 2 * k]);
                inst.weights[b * nv + v] = w;
            }
        }
        inst.tri = crate::data::numbers(&tris)
            .iter()
            .map(|&t| t as usize)
            .collect();
        let x = crate::data::numbers(&input);
        let (n, nt) = (x[0] as usize, x[1] as usize);
        for i in 0..n {
            inst.corr.push(x[2 + 4 * i] as usize);
            inst.points.extend_from_slice(&x[3 + 4 * i..6 + 4 * i]);
        }
        let rest = &x[2 + 4 * n..];
        let complicated = rest.len() == nt + 2 * n;
        if complicated {
            inst.us = rest[..2 * n].to_vec();
        }
        inst.theta = rest[rest.len() - nt..].to_vec();
        Some(inst)
    }

    /// A generated instance with the small model's shape (22 bones in five 4-bone fingers,
    /// random rigid transforms and weights): for a fresh clone without the data.
    pub fn generate(nverts: usize, npoints: usize, complicated: bool, seed: u64) -> Instance {
        let mut r = crate::rng::Rng::new(seed);
        let mut parents = vec![-1i64];
        for f in 0..5 {
            for j in 0..4 {
                parents.push(if j == 0 {
                    0
                } else {
                    (1 + 4 * f + j - 1) as i64
                });
            }
        }
        parents.push(0);
        let nb = parents.len();
        let mut base_rel = Vec::new();
        let mut inv_base_abs = Vec::new();
        for _ in 0..nb {
            for m in [&mut base_rel, &mut inv_base_abs] {
                let (a, b, c) = (
                    r.uniform(-1.0, 1.0),
                    r.uniform(-1.0, 1.0),
                    r.uniform(-1.0, 1.0),
                );
                let (sa, ca) = f64::sin_cos(a);
                let (sb, cb) = f64::sin_cos(b);
                let (sc, cc) = f64::sin_cos(c);
                m.extend_from_slice(&[
                    ca * cb,
                    ca * sb * sc - sa * cc,
                    ca * sb * cc + sa * sc,
                    r.uniform(-0.05, 0.05),
                    sa * cb,
                    sa * sb * sc + ca * cc,
                    sa * sb * cc - ca * sc,
                    r.uniform(-0.05, 0.05),
                    -sb,
                    cb * sc,
                    cb * cc,
                    r.uniform(-0.05, 0.05),
                    0.0,
                    0.0,
                    0.0,
                    1.0,
                ]);
            }
        }
        let base_pos = r.vec(3 * nverts, -0.1, 0.1);
        let mut weights = vec![0.0; nb * nverts];
        for v in 0..nverts {
            let (b1, b2) = (
                (r.next_u64() % nb as u64) as usize,
                (r.next_u64() % nb as u64) as usize,
            );
            let w = r.uniform(0.0, 1.0);
            weights[b1 * nverts + v] += w;
            weights[b2 * nverts + v] += 1.0 - w;
        }
        let ntri = nverts * 2;
        let tri: Vec<usize> = (0..3 * ntri)
            .map(|_| (r.next_u64() % nverts as u64) as usize)
            .collect();
        let range = if complicated { ntri } else { nverts } as u64;
        let corr: Vec<usize> = (0..npoints)
            .map(|_| (r.next_u64() % range) as usize)
            .collect();
        Instance {
            parents,
            base_rel,
            inv_base_abs,
            base_pos,
            weights,
            tri,
            corr,
            points: r.vec(3 * npoints, -1.0, 1.0),
            theta: r.vec(NTHETA, -0.5, 0.5),
            us: if complicated {
                r.vec(2 * npoints, 0.0, 0.5)
            } else {
                Vec::new()
            },
        }
    }

    /// The residuals.
    pub fn objective(&self, err: &mut [f64]) {
        hand_objective(
            &self.theta,
            &self.us,
            &self.parents,
            &self.base_rel,
            &self.inv_base_abs,
            &self.base_pos,
            &self.weights,
            &self.corr,
            &self.tri,
            &self.points,
            err,
        );
    }

    /// The residuals of the pose `theta` (for finite differences).
    pub fn objective_at(&self, theta: &[f64], us: &[f64], err: &mut [f64]) {
        hand_objective(
            theta,
            us,
            &self.parents,
            &self.base_rel,
            &self.inv_base_abs,
            &self.base_pos,
            &self.weights,
            &self.corr,
            &self.tri,
            &self.points,
            err,
        );
    }
}

/// Work space of the derived Jacobian: the seeds and the (zero) tangents of the model
/// data, which `#[derive_frule]` treats as active `f64` inputs.
pub struct RuleWork<const L: usize> {
    seeds: Vec<Batch<f64, L>>,
    useeds: Vec<Batch<f64, L>>,
    err: Vec<f64>,
    derr: Vec<Batch<f64, L>>,
}

impl<const L: usize> RuleWork<L> {
    /// Work space for `inst`: `θ` seeded in lanes `L - 26..L`, the `u`s (complicated, `L =
    /// 28`) compressed into lanes 0 and 1.
    pub fn new(inst: &Instance) -> Self {
        let off = L - NTHETA;
        RuleWork {
            seeds: (0..NTHETA).map(|k| Batch::unit(off + k)).collect(),
            useeds: (0..inst.us.len()).map(|k| Batch::unit(k % 2)).collect(),
            err: vec![0.0; inst.nerr()],
            derr: vec![Batch::default(); inst.nerr()],
        }
    }
}

/// The Jacobian by the derived rule in one pass of `L` lanes (26 simple, 28
/// complicated), written column-major like ADBench's (`jac[col * 3N + row]`).
pub fn jacobian_rule<const L: usize>(inst: &Instance, w: &mut RuleWork<L>, jac: &mut [f64]) {
    <hand_objective as Frule<_, Batch<f64, L>>>::frule(
        &hand_objective {},
        (
            Dual::new(&inst.theta[..], &w.seeds[..]),
            Dual::new(&inst.us[..], &w.useeds[..]),
            Dual::new(&inst.parents[..], &[NoTangent; 0][..]),
            &inst.base_rel[..],
            &inst.inv_base_abs[..],
            &inst.base_pos[..],
            &inst.weights[..],
            Dual::new(&inst.corr[..], &[NoTangent; 0][..]),
            Dual::new(&inst.tri[..], &[NoTangent; 0][..]),
            &inst.points[..],
            Dual::new(&mut w.err[..], &mut w.derr[..]),
        ),
    );
    let rows = w.err.len();
    for (r, d) in w.derr.iter().enumerate() {
        for l in 0..L {
            jac[l * rows + r] = d.0[l];
        }
    }
}

/// The Jacobian by num-dual with `L` lanes (same seeding as [`jacobian_rule`]).
pub fn jacobian_nd<const L: usize>(inst: &Instance, jac: &mut [f64]) {
    type D<const L: usize> = DualSVec64<L>;
    let off = L - NTHETA;
    let theta: Vec<D<L>> = (0..NTHETA)
        .map(|k| D::<L>::from_re(inst.theta[k]).derivative(off + k))
        .collect();
    let us: Vec<D<L>> = (0..inst.us.len())
        .map(|k| D::<L>::from_re(inst.us[k]).derivative(k % 2))
        .collect();
    let mut err = vec![D::<L>::from_re(0.0); inst.nerr()];
    hand_objective_nd(&theta, &us, inst, &mut err);
    let rows = err.len();
    for (r, e) in err.iter().enumerate() {
        let d = e.eps.unwrap_generic(nalgebra::Const::<L>, nalgebra::U1);
        for l in 0..L {
            jac[l * rows + r] = d[l];
        }
    }
}

/// The Jacobian by central differences (`2·26` evaluations, plus `2·2` with the `u`
/// columns compressed), column-major with the `u` columns first when complicated.
pub fn jacobian_fd(
    inst: &Instance,
    theta: &mut [f64],
    us: &mut [f64],
    ep: &mut [f64],
    em: &mut [f64],
    jac: &mut [f64],
) {
    let rows = inst.nerr();
    let off = if inst.complicated() { 2 } else { 0 };
    theta.copy_from_slice(&inst.theta);
    us.copy_from_slice(&inst.us);
    for k in 0..NTHETA {
        let h = crate::fd::step(&inst.theta[k..k + 1]);
        theta[k] = inst.theta[k] + h;
        inst.objective_at(theta, us, ep);
        theta[k] = inst.theta[k] - h;
        inst.objective_at(theta, us, em);
        theta[k] = inst.theta[k];
        for r in 0..rows {
            jac[(off + k) * rows + r] = (ep[r] - em[r]) / (2.0 * h);
        }
    }
    for c in 0..off {
        let h = f64::EPSILON.cbrt();
        for (i, u) in us.iter_mut().enumerate() {
            if i % 2 == c {
                *u = inst.us[i] + h;
            }
        }
        inst.objective_at(theta, us, ep);
        for (i, u) in us.iter_mut().enumerate() {
            if i % 2 == c {
                *u = inst.us[i] - h;
            }
        }
        inst.objective_at(theta, us, em);
        us.copy_from_slice(&inst.us);
        for r in 0..rows {
            jac[c * rows + r] = (ep[r] - em[r]) / (2.0 * h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_close, assert_close_tol, FD_TOL};

    fn check(inst: &Instance) {
        let rows = inst.nerr();
        let mut err = vec![0.0; rows];
        inst.objective(&mut err);
        let mut ndj;
        let mut rj;
        if inst.complicated() {
            ndj = vec![0.0; rows * 28];
            rj = vec![0.0; rows * 28];
            jacobian_nd::<28>(inst, &mut ndj);
            jacobian_rule::<28>(inst, &mut RuleWork::new(inst), &mut rj);
        } else {
            ndj = vec![0.0; rows * 26];
            rj = vec![0.0; rows * 26];
            jacobian_nd::<26>(inst, &mut ndj);
            jacobian_rule::<26>(inst, &mut RuleWork::new(inst), &mut rj);
        }
        assert_close("hand rule vs num-dual", &rj, &ndj);
        let mut hj = vec![0.0; rj.len()];
        let mut herr = vec![0.0; rows];
        jacobian_hand(inst, &mut herr, &mut hj);
        assert_eq!(herr, err);
        assert_close("hand rule vs hand-derived", &rj, &hj);
        let mut fj = vec![0.0; rj.len()];
        let (mut t, mut u) = (inst.theta.clone(), inst.us.clone());
        let (mut ep, mut em) = (vec![0.0; rows], vec![0.0; rows]);
        jacobian_fd(inst, &mut t, &mut u, &mut ep, &mut em, &mut fj);
        assert_close_tol("hand fd", &fj, &rj, FD_TOL);
    }

    #[test]
    fn simple_jacobians_agree() {
        check(&Instance::generate(40, 10, false, 3));
    }

    #[test]
    fn complicated_jacobians_agree() {
        check(&Instance::generate(40, 10, true, 4));
    }

    #[test]
    fn jacobians_agree_without_global_rotation() {
        let mut inst = Instance::generate(40, 10, true, 5);
        inst.theta[..3].fill(0.0);
        check(&inst);
    }
}
