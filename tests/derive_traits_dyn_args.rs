//! A value of a type whose `impl` of a trait carries `#[derive_frule]`, passed straight to
//! a `&dyn Trait` or `Box<dyn Trait>` parameter of a derived function (Rust's unsizing
//! coercion at the call): `&Linear { .. }`, `&steel` of a typed local, `Box::new(..)`,
//! in one direction, in batches and at second order, against central differences of the
//! plain function, each primal bit for bit.

mod common;

use fwdad::prelude::*;
use fwdad::Const;

/// A 1-D constitutive law: `stress` is required, `energy` a default using it.
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

/// Stretch `l = 1 + s`: `W = mu/2 (l² + 2/l - 3) + lambda/2 ln² l`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct NeoHookean {
    pub mu: f64,
    pub lambda: f64,
}

#[derive_frule]
impl Material for Linear {
    fn stress(&self, s: f64) -> f64 {
        self.e * s
    }
}

#[derive_frule]
impl Material for NeoHookean {
    fn stress(&self, s: f64) -> f64 {
        let l = 1.0 + s;
        self.mu * (l - 1.0 / (l * l)) + self.lambda * l.ln() / l
    }
    fn energy(&self, s: f64) -> f64 {
        let l = 1.0 + s;
        0.5 * self.mu * (l * l + 2.0 / l - 3.0) + 0.5 * self.lambda * l.ln() * l.ln()
    }
}

/// The strain energy of a segment of length `len` stretched from `a` to `b`.
#[derive_frule]
fn segment_energy(m: &dyn Material, a: f64, b: f64, len: f64) -> f64 {
    let strain = (b - a - len) / len;
    len * m.energy(strain)
}

#[derive_frule]
fn boxed_energy(m: Box<dyn Material>, strain: f64) -> f64 {
    m.energy(strain) + 0.1 * m.stress(strain) * strain
}

/// A bar of three segments between four nodes `x`, the first of steel, the second
/// rubber, the third steel again, with a boxed spring of its own to the wall at the end.
#[derive_frule]
fn bar_energy(x: &[f64]) -> f64 {
    let steel: Linear = Linear { e: 210.0 };
    let rubber = NeoHookean {
        mu: 1.5,
        lambda: 4.0,
    };
    segment_energy(&steel, x[0], x[1], 1.0)
        + segment_energy(&rubber, x[1], x[2], 0.5)
        + segment_energy(&Linear { e: 70.0 }, x[2], x[3], 1.0)
        + boxed_energy(Box::new(Linear { e: 3.0 }), x[3] - 2.5)
        + boxed_energy(Box::new(rubber), x[0])
}

/// The same, with the segments' materials chosen by a flag: the trait objects built in
/// the branches of an `if`.
#[derive_frule]
fn chosen_energy(x: &[f64]) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        let len = 1.0 + 0.1 * i as f64;
        if i % 2 == 0 {
            e += segment_energy(&Linear { e: 50.0 + i as f64 }, x[i], x[i + 1], len);
        } else {
            e += segment_energy(
                &NeoHookean {
                    mu: 2.0,
                    lambda: 1.0,
                },
                x[i],
                x[i + 1],
                len,
            );
        }
    }
    e
}

#[test]
fn struct_literal_typed_local_and_box_passed_to_dyn_parameters_in_every_mode() {
    let x = [0.05, 1.12, 1.58, 2.63];
    check_modes!(bar_energy {}, bar_energy, x);
}

#[test]
fn trait_objects_built_in_branches_in_every_mode() {
    let x = [0.0, 1.03, 2.05, 3.4, 4.55];
    check_modes!(chosen_energy {}, chosen_energy, x);
}

#[test]
fn the_direct_argument_gives_the_numbers_of_the_written_coercion() {
    /// The same bar with the coercions written out, as before they were needed.
    #[derive_frule]
    fn written(x: &[f64]) -> f64 {
        let steel: Linear = Linear { e: 210.0 };
        segment_energy(&steel as &dyn Material, x[0], x[1], 1.0)
            + boxed_energy(Box::new(Linear { e: 3.0 }) as Box<dyn Material>, x[1])
    }
    #[derive_frule]
    fn direct(x: &[f64]) -> f64 {
        let steel: Linear = Linear { e: 210.0 };
        segment_energy(&steel, x[0], x[1], 1.0) + boxed_energy(Box::new(Linear { e: 3.0 }), x[1])
    }
    let x = [0.1, 1.2];
    let (vw, gw) = gradient(written {}, &x);
    let (vd, gd) = gradient(direct {}, &x);
    assert_eq!(vw.to_bits(), vd.to_bits());
    assert_eq!(gw, gd);
    // Closed form: 210·s with s = x1 - x0 - 1, and 3 (1.1)·x1 for the spring.
    let s = x[1] - x[0] - 1.0;
    assert!((gd[0] + 210.0 * s).abs() < 1e-12);
    assert!((gd[1] - 210.0 * s - 3.0 * 1.2 * x[1]).abs() < 1e-12);
}

/// A trait object that may cross threads (`+ Send`, `+ Sync`).
#[derive_frule]
fn shared_segment(m: &(dyn Material + Sync), a: f64, b: f64) -> f64 {
    m.energy(b - a - 1.0)
}

#[derive_frule]
fn sent_spring(m: Box<dyn Material + Send>, s: f64) -> f64 {
    m.stress(s) * s
}

#[derive_frule]
fn threaded_bar(x: &[f64]) -> f64 {
    shared_segment(&Linear { e: 70.0 }, x[0], x[1])
        + shared_segment(
            &NeoHookean {
                mu: 2.0,
                lambda: 1.0,
            },
            x[1],
            x[2],
        )
        + sent_spring(Box::new(Linear { e: 5.0 }), x[2] - 2.0)
}

#[test]
fn send_and_sync_trait_objects_in_every_mode() {
    check_modes!(threaded_bar {}, threaded_bar, [0.02, 1.1, 2.3]);
    // Bound as constants in a driver, as a `dyn Material` is.
    let m: &(dyn Material + Sync) = &Linear { e: 70.0 };
    let (v, g) = gradient(
        bind(shared_segment {}, (Const(m), Var(0), Var(1))),
        &[0.1, 1.3],
    );
    assert_eq!(v.to_bits(), shared_segment(m, 0.1, 1.3).to_bits());
    let s = 1.3 - 0.1 - 1.0;
    assert!((g[0] + 70.0 * s).abs() < 1e-12 && (g[1] - 70.0 * s).abs() < 1e-12);
}

/// The same trait taken generically (`&impl Material`, `M: Material`): a constant passed
/// there must not also fit the `dyn` conversion (found by the fuzzer after the `dyn`
/// arguments were added: the two conversions left the parameter's type uninferred).
#[derive_frule]
fn impl_energy(m: &impl Material, s: f64) -> f64 {
    m.energy(s)
}

#[derive_frule]
fn generic_energy<M: Material>(m: &M, s: f64) -> f64 {
    m.energy(s) * s
}

#[derive_frule]
fn constants_to_generic_parameters(x: &[f64]) -> f64 {
    let steel = Linear { e: 2.0 };
    impl_energy(&steel, x[0]) + generic_energy(&Linear { e: 3.0 }, x[1])
}

#[test]
fn constants_passed_to_generic_trait_parameters_in_every_mode() {
    check_modes!(
        constants_to_generic_parameters {},
        constants_to_generic_parameters,
        [0.3, -0.7]
    );
}

#[derive_frule]
fn strain_energy_density(s: &[f64], m: &dyn Material) -> f64 {
    m.energy(s[0]) + m.energy(s[1])
}

#[test]
fn a_trait_object_bound_with_const_in_a_driver() {
    use fwdad::drivers::{bind, gradient, Wrt};
    let m: &dyn Material = &Linear { e: 4.0 };
    let s = [0.1, -0.3];
    let (v, g) = gradient(bind(strain_energy_density {}, (Wrt, Const(m))), &s);
    // W = e s² / 2 per component: dW/ds = e s.
    assert_eq!(v, strain_energy_density(&s, m));
    assert_eq!(g, [4.0 * 0.1, 4.0 * -0.3]);
}
