// The Jacobian entry of a forwarding body: sub-slices and an element of `p` passed to
// another rule, whose entry it calls with the arguments' columns shifted.
fn packed(p: &[f64], k: f64) -> [f64; 2] {
    spring(&p[1..3], &p[3..], p[0], k)
}
