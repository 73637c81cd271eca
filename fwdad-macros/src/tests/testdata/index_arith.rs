// Integer index arithmetic (`len`, `/`, `%`, `min`) must stay inactive plain Rust.
fn index_arith(x: &[f64], n: usize) -> f64 {
    let i = n / 2 + 1;
    let j = (i * 3) % x.len();
    let last = x.len() - 1;
    x[i] * x[j] + x[last.min(j)]
}
