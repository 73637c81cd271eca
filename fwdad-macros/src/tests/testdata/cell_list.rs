// A cell list in a `HashMap` of integers, written on its `let`: iterated by its own
// iterator (`for (&(cx, _), members) in &cells`, a plain `for` over a constant), not as a
// slice by index; the pair loop inside reads the differentiated positions.
fn cell_list(xy: &[f64]) -> f64 {
    let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, p) in xy.chunks_exact(2).enumerate() {
        cells.entry((p[0].floor() as i64, p[1].floor() as i64)).or_default().push(i);
    }
    let mut e = 0.0;
    for (&(cx, _), members) in &cells {
        for &i in members {
            e += xy[2 * i] * cx as f64;
        }
    }
    e
}
