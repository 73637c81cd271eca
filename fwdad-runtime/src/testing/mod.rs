//! Test utilities for forward rules: the forward-mode analogue of Mooncake's
//! `TestUtils.test_rule`.
//!
//! [`test_frule`] runs a function and its rule on the same arguments, for several random
//! tangent directions (seeded, so a failure reproduces), and checks that
//! 1. every argument's primal state after the rule equals, bit for bit, its state after the
//!    function (mutated arguments included: a rule must leave primals as `f` leaves them);
//! 2. the rule's output primal is bit-identical to the function's result;
//! 3. the directional derivative agrees with central finite differences
//!    `(g(x + εt) − g(x − εt)) / 2ε`, where `g` maps the arguments to *(arguments after the
//!    call, result)*: the output tangent, and the tangents the rule leaves in the argument
//!    buffers (propagated tangents for mutated buffers, the input tangent for the others).
//!    Both sides are compared through inner products with random directions (Mooncake's
//!    approach: one scalar per side, no per-element tolerance to tune), over a grid of step
//!    sizes `ε`; the check passes if one step agrees, since the best step depends on the
//!    function's curvature and scale.
//!
//! The arguments are passed as one owned value (a tuple, usually) and the closures borrow
//! from it, so functions taking `&[f64]` or `&mut [f64]` are tested by owning a `Vec<f64>`;
//! the same closures serve the primal and the rule.
//!
//! ```
//! use fwdad_runtime::testing::{test_frule, test_frule_batched};
//! use fwdad_runtime::{Dual, ScalarTangent};
//!
//! /// k · Σ xᵢ², and the energy is also written into `out[0]`.
//! fn energy(x: &[f64], k: f64, out: &mut [f64]) -> f64 {
//!     let mut s = 0.0;
//!     for v in x {
//!         s += v * v;
//!     }
//!     out[0] = k * s;
//!     k * s
//! }
//!
//! /// Its hand-written rule, generic over the tangent representation.
//! fn energy_frule<T: ScalarTangent<f64>>(
//!     x: Dual<&[f64], &[T]>,
//!     k: Dual<f64, T>,
//!     out: Dual<&mut [f64], &mut [T]>,
//! ) -> Dual<f64, T> {
//!     let mut s = Dual::new(0.0, T::zero());
//!     for i in 0..x.len() {
//!         let v = x.at(i).copied();
//!         s += v * v;
//!     }
//!     let e = k * s;
//!     out.primal[0] = e.primal;
//!     out.tangent[0] = e.tangent;
//!     e
//! }
//!
//! let args = (vec![0.5, -1.5, 2.0], 0.7, vec![0.0]);
//! test_frule(
//!     args.clone(),
//!     |a| energy(&a.0, a.1, &mut a.2),
//!     |a, da| {
//!         energy_frule(
//!             Dual::new(&a.0[..], &da.0[..]),
//!             Dual::new(a.1, da.1),
//!             Dual::new(&mut a.2[..], &mut da.2[..]),
//!         )
//!     },
//! );
//! // The same rule in batch mode: 4 directions in one pass, each checked on its own.
//! test_frule_batched::<4, _, _>(
//!     args,
//!     |a| energy(&a.0, a.1, &mut a.2),
//!     |a, da| {
//!         energy_frule(
//!             Dual::new(&a.0[..], &da.0[..]),
//!             Dual::new(a.1, da.1),
//!             Dual::new(&mut a.2[..], &mut da.2[..]),
//!         )
//!     },
//! );
//! ```
//!
//! An inactive argument (one the rule treats as a constant, like `c` in `ops::mul(x, c)`)
//! is captured by the closures instead of being part of `args`, so that finite differences
//! do not perturb it either.
//!
//! [`check_frule`] and [`check_frule_batched`] return the first failed check as a
//! [`TestFailure`] instead of panicking, for tests that expect a rule to be wrong.

//!
//! Everything here but [`TestTangent`] needs the `testing` feature (which brings `rand` and
//! `approx`): `fwdad = { .., features = ["testing"] }` in `[dev-dependencies]`.
//! `#[derive(Differentiable)]` implements [`TestTangent`] in every build, so the trait is
//! always there; without the feature no generator can be passed to
//! [`TestTangent::randn_tangent`].

// Without the feature these docs name items that are compiled out (the module is hidden
// from the docs then).
#![cfg_attr(not(feature = "testing"), allow(rustdoc::broken_intra_doc_links))]

#[cfg(feature = "testing")]
mod check;
mod test_tangent;

/// `rand`'s random number generator trait, which [`TestTangent::randn_tangent`] takes: implementing
/// [`TestTangent`] by hand (or by `#[derive(Differentiable)]`) needs no direct `rand` dependency.
#[cfg(feature = "testing")]
pub use rand::Rng;
#[cfg(not(feature = "testing"))]
#[doc(hidden)]
pub use test_tangent::NoRng as Rng;
pub use test_tangent::{randn, Precision, TestTangent};

#[cfg(feature = "testing")]
use crate::dual::Dual;
#[cfg(feature = "testing")]
use crate::tangent::{Batch, TangentSpace};
#[cfg(feature = "testing")]
use core::fmt::{self, Debug};

/// Knobs of [`test_frule`]; the defaults depend on the precision of the types under test
/// ([`TestConfig::for_types`]).
///
/// Finite differences agree with a derivative only up to a truncation error `O(ε²)` and a
/// rounding error `O(u/ε)` (`u` the unit roundoff), so `f32` needs larger steps and looser
/// tolerances than `f64`.
#[cfg(feature = "testing")]
#[derive(Clone, Debug, PartialEq)]
pub struct TestConfig {
    /// Number of random tangent draws (each a full check).
    pub draws: usize,
    /// Finite-difference step sizes; a check passes if it agrees at one of them.
    pub steps: Vec<f64>,
    /// Relative tolerance, applied to the inner products *and* to the size of the tangents
    /// (so an inner product that happens to cancel is not held to a relative tolerance of
    /// its own, tiny, size).
    pub max_relative: f64,
    /// Absolute tolerance, for values near zero.
    pub epsilon: f64,
    /// Seed of the random number generator: the same seed gives the same draws.
    pub seed: u64,
}

#[cfg(feature = "testing")]
impl TestConfig {
    /// Defaults for `f64` arguments and results.
    pub fn f64() -> Self {
        TestConfig {
            draws: 3,
            steps: vec![1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8],
            max_relative: 1e-6,
            epsilon: 1e-9,
            seed: 0x5EED_F0D0,
        }
    }

    /// Defaults when some argument or result holds an `f32`.
    pub fn f32() -> Self {
        TestConfig {
            steps: vec![1e-1, 3e-2, 1e-2, 3e-3, 1e-3, 3e-4, 1e-4],
            max_relative: 1e-3,
            epsilon: 1e-5,
            ..Self::f64()
        }
    }

    /// The defaults for arguments `A` and result `R`: [`f32`](Self::f32) if either holds an
    /// `f32`, else [`f64`](Self::f64).
    pub fn for_types<A: TestTangent, R: TestTangent>() -> Self {
        match A::PRECISION.coarser(R::PRECISION) {
            Precision::F32 => Self::f32(),
            Precision::F64 | Precision::Discrete => Self::f64(),
        }
    }
}

/// Which check of [`check_frule`] failed.
#[cfg(feature = "testing")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// A tangent left by the rule does not have the shape of its primal (a `Vec` of another
    /// length, another `Option` variant).
    TangentShape,
    /// An argument's primal state after the rule differs from its state after the function.
    ArgumentState,
    /// The rule's output primal differs from the function's result.
    OutputPrimal,
    /// The tangents left in the argument buffers disagree with finite differences.
    ArgumentTangent,
    /// The output tangent disagrees with finite differences.
    OutputTangent,
}

#[cfg(feature = "testing")]
impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Check::TangentShape => "tangent shape",
            Check::ArgumentState => "argument primal state",
            Check::OutputPrimal => "output primal",
            Check::ArgumentTangent => "argument tangents",
            Check::OutputTangent => "output tangent",
        })
    }
}

/// A failed check: which one, and a message with the values involved.
#[cfg(feature = "testing")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestFailure {
    /// The check that failed.
    pub check: Check,
    /// What was compared, and where (draw, batch lane, arguments).
    pub message: String,
}

#[cfg(feature = "testing")]
impl fmt::Display for TestFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "forward rule failed the {} check: {}",
            self.check, self.message
        )
    }
}

#[cfg(feature = "testing")]
impl std::error::Error for TestFailure {}

/// Checks a rule against its function with the default [`TestConfig`] for the types; panics
/// with a description of the first failed check.
///
/// `f` runs the function on (borrows of) `args`; `rule` runs the rule on the same
/// arguments and their tangents, which it may write (mutated buffers). See the
/// [module docs](self) for what is checked.
///
/// # Panics
/// If a check fails.
#[cfg(feature = "testing")]
#[track_caller]
pub fn test_frule<A, R>(
    args: A,
    f: impl FnMut(&mut A) -> R,
    rule: impl FnMut(&mut A, &mut A::Tangent) -> Dual<R, R::Tangent>,
) where
    A: TestTangent,
    R: TestTangent,
    A::Tangent: TangentSpace + Clone + Debug,
    R::Tangent: TangentSpace + Debug,
{
    test_frule_with(&TestConfig::for_types::<A, R>(), args, f, rule);
}

/// [`test_frule`] with an explicit configuration.
///
/// # Panics
/// If a check fails.
#[cfg(feature = "testing")]
#[track_caller]
pub fn test_frule_with<A, R>(
    config: &TestConfig,
    args: A,
    f: impl FnMut(&mut A) -> R,
    rule: impl FnMut(&mut A, &mut A::Tangent) -> Dual<R, R::Tangent>,
) where
    A: TestTangent,
    R: TestTangent,
    A::Tangent: TangentSpace + Clone + Debug,
    R::Tangent: TangentSpace + Debug,
{
    if let Err(e) = check_frule(config, args, f, rule) {
        panic!("{e}");
    }
}

/// The checks of [`test_frule`], returning the first failure instead of panicking.
#[cfg(feature = "testing")]
pub fn check_frule<A, R>(
    config: &TestConfig,
    args: A,
    mut f: impl FnMut(&mut A) -> R,
    mut rule: impl FnMut(&mut A, &mut A::Tangent) -> Dual<R, R::Tangent>,
) -> Result<(), TestFailure>
where
    A: TestTangent,
    R: TestTangent,
    A::Tangent: TangentSpace + Clone + Debug,
    R::Tangent: TangentSpace + Debug,
{
    let mut rng = check::rng(config);
    for draw in 0..config.draws {
        let at = check::Site { draw, lane: None };
        let dx = args.randn_tangent(&mut rng);
        let (a_f, y_f) = check::run(&mut f, &args);
        let mut a_r = args.clone();
        let mut da = dx.clone();
        let out = rule(&mut a_r, &mut da);
        check::primal_state(at, &args, (&a_f, &y_f), (&a_r, &out.primal))?;
        check::tangents(
            config,
            at,
            &mut rng,
            &mut f,
            &args,
            &dx,
            (&a_f, &y_f),
            (&da, &out.tangent),
        )?;
    }
    Ok(())
}

/// Checks a batched rule (mode `Batch<f64, N>`: `N` directions in one pass) with the
/// default [`TestConfig`]: each draw packs `N` random directions, runs the rule once, and
/// checks every lane against finite differences along its own direction, as
/// [`test_frule`] checks one. `f32` leaves carry `Batch<f32, N>` tangents.
///
/// Call it as `test_frule_batched::<4, _, _>(args, f, rule)`.
///
/// # Panics
/// If a check fails.
#[cfg(feature = "testing")]
#[track_caller]
pub fn test_frule_batched<const N: usize, A, R>(
    args: A,
    f: impl FnMut(&mut A) -> R,
    rule: impl FnMut(&mut A, &mut A::TangentIn<Batch<f64, N>>) -> Dual<R, R::TangentIn<Batch<f64, N>>>,
) where
    A: TestTangent,
    R: TestTangent,
    A::Tangent: TangentSpace + Debug,
    R::Tangent: TangentSpace + Debug,
{
    test_frule_batched_with::<N, A, R>(&TestConfig::for_types::<A, R>(), args, f, rule);
}

/// [`test_frule_batched`] with an explicit configuration.
///
/// # Panics
/// If a check fails.
#[cfg(feature = "testing")]
#[track_caller]
pub fn test_frule_batched_with<const N: usize, A, R>(
    config: &TestConfig,
    args: A,
    f: impl FnMut(&mut A) -> R,
    rule: impl FnMut(&mut A, &mut A::TangentIn<Batch<f64, N>>) -> Dual<R, R::TangentIn<Batch<f64, N>>>,
) where
    A: TestTangent,
    R: TestTangent,
    A::Tangent: TangentSpace + Debug,
    R::Tangent: TangentSpace + Debug,
{
    if let Err(e) = check_frule_batched::<N, A, R>(config, args, f, rule) {
        panic!("{e}");
    }
}

/// The checks of [`test_frule_batched`], returning the first failure instead of panicking.
#[cfg(feature = "testing")]
pub fn check_frule_batched<const N: usize, A, R>(
    config: &TestConfig,
    args: A,
    mut f: impl FnMut(&mut A) -> R,
    mut rule: impl FnMut(
        &mut A,
        &mut A::TangentIn<Batch<f64, N>>,
    ) -> Dual<R, R::TangentIn<Batch<f64, N>>>,
) -> Result<(), TestFailure>
where
    A: TestTangent,
    R: TestTangent,
    A::Tangent: TangentSpace + Debug,
    R::Tangent: TangentSpace + Debug,
{
    let mut rng = check::rng(config);
    for draw in 0..config.draws {
        let dxs: [A::Tangent; N] = core::array::from_fn(|_| args.randn_tangent(&mut rng));
        let (a_f, y_f) = check::run(&mut f, &args);
        let mut a_r = args.clone();
        let mut da = A::batch_tangent(dxs.each_ref());
        let out = rule(&mut a_r, &mut da);
        check::primal_state(
            check::Site { draw, lane: None },
            &args,
            (&a_f, &y_f),
            (&a_r, &out.primal),
        )?;
        for (k, dx) in dxs.iter().enumerate() {
            check::tangents(
                config,
                check::Site {
                    draw,
                    lane: Some(k),
                },
                &mut rng,
                &mut f,
                &args,
                dx,
                (&a_f, &y_f),
                (&A::lane::<N>(&da, k), &R::lane::<N>(&out.tangent, k)),
            )?;
        }
    }
    Ok(())
}
