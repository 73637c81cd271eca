//! `match`, `if let`, `while let` and `?` through `#[derive_frule]`, against analytic
//! derivatives.
use fwdad::drivers::{bind, Const, Wrt};
use fwdad::prelude::*;

/// Integer, range and guard arms, with a binding and a merge of an assigned local.
#[derive_frule]
fn by_mode(x: f64, mode: u32) -> f64 {
    let mut scale = 1.0;
    let y = match mode {
        0 => x * x,
        1..=3 => {
            scale = 2.0;
            x.sin()
        }
        m if m % 2 == 0 => x * (m as f64),
        _ => 0.5,
    };
    scale * y
}

/// Matching an active tuple with bindings, and an `Option` with `if let`.
#[derive_frule]
fn pick(p: (f64, f64), maybe: Option<f64>) -> f64 {
    let base = match p {
        (a, b) if a > b => a * b,
        (a, _) => a,
    };
    if let Some(v) = maybe {
        base + v * v
    } else {
        base
    }
}

/// `?` on `Option` and `Result`.
#[derive_frule]
fn safe_log(x: f64) -> Option<f64> {
    let y = checked(x)?;
    Some(y.ln() * 2.0)
}

#[derive_frule]
fn checked(x: f64) -> Option<f64> {
    if x > 0.0 {
        Some(x)
    } else {
        None
    }
}

#[derive_frule]
fn parse_scaled(x: f64, ok: bool) -> Result<f64, String> {
    let v = validate(x, ok)?;
    Ok(v * 3.0)
}

#[derive_frule]
fn validate(x: f64, ok: bool) -> Result<f64, String> {
    if ok {
        Ok(x.exp())
    } else {
        Err(String::from("invalid"))
    }
}

/// `while let` draining a countdown: Σ x/k for k = n..1.
#[derive_frule]
fn harmonic_scaled(x: f64, n: usize) -> f64 {
    let mut k = Some(n);
    let mut s = 0.0;
    while let Some(i) = k {
        s += x / (i as f64);
        k = if i > 1 { Some(i - 1) } else { None };
    }
    s
}

#[test]
fn match_arms_and_guards() {
    let x: f64 = 0.7;
    let cases = [
        (0, x * x, 2.0 * x),
        (2, 2.0 * x.sin(), 2.0 * x.cos()),
        (4, 4.0 * x, 4.0),
        (5, 0.5, 0.0),
    ];
    for (mode, value, deriv) in cases {
        let d = by_mode_frule(Dual::new(x, 1.0), Dual::constant(mode));
        assert_eq!(d.primal, by_mode(x, mode));
        approx::assert_relative_eq!(d.primal, value, max_relative = 1e-15);
        approx::assert_relative_eq!(d.tangent, deriv, max_relative = 1e-15);
    }
}

#[test]
fn tuple_and_option_patterns() {
    // a > b: a·b; d/da = b, d/db = a; plus v² with d/dv = 2v.
    let d = pick_frule(
        Dual::new((3.0, 2.0), (1.0, 0.0)),
        Dual::new(Some(0.5), Some(0.0)),
    );
    assert_eq!((d.primal, d.tangent), (pick((3.0, 2.0), Some(0.5)), 2.0));
    let d = pick_frule(
        Dual::new((3.0, 2.0), (0.0, 1.0)),
        Dual::new(Some(0.5), Some(1.0)),
    );
    assert_eq!(d.tangent, 3.0 + 1.0);
    let d = pick_frule(Dual::new((1.0, 2.0), (1.0, 1.0)), Dual::new(None, None));
    assert_eq!((d.primal, d.tangent), (1.0, 1.0));
}

#[test]
fn question_mark_on_option_and_result() {
    let d = safe_log_frule(Dual::new(2.0, 1.0));
    assert_eq!(d.primal, safe_log(2.0));
    assert_eq!(d.tangent, Some(2.0 / 2.0));
    let d = safe_log_frule(Dual::new(-1.0, 1.0));
    assert_eq!((d.primal, d.tangent), (None, None));

    let d = parse_scaled_frule(Dual::new(0.5, 1.0), Dual::constant(true));
    assert_eq!(d.primal, parse_scaled(0.5, true));
    approx::assert_relative_eq!(
        d.tangent.unwrap(),
        3.0 * 0.5_f64.exp(),
        max_relative = 1e-15
    );
    let d = parse_scaled_frule(Dual::new(0.5, 1.0), Dual::constant(false));
    assert_eq!(d.primal, Err("invalid".to_string()));
    assert!(d.tangent.is_err());
}

#[test]
fn while_let_loop() {
    let d = harmonic_scaled_frule(Dual::new(2.0, 1.0), Dual::constant(4));
    let h = 1.0 + 0.5 + 1.0 / 3.0 + 0.25;
    assert_eq!(d.primal, harmonic_scaled(2.0, 4));
    approx::assert_relative_eq!(d.tangent, h, max_relative = 1e-15);
}

/// `let .. else`: the pattern's bindings, or the diverging block.
#[derive_frule]
fn scaled_or_x(x: f64, k: Option<f64>) -> f64 {
    let Some(k) = k else { return x };
    k * x
}

#[derive_frule]
fn product_if_both(o: Option<f64>, k: f64) -> f64 {
    let (Some(mut a), b) = (o, k * k) else {
        return -1.0;
    };
    a *= b;
    a * k
}

#[test]
fn let_else_binds_or_diverges() {
    // k x: along x k, along k x.
    let r = scaled_or_x_frule(Dual::new(2.0, 1.0), Dual::new(Some(3.0), Some(0.5)));
    assert_eq!((r.primal, r.tangent), (6.0, 3.0 + 0.5 * 2.0));
    // x itself.
    let r = scaled_or_x_frule(Dual::new(2.0, 1.0), Dual::new(None, None));
    assert_eq!((r.primal, r.tangent), (2.0, 1.0));
    // a k³: along k 3 a k².
    let r = product_if_both_frule(Dual::new(Some(2.0), Some(0.0)), Dual::new(3.0, 1.0));
    assert_eq!(r.primal, product_if_both(Some(2.0), 3.0));
    assert_eq!((r.primal, r.tangent), (54.0, 54.0));
    let r = product_if_both_frule(Dual::new(None, None), Dual::new(3.0, 1.0));
    assert_eq!((r.primal, r.tangent), (-1.0, 0.0));
}

/// `first`, `last` and `get` of a slice, with `let .. else`, `copied` and `unwrap_or`.
#[derive_frule]
fn ends_and_middle(x: &[f64], k: f64) -> f64 {
    let Some(first) = x.first() else { return k };
    let (Some(mut a), b) = (x.get(1).copied(), k) else {
        return -1.0;
    };
    a *= b;
    first * a + x.last().copied().unwrap_or(0.0) + x.get(7).copied().unwrap_or(k)
}

#[test]
fn first_last_and_get_of_a_slice() {
    let (x, dx) = ([2.0, 5.0], [1.0, 0.5]);
    // x0 x1 k + x1 + k: along (dx, dk) = (1, 0.5, 0.25): x1 k + x0 k 0.5 + x0 x1 0.25 + 0.5 + 0.25.
    let r = ends_and_middle_frule(Dual::new(&x[..], &dx[..]), Dual::new(3.0, 0.25));
    assert_eq!(r.primal, ends_and_middle(&x, 3.0));
    assert_eq!(r.primal, 30.0 + 5.0 + 3.0);
    let expected = 5.0 * 3.0 + 2.0 * 3.0 * 0.5 + 10.0 * 0.25 + 0.5 + 0.25;
    assert!((r.tangent - expected).abs() < 1e-12, "{}", r.tangent);
    // One element: the second `else`; none: the first.
    let r = ends_and_middle_frule(Dual::new(&x[..1], &dx[..1]), Dual::new(3.0, 1.0));
    assert_eq!((r.primal, r.tangent), (-1.0, 0.0));
    let r = ends_and_middle_frule(Dual::new(&x[..0], &dx[..0]), Dual::new(3.0, 1.0));
    assert_eq!((r.primal, r.tangent), (3.0, 1.0));
}

/// Unit variants and constants written as bare names (`None`, a glob-imported `Relu`,
/// `SPECIAL`) are patterns, not catch-all bindings.
#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum Act {
    Relu,
    Tanh,
    Lin,
}
use Act::*;

const SPECIAL: i32 = 2;

#[derive_frule]
fn named_patterns(x: &[f64], a: Act, k: i32) -> f64 {
    let mut best: Option<f64> = None;
    for &v in x {
        best = match best {
            None => Some(v),
            Some(b) if v > b => Some(v),
            Some(b) => Some(b),
        };
    }
    let m = best.unwrap();
    let y = match a {
        Relu => m.max(0.0),
        Tanh => m.tanh(),
        Lin => m,
    };
    match k {
        SPECIAL => y * y,
        _ => y,
    }
}

#[test]
fn bare_names_in_patterns_are_variants_and_constants() {
    let x = [0.3, -0.7, 1.1, 0.4];
    // max = x2 = 1.1; Relu: 1.1; k = SPECIAL: 1.21, ∂/∂x2 = 2.2.
    let (v, g) = fwdad::drivers::gradient(bind(named_patterns {}, (Wrt, Const(Relu), 2)), &x);
    assert_eq!(v, named_patterns(&x, Relu, 2));
    approx::assert_relative_eq!(v, 1.21, max_relative = 1e-15);
    approx::assert_relative_eq!(g[2], 2.2, max_relative = 1e-15);
    assert_eq!((g[0], g[1], g[3]), (0.0, 0.0, 0.0));
    // Tanh, k = 1: tanh(1.1), derivative 1 - tanh²(1.1).
    let (v, g) = fwdad::drivers::gradient(bind(named_patterns {}, (Wrt, Const(Tanh), 1)), &x);
    let t = 1.1f64.tanh();
    assert_eq!(v, t);
    approx::assert_relative_eq!(g[2], 1.0 - t * t, max_relative = 1e-14);
}
