//! `fwdad::gradient` chooses its width and tangent type by timing its own first calls, per
//! function and length; every call's gradient must be the formula's, the same values
//! whatever the plan.

// The functions index slices in loops, as their authors write them.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{gradient_plan_chosen, gradient_width_chosen, gradient_with, GradientPlan};
use fwdad::prelude::*;

/// A chain of springs with a quartic on-site potential.
#[derive_frule]
fn chain_energy(x: &[f64]) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i] - 1.0;
        e += 0.5 * d * d + 0.25 * x[i].powi(4);
    }
    e
}

/// ∂/∂xᵢ of the chain's energy, from the formula.
fn chain_grad(x: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; x.len()];
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i] - 1.0;
        g[i] += -d + x[i].powi(3);
        g[i + 1] += d;
    }
    g
}

#[test]
fn repeated_gradients_settle_on_a_width_and_keep_the_formula() {
    let n = 70;
    let x: Vec<f64> = (0..n)
        .map(|i| 1.05 * i as f64 + 0.01 * (i as f64).sin())
        .collect();
    let want = chain_grad(&x);
    let (e0, g0) = gradient(chain_energy {}, &x);
    for (a, b) in g0.iter().zip(&want) {
        assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{a} against {b}");
    }
    assert_eq!(gradient_width_chosen(&chain_energy {}, n), None);
    // At least three timed calls with each of the six plans (`Batch` and `MaybeZero`
    // tangents at widths 8, 16 and 32; the first call was one of them), at most eight:
    // the same values every time.
    let mut calls = 1;
    while gradient_width_chosen(&chain_energy {}, n).is_none() {
        assert_eq!(gradient(chain_energy {}, &x), (e0, g0.clone()));
        calls += 1;
        assert!(calls <= 8 * GradientPlan::CANDIDATES.len(), "{calls} calls");
    }
    assert!(calls >= 3 * GradientPlan::CANDIDATES.len(), "{calls} calls");
    let w = gradient_width_chosen(&chain_energy {}, n).expect("every plan timed");
    assert!([8, 16, 32].contains(&w));
    let plan = gradient_plan_chosen(&chain_energy {}, n).unwrap();
    assert!(GradientPlan::CANDIDATES.contains(&plan) && plan.width == w);
    // From now on that width, and the same bits as the fixed-width driver.
    for _ in 0..3 {
        assert_eq!(gradient(chain_energy {}, &x).1, g0);
    }
    assert_eq!(gradient_with::<8>(chain_energy {}, &x).1, g0);
    assert_eq!(gradient_with::<32>(chain_energy {}, &x).1, g0);
    assert_eq!(gradient_width_chosen(&chain_energy {}, n), Some(w));
    // Another length is another entry; up to 16 inputs there is nothing to choose.
    assert_eq!(gradient_width_chosen(&chain_energy {}, 40), None);
    let small: Vec<f64> = (0..12).map(|i| i as f64).collect();
    for _ in 0..8 {
        assert_eq!(gradient(chain_energy {}, &small).1, chain_grad(&small));
    }
    assert_eq!(gradient_width_chosen(&chain_energy {}, 12), None);
}
