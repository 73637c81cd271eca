// A closure passed to a method of the user's: one `call [closure]` of its captures, typed
// by the helpers on the receiver's type (reached through its primal), converted before
// the call lends the receiver.
fn oscillator(k: f64, c: f64) -> f64 {
    let solver = Rk4 { dt: 0.01, steps: 100 };
    let mut y = [1.0, 0.0];
    solver.integrate(
        |_t, y, dy| {
            dy[0] = y[1];
            dy[1] = -k * y[0] - c * y[1];
        },
        &mut y,
    );
    y[0]
}
