// Places inside places: each inner element is borrowed (`elemref`), not copied, so the
// stores reach `a` and `y`; the reads `a[1][0]` index through the same kind of borrow.
fn nested_places(x: &[f64], y: &mut [[f64; 2]]) -> f64 {
    let mut a = [[0.0; 2]; 2];
    a[1][0] = x[0] * 3.0;
    y[0][1] += a[1][0];
    a[1][0] * y[0][1]
}
