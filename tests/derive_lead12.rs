//! What the twelfth session's newcomer programs found, in small programs written as they
//! wrote them: a `match *state` on a `scan` closure's `&mut Option<f64>` state (and on a
//! `&mut Option<f64>` parameter, `if let` too); an element of a constant `&[[f64; 3]]`
//! passed to a `&[f64]` parameter; a `move` closure calling a closure it captured; an
//! extension trait's `&mut self` method on a range of a buffer (`out[1..].softmax()`).
//! Each failed to compile before its fix.
//! Derivatives against closed forms and central differences, primals bit for bit.

use fwdad::drivers::{bind, Wrt};
use fwdad::prelude::*;

/// Exponential smoothing as a `scan` whose state starts empty.
#[derive_frule]
fn smoothed_last(xs: &[f64], alpha: f64) -> f64 {
    let s: Vec<f64> = xs
        .iter()
        .scan(None, |state: &mut Option<f64>, &x| {
            let s = match *state {
                None => x,
                Some(prev) => alpha * x + (1.0 - alpha) * prev,
            };
            *state = Some(s);
            Some(s)
        })
        .collect();
    s[s.len() - 1]
}

/// A running maximum kept in an `Option` passed by `&mut`, read with `if let`.
#[derive_frule]
fn update_peak(peak: &mut Option<f64>, x: f64) -> f64 {
    if let Some(p) = *peak {
        if x > p {
            *peak = Some(x);
        }
    } else {
        *peak = Some(x);
    }
    match *peak {
        Some(p) => p * p,
        None => 0.0,
    }
}

#[derive_frule]
fn peak_energy(xs: &[f64]) -> f64 {
    let mut peak = None;
    let mut e = 0.0;
    for &x in xs {
        e += update_peak(&mut peak, x);
    }
    e
}

#[test]
fn scan_with_a_matched_option_state() {
    let xs = [1.0, 2.0, -0.5, 3.0, 0.25];
    let alpha: f64 = 0.3;
    // s_n = Σ_k w_k x_k: w_0 = (1-α)^(n-1), w_k = α(1-α)^(n-1-k) for k ≥ 1.
    let n = xs.len();
    let w: Vec<f64> = (0..n)
        .map(|k| {
            let p = (1.0 - alpha).powi((n - 1 - k) as i32);
            if k == 0 {
                p
            } else {
                alpha * p
            }
        })
        .collect();
    let (v, g) = gradient(bind(smoothed_last {}, (Wrt, alpha)), &xs);
    assert_eq!(v.to_bits(), smoothed_last(&xs, alpha).to_bits());
    for k in 0..n {
        assert!((g[k] - w[k]).abs() < 1e-15, "{k}: {} {}", g[k], w[k]);
    }
    let (_, da) = derivative(bind(smoothed_last {}, (&xs[..], Wrt)), alpha);
    let h = 1e-6;
    let want = (smoothed_last(&xs, alpha + h) - smoothed_last(&xs, alpha - h)) / (2.0 * h);
    assert!((da - want).abs() < 1e-8);
    // Second order in α: differences of the first derivative.
    let (_, _, d2) = fwdad::second_derivative(bind(smoothed_last {}, (&xs[..], Wrt)), alpha);
    let d1 = |a: f64| derivative(bind(smoothed_last {}, (&xs[..], Wrt)), a).1;
    assert!((d2 - (d1(alpha + h) - d1(alpha - h)) / (2.0 * h)).abs() < 1e-6);
}

#[test]
fn option_behind_a_mut_reference_matched_by_deref() {
    let xs = [0.5, 1.5, 1.0, 2.5, 2.0];
    let (e, g) = gradient(peak_energy {}, &xs);
    assert_eq!(e.to_bits(), peak_energy(&xs).to_bits());
    // Running peaks 0.5, 1.5, 1.5, 2.5, 2.5: e = Σ peak², d/dx_k = 2 x_k · (times x_k is
    // the peak).
    assert!((e - (0.25 + 2.25 + 2.25 + 6.25 + 6.25)).abs() < 1e-15);
    let want = [2.0 * 0.5, 2.0 * 1.5 * 2.0, 0.0, 2.0 * 2.5 * 2.0, 0.0];
    for k in 0..5 {
        assert!((g[k] - want[k]).abs() < 1e-15, "{k}");
    }
    let mut peak = Some(1.0);
    let mut dpeak = Some(1.0);
    let d = update_peak_frule(Dual::new(&mut peak, &mut dpeak), Dual::new(0.5, 0.0));
    assert_eq!((d.primal, d.tangent), (1.0, 2.0));
    assert_eq!((peak, dpeak), (Some(1.0), Some(1.0)));
    let d = update_peak_frule(Dual::new(&mut peak, &mut dpeak), Dual::new(3.0, 1.0));
    assert_eq!((d.primal, d.tangent), (9.0, 6.0));
    assert_eq!((peak, dpeak), (Some(3.0), Some(1.0)));
}

/// One dense layer, rows of `w` by `chunks_exact`.
#[derive_frule]
fn dense(w: &[f64], b: &[f64], x: &[f64]) -> Vec<f64> {
    w.chunks_exact(x.len())
        .zip(b)
        .map(|(row, bi)| row.iter().zip(x).map(|(a, c)| a * c).sum::<f64>() + bi)
        .collect()
}

/// Squared error of a linear layer over a constant batch of `[f64; 3]` inputs, each
/// passed to `dense`'s `&[f64]` (Rust's array-to-slice coercion).
#[derive_frule(inactive(xs, ys))]
fn batch_sq_error(params: &[f64], xs: &[[f64; 3]], ys: &[[f64; 2]]) -> f64 {
    let (w, b) = params.split_at(6);
    let mut total = 0.0;
    for (x, y) in xs.iter().zip(ys) {
        let out = dense(w, b, x);
        total += (out[0] - y[0]).powi(2) + (out[1] - y[1]).powi(2);
    }
    total
}

#[test]
fn constant_array_elements_passed_to_a_slice_parameter() {
    let xs = [[0.5, -1.0, 0.2], [1.5, 0.3, -0.7], [-0.4, 0.8, 1.1]];
    let ys = [[1.0, 0.0], [0.5, -0.5], [0.0, 2.0]];
    let params = [0.1, -0.2, 0.3, 0.4, 0.0, -0.5, 0.05, -0.1];
    let (e, g) = gradient(bind(batch_sq_error {}, (Wrt, &xs[..], &ys[..])), &params);
    assert_eq!(e.to_bits(), batch_sq_error(&params, &xs, &ys).to_bits());
    // Closed form: d/dW_jk = Σ 2 r_j x_k, d/db_j = Σ 2 r_j.
    let mut want = [0.0; 8];
    for (x, y) in xs.iter().zip(&ys) {
        for j in 0..2 {
            let out = (0..3).map(|k| params[3 * j + k] * x[k]).sum::<f64>() + params[6 + j];
            let r = out - y[j];
            for k in 0..3 {
                want[3 * j + k] += 2.0 * r * x[k];
            }
            want[6 + j] += 2.0 * r;
        }
    }
    for i in 0..8 {
        assert!((g[i] - want[i]).abs() < 1e-14, "{i}: {} {}", g[i], want[i]);
    }
    // The Hessian of a least-squares loss in a linear model is 2 JᵀJ, constant:
    // d²/db_j² = 2 · batch size.
    let (_, _, h) = hessian(bind(batch_sq_error {}, (Wrt, &xs[..], &ys[..])), &params);
    assert_eq!(h[(6, 6)], 6.0);
    assert_eq!(h[(6, 7)], 0.0);
}

/// A loss built from closures: a `move` closure that captures and calls another closure
/// (and a computed scale), called in a loop.
#[derive_frule]
fn robust_total(a: f64, b: f64) -> f64 {
    let cauchy = |r: f64| a * (1.0 + r * r).ln();
    let shifted = |r: f64| cauchy(r - b);
    let s = 2.0 * b;
    let scaled = move |r: f64| shifted(r) * s;
    let mut acc = 0.0;
    for r in [0.5, 1.5, -2.0] {
        acc += scaled(r);
    }
    acc
}

#[test]
fn move_closure_calling_a_captured_closure() {
    let (a, b) = (0.8, 0.3);
    let (v, g) = gradient(
        bind(
            robust_total {},
            (fwdad::drivers::Var(0), fwdad::drivers::Var(1)),
        ),
        &[a, b],
    );
    assert_eq!(v.to_bits(), robust_total(a, b).to_bits());
    // v = Σ 2b·a·ln(1 + (r - b)²): dv/da = v/a, dv/db = v/b - Σ 2b·a·2(r - b)/(1 + (r - b)²).
    let rs = [0.5, 1.5, -2.0];
    let dv_db: f64 = v / b
        - rs.iter()
            .map(|r| 2.0 * b * a * 2.0 * (r - b) / (1.0 + (r - b) * (r - b)))
            .sum::<f64>();
    assert!((g[0] - v / a).abs() < 1e-14);
    assert!((g[1] - dv_db).abs() < 1e-13);
}

/// An extension trait on slices, as an ML library writes it.
#[derive_frule]
trait InPlace {
    fn softmax(&mut self);
    fn total(&self) -> f64;
}

#[derive_frule]
impl InPlace for [f64] {
    fn softmax(&mut self) {
        let m = self.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let mut s = 0.0;
        for v in self.iter_mut() {
            *v = (*v - m).exp();
            s += *v;
        }
        for v in self.iter_mut() {
            *v /= s;
        }
    }
    fn total(&self) -> f64 {
        self.iter().sum()
    }
}

/// The first logit kept apart, the rest normalised in place through a range receiver.
#[derive_frule]
fn gated(logits: &[f64]) -> f64 {
    let mut out = logits.to_vec();
    out[1..].softmax();
    out[0] * out[1] + out[2..].total() + out[1..3].total()
}

#[test]
fn mut_self_extension_method_on_a_range_receiver() {
    let x = [0.7, 0.2, -1.0, 0.5];
    let (v, g) = gradient(gated {}, &x);
    assert_eq!(v.to_bits(), gated(&x).to_bits());
    // Against central differences of the plain function.
    for k in 0..4 {
        let h = 1e-6;
        let (mut a, mut b) = (x, x);
        a[k] += h;
        b[k] -= h;
        let want = (gated(&a) - gated(&b)) / (2.0 * h);
        assert!((g[k] - want).abs() < 1e-8, "{k}: {} {want}", g[k]);
    }
    // Closed form for the first input: dv/dx0 = p0 = e^{x1} / Σ e^{x_j}, j ≥ 1.
    let z: f64 = x[1..].iter().map(|v| v.exp()).sum();
    assert!((g[0] - x[1].exp() / z).abs() < 1e-15);
}
