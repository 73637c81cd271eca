//! The walls the tenth session's newcomer programs hit (`tests/reach7_*.rs`), each as
//! such code writes it: an LSTM's gates taken from `let mut gates = z.chunks(h);` by
//! `gates.next().unwrap()`, and a frame's chunks read by `while let Some(w) = it.next()`;
//! a non-`Copy` enum field matched by value through `&self` and `&mut self`; a struct of
//! borrowed slices passed to a loss as its data. Each in every mode against central
//! differences (`check_modes!`, primals bit for bit) and a closed form where there is one.
#![allow(clippy::needless_range_loop, clippy::while_let_on_iterator)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

// ---------------------------------------------------------------------------------------
// An iterator held in a `let mut` and advanced by hand.

#[derive_frule]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// One LSTM cell step on precomputed pre-activations `z` (PyTorch's gate order: input,
/// forget, cell, output), the new hidden state summed.
#[derive_frule]
fn lstm_gates(z: &[f64], c: &[f64]) -> f64 {
    let h = c.len();
    let mut gates = z.chunks(h);
    let i = gates.next().unwrap();
    let f = gates.next().unwrap();
    let g = gates.next().unwrap();
    let o = gates.next().unwrap();
    let mut out = 0.0;
    for k in 0..h {
        let c_next = sigmoid(f[k]) * c[k] + sigmoid(i[k]) * g[k].tanh();
        out += sigmoid(o[k]) * c_next.tanh();
    }
    out
}

#[test]
fn lstm_gates_by_hand_advanced_chunks() {
    let z = [0.3, -0.2, 0.8, 0.1, -0.5, 0.4, 0.9, -0.7];
    let c = [0.25, -0.6];
    check_modes!(
        bind(lstm_gates {}, (Wrt, &c[..])),
        |z: &[f64]| lstm_gates(z, &c),
        z
    );
    // Closed form: d out / d z[o-gate k] = s'(z) tanh(c_next k).
    let (v, g) = gradient(bind(lstm_gates {}, (Wrt, &c[..])), &z);
    assert_eq!(v.to_bits(), lstm_gates(&z, &c).to_bits());
    for k in 0..2 {
        let s = |x: f64| 1.0 / (1.0 + (-x).exp());
        let c_next = s(z[2 + k]) * c[k] + s(z[k]) * z[4 + k].tanh();
        let so = s(z[6 + k]);
        assert_close(g[6 + k], so * (1.0 - so) * c_next.tanh(), 1e-13, "d/d o");
    }
}

/// The energy of a signal frame by frame: each window's mean square, the loudest kept
/// softly (a log-sum-exp), windows read by hand from a `chunks` iterator.
#[derive_frule]
fn frame_loudness(x: &[f64], frame: usize) -> f64 {
    let mut frames = x.chunks(frame);
    let mut acc = 0.0;
    while let Some(w) = frames.next() {
        let e: f64 = w.iter().map(|v| v * v).sum::<f64>() / w.len() as f64;
        acc += e.exp();
    }
    acc.ln()
}

#[test]
fn while_let_over_chunks() {
    let x = [0.5, -0.3, 0.8, 0.1, -0.6, 0.9, 0.2];
    check_modes!(
        bind(frame_loudness {}, (Wrt, 3)),
        |x: &[f64]| frame_loudness(x, 3),
        x
    );
    // The last, short frame holds x[6] alone: d/dx6 = softmax weight × 2 x6.
    let e = |w: &[f64]| w.iter().map(|v| v * v).sum::<f64>() / w.len() as f64;
    let es = [e(&x[0..3]), e(&x[3..6]), e(&x[6..])];
    let total: f64 = es.iter().map(|e| e.exp()).sum();
    let (_, g) = gradient(bind(frame_loudness {}, (Wrt, 3)), &x);
    assert_close(g[6], es[2].exp() / total * 2.0 * x[6], 1e-13, "d/dx6");
}

/// A header and a body: the first sample read off the iterator, the rest by `while let`.
#[derive_frule]
fn gain_then_samples(x: &[f64]) -> f64 {
    let mut it = x.iter();
    let gain = *it.next().unwrap();
    let mut s = 0.0;
    while let Some(v) = it.next() {
        s += (gain * v).sin();
    }
    s
}

#[test]
fn while_let_over_a_slice_iterator() {
    let x = [0.7, 0.3, -1.1, 2.0];
    check_modes!(bind(gain_then_samples {}, (Wrt,)), gain_then_samples, x);
}

/// `chunks_exact` read by hand: the pairs of a flat point list, the remainder ignored.
#[derive_frule]
fn polyline_length(flat: &[f64]) -> f64 {
    let mut pts = flat.chunks_exact(2);
    let mut prev = pts.next().unwrap();
    let mut len = 0.0;
    for p in pts {
        len += ((p[0] - prev[0]).powi(2) + (p[1] - prev[1]).powi(2)).sqrt();
        prev = p;
    }
    len
}

#[test]
fn chunks_exact_advanced_then_looped() {
    let flat = [0.0, 0.0, 3.0, 4.0, 3.5, 5.0, 9.0];
    check_modes!(bind(polyline_length {}, (Wrt,)), polyline_length, flat);
    let (v, g) = gradient(bind(polyline_length {}, (Wrt,)), &flat);
    assert_eq!(v.to_bits(), polyline_length(&flat).to_bits());
    // d len / d p0 = -(p1 - p0)/|p1 - p0| = (-0.6, -0.8).
    assert_close(g[0], -0.6, 1e-14, "d/dx0");
    assert_close(g[1], -0.8, 1e-14, "d/dy0");
    assert_eq!(g[6], 0.0, "the remainder is not read");
}

/// Rises over a sliding window of three, the first window read apart.
#[derive_frule]
fn window_rises(x: &[f64]) -> f64 {
    let mut ws = x.windows(3);
    let first = ws.next().unwrap();
    let mut total = first[2] - first[0];
    while let Some(w) = ws.next() {
        total += (w[2] - w[0]).tanh();
    }
    total
}

#[test]
fn windows_advanced_by_hand() {
    let x = [0.1, 0.4, -0.3, 0.9, 0.2, 1.1];
    check_modes!(bind(window_rises {}, (Wrt,)), window_rises, x);
    // Closed form: d/dx5 = sech²(x5 - x3) (the last window alone reads x5).
    let (_, g) = gradient(bind(window_rises {}, (Wrt,)), &x);
    let t = (x[5] - x[3]).tanh();
    assert_close(g[5], 1.0 - t * t, 1e-14, "d/dx5");
}

// ---------------------------------------------------------------------------------------
// A non-`Copy` enum field matched by value through `&self`.

#[derive(Differentiable, Clone, Debug)]
pub enum Spread {
    Fixed(f64),
    Scaled { k: f64 },
    Learned { var: f64, floor: f64 },
}

#[derive(Differentiable, Clone, Debug)]
pub struct Component {
    mean: f64,
    spread: Spread,
}

#[derive_frule]
impl Component {
    fn variance(&self) -> f64 {
        match self.spread {
            Spread::Fixed(v) => v,
            Spread::Scaled { k } => k * self.mean.abs(),
            Spread::Learned { var, floor } => var.max(floor),
        }
    }

    fn log_pdf(&self, x: f64) -> f64 {
        let var = self.variance();
        -0.5 * ((x - self.mean).powi(2) / var + (2.0 * std::f64::consts::PI * var).ln())
    }
}

#[derive_frule]
fn mixture_loglik(p: &[f64], data: &[f64]) -> f64 {
    let comps = [
        Component {
            mean: p[0],
            spread: Spread::Fixed(p[1]),
        },
        Component {
            mean: p[2],
            spread: Spread::Scaled { k: p[3] },
        },
        Component {
            mean: p[4],
            spread: Spread::Learned {
                var: p[5],
                floor: 0.05,
            },
        },
    ];
    let mut total = 0.0;
    for &x in data {
        let s: f64 = comps.iter().map(|c| c.log_pdf(x).exp()).sum();
        total += (s / 3.0).ln();
    }
    total
}

#[test]
fn enum_field_matched_by_value_through_ref_self() {
    let data = [-1.2, -0.4, 0.3, 1.1, 2.2];
    let p = [-1.0, 0.5, 1.0, 0.8, 2.0, 0.7];
    check_modes!(
        bind(mixture_loglik {}, (Wrt, &data[..])),
        |p: &[f64]| mixture_loglik(p, &data),
        p
    );
}

/// A controller whose gain schedule is an enum, stepped through `&mut self`.
#[derive(Differentiable, Clone, Debug)]
pub enum Schedule {
    Constant(f64),
    Decay { k0: f64, rate: f64 },
}

#[derive(Differentiable, Clone, Debug)]
pub struct Controller {
    schedule: Schedule,
    state: f64,
    steps: usize,
}

#[derive_frule]
impl Controller {
    fn step(&mut self, error: f64) -> f64 {
        let gain = match self.schedule {
            Schedule::Constant(k) => k,
            Schedule::Decay { k0, rate } => k0 * (-rate * self.steps as f64).exp(),
        };
        self.steps += 1;
        self.state += gain * error;
        self.state
    }
}

#[derive_frule]
fn track(p: &[f64], target: &[f64]) -> f64 {
    let mut c = Controller {
        schedule: Schedule::Decay {
            k0: p[0],
            rate: p[1],
        },
        state: 0.0,
        steps: 0,
    };
    let mut cost = 0.0;
    for &t in target {
        let u = c.step(t - c.state);
        cost += (u - t).powi(2);
    }
    cost
}

#[test]
fn enum_field_matched_by_value_through_mut_self() {
    let target = [1.0, 1.0, 0.5, 0.2];
    let p = [0.6, 0.3];
    check_modes!(
        bind(track {}, (Wrt, &target[..])),
        |p: &[f64]| track(p, &target),
        p
    );
}

/// An envelope generator whose phase changes inside the arm that matched it.
#[derive(Differentiable, Clone, Debug)]
pub enum Phase {
    Rising(f64),
    Falling { rate: f64 },
}

#[derive(Differentiable, Clone, Debug)]
pub struct Envelope {
    phase: Phase,
    level: f64,
}

#[derive_frule]
impl Envelope {
    fn step(&mut self, dt: f64) -> f64 {
        match self.phase {
            Phase::Rising(r) => {
                self.level += r * dt;
                if self.level > 1.0 {
                    self.phase = Phase::Falling { rate: 0.5 * r };
                }
            }
            Phase::Falling { rate } => self.level -= rate * dt * self.level,
        }
        self.level
    }
}

#[derive_frule]
fn envelope_area(p: &[f64]) -> f64 {
    let mut env = Envelope {
        phase: Phase::Rising(p[0]),
        level: p[1],
    };
    let mut area = 0.0;
    for _ in 0..12 {
        area += env.step(0.1);
    }
    area
}

#[test]
fn enum_field_matched_by_value_then_assigned_in_its_arm() {
    // Rising at 3 from 0.2: above 1 after the third step, then falling at 1.5.
    let p = [3.0, 0.2];
    check_modes!(bind(envelope_area {}, (Wrt,)), envelope_area, p);
}

// ---------------------------------------------------------------------------------------
// A struct of borrowed slices as the loss's data.

pub struct Data<'a> {
    x: &'a [f64],
    y: &'a [f64],
}

/// Least squares of a line with a soft floor, over borrowed data.
#[derive_frule(inactive(d))]
fn loss(p: &[f64], d: &Data) -> f64 {
    let mut s = 0.0;
    for (xi, yi) in d.x.iter().zip(d.y) {
        let r = p[0] * xi + p[1] - yi;
        s += r * r;
    }
    s / d.x.len() as f64
}

#[test]
fn struct_of_borrowed_slices_as_inactive_data() {
    let xs = vec![0.0, 1.0, 2.0, 3.0];
    let ys = vec![0.1, 0.9, 2.2, 2.8];
    let d = Data { x: &xs, y: &ys };
    let p = [0.9, 0.2];
    check_modes!(
        bind(loss {}, (Wrt, Inactive(&d))),
        |p: &[f64]| loss(p, &d),
        p
    );
    // Closed form: d/da = 2/n Σ r x, d/db = 2/n Σ r.
    let (v, g) = gradient(bind(loss {}, (Wrt, Inactive(&d))), &p);
    assert_eq!(v.to_bits(), loss(&p, &d).to_bits());
    let r: Vec<f64> = xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| p[0] * x + p[1] - y)
        .collect();
    let da: f64 = r.iter().zip(&xs).map(|(r, x)| r * x).sum::<f64>() * 2.0 / 4.0;
    let db: f64 = r.iter().sum::<f64>() * 2.0 / 4.0;
    assert_close(g[0], da, 1e-14, "d/da");
    assert_close(g[1], db, 1e-14, "d/db");
}

/// Observations borrowed from the caller's buffers, differentiated with respect to them
/// too (a sensitivity of the fit to the data).
#[derive(Differentiable)]
pub struct Obs<'a> {
    t: &'a [f64],
    y: &'a [f64],
}

#[derive_frule]
fn decay_misfit(p: &[f64], obs: &Obs) -> f64 {
    obs.t
        .iter()
        .zip(obs.y.iter())
        .map(|(&t, &y)| (p[0] * (-p[1] * t).exp() - y).powi(2))
        .sum::<f64>()
        / obs.t.len() as f64
}

/// The misfit as a function of the parameters and the observed values, the struct built
/// from the differentiated slices.
#[derive_frule]
fn misfit_of(z: &[f64]) -> f64 {
    let t = [0.0, 0.5, 1.0, 2.0];
    let obs = Obs { t: &t, y: &z[2..] };
    decay_misfit(&z[..2], &obs)
}

#[test]
fn struct_of_borrowed_slices_differentiated() {
    let z = [1.5, 0.7, 1.4, 1.1, 0.8, 0.4];
    check_modes!(bind(misfit_of {}, (Wrt,)), misfit_of, z);
    // Closed form: d/dy_k = -2 r_k / n.
    let (_, g) = gradient(bind(misfit_of {}, (Wrt,)), &z);
    let t = [0.0, 0.5, 1.0, 2.0];
    for k in 0..4 {
        let r = z[0] * (-z[1] * t[k]).exp() - z[2 + k];
        assert_close(g[2 + k], -2.0 * r / 4.0, 1e-14, "d/dy");
    }
}

type V3 = [f64; 3];

#[derive_frule]
fn tri_area(a: V3, b: V3, c: V3) -> f64 {
    let (u, v) = (
        [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
        [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
    );
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    0.5 * (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt()
}

#[derive_frule]
pub fn surface_area(vertices: &[V3], triangles: &[[usize; 3]]) -> f64 {
    let mut area = 0.0;
    for &[a, b, c] in triangles {
        area += tri_area(vertices[a], vertices[b], vertices[c]);
    }
    area
}

/// A mesh as renderers keep it: borrowed vertex and index buffers.
pub struct Mesh<'a> {
    vertices: &'a [V3],
    triangles: &'a [[usize; 3]],
}

/// The mesh's area after scaling it about the origin by `s` (constant mesh data; its
/// buffers passed on to another derived function).
#[derive_frule(inactive(mesh))]
fn scaled_area(mesh: &Mesh, s: f64) -> f64 {
    let scaled: Vec<V3> = mesh
        .vertices
        .iter()
        .map(|v| [s * v[0], s * v[1], s * v[2]])
        .collect();
    surface_area(&scaled, mesh.triangles)
}

#[test]
fn mesh_struct_as_inactive_parameter() {
    // The unit cube's six faces: area 6 s².
    let vertices = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 0.0, 1.0],
        [1.0, 1.0, 1.0],
        [0.0, 1.0, 1.0],
    ];
    let triangles = [
        [0, 2, 1],
        [0, 3, 2],
        [4, 5, 6],
        [4, 6, 7],
        [0, 1, 5],
        [0, 5, 4],
        [1, 2, 6],
        [1, 6, 5],
        [2, 3, 7],
        [2, 7, 6],
        [3, 0, 4],
        [3, 4, 7],
    ];
    let mesh = Mesh {
        vertices: &vertices,
        triangles: &triangles,
    };
    let s = [1.3];
    check_modes!(
        bind(scaled_area {}, (Inactive(&mesh), Var(0))),
        |s: &[f64]| scaled_area(&mesh, s[0]),
        s
    );
    let (v, d) = derivative(bind(scaled_area {}, (Inactive(&mesh), Var(0))), 1.3);
    assert_eq!(v.to_bits(), scaled_area(&mesh, 1.3).to_bits());
    assert_close(d, 12.0 * 1.3, 1e-14, "d area / ds");
}

/// A derived struct with a lifetime, its lifetime left out of the parameter's type (the
/// `elided_lifetimes_in_paths` style; was E0726 in the rule's `impl`).
#[derive(Differentiable, Clone, Debug)]
pub struct Labelled<'a> {
    pub ids: Vec<usize>,
    pub label: Option<&'a str>,
}

#[allow(elided_lifetimes_in_paths)]
#[derive_frule]
fn labelled_sum(x: &[f64], l: &Labelled) -> f64 {
    let mut s = 0.0;
    for &i in &l.ids {
        s += x[i] * x[i];
    }
    s
}

#[test]
fn derived_struct_with_its_lifetime_left_out() {
    let l = Labelled {
        ids: vec![1, 1, 0],
        label: Some("pair"),
    };
    let x = [0.5, 2.0];
    check_modes!(
        bind(labelled_sum {}, (Wrt, &l)),
        |x: &[f64]| labelled_sum(x, &l),
        x
    );
    let (v, g) = gradient(bind(labelled_sum {}, (Wrt, &l)), &x);
    assert_eq!(v.to_bits(), labelled_sum(&x, &l).to_bits());
    assert_eq!(g, [2.0 * x[0], 4.0 * x[1]]);
}
