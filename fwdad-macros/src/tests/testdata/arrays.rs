// Arrays: a literal with active and inactive elements, a repeat, indexing.
fn arrays(x: f64, y: f64) -> f64 {
    let v = [x, y, 1.0];
    let w = [x * 2.0; 2];
    let z = [0.5; 3];
    v[0] * w[1] + v[2] * z[1] + v[1]
}
