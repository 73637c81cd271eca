//! Robotics code as roboticists write it, annotated unmodified: Denavit–Hartenberg forward
//! kinematics (hand-written 4x4 arrays and nalgebra's `Matrix4`), a differential-drive
//! odometry model, a kinematic bicycle model, an EKF predict step with nalgebra
//! `SMatrix`, and SE(2) pose composition in a pose-graph residual. Each program is checked
//! against central differences in one direction, in batches and at second order, primals
//! bit for bit (`check_modes!`), and against closed forms where there is one.
//!
//! Run with `cargo test --features nalgebra --test reach_sims_robotics`.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use nalgebra::{Matrix3, Matrix4, SMatrix, SVector, Vector3, Vector4};

mod common;

// ---------------------------------------------------------------------------------------
// Program 20: DH forward kinematics with hand-written homogeneous transforms.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct DhParam {
    pub d: f64,
    pub a: f64,
    pub alpha: f64,
    pub theta_offset: f64,
}

type Transform = [[f64; 4]; 4];

#[derive_frule]
fn dh_transform(p: &DhParam, q: f64) -> Transform {
    let theta = q + p.theta_offset;
    let (st, ct) = theta.sin_cos();
    let (sa, ca) = p.alpha.sin_cos();
    [
        [ct, -st * ca, st * sa, p.a * ct],
        [st, ct * ca, -ct * sa, p.a * st],
        [0.0, sa, ca, p.d],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

#[derive_frule]
fn matmul4(a: &Transform, b: &Transform) -> Transform {
    let mut c = [[0.0; 4]; 4];
    for i in 0..4 {
        for j in 0..4 {
            for k in 0..4 {
                c[i][j] += a[i][k] * b[k][j];
            }
        }
    }
    c
}

#[derive_frule]
fn forward_kinematics(params: &[DhParam], q: &[f64]) -> [f64; 3] {
    let mut t: Transform = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    for (p, &qi) in params.iter().zip(q) {
        t = matmul4(&t, &dh_transform(p, qi));
    }
    [t[0][3], t[1][3], t[2][3]]
}

/// A PUMA-like 3-joint arm: the squared distance of the wrist to a target.
#[derive_frule]
fn wrist_error(q: &[f64]) -> f64 {
    let arm = [
        DhParam {
            d: 0.67,
            a: 0.0,
            alpha: std::f64::consts::FRAC_PI_2,
            theta_offset: 0.0,
        },
        DhParam {
            d: 0.0,
            a: 0.43,
            alpha: 0.0,
            theta_offset: 0.0,
        },
        DhParam {
            d: 0.15,
            a: 0.02,
            alpha: -std::f64::consts::FRAC_PI_2,
            theta_offset: 0.1,
        },
    ];
    let p = forward_kinematics(&arm, q);
    let target = [0.3, 0.2, 0.9];
    p.iter()
        .zip(target.iter())
        .map(|(a, b)| (a - b) * (a - b))
        .sum()
}

// ---------------------------------------------------------------------------------------
// Program 21: the same kinematics with nalgebra's `Matrix4`, and the end effector's x as
// a Jacobian row.

#[derive_frule]
fn dh_matrix(d: f64, a: f64, alpha: f64, theta: f64) -> Matrix4<f64> {
    let (st, ct) = theta.sin_cos();
    let (sa, ca) = alpha.sin_cos();
    Matrix4::new(
        ct,
        -st * ca,
        st * sa,
        a * ct,
        st,
        ct * ca,
        -ct * sa,
        a * st,
        0.0,
        sa,
        ca,
        d,
        0.0,
        0.0,
        0.0,
        1.0,
    )
}

#[derive_frule]
fn planar_arm_tip(q: &[f64]) -> Vec<f64> {
    let links = [0.5, 0.4, 0.25];
    let mut t = Matrix4::identity();
    for (i, &l) in links.iter().enumerate() {
        t *= dh_matrix(0.0, l, 0.0, q[i]);
    }
    let tip = t * Vector4::new(0.0, 0.0, 0.0, 1.0);
    vec![tip[0], tip[1]]
}

#[derive_frule]
fn tip_x(q: &[f64]) -> f64 {
    planar_arm_tip(q)[0]
}

// ---------------------------------------------------------------------------------------
// Program 22: differential-drive odometry from wheel speeds.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct DiffDrive {
    pub wheel_radius: f64,
    pub track: f64,
}

#[derive(Differentiable, Clone, Copy, Debug, Default)]
pub struct Pose {
    pub x: f64,
    pub y: f64,
    pub theta: f64,
}

#[derive_frule]
impl DiffDrive {
    /// Exact integration of a constant twist over `dt` (arc, or a line when ω ≈ 0).
    pub fn step(&self, pose: &mut Pose, w_left: f64, w_right: f64, dt: f64) {
        let v = 0.5 * self.wheel_radius * (w_left + w_right);
        let omega = self.wheel_radius * (w_right - w_left) / self.track;
        if omega.abs() < 1e-9 {
            pose.x += v * dt * pose.theta.cos();
            pose.y += v * dt * pose.theta.sin();
        } else {
            let r = v / omega;
            let th1 = pose.theta + omega * dt;
            pose.x += r * (th1.sin() - pose.theta.sin());
            pose.y -= r * (th1.cos() - pose.theta.cos());
            pose.theta = th1;
        }
    }
}

/// `x` = (radius, track, then left/right wheel speeds per segment).
#[derive_frule]
fn odometry_end(x: &[f64]) -> f64 {
    let robot = DiffDrive {
        wheel_radius: x[0],
        track: x[1],
    };
    let mut pose = Pose::default();
    for w in x[2..].chunks_exact(2) {
        robot.step(&mut pose, w[0], w[1], 0.5);
    }
    pose.x + 2.0 * pose.y + pose.theta
}

// ---------------------------------------------------------------------------------------
// Program 23: kinematic bicycle model, a state struct stepped with `&mut self`.

#[derive(Differentiable, Clone, Debug)]
pub struct Bicycle {
    pub x: f64,
    pub y: f64,
    pub yaw: f64,
    pub v: f64,
    pub wheelbase: f64,
}

#[derive_frule]
impl Bicycle {
    pub fn update(&mut self, accel: f64, steer: f64, dt: f64) {
        let max_steer = 0.6;
        let delta = steer.clamp(-max_steer, max_steer);
        let beta = (0.5 * delta.tan()).atan();
        self.x += self.v * (self.yaw + beta).cos() * dt;
        self.y += self.v * (self.yaw + beta).sin() * dt;
        self.yaw += self.v / (0.5 * self.wheelbase) * beta.sin() * dt;
        self.v += accel * dt;
    }
}

/// `u` = (accel, steer) per step; the cost of missing a parking spot.
#[derive_frule]
fn parking_cost(u: &[f64]) -> f64 {
    let mut car = Bicycle {
        x: 0.0,
        y: 0.0,
        yaw: 0.0,
        v: 1.0,
        wheelbase: 2.7,
    };
    for c in u.chunks(2) {
        car.update(c[0], c[1], 0.2);
    }
    let goal = (3.0, 1.0, 0.5);
    (car.x - goal.0).powi(2)
        + (car.y - goal.1).powi(2)
        + (car.yaw - goal.2).powi(2)
        + 0.1 * car.v * car.v
}

// ---------------------------------------------------------------------------------------
// Program 24: an EKF predict step for a unicycle with nalgebra `SMatrix`.

#[derive_frule]
fn ekf_predict(
    x: &SVector<f64, 3>,
    p: &SMatrix<f64, 3, 3>,
    v: f64,
    omega: f64,
    dt: f64,
) -> (SVector<f64, 3>, SMatrix<f64, 3, 3>) {
    let th = x[2];
    let x_pred = SVector::<f64, 3>::new(
        x[0] + v * dt * th.cos(),
        x[1] + v * dt * th.sin(),
        th + omega * dt,
    );
    let f = Matrix3::new(
        1.0,
        0.0,
        -v * dt * th.sin(),
        0.0,
        1.0,
        v * dt * th.cos(),
        0.0,
        0.0,
        1.0,
    );
    let q = SMatrix::<f64, 3, 3>::from_diagonal(&Vector3::new(0.01, 0.01, 0.002));
    let p_pred = f * p * f.transpose() + q;
    (x_pred, p_pred)
}

/// `z` = (x, y, θ, v, ω): the trace of the covariance after five predictions plus the
/// predicted x.
#[derive_frule]
fn ekf_uncertainty(z: &[f64]) -> f64 {
    let mut x = SVector::<f64, 3>::new(z[0], z[1], z[2]);
    let mut p = SMatrix::<f64, 3, 3>::identity() * 0.1;
    for _ in 0..5 {
        let (xn, pn) = ekf_predict(&x, &p, z[3], z[4], 0.1);
        x = xn;
        p = pn;
    }
    p.trace() + x[0]
}

// ---------------------------------------------------------------------------------------
// Program 25: SE(2) pose composition with a hand-rolled pose-graph residual.

#[derive_frule]
fn compose(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    let (s, c) = a[2].sin_cos();
    [
        a[0] + c * b[0] - s * b[1],
        a[1] + s * b[0] + c * b[1],
        a[2] + b[2],
    ]
}

#[derive_frule]
fn between(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    let (s, c) = a[2].sin_cos();
    let dx = b[0] - a[0];
    let dy = b[1] - a[1];
    let mut dth = b[2] - a[2];
    while dth > std::f64::consts::PI {
        dth -= 2.0 * std::f64::consts::PI;
    }
    while dth < -std::f64::consts::PI {
        dth += 2.0 * std::f64::consts::PI;
    }
    [c * dx + s * dy, -s * dx + c * dy, dth]
}

/// Three poses (x, y, θ each), odometry edges between neighbours and one loop closure.
#[derive_frule]
fn pose_graph_error(x: &[f64]) -> f64 {
    let poses: Vec<[f64; 3]> = x.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
    let odometry = [[1.0, 0.0, 0.5], [1.0, 0.1, 0.6]];
    let mut err = 0.0;
    for (k, w) in poses.windows(2).enumerate() {
        let predicted = compose(w[0], odometry[k]);
        let r = between(predicted, w[1]);
        err += r[0] * r[0] + r[1] * r[1] + 4.0 * r[2] * r[2];
    }
    let closure = between(poses[0], poses[2]);
    err += (closure[0] - 1.4).powi(2) + (closure[1] - 1.2).powi(2);
    err
}

// ---------------------------------------------------------------------------------------

#[test]
fn dh_kinematics_in_every_mode() {
    check_modes!(wrist_error {}, wrist_error, [0.3, -0.4, 0.8]);
}

#[test]
fn nalgebra_dh_in_every_mode() {
    let q = [0.4, -0.3, 0.9];
    check_modes!(tip_x {}, tip_x, q);
    // Closed form: the planar arm's Jacobian rows.
    let (tip, jac) = jacobian(planar_arm_tip {}, &q);
    let links = [0.5, 0.4, 0.25];
    let angles = [q[0], q[0] + q[1], q[0] + q[1] + q[2]];
    let want_x: f64 = (0..3).map(|i| links[i] * angles[i].cos()).sum();
    assert!((tip[0] - want_x).abs() < 1e-12);
    for j in 0..3 {
        let dx: f64 = (j..3).map(|i| -links[i] * angles[i].sin()).sum();
        let dy: f64 = (j..3).map(|i| links[i] * angles[i].cos()).sum();
        assert!((jac[(0, j)] - dx).abs() < 1e-12);
        assert!((jac[(1, j)] - dy).abs() < 1e-12);
    }
}

#[test]
fn diff_drive_odometry_in_every_mode() {
    check_modes!(
        odometry_end {},
        odometry_end,
        [0.05, 0.3, 10.0, 12.0, 11.0, 9.0, 8.0, 8.5]
    );
    // Closed form: driving straight (equal wheels), x = r w t.
    let (_, g) = gradient(odometry_end {}, &[0.05, 0.3, 10.0, 10.0]);
    assert!((g[0] - 10.0 * 0.5).abs() < 1e-12, "{}", g[0]);
}

#[test]
fn bicycle_in_every_mode() {
    check_modes!(
        parking_cost {},
        parking_cost,
        [0.5, 0.2, 0.3, 0.25, 0.0, 0.1, -0.2, -0.1]
    );
}

#[test]
fn ekf_predict_in_every_mode() {
    check_modes!(
        ekf_uncertainty {},
        ekf_uncertainty,
        [0.1, -0.2, 0.4, 1.5, 0.3]
    );
}

#[test]
fn pose_graph_in_every_mode() {
    check_modes!(
        pose_graph_error {},
        pose_graph_error,
        [0.0, 0.0, 0.1, 1.1, 0.4, 0.55, 1.6, 1.3, 1.2]
    );
}
