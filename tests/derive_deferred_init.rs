//! Variables declared without a value and assigned later (`let mut p;`), as numerical
//! code ported from C or Fortran declares them, against closed forms and central
//! differences.

use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;

/// The initial guess of AS 109 for the inverse regularised incomplete beta function, as
/// statrs' `inv_beta_reg` computes it: `p` and `q` are declared first, `p` is a swap
/// temporary in one branch, and both are assigned again before any read.
#[derive_frule]
fn as109_guess(mut a: f64, mut b: f64, mut x: f64) -> f64 {
    let mut p;
    let mut q;
    let flip = 0.5 < x;
    if flip {
        p = a;
        a = b;
        b = p;
        x = 1.0 - x;
    }
    p = (-(x * x).ln()).sqrt();
    q = p - (2.30753 + 0.27061 * p) / (1.0 + (0.99229 + 0.04481 * p) * p);
    if 1.0 < a && 1.0 < b {
        let r = (q * q - 3.0) / 6.0;
        let s = 1.0 / (a + a - 1.0);
        let t = 1.0 / (b + b - 1.0);
        let h = 2.0 / (s + t);
        let w = q * (h + r).sqrt() / h - (t - s) * (r + 5.0 / 6.0 - 2.0 / (3.0 * h));
        p = a / (a + b * (w + w).exp());
    } else {
        p = x.powf(1.0 / a);
    }
    q = if flip { 1.0 - p } else { p };
    q
}

/// A secant iteration whose next iterate is declared before the loop.
#[derive_frule]
fn secant_root(c: f64) -> f64 {
    let (mut x0, mut x1) = (1.0, 2.0);
    let mut x2;
    let mut k = 0;
    loop {
        let f0 = x0 * x0 * x0 - c;
        let f1 = x1 * x1 * x1 - c;
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0);
        k += 1;
        if k == 12 || (x2 - x1).abs() < 1e-15 {
            break;
        }
        x0 = x1;
        x1 = x2;
    }
    x2
}

/// A value chosen by branches, declared with its type.
#[derive_frule]
fn piecewise(x: f64) -> f64 {
    let y: f64;
    if x < 0.0 {
        y = x * x;
    } else if x < 1.0 {
        y = x.sin();
    } else {
        y = x.ln() + 1.0f64.sin();
    }
    y
}

fn fd(f: impl Fn(&[f64]) -> f64, x: &[f64], i: usize) -> f64 {
    let h = 1e-6 * (1.0 + x[i].abs());
    let (mut up, mut dn) = (x.to_vec(), x.to_vec());
    up[i] += h;
    dn[i] -= h;
    (f(&up) - f(&dn)) / (2.0 * h)
}

#[test]
fn as109_guess_on_both_sides_of_the_swap() {
    for p in [
        [2.0, 3.0, 0.3],
        [2.0, 3.0, 0.7],
        [0.8, 3.0, 0.4],
        [2.5, 0.7, 0.8],
    ] {
        let (v, g) = gradient(bind(as109_guess {}, (Var(0), Var(1), Var(2))), &p);
        assert_eq!(v, as109_guess(p[0], p[1], p[2]));
        let f = |q: &[f64]| as109_guess(q[0], q[1], q[2]);
        for (i, gi) in g.iter().enumerate() {
            let want = fd(f, &p, i);
            assert!(
                (gi - want).abs() < 1e-6 * (1.0 + want.abs()),
                "{p:?} d{i}: {gi} vs {want}"
            );
        }
    }
}

#[test]
fn secant_cube_root() {
    // x = c^(1/3), dx/dc = 1 / (3 x²).
    for c in [3.0, 5.0, 7.5] {
        let (x, dx) = derivative(secant_root {}, c);
        assert_eq!(x, secant_root(c));
        let root: f64 = f64::cbrt(c);
        assert!((x - root).abs() < 1e-12);
        assert!((dx - 1.0 / (3.0 * root * root)).abs() < 1e-9, "{dx}");
    }
}

#[test]
fn piecewise_with_a_typed_declaration() {
    for (x, want) in [(-0.5, -1.0), (0.4, 0.4f64.cos()), (2.0, 0.5)] {
        let (y, dy) = derivative(piecewise {}, x);
        assert_eq!(y, piecewise(x));
        assert!((dy - want).abs() < 1e-15);
    }
    // Second order through the same branches.
    let (_, _, d2) = fwdad::drivers::second_derivative(piecewise {}, 0.4);
    assert!((d2 + 0.4f64.sin()).abs() < 1e-15);
}

/// Numerical Recipes' `gcf`, as puruspe writes it: the regularised upper incomplete gamma
/// function Q(a, x) by Lentz's continued fraction, with `an` and `del` declared with
/// their types before the loop that assigns them.
#[derive_frule]
fn gamma_q_cf(a: f64, x: f64, gln: f64) -> f64 {
    const FPMIN: f64 = f64::MIN_POSITIVE / f64::EPSILON;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / FPMIN;
    let mut d = 1.0 / b;
    let mut h = d;
    let mut an: f64;
    let mut del: f64;
    for i in 1..=200 {
        an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < FPMIN {
            d = FPMIN;
        }
        c = b + an / c;
        if c.abs() < FPMIN {
            c = FPMIN;
        }
        d = 1.0 / d;
        del = d * c;
        h *= del;
        if (del - 1.0).abs() <= f64::EPSILON {
            break;
        }
    }
    (-x + a * x.ln() - gln).exp() * h
}

#[test]
fn typed_declarations_assigned_in_a_loop() {
    // Q(3, x) = e^(−x) (1 + x + x²/2), dQ/dx = −x² e^(−x) / 2.
    let gln = 2f64.ln();
    for x in [4.5f64, 6.0, 9.0] {
        let (q, dq) = gradient(bind(gamma_q_cf {}, (3.0, Var(0), gln)), &[x]);
        let dq = dq[0];
        assert_eq!(q, gamma_q_cf(3.0, x, gln));
        let closed = (-x).exp() * (1.0 + x + x * x / 2.0);
        assert!((q - closed).abs() < 1e-14, "{q} vs {closed}");
        let want = -x * x * (-x).exp() / 2.0;
        assert!((dq - want).abs() < 1e-12, "{dq} vs {want}");
    }
}
