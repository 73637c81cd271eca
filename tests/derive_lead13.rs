//! What the thirteenth session's newcomer programs found, in small programs written as
//! they wrote them. Each failed to compile before its fix.
//! Derivatives against closed forms and central differences, primals bit for bit.
#![allow(clippy::needless_range_loop, clippy::useless_vec, clippy::ptr_arg)]

use fwdad::drivers::{jvp, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

/// A planar three-link arm whose forward kinematics is a method with `#[derive_frule]`
/// on the method itself (not on the `impl`), taking the joint angles as a slice: its
/// entry `Arm::tip_frule` did not compile (E0716: the rule, a temporary of the entry's
/// last expression, outlived the zero tangent lent to the slice).
#[derive(Clone, Debug, Differentiable)]
pub struct Arm {
    pub lengths: [f64; 3],
}

impl Arm {
    #[derive_frule]
    pub fn tip(&self, q: &[f64]) -> [f64; 2] {
        let mut angle = 0.0;
        let mut p = [0.0, 0.0];
        for (i, l) in self.lengths.iter().enumerate() {
            angle += q[i];
            p[0] += l * angle.cos();
            p[1] += l * angle.sin();
        }
        p
    }

    #[derive_frule]
    pub fn reach(&self, q: &[f64]) -> f64 {
        let p = self.tip(q);
        p[0].hypot(p[1])
    }
}

#[derive_frule]
fn tip_x(q: &[f64]) -> f64 {
    let arm = Arm {
        lengths: [1.0, 0.8, 0.5],
    };
    arm.tip(q)[0]
}

fn plain_tip_x(q: &[f64]) -> f64 {
    Arm {
        lengths: [1.0, 0.8, 0.5],
    }
    .tip(q)[0]
}

#[test]
fn method_attribute_with_a_slice_parameter() {
    let arm = Arm {
        lengths: [1.0, 0.8, 0.5],
    };
    let q = [0.3, -0.4, 0.9];
    let cum: [f64; 3] = [0.3, 0.3 - 0.4, 0.3 - 0.4 + 0.9];
    for k in 0..3 {
        let mut e = [0.0; 3];
        e[k] = 1.0;
        // The method's own entry, the receiver constant.
        let d = Arm::tip_frule(Dual::constant(&arm), Dual::new(&q[..], &e[..]));
        let want = arm.tip(&q);
        assert_eq!(d.primal[0].to_bits(), want[0].to_bits());
        assert_eq!(d.primal[1].to_bits(), want[1].to_bits());
        // d x / d q_k = -Σ_{i ≥ k} l_i sin(cum_i), d y / d q_k = Σ_{i ≥ k} l_i cos(cum_i).
        let dx: f64 = (k..3).map(|i| -arm.lengths[i] * cum[i].sin()).sum();
        let dy: f64 = (k..3).map(|i| arm.lengths[i] * cum[i].cos()).sum();
        assert_close(d.tangent[0], dx, 1e-12, "dx");
        assert_close(d.tangent[1], dy, 1e-12, "dy");
        let r = Arm::reach_frule(Dual::constant(&arm), Dual::new(&q[..], &e[..]));
        assert_eq!(r.primal.to_bits(), arm.reach(&q).to_bits());
        let (x, y) = (want[0], want[1]);
        assert_close(r.tangent, (x * dx + y * dy) / x.hypot(y), 1e-12, "d reach");
    }
    check_widths!(tip_x {}, plain_tip_x, [0.3, -0.4, 0.9]);
}

// ---------------------------------------------------------------------------------------
// Operators on a value of the user's type that a call of the file's function returned
// (`let a0 = accel(p, k);`, `p + field(p, k) * 0.1`): read as `Vec3`'s operators, as with
// the type written. Before, `a0 + a1` was taken for float arithmetic (an error naming
// `a_float_operand`).

use std::ops::{Add, AddAssign, Mul, Neg};

#[derive(Clone, Copy, Debug, Default, Differentiable)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

#[derive_frule]
impl Mul<f64> for Vec3 {
    type Output = Vec3;
    fn mul(self, s: f64) -> Vec3 {
        Vec3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

#[derive_frule]
impl AddAssign for Vec3 {
    fn add_assign(&mut self, o: Vec3) {
        self.x += o.x;
        self.y += o.y;
        self.z += o.z;
    }
}

#[derive_frule]
impl Neg for Vec3 {
    type Output = Vec3;
    fn neg(self) -> Vec3 {
        Vec3 {
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }
}

#[derive_frule]
fn accel(p: Vec3, k: f64) -> Vec3 {
    -p * k
        + Vec3 {
            x: 0.0,
            y: -9.81,
            z: 0.0,
        }
}

/// Velocity Verlet for two particles on a spring to the origin under gravity.
#[derive_frule]
fn final_height(vy0: f64, k: f64) -> f64 {
    let mut pos = vec![
        Vec3 {
            x: 1.0,
            y: 0.0,
            z: 0.0,
        },
        Vec3 {
            x: 0.0,
            y: 2.0,
            z: 0.5,
        },
    ];
    let mut vel = vec![
        Vec3 {
            x: 0.0,
            y: vy0,
            z: 0.0
        };
        2
    ];
    let dt = 0.01;
    for _ in 0..300 {
        for i in 0..pos.len() {
            let a0 = accel(pos[i], k);
            pos[i] += vel[i] * dt + a0 * (0.5 * dt * dt);
            let a1 = accel(pos[i], k);
            vel[i] += (a0 + a1) * (0.5 * dt);
        }
    }
    pos.iter().map(|p| p.y).sum()
}

/// A second-order Taylor step of a rotation field, the calls inline in the operators.
#[derive_frule]
fn rotated(p: Vec3, w: f64) -> Vec3 {
    Vec3 {
        x: -w * p.y,
        y: w * p.x,
        z: 0.0,
    }
}

#[derive_frule]
fn taylor_step(v: &[f64]) -> f64 {
    let p = Vec3 {
        x: v[0],
        y: v[1],
        z: 0.0,
    };
    let w = v[2];
    let q = p + rotated(p, w) * 0.1 + rotated(rotated(p, w), w) * 0.005;
    q.x * q.y
}

fn plain_final_height(v: &[f64]) -> f64 {
    final_height(v[0], v[1])
}

#[derive_frule]
fn final_height_of(v: &[f64]) -> f64 {
    final_height(v[0], v[1])
}

#[test]
fn operators_on_a_user_value_a_call_returned() {
    // The trajectory is linear in the initial velocity: the derivative in it is
    // the difference of two runs.
    let (vy0, k) = (3.0, 4.0);
    let d = final_height_frule(Dual::new(vy0, 1.0), Dual::constant(k));
    assert_eq!(d.primal.to_bits(), final_height(vy0, k).to_bits());
    assert_close(
        d.tangent,
        final_height(1.0, k) - final_height(0.0, k),
        1e-9,
        "dy/dvy0",
    );
    check_widths!(final_height_of {}, plain_final_height, [3.0, 4.0]);
    // q = p + 0.1 w J p + 0.005 w² J² p with J the quarter turn: q = (a x - b y, a y + b x)
    // where a = 1 - 0.005 w², b = 0.1 w.
    let v = [0.5, 0.7, 2.0];
    let (x, y, w) = (v[0], v[1], v[2]);
    let (a, b) = (1.0 - 0.005 * w * w, 0.1 * w);
    let (qx, qy) = (a * x - b * y, a * y + b * x);
    let (da, db) = (-0.01 * w, 0.1);
    let want = [
        a * qy + qx * b,
        -b * qy + qx * a,
        (da * x - db * y) * qy + qx * (da * y + db * x),
    ];
    let (val, g) = fwdad::drivers::gradient(taylor_step {}, &v);
    assert_eq!(val.to_bits(), taylor_step(&v).to_bits());
    for i in 0..3 {
        assert_close(g[i], want[i], 1e-12, &format!("d/dv{i}"));
    }
    check_widths!(taylor_step {}, taylor_step, [0.5, 0.7, 2.0]);
}

// ---------------------------------------------------------------------------------------
// `take()` and `replace(v)` of an `Option` local bound without a written type
// (`let mut prev = Some(xs[0]);`): `Option`'s, as of a typed local. Before: "`Option<f64>`
// has no forward rule for its method `take`".

/// A first-order filter that mixes in the previous sample once, then a `replace` that
/// keeps the last value seen.
#[derive_frule]
fn mixed_once(xs: &[f64]) -> f64 {
    let mut prev = Some(xs[0]);
    let mut last = None;
    let mut acc = 0.0;
    for &x in xs {
        let next = acc * 0.5 + 2.0 * x;
        let old = std::mem::replace(&mut acc, next);
        if let Some(p) = prev.take() {
            acc += 0.25 * p * old;
        }
        if let Some(l) = last.replace(x) {
            acc += 0.1 * l * x;
        }
    }
    acc
}

#[test]
fn take_and_replace_of_an_untyped_option_local() {
    // prev is taken on the first step, when old = 0: it adds nothing; then
    // acc_k = acc_{k-1}/2 + 2 x_k + 0.1 x_{k-1} x_k for k ≥ 1, acc_0 = 2 x_0.
    let xs = [0.5, 1.5, -0.2, 2.0, 0.7];
    let n = xs.len();
    let mut want = vec![0.0; n];
    // d acc_n/d x_j by the recurrence's weights: 2·2^-(n-1-j), plus the products' terms.
    for j in 0..n {
        let mut d = 0.0;
        for k in 0..n {
            let w = 0.5f64.powi((n - 1 - k) as i32);
            let mut dk = if k == j { 2.0 } else { 0.0 };
            if k >= 1 {
                if k == j {
                    dk += 0.1 * xs[k - 1];
                }
                if k - 1 == j {
                    dk += 0.1 * xs[k];
                }
            }
            d += w * dk;
        }
        want[j] = d;
    }
    let (v, g) = fwdad::drivers::gradient(mixed_once {}, &xs);
    assert_eq!(v.to_bits(), mixed_once(&xs).to_bits());
    for j in 0..n {
        assert_close(g[j], want[j], 1e-12, &format!("d/dx{j}"));
    }
    check_widths!(mixed_once {}, mixed_once, [0.5, 1.5, -0.2, 2.0, 0.7]);
}

// ---------------------------------------------------------------------------------------
// The drivers with a function of `x: &Vec<f64>` (as newcomers write it) or `x: Vec<f64>`,
// bound `bind(f {}, (Wrt,))` as a function of an array is: the point copied into a `Vec`
// per pass. Before: "the parameter marked `Wrt` does not take the point".

#[allow(clippy::ptr_arg)]
#[derive_frule]
fn log_sum_exp_vec(x: &Vec<f64>) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

#[allow(clippy::needless_pass_by_value)]
#[derive_frule]
fn squares_owned(x: Vec<f64>) -> Vec<f64> {
    x.iter()
        .enumerate()
        .map(|(i, v)| (i as f64 + 1.0) * v * v)
        .collect()
}

#[test]
fn drivers_with_vec_parameters() {
    let x = vec![0.3, -1.2, 0.8, 2.0];
    let (v, g) = fwdad::drivers::gradient(fwdad::drivers::bind(log_sum_exp_vec {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), log_sum_exp_vec(&x).to_bits());
    // softmax
    let s: f64 = x.iter().map(|v| v.exp()).sum();
    for i in 0..4 {
        assert_close(g[i], x[i].exp() / s, 1e-14, &format!("softmax {i}"));
    }
    let (_, _, h) = fwdad::drivers::hessian(fwdad::drivers::bind(log_sum_exp_vec {}, (Wrt,)), &x);
    for i in 0..4 {
        for j in 0..4 {
            let (pi, pj) = (x[i].exp() / s, x[j].exp() / s);
            let want = if i == j { pi - pi * pi } else { -pi * pj };
            assert_close(h[(i, j)], want, 1e-13, &format!("h {i} {j}"));
        }
    }
    let (y, jac) = fwdad::drivers::jacobian(fwdad::drivers::bind(squares_owned {}, (Wrt,)), &x);
    let plain = squares_owned(x.clone());
    for i in 0..4 {
        assert_eq!(y[i].to_bits(), plain[i].to_bits());
        for j in 0..4 {
            let want = if i == j {
                2.0 * (i as f64 + 1.0) * x[i]
            } else {
                0.0
            };
            assert_eq!(jac[(i, j)], want, "jacobian {i} {j}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Borrowed data of a struct declared without `#[derive(Differentiable)]` (`doses: &[Dose]`,
// `cfg: &Solver`), in a module with a glob import: constant data, as if declared
// `inactive(..)`. Before: "`&[Dose]` has no tangent type" at the attribute (and the glob
// import kept the macro from knowing the struct was the module's own).

#[allow(unused_imports)]
use common::modes::*;

#[derive(Clone, Copy, Debug)]
pub struct Dose {
    pub time: f64,
    pub amount: f64,
}

#[derive(Debug)]
pub struct Solver {
    pub dt: f64,
    pub steps: usize,
}

/// One-compartment PK: a bolus at each dose time, first-order elimination at rate `k`,
/// the concentration at `t_end`.
#[derive_frule]
fn concentration(k: f64, doses: &[Dose], cfg: &Solver, extra: &Vec<Dose>) -> f64 {
    let mut a = 0.0;
    let mut t = 0.0;
    let mut next = 0;
    for _ in 0..cfg.steps {
        while next < doses.len() && doses[next].time <= t + 1e-9 {
            a += doses[next].amount;
            next += 1;
        }
        a *= (-k * cfg.dt).exp();
        t += cfg.dt;
    }
    a + extra
        .iter()
        .map(|d| d.amount * (-k * d.time).exp())
        .sum::<f64>()
}

#[derive_frule]
fn concentration_of(k: &[f64], doses: &[Dose], cfg: &Solver, extra: &Vec<Dose>) -> f64 {
    concentration(k[0], doses, cfg, extra)
}

#[test]
fn borrowed_data_of_a_plain_struct_is_constant() {
    let doses = [
        Dose {
            time: 0.0,
            amount: 100.0,
        },
        Dose {
            time: 1.0,
            amount: 50.0,
        },
    ];
    let cfg = Solver { dt: 0.1, steps: 30 };
    let extra = vec![Dose {
        time: 0.5,
        amount: 10.0,
    }];
    let k = 0.4;
    let d = concentration_frule(Dual::new(k, 1.0), &doses, &cfg, &extra);
    assert_eq!(
        d.primal.to_bits(),
        concentration(k, &doses, &cfg, &extra).to_bits()
    );
    // a = Σ_dose amount · e^{-k dt n_d} with n_d the steps after the dose, plus the extra
    // term: d/dk = -Σ amount · dt n_d · e^{-k dt n_d} - Σ amount t e^{-k t}.
    let (n0, n1) = (30.0, 20.0);
    let want = -100.0 * 0.1 * n0 * (-k * 0.1 * n0).exp()
        - 50.0 * 0.1 * n1 * (-k * 0.1 * n1).exp()
        - 10.0 * 0.5 * (-k * 0.5).exp();
    assert_close(d.tangent, want, 1e-9, "dc/dk");
    let (v, g) = fwdad::drivers::gradient(
        fwdad::drivers::bind(concentration_of {}, (Wrt, &doses[..], &cfg, &extra)),
        &[k],
    );
    assert_eq!(v.to_bits(), d.primal.to_bits());
    assert_close(g[0], d.tangent, 1e-12, "gradient");
    let plain = |x: &[f64]| concentration(x[0], &doses, &cfg, &extra);
    let (_, _, h) = fwdad::drivers::hessian(
        fwdad::drivers::bind(concentration_of {}, (Wrt, &doses[..], &cfg, &extra)),
        &[k],
    );
    assert_close(h[(0, 0)], fd_hessian(&plain, &[k])[0][0], 1e-4, "hessian");
}
