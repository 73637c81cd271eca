// Straight-line arithmetic: literals, a path constant, float methods and path calls.
fn straight_line(x: f64, y: f64) -> f64 {
    let a = 2.0 * x + y / 3.0;
    let b = a * std::f64::consts::PI - 1.5;
    (a * b).sin() + f64::exp(b) - x.powi(3)
}
