// Linearisation: a re-read element (`x[i]` three times is one root), a unit-partial sum, a
// smooth method, a value used twice inside the chain (absorbed once), a value used by a
// call and in a nested branch (materialised), and a loop-carried root. The same function is
// compiled and checked against a hand-written gradient in `tests/derive_linear.rs`.
fn linear_chain(x: &[f64], c: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = (1.0 - x[i]).sin();
        let w = c * t / u;
        let z = w.max(0.5);
        if z > 1.0 {
            s += w;
        }
        s += 100.0 * t * t + u * u - z;
    }
    s
}
