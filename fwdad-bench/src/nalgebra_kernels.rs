//! nalgebra kernels (feature `nalgebra`): `Vector3`/`Matrix3` code as users write it,
//! derived by `#[derive_frule]`, against the same code generic over num-dual's `DualNum`
//! on nalgebra types of num-dual duals (`Vector3<Dual64>`, `Matrix3<DualSVec64<N>>`).
//!
//! * [`spring_energy`]: elastic energy of a cube of springs, `(b − a).norm()` per spring;
//! * [`rotate`]: a rigid-body rotation `R(ω) v` with `R` from Rodrigues' formula (the
//!   matrix exponential of `[ω]×`) built as a `Matrix3`;
//! * [`mahalanobis`]: `√((x − μ)ᵀ Σ⁻¹ (x − μ))` through `cholesky().solve`;
//! * [`matvec_chain`]: `xᵀ Aᵀ B A x` as a chain of 3×3 matrix-vector products.
//!
//! The num-dual versions differ from the derived ones only where num-dual's types need it:
//! a scalar multiplies a matrix on the right (`kx * s`: nalgebra implements `s * m` for
//! primitive scalars only) and constants are converted with `D::from`.

use fwdad::prelude::*;
use nalgebra::{Matrix3, RealField, Vector3};
use num_dual::DualNum;

/// Nodes of the spring network (a cube's corners), three coordinates each.
pub const NODES: usize = 8;

// --- spring network ---------------------------------------------------------------------

/// Elastic energy of springs of stiffness `k` and rest length `rest` along the edges of a
/// cube; `x` holds the node positions (x, y, z per node).
#[derive_frule]
pub fn spring_energy(x: &[f64], k: f64, rest: f64) -> f64 {
    let springs = [
        (0, 1),
        (1, 3),
        (3, 2),
        (2, 0),
        (4, 5),
        (5, 7),
        (7, 6),
        (6, 4),
        (0, 4),
        (1, 5),
        (2, 6),
        (3, 7),
    ];
    let mut e = 0.0;
    for (i, j) in springs {
        let a = Vector3::new(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
        let b = Vector3::new(x[3 * j], x[3 * j + 1], x[3 * j + 2]);
        let stretch = (b - a).norm() - rest;
        e += 0.5 * k * stretch * stretch;
    }
    e
}

/// [`spring_energy`] generic over num-dual's numbers.
pub fn spring_energy_nd<D: DualNum<Primitive = f64> + RealField + Copy>(
    x: &[D],
    k: f64,
    rest: f64,
) -> D {
    let springs = [
        (0, 1),
        (1, 3),
        (3, 2),
        (2, 0),
        (4, 5),
        (5, 7),
        (7, 6),
        (6, 4),
        (0, 4),
        (1, 5),
        (2, 6),
        (3, 7),
    ];
    let mut e = D::from(0.0);
    for (i, j) in springs {
        let a = Vector3::new(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
        let b = Vector3::new(x[3 * j], x[3 * j + 1], x[3 * j + 2]);
        let stretch = (b - a).norm() - D::from(rest);
        e += stretch * stretch * D::from(0.5 * k);
    }
    e
}

/// A slightly distorted unit cube: the test point of [`spring_energy`].
pub fn cube_point() -> Vec<f64> {
    (0..NODES)
        .flat_map(|n| {
            let corner = [(n & 1) as f64, ((n >> 1) & 1) as f64, ((n >> 2) & 1) as f64];
            (0..3).map(move |c| corner[c] + 0.07 * ((3 * n + c) as f64 * 1.3).sin())
        })
        .collect()
}

// --- rigid-body rotation ----------------------------------------------------------------

/// `R(ω) v`, with `R = exp([ω]×) = I + sin θ K + (1 − cos θ) K²` (Rodrigues; `θ = |ω|`,
/// `K` the cross-product matrix of the axis `ω/θ`).
#[derive_frule]
pub fn rotate(omega: &Vector3<f64>, v: &Vector3<f64>) -> Vector3<f64> {
    let theta = omega.norm();
    let k = omega / theta;
    let kx = Matrix3::new(0.0, -k[2], k[1], k[2], 0.0, -k[0], -k[1], k[0], 0.0);
    // `Matrix3::identity()` without its scalar type is ambiguous in a derived body (the
    // macro cannot tell the constant's scalar): see the crate's report.
    let r = Matrix3::<f64>::identity() + kx * theta.sin() + kx * kx * (1.0 - theta.cos());
    r * v
}

/// [`rotate`] generic over num-dual's numbers.
pub fn rotate_nd<D: DualNum<Primitive = f64> + RealField + Copy>(
    omega: &Vector3<D>,
    v: &Vector3<D>,
) -> Vector3<D> {
    let theta = omega.norm();
    let k = omega / theta;
    let zero = D::from(0.0);
    let kx = Matrix3::new(zero, -k[2], k[1], k[2], zero, -k[0], -k[1], k[0], zero);
    let r = Matrix3::identity() + kx * theta.sin() + kx * kx * (D::from(1.0) - theta.cos());
    r * v
}

// --- Mahalanobis distance ---------------------------------------------------------------

/// `√((x − μ)ᵀ Σ⁻¹ (x − μ))` through a Cholesky factorisation of `Σ`.
#[derive_frule]
pub fn mahalanobis(x: &Vector3<f64>, mu: &Vector3<f64>, sigma: &Matrix3<f64>) -> f64 {
    let d = x - mu;
    let chol = sigma
        .cholesky()
        .expect("covariance must be positive definite");
    let z = chol.solve(&d);
    d.dot(&z).sqrt()
}

/// [`mahalanobis`] generic over num-dual's numbers.
pub fn mahalanobis_nd<D: DualNum<Primitive = f64> + RealField + Copy>(
    x: &Vector3<D>,
    mu: &Vector3<D>,
    sigma: &Matrix3<D>,
) -> D {
    let d = x - mu;
    let chol = sigma
        .cholesky()
        .expect("covariance must be positive definite");
    let z = chol.solve(&d);
    d.dot(&z).sqrt()
}

/// A covariance (symmetric positive definite).
pub fn covariance() -> Matrix3<f64> {
    Matrix3::new(2.0, 0.3, 0.1, 0.3, 1.5, -0.2, 0.1, -0.2, 1.0)
}

// --- matrix-vector chain ----------------------------------------------------------------

/// `xᵀ Aᵀ B A x`, as the products a user chains: `y = A x`, `z = B y`, `w = Aᵀ z`, `w · x`.
#[derive_frule]
pub fn matvec_chain(a: &Matrix3<f64>, b: &Matrix3<f64>, x: &Vector3<f64>) -> f64 {
    let y = a * x;
    let z = b * y;
    let w = a.transpose() * z;
    w.dot(x)
}

/// [`matvec_chain`] generic over num-dual's numbers.
pub fn matvec_chain_nd<D: DualNum<Primitive = f64> + RealField + Copy>(
    a: &Matrix3<D>,
    b: &Matrix3<D>,
    x: &Vector3<D>,
) -> D {
    let y = a * x;
    let z = b * y;
    let w = a.transpose() * z;
    w.dot(x)
}

/// The matrices of [`matvec_chain`]'s test point.
pub fn chain_matrices() -> (Matrix3<f64>, Matrix3<f64>) {
    (
        Matrix3::new(0.9, -0.2, 0.4, 0.1, 1.1, -0.3, 0.5, 0.2, 0.8),
        Matrix3::new(1.2, 0.3, -0.1, 0.0, 0.7, 0.6, -0.4, 0.2, 1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::assert_close;
    use crate::fd;
    use crate::optim::{nd_gradient, nd_inputs};
    use num_dual::Dual64;

    fn nd_vec(x: &Vector3<f64>, dx: &Vector3<f64>) -> Vector3<Dual64> {
        Vector3::from_fn(|i, _| Dual64::new(x[i], dx[i]))
    }

    #[test]
    fn spring_energy_against_num_dual_and_finite_differences() {
        let x = cube_point();
        let dx: Vec<f64> = (0..x.len()).map(|i| (i as f64 * 0.7).cos()).collect();
        let (k, rest) = (30.0, 1.0);
        let d = spring_energy_frule(
            Dual::new(&x[..], &dx[..]),
            Dual::new(k, 0.0),
            Dual::new(rest, 0.0),
        );
        assert_eq!(d.primal, spring_energy(&x, k, rest));
        let xd: Vec<Dual64> = x
            .iter()
            .zip(&dx)
            .map(|(&v, &t)| Dual64::new(v, t))
            .collect();
        let nd = spring_energy_nd(&xd, k, rest);
        let mut buf = vec![0.0; x.len()];
        let fd = fd::jvp(|x| spring_energy(x, k, rest), &x, &dx, &mut buf);
        assert_close("spring jvp vs num-dual", &[d.tangent], &[nd.eps]);
        assert_close("spring jvp vs fd", &[d.tangent], &[fd]);

        let (_, g) = gradient(bind(spring_energy {}, (Wrt, k, rest)), &x);
        let mut xs = nd_inputs::<8>(&x);
        let mut ng = vec![0.0; x.len()];
        nd_gradient(|x| spring_energy_nd(x, k, rest), &mut xs, &mut ng);
        let mut fg = vec![0.0; x.len()];
        fd::gradient(|x| spring_energy(x, k, rest), &x, &mut buf, &mut fg);
        assert_close("spring gradient vs num-dual", &g, &ng);
        assert_close("spring gradient vs fd", &g, &fg);
    }

    /// `∂(R v)/∂v = R`, and along `ω` the rotation of `v` about a fixed axis moves it
    /// by `dθ · (k × R v)` (a rotation about its own axis commutes with `R`).
    #[test]
    fn rotate_against_hand_derivatives_and_num_dual() {
        let omega = Vector3::new(0.3, -0.5, 0.8);
        let v = Vector3::new(1.0, 2.0, -0.5);
        let theta = omega.norm();
        let axis = omega / theta;
        let rv = rotate(&omega, &v);
        let zero = Vector3::zeros();
        // Along ω itself (the angle grows, the axis stays).
        let d = rotate_frule(Dual::new(&omega, &axis), Dual::new(&v, &zero));
        assert_eq!(d.primal, rv);
        let want = axis.cross(&rv);
        assert_close("rotate dθ", d.tangent.as_slice(), want.as_slice());
        // Along v: R dv, with R applied to each unit vector.
        for c in 0..3 {
            let e = Vector3::from_fn(|i, _| if i == c { 1.0 } else { 0.0 });
            let d = rotate_frule(Dual::new(&omega, &zero), Dual::new(&v, &e));
            assert_close(
                "rotate dv",
                d.tangent.as_slice(),
                rotate(&omega, &e).as_slice(),
            );
        }
        // A general direction against num-dual.
        let (dw, dv) = (Vector3::new(0.2, 0.1, -0.4), Vector3::new(-0.3, 0.5, 0.9));
        let d = rotate_frule(Dual::new(&omega, &dw), Dual::new(&v, &dv));
        let nd = rotate_nd(&nd_vec(&omega, &dw), &nd_vec(&v, &dv));
        let nt: Vec<f64> = nd.iter().map(|x| x.eps).collect();
        assert_close("rotate vs num-dual", d.tangent.as_slice(), &nt);
        // All six directions at once.
        let (jw, jv) = rotate_batch(&omega, &v);
        let (nw, nv) = rotate_nd_batch(&omega, &v);
        let (f, g): (Vec<f64>, Vec<f64>) = (
            jw.iter().chain(&jv).copied().collect(),
            nw.iter().chain(&nv).copied().collect(),
        );
        assert_close("rotate jacobian vs num-dual", &f, &g);
    }

    /// `∇ₓ m = Σ⁻¹(x − μ) / m`.
    #[test]
    fn mahalanobis_against_hand_gradient_and_num_dual() {
        let (x, mu, sigma) = (
            Vector3::new(0.7, -0.4, 1.3),
            Vector3::new(0.1, 0.2, -0.3),
            covariance(),
        );
        let m = mahalanobis(&x, &mu, &sigma);
        let grad = sigma.try_inverse().unwrap() * (x - mu) / m;
        let dx = Vector3::new(0.3, -1.0, 0.5);
        let (zv, zm) = (Vector3::zeros(), Matrix3::zeros());
        let d = mahalanobis_frule(
            Dual::new(&x, &dx),
            Dual::new(&mu, &zv),
            Dual::new(&sigma, &zm),
        );
        assert_close("mahalanobis jvp", &[d.tangent], &[grad.dot(&dx)]);
        let nd = mahalanobis_nd(
            &nd_vec(&x, &dx),
            &nd_vec(&mu, &zv),
            &sigma.map(Dual64::from),
        );
        assert_close("mahalanobis vs num-dual", &[d.tangent], &[nd.eps]);
        assert_close(
            "mahalanobis gradient",
            &mahalanobis_batch(&x, &mu, &sigma),
            grad.as_slice(),
        );
        assert_close(
            "mahalanobis num-dual gradient",
            &mahalanobis_nd_batch(&x, &mu, &sigma),
            grad.as_slice(),
        );
    }

    /// `∇ₓ (xᵀ M x) = (M + Mᵀ) x` with `M = Aᵀ B A`.
    #[test]
    fn matvec_chain_against_hand_gradient_and_num_dual() {
        let (a, b) = chain_matrices();
        let x = Vector3::new(0.4, -1.1, 0.6);
        let m = a.transpose() * b * a;
        let grad = (m + m.transpose()) * x;
        let dx = Vector3::new(1.0, 0.5, -0.25);
        let zm = Matrix3::zeros();
        let d = matvec_chain_frule(Dual::new(&a, &zm), Dual::new(&b, &zm), Dual::new(&x, &dx));
        assert_eq!(d.primal, matvec_chain(&a, &b, &x));
        assert_close("chain jvp", &[d.tangent], &[grad.dot(&dx)]);
        let nd = matvec_chain_nd(&a.map(Dual64::from), &b.map(Dual64::from), &nd_vec(&x, &dx));
        assert_close("chain vs num-dual", &[d.tangent], &[nd.eps]);
        assert_close(
            "chain gradient",
            &matvec_chain_batch(&a, &b, &x),
            grad.as_slice(),
        );
        assert_close(
            "chain num-dual gradient",
            &matvec_chain_nd_batch(&a, &b, &x),
            grad.as_slice(),
        );
    }
}

// --- every direction in one batched pass ------------------------------------------------

/// `Vector3` of unit seeds: lane `off + i` set in entry `i`.
fn seeds<const N: usize>(off: usize) -> Vector3<Batch<f64, N>> {
    Vector3::from_fn(|i, _| Batch::unit(off + i))
}

/// The 3×6 Jacobian of [`rotate`] in `(ω, v)`, one `Batch<f64, 6>` pass: columns of `ω`
/// then of `v`, column-major.
pub fn rotate_batch(omega: &Vector3<f64>, v: &Vector3<f64>) -> ([f64; 9], [f64; 9]) {
    let d = <rotate as Frule<_, Batch<f64, 6>>>::frule(
        &rotate {},
        (Dual::new(omega, &seeds(0)), Dual::new(v, &seeds(3))),
    );
    let (mut jw, mut jv) = ([0.0; 9], [0.0; 9]);
    for r in 0..3 {
        for c in 0..3 {
            jw[3 * c + r] = d.tangent[r].0[c];
            jv[3 * c + r] = d.tangent[r].0[3 + c];
        }
    }
    (jw, jv)
}

/// [`rotate_batch`] with num-dual's `DualSVec64<6>`.
pub fn rotate_nd_batch(omega: &Vector3<f64>, v: &Vector3<f64>) -> ([f64; 9], [f64; 9]) {
    use nalgebra::{Const, U1};
    use num_dual::{Derivative, DualSVec64};
    let lift = |x: &Vector3<f64>, off: usize| {
        Vector3::from_fn(|i, _| {
            DualSVec64::<6>::new(
                x[i],
                Derivative::derivative_generic(Const::<6>, U1, off + i),
            )
        })
    };
    let y = rotate_nd(&lift(omega, 0), &lift(v, 3));
    let (mut jw, mut jv) = ([0.0; 9], [0.0; 9]);
    for r in 0..3 {
        let eps = y[r].eps.unwrap_generic(Const::<6>, U1);
        for c in 0..3 {
            jw[3 * c + r] = eps[c];
            jv[3 * c + r] = eps[3 + c];
        }
    }
    (jw, jv)
}

/// `∇ₓ` of [`mahalanobis`] in one `Batch<f64, 3>` pass.
pub fn mahalanobis_batch(x: &Vector3<f64>, mu: &Vector3<f64>, sigma: &Matrix3<f64>) -> [f64; 3] {
    let d = <mahalanobis as Frule<_, Batch<f64, 3>>>::frule(
        &mahalanobis {},
        (
            Dual::new(x, &seeds(0)),
            Dual::new(mu, &Vector3::from_element(Batch([0.0; 3]))),
            Dual::new(sigma, &Matrix3::from_element(Batch([0.0; 3]))),
        ),
    );
    d.tangent.0
}

/// [`mahalanobis_batch`] with num-dual's `DualSVec64<3>` (`μ`, `Σ` without derivative).
pub fn mahalanobis_nd_batch(x: &Vector3<f64>, mu: &Vector3<f64>, sigma: &Matrix3<f64>) -> [f64; 3] {
    use nalgebra::{Const, U1};
    use num_dual::{Derivative, DualSVec64};
    let xd = Vector3::from_fn(|i, _| {
        DualSVec64::<3>::new(x[i], Derivative::derivative_generic(Const::<3>, U1, i))
    });
    let y = mahalanobis_nd(
        &xd,
        &mu.map(DualSVec64::from_re),
        &sigma.map(DualSVec64::from_re),
    );
    let eps = y.eps.unwrap_generic(Const::<3>, U1);
    [eps[0], eps[1], eps[2]]
}

/// `∇ₓ` of [`matvec_chain`] in one `Batch<f64, 3>` pass.
pub fn matvec_chain_batch(a: &Matrix3<f64>, b: &Matrix3<f64>, x: &Vector3<f64>) -> [f64; 3] {
    let zm = Matrix3::from_element(Batch([0.0; 3]));
    let d = <matvec_chain as Frule<_, Batch<f64, 3>>>::frule(
        &matvec_chain {},
        (
            Dual::new(a, &zm),
            Dual::new(b, &zm),
            Dual::new(x, &seeds(0)),
        ),
    );
    d.tangent.0
}

/// [`matvec_chain_batch`] with num-dual's `DualSVec64<3>`.
pub fn matvec_chain_nd_batch(a: &Matrix3<f64>, b: &Matrix3<f64>, x: &Vector3<f64>) -> [f64; 3] {
    use nalgebra::{Const, U1};
    use num_dual::{Derivative, DualSVec64};
    let xd = Vector3::from_fn(|i, _| {
        DualSVec64::<3>::new(x[i], Derivative::derivative_generic(Const::<3>, U1, i))
    });
    let y = matvec_chain_nd(
        &a.map(DualSVec64::from_re),
        &b.map(DualSVec64::from_re),
        &xd,
    );
    let eps = y.eps.unwrap_generic(Const::<3>, U1);
    [eps[0], eps[1], eps[2]]
}

// --- constant data declared `inactive` --------------------------------------------------

/// [`mahalanobis`] with `μ` and `Σ` declared constant data: computed in plain `f64`, as
/// num-dual computes inputs without a derivative part.
#[derive_frule(inactive(mu, sigma))]
pub fn mahalanobis_const(x: &Vector3<f64>, mu: &Vector3<f64>, sigma: &Matrix3<f64>) -> f64 {
    let d = x - mu;
    let chol = sigma
        .cholesky()
        .expect("covariance must be positive definite");
    let z = chol.solve(&d);
    d.dot(&z).sqrt()
}

/// [`matvec_chain`] with `A` and `B` declared constant data.
#[derive_frule(inactive(a, b))]
pub fn matvec_chain_const(a: &Matrix3<f64>, b: &Matrix3<f64>, x: &Vector3<f64>) -> f64 {
    let y = a * x;
    let z = b * y;
    let w = a.transpose() * z;
    w.dot(x)
}

/// `∇ₓ` of [`mahalanobis_const`] in one `Batch<f64, 3>` pass.
pub fn mahalanobis_const_batch(
    x: &Vector3<f64>,
    mu: &Vector3<f64>,
    sigma: &Matrix3<f64>,
) -> [f64; 3] {
    let d = <mahalanobis_const as Frule<_, Batch<f64, 3>>>::frule(
        &mahalanobis_const {},
        (Dual::new(x, &seeds(0)), mu, sigma),
    );
    d.tangent.0
}

/// `∇ₓ` of [`matvec_chain_const`] in one `Batch<f64, 3>` pass.
pub fn matvec_chain_const_batch(a: &Matrix3<f64>, b: &Matrix3<f64>, x: &Vector3<f64>) -> [f64; 3] {
    let d = <matvec_chain_const as Frule<_, Batch<f64, 3>>>::frule(
        &matvec_chain_const {},
        (a, b, Dual::new(x, &seeds(0))),
    );
    d.tangent.0
}

/// `A⁻¹ b` by LU with `A` constant data.
#[derive_frule(inactive(a))]
pub fn solve_const(a: &Matrix3<f64>, b: &Vector3<f64>) -> Vector3<f64> {
    a.lu().solve(b).expect("invertible")
}

#[cfg(test)]
mod const_tests {
    use super::*;
    use crate::check::assert_close;

    /// With `A` constant, `dx = A⁻¹ db`.
    #[test]
    fn constant_lu_solves_the_tangent() {
        let (a, _) = chain_matrices();
        let (b, db) = (Vector3::new(0.3, -1.2, 0.8), Vector3::new(1.0, 0.4, -0.6));
        let d = solve_const_frule(&a, Dual::new(&b, &db));
        let inv = a.try_inverse().unwrap();
        assert_close("lu const x", d.primal.as_slice(), (inv * b).as_slice());
        assert_close("lu const dx", d.tangent.as_slice(), (inv * db).as_slice());
    }

    #[test]
    fn inactive_variants_match_the_hand_gradients() {
        let (x, mu, sigma) = (
            Vector3::new(0.7, -0.4, 1.3),
            Vector3::new(0.1, 0.2, -0.3),
            covariance(),
        );
        let m = mahalanobis(&x, &mu, &sigma);
        let grad = sigma.try_inverse().unwrap() * (x - mu) / m;
        assert_close(
            "mahalanobis const",
            &mahalanobis_const_batch(&x, &mu, &sigma),
            grad.as_slice(),
        );
        let (a, b) = chain_matrices();
        let m = a.transpose() * b * a;
        let grad = (m + m.transpose()) * x;
        assert_close(
            "chain const",
            &matvec_chain_const_batch(&a, &b, &x),
            grad.as_slice(),
        );
    }
}

// --- the scalar types alone ----------------------------------------------------------------

/// [`rotate`] generic over nalgebra's `RealField` alone, so that the same code runs on
/// fwdad's `Dual<f64>` and on num-dual's `Dual64`: the cost of the scalar types without
/// the macro's code around them.
pub fn rotate_real<T: RealField + Copy>(omega: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
    let theta = omega.norm();
    let k = omega / theta;
    let zero = T::zero();
    let kx = Matrix3::new(zero, -k[2], k[1], k[2], zero, -k[0], -k[1], k[0], zero);
    let r = Matrix3::identity() + kx * theta.sin() + kx * kx * (T::one() - theta.cos());
    r * v
}

#[cfg(test)]
mod real_tests {
    use super::*;
    use crate::check::assert_close;

    #[test]
    fn rotate_real_on_both_dual_types_matches_the_rule() {
        let (omega, v) = (Vector3::new(0.3, -0.5, 0.8), Vector3::new(1.0, 2.0, -0.5));
        let (dw, dv) = (Vector3::new(0.2, 0.1, -0.4), Vector3::new(-0.3, 0.5, 0.9));
        let d = rotate_frule(Dual::new(&omega, &dw), Dual::new(&v, &dv));
        let lift =
            |x: &Vector3<f64>, dx: &Vector3<f64>| Vector3::from_fn(|i, _| Dual::new(x[i], dx[i]));
        let f: Vec<f64> = rotate_real(&lift(&omega, &dw), &lift(&v, &dv))
            .iter()
            .map(|x| x.tangent)
            .collect();
        let nd = |x: &Vector3<f64>, dx: &Vector3<f64>| {
            Vector3::from_fn(|i, _| num_dual::Dual64::new(x[i], dx[i]))
        };
        let n: Vec<f64> = rotate_real(&nd(&omega, &dw), &nd(&v, &dv))
            .iter()
            .map(|x| x.eps)
            .collect();
        assert_close("rotate_real fwdad", &f, d.tangent.as_slice());
        assert_close("rotate_real num-dual", &n, d.tangent.as_slice());
    }
}
