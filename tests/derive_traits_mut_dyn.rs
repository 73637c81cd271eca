//! `&mut dyn Trait` parameters of a trait with `#[derive_frule]`: its `&self` methods,
//! called through the trait object, run the implementing type's rule, in one direction,
//! in batches and at second order, against central differences of the plain function.

use fwdad::prelude::*;
use fwdad::Hyper;

/// Drag on a body moving at speed `v`; `power` is a default method using `force`.
#[derive_frule]
pub trait Drag {
    fn force(&self, v: f64) -> f64;
    fn power(&self, v: f64) -> f64 {
        v * self.force(v)
    }
}

/// Newton drag, `F = c v |v|`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Quadratic {
    pub c: f64,
}

/// Stokes drag, `F = b v`, with its own `power`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Stokes {
    pub b: f64,
}

#[derive_frule]
impl Drag for Quadratic {
    fn force(&self, v: f64) -> f64 {
        self.c * v * v.abs()
    }
}

#[derive_frule]
impl Drag for Stokes {
    fn force(&self, v: f64) -> f64 {
        self.b * v
    }
    fn power(&self, v: f64) -> f64 {
        self.b * v * v
    }
}

/// Energy dissipated over a sampled speed history, trapezoidal in time.
#[derive_frule]
fn dissipated(drag: &mut dyn Drag, v: &[f64], dt: f64) -> f64 {
    let mut w = 0.0;
    for i in 1..v.len() {
        w += 0.5 * dt * (drag.power(v[i - 1]) + drag.power(v[i]));
    }
    w
}

const SPEEDS: [f64; 4] = [1.5, -0.7, 2.2, 0.4];
const DT: f64 = 0.1;

/// ∂f/∂vₖ by central differences.
fn fd_gradient(f: &mut dyn FnMut(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|k| {
            let h = 1e-6;
            let (mut p, mut m) = (x.to_vec(), x.to_vec());
            p[k] += h;
            m[k] -= h;
            (f(&p) - f(&m)) / (2.0 * h)
        })
        .collect()
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

fn check(drag: &mut dyn Drag) {
    let x = SPEEDS;
    let want = fd_gradient(&mut |v| dissipated(&mut *drag, v, DT), &x);
    let plain = dissipated(&mut *drag, &x, DT);
    // One direction per speed.
    for k in 0..x.len() {
        let mut e = [0.0; 4];
        e[k] = 1.0;
        let y = dissipated_frule(
            Dual::new(&mut *drag, &mut NoTangent),
            Dual::new(&x[..], &e[..]),
            Dual::new(DT, 0.0),
        );
        assert_eq!(y.primal.to_bits(), plain.to_bits());
        assert!(
            close(y.tangent, want[k], 1e-7),
            "{k}: {} vs {}",
            y.tangent,
            want[k]
        );
    }
    // Two directions at once.
    let e: Vec<Batch<f64, 2>> = (0..4)
        .map(|k| Batch([(k == 0) as u8 as f64, (k == 2) as u8 as f64]))
        .collect();
    let y = <dissipated as Frule<_, Batch<f64, 2>>>::frule(
        &dissipated {},
        (
            Dual::new(&mut *drag, &mut NoTangent),
            Dual::new(&x[..], &e[..]),
            Dual::new(DT, Batch([0.0; 2])),
        ),
    );
    assert_eq!(y.primal.to_bits(), plain.to_bits());
    assert!(close(y.tangent.0[0], want[0], 1e-7));
    assert!(close(y.tangent.0[1], want[2], 1e-7));
    // Second order: ∂²/∂v₀∂v₂ and ∂²/∂v₂² against differences of the derived gradient.
    let mut grad = |v: &[f64], k: usize| {
        let mut e = [0.0; 4];
        e[k] = 1.0;
        dissipated_frule(
            Dual::new(&mut *drag, &mut NoTangent),
            Dual::new(v, &e[..]),
            Dual::new(DT, 0.0),
        )
        .tangent
    };
    let h = 1e-5;
    let (mut p, mut m) = (x, x);
    p[2] += h;
    m[2] -= h;
    let fd_02 = (grad(&p, 0) - grad(&m, 0)) / (2.0 * h);
    let fd_22 = (grad(&p, 2) - grad(&m, 2)) / (2.0 * h);
    for (i, fd) in [(0, fd_02), (2, fd_22)] {
        let e: Vec<Hyper<f64, f64>> = (0..4)
            .map(|k| Hyper {
                d1: (k == i) as u8 as f64,
                d2: (k == 2) as u8 as f64,
                d12: 0.0,
            })
            .collect();
        let y = <dissipated as Frule<_, Hyper<f64, f64>>>::frule(
            &dissipated {},
            (
                Dual::new(&mut *drag, &mut NoTangent),
                Dual::new(&x[..], &e[..]),
                Dual::new(
                    DT,
                    Hyper {
                        d1: 0.0,
                        d2: 0.0,
                        d12: 0.0,
                    },
                ),
            ),
        );
        assert_eq!(y.primal.to_bits(), plain.to_bits());
        assert!(
            close(y.tangent.d12, fd, 1e-6),
            "{i}: {} vs {fd}",
            y.tangent.d12
        );
    }
}

#[test]
fn mut_dyn_parameter_runs_each_types_rule() {
    check(&mut Quadratic { c: 0.47 });
    check(&mut Stokes { b: 1.8 });
}

#[test]
fn mut_dyn_stokes_gradient_matches_the_closed_form() {
    // The closed form: Stokes power is b v², so ∂W/∂vₖ = dt b vₖ (1 at the ends, 2 inside,
    // halved by the trapezoid).
    let mut s = Stokes { b: 1.8 };
    let x = SPEEDS;
    for k in 0..4 {
        let mut e = [0.0; 4];
        e[k] = 1.0;
        let y = dissipated_frule(
            Dual::new(&mut s as &mut dyn Drag, &mut NoTangent),
            Dual::new(&x[..], &e[..]),
            Dual::new(DT, 0.0),
        );
        let weight = if k == 0 || k == 3 { 0.5 } else { 1.0 };
        let want = DT * weight * 2.0 * s.b * x[k];
        assert!(
            close(y.tangent, want, 1e-13),
            "{k}: {} vs {want}",
            y.tangent
        );
    }
}
