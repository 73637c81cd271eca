//! Closures and iterator chains in derived bodies: `map`, `filter`, `sum`, `product`,
//! `fold`, `count`, `for_each`, `any`, `all`, `collect`, `max_by`/`min_by`, closures
//! bound with `let`, capturing active and inactive values, and closure parameter patterns.
use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};

/// Rosenbrock as a `zip`/`map`/`sum` chain with a closure pattern.
#[derive_frule]
fn rosenbrock_chain(x: &[f64]) -> f64 {
    x.iter()
        .zip(x.iter().skip(1))
        .map(|(&a, &b)| 100.0 * (b - a * a).powi(2) + (1.0 - a).powi(2))
        .sum::<f64>()
}

/// Log-sum-exp with `fold` for the maximum and a `map`/`sum` for the rest.
#[derive_frule]
fn log_sum_exp(x: &[f64]) -> f64 {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let s: f64 = x.iter().map(|v| (v - m).exp()).sum();
    m + s.ln()
}

/// A `let` closure capturing an active scale and an inactive offset, called directly and
/// passed to `map`; `filter`, `count`, `product`, `any`, `all`.
#[derive_frule]
fn mixed_chain(x: &[f64], k: f64) -> f64 {
    let offset = 0.5;
    let scaled = |v: f64| k * v + offset;
    let direct = scaled(x[0]);
    let positives = x.iter().filter(|v| **v > 0.0).count() as f64;
    let prod: f64 = x.iter().map(|&v| scaled(v)).product();
    let big = x.iter().any(|&v| v > 10.0);
    let all_finite = x.iter().all(|v| v.is_finite());
    let extra = if big || !all_finite { 0.0 } else { 1.0 };
    direct + positives * k + prod + extra
}

/// `for_each` mutating a captured accumulator; `collect` into a `Vec`; ranges with `map`.
#[derive_frule]
fn side_effects(x: &[f64]) -> Vec<f64> {
    let mut total = 0.0;
    x.iter().for_each(|v| total += v * v);
    let weights: Vec<f64> = (0..x.len()).map(|i| (i as f64 + 1.0) * total).collect();
    x.iter()
        .zip(weights.iter())
        .map(|(a, w)| a * w)
        .filter(|p| *p != 0.0)
        .collect()
}

#[test]
fn rosenbrock_chain_gradient() {
    let x = vec![-1.2, 1.0, 0.7, 1.9];
    test_frule(
        (x.clone(),),
        |a| rosenbrock_chain(&a.0),
        |a, da| rosenbrock_chain_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule_batched::<4, _, _>(
        (x.clone(),),
        |a| rosenbrock_chain(&a.0),
        |a, da| {
            <rosenbrock_chain as Frule<_, Batch<f64, 4>>>::frule(
                &rosenbrock_chain {},
                (Dual::new(&a.0[..], &da.0[..]),),
            )
        },
    );
    // Analytic gradient, independent of the rules.
    let n = x.len();
    let mut g = vec![0.0; n];
    for i in 0..n - 1 {
        g[i] += -2.0 * (1.0 - x[i]) - 400.0 * x[i] * (x[i + 1] - x[i] * x[i]);
        g[i + 1] += 200.0 * (x[i + 1] - x[i] * x[i]);
    }
    for k in 0..n {
        let mut e = vec![0.0; n];
        e[k] = 1.0;
        let d = rosenbrock_chain_frule(Dual::new(&x[..], &e[..]));
        approx::assert_relative_eq!(d.tangent, g[k], max_relative = 1e-13);
    }
}

#[test]
fn log_sum_exp_gradient_is_softmax() {
    let x: Vec<f64> = vec![0.3, -1.0, 2.2, 0.0];
    let z: f64 = x.iter().map(|v| v.exp()).sum();
    for k in 0..x.len() {
        let mut e = [0.0; 4];
        e[k] = 1.0;
        let d = log_sum_exp_frule(Dual::new(&x[..], &e[..]));
        assert_eq!(d.primal, log_sum_exp(&x));
        approx::assert_relative_eq!(d.tangent, x[k].exp() / z, max_relative = 1e-13);
    }
}

#[test]
fn mixed_chain_and_captures() {
    let args = (vec![0.5, -1.5, 2.0], 1.3);
    test_frule(
        args,
        |a| mixed_chain(&a.0, a.1),
        |a, da| mixed_chain_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
}

#[test]
fn for_each_and_collect() {
    test_frule(
        (vec![0.5, -1.5, 2.0],),
        |a| side_effects(&a.0),
        |a, da| side_effects_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    // Empty input: sums start at -0.0 as `Sum for f64` does; results bit-identical.
    let e: [f64; 0] = [];
    let d = rosenbrock_chain_frule(Dual::new(&e[..], &e[..]));
    assert_eq!(d.primal.to_bits(), rosenbrock_chain(&e).to_bits());
}

/// `windows`, `chunks`, `chain`.
#[derive_frule]
fn more_adaptors(x: &[f64], y: &[f64]) -> f64 {
    let mut diffs = 0.0;
    for w in x.windows(2) {
        diffs += (w[1] - w[0]).powi(2);
    }
    let mut chunk_sums = 0.0;
    for c in x.chunks(2) {
        chunk_sums += c[0] * c[c.len() - 1];
    }
    let joined: f64 = x.iter().chain(y.iter()).map(|v| v.sin()).sum();
    diffs + chunk_sums + joined
}

#[test]
fn windows_chunks_chain() {
    let args = (vec![0.3, -1.2, 2.5, 0.7, 1.1], vec![0.9, -0.4, 0.2]);
    test_frule(
        args.clone(),
        |a| more_adaptors(&a.0, &a.1),
        |a, da| {
            more_adaptors_frule(
                Dual::new(&a.0[..], &da.0[..]),
                Dual::new(&a.1[..], &da.1[..]),
            )
        },
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| more_adaptors(&a.0, &a.1),
        |a, da| {
            <more_adaptors as Frule<_, Batch<f64, 4>>>::frule(
                &more_adaptors {},
                (
                    Dual::new(&a.0[..], &da.0[..]),
                    Dual::new(&a.1[..], &da.1[..]),
                ),
            )
        },
    );
    // Analytic: ∂/∂x₀ of Σ (x_{i+1} − x_i)² = −2(x₁ − x₀); of the chunk products x₀x₁ → x₁;
    // of Σ sin → cos x₀.
    let x = [0.3, -1.2, 2.5, 0.7, 1.1];
    let e = [1.0, 0.0, 0.0, 0.0, 0.0];
    let y = [0.9, -0.4, 0.2];
    let d = more_adaptors_frule(Dual::new(&x[..], &e[..]), Dual::new(&y[..], &[0.0; 3][..]));
    approx::assert_relative_eq!(
        d.tangent,
        -2.0 * (x[1] - x[0]) + x[1] + x[0].cos(),
        max_relative = 1e-14
    );
}

/// Log-sum-exp with `max_by` for the shift, as the story writes it.
#[derive_frule]
fn log_sum_exp_max_by(x: &[f64]) -> f64 {
    let m = x
        .iter()
        .copied()
        .max_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap();
    let s: f64 = x.iter().map(|v| (v - m).exp()).sum();
    m + s.ln()
}

/// `max_by` and `min_by` returning the `Option` (ties and emptiness observable), over a
/// plain slice and over a mapped chain.
#[derive_frule]
fn extremes(x: &[f64], k: f64) -> (Option<f64>, Option<f64>) {
    let hi = x.iter().copied().max_by(|a, b| a.total_cmp(b));
    let lo = x
        .iter()
        .map(|v| (v - k) * (v - k))
        .min_by(|a, b| a.partial_cmp(b).unwrap());
    (hi, lo)
}

#[test]
fn log_sum_exp_with_max_by_matches_softmax() {
    let x: Vec<f64> = vec![0.3, -1.0, 2.2, 0.0];
    let z: f64 = x.iter().map(|v| v.exp()).sum();
    for k in 0..x.len() {
        let mut e = [0.0; 4];
        e[k] = 1.0;
        let d = log_sum_exp_max_by_frule(Dual::new(&x[..], &e[..]));
        assert_eq!(d.primal.to_bits(), log_sum_exp_max_by(&x).to_bits());
        approx::assert_relative_eq!(d.tangent, x[k].exp() / z, max_relative = 1e-13);
    }
    test_frule(
        (x.clone(),),
        |a| log_sum_exp_max_by(&a.0),
        |a, da| log_sum_exp_max_by_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule_batched::<3, _, _>(
        (x,),
        |a| log_sum_exp_max_by(&a.0),
        |a, da| {
            <log_sum_exp_max_by as Frule<_, Batch<f64, 3>>>::frule(
                &log_sum_exp_max_by {},
                (Dual::new(&a.0[..], &da.0[..]),),
            )
        },
    );
}

#[test]
fn max_by_and_min_by_pick_the_element_std_picks() {
    // max_by keeps the last of equal maxima, min_by the first of equal minima: the
    // tangent tells which element was chosen.
    let x = [1.0, 3.0, -2.0, 3.0, -2.0];
    let dx = [10.0, 20.0, 30.0, 40.0, 50.0];
    let k = 0.5;
    let d = extremes_frule(Dual::new(&x[..], &dx[..]), Dual::new(k, 0.0));
    let (hi, lo) = d.primal;
    assert_eq!((hi, lo), extremes(&x, k));
    assert_eq!(hi, Some(3.0));
    assert_eq!(d.tangent.0, Some(40.0));
    // (v - k)^2 is smallest at v = 1.0 (index 0): tangent 2 (v - k) dv = 2 * 0.5 * 10.
    assert_eq!(lo, Some(0.25));
    assert_eq!(d.tangent.1, Some(10.0));
    // With k active: d/dk (v - k)^2 = -2 (v - k).
    let d = extremes_frule(Dual::new(&x[..], &[0.0; 5][..]), Dual::new(k, 1.0));
    assert_eq!(d.tangent.1, Some(-1.0));
    // Empty input: both `None`, with `None` tangents.
    let e: [f64; 0] = [];
    let d = extremes_frule(Dual::new(&e[..], &e[..]), Dual::new(k, 1.0));
    assert_eq!(d.primal, (None, None));
    assert_eq!(d.tangent, (None, None));
    test_frule(
        (vec![0.4, -1.5, 2.0, 0.9], 0.3),
        |a| extremes(&a.0, a.1),
        |a, da| extremes_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
}

/// `max_by` over borrowed elements (`Option<&f64>`, dereferenced and `copied`) and over
/// a mapped range.
#[derive_frule]
fn borrowed_and_range(x: &[f64], w: f64) -> f64 {
    let big = *x.iter().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap();
    let also_big = x
        .iter()
        .max_by(|a, b| a.total_cmp(b))
        .copied()
        .unwrap_or(0.0);
    let small = (0..x.len())
        .map(|i| x[i] * w)
        .min_by(|a, b| a.total_cmp(b))
        .unwrap_or(0.0);
    big * small + 0.0 * also_big
}

#[test]
fn max_by_over_references_and_ranges() {
    // x = [0.5, 2.0, -1.0], w = 1.5: big = x[1], small = x[2] * w; f = x1 * x2 * w.
    let x = vec![0.5, 2.0, -1.0];
    let w = 1.5;
    let d = borrowed_and_range_frule(Dual::new(&x[..], &[0.0, 0.0, 1.0][..]), Dual::new(w, 0.0));
    assert_eq!(d.primal, borrowed_and_range(&x, w));
    assert_eq!(d.tangent, x[1] * w);
    let d = borrowed_and_range_frule(Dual::new(&x[..], &[0.0; 3][..]), Dual::new(w, 1.0));
    assert_eq!(d.tangent, x[1] * x[2]);
    test_frule(
        (x, w),
        |a| borrowed_and_range(&a.0, a.1),
        |a, da| borrowed_and_range_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
}

/// `max_by`/`min_by` after `filter` (and a `map` after the filter).
#[derive_frule]
fn filtered_extremes(x: &[f64], k: f64) -> (f64, f64) {
    let hi = x
        .iter()
        .copied()
        .filter(|v| *v < 2.5)
        .max_by(|a, b| a.total_cmp(b))
        .unwrap_or(0.0);
    let lo = x
        .iter()
        .copied()
        .filter(|v| *v > 0.0)
        .map(|v| v * k)
        .min_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap_or(-1.0);
    (hi, lo)
}

#[test]
fn max_by_and_min_by_after_filter() {
    // x = [1.0, 3.0, -2.0, 2.0, 0.5]: hi = max of values < 2.5 = x[3]; lo = min of
    // k * v over v > 0 = k * x[4].
    let x = vec![1.0, 3.0, -2.0, 2.0, 0.5];
    let k = 1.5;
    let dx = [10.0, 20.0, 30.0, 40.0, 50.0];
    let d = filtered_extremes_frule(Dual::new(&x[..], &dx[..]), Dual::new(k, 1.0));
    assert_eq!(d.primal, filtered_extremes(&x, k));
    assert_eq!(d.primal, (2.0, 0.75));
    assert_eq!(d.tangent.0, 40.0);
    assert_eq!(d.tangent.1, k * 50.0 + x[4]);
    // Nothing kept on one side: its default, with a zero tangent.
    let d = filtered_extremes_frule(Dual::new(&[3.0][..], &[1.0][..]), Dual::new(k, 1.0));
    assert_eq!(d.primal, (0.0, 4.5));
    assert_eq!(d.tangent, (0.0, k + 3.0));
    let d = filtered_extremes_frule(Dual::new(&[-1.0][..], &[1.0][..]), Dual::new(k, 1.0));
    assert_eq!(d.primal, (-1.0, -1.0));
    assert_eq!(d.tangent, (1.0, 0.0));
    test_frule(
        (x, k),
        |a| filtered_extremes(&a.0, a.1),
        |a, da| filtered_extremes_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
}

/// `into_iter` on a borrowed slice (yields `&f64`) and on an owned `Vec` (yields `f64`),
/// and `cloned`. (The borrowed `into_iter` is what a user may write, hence the allow.)
#[allow(clippy::into_iter_on_ref)]
#[derive_frule]
fn into_iter_forms(x: &[f64]) -> f64 {
    let a: f64 = x.into_iter().map(|v| v * v).sum();
    let owned: Vec<f64> = x.iter().map(|v| 2.0 * v).collect();
    let b: f64 = owned.into_iter().map(|v| v.sin()).sum();
    let c: f64 = x.iter().cloned().fold(1.0, |acc, v| acc * v);
    a + b + c
}

#[test]
fn into_iter_and_cloned() {
    let x = vec![0.5, -1.25, 2.0];
    // d/dx_k: 2 x_k + 2 cos(2 x_k) + prod_{j != k} x_j.
    let prod: f64 = x.iter().product();
    for k in 0..3 {
        let mut e = [0.0; 3];
        e[k] = 1.0;
        let d = into_iter_forms_frule(Dual::new(&x[..], &e[..]));
        assert_eq!(d.primal, into_iter_forms(&x));
        let want = 2.0 * x[k] + 2.0 * (2.0 * x[k]).cos() + prod / x[k];
        approx::assert_relative_eq!(d.tangent, want, max_relative = 1e-13);
    }
    test_frule(
        (x,),
        |a| into_iter_forms(&a.0),
        |a, da| into_iter_forms_frule(Dual::new(&a.0[..], &da.0[..])),
    );
}

/// `max_by` over an inactive array, over a mapped range of an inactive bound, and with a
/// comparator that counts its calls in a captured variable.
#[derive_frule]
fn max_by_mixed(x: f64, n: usize) -> f64 {
    let w = [1.0f64, 4.0, 2.0];
    let m = w.iter().copied().max_by(|a, b| a.total_cmp(b)).unwrap();
    let k = (0..n)
        .map(|i| i as f64)
        .max_by(|a, b| a.total_cmp(b))
        .unwrap_or(0.0);
    let mut calls = 0;
    let best = [x, 2.0 * x, -x]
        .iter()
        .copied()
        .max_by(|a, b| {
            calls += 1;
            a.total_cmp(b)
        })
        .unwrap();
    m * x + k + best + calls as f64
}

#[test]
fn max_by_with_inactive_data_and_a_counting_comparator() {
    // 4x + (n - 1) + 2x + 2 for x > 0: derivative 6; the comparator runs twice, as std's.
    let d = max_by_mixed_frule(Dual::new(1.5, 1.0), Dual::new(3, NoTangent));
    assert_eq!(d.primal, max_by_mixed(1.5, 3));
    assert_eq!(d.primal, 4.0 * 1.5 + 2.0 + 3.0 + 2.0);
    assert_eq!(d.tangent, 6.0);
}

/// A closure that mutates what it borrows, called in a `for` loop and, through another
/// closure, in a `while` loop: `acc` and `n` are carried by the loops that call them.
#[derive_frule]
fn mutating_closures(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    let mut n = 0;
    let mut add = |v: f64| {
        acc += v * v;
        n += 1;
    };
    for &v in x {
        add(v);
    }
    let mut twice = |v: f64| {
        add(v);
        add(2.0 * v);
    };
    let mut i = 0;
    while i < x.len() {
        twice(x[i]);
        i += 1;
    }
    acc / n as f64
}

#[test]
fn closures_that_mutate_their_captures_inside_loops() {
    // Σ x² + Σ (x² + 4x²) = 6 Σ x² over 3 len(x) calls: value 2 Σ x² / len, gradient
    // 4 x / len.
    let x = [1.0, -2.0, 0.5];
    let dx = [0.5, 1.0, -1.0];
    let r = mutating_closures_frule(Dual::new(&x[..], &dx[..]));
    assert_eq!(r.primal, mutating_closures(&x));
    let len = x.len() as f64;
    let want: f64 = x.iter().zip(&dx).map(|(v, t)| 4.0 * v * t / len).sum();
    assert!((r.tangent - want).abs() < 1e-12, "{} {want}", r.tangent);
    test_frule(
        (x.to_vec(),),
        |a| mutating_closures(&a.0),
        |a, da| mutating_closures_frule(Dual::new(&a.0[..], &da.0[..])),
    );
}

/// A borrowing closure sees the variables it saw where it was written, even when a name
/// it uses is shadowed before the call (the call used to read the later `k`).
#[derive_frule]
fn shadowed_capture(x: f64) -> f64 {
    let k = x * x;
    let scale = |y: f64| y * k;
    let k = 2.0;
    let total = scale(3.0) + k;
    let k = x;
    total * k
}

#[test]
fn borrowing_closures_see_the_variables_of_their_definition() {
    // (3x² + 2) · x = 3x³ + 2x: derivative 9x² + 2.
    let x = 1.5;
    let r = shadowed_capture_frule(Dual::new(x, 1.0));
    assert_eq!(r.primal, shadowed_capture(x));
    assert_eq!(r.primal, (3.0 * x * x + 2.0) * x);
    assert!(
        (r.tangent - (9.0 * x * x + 2.0)).abs() < 1e-12,
        "{}",
        r.tangent
    );
}

/// `filter` on tuples of an `enumerate` or a `zip`: the closure takes `&(usize, &f64)`, so
/// its tuple pattern binds references (`i: &usize`, `v: &&f64`), as in Rust.
#[derive_frule]
fn even_positions_doubled(x: &[f64]) -> f64 {
    x.iter()
        .enumerate()
        .filter(|(i, _)| *i % 2 == 0)
        .map(|(_, v)| v * 2.0)
        .sum()
}

#[derive_frule]
fn weighted_positives(x: &[f64]) -> f64 {
    x.iter()
        .enumerate()
        .filter(|(_, v)| **v > 0.0)
        .map(|(i, v)| v * i as f64)
        .sum()
}

#[derive_frule]
fn products_where_greater(x: &[f64], y: &[f64]) -> f64 {
    x.iter()
        .zip(y)
        .filter(|(a, b)| **a > **b)
        .map(|(a, b)| a * b)
        .sum()
}

#[derive_frule]
fn squares_after_first(x: &[f64]) -> f64 {
    x.iter()
        .enumerate()
        .filter(|&(i, _)| i > 0)
        .map(|(_, v)| v * v)
        .sum()
}

#[test]
fn filter_on_tuples_binds_references() {
    let x = [1.0, -2.0, 3.0, 5.0];
    let y = [0.5, 1.0, 4.0, 1.0];
    let dx = [0.1, 0.2, 0.3, 0.4];
    let dy = [1.0, 1.0, 1.0, 1.0];
    // 2 (x0 + x2).
    let r = even_positions_doubled_frule(Dual::new(&x[..], &dx[..]));
    assert_eq!((r.primal, r.tangent), (8.0, 2.0 * (0.1 + 0.3)));
    // Σ_{x_i > 0} i x_i = 2·3 + 3·5; tangent 2·0.3 + 3·0.4.
    let r = weighted_positives_frule(Dual::new(&x[..], &dx[..]));
    assert_eq!(r.primal, 21.0);
    assert!((r.tangent - 1.8).abs() < 1e-12, "{}", r.tangent);
    // Pairs with x > y: (1, 0.5) and (5, 1): 0.5 + 5; tangent dx·y + x·dy.
    let r = products_where_greater_frule(Dual::new(&x[..], &dx[..]), Dual::new(&y[..], &dy[..]));
    assert_eq!(r.primal, 5.5);
    assert!(
        (r.tangent - (0.1 * 0.5 + 1.0 + 0.4 + 5.0)).abs() < 1e-12,
        "{}",
        r.tangent
    );
    // x1² + x2² + x3²; tangent 2 Σ x_i dx_i over i ≥ 1.
    let r = squares_after_first_frule(Dual::new(&x[..], &dx[..]));
    assert_eq!(r.primal, 38.0);
    assert!(
        (r.tangent - 2.0 * (-0.4 + 0.9 + 2.0)).abs() < 1e-12,
        "{}",
        r.tangent
    );
}

/// Pivot search over a range of row indices, by `max_by` and by `fold`, with closures
/// reading active data.
#[derive_frule]
fn pivot_value(a: &[f64], n: usize, k: usize) -> f64 {
    let p = (k..n)
        .max_by(|&i, &j| a[i * n + k].abs().partial_cmp(&a[j * n + k].abs()).unwrap())
        .unwrap();
    let q = (k + 1..n).fold(k, |best, i| {
        if a[i * n + k].abs() > a[best * n + k].abs() {
            i
        } else {
            best
        }
    });
    a[p * n + k] * a[q * n + k]
}

#[test]
fn closures_over_ranges_reading_active_data() {
    // Column 1 from row 1 of a 3×3 matrix: |a[4]| = 2, |a[7]| = 5: pivot row 2, f = a[7]²,
    // ∇f = 2·a[7]·e₇.
    let a = [1.0, 9.0, 0.0, 0.0, 2.0, 0.0, 0.0, -5.0, 0.0];
    let (v, g) = fwdad::drivers::gradient(bind(pivot_value {}, (Wrt, 3, 1)), &a);
    assert_eq!(v, pivot_value(&a, 3, 1));
    assert_eq!(v, 25.0);
    let mut want = [0.0; 9];
    want[7] = -10.0;
    assert_eq!(g, want);
}

/// The argmax idiom over `enumerate()`: the closure sees `&(usize, &f64)` items, whose
/// float it reads through two references (`a.1.abs()`).
#[derive_frule]
fn weighted_peak(x: &[f64]) -> f64 {
    let (i, v) = x
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.abs().partial_cmp(&b.1.abs()).unwrap())
        .unwrap();
    (i as f64 + 1.0) * v
}

/// The comparator over `x.iter()` sees `&&f64`s and calls float methods on them, read
/// through both references.
#[derive_frule]
fn largest_magnitude(x: &[f64]) -> f64 {
    let v = x
        .iter()
        .max_by(|a, b| a.abs().partial_cmp(&b.abs()).unwrap())
        .unwrap();
    v * 10.0
}

/// The same with the comparator spelled `a.1.partial_cmp(b.1)` (the field itself a `&f64`).
#[derive_frule]
fn weighted_argmax(x: &[f64]) -> f64 {
    let (i, v) = x
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.partial_cmp(b.1).unwrap())
        .unwrap();
    (i as f64 + 1.0) * v
}

#[test]
fn enumerate_max_by_reads_the_peak_and_its_index() {
    // |x| is largest at x[1] = -2: value -20, gradient 10 in x[1].
    let (v, g) = fwdad::gradient(largest_magnitude {}, &[0.5, -2.0, 1.0, 1.5]);
    assert_eq!((v, g), (-20.0, [0.0, 10.0, 0.0, 0.0]));
    // The largest is x[3] = 1.5 at index 3: value 4·1.5, gradient 4 in x[3].
    let (v, g) = fwdad::gradient(weighted_argmax {}, &[0.5, -2.0, 1.0, 1.5]);
    assert_eq!((v, g), (6.0, [0.0, 0.0, 0.0, 4.0]));
    let x = [0.5, -2.0, 1.0, 1.5];
    // The peak in |x| is x[1] = -2 at index 1: value 2·x[1], gradient 2 in x[1] alone.
    assert_eq!(weighted_peak(&x), -4.0);
    let (v, g) = fwdad::gradient(weighted_peak {}, &x);
    assert_eq!((v, g), (-4.0, [0.0, 2.0, 0.0, 0.0]));
    let d = weighted_peak_frule(Dual::new(&x[..], &[1.0, 1.0, 1.0, 1.0][..]));
    assert_eq!((d.primal, d.tangent), (-4.0, 2.0));
}

/// Piecewise-linear interpolation, the interval found by `partition_point` (a binary
/// search whose predicate reads the active knots).
#[derive_frule]
fn interp(knots: &[f64], values: &[f64], x: f64) -> f64 {
    let i = knots.partition_point(|&k| k <= x).clamp(1, knots.len() - 1);
    let t = (x - knots[i - 1]) / (knots[i] - knots[i - 1]);
    values[i - 1] * (1.0 - t) + values[i] * t
}

/// The first element above a threshold, by `position`, scaled by its rank.
#[derive_frule]
fn first_above(x: &[f64], t: f64) -> f64 {
    match x.iter().position(|&v| v > t) {
        Some(i) => (i as f64 + 1.0) * x[i] * t,
        None => 0.0,
    }
}

#[test]
fn searches_by_partition_point_and_position() {
    let knots = [0.0, 1.0, 2.5, 4.0];
    let vals = [1.0, 3.0, 2.0, 5.0];
    // (x, the index of the interval's right knot, counted by hand).
    for (x, i) in [(0.25, 1), (1.0, 2), (2.0, 2), (3.0, 3), (3.9, 3)] {
        let (k0, k1, v0, v1) = (knots[i - 1], knots[i], vals[i - 1], vals[i]);
        let h = k1 - k0;
        let t = (x - k0) / h;
        assert!((interp(&knots, &vals, x) - (v0 + (v1 - v0) * t)).abs() < 1e-15);
        // d/dx: slope; d/dv0 = 1 - t; d/dv1 = t.
        let d = interp_frule(
            Dual::new(&knots[..], &[0.0; 4][..]),
            Dual::new(&vals[..], &[0.0; 4][..]),
            Dual::new(x, 1.0),
        );
        assert!((d.tangent - (v1 - v0) / h).abs() < 1e-14);
        let mut dv = [0.0; 4];
        dv[i - 1] = 1.0;
        let d = interp_frule(
            Dual::new(&knots[..], &[0.0; 4][..]),
            Dual::new(&vals[..], &dv[..]),
            Dual::new(x, 0.0),
        );
        assert!((d.tangent - (1.0 - t)).abs() < 1e-15);
        // d/dk1 of v0 + (v1 - v0)(x - k0)/(k1 - k0) = -(v1 - v0)(x - k0)/h².
        let mut dk = [0.0; 4];
        dk[i] = 1.0;
        let d = interp_frule(
            Dual::new(&knots[..], &dk[..]),
            Dual::new(&vals[..], &[0.0; 4][..]),
            Dual::new(x, 0.0),
        );
        assert!((d.tangent + (v1 - v0) * (x - k0) / (h * h)).abs() < 1e-14);
    }
    let x = [0.5, 2.0, 0.1, 3.0];
    // First above 1.0 is x[1] = 2: value 2·x1·t, gradient in (x, t): x1 gets 2t, t gets 2·x1.
    let (v, g) = fwdad::gradient(bind(first_above {}, (Wrt, 1.0)), &x);
    assert_eq!((v, g), (4.0, [0.0, 2.0, 0.0, 0.0]));
    let d = first_above_frule(Dual::new(&x[..], &[0.0; 4][..]), Dual::new(1.0, 1.0));
    assert_eq!(d.tangent, 4.0);
    assert_eq!(first_above(&x, 5.0), 0.0);
    let d = first_above_frule(Dual::new(&x[..], &[1.0; 4][..]), Dual::new(5.0, 1.0));
    assert_eq!((d.primal, d.tangent), (0.0, 0.0));
}

/// Chains over inclusive ranges: `Σₖ x[k-1]/k`, a `fold`, and an empty `len..=2` (len = 4).
#[derive_frule]
fn inclusive_chains(x: &[f64]) -> f64 {
    let a: f64 = (1..=x.len()).map(|k| x[k - 1] / k as f64).sum();
    let b = (0..=2).fold(0.0, |acc, k| acc + x[k] * x[k]);
    let c: f64 = (x.len()..=2).map(|k| x[k]).sum();
    a + b + c
}

#[test]
fn chains_over_inclusive_ranges() {
    let x = [0.5, -1.0, 2.0, 0.25];
    let want = 0.5 - 1.0 / 2.0 + 2.0 / 3.0 + 0.25 / 4.0 + (0.25 + 1.0 + 4.0);
    assert!((inclusive_chains(&x) - want).abs() < 1e-15);
    let (v, g) = fwdad::gradient(inclusive_chains {}, &x);
    assert!((v - want).abs() < 1e-15);
    // ∂/∂x_k = 1/(k+1) + 2x_k for k ≤ 2.
    let dg = [1.0 + 1.0, 0.5 - 2.0, 1.0 / 3.0 + 4.0, 0.25];
    for k in 0..4 {
        assert!((g[k] - dg[k]).abs() < 1e-15, "{g:?}");
    }
}

/// `chunks_exact` drops the short last chunk: pairs of 5 values use the first 4.
#[derive_frule]
fn pair_products(p: &[f64]) -> f64 {
    let mut s = 0.0;
    for c in p.chunks_exact(2) {
        s += c[0] * c[1];
    }
    s + p.chunks_exact(3).map(|c| c[2]).sum::<f64>()
}

#[test]
fn chunks_exact_drops_the_remainder() {
    let p = [1.0, 2.0, 3.0, 4.0, 5.0];
    // p0 p1 + p2 p3 + p2 (the one full triple's last).
    assert_eq!(pair_products(&p), 2.0 + 12.0 + 3.0);
    let (v, g) = fwdad::gradient(pair_products {}, &p);
    assert_eq!((v, g), (17.0, [2.0, 1.0, 4.0 + 1.0, 3.0, 0.0]));
}

/// `reduce` with a path (`f64::max`) and with a closure; `None` on an empty chain.
#[derive_frule]
fn reduced(x: &[f64]) -> f64 {
    let r = x.iter().copied().reduce(f64::max).unwrap();
    let s = x.iter().map(|v| v * v).reduce(|a, b| a + b).unwrap_or(0.0);
    let e = x[..0].iter().copied().reduce(f64::min).unwrap_or(-1.0);
    r + s + e
}

#[test]
fn reduce_folds_from_the_first_item() {
    let x = [1.0, 3.0, 2.0];
    // max + Σ x² − 1: gradient e_argmax + 2x, Hessian 2I.
    let (v, g) = fwdad::gradient(reduced {}, &x);
    assert_eq!((v, g), (3.0 + 14.0 - 1.0, [2.0, 1.0 + 6.0, 4.0]));
    let (_, _, h) = fwdad::hessian(reduced {}, &x);
    for i in 0..3 {
        for j in 0..3 {
            assert_eq!(h[(i, j)], if i == j { 2.0 } else { 0.0 });
        }
    }
}

#[derive_frule]
fn split_index(x: &[f64], t: f64) -> f64 {
    let i = x.partition_point(|&v| v < t);
    i as f64 * t
}

/// `partition_point` probes as std does, so the index is std's even on a slice the
/// predicate does not partition (std leaves that index unspecified, and the rule must
/// still compute what the plain function computes): every 0/2 pattern up to length 10.
#[test]
fn partition_point_matches_std_on_every_pattern() {
    for n in 0..=10usize {
        for bits in 0..(1u32 << n) {
            let x: Vec<f64> = (0..n)
                .map(|k| if bits >> k & 1 == 1 { 2.0 } else { 0.0 })
                .collect();
            let want = x.partition_point(|&v| v < 1.0) as f64;
            let d = split_index_frule(Dual::new(&x[..], &vec![0.0; n][..]), Dual::new(1.0, 1.0));
            assert_eq!((d.primal, d.tangent), (want, want), "{x:?}");
        }
    }
}

/// Chains over ranges of another integer type count in that type.
#[derive_frule]
fn signed_ranges(x: &[f64]) -> f64 {
    let a = (-2i32..=1).fold(0.0, |acc, k| acc * x[0] + (k as f64) * x[(k + 2) as usize]);
    let b: f64 = (-2i64..2).map(|k| (k as f64) * x[(k + 2) as usize]).sum();
    a + b
}

#[test]
fn chains_over_signed_ranges() {
    let x = [0.5, 2.0, 1.0, 3.0];
    // a = −2x0⁴ − x1 x0² + x3 (the fold unrolled), b = −2x0 − x1 + x3.
    let (v, g) = fwdad::gradient(signed_ranges {}, &x);
    assert_eq!(v, 2.375);
    assert_eq!(
        g,
        [-8.0 * 0.125 - 2.0 * 2.0 * 0.5 - 2.0, -0.25 - 1.0, 0.0, 2.0]
    );
}

/// A range longer than its type's positive half (`-100i8..100`: step 128 does not fit `i8`).
#[derive_frule]
fn long_i8_range(x: &[f64]) -> f64 {
    (-100i8..100).map(|k| k as f64 * x[0]).sum()
}

#[test]
fn long_narrow_ranges_count_exactly() {
    // Σ_{k=-100}^{99} k = -100; the value as the plain function sums it.
    let (v, g) = fwdad::gradient(long_i8_range {}, &[0.7]);
    assert_eq!((v, g), (long_i8_range(&[0.7]), [-100.0]));
}

/// A range from `i8`'s minimum, written `-128i8` (one literal to Rust; helper hunt H).
#[derive_frule]
fn from_i8_min(x: f64) -> f64 {
    (-128i8..=-127).map(|k| k as f64 * x).sum::<f64>() + -(2.5) * x
}

#[test]
fn negative_literals_stay_literals() {
    assert_eq!(
        fwdad::derivative(from_i8_min {}, 1.0),
        (-255.0 - 2.5, -255.0 - 2.5)
    );
}

/// A series summed until its terms are negligible: `-ln(1 - x) = Σ_{k≥1} xᵏ/k`, over an
/// unbounded range ended by `take_while`.
#[derive_frule]
fn log_series(x: f64) -> f64 {
    (1..)
        .map(|k| x.powi(k) / k as f64)
        .take_while(|t| t.abs() > 1e-17)
        .sum()
}

#[test]
fn take_while_ends_an_unbounded_series() {
    for x in [-0.6, 0.1, 0.45, 0.8] {
        let (v, d) = fwdad::derivative(log_series {}, x);
        assert_eq!(v, log_series(x), "value as the plain function sums it");
        assert!((v + (1.0 - x).ln()).abs() < 1e-14, "{v} at {x}");
        // d/dx of the truncated series is Σ xᵏ⁻¹ over the kept terms: 1/(1 - x) to
        // within the last kept term's size over x.
        let exact = 1.0 / (1.0 - x);
        assert!(
            (d - exact).abs() < 1e-12 * exact.abs(),
            "{d} vs {exact} at {x}"
        );
    }
}

/// `take_while` over a slice in a `for` loop, in a consumer after `filter` and `map`, and
/// before `max_by`; `inspect` counting what a `sum` sees; `zip` with an unbounded range.
#[derive_frule]
fn prefix_stages(x: &[f64], k: f64) -> (f64, f64, f64, f64, f64) {
    let mut lead = 0.0;
    for v in x.iter().take_while(|v| **v > 0.0) {
        lead += v * v;
    }
    let kept: f64 = x
        .iter()
        .filter(|v| v.abs() < 3.0)
        .map(|v| v * k)
        .take_while(|p| *p < 2.0)
        .sum();
    let hi = x
        .iter()
        .copied()
        .take_while(|v| *v != 0.0)
        .max_by(|a, b| a.total_cmp(b))
        .unwrap_or(0.0);
    let mut seen = 0.0;
    let total: f64 = x.iter().inspect(|_| seen += 1.0).map(|v| v.sin()).sum();
    let weighted: f64 = x.iter().zip(1..).map(|(v, i)| v * i as f64).sum();
    (lead, kept, hi, total * seen, weighted)
}

#[test]
fn take_while_inspect_and_unbounded_zip() {
    let x = vec![0.5, 1.5, 4.0, -1.0, 1.2, 0.0, 3.5];
    let k = 0.75;
    let plain = prefix_stages(&x, k);
    let n = x.len();
    // Analytic partials (∂/∂xᵢ for each i, then ∂/∂k), from the math of each output.
    // lead = x0² + x1² + x2² (x3 < 0 ends it).
    // kept: |v| < 3 keeps x0, x1, x3, x4, x5 (k·v = .375, 1.125, -.75, .9, 0); then x6 is
    // filtered out: all kept products are < 2, so kept = k (x0 + x1 + x3 + x4 + x5).
    // hi = max(x0..x4) = x2 (x5 = 0 ends it).
    // total·seen = 7 Σ sin xᵢ; weighted = Σ (i + 1) xᵢ.
    let mut expect = vec![[0.0; 5]; n + 1];
    for i in 0..3 {
        expect[i][0] = 2.0 * x[i];
    }
    for i in [0, 1, 3, 4, 5] {
        expect[i][1] = k;
        expect[n][1] += x[i];
    }
    expect[2][2] = 1.0;
    for i in 0..n {
        expect[i][3] = 7.0 * x[i].cos();
        expect[i][4] = (i + 1) as f64;
    }
    for (j, row) in expect.iter().enumerate() {
        let mut dx = vec![0.0; n];
        let mut dk = 0.0;
        if j < n {
            dx[j] = 1.0;
        } else {
            dk = 1.0;
        }
        let r = prefix_stages_frule(Dual::new(&x[..], &dx[..]), Dual::new(k, dk));
        assert_eq!(r.primal, plain);
        let t = r.tangent;
        assert_eq!([t.0, t.1, t.2, t.3, t.4], *row, "direction {j}");
    }
    test_frule(
        (x.clone(), k),
        |a| prefix_stages(&a.0, a.1),
        |a, da| prefix_stages_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
}

/// An unbounded `u8` range, taken to 254 or to its maximum, 255.
#[derive_frule]
fn u8_from(x: f64, past: bool) -> f64 {
    let n = if past { 6 } else { 5 };
    (250u8..).take(n).map(|k| k as f64 * x).sum()
}

#[test]
fn unbounded_ranges_overflow_as_their_iterators_do() {
    let rule = |x: f64, past: bool| u8_from_frule(Dual::new(x, 1.0), Dual::new(past, NoTangent));
    let r = rule(2.0, false);
    assert_eq!((r.primal, r.tangent), (u8_from(2.0, false), 1260.0));
    // Yielding 255 the plain chain panics in debug builds, computing the next start (in
    // release builds it wraps, as `range_from_at` does too).
    let plain = std::panic::catch_unwind(|| u8_from(2.0, true));
    let derived = std::panic::catch_unwind(|| rule(2.0, true).primal);
    assert_eq!(plain.is_err(), cfg!(debug_assertions));
    assert_eq!(derived.is_err(), plain.is_err());
    if let (Ok(p), Ok(d)) = (plain, derived) {
        assert_eq!(p, d);
    }
}

/// `scan`: running sums collected; a running product ended by `None`; an exponential
/// filter in a `for` loop, its state typed.
#[derive_frule]
fn scans(x: &[f64]) -> (Vec<f64>, f64, f64) {
    let cumulative: Vec<f64> = x
        .iter()
        .scan(0.0, |s, &v| {
            *s += v;
            Some(*s)
        })
        .collect();
    let capped: f64 = x
        .iter()
        .scan(1.0, |p, v| {
            *p *= v;
            if *p > 10.0 {
                None
            } else {
                Some(*p)
            }
        })
        .sum();
    let mut smooth = 0.0;
    for c in x.iter().scan(x[0], |s: &mut f64, v| {
        *s = 0.5 * *s + v;
        Some(*s)
    }) {
        smooth += c.sin();
    }
    (cumulative, capped, smooth)
}

#[test]
fn scan_carries_its_state() {
    let x = vec![1.5, 2.0, 4.0, 0.5];
    let n = x.len();
    let plain = scans(&x);
    for j in 0..n {
        let mut dx = vec![0.0; n];
        dx[j] = 1.0;
        let r = scans_frule(Dual::new(&x[..], &dx[..]));
        assert_eq!(r.primal, plain);
        let (dc, dcap, dsm) = r.tangent;
        // cumulative[i] = Σ_{k≤i} x_k.
        let expect: Vec<f64> = (0..n).map(|i| if j <= i { 1.0 } else { 0.0 }).collect();
        assert_eq!(dc, expect, "direction {j}");
        // capped = x0 + x0 x1 + x0 x1 x2 stops before 1.5·2·4 = 12 > 10: x0 + x0 x1.
        let expect = [1.0 + x[1], x[0], 0.0, 0.0][j];
        assert_eq!(dcap, expect, "direction {j}");
        // s0 = x0; sᵢ₊₁ = sᵢ/2 + xᵢ; smooth = Σ sin(sᵢ₊₁), i = 0..n.
        let mut s = x[0];
        let mut ds = if j == 0 { 1.0 } else { 0.0 };
        let mut dsmooth = 0.0;
        for (i, v) in x.iter().enumerate() {
            s = 0.5 * s + v;
            ds = 0.5 * ds + if i == j { 1.0 } else { 0.0 };
            dsmooth += s.cos() * ds;
        }
        assert!((dsm - dsmooth).abs() < 1e-14, "{dsm} vs {dsmooth}");
    }
    test_frule(
        (x.clone(),),
        |a| scans(&a.0),
        |a, da| scans_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule_batched::<3, _, _>(
        (x.clone(),),
        |a| scans(&a.0),
        |a, da| {
            <scans as Frule<_, Batch<f64, 3>>>::frule(&scans {}, (Dual::new(&a.0[..], &da.0[..]),))
        },
    );
}

/// Unbounded ranges under `chain`, `step_by` and `skip` (their lengths saturate at
/// `usize::MAX`; review of the unbounded ranges).
#[derive_frule]
fn unbounded_compositions(x: f64) -> (f64, f64, f64, f64) {
    let chained: f64 = (0..3)
        .chain(5..)
        .take_while(|k| *k < 9)
        .map(|k| k as f64 * x)
        .sum();
    // atanh x = Σ_{k odd} xᵏ/k.
    let atanh: f64 = (1..)
        .step_by(2)
        .map(|k| x.powi(k) / k as f64)
        .take_while(|t| t.abs() > 1e-17)
        .sum();
    let strided: f64 = (0u32..).step_by(3).take(4).map(|k| k as f64 * x).sum();
    let skipped: f64 = (250u8..).skip(3).take(2).map(|k| k as f64 * x).sum();
    (chained, atanh, strided, skipped)
}

#[test]
fn unbounded_ranges_compose() {
    let x = 0.4;
    let r = unbounded_compositions_frule(Dual::new(x, 1.0));
    assert_eq!(r.primal, unbounded_compositions(x));
    let t = r.tangent;
    // Σ over 0, 1, 2, 5, 6, 7, 8; 1/(1 - x²) to the last kept term; 0 + 3 + 6 + 9; 253 + 254.
    assert_eq!((t.0, t.2, t.3), (29.0, 18.0, 507.0));
    let exact = 1.0 / (1.0 - x * x);
    assert!((t.1 - exact).abs() < 1e-13 * exact, "{} vs {exact}", t.1);
    assert!((r.primal.1 - x.atanh()).abs() < 1e-15);
}

/// Stepping an unbounded `u8` range over its maximum with `skip` or `step_by`.
#[derive_frule]
fn u8_past_max(x: f64, how: usize) -> f64 {
    match how {
        0 => (250u8..).skip(10).take(1).map(|k| k as f64 * x).sum(),
        1 => (0u8..).step_by(3).take(86).map(|k| k as f64 * x).sum(),
        _ => (0u8..).step_by(3).take(85).map(|k| k as f64 * x).sum(),
    }
}

#[test]
fn unbounded_ranges_stepped_past_their_maximum() {
    for how in 0..3 {
        let plain = std::panic::catch_unwind(|| u8_past_max(2.0, how));
        let rule = std::panic::catch_unwind(|| {
            u8_past_max_frule(Dual::new(2.0, 1.0), Dual::new(how, NoTangent)).primal
        });
        // Debug builds: 0 and 1 panic (as the plain chain does), 2 stops at 252.
        assert_eq!(
            plain.is_err(),
            cfg!(debug_assertions) && how < 2,
            "case {how}"
        );
        assert_eq!(rule.is_err(), plain.is_err(), "case {how}");
        if let (Ok(p), Ok(r)) = (plain, rule) {
            assert_eq!(p.to_bits(), r.to_bits(), "case {how}");
        }
    }
}

/// A `scan`'s state is evaluated before `fold`'s initial value, as Rust evaluates them.
#[derive_frule]
fn scan_then_fold(x: &[f64]) -> f64 {
    let mut c = 0.0;
    let folded = x
        .iter()
        .scan(
            {
                c += 1.0;
                c
            },
            |s, v| {
                *s += v;
                Some(*s)
            },
        )
        .fold(
            {
                c *= 10.0;
                c
            },
            |a, b| a + b,
        );
    folded + c
}

#[test]
fn adaptor_arguments_before_the_consumers() {
    let x = vec![0.5, 2.0];
    let d = scan_then_fold_frule(Dual::new(&x[..], &[1.0, 1.0][..]));
    // c = 1 (state), then 10 (fold): 10 + (1.5 + 3.5) + 10.
    assert_eq!(d.primal, scan_then_fold(&x));
    assert_eq!(d.primal, 25.0);
    assert_eq!(d.tangent, 1.0 + 2.0);
}

/// Closures passed to `scan` and `map` that assign captured variables, inside an outer
/// `for` loop and in a `while` condition: the assigned variables are carried by the outer
/// loops (they were missed, an internal "does not dominate" error; review 4).
#[derive_frule]
fn closures_assign_in_outer_loops(p: &[f64]) -> f64 {
    let (x, y) = (&p[..2], p[2]);
    let mut total = 0.0;
    let mut outer = 0.0;
    for j in 0..2 {
        let s: f64 = x
            .iter()
            .scan(y, |st, &v| {
                *st *= v;
                outer += v * y;
                Some(*st)
            })
            .sum();
        total += s * (j as f64 + 1.0);
    }
    let mut k = 0;
    let mut c = 0.0;
    while x
        .iter()
        .map(|&v| {
            c += v;
            v
        })
        .sum::<f64>()
        * (k as f64)
        < 3.0 * y
    {
        k += 1;
    }
    total + outer + c
}

#[test]
fn closures_assigning_captures_in_outer_loops() {
    let p: [f64; 3] = [1.0, 2.0, 2.9];
    let (x0, x1, y) = (p[0], p[1], p[2]);
    // The `while` condition runs `count` times: until (x0 + x1)·k ≥ 3y.
    let count = (3.0 * y / (x0 + x1)).ceil() + 1.0;
    let value = 3.0 * y * (x0 + x0 * x1) + 2.0 * y * (x0 + x1) + count * (x0 + x1);
    let (v, g) = gradient(closures_assign_in_outer_loops {}, &p);
    assert!((v - value).abs() < 1e-12, "{v} vs {value}");
    let exact = [
        3.0 * y * (1.0 + x1) + 2.0 * y + count,
        3.0 * y * x0 + 2.0 * y + count,
        3.0 * (x0 + x0 * x1) + 2.0 * (x0 + x1),
    ];
    for (a, b) in g.iter().zip(exact) {
        assert!((a - b).abs() < 1e-12, "{g:?} vs {exact:?}");
    }
}

/// `max_by` after `scan` (which yields values, as `map` does) and `min_by` after
/// `copied().inspect(..)`.
#[derive_frule]
fn extremum_after_scan(x: &[f64]) -> f64 {
    let a = x
        .iter()
        .scan(1.0, |st, &v| {
            *st *= v;
            Some(*st)
        })
        .max_by(|a, b| a.total_cmp(b))
        .unwrap_or(0.0);
    let b = x
        .iter()
        .copied()
        .inspect(|v| assert!(v.is_finite()))
        .min_by(|a, b| a.total_cmp(b))
        .unwrap_or(0.0);
    a + b
}

#[test]
fn max_by_after_scan() {
    let x = [1.5, 2.0, -0.5];
    // Running products 1.5, 3, -1.5: the maximum is x₀x₁; the minimum is x₂.
    let (v, g) = gradient(extremum_after_scan {}, &x);
    assert_eq!(v, x[0] * x[1] + x[2]);
    assert_eq!(g, [x[1], x[0], 1.0]);
}

/// A table lookup as users write it: the knot found by `binary_search_by` with
/// `partial_cmp` against the (active) query, exact hits taking their knot's value.
#[derive_frule]
fn lookup(knots: &[f64], values: &[f64], x: f64) -> f64 {
    match knots.binary_search_by(|k| k.partial_cmp(&x).unwrap()) {
        Ok(i) => values[i] * x,
        Err(i) => {
            let i = i.clamp(1, knots.len() - 1);
            let t = (x - knots[i - 1]) / (knots[i] - knots[i - 1]);
            values[i - 1] + t * (values[i] - values[i - 1])
        }
    }
}

#[derive_frule]
fn search_code(x: &[f64], t: f64) -> f64 {
    match x.binary_search_by(|v| v.partial_cmp(&t).unwrap()) {
        Ok(i) => (i as f64 + 0.5) * t,
        Err(i) => -(i as f64) * t,
    }
}

/// `binary_search_by` probes as std does: `Ok`/`Err` and the index are std's on every
/// 0/1/2 pattern up to length 8, sorted or not (std leaves the index unspecified for
/// several matches or an unsorted slice; the rule must still compute what the plain
/// function computes).
#[test]
fn binary_search_by_matches_std_on_every_pattern() {
    for n in 0..=8usize {
        for code in 0..3usize.pow(n as u32) {
            let x: Vec<f64> = (0..n)
                .map(|k| (code / 3usize.pow(k as u32) % 3) as f64)
                .collect();
            let want = search_code(&x, 1.0);
            let d = search_code_frule(Dual::new(&x[..], &vec![0.0; n][..]), Dual::new(1.0, 1.0));
            assert_eq!((d.primal, d.tangent), (want, want), "{x:?}");
        }
    }
}

#[test]
fn lookup_by_binary_search_by() {
    let knots = [0.0, 1.0, 2.5, 4.0];
    let vals = [1.0, 3.0, 2.0, 5.0];
    // Between knots: linear interpolation, slope (v1 - v0)/h; at a knot: values[i]·x.
    for x in [0.25, 1.7, 3.0, 3.9] {
        let i = knots.iter().position(|&k| k > x).unwrap();
        let slope = (vals[i] - vals[i - 1]) / (knots[i] - knots[i - 1]);
        let d = lookup_frule(
            Dual::constant(&knots[..]),
            Dual::constant(&vals[..]),
            Dual::new(x, 1.0),
        );
        assert_eq!(d.primal.to_bits(), lookup(&knots, &vals, x).to_bits());
        assert!((d.tangent - slope).abs() < 1e-14);
        let (_, g) = fwdad::gradient(bind(lookup {}, (&knots[..], Wrt, x)), &vals);
        let t = (x - knots[i - 1]) / (knots[i] - knots[i - 1]);
        let mut want = [0.0; 4];
        want[i - 1] = 1.0 - t;
        want[i] = t;
        for k in 0..4 {
            assert!((g[k] - want[k]).abs() < 1e-15, "{x} {k}");
        }
    }
    let d = lookup_frule(
        Dual::constant(&knots[..]),
        Dual::constant(&vals[..]),
        Dual::new(2.5, 1.0),
    );
    assert_eq!((d.primal, d.tangent), (5.0, 2.0));
}
