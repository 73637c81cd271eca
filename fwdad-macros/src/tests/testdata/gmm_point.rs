// The per-point loop of ADBench's GMM objective: each point's centred coordinates and
// their product with `Q_k` go through local buffers. In a chunked gradient most components'
// parameters are unseeded, so most values stored into `xc` and `qx` are known zeros.
#[derive_frule(inactive(x))]
fn gmm_point(theta: &[f64], x: &[f64], d: usize, k: usize) -> f64 {
    let n = x.len() / d;
    let icf_sz = d * (d + 1) / 2;
    let ioff = k + k * d;
    let mut xc = vec![0.0; d];
    let mut qx = vec![0.0; d];
    let mut total = 0.0;
    for ix in 0..n {
        for ik in 0..k {
            for j in 0..d {
                xc[j] = x[ix * d + j] - theta[k + ik * d + j];
            }
            for j in 0..d {
                qx[j] = theta[ioff + ik * icf_sz + j].exp() * xc[j];
            }
            let mut li = ioff + ik * icf_sz + d;
            for i in 0..d {
                for j in i + 1..d {
                    qx[j] += theta[li] * xc[i];
                    li += 1;
                }
            }
            let mut sq = 0.0;
            for j in 0..d {
                sq += qx[j] * qx[j];
            }
            total += theta[ik] - 0.5 * sq;
        }
    }
    total
}
