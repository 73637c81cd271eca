//! Widths of the drivers other than `gradient` (issue 30 item 4): `jacobian`, `hessian`,
//! `hvp` and the sparse Jacobian at 1, 2, 4, 8 and 16 directions per pass (their `_with`
//! variants, fresh buffers per call as the one-shot drivers have), the driver as it
//! chooses, and num-dual's `jacobian` and `hessian` as its documentation shows them (every
//! direction in one pass of `DualSVec64<n>` / `Dual2SVec64<n>`: its best width for these
//! sizes). `report --only widths` prints the table (never written).
//!
//! Samples are taken in rounds (one sample of every variant per round), timed by the
//! thread's CPU clock (`cputime.rs`); a ratio is the median of the per-round ratios ±
//! their interquartile range ÷ the median.

use crate::optim::{ackley, ackley_nd, rosenbrock, rosenbrock_nd};
use crate::timing::{median, Plan, RatioStat, Variant};
use fwdad::drivers::{
    bind, hessian, hessian_with, hvp, hvp_with, inplace, jacobian, jacobian_with, Out, Wrt,
};
use fwdad::prelude::*;
use fwdad::sparse::{NarrowResidualWorkspace, SparseJacobianWorkspace, SparseResidualWorkspace};
use nalgebra::SVector;
use num_dual::{Dual2SVec64, DualNum, DualSVec64};
use std::fmt::Write as _;
use std::hint::black_box;

/// The widths every driver is timed at.
pub const WIDTHS: [usize; 5] = [1, 2, 4, 8, 16];

/// A point in polar coordinates to the plane: the smallest square residual.
#[derive_frule]
pub fn polar(p: &[f64]) -> [f64; 2] {
    [p[0] * p[1].cos(), p[0] * p[1].sin()]
}

/// Generic for num-dual.
pub fn polar_nd<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> [D; 2] {
    [p[0] * p[1].cos(), p[0] * p[1].sin()]
}

/// Sample times and observations of [`exp_fit`].
const FIT_T: [f64; 12] = [
    0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0,
];
const FIT_Y: [f64; 12] = [
    3.02, 2.41, 1.98, 1.63, 1.37, 1.18, 1.03, 0.92, 0.84, 0.72, 0.66, 0.61,
];

/// Residuals of an exponential decay `a e^{-k t} + c` fitted to 12 observations: a
/// least-squares Jacobian with more outputs than inputs (12 × 3).
#[derive_frule]
pub fn exp_fit(p: &[f64]) -> [f64; 12] {
    let mut r = [0.0; 12];
    for i in 0..12 {
        r[i] = p[0] * (-p[1] * FIT_T[i]).exp() + p[2] - FIT_Y[i];
    }
    r
}

/// Generic for num-dual.
pub fn exp_fit_nd<D: DualNum<Primitive = f64> + Copy>(p: &[D]) -> [D; 12] {
    core::array::from_fn(|i| p[0] * (-(p[1] * FIT_T[i])).exp() + p[2] - FIT_Y[i])
}

/// A recurrence through `N` stages, `s ← sin(s/2 + xᵢ) + xᵢ₋₁ xᵢ`, every state an output:
/// a dense lower-triangular `N × N` Jacobian.
#[derive_frule]
pub fn chain(x: &[f64]) -> Vec<f64> {
    let mut y = Vec::with_capacity(x.len());
    let mut s = 0.0;
    let mut prev = 1.0;
    for i in 0..x.len() {
        s = (0.5 * s + x[i]).sin() + prev * x[i];
        prev = x[i];
        y.push(s);
    }
    y
}

/// Generic for num-dual.
pub fn chain_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> Vec<D> {
    let mut y = Vec::with_capacity(x.len());
    let mut s = D::from(0.0);
    let mut prev = D::from(1.0);
    for &xi in x {
        s = (s * 0.5 + xi).sin() + prev * xi;
        prev = xi;
        y.push(s);
    }
    y
}

/// One kernel's times: per-round samples of each variant, in the order of `names`.
struct Kernel {
    name: String,
    names: Vec<String>,
    samples: Vec<Vec<f64>>,
}

impl Kernel {
    fn time(&self, name: &str) -> Option<&[f64]> {
        let i = self.names.iter().position(|n| n == name)?;
        Some(&self.samples[i])
    }
}

/// The thread's CPU clock (as `sparse_report`'s): the machine is shared, and a wall
/// clock counts the time other jobs took the core.
#[path = "cputime.rs"]
pub(crate) mod cputime;

fn run(name: String, plan: Plan, variants: &mut [Variant<'_>]) -> Kernel {
    let samples = cputime::measure_samples_cpu(plan, variants);
    let k = Kernel {
        name,
        names: variants.iter().map(|v| v.0.to_string()).collect(),
        samples,
    };
    eprintln!("  {}", k.name);
    k
}

/// Relative closeness of two results (the widths sum in other orders).
fn assert_near(a: &[f64], b: &[f64], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: lengths");
    let scale = b.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for (x, y) in a.iter().zip(b) {
        assert!(
            (x - y).abs() <= 1e-9 * scale,
            "{what}: {x} against {y} (scale {scale})"
        );
    }
}

macro_rules! jac_variants {
    ($f:expr, $x:expr, $v:ident) => {
        // The widths' results checked against width 8's before timing.
        let reference = jacobian_with::<8>($f, $x).1;
        assert_near(
            jacobian_with::<1>($f, $x).1.as_slice(),
            reference.as_slice(),
            "w1",
        );
        assert_near(
            jacobian_with::<16>($f, $x).1.as_slice(),
            reference.as_slice(),
            "w16",
        );
        assert_near(
            jacobian($f, $x).1.as_slice(),
            reference.as_slice(),
            "driver",
        );
        $v.push((
            "1",
            Box::new(move || keep(jacobian_with::<1>($f, black_box($x))).1[(0, 0)]),
        ));
        $v.push((
            "2",
            Box::new(move || keep(jacobian_with::<2>($f, black_box($x))).1[(0, 0)]),
        ));
        $v.push((
            "4",
            Box::new(move || keep(jacobian_with::<4>($f, black_box($x))).1[(0, 0)]),
        ));
        $v.push((
            "8",
            Box::new(move || keep(jacobian_with::<8>($f, black_box($x))).1[(0, 0)]),
        ));
        $v.push((
            "16",
            Box::new(move || keep(jacobian_with::<16>($f, black_box($x))).1[(0, 0)]),
        ));
        $v.push((
            "32",
            Box::new(move || keep(jacobian_with::<32>($f, black_box($x))).1[(0, 0)]),
        ));
        $v.push((
            "driver",
            Box::new(move || keep(jacobian($f, black_box($x))).1[(0, 0)]),
        ));
    };
}

macro_rules! hess_variants {
    ($f:expr, $x:expr, $v:ident) => {
        // The widths' results checked against width 8's before timing.
        let reference = hessian_with::<8>($f, $x).2;
        assert_near(
            hessian_with::<1>($f, $x).2.as_slice(),
            reference.as_slice(),
            "w1",
        );
        assert_near(hessian($f, $x).2.as_slice(), reference.as_slice(), "driver");
        $v.push((
            "1",
            Box::new(move || keep(hessian_with::<1>($f, black_box($x))).2[(0, 0)]),
        ));
        $v.push((
            "2",
            Box::new(move || keep(hessian_with::<2>($f, black_box($x))).2[(0, 0)]),
        ));
        $v.push((
            "4",
            Box::new(move || keep(hessian_with::<4>($f, black_box($x))).2[(0, 0)]),
        ));
        $v.push((
            "8",
            Box::new(move || keep(hessian_with::<8>($f, black_box($x))).2[(0, 0)]),
        ));
        $v.push((
            "16",
            Box::new(move || keep(hessian_with::<16>($f, black_box($x))).2[(0, 0)]),
        ));
        $v.push((
            "32",
            Box::new(move || keep(hessian_with::<32>($f, black_box($x))).2[(0, 0)]),
        ));
        $v.push((
            "driver",
            Box::new(move || keep(hessian($f, black_box($x))).2[(0, 0)]),
        ));
    };
}

macro_rules! hvp_variants {
    ($f:expr, $x:expr, $d:expr, $v:ident) => {
        // The widths' results checked against width 8's before timing.
        let reference = hvp_with::<8>($f, $x, $d).2;
        assert_near(&hvp_with::<1>($f, $x, $d).2, &reference, "w1");
        assert_near(&hvp($f, $x, $d).2, &reference, "driver");
        $v.push((
            "1",
            Box::new(move || keep(hvp_with::<1>($f, black_box($x), $d)).2[0]),
        ));
        $v.push((
            "2",
            Box::new(move || keep(hvp_with::<2>($f, black_box($x), $d)).2[0]),
        ));
        $v.push((
            "4",
            Box::new(move || keep(hvp_with::<4>($f, black_box($x), $d)).2[0]),
        ));
        $v.push((
            "8",
            Box::new(move || keep(hvp_with::<8>($f, black_box($x), $d)).2[0]),
        ));
        $v.push((
            "16",
            Box::new(move || keep(hvp_with::<16>($f, black_box($x), $d)).2[0]),
        ));
        $v.push((
            "32",
            Box::new(move || keep(hvp_with::<32>($f, black_box($x), $d)).2[0]),
        ));
        $v.push((
            "driver",
            Box::new(move || keep(hvp($f, black_box($x), $d)).2[0]),
        ));
    };
}

/// num-dual's `jacobian` of an `n`-input kernel, `DualSVec64<N>` (one pass).
fn nd_jacobian<'a, const N: usize, const M: usize>(
    f: impl Fn(&[DualSVec64<N>]) -> [DualSVec64<N>; M] + 'a,
    x: &[f64],
) -> Box<dyn FnMut() -> f64 + 'a> {
    let v = SVector::<f64, N>::from_column_slice(x);
    Box::new(move || {
        let (_, j) = num_dual::jacobian(
            |p: SVector<DualSVec64<N>, N>| SVector::from(f(p.as_slice())),
            black_box(&v),
        );
        black_box(&j)[(0, 0)]
    })
}

/// num-dual's `hessian` (`Dual2SVec64<N>`, one pass).
fn nd_hessian<const N: usize>(
    f: impl Fn(&[Dual2SVec64<N>]) -> Dual2SVec64<N> + 'static,
    x: &[f64],
) -> Box<dyn FnMut() -> f64> {
    let v = SVector::<f64, N>::from_column_slice(x);
    Box::new(move || {
        let (_, _, h) = num_dual::hessian(
            |p: SVector<Dual2SVec64<N>, N>| f(p.as_slice()),
            black_box(&v),
        );
        black_box(&h)[(0, 0)]
    })
}

/// The whole result, kept (so that no entry's computation is left out as unused).
#[inline(always)]
fn keep<T>(r: T) -> T {
    black_box(&r);
    r
}

/// Every kernel of the section.
fn measure(plan: Plan, slow: Plan) -> (Vec<Kernel>, Vec<Kernel>, Vec<Kernel>, Vec<Kernel>) {
    let (mut jac, mut hess, mut hv, mut sparse) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // --- Jacobians.
    {
        let x = [2.0, 0.5];
        let mut v: Vec<Variant<'_>> = Vec::new();
        jac_variants!(polar {}, &x, v);
        v.push(("num-dual", nd_jacobian::<2, 2>(polar_nd, &x)));
        jac.push(run("polar, 2 × 2".into(), plan, &mut v));
    }
    {
        let x = [2.5, 1.1, 0.6];
        let mut v: Vec<Variant<'_>> = Vec::new();
        jac_variants!(exp_fit {}, &x, v);
        v.push(("num-dual", nd_jacobian::<3, 12>(exp_fit_nd, &x)));
        jac.push(run("exponential fit, 12 × 3".into(), plan, &mut v));
    }
    {
        let inst = crate::ba::Instance::generate(1, 1, 1, 3);
        let (cam, pt, w) = (&inst.cams[..11], &inst.points[..3], inst.weights[0]);
        let (fx, fy) = (inst.feats[0], inst.feats[1]);
        let mut p = cam.to_vec();
        p.extend_from_slice(pt);
        p.push(w);
        let p: &'static [f64] = Box::leak(p.into_boxed_slice());
        let f = bind(crate::ba::ba_residual_packed {}, (Wrt, fx, fy));
        let mut v: Vec<Variant<'_>> = Vec::new();
        jac_variants!(f, p, v);
        v.push((
            "num-dual",
            nd_jacobian::<15, 2>(
                move |q| crate::ba::ba_residual_nd(&q[..11], &q[11..14], q[14], fx, fy),
                p,
            ),
        ));
        jac.push(run("BA residual, 2 × 15".into(), plan, &mut v));
    }
    for n in [10usize, 50] {
        let x: &'static [f64] = Box::leak(crate::optim::point(n).into_boxed_slice());
        let mut v: Vec<Variant<'_>> = Vec::new();
        jac_variants!(chain {}, x, v);
        let nd: Box<dyn FnMut() -> f64> = match n {
            10 => nd_chain::<10>(x),
            _ => nd_chain::<50>(x),
        };
        v.push(("num-dual", nd));
        jac.push(run(format!("chain, {n} × {n}"), plan, &mut v));
    }
    // --- Hessians.
    for n in [10usize, 20] {
        let x: &'static [f64] = Box::leak(crate::optim::point(n).into_boxed_slice());
        let mut v: Vec<Variant<'_>> = Vec::new();
        hess_variants!(rosenbrock {}, x, v);
        v.push((
            "num-dual",
            match n {
                10 => nd_hessian::<10>(rosenbrock_nd, x),
                _ => nd_hessian::<20>(rosenbrock_nd, x),
            },
        ));
        hess.push(run(format!("Rosenbrock, n = {n}"), plan, &mut v));
        let mut v: Vec<Variant<'_>> = Vec::new();
        hess_variants!(ackley {}, x, v);
        v.push((
            "num-dual",
            match n {
                10 => nd_hessian::<10>(ackley_nd, x),
                _ => nd_hessian::<20>(ackley_nd, x),
            },
        ));
        hess.push(run(format!("Ackley, n = {n}"), plan, &mut v));
    }
    {
        let inst: &'static crate::gmm::Instance =
            Box::leak(Box::new(crate::gmm::Instance::generate(2, 5, 200, 5)));
        let f = bind(
            crate::gmm::gmm_objective {},
            (
                Wrt,
                fwdad::drivers::Inactive(&inst.x[..]),
                inst.d,
                inst.k,
                inst.gamma,
                inst.m,
            ),
        );
        let x = &inst.theta[..];
        let mut v: Vec<Variant<'_>> = Vec::new();
        hess_variants!(f, x, v);
        v.push((
            "num-dual",
            nd_hessian::<30>(
                |p| crate::gmm::gmm_objective_nd(p, &inst.x, inst.d, inst.k, inst.gamma, inst.m),
                x,
            ),
        ));
        hess.push(run(
            "GMM d=2 K=5, 30 parameters, 200 points".into(),
            slow,
            &mut v,
        ));
    }
    // --- Hessian-vector products.
    for n in [20usize, 50, 100] {
        let x: &'static [f64] = Box::leak(crate::optim::point(n).into_boxed_slice());
        let d: &'static [f64] =
            Box::leak(crate::optim::point(n + 1)[..n].to_vec().into_boxed_slice());
        let mut v: Vec<Variant<'_>> = Vec::new();
        hvp_variants!(rosenbrock {}, x, d, v);
        hv.push(run(format!("Rosenbrock, n = {n}"), plan, &mut v));
        let mut v: Vec<Variant<'_>> = Vec::new();
        hvp_variants!(ackley {}, x, d, v);
        hv.push(run(format!("Ackley, n = {n}"), plan, &mut v));
    }
    // --- Sparse Jacobians (colour batches).
    for (name, n) in [
        ("Bratu, n = 1000 (3 colours)", 1000usize),
        ("2-D stencil, 30 × 30 (5 colours)", 900),
    ] {
        let u: Vec<f64> = (0..n)
            .map(|i| {
                let t = (i + 1) as f64 / (n + 1) as f64;
                0.5 * t * (1.0 - t)
            })
            .collect();
        let u: &'static [f64] = Box::leak(u.into_boxed_slice());
        macro_rules! sparse_variants {
            ($bound:expr) => {{
                let bound = $bound;
                let ws8 = SparseResidualWorkspace::<_, 8>::detect(bound, n, u);
                let pattern = ws8.pattern().clone();
                let mut v: Vec<Variant<'_>> = Vec::new();
                macro_rules! w {
                    ($w:literal) => {{
                        let mut ws =
                            SparseResidualWorkspace::<_, $w>::from_pattern(bound, pattern.clone());
                        v.push((
                            stringify!($w),
                            Box::new(move || ws.jacobian(black_box(u)).1.values()[0]),
                        ));
                    }};
                }
                w!(1);
                w!(2);
                w!(4);
                w!(8);
                w!(16);
                let mut narrow = NarrowResidualWorkspace::from_pattern(bound, pattern.clone());
                let width = narrow.width();
                v.push((
                    "narrow",
                    Box::new(move || narrow.jacobian(black_box(u)).1.values()[0]),
                ));
                let mut ws = SparseJacobianWorkspace::<_, 8>::from_pattern(
                    inplace(bound, n),
                    pattern.clone(),
                );
                v.push((
                    "inplace 8",
                    Box::new(move || ws.jacobian(black_box(u)).1.values()[0]),
                ));
                sparse.push(run(format!("{name}, narrow: {width} lanes"), plan, &mut v));
            }};
        }
        if n == 1000 {
            sparse_variants!(bind(crate::sparse::bratu_residual {}, (Wrt, 2.0, Out)));
        } else {
            sparse_variants!(bind(
                crate::sparse::laplacian_residual {},
                (Wrt, 30usize, Out)
            ));
        }
    }
    (jac, hess, hv, sparse)
}

fn nd_chain<const N: usize>(x: &[f64]) -> Box<dyn FnMut() -> f64 + '_> {
    let v = SVector::<f64, N>::from_column_slice(x);
    Box::new(move || {
        let (_, j) = num_dual::jacobian(
            |p: SVector<DualSVec64<N>, N>| {
                SVector::<DualSVec64<N>, N>::from_column_slice(&chain_nd(p.as_slice()))
            },
            black_box(&v),
        );
        black_box(&j)[(0, 0)]
    })
}

fn cell(k: &Kernel, a: &str, b: &str) -> String {
    match (k.time(a), k.time(b)) {
        (Some(x), Some(y)) => {
            let r = RatioStat::of(x, y);
            format!("{:.2} ± {:.1} %", r.median, 100.0 * r.spread)
        }
        _ => "—".into(),
    }
}

fn ns(t: f64) -> String {
    if t >= 1e6 {
        format!("{:.2} ms", t / 1e6)
    } else if t >= 1e3 {
        format!("{:.2} µs", t / 1e3)
    } else {
        format!("{t:.1} ns")
    }
}

fn table(md: &mut String, title: &str, ks: &[Kernel], extra: &[&str]) {
    writeln!(md, "\n{title}\n").unwrap();
    write!(
        md,
        "| kernel | width 8 | 1 ÷ 8 | 2 ÷ 8 | 4 ÷ 8 | 16 ÷ 8 | 32 ÷ 8 | driver ÷ 8 |"
    )
    .unwrap();
    for e in extra {
        write!(md, " {e} ÷ 8 |").unwrap();
    }
    writeln!(md, " driver ÷ num-dual |").unwrap();
    writeln!(
        md,
        "|---|---|---|---|---|---|---|---|{}---|",
        "---|".repeat(extra.len())
    )
    .unwrap();
    for k in ks {
        let t8 = median(k.time("8").expect("width 8"));
        write!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            k.name,
            ns(t8),
            cell(k, "1", "8"),
            cell(k, "2", "8"),
            cell(k, "4", "8"),
            cell(k, "16", "8"),
            cell(k, "32", "8"),
            cell(k, "driver", "8"),
        )
        .unwrap();
        for e in extra {
            write!(md, " {} |", cell(k, e, "8")).unwrap();
        }
        writeln!(md, " {} |", cell(k, "driver", "num-dual")).unwrap();
    }
}

/// Measures every kernel and returns the section's markdown.
pub fn report(quick: bool) -> String {
    let (plan, slow) = if quick {
        (
            Plan {
                sample: std::time::Duration::from_micros(200),
                samples: 5,
            },
            Plan {
                sample: std::time::Duration::ZERO,
                samples: 3,
            },
        )
    } else {
        (
            Plan {
                sample: std::time::Duration::from_micros(500),
                samples: 31,
            },
            Plan {
                sample: std::time::Duration::ZERO,
                samples: 15,
            },
        )
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().next().unwrap_or("?").to_string();
    let (jac, hess, hv, sparse) = measure(plan, slow);
    let mut md = String::new();
    writeln!(
        md,
        "Driver widths (`report --only widths`; load average {load} at the start; \
         {} rounds of {} µs samples, the GMM Hessian {} rounds of one call; the thread's \
         CPU clock). \
         *w ÷ 8* is `_with::<w>` ÷ `_with::<8>`; *driver* is the driver as it chooses \
         (`jacobian`, `hessian`, `hvp`); num-dual is its `jacobian` / `hessian` of an \
         `SVector` (every direction in one pass, as its documentation shows).",
        plan.samples,
        plan.sample.as_micros(),
        slow.samples,
    )
    .unwrap();
    table(
        &mut md,
        "Jacobians (`jacobian_with::<w>`, m × n):",
        &jac,
        &["num-dual"],
    );
    table(
        &mut md,
        "Hessians (`hessian_with::<w>`):",
        &hess,
        &["num-dual"],
    );
    table(
        &mut md,
        "Hessian-vector products (`hvp_with::<w>`; num-dual has no driver):",
        &hv,
        &[],
    );
    table(
        &mut md,
        "Sparse Jacobians (`SparseResidualWorkspace::<_, w>`; *narrow* is \
         `NarrowResidualWorkspace`, *inplace 8* `SparseJacobianWorkspace` on `inplace`; \
         no driver, no num-dual):",
        &sparse,
        &["narrow", "inplace 8"],
    );
    md
}
