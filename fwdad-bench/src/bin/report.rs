//! Runs the benchmark suite and writes `BENCHMARKS.md` and `docs/benchmarks.svg`.
//!
//! ```text
//! cargo run --release -p fwdad-bench --bin report [-- OPTIONS]
//!   --quick          fewer samples, smallest GMM files only (a smoke run)
//!   --compile-time   also time building 100 annotated functions vs the same unannotated
//!   --no-write       print only
//!   --only SECTION   run one section: issue30, userops, one, grad, ba, hand, gmm, widths or small;
//!                    issue30grad: the issue 30 gradients alone (printed, never written)
//!                    widths: the widths of jacobian, hessian, hvp and the sparse
//!                    Jacobian (printed, never written)
//!                    small: the drivers at fixed sizes (`jacobian_array`, ..) against
//!                    num-dual (printed, never written)
//! ```
//!
//! `--only userops` writes only its own section of `BENCHMARKS.md` (between
//! `<!-- user-operators:begin -->` and `:end`); other `--only` runs rewrite the file with
//! the sections they ran.
//!
//! Every variant of a kernel is timed in the same process, in turn (see
//! `fwdad_bench::timing`); ratios are of minima over the samples.

use fwdad::drivers::{gradient_width, GradientWorkspace, JacobianWorkspace};
use fwdad::prelude::*;
use fwdad_bench::optim::{self, W};
use fwdad_bench::report::{self, Report, Row};
use fwdad_bench::timing::{measure, Plan, Variant};
use fwdad_bench::{ba, fd, gmm, hand, hand_dense, rng::Rng, simple};
use num_dual::{Dual64, DualSVec64};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let write = !args.iter().any(|a| a == "--no-write");
    let compile = args.iter().any(|a| a == "--compile-time");
    // `--only one|grad|ba|gmm`: one section (for profiling).
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1).cloned());
    let run = |s: &str| only.as_deref().is_none_or(|o| o == s);
    let plan = if quick {
        Plan {
            samples: 5,
            ..Plan::standard()
        }
    } else {
        Plan::standard()
    };
    let started = Instant::now();
    let mut rep = Report::new(report::machine());

    // `--only small`: the drivers at fixed sizes against num-dual (printed, not written).
    if only.as_deref() == Some("small") {
        println!("{}", fwdad_bench::small_drivers::report(quick));
        return;
    }
    // `--only widths`: the drivers' widths (printed, not written).
    if only.as_deref() == Some("widths") {
        println!("{}", fwdad_bench::width_drivers::report(quick));
        return;
    }
    // `--only issue30grad`: the issue 30 section's gradients alone (printed, not written).
    let grad_only = only.as_deref() == Some("issue30grad");
    if run("issue30") || grad_only {
        use fwdad_bench::expert_report as e30;
        let (p1, p2) = if quick {
            (plan, plan)
        } else {
            (e30::plan_one(), e30::plan_grad())
        };
        let one = if grad_only {
            Vec::new()
        } else {
            e30::one_direction(p1)
        };
        let grad = e30::gradients(p2);
        let gmm = e30::gmm_gradients(p2);
        let section = fwdad_bench::expert_report::markdown(&one, &grad, &gmm);
        if grad_only {
            println!("{section}");
            return;
        }
        rep.issue30 = Some(section);
    }
    let mut user_ops = None;
    if run("userops") {
        use fwdad_bench::user_ops_report as uo;
        let p = if quick {
            plan
        } else {
            fwdad_bench::expert_report::plan_one()
        };
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        let load = format!(
            "Measured at `{}` on {} (load average {} at the start).",
            report::machine().commit,
            report::machine().date,
            load.split_whitespace().next().unwrap_or("?")
        );
        user_ops = Some(uo::markdown(&uo::measure(p), p, &load));
    }
    if run("one") {
        one_direction(plan, &mut rep);
    }
    if run("grad") {
        gradients(plan, &mut rep);
    }
    if run("ba") {
        bundle_adjustment(plan, quick, &mut rep);
    }
    if run("hand") {
        hand_suite(plan, quick, &mut rep);
    }
    if run("gmm") {
        gmm_suite(plan, quick, &mut rep);
    }
    if compile {
        rep.compile = Some(report::compile_time());
    }
    rep.elapsed = started.elapsed();

    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if only.as_deref() == Some("userops") {
        let section = user_ops.expect("measured");
        println!("{section}");
        if write {
            let old = std::fs::read_to_string(root.join("BENCHMARKS.md")).expect("BENCHMARKS.md");
            let new = splice_section(&old, fwdad_bench::user_ops_report::SECTION, &section);
            std::fs::write(root.join("BENCHMARKS.md"), new).expect("write BENCHMARKS.md");
            eprintln!("wrote its section of BENCHMARKS.md");
        }
        return;
    }
    let md = rep.markdown();
    println!("{md}");
    if let Some(section) = &user_ops {
        println!("{section}");
    }
    if write {
        // Sections other report binaries own (`<!-- name:begin -->` .. `<!-- name:end -->`,
        // e.g. `sparse_report`'s) are kept as they are.
        let old = std::fs::read_to_string(root.join("BENCHMARKS.md")).unwrap_or_default();
        let mut md = format!("{md}{}", kept_sections(&old));
        if let Some(section) = &user_ops {
            md = splice_section(&md, fwdad_bench::user_ops_report::SECTION, section);
        }
        std::fs::write(root.join("BENCHMARKS.md"), &md).expect("write BENCHMARKS.md");
        std::fs::create_dir_all(root.join("docs")).expect("docs/");
        report::chart(&rep, &root.join("docs/benchmarks.svg")).expect("write the chart");
        eprintln!("wrote BENCHMARKS.md and docs/benchmarks.svg");
    }
}

/// Times the variants and returns the minimum time of each, by name.
fn timed(plan: Plan, vs: &mut [Variant]) -> std::collections::HashMap<String, f64> {
    let names: Vec<String> = vs.iter().map(|v| v.0.to_string()).collect();
    let stats = measure(plan, vs);
    names
        .into_iter()
        .zip(stats)
        .map(|(n, s)| (n, s.min))
        .collect()
}

/// Slice sum, Σ sin (loop and iterator chain), matvec, Kronecker form: one direction (and
/// 8 directions where noted), every input perturbed.
fn one_direction(plan: Plan, rep: &mut Report) {
    type B8 = Batch<f64, 8>;
    let mut r = Rng::new(11);

    // Slice sum and Σ sin: (name, primal, rule, hand, num-dual, num-dual batched, rule batched)
    type Scalar1 = fn(&[f64]) -> f64;
    type Hand1 = fn(&[f64], &[f64]) -> (f64, f64);
    type Nd1 = fn(&[Dual64]) -> Dual64;
    type Nd8 = fn(&[DualSVec64<8>]) -> DualSVec64<8>;
    type Rule1 = fn(&[f64], &[f64]) -> f64;
    type Rule8 = fn(&[f64], &[B8]) -> f64;
    let x = r.vec(simple::N_SUM, -2.0, 2.0);
    let dx = r.vec(simple::N_SUM, -1.0, 1.0);
    let dx8: Vec<B8> = (0..x.len())
        .map(|_| Batch(std::array::from_fn(|_| r.uniform(-1.0, 1.0))))
        .collect();
    let xd = simple::duals(&x, &dx);
    let xd8: Vec<DualSVec64<8>> = x
        .iter()
        .zip(&dx8)
        .map(|(&v, d)| DualSVec64::new(v, num_dual::Derivative::some(nalgebra::SVector::from(d.0))))
        .collect();
    // One row per kernel: its primal, the rule in one direction (`_frule`) and in eight
    // (through the marker), the hand-written JVP, and num-dual in one and eight lanes.
    macro_rules! case {
        ($name:expr, $f:ident, $frule:ident, $hand:ident, $nd:ident) => {
            (
                $name,
                simple::$f as Scalar1,
                (|x, dx| {
                    let r = simple::$frule(Dual::new(x, dx));
                    r.primal + r.tangent
                }) as Rule1,
                simple::$hand as Hand1,
                simple::$nd as Nd1,
                simple::$nd as Nd8,
                (|x, dx| {
                    let r =
                        <simple::$f as Frule<_, B8>>::frule(&simple::$f {}, (Dual::new(x, dx),));
                    // Every lane read: one lane would let LLVM drop the other seven.
                    r.primal + r.tangent.0.iter().sum::<f64>()
                }) as Rule8,
            )
        };
    }
    let cases: [(&str, Scalar1, Rule1, Hand1, Nd1, Nd8, Rule8); 4] = [
        case!(
            "slice sum, loop (1000)",
            slice_sum,
            slice_sum_frule,
            slice_sum_hand,
            slice_sum_nd
        ),
        case!(
            "slice sum, iter().sum() (1000)",
            slice_sum_iter,
            slice_sum_iter_frule,
            slice_sum_hand,
            slice_sum_nd_iter
        ),
        case!(
            "Σ sin, loop (1000)",
            sum_sin,
            sum_sin_frule,
            sum_sin_hand,
            sum_sin_nd
        ),
        case!(
            "Σ sin, iter().map().sum() (1000)",
            sum_sin_iter,
            sum_sin_iter_frule,
            sum_sin_hand,
            sum_sin_nd_iter
        ),
    ];
    for (name, primal, rule, hand, nd, nd8, rule8) in cases {
        let mut buf = vec![0.0; x.len()];
        let mut vs: Vec<Variant> = vec![
            ("primal", Box::new(|| primal(black_box(&x)))),
            ("rule", Box::new(|| rule(black_box(&x), &dx))),
            (
                "hand",
                Box::new(|| {
                    let (v, d) = hand(black_box(&x), &dx);
                    v + d
                }),
            ),
            (
                "num-dual",
                Box::new(|| {
                    let r = nd(black_box(&xd));
                    r.re + r.eps
                }),
            ),
            (
                "fd",
                Box::new(|| fd::jvp(primal, black_box(&x), &dx, &mut buf)),
            ),
            ("rule x8", Box::new(|| rule8(black_box(&x), &dx8))),
            (
                "num-dual x8",
                Box::new(|| {
                    nd8(black_box(&xd8))
                        .eps
                        .unwrap_generic(nalgebra::Const::<8>, nalgebra::U1)
                        .sum()
                }),
            ),
        ];
        let s = timed(plan, &mut vs);
        let t = |n: &str| s[n];
        rep.one_dir.push(Row::one_dir(
            name,
            t("primal"),
            t("rule"),
            Some(t("hand")),
            Some(t("num-dual")),
            Some(t("fd")),
            Some((t("rule x8"), t("num-dual x8"))),
            target_for(name),
        ));
    }

    // Matrix-vector product 8×8 (A and x perturbed).
    {
        let n = simple::N_MATVEC;
        let (a, da) = (r.vec(n * n, -1.0, 1.0), r.vec(n * n, -1.0, 1.0));
        let (xv, dxv) = (r.vec(n, -1.0, 1.0), r.vec(n, -1.0, 1.0));
        let (ad, xdd) = (simple::duals(&a, &da), simple::duals(&xv, &dxv));
        let mut y = vec![0.0; n];
        let (mut ry, mut rdy) = (vec![0.0; n], vec![0.0; n]);
        let (mut hy, mut hdy) = (vec![0.0; n], vec![0.0; n]);
        let mut ny = vec![Dual64::from(0.0); n];
        let mut flat = [a.clone(), xv.clone()].concat();
        let dflat = [da.clone(), dxv.clone()].concat();
        let mut fbuf = vec![0.0; flat.len()];
        let mut fy = vec![0.0; n];
        let mut vs: Vec<Variant> = vec![
            (
                "primal",
                Box::new(|| {
                    simple::matvec(black_box(&a), &xv, &mut y);
                    y[0]
                }),
            ),
            (
                "rule",
                Box::new(|| {
                    simple::matvec_frule(
                        Dual::new(black_box(&a[..]), &da[..]),
                        Dual::new(&xv[..], &dxv[..]),
                        Dual::new(&mut ry[..], &mut rdy[..]),
                    );
                    ry[0] + rdy[0]
                }),
            ),
            (
                "hand",
                Box::new(|| {
                    simple::matvec_hand(black_box(&a), &da, &xv, &dxv, &mut hy, &mut hdy);
                    hy[0] + hdy[0]
                }),
            ),
            (
                "num-dual",
                Box::new(|| {
                    simple::matvec_nd(black_box(&ad), &xdd, &mut ny);
                    ny[0].re + ny[0].eps
                }),
            ),
            (
                "fd",
                // Central differences of the vector function along (dA, dx): 2 products.
                Box::new(|| {
                    let h = fd::step(&flat);
                    for ((b, v), d) in fbuf.iter_mut().zip(&flat).zip(&dflat) {
                        *b = v + h * d;
                    }
                    simple::matvec(&fbuf[..n * n], &fbuf[n * n..], &mut fy);
                    let p = fy[0];
                    for ((b, v), d) in fbuf.iter_mut().zip(&flat).zip(&dflat) {
                        *b = v - h * d;
                    }
                    simple::matvec(&fbuf[..n * n], &fbuf[n * n..], &mut fy);
                    flat[0] = black_box(flat[0]);
                    (p - fy[0]) / (2.0 * h)
                }),
            ),
        ];
        let s = timed(plan, &mut vs);
        let t = |n: &str| s[n];
        rep.one_dir.push(Row::one_dir(
            "matvec 8×8",
            t("primal"),
            t("rule"),
            Some(t("hand")),
            Some(t("num-dual")),
            Some(t("fd")),
            None,
            Some(3.5),
        ));
    }

    // Kronecker-style quadratic form, n = 5 (625 terms).
    {
        let n = simple::N_KRON;
        let (a, da) = (r.vec(n * n, -1.0, 1.0), r.vec(n * n, -1.0, 1.0));
        let (b, db) = (r.vec(n * n, -1.0, 1.0), r.vec(n * n, -1.0, 1.0));
        let (xv, dxv) = (r.vec(n * n, -1.0, 1.0), r.vec(n * n, -1.0, 1.0));
        let (ad, bd, xdd) = (
            simple::duals(&a, &da),
            simple::duals(&b, &db),
            simple::duals(&xv, &dxv),
        );
        let flat = [a.clone(), b.clone(), xv.clone()].concat();
        let dflat = [da.clone(), db.clone(), dxv.clone()].concat();
        let mut fbuf = vec![0.0; flat.len()];
        let m = n * n;
        let mut vs: Vec<Variant> = vec![
            (
                "primal",
                Box::new(|| simple::kron_quad(black_box(&a), &b, &xv, n)),
            ),
            (
                "rule",
                Box::new(|| {
                    let r = simple::kron_quad_frule(
                        Dual::new(black_box(&a[..]), &da[..]),
                        Dual::new(&b[..], &db[..]),
                        Dual::new(&xv[..], &dxv[..]),
                        Dual::constant(n),
                    );
                    r.primal + r.tangent
                }),
            ),
            (
                "hand",
                Box::new(|| {
                    let (v, d) = simple::kron_quad_hand(black_box(&a), &da, &b, &db, &xv, &dxv, n);
                    v + d
                }),
            ),
            (
                "num-dual",
                Box::new(|| {
                    let r = simple::kron_quad_nd(black_box(&ad), &bd, &xdd, n);
                    r.re + r.eps
                }),
            ),
            (
                "fd",
                Box::new(|| {
                    fd::jvp(
                        |q| simple::kron_quad(&q[..m], &q[m..2 * m], &q[2 * m..], n),
                        black_box(&flat),
                        &dflat,
                        &mut fbuf,
                    )
                }),
            ),
        ];
        let s = timed(plan, &mut vs);
        let t = |n: &str| s[n];
        rep.one_dir.push(Row::one_dir(
            "Kronecker form xᵀ(A⊗B)x, n = 5",
            t("primal"),
            t("rule"),
            Some(t("hand")),
            Some(t("num-dual")),
            Some(t("fd")),
            None,
            Some(3.5),
        ));
    }
}

fn target_for(name: &str) -> Option<f64> {
    if name.starts_with("slice sum") {
        Some(1.1)
    } else if name.starts_with("Σ sin") {
        Some(1.5)
    } else {
        None
    }
}

/// Rosenbrock and Ackley gradients for n = 10, 100, 1000.
fn gradients(plan: Plan, rep: &mut Report) {
    type F = fn(&[f64]) -> f64;
    type G = fn(&[f64], &mut [f64]) -> f64;
    type J = fn(&[f64], &[[f64; W]]) -> (f64, [f64; W]);
    type N = fn(&[DualSVec64<W>]) -> DualSVec64<W>;
    // The rule's gradient through a `JacobianWorkspace` (width 8) and a `GradientWorkspace`
    // (`gradient`'s width), whose buffers persist between calls as the hand-written JVP's
    // `seeds` do.
    type R = fn(&mut JacobianWorkspace<W>, &[f64]) -> f64;
    type D = for<'w, 'x> fn(&'w mut GradientWorkspace, &'x [f64]) -> (f64, &'w [f64]);
    let cases: [(&str, F, R, D, J, G, N); 2] = [
        (
            "Rosenbrock",
            optim::rosenbrock,
            |ws, x| {
                let (v, g) = ws.gradient(optim::rosenbrock {}, x);
                v + g[0]
            },
            |ws, x| ws.gradient(optim::rosenbrock {}, x),
            optim::rosenbrock_jvp_hand::<W>,
            optim::rosenbrock_grad_hand,
            optim::rosenbrock_nd::<DualSVec64<W>>,
        ),
        (
            "Ackley",
            optim::ackley,
            |ws, x| {
                let (v, g) = ws.gradient(optim::ackley {}, x);
                v + g[0]
            },
            |ws, x| ws.gradient(optim::ackley {}, x),
            optim::ackley_jvp_hand::<W>,
            optim::ackley_grad_hand,
            optim::ackley_nd::<DualSVec64<W>>,
        ),
    ];
    for (name, f, rule, default, jvp, hand, nd) in cases {
        for n in optim::SIZES {
            let x = optim::point(n);
            let mut wd = GradientWorkspace::new();
            // Checked before timing: the default driver's gradient against the analytic one.
            let mut ga = vec![0.0; n];
            hand(&x, &mut ga);
            fwdad_bench::check::assert_close(name, default(&mut wd, &x).1, &ga);
            let mut seeds = vec![[0.0; W]; n];
            let mut g1 = vec![0.0; n];
            let mut g2 = vec![0.0; n];
            let mut g3 = vec![0.0; n];
            let mut g4 = vec![0.0; n];
            let mut buf = vec![0.0; n];
            let mut xd = optim::nd_inputs::<W>(&x);
            let mut ws = JacobianWorkspace::new();
            let mut vs: Vec<Variant> = vec![
                ("primal", Box::new(|| f(black_box(&x)))),
                ("rule", Box::new(|| rule(&mut ws, black_box(&x)))),
                (
                    "rule default",
                    Box::new(|| {
                        let (v, g) = default(&mut wd, black_box(&x));
                        v + g[0]
                    }),
                ),
                (
                    "hand jvp",
                    Box::new(|| optim::chunked_gradient(jvp, black_box(&x), &mut seeds, &mut g1)),
                ),
                ("analytic", Box::new(|| hand(black_box(&x), &mut g2))),
                (
                    "num-dual",
                    Box::new(|| optim::nd_gradient(nd, black_box(&mut xd), &mut g3)),
                ),
                (
                    "fd",
                    Box::new(|| {
                        fd::gradient(f, black_box(&x), &mut buf, &mut g4);
                        g4[0]
                    }),
                ),
            ];
            let s = timed(plan, &mut vs);
            let t = |k: &str| s[k];
            rep.grads.push(report::GradRow {
                name: format!("{name}, n = {n}"),
                primal: t("primal"),
                rule: t("rule"),
                rule_default: t("rule default"),
                width: gradient_width(n),
                hand_jvp: t("hand jvp"),
                analytic: t("analytic"),
                nd: t("num-dual"),
                fd: t("fd"),
            });
        }
    }
}

/// ADBench BA: the sparse Jacobian of a whole instance ÷ the objective.
fn bundle_adjustment(plan: Plan, quick: bool, rep: &mut Report) {
    let file = "ba1_n49_m7776_p31843.txt";
    let (inst, source) = match ba::Instance::load(file) {
        Some(i) if !quick => (i, format!("`ba/{file}`")),
        _ => (
            ba::Instance::generate(49, 7776, if quick { 2000 } else { 31843 }, 1),
            "generated (49 cameras, 7776 points)".to_string(),
        ),
    };
    let seeds = ba::Seeds::default();
    let mut out = vec![0.0; 3 * inst.p];
    let mut csr = [
        ba::Csr::default(),
        ba::Csr::default(),
        ba::Csr::default(),
        ba::Csr::default(),
        ba::Csr::default(),
        ba::Csr::default(),
    ];
    // Check the assembled Jacobians against the hand-derived one before timing.
    {
        let mut want = ba::Csr::default();
        ba::jacobian_with(&inst, &mut want, ba::block_hand);
        let mut got = ba::Csr::default();
        ba::jacobian_with(&inst, &mut got, |s, i| ba::block_rule(s, i, &seeds));
        fwdad_bench::check::assert_close("BA rule", &got.vals, &want.vals);
        ba::jacobian_with(&inst, &mut got, ba::block_nd);
        fwdad_bench::check::assert_close("BA num-dual", &got.vals, &want.vals);
        let mut sub = inst.clone();
        sub.p = sub.p.min(500);
        ba::jacobian_with(&sub, &mut got, ba::block_driver);
        let mut want_sub = ba::Csr::default();
        ba::jacobian_with(&sub, &mut want_sub, ba::block_hand);
        fwdad_bench::check::assert_close("BA driver", &got.vals, &want_sub.vals);
        let mut ws = fwdad::drivers::JacobianWorkspace::new();
        ba::jacobian_with(&inst, &mut got, |s, i| ba::block_workspace(s, i, &mut ws));
        fwdad_bench::check::assert_close("BA workspace", &got.vals, &want.vals);
    }
    let [c0, c1, c2, c3, c4, c5] = &mut csr;
    // A timed variant: the whole sparse Jacobian assembled from `block`, into `csr`.
    macro_rules! ba_case {
        ($name:expr, $csr:ident, $block:expr) => {
            (
                $name,
                Box::new(|| {
                    ba::jacobian_with(black_box(&inst), $csr, $block);
                    $csr.vals[0]
                }),
            )
        };
    }
    let mut ws = fwdad::drivers::JacobianWorkspace::new();
    let mut vs: Vec<Variant> = vec![
        (
            "objective",
            Box::new(|| {
                ba::objective(black_box(&inst), &mut out);
                out[0]
            }),
        ),
        ba_case!("rule", c0, |s, i| ba::block_rule(s, i, &seeds)),
        ba_case!("driver", c1, ba::block_driver),
        ba_case!("workspace", c5, |s, i| ba::block_workspace(s, i, &mut ws)),
        ba_case!("hand", c2, ba::block_hand),
        ba_case!("num-dual", c3, ba::block_nd),
        ba_case!("fd", c4, ba::block_fd),
    ];
    let plan = Plan {
        sample: std::time::Duration::ZERO,
        samples: if quick { 3 } else { plan.samples.min(11) },
    };
    let s = timed(plan, &mut vs);
    let t = |k: &str| s[k];
    rep.ba = Some(report::BaRow {
        source,
        p: inst.p,
        objective: t("objective"),
        rule: t("rule"),
        driver: t("driver"),
        workspace: t("workspace"),
        hand: t("hand"),
        nd: t("num-dual"),
        fd: t("fd"),
    });
}

/// ADBench GMM: objective, one direction, and the gradient on the `gmm/1k` files.
fn gmm_suite(plan: Plan, quick: bool, rep: &mut Report) {
    let files: &[(&str, usize, usize)] = if quick {
        &[("gmm_d2_K5.txt", 2, 5)]
    } else {
        &[
            ("gmm_d2_K5.txt", 2, 5),
            ("gmm_d2_K10.txt", 2, 10),
            ("gmm_d10_K5.txt", 10, 5),
            ("gmm_d10_K25.txt", 10, 25),
            ("gmm_d20_K10.txt", 20, 10),
        ]
    };
    for &(file, d, k) in files {
        let (inst, source) = match gmm::Instance::load(file) {
            Some(i) => (i, format!("`gmm/1k/{file}`")),
            None => (
                gmm::Instance::generate(d, k, 1000, 5),
                format!("generated d={d} K={k} n=1000"),
            ),
        };
        let np = inst.nparams();
        let mut r = Rng::new(np as u64);
        let dt = r.vec(np, -1.0, 1.0);
        let td: Vec<Dual64> = inst
            .theta
            .iter()
            .zip(&dt)
            .map(|(&a, &b)| Dual64::new(a, b))
            .collect();
        // Checks before timing: the gradients against the hand-derived one.
        let mut gh = vec![0.0; np];
        inst.grad_hand(&mut gh);
        let (_, gr) = gmm::gradient_rule(&inst);
        fwdad_bench::check::assert_close("GMM rule gradient", &gr, &gh);
        let mut work = optim::nd_inputs::<W>(&inst.theta);
        let mut gn = vec![0.0; np];
        gmm::gradient_nd(&inst, &mut work, &mut gn);
        fwdad_bench::check::assert_close("GMM num-dual gradient", &gn, &gh);
        let (_, hd) = gmm::gmm_jvp_hand(
            &inst.theta,
            &dt,
            &inst.x,
            inst.d,
            inst.k,
            inst.gamma,
            inst.m,
        );
        let (_, rd) = gmm::jvp_rule(&inst, &dt);
        fwdad_bench::check::assert_close("GMM rule jvp", &[rd], &[hd]);

        // Objective and one direction.
        let mut vs: Vec<Variant> = vec![
            ("objective", Box::new(|| black_box(&inst).objective())),
            (
                "rule",
                Box::new(|| {
                    let (v, d) = gmm::jvp_rule(black_box(&inst), &dt);
                    v + d
                }),
            ),
            (
                "hand",
                Box::new(|| {
                    let i = black_box(&inst);
                    let (v, d) = gmm::gmm_jvp_hand(&i.theta, &dt, &i.x, i.d, i.k, i.gamma, i.m);
                    v + d
                }),
            ),
            (
                "num-dual",
                Box::new(|| {
                    let (v, d) = gmm::jvp_nd(black_box(&inst), &td);
                    v + d
                }),
            ),
        ];
        let small = Plan {
            samples: plan.samples.min(11),
            ..plan
        };
        let s = timed(small, &mut vs);
        let t = |k: &str| s[k];
        let objective = t("objective");
        rep.one_dir.push(Row::one_dir(
            &format!("GMM d={} K={}, one direction", inst.d, inst.k),
            objective,
            t("rule"),
            Some(t("hand")),
            Some(t("num-dual")),
            None,
            None,
            None,
        ));

        // Gradients: slow (hundreds of passes), a few single-call samples.
        let mut g1 = vec![0.0; np];
        let mut g2 = vec![0.0; np];
        let mut buf = vec![0.0; np];
        let fd_cost = 2.0 * np as f64 * objective;
        let with_fd = fd_cost < 2e9;
        let mut vs: Vec<Variant> = vec![
            (
                "rule",
                Box::new(|| {
                    let (v, g) = gmm::gradient_rule(black_box(&inst));
                    v + g[0]
                }),
            ),
            (
                "hand",
                Box::new(|| {
                    let i = black_box(&inst);
                    gmm::gmm_grad_hand(&i.theta, &i.x, i.d, i.k, i.gamma, i.m, &mut g1)
                }),
            ),
            (
                "num-dual",
                Box::new(|| gmm::gradient_nd(black_box(&inst), &mut work, &mut gn)),
            ),
        ];
        if with_fd {
            vs.push((
                "fd",
                Box::new(|| {
                    let i = black_box(&inst);
                    fd::gradient(
                        |t| gmm::gmm_objective(t, &i.x, i.d, i.k, i.gamma, i.m),
                        &i.theta,
                        &mut buf,
                        &mut g2,
                    );
                    g2[0]
                }),
            ));
        }
        let slow = Plan {
            samples: if quick { 1 } else { 3 },
            ..Plan::slow()
        };
        let s = timed(slow, &mut vs);
        let t = |k: &str| s[k];
        rep.gmm.push(report::GmmRow {
            source,
            d: inst.d,
            k: inst.k,
            params: np,
            objective,
            rule: t("rule"),
            width: gradient_width(np),
            hand: t("hand"),
            nd: t("num-dual"),
            fd: with_fd.then(|| t("fd")),
        });
    }
}

/// ADBench hand tracking: the dense Jacobian (one pass of 26 or 28 lanes) ÷ the objective.
fn hand_suite(plan: Plan, quick: bool, rep: &mut Report) {
    let files: &[&str] = if quick {
        &["hand1_t26_c100.txt"]
    } else {
        &["hand1_t26_c100.txt", "hand4_t26_c400.txt"]
    };
    for variant in ["simple_small", "complicated_small"] {
        let complicated = variant.starts_with("complicated");
        for file in files {
            let (inst, source) = match hand::Instance::load(variant, file) {
                Some(i) => (i, format!("`hand/{variant}/{file}`")),
                None => (
                    hand::Instance::generate(544, 100, complicated, 7),
                    format!("generated ({variant}, 544 vertices, 100 points)"),
                ),
            };
            let rows = inst.nerr();
            let cols = if complicated { 28 } else { 26 };
            let mut err = vec![0.0; rows];
            let mut jr = vec![0.0; rows * cols];
            let mut jn = vec![0.0; rows * cols];
            let mut jf = vec![0.0; rows * cols];
            let (mut t, mut u) = (inst.theta.clone(), inst.us.clone());
            let (mut ep, mut em) = (vec![0.0; rows], vec![0.0; rows]);
            let mut w26 = hand::RuleWork::<26>::new(&inst);
            let mut w28 = hand::RuleWork::<28>::new(&inst);
            let mut d26 = hand_dense::DenseWork::<26>::new(&inst);
            let mut d28 = hand_dense::DenseWork::<28>::new(&inst);
            let mut dense = |j: &mut [f64]| {
                if complicated {
                    hand_dense::jacobian_hand_dense::<28>(&inst, &mut d28, j)
                } else {
                    hand_dense::jacobian_hand_dense::<26>(&inst, &mut d26, j)
                }
            };
            let mut rule = |j: &mut [f64]| {
                if complicated {
                    hand::jacobian_rule::<28>(&inst, &mut w28, j)
                } else {
                    hand::jacobian_rule::<26>(&inst, &mut w26, j)
                }
            };
            let nd = |j: &mut [f64]| {
                if complicated {
                    hand::jacobian_nd::<28>(&inst, j)
                } else {
                    hand::jacobian_nd::<26>(&inst, j)
                }
            };
            // Checks before timing: the derived Jacobian against the hand-derived one,
            // num-dual's and finite differences.
            let mut jh = vec![0.0; rows * cols];
            let mut herr = vec![0.0; rows];
            hand::jacobian_hand(&inst, &mut herr, &mut jh);
            rule(&mut jr);
            nd(&mut jn);
            fwdad_bench::check::assert_close("hand rule vs hand-derived", &jr, &jh);
            fwdad_bench::check::assert_close("hand num-dual vs hand-derived", &jn, &jh);
            let mut jd = vec![0.0; rows * cols];
            dense(&mut jd);
            fwdad_bench::check::assert_close("hand dense vs hand-derived", &jd, &jh);
            hand::jacobian_fd(&inst, &mut t, &mut u, &mut ep, &mut em, &mut jf);
            fwdad_bench::check::assert_close_tol("hand fd", &jf, &jr, fwdad_bench::check::FD_TOL);
            let mut vs: Vec<Variant> = vec![
                (
                    "objective",
                    Box::new(|| {
                        black_box(&inst).objective(&mut err);
                        err[0]
                    }),
                ),
                (
                    "rule",
                    Box::new(|| {
                        rule(black_box(&mut jr));
                        jr[0]
                    }),
                ),
                (
                    "num-dual",
                    Box::new(|| {
                        nd(black_box(&mut jn));
                        jn[0]
                    }),
                ),
                (
                    "hand",
                    Box::new(|| {
                        hand::jacobian_hand(black_box(&inst), &mut herr, &mut jh);
                        jh[0]
                    }),
                ),
                (
                    "dense",
                    Box::new(|| {
                        dense(black_box(&mut jd));
                        jd[0]
                    }),
                ),
                (
                    "fd",
                    Box::new(|| {
                        hand::jacobian_fd(
                            black_box(&inst),
                            &mut t,
                            &mut u,
                            &mut ep,
                            &mut em,
                            &mut jf,
                        );
                        jf[0]
                    }),
                ),
            ];
            let p = Plan {
                samples: plan.samples.min(11),
                ..plan
            };
            let s = timed(p, &mut vs);
            rep.hand.push(report::HandRow {
                source,
                complicated,
                points: inst.corr.len(),
                objective: s["objective"],
                rule: s["rule"],
                nd: s["num-dual"],
                fd: s["fd"],
                hand: s["hand"],
                hand_dense: s["dense"],
            });
        }
    }
}

/// `text` with its `<!-- name:begin -->` .. `<!-- name:end -->` section (markers included)
/// replaced by `section`, or `section` appended when `text` has none.
fn splice_section(text: &str, name: &str, section: &str) -> String {
    let (begin, end) = (
        format!("<!-- {name}:begin -->"),
        format!("<!-- {name}:end -->"),
    );
    match (text.find(&begin), text.find(&end)) {
        (Some(b), Some(e)) if b < e => {
            let after = e + end.len();
            let after = after + usize::from(text[after..].starts_with('\n'));
            format!("{}{}{}", &text[..b], section, &text[after..])
        }
        _ => format!("{}\n{section}", text.trim_end()),
    }
}

/// The `<!-- name:begin -->` .. `<!-- name:end -->` sections of `text`, each with its
/// markers, in order.
fn kept_sections(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<!-- ") {
        let tail = &rest[start..];
        let Some(close) = tail.find(" -->") else {
            break;
        };
        let marker = &tail[5..close];
        let Some(name) = marker.strip_suffix(":begin") else {
            rest = &tail[close..];
            continue;
        };
        let end = format!("<!-- {name}:end -->");
        let Some(stop) = tail.find(&end) else {
            break;
        };
        out.push('\n');
        out.push_str(&tail[..stop + end.len()]);
        out.push('\n');
        rest = &tail[stop + end.len()..];
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_marked_sections_only() {
        let text = "# Bench\nold table\n<!-- sparse:begin -->\n## Sparse\nrows\n<!-- sparse:end -->\ntrailing\n";
        assert_eq!(
            super::kept_sections(text),
            "\n<!-- sparse:begin -->\n## Sparse\nrows\n<!-- sparse:end -->\n"
        );
        assert_eq!(super::kept_sections("no markers"), "");
    }

    #[test]
    fn splices_a_section_in_place_or_at_the_end() {
        let text = "a\n<!-- s:begin -->\nold\n<!-- s:end -->\nb\n";
        let new = "<!-- s:begin -->\nnew\n<!-- s:end -->\n";
        assert_eq!(
            super::splice_section(text, "s", new),
            "a\n<!-- s:begin -->\nnew\n<!-- s:end -->\nb\n"
        );
        assert_eq!(
            super::splice_section("a\n", "s", new),
            "a\n<!-- s:begin -->\nnew\n<!-- s:end -->\n"
        );
    }
}
