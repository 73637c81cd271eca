// `max_by` with a comparator closure: the first element, then a counted loop keeping the
// best element (its dual, chosen by the primal comparison), wrapped in `Some`/`None`.
fn largest(x: &[f64]) -> Option<f64> {
    x.iter().copied().max_by(|a, b| a.total_cmp(b))
}
