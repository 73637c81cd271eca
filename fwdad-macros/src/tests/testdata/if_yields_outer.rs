// An `if` yielding a tuple whose arms yield a value from before the `if` unchanged (its
// coefficient `one`) and a constant (coefficients `zero`).
fn gated(p: &[f64]) -> [f64; 2] {
    let (a, b) = (p[0] * p[2], p[1] + p[2]);
    let (s, t) = if p[0] > 0.0 { (a * b, b) } else { (0.0, b * b - a) };
    [s.exp() + t * a, t / (1.0 + s * s)]
}
