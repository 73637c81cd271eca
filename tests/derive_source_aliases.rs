//! Type aliases of the file, as numeric code names its arrays and scalars (`type M3 =
//! [[f64; 3]; 3];`, `type Real = f64;`, `type Series = Vec<f64>;`, one inside a module):
//! the macro reads them from the file, as if `alias(..)` named them. A matrix exponential
//! by scaling and squaring checked against d/dt tr(exp(tA)) = tr(A exp(tA)), a moving
//! average over a `Series`, a rotation of `Vec3`s; every mode against central differences,
//! primals bit for bit.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, derivative, gradient, Wrt};
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

type M3 = [[f64; 3]; 3];
type Real = f64;
type Vec3 = [Real; 3];
type Series = Vec<f64>;

#[derive_frule]
pub fn matmul(a: &M3, b: &M3) -> M3 {
    let mut c = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            for k in 0..3 {
                c[i][j] += a[i][k] * b[k][j];
            }
        }
    }
    c
}

/// exp(A) by scaling and squaring of a Taylor series.
#[derive_frule]
pub fn expm(a: &M3) -> M3 {
    let norm = a.iter().flatten().map(|v| v.abs()).fold(0.0, f64::max);
    let s = (norm.log2().ceil() as i32 + 1).max(0);
    let scale = 0.5f64.powi(s);
    let mut x = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            x[i][j] = a[i][j] * scale;
        }
    }
    let mut result = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let mut term = result;
    for k in 1..20 {
        term = matmul(&term, &x);
        for i in 0..3 {
            for j in 0..3 {
                term[i][j] /= k as f64;
                result[i][j] += term[i][j];
            }
        }
    }
    for _ in 0..s {
        result = matmul(&result, &result);
    }
    result
}

const A: M3 = [[0.1, 0.8, -0.3], [-0.5, 0.2, 0.4], [0.3, -0.2, -0.6]];

#[derive_frule]
pub fn trace_exp(t: Real) -> Real {
    let mut ta: M3 = A;
    for i in 0..3 {
        for j in 0..3 {
            ta[i][j] *= t;
        }
    }
    let e = expm(&ta);
    e[0][0] + e[1][1] + e[2][2]
}

/// The mean of a trailing moving average of width 3.
#[derive_frule]
pub fn smoothed_mean(xs: &[f64]) -> f64 {
    let mut out: Series = Vec::new();
    for w in xs.windows(3) {
        out.push((w[0] + w[1] + w[2]) / 3.0);
    }
    out.iter().sum::<f64>() / out.len() as f64
}

/// The z-rotation of `v` by angle `p[0]`, its x-component times `p[1]`.
#[derive_frule]
pub fn rotated_x(p: &[f64]) -> Real {
    let v: Vec3 = [1.0, 2.0, 0.5];
    let (s, c) = p[0].sin_cos();
    let r: M3 = [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]];
    let mut w: Vec3 = [0.0; 3];
    for i in 0..3 {
        for j in 0..3 {
            w[i] += r[i][j] * v[j];
        }
    }
    w[0] * p[1]
}

mod planar {
    use fwdad::prelude::*;

    type Pt = [f64; 2];

    /// The perimeter of a polygon of `Pt`s.
    #[derive_frule]
    pub fn perimeter(flat: &[f64]) -> f64 {
        let pts: Vec<Pt> = flat.chunks(2).map(|c| [c[0], c[1]]).collect();
        let mut total = 0.0;
        for i in 0..pts.len() {
            let a: Pt = pts[i];
            let b: Pt = pts[(i + 1) % pts.len()];
            total += ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        }
        total
    }
}

#[test]
fn trace_of_the_matrix_exponential_matches_the_closed_form() {
    let t = 1.7;
    let (v, d) = derivative(trace_exp {}, t);
    assert_eq!(v.to_bits(), trace_exp(t).to_bits());
    // d/dt tr(exp(tA)) = tr(A exp(tA)), with exp(tA) from the plain function.
    let mut ta = A;
    for row in ta.iter_mut() {
        for v in row.iter_mut() {
            *v *= t;
        }
    }
    let ae = matmul(&A, &expm(&ta));
    assert_close(d, ae[0][0] + ae[1][1] + ae[2][2], 1e-12, "d/dt tr exp(tA)");
}

#[test]
fn a_series_alias_in_every_mode() {
    check_modes!(smoothed_mean {}, smoothed_mean, [0.3, 1.2, -0.4, 2.0, 0.7]);
    // Each interior point counts in up to three windows of the three-point mean.
    let (_, g) = gradient(bind(smoothed_mean {}, (Wrt,)), &[0.3, 1.2, -0.4, 2.0, 0.7]);
    let want = [1.0 / 9.0, 2.0 / 9.0, 3.0 / 9.0, 2.0 / 9.0, 1.0 / 9.0];
    for k in 0..5 {
        assert_close(g[k], want[k], 1e-15, "d/dx");
    }
}

#[test]
fn array_and_scalar_aliases_in_every_mode() {
    check_modes!(rotated_x {}, rotated_x, [0.4, 1.5]);
    // x = (cos θ · 1 − sin θ · 2) p₁.
    let (_, g) = gradient(bind(rotated_x {}, (Wrt,)), &[0.4, 1.5]);
    assert_close(
        g[0],
        (-(0.4f64).sin() - 2.0 * (0.4f64).cos()) * 1.5,
        1e-14,
        "d/dθ",
    );
    assert_close(g[1], (0.4f64).cos() - 2.0 * (0.4f64).sin(), 1e-15, "d/dp1");
}

#[test]
fn an_alias_inside_a_module_in_every_mode() {
    check_modes!(
        planar::perimeter {},
        planar::perimeter,
        [0.0, 0.0, 1.0, 0.2, 0.6, 1.1]
    );
}
