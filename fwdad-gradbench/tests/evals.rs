//! Each eval's functions at reduced sizes, against finite differences, closed forms written
//! from the math, and the spec's expected values. (CI has no GradBench; its validator
//! compares with the C++ reference, see README.md.)

// The closed forms are written with indices, as in the math.
#![allow(clippy::needless_range_loop)]

use fwdad_gradbench::evals::{
    ba, det, gmm, hello, ht, kmeans, llsq, lse, lstm, ode, particle, saddle,
};
use fwdad_gradbench::protocol::respond;
use serde_json::{json, Value};

/// Central differences of `f` at `x`, step `h` relative to each coordinate.
fn fd_gradient(f: impl Fn(&[f64]) -> f64, x: &[f64], h: f64) -> Vec<f64> {
    let mut x = x.to_vec();
    (0..x.len())
        .map(|i| {
            let xi = x[i];
            let step = h * xi.abs().max(1.0);
            x[i] = xi + step;
            let up = f(&x);
            x[i] = xi - step;
            let down = f(&x);
            x[i] = xi;
            (up - down) / (2.0 * step)
        })
        .collect()
}

/// `|a − b| ≤ tol · max(1, |a|, |b|)` for each pair.
fn assert_close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len(), "lengths differ");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let scale = 1f64.max(x.abs()).max(y.abs());
        assert!((x - y).abs() <= tol * scale, "entry {i}: {x} vs {y}");
    }
}

/// A deterministic pseudo-random sequence in [lo, hi).
fn uniform(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

#[test]
fn hello_square_and_double() {
    assert_eq!(hello::square(3.0), 9.0);
    assert_eq!(hello::double(3.0), 6.0);
    assert_eq!(hello::double(-0.25), -0.5);
}

#[test]
fn llsq_primal_by_hand_and_gradient_against_fd() {
    // m = 1: ½ Σ (sᵢ − x₀)², with n = 4 points t = −1, −⅓, ⅓, 1: signs −1, −1, 1, 1.
    let x0 = 0.3;
    let expected = 0.5 * (2.0 * (-1.0 - x0) * (-1.0 - x0) + 2.0 * (1.0 - x0) * (1.0 - x0));
    assert!((llsq::llsq(&[x0], 4) - expected).abs() < 1e-14);
    // t = 0 (odd n) has sign 0.
    assert!((llsq::llsq(&[0.0], 3) - 0.5 * 2.0).abs() < 1e-14);
    let x = uniform(6, 1, -1.0, 1.0);
    let g = llsq::llsq_gradient(&x, 40);
    assert_close(&g, &fd_gradient(|x| llsq::llsq(x, 40), &x, 1e-6), 1e-6);
}

#[test]
fn lse_is_log_sum_exp_and_its_gradient_the_softmax() {
    let x = uniform(100, 2, -3.0, 3.0);
    let naive = x.iter().map(|v| v.exp()).sum::<f64>().ln();
    assert!((lse::logsumexp(&x) - naive).abs() < 1e-13);
    let softmax: Vec<f64> = x
        .iter()
        .map(|v| v.exp() / x.iter().map(|w| w.exp()).sum::<f64>())
        .collect();
    assert_close(&lse::logsumexp_gradient(&x), &softmax, 1e-14);
    // Large entries overflow exp without the max trick.
    assert!((lse::logsumexp(&[1000.0, 1000.0]) - (1000.0 + 2f64.ln())).abs() < 1e-12);
}

#[test]
fn det_against_cofactors_and_fd() {
    let a = [2.0, -1.0, 0.5, 1.0, 3.0, -2.0, 0.0, 4.0, 1.5];
    let (p, q, r, s, t, u, v, w, z) = (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]);
    let by_rule = p * (t * z - u * w) - q * (s * z - u * v) + r * (s * w - t * v);
    assert!((det::det(&a, 3) - by_rule).abs() < 1e-13);
    // ∂det/∂Aᵢⱼ is the cofactor Cᵢⱼ.
    let cofactors = [
        t * z - u * w,
        -(s * z - u * v),
        s * w - t * v,
        -(q * z - r * w),
        p * z - r * v,
        -(p * w - q * v),
        q * u - r * t,
        -(p * u - r * s),
        p * t - q * s,
    ];
    assert_close(&det::det_gradient(&a, 3), &cofactors, 1e-14);
    let a5 = uniform(25, 3, -1.0, 1.0);
    assert_close(
        &det::det_gradient(&a5, 5),
        &fd_gradient(|a| det::det(a, 5), &a5, 1e-6),
        1e-7,
    );
    assert_eq!(det::det(&[7.0], 1), 7.0);
}

#[test]
fn ode_against_the_exact_solution() {
    // yᵢ(t) = x₀x₁…xᵢ tⁱ⁺¹/(i + 1)!: polynomials of degree ≤ 4, which RK4 integrates
    // exactly for n ≤ 4, whatever s.
    let x = [0.5, 1.5, -0.8, 1.2];
    let exact: Vec<f64> = (0..4)
        .map(|i| {
            let prod: f64 = x[..=i].iter().product();
            let fact: f64 = (1..=i + 1).map(|k| k as f64).product();
            prod * 2f64.powi(i as i32 + 1) / fact
        })
        .collect();
    for s in [1, 3, 10] {
        assert_close(&ode::primal(&x, s), &exact, 1e-13);
        // ∂y₃/∂xⱼ = y₃ / xⱼ.
        let grad: Vec<f64> = x.iter().map(|xj| exact[3] / xj).collect();
        assert_close(&ode::last_gradient(&x, s), &grad, 1e-13);
    }
    let x = uniform(12, 4, 0.0, 1.0);
    assert_close(
        &ode::last_gradient(&x, 5),
        &fd_gradient(|x| ode::last(x, 5), &x, 1e-6),
        1e-8,
    );
}

#[test]
fn kmeans_cost_and_newton_direction_by_hand() {
    // Newton's direction for a centroid is its offset from the mean of its cluster.
    let points = [0.0, 0.0, 1.0, 2.0, 5.0, 5.0, 6.0, 4.0, 7.0, 6.0];
    let centroids = [0.4, 0.7, 5.5, 5.5];
    let cost = 0.4f64.powi(2)
        + 0.7f64.powi(2)
        + 0.6f64.powi(2)
        + 1.3f64.powi(2)
        + 2.0 * 0.5f64.powi(2)
        + 0.5f64.powi(2)
        + 1.5f64.powi(2)
        + 1.5f64.powi(2)
        + 0.5f64.powi(2);
    assert!((kmeans::cost(&centroids, &points, 2) - cost).abs() < 1e-13);
    let expected = [0.4 - 0.5, 0.7 - 1.0, 5.5 - 6.0, 5.5 - 5.0];
    assert_close(&kmeans::dir(&centroids, &points, 2), &expected, 1e-14);
}

/// The GMM log posterior straight from its definition: densities with `Σₖ⁻¹ = QₖᵀQₖ` and
/// determinants, and the Wishart density on the precision matrices.
fn gmm_naive(g: &gmm::Gmm) -> f64 {
    let (d, k) = (g.d, g.k);
    let lsz = d * (d - 1) / 2;
    let (alpha, rest) = g.params.split_at(k);
    let (mu, rest) = rest.split_at(k * d);
    let (q, l) = rest.split_at(k * d);
    let mut precisions = Vec::new();
    let mut dets = Vec::new();
    for ik in 0..k {
        let mut qm = vec![vec![0.0; d]; d];
        let mut li = 0;
        for col in 0..d {
            qm[col][col] = q[ik * d + col].exp();
            for row in col + 1..d {
                qm[row][col] = l[ik * lsz + li];
                li += 1;
            }
        }
        let prec: Vec<Vec<f64>> = (0..d)
            .map(|i| {
                (0..d)
                    .map(|j| (0..d).map(|r| qm[r][i] * qm[r][j]).sum())
                    .collect()
            })
            .collect();
        dets.push((0..d).map(|j| qm[j][j] * qm[j][j]).product::<f64>());
        precisions.push(prec);
    }
    let z: f64 = alpha.iter().map(|a| a.exp()).sum();
    let n = g.x.len() / d;
    let mut loglik = 0.0;
    for i in 0..n {
        let mut p = 0.0;
        for ik in 0..k {
            let c: Vec<f64> = (0..d).map(|j| g.x[i * d + j] - mu[ik * d + j]).collect();
            let quad: f64 = (0..d)
                .map(|a| {
                    (0..d)
                        .map(|b| c[a] * precisions[ik][a][b] * c[b])
                        .sum::<f64>()
                })
                .sum();
            let density = (-0.5 * quad).exp() * dets[ik].sqrt()
                / (2.0 * std::f64::consts::PI).powf(d as f64 / 2.0);
            p += alpha[ik].exp() / z * density;
        }
        loglik += p.ln();
    }
    // log W_d(X; V = I/γ², ν = d + m + 1).
    let nu = (d + g.m + 1) as f64;
    let mut logprior = 0.0;
    for ik in 0..k {
        let trace: f64 = (0..d)
            .map(|j| g.gamma * g.gamma * precisions[ik][j][j])
            .sum();
        let log_det_v = d as f64 * (1.0 / (g.gamma * g.gamma)).ln();
        logprior += 0.5 * (nu - d as f64 - 1.0) * dets[ik].ln()
            - 0.5 * trace
            - 0.5 * nu * d as f64 * 2f64.ln()
            - 0.5 * nu * log_det_v
            - gmm::log_multigamma(0.5 * nu, d);
    }
    loglik + logprior
}

fn small_gmm(d: usize, k: usize, n: usize, m: usize) -> gmm::Gmm {
    let lsz = d * (d - 1) / 2;
    let input = json!({
        "d": d, "k": k, "n": n, "m": m, "gamma": 1.3,
        "alpha": uniform(k, 10, -1.0, 1.0),
        "mu": uniform(k * d, 11, -1.0, 1.0).chunks(d).map(|r| r.to_vec()).collect::<Vec<_>>(),
        "q": uniform(k * d, 12, -0.5, 0.5).chunks(d).map(|r| r.to_vec()).collect::<Vec<_>>(),
        "l": (0..k).map(|i| uniform(lsz, 13 + i as u64, -0.5, 0.5)).collect::<Vec<_>>(),
        "x": uniform(n * d, 14, -1.5, 1.5).chunks(d).map(|r| r.to_vec()).collect::<Vec<_>>(),
    });
    gmm::Gmm::from_input(&input).unwrap()
}

#[test]
fn gmm_objective_against_the_definition_and_gradient_against_fd() {
    for (d, k, m) in [(1, 1, 0), (2, 3, 0), (3, 2, 2)] {
        let g = small_gmm(d, k, 6, m);
        let (ours, naive) = (g.objective(), gmm_naive(&g));
        assert!(
            (ours - naive).abs() < 1e-10 * naive.abs().max(1.0),
            "d={d} k={k}: {ours} vs {naive}"
        );
        let fd = fd_gradient(
            |p| {
                gmm::Gmm {
                    params: p.to_vec(),
                    x: g.x.clone(),
                    ..small_gmm(d, k, 6, m)
                }
                .objective()
            },
            &g.params,
            1e-6,
        );
        assert_close(&g.gradient(), &fd, 1e-6);
    }
    let g = small_gmm(3, 2, 4, 0);
    let out = g.unpack(&g.gradient());
    assert_eq!(out["alpha"].as_array().unwrap().len(), 2);
    assert_eq!(out["mu"][1].as_array().unwrap().len(), 3);
    assert_eq!(out["l"][0].as_array().unwrap().len(), 3);
}

fn small_ba(n: usize, m: usize, p: usize) -> ba::Ba {
    let input = json!({
        "n": n, "m": m, "p": p,
        "cam": [0.1, -0.2, 0.3, 0.5, -0.4, -3.0, 400.0, 0.2, -0.1, 1e-4, -2e-6],
        "x": [0.3, 0.2, 2.0], "w": 0.8, "feat": [10.0, -20.0],
    });
    ba::Ba::from_input(&input).unwrap()
}

#[test]
fn ba_projection_by_hand_and_jacobian_against_fd() {
    // No rotation, no distortion: the pinhole image f·(X − C)ₓ,ᵧ / (X − C)_z + principal point.
    let cam = [0.0, 0.0, 0.0, 1.0, 2.0, -3.0, 100.0, 5.0, 6.0, 0.0, 0.0];
    let p = ba::project(&cam, &[2.0, 4.0, 1.0]);
    assert_close(
        &p,
        &[100.0 * 1.0 / 4.0 + 5.0, 100.0 * 2.0 / 4.0 + 6.0],
        1e-14,
    );
    // A rotation by π/2 about z takes (1, 0, 0) to (0, 1, 0).
    let r = ba::rodrigues_rotate(&[0.0, 0.0, std::f64::consts::FRAC_PI_2], &[1.0, 0.0, 0.0]);
    assert_close(&r, &[0.0, 1.0, 0.0], 1e-15);

    let b = small_ba(3, 5, 7);
    let (reproj, werr) = b.objective();
    assert_eq!((reproj.len(), werr.len()), (14, 7));
    assert!((werr[0] - (1.0 - 0.64)).abs() < 1e-15);
    let j = b.jacobian();
    assert_eq!(j.rows.len(), 3 * 7 + 1);
    assert_eq!(j.rows[1] - j.rows[0], 15);
    assert_eq!(*j.rows.last().unwrap(), 2 * 15 * 7 + 7);
    let feat = &b.feats[0..2];
    let mut block: Vec<f64> = b.cams[0..11].to_vec();
    block.extend_from_slice(&b.points[0..3]);
    block.push(b.weights[0]);
    for r in 0..2 {
        let fd = fd_gradient(
            |z| ba::reproj_error(&z[0..11], &z[11..14], z[14], feat)[r],
            &block,
            1e-7,
        );
        assert_close(&j.vals[15 * r..15 * (r + 1)], &fd, 1e-5);
    }
    // Observation 4 uses camera 1 and point 4; its weight column comes last.
    let row8 = j.rows[8];
    assert_eq!(
        &j.cols[row8..row8 + 15],
        &[
            11,
            12,
            13,
            14,
            15,
            16,
            17,
            18,
            19,
            20,
            21,
            33 + 12,
            33 + 13,
            33 + 14,
            33 + 15 + 4
        ]
    );
    assert_eq!(*j.vals.last().unwrap(), -2.0 * 0.8);
}

#[test]
fn lstm_gradient_against_fd() {
    let (l, b, c) = (2, 3, 5);
    let input = json!({
        "main_params": uniform(2 * l * 4 * b, 20, -1.0, 1.0).chunks(4 * b).map(|r| r.to_vec()).collect::<Vec<_>>(),
        "extra_params": uniform(3 * b, 21, -1.0, 1.0).chunks(b).map(|r| r.to_vec()).collect::<Vec<_>>(),
        "state": uniform(2 * l * b, 22, -1.0, 1.0).chunks(b).map(|r| r.to_vec()).collect::<Vec<_>>(),
        "sequence": uniform(c * b, 23, 0.0, 1.0).iter().map(|v| v.round()).collect::<Vec<_>>().chunks(b).map(|r| r.to_vec()).collect::<Vec<_>>(),
    });
    let m = lstm::Lstm::from_input(&input).unwrap();
    let g = m.gradient();
    assert_eq!(g.len(), b * (8 * l + 3));
    let fd = fd_gradient(
        |p| {
            lstm::Lstm {
                params: p.to_vec(),
                state: m.state.clone(),
                sequence: m.sequence.clone(),
                b,
            }
            .objective()
        },
        &m.params,
        1e-6,
    );
    assert_close(&g, &fd, 1e-7);
}

#[test]
fn particle_nested_derivative_against_fd_and_the_spec_value() {
    // The outer derivative through the trajectory, whose force is itself a derivative.
    for w in [0.0, 0.3] {
        let d = fwdad::derivative(particle::miss {}, w).1;
        let fd = fd_gradient(|w| particle::miss(w[0]), &[w], 1e-6)[0];
        assert!(
            (d - fd).abs() < 1e-6 * d.abs().max(1.0),
            "w={w}: {d} vs {fd}"
        );
    }
    // The inner derivative: the force is −∇ₓ of the potential.
    let g = particle::grad_x_potential(&[1.0, 2.0], 0.5);
    assert_close(
        &g,
        &fd_gradient(|x| particle::potential(x, 0.5), &[1.0, 2.0], 1e-6),
        1e-8,
    );
    // The eval's expected answer.
    assert!((particle::particle_ff(0.0) - 0.2071918746486116).abs() < 1e-9);
}

#[test]
fn saddle_nested_gradient_against_fd_and_the_spec_value() {
    let start = [1.0, 1.0];
    let x = [0.7, -0.4];
    let g =
        fwdad::gradient_with::<2>(fwdad::bind(saddle::max_f {}, (fwdad::Wrt, &start[..])), &x).1;
    let fd = fd_gradient(|x| saddle::max_f(x, &start), &x, 1e-6);
    assert_close(&g, &fd, 1e-6);
    let out = saddle::saddle_ff([1.0, 1.0]);
    assert_close(&out, &[8.246324826140356e-06; 4], 1e-12);
}

#[test]
fn protocol_messages() {
    assert_eq!(
        respond(r#"{"id":0,"kind":"start","eval":"hello"}"#),
        json!({"id": 0, "tool": "fwdad"})
    );
    assert_eq!(
        respond(r#"{"id":1,"kind":"define","module":"gmm"}"#)["success"],
        true
    );
    let missing = respond(r#"{"id":1,"kind":"define","module":"nope"}"#);
    assert_eq!(missing["success"], false);
    assert!(missing["error"].as_str().unwrap().contains("nope"));
    let r = respond(
        r#"{"id":2,"kind":"evaluate","module":"lse","function":"gradient","input":{"x":[0.0,0.0],"min_runs":3,"min_seconds":0}}"#,
    );
    assert_eq!(r["id"], 2);
    assert_eq!(r["output"], json!([0.5, 0.5]));
    let timings = r["timings"].as_array().unwrap();
    assert_eq!(timings.len(), 3);
    assert!(timings
        .iter()
        .all(|t| t["name"] == "evaluate" && t["nanoseconds"].is_u64()));
    // The reverse-mode nestings are answered by the forward-over-forward computation, as
    // GradBench's `finite` tool answers every variant with its one method.
    let ff = respond(
        r#"{"id":3,"kind":"evaluate","module":"saddle","function":"ff","input":{"start":[1.0,1.0],"min_runs":1,"min_seconds":0}}"#,
    );
    let rr = respond(
        r#"{"id":3,"kind":"evaluate","module":"saddle","function":"rr","input":{"start":[1.0,1.0],"min_runs":1,"min_seconds":0}}"#,
    );
    assert_eq!(rr["success"], true);
    assert_eq!(rr["output"], ff["output"]);
    assert_eq!(rr["output"].as_array().map(Vec::len), Some(4));
    let bad = respond(
        r#"{"id":4,"kind":"evaluate","module":"det","function":"primal","input":{"A":[1.0,2.0],"ell":2}}"#,
    );
    assert_eq!(bad["success"], false);
    assert_eq!(
        respond(r#"{"id":5,"kind":"analysis","of":2,"valid":true}"#),
        json!({"id": 5})
    );
    let kmeans = respond(
        r#"{"id":6,"kind":"evaluate","module":"kmeans","function":"dir","input":{"points":[[0.0],[2.0]],"centroids":[[0.5]]}}"#,
    );
    assert_eq!(kmeans["output"], json!([[-0.5]]));
    let _: Value = kmeans;
}

#[test]
fn every_eval_is_defined_and_dispatched() {
    let evals = [
        "hello", "llsq", "lse", "gmm", "ba", "ht", "lstm", "ode", "det", "kmeans", "particle",
        "saddle",
    ];
    for module in evals {
        let define = respond(&format!(
            r#"{{"id":1,"kind":"define","module":"{module}"}}"#
        ));
        assert_eq!(define["success"], true, "{module}");
        // An unknown function reaches the module, which names itself.
        let r = respond(&format!(
            r#"{{"id":2,"kind":"evaluate","module":"{module}","function":"nope","input":{{}}}}"#
        ));
        assert_eq!(r["success"], false);
        let error = r["error"].as_str().unwrap();
        assert!(!error.contains("no module"), "{module}: {error}");
    }
}

/// A chain of 22 bones (what the 26 parameters pose), each `0.1` above its parent, and
/// 4 vertices, each weighted over all bones.
fn small_hand(complicated: bool) -> ht::Ht {
    let bones = 22;
    let translation = |y: f64| {
        vec![
            vec![1.0, 0.0, 0.0, 0.0],
            vec![0.0, 1.0, 0.0, y],
            vec![0.0, 0.0, 1.0, 0.0],
            vec![0.0, 0.0, 0.0, 1.0],
        ]
    };
    let parents: Vec<i64> = (0..bones as i64).map(|b| b - 1).collect();
    let relatives: Vec<_> = (0..bones)
        .map(|b| translation(if b == 0 { 0.0 } else { 0.1 }))
        .collect();
    let inverse_absolutes: Vec<_> = (0..bones).map(|b| translation(-0.1 * b as f64)).collect();
    let weights: Vec<Vec<f64>> = (0..4)
        .map(|v| {
            let raw: Vec<f64> = (0..bones)
                .map(|b| 1.0 + ((v * 7 + b * 3) % 5) as f64)
                .collect();
            let total: f64 = raw.iter().sum();
            raw.iter().map(|w| w / total).collect()
        })
        .collect();
    let points = uniform(9, 30, -1.0, 1.0)
        .chunks(3)
        .map(|r| r.to_vec())
        .collect::<Vec<_>>();
    let us = if complicated {
        vec![vec![0.2, 0.3], vec![0.5, 0.1], vec![0.3, 0.3]]
    } else {
        vec![]
    };
    let correspondences = if complicated {
        vec![0, 1, 0]
    } else {
        vec![3, 0, 2]
    };
    let input = json!({
        "theta": uniform(26, 31, -0.6, 0.6),
        "us": us,
        "data": {
            "correspondences": correspondences,
            "points": points,
            "model": {
                "bone_count": bones, "bone_names": vec!["bone"; bones], "parents": parents,
                "base_relatives": relatives,
                "inverse_base_absolutes": inverse_absolutes,
                "base_positions": [[0.0, 0.0, 0.0, 1.0], [0.1, 0.5, 0.0, 1.0], [0.0, 1.2, 0.1, 1.0], [0.2, 1.8, -0.1, 1.0]],
                "weights": weights,
                "triangles": [[0, 1, 2], [1, 2, 3]],
                "is_mirrored": complicated,
            },
        },
    });
    ht::Ht::from_input(&input).unwrap()
}

#[test]
fn ht_rest_pose_and_jacobian_against_fd() {
    // At θ = 0 every bone is at rest: the vertices are the base positions.
    let mut hand = small_hand(false);
    let theta = hand.theta.clone();
    hand.theta = vec![0.0; 26];
    let err = hand.objective();
    let base = [
        [0.0, 0.0, 0.0],
        [0.1, 0.5, 0.0],
        [0.0, 1.2, 0.1],
        [0.2, 1.8, -0.1],
    ];
    for (p, &v) in hand.correspondences.iter().enumerate() {
        for j in 0..3 {
            assert!((err[3 * p + j] - (hand.points[3 * p + j] - base[v][j])).abs() < 1e-14);
        }
    }
    hand.theta = theta;
    for complicated in [false, true] {
        let hand = small_hand(complicated);
        let (jac, cols) = hand.jacobian();
        assert_eq!(cols, if complicated { 28 } else { 26 });
        let rows = 3 * hand.correspondences.len();
        for r in 0..rows {
            let fd_theta = fd_gradient(
                |t| {
                    ht::Ht {
                        theta: t.to_vec(),
                        ..small_hand(complicated)
                    }
                    .objective()[r]
                },
                &hand.theta,
                1e-6,
            );
            let offset = cols - 26;
            assert_close(&jac[r * cols + offset..(r + 1) * cols], &fd_theta, 1e-7);
            if complicated {
                // Point p's residuals against its own u.
                let p = r / 3;
                let fd_u = fd_gradient(
                    |u| {
                        let mut us = hand.us.clone();
                        us[2 * p] = u[0];
                        us[2 * p + 1] = u[1];
                        ht::Ht {
                            us,
                            ..small_hand(true)
                        }
                        .objective()[r]
                    },
                    &hand.us[2 * p..2 * p + 2],
                    1e-6,
                );
                assert_close(&jac[r * cols..r * cols + 2], &fd_u, 1e-7);
            }
        }
    }
}
