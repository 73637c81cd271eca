//! The report: measured times, the ratios of issue 8 against their targets, the markdown
//! of `BENCHMARKS.md`, the SVG chart, the machine description and the compile-time
//! measurement.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Target: derived rule ÷ hand-written derivative, geometric mean.
pub const TARGET_HAND: f64 = 1.05;
/// Target: derived rule ÷ num-dual, geometric mean.
pub const TARGET_ND_MEAN: f64 = 0.9;
/// Target: derived rule ÷ num-dual, every kernel.
pub const TARGET_ND_MAX: f64 = 1.0;
/// Target: BA Jacobian ÷ BA objective.
pub const TARGET_BA: f64 = 7.0;

/// A ratio with its target (`None`: reported, no target).
#[derive(Clone, Copy, Debug)]
pub struct Ratio {
    /// The value.
    pub value: f64,
    /// The bound it should stay under.
    pub target: Option<f64>,
}

/// One kernel differentiated along one direction (times in ns per call).
#[derive(Clone, Debug)]
pub struct Row {
    /// Kernel.
    pub name: String,
    /// Primal.
    pub primal: f64,
    /// Derived rule, one direction.
    pub rule: f64,
    /// Hand-written derivative, one direction.
    pub hand: Option<f64>,
    /// num-dual `Dual64`.
    pub nd: Option<f64>,
    /// Central finite differences, one direction.
    pub fd: Option<f64>,
    /// Rule and num-dual with 8 directions (`Batch<f64, 8>`, `DualSVec64<8>`).
    pub batch8: Option<(f64, f64)>,
    /// Target of rule ÷ primal.
    pub target: Option<f64>,
}

impl Row {
    /// A row.
    #[allow(clippy::too_many_arguments)]
    pub fn one_dir(
        name: &str,
        primal: f64,
        rule: f64,
        hand: Option<f64>,
        nd: Option<f64>,
        fd: Option<f64>,
        batch8: Option<(f64, f64)>,
        target: Option<f64>,
    ) -> Row {
        Row {
            name: name.to_string(),
            primal,
            rule,
            hand,
            nd,
            fd,
            batch8,
            target,
        }
    }
}

/// A gradient by forward mode in chunks (times in ns per gradient).
#[derive(Clone, Debug)]
pub struct GradRow {
    /// Kernel and size.
    pub name: String,
    /// Primal.
    pub primal: f64,
    /// The derived rule in chunks of 8 (`JacobianWorkspace::<8>::gradient`), the hand JVP's
    /// algorithm.
    pub rule: f64,
    /// The derived rule through `GradientWorkspace::gradient`, `fwdad::gradient`'s choice
    /// of width.
    pub rule_default: f64,
    /// That width ([`fwdad::drivers::gradient_width`]).
    pub width: usize,
    /// Hand-written 8-direction JVP in the same chunks.
    pub hand_jvp: f64,
    /// Hand-written analytic gradient (`O(n)`).
    pub analytic: f64,
    /// num-dual `DualSVec64<8>` in the same chunks.
    pub nd: f64,
    /// Central differences (`2n` evaluations).
    pub fd: f64,
}

/// Bundle adjustment: whole-instance times (ns).
#[derive(Clone, Debug)]
pub struct BaRow {
    /// Where the instance came from.
    pub source: String,
    /// Observations.
    pub p: usize,
    /// Objective (all residuals).
    pub objective: f64,
    /// Sparse Jacobian, derived rule in one width-15 pass per observation.
    pub rule: f64,
    /// Sparse Jacobian through `jacobian_with::<15>` per observation.
    pub driver: f64,
    /// Sparse Jacobian through one `JacobianWorkspace::<15>` for all observations.
    pub workspace: f64,
    /// Sparse Jacobian, hand-derived blocks.
    pub hand: f64,
    /// Sparse Jacobian, num-dual `DualSVec64<15>`.
    pub nd: f64,
    /// Sparse Jacobian, central differences.
    pub fd: f64,
}

/// GMM gradient on one instance (ns).
#[derive(Clone, Debug)]
pub struct GmmRow {
    /// Where the instance came from.
    pub source: String,
    /// Dimension.
    pub d: usize,
    /// Components.
    pub k: usize,
    /// Parameters.
    pub params: usize,
    /// Objective.
    pub objective: f64,
    /// `fwdad::gradient` (its choice of width).
    pub rule: f64,
    /// That width ([`fwdad::drivers::gradient_width`]).
    pub width: usize,
    /// Hand-derived analytic gradient.
    pub hand: f64,
    /// num-dual `DualSVec64<8>` chunks.
    pub nd: f64,
    /// Central differences, when run.
    pub fd: Option<f64>,
}

/// Hand tracking: dense Jacobian times (ns).
#[derive(Clone, Debug)]
pub struct HandRow {
    /// Where the instance came from.
    pub source: String,
    /// With the `u`s (3N × 28) or without (3N × 26).
    pub complicated: bool,
    /// Number of points N.
    pub points: usize,
    /// Objective.
    pub objective: f64,
    /// Derived rule, one pass.
    pub rule: f64,
    /// num-dual `DualSVec64<26 or 28>`.
    pub nd: f64,
    /// Central differences.
    pub fd: f64,
    /// Hand-derived Jacobian (with the residuals): sparse, see `hand::jacobian_hand`.
    pub hand: f64,
    /// Hand-written dense forward propagation, the rule's algorithm
    /// (`hand_dense::jacobian_hand_dense`).
    pub hand_dense: f64,
}

impl HandRow {
    /// `simple N=100` or `complicated N=100`.
    pub fn label(&self) -> String {
        format!(
            "{} N={}",
            if self.complicated {
                "complicated"
            } else {
                "simple"
            },
            self.points
        )
    }
}

/// Compile times (seconds) of a crate of 100 functions, with and without the attribute.
#[derive(Clone, Debug)]
pub struct CompileTimes {
    /// Number of functions.
    pub functions: usize,
    /// `(profile, plain, annotated)` seconds.
    pub builds: Vec<(String, f64, f64)>,
}

/// Machine, compiler and date.
#[derive(Clone, Debug)]
pub struct Machine {
    /// `nproc`.
    pub cores: usize,
    /// CPU model from `/proc/cpuinfo`.
    pub cpu: String,
    /// `rustc --version`.
    pub rustc: String,
    /// UTC date and time.
    pub date: String,
    /// The commit measured.
    pub commit: String,
}

/// What the run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// Machine.
    pub machine: Machine,
    /// One-direction kernels.
    pub one_dir: Vec<Row>,
    /// Gradients.
    pub grads: Vec<GradRow>,
    /// Bundle adjustment.
    pub ba: Option<BaRow>,
    /// Hand tracking.
    pub hand: Vec<HandRow>,
    /// GMM gradients.
    pub gmm: Vec<GmmRow>,
    /// Compile times, when measured.
    pub compile: Option<CompileTimes>,
    /// Issue 30's section (expert JVPs, medians with spread), already in markdown.
    pub issue30: Option<String>,
    /// Wall time of the run.
    pub elapsed: Duration,
}

fn run(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Describes this machine.
pub fn machine() -> Machine {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let dir = env!("CARGO_MANIFEST_DIR");
    Machine {
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        cpu,
        rustc: run("rustc", &["--version"]).unwrap_or_else(|| "unknown".into()),
        date: run("date", &["-u", "+%Y-%m-%d %H:%M UTC"]).unwrap_or_else(|| "unknown".into()),
        commit: run("git", &["-C", dir, "rev-parse", "--short", "HEAD"])
            .unwrap_or_else(|| "unknown".into()),
    }
}

/// Geometric mean.
pub fn geomean(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

fn ns(t: f64) -> String {
    if t >= 1e9 {
        format!("{:.2} s", t / 1e9)
    } else if t >= 1e6 {
        format!("{:.2} ms", t / 1e6)
    } else if t >= 1e3 {
        format!("{:.2} µs", t / 1e3)
    } else {
        format!("{t:.1} ns")
    }
}

fn r2(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

fn verdict(value: f64, bound: f64) -> &'static str {
    if value <= bound {
        "met"
    } else {
        "**MISSED**"
    }
}

impl Report {
    /// An empty report.
    pub fn new(machine: Machine) -> Report {
        Report {
            machine,
            one_dir: Vec::new(),
            grads: Vec::new(),
            ba: None,
            hand: Vec::new(),
            gmm: Vec::new(),
            compile: None,
            issue30: None,
            elapsed: Duration::ZERO,
        }
    }

    /// `(kernel, rule ÷ hand-written)` over the suite: one-direction kernels, gradients
    /// against the hand-written chunked JVP (the same algorithm), BA blocks, and hand
    /// tracking against the hand-written dense propagation (the same algorithm) or, with
    /// `sparse_hand`, against the sparse hand-derived Jacobian (a better algorithm).
    pub fn vs_hand(&self, sparse_hand: bool) -> Vec<(String, f64)> {
        let mut v: Vec<(String, f64)> = self
            .one_dir
            .iter()
            .filter_map(|r| r.hand.map(|h| (r.name.clone(), r.rule / h)))
            .collect();
        v.extend(
            self.grads
                .iter()
                .map(|g| (g.name.clone(), g.rule / g.hand_jvp)),
        );
        if let Some(b) = &self.ba {
            v.push(("BA Jacobian".into(), b.rule / b.hand));
        }
        v.extend(self.hand.iter().map(|h| {
            let baseline = if sparse_hand { h.hand } else { h.hand_dense };
            (format!("hand {}", h.label()), h.rule / baseline)
        }));
        v
    }

    /// `(kernel, rule ÷ num-dual)` over the suite: gradients by `fwdad::gradient`'s
    /// width against num-dual's at 8, each tool's best (`fwdad-bench/analysis.md` §2).
    pub fn vs_nd(&self) -> Vec<(String, f64)> {
        let mut v: Vec<(String, f64)> = self
            .one_dir
            .iter()
            .filter_map(|r| r.nd.map(|n| (r.name.clone(), r.rule / n)))
            .collect();
        v.extend(self.one_dir.iter().filter_map(|r| {
            r.batch8
                .map(|(a, b)| (format!("{} ×8 directions", r.name), a / b))
        }));
        v.extend(
            self.grads
                .iter()
                .map(|g| (format!("{} gradient", g.name), g.rule_default / g.nd)),
        );
        if let Some(b) = &self.ba {
            v.push(("BA Jacobian".into(), b.rule / b.nd));
        }
        v.extend(
            self.hand
                .iter()
                .map(|h| (format!("hand {}", h.label()), h.rule / h.nd)),
        );
        v.extend(
            self.gmm
                .iter()
                .map(|g| (format!("GMM d={} K={} gradient", g.d, g.k), g.rule / g.nd)),
        );
        v
    }

    /// The markdown of `BENCHMARKS.md`.
    pub fn markdown(&self) -> String {
        let m = &self.machine;
        let mut s = String::new();
        let _ = writeln!(s, "# fwdad benchmarks\n");
        let _ = writeln!(
            s,
            "Generated by `cargo run --release -p fwdad-bench --bin report` (issue 8): do not edit by hand; the analysis at the end is `fwdad-bench/analysis.md`.\n"
        );
        let _ = writeln!(
            s,
            "| machine | compiler | date | commit | run time |\n|---|---|---|---|---|\n| {} cores, {} | {} | {} | {} | {:.0} s |\n",
            m.cores,
            m.cpu,
            m.rustc,
            m.date,
            m.commit,
            self.elapsed.as_secs_f64()
        );
        let _ = writeln!(
            s,
            "Every variant of a kernel is timed in the same process, in turn (round robin, about 1 ms per sample); the statistic is the minimum over the samples, as in ADBench. Ratios are of those minima, so noise from other processes on this shared 2-core machine inflates a time but rarely a ratio. Every derivative was checked against the hand-written one (|x − y| / max(1, |x| + |y|) < 1e-8; finite differences < 1e-5) in `cargo test -p fwdad-bench` and again by the report before timing, on the ADBench instances themselves.\n"
        );
        if let Some(issue30) = &self.issue30 {
            let _ = writeln!(s, "{issue30}");
            let _ = writeln!(
                s,
                "## Issue 8 suite\n\nThe sections below are issue 8's suite, in the same profile: minima over samples, and \"hand\" is hand-written code of the *same algorithm* as the rule. The matvec, Kronecker, chunked Rosenbrock and Ackley baselines are written as an expert writes them (issue 30); the GMM and hand-tracking ones are not (index loops with bounds checks, the product rule at every step). Against expert code read the issue 30 section above.\n"
            );
        }
        let _ = writeln!(s, "![ratios](docs/benchmarks.svg)\n");

        // Headline.
        let _ = writeln!(
            s,
            "## Targets\n\n| target | bound | measured | |\n|---|---|---|---|"
        );
        for r in &self.one_dir {
            if let Some(t) = r.target {
                let v = r.rule / r.primal;
                let _ = writeln!(
                    s,
                    "| rule ÷ primal, one direction: {} | ≤ {t} | {} | {} |",
                    r.name,
                    r2(v),
                    verdict(v, t)
                );
            }
        }
        let hand = self.vs_hand(false);
        let gh = geomean(&hand.iter().map(|x| x.1).collect::<Vec<_>>());
        let _ = writeln!(
            s,
            "| rule ÷ hand-written code of the same algorithm, geometric mean over {} kernels | ≤ {TARGET_HAND} | {} | {} |",
            hand.len(),
            r2(gh),
            verdict(gh, TARGET_HAND)
        );
        let derived = self.vs_hand(true);
        if !self.hand.is_empty() {
            let g = geomean(&derived.iter().map(|x| x.1).collect::<Vec<_>>());
            let _ = writeln!(
                s,
                "| the same, hand tracking against the sparse hand-derived Jacobian instead | ≤ {TARGET_HAND} | {} | {} |",
                r2(g),
                verdict(g, TARGET_HAND)
            );
        }
        let nd = self.vs_nd();
        let gn = geomean(&nd.iter().map(|x| x.1).collect::<Vec<_>>());
        let worst = nd
            .iter()
            .cloned()
            .fold(("".to_string(), 0.0), |a, b| if b.1 > a.1 { b } else { a });
        let _ = writeln!(
            s,
            "| rule ÷ num-dual, geometric mean over {} kernels | ≤ {TARGET_ND_MEAN} | {} | {} |",
            nd.len(),
            r2(gn),
            verdict(gn, TARGET_ND_MEAN)
        );
        let above = nd.iter().filter(|x| x.1 > TARGET_ND_MAX).count();
        let _ = writeln!(
            s,
            "| rule ÷ num-dual, every kernel | ≤ {TARGET_ND_MAX} | worst {} ({}); {above} of {} above 1 | {} |",
            r2(worst.1),
            worst.0,
            nd.len(),
            verdict(worst.1, TARGET_ND_MAX)
        );
        if let Some(b) = &self.ba {
            let v = b.rule / b.objective;
            let _ = writeln!(
                s,
                "| BA Jacobian ÷ objective (derived rule, one width-15 pass per observation) | ≤ {TARGET_BA} | {} | {} |",
                r2(v),
                verdict(v, TARGET_BA)
            );
            let v = b.workspace / b.objective;
            let _ = writeln!(
                s,
                "| BA Jacobian ÷ objective through the driver (`JacobianWorkspace::<15>` + `bind`) | ≤ {TARGET_BA} | {} | {} |",
                r2(v),
                verdict(v, TARGET_BA)
            );
        }
        let _ = writeln!(s);

        // One direction.
        let _ = writeln!(
            s,
            "## One direction (Jacobian-vector products)\n\nEvery input is perturbed. `×8`: eight directions in one pass (`Batch<f64, 8>` against num-dual's `DualSVec64<8>`), divided by the primal. Times are per call.\n"
        );
        let _ = writeln!(
            s,
            "| kernel | primal | rule | rule ÷ primal | rule ÷ hand | rule ÷ num-dual | FD ÷ primal | ×8 rule ÷ primal | ×8 rule ÷ num-dual |\n|---|---|---|---|---|---|---|---|---|"
        );
        for r in &self.one_dir {
            let opt = |x: Option<f64>| x.map_or("–".to_string(), r2);
            let _ = writeln!(
                s,
                "| {} | {} | {} | {}{} | {} | {} | {} | {} | {} |",
                r.name,
                ns(r.primal),
                ns(r.rule),
                r2(r.rule / r.primal),
                r.target.map_or(String::new(), |t| format!(" (≤ {t})")),
                opt(r.hand.map(|h| r.rule / h)),
                opt(r.nd.map(|n| r.rule / n)),
                opt(r.fd.map(|f| f / r.primal)),
                opt(r.batch8.map(|b| b.0 / r.primal)),
                opt(r.batch8.map(|b| b.0 / b.1)),
            );
        }
        let _ = writeln!(s);

        // Gradients.
        let _ = writeln!(
            s,
            "## Gradients by forward mode (chunks of directions)\n\nA chunked gradient of width w makes ⌈n/w⌉ passes, so its cost grows like n² where a hand-written reverse (analytic) gradient costs O(n). Two runs of the derived rule, buffers kept between calls as the hand JVP's seeds are: at width 8 (`JacobianWorkspace::<8>::gradient`), against \"hand JVP\", the same chunked algorithm written by hand at width 8 (the ratio is the AD overhead); and through `GradientWorkspace::gradient` (buffers kept; above 16 inputs it times its plans, widths 8, 16 and 32, on the function on its first call and keeps the fastest; the width column shows `gradient_width`, the first call's width of the one-shot `fwdad::gradient`), against the analytic gradient and num-dual. num-dual runs `DualSVec64<8>` (the issue 30 section compares with num-dual's best of 4, 8 and 16); the last column compares it with the rule at width 8 too.\n"
        );
        let _ = writeln!(
            s,
            "| kernel | primal | rule, width 8 | ÷ primal | ÷ hand JVP | `gradient` (width) | ÷ primal | ÷ analytic | ÷ num-dual | width 8 ÷ num-dual | FD ÷ primal |\n|---|---|---|---|---|---|---|---|---|---|---|"
        );
        for g in &self.grads {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} ({}) | {} | {} | {} | {} | {} |",
                g.name,
                ns(g.primal),
                ns(g.rule),
                r2(g.rule / g.primal),
                r2(g.rule / g.hand_jvp),
                ns(g.rule_default),
                g.width,
                r2(g.rule_default / g.primal),
                r2(g.rule_default / g.analytic),
                r2(g.rule_default / g.nd),
                r2(g.rule / g.nd),
                r2(g.fd / g.primal)
            );
        }
        let _ = writeln!(s);

        if let Some(b) = &self.ba {
            let _ = writeln!(
                s,
                "## ADBench bundle adjustment\n\nInstance: {} ({} observations). The whole sparse Jacobian (2×15 block per observation plus the weight rows, assembled in ADBench's CSR layout) ÷ the whole objective. Published (ADBench): hand-derived 6.5–7.4, ForwardDiff.jl 7.1–10.3, Tapenade 8.4–8.9, finite differences 16.\n",
                b.source, b.p
            );
            let _ = writeln!(s, "| variant | Jacobian | ÷ objective |\n|---|---|---|");
            let _ = writeln!(s, "| objective | {} | 1 |", ns(b.objective));
            for (n, t) in [
                (
                    "derived rule, one `Batch<f64, 15>` pass per observation",
                    b.rule,
                ),
                (
                    "derived rule through `JacobianWorkspace::<15>` + `bind` (buffers kept)",
                    b.workspace,
                ),
                (
                    "derived rule through `jacobian_with::<15>` + `bind` (allocates per call)",
                    b.driver,
                ),
                ("hand-derived", b.hand),
                ("num-dual `DualSVec64<15>`", b.nd),
                ("central finite differences", b.fd),
            ] {
                let _ = writeln!(s, "| {n} | {} | {} |", ns(t), r2(t / b.objective));
            }
            let _ = writeln!(
                s,
                "\nrule ÷ hand-derived: {}; rule ÷ num-dual: {}.\n",
                r2(b.rule / b.hand),
                r2(b.rule / b.nd)
            );
        }

        if !self.hand.is_empty() {
            let _ = writeln!(
                s,
                "## ADBench hand tracking\n\nThe dense Jacobian in one pass of the derived rule (`Batch<f64, 26>`; complicated: `Batch<f64, 28>` with the `u` columns compressed into lanes 0 and 1) ÷ the objective. The model data (transforms, vertices, weights) and the points are declared `inactive(..)`, so the rule takes them as plain slices and computes with them in plain `f64`. Two hand-written Jacobians: the dense one (`hand_dense::jacobian_hand_dense`) pushes the same 26 or 28 lanes through the objective's own loops, written by hand with `[f64; L]` tangents: the same algorithm, so rule ÷ dense is the AD overhead. The sparse hand-derived one (`hand::jacobian_hand`) differentiates the forward kinematics bone by bone and only the vertices the points use, through the bones that weight them (the objective, which it also returns, skins all vertices with all bones as ADBench's does): rule ÷ sparse also measures that better algorithm, which forward mode over the objective cannot follow.\n"
            );
            let _ = writeln!(
                s,
                "| instance | N | objective | rule | rule ÷ obj | dense hand ÷ obj | sparse hand ÷ obj | num-dual ÷ obj | FD ÷ obj | rule ÷ dense hand | rule ÷ sparse hand | rule ÷ num-dual |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
            );
            for h in &self.hand {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    h.source,
                    h.points,
                    ns(h.objective),
                    ns(h.rule),
                    r2(h.rule / h.objective),
                    r2(h.hand_dense / h.objective),
                    r2(h.hand / h.objective),
                    r2(h.nd / h.objective),
                    r2(h.fd / h.objective),
                    r2(h.rule / h.hand_dense),
                    r2(h.rule / h.hand),
                    r2(h.rule / h.nd)
                );
            }
            let _ = writeln!(s);
        }

        if !self.gmm.is_empty() {
            let _ = writeln!(
                s,
                "## ADBench GMM gradient\n\nn = 1000 points. Forward mode needs one direction per parameter: ⌈P/w⌉ passes of `fwdad::gradient`'s first width w (16 or 32 by P: `gradient_width`; num-dual at its fastest width, 8). The hand-derived gradient is analytic (reverse), so its ratio stays small while forward mode's grows with P. The points are declared `inactive(x)`.\n"
            );
            let _ = writeln!(
                s,
                "| instance | P | objective | rule (width) | rule ÷ obj | hand ÷ obj | num-dual ÷ obj | FD ÷ obj | rule ÷ num-dual |\n|---|---|---|---|---|---|---|---|---|"
            );
            for g in &self.gmm {
                let _ = writeln!(
                    s,
                    "| {} (d={}, K={}) | {} | {} | {} ({}) | {} | {} | {} | {} | {} |",
                    g.source,
                    g.d,
                    g.k,
                    g.params,
                    ns(g.objective),
                    ns(g.rule),
                    g.width,
                    r2(g.rule / g.objective),
                    r2(g.hand / g.objective),
                    r2(g.nd / g.objective),
                    g.fd.map_or("not run".into(), |f| r2(f / g.objective)),
                    r2(g.rule / g.nd)
                );
            }
            let _ = writeln!(s);
        }

        let _ = writeln!(
            s,
            "## Per-kernel ratios behind the means\n\n| kernel | rule ÷ hand-written, same algorithm | rule ÷ hand-derived (sparse for hand tracking) |\n|---|---|---|"
        );
        for ((n, v), (_, d)) in hand.iter().zip(&derived) {
            let _ = writeln!(s, "| {n} | {} | {} |", r2(*v), r2(*d));
        }
        let _ = writeln!(s, "\n| kernel | rule ÷ num-dual |\n|---|---|");
        for (n, v) in &nd {
            let _ = writeln!(s, "| {n} | {} |", r2(*v));
        }
        let _ = writeln!(s);

        let _ = writeln!(s, "## Compile time\n");
        match &self.compile {
            Some(c) => {
                let _ = writeln!(
                    s,
                    "A generated crate of {} functions (loops, branches, math calls, slices), built once plainly and once with `#[derive_frule]` on every function (dependencies prebuilt; the crate's own build timed):\n\n| profile | plain | annotated | ratio |\n|---|---|---|---|",
                    c.functions
                );
                for (p, a, b) in &c.builds {
                    let _ = writeln!(s, "| {p} | {a:.2} s | {b:.2} s | {} |", r2(b / a));
                }
            }
            None => {
                let _ = writeln!(s, "Not measured in this run (`--compile-time`).");
            }
        }
        let _ = writeln!(s, "\n{}", include_str!("../analysis.md"));
        s
    }
}

/// Draws the ratios as horizontal bars on a log scale (one group per kernel: rule ÷
/// primal, rule ÷ hand-written, rule ÷ num-dual) to `path` (SVG).
pub fn chart(rep: &Report, path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    // (label, [rule ÷ primal or objective, rule ÷ hand, rule ÷ num-dual])
    let mut rows: Vec<(String, [Option<f64>; 3])> = Vec::new();
    for r in &rep.one_dir {
        rows.push((
            r.name.clone(),
            [
                Some(r.rule / r.primal),
                r.hand.map(|h| r.rule / h),
                r.nd.map(|n| r.rule / n),
            ],
        ));
    }
    for g in &rep.grads {
        rows.push((
            format!("{} gradient", g.name),
            [
                Some(g.rule_default / g.primal),
                Some(g.rule / g.hand_jvp),
                Some(g.rule_default / g.nd),
            ],
        ));
    }
    if let Some(b) = &rep.ba {
        rows.push((
            "BA sparse Jacobian".into(),
            [
                Some(b.rule / b.objective),
                Some(b.rule / b.hand),
                Some(b.rule / b.nd),
            ],
        ));
    }
    for h in &rep.hand {
        rows.push((
            format!("hand {}", h.label()),
            [
                Some(h.rule / h.objective),
                Some(h.rule / h.hand_dense),
                Some(h.rule / h.nd),
            ],
        ));
    }
    for g in &rep.gmm {
        rows.push((
            format!("GMM d={} K={} gradient", g.d, g.k),
            [Some(g.rule / g.objective), None, Some(g.rule / g.nd)],
        ));
    }
    let n = rows.len();
    let height = 120 + 30 * n as u32;
    let root = SVGBackend::new(path, (1000, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let lo = 0.05f64;
    let hi = rows
        .iter()
        .flat_map(|r| r.1.iter().flatten().copied())
        .fold(10.0f64, f64::max)
        * 2.0;
    let labels: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "fwdad: derived rule ÷ primal (or objective), ÷ hand-written, ÷ num-dual (log scale; lower is better)",
            ("sans-serif", 16),
        )
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(330)
        .build_cartesian_2d((lo..hi).log_scale(), 0f64..n as f64)?;
    chart
        .configure_mesh()
        .y_labels(0)
        .x_desc("ratio (log scale)")
        .disable_y_mesh()
        .draw()?;
    // Kernel names left of their bar groups, right-aligned.
    let style = TextStyle::from(("sans-serif", 13).into_font())
        .pos(Pos::new(HPos::Right, VPos::Center))
        .color(&BLACK);
    for (i, label) in labels.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(lo, n as f64 - i as f64 - 0.5));
        root.draw(&Text::new(label.clone(), (px - 8, py), style.clone()))?;
    }
    let colors = [
        RGBColor(70, 110, 180),
        RGBColor(220, 130, 40),
        RGBColor(80, 160, 90),
    ];
    let names = [
        "rule ÷ primal / objective",
        "rule ÷ hand-written (same algorithm)",
        "rule ÷ num-dual",
    ];
    for (k, color) in colors.into_iter().enumerate() {
        let bars: Vec<_> = rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                r.1[k].map(|v| {
                    let top = n as f64 - i as f64 - 0.15 - 0.23 * k as f64;
                    Rectangle::new([(lo, top - 0.21), (v.max(lo), top)], color.filled())
                })
            })
            .collect();
        chart
            .draw_series(bars)?
            .label(names[k])
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    chart.draw_series(LineSeries::new(
        [(1.0, 0.0), (1.0, n as f64)],
        BLACK.stroke_width(1),
    ))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// The body of generated function `i` of the compile-time crate: a loop, a branch,
/// math calls and slice indexing, varied by `i`.
fn generated_fn(i: usize, annotated: bool) -> String {
    let attr = if annotated { "#[derive_frule]\n" } else { "" };
    let op = ["sin", "exp", "tanh", "sqrt", "ln_1p"][i % 5];
    format!(
        "{attr}pub fn kernel_{i}(x: &[f64], a: f64, n: usize) -> f64 {{
    let mut s = 0.0;
    for j in 0..n {{
        let v = x[j % x.len()] * a + {c:.1};
        if v > 0.0 {{
            s += v.abs().{op}() * {c:.1};
        }} else {{
            s -= 0.5 * v * v;
        }}
    }}
    let mut t = s;
    while t.abs() > 10.0 {{
        t *= 0.5;
    }}
    t + a.powi({p}) / (1.0 + x[0].abs())
}}
",
        c = 1.0 + i as f64 / 10.0,
        p = 1 + i % 3
    )
}

fn write_crate(dir: &Path, annotated: bool, functions: usize) -> std::io::Result<()> {
    let fwdad = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fwdad");
    std::fs::create_dir_all(dir.join("src"))?;
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"ct_{}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[dependencies]\nfwdad = {{ path = {:?} }}\n\n[workspace]\n",
            if annotated { "annotated" } else { "plain" },
            fwdad.canonicalize()?.display().to_string()
        ),
    )?;
    let mut src = String::from("#![allow(dead_code, unused_imports)]\nuse fwdad::prelude::*;\n\n");
    for i in 0..functions {
        src.push_str(&generated_fn(i, annotated));
    }
    std::fs::write(dir.join("src/lib.rs"), src)
}

fn timed_build(dir: &Path, target: &Path, release: bool) -> f64 {
    let mut args = vec!["build", "--quiet"];
    if release {
        args.push("--release");
    }
    let build = |args: &[&str]| {
        let ok = Command::new("cargo")
            .args(args)
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", target)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "cargo build failed in {}", dir.display());
    };
    build(&args); // dependencies and a first build
    let lib = dir.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).expect("lib.rs");
    let mut best = f64::INFINITY;
    for rep in 0..3 {
        std::fs::write(&lib, format!("{text}\n// rebuild {rep}\n")).expect("touch");
        let t = Instant::now();
        build(&args);
        best = best.min(t.elapsed().as_secs_f64());
    }
    best
}

/// Builds a crate of 100 generated functions with and without `#[derive_frule]` (in a
/// temporary directory, dependencies prebuilt) and returns the best of 3 rebuilds of the
/// crate itself, in the dev and release profiles.
pub fn compile_time() -> CompileTimes {
    let functions = 100;
    let base = std::env::temp_dir().join(format!("fwdad-compile-time-{}", std::process::id()));
    let target = base.join("target");
    let mut builds = Vec::new();
    for (profile, release) in [("dev", false), ("release", true)] {
        let mut t = [0.0; 2];
        for (k, annotated) in [false, true].into_iter().enumerate() {
            let dir = base.join(if annotated { "annotated" } else { "plain" });
            write_crate(&dir, annotated, functions).expect("write the generated crate");
            t[k] = timed_build(&dir, &target, release);
        }
        builds.push((profile.to_string(), t[0], t[1]));
    }
    let _ = std::fs::remove_dir_all(&base);
    CompileTimes { functions, builds }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geomean_and_formatting() {
        assert!((geomean(&[1.0, 4.0]) - 2.0).abs() < 1e-12);
        assert_eq!(ns(1500.0), "1.50 µs");
        assert_eq!(r2(123.4), "123");
        assert_eq!(verdict(1.2, 1.1), "**MISSED**");
    }

    #[test]
    fn markdown_of_an_empty_report() {
        let m = Machine {
            cores: 2,
            cpu: "cpu".into(),
            rustc: "rustc".into(),
            date: "today".into(),
            commit: "abc".into(),
        };
        let mut r = Report::new(m);
        r.one_dir.push(Row::one_dir(
            "k",
            10.0,
            12.0,
            Some(11.0),
            Some(13.0),
            None,
            None,
            Some(1.1),
        ));
        let md = r.markdown();
        assert!(md.contains("| rule ÷ primal, one direction: k | ≤ 1.1 | 1.20 | **MISSED** |"));
    }
}
