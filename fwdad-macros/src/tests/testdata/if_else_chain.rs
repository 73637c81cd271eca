// `if`/`else if`/`else` as an expression; one arm is a literal and must be promoted.
fn if_else_chain(x: f64) -> f64 {
    if x < 0.0 {
        0.0
    } else if x < 1.0 {
        x * x
    } else {
        2.0 * x - 1.0
    }
}
