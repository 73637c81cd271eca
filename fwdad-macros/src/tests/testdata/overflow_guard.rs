// The overflow guard (docs/design.md): the coefficient of `small(x)`'s tangent is the
// product `s · cos(e·s) · s`, which overflows for `s = 2^1021` where the tangent, tiny,
// times the factors one by one does not. The combination tests the coefficients, summed;
// where the test fails, the cold path sweeps the partials over the tangents
// (`lin::sw_*`). `tests/derive_overflow12.rs` checks it in every mode.
fn overflow_guard(x: f64, s: f64) -> f64 {
    (small(x) * s).sin() * s
}
