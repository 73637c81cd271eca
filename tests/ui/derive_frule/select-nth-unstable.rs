use fwdad::prelude::*;

// A robust line fit's loss: the median absolute residual by `select_nth_unstable_by`.
#[derive_frule]
fn median_abs_residual(p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let mut r: Vec<f64> = xs.iter().zip(ys).map(|(x, y)| (p[0] + p[1] * x - y).abs()).collect();
    let mid = r.len() / 2;
    r.select_nth_unstable_by(mid, |a, b| a.partial_cmp(b).unwrap());
    r[mid]
}

fn main() {}
