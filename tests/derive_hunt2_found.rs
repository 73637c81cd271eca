//! Second hunt for wrong primals and derivatives: kinks met by linearised chains,
//! `&mut self` methods in loops and chains, assignment operators of the user's types,
//! generic code, enums and `Option`s carried through loops, buffers in structs mutated
//! in place, integer/float conversions.
//!
//! Found: a chain through `sqrt` at 0 (`√(dx² + dy²)` where two points coincide, `√(x·x)`,
//! `√(a·b)` with `a = 0`) had the gradient NaN in batches (`gradient`, `gradient_with::<4>`)
//! and finite in one direction and at second order. Batches linearise the chain: the
//! coefficient `∂r/∂x` is `sqrt`'s partial (∞ at 0) times the squares' (0 there), and
//! `∞·0` is NaN where the rule, which sees the zero tangent of `dx²` first, gives 0 (the
//! strong zeros of docs/design.md). `|d|³` and `|x|·x` are differentiable there, with
//! derivative 0: a wrong derivative, not a convention. The other functions are guards
//! that passed (each checked in every mode against central differences, primals bit for
//! bit).
// Written as users write them: `a = a + ..`, loops over indices, pushes after `new`.
#![allow(
    clippy::needless_range_loop,
    clippy::assign_op_pattern,
    clippy::vec_init_then_push,
    clippy::useless_vec
)]
use fwdad::drivers::{gradient, gradient_with, hessian_with, jvp};
use fwdad::prelude::*;
use std::ops::{Add, AddAssign, Index, IndexMut, Mul, MulAssign, Sub};

mod common;

use common::modes::assert_close;

// ---------------------------------------------------------------------------------------
// Found: chains through `sqrt` at 0 in batches

/// A cubic contact penalty `|p − q|³` between two points and a linear term in the
/// distance weighted by `x[4]`: twice differentiable in the points, gradient zero where
/// they coincide.
#[derive_frule]
fn contact_penalty(x: &[f64]) -> f64 {
    let dx = x[0] - x[2];
    let dy = x[1] - x[3];
    let r = (dx * dx + dy * dy).sqrt();
    r * r * r + x[4] * r * r
}

/// `Σ |xᵢ|·xᵢ` written with `√(xᵢ²)` (a signed square, as in a quadratic drag `v·|v|`):
/// derivative `2|xᵢ|`, zero at 0.
#[derive_frule]
fn signed_square_drag(x: &[f64]) -> f64 {
    let mut f = 0.0;
    for i in 0..x.len() {
        let speed = (x[i] * x[i]).sqrt();
        f += 0.5 * speed * x[i];
    }
    f
}

/// A geometric mean `√(a·b)` and a linear term: at `a = 0`, `∂/∂b` of the root is 0 (it is
/// 0 along `b`), so `∂f/∂b = 1`.
#[derive_frule]
fn geometric_mean_plus(x: &[f64]) -> f64 {
    (x[0] * x[1]).sqrt() + x[1]
}

#[test]
fn sqrt_at_zero_in_a_chain_every_mode() {
    // The points coincide.
    check_first_order!(
        contact_penalty {},
        contact_penalty,
        [0.5, -0.2, 0.5, -0.2, 1.5]
    );
    // Away from the kink too, with the Hessian.
    check_modes!(
        contact_penalty {},
        contact_penalty,
        vec![0.5, -0.2, 0.1, 0.3, 1.5]
    );
    check_first_order!(
        signed_square_drag {},
        signed_square_drag,
        [0.0, 0.7, -0.4, 0.0]
    );
    // Only `∂/∂b` exists at `a = 0`: compare the modes there, against differences in `b`.
    let x = [0.0, 1.0];
    let h = 1e-6;
    let fd =
        (geometric_mean_plus(&[0.0, 1.0 + h]) - geometric_mean_plus(&[0.0, 1.0 - h])) / (2.0 * h);
    let (_, d): (f64, f64) = jvp(geometric_mean_plus {}, &x, &[0.0, 1.0]);
    assert_close(d, fd, 1e-9, "one direction: d/db");
    for (mode, g) in [
        (
            "batch of 4",
            gradient_with::<4>(geometric_mean_plus {}, &x).1,
        ),
        ("gradient", gradient(geometric_mean_plus {}, &x[..]).1),
        (
            "second order",
            hessian_with::<2>(geometric_mean_plus {}, &x).1,
        ),
    ] {
        assert_close(g[1], fd, 1e-9, &format!("{mode}: d/db"));
        // `∂/∂a` is the one-sided +∞ in every mode.
        assert_eq!(g[0], f64::INFINITY, "{mode}: d/da");
    }
}

// ---------------------------------------------------------------------------------------
// Guards: `&mut self` methods in loops, chains and on elements

fn pts() -> Vec<f64> {
    vec![0.7, -0.4, 1.1, 0.25, -0.9]
}

/// A damped oscillator stepped by a `&mut self` method.
#[derive(Clone, Copy, Differentiable)]
pub struct Oscillator {
    pub pos: f64,
    pub vel: f64,
    pub t: f64,
}

#[derive_frule]
impl Oscillator {
    pub fn step(&mut self, k: f64, dt: f64) -> f64 {
        let a = -k * self.pos - 0.1 * self.vel;
        self.vel += a * dt;
        self.pos += self.vel * dt;
        self.t += dt;
        self.pos
    }
    pub fn energy(&self, k: f64) -> f64 {
        0.5 * self.vel * self.vel + 0.5 * k * self.pos * self.pos
    }
    pub fn damp(&mut self, f: f64) -> &mut Self {
        self.vel *= f;
        self
    }
}

/// Two calls in one expression (left first), a builder chain through `&mut Self`, a call
/// in a `while` condition.
#[derive_frule]
fn oscillator_calls_in_expressions(x: &[f64]) -> f64 {
    let mut s = Oscillator {
        pos: x[0],
        vel: x[1],
        t: 0.0,
    };
    let a = s.step(x[2], 0.1) - 2.0 * s.step(x[2], 0.1);
    s.damp(0.5).damp(x[3]);
    let p = s.damp(x[4]).step(1.0, 0.1);
    let mut n = 0;
    while s.step(x[2], 0.1) > -0.5 && n < 7 {
        n += 1;
    }
    a + p + s.energy(x[2]) * n as f64 + s.t
}

/// `&mut self` methods on elements of a `Vec` (by index and through `iter_mut`), with a
/// copy kept from before the step (`let prev = ps[i];`).
#[derive_frule]
fn oscillators_in_a_vec(x: &[f64]) -> f64 {
    let mut ps = vec![
        Oscillator {
            pos: x[0],
            vel: x[1],
            t: 0.0,
        },
        Oscillator {
            pos: x[2],
            vel: x[3],
            t: 0.0,
        },
    ];
    let mut e = 0.0;
    for _ in 0..3 {
        for i in 0..ps.len() {
            let prev = ps[i];
            e += ps[i].step(x[4].abs() + 0.5, 0.1) * prev.vel;
        }
        for p in ps.iter_mut() {
            p.damp(0.9);
        }
    }
    e + ps[0].pos * ps[1].vel
}

#[test]
fn mut_self_methods_in_loops_and_chains() {
    check_modes!(
        oscillator_calls_in_expressions {},
        oscillator_calls_in_expressions,
        pts()
    );
    check_modes!(oscillators_in_a_vec {}, oscillators_in_a_vec, pts());
}

// ---------------------------------------------------------------------------------------
// Guards: assignment operators on the user's type, `v[i] += w`, components by `IndexMut`

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl V3 {
    pub fn new(x: f64, y: f64, z: f64) -> V3 {
        V3 { x, y, z }
    }
    pub fn dot(&self, o: &V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
}

#[derive_frule]
impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        V3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

#[derive_frule]
impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

#[derive_frule]
impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, k: f64) -> V3 {
        V3::new(self.x * k, self.y * k, self.z * k)
    }
}

#[derive_frule]
impl AddAssign for V3 {
    fn add_assign(&mut self, o: V3) {
        self.x += o.x;
        self.y += o.y;
        self.z += o.z;
    }
}

#[derive_frule]
impl MulAssign<f64> for V3 {
    fn mul_assign(&mut self, k: f64) {
        self.x *= k;
        self.y *= k;
        self.z *= k;
    }
}

#[derive_frule]
impl Index<usize> for V3 {
    type Output = f64;
    fn index(&self, i: usize) -> &f64 {
        match i {
            0 => &self.x,
            1 => &self.y,
            _ => &self.z,
        }
    }
}

#[derive_frule]
impl IndexMut<usize> for V3 {
    fn index_mut(&mut self, i: usize) -> &mut f64 {
        match i {
            0 => &mut self.x,
            1 => &mut self.y,
            _ => &mut self.z,
        }
    }
}

/// Symplectic Euler for two particles on springs to the origin: `v[i] += f * dt`,
/// `v[i] *= damping`, `p[i] += v[i] * dt` on arrays of `V3`.
#[derive_frule]
fn particles_assign_ops(x: &[f64]) -> f64 {
    let mut p = [V3::new(x[0], x[1], 0.0), V3::new(x[2], 0.5, x[3])];
    let mut v = [V3::new(0.0, 0.0, 0.0); 2];
    for _ in 0..4 {
        for i in 0..2 {
            let f = p[i] * (-x[4]);
            v[i] += f * 0.1;
            v[i] *= 0.99;
            p[i] += v[i] * 0.1;
        }
    }
    p[0].dot(&p[1]) + v[1].dot(&v[0])
}

/// Components updated through `IndexMut` reading other components (`a[i] += w[j] * a[k]`).
#[derive_frule]
fn components_through_index_mut(x: &[f64]) -> f64 {
    let mut a = V3::new(x[0], x[1], x[2]);
    let w = V3::new(x[3], 1.0, x[4]);
    for k in 0..3 {
        for i in 0..3 {
            a[i] += w[(i + k) % 3] * a[(i + 1) % 3] * 0.2;
        }
        a[k] *= 0.9;
    }
    a.x + a.y * a.z
}

#[test]
fn assignment_operators_of_user_types() {
    check_modes!(particles_assign_ops {}, particles_assign_ops, pts());
    check_modes!(
        components_through_index_mut {},
        components_through_index_mut,
        pts()
    );
}

// ---------------------------------------------------------------------------------------
// Guards: enums and `Option`s carried through loops, trait default methods, buffers

#[derive(Clone, Copy, Differentiable)]
pub enum Phase {
    Accel { v: f64 },
    Coast { v: f64, t: f64 },
    Stop,
}

/// A state machine `state = match state { .. }` with guards and data.
#[derive_frule]
fn phases(x: &[f64]) -> f64 {
    let mut st = Phase::Accel { v: x[0] };
    let mut dist = 0.0;
    for _ in 0..8 {
        st = match st {
            Phase::Accel { v } if v < 2.0 => Phase::Accel { v: v + x[2] * 0.5 },
            Phase::Accel { v } => Phase::Coast { v, t: 0.0 },
            Phase::Coast { v, t } if t < 1.0 => {
                dist += v * 0.5;
                Phase::Coast {
                    v: v * x[3],
                    t: t + 0.5,
                }
            }
            Phase::Coast { .. } => Phase::Stop,
            Phase::Stop => Phase::Stop,
        };
    }
    dist + match st {
        Phase::Accel { v } => v,
        Phase::Coast { v, .. } => v * v,
        Phase::Stop => 1.0,
    }
}

#[derive_frule]
pub trait Filter {
    fn update(&mut self, z: f64) -> f64;
    fn run(&mut self, zs: &[f64]) -> f64 {
        let mut s = 0.0;
        for &z in zs {
            s += self.update(z);
        }
        s
    }
}

#[derive(Clone, Copy, Differentiable)]
pub struct Ema {
    pub a: f64,
    pub s: f64,
}

#[derive_frule]
impl Filter for Ema {
    fn update(&mut self, z: f64) -> f64 {
        self.s = self.a * z + (1.0 - self.a) * self.s;
        self.s * self.s
    }
}

/// A trait's default method calling a `&mut self` method, directly and through a generic.
#[derive_frule]
fn run_generic<F: Filter>(f: &mut F, zs: &[f64]) -> f64 {
    let a = f.run(zs);
    a + f.update(zs[0])
}

#[derive_frule]
fn ema_filter(x: &[f64]) -> f64 {
    let mut f = Ema { a: 0.3, s: x[0] };
    let r = f.run(&x[1..]);
    let mut g = Ema {
        a: x[4].abs() * 0.5,
        s: x[0],
    };
    r + f.s + run_generic(&mut g, &x[1..]) * g.s
}

/// The closest of a family of points kept as an `Option<V3>`.
#[derive_frule]
fn closest_point(x: &[f64]) -> f64 {
    let mut best: Option<V3> = None;
    for i in 0..x.len() {
        let p = V3::new(x[i], x[i] * x[i] - 0.2, 1.0);
        best = match best {
            None => Some(p),
            Some(b) if p.dot(&p) < b.dot(&b) => Some(p),
            Some(b) => Some(b),
        };
    }
    best.map(|b| b.x + b.y * 3.0).unwrap_or(0.0)
}

#[derive(Clone, Differentiable)]
pub struct Buffer {
    pub data: Vec<f64>,
    pub w: Vec<f64>,
    pub scale: f64,
}

#[derive_frule]
impl Buffer {
    pub fn bump(&mut self, i: usize, v: f64) {
        let e = &mut self.data[i];
        *e += v * self.scale;
    }
    pub fn weigh(&mut self) {
        for (d, &w) in self.data.iter_mut().zip(self.w.iter()) {
            *d *= w;
        }
    }
    pub fn total(&self) -> f64 {
        self.data.iter().sum()
    }
}

/// A buffer in a struct written through `&mut self.data[i]` and `iter_mut().zip(..)`,
/// cloned before (the clone keeps the old values).
#[derive_frule]
fn buffer_in_struct(x: &[f64]) -> f64 {
    let mut b = Buffer {
        data: vec![0.0; 3],
        w: vec![x[3], x[4], 2.0],
        scale: x[0],
    };
    for i in 0..3 {
        b.bump(i, x[i + 1]);
        b.bump((i + 1) % 3, x[i]);
    }
    let before = b.clone();
    b.weigh();
    b.total() * before.total() + b.data[1]
}

#[test]
fn state_carried_through_loops() {
    check_modes!(phases {}, phases, vec![0.7, -0.4, 1.1, 0.95, -0.9]);
    check_modes!(ema_filter {}, ema_filter, pts());
    check_modes!(closest_point {}, closest_point, pts());
    check_modes!(buffer_in_struct {}, buffer_in_struct, pts());
}

// ---------------------------------------------------------------------------------------
// Guards: swaps, `chunks_mut`, `split_at_mut`, integer/float conversions

/// Bubble sort by `swap`, then a weighted sum of the sorted values.
#[derive_frule]
fn bubble_sorted_weights(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let n = v.len();
    for i in 0..n {
        for j in 0..n - 1 - i {
            if v[j] > v[j + 1] {
                v.swap(j, j + 1);
            }
        }
    }
    let mut s = 0.0;
    for (i, a) in v.iter().enumerate() {
        s += (i + 1) as f64 * a;
    }
    s
}

#[derive_frule]
fn chunks_and_halves(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    for c in v.chunks_mut(2) {
        c[0] *= 2.0;
        if c.len() > 1 {
            c[1] += c[0] * c[0];
        }
    }
    let (a, b) = v.split_at_mut(2);
    for i in 0..2 {
        a[i] += b[i] * b[0];
    }
    b[0] = a[1] * 3.0;
    v[0] * v[2] + v[1] + v[4]
}

/// A lookup table interpolated at `(t · (n − 1)).floor() as usize`.
#[derive_frule]
fn table_interpolation(x: &[f64]) -> f64 {
    let table = [0.0, 0.5, 1.7, 2.0, 2.2, 3.5];
    let mut s = 0.0;
    for &v in x {
        let t = (v * 0.4 + 0.5).clamp(0.0, 0.999) * (table.len() - 1) as f64;
        let i = t.floor() as usize;
        let f = t - i as f64;
        s += table[i] * (1.0 - f) + table[i + 1] * f;
    }
    s
}

/// Truncations through `as i64 as f64`, `round() as i32`, `as u8`.
#[derive_frule]
fn integer_round_trips(x: &[f64]) -> f64 {
    let k = (x[0] * 10.0) as i64 as f64;
    let m = (x[1] * 3.0).round() as i32;
    x[0] * 10.0 - k + k * x[1] + m as f64 * x[2] + (x[3] * 100.0) as u8 as f64
}

#[test]
fn swaps_chunks_and_conversions() {
    check_modes!(bubble_sorted_weights {}, bubble_sorted_weights, pts());
    check_modes!(chunks_and_halves {}, chunks_and_halves, pts());
    check_modes!(
        table_interpolation {},
        table_interpolation,
        vec![0.7, -0.4, 1.1, 0.26, -0.9]
    );
    check_modes!(
        integer_round_trips {},
        integer_round_trips,
        vec![0.77, -0.43, 1.1, 0.253, -0.9]
    );
}
