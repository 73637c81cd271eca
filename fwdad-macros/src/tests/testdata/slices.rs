// `&[f64]` parameters indexed directly and through sub-slices.
fn slices(x: &[f64], w: &[f64], k: usize) -> f64 {
    let head = &x[..k];
    let tail = &x[k..];
    head[0] * w[0] + tail[tail.len() - 1] * w[1]
}
