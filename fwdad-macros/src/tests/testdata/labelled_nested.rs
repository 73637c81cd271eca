// Labelled `break` and `continue` out of a nested loop.
fn labelled_nested(m: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    'rows: for i in 0..n {
        for j in 0..n {
            if j > i {
                continue 'rows;
            }
            if m[i * n + j] < 0.0 {
                break 'rows;
            }
            s += m[i * n + j];
        }
    }
    s
}
