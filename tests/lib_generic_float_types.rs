//! nalgebra and ndarray values over a generic float type, as library code writes them
//! (`fn kinetic<T: RealField + Copy, const N: usize>(m: &SVector<T, N>, ..)`,
//! `Isometry3<T>`, `DVector<T>`, `Array1<T>` with `T: Float + ScalarOperand`): the rule is
//! generic over `T` and instantiates to the `f64` rules. Each is checked at `T = f64` in
//! every mode against closed forms and central differences, the primal bit for bit
//! against the plain generic function; the kinetic energy also at `T = f32`.
//!
//! Run with `cargo test --features nalgebra,ndarray --test lib_generic_float_types`.

mod common;

use fwdad::prelude::*;
use nalgebra::{
    DMatrix, DVector, Isometry3, Matrix3, Point3, RealField, SVector, Translation3, UnitQuaternion,
    Vector3,
};
use ndarray::{Array1, ScalarOperand};
use num_traits::Float;

// --- a rigid body's kinetic energy ------------------------------------------------------

/// `½ Σ mᵢ vᵢ²` of point masses, any float type and dimension.
#[derive_frule]
fn kinetic<T: RealField + Copy, const N: usize>(m: &SVector<T, N>, v: &SVector<T, N>) -> T {
    m.component_mul(v).dot(v) / T::from_f64(2.0).unwrap()
}

/// A rigid body's kinetic energy, `½ ωᵀ I ω + ½ m |v|²`, in the body frame.
#[derive_frule]
fn rigid_body_energy<T: RealField + Copy>(
    inertia: &Matrix3<T>,
    omega: &Vector3<T>,
    v: &Vector3<T>,
    mass: T,
) -> T {
    let half = T::from_f64(0.5).unwrap();
    let l = inertia * omega; // angular momentum
    half * omega.dot(&l) + half * mass * v.norm_squared()
}

fn inertia() -> Matrix3<f64> {
    Matrix3::new(2.0, 0.3, -0.1, 0.3, 1.5, 0.2, -0.1, 0.2, 1.0)
}

#[derive_frule]
fn kinetic_of(p: &[f64]) -> f64 {
    let m = SVector::<f64, 3>::new(1.0, 2.5, 0.5);
    let v = SVector::<f64, 3>::new(p[0], p[1], p[2]);
    kinetic(&m, &v)
}

#[derive_frule]
fn rigid_of(p: &[f64]) -> f64 {
    let i = Matrix3::new(2.0, 0.3, -0.1, 0.3, 1.5, 0.2, -0.1, 0.2, 1.0);
    let w = Vector3::new(p[0], p[1], p[2]);
    let v = Vector3::new(p[3], p[4], p[5]);
    rigid_body_energy(&i, &w, &v, p[6])
}

#[test]
fn kinetic_energy_every_mode() {
    let p = [0.3, -0.2, 0.5];
    check_modes!(kinetic_of {}, kinetic_of, p);
    // Closed form: ∂E/∂vᵢ = mᵢ vᵢ.
    let (e, g) = gradient(kinetic_of {}, &p);
    assert_eq!(e.to_bits(), kinetic_of(&p).to_bits());
    let m = [1.0, 2.5, 0.5];
    for i in 0..3 {
        assert!((g[i] - m[i] * p[i]).abs() < 1e-15, "∂E/∂v{i}");
    }
}

#[test]
fn rigid_body_energy_closed_form() {
    let p = [0.4, -1.1, 0.7, 1.5, -0.3, 0.2, 3.0];
    check_modes!(rigid_of {}, rigid_of, p);
    let (w, v, m) = (
        Vector3::new(p[0], p[1], p[2]),
        Vector3::new(p[3], p[4], p[5]),
        p[6],
    );
    let i = inertia();
    // ∇ω E = I ω (I symmetric), ∇v E = m v, ∂E/∂m = ½ |v|²; the Hessian in (ω, v) is
    // blockdiag(I, m·1), with ∂²E/∂v∂m = v.
    let (e, g) = gradient(rigid_of {}, &p);
    assert_eq!(e.to_bits(), rigid_body_energy(&i, &w, &v, m).to_bits());
    let want_g: Vec<f64> = (i * w)
        .iter()
        .chain((v * m).iter())
        .copied()
        .chain([0.5 * v.norm_squared()])
        .collect();
    for k in 0..7 {
        assert!((g[k] - want_g[k]).abs() < 1e-14, "∂E/∂p{k}");
    }
    let (_, _, h) = hessian(rigid_of {}, &p);
    for r in 0..7 {
        for c in 0..7 {
            let want = match (r, c) {
                (0..=2, 0..=2) => i[(r, c)],
                (3..=5, 3..=5) if r == c => m,
                (3..=5, 6) => v[r - 3],
                (6, 3..=5) => v[c - 3],
                _ => 0.0,
            };
            assert!((h[(r, c)] - want).abs() < 1e-14, "∂²E/∂p{r}∂p{c}");
        }
    }
}

/// The generic rule called directly at `T = f64` and at `T = f32`: one direction.
#[test]
fn kinetic_energy_rule_at_f64_and_f32() {
    let (m, v, dv) = (
        SVector::<f64, 4>::new(1.0, 2.0, 0.5, 3.0),
        SVector::<f64, 4>::new(0.3, -0.2, 0.5, 1.25),
        SVector::<f64, 4>::new(1.0, 0.5, -2.0, 0.25),
    );
    let r = kinetic_frule(Dual::new(&m, &SVector::zeros()), Dual::new(&v, &dv));
    assert_eq!(r.primal.to_bits(), kinetic(&m, &v).to_bits());
    // dE = Σ mᵢ vᵢ dvᵢ.
    let want: f64 = (0..4).map(|i| m[i] * v[i] * dv[i]).sum();
    assert!((r.tangent - want).abs() < 1e-15);

    let (m32, v32, dv32) = (m.cast::<f32>(), v.cast::<f32>(), dv.cast::<f32>());
    let r = kinetic_frule(Dual::new(&m32, &SVector::zeros()), Dual::new(&v32, &dv32));
    assert_eq!(r.primal.to_bits(), kinetic(&m32, &v32).to_bits());
    assert!((r.tangent as f64 - want).abs() < 1e-5);
}

// --- a 2-link arm's forward kinematics --------------------------------------------------

/// A link: a revolute joint about `z` at the end of the previous link of length `l`.
#[derive_frule]
fn link<T: RealField + Copy>(l: T, q: T) -> Isometry3<T> {
    Isometry3::from_parts(
        Translation3::new(l, T::zero(), T::zero()),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), q),
    )
}

/// The tip of a planar 2-link arm with link lengths `l1`, `l2` at joint angles `q`.
#[derive_frule]
fn arm_tip<T: RealField + Copy>(q: &[T], l1: T, l2: T) -> Point3<T> {
    let base: Isometry3<T> = link(T::zero(), q[0]);
    let elbow: Isometry3<T> = link(l1, q[1]);
    let tip = Point3::new(l2, T::zero(), T::zero());
    base * elbow * tip
}

#[derive_frule]
fn arm_x(q: &[f64]) -> f64 {
    let p = arm_tip(q, 1.0, 0.7);
    p.x
}

#[derive_frule]
fn arm_y(q: &[f64]) -> f64 {
    let p = arm_tip(q, 1.0, 0.7);
    p.y
}

#[test]
fn two_link_arm_every_mode() {
    let q = [0.6, -0.9];
    check_modes!(arm_x {}, arm_x, q);
    check_modes!(arm_y {}, arm_y, q);
}

#[test]
fn two_link_arm_jacobian_closed_form() {
    let (q, l1, l2) = ([0.6, -0.9], 1.0, 0.7);
    let (tip, jac) = jacobian(bind(arm_tip {}, (Wrt, l1, l2)), &q);
    let plain = arm_tip(&q, l1, l2);
    for k in 0..3 {
        assert_eq!(tip[k].to_bits(), plain[k].to_bits(), "tip coordinate {k}");
    }
    let s1 = q[0].sin();
    let c1 = q[0].cos();
    let s12 = (q[0] + q[1]).sin();
    let c12 = (q[0] + q[1]).cos();
    assert!((plain.x - (l1 * c1 + l2 * c12)).abs() < 1e-15);
    assert!((plain.y - (l1 * s1 + l2 * s12)).abs() < 1e-15);
    let want = [
        [-l1 * s1 - l2 * s12, -l2 * s12],
        [l1 * c1 + l2 * c12, l2 * c12],
        [0.0, 0.0],
    ];
    for r in 0..3 {
        for c in 0..2 {
            assert!((jac[(r, c)] - want[r][c]).abs() < 1e-14, "J[{r}][{c}]");
        }
    }
}

/// The same arm as a type generic over its float type, its methods in a
/// `#[derive_frule] impl<T: RealField>` block.
#[derive(Clone, Copy, Debug, Differentiable)]
struct PlanarArm<T> {
    l1: T,
    l2: T,
}

#[derive_frule]
impl<T: RealField + Copy> PlanarArm<T> {
    /// The elbow's pose in the base frame, then the tip's.
    fn tip(&self, q: &[T]) -> Point3<T> {
        let z = Vector3::z_axis();
        let base = Isometry3::from_parts(
            Translation3::identity(),
            UnitQuaternion::from_axis_angle(&z, q[0]),
        );
        let elbow = Isometry3::from_parts(
            Translation3::new(self.l1, T::zero(), T::zero()),
            UnitQuaternion::from_axis_angle(&z, q[1]),
        );
        (base * elbow).transform_point(&Point3::new(self.l2, T::zero(), T::zero()))
    }

    /// The squared distance of the tip from a target.
    fn reach_error(&self, q: &[T], target: &Point3<T>) -> T {
        let p = self.tip(q);
        (p - target).norm_squared()
    }
}

#[derive_frule]
fn arm_method_error(q: &[f64]) -> f64 {
    let arm = PlanarArm { l1: 1.0, l2: 0.7 };
    arm.reach_error(q, &Point3::new(0.9, 0.8, 0.0))
}

#[test]
fn arm_methods_in_a_generic_impl() {
    let q = [0.6, -0.9];
    check_modes!(arm_method_error {}, arm_method_error, q);
    // The method's tip is the free function's, bit for bit.
    let arm = PlanarArm { l1: 1.0, l2: 0.7 };
    let (a, b) = (arm.tip(&q), arm_tip(&q, 1.0, 0.7));
    for k in 0..3 {
        assert_eq!(a[k].to_bits(), b[k].to_bits());
    }
}

// --- linear solves and constructors over `T` --------------------------------------------

/// The compliance `bᵀ K⁻¹ b` of a stiffness `K(k) = [[k0 + k1, -k1, 0], [-k1, k1 + k2, -k2],
/// [0, -k2, k2 + k0]]` under a load `b`, by Cholesky, and once more by LU.
#[derive_frule]
fn compliance<T: RealField + Copy>(k: &Vector3<T>, b: &Vector3<T>) -> T {
    let z = T::zero();
    let stiffness = Matrix3::new(
        k[0] + k[1],
        -k[1],
        z,
        -k[1],
        k[1] + k[2],
        -k[2],
        z,
        -k[2],
        k[2] + k[0],
    );
    let u = stiffness.cholesky().expect("positive definite").solve(b);
    let w = stiffness.lu().solve(b).expect("invertible");
    (b.dot(&u) + b.dot(&w)) / T::from_f64(2.0).unwrap()
}

#[derive_frule]
fn compliance_of(p: &[f64]) -> f64 {
    let k = Vector3::new(p[0], p[1], p[2]);
    let b = SVector::<f64, 3>::new(1.0, -0.5, 2.0);
    compliance(&k, &b)
}

#[test]
fn compliance_by_cholesky_and_lu() {
    let p = [2.0, 1.5, 0.8];
    check_modes!(compliance_of {}, compliance_of, p);
    // ∂(bᵀK⁻¹b)/∂kᵢ = −uᵀ (∂K/∂kᵢ) u with u = K⁻¹ b.
    let k = |p: &[f64]| {
        Matrix3::new(
            p[0] + p[1],
            -p[1],
            0.0,
            -p[1],
            p[1] + p[2],
            -p[2],
            0.0,
            -p[2],
            p[2] + p[0],
        )
    };
    let b = Vector3::new(1.0, -0.5, 2.0);
    let u = k(&p).try_inverse().unwrap() * b;
    let dk = [
        Matrix3::new(1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
        Matrix3::new(1.0, -1.0, 0.0, -1.0, 1.0, 0.0, 0.0, 0.0, 0.0),
        Matrix3::new(0.0, 0.0, 0.0, 0.0, 1.0, -1.0, 0.0, -1.0, 1.0),
    ];
    let (_, g) = gradient(compliance_of {}, &p);
    for i in 0..3 {
        let want = -u.dot(&(dk[i] * u));
        assert!((g[i] - want).abs() < 1e-13, "∂c/∂k{i}: {} vs {want}", g[i]);
    }
}

/// Constructors with the scalar written as the type parameter (`SVector::<T, 3>::new`,
/// `Matrix3::<T>::identity`), or not written (`DVector::zeros(n)`, filled by index).
#[derive_frule]
fn built<T: RealField + Copy>(x: &[T]) -> T {
    let v = SVector::<T, 3>::new(x[0], x[1], x[0] * x[1]);
    let m = Matrix3::<T>::identity() * T::from_f64(2.0).unwrap();
    let mut e = DVector::zeros(x.len());
    for i in 0..x.len() {
        e[i] = x[i].sin();
    }
    (m * v).norm() + e.sum()
}

#[derive_frule]
fn built_of(x: &[f64]) -> f64 {
    built(x)
}

#[test]
fn constructors_over_the_type_parameter() {
    let x = [1.0, 2.0];
    check_modes!(built_of {}, built_of, x);
    // |2 (x, y, xy)| + sin x + sin y: ∂/∂x = 4 (x + y·xy) / |2v| + cos x.
    let (f, g) = gradient(built_of {}, &x);
    assert_eq!(f.to_bits(), built(&x).to_bits());
    assert!((g[0] - (4.0 * (1.0 + 2.0 * 2.0) / 6.0 + 1.0f64.cos())).abs() < 1e-14);
    assert!((g[1] - (4.0 * (2.0 + 1.0 * 2.0) / 6.0 + 2.0f64.cos())).abs() < 1e-14);
}

// --- a Gauss–Newton residual on `DVector<T>` --------------------------------------------

/// `½ |A w − y|²`: the least-squares objective whose Gauss–Newton step is exact.
#[derive_frule]
fn least_squares<T: RealField + Copy>(w: &DVector<T>, a: &DMatrix<T>, y: &DVector<T>) -> T {
    let r = a * w - y;
    r.norm_squared() / T::from_f64(2.0).unwrap()
}

fn design() -> (DMatrix<f64>, DVector<f64>) {
    let a = DMatrix::from_row_slice(
        4,
        3,
        &[
            1.0, 0.5, -0.2, 0.3, 2.0, 0.1, -1.0, 0.4, 1.5, 0.7, -0.3, 0.9,
        ],
    );
    (a, DVector::from_vec(vec![1.0, -0.5, 2.0, 0.25]))
}

#[derive_frule]
fn least_squares_of(p: &[f64]) -> f64 {
    let a = DMatrix::from_row_slice(
        4,
        3,
        &[
            1.0, 0.5, -0.2, 0.3, 2.0, 0.1, -1.0, 0.4, 1.5, 0.7, -0.3, 0.9,
        ],
    );
    let y = DVector::from_vec(vec![1.0, -0.5, 2.0, 0.25]);
    let w = DVector::from_column_slice(p);
    least_squares(&w, &a, &y)
}

#[test]
fn gauss_newton_residual_closed_form() {
    let p = [0.2, -0.4, 0.9];
    check_modes!(least_squares_of {}, least_squares_of, p);
    let (a, y) = design();
    let w = DVector::from_column_slice(&p);
    // ∇ = Aᵀ (A w − y), ∇² = AᵀA.
    let (f, g) = gradient(least_squares_of {}, &p);
    assert_eq!(f.to_bits(), least_squares(&w, &a, &y).to_bits());
    let want_g = a.transpose() * (&a * &w - &y);
    let (_, _, h) = hessian(least_squares_of {}, &p);
    let want_h = a.transpose() * &a;
    for i in 0..3 {
        assert!((g[i] - want_g[i]).abs() < 1e-14, "∂f/∂w{i}");
        for j in 0..3 {
            assert!((h[(i, j)] - want_h[(i, j)]).abs() < 1e-14, "∂²f/∂w{i}∂w{j}");
        }
    }
}

// --- a generic softmax on `Array1<T>` ---------------------------------------------------

/// `softmax(z)`, shifted by the maximum for stability.
#[derive_frule]
fn softmax<T: Float + ScalarOperand>(z: &Array1<T>) -> Array1<T> {
    let m = z.fold(T::neg_infinity(), |m, &v| m.max(v));
    let e = z.mapv(|v| (v - m).exp());
    let s = e.sum();
    e / s
}

/// The cross-entropy of the softmax of `z` against the class `k`.
#[derive_frule]
fn cross_entropy<T: Float + ScalarOperand>(z: &Array1<T>, k: usize) -> T {
    let p: Array1<T> = softmax(z);
    -p[k].ln()
}

#[derive_frule]
fn cross_entropy_of(z: &[f64]) -> f64 {
    let z = Array1::from_vec(z.to_vec());
    cross_entropy(&z, 1)
}

#[test]
fn softmax_cross_entropy_closed_form() {
    let z = [0.5, -1.0, 2.0, 0.25];
    check_modes!(cross_entropy_of {}, cross_entropy_of, z);
    // ∇ = softmax(z) − e_k; ∇² = diag(p) − p pᵀ.
    let za = Array1::from_vec(z.to_vec());
    let p = softmax(&za);
    let (f, g) = gradient(cross_entropy_of {}, &z);
    assert_eq!(f.to_bits(), cross_entropy(&za, 1).to_bits());
    let (_, _, h) = hessian(cross_entropy_of {}, &z);
    for i in 0..4 {
        let want = p[i] - if i == 1 { 1.0 } else { 0.0 };
        assert!((g[i] - want).abs() < 1e-15, "∂f/∂z{i}");
        for j in 0..4 {
            let want = if i == j { p[i] } else { 0.0 } - p[i] * p[j];
            assert!((h[(i, j)] - want).abs() < 1e-15, "∂²f/∂z{i}∂z{j}");
        }
    }
}
