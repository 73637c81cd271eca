//! nalgebra's geometry types inside derived bodies (feature `nalgebra`): rotations,
//! quaternions, unit complex numbers, points, translations and isometries, as robotics
//! code writes them. Forward kinematics against finite differences and the geometric
//! Jacobian written out by hand, a pose-graph edge and an ICP cost against central
//! differences, a pinhole camera against its projection derivative by hand; primals bit
//! for bit; one direction, batched (`jacobian`, `gradient`) and second order (`hessian`).
//!
//! Run with `cargo test --features nalgebra --test lib_nalgebra_geometry`.
use fwdad::prelude::*;
use fwdad::Hyper;
use nalgebra::{
    Isometry2, Isometry3, IsometryMatrix3, Point2, Point3, Quaternion, Rotation2, Rotation3,
    Similarity3, Translation3, Unit, UnitComplex, UnitQuaternion, Vector2, Vector3, Vector4,
};

/// The brief's three-joint arm: yaw at the base, then two pitch joints.
#[derive_frule]
fn fk(q: &[f64]) -> [f64; 3] {
    let r0 = Rotation3::from_axis_angle(&Vector3::z_axis(), q[0]);
    let r1 = Rotation3::from_axis_angle(&Vector3::y_axis(), q[1]);
    let r2 = Rotation3::from_axis_angle(&Vector3::y_axis(), q[2]);
    let elbow = r0 * r1 * Vector3::new(0.4, 0.0, 0.0);
    let tip = elbow + r0 * r1 * r2 * Vector3::new(0.3, 0.0, 0.0);
    [tip.x, tip.y, tip.z]
}

/// A six-joint arm (UR5-like): each link a fixed offset, then a revolute joint about its
/// local axis; the tool point sits 5 cm along the flange's z.
#[derive_frule]
fn arm_tip(q: &[f64]) -> Point3<f64> {
    let axes = [
        Vector3::z_axis(),
        Vector3::y_axis(),
        Vector3::y_axis(),
        Vector3::z_axis(),
        Vector3::y_axis(),
        Vector3::z_axis(),
    ];
    let offsets = [
        Vector3::new(0.0, 0.0, 0.089),
        Vector3::new(0.0, 0.135, 0.0),
        Vector3::new(0.0, -0.12, 0.425),
        Vector3::new(0.0, 0.0, 0.392),
        Vector3::new(0.0, 0.093, 0.0),
        Vector3::new(0.0, 0.0, 0.095),
    ];
    let mut pose = Isometry3::identity();
    for i in 0..6 {
        let joint = Isometry3::from_parts(
            Translation3::from(offsets[i]),
            UnitQuaternion::from_axis_angle(&axes[i], q[i]),
        );
        pose *= joint;
    }
    pose.transform_point(&Point3::new(0.0, 0.0, 0.05))
}

/// The same arm's joint axes and offsets, for the hand-written geometric Jacobian.
fn arm_axes() -> [Unit<Vector3<f64>>; 6] {
    [
        Vector3::z_axis(),
        Vector3::y_axis(),
        Vector3::y_axis(),
        Vector3::z_axis(),
        Vector3::y_axis(),
        Vector3::z_axis(),
    ]
}

fn arm_offsets() -> [Vector3<f64>; 6] {
    [
        Vector3::new(0.0, 0.0, 0.089),
        Vector3::new(0.0, 0.135, 0.0),
        Vector3::new(0.0, -0.12, 0.425),
        Vector3::new(0.0, 0.0, 0.392),
        Vector3::new(0.0, 0.093, 0.0),
        Vector3::new(0.0, 0.0, 0.095),
    ]
}

/// A planar three-link arm with `Isometry2` poses: the tool position and heading.
#[derive_frule]
fn planar_arm(q: &[f64], links: &[f64]) -> [f64; 3] {
    let mut pose = Isometry2::identity();
    for i in 0..3 {
        let joint = Isometry2::new(Vector2::new(0.0, 0.0), q[i]);
        let link = Isometry2::translation(links[i], 0.0);
        pose = pose * joint * link;
    }
    let tip: Point2<f64> = pose * Point2::origin();
    [tip.x, tip.y, pose.rotation.angle()]
}

/// The same arm with `Rotation2` and `UnitComplex` (rotations composed, vectors rotated).
#[derive_frule]
fn planar_arm_rotations(q: &[f64], links: &[f64]) -> [f64; 3] {
    let r0 = Rotation2::new(q[0]);
    let r1 = r0 * Rotation2::new(q[1]);
    let z2 = UnitComplex::new(r1.angle()) * UnitComplex::new(q[2]);
    let p = r0 * Vector2::new(links[0], 0.0)
        + r1 * Vector2::new(links[1], 0.0)
        + z2 * Vector2::new(links[2], 0.0);
    [p.x, p.y, z2.angle()]
}

/// A pose-graph edge: poses `x = (tᵢ, θᵢ, tⱼ, θⱼ)` as translations and rotation vectors,
/// the measured relative pose `z`, and the information weight. The error is the tangent
/// of `z⁻¹ Tᵢ⁻¹ Tⱼ`: its translation and the rotation vector of its rotation.
#[derive_frule]
fn pose_graph_edge(x: &[f64], z: &Isometry3<f64>, info: f64) -> f64 {
    let ti = Isometry3::new(
        Vector3::new(x[0], x[1], x[2]),
        Vector3::new(x[3], x[4], x[5]),
    );
    let tj = Isometry3::new(
        Vector3::new(x[6], x[7], x[8]),
        Vector3::new(x[9], x[10], x[11]),
    );
    let e = z.inverse() * ti.inverse() * tj;
    let dt = e.translation.vector;
    let dr = e.rotation.scaled_axis();
    0.5 * info * (dt.norm_squared() + dr.norm_squared())
}

/// An orientation residual with quaternions: the first pose's orientation from four raw
/// components (normalised), the second from a rotation vector; the error rotation
/// against the measurement `qm`, as Euler angles, plus the geodesic distance of a slerp
/// halfway to a reference.
#[derive_frule]
fn orientation_residual(x: &[f64], qm: &UnitQuaternion<f64>) -> f64 {
    let qi = UnitQuaternion::from_quaternion(Quaternion::new(x[0], x[1], x[2], x[3]));
    let qj = UnitQuaternion::from_scaled_axis(Vector3::new(x[4], x[5], x[6]));
    let err = qm.inverse() * qi.inverse() * qj;
    let (roll, pitch, yaw) = err.euler_angles();
    let mid = qi.slerp(&qj, 0.3);
    roll * roll + pitch * pitch + yaw * yaw + mid.angle_to(qm) + 0.1 * mid.angle()
}

/// Point-to-point ICP: the summed squared distance of the transformed source points to
/// their matches, for a pose given as translation and rotation vector.
#[derive_frule]
fn icp_cost(x: &[f64], src: &[Point3<f64>], dst: &[Point3<f64>]) -> f64 {
    let t = Isometry3::new(
        Vector3::new(x[0], x[1], x[2]),
        Vector3::new(x[3], x[4], x[5]),
    );
    let mut cost = 0.0;
    for (s, d) in src.iter().zip(dst) {
        let r = t * s - d;
        cost += r.norm_squared();
    }
    cost
}

/// A pinhole camera: the pixel of a world point seen from a camera at pose `cam`
/// (camera to world), focal length `f` and principal point `c`.
#[derive_frule]
fn project(cam: &Isometry3<f64>, p_world: &Point3<f64>, f: f64, c: &[f64]) -> [f64; 2] {
    let p = cam.inverse_transform_point(p_world);
    [f * p.x / p.z + c[0], f * p.y / p.z + c[1]]
}

/// The same camera with its pose built from parameters `(t, rotation vector)` and the
/// point's coordinates taken from `coords`, the way a bundle adjuster writes it; the
/// homogeneous matrix route (`to_homogeneous`) for the same transform.
#[derive_frule]
fn project_params(x: &[f64], f: f64) -> [f64; 4] {
    let cam = Isometry3::new(
        Vector3::new(x[0], x[1], x[2]),
        Vector3::new(x[3], x[4], x[5]),
    );
    let pw = Point3::new(x[6], x[7], x[8]);
    let pc = cam.inverse() * pw;
    let m = cam.inverse().to_homogeneous();
    let h = m * Vector4::new(pw.x, pw.y, pw.z, 1.0);
    let v = pc.coords;
    [f * v.x / v.z, f * v.y / v.z, h.x - pc.x, h.z / h.w - pc.z]
}

/// A gripper axis from a raw direction (`Unit::new_normalize`), rotated about it.
#[derive_frule]
fn rotate_about(x: &[f64], v: &Vector3<f64>) -> Vector3<f64> {
    let axis = Unit::new_normalize(Vector3::new(x[0], x[1], x[2]));
    let r = UnitQuaternion::from_axis_angle(&axis, x[3]);
    r * v
}

/// A vector rotated by an orientation parameter.
#[derive_frule]
fn rotate(q: &UnitQuaternion<f64>, v: &Vector3<f64>) -> Vector3<f64> {
    q * v
}

/// Attitude integration over one step: the orientation returned.
#[derive_frule]
fn integrate(q: &UnitQuaternion<f64>, w: &[f64], dt: f64) -> UnitQuaternion<f64> {
    q * UnitQuaternion::from_scaled_axis(Vector3::new(w[0], w[1], w[2]) * dt)
}

/// A point moved by a pose parameter, returned as a point.
#[derive_frule]
fn move_point(t: &Isometry3<f64>, p: &Point3<f64>) -> Point3<f64> {
    t * p
}

/// Central difference of `f` along `v` at `x`.
fn central(f: &dyn Fn(&[f64]) -> f64, x: &[f64], v: &[f64], h: f64) -> f64 {
    let at = |s: f64| -> Vec<f64> { x.iter().zip(v).map(|(a, b)| a + s * b).collect() };
    (f(&at(h)) - f(&at(-h))) / (2.0 * h)
}

/// ∂²f/∂xᵢ∂xⱼ by the four-point stencil on the plain function.
fn second_difference(f: &dyn Fn(&[f64]) -> f64, x: &[f64], i: usize, j: usize, h: f64) -> f64 {
    let at = |a: f64, b: f64| {
        let mut y = x.to_vec();
        y[i] += a;
        y[j] += b;
        f(&y)
    };
    (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4.0 * h * h)
}

fn unit(n: usize, j: usize) -> Vec<f64> {
    (0..n).map(|i| f64::from(u8::from(i == j))).collect()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

/// Checks a Jacobian (`jac[(i, j)]`) against central differences of output `i` of `f`.
fn check_jacobian(jac: &fwdad::Matrix, f: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64], tol: f64) {
    for j in 0..x.len() {
        let e = unit(x.len(), j);
        for i in 0..jac.nrows() {
            let fd = central(&|y| f(y)[i], x, &e, 1e-6);
            assert!(
                close(jac[(i, j)], fd, tol),
                "J[{i},{j}] = {} vs {fd}",
                jac[(i, j)]
            );
        }
    }
}

#[test]
fn three_joint_arm_jacobian_matches_finite_differences_and_the_geometric_jacobian() {
    let q = [0.3, -0.4, 0.9];
    let (y, jac) = fwdad::jacobian(fk {}, &q);
    assert_eq!(y, fk(&q));
    check_jacobian(&jac, &|q| fk(q).to_vec(), &q, 1e-8);
    // Geometric Jacobian: joint i turns about zᵢ through oᵢ (all at the base here, as the
    // elbow's offset comes after its joint), so column i is zᵢ × (p − oᵢ) with oᵢ = 0.
    let r0 = Rotation3::from_axis_angle(&Vector3::z_axis(), q[0]);
    let r01 = r0 * Rotation3::from_axis_angle(&Vector3::y_axis(), q[1]);
    let z = [Vector3::z(), r0 * Vector3::y(), r01 * Vector3::y()];
    let p = Vector3::new(y[0], y[1], y[2]);
    let elbow = r01 * Vector3::new(0.4, 0.0, 0.0);
    let origins = [Vector3::zeros(), Vector3::zeros(), elbow];
    for i in 0..3 {
        let col = z[i].cross(&(p - origins[i]));
        for r in 0..3 {
            assert!(close(jac[(r, i)], col[r], 1e-13), "J[{r},{i}]");
        }
    }
}

#[test]
fn six_joint_arm_jacobian_matches_the_geometric_jacobian() {
    let q = [0.2, -0.7, 1.1, 0.4, -0.9, 0.6];
    let (y, jac) = fwdad::jacobian(arm_tip {}, &q);
    let tip = arm_tip(&q);
    assert_eq!(y, [tip.x, tip.y, tip.z]);
    check_jacobian(&jac, &|q| arm_tip(q).coords.as_slice().to_vec(), &q, 1e-8);
    // By hand: before joint i the frame is Tᵢ₋₁ · offsetᵢ; its origin oᵢ and its joint
    // axis zᵢ = Rᵢ₋₁ aᵢ give column i = zᵢ × (p − oᵢ).
    let (axes, offsets) = (arm_axes(), arm_offsets());
    let mut rot = Rotation3::identity();
    let mut origin = Vector3::zeros();
    let mut cols = Vec::new();
    for i in 0..6 {
        origin += rot * offsets[i];
        cols.push((rot * axes[i].into_inner(), origin));
        rot *= Rotation3::from_axis_angle(&axes[i], q[i]);
    }
    for (i, (z, o)) in cols.iter().enumerate() {
        let col = z.cross(&(tip.coords - o));
        for r in 0..3 {
            assert!(
                close(jac[(r, i)], col[r], 1e-12),
                "J[{r},{i}] = {} vs {}",
                jac[(r, i)],
                col[r]
            );
        }
    }
    // One direction through the rule, returning a point: its tangent is J · dq.
    let dq = [0.3, -0.1, 0.5, 0.2, -0.4, 0.7];
    let d = arm_tip_frule(Dual::new(&q[..], &dq[..]));
    assert_eq!(d.primal, tip);
    for r in 0..3 {
        let jdq: f64 = (0..6).map(|c| jac[(r, c)] * dq[c]).sum();
        assert!(close(d.tangent[r], jdq, 1e-13));
    }
}

#[test]
fn planar_arm_with_isometry2_rotation2_and_unit_complex() {
    let q = [0.5, -1.2, 0.8];
    let links = [1.0, 0.7, 0.4];
    let (y, jac) = fwdad::jacobian(bind(planar_arm {}, (Wrt, &links[..])), &q);
    assert_eq!(y, planar_arm(&q, &links));
    let (y2, jac2) = fwdad::jacobian(bind(planar_arm_rotations {}, (Wrt, &links[..])), &q);
    assert_eq!(y2, planar_arm_rotations(&q, &links));
    // By hand: x = Σ lₖ cos(θₖ), y = Σ lₖ sin(θₖ) with θₖ = q₀ + .. + qₖ; the heading θ₂.
    let theta = [q[0], q[0] + q[1], q[0] + q[1] + q[2]];
    for j in 0..3 {
        let dx: f64 = (j..3).map(|k| -links[k] * theta[k].sin()).sum();
        let dy: f64 = (j..3).map(|k| links[k] * theta[k].cos()).sum();
        for jac in [&jac, &jac2] {
            assert!(close(jac[(0, j)], dx, 1e-14), "dx/dq{j}");
            assert!(close(jac[(1, j)], dy, 1e-14), "dy/dq{j}");
            assert!(close(jac[(2, j)], 1.0, 1e-14), "dθ/dq{j}");
        }
    }
    assert!(close(y[0], y2[0], 1e-14) && close(y[1], y2[1], 1e-14));
}

fn edge_state() -> (Vec<f64>, Isometry3<f64>) {
    let x = vec![
        0.1, -0.2, 0.3, 0.05, -0.1, 0.2, //
        1.1, 0.3, 0.2, 0.15, 0.2, -0.3,
    ];
    let z = Isometry3::new(Vector3::new(0.9, 0.4, -0.1), Vector3::new(0.1, 0.25, -0.4));
    (x, z)
}

#[test]
fn pose_graph_edge_gradient_matches_central_differences() {
    let (x, z) = edge_state();
    let (e, g) = fwdad::gradient(bind(pose_graph_edge {}, (Wrt, &z, 2.0)), &x);
    assert_eq!(e, pose_graph_edge(&x, &z, 2.0));
    assert!(e > 1e-2, "a residual that is not zero: {e}");
    for (j, gj) in g.iter().enumerate() {
        let fd = central(&|y| pose_graph_edge(y, &z, 2.0), &x, &unit(12, j), 1e-6);
        assert!(close(*gj, fd, 1e-8), "∂e/∂x{j} = {gj} vs {fd}");
    }
    // The measured pose differentiated, its translation moving along dz (tangent
    // coordinates: the quaternion's four, then the translation's three).
    let dz = Vector3::new(0.3, -0.2, 0.1);
    let tangent_z = SVectorOf7::from_fn(|k, _| if k >= 4 { dz[k - 4] } else { 0.0 });
    let zero = [0.0; 12];
    let d = pose_graph_edge_frule(
        Dual::new(&x[..], &zero[..]),
        Dual::new(&z, &tangent_z),
        Dual::new(2.0, 0.0),
    );
    assert_eq!(d.primal, e);
    let h = 1e-6;
    let shift = |s: f64| Isometry3::from_parts((z.translation.vector + s * dz).into(), z.rotation);
    let fd =
        (pose_graph_edge(&x, &shift(h), 2.0) - pose_graph_edge(&x, &shift(-h), 2.0)) / (2.0 * h);
    assert!(close(d.tangent, fd, 1e-8), "{} vs {fd}", d.tangent);
}

type SVectorOf7 = nalgebra::SVector<f64, 7>;

#[test]
fn pose_graph_edge_hessian_matches_second_differences() {
    let (x, z) = edge_state();
    let (e, g, hess) = fwdad::hessian(bind(pose_graph_edge {}, (Wrt, &z, 2.0)), &x);
    assert_eq!(e, pose_graph_edge(&x, &z, 2.0));
    let f = |y: &[f64]| pose_graph_edge(y, &z, 2.0);
    let h = 1e-4;
    for i in 0..12 {
        assert!(close(g[i], central(&f, &x, &unit(12, i), 1e-6), 1e-8));
        for j in 0..12 {
            // ∂²f/∂xᵢ∂xⱼ by the four-point stencil on the plain function.
            let fd = second_difference(&f, &x, i, j, h);
            assert!(
                close(hess[(i, j)], fd, 1e-5),
                "H[{i},{j}] = {} vs {fd}",
                hess[(i, j)]
            );
        }
    }
}

#[test]
fn orientation_residual_gradient_matches_central_differences() {
    let x = [0.9, 0.1, -0.3, 0.2, 0.3, -0.2, 0.5];
    let qm = UnitQuaternion::from_euler_angles(0.2, -0.1, 0.4);
    let (r, g) = fwdad::gradient(bind(orientation_residual {}, (Wrt, &qm)), &x);
    assert_eq!(r, orientation_residual(&x, &qm));
    for (j, gj) in g.iter().enumerate() {
        let fd = central(&|y| orientation_residual(y, &qm), &x, &unit(7, j), 1e-6);
        assert!(close(*gj, fd, 1e-8), "∂r/∂x{j} = {gj} vs {fd}");
    }
    // The raw quaternion is normalised: scaling it changes nothing.
    let radial: f64 = (0..4).map(|k| g[k] * x[k]).sum();
    assert!(radial.abs() < 1e-12, "{radial}");
}

fn scan() -> (Vec<Point3<f64>>, Vec<Point3<f64>>) {
    let src: Vec<Point3<f64>> = (0..8)
        .map(|k| {
            let t = k as f64;
            Point3::new(t.cos(), (0.7 * t).sin(), 0.1 * t - 0.3)
        })
        .collect();
    let truth = Isometry3::new(Vector3::new(0.2, -0.1, 0.05), Vector3::new(0.05, -0.1, 0.2));
    // Matches with a little noise.
    let dst = src
        .iter()
        .enumerate()
        .map(|(k, p)| truth * p + Vector3::new(0.01, -0.02, 0.015) * (k as f64 - 3.5))
        .collect();
    (src, dst)
}

#[test]
fn icp_cost_gradient_and_hessian() {
    let (src, dst) = scan();
    let x = [0.1, 0.0, 0.02, 0.0, -0.05, 0.1];
    let (c, g) = fwdad::gradient(bind(icp_cost {}, (Wrt, &src[..], &dst[..])), &x);
    assert_eq!(c, icp_cost(&x, &src, &dst));
    let f = |y: &[f64]| icp_cost(y, &src, &dst);
    for (j, gj) in g.iter().enumerate() {
        let fd = central(&f, &x, &unit(6, j), 1e-6);
        assert!(close(*gj, fd, 1e-8), "∂c/∂x{j} = {gj} vs {fd}");
    }
    // The translation block of the gradient by hand: 2 Σ (T sₖ − dₖ).
    let t = Isometry3::new(
        Vector3::new(x[0], x[1], x[2]),
        Vector3::new(x[3], x[4], x[5]),
    );
    let sum: Vector3<f64> = src.iter().zip(&dst).map(|(s, d)| 2.0 * (t * s - d)).sum();
    for k in 0..3 {
        assert!(close(g[k], sum[k], 1e-13));
    }
    // Second order: the translation block of the Hessian is 2n I; the rest against
    // differences of the plain function.
    let (_, _, hess) = fwdad::hessian(bind(icp_cost {}, (Wrt, &src[..], &dst[..])), &x);
    let h = 1e-4;
    for i in 0..6 {
        for j in 0..6 {
            if i < 3 && j < 3 {
                let exact = if i == j { 2.0 * src.len() as f64 } else { 0.0 };
                assert!(close(hess[(i, j)], exact, 1e-13), "H[{i},{j}]");
            }
            let fd = second_difference(&f, &x, i, j, h);
            assert!(
                close(hess[(i, j)], fd, 1e-5),
                "H[{i},{j}] = {} vs {fd}",
                hess[(i, j)]
            );
        }
    }
}

#[test]
fn camera_projection_derivatives_by_hand() {
    let cam = Isometry3::new(
        Vector3::new(0.1, -0.2, -2.0),
        Vector3::new(0.05, 0.1, -0.02),
    );
    let p = Point3::new(0.3, 0.4, 1.5);
    let (f, c) = (500.0, [320.0, 240.0]);
    let uv = project(&cam, &p, f, &c);
    // Along the world point: the camera-frame point moves by Rᵀ dp, and
    // du = f (dx/z − x dz/z²), dv = f (dy/z − y dz/z²).
    let dp = Vector3::new(0.2, -0.3, 0.5);
    let zero7 = SVectorOf7::zeros();
    let d = project_frule(
        Dual::new(&cam, &zero7),
        Dual::new(&p, &dp),
        Dual::new(f, 0.0),
        Dual::new(&c[..], &[0.0, 0.0][..]),
    );
    assert_eq!(d.primal, uv);
    let pc = cam.inverse_transform_point(&p);
    let dpc = cam.rotation.inverse() * dp;
    let du = f * (dpc.x / pc.z - pc.x * dpc.z / (pc.z * pc.z));
    let dv = f * (dpc.y / pc.z - pc.y * dpc.z / (pc.z * pc.z));
    assert!(close(d.tangent[0], du, 1e-13), "{} vs {du}", d.tangent[0]);
    assert!(close(d.tangent[1], dv, 1e-13), "{} vs {dv}", d.tangent[1]);
    // Along the camera pose, with a tangent to the group: the camera moving along its own
    // optical axis by dt (translation tangent R e_z dt, rotation fixed) brings the point
    // nearer: the camera-frame point moves by −e_z dt.
    let ez = cam.rotation * Vector3::z();
    let tangent_cam = SVectorOf7::from_fn(|k, _| if k >= 4 { ez[k - 4] } else { 0.0 });
    let d = project_frule(
        Dual::new(&cam, &tangent_cam),
        Dual::new(&p, &Vector3::zeros()),
        Dual::new(f, 0.0),
        Dual::new(&c[..], &[0.0, 0.0][..]),
    );
    let (du, dv) = (f * pc.x / (pc.z * pc.z), f * pc.y / (pc.z * pc.z));
    assert!(close(d.tangent[0], du, 1e-13), "{} vs {du}", d.tangent[0]);
    assert!(close(d.tangent[1], dv, 1e-13), "{} vs {dv}", d.tangent[1]);
}

#[test]
fn camera_projection_jacobian_in_batches_and_the_homogeneous_route() {
    let x = [0.1, -0.2, -2.0, 0.05, 0.1, -0.02, 0.3, 0.4, 1.5];
    let (y, jac) = fwdad::jacobian(bind(project_params {}, (Wrt, 500.0)), &x);
    assert_eq!(y, project_params(&x, 500.0));
    check_jacobian(&jac, &|x| project_params(x, 500.0).to_vec(), &x, 1e-7);
    // The homogeneous matrix and the isometry move the point the same way: the two last
    // outputs, differences of the two routes, stay near zero with near-zero derivatives.
    for j in 0..9 {
        assert!(jac[(2, j)].abs() < 1e-12 && jac[(3, j)].abs() < 1e-12);
    }
    // The pixel's derivative along the world point, by hand through the camera's inverse.
    let cam = Isometry3::new(
        Vector3::new(x[0], x[1], x[2]),
        Vector3::new(x[3], x[4], x[5]),
    );
    let pc = cam.inverse() * Point3::new(x[6], x[7], x[8]);
    let rt = cam.rotation.inverse().to_rotation_matrix();
    for j in 0..3 {
        let dpc = rt.matrix().column(j);
        let du = 500.0 * (dpc.x / pc.z - pc.x * dpc.z / (pc.z * pc.z));
        assert!(close(jac[(0, 6 + j)], du, 1e-12), "du/dp{j}");
    }
}

#[test]
fn rotation_about_a_normalised_axis() {
    let x = [0.3, -0.5, 0.8, 0.7];
    let v = Vector3::new(1.0, 0.2, -0.4);
    let (y, jac) = fwdad::jacobian(bind(rotate_about {}, (Wrt, &v)), &x);
    let r = rotate_about(&x, &v);
    assert_eq!(y, [r.x, r.y, r.z]);
    check_jacobian(&jac, &|x| rotate_about(x, &v).as_slice().to_vec(), &x, 1e-8);
    // Along the angle: d/dθ (R v) = n × (R v).
    let n = Vector3::new(x[0], x[1], x[2]).normalize();
    let col = n.cross(&r);
    for k in 0..3 {
        assert!(close(jac[(k, 3)], col[k], 1e-13));
    }
}

#[test]
fn orientation_parameter_with_a_tangent_along_the_group() {
    // dq = q ⊗ (ω/2, 0): the orientation turning at body rate ω; then d(q v) = R (ω × v).
    let q = UnitQuaternion::from_euler_angles(0.3, -0.6, 1.2);
    let v = Vector3::new(0.4, -1.0, 0.25);
    let w = Vector3::new(0.7, 0.1, -0.5);
    let dq = q.into_inner() * Quaternion::from_imag(w / 2.0);
    let d = rotate_frule(Dual::new(&q, &dq.coords), Dual::new(&v, &Vector3::zeros()));
    assert_eq!(d.primal, q * v);
    let expected = q * w.cross(&v);
    for k in 0..3 {
        assert!(close(d.tangent[k], expected[k], 1e-14));
    }
    // Batched: two directions, the rate and the vector.
    let seeds_q = dq.coords.map(|t| Batch([t, 0.0]));
    let seeds_v = Vector3::new(Batch([0.0, 1.0]), Batch([0.0, 0.0]), Batch([0.0, 0.0]));
    let b = <rotate as Frule<_, Batch<f64, 2>>>::frule(
        &rotate {},
        (Dual::new(&q, &seeds_q), Dual::new(&v, &seeds_v)),
    );
    let ex = q * Vector3::x();
    for k in 0..3 {
        assert!(close(b.tangent[k].0[0], expected[k], 1e-14));
        assert!(close(b.tangent[k].0[1], ex[k], 1e-14));
    }
    // Second order along ω twice: d²(q v) = R (ω × (ω × v)) (dq's own derivative,
    // q ⊗ (ω/2)² ... taken as the seed's d12 = q ⊗ (ω/2) ⊗ (ω/2)).
    let ddq = q.into_inner() * Quaternion::from_imag(w / 2.0) * Quaternion::from_imag(w / 2.0);
    let seed = nalgebra::SVector::<Hyper<f64, f64>, 4>::from_fn(|k, _| Hyper {
        d1: dq.coords[k],
        d2: dq.coords[k],
        d12: ddq.coords[k],
    });
    let hz = Hyper {
        d1: 0.0,
        d2: 0.0,
        d12: 0.0,
    };
    let out = <rotate as Frule<_, Hyper<f64, f64>>>::frule(
        &rotate {},
        (
            Dual::new(&q, &seed),
            Dual::new(&v, &Vector3::from_element(hz)),
        ),
    );
    let second = q * w.cross(&w.cross(&v));
    for k in 0..3 {
        assert!(close(out.tangent[k].d1, expected[k], 1e-14));
        assert!(close(out.tangent[k].d12, second[k], 1e-13), "{k}");
    }
}

#[test]
fn returned_orientation_and_point() {
    let q = UnitQuaternion::from_euler_angles(0.1, 0.2, -0.3);
    let w = [0.4, -0.2, 0.9];
    let dw = [1.0, 0.5, -0.25];
    let dt = 0.1;
    let d = integrate_frule(
        Dual::new(&q, &Vector4::zeros()),
        Dual::new(&w[..], &dw[..]),
        Dual::new(dt, 0.0),
    );
    assert_eq!(d.primal, integrate(&q, &w, dt));
    let h = 1e-6;
    let at = |s: f64| {
        let ws: Vec<f64> = w.iter().zip(&dw).map(|(a, b)| a + s * b).collect();
        integrate(&q, &ws, dt).into_inner().coords
    };
    let fd = (at(h) - at(-h)) / (2.0 * h);
    for k in 0..4 {
        assert!(close(d.tangent[k], fd[k], 1e-8), "{k}");
    }
    // The result stays unit: its tangent is orthogonal to it.
    assert!(d.tangent.dot(&d.primal.coords).abs() < 1e-15);

    let t = Isometry3::new(Vector3::new(1.0, 2.0, 3.0), Vector3::new(0.3, 0.0, -0.2));
    let p = Point3::new(0.5, -0.5, 1.0);
    let dp = Vector3::new(0.1, 0.2, 0.3);
    let d = move_point_frule(Dual::new(&t, &SVectorOf7::zeros()), Dual::new(&p, &dp));
    assert_eq!(d.primal, t * p);
    let expected = t.rotation * dp;
    for k in 0..3 {
        assert!(close(d.tangent[k], expected[k], 1e-15));
    }
}

/// A scaled model placed in the world (`Similarity3`), seen through a pose given as a
/// rotation matrix (`IsometryMatrix3`).
#[derive_frule]
fn placed_model(x: &[f64], p: &Point3<f64>) -> Point3<f64> {
    let model = Similarity3::new(
        Vector3::new(x[0], x[1], 0.0),
        Vector3::new(0.0, 0.0, x[2]),
        x[3],
    );
    let view = IsometryMatrix3::new(Vector3::new(0.0, 0.0, x[4]), Vector3::new(x[5], 0.0, 0.0));
    view * (model * p)
}

#[test]
fn similarity_and_rotation_matrix_isometry() {
    let x = [0.3, -0.2, 0.7, 1.5, -2.0, 0.4];
    let p = Point3::new(0.2, 0.5, -0.1);
    let (y, jac) = fwdad::jacobian(bind(placed_model {}, (Wrt, &p)), &x);
    let q = placed_model(&x, &p);
    assert_eq!(y, [q.x, q.y, q.z]);
    check_jacobian(
        &jac,
        &|x| placed_model(x, &p).coords.as_slice().to_vec(),
        &x,
        1e-8,
    );
    // Along the scaling: d(V (t + s R p))/ds = V's rotation applied to R p.
    let model_rot = UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 0.0, x[2]));
    let view_rot = Rotation3::from_scaled_axis(Vector3::new(x[5], 0.0, 0.0));
    let col = view_rot * (model_rot * p.coords);
    for k in 0..3 {
        assert!(close(jac[(k, 3)], col[k], 1e-14));
    }
}

/// The height of a point above a tilted plane (the plane's pose: its origin and its
/// normal as the local z).
#[derive_frule]
fn height_above(p: &Point3<f64>, plane: &Isometry3<f64>) -> f64 {
    plane.inverse_transform_point(p).z
}

#[test]
fn a_point_parameter_differentiated_by_the_drivers() {
    let plane = Isometry3::new(Vector3::new(0.0, 0.0, 1.0), Vector3::new(0.3, -0.2, 0.1));
    let p = Point3::new(0.5, 0.2, 2.0);
    let (h, g) = fwdad::gradient(bind(height_above {}, (Wrt, &plane)), p.coords.as_slice());
    assert_eq!(h, height_above(&p, &plane));
    // The gradient of the height is the plane's normal.
    let n = plane.rotation * Vector3::z();
    for k in 0..3 {
        assert!(close(g[k], n[k], 1e-15), "{} vs {}", g[k], n[k]);
    }
    let (_, g2) = fwdad::na::gradient(bind(height_above {}, (Wrt, &plane)), &p.coords);
    assert_eq!(g2.as_slice(), &g[..]);
}

/// docs/libraries.md's example.
#[derive_frule]
fn docs_arm_tip(q: &[f64]) -> Point3<f64> {
    let axes = [Vector3::z_axis(), Vector3::y_axis(), Vector3::y_axis()];
    let offsets = [
        Vector3::new(0.0, 0.0, 0.1),
        Vector3::new(0.0, 0.0, 0.4),
        Vector3::new(0.3, 0.0, 0.0),
    ];
    let mut pose = Isometry3::identity();
    for i in 0..3 {
        pose *= Isometry3::from_parts(
            Translation3::from(offsets[i]),
            UnitQuaternion::from_axis_angle(&axes[i], q[i]),
        );
    }
    pose.transform_point(&Point3::new(0.0, 0.0, 0.05))
}

#[test]
fn the_documented_arm() {
    let q = [0.4, 0.3, -0.8];
    let (tip, jac) = fwdad::jacobian(docs_arm_tip {}, &q);
    let p = docs_arm_tip(&q);
    assert_eq!(tip, [p.x, p.y, p.z]);
    check_jacobian(
        &jac,
        &|q| docs_arm_tip(q).coords.as_slice().to_vec(),
        &q,
        1e-8,
    );
}

/// The area of a triangle of three points held in a local array, plus the distance of
/// its centroid from the first vertex.
#[derive_frule]
fn triangle(x: &[f64]) -> f64 {
    let pts = [
        Point3::new(x[0], x[1], x[2]),
        Point3::new(x[3], x[4], x[5]),
        Point3::new(x[6], x[7], x[8]),
    ];
    let mut centroid = Vector3::zeros();
    for p in &pts {
        centroid += p.coords / 3.0;
    }
    let area = 0.5 * (pts[1] - pts[0]).cross(&(pts[2] - pts[0])).norm();
    area + (centroid - pts[0].coords).norm()
}

/// An orientation read several ways: its rotation axis, the inverse of its rotation
/// matrix (typed, as `r[(i, j)]` needs), its components.
#[derive_frule]
fn orientation_readouts(x: &[f64]) -> f64 {
    let q = UnitQuaternion::from_euler_angles(x[0], x[1], x[2]);
    let axis = q.axis().unwrap();
    let r = q.to_rotation_matrix();
    let inv: Rotation3<f64> = r.inverse();
    axis.x + inv[(0, 1)] + q.w * q.i + q.euler_angles().2 + axis.y.sin() + axis.z.atan2(axis.x)
}

#[test]
fn points_in_a_local_array_and_orientation_readouts() {
    let x = [0.1, 0.2, 0.0, 1.0, -0.3, 0.4, 0.2, 0.9, -0.5];
    let (a, g) = fwdad::gradient(triangle {}, &x);
    assert_eq!(a, triangle(&x));
    for (j, gj) in g.iter().enumerate() {
        let fd = central(&|y| triangle(y), &x, &unit(9, j), 1e-6);
        assert!(close(*gj, fd, 1e-8), "∂a/∂x{j} = {gj} vs {fd}");
    }
    let x = [0.3, -0.2, 0.6];
    let (r, g) = fwdad::gradient(orientation_readouts {}, &x);
    assert_eq!(r, orientation_readouts(&x));
    for (j, gj) in g.iter().enumerate() {
        let fd = central(&|y| orientation_readouts(y), &x, &unit(3, j), 1e-6);
        assert!(close(*gj, fd, 1e-8), "∂r/∂x{j} = {gj} vs {fd}");
    }
    // Second order against the four-point stencil on the plain function.
    let (_, _, hess) = fwdad::hessian(orientation_readouts {}, &x);
    let h = 1e-4;
    for i in 0..3 {
        for j in 0..3 {
            let fd = second_difference(&|y| orientation_readouts(y), &x, i, j, h);
            assert!(
                close(hess[(i, j)], fd, 1e-5),
                "H[{i},{j}] = {} vs {fd}",
                hess[(i, j)]
            );
        }
    }
}

/// A whole pose graph: poses as `(t, rotation vector)` blocks of `x`, edges as index pairs
/// with their measured relative pose.
#[derive_frule]
fn pose_graph(x: &[f64], edges: &[(usize, usize, Isometry3<f64>)]) -> f64 {
    let mut cost = 0.0;
    for (i, j, z) in edges {
        let a = &x[6 * i..6 * i + 6];
        let b = &x[6 * j..6 * j + 6];
        let ti = Isometry3::new(
            Vector3::new(a[0], a[1], a[2]),
            Vector3::new(a[3], a[4], a[5]),
        );
        let tj = Isometry3::new(
            Vector3::new(b[0], b[1], b[2]),
            Vector3::new(b[3], b[4], b[5]),
        );
        // The macro sees no type in the tuple pattern: name the measurement's.
        let z: &Isometry3<f64> = z;
        let e = z.inverse() * (ti.inverse() * tj);
        cost += e.translation.vector.norm_squared() + e.rotation.scaled_axis().norm_squared();
    }
    cost
}

#[test]
fn pose_graph_gradient_matches_central_differences() {
    let x: Vec<f64> = (0..18).map(|k| 0.3 * (k as f64 * 0.7).sin()).collect();
    let edges = [
        (
            0,
            1,
            Isometry3::new(Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.0, 0.0, 0.3)),
        ),
        (
            1,
            2,
            Isometry3::new(Vector3::new(0.8, 0.2, 0.0), Vector3::new(0.1, 0.0, 0.2)),
        ),
        (
            2,
            0,
            Isometry3::new(Vector3::new(-1.7, -0.3, 0.1), Vector3::new(0.0, 0.1, -0.5)),
        ),
    ];
    let (c, g) = fwdad::gradient(bind(pose_graph {}, (Wrt, &edges[..])), &x);
    assert_eq!(c, pose_graph(&x, &edges));
    for (j, gj) in g.iter().enumerate() {
        let fd = central(&|y| pose_graph(y, &edges), &x, &unit(18, j), 1e-6);
        assert!(close(*gj, fd, 1e-8), "∂c/∂x{j} = {gj} vs {fd}");
    }
}

/// A calibrated camera of your own, holding its pose.
#[derive(Clone, Copy, Differentiable)]
struct Camera {
    pose: Isometry3<f64>,
    focal: f64,
}

/// The horizontal pixel offset of a world point (the pose read through a typed `let`, as
/// a field of your type needs).
#[derive_frule]
fn pixel_x(cam: &Camera, p: &Point3<f64>) -> f64 {
    let pose: &Isometry3<f64> = &cam.pose;
    let pc = pose.inverse_transform_point(p);
    cam.focal * pc.x / pc.z
}

#[test]
fn a_camera_struct_holding_its_pose() {
    let cam = Camera {
        pose: Isometry3::new(Vector3::new(0.2, 0.1, -1.5), Vector3::new(0.0, 0.2, 0.05)),
        focal: 400.0,
    };
    let p = Point3::new(0.3, -0.2, 2.0);
    // Along the focal length alone: the normalised coordinate x/z.
    let dcam = CameraTangent {
        pose: SVectorOf7::zeros(),
        focal: 1.0,
    };
    let d = pixel_x_frule(Dual::new(&cam, &dcam), Dual::new(&p, &Vector3::zeros()));
    assert_eq!(d.primal, pixel_x(&cam, &p));
    let pc = cam.pose.inverse_transform_point(&p);
    assert!(close(d.tangent, pc.x / pc.z, 1e-15));
    // Along the point: central differences.
    let dp = Vector3::new(0.1, 0.3, -0.2);
    let zero = CameraTangent {
        pose: SVectorOf7::zeros(),
        focal: 0.0,
    };
    let d = pixel_x_frule(Dual::new(&cam, &zero), Dual::new(&p, &dp));
    let h = 1e-6;
    let fd = (pixel_x(&cam, &(p + h * dp)) - pixel_x(&cam, &(p - h * dp))) / (2.0 * h);
    assert!(close(d.tangent, fd, 1e-8), "{} vs {fd}", d.tangent);
}
