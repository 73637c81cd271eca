//! Traits as numerical code writes them: associated constants and types in numeric loops
//! (`C::DIM`, `type State = [f64; 2]` stepped by a generic RK4), default methods calling
//! required ones and `Self::new(..)`, constructors by path (`M::new`, `<M as Model>::new`,
//! `<Decay as Model>::new`), generic functions over slices of implementors, a generic
//! struct over a trait, and a blanket `impl<T: Shape> Area for T`. Each checked in every
//! mode against central differences (`check_modes!`), several against closed forms,
//! primals bit for bit. (Trait objects built from active values and `&mut self` methods
//! through `dyn` stay errors: `tests/ui/derive_frule/trait-object-*.rs`.)

use fwdad::prelude::*;

#[macro_use]
mod common;

// ---- associated constants and types in numeric code -------------------------------

/// A discretised potential over a fixed number of degrees of freedom.
#[derive_frule]
pub trait Chain {
    const DIM: usize;
    type Scalar;
    fn bond(&self, a: Self::Scalar, b: Self::Scalar) -> Self::Scalar;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Harmonic {
    pub k: f64,
    pub rest: f64,
}

#[derive_frule]
impl Chain for Harmonic {
    const DIM: usize = 4;
    type Scalar = f64;
    fn bond(&self, a: f64, b: f64) -> f64 {
        let s = b - a - self.rest;
        0.5 * self.k * s * s
    }
}

/// Total bond energy of the first `C::DIM` sites.
#[derive_frule]
pub fn chain_energy<C: Chain<Scalar = f64>>(c: &C, x: &[f64]) -> f64 {
    let mut e = 0.0;
    for i in 1..C::DIM {
        e += c.bond(x[i - 1], x[i]);
    }
    e
}

#[derive_frule]
pub fn harmonic_chain(x: &[f64]) -> f64 {
    let c = Harmonic { k: x[4], rest: 0.5 };
    chain_energy(&c, &x[..4])
}

fn harmonic_chain_plain(x: &[f64]) -> f64 {
    let c = Harmonic { k: x[4], rest: 0.5 };
    chain_energy(&c, &x[..4])
}

#[test]
fn associated_const_and_type() {
    check_modes!(
        harmonic_chain {},
        harmonic_chain_plain,
        [0.1, 0.7, 1.1, 1.9, 3.0]
    );
}

// ---- default methods calling required ones --------------------------------------

#[derive_frule]
pub trait PairPotential {
    fn energy(&self, r: f64) -> f64;
    fn force(&self, r: f64) -> f64;
    /// The virial of one pair, `r F(r)`.
    fn virial(&self, r: f64) -> f64 {
        r * self.force(r)
    }
    /// Energy summed over a set of pair distances.
    fn total(&self, rs: &[f64]) -> f64 {
        rs.iter().map(|&r| self.energy(r)).sum()
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct LennardJones {
    pub eps: f64,
    pub sigma: f64,
}

#[derive_frule]
impl PairPotential for LennardJones {
    fn energy(&self, r: f64) -> f64 {
        let sr6 = (self.sigma / r).powi(6);
        4.0 * self.eps * (sr6 * sr6 - sr6)
    }
    fn force(&self, r: f64) -> f64 {
        let sr6 = (self.sigma / r).powi(6);
        24.0 * self.eps * (2.0 * sr6 * sr6 - sr6) / r
    }
}

#[derive_frule]
pub fn lj_pressure_terms(p: &[f64]) -> f64 {
    let lj = LennardJones {
        eps: p[0],
        sigma: p[1],
    };
    let rs = [p[2], p[3], p[4]];
    let w: f64 = rs.iter().map(|&r| lj.virial(r)).sum();
    lj.total(&rs) + w / 3.0
}

fn lj_pressure_terms_plain(p: &[f64]) -> f64 {
    let lj = LennardJones {
        eps: p[0],
        sigma: p[1],
    };
    let rs = [p[2], p[3], p[4]];
    let w: f64 = rs.iter().map(|&r| lj.virial(r)).sum();
    lj.total(&rs) + w / 3.0
}

#[test]
fn default_methods_call_required_ones() {
    check_modes!(
        lj_pressure_terms {},
        lj_pressure_terms_plain,
        [0.8, 1.1, 1.2, 1.4, 1.9]
    );
}

// ---- static methods: T::new(..), <T as Model>::eval(..) ---------------------------

#[derive_frule]
pub trait Model {
    fn new(a: f64, b: f64) -> Self
    where
        Self: Sized;
    fn eval(&self, t: f64) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Decay {
    pub amp: f64,
    pub rate: f64,
}

#[derive_frule]
impl Model for Decay {
    fn new(a: f64, b: f64) -> Self {
        Decay { amp: a, rate: b }
    }
    fn eval(&self, t: f64) -> f64 {
        self.amp * (-self.rate * t).exp()
    }
}

/// Sum of squared residuals of model `M` with parameters `(a, b)` on fixed data.
#[derive_frule]
pub fn sse<M: Model>(a: f64, b: f64, ts: &[f64], ys: &[f64]) -> f64 {
    let m = M::new(a, b);
    let mut s = 0.0;
    for (t, y) in ts.iter().zip(ys) {
        let r = <M as Model>::eval(&m, *t) - y;
        s += r * r;
    }
    s
}

const TS: [f64; 4] = [0.0, 0.5, 1.0, 2.0];
const YS: [f64; 4] = [2.1, 1.2, 0.8, 0.3];

#[derive_frule]
pub fn decay_fit(p: &[f64]) -> f64 {
    sse::<Decay>(p[0], p[1], &TS, &YS)
}

fn decay_fit_plain(p: &[f64]) -> f64 {
    sse::<Decay>(p[0], p[1], &TS, &YS)
}

#[test]
fn static_methods_through_the_type_parameter() {
    check_modes!(decay_fit {}, decay_fit_plain, [2.0, 1.1]);
}

// ---- generic functions over slices of a trait's implementors -----------------------

#[derive_frule]
pub trait Body {
    fn mass(&self) -> f64;
    fn position(&self) -> [f64; 2];
    fn kinetic(&self) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Planet {
    pub m: f64,
    pub x: [f64; 2],
    pub v: [f64; 2],
}

#[derive_frule]
impl Body for Planet {
    fn mass(&self) -> f64 {
        self.m
    }
    fn position(&self) -> [f64; 2] {
        self.x
    }
    fn kinetic(&self) -> f64 {
        0.5 * self.m * (self.v[0] * self.v[0] + self.v[1] * self.v[1])
    }
}

/// Kinetic plus gravitational potential energy (G = 1).
#[derive_frule]
pub fn energy<B: Body>(bodies: &[B]) -> f64 {
    let mut e = 0.0;
    for (i, a) in bodies.iter().enumerate() {
        e += a.kinetic();
        for b in &bodies[i + 1..] {
            let (pa, pb) = (a.position(), b.position());
            let d = ((pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2)).sqrt();
            e -= a.mass() * b.mass() / d;
        }
    }
    e
}

#[derive_frule]
pub fn two_body(q: &[f64]) -> f64 {
    let bodies = vec![
        Planet {
            m: 1.0,
            x: [0.0, 0.0],
            v: [0.0, q[0]],
        },
        Planet {
            m: q[1],
            x: [q[2], 0.0],
            v: [0.0, q[3]],
        },
    ];
    energy(&bodies)
}

fn two_body_plain(q: &[f64]) -> f64 {
    let bodies = vec![
        Planet {
            m: 1.0,
            x: [0.0, 0.0],
            v: [0.0, q[0]],
        },
        Planet {
            m: q[1],
            x: [q[2], 0.0],
            v: [0.0, q[3]],
        },
    ];
    energy(&bodies)
}

#[test]
fn generic_function_over_a_slice_of_bodies() {
    check_modes!(two_body {}, two_body_plain, [0.1, 0.3, 1.5, 0.8]);
}

// ---- more forms ----------------------------------------------------------------

#[derive_frule]
pub trait Particle {
    const G: f64 = 9.81;
    const MASS: f64;
    fn height(&self) -> f64;
    fn speed(&self) -> f64;
    fn kinetic(&self) -> f64 {
        0.5 * Self::MASS * self.speed() * self.speed()
    }
    fn potential(&self) -> f64 {
        Self::MASS * Self::G * self.height()
    }
    fn energy(&self) -> f64 {
        self.kinetic() + self.potential()
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Ball {
    pub h: f64,
    pub v: f64,
}

#[derive_frule]
impl Particle for Ball {
    const MASS: f64 = 0.45;
    fn height(&self) -> f64 {
        self.h
    }
    fn speed(&self) -> f64 {
        self.v
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct MoonRock {
    pub h: f64,
    pub v: f64,
}

#[derive_frule]
impl Particle for MoonRock {
    const G: f64 = 1.62;
    const MASS: f64 = 2.0;
    fn height(&self) -> f64 {
        self.h
    }
    fn speed(&self) -> f64 {
        self.v
    }
}

fn pair_energy<A: Particle, B: Particle>(a: &A, b: &B) -> f64 {
    a.energy() + b.energy()
}

/// Generic helper calling a generic helper, with a `where` clause.
#[derive_frule]
pub fn system_energy<A, B>(a: &[A], b: &[B]) -> f64
where
    A: Particle,
    B: Particle,
{
    let mut e = 0.0;
    for (p, q) in a.iter().zip(b.iter()) {
        e += pair_energy_d(p, q);
    }
    e
}

#[derive_frule]
pub fn pair_energy_d<A: Particle, B: Particle>(a: &A, b: &B) -> f64 {
    a.energy() + b.energy()
}

#[derive_frule]
pub fn mixed(x: &[f64]) -> f64 {
    let balls = vec![
        Ball { h: x[0], v: x[1] },
        Ball {
            h: 2.0 * x[0],
            v: x[2],
        },
    ];
    let rocks = [
        MoonRock {
            h: x[3],
            v: x[1] * x[2],
        },
        MoonRock { h: 1.0, v: x[0] },
    ];
    system_energy(&balls, &rocks)
}

fn mixed_plain(x: &[f64]) -> f64 {
    let balls = [
        Ball { h: x[0], v: x[1] },
        Ball {
            h: 2.0 * x[0],
            v: x[2],
        },
    ];
    let rocks = [
        MoonRock {
            h: x[3],
            v: x[1] * x[2],
        },
        MoonRock { h: 1.0, v: x[0] },
    ];
    balls
        .iter()
        .zip(&rocks)
        .map(|(a, b)| pair_energy(a, b))
        .sum()
}

#[test]
fn associated_float_constants_and_default_chains() {
    check_modes!(mixed {}, mixed_plain, [1.3, 0.4, -0.9, 0.7]);
    // Closed form: ∂E/∂x₃ = m_rock g_moon.
    let (_, g) = fwdad::drivers::gradient(mixed {}, &[1.3, 0.4, -0.9, 0.7]);
    assert!((g[3] - 2.0 * 1.62).abs() < 1e-12);
}

/// A simulation generic over its bodies, methods in a generic derived impl.
#[derive(Clone, Debug, Differentiable)]
pub struct Sim<B: Particle> {
    pub bodies: Vec<B>,
}

#[derive_frule]
impl<B: Particle> Sim<B> {
    pub fn total(&self) -> f64 {
        self.bodies.iter().map(|b| b.energy()).sum()
    }
}

#[derive_frule]
pub fn sim_total(x: &[f64]) -> f64 {
    let sim = Sim {
        bodies: vec![Ball { h: x[0], v: x[1] }, Ball { h: x[1], v: x[0] }],
    };
    sim.total()
}

fn sim_total_plain(x: &[f64]) -> f64 {
    let sim = Sim {
        bodies: vec![Ball { h: x[0], v: x[1] }, Ball { h: x[1], v: x[0] }],
    };
    sim.total()
}

#[test]
fn generic_struct_over_a_trait() {
    check_modes!(sim_total {}, sim_total_plain, [1.3, 0.4]);
}

/// Constructors through the concrete type and through the trait.
#[derive_frule]
pub fn built_three_ways(p: &[f64]) -> f64 {
    let a = Decay::new(p[0], p[1]);
    let b = <Decay as Model>::new(p[1], p[0]);
    let c: Decay = Model::new(p[0], 0.5);
    a.eval(1.0) + b.eval(0.5) + Model::eval(&c, 2.0)
}

fn built_three_ways_plain(p: &[f64]) -> f64 {
    let a = Decay::new(p[0], p[1]);
    let b = <Decay as Model>::new(p[1], p[0]);
    let c: Decay = Model::new(p[0], 0.5);
    a.eval(1.0) + b.eval(0.5) + Model::eval(&c, 2.0)
}

#[test]
fn constructors_by_path() {
    check_modes!(built_three_ways {}, built_three_ways_plain, [1.3, 0.4]);
}

/// `&[impl Body]` and `&Vec<B>` (as written by hand).
#[allow(clippy::ptr_arg)]
#[derive_frule]
pub fn kinetic_of(bodies: &[impl Body], more: &Vec<Planet>) -> f64 {
    bodies.iter().map(|b| b.kinetic()).sum::<f64>() + more.iter().map(Body::kinetic).sum::<f64>()
}

#[derive_frule]
pub fn kinetic_two(q: &[f64]) -> f64 {
    let a = [Planet {
        m: q[0],
        x: [0.0, 0.0],
        v: [q[1], 0.0],
    }];
    let b = vec![Planet {
        m: 1.0,
        x: [0.0, 0.0],
        v: [q[1], q[0]],
    }];
    kinetic_of(&a, &b)
}

fn kinetic_two_plain(q: &[f64]) -> f64 {
    let a = [Planet {
        m: q[0],
        x: [0.0, 0.0],
        v: [q[1], 0.0],
    }];
    let b = vec![Planet {
        m: 1.0,
        x: [0.0, 0.0],
        v: [q[1], q[0]],
    }];
    kinetic_of(&a, &b)
}

#[test]
fn impl_trait_slices() {
    check_modes!(kinetic_two {}, kinetic_two_plain, [1.3, 0.4]);
}

/// A model whose trait constructor takes its parameters as `(amplitude, rate)`, built
/// through the trait's qualified path.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Growth {
    pub rate: f64,
    pub amp: f64,
}

#[derive_frule]
impl Model for Growth {
    fn new(a: f64, b: f64) -> Self {
        Growth { rate: b, amp: a }
    }
    fn eval(&self, t: f64) -> f64 {
        self.amp * (self.rate * t).exp()
    }
}

#[derive_frule]
pub fn growth_both(p: &[f64]) -> f64 {
    let forward = <Growth as Model>::new(p[0], p[1]);
    let swapped = <Growth as Model>::new(p[1], p[0]);
    forward.eval(1.5) - 0.5 * swapped.eval(1.0)
}

fn growth_both_plain(p: &[f64]) -> f64 {
    let forward = <Growth as Model>::new(p[0], p[1]);
    let swapped = <Growth as Model>::new(p[1], p[0]);
    forward.eval(1.5) - 0.5 * swapped.eval(1.0)
}

#[test]
fn qualified_constructor_without_self() {
    let p = [0.7, 0.3];
    check_modes!(growth_both {}, growth_both_plain, p);
    // Closed form: a e^{b t} at t = 1.5 minus half of b e^{a t} at t = 1.
    let (y, g) = fwdad::drivers::gradient(growth_both {}, &p);
    let (a, b) = (p[0], p[1]);
    assert_eq!(y.to_bits(), growth_both_plain(&p).to_bits());
    let want = [
        (1.5 * b).exp() - 0.5 * b * a.exp(),
        1.5 * a * (1.5 * b).exp() - 0.5 * a.exp(),
    ];
    for k in 0..2 {
        assert!(
            (g[k] - want[k]).abs() < 1e-12,
            "{k}: {} vs {}",
            g[k],
            want[k]
        );
    }
}

// ---- associated types in generic bodies, `Self::` in default methods ---------------

/// A spring law over `N` nodes; `Self::new` rebuilds a stiffer copy in a default method.
#[derive_frule]
pub trait Law {
    const NODES: usize;
    type Param;
    fn new(k: f64, rest: f64) -> Self
    where
        Self: Sized;
    fn stiffness(&self) -> f64;
    fn rest(&self) -> f64;
    fn energy(&self, x: &[f64]) -> f64 {
        let mut e = 0.0;
        for i in 1..Self::NODES {
            let s = x[i] - x[i - 1] - self.rest();
            e += 0.5 * self.stiffness() * s * s;
        }
        e
    }
    fn stiffened(&self, by: f64) -> Self
    where
        Self: Sized,
    {
        Self::new(self.stiffness() * by, self.rest())
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Hooke {
    pub k: f64,
    pub l0: f64,
}

#[derive_frule]
impl Law for Hooke {
    const NODES: usize = 3;
    type Param = f64;
    fn new(k: f64, rest: f64) -> Self {
        Hooke { k, l0: rest }
    }
    fn stiffness(&self) -> f64 {
        self.k
    }
    fn rest(&self) -> f64 {
        self.l0
    }
}

/// Energy of the law built through `<L as Law>::new`, then stiffened, its parameter read
/// through the associated type.
#[derive_frule]
pub fn law_energy<L: Law<Param = f64>>(k: f64, x: &[f64]) -> f64 {
    let law = <L as Law>::new(k, 0.25);
    let stiff = law.stiffened(1.5);
    let weight: L::Param = 0.5;
    law.energy(x) + weight * stiff.energy(x)
}

#[derive_frule]
pub fn hooke_energy(p: &[f64]) -> f64 {
    law_energy::<Hooke>(p[0], &p[1..])
}

fn hooke_energy_plain(p: &[f64]) -> f64 {
    law_energy::<Hooke>(p[0], &p[1..])
}

#[test]
fn self_constructor_in_a_default_method_and_associated_types() {
    let p = [2.0, 0.1, 0.5, 1.2];
    check_modes!(hooke_energy {}, hooke_energy_plain, p);
    // Closed form: E = (1 + 0.75) k/2 Σ sᵢ², sᵢ = xᵢ - xᵢ₋₁ - 1/4.
    let (_, g) = fwdad::drivers::gradient(hooke_energy {}, &p);
    let s = [p[2] - p[1] - 0.25, p[3] - p[2] - 0.25];
    let c = 1.75 * p[0];
    let want = [
        0.875 * (s[0] * s[0] + s[1] * s[1]),
        -c * s[0],
        c * (s[0] - s[1]),
        c * s[1],
    ];
    for k in 0..4 {
        assert!(
            (g[k] - want[k]).abs() < 1e-12,
            "{k}: {} vs {}",
            g[k],
            want[k]
        );
    }
}

// ---- a blanket impl over the implementors of another trait of one's own --------------

#[derive_frule]
pub trait Shape {
    fn width(&self) -> f64;
    fn height(&self) -> f64;
}

#[derive_frule]
pub trait Area {
    fn area(&self) -> f64;
    fn aspect(&self) -> f64;
}

#[derive_frule]
impl<T: Shape> Area for T {
    fn area(&self) -> f64 {
        self.width() * self.height()
    }
    fn aspect(&self) -> f64 {
        self.width() / self.height()
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Rect {
    pub w: f64,
    pub h: f64,
}

#[derive_frule]
impl Shape for Rect {
    fn width(&self) -> f64 {
        self.w
    }
    fn height(&self) -> f64 {
        self.h
    }
}

#[derive_frule]
pub fn plate(p: &[f64]) -> f64 {
    let r = Rect { w: p[0], h: p[1] };
    r.area() + 0.1 * r.aspect()
}

fn plate_plain(p: &[f64]) -> f64 {
    let r = Rect { w: p[0], h: p[1] };
    r.area() + 0.1 * r.aspect()
}

#[test]
fn blanket_impl_on_a_concrete_type() {
    let p = [1.5, 0.4];
    check_modes!(plate {}, plate_plain, p);
    // Closed form: w h + w / (10 h).
    let (_, g) = fwdad::drivers::gradient(plate {}, &p);
    let (w, h) = (p[0], p[1]);
    let want = [h + 0.1 / h, w - 0.1 * w / (h * h)];
    for k in 0..2 {
        assert!(
            (g[k] - want[k]).abs() < 1e-12,
            "{k}: {} vs {}",
            g[k],
            want[k]
        );
    }
}

/// Generic over the bounding trait: `area` comes from the blanket impl.
#[derive_frule]
pub fn total_area<S: Shape>(shapes: &[S]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}

#[derive_frule]
pub fn tiles(p: &[f64]) -> f64 {
    let rs = vec![Rect { w: p[0], h: p[1] }, Rect { w: p[1], h: 2.0 }];
    total_area(&rs)
}

fn tiles_plain(p: &[f64]) -> f64 {
    let rs = vec![Rect { w: p[0], h: p[1] }, Rect { w: p[1], h: 2.0 }];
    total_area(&rs)
}

#[test]
fn blanket_impl_through_the_bounding_trait() {
    check_modes!(tiles {}, tiles_plain, [1.5, 0.4]);
}

// ---- an ODE system with an associated state type, stepped by a generic RK4 ----------

#[derive_frule]
pub trait System {
    type State;
    const NAME: &'static str;
    fn rhs(&self, x: &Self::State) -> Self::State;
}

/// A damped pendulum, `θ'' = -(g/l) sin θ - c θ'`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Pendulum {
    pub g_over_l: f64,
    pub c: f64,
}

#[derive_frule]
impl System for Pendulum {
    type State = [f64; 2];
    const NAME: &'static str = "pendulum";
    fn rhs(&self, x: &[f64; 2]) -> [f64; 2] {
        [x[1], -self.g_over_l * x[0].sin() - self.c * x[1]]
    }
}

#[derive_frule]
pub fn rk4_step<S: System<State = [f64; 2]>>(s: &S, x: [f64; 2], h: f64) -> [f64; 2] {
    let k1 = s.rhs(&x);
    let x2 = [x[0] + 0.5 * h * k1[0], x[1] + 0.5 * h * k1[1]];
    let k2 = s.rhs(&x2);
    let x3 = [x[0] + 0.5 * h * k2[0], x[1] + 0.5 * h * k2[1]];
    let k3 = s.rhs(&x3);
    let x4 = [x[0] + h * k3[0], x[1] + h * k3[1]];
    let k4 = s.rhs(&x4);
    [
        x[0] + h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
        x[1] + h / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
    ]
}

#[derive_frule]
pub fn integrate<S: System<State = [f64; 2]>>(s: &S, x0: [f64; 2], h: f64, n: usize) -> [f64; 2] {
    let mut x = x0;
    for _ in 0..n {
        x = rk4_step::<S>(s, x, h);
    }
    x
}

/// The angle after one second from `θ₀`, as a function of the model's parameters.
#[derive_frule]
pub fn swing(p: &[f64]) -> f64 {
    let pend = Pendulum {
        g_over_l: p[0],
        c: p[1],
    };
    let x = integrate(&pend, [p[2], 0.0], 0.05, 20);
    x[0]
}

fn swing_plain(p: &[f64]) -> f64 {
    let pend = Pendulum {
        g_over_l: p[0],
        c: p[1],
    };
    let x = integrate(&pend, [p[2], 0.0], 0.05, 20);
    x[0]
}

#[test]
fn generic_rk4_over_an_associated_state_type() {
    assert_eq!(Pendulum::NAME, "pendulum");
    check_modes!(swing {}, swing_plain, [9.81, 0.3, 0.2]);
}

/// An ensemble of models built in a closure from each amplitude, the state passed by its
/// associated type.
#[derive_frule]
pub fn ensemble<M: Model>(amps: &[f64], rate: f64, t: f64) -> f64 {
    amps.iter().map(|&a| M::new(a, rate).eval(t)).sum::<f64>() / amps.len() as f64
}

/// The squared speed of the state flow at `x`, for a state of two coordinates.
#[derive_frule]
pub fn flow_speed<S: System<State = [f64; 2]>>(s: &S, x: &S::State) -> f64 {
    let v: S::State = s.rhs(x);
    v[0] * v[0] + v[1] * v[1]
}

#[derive_frule]
pub fn ensemble_decay(p: &[f64]) -> f64 {
    let pend = Pendulum {
        g_over_l: p[0],
        c: 0.1,
    };
    ensemble::<Decay>(&p[..3], p[3], 0.7) + flow_speed(&pend, &[p[1], p[2]])
}

fn ensemble_decay_plain(p: &[f64]) -> f64 {
    let pend = Pendulum {
        g_over_l: p[0],
        c: 0.1,
    };
    ensemble::<Decay>(&p[..3], p[3], 0.7) + flow_speed(&pend, &[p[1], p[2]])
}

#[test]
fn constructors_in_closures_and_associated_type_parameters() {
    check_modes!(
        ensemble_decay {},
        ensemble_decay_plain,
        [1.2, 0.8, -0.4, 0.9]
    );
}
