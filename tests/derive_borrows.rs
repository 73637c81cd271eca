//! Borrows as Rust writes them: iterating a `Vec` field of a borrowed struct, passing a
//! `&mut` buffer where a shared one is expected, explicit reborrows, and returning a
//! reference into an argument. Each of these failed to compile before (E0507 at the
//! parameter, a rule-parameter mismatch, E0515). Expected values and derivatives are
//! written from the math.
#![allow(clippy::ptr_arg)]
use fwdad::prelude::*;

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Series {
    pub k: f64,
    pub v: Vec<f64>,
}

/// `Σ v_i x` four ways: `for a in p.v.iter()`, `for a in &p.v`, a `map`/`sum` chain and
/// `windows` on the field, each borrowing `p.v` rather than moving it out of `&Series`.
#[derive_frule]
fn field_sums(p: &Series, x: f64) -> f64 {
    let mut s = 0.0;
    for a in p.v.iter() {
        s += a * x;
    }
    for a in &p.v {
        s += a * x;
    }
    let m: f64 = p.v.iter().map(|a| a * x).sum();
    let mut w = 0.0;
    for pair in p.v.windows(2) {
        w += pair[0] * pair[1];
    }
    s + m + w * p.k
}

#[test]
fn iterating_a_vec_field_of_a_borrowed_struct() {
    let p = Series {
        k: 0.5,
        v: vec![1.0, 2.0, 3.0],
    };
    let x = 1.25;
    // f = 3 x Σv + k Σ v_i v_{i+1}; Σv = 6, Σ v_i v_{i+1} = 2 + 6 = 8.
    let f = 3.0 * x * 6.0 + 0.5 * 8.0;
    // Along x: 3 Σv = 18.
    let zero = SeriesTangent {
        k: 0.0,
        v: vec![0.0; 3],
    };
    let r = field_sums_frule(Dual::new(&p, &zero), Dual::new(x, 1.0));
    assert_eq!(r.primal, field_sums(&p, x));
    assert!((r.primal - f).abs() < 1e-12, "{}", r.primal);
    assert!((r.tangent - 18.0).abs() < 1e-12, "{}", r.tangent);
    // Along v_1 (the middle element): 3x + k (v_0 + v_2) = 3.75 + 2.
    let dv = SeriesTangent {
        k: 0.0,
        v: vec![0.0, 1.0, 0.0],
    };
    let r = field_sums_frule(Dual::new(&p, &dv), Dual::new(x, 0.0));
    assert!((r.tangent - 5.75).abs() < 1e-12, "{}", r.tangent);
    // Along k: Σ v_i v_{i+1} = 8.
    let dk = SeriesTangent {
        k: 1.0,
        v: vec![0.0; 3],
    };
    let r = field_sums_frule(Dual::new(&p, &dk), Dual::new(x, 0.0));
    assert!((r.tangent - 8.0).abs() < 1e-12, "{}", r.tangent);
}

#[derive_frule]
impl Series {
    /// Scales the samples in place through `iter_mut` on a field of `&mut self`.
    pub fn scale(&mut self, by: f64) {
        for a in self.v.iter_mut() {
            *a *= by * self.k;
        }
    }
}

#[test]
fn iter_mut_on_a_field_of_mut_self() {
    let mut p = Series {
        k: 2.0,
        v: vec![1.0, -3.0],
    };
    let mut t = SeriesTangent {
        k: 0.0,
        v: vec![0.0, 0.0],
    };
    // v_i ← v_i · by · k; along `by`: d v_i = v_i k.
    Series::scale_frule(Dual::new(&mut p, &mut t), Dual::new(1.5, 1.0));
    assert_eq!(p.v, vec![3.0, -9.0]);
    assert_eq!(t.v, vec![2.0, -6.0]);
    assert_eq!(t.k, 0.0);
}

#[derive_frule]
fn pair_sum(x: &[f64]) -> f64 {
    x[0] + x[1] * x[1]
}

#[derive_frule]
fn magnitude(s: &Series) -> f64 {
    s.k * s.v[0]
}

/// A `&mut` slice, a `&mut Vec` and a `&mut` struct passed where the callee takes shared
/// ones (Rust's `&mut T` → `&T` coercion), directly and as explicit reborrows `&*y`.
#[derive_frule]
fn scale_then_read(y: &mut [f64], w: &mut Vec<f64>, s: &mut Series, k: f64) -> f64 {
    y[0] *= k;
    w[1] *= k;
    s.k *= k;
    pair_sum(y) + pair_sum(&*y) + pair_sum(w) + magnitude(s) + magnitude(&*s)
}

#[test]
fn mut_buffers_passed_to_shared_parameters() {
    let (y0, w0) = ([2.0, 3.0], vec![5.0, 7.0]);
    let s0 = Series {
        k: 1.5,
        v: vec![4.0],
    };
    let k = 0.5;
    let (mut y, mut w, mut s) = (y0, w0.clone(), s0.clone());
    let (mut ty, mut tw) = ([0.0; 2], vec![0.0; 2]);
    let mut ts = SeriesTangent {
        k: 0.0,
        v: vec![0.0],
    };
    let r = scale_then_read_frule(
        Dual::new(&mut y[..], &mut ty[..]),
        Dual::new(&mut w, &mut tw),
        Dual::new(&mut s, &mut ts),
        Dual::new(k, 1.0),
    );
    // f = 2 (k y0 + y1²) + w0 + (k w1)² + 2 k s.k · v0.
    let f = 2.0 * (k * 2.0 + 9.0) + 5.0 + (k * 7.0).powi(2) + 2.0 * k * 1.5 * 4.0;
    let df = 2.0 * 2.0 + 2.0 * k * 49.0 + 2.0 * 1.5 * 4.0;
    let (mut y2, mut w2, mut s2) = (y0, w0, s0);
    assert_eq!(r.primal, scale_then_read(&mut y2, &mut w2, &mut s2, k));
    assert!((r.primal - f).abs() < 1e-12, "{}", r.primal);
    assert!((r.tangent - df).abs() < 1e-12, "{}", r.tangent);
    // The buffers are left as the plain call leaves them, with their tangents.
    assert_eq!((y, w, s.k), (y2, w2, s2.k));
    assert_eq!((ty, tw, ts.k), ([2.0, 0.0], vec![0.0, 7.0], 1.5));
}

/// Returns a reference into its argument: an element (the lifetime written out).
#[allow(clippy::needless_lifetimes)]
#[derive_frule]
fn largest<'a>(x: &'a [f64]) -> &'a f64 {
    let mut best = 0;
    for i in 1..x.len() {
        if x[i] > x[best] {
            best = i;
        }
    }
    &x[best]
}

/// Returns a reference into its argument: a sub-slice (the lifetime elided).
#[derive_frule]
fn tail(x: &[f64], from: usize) -> &[f64] {
    &x[from..]
}

/// Uses both through their rules.
#[derive_frule]
fn peak_times_tail_sum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in tail(x, 1) {
        s += v;
    }
    largest(x) * s
}

#[test]
fn returned_references_borrow_the_argument() {
    let x = [1.0, 4.0, 2.0];
    let t = [0.1, 0.2, 0.3];
    let r = largest_frule(Dual::new(&x[..], &t[..]));
    assert_eq!((*r.primal, *r.tangent), (4.0, 0.2));
    // The result points into the argument itself.
    assert!(std::ptr::eq(r.primal, &x[1]) && std::ptr::eq(r.tangent, &t[1]));
    let r = tail_frule(Dual::new(&x[..], &t[..]), Dual::new(1, fwdad::NoTangent));
    assert_eq!((r.primal, r.tangent), (&x[1..], &t[1..]));
    // max · (x1 + x2) = x1 (x1 + x2): derivative along t is t1 (x1 + x2) + x1 (t1 + t2).
    let r = peak_times_tail_sum_frule(Dual::new(&x[..], &t[..]));
    assert_eq!(r.primal, 4.0 * 6.0);
    assert!(
        (r.tangent - (0.2 * 6.0 + 4.0 * 0.5)).abs() < 1e-12,
        "{}",
        r.tangent
    );
}

/// A slice annotation on a borrowed `Vec` or array (`let d: &[f64] = &v;`).
#[derive_frule]
fn annotated_slices(x: &[f64]) -> f64 {
    let v: Vec<f64> = x.iter().map(|t| t * t).collect();
    let d: &[f64] = &v;
    let a = [x[0], 2.0 * x[1]];
    let e: &[f64] = &a;
    d[0] + d[1] + e[1]
}

#[test]
fn slice_annotations_on_borrowed_vecs_and_arrays() {
    // f = x0² + x1² + 2x1: ∇f = (2x0, 2x1 + 2).
    let (v, g) = fwdad::drivers::gradient(annotated_slices {}, &[1.5, -0.5]);
    assert_eq!(v, annotated_slices(&[1.5, -0.5]));
    assert_eq!(g, [3.0, 1.0]);
}

/// A `&mut` element of a `&mut` argument, returned (a branch's `return` or the tail).
#[derive_frule]
fn larger_mut(a: &mut [f64]) -> &mut f64 {
    if a[0] > a[1] {
        return &mut a[0];
    }
    &mut a[1]
}

/// Writes through the returned element: the larger of `a[0]`, `a[1]` is scaled by `k`.
#[derive_frule]
fn scale_larger(a: &mut Vec<f64>, k: f64) -> f64 {
    let r = larger_mut(a);
    *r *= k;
    a[0] + a[1] * a[2]
}

#[test]
fn returned_mut_references_write_the_argument() {
    let k = 3.0;
    for a0 in [vec![2.0, 1.0, 5.0], vec![1.0, 2.0, 5.0]] {
        let mut a = a0.clone();
        let mut da = vec![1.0, 0.5, 0.25];
        let r = scale_larger_frule(Dual::new(&mut a, &mut da), Dual::new(k, 2.0));
        let mut want = a0.clone();
        assert_eq!(r.primal, scale_larger(&mut want, k));
        assert_eq!(a, want);
        // The larger element j becomes k·a_j, with tangent k·da_j + a_j·dk.
        let j = if a0[0] > a0[1] { 0 } else { 1 };
        let mut dwant = vec![1.0, 0.5, 0.25];
        dwant[j] = k * dwant[j] + a0[j] * 2.0;
        assert_eq!(da, dwant);
        // a0 + a1·a2 after the write.
        assert_eq!(r.tangent, da[0] + da[1] * a[2] + a[1] * da[2]);
    }
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Damped {
    pub damp: Option<f64>,
    pub k: f64,
}

/// `match &mut s.damp` and `if let Some(d) = &mut o` write through the matched borrow.
#[derive_frule]
fn damp_step(s: &mut Damped, x: f64) -> f64 {
    match &mut s.damp {
        Some(v) => *v += x * s.k,
        None => s.k *= x,
    }
    if let Some(d) = &mut s.damp {
        *d *= 2.0;
    }
    s.k
}

#[derive_frule]
fn scale_local_option(x: f64, y: f64) -> f64 {
    let mut o = Some(x);
    if let Some(d) = &mut o {
        *d *= y;
    }
    o.unwrap() + x
}

#[test]
fn matching_on_mut_borrowed_options_writes_through() {
    let mut s = Damped {
        damp: Some(2.0),
        k: 3.0,
    };
    let mut ds = DampedTangent {
        damp: Some(0.5),
        k: 1.0,
    };
    let r = damp_step_frule(Dual::new(&mut s, &mut ds), Dual::new(5.0, 1.0));
    // damp ← 2(damp + x k): 2(2 + 15) = 34, tangent 2(0.5 + 1·3 + 5·1) = 17.
    assert_eq!((s.damp, ds.damp), (Some(34.0), Some(17.0)));
    assert_eq!((r.primal, r.tangent), (3.0, 1.0));
    let mut s = Damped { damp: None, k: 3.0 };
    let mut ds = DampedTangent { damp: None, k: 1.0 };
    let r = damp_step_frule(Dual::new(&mut s, &mut ds), Dual::new(5.0, 2.0));
    // k ← k x: tangent dk x + k dx.
    assert_eq!((r.primal, r.tangent), (15.0, 5.0 + 3.0 * 2.0));
    // x y + x, along (1, 0): y + 1.
    let r = scale_local_option_frule(Dual::new(2.0, 1.0), Dual::new(3.0, 0.0));
    assert_eq!((r.primal, r.tangent), (8.0, 4.0));
}

/// Float methods on `&mut f64`s the macro sees only by their type or binding: a binding
/// of a `match` on `&mut` (`d` in `if let Some(d) = &mut s.damp`) and a call's result
/// annotated `&mut f64`.
#[derive_frule]
fn methods_on_mut_bindings(s: &mut Damped, x: f64) -> f64 {
    let mut out = 0.0;
    if let Some(d) = &mut s.damp {
        out = d.sin();
        *d *= x;
    }
    let mut o = Some(x);
    let e = match &mut o {
        Some(v) => v.exp(),
        None => 0.0,
    };
    out + e
}

#[derive_frule]
fn write_through_returned(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let r: &mut f64 = larger_mut(&mut v);
    let q = r.sin();
    *r *= x[2];
    q + v[0] + v[1]
}

#[test]
fn float_methods_on_mut_bindings() {
    let mut s = Damped {
        damp: Some(1.0),
        k: 2.0,
    };
    let mut ds = DampedTangent {
        damp: Some(1.0),
        k: 0.0,
    };
    let r = methods_on_mut_bindings_frule(Dual::new(&mut s, &mut ds), Dual::new(2.0, 0.5));
    // sin(damp) + e^x: tangent cos(1)·1 + e²·0.5; damp ← damp·x: tangent 1·2 + 1·0.5.
    assert_eq!(r.primal, 1.0f64.sin() + 2.0f64.exp());
    assert!((r.tangent - (1.0f64.cos() + 0.5 * 2.0f64.exp())).abs() < 1e-15);
    assert_eq!((s.damp, ds.damp), (Some(2.0), Some(2.5)));
    // x = (0.5, 2, 3): the larger of x0, x1 is x1; sin(x1) + x0 + x2·x1.
    let x = [0.5, 2.0, 3.0];
    for (_, g) in [
        fwdad::gradient(write_through_returned {}, &x[..]),
        fwdad::gradient_with::<1>(write_through_returned {}, &x),
    ] {
        let want = [1.0, 2.0f64.cos() + 3.0, 2.0];
        for i in 0..3 {
            assert!((g[i] - want[i]).abs() < 1e-15, "{g:?}");
        }
    }
}

/// A constant `Option` that an active value is written into through `&mut` becomes active
/// where it is defined; `unwrap_or` of a constant `Option` with an active default.
#[derive_frule]
fn activate_option(x: f64) -> f64 {
    let mut o = Some(1.0);
    if let Some(d) = &mut o {
        *d *= x;
    }
    let unset: Option<f64> = if x > 100.0 { Some(1.0) } else { None };
    o.unwrap_or(0.0) + unset.unwrap_or(x) * 2.0
}

#[derive(Differentiable, Clone, Debug)]
pub struct Biased {
    pub bias: Option<f64>,
}

#[derive_frule(inactive(c))]
fn default_from_inactive(c: &Biased, x: f64) -> f64 {
    c.bias.unwrap_or(x) * x
}

#[test]
fn constant_options_meet_active_values() {
    // x + 2x.
    assert_eq!(fwdad::derivative(activate_option {}, 2.0), (6.0, 3.0));
    // None: x², Some(b): b x.
    let none = Biased { bias: None };
    let rule = bind(default_from_inactive {}, (Inactive(&none), Wrt));
    assert_eq!(fwdad::derivative(rule, 2.0), (4.0, 4.0));
    let some = Biased { bias: Some(0.5) };
    let rule = bind(default_from_inactive {}, (Inactive(&some), Wrt));
    assert_eq!(fwdad::derivative(rule, 2.0), (1.0, 0.5));
}

#[derive_frule]
fn set_value(r: &mut f64, v: f64) {
    *r = v;
}

/// `let .. else` through `&mut`, and a match binding lent to a helper, on constant and
/// active `Option`s (review of the afternoon's commits).
#[derive_frule]
fn let_else_through_mut(h: &mut Damped, x: &[f64]) -> f64 {
    let Some(d) = &mut h.damp else {
        return 0.0;
    };
    *d *= x[0];
    let mut o = Some(1.0);
    if let Some(e) = &mut o {
        set_value(e, x[1]);
    }
    let mut p = Some(x[0]);
    let Some(q) = &mut p else { return 0.0 };
    *q = x[1] * 3.0;
    h.k + o.unwrap() + p.unwrap()
}

#[test]
fn let_else_and_lent_bindings_through_mut() {
    let mut h = Damped {
        damp: Some(2.0),
        k: 1.0,
    };
    let mut dh = DampedTangent {
        damp: Some(0.5),
        k: 0.0,
    };
    let x = [3.0, 4.0];
    let dx = [1.0, 2.0];
    let r = let_else_through_mut_frule(Dual::new(&mut h, &mut dh), Dual::new(&x[..], &dx[..]));
    // k + x1 + 3 x1; damp ← damp·x0 (tangent 0.5·3 + 2·1).
    assert_eq!((r.primal, r.tangent), (1.0 + 4.0 + 12.0, 2.0 + 6.0));
    assert_eq!((h.damp, dh.damp), (Some(6.0), Some(3.5)));
}

/// `std::mem::swap` of two `&mut` locals, both read before and after (hunt G's coverage;
/// caught a regression of the move-into-aggregates rule).
#[derive_frule]
fn swap_through_refs(x: &[f64]) -> f64 {
    let mut a = x[0];
    let mut b = x[1];
    let ra = &mut a;
    let rb = &mut b;
    let p = ra.sin();
    std::mem::swap(ra, rb);
    p * ra.cos() + rb.exp()
}

#[test]
fn swapped_references_keep_their_tangents() {
    let x: [f64; 2] = [0.7, -0.4];
    // sin(x0)·cos(x1) + e^x0.
    let want = [
        x[0].cos() * x[1].cos() + x[0].exp(),
        -x[0].sin() * x[1].sin(),
    ];
    for g in [
        fwdad::gradient(swap_through_refs {}, &x[..]).1,
        fwdad::gradient_with::<1>(swap_through_refs {}, &x).1,
    ] {
        for i in 0..2 {
            assert!((g[i] - want[i]).abs() < 1e-15, "{g:?}");
        }
    }
}

/// `get_mut`, `last_mut` and `first_mut` bindings, read and written (the last on a
/// constant array written an active value).
#[derive_frule]
fn element_bindings(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    if let Some(d) = v.get_mut(1) {
        let s = d.sin();
        *d *= x[0];
        *d += s;
    }
    if let Some(l) = v.last_mut() {
        *l = l.exp();
    }
    let mut c = [1.0, 2.0];
    if let Some(f) = c.first_mut() {
        *f *= x[2];
    }
    v[1] + v[2] + c[0]
}

#[test]
fn mutable_element_bindings() {
    let x: [f64; 3] = [0.5, 2.0, 0.3];
    // v1 = x1 x0 + sin x1, v2 = e^x2, c0 = x2.
    let want = [x[1], x[0] + x[1].cos(), x[2].exp() + 1.0];
    for g in [
        fwdad::gradient(element_bindings {}, &x[..]).1,
        fwdad::gradient_with::<1>(element_bindings {}, &x).1,
    ] {
        for i in 0..3 {
            assert!((g[i] - want[i]).abs() < 1e-15, "{g:?} vs {want:?}");
        }
    }
}

/// `get_mut` of a `&mut [f64]` parameter, written, then the slice read (helper hunt H).
#[derive_frule]
fn scale_first(v: &mut [f64], x: f64) -> f64 {
    if let Some(d) = v.get_mut(0) {
        *d *= x;
    }
    if let Some(l) = v.last_mut() {
        *l += l.sin();
    }
    v[0] + v[1]
}

#[test]
fn get_mut_of_a_mut_parameter() {
    let (mut v, mut dv) = ([3.0, 0.5], [1.0, 1.0]);
    let r = scale_first_frule(Dual::new(&mut v[..], &mut dv[..]), Dual::new(2.0, 0.0));
    // v0 ← v0 x (tangent 1·2), v1 ← v1 + sin v1 (tangent 1 + cos 0.5).
    assert_eq!(v, [6.0, 0.5 + 0.5f64.sin()]);
    assert_eq!(dv, [2.0, 1.0 + 0.5f64.cos()]);
    assert_eq!((r.primal, r.tangent), (v[0] + v[1], dv[0] + dv[1]));
}

/// Scales a buffer in place.
#[derive_frule]
fn scale_buffer(out: &mut [f64], s: f64) {
    for v in out.iter_mut() {
        *v *= s;
    }
}

/// A `&mut` local passed to a helper twice and read afterwards (issue 28.4).
#[derive_frule]
fn scaled_twice(x: &[f64]) -> f64 {
    let mut buf = x.to_vec();
    let r = &mut buf[..];
    scale_buffer(r, x[0]);
    scale_buffer(r, 2.0);
    r[1] + r[0] * r[2]
}

#[test]
fn mut_local_lent_to_helpers_then_read() {
    // r_i = 2 x₀ xᵢ: f = 2x₀x₁ + 4x₀³x₂.
    let x = [1.5, 2.0, -0.5];
    let (v, g) = fwdad::gradient(scaled_twice {}, &x);
    assert_eq!(v, scaled_twice(&x));
    let want = [
        2.0 * x[1] + 12.0 * x[0] * x[0] * x[2],
        2.0 * x[0],
        4.0 * x[0] * x[0] * x[0],
    ];
    for (a, b) in g.iter().zip(want) {
        assert!((a - b).abs() < 1e-13, "{g:?} vs {want:?}");
    }
}
