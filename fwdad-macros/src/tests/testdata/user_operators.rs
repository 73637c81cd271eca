// Operators on a user type: `p[i] += v[i] * dt` on `&mut [Vec3]` (the `AddAssign` and
// `Mul<f64>` rules), `-a`, `k * a` (`Mul<Vec3> for f64`), `a[1]` (`Index`); the float
// arithmetic next to them (`dt * 0.5`, `e + a.x`) stays float arithmetic.
fn user_operators(p: &mut [Vec3], v: &[Vec3], a: Vec3, dt: f64) -> f64 {
    let h = dt * 0.5;
    for i in 0..p.len() {
        p[i] += v[i] * h;
    }
    let b = -a + 2.0 * a;
    let e = b.dot(a) * dt;
    e + a.x + b[1]
}
