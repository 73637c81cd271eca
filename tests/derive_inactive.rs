//! `#[derive_frule(inactive(..))]`: borrowed data the rule treats as constants, taken as
//! plain references (no zero tangents to build). Derivatives are checked against gradients
//! written by hand from the math and against the same function without the attribute;
//! passing an argument that carries a tangent is a compile error (`tests/ui`).
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use fwdad::drivers::{bind, gradient, Inactive, Wrt};
use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};

/// A weighted least-squares loss: Σᵢ w · (θ₀ + θ₁ xᵢ − yᵢ)² + λ‖θ‖², with the data
/// constant.
#[derive_frule(inactive(x, y))]
fn loss(theta: &[f64], x: &[f64], y: &[f64], w: f64, lambda: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let r = theta[0] + theta[1] * x[i] - y[i];
        s += w * r * r;
    }
    s + lambda * (theta[0] * theta[0] + theta[1] * theta[1])
}

/// The same function without the attribute: every `f64` parameter may carry a tangent.
#[derive_frule]
fn loss_all_active(theta: &[f64], x: &[f64], y: &[f64], w: f64, lambda: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let r = theta[0] + theta[1] * x[i] - y[i];
        s += w * r * r;
    }
    s + lambda * (theta[0] * theta[0] + theta[1] * theta[1])
}

/// ∂loss/∂θ and ∂loss/∂w, by hand.
fn loss_grad(theta: &[f64], x: &[f64], y: &[f64], w: f64, lambda: f64) -> ([f64; 2], f64) {
    let (mut g0, mut g1, mut gw) = (0.0, 0.0, 0.0);
    for i in 0..x.len() {
        let r = theta[0] + theta[1] * x[i] - y[i];
        g0 += 2.0 * w * r;
        g1 += 2.0 * w * r * x[i];
        gw += r * r;
    }
    (
        [g0 + 2.0 * lambda * theta[0], g1 + 2.0 * lambda * theta[1]],
        gw,
    )
}

fn data() -> (Vec<f64>, Vec<f64>) {
    let x: Vec<f64> = (0..9).map(|i| -1.0 + 0.3 * i as f64).collect();
    let y: Vec<f64> = x
        .iter()
        .map(|v| 0.5 - 1.5 * v + 0.1 * (3.0 * v).sin())
        .collect();
    (x, y)
}

#[test]
fn gradient_through_bind_matches_the_hand_gradient() {
    let (x, y) = data();
    let theta = [0.3, -1.2];
    let rule = bind(
        loss {},
        (Wrt, Inactive(&x[..]), Inactive(&y[..]), 0.7, 0.05),
    );
    let (v, g) = gradient(rule, &theta);
    assert_eq!(v, loss(&theta, &x, &y, 0.7, 0.05));
    let (exact, _) = loss_grad(&theta, &x, &y, 0.7, 0.05);
    assert_relative_eq!(g[0], exact[0], max_relative = 1e-14);
    assert_relative_eq!(g[1], exact[1], max_relative = 1e-14);
    // The same numbers as the function without the attribute (its data given zero
    // tangents by `bind`).
    let (v2, g2) = gradient(
        bind(loss_all_active {}, (Wrt, &x[..], &y[..], 0.7, 0.05)),
        &theta,
    );
    assert_eq!(v2, loss_all_active(&theta, &x, &y, 0.7, 0.05));
    assert_eq!(v, v2);
    assert_relative_eq!(g[0], g2[0], max_relative = 1e-14);
    assert_relative_eq!(g[1], g2[1], max_relative = 1e-14);
}

#[test]
fn wrapper_takes_inactive_parameters_plain() {
    let (x, y) = data();
    let theta = [0.3, -1.2];
    let dtheta = [0.25, -2.0];
    // `x` and `y` plain; `w` a dual whose tangent counts.
    let out = loss_frule(
        Dual::new(&theta[..], &dtheta[..]),
        &x,
        &y,
        Dual::new(0.7, 3.0),
        Dual::constant(0.05),
    );
    let (g, gw) = loss_grad(&theta, &x, &y, 0.7, 0.05);
    let exact = g[0] * dtheta[0] + g[1] * dtheta[1] + gw * 3.0;
    assert_eq!(out.primal, loss(&theta, &x, &y, 0.7, 0.05));
    assert_relative_eq!(out.tangent, exact, max_relative = 1e-14);
}

#[test]
fn rule_passes_test_frule_one_direction_and_batched() {
    let (x, y) = data();
    let args = (vec![0.3, -1.2], 0.7);
    // The inactive data are captured, as `test_frule` expects of constants.
    test_frule(
        args.clone(),
        |a| loss(&a.0, &x, &y, a.1, 0.05),
        |a, da| {
            loss_frule(
                Dual::new(&a.0[..], &da.0[..]),
                &x,
                &y,
                Dual::new(a.1, da.1),
                Dual::constant(0.05),
            )
        },
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| loss(&a.0, &x, &y, a.1, 0.05),
        |a, da| {
            <loss as Frule<_, Batch<f64, 4>>>::frule(
                &loss {},
                (
                    Dual::new(&a.0[..], &da.0[..]),
                    &x[..],
                    &y[..],
                    Dual::new(a.1, da.1),
                    fwdad::constant_in::<Batch<f64, 4>, _>(0.05),
                ),
            )
        },
    );
}

/// Callers of an `inactive` rule: local constants (a `Vec`, an array, a sub-slice) reach
/// it as plain references.
#[derive_frule]
fn fit_two_sets(theta: &[f64]) -> f64 {
    let x = vec![0.0, 1.0, 2.0];
    let y = [1.0, 0.5, -0.5];
    let a = loss(theta, &x, &y, 1.0, 0.0);
    let b = loss(theta, &x[1..], &y[..2], 2.0, 0.1);
    a + b
}

#[test]
fn derived_callers_pass_constants_to_inactive_parameters() {
    let theta = [0.4, 0.9];
    let (v, g) = gradient(fit_two_sets {}, &theta);
    assert_eq!(v, fit_two_sets(&theta));
    let (ga, _) = loss_grad(&theta, &[0.0, 1.0, 2.0], &[1.0, 0.5, -0.5], 1.0, 0.0);
    let (gb, _) = loss_grad(&theta, &[1.0, 2.0], &[1.0, 0.5], 2.0, 0.1);
    assert_relative_eq!(g[0], ga[0] + gb[0], max_relative = 1e-14);
    assert_relative_eq!(g[1], ga[1] + gb[1], max_relative = 1e-14);
}

/// An inactive parameter passed on: to another rule's inactive parameter (inside a loop,
/// free), to a rule that takes a dual (its zero tangent built once), and merged with an
/// active value in a branch.
#[derive_frule(inactive(x, y))]
fn passes_data_on(theta: &[f64], x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for k in 0..3 {
        s += loss(theta, x, y, 1.0 + k as f64, 0.0);
    }
    let z = if theta[0] > 0.0 { theta } else { x };
    s + sq_dist(theta, y) + z[1] * theta[1]
}

#[test]
fn inactive_parameters_pass_on_to_other_rules() {
    let (x, y) = data();
    for theta in [[0.4, 0.9], [-0.4, 0.9]] {
        let rule = bind(passes_data_on {}, (Wrt, Inactive(&x[..]), Inactive(&y[..])));
        let (v, g) = gradient(rule, &theta);
        assert_eq!(v, passes_data_on(&theta, &x, &y));
        let mut exact = [0.0; 2];
        for k in 0..3 {
            let (gk, _) = loss_grad(&theta, &x, &y, 1.0 + k as f64, 0.0);
            exact[0] += gk[0];
            exact[1] += gk[1];
        }
        // ∂ sq_dist(θ, y)/∂θᵢ = 2(θᵢ − yᵢ) over the first two entries.
        exact[0] += 2.0 * (theta[0] - y[0]);
        exact[1] += 2.0 * (theta[1] - y[1]);
        // z = θ: ∂(θ₁²) = 2θ₁; z = x: ∂(x₁ θ₁) = x₁.
        exact[1] += if theta[0] > 0.0 { 2.0 * theta[1] } else { x[1] };
        assert_relative_eq!(g[0], exact[0], max_relative = 1e-13);
        assert_relative_eq!(g[1], exact[1], max_relative = 1e-13);
    }
}

/// An inactive parameter passed on to a rule that takes tangents, in both positions.
#[derive_frule(inactive(centres))]
fn rbf_sum(p: &[f64], centres: &[f64], scale: f64) -> f64 {
    let d = sq_dist(p, centres);
    (-d / scale).exp() + sq_dist(centres, p) * scale.sqrt()
}

#[derive_frule]
fn sq_dist(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        s += (a[i] - b[i]) * (a[i] - b[i]);
    }
    s
}

#[test]
fn inactive_parameters_passed_on_are_promoted() {
    let c = [0.5, -0.25, 1.0];
    let p = [0.1, 0.2, 0.3];
    let scale = 1.7;
    let (v, g) = gradient(bind(rbf_sum {}, (Wrt, Inactive(&c[..]), scale)), &p);
    // `scale` is an ordinary parameter: its derivative through the same rule.
    let (_, ds) = fwdad::derivative(bind(rbf_sum {}, (&p[..], Inactive(&c[..]), Wrt)), scale);
    assert_eq!(v, rbf_sum(&p, &c, scale));
    let d: f64 = p.iter().zip(&c).map(|(a, b)| (a - b) * (a - b)).sum();
    let exact_ds = (-d / scale).exp() * d / (scale * scale) + d * 0.5 / scale.sqrt();
    assert_relative_eq!(ds, exact_ds, max_relative = 1e-14);
    for i in 0..3 {
        let dd = 2.0 * (p[i] - c[i]);
        let exact = -(-d / scale).exp() / scale * dd + dd * scale.sqrt();
        assert_relative_eq!(g[i], exact, max_relative = 1e-14);
    }
}

/// Generic floats and an inactive parameter of the generic type; a vector output.
#[derive_frule(inactive(k))]
fn scaled_squares<T: num_traits::Float>(x: &[T], k: &[T], c: T, out: &mut [T]) {
    for i in 0..x.len() {
        out[i] = c * k[i] * x[i] * x[i];
    }
}

#[test]
fn generic_inactive_parameters_in_batch_mode_and_f32() {
    let k = [2.0, -1.0, 0.5];
    let x = [0.3, 1.5, -2.0];
    let c = 1.5;
    // The Jacobian in one batched pass (3 unit directions); `c` a constant dual.
    let seeds: Vec<Batch<f64, 3>> = (0..3).map(Batch::unit).collect();
    let (mut y, mut dy) = ([0.0; 3], [Batch::<f64, 3>::default(); 3]);
    <scaled_squares as Frule<_, Batch<f64, 3>>>::frule(
        &scaled_squares {},
        (
            Dual::new(&x[..], &seeds[..]),
            &k[..],
            fwdad::constant_in::<Batch<f64, 3>, _>(c),
            Dual::new(&mut y[..], &mut dy[..]),
        ),
    );
    let mut primal = [0.0; 3];
    scaled_squares(&x, &k, c, &mut primal);
    assert_eq!(y, primal);
    for i in 0..3 {
        for col in 0..3 {
            let exact = if i == col { 2.0 * c * k[i] * x[i] } else { 0.0 };
            assert_relative_eq!(dy[i].0[col], exact, max_relative = 1e-15);
        }
    }
    // f32 through the wrapper, which takes `k` plain.
    let (kf, xf) = ([2.0f32, -1.0], [0.5f32, 1.5]);
    let (mut o, mut d) = ([0.0f32; 2], [0.0f32; 2]);
    scaled_squares_frule(
        Dual::new(&xf[..], &[1.0f32, 0.0][..]),
        &kf,
        Dual::constant(2.0),
        Dual::new(&mut o[..], &mut d[..]),
    );
    assert_eq!(o, [1.0, -4.5]);
    assert_eq!(d, [4.0, 0.0]);
}

/// An element and a field of constant data passed by reference to a rule that takes a dual
/// (`&f64`, `&Vec<f64>`): promoted with a zero tangent.
#[derive_frule]
fn scaled(x: f64, c: &f64) -> f64 {
    x * *c
}

// `&Vec` on purpose: the field `m.w` is passed as it is.
#[allow(clippy::ptr_arg)]
#[derive_frule]
fn weighted(x: &[f64], w: &Vec<f64>) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * x[i] * x[i];
    }
    s
}

#[derive(Clone, Debug, fwdad::Differentiable)]
struct Model {
    w: Vec<f64>,
}

#[derive_frule(inactive(d, m))]
fn element_and_field_refs(x: &[f64], d: &[f64], m: &Model) -> f64 {
    scaled(x[0], &d[1]) + weighted(x, &m.w)
}

#[test]
fn element_and_field_references_of_inactive_data() {
    let d = [0.5, 3.0];
    let m = Model {
        w: vec![1.0, -2.0, 0.25],
    };
    let x = [0.7, -1.1, 2.0];
    let (v, g) = gradient(
        bind(
            element_and_field_refs {},
            (Wrt, Inactive(&d[..]), Inactive(&m)),
        ),
        &x,
    );
    assert_eq!(v, element_and_field_refs(&x, &d, &m));
    let exact = [
        d[1] + 2.0 * m.w[0] * x[0],
        2.0 * m.w[1] * x[1],
        2.0 * m.w[2] * x[2],
    ];
    for i in 0..3 {
        assert_relative_eq!(g[i], exact[i], max_relative = 1e-15);
    }
}

/// Elastic energy of a 2-D truss: node coordinates interleaved in `x`, bars between node
/// pairs with rest lengths, one stiffness. The connectivity (integers) and the stiffness
/// (by value) are named `inactive` too, as a user marks everything that is data.
#[derive_frule(inactive(bars, rest, k))]
fn truss_energy(x: &[f64], bars: &[(usize, usize)], rest: &[f64], k: f64) -> f64 {
    let mut e = 0.0;
    for (b, &(i, j)) in bars.iter().enumerate() {
        let dx = x[2 * j] - x[2 * i];
        let dy = x[2 * j + 1] - x[2 * i + 1];
        let len = (dx * dx + dy * dy).sqrt();
        let strain = (len - rest[b]) / rest[b];
        e += 0.5 * k * rest[b] * strain * strain;
    }
    e
}

#[test]
fn inactive_integer_data_and_by_value_constants() {
    let bars = [(0, 1), (1, 2), (0, 2)];
    let rest = [1.0, 1.0, 1.4];
    let x = [0.0, 0.0, 1.1, 0.05, 1.0, 1.05];
    let k = 3.0;
    let f = bind(
        truss_energy {},
        (Wrt, Inactive(&bars[..]), Inactive(&rest[..]), Inactive(k)),
    );
    let (e, g) = gradient(f, &x);
    assert_eq!(e, truss_energy(&x, &bars, &rest, k));
    // ∂E/∂(node j) = k (len − rest)/rest · (p_j − p_i)/len for each bar (i, j), minus for i.
    let mut want = [0.0; 6];
    for (b, &(i, j)) in bars.iter().enumerate() {
        let (dx, dy) = (x[2 * j] - x[2 * i], x[2 * j + 1] - x[2 * i + 1]);
        let len = (dx * dx + dy * dy).sqrt();
        let f = k * (len - rest[b]) / rest[b] / len;
        want[2 * j] += f * dx;
        want[2 * j + 1] += f * dy;
        want[2 * i] -= f * dx;
        want[2 * i + 1] -= f * dy;
    }
    for (a, b) in g.iter().zip(want) {
        assert!((a - b).abs() < 1e-13, "{g:?} vs {want:?}");
    }
    // The wrapper takes them plain.
    let d = truss_energy_frule(Dual::new(&x[..], &want[..]), &bars[..], &rest[..], k);
    assert_eq!(d.primal, e);
    let dot: f64 = want.iter().map(|w| w * w).sum();
    assert!((d.tangent - dot).abs() < 1e-12 * dot);
}
