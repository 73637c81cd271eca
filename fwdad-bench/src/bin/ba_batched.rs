//! BA's 2×15 Jacobian blocks in one batched pass against the expert batched hand Jacobian
//! (issue 30), measured `--runs N` times in one process (default 5): each run's medians of
//! per-round ratios with their spread, then the median over runs. A quick look at one row
//! of the report's issue 30 section on a loaded machine.
//!
//! `cargo run --release -p fwdad-bench --bin ba_batched -- --runs 5`

use fwdad_bench::expert_report::{ba_batched, plan_one};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(5);
    let ms = ba_batched(plan_one(), runs);
    println!("| run | rule | expert | primal | rule ÷ expert | rule ÷ primal | expert ÷ primal | rule ÷ num-dual | attempts |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let by = |a: &str, b: &str| -> Vec<f64> {
        let mut v: Vec<f64> = ms
            .iter()
            .filter_map(|m| m.ratio(a, b).map(|r| r.median))
            .collect();
        v.sort_by(f64::total_cmp);
        v
    };
    for (k, m) in ms.iter().enumerate() {
        let r = |a, b| {
            m.ratio(a, b).map_or("–".into(), |r| {
                format!("{:.2} ± {:.1} %", r.median, 100.0 * r.spread)
            })
        };
        let t = |v| m.time(v).map_or(f64::NAN, |t| t / 1e3);
        println!(
            "| {} | {:.2} µs | {:.2} µs | {:.2} µs | {} | {} | {} | {} | {} |",
            k + 1,
            t("rule"),
            t("expert"),
            t("primal"),
            r("rule", "expert"),
            r("rule", "primal"),
            r("expert", "primal"),
            r("rule", "num-dual"),
            m.attempts
        );
    }
    for (a, b) in [
        ("rule", "expert"),
        ("rule", "primal"),
        ("expert", "primal"),
        ("rule, Jacobian entry", "primal"),
        ("rule, Jacobian entry", "expert"),
        ("rule, Jacobian entry", "rule"),
        ("rule, AVX2+FMA function", "primal"),
        ("rule, AVX2+FMA function", "rule inlined"),
        ("rule inlined", "primal"),
        ("rule, Fused, AVX2+FMA function", "primal"),
        ("rule, Fused, AVX2+FMA function", "rule inlined"),
        ("rule, Fused, AVX2+FMA function", "rule"),
        ("rule, Fused, AVX2+FMA function", "expert"),
        ("seeds product", "primal"),
    ] {
        let v = by(a, b);
        // The widest spread of a run (interquartile range of per-round ratios ÷ median).
        let spread = ms
            .iter()
            .filter_map(|m| m.ratio(a, b).map(|r| r.spread))
            .fold(0.0, f64::max);
        if let (Some(lo), Some(hi)) = (v.first(), v.last()) {
            println!(
                "{a} ÷ {b}: median over {} runs {:.2} (range {lo:.2}–{hi:.2}; spread ≤ {:.1} %)",
                v.len(),
                v[v.len() / 2],
                100.0 * spread
            );
        }
    }
}
