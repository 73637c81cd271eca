// Tuples built, destructured, read by field, and returned.
fn tuples(x: f64, y: f64) -> (f64, f64) {
    let (s, c) = x.sin_cos();
    let p = (s * y, c, 3);
    let (a, b, _) = p;
    (a + b, p.1 * 2.0 + p.2 as f64)
}
