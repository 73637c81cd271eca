// A closure passed to a function borrows what it captures, as Rust's closure does: the
// `Vec` is `ref` of the variable (held as `Dual<&Vec<f64>, &Vec<S>>`, never cloned, read
// `(*w)` in the body), the float `c` is copied, and the log behind a `&mut` parameter is
// reborrowed `&mut` because the closure pushes to it.
fn weighted(p: &[f64], log: &mut Vec<String>) -> f64 {
    let w: Vec<f64> = p.iter().map(|v| v * v).collect();
    let c = p[0] * 2.0;
    sum_over(
        |i| {
            log.push(format!("{i}"));
            w[i] * c
        },
        2,
    )
}
