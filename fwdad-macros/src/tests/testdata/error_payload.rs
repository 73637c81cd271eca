// An error carrying a value computed from the inputs: `Err(..)` and the error value it
// holds are built on primals (the error has no tangent); the `Ok` value is a dual.
fn checked_sqrt(x: f64, tol: f64) -> Result<f64, Failure> {
    let r = x.sqrt();
    if r * r - x > tol {
        return Err(Failure::Residual { value: r * r - x });
    }
    Ok(r)
}
