//! Drivers at `f32` points: [`derivative_f32`], [`gradient_f32`], [`jacobian_f32`].
//!
//! Separate entry points, not a `derivative` generic over the float: with a point generic
//! over `f32` and `f64`, an untyped literal (`derivative(bind(f {}, (Var(0),)), 320.0)`,
//! `gradient(f {}, &[1.0, 2.0])`) leaves the float undecided until rustc's fallback to
//! `f64`, which comes after the results are used (`d.abs()`), so every such call would need
//! a suffix. The `f64` drivers keep `f64` points; these take `f32` ones and run the rule
//! in the mode of `f64` (whose tangent of an `f32` is an `f32`, of a batch of `N` `f64`
//! lanes a `Batch<f32, N>`), as the rule of an `f32` function is written.

use fwdad_runtime::{Batch, Differentiable, Dual, Frule};

/// The value and the derivative of a function of one `f32`, in one pass: [`derivative`]
/// for `f32` code (`fn brightness(t: f32) -> Vec3` with the feature `glam-f32`).
///
/// [`derivative`]: super::derivative
///
/// ```
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn ease(t: f32) -> f32 {
///     t * t * (3.0 - 2.0 * t)
/// }
///
/// let (y, dy) = derivative_f32(ease {}, 0.25);
/// assert_eq!(y, ease(0.25));
/// assert_eq!(dy, 6.0 * 0.25 * (1.0 - 0.25));
/// ```
#[inline]
pub fn derivative_f32<F, O, T>(f: F, x: f32) -> (O, T)
where
    O: Differentiable,
    F: Frule<(Dual<f32, f32>,), f64, Output = Dual<O, T>>,
{
    f.frule((Dual::new(x, 1.0),)).into_parts()
}

/// A rule [`gradient_f32`] can run: one `x: &[f32]` argument and an `f32` result, in
/// batches of 4 and 8 directions. Every `#[derive_frule] fn f(x: &[f32]) -> f32` is one;
/// there is nothing to implement.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rule of one `&[f32]` argument with an `f32` result",
    label = "`gradient_f32` calls this rule with one `x: &[f32]` and needs an `f32` result",
    note = "pass the handle of a `#[derive_frule]` function `f(x: &[f32]) -> f32` (`f {{}}`); of a method of a `#[derive_frule] impl`, `rule!(Model::loss)`, its receiver bound first (`bind(rule!(Model::loss), (&model, Wrt))`); for `f64` code use `gradient`, for a vector result `jacobian_f32`"
)]
pub trait GradientRuleF32:
    SliceRuleF32<4, Output = Dual<f32, Batch<f32, 4>>>
    + SliceRuleF32<8, Output = Dual<f32, Batch<f32, 8>>>
{
}

impl<F> GradientRuleF32 for F where
    F: SliceRuleF32<4, Output = Dual<f32, Batch<f32, 4>>>
        + SliceRuleF32<8, Output = Dual<f32, Batch<f32, 8>>>
{
}

/// A rule of one `&[f32]` argument run with `N` directions (the batch mode of `f64`), its
/// for [`gradient_f32`] and [`jacobian_f32`].
#[doc(hidden)]
pub trait SliceRuleF32<const N: usize> {
    /// The dual of the result.
    type Output;
    /// Runs the rule at `x` along the tangents `dx`.
    fn eval(&self, x: &[f32], dx: &[Batch<f32, N>]) -> Self::Output;
}

impl<F, O, const N: usize> SliceRuleF32<N> for F
where
    F: for<'a> Frule<(Dual<&'a [f32], &'a [Batch<f32, N>]>,), Batch<f64, N>, Output = O>,
{
    type Output = O;
    #[inline(always)]
    fn eval(&self, x: &[f32], dx: &[Batch<f32, N>]) -> O {
        self.frule((Dual::new(x, dx),))
    }
}

/// `(f(x), ∇f(x))` of a function `&[f32] → f32`: [`gradient`] for `f32` code, in passes of
/// 4 directions up to 4 inputs and of 8 above (the primal is recomputed in each pass).
///
/// [`gradient`]: super::gradient
///
/// ```
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn falloff(p: &[f32]) -> f32 {
///     1.0 / (1.0 + p[0] * p[0] + p[1] * p[1])
/// }
///
/// let (v, g) = gradient_f32(falloff {}, &[0.5, 1.0]);
/// assert_eq!(v, falloff(&[0.5, 1.0]));
/// assert_eq!(g, [-2.0 * 0.5 * v * v, -2.0 * 1.0 * v * v]);
/// ```
pub fn gradient_f32<F: GradientRuleF32>(f: F, x: &[f32]) -> (f32, Vec<f32>) {
    let (value, jac) = if x.len() <= 4 {
        jacobian_in::<4, _, _>(&f, x)
    } else {
        jacobian_in::<8, _, _>(&f, x)
    };
    let grad = jac.into_iter().next().unwrap_or_default();
    (value[0], grad)
}

/// The results [`jacobian_f32`] reads: `f32`, `[f32; M]`, `Vec<f32>`.
#[doc(hidden)]
pub trait FlatOutputF32<const N: usize> {
    /// Number of reals.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The value of real `i`.
    fn value(&self, i: usize) -> f32;
    /// The tangent of real `i`.
    fn tangent(&self, i: usize) -> Batch<f32, N>;
}

impl<const N: usize> FlatOutputF32<N> for Dual<f32, Batch<f32, N>> {
    #[inline]
    fn len(&self) -> usize {
        1
    }
    #[inline]
    fn value(&self, _: usize) -> f32 {
        self.primal
    }
    #[inline]
    fn tangent(&self, _: usize) -> Batch<f32, N> {
        self.tangent
    }
}

impl<const N: usize, const M: usize> FlatOutputF32<N> for Dual<[f32; M], [Batch<f32, N>; M]> {
    #[inline]
    fn len(&self) -> usize {
        M
    }
    #[inline]
    fn value(&self, i: usize) -> f32 {
        self.primal[i]
    }
    #[inline]
    fn tangent(&self, i: usize) -> Batch<f32, N> {
        self.tangent[i]
    }
}

impl<const N: usize> FlatOutputF32<N> for Dual<Vec<f32>, Vec<Batch<f32, N>>> {
    #[inline]
    fn len(&self) -> usize {
        self.primal.len()
    }
    #[inline]
    fn value(&self, i: usize) -> f32 {
        self.primal[i]
    }
    #[inline]
    fn tangent(&self, i: usize) -> Batch<f32, N> {
        self.tangent[i]
    }
}

/// A rule [`jacobian_f32`] can run: one `x: &[f32]` argument and an `f32`, `[f32; M]` or
/// `Vec<f32>` result, in batches of 4 and 8 directions. There is nothing to implement.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rule of one `&[f32]` argument with an `f32`, `[f32; M]` or `Vec<f32>` result",
    label = "`jacobian_f32` calls this rule with one `x: &[f32]`",
    note = "pass the handle of a `#[derive_frule]` function of `x: &[f32]` (`f {{}}`, or `rule!(Model::loss)` of a method, its receiver bound first) returning `f32`, `[f32; M]` or `Vec<f32>`; for `f64` code use `jacobian`"
)]
pub trait JacobianRuleF32:
    SliceRuleF32<4, Output: FlatOutputF32<4>> + SliceRuleF32<8, Output: FlatOutputF32<8>>
{
}

impl<F> JacobianRuleF32 for F where
    F: SliceRuleF32<4, Output: FlatOutputF32<4>> + SliceRuleF32<8, Output: FlatOutputF32<8>>
{
}

/// `(f(x), J)` of a function `&[f32] → f32`, `[f32; M]` or `Vec<f32>`: [`jacobian`] for
/// `f32` code, the Jacobian as rows (`j[i][k] = ∂yᵢ/∂xₖ`), in passes of 4 directions up to
/// 4 inputs and of 8 above.
///
/// [`jacobian`]: super::jacobian
///
/// ```
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn to_screen(p: &[f32]) -> [f32; 2] {
///     [p[0] / p[2], p[1] / p[2]]
/// }
///
/// let (y, j) = jacobian_f32(to_screen {}, &[1.0, 2.0, 4.0]);
/// assert_eq!(y, [0.25, 0.5]);
/// assert_eq!(j, [[0.25, 0.0, -1.0 / 16.0], [0.0, 0.25, -2.0 / 16.0]]);
/// ```
pub fn jacobian_f32<F: JacobianRuleF32>(f: F, x: &[f32]) -> (Vec<f32>, Vec<Vec<f32>>) {
    if x.len() <= 4 {
        jacobian_in::<4, _, _>(&f, x)
    } else {
        jacobian_in::<8, _, _>(&f, x)
    }
}

/// The values and the Jacobian's rows in chunks of `N` directions: chunk `c` seeds
/// `e_{cN+k}` in lane `k` and reads column `cN+k` from lane `k`.
fn jacobian_in<const N: usize, F, Y>(f: &F, x: &[f32]) -> (Vec<f32>, Vec<Vec<f32>>)
where
    F: SliceRuleF32<N, Output = Y>,
    Y: FlatOutputF32<N>,
{
    let n = x.len();
    let mut seeds = vec![Batch([0.0f32; N]); n];
    let mut values = Vec::new();
    let mut rows: Vec<Vec<f32>> = Vec::new();
    // At least one pass, for the values of a function of no inputs.
    let chunks = n.div_ceil(N).max(1);
    for c in 0..chunks {
        let start = c * N;
        let end = (start + N).min(n);
        for (k, seed) in seeds[start..end].iter_mut().enumerate() {
            seed.0[k] = 1.0;
        }
        let y = f.eval(x, &seeds);
        if c == 0 {
            values = (0..y.len()).map(|i| y.value(i)).collect();
            rows = vec![vec![0.0; n]; y.len()];
        }
        for (i, row) in rows.iter_mut().enumerate() {
            let t = y.tangent(i);
            row[start..end].copy_from_slice(&t.0[..end - start]);
        }
        for seed in &mut seeds[start..end] {
            *seed = Batch([0.0; N]);
        }
    }
    (values, rows)
}
