//! Hand tracking: the dense Jacobian by hand-written batched forward propagation — the
//! same algorithm the derived rule runs, written by hand.
//!
//! [`jacobian_hand_dense`] pushes `L` tangent lanes, seeded as in
//! [`hand::jacobian_rule`] (`θ` in lanes `L - 26..L`, the `u`s compressed into lanes 0
//! and 1), through exactly the loops of the objective,
//! [`hand::hand_objective`](fn@hand::hand_objective): every bone, every vertex
//! (multiplying the zero skinning weights too), the same global rotation with its `1e-4`
//! threshold, the same residuals. Each primal statement gets one tangent statement
//! derived by hand (product rule, `d sin = cos·dx`, the derivative of the angle-axis
//! normalisation, ...), written as one fused loop over the lanes of `[f64; L]` arrays.
//! The model data (`base_rel`, `inv_base_abs`, `base_pos`, `weights`, `points`) are
//! constants and carry no tangents, as they are `inactive` for the rule. The `θ`
//! tangents are treated as general `L`-lane vectors: nothing exploits that the seeds are
//! unit vectors or that a bone depends on only a few parameters.
//!
//! Why it exists: it is the same-algorithm baseline (like
//! [`optim::rosenbrock_jvp_hand`](crate::optim::rosenbrock_jvp_hand)), so derived rule ÷
//! this is the AD overhead on this kernel. The sparse hand-derived
//! [`hand::jacobian_hand`] differentiates only the vertices the points use, through the
//! bones that weight them, with per-bone parameter lists: the rule's ratio to it also
//! measures that choice of algorithm.

use crate::hand::{self, NTHETA};

/// Every buffer [`jacobian_hand_dense`] needs, so that a call allocates nothing.
///
/// The primal buffers mirror the `vec!`s of
/// [`hand::hand_objective`](fn@hand::hand_objective); each has its tangent buffer beside
/// it (one `[f64; L]` per scalar).
pub struct DenseWork<const L: usize> {
    /// Seeds of `θ`: `θₖ` is the unit vector of lane `L - 26 + k`.
    dtheta: Vec<[f64; L]>,
    /// Seeds of the `u`s (complicated): `uᵢ` is the unit vector of lane `i % 2`.
    dus: Vec<[f64; L]>,
    /// Pose parameters, `3 × (nbones + 3)`, and their tangents.
    pp: Vec<f64>,
    dpp: Vec<[f64; L]>,
    /// Absolute transforms (row-major 4×4 per bone) and their tangents.
    abs: Vec<[f64; 16]>,
    dabs: Vec<[[f64; L]; 16]>,
    /// Vertex positions and their tangents.
    pos: Vec<[f64; 3]>,
    dpos: Vec<[[f64; L]; 3]>,
    /// Residuals and their tangents (transposed into the column-major Jacobian).
    err: Vec<f64>,
    derr: Vec<[f64; L]>,
}

impl<const L: usize> DenseWork<L> {
    /// Work space for `inst`, seeded like [`hand::RuleWork`]: `θ` in lanes `L - 26..L`,
    /// the `u`s (complicated, `L = 28`) compressed into lanes 0 and 1.
    ///
    /// # Panics
    /// If `L < 26`.
    pub fn new(inst: &hand::Instance) -> Self {
        assert!(
            L >= NTHETA,
            "L = {L} lanes cannot hold the {NTHETA} θ seeds"
        );
        let unit = |lane: usize| {
            let mut v = [0.0; L];
            v[lane] = 1.0;
            v
        };
        let off = L - NTHETA;
        let nb = inst.parents.len();
        let nv = inst.base_pos.len() / 3;
        DenseWork {
            dtheta: (0..NTHETA).map(|k| unit(off + k)).collect(),
            dus: (0..inst.us.len()).map(|i| unit(i % 2)).collect(),
            pp: vec![0.0; 3 * (nb + 3)],
            dpp: vec![[0.0; L]; 3 * (nb + 3)],
            abs: vec![[0.0; 16]; nb],
            dabs: vec![[[0.0; L]; 16]; nb],
            pos: vec![[0.0; 3]; nv],
            dpos: vec![[[0.0; L]; 3]; nv],
            err: vec![0.0; inst.nerr()],
            derr: vec![[0.0; L]; inst.nerr()],
        }
    }

    /// The residuals of the last [`jacobian_hand_dense`] call.
    pub fn err(&self) -> &[f64] {
        &self.err
    }
}

/// The Jacobian by hand-written batched forward propagation of `L` lanes (26 simple, 28
/// complicated) through the loops of
/// [`hand::hand_objective`](fn@hand::hand_objective), written column-major like
/// [`hand::jacobian_rule`] (`jac[lane * 3N + row]`); the residuals are left in
/// [`DenseWork::err`]. See the module documentation for what it is a baseline of.
///
/// # Panics
/// If `w` was made for an instance of another shape, `jac` is shorter than `L · 3N`, or
/// the bones are not in parent-first order (which the objective assumes).
pub fn jacobian_hand_dense<const L: usize>(
    inst: &hand::Instance,
    w: &mut DenseWork<L>,
    jac: &mut [f64],
) {
    let th = &inst.theta[..];
    let dth = &w.dtheta[..];
    let nb = inst.parents.len();
    let nv = inst.base_pos.len() / 3;
    assert!(w.pp.len() == 3 * (nb + 3) && w.pos.len() == nv && w.err.len() == inst.nerr());

    // Pose parameters (constant 1 in column 1: zero tangent).
    let (pp, dpp) = (&mut w.pp[..], &mut w.dpp[..]);
    pp.fill(0.0);
    dpp.fill([0.0; L]);
    for r in 0..3 {
        pp[r] = th[r];
        dpp[r] = dth[r];
        pp[3 + r] = 1.0;
        pp[6 + r] = th[3 + r];
        dpp[6 + r] = dth[3 + r];
    }
    let mut it = 6;
    let mut ip = 5;
    for _finger in 0..5 {
        for joint in 2..5 {
            pp[3 * ip] = th[it];
            dpp[3 * ip] = dth[it];
            it += 1;
            if joint == 2 {
                pp[3 * ip + 1] = th[it];
                dpp[3 * ip + 1] = dth[it];
                it += 1;
            }
            ip += 1;
        }
        ip += 1;
    }

    // Absolute transforms. `rel`'s last column is `base_rel`'s (constant), so `drel`
    // holds only columns 0..3, at `drel[3 * row + col]`.
    let mut drot = [[0.0; L]; 9];
    let mut rel = [0.0; 16];
    let mut drel = [[0.0; L]; 12];
    for b in 0..nb {
        let c = 3 * (b + 3);
        let (tx, tz, ty) = (pp[c], pp[c + 1], pp[c + 2]);
        let (dtx, dtz, dty) = (&dpp[c], &dpp[c + 1], &dpp[c + 2]);
        // drot = ∂R/∂x·dtx + ∂R/∂z·dtz + ∂R/∂y·dty.
        let (rot, partials) = hand::euler_partials(tx, tz, ty);
        for (d, &[px, pz, py]) in drot.iter_mut().zip(&partials) {
            for k in 0..L {
                d[k] = px * dtx[k] + pz * dtz[k] + py * dty[k];
            }
        }
        // relative = base_rel · [R 0; 0 1]
        let br = &inst.base_rel[16 * b..16 * b + 16];
        for i in 0..4 {
            let (b0, b1, b2) = (br[4 * i], br[4 * i + 1], br[4 * i + 2]);
            for j in 0..3 {
                rel[4 * i + j] = b0 * rot[j] + b1 * rot[3 + j] + b2 * rot[6 + j];
                let (r0, r1, r2) = (&drot[j], &drot[3 + j], &drot[6 + j]);
                let d = &mut drel[3 * i + j];
                for k in 0..L {
                    d[k] = b0 * r0[k] + b1 * r1[k] + b2 * r2[k];
                }
            }
            rel[4 * i + 3] = br[4 * i + 3];
        }
        // absolute = absolute_parent · relative (root: relative).
        let p = inst.parents[b];
        let (done, rest) = w.dabs.split_at_mut(b);
        let da = &mut rest[0];
        if p < 0 {
            w.abs[b] = rel;
            for i in 0..4 {
                for j in 0..3 {
                    da[4 * i + j] = drel[3 * i + j];
                }
                da[4 * i + 3] = [0.0; L];
            }
        } else {
            let pb = p as usize;
            let a = w.abs[pb];
            let dpa = &done[pb];
            for i in 0..4 {
                let (a0, a1, a2, a3) = (a[4 * i], a[4 * i + 1], a[4 * i + 2], a[4 * i + 3]);
                let (e0, e1, e2, e3) = (
                    &dpa[4 * i],
                    &dpa[4 * i + 1],
                    &dpa[4 * i + 2],
                    &dpa[4 * i + 3],
                );
                for j in 0..4 {
                    let (r0, r1, r2, r3) = (rel[j], rel[4 + j], rel[8 + j], rel[12 + j]);
                    w.abs[b][4 * i + j] = a0 * r0 + a1 * r1 + a2 * r2 + a3 * r3;
                    let d = &mut da[4 * i + j];
                    if j < 3 {
                        let (f0, f1, f2, f3) = (&drel[j], &drel[3 + j], &drel[6 + j], &drel[9 + j]);
                        for k in 0..L {
                            d[k] = e0[k] * r0
                                + e1[k] * r1
                                + e2[k] * r2
                                + e3[k] * r3
                                + a0 * f0[k]
                                + a1 * f1[k]
                                + a2 * f2[k]
                                + a3 * f3[k];
                        }
                    } else {
                        for k in 0..L {
                            d[k] = e0[k] * r0 + e1[k] * r1 + e2[k] * r2 + e3[k] * r3;
                        }
                    }
                }
            }
        }
    }

    // Skinning: pos = Σ_b w(b, v) · (abs_b · inv_base_abs_b · [x; 1])[0..3].
    let (pos, dpos) = (&mut w.pos[..], &mut w.dpos[..]);
    pos.fill([0.0; 3]);
    dpos.fill([[0.0; L]; 3]);
    let mut tr = [0.0; 12];
    let mut dtr = [[0.0; L]; 12];
    for b in 0..nb {
        let (a, da) = (&w.abs[b], &w.dabs[b]);
        let ib = &inst.inv_base_abs[16 * b..16 * b + 16];
        for i in 0..3 {
            let (a0, a1, a2, a3) = (a[4 * i], a[4 * i + 1], a[4 * i + 2], a[4 * i + 3]);
            let (e0, e1, e2, e3) = (&da[4 * i], &da[4 * i + 1], &da[4 * i + 2], &da[4 * i + 3]);
            for j in 0..4 {
                let (m0, m1, m2, m3) = (ib[j], ib[4 + j], ib[8 + j], ib[12 + j]);
                tr[4 * i + j] = a0 * m0 + a1 * m1 + a2 * m2 + a3 * m3;
                let d = &mut dtr[4 * i + j];
                for k in 0..L {
                    d[k] = e0[k] * m0 + e1[k] * m1 + e2[k] * m2 + e3[k] * m3;
                }
            }
        }
        let wb = &inst.weights[b * nv..(b + 1) * nv];
        for (((p, dp), bp), &wv) in pos
            .iter_mut()
            .zip(dpos.iter_mut())
            .zip(inst.base_pos.chunks_exact(3))
            .zip(wb)
        {
            let (x0, x1, x2) = (bp[0], bp[1], bp[2]);
            // d(t·w) = w·(x0·dtr0 + x1·dtr1 + x2·dtr2 + dtr3), w constant.
            let (w0, w1, w2) = (wv * x0, wv * x1, wv * x2);
            for i in 0..3 {
                let t = tr[4 * i] * x0 + tr[4 * i + 1] * x1 + tr[4 * i + 2] * x2 + tr[4 * i + 3];
                p[i] += t * wv;
                let (t0, t1, t2, t3) = (
                    &dtr[4 * i],
                    &dtr[4 * i + 1],
                    &dtr[4 * i + 2],
                    &dtr[4 * i + 3],
                );
                let d = &mut dp[i];
                for k in 0..L {
                    d[k] += w0 * t0[k] + w1 * t1[k] + w2 * t2[k] + wv * t3[k];
                }
            }
        }
    }

    // Global rotation (angle-axis θ[0..3]; identity below 1e-4) and translation.
    let norm = (th[0] * th[0] + th[1] * th[1] + th[2] * th[2]).sqrt();
    let mut g = [0.0; 9];
    let mut dg = [[0.0; L]; 9];
    if norm < 0.0001 {
        g[0] = 1.0;
        g[4] = 1.0;
        g[8] = 1.0;
    } else {
        // dnorm = θ·dθ / norm; (x, y, z) = θ / norm: dx = (dθ₀ - x·dnorm) / norm, ...
        let mut dn = [0.0; L];
        for k in 0..L {
            dn[k] = (th[0] * dth[0][k] + th[1] * dth[1][k] + th[2] * dth[2][k]) / norm;
        }
        let (x, y, z) = (th[0] / norm, th[1] / norm, th[2] / norm);
        let (mut dx, mut dy, mut dz) = ([0.0; L], [0.0; L], [0.0; L]);
        for k in 0..L {
            dx[k] = (dth[0][k] - x * dn[k]) / norm;
            dy[k] = (dth[1][k] - y * dn[k]) / norm;
            dz[k] = (dth[2][k] - z * dn[k]) / norm;
        }
        // ds = c·dnorm, d(1 - c) = s·dnorm.
        let (s, c) = norm.sin_cos();
        let omc = 1.0 - c;
        g[0] = x * x + (1.0 - x * x) * c;
        g[1] = x * y * omc - z * s;
        g[2] = x * z * omc + y * s;
        g[3] = x * y * omc + z * s;
        g[4] = y * y + (1.0 - y * y) * c;
        g[5] = y * z * omc - x * s;
        g[6] = x * z * omc - y * s;
        g[7] = z * y * omc + x * s;
        g[8] = z * z + (1.0 - z * z) * c;
        // dg = cx·dx + cy·dy + cz·dz + cn·dnorm, by the product rule on each entry.
        let coef: [[f64; 4]; 9] = [
            [2.0 * x * omc, 0.0, 0.0, -(1.0 - x * x) * s],
            [y * omc, x * omc, -s, x * y * s - z * c],
            [z * omc, s, x * omc, x * z * s + y * c],
            [y * omc, x * omc, s, x * y * s + z * c],
            [0.0, 2.0 * y * omc, 0.0, -(1.0 - y * y) * s],
            [-s, z * omc, y * omc, y * z * s - x * c],
            [z * omc, -s, x * omc, x * z * s - y * c],
            [s, z * omc, y * omc, z * y * s + x * c],
            [0.0, 0.0, 2.0 * z * omc, -(1.0 - z * z) * s],
        ];
        for (d, &[ax, ay, az, an]) in dg.iter_mut().zip(&coef) {
            for k in 0..L {
                d[k] = ax * dx[k] + ay * dy[k] + az * dz[k] + an * dn[k];
            }
        }
    }
    for (p, dp) in pos.iter_mut().zip(dpos.iter_mut()) {
        let [p0, p1, p2] = *p;
        let [dp0, dp1, dp2] = *dp;
        for i in 0..3 {
            let (g0, g1, g2) = (g[3 * i], g[3 * i + 1], g[3 * i + 2]);
            p[i] = g0 * p0 + g1 * p1 + g2 * p2 + th[3 + i];
            let (h0, h1, h2, dt) = (&dg[3 * i], &dg[3 * i + 1], &dg[3 * i + 2], &dth[3 + i]);
            let d = &mut dp[i];
            for k in 0..L {
                d[k] = h0[k] * p0
                    + h1[k] * p1
                    + h2[k] * p2
                    + g0 * dp0[k]
                    + g1 * dp1[k]
                    + g2 * dp2[k]
                    + dt[k];
            }
        }
    }

    // Residuals: err = point - vertex, or point - (u0·a + u1·b + (1 - u0 - u1)·c).
    let (err, derr) = (&mut w.err[..], &mut w.derr[..]);
    let pts = &inst.points[..];
    if inst.us.is_empty() {
        for (n, &v) in inst.corr.iter().enumerate() {
            for j in 0..3 {
                err[3 * n + j] = pts[3 * n + j] - pos[v][j];
                let (d, dv) = (&mut derr[3 * n + j], &dpos[v][j]);
                for k in 0..L {
                    d[k] = -dv[k];
                }
            }
        }
    } else {
        for (n, &t) in inst.corr.iter().enumerate() {
            let (va, vb, vc) = (inst.tri[3 * t], inst.tri[3 * t + 1], inst.tri[3 * t + 2]);
            let (u0, u1) = (inst.us[2 * n], inst.us[2 * n + 1]);
            let (du0, du1) = (&w.dus[2 * n], &w.dus[2 * n + 1]);
            let u2 = 1.0 - u0 - u1;
            for j in 0..3 {
                let (pa, pb, pc) = (pos[va][j], pos[vb][j], pos[vc][j]);
                let hp = u0 * pa + u1 * pb + u2 * pc;
                err[3 * n + j] = pts[3 * n + j] - hp;
                // dhp = du0·a + u0·da + du1·b + u1·db - (du0 + du1)·c + u2·dc
                let (da, db, dc) = (&dpos[va][j], &dpos[vb][j], &dpos[vc][j]);
                let (ac, bc) = (pa - pc, pb - pc);
                let d = &mut derr[3 * n + j];
                for k in 0..L {
                    d[k] = -(du0[k] * ac + du1[k] * bc + u0 * da[k] + u1 * db[k] + u2 * dc[k]);
                }
            }
        }
    }

    // Column-major Jacobian: lane `k` is column `k`.
    let rows = err.len();
    for (k, col) in jac[..L * rows].chunks_exact_mut(rows).enumerate() {
        for (c, d) in col.iter_mut().zip(derr.iter()) {
            *c = d[k];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_close, assert_close_tol, FD_TOL};
    use hand::Instance;

    /// The dense Jacobian of `inst` (twice with the same work space, which must agree
    /// exactly) against the sparse hand-derived one and finite differences.
    fn check_l<const L: usize>(inst: &Instance) {
        let rows = inst.nerr();
        let mut w = DenseWork::<L>::new(inst);
        let mut dj = vec![f64::NAN; rows * L];
        jacobian_hand_dense::<L>(inst, &mut w, &mut dj);
        let mut err = vec![0.0; rows];
        inst.objective(&mut err);
        assert_eq!(
            w.err(),
            &err[..],
            "dense: the residuals are the objective's"
        );
        let mut hj = vec![0.0; rows * L];
        let mut herr = vec![0.0; rows];
        hand::jacobian_hand(inst, &mut herr, &mut hj);
        assert_close("hand dense vs hand-derived", &dj, &hj);
        let mut fj = vec![0.0; rows * L];
        let (mut t, mut u) = (inst.theta.clone(), inst.us.clone());
        let (mut ep, mut em) = (vec![0.0; rows], vec![0.0; rows]);
        hand::jacobian_fd(inst, &mut t, &mut u, &mut ep, &mut em, &mut fj);
        assert_close_tol("hand dense vs fd", &dj, &fj, FD_TOL);
        let mut again = vec![f64::NAN; rows * L];
        jacobian_hand_dense::<L>(inst, &mut w, &mut again);
        assert_eq!(dj, again, "a second call with the same work space");
        assert_eq!(w.err(), &err[..]);
    }

    fn check(inst: &Instance) {
        if inst.complicated() {
            check_l::<28>(inst);
        } else {
            check_l::<26>(inst);
        }
    }

    #[test]
    fn simple_agrees() {
        check(&Instance::generate(40, 10, false, 3));
    }

    #[test]
    fn complicated_agrees() {
        check(&Instance::generate(40, 10, true, 4));
    }

    #[test]
    fn agrees_without_global_rotation() {
        for complicated in [false, true] {
            let mut inst = Instance::generate(40, 10, complicated, 5);
            inst.theta[..3].fill(0.0);
            check(&inst);
        }
    }

    #[test]
    fn agrees_just_above_the_rotation_threshold() {
        // |θ[0..3]| ≈ 1.33e-4: the rotating branch, with the finite-difference steps
        // (≈ 6e-6) staying in it.
        for complicated in [false, true] {
            let mut inst = Instance::generate(40, 10, complicated, 6);
            inst.theta[..3].copy_from_slice(&[1.2e-4, -0.5e-4, 0.3e-4]);
            let norm = inst.theta[..3].iter().map(|t| t * t).sum::<f64>().sqrt();
            assert!(norm > 1e-4 && norm < 1.5e-4);
            check(&inst);
        }
    }

    #[test]
    fn work_space_is_reset_between_instances_of_one_shape() {
        // One work space for two poses of the same model: the second result must not
        // depend on the first call.
        let a = Instance::generate(40, 10, true, 7);
        let mut b = a.clone();
        for t in &mut b.theta {
            *t *= -0.7;
        }
        b.us.iter_mut().for_each(|u| *u = 0.5 - *u);
        let rows = a.nerr();
        let mut fresh = vec![0.0; rows * 28];
        jacobian_hand_dense::<28>(&b, &mut DenseWork::new(&b), &mut fresh);
        let mut w = DenseWork::<28>::new(&a);
        let mut reused = vec![0.0; rows * 28];
        jacobian_hand_dense::<28>(&a, &mut w, &mut reused);
        jacobian_hand_dense::<28>(&b, &mut w, &mut reused);
        assert_eq!(fresh, reused);
    }

    #[test]
    fn euler_partials_match_finite_differences() {
        // The third Euler angle is always 0 in the objective's pose layout, so the
        // Jacobian tests cannot see the `ty` partials nor the `sin ty` terms: check them
        // here, at angles with every term non-zero.
        let t = [0.3, -0.7, 0.45];
        let (_, partials) = hand::euler_partials(t[0], t[1], t[2]);
        for a in 0..3 {
            let h = crate::fd::step(&t[a..a + 1]);
            let (mut tp, mut tm) = (t, t);
            tp[a] += h;
            tm[a] -= h;
            let rp = hand::euler_partials(tp[0], tp[1], tp[2]).0;
            let rm = hand::euler_partials(tm[0], tm[1], tm[2]).0;
            let fd: Vec<f64> = (0..9).map(|e| (rp[e] - rm[e]) / (2.0 * h)).collect();
            let got: Vec<f64> = partials.iter().map(|p| p[a]).collect();
            assert_close_tol(&format!("euler partial {a}"), &got, &fd, FD_TOL);
        }
    }
}
