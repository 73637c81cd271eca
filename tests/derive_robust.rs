//! Ordinary code that once made `#[derive_frule]` panic or produced an expansion that
//! did not compile (issue 26), checked against derivatives written from the math.
use fwdad::prelude::*;

/// A borrowed view, built inline at the head of an iterator chain.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Window<'a> {
    pub v: &'a [f64],
}

/// A plain sample type, built inline inside `matches!`.
#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub value: f64,
}

/// The first sample above a threshold, scaled by it: `x[k]·t`.
#[derive_frule]
fn first_above(x: &[f64], t: f64) -> f64 {
    let k = Window { v: x }.v.iter().position(|&a| a > t).unwrap_or(0);
    x[k] * t
}

/// The largest sample, by `reduce` over a view built inline.
#[derive_frule]
fn largest(x: &[f64]) -> f64 {
    Window { v: x }
        .v
        .iter()
        .copied()
        .reduce(|a, b| a.max(b))
        .unwrap_or(0.0)
}

/// Rectifier written with `matches!` on a field of a struct literal.
#[derive_frule]
fn soft_rectify(x: f64) -> f64 {
    if matches!(Sample { value: x }.value, v if v > 0.0) {
        x * x
    } else {
        0.5 * x
    }
}

/// A typed `let .. else`: twice the first sample, 0 for none.
#[derive_frule]
fn twice_first(x: &[f64]) -> f64 {
    let Some(first): Option<&f64> = x.first() else {
        return 0.0;
    };
    *first * 2.0
}

#[test]
fn struct_literal_heads_an_iterator_chain() {
    let (x, t) = ([0.5, 2.0, 3.0], 1.5);
    // k = 1: x₁·t; along t: x₁, along x₁: t.
    let d = first_above_frule(Dual::new(&x[..], &[0.0, 0.0, 0.0][..]), Dual::new(t, 1.0));
    assert_eq!(d.primal, first_above(&x, t));
    assert_eq!((d.primal, d.tangent), (3.0, 2.0));
    let d = first_above_frule(Dual::new(&x[..], &[0.0, 1.0, 0.0][..]), Dual::new(t, 0.0));
    assert_eq!(d.tangent, 1.5);
    // max = x₂: its tangent is dx₂.
    let d = largest_frule(Dual::new(&x[..], &[0.1, 0.2, 0.3][..]));
    assert_eq!(d.primal, largest(&x));
    assert_eq!((d.primal, d.tangent), (3.0, 0.3));
}

#[test]
fn matches_on_a_struct_literal() {
    for (x, value, deriv) in [(1.5, 2.25, 3.0), (-2.0, -1.0, 0.5)] {
        let d = soft_rectify_frule(Dual::new(x, 1.0));
        assert_eq!(d.primal, soft_rectify(x));
        assert_eq!((d.primal, d.tangent), (value, deriv));
    }
}

#[test]
fn typed_let_else() {
    let x = [1.25, 4.0];
    let d = twice_first_frule(Dual::new(&x[..], &[1.0, 7.0][..]));
    assert_eq!(d.primal, twice_first(&x));
    assert_eq!((d.primal, d.tangent), (2.5, 2.0));
    let d = twice_first_frule(Dual::new(&x[..0], &[][..]));
    assert_eq!((d.primal, d.tangent), (0.0, 0.0));
}
