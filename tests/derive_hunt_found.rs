//! Hunt for wrong primals and wrong derivatives in ordinary code: state carried through
//! loops by routes a syntactic pre-scan can miss (shadowing, `&mut` locals, fields,
//! closures, labelled loops, `mem::swap`, `Option` state). Each function is written as
//! users write it and checked against central finite differences of the plain function
//! in one direction, batched and at second order, primals bit for bit (`check_modes!`).
#![allow(clippy::needless_range_loop, clippy::manual_memcpy)]
use fwdad::prelude::*;

mod common;

/// A `let` inside the loop body shadowing the carried name.
#[derive_frule]
fn shadow_in_loop(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for &v in x {
        let acc2 = acc * 0.5;
        acc = acc2 + v * v;
        let acc = acc * 2.0;
        let _ = acc;
    }
    acc
}

/// Accumulation through a `&mut` local.
#[derive_frule]
fn through_ref_mut(x: &[f64]) -> f64 {
    let mut acc = 1.0;
    for &v in x {
        let r = &mut acc;
        *r += v.sin();
        *r *= 0.9;
    }
    acc
}

#[derive(Clone, Copy, Differentiable)]
struct Stats {
    total: f64,
    sq: f64,
}

/// Fields of a local struct assigned in a loop.
#[derive_frule]
fn struct_fields_in_loop(x: &[f64]) -> f64 {
    let mut s = Stats { total: 0.0, sq: 0.0 };
    for &v in x {
        s.total += v;
        s.sq += v * v;
    }
    s.sq / x.len() as f64 - (s.total / x.len() as f64).powi(2)
}

/// Tuple fields assigned in a loop.
#[derive_frule]
fn tuple_fields_in_loop(x: &[f64]) -> f64 {
    let mut pair = (0.0, 1.0);
    for &v in x {
        pair.0 = pair.0 + v * pair.1;
        pair.1 *= 0.5 + v.cos() * 0.1;
    }
    pair.0 + pair.1
}

/// `break` and `continue` inside a `match` inside a loop.
#[derive_frule]
fn break_in_match(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    let mut i = 0;
    loop {
        match i {
            0 => {
                i += 1;
                continue;
            }
            k if k >= x.len() => break,
            _ => acc += x[i] * x[i - 1],
        }
        i += 1;
    }
    acc
}

/// A labelled outer loop broken from the inner one.
#[derive_frule]
fn labelled_break(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    'outer: for i in 0..x.len() {
        for j in 0..x.len() {
            if j > i {
                continue 'outer;
            }
            acc += x[i] * x[j];
            if acc > 50.0 {
                break 'outer;
            }
        }
    }
    acc
}

/// `mem::swap` of two carried values (a two-term recurrence).
#[derive_frule]
fn swap_recurrence(x: &[f64]) -> f64 {
    let mut a = x[0];
    let mut b = x[1];
    for &v in &x[2..] {
        let c = a + v * b;
        a = c;
        std::mem::swap(&mut a, &mut b);
    }
    a * b
}

/// `mem::replace` returning the old value in a loop.
#[derive_frule]
fn replace_in_loop(x: &[f64]) -> f64 {
    let mut prev = x[0];
    let mut acc = 0.0;
    for &v in &x[1..] {
        let old = std::mem::replace(&mut prev, v);
        acc += (v - old).powi(2);
    }
    acc + prev
}

/// `Option<f64>` state updated in a loop (a running minimum).
#[derive_frule]
fn option_state(x: &[f64]) -> f64 {
    let mut best: Option<f64> = None;
    for &v in x {
        let c = (v - 0.3).powi(2);
        best = match best {
            Some(b) if b <= c => Some(b),
            _ => Some(c),
        };
    }
    best.unwrap_or(0.0)
}

/// Compound assignment to an index of an index.
#[derive_frule]
fn index_of_index(x: &[f64]) -> f64 {
    let mut m = [[0.0; 2]; 2];
    for k in 0..x.len() {
        m[k % 2][(k / 2) % 2] += x[k] * x[(k + 1) % x.len()];
    }
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}

/// State updated in a `filter`'s closure.
#[derive_frule]
fn state_in_filter(x: &[f64]) -> f64 {
    let mut seen = 0.0;
    let s: f64 = x
        .iter()
        .filter(|&&v| {
            seen += v;
            v > 0.0
        })
        .map(|&v| v * v)
        .sum();
    s + seen
}

/// `fold` with tuple state.
#[derive_frule]
fn fold_tuple_state(x: &[f64]) -> f64 {
    let (m, s) = x
        .iter()
        .fold((0.0, 0.0), |(m, s), &v| (m + v, s + v * m));
    m * s
}

/// `scan` with state.
#[derive_frule]
fn scan_state(x: &[f64]) -> f64 {
    x.iter()
        .scan(1.0, |p, &v| {
            *p *= v;
            Some(*p)
        })
        .sum()
}

/// A closure capturing the loop variable.
#[derive_frule]
fn closure_captures_loop_var(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for &v in x {
        let f = |t: f64| t * v;
        acc += f(acc + 1.0);
    }
    acc
}

/// A stack popped in a `while let` condition.
#[derive_frule]
fn assign_in_while_let(x: &[f64]) -> f64 {
    let mut stack = x.to_vec();
    let mut acc = 0.0;
    let mut last = 0.0;
    while let Some(v) = stack.pop() {
        acc += v * last;
        last = v;
    }
    acc + last
}

/// `iter_mut` over a struct's field.
#[derive(Clone, Differentiable)]
struct Particles {
    pos: Vec<f64>,
}

#[derive_frule]
fn iter_mut_field(x: &[f64]) -> f64 {
    let mut p = Particles { pos: x.to_vec() };
    for q in p.pos.iter_mut() {
        *q = *q * *q + 1.0;
    }
    p.pos.iter().sum()
}

/// A nested closure advancing captured state through the outer closure.
#[derive_frule]
fn nested_closure_state(x: &[f64]) -> f64 {
    let mut n = 0;
    let mut next = || {
        let v = x[n];
        n += 1;
        v
    };
    let mut acc = 0.0;
    for _ in 0..x.len() {
        acc = acc * 0.5 + next();
    }
    acc
}

/// Early `return` from inside a `match` inside a loop.
#[derive_frule]
fn early_return_in_match(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for (i, &v) in x.iter().enumerate() {
        match i {
            3 => return acc * v,
            _ => acc += v.exp(),
        }
    }
    acc
}

/// A loop-carried value assigned in a `match` arm guard's consequent and shadowed in another arm.
#[derive_frule]
fn shadow_in_arm(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for &v in x {
        match v > 0.0 {
            true => {
                let acc = acc + 100.0;
                let _ = acc;
            }
            false => acc += v,
        }
        acc += v * 0.5;
    }
    acc
}

/// Shadowing the carried name in a closure parameter.
#[derive_frule]
fn shadow_in_closure_param(x: &[f64]) -> f64 {
    let mut acc = 1.0;
    for &v in x {
        let g = |acc: f64| acc * 2.0 + v;
        acc = g(acc) * 0.3;
    }
    acc
}

/// A `let` without initial value shadowing then assigned, in a loop.
#[derive_frule]
fn shadow_then_assign(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for &v in x {
        acc += v;
        {
            let mut acc = 5.0;
            acc += v;
            let _ = acc;
        }
    }
    acc
}

fn pts() -> Vec<f64> {
    vec![0.7, -0.4, 1.1, 0.25, -0.9]
}

#[test]
fn shadowing() {
    check_modes!(shadow_in_loop {}, shadow_in_loop, pts());
    check_modes!(shadow_in_arm {}, shadow_in_arm, pts());
    check_modes!(shadow_in_closure_param {}, shadow_in_closure_param, pts());
    check_modes!(shadow_then_assign {}, shadow_then_assign, pts());
}

#[test]
fn ref_mut_local() {
    check_modes!(through_ref_mut {}, through_ref_mut, pts());
}

#[test]
fn fields() {
    check_modes!(struct_fields_in_loop {}, struct_fields_in_loop, pts());
    check_modes!(tuple_fields_in_loop {}, tuple_fields_in_loop, pts());
    check_modes!(iter_mut_field {}, iter_mut_field, pts());
}

#[test]
fn control() {
    check_modes!(break_in_match {}, break_in_match, pts());
    check_modes!(labelled_break {}, labelled_break, pts());
    check_modes!(early_return_in_match {}, early_return_in_match, pts());
    check_modes!(assign_in_while_let {}, assign_in_while_let, pts());
}

#[test]
fn mem() {
    check_modes!(swap_recurrence {}, swap_recurrence, pts());
    check_modes!(replace_in_loop {}, replace_in_loop, pts());
}

#[test]
fn options_and_indices() {
    check_modes!(option_state {}, option_state, pts());
    check_modes!(index_of_index {}, index_of_index, pts());
}

#[test]
fn chains() {
    check_modes!(state_in_filter {}, state_in_filter, pts());
    check_modes!(fold_tuple_state {}, fold_tuple_state, pts());
    check_modes!(scan_state {}, scan_state, pts());
}

#[test]
fn closures() {
    check_modes!(closure_captures_loop_var {}, closure_captures_loop_var, pts());
    check_modes!(nested_closure_state {}, nested_closure_state, pts());
}

// ---------------------------------------------------------------------------------------
// Batch 2

/// A running accumulator with a `&mut self` method.
#[derive(Clone, Copy, Differentiable)]
pub struct Running {
    pub mean: f64,
    pub n: f64,
}

#[derive_frule]
impl Running {
    pub fn push(&mut self, v: f64) {
        self.n += 1.0;
        self.mean += (v - self.mean) / self.n;
    }
}

#[derive_frule]
fn method_mut_self_in_loop(x: &[f64]) -> f64 {
    let mut r = Running { mean: 0.0, n: 0.0 };
    for &v in x {
        r.push(v * v);
    }
    r.mean
}

#[derive_frule]
fn method_mut_self_in_for_each(x: &[f64]) -> f64 {
    let mut r = Running { mean: 0.0, n: 0.0 };
    x.iter().for_each(|&v| r.push(v.sin()));
    r.mean
}

#[derive_frule]
fn method_mut_self_in_map(x: &[f64]) -> f64 {
    let mut r = Running { mean: 0.0, n: 0.0 };
    let s: f64 = x
        .iter()
        .map(|&v| {
            r.push(v);
            r.mean * v
        })
        .sum();
    s + r.mean
}

/// A helper that accumulates through `&mut f64`.
#[derive_frule]
fn bump(acc: &mut f64, v: f64) {
    *acc += v * v;
}

#[derive_frule]
fn ref_mut_param_in_loop(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for &v in x {
        bump(&mut acc, v);
    }
    acc
}

#[derive_frule]
fn ref_mut_param_in_chain(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    let s: f64 = x
        .iter()
        .map(|&v| {
            bump(&mut acc, v);
            acc
        })
        .sum();
    s
}

/// A closure calling a closure that advances state, called in a loop.
#[derive_frule]
fn closure_calls_closure(x: &[f64]) -> f64 {
    let mut k = 0;
    let mut inner = || {
        k += 1;
        x[k - 1]
    };
    let mut outer = || inner() * 2.0;
    let mut acc = 0.0_f64;
    for _ in 0..x.len() {
        acc += outer() * acc.cos();
    }
    acc
}

/// A closure advancing state, called in an `if` condition in a loop.
#[derive_frule]
fn closure_in_if_condition(x: &[f64]) -> f64 {
    let mut i = 0;
    let mut next = || {
        i += 1;
        x[i - 1]
    };
    let mut acc = 0.0;
    for _ in 0..x.len() {
        if next() > 0.0 {
            acc += 1.0;
        }
        acc *= 1.1;
    }
    acc + x.iter().sum::<f64>()
}

/// A closure advancing state, called in a `match` scrutinee in a loop.
#[derive_frule]
fn closure_in_match_scrutinee(x: &[f64]) -> f64 {
    let mut i = 0;
    let mut next = || {
        i += 1;
        x[i - 1]
    };
    let mut acc = 0.0;
    for _ in 0..x.len() {
        acc += match next() {
            v if v > 0.0 => v * v,
            v => -v,
        };
    }
    acc
}

/// Assignment inside an `if let` condition in a loop.
#[derive_frule]
fn assign_in_if_let_condition(x: &[f64]) -> f64 {
    let mut i = 0;
    let mut acc = 0.0_f64;
    for _ in 0..x.len() + 2 {
        if let Some(&v) = {
            i += 1;
            x.get(i - 1)
        } {
            acc += v * acc.sin() + v;
        }
    }
    acc
}

/// `break` with a value from a `loop` carrying two values.
#[derive_frule]
fn break_value(x: &[f64]) -> f64 {
    let mut a = 0.0;
    let mut i = 0;
    let r = loop {
        if i == x.len() {
            break a * 2.0;
        }
        a += x[i] * x[i];
        i += 1;
    };
    r + a
}

/// Fibonacci-like destructuring assignment.
#[derive_frule]
fn destructuring_recurrence(x: &[f64]) -> f64 {
    let (mut a, mut b) = (x[0], x[1]);
    for &v in &x[2..] {
        (a, b) = (b, a + v * b);
    }
    a + b
}

/// Prefix sums in place in a Vec of Vecs.
#[derive_frule]
fn vec_of_vec_in_place(x: &[f64]) -> f64 {
    let mut m = vec![vec![0.0; 2]; 2];
    for k in 0..x.len() {
        m[k % 2][k / 3] += x[k];
        m[(k + 1) % 2][0] *= 1.0 + x[k] * 0.1;
    }
    m[0][0] * m[1][1] + m[0][1] - m[1][0]
}

/// Elements of an array of structs updated in a loop.
#[derive(Clone, Copy, Differentiable)]
pub struct Body {
    pub x: f64,
    pub v: f64,
}

#[derive_frule]
fn array_of_structs(x: &[f64]) -> f64 {
    let mut bs = [Body { x: x[0], v: x[1] }, Body { x: x[2], v: x[3] }];
    for _ in 0..3 {
        for i in 0..2 {
            bs[i].v -= 0.1 * bs[i].x;
            bs[i].x += 0.1 * bs[i].v;
        }
    }
    bs[0].x * bs[1].v + x[4]
}

/// `let r = &mut s.field` in a loop.
#[derive_frule]
fn ref_mut_to_field(x: &[f64]) -> f64 {
    let mut b = Body { x: 0.0, v: 1.0 };
    for &v in x {
        let r = &mut b.x;
        *r += v * b.v;
        b.v *= 0.9;
    }
    b.x
}

/// `let r = &mut a[i]` in a loop.
#[derive_frule]
fn ref_mut_to_element(x: &[f64]) -> f64 {
    let mut a = [0.0; 3];
    for (k, &v) in x.iter().enumerate() {
        let r = &mut a[k % 3];
        *r = *r * 0.5 + v;
    }
    a[0] * a[1] * a[2]
}

/// `last_mut` in a loop.
#[derive_frule]
fn last_mut_in_loop(x: &[f64]) -> f64 {
    let mut out = vec![0.0];
    for &v in x {
        if v < 0.0 {
            out.push(v);
        } else if let Some(l) = out.last_mut() {
            *l += v * v;
        }
    }
    out.iter().map(|v| v * v).sum()
}

/// A `let` shadowing the carried name inside a closure inlined in the loop.
#[derive_frule]
fn shadow_in_inlined_closure(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    let mut step = |v: f64| {
        let acc2 = v * 2.0;
        acc += acc2;
    };
    for &v in x {
        step(v);
    }
    acc
}

/// A `for` pattern shadowing the outer carried name.
#[derive_frule]
fn for_pattern_shadows(x: &[f64]) -> f64 {
    let mut acc = 1.0;
    for _ in 0..2 {
        for acc in x.iter() {
            let _ = acc;
        }
        acc = acc * x[0] + x[1];
    }
    acc
}

/// A carried name assigned only after `continue` in some iterations.
#[derive_frule]
fn continue_skips_update(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    let mut last = 1.0;
    for &v in x {
        if v < 0.0 {
            acc += last;
            continue;
        }
        last = v;
        acc += v * v;
    }
    acc * last
}

/// `swap` of slice elements (bubble pass) in a loop.
#[derive_frule]
fn slice_swap_in_loop(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    for i in 0..v.len() {
        for j in 0..v.len() - 1 - i {
            if v[j] > v[j + 1] {
                v.swap(j, j + 1);
            }
        }
    }
    v[0] * 1.0 + v[1] * 2.0 + v[2] * 3.0 + v[4] * v[3]
}

#[test]
fn batch2_methods_and_refs() {
    check_modes!(method_mut_self_in_loop {}, method_mut_self_in_loop, pts());
    check_modes!(method_mut_self_in_for_each {}, method_mut_self_in_for_each, pts());
    check_modes!(method_mut_self_in_map {}, method_mut_self_in_map, pts());
    check_modes!(ref_mut_param_in_loop {}, ref_mut_param_in_loop, pts());
    check_modes!(ref_mut_param_in_chain {}, ref_mut_param_in_chain, pts());
    check_modes!(ref_mut_to_field {}, ref_mut_to_field, pts());
    check_modes!(ref_mut_to_element {}, ref_mut_to_element, pts());
    check_modes!(last_mut_in_loop {}, last_mut_in_loop, pts());
}

#[test]
fn batch2_closures() {
    check_modes!(closure_calls_closure {}, closure_calls_closure, pts());
    check_modes!(closure_in_if_condition {}, closure_in_if_condition, pts());
    check_modes!(closure_in_match_scrutinee {}, closure_in_match_scrutinee, pts());
    check_modes!(shadow_in_inlined_closure {}, shadow_in_inlined_closure, pts());
}

#[test]
fn batch2_control() {
    check_modes!(assign_in_if_let_condition {}, assign_in_if_let_condition, pts());
    check_modes!(break_value {}, break_value, pts());
    check_modes!(destructuring_recurrence {}, destructuring_recurrence, pts());
    check_modes!(for_pattern_shadows {}, for_pattern_shadows, pts());
    check_modes!(continue_skips_update {}, continue_skips_update, pts());
}

#[test]
fn batch2_places() {
    check_modes!(vec_of_vec_in_place {}, vec_of_vec_in_place, pts());
    check_modes!(array_of_structs {}, array_of_structs, pts());
    check_modes!(slice_swap_in_loop {}, slice_swap_in_loop, pts());
}
