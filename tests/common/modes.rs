//! The check every mode gets in the idiom tests: a rule of a `&[f64] -> f64` function
//! against central differences of the plain one, in one direction, in batches and at
//! second order, each primal bit for bit (`check_modes!`).

/// ∂f/∂xₖ by central differences.
pub fn fd_gradient(f: &dyn Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|k| {
            let h = 1e-6 * x[k].abs().max(1.0);
            let (mut p, mut m) = (x.to_vec(), x.to_vec());
            p[k] += h;
            m[k] -= h;
            (f(&p) - f(&m)) / (2.0 * h)
        })
        .collect()
}

/// ∂²f/∂xᵢ∂xⱼ by central differences of the plain function.
pub fn fd_hessian(f: &dyn Fn(&[f64]) -> f64, x: &[f64]) -> Vec<Vec<f64>> {
    let n = x.len();
    let h = 1e-4;
    let at = |i: usize, si: f64, j: usize, sj: f64| {
        let mut y = x.to_vec();
        y[i] += si * h;
        y[j] += sj * h;
        f(&y)
    };
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    (at(i, 1.0, j, 1.0) - at(i, 1.0, j, -1.0) - at(i, -1.0, j, 1.0)
                        + at(i, -1.0, j, -1.0))
                        / (4.0 * h * h)
                })
                .collect()
        })
        .collect()
}

pub fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} against finite differences {want}"
    );
}

/// Checks the rule `$rule` (a `&[f64] -> f64` rule, or a `bind` of one) against the plain
/// function `$plain` at `$x`: one direction per input (`jvp`), the gradient in batches of
/// four (`gradient_with::<4>`), and the Hessian at second order (`hessian_with::<2>`),
/// each against central differences, each primal bit for bit.
#[macro_export]
macro_rules! check_modes {
    ($rule:expr, $plain:expr, $x:expr) => {{
        let x: &[f64] = &$x;
        let plain = $plain;
        let y: f64 = plain(x);
        let g = $crate::common::modes::fd_gradient(&plain, x);
        let h = $crate::common::modes::fd_hessian(&plain, x);
        assert!(
            g.iter().any(|d| *d != 0.0),
            "a test point with a zero gradient"
        );
        for k in 0..x.len() {
            let mut e = vec![0.0; x.len()];
            e[k] = 1.0;
            let (v, d): (f64, f64) = ::fwdad::drivers::jvp($rule, x, &e);
            assert_eq!(v.to_bits(), y.to_bits(), "one direction: primal");
            $crate::common::modes::assert_close(d, g[k], 1e-6, &format!("one direction: d/dx{k}"));
        }
        let (v, gb) = ::fwdad::drivers::gradient_with::<4>($rule, x);
        assert_eq!(v.to_bits(), y.to_bits(), "batch: primal");
        for k in 0..x.len() {
            $crate::common::modes::assert_close(gb[k], g[k], 1e-6, &format!("batch: d/dx{k}"));
        }
        let (v, gh, hh) = ::fwdad::drivers::hessian_with::<2>($rule, x);
        assert_eq!(v.to_bits(), y.to_bits(), "second order: primal");
        for i in 0..x.len() {
            $crate::common::modes::assert_close(
                gh[i],
                g[i],
                1e-6,
                &format!("second order: d/dx{i}"),
            );
            for j in 0..x.len() {
                $crate::common::modes::assert_close(
                    hh[(i, j)],
                    h[i][j],
                    1e-4,
                    &format!("second order: d2/dx{i}dx{j}"),
                );
            }
        }
    }};
}
