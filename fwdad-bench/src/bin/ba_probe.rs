//! Issue 30, BA 2×15 in one batched pass: the runtime-dispatch prototype against the
//! shape a macro would emit, variant by variant, for instruction counts and interleaved
//! timing.
//!
//! `ba_probe time [rounds]`: interleaved rounds, each variant's median time ÷ the
//! objective's per round (median and interquartile range).
//! `ba_probe once <variant> [reps]`: runs one variant `reps` times (for
//! `valgrind --tool=callgrind --toggle-collect='*run_<variant>*'`).
//! `BA_HEAP_PAD=k`: `k` bytes allocated before the instance (its data moved against the
//! stack; give the value a fixed number of digits, since the environment's length moves
//! the stack too).
//!
//! Variants, 256 observations each, every entry of every block kept:
//! - `primal`: the objective;
//! - `rule`: `ba::block_rule`, main's rule (`Batch`, default target, out of line);
//! - `primal_out`, `rule_out`: the objective and the rule, each residual or block written
//!   straight into an output buffer as an assembly of the Jacobian writes it (no block
//!   copied for `black_box`); `time` prints their ratio first;
//! - `inline`: `ba::block_rule_inline` (the rule inlined, default target);
//! - `proto`: the benchmark's prototype, the loop over observations inside an AVX2+FMA
//!   function into which the rule is inlined, `Fused` mode;
//! - `entry`: what a macro entry is: the loop at the default target, per observation a
//!   call to an AVX2+FMA function taking the rule's arguments (`Dual`s, tangents by
//!   reference and by value as `Frule` takes them) and returning its `Dual`, the rule's
//!   body inlined into it in `Fused` mode; `fx`, `fy` with zero `Batch` tangents;
//! - `entry_const`: `entry` with `fx`, `fy` given constant tangents (`ConstTangent`);
//! - `entry_inl`: `entry`'s call without its own frame: the entry inlined into a per-call
//!   AVX2+FMA wrapper that writes the block (the result not returned as a `Dual`);
//! - `hop`: the macro's shape: an out-of-line default-target `frule` with `Batch`
//!   tangents that detects AVX2 and FMA and calls `entry`'s function, its slices of
//!   tangents seen as `Fused` (same layout).

use fwdad::prelude::*;
use fwdad::{Fused, ScalarTangent};
use fwdad_bench::ba::{self, ba_residual_inline, Instance, NBLOCK, NCAM};
use std::hint::black_box;
use std::time::Instant;

type B = Batch<f64, NBLOCK>;
type FB = Fused<B>;

struct Seeds {
    cam: [B; NCAM],
    x: [B; 3],
    w: B,
}

struct FSeeds {
    cam: [FB; NCAM],
    x: [FB; 3],
    w: FB,
}

fn seeds() -> (Seeds, FSeeds) {
    let s = Seeds {
        cam: std::array::from_fn(B::unit),
        x: std::array::from_fn(|k| B::unit(NCAM + k)),
        w: B::unit(14),
    };
    let f = FSeeds {
        cam: s.cam.map(Fused),
        x: s.x.map(Fused),
        w: Fused(s.w),
    };
    (s, f)
}

#[inline(always)]
fn whole<const K: usize>(a: [f64; K]) -> f64 {
    black_box(&a)[0]
}

#[inline(always)]
fn block_of(y: [FB; 2]) -> [f64; 2 * NBLOCK] {
    let mut out = [0.0; 2 * NBLOCK];
    out[..NBLOCK].copy_from_slice(&y[0].0 .0);
    out[NBLOCK..].copy_from_slice(&y[1].0 .0);
    out
}

type Args<'a, T> = (
    Dual<&'a [f64], &'a [FB]>,
    Dual<&'a [f64], &'a [FB]>,
    Dual<f64, FB>,
    Dual<f64, T>,
    Dual<f64, T>,
);

/// The rule's arguments in `Batch` mode.
type BatchArgs<'a> = (
    Dual<&'a [f64], &'a [B]>,
    Dual<&'a [f64], &'a [B]>,
    Dual<f64, B>,
    Dual<f64, B>,
    Dual<f64, B>,
);

/// The entry a macro would emit: the rule's arguments in, its `Dual` out.
#[target_feature(enable = "avx2,fma")]
#[inline(never)]
fn wide_entry(args: Args<'_, FB>) -> Dual<[f64; 2], [FB; 2]> {
    <ba_residual_inline as Frule<_, FB>>::frule(&ba_residual_inline {}, args)
}

/// [`wide_entry`] with constant tangents for `fx`, `fy`.
#[target_feature(enable = "avx2,fma")]
#[inline(never)]
fn wide_entry_const(args: Args<'_, fwdad::ConstTangent>) -> Dual<[f64; 2], [FB; 2]> {
    <ba_residual_inline as Frule<_, FB>>::frule(&ba_residual_inline {}, args)
}

/// One observation's block inside one AVX2+FMA function (no `Dual` returned).
#[target_feature(enable = "avx2,fma")]
#[inline(never)]
fn wide_block(inst: &Instance, i: usize, s: &FSeeds) -> [f64; 2 * NBLOCK] {
    let (cam, x, w, fx, fy) = inst.observation(i);
    let y = <ba_residual_inline as Frule<_, FB>>::frule(
        &ba_residual_inline {},
        (
            Dual::new(cam, &s.cam[..]),
            Dual::new(x, &s.x[..]),
            Dual::new(w, s.w),
            Dual::new(fx, FB::zero()),
            Dual::new(fy, FB::zero()),
        ),
    );
    block_of(y.tangent)
}

/// The shape a macro would emit: `frule` (out of line, default target, `Batch` tangents)
/// checks the CPU and calls the wide entry with its tangents seen as `Fused` (the same
/// layout), then gives the result back as `Batch` tangents.
#[inline(never)]
fn hop(args: BatchArgs<'_>) -> Dual<[f64; 2], [B; 2]> {
    fn f(t: &[B]) -> &[FB] {
        // SAFETY: `Fused` is `repr(transparent)`.
        unsafe { std::slice::from_raw_parts(t.as_ptr().cast(), t.len()) }
    }
    if wide_cpu() {
        let (a, b, c, d, e) = args;
        // SAFETY: checked just above.
        let y = unsafe {
            wide_entry((
                Dual::new(a.primal, f(a.tangent)),
                Dual::new(b.primal, f(b.tangent)),
                Dual::new(c.primal, Fused(c.tangent)),
                Dual::new(d.primal, Fused(d.tangent)),
                Dual::new(e.primal, Fused(e.tangent)),
            ))
        };
        return Dual::new(y.primal, y.tangent.map(|t| t.0));
    }
    <ba_residual_inline as Frule<_, B>>::frule(&ba_residual_inline {}, args)
}

fn wide_cpu() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

#[inline(never)]
fn run_primal(inst: &Instance) -> f64 {
    (0..inst.p)
        .map(|i| {
            let (cam, x, w, fx, fy) = inst.observation(i);
            whole(ba::ba_residual(cam, x, w, fx, fy))
        })
        .sum()
}

std::thread_local! {
    /// The output of the `_out` variants: every observation's residual or block, written
    /// in place as an assembly of a Jacobian writes them (no block copied for
    /// `black_box`).
    static OUT: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `run(out)` on the output buffer, `len` entries, then every entry kept.
fn with_out(len: usize, run: impl FnOnce(&mut [f64])) -> f64 {
    OUT.with(|o| {
        let mut o = o.borrow_mut();
        o.resize(len, 0.0);
        run(&mut o[..]);
        black_box(&o[..])[len - 1]
    })
}

#[inline(never)]
fn run_primal_out(inst: &Instance) -> f64 {
    with_out(2 * inst.p, |out| {
        for (i, r) in out.chunks_exact_mut(2).enumerate() {
            let (cam, x, w, fx, fy) = inst.observation(i);
            r.copy_from_slice(&ba::ba_residual(cam, x, w, fx, fy));
        }
    })
}

#[inline(never)]
fn run_rule_out(inst: &Instance, s: &Seeds) -> f64 {
    with_out(2 * NBLOCK * inst.p, |out| {
        for (i, block) in out.chunks_exact_mut(2 * NBLOCK).enumerate() {
            let (cam, x, w, fx, fy) = inst.observation(i);
            let y = <ba::ba_residual as Frule<_, B>>::frule(
                &ba::ba_residual {},
                (
                    Dual::new(cam, &s.cam[..]),
                    Dual::new(x, &s.x[..]),
                    Dual::new(w, s.w),
                    Dual::new(fx, B::default()),
                    Dual::new(fy, B::default()),
                ),
            );
            block[..NBLOCK].copy_from_slice(&y.tangent[0].0);
            block[NBLOCK..].copy_from_slice(&y.tangent[1].0);
        }
    })
}

#[inline(never)]
fn run_rule(inst: &Instance, s: &Seeds) -> f64 {
    (0..inst.p)
        .map(|i| {
            let (cam, x, w, fx, fy) = inst.observation(i);
            let y = <ba::ba_residual as Frule<_, B>>::frule(
                &ba::ba_residual {},
                (
                    Dual::new(cam, &s.cam[..]),
                    Dual::new(x, &s.x[..]),
                    Dual::new(w, s.w),
                    Dual::new(fx, B::default()),
                    Dual::new(fy, B::default()),
                ),
            );
            whole(block_of(y.tangent.map(Fused)))
        })
        .sum()
}

#[inline(never)]
fn run_inline(inst: &Instance, s: &Seeds) -> f64 {
    (0..inst.p)
        .map(|i| {
            let (cam, x, w, fx, fy) = inst.observation(i);
            let y = <ba_residual_inline as Frule<_, B>>::frule(
                &ba_residual_inline {},
                (
                    Dual::new(cam, &s.cam[..]),
                    Dual::new(x, &s.x[..]),
                    Dual::new(w, s.w),
                    Dual::new(fx, B::default()),
                    Dual::new(fy, B::default()),
                ),
            );
            whole(block_of(y.tangent.map(Fused)))
        })
        .sum()
}

#[inline(never)]
fn run_proto(inst: &Instance, s: &FSeeds) -> f64 {
    #[target_feature(enable = "avx2,fma")]
    fn wide(inst: &Instance, s: &FSeeds) -> f64 {
        (0..inst.p)
            .map(|i| {
                let (cam, x, w, fx, fy) = inst.observation(i);
                let y = <ba_residual_inline as Frule<_, FB>>::frule(
                    &ba_residual_inline {},
                    (
                        Dual::new(cam, &s.cam[..]),
                        Dual::new(x, &s.x[..]),
                        Dual::new(w, s.w),
                        Dual::new(fx, FB::zero()),
                        Dual::new(fy, FB::zero()),
                    ),
                );
                whole(block_of(y.tangent))
            })
            .sum()
    }
    assert!(wide_cpu());
    // SAFETY: AVX2 and FMA checked just above.
    unsafe { wide(inst, s) }
}

#[inline(never)]
fn run_entry(inst: &Instance, s: &FSeeds) -> f64 {
    (0..inst.p)
        .map(|i| {
            let (cam, x, w, fx, fy) = inst.observation(i);
            assert!(wide_cpu());
            // SAFETY: checked just above.
            let y = unsafe {
                wide_entry((
                    Dual::new(cam, &s.cam[..]),
                    Dual::new(x, &s.x[..]),
                    Dual::new(w, s.w),
                    Dual::new(fx, FB::zero()),
                    Dual::new(fy, FB::zero()),
                ))
            };
            whole(block_of(y.tangent))
        })
        .sum()
}

#[inline(never)]
fn run_entry_const(inst: &Instance, s: &FSeeds) -> f64 {
    (0..inst.p)
        .map(|i| {
            let (cam, x, w, fx, fy) = inst.observation(i);
            assert!(wide_cpu());
            // SAFETY: checked just above.
            let y = unsafe {
                wide_entry_const((
                    Dual::new(cam, &s.cam[..]),
                    Dual::new(x, &s.x[..]),
                    Dual::new(w, s.w),
                    Dual::new(fx, fwdad::ConstTangent),
                    Dual::new(fy, fwdad::ConstTangent),
                ))
            };
            whole(block_of(y.tangent))
        })
        .sum()
}

#[inline(never)]
fn run_hop(inst: &Instance, s: &Seeds) -> f64 {
    (0..inst.p)
        .map(|i| {
            let (cam, x, w, fx, fy) = inst.observation(i);
            let y = hop((
                Dual::new(cam, &s.cam[..]),
                Dual::new(x, &s.x[..]),
                Dual::new(w, s.w),
                Dual::new(fx, B::default()),
                Dual::new(fy, B::default()),
            ));
            whole(block_of(y.tangent.map(Fused)))
        })
        .sum()
}

#[inline(never)]
fn run_entry_inl(inst: &Instance, s: &FSeeds) -> f64 {
    (0..inst.p)
        .map(|i| {
            assert!(wide_cpu());
            // SAFETY: checked just above.
            whole(unsafe { wide_block(inst, i, s) })
        })
        .sum()
}

const VARIANTS: [&str; 10] = [
    "primal",
    "rule",
    "primal_out",
    "rule_out",
    "inline",
    "proto",
    "entry",
    "entry_const",
    "entry_inl",
    "hop",
];

fn run(v: &str, inst: &Instance, s: &Seeds, f: &FSeeds) -> f64 {
    let inst = black_box(inst);
    match v {
        "primal" => run_primal(inst),
        "rule" => run_rule(inst, s),
        "primal_out" => run_primal_out(inst),
        "rule_out" => run_rule_out(inst, s),
        "inline" => run_inline(inst, s),
        "proto" => run_proto(inst, f),
        "entry" => run_entry(inst, f),
        "entry_const" => run_entry_const(inst, f),
        "entry_inl" => run_entry_inl(inst, f),
        "hop" => run_hop(inst, s),
        _ => panic!("unknown variant {v}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `BA_HEAP_PAD=k`: `k` bytes allocated (and kept) before the instance, which moves the
    // instance's data against the stack and the static data (the layout effect, §11).
    let pad: usize = std::env::var("BA_HEAP_PAD")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(0);
    let _pad = black_box(vec![0u8; pad]);
    let inst = Instance::generate(8, 64, 256, 302);
    let (s, f) = seeds();
    // Every variant computes the same blocks (to rounding).
    // (The `_out` variants keep their output in a buffer: checked against `rule` below.)
    let blocks = |v: &str| VARIANTS[1..].contains(&v) && !v.ends_with("_out");
    let check: Vec<f64> = VARIANTS
        .iter()
        .filter(|v| blocks(v))
        .map(|v| run(v, &inst, &s, &f))
        .collect();
    run("rule_out", &inst, &s, &f);
    let last = OUT.with(|o| o.borrow()[(inst.p - 1) * 2 * NBLOCK..].to_vec());
    let (cam, x, w, fx, fy) = inst.observation(inst.p - 1);
    let y = <ba::ba_residual as Frule<_, B>>::frule(
        &ba::ba_residual {},
        (
            Dual::new(cam, &s.cam[..]),
            Dual::new(x, &s.x[..]),
            Dual::new(w, s.w),
            Dual::new(fx, B::default()),
            Dual::new(fy, B::default()),
        ),
    );
    assert_eq!(&last[..NBLOCK], &y.tangent[0].0[..]);
    assert_eq!(&last[NBLOCK..], &y.tangent[1].0[..]);
    run("primal_out", &inst, &s, &f);
    let r = OUT.with(|o| o.borrow()[2 * (inst.p - 1)..2 * inst.p].to_vec());
    assert_eq!(r, ba::ba_residual(cam, x, w, fx, fy));
    for (v, c) in VARIANTS.iter().filter(|v| blocks(v)).zip(&check) {
        assert!(
            (c - check[0]).abs() <= 1e-9 * check[0].abs().max(1.0),
            "{v}: {c} against {}",
            check[0]
        );
    }
    match args.first().map(String::as_str) {
        Some("once") => {
            let v = args.get(1).expect("a variant");
            let reps: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(1);
            let mut acc = 0.0;
            for _ in 0..reps {
                acc += run(v, &inst, &s, &f);
            }
            println!("{v}: {acc}");
        }
        _ => {
            let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(201);
            let reps = 20;
            let mut t = vec![Vec::new(); VARIANTS.len()];
            for _ in 0..rounds {
                for (k, v) in VARIANTS.iter().enumerate() {
                    let t0 = Instant::now();
                    for _ in 0..reps {
                        black_box(run(v, &inst, &s, &f));
                    }
                    t[k].push(t0.elapsed().as_secs_f64() / reps as f64);
                }
            }
            let q = |mut v: Vec<f64>| {
                v.sort_by(f64::total_cmp);
                let n = v.len();
                (v[n / 4], v[n / 2], v[3 * n / 4])
            };
            let out = |v: &str| VARIANTS.iter().position(|w| *w == v).unwrap_or(0);
            let (po, ro) = (out("primal_out"), out("rule_out"));
            let r: Vec<f64> = t[ro].iter().zip(&t[po]).map(|(a, b)| a / b).collect();
            let (lo, med, hi) = q(r);
            println!("rule_out ÷ primal_out {med:.3} (IQR {lo:.3}-{hi:.3})");
            for (k, v) in VARIANTS.iter().enumerate() {
                let r: Vec<f64> = t[k].iter().zip(&t[0]).map(|(a, b)| a / b).collect();
                let (lo, med, hi) = q(r);
                let (_, tm, _) = q(t[k].clone());
                println!(
                    "{v:12} {:8.2} µs  ÷ objective {med:.3} (IQR {lo:.3}-{hi:.3})",
                    tm * 1e6
                );
            }
        }
    }
}
