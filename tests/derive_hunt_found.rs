//! Hunt for wrong primals and wrong derivatives in ordinary code: state carried through
//! loops by routes a syntactic pre-scan can miss (shadowing, `&mut` locals, fields,
//! closures, labelled loops, `mem::swap`, `Option` state). Each function is written as
//! users write it and checked against central finite differences of the plain function
//! in one direction, batched and at second order, primals bit for bit (`check_modes!`).
// Written as users write them: `a = a + ..`, `vec![..]` read once, pushes after `new`.
#![allow(
    clippy::needless_range_loop,
    clippy::manual_memcpy,
    clippy::assign_op_pattern,
    clippy::vec_init_then_push,
    clippy::useless_vec
)]
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
    let mut s = Stats {
        total: 0.0,
        sq: 0.0,
    };
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
    let (m, s) = x.iter().fold((0.0, 0.0), |(m, s), &v| (m + v, s + v * m));
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
    check_modes!(
        closure_captures_loop_var {},
        closure_captures_loop_var,
        pts()
    );
    check_modes!(nested_closure_state {}, nested_closure_state, pts());
}

// ---------------------------------------------------------------------------------------
// Guards: `&mut self` methods, `&mut` helpers, closures in conditions, labelled loops

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
    check_modes!(
        method_mut_self_in_for_each {},
        method_mut_self_in_for_each,
        pts()
    );
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
    check_modes!(
        closure_in_match_scrutinee {},
        closure_in_match_scrutinee,
        pts()
    );
    check_modes!(
        shadow_in_inlined_closure {},
        shadow_in_inlined_closure,
        pts()
    );
}

#[test]
fn batch2_control() {
    check_modes!(
        assign_in_if_let_condition {},
        assign_in_if_let_condition,
        pts()
    );
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

// ---------------------------------------------------------------------------------------
// Guards: copies of Copy values, then the original mutated in place

#[derive_frule]
fn copy_then_bump(x: &[f64]) -> f64 {
    let mut acc = x[0];
    let before = acc;
    bump(&mut acc, x[1]);
    before * acc + x[2]
}

#[derive_frule]
fn copy_struct_then_push(x: &[f64]) -> f64 {
    let mut r = Running { mean: x[0], n: 1.0 };
    let snapshot = r;
    r.push(x[1]);
    r.push(x[2]);
    (snapshot.mean - r.mean) * snapshot.mean
}

/// An explicit Euler step keeping the previous state (a Copy array).
#[derive_frule]
fn copy_array_then_update(x: &[f64]) -> f64 {
    let mut s = [x[0], x[1], x[2]];
    for _ in 0..3 {
        let prev = s;
        for i in 0..3 {
            s[i] += 0.1 * (prev[(i + 1) % 3] - prev[i] * prev[i]);
        }
    }
    s[0] + s[1] * s[2]
}

/// A Jacobi sweep: `next` starts as a copy of `cur`.
#[derive_frule]
fn jacobi_copy(x: &[f64]) -> f64 {
    let mut cur = [x[0], x[1], x[2], x[3]];
    for _ in 0..2 {
        let mut next = cur;
        for i in 1..3 {
            next[i] = 0.5 * (cur[i - 1] + cur[i + 1]) + x[4] * cur[i];
        }
        cur = next;
    }
    cur[1] * cur[2]
}

/// Copy then `mem::swap`.
#[derive_frule]
fn copy_then_swap(x: &[f64]) -> f64 {
    let mut a = x[0];
    let mut b = x[1];
    let a0 = a;
    std::mem::swap(&mut a, &mut b);
    a0 * 3.0 + a * 2.0 + b + x[2]
}

/// Copy of a struct field then the struct mutated through `&mut`.
#[derive_frule]
fn copy_field_then_ref_mut(x: &[f64]) -> f64 {
    let mut b = Body { x: x[0], v: x[1] };
    let x0 = b.x;
    let r = &mut b;
    r.x += r.v;
    r.v *= 2.0;
    x0 * b.x + b.v + x[2]
}

/// A copy of an array element through `&mut` to the array.
#[derive_frule]
fn copy_then_ref_mut_array(x: &[f64]) -> f64 {
    let mut a = [x[0], x[1]];
    let old = a;
    let r = &mut a;
    r[0] += r[1];
    old[0] * a[0] + old[1] + x[2]
}

/// A tuple copied, then its field assigned.
#[derive_frule]
fn copy_tuple_then_field(x: &[f64]) -> f64 {
    let mut t = (x[0], x[1]);
    let u = t;
    t.0 += 1.0;
    t.1 *= x[2];
    u.0 * t.0 + u.1 * t.1
}

/// An array passed by value to a helper that mutates its copy.
#[derive_frule]
fn normalise_copy(mut a: [f64; 3]) -> f64 {
    let n = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    for i in 0..3 {
        a[i] /= n;
    }
    a[0] + 2.0 * a[1]
}

#[derive_frule]
fn by_value_array_arg(x: &[f64]) -> f64 {
    let a = [x[0], x[1], x[2]];
    let n = normalise_copy(a);
    n * a[0] + a[1]
}

/// A `&mut self` method through an element of an array of structs.
#[derive_frule]
fn push_into_array_element(x: &[f64]) -> f64 {
    let mut rs = [Running { mean: 0.0, n: 0.0 }; 2];
    let first = rs[0];
    for (k, &v) in x.iter().enumerate() {
        rs[k % 2].push(v * v);
    }
    rs[0].mean * rs[1].mean + first.mean + x[0]
}

#[test]
fn batch3_copies() {
    check_modes!(copy_then_bump {}, copy_then_bump, pts());
    check_modes!(copy_struct_then_push {}, copy_struct_then_push, pts());
    check_modes!(copy_array_then_update {}, copy_array_then_update, pts());
    check_modes!(jacobi_copy {}, jacobi_copy, pts());
    check_modes!(copy_then_swap {}, copy_then_swap, pts());
    check_modes!(copy_field_then_ref_mut {}, copy_field_then_ref_mut, pts());
    check_modes!(copy_then_ref_mut_array {}, copy_then_ref_mut_array, pts());
    check_modes!(copy_tuple_then_field {}, copy_tuple_then_field, pts());
    check_modes!(by_value_array_arg {}, by_value_array_arg, pts());
    check_modes!(push_into_array_element {}, push_into_array_element, pts());
}

// ---------------------------------------------------------------------------------------
// Guards: adaptors are lazy: a closure with state runs only for the items pulled, in
// the order they are pulled

/// `map` then `take`: the map's closure runs twice.
#[derive_frule]
fn map_then_take(x: &[f64]) -> f64 {
    let mut calls = 0.0;
    let s: f64 = x
        .iter()
        .map(|&v| {
            calls += 1.0;
            v * v * calls
        })
        .take(2)
        .sum();
    s * calls
}

/// `any` stops at the first match.
#[derive_frule]
fn any_short_circuits(x: &[f64]) -> f64 {
    let mut checked = 0.0;
    let mut acc = 0.0;
    let found = x.iter().any(|&v| {
        checked += 1.0;
        acc += v * v;
        v > 1.0
    });
    if found {
        acc * checked
    } else {
        acc
    }
}

/// `position` stops at the first match.
#[derive_frule]
fn position_short_circuits(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    let k = x.iter().position(|&v| {
        acc += v.exp();
        v < 0.0
    });
    acc + k.unwrap_or(0) as f64
}

/// `find` stops at the first match.
#[derive_frule]
fn find_short_circuits(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    let f = x.iter().find(|&&v| {
        acc += v * 2.0;
        v > 1.0
    });
    acc * f.copied().unwrap_or(1.0)
}

/// `take_while` stops at the first failure.
#[derive_frule]
fn take_while_state(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    let s: f64 = x
        .iter()
        .map(|&v| {
            acc += v;
            acc
        })
        .take_while(|&a| a < 1.0)
        .sum();
    s + acc
}

/// `map` then `rev`: the closure sees the items last to first.
#[derive_frule]
fn map_then_rev(x: &[f64]) -> f64 {
    let mut c = 0.0;
    let ys: Vec<f64> = x
        .iter()
        .map(|&v| {
            c = 0.5 * c + v;
            c
        })
        .rev()
        .collect();
    ys[0] * 3.0 + ys[1] * 2.0 + ys[4]
}

/// `all` stops at the first failure.
#[derive_frule]
fn all_short_circuits(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    let ok = x.iter().all(|&v| {
        acc += v.sin();
        v > -0.5
    });
    if ok {
        acc
    } else {
        acc * 2.0
    }
}

#[test]
fn batch4_laziness() {
    check_modes!(map_then_take {}, map_then_take, pts());
    check_modes!(any_short_circuits {}, any_short_circuits, pts());
    check_modes!(position_short_circuits {}, position_short_circuits, pts());
    check_modes!(find_short_circuits {}, find_short_circuits, pts());
    check_modes!(take_while_state {}, take_while_state, pts());
    check_modes!(map_then_rev {}, map_then_rev, pts());
    check_modes!(all_short_circuits {}, all_short_circuits, pts());
}

// ---------------------------------------------------------------------------------------
// Guards: closures reached by other routes

/// Applies `f` to each element (a user's higher-order helper).
#[derive_frule]
fn apply_each<F: FnMut(f64) -> f64>(x: &[f64], mut f: F) -> f64 {
    let mut s = 0.0;
    for &v in x {
        s += f(v);
    }
    s
}

/// A closure with state passed by `&mut` to a helper inside a loop.
#[derive_frule]
fn closure_to_helper_in_loop(x: &[f64]) -> f64 {
    let mut total = 0.0;
    let mut acc = 0.0;
    for _ in 0..2 {
        acc += apply_each(x, |v| {
            total += v;
            v * total
        });
    }
    acc + total
}

/// A labelled block breaking with a value inside a loop.
#[derive_frule]
fn labelled_block_value(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for &v in x {
        let w = 'b: {
            if v < 0.0 {
                acc += 1.0;
                break 'b -v;
            }
            v * v
        };
        acc += w;
    }
    acc
}

/// Nested loops, the inner one a chain whose closure updates the outer loop's state.
#[derive_frule]
fn nested_chain_updates_outer(x: &[f64]) -> f64 {
    let mut scale = 1.0;
    let mut acc = 0.0;
    for _ in 0..2 {
        acc += x
            .iter()
            .map(|&v| {
                scale *= 0.9;
                v * scale
            })
            .sum::<f64>();
    }
    acc + scale
}

/// A closure redefined in each iteration, capturing the loop's state.
#[derive_frule]
fn closure_redefined_in_loop(x: &[f64]) -> f64 {
    let mut y = x[0];
    for &v in &x[1..] {
        let mut step = |h: f64| {
            y += h * (v - y);
        };
        step(0.5);
        step(0.25);
    }
    y
}

/// `while` whose condition and body both advance a cursor closure.
#[derive_frule]
fn while_cursor_both(x: &[f64]) -> f64 {
    let mut i = 0;
    let mut next = || {
        i += 1;
        x.get(i - 1).copied()
    };
    let mut acc = 0.0;
    while let Some(v) = next() {
        acc += v * v;
        if let Some(w) = next() {
            acc -= w * 0.5;
        }
    }
    acc
}

#[test]
fn batch5_closures() {
    check_modes!(
        closure_to_helper_in_loop {},
        closure_to_helper_in_loop,
        pts()
    );
    check_modes!(labelled_block_value {}, labelled_block_value, pts());
    check_modes!(
        nested_chain_updates_outer {},
        nested_chain_updates_outer,
        pts()
    );
    check_modes!(
        closure_redefined_in_loop {},
        closure_redefined_in_loop,
        pts()
    );
    check_modes!(while_cursor_both {}, while_cursor_both, pts());
}

// ---------------------------------------------------------------------------------------
// Found: a closure passed to a function that writes a capture other than by assigning the
// name (a field, `&mut` to it, a method) wrote into a copy: a silent wrong primal (fields,
// `inc(&mut calls)`, `mem::swap`, `seen.push(..)`) or a type error in the expansion

// Not yet (no wrong value): a `&mut self` method of a user type on a capture of a closure passed to a function: a type error in the expansion (`Dual<&mut Running, ..>` has no `push`), no wrong value.
#[cfg(any())]
#[derive_frule]
fn helper_closure_method_mut(x: &[f64]) -> f64 {
    let mut r = Running { mean: 0.0, n: 0.0 };
    let s = apply_each(x, |v| {
        r.push(v * v);
        r.mean
    });
    s + r.mean
}

#[derive_frule]
fn helper_closure_ref_mut_call(x: &[f64]) -> f64 {
    let mut total = 0.0;
    let s = apply_each(x, |v| {
        bump(&mut total, v);
        v * 2.0
    });
    s + total
}

#[derive_frule]
fn helper_closure_vec_push(x: &[f64]) -> f64 {
    let mut kept = Vec::new();
    let s = apply_each(x, |v| {
        kept.push(v * v);
        v
    });
    s + kept.iter().sum::<f64>() * kept.len() as f64
}

#[derive_frule]
fn helper_closure_swap(x: &[f64]) -> f64 {
    let mut a = 1.0;
    let mut b = 0.0;
    let s = apply_each(x, |v| {
        b += v * a;
        std::mem::swap(&mut a, &mut b);
        v
    });
    s + a * 3.0 + b
}

/// Before: `body.x += ..` read `(*body)`, a copy, and wrote into it (primal 0.75 for 1.5).
#[derive_frule]
fn helper_closure_field(x: &[f64]) -> f64 {
    let mut body = Body { x: 0.0, v: 1.0 };
    let s = apply_each(x, |v| {
        body.x += v * body.v;
        body.v *= 0.5;
        v
    });
    s + body.x
}

/// Before: as `helper_closure_field`, through a tuple field.
#[derive_frule]
fn helper_closure_tuple_field(x: &[f64]) -> f64 {
    let mut t = (0.0, 1.0);
    let s = apply_each(x, |v| {
        t.0 += v * t.1;
        t.1 *= 0.5;
        v
    });
    s + t.0
}

#[derive_frule]
fn helper_closure_index_of_index(x: &[f64]) -> f64 {
    let mut m = [[0.0; 2]; 2];
    let mut k = 0;
    let s = apply_each(x, |v| {
        m[k % 2][(k / 2) % 2] += v * v;
        k += 1;
        v
    });
    s + m[0][0] * m[1][1] + m[0][1] - m[1][0]
}

// Not yet (no wrong value): a `&mut` local captured by a closure passed to a function: a type error in the expansion (`&mut {float}: Clone`), no wrong value.
#[cfg(any())]
#[derive_frule]
fn helper_closure_ref_mut_local(x: &[f64]) -> f64 {
    let mut total = 0.0;
    let r = &mut total;
    let s = apply_each(x, |v| {
        *r += v * v;
        v
    });
    s + total
}

#[test]
fn closure_passed_to_a_function_writes_active_captures() {
    // check_modes!(helper_closure_method_mut {}, helper_closure_method_mut, pts());
    check_modes!(
        helper_closure_ref_mut_call {},
        helper_closure_ref_mut_call,
        pts()
    );
    check_modes!(helper_closure_vec_push {}, helper_closure_vec_push, pts());
    check_modes!(helper_closure_swap {}, helper_closure_swap, pts());
    check_modes!(helper_closure_field {}, helper_closure_field, pts());
    check_modes!(
        helper_closure_tuple_field {},
        helper_closure_tuple_field,
        pts()
    );
    check_modes!(
        helper_closure_index_of_index {},
        helper_closure_index_of_index,
        pts()
    );
    // check_modes!(helper_closure_ref_mut_local {}, helper_closure_ref_mut_local, pts());
}

// The same with inactive state (a count), where the copy type-checked: before, a wrong primal

/// Before: `seen` was captured by value; the pushes went into a copy (primal 0).
#[derive_frule]
fn helper_closure_push_count(x: &[f64]) -> f64 {
    let mut seen: Vec<usize> = Vec::new();
    let s = apply_each(x, |v| {
        seen.push(1);
        v * v
    });
    s * seen.len() as f64
}

fn inc(n: &mut usize) {
    *n += 1;
}

/// Before: `&mut calls` borrowed a copy (primal 0).
#[derive_frule]
fn helper_closure_inc_count(x: &[f64]) -> f64 {
    let mut calls = 0;
    let s = apply_each(x, |v| {
        inc(&mut calls);
        v * v
    });
    s * calls as f64
}

/// Before: the swaps went into copies (primal half the plain one's).
#[derive_frule]
fn helper_closure_swap_ints(x: &[f64]) -> f64 {
    let mut a = 1usize;
    let mut b = 2usize;
    let s = apply_each(x, |v| {
        std::mem::swap(&mut a, &mut b);
        v * v
    });
    s * a as f64
}

/// A guard: the same closure called in a loop (inlined there) was right.
#[derive_frule]
fn loop_push_count(x: &[f64]) -> f64 {
    let mut seen: Vec<usize> = Vec::new();
    let mut s = 0.0;
    for &v in x {
        let mut f = |w: f64| {
            seen.push(1);
            w * w
        };
        s += f(v);
    }
    s * seen.len() as f64
}

#[test]
fn closure_passed_to_a_function_writes_a_count() {
    check_modes!(
        helper_closure_push_count {},
        helper_closure_push_count,
        pts()
    );
    check_modes!(helper_closure_inc_count {}, helper_closure_inc_count, pts());
    check_modes!(helper_closure_swap_ints {}, helper_closure_swap_ints, pts());
    check_modes!(loop_push_count {}, loop_push_count, pts());
}

/// A guard: a closure passed to a function that only reads captures through methods
/// (`w.iter()` of a `let` without `mut`, `x.len()` of a parameter, `c.sin()` of a float).
#[derive_frule]
fn helper_closure_reads_by_methods(x: &[f64]) -> f64 {
    let w = vec![0.5, 1.5];
    let c = x[0] * 2.0;
    apply_each(x, |v| {
        v * w.iter().sum::<f64>() + x.len() as f64 * c.sin() + x.iter().sum::<f64>()
    })
}

#[test]
fn closure_passed_to_a_function_reads_by_methods() {
    check_modes!(
        helper_closure_reads_by_methods {},
        helper_closure_reads_by_methods,
        pts()
    );
}

/// A guard: captures bound `mut` that the closure only reads through methods
/// (`scale.exp()`, `w.iter()`) stay reads (fuzz seed 35: lent `&mut`, a `Fn` closure
/// given `v0.hypot(..)` did not compile).
#[derive_frule]
fn helper_closure_reads_mut_by_methods(x: &[f64]) -> f64 {
    let mut scale = x[0];
    scale *= 2.0;
    let mut w = Vec::new();
    w.push(x[1]);
    w.push(0.5);
    let s = apply_each(x, |v| v * scale.exp() + w.iter().sum::<f64>() * v.sin());
    s + scale * w[0]
}

#[test]
fn closure_passed_to_a_function_reads_mut_by_methods() {
    check_modes!(
        helper_closure_reads_mut_by_methods {},
        helper_closure_reads_mut_by_methods,
        pts()
    );
}

/// A mutating method whose value is used (`stack.pop()` in a `let`) on a capture of a
/// closure passed to a function: it popped a copy (primal 5.25 for 6.3) until the
/// registry's writing methods lent their receiver wherever their value goes (lending
/// every receiver bound `mut` would turn `Fn` closures reading `v.hypot(..)` into `FnMut`
/// ones: fuzz seed 35).
#[derive_frule]
fn helper_closure_pop_value(x: &[f64]) -> f64 {
    let mut stack: Vec<usize> = vec![1, 2, 3, 4, 5, 6, 7];
    apply_each(x, |v| {
        let k = stack.pop().unwrap_or(0);
        v * k as f64
    })
}

#[test]
fn closure_passed_to_a_function_pops_a_capture() {
    check_modes!(helper_closure_pop_value {}, helper_closure_pop_value, pts());
}
