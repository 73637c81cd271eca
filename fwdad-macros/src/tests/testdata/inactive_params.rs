// `inactive(..)`: borrowed data taken plain (`x`), read in a loop and passed on to another
// rule (as `Promoted`: plain for an inactive parameter, a zero tangent built on demand
// otherwise).
#[derive_frule(inactive(x))]
fn inactive_params(theta: &[f64], x: &[f64], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let r = theta[0] * x[i] - w;
        s += r * r;
    }
    s + dot(theta, x)
}
