//! `#[derive_frule]` on an `impl` block: `&self` and `&mut self` methods, associated
//! functions, calls by method syntax and by path from other derived bodies.
use fwdad::prelude::*;
use fwdad::testing::test_frule;

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
}

#[derive_frule]
impl Spring {
    /// Potential energy at extension `x`.
    pub fn energy(&self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d
    }

    /// Force, calling another method by method syntax.
    pub fn force(&self, x: f64) -> f64 {
        -self.k * (x - self.rest) + 0.0 * self.energy(x)
    }

    /// Stiffens the spring in place.
    pub fn stiffen(&mut self, by: f64) {
        self.k *= 1.0 + by;
    }

    /// An associated function building a spring.
    pub fn scaled(k: f64, s: f64) -> Self {
        Self {
            k: k * s,
            rest: 1.0,
        }
    }
}

/// Calls by method syntax on an active receiver, on a constant receiver, and by path.
#[derive_frule]
fn total(s: &Spring, x: f64) -> f64 {
    let fixed = Spring { k: 2.0, rest: 0.5 };
    let mut t = Spring::scaled(s.k, 2.0);
    t.stiffen(x);
    s.energy(x) + fixed.energy(x) + Spring::force(&t, x)
}

#[test]
fn methods_through_their_rules() {
    let s = Spring { k: 3.0, rest: 0.25 };
    test_frule(
        (s, 1.5),
        |a| total(&a.0, a.1),
        |a, da| total_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
    );
    // Analytic d/dx: k(x − r) + 2(x − 0.5) + d/dx[−6(1+x)(x − 1)] = 3·1.25 + 2 − 6(2x) → at x = 1.5
    let t = SpringTangent { k: 0.0, rest: 0.0 };
    let d = total_frule(Dual::new(&s, &t), Dual::new(1.5, 1.0));
    assert_eq!(d.primal, total(&s, 1.5));
    approx::assert_relative_eq!(
        d.tangent,
        3.0 * 1.25 + 2.0 * 1.0 - 6.0 * 2.0 * 1.5,
        max_relative = 1e-14
    );
    // The one-direction entry point of a method.
    let e = Spring::energy_frule(Dual::new(&s, &t), Dual::new(1.5, 1.0));
    assert_eq!((e.primal, e.tangent), (s.energy(1.5), 3.0 * 1.25));
}
