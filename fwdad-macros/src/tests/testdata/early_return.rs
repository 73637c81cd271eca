// An early `return` from inside a loop.
fn early_return(x: &[f64], tol: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i];
        if s > tol {
            return s * 2.0;
        }
    }
    s
}
