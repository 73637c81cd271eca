// A constant sub-slice merged with an active slice: its zero tangent is the same range of
// the array's, whose cell is declared where the array is (at function scope, alive past
// the `if` and the iteration, built once), and the sub-slice reaches the annotated slice
// through `coerce_to`.
fn promoted_merge(x: &[f64]) -> f64 {
    let c = [1.0, 2.0, 3.0];
    let mut acc = 0.0;
    for i in 1..3 {
        let s: &[f64] = if x[0] > 0.0 { &c[..i] } else { x };
        acc += s[0] * x[1];
    }
    acc
}
