//! Runtime dispatch (issue 30): a large free function of `f64`s and `&[f64]`s gets a
//! second entry compiled for AVX2 and FMA, which its rule takes for batches of four lanes
//! or more where the CPU has both (`fwdad_runtime::dispatch`). Checked here through
//! functions written as their authors write them: the primal is the plain function's bit
//! for bit in every mode, a batch of 15 lanes (dispatched on such a CPU) agrees with three
//! lanes (never dispatched) and with one direction to rounding, and with central finite
//! differences; constants passed as `Dual::constant` go through the wide entry too.

// The checks index outputs and inputs in loops, as their authors write them.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::{Batch, ConstTangent};

/// ADBench's bundle adjustment reprojection error of one observation: camera
/// `[r (angle-axis), c (centre), f, u0, v0, k1, k2]`, point `x`, weight `w`, feature
/// `(fx, fy)`.
#[derive_frule]
fn reprojection_error(cam: &[f64], x: &[f64], w: f64, fx: f64, fy: f64) -> [f64; 2] {
    let xo = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
    let sqtheta = cam[0] * cam[0] + cam[1] * cam[1] + cam[2] * cam[2];
    let xc = if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let (st, ct) = (theta.sin(), theta.cos());
        let k = [cam[0] / theta, cam[1] / theta, cam[2] / theta];
        let kxo = [
            k[1] * xo[2] - k[2] * xo[1],
            k[2] * xo[0] - k[0] * xo[2],
            k[0] * xo[1] - k[1] * xo[0],
        ];
        let tmp = (k[0] * xo[0] + k[1] * xo[1] + k[2] * xo[2]) * (1.0 - ct);
        [
            xo[0] * ct + kxo[0] * st + k[0] * tmp,
            xo[1] * ct + kxo[1] * st + k[1] * tmp,
            xo[2] * ct + kxo[2] * st + k[2] * tmp,
        ]
    } else {
        [
            xo[0] + (cam[1] * xo[2] - cam[2] * xo[1]),
            xo[1] + (cam[2] * xo[0] - cam[0] * xo[2]),
            xo[2] + (cam[0] * xo[1] - cam[1] * xo[0]),
        ]
    };
    let (px, py) = (xc[0] / xc[2], xc[1] / xc[2]);
    let rsq = px * px + py * py;
    let distortion = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    [
        w * (cam[6] * distortion * px + cam[7] - fx),
        w * (cam[6] * distortion * py + cam[8] - fy),
    ]
}

/// End effector of a planar arm of four links (lengths `l`) at joint angles `q`, and its
/// distance from a target: a robot's reach residual.
#[derive_frule]
fn arm_reach(q: &[f64], l: &[f64], tx: f64, ty: f64) -> f64 {
    let mut angle = 0.0;
    let (mut x, mut y) = (0.0, 0.0);
    for i in 0..4 {
        angle += q[i];
        x += l[i] * angle.cos();
        y += l[i] * angle.sin();
    }
    let (dx, dy) = (x - tx, y - ty);
    let d2 = dx * dx + dy * dy;
    let soft = (d2 + 1e-6).sqrt();
    let e1 = soft - 0.5 * (1.0 + (q[0] * q[1] - q[2] * q[3]).tanh());
    let e2 = (q[0] - q[1]).exp() / (1.0 + (q[2] + q[3]).exp());
    let e3 = (l[0] * l[1] + l[2] * l[3]) / (1.0 + x * x + y * y);
    e1 * e1 + 0.1 * e2 + 0.01 * e3 * (1.0 + q[0].sin() * q[3].cos())
}

const CAM: [f64; 11] = [
    0.12, -0.31, 0.05, 0.4, -0.2, -6.0, 810.0, 3.0, -2.0, -1.2e-7, 3.0e-14,
];
const POINT: [f64; 3] = [0.7, -0.45, 1.3];
const W: f64 = 0.8;
const FEAT: (f64, f64) = (-31.0, 12.5);

/// The 15 block parameters (camera, point, weight) of the residual at `p`.
fn residual_at(p: &[f64; 15]) -> [f64; 2] {
    reprojection_error(&p[..11], &p[11..14], p[14], FEAT.0, FEAT.1)
}

fn block_params() -> [f64; 15] {
    let mut p = [0.0; 15];
    p[..11].copy_from_slice(&CAM);
    p[11..14].copy_from_slice(&POINT);
    p[14] = W;
    p
}

/// The residual's Jacobian in one pass of `N` lanes of the directions `first..first + N`
/// (unit seeds; the others zero), with the feature passed as `fx_fy`.
fn residual_lanes<const N: usize>(first: usize, constant: bool) -> ([f64; 2], [[f64; N]; 2]) {
    let seed = |k: usize| match k.checked_sub(first) {
        Some(j) if j < N => Batch::<f64, N>::unit(j),
        _ => Batch::default(),
    };
    let sc: Vec<_> = (0..11).map(seed).collect();
    let sx: Vec<_> = (11..14).map(seed).collect();
    let y = match constant {
        false => <reprojection_error as Frule<_, Batch<f64, N>>>::frule(
            &reprojection_error {},
            (
                Dual::new(&CAM[..], &sc[..]),
                Dual::new(&POINT[..], &sx[..]),
                Dual::new(W, seed(14)),
                Dual::new(FEAT.0, Batch::default()),
                Dual::new(FEAT.1, Batch::default()),
            ),
        ),
        true => <reprojection_error as Frule<_, Batch<f64, N>>>::frule(
            &reprojection_error {},
            (
                Dual::new(&CAM[..], &sc[..]),
                Dual::new(&POINT[..], &sx[..]),
                Dual::new(W, seed(14)),
                Dual::new(FEAT.0, ConstTangent),
                Dual::new(FEAT.1, ConstTangent),
            ),
        ),
    };
    (y.primal, [y.tangent[0].0, y.tangent[1].0])
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

/// Central finite differences of `f` at `p`, output `k`, input `j`.
fn central<const M: usize, const P: usize>(
    f: impl Fn(&[f64; P]) -> [f64; M],
    p: &[f64; P],
    k: usize,
    j: usize,
) -> f64 {
    let h = 1e-6 * (1.0 + p[j].abs());
    let (mut a, mut b) = (*p, *p);
    a[j] += h;
    b[j] -= h;
    (f(&a)[k] - f(&b)[k]) / (2.0 * h)
}

#[test]
fn reprojection_block_in_15_lanes_matches_3_lanes_one_direction_and_differences() {
    let p = block_params();
    let plain = residual_at(&p);
    for constant in [false, true] {
        let (y15, t15) = residual_lanes::<15>(0, constant);
        assert_eq!(y15.map(f64::to_bits), plain.map(f64::to_bits));
        for first in [0, 3, 6, 9, 12] {
            let (y3, t3) = residual_lanes::<3>(first, constant);
            assert_eq!(y3.map(f64::to_bits), plain.map(f64::to_bits));
            for k in 0..2 {
                for j in 0..3 {
                    let (a, b) = (t15[k][first + j], t3[k][j]);
                    assert!(
                        close(a, b, 1e-12),
                        "∂e{k}/∂p{}: {a} in 15 lanes, {b} in 3",
                        first + j
                    );
                }
            }
        }
        for j in 0..15 {
            let mut sc = [0.0; 11];
            let mut sx = [0.0; 3];
            let mut sw = 0.0;
            match j {
                0..=10 => sc[j] = 1.0,
                11..=13 => sx[j - 11] = 1.0,
                _ => sw = 1.0,
            }
            let y = <reprojection_error as Frule<_, f64>>::frule(
                &reprojection_error {},
                (
                    Dual::new(&CAM[..], &sc[..]),
                    Dual::new(&POINT[..], &sx[..]),
                    Dual::new(W, sw),
                    Dual::new(FEAT.0, 0.0),
                    Dual::new(FEAT.1, 0.0),
                ),
            );
            assert_eq!(y.primal.map(f64::to_bits), plain.map(f64::to_bits));
            for k in 0..2 {
                let fd = central(residual_at, &p, k, j);
                assert!(
                    close(t15[k][j], y.tangent[k], 1e-12),
                    "∂e{k}/∂p{j}: {} against one direction {}",
                    t15[k][j],
                    y.tangent[k]
                );
                assert!(
                    close(t15[k][j], fd, 1e-6),
                    "∂e{k}/∂p{j}: {} against differences {fd}",
                    t15[k][j]
                );
            }
        }
    }
}

#[test]
fn reprojection_without_rotation_takes_the_other_branch_in_every_width() {
    let mut cam = CAM;
    cam[..3].fill(0.0);
    let plain = reprojection_error(&cam, &POINT, W, FEAT.0, FEAT.1);
    let s15: Vec<_> = (0..11).map(Batch::<f64, 15>::unit).collect();
    let y = <reprojection_error as Frule<_, Batch<f64, 15>>>::frule(
        &reprojection_error {},
        (
            Dual::new(&cam[..], &s15[..]),
            Dual::new(&POINT[..], &[Batch::default(); 3][..]),
            Dual::new(W, ConstTangent),
            Dual::new(FEAT.0, ConstTangent),
            Dual::new(FEAT.1, ConstTangent),
        ),
    );
    assert_eq!(y.primal.map(f64::to_bits), plain.map(f64::to_bits));
    let at = |c: &[f64; 11], k: usize| reprojection_error(c, &POINT, W, FEAT.0, FEAT.1)[k];
    for k in 0..2 {
        for j in 3..11 {
            let h = 1e-6 * (1.0 + cam[j].abs());
            let (mut a, mut b) = (cam, cam);
            a[j] += h;
            b[j] -= h;
            let fd = (at(&a, k) - at(&b, k)) / (2.0 * h);
            assert!(
                close(y.tangent[k].0[j], fd, 1e-6),
                "∂e{k}/∂cam{j}: {} against {fd}",
                y.tangent[k].0[j]
            );
        }
    }
}

#[test]
fn arm_reach_gradient_by_the_drivers_matches_differences_and_the_primal() {
    let q = [0.3, -0.7, 1.1, 0.25];
    let l = [1.0, 0.8, 0.6, 0.3];
    let (tx, ty) = (1.2, 0.9);
    let plain = arm_reach(&q, &l, tx, ty);
    let f = |q: &[f64; 4]| [arm_reach(q, &l, tx, ty)];
    // Four lanes: the wide entry on an AVX2 machine.
    let (value, grad) = gradient(bind(arm_reach {}, (Wrt, &l[..], tx, ty)), &q[..]);
    assert_eq!(value.to_bits(), plain.to_bits());
    for j in 0..4 {
        let fd = central(f, &q, 0, j);
        assert!(
            close(grad[j], fd, 1e-6),
            "∂/∂q{j}: {} against {fd}",
            grad[j]
        );
        let mut s = [0.0; 4];
        s[j] = 1.0;
        let one = <arm_reach as Frule<_, f64>>::frule(
            &arm_reach {},
            (
                Dual::new(&q[..], &s[..]),
                Dual::constant(&l[..]),
                Dual::constant(tx),
                Dual::constant(ty),
            ),
        );
        assert_eq!(one.primal.to_bits(), plain.to_bits());
        assert!(
            close(grad[j], one.tangent, 1e-12),
            "∂/∂q{j}: {} against one direction {}",
            grad[j],
            one.tangent
        );
    }
    // The lengths and the target too, in one pass of 10 lanes.
    let seeds: Vec<Batch<f64, 10>> = (0..10).map(Batch::unit).collect();
    let y = <arm_reach as Frule<_, Batch<f64, 10>>>::frule(
        &arm_reach {},
        (
            Dual::new(&q[..], &seeds[..4]),
            Dual::new(&l[..], &seeds[4..8]),
            Dual::new(tx, seeds[8]),
            Dual::new(ty, seeds[9]),
        ),
    );
    assert_eq!(y.primal.to_bits(), plain.to_bits());
    let all = |p: &[f64; 10]| [arm_reach(&p[..4], &p[4..8], p[8], p[9])];
    let mut p = [0.0; 10];
    p[..4].copy_from_slice(&q);
    p[4..8].copy_from_slice(&l);
    p[8] = tx;
    p[9] = ty;
    for j in 0..10 {
        let fd = central(all, &p, 0, j);
        assert!(
            close(y.tangent.0[j], fd, 1e-6),
            "lane {j}: {} against {fd}",
            y.tangent.0[j]
        );
    }
}

/// An orbit designer's cost of a satellite's state: specific orbital energy with Earth's
/// J2 oblateness term, the eccentricity from the energy and the angular momentum, and a
/// penalty on the orbit's inclination. Nine floats by value: the wide entry would take
/// eighteen arguments (each primal and its tangent), more than it takes, so the rule has
/// none and runs its default-target body in every width.
#[derive_frule]
#[allow(clippy::too_many_arguments)]
fn orbit_cost(x: f64, y: f64, z: f64, vx: f64, vy: f64, vz: f64, mu: f64, j2: f64, re: f64) -> f64 {
    let r2 = x * x + y * y + z * z;
    let r = r2.sqrt();
    let v2 = vx * vx + vy * vy + vz * vz;
    let sin_lat = z / r;
    let p2 = 0.5 * (3.0 * sin_lat * sin_lat - 1.0);
    let u = -mu / r * (1.0 - j2 * (re / r) * (re / r) * p2);
    let energy = 0.5 * v2 + u;
    let hx = y * vz - z * vy;
    let hy = z * vx - x * vz;
    let hz = x * vy - y * vx;
    let h = (hx * hx + hy * hy + hz * hz).sqrt();
    let ecc2 = 1.0 + 2.0 * energy * h * h / (mu * mu);
    energy + 0.1 * ecc2.max(0.0).sqrt() + 1e-3 * (hz / h - 1.0).powi(2)
}

#[test]
fn orbit_cost_of_nine_floats_by_value_in_nine_lanes_matches_one_direction_and_differences() {
    // An eccentric orbit (e ≈ 0.83), kilometres and seconds.
    let s = [
        6524.834,
        6862.875,
        6448.296,
        4.901327,
        5.533756,
        -1.976341,
        398600.4418,
        1.08263e-3,
        6378.137,
    ];
    let cost = |s: &[f64; 9]| {
        [orbit_cost(
            s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8],
        )]
    };
    let plain = cost(&s)[0];
    let seeds: [Batch<f64, 9>; 9] = std::array::from_fn(Batch::unit);
    let d = |k: usize| Dual::new(s[k], seeds[k]);
    let y = <orbit_cost as Frule<_, Batch<f64, 9>>>::frule(
        &orbit_cost {},
        (d(0), d(1), d(2), d(3), d(4), d(5), d(6), d(7), d(8)),
    );
    assert_eq!(y.primal.to_bits(), plain.to_bits());
    for j in 0..9 {
        let mut one = [0.0; 9];
        one[j] = 1.0;
        let e = |k: usize| Dual::new(s[k], one[k]);
        let dir = <orbit_cost as Frule<_, f64>>::frule(
            &orbit_cost {},
            (e(0), e(1), e(2), e(3), e(4), e(5), e(6), e(7), e(8)),
        );
        assert_eq!(dir.primal.to_bits(), plain.to_bits());
        let fd = central(cost, &s, 0, j);
        assert!(
            close(y.tangent.0[j], dir.tangent, 1e-12),
            "∂/∂s{j}: {} in 9 lanes, {} in one direction",
            y.tangent.0[j],
            dir.tangent
        );
        assert!(
            close(y.tangent.0[j], fd, 1e-5),
            "∂/∂s{j}: {} against differences {fd}",
            y.tangent.0[j]
        );
    }
}
