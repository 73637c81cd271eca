//! A simple timing loop for the report binary: each variant of a kernel is calibrated to
//! run for about a millisecond per sample, and the variants of one kernel are sampled in
//! turn (round robin), so that they see the same machine state and their ratios are
//! measured in the same process at the same time. The statistic is the minimum over the
//! samples (ADBench's choice: noise on a shared machine only ever adds time); the median
//! is kept too.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Per-call times of one variant, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stat {
    /// The minimum over samples.
    pub min: f64,
    /// The median over samples.
    pub median: f64,
}

/// How long each sample of each variant runs, and how many samples.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Target duration of one sample.
    pub sample: Duration,
    /// Number of samples per variant.
    pub samples: usize,
}

impl Plan {
    /// The report's default: 21 samples of about 1 ms.
    pub fn standard() -> Self {
        Plan {
            sample: Duration::from_millis(1),
            samples: 21,
        }
    }

    /// For slow kernels (a gradient taking most of a second): 5 samples of one call.
    pub fn slow() -> Self {
        Plan {
            sample: Duration::ZERO,
            samples: 5,
        }
    }
}

/// The value plus the first entry of the gradient returned with it, every entry kept
/// (`black_box`), as a caller reading the gradient does: see [`KeepGradient`].
#[inline(always)]
pub fn read_gradient<G: KeepGradient>(r: (f64, G)) -> f64 {
    r.0 + r.1.keep_first()
}

/// A gradient whose entries a benchmark keeps: an array by value (as num-dual's `SVector`
/// result is kept), a `Vec`'s entries through its slice. Not the `Vec` by value: its
/// 24-byte header, just stored by the callee as three words, is copied with a 16-byte
/// load that waits for those stores (a failed store-to-load forwarding, 15-20 % of a
/// 60 ns gradient), which a caller reading the entries does not pay.
pub trait KeepGradient {
    /// The first entry; every entry kept.
    fn keep_first(self) -> f64;
}

impl KeepGradient for Vec<f64> {
    #[inline(always)]
    fn keep_first(self) -> f64 {
        black_box(self.as_slice())[0]
    }
}

impl<const N: usize> KeepGradient for [f64; N] {
    #[inline(always)]
    fn keep_first(self) -> f64 {
        black_box(self)[0]
    }
}

/// A named variant: a closure returning a value to keep alive.
pub type Variant<'a> = (&'a str, Box<dyn FnMut() -> f64 + 'a>);

/// Times every variant, interleaving their samples. Returns one [`Stat`] per variant.
pub fn measure(plan: Plan, variants: &mut [Variant<'_>]) -> Vec<Stat> {
    measure_samples(plan, variants)
        .into_iter()
        .map(|mut s| {
            s.sort_by(f64::total_cmp);
            Stat {
                min: s[0],
                median: s[s.len() / 2],
            }
        })
        .collect()
}

/// Times every variant, interleaving their samples: sample `k` of every variant is taken
/// in round `k`, one variant after the other. Returns the per-call times (ns) of every
/// sample of every variant, in round order.
pub fn measure_samples(plan: Plan, variants: &mut [Variant<'_>]) -> Vec<Vec<f64>> {
    // Calibrate: iterations per sample for each variant (warm-up included).
    let iters: Vec<u64> = variants
        .iter_mut()
        .map(|(_, f)| {
            let mut n = 1u64;
            loop {
                let t = Instant::now();
                for _ in 0..n {
                    black_box(f());
                }
                let e = t.elapsed();
                if e >= plan.sample || n >= 1 << 30 {
                    break n;
                }
                let factor = if e.as_nanos() == 0 {
                    16.0
                } else {
                    (plan.sample.as_nanos() as f64 / e.as_nanos() as f64 * 1.2).clamp(1.5, 16.0)
                };
                n = ((n as f64) * factor).ceil() as u64;
            }
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(plan.samples); variants.len()];
    for _ in 0..plan.samples {
        for (k, (_, f)) in variants.iter_mut().enumerate() {
            let n = iters[k];
            let t = Instant::now();
            for _ in 0..n {
                black_box(f());
            }
            samples[k].push(t.elapsed().as_nanos() as f64 / n as f64);
        }
    }
    samples
}

/// A ratio of two variants' times from samples taken in the same rounds: the median of
/// the per-round ratios and their spread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioStat {
    /// The median over rounds of `a[k] / b[k]`.
    pub median: f64,
    /// The interquartile range of the per-round ratios divided by their median (0.05: the
    /// middle half of the rounds lies within 5 % of the median's size).
    pub spread: f64,
}

impl RatioStat {
    /// The ratio `a / b` of two variants' samples (as [`measure_samples`] returns them).
    ///
    /// # Panics
    /// If the sample lists are empty or differ in length.
    pub fn of(a: &[f64], b: &[f64]) -> Self {
        assert!(
            !a.is_empty() && a.len() == b.len(),
            "samples of the same rounds"
        );
        let mut r: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
        r.sort_by(f64::total_cmp);
        let q = |p: f64| {
            // Linear interpolation between order statistics.
            let h = p * (r.len() - 1) as f64;
            let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
            r[lo] + (h - lo as f64) * (r[hi] - r[lo])
        };
        let median = q(0.5);
        RatioStat {
            median,
            spread: (q(0.75) - q(0.25)) / median,
        }
    }
}

/// The median of a variant's samples.
pub fn median(s: &[f64]) -> f64 {
    let mut s = s.to_vec();
    s.sort_by(f64::total_cmp);
    s[s.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_every_variant() {
        let plan = Plan {
            sample: Duration::from_micros(50),
            samples: 3,
        };
        let mut x = 0.0;
        let stats = measure(
            plan,
            &mut [
                ("a", Box::new(|| 1.0)),
                (
                    "b",
                    Box::new(|| {
                        x += 1.0;
                        x
                    }),
                ),
            ],
        );
        assert_eq!(stats.len(), 2);
        assert!(stats.iter().all(|s| s.min <= s.median && s.min >= 0.0));
    }

    #[test]
    fn ratio_stat_is_the_median_of_per_round_ratios() {
        // Rounds where a is 2, 2, 2, 3, 1 times b: median 2, quartiles 2 and 2.
        let b = [10.0, 20.0, 40.0, 10.0, 30.0];
        let a = [20.0, 40.0, 80.0, 30.0, 30.0];
        let r = RatioStat::of(&a, &b);
        assert_eq!(r.median, 2.0);
        assert_eq!(r.spread, 0.0);
        // Ratios 1, 2, 3, 4, 5: quartiles 2 and 4, spread (4 - 2) / 3.
        let r = RatioStat::of(&[1.0, 2.0, 3.0, 4.0, 5.0], &[1.0; 5]);
        assert_eq!(r.median, 3.0);
        assert!((r.spread - 2.0 / 3.0).abs() < 1e-15);
    }
}
