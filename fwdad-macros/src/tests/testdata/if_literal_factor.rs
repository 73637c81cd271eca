// A factor chosen by an `if` between float literals, times a parameter.
fn tol(v: f64, tripn: bool, t: f64) -> bool {
    v.abs() < if tripn { 8.0 } else { 1.0 } * t
}
