//! Parameters kept in maps, as a library author writes a model with named parameters:
//! a `HashMap<&str, f64>` read by `params["k"]` and `params.get("k")`, built from the
//! variables or passed in as constant data, and a `BTreeMap<usize, f64>` of per-index
//! gains read by `get(&i)`. Each in one direction, in batches and at second order against
//! central differences, primals bit for bit.

#[macro_use]
mod common;

use fwdad::prelude::*;
use std::collections::{BTreeMap, HashMap};

/// A damped oscillator's displacement with its parameters by name.
#[derive_frule]
pub fn displacement(params: &HashMap<&str, f64>, t: f64) -> f64 {
    let k = params["k"];
    let c = params.get("c").copied().unwrap_or(0.0);
    let m = match params.get("m") {
        Some(m) => *m,
        None => 1.0,
    };
    let omega = (k / m - (c / (2.0 * m)).powi(2)).sqrt();
    (-c / (2.0 * m) * t).exp() * (omega * t).cos()
}

/// The squared error of the oscillator against samples, its parameters `p = [k, c, m]`
/// put in a map by name.
#[derive_frule]
pub fn fit_error(p: &[f64], ts: &[f64], ys: &[f64]) -> f64 {
    let mut params: HashMap<&str, f64> = HashMap::new();
    params.insert("k", p[0]);
    params.insert("c", p[1]);
    params.insert("m", p[2]);
    let mut err = 0.0;
    for (t, y) in ts.iter().zip(ys) {
        let r = displacement(&params, *t) - y;
        err += r * r;
    }
    err
}

#[test]
fn str_keyed_parameters_built_from_the_variables() {
    let ts = [0.1, 0.4, 0.9, 1.6];
    let ys = [0.9, 0.5, -0.2, -0.6];
    let p = [4.0, 0.3, 1.2];
    let rule = bind(fit_error {}, (Wrt, &ts[..], &ys[..]));
    check_modes!(rule, |q: &[f64]| fit_error(q, &ts, &ys), p);
}

/// The same model read with the parameters as constant data, differentiated with
/// respect to the time.
#[derive_frule]
pub fn trajectory_energy(x: &[f64], params: &HashMap<&str, f64>) -> f64 {
    let mut e = 0.0;
    for &t in x {
        let u = displacement(params, t);
        e += 0.5 * params["k"] * u * u;
    }
    e
}

#[test]
fn str_keyed_parameters_as_constant_data() {
    let params: HashMap<&str, f64> = HashMap::from([("k", 3.0), ("c", 0.2), ("m", 0.8)]);
    let x = [0.3, 0.7, 1.1];
    let rule = bind(trajectory_energy {}, (Wrt, &params));
    check_modes!(rule, |q: &[f64]| trajectory_energy(q, &params), x);
    // Closed form of one term's derivative: d/dt ½k u² = k u u'.
    let (k, c, m) = (3.0f64, 0.2f64, 0.8f64);
    let omega = (k / m - (c / (2.0 * m)).powi(2)).sqrt();
    let a = c / (2.0 * m);
    let (_, g) = gradient(rule, &x);
    for (i, &t) in x.iter().enumerate() {
        let u = (-a * t).exp() * (omega * t).cos();
        let du = (-a * t).exp() * (-a * (omega * t).cos() - omega * (omega * t).sin());
        common::modes::assert_close(g[i], k * u * du, 1e-12, "closed form");
    }
}

/// Per-channel gains in a `BTreeMap<usize, f64>`, a channel without one at gain 1.
#[derive_frule]
pub fn weighted_power(x: &[f64], gains: &BTreeMap<usize, f64>) -> f64 {
    let mut p = 0.0;
    for (i, v) in x.iter().enumerate() {
        let g = gains.get(&i).copied().unwrap_or(1.0);
        p += g * v * v;
    }
    if let Some(&bias) = gains.get(&99) {
        p += bias * x[0];
    }
    p.sqrt()
}

#[test]
fn index_keyed_gains_as_constant_data() {
    let gains: BTreeMap<usize, f64> = BTreeMap::from([(0, 2.0), (2, 0.5), (99, 0.1)]);
    let x = [0.8, -0.4, 1.3];
    let rule = bind(weighted_power {}, (Wrt, &gains));
    check_modes!(rule, |q: &[f64]| weighted_power(q, &gains), x);
}

/// Gains that are themselves variables: the map built in the body from `x`'s tail and
/// read by `get`, `[&k]` and `get_mut`.
#[derive_frule]
pub fn gained_sum(x: &[f64]) -> f64 {
    let n = x.len() / 2;
    let mut gains: BTreeMap<usize, f64> = BTreeMap::new();
    for i in 0..n {
        gains.insert(i, x[n + i].exp());
    }
    if let Some(g) = gains.get_mut(&0) {
        *g *= 2.0;
    }
    let mut s = 0.0;
    for i in 0..n {
        s += gains[&i] * x[i].sin();
    }
    s + gains.get(&(n - 1)).map_or(0.0, |g| g * g)
}

#[test]
fn index_keyed_gains_from_the_variables() {
    check_modes!(gained_sum {}, gained_sum, [0.4, -0.9, 1.2, 0.1, -0.3, 0.2]);
}
