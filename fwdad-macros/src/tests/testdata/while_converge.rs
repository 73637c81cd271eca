// `while` whose condition tests an active value (Newton's iteration for the square root).
fn while_converge(a: f64) -> f64 {
    let mut x = a;
    let mut it = 0;
    while (x * x - a).abs() > 1e-12 && it < 50 {
        x = 0.5 * (x + a / x);
        it += 1;
    }
    x
}
