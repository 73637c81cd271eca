//! Places nested in places: `a[i][j] = v`, `w[i].x += v`, `rows[i][j]`, `m[i].push(v)`;
//! integer fields of differentiated structs.
//! Rust reads and writes these in place; lowering borrows each inner element (`ElemRef`)
//! rather than copying it out, so a write reaches the outer buffer (it used to land in a
//! copy and be lost, primal and tangent) and a `Vec<Vec<f64>>` row is not copied (which
//! did not compile). Expected values and derivatives are written from the math.
// Index loops, `&Vec<Vec<f64>>` and small `vec!`s as users write them.
#![allow(clippy::needless_range_loop, clippy::ptr_arg, clippy::useless_vec)]
use fwdad::prelude::*;

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct P {
    pub x: f64,
    pub y: f64,
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Body {
    pub pos: [f64; 2],
    pub trail: Vec<f64>,
}

/// `a[1][0] = 3d`, then `a[1][0] · a[0][1]` with `a[0][1] = d²` added in place.
#[derive_frule]
fn nested_array(d: f64) -> f64 {
    let mut a = [[0.0; 2]; 2];
    a[1][0] = d * 3.0;
    a[0][1] += d * d;
    a[1][0] * a[0][1]
}

#[test]
fn writes_to_an_element_of_an_element_reach_the_array() {
    // 3d · d² = 3d³, derivative 9d².
    let d = 1.5;
    let r = nested_array_frule(Dual::new(d, 1.0));
    assert_eq!(r.primal, nested_array(d));
    assert_eq!(r.primal, 3.0 * d * d * d);
    assert!((r.tangent - 9.0 * d * d).abs() < 1e-12, "{}", r.tangent);
}

/// A loop filling `m[i][j] = x_i x_j` in a local `Vec<Vec<f64>>`, a row grown by `push`,
/// then `Σ_i m[i][i] + m[i][n]`.
#[derive_frule]
fn outer_trace(x: &[f64]) -> f64 {
    let n = x.len();
    let mut m = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            m[i][j] = x[i] * x[j];
        }
    }
    let mut s = 0.0;
    for i in 0..n {
        m[i].push(x[i]);
        s += m[i][i] + m[i][n];
    }
    s
}

#[test]
fn rows_of_a_local_vec_of_vecs_are_written_and_grown_in_place() {
    // Σ x_i² + x_i: gradient 2x_i + 1, so the derivative along dx is Σ (2x_i + 1) dx_i.
    let x = [1.0, -2.0, 0.5];
    let dx = [0.5, 1.0, -2.0];
    let r = outer_trace_frule(Dual::new(&x[..], &dx[..]));
    assert_eq!(r.primal, outer_trace(&x));
    assert_eq!(r.primal, x.iter().map(|v| v * v + v).sum::<f64>());
    let want: f64 = x.iter().zip(&dx).map(|(v, t)| (2.0 * v + 1.0) * t).sum();
    assert!((r.tangent - want).abs() < 1e-12, "{} {want}", r.tangent);
}

/// `trace(A)` of a `&Vec<Vec<f64>>` parameter, read as `a[i][i]`.
#[derive_frule]
fn trace(a: &Vec<Vec<f64>>) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        s += a[i][i];
    }
    s
}

#[test]
fn rows_of_a_vec_of_vecs_parameter_are_read_without_copying() {
    let a = vec![vec![1.0, 2.0], vec![3.0, 4.0]];
    let da = vec![vec![0.5, 7.0], vec![9.0, -2.0]];
    let r = trace_frule(Dual::new(&a, &da));
    assert_eq!(r.primal, trace(&a));
    assert_eq!((r.primal, r.tangent), (5.0, -1.5));
}

/// Writes through a `&mut [[f64; 2]]` parameter: `y[1][0] = 3d`, `y[0][1] *= d`.
#[derive_frule]
fn write_rows(y: &mut [[f64; 2]], d: f64) {
    y[1][0] = 3.0 * d;
    y[0][1] *= d;
}

#[test]
fn writes_through_a_parameter_reach_the_caller_with_their_tangents() {
    let (d, dd) = (2.0, 1.0);
    let mut y = [[1.0, 5.0], [7.0, 11.0]];
    let mut dy = [[0.0, 0.5], [1.0, 0.0]];
    write_rows_frule(Dual::new(&mut y[..], &mut dy[..]), Dual::new(d, dd));
    let mut want = [[1.0, 5.0], [7.0, 11.0]];
    write_rows(&mut want, d);
    assert_eq!(y, want);
    // d(3d) = 3 dd; d(y01 · d) = dy01 · d + y01 · dd.
    assert_eq!(dy, [[0.0, 0.5 * d + 5.0 * dd], [3.0 * dd, 0.0]]);
}

/// Fields of elements: `ps[i].x *= d` on a parameter, `w[i].y += d` and a tuple's
/// `t[1].0 = ..` on locals.
#[derive_frule]
fn fields_of_elements(ps: &mut [P], d: f64) -> f64 {
    for i in 0..ps.len() {
        ps[i].x *= d;
    }
    let mut w = vec![P { x: 1.0, y: 2.0 }; 2];
    w[1].y += d;
    let mut t = vec![(0.0, 0.0); 2];
    t[1].0 = d * d;
    w[1].y * t[1].0
}

#[test]
fn writes_to_fields_of_elements_reach_the_buffer() {
    let (d, dd) = (3.0, 1.0);
    let mut ps = [P { x: 2.0, y: 1.0 }, P { x: -1.0, y: 4.0 }];
    let mut dps = [PTangent { x: 1.0, y: 0.0 }, PTangent { x: 0.0, y: 1.0 }];
    let r = fields_of_elements_frule(Dual::new(&mut ps[..], &mut dps[..]), Dual::new(d, dd));
    // (2 + d) d², derivative (4d + 3d²) dd.
    let mut want = [P { x: 2.0, y: 1.0 }, P { x: -1.0, y: 4.0 }];
    assert_eq!(r.primal, fields_of_elements(&mut want, d));
    assert_eq!(r.primal, (2.0 + d) * d * d);
    assert!((r.tangent - (4.0 * d + 3.0 * d * d) * dd).abs() < 1e-12);
    assert_eq!(ps, [P { x: 2.0 * d, y: 1.0 }, P { x: -d, y: 4.0 }]);
    // d(x · d) = dx · d + x · dd.
    assert_eq!(dps[0].x, 1.0 * d + 2.0 * dd);
    assert_eq!(dps[1].x, -dd);
    assert_eq!((dps[0].y, dps[1].y), (0.0, 1.0));
}

/// A field of a non-`Copy` element, then an element of that field:
/// `bodies[i].pos[0] += v · dt`, `bodies[i].trail.push(..)`.
#[derive_frule]
fn drift(bodies: &mut Vec<Body>, v: f64, dt: f64) -> f64 {
    for i in 0..bodies.len() {
        bodies[i].pos[0] += v * dt;
        let p = bodies[i].pos[0];
        bodies[i].trail.push(p);
    }
    bodies[0].pos[0] * bodies[1].trail[0]
}

#[test]
fn fields_of_non_copy_elements_are_written_in_place() {
    let mk = || {
        vec![
            Body {
                pos: [1.0, 0.0],
                trail: vec![],
            },
            Body {
                pos: [2.0, 0.0],
                trail: vec![],
            },
        ]
    };
    let zero = || BodyTangent {
        pos: [0.0; 2],
        trail: vec![],
    };
    let (v, dt) = (0.5, 2.0);
    let mut b = mk();
    let mut db = vec![zero(), zero()];
    let r = drift_frule(
        Dual::new(&mut b, &mut db),
        Dual::new(v, 1.0),
        Dual::constant(dt),
    );
    let mut want = mk();
    assert_eq!(r.primal, drift(&mut want, v, dt));
    assert_eq!(b, want);
    // (1 + v dt)(2 + v dt): derivative in v is dt (2 + v dt) + dt (1 + v dt).
    let deriv = dt * (2.0 + v * dt) + dt * (1.0 + v * dt);
    assert!((r.tangent - deriv).abs() < 1e-12, "{} {deriv}", r.tangent);
    assert_eq!(
        (db[0].trail.clone(), db[1].trail.clone()),
        (vec![dt], vec![dt])
    );
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Counted {
    pub k: f64,
    pub n: usize,
}

/// Arithmetic on an integer field of a differentiated struct stays integer arithmetic:
/// `p.n + 1` (an integer operand makes the other one an integer, as in Rust) and
/// `p.n += 1` through `&mut`.
#[derive_frule]
fn count_up(p: &mut Counted, dt: f64) -> f64 {
    let m = p.n + 1;
    p.n += 2;
    p.k *= dt;
    p.k * (m * p.n) as f64
}

#[test]
fn integer_fields_of_a_struct_compute_as_integers() {
    let (k, n, dt) = (2.0, 3, 0.5);
    let mut p = Counted { k, n };
    let mut dp = CountedTangent {
        k: 1.0,
        n: NoTangent,
    };
    let r = count_up_frule(Dual::new(&mut p, &mut dp), Dual::new(dt, 0.25));
    let mut want = Counted { k, n };
    assert_eq!(r.primal, count_up(&mut want, dt));
    assert_eq!(p, want);
    // k dt (n + 1)(n + 2): derivative (dk dt + k ddt)(n + 1)(n + 2); dk becomes dk dt + k ddt.
    let dk = 1.0 * dt + k * 0.25;
    assert_eq!(dp.k, dk);
    assert_eq!(r.tangent, dk * 20.0);
}

/// `std::mem::replace` and `std::mem::take` on active locals.
#[derive_frule]
fn replace_and_take(x: &[f64]) -> f64 {
    let mut a = x[0] * 2.0;
    let old = std::mem::replace(&mut a, x[1] * x[1]);
    let mut buf = x.to_vec();
    let taken = std::mem::take(&mut buf);
    old * a + taken[0] * taken[1] + buf.len() as f64
}

#[test]
fn mem_replace_and_take() {
    let x = [1.5, -2.0];
    // f = 2x0·x1² + x0·x1: ∇f = (2x1² + x1, 4x0x1 + x0).
    let (v, g) = fwdad::drivers::gradient(replace_and_take {}, &x);
    assert_eq!(v, replace_and_take(&x));
    assert_eq!(g, [6.0, -10.5]);
    let (_, g1) = fwdad::drivers::gradient_with::<1>(replace_and_take {}, &x);
    assert_eq!(g1, g);
}

#[derive(Differentiable, Clone, Debug, Default, PartialEq)]
pub struct Acc2 {
    pub s: f64,
    pub v: Vec<f64>,
}

#[derive_frule]
fn take_scalars_and_structs(x: &[f64]) -> f64 {
    let mut a = x[0] * 3.0;
    let t = std::mem::take(&mut a);
    let mut acc = Acc2 {
        s: x[1],
        v: vec![x[0], x[1]],
    };
    let old = std::mem::take(&mut acc);
    t * old.s + old.v[0] + a + acc.s + acc.v.len() as f64
}

#[test]
fn mem_take_on_scalars_and_structs() {
    // f = 3x0·x1 + x0: ∇f = (3x1 + 1, 3x0).
    let x = [0.5, 2.0];
    let (v, g) = fwdad::drivers::gradient(take_scalars_and_structs {}, &x);
    assert_eq!(v, take_scalars_and_structs(&x));
    assert_eq!(g, [7.0, 1.5]);
}

/// Integer methods on a struct's integer fields, whose types the macro does not see: a
/// method floats lack (`pow`) and `min` with an integer argument are the integer's, as in
/// Rust, and compute on values.
#[derive_frule]
fn integer_methods_of_fields(p: &Counted, x: &[f64]) -> f64 {
    let last = x[p.n.min(x.len()) - 1];
    p.k * last * p.n.pow(2) as f64 + p.n.max(1) as f64
}

#[test]
fn integer_methods_of_fields_compute_as_integers() {
    let (k, x) = (1.5, [0.5, -2.0, 3.0, 4.0]);
    for n in [2usize, 7] {
        let p = Counted { k, n };
        let last = x[n.min(4) - 1];
        let dp = CountedTangent {
            k: 1.0,
            n: NoTangent,
        };
        let dx = [0.0, 1.0, 0.0, 0.0];
        let r = integer_methods_of_fields_frule(Dual::new(&p, &dp), Dual::new(&x[..], &dx[..]));
        let n2 = (n * n) as f64;
        assert_eq!(r.primal, k * last * n2 + n as f64);
        // d/dk + d/dx[1]: last * n², plus k n² where x[1] is the element read (n = 2).
        let want = last * n2 + if n == 2 { k * n2 } else { 0.0 };
        assert_eq!(r.tangent, want);
    }
}

/// `Vec::from` of a slice and of an array: the same elements, as `to_vec()`.
#[derive_frule]
fn vec_from_forms(x: &[f64]) -> f64 {
    let v = Vec::from(x);
    let w = std::vec::Vec::from([x[0] * 2.0, 1.0]);
    v[0] * v[1] + w[0] * w[1]
}

#[test]
fn vec_from_copies_the_elements() {
    let x = [3.0, 0.5];
    // x0 x1 + 2 x0: gradient (x1 + 2, x0).
    let (v, g) = fwdad::gradient(vec_from_forms {}, &x);
    assert_eq!((v, g), (7.5, [2.5, 3.0]));
}

/// Array patterns: in a parameter, in a `let` by value, through a reference, with `_`.
#[derive_frule]
fn cross_z([ax, ay]: [f64; 2], b: [f64; 2]) -> f64 {
    let [bx, by] = b;
    ax * by - ay * bx
}

#[derive_frule]
fn norm3(p: &[f64; 3]) -> f64 {
    let [x, y, z] = p;
    (x * x + y * y + z * z).sqrt()
}

#[derive_frule]
fn skip_middle(v: &[f64]) -> f64 {
    let w = [v[0], v[1] * 2.0, 3.0];
    let [a, _, c] = w;
    a * c
}

#[test]
fn array_patterns_bind_the_elements() {
    // a × b (z): ax by − ay bx, along da = (1, 0), db = (0, 1): by + ax = 4 + 1.
    let d = cross_z_frule(
        Dual::new([1.0, 2.0], [1.0, 0.0]),
        Dual::new([3.0, 4.0], [0.0, 1.0]),
    );
    assert_eq!((d.primal, d.tangent), (-2.0, 5.0));
    // |p| at (1, 2, 2) along e0: p0 / |p| = 1/3.
    let d = norm3_frule(Dual::new(&[1.0, 2.0, 2.0], &[1.0, 0.0, 0.0]));
    assert_eq!((d.primal, d.tangent), (3.0, 1.0 / 3.0));
    // 3 v0.
    let (v, g) = fwdad::gradient(skip_middle {}, &[2.0, 5.0]);
    assert_eq!((v, g), (6.0, [3.0, 0.0]));
}

/// `split_first`, `split_last` and `split_at` of an active slice.
#[derive_frule]
fn split_forms(x: &[f64]) -> f64 {
    let (h, t) = x.split_first().unwrap();
    let (l, _) = x.split_last().unwrap();
    let (a, b) = x.split_at(2);
    h * t[0] + l * a[1] + b.iter().sum::<f64>()
}

#[test]
fn slices_split_with_their_tangents() {
    let x = [2.0, 3.0, 5.0, 7.0];
    // x0 x1 + x3 x1 + x2 + x3.
    let (v, g) = fwdad::gradient(split_forms {}, &x);
    assert_eq!((v, g), (39.0, [3.0, 9.0, 1.0, 4.0]));
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Line,
    Curve(u8),
}

/// `matches!` (with a guard), `iter().nth(k)` and `reverse()` on an active `Vec`.
#[derive_frule(inactive(s))]
#[allow(clippy::iter_nth)]
fn small_forms(x: &[f64], s: &Shape) -> f64 {
    let mut v = x.to_vec();
    v.reverse();
    let third = *x.iter().nth(2).unwrap();
    let curved = matches!(s, Shape::Curve(k) if *k > 1);
    if curved && matches!(v.len(), 3 | 4) {
        v[0] * third
    } else {
        v[0]
    }
}

#[test]
fn matches_nth_and_reverse() {
    let x = [2.0, 3.0, 5.0];
    // Reversed: v0 = x2; curved: x2 · x2.
    let (v, g) = fwdad::gradient(bind(small_forms {}, (Wrt, Inactive(&Shape::Curve(2)))), &x);
    assert_eq!((v, g), (25.0, [0.0, 0.0, 10.0]));
    let (v, g) = fwdad::gradient(bind(small_forms {}, (Wrt, Inactive(&Shape::Line))), &x);
    assert_eq!((v, g), (5.0, [0.0, 0.0, 1.0]));
    let (v, _) = fwdad::gradient(bind(small_forms {}, (Wrt, Inactive(&Shape::Curve(1)))), &x);
    assert_eq!(v, 5.0);
}

/// `split_at_mut` (helper hunt 28): both halves of an active `&mut` slice written in place,
/// by index, through sub-slices and through `iter_mut().zip(..)`.
#[derive_frule]
fn eliminate(m: &mut [f64], n: usize, k: f64) {
    for i in 0..n - 1 {
        let (top, rest) = m.split_at_mut((i + 1) * n);
        let pivot = &top[i * n..(i + 1) * n];
        for r in 0..n - 1 - i {
            let row = &mut rest[r * n..(r + 1) * n];
            for j in 0..n {
                row[j] -= k * pivot[j] * row[i];
            }
        }
    }
}

#[derive_frule]
fn fold_halves(x: &[f64], k: f64) -> f64 {
    let mut v = x.to_vec();
    let mid = v.len() / 2;
    let (lo, hi) = v.split_at_mut(mid);
    for (a, b) in lo.iter_mut().zip(hi.iter()) {
        *a += k * *b;
    }
    hi[0] *= k;
    v.iter().map(|t| t * t).sum()
}

#[test]
fn split_at_mut_halves_are_written_with_their_tangents() {
    use fwdad::testing::test_frule;
    let n = 3;
    let m = vec![2.0, 1.0, -1.0, 0.5, 3.0, 1.5, -2.0, 0.25, 4.0];
    test_frule(
        (m.clone(), 0.7),
        |a| eliminate(&mut a.0, n, a.1),
        |a, da| {
            eliminate_frule(
                Dual::new(&mut a.0, &mut da.0),
                Dual::constant(n),
                Dual::new(a.1, da.1),
            )
        },
    );
    let x = [1.0, -2.0, 0.5, 3.0, 1.5];
    test_frule(
        (x.to_vec(), 1.3),
        |a| fold_halves(&a.0, a.1),
        |a, da| fold_halves_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
    );
    // d/dk by hand: lo = [x0 + k x2, x1 + k x3], hi = [k x2, x3, x4];
    // f = Σ lo² + (k x2)² + x3² + x4², df/dk = 2 lo0 x2 + 2 lo1 x3 + 2 k x2².
    let k = 1.3;
    let d = fold_halves_frule(Dual::new(&x[..], &[0.0; 5][..]), Dual::new(k, 1.0));
    let (lo0, lo1) = (x[0] + k * x[2], x[1] + k * x[3]);
    let expected = 2.0 * lo0 * x[2] + 2.0 * lo1 * x[3] + 2.0 * k * x[2] * x[2];
    approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-14);
    assert_eq!(d.primal, fold_halves(&x, k));
}

/// A row borrowed by `get_mut(i).unwrap()` / `last_mut().expect(..)` from a constant-built
/// `Vec<Vec<f64>>` and then written with active values makes the matrix active (helper hunt
/// 28: an internal `ZeroTangent` error; `if let Some(row) = m.get_mut(i)` worked).
#[derive_frule]
fn rows_by_get_mut(k: f64) -> f64 {
    let mut m = vec![vec![0.0; 2]; 3];
    let row = m.get_mut(1).unwrap();
    row[1] = k;
    for j in 0..2 {
        let last = m.last_mut().expect("three rows");
        last[j] += k * k * (j as f64 + 1.0);
    }
    m[1][1] * 2.0 + m[2][0] + m[2][1]
}

#[test]
fn rows_borrowed_by_unwrapped_get_mut_are_written() {
    for &k in &[1.5, -0.5] {
        let d = rows_by_get_mut_frule(Dual::new(k, 1.0));
        assert_eq!(d.primal, rows_by_get_mut(k));
        // 2k + 3k²: derivative 2 + 6k.
        approx::assert_relative_eq!(d.tangent, 2.0 + 6.0 * k, max_relative = 1e-14);
    }
}
