//! The story: a spring-mass system with a `State` struct, an RK4 step over the
//! struct, derived through `#[derive(Differentiable)]` and `#[derive_frule]`, checked with
//! `test_frule` and against an analytic derivative.
use fwdad::prelude::*;
use fwdad::testing::test_frule;

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct State {
    pub x: f64,
    pub v: f64,
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    pub k: f64,
    pub m: f64,
    pub steps: usize,
}

/// Acceleration of the mass.
#[derive_frule]
fn accel(s: &Spring, st: State) -> State {
    State {
        x: st.v,
        v: -s.k / s.m * st.x,
    }
}

/// One RK4 step of size `h`.
#[derive_frule]
fn rk4(s: &Spring, st: State, h: f64) -> State {
    let k1 = accel(s, st);
    let k2 = accel(
        s,
        State {
            x: st.x + 0.5 * h * k1.x,
            v: st.v + 0.5 * h * k1.v,
        },
    );
    let k3 = accel(
        s,
        State {
            x: st.x + 0.5 * h * k2.x,
            v: st.v + 0.5 * h * k2.v,
        },
    );
    let k4 = accel(
        s,
        State {
            x: st.x + h * k3.x,
            v: st.v + h * k3.v,
        },
    );
    State {
        x: st.x + h / 6.0 * (k1.x + 2.0 * k2.x + 2.0 * k3.x + k4.x),
        v: st.v + h / 6.0 * (k1.v + 2.0 * k2.v + 2.0 * k3.v + k4.v),
    }
}

/// Position after `s.steps` RK4 steps from `x0` at rest.
#[derive_frule]
fn position(s: &Spring, x0: f64, h: f64) -> f64 {
    let mut st = State { x: x0, v: 0.0 };
    for _ in 0..s.steps {
        st = rk4(s, st, h);
    }
    st.x
}

#[test]
fn spring_sensitivities() {
    let spring = Spring {
        k: 4.0,
        m: 1.0,
        steps: 100,
    };
    test_frule(
        (spring, 0.5, 0.01),
        |a| position(&a.0, a.1, a.2),
        |a, da| {
            position_frule(
                Dual::new(&a.0, &da.0),
                Dual::new(a.1, da.1),
                Dual::new(a.2, da.2),
            )
        },
    );
    // Analytic: x(t) = x0 cos(ωt), ω = √(k/m), t = 1; ∂x/∂x0 = cos ω, ∂x/∂k = −x0 t sin(ωt)/(2ω m).
    let t = SpringTangent {
        k: 0.0,
        m: 0.0,
        steps: NoTangent,
    };
    let d = position_frule(
        Dual::new(&spring, &t),
        Dual::new(0.5, 1.0),
        Dual::new(0.01, 0.0),
    );
    approx::assert_relative_eq!(d.tangent, 2.0_f64.cos(), max_relative = 1e-8);
    let t = SpringTangent {
        k: 1.0,
        m: 0.0,
        steps: NoTangent,
    };
    let d = position_frule(
        Dual::new(&spring, &t),
        Dual::new(0.5, 0.0),
        Dual::new(0.01, 0.0),
    );
    approx::assert_relative_eq!(d.tangent, -0.5 * 2.0_f64.sin() / 4.0, max_relative = 1e-7);
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum Damping {
    None,
    Linear,
    Quadratic,
}

/// `match` on a fieldless enum (non-differentiable: its tangent is `NoTangent`).
#[derive_frule]
fn damping_force(kind: Damping, c: f64, v: f64) -> f64 {
    match kind {
        Damping::None => 0.0,
        Damping::Linear => -c * v,
        Damping::Quadratic => -c * v * v.abs(),
    }
}

#[test]
fn match_on_user_enum() {
    for (kind, expected) in [
        (Damping::None, 0.0),
        (Damping::Linear, -0.3),
        (Damping::Quadratic, -0.3 * 2.0 * 1.5),
    ] {
        let d = damping_force_frule(
            Dual::constant(kind),
            Dual::new(0.3, 0.0),
            Dual::new(1.5, 1.0),
        );
        assert_eq!(d.primal, damping_force(kind, 0.3, 1.5));
        approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-15);
    }
}
