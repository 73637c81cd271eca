//! Small dense Jacobians, Hessians and Hessian-vector products at fixed sizes (2 × 2,
//! 3 × 3, 4 × 4, 6 × 6, 12 × 3): the one-shot drivers at a slice (`jacobian`, `hessian`,
//! `hvp`, fresh buffers per call), the array drivers (`jacobian_array`, `hessian_array`,
//! `hvp_array`, results on the stack), `JacobianWorkspace` (buffers kept), and num-dual as
//! its documentation shows it (`jacobian` of an `SVector` with `DualSVec64<n>`, `hessian`
//! with `Dual2SVec64<n>`; an HVP by `partial_hessian` of `f(x + t v)` with
//! `HyperDualSVec64<n, 1>`). `report --only small` prints the table (never written).
//!
//! Samples are taken in rounds (one sample of every variant per round), timed by the
//! thread's CPU clock; a ratio is the median of the per-round ratios ± their interquartile
//! range ÷ the median. Every result is checked against num-dual's before timing, and the
//! whole result is kept (`black_box`).

use crate::optim::{ackley, ackley_nd, rosenbrock, rosenbrock_nd};
use crate::timing::{median, Plan, RatioStat, Variant};
use crate::width_drivers::{exp_fit, exp_fit_nd};
use fwdad::drivers::{
    hessian, hessian_array, hessian_array_with, hvp, hvp_array, hvp_array_with, jacobian,
    jacobian_array, jacobian_array_with, JacobianWorkspace, SliceRule,
};
use fwdad::prelude::*;
use fwdad::Hyper;
use nalgebra::SVector;
use num_dual::{Dual2SVec64, DualNum, DualSVec64, HyperDualSVec64};
use std::fmt::Write as _;
use std::hint::black_box;

/// Tip of a planar arm of two links (lengths 1 and 0.6).
#[derive_frule]
pub fn arm2(q: &[f64]) -> [f64; 2] {
    let a = q[0] + q[1];
    [q[0].cos() + 0.6 * a.cos(), q[0].sin() + 0.6 * a.sin()]
}

/// Generic for num-dual.
pub fn arm2_nd<D: DualNum<Primitive = f64> + Copy>(q: &[D]) -> [D; 2] {
    let a = q[0] + q[1];
    [q[0].cos() + a.cos() * 0.6, q[0].sin() + a.sin() * 0.6]
}

/// The Lorenz system's right-hand side (σ = 10, ρ = 28, β = 8/3).
#[derive_frule]
pub fn lorenz(u: &[f64]) -> [f64; 3] {
    let (sigma, rho, beta) = (10.0, 28.0, 8.0 / 3.0);
    [
        sigma * (u[1] - u[0]),
        u[0] * (rho - u[2]) - u[1],
        u[0] * u[1] - beta * u[2],
    ]
}

/// Generic for num-dual.
pub fn lorenz_nd<D: DualNum<Primitive = f64> + Copy>(u: &[D]) -> [D; 3] {
    let (sigma, rho, beta) = (10.0, 28.0, 8.0 / 3.0);
    [
        (u[1] - u[0]) * sigma,
        u[0] * (-u[2] + rho) - u[1],
        u[0] * u[1] - u[2] * beta,
    ]
}

const LV_R: [f64; 4] = [1.0, 0.72, 1.53, 1.27];
const LV_A: [[f64; 4]; 4] = [
    [1.0, 1.09, 1.52, 0.0],
    [0.0, 1.0, 0.44, 1.36],
    [2.33, 0.0, 1.0, 0.47],
    [1.21, 0.51, 0.35, 1.0],
];

/// Competitive Lotka-Volterra of four species, `ẋᵢ = rᵢ xᵢ (1 - Σⱼ aᵢⱼ xⱼ)`.
#[derive_frule]
pub fn lotka_volterra(x: &[f64]) -> [f64; 4] {
    let mut dx = [0.0; 4];
    for i in 0..4 {
        let mut crowd = 0.0;
        for j in 0..4 {
            crowd += LV_A[i][j] * x[j];
        }
        dx[i] = LV_R[i] * x[i] * (1.0 - crowd);
    }
    dx
}

/// Generic for num-dual.
pub fn lotka_volterra_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> [D; 4] {
    core::array::from_fn(|i| {
        let mut crowd = D::from(0.0);
        for j in 0..4 {
            crowd += x[j] * LV_A[i][j];
        }
        x[i] * LV_R[i] * (-crowd + 1.0)
    })
}

/// Lorenz-96 of six states, forcing 8.
#[derive_frule]
pub fn lorenz96(x: &[f64]) -> [f64; 6] {
    let n = 6;
    let mut dx = [0.0; 6];
    for i in 0..n {
        dx[i] = (x[(i + 1) % n] - x[(i + n - 2) % n]) * x[(i + n - 1) % n] - x[i] + 8.0;
    }
    dx
}

/// Generic for num-dual.
pub fn lorenz96_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> [D; 6] {
    let n = 6;
    core::array::from_fn(|i| {
        (x[(i + 1) % n] - x[(i + n - 2) % n]) * x[(i + n - 1) % n] - x[i] + 8.0
    })
}

macro_rules! lorenz96_of {
    ($name:ident, $name_nd:ident, $n:literal) => {
        /// Lorenz-96 of more states (forcing 8): past the one-pass limits.
        #[derive_frule]
        pub fn $name(x: &[f64]) -> [f64; $n] {
            let n = $n;
            let mut dx = [0.0; $n];
            for i in 0..n {
                dx[i] = (x[(i + 1) % n] - x[(i + n - 2) % n]) * x[(i + n - 1) % n] - x[i] + 8.0;
            }
            dx
        }

        /// Generic for num-dual.
        pub fn $name_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> [D; $n] {
            let n = $n;
            core::array::from_fn(|i| {
                (x[(i + 1) % n] - x[(i + n - 2) % n]) * x[(i + n - 1) % n] - x[i] + 8.0
            })
        }
    };
}
lorenz96_of!(lorenz96_12, lorenz96_12_nd, 12);
lorenz96_of!(lorenz96_20, lorenz96_20_nd, 20);

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

use crate::width_drivers::cputime;

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

/// The whole result, kept (so that no entry's computation is left out as unused).
#[inline(always)]
fn keep<T>(r: T) -> T {
    black_box(&r);
    r
}

fn assert_near(a: &[f64], b: &[f64], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: lengths");
    let scale = b.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for (x, y) in a.iter().zip(b) {
        assert!(
            (x - y).abs() <= 1e-12 * scale,
            "{what}: {x} against {y} (scale {scale})"
        );
    }
}

/// The Jacobian variants of an `N`-input, `M`-output kernel (`f` fwdad's rule, `nd` the
/// generic code), their results checked against num-dual's.
fn jacobian_kernel<F, const N: usize, const M: usize>(
    name: &str,
    f: F,
    nd: fn(&[DualSVec64<N>]) -> [DualSVec64<N>; M],
    x: [f64; N],
    plan: Plan,
) -> Kernel
where
    F: fwdad::drivers::JacobianRule
        + SliceRule<Batch<f64, N>, Output = Dual<[f64; M], [Batch<f64, N>; M]>>
        + SliceRule<Batch<f64, 4>, Output = Dual<[f64; M], [Batch<f64, 4>; M]>>
        + SliceRule<Batch<f64, 8>, Output = Dual<[f64; M], [Batch<f64, 8>; M]>>
        + SliceRule<Batch<f64, 16>, Output = Dual<[f64; M], [Batch<f64, 16>; M]>>
        + SliceRule<Batch<f64, 32>, Output = Dual<[f64; M], [Batch<f64, 32>; M]>>
        + Copy
        + 'static,
{
    let v = SVector::<f64, N>::from(x);
    let nd_jac = move |v: &SVector<f64, N>| {
        num_dual::jacobian(
            |p: SVector<DualSVec64<N>, N>| SVector::from(nd(p.as_slice())),
            v,
        )
    };
    let (want_v, want_j) = nd_jac(&v);
    let want: Vec<f64> = (0..M)
        .flat_map(|i| (0..N).map(move |j| want_j[(i, j)]))
        .collect();
    let (vals, j) = jacobian_array(f, &x);
    assert_near(&vals, want_v.as_slice(), "array values");
    assert_near(j.as_flattened(), &want, "array");
    assert_near(jacobian(f, &x[..]).1.as_slice(), &want, "driver");
    let mut ws = JacobianWorkspace::<8>::new();
    let mut v8: Vec<Variant<'_>> = vec![
        (
            "driver",
            Box::new(move || keep(jacobian(f, black_box(&x[..]))).1[(0, 0)]),
        ),
        (
            "array",
            Box::new(move || keep(jacobian_array(f, black_box(&x))).1[0][0]),
        ),
        (
            "exact",
            Box::new(move || keep(jacobian_array_with::<N, F, N, M>(f, black_box(&x))).1[0][0]),
        ),
        (
            "w4",
            Box::new(move || keep(jacobian_array_with::<4, F, N, M>(f, black_box(&x))).1[0][0]),
        ),
        (
            "w8",
            Box::new(move || keep(jacobian_array_with::<8, F, N, M>(f, black_box(&x))).1[0][0]),
        ),
        (
            "w16",
            Box::new(move || keep(jacobian_array_with::<16, F, N, M>(f, black_box(&x))).1[0][0]),
        ),
        (
            "w32",
            Box::new(move || keep(jacobian_array_with::<32, F, N, M>(f, black_box(&x))).1[0][0]),
        ),
        (
            "workspace",
            Box::new(move || {
                let (vals, j) = ws.jacobian(f, black_box(&x[..]));
                black_box((vals, j));
                j[(0, 0)]
            }),
        ),
        (
            "num-dual",
            Box::new(move || {
                let r = nd_jac(black_box(&v));
                black_box(&r);
                r.1[(0, 0)]
            }),
        ),
    ];
    run(format!("{name}, {M} × {N}"), plan, &mut v8)
}

/// A rule run by the second-order drivers at `W` lanes.
pub trait SecondOrder<const W: usize>:
    SliceRule<Hyper<f64, Batch<f64, W>>, Output = Dual<f64, Hyper<f64, Batch<f64, W>>>> + Copy + 'static
{
}
impl<F, const W: usize> SecondOrder<W> for F where
    F: SliceRule<Hyper<f64, Batch<f64, W>>, Output = Dual<f64, Hyper<f64, Batch<f64, W>>>>
        + Copy
        + 'static
{
}

/// The Hessian variants of an `N`-input kernel.
fn hessian_kernel<F, const N: usize>(
    name: &str,
    f: F,
    nd: fn(&[Dual2SVec64<N>]) -> Dual2SVec64<N>,
    x: [f64; N],
    plan: Plan,
) -> Kernel
where
    F: SecondOrder<N> + SecondOrder<2> + SecondOrder<4> + SecondOrder<8> + SecondOrder<16>,
{
    let v = SVector::<f64, N>::from(x);
    let nd_hess = move |v: &SVector<f64, N>| {
        num_dual::hessian(|p: SVector<Dual2SVec64<N>, N>| nd(p.as_slice()), v)
    };
    let (_, _, want_h) = nd_hess(&v);
    let want: Vec<f64> = want_h.transpose().as_slice().to_vec();
    let (_, _, h) = hessian_array(f, &x);
    assert_near(h.as_flattened(), &want, "array");
    assert_near(hessian(f, &x[..]).2.as_slice(), &want, "driver");
    let mut vs: Vec<Variant<'_>> = vec![
        (
            "driver",
            Box::new(move || keep(hessian(f, black_box(&x[..]))).2[(0, 0)]),
        ),
        (
            "array",
            Box::new(move || keep(hessian_array(f, black_box(&x))).2[0][0]),
        ),
        (
            "exact",
            Box::new(move || keep(hessian_array_with::<N, F, N>(f, black_box(&x))).2[0][0]),
        ),
        (
            "w2",
            Box::new(move || keep(hessian_array_with::<2, F, N>(f, black_box(&x))).2[0][0]),
        ),
        (
            "w4",
            Box::new(move || keep(hessian_array_with::<4, F, N>(f, black_box(&x))).2[0][0]),
        ),
        (
            "w8",
            Box::new(move || keep(hessian_array_with::<8, F, N>(f, black_box(&x))).2[0][0]),
        ),
        (
            "w16",
            Box::new(move || keep(hessian_array_with::<16, F, N>(f, black_box(&x))).2[0][0]),
        ),
        (
            "num-dual",
            Box::new(move || {
                let r = nd_hess(black_box(&v));
                black_box(&r);
                r.2[(0, 0)]
            }),
        ),
    ];
    run(format!("{name}, n = {N}"), plan, &mut vs)
}

/// The Hessian-vector product variants of an `N`-input kernel; num-dual's is
/// `partial_hessian` of `f(x + t v)` in `(x, t)`.
fn hvp_kernel<F, const N: usize>(
    name: &str,
    f: F,
    nd: fn(&[HyperDualSVec64<N, 1>]) -> HyperDualSVec64<N, 1>,
    x: [f64; N],
    d: [f64; N],
    plan: Plan,
) -> Kernel
where
    F: fwdad::HvpRule
        + SecondOrder<N>
        + SecondOrder<2>
        + SecondOrder<4>
        + SecondOrder<8>
        + SecondOrder<16>,
{
    let v = SVector::<f64, N>::from(x);
    let t0 = SVector::<f64, 1>::zeros();
    let nd_hvp = move |v: &SVector<f64, N>| {
        num_dual::partial_hessian(
            |(p, t): (
                SVector<HyperDualSVec64<N, 1>, N>,
                SVector<HyperDualSVec64<N, 1>, 1>,
            )| {
                let q: [HyperDualSVec64<N, 1>; N] = core::array::from_fn(|i| p[i] + t[0] * d[i]);
                nd(&q)
            },
            (v, &t0),
        )
    };
    let want = nd_hvp(&v).3;
    let (_, _, hv) = hvp_array(f, &x, &d);
    assert_near(&hv, want.as_slice(), "array");
    assert_near(&hvp(f, &x[..], &d[..]).2, want.as_slice(), "driver");
    let mut vs: Vec<Variant<'_>> = vec![
        (
            "driver",
            Box::new(move || keep(hvp(f, black_box(&x[..]), &d[..])).2[0]),
        ),
        (
            "array",
            Box::new(move || keep(hvp_array(f, black_box(&x), &d)).2[0]),
        ),
        (
            "exact",
            Box::new(move || keep(hvp_array_with::<N, F, N>(f, black_box(&x), &d)).2[0]),
        ),
        (
            "w2",
            Box::new(move || keep(hvp_array_with::<2, F, N>(f, black_box(&x), &d)).2[0]),
        ),
        (
            "w4",
            Box::new(move || keep(hvp_array_with::<4, F, N>(f, black_box(&x), &d)).2[0]),
        ),
        (
            "w8",
            Box::new(move || keep(hvp_array_with::<8, F, N>(f, black_box(&x), &d)).2[0]),
        ),
        (
            "w16",
            Box::new(move || keep(hvp_array_with::<16, F, N>(f, black_box(&x), &d)).2[0]),
        ),
        (
            "num-dual",
            Box::new(move || {
                let r = nd_hvp(black_box(&v));
                black_box(&r);
                r.3[(0, 0)]
            }),
        ),
    ];
    run(format!("{name}, n = {N}"), plan, &mut vs)
}

fn measure(plan: Plan) -> (Vec<Kernel>, Vec<Kernel>, Vec<Kernel>) {
    let jac = vec![
        jacobian_kernel("2-link arm", arm2 {}, arm2_nd, [0.3, 0.9], plan),
        jacobian_kernel("Lorenz", lorenz {}, lorenz_nd, [1.3, -0.4, 22.0], plan),
        jacobian_kernel(
            "Lotka-Volterra",
            lotka_volterra {},
            lotka_volterra_nd,
            [0.3, 0.41, 0.12, 0.28],
            plan,
        ),
        jacobian_kernel(
            "Lorenz-96",
            lorenz96 {},
            lorenz96_nd,
            [8.01, 0.3, -1.2, 2.5, 7.1, -3.3],
            plan,
        ),
        jacobian_kernel(
            "exponential fit",
            exp_fit {},
            exp_fit_nd,
            [2.5, 1.1, 0.6],
            plan,
        ),
        jacobian_kernel(
            "Lorenz-96",
            lorenz96_12 {},
            lorenz96_12_nd,
            <[f64; 12]>::try_from(crate::optim::point(12)).unwrap(),
            plan,
        ),
        jacobian_kernel(
            "Lorenz-96",
            lorenz96_20 {},
            lorenz96_20_nd,
            <[f64; 20]>::try_from(crate::optim::point(20)).unwrap(),
            plan,
        ),
    ];
    let mut hess = Vec::new();
    let mut hv = Vec::new();
    macro_rules! second_order {
        ($n:literal) => {{
            let x: [f64; $n] = crate::optim::point($n).try_into().unwrap();
            let d: [f64; $n] = crate::optim::point($n + 1)[..$n].try_into().unwrap();
            hess.push(hessian_kernel(
                "Rosenbrock",
                rosenbrock {},
                rosenbrock_nd,
                x,
                plan,
            ));
            hess.push(hessian_kernel("Ackley", ackley {}, ackley_nd, x, plan));
            hv.push(hvp_kernel(
                "Rosenbrock",
                rosenbrock {},
                rosenbrock_nd,
                x,
                d,
                plan,
            ));
            hv.push(hvp_kernel("Ackley", ackley {}, ackley_nd, x, d, plan));
        }};
    }
    second_order!(2);
    second_order!(3);
    second_order!(4);
    second_order!(6);
    second_order!(8);
    second_order!(12);
    (jac, hess, hv)
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
    if t >= 1e3 {
        format!("{:.2} µs", t / 1e3)
    } else {
        format!("{t:.1} ns")
    }
}

fn table(
    md: &mut String,
    title: &str,
    driver: &str,
    ks: &[Kernel],
    workspace: bool,
    widths: &[&str],
) {
    writeln!(md, "\n{title}\n").unwrap();
    write!(
        md,
        "| kernel | array | num-dual | **array ÷ num-dual** | {driver} ÷ num-dual | array ÷ {driver} |"
    )
    .unwrap();
    if workspace {
        write!(md, " workspace ÷ num-dual |").unwrap();
    }
    for w in widths {
        write!(md, " {w} ÷ array |").unwrap();
    }
    writeln!(md).unwrap();
    writeln!(
        md,
        "|---|---|---|---|---|---|{}{}",
        if workspace { "---|" } else { "" },
        "---|".repeat(widths.len())
    )
    .unwrap();
    for k in ks {
        write!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            k.name,
            ns(median(k.time("array").unwrap())),
            ns(median(k.time("num-dual").unwrap())),
            cell(k, "array", "num-dual"),
            cell(k, "driver", "num-dual"),
            cell(k, "array", "driver"),
        )
        .unwrap();
        if workspace {
            write!(md, " {} |", cell(k, "workspace", "num-dual")).unwrap();
        }
        for w in widths {
            write!(md, " {} |", cell(k, w, "array")).unwrap();
        }
        writeln!(md).unwrap();
    }
}

/// Measures every kernel and returns the section's markdown.
pub fn report(quick: bool) -> String {
    let plan = if quick {
        Plan {
            sample: std::time::Duration::from_micros(200),
            samples: 5,
        }
    } else {
        Plan {
            sample: std::time::Duration::from_micros(500),
            samples: 31,
        }
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().next().unwrap_or("?").to_string();
    let (jac, hess, hv) = measure(plan);
    let mut md = String::new();
    writeln!(
        md,
        "Small dense drivers at fixed sizes (`report --only small`; load average {load} at \
         the start; {} rounds of {} µs samples, the thread's CPU clock). *array* is \
         `jacobian_array` / `hessian_array` / `hvp_array` at a `[f64; N]`; *driver* the \
         one-shot driver at the slice; *workspace* `JacobianWorkspace::<8>` (buffers kept); \
         num-dual its `jacobian` / `hessian` of an `SVector` (`DualSVec64<n>`, \
         `Dual2SVec64<n>`), and for the HVP `partial_hessian` of `f(x + t v)` \
         (`HyperDualSVec64<n, 1>`). *exact*, *wK*: the array drivers' `_with::<K>` \
         (passes of `K` lanes; exact: `N`). Medians of per-round ratios ± IQR ÷ median.",
        plan.samples,
        plan.sample.as_micros(),
    )
    .unwrap();
    let first = ["exact", "w4", "w8", "w16", "w32"];
    let second = ["exact", "w2", "w4", "w8", "w16"];
    table(
        &mut md,
        "Jacobians (m × n):",
        "jacobian",
        &jac,
        true,
        &first,
    );
    table(&mut md, "Hessians:", "hessian", &hess, false, &second);
    table(
        &mut md,
        "Hessian-vector products:",
        "hvp",
        &hv,
        false,
        &second,
    );
    md
}
