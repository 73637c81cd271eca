// A slice variable reassigned to a constant array in a loop: the variable's annotation
// reaches its merged and carried values (typed cells, `coerce_to` at every store), and
// the zero tangent's cell is declared where the array is (function scope), so the
// promoted reference may outlive the iteration that made it.
fn promoted_carried(x: &[f64]) -> f64 {
    let c = [1.0, 2.0];
    let mut s: &[f64] = x;
    for i in 0..2 {
        if x[i] > 1.5 {
            s = &c;
        }
    }
    s[0] * s[1]
}
