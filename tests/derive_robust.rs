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
    // An empty tangent is typed: the rule's parameter takes `f64` or `ConstTangent`
    // tangents, so an untyped `&[][..]` could be either.
    let d = twice_first_frule(Dual::new(&x[..0], &[0.0; 0][..]));
    assert_eq!((d.primal, d.tangent), (0.0, 0.0));
}

/// A pattern parameter beside a parameter named like the name a pattern once got.
#[derive_frule]
fn weighted_product((a, b): (f64, f64), arg0: f64) -> f64 {
    a * b + arg0 * a
}

#[derive_frule]
fn offset_product(arg1: f64, (a, b): (f64, f64)) -> f64 {
    a * b - arg1
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    pub k: f64,
}

#[derive_frule]
impl Spring {
    /// The energy at extension `this` (a parameter named like the receiver once was).
    pub fn energy(&self, this: f64) -> f64 {
        0.5 * self.k * this * this
    }
}

#[test]
fn parameters_named_like_generated_names() {
    // a b + c a: along (da, db, dc) = (1, 0.5, 0.25): b + c + 0.5 a + 0.25 a.
    let (a, b, c) = (2.0, 3.0, 5.0);
    let d = weighted_product_frule(Dual::new((a, b), (1.0, 0.5)), Dual::new(c, 0.25));
    assert_eq!(d.primal, weighted_product((a, b), c));
    assert_eq!((d.primal, d.tangent), (16.0, b + c + 0.5 * a + 0.25 * a));
    // a b - c: along (dc, da, db) = (1, 1, 0): -1 + b.
    let d = offset_product_frule(Dual::new(c, 1.0), Dual::new((a, b), (1.0, 0.0)));
    assert_eq!(d.primal, offset_product(c, (a, b)));
    assert_eq!((d.primal, d.tangent), (1.0, b - 1.0));
    // k x²/2: along x: k x; along k: x²/2.
    let s = Spring { k: 4.0 };
    let d = Spring::energy_frule(
        Dual::new(&s, &SpringTangent { k: 0.0 }),
        Dual::new(1.5, 1.0),
    );
    assert_eq!(d.primal, s.energy(1.5));
    assert_eq!((d.primal, d.tangent), (4.5, 6.0));
    let d = Spring::energy_frule(
        Dual::new(&s, &SpringTangent { k: 1.0 }),
        Dual::new(1.5, 0.0),
    );
    assert_eq!(d.tangent, 1.125);
}

/// Input validation that ends a branch in a diverging statement.
#[derive_frule]
fn checked_square(x: f64) -> f64 {
    if x > 1e300 {
        panic!("too large");
    } else {
        x * x
    }
}

/// A deprecated function keeps its rule, without a warning at its own definition.
#[deny(warnings)]
mod old_api {
    use fwdad::prelude::*;

    #[deprecated(note = "use `cube` instead")]
    #[derive_frule]
    pub fn old_cube(x: f64) -> f64 {
        x * x * x
    }
}

#[test]
fn diverging_branch_and_deprecated() {
    let d = checked_square_frule(Dual::new(3.0, 1.0));
    assert_eq!((d.primal, d.tangent), (9.0, 6.0));
    assert!(std::panic::catch_unwind(|| checked_square_frule(Dual::new(1e301, 1.0))).is_err());
    #[allow(deprecated)]
    let d = old_api::old_cube_frule(Dual::new(2.0, 1.0));
    assert_eq!((d.primal, d.tangent), (8.0, 12.0));
}

/// A `match` arm block and a `let .. else`-like `if let` ending in `panic!(..);`.
#[derive_frule]
fn by_order(x: f64, order: u32) -> f64 {
    let base = match order {
        0 => x,
        1 => x * x,
        _ => {
            unreachable!("order above 1");
        }
    };
    let first = if let Some(v) = Some(base) {
        v
    } else {
        panic!("no value");
    };
    if !first.is_finite() {
        eprintln!("diverged");
        std::process::exit(1);
    }
    let scale = if order < 5 {
        3.0
    } else {
        todo!();
    };
    first * scale
}

#[test]
fn diverging_arms() {
    let d = by_order_frule(Dual::new(2.0, 1.0), Dual::constant(1));
    assert_eq!(d.primal, by_order(2.0, 1));
    assert_eq!((d.primal, d.tangent), (12.0, 12.0));
    let d = by_order_frule(Dual::new(2.0, 1.0), Dual::constant(0));
    assert_eq!((d.primal, d.tangent), (6.0, 3.0));
}

/// A const parameter used only in the body.
#[derive_frule]
fn scale<const K: usize>(x: f64) -> f64 {
    x * K as f64
}

/// Const parameters used only in the body, one of them only through a `where` bound.
#[derive_frule]
fn tapered<const N: usize, const M: usize>(x: f64) -> f64
where
    [f64; M]: Default,
{
    let w = [1.0; M];
    x * x * N as f64 + w[0] * x
}

/// Callers name the body-only parameters with a turbofish; a turbofish also names
/// parameters the arguments would give (`horner::<3>`).
#[derive_frule]
fn tapered_sum(x: f64) -> f64 {
    scale::<2>(x) + tapered::<3, 1>(x) + horner::<3>([1.0, -2.0, 0.5], x)
}

/// c₀ + c₁x + … evaluated from the highest coefficient.
#[derive_frule]
fn horner<const N: usize>(c: [f64; N], x: f64) -> f64 {
    let mut acc = 0.0;
    for k in (0..N).rev() {
        acc = acc * x + c[k];
    }
    acc
}

#[test]
fn generic_parameters_the_signature_does_not_use() {
    // 2x + (3x² + x) + (1 − 2x + ½x²): derivative 2 + 6x + 1 − 2 + x = 1 + 7x.
    let (x, h) = (0.75, 1e-6);
    let (v, d) = fwdad::derivative(tapered_sum {}, x);
    assert_eq!(v, tapered_sum(x));
    assert!((d - (1.0 + 7.0 * x)).abs() < 1e-14, "{d}");
    let fd = (tapered_sum(x + h) - tapered_sum(x - h)) / (2.0 * h);
    assert!((d - fd).abs() < 1e-8);

    let d = scale_frule::<3>(Dual::new(1.5, 1.0));
    assert_eq!((d.primal, d.tangent), (4.5, 3.0));
    assert_eq!(d.primal, scale::<3>(1.5));
    // N x² + x: along x, 2 N x + 1.
    let d = tapered_frule::<4, 2>(Dual::new(0.5, 1.0));
    assert_eq!(d.primal, tapered::<4, 2>(0.5));
    assert_eq!((d.primal, d.tangent), (1.5, 5.0));
}

/// `reduce` over constant data: the smallest weight scales `x`.
#[derive_frule(inactive(c))]
fn scaled_by_min(x: f64, c: &[f64]) -> f64 {
    let m = c.iter().copied().reduce(|a, b| a.min(b)).unwrap_or(1.0);
    m * x
}

#[derive_frule]
fn scaled_by_local_min(x: f64) -> f64 {
    let c: [f64; 3] = [3.0, 0.5, 2.0];
    let m = c.iter().copied().reduce(|a, b| a.min(b)).unwrap_or(1.0);
    m * x
}

#[test]
fn reduce_over_constant_data() {
    let d = scaled_by_min_frule(Dual::new(4.0, 1.0), &[3.0, 0.5, 2.0][..]);
    assert_eq!((d.primal, d.tangent), (2.0, 0.5));
    let d = scaled_by_min_frule(Dual::new(4.0, 1.0), &[][..]);
    assert_eq!((d.primal, d.tangent), (4.0, 1.0));
    let d = scaled_by_local_min_frule(Dual::new(4.0, 1.0));
    assert_eq!(d.primal, scaled_by_local_min(4.0));
    assert_eq!((d.primal, d.tangent), (2.0, 0.5));
}

/// Σ k_i u_i², with the stiffnesses `k` and displacements `u` of one kind of spring.
#[derive_frule]
fn spring_energy(k: &[f64], u: &[f64]) -> f64 {
    k.iter().zip(u).map(|(k, u)| 0.5 * k * u * u).sum()
}

/// A constant stiffness table split into its bending and stretching halves, each half
/// passed to a rule beside active displacements.
#[derive_frule]
fn split_table_energy(u: &[f64]) -> f64 {
    let stiffness = [4.0, 1.0, 2.5, 0.5];
    let (bending, stretching) = stiffness.split_at(2);
    spring_energy(bending, &u[..2]) + spring_energy(stretching, &u[2..])
}

/// The same with the table an `inactive` parameter, split at a run-time count.
#[derive_frule(inactive(stiffness))]
fn split_param_energy(stiffness: &[f64], n_bending: usize, u: &[f64]) -> f64 {
    let (bending, stretching) = stiffness.split_at(n_bending);
    spring_energy(bending, &u[..n_bending]) * spring_energy(stretching, &u[n_bending..])
}

#[test]
fn split_halves_of_constant_data() {
    let k = [4.0, 1.0, 2.5, 0.5];
    let u = [0.3, -1.2, 0.7, 2.0];
    let (e, g) = fwdad::gradient(split_table_energy {}, &u);
    assert_eq!(e, split_table_energy(&u));
    // ∂E/∂u_i = k_i u_i.
    for i in 0..4 {
        assert!((g[i] - k[i] * u[i]).abs() < 1e-15, "{g:?}");
    }
    // E = B·S with B = ½Σ_{i<1} k u², S = ½Σ_{i≥1} k u²: ∂E/∂u_0 = k_0 u_0 S, ∂E/∂u_j = B k_j u_j.
    let b = 0.5 * k[0] * u[0] * u[0];
    let s: f64 = (1..4).map(|j| 0.5 * k[j] * u[j] * u[j]).sum();
    for (dir, want) in [(0, k[0] * u[0] * s), (2, b * k[2] * u[2])] {
        let mut du = [0.0; 4];
        du[dir] = 1.0;
        let d = split_param_energy_frule(&k[..], Dual::constant(1), Dual::new(&u[..], &du[..]));
        assert_eq!(d.primal, split_param_energy(&k, 1, &u));
        assert!((d.tangent - want).abs() < 1e-14, "{} vs {want}", d.tangent);
    }
}

/// A type alias for the float type, as numeric code often writes it.
type Real = f64;

#[derive_frule]
fn aliased_norm(x: Real, y: Real) -> Real {
    (x * x + y * y).sqrt() + x.sqrt() + x.max(y)
}

#[test]
fn float_methods_on_an_alias_of_f64() {
    let (x, y) = (2.0, 1.5);
    let d = aliased_norm_frule(Dual::new(x, 1.0), Dual::new(y, 0.0));
    assert_eq!(d.primal, aliased_norm(x, y));
    // ∂/∂x: x/r + 1/(2√x) + 1 (x > y).
    let want = x / (x * x + y * y).sqrt() + 0.5 / x.sqrt() + 1.0;
    assert!((d.tangent - want).abs() < 1e-15, "{} vs {want}", d.tangent);
}

/// A plain helper (no rule) returning a reference into its argument.
fn largest_ref(v: &[f64]) -> &f64 {
    let mut best = &v[0];
    for t in v {
        if *t > *best {
            best = t;
        }
    }
    best
}

/// The reference a plain helper returns into constant data, merged with a reference into
/// the active input.
#[derive_frule]
fn pick_reference(x: &[f64]) -> f64 {
    let table = [3.0, 5.0];
    let r = if x[0] > 0.0 {
        &x[1]
    } else {
        largest_ref(&table)
    };
    r * 2.0 + x[0]
}

#[test]
fn constant_reference_from_a_plain_helper_merged_with_an_active_one() {
    let (v, g) = fwdad::gradient(pick_reference {}, &[1.0, 2.0]);
    assert_eq!(v, pick_reference(&[1.0, 2.0]));
    assert_eq!(g, [1.0, 2.0]);
    let (v, g) = fwdad::gradient(pick_reference {}, &[-1.0, 2.0]);
    assert_eq!((v, g), (9.0, [1.0, 0.0]));
}

/// A slice element bound with its type written (`let t: f64 = x[1];`), and read by a
/// closure with a typed parameter in a loop's condition (the differential fuzzer's seed 32):
/// the element carries the argument's element tangent, a constant's too.
#[derive_frule]
fn typed_element(x: &[f64]) -> f64 {
    let t: f64 = x[1];
    let scaled = |s: f64| x[1] * s;
    let mut acc = 0.0;
    for i in 0..x.len() {
        if scaled(x[0]) > 10.0 {
            break;
        }
        acc += t * x[i];
    }
    acc
}

#[test]
fn typed_let_of_a_slice_element() {
    // t Σ x with t = x₁ (the loop runs to the end at this point): ∂/∂x₀ = t,
    // ∂/∂x₁ = Σ x + t, ∂/∂x₂ = t.
    let x = [0.5, 2.0, 3.0];
    let (v, g) = gradient(typed_element {}, &x);
    assert_eq!(v.to_bits(), typed_element(&x).to_bits());
    let sum: f64 = x.iter().sum();
    assert_eq!(g, [2.0, sum + 2.0, 2.0]);
    let d = typed_element_frule(Dual::constant(&x[..]));
    assert_eq!((d.primal, d.tangent), (11.0, 0.0));
    let (_, _, h) = fwdad::drivers::hessian(typed_element {}, &x);
    assert_eq!(h[(0, 1)], 1.0);
    assert_eq!(h[(1, 1)], 2.0);
}
