//! Methods of constants declared `inactive(..)` called with differentiated arguments: a
//! model's parameters held fixed while the data is differentiated (`model.log_pdf(x)`), a
//! list of boxed components (`for c in comps { c.eval(x) }`), a `&dyn Kernel`. The
//! receiver is promoted to a constant for the call (its zero tangent borrowed, or
//! `NoTangent` for a trait object); before the twelfth session these did not compile
//! (the receiver was taken for a dual). Derivatives against closed forms and central
//! differences, primals bit for bit, in one direction, batches and second order.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, Var, Wrt};
use fwdad::prelude::*;

#[derive_frule]
trait Density {
    fn log_pdf(&self, x: f64) -> f64;
}

#[derive(Clone, Debug, Differentiable)]
struct Normal {
    mu: f64,
    sigma: f64,
}

#[derive(Clone, Debug, Differentiable)]
struct Cauchy {
    x0: f64,
    gamma: f64,
}

#[derive_frule]
impl Density for Normal {
    fn log_pdf(&self, x: f64) -> f64 {
        let z = (x - self.mu) / self.sigma;
        -0.5 * z * z - self.sigma.ln() - 0.5 * (2.0 * std::f64::consts::PI).ln()
    }
}

#[derive_frule]
impl Density for Cauchy {
    fn log_pdf(&self, x: f64) -> f64 {
        let z = (x - self.x0) / self.gamma;
        -(std::f64::consts::PI * self.gamma * (1.0 + z * z)).ln()
    }
}

/// The score of the data under a fixed mixture, components behind `Box<dyn Density>`.
#[derive_frule(inactive(comps, weights))]
fn mixture_ll(xs: &[f64], comps: &[Box<dyn Density>], weights: &[f64]) -> f64 {
    let mut total = 0.0;
    for &x in xs {
        let mut p = 0.0;
        for (c, w) in comps.iter().zip(weights) {
            p += w * c.log_pdf(x).exp();
        }
        total += p.ln();
    }
    total
}

/// The same through a chain and an index.
#[derive_frule(inactive(comps))]
fn best_component(x: f64, comps: &Vec<Box<dyn Density>>) -> f64 {
    let scores: Vec<f64> = comps.iter().map(|c| c.log_pdf(x)).collect();
    let mut best = scores[0];
    for k in 1..scores.len() {
        best = best.max(scores[k]);
    }
    best + comps[0].log_pdf(2.0 * x)
}

/// A fixed model as a plain struct reference.
#[derive_frule(inactive(model))]
fn nll(x: &[f64], model: &Normal) -> f64 {
    -x.iter().map(|&v| model.log_pdf(v)).sum::<f64>()
}

/// A trait object by reference.
#[derive_frule(inactive(d))]
fn surprise(x: f64, y: f64, d: &dyn Density) -> f64 {
    -d.log_pdf(x * y)
}

/// An inherent method of a fixed struct, on a parameter and on slice elements.
#[derive(Clone, Debug, Differentiable)]
struct Spring {
    k: f64,
    rest: f64,
}

#[derive_frule]
impl Spring {
    fn energy(&self, len: f64) -> f64 {
        0.5 * self.k * (len - self.rest).powi(2)
    }
}

#[derive_frule(inactive(springs))]
fn chain_energy(pos: &[f64], springs: &[Spring]) -> f64 {
    let mut e = 0.0;
    for i in 0..springs.len() {
        e += springs[i].energy(pos[i + 1] - pos[i]);
    }
    e
}

fn fd(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = 1e-6 * x[i].abs().max(1.0);
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[i] += h;
            b[i] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

fn comps() -> Vec<Box<dyn Density>> {
    vec![
        Box::new(Normal {
            mu: 0.0,
            sigma: 1.0,
        }),
        Box::new(Cauchy {
            x0: 2.0,
            gamma: 0.5,
        }),
        Box::new(Normal {
            mu: -1.5,
            sigma: 0.7,
        }),
    ]
}

#[test]
fn mixture_score_through_boxed_components() {
    let comps = comps();
    let w = [0.5, 0.3, 0.2];
    let xs = [0.3, 1.7, -0.9, 2.4, 0.05];
    let (ll, g) = gradient(bind(mixture_ll {}, (Wrt, &comps[..], &w[..])), &xs);
    assert_eq!(ll.to_bits(), mixture_ll(&xs, &comps, &w).to_bits());
    let want = fd(|x| mixture_ll(x, &comps, &w), &xs);
    for i in 0..xs.len() {
        assert!((g[i] - want[i]).abs() < 1e-7, "{i}: {} {}", g[i], want[i]);
    }
    // One direction, the direction all ones: the sum of the score.
    let d = mixture_ll_frule(Dual::new(&xs[..], &[1.0; 5][..]), &comps, &w);
    assert_eq!(d.primal.to_bits(), ll.to_bits());
    assert!((d.tangent - g.iter().sum::<f64>()).abs() < 1e-12);
    // Second order: the Hessian is diagonal (each term reads one x) and matches
    // differences of the gradient.
    let (_, _, h) = hessian(bind(mixture_ll {}, (Wrt, &comps[..], &w[..])), &xs);
    for i in 0..xs.len() {
        for j in 0..xs.len() {
            if i != j {
                assert_eq!(h[(i, j)], 0.0);
            }
        }
        let gi = |x: &[f64]| gradient(bind(mixture_ll {}, (Wrt, &comps[..], &w[..])), x).1[i];
        let want = fd(gi, &xs)[i];
        assert!((h[(i, i)] - want).abs() < 1e-6, "{i}: {} {want}", h[(i, i)]);
    }
}

#[test]
fn chain_and_index_on_boxed_components() {
    let comps = comps();
    for x in [-1.2, 0.1, 1.9] {
        let d = best_component_frule(Dual::new(x, 1.0), &comps);
        assert_eq!(d.primal.to_bits(), best_component(x, &comps).to_bits());
        let h = 1e-6;
        let want = (best_component(x + h, &comps) - best_component(x - h, &comps)) / (2.0 * h);
        assert!((d.tangent - want).abs() < 1e-6, "{x}: {} {want}", d.tangent);
    }
}

#[test]
fn fixed_model_struct_and_trait_object() {
    let model = Normal {
        mu: 0.4,
        sigma: 1.3,
    };
    let x = [0.1, -0.7, 2.2];
    let (v, g) = gradient(bind(nll {}, (Wrt, &model)), &x);
    assert_eq!(v.to_bits(), nll(&x, &model).to_bits());
    // d/dx_i of (x_i - mu)² / (2 sigma²) = (x_i - mu) / sigma².
    for i in 0..3 {
        let want = (x[i] - model.mu) / (model.sigma * model.sigma);
        assert!((g[i] - want).abs() < 1e-15);
    }
    let (_, _, h) = hessian(bind(nll {}, (Wrt, &model)), &x);
    for i in 0..3 {
        assert!((h[(i, i)] - 1.0 / (model.sigma * model.sigma)).abs() < 1e-15);
    }
    // A Cauchy through `&dyn Density`: -log p(xy), d/dx = y · 2z/(γ(1 + z²)).
    let c = Cauchy {
        x0: 1.0,
        gamma: 0.8,
    };
    let (x0, y0) = (0.9, 1.7);
    let (s, g) = gradient(
        bind(surprise {}, (Var(0), Var(1), &c as &dyn Density)),
        &[x0, y0],
    );
    assert_eq!(s.to_bits(), surprise(x0, y0, &c).to_bits());
    let z = (x0 * y0 - c.x0) / c.gamma;
    let dlog = 2.0 * z / (c.gamma * (1.0 + z * z));
    assert!((g[0] - y0 * dlog).abs() < 1e-14 && (g[1] - x0 * dlog).abs() < 1e-14);
    let d = surprise_frule(Dual::new(x0, 1.0), Dual::new(y0, 0.0), &c);
    assert_eq!(d.primal.to_bits(), s.to_bits());
    assert!((d.tangent - y0 * dlog).abs() < 1e-14);
}

#[test]
fn inherent_method_on_fixed_slice_elements() {
    let springs = [
        Spring { k: 2.0, rest: 1.0 },
        Spring { k: 3.5, rest: 0.8 },
        Spring { k: 1.0, rest: 1.2 },
    ];
    let pos = [0.0, 1.1, 1.7, 3.0];
    let (e, g) = gradient(bind(chain_energy {}, (Wrt, &springs[..])), &pos);
    assert_eq!(e.to_bits(), chain_energy(&pos, &springs).to_bits());
    // Forces: dE/dp_i = k_{i-1} s_{i-1} - k_i s_i, s_i the stretch of spring i.
    let s: Vec<f64> = (0..3)
        .map(|i| pos[i + 1] - pos[i] - springs[i].rest)
        .collect();
    for i in 0..4 {
        let left = if i > 0 {
            springs[i - 1].k * s[i - 1]
        } else {
            0.0
        };
        let right = if i < 3 { springs[i].k * s[i] } else { 0.0 };
        assert!((g[i] - (left - right)).abs() < 1e-14, "{i}");
    }
}
