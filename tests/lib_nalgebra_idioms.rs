//! nalgebra as robotics and estimation code writes it (feature `nalgebra`): matrices
//! built with `from_fn` from a closure over the indices (a Gaussian-process kernel, a
//! point mass's inertia tensor, a weight vector), the crate's free functions on points
//! (`nalgebra::distance`, `na::distance_squared`, `na::center`, `na::clamp`), an EKF
//! whose state and covariance are type aliases (named to the macro with `alias(..)`, or read
//! from this file), and
//! controllers generic over nalgebra's `T: RealField` alone, and cameras projecting with
//! `Perspective3` and `Orthographic3`.
//! Derivatives in one direction, batched and second order, against central differences of
//! the plain functions and formulas derived by hand; primals bit for bit.
//!
//! Run with `cargo test --features nalgebra --test lib_nalgebra_idioms`.
use fwdad::prelude::*;
use fwdad::Hyper;
use nalgebra as na;
use nalgebra::{
    DMatrix, DVector, Matrix3, Orthographic3, Perspective3, Point3, RealField, SMatrix, SVector,
    Vector3,
};

/// `wᵀ K w` for the squared-exponential kernel `K_ij = s² exp(−(x_i − x_j)² / 2ℓ²)` of a
/// Gaussian process, with the weights `w_i = 1/(i + 1)`: both built with `from_fn`.
#[derive_frule]
fn gp_quadratic(x: &[f64], ell: f64, s: f64) -> f64 {
    let n = x.len();
    let k = DMatrix::from_fn(n, n, |i, j| {
        let d = x[i] - x[j];
        s * s * (-d * d / (2.0 * ell * ell)).exp()
    });
    let w = DVector::from_fn(n, |i, _| 1.0 / (i as f64 + 1.0));
    let kw = &k * &w;
    w.dot(&kw)
}

/// Rotational kinetic energy `½ ωᵀ I ω` of a point mass `m` at `p`, its inertia tensor
/// `I = m (|p|² 1 − p pᵀ)` built entry by entry.
#[derive_frule]
fn spin_energy(p: &[f64], w: &Vector3<f64>, m: f64) -> f64 {
    let r2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    let inertia = Matrix3::from_fn(|i, j| {
        let delta = if i == j { 1.0 } else { 0.0 };
        m * (r2 * delta - p[i] * p[j])
    });
    0.5 * w.dot(&(inertia * w))
}

/// The Gram matrix `G_ij = a_i · a_j` of the three columns of a 2×3 matrix stored by
/// rows, summed: `SMatrix::<f64, 3, 3>::from_fn` with the scalar written.
#[derive_frule]
fn gram_sum(a: &[f64]) -> f64 {
    let g = SMatrix::<f64, 3, 3>::from_fn(|i, j| a[i] * a[j] + a[3 + i] * a[3 + j]);
    g.sum()
}

/// Cost of a planar two-link arm reaching `target`: the tip's distance to it, a pull of
/// the elbow towards the midpoint of tip and target, and the shoulder clamped to its range.
#[derive_frule]
fn reach_cost(q: &[f64], target: &Point3<f64>, l1: f64, l2: f64) -> f64 {
    let shoulder = na::clamp(q[0], -1.2, 1.2);
    let elbow = Point3::new(l1 * shoulder.cos(), l1 * shoulder.sin(), 0.0);
    let tip = Point3::new(
        elbow.x + l2 * (shoulder + q[1]).cos(),
        elbow.y + l2 * (shoulder + q[1]).sin(),
        0.0,
    );
    let mid = na::center(&tip, target);
    nalgebra::distance(&tip, target) + 0.1 * na::distance_squared(&elbow, &mid)
}

type State = SVector<f64, 3>;
type Cov = SMatrix<f64, 3, 3>;

/// EKF prediction of a unicycle (x, y, heading) driven at speed `v` and turn rate `w`:
/// the state moved by one step.
#[derive_frule(alias(State = SVector<f64, 3>))]
fn predict(x: &State, v: f64, w: f64, dt: f64) -> State {
    let th = x[2];
    State::new(
        x[0] + v * dt * th.cos(),
        x[1] + v * dt * th.sin(),
        th + w * dt,
    )
}

/// The same prediction with the aliases not named: the macro reads them from this file.
#[derive_frule]
fn predict_unnamed(x: &State, p: &Cov, v: f64, dt: f64) -> f64 {
    let th = x[2];
    let moved = State::new(x[0] + v * dt * th.cos(), x[1] + v * dt * th.sin(), th);
    (p * moved).norm()
}

/// The trace of the predicted covariance `F P Fᵀ + Q`, `F` the motion's Jacobian in the
/// state: what a filter tuner differentiates with respect to the heading and the noise.
#[derive_frule(alias(State = SVector<f64, 3>, Cov = SMatrix<f64, 3, 3>))]
fn predicted_spread(x: &State, p: &Cov, v: f64, dt: f64, q: f64) -> f64 {
    let th = x[2];
    let f = Cov::new(
        1.0,
        0.0,
        -v * dt * th.sin(), //
        0.0,
        1.0,
        v * dt * th.cos(), //
        0.0,
        0.0,
        1.0,
    );
    let noise = Cov::from_diagonal(&State::new(q, q, 0.1 * q));
    let p_next: Cov = f * p * f.transpose() + noise;
    p_next.trace()
}

/// Central difference of `f` along `v` at `x`.
fn central(f: &dyn Fn(&[f64]) -> f64, x: &[f64], v: &[f64], h: f64) -> f64 {
    let at = |s: f64| -> Vec<f64> { x.iter().zip(v).map(|(a, b)| a + s * b).collect() };
    (f(&at(h)) - f(&at(-h))) / (2.0 * h)
}

fn unit(n: usize, j: usize) -> Vec<f64> {
    (0..n).map(|i| f64::from(u8::from(i == j))).collect()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

/// Second central difference `∂²f/∂x_i∂x_j`.
fn second(f: &dyn Fn(&[f64]) -> f64, x: &[f64], i: usize, j: usize, h: f64) -> f64 {
    let at = |si: f64, sj: f64| {
        let mut y = x.to_vec();
        y[i] += si * h;
        y[j] += sj * h;
        f(&y)
    };
    (at(1.0, 1.0) - at(1.0, -1.0) - at(-1.0, 1.0) + at(-1.0, -1.0)) / (4.0 * h * h)
}

#[test]
fn gp_kernel_from_fn_gradient_and_hessian() {
    let x = [0.1, 0.7, 1.5, 2.0];
    let (ell, s) = (0.8, 1.3);
    let (value, g) = fwdad::gradient(bind(gp_quadratic {}, (Wrt, ell, s)), &x);
    assert_eq!(value.to_bits(), gp_quadratic(&x, ell, s).to_bits());
    // ∂/∂x_a Σ_ij w_i w_j K_ij = Σ_j 2 w_a w_j K_aj (−(x_a − x_j)/ℓ²).
    let w = |i: usize| 1.0 / (i as f64 + 1.0);
    let kern = |i: usize, j: usize| s * s * (-(x[i] - x[j]).powi(2) / (2.0 * ell * ell)).exp();
    for a in 0..4 {
        let expected: f64 = (0..4)
            .map(|j| 2.0 * w(a) * w(j) * kern(a, j) * (-(x[a] - x[j]) / (ell * ell)))
            .sum();
        assert!(close(g[a], expected, 1e-13), "{a}: {} {expected}", g[a]);
    }
    // In ℓ and s, one direction each: ∂K_ij/∂ℓ = K_ij d²/ℓ³, ∂K_ij/∂s = 2 K_ij / s.
    let dl = gp_quadratic_frule(
        Dual::new(&x[..], &[0.0; 4][..]),
        Dual::new(ell, 1.0),
        Dual::new(s, 0.0),
    );
    let ds = gp_quadratic_frule(
        Dual::new(&x[..], &[0.0; 4][..]),
        Dual::new(ell, 0.0),
        Dual::new(s, 1.0),
    );
    assert_eq!(dl.primal.to_bits(), value.to_bits());
    let mut el = 0.0;
    let mut es = 0.0;
    for i in 0..4 {
        for j in 0..4 {
            let d2 = (x[i] - x[j]).powi(2);
            el += w(i) * w(j) * kern(i, j) * d2 / ell.powi(3);
            es += w(i) * w(j) * 2.0 * kern(i, j) / s;
        }
    }
    assert!(close(dl.tangent, el, 1e-13));
    assert!(close(ds.tangent, es, 1e-13));
    // Second order against second differences of the plain function.
    let (v2, g2, hess) = fwdad::hessian(bind(gp_quadratic {}, (Wrt, ell, s)), &x);
    assert_eq!(v2.to_bits(), value.to_bits());
    assert_eq!(g2, g);
    let f = |y: &[f64]| gp_quadratic(y, ell, s);
    for i in 0..4 {
        for j in 0..4 {
            let fd = second(&f, &x, i, j, 1e-4);
            assert!(
                close(hess[(i, j)], fd, 1e-6),
                "{i} {j}: {} {fd}",
                hess[(i, j)]
            );
        }
    }
}

#[test]
fn inertia_from_fn_matches_the_closed_form() {
    let p = [0.3, -0.8, 0.5];
    let w = Vector3::new(0.7, 0.2, -1.1);
    let m = 2.5;
    // E = ½ m (|p|²|ω|² − (p·ω)²), ∂E/∂p = m (|ω|² p − (p·ω) ω).
    let pv = Vector3::new(p[0], p[1], p[2]);
    let (e, g) = fwdad::gradient(bind(spin_energy {}, (Wrt, &w, m)), &p);
    assert_eq!(e.to_bits(), spin_energy(&p, &w, m).to_bits());
    let closed = 0.5 * m * (pv.norm_squared() * w.norm_squared() - pv.dot(&w).powi(2));
    assert!(close(e, closed, 1e-14));
    let expected = m * (w.norm_squared() * pv - pv.dot(&w) * w);
    for k in 0..3 {
        assert!(close(g[k], expected[k], 1e-14), "{k}");
    }
    // Along ω: ∂E/∂ω = I ω = m (|p|² ω − (p·ω) p).
    let dw = Vector3::new(1.0, -0.5, 0.25);
    let d = spin_energy_frule(
        Dual::new(&p[..], &[0.0; 3][..]),
        Dual::new(&w, &dw),
        Dual::new(m, 0.0),
    );
    let iw = m * (pv.norm_squared() * w - pv.dot(&w) * pv);
    assert!(close(d.tangent, iw.dot(&dw), 1e-14));
    // Second order: ∂²E/∂p² = m (|ω|² 1 − ω ωᵀ).
    let (_, _, hess) = fwdad::hessian(bind(spin_energy {}, (Wrt, &w, m)), &p);
    for i in 0..3 {
        for j in 0..3 {
            let delta = if i == j { 1.0 } else { 0.0 };
            let expected = m * (w.norm_squared() * delta - w[i] * w[j]);
            assert!(close(hess[(i, j)], expected, 1e-14), "{i} {j}");
        }
    }
}

#[test]
fn gram_matrix_from_fn_with_the_scalar_written() {
    let a = [0.4, -1.1, 0.9, 1.5, 0.2, -0.6];
    // Σ_ij (a_i a_j + b_i b_j) = (Σa)² + (Σb)²: ∂/∂a_i = 2 Σa, ∂/∂b_i = 2 Σb.
    let (v, g) = fwdad::gradient(gram_sum {}, &a);
    assert_eq!(v.to_bits(), gram_sum(&a).to_bits());
    let (sa, sb) = (a[0] + a[1] + a[2], a[3] + a[4] + a[5]);
    for i in 0..3 {
        assert!(close(g[i], 2.0 * sa, 1e-14));
        assert!(close(g[3 + i], 2.0 * sb, 1e-14));
    }
    let (_, _, hess) = fwdad::hessian(gram_sum {}, &a);
    for i in 0..6 {
        for j in 0..6 {
            let expected = if i / 3 == j / 3 { 2.0 } else { 0.0 };
            assert!(close(hess[(i, j)], expected, 1e-14), "{i} {j}");
        }
    }
}

#[test]
fn reach_cost_with_nalgebra_free_functions() {
    let target = Point3::new(0.9, 1.1, 0.2);
    let (l1, l2) = (1.0, 0.8);
    let f = |q: &[f64]| reach_cost(q, &target, l1, l2);
    // Inside the shoulder's range and beyond it (the clamp's derivative is 0 there).
    for q in [[0.4, 0.9], [1.5, -0.3]] {
        let (v, g) = fwdad::gradient(bind(reach_cost {}, (Wrt, &target, l1, l2)), &q);
        assert_eq!(v.to_bits(), f(&q).to_bits());
        for (j, gj) in g.iter().enumerate() {
            let fd = central(&f, &q, &unit(2, j), 1e-6);
            assert!(close(*gj, fd, 1e-8), "{q:?} {j}: {gj} {fd}");
        }
        let (_, _, hess) = fwdad::hessian(bind(reach_cost {}, (Wrt, &target, l1, l2)), &q);
        for i in 0..2 {
            for j in 0..2 {
                let fd = second(&f, &q, i, j, 1e-4);
                assert!(
                    close(hess[(i, j)], fd, 1e-5),
                    "{q:?} {i} {j}: {} {fd}",
                    hess[(i, j)]
                );
            }
        }
    }
    // Beyond the range the shoulder is constant: only the elbow angle moves the cost.
    let (_, g) = fwdad::gradient(bind(reach_cost {}, (Wrt, &target, l1, l2)), &[1.5, -0.3]);
    assert_eq!(g[0], 0.0);
    // With respect to the target, in one direction: ∂/∂t |tip − t| = (t − tip)/|tip − t|,
    // and the midpoint moves by half the target's step.
    let q = [0.4, 0.9];
    // A point's tangent is a vector.
    let dt = Vector3::new(0.3, -0.2, 0.5);
    let d = reach_cost_frule(
        Dual::new(&q[..], &[0.0; 2][..]),
        Dual::new(&target, &dt),
        Dual::new(l1, 0.0),
        Dual::new(l2, 0.0),
    );
    let elbow = Point3::new(l1 * q[0].cos(), l1 * q[0].sin(), 0.0);
    let tip = Point3::new(
        elbow.x + l2 * (q[0] + q[1]).cos(),
        elbow.y + l2 * (q[0] + q[1]).sin(),
        0.0,
    );
    let mid = Point3::from((tip.coords + target.coords) / 2.0);
    let expected = (target - tip).normalize().dot(&dt) + 0.1 * 2.0 * (mid - elbow).dot(&(dt / 2.0));
    assert_eq!(d.primal.to_bits(), f(&q).to_bits());
    assert!(close(d.tangent, expected, 1e-14));
}

#[test]
fn aliases_of_the_file_are_read_without_alias() {
    // ‖P m‖ with m = (x₀ + v dt cosθ, x₁ + v dt sinθ, θ): d/dθ against central differences.
    let p = Cov::new(2.0, 0.1, 0.0, 0.1, 1.5, 0.2, 0.0, 0.2, 1.0);
    let x: State = State::new(1.0, -0.5, 0.6);
    let (v, dt) = (2.0, 0.1);
    let plain = |y: &[f64]| predict_unnamed(&State::new(y[0], y[1], y[2]), &p, v, dt);
    for k in 0..3 {
        let mut dx = State::zeros();
        dx[k] = 1.0;
        let d = predict_unnamed_frule(
            Dual::new(&x, &dx),
            Dual::new(&p, &Cov::zeros()),
            Dual::new(v, 0.0),
            Dual::new(dt, 0.0),
        );
        assert_eq!(d.primal.to_bits(), plain(x.as_slice()).to_bits());
        let fd = central(&plain, x.as_slice(), &unit(3, k), 1e-6);
        assert!(close(d.tangent, fd, 1e-8), "{k}: {} {fd}", d.tangent);
    }
}

#[test]
fn ekf_prediction_through_type_aliases() {
    let x: State = State::new(1.0, -0.5, 0.6);
    let (v, w, dt) = (2.0, 0.3, 0.1);
    // The motion's Jacobian in the state, F = [[1, 0, −v dt sinθ], [0, 1, v dt cosθ], [0, 0, 1]].
    let f = Cov::new(
        1.0,
        0.0,
        -v * dt * x[2].sin(), //
        0.0,
        1.0,
        v * dt * x[2].cos(), //
        0.0,
        0.0,
        1.0,
    );
    for k in 0..3 {
        let mut dx = State::zeros();
        dx[k] = 1.0;
        let d = predict_frule(
            Dual::new(&x, &dx),
            Dual::new(v, 0.0),
            Dual::new(w, 0.0),
            Dual::new(dt, 0.0),
        );
        let plain = predict(&x, v, w, dt);
        for r in 0..3 {
            assert_eq!(d.primal[r].to_bits(), plain[r].to_bits());
            assert!(close(d.tangent[r], f[(r, k)], 1e-15), "{r} {k}");
        }
    }
    // Batched: the three columns of F at once.
    let seeds = SVector::<Batch<f64, 3>, 3>::from_fn(|i, _| {
        let mut lane = [0.0; 3];
        lane[i] = 1.0;
        Batch(lane)
    });
    let zero = Batch([0.0; 3]);
    let b = <predict as Frule<_, Batch<f64, 3>>>::frule(
        &predict {},
        (
            Dual::new(&x, &seeds),
            Dual::new(v, zero),
            Dual::new(w, zero),
            Dual::new(dt, zero),
        ),
    );
    for r in 0..3 {
        for k in 0..3 {
            assert!(close(b.tangent[r].0[k], f[(r, k)], 1e-15));
        }
    }
    // Second order along the heading: d²x/dθ² = −v dt cosθ, d²y/dθ² = −v dt sinθ.
    let h = |a: f64| Hyper {
        d1: a,
        d2: a,
        d12: 0.0,
    };
    let seed = SVector::<Hyper<f64, f64>, 3>::from_fn(|i, _| h(if i == 2 { 1.0 } else { 0.0 }));
    let out = <predict as Frule<_, Hyper<f64, f64>>>::frule(
        &predict {},
        (
            Dual::new(&x, &seed),
            Dual::new(v, h(0.0)),
            Dual::new(w, h(0.0)),
            Dual::new(dt, h(0.0)),
        ),
    );
    assert!(close(out.tangent[0].d12, -v * dt * x[2].cos(), 1e-15));
    assert!(close(out.tangent[1].d12, -v * dt * x[2].sin(), 1e-15));
    assert_eq!(out.tangent[2].d12, 0.0);
}

#[test]
fn ekf_covariance_spread_through_type_aliases() {
    let x = State::new(1.0, -0.5, 0.6);
    let p = Cov::new(0.2, 0.01, 0.0, 0.01, 0.3, 0.02, 0.0, 0.02, 0.05);
    let (v, dt, q) = (2.0, 0.1, 0.01);
    let plain = predicted_spread(&x, &p, v, dt, q);
    let along = |dx: State, dq: f64, e: f64| predicted_spread(&(x + dx * e), &p, v, dt, q + dq * e);
    // Along the heading and along the noise level, against central differences.
    for (dx, dq) in [(State::new(0.0, 0.0, 1.0), 0.0), (State::zeros(), 1.0)] {
        let d = predicted_spread_frule(
            Dual::new(&x, &dx),
            Dual::new(&p, &Cov::zeros()),
            Dual::new(v, 0.0),
            Dual::new(dt, 0.0),
            Dual::new(q, dq),
        );
        assert_eq!(d.primal.to_bits(), plain.to_bits());
        let fd = (along(dx, dq, 1e-6) - along(dx, dq, -1e-6)) / 2e-6;
        assert!(close(d.tangent, fd, 1e-8), "{} {fd}", d.tangent);
    }
    // The noise enters the trace as 2.1 q: its derivative exactly.
    let d = predicted_spread_frule(
        Dual::new(&x, &State::zeros()),
        Dual::new(&p, &Cov::zeros()),
        Dual::new(v, 0.0),
        Dual::new(dt, 0.0),
        Dual::new(q, 1.0),
    );
    assert!(close(d.tangent, 2.1, 1e-15));
}

/// A PD joint controller whose torque saturates smoothly at `limit`, generic over the
/// float type as nalgebra code is (`T: RealField`, its methods `tanh`, `from_f64`).
#[derive_frule]
fn pd_torque<T: RealField + Copy>(q: T, qd: T, target: T, kp: T, kd: T) -> T {
    let limit = T::from_f64(5.0).unwrap();
    let u = kp * (target - q) - kd * qd;
    limit * (u / limit).tanh()
}

/// Response of a damped oscillator, `e^{−ζωt} cos(ω_d t)` with `ω_d = ω√(1 − ζ²)`, and
/// its phase wrapped by nalgebra's constants (`T::two_pi()`, `na::convert`).
#[derive_frule]
fn damped_response<T: RealField + Copy>(t: T, w: T, zeta: T) -> T {
    let one: T = na::convert(1.0);
    let wd = w * (one - zeta * zeta).sqrt();
    let phase = (wd * t) % T::two_pi();
    (-zeta * w * t).exp() * phase.cos()
}

#[test]
fn generic_realfield_pd_controller() {
    let (q, qd, target, kp, kd) = (0.2, -0.4, 1.0, 8.0, 1.5);
    // τ = L tanh(u/L), u = kp (target − q) − kd qd: ∂τ/∂q = −kp sech²(u/L),
    // ∂τ/∂qd = −kd sech²(u/L), ∂²τ/∂q² = −2 kp² sech²(u/L) tanh(u/L) / L.
    let (l, u) = (5.0f64, kp * (target - q) - kd * qd);
    let sech2 = 1.0 - (u / l).tanh().powi(2);
    let p = [q, qd];
    let (v, g) = fwdad::gradient(bind(pd_torque {}, (Var(0), Var(1), target, kp, kd)), &p);
    assert_eq!(v.to_bits(), pd_torque(q, qd, target, kp, kd).to_bits());
    assert!(close(g[0], -kp * sech2, 1e-14));
    assert!(close(g[1], -kd * sech2, 1e-14));
    let (_, _, hess) = fwdad::hessian(bind(pd_torque {}, (Var(0), Var(1), target, kp, kd)), &p);
    let t = (u / l).tanh();
    assert!(close(hess[(0, 0)], -2.0 * kp * kp * sech2 * t / l, 1e-13));
    assert!(close(hess[(0, 1)], -2.0 * kp * kd * sech2 * t / l, 1e-13));
    // The same rule at `f32`, along the gain kp: ∂τ/∂kp = (target − q) sech²(u/L).
    let c = |x: f64| Dual::new(x as f32, 0.0f32);
    let d = pd_torque_frule(c(q), c(qd), c(target), Dual::new(kp as f32, 1.0), c(kd));
    assert_eq!(
        d.primal.to_bits(),
        pd_torque(q as f32, qd as f32, target as f32, kp as f32, kd as f32).to_bits()
    );
    assert!((f64::from(d.tangent) - (target - q) * sech2).abs() < 1e-5);
}

#[test]
fn generic_realfield_damped_response() {
    let (t, w, zeta) = (0.7, 3.0, 0.2);
    let f = |p: &[f64]| damped_response(p[0], p[1], p[2]);
    let p = [t, w, zeta];
    let (v, g) = fwdad::gradient(damped_response_v {}, &p);
    assert_eq!(v.to_bits(), f(&p).to_bits());
    for (j, gj) in g.iter().enumerate() {
        let fd = central(&f, &p, &unit(3, j), 1e-6);
        assert!(close(*gj, fd, 1e-8), "{j}: {gj} {fd}");
    }
    // ∂/∂t = e^{−ζωt} (−ζω cos(ω_d t) − ω_d sin(ω_d t)) (ω_d t < 2π here).
    let wd = w * (1.0 - zeta * zeta).sqrt();
    let expected = (-zeta * w * t).exp() * (-zeta * w * (wd * t).cos() - wd * (wd * t).sin());
    assert!(close(g[0], expected, 1e-14));
    let (_, _, hess) = fwdad::hessian(damped_response_v {}, &p);
    for i in 0..3 {
        for j in 0..3 {
            let fd = second(&f, &p, i, j, 1e-4);
            assert!(
                close(hess[(i, j)], fd, 1e-5),
                "{i} {j}: {} {fd}",
                hess[(i, j)]
            );
        }
    }
}

/// `damped_response` at `f64` over a slice, for the drivers.
#[derive_frule]
fn damped_response_v(p: &[f64]) -> f64 {
    damped_response(p[0], p[1], p[2])
}

/// Horizontal pixel coordinate of a point seen by a pinhole camera with vertical field of
/// view `fovy`: nalgebra's perspective projection to normalised device coordinates, then
/// to pixels.
#[derive_frule]
fn pixel_x(fovy: f64, p: &Point3<f64>, width: f64) -> f64 {
    let proj = Perspective3::new(16.0 / 9.0, fovy, 0.1, 100.0);
    let ndc = proj.project_point(p);
    (ndc.x + 1.0) * 0.5 * width
}

/// The same for an orthographic camera whose view spans `[-half, half]` horizontally.
#[derive_frule]
fn ortho_pixel_x(half: f64, p: &Point3<f64>, width: f64) -> f64 {
    let proj = Orthographic3::new(-half, half, -1.0, 1.0, 0.1, 100.0);
    let ndc = proj.project_point(p);
    (ndc.x + 1.0) * 0.5 * width
}

#[test]
fn perspective_camera_projection() {
    let p = Point3::new(0.4, -0.3, -5.0);
    let (fovy, width): (f64, f64) = (0.9, 640.0);
    // ndc_x = (f / aspect) x / (−z), f = 1 / tan(fovy/2): ∂ndc_x/∂fovy = −ndc_x / sin(fovy),
    // ∂ndc_x/∂x = (f / aspect) / (−z), ∂ndc_x/∂z = ndc_x / (−z).
    let f = 1.0 / (fovy / 2.0).tan();
    let ndc = f / (16.0 / 9.0) * p.x / -p.z;
    let (v, g) = fwdad::gradient(bind(pixel_x {}, (Var(0), &p, width)), &[fovy]);
    assert_eq!(v.to_bits(), pixel_x(fovy, &p, width).to_bits());
    assert!(
        close(g[0], 0.5 * width * -ndc / fovy.sin(), 1e-12),
        "{} {}",
        g[0],
        -ndc / fovy.sin()
    );
    // Along the point (a point's tangent is a vector).
    let dp = Vector3::new(1.0, 0.5, 0.25);
    let d = pixel_x_frule(
        Dual::new(fovy, 0.0),
        Dual::new(&p, &dp),
        Dual::new(width, 0.0),
    );
    let expected = 0.5 * width * (f / (16.0 / 9.0) / -p.z * dp.x + ndc / -p.z * dp.z);
    assert!(
        close(d.tangent, expected, 1e-12),
        "{} {expected}",
        d.tangent
    );
    // Second order in fovy against second differences.
    let (_, _, hess) = fwdad::hessian(bind(pixel_x {}, (Var(0), &p, width)), &[fovy]);
    let h = 1e-4;
    let fd = (pixel_x(fovy + h, &p, width) - 2.0 * v + pixel_x(fovy - h, &p, width)) / (h * h);
    assert!(close(hess[(0, 0)], fd, 1e-5), "{} {fd}", hess[(0, 0)]);
}

#[test]
fn orthographic_camera_projection() {
    let p = Point3::new(0.4, -0.3, -5.0);
    let (half, width): (f64, f64) = (2.0, 640.0);
    // ndc_x = x / half: ∂/∂half = −x / half², ∂²/∂half² = 2x / half³.
    let (v, g) = fwdad::gradient(bind(ortho_pixel_x {}, (Var(0), &p, width)), &[half]);
    assert_eq!(v.to_bits(), ortho_pixel_x(half, &p, width).to_bits());
    assert!(close(g[0], 0.5 * width * -p.x / (half * half), 1e-13));
    let (_, _, hess) = fwdad::hessian(bind(ortho_pixel_x {}, (Var(0), &p, width)), &[half]);
    assert!(close(
        hess[(0, 0)],
        0.5 * width * 2.0 * p.x / half.powi(3),
        1e-13
    ));
    let dp = Vector3::new(1.0, 0.0, 0.0);
    let d = ortho_pixel_x_frule(
        Dual::new(half, 0.0),
        Dual::new(&p, &dp),
        Dual::new(width, 0.0),
    );
    assert!(close(d.tangent, 0.5 * width / half, 1e-13));
}
