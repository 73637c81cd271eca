//! Traits used the way libraries use them: residual models behind `Vec<Box<dyn Model>>`
//! writing into `&mut [f64]`, a generic `fit<M: Model>`, potentials whose default
//! methods call the required ones, supertraits, associated constants, methods returning
//! `Self`, a `&dyn` value bound as a plain entry of `bind`, and a method's rule called
//! with `Dual::constant` data. Each in one direction, in batches and at second order
//! (`check_modes!`) against central differences of the plain functions, primal bit for bit,
//! or against a closed form.

mod common;

use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

// --- Least squares: residual blocks behind trait objects ---------------------------------

/// A block of residuals of the parameters `x`, written into `out` (as ceres' cost
/// functions and argmin's problems do).
#[derive_frule]
pub trait Model {
    fn num_residuals(&self) -> usize;
    fn residual(&self, x: &[f64], out: &mut [f64]);
}

/// Rosenbrock's two residuals.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Rosenbrock {
    pub a: f64,
    pub b: f64,
}

/// An exponential decay fitted to samples `(t, y)`.
#[derive(Clone, Debug, Differentiable)]
pub struct Decay {
    pub t: Vec<f64>,
    pub y: Vec<f64>,
}

/// A soft bound `x₀ ≤ hi`: adds to whatever the buffer holds.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Barrier {
    pub hi: f64,
    pub w: f64,
}

#[derive_frule]
impl Model for Rosenbrock {
    fn num_residuals(&self) -> usize {
        2
    }
    fn residual(&self, x: &[f64], out: &mut [f64]) {
        out[0] = self.a - x[0];
        out[1] = self.b.sqrt() * (x[1] - x[0] * x[0]);
    }
}

#[derive_frule]
impl Model for Decay {
    fn num_residuals(&self) -> usize {
        self.t.len()
    }
    fn residual(&self, x: &[f64], out: &mut [f64]) {
        for (i, (t, y)) in self.t.iter().zip(&self.y).enumerate() {
            out[i] = x[0] * (-x[1] * t).exp() - y;
        }
    }
}

#[derive_frule]
impl Model for Barrier {
    fn num_residuals(&self) -> usize {
        1
    }
    fn residual(&self, x: &[f64], out: &mut [f64]) {
        out[0] += self.w * (1.0 + (x[0] - self.hi).exp()).ln();
    }
}

/// The total cost `½ Σ r²` of every block, each writing into a buffer of its length
/// that starts at `0.1` (so a block that adds to it reads the buffer).
#[derive_frule]
pub fn total_cost(models: &[Box<dyn Model>], x: &[f64]) -> f64 {
    let mut c = 0.0;
    for m in models {
        let mut r = vec![0.1; m.num_residuals()];
        m.residual(x, &mut r);
        for v in &r {
            c += 0.5 * v * v;
        }
    }
    c
}

/// The same cost of one block, generic over the model. (`M: Model + ?Sized`, to take trait
/// objects too, is an error: `tests/ui/derive_frule/trait-param-maybe-unsized.rs`.)
#[derive_frule]
pub fn fit<M: Model>(m: &M, x: &[f64]) -> f64 {
    let mut r = vec![0.1; m.num_residuals()];
    m.residual(x, &mut r);
    r.iter().map(|v| v * v).sum::<f64>()
}

fn models() -> Vec<Box<dyn Model>> {
    vec![
        Box::new(Rosenbrock { a: 1.0, b: 100.0 }),
        Box::new(Decay {
            t: vec![0.0, 0.5, 1.0, 2.0],
            y: vec![2.0, 1.3, 0.8, 0.3],
        }),
        Box::new(Barrier { hi: 0.5, w: 0.3 }),
    ]
}

#[test]
fn boxed_residual_models_writing_into_buffers_in_every_mode() {
    let ms = models();
    let x = [0.7, 0.9];
    check_modes!(
        bind(total_cost {}, (&ms[..], Wrt)),
        |x: &[f64]| total_cost(&ms, x),
        x
    );
}

#[test]
fn a_generic_fit_over_concrete_models_in_every_mode() {
    let decay = Decay {
        t: vec![0.0, 0.5, 1.0, 2.0],
        y: vec![2.0, 1.3, 0.8, 0.3],
    };
    let x = [1.8, 0.7];
    check_modes!(bind(fit {}, (&decay, Wrt)), |x: &[f64]| fit(&decay, x), x);
    let rb = Rosenbrock { a: 1.0, b: 100.0 };
    check_modes!(bind(fit {}, (&rb, Wrt)), |x: &[f64]| fit(&rb, x), x);
}

// --- Potentials: default methods calling the required ones -------------------------------

#[derive_frule]
pub trait Potential {
    fn energy(&self, r: f64) -> f64;
    /// The energy of every pair of particles closer than the cutoff.
    fn total(&self, p: &[V3]) -> f64 {
        let mut e = 0.0;
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                let (dx, dy, dz) = (p[i].x - p[j].x, p[i].y - p[j].y, p[i].z - p[j].z);
                let r = (dx * dx + dy * dy + dz * dz).sqrt();
                if r < self.cutoff() {
                    e += self.energy(r) - self.energy(self.cutoff());
                }
            }
        }
        e
    }
    fn cutoff(&self) -> f64 {
        2.5
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct LennardJones {
    pub eps: f64,
    pub sigma: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Morse {
    pub d: f64,
    pub a: f64,
    pub r0: f64,
}

#[derive_frule]
impl Potential for LennardJones {
    fn energy(&self, r: f64) -> f64 {
        let s6 = (self.sigma / r).powi(6);
        4.0 * self.eps * (s6 * s6 - s6)
    }
}

#[derive_frule]
impl Potential for Morse {
    fn energy(&self, r: f64) -> f64 {
        let e = 1.0 - (-self.a * (r - self.r0)).exp();
        self.d * e * e
    }
    fn cutoff(&self) -> f64 {
        3.0
    }
}

/// Particles at `x` (`x, y, z` triples) under several potentials at once.
#[derive_frule]
pub fn mixture_energy(pots: &[Box<dyn Potential>], x: &[f64]) -> f64 {
    let p: Vec<V3> = x
        .chunks(3)
        .map(|c| V3 {
            x: c[0],
            y: c[1],
            z: c[2],
        })
        .collect();
    let mut e = 0.0;
    for pot in pots {
        e += pot.total(&p);
    }
    e
}

#[test]
fn default_methods_over_a_slice_of_structs_through_dyn_in_every_mode() {
    let pots: Vec<Box<dyn Potential>> = vec![
        Box::new(LennardJones {
            eps: 1.0,
            sigma: 1.0,
        }),
        Box::new(Morse {
            d: 0.5,
            a: 1.3,
            r0: 1.2,
        }),
    ];
    let x = [0.0, 0.0, 0.0, 1.15, 0.1, 0.0, 0.4, 1.05, 0.2];
    check_modes!(
        bind(mixture_energy {}, (&pots[..], Wrt)),
        |x: &[f64]| mixture_energy(&pots, x),
        x
    );
}

// --- Supertraits and associated constants ------------------------------------------------

#[derive_frule]
pub trait Section {
    fn area(&self) -> f64;
}

#[derive_frule]
pub trait Beam: Section {
    const DENSITY: f64;
    fn second_moment(&self) -> f64;
    /// Euler's critical load of a pinned column of length `l` and modulus `e`.
    fn buckling_load(&self, e: f64, l: f64) -> f64 {
        let pi = std::f64::consts::PI;
        pi * pi * e * self.second_moment() / (l * l)
    }
    fn mass(&self, l: f64) -> f64 {
        Self::DENSITY * self.area() * l
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Tube {
    pub r: f64,
    pub t: f64,
}

#[derive_frule]
impl Section for Tube {
    fn area(&self) -> f64 {
        2.0 * std::f64::consts::PI * self.r * self.t
    }
}

#[derive_frule]
impl Beam for Tube {
    const DENSITY: f64 = 7850.0;
    fn second_moment(&self) -> f64 {
        std::f64::consts::PI * self.r.powi(3) * self.t
    }
}

/// The load a column carries per kilogram, of a tube of radius `x[0]` and wall `x[1]`.
#[derive_frule]
pub fn load_per_mass(x: &[f64]) -> f64 {
    let tube = Tube { r: x[0], t: x[1] };
    specific(&tube, 210e9, 2.0)
}

#[derive_frule]
pub fn specific<B: Beam>(b: &B, e: f64, l: f64) -> f64 {
    b.buckling_load(e, l) / b.mass(l) * 1e-6
}

#[test]
fn supertrait_methods_and_associated_constants_through_a_generic_in_every_mode() {
    let x = [0.05, 0.004];
    check_modes!(load_per_mass {}, load_per_mass, x);
    // Closed form: π² E r² / (2 ρ l³) · 1e-6, independent of the wall.
    let (v, g) = gradient(load_per_mass {}, &x);
    let pi = std::f64::consts::PI;
    let k = pi * pi * 210e9 / (2.0 * 7850.0 * 8.0) * 1e-6;
    assert!((v - k * x[0] * x[0]).abs() < 1e-9 * v);
    assert!((g[0] - 2.0 * k * x[0]).abs() < 1e-9 * g[0]);
    assert!(g[1].abs() < 1e-9 * g[0]);
}

// --- Methods returning `Self` ------------------------------------------------------------

/// A state a generic integrator steps (as ode_solvers' `State`).
#[derive_frule]
pub trait State: Sized {
    fn axpy(&self, a: f64, other: &Self) -> Self;
    fn derivative(&self, k: f64) -> Self;
    fn energy(&self) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Oscillator {
    pub q: f64,
    pub p: f64,
}

#[derive_frule]
impl State for Oscillator {
    fn axpy(&self, a: f64, other: &Self) -> Self {
        Oscillator {
            q: self.q + a * other.q,
            p: self.p + a * other.p,
        }
    }
    fn derivative(&self, k: f64) -> Self {
        Oscillator {
            q: self.p,
            p: -k * self.q - 0.1 * self.q * self.q * self.q,
        }
    }
    fn energy(&self) -> f64 {
        0.5 * self.p * self.p + 0.5 * self.q * self.q
    }
}

/// Midpoint steps of any state.
#[derive_frule]
pub fn midpoint<X: State>(x0: &X, k: f64, dt: f64, n: usize) -> f64 {
    let mut x = x0.axpy(0.0, x0);
    for _ in 0..n {
        let half = x.axpy(0.5 * dt, &x.derivative(k));
        x = x.axpy(dt, &half.derivative(k));
    }
    x.energy()
}

#[derive_frule]
pub fn oscillator_energy(v: &[f64]) -> f64 {
    midpoint(&Oscillator { q: v[0], p: v[1] }, v[2], 0.05, 20)
}

#[test]
fn methods_returning_self_in_a_generic_integrator_in_every_mode() {
    let v = [0.8, -0.3, 1.7];
    check_modes!(oscillator_energy {}, oscillator_energy, v);
}

// --- A `&dyn` value bound as a plain entry, and constants passed to method rules ----------

#[derive_frule]
pub fn decay_cost(x: &[f64], m: &dyn Model) -> f64 {
    let mut r = vec![0.1; m.num_residuals()];
    m.residual(x, &mut r);
    r.iter().map(|v| v * v).sum::<f64>()
}

#[test]
fn a_trait_object_bound_as_a_plain_entry_of_bind_in_every_mode() {
    let decay = Decay {
        t: vec![0.0, 0.5, 1.0, 2.0],
        y: vec![2.0, 1.3, 0.8, 0.3],
    };
    let m: &dyn Model = &decay;
    let x = [1.8, 0.7];
    check_modes!(
        bind(decay_cost {}, (Wrt, m)),
        |x: &[f64]| decay_cost(x, m),
        x
    );
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Scale {
    pub k: f64,
}

#[derive_frule]
impl Scale {
    fn weighted(&self, w: &[f64], x: f64) -> f64 {
        self.k * w.iter().map(|v| v * x.sin()).sum::<f64>()
    }
}

#[test]
fn constants_passed_to_a_method_rule() {
    let s = Scale { k: 1.5 };
    let w = vec![0.5, 0.25, 2.0];
    let x = 0.4;
    // d/dx of k Σw sin x, and d/dk, against the closed forms.
    let d = Scale::weighted_frule(
        Dual::new(&s, &ScaleTangent { k: 0.0 }),
        Dual::constant(&w[..]),
        Dual::new(x, 1.0),
    );
    assert_eq!(d.primal.to_bits(), s.weighted(&w, x).to_bits());
    assert!((d.tangent - 1.5 * 2.75 * x.cos()).abs() < 1e-14);
    let d = Scale::weighted_frule(
        Dual::new(&s, &ScaleTangent { k: 1.0 }),
        Dual::constant(&w[..]),
        Dual::constant(x),
    );
    assert!((d.tangent - 2.75 * x.sin()).abs() < 1e-14);
}
