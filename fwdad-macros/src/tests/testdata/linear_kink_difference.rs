// A kink whose operand's roots cancel: `asin(1 + a·x[j] − a·x[i])` where `i = j` puts one
// tangent in both reads. The operand is materialised, so `asin` multiplies its (zero)
// tangent strongly, as in one direction; absorbed, its roots' coefficients `±∞` added to
// NaN (`tests/derive_hunt3_found.rs`).
fn linear_kink_difference(x: &[f64], i: usize, j: usize) -> f64 {
    let a = x[2];
    (1.0 + a * x[j] - a * x[i]).asin() * a
}
