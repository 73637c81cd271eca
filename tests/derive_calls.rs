//! Calls between derived functions: same module, another module by path, through `use`,
//! and from another crate; checked against analytic derivatives.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;

#[derive_frule]
fn square(x: f64) -> f64 {
    x * x
}

mod inner {
    use fwdad::prelude::*;

    #[derive_frule]
    pub fn cube(x: f64) -> f64 {
        x * x * x
    }

    pub mod deeper {
        use fwdad::prelude::*;

        #[derive_frule]
        pub fn scaled(x: f64, k: f64) -> f64 {
            k * super::cube(x)
        }
    }
}

use fwdad_special::geometry::norm3;
use inner::deeper::scaled;

#[derive_frule]
fn composite(x: f64, k: f64) -> f64 {
    let a = square(x);
    let b = inner::cube(a);
    let c = scaled(x, k);
    let d = fwdad_special::softplus(c - b);
    let v = [x, 2.0 * x, k];
    d + norm3(&v) + square(3.0)
}

#[test]
fn composite_matches_chain_rule() {
    let sp = |z: f64| z.exp().ln_1p();
    let dsp = |z: f64| 1.0 / (1.0 + (-z).exp());
    for &(x, k) in &[(0.3, 1.5), (-0.8, 0.25), (1.1, -2.0)] {
        let f = composite(x, k);
        // d/dx
        let dx = composite_frule(Dual::new(x, 1.0), Dual::new(k, 0.0));
        // d/dk
        let dk = composite_frule(Dual::new(x, 0.0), Dual::new(k, 1.0));
        assert_eq!(dx.primal.to_bits(), f.to_bits());
        let z = k * x.powi(3) - x.powi(6);
        let n = (5.0 * x * x + k * k).sqrt();
        let exp_dx = dsp(z) * (3.0 * k * x * x - 6.0 * x.powi(5)) + 5.0 * x / n;
        let exp_dk = dsp(z) * x.powi(3) + k / n;
        approx::assert_relative_eq!(dx.tangent, exp_dx, max_relative = 1e-12);
        approx::assert_relative_eq!(dk.tangent, exp_dk, max_relative = 1e-12);
        let _ = sp;
    }
}
