// One direction (issue 30): `t` has two roots and is materialised (`ṫ = ẋᵢ₊₁ - 2xᵢẋᵢ`);
// `100·t·t` has one, `t`, and the coefficient `2·(100·t)`; the sum takes `ṫ` and `ẋᵢ`.
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        s += 100.0 * t * t + (1.0 - x[i]) * (1.0 - x[i]);
    }
    s
}
