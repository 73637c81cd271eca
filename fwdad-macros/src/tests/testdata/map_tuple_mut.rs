// A `map` closure passing on a tuple that holds a `&mut` element of the output, the next
// `map` writing through it, `count()` driving the chain (argmin_testfunctions'
// `levy_derivative_const`).
fn doubled(x: &[f64; 3]) -> [f64; 3] {
    let mut out = [0.0; 3];
    x.iter()
        .zip(out.iter_mut())
        .map(|(&v, o)| (v, o))
        .map(|(v, o)| *o = 2.0 * v)
        .count();
    out
}
