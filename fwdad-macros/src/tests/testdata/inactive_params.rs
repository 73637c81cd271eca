// `inactive(..)`: borrowed data taken plain (`x`), a by-value scalar held constant
// (`w`), and the inactive slice passed on to another rule (promoted there).
#[derive_frule(inactive(x, w))]
fn inactive_params(theta: &[f64], x: &[f64], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let r = theta[0] * x[i] - w;
        s += r * r;
    }
    s + dot(theta, x)
}
