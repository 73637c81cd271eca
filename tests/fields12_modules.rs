//! Structs holding a function declared in another file of the crate (`mod solvers;`),
//! imported by name or by their module's path, built in a differentiated function from
//! closures capturing its inputs, by a literal or their constructor, their `&self`
//! methods called. In one direction, in batches and at second order against central
//! differences or closed forms, primals bit for bit.

#[macro_use]
mod common;
mod fields12_solvers;

use common::modes::assert_close;
use fields12_solvers::ode::Heun;
use fields12_solvers::quad::Simpson;
use fwdad::prelude::*;

/// ∫₀ᵇ cos(w t) dt by a literal of the imported `Simpson`.
#[derive_frule]
pub fn cosine_area(p: &[f64]) -> f64 {
    let w = p[0];
    let q = Simpson {
        f: |t| (w * t).cos(),
        a: 0.0,
        b: p[1],
    };
    q.integrate(64)
}

#[test]
fn literal_of_a_struct_from_another_file() {
    let p = [1.4, 0.9];
    check_modes!(cosine_area {}, cosine_area, p);
    let (w, b) = (p[0], p[1]);
    let (v, g) = gradient(cosine_area {}, &p);
    assert_close(v, (w * b).sin() / w, 1e-8, "area");
    assert_close(g[1], (w * b).cos(), 1e-7, "d/db");
}

/// ∫ₐ^{a+1} e^{-s t²} dt by the imported constructor.
#[derive_frule]
pub fn gaussian_window(p: &[f64]) -> f64 {
    let (s, a) = (p[0], p[1]);
    let q = Simpson::new(|t: f64| (-s * t * t).exp(), a, a + 1.0);
    q.integrate(64)
}

#[test]
fn constructor_of_a_struct_from_another_file() {
    let p = [0.7, -0.4];
    check_modes!(gaussian_window {}, gaussian_window, p);
    let (s, a) = (p[0], p[1]);
    let (_, g) = gradient(gaussian_window {}, &p);
    // d/da ∫ₐ^{a+1} = f(a + 1) − f(a).
    let f = |t: f64| (-s * t * t).exp();
    assert_close(g[1], f(a + 1.0) - f(a), 1e-7, "d/da");
}

/// Logistic growth to t = 1 by Heun's method, the ODE from another file.
#[derive_frule]
pub fn grown(p: &[f64]) -> f64 {
    let (r, cap) = (p[0], p[1]);
    let heun = Heun {
        rhs: &|_t, y| r * y * (1.0 - y / cap),
        h: 0.02,
    };
    heun.run(0.3, 50)
}

#[test]
fn integrator_from_another_file() {
    let p = [1.5, 2.0];
    check_modes!(grown {}, grown, p);
    let (r, cap) = (p[0], p[1]);
    let exact = cap / (1.0 + (cap / 0.3 - 1.0) * (-r).exp());
    let (v, _) = gradient(grown {}, &p);
    assert_close(v, exact, 1e-4, "y(1)");
}
