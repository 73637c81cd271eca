// Active and inactive operands mixed in one expression: literals, an integer parameter
// cast to float, a `bool` flag, a comparison.
fn mixed_activity(x: f64, c: f64, n: usize, flag: bool) -> f64 {
    let k = n as f64;
    let s = k * 2.0 + 1.0;
    let t = x * k + c * s;
    let big = t > s;
    if flag && big {
        t / s
    } else {
        -t
    }
}
