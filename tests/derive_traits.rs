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
fn total_impl(m: &impl Material, strains: &[f64]) -> f64 {
    let mut e = 0.0;
    for &s in strains {
        e += m.energy(s);
    }
    e
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

#[derive_frule]
fn stacked(ms: &Vec<Box<dyn Material>>, s: f64) -> f64 {
    let mut e = 0.0;
    for m in ms {
        e += m.energy(s);
    }
    e
}

#[derive_frule]
fn chained_dyn(c: &dyn Chain, x: &[f64]) -> f64 {
    c.four(x[0]) + c.sum_links(x)
}

/// A pair potential with a default method using the required one: the energy cut and
/// shifted at `rc` (molecular dynamics' usual truncation).
#[derive_frule]
pub trait Potential {
    fn v(&self, r: f64) -> f64;
    fn shifted(&self, r: f64, rc: f64) -> f64 {
        if r < rc {
            self.v(r) - self.v(rc)
        } else {
            0.0
        }
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
    pub re: f64,
}

#[derive_frule]
impl Potential for LennardJones {
    fn v(&self, r: f64) -> f64 {
        let s6 = (self.sigma / r).powi(6);
        4.0 * self.eps * (s6 * s6 - s6)
    }
}

#[derive_frule]
impl Potential for Morse {
    fn v(&self, r: f64) -> f64 {
        let e = (-self.a * (r - self.re)).exp();
        self.d * (1.0 - e) * (1.0 - e) - self.d
    }
}

/// Particles on a line, every pair interacting through every potential of the list.
#[derive_frule]
fn pair_energy(ps: &[Box<dyn Potential>], x: &[f64], rc: f64) -> f64 {
    let n = x.len();
    let mut e = 0.0;
    for p in ps {
        for i in 0..n {
            for j in i + 1..n {
                let r = (x[j] - x[i]).abs();
                e += p.shifted(r, rc);
            }
        }
    }
    e
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

fn lj_dv(p: &LennardJones, r: f64) -> f64 {
    let s6 = (p.sigma / r).powi(6);
    4.0 * p.eps * (-12.0 * s6 * s6 + 6.0 * s6) / r
}

fn morse_dv(p: &Morse, r: f64) -> f64 {
    let e = (-p.a * (r - p.re)).exp();
    2.0 * p.d * p.a * e * (1.0 - e)
}

/// The analytic gradient of `pair_energy` for one LJ and one Morse potential.
fn pair_gradient(lj: &LennardJones, mo: &Morse, x: &[f64], rc: f64) -> Vec<f64> {
    let mut g = vec![0.0; x.len()];
    for i in 0..x.len() {
        for j in 0..x.len() {
            let r = (x[j] - x[i]).abs();
            if i == j || r >= rc {
                continue;
            }
            // ∂r/∂x_i = (x_i − x_j)/r.
            g[i] += (lj_dv(lj, r) + morse_dv(mo, r)) * (x[i] - x[j]) / r;
        }
    }
    g
}

#[test]
fn dyn_materials_in_every_mode() {
    let le = LinearElastic { e: 210.0 };
    let nh = NeoHookean {
        mu: 1.5,
        lambda: 4.0,
    };
    let x = STRAINS;
    for (m, dw, d2w) in [
        (&le as &dyn Material, le.e * x[2], le.e),
        (
            &nh as &dyn Material,
            neo_stress(&nh, x[2]),
            neo_stiffness(&nh, x[2]),
        ),
    ] {
        // Batch (gradient, jacobian).
        let (v, g) = gradient(bind(total_dyn {}, (Const(m), Wrt)), &x);
        assert_eq!(v, total_dyn(m, &x));
        assert!(close(g[2], dw, 1e-13), "{} vs {dw}", g[2]);
        let (vj, jac) = jacobian(bind(total_dyn {}, (Const(m), Wrt)), &x);
        assert_eq!(vj[0], v);
        assert!(close(jac[(0, 2)], dw, 1e-13));
        // Second order.
        let (vh, gh, h) = hessian(bind(total_dyn {}, (Const(m), Wrt)), &x);
        assert_eq!(vh, v);
        assert!(close(gh[2], dw, 1e-13));
        assert!(close(h[(2, 2)], d2w, 1e-12), "{} vs {d2w}", h[(2, 2)]);
        assert_eq!(h[(1, 2)], 0.0);
        // One direction.
        let e2 = [0.0, 0.0, 1.0, 0.0, 0.0];
        let (vd, d) = jvp(bind(total_dyn {}, (Const(m), Wrt)), &x, &e2);
        assert_eq!(vd, v);
        assert!(close(d, dw, 1e-13));
    }
    // Through a generic parameter and through `dyn`: the same numbers.
    let (_, g_gen) = gradient(bind(total {}, (&nh, Wrt)), &x);
    let (_, g_dyn) = gradient(bind(total_dyn {}, (Const(&nh as &dyn Material), Wrt)), &x);
    for (a, b) in g_gen.iter().zip(&g_dyn) {
        assert!(close(*a, *b, 1e-14));
    }
}

#[test]
fn slice_and_vec_of_boxed_materials_in_every_mode() {
    let ms: Vec<Box<dyn Material>> = vec![
        Box::new(LinearElastic { e: 70.0 }),
        Box::new(NeoHookean {
            mu: 2.0,
            lambda: 1.0,
        }),
        Box::new(LinearElastic { e: 3.0 }),
    ];
    let nh = NeoHookean {
        mu: 2.0,
        lambda: 1.0,
    };
    let x = [0.02, -0.1, 0.25];
    let want_g = [70.0 * x[0], neo_stress(&nh, x[1]), 3.0 * x[2]];
    let want_h = [70.0, neo_stiffness(&nh, x[1]), 3.0];
    let (v, g) = gradient(bind(layered {}, (&ms[..], Wrt)), &x);
    assert_eq!(v, layered(&ms, &x));
    let (_, _, h) = hessian(bind(layered {}, (&ms[..], Wrt)), &x);
    for i in 0..3 {
        assert!(
            close(g[i], want_g[i], 1e-13),
            "g[{i}] = {} vs {}",
            g[i],
            want_g[i]
        );
        assert!(
            close(h[(i, i)], want_h[i], 1e-12),
            "h[{i}] = {} vs {}",
            h[(i, i)],
            want_h[i]
        );
    }
    let (_, d) = jvp(bind(layered {}, (&ms[..], Wrt)), &x, &[1.0, 1.0, 1.0]);
    assert!(close(d, want_g.iter().sum(), 1e-13));
    // A `Vec` of boxes, one strain for all: Σ σ_k(s).
    let s = 0.07;
    let zeros: Vec<Box<NoTangent>> = ms.iter().map(|_| Box::new(NoTangent)).collect();
    let r = stacked_frule(Dual::new(&ms, &zeros), Dual::new(s, 1.0));
    assert_eq!(r.primal, stacked(&ms, s));
    let want = 70.0 * s + neo_stress(&nh, s) + 3.0 * s;
    assert!(close(r.tangent, want, 1e-13));
}

#[test]
fn reference_and_box_parameters() {
    let le = LinearElastic { e: 5.0 };
    let nh = NeoHookean {
        mu: 1.5,
        lambda: 4.0,
    };
    let s = 0.2;
    // f = (e s²/2) σ_nh(s): f' = e s σ + (e s²/2) σ'.
    let want = le.e * s * neo_stress(&nh, s) + 0.5 * le.e * s * s * neo_stiffness(&nh, s);
    let r = pair_frule(
        Dual::new(&le as &dyn Material, &NoTangent),
        Dual::new(Box::new(nh) as Box<dyn Material>, Box::new(NoTangent)),
        Dual::new(s, 1.0),
    );
    assert_eq!(r.primal, pair(&le, Box::new(nh), s));
    assert!(close(r.tangent, want, 1e-13));
}

#[test]
fn dyn_default_calling_default_and_slice_method_match_the_generic_rule() {
    let c = Scale { a: 0.7 };
    let x = [0.3, -0.4, 1.1];
    let (v, g) = gradient(bind(chained {}, (&c, Wrt)), &x);
    let (vd, gd) = gradient(bind(chained_dyn {}, (Const(&c as &dyn Chain), Wrt)), &x);
    assert_eq!(vd, v);
    let (_, _, h) = hessian(bind(chained {}, (&c, Wrt)), &x);
    let (_, _, hd) = hessian(bind(chained_dyn {}, (Const(&c as &dyn Chain), Wrt)), &x);
    for i in 0..3 {
        // The generic rule is checked against finite differences above.
        assert!(close(gd[i], g[i], 1e-14));
        for j in 0..3 {
            assert!(close(hd[(i, j)], h[(i, j)], 1e-13));
        }
    }
}

#[test]
fn lennard_jones_and_morse_pair_energy_through_boxed_potentials() {
    let lj = LennardJones {
        eps: 0.8,
        sigma: 1.0,
    };
    let mo = Morse {
        d: 1.2,
        a: 1.5,
        re: 1.1,
    };
    let ps: Vec<Box<dyn Potential>> = vec![Box::new(lj), Box::new(mo)];
    let x = [0.0, 1.15, 2.05, 3.4];
    let rc = 2.5;
    let (v, g) = gradient(bind(pair_energy {}, (&ps[..], Wrt, rc)), &x);
    assert_eq!(v, pair_energy(&ps, &x, rc));
    let want = pair_gradient(&lj, &mo, &x, rc);
    for i in 0..x.len() {
        assert!(
            close(g[i], want[i], 1e-12),
            "g[{i}] = {} vs {}",
            g[i],
            want[i]
        );
    }
    // Hessian against central differences of the analytic gradient.
    let (_, _, h) = hessian(bind(pair_energy {}, (&ps[..], Wrt, rc)), &x);
    let step = 1e-6;
    for j in 0..x.len() {
        let (mut p, mut q) = (x, x);
        p[j] += step;
        q[j] -= step;
        let (gp, gq) = (
            pair_gradient(&lj, &mo, &p, rc),
            pair_gradient(&lj, &mo, &q, rc),
        );
        for i in 0..x.len() {
            let fd = (gp[i] - gq[i]) / (2.0 * step);
            assert!(
                close(h[(i, j)], fd, 1e-6),
                "H[{i},{j}] = {} vs {fd}",
                h[(i, j)]
            );
        }
    }
    // One direction: a rigid translation leaves the energy unchanged.
    let (_, d) = jvp(bind(pair_energy {}, (&ps[..], Wrt, rc)), &x, &[1.0; 4]);
    assert!(d.abs() < 1e-12, "{d}");
}

/// An implementation of a derived trait without `#[derive_frule]` on its `impl`.
pub struct Underived {
    pub e: f64,
}

impl Material for Underived {
    fn stress(&self, s: f64) -> f64 {
        self.e * s
    }
}

#[test]
#[should_panic(
    expected = "whose type implements `Material` without `#[derive_frule]` on its `impl`"
)]
fn dyn_value_of_an_underived_impl_panics_with_the_reason() {
    let u = Underived { e: 2.0 };
    assert_eq!(u.energy(0.5), 0.25);
    let _ = gradient(
        bind(total_dyn {}, (Const(&u as &dyn Material), Wrt)),
        &[0.1, 0.2],
    );
}

/// A `Differentiable` type whose `impl` of the derived trait lacks the attribute, called
/// on its concrete type: the call compiles (the trait's dispatch serves every type that
/// implements it) and panics naming the type and the trait, never a silent derivative.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct UnderivedElastic {
    pub e: f64,
}

impl Material for UnderivedElastic {
    fn stress(&self, s: f64) -> f64 {
        self.e * s
    }
}

#[derive_frule]
fn underived_energy(m: &UnderivedElastic, s: f64) -> f64 {
    m.energy(s)
}

#[test]
#[should_panic(expected = "implements `Material` without `#[derive_frule]` on its `impl`")]
fn concrete_value_of_an_underived_impl_panics_with_the_reason() {
    let m = UnderivedElastic { e: 2.0 };
    assert_eq!(underived_energy(&m, 0.5), 0.25);
    let _ = underived_energy_frule(
        Dual::new(&m, &UnderivedElasticTangent { e: 0.0 }),
        Dual::new(0.5, 1.0),
    );
}

#[test]
fn impl_trait_argument_in_every_mode() {
    let nh = NeoHookean {
        mu: 1.5,
        lambda: 4.0,
    };
    let x = STRAINS;
    let (v, g) = gradient(bind(total_impl {}, (&nh, Wrt)), &x);
    assert_eq!(v, total_impl(&nh, &x));
    let (_, _, h) = hessian(bind(total_impl {}, (&nh, Wrt)), &x);
    for i in 0..x.len() {
        assert!(close(g[i], neo_stress(&nh, x[i]), 1e-13));
        assert!(close(h[(i, i)], neo_stiffness(&nh, x[i]), 1e-12));
    }
    // Along the material's μ: ∂W/∂μ = (l² + 2/l − 3)/2 per strain, l = 1 + s.
    let zeros = [0.0; 5];
    let r = total_impl_frule(
        Dual::new(
            &nh,
            &NeoHookeanTangent {
                mu: 1.0,
                lambda: 0.0,
            },
        ),
        Dual::new(&x[..], &zeros[..]),
    );
    let want: f64 = x
        .iter()
        .map(|s| {
            let l = 1.0 + s;
            0.5 * (l * l + 2.0 / l - 3.0)
        })
        .sum();
    assert!(close(r.tangent, want, 1e-13));
}
