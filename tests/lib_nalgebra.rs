//! nalgebra inside derived bodies (feature `nalgebra`): fixed-size vectors and matrices,
//! their operators and methods (`norm`, `dot`, `cross`, `transpose`, `cholesky`, `solve`,
//! `try_inverse`), written as physicists write them. Derivatives are checked against
//! central finite differences and formulas derived by hand, in one direction, batched
//! (`gradient`/`jacobian`, linearised batches) and second order (`hessian`, `Hyper`).
//!
//! Run with `cargo test --features nalgebra --test lib_nalgebra`.
use fwdad::prelude::*;
use fwdad::Hyper;
use nalgebra::{Matrix3, Vector3};

/// Elastic energy of a spring network plus gravity. `x` holds the node positions
/// (x, y, z per node), `springs` the node pairs.
#[derive_frule]
fn network_energy(x: &[f64], k: f64, rest: f64) -> f64 {
    let springs = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)];
    let g = Vector3::new(0.0, 0.0, -9.81);
    let mut e = 0.0;
    for (i, j) in springs {
        let a = Vector3::new(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
        let b = Vector3::new(x[3 * j], x[3 * j + 1], x[3 * j + 2]);
        let stretch = (b - a).norm() - rest;
        e += 0.5 * k * stretch * stretch;
    }
    for i in 0..x.len() / 3 {
        let p = Vector3::new(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
        e -= g.dot(&p);
    }
    e
}

/// The spring forces as a vector: each node's net force `-∂E/∂x`, written out with
/// `Vector3` arithmetic (scalar times vector on both sides, `+=`, `-`).
#[derive_frule]
fn network_forces(x: &[f64], out: &mut [f64]) {
    let k = 3.0;
    let rest = 1.0;
    let springs = [(0, 1), (1, 2), (2, 0)];
    for (i, j) in springs {
        let a = Vector3::new(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
        let b = Vector3::new(x[3 * j], x[3 * j + 1], x[3 * j + 2]);
        let d = b - a;
        let len = d.norm();
        let f = k * (len - rest) / len * d;
        for c in 0..3 {
            out[3 * i + c] += f[c];
            out[3 * j + c] -= f[c];
        }
    }
}

/// Mahalanobis distance `√((x − μ)ᵀ Σ⁻¹ (x − μ))` through a Cholesky factorisation.
#[derive_frule]
fn mahalanobis(x: &Vector3<f64>, mu: &Vector3<f64>, sigma: &Matrix3<f64>) -> f64 {
    let d = x - mu;
    let chol = sigma
        .cholesky()
        .expect("covariance must be positive definite");
    let z = chol.solve(&d);
    d.dot(&z).sqrt()
}

/// The same quadratic form through an LU solve and through the inverse.
#[derive_frule]
fn quadratic_forms(x: &Vector3<f64>, a: &Matrix3<f64>) -> f64 {
    let y = a.lu().solve(x).unwrap();
    let inv = a.try_inverse().unwrap();
    let w = inv.transpose() * x;
    x.dot(&y) + 0.5 * w.norm_squared()
}

/// Torque of a force about a pivot, `|r × F|`, with `r` and `F` built from angles.
#[derive_frule]
fn torque(theta: f64, phi: f64, force: &Vector3<f64>) -> f64 {
    let r = Vector3::new(theta.cos() * phi.sin(), theta.sin() * phi.sin(), phi.cos());
    let tau = r.cross(force);
    tau.norm()
}

fn positions() -> Vec<f64> {
    vec![
        0.1, 0.0, 0.2, //
        1.2, 0.1, -0.1, //
        1.0, 1.1, 0.3, //
        -0.2, 0.9, 0.1,
    ]
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

#[test]
fn spring_network_gradient_matches_hand_derived_forces() {
    let x = positions();
    let (k, rest) = (2.5, 0.9);
    let (e, g) = fwdad::gradient(bind(network_energy {}, (Wrt, k, rest)), &x);
    assert_eq!(e, network_energy(&x, k, rest));
    // ∂E/∂xᵢ = Σ_springs k (l − L) (xᵢ − xⱼ)/l  +  (0, 0, 9.81) per node.
    let mut expected = vec![0.0; 12];
    for (i, j) in [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)] {
        let d: Vec<f64> = (0..3).map(|c| x[3 * i + c] - x[3 * j + c]).collect();
        let l = d.iter().map(|v| v * v).sum::<f64>().sqrt();
        for c in 0..3 {
            expected[3 * i + c] += k * (l - rest) * d[c] / l;
            expected[3 * j + c] -= k * (l - rest) * d[c] / l;
        }
    }
    for n in 0..4 {
        expected[3 * n + 2] += 9.81;
    }
    for (a, b) in g.iter().zip(&expected) {
        assert!(close(*a, *b, 1e-13), "{a} vs {b}");
    }
    // One direction, through the generated `_frule`.
    let v: Vec<f64> = (0..12).map(|i| 0.3 - 0.07 * i as f64).collect();
    let d = network_energy_frule(
        Dual::new(&x[..], &v[..]),
        Dual::new(k, 0.0),
        Dual::new(rest, 0.0),
    );
    let fd = central(&|y| network_energy(y, k, rest), &x, &v, 1e-6);
    assert!(close(d.tangent, fd, 1e-8), "{} vs {fd}", d.tangent);
    // The derivative with respect to the stiffness: E_springs / k.
    let dk = network_energy_frule(
        Dual::new(&x[..], &[0.0; 12][..]),
        Dual::new(k, 1.0),
        Dual::new(rest, 0.0),
    );
    let gravity: f64 = (0..4).map(|n| 9.81 * x[3 * n + 2]).sum();
    assert!(close(dk.tangent, (e - gravity) / k, 1e-13));
}

#[test]
fn spring_network_hessian_matches_finite_differences() {
    let x = positions();
    let (k, rest) = (2.5, 0.9);
    let (_, g, h) = fwdad::hessian(bind(network_energy {}, (Wrt, k, rest)), &x);
    let (_, g1) = fwdad::gradient(bind(network_energy {}, (Wrt, k, rest)), &x);
    for (a, b) in g.iter().zip(&g1) {
        assert!(close(*a, *b, 1e-13));
    }
    // Column j of the Hessian: a central difference of the gradient along eⱼ.
    for j in 0..12 {
        let e = unit(12, j);
        for i in 0..12 {
            let fd = central(
                &|y| fwdad::gradient(bind(network_energy {}, (Wrt, k, rest)), y).1[i],
                &x,
                &e,
                1e-6,
            );
            assert!(
                close(h[(i, j)], fd, 1e-7),
                "H[{i},{j}] = {} vs {fd}",
                h[(i, j)]
            );
        }
    }
}

#[test]
fn spring_forces_jacobian_is_minus_the_hessian_of_the_energy() {
    let x = positions()[..9].to_vec();
    let (f, jac) = fwdad::jacobian(inplace(network_forces {}, 9), &x);
    // The forces pull node 0 towards node 1 when the spring is stretched: compare the
    // values with the formula first.
    let mut expected = vec![0.0; 9];
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        let d: Vec<f64> = (0..3).map(|c| x[3 * j + c] - x[3 * i + c]).collect();
        let l = d.iter().map(|v| v * v).sum::<f64>().sqrt();
        for c in 0..3 {
            expected[3 * i + c] += 3.0 * (l - 1.0) * d[c] / l;
            expected[3 * j + c] -= 3.0 * (l - 1.0) * d[c] / l;
        }
    }
    for (a, b) in f.iter().zip(&expected) {
        assert!(close(*a, *b, 1e-14));
    }
    for j in 0..9 {
        let e = unit(9, j);
        for i in 0..9 {
            let fd = central(
                &|y| {
                    let mut out = vec![0.0; 9];
                    network_forces(y, &mut out);
                    out[i]
                },
                &x,
                &e,
                1e-6,
            );
            assert!(
                close(jac[(i, j)], fd, 1e-7),
                "J[{i},{j}] = {} vs {fd}",
                jac[(i, j)]
            );
        }
    }
}

fn covariance() -> Matrix3<f64> {
    Matrix3::new(2.0, 0.3, 0.1, 0.3, 1.5, -0.2, 0.1, -0.2, 1.0)
}

#[test]
fn mahalanobis_in_one_direction_and_batched() {
    let x = Vector3::new(0.7, -0.4, 1.3);
    let mu = Vector3::new(0.1, 0.2, -0.3);
    let sigma = covariance();
    let m = mahalanobis(&x, &mu, &sigma);
    let inv = sigma.try_inverse().unwrap();
    assert!(close(
        m,
        ((x - mu).transpose() * inv * (x - mu))[0].sqrt(),
        1e-14
    ));
    // ∇ₓ m = Σ⁻¹(x − μ) / m, by hand.
    let grad = inv * (x - mu) / m;
    let dx = Vector3::new(0.3, -1.0, 0.5);
    let zero = Vector3::zeros();
    let zero_m = Matrix3::zeros();
    let d = mahalanobis_frule(
        Dual::new(&x, &dx),
        Dual::new(&mu, &zero),
        Dual::new(&sigma, &zero_m),
    );
    assert_eq!(d.primal, m);
    assert!(close(d.tangent, grad.dot(&dx), 1e-13));
    // Along Σ: ∂m/∂Σ · dΣ = −(zᵀ dΣ z) / (2m), z = Σ⁻¹(x − μ).
    let ds = Matrix3::new(0.2, 0.1, 0.0, 0.1, -0.3, 0.05, 0.0, 0.05, 0.4);
    let z = inv * (x - mu);
    let d = mahalanobis_frule(
        Dual::new(&x, &zero),
        Dual::new(&mu, &zero),
        Dual::new(&sigma, &ds),
    );
    assert!(close(
        d.tangent,
        -(z.transpose() * ds * z)[0] / (2.0 * m),
        1e-13
    ));
    // Three directions at once: the gradient in x.
    let seeds = Vector3::new(
        Batch([1.0, 0.0, 0.0]),
        Batch([0.0, 1.0, 0.0]),
        Batch([0.0, 0.0, 1.0]),
    );
    let zb = Vector3::from_element(Batch([0.0; 3]));
    let zmb = Matrix3::from_element(Batch([0.0; 3]));
    let b = <mahalanobis as Frule<_, Batch<f64, 3>>>::frule(
        &mahalanobis {},
        (
            Dual::new(&x, &seeds),
            Dual::new(&mu, &zb),
            Dual::new(&sigma, &zmb),
        ),
    );
    for c in 0..3 {
        assert!(close(b.tangent.0[c], grad[c], 1e-13));
    }
}

#[test]
fn mahalanobis_second_order_matches_the_hand_derived_hessian() {
    let x = Vector3::new(0.7, -0.4, 1.3);
    let mu = Vector3::new(0.1, 0.2, -0.3);
    let sigma = covariance();
    let inv = sigma.try_inverse().unwrap();
    let m = mahalanobis(&x, &mu, &sigma);
    let z = inv * (x - mu);
    // ∇²ₓ m = Σ⁻¹/m − z zᵀ/m³.
    let hess = inv / m - z * z.transpose() / (m * m * m);
    let (u, v) = (Vector3::new(1.0, 0.5, -0.2), Vector3::new(-0.3, 0.8, 0.6));
    let seed = Vector3::from_fn(|i, _| Hyper {
        d1: u[i],
        d2: v[i],
        d12: 0.0,
    });
    let zero = Vector3::from_element(Hyper {
        d1: 0.0,
        d2: 0.0,
        d12: 0.0,
    });
    let zero_m = Matrix3::from_element(zero[0]);
    let out = <mahalanobis as Frule<_, Hyper<f64, f64>>>::frule(
        &mahalanobis {},
        (
            Dual::new(&x, &seed),
            Dual::new(&mu, &zero),
            Dual::new(&sigma, &zero_m),
        ),
    );
    assert_eq!(out.primal, m);
    assert!(close(out.tangent.d1, (z / m).dot(&u), 1e-13));
    assert!(close(out.tangent.d12, u.dot(&(hess * v)), 1e-12));
}

#[test]
fn lu_solve_and_inverse_match_finite_differences() {
    let a = Matrix3::new(3.0, 0.4, -0.2, 0.1, 2.0, 0.5, -0.3, 0.2, 1.5);
    let x = Vector3::new(0.5, -1.0, 2.0);
    let (dx, da) = (
        Vector3::new(0.2, 0.4, -0.1),
        Matrix3::new(0.1, -0.2, 0.0, 0.3, 0.1, 0.2, 0.0, -0.1, 0.4),
    );
    let d = quadratic_forms_frule(Dual::new(&x, &dx), Dual::new(&a, &da));
    assert_eq!(d.primal, quadratic_forms(&x, &a));
    let h = 1e-6;
    let fd = (quadratic_forms(&(x + h * dx), &(a + h * da))
        - quadratic_forms(&(x - h * dx), &(a - h * da)))
        / (2.0 * h);
    assert!(close(d.tangent, fd, 1e-8), "{} vs {fd}", d.tangent);
}

#[test]
fn torque_of_a_cross_product() {
    let force = Vector3::new(0.0, 2.0, 1.0);
    let (theta, phi) = (0.4, 1.1);
    let d = torque_frule(
        Dual::new(theta, 1.0),
        Dual::new(phi, 0.0),
        Dual::new(&force, &Vector3::zeros()),
    );
    let h = 1e-6;
    let fd = (torque(theta + h, phi, &force) - torque(theta - h, phi, &force)) / (2.0 * h);
    assert_eq!(d.primal, torque(theta, phi, &force));
    assert!(close(d.tangent, fd, 1e-8), "{} vs {fd}", d.tangent);
    let df = Vector3::new(0.5, -0.1, 0.3);
    let d = torque_frule(
        Dual::new(theta, 0.0),
        Dual::new(phi, 0.0),
        Dual::new(&force, &df),
    );
    let fd =
        (torque(theta, phi, &(force + h * df)) - torque(theta, phi, &(force - h * df))) / (2.0 * h);
    assert!(close(d.tangent, fd, 1e-8), "{} vs {fd}", d.tangent);
}

/// A potential of a point in the plane, for the drivers with nalgebra vectors.
#[derive_frule]
fn saddle(p: &[f64]) -> f64 {
    p[0] * p[0] - 2.0 * p[1] * p[1] + p[0] * p[1] * p[2] + p[2].exp()
}

/// The residuals of a small nonlinear system.
#[derive_frule]
fn residuals(p: &[f64]) -> [f64; 2] {
    [p[0] * p[1] - 1.0, p[2].sin() + p[0]]
}

#[test]
fn drivers_take_and_return_nalgebra_vectors_and_matrices() {
    use nalgebra::{DVector, Matrix2x3, SVector};
    let x = SVector::<f64, 3>::new(0.5, -1.0, 0.3);
    let (v, g) = fwdad::na::gradient(saddle {}, &x);
    assert_eq!(v, saddle(x.as_slice()));
    // ∇ = (2x + yz, −4y + xz, xy + eᶻ), ∇² = [[2, z, y], [z, −4, x], [y, x, eᶻ]].
    let (px, py, pz) = (x[0], x[1], x[2]);
    let grad = SVector::<f64, 3>::new(2.0 * px + py * pz, -4.0 * py + px * pz, px * py + pz.exp());
    assert!((g - grad).norm() < 1e-14);
    let (_, g2, h) = fwdad::na::hessian(saddle {}, &x);
    let hess = Matrix3::new(2.0, pz, py, pz, -4.0, px, py, px, pz.exp());
    assert!((g2 - grad).norm() < 1e-14);
    assert!((h - hess).norm() < 1e-14);
    // A dynamically sized point gives dynamically sized results.
    let xd = DVector::from_column_slice(x.as_slice());
    let (_, gd) = fwdad::na::gradient(saddle {}, &xd);
    assert_eq!(gd.len(), 3);
    assert!((gd - DVector::from_column_slice(grad.as_slice())).norm() < 1e-14);
    let (r, j) = fwdad::na::jacobian(residuals {}, &x);
    assert_eq!(r.as_slice(), residuals(x.as_slice()));
    let jac = Matrix2x3::new(py, px, 0.0, 1.0, 0.0, pz.cos());
    assert_eq!(j.shape(), (2, 3));
    assert!((j - jac).norm() < 1e-14);
}

/// The position of a point on a helix: a function returning a `Vector3`.
#[derive_frule]
fn helix(t: f64, radius: f64) -> Vector3<f64> {
    Vector3::new(radius * t.cos(), radius * t.sin(), 0.5 * t)
}

/// Kinetic energy along the helix, through the returned vector and another derived
/// function taking `&Vector3<f64>`.
#[derive_frule]
fn speed_squared(v: &Vector3<f64>) -> f64 {
    v.norm_squared()
}

/// (A vector returned by another derived function needs its type written: `docs/limits.md`.)
#[derive_frule]
fn helix_distance(t: f64) -> f64 {
    let p: Vector3<f64> = helix(t, 2.0);
    let q: Vector3<f64> = helix(t + 0.1, 2.0);
    speed_squared(&(q - p)) + p.x * p.y + p[2]
}

#[test]
fn returned_vectors_and_vectors_passed_to_derived_functions() {
    // d/dt of the helix: (−r sin t, r cos t, 0.5).
    let t = 0.8;
    let d = helix_frule(Dual::new(t, 1.0), Dual::new(2.0, 0.0));
    assert_eq!(d.primal, helix(t, 2.0));
    let expected = Vector3::new(-2.0 * t.sin(), 2.0 * t.cos(), 0.5);
    assert!((d.tangent - expected).norm() < 1e-15);
    let d = helix_frule(Dual::new(t, 0.0), Dual::new(2.0, 1.0));
    assert!((d.tangent - Vector3::new(t.cos(), t.sin(), 0.0)).norm() < 1e-15);
    // |q − p|² + pₓ p_y + p_z, by central differences and by hand.
    let d = helix_distance_frule(Dual::new(t, 1.0));
    assert_eq!(d.primal, helix_distance(t));
    let h = 1e-6;
    let fd = (helix_distance(t + h) - helix_distance(t - h)) / (2.0 * h);
    assert!(close(d.tangent, fd, 1e-8), "{} vs {fd}", d.tangent);
    // |q − p|² = 2r²(1 − cos 0.1) + 0.01 does not depend on t; pₓ p_y = r² sin 2t / 2.
    let by_hand = 4.0 * (2.0 * t).cos() + 0.5;
    assert!(
        close(d.tangent, by_hand, 1e-13),
        "{} vs {by_hand}",
        d.tangent
    );
}

/// Gravitational potential energy of point masses given as a slice of positions.
#[derive_frule]
fn cluster_energy(pos: &[Vector3<f64>], mass: &[f64]) -> f64 {
    let mut e = 0.0;
    for i in 0..pos.len() {
        for j in i + 1..pos.len() {
            let r = pos[j] - pos[i];
            e -= mass[i] * mass[j] / r.norm();
        }
    }
    e
}

#[test]
fn slices_of_vectors_as_parameters() {
    let pos = [
        Vector3::new(0.0, 0.1, 0.2),
        Vector3::new(1.0, -0.3, 0.4),
        Vector3::new(0.2, 0.9, -0.5),
    ];
    let mass = [1.0, 2.0, 0.5];
    let dpos = [
        Vector3::new(0.3, 0.0, -0.1),
        Vector3::new(0.0, 0.0, 0.0),
        Vector3::new(-0.2, 0.4, 0.1),
    ];
    let d = cluster_energy_frule(
        Dual::new(&pos[..], &dpos[..]),
        Dual::new(&mass[..], &[0.0; 3][..]),
    );
    assert_eq!(d.primal, cluster_energy(&pos, &mass));
    // dE = Σ_{i<j} mᵢ mⱼ (rⱼ − rᵢ)·(drⱼ − drᵢ) / |rⱼ − rᵢ|³.
    let mut expected = 0.0;
    for i in 0..3 {
        for j in i + 1..3 {
            let r = pos[j] - pos[i];
            expected += mass[i] * mass[j] * r.dot(&(dpos[j] - dpos[i])) / r.norm().powi(3);
        }
    }
    assert!(
        close(d.tangent, expected, 1e-13),
        "{} vs {expected}",
        d.tangent
    );
}

/// Stiffness matrix of four springs in a row between two walls (`k` their stiffnesses),
/// the three free nodes between them.
fn chain_stiffness(k: &[f64]) -> Matrix3<f64> {
    Matrix3::new(
        k[0] + k[1],
        -k[1],
        0.0,
        -k[1],
        k[1] + k[2],
        -k[2],
        0.0,
        -k[2],
        k[2] + k[3],
    )
}

/// Compliance `fᵀ K⁻¹ f` of the spring chain under gravity (`p` = four stiffnesses, then
/// g), the displacements by Cholesky.
#[derive_frule]
fn compliance_cholesky(p: &[f64]) -> f64 {
    let stiffness = Matrix3::new(
        p[0] + p[1],
        -p[1],
        0.0,
        -p[1],
        p[1] + p[2],
        -p[2],
        0.0,
        -p[2],
        p[2] + p[3],
    );
    let load = Vector3::new(1.0, 2.0, 0.5) * p[4];
    let u = stiffness
        .cholesky()
        .expect("stiffness is positive definite")
        .solve(&load);
    load.dot(&u)
}

/// The same compliance, the displacements by LU.
#[derive_frule]
fn compliance_lu(p: &[f64]) -> f64 {
    let stiffness = Matrix3::new(
        p[0] + p[1],
        -p[1],
        0.0,
        -p[1],
        p[1] + p[2],
        -p[2],
        0.0,
        -p[2],
        p[2] + p[3],
    );
    let load = Vector3::new(1.0, 2.0, 0.5) * p[4];
    let u = stiffness
        .lu()
        .solve(&load)
        .expect("stiffness is invertible");
    load.dot(&u)
}

/// The same compliance through the flexibility matrix `K⁻¹`, squared displacements
/// added (a nonlinear function of `K⁻¹`).
#[derive_frule]
fn compliance_inverse(p: &[f64]) -> f64 {
    let stiffness = Matrix3::new(
        p[0] + p[1],
        -p[1],
        0.0,
        -p[1],
        p[1] + p[2],
        -p[2],
        0.0,
        -p[2],
        p[2] + p[3],
    );
    let flexibility = stiffness.try_inverse().expect("stiffness is invertible");
    let load = Vector3::new(1.0, 2.0, 0.5) * p[4];
    let u = flexibility * load;
    load.dot(&u) + u.norm_squared()
}

/// Value, gradient and Hessian (by rows).
type SecondOrder = (f64, Vec<f64>, Vec<Vec<f64>>);

/// Gradient and Hessian of `f` (through `fwdad::hessian` and `fwdad::gradient`) against
/// central differences of the function and of the gradient.
fn check_second_order(
    name: &str,
    f: &dyn Fn(&[f64]) -> f64,
    grad: &dyn Fn(&[f64]) -> Vec<f64>,
    hess: &dyn Fn(&[f64]) -> SecondOrder,
    p: &[f64],
) {
    let n = p.len();
    let (value, g, h) = hess(p);
    assert_eq!(value, f(p), "{name}: primal");
    let g1 = grad(p);
    for j in 0..n {
        let e = unit(n, j);
        let fd = central(f, p, &e, 1e-6);
        assert!(close(g1[j], fd, 1e-8), "{name}: g[{j}] = {} vs {fd}", g1[j]);
        assert!(close(g[j], g1[j], 1e-12), "{name}: hessian's g[{j}]");
        for (i, row) in h.iter().enumerate() {
            let fd = central(&|y| grad(y)[i], p, &e, 1e-6);
            assert!(
                close(row[j], fd, 1e-7),
                "{name}: H[{i},{j}] = {} vs {fd}",
                row[j]
            );
        }
    }
}

#[test]
fn linear_solves_second_order_in_the_matrix_and_the_right_hand_side() {
    let p = [3.0, 1.5, 2.0, 0.8, 9.81];
    // The primal is the `f64` code's, bit for bit, and matches K⁻¹ by hand.
    let k = chain_stiffness(&p);
    let f = Vector3::new(1.0, 2.0, 0.5) * p[4];
    let want = f.dot(&(k.try_inverse().unwrap() * f));
    assert!(close(compliance_cholesky(&p), want, 1e-14));
    assert!(close(compliance_lu(&p), want, 1e-14));
    macro_rules! check {
        ($f:ident) => {
            check_second_order(
                stringify!($f),
                &|y| $f(y),
                &|y| fwdad::gradient($f {}, y).1,
                &|y| {
                    let (v, g, h) = fwdad::hessian($f {}, y);
                    let h = (0..y.len())
                        .map(|i| (0..y.len()).map(|j| h[(i, j)]).collect())
                        .collect();
                    (v, g, h)
                },
                &p,
            )
        };
    }
    check!(compliance_cholesky);
    check!(compliance_lu);
    check!(compliance_inverse);
    // One direction, through the rule: dC = −uᵀ dK u + 2 uᵀ df (u = K⁻¹ f).
    let dp = [0.3, -0.2, 0.5, 0.1, -1.0];
    let u = k.try_inverse().unwrap() * f;
    let (dk, df) = (chain_stiffness(&dp), Vector3::new(1.0, 2.0, 0.5) * dp[4]);
    let want = -(u.transpose() * dk * u)[0] + 2.0 * u.dot(&df);
    for d in [
        compliance_cholesky_frule(Dual::new(&p[..], &dp[..])),
        compliance_lu_frule(Dual::new(&p[..], &dp[..])),
    ] {
        assert!(close(d.tangent, want, 1e-13), "{} vs {want}", d.tangent);
    }
}

/// [`mahalanobis`] with a covariance known in advance: its factorisation is a constant.
#[derive_frule(inactive(mu, sigma))]
fn mahalanobis_known_covariance(x: &Vector3<f64>, mu: &Vector3<f64>, sigma: &Matrix3<f64>) -> f64 {
    let d = x - mu;
    let z = sigma.lu().solve(&d).expect("covariance is invertible");
    d.dot(&z).sqrt()
}

#[test]
fn constant_factorisations_solve_for_active_right_hand_sides() {
    let x = Vector3::new(0.7, -0.4, 1.3);
    let mu = Vector3::new(0.1, 0.2, -0.3);
    let sigma = covariance();
    let inv = sigma.try_inverse().unwrap();
    let m = mahalanobis(&x, &mu, &sigma);
    let z = inv * (x - mu);
    let hess = inv / m - z * z.transpose() / (m * m * m);
    let (u, v) = (Vector3::new(1.0, 0.5, -0.2), Vector3::new(-0.3, 0.8, 0.6));
    let seed = Vector3::from_fn(|i, _| Hyper {
        d1: u[i],
        d2: v[i],
        d12: 0.0,
    });
    let out = <mahalanobis_known_covariance as Frule<_, Hyper<f64, f64>>>::frule(
        &mahalanobis_known_covariance {},
        (Dual::new(&x, &seed), &mu, &sigma),
    );
    assert_eq!(out.primal, mahalanobis_known_covariance(&x, &mu, &sigma));
    assert!(close(out.primal, m, 1e-14));
    assert!(close(out.tangent.d1, (z / m).dot(&u), 1e-13));
    assert!(close(out.tangent.d2, (z / m).dot(&v), 1e-13));
    assert!(close(out.tangent.d12, u.dot(&(hess * v)), 1e-12));
}

/// Energy of a rigid body spinning at `ω = p[0..3]` with its centre at `x = p[3..6]`,
/// held by an anisotropic spring: `½ ωᵀ I ω` with the world inertia `R I_body Rᵀ` of a
/// fixed orientation `R`, the spring's `½ (x − x₀)ᵀ K (x − x₀)`, and a gyroscopic-like
/// coupling term. The matrices are constants; `ω` and `x` are the variables.
#[derive_frule]
fn rigid_energy(p: &[f64]) -> f64 {
    let omega = Vector3::new(p[0], p[1], p[2]);
    let x = Vector3::new(p[3], p[4], p[5]);
    let (c, s) = (0.6f64.cos(), 0.6f64.sin());
    let orientation = Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0);
    let body_inertia = Matrix3::new(2.0, 0.0, 0.0, 0.0, 3.0, 0.1, 0.0, 0.1, 1.5);
    let inertia = orientation * body_inertia * orientation.transpose();
    let momentum = inertia * omega;
    let rest = Vector3::new(0.1, -0.2, 0.3);
    let stiffness = Matrix3::<f64>::identity() * 4.0 + Matrix3::from_element(0.5);
    let stretch = x - rest;
    let force = stiffness * stretch;
    let row = omega.transpose() * inertia;
    let mid = (rest + x) * 0.5;
    let back = rest - x;
    let lever = x + rest;
    0.5 * omega.dot(&momentum)
        + 0.5 * stretch.dot(&force)
        + 0.1 * (row * x)[0]
        + mid.dot(&back)
        + 0.05 * lever.norm_squared()
}

#[test]
fn constant_matrices_with_variable_vectors() {
    let p = [0.3, -0.7, 1.1, 0.4, 0.25, -0.6];
    check_second_order(
        "rigid_energy",
        &|y| rigid_energy(y),
        &|y| fwdad::gradient(rigid_energy {}, y).1,
        &|y| {
            let (v, g, h) = fwdad::hessian(rigid_energy {}, y);
            let h = (0..y.len())
                .map(|i| (0..y.len()).map(|j| h[(i, j)]).collect())
                .collect();
            (v, g, h)
        },
        &p,
    );
    let dp = [0.2, 0.1, -0.4, 1.0, -0.5, 0.3];
    let d = rigid_energy_frule(Dual::new(&p[..], &dp[..]));
    assert_eq!(d.primal, rigid_energy(&p));
    let fd = central(&|y| rigid_energy(y), &p, &dp, 1e-6);
    assert!(close(d.tangent, fd, 1e-8), "{} vs {fd}", d.tangent);
}

/// Strain energy density `½ tr(Eᵀ C E)`-like form of a deformation gradient `f`, through
/// the right Cauchy–Green tensor `fᵀ f` and a material matrix `c`.
#[derive_frule]
fn cauchy_green_energy(f: &Matrix3<f64>, c: &Matrix3<f64>) -> f64 {
    let green = f.transpose() * f;
    let stress = c * green;
    0.5 * (green * stress).trace()
}

#[test]
fn products_of_variable_matrices_along_each_argument() {
    let f = Matrix3::new(1.1, 0.2, -0.1, 0.05, 0.9, 0.3, 0.0, -0.2, 1.2);
    let c = Matrix3::new(2.0, 0.5, 0.1, 0.5, 1.5, 0.2, 0.1, 0.2, 1.0);
    let (df, dc) = (
        Matrix3::new(0.3, -0.1, 0.2, 0.0, 0.4, -0.2, 0.1, 0.1, -0.3),
        Matrix3::new(-0.2, 0.1, 0.0, 0.1, 0.3, -0.1, 0.0, -0.1, 0.2),
    );
    let zero = Matrix3::zeros();
    for (tf, tc) in [(df, zero), (zero, dc), (df, dc), (zero, zero)] {
        let d = cauchy_green_energy_frule(Dual::new(&f, &tf), Dual::new(&c, &tc));
        assert_eq!(d.primal, cauchy_green_energy(&f, &c));
        let h = 1e-6;
        let fd = (cauchy_green_energy(&(f + h * tf), &(c + h * tc))
            - cauchy_green_energy(&(f - h * tf), &(c - h * tc)))
            / (2.0 * h);
        assert!(close(d.tangent, fd, 1e-8), "{} vs {fd}", d.tangent);
    }
}

/// Terms of a Gaussian model in its covariance `Σ(p)`: the quadratic form through the
/// precision `Σ⁻¹` (Cholesky's `inverse`), `ln det Σ` (Cholesky), `det Σ` (LU) and
/// `tr Σ⁻¹` (LU's `try_inverse`).
#[derive_frule]
fn gaussian_terms(p: &[f64]) -> f64 {
    let sigma = Matrix3::new(p[0], p[3], 0.1, p[3], p[1], p[4], 0.1, p[4], p[2]);
    let x = Vector3::new(0.5, -0.2, 0.3);
    let chol = sigma.cholesky().expect("positive definite");
    let precision = chol.inverse();
    let lu = sigma.lu();
    let inv = lu.try_inverse().expect("invertible");
    -0.5 * x.dot(&(precision * x)) - 0.5 * chol.determinant().ln()
        + 0.1 * lu.determinant()
        + 0.2 * inv.trace()
}

#[test]
fn factorisation_methods_second_order() {
    let p = [2.0, 1.5, 1.0, 0.3, -0.2];
    check_second_order(
        "gaussian_terms",
        &|y| gaussian_terms(y),
        &|y| fwdad::gradient(gaussian_terms {}, y).1,
        &|y| {
            let (v, g, h) = fwdad::hessian(gaussian_terms {}, y);
            let h = (0..y.len())
                .map(|i| (0..y.len()).map(|j| h[(i, j)]).collect())
                .collect();
            (v, g, h)
        },
        &p,
    );
}

/// A small-strain update `(I + ε) v`, the identity written without its scalar type (as
/// plain code infers it from the sum).
#[derive_frule]
fn strained(eps: &Matrix3<f64>, v: &Vector3<f64>) -> Vector3<f64> {
    let deformation = Matrix3::identity() + eps;
    deformation * v
}

#[test]
fn untyped_identity_next_to_an_active_matrix() {
    let eps = Matrix3::new(0.01, 0.002, 0.0, 0.002, -0.01, 0.003, 0.0, 0.003, 0.02);
    let v = Vector3::new(1.0, 2.0, -0.5);
    let (de, dv) = (
        Matrix3::new(0.1, 0.0, 0.2, 0.0, 0.3, 0.0, -0.1, 0.0, 0.1),
        Vector3::new(0.5, -0.5, 1.0),
    );
    let d = strained_frule(Dual::new(&eps, &de), Dual::new(&v, &dv));
    assert_eq!(d.primal, strained(&eps, &v));
    // By hand: d((I + ε) v) = dε v + (I + ε) dv.
    let want = de * v + (Matrix3::identity() + eps) * dv;
    for i in 0..3 {
        assert!(close(d.tangent[i], want[i], 1e-14));
    }
}

/// The Hessian sparsity pattern of functions through solves, products and norms holds
/// every nonzero of the dense Hessian (the runtime's nalgebra rules take the scalar
/// rules' path in this second-order mode, which records the interactions).
#[test]
fn hessian_sparsity_through_solves_products_and_norms() {
    fn check(name: &str, pattern: fwdad::sparse::SparsityPattern, h: &fwdad::Matrix) {
        for i in 0..h.nrows() {
            for j in 0..h.ncols() {
                if h[(i, j)] != 0.0 {
                    assert!(
                        pattern.contains(i, j),
                        "{name}: H[{i},{j}] = {} not in the pattern",
                        h[(i, j)]
                    );
                }
            }
        }
    }
    let p = [3.0, 1.5, 2.0, 0.8, 9.81];
    check(
        "compliance_cholesky",
        fwdad::sparse::hessian_sparsity(&compliance_cholesky {}, &p),
        &fwdad::hessian(compliance_cholesky {}, &p).2,
    );
    check(
        "compliance_inverse",
        fwdad::sparse::hessian_sparsity(&compliance_inverse {}, &p),
        &fwdad::hessian(compliance_inverse {}, &p).2,
    );
    let q = [2.0, 1.5, 1.0, 0.3, -0.2];
    check(
        "gaussian_terms",
        fwdad::sparse::hessian_sparsity(&gaussian_terms {}, &q),
        &fwdad::hessian(gaussian_terms {}, &q).2,
    );
    let x = positions();
    let bound = bind(network_energy {}, (Wrt, 2.5, 0.9));
    check(
        "network_energy",
        fwdad::sparse::hessian_sparsity(&bound, &x),
        &fwdad::hessian(bound, &x).2,
    );
}
