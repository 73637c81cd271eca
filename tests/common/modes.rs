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

/// The first derivatives of a `&[f64] -> f64` rule (or a `bind` of one) in every mode (one
/// direction per input, batches of four and of one, `gradient`, second order's gradient)
/// against `$want`, or central differences of `$plain`, each primal bit for bit. For
/// points where the Hessian does not exist (`|x|·x` at 0), where `check_modes!` does not
/// apply.
#[macro_export]
macro_rules! check_first_order {
    ($rule:expr, $plain:expr, $x:expr) => {{
        let x: &[f64] = &$x;
        let plain = $plain;
        let g = $crate::common::modes::fd_gradient(&plain, x);
        $crate::check_first_order!($rule, plain, x, g)
    }};
    ($rule:expr, $plain:expr, $x:expr, $want:expr) => {{
        let x: &[f64] = &$x;
        let plain = $plain;
        let y: f64 = plain(x);
        let want: Vec<f64> = $want;
        let mut modes: Vec<(&str, f64, Vec<f64>)> = Vec::new();
        let mut one = Vec::new();
        let mut v1 = 0.0;
        for k in 0..x.len() {
            let mut e = vec![0.0; x.len()];
            e[k] = 1.0;
            let (v, d): (f64, f64) = ::fwdad::drivers::jvp($rule, x, &e);
            one.push(d);
            v1 = v;
        }
        modes.push(("one direction", v1, one));
        let (v, gb) = ::fwdad::drivers::gradient_with::<4>($rule, x);
        modes.push(("batch of 4", v, gb));
        let (v, gb) = ::fwdad::drivers::gradient_with::<1>($rule, x);
        modes.push(("batch of 1", v, gb));
        let (v, gb) = ::fwdad::drivers::gradient($rule, x);
        modes.push(("gradient", v, gb));
        let (v, gh, _) = ::fwdad::drivers::hessian_with::<2>($rule, x);
        modes.push(("second order", v, gh));
        for (mode, v, d) in modes {
            assert_eq!(v.to_bits(), y.to_bits(), "{mode}: primal");
            for k in 0..x.len() {
                $crate::common::modes::assert_close(
                    d[k],
                    want[k],
                    1e-6,
                    &format!("{mode}: d/dx{k}"),
                );
            }
        }
    }};
}
