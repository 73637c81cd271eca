// Nothing is active: integer parameters, integer arithmetic, a loop.
fn integer_only(n: usize, m: &[usize]) -> usize {
    let mut s = 0;
    for i in 0..n {
        s += m[i] * 2;
    }
    s + m.len()
}
