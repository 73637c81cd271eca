use fwdad::prelude::*;

#[primitive(rule = cube_rule)]
fn cube(x: f64) -> f64 {
    x * x * x
}

// Written for one direction only (`Dual<f64>` is `Dual<f64, f64>`): derived callers run
// rules in every mode, so the rule must be generic over the tangent type.
fn cube_rule(x: Dual<f64>) -> Dual<f64> {
    Dual::new(x.primal.powi(3), 3.0 * x.primal * x.primal * x.tangent)
}

fn main() {}
