// A module of the UI test `missing-rule-for-fn-of-other-file`: plain functions, no rules.

/// Lift of a unit wing at speed `v`.
pub fn lift(v: f64) -> f64 {
    0.6 * v * v
}

/// Quadratic drag with coefficient `c`.
pub fn drag(v: f64, c: f64) -> f64 {
    c * v * v.abs()
}

/// Integrates `f` over `[0, t]` by the midpoint rule with `n` steps.
pub fn integrate(f: impl Fn(f64) -> f64, t: f64, n: usize) -> f64 {
    let h = t / n as f64;
    (0..n).map(|i| f((i as f64 + 0.5) * h)).sum::<f64>() * h
}
