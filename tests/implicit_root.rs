//! `implicit_root` / `implicit_system` in derived bodies: the tangent of a root from the
//! implicit-function theorem, in every mode (one direction, batches through `gradient` and
//! `jacobian`, second order through `hessian` and `second_derivative`).
//!
//! Checked against derivatives worked out by hand (closed forms and orbital mechanics
//! textbook formulas), against differentiating Newton's iterations themselves (a derived
//! solver in the body), and against central finite differences (`test_frule`).
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, gradient, hessian, jacobian, second_derivative, Matrix, Wrt};
use fwdad::prelude::*;
use fwdad::testing::test_frule;
use fwdad::{implicit_root, implicit_system, Hyper, Residual};

#[track_caller]
fn assert_close(got: f64, want: f64, rtol: f64) {
    assert!(
        (got - want).abs() <= rtol * want.abs().max(1.0),
        "got {got:e}, want {want:e} (rtol {rtol:e})"
    );
}

/// Central differences of a hand-written gradient: an independent Hessian.
fn fd_hessian(grad: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Matrix {
    let n = x.len();
    let mut h = Matrix::zeros(n, n);
    for j in 0..n {
        let s = 1e-6 * x[j].abs().max(1.0);
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[j] += s;
        xm[j] -= s;
        let (gp, gm) = (grad(&xp), grad(&xm));
        for i in 0..n {
            h[(i, j)] = (gp[i] - gm[i]) / (2.0 * s);
        }
    }
    h
}

// ---------------------------------------------------------------------------------------
// Kepler's equation: one unknown, a tuple of parameters.

/// `E - e sin E - M`: the residual of Kepler's equation in the eccentric anomaly `E`.
#[derive_frule]
fn kepler(ecc_anomaly: f64, p: (f64, f64)) -> f64 {
    let (mean_anomaly, e) = p;
    ecc_anomaly - e * ecc_anomaly.sin() - mean_anomaly
}

/// Newton's method on Kepler's equation, not differentiated.
#[non_differentiable]
fn solve_kepler(mean_anomaly: f64, e: f64) -> f64 {
    let mut x = mean_anomaly;
    for _ in 0..50 {
        let step = (x - e * x.sin() - mean_anomaly) / (1.0 - e * x.cos());
        x -= step;
        if step.abs() < 1e-15 {
            break;
        }
    }
    x
}

/// The true anomaly `ν` at mean anomaly `m` of an orbit of eccentricity `e`.
#[derive_frule]
fn true_anomaly(m: f64, e: f64) -> f64 {
    let ecc_anomaly = solve_kepler(m, e);
    let ecc_anomaly = implicit_root(Residual(kepler {}), ecc_anomaly, (m, e));
    2.0 * (((1.0 + e) / (1.0 - e)).sqrt() * (ecc_anomaly / 2.0).tan()).atan()
}

/// The same, with Newton's iterations in the body: the derived rule differentiates them.
#[derive_frule]
fn true_anomaly_through_newton(m: f64, e: f64) -> f64 {
    let mut x = m;
    for _ in 0..50 {
        let step = (x - e * x.sin() - m) / (1.0 - e * x.cos());
        x -= step;
        if step.abs() < 1e-15 {
            break;
        }
    }
    2.0 * (((1.0 + e) / (1.0 - e)).sqrt() * (x / 2.0).tan()).atan()
}

/// Newton in the body (its tangents computed, then replaced), the eccentricity a literal.
#[derive_frule]
fn eccentric_anomaly_at_e03(m: f64) -> f64 {
    let mut x = m;
    for _ in 0..3 {
        x -= (x - 0.3 * x.sin() - m) / (1.0 - 0.3 * x.cos());
    }
    implicit_root(Residual(kepler {}), x, (m, 0.3))
}

#[derive_frule]
fn orbit(p: &[f64]) -> f64 {
    true_anomaly(p[0], p[1])
}

#[derive_frule]
fn orbit_through_newton(p: &[f64]) -> f64 {
    true_anomaly_through_newton(p[0], p[1])
}

/// `(∂ν/∂M, ∂ν/∂e)`, the textbook formulas.
fn true_anomaly_gradient(p: &[f64]) -> Vec<f64> {
    let (m, e) = (p[0], p[1]);
    let nu = true_anomaly(m, e);
    let q = 1.0 - e * e;
    vec![
        (1.0 + e * nu.cos()).powi(2) / q.powf(1.5),
        nu.sin() * (2.0 + e * nu.cos()) / q,
    ]
}

const ORBITS: [[f64; 2]; 4] = [[1.0, 0.3], [0.2, 0.05], [2.8, 0.7], [-1.3, 0.5]];

#[test]
fn kepler_one_direction_matches_the_textbook_and_newton() {
    for [m, e] in ORBITS {
        let want = true_anomaly_gradient(&[m, e]);
        let dm = true_anomaly_frule(Dual::new(m, 1.0), Dual::new(e, 0.0));
        let de = true_anomaly_frule(Dual::new(m, 0.0), Dual::new(e, 1.0));
        assert_eq!(dm.primal.to_bits(), true_anomaly(m, e).to_bits());
        assert_close(dm.tangent, want[0], 1e-12);
        assert_close(de.tangent, want[1], 1e-12);
        let newton = true_anomaly_through_newton_frule(Dual::new(m, 1.0), Dual::new(e, 0.0));
        assert_close(dm.tangent, newton.tangent, 1e-12);
        let newton = true_anomaly_through_newton_frule(Dual::new(m, 0.0), Dual::new(e, 1.0));
        assert_close(de.tangent, newton.tangent, 1e-12);
    }
}

#[test]
fn kepler_matches_finite_differences() {
    for [m, e] in ORBITS {
        test_frule(
            (m, e),
            |p| true_anomaly(p.0, p.1),
            |p, dp| true_anomaly_frule(Dual::new(p.0, dp.0), Dual::new(p.1, dp.1)),
        );
    }
}

#[test]
fn kepler_gradient_in_a_batch() {
    for p in ORBITS {
        let (v, g) = gradient(orbit {}, &p);
        assert_eq!(v.to_bits(), orbit(&p).to_bits());
        let (_, g_newton) = gradient(orbit_through_newton {}, &p);
        let want = true_anomaly_gradient(&p);
        for i in 0..2 {
            assert_close(g[i], want[i], 1e-12);
            assert_close(g[i], g_newton[i], 1e-12);
        }
    }
}

#[test]
fn kepler_hessian_second_order() {
    for p in ORBITS {
        let (v, g, h) = hessian(orbit {}, &p);
        assert_eq!(v.to_bits(), orbit(&p).to_bits());
        let (_, _, h_newton) = hessian(orbit_through_newton {}, &p);
        let h_fd = fd_hessian(true_anomaly_gradient, &p);
        let want = true_anomaly_gradient(&p);
        for i in 0..2 {
            assert_close(g[i], want[i], 1e-12);
            for j in 0..2 {
                assert_close(h[(i, j)], h_newton[(i, j)], 1e-10);
                assert_close(h[(i, j)], h_fd[(i, j)], 1e-6);
            }
        }
    }
}

#[derive_frule]
fn nu_at_e03(m: f64) -> f64 {
    true_anomaly(m, 0.3)
}

#[test]
fn kepler_second_derivative_one_entry() {
    // Hyper<f64, f64>: one d1, one d2, against differences of the textbook dν/dM.
    for m in [0.4, 1.0, 2.5] {
        let (v, d, dd) = second_derivative(nu_at_e03 {}, m);
        assert_eq!(v.to_bits(), nu_at_e03(m).to_bits());
        let g = |m: f64| true_anomaly_gradient(&[m, 0.3])[0];
        assert_close(d, g(m), 1e-12);
        assert_close(dd, (g(m + 1e-6) - g(m - 1e-6)) / 2e-6, 1e-6);
        // And the mixed entry along two different directions, through the trait.
        let y = <true_anomaly as Frule<_, Hyper<f64, f64>>>::frule(
            &true_anomaly {},
            (
                Dual::new(
                    m,
                    Hyper {
                        d1: 1.0,
                        d2: 0.0,
                        d12: 0.0,
                    },
                ),
                Dual::new(
                    0.3,
                    Hyper {
                        d1: 0.0,
                        d2: 1.0,
                        d12: 0.0,
                    },
                ),
            ),
        );
        let de = |m: f64| true_anomaly_gradient(&[m, 0.3])[1];
        assert_close(y.tangent.d12, (de(m + 1e-6) - de(m - 1e-6)) / 2e-6, 1e-6);
    }
}

#[test]
fn a_differentiated_solver_gets_its_tangent_replaced() {
    // Whatever tangent the three (unconverged) Newton steps carry is replaced by the
    // implicit one at the point they reached, 1 / (1 - e cos E).
    for m in [0.4, 1.0, 2.5] {
        let y = eccentric_anomaly_at_e03_frule(Dual::new(m, 1.0));
        assert_eq!(y.primal.to_bits(), eccentric_anomaly_at_e03(m).to_bits());
        assert_close(y.tangent, 1.0 / (1.0 - 0.3 * y.primal.cos()), 1e-14);
    }
}

// ---------------------------------------------------------------------------------------
// A bracketing solver: differentiating its iterations gives nothing.

/// `x³ + a x - b`, increasing in `x` for `a > 0`.
#[derive_frule]
fn cubic(x: f64, p: [f64; 2]) -> f64 {
    x * x * x + p[0] * x - p[1]
}

/// The real root of `x³ + a x = b` by bisection on `[-10, 10]`, in the derived body.
#[derive_frule]
fn cubic_root(a: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (-10.0, 10.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid * mid * mid + a * mid - b > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    implicit_root(Residual(cubic {}), 0.5 * (lo + hi), [a, b])
}

#[derive_frule]
fn cubic_root_by_bisection_alone(a: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (-10.0, 10.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid * mid * mid + a * mid - b > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn bisection_root_gets_its_derivative() {
    for (a, b) in [(1.0, 2.0), (0.5, -3.0), (3.0, 0.1)] {
        let x = cubic_root(a, b);
        let slope = 3.0 * x * x + a; // ∂g/∂x
        let da = cubic_root_frule(Dual::new(a, 1.0), Dual::new(b, 0.0));
        let db = cubic_root_frule(Dual::new(a, 0.0), Dual::new(b, 1.0));
        assert_eq!(da.primal.to_bits(), x.to_bits());
        assert_close(da.tangent, -x / slope, 1e-12);
        assert_close(db.tangent, 1.0 / slope, 1e-12);
        // The bisection's midpoints depend on the bracket only: no derivative at all.
        let through = cubic_root_by_bisection_alone_frule(Dual::new(a, 0.0), Dual::new(b, 1.0));
        assert_eq!(
            (through.primal.to_bits(), through.tangent),
            (x.to_bits(), 0.0)
        );
        // Second order: d²x/db² = -6x (dx/db)² / slope.
        let (_, _, d2) = second_derivative(bind(cubic_root {}, (a, Wrt)), b);
        assert_close(d2, -6.0 * x / slope.powi(3), 1e-10);
        test_frule(
            (a, b),
            |p| cubic_root(p.0, p.1),
            |p, dp| cubic_root_frule(Dual::new(p.0, dp.0), Dual::new(p.1, dp.1)),
        );
    }
}

// ---------------------------------------------------------------------------------------
// A 2×2 system: the sides of a rectangle of given area and squared diagonal.

/// `[x0 x1 - area, x0² + x1² - diag²]`; the first row's largest entry is not on the
/// diagonal, so the solve pivots.
#[derive_frule]
fn rectangle(x: [f64; 2], p: Vec<f64>) -> [f64; 2] {
    [x[0] * x[1] - p[1], x[0] * x[0] + x[1] * x[1] - p[0]]
}

/// Newton on `rectangle`, with its Jacobian by Cramer's rule; not differentiated.
#[non_differentiable]
fn solve_rectangle(diag2: f64, area: f64) -> [f64; 2] {
    let mut x = [diag2.sqrt(), area / diag2.sqrt()];
    for _ in 0..100 {
        let g = [x[0] * x[1] - area, x[0] * x[0] + x[1] * x[1] - diag2];
        let (a, b, c, d) = (x[1], x[0], 2.0 * x[0], 2.0 * x[1]);
        let det = a * d - b * c;
        let step = [(d * g[0] - b * g[1]) / det, (a * g[1] - c * g[0]) / det];
        x = [x[0] - step[0], x[1] - step[1]];
        if step[0].abs() + step[1].abs() < 1e-15 {
            break;
        }
    }
    x
}

/// The rectangle's sides from `p = [diag², area]` (a slice parameter, passed on owned).
#[derive_frule]
fn sides(p: &[f64]) -> [f64; 2] {
    let x = solve_rectangle(p[0], p[1]);
    implicit_system(Residual(rectangle {}), x, p.to_vec())
}

/// The same with Newton's iterations differentiated.
#[derive_frule]
fn sides_through_newton(p: &[f64]) -> [f64; 2] {
    let (diag2, area) = (p[0], p[1]);
    let mut x = [diag2.sqrt(), area / diag2.sqrt()];
    for _ in 0..100 {
        let g = [x[0] * x[1] - area, x[0] * x[0] + x[1] * x[1] - diag2];
        let (a, b, c, d) = (x[1], x[0], 2.0 * x[0], 2.0 * x[1]);
        let det = a * d - b * c;
        let step = [(d * g[0] - b * g[1]) / det, (a * g[1] - c * g[0]) / det];
        x = [x[0] - step[0], x[1] - step[1]];
        if step[0].abs() + step[1].abs() < 1e-15 {
            break;
        }
    }
    x
}

/// A scalar of the sides, for second order: the cost of a frame, `3 x0 + x0 x1²`.
#[derive_frule]
fn frame_cost(p: &[f64]) -> f64 {
    let x = sides(p);
    3.0 * x[0] + x[0] * x[1] * x[1]
}

/// Closed form: `x0, x1 = (s ± d) / 2` with `s = √(diag² + 2 area)`, `d = √(diag² - 2 area)`.
fn sides_jacobian(p: &[f64]) -> [[f64; 2]; 2] {
    let (s, d) = ((p[0] + 2.0 * p[1]).sqrt(), (p[0] - 2.0 * p[1]).sqrt());
    let (ds, dd) = ([0.5 / s, 1.0 / s], [0.5 / d, -1.0 / d]);
    [
        [0.5 * (ds[0] + dd[0]), 0.5 * (ds[1] + dd[1])],
        [0.5 * (ds[0] - dd[0]), 0.5 * (ds[1] - dd[1])],
    ]
}

fn frame_cost_gradient(p: &[f64]) -> Vec<f64> {
    let (s, d) = ((p[0] + 2.0 * p[1]).sqrt(), (p[0] - 2.0 * p[1]).sqrt());
    let (x0, x1) = (0.5 * (s + d), 0.5 * (s - d));
    let j = sides_jacobian(p);
    (0..2)
        .map(|k| (3.0 + x1 * x1) * j[0][k] + 2.0 * x0 * x1 * j[1][k])
        .collect()
}

/// The last one has a zero area: the first row of `∂g/∂x` is `[0, x0]`, which needs the pivot.
const RECTANGLES: [[f64; 2]; 4] = [[25.0, 12.0], [10.0, 1.0], [2.0, 0.9], [4.0, 0.0]];

#[test]
fn system_one_direction_matches_the_closed_form_and_newton() {
    for p in RECTANGLES {
        let j = sides_jacobian(&p);
        for k in 0..2 {
            let dp = if k == 0 { [1.0, 0.0] } else { [0.0, 1.0] };
            let y = sides_frule(Dual::new(&p[..], &dp[..]));
            assert_eq!(y.primal.map(f64::to_bits), sides(&p).map(f64::to_bits));
            let newton = sides_through_newton_frule(Dual::new(&p[..], &dp[..]));
            for i in 0..2 {
                assert_close(y.tangent[i], j[i][k], 1e-12);
                assert_close(y.tangent[i], newton.tangent[i], 1e-12);
            }
        }
        test_frule(
            p.to_vec(),
            |q| sides(&q[..]),
            |q, dq| sides_frule(Dual::new(&q[..], &dq[..])),
        );
    }
}

#[test]
fn system_jacobian_in_a_batch() {
    for p in RECTANGLES {
        let (v, jac) = jacobian(sides {}, &p);
        assert_eq!(v, sides(&p).to_vec());
        let j = sides_jacobian(&p);
        for i in 0..2 {
            for k in 0..2 {
                assert_close(jac[(i, k)], j[i][k], 1e-12);
            }
        }
    }
}

#[test]
fn system_hessian_second_order() {
    for p in RECTANGLES {
        let (v, g, h) = hessian(frame_cost {}, &p);
        assert_eq!(v.to_bits(), frame_cost(&p).to_bits());
        let want = frame_cost_gradient(&p);
        let h_fd = fd_hessian(frame_cost_gradient, &p);
        for i in 0..2 {
            assert_close(g[i], want[i], 1e-12);
            for k in 0..2 {
                assert_close(h[(i, k)], h_fd[(i, k)], 1e-6);
            }
        }
    }
}
