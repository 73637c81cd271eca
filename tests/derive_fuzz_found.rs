//! Code the differential fuzzer (`fwdad-fuzz`) generated that failed to compile or gave
//! wrong derivatives, written here as users write it and checked against central finite
//! differences of the plain function in one direction, batched and at second order
//! (`check_modes!`, primals bit for bit), and against derivatives written from the math.

use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

/// A 1-D constitutive law with a default energy.
#[derive_frule]
pub trait Material {
    fn stress(&self, strain: f64) -> f64;
    fn energy(&self, strain: f64) -> f64 {
        0.5 * strain * self.stress(strain)
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Linear {
    pub e: f64,
}

#[derive_frule]
impl Material for Linear {
    fn stress(&self, s: f64) -> f64 {
        self.e * s
    }
}

/// Softening: `σ = e·tanh(s)`, energy `e·ln cosh(s)`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Softening {
    pub e: f64,
}

#[derive_frule]
impl Material for Softening {
    fn stress(&self, s: f64) -> f64 {
        self.e * s.tanh()
    }
    fn energy(&self, s: f64) -> f64 {
        self.e * s.cosh().ln()
    }
}

/// The material chosen at run time behind a typed `&dyn` (fuzz seed 1: the typed `let`
/// expected `Dual<&dyn Material, &NoTangent>` and found `Dual<&Linear, ..>`).
#[derive_frule]
fn bar_energy(strains: &[f64]) -> f64 {
    let (soft, linear) = (Softening { e: 3.0 }, Linear { e: 2.0 });
    let m: &dyn Material = if strains[0] > 0.0 { &soft } else { &linear };
    strains.iter().map(|&s| m.energy(s)).sum()
}

/// The same law boxed.
#[derive_frule]
fn boxed_energy(strains: &[f64]) -> f64 {
    let m: Box<dyn Material> = Box::new(Softening { e: 3.0 });
    let mut e = 0.0;
    for &s in strains {
        e += m.energy(s);
    }
    e
}

#[test]
fn typed_let_of_a_trait_object() {
    for x in [[0.4, -0.7, 1.1], [-0.3, 0.8, 0.2]] {
        check_modes!(bar_energy {}, bar_energy, x);
        check_modes!(boxed_energy {}, boxed_energy, x);
        // d/ds of 3 ln cosh s is 3 tanh s; of s² (Linear, e = 2) it is 2s.
        let (_, g) = gradient(bar_energy {}, &x);
        let (_, gb) = gradient(boxed_energy {}, &x);
        for k in 0..3 {
            let want = if x[0] > 0.0 {
                3.0 * x[k].tanh()
            } else {
                2.0 * x[k]
            };
            assert_close(g[k], want, 1e-14, "bar_energy");
            assert_close(gb[k], 3.0 * x[k].tanh(), 1e-14, "boxed_energy");
        }
    }
}

/// Composite midpoint rule on four panels.
#[derive_frule]
pub fn midpoint(f: &dyn Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    let h = (b - a) / 4.0;
    let mut s = 0.0;
    for i in 0..4 {
        s += f(a + (i as f64 + 0.5) * h);
    }
    s * h
}

/// `f` at both ends, weighted.
#[derive_frule]
pub fn ends<F: Fn(f64) -> f64>(f: F, a: f64, b: f64) -> f64 {
    0.25 * f(a) + 0.75 * f(b)
}

/// A constant density integrated over `[x₀, x₁]`: the closure returns a captured local
/// that does not depend on the inputs (fuzz seed 3: `Promoted<'_, f64, _>` does not
/// implement `PromoteRef`).
#[derive_frule]
fn uniform_mass(x: &[f64]) -> f64 {
    let rho: f64 = 2.5;
    midpoint(&|_t| rho, x[0], x[1]) + ends(|_t| rho, x[0], x[1]) * x[0]
}

/// A parameter declared `inactive` returned on one branch.
#[derive_frule(inactive(floor))]
fn clamp_below(x: f64, floor: f64) -> f64 {
    if x > floor {
        x * x
    } else {
        floor
    }
}

/// Pressure `p₀·(1 + x)` integrated, `p₀` from a derived call on constants: a captured
/// float whose type the macro does not see (fuzz: a constant from a helper's call).
#[derive_frule]
fn load(x: &[f64]) -> f64 {
    let p0 = ends(|t| t * t, 1.0, 2.0);
    midpoint(&|t| p0 * (1.0 + t), x[0], x[1])
}

/// A constant found by a fixed-point `loop`, captured (fuzz seed 9: the `loop`'s value had
/// no type, and its promotion did not compile).
#[derive_frule]
fn settled_mass(x: &[f64]) -> f64 {
    let mut rho = 0.5;
    let settled = loop {
        rho = 0.5 * rho + 1.0;
        if rho > 1.9 {
            break rho;
        }
    };
    midpoint(&|_t| settled, x[0], x[1]) * x[0]
}

#[test]
fn closure_capturing_untyped_constants() {
    let x = [0.3, 1.7];
    check_modes!(load {}, load, x);
    check_modes!(settled_mass {}, settled_mass, x);
    // p₀ = 0.25 + 0.75·4 = 3.25; ∫ p₀(1 + t) dt is exact for the midpoint rule.
    let (_, g) = gradient(load {}, &x);
    assert_close(g[0], -3.25 * (1.0 + x[0]), 1e-14, "load d/dx0");
    assert_close(g[1], 3.25 * (1.0 + x[1]), 1e-14, "load d/dx1");
    // ρ settles at 1.90625 after four steps: m = ρ (x₁ − x₀) x₀.
    let rho = 1.90625;
    let (_, g) = gradient(settled_mass {}, &x);
    assert_close(g[0], rho * (x[1] - 2.0 * x[0]), 1e-14, "settled d/dx0");
    assert_close(g[1], rho * x[0], 1e-14, "settled d/dx1");
}

#[test]
fn closure_returning_a_captured_constant() {
    let x = [0.3, 1.7];
    check_modes!(uniform_mass {}, uniform_mass, x);
    // 2.5·(x₁ − x₀) + 2.5·x₀: ∂/∂x₀ = 0, ∂/∂x₁ = 2.5.
    let (_, g) = gradient(uniform_mass {}, &x);
    assert_close(g[0], 0.0, 1e-14, "d/dx0");
    assert_close(g[1], 2.5, 1e-14, "d/dx1");
}

/// The same constant passed on, to a rule that declares it `inactive` too and to one that
/// does not.
#[derive_frule(inactive(floor))]
fn clamp_both(x: f64, floor: f64) -> f64 {
    clamp_below(x, floor) + scaled(x, floor)
}

#[derive_frule]
fn scaled(x: f64, k: f64) -> f64 {
    k * x.sin()
}

#[test]
fn inactive_scalar_parameter_passed_on() {
    for x in [1.5, -0.5] {
        let (y, d) = derivative(bind(clamp_both {}, (Wrt, Inactive(0.0))), x);
        assert_eq!(y.to_bits(), clamp_both(x, 0.0).to_bits());
        let want = if x > 0.0 { 2.0 * x } else { 0.0 };
        assert_close(d, want, 1e-15, "d/dx");
        let (_, d) = derivative(bind(clamp_both {}, (Wrt, Inactive(0.25))), x);
        let want = if x > 0.25 { 2.0 * x } else { 0.0 } + 0.25 * x.cos();
        assert_close(d, want, 1e-15, "d/dx, floor 0.25");
    }
}

#[test]
fn inactive_scalar_parameter_returned() {
    for (x, want) in [(1.5, 3.0), (-0.5, 0.0)] {
        let (y, d) = derivative(bind(clamp_below {}, (Wrt, Inactive(0.0))), x);
        assert_eq!(y.to_bits(), clamp_below(x, 0.0).to_bits());
        assert_close(d, want, 1e-15, "d/dx");
    }
}
