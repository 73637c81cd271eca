//! Ordinary Rust syntax through `#[derive_frule]`, one construct per function, each written
//! the way users write it: `let .. else`, `if let .. else if let`, labelled breaks with a
//! value, slice, `@`, nested-or and range patterns, `matches!`, casts between numeric
//! types, tuple and unit structs, items and `use` in a body, shadowing, closures in `match`
//! arms, `return` and `?` in closures, arrays of arrays, struct update syntax, attributes
//! on statements and expressions, `const { }` blocks, lifetimes and `where` clauses, raw
//! identifiers and macros in expression position. Each derivative is checked against
//! central differences in every mode (`check_modes!`, or `check_first_order!` where the
//! function is piecewise linear), primals bit for bit.
// The constructs are the point: clippy would rewrite many of them.
#![allow(
    clippy::needless_range_loop,
    clippy::unnecessary_cast,
    clippy::let_and_return,
    clippy::redundant_closure_call,
    clippy::match_like_matches_macro,
    clippy::useless_vec,
    clippy::manual_unwrap_or,
    clippy::match_single_binding,
    clippy::never_loop,
    clippy::nonminimal_bool,
    clippy::manual_repeat_n,
    clippy::if_same_then_else,
    clippy::redundant_slicing,
    clippy::manual_saturating_arithmetic,
    clippy::assign_op_pattern,
    clippy::deref_addrof,
    clippy::clone_on_copy,
    clippy::reserve_after_initialization
)]

mod common;

use fwdad::prelude::*;
use fwdad::Const;
use num_traits::Float;

// ---------------------------------------------------------------------------------------
// Control flow.

/// `let .. else` on the first element, then on a slice pattern.
#[derive_frule]
fn head_tail_energy(x: &[f64]) -> f64 {
    let Some(&first) = x.first() else {
        return 0.0;
    };
    let [.., last] = x else {
        return first;
    };
    first * first.sin() + last.exp()
}

#[test]
fn let_else() {
    check_modes!(head_tail_energy {}, head_tail_energy, [0.7, 1.1, -0.4]);
}

/// `if let .. else if let .. else`, over `get` and a slice pattern.
#[derive_frule]
fn chained_if_let(x: &[f64]) -> f64 {
    if let Some(v) = x.get(5) {
        v.sqrt()
    } else if let [a, b, ..] = x {
        a * b.cos()
    } else {
        1.0
    }
}

#[test]
fn if_let_else_if_let() {
    check_modes!(chained_if_let {}, chained_if_let, [0.7, 1.1, -0.4]);
}

/// A search that leaves two nested loops with `break 'outer value`.
#[derive_frule]
fn first_above(x: &[f64]) -> f64 {
    let threshold = 1.0;
    let found = 'outer: loop {
        for i in 0..x.len() {
            for j in i + 1..x.len() {
                let s = x[i] * x[j];
                if s > threshold {
                    break 'outer s.ln();
                }
            }
        }
        break x[0];
    };
    found * x[1]
}

#[test]
fn labelled_break_value() {
    check_modes!(first_above {}, first_above, [0.7, 1.9, 1.2]);
    check_modes!(first_above {}, first_above, [0.3, 0.4, 0.5]);
}

/// A labelled block left early with a value.
#[derive_frule]
fn labelled_block(x: &[f64]) -> f64 {
    let r = 'done: {
        if x[0] < 0.0 {
            break 'done -x[0];
        }
        x[0] * x[1]
    };
    r.powi(2)
}

#[test]
fn labelled_block_value() {
    check_modes!(labelled_block {}, labelled_block, [0.7, 1.9]);
    check_modes!(labelled_block {}, labelled_block, [-0.7, 1.9]);
}

/// `loop` whose `break` value is chosen in an `if`.
#[derive_frule]
fn newton_sqrt(x: &[f64]) -> f64 {
    let a = x[0];
    let mut g = a;
    let mut k = 0;
    loop {
        let next = 0.5 * (g + a / g);
        k += 1;
        if (next - g).abs() < 1e-15 || k > 50 {
            break if k > 50 { g } else { next };
        }
        g = next;
    }
}

#[test]
fn loop_break_value_in_if() {
    // d/da sqrt(a) = 1 / (2 sqrt(a)), whatever the iteration.
    let x = [2.5];
    let (v, g) = gradient(newton_sqrt {}, &x);
    assert_eq!(v.to_bits(), newton_sqrt(&x).to_bits());
    common::modes::assert_close(g[0], 0.5 / 2.5f64.sqrt(), 1e-12, "d sqrt");
    check_modes!(newton_sqrt {}, newton_sqrt, x);
}

// ---------------------------------------------------------------------------------------
// Patterns.

/// Slice patterns `[first, .., last]` in a `match`.
#[derive_frule]
fn ends(x: &[f64]) -> f64 {
    match x {
        [] => 0.0,
        [only] => only.sin(),
        [first, .., last] => first * last + first.exp(),
    }
}

#[test]
fn slice_patterns() {
    check_modes!(ends {}, ends, [0.7, 1.9, 1.2]);
    check_modes!(ends {}, ends, [0.7]);
}

/// `@` bindings on an integer range and on an `Option`.
#[derive_frule]
fn at_bindings(x: &[f64]) -> f64 {
    let n = x.len();
    let w = match n {
        k @ 1..=3 => k as f64,
        k => 1.0 / k as f64,
    };
    let first = match x.first() {
        found @ Some(_) => *found.unwrap(),
        None => 0.0,
    };
    w * first * x[n - 1]
}

#[test]
fn at_patterns() {
    check_modes!(at_bindings {}, at_bindings, [0.7, 1.9, 1.2]);
    check_modes!(at_bindings {}, at_bindings, [0.7, 1.9, 1.2, 0.4, 0.3]);
}

/// Nested or-patterns on a pair of indices (a stencil's weights).
#[derive_frule]
fn stencil(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        for j in 0..3 {
            let w = match (i, j) {
                (0 | 2, 0 | 2) => 0.25,
                (1, 0 | 2) | (0 | 2, 1) => 0.5,
                _ => 1.0,
            };
            s += w * x[i] * x[j];
        }
    }
    s
}

#[test]
fn nested_or_patterns() {
    check_modes!(stencil {}, stencil, [0.7, 1.9, 1.2]);
}

#[derive(Differentiable, Clone, Copy, PartialEq, Debug)]
enum Loss {
    Squared,
    Absolute,
    Huber,
}

/// `matches!` on an enum of losses.
#[derive_frule]
fn loss(x: &[f64], kind: Loss) -> f64 {
    let r = x[0] - x[1];
    if matches!(kind, Loss::Squared | Loss::Huber) && r.abs() < 1.0 {
        0.5 * r * r
    } else if matches!(kind, Loss::Absolute) {
        r.abs()
    } else {
        r.abs() - 0.5
    }
}

#[test]
fn matches_macro() {
    for kind in [Loss::Squared, Loss::Absolute, Loss::Huber] {
        let x = [0.7, 0.3];
        check_first_order!(
            bind(loss {}, (Wrt, Const(kind))),
            |x: &[f64]| loss(x, kind),
            x
        );
        let x = [2.7, 0.3];
        check_first_order!(
            bind(loss {}, (Wrt, Const(kind))),
            |x: &[f64]| loss(x, kind),
            x
        );
    }
}

/// Range patterns on an integer and on a float (a piecewise cubic).
#[derive_frule]
fn piecewise(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, &v) in x.iter().enumerate() {
        let w = match i {
            0 => 1.0,
            1..=2 => 2.0,
            3.. => 0.5,
        };
        s += w * match v {
            ..=0.0 => v,
            0.0..=1.0 => v * v * v + v,
            _ => v.ln() + 2.0,
        };
    }
    s
}

#[test]
fn range_patterns() {
    check_modes!(piecewise {}, piecewise, [-0.7, 0.4, 1.2, 3.0]);
}

// ---------------------------------------------------------------------------------------
// Casts.

/// Casts between numeric types: through `f32` (which rounds), and through integers
/// (which have no derivative), and integers to floats as weights.
#[derive_frule]
fn casts(x: &[f64]) -> f64 {
    let single = x[0] as f32;
    let back = single as f64;
    let whole = x[1] as i32;
    let bucket = x[1] as u8 as usize;
    let n = x.len() as u32;
    let big = n as i64 as i128;
    let w = whole as f64 + bucket as f32 as f64 + big as f64 + (n as u16) as f64;
    let t = (x[2] as f32).sin() as f64;
    back * w + t + (x[2] as f64) * (7u8 as f64) + (-3i8 as f32) as f64 * x[0]
}

#[test]
fn numeric_casts() {
    let x = [0.7, 2.3, 1.2];
    let plain = |x: &[f64]| casts(x);
    // Through `f32`: d/dx0 = w, d/dx2 = cos(x2 as f32) + 7, each in f32 where the code is.
    let w = 2.0 + 2.0 + 3.0 + 3.0;
    let want = vec![w - 3.0, 0.0, (1.2f32).cos() as f64 + 7.0];
    check_first_order!(casts {}, plain, x, want);
}

// ---------------------------------------------------------------------------------------
// Items in a body, shadowing, structs.

/// A tuple struct (a unit of measure) and a unit struct with a method, declared at module
/// level.
#[derive(Differentiable, Clone, Copy, Debug)]
struct Metres(f64);

#[derive(Clone, Copy, Debug)]
struct Gravity;

impl Gravity {
    fn g(&self) -> f64 {
        9.81
    }
}

#[derive_frule]
fn potential(x: &[f64]) -> f64 {
    let h = Metres(x[0]);
    let m = x[1];
    let field = Gravity;
    m * field.g() * h.0
}

#[test]
fn tuple_and_unit_structs() {
    check_modes!(potential {}, potential, [0.7, 1.9]);
}

/// `use`, `const`, `static`, a local `fn` and an `impl` inside the body.
#[derive_frule]
fn body_items(x: &[f64]) -> f64 {
    use std::f64::consts::PI;
    const SCALE: f64 = 2.0;
    static OFFSETS: [f64; 2] = [0.5, 1.5];
    struct Spring {
        k: f64,
    }
    impl Spring {
        fn energy(&self, d: f64) -> f64 {
            0.5 * self.k * d * d
        }
    }
    fn sq(v: f64) -> f64 {
        v * v
    }
    let s = Spring { k: SCALE * x[1] };
    s.energy(x[0] - OFFSETS[0]) + sq(x[0]) * (PI * x[1]).sin() + OFFSETS[1]
}

#[test]
fn items_in_body() {
    check_modes!(body_items {}, body_items, [0.7, 1.9]);
}

/// Shadowing in nested blocks.
#[derive_frule]
fn shadowing(x: &[f64]) -> f64 {
    let y = x[0];
    let z = {
        let y = y * 2.0;
        {
            let y = y.sin();
            y + 1.0
        }
    };
    let y = y + z;
    let y = y * x[1];
    y
}

#[test]
fn shadowing_in_blocks() {
    check_modes!(shadowing {}, shadowing, [0.7, 1.9]);
}

/// Struct update syntax from `Default::default()`, with `impl Default` written by hand.
#[derive(Differentiable, Clone, Copy, Debug)]
struct Params {
    stiffness: f64,
    damping: f64,
    mass: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            stiffness: 1.0,
            damping: 0.1,
            mass: 2.0,
        }
    }
}

#[derive_frule]
fn settled_energy(x: &[f64]) -> f64 {
    let p = Params {
        stiffness: x[0],
        ..Default::default()
    };
    let q = Params { mass: x[1], ..p };
    0.5 * q.stiffness * q.mass + q.damping * x[1]
}

#[test]
fn struct_update_syntax() {
    check_modes!(settled_energy {}, settled_energy, [0.7, 1.9]);
}

/// A 3×3 matrix as an array of arrays, filled by index.
#[derive_frule]
fn quadratic_form(x: &[f64]) -> f64 {
    let mut a = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            a[i][j] = x[i] * x[j] + if i == j { 1.0 } else { 0.0 };
        }
    }
    let mut s = 0.0;
    for (i, row) in a.iter().enumerate() {
        for (j, aij) in row.iter().enumerate() {
            s += x[i] * aij * x[j];
        }
    }
    s
}

#[test]
fn arrays_of_arrays() {
    check_modes!(quadratic_form {}, quadratic_form, [0.7, 1.9, -0.3]);
}

// ---------------------------------------------------------------------------------------
// Closures.

/// A `match` inside one closure (what the error for a closure chosen by a `match` says to
/// write: `tests/ui/derive_frule/closure-chosen-by-match.rs`).
#[derive_frule]
fn activation(x: &[f64], kind: usize) -> f64 {
    let f = |v: f64| match kind {
        0 => v.tanh(),
        1 => v.max(0.0),
        _ => v / (1.0 + (-v).exp()),
    };
    x.iter().map(|&v| f(v)).sum()
}

#[test]
fn closures_in_match_arms() {
    for kind in 0..3 {
        let x = [0.7, -0.4, 1.3];
        check_first_order!(
            bind(activation {}, (Wrt, kind)),
            |x: &[f64]| activation(x, kind),
            x
        );
    }
}

/// `return` inside a closure, and `?` on `Option` in a closure returning `Option`.
#[derive_frule]
fn closure_returns(x: &[f64]) -> f64 {
    let safe_log = |v: f64| {
        if v <= 0.0 {
            return 0.0;
        }
        v.ln()
    };
    let ratio = |i: usize, j: usize| -> Option<f64> {
        let a = x.get(i)?;
        let b = x.get(j)?;
        Some(a / b)
    };
    safe_log(x[0]) + ratio(0, 1).unwrap_or(1.0) + ratio(0, 9).unwrap_or(x[1])
}

#[test]
fn return_and_try_in_closures() {
    check_modes!(closure_returns {}, closure_returns, [0.7, 1.9]);
}

// ---------------------------------------------------------------------------------------
// Attributes, `const` blocks, signatures, raw identifiers.

/// Attributes on statements and expressions.
#[derive_frule]
#[inline]
/// A doc comment after the attribute.
fn attributed(x: &[f64]) -> f64 {
    #[allow(unused_mut)]
    let mut a = x[0] * 2.0;
    #[allow(clippy::excessive_precision)]
    let b = 0.333333333333333333333 * x[1];
    #[cfg(not(debug_assertions))]
    let c = a.sin();
    #[cfg(debug_assertions)]
    let c = a.sin();
    #[allow(unused_parens)]
    let d = (a * b);
    a += 1.0;
    a + c + d
}

#[test]
fn attributes_on_statements() {
    check_modes!(attributed {}, attributed, [0.7, 1.9]);
}

/// A `const { }` block as a weight.
#[derive_frule]
fn const_block(x: &[f64]) -> f64 {
    let w = const { 1.0 / 3.0 };
    let n = const { 2usize.pow(3) };
    w * x[0] * x[1] + n as f64 * x[0]
}

#[test]
fn const_blocks() {
    check_modes!(const_block {}, const_block, [0.7, 1.9]);
}

/// Lifetimes and a `where` clause on a generic function.
#[derive_frule]
fn weighted<'a, 'b, T>(x: &'a [T], w: &'b [T]) -> T
where
    T: Float + 'a + 'b,
{
    let mut s = T::zero();
    for (a, b) in x.iter().zip(w) {
        s = s + *a * *a * *b;
    }
    s
}

#[test]
fn lifetimes_and_where_clauses() {
    let w = [0.5, 2.0, 1.5];
    check_modes!(
        bind(weighted {}, (Wrt, &w[..])),
        |x: &[f64]| weighted(x, &w),
        [0.7, 1.9, -0.3]
    );
}

/// Raw identifiers as names.
#[derive_frule]
fn r#raw(x: &[f64]) -> f64 {
    let r#type = x[0];
    let r#match = x[1] * 2.0;
    r#type * r#match.sin()
}

#[test]
fn raw_identifiers() {
    check_modes!(r#raw {}, r#raw, [0.7, 1.9]);
}

// ---------------------------------------------------------------------------------------
// Macros in expression position.

/// `vec!`, `assert!`, `debug_assert!`, `assert_eq!`, `format!`, `write!`, `println!`
/// (behind a flag), `dbg!` of an integer, `unreachable!` and `todo!` on paths not taken.
#[derive_frule]
fn macros(x: &[f64], verbose: bool) -> f64 {
    use std::fmt::Write;
    assert!(x.len() >= 2, "need two values, got {}", x.len());
    debug_assert!(x[0].is_finite());
    assert_eq!(x.len() % 2, 0);
    let v = vec![x[0], x[1], x[0] * x[1]];
    let filled = vec![0.5; 2];
    let mut log = String::new();
    write!(log, "{:.3}", v[2]).unwrap();
    writeln!(log, " from {} values", v.len()).unwrap();
    let label = format!("n = {}", v.len());
    if verbose {
        println!("{label}: {log}");
    }
    assert!(log.ends_with("values\n"), "{log}");
    let n = dbg!(v.len());
    let s = match n {
        3 => v[2] + filled[1] * v[0],
        0 => unreachable!("built with three"),
        _ => todo!(),
    };
    s * s
}

#[test]
fn macros_in_expressions() {
    check_modes!(
        bind(macros {}, (Wrt, false)),
        |x: &[f64]| macros(x, false),
        [0.7, 1.9]
    );
}

// ---------------------------------------------------------------------------------------
// More control flow and patterns.

/// `while let` over a stack, `continue 'outer`, and a `match` with guards on a tuple.
#[derive_frule]
fn stack_walk(x: &[f64]) -> f64 {
    let mut stack: Vec<f64> = x.to_vec();
    let mut s = 0.0;
    while let Some(v) = stack.pop() {
        s += match (v > 1.0, v.abs() < 0.5) {
            (true, _) => v.ln(),
            (false, true) if v > 0.0 => v * v,
            (false, _) => v,
        };
    }
    'outer: for i in 0..x.len() {
        for j in 0..x.len() {
            if i == j {
                continue 'outer;
            }
            s += x[i] * x[j];
        }
    }
    s
}

#[test]
fn while_let_and_labelled_continue() {
    check_modes!(stack_walk {}, stack_walk, [0.3, 1.9, -0.7]);
}

/// A tuple chosen by an `if`, destructured; a tuple-struct pattern in `let`; an array
/// pattern of three reads.
#[derive_frule]
fn ordered(x: &[f64]) -> f64 {
    let (lo, hi) = if x[0] < x[1] {
        (x[0], x[1])
    } else {
        (x[1], x[0])
    };
    let m = Metres(hi - lo);
    let Metres(span) = m;
    let [a, b, c] = [x[0], x[1], x[2]];
    span * (a + b * c)
}

#[test]
fn tuple_from_if_and_tuple_struct_pattern() {
    check_modes!(ordered {}, ordered, [0.3, 1.9, -0.7]);
    check_modes!(ordered {}, ordered, [2.3, 1.9, -0.7]);
}

/// `bool`, `char` and byte casts as weights, integer constants, float constants.
#[derive_frule]
fn odd_casts(x: &[f64]) -> f64 {
    let positive = (x[0] > 0.0) as i32 as f64;
    let letter = 'a' as u32 as f64 / 97.0;
    let byte = b'b' as f64 / 98.0;
    let big = i32::MAX as f64 / 2147483647.0;
    let tiny = f64::EPSILON * 0.0 + f64::MIN_POSITIVE * 0.0;
    positive * x[0] * letter * byte * big + tiny + std::f64::consts::E * x[1]
}

#[test]
fn casts_of_bool_and_char() {
    check_modes!(odd_casts {}, odd_casts, [0.3, 1.9]);
}

/// Iterator idioms: `find`, `fold` with `f64::max`, `rev().enumerate()`, `step_by`,
/// `chunks_exact`, a collected `Vec` summed with a turbofish.
#[derive_frule]
fn iterator_idioms(x: &[f64]) -> f64 {
    let first_big = x.iter().find(|&&v| v > 1.0).copied().unwrap_or(0.0);
    let peak = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut weighted = 0.0;
    for (i, v) in x.iter().rev().enumerate() {
        weighted += (i + 1) as f64 * v;
    }
    let even: f64 = x.iter().step_by(2).sum();
    let mut pairs = 0.0;
    for c in x.chunks_exact(2) {
        pairs += c[0] * c[1];
    }
    let squares: Vec<f64> = x.iter().map(|v| v * v).collect();
    first_big + peak + weighted + even + pairs + squares.iter().sum::<f64>()
}

#[test]
fn iterator_idioms_in_every_mode() {
    check_first_order!(iterator_idioms {}, iterator_idioms, [0.3, 1.9, -0.7, 1.2]);
}

/// `mem::swap`, `copy_from_slice`, a `loop` with `match` arms that `continue` and
/// `break`.
#[derive_frule]
fn swaps(x: &[f64]) -> f64 {
    let mut a = x[0];
    let mut b = x[1];
    if a > b {
        std::mem::swap(&mut a, &mut b);
    }
    let mut buf = [0.0; 2];
    buf.copy_from_slice(&x[..2]);
    let mut k = 0;
    let mut s = 0.0;
    loop {
        k += 1;
        match k {
            1 | 3 => continue,
            2 => s += buf[0] * b,
            _ => break,
        }
    }
    s + a * buf[1]
}

#[test]
fn swap_copy_and_loop_match() {
    check_modes!(swaps {}, swaps, [0.3, 1.9]);
    check_modes!(swaps {}, swaps, [2.3, 1.9]);
}

/// Strings and `&str` beside the floats, `usize` arithmetic, `Option` combinators.
#[derive_frule]
fn labelled_sum(x: &[f64]) -> f64 {
    let name = "pressure";
    let unit = String::from("Pa");
    let n = name.len() + unit.len();
    let scale = usize::min(n, 4).pow(2) as f64;
    let last = x.last().copied().unwrap_or_default();
    let head = x.first().map(|v| v * 2.0).unwrap_or(1.0);
    scale * last + head
}

#[test]
fn strings_and_option_combinators() {
    check_modes!(labelled_sum {}, labelled_sum, [0.3, 1.9]);
}

/// A generic helper and a `const fn` inside the body, a closure with a written return
/// type, and a `move` closure.
#[derive_frule]
fn local_generics(x: &[f64]) -> f64 {
    const fn half(n: usize) -> usize {
        n / 2
    }
    fn sum_sq<T: Copy + std::ops::Mul<Output = T> + std::ops::Add<Output = T>>(a: T, b: T) -> T {
        a * a + b * b
    }
    let add = |a: f64, b: f64| -> f64 { a + b };
    let k = x[1];
    let scaled = move |v: f64| v * k;
    let h = half(x.len()) as f64;
    h * sum_sq(x[0], x[1]) + add(x[0], scaled(x[0]))
}

#[test]
fn local_generic_helpers() {
    check_modes!(local_generics {}, local_generics, [0.3, 1.9]);
}

/// A trait implemented for a unit struct at module level, called through the unit value.
#[derive_frule]
trait Prior {
    fn log_density(&self, v: f64) -> f64;
}

#[derive(Differentiable, Clone, Copy)]
struct Flat;

#[derive_frule]
impl Prior for Flat {
    fn log_density(&self, v: f64) -> f64 {
        -0.5 * v * v
    }
}

#[derive_frule]
fn posterior(x: &[f64]) -> f64 {
    let prior = Flat;
    x.iter().map(|&v| prior.log_density(v)).sum::<f64>() + x[0]
}

#[test]
fn unit_struct_with_trait() {
    check_modes!(posterior {}, posterior, [0.3, 1.9]);
}

/// `#[rustfmt::skip]` and `#[allow]` on statements and on an item in the body, a block
/// comment, a `#[cfg]`d statement.
#[derive_frule]
fn formatted(x: &[f64]) -> f64 {
    #[rustfmt::skip]
    let m = [[x[0], 0.0],
             [0.0,  x[1]]];
    #[allow(dead_code)]
    fn unused() {}
    /* a block comment */
    #[cfg(test)]
    let bonus = 1.0;
    #[cfg(not(test))]
    let bonus = 2.0;
    m[0][0] * m[1][1] + bonus * x[0]
}

#[test]
fn rustfmt_skip_and_cfg() {
    check_modes!(formatted {}, formatted, [0.3, 1.9]);
}

/// Returning early from inside nested loops and a `match`.
#[derive_frule]
fn early_exit(x: &[f64]) -> f64 {
    for i in 0..x.len() {
        for j in 0..i {
            match x[i] - x[j] {
                d if d > 2.0 => return d.sqrt(),
                d if d < -2.0 => return -d,
                _ => {}
            }
        }
    }
    x.iter().product()
}

#[test]
fn return_from_nested_loops() {
    check_modes!(early_exit {}, early_exit, [0.3, 1.9, 2.7]);
    check_modes!(early_exit {}, early_exit, [0.3, 2.9, 2.7]);
}

// ---------------------------------------------------------------------------------------
// Vectors, tuples, associated items.

/// A `Vec` edited in place: `iter_mut`, `extend_from_slice`, `insert`, `swap`,
/// `truncate`, `reverse`; sorted by a comparator; its maximum by `max_by`.
#[derive_frule]
fn edited(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.iter_mut().for_each(|a| *a *= 2.0);
    for a in v.iter_mut() {
        *a = a.sin() + *a;
    }
    v.extend_from_slice(x);
    v.insert(0, 1.5);
    v.swap(0, 1);
    v.truncate(5);
    v.reverse();
    let mut sorted = v.clone();
    sorted.sort_by(|a, b| b.partial_cmp(a).unwrap());
    let top = v.iter().copied().max_by(|a, b| a.total_cmp(b)).unwrap();
    sorted[1] * v[0] + top
}

#[test]
fn vec_edits() {
    check_first_order!(edited {}, edited, [0.3, 1.9, -0.7]);
}

/// Nested tuples, `sin_cos`, `mul_add`, `hypot`, `atan2`, a helper returning a pair.
#[derive_frule]
fn polar(x: &[f64]) -> (f64, f64) {
    (x[0].hypot(x[1]), x[1].atan2(x[0]))
}

#[derive_frule]
fn trig_tuples(x: &[f64]) -> f64 {
    let t = (x[0], (x[1], x[2]));
    let (s, c) = (t.1).0.sin_cos();
    let (r, theta) = polar(x);
    s.mul_add(c, r * theta) + t.0 * t.1 .1
}

#[test]
fn tuples_and_float_pairs() {
    check_modes!(trig_tuples {}, trig_tuples, [0.3, 1.9, -0.7]);
}

/// An associated constant and function of a local type, an enum's discriminant as an
/// index, `Self` in an `impl`.
#[derive(Differentiable, Clone, Copy, Debug)]
struct Spring {
    k: f64,
}

impl Spring {
    const REST: f64 = 0.5;
}

#[derive_frule]
impl Spring {
    fn new(k: f64) -> Self {
        Self { k }
    }
    fn energy(&self, d: f64) -> f64 {
        0.5 * self.k * (d - Self::REST).powi(2)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Axis {
    X = 0,
    Y = 1,
}

#[derive_frule]
fn springs(x: &[f64]) -> f64 {
    let s = Spring::new(x[0]);
    let i = Axis::Y as usize;
    let j = Axis::X as usize;
    s.energy(x[i]) + Spring::REST * x[j]
}

#[test]
fn associated_items_and_discriminants() {
    check_modes!(springs {}, springs, [0.3, 1.9]);
}

/// Chains: `windows` into two `map`s, `zip` with a `skip`, `filter` on `enumerate`, `map`
/// by a function path, `any`, `array::from_fn`, `flatten` over rows.
#[derive_frule]
fn chains(x: &[f64]) -> f64 {
    let curvature = x
        .windows(3)
        .map(|w| w[0] - 2.0 * w[1] + w[2])
        .map(|d| d * d)
        .sum::<f64>();
    let steps: f64 = x
        .iter()
        .zip(x.iter().skip(1))
        .map(|(a, b)| (b - a).powi(2))
        .sum();
    let even: f64 = x
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, v)| v)
        .sum();
    let growth: f64 = x.iter().cloned().map(f64::exp).sum();
    let negative = x.iter().any(|&v| v < 0.0);
    let cube: [f64; 3] = std::array::from_fn(|i| x[i] * x[i] * x[i]);
    let rows = [[x[0], x[1]], [x[2], x[3]]];
    let total: f64 = rows.iter().flatten().sum();
    curvature + steps + even + growth + if negative { 1.0 } else { 0.0 } + cube[2] + total
}

#[test]
fn chain_idioms() {
    check_modes!(chains {}, chains, [0.3, 1.9, -0.7, 1.2]);
}

/// Raw identifiers as parameters, a shadowed parameter, an early `return f64::NAN`,
/// a `match` binding the length.
#[derive_frule]
fn shadowed_param(r#in: &[f64], r#ref: f64) -> f64 {
    if r#in.is_empty() {
        return f64::NAN;
    }
    let r#in = r#in.to_vec();
    let scale = match r#in.len() {
        0 => 0.0,
        n => 1.0 / n as f64,
    };
    scale * r#in.iter().map(|v| (v - r#ref).powi(2)).sum::<f64>()
}

#[test]
fn raw_parameters_and_shadowed_parameter() {
    check_modes!(
        bind(shadowed_param {}, (Wrt, Const(0.25))),
        |x: &[f64]| shadowed_param(x, 0.25),
        [0.3, 1.9, -0.7]
    );
}

/// Raw identifiers carried by a loop (`r#acc` written in its body, `r#v` its element),
/// as code generated for keyword-named quantities writes them (once made the macro
/// panic: "\"r#acc\" is not a valid Ident").
#[derive_frule]
fn raw_loop_energy(x: &[f64]) -> f64 {
    let mut r#acc = 0.0;
    let mut r#k = 0;
    for r#v in x {
        r#acc += r#v * r#v.sin();
        r#k += 1;
    }
    while r#k > 0 {
        r#acc *= 0.9;
        r#k -= 1;
    }
    r#acc
}

#[test]
fn raw_identifiers_carried_by_loops() {
    check_modes!(raw_loop_energy {}, raw_loop_energy, [0.3, 1.9, -0.7]);
}

/// A raw identifier as the float type parameter (`r#T`), called from a function the
/// drivers take (once made the macro panic: "\"r#T\" is not a valid Ident").
#[derive_frule]
fn raw_type_param<r#T: Float>(x: r#T, r#k: r#T) -> r#T {
    let r#two = r#T::from(2.0).unwrap();
    (r#k * x).tanh() / r#k + x * x / r#two
}

#[derive_frule]
fn raw_type_param_sum(x: &[f64]) -> f64 {
    x.iter().map(|&v| raw_type_param(v, 0.8)).sum()
}

#[test]
fn raw_type_parameter() {
    check_modes!(raw_type_param_sum {}, raw_type_param_sum, [0.3, 1.9, -0.7]);
}

/// Integer helpers beside floats: `wrapping_add`, `checked_sub`, `saturating_sub`,
/// `pow`, `rem_euclid`, `abs_diff`.
#[derive_frule]
fn integer_helpers(x: &[f64]) -> f64 {
    let n = x.len();
    let a = n.wrapping_add(1);
    let b = n.checked_sub(5).unwrap_or(0);
    let c = n.saturating_sub(1);
    let d = (n as i64 - 7).rem_euclid(3);
    let e = n.abs_diff(10);
    let w = (a + b + c.pow(2) + e) as f64 + d as f64;
    w * x[0] + x[n - 1].powi(c as i32)
}

#[test]
fn integer_helpers_beside_floats() {
    check_modes!(integer_helpers {}, integer_helpers, [0.3, 1.9, -0.7]);
}

// ---------------------------------------------------------------------------------------
// Signatures and error handling.

#[derive(Differentiable, Clone, Copy, Debug)]
struct Reading {
    value: f64,
    weight: f64,
}

/// `let .. else` through `Some(Struct { .. })`, an `@` binding with a float range inside
/// a struct pattern, `matches!` with a guard, closure parameters as patterns.
#[derive_frule]
fn readings(x: &[f64]) -> f64 {
    let r = if x.len() > 1 {
        Some(Reading {
            value: x[0],
            weight: x[1],
        })
    } else {
        None
    };
    let Some(Reading { value, weight }) = r else {
        return 0.0;
    };
    let clipped = match (Reading { value, weight }) {
        Reading {
            value: v @ 0.0..=1.0,
            ..
        } => v,
        Reading { value, .. } => value.tanh(),
    };
    let positive = matches!(weight, w if w > 0.0);
    let pairs = [(x[0], x[1]), (x[1], x[0])];
    let cross: f64 = pairs.iter().map(|&(a, b)| a * b * b).sum();
    let sq = |[a, b]: [f64; 2]| a * a + b * b;
    clipped * weight + if positive { cross } else { 0.0 } + sq([x[0], x[1]])
}

#[test]
fn let_else_through_structs_and_closure_patterns() {
    check_modes!(readings {}, readings, [0.3, 1.9]);
    check_modes!(readings {}, readings, [1.3, -1.9]);
}

/// A `const` table of tuples and a glob `use` in the body, a float parameter shadowed by
/// a sum.
#[derive_frule]
fn tabulated(x: &[f64]) -> f64 {
    use std::f64::consts::*;
    const TABLE: [(f64, f64); 3] = [(0.5, 1.0), (1.5, 2.0), (2.5, 0.5)];
    let mut s = 0.0;
    for &(a, w) in TABLE.iter() {
        s += w * (x[0] - a).powi(2);
    }
    let x: f64 = x.iter().sum();
    s * FRAC_PI_2 + x * LN_2
}

#[test]
fn const_tables_and_glob_use() {
    check_modes!(tabulated {}, tabulated, [0.3, 1.9]);
}

/// `Result` with `?` and `Err(..)` returns, an `Option` return, `assert!` and
/// `debug_assert_eq!` on active values, `eprintln!` of a slice with inline arguments
/// behind a flag, `format!` of a float measured by its length.
#[derive_frule]
fn checked_log(v: f64) -> Result<f64, String> {
    if v <= 0.0 {
        return Err(format!("log of {v}"));
    }
    Ok(v.ln())
}

#[derive_frule]
fn maybe_ratio(a: f64, b: f64) -> Option<f64> {
    if b == 0.0 {
        None
    } else {
        Some(a / b)
    }
}

#[derive_frule]
fn fallible(x: &[f64]) -> Result<f64, String> {
    assert!(x[0] > 0.0, "x0 = {}", x[0]);
    debug_assert_eq!(x.len(), 2);
    if x.len() > 5 {
        eprintln!("{x:?}");
    }
    let digits = format!("{:.2}", x[1]).len() as f64;
    let l = checked_log(x[0])?;
    let r = maybe_ratio(x[1], x[0]).ok_or("zero")?;
    if l.is_nan() {
        unimplemented!();
    }
    Ok(l * r + digits * x[1])
}

/// The fallible computation, its error read by the caller.
#[derive_frule]
fn fallible_or_zero(x: &[f64]) -> f64 {
    match fallible(x) {
        Ok(v) => v,
        Err(_) => 0.0,
    }
}

#[test]
fn results_and_options() {
    check_modes!(fallible_or_zero {}, fallible_or_zero, [0.3, 1.9]);
}

/// A function generic over a float type with `T::from`, `T::epsilon` and a `const`
/// generic length; attributes on the function.
#[derive_frule]
#[inline(always)]
#[must_use]
pub(crate) fn smooth_norm<T: Float, const N: usize>(x: &[T; N]) -> T {
    let eps = T::epsilon() * T::from(1e3).unwrap();
    let mut s = T::zero();
    for v in x.iter() {
        s = s + *v * *v;
    }
    (s + eps).sqrt()
}

/// The generic function at `f64` and a length of three.
#[derive_frule]
fn norm3(x: &[f64]) -> f64 {
    smooth_norm(&[x[0], x[1], x[2]])
}

#[test]
fn const_generics_and_float_constructors() {
    check_modes!(norm3 {}, norm3, [0.3, 1.9, -0.7]);
}

// ---------------------------------------------------------------------------------------
// Logs passed on.

/// A step that appends to a log it is lent.
#[derive_frule]
fn logged_step(x: &[f64], log: &mut Vec<String>) -> f64 {
    let e = x[0] * x[1].exp();
    log.push(format!("e = {e:.3}"));
    e
}

/// A local log lent to a derived function, then read.
#[derive_frule]
fn logged_run(x: &[f64]) -> f64 {
    let mut log: Vec<String> = Vec::new();
    let a = logged_step(x, &mut log);
    let b = logged_step(&x[1..], &mut log);
    a + b * log.len() as f64
}

#[test]
fn local_log_lent_to_a_derived_function() {
    check_modes!(logged_run {}, logged_run, [0.3, 1.9, -0.7]);
}

/// An index buffer filled by a callee taking `&mut [usize]`, from a `Vec` and from an
/// array, and a `Vec<usize>` taken as `&mut Vec<usize>`.
#[derive_frule]
fn fill_order(x: &[f64], order: &mut [usize]) -> f64 {
    for (k, o) in order.iter_mut().enumerate() {
        *o = (k + 1) % x.len();
    }
    x[order[0]]
}

#[derive_frule]
fn push_count(x: &[f64], seen: &mut Vec<usize>) -> f64 {
    seen.push(x.len());
    x[0] * seen.len() as f64
}

#[derive_frule]
fn gathered(x: &[f64]) -> f64 {
    let mut order = vec![0usize; 3];
    let mut fixed = [0usize; 2];
    let mut seen: Vec<usize> = Vec::new();
    let a = fill_order(x, &mut order);
    let b = fill_order(x, &mut fixed);
    let c = push_count(x, &mut seen) + push_count(x, &mut seen);
    a * x[order[1]] + b * x[fixed[1]] + c * seen.len() as f64
}

#[test]
fn integer_buffers_lent_to_derived_functions() {
    check_modes!(gathered {}, gathered, [0.3, 1.9, -0.7]);
    // a = x1, order = [1, 2, 0]; b = x1, fixed = [1, 2]; c = x0 + 2 x0; seen has 2.
    let x = [0.3, 1.9, -0.7];
    let (_, g) = gradient(gathered {}, &x);
    common::modes::assert_close(g[0], 6.0, 1e-12, "d/dx0");
    common::modes::assert_close(g[1], 2.0 * x[2], 1e-12, "d/dx1");
    common::modes::assert_close(g[2], 2.0 * x[1], 1e-12, "d/dx2");
}

// ---------------------------------------------------------------------------------------
// Odds and ends.

/// A generic local struct with an `impl`, nested closures, a closure calling another, a
/// `FnMut` accumulator.
#[derive_frule]
fn nested_closures(x: &[f64]) -> f64 {
    struct Pair<T> {
        a: T,
        b: T,
    }
    impl<T: Copy + std::ops::Mul<Output = T> + std::ops::Add<Output = T>> Pair<T> {
        fn dot(&self) -> T {
            self.a * self.a + self.b * self.b
        }
    }
    let p = Pair { a: x[0], b: x[1] };
    let sq = |v: f64| v * v;
    let quad = |v: f64| {
        let inner = |w: f64| sq(w) + w;
        inner(v) * 2.0
    };
    let mut total = 0.0;
    let mut add = |v: f64| total += v;
    add(quad(x[0]));
    add(p.dot());
    total
}

#[test]
fn nested_and_accumulating_closures() {
    check_modes!(nested_closures {}, nested_closures, [0.3, 1.9]);
}

/// `Option<&f64>` matched, `position`, `partial_cmp` matched on `Ordering`, `From`
/// conversions, `fold` with a typed seed, a wildcard `let`.
#[derive_frule]
fn conversions(x: &[f64]) -> f64 {
    use std::cmp::Ordering;
    let second = match x.get(1) {
        Some(&v) => v,
        None => 0.0,
    };
    let at = if let Some(i) = x.iter().position(|&v| v > 1.0) {
        x[i]
    } else {
        1.0
    };
    let sign = match x[0].partial_cmp(&x[2]) {
        Some(Ordering::Less) => -1.0,
        Some(Ordering::Greater) => 1.0,
        _ => 0.0,
    };
    let small = x[2] as f32;
    let widened = f64::from(small) + f64::from(3u8) + f64::from(u32::from(true));
    let peak = x.iter().map(|v| v.abs()).fold(0.0_f64, |a, b| a.max(b));
    let _ = x[0].sin();
    let _unused = second * 2.0;
    second * at + sign * x[0] + widened + peak
}

#[test]
fn option_ordering_and_from() {
    let x = [0.3, 1.9, -0.7];
    // d/dx0 = 1 (sign), d/dx1 = 2 x1 + 1 (peak), d/dx2 = 1 (through f32).
    let want = vec![1.0, 2.0 * x[1] + 1.0, 1.0];
    check_first_order!(conversions {}, conversions, x, want);
}

/// A `Debug` struct in the body printed behind a flag, `cfg!` in a condition, location
/// macros, `stringify!` and `concat!`, `assert_ne!`, `panic!` with arguments on a path
/// not taken, `vec![v; n]` of a differentiated value.
#[derive_frule]
fn diagnostics(x: &[f64], verbose: bool) -> f64 {
    #[derive(Debug, Clone, Copy)]
    struct State {
        pos: f64,
        vel: f64,
    }
    let s = State {
        pos: x[0],
        vel: x[1],
    };
    if verbose {
        println!("{:?} at {}:{}:{}", s, file!(), line!(), column!());
        println!("{}", stringify!(s.pos * s.vel));
        println!("{}", concat!("a", "b"));
    }
    let scale = if cfg!(debug_assertions) { 2.0 } else { 2.0 };
    assert_ne!(x.len(), 0);
    if s.pos.is_nan() {
        panic!("nan at {}", s.vel);
    }
    let copies = vec![s.vel; 3];
    scale * s.pos * copies.iter().sum::<f64>()
}

#[test]
fn diagnostic_macros() {
    check_modes!(
        bind(diagnostics {}, (Wrt, Const(false))),
        |x: &[f64]| diagnostics(x, false),
        [0.3, 1.9]
    );
}

/// A `()` function writing its output, with an early `return;`.
#[derive_frule]
fn scaled_into(x: &[f64], out: &mut [f64]) {
    if x.is_empty() {
        return;
    }
    for (o, v) in out.iter_mut().zip(x) {
        *o = v * v;
    }
}

#[derive_frule]
fn through_output(x: &[f64]) -> f64 {
    let mut out = vec![0.0; x.len()];
    scaled_into(x, &mut out);
    scaled_into(&[], &mut out[..0]);
    out.iter().sum()
}

#[test]
fn unit_function_with_early_return() {
    check_modes!(through_output {}, through_output, [0.3, 1.9]);
}

// ---------------------------------------------------------------------------------------
// Iteration, once more.

/// `collect::<Vec<_>>()`, `max_by` on pairs then `map`, `enumerate().skip(1).rev()`,
/// `while` with `&&`, a tuple out of a `loop`, `split_first`, `zip` with `iter_mut`.
#[derive_frule]
fn iteration(x: &[f64]) -> f64 {
    let doubled = x.iter().map(|v| v * 2.0).collect::<Vec<_>>();
    let kept: Vec<f64> = doubled
        .iter()
        .copied()
        .filter(|v| *v > 0.0)
        .collect::<Vec<f64>>();
    let arg = x
        .iter()
        .copied()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
        .unwrap();
    let mut back = 0.0;
    for (i, &v) in x.iter().enumerate().skip(1).rev() {
        back += i as f64 * v;
    }
    let mut i = 0;
    while i < x.len() && x[i] < 1.5 {
        i += 1;
    }
    let (lo, hi) = loop {
        if i > 0 {
            break (x[i - 1], x[i.min(x.len() - 1)]);
        }
        break (0.0, x[0]);
    };
    let (head, tail) = x.split_first().unwrap();
    let mut ys = vec![0.0; tail.len()];
    for (y, t) in ys.iter_mut().zip(tail.iter()) {
        *y = head * t;
    }
    kept.iter().sum::<f64>() + x[arg] * back + lo * hi + ys.iter().sum::<f64>()
}

#[test]
fn iteration_forms() {
    check_modes!(iteration {}, iteration, [0.3, 1.9, -0.7, 1.2]);
}

/// Powers and sums: `powf` three ways, integer `pow`, an `f32` sum, ranges reversed and
/// stepped, `product` of integers, `chunks` summed, `repeat`/`take`, `scan`.
#[derive_frule]
fn powers(x: &[f64]) -> f64 {
    let n = x.len();
    let a = 2.0_f64.powf(x[0]) + f64::powf(2.0, x[1]) + x[0].powf(x[1]);
    let b = (n as i64).pow(2) as f64 * x[0];
    let c = x.iter().map(|&v| v as f32).sum::<f32>() as f64;
    let d: f64 = (0..n).map(|i| x[i] * i as f64).sum();
    let mut e = 0.0;
    for i in (0..n).rev().step_by(2) {
        e += x[i];
    }
    let f = (1..=n).product::<usize>() as f64;
    let g: Vec<f64> = x.chunks(2).map(|c| c.iter().sum::<f64>()).collect();
    let h = std::iter::repeat(x[0]).take(3).sum::<f64>();
    let k = x
        .iter()
        .scan(0.0, |acc, &v| {
            *acc += v;
            Some(*acc)
        })
        .last()
        .unwrap();
    a + b + c + d + e + f * x[1] + g[0] * g[1] + h + k
}

#[test]
fn powers_and_ranges() {
    // Against the closed form: central differences through the `f32` sum are off by the
    // rounding of `f32` (about 1e-2 at this step).
    let x = [0.3, 1.9, 0.7];
    let ln2 = std::f64::consts::LN_2;
    let da0 = 2f64.powf(x[0]) * ln2 + x[1] * x[0].powf(x[1] - 1.0);
    let da1 = 2f64.powf(x[1]) * ln2 + x[0].powf(x[1]) * x[0].ln();
    // b = 9 x0, c = Σx (through f32), d = x1 + 2 x2, e = x2 + x0, f = 6 x1,
    // g0 g1 = (x0 + x1) x2, h = 3 x0, k = Σx.
    let want = vec![
        da0 + 9.0 + 1.0 + 1.0 + x[2] + 3.0 + 1.0,
        da1 + 1.0 + 1.0 + 6.0 + x[2] + 1.0,
        1.0 + 2.0 + 1.0 + (x[0] + x[1]) + 1.0,
    ];
    check_first_order!(powers {}, powers, x, want);
}

// ---------------------------------------------------------------------------------------
// Small forms, one line each.

#[derive_frule]
#[allow(unused_braces)]
fn tiny_block(x: &[f64]) -> f64 {
    {
        x[0]
    }
}

#[derive_frule]
fn tiny_neg(x: &[f64]) -> f64 {
    -(-x[0]) * (x[1])
}

#[derive_frule]
fn tiny_unit_patterns(x: &[f64]) -> f64 {
    let () = ();
    let _: () = ();
    let (.., a) = (1, x[0]);
    let [_, b] = [1.0, x[1]];
    match () {
        () => a * b,
    }
}

#[derive_frule]
fn tiny_refs(x: &[f64]) -> f64 {
    let a = *&x[0];
    let b = **&&x[1];
    (a,).0 * [[b]][0][0]
}

#[derive_frule]
fn tiny_clones(x: &[f64]) -> f64 {
    x[0].clone() * Clone::clone(&x[1]) + f64::clone(&x[0]) + <f64 as Clone>::clone(&x[1])
}

#[derive_frule]
fn tiny_identity(x: &[f64]) -> f64 {
    std::convert::identity(x[0]) * x[1]
}

#[derive_frule]
fn tiny_remainders(x: &[f64]) -> f64 {
    x[0] % 2.0 + x[1].rem_euclid(1.5)
}

#[derive_frule]
fn tiny_label_loop(x: &[f64]) -> f64 {
    'a: loop {
        break 'a x[0] * x[1];
    }
}

#[derive_frule]
fn tiny_unreachable(x: &[f64]) -> f64 {
    if !x.is_empty() {
        x[0] * x[1]
    } else {
        unreachable!()
    }
}

#[derive_frule]
fn tiny_bool_casts(x: &[f64]) -> f64 {
    (!false as u8 as f64) * x[0] + (x[1] > 0.0) as u8 as f64 * x[1]
}

#[test]
fn small_forms() {
    let x = [0.7, 1.9];
    check_modes!(tiny_block {}, tiny_block, x);
    check_modes!(tiny_neg {}, tiny_neg, x);
    check_modes!(tiny_unit_patterns {}, tiny_unit_patterns, x);
    check_modes!(tiny_refs {}, tiny_refs, x);
    check_modes!(tiny_clones {}, tiny_clones, x);
    check_modes!(tiny_identity {}, tiny_identity, x);
    check_modes!(tiny_remainders {}, tiny_remainders, x);
    check_modes!(tiny_label_loop {}, tiny_label_loop, x);
    check_modes!(tiny_unreachable {}, tiny_unreachable, x);
    check_modes!(tiny_bool_casts {}, tiny_bool_casts, x);
}

// ---------------------------------------------------------------------------------------
// Places and methods on literals.

#[derive(Differentiable, Clone, Copy, Debug)]
struct Inner {
    c: f64,
}

#[derive(Differentiable, Clone, Debug)]
struct Outer {
    b: Inner,
    p: [f64; 3],
    offset: Option<f64>,
}

#[derive(Differentiable, Clone, Copy, Debug)]
struct Pair2(f64, f64);

/// Nested field updates, an array field written by index, a tuple-struct field assigned,
/// an `Option` field's combinators, `if let Some(ref v)`, a slice `match` with a guard,
/// methods on float literals and on sums.
#[derive_frule]
fn places(x: &[f64]) -> f64 {
    let mut o = Outer {
        b: Inner { c: 1.0 },
        p: [0.0; 3],
        offset: Some(x[1]),
    };
    o.b.c += x[0];
    o.p[1] = x[0] * x[1];
    let mut m = Pair2(0.0, 0.0);
    m.0 = x[1];
    m.1 += m.0 * 2.0;
    let shift = o.offset.map(|v| v * 2.0).unwrap_or(0.0);
    let extra = if let Some(ref v) = o.offset { *v } else { 0.0 };
    let head = match &x[..] {
        [a, b, ..] if a < b => a * b,
        [a, ..] => *a,
        [] => 0.0,
    };
    let lit = 2.0_f64.sqrt() * x[0] + x[0].max(x[1]).min(3.0);
    let norm = x.iter().map(|v| v.powi(2)).sum::<f64>().sqrt();
    o.b.c * o.p[1] + m.1 + shift + extra + head + lit + norm
}

#[test]
fn places_and_literal_methods() {
    check_modes!(places {}, places, [0.3, 1.9]);
}

/// A `#[non_differentiable]` helper filling an index buffer of the caller's.
#[non_differentiable]
fn ranks(x: &[f64], order: &mut Vec<usize>) {
    order.clear();
    order.extend(0..x.len());
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
}

#[derive_frule]
fn smallest_two(x: &[f64]) -> f64 {
    let mut order = Vec::new();
    order.reserve(x.len());
    let mut idx: Vec<usize> = Vec::with_capacity(x.len());
    ranks(x, &mut idx);
    order.extend_from_slice(&idx);
    x[order[0]] * x[order[1]]
}

#[test]
fn index_buffer_from_a_non_differentiable_helper() {
    check_modes!(smallest_two {}, smallest_two, [0.3, 1.9, -0.7]);
}
