//! ADBench's correctness criterion: element-wise `|x - y| / max(1, |x| + |y|) < 1e-8`.

/// ADBench's tolerance for exact derivatives.
pub const TOL: f64 = 1e-8;

/// A looser tolerance for central finite differences (truncation and rounding error
/// of order `h²` and `eps / h`, with `h ≈ 6e-6`).
pub const FD_TOL: f64 = 1e-5;

/// `|x - y| / max(1, |x| + |y|)`.
#[inline]
pub fn rel_err(x: f64, y: f64) -> f64 {
    (x - y).abs() / 1f64.max(x.abs() + y.abs())
}

/// The largest [`rel_err`] over two slices of the same length (infinite when the lengths
/// differ or a value is NaN).
pub fn max_rel_err(a: &[f64], b: &[f64]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    a.iter().zip(b).fold(0.0, |m, (&x, &y)| {
        let e = rel_err(x, y);
        if e.is_nan() {
            f64::INFINITY
        } else {
            m.max(e)
        }
    })
}

/// Panics with a message naming `what` unless every pair is within `tol`.
///
/// # Panics
/// If the slices differ in length or any pair differs by `tol` or more.
pub fn assert_close_tol(what: &str, got: &[f64], want: &[f64], tol: f64) {
    let e = max_rel_err(got, want);
    assert!(
        e < tol,
        "{what}: max relative error {e:e} ≥ {tol:e} (lengths {} and {})",
        got.len(),
        want.len()
    );
}

/// [`assert_close_tol`] with ADBench's [`TOL`].
///
/// # Panics
/// As [`assert_close_tol`].
pub fn assert_close(what: &str, got: &[f64], want: &[f64]) {
    assert_close_tol(what, got, want, TOL);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_is_relative_above_one_and_absolute_below() {
        assert!(rel_err(1e9, 1e9 + 1.0) < TOL);
        assert!(rel_err(0.0, 1e-9) < TOL);
        assert!(rel_err(0.0, 1e-7) > TOL);
        assert_eq!(max_rel_err(&[1.0], &[1.0, 2.0]), f64::INFINITY);
        assert_eq!(max_rel_err(&[f64::NAN], &[1.0]), f64::INFINITY);
    }
}
