//! Implicit differentiation: the tangent of a root `x*(p)` of `g(x, p) = 0` from the
//! implicit-function theorem, `dx* = -(∂g/∂x)⁻¹ ∂g/∂p · dp`, without differentiating the
//! iterations that found it.
//!
//! Call [`implicit_root`] (one unknown) or [`implicit_system`] (a small dense system,
//! `x: [f64; N]`) on the root your solver returned, inside a `#[derive_frule]` body. Its
//! value is the root as given, bit for bit; its tangent comes from the residual's own
//! derived rule, evaluated at the root (the runtime cannot run `#[derive_frule]` in its
//! own doctests: this code is tested in `tests/implicit_root.rs`, and
//! `examples/implicit_root.rs` is a longer story; see also `docs/implicit.md`):
//!
//! ```ignore
//! use fwdad::prelude::*;
//! use fwdad::{implicit_root, Residual};
//!
//! /// Kepler's equation `E - e sin E = M` as a residual in the eccentric anomaly `E`.
//! #[derive_frule]
//! fn kepler(ecc_anomaly: f64, p: (f64, f64)) -> f64 {
//!     let (mean_anomaly, e) = p;
//!     ecc_anomaly - e * ecc_anomaly.sin() - mean_anomaly
//! }
//!
//! /// Newton's method: the derivative of the stopping rule is not the derivative of `E`,
//! /// so the iterations are not differentiated.
//! #[non_differentiable]
//! fn solve_kepler(mean_anomaly: f64, e: f64) -> f64 {
//!     let mut x = mean_anomaly;
//!     for _ in 0..50 {
//!         let step = (x - e * x.sin() - mean_anomaly) / (1.0 - e * x.cos());
//!         x -= step;
//!         if step.abs() < 1e-15 {
//!             break;
//!         }
//!     }
//!     x
//! }
//!
//! /// The true anomaly of an orbit at mean anomaly `m` and eccentricity `e`.
//! #[derive_frule]
//! fn true_anomaly(m: f64, e: f64) -> f64 {
//!     let ecc_anomaly = solve_kepler(m, e);
//!     let ecc_anomaly = implicit_root(Residual(kepler {}), ecc_anomaly, (m, e));
//!     2.0 * (((1.0 + e) / (1.0 - e)).sqrt() * (ecc_anomaly / 2.0).tan()).atan()
//! }
//!
//! let (m, e) = (1.0, 0.3);
//! let y = true_anomaly_frule(Dual::new(m, 1.0), Dual::new(e, 0.0));
//! assert_eq!(y.primal, true_anomaly(m, e));
//! // dν/dM = (1 + e cos ν)² / (1 - e²)^{3/2}
//! let nu = y.primal;
//! let want = (1.0 + e * nu.cos()).powi(2) / (1.0 - e * e).powf(1.5);
//! assert!((y.tangent - want).abs() < 1e-12);
//! ```
//!
//! * The residual is a function with a forward rule (`#[derive_frule]`, `#[primitive]`)
//!   taking the unknown first and the parameters second, `g(x: f64, p: P) -> f64`, or
//!   `g(x: [f64; N], p: P) -> [f64; N]` for a system; pass its rule marker, the braced
//!   `g {}` that `#[derive_frule]` declares next to `g` (as for the drivers), wrapped in
//!   [`Residual`].
//! * The parameters `p` are one value that owns its data: a float, a tuple, an array or a
//!   `Vec` (for a slice parameter, `p.to_vec()`). The root's tangent is taken along the
//!   tangents `p` carries; whatever tangent the root itself carries (the solver's, if it
//!   was differentiated) is replaced.
//! * The solver is anything: a `#[non_differentiable]` function (as above: no tangent
//!   work in the iterations at all), a loop in the derived body itself (differentiated,
//!   then discarded), a library call behind a `#[non_differentiable]` wrapper.
//! * `∂g/∂x` must be invertible at the root; a singular Jacobian gives infinite or NaN
//!   tangents (the root does not depend smoothly on `p` there).
//!
//! How: with `J = ∂g/∂x` at `(x*, p)` (one pass of the residual's rule in one direction,
//! or a batch of `N` directions for a system), the root's tangent `t` starts at zero and
//! takes chord-Newton steps on duals, `t ← t - J⁻¹·tangent(g(x* + t, p + dp))`, the primal
//! held at `x*`. One step gives `-J⁻¹ ∂g/∂p·dp`, exact in first order (one direction and
//! batches); each step gains one order, so second order (`Hyper`) takes two, which then
//! include the `∂²g` terms of `d²x*`. The residual's rule is evaluated twice in first
//! order (once for `J`), three times in second order.

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::frule::Frule;
use crate::tangent::{Batch, Mode, NoTangent, ScalarTangent};
use core::any::TypeId;

/// A residual `g(x, p)` given to [`implicit_root`] or [`implicit_system`]: its rule
/// marker, `Residual(g {})`.
///
/// It carries no tangent (a function is not differentiated with respect to itself).
#[derive(Clone, Copy, Debug, Default)]
pub struct Residual<G>(pub G);

impl<G> Differentiable for Residual<G> {
    type Tangent = NoTangent;
    type TangentIn<S: Mode> = NoTangent;
}

impl<G> ZeroTangent for Residual<G> {
    #[inline(always)]
    fn zero_tangent(&self) -> NoTangent {
        NoTangent
    }
    #[inline(always)]
    fn zero_tangent_in<S: Mode>(&self) -> NoTangent {
        NoTangent
    }
}

/// The root `x` of `residual(x, p) = 0`, returned as it is; in a `#[derive_frule]` body
/// its tangent is the implicit-function theorem's, `-(∂g/∂x)⁻¹ ∂g/∂p · dp` (see the
/// [module docs](self)).
#[inline(always)]
pub fn implicit_root<G, P>(residual: Residual<G>, x: f64, p: P) -> f64 {
    let _ = (residual, p);
    x
}

/// The root `x` of the system `residual(x, p) = 0` (`N` equations in `N` unknowns),
/// returned as it is; in a `#[derive_frule]` body its tangent is the implicit-function
/// theorem's, `-(∂g/∂x)⁻¹ ∂g/∂p · dp` (see the [module docs](self)).
#[inline(always)]
pub fn implicit_system<G, P, const N: usize>(residual: Residual<G>, x: [f64; N], p: P) -> [f64; N] {
    let _ = (residual, p);
    x
}

/// Chord-Newton steps on duals that make the root's tangent exact: one for first-order
/// modes, two for second order. A mode that is neither one direction nor a batch of
/// several gets two (always exact; the second step of a first-order mode changes
/// nothing but rounding).
#[inline(always)]
fn steps<S: Mode>() -> usize {
    if TypeId::of::<S>() == TypeId::of::<f64>() || S::LINEARIZE {
        1
    } else {
        2
    }
}

#[doc(hidden)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, Default)]
pub struct implicit_root {}

impl<G, P, S>
    Frule<
        (
            Dual<Residual<G>, NoTangent>,
            Dual<f64, S>,
            Dual<P, P::TangentIn<S>>,
        ),
        S,
    > for implicit_root
where
    S: Mode,
    P: ZeroTangent + Clone,
    P::TangentIn<S>: Clone,
    G: Frule<(Dual<f64, f64>, Dual<P, P::TangentIn<f64>>), f64, Output = Dual<f64, f64>>
        + Frule<(Dual<f64, S>, Dual<P, P::TangentIn<S>>), S, Output = Dual<f64, S>>,
{
    type Output = Dual<f64, S>;

    fn frule(
        &self,
        (g, x, p): (
            Dual<Residual<G>, NoTangent>,
            Dual<f64, S>,
            Dual<P, P::TangentIn<S>>,
        ),
    ) -> Dual<f64, S> {
        let g = g.primal.0;
        let x = x.primal;
        // ∂g/∂x at the root: one direction along x, p held constant.
        let p_const = Dual::new(p.primal.clone(), p.primal.zero_tangent_in::<f64>());
        let j = Frule::<_, f64>::frule(&g, (Dual::new(x, 1.0), p_const)).tangent;
        let inv_j = j.recip();
        let mut t = S::zero();
        for _ in 0..steps::<S>() {
            let r = Frule::<_, S>::frule(&g, (Dual::new(x, t), p.clone())).tangent;
            t = t.sub(r.scale(inv_j));
        }
        Dual::new(x, t)
    }
}

#[doc(hidden)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, Default)]
pub struct implicit_system {}

impl<G, P, S, const N: usize>
    Frule<
        (
            Dual<Residual<G>, NoTangent>,
            Dual<[f64; N], [S; N]>,
            Dual<P, P::TangentIn<S>>,
        ),
        S,
    > for implicit_system
where
    S: Mode,
    P: ZeroTangent + Clone,
    P::TangentIn<S>: Clone,
    G: Frule<
            (
                Dual<[f64; N], [Batch<f64, N>; N]>,
                Dual<P, P::TangentIn<Batch<f64, N>>>,
            ),
            Batch<f64, N>,
            Output = Dual<[f64; N], [Batch<f64, N>; N]>,
        > + Frule<
            (Dual<[f64; N], [S; N]>, Dual<P, P::TangentIn<S>>),
            S,
            Output = Dual<[f64; N], [S; N]>,
        >,
{
    type Output = Dual<[f64; N], [S; N]>;

    fn frule(
        &self,
        (g, x, p): (
            Dual<Residual<G>, NoTangent>,
            Dual<[f64; N], [S; N]>,
            Dual<P, P::TangentIn<S>>,
        ),
    ) -> Dual<[f64; N], [S; N]> {
        let g = g.primal.0;
        let x = x.primal;
        // ∂g/∂x at the root in one pass: the N unit directions of x, p held constant.
        let seeds: [Batch<f64, N>; N] = core::array::from_fn(Batch::unit);
        let p_const = Dual::new(
            p.primal.clone(),
            p.primal.zero_tangent_in::<Batch<f64, N>>(),
        );
        let jac = Frule::<_, Batch<f64, N>>::frule(&g, (Dual::new(x, seeds), p_const)).tangent;
        // Row i of J is ∂g_i/∂x: lane k of output i's tangent.
        let lu = Lu::factor(core::array::from_fn(|i| jac[i].0));
        let mut t = [S::zero(); N];
        for _ in 0..steps::<S>() {
            let r = Frule::<_, S>::frule(&g, (Dual::new(x, t), p.clone())).tangent;
            let dt = lu.solve(r);
            t = core::array::from_fn(|i| t[i].sub(dt[i]));
        }
        Dual::new(x, t)
    }
}

/// An LU factorisation with partial pivoting of a small dense matrix, `P·A = L·U`, that
/// solves with right-hand sides of tangents (any [`ScalarTangent`], linear in them).
struct Lu<const N: usize> {
    /// `U` on and above the diagonal, `L`'s multipliers below (unit diagonal implied).
    a: [[f64; N]; N],
    /// Row `i` of `P·A` is row `perm[i]` of `A`.
    perm: [usize; N],
}

impl<const N: usize> Lu<N> {
    // Row operations read two rows of `a` at once: indices, as the elimination is written.
    #[allow(clippy::needless_range_loop)]
    fn factor(mut a: [[f64; N]; N]) -> Self {
        let mut perm: [usize; N] = core::array::from_fn(|i| i);
        for k in 0..N {
            let pivot = (k..N)
                .max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))
                .unwrap_or(k);
            a.swap(k, pivot);
            perm.swap(k, pivot);
            for i in (k + 1)..N {
                let m = a[i][k] / a[k][k];
                a[i][k] = m;
                for j in (k + 1)..N {
                    a[i][j] -= m * a[k][j];
                }
            }
        }
        Lu { a, perm }
    }

    /// `A⁻¹ b`.
    fn solve<S: ScalarTangent<f64>>(&self, b: [S; N]) -> [S; N] {
        let a = &self.a;
        let mut y: [S; N] = core::array::from_fn(|i| b[self.perm[i]]);
        for i in 0..N {
            for j in 0..i {
                y[i] = y[i].sub(y[j].scale(a[i][j]));
            }
        }
        for i in (0..N).rev() {
            for j in (i + 1)..N {
                y[i] = y[i].sub(y[j].scale(a[i][j]));
            }
            y[i] = y[i].scale(a[i][i].recip());
        }
        y
    }
}
