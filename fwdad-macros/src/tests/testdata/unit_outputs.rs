// Returns `()`: only writes its outputs, through `&mut [f64]` and `&mut f64`.
fn unit_outputs(x: &[f64], a: f64, out: &mut [f64], total: &mut f64) {
    for i in 0..x.len() {
        out[i] = a * x[i];
    }
    *total = a * 0.5;
}
