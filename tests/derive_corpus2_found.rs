//! Constructs the second verbatim corpus (`tests/geographiclib_verbatim.rs`,
//! `tests/map_3d_verbatim.rs`) found, each in a small program written the way those crates
//! write it, against closed forms, primals bit for bit: a factor chosen by an `if` (or a
//! `match`) between float literals, multiplied by a parameter or by a field
//! (geographiclib's Newton test `v.abs() < if tripn { 8.0 } else { 1.0 } * self.tol0_`),
//! whose literals rustc could not type (E0282).

use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Solver {
    tol: f64,
    gain: f64,
}

/// One Newton step for √2 unless the residual is below a tolerance that a flag scales
/// (geographiclib's test), the tolerance a parameter.
#[derive_frule]
fn newton_step(x: f64, tripn: bool, tol: f64) -> f64 {
    let v = x * x - 2.0;
    if v.abs() < if tripn { 8.0 } else { 1.0 } * tol {
        x
    } else {
        x - v / (2.0 * x)
    }
}

/// The same with the tolerance a field, and a gain chosen by a `match` between literals.
#[derive_frule]
fn damped_step(s: &Solver, x: f64, tripn: bool, mode: usize) -> f64 {
    let v = x * x - 2.0;
    if v.abs() < if tripn { 8.0 } else { 1.0 } * s.tol {
        return x;
    }
    let g = match mode {
        0 => 0.5,
        1 => 1.0,
        _ => 2.0,
    } * s.gain;
    x - g * v / (2.0 * x)
}

#[test]
fn if_between_literals_times_a_parameter() {
    // x − (x² − 2)/(2x) = x/2 + 1/x has the derivative ½ − 1/x²; below the tolerance, 1.
    for (x, tripn, tol) in [(1.5, false, 1e-3), (1.5, true, 0.05), (1.41421, true, 1e-3)] {
        let (v, d) = derivative(bind(newton_step {}, (Var(0), tripn, tol)), x);
        assert_eq!(v.to_bits(), newton_step(x, tripn, tol).to_bits());
        let small = (x * x - 2.0f64).abs() < if tripn { 8.0 } else { 1.0 } * tol;
        let want = if small { 1.0 } else { 0.5 - 1.0 / (x * x) };
        assert!((d - want).abs() < 1e-15, "d/dx at {x}: {d}, want {want}");
    }
}

#[test]
fn if_and_match_between_literals_times_fields() {
    // x − g (x² − 2)/(2x): d/dx = 1 − g (½ + 1/x²), d/dgain = −k (x² − 2)/(2x) with
    // g = k·gain, k = ½, 1 or 2.
    let s = Solver {
        tol: 1e-3,
        gain: 0.7,
    };
    for (x, mode) in [(1.5, 0), (0.9, 1), (3.0, 2)] {
        let k = [0.5, 1.0, 2.0][mode];
        let g = k * s.gain;
        let (y, d) = derivative(bind(damped_step {}, (&s, Var(0), true, mode)), x);
        assert_eq!(y.to_bits(), damped_step(&s, x, true, mode).to_bits());
        let want = 1.0 - g * (0.5 + 1.0 / (x * x));
        assert!((d - want).abs() < 1e-15, "d/dx: {d}, want {want}");
        let ds = damped_step_frule(
            Dual::new(
                &s,
                &SolverTangent {
                    tol: 0.0,
                    gain: 1.0,
                },
            ),
            Dual::new(x, 0.0),
            Dual::constant(true),
            Dual::constant(mode),
        );
        let want = -k * (x * x - 2.0) / (2.0 * x);
        assert!(
            (ds.tangent - want).abs() < 1e-15,
            "d/dgain: {}, want {want}",
            ds.tangent
        );
    }
}
