//! Central finite differences, the derivative users reach for without AD.
//!
//! `f'(x)·v ≈ (f(x + h·v) - f(x - h·v)) / 2h` with `h = ε^{1/3} · max(1, |x|∞)`, which
//! balances the `O(h²)` truncation error against the `O(ε/h)` rounding error; gradients
//! and Jacobians step each coordinate by its own `h = ε^{1/3} · max(1, |xⱼ|)`.

/// The step for central differences at `x`.
pub fn step(x: &[f64]) -> f64 {
    let scale = x.iter().fold(1f64, |m, v| m.max(v.abs()));
    f64::EPSILON.cbrt() * scale
}

/// The directional derivative of `f` at `x` along `v`, by central differences, using
/// `buf` (same length as `x`) as work space. Returns `(f(x + hv) - f(x - hv)) / 2h`.
///
/// # Panics
/// If the lengths differ.
pub fn jvp(f: impl Fn(&[f64]) -> f64, x: &[f64], v: &[f64], buf: &mut [f64]) -> f64 {
    assert!(x.len() == v.len() && x.len() == buf.len());
    let h = step(x);
    for ((b, xi), vi) in buf.iter_mut().zip(x).zip(v) {
        *b = xi + h * vi;
    }
    let fp = f(buf);
    for ((b, xi), vi) in buf.iter_mut().zip(x).zip(v) {
        *b = xi - h * vi;
    }
    let fm = f(buf);
    (fp - fm) / (2.0 * h)
}

/// The gradient of `f` at `x` by central differences: `2n` evaluations. `buf` is work
/// space of `x`'s length; the gradient is written to `grad`.
///
/// # Panics
/// If the lengths differ.
pub fn gradient(f: impl Fn(&[f64]) -> f64, x: &[f64], buf: &mut [f64], grad: &mut [f64]) {
    assert!(x.len() == buf.len() && x.len() == grad.len());
    buf.copy_from_slice(x);
    for i in 0..x.len() {
        let h = step(&x[i..i + 1]);
        buf[i] = x[i] + h;
        let fp = f(buf);
        buf[i] = x[i] - h;
        let fm = f(buf);
        buf[i] = x[i];
        grad[i] = (fp - fm) / (2.0 * h);
    }
}

/// The Jacobian columns of a vector function `f: &[f64] → [f64; M]` by central
/// differences: column `j` is written to `jac[j]`.
pub fn jacobian<const M: usize>(
    f: impl Fn(&[f64]) -> [f64; M],
    x: &[f64],
    buf: &mut [f64],
    jac: &mut [[f64; M]],
) {
    buf.copy_from_slice(x);
    for j in 0..x.len() {
        let h = step(&x[j..j + 1]);
        buf[j] = x[j] + h;
        let fp = f(buf);
        buf[j] = x[j] - h;
        let fm = f(buf);
        buf[j] = x[j];
        for i in 0..M {
            jac[j][i] = (fp[i] - fm[i]) / (2.0 * h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn central_differences_of_a_cubic() {
        let f = |x: &[f64]| x[0] * x[0] * x[0] + 2.0 * x[1];
        let x = [1.5, -2.0];
        let mut buf = [0.0; 2];
        let d = jvp(f, &x, &[1.0, 1.0], &mut buf);
        assert!((d - (3.0 * 2.25 + 2.0)).abs() < 1e-8);
        let mut g = [0.0; 2];
        gradient(f, &x, &mut buf, &mut g);
        assert!((g[0] - 6.75).abs() < 1e-8 && (g[1] - 2.0).abs() < 1e-8);
    }
}
