//! Gradient chunk widths on this machine: the derived rule at widths 4, 8, 16 and 32
//! (`JacobianWorkspace::<N>::gradient`), `fwdad::gradient` and `GradientWorkspace`, and
//! num-dual in chunks of 4, 8 and 16 (`DualSVec64<N>`), on the gradient kernels of the
//! report (Rosenbrock, Ackley): the evidence behind `fwdad::drivers::gradient_width` and
//! `fwdad::gradient`'s choice. Writes the "Gradient widths" section of `BENCHMARKS.md`
//! (between its markers, or appended; `--no-write` only prints it).
//!
//! ```text
//! cargo run --release -p fwdad-bench --bin width_report [-- --quick] [-- --no-write]
//! ```
//!
//! Samples are taken in rounds (one sample of every variant per round) and timed by the
//! thread's CPU clock (`cputime.rs`); a ratio is the median of the per-round ratios ± their
//! interquartile range ÷ the median.

#[path = "../cputime.rs"]
mod cputime;

use fwdad::drivers::{gradient_width, GradientPlan, GradientWorkspace, JacobianWorkspace};
use fwdad_bench::optim;
use fwdad_bench::timing::{median, Plan, RatioStat, Variant};
use nalgebra::SVector;
use num_dual::DualSVec64;
use std::fmt::Write as _;
use std::hint::black_box;

const BEGIN: &str = "<!-- gradient-widths:begin -->";
const END: &str = "<!-- gradient-widths:end -->";

/// What the table shows (from the last full run; update it when the numbers move).
const FINDINGS: &str = include_str!("width_findings.md");

/// A kernel generic over num-dual's numbers, at width `N`.
type NdFn<const N: usize> = fn(&[DualSVec64<N>]) -> DualSVec64<N>;

/// num-dual's chunked gradient.
fn nd<'a, const N: usize>(f: NdFn<N>, x: &[f64], g: &'a mut [f64]) -> Box<dyn FnMut() -> f64 + 'a> {
    let mut xd = optim::nd_inputs::<N>(x);
    Box::new(move || optim::nd_gradient::<N>(f, black_box(&mut xd), g))
}

macro_rules! width {
    ($n:literal, $rosen:expr, $x:expr) => {{
        let mut ws = JacobianWorkspace::<$n>::new();
        let x = $x;
        let rosen = $rosen;
        Box::new(move || {
            if rosen {
                ws.gradient(optim::rosenbrock {}, black_box(x)).1[0]
            } else {
                ws.gradient(optim::ackley {}, black_box(x)).1[0]
            }
        }) as Box<dyn FnMut() -> f64>
    }};
}

/// num-dual's own `gradient`, as its documentation shows it: every direction in one pass,
/// `DualSVec64<N>` for `N = n` inputs.
fn nd_docs_static<const N: usize>(rosen: bool, x: &[f64]) -> Box<dyn FnMut() -> f64 + '_> {
    let v = SVector::<f64, N>::from_column_slice(x);
    Box::new(move || {
        let (f, g) = num_dual::gradient(
            |v: SVector<DualSVec64<N>, N>| {
                if rosen {
                    optim::rosenbrock_nd(v.as_slice())
                } else {
                    optim::ackley_nd(v.as_slice())
                }
            },
            black_box(&v),
        );
        // Every entry used: with only `g[0]` read, LLVM drops the other lanes' work.
        f + black_box(g)[0]
    })
}

/// num-dual's documented `gradient` for `n` inputs, up to 100 (its `DualDVec64`, the
/// documentation's other example, is not `Copy`, which the kernels need; a static vector
/// of 300 duals of 300 lanes is 720 KB, passed by value).
fn nd_docs(rosen: bool, x: &[f64]) -> Option<Box<dyn FnMut() -> f64 + '_>> {
    Some(match x.len() {
        10 => nd_docs_static::<10>(rosen, x),
        20 => nd_docs_static::<20>(rosen, x),
        50 => nd_docs_static::<50>(rosen, x),
        100 => nd_docs_static::<100>(rosen, x),
        _ => return None,
    })
}

/// The derived rule with `MaybeZero<Batch<f64, width>>` tangents, buffers kept.
fn zeros(width: usize, rosen: bool, x: &[f64]) -> Box<dyn FnMut() -> f64 + '_> {
    let mut ws = GradientWorkspace::new();
    let plan = GradientPlan::known_zeros(width);
    Box::new(move || {
        if rosen {
            ws.gradient_with_plan(optim::rosenbrock {}, black_box(x), plan)
                .1[0]
        } else {
            ws.gradient_with_plan(optim::ackley {}, black_box(x), plan)
                .1[0]
        }
    })
}

/// The derived rule with `Batch<f64, gradient_width(n)>` tangents (one pass up to 20
/// inputs, 10 or 20 lanes where 16 and 32 are in the table already), buffers kept.
fn own_width(rosen: bool, x: &[f64]) -> Box<dyn FnMut() -> f64 + '_> {
    let mut ws = GradientWorkspace::new();
    let plan = GradientPlan::dense(gradient_width(x.len()));
    Box::new(move || {
        if rosen {
            ws.gradient_with_plan(optim::rosenbrock {}, black_box(x), plan)
                .1[0]
        } else {
            ws.gradient_with_plan(optim::ackley {}, black_box(x), plan)
                .1[0]
        }
    })
}

/// A plan as the table names it.
fn plan_name(p: GradientPlan) -> String {
    let mode = if p.known_zeros { "MaybeZero" } else { "Batch" };
    format!("`{mode}` {}", p.width)
}

fn ns(t: f64) -> String {
    if t >= 1e6 {
        format!("{:.2} ms", t / 1e6)
    } else if t >= 1e3 {
        format!("{:.2} µs", t / 1e3)
    } else {
        format!("{t:.0} ns")
    }
}

fn pct(r: RatioStat) -> String {
    format!(
        "{:.2} ± {:.1} %{}",
        r.median,
        100.0 * r.spread,
        if r.spread > 0.05 { " ⚠" } else { "" }
    )
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let write = !std::env::args().any(|a| a == "--no-write");
    let mut md = String::new();
    let plan = Plan {
        sample: std::time::Duration::from_micros(500),
        samples: if quick { 7 } else { 41 },
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    writeln!(
        md,
        "{BEGIN}\n### Gradient widths (issue 30, item 4)\n\n\
         Written by `cargo run --release -p fwdad-bench --bin width_report` (profile: \
         `codegen-units = 1`, thin LTO). The derived rule with `Batch` tangents at widths 4, \
         8, 16 and 32 (`JacobianWorkspace::<N>::gradient`, buffers kept) and at \
         `gradient_width(n)` (one pass of `n` lanes rounded up to 4, 8, 10, 12, 16 or 20, up to 20 \
         inputs), with `MaybeZero` \
         tangents at 8, 16 and 32 (`GradientWorkspace::gradient_with_plan`), the one-shot \
         `fwdad::gradient` at a slice (its plan chosen by timing its own calls above 16 \
         inputs, one pass from static seeds up to 16, a fresh `Vec` returned), num-dual in chunks of 4, 8 and 16 \
         (`DualSVec64<N>`, inputs kept, inputs outside the chunk without derivative); \
         \"nd\" is the fastest of these and of num-dual's own `gradient` as its documentation \
         shows it (all `n` directions in one pass of `DualSVec64<n>`, up to 100 inputs; the \
         column \"num-dual's `gradient` ÷ nd\" shows it against the best). {} rounds of 500 µs samples per \
         kernel, timed by the thread's CPU clock; ratios are medians of per-round ratios ± \
         their interquartile range ÷ median. *workspace chose*: the plan \
         `GradientWorkspace` measured fastest on its first call. The machine (2 cores) was \
         shared with other jobs (load average {} at the start): spreads above 5 % are the \
         load's, and were not brought down by measuring again.\n",
        plan.samples,
        load.split_whitespace().next().unwrap_or("?")
    )
    .unwrap();
    writeln!(
        md,
        "| kernel | `gradient_width` | workspace chose | best num-dual | `Batch` 4 ÷ nd | `Batch` 8 ÷ nd | `Batch` 16 ÷ nd | `Batch` 32 ÷ nd | `MaybeZero` 8 ÷ nd | `MaybeZero` 16 ÷ nd | `MaybeZero` 32 ÷ nd | `Batch` `gradient_width` ÷ nd | `gradient` ÷ nd | num-dual's `gradient` ÷ nd | fastest plan |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    )
    .unwrap();
    for rosen in [true, false] {
        for n in [10, 20, 50, 100, 300, 1000] {
            let name = if rosen { "Rosenbrock" } else { "Ackley" };
            let x = optim::point(n);
            let x = &x[..];
            let mut ws = GradientWorkspace::new();
            if rosen {
                ws.gradient(optim::rosenbrock {}, x);
            } else {
                ws.gradient(optim::ackley {}, x);
            }
            let chosen = ws.plan(n).unwrap_or(GradientPlan::dense(gradient_width(n)));
            let (mut g4, mut g8, mut g16) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
            let (f4, f8, f16): (NdFn<4>, NdFn<8>, NdFn<16>) = if rosen {
                (
                    optim::rosenbrock_nd,
                    optim::rosenbrock_nd,
                    optim::rosenbrock_nd,
                )
            } else {
                (optim::ackley_nd, optim::ackley_nd, optim::ackley_nd)
            };
            let mut vs: Vec<Variant> = vec![
                ("width 4", width!(4, rosen, x)),
                ("width 8", width!(8, rosen, x)),
                ("width 16", width!(16, rosen, x)),
                ("width 32", width!(32, rosen, x)),
                ("zeros 8", zeros(8, rosen, x)),
                ("zeros 16", zeros(16, rosen, x)),
                ("zeros 32", zeros(32, rosen, x)),
                ("own width", own_width(rosen, x)),
                (
                    "gradient",
                    Box::new(move || {
                        if rosen {
                            fwdad::gradient(optim::rosenbrock {}, black_box(x)).1[0]
                        } else {
                            fwdad::gradient(optim::ackley {}, black_box(x)).1[0]
                        }
                    }),
                ),
                ("nd 4", nd::<4>(f4, x, &mut g4)),
                ("nd 8", nd::<8>(f8, x, &mut g8)),
                ("nd 16", nd::<16>(f16, x, &mut g16)),
            ];
            let docs = nd_docs(rosen, x).map(|v| vs.push(("nd docs", v))).is_some();
            let s = cputime::measure_samples_cpu(plan, &mut vs);
            // num-dual at its best: chunks of 4, 8, 16, or (up to 100 inputs) its own
            // one-pass `gradient`.
            let best_nd = (9..vs.len())
                .min_by(|&a, &b| median(&s[a]).total_cmp(&median(&s[b])))
                .expect("three widths");
            let fastest = (0..8)
                .min_by(|&a, &b| median(&s[a]).total_cmp(&median(&s[b])))
                .expect("eight plans");
            let r = |k: usize| pct(RatioStat::of(&s[k], &s[best_nd]));
            writeln!(
                md,
                "| {name}, n = {n} | {} | {} | {} ×{} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                gradient_width(n),
                plan_name(chosen),
                ns(median(&s[best_nd])),
                ["4", "8", "16", "n (`gradient`)"][best_nd - 9],
                r(0),
                r(1),
                r(2),
                r(3),
                r(4),
                r(5),
                r(6),
                r(7),
                r(8),
                if docs { r(12) } else { "–".to_string() },
                match fastest {
                    7 => format!("`Batch` {}", gradient_width(n)),
                    k => ["`Batch` 4", "`Batch` 8", "`Batch` 16", "`Batch` 32", "`MaybeZero` 8", "`MaybeZero` 16", "`MaybeZero` 32"][k].to_string(),
                },
            )
            .unwrap();
        }
    }
    md.push('\n');
    md.push_str(FINDINGS);
    md.push_str(END);
    println!("{md}");
    if write && !quick {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let new = match (old.find(BEGIN), old.find(END)) {
            (Some(b), Some(e)) if b < e => {
                format!("{}{}{}", &old[..b], md.trim_end(), &old[e + END.len()..])
            }
            _ => format!("{}\n{}\n", old.trim_end_matches('\n'), md),
        };
        std::fs::write(&path, new).expect("write BENCHMARKS.md");
        eprintln!("wrote the gradient-widths section of BENCHMARKS.md");
    }
}
