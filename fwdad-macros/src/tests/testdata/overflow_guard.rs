// The overflow guard (docs/design.md): the coefficient of `e[i]`'s tangent is the product
// `s · cos(e[i]·s) · s`, which overflows for `s = 2^1021` where the tangent, tiny (each
// `e[i]` is), times the factors one by one does not. `sin`'s partial is costly, so the
// element's term is zero-tested (`_sparse`) and clears the flag where it is live
// (`lin::ax_seen`); where the flag or the summed test fails, the cold path sweeps the
// partials over the tangents (`lin::sw_*`). `tests/derive_overflow12.rs` checks it in
// every mode.
fn overflow_guard(x: &[f64], s: f64) -> f64 {
    let e: Vec<f64> = x.iter().map(|&v| small(v)).collect();
    let mut acc = 0.0;
    for i in 0..e.len() {
        acc += (e[i] * s).sin() * s;
    }
    acc
}
