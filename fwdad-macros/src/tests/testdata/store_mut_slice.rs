// Writes through `&mut [f64]`: active values, a literal, a sub-slice; then reads back.
fn store_mut_slice(x: &[f64], a: f64, out: &mut [f64]) -> f64 {
    out[0] = a * x[0];
    out[1] = 2.0;
    let rest = &mut out[2..];
    rest[0] = x[1];
    out[0] + out[1]
}
