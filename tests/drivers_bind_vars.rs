//! `bind` with `Var(i)`: the drivers differentiate a function of several scalars with
//! respect to any of them, against closed forms and central differences.

use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;

/// Range of a projectile on flat ground.
#[derive_frule]
fn range(v: f64, theta: f64, g: f64) -> f64 {
    v * v * (2.0 * theta).sin() / g
}

/// Polar to Cartesian coordinates.
#[derive_frule]
fn to_cartesian(r: f64, phi: f64) -> [f64; 2] {
    [r * phi.cos(), r * phi.sin()]
}

/// The standard normal CDF (Abramowitz–Stegun 26.2.17), as option pricers write it.
#[derive_frule]
fn norm_cdf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.2316419 * x.abs());
    let d = 0.3989423 * (-x * x / 2.0).exp();
    let p =
        d * t * (0.3193815 + t * (-0.3565638 + t * (1.781478 + t * (-1.821256 + t * 1.330274))));
    if x >= 0.0 {
        1.0 - p
    } else {
        p
    }
}

/// Black–Scholes price of a European call.
#[derive_frule]
fn bs_call(s: f64, k: f64, r: f64, sigma: f64, t: f64) -> f64 {
    let sqrt_t = t.sqrt();
    let d1 = ((s / k).ln() + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrt_t);
    let d2 = d1 - sigma * sqrt_t;
    s * norm_cdf(d1) - k * (-r * t).exp() * norm_cdf(d2)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

#[test]
fn gradient_and_hessian_of_the_projectile_range_over_two_of_its_three_scalars() {
    let (v, th, g) = (12.0, 0.6, 9.81);
    let (value, grad) = gradient(bind(range {}, (Var(0), Var(1), g)), &[v, th]);
    assert_eq!(value, range(v, th, g));
    let s2 = (2.0 * th).sin();
    let c2 = (2.0 * th).cos();
    assert!(close(grad[0], 2.0 * v * s2 / g, 1e-14));
    assert!(close(grad[1], 2.0 * v * v * c2 / g, 1e-14));

    let (_, _, h) = hessian(bind(range {}, (Var(0), Var(1), g)), &[v, th]);
    assert!(close(h[(0, 0)], 2.0 * s2 / g, 1e-14));
    assert!(close(h[(0, 1)], 4.0 * v * c2 / g, 1e-14));
    assert!(close(h[(1, 0)], 4.0 * v * c2 / g, 1e-14));
    assert!(close(h[(1, 1)], -4.0 * v * v * s2 / g, 1e-14));
}

#[test]
fn variables_in_any_order_and_position() {
    // The gravity and the speed, listed in the point in the other order.
    let (v, th, g) = (12.0, 0.6, 9.81);
    let (_, grad) = gradient(bind(range {}, (Var(1), th, Var(0))), &[g, v]);
    let s2 = (2.0 * th).sin();
    assert!(close(grad[0], -v * v * s2 / (g * g), 1e-14));
    assert!(close(grad[1], 2.0 * v * s2 / g, 1e-14));
}

#[test]
fn jacobian_of_polar_coordinates() {
    let (r, phi) = (2.5, 0.7);
    let (y, jac) = jacobian(bind(to_cartesian {}, (Var(0), Var(1))), &[r, phi]);
    assert_eq!(y, to_cartesian(r, phi).to_vec());
    assert!(close(jac[(0, 0)], phi.cos(), 1e-15));
    assert!(close(jac[(0, 1)], -r * phi.sin(), 1e-15));
    assert!(close(jac[(1, 0)], phi.sin(), 1e-15));
    assert!(close(jac[(1, 1)], r * phi.cos(), 1e-15));
}

#[test]
fn black_scholes_greeks_against_central_differences() {
    let p = [100.0, 95.0, 0.03, 0.2, 0.5];
    let (price, greeks) = gradient(
        bind(bs_call {}, (Var(0), Var(1), Var(2), Var(3), Var(4))),
        &p,
    );
    assert_eq!(price, bs_call(p[0], p[1], p[2], p[3], p[4]));
    let f = |q: &[f64]| bs_call(q[0], q[1], q[2], q[3], q[4]);
    for i in 0..5 {
        let h = 1e-6 * (1.0 + p[i].abs());
        let (mut up, mut dn) = (p, p);
        up[i] += h;
        dn[i] -= h;
        let fd = (f(&up) - f(&dn)) / (2.0 * h);
        assert!(
            close(greeks[i], fd, 1e-7),
            "greek {i}: {} vs {fd}",
            greeks[i]
        );
    }
    // Delta and vega only, the strike, rate and maturity fixed.
    let (_, dv) = gradient(
        bind(bs_call {}, (Var(0), 95.0, 0.03, Var(1), 0.5)),
        &[100.0, 0.2],
    );
    assert_eq!(dv, [greeks[0], greeks[3]]);
}

#[test]
#[should_panic(expected = "`Var(2)` is bound, but the point has 2 elements")]
fn a_variable_past_the_end_of_the_point_panics() {
    let _ = gradient(bind(range {}, (Var(0), Var(2), 9.81)), &[1.0, 0.5]);
}

#[test]
fn one_scalar_bound_for_derivative() {
    // R(θ) = v² sin 2θ / g, dR/dθ = 2 v² cos 2θ / g; the second derivative −4 v² sin 2θ / g.
    let (v, g, theta) = (12.0, 9.81, 0.6f64);
    let (r, dr) = derivative(bind(range {}, (v, Var(0), g)), theta);
    assert_eq!(r, range(v, theta, g));
    assert!((dr - 2.0 * v * v * (2.0 * theta).cos() / g).abs() < 1e-12);
    let (_, _, d2) = fwdad::drivers::second_derivative(bind(range {}, (v, Var(0), g)), theta);
    assert!((d2 + 4.0 * v * v * (2.0 * theta).sin() / g).abs() < 1e-12);
}

#[test]
#[should_panic(expected = "`Var(1)` is bound, but the point is one scalar")]
fn a_second_variable_of_one_scalar_panics() {
    let _ = derivative(bind(range {}, (12.0, Var(1), 9.81)), 0.6);
}
