//! Closures that assign the variables they capture (a call counter, a running maximum, an
//! accumulator), passed to the user's functions: the captures are lent `&mut` to the
//! closure's dual form. Derivatives in every mode against the derivatives written out;
//! primals bit for bit.
use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};
use fwdad::Hyper;

/// A quadrature that may call its integrand any number of times (`FnMut`, as an adaptive
/// rule's user would write it).
#[derive_frule]
fn trapezoid<F: FnMut(f64) -> f64>(mut f: F, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let mut s = 0.5 * (f(a) + f(b));
    for i in 1..n {
        s += f(a + i as f64 * h);
    }
    s * h
}

/// The integral of e^{kx} on [0, 1], counting the integrand's evaluations and keeping the
/// largest value seen and a running sum of the samples (captures the closure assigns).
#[derive_frule]
fn counted_integral(k: f64) -> f64 {
    let mut calls = 0;
    let mut largest = f64::NEG_INFINITY;
    let mut total = 0.0;
    let i = trapezoid(
        |x| {
            calls += 1;
            let v = (k * x).exp();
            if v > largest {
                largest = v;
            }
            total += v;
            v
        },
        0.0,
        1.0,
        64,
    );
    assert_eq!(calls, 65);
    i + 1e-3 * largest + 1e-4 * total
}

#[test]
fn closures_assigning_their_captures() {
    let k = 0.8;
    let plain = |a: &mut (f64,)| counted_integral(a.0);
    test_frule((k,), plain, |a, da| {
        counted_integral_frule(Dual::new(a.0, da.0))
    });
    test_frule_batched::<2, _, _>((k,), plain, |a, da| {
        <counted_integral as Frule<_, Batch<f64, 2>>>::frule(
            &counted_integral {},
            (Dual::new(a.0, da.0),),
        )
    });
    // Written out: the trapezoid sum T(k) = h [½(1 + e^k) + Σ e^{k xᵢ}], the largest sample
    // e^k, the total 1 + e^k + Σ e^{k xᵢ} (xᵢ = i h): their derivatives in k.
    let h = 1.0 / 64.0;
    let inner: f64 = (1..64)
        .map(|i| (i as f64 * h) * (k * i as f64 * h).exp())
        .sum();
    let dt = h * (0.5 * k.exp() + inner);
    let dtotal = k.exp() + inner;
    let expected = dt + 1e-3 * k.exp() + 1e-4 * dtotal;
    let d = counted_integral_frule(Dual::new(k, 1.0));
    assert_eq!(d.primal.to_bits(), counted_integral(k).to_bits());
    approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-12);
    let hy = <counted_integral as Frule<_, Hyper<f64, f64>>>::frule(
        &counted_integral {},
        (Dual::new(
            k,
            Hyper {
                d1: 1.0,
                d2: 1.0,
                d12: 0.0,
            },
        ),),
    );
    let inner2: f64 = (1..64)
        .map(|i| (i as f64 * h).powi(2) * (k * i as f64 * h).exp())
        .sum();
    let expected2 = h * (0.5 * k.exp() + inner2) + 1e-3 * k.exp() + 1e-4 * (k.exp() + inner2);
    approx::assert_relative_eq!(hy.tangent.d12, expected2, max_relative = 1e-12);
}

/// Visits each sample once (a data loader's callback API).
#[derive_frule]
fn for_each_sample<F: FnMut(usize, f64)>(xs: &[f64], mut visit: F) {
    for (i, x) in xs.iter().enumerate() {
        visit(i, *x);
    }
}

/// Soft histogram of `xs` with two bins and a smoothing weight `w`, accumulated by a
/// closure that writes elements of a captured array and a captured `Vec` (the state a
/// callback keeps), then the bins' weighted contrast.
#[derive_frule]
fn soft_histogram(xs: &[f64], w: f64) -> f64 {
    let mut bins = [0.0; 2];
    let mut second: Vec<f64> = vec![0.0; 2];
    for_each_sample(xs, |i, x| {
        let p = 1.0 / (1.0 + (-w * x).exp());
        bins[0] += 1.0 - p;
        bins[1] += p;
        second[i % 2] += p * x;
    });
    bins[1] * bins[1] - bins[0] + 0.5 * second[0] * second[1]
}

#[test]
fn closures_writing_elements_of_captured_arrays() {
    let xs: [f64; 5] = [0.3, -1.2, 2.0, 0.7, -0.4];
    let w: f64 = 1.3;
    // Written out: p_k = σ(w x_k), dp_k/dw = p_k (1 - p_k) x_k.
    let p: Vec<f64> = xs.iter().map(|x| 1.0 / (1.0 + (-w * x).exp())).collect();
    let dp: Vec<f64> = p.iter().zip(&xs).map(|(p, x)| p * (1.0 - p) * x).collect();
    let b1: f64 = p.iter().sum();
    let db1: f64 = dp.iter().sum();
    let (s0, s1) = (
        p[0] * xs[0] + p[2] * xs[2] + p[4] * xs[4],
        p[1] * xs[1] + p[3] * xs[3],
    );
    let (ds0, ds1) = (
        dp[0] * xs[0] + dp[2] * xs[2] + dp[4] * xs[4],
        dp[1] * xs[1] + dp[3] * xs[3],
    );
    let d = 2.0 * b1 * db1 + db1 + 0.5 * (ds0 * s1 + s0 * ds1);
    let one = soft_histogram_frule(Dual::constant(&xs[..]), Dual::new(w, 1.0));
    assert_eq!(one.primal, soft_histogram(&xs, w));
    assert!(
        (one.tangent - d).abs() < 1e-13 * d.abs(),
        "{} vs {d}",
        one.tangent
    );
    let zeros = [Batch([0.0; 2]); 5];
    let two = <soft_histogram as Frule<_, Batch<f64, 2>>>::frule(
        &soft_histogram {},
        (
            Dual::new(&xs[..], &zeros[..]),
            Dual::new(w, Batch([1.0, -2.0])),
        ),
    );
    assert_eq!(two.primal, soft_histogram(&xs, w));
    assert!((two.tangent.0[1] + 2.0 * d).abs() < 1e-13 * d.abs());
    // Second order against a central difference of the first derivative.
    let h = 1e-5;
    let d_at = |w: f64| soft_histogram_frule(Dual::constant(&xs[..]), Dual::new(w, 1.0)).tangent;
    let dd = (d_at(w + h) - d_at(w - h)) / (2.0 * h);
    let hz = [Hyper {
        d1: 0.0,
        d2: 0.0,
        d12: 0.0,
    }; 5];
    let seed = Hyper {
        d1: 1.0,
        d2: 1.0,
        d12: 0.0,
    };
    let hy = <soft_histogram as Frule<_, Hyper<f64, f64>>>::frule(
        &soft_histogram {},
        (Dual::new(&xs[..], &hz[..]), Dual::new(w, seed)),
    );
    assert_eq!(hy.primal, soft_histogram(&xs, w));
    assert!((hy.tangent.d1 - d).abs() < 1e-13 * d.abs());
    assert!((hy.tangent.d12 - dd).abs() < 1e-6 * dd.abs().max(1.0));
}
