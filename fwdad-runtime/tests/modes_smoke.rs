//! Smoke test of the three tangent representations against analytic derivatives
//! (f(x) = sin(x)·x, f' = cos x·x + sin x, f'' = 2cos x − x sin x).
use fwdad_runtime::{Batch, Dual, Hyper};

#[test]
fn first_batch_and_second_order_agree_with_analytic() {
    let x0 = 0.7_f64;
    let (f, d1, d2) = (
        x0.sin() * x0,
        x0.cos() * x0 + x0.sin(),
        2.0 * x0.cos() - x0 * x0.sin(),
    );

    let y = Dual::new(x0, 1.0).sin() * Dual::new(x0, 1.0);
    assert_eq!(y.primal, f);
    approx::assert_relative_eq!(y.tangent, d1, epsilon = 1e-14);

    let xb = Dual::new(x0, Batch([1.0, 2.0, 0.0, -1.0]));
    let yb = xb.sin() * xb;
    for (k, s) in [1.0, 2.0, 0.0, -1.0].into_iter().enumerate() {
        approx::assert_relative_eq!(yb.tangent.0[k], s * d1, epsilon = 1e-14);
    }

    let xh = Dual::new(
        x0,
        Hyper {
            d1: 1.0,
            d2: 1.0,
            d12: 0.0,
        },
    );
    let yh = xh.sin() * xh;
    approx::assert_relative_eq!(yh.tangent.d1, d1, epsilon = 1e-14);
    approx::assert_relative_eq!(yh.tangent.d2, d1, epsilon = 1e-14);
    approx::assert_relative_eq!(yh.tangent.d12, d2, epsilon = 1e-14);

    // Mixed active/inactive binary rules and f32.
    let a = Dual::new(1.5_f32, 1.0);
    let z = fwdad_runtime::ops::atan2(a, 2.0_f32);
    approx::assert_relative_eq!(z.tangent, 2.0 / (1.5 * 1.5 + 4.0), epsilon = 1e-6);
    let z = fwdad_runtime::ops::atan2(2.0_f32, a);
    approx::assert_relative_eq!(z.tangent, -2.0 / (1.5 * 1.5 + 4.0), epsilon = 1e-6);
}
