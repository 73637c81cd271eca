// A chain of six roots into an accumulator (issue 30): springs on flat coordinates. In one
// direction (`LINEARIZE_SINGLE_ROOT`) `dx`, `dy`, `dz` are materialised, then
// `ṅ = 2·(dx·ḋx + dy·ḋy + dz·ḋz)` for `n = dx² + dy² + dz²` (the squares' factor 2 once),
// and `½k·s` is absorbed into `(½k·s)·s` (its roots, `k` and `n`, are the product's either
// way), whose coefficient on `n` is `2·(½k·s)·∂s/∂n` and whose term in `k` drops out at
// compile time for a constant `k` (`ConstTangent`): `ė + c·ṅ` per spring, one finite
// test. In batches the differences are materialised (`linear__spring_energy_flat`) and the
// accumulator's tangent is one multiply-add per difference.
#[derive_frule(inactive(springs, rest))]
fn spring_energy_flat(x: &[f64], springs: &[(usize, usize)], rest: &[f64], k: f64) -> f64 {
    let mut e = 0.0;
    for s in 0..springs.len() {
        let (i, j) = springs[s];
        let dx = x[3 * i] - x[3 * j];
        let dy = x[3 * i + 1] - x[3 * j + 1];
        let dz = x[3 * i + 2] - x[3 * j + 2];
        let stretch = (dx * dx + dy * dy + dz * dz).sqrt() - rest[s];
        e += 0.5 * k * stretch * stretch;
    }
    e
}
