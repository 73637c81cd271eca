//! lambert-bate 0.1.0 (MIT, Copyright (c) 2022 Jack Dinsmore,
//! <https://github.com/jack-dinsmore/lambert-bate>, as published on crates.io): Lambert's
//! problem by Bate, Mueller and White's universal-variable method, the velocities at two
//! positions `r1`, `r2` of an orbit flown in a time `tof`; Newton's method on the universal
//! variable z with the Stumpff functions S(z) and C(z) (series near 0, trigonometric and
//! hyperbolic branches) and their hand-written derivatives as the slope, both handed to the
//! crate's `newton::find_root` as closures, bounded by z ≤ (2π)², a `Result` of the crate's
//! error enum through `?`. `src/lib.rs` copied whole with `src/newton.rs` in its `mod newton`
//! (a file module in the crate), `#[fwdad::derive_frule]` added on each function but the
//! integer `const fn factorial`.
//!
//! The derivatives are checked against the crate's own S'(z) and C'(z), central differences
//! of the published crate (a dev-dependency), and the two-body motion's invariants (the
//! angular momentum r₁ × v₁ = r₂ × v₂ and the energy v²/2 − μ/r along the transfer, whose
//! derivatives in every input vanish), in one direction, in batches and at second order;
//! primals bit for bit against the published crate.

#![allow(clippy::all, non_snake_case, dead_code, unused_imports)]

mod common;

/// `src/lib.rs` of lambert-bate 0.1.0, with `src/newton.rs` inline.
#[rustfmt::skip]
pub mod bate {
#![allow(non_snake_case)]

// `#[cfg(test)] mod tests;` (the crate's tests) left out; in its place, the tests of the
// private Stumpff functions (`stumpff_tests` at the end of the module).

mod newton {
/// The maximum value of z for one orbit is (2 * pi)^2. Enforce this. 
const MAX_Z: f64 = 39.4784176043;

/// When z becomes too large, it should be reset to some point just inside the boundary of `MAX_Z`. If this inset is too far and z becomes too large again, it is halved each iteration.
const FIRST_RESET_DIST: f64 = 7.0;

/// Enumerates the possible ways in which the Lambert solver could fail
#[derive(Clone, Copy, Debug)]
pub enum LambertError {
    /// The algorithm could not converge in the number of iterations allowed. Raise `num_iter` or increase `eps`
    NoConvergence,
    /// NaN results were encountered. This generally occurs when assumptions on r1, r2, and tof were violated.
    NaNResult,
}

/// Find the root of a function using Newton's method. This function is specifically
/// designed for Lambert's problem and incorporates bounds on z.
#[fwdad::derive_frule]
pub(crate) fn find_root<Func: Fn(f64) -> f64, Slope: Fn(f64) -> f64>(func: Func, slope: Slope, eps: f64, num_iter: usize) -> Result<f64, LambertError> {
    let mut reset_last_frame = false;
    let mut reset_distance = FIRST_RESET_DIST;
    let mut z = 0.0;
    for _ in 0..num_iter {
        let f = func(z);
        if f.abs() < eps {
            // Root was found
            return Ok(z);
        }
        z -= f / slope(z);
        if z.is_nan() {
            return Err(LambertError::NaNResult);
        }
        if z > MAX_Z {
            if reset_last_frame {
                reset_distance /= 2.0;
            }
            z = MAX_Z - reset_distance;
            reset_last_frame = true;
        } else {
            reset_last_frame = false;
        }
    }
    Err(LambertError::NoConvergence)
}
}
use newton::LambertError;

const Z_SERIES_THRESHOLD: f64 = 1.0e-3;

const fn factorial(num: u64) -> u64 {
    match num {
        0  => 1,
        1.. => num * factorial(num-1),
    }
}
#[fwdad::derive_frule]
fn dot(v1: [f64; 3], v2: [f64; 3]) -> f64 {
    v1[0]*v2[0] + v1[1] * v2[1] + v1[2] * v2[2]
}

/// A lightweight function to solve Lambert's problem, given two points in an orbit and the time of
/// flight between them.
/// 
/// The first element of the return value is the velocity associated with the position `r1` while
/// the second is associated with `r2`. `tof` indicates the time of flight between the two
/// points. `mu` indicates the gravitational parameter of the system: 
/// the product of Newton's Gravitational constant and the mass of the central body. It is assumed
/// that the mass of the orbiting object is negligible.
/// 
/// If the velocities are desired for trajectories that take the long path between `r1` and 
/// `r2`, then `short` should be set to `false`.
/// 
/// If `r1` or `r2` are nearly colinear, then `NaN` results are possible. In this case, a
/// small offset should be added to one or both of the vectors. If the root-finding method encounters
/// NaN or fails to complete for another reason, then `Err` will be returned.
/// 
/// # Examples
/// 
/// The below line computes the time velocity required to leave Earth from the x axis and arrive at
/// Mars on the -x axis (a Hohmann transfer) in meters per second after 8 months. We chose a time of
/// flight (22372602 seconds) which will lead to velocities aligned with the y axis, but other times
/// of flight may also be chosen.
/// 
/// ```
/// get_velocities([1.496e11, 0.0, 0.0], [-2.28e11, 1.0e6, 0.0], 22372602, 1.327e20,
///     true, 1e-7, 100);
/// ```
/// 
/// A small offset was added to the positions to prevent them from being co-linear.
/// 
/// If the same function is run with `short` changed to `false`, the resulting velocities will 
/// have reversed y coordinate, except for small errors induced by the added offset.
#[fwdad::derive_frule]
pub fn get_velocities(r1: [f64; 3], r2: [f64; 3], tof: f64, mu: f64, short: bool,
    eps: f64, max_iter: usize) -> Result<([f64; 3], [f64; 3]), LambertError> {
    let r1_mag = dot(r1, r1).sqrt();
    let r2_mag = dot(r2, r2).sqrt();
    let A = f64::sqrt(r1_mag * r2_mag + dot(r1, r2)) * (if short {1.0} else {-1.0});
    
    let best_z = newton::find_root(|z| -> f64 {
        let S = get_S(z);
        let C = get_C(z);
        let y = r1_mag + r2_mag - A * (1.0 - z * S) / C.sqrt(); // Equation 5.3-9
        let x = f64::sqrt(y / C); // Equation 5.3-10
        let t = (x * x * x * S + A * y.sqrt()) / mu.sqrt();// Equation 5-3.12
        t / tof - 1.0
    }, |z| -> f64 {
        let S = get_S(z);
        let dS_dz = get_dS_dz(z);
        let C = get_C(z);
        let dC_dz = get_dC_dz(z);
        let y = r1_mag + r2_mag - A * (1.0 - z * S) / C.sqrt();
        let x = f64::sqrt(y / C);
        (x * x * x * (dS_dz - 3.0 * S * dC_dz / (2.0 * C)) 
            + A / 8.0 * (3.0 * S * y.sqrt() / C + A / x)) / mu.sqrt() / tof
    }, eps, max_iter)?;

    let S = get_S(best_z);
    let C = get_C(best_z);
    let y = r1_mag + r2_mag - A * (1.0 - best_z * S) / C.sqrt();
    let f = 1.0 - y / r1_mag; // Equation 5.3-13
    let g = A * f64::sqrt(y / mu);  // Equation 5.3-14
    let g_dot = 1.0 - y / r2_mag; // Equation 5.3-15

    let v1 = [
        (r2[0] - f * r1[0]) / g,
        (r2[1] - f * r1[1]) / g,
        (r2[2] - f * r1[2]) / g,
    ]; // Equation 5.3-16
    let v2 = [
        (g_dot * r2[0] - r1[0]) / g,
        (g_dot * r2[1] - r1[1]) / g,
        (g_dot * r2[2] - r1[2]) / g,
    ]; // Equation 5.3-17

    Ok((v1, v2))
}

/// Compute the S value defined by Bate
#[fwdad::derive_frule]
fn get_S(z: f64) -> f64 { // Equation 4.4-10
    if z.abs() < Z_SERIES_THRESHOLD {
          1.0 / factorial(3) as f64
        - z / factorial(5) as f64
        + z * z / factorial(7) as f64
        - z * z * z / factorial(9) as f64
        + z * z * z * z / factorial(11) as f64
    } else {
        if z > 0.0 {
            let z_sqrt = z.sqrt();
            (z_sqrt - z_sqrt.sin()) / (z * z_sqrt)
        } else {
            let z_sqrt = (-z).sqrt();
            (z_sqrt.sinh() - z_sqrt) / (-z * z_sqrt)
        }
    }
}

/// Compute the C value defined by Bate
#[fwdad::derive_frule]
fn get_C(z: f64) -> f64 { // Equation 4.4-11
    if z.abs() < Z_SERIES_THRESHOLD {
        1.0 / factorial(2) as f64
        - z / factorial(4) as f64
        + z * z / factorial(6) as f64
        - z * z * z / factorial(8) as f64
        + z * z * z * z / factorial(10) as f64
    } else {
        if z > 0.0 {
            (1.0 - z.sqrt().cos()) / z
        } else {
            (1.0 - (-z).sqrt().cosh()) / z
        }
    }
}

/// Compute the derivative of S
#[fwdad::derive_frule]
fn get_dS_dz(z: f64) -> f64 { // Equation 5.3-13
    if z.abs() < Z_SERIES_THRESHOLD {
        - 1.0 / factorial(5) as f64
        + 2.0 * z / factorial(7) as f64
        - 3.0 * z * z / factorial(9) as f64
        + 4.0 * z * z * z / factorial(11) as f64
        - 5.0 * z * z * z * z / factorial(13) as f64
    } else {
        if z > 0.0 {
            let sqrt_z = z.sqrt();
            - 0.5  / (z * z) * (2.0 + sqrt_z.cos()
                - 3.0 * sqrt_z.sin() / sqrt_z)
        } else {
            let sqrt_z = (-z).sqrt();
            - 0.5 / (z * z) * (2.0 + sqrt_z.cosh()
                - 3.0 * sqrt_z.sinh() / sqrt_z)
        }
    }
}

/// Compute the derivative of G
#[fwdad::derive_frule]
fn get_dC_dz(z: f64) -> f64 { // Equation 5.3-14
    if z.abs() < Z_SERIES_THRESHOLD {
        - 1.0 / factorial(4) as f64
        + 2.0 * z / factorial(6) as f64
        - 3.0 * z * z / factorial(8) as f64
        + 4.0 * z * z * z / factorial(10) as f64
        - 5.0 * z * z * z * z / factorial(10) as f64
    } else {
        if z > 0.0 {
            let sqrt_z = z.sqrt();
            - 0.5 / (z * z) * (2.0 - 2.0 * sqrt_z.cos()
                - sqrt_z.sin() * sqrt_z)
        } else {
            let sqrt_z = (-z).sqrt();
            - 0.5 / (z * z) * (2.0 - 2.0 * sqrt_z.cosh()
                + sqrt_z.sinh() * sqrt_z)
        }
    }
}

#[cfg(test)]
mod stumpff_tests {
use crate::common::modes::assert_close;
use fwdad::prelude::*;

/// The derivatives of the private S(z) and C(z) against the crate's own S'(z) and C'(z)
/// (its Newton slope), primals bit for bit against the plain functions.
#[test]
fn stumpff_functions_against_the_crates_own_derivatives() {
    // Below |z| = 1e-3 S and C are series, their derivatives the crate's own series.
    for z in [-30.0, -4.0, -0.5, -2e-4, 0.0, 5e-4, 0.8, 9.0, 35.0] {
        let (s, ds) = derivative(super::get_S {}, z);
        assert_eq!(s.to_bits(), super::get_S(z).to_bits());
        assert_close(ds, super::get_dS_dz(z), 1e-9, &format!("S'({z})"));
        let (c, dc) = derivative(super::get_C {}, z);
        assert_eq!(c.to_bits(), super::get_C(z).to_bits());
        // The crate's C' series has 5z⁴/10! for 5z⁴/12!; at |z| < 1e-3 that is below 1e-18.
        assert_close(dc, super::get_dC_dz(z), 1e-9, &format!("C'({z})"));
    }
}
}
}

use bate::get_velocities;
use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;
use fwdad::prelude::*;

/// Both velocities of the transfer from `p = [r1, r2, tof, mu]` (canonical units), the short
/// way, as a caller of the crate writes it.
#[fwdad::derive_frule]
fn transfer(p: &[f64; 8]) -> [f64; 6] {
    let (v1, v2) = get_velocities(
        [p[0], p[1], p[2]],
        [p[3], p[4], p[5]],
        p[6],
        p[7],
        true,
        1e-13,
        100,
    )
    .unwrap();
    [v1[0], v1[1], v1[2], v2[0], v2[1], v2[2]]
}

/// The departure Δv from a circular orbit at `r1`, a mission designer's objective.
#[fwdad::derive_frule]
fn departure_dv(p: &[f64]) -> f64 {
    let r1 = [p[0], p[1], p[2]];
    let (v1, _) = get_velocities(r1, [p[3], p[4], p[5]], p[6], p[7], true, 1e-13, 100).unwrap();
    let r = (r1[0] * r1[0] + r1[1] * r1[1] + r1[2] * r1[2]).sqrt();
    let vc = (p[7] / r).sqrt();
    // The circular velocity at r1, in the plane z = 0, prograde.
    let c = [-vc * r1[1] / r, vc * r1[0] / r, 0.0];
    ((v1[0] - c[0]).powi(2) + (v1[1] - c[1]).powi(2) + (v1[2] - c[2]).powi(2)).sqrt()
}

fn published(p: &[f64]) -> [f64; 6] {
    let (v1, v2) = ::lambert_bate::get_velocities(
        [p[0], p[1], p[2]],
        [p[3], p[4], p[5]],
        p[6],
        p[7],
        true,
        1e-13,
        100,
    )
    .unwrap();
    [v1[0], v1[1], v1[2], v2[0], v2[1], v2[2]]
}

/// Transfers in canonical units (μ = 1 and 1.1), slower and faster.
const CASES: [[f64; 8]; 4] = [
    [1.0, 0.0, 0.0, -0.8, 1.1, 0.1, 2.5, 1.0],
    [1.0, 0.1, 0.0, -1.5, -0.2, 0.05, 6.0, 1.0],
    [1.2, 0.3, -0.1, 0.4, 1.6, 0.2, 0.9, 1.1],
    [1.0, 0.0, 0.0, 0.5, 0.8, 0.1, 0.5, 1.0],
];

#[test]
fn velocities_against_central_differences_of_the_published_crate() {
    for p in CASES {
        let (v, j) = jacobian_array(bind(transfer {}, (Wrt,)), &p);
        let want_v = published(&p);
        for i in 0..6 {
            assert_eq!(v[i].to_bits(), want_v[i].to_bits(), "v[{i}] at {p:?}");
        }
        for i in 0..6 {
            let want = fd_gradient(&|q: &[f64]| published(q)[i], &p);
            for k in 0..8 {
                assert_close(j[i][k], want[k], 1e-6, &format!("∂v{i}/∂p{k} at {p:?}"));
            }
        }
    }
}

/// r₁ × v₁ = r₂ × v₂ and v₁²/2 − μ/|r₁| = v₂²/2 − μ/|r₂| hold at every input: their
/// derivatives along every input, through the Jacobian, vanish.
#[test]
fn the_invariants_derivatives_vanish() {
    for p in CASES {
        let (v, j) = jacobian_array(bind(transfer {}, (Wrt,)), &p);
        let (r1, r2) = ([p[0], p[1], p[2]], [p[3], p[4], p[5]]);
        let mu = p[7];
        let cross = |a: [f64; 3], b: [f64; 3]| {
            [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ]
        };
        let norm = |a: [f64; 3]| (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
        for k in 0..8 {
            let mut e = [0.0; 8];
            e[k] = 1.0;
            let dr1 = [e[0], e[1], e[2]];
            let dr2 = [e[3], e[4], e[5]];
            let (v1, v2) = ([v[0], v[1], v[2]], [v[3], v[4], v[5]]);
            let dv1 = [j[0][k], j[1][k], j[2][k]];
            let dv2 = [j[3][k], j[4][k], j[5][k]];
            // d(r₁ × v₁ − r₂ × v₂) = dr₁ × v₁ + r₁ × dv₁ − dr₂ × v₂ − r₂ × dv₂.
            let (a, b, c, d) = (
                cross(dr1, v1),
                cross(r1, dv1),
                cross(dr2, v2),
                cross(r2, dv2),
            );
            for i in 0..3 {
                let dh = a[i] + b[i] - c[i] - d[i];
                assert!(dh.abs() < 1e-7, "d(h₁ − h₂)[{i}] along p{k} at {p:?}: {dh}");
            }
            // d(v²/2 − μ/r) = v·dv + μ r·dr/r³ − dμ/r.
            let energy = |r: [f64; 3], v: [f64; 3], dr: [f64; 3], dv: [f64; 3]| {
                let rn = norm(r);
                v[0] * dv[0]
                    + v[1] * dv[1]
                    + v[2] * dv[2]
                    + mu * (r[0] * dr[0] + r[1] * dr[1] + r[2] * dr[2]) / rn.powi(3)
                    - e[7] / rn
            };
            let de = energy(r1, v1, dr1, dv1) - energy(r2, v2, dr2, dv2);
            assert!(de.abs() < 1e-7, "d(E₁ − E₂) along p{k} at {p:?}: {de}");
        }
    }
}

#[test]
fn every_mode() {
    for p in CASES {
        check_widths!(
            departure_dv {},
            |q: &[f64]| {
                let (v1, _) = ::lambert_bate::get_velocities(
                    [q[0], q[1], q[2]],
                    [q[3], q[4], q[5]],
                    q[6],
                    q[7],
                    true,
                    1e-13,
                    100,
                )
                .unwrap();
                let r = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]).sqrt();
                let vc = (q[7] / r).sqrt();
                let c = [-vc * q[1] / r, vc * q[0] / r, 0.0];
                ((v1[0] - c[0]).powi(2) + (v1[1] - c[1]).powi(2) + (v1[2] - c[2]).powi(2)).sqrt()
            },
            p
        );
    }
}
