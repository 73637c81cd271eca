//! The drivers at a fixed size: [`jacobian_array`], [`hessian_array`] and [`hvp_array`]
//! take the point as an array `[f64; N]` and return arrays, on the stack, as num-dual's
//! drivers of an `SVector` return an `SMatrix`. The one-shot [`jacobian`](super::jacobian)
//! allocates its seeds, values and [`Matrix`](super::Matrix) per call, which on a 2 × 2
//! Jacobian of a few nanoseconds costs more than the derivative (BENCHMARKS.md, "Small
//! Jacobians and Hessians"); here the seeds are a table built at compile time (or, above
//! one pass, a stack array), nothing is allocated and nothing is read from thread-local
//! state.

use super::point::UnitSeeds;
use super::{Hyper2, SliceRule};
use fwdad_runtime::{Batch, Dual, Hyper, JacobianSink, Lanes, ScalarTangent};

/// Inputs up to which [`jacobian_array`] takes one pass of `N` lanes; above, passes of 16
/// (as [`jacobian_width`](super::jacobian_width)). Measured (BENCHMARKS.md, "Small
/// Jacobians and Hessians"): a Lorenz-96 right-hand side of 20 states in one pass of 20
/// lanes takes 0.40-0.42 × the time of passes of 16 (one pass of 32: 0.71); of 12 states,
/// passes of 4 or 8 lanes or one of 16 take 1.4-2.6 × one pass of 12.
pub const JACOBIAN_ARRAY_ONE_PASS: usize = 32;

/// Inputs up to which [`hessian_array`] takes rows in one chunk of `N` lanes (`N`
/// second-order passes); above, chunks of 8 ([`DEFAULT_WIDTH`](super::DEFAULT_WIDTH)).
/// Measured: up to 8 inputs `N` lanes are the fastest or within 5 % (2 or 4 lanes 0.95-1.53
/// ×, 16 lanes 1.7-3.4 ×); at 12, 12 lanes 0.96-1.13 × chunks of 8.
pub const HESSIAN_ARRAY_ONE_PASS: usize = 8;

/// Inputs up to which [`hvp_array`] takes one second-order pass of `N` lanes; above, passes
/// of 8 (as [`hvp_width`](super::hvp_width) up to 48). Measured: at 12 inputs one pass
/// takes 0.80-0.96 × passes of 8; below, `N` lanes are the fastest or within 1 %.
pub const HVP_ARRAY_ONE_PASS: usize = 12;

/// The result of a rule [`jacobian_array`] runs: an `f64` (`M = 1`) or an array
/// `[f64; M]`, read as `M` reals.
#[diagnostic::on_unimplemented(
    message = "`jacobian_array` needs a rule whose result is `f64` or `[f64; M]`, not `{Self}`",
    label = "the rule's result has no length known at compile time",
    note = "for a `Vec<f64>`, tuple or `inplace` result use `jacobian`, which returns a `Matrix`"
)]
pub trait ArrayOutput<const M: usize, S>: sealed::ArrayOutput {
    /// Real `i`'s value.
    #[doc(hidden)]
    fn value_at(&self, i: usize) -> f64;
    /// Real `i`'s tangent.
    #[doc(hidden)]
    fn tangent_at(&self, i: usize) -> S;
}

mod sealed {
    /// Seal of [`ArrayOutput`](super::ArrayOutput).
    pub trait ArrayOutput {}
}

impl<S, const M: usize> sealed::ArrayOutput for Dual<[f64; M], [S; M]> {}
impl<S: Copy, const M: usize> ArrayOutput<M, S> for Dual<[f64; M], [S; M]> {
    #[inline(always)]
    fn value_at(&self, i: usize) -> f64 {
        self.primal[i]
    }
    #[inline(always)]
    fn tangent_at(&self, i: usize) -> S {
        self.tangent[i]
    }
}

impl<S> sealed::ArrayOutput for Dual<f64, S> {}
impl<S: Copy> ArrayOutput<1, S> for Dual<f64, S> {
    #[inline(always)]
    fn value_at(&self, _: usize) -> f64 {
        self.primal
    }
    #[inline(always)]
    fn tangent_at(&self, _: usize) -> S {
        self.tangent
    }
}

/// The values and Jacobian a rule's Jacobian entry writes (`Frule::chain_jacobian`).
struct ArraySink<const N: usize, const M: usize> {
    values: [f64; M],
    jac: [[f64; N]; M],
}

impl<const N: usize, const M: usize> JacobianSink for ArraySink<N, M> {
    #[inline(always)]
    fn rows(&mut self, m: usize) {
        debug_assert_eq!(m, M, "an array result of M reals");
        *self = ArraySink {
            values: [0.0; M],
            jac: [[0.0; N]; M],
        };
    }
    #[inline(always)]
    fn value(&mut self, i: usize, v: f64) {
        self.values[i] = v;
    }
    #[inline(always)]
    fn add(&mut self, i: usize, j: usize, d: f64) {
        self.jac[i][j] += d;
    }
}

/// `(f(x), J(x))` at an array `x: [f64; N]` of a function with an `f64` or `[f64; M]`
/// result, `J[i][j] = ∂fᵢ/∂xⱼ` (row `i` the gradient of output `i`), in arrays on the
/// stack: one pass of `N` lanes up to [`JACOBIAN_ARRAY_ONE_PASS`] (32) inputs, passes of
/// 16 above; nothing allocated.
///
/// The same rule as [`jacobian`](super::jacobian)'s (`f(x: &[f64])`, or a function of
/// `&[f64; N]` through [`bind`](super::bind)), the same derivative to rounding (a one-pass
/// Jacobian is the same bit for bit at every width of two lanes or more), and the value is
/// `f(x)`'s bit for bit. For a robot's forward kinematics, an ODE right-hand side's
/// Jacobian in a Newton iteration, an EKF's linearisation at every step.
///
/// ```
/// use fwdad::drivers::jacobian_array;
/// use fwdad::prelude::*;
///
/// /// Tip of a planar arm of two links of lengths 1 and 0.5.
/// #[derive_frule]
/// fn tip(q: &[f64]) -> [f64; 2] {
///     let (l1, l2) = (1.0, 0.5);
///     [
///         l1 * q[0].cos() + l2 * (q[0] + q[1]).cos(),
///         l1 * q[0].sin() + l2 * (q[0] + q[1]).sin(),
///     ]
/// }
///
/// let q = [0.3, 0.9];
/// let (p, j): ([f64; 2], [[f64; 2]; 2]) = jacobian_array(tip {}, &q);
/// assert_eq!(p, tip(&q));
/// assert_eq!(j[0][1], -0.5 * (q[0] + q[1]).sin()); // ∂x/∂q₁
/// ```
#[inline(always)]
pub fn jacobian_array<F, const N: usize, const M: usize>(
    f: F,
    x: &[f64; N],
) -> ([f64; M], [[f64; N]; M])
where
    F: SliceRule<Batch<f64, N>, Output: ArrayOutput<M, Batch<f64, N>>>
        + SliceRule<Batch<f64, 16>, Output: ArrayOutput<M, Batch<f64, 16>>>,
{
    if N <= JACOBIAN_ARRAY_ONE_PASS {
        jacobian_array_with::<N, F, N, M>(f, x)
    } else {
        jacobian_array_with::<16, F, N, M>(f, x)
    }
}

/// [`jacobian_array`] in passes of `W` lanes (one pass if `W ≥ N`), for measuring widths:
/// `jacobian_array_with::<8, _, 3, 3>(f, &x)`.
#[doc(hidden)]
#[inline(always)]
pub fn jacobian_array_with<const W: usize, F, const N: usize, const M: usize>(
    f: F,
    x: &[f64; N],
) -> ([f64; M], [[f64; N]; M])
where
    F: SliceRule<Batch<f64, W>, Output: ArrayOutput<M, Batch<f64, W>>>,
{
    if W >= N {
        jacobian_one_pass::<F, N, M, W>(&f, x)
    } else {
        jacobian_chunks::<F, N, M, W>(&f, x)
    }
}

/// One pass of `W ≥ N` lanes seeded from [`UnitSeeds`], or the rule's Jacobian entry.
#[inline(always)]
fn jacobian_one_pass<F, const N: usize, const M: usize, const W: usize>(
    f: &F,
    x: &[f64; N],
) -> ([f64; M], [[f64; N]; M])
where
    F: SliceRule<Batch<f64, W>, Output: ArrayOutput<M, Batch<f64, W>>>,
{
    let seeds = &UnitSeeds::<W>::SEEDS[..N];
    let mut sink = ArraySink {
        values: [0.0; M],
        jac: [[0.0; N]; M],
    };
    if f.eval_jacobian(x, seeds, &mut sink) {
        return (sink.values, sink.jac);
    }
    let y = f.eval(x, seeds);
    let values = core::array::from_fn(|i| y.value_at(i));
    let jac = core::array::from_fn(|i| {
        let t = y.tangent_at(i);
        core::array::from_fn(|j| t.lane(j))
    });
    (values, jac)
}

/// Passes of `W` lanes over the `N` inputs, the seeds a stack array.
#[inline(never)]
fn jacobian_chunks<F, const N: usize, const M: usize, const W: usize>(
    f: &F,
    x: &[f64; N],
) -> ([f64; M], [[f64; N]; M])
where
    F: SliceRule<Batch<f64, W>, Output: ArrayOutput<M, Batch<f64, W>>>,
{
    let mut seeds = [Batch::<f64, W>::default(); N];
    let mut sink = ArraySink {
        values: [0.0; M],
        jac: [[0.0; N]; M],
    };
    if f.eval_jacobian(x, &seeds, &mut sink) {
        return (sink.values, sink.jac);
    }
    let (mut values, mut jac) = ([0.0; M], [[0.0; N]; M]);
    for start in (0..N).step_by(W) {
        let end = (start + W).min(N);
        for (lane, seed) in seeds[start..end].iter_mut().enumerate() {
            *seed = Batch::unit(lane);
        }
        let y = f.eval(x, &seeds);
        if start == 0 {
            values = core::array::from_fn(|i| y.value_at(i));
        }
        for (i, row) in jac.iter_mut().enumerate() {
            let t = y.tangent_at(i);
            for lane in 0..end - start {
                row[start + lane] = t.lane(lane);
            }
        }
        seeds[start..end].fill(Batch::default());
    }
    (values, jac)
}

/// `(f(x), ∇f(x), ∇²f(x))` at an array `x: [f64; N]` of a function `&[f64] → f64`, in
/// arrays on the stack: `N` second-order passes of `N` lanes (column `j` of the upper
/// triangle in pass `j`, mirrored: exactly symmetric) up to [`HESSIAN_ARRAY_ONE_PASS`]
/// (8) inputs, chunks of 8 above, as [`hessian`](super::hessian); nothing allocated.
///
/// The same rule as [`hessian`](super::hessian)'s; the value is `f(x)`'s bit for bit.
///
/// ```
/// use fwdad::drivers::hessian_array;
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn rosenbrock(x: &[f64]) -> f64 {
///     (1.0 - x[0]).powi(2) + 100.0 * (x[1] - x[0] * x[0]).powi(2)
/// }
///
/// let x = [0.5, 1.5];
/// let (v, g, h): (f64, [f64; 2], [[f64; 2]; 2]) = hessian_array(rosenbrock {}, &x);
/// assert_eq!(v, rosenbrock(&x));
/// assert_eq!(g[1], 200.0 * (1.5 - 0.25));
/// assert_eq!(h[0][1], -400.0 * 0.5);
/// assert_eq!(h[1][0], h[0][1]);
/// ```
#[inline(always)]
pub fn hessian_array<F, const N: usize>(f: F, x: &[f64; N]) -> (f64, [f64; N], [[f64; N]; N])
where
    F: SliceRule<Hyper2<N>, Output = Dual<f64, Hyper2<N>>>
        + SliceRule<Hyper2<8>, Output = Dual<f64, Hyper2<8>>>,
{
    if N <= HESSIAN_ARRAY_ONE_PASS {
        hessian_array_with::<N, F, N>(f, x)
    } else {
        hessian_array_with::<8, F, N>(f, x)
    }
}

/// [`hessian_array`] with rows in chunks of `W` lanes, for measuring widths.
#[doc(hidden)]
#[inline(always)]
pub fn hessian_array_with<const W: usize, F, const N: usize>(
    f: F,
    x: &[f64; N],
) -> (f64, [f64; N], [[f64; N]; N])
where
    F: SliceRule<Hyper2<W>, Output = Dual<f64, Hyper2<W>>>,
{
    hessian_chunks::<F, N, W>(&f, x)
}

/// Rows in chunks of `W` lanes of `d1`, column `j` in `d2`; the seeds a stack array.
// Row `r` indexes an entry and its mirror, `h[r][j]` and `h[j][r]`.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn hessian_chunks<F, const N: usize, const W: usize>(
    f: &F,
    x: &[f64; N],
) -> (f64, [f64; N], [[f64; N]; N])
where
    F: SliceRule<Hyper2<W>, Output = Dual<f64, Hyper2<W>>>,
{
    let mut seeds = [<Hyper2<W> as ScalarTangent<f64>>::zero(); N];
    let (mut grad, mut h) = ([0.0; N], [[0.0; N]; N]);
    if N == 0 {
        return (f.eval(x, &seeds).primal, grad, h);
    }
    let mut value = 0.0;
    for r0 in (0..N).step_by(W) {
        let r1 = (r0 + W).min(N);
        for (lane, seed) in seeds[r0..r1].iter_mut().enumerate() {
            seed.d1 = UnitSeeds::<W>::SEEDS[lane];
        }
        for j in r0..N {
            seeds[j].d2 = 1.0;
            let y = f.eval(x, &seeds);
            seeds[j].d2 = 0.0;
            if j == r0 {
                value = y.primal;
                grad[r0..r1].copy_from_slice(&y.tangent.d1.0[..r1 - r0]);
            }
            // Rows r ≤ j of column j: the upper triangle; the lower one is its mirror.
            for r in r0..r1.min(j + 1) {
                let v = y.tangent.d12.0[r - r0];
                h[r][j] = v;
                h[j][r] = v;
            }
        }
        for seed in &mut seeds[r0..r1] {
            seed.d1 = Batch::default();
        }
    }
    (value, grad, h)
}

/// `(f(x), ∇f(x), ∇²f(x)·v)` at an array `x: [f64; N]` of a function `&[f64] → f64`, in
/// arrays on the stack: one second-order pass of `N` lanes up to [`HVP_ARRAY_ONE_PASS`]
/// (12) inputs, passes of 8 above, as [`hvp`](super::hvp) up to 48 inputs; nothing
/// allocated.
///
/// ```
/// use fwdad::drivers::{hessian_array, hvp_array};
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn f(x: &[f64]) -> f64 {
///     x[0] * x[0] * x[1] + x[1].sin()
/// }
///
/// let (x, v) = ([2.0, 0.5], [1.0, -1.0]);
/// let (_, _, hv) = hvp_array(f {}, &x, &v);
/// let (_, _, h) = hessian_array(f {}, &x);
/// assert_eq!(hv, [h[0][0] - h[0][1], h[1][0] - h[1][1]]);
/// ```
#[inline(always)]
pub fn hvp_array<F, const N: usize>(f: F, x: &[f64; N], v: &[f64; N]) -> (f64, [f64; N], [f64; N])
where
    F: SliceRule<Hyper2<N>, Output = Dual<f64, Hyper2<N>>>
        + SliceRule<Hyper2<8>, Output = Dual<f64, Hyper2<8>>>,
{
    if N <= HVP_ARRAY_ONE_PASS {
        hvp_array_with::<N, F, N>(f, x, v)
    } else {
        hvp_array_with::<8, F, N>(f, x, v)
    }
}

/// [`hvp_array`] in passes of `W` lanes (one if `W ≥ N`), for measuring widths.
#[doc(hidden)]
#[inline(always)]
pub fn hvp_array_with<const W: usize, F, const N: usize>(
    f: F,
    x: &[f64; N],
    v: &[f64; N],
) -> (f64, [f64; N], [f64; N])
where
    F: SliceRule<Hyper2<W>, Output = Dual<f64, Hyper2<W>>>,
{
    hvp_chunks::<F, N, W>(&f, x, v)
}

/// `d2 = v` everywhere, `d1` the unit directions of a chunk of `W` inputs per pass.
#[inline(always)]
fn hvp_chunks<F, const N: usize, const W: usize>(
    f: &F,
    x: &[f64; N],
    v: &[f64; N],
) -> (f64, [f64; N], [f64; N])
where
    F: SliceRule<Hyper2<W>, Output = Dual<f64, Hyper2<W>>>,
{
    let mut seeds: [Hyper2<W>; N] = core::array::from_fn(|k| Hyper {
        d1: if W >= N {
            UnitSeeds::<W>::SEEDS[k]
        } else {
            Batch::default()
        },
        d2: v[k],
        d12: Batch::default(),
    });
    if W >= N {
        let y = f.eval(x, &seeds);
        let grad = core::array::from_fn(|k| y.tangent.d1.0[k]);
        let hv = core::array::from_fn(|k| y.tangent.d12.0[k]);
        return (y.primal, grad, hv);
    }
    let (mut grad, mut hv, mut value) = ([0.0; N], [0.0; N], 0.0);
    for r0 in (0..N).step_by(W) {
        let r1 = (r0 + W).min(N);
        for (lane, seed) in seeds[r0..r1].iter_mut().enumerate() {
            seed.d1 = UnitSeeds::<W>::SEEDS[lane];
        }
        let y = f.eval(x, &seeds);
        if r0 == 0 {
            value = y.primal;
        }
        grad[r0..r1].copy_from_slice(&y.tangent.d1.0[..r1 - r0]);
        hv[r0..r1].copy_from_slice(&y.tangent.d12.0[..r1 - r0]);
        for seed in &mut seeds[r0..r1] {
            seed.d1 = Batch::default();
        }
    }
    (value, grad, hv)
}
