// Float conversions of duals: `.into()` of a generic `T: Into<f64>` bound to a `let` of
// type `f64`, `f64::from` of an `f32`, `to_f64()` (`Some` of the cast), and `T::from_f64`
// of an active `f64` (`Some` of the cast); `T::from(2.0)` of a constant stays the plain
// call.
fn convert<T: Float + FromPrimitive + Into<f64>>(x: T, g: f32) -> T {
    let y: f64 = x.into();
    let z = y * f64::from(g) + x.to_f64().unwrap();
    T::from_f64(z.sin()).unwrap() * T::from(2.0).unwrap()
}
