//! `#[derive_frule]` on an `impl` block: `&self`, `&mut self` and `self` methods, associated
//! functions, calls by method syntax and by path from other derived bodies.
use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};

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

/// Methods taking `self` by value (a `Copy` type and a consumed, rebuilt one).
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
struct Coil {
    k: f64,
    rest: f64,
}

#[derive_frule]
impl Coil {
    fn energy(self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d
    }

    fn stiffened(mut self, by: f64) -> Self {
        self.k *= 1.0 + by;
        self
    }
}

/// Calls both by method syntax, the receiver used again afterwards (it is `Copy`).
#[derive_frule]
fn coil_work(c: &Coil, x: f64, by: f64) -> f64 {
    let stiff = c.stiffened(by);
    let fixed = Coil { k: 2.0, rest: 0.0 };
    stiff.energy(x) + c.energy(x) + Coil::energy(*c, 2.0 * x) + fixed.energy(x)
}

#[test]
fn self_by_value_methods() {
    let c = Coil { k: 3.0, rest: 0.5 };
    let (x, by) = (1.25, 0.2);
    // f = 0.5 k (1 + by) (x - r)^2 + 0.5 k (x - r)^2 + 0.5 k (2x - r)^2 + x^2 (the
    // constant coil, a receiver independent of the inputs).
    let d = |x: f64| x - c.rest;
    let dk = 0.5 * (1.0 + by) * d(x).powi(2) + 0.5 * d(x).powi(2) + 0.5 * d(2.0 * x).powi(2);
    let dx = c.k * (1.0 + by) * d(x) + c.k * d(x) + 2.0 * c.k * d(2.0 * x) + 2.0 * x;
    let dby = 0.5 * c.k * d(x).powi(2);
    let tc = CoilTangent { k: 1.0, rest: 0.0 };
    let r = coil_work_frule(Dual::new(&c, &tc), Dual::new(x, 0.0), Dual::new(by, 0.0));
    assert_eq!(r.primal, coil_work(&c, x, by));
    approx::assert_relative_eq!(r.tangent, dk, max_relative = 1e-13);
    let zero = CoilTangent { k: 0.0, rest: 0.0 };
    let r = coil_work_frule(Dual::new(&c, &zero), Dual::new(x, 1.0), Dual::new(by, 0.0));
    approx::assert_relative_eq!(r.tangent, dx, max_relative = 1e-13);
    let r = coil_work_frule(Dual::new(&c, &zero), Dual::new(x, 0.0), Dual::new(by, 1.0));
    approx::assert_relative_eq!(r.tangent, dby, max_relative = 1e-13);
    test_frule(
        (c, x, by),
        |a| coil_work(&a.0, a.1, a.2),
        |a, da| {
            coil_work_frule(
                Dual::new(&a.0, &da.0),
                Dual::new(a.1, da.1),
                Dual::new(a.2, da.2),
            )
        },
    );
    test_frule_batched::<3, _, _>(
        (c, x, by),
        |a| coil_work(&a.0, a.1, a.2),
        |a, da| {
            <coil_work as Frule<_, Batch<f64, 3>>>::frule(
                &coil_work {},
                (
                    Dual::new(&a.0, &da.0),
                    Dual::new(a.1, da.1),
                    Dual::new(a.2, da.2),
                ),
            )
        },
    );
    // The method's own entry point.
    let s = Coil::stiffened_frule(Dual::new(c, tc), Dual::new(by, 0.0));
    assert_eq!(s.primal, c.stiffened(by));
    assert_eq!(s.tangent.k, 1.0 + by);
}

/// A generic `impl` block over `T: Float` (f32 and f64), with `Self` paths.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
struct Pendulum<T> {
    length: T,
    gravity: T,
}

#[derive_frule]
impl<T: num_traits::Float> Pendulum<T> {
    fn period_sq(&self) -> T {
        let four_pi_sq = T::from(4.0 * std::f64::consts::PI * std::f64::consts::PI).unwrap();
        four_pi_sq * self.length / self.gravity
    }

    fn stretched(&self, by: T) -> Self {
        Self {
            length: self.length * by,
            gravity: self.gravity,
        }
    }

    fn energy(&self, theta: T) -> T {
        self.gravity * self.length * (T::one() - theta.cos())
    }
}

#[derive_frule]
fn pendulum_score<T: num_traits::Float>(p: &Pendulum<T>, by: T, theta: T) -> T {
    let q = p.stretched(by);
    q.period_sq() + Pendulum::<T>::energy(&q, theta)
}

#[test]
fn generic_impl_block_in_f64_and_f32() {
    let p = Pendulum {
        length: 1.5f64,
        gravity: 9.81,
    };
    let (by, theta) = (1.2f64, 0.4f64);
    // s = 4π² L by / g + g L by (1 - cos θ).
    let c = 4.0 * std::f64::consts::PI * std::f64::consts::PI;
    let d_by = c * p.length / p.gravity + p.gravity * p.length * (1.0 - theta.cos());
    let d_theta = p.gravity * p.length * by * theta.sin();
    let zero = PendulumTangent {
        length: 0.0,
        gravity: 0.0,
    };
    let r = pendulum_score_frule(
        Dual::new(&p, &zero),
        Dual::new(by, 1.0),
        Dual::new(theta, 0.0),
    );
    assert_eq!(r.primal, pendulum_score(&p, by, theta));
    approx::assert_relative_eq!(r.tangent, d_by, max_relative = 1e-13);
    let r = pendulum_score_frule(
        Dual::new(&p, &zero),
        Dual::new(by, 0.0),
        Dual::new(theta, 1.0),
    );
    approx::assert_relative_eq!(r.tangent, d_theta, max_relative = 1e-13);
    test_frule(
        (p, by, theta),
        |a| pendulum_score(&a.0, a.1, a.2),
        |a, da| {
            pendulum_score_frule(
                Dual::new(&a.0, &da.0),
                Dual::new(a.1, da.1),
                Dual::new(a.2, da.2),
            )
        },
    );
    // f32, through the method's own entry point.
    let p32 = Pendulum {
        length: 1.5f32,
        gravity: 9.81f32,
    };
    let z32 = PendulumTangent {
        length: 1.0f32,
        gravity: 0.0f32,
    };
    let r = Pendulum::<f32>::energy_frule(Dual::new(&p32, &z32), Dual::new(0.4f32, 0.0));
    assert_eq!(r.primal, p32.energy(0.4));
    approx::assert_relative_eq!(
        r.tangent,
        9.81f32 * (1.0 - 0.4f32.cos()),
        max_relative = 1e-6
    );
}

// Single-method granularity: a second annotated `impl` block holding one method, beside a
// plain one whose method the macro never sees.
#[derive_frule]
impl Coil {
    fn stiffness_sq(&self) -> f64 {
        self.k * self.k
    }
}

impl Coil {
    fn label(&self) -> String {
        format!("coil k = {}", self.k)
    }
}

#[derive_frule]
fn coil_stiffness(c: &Coil) -> f64 {
    c.stiffness_sq() + c.energy(1.0)
}

#[test]
fn several_impl_blocks_on_one_type() {
    let c = Coil { k: 3.0, rest: 0.5 };
    assert_eq!(c.label(), "coil k = 3");
    // d/dk (k² + 0.5 k (1 - r)²) = 2k + 0.5 (1 - r)².
    let r = coil_stiffness_frule(Dual::new(&c, &CoilTangent { k: 1.0, rest: 0.0 }));
    assert_eq!(r.primal, coil_stiffness(&c));
    approx::assert_relative_eq!(r.tangent, 2.0 * c.k + 0.5 * 0.25, max_relative = 1e-14);
}

/// A trait implemented with `#[derive_frule]` on the `impl Trait for Ty` block: calls by
/// method syntax (also from one trait method to another) find the methods' rules. The
/// trait's definition carries `#[derive_frule]` too, which every derived `impl` of a trait of
/// one's own needs.
#[derive_frule]
pub trait Potential {
    fn value(&self, x: f64) -> f64;
    fn doubled(&self, x: f64) -> f64;
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Well {
    pub depth: f64,
}

#[derive_frule]
impl Potential for Well {
    fn value(&self, x: f64) -> f64 {
        self.depth * x * x
    }
    fn doubled(&self, x: f64) -> f64 {
        2.0 * self.value(x)
    }
}

#[derive_frule]
fn both_potentials(w: &Well, x: f64) -> f64 {
    w.value(x) + w.doubled(x)
}

#[test]
fn trait_impl_methods_through_their_rules() {
    let w = Well { depth: 3.0 };
    let (x, none) = (2.0, WellTangent { depth: 0.0 });
    // 3 d x²: along x 6 d x, along d 3 x².
    let r = both_potentials_frule(Dual::new(&w, &none), Dual::new(x, 1.0));
    assert_eq!(r.primal, both_potentials(&w, x));
    assert_eq!((r.primal, r.tangent), (36.0, 36.0));
    let r = Well::doubled_frule(
        Dual::new(&w, &WellTangent { depth: 1.0 }),
        Dual::new(x, 0.0),
    );
    assert_eq!((r.primal, r.tangent), (24.0, 8.0));
}

/// `&mut self` methods on receivers built from constants, given active arguments: the
/// receiver becomes active where it is defined, so the method writes into it (it wrote
/// into a constant clone, losing the value and the derivative).
#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Acc {
    pub s: f64,
}

#[derive_frule]
impl Acc {
    pub fn add(&mut self, v: f64) {
        self.s = self.s * 0.5 + v * v;
    }
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Hist {
    pub v: Vec<f64>,
    pub n: usize,
}

#[derive_frule]
impl Hist {
    pub fn record(&mut self, x: f64) -> f64 {
        self.v.push(x * x);
        self.n += 1;
        x * self.n as f64
    }
}

#[derive_frule]
fn accumulate(x: &[f64]) -> f64 {
    let mut acc = Acc { s: 1.0 };
    for v in x {
        acc.add(*v);
    }
    let mut h = Hist {
        v: Vec::new(),
        n: 0,
    };
    let a = h.record(x[0]);
    let b = h.record(x[0]);
    acc.s + a + b + h.v[1]
}

#[test]
fn mut_self_methods_on_constant_receivers() {
    let x: [f64; 2] = [3.0, -2.0];
    // s = (1·0.5 + x0²)·0.5 + x1²; a + b = x0 + 2 x0; h.v[1] = x0².
    let f = (0.5 + 9.0) * 0.5 + 4.0 + 9.0 + 9.0;
    let (v, g) = fwdad::drivers::gradient(accumulate {}, &x);
    assert_eq!(v, accumulate(&x));
    assert_eq!(v, f);
    // ∂/∂x0 = x0 + 3 + 2 x0 = 3 x0 + 3; ∂/∂x1 = 2 x1.
    approx::assert_relative_eq!(g[0], 12.0, max_relative = 1e-14);
    approx::assert_relative_eq!(g[1], -4.0, max_relative = 1e-14);
    let d = accumulate_frule(Dual::new(&x[..], &[1.0, 0.0][..]));
    assert_eq!((d.primal, d.tangent), (f, 12.0));
}

/// Methods on elements: a `&self` method reads the element in place (a non-`Copy` one too),
/// and a `&mut self` method by path writes into the array.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Poly {
    pub c: Vec<f64>,
}

#[derive_frule]
impl Poly {
    pub fn eval(&self, x: f64) -> f64 {
        self.c[0] + self.c[1] * x
    }
}

#[derive_frule]
fn on_elements(ps: &[Poly], x: f64) -> f64 {
    let mut a = [Acc { s: 1.0 }, Acc { s: 2.0 }];
    Acc::add(&mut a[1], x);
    ps[0].eval(x) + ps[1].eval(x) + a[1].s
}

#[test]
fn methods_on_elements() {
    let ps = [Poly { c: vec![1.0, 2.0] }, Poly { c: vec![0.5, -1.0] }];
    let zero = [
        PolyTangent { c: vec![0.0; 2] },
        PolyTangent { c: vec![0.0; 2] },
    ];
    // 1 + 2x + 0.5 − x + 2·0.5 + x²: derivative 1 + 2x.
    let r = on_elements_frule(Dual::new(&ps[..], &zero[..]), Dual::new(1.5, 1.0));
    assert_eq!(r.primal, on_elements(&ps, 1.5));
    assert_eq!(
        (r.primal, r.tangent),
        (1.0 + 3.0 + 0.5 - 1.5 + 1.0 + 2.25, 4.0)
    );
}

/// `&mut self` methods on fields and elements in method-call syntax: the place is borrowed
/// mutably where its root allows it (a local, a `&mut` parameter, `&mut self`), after the
/// arguments, which may read the same root; `&self` methods on such places still read.
#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Outer {
    pub a: Acc,
    pub k: f64,
}

#[derive_frule]
impl Outer {
    pub fn bump(&mut self, v: f64) {
        self.a.add(v * self.k);
    }
    pub fn level(&self) -> f64 {
        self.a.s * self.k
    }
}

// A `Vec` parameter indexed in a counted loop: what users write.
#[allow(clippy::ptr_arg, clippy::needless_range_loop)]
#[derive_frule]
fn on_places(v: &mut Vec<Acc>, o: &Outer, x: f64) -> f64 {
    let mut local = [Acc { s: 1.0 }, Acc { s: x }];
    local[0].add(x);
    for i in 0..v.len() {
        v[i].add(x);
    }
    let mut t = *o;
    t.bump(x);
    t.a.add(x);
    local[0].s + local[1].s + t.level() + o.level()
}

#[test]
fn mut_self_methods_on_fields_and_elements() {
    // add: s ← s/2 + v². With o = { a: { s: 2 }, k: 3 } and x:
    // local[0].s = 0.5 + x², local[1].s = x;
    // t.bump(x): t.a.s = 1 + 9x², then t.a.add(x): t.a.s = 0.5 + 4.5x² + x²;
    // result = 0.5 + x² + x + 3·(0.5 + 5.5x²) + 6; v[i].s ← v[i].s/2 + x².
    let o = Outer {
        a: Acc { s: 2.0 },
        k: 3.0,
    };
    let ot = OuterTangent {
        a: AccTangent { s: 0.0 },
        k: 0.0,
    };
    let x = 0.7;
    let mut v = vec![Acc { s: 1.0 }, Acc { s: 4.0 }];
    let mut dv = vec![AccTangent { s: 1.0 }, AccTangent { s: 0.0 }];
    let r = on_places_frule(
        Dual::new(&mut v, &mut dv),
        Dual::new(&o, &ot),
        Dual::new(x, 1.0),
    );
    let mut plain = vec![Acc { s: 1.0 }, Acc { s: 4.0 }];
    assert_eq!(r.primal, on_places(&mut plain, &o, x));
    assert_eq!(v, plain);
    approx::assert_relative_eq!(r.primal, 8.0 + x + 17.5 * x * x, max_relative = 1e-14);
    // d/dx = 1 + 35x; dv[i] ← dv[i]/2 + 2x.
    approx::assert_relative_eq!(r.tangent, 1.0 + 35.0 * x, max_relative = 1e-14);
    assert_eq!(
        dv,
        [AccTangent { s: 0.5 + 2.0 * x }, AccTangent { s: 2.0 * x }]
    );
}

#[derive_frule]
fn through_mut_refs(x: f64) -> f64 {
    let mut a = [Acc { s: 0.0 }, Acc { s: 1.0 }];
    for e in a.iter_mut() {
        e.add(x);
    }
    let r = &mut a[1];
    r.add(2.0 * x);
    a[0].s + a[1].s
}

#[test]
fn mut_self_methods_through_mut_references() {
    // a[0].s = x², a[1].s = (0.5 + x²)·0.5 + 4x² = 0.25 + 4.5x²: total 0.25 + 5.5x².
    let x = 0.7;
    let r = through_mut_refs_frule(Dual::new(x, 1.0));
    assert_eq!(r.primal, through_mut_refs(x));
    approx::assert_relative_eq!(r.primal, 0.25 + 5.5 * x * x, max_relative = 1e-14);
    approx::assert_relative_eq!(r.tangent, 11.0 * x, max_relative = 1e-14);
    let (_, g) = fwdad::drivers::gradient(bind_through {}, &[x]);
    approx::assert_relative_eq!(g[0], 11.0 * x, max_relative = 1e-14);
}

#[derive_frule]
fn bind_through(x: &[f64]) -> f64 {
    through_mut_refs(x[0])
}

/// A method given its own receiver (`self.dot(self)`), and `Vec::with_capacity` sized by a
/// field of an active struct.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct V2d {
    pub x: f64,
    pub y: f64,
}

#[derive_frule]
impl V2d {
    pub fn dot(&self, o: &V2d) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn norm2(&self) -> f64 {
        self.dot(self)
    }
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Net {
    pub w: Vec<f64>,
    pub n_out: usize,
}

#[derive_frule]
impl Net {
    pub fn forward(&self, x: f64) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.n_out);
        for i in 0..self.n_out {
            out.push(self.w[i] * x);
        }
        out
    }
}

#[derive_frule]
fn local_norm2(x: f64, y: f64) -> f64 {
    let a = V2d { x, y: 2.0 * y };
    a.dot(&a) + a.norm2()
}

#[test]
fn receiver_as_argument_and_sized_constructors() {
    // 2·(x² + 4y²): ∂/∂x = 4x, ∂/∂y = 16y.
    let r = local_norm2_frule(Dual::new(0.5, 1.0), Dual::new(-1.5, 0.0));
    assert_eq!((r.primal, r.tangent), (local_norm2(0.5, -1.5), 2.0));
    let r = local_norm2_frule(Dual::new(0.5, 0.0), Dual::new(-1.5, 1.0));
    assert_eq!(r.tangent, -24.0);
    let v = V2d { x: 3.0, y: 4.0 };
    // |v|² = x² + y²: along (1, 0) the derivative is 2x.
    let r = V2d::norm2_frule(Dual::new(&v, &V2dTangent { x: 1.0, y: 0.0 }));
    assert_eq!((r.primal, r.tangent), (v.norm2(), 6.0));
    let n = Net {
        w: vec![1.0, 2.0],
        n_out: 2,
    };
    let nt = NetTangent {
        w: vec![0.0, 0.0],
        n_out: NoTangent,
    };
    // out = w·x: d/dx = w.
    let r = Net::forward_frule(Dual::new(&n, &nt), Dual::new(1.5, 1.0));
    assert_eq!((r.primal, r.tangent), (n.forward(1.5), vec![1.0, 2.0]));
}

// A local `Vec`, as the case to check is a mutably borrowable root.
#[allow(clippy::useless_vec)]
#[derive_frule]
fn pair_dots(x: &[f64]) -> f64 {
    let ps = vec![
        V2d { x: x[0], y: x[1] },
        V2d {
            x: x[1],
            y: 2.0 * x[0],
        },
    ];
    let mut s = 0.0;
    for i in 0..2 {
        s += ps[i].dot(&ps[1 - i]);
    }
    if let Some(q) = ps.first() {
        s += q.norm2();
    }
    s
}

#[test]
fn methods_on_elements_lending_other_elements() {
    // p0 = (x0, x1), p1 = (x1, 2x0): s = 2·p0·p1 + |p0|² = 6·x0·x1 + x0² + x1²;
    // ∇s = (6x1 + 2x0, 6x0 + 2x1).
    let x = [0.5, -1.0];
    let (v, g) = fwdad::drivers::gradient(pair_dots {}, &x);
    assert_eq!(v, pair_dots(&x));
    assert_eq!(g, [-5.0, 1.0]);
}

/// A derived method called on a clone of the receiver (helper hunt J: it was taken for a
/// method of the clone's unknown type).
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Tally {
    pub s: f64,
    pub n: usize,
}

#[derive_frule]
impl Tally {
    fn total(&self) -> f64 {
        self.s * self.n as f64
    }
}

#[derive_frule]
fn tally_of_clones(p: &Tally) -> f64 {
    let a: Tally = p.clone();
    a.total() + p.clone().total()
}

#[test]
fn methods_of_clones() {
    let p = Tally { s: 2.0, n: 3 };
    let d = tally_of_clones_frule(Dual::new(
        &p,
        &TallyTangent {
            s: 1.0,
            n: NoTangent,
        },
    ));
    // 2·s·n: d/ds = 2n.
    assert_eq!((d.primal, d.tangent), (tally_of_clones(&p), 6.0));
}

/// A constant buffer lent `&mut` to a method of an active receiver carries the tangents
/// the method writes into it (helper hunt 28: it was left inactive, a type error at the
/// call; the path form `Oscillator::step(&o, &mut s, dt)` worked).
#[derive(Differentiable, Clone, Debug)]
pub struct Oscillator {
    pub k: f64,
}

#[derive(Differentiable, Clone, Debug)]
pub struct Phase {
    pub x: f64,
    pub v: f64,
}

#[derive_frule]
impl Oscillator {
    pub fn step(&self, s: &mut [f64; 2], dt: f64) {
        s[1] -= self.k * s[0] * dt;
        s[0] += s[1] * dt;
    }

    pub fn step_phase(&self, p: &mut Phase, dt: f64) {
        p.v -= self.k * p.x * dt;
        p.x += p.v * dt;
    }
}

#[derive_frule]
fn oscillator_x(k: f64, steps: usize) -> f64 {
    let o = Oscillator { k };
    let mut s = [1.0, 0.0];
    let mut p = Phase { x: 1.0, v: 0.0 };
    for _ in 0..steps {
        o.step(&mut s, 0.1);
        o.step_phase(&mut p, 0.1);
    }
    s[0] + p.x
}

#[test]
fn constant_buffers_lent_to_methods_of_active_receivers() {
    for &(k, steps) in &[(2.0, 1), (2.0, 5), (0.5, 20)] {
        let d = oscillator_x_frule(Dual::new(k, 1.0), Dual::constant(steps));
        assert_eq!(d.primal, oscillator_x(k, steps));
        let h = 1e-6;
        let fd = (oscillator_x(k + h, steps) - oscillator_x(k - h, steps)) / (2.0 * h);
        approx::assert_relative_eq!(d.tangent, fd, max_relative = 1e-6, epsilon = 1e-9);
    }
    // One step: x₁ = 1 + v₁·dt with v₁ = −k·dt, so dx₁/dk = −dt² for each of the two.
    let d = oscillator_x_frule(Dual::new(2.0, 1.0), Dual::constant(1));
    approx::assert_relative_eq!(d.tangent, -0.02, epsilon = 1e-15);
}
