// A kink whose operand's roots may cancel, in an arm of an `if` whose arms read only values
// from before it: the arm cannot materialise the operand (it yields coefficients), so the
// chain does not continue through this `if` (`tests/derive_hunt3_found.rs`).
fn linear_kink_arm(x: &[f64], i: usize, j: usize) -> f64 {
    let a = x[2];
    let p = x[i];
    let q = x[j];
    let s = if a > 0.0 {
        (1.0 + a * q - a * p).asin()
    } else {
        a * p
    };
    s * a + p
}
