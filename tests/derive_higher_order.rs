//! Functions passed as values (issue #28): closures and named functions given to the
//! user's own quadrature, root finders, ODE solvers and objectives, differentiated through
//! both the caller and the callee, in every mode. Derivatives are checked against central
//! finite differences of the plain functions and, where one exists, a closed form;
//! primals bit for bit against the plain functions.
use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};
use fwdad::Hyper;

/// Composite Simpson's rule on `[a, b]` with `n` (even) intervals.
#[derive_frule]
fn simpson<F: Fn(f64) -> f64>(f: F, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let mut s = f(a) + f(b);
    for i in 1..n {
        let x = a + i as f64 * h;
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        s += w * f(x);
    }
    s * h / 3.0
}

#[derive_frule]
fn loss(x: f64) -> f64 {
    (x - 1.0).powi(2)
}

#[derive_frule]
fn normal_pdf(x: f64, mu: f64, sigma: f64) -> f64 {
    let z = (x - mu) / sigma;
    (-0.5 * z * z).exp() / (sigma * (2.0 * std::f64::consts::PI).sqrt())
}

/// E[(X − 1)²] for X ~ N(μ, σ²), by quadrature over ±6: the integrand captures μ and σ.
#[derive_frule]
fn expected_loss(mu: f64, sigma: f64) -> f64 {
    simpson(|x| loss(x) * normal_pdf(x, mu, sigma), -6.0, 6.0, 200)
}

/// Central differences of a function of two scalars.
fn fd2(f: impl Fn(f64, f64) -> f64, a: f64, b: f64) -> [f64; 2] {
    let h = 1e-6;
    [
        (f(a + h, b) - f(a - h, b)) / (2.0 * h),
        (f(a, b + h) - f(a, b - h)) / (2.0 * h),
    ]
}

#[test]
fn quadrature_of_a_capturing_closure_one_direction() {
    let (mu, sigma) = (0.3, 0.8);
    test_frule(
        (mu, sigma),
        |a| expected_loss(a.0, a.1),
        |a, da| expected_loss_frule(Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
    );
    // Closed form: E[(X − 1)²] = (μ − 1)² + σ², so ∇ = (2(μ − 1), 2σ) up to the
    // quadrature's error (the integrand is truncated at ±6, 200 intervals).
    let dmu = expected_loss_frule(Dual::new(mu, 1.0), Dual::new(sigma, 0.0));
    let dsigma = expected_loss_frule(Dual::new(mu, 0.0), Dual::new(sigma, 1.0));
    assert_eq!(dmu.primal.to_bits(), expected_loss(mu, sigma).to_bits());
    approx::assert_relative_eq!(dmu.tangent, 2.0 * (mu - 1.0), max_relative = 1e-6);
    approx::assert_relative_eq!(dsigma.tangent, 2.0 * sigma, max_relative = 1e-6);
}

#[test]
fn quadrature_of_a_capturing_closure_batched_and_second_order() {
    let (mu, sigma) = (0.3, 0.8);
    test_frule_batched::<2, _, _>(
        (mu, sigma),
        |a| expected_loss(a.0, a.1),
        |a, da| {
            <expected_loss as Frule<_, Batch<f64, 2>>>::frule(
                &expected_loss {},
                (Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
            )
        },
    );
    // Hessian by Hyper tangents against central differences of the derived gradient.
    let grad = |m: f64, s: f64| {
        [
            expected_loss_frule(Dual::new(m, 1.0), Dual::new(s, 0.0)).tangent,
            expected_loss_frule(Dual::new(m, 0.0), Dual::new(s, 1.0)).tangent,
        ]
    };
    let dirs = [[1.0, 0.0], [0.0, 1.0]];
    for (i, u) in dirs.iter().enumerate() {
        let fd = fd2(|m, s| grad(m, s)[i], mu, sigma);
        for (j, v) in dirs.iter().enumerate() {
            let seed = |k: usize| Hyper {
                d1: u[k],
                d2: v[k],
                d12: 0.0,
            };
            let out = <expected_loss as Frule<_, Hyper<f64, f64>>>::frule(
                &expected_loss {},
                (Dual::new(mu, seed(0)), Dual::new(sigma, seed(1))),
            );
            assert_eq!(out.primal.to_bits(), expected_loss(mu, sigma).to_bits());
            approx::assert_relative_eq!(
                out.tangent.d12,
                fd[j],
                epsilon = 1e-6,
                max_relative = 1e-6
            );
        }
    }
    // The closed form's Hessian is diag(2, 2).
    let out = <expected_loss as Frule<_, Hyper<f64, f64>>>::frule(
        &expected_loss {},
        (
            Dual::new(
                mu,
                Hyper {
                    d1: 0.0,
                    d2: 0.0,
                    d12: 0.0,
                },
            ),
            Dual::new(
                sigma,
                Hyper {
                    d1: 1.0,
                    d2: 1.0,
                    d12: 0.0,
                },
            ),
        ),
    );
    approx::assert_relative_eq!(out.tangent.d12, 2.0, max_relative = 1e-5);
}

/// Newton's method on `g` with its derivative `dg`, both as trait objects.
#[derive_frule]
fn newton(g: &dyn Fn(f64) -> f64, dg: &dyn Fn(f64) -> f64, x0: f64) -> f64 {
    let mut x = x0;
    for _ in 0..60 {
        let step = g(x) / dg(x);
        x -= step;
        if step.abs() <= 1e-15 * x.abs() {
            break;
        }
    }
    x
}

/// The real cube root of `a > 0` by Newton on x³ − a.
#[derive_frule]
fn cube_root(a: f64) -> f64 {
    newton(&|x| x * x * x - a, &|x| 3.0 * x * x, 1.0)
}

#[test]
fn newton_with_dyn_fn_in_every_mode() {
    for a in [0.5, 2.0, 27.0] {
        test_frule(
            (a,),
            |p| cube_root(p.0),
            |p, dp| cube_root_frule(Dual::new(p.0, dp.0)),
        );
        test_frule_batched::<3, _, _>(
            (a,),
            |p| cube_root(p.0),
            |p, dp| {
                <cube_root as Frule<_, Batch<f64, 3>>>::frule(
                    &cube_root {},
                    (Dual::new(p.0, dp.0),),
                )
            },
        );
        // d/da a^(1/3) = a^(-2/3) / 3; d²/da² = −(2/9) a^(−5/3).
        let d = cube_root_frule(Dual::new(a, 1.0));
        assert_eq!(d.primal.to_bits(), cube_root(a).to_bits());
        approx::assert_relative_eq!(d.tangent, a.powf(-2.0 / 3.0) / 3.0, max_relative = 1e-12);
        let seed = Hyper {
            d1: 1.0,
            d2: 1.0,
            d12: 0.0,
        };
        let h =
            <cube_root as Frule<_, Hyper<f64, f64>>>::frule(&cube_root {}, (Dual::new(a, seed),));
        assert_eq!(h.primal.to_bits(), cube_root(a).to_bits());
        approx::assert_relative_eq!(
            h.tangent.d12,
            -2.0 / 9.0 * a.powf(-5.0 / 3.0),
            max_relative = 1e-9
        );
    }
}

/// Classical fourth-order Runge–Kutta for y' = f(t, y) from t = 0 to `t1` in `steps` steps.
#[derive_frule]
fn rk4(f: impl Fn(f64, &[f64]) -> Vec<f64>, y0: &[f64], t1: f64, steps: usize) -> Vec<f64> {
    let h = t1 / steps as f64;
    let n = y0.len();
    let mut y = y0.to_vec();
    let mut t = 0.0;
    for _ in 0..steps {
        let k1 = f(t, &y);
        let mut tmp = vec![0.0; n];
        for i in 0..n {
            tmp[i] = y[i] + 0.5 * h * k1[i];
        }
        let k2 = f(t + 0.5 * h, &tmp);
        for i in 0..n {
            tmp[i] = y[i] + 0.5 * h * k2[i];
        }
        let k3 = f(t + 0.5 * h, &tmp);
        for i in 0..n {
            tmp[i] = y[i] + h * k3[i];
        }
        let k4 = f(t + h, &tmp);
        for i in 0..n {
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
        t += h;
    }
    y
}

/// Lotka–Volterra predator–prey right-hand side, parameters (α, β, δ, γ).
#[derive_frule]
fn lv_rhs(_t: f64, y: &[f64], p: &[f64]) -> Vec<f64> {
    vec![
        p[0] * y[0] - p[1] * y[0] * y[1],
        p[2] * y[0] * y[1] - p[3] * y[1],
    ]
}

/// Prey population at t = 10.
#[derive_frule]
fn lotka_volterra(p: &[f64]) -> f64 {
    let y = rk4(|t, y| lv_rhs(t, y, p), &[1.0, 0.5], 10.0, 500);
    y[0]
}

fn fd_grad(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|k| {
            let h = 1e-6 * x[k].abs().max(1.0);
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[k] += h;
            b[k] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

#[test]
fn lotka_volterra_sensitivities_through_rk4_with_impl_fn() {
    let p = [1.1, 0.4, 0.1, 0.4];
    let (v, g) = gradient(lotka_volterra {}, &p);
    assert_eq!(v.to_bits(), lotka_volterra(&p).to_bits());
    let fd = fd_grad(lotka_volterra, &p);
    for k in 0..4 {
        approx::assert_relative_eq!(g[k], fd[k], max_relative = 1e-6);
    }
    // One direction agrees with the batched gradient to rounding.
    let d = lotka_volterra_frule(Dual::new(&p[..], &[0.0, 1.0, 0.0, 0.0][..]));
    approx::assert_relative_eq!(d.tangent, g[1], max_relative = 1e-12);
    // Second order: the Hessian against differences of the derived gradient.
    let (hv, hg, h) = hessian(lotka_volterra {}, &p);
    assert_eq!(hv.to_bits(), lotka_volterra(&p).to_bits());
    for i in 0..4 {
        approx::assert_relative_eq!(hg[i], g[i], max_relative = 1e-12);
        let col = fd_grad(|q| gradient(lotka_volterra {}, q).1[i], &p);
        for j in 0..4 {
            approx::assert_relative_eq!(h[(i, j)], col[j], epsilon = 1e-6, max_relative = 1e-5);
        }
    }
}

/// The quadratic-penalty objective of min (x − 1)² + (y − 2)² subject to x + y = s:
/// built once, evaluated later.
#[derive_frule]
fn penalty_objective(mu: f64, s: f64) -> impl Fn(f64, f64) -> f64 {
    move |x, y| (x - 1.0).powi(2) + (y - 2.0).powi(2) + mu * (x + y - s).powi(2)
}

/// The same objective as a boxed trait object.
#[derive_frule]
fn boxed_penalty(mu: f64, s: f64) -> Box<dyn Fn(f64, f64) -> f64> {
    Box::new(move |x, y| (x - 1.0).powi(2) + (y - 2.0).powi(2) + mu * (x + y - s).powi(2))
}

/// A penalty method: for growing μ, minimise the penalised objective by gradient
/// descent with a hand-written gradient; the minimiser's x-coordinate.
#[derive_frule]
fn penalty_method(s: f64) -> f64 {
    let (mut x, mut y) = (0.0, 0.0);
    let mut mu = 1.0;
    for _ in 0..6 {
        let obj = penalty_objective(mu, s);
        let step = 0.5 / (1.0 + 2.0 * mu);
        for _ in 0..200 {
            let h = 1e-7;
            let gx = (obj(x + h, y) - obj(x - h, y)) / (2.0 * h);
            let gy = (obj(x, y + h) - obj(x, y - h)) / (2.0 * h);
            x -= step * gx;
            y -= step * gy;
        }
        mu *= 10.0;
    }
    x
}

#[derive_frule]
fn penalised_value(x: f64, y: f64, mu: f64) -> f64 {
    let f = penalty_objective(mu, 2.0);
    let g = boxed_penalty(mu, 2.0);
    f(x, y) + 0.5 * g(y, x)
}

#[test]
fn objective_returned_as_impl_fn_and_box_dyn_fn() {
    let args = (0.4, 1.3, 3.0);
    let plain = |a: &mut (f64, f64, f64)| penalised_value(a.0, a.1, a.2);
    test_frule(args, plain, |a, da| {
        penalised_value_frule(
            Dual::new(a.0, da.0),
            Dual::new(a.1, da.1),
            Dual::new(a.2, da.2),
        )
    });
    test_frule_batched::<3, _, _>(args, plain, |a, da| {
        <penalised_value as Frule<_, Batch<f64, 3>>>::frule(
            &penalised_value {},
            (
                Dual::new(a.0, da.0),
                Dual::new(a.1, da.1),
                Dual::new(a.2, da.2),
            ),
        )
    });
    // ∂/∂μ of f(x, y) + ½ g(y, x) = 1.5 (x + y − 2)², by hand.
    let (x, y, mu) = args;
    let d = penalised_value_frule(Dual::new(x, 0.0), Dual::new(y, 0.0), Dual::new(mu, 1.0));
    assert_eq!(d.primal.to_bits(), penalised_value(x, y, mu).to_bits());
    approx::assert_relative_eq!(d.tangent, 1.5 * (x + y - 2.0).powi(2), max_relative = 1e-14);
    // Second order: ∂²/∂μ∂x = 3 (x + y − 2).
    let h = <penalised_value as Frule<_, Hyper<f64, f64>>>::frule(
        &penalised_value {},
        (
            Dual::new(
                x,
                Hyper {
                    d1: 0.0,
                    d2: 1.0,
                    d12: 0.0,
                },
            ),
            Dual::new(
                y,
                Hyper {
                    d1: 0.0,
                    d2: 0.0,
                    d12: 0.0,
                },
            ),
            Dual::new(
                mu,
                Hyper {
                    d1: 1.0,
                    d2: 0.0,
                    d12: 0.0,
                },
            ),
        ),
    );
    approx::assert_relative_eq!(h.tangent.d12, 3.0 * (x + y - 2.0), max_relative = 1e-13);
}

#[test]
fn penalty_method_sensitivity() {
    // The constrained minimiser is x = (s − 1)/2, so dx/ds → 1/2 as μ grows (here
    // μ = 10⁵: dx/ds = μ/(1 + 2μ)); checked against central differences of the solver.
    let s = 2.5;
    let d = penalty_method_frule(Dual::new(s, 1.0));
    assert_eq!(d.primal.to_bits(), penalty_method(s).to_bits());
    let h = 1e-4;
    let fd = (penalty_method(s + h) - penalty_method(s - h)) / (2.0 * h);
    approx::assert_relative_eq!(d.tangent, fd, max_relative = 1e-6);
    approx::assert_relative_eq!(d.tangent, 1e5 / (1.0 + 2e5), max_relative = 1e-6);
    let b = <penalty_method as Frule<_, Batch<f64, 2>>>::frule(
        &penalty_method {},
        (Dual::new(s, Batch([1.0, 2.0])),),
    );
    assert_eq!(b.primal.to_bits(), penalty_method(s).to_bits());
    // Lane 2 is twice the one-direction tangent to rounding: the batch and the one-direction
    // rule simplify their tangents differently, and the solver's central differences
    // (h = 1e-7) amplify a tangent's rounding by about 1/h (relative 1e-16 → 1e-9).
    approx::assert_relative_eq!(b.tangent.0[1], 2.0 * d.tangent, max_relative = 1e-9);
}

#[derive_frule]
fn bump(x: f64) -> f64 {
    x * x.sin()
}

/// Named functions as values: a `std` float function, a function of the user's, and a
/// `let`-bound closure (by reference, to a generic `F`); a function pointer parameter; a
/// function value passed on.
#[allow(clippy::needless_borrows_for_generic_args)]
#[derive_frule]
fn integrals(k: f64) -> f64 {
    let scaled = |x: f64| (k * x).cos();
    let by_name = simpson(f64::sin, 0.0, k, 40) + simpson(bump, 0.0, k, 40);
    by_name + simpson(&scaled, 0.0, 1.0, 40) + midpoint(f64::exp, 0.0, k) + twice(scaled, k)
}

/// The midpoint rule through a `fn` pointer.
#[derive_frule]
fn midpoint(f: fn(f64) -> f64, a: f64, b: f64) -> f64 {
    (b - a) * f(0.5 * (a + b))
}

/// Passes its own function value on.
#[derive_frule]
fn twice<F: Fn(f64) -> f64>(f: F, b: f64) -> f64 {
    2.0 * simpson(f, 0.0, b, 20)
}

#[test]
fn named_functions_and_fn_pointers_as_values() {
    for k in [0.7, 1.9] {
        test_frule(
            (k,),
            |a| integrals(a.0),
            |a, da| integrals_frule(Dual::new(a.0, da.0)),
        );
        test_frule_batched::<2, _, _>(
            (k,),
            |a| integrals(a.0),
            |a, da| {
                <integrals as Frule<_, Batch<f64, 2>>>::frule(
                    &integrals {},
                    (Dual::new(a.0, da.0),),
                )
            },
        );
        let seed = Hyper {
            d1: 1.0,
            d2: 1.0,
            d12: 0.0,
        };
        let h =
            <integrals as Frule<_, Hyper<f64, f64>>>::frule(&integrals {}, (Dual::new(k, seed),));
        assert_eq!(h.primal.to_bits(), integrals(k).to_bits());
        let e = 1e-4;
        let fd2 = (integrals(k + e) - 2.0 * integrals(k) + integrals(k - e)) / (e * e);
        approx::assert_relative_eq!(h.tangent.d12, fd2, max_relative = 1e-5);
    }
}

/// Σ f(x) over the points where `f` is defined.
#[derive_frule]
fn sum_defined<F: Fn(f64) -> Option<f64>>(f: F, xs: &[f64]) -> f64 {
    let mut s = 0.0;
    for &x in xs {
        if let Some(v) = f(x) {
            s += v;
        }
    }
    s
}

#[derive_frule]
fn checked_log(x: f64) -> Option<f64> {
    if x > 0.0 {
        Some(x.ln())
    } else {
        None
    }
}

/// `return` and `?` inside closures passed to functions.
#[derive_frule]
fn early_exits(c: f64, xs: &[f64]) -> f64 {
    let clipped = simpson(
        |x| {
            if x > c {
                return c * c;
            }
            x * x
        },
        0.0,
        2.0,
        40,
    );
    let logs = sum_defined(
        |x| -> Option<f64> {
            let l = checked_log(x - c)?;
            Some(c * l)
        },
        xs,
    );
    clipped + logs
}

#[test]
fn return_and_question_mark_in_closures() {
    let xs = vec![-1.0, 0.5, 2.0, 3.5];
    // Away from the quadrature nodes (multiples of 0.05), where the clipped sum has kinks.
    for c in [0.33, 1.22] {
        let plain = |a: &mut (f64, Vec<f64>)| early_exits(a.0, &a.1);
        test_frule((c, xs.clone()), plain, |a, da| {
            early_exits_frule(Dual::new(a.0, da.0), Dual::new(&a.1[..], &da.1[..]))
        });
        test_frule_batched::<2, _, _>((c, xs.clone()), plain, |a, da| {
            <early_exits as Frule<_, Batch<f64, 2>>>::frule(
                &early_exits {},
                (Dual::new(a.0, da.0), Dual::new(&a.1[..], &da.1[..])),
            )
        });
        let seed = Hyper {
            d1: 1.0,
            d2: 1.0,
            d12: 0.0,
        };
        let zero = vec![
            Hyper {
                d1: 0.0,
                d2: 0.0,
                d12: 0.0
            };
            xs.len()
        ];
        let h = <early_exits as Frule<_, Hyper<f64, f64>>>::frule(
            &early_exits {},
            (Dual::new(c, seed), Dual::new(&xs[..], &zero[..])),
        );
        assert_eq!(h.primal.to_bits(), early_exits(c, &xs).to_bits());
        let e = 1e-4;
        let f = |c: f64| early_exits(c, &xs);
        let fd2 = (f(c + e) - 2.0 * f(c) + f(c - e)) / (e * e);
        approx::assert_relative_eq!(h.tangent.d12, fd2, max_relative = 1e-4);
    }
}

/// A root finder whose rule is written by hand (the implicit-function theorem): the
/// iterations are not differentiated.
#[primitive(rule = solve_rule)]
fn solve(g: &dyn Fn(f64) -> f64, dg: &dyn Fn(f64) -> f64, x0: f64) -> f64 {
    let mut x = x0;
    for _ in 0..100 {
        let step = g(x) / dg(x);
        x -= step;
        if step.abs() <= 1e-15 * x.abs() {
            break;
        }
    }
    x
}

/// At the root x* of g(·, p): two Newton steps in dual arithmetic from the constant x*
/// give the tangent of x*(p) exactly to second order (each step doubles the order).
fn solve_rule<T: fwdad::ScalarTangent<f64>>(
    g: &dyn Fn(Dual<f64, T>) -> Dual<f64, T>,
    dg: &dyn Fn(Dual<f64, T>) -> Dual<f64, T>,
    x0: Dual<f64, T>,
) -> Dual<f64, T> {
    let constant = |x: f64| Dual::new(x, T::zero());
    let root = solve(
        &|x| g(constant(x)).primal,
        &|x| dg(constant(x)).primal,
        x0.primal,
    );
    let mut x = constant(root);
    for _ in 0..2 {
        x = x - g(x) / dg(x);
    }
    Dual::new(root, x.tangent)
}

/// The cube root of `a` through the hand-ruled solver.
#[derive_frule]
fn cube_root_implicit(a: f64) -> f64 {
    solve(&|x| x * x * x - a, &|x| 3.0 * x * x, 1.0)
}

#[test]
fn primitive_solver_with_closures() {
    for a in [0.5, 2.0, 27.0] {
        test_frule(
            (a,),
            |p| cube_root_implicit(p.0),
            |p, dp| cube_root_implicit_frule(Dual::new(p.0, dp.0)),
        );
        let d = cube_root_implicit_frule(Dual::new(a, 1.0));
        assert_eq!(d.primal.to_bits(), cube_root_implicit(a).to_bits());
        approx::assert_relative_eq!(d.tangent, a.powf(-2.0 / 3.0) / 3.0, max_relative = 1e-12);
        let b = <cube_root_implicit as Frule<_, Batch<f64, 2>>>::frule(
            &cube_root_implicit {},
            (Dual::new(a, Batch([1.0, -3.0])),),
        );
        approx::assert_relative_eq!(b.tangent.0[1], -3.0 * d.tangent, max_relative = 1e-14);
        let seed = Hyper {
            d1: 1.0,
            d2: 1.0,
            d12: 0.0,
        };
        let h = <cube_root_implicit as Frule<_, Hyper<f64, f64>>>::frule(
            &cube_root_implicit {},
            (Dual::new(a, seed),),
        );
        assert_eq!(h.primal.to_bits(), cube_root_implicit(a).to_bits());
        approx::assert_relative_eq!(
            h.tangent.d12,
            -2.0 / 9.0 * a.powf(-5.0 / 3.0),
            max_relative = 1e-9
        );
    }
}

/// A returned closure that borrows a slice argument.
#[derive_frule]
fn affine<'a>(w: &'a [f64]) -> Box<dyn Fn(f64) -> f64 + 'a> {
    Box::new(move |x| w[0] * x + w[1])
}

#[derive_frule]
fn affine_at(w: &[f64], x: f64) -> f64 {
    let f = affine(w);
    f(x) * f(2.0 * x)
}

#[test]
fn returned_closure_borrowing_an_argument() {
    let args = (vec![0.7, -0.2], 1.3);
    let plain = |a: &mut (Vec<f64>, f64)| affine_at(&a.0, a.1);
    test_frule(args.clone(), plain, |a, da| {
        affine_at_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1))
    });
    test_frule_batched::<2, _, _>(args, plain, |a, da| {
        <affine_at as Frule<_, Batch<f64, 2>>>::frule(
            &affine_at {},
            (Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
        )
    });
    // (w0 x + w1)(2 w0 x + w1): ∂/∂x = w0 (2 w0 x + w1) + 2 w0 (w0 x + w1).
    let (w, x) = ([0.7, -0.2], 1.3);
    let d = affine_at_frule(Dual::new(&w[..], &[0.0, 0.0][..]), Dual::new(x, 1.0));
    assert_eq!(d.primal.to_bits(), affine_at(&w, x).to_bits());
    let expected = w[0] * (2.0 * w[0] * x + w[1]) + 2.0 * w[0] * (w[0] * x + w[1]);
    approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-14);
    let (_, _, h) = hessian(bind(affine_at {}, (Wrt, x)), &w);
    // (w0 x + w1)(2 w0 x + w1) = 2x² w0² + 3x w0 w1 + w1²: its Hessian in w.
    approx::assert_relative_eq!(h[(0, 0)], 4.0 * x * x, max_relative = 1e-14);
    approx::assert_relative_eq!(h[(1, 1)], 2.0, max_relative = 1e-14);
    approx::assert_relative_eq!(h[(0, 1)], 3.0 * x, max_relative = 1e-14);
}

/// Explicit Euler for y' = f(t, y), the right-hand side writing into a buffer.
#[allow(clippy::type_complexity)]
#[derive_frule]
fn euler(rhs: &mut dyn FnMut(f64, &[f64], &mut [f64]), y: &mut [f64], t1: f64, steps: usize) {
    let h = t1 / steps as f64;
    let mut dy = vec![0.0; y.len()];
    for k in 0..steps {
        rhs(k as f64 * h, y, &mut dy);
        for i in 0..y.len() {
            y[i] += h * dy[i];
        }
    }
}

/// Exponential decay at rate `r` and a forced oscillator, integrated in place.
#[derive_frule]
fn decay(r: f64, w: f64) -> f64 {
    let mut y = [1.0, 0.0];
    euler(
        &mut |t, y, out| {
            out[0] = -r * y[0];
            out[1] = (w * t).sin() - y[1];
        },
        &mut y,
        1.0,
        100,
    );
    y[0] + y[1]
}

#[test]
fn fn_mut_right_hand_side_writing_a_buffer() {
    let args = (0.8, 2.5);
    let plain = |a: &mut (f64, f64)| decay(a.0, a.1);
    test_frule(args, plain, |a, da| {
        decay_frule(Dual::new(a.0, da.0), Dual::new(a.1, da.1))
    });
    test_frule_batched::<2, _, _>(args, plain, |a, da| {
        <decay as Frule<_, Batch<f64, 2>>>::frule(
            &decay {},
            (Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
        )
    });
    // y₀ = (1 − r h)ⁿ exactly: ∂/∂r = −n h (1 − r h)ⁿ⁻¹.
    let (r, w) = args;
    let d = decay_frule(Dual::new(r, 1.0), Dual::new(w, 0.0));
    assert_eq!(d.primal.to_bits(), decay(r, w).to_bits());
    approx::assert_relative_eq!(
        d.tangent,
        -(1.0 - r * 0.01f64).powi(99),
        max_relative = 1e-12
    );
}

/// A closure capturing a local `Vec` and an element of a slice argument.
#[derive_frule]
fn local_captures(k: f64, c: &[f64]) -> f64 {
    let v: Vec<f64> = c.iter().map(|ci| ci * k).collect();
    let c1 = c[1];
    simpson(|x| v[0] * x + v[1] * x * x + c1, 0.0, 1.0, 10)
}

#[test]
fn closures_capturing_a_local_vec() {
    let args = (0.6, vec![1.5, -0.5]);
    let plain = |a: &mut (f64, Vec<f64>)| local_captures(a.0, &a.1);
    test_frule(args.clone(), plain, |a, da| {
        local_captures_frule(Dual::new(a.0, da.0), Dual::new(&a.1[..], &da.1[..]))
    });
    test_frule_batched::<2, _, _>(args, plain, |a, da| {
        <local_captures as Frule<_, Batch<f64, 2>>>::frule(
            &local_captures {},
            (Dual::new(a.0, da.0), Dual::new(&a.1[..], &da.1[..])),
        )
    });
    // ∫₀¹ (c₀ k x + c₁ k x² + c₁) dx = c₀ k/2 + c₁ k/3 + c₁ (Simpson is exact on
    // quadratics): ∂/∂k = c₀/2 + c₁/3, ∂/∂c₁ = k/3 + 1.
    let (k, c) = (0.6, [1.5, -0.5]);
    let d = local_captures_frule(Dual::new(k, 1.0), Dual::new(&c[..], &[0.0, 0.0][..]));
    assert_eq!(d.primal.to_bits(), local_captures(k, &c).to_bits());
    approx::assert_relative_eq!(d.tangent, c[0] / 2.0 + c[1] / 3.0, max_relative = 1e-13);
    let d = local_captures_frule(Dual::new(k, 0.0), Dual::new(&c[..], &[0.0, 1.0][..]));
    approx::assert_relative_eq!(d.tangent, k / 3.0 + 1.0, max_relative = 1e-13);
}
