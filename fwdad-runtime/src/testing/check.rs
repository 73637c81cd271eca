//! The individual checks behind [`check_frule`](super::check_frule): primal state, tangent
//! shape, and agreement with central finite differences. Each returns the first failure as
//! a [`TestFailure`] with the values involved.

use super::{Check, TestConfig, TestFailure, TestTangent};
use crate::tangent::TangentSpace;
use core::fmt::{Debug, Write as _};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Where in a test run a check happens, for messages.
#[derive(Clone, Copy, Debug)]
pub(super) struct Site {
    pub draw: usize,
    pub lane: Option<usize>,
}

impl core::fmt::Display for Site {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "draw {}", self.draw)?;
        if let Some(k) = self.lane {
            write!(f, ", batch lane {k}")?;
        }
        Ok(())
    }
}

/// The seeded generator of one test run.
pub(super) fn rng(config: &TestConfig) -> StdRng {
    StdRng::seed_from_u64(config.seed)
}

/// `g(x)`: runs `f` on a copy of `x`, returning the arguments after the call and the result.
pub(super) fn run<A: Clone, R>(f: &mut impl FnMut(&mut A) -> R, x: &A) -> (A, R) {
    let mut a = x.clone();
    let y = f(&mut a);
    (a, y)
}

/// Checks 1 and 2: the rule leaves every primal as the function does, bit for bit.
pub(super) fn primal_state<A: TestTangent, R: TestTangent>(
    at: Site,
    args: &A,
    (a_f, y_f): (&A, &R),
    (a_r, y_r): (&A, &R),
) -> Result<(), TestFailure> {
    if !a_r.bitwise_eq(a_f) {
        return Err(TestFailure {
            check: Check::ArgumentState,
            message: format!(
                "the arguments after the rule differ from the arguments after the function \
                 ({at})\n  arguments before:        {args:?}\n  after the function:      \
                 {a_f:?}\n  after the rule:          {a_r:?}"
            ),
        });
    }
    if !y_r.bitwise_eq(y_f) {
        return Err(TestFailure {
            check: Check::OutputPrimal,
            message: format!(
                "the rule's primal result is not bit-identical to the function's ({at})\n  \
                 arguments:     {args:?}\n  function:      {y_f:?}\n  rule:          {y_r:?}"
            ),
        });
    }
    Ok(())
}

/// Check 3 for one direction `dx`: the tangents the rule left (`da` in the arguments, `dy`
/// for the result) against central differences of `g` along `dx`.
#[allow(clippy::too_many_arguments)] // one call site per mode; a struct would only rename them
pub(super) fn tangents<A, R>(
    config: &TestConfig,
    at: Site,
    rng: &mut StdRng,
    f: &mut impl FnMut(&mut A) -> R,
    args: &A,
    dx: &A::Tangent,
    (a_f, y_f): (&A, &R),
    (da, dy): (&A::Tangent, &R::Tangent),
) -> Result<(), TestFailure>
where
    A: TestTangent,
    R: TestTangent,
    A::Tangent: TangentSpace + Debug,
    R::Tangent: TangentSpace + Debug,
{
    if !a_f.matches_tangent(da) || !y_f.matches_tangent(dy) {
        return Err(TestFailure {
            check: Check::TangentShape,
            message: format!(
                "a tangent left by the rule does not have the shape of its primal ({at})\n  \
                 arguments after the call: {a_f:?}\n  their tangents:           {da:?}\n  \
                 result:                   {y_f:?}\n  its tangent:              {dy:?}"
            ),
        });
    }
    if config.steps.is_empty() {
        return Err(TestFailure {
            check: Check::OutputTangent,
            message: "`TestConfig::steps` is empty: there is no finite difference to compare \
                      with"
                .to_string(),
        });
    }
    // The random directions of the inner products (Mooncake: one scalar per side).
    let ra = a_f.randn_tangent(rng);
    let ry = y_f.randn_tangent(rng);

    let fds: Vec<(f64, A::Tangent, R::Tangent)> = config
        .steps
        .iter()
        .map(|&h| {
            let (ap, yp) = run(f, &args.add_to_primal(dx, h));
            let (am, ym) = run(f, &args.add_to_primal(dx, -h));
            let (mut fd_a, mut fd_y) = (ap.diff(&am), yp.diff(&ym));
            fd_a.scale_by(0.5 / h);
            fd_y.scale_by(0.5 / h);
            (h, fd_a, fd_y)
        })
        .collect();

    let parts = [
        Part {
            check: Check::OutputTangent,
            ad: ry.dot(dy),
            norm_r: norm(&ry),
            norm_ad: norm(dy),
            fd: fds
                .iter()
                .map(|(h, _, y)| (*h, ry.dot(y), norm(y)))
                .collect(),
        },
        Part {
            check: Check::ArgumentTangent,
            ad: ra.dot(da),
            norm_r: norm(&ra),
            norm_ad: norm(da),
            fd: fds
                .iter()
                .map(|(h, a, _)| (*h, ra.dot(a), norm(a)))
                .collect(),
        },
    ];
    for part in &parts {
        if let Some(best) = part.failure(config) {
            let (ad_t, fd_t): (&dyn Debug, &dyn Debug) = match part.check {
                Check::OutputTangent => (dy, &fds[best].2),
                _ => (da, &fds[best].1),
            };
            let mut message = format!(
                "the {} disagree{} with central finite differences ({at})\n  arguments: \
                 {args:?}\n  direction: {dx:?}\n  rule:      {ad_t:?}\n  finite \
                 difference (ε = {:e}): {fd_t:?}\n  inner products with a random direction: \
                 rule {:e}",
                part.check,
                if part.check == Check::OutputTangent {
                    "s"
                } else {
                    ""
                },
                fds[best].0,
                part.ad,
            );
            for (h, fd, _) in &part.fd {
                let _ = write!(message, "\n    finite difference, ε = {h:e}: {fd:e}");
            }
            let _ = write!(
                message,
                "\n  tolerances: max_relative = {:e}, epsilon = {:e}",
                config.max_relative, config.epsilon
            );
            return Err(TestFailure {
                check: part.check,
                message,
            });
        }
    }
    Ok(())
}

/// One side of check 3 (the output, or the argument buffers).
struct Part {
    check: Check,
    /// `⟨r, rule's tangent⟩`.
    ad: f64,
    norm_r: f64,
    norm_ad: f64,
    /// `(ε, ⟨r, finite difference⟩, ‖finite difference‖)` per step.
    fd: Vec<(f64, f64, f64)>,
}

impl Part {
    /// `None` if some step agrees; otherwise the index of the closest step, to report.
    fn failure(&self, config: &TestConfig) -> Option<usize> {
        let agrees = |&(_, fd, norm_fd): &(f64, f64, f64)| {
            // By Cauchy–Schwarz, |⟨r, t⟩| <= ‖r‖‖t‖; tolerating `max_relative` of that bound
            // keeps a check whose inner product cancels as strict as one whose does not.
            let scale = self.norm_r * self.norm_ad.max(norm_fd);
            self.ad.is_finite()
                && fd.is_finite()
                && scale.is_finite()
                && approx::relative_eq!(
                    self.ad,
                    fd,
                    epsilon = config.epsilon + config.max_relative * scale,
                    max_relative = config.max_relative
                )
        };
        if self.fd.iter().any(agrees) {
            return None;
        }
        let err = |fd: f64| {
            let e = (self.ad - fd).abs();
            if e.is_nan() {
                f64::INFINITY
            } else {
                e
            }
        };
        let best = (0..self.fd.len())
            .min_by(|&i, &j| err(self.fd[i].1).total_cmp(&err(self.fd[j].1)))
            .unwrap_or(0);
        Some(best)
    }
}

fn norm<T: TangentSpace>(t: &T) -> f64 {
    t.dot(t).sqrt()
}
