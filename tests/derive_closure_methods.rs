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

/// Newton's method with a backtracking line search on |f|, as a solver struct whose
/// settings are fields.
#[derive(Differentiable, Clone, Debug)]
pub struct Newton {
    pub tol: f64,
    pub max_iter: usize,
}

#[derive_frule]
impl Newton {
    /// The step length that first decreases |f| along `dx` (halving from 1).
    pub fn line_search(&self, f: &dyn Fn(f64) -> f64, x: f64, dx: f64) -> f64 {
        let f0 = f(x).abs();
        let mut t = 1.0;
        for _ in 0..30 {
            if f(x + t * dx).abs() < f0 {
                break;
            }
            t *= 0.5;
        }
        t
    }

    /// A root of `f` from `x0`, given its derivative `df`.
    pub fn solve<F: Fn(f64) -> f64, G: Fn(f64) -> f64>(&self, f: F, df: G, x0: f64) -> f64 {
        let mut x = x0;
        for _ in 0..self.max_iter {
            let dx = -f(x) / df(x);
            let t = self.line_search(&f, x, dx);
            x += t * dx;
            if (t * dx).abs() <= self.tol * x.abs() {
                break;
            }
        }
        x
    }
}

/// The real root of x³ + p x − q (a depressed cubic, one real root for p > 0).
#[derive_frule]
fn cubic_root(p: f64, q: f64) -> f64 {
    let newton = Newton {
        tol: 1e-15,
        max_iter: 60,
    };
    let f = |x: f64| x * x * x + p * x - q;
    newton.solve(f, |x| 3.0 * x * x + p, 1.0)
}

#[test]
fn newton_solver_method_with_a_line_search() {
    let (p, q) = (1.5, 2.0);
    let plain = |a: &mut (f64, f64)| cubic_root(a.0, a.1);
    test_frule((p, q), plain, |a, da| {
        cubic_root_frule(Dual::new(a.0, da.0), Dual::new(a.1, da.1))
    });
    test_frule_batched::<2, _, _>((p, q), plain, |a, da| {
        <cubic_root as Frule<_, Batch<f64, 2>>>::frule(
            &cubic_root {},
            (Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
        )
    });
    // Implicit function theorem on g = x³ + p x − q: ∂x/∂p = −x/(3x² + p),
    // ∂x/∂q = 1/(3x² + p); Cardano gives x itself.
    let x = {
        let d = (q * q / 4.0 + p * p * p / 27.0).sqrt();
        (q / 2.0 + d).cbrt() + (q / 2.0 - d).cbrt()
    };
    let dp = cubic_root_frule(Dual::new(p, 1.0), Dual::new(q, 0.0));
    let dq = cubic_root_frule(Dual::new(p, 0.0), Dual::new(q, 1.0));
    assert_eq!(dp.primal.to_bits(), cubic_root(p, q).to_bits());
    approx::assert_relative_eq!(dp.primal, x, max_relative = 1e-14);
    approx::assert_relative_eq!(dp.tangent, -x / (3.0 * x * x + p), max_relative = 1e-12);
    approx::assert_relative_eq!(dq.tangent, 1.0 / (3.0 * x * x + p), max_relative = 1e-12);
    // ∂²x/∂q² = −6x (∂x/∂q)³ / (3x² + p)... written out: x_qq = −6 x x_q² / (3x² + p).
    let h = <cubic_root as Frule<_, Hyper<f64, f64>>>::frule(
        &cubic_root {},
        (Dual::new(p, hyper(0.0, 0.0)), Dual::new(q, hyper(1.0, 1.0))),
    );
    let xq = 1.0 / (3.0 * x * x + p);
    assert_eq!(h.primal.to_bits(), cubic_root(p, q).to_bits());
    approx::assert_relative_eq!(h.tangent.d12, -6.0 * x * xq * xq * xq, max_relative = 1e-10);
}

/// A Monte-Carlo estimator of E[f(U)], U uniform on [a, b], whose generator state lives in
/// the struct and advances with each draw (`&mut self`).
#[derive(Differentiable, Clone, Debug)]
pub struct MonteCarlo {
    pub state: u64,
    pub samples: usize,
}

#[derive_frule]
impl MonteCarlo {
    /// A uniform draw on [0, 1) from a 64-bit LCG (Knuth's MMIX constants).
    pub fn uniform(&mut self) -> f64 {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.state >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The sample mean of `f` over `samples` draws on [a, b].
    pub fn mean(&mut self, f: impl Fn(f64) -> f64, a: f64, b: f64) -> f64 {
        let mut s = 0.0;
        for _ in 0..self.samples {
            let u = self.uniform();
            s += f(a + (b - a) * u);
        }
        s / self.samples as f64
    }
}

/// The expected exponential utility 1 − e^{−γ w}, w uniform on [0, width], estimated twice
/// with one generator (the second batch continues the first's stream).
#[derive_frule]
fn expected_utility(gamma: f64, width: f64) -> f64 {
    let mut mc = MonteCarlo {
        state: 42,
        samples: 2000,
    };
    let first = mc.mean(|w| 1.0 - (-gamma * w).exp(), 0.0, width);
    let second = mc.mean(|w| 1.0 - (-gamma * w).exp(), 0.0, width);
    0.5 * (first + second)
}

#[test]
fn monte_carlo_estimator_with_generator_state() {
    let (gamma, width) = (0.7, 2.0);
    let plain = |a: &mut (f64, f64)| expected_utility(a.0, a.1);
    test_frule((gamma, width), plain, |a, da| {
        expected_utility_frule(Dual::new(a.0, da.0), Dual::new(a.1, da.1))
    });
    test_frule_batched::<2, _, _>((gamma, width), plain, |a, da| {
        <expected_utility as Frule<_, Batch<f64, 2>>>::frule(
            &expected_utility {},
            (Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
        )
    });
    // With common random numbers the estimate is a fixed sum over the draws uᵢ:
    // (1/n) Σ (1 − e^{−γ w uᵢ}), whose derivatives are written out here from the same
    // generator (a copy of the LCG, not the derived code).
    let mut state = 42u64;
    let mut us = Vec::new();
    for _ in 0..4000 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        us.push((state >> 11) as f64 / (1u64 << 53) as f64);
    }
    let n = us.len() as f64;
    let dg: f64 = us
        .iter()
        .map(|u| width * u * (-gamma * width * u).exp())
        .sum::<f64>()
        / n;
    let dw: f64 = us
        .iter()
        .map(|u| gamma * u * (-gamma * width * u).exp())
        .sum::<f64>()
        / n;
    let d = expected_utility_frule(Dual::new(gamma, 1.0), Dual::new(width, 0.0));
    assert_eq!(d.primal.to_bits(), expected_utility(gamma, width).to_bits());
    approx::assert_relative_eq!(d.tangent, dg, max_relative = 1e-12);
    let d = expected_utility_frule(Dual::new(gamma, 0.0), Dual::new(width, 1.0));
    approx::assert_relative_eq!(d.tangent, dw, max_relative = 1e-12);
    // Second order in γ: −(1/n) Σ (w u)² e^{−γ w u}.
    let dgg: f64 = -us
        .iter()
        .map(|u| (width * u).powi(2) * (-gamma * width * u).exp())
        .sum::<f64>()
        / n;
    let h = <expected_utility as Frule<_, Hyper<f64, f64>>>::frule(
        &expected_utility {},
        (
            Dual::new(gamma, hyper(1.0, 1.0)),
            Dual::new(width, hyper(0.0, 0.0)),
        ),
    );
    approx::assert_relative_eq!(h.tangent.d12, dgg, max_relative = 1e-12);
}

/// A midpoint quadrature whose methods take the integrand in each way Rust passes a
/// function: `&dyn Fn`, `Box<dyn Fn>`, `&mut dyn FnMut` (on `&mut self`), `impl Fn`, from
/// another method of the same `impl`, and by path (`Quad::integrate(&q, ..)`).
#[derive(Differentiable, Clone, Debug)]
pub struct Quad {
    pub n: usize,
    pub scale: f64,
}

#[derive_frule]
impl Quad {
    pub fn integrate(&self, f: &dyn Fn(f64) -> f64, a: f64, b: f64) -> f64 {
        let h = (b - a) / self.n as f64;
        let mut s = 0.0;
        for i in 0..self.n {
            s += f(a + (i as f64 + 0.5) * h);
        }
        s * h * self.scale
    }
    pub fn boxed(&self, f: Box<dyn Fn(f64) -> f64>, x: f64) -> f64 {
        f(x) * self.scale
    }
    pub fn mutable(&mut self, f: &mut dyn FnMut(f64) -> f64, x: f64) -> f64 {
        self.n += 1;
        f(x)
    }
    pub fn nested(&self, c: f64) -> f64 {
        self.integrate(&|x| c * x * x, 0.0, 1.0)
    }
    pub fn by_impl(&self, f: impl Fn(f64, f64) -> f64, x: f64) -> f64 {
        f(x, self.scale)
    }
}

/// Each form once, with a closure bound by `let`, a `move` closure and closure literals.
#[derive_frule]
fn forms(k: f64) -> f64 {
    let mut q = Quad { n: 10, scale: 1.0 };
    let g = |x: f64| (k * x).sin();
    let a = q.integrate(&g, 0.0, 1.0);
    let b = q.boxed(Box::new(move |x| k * x), 2.0);
    let c = q.mutable(&mut |x| x * k, 3.0);
    let d = q.nested(k);
    let e = q.by_impl(|x, s| x * s * k, 1.5);
    let f = Quad::integrate(&q, &|x| x * k, 0.0, 1.0);
    a + b + c + d + e + f
}

#[test]
fn every_way_of_passing_a_function_to_a_method() {
    let k = 0.7;
    let plain = |a: &mut (f64,)| forms(a.0);
    test_frule((k,), plain, |a, da| forms_frule(Dual::new(a.0, da.0)));
    test_frule_batched::<2, _, _>((k,), plain, |a, da| {
        <forms as Frule<_, Batch<f64, 2>>>::frule(&forms {}, (Dual::new(a.0, da.0),))
    });
    let d = forms_frule(Dual::new(k, 1.0));
    assert_eq!(d.primal.to_bits(), forms(k).to_bits());
    let fd = (forms(k + 1e-6) - forms(k - 1e-6)) / 2e-6;
    approx::assert_relative_eq!(d.tangent, fd, max_relative = 1e-7);
    // Second order against differences of the derived first derivative.
    let d1 = |k: f64| forms_frule(Dual::new(k, 1.0)).tangent;
    let fd2 = (d1(k + 1e-5) - d1(k - 1e-5)) / 2e-5;
    let h =
        <forms as Frule<_, Hyper<f64, f64>>>::frule(&forms {}, (Dual::new(k, hyper(1.0, 1.0)),));
    assert_eq!(h.primal.to_bits(), forms(k).to_bits());
    approx::assert_relative_eq!(h.tangent.d12, fd2, max_relative = 1e-6);
}
