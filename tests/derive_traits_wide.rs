//! Traits with `#[derive_frule]` whose methods take and return what physics code passes
//! around: a state struct, tuples, arrays, `Self`, `Option`; `&mut self` and `self`
//! methods; associated constants and constructors (`fn new(..) -> Self`) called through a
//! generic parameter; a method the rules cannot have, which only its calls would reject.
//! Derivatives against closed forms and central differences of the plain functions, in
//! one direction, batched and second order; primals bit for bit.

use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct State {
    pub q: f64,
    pub p: f64,
}

/// A one-dimensional Hamiltonian system.
#[derive_frule]
pub trait Oscillator {
    const MASS: f64;
    fn new(stiffness: f64) -> Self;
    fn force(&self, q: f64) -> f64;
    fn potential(&self, q: f64) -> f64;
    fn energy(&self, s: State) -> f64 {
        0.5 * s.p * s.p / Self::MASS + self.potential(s.q)
    }
    /// One step of symplectic Euler.
    fn step(&self, s: State, dt: f64) -> State {
        let p = s.p + dt * self.force(s.q);
        State {
            q: s.q + dt * p / Self::MASS,
            p,
        }
    }
    /// Where the motion at energy `e` turns back.
    fn turning_points(&self, e: f64) -> (f64, f64);
    /// The same system with its stiffness scaled.
    fn stiffer(&self, factor: f64) -> Self;
    /// Force and curvature of the potential, by central differences of the force.
    fn force_and_curvature(&self, q: f64) -> [f64; 2] {
        let h = 1e-4;
        [
            self.force(q),
            -(self.force(q + h) - self.force(q - h)) / (2.0 * h),
        ]
    }
    /// The period of small oscillations, for a well with a minimum.
    fn small_period(&self) -> Option<f64> {
        let fk: [f64; 2] = self.force_and_curvature(0.0);
        let k = fk[1];
        if k > 0.0 {
            Some(2.0 * std::f64::consts::PI * (Self::MASS / k).sqrt())
        } else {
            None
        }
    }
    /// Not differentiable through the trait (generic): calls of it only are rejected.
    fn sample<F: Fn(f64) -> f64>(&self, f: F) -> f64 {
        f(self.potential(1.0))
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Spring {
    pub k: f64,
}

#[derive_frule]
impl Oscillator for Spring {
    const MASS: f64 = 2.0;
    fn new(stiffness: f64) -> Self {
        Spring { k: stiffness }
    }
    fn force(&self, q: f64) -> f64 {
        -self.k * q
    }
    fn potential(&self, q: f64) -> f64 {
        0.5 * self.k * q * q
    }
    fn turning_points(&self, e: f64) -> (f64, f64) {
        let a = (2.0 * e / self.k).sqrt();
        (-a, a)
    }
    fn stiffer(&self, factor: f64) -> Self {
        Spring { k: self.k * factor }
    }
}

/// `V = c q⁴ / 4 − b q² / 2`: a double well for `b > 0`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Duffing {
    pub c: f64,
    pub b: f64,
}

#[derive_frule]
impl Oscillator for Duffing {
    const MASS: f64 = 1.0;
    fn new(stiffness: f64) -> Self {
        Duffing {
            c: stiffness,
            b: 0.0,
        }
    }
    fn force(&self, q: f64) -> f64 {
        -self.c * q * q * q + self.b * q
    }
    fn potential(&self, q: f64) -> f64 {
        0.25 * self.c * q.powi(4) - 0.5 * self.b * q * q
    }
    fn turning_points(&self, e: f64) -> (f64, f64) {
        // c u²/4 − b u/2 − e = 0 in u = q².
        let u = (self.b + (self.b * self.b + 4.0 * self.c * e).sqrt()) / self.c;
        (-u.sqrt(), u.sqrt())
    }
    fn stiffer(&self, factor: f64) -> Self {
        Duffing {
            c: self.c * factor,
            b: self.b,
        }
    }
}

/// The energy after `n` steps from `(q0, p0)`.
#[derive_frule]
fn energy_after<O: Oscillator>(o: &O, q0: f64, p0: f64, dt: f64, n: usize) -> f64 {
    let mut s = State { q: q0, p: p0 };
    for _ in 0..n {
        s = o.step(s, dt);
    }
    o.energy(s)
}

/// The width of the orbit at energy `e` of the system stiffened by `factor`.
#[derive_frule]
fn stiffened_width<O: Oscillator>(o: &O, factor: f64, e: f64) -> f64 {
    let stiff = o.stiffer(factor);
    let (lo, hi) = stiff.turning_points(e);
    hi - lo
}

/// A fresh system of stiffness `k` built through the trait's constructor, next to `o`.
#[derive_frule]
fn rebuilt<O: Oscillator>(o: &O, k: f64, q: f64) -> f64 {
    let fresh = O::new(k);
    fresh.potential(q) * O::MASS + o.potential(q)
}

/// The state after `n` steps, as a state.
#[derive_frule]
fn evolve<O: Oscillator>(o: &O, s: State, dt: f64, n: usize) -> State {
    let mut s = s;
    for _ in 0..n {
        s = o.step(s, dt);
    }
    s
}

#[derive_frule]
fn period_or<O: Oscillator>(o: &O, fallback: f64) -> f64 {
    match o.small_period() {
        Some(t) => t,
        None => fallback,
    }
}

#[derive_frule]
fn curvature<O: Oscillator>(o: &O, q: f64) -> f64 {
    let [f, k] = o.force_and_curvature(q);
    f * f + k
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

fn fd(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * (1.0 + x.abs());
    (f(x + h) - f(x - h)) / (2.0 * h)
}

#[test]
fn user_type_results_and_associated_constants_in_every_mode() {
    let (dt, n) = (0.05, 40);
    for o in [Duffing { c: 1.3, b: 0.4 }, Duffing { c: 0.7, b: -0.2 }] {
        let x = [0.8, -0.3];
        let f = |x: &[f64]| energy_after(&o, x[0], x[1], dt, n);
        let (v, g) = gradient(bind(energy_after {}, (&o, Var(0), Var(1), dt, n)), &x);
        assert_eq!(v.to_bits(), f(&x).to_bits());
        for i in 0..2 {
            let want = fd(
                |t| {
                    let mut y = x;
                    y[i] = t;
                    f(&y)
                },
                x[i],
            );
            assert!(close(g[i], want, 1e-7), "∂{i}: {} vs {want}", g[i]);
        }
        let (_, g2, h) = hessian(bind(energy_after {}, (&o, Var(0), Var(1), dt, n)), &x);
        for i in 0..2 {
            assert!(close(g2[i], g[i], 1e-13));
            for j in 0..2 {
                let want = fd(
                    |t| {
                        let mut y = x;
                        y[j] = t;
                        gradient(bind(energy_after {}, (&o, Var(0), Var(1), dt, n)), &y).1[i]
                    },
                    x[j],
                );
                assert!(
                    close(h[(i, j)], want, 1e-6),
                    "H[{i},{j}]: {} vs {want}",
                    h[(i, j)]
                );
            }
        }
        // With respect to the system's own parameters, along c.
        let r = energy_after_frule(
            Dual::new(&o, &DuffingTangent { c: 1.0, b: 0.0 }),
            Dual::new(x[0], 0.0),
            Dual::new(x[1], 0.0),
            Dual::new(dt, 0.0),
            Dual::constant(n),
        );
        let want = fd(
            |c| energy_after(&Duffing { c, ..o }, x[0], x[1], dt, n),
            o.c,
        );
        assert_eq!(r.primal, v);
        assert!(close(r.tangent, want, 1e-7), "∂c: {} vs {want}", r.tangent);
    }
}

#[test]
fn spring_steps_are_the_linear_map() {
    // One step of symplectic Euler is linear: (q, p) ↦ (q + dt p'/m, p'), p' = p − dt k q.
    let (o, dt) = (Spring { k: 3.0 }, 0.1);
    let m = Spring::MASS;
    let r = evolve_frule(
        Dual::new(&o, &SpringTangent { k: 0.0 }),
        Dual::new(State { q: 0.5, p: 0.2 }, StateTangent { q: 1.0, p: 0.0 }),
        Dual::new(dt, 0.0),
        Dual::constant(1),
    );
    assert_eq!(r.primal, evolve(&o, State { q: 0.5, p: 0.2 }, dt, 1));
    // ∂/∂q: p' = −dt k, q' = 1 − dt² k / m.
    assert!(close(r.tangent.p, -dt * o.k, 1e-15));
    assert!(close(r.tangent.q, 1.0 - dt * dt * o.k / m, 1e-15));
}

#[test]
fn tuple_and_self_results() {
    // Spring: width 2 √(2e/(k f)).
    let (o, f, e) = (Spring { k: 2.5 }, 1.7, 0.9);
    let w = |k: f64, f: f64, e: f64| 2.0 * (2.0 * e / (k * f)).sqrt();
    let (v, g) = gradient(bind(stiffened_width {}, (&o, Var(0), Var(1))), &[f, e]);
    assert_eq!(v, stiffened_width(&o, f, e));
    assert!(close(v, w(o.k, f, e), 1e-15));
    assert!(close(g[0], -0.5 * w(o.k, f, e) / f, 1e-14));
    assert!(close(g[1], 0.5 * w(o.k, f, e) / e, 1e-14));
    let (_, _, h) = hessian(bind(stiffened_width {}, (&o, Var(0), Var(1))), &[f, e]);
    // ∂²w/∂f² = 3/4 w / f².
    assert!(close(h[(0, 0)], 0.75 * w(o.k, f, e) / (f * f), 1e-12));
    // Along the spring's k, through `stiffer`'s `Self` result.
    let r = stiffened_width_frule(
        Dual::new(&o, &SpringTangent { k: 1.0 }),
        Dual::new(f, 0.0),
        Dual::new(e, 0.0),
    );
    assert!(close(r.tangent, -0.5 * w(o.k, f, e) / o.k, 1e-14));
    // The double well, against differences.
    let d = Duffing { c: 1.1, b: 0.6 };
    let (_, g) = gradient(bind(stiffened_width {}, (&d, Var(0), Var(1))), &[f, e]);
    assert!(close(g[0], fd(|f| stiffened_width(&d, f, e), f), 1e-8));
    assert!(close(g[1], fd(|e| stiffened_width(&d, f, e), e), 1e-8));
}

#[test]
fn constructors_and_constants_through_the_parameter() {
    // rebuilt = m k q²/2 + k₀ q²/2 for springs.
    let o = Spring { k: 4.0 };
    let (v, g) = gradient(bind(rebuilt {}, (&o, Var(0), Var(1))), &[1.5, 0.3]);
    assert_eq!(v, rebuilt(&o, 1.5, 0.3));
    assert!(close(g[0], Spring::MASS * 0.5 * 0.3 * 0.3, 1e-15));
    assert!(close(g[1], Spring::MASS * 1.5 * 0.3 + o.k * 0.3, 1e-15));
    let d = Duffing { c: 1.0, b: 0.5 };
    let (_, _, h) = hessian(bind(rebuilt {}, (&d, Var(0), Var(1))), &[1.5, 0.3]);
    // ∂²/∂q² = 3 k q² + 3 c q² − b.
    assert!(close(h[(1, 1)], 3.0 * 1.5 * 0.09 + 3.0 * 0.09 - 0.5, 1e-13));
    assert!(close(h[(0, 1)], 0.3 * 0.3 * 0.3, 1e-13));
}

#[test]
fn option_and_array_results() {
    // Spring: T = 2π √(m/k) (the curvature by differences of a linear force is exact
    // up to rounding), dT/dk = −T/(2k).
    let o = Spring { k: 3.0 };
    let r = period_or_frule(
        Dual::new(&o, &SpringTangent { k: 1.0 }),
        Dual::new(1.0, 0.0),
    );
    let t = 2.0 * std::f64::consts::PI * (Spring::MASS / o.k).sqrt();
    assert_eq!(r.primal, period_or(&o, 1.0));
    assert!(close(r.primal, t, 1e-9));
    assert!(close(r.tangent, -t / (2.0 * o.k), 1e-7));
    // A double well has no small oscillations about 0: the fallback.
    let d = Duffing { c: 1.0, b: 0.5 };
    let (v, dv) = derivative(bind(period_or {}, (&d, Wrt)), 7.0);
    assert_eq!((v, dv), (7.0, 1.0));
    // [f, k] = [−k q, k]: f² + k.
    let (v, dv) = derivative(bind(curvature {}, (&o, Wrt)), 0.4);
    assert_eq!(v, curvature(&o, 0.4));
    assert!(close(dv, 2.0 * o.k * o.k * 0.4, 1e-9));
}

/// A time stepper that advances itself: `&mut self` and `self` methods.
#[derive_frule]
pub trait Integrator {
    fn advance(&mut self, dt: f64);
    fn position(&self) -> f64;
    fn velocity(&self) -> f64;
    fn run(&mut self, dt: f64, n: usize) {
        for _ in 0..n {
            self.advance(dt);
        }
    }
    fn phase(&self) -> [f64; 2] {
        [self.position(), self.velocity()]
    }
    fn kinetic(self) -> f64
    where
        Self: Sized,
    {
        0.5 * self.velocity() * self.velocity()
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Pendulum {
    pub theta: f64,
    pub omega: f64,
    pub g_over_l: f64,
}

#[derive_frule]
impl Integrator for Pendulum {
    fn advance(&mut self, dt: f64) {
        self.omega -= dt * self.g_over_l * self.theta.sin();
        self.theta += dt * self.omega;
    }
    fn position(&self) -> f64 {
        self.theta
    }
    fn velocity(&self) -> f64 {
        self.omega
    }
}

#[derive_frule]
fn swing<I: Integrator>(sys: &mut I, dt: f64, n: usize) -> f64 {
    sys.run(dt, n);
    sys.position()
}

#[derive_frule]
fn swing_owned<I: Integrator>(mut sys: I, dt: f64, n: usize) -> [f64; 2] {
    for _ in 0..n {
        sys.advance(dt);
    }
    sys.phase()
}

/// `self` by value, on a concrete type (through a generic parameter the rule would need
/// its tangent `Clone`, which a bound `I: Integrator` does not say).
#[derive_frule]
fn final_kinetic(mut sys: Pendulum, dt: f64, n: usize) -> f64 {
    sys.run(dt, n);
    sys.kinetic()
}

#[derive_frule]
fn swing_dyn(sys: &dyn Integrator, t: f64) -> f64 {
    sys.position() * t
}

#[test]
fn mut_self_methods_through_a_generic_parameter() {
    let (dt, n) = (0.01, 150);
    let p0 = Pendulum {
        theta: 0.9,
        omega: 0.0,
        g_over_l: 9.81,
    };
    let plain = |theta: f64, g: f64| {
        let mut p = Pendulum {
            theta,
            g_over_l: g,
            ..p0
        };
        swing(&mut p, dt, n)
    };
    let mut p = p0;
    let mut tp = PendulumTangent {
        theta: 1.0,
        omega: 0.0,
        g_over_l: 0.0,
    };
    let r = swing_frule(
        Dual::new(&mut p, &mut tp),
        Dual::new(dt, 0.0),
        Dual::constant(n),
    );
    assert_eq!(r.primal.to_bits(), plain(0.9, 9.81).to_bits());
    assert!(close(r.tangent, fd(|t| plain(t, 9.81), 0.9), 1e-7));
    // The state was advanced in place, and so was its tangent.
    let mut q = p0;
    q.run(dt, n);
    assert_eq!((p.theta, p.omega), (q.theta, q.omega));
    assert_eq!(tp.theta, r.tangent);
    // Owned, along g/l: the phase [θ, ω] as an array result.
    let r = swing_owned_frule(
        Dual::new(
            p0,
            PendulumTangent {
                theta: 0.0,
                omega: 0.0,
                g_over_l: 1.0,
            },
        ),
        Dual::new(dt, 0.0),
        Dual::constant(n),
    );
    assert_eq!(r.primal, swing_owned(p0, dt, n));
    let want = fd(|g| plain(0.9, g), 9.81);
    assert!(
        close(r.tangent[0], want, 1e-7),
        "{} vs {want}",
        r.tangent[0]
    );
    // `self` by value, second order in θ₀.
    let ke = |theta: f64| final_kinetic(Pendulum { theta, ..p0 }, dt, n);
    let r = final_kinetic_frule(
        Dual::new(
            p0,
            PendulumTangent {
                theta: 1.0,
                omega: 0.0,
                g_over_l: 0.0,
            },
        ),
        Dual::new(dt, 0.0),
        Dual::constant(n),
    );
    assert_eq!(r.primal, ke(0.9));
    assert!(close(r.tangent, fd(ke, 0.9), 1e-7));
}

#[test]
fn lane_methods_of_a_trait_with_mut_methods_on_dyn() {
    let p = Pendulum {
        theta: 0.4,
        omega: 1.0,
        g_over_l: 2.0,
    };
    let (v, d) = derivative(
        bind(swing_dyn {}, (fwdad::Const(&p as &dyn Integrator), Wrt)),
        3.0,
    );
    assert_eq!((v, d), (1.2000000000000002, 0.4));
}

/// A supertrait that does not require `Sized` keeps the trait usable as `dyn`.
#[derive_frule]
pub trait Named: std::fmt::Debug {
    fn weight(&self, x: f64) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Tent {
    pub h: f64,
}

#[derive_frule]
impl Named for Tent {
    fn weight(&self, x: f64) -> f64 {
        self.h * (1.0 - x.abs())
    }
}

#[derive_frule]
fn weighed(n: &dyn Named, x: f64) -> f64 {
    n.weight(x) * x
}

#[test]
fn dyn_trait_with_a_std_supertrait() {
    let t = Tent { h: 2.0 };
    // d/dx [h (1 − x) x] = h (1 − 2x) for x > 0.
    let (v, d) = derivative(
        bind(weighed {}, (fwdad::Const(&t as &dyn Named), Wrt)),
        0.25,
    );
    assert_eq!(v, weighed(&t, 0.25));
    assert_eq!(d, 2.0 * (1.0 - 0.5));
}
