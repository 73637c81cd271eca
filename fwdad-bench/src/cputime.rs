//! Samples in rounds timed by the thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`), not the
//! wall clock: on a machine shared with other jobs, a sample during which the thread was
//! descheduled would otherwise count the other jobs' time. What remains of the load is its
//! effect on the caches and the memory bandwidth the thread shares. Included by the
//! `sparse_report` and `width_report` binaries (`#[path]`); Linux only.

use fwdad_bench::timing::{Plan, Variant};
use std::hint::black_box;

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
}

/// Linux's `CLOCK_THREAD_CPUTIME_ID`.
const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

/// The calling thread's CPU time, in nanoseconds.
pub fn thread_ns() -> f64 {
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid `timespec` for the call to write; the clock id is Linux's.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    t.tv_sec as f64 * 1e9 + t.tv_nsec as f64
}

/// As `fwdad_bench::timing::measure_samples`, by CPU time: each variant calibrated to
/// `plan.sample` per sample, then `plan.samples` rounds, one sample of every variant per
/// round. Returns per-call times (ns) of every sample of every variant, in round order.
pub fn measure_samples_cpu(plan: Plan, variants: &mut [Variant<'_>]) -> Vec<Vec<f64>> {
    let target = plan.sample.as_nanos() as f64;
    let iters: Vec<u64> = variants
        .iter_mut()
        .map(|(_, f)| {
            let mut n = 1u64;
            loop {
                let t = thread_ns();
                for _ in 0..n {
                    black_box(f());
                }
                let e = thread_ns() - t;
                if e >= target || n >= 1 << 30 {
                    break n;
                }
                let factor = if e <= 0.0 {
                    16.0
                } else {
                    (target / e * 1.2).clamp(1.5, 16.0)
                };
                n = ((n as f64) * factor).ceil() as u64;
            }
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(plan.samples); variants.len()];
    for _ in 0..plan.samples {
        for (k, (_, f)) in variants.iter_mut().enumerate() {
            let n = iters[k];
            let t = thread_ns();
            for _ in 0..n {
                black_box(f());
            }
            samples[k].push((thread_ns() - t) / n as f64);
        }
    }
    samples
}
