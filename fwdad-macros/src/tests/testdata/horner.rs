// One direction (issue 30): Horner's scheme with literal coefficients is a chain of one
// root, `x`; its one-direction body carries `∂p/∂x` beside `p` (one multiply-add per step)
// and multiplies by `ẋ` once.
fn horner(x: f64) -> f64 {
    let mut p = 0.008333333333333333;
    p = p * x + 0.041666666666666664;
    p = p * x + 0.16666666666666666;
    p = p * x + 0.5;
    p = p * x + 1.0;
    p = p * x + 1.0;
    p
}
