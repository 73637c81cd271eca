// ADBench GMM's `logsumexp`: the maximum `mx` is a root of every term of the second loop's
// sum, where its coefficients can be summed as scalars and applied once after the loop.
fn logsumexp(v: &[f64]) -> f64 {
    let mut mx = v[0];
    for i in 1..v.len() {
        if v[i] > mx {
            mx = v[i];
        }
    }
    let mut s = 0.0;
    for i in 0..v.len() {
        s += (v[i] - mx).exp();
    }
    s.ln() + mx
}
