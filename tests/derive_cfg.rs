//! `#[cfg(..)]` inside a differentiated item: statements, `let`s, match arms,
//! struct-literal fields and methods under a condition. The rule computes what the
//! function computes in the configuration being compiled (integration tests are built with
//! `cfg(test)` and without `feature = "std"`), against closed forms, primals bit for bit.
//! Found in sgp4 (`tests/sgp4_verbatim.rs`), whose sidereal time reduces modulo 2π under
//! `#[cfg(feature = "std")]` and, equally, under `#[cfg(not(feature = "std"))]`; before,
//! the rule took whichever block came last.

#![allow(unexpected_cfgs)]

use fwdad::prelude::*;

/// The same model with a debug-build correction, as crates write feature switches.
#[derive_frule]
fn drag(v: f64, k: f64) -> f64 {
    #[cfg(test)]
    let c = 0.5 * k;
    #[cfg(not(test))]
    let c = 2.0 * k;
    #[cfg(feature = "fast-math")]
    {
        c * v * v
    }
    #[cfg(not(feature = "fast-math"))]
    {
        c * v * v.abs()
    }
}

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
struct Gains {
    p: f64,
    d: f64,
}

#[derive_frule]
fn gains(x: f64, mode: u8) -> f64 {
    let g = Gains {
        #[cfg(test)]
        p: 3.0 * x,
        #[cfg(not(test))]
        p: x,
        d: x * x,
    };
    match mode {
        #[cfg(any(test, feature = "std"))]
        0 => g.p + g.d,
        #[cfg(not(any(test, feature = "std")))]
        0 => g.p - g.d,
        _ => g.p * g.d,
    }
}

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
struct Spring {
    k: f64,
}

#[derive_frule]
impl Spring {
    #[cfg(test)]
    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
    #[cfg(not(test))]
    fn energy(&self, x: f64) -> f64 {
        self.k * x
    }
}

#[derive_frule]
fn spring_energy(x: f64) -> f64 {
    let s = Spring { k: 4.0 };
    s.energy(x)
}

#[test]
fn statements_under_cfg() {
    for (v, k) in [(1.5, 2.0), (-0.7, 3.0)] {
        let (y, dv) = derivative(bind(drag {}, (Var(0), k)), v);
        assert_eq!(y.to_bits(), drag(v, k).to_bits());
        // 0.5 k v |v| in a test build without `fast-math`: d/dv = k |v|.
        assert!((y - 0.5 * k * v * f64::abs(v)).abs() < 1e-15);
        assert!((dv - k * f64::abs(v)).abs() < 1e-12, "{dv}");
    }
}

#[test]
fn fields_and_arms_under_cfg() {
    let x = 1.25;
    let (y, d) = derivative(bind(gains {}, (Var(0), 0)), x);
    assert_eq!(y.to_bits(), gains(x, 0).to_bits());
    // 3x + x²
    assert!((d - (3.0 + 2.0 * x)).abs() < 1e-12);
    let (y, d) = derivative(bind(gains {}, (Var(0), 1)), x);
    assert_eq!(y.to_bits(), gains(x, 1).to_bits());
    // 3x³
    assert!((d - 9.0 * x * x).abs() < 1e-12);
}

#[test]
fn methods_under_cfg() {
    let (y, d) = derivative(spring_energy {}, 0.5);
    assert_eq!(y.to_bits(), spring_energy(0.5).to_bits());
    // 2 x²
    assert!((d - 2.0).abs() < 1e-12);
}
