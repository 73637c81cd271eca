// A local buffer that starts as constants and receives an active store.
fn local_buffer(x: f64, y: f64) -> f64 {
    let mut buf = [0.0; 3];
    buf[1] = x * y;
    buf[2] = 4.0;
    buf[0] + buf[1] + buf[2]
}
