// `loop` with `break value`, carrying an active and an integer local.
fn loop_break_value(x: f64) -> f64 {
    let mut t = x;
    let mut i = 0;
    let r = loop {
        t = t * 0.5 + 1.0;
        i += 1;
        if i >= 10 {
            break t * 2.0;
        }
    };
    r + t
}
