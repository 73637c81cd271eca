//! Control flow, loops and mutation through `#[derive_frule]`, against analytic
//! derivatives (written from the math, not from the rules).
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;

/// Σ x_i² with a for loop over a range; acc starts inactive and becomes active.
#[derive_frule]
fn sum_squares(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        acc += x[i] * x[i];
    }
    acc
}

/// Rosenbrock with a while loop and an index counter.
#[derive_frule]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    while i + 1 < x.len() {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s = s + a * a + 100.0 * b * b;
        i += 1;
    }
    s
}

/// Newton iteration for sqrt(a) with `loop`/`break value`, and an early return.
#[derive_frule]
fn newton_sqrt(a: f64) -> f64 {
    if a == 0.0 {
        return 0.0;
    }
    let mut y = a;
    let mut k = 0;
    loop {
        let next = 0.5 * (y + a / y);
        k += 1;
        if (next - y).abs() < 1e-15 * y || k > 100 {
            break next;
        }
        y = next;
    }
}

/// In-place: y[i] = a·x[i] + y[i] (axpy) returning ().
#[derive_frule]
fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    for i in 0..x.len() {
        y[i] += a * x[i];
    }
}

/// A merge where one branch is a literal, a `continue`, labelled breaks, and `else if`.
#[derive_frule]
fn piecewise(x: &[f64], t: f64) -> f64 {
    let mut total = 0.0;
    'outer: for i in 0..x.len() {
        let v = if x[i] > t {
            x[i] * t
        } else if x[i] < -t {
            -x[i]
        } else {
            0.5
        };
        if v > 100.0 {
            break 'outer;
        }
        let mut j = 0;
        while j < 3 {
            j += 1;
            if j == 2 {
                continue;
            }
            total += v;
        }
    }
    total
}

/// Writes through `&mut f64` and `*r = ..`.
#[derive_frule]
fn scale_into(x: f64, out: &mut f64) {
    *out = x * x;
    *out *= 3.0;
}

/// A local buffer that starts inactive and receives active values.
#[derive_frule]
fn local_buffer(x: f64) -> f64 {
    let mut buf = [0.0; 3];
    buf[0] = x;
    buf[1] = 2.0;
    buf[2] = x * buf[1];
    buf[0] + buf[1] * buf[2]
}

fn dual_slice_grad(f: impl Fn(&[f64], &[f64]) -> Dual<f64>, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|k| {
            let mut e = vec![0.0; x.len()];
            e[k] = 1.0;
            f(x, &e).tangent
        })
        .collect()
}

#[test]
fn sum_squares_gradient_is_2x() {
    let x = [0.5, -1.25, 2.0, 3.5];
    let g = dual_slice_grad(|x, e| sum_squares_frule(Dual::new(x, e)), &x);
    for (gi, xi) in g.iter().zip(&x) {
        assert_eq!(*gi, 2.0 * xi);
    }
    let zero = [0.0; 4];
    assert_eq!(
        sum_squares_frule(Dual::new(&x[..], &zero[..])).primal,
        sum_squares(&x)
    );
}

#[test]
fn rosenbrock_gradient_matches_analytic() {
    let x = [-1.2, 1.0, 0.7, 1.9];
    let g = dual_slice_grad(|x, e| rosenbrock_frule(Dual::new(x, e)), &x);
    let zero = [0.0; 4];
    assert_eq!(
        rosenbrock_frule(Dual::new(&x[..], &zero[..])).primal,
        rosenbrock(&x)
    );
    let n = x.len();
    let mut expected = vec![0.0; n];
    for i in 0..n - 1 {
        expected[i] += -2.0 * (1.0 - x[i]) - 400.0 * x[i] * (x[i + 1] - x[i] * x[i]);
        expected[i + 1] += 200.0 * (x[i + 1] - x[i] * x[i]);
    }
    for (a, b) in g.iter().zip(&expected) {
        approx::assert_relative_eq!(a, b, max_relative = 1e-13);
    }
}

#[test]
fn newton_sqrt_derivative_is_half_over_sqrt() {
    for &a in &[0.25, 2.0, 10.0] {
        let d = newton_sqrt_frule(Dual::new(a, 1.0));
        assert_eq!(d.primal.to_bits(), newton_sqrt(a).to_bits());
        approx::assert_relative_eq!(d.tangent, 0.5 / a.sqrt(), max_relative = 1e-10);
    }
    let d = newton_sqrt_frule(Dual::new(0.0, 1.0));
    assert_eq!((d.primal, d.tangent), (0.0, 0.0));
}

#[test]
fn axpy_writes_primal_and_tangent() {
    let (a, x) = (1.5, [1.0, 2.0, 3.0]);
    let mut y = [0.5, -1.0, 4.0];
    let mut y_ref = y;
    axpy(a, &x, &mut y_ref);
    let dx = [0.1, 0.2, 0.3];
    let mut dy = [1.0, 1.0, 1.0];
    let r = axpy_frule(
        Dual::new(a, 2.0),
        Dual::new(&x[..], &dx[..]),
        Dual::new(&mut y[..], &mut dy[..]),
    );
    assert_eq!(r.primal, ());
    assert_eq!(y, y_ref);
    for i in 0..3 {
        // d(y_i + a x_i) = dy_i + da x_i + a dx_i
        approx::assert_relative_eq!(dy[i], 1.0 + 2.0 * x[i] + a * dx[i], max_relative = 1e-15);
    }
}

#[test]
fn piecewise_matches_branchwise_derivative() {
    let x = [2.0, -3.0, 0.1, 1.5];
    let t = 1.0;
    let expected_primal = piecewise(&x, t);
    let zero = [0.0; 4];
    let d = piecewise_frule(Dual::new(&x[..], &zero[..]), Dual::new(t, 1.0));
    assert_eq!(d.primal, expected_primal);
    // Each element contributes twice (j = 1, 3). d/dt: x_i for x_i > t; 0 otherwise.
    assert_eq!(d.tangent, 2.0 * (2.0 + 1.5));
    let dx = [1.0, 1.0, 1.0, 1.0];
    let d = piecewise_frule(Dual::new(&x[..], &dx[..]), Dual::new(t, 0.0));
    // d/dx_i: t for x_i > t, -1 for x_i < -t, 0 in the middle.
    assert_eq!(d.tangent, 2.0 * (1.0 + 1.0 - 1.0));
}

#[test]
fn writes_through_mut_ref() {
    let mut out = 0.0;
    let mut dout = 0.0;
    scale_into_frule(Dual::new(1.5, 1.0), Dual::new(&mut out, &mut dout));
    let mut out_ref = 0.0;
    scale_into(1.5, &mut out_ref);
    assert_eq!(out, out_ref);
    assert_eq!(out, 3.0 * 1.5 * 1.5);
    assert_eq!(dout, 6.0 * 1.5);
}

#[test]
fn local_buffer_becomes_active() {
    let d = local_buffer_frule(Dual::new(0.75, 1.0));
    assert_eq!(d.primal, local_buffer(0.75));
    // f = x + 2·(2x) = 5x
    assert_eq!(d.tangent, 5.0);
}

/// A bound mutable sub-slice of an output buffer, a float cast, and a `const` item.
#[derive_frule]
fn tail_write(x: f64, out: &mut [f64]) {
    const K: f64 = 3.0;
    let rest = &mut out[1..];
    rest[0] = K * x;
    rest[1] = ((x as f32) * 2.0) as f64;
}

#[test]
fn mutable_subslice_cast_and_const_item() {
    let mut out = [0.0; 3];
    let mut dout = [0.0; 3];
    tail_write_frule(Dual::new(0.5, 1.0), Dual::new(&mut out[..], &mut dout[..]));
    let mut out_ref = [0.0; 3];
    tail_write(0.5, &mut out_ref);
    assert_eq!(out, out_ref);
    assert_eq!(dout, [0.0, 3.0, 2.0]);
}

/// Destructuring assignment in a loop body: `(a, b)` are loop-carried (they were not, and
/// lowering failed with an internal error). Three swaps and a scaling per iteration.
#[derive_frule]
fn swap_in_loop(x: f64, y: f64, n: usize) -> f64 {
    let (mut a, mut b) = (x, y);
    for _ in 0..n {
        (a, b) = (2.0 * b, a);
    }
    a * b.sin()
}

#[test]
fn destructuring_assignment_in_a_loop_is_carried() {
    for n in 0..4_usize {
        let (x, y) = (0.7, -1.3);
        // After n steps: a = 2^⌈n/2⌉·(x or y), b = 2^⌊n/2⌋·(y or x), alternating.
        let (ka, kb) = (2f64.powi(n.div_ceil(2) as i32), 2f64.powi((n / 2) as i32));
        let (a, b, da, db) = if n % 2 == 0 {
            (ka * x, kb * y, [ka, 0.0], [0.0, kb])
        } else {
            (ka * y, kb * x, [0.0, ka], [kb, 0.0])
        };
        let grad = [0, 1].map(|k| da[k] * b.sin() + a * b.cos() * db[k]);
        for (k, (dx, dy)) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
            let out = swap_in_loop_frule(
                Dual::new(x, dx),
                Dual::new(y, dy),
                Dual::new(n, fwdad::NoTangent),
            );
            assert_eq!(out.primal, swap_in_loop(x, y, n));
            approx::assert_relative_eq!(out.tangent, grad[k], max_relative = 1e-12);
        }
    }
}

/// Labelled blocks: `break 'a v` leaves with `v`; `continue 'outer` inside goes to the loop
/// around (Rust requires the label there).
#[derive_frule]
fn labelled_blocks(x: &[f64]) -> f64 {
    let mut s = 0.0;
    'outer: for i in 0..x.len() {
        let v = 'pick: {
            if x[i] < 0.0 {
                continue 'outer;
            }
            if x[i] > 1.0 {
                break 'pick x[i] * x[i];
            }
            3.0 * x[i]
        };
        s += v;
    }
    'done: {
        if s > 100.0 {
            break 'done;
        }
        s += x[0].sin();
    }
    s
}

#[test]
fn labelled_block_values_and_exits() {
    let x = [0.5, -2.0, 1.5];
    // s = 3·0.5 + 1.5² + sin(0.5); ∂/∂x = (3 + cos 0.5, 0, 2·1.5).
    let (v, g) = fwdad::drivers::gradient(labelled_blocks {}, &x);
    assert_eq!(v, labelled_blocks(&x));
    approx::assert_relative_eq!(v, 1.5 + 2.25 + 0.5f64.sin(), max_relative = 1e-15);
    let want = [3.0 + 0.5f64.cos(), 0.0, 3.0];
    for (g, w) in g.iter().zip(want) {
        approx::assert_relative_eq!(*g, w, max_relative = 1e-14);
    }
}

/// Assertions and panics in a derived body behave as in the plain function.
#[derive_frule]
fn checked_norm(x: &[f64], k: usize) -> f64 {
    assert!(!x.is_empty(), "need at least one value");
    assert_eq!(x.len() % 2, 0);
    debug_assert!(k > 0);
    let mut s = 0.0;
    for v in x {
        s += v * v;
    }
    match k {
        1 => s = s.sqrt(),
        2 => {}
        _ => unreachable!("k is 1 or 2"),
    }
    if s > 1e300 {
        panic!("overflow");
    }
    s
}

#[test]
fn assertions_pass_through() {
    let x = [3.0, 4.0];
    let d = checked_norm_frule(Dual::new(&x[..], &[1.0, 0.0][..]), Dual::constant(1));
    // |x| along e0: x0/|x|.
    assert_eq!(d.primal, 5.0);
    approx::assert_relative_eq!(d.tangent, 0.6, max_relative = 1e-15);
    let d = checked_norm_frule(Dual::new(&x[..], &[1.0, 0.0][..]), Dual::constant(2));
    assert_eq!((d.primal, d.tangent), (25.0, 6.0));
}

#[test]
#[should_panic(expected = "need at least one value")]
fn assert_message_in_the_rule() {
    // An empty tangent is typed: the rule's parameter takes `f64` or `ConstTangent` tangents.
    checked_norm_frule(Dual::new(&[][..], &[0.0; 0][..]), Dual::constant(1));
}

#[test]
#[should_panic(expected = "assertion `left == right` failed")]
fn assert_eq_in_the_rule() {
    checked_norm_frule(Dual::new(&[1.0][..], &[0.0][..]), Dual::constant(1));
}

#[test]
#[should_panic(expected = "k is 1 or 2")]
fn unreachable_in_the_rule() {
    checked_norm_frule(
        Dual::new(&[1.0, 2.0][..], &[0.0, 0.0][..]),
        Dual::constant(3),
    );
}

/// A local that starts constant and leaves a loop by `break` with an active value.
#[derive_frule]
fn first_above(x: &[f64]) -> f64 {
    let mut r = 0.0;
    for &v in x {
        if v > 1.0 {
            r = v * v;
            break;
        }
    }
    r * x[0] + 1.0
}

#[test]
fn break_carries_the_tangent() {
    let x = [0.5, 0.9, 1.3, 2.0];
    // r = x2²: f = x2²·x0 + 1; ∇f = (x2², 0, 2·x2·x0, 0).
    let (v, g) = fwdad::drivers::gradient(first_above {}, &x);
    assert_eq!(v, first_above(&x));
    let want = [1.69, 0.0, 2.0 * 1.3 * 0.5, 0.0];
    for (g, w) in g.iter().zip(want) {
        approx::assert_relative_eq!(*g, w, max_relative = 1e-14);
    }
    let d = first_above_frule(Dual::new(&x[..], &[0.0, 0.0, 1.0, 0.0][..]));
    approx::assert_relative_eq!(d.tangent, 1.3, max_relative = 1e-14);
}

#[derive_frule]
fn pick_branch(x: f64, k: u32) -> f64 {
    let y = match k {
        0 => x * x,
        1 => x.sin(),
        _ => unreachable!("k is 0 or 1"),
    };
    if y > 1e300 {
        panic!("too large")
    } else {
        y
    }
}

#[test]
fn diverging_macros_in_value_positions() {
    let d = pick_branch_frule(Dual::new(1.5, 1.0), Dual::constant(0));
    assert_eq!((d.primal, d.tangent), (2.25, 3.0));
    let d = pick_branch_frule(Dual::new(1.5, 1.0), Dual::constant(1));
    assert_eq!((d.primal, d.tangent), (1.5f64.sin(), 1.5f64.cos()));
}

/// `println!`/`eprintln!` in a derived body print the primal values, as the plain function
/// does: positional, named and inline-captured arguments, with format specs.
#[derive_frule]
fn traced_sum(x: &[f64], k: f64) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        s += v * k;
        println!("step {i}: s = {s:.3}, v = {}, k = {kk}", v, kk = k);
    }
    let (w, p) = (8, 2);
    eprintln!("done {:?} {s:>w$.p$} {:w$}", s, i32::MAX);
    println!();
    let label = format!("{s:.1}");
    let padded = format!("[{s:0w$.1}]");
    assert_eq!(padded, "[000006.0]", "{padded}");
    assert_eq!(label.len(), 3, "{label}");
    s * s
}

#[test]
fn print_macros_print_primals_and_keep_derivatives() {
    let x = [1.0, 2.0];
    // (k Σx)²: d/dk = 2 (k Σx) Σx; d/dx_i = 2 (k Σx) k.
    let d = traced_sum_frule(Dual::new(&x[..], &[0.0, 0.0][..]), Dual::new(2.0, 1.0));
    assert_eq!((d.primal, d.tangent), (36.0, 2.0 * 6.0 * 3.0));
    let (_, g) = fwdad::gradient(bind(traced_sum {}, (Wrt, 2.0)), &x);
    assert_eq!(g, [2.0 * 6.0 * 2.0; 2]);
}

/// An assignment inside a macro's argument in a loop is a loop-carried update, as any
/// other (helper hunt H: it was an internal "invalid IR" error).
#[derive_frule]
fn assign_in_format(x: f64) -> f64 {
    let mut acc = x;
    let mut i = 0;
    while i < 2 {
        let shown = format!("{}", {
            acc *= x;
            acc
        });
        assert!(!shown.is_empty());
        i += 1;
    }
    acc
}

#[test]
fn assignments_inside_macro_arguments() {
    // x³.
    assert_eq!(fwdad::derivative(assign_in_format {}, 2.0), (8.0, 12.0));
}

/// `dbg!` passes its value through (one argument, several as a tuple, none) and prints the
/// primal to stderr as the plain function's `dbg!` does.
#[derive_frule]
fn debugged(x: f64, v: &[f64]) -> f64 {
    let y = dbg!(x * x) + 1.0;
    let (a, b) = dbg!(v[0], y.sin());
    dbg!();
    let w = dbg!(v.to_vec());
    a * b + w[1]
}

#[test]
fn dbg_passes_values_through() {
    let (x, v) = (0.7, [2.0, -3.0]);
    let r = debugged_frule(Dual::new(x, 1.0), Dual::new(&v[..], &[0.5, 0.25][..]));
    assert_eq!(r.primal, debugged(x, &v));
    // f = v0 sin(x² + 1) + v1: df = 0.5 sin(x² + 1) + v0 cos(x² + 1) 2x + 0.25.
    let y = x * x + 1.0;
    let expect = 0.5 * y.sin() + v[0] * y.cos() * 2.0 * x + 0.25;
    assert!(
        (r.tangent - expect).abs() < 1e-15,
        "{} vs {expect}",
        r.tangent
    );
}
