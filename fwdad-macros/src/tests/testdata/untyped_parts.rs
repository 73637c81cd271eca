// The parts of a tuple a function returned, bound without their types: `hi - lo` and
// `xs[1]`, `ws[i] *= 2.0` go through the operator rules (`user op ..`), which rustc picks
// by the values' types (a float, a user type, a `Vec` or an array); `x * x` of a typed
// parameter stays float arithmetic.
fn untyped_parts(x: f64, q: &[f64]) -> f64 {
    let (lo, hi) = bracket(x, q[0]);
    let (xs, mut ws) = nodes(q);
    ws[1] *= 2.0;
    (hi - lo) * ws[1] + xs[1] + x * x
}
