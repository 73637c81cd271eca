//! Types whose tangent is renamed with `#[differentiable(tangent = ..)]`, built with struct
//! literals and variants and matched in derived bodies, against finite differences in one
//! direction (`jvp`), batched (`gradient`) and second order (`hessian`); primals bit for
//! bit. A module that has its own type named like the default tangent keeps it.

use fwdad::prelude::*;

/// A point whose tangent is `DPoint`.
#[derive(Clone, Copy, Debug, Differentiable)]
#[differentiable(tangent = DPoint)]
struct Point {
    x: f64,
    y: f64,
}

/// A tool whose tangent enum is `DTool`.
#[derive(Clone, Copy, Debug, Differentiable)]
#[differentiable(tangent = DTool)]
pub enum Tool {
    Blade(f64),
    Drill { d: f64, depth: f64 },
}

/// The area of the rectangle spanned by two points, the second built from the first.
#[derive_frule]
fn rectangle(a: f64, b: f64) -> f64 {
    let p = Point { x: a, y: 2.0 * b };
    let q = Point { x: p.x * b, ..p };
    (q.x - 0.5) * (q.y + p.x)
}

/// The volume a tool cuts: chosen by the sign of `s`, then matched.
#[derive_frule]
fn cut(s: f64, a: f64) -> f64 {
    let t = if s > 0.0 {
        Tool::Drill { d: a, depth: s * a }
    } else {
        Tool::Blade(a * a)
    };
    match t {
        Tool::Blade(l) => l * s,
        Tool::Drill { d, depth } => 0.25 * std::f64::consts::PI * d * d * depth,
    }
}

mod own_name {
    use fwdad::prelude::*;

    /// The user's own type named like `Grid`'s default tangent: the reason to rename.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct GridTangent(pub u8);

    #[derive(Clone, Copy, Debug, Differentiable)]
    #[differentiable(tangent = DGrid)]
    pub struct Grid {
        pub h: f64,
    }

    /// `GridTangent` is still the user's.
    pub fn own() -> GridTangent {
        GridTangent(7)
    }
}

fn fd(f: &dyn Fn(&[f64]) -> f64, x: &[f64], j: usize) -> f64 {
    let (mut a, mut b) = (x.to_vec(), x.to_vec());
    a[j] += 1e-6;
    b[j] -= 1e-6;
    (f(&a) - f(&b)) / 2e-6
}

fn check(rule_value: f64, grad: &[f64], plain: &dyn Fn(&[f64]) -> f64, x: &[f64]) {
    assert_eq!(rule_value.to_bits(), plain(x).to_bits(), "primal");
    for (j, g) in grad.iter().enumerate() {
        let want = fd(plain, x, j);
        assert!(
            (g - want).abs() <= 1e-6 * (1.0 + want.abs()),
            "∂{j}: {g} vs {want}"
        );
    }
}

#[test]
fn struct_literal_of_a_renamed_tangent() {
    let plain = |x: &[f64]| rectangle(x[0], x[1]);
    let x = [1.3, -0.6];
    let (v, g) = gradient(bind(rectangle {}, (Var(0), Var(1))), &x);
    check(v, &g, &plain, &x);
    let d = rectangle_frule(Dual::new(x[0], 1.0), Dual::new(x[1], 0.0));
    check(
        d.primal,
        &[d.tangent],
        &|y: &[f64]| rectangle(y[0], x[1]),
        &[x[0]],
    );
    let (_, _, h) = hessian(bind(rectangle {}, (Var(0), Var(1))), &x);
    // Against the formula written out: f = (ab − ½)(2b + a) = 2ab² + a²b − b − a/2.
    let (a, b) = (x[0], x[1]);
    assert!((h[(0, 1)] - (4.0 * b + 2.0 * a)).abs() < 1e-9);
    assert!((h[(1, 1)] - 4.0 * a).abs() < 1e-9);
    assert!((h[(0, 0)] - 2.0 * b).abs() < 1e-9);
}

#[test]
fn variants_of_a_renamed_tangent() {
    let plain = |x: &[f64]| cut(x[0], x[1]);
    for x in [[0.8, 1.4], [-0.5, 1.4]] {
        let (v, g) = gradient(bind(cut {}, (Var(0), Var(1))), &x);
        check(v, &g, &plain, &x);
        let d = cut_frule(Dual::new(x[0], 0.0), Dual::new(x[1], 1.0));
        check(
            d.primal,
            &[d.tangent],
            &|y: &[f64]| cut(x[0], y[0]),
            &[x[1]],
        );
    }
}

#[test]
fn own_type_named_like_the_default_tangent() {
    assert_eq!(own_name::own(), own_name::GridTangent(7));
    let g = own_name::Grid { h: 1.0 };
    let _: own_name::DGrid = own_name::DGrid { h: g.h };
}
