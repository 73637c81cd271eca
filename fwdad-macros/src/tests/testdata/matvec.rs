// A dense matrix-vector product writing into an output slice: the matrix `a` is often
// passed as a constant (`Dual::constant(&a)`), whose tangent is then a zero of its type.
fn matvec(a: &[f64], x: &[f64], y: &mut [f64]) {
    let n = x.len();
    for i in 0..y.len() {
        let mut s = 0.0;
        for j in 0..n {
            s += a[i * n + j] * x[j];
        }
        y[i] = s;
    }
}
