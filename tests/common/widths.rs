//! The every-width check of the hunts' tests (`derive_hunt5_found`, `derive_hunt6_found`):
//! one direction, batches of 1 to 16 lanes and second order against central differences,
//! NaN and infinities compared as such, and rules writing a buffer in place.

use super::modes::assert_close;

/// NaN where the reference is NaN, else close.
pub fn same(got: f64, want: f64, tol: f64, what: &str) {
    if want.is_nan() || got.is_nan() {
        assert!(want.is_nan() && got.is_nan(), "{what}: {got} vs {want}");
    } else if want.is_infinite() || got.is_infinite() {
        assert_eq!(got, want, "{what}");
    } else {
        assert_close(got, want, tol, what);
    }
}

/// Every mode at `$x`: one direction per input, batches of 1, 2, 4, 8 and 16 lanes, the
/// gradient and Hessian of second order; primals bit for bit against the plain function,
/// tangents against central differences and the batches against one direction.
#[macro_export]
macro_rules! check_widths {
    ($rule:expr, $plain:expr, $x:expr) => {{
        let x: &[f64] = &$x;
        let plain = $plain;
        let want = fd_gradient(&plain, x);
        let y: f64 = plain(x);
        let mut one = Vec::new();
        for k in 0..x.len() {
            let mut e = vec![0.0; x.len()];
            e[k] = 1.0;
            let (v, d): (f64, f64) = jvp($rule, x, &e);
            assert_eq!(v.to_bits(), y.to_bits(), "one direction: primal {v} vs {y}");
            assert_close(d, want[k], 1e-6, &format!("one direction: d/dx{k}"));
            one.push(d);
        }
        let batches: Vec<(&str, f64, Vec<f64>)> = vec![
            (
                "1 lane",
                fwdad::drivers::gradient_with::<1>($rule, x).0,
                fwdad::drivers::gradient_with::<1>($rule, x).1,
            ),
            (
                "2 lanes",
                fwdad::drivers::gradient_with::<2>($rule, x).0,
                fwdad::drivers::gradient_with::<2>($rule, x).1,
            ),
            (
                "4 lanes",
                fwdad::drivers::gradient_with::<4>($rule, x).0,
                fwdad::drivers::gradient_with::<4>($rule, x).1,
            ),
            (
                "8 lanes",
                fwdad::drivers::gradient_with::<8>($rule, x).0,
                fwdad::drivers::gradient_with::<8>($rule, x).1,
            ),
            (
                "16 lanes",
                fwdad::drivers::gradient_with::<16>($rule, x).0,
                fwdad::drivers::gradient_with::<16>($rule, x).1,
            ),
            (
                "second order",
                fwdad::drivers::hessian_with::<2>($rule, x).0,
                fwdad::drivers::hessian_with::<2>($rule, x).1,
            ),
            (
                "gradient",
                fwdad::drivers::gradient($rule, x).0,
                fwdad::drivers::gradient($rule, x).1,
            ),
        ];
        for (mode, v, d) in batches {
            assert_eq!(v.to_bits(), y.to_bits(), "{mode}: primal {v} vs {y}");
            for k in 0..x.len() {
                same(
                    d[k],
                    one[k],
                    1e-12,
                    &format!("{mode} against one direction: d/dx{k}"),
                );
            }
        }
        let mut ws = fwdad::drivers::GradientWorkspace::new();
        for plan in fwdad::drivers::GradientPlan::CANDIDATES {
            let (v, d) = ws.gradient_with_plan($rule, x, plan);
            assert_eq!(v.to_bits(), y.to_bits(), "{plan:?}: primal {v} vs {y}");
            for k in 0..x.len() {
                same(
                    d[k],
                    one[k],
                    1e-12,
                    &format!("{plan:?} against one direction: d/dx{k}"),
                );
            }
        }
        let h = fd_hessian(&plain, x);
        let (v, _, hh) = fwdad::drivers::hessian($rule, x);
        assert_eq!(v.to_bits(), y.to_bits(), "hessian: primal");
        for i in 0..x.len() {
            for j in 0..x.len() {
                assert_close(hh[(i, j)], h[i][j], 1e-4, &format!("hessian ({i}, {j})"));
            }
            let mut e = vec![0.0; x.len()];
            e[i] = 1.0;
            let (v, _, col) = fwdad::drivers::hvp($rule, x, &e);
            assert_eq!(v.to_bits(), y.to_bits(), "hvp: primal");
            for j in 0..x.len() {
                assert_close(col[j], h[j][i], 1e-4, &format!("hvp e{i}, entry {j}"));
            }
        }
    }};
}

/// A rule writing a `&mut [f64]` in place: the buffer left as the plain function leaves it
/// (bit for bit), its tangent the differences of the plain map along each axis.
pub fn check_in_place(
    rule: impl Fn(&mut [f64], &mut [f64]),
    plain: impl Fn(&mut [f64]),
    v0: &[f64],
) {
    let n = v0.len();
    let mut want = v0.to_vec();
    plain(&mut want);
    for k in 0..n {
        let (mut v, mut dv) = (v0.to_vec(), vec![0.0; n]);
        dv[k] = 1.0;
        rule(&mut v, &mut dv);
        for i in 0..n {
            assert_eq!(
                v[i].to_bits(),
                want[i].to_bits(),
                "value {i}: {} vs {}",
                v[i],
                want[i]
            );
        }
        let h = 1e-6 * v0[k].abs().max(1.0);
        let (mut p, mut m) = (v0.to_vec(), v0.to_vec());
        p[k] += h;
        m[k] -= h;
        plain(&mut p);
        plain(&mut m);
        for i in 0..n {
            assert_close(
                dv[i],
                (p[i] - m[i]) / (2.0 * h),
                1e-6,
                &format!("d out{i}/d in{k}"),
            );
        }
    }
}
