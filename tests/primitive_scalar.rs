//! `#[primitive(d = ..)]`: scalar-partials rules shipped by `fwdad_special` (another
//! crate) and defined here, checked with `test_frule` in one direction and in batches, against
//! analytic first and second derivatives (`Hyper`), with active/inactive argument mixes,
//! and called from this crate's derived code.
// Hessian checks index matrices by (i, j) on purpose.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};
use fwdad::Hyper;
use fwdad_special::{chebyshev, hypot3, kepler, log1p_exp, log_add_exp, logistic};

fn sigma(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `d12` of a rule with `Hyper` seeds `u` (first direction) and `v` (second): `uᵀ∇²f v`.
fn hyper_seed(u: f64, v: f64) -> Hyper<f64, f64> {
    Hyper {
        d1: u,
        d2: v,
        d12: 0.0,
    }
}

// ---- one argument ----------------------------------------------------------------------

#[test]
fn unary_primitives_pass_test_frule() {
    for &x in &[-40.0, -3.0, -0.2, 0.0, 0.7, 5.0, 40.0] {
        test_frule(
            (x,),
            |a| log1p_exp(a.0),
            |a, da| fwdad_special::log1p_exp_frule(Dual::new(a.0, da.0)),
        );
        test_frule(
            (x,),
            |a| logistic(a.0),
            |a, da| fwdad_special::logistic_frule(Dual::new(a.0, da.0)),
        );
        test_frule_batched::<4, _, _>(
            (x,),
            |a| log1p_exp(a.0),
            |a, da| {
                <log1p_exp as Frule<_, Batch<f64, 4>>>::frule(
                    &log1p_exp {},
                    (Dual::new(a.0, da.0),),
                )
            },
        );
    }
}

#[test]
fn unary_primitives_match_analytic_derivatives() {
    for &x in &[-30.0, -2.5, -0.1, 0.0, 0.4, 3.0, 30.0] {
        let d = fwdad_special::log1p_exp_frule(Dual::new(x, 1.0));
        assert_eq!(d.primal.to_bits(), log1p_exp(x).to_bits());
        approx::assert_relative_eq!(d.tangent, sigma(x), max_relative = 1e-14);
        let d = fwdad_special::logistic_frule(Dual::new(x, 1.0));
        approx::assert_relative_eq!(d.tangent, sigma(x) * (1.0 - sigma(x)), max_relative = 1e-12);
        // Second order: f'' from the partial evaluated on duals.
        let h = <log1p_exp as Frule<_, Hyper<f64, f64>>>::frule(
            &log1p_exp {},
            (Dual::new(x, hyper_seed(1.0, 1.0)),),
        );
        approx::assert_relative_eq!(h.tangent.d1, sigma(x), max_relative = 1e-14);
        approx::assert_relative_eq!(
            h.tangent.d12,
            sigma(x) * (1.0 - sigma(x)),
            max_relative = 1e-12,
            // σ(1 - σ) cancels for large x, in the reference and in `exp(x - y)`'s tangent:
            // both are accurate to a few ulps of f' = σ ≈ 1 there, not of f''.
            epsilon = 1e-14
        );
        let s = sigma(x);
        let h = <logistic as Frule<_, Hyper<f64, f64>>>::frule(
            &logistic {},
            (Dual::new(x, hyper_seed(1.0, 1.0)),),
        );
        approx::assert_relative_eq!(
            h.tangent.d12,
            s * (1.0 - s) * (1.0 - 2.0 * s),
            max_relative = 1e-10,
            epsilon = 1e-14
        );
    }
}

// ---- an integer argument and a block of partials --------------------------------------

#[test]
fn chebyshev_passes_test_frule_and_matches_trig_form() {
    for n in 0..8u32 {
        for &x in &[-0.9, -0.3, 0.2, 0.75] {
            test_frule(
                (x,),
                |a| chebyshev(n, a.0),
                |a, da| fwdad_special::chebyshev_frule(Dual::constant(n), Dual::new(a.0, da.0)),
            );
            // T_n(cos θ) = cos nθ, so T_n'(x) = n sin nθ / sin θ and, from Chebyshev's
            // equation, T_n'' = (x T_n' - n² T_n) / (1 - x²).
            let (nf, th) = (n as f64, x.acos());
            let t = (nf * th).cos();
            let dt = nf * (nf * th).sin() / th.sin();
            let ddt = (x * dt - nf * nf * t) / (1.0 - x * x);
            let h = <chebyshev as Frule<_, Hyper<f64, f64>>>::frule(
                &chebyshev {},
                (Dual::constant(n), Dual::new(x, hyper_seed(1.0, 1.0))),
            );
            approx::assert_relative_eq!(h.primal, t, epsilon = 1e-12);
            approx::assert_relative_eq!(h.tangent.d1, dt, epsilon = 1e-11, max_relative = 1e-11);
            approx::assert_relative_eq!(h.tangent.d12, ddt, epsilon = 1e-9, max_relative = 1e-10);
        }
    }
}

// ---- two arguments, and the active/inactive mixes -------------------------------------

#[test]
fn log_add_exp_passes_test_frule() {
    for &(a, b) in &[(0.1, 0.7), (-3.0, 2.0), (50.0, -50.0), (1e3, 1e3)] {
        test_frule(
            (a, b),
            |p| log_add_exp(p.0, p.1),
            |p, dp| fwdad_special::log_add_exp_frule(Dual::new(p.0, dp.0), Dual::new(p.1, dp.1)),
        );
        test_frule_batched::<3, _, _>(
            (a, b),
            |p| log_add_exp(p.0, p.1),
            |p, dp| {
                <log_add_exp as Frule<_, Batch<f64, 3>>>::frule(
                    &log_add_exp {},
                    (Dual::new(p.0, dp.0), Dual::new(p.1, dp.1)),
                )
            },
        );
    }
}

#[test]
fn inactive_arguments_are_plain_f64s_and_cost_nothing() {
    let (a, b): (f64, f64) = (0.3, -1.2);
    let pa = a.exp() / (a.exp() + b.exp());
    // An inactive argument may be passed as a plain `f64`: its partial is not used.
    let only_a = <log_add_exp as Frule<_>>::frule(&log_add_exp {}, (Dual::new(a, 1.0), b));
    let only_b = <log_add_exp as Frule<_>>::frule(&log_add_exp {}, (a, Dual::new(b, 1.0)));
    let none = <log_add_exp as Frule<_>>::frule(&log_add_exp {}, (a, b));
    approx::assert_relative_eq!(only_a.tangent, pa, max_relative = 1e-14);
    approx::assert_relative_eq!(only_b.tangent, 1.0 - pa, max_relative = 1e-13);
    assert_eq!(none.tangent, 0.0);
    // ... and is the same as a constant dual.
    let constant = fwdad_special::log_add_exp_frule(Dual::new(a, 1.0), Dual::constant(b));
    assert_eq!(constant.tangent, only_a.tangent);
    // Second order with one inactive argument: ∂²/∂a² = pa (1 - pa).
    let h = <log_add_exp as Frule<_, Hyper<f64, f64>>>::frule(
        &log_add_exp {},
        (Dual::new(a, hyper_seed(1.0, 1.0)), b),
    );
    approx::assert_relative_eq!(h.tangent.d12, pa * (1.0 - pa), max_relative = 1e-13);
    // Three arguments, the middle one inactive: only x and z directions.
    let (x, y, z) = (1.0, 2.0, 2.0);
    let g = <hypot3 as Frule<_>>::frule(&hypot3 {}, (Dual::new(x, 1.0), y, Dual::new(z, 1.0)));
    assert_eq!(g.primal, 3.0);
    approx::assert_relative_eq!(g.tangent, (x + z) / 3.0, max_relative = 1e-15);
}

#[test]
fn log_add_exp_hessian_by_hyper() {
    let (a, b): (f64, f64) = (0.4, -0.9);
    let pa = a.exp() / (a.exp() + b.exp());
    let pb = 1.0 - pa;
    let hess = [[pa * pb, -pa * pb], [-pa * pb, pa * pb]];
    for i in 0..2 {
        for j in 0..2 {
            let e = |k: usize, l: usize| if k == l { 1.0 } else { 0.0 };
            let h = <log_add_exp as Frule<_, Hyper<f64, f64>>>::frule(
                &log_add_exp {},
                (
                    Dual::new(a, hyper_seed(e(i, 0), e(j, 0))),
                    Dual::new(b, hyper_seed(e(i, 1), e(j, 1))),
                ),
            );
            approx::assert_relative_eq!(h.tangent.d12, hess[i][j], max_relative = 1e-13);
        }
    }
}

// ---- three arguments (the n-ary path) --------------------------------------------------

#[test]
fn hypot3_passes_test_frule_and_hessian_matches() {
    let args = (1.0, -2.0, 0.5);
    test_frule(
        args,
        |p| hypot3(p.0, p.1, p.2),
        |p, dp| {
            fwdad_special::hypot3_frule(
                Dual::new(p.0, dp.0),
                Dual::new(p.1, dp.1),
                Dual::new(p.2, dp.2),
            )
        },
    );
    test_frule_batched::<4, _, _>(
        args,
        |p| hypot3(p.0, p.1, p.2),
        |p, dp| {
            <hypot3 as Frule<_, Batch<f64, 4>>>::frule(
                &hypot3 {},
                (
                    Dual::new(p.0, dp.0),
                    Dual::new(p.1, dp.1),
                    Dual::new(p.2, dp.2),
                ),
            )
        },
    );
    // ∂²r/∂xi∂xj = (δij r² - xi xj) / r³; a batch of 3 first directions and one second
    // direction gives a Hessian column per pass.
    let x = [args.0, args.1, args.2];
    let r = hypot3(x[0], x[1], x[2]);
    for j in 0..3 {
        let seed = |i: usize| Hyper {
            d1: Batch::<f64, 3>::unit(i),
            d2: if i == j { 1.0 } else { 0.0 },
            d12: Batch([0.0; 3]),
        };
        let h = <hypot3 as Frule<_, Hyper<f64, Batch<f64, 3>>>>::frule(
            &hypot3 {},
            (
                Dual::new(x[0], seed(0)),
                Dual::new(x[1], seed(1)),
                Dual::new(x[2], seed(2)),
            ),
        );
        for i in 0..3 {
            let delta = if i == j { r * r } else { 0.0 };
            let expected = (delta - x[i] * x[j]) / (r * r * r);
            approx::assert_relative_eq!(
                h.tangent.d12.0[i],
                expected,
                max_relative = 1e-13,
                epsilon = 1e-15
            );
            approx::assert_relative_eq!(h.tangent.d1.0[i], x[i] / r, max_relative = 1e-15);
        }
    }
}

// ---- the implicit-function rule --------------------------------------------------------

#[test]
fn kepler_solves_and_its_rule_is_the_implicit_derivative() {
    for &(m, e) in &[(0.3, 0.1), (1.2, 0.5), (-2.5, 0.7), (3.0, 0.95)] {
        let big_e = kepler(m, e);
        assert!((big_e - e * big_e.sin() - m).abs() < 1e-14, "not solved");
        test_frule(
            (m, e),
            |p| kepler(p.0, p.1),
            |p, dp| fwdad_special::kepler_frule(Dual::new(p.0, dp.0), Dual::new(p.1, dp.1)),
        );
        test_frule_batched::<2, _, _>(
            (m, e),
            |p| kepler(p.0, p.1),
            |p, dp| {
                <kepler as Frule<_, Batch<f64, 2>>>::frule(
                    &kepler {},
                    (Dual::new(p.0, dp.0), Dual::new(p.1, dp.1)),
                )
            },
        );
        // Second order: differentiate the analytic gradient by central differences.
        let grad = |m: f64, e: f64| {
            let y = kepler(m, e);
            let g = 1.0 - e * y.cos();
            [1.0 / g, y.sin() / g]
        };
        let h = 1e-5;
        let fd = [
            [
                (grad(m + h, e)[0] - grad(m - h, e)[0]) / (2.0 * h),
                (grad(m, e + h)[0] - grad(m, e - h)[0]) / (2.0 * h),
            ],
            [
                (grad(m + h, e)[1] - grad(m - h, e)[1]) / (2.0 * h),
                (grad(m, e + h)[1] - grad(m, e - h)[1]) / (2.0 * h),
            ],
        ];
        for i in 0..2 {
            for j in 0..2 {
                let e1 = |k: usize| if k == i { 1.0 } else { 0.0 };
                let e2 = |k: usize| if k == j { 1.0 } else { 0.0 };
                let out = <kepler as Frule<_, Hyper<f64, f64>>>::frule(
                    &kepler {},
                    (
                        Dual::new(m, hyper_seed(e1(0), e2(0))),
                        Dual::new(e, hyper_seed(e1(1), e2(1))),
                    ),
                );
                approx::assert_relative_eq!(
                    out.tangent.d12,
                    fd[i][j],
                    max_relative = 1e-6,
                    epsilon = 1e-8
                );
            }
        }
    }
}

// ---- used from derived code ------------------------------------------------------------

/// A model calling the primitives of another crate, with literal (inactive) arguments.
#[derive_frule]
fn model(x: f64, w: f64) -> f64 {
    let a = log1p_exp(w * x) + logistic(x - w);
    let b = log_add_exp(a, 2.0 * x);
    let c = hypot3(x, w, 1.5);
    b * c + chebyshev(3, x) + kepler(0.3 * x, 0.2) + fwdad_special::log_add_exp(1.0, w)
}

#[test]
fn derived_code_uses_primitive_rules_in_every_mode() {
    let (x, w) = (0.35, -0.8);
    test_frule(
        (x, w),
        |p| model(p.0, p.1),
        |p, dp| model_frule(Dual::new(p.0, dp.0), Dual::new(p.1, dp.1)),
    );
    test_frule_batched::<4, _, _>(
        (x, w),
        |p| model(p.0, p.1),
        |p, dp| {
            <model as Frule<_, Batch<f64, 4>>>::frule(
                &model {},
                (Dual::new(p.0, dp.0), Dual::new(p.1, dp.1)),
            )
        },
    );
    // The gradient in one batched pass equals the two single-direction passes bit for bit.
    let g = <model as Frule<_, Batch<f64, 2>>>::frule(
        &model {},
        (
            Dual::new(x, Batch([1.0, 0.0])),
            Dual::new(w, Batch([0.0, 1.0])),
        ),
    );
    let gx = model_frule(Dual::new(x, 1.0), Dual::new(w, 0.0)).tangent;
    let gw = model_frule(Dual::new(x, 0.0), Dual::new(w, 1.0)).tangent;
    assert_eq!(g.tangent.0, [gx, gw]);
    assert_eq!(g.primal.to_bits(), model(x, w).to_bits());
    // Second order: the Hessian by `Hyper` against central differences of the gradient.
    let grad = |x: f64, w: f64| {
        [
            model_frule(Dual::new(x, 1.0), Dual::new(w, 0.0)).tangent,
            model_frule(Dual::new(x, 0.0), Dual::new(w, 1.0)).tangent,
        ]
    };
    let h = 1e-5;
    for i in 0..2 {
        for j in 0..2 {
            let e = |k: usize, l: usize| if k == l { 1.0 } else { 0.0 };
            let out = <model as Frule<_, Hyper<f64, f64>>>::frule(
                &model {},
                (
                    Dual::new(x, hyper_seed(e(i, 0), e(j, 0))),
                    Dual::new(w, hyper_seed(e(i, 1), e(j, 1))),
                ),
            );
            let fd = (grad(x + h * e(j, 0), w + h * e(j, 1))[i]
                - grad(x - h * e(j, 0), w - h * e(j, 1))[i])
                / (2.0 * h);
            approx::assert_relative_eq!(out.tangent.d12, fd, max_relative = 1e-6, epsilon = 1e-8);
        }
    }
}

// ---- primitives defined in this crate --------------------------------------------------

/// A piecewise partial: comparisons and literal branches evaluate on duals too.
#[primitive(d = if x > 0.0 { 1.0 } else { f64::exp(x) })]
fn elu(x: f64) -> f64 {
    if x > 0.0 {
        x
    } else {
        x.exp_m1()
    }
}

/// `crate = path` names the facade explicitly.
#[primitive(d = 2.0 * x * c as f64, crate = ::fwdad)]
fn scaled_square(x: f64, c: i32) -> f64 {
    c as f64 * x * x
}

#[derive_frule]
fn local_user(x: f64) -> f64 {
    elu(x - 1.0) * scaled_square(x, 3)
}

#[test]
fn local_primitives() {
    for &x in &[-1.5, 0.5, 2.0] {
        test_frule((x,), |a| elu(a.0), |a, da| elu_frule(Dual::new(a.0, da.0)));
        test_frule(
            (x,),
            |a| local_user(a.0),
            |a, da| local_user_frule(Dual::new(a.0, da.0)),
        );
        let h = <elu as Frule<_, Hyper<f64, f64>>>::frule(
            &elu {},
            (Dual::new(x, hyper_seed(1.0, 1.0)),),
        );
        let expected = if x > 0.0 { 0.0 } else { x.exp() };
        assert_eq!(h.tangent.d12, expected);
    }
}

/// Typed `let`s in a block of partials (helper hunt J): in the copy evaluated on duals
/// (second order) each `f64` of their types is a dual.
#[primitive(d = {
    let g: f64 = 3.0 * x * x;
    let (a, b): (f64, usize) = (g, 2);
    a * b as f64 / 2.0
})]
fn cube(x: f64) -> f64 {
    x * x * x
}

/// Typed `let`s whose values are plain floats in both copies (an integer cast, a
/// constant): `π xⁿ`.
#[primitive(d = {
    let c: f64 = n as f64;
    let k: f64 = std::f64::consts::PI;
    k * c * x.powi(n as i32 - 1)
})]
fn pi_power(x: f64, n: u32) -> f64 {
    std::f64::consts::PI * x.powi(n as i32)
}

#[test]
fn typed_lets_of_plain_floats_in_partials() {
    use std::f64::consts::PI;
    for &x in &[-1.5, 0.5, 2.0] {
        let d =
            <pi_power as Frule<_>>::frule(&pi_power {}, (Dual::new(x, 1.0), Dual::constant(3u32)));
        assert!((d.tangent - 3.0 * PI * x * x).abs() < 1e-12);
        let h = <pi_power as Frule<_, Hyper<f64, f64>>>::frule(
            &pi_power {},
            (Dual::new(x, hyper_seed(1.0, 1.0)), Dual::constant(3u32)),
        );
        assert!((h.tangent.d12 - 6.0 * PI * x).abs() < 1e-12);
    }
}

/// A closure with typed parameters and result in the partials (review 5): its `f64`s are
/// duals in the second-order copy too. `d/dx (x² + 1)² = 4x(x² + 1)`.
#[primitive(d = {
    let inner = |t: f64| -> f64 { t * t + 1.0 };
    let twice = |a: f64, b: f64| 2.0 * a * b;
    twice(inner(x), 2.0 * x)
})]
fn squared_bump(x: f64) -> f64 {
    (x * x + 1.0) * (x * x + 1.0)
}

#[test]
fn typed_closures_in_partials() {
    for &x in &[-1.5, 0.5, 2.0] {
        let d = squared_bump_frule(Dual::new(x, 1.0));
        assert!((d.tangent - 4.0 * x * (x * x + 1.0)).abs() < 1e-12);
        let h = <squared_bump as Frule<_, Hyper<f64, f64>>>::frule(
            &squared_bump {},
            (Dual::new(x, hyper_seed(1.0, 1.0)),),
        );
        // (4x³ + 4x)' = 12x² + 4
        assert!((h.tangent.d12 - (12.0 * x * x + 4.0)).abs() < 1e-12);
    }
}

#[test]
fn typed_lets_in_partials() {
    for &x in &[-1.5, 0.5, 2.0] {
        let d = cube_frule(Dual::new(x, 1.0));
        assert_eq!(d.tangent, 3.0 * x * x);
        let h = <cube as Frule<_, Hyper<f64, f64>>>::frule(
            &cube {},
            (Dual::new(x, hyper_seed(1.0, 1.0)),),
        );
        assert_eq!(h.tangent.d12, 6.0 * x);
    }
}

/// A function of another crate (statrs) given a rule whose partial calls another plain
/// function of that crate: first order only.
#[primitive(d = statrs::function::gamma::digamma(x), order = 1)]
fn ln_gamma(x: f64) -> f64 {
    statrs::function::gamma::ln_gamma(x)
}

/// The negative log-likelihood of Student's t with ν degrees of freedom, as a
/// statistician writes it, in ν.
#[derive_frule]
fn student_t_nll(x: &[f64], nu: f64) -> f64 {
    let n = x.len() as f64;
    let norm =
        ln_gamma((nu + 1.0) / 2.0) - ln_gamma(nu / 2.0) - 0.5 * (nu * std::f64::consts::PI).ln();
    let mut s = 0.0;
    for xi in x {
        s += ((nu + 1.0) / 2.0) * (1.0 + xi * xi / nu).ln();
    }
    s - n * norm
}

#[test]
fn first_order_rule_with_a_plain_partial() {
    use statrs::function::gamma::digamma;
    let x = [0.3, -1.2, 2.5, 0.8];
    let nu = 4.5;
    let (v, d) = fwdad::drivers::derivative(
        fwdad::drivers::bind(student_t_nll {}, (&x[..], fwdad::drivers::Var(0))),
        nu,
    );
    assert_eq!(v.to_bits(), student_t_nll(&x, nu).to_bits());
    // d/dν: Σ [½ ln(1 + x²/ν) − (ν+1) x² / (2ν² (1 + x²/ν))] − n [½ψ((ν+1)/2) − ½ψ(ν/2) − 1/(2ν)].
    let n = x.len() as f64;
    let mut want = -n * (0.5 * digamma((nu + 1.0) / 2.0) - 0.5 * digamma(nu / 2.0) - 0.5 / nu);
    for xi in x {
        let q = 1.0 + xi * xi / nu;
        want += 0.5 * q.ln() - (nu + 1.0) * xi * xi / (2.0 * nu * nu * q);
    }
    assert!(
        (d - want).abs() < 1e-12 * (1.0 + want.abs()),
        "{d} vs {want}"
    );
}

#[test]
#[should_panic(expected = "`ln_gamma` has a first-order rule only")]
fn a_first_order_rule_refuses_second_order() {
    let _ = fwdad::drivers::second_derivative(ln_gamma {}, 2.5);
}
