// Writes through a user type's `IndexMut`: `t[(i, i)] += ..` on a local `Mat3` built from
// a literal (the `&mut` element the rule returns is stored through, and the local becomes
// active from its definition), `p[k][c] = ..` on an element of `&mut [Vec3]` (borrowed as
// it is, not borrowed again), and a read `t[(0, 1)]` through `Index`.
fn user_index_mut(p: &mut [Vec3], x: &[f64]) -> f64 {
    let mut t = Mat3 { a: [0.0; 9] };
    for i in 0..3 {
        t[(i, i)] += x[i] * x[i];
    }
    for k in 0..p.len() {
        for c in 0..3 {
            p[k][c] = x[c] * t[(c, c)];
        }
    }
    t[(0, 1)] + t[(1, 1)]
}
