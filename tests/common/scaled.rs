//! `check_modes!` for functions whose variables have different units and sizes (radians
//! beside metres, degrees of longitude beside thousands of kilometres): each variable has a
//! scale `s[k]` (the distance over which the function changes by about its own size), the
//! finite-difference steps are `1e-6 s[k]` (gradient) and `1e-3 s[k]` (Hessian), near the
//! steps that balance truncation and rounding, and each entry is compared relative to its
//! own size plus the function's size over the scales (`|f| / s[k]`, `|f| / (s[i] s[j])`),
//! since rounding of `f` is what limits the differences.

/// ∂f/∂xₖ by central differences with steps `1e-6 s[k]`.
pub fn fd_gradient(f: &dyn Fn(&[f64]) -> f64, x: &[f64], s: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|k| {
            let h = 1e-6 * s[k];
            let (mut p, mut m) = (x.to_vec(), x.to_vec());
            p[k] += h;
            m[k] -= h;
            (f(&p) - f(&m)) / (p[k] - m[k])
        })
        .collect()
}

/// ∂²f/∂xᵢ∂xⱼ by central differences with steps `1e-3 s[k]`.
pub fn fd_hessian(f: &dyn Fn(&[f64]) -> f64, x: &[f64], s: &[f64]) -> Vec<Vec<f64>> {
    let n = x.len();
    let at = |i: usize, si: f64, j: usize, sj: f64| {
        let mut y = x.to_vec();
        y[i] += si * 1e-3 * s[i];
        y[j] += sj * 1e-3 * s[j];
        f(&y)
    };
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    (at(i, 1.0, j, 1.0) - at(i, 1.0, j, -1.0) - at(i, -1.0, j, 1.0)
                        + at(i, -1.0, j, -1.0))
                        / (4.0 * 1e-6 * s[i] * s[j])
                })
                .collect()
        })
        .collect()
}

/// `|got − want| ≤ tol (|want| + size)`.
pub fn assert_near(got: f64, want: f64, size: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (want.abs() + size),
        "{what}: {got} against finite differences {want} (size {size})"
    );
}

/// `check_modes!` with scales: the rule `$rule` against the plain `$plain` at `$x`, the
/// variables' scales `$s`; first derivatives to `1e-6`, second to `1e-4` (relative, as
/// `assert_near`): one direction per variable, batches of four, second order; each primal
/// bit for bit.
#[macro_export]
macro_rules! check_modes_scaled {
    ($rule:expr, $plain:expr, $x:expr, $s:expr) => {{
        use $crate::common::scaled::{assert_near, fd_gradient, fd_hessian};
        let x: &[f64] = &$x;
        let s: &[f64] = &$s;
        let plain = $plain;
        let y: f64 = plain(x);
        let g = fd_gradient(&plain, x, s);
        let h = fd_hessian(&plain, x, s);
        for k in 0..x.len() {
            let mut e = vec![0.0; x.len()];
            e[k] = 1.0;
            let (v, d): (f64, f64) = ::fwdad::drivers::jvp($rule, x, &e);
            assert_eq!(v.to_bits(), y.to_bits(), "one direction: primal");
            assert_near(
                d,
                g[k],
                y.abs() / s[k],
                1e-6,
                &format!("one direction: d/dx{k}"),
            );
        }
        let (v, gb) = ::fwdad::drivers::gradient_with::<4>($rule, x);
        assert_eq!(v.to_bits(), y.to_bits(), "batch: primal");
        for k in 0..x.len() {
            assert_near(
                gb[k],
                g[k],
                y.abs() / s[k],
                1e-6,
                &format!("batch: d/dx{k}"),
            );
        }
        let (v, gh, hh) = ::fwdad::drivers::hessian_with::<2>($rule, x);
        assert_eq!(v.to_bits(), y.to_bits(), "second order: primal");
        for i in 0..x.len() {
            assert_near(
                gh[i],
                g[i],
                y.abs() / s[i],
                1e-6,
                &format!("second order: d/dx{i}"),
            );
            for j in 0..x.len() {
                let size = y.abs() / (s[i] * s[j]);
                assert_near(
                    hh[(i, j)],
                    h[i][j],
                    size,
                    1e-4,
                    &format!("second order: d2/dx{i}dx{j}"),
                );
            }
        }
    }};
}
