//! `#[derive_frule]` on trait definitions: default methods, generic parameters bounded by
//! the trait, and `dyn Trait` values, in every mode, against closed forms and finite
//! differences.

use fwdad::prelude::*;
use fwdad::Const;

/// A 1-D constitutive law: `stress` is required, `energy` a default using it (exact for a
/// linear law, overridden by the nonlinear one with its closed form).
#[derive_frule]
pub trait Material {
    fn stress(&self, strain: f64) -> f64;
    fn energy(&self, strain: f64) -> f64 {
        0.5 * strain * self.stress(strain)
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct LinearElastic {
    pub e: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct NeoHookean {
    pub mu: f64,
    pub lambda: f64,
}

#[derive_frule]
impl Material for LinearElastic {
    fn stress(&self, s: f64) -> f64 {
        self.e * s
    }
}

/// Stretch `l = 1 + s`: `W = mu/2 (l² + 2/l - 3) + lambda/2 ln² l`, `σ = dW/dl`.
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

#[derive_frule]
fn total<M: Material>(m: &M, strains: &[f64]) -> f64 {
    strains.iter().map(|&s| m.energy(s)).sum()
}

#[derive_frule]
fn total_dyn(m: &dyn Material, strains: &[f64]) -> f64 {
    let mut e = 0.0;
    for &s in strains {
        e += m.energy(s);
    }
    e
}

#[derive_frule]
fn layered(ms: &[Box<dyn Material>], strains: &[f64]) -> f64 {
    let mut e = 0.0;
    for (m, &s) in ms.iter().zip(strains) {
        e += m.energy(s);
    }
    e
}

#[derive_frule]
fn pair(a: &dyn Material, b: Box<dyn Material>, s: f64) -> f64 {
    a.energy(s) * b.stress(s)
}

/// A trait whose default method calls another default method, and a method taking `&[f64]`.
#[derive_frule]
pub trait Chain {
    fn link(&self, x: f64) -> f64;
    fn twice(&self, x: f64) -> f64 {
        self.link(self.link(x))
    }
    fn four(&self, x: f64) -> f64 {
        self.twice(self.twice(x))
    }
    fn sum_links(&self, xs: &[f64]) -> f64 {
        let mut s = 0.0;
        for &x in xs {
            s += self.link(x);
        }
        s
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Scale {
    pub a: f64,
}

#[derive_frule]
impl Chain for Scale {
    fn link(&self, x: f64) -> f64 {
        (self.a * x).sin()
    }
}

#[derive_frule]
fn chained<C: Chain>(c: &C, x: &[f64]) -> f64 {
    c.four(x[0]) + c.sum_links(x)
}

fn neo_stress(m: &NeoHookean, s: f64) -> f64 {
    let l = 1.0 + s;
    m.mu * (l - 1.0 / (l * l)) + m.lambda * l.ln() / l
}

fn neo_stiffness(m: &NeoHookean, s: f64) -> f64 {
    let l = 1.0 + s;
    m.mu * (1.0 + 2.0 / (l * l * l)) + m.lambda * (1.0 - l.ln()) / (l * l)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

const STRAINS: [f64; 5] = [0.01, -0.05, 0.12, 0.3, -0.2];

#[test]
fn generic_default_method_through_required_one_in_every_mode() {
    let le = LinearElastic { e: 210.0 };
    let x = STRAINS;
    // W = e s²/2 per strain: ∂W/∂s = e s, ∂²W/∂s² = e.
    let (v, g) = gradient(bind(total {}, (&le, Wrt)), &x);
    assert_eq!(v, total(&le, &x));
    for (gi, si) in g.iter().zip(&x) {
        assert!(close(*gi, le.e * si, 1e-14), "{gi} vs {}", le.e * si);
    }
    let (_, jac) = jacobian(bind(total {}, (&le, Wrt)), &x);
    for (i, si) in x.iter().enumerate() {
        assert!(close(jac[(0, i)], le.e * si, 1e-14));
    }
    let (v2, g2, h) = hessian(bind(total {}, (&le, Wrt)), &x);
    assert_eq!(v2, v);
    for i in 0..x.len() {
        assert!(close(g2[i], le.e * x[i], 1e-14));
        for j in 0..x.len() {
            let want = if i == j { le.e } else { 0.0 };
            assert!(close(h[(i, j)], want, 1e-12), "H[{i},{j}] = {}", h[(i, j)]);
        }
    }
    // One direction, along the modulus: ∂/∂e Σ e s²/2 = Σ s²/2.
    let zeros = [0.0; 5];
    let r = total_frule(
        Dual::new(&le, &LinearElasticTangent { e: 1.0 }),
        Dual::new(&x[..], &zeros[..]),
    );
    let want: f64 = x.iter().map(|s| 0.5 * s * s).sum();
    assert_eq!(r.primal, total(&le, &x));
    assert!(close(r.tangent, want, 1e-14));
}

#[test]
fn generic_overriding_method_in_every_mode() {
    let m = NeoHookean {
        mu: 1.5,
        lambda: 4.0,
    };
    let x = STRAINS;
    let (v, g) = gradient(bind(total {}, (&m, Wrt)), &x);
    assert_eq!(v, total(&m, &x));
    for (gi, si) in g.iter().zip(&x) {
        assert!(close(*gi, neo_stress(&m, *si), 1e-13));
    }
    let (_, _, h) = hessian(bind(total {}, (&m, Wrt)), &x);
    for i in 0..x.len() {
        for j in 0..x.len() {
            let want = if i == j { neo_stiffness(&m, x[i]) } else { 0.0 };
            assert!(
                close(h[(i, j)], want, 1e-12),
                "H[{i},{j}] = {} vs {want}",
                h[(i, j)]
            );
        }
    }
    // One direction along (1, 1, 1, 1, 1): Σ σ(s_i).
    let ones = [1.0; 5];
    let r = total_frule(
        Dual::new(
            &m,
            &NeoHookeanTangent {
                mu: 0.0,
                lambda: 0.0,
            },
        ),
        Dual::new(&x[..], &ones[..]),
    );
    let want: f64 = x.iter().map(|&s| neo_stress(&m, s)).sum();
    assert!(close(r.tangent, want, 1e-13));
}

#[test]
fn default_calling_default_and_slice_method_against_finite_differences() {
    let c = Scale { a: 0.7 };
    let x = [0.3, -0.4, 1.1];
    let f = |x: &[f64]| chained(&c, x);
    let (v, g) = gradient(bind(chained {}, (&c, Wrt)), &x);
    assert_eq!(v, f(&x));
    let h = 1e-6;
    for i in 0..x.len() {
        let (mut p, mut q) = (x, x);
        p[i] += h;
        q[i] -= h;
        let fd = (f(&p) - f(&q)) / (2.0 * h);
        assert!(close(g[i], fd, 1e-8), "∂{i}: {} vs {fd}", g[i]);
    }
    let (_, _, hess) = hessian(bind(chained {}, (&c, Wrt)), &x);
    for i in 0..x.len() {
        for j in 0..x.len() {
            let (mut p, mut q) = (x, x);
            p[j] += h;
            q[j] -= h;
            let (_, gp) = gradient(bind(chained {}, (&c, Wrt)), &p);
            let (_, gq) = gradient(bind(chained {}, (&c, Wrt)), &q);
            let fd = (gp[i] - gq[i]) / (2.0 * h);
            assert!(
                close(hess[(i, j)], fd, 1e-7),
                "H[{i},{j}]: {} vs {fd}",
                hess[(i, j)]
            );
        }
    }
}

#[test]
fn dyn_smoke() {
    let le = LinearElastic { e: 3.0 };
    let x = STRAINS;
    let (v, g) = gradient(bind(total_dyn {}, (Const(&le as &dyn Material), Wrt)), &x);
    assert_eq!(v, total_dyn(&le, &x));
    let _ = g;
    let _ = layered;
    let _ = pair;
}
