//! Drivers (prototype).

use core::fmt;
use core::ops::{Index, IndexMut};
use fwdad_runtime::{
    constant_in, Batch, Differentiable, Dual, Frule, Hyper, Lanes, Mode, NoTangent, ScalarTangent,
    ZeroTangent,
};

/// Default number of directions per pass.
pub const DEFAULT_WIDTH: usize = 8;

// ---------------------------------------------------------------------------------------
// Rules of one argument
// ---------------------------------------------------------------------------------------

/// A rule of one `&[f64]` argument under mode `S`.
pub trait SliceRule<S: Mode> {
    /// The dual of the result.
    type Output;
    /// Runs the rule at `x` along the tangent `dx`.
    fn eval(&self, x: &[f64], dx: &[S]) -> Self::Output;
}

impl<F, S: Mode, O> SliceRule<S> for F
where
    F: for<'a> Frule<(Dual<&'a [f64], &'a [S]>,), S, Output = O>,
{
    type Output = O;
    #[inline(always)]
    fn eval(&self, x: &[f64], dx: &[S]) -> O {
        self.frule((Dual::new(x, dx),))
    }
}

// ---------------------------------------------------------------------------------------
// bind / inplace
// ---------------------------------------------------------------------------------------

/// Marks the differentiated argument in [`bind`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wrt;

/// Marks the output buffer in [`bind`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out;

/// Wraps any constant.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Const<P>(pub P);

#[doc(hidden)]
pub struct NoOut;

/// Checks at [`bind`] time, in the one-direction mode, that a bound argument fits the rule's
/// parameter `D` (this is also what gives untyped literals their types).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be bound to a parameter taking `{D}`",
    label = "this argument does not fit the rule's parameter",
    note = "bind a `&[f64]` parameter to a slice (`&v[..]`), a value of another type with `Const(value)`"
)]
pub trait Fits<D> {}
impl<D> Fits<D> for Wrt {}
impl<D> Fits<D> for Out {}
impl<P: ZeroTangent + Clone> Fits<Dual<P, P::Tangent>> for Const<P> {}
impl<'p, 'z, T: ZeroTangent + 'p> Fits<Dual<&'z T, &'z T::Tangent>> for &'p T {}
impl<'p, 'z, T: ZeroTangent + 'p> Fits<Dual<&'z [T], &'z [T::Tangent]>> for &'p [T] {}

/// The arguments of [`bind`], checked against the rule `F` (whose parameters are `D`).
pub trait BindArgs<F, D> {}

/// One argument of a bound rule.
pub trait Slot<X, Y, S: Mode>: for<'z> SlotDual<'z, X, Y, S> {
    /// Storage of the zero tangent.
    type Store;
    /// Builds the storage.
    fn store(&self) -> Self::Store;
    /// The dual.
    fn dual<'z>(
        &'z self,
        store: &'z Self::Store,
        x: X,
        y: &mut Option<Y>,
    ) -> <Self as SlotDual<'z, X, Y, S>>::Dual;
}

/// The dual type of a slot borrowed for `'z` (a lifetime-GAT written as a trait, so that
/// `for<'z>` bounds carry the implied bound `Self: 'z`).
pub trait SlotDual<'z, X, Y, S: Mode, ImpliedBound = &'z Self> {
    /// The dual passed to the rule.
    type Dual;
}

impl<'z, X, Y, S: Mode> SlotDual<'z, X, Y, S> for Wrt {
    type Dual = X;
}
impl<X, Y, S: Mode> Slot<X, Y, S> for Wrt {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(&'z self, _: &'z (), x: X, _: &mut Option<Y>) -> X {
        x
    }
}

impl<'z, X, Y, S: Mode> SlotDual<'z, X, Y, S> for Out {
    type Dual = Y;
}
impl<X, Y, S: Mode> Slot<X, Y, S> for Out {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(&'z self, _: &'z (), _: X, y: &mut Option<Y>) -> Y {
        y.take().expect("`Out` may appear once")
    }
}

impl<'z, X, Y, S: Mode, P: ZeroTangent + Clone> SlotDual<'z, X, Y, S> for Const<P> {
    type Dual = Dual<P, P::TangentIn<S>>;
}
impl<X, Y, S: Mode, P: ZeroTangent + Clone> Slot<X, Y, S> for Const<P> {
    type Store = ();
    #[inline(always)]
    fn store(&self) {}
    #[inline(always)]
    fn dual<'z>(&'z self, _: &'z (), _: X, _: &mut Option<Y>) -> Dual<P, P::TangentIn<S>> {
        constant_in::<S, P>(self.0.clone())
    }
}

macro_rules! slot_copy {
    ($($t:ty),*) => {$(
        impl Fits<Dual<$t, <$t as Differentiable>::Tangent>> for $t {}
        impl<'z, X, Y, S: Mode> SlotDual<'z, X, Y, S> for $t {
            type Dual = Dual<$t, <$t as Differentiable>::TangentIn<S>>;
        }
        impl<X, Y, S: Mode> Slot<X, Y, S> for $t {
            type Store = ();
            #[inline(always)]
            fn store(&self) {}
            #[inline(always)]
            fn dual<'z>(
                &'z self,
                _: &'z (),
                _: X,
                _: &mut Option<Y>,
            ) -> Dual<$t, <$t as Differentiable>::TangentIn<S>> {
                constant_in::<S, $t>(*self)
            }
        }
    )*};
}
slot_copy!(f64, f32, bool, char, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl<'z, 'p, X, Y, S: Mode, T: ZeroTangent + 'p> SlotDual<'z, X, Y, S> for &'p T {
    type Dual = Dual<&'z T, &'z T::TangentIn<S>>;
}
impl<'p, X, Y, S: Mode, T: ZeroTangent + 'p> Slot<X, Y, S> for &'p T {
    type Store = T::TangentIn<S>;
    #[inline(always)]
    fn store(&self) -> T::TangentIn<S> {
        (**self).zero_tangent_in::<S>()
    }
    #[inline(always)]
    fn dual<'z>(
        &'z self,
        store: &'z Self::Store,
        _: X,
        _: &mut Option<Y>,
    ) -> Dual<&'z T, &'z T::TangentIn<S>> {
        Dual::new(&**self, store)
    }
}

impl<'z, 'p, X, Y, S: Mode, T: ZeroTangent + 'p> SlotDual<'z, X, Y, S> for &'p [T] {
    type Dual = Dual<&'z [T], &'z [T::TangentIn<S>]>;
}
impl<'p, X, Y, S: Mode, T: ZeroTangent + 'p> Slot<X, Y, S> for &'p [T] {
    type Store = Vec<T::TangentIn<S>>;
    #[inline(always)]
    fn store(&self) -> Self::Store {
        self.iter().map(|e| e.zero_tangent_in::<S>()).collect()
    }
    #[inline(always)]
    fn dual<'z>(
        &'z self,
        store: &'z Self::Store,
        _: X,
        _: &mut Option<Y>,
    ) -> Dual<&'z [T], &'z [T::TangentIn<S>]> {
        Dual::new(&**self, &store[..])
    }
}

/// A rule with all arguments but one fixed.
#[derive(Clone, Copy, Debug)]
pub struct Bound<F, A> {
    f: F,
    args: A,
}

/// Binds.
pub fn bind<F, A, D>(f: F, args: A) -> Bound<F, A>
where
    A: BindArgs<F, D>,
{
    Bound { f, args }
}

macro_rules! bound_impl {
    ($($A:ident $a:ident $s:ident $D:ident),+) => {
        impl<F, $($A, $D),+> BindArgs<F, ($($D,)+)> for ($($A,)+)
        where
            F: Frule<($($D,)+), f64>,
            $($A: Fits<$D>,)+
        {
        }
        impl<X: Copy, S: Mode, F, O, $($A),+> Frule<(X,), S> for Bound<F, ($($A,)+)>
        where
            $($A: Slot<X, NoOut, S>,)+
            F: for<'z> Frule<($(<$A as SlotDual<'z, X, NoOut, S>>::Dual,)+), S, Output = O>,
        {
            type Output = O;
            #[inline]
            fn frule(&self, (x,): (X,)) -> O {
                let ($($a,)+) = &self.args;
                $(let $s = Slot::<X, NoOut, S>::store($a);)+
                let mut y: Option<NoOut> = None;
                self.f.frule(($(Slot::<X, NoOut, S>::dual($a, &$s, x, &mut y),)+))
            }
        }
        impl<X: Copy, Y, S: Mode, F, O, $($A),+> Frule<(X, Y), S> for Bound<F, ($($A,)+)>
        where
            $($A: Slot<X, Y, S>,)+
            F: for<'z> Frule<($(<$A as SlotDual<'z, X, Y, S>>::Dual,)+), S, Output = O>,
        {
            type Output = O;
            #[inline]
            fn frule(&self, (x, y): (X, Y)) -> O {
                let ($($a,)+) = &self.args;
                $(let $s = Slot::<X, Y, S>::store($a);)+
                let mut y = Some(y);
                self.f.frule(($(Slot::<X, Y, S>::dual($a, &$s, x, &mut y),)+))
            }
        }
    };
}
bound_impl!(A a sa DA);
bound_impl!(A a sa DA, B b sb DB);
bound_impl!(A a sa DA, B b sb DB, C c sc DC);
bound_impl!(A a sa DA, B b sb DB, C c sc DC, D d sd DD);

/// In-place adapter.
#[derive(Clone, Debug)]
pub struct InPlace<F> {
    f: F,
    init: Vec<f64>,
}

/// `f(x, y: &mut [f64])` seen as `x -> y`.
pub fn inplace<F>(f: F, len: usize) -> InPlace<F> {
    InPlace {
        f,
        init: vec![0.0; len],
    }
}

impl<X, S: Mode, F> Frule<(X,), S> for InPlace<F>
where
    F: for<'z> Frule<(X, Dual<&'z mut [f64], &'z mut [S]>), S>,
{
    type Output = Dual<Vec<f64>, Vec<S>>;
    #[inline]
    fn frule(&self, (x,): (X,)) -> Self::Output {
        let mut y = self.init.clone();
        let mut t = vec![S::zero(); y.len()];
        self.f.frule((x, Dual::new(&mut y[..], &mut t[..])));
        Dual::new(y, t)
    }
}

// ---------------------------------------------------------------------------------------
// Outputs
// ---------------------------------------------------------------------------------------

/// The dual of a result seen as a flat list of reals.
pub trait FlatOutput<S> {
    /// Number of reals.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Value of output `i`.
    fn value(&self, i: usize) -> f64;
    /// Tangent of output `i`.
    fn tangent(&self, i: usize) -> S;
}

impl<S: Copy> FlatOutput<S> for Dual<f64, S> {
    fn len(&self) -> usize {
        1
    }
    fn value(&self, _: usize) -> f64 {
        self.primal
    }
    fn tangent(&self, _: usize) -> S {
        self.tangent
    }
}

impl<S: Copy, const M: usize> FlatOutput<S> for Dual<[f64; M], [S; M]> {
    fn len(&self) -> usize {
        M
    }
    fn value(&self, i: usize) -> f64 {
        self.primal[i]
    }
    fn tangent(&self, i: usize) -> S {
        self.tangent[i]
    }
}

impl<S: Copy> FlatOutput<S> for Dual<Vec<f64>, Vec<S>> {
    fn len(&self) -> usize {
        self.primal.len()
    }
    fn value(&self, i: usize) -> f64 {
        self.primal[i]
    }
    fn tangent(&self, i: usize) -> S {
        self.tangent[i]
    }
}

// ---------------------------------------------------------------------------------------
// Matrix
// ---------------------------------------------------------------------------------------

/// A dense row-major matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Matrix {
    /// Zeros.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        Matrix {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }
    /// Rows.
    pub fn nrows(&self) -> usize {
        self.rows
    }
    /// Columns.
    pub fn ncols(&self) -> usize {
        self.cols
    }
    /// Row `i`.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }
}

impl Index<(usize, usize)> for Matrix {
    type Output = f64;
    fn index(&self, (i, j): (usize, usize)) -> &f64 {
        assert!(i < self.rows && j < self.cols);
        &self.data[i * self.cols + j]
    }
}
impl IndexMut<(usize, usize)> for Matrix {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut f64 {
        assert!(i < self.rows && j < self.cols);
        &mut self.data[i * self.cols + j]
    }
}
impl fmt::Display for Matrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..self.rows {
            writeln!(f, "{:?}", self.row(i))?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Drivers
// ---------------------------------------------------------------------------------------

/// Value and derivative of a scalar function.
pub fn derivative<F, O, T>(f: F, x: f64) -> (O, T)
where
    O: Differentiable,
    F: Frule<(Dual<f64>,), f64, Output = Dual<O, T>>,
{
    f.frule((Dual::new(x, 1.0),)).into_parts()
}

/// Value, derivative and second derivative.
pub fn second_derivative<F>(f: F, x: f64) -> (f64, f64, f64)
where
    F: Frule<(Dual<f64, Hyper<f64, f64>>,), Hyper<f64, f64>, Output = Dual<f64, Hyper<f64, f64>>>,
{
    let seed = Hyper {
        d1: 1.0,
        d2: 1.0,
        d12: 0.0,
    };
    let y = f.frule((Dual::new(x, seed),));
    (y.primal, y.tangent.d1, y.tangent.d12)
}

/// Value and directional derivative.
pub fn jvp<F, O, T>(f: F, x: &[f64], v: &[f64]) -> (O, T)
where
    O: Differentiable,
    F: SliceRule<f64, Output = Dual<O, T>>,
{
    assert_eq!(x.len(), v.len(), "jvp: direction length differs from x");
    f.eval(x, v).into_parts()
}

/// Gradient, default width.
pub fn gradient<F>(f: F, x: &[f64]) -> (f64, Vec<f64>)
where
    F: SliceRule<Batch<f64, DEFAULT_WIDTH>, Output = Dual<f64, Batch<f64, DEFAULT_WIDTH>>>,
{
    gradient_with::<DEFAULT_WIDTH, F>(f, x)
}

/// Gradient, width `N`.
pub fn gradient_with<const N: usize, F>(f: F, x: &[f64]) -> (f64, Vec<f64>)
where
    F: SliceRule<Batch<f64, N>, Output = Dual<f64, Batch<f64, N>>>,
{
    let (v, j) = jacobian_in::<Batch<f64, N>, _, _>(f, x);
    (v[0], j.data)
}

/// Jacobian, default width.
pub fn jacobian<F, Y>(f: F, x: &[f64]) -> (Vec<f64>, Matrix)
where
    F: SliceRule<Batch<f64, DEFAULT_WIDTH>, Output = Y>,
    Y: FlatOutput<Batch<f64, DEFAULT_WIDTH>>,
{
    jacobian_in::<Batch<f64, DEFAULT_WIDTH>, F, Y>(f, x)
}

/// Jacobian, width `N`.
pub fn jacobian_with<const N: usize, F, Y>(f: F, x: &[f64]) -> (Vec<f64>, Matrix)
where
    F: SliceRule<Batch<f64, N>, Output = Y>,
    Y: FlatOutput<Batch<f64, N>>,
{
    jacobian_in::<Batch<f64, N>, F, Y>(f, x)
}

fn jacobian_in<S, F, Y>(f: F, x: &[f64]) -> (Vec<f64>, Matrix)
where
    S: Mode + Lanes<f64>,
    F: SliceRule<S, Output = Y>,
    Y: FlatOutput<S>,
{
    let n = x.len();
    let w = S::LANES;
    let mut seeds = vec![S::zero(); n];
    let mut values = Vec::new();
    let mut jac = Matrix::zeros(0, n);
    let mut start = 0;
    loop {
        let end = (start + w).min(n);
        for k in start..end {
            seeds[k] = S::from_lanes(|l| if l == k - start { 1.0 } else { 0.0 });
        }
        let y = f.eval(x, &seeds);
        if start == 0 {
            values = (0..y.len()).map(|i| y.value(i)).collect();
            jac = Matrix::zeros(values.len(), n);
        }
        for i in 0..y.len() {
            let t = y.tangent(i);
            for k in start..end {
                jac[(i, k)] = t.lane(k - start);
            }
        }
        for s in &mut seeds[start..end] {
            *s = S::zero();
        }
        start = end;
        if start >= n {
            break;
        }
    }
    (values, jac)
}

/// Hessian, default width.
#[allow(clippy::type_complexity)]
pub fn hessian<F>(f: F, x: &[f64]) -> (f64, Vec<f64>, Matrix)
where
    F: SliceRule<
        Hyper<f64, Batch<f64, DEFAULT_WIDTH>>,
        Output = Dual<f64, Hyper<f64, Batch<f64, DEFAULT_WIDTH>>>,
    >,
{
    hessian_with::<DEFAULT_WIDTH, F>(f, x)
}

/// Hessian, width `N`.
pub fn hessian_with<const N: usize, F>(f: F, x: &[f64]) -> (f64, Vec<f64>, Matrix)
where
    F: SliceRule<Hyper<f64, Batch<f64, N>>, Output = Dual<f64, Hyper<f64, Batch<f64, N>>>>,
{
    let n = x.len();
    let mut seeds = vec![<Hyper<f64, Batch<f64, N>> as ScalarTangent<f64>>::zero(); n];
    let mut value = 0.0;
    let mut grad = vec![0.0; n];
    let mut h = Matrix::zeros(n, n);
    if n == 0 {
        value = f.eval(x, &seeds).primal;
    }
    let mut r0 = 0;
    while r0 < n {
        let r1 = (r0 + N).min(n);
        for k in r0..r1 {
            seeds[k].d1 = Batch::unit(k - r0);
        }
        for j in r0..n {
            seeds[j].d2 = 1.0;
            let y = f.eval(x, &seeds);
            seeds[j].d2 = 0.0;
            if j == r0 {
                value = y.primal;
                for k in r0..r1 {
                    grad[k] = y.tangent.d1.0[k - r0];
                }
            }
            for r in r0..r1.min(j + 1) {
                let v = y.tangent.d12.0[r - r0];
                h[(r, j)] = v;
                h[(j, r)] = v;
            }
        }
        for k in r0..r1 {
            seeds[k].d1 = Batch::default();
        }
        r0 = r1;
    }
    (value, grad, h)
}

/// Hessian-vector product.
pub fn hvp<F>(f: F, x: &[f64], v: &[f64]) -> (f64, Vec<f64>, Vec<f64>)
where
    F: SliceRule<
        Hyper<f64, Batch<f64, DEFAULT_WIDTH>>,
        Output = Dual<f64, Hyper<f64, Batch<f64, DEFAULT_WIDTH>>>,
    >,
{
    hvp_with::<DEFAULT_WIDTH, F>(f, x, v)
}

/// Hessian-vector product, width `N`.
pub fn hvp_with<const N: usize, F>(f: F, x: &[f64], v: &[f64]) -> (f64, Vec<f64>, Vec<f64>)
where
    F: SliceRule<Hyper<f64, Batch<f64, N>>, Output = Dual<f64, Hyper<f64, Batch<f64, N>>>>,
{
    assert_eq!(x.len(), v.len());
    let n = x.len();
    let mut seeds: Vec<Hyper<f64, Batch<f64, N>>> = v
        .iter()
        .map(|&vk| Hyper {
            d1: Batch::default(),
            d2: vk,
            d12: Batch::default(),
        })
        .collect();
    let mut value = 0.0;
    let mut grad = vec![0.0; n];
    let mut hv = vec![0.0; n];
    let mut r0 = 0;
    loop {
        let r1 = (r0 + N).min(n);
        for k in r0..r1 {
            seeds[k].d1 = Batch::unit(k - r0);
        }
        let y = f.eval(x, &seeds);
        value = y.primal;
        for k in r0..r1 {
            grad[k] = y.tangent.d1.0[k - r0];
            hv[k] = y.tangent.d12.0[k - r0];
            seeds[k].d1 = Batch::default();
        }
        r0 = r1;
        if r0 >= n {
            break;
        }
    }
    let _ = NoTangent;
    (value, grad, hv)
}
