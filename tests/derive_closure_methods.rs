//! Closures passed to methods of the user's own types (issue #27/#28): an ODE integrator,
//! a Newton solver and a Monte-Carlo estimator written as structs whose methods take the
//! function they work on. Derivatives in every mode against central finite differences of
//! the plain functions and closed forms; primals bit for bit.
use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};
use fwdad::Hyper;

/// Classic fourth-order Runge–Kutta with a fixed step, the right-hand side writing its
/// derivative into a buffer (as ODE crates take it).
#[derive(Differentiable, Clone, Debug)]
pub struct Rk4 {
    pub dt: f64,
    pub steps: usize,
}

#[derive_frule]
impl Rk4 {
    /// One step from `(t, y)`, in place.
    pub fn step<F: Fn(f64, &[f64], &mut [f64])>(&self, rhs: &F, t: f64, y: &mut [f64]) {
        let n = y.len();
        let h = self.dt;
        let mut k1 = vec![0.0; n];
        let mut k2 = vec![0.0; n];
        let mut k3 = vec![0.0; n];
        let mut k4 = vec![0.0; n];
        let mut tmp = vec![0.0; n];
        rhs(t, y, &mut k1);
        for i in 0..n {
            tmp[i] = y[i] + 0.5 * h * k1[i];
        }
        rhs(t + 0.5 * h, &tmp, &mut k2);
        for i in 0..n {
            tmp[i] = y[i] + 0.5 * h * k2[i];
        }
        rhs(t + 0.5 * h, &tmp, &mut k3);
        for i in 0..n {
            tmp[i] = y[i] + h * k3[i];
        }
        rhs(t + h, &tmp, &mut k4);
        for i in 0..n {
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }

    /// `steps` steps from `t = 0`.
    pub fn integrate<F: Fn(f64, &[f64], &mut [f64])>(&self, rhs: F, y: &mut [f64]) {
        for s in 0..self.steps {
            self.step(&rhs, s as f64 * self.dt, y);
        }
    }
}

/// A damped oscillator y'' = −k y − c y' from (1, 0): the position at t = 1.
#[derive_frule]
fn oscillator(k: f64, c: f64) -> f64 {
    let solver = Rk4 {
        dt: 0.01,
        steps: 100,
    };
    let mut y = [1.0, 0.0];
    solver.integrate(
        |_t, y, dy| {
            dy[0] = y[1];
            dy[1] = -k * y[0] - c * y[1];
        },
        &mut y,
    );
    y[0]
}

/// Central differences of a function of two scalars.
fn fd2(f: impl Fn(f64, f64) -> f64, a: f64, b: f64) -> [f64; 2] {
    let h = 1e-6;
    [
        (f(a + h, b) - f(a - h, b)) / (2.0 * h),
        (f(a, b + h) - f(a, b - h)) / (2.0 * h),
    ]
}

fn hyper(d1: f64, d2: f64) -> Hyper<f64, f64> {
    Hyper { d1, d2, d12: 0.0 }
}

#[test]
fn rk4_integrator_method_taking_the_right_hand_side() {
    let (k, c) = (4.0, 0.3);
    let plain = |a: &mut (f64, f64)| oscillator(a.0, a.1);
    test_frule((k, c), plain, |a, da| {
        oscillator_frule(Dual::new(a.0, da.0), Dual::new(a.1, da.1))
    });
    test_frule_batched::<2, _, _>((k, c), plain, |a, da| {
        <oscillator as Frule<_, Batch<f64, 2>>>::frule(
            &oscillator {},
            (Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
        )
    });
    // Closed form of the underdamped oscillator: y = e^{−ct/2}(cos ωt + c/(2ω) sin ωt),
    // ω = √(k − c²/4); RK4 at h = 0.01 is within 1e-9 of it, and so are its derivatives.
    let exact = |k: f64, c: f64| {
        let w = (k - c * c / 4.0).sqrt();
        (-c / 2.0).exp() * (w.cos() + c / (2.0 * w) * w.sin())
    };
    let fd = fd2(exact, k, c);
    let dk = oscillator_frule(Dual::new(k, 1.0), Dual::new(c, 0.0));
    let dc = oscillator_frule(Dual::new(k, 0.0), Dual::new(c, 1.0));
    assert_eq!(dk.primal.to_bits(), oscillator(k, c).to_bits());
    approx::assert_relative_eq!(dk.tangent, fd[0], epsilon = 1e-8);
    approx::assert_relative_eq!(dc.tangent, fd[1], epsilon = 1e-8);
    // Second order: ∂²/∂k∂c by Hyper tangents against differences of the derived gradient.
    let grad = |k: f64, c: f64| {
        [
            oscillator_frule(Dual::new(k, 1.0), Dual::new(c, 0.0)).tangent,
            oscillator_frule(Dual::new(k, 0.0), Dual::new(c, 1.0)).tangent,
        ]
    };
    let fd_kc = fd2(|k, c| grad(k, c)[0], k, c)[1];
    let h = <oscillator as Frule<_, Hyper<f64, f64>>>::frule(
        &oscillator {},
        (Dual::new(k, hyper(1.0, 0.0)), Dual::new(c, hyper(0.0, 1.0))),
    );
    assert_eq!(h.primal.to_bits(), oscillator(k, c).to_bits());
    approx::assert_relative_eq!(h.tangent.d12, fd_kc, epsilon = 1e-7, max_relative = 1e-6);
}
