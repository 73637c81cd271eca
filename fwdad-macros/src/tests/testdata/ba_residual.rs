// ADBench's bundle-adjustment reprojection residual (fwdad-bench/src/ba.rs): a straight-line
// chain with 2 outputs and 15 roots, in batches accumulated backwards (preaccumulation).
fn ba_residual(cam: &[f64], x: &[f64], w: f64, fx: f64, fy: f64) -> [f64; 2] {
    let r0 = cam[0];
    let r1 = cam[1];
    let r2 = cam[2];
    let xo0 = x[0] - cam[3];
    let xo1 = x[1] - cam[4];
    let xo2 = x[2] - cam[5];
    let sqtheta = r0 * r0 + r1 * r1 + r2 * r2;
    let (xc0, xc1, xc2) = if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let st = theta.sin();
        let ct = theta.cos();
        let w0 = r0 / theta;
        let w1 = r1 / theta;
        let w2 = r2 / theta;
        let wx0 = w1 * xo2 - w2 * xo1;
        let wx1 = w2 * xo0 - w0 * xo2;
        let wx2 = w0 * xo1 - w1 * xo0;
        let tmp = (w0 * xo0 + w1 * xo1 + w2 * xo2) * (1.0 - ct);
        (
            xo0 * ct + wx0 * st + w0 * tmp,
            xo1 * ct + wx1 * st + w1 * tmp,
            xo2 * ct + wx2 * st + w2 * tmp,
        )
    } else {
        (
            xo0 + (r1 * xo2 - r2 * xo1),
            xo1 + (r2 * xo0 - r0 * xo2),
            xo2 + (r0 * xo1 - r1 * xo0),
        )
    };
    let px = xc0 / xc2;
    let py = xc1 / xc2;
    let rsq = px * px + py * py;
    let l = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    let projx = px * l * cam[6] + cam[7];
    let projy = py * l * cam[6] + cam[8];
    [w * (projx - fx), w * (projy - fy)]
}
