// `cycle` in an indexed chain (element k is the inner chain's k % len) and `skip_while`
// as a stage with a loop-carried flag.
fn cycle_skip_while(x: &[f64], w: &[f64]) -> f64 {
    x.iter()
        .zip(w.iter().cycle())
        .skip_while(|p| *p.0 < 0.0)
        .map(|(a, b)| a * b)
        .sum()
}
