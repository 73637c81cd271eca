// A factor chosen by an `if` between float literals, times a field.
fn tol(v: f64, tripn: bool, g: &G) -> bool {
    v.abs() < if tripn { 8.0 } else { 1.0 } * g.f
}
