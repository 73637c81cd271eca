// `Result` combinators on a helper's result, whose type the macro does not see: a `match`
// on the runtime's `branch`, put back by `rebuild`; the closures are inlined, the inner one
// capturing `x` from the outer (statrs' `checked_beta_inc`).
fn checked_beta_inc(a: f64, b: f64, x: f64) -> Result<f64, BetaFuncError> {
    checked_beta_reg(a, b, x).and_then(|x| checked_beta(a, b).map(|y| x * y))
}
