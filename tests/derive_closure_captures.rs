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
