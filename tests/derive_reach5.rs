//! Ordinary code that reached past the macro before: `[f64; N]::map` of an array parameter
//! or local and `core::array::from_fn` zipping two arrays, `Option`'s `flatten`,
//! `get_or_insert_with`, `take` and `replace` on a struct's cache field, maps whose values
//! are `Vec`s (`m.entry(k).or_default().push(v)`, a bucket per key), and a `BTreeMap`'s
//! `range(a..b)` in an iterator chain. Each is checked against central differences in one
//! direction, in batches and at second order (`check_modes!`, primals bit for bit), and
//! against a closed form where there is one.
//
// The maps and index loops as users write them.
#![allow(clippy::needless_range_loop, clippy::for_kv_map)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use std::collections::{BTreeMap, HashMap};

// ---------------------------------------------------------------------------------------
// Arrays mapped: `q.map(f)`, `core::array::from_fn(|i| a[i] * b[i])`.

/// The tip height of a planar arm with four links of length `l`, absolute joint angles
/// `q`: the links' heights `l sin qᵢ` by `map`, summed.
#[derive_frule]
fn tip_height(q: [f64; 4], l: f64) -> f64 {
    let heights = q.map(|a| l * a.sin());
    heights.iter().sum()
}

/// A Gaussian prior on the angles: `map` with a function by name, then squares.
#[derive_frule]
fn angle_prior(q: &[f64; 4]) -> f64 {
    let c = q.map(f64::cos);
    let s2 = c.map(|v| v * v);
    0.5 * s2.iter().sum::<f64>()
}

#[derive_frule]
fn arm_objective(x: &[f64]) -> f64 {
    let q = [x[0], x[1], x[2], x[3]];
    tip_height(q, x[4]) + angle_prior(&q)
}

fn arm_objective_plain(x: &[f64]) -> f64 {
    arm_objective(x)
}

#[test]
fn array_map_of_a_parameter() {
    let x = [0.3, -0.7, 1.1, 0.4, 0.8];
    check_modes!(bind(arm_objective {}, (Wrt,)), arm_objective_plain, x);
    // Closed form: ∂/∂qᵢ = l cos qᵢ − cos qᵢ sin qᵢ, ∂/∂l = Σ sin qᵢ.
    let (v, g) = gradient(bind(arm_objective {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), arm_objective(&x).to_bits());
    for i in 0..4 {
        let want = x[4] * x[i].cos() - x[i].cos() * x[i].sin();
        assert_close(g[i], want, 1e-14, "d/dq");
    }
    let want_l: f64 = x[..4].iter().map(|a| a.sin()).sum();
    assert_close(g[4], want_l, 1e-14, "d/dl");
}

/// An element-wise product of two fixed-size arrays (`zip` written with `from_fn`), then
/// a neuron's activation: `tanh(Σ wᵢ xᵢ + b)`.
#[derive_frule]
fn neuron(w: &[f64; 3], x: &[f64; 3], b: f64) -> f64 {
    let prod: [f64; 3] = core::array::from_fn(|i| w[i] * x[i]);
    (prod.iter().sum::<f64>() + b).tanh()
}

#[derive_frule]
fn neuron_of(p: &[f64]) -> f64 {
    let w = [p[0], p[1], p[2]];
    let x = [p[3], p[4], p[5]];
    neuron(&w, &x, p[6])
}

#[test]
fn from_fn_zips_two_arrays() {
    let p = [0.2, -0.5, 0.9, 1.3, 0.4, -0.8, 0.1];
    check_modes!(bind(neuron_of {}, (Wrt,)), neuron_of, p);
    let (_, g) = gradient(bind(neuron_of {}, (Wrt,)), &p);
    let z: f64 = (0..3).map(|i| p[i] * p[3 + i]).sum::<f64>() + p[6];
    let d = 1.0 - z.tanh().powi(2);
    for i in 0..3 {
        assert_close(g[i], d * p[3 + i], 1e-14, "d/dw");
        assert_close(g[3 + i], d * p[i], 1e-14, "d/dx");
    }
    assert_close(g[6], d, 1e-14, "d/db");
}

// ---------------------------------------------------------------------------------------
// `Option` idioms.

/// The square root where it is real.
#[derive_frule]
fn checked_sqrt(v: f64) -> Option<f64> {
    if v >= 0.0 {
        Some(v.sqrt())
    } else {
        None
    }
}

/// A calibration that may be missing (the sensor is off) or invalid (a negative
/// variance): `Option<Option<f64>>`, flattened, then the gain applied or 1.
#[derive_frule]
fn calibrated(x: &[f64]) -> f64 {
    let calib: Option<Option<f64>> = if x[0] > 0.0 {
        Some(checked_sqrt(x[1]))
    } else {
        None
    };
    calib.flatten().map_or(1.0, |s| s * x[0]) + x[2]
}

#[test]
fn option_flatten() {
    let x = [0.6, 2.5, 0.3];
    check_modes!(bind(calibrated {}, (Wrt,)), calibrated, x);
    let (v, g) = gradient(bind(calibrated {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), calibrated(&x).to_bits());
    assert_close(g[0], x[1].sqrt(), 1e-14, "d/dx0");
    assert_close(g[1], 0.5 * x[0] / x[1].sqrt(), 1e-14, "d/dx1");
    assert_close(g[2], 1.0, 1e-14, "d/dx2");
    // The inner `None`: the default, whose derivative is zero but for `x[2]`.
    let (v, g) = gradient(bind(calibrated {}, (Wrt,)), &[0.6, -1.0, 0.3]);
    assert_eq!(v.to_bits(), calibrated(&[0.6, -1.0, 0.3]).to_bits());
    assert_eq!(g, [0.0, 0.0, 1.0]);
}

/// A soft threshold written with `map_or`, `map_or_else`, `is_some_and` and
/// `unwrap_or_default` of an optional excess.
#[derive_frule]
fn excess_cost(x: &[f64]) -> f64 {
    let excess: Option<f64> = if x[0] > x[1] { Some(x[0] - x[1]) } else { None };
    let quadratic = excess.map_or(0.0, |e| e * e);
    let log_term = excess.map_or_else(|| 0.0, |e| (1.0 + e).ln());
    let penalty = if excess.is_some_and(|e| e > 0.5) {
        x[2]
    } else {
        0.0
    };
    quadratic + log_term + penalty + excess.unwrap_or_default() * x[2]
}

#[test]
fn option_map_or_and_friends() {
    let x = [1.9, 0.7, 0.4];
    check_modes!(bind(excess_cost {}, (Wrt,)), excess_cost, x);
    let (_, g) = gradient(bind(excess_cost {}, (Wrt,)), &x);
    let e = x[0] - x[1];
    let de = 2.0 * e + 1.0 / (1.0 + e) + x[2];
    assert_close(g[0], de, 1e-14, "d/dx0");
    assert_close(g[1], -de, 1e-14, "d/dx1");
    assert_close(g[2], 1.0 + e, 1e-14, "d/dx2");
}

/// A kernel whose normalisation is costly and cached in the struct on first use.
#[derive(Differentiable, Clone)]
struct Kernel {
    width: f64,
    norm: Option<f64>,
}

#[derive_frule]
fn normalisation(width: f64) -> f64 {
    (2.0 * std::f64::consts::PI).sqrt() * width
}

#[derive_frule]
impl Kernel {
    fn eval(&mut self, d: f64) -> f64 {
        let z = *self.norm.get_or_insert_with(|| normalisation(self.width));
        (-0.5 * (d / self.width).powi(2)).exp() / z
    }

    /// A new width: the cache emptied, the old constant returned.
    fn rescale(&mut self, k: f64) -> Option<f64> {
        self.width *= k;
        self.norm.take()
    }

    /// A normalisation given from outside, the one it replaces returned.
    fn set_norm(&mut self, z: f64) -> Option<f64> {
        self.norm.replace(z)
    }
}

#[derive_frule]
fn density_sum(x: &[f64]) -> f64 {
    let mut k = Kernel {
        width: x[0],
        norm: None,
    };
    let a = k.eval(x[1]) + k.eval(x[2]);
    let old = k.rescale(2.0).unwrap_or(1.0);
    let b = k.eval(x[1]);
    let before = k.set_norm(x[2] * x[2]).unwrap_or(0.0);
    a + b * old + before + k.eval(x[1])
}

#[test]
fn option_cache_field() {
    let x = [0.8, 0.3, -0.5];
    check_modes!(bind(density_sum {}, (Wrt,)), density_sum, x);
    // Closed form, with c = √(2π): a = (φ(d1) + φ(d2)) / (c w), old = c w,
    // b = φ'(d1) / (2 c w) (width 2w), before = 2 c w, the last term φ'(d1) / x2².
    let (v, g) = gradient(bind(density_sum {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), density_sum(&x).to_bits());
    let c = (2.0 * std::f64::consts::PI).sqrt();
    let (w, d1, d2) = (x[0], x[1], x[2]);
    let f = |d: f64, w: f64| (-0.5 * (d / w).powi(2)).exp();
    let total = |w: f64, d1: f64, d2: f64| {
        (f(d1, w) + f(d2, w)) / (c * w)
            + f(d1, 2.0 * w) / (2.0 * c * w) * (c * w)
            + 2.0 * c * w
            + f(d1, 2.0 * w) / (d2 * d2)
    };
    assert_close(v, total(w, d1, d2), 1e-14, "value");
    let h = 1e-6;
    let fd = |i: usize| {
        let mut p = [w, d1, d2];
        let mut m = p;
        p[i] += h;
        m[i] -= h;
        (total(p[0], p[1], p[2]) - total(m[0], m[1], m[2])) / (2.0 * h)
    };
    for i in 0..3 {
        assert_close(g[i], fd(i), 1e-8, "d/dx (closed form)");
    }
}

/// The spread of readings about the lowest one seen so far, the first reading seeding it
/// with `get_or_insert`.
#[derive_frule]
fn spread_about_floor(x: &[f64]) -> f64 {
    let mut floor: Option<f64> = None;
    let mut total = 0.0;
    for &v in x {
        let f = *floor.get_or_insert(v);
        total += (v - f).powi(2);
        if v < f {
            floor = Some(v);
        }
    }
    total
}

#[test]
fn option_get_or_insert() {
    let x = [0.9, 1.4, 0.3, 0.8, 0.1];
    check_modes!(bind(spread_about_floor {}, (Wrt,)), spread_about_floor, x);
}

// ---------------------------------------------------------------------------------------
// Maps with `Vec` values.

/// Residuals grouped by the sensor that produced them: each sensor's mean removed (its
/// bias), the rest squared. `by_sensor.entry(id).or_default().push(r)` builds the buckets.
#[derive_frule(inactive(sensor))]
fn debiased_cost(r: &[f64], sensor: &[usize]) -> f64 {
    let mut by_sensor: HashMap<usize, Vec<f64>> = HashMap::new();
    for (i, &id) in sensor.iter().enumerate() {
        by_sensor.entry(id).or_default().push(r[i]);
    }
    let mut cost = 0.0;
    for id in 0..3 {
        if let Some(bucket) = by_sensor.get(&id) {
            let mean = bucket.iter().sum::<f64>() / bucket.len() as f64;
            for v in bucket {
                cost += (v - mean) * (v - mean);
            }
        }
    }
    cost
}

#[test]
fn map_of_vec_buckets() {
    let r = [0.3, -0.2, 1.4, 0.9, -0.6, 0.1, 0.75];
    let sensor = [0, 1, 0, 2, 1, 0, 2];
    let plain = |x: &[f64]| debiased_cost(x, &sensor);
    check_modes!(
        bind(debiased_cost {}, (Wrt, Inactive(&sensor[..]))),
        plain,
        r
    );
    // Closed form: ∂/∂rᵢ = 2 (rᵢ − mean of its sensor).
    let (_, g) = gradient(bind(debiased_cost {}, (Wrt, Inactive(&sensor[..]))), &r);
    for i in 0..r.len() {
        let members: Vec<f64> = (0..r.len())
            .filter(|&j| sensor[j] == sensor[i])
            .map(|j| r[j])
            .collect();
        let mean = members.iter().sum::<f64>() / members.len() as f64;
        assert_close(g[i], 2.0 * (r[i] - mean), 1e-14, "d/dr");
    }
}

/// A histogram of weighted samples, each bin's weights kept (`BTreeMap<i64, Vec<f64>>`),
/// then a smooth summary: Σ over bins of log(1 + Σ weights²).
#[derive_frule(inactive(samples))]
fn binned_energy(weights: &[f64], samples: &[f64]) -> f64 {
    let mut bins: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
    for (s, w) in samples.iter().zip(weights) {
        let bin = (s / 0.5).floor() as i64;
        bins.entry(bin).or_default().push(*w);
    }
    let mut e = 0.0;
    for (_, ws) in &bins {
        let s2: f64 = ws.iter().map(|w| w * w).sum();
        e += (1.0 + s2).ln();
    }
    e
}

#[test]
fn histogram_of_weight_lists() {
    let w = [0.4, 1.2, -0.7, 0.3, 0.9];
    let samples = [0.1, 0.7, 0.2, 1.6, 0.65];
    let plain = |x: &[f64]| binned_energy(x, &samples);
    check_modes!(
        bind(binned_energy {}, (Wrt, Inactive(&samples[..]))),
        plain,
        w
    );
}

// ---------------------------------------------------------------------------------------
// `BTreeMap::range` in a chain.

/// Income tax over brackets: the rate of each bracket starting below the income, applied
/// to the part of the income in it. `rates` maps a bracket's start (in thousands) to its
/// rate; `range(..)` picks the brackets below the income.
#[derive_frule]
fn tax(income: f64, scale: f64) -> f64 {
    let mut rates: BTreeMap<i64, f64> = BTreeMap::new();
    rates.insert(0, 0.1 * scale);
    rates.insert(10, 0.2 * scale);
    rates.insert(40, 0.35 * scale);
    rates.insert(100, 0.45 * scale);
    let top = income.floor() as i64;
    let starts: Vec<i64> = rates.keys().copied().collect();
    rates
        .range(0..=top)
        .map(|(&k, &r)| {
            let next = starts
                .iter()
                .copied()
                .find(|&s| s > k)
                .map_or(income, |s| (s as f64).min(income));
            r * (next - k as f64)
        })
        .sum()
}

#[derive_frule]
fn tax_of(x: &[f64]) -> f64 {
    tax(x[0], x[1])
}

#[test]
fn btreemap_range_chain() {
    let x = [57.3, 1.1];
    check_modes!(bind(tax_of {}, (Wrt,)), tax_of, x);
    // Closed form: ∂/∂income = the top bracket's rate, ∂/∂scale = tax / scale.
    let (v, g) = gradient(bind(tax_of {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), tax_of(&x).to_bits());
    assert_close(g[0], 0.35 * x[1], 1e-14, "d/dincome");
    assert_close(g[1], v / x[1], 1e-14, "d/dscale");
}

/// A piecewise-linear lookup table of slopes by knot: the integral from 0 to `t` is the
/// sum of the slopes of the knots passed times their widths, `range(..k)` of them.
#[derive_frule]
fn table_integral(p: &[f64]) -> f64 {
    let mut slope: BTreeMap<usize, f64> = BTreeMap::new();
    for (k, &s) in p[1..].iter().enumerate() {
        slope.insert(k, s);
    }
    let t = p[0];
    let k = t.floor() as usize;
    let full: f64 = slope.range(..k).map(|(_, s)| s).sum();
    full + slope[&k] * (t - k as f64)
}

#[test]
fn btreemap_range_to_sum() {
    let p = [2.4, 0.5, -1.2, 2.0, 0.7];
    check_modes!(bind(table_integral {}, (Wrt,)), table_integral, p);
    let (_, g) = gradient(bind(table_integral {}, (Wrt,)), &p);
    assert_close(g[0], p[3], 1e-14, "d/dt");
    assert_close(g[1], 1.0, 1e-14, "d/ds0");
    assert_close(g[2], 1.0, 1e-14, "d/ds1");
    assert_close(g[3], 0.4, 1e-12, "d/ds2");
    assert_eq!(g[4], 0.0);
}

// ---------------------------------------------------------------------------------------
// A list of closures written in the body, walked by a `for` loop.

/// A regression model over basis functions, `y(t) = Σ wₖ φₖ(t)`, the basis a `Vec` of
/// boxed closures (one capturing the model's frequency), summed with the weights; the
/// loss a squared error over the samples.
#[derive_frule(inactive(ts, ys))]
fn basis_loss(w: &[f64], omega: f64, ts: &[f64], ys: &[f64]) -> f64 {
    let basis: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(|_t| 1.0),
        Box::new(|t| t),
        Box::new(move |t: f64| (omega * t).sin()),
        Box::new(|t: f64| (-t * t).exp()),
    ];
    assert_eq!(w.len(), basis.len());
    let mut loss = 0.0;
    for (&t, &y) in ts.iter().zip(ys) {
        let mut pred = 0.0;
        for (phi, wk) in basis.iter().zip(w) {
            pred += wk * phi(t);
        }
        loss += (pred - y) * (pred - y);
    }
    loss
}

#[derive_frule(inactive(ts, ys))]
fn basis_loss_of(p: &[f64], ts: &[f64], ys: &[f64]) -> f64 {
    basis_loss(&p[..4], p[4], ts, ys)
}

#[test]
fn boxed_basis_functions() {
    let ts = [0.0, 0.4, 0.9, 1.3, 2.0];
    let ys = [1.0, 1.2, 0.7, 0.1, -0.4];
    let p = [0.5, -0.3, 0.8, 0.2, 1.7];
    let plain = |x: &[f64]| basis_loss_of(x, &ts, &ys);
    let rule = bind(
        basis_loss_of {},
        (Wrt, Inactive(&ts[..]), Inactive(&ys[..])),
    );
    check_modes!(rule, plain, p);
    // Closed form: ∂/∂wₖ = Σ 2 rᵢ φₖ(tᵢ), ∂/∂ω = Σ 2 rᵢ w₂ tᵢ cos(ω tᵢ).
    let (v, g) = gradient(rule, &p);
    assert_eq!(v.to_bits(), plain(&p).to_bits());
    let phis = |t: f64| [1.0, t, (p[4] * t).sin(), (-t * t).exp()];
    let mut want = [0.0; 5];
    for (&t, &y) in ts.iter().zip(&ys) {
        let f = phis(t);
        let r = (0..4).map(|k| p[k] * f[k]).sum::<f64>() - y;
        for k in 0..4 {
            want[k] += 2.0 * r * f[k];
        }
        want[4] += 2.0 * r * p[2] * t * (p[4] * t).cos();
    }
    for k in 0..5 {
        assert_close(g[k], want[k], 1e-13, "d/dp");
    }
}

/// The same basis as an array of `fn` pointers (closures that capture nothing), walked
/// by index with `enumerate` and by reference, with `continue` skipping the constant.
#[derive_frule]
fn features(x: &[f64]) -> f64 {
    let acts: [fn(f64) -> f64; 3] = [|v| v.tanh(), |v| v.max(0.0), |v: f64| v.exp().ln_1p()];
    let mut out = 0.0;
    for (k, act) in acts.iter().enumerate() {
        if k == 1 && x[0] < -10.0 {
            continue;
        }
        out += x[k + 1] * act(x[0]);
    }
    for act in &acts {
        out += act(x[0] * x[1]);
    }
    out
}

#[test]
fn array_of_fn_pointers() {
    let x = [0.7, -0.4, 1.2, 0.5];
    check_modes!(bind(features {}, (Wrt,)), features, x);
}
