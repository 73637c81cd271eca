// Fields of user values in arithmetic: `b.pos += b.vel * h` (a field beside a parameter)
// and `b.m * h` take the operators' rules by the operands' types (`user op`); `0.5 * b.m`
// beside a literal is float arithmetic; a sub-slice of a slice of user values is one
// (`&bodies[1..]`), and an associated constant `V3::ZERO` is of a type not shown (its
// `out[i] = ..` through the `OpRule` path).
fn user_field_ops(bodies: &mut [Body], h: f64) -> f64 {
    let mut e = 0.0;
    for b in bodies.iter_mut() {
        b.pos += b.vel * h;
        e += 0.5 * b.m + b.m * h;
    }
    for b in &bodies[1..] {
        e += b.m;
    }
    let mut out = V3::ZERO;
    out[0] = e;
    out[0]
}
