//! `ndarray` arrays of `f64` in derived bodies (feature `ndarray`).
//!
//! ndarray is generic over its element (`A: Clone + Add` for arithmetic, `LinalgScalar` for
//! `dot`, `ScalarOperand` for an array with a scalar), and a scalar dual is all of these.
//! So an active `Array1<f64>` / `Array2<f64>` in a `#[derive_frule]` body is an array of
//! `Dual<f64, S>`, and ndarray's own code computes its tangents. This module gives
//! `Array<f64, D>` its tangent type (`Array<f64, D>`; `Array<S, D>` in mode `S`) and its
//! [`lift`](crate::lift) into that form and back.
//!
//! ```
//! use fwdad_runtime::Dual;
//! use ndarray::array;
//!
//! // d/dt |a + t b|² = 2 (a + t b)·b at t = 0: 2 a·b.
//! let a = array![1.0, 2.0, 3.0].mapv(Dual::<f64>::constant);
//! let b = array![0.5, -1.0, 2.0];
//! let t: Dual<f64> = Dual::new(0.0, 1.0);
//! let v = &a + &(b.mapv(Dual::<f64>::constant) * t);
//! let n = v.dot(&v);
//! assert_eq!(n.primal, 14.0);
//! assert_eq!(n.tangent, 2.0 * (0.5 - 2.0 + 6.0));
//! ```

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::lift::DualIn;
use crate::lift::{Lift, Unlift};
use crate::real::Real;
use crate::tangent::{Mode, ScalarTangent};
use ndarray::{Array, ArrayView, Dimension, ScalarOperand, Zip};

/// An array's tangent is an array of the same shape. Generic over the float type: an
/// `Array1<T>` in a function generic over `T: Float` has tangent `Array1<T::TangentIn<S>>`
/// (`Array1<S>` at `T = f64`).
impl<F: Real, D: Dimension> Differentiable for Array<F, D> {
    type Tangent = Array<F, D>;
    type TangentIn<S: Mode> = Array<F::TangentIn<S>, D>;
}
impl<F: Real, D: Dimension> crate::traits::UserValue for Array<F, D> {}

/// Through a `dyn` call: the elements' lanes, in logical order.
impl<D: Dimension> crate::traits::LaneValue for Array<f64, D> {
    fn lane1<S: Mode>(t: &Array<S, D>, k: usize) -> Array<f64, D> {
        t.map(|s| crate::traits::DynLanes::lane1(s, k))
    }
    fn lane2<S: Mode>(t: &Array<S, D>, k: usize) -> Array<crate::Hyper<f64, f64>, D> {
        t.map(|s| crate::traits::DynLanes::lane2(s, k))
    }
    fn set_lane1<S: Mode>(t: &mut Array<S, D>, k: usize, v: &Array<f64, D>) {
        Zip::from(t)
            .and(v)
            .for_each(|t, v| crate::traits::DynLanes::set_lane1(t, k, *v));
    }
    fn set_lane2<S: Mode>(t: &mut Array<S, D>, k: usize, v: &Array<crate::Hyper<f64, f64>, D>) {
        Zip::from(t)
            .and(v)
            .for_each(|t, v| crate::traits::DynLanes::set_lane2(t, k, *v));
    }
}

impl<F: Real, D: Dimension> ZeroTangent for Array<F, D> {
    fn zero_tangent(&self) -> Array<F, D> {
        Array::zeros(self.raw_dim())
    }
    fn zero_tangent_in<S: Mode>(&self) -> Array<F::TangentIn<S>, D> {
        // Built by a function: a generic float's tangent is not known to be `Clone`.
        Array::from_shape_fn(self.raw_dim(), |_| F::zero().zero_tangent_in::<S>())
    }
}

/// `Dual::constant(&a)` of a borrowed array: the zero tangent is built by the rule's entry
/// (`RefTangent`), as for a borrowed struct of the user's.
impl<'a, F: Real, D: Dimension> crate::constant::Constant for &'a Array<F, D> {
    type Primal = &'a Array<F, D>;
    type Zero = crate::constant::ConstTangent;
    #[inline(always)]
    fn constant(self) -> Dual<&'a Array<F, D>, crate::constant::ConstTangent> {
        Dual::new(self, crate::constant::ConstTangent)
    }
}

/// A dual scalar multiplies, divides, adds to arrays (`a * k`, `&a + k`).
impl<F: Real, T: ScalarTangent<F>> ScalarOperand for Dual<F, T> {}

/// A dual scalar on the left (`2.0 * &u`, `k - &a`): ndarray defines these for its
/// primitive scalars only. Element by element, in the order written.
macro_rules! scalar_left {
    ($($Tr:ident $op:ident $sym:tt),*) => {$(
        impl<'a, F, T, St, D> core::ops::$Tr<&'a ndarray::ArrayBase<St, D>> for Dual<F, T>
        where
            F: Real,
            T: ScalarTangent<F>,
            St: ndarray::Data<Elem = Dual<F, T>>,
            D: Dimension,
        {
            type Output = Array<Dual<F, T>, D>;
            fn $op(self, a: &'a ndarray::ArrayBase<St, D>) -> Self::Output {
                a.mapv(|x| self $sym x)
            }
        }
        impl<F, T, St, D> core::ops::$Tr<ndarray::ArrayBase<St, D>> for Dual<F, T>
        where
            F: Real,
            T: ScalarTangent<F>,
            St: ndarray::Data<Elem = Dual<F, T>>,
            D: Dimension,
        {
            type Output = Array<Dual<F, T>, D>;
            fn $op(self, a: ndarray::ArrayBase<St, D>) -> Self::Output {
                a.mapv(|x| self $sym x)
            }
        }
    )*};
}
scalar_left!(Add add +, Sub sub -, Mul mul *, Div div /);

/// `s![1..-1]` runs as written (a macro of ndarray's): its value holds no float.
impl<T, Din: Dimension, Dout: Dimension> crate::structural::OpaqueMacroValue
    for ndarray::SliceInfo<T, Din, Dout>
{
}

fn constant<S: Mode, F: Real, D: Dimension>(a: &Array<F, D>) -> Array<DualIn<F, S>, D> {
    a.mapv(|x| Dual::new(x, x.zero_tangent_in::<S>()))
}

fn zip<S: Mode, F: Real, D: Dimension>(
    p: &Array<F, D>,
    t: &Array<F::TangentIn<S>, D>,
) -> Array<DualIn<F, S>, D>
where
    F::TangentIn<S>: ScalarTangent<F>,
{
    Zip::from(p).and(t).map_collect(|&p, &t| Dual::new(p, t))
}

/// A constant.
/// An array over duals computed in the body, read element by element by iterator chains
/// in logical order (walked for an array not in standard layout).
impl<S: Mode, D: Dimension> crate::lift::DualElems<S> for Array<Dual<f64, S>, D> {
    #[inline(always)]
    fn dual_elem(&self, i: usize) -> &Dual<f64, S> {
        match self.as_slice() {
            Some(s) => &s[i],
            None => match self.iter().nth(i) {
                Some(e) => e,
                None => panic!(
                    "index out of bounds: the len is {} but the index is {i}",
                    self.len()
                ),
            },
        }
    }
}

/// An array over duals written element by element (`for v in a.iter_mut()`), in logical
/// order.
impl<S: Mode, D: Dimension> crate::lift::DualElemsMut<S> for Array<Dual<f64, S>, D> {
    #[inline(always)]
    fn dual_elem_mut(&mut self, i: usize) -> &mut Dual<f64, S> {
        let n = self.len();
        if self.is_standard_layout() {
            return match self.as_slice_mut() {
                Some(s) => &mut s[i],
                None => unreachable!("an array in standard layout is a slice"),
            };
        }
        match self.iter_mut().nth(i) {
            Some(e) => e,
            None => panic!("index out of bounds: the len is {n} but the index is {i}"),
        }
    }
}

impl<S: Mode, F: Real, D: Dimension> Lift<S> for Array<F, D> {
    type Output = Array<DualIn<F, S>, D>;
    fn lift(self) -> Self::Output {
        constant::<S, F, D>(&self)
    }
}

/// A constant.
impl<S: Mode, F: Real, D: Dimension> Lift<S> for &Array<F, D> {
    type Output = Array<DualIn<F, S>, D>;
    fn lift(self) -> Self::Output {
        constant::<S, F, D>(self)
    }
}

impl<S: Mode, F: Real, D: Dimension> Lift<S> for Array<DualIn<F, S>, D> {
    type Output = Self;
    fn lift(self) -> Self {
        self
    }
}

impl<S: Mode, F: Real, D: Dimension> Lift<S> for &Array<DualIn<F, S>, D> {
    type Output = Self;
    fn lift(self) -> Self {
        self
    }
}

/// A view of constant data (`k.t()` of a constant `k`, beside an active array in
/// `q.dot(&k.t())`): an array of constant duals.
impl<'v, S: Mode, D: Dimension> Lift<S> for ArrayView<'v, f64, D> {
    type Output = Array<Dual<f64, S>, D>;
    fn lift(self) -> Self::Output {
        self.mapv(|x| Dual::new(x, S::zero()))
    }
}

/// A constant.
impl<'r, 'v, S: Mode, D: Dimension> Lift<S> for &'r ArrayView<'v, f64, D> {
    type Output = Array<Dual<f64, S>, D>;
    fn lift(self) -> Self::Output {
        self.mapv(|x| Dual::new(x, S::zero()))
    }
}

/// A view of dual elements (`u.slice(s![1..])` of a lifted array) is already in form.
impl<'v, S: Mode, F: Real, D: Dimension> Lift<S> for ArrayView<'v, DualIn<F, S>, D> {
    type Output = Self;
    fn lift(self) -> Self {
        self
    }
}

impl<'r, 'v, S: Mode, F: Real, D: Dimension> Lift<S> for &'r ArrayView<'v, DualIn<F, S>, D> {
    type Output = Self;
    fn lift(self) -> Self {
        self
    }
}

/// Arguments that are no values: an axis (`mean_axis(Axis(0))`), a slice pattern
/// (`slice(s![1..-1])`).
impl<S: Mode> Lift<S> for ndarray::Axis {
    type Output = Self;
    fn lift(self) -> Self {
        self
    }
}

impl<S: Mode, T, Din: Dimension, Dout: Dimension> Lift<S> for ndarray::SliceInfo<T, Din, Dout> {
    type Output = Self;
    fn lift(self) -> Self {
        self
    }
}

/// A parameter taken by value.
impl<S: Mode, F: Real, D: Dimension> Lift<S> for Dual<Array<F, D>, Array<F::TangentIn<S>, D>>
where
    F::TangentIn<S>: ScalarTangent<F>,
{
    type Output = Array<DualIn<F, S>, D>;
    fn lift(self) -> Self::Output {
        zip::<S, F, D>(&self.primal, &self.tangent)
    }
}

/// A parameter taken by reference.
impl<'a, S: Mode, F: Real, D: Dimension> Lift<S>
    for Dual<&'a Array<F, D>, &'a Array<F::TangentIn<S>, D>>
where
    F::TangentIn<S>: ScalarTangent<F>,
{
    type Output = Array<DualIn<F, S>, D>;
    fn lift(self) -> Self::Output {
        zip::<S, F, D>(self.primal, self.tangent)
    }
}

impl<S: Mode, F: Real, D: Dimension> Unlift<S> for Array<DualIn<F, S>, D>
where
    F::TangentIn<S>: ScalarTangent<F>,
{
    type Output = Dual<Array<F, D>, Array<F::TangentIn<S>, D>>;
    fn unlift(self) -> Self::Output {
        Dual::new(self.mapv(|d| d.primal), self.mapv(|d| d.tangent))
    }
}

impl<S: Mode, F: Real, D: Dimension> Unlift<S> for &Array<DualIn<F, S>, D>
where
    F::TangentIn<S>: ScalarTangent<F>,
{
    type Output = Dual<Array<F, D>, Array<F::TangentIn<S>, D>>;
    fn unlift(self) -> Self::Output {
        Dual::new(self.mapv(|d| d.primal), self.mapv(|d| d.tangent))
    }
}

/// An array parameter's element `i` in logical order, as a `for` loop over its elements
/// (`for (p, &v) in p.iter_mut().zip(v.iter())`, ndarray's `Zip` and `azip!`) reads it:
/// borrowed where it is stored.
impl<'a, F: Real, TE: 'a, D: Dimension> crate::structural::ElemAt<'a>
    for Dual<&'a Array<F, D>, &'a Array<TE, D>>
{
    type Elem = F;
    type TElem = TE;
    fn both(self) -> (&'a [F], &'a [TE]) {
        match (self.primal.as_slice(), self.tangent.as_slice()) {
            (Some(p), Some(t)) => (p, t),
            _ => panic!("fwdad: a sub-slice of an ndarray array that is not in standard layout"),
        }
    }
    #[inline(always)]
    fn elem_at(self, i: usize) -> Dual<&'a F, &'a TE> {
        match (self.primal.as_slice(), self.tangent.as_slice()) {
            (Some(p), Some(t)) => Dual::new(&p[i], &t[i]),
            // Walked in logical order, each of the two in its own layout.
            _ => match (self.primal.iter().nth(i), self.tangent.iter().nth(i)) {
                (Some(p), Some(t)) => Dual::new(p, t),
                _ => panic!(
                    "index out of bounds: the len is {} but the index is {i}",
                    self.primal.len()
                ),
            },
        }
    }
}

/// An array parameter's number of elements (`x.len()` in a derived body), read from its
/// primal.
impl<F: Real, T, D: Dimension> Dual<&Array<F, D>, T> {
    /// The number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.primal.len()
    }
    /// Whether it has no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.primal.is_empty()
    }
}

/// A matrix parameter's shape (`a.nrows()` in a derived body), read from its primal.
impl<F: Real, T> Dual<&ndarray::Array2<F>, &ndarray::Array2<T>> {
    /// The number of rows.
    #[inline(always)]
    pub fn nrows(&self) -> usize {
        self.primal.nrows()
    }
    /// The number of columns.
    #[inline(always)]
    pub fn ncols(&self) -> usize {
        self.primal.ncols()
    }
}

/// The elements of ndarray's `arr1(&[x, y])`, `arr2(&[[a, b], [c, d]])`, `arr3(..)` in a
/// rule: the dual of the written array (`Dual<&[f64; N], &[S; N]>`) as an array of
/// scalar duals, from which the constructor builds the array over duals.
pub trait ArrElems<S: Mode> {
    /// The written array, each float a dual.
    type Output;
    /// Converts.
    fn arr_elems(self) -> Self::Output;
}

impl<S: Mode, const N: usize> ArrElems<S> for Dual<&[f64; N], &[S; N]> {
    type Output = [Dual<f64, S>; N];
    #[inline(always)]
    fn arr_elems(self) -> [Dual<f64, S>; N] {
        core::array::from_fn(|i| Dual::new(self.primal[i], self.tangent[i]))
    }
}

impl<S: Mode, const N: usize, const M: usize> ArrElems<S> for Dual<&[[f64; N]; M], &[[S; N]; M]> {
    type Output = [[Dual<f64, S>; N]; M];
    #[inline(always)]
    fn arr_elems(self) -> [[Dual<f64, S>; N]; M] {
        core::array::from_fn(|i| {
            core::array::from_fn(|j| Dual::new(self.primal[i][j], self.tangent[i][j]))
        })
    }
}

impl<S: Mode, const N: usize, const M: usize, const L: usize> ArrElems<S>
    for Dual<&[[[f64; N]; M]; L], &[[[S; N]; M]; L]>
{
    type Output = [[[Dual<f64, S>; N]; M]; L];
    #[inline(always)]
    fn arr_elems(self) -> [[[Dual<f64, S>; N]; M]; L] {
        core::array::from_fn(|i| {
            core::array::from_fn(|j| {
                core::array::from_fn(|k| Dual::new(self.primal[i][j][k], self.tangent[i][j][k]))
            })
        })
    }
}

impl<S: Mode> ArrElems<S> for Dual<&[f64], &[S]> {
    type Output = Vec<Dual<f64, S>>;
    #[inline(always)]
    fn arr_elems(self) -> Vec<Dual<f64, S>> {
        self.primal
            .iter()
            .zip(self.tangent)
            .map(|(p, t)| Dual::new(*p, *t))
            .collect()
    }
}

/// Constants written beside differentiated ones, as constant duals.
impl<S: Mode, const N: usize> ArrElems<S> for &[f64; N] {
    type Output = [Dual<f64, S>; N];
    #[inline(always)]
    fn arr_elems(self) -> [Dual<f64, S>; N] {
        core::array::from_fn(|i| Dual::new(self[i], S::zero()))
    }
}

impl<S: Mode, const N: usize, const M: usize> ArrElems<S> for &[[f64; N]; M] {
    type Output = [[Dual<f64, S>; N]; M];
    #[inline(always)]
    fn arr_elems(self) -> [[Dual<f64, S>; N]; M] {
        core::array::from_fn(|i| core::array::from_fn(|j| Dual::new(self[i][j], S::zero())))
    }
}

/// `x` as [`ArrElems`] converts it.
#[inline(always)]
pub fn arr_elems<S: Mode, X: ArrElems<S>>(x: X) -> X::Output {
    x.arr_elems()
}

/// An ndarray array of `f64` built from constants (`arr2(&[[0.5, -0.3], ..])` bound
/// untyped), its scalar written for the rule, where the lift leaves it to inference.
#[inline(always)]
pub fn f64_array<D: Dimension>(a: Array<f64, D>) -> Array<f64, D> {
    a
}
