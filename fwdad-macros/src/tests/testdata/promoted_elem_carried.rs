// A constant element `&w[k]` of a loop's `k`, carried into the next iteration through a
// reference variable: it borrows its element of the array's zero tangent, in a cell
// declared where the array is (function scope), so the promoted dual outlives the
// iteration that made it (a cell per iteration would not: E0716).
fn promoted_elem_carried(x: &[f64]) -> f64 {
    let w = [0.5, 1.5, 2.5];
    let mut r: &f64 = &x[1];
    let mut p = 1.0;
    for k in 0..3 {
        p *= x[0] + *r;
        r = &w[k];
    }
    p
}
