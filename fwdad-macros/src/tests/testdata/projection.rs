// One direction (issue 30), a quotient-heavy kernel: a pinhole projection with radial
// distortion, as in bundle adjustment, the intrinsics `k = [f, k1, k2]` constant data.
// The quotients and `rsq` have two roots each and are materialised; the distortion
// polynomial `l` is a chain of one root, `rsq`, whose `k2·rsq·rsq` term has the
// coefficient `2·(k2·rsq)`.
#[derive_frule(inactive(k))]
fn projection(p: &[f64], k: &[f64]) -> [f64; 2] {
    let px = p[0] / p[2];
    let py = p[1] / p[2];
    let rsq = px * px + py * py;
    let l = 1.0 + k[1] * rsq + k[2] * rsq * rsq;
    [k[0] * l * px, k[0] * l * py]
}
