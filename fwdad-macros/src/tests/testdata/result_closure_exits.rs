// `?` and `return` inside a combinator's closure: its body becomes a labelled block they
// break out of (`?` as a `match` on the runtime's `branch`, leaving with `residual`).
fn two_falls(h: f64, g: f64) -> Result<f64, FallError> {
    fall_time(h, g).and_then(|t| {
        let u = fall_time(2.0 * h, g)?;
        if u > 100.0 {
            return Err(FallError::TooLong);
        }
        Ok(t + u)
    })
}
