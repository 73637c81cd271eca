// `for` over a range with loop-carried values: an accumulator that starts inactive
// (`0.0`) and becomes active, and an integer counter that stays inactive.
fn for_accumulate(x: &[f64], n: usize) -> f64 {
    let mut acc = 0.0;
    let mut count = 0;
    for i in 0..n {
        acc += x[i] * x[i];
        count += 1;
    }
    acc / count as f64
}
