//! `kmeans`: the cost `Σᵢ minⱼ ‖Cⱼ − Pᵢ‖²` of `k` centroids for `n` points, and Newton's
//! direction `J ⊘ diag H` in the centroids. The Hessian is diagonal (each point's term is
//! a sum of squares of one centroid's coordinates), so `diag H = H·1`: one Hessian-vector
//! product with `v = 1` gives gradient and diagonal together, in `⌈kd / 16⌉`
//! second-order passes.

use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use serde_json::Value;

/// The cost of `centroids` (`k × d`, row-major) for `points` (`n × d`).
#[derive_frule(inactive(points))]
pub fn cost(centroids: &[f64], points: &[f64], d: usize) -> f64 {
    let n = points.len() / d;
    let k = centroids.len() / d;
    let mut total = 0.0;
    for i in 0..n {
        let mut closest = f64::INFINITY;
        for j in 0..k {
            let mut dist = 0.0;
            for l in 0..d {
                let diff = points[i * d + l] - centroids[j * d + l];
                dist += diff * diff;
            }
            if dist < closest {
                closest = dist;
            }
        }
        total += closest;
    }
    total
}

/// `J ⊘ diag H` in the centroids, row-major like them.
pub fn dir(centroids: &[f64], points: &[f64], d: usize) -> Vec<f64> {
    let ones = vec![1.0; centroids.len()];
    let f = bind(cost {}, (Wrt, Inactive(points), d));
    let (_, grad, hdiag) = fwdad::hvp_with::<16>(f, centroids, &ones);
    grad.iter().zip(&hdiag).map(|(g, h)| g / h).collect()
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let (points, d) = input::rows(input, "points")?;
    let (centroids, dc) = input::rows(input, "centroids")?;
    if d == 0 || d != dc {
        return Err(format!("points have {d} coordinates, centroids {dc}"));
    }
    let runs = Runs::of(input);
    match function {
        "cost" => Ok(runs.measure(|| cost(&centroids, &points, d), Value::from)),
        "dir" => Ok(runs.measure(|| dir(&centroids, &points, d), |v| input::to_rows(&v, d))),
        _ => Err(format!("`kmeans` has no function `{function}`")),
    }
}
