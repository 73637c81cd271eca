// Linearisation through a kink: `√(dx² + dy²)` reads a sum of two roots, which is
// materialised first (`linear::kink_operands`), so `sqrt`'s partial (∞ where the points
// coincide) multiplies one tangent, `ṅ` (0 there): strongly, `lin::ax_strong`, as the rule
// multiplies a zero tangent. `tests/derive_hunt2_found.rs` checks the gradient at
// coincident points in every mode.
fn linear_kink(x: &[f64]) -> f64 {
    let dx = x[0] - x[2];
    let dy = x[1] - x[3];
    let r = (dx * dx + dy * dy).sqrt();
    r * r * r + x[4] * r
}
