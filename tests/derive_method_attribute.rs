//! `#[derive_frule]` on single methods inside a plain `impl` block (the block itself not
//! annotated, its other methods left alone), called from derived functions with method
//! syntax and by path, in every mode: one direction (`jvp`, `m_frule`), batched
//! (`gradient`) and second order (`hessian`), against closed forms and central finite
//! differences; primals bit for bit.

use fwdad::prelude::*;

#[derive(Differentiable, Clone, Debug)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
    pub name: String,
}

impl Spring {
    /// The stored energy at length `x`.
    #[derive_frule]
    pub fn energy(&self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d
    }

    /// The force, through the energy's own rule.
    #[derive_frule]
    pub fn damped_energy(&self, x: f64, c: f64) -> f64 {
        self.energy(x) * (-c * x).exp()
    }

    /// Plastic flow: the rest length creeps toward `x`.
    #[derive_frule]
    pub fn creep(&mut self, x: f64, rate: f64) {
        self.rest += rate * (x - self.rest);
    }

    /// A stiffer copy, built with the type's name.
    #[derive_frule]
    pub fn stiffer(&self, dk: f64) -> Spring {
        Spring {
            k: self.k + dk,
            rest: self.rest,
            name: String::new(),
        }
    }

    /// Not differentiated: a label (`format!` has no rule, and needs none here).
    pub fn label(&self) -> String {
        format!("{} (k = {})", self.name, self.k)
    }
}

/// Energy after creeping twice, every call through a method's rule.
#[derive_frule]
fn crept_energy(p: &[f64]) -> f64 {
    let mut s = Spring {
        k: p[0],
        rest: p[1],
        name: String::new(),
    };
    s.creep(p[2], 0.25);
    s.creep(p[2], 0.25);
    s.energy(p[2]) + Spring::damped_energy(&s, p[2], 0.3)
}

/// ½ (k + dk) (x - 1)², through a method that returns a new `Spring`.
#[derive_frule]
fn stiffened_energy(p: &[f64]) -> f64 {
    let s = Spring {
        k: p[0],
        rest: 1.0,
        name: String::new(),
    };
    s.stiffer(p[1]).energy(p[2])
}

fn crept_energy_by_hand(p: &[f64]) -> f64 {
    // rest' = rest + r (x - rest) twice: x - rest'' = (1 - r)² (x - rest).
    let (k, rest, x) = (p[0], p[1], p[2]);
    let d = 0.75 * 0.75 * (x - rest);
    let e = 0.5 * k * d * d;
    e + e * (-0.3 * x).exp()
}

fn fd_gradient(f: &dyn Fn(&[f64]) -> f64, x: &[f64], h: f64) -> Vec<f64> {
    (0..x.len())
        .map(|j| {
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[j] += h;
            b[j] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} vs {want}"
    );
}

#[test]
fn methods_annotated_one_by_one_in_every_mode() {
    let p = [3.0, 1.2, 2.0];
    let y = crept_energy(&p);
    assert_close(
        y,
        crept_energy_by_hand(&p),
        1e-15,
        "primal against the closed form",
    );
    let fd = fd_gradient(&crept_energy_by_hand, &p, 1e-6);

    let (v, g) = gradient(crept_energy {}, &p);
    assert_eq!(v.to_bits(), y.to_bits(), "gradient's primal");
    for j in 0..3 {
        assert_close(g[j], fd[j], 1e-8, &format!("gradient[{j}]"));
        let e: Vec<f64> = (0..3).map(|i| if i == j { 1.0 } else { 0.0 }).collect();
        let (v, d): (f64, f64) = jvp(crept_energy {}, &p, &e);
        assert_eq!(v.to_bits(), y.to_bits(), "jvp's primal");
        assert_close(d, fd[j], 1e-8, &format!("jvp along e{j}"));
    }
    let (v, g2, h) = hessian(crept_energy {}, &p);
    assert_eq!(v.to_bits(), y.to_bits(), "hessian's primal");
    for j in 0..3 {
        assert_close(g2[j], g[j], 1e-12, "hessian's gradient");
        let (mut a, mut b) = (p.to_vec(), p.to_vec());
        a[j] += 1e-5;
        b[j] -= 1e-5;
        let (_, ga) = gradient(crept_energy {}, &a);
        let (_, gb) = gradient(crept_energy {}, &b);
        for i in 0..3 {
            assert_close(
                h[(i, j)],
                (ga[i] - gb[i]) / 2e-5,
                1e-5,
                &format!("H[{i}, {j}]"),
            );
        }
    }
}

#[test]
fn the_method_entry_and_the_plain_methods() {
    let s = Spring {
        k: 2.0,
        rest: 1.0,
        name: "a".into(),
    };
    let t = SpringTangent {
        k: 0.0,
        rest: 0.0,
        name: NoTangent,
    };
    // d/dx ½k(x - rest)² = k(x - rest).
    let d = Spring::energy_frule(Dual::new(&s, &t), Dual::new(1.5, 1.0));
    assert_eq!(d.primal.to_bits(), s.energy(1.5).to_bits());
    assert_eq!(d.tangent, 2.0 * 0.5);
    // Along k: ½(x - rest)².
    let tk = SpringTangent { k: 1.0, ..t };
    let d = Spring::energy_frule(Dual::new(&s, &tk), Dual::new(1.5, 0.0));
    assert_eq!(d.tangent, 0.5 * 0.25);
    assert_eq!(s.label(), "a (k = 2)");
}

#[test]
fn a_method_returning_a_struct_literal() {
    let p = [2.0, 0.5, 1.75];
    let d = p[2] - 1.0;
    let (v, g) = gradient(stiffened_energy {}, &p);
    assert_eq!(v.to_bits(), stiffened_energy(&p).to_bits());
    // ∂/∂k = ∂/∂dk = ½ d², ∂/∂x = (k + dk) d.
    let want = [0.5 * d * d, 0.5 * d * d, (p[0] + p[1]) * d];
    for j in 0..3 {
        assert_close(g[j], want[j], 1e-15, &format!("gradient[{j}]"));
    }
    let (_, _, h) = hessian(stiffened_energy {}, &p);
    // ∂²/∂k∂x = ∂²/∂dk∂x = d, ∂²/∂x² = k + dk.
    assert_close(h[(0, 2)], d, 1e-15, "H[k, x]");
    assert_close(h[(1, 2)], d, 1e-15, "H[dk, x]");
    assert_close(h[(2, 2)], p[0] + p[1], 1e-15, "H[x, x]");
}
