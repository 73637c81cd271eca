//! `Fused` tangents (a batch whose linearised updates are fused multiply-adds) through
//! derived rules, called from default `x86-64` code and, where the CPU has them, from a
//! function compiled for AVX2 and FMA (runtime dispatch, issue 30): the primal is the
//! plain function's bit for bit, the lanes are `Batch`'s to rounding and match central
//! finite differences.

// The checks index outputs and inputs in loops, as their authors write them.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::{Batch, Fused};

/// Reprojection of a world point into a camera with an angle-axis rotation, a
/// translation, a focal length and two radial distortion coefficients (bundle
/// adjustment's residual without the observation).
#[derive_frule]
#[inline(always)]
fn reproject(cam: &[f64], x: &[f64]) -> [f64; 2] {
    let (rx, ry, rz) = (cam[0], cam[1], cam[2]);
    let theta = (rx * rx + ry * ry + rz * rz).sqrt();
    let (kx, ky, kz) = (rx / theta, ry / theta, rz / theta);
    let (c, s) = (theta.cos(), theta.sin());
    let dot = kx * x[0] + ky * x[1] + kz * x[2];
    // Rodrigues: p c + (k × p) s + k (k·p)(1 - c), then the translation.
    let px = x[0] * c + (ky * x[2] - kz * x[1]) * s + kx * dot * (1.0 - c) + cam[3];
    let py = x[1] * c + (kz * x[0] - kx * x[2]) * s + ky * dot * (1.0 - c) + cam[4];
    let pz = x[2] * c + (kx * x[1] - ky * x[0]) * s + kz * dot * (1.0 - c) + cam[5];
    let (u, v) = (-px / pz, -py / pz);
    let r2 = u * u + v * v;
    let distortion = 1.0 + cam[7] * r2 + cam[8] * r2 * r2;
    [cam[6] * distortion * u, cam[6] * distortion * v]
}

/// A chain of springs with a quartic on-site potential.
#[derive_frule]
#[inline(always)]
fn chain_energy(x: &[f64]) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i] - 1.0;
        e += 0.5 * d * d + 0.25 * x[i].powi(4);
    }
    e
}

const CAM: [f64; 9] = [0.12, -0.31, 0.05, 0.4, -0.2, -6.0, 800.0, -1.2e-7, 3.0e-14];
const POINT: [f64; 3] = [0.7, -0.45, 1.3];

/// Unit seeds of the 12 inputs of `reproject` (camera then point) in 12 lanes.
fn unit_seeds<S>(wrap: impl Fn(Batch<f64, 12>) -> S) -> (Vec<S>, Vec<S>) {
    let cam = (0..9).map(|k| wrap(Batch::unit(k))).collect();
    let x = (0..3).map(|k| wrap(Batch::unit(9 + k))).collect();
    (cam, x)
}

fn reproject_batch() -> Dual<[f64; 2], [Batch<f64, 12>; 2]> {
    let (sc, sx) = unit_seeds(|b| b);
    let args = (Dual::new(&CAM[..], &sc[..]), Dual::new(&POINT[..], &sx[..]));
    <reproject as Frule<_, Batch<f64, 12>>>::frule(&reproject {}, args)
}

/// `reproject`'s dual in the `Fused` mode of 12 lanes.
type FusedProjection = Dual<[f64; 2], [Fused<Batch<f64, 12>>; 2]>;

fn reproject_fused() -> FusedProjection {
    let (sc, sx) = unit_seeds(Fused);
    let args = (Dual::new(&CAM[..], &sc[..]), Dual::new(&POINT[..], &sx[..]));
    <reproject as Frule<_, Fused<Batch<f64, 12>>>>::frule(&reproject {}, args)
}

/// `reproject_fused` compiled for AVX2 and FMA, if this CPU has them.
fn reproject_fused_wide() -> Option<FusedProjection> {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2,fma")]
        fn wide() -> FusedProjection {
            reproject_fused()
        }
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU has AVX2 and FMA (checked just above).
            return Some(unsafe { wide() });
        }
    }
    None
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs() + b.abs())
}

/// Central differences of output `k` of `reproject` in input `j` (camera, then point).
fn reproject_fd(k: usize, j: usize) -> f64 {
    let at = |h: f64| {
        let (mut cam, mut x) = (CAM, POINT);
        if j < 9 {
            cam[j] += h;
        } else {
            x[j - 9] += h;
        }
        reproject(&cam, &x)[k]
    };
    let h = 1e-6 * (1.0 + if j < 9 { CAM[j] } else { POINT[j - 9] }.abs());
    (at(h) - at(-h)) / (2.0 * h)
}

#[test]
fn reprojection_fused_matches_batch_and_differences() {
    let plain = reproject(&CAM, &POINT);
    let batch = reproject_batch();
    let mut runs = vec![("default target", reproject_fused())];
    if let Some(wide) = reproject_fused_wide() {
        runs.push(("AVX2 and FMA", wide));
    }
    for (what, fused) in runs {
        for k in 0..2 {
            assert_eq!(
                fused.primal[k].to_bits(),
                plain[k].to_bits(),
                "{what}: primal {k}"
            );
            for j in 0..12 {
                let (f, b) = (fused.tangent[k].0 .0[j], batch.tangent[k].0[j]);
                assert!(close(f, b, 1e-13), "{what}: ∂{k}/∂{j} fused {f}, batch {b}");
                let fd = reproject_fd(k, j);
                assert!(
                    close(f, fd, 1e-6),
                    "{what}: ∂{k}/∂{j} fused {f}, differences {fd}"
                );
            }
        }
    }
}

#[test]
fn chain_energy_fused_gradient_in_one_pass() {
    let x: Vec<f64> = (0..8)
        .map(|i| 1.1 * i as f64 + 0.05 * (i * i) as f64)
        .collect();
    let seeds: Vec<Fused<Batch<f64, 8>>> = (0..8).map(|k| Fused(Batch::unit(k))).collect();
    let args = (Dual::new(&x[..], &seeds[..]),);
    let y = <chain_energy as Frule<_, Fused<Batch<f64, 8>>>>::frule(&chain_energy {}, args);
    assert_eq!(y.primal.to_bits(), chain_energy(&x).to_bits());
    // ∂e/∂x_i = x_i³ - d_i + d_{i-1}, where d_i = x_{i+1} - x_i - 1 (no on-site term
    // for the last mass).
    let d = |i: usize| x[i + 1] - x[i] - 1.0;
    for i in 0..8 {
        let mut g = 0.0;
        if i < 7 {
            g += x[i].powi(3) - d(i);
        }
        if i > 0 {
            g += d(i - 1);
        }
        let lane = y.tangent.0 .0[i];
        assert!(close(lane, g, 1e-13), "∂e/∂x{i}: {lane}, formula {g}");
    }
}
