// Calls to other functions by path: a local name, a module path, a call with only
// inactive arguments, and a float function by path.
fn calls(x: f64, y: f64, n: usize) -> f64 {
    let a = helper(x);
    let b = crate::geometry::dist(x, 3.0);
    let c = util::scale(2.0, n);
    a + b * c + f64::max(x, y)
}
