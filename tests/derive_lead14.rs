//! What the fourteenth session's newcomer programs found, in small programs written as
//! they wrote them. Each failed to compile before its fix.
//! Derivatives against closed forms and central differences, primals bit for bit.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{gradient, hessian, jacobian, Var, Wrt};
use fwdad::prelude::*;
use std::ops::{Mul, Sub};

#[macro_use]
mod common;

use common::modes::{fd_gradient, fd_hessian};

/// Primals bit for bit.
fn same(got: f64, want: f64) {
    assert_eq!(got.to_bits(), want.to_bits(), "primal {got} against {want}");
}

fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "[{i}]: {g} against {w}"
        );
    }
}

/// A shading point and its normal, `Copy` values of the user's own vector type.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

#[derive_frule]
impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, s: f64) -> V3 {
        V3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

#[derive_frule]
impl V3 {
    fn dot(self, o: V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
}

/// Lambert shading of a surface point lit from `light`: the point and the normal are
/// values of the user's type passed by value, bound by value to the drivers
/// (`bind(lambert {}, (Wrt, p, n))`), which before asked for `Const(p)`.
#[derive_frule]
fn lambert(light: &[f64], p: V3, n: V3) -> f64 {
    let l = V3 {
        x: light[0],
        y: light[1],
        z: light[2],
    };
    let d = l - p;
    let r2 = d.dot(d);
    let cos = n.dot(d * (1.0 / r2.sqrt()));
    cos.max(0.0) / r2
}

/// Closed form of `lambert` with the normal of unit length.
fn lambert_grad(l: &[f64], p: V3, n: V3) -> [f64; 3] {
    let d = [l[0] - p.x, l[1] - p.y, l[2] - p.z];
    let nn = [n.x, n.y, n.z];
    let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    let nd: f64 = (0..3).map(|i| nn[i] * d[i]).sum();
    // f = nd * r2^(-3/2)
    let mut g = [0.0; 3];
    for i in 0..3 {
        g[i] = nn[i] * r2.powf(-1.5) - 3.0 * nd * d[i] * r2.powf(-2.5);
    }
    g
}

#[test]
fn a_struct_of_the_users_is_bound_by_value() {
    let p = V3 {
        x: 0.1,
        y: 0.0,
        z: -0.2,
    };
    let n = V3 {
        x: 0.0,
        y: 0.6,
        z: 0.8,
    };
    let light = [1.0, 3.0, 0.5];
    let (v, g) = gradient(bind(lambert {}, (Wrt, p, n)), &light);
    same(v, lambert(&light, p, n));
    assert_close(&g, &lambert_grad(&light, p, n), 1e-12);
    let (v2, g2, h) = hessian(bind(lambert {}, (Wrt, p, n)), &light);
    same(v2, v);
    assert_close(&g2, &g, 1e-14);
    let f = |x: &[f64]| lambert(x, p, n);
    let want = fd_hessian(&f, &light);
    for i in 0..3 {
        assert_close(&h[i], &want[i], 1e-5);
    }
    assert_close(&g, &fd_gradient(&f, &light), 1e-7);
}

/// A drive's operating state: an enum with data, bound by value.
#[derive(Clone, Debug, Differentiable)]
pub enum Load {
    Constant(f64),
    Ramp { rate: f64, cap: f64 },
}

/// Work done against `load` over a motion profile `q` (positions at unit steps); the
/// setting has a `Vec` of weights, bound by value too.
#[derive(Clone, Debug, Differentiable)]
pub struct Setting {
    pub weights: Vec<f64>,
    pub load: Load,
}

#[derive_frule]
fn work(q: &[f64], s: Setting) -> [f64; 2] {
    let mut w = 0.0;
    let mut peak: f64 = 0.0;
    for i in 1..q.len() {
        let v = q[i] - q[i - 1];
        let force = match s.load {
            Load::Constant(f) => f,
            Load::Ramp { rate, cap } => (rate * i as f64).min(cap),
        };
        w += s.weights[i] * force * v * v;
        peak = peak.max(v.abs());
    }
    [w, peak]
}

#[test]
fn an_enum_with_data_and_a_struct_with_a_vec_are_bound_by_value() {
    let q = [0.0, 0.3, 0.9, 1.2, 2.0];
    let weights = vec![1.0, 0.5, 2.0, 1.5, 1.0];
    for load in [
        Load::Constant(2.0),
        Load::Ramp {
            rate: 0.7,
            cap: 2.0,
        },
    ] {
        let s = Setting {
            weights: weights.clone(),
            load,
        };
        let (v, j) = jacobian(bind(work {}, (Wrt, s.clone())), &q);
        let plain = work(&q, s.clone());
        same(v[0], plain[0]);
        same(v[1], plain[1]);
        // closed form: d w / d q_k = 2 c_k v_k - 2 c_{k+1} v_{k+1}, c_i = weights[i] force(i)
        let force = |i: usize| match s.load {
            Load::Constant(f) => f,
            Load::Ramp { rate, cap } => (rate * i as f64).min(cap),
        };
        let v_ = |i: usize| q[i] - q[i - 1];
        let mut want = vec![0.0; q.len()];
        for i in 1..q.len() {
            let c = 2.0 * weights[i] * force(i) * v_(i);
            want[i] += c;
            want[i - 1] -= c;
        }
        assert_close(&j[0], &want, 1e-14);
        // One direction, the setting passed as a constant dual: the match on `s.load` in
        // the loop moved the field out of `s` (E0382) before.
        let dq = [0.5, -1.0, 0.25, 2.0, 1.0];
        let r = work_frule(Dual::new(&q[..], &dq[..]), Dual::constant(s.clone()));
        same(r.primal[0], plain[0]);
        let jdq: f64 = j[0].iter().zip(&dq).map(|(a, b)| a * b).sum();
        assert_close(&[r.tangent[0]], &[jdq], 1e-14);
        let s2 = s.clone();
        assert_close(
            &j[1],
            &fd_gradient(&|x: &[f64]| work(x, s2.clone())[1], &q),
            1e-6,
        );
    }
}

/// An explicit 2-D heat equation on a `Vec<Vec<f64>>` grid whose second buffer is filled
/// with `clone_from` (no rule for `clone_from` before), buffers swapped each step.
#[derive_frule]
fn centre_temp(alpha: f64, t_edge: f64) -> f64 {
    let n = 8;
    let dt = 0.2;
    let mut u = vec![vec![0.0; n]; n];
    let mut next = vec![vec![0.0; n]; n];
    for i in 0..n {
        u[0][i] = t_edge;
        u[n - 1][i] = t_edge;
        u[i][0] = t_edge;
        u[i][n - 1] = t_edge;
    }
    next.clone_from(&u);
    for _ in 0..20 {
        for i in 1..n - 1 {
            for j in 1..n - 1 {
                let lap = u[i + 1][j] + u[i - 1][j] + u[i][j + 1] + u[i][j - 1] - 4.0 * u[i][j];
                next[i][j] = u[i][j] + alpha * dt * lap;
            }
        }
        std::mem::swap(&mut u, &mut next);
    }
    u[n / 2][n / 2]
}

#[test]
fn clone_from_refills_a_grid() {
    let p = [0.9, 100.0];
    let f = |p: &[f64]| centre_temp(p[0], p[1]);
    let (v, g) = gradient(bind(centre_temp {}, (Var(0), Var(1))), &p);
    same(v, f(&p));
    assert_close(&g, &fd_gradient(&f, &p), 1e-6);
    // the temperature is linear in the edge temperature
    assert_close(&[g[1] * p[1]], &[v], 1e-12);
    let (_, _, h) = hessian(bind(centre_temp {}, (Var(0), Var(1))), &p);
    assert_close(&h[1], &[g[0] / p[1], 0.0], 1e-12);
    assert_close(&[h[0][0]], &[fd_hessian(&f, &p)[0][0]], 1e-4);
}

#[derive_frule]
fn activate(kind: &str, z: f64) -> f64 {
    match kind {
        "relu" => z.max(0.0),
        "tanh" => z.tanh(),
        "softplus" => (1.0 + z.exp()).ln(),
        _ => z,
    }
}

#[derive_frule]
fn trapezoid(f: impl Fn(f64) -> f64, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let mut s = 0.5 * (f(a) + f(b));
    for i in 1..n {
        s += f(a + i as f64 * h);
    }
    s * h
}

/// The area under a unit's activation, chosen by name: the `&str` parameter captured by
/// the closure handed to `trapezoid` (did not fit `activate`'s `&str` before), and the
/// name bound to the drivers as it is (`bind(layer_area {}, (Wrt, "tanh"))`).
#[derive_frule]
fn layer_area(w: &[f64], kind: &str) -> f64 {
    trapezoid(|x| activate(kind, w[0] * x + w[1]), -1.0, 1.0, 40)
}

#[derive_frule]
fn powk(n: usize, z: f64) -> f64 {
    z.powi(n as i32)
}

/// An integer parameter captured by a closure and passed to a rule's `usize`.
#[derive_frule]
fn moment(w: f64, n: usize) -> f64 {
    trapezoid(|x| powk(n, w * x), 0.0, 1.0, 10)
}

#[test]
fn strings_and_integers_captured_by_a_closure() {
    let w = [1.3, 0.2];
    for kind in ["relu", "tanh", "softplus", "linear"] {
        let (v, g) = gradient(bind(layer_area {}, (Wrt, kind)), &w);
        same(v, layer_area(&w, kind));
        assert_close(&g, &fd_gradient(&|w: &[f64]| layer_area(w, kind), &w), 1e-6);
    }
    let (v, g, h) = hessian(bind(layer_area {}, (Wrt, "softplus")), &w);
    same(v, layer_area(&w, "softplus"));
    let want = fd_hessian(&|w: &[f64]| layer_area(w, "softplus"), &w);
    assert_close(
        &g,
        &fd_gradient(&|w: &[f64]| layer_area(w, "softplus"), &w),
        1e-6,
    );
    for i in 0..2 {
        assert_close(&h[i], &want[i], 1e-4);
    }
    // moment(w, 3) = h Σ' (w x_i)^3 = w^3 m, so d/dw = 3 m w^2 = 3 moment / w
    let r = moment_frule(Dual::new(0.7, 1.0), 3);
    same(r.primal, moment(0.7, 3));
    assert_close(&[r.tangent], &[3.0 * r.primal / 0.7], 1e-13);
}

/// A game physicist's 2-D vector with its own `len`: called on an operator's result, bound
/// without a type or in place (`(u - v).len()`), it was read as a slice's `len` (E0599).
#[derive(Clone, Copy, Debug, Default, Differentiable)]
pub struct P2 {
    pub x: f64,
    pub y: f64,
}

#[derive_frule]
impl Sub for P2 {
    type Output = P2;
    fn sub(self, o: P2) -> P2 {
        P2 {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
}

#[derive_frule]
impl P2 {
    #[allow(clippy::len_without_is_empty)]
    pub fn len(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
}

/// The perimeter of a closed polygon whose vertices are the parameters.
#[derive_frule]
fn perimeter(xy: &[f64]) -> f64 {
    let p: Vec<P2> = xy.chunks(2).map(|c| P2 { x: c[0], y: c[1] }).collect();
    let mut total = 0.0;
    for i in 0..p.len() {
        let d = p[(i + 1) % p.len()] - p[i];
        total += d.len();
    }
    total + (p[0] - p[2]).len()
}

#[test]
fn a_method_of_the_users_named_len_on_an_operators_result() {
    let xy = [0.0, 0.0, 2.0, 0.1, 1.5, 1.7];
    let (v, g) = gradient(perimeter {}, &xy);
    same(v, perimeter(&xy));
    // each side's length grows along its unit vector
    let mut want = [0.0; 6];
    let pt = |k: usize| [xy[2 * (k % 3)], xy[2 * (k % 3) + 1]];
    let mut side = |a: usize, b: usize| {
        let (pa, pb) = (pt(a), pt(b));
        let (dx, dy) = (pb[0] - pa[0], pb[1] - pa[1]);
        let l = dx.hypot(dy);
        want[2 * (b % 3)] += dx / l;
        want[2 * (b % 3) + 1] += dy / l;
        want[2 * (a % 3)] -= dx / l;
        want[2 * (a % 3) + 1] -= dy / l;
    };
    for i in 0..3 {
        side(i, i + 1);
    }
    side(2, 0);
    assert_close(&g, &want, 1e-14);
    let (_, _, h) = hessian(perimeter {}, &xy);
    let fh = fd_hessian(&perimeter, &xy);
    for i in 0..6 {
        assert_close(&h[i], &fh[i], 1e-4);
    }
}
