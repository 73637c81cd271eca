//! Issue 30's one-direction suite: the kernels that are hard for a forward rule, each
//! against the Jacobian-vector product an expert writes by hand.
//!
//! An expert baseline computes the same primal operations as the plain function, in the
//! same order, and adds only the tangent work the math needs: it folds constant factors
//! (`d(100 t²) = 200 t dt`), differentiates a polynomial once (`p'(x) dx`, not the product
//! rule at every step), skips the tangent of data that does not vary, and walks slices
//! with iterators or with slices re-cut to a common length, so that no access is
//! bounds-checked where the derived rule's is not; where the plain function bounds-checks
//! (the matrix-vector product's `a[i * n + j]`), so does its expert JVP. No baseline is
//! called through a function pointer.
//!
//! Kernels: Horner's scheme of degree 20 with literal coefficients (a constant-coefficient
//! chain), Rosenbrock (n = 100), the bundle-adjustment reprojection residual (quotients),
//! an 8×8 matrix-vector product whose matrix is constant data (declared `inactive`, and
//! passed as a dual with a zero tangent), the slice sum, `Σ sin`, and a pendulum
//! integrated by RK4. Each also has a num-dual version (`Dual64`, constant data passed
//! as plain `f64`, as num-dual's documentation does).

use fwdad::prelude::*;
use fwdad::ScalarTangent;
use num_dual::DualNum;

/// Number of points [`horner20`] is evaluated at per timed call.
pub const N_HORNER: usize = 256;
/// Input length of the Rosenbrock JVP.
pub const N_ROSENBROCK: usize = 100;
/// Steps of [`pendulum_rk4`].
pub const RK4_STEPS: usize = 200;

// --- Horner, degree 20, literal coefficients ----------------------------------------------

/// `Σₖ xᵏ/k!` for k ≤ 20 (the Taylor polynomial of `exp`) by Horner's scheme, with the
/// coefficients written out.
#[derive_frule]
pub fn horner20(x: f64) -> f64 {
    let mut p = 4.110317623312165e-19;
    p = p * x + 8.22063524662433e-18;
    p = p * x + 1.5619206968586225e-16;
    p = p * x + 2.8114572543455206e-15;
    p = p * x + 4.779477332387385e-14;
    p = p * x + 7.647163731819816e-13;
    p = p * x + 1.1470745597729725e-11;
    p = p * x + 1.6059043836821613e-10;
    p = p * x + 2.08767569878681e-09;
    p = p * x + 2.505210838544172e-08;
    p = p * x + 2.755731922398589e-07;
    p = p * x + 2.7557319223985893e-06;
    p = p * x + 2.48015873015873e-05;
    p = p * x + 0.0001984126984126984;
    p = p * x + 0.001388888888888889;
    p = p * x + 0.008333333333333333;
    p = p * x + 0.041666666666666664;
    p = p * x + 0.16666666666666666;
    p = p * x + 0.5;
    p = p * x + 1.0;
    p = p * x + 1.0;
    p
}

/// Expert JVP of [`horner20`]: the same Horner steps for `p`, and Horner's scheme for
/// `p'` beside it (one multiply-add per step), scaled by `dx` once.
pub fn horner20_expert(x: f64, dx: f64) -> (f64, f64) {
    let mut p = 4.110317623312165e-19;
    let mut q = 0.0;
    macro_rules! step {
        ($($c:expr),*) => {$(
            q = q * x + p;
            p = p * x + $c;
        )*};
    }
    step!(
        8.22063524662433e-18,
        1.5619206968586225e-16,
        2.8114572543455206e-15,
        4.779477332387385e-14,
        7.647163731819816e-13,
        1.1470745597729725e-11,
        1.6059043836821613e-10,
        2.08767569878681e-09,
        2.505210838544172e-08,
        2.755731922398589e-07,
        2.7557319223985893e-06,
        2.48015873015873e-05,
        0.0001984126984126984,
        0.001388888888888889,
        0.008333333333333333,
        0.041666666666666664,
        0.16666666666666666,
        0.5,
        1.0,
        1.0
    );
    (p, q * dx)
}

/// [`horner20`] for num-dual.
pub fn horner20_nd<D: DualNum<Primitive = f64> + Copy>(x: D) -> D {
    let mut p = D::from(4.110317623312165e-19);
    for c in [
        8.22063524662433e-18,
        1.5619206968586225e-16,
        2.8114572543455206e-15,
        4.779477332387385e-14,
        7.647163731819816e-13,
        1.1470745597729725e-11,
        1.6059043836821613e-10,
        2.08767569878681e-09,
        2.505210838544172e-08,
        2.755731922398589e-07,
        2.7557319223985893e-06,
        2.48015873015873e-05,
        0.0001984126984126984,
        0.001388888888888889,
        0.008333333333333333,
        0.041666666666666664,
        0.16666666666666666,
        0.5,
        1.0,
        1.0,
    ] {
        p = p * x + c;
    }
    p
}

// --- Rosenbrock ---------------------------------------------------------------------------

/// Expert JVP of [`crate::optim::rosenbrock`]: `dt = dxᵢ₊₁ - 2xᵢdxᵢ`,
/// `d(100t² + u²) = 200 t dt - 2u dxᵢ`.
pub fn rosenbrock_expert(x: &[f64], dx: &[f64]) -> (f64, f64) {
    let dx = &dx[..x.len()];
    let (mut s, mut ds) = (0.0, 0.0);
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = 1.0 - x[i];
        s += 100.0 * t * t + u * u;
        ds += 200.0 * t * (dx[i + 1] - 2.0 * x[i] * dx[i]) - 2.0 * u * dx[i];
    }
    (s, ds)
}

// --- bundle-adjustment residual -----------------------------------------------------------

/// Expert JVP of [`crate::ba::ba_residual`] along `(dcam, dx, dw)`: the primal statements
/// of the residual, each followed by its tangent (quotients as `(da - q db) / b`).
#[allow(clippy::too_many_arguments)]
pub fn ba_residual_expert(
    cam: &[f64; 11],
    dcam: &[f64; 11],
    x: &[f64; 3],
    dx: &[f64; 3],
    w: f64,
    dw: f64,
    fx: f64,
    fy: f64,
) -> ([f64; 2], [f64; 2]) {
    let (r0, r1, r2) = (cam[0], cam[1], cam[2]);
    let (dr0, dr1, dr2) = (dcam[0], dcam[1], dcam[2]);
    let xo0 = x[0] - cam[3];
    let xo1 = x[1] - cam[4];
    let xo2 = x[2] - cam[5];
    let dxo0 = dx[0] - dcam[3];
    let dxo1 = dx[1] - dcam[4];
    let dxo2 = dx[2] - dcam[5];
    let sqtheta = r0 * r0 + r1 * r1 + r2 * r2;
    let (xc0, xc1, xc2, dxc0, dxc1, dxc2);
    if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let dtheta = (r0 * dr0 + r1 * dr1 + r2 * dr2) / theta;
        let st = theta.sin();
        let ct = theta.cos();
        let (dst, dct) = (ct * dtheta, -st * dtheta);
        let w0 = r0 / theta;
        let w1 = r1 / theta;
        let w2 = r2 / theta;
        let dw0 = (dr0 - w0 * dtheta) / theta;
        let dw1 = (dr1 - w1 * dtheta) / theta;
        let dw2 = (dr2 - w2 * dtheta) / theta;
        let wx0 = w1 * xo2 - w2 * xo1;
        let wx1 = w2 * xo0 - w0 * xo2;
        let wx2 = w0 * xo1 - w1 * xo0;
        let dwx0 = dw1 * xo2 + w1 * dxo2 - dw2 * xo1 - w2 * dxo1;
        let dwx1 = dw2 * xo0 + w2 * dxo0 - dw0 * xo2 - w0 * dxo2;
        let dwx2 = dw0 * xo1 + w0 * dxo1 - dw1 * xo0 - w1 * dxo0;
        let dot = w0 * xo0 + w1 * xo1 + w2 * xo2;
        let ddot = dw0 * xo0 + w0 * dxo0 + dw1 * xo1 + w1 * dxo1 + dw2 * xo2 + w2 * dxo2;
        let tmp = dot * (1.0 - ct);
        let dtmp = ddot * (1.0 - ct) - dot * dct;
        xc0 = xo0 * ct + wx0 * st + w0 * tmp;
        xc1 = xo1 * ct + wx1 * st + w1 * tmp;
        xc2 = xo2 * ct + wx2 * st + w2 * tmp;
        dxc0 = dxo0 * ct + xo0 * dct + dwx0 * st + wx0 * dst + dw0 * tmp + w0 * dtmp;
        dxc1 = dxo1 * ct + xo1 * dct + dwx1 * st + wx1 * dst + dw1 * tmp + w1 * dtmp;
        dxc2 = dxo2 * ct + xo2 * dct + dwx2 * st + wx2 * dst + dw2 * tmp + w2 * dtmp;
    } else {
        xc0 = xo0 + (r1 * xo2 - r2 * xo1);
        xc1 = xo1 + (r2 * xo0 - r0 * xo2);
        xc2 = xo2 + (r0 * xo1 - r1 * xo0);
        dxc0 = dxo0 + (dr1 * xo2 + r1 * dxo2 - dr2 * xo1 - r2 * dxo1);
        dxc1 = dxo1 + (dr2 * xo0 + r2 * dxo0 - dr0 * xo2 - r0 * dxo2);
        dxc2 = dxo2 + (dr0 * xo1 + r0 * dxo1 - dr1 * xo0 - r1 * dxo0);
    }
    let px = xc0 / xc2;
    let py = xc1 / xc2;
    let dpx = (dxc0 - px * dxc2) / xc2;
    let dpy = (dxc1 - py * dxc2) / xc2;
    let rsq = px * px + py * py;
    let drsq = 2.0 * (px * dpx + py * dpy);
    let l = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    let dl = dcam[9] * rsq + dcam[10] * rsq * rsq + (cam[9] + 2.0 * cam[10] * rsq) * drsq;
    let projx = px * l * cam[6] + cam[7];
    let projy = py * l * cam[6] + cam[8];
    let dprojx = (dpx * l + px * dl) * cam[6] + px * l * dcam[6] + dcam[7];
    let dprojy = (dpy * l + py * dl) * cam[6] + py * l * dcam[6] + dcam[8];
    (
        [w * (projx - fx), w * (projy - fy)],
        [
            dw * (projx - fx) + w * dprojx,
            dw * (projy - fy) + w * dprojy,
        ],
    )
}

/// Expert batched Jacobian of [`crate::ba::ba_residual`]: the primal statements of the
/// residual, then the two outputs' adjoints accumulated backwards through them by hand
/// (scalar), then each output's tangent `Σⱼ ∂eₖ/∂pⱼ · ṗⱼ` over the seeds of the 14
/// parameters it depends on (`e₀` has no `v0`, `e₁` no `u0`; the feature is constant).
/// Returns the residual and its two tangents.
pub fn ba_residual_expert_batched<const N: usize>(
    cam: &[f64],
    x: &[f64],
    w: f64,
    fx: f64,
    fy: f64,
    seeds: (&[Batch<f64, N>; 11], &[Batch<f64, N>; 3], Batch<f64, N>),
) -> ([f64; 2], [Batch<f64, N>; 2]) {
    let (r0, r1, r2) = (cam[0], cam[1], cam[2]);
    let xo0 = x[0] - cam[3];
    let xo1 = x[1] - cam[4];
    let xo2 = x[2] - cam[5];
    let sqtheta = r0 * r0 + r1 * r1 + r2 * r2;
    let rotated = sqtheta != 0.0;
    // The θ ≠ 0 branch's intermediates (zero on the other branch, where they are unused).
    let (mut theta, mut st, mut ct) = (0.0, 0.0, 0.0);
    let (mut w0, mut w1, mut w2) = (0.0, 0.0, 0.0);
    let (mut wx0, mut wx1, mut wx2) = (0.0, 0.0, 0.0);
    let (mut dot, mut tmp) = (0.0, 0.0);
    let (xc0, xc1, xc2);
    if rotated {
        theta = sqtheta.sqrt();
        st = theta.sin();
        ct = theta.cos();
        w0 = r0 / theta;
        w1 = r1 / theta;
        w2 = r2 / theta;
        wx0 = w1 * xo2 - w2 * xo1;
        wx1 = w2 * xo0 - w0 * xo2;
        wx2 = w0 * xo1 - w1 * xo0;
        dot = w0 * xo0 + w1 * xo1 + w2 * xo2;
        tmp = dot * (1.0 - ct);
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
    let (k1, k2, f) = (cam[9], cam[10], cam[6]);
    let l = 1.0 + k1 * rsq + k2 * rsq * rsq;
    let projx = px * l * f + cam[7];
    let projy = py * l * f + cam[8];
    let e = [w * (projx - fx), w * (projy - fy)];

    let (scam, sx, sw) = seeds;
    let iz = 1.0 / xc2;
    let dl = k1 + 2.0 * k2 * rsq;
    let mut out = [Batch::<f64, N>::zero(); 2];
    for (k, out) in out.iter_mut().enumerate() {
        // Adjoints of output k: ē = 1, so proj̄ = w in row k.
        let (p, projk) = if k == 0 { (px, projx) } else { (py, projy) };
        let (mut apx, mut apy) = (0.0, 0.0);
        let ap = w * l * f;
        let al = w * p * f;
        let af = w * p * l;
        let (ak1, ak2) = (al * rsq, al * rsq * rsq);
        let arsq = al * dl;
        if k == 0 {
            apx = ap;
        } else {
            apy = ap;
        }
        apx += 2.0 * arsq * px;
        apy += 2.0 * arsq * py;
        let axc0 = apx * iz;
        let axc1 = apy * iz;
        let axc2 = -(apx * px + apy * py) * iz;
        let (mut axo0, mut axo1, mut axo2);
        let (ar0, ar1, ar2);
        if rotated {
            axo0 = axc0 * ct;
            axo1 = axc1 * ct;
            axo2 = axc2 * ct;
            let act = axc0 * xo0 + axc1 * xo1 + axc2 * xo2;
            let ast = axc0 * wx0 + axc1 * wx1 + axc2 * wx2;
            let (awx0, awx1, awx2) = (axc0 * st, axc1 * st, axc2 * st);
            let atmp = axc0 * w0 + axc1 * w1 + axc2 * w2;
            let adot = atmp * (1.0 - ct);
            let act = act - atmp * dot;
            let mut aw0 = axc0 * tmp + adot * xo0 + awx2 * xo1 - awx1 * xo2;
            let mut aw1 = axc1 * tmp + adot * xo1 + awx0 * xo2 - awx2 * xo0;
            let mut aw2 = axc2 * tmp + adot * xo2 + awx1 * xo0 - awx0 * xo1;
            axo0 += adot * w0 + awx1 * w2 - awx2 * w1;
            axo1 += adot * w1 + awx2 * w0 - awx0 * w2;
            axo2 += adot * w2 + awx0 * w1 - awx1 * w0;
            aw0 /= theta;
            aw1 /= theta;
            aw2 /= theta;
            let atheta = ast * ct - act * st - (aw0 * w0 + aw1 * w1 + aw2 * w2);
            let asq2 = atheta / theta; // 2·∂/∂sqtheta
            ar0 = aw0 + asq2 * r0;
            ar1 = aw1 + asq2 * r1;
            ar2 = aw2 + asq2 * r2;
        } else {
            axo0 = axc0 + axc1 * r2 - axc2 * r1;
            axo1 = axc1 - axc0 * r2 + axc2 * r0;
            axo2 = axc2 + axc0 * r1 - axc1 * r0;
            ar0 = axc2 * xo1 - axc1 * xo2;
            ar1 = axc0 * xo2 - axc2 * xo0;
            ar2 = axc1 * xo0 - axc0 * xo1;
        }
        let t = scam[0].scale(ar0);
        let t = t.axpy(ar1, scam[1]);
        let t = t.axpy(ar2, scam[2]);
        let t = t.axpy(-axo0, scam[3]);
        let t = t.axpy(-axo1, scam[4]);
        let t = t.axpy(-axo2, scam[5]);
        let t = t.axpy(af, scam[6]);
        let t = t.axpy(w, scam[7 + k]);
        let t = t.axpy(ak1, scam[9]);
        let t = t.axpy(ak2, scam[10]);
        let t = t.axpy(axo0, sx[0]);
        let t = t.axpy(axo1, sx[1]);
        let t = t.axpy(axo2, sx[2]);
        *out = t.axpy(projk - if k == 0 { fx } else { fy }, sw);
    }
    (e, out)
}

/// A camera, a point in front of it, a weight and a feature: one observation of a bundle
/// adjustment problem, with a tangent for every differentiated input.
#[derive(Clone, Debug)]
pub struct BaCase {
    /// Rotation (3), centre (3), focal length, principal point (2), distortion (2).
    pub cam: [f64; 11],
    /// The tangent of `cam`.
    pub dcam: [f64; 11],
    /// The point.
    pub x: [f64; 3],
    /// The tangent of `x`.
    pub dx: [f64; 3],
    /// The weight and its tangent.
    pub w: (f64, f64),
    /// The observed feature.
    pub feature: (f64, f64),
}

impl BaCase {
    /// A fixed observation (random, from `seed`).
    pub fn new(seed: u64) -> Self {
        let mut r = crate::rng::Rng::new(seed);
        let mut cam = [0.0; 11];
        for (c, (lo, hi)) in cam.iter_mut().zip([
            (-0.3, 0.3),
            (-0.3, 0.3),
            (-0.3, 0.3),
            (-1.0, 1.0),
            (-1.0, 1.0),
            (-1.0, 1.0),
            (400.0, 600.0),
            (-5.0, 5.0),
            (-5.0, 5.0),
            (-0.1, 0.1),
            (-0.01, 0.01),
        ]) {
            *c = r.uniform(lo, hi);
        }
        let x = [
            r.uniform(-1.0, 1.0),
            r.uniform(-1.0, 1.0),
            r.uniform(6.0, 9.0),
        ];
        let mut dcam = [0.0; 11];
        dcam.iter_mut().for_each(|d| *d = r.uniform(-1.0, 1.0));
        let dx = [
            r.uniform(-1.0, 1.0),
            r.uniform(-1.0, 1.0),
            r.uniform(-1.0, 1.0),
        ];
        BaCase {
            cam,
            dcam,
            x,
            dx,
            w: (r.uniform(0.5, 1.5), r.uniform(-1.0, 1.0)),
            feature: (r.uniform(-50.0, 50.0), r.uniform(-50.0, 50.0)),
        }
    }

    /// The residual and its derivative by the derived rule.
    pub fn rule(&self) -> ([f64; 2], [f64; 2]) {
        let y = crate::ba::ba_residual_frule(
            Dual::new(&self.cam[..], &self.dcam[..]),
            Dual::new(&self.x[..], &self.dx[..]),
            Dual::new(self.w.0, self.w.1),
            Dual::constant(self.feature.0),
            Dual::constant(self.feature.1),
        );
        (y.primal, y.tangent)
    }

    /// The same by the expert JVP.
    pub fn expert(&self) -> ([f64; 2], [f64; 2]) {
        ba_residual_expert(
            &self.cam,
            &self.dcam,
            &self.x,
            &self.dx,
            self.w.0,
            self.w.1,
            self.feature.0,
            self.feature.1,
        )
    }

    /// The same by num-dual.
    pub fn num_dual(&self) -> ([f64; 2], [f64; 2]) {
        use num_dual::Dual64;
        let cam: [Dual64; 11] = std::array::from_fn(|i| Dual64::new(self.cam[i], self.dcam[i]));
        let x: [Dual64; 3] = std::array::from_fn(|i| Dual64::new(self.x[i], self.dx[i]));
        let y = crate::ba::ba_residual_nd(
            &cam,
            &x,
            Dual64::new(self.w.0, self.w.1),
            self.feature.0,
            self.feature.1,
        );
        ([y[0].re, y[1].re], [y[0].eps, y[1].eps])
    }
}

// --- matrix-vector product with constant data ----------------------------------------------

/// `y = A x` with `A` constant data (declared `inactive`): the same body as
/// [`crate::simple::matvec`].
#[derive_frule(inactive(a))]
pub fn matvec_const(a: &[f64], x: &[f64], y: &mut [f64]) {
    let n = x.len();
    for i in 0..y.len() {
        let mut s = 0.0;
        for j in 0..n {
            s += a[i * n + j] * x[j];
        }
        y[i] = s;
    }
}

/// Expert JVP of `y = A x` for a constant `A`: `dy = A dx`, with the primal operations of
/// [`crate::simple::matvec`], its bounds checks included (`a[i * n + j]` panics where the
/// primal does); the tangents are re-cut to their primals' lengths so that they add no
/// check of their own.
pub fn matvec_const_expert(a: &[f64], x: &[f64], dx: &[f64], y: &mut [f64], dy: &mut [f64]) {
    let n = x.len();
    let dx = &dx[..n];
    let dy = &mut dy[..y.len()];
    for i in 0..y.len() {
        let (mut s, mut ds) = (0.0, 0.0);
        for j in 0..n {
            let aij = a[i * n + j];
            s += aij * x[j];
            ds += aij * dx[j];
        }
        y[i] = s;
        dy[i] = ds;
    }
}

/// [`matvec_const_expert`] without the primal's bounds checks: rows walked with
/// `chunks_exact` and `zip`. Not the primal's operations (a short `a` gives fewer rows
/// instead of a panic); the report shows it beside the expert, for scale.
pub fn matvec_const_unchecked(a: &[f64], x: &[f64], dx: &[f64], y: &mut [f64], dy: &mut [f64]) {
    let n = x.len();
    let dx = &dx[..n];
    for ((row, yi), dyi) in a.chunks_exact(n).zip(y.iter_mut()).zip(dy.iter_mut()) {
        let (mut s, mut ds) = (0.0, 0.0);
        for ((&aij, &xj), &dxj) in row.iter().zip(x).zip(dx) {
            s += aij * xj;
            ds += aij * dxj;
        }
        *yi = s;
        *dyi = ds;
    }
}

/// `y = A x` for num-dual with `A` plain `f64` (num-dual's way to pass constant data).
pub fn matvec_const_nd<D: DualNum<Primitive = f64> + Copy>(a: &[f64], x: &[D], y: &mut [D]) {
    let n = x.len();
    for i in 0..y.len() {
        let mut s = D::from(0.0);
        for j in 0..n {
            s += x[j] * a[i * n + j];
        }
        y[i] = s;
    }
}

// --- slice sum and Σ sin --------------------------------------------------------------------

/// Expert JVP of the slice sum: `(Σ xᵢ, Σ dxᵢ)` over zipped iterators.
pub fn slice_sum_expert(x: &[f64], dx: &[f64]) -> (f64, f64) {
    let (mut s, mut ds) = (0.0, 0.0);
    for (&v, &d) in x.iter().zip(dx) {
        s += v;
        ds += d;
    }
    (s, ds)
}

/// Expert JVP of `Σ sin xᵢ`: `(Σ sin xᵢ, Σ cos xᵢ dxᵢ)` over zipped iterators.
pub fn sum_sin_expert(x: &[f64], dx: &[f64]) -> (f64, f64) {
    let (mut s, mut ds) = (0.0, 0.0);
    for (&v, &d) in x.iter().zip(dx) {
        s += v.sin();
        ds += v.cos() * d;
    }
    (s, ds)
}

// --- pendulum, RK4 ----------------------------------------------------------------------------

/// Angle of a pendulum of length `length` after `steps` classical Runge-Kutta steps of
/// 10 ms from angle `theta0` and angular velocity `omega0`.
#[derive_frule]
pub fn pendulum_rk4(theta0: f64, omega0: f64, length: f64, steps: usize) -> f64 {
    let dt = 0.01;
    let k = 9.81 / length;
    let mut theta = theta0;
    let mut omega = omega0;
    for _ in 0..steps {
        let k1t = omega;
        let k1o = -k * theta.sin();
        let k2t = omega + 0.5 * dt * k1o;
        let k2o = -k * (theta + 0.5 * dt * k1t).sin();
        let k3t = omega + 0.5 * dt * k2o;
        let k3o = -k * (theta + 0.5 * dt * k2t).sin();
        let k4t = omega + dt * k3o;
        let k4o = -k * (theta + dt * k3t).sin();
        theta += dt / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t);
        omega += dt / 6.0 * (k1o + 2.0 * k2o + 2.0 * k3o + k4o);
    }
    theta
}

/// Expert JVP of [`pendulum_rk4`] along `(dtheta0, domega0, dlength)`: each stage's
/// tangent beside it, `sin`/`cos` of one argument computed together, constant factors
/// (`0.5 dt`, `dt / 6`) kept as the primal has them.
pub fn pendulum_rk4_expert(
    (theta0, dtheta0): (f64, f64),
    (omega0, domega0): (f64, f64),
    (length, dlength): (f64, f64),
    steps: usize,
) -> (f64, f64) {
    let dt = 0.01;
    let k = 9.81 / length;
    let dk = -k / length * dlength;
    let (mut theta, mut dtheta) = (theta0, dtheta0);
    let (mut omega, mut domega) = (omega0, domega0);
    for _ in 0..steps {
        let k1t = omega;
        let dk1t = domega;
        let (s1, c1) = theta.sin_cos();
        let k1o = -k * s1;
        let dk1o = -(dk * s1 + k * c1 * dtheta);
        let k2t = omega + 0.5 * dt * k1o;
        let dk2t = domega + 0.5 * dt * dk1o;
        let (s2, c2) = (theta + 0.5 * dt * k1t).sin_cos();
        let k2o = -k * s2;
        let dk2o = -(dk * s2 + k * c2 * (dtheta + 0.5 * dt * dk1t));
        let k3t = omega + 0.5 * dt * k2o;
        let dk3t = domega + 0.5 * dt * dk2o;
        let (s3, c3) = (theta + 0.5 * dt * k2t).sin_cos();
        let k3o = -k * s3;
        let dk3o = -(dk * s3 + k * c3 * (dtheta + 0.5 * dt * dk2t));
        let k4t = omega + dt * k3o;
        let dk4t = domega + dt * dk3o;
        let (s4, c4) = (theta + dt * k3t).sin_cos();
        let k4o = -k * s4;
        let dk4o = -(dk * s4 + k * c4 * (dtheta + dt * dk3t));
        theta += dt / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t);
        dtheta += dt / 6.0 * (dk1t + 2.0 * dk2t + 2.0 * dk3t + dk4t);
        omega += dt / 6.0 * (k1o + 2.0 * k2o + 2.0 * k3o + k4o);
        domega += dt / 6.0 * (dk1o + 2.0 * dk2o + 2.0 * dk3o + dk4o);
    }
    (theta, dtheta)
}

/// [`pendulum_rk4`] for num-dual.
pub fn pendulum_rk4_nd<D: DualNum<Primitive = f64> + Copy>(
    theta0: D,
    omega0: D,
    length: D,
    steps: usize,
) -> D {
    let dt = 0.01;
    let k = length.recip() * 9.81;
    let mut theta = theta0;
    let mut omega = omega0;
    for _ in 0..steps {
        let k1t = omega;
        let k1o = -k * theta.sin();
        let k2t = omega + k1o * (0.5 * dt);
        let k2o = -k * (theta + k1t * (0.5 * dt)).sin();
        let k3t = omega + k2o * (0.5 * dt);
        let k3o = -k * (theta + k2t * (0.5 * dt)).sin();
        let k4t = omega + k3o * dt;
        let k4o = -k * (theta + k3t * dt).sin();
        theta += (k1t + k2t * 2.0 + k3t * 2.0 + k4t) * (dt / 6.0);
        omega += (k1o + k2o * 2.0 + k3o * 2.0 + k4o) * (dt / 6.0);
    }
    theta
}

// --- chains into accumulators: springs, Lennard-Jones, a least-squares fit ----------------

/// Expert JVP of [`crate::user_ops::spring_energy_flat`] (`Σ ½k(|xᵢ - xⱼ| - Lₛ)²` on flat
/// coordinates, `k` constant): `dE = Σ (k·s/r)·(d·ḋ)`, one division per spring.
pub fn spring_energy_flat_expert(
    x: &[f64],
    dx: &[f64],
    springs: &[(usize, usize)],
    rest: &[f64],
    k: f64,
) -> (f64, f64) {
    let dx = &dx[..x.len()];
    let (mut e, mut de) = (0.0, 0.0);
    for s in 0..springs.len() {
        let (i, j) = springs[s];
        let (a, b) = (3 * i, 3 * j);
        let ddx = x[a] - x[b];
        let ddy = x[a + 1] - x[b + 1];
        let ddz = x[a + 2] - x[b + 2];
        let r = (ddx * ddx + ddy * ddy + ddz * ddz).sqrt();
        let stretch = r - rest[s];
        e += 0.5 * k * stretch * stretch;
        let dot =
            ddx * (dx[a] - dx[b]) + ddy * (dx[a + 1] - dx[b + 1]) + ddz * (dx[a + 2] - dx[b + 2]);
        de += k * stretch / r * dot;
    }
    (e, de)
}

/// [`crate::user_ops::spring_energy_flat`] for num-dual.
pub fn spring_energy_flat_nd<D: DualNum<Primitive = f64> + Copy>(
    x: &[D],
    springs: &[(usize, usize)],
    rest: &[f64],
    k: f64,
) -> D {
    let mut e = D::from(0.0);
    for s in 0..springs.len() {
        let (i, j) = springs[s];
        let dx = x[3 * i] - x[3 * j];
        let dy = x[3 * i + 1] - x[3 * j + 1];
        let dz = x[3 * i + 2] - x[3 * j + 2];
        let stretch = (dx * dx + dy * dy + dz * dz).sqrt() - rest[s];
        e += stretch * stretch * (0.5 * k);
    }
    e
}

/// Atoms of the Lennard-Jones cluster.
pub const N_LJ: usize = 16;

/// Lennard-Jones energy `Σᵢ<ⱼ 4ε((σ/r)¹² - (σ/r)⁶)` of atoms at flat coordinates
/// (`x[3i..3i + 3]` is atom `i`), as a molecular-dynamics code writes it.
#[derive_frule]
pub fn lj_energy(x: &[f64], sigma: f64, eps: f64) -> f64 {
    let n = x.len() / 3;
    let mut e = 0.0;
    for i in 0..n {
        for j in (i + 1)..n {
            let dx = x[3 * i] - x[3 * j];
            let dy = x[3 * i + 1] - x[3 * j + 1];
            let dz = x[3 * i + 2] - x[3 * j + 2];
            let r2 = dx * dx + dy * dy + dz * dz;
            let s6 = (sigma * sigma / r2).powi(3);
            e += 4.0 * eps * (s6 * s6 - s6);
        }
    }
    e
}

/// Expert JVP of [`lj_energy`] (`σ`, `ε` constant): `dE = Σ -24ε·s⁶(2s⁶ - 1)/r²·(d·ḋ)`.
pub fn lj_energy_expert(x: &[f64], dx: &[f64], sigma: f64, eps: f64) -> (f64, f64) {
    let dx = &dx[..x.len()];
    let n = x.len() / 3;
    let (mut e, mut de) = (0.0, 0.0);
    for i in 0..n {
        for j in (i + 1)..n {
            let (a, b) = (3 * i, 3 * j);
            let ddx = x[a] - x[b];
            let ddy = x[a + 1] - x[b + 1];
            let ddz = x[a + 2] - x[b + 2];
            let r2 = ddx * ddx + ddy * ddy + ddz * ddz;
            let s6 = (sigma * sigma / r2).powi(3);
            e += 4.0 * eps * (s6 * s6 - s6);
            let dot = ddx * (dx[a] - dx[b])
                + ddy * (dx[a + 1] - dx[b + 1])
                + ddz * (dx[a + 2] - dx[b + 2]);
            de += -24.0 * eps * s6 * (s6 + s6 - 1.0) / r2 * dot;
        }
    }
    (e, de)
}

/// [`lj_energy`] for num-dual.
pub fn lj_energy_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D], sigma: f64, eps: f64) -> D {
    let n = x.len() / 3;
    let mut e = D::from(0.0);
    for i in 0..n {
        for j in (i + 1)..n {
            let dx = x[3 * i] - x[3 * j];
            let dy = x[3 * i + 1] - x[3 * j + 1];
            let dz = x[3 * i + 2] - x[3 * j + 2];
            let r2 = dx * dx + dy * dy + dz * dz;
            let s6 = (r2.recip() * (sigma * sigma)).powi(3);
            e += (s6 * s6 - s6) * (4.0 * eps);
        }
    }
    e
}

/// Samples of the exponential fit.
pub const N_FIT: usize = 256;

/// Sum of squared residuals `Σ (a·e^(-b·tᵢ) + c - yᵢ)²` of a three-parameter exponential
/// decay `p = [a, b, c]` against data `(t, y)`.
#[derive_frule(inactive(t, y))]
pub fn exp_fit_sse(p: &[f64], t: &[f64], y: &[f64]) -> f64 {
    let (a, b, c) = (p[0], p[1], p[2]);
    let mut sse = 0.0;
    for i in 0..t.len() {
        let r = a * (-b * t[i]).exp() + c - y[i];
        sse += r * r;
    }
    sse
}

/// Expert JVP of [`exp_fit_sse`]: `ṙ = ȧ·e - (a·e)·t·ḃ + ċ`, the factor 2 of `d(r²)`
/// applied once after the sum.
pub fn exp_fit_sse_expert(p: &[f64], dp: &[f64], t: &[f64], y: &[f64]) -> (f64, f64) {
    let (a, b, c) = (p[0], p[1], p[2]);
    let (da, db, dc) = (dp[0], dp[1], dp[2]);
    let (mut sse, mut ds) = (0.0, 0.0);
    for i in 0..t.len() {
        let e = (-b * t[i]).exp();
        let ae = a * e;
        let r = ae + c - y[i];
        sse += r * r;
        ds += r * (da * e - ae * t[i] * db + dc);
    }
    (sse, 2.0 * ds)
}

/// [`exp_fit_sse`] for num-dual.
pub fn exp_fit_sse_nd<D: DualNum<Primitive = f64> + Copy>(p: &[D], t: &[f64], y: &[f64]) -> D {
    let (a, b, c) = (p[0], p[1], p[2]);
    let mut sse = D::from(0.0);
    for i in 0..t.len() {
        let r = a * (-b * t[i]).exp() + c - y[i];
        sse += r * r;
    }
    sse
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_close, assert_close_tol, FD_TOL};
    use crate::rng::Rng;
    use num_dual::Dual64;

    /// Central difference of `f` at `t = 0` along a line.
    fn central(f: impl Fn(f64) -> f64) -> f64 {
        let h = 1e-6;
        (f(h) - f(-h)) / (2.0 * h)
    }

    #[test]
    fn chain_accumulator_experts_match_rules_num_dual_and_finite_differences() {
        use fwdad::ConstTangent;
        let mut r = Rng::new(31);
        // Springs on a jittered grid.
        let (p, springs, rest) = crate::user_ops::spring_case(&mut r);
        let x: Vec<f64> = p.iter().flat_map(|v| [v.x, v.y, v.z]).collect();
        let dx = r.vec(x.len(), -1.0, 1.0);
        let k = 3.5;
        let (v, d) = spring_energy_flat_expert(&x, &dx, &springs, &rest, k);
        assert_eq!(
            v,
            crate::user_ops::spring_energy_flat(&x, &springs, &rest, k)
        );
        let y = crate::user_ops::spring_energy_flat_frule(
            Dual::new(&x[..], &dx[..]),
            &springs[..],
            &rest[..],
            Dual::new(k, ConstTangent),
        );
        assert_eq!(y.primal, v);
        assert_close("springs rule", &[y.tangent], &[d]);
        let xd: Vec<Dual64> = x
            .iter()
            .zip(&dx)
            .map(|(a, b)| Dual64::new(*a, *b))
            .collect();
        assert_close(
            "springs num-dual",
            &[spring_energy_flat_nd(&xd, &springs, &rest, k).eps],
            &[d],
        );
        let line = |t: f64| {
            let q: Vec<f64> = x.iter().zip(&dx).map(|(a, b)| a + t * b).collect();
            crate::user_ops::spring_energy_flat(&q, &springs, &rest, k)
        };
        assert_close_tol("springs fd", &[central(line)], &[d], FD_TOL);

        // Lennard-Jones: atoms jittered on a 1.2σ lattice.
        let (sigma, eps) = (1.0, 0.8);
        let x: Vec<f64> = (0..N_LJ)
            .flat_map(|i| {
                let c = [(i % 3) as f64, ((i / 3) % 3) as f64, (i / 9) as f64];
                c.map(|c| 1.2 * c)
            })
            .map(|c| c + r.uniform(-0.1, 0.1))
            .collect();
        let dx = r.vec(x.len(), -1.0, 1.0);
        let (v, d) = lj_energy_expert(&x, &dx, sigma, eps);
        assert_eq!(v, lj_energy(&x, sigma, eps));
        let y = lj_energy_frule(
            Dual::new(&x[..], &dx[..]),
            Dual::new(sigma, ConstTangent),
            Dual::new(eps, ConstTangent),
        );
        assert_eq!(y.primal, v);
        assert_close("lj rule", &[y.tangent], &[d]);
        let xd: Vec<Dual64> = x
            .iter()
            .zip(&dx)
            .map(|(a, b)| Dual64::new(*a, *b))
            .collect();
        assert_close("lj num-dual", &[lj_energy_nd(&xd, sigma, eps).eps], &[d]);
        let line = |t: f64| {
            let q: Vec<f64> = x.iter().zip(&dx).map(|(a, b)| a + t * b).collect();
            lj_energy(&q, sigma, eps)
        };
        assert_close_tol("lj fd", &[central(line)], &[d], FD_TOL);

        // The exponential fit.
        let t: Vec<f64> = (0..N_FIT).map(|i| i as f64 * 0.02).collect();
        let y: Vec<f64> = t
            .iter()
            .map(|t| 2.0 * (-0.7 * t).exp() + 0.3 + r.uniform(-0.05, 0.05))
            .collect();
        let (p, dp) = ([1.8, 0.6, 0.25], [0.3, -0.7, 0.9]);
        let (v, d) = exp_fit_sse_expert(&p, &dp, &t, &y);
        assert_eq!(v, exp_fit_sse(&p, &t, &y));
        let got = exp_fit_sse_frule(Dual::new(&p[..], &dp[..]), &t[..], &y[..]);
        assert_eq!(got.primal, v);
        assert_close("fit rule", &[got.tangent], &[d]);
        let pd: Vec<Dual64> = p
            .iter()
            .zip(&dp)
            .map(|(a, b)| Dual64::new(*a, *b))
            .collect();
        assert_close("fit num-dual", &[exp_fit_sse_nd(&pd, &t, &y).eps], &[d]);
        let line = |s: f64| {
            let q: Vec<f64> = p.iter().zip(&dp).map(|(a, b)| a + s * b).collect();
            exp_fit_sse(&q, &t, &y)
        };
        assert_close_tol("fit fd", &[central(line)], &[d], FD_TOL);
    }

    #[test]
    fn horner_matches_exp_derivative_and_finite_differences() {
        for x in [-1.5, -0.3, 0.0, 0.7, 2.0] {
            let r = horner20_frule(Dual::new(x, 1.0));
            assert_eq!(r.primal, horner20(x));
            // p is exp's Taylor polynomial: p'(x) = p(x) - x²⁰/20!.
            let want = horner20(x) - x.powi(20) * 4.110317623312165e-19;
            assert_close("horner rule", &[r.tangent], &[want]);
            let (v, d) = horner20_expert(x, 1.0);
            assert_eq!(v, horner20(x));
            assert_close("horner expert", &[d], &[want]);
            let nd = horner20_nd(Dual64::new(x, 1.0));
            assert_close("horner num-dual", &[nd.re, nd.eps], &[v, want]);
            let fd = central(|t| horner20(x + t));
            assert_close_tol("horner fd", &[fd], &[want], FD_TOL);
        }
    }

    #[test]
    fn rosenbrock_expert_matches_rule_and_finite_differences() {
        let mut r = Rng::new(30);
        let (x, dx) = (r.vec(100, -1.5, 1.5), r.vec(100, -1.0, 1.0));
        let (v, d) = rosenbrock_expert(&x, &dx);
        assert_eq!(v, crate::optim::rosenbrock(&x));
        let y = crate::optim::rosenbrock_frule(Dual::new(&x[..], &dx[..]));
        assert_close("rosenbrock rule", &[y.primal, y.tangent], &[v, d]);
        let line = |t: f64| {
            let p: Vec<f64> = x.iter().zip(&dx).map(|(a, b)| a + t * b).collect();
            crate::optim::rosenbrock(&p)
        };
        assert_close_tol("rosenbrock fd", &[central(line)], &[d], FD_TOL);
    }

    #[test]
    fn ba_residual_expert_matches_rule_num_dual_and_finite_differences() {
        for seed in 0..8 {
            let c = BaCase::new(seed);
            let (v, d) = c.expert();
            let (rv, rd) = c.rule();
            assert_eq!(rv, v, "primal of the expert JVP");
            assert_close("ba rule", &rd, &d);
            let (nv, nd) = c.num_dual();
            assert_close(
                "ba num-dual",
                &[nv[0], nv[1], nd[0], nd[1]],
                &[v[0], v[1], d[0], d[1]],
            );
            for k in 0..2 {
                let line = |t: f64| {
                    let cam: Vec<f64> = (0..11).map(|i| c.cam[i] + t * c.dcam[i]).collect();
                    let x: Vec<f64> = (0..3).map(|i| c.x[i] + t * c.dx[i]).collect();
                    let w = c.w.0 + t * c.w.1;
                    crate::ba::ba_residual(&cam, &x, w, c.feature.0, c.feature.1)[k]
                };
                // The residual is of order 100: compare on its scale.
                assert_close_tol("ba fd", &[central(line)], &[d[k]], FD_TOL);
            }
        }
    }

    #[test]
    fn ba_residual_expert_without_rotation_matches_finite_differences() {
        let mut c = BaCase::new(3);
        c.cam[..3].fill(0.0);
        let (_, d) = c.expert();
        let (_, rd) = c.rule();
        assert_close("ba rule, r = 0", &rd, &d);
    }

    #[test]
    fn matvec_with_constant_matrix_agrees() {
        let n = crate::simple::N_MATVEC;
        let mut r = Rng::new(31);
        let a = r.vec(n * n, -1.0, 1.0);
        let (x, dx) = (r.vec(n, -1.0, 1.0), r.vec(n, -1.0, 1.0));
        // dy = A dx, written out from the definition.
        let want: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| a[i * n + j] * dx[j]).sum())
            .collect();
        let (mut y, mut dy) = (vec![0.0; n], vec![0.0; n]);
        matvec_const_expert(&a, &x, &dx, &mut y, &mut dy);
        assert_close("matvec expert", &dy, &want);
        let mut plain = vec![0.0; n];
        crate::simple::matvec(&a, &x, &mut plain);
        assert_eq!(y, plain);
        let (mut uy, mut udy) = (vec![0.0; n], vec![0.0; n]);
        matvec_const_unchecked(&a, &x, &dx, &mut uy, &mut udy);
        assert_eq!(uy, plain);
        assert_close("matvec expert without bounds checks", &udy, &want);
        let (mut ry, mut rdy) = (vec![0.0; n], vec![0.0; n]);
        matvec_const_frule(
            &a,
            Dual::new(&x[..], &dx[..]),
            Dual::new(&mut ry[..], &mut rdy[..]),
        );
        assert_eq!(ry, plain);
        assert_close("matvec inactive rule", &rdy, &want);
        let zeros = vec![0.0; n * n];
        let (mut cy, mut cdy) = (vec![0.0; n], vec![0.0; n]);
        crate::simple::matvec_frule(
            Dual::new(&a[..], &zeros[..]),
            Dual::new(&x[..], &dx[..]),
            Dual::new(&mut cy[..], &mut cdy[..]),
        );
        assert_close("matvec constant-dual rule", &cdy, &want);
        let xd = crate::simple::duals(&x, &dx);
        let mut ny = vec![Dual64::from(0.0); n];
        matvec_const_nd(&a, &xd, &mut ny);
        let nd: Vec<f64> = ny.iter().map(|v| v.eps).collect();
        assert_close("matvec num-dual", &nd, &want);
    }

    #[test]
    fn sums_agree() {
        let mut r = Rng::new(32);
        let (x, dx) = (r.vec(1000, -2.0, 2.0), r.vec(1000, -1.0, 1.0));
        let want: f64 = dx.iter().sum();
        assert_close("sum expert", &[slice_sum_expert(&x, &dx).1], &[want]);
        let want: f64 = x.iter().zip(&dx).map(|(v, d)| v.cos() * d).sum();
        let (v, d) = sum_sin_expert(&x, &dx);
        assert_eq!(v, crate::simple::sum_sin(&x));
        assert_close("sum sin expert", &[d], &[want]);
    }

    #[test]
    fn pendulum_rk4_derivatives_agree_with_finite_differences() {
        let (th, om, l) = (0.8, -0.3, 1.3);
        let (dth, dom, dl) = (0.4, -0.7, 0.25);
        let (v, d) = pendulum_rk4_expert((th, dth), (om, dom), (l, dl), RK4_STEPS);
        assert_eq!(v, pendulum_rk4(th, om, l, RK4_STEPS));
        let fd = central(|t| pendulum_rk4(th + t * dth, om + t * dom, l + t * dl, RK4_STEPS));
        assert_close_tol("pendulum expert fd", &[d], &[fd], FD_TOL);
        let y = pendulum_rk4_frule(
            Dual::new(th, dth),
            Dual::new(om, dom),
            Dual::new(l, dl),
            Dual::constant(RK4_STEPS),
        );
        assert_eq!(y.primal, v);
        assert_close("pendulum rule", &[y.tangent], &[d]);
        let nd = pendulum_rk4_nd(
            Dual64::new(th, dth),
            Dual64::new(om, dom),
            Dual64::new(l, dl),
            RK4_STEPS,
        );
        assert_close("pendulum num-dual", &[nd.re, nd.eps], &[v, d]);
    }
}
