// Two weighted residuals under a one-sided Huber loss: each `if` yields one value (the
// second's `else` is an `if` again). In batches the chain continues through them: each arm
// yields its value's primal and coefficients (`__d{phi}_{k}`), and the two outputs are
// accumulated backwards through the phis (tests/derive_preacc.rs checks the values).
fn huber_pair(p: &[f64]) -> [f64; 2] {
    let delta = p[4];
    let e0 = p[0] * p[5] + p[1] * p[6] - p[7];
    let e1 = p[2] * p[5] + p[3] * p[6] - p[8];
    let h0 = if e0 > delta {
        delta * (e0 - 0.5 * delta)
    } else {
        0.5 * e0 * e0
    };
    let h1 = if e1 > delta {
        delta * (e1 - 0.5 * delta)
    } else if e1 < -delta {
        -delta * (e1 + 0.5 * delta)
    } else {
        0.5 * e1 * e1
    };
    [p[9] * h0, p[9] * h1.sqrt()]
}
