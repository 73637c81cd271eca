//! `for` loops over slices with `iter`, `iter_mut`, `enumerate`, `zip`, `rev`, `skip`,
//! `take`, `step_by`, `copied`, against analytic derivatives and `test_frule`.
use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};

/// Σ xᵢ² by reference, Σ i·xᵢ by enumerate, Σ xᵢ·wᵢ by zip (w constant).
#[derive_frule]
fn sums(x: &[f64]) -> (f64, f64, f64) {
    let w = [1.0, -2.0, 0.5, 3.0];
    let mut a = 0.0;
    for v in x.iter() {
        a += v * v;
    }
    let mut b = 0.0;
    for (i, v) in x.iter().enumerate() {
        b += (i as f64) * *v;
    }
    let mut c = 0.0;
    for (v, wi) in x.iter().zip(w.iter()) {
        c += v * wi;
    }
    (a, b, c)
}

/// Reversed, skipped, strided and copied traversals (order matters for `last`).
#[derive_frule]
fn traversals(x: &[f64]) -> f64 {
    let mut last = 0.0;
    for v in x.iter().rev() {
        last = 0.5 * last + v;
    }
    let mut s = 0.0;
    for &v in x.iter().skip(1).step_by(2) {
        s += v.sin();
    }
    for v in x.iter().copied().take(2) {
        s += v * last;
    }
    s
}

/// In place through `iter_mut` and through a `&mut [f64]` parameter iterated directly.
#[derive_frule]
fn scale_all(k: f64, y: &mut [f64]) {
    for v in y.iter_mut() {
        *v *= k;
    }
    for (i, v) in y.iter_mut().enumerate() {
        *v += (i as f64) * k * k;
    }
}

/// Iterating a slice parameter directly, and zipping two slices and a range.
#[derive_frule]
fn dot_shifted(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v;
    }
    for ((a, b), j) in x.iter().zip(y).zip(0..x.len()) {
        s += a * b * (j as f64);
    }
    s
}

#[test]
fn sums_match_analytic() {
    let x = [0.5, 1.5, -1.0, 2.0];
    let w = [1.0, -2.0, 0.5, 3.0];
    for k in 0..4 {
        let mut e = [0.0; 4];
        e[k] = 1.0;
        let d = sums_frule(Dual::new(&x[..], &e[..]));
        assert_eq!(d.primal, sums(&x));
        assert_eq!(d.tangent, (2.0 * x[k], k as f64, w[k]));
    }
}

#[test]
fn traversals_pass_test_frule() {
    let args = (vec![0.3, -1.2, 0.8, 2.5, -0.4],);
    test_frule(
        args.clone(),
        |a| traversals(&a.0),
        |a, da| traversals_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| traversals(&a.0),
        |a, da| {
            <traversals as Frule<_, Batch<f64, 4>>>::frule(
                &traversals {},
                (Dual::new(&a.0[..], &da.0[..]),),
            )
        },
    );
}

#[test]
fn iter_mut_writes_primal_and_tangent() {
    let args = (1.5, vec![1.0, -2.0, 0.5]);
    test_frule(
        args,
        |a| scale_all(a.0, &mut a.1),
        |a, da| scale_all_frule(Dual::new(a.0, da.0), Dual::new(&mut a.1[..], &mut da.1[..])),
    );
    // Analytic: y_i ← k·y_i + i·k²; d/dk = y_i + 2ik.
    let mut y = [1.0, -2.0, 0.5];
    let mut dy = [0.0; 3];
    scale_all_frule(Dual::new(1.5, 1.0), Dual::new(&mut y[..], &mut dy[..]));
    assert_eq!(dy, [1.0, -2.0 + 3.0, 0.5 + 6.0]);
}

#[test]
fn direct_and_zipped_iteration() {
    let args = (vec![0.5, 1.0, -1.5], vec![2.0, 0.25, 1.0]);
    test_frule(
        args,
        |a| dot_shifted(&a.0, &a.1),
        |a, da| {
            dot_shifted_frule(
                Dual::new(&a.0[..], &da.0[..]),
                Dual::new(&a.1[..], &da.1[..]),
            )
        },
    );
}

#[derive_frule]
fn over_literals(x: f64, y: f64) -> f64 {
    let mut s = 0.0;
    for v in [x, 2.0 * y, 3.0] {
        s += v * v;
    }
    for (i, w) in vec![x * y, y].into_iter().enumerate() {
        s += (i as f64 + 1.0) * w;
    }
    s
}

#[test]
fn for_over_array_and_vec_literals() {
    let (x, y) = (0.6, -1.1);
    // s = x² + 4y² + 9 + xy + 2y: ∂s/∂x = 2x + y, ∂s/∂y = 8y + x + 2.
    let dx = over_literals_frule(Dual::new(x, 1.0), Dual::new(y, 0.0));
    assert_eq!(dx.primal, over_literals(x, y));
    approx::assert_relative_eq!(dx.tangent, 2.0 * x + y, max_relative = 1e-14);
    let dy = over_literals_frule(Dual::new(x, 0.0), Dual::new(y, 1.0));
    approx::assert_relative_eq!(dy.tangent, 8.0 * y + x + 2.0, max_relative = 1e-14);
}

/// Iterating sub-slices: `&x[a..]`, `x[a..b].iter()`, with adaptors and consumers.
#[derive_frule]
fn over_sub_slices(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        for v in &x[i + 1..] {
            s += x[i] * v;
        }
    }
    for &v in &x[1..] {
        s += v;
    }
    let mid: f64 = x[1..n - 1].iter().sum();
    let mut alt = 0.0;
    for v in x[0..].iter().step_by(2) {
        alt += v * v;
    }
    s + 2.0 * mid + alt
}

#[test]
fn for_over_sub_slices() {
    let x = [0.5, -1.0, 2.0, 0.25];
    // s = Σ_{i<j} xᵢxⱼ + Σ_{i≥1} xᵢ; mid = x1 + x2; alt = x0² + x2².
    // ∂/∂xₖ = (Σ x - xₖ) + [k ≥ 1] + 2·[k = 1, 2] + 2xₖ·[k even].
    let total: f64 = x.iter().sum();
    let want: Vec<f64> = (0..4)
        .map(|k| {
            let mut d = total - x[k];
            if k >= 1 {
                d += 1.0;
            }
            if k == 1 || k == 2 {
                d += 2.0;
            }
            if k % 2 == 0 {
                d += 2.0 * x[k];
            }
            d
        })
        .collect();
    let (v, g) = fwdad::drivers::gradient(over_sub_slices {}, &x);
    assert_eq!(v, over_sub_slices(&x));
    for (g, w) in g.iter().zip(&want) {
        approx::assert_relative_eq!(*g, *w, max_relative = 1e-14);
    }
}

#[derive_frule]
fn scale_tail(x: &mut [f64], k: f64) {
    for v in x[1..].iter_mut() {
        *v *= k;
    }
    for v in &mut x[2..] {
        *v += k;
    }
}

#[test]
fn writes_through_sub_slices() {
    let mut x = [1.0, 2.0, 3.0];
    let mut dx = [0.0; 3];
    scale_tail_frule(Dual::new(&mut x[..], &mut dx[..]), Dual::new(1.5, 1.0));
    let mut plain = [1.0, 2.0, 3.0];
    scale_tail(&mut plain, 1.5);
    assert_eq!(x, plain);
    // x1 = 2k, x2 = 3k + k: tangents along k are (0, 2, 4).
    assert_eq!(dx, [0.0, 2.0, 4.0]);
}

/// A range of untyped literals in a chain (`(0..3).map(..)`), typed by its use.
#[derive_frule]
fn literal_range_chain(v: &[f64]) -> Vec<f64> {
    (0..3).map(|i| v[i] * v[i + 1]).collect()
}

#[test]
fn chains_over_literal_ranges() {
    let v = [1.0, 2.0, 3.0, 4.0];
    let dv = [1.0, 0.0, 0.0, 0.0];
    // Along e0 only the first product v0·v1 moves: by v1.
    let r = literal_range_chain_frule(Dual::new(&v[..], &dv[..]));
    assert_eq!(r.primal, literal_range_chain(&v));
    assert_eq!(r.tangent, vec![2.0, 0.0, 0.0]);
}

/// Rows of a local nested `Vec`, iterated by reference.
#[derive_frule]
fn rows_of_local(x: &[f64]) -> f64 {
    let m = vec![x.to_vec(), x.iter().map(|v| v * 2.0).collect()];
    let mut s = 0.0;
    for row in &m {
        for &v in row {
            s += v * v;
        }
    }
    s
}

#[test]
fn for_over_rows_of_a_local_nested_vec() {
    let x = [0.5, -1.5];
    // s = Σ xᵢ² + Σ 4xᵢ² = 5 Σ xᵢ²: ∇s = 10x.
    let (v, g) = fwdad::drivers::gradient(rows_of_local {}, &x);
    assert_eq!(v, rows_of_local(&x));
    assert_eq!(g, [5.0, -15.0]);
}

/// A range iterator kept in a variable, and conversions of elements by `into`.
#[derive_frule]
fn stored_iterator(x: &[f64]) -> f64 {
    let w: [u32; 2] = [2, 3];
    let mut s = 0.0;
    let it = (0..x.len()).rev();
    for i in it {
        let wi: f64 = w[i].into();
        s += wi * x[i];
    }
    s
}

#[test]
fn iterators_in_variables_and_element_conversions() {
    let x = [1.0, 2.0];
    // s = 2x0 + 3x1: ∇s = (2, 3).
    let (v, g) = fwdad::drivers::gradient(stored_iterator {}, &x);
    assert_eq!(v, stored_iterator(&x));
    assert_eq!(g, [2.0, 3.0]);
}

/// `chunks_mut` / `chunks_exact_mut` (helper hunt 28: an internal error on a constant-built
/// buffer, "no rule" on an active one): interleaved buffers filled and updated in place.
#[derive_frule]
#[allow(clippy::useless_vec)] // the buffer as a user builds it
fn interleave(k: f64) -> f64 {
    let mut v = vec![0.0; 6];
    for c in v.chunks_mut(2) {
        c[0] = k;
        c[1] = k * k;
    }
    v.iter().sum()
}

#[derive_frule]
fn scale_pairs(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    for c in v.chunks_mut(2) {
        let last = c.len() - 1;
        c[last] *= c[0];
    }
    for (i, c) in v.chunks_exact_mut(2).enumerate() {
        c[1] += (i as f64 + 1.0) * c[0];
    }
    v.iter().map(|t| t * t).sum()
}

#[test]
fn chunks_mut_writes_reach_the_buffer() {
    use fwdad::testing::test_frule;
    let (v, d) = fwdad::derivative(interleave {}, 1.5);
    assert_eq!(v, interleave(1.5));
    // 3(k + k²): 3(1 + 2k).
    approx::assert_relative_eq!(d, 3.0 * (1.0 + 3.0), max_relative = 1e-15);
    for x in [vec![1.0, -2.0, 0.5, 3.0, 1.5], vec![0.25, 2.0, -1.0, 0.5]] {
        test_frule(
            (x,),
            |a| scale_pairs(&a.0),
            |a, da| scale_pairs_frule(Dual::new(&a.0, &da.0)),
        );
    }
}
