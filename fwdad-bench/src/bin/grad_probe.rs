//! Ackley and Rosenbrock at n = 10: where `gradient`'s time goes against num-dual's one
//! pass of exactly 10 lanes (issue 30). The rule called directly with unit seeds at 10
//! and 12 lanes (no driver), `GradientWorkspace`, the one-shot `fwdad::gradient`, and
//! num-dual's `gradient`; medians of per-round ratios, the thread's CPU clock.
//!
//! `cargo run --release -p fwdad-bench --bin grad_probe`

#[path = "../cputime.rs"]
mod cputime;

use fwdad::drivers::GradientWorkspace;
use fwdad::prelude::*;
use fwdad_bench::optim;
use fwdad_bench::timing::{median, read_gradient, Plan, RatioStat, Variant};
use nalgebra::SVector;
use num_dual::DualSVec64;
use std::hint::black_box;

/// The rule with `N` lanes of unit seeds (lanes past `x.len()` zero), called directly.
fn raw<const N: usize>(rosen: bool, x: &[f64]) -> Box<dyn FnMut() -> f64 + '_> {
    let seeds: Vec<Batch<f64, N>> = (0..x.len()).map(Batch::unit).collect();
    Box::new(move || {
        let d = Dual::new(black_box(x), &seeds[..]);
        let y = if rosen {
            <optim::rosenbrock as Frule<_, Batch<f64, N>>>::frule(&optim::rosenbrock {}, (d,))
        } else {
            <optim::ackley as Frule<_, Batch<f64, N>>>::frule(&optim::ackley {}, (d,))
        };
        y.primal + black_box(y.tangent).0[0]
    })
}

/// [`raw`] in `Fused` mode inside an AVX2+FMA function, the rule inlined into it: the
/// prototype of dispatching a one-pass gradient from the driver (issue 30, BENCHMARKS.md
/// §11). Not in the drivers: where LLVM does not inline the rule into such a function,
/// `Fused` mode runs at the default target with a call of libm's `fma` per lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fused_pass<const N: usize>(
    rosen: bool,
    x: &[f64],
    seeds: &[fwdad::Fused<Batch<f64, N>>],
) -> (Batch<f64, N>, f64) {
    let d = Dual::new(x, seeds);
    let y = if rosen {
        <optim::rosenbrock as Frule<_, fwdad::Fused<Batch<f64, N>>>>::frule(
            &optim::rosenbrock {},
            (d,),
        )
    } else {
        <optim::ackley as Frule<_, fwdad::Fused<Batch<f64, N>>>>::frule(&optim::ackley {}, (d,))
    };
    (y.tangent.0, y.primal)
}

/// [`fused_pass`] with unit seeds, where the CPU has AVX2 and FMA (else [`raw`]).
fn raw_fused<const N: usize>(rosen: bool, x: &[f64]) -> Box<dyn FnMut() -> f64 + '_> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        let seeds: Vec<fwdad::Fused<Batch<f64, N>>> =
            (0..x.len()).map(|k| fwdad::Fused(Batch::unit(k))).collect();
        return Box::new(move || {
            // SAFETY: AVX2 and FMA detected above.
            let (t, v) = unsafe { fused_pass::<N>(rosen, black_box(x), &seeds[..]) };
            v + black_box(t).0[0]
        });
    }
    raw::<N>(rosen, x)
}

/// [`raw`], the lanes copied into a gradient buffer as the drivers do.
fn raw_copy<const N: usize>(rosen: bool, x: &[f64]) -> Box<dyn FnMut() -> f64 + '_> {
    let seeds: Vec<Batch<f64, N>> = (0..x.len()).map(Batch::unit).collect();
    let mut g = vec![0.0; x.len()];
    Box::new(move || {
        let d = Dual::new(black_box(x), &seeds[..]);
        let y = if rosen {
            <optim::rosenbrock as Frule<_, Batch<f64, N>>>::frule(&optim::rosenbrock {}, (d,))
        } else {
            <optim::ackley as Frule<_, Batch<f64, N>>>::frule(&optim::ackley {}, (d,))
        };
        let n = g.len();
        for (gi, l) in g.iter_mut().zip(&y.tangent.0[..n]) {
            *gi = *l;
        }
        y.primal + black_box(&g)[0]
    })
}

macro_rules! jws {
    ($w:literal, $rosen:expr, $x:expr) => {{
        let mut jw = fwdad::drivers::JacobianWorkspace::<$w>::new();
        let (rosen, x) = ($rosen, $x);
        Box::new(move || {
            if rosen {
                jw.gradient(optim::rosenbrock {}, black_box(x)).1[0]
            } else {
                jw.gradient(optim::ackley {}, black_box(x)).1[0]
            }
        }) as Box<dyn FnMut() -> f64 + '_>
    }};
}

/// num-dual in chunks of `N` (`DualSVec64<N>`, inputs outside the chunk without derivative).
fn nd_chunk<'a, const N: usize>(
    rosen: bool,
    x: &'a [f64],
    g: &'a mut [f64],
) -> Box<dyn FnMut() -> f64 + 'a> {
    let mut xd = optim::nd_inputs::<N>(x);
    let f: fn(&[DualSVec64<N>]) -> DualSVec64<N> = if rosen {
        optim::rosenbrock_nd
    } else {
        optim::ackley_nd
    };
    Box::new(move || optim::nd_gradient::<N>(f, black_box(&mut xd), g))
}

/// num-dual's `gradient` in one pass of `N` lanes (its documentation's form).
fn nd_docs<const N: usize>(rosen: bool, x: &[f64]) -> Box<dyn FnMut() -> f64 + '_> {
    let v = SVector::<f64, N>::from_column_slice(x);
    Box::new(move || {
        let r = num_dual::gradient(
            |v: SVector<DualSVec64<N>, N>| {
                if rosen {
                    optim::rosenbrock_nd(v.as_slice())
                } else {
                    optim::ackley_nd(v.as_slice())
                }
            },
            black_box(&v),
        );
        r.0 + black_box(r.1)[0]
    })
}

/// One pass of exactly `n` lanes against the widths around it, and num-dual at its best.
fn widths(plan: Plan) {
    for rosen in [false, true] {
        let lengths: Vec<usize> = match std::env::var("GRAD_PROBE_N") {
            Ok(n) => n.split(',').filter_map(|n| n.parse().ok()).collect(),
            Err(_) => vec![10, 12, 24],
        };
        for n in lengths {
            let x = optim::point(n);
            let x = &x[..];
            let (mut g4, mut g8, mut g16) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
            let mut vs: Vec<Variant> = vec![
                ("nd 4", nd_chunk::<4>(rosen, x, &mut g4)),
                ("nd 8", nd_chunk::<8>(rosen, x, &mut g8)),
                ("nd 16", nd_chunk::<16>(rosen, x, &mut g16)),
                match n {
                    10 => ("nd one pass", nd_docs::<10>(rosen, x)),
                    12 => ("nd one pass", nd_docs::<12>(rosen, x)),
                    20 => ("nd one pass", nd_docs::<20>(rosen, x)),
                    _ => ("nd one pass", nd_docs::<24>(rosen, x)),
                },
            ];
            // The one-shot `gradient` at a slice (settled first: above 16 inputs it times
            // its plans on its first calls).
            let one_shot = move || {
                read_gradient(if rosen {
                    fwdad::gradient(optim::rosenbrock {}, black_box(x))
                } else {
                    fwdad::gradient(optim::ackley {}, black_box(x))
                })
            };
            for _ in 0..8 * fwdad::drivers::GradientPlan::CANDIDATES.len() {
                one_shot();
                let settled = if rosen {
                    fwdad::drivers::gradient_plan_chosen(&optim::rosenbrock {}, n)
                } else {
                    fwdad::drivers::gradient_plan_chosen(&optim::ackley {}, n)
                };
                if settled.is_some() {
                    break;
                }
            }
            vs.push(("one-shot", Box::new(one_shot)));
            let mut ws = GradientWorkspace::new();
            vs.push((
                "workspace",
                Box::new(move || {
                    if rosen {
                        ws.gradient(optim::rosenbrock {}, black_box(x)).1[0]
                    } else {
                        ws.gradient(optim::ackley {}, black_box(x)).1[0]
                    }
                }),
            ));
            if n <= 12 {
                vs.push(("Batch 10", jws!(10, rosen, x)));
                vs.push(("Batch 12", jws!(12, rosen, x)));
                vs.push(("Batch 16", jws!(16, rosen, x)));
            } else {
                vs.push(("Batch 24", jws!(24, rosen, x)));
                vs.push(("Batch 32", jws!(32, rosen, x)));
                vs.push(("Batch 16", jws!(16, rosen, x)));
                vs.push(("Batch 12", jws!(12, rosen, x)));
                vs.push(("Batch 20", jws!(20, rosen, x)));
                for w in [8, 16, 32] {
                    let mut ws = GradientWorkspace::new();
                    let plan = fwdad::drivers::GradientPlan::known_zeros(w);
                    vs.push((
                        ["MaybeZero 8", "MaybeZero 16", "MaybeZero 32"][w / 16],
                        Box::new(move || {
                            if rosen {
                                ws.gradient_with_plan(optim::rosenbrock {}, black_box(x), plan)
                                    .1[0]
                            } else {
                                ws.gradient_with_plan(optim::ackley {}, black_box(x), plan)
                                    .1[0]
                            }
                        }),
                    ));
                }
            }
            let s = cputime::measure_samples_cpu(plan, &mut vs);
            let best = (0..4)
                .min_by(|&a, &b| median(&s[a]).total_cmp(&median(&s[b])))
                .unwrap();
            let chosen = if rosen {
                fwdad::drivers::gradient_plan_chosen(&optim::rosenbrock {}, n)
            } else {
                fwdad::drivers::gradient_plan_chosen(&optim::ackley {}, n)
            };
            println!(
                "{} n = {n}: best num-dual chunk {} {:.1} ns (one-shot's plan {chosen:?})",
                if rosen { "Rosenbrock" } else { "Ackley" },
                vs[best].0,
                median(&s[best])
            );
            for k in 4..vs.len() {
                let r = RatioStat::of(&s[k], &s[best]);
                println!(
                    "  {:<10} {:>8.1} ns  ÷ num-dual {:.3} ± {:.1} %",
                    vs[k].0,
                    median(&s[k]),
                    r.median,
                    100.0 * r.spread
                );
            }
        }
    }
}

/// For `perf record`: a GMM gradient for three seconds, by
/// `GMM_PROBE=one-shot|nd16|nd8|b8|b16|b32|mz8|mz16|mz32` (the one-shot settled first;
/// `bN`/`mzN` are `GradientWorkspace`'s `Batch`/`MaybeZero` plans of `N` lanes), on
/// d=10 K=5 or the ADBench file named by `GMM_FILE`.
fn gmm_probe(which: &str) {
    use fwdad::drivers::{bind, GradientPlan, Inactive, Wrt};
    use fwdad_bench::gmm;
    let inst = std::env::var("GMM_FILE")
        .ok()
        .and_then(|f| gmm::Instance::load(&f))
        .or_else(|| gmm::Instance::load("gmm_d10_K5.txt"))
        .unwrap_or_else(|| gmm::Instance::generate(10, 5, 1000, 5));
    for _ in 0..20 {
        black_box(gmm::gradient_rule(&inst));
    }
    let plan = match which {
        "b8" => Some(GradientPlan::dense(8)),
        "b16" => Some(GradientPlan::dense(16)),
        "b32" => Some(GradientPlan::dense(32)),
        "b20" => Some(GradientPlan::dense(20)),
        "mz8" => Some(GradientPlan::known_zeros(8)),
        "mz16" => Some(GradientPlan::known_zeros(16)),
        "mz32" => Some(GradientPlan::known_zeros(32)),
        _ => None,
    };
    let mut ws = GradientWorkspace::new();
    let mut w8 = optim::nd_inputs::<8>(&inst.theta);
    let mut w16 = optim::nd_inputs::<16>(&inst.theta);
    let mut g = vec![0.0; inst.nparams()];
    let start = std::time::Instant::now();
    let mut calls = 0;
    while start.elapsed().as_secs_f64() < 3.0 {
        black_box(match (which, plan) {
            (_, Some(plan)) => {
                let rule = bind(
                    gmm::gmm_objective {},
                    (
                        Wrt,
                        Inactive(&inst.x[..]),
                        inst.d,
                        inst.k,
                        inst.gamma,
                        inst.m,
                    ),
                );
                ws.gradient_with_plan(rule, black_box(&inst.theta), plan).1[0]
            }
            ("nd16", _) => gmm::gradient_nd(&inst, &mut w16, &mut g),
            ("nd8", _) => gmm::gradient_nd(&inst, &mut w8, &mut g),
            _ => read_gradient(gmm::gradient_rule(black_box(&inst))),
        });
        calls += 1;
    }
    println!(
        "{which}: {:.2} ms per gradient ({calls} calls)",
        start.elapsed().as_secs_f64() * 1e3 / calls as f64
    );
}

/// `GMM_PLANS=1` (d=10 K=5) or `GMM_PLANS=gmm_d2_K10.txt`: a GMM gradient by each of
/// `GradientWorkspace`'s plans (and `Batch` 20 and 12, which divide 60 parameters into
/// passes without padding lanes) against num-dual in chunks of 8 and 16, in rounds of one
/// call each (the thread's CPU clock), ratios to the faster num-dual chunk width.
fn gmm_plans(file: &str) {
    use fwdad::drivers::{bind, GradientPlan, Inactive, Wrt};
    use fwdad_bench::gmm;
    let file = if file == "1" { "gmm_d10_K5.txt" } else { file };
    let inst = gmm::Instance::load(file).expect("a file of ../shared/data/gmm/1k");
    let inst = &inst;
    let np = inst.nparams();
    let (mut g8, mut g16) = (vec![0.0; np], vec![0.0; np]);
    let mut w8 = optim::nd_inputs::<8>(&inst.theta);
    let mut w16 = optim::nd_inputs::<16>(&inst.theta);
    let mut vs: Vec<Variant> = vec![
        (
            "nd 8",
            Box::new(move || gmm::gradient_nd(inst, &mut w8, &mut g8)),
        ),
        (
            "nd 16",
            Box::new(move || gmm::gradient_nd(inst, &mut w16, &mut g16)),
        ),
    ];
    let plans = [
        ("Batch 8", GradientPlan::dense(8)),
        ("Batch 16", GradientPlan::dense(16)),
        ("Batch 32", GradientPlan::dense(32)),
        ("Batch 20", GradientPlan::dense(20)),
        ("Batch 12", GradientPlan::dense(12)),
        ("MaybeZero 8", GradientPlan::known_zeros(8)),
        ("MaybeZero 16", GradientPlan::known_zeros(16)),
        ("MaybeZero 32", GradientPlan::known_zeros(32)),
    ];
    for (name, plan) in plans {
        let mut ws = GradientWorkspace::new();
        vs.push((
            name,
            Box::new(move || {
                let rule = bind(
                    gmm::gmm_objective {},
                    (
                        Wrt,
                        Inactive(&inst.x[..]),
                        inst.d,
                        inst.k,
                        inst.gamma,
                        inst.m,
                    ),
                );
                ws.gradient_with_plan(rule, black_box(&inst.theta), plan).1[0]
            }),
        ));
    }
    let plan = Plan {
        sample: std::time::Duration::from_millis(20),
        samples: 21,
    };
    let s = cputime::measure_samples_cpu(plan, &mut vs);
    let best = (0..2)
        .min_by(|&a, &b| median(&s[a]).total_cmp(&median(&s[b])))
        .unwrap();
    println!(
        "GMM {file}: best num-dual {} {:.2} ms",
        vs[best].0,
        median(&s[best]) / 1e6
    );
    for k in 0..vs.len() {
        let r = RatioStat::of(&s[k], &s[best]);
        println!(
            "  {:<12} {:>8.2} ms  ÷ num-dual {:.3} ± {:.1} %",
            vs[k].0,
            median(&s[k]) / 1e6,
            r.median,
            100.0 * r.spread
        );
    }
}

/// For `perf record`: Rosenbrock's one-shot gradient at a slice of `n` inputs and the
/// workspace's, each for two seconds (`ROSENBROCK_PROBE=n`).
fn rosenbrock_probe(n: usize) {
    let x = optim::point(n);
    let mut ws = GradientWorkspace::new();
    for (name, run) in [
        (
            "one-shot",
            &mut (|| read_gradient(fwdad::gradient(optim::rosenbrock {}, black_box(&x[..]))))
                as &mut dyn FnMut() -> f64,
        ),
        ("workspace", &mut || {
            ws.gradient(optim::rosenbrock {}, black_box(&x[..])).1[0]
        }),
    ] {
        let start = std::time::Instant::now();
        let mut calls = 0u64;
        while start.elapsed().as_secs_f64() < 2.0 {
            for _ in 0..1000 {
                black_box(run());
            }
            calls += 1000;
        }
        println!(
            "{name}: {:.1} ns per gradient",
            start.elapsed().as_secs_f64() * 1e9 / calls as f64
        );
    }
}

/// `GMM_CHOICE=gmm_d2_K10.txt` (`GMM_CHOICE_RUNS=k`, 10 by default): the plan a fresh
/// `GradientWorkspace` chooses on its first call, `k` times in one process, with the first
/// call's time (the race); then each plan's steady-state time (rounds of one call, the
/// thread's CPU clock, plans interleaved), to tell whether the choices were right here.
fn gmm_choice(file: &str) {
    use fwdad::drivers::{bind, GradientPlan, Inactive, Wrt};
    use fwdad_bench::gmm;
    let inst = gmm::Instance::load(file).expect("a file of ../shared/data/gmm/1k");
    let inst = &inst;
    let np = inst.nparams();
    let runs: usize = std::env::var("GMM_CHOICE_RUNS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(10);
    let rule = || {
        bind(
            gmm::gmm_objective {},
            (
                Wrt,
                Inactive(&inst.x[..]),
                inst.d,
                inst.k,
                inst.gamma,
                inst.m,
            ),
        )
    };
    let mut tally: Vec<(GradientPlan, usize)> = Vec::new();
    for _ in 0..runs {
        let mut ws = GradientWorkspace::new();
        let start = cputime::thread_ns();
        black_box(ws.gradient(rule(), &inst.theta).1[0]);
        let took = (cputime::thread_ns() - start) * 1e-9;
        let plan = ws.plan(np).expect("measured");
        println!("  chose {plan:?} in {:.1} ms (CPU)", took * 1e3);
        match tally.iter_mut().find(|t| t.0 == plan) {
            Some(t) => t.1 += 1,
            None => tally.push((plan, 1)),
        }
    }
    println!("GMM {file}: choices over {runs} fresh workspaces: {tally:?}");
    let mut vs: Vec<Variant> = Vec::new();
    for plan in GradientPlan::candidates(np) {
        let mut ws = GradientWorkspace::new();
        vs.push((
            "plan",
            Box::new(move || {
                ws.gradient_with_plan(rule(), black_box(&inst.theta), plan)
                    .1[0]
            }),
        ));
    }
    let s = cputime::measure_samples_cpu(
        Plan {
            sample: std::time::Duration::from_micros(200),
            samples: 15,
        },
        &mut vs,
    );
    let best = (0..vs.len())
        .min_by(|&a, &b| median(&s[a]).total_cmp(&median(&s[b])))
        .unwrap();
    for (k, plan) in GradientPlan::candidates(np).iter().enumerate() {
        let r = RatioStat::of(&s[k], &s[best]);
        println!(
            "  {plan:?}: {:.3} ms, ÷ fastest {:.3} ± {:.1} %",
            median(&s[k]) / 1e6,
            r.median,
            100.0 * r.spread
        );
    }
}

fn main() {
    if let Ok(file) = std::env::var("GMM_CHOICE") {
        gmm_choice(&file);
        return;
    }
    if let Ok(file) = std::env::var("GMM_PLANS") {
        gmm_plans(&file);
        return;
    }
    if let Ok(which) = std::env::var("GMM_PROBE") {
        gmm_probe(&which);
        return;
    }
    if let Some(n) = std::env::var("ROSENBROCK_PROBE")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        rosenbrock_probe(n);
        return;
    }
    let plan = Plan {
        sample: std::time::Duration::from_micros(200),
        samples: 101,
    };
    if std::env::args().any(|a| a == "--widths") {
        widths(plan);
        return;
    }
    let n = 10;
    for rosen in [false, true] {
        let x = optim::point(n);
        let x = &x[..];
        let v = SVector::<f64, 10>::from_column_slice(x);
        let xa: [f64; 10] = x.try_into().expect("10 inputs");
        let mut ws = GradientWorkspace::new();
        let mut vs: Vec<Variant> = vec![
            (
                "num-dual gradient",
                Box::new(move || {
                    let r = num_dual::gradient(
                        |v: SVector<DualSVec64<10>, 10>| {
                            if rosen {
                                optim::rosenbrock_nd(v.as_slice())
                            } else {
                                optim::ackley_nd(v.as_slice())
                            }
                        },
                        black_box(&v),
                    );
                    r.0 + black_box(r.1)[0]
                }),
            ),
            ("rule, 10 lanes", raw::<10>(rosen, x)),
            ("rule, 12 lanes", raw::<12>(rosen, x)),
            ("rule Fused AVX2", raw_fused::<10>(rosen, x)),
            ("rule 12 + copy", raw_copy::<12>(rosen, x)),
            ("JacobianWs<12>", {
                let mut jw = fwdad::drivers::JacobianWorkspace::<12>::new();
                Box::new(move || {
                    if rosen {
                        jw.gradient(optim::rosenbrock {}, black_box(x)).1[0]
                    } else {
                        jw.gradient(optim::ackley {}, black_box(x)).1[0]
                    }
                })
            }),
            (
                "workspace",
                Box::new(move || {
                    if rosen {
                        ws.gradient(optim::rosenbrock {}, black_box(x)).1[0]
                    } else {
                        ws.gradient(optim::ackley {}, black_box(x)).1[0]
                    }
                }),
            ),
            (
                "one-shot",
                Box::new(move || {
                    read_gradient(if rosen {
                        fwdad::gradient(optim::rosenbrock {}, black_box(x))
                    } else {
                        fwdad::gradient(optim::ackley {}, black_box(x))
                    })
                }),
            ),
            (
                "one-shot array",
                Box::new(move || {
                    read_gradient(if rosen {
                        fwdad::gradient(optim::rosenbrock {}, black_box(&xa))
                    } else {
                        fwdad::gradient(optim::ackley {}, black_box(&xa))
                    })
                }),
            ),
        ];
        if let Ok(only) = std::env::var("GRAD_PROBE_ONLY") {
            // For `perf record`: one variant in a loop for two seconds (of one kernel
            // with `GRAD_PROBE_KERNEL=ackley|rosenbrock`).
            let kernel = std::env::var("GRAD_PROBE_KERNEL").unwrap_or_default();
            if kernel == if rosen { "ackley" } else { "rosenbrock" } {
                continue;
            }
            if let Some(v) = vs.iter_mut().find(|v| v.0 == only) {
                let mut acc = 0.0;
                // `GRAD_PROBE_CALLS=k`: k calls exactly (for `valgrind --tool=callgrind`,
                // instructions per call), else two seconds.
                if let Some(k) = std::env::var("GRAD_PROBE_CALLS")
                    .ok()
                    .and_then(|k| k.parse::<u64>().ok())
                {
                    for _ in 0..k {
                        acc += (v.1)();
                    }
                    black_box(acc);
                    continue;
                }
                let start = std::time::Instant::now();
                while start.elapsed().as_secs_f64() < 2.0 {
                    for _ in 0..1000 {
                        acc += (v.1)();
                    }
                }
                black_box(acc);
            }
            continue;
        }
        let s = cputime::measure_samples_cpu(plan, &mut vs);
        println!(
            "{} n = {n}: num-dual {:.1} ns",
            if rosen { "Rosenbrock" } else { "Ackley" },
            median(&s[0])
        );
        for k in 1..vs.len() {
            let r = RatioStat::of(&s[k], &s[0]);
            println!(
                "  {:<16} {:>7.1} ns  ÷ num-dual {:.3} ± {:.1} %",
                vs[k].0,
                median(&s[k]),
                r.median,
                100.0 * r.spread
            );
        }
    }
}
