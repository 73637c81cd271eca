// `as` casts: float to float keeps the tangent, float to integer drops it, integer to
// float starts inactive.
fn casts(x: f64, n: i32) -> f64 {
    let a = x as f32;
    let b = (a * 2.0) as f64;
    let k = n as f64;
    let i = x.floor() as usize + 1;
    b + k * x + i as f64
}
