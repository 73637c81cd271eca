//! Linear solves on nalgebra matrices over duals by the implicit rule (feature `nalgebra`).
//!
//! In a derived body, `a.cholesky()`, `a.lu()` and `a.try_inverse()` of a matrix over duals
//! are these functions. They factorise the primal matrix once in `f64` (nalgebra's own code
//! on `f64`, so every primal is the bits the user's function computes) and give each solve
//! its tangent by the implicit rule `dx = A⁻¹(db − dA·x)`, with that one factorisation for
//! every direction, instead of carrying tangents through the factorisation's arithmetic
//! (its square roots, divisions and pivots).
//!
//! Second order (`Hyper`) applies the rule as a fixed-point step on the tangent parts,
//! `x ← A₀⁻¹(b − (A − A₀)·x)` in dual arithmetic, `Mode::ORDER` times: with `A − A₀`
//! nilpotent, each step makes one more order exact (the second gives
//! `d₁₂x = A₀⁻¹(d₁₂b − d₁₂A·x − d₁A·d₂x − d₂A·d₁x)`).
//!
//! A factorisation the body does not differentiate (of an `inactive` matrix) solving for
//! an active right-hand side is lifted to the same types without `dA`
//! ([`Lift`](crate::lift::Lift) in [`crate::nalgebra`]): then `dx = A⁻¹ db`.

use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::{Mode, ScalarTangent};
use nalgebra::allocator::Allocator;
use nalgebra::constraint::{SameNumberOfRows, ShapeConstraint};
use nalgebra::{
    Cholesky, DefaultAllocator, Dim, DimMin, Matrix, OMatrix, PermutationSequence, Storage,
    StorageMut, LU, QR,
};
use num_traits::{One, Zero};
use simba::scalar::RealField;

// Written over any float type `F` with tangent `T` (`f64` and the mode `S` in `f64` code;
// a function's `T: RealField` and its tangent in generic code): the primal factorisations
// and products are nalgebra's on `F`, as the user's generic function computes them.

/// A matrix over duals of float type `F` with tangent `T`.
type DualMatrix<F, T, R, C, St> = Matrix<Dual<F, T>, R, C, St>;
/// An owned square matrix over duals.
type DualSquareMatrix<F, T, D> = OMatrix<Dual<F, T>, D, D>;
/// The matrix an [`OverDuals`] operand `A` holds.
type MatrixOf<S, A> = DualMatrix<
    <A as OverDuals<S>>::F,
    <A as OverDuals<S>>::T,
    <A as OverDuals<S>>::R,
    <A as OverDuals<S>>::C,
    <A as OverDuals<S>>::St,
>;
/// The Cholesky factorisation of a square matrix `M` over duals.
type CholeskyOf<S, M> =
    DualCholesky<S, <M as DualSquare<S>>::D, <M as DualSquare<S>>::F, <M as DualSquare<S>>::T>;

/// A square matrix over duals, owned or borrowed: what the factorisations take.
pub trait DualSquare<S: Mode> {
    /// The float type.
    type F: Real + RealField;
    /// Its tangent.
    type T: ScalarTangent<Self::F>;
    /// Its dimension.
    type D: Dim;
    /// The matrix, owned.
    fn owned(self) -> DualSquareMatrix<Self::F, Self::T, Self::D>
    where
        DefaultAllocator: Allocator<Self::D, Self::D>;
}

impl<S: Mode, F: Real + RealField, T: ScalarTangent<F>, D: Dim, St: Storage<Dual<F, T>, D, D>>
    DualSquare<S> for Matrix<Dual<F, T>, D, D, St>
{
    type F = F;
    type T = T;
    type D = D;
    #[inline(always)]
    fn owned(self) -> OMatrix<Dual<F, T>, D, D>
    where
        DefaultAllocator: Allocator<D, D>,
    {
        self.into_owned()
    }
}

impl<S: Mode, F: Real + RealField, T: ScalarTangent<F>, D: Dim, St: Storage<Dual<F, T>, D, D>>
    DualSquare<S> for &Matrix<Dual<F, T>, D, D, St>
{
    type F = F;
    type T = T;
    type D = D;
    #[inline(always)]
    fn owned(self) -> OMatrix<Dual<F, T>, D, D>
    where
        DefaultAllocator: Allocator<D, D>,
    {
        self.clone_owned()
    }
}

/// The primal of a matrix over duals.
#[inline(always)]
fn primal<F: Real, T: ScalarTangent<F>, R: Dim, C: Dim, St: Storage<Dual<F, T>, R, C>>(
    m: &Matrix<Dual<F, T>, R, C, St>,
) -> OMatrix<F, R, C>
where
    DefaultAllocator: Allocator<R, C>,
{
    m.map(|d| d.primal)
}

/// The solution of `A x = b` with primal `xp` (already solved in `f64`): its tangents by
/// the implicit rule, `apply` being `A₀⁻¹` on the tangents of a matrix (in place). `a` is
/// `None` for a constant `A` (`dA = 0`).
#[inline(always)]
fn implicit<S, F, T, D, R2, C2, St>(
    a: Option<&OMatrix<Dual<F, T>, D, D>>,
    b: &Matrix<Dual<F, T>, R2, C2, St>,
    xp: &OMatrix<F, R2, C2>,
    apply: impl Fn(&mut OMatrix<Dual<F, T>, R2, C2>),
) -> OMatrix<Dual<F, T>, R2, C2>
where
    S: Mode,
    F: Real,
    T: ScalarTangent<F>,
    D: Dim,
    R2: Dim,
    C2: Dim,
    St: Storage<Dual<F, T>, R2, C2>,
    DefaultAllocator: Allocator<D, D> + Allocator<R2, C2>,
{
    let mut x = b.clone_owned();
    // The primal is the `f64` solve's, bit for bit; the tangent starts from `db`.
    x.zip_apply(xp, |d, p| d.primal = p);
    let (n, m) = x.shape();
    let Some(a) = a else {
        // `apply` works on whole duals: the LU's row permutation moves the primals too,
        // which are put back (a pivoting LU of a constant matrix gave a wrong primal).
        apply(&mut x);
        x.zip_apply(xp, |d, p| d.primal = p);
        return x;
    };
    for step in 0..S::ORDER {
        // r = b − (A − A₀)·x on the tangents; its primal is unused.
        let mut r = b.clone_owned();
        for c in 0..m {
            for i in 0..n {
                let mut t = r[(i, c)].tangent;
                for k in 0..n {
                    let da = a[(i, k)].tangent;
                    t = if S::ORDER == 1 || step == 0 {
                        // `x` has no tangent yet (or the mode is first order).
                        t.sub(da.scale(xp[(k, c)]))
                    } else {
                        t.sub((Dual::new(F::zero(), da) * x[(k, c)]).tangent)
                    };
                }
                r[(i, c)].tangent = t;
            }
        }
        apply(&mut r);
        x.zip_apply(&r, |d, r| d.tangent = r.tangent);
    }
    x
}

/// `t ← L⁻ᵀ L⁻¹ t` on the tangents of each column, `L` lower triangular (its strict upper
/// part ignored).
fn cholesky_apply<F: Real, T: ScalarTangent<F>, D: Dim, R2: Dim, C2: Dim>(
    l: &OMatrix<F, D, D>,
    x: &mut OMatrix<Dual<F, T>, R2, C2>,
) where
    DefaultAllocator: Allocator<D, D> + Allocator<R2, C2>,
{
    let (n, m) = x.shape();
    for c in 0..m {
        for i in 0..n {
            let mut t = x[(i, c)].tangent;
            for j in 0..i {
                t = t.axpy(-l[(i, j)], x[(j, c)].tangent);
            }
            x[(i, c)].tangent = t.scale(F::one() / l[(i, i)]);
        }
        for i in (0..n).rev() {
            let mut t = x[(i, c)].tangent;
            for j in i + 1..n {
                t = t.axpy(-l[(j, i)], x[(j, c)].tangent);
            }
            x[(i, c)].tangent = t.scale(F::one() / l[(i, i)]);
        }
    }
}

/// `t ← U⁻¹ L⁻¹ P t` on the tangents of each column (`L` unit lower triangular).
fn lu_apply<
    F: Real,
    T: ScalarTangent<F>,
    D: Dim,
    R2: Dim,
    C2: Dim,
    St: StorageMut<Dual<F, T>, R2, C2>,
>(
    l: &OMatrix<F, D, D>,
    u: &OMatrix<F, D, D>,
    p: &PermutationSequence<D>,
    x: &mut Matrix<Dual<F, T>, R2, C2, St>,
) where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    p.permute_rows(x);
    let (n, m) = x.shape();
    for c in 0..m {
        for i in 0..n {
            let mut t = x[(i, c)].tangent;
            for j in 0..i {
                t = t.axpy(-l[(i, j)], x[(j, c)].tangent);
            }
            x[(i, c)].tangent = t;
        }
        for i in (0..n).rev() {
            let mut t = x[(i, c)].tangent;
            for j in i + 1..n {
                t = t.axpy(-u[(i, j)], x[(j, c)].tangent);
            }
            x[(i, c)].tangent = t.scale(F::one() / u[(i, i)]);
        }
    }
}

/// `t ← M t` on the tangents of each column, `M` a plain matrix.
fn mul_apply<F: Real, T: ScalarTangent<F>, D: Dim, R2: Dim, C2: Dim>(
    mat: &OMatrix<F, D, D>,
    x: &mut OMatrix<Dual<F, T>, R2, C2>,
) where
    DefaultAllocator: Allocator<D, D> + Allocator<R2, C2>,
{
    let old = x.clone();
    let (n, m) = x.shape();
    for c in 0..m {
        for i in 0..n {
            let mut t = T::zero();
            for k in 0..n {
                t = t.axpy(mat[(i, k)], old[(k, c)].tangent);
            }
            x[(i, c)].tangent = t;
        }
    }
}

// --- Cholesky ---------------------------------------------------------------------------

/// `a.cholesky()` of a matrix over duals: the `f64` factorisation of its primal (see the
/// [module docs](self)); `None` where nalgebra's is.
#[inline]
pub fn cholesky<S: Mode, M: DualSquare<S>>(m: M) -> Option<CholeskyOf<S, M>>
where
    DefaultAllocator: Allocator<M::D, M::D>,
{
    let a = m.owned();
    let chol = Cholesky::new(primal(&a))?;
    Some(DualCholesky {
        chol,
        a: Some(a),
        mode: core::marker::PhantomData,
    })
}

/// A Cholesky factorisation of a matrix over duals: the `f64` factorisation of the primal
/// and the matrix (for `dA`; `None` when constant). Its methods are nalgebra's
/// `Cholesky`'s.
pub struct DualCholesky<S: Mode, D: Dim, F: Real + RealField = f64, T: ScalarTangent<F> = S>
where
    DefaultAllocator: Allocator<D, D>,
{
    pub(crate) chol: Cholesky<F, D>,
    pub(crate) a: Option<OMatrix<Dual<F, T>, D, D>>,
    pub(crate) mode: core::marker::PhantomData<S>,
}

impl<S: Mode, D: Dim, F: Real + RealField, T: ScalarTangent<F>> Clone for DualCholesky<S, D, F, T>
where
    DefaultAllocator: Allocator<D, D>,
{
    fn clone(&self) -> Self {
        DualCholesky {
            chol: self.chol.clone(),
            a: self.a.clone(),
            mode: core::marker::PhantomData,
        }
    }
}

impl<S: Mode, D: Dim, F: Real + RealField, T: ScalarTangent<F>> Copy for DualCholesky<S, D, F, T>
where
    DefaultAllocator: Allocator<D, D>,
    Cholesky<F, D>: Copy,
    OMatrix<Dual<F, T>, D, D>: Copy,
{
}

impl<S: Mode, D: Dim, F: Real + RealField, T: ScalarTangent<F>> core::fmt::Debug
    for DualCholesky<S, D, F, T>
where
    DefaultAllocator: Allocator<D, D>,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cholesky")
            .field("l", self.chol.l_dirty())
            .finish_non_exhaustive()
    }
}

impl<S: Mode, D: Dim, F: Real + RealField, T: ScalarTangent<F>> DualCholesky<S, D, F, T>
where
    DefaultAllocator: Allocator<D, D>,
{
    /// nalgebra's factorisation over duals (for the methods without an implicit rule).
    fn over_duals(&self) -> Cholesky<Dual<F, T>, D> {
        match &self.a {
            Some(a) => Cholesky::new(a.clone()).expect("the primal factorisation succeeded"),
            None => Cholesky::pack_dirty(self.chol.l_dirty().map(|v| Dual::new(v, T::zero()))),
        }
    }

    /// The solution `x` of `A x = b`.
    #[inline]
    pub fn solve<R2: Dim, C2: Dim, St: Storage<Dual<F, T>, R2, C2>>(
        &self,
        b: &Matrix<Dual<F, T>, R2, C2, St>,
    ) -> OMatrix<Dual<F, T>, R2, C2>
    where
        DefaultAllocator: Allocator<R2, C2>,
        ShapeConstraint: SameNumberOfRows<R2, D>,
    {
        let xp = self.chol.solve(&primal(b));
        let l = self.chol.l_dirty();
        implicit::<S, _, _, _, _, _, _>(self.a.as_ref(), b, &xp, |x| cholesky_apply(l, x))
    }

    /// Solves `A x = b` in place.
    #[inline]
    pub fn solve_mut<R2: Dim, C2: Dim, St: StorageMut<Dual<F, T>, R2, C2>>(
        &self,
        b: &mut Matrix<Dual<F, T>, R2, C2, St>,
    ) where
        DefaultAllocator: Allocator<R2, C2>,
        ShapeConstraint: SameNumberOfRows<R2, D>,
    {
        let x = self.solve(&*b);
        b.iter_mut().zip(x.iter()).for_each(|(b, x)| *b = *x);
    }

    /// `A⁻¹`.
    #[inline]
    pub fn inverse(&self) -> OMatrix<Dual<F, T>, D, D> {
        let shape = self.chol.l_dirty().shape_generic();
        let id = OMatrix::<Dual<F, T>, D, D>::identity_generic(shape.0, shape.1);
        let xp = self.chol.inverse();
        let l = self.chol.l_dirty();
        implicit::<S, _, _, _, _, _, _>(self.a.as_ref(), &id, &xp, |x| cholesky_apply(l, x))
    }

    /// `det A`.
    pub fn determinant(&self) -> Dual<F, T> {
        self.over_duals().determinant()
    }

    /// `ln det A`.
    pub fn ln_determinant(&self) -> Dual<F, T> {
        self.over_duals().ln_determinant()
    }

    /// The factor `L`.
    pub fn l(&self) -> OMatrix<Dual<F, T>, D, D> {
        self.over_duals().l()
    }

    /// The factor `L`, consuming the factorisation.
    pub fn unpack(self) -> OMatrix<Dual<F, T>, D, D> {
        self.over_duals().unpack()
    }
}

// --- LU ---------------------------------------------------------------------------------

/// `a.lu()` of a matrix over duals: the `f64` factorisation of its primal (see the
/// [module docs](self)).
#[inline]
pub fn lu<S: Mode, M: DualSquare<S>>(m: M) -> DualLu<S, M::D, M::F, M::T>
where
    M::D: DimMin<M::D, Output = M::D>,
    DefaultAllocator: Allocator<M::D, M::D> + Allocator<M::D>,
{
    let a = m.owned();
    DualLu::new(LU::new(primal(&a)), Some(a))
}

/// An LU factorisation (partial pivoting) of a matrix over duals: the `f64` factorisation
/// of the primal, its factors, and the matrix (for `dA`; `None` when constant). Its
/// methods are nalgebra's `LU`'s.
pub struct DualLu<
    S: Mode,
    D: DimMin<D, Output = D>,
    F: Real + RealField = f64,
    T: ScalarTangent<F> = S,
> where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    lu: LU<F, D, D>,
    l: OMatrix<F, D, D>,
    u: OMatrix<F, D, D>,
    a: Option<OMatrix<Dual<F, T>, D, D>>,
    mode: core::marker::PhantomData<S>,
}

impl<S: Mode, D: DimMin<D, Output = D>, F: Real + RealField, T: ScalarTangent<F>> Clone
    for DualLu<S, D, F, T>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    fn clone(&self) -> Self {
        DualLu {
            lu: self.lu.clone(),
            l: self.l.clone(),
            u: self.u.clone(),
            a: self.a.clone(),
            mode: core::marker::PhantomData,
        }
    }
}

impl<S: Mode, D: DimMin<D, Output = D>, F: Real + RealField, T: ScalarTangent<F>> Copy
    for DualLu<S, D, F, T>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
    LU<F, D, D>: Copy,
    OMatrix<F, D, D>: Copy,
    OMatrix<Dual<F, T>, D, D>: Copy,
{
}

impl<S: Mode, D: DimMin<D, Output = D>, F: Real + RealField, T: ScalarTangent<F>> core::fmt::Debug
    for DualLu<S, D, F, T>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LU")
            .field("l", &self.l)
            .field("u", &self.u)
            .finish_non_exhaustive()
    }
}

impl<S: Mode, D: DimMin<D, Output = D>, F: Real + RealField, T: ScalarTangent<F>> DualLu<S, D, F, T>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    pub(crate) fn new(lu: LU<F, D, D>, a: Option<OMatrix<Dual<F, T>, D, D>>) -> Self {
        let (l, u) = (lu.l(), lu.u());
        DualLu {
            lu,
            l,
            u,
            a,
            mode: core::marker::PhantomData,
        }
    }

    /// nalgebra's factorisation over duals (for the methods without an implicit rule).
    fn over_duals(&self) -> LU<Dual<F, T>, D, D> {
        match &self.a {
            Some(a) => LU::new(a.clone()),
            None => {
                // `P A = L U`: the constant matrix again, which nalgebra refactorises.
                let mut a = &self.l * &self.u;
                self.lu.p().inv_permute_rows(&mut a);
                LU::new(a.map(|v| Dual::new(v, T::zero())))
            }
        }
    }

    /// The solution `x` of `A x = b`; `None` if `A` is singular.
    #[inline]
    pub fn solve<R2: Dim, C2: Dim, St: Storage<Dual<F, T>, R2, C2>>(
        &self,
        b: &Matrix<Dual<F, T>, R2, C2, St>,
    ) -> Option<OMatrix<Dual<F, T>, R2, C2>>
    where
        DefaultAllocator: Allocator<R2, C2>,
        ShapeConstraint: SameNumberOfRows<R2, D>,
    {
        let xp = self.lu.solve(&primal(b))?;
        let (l, u, p) = (&self.l, &self.u, self.lu.p());
        Some(implicit::<S, _, _, _, _, _, _>(
            self.a.as_ref(),
            b,
            &xp,
            |x| lu_apply(l, u, p, x),
        ))
    }

    /// Solves `A x = b` in place; `false` (and `b` unspecified) if `A` is singular.
    #[inline]
    pub fn solve_mut<R2: Dim, C2: Dim, St: StorageMut<Dual<F, T>, R2, C2>>(
        &self,
        b: &mut Matrix<Dual<F, T>, R2, C2, St>,
    ) -> bool
    where
        DefaultAllocator: Allocator<R2, C2>,
        ShapeConstraint: SameNumberOfRows<R2, D>,
    {
        match self.solve(&*b) {
            Some(x) => {
                b.iter_mut().zip(x.iter()).for_each(|(b, x)| *b = *x);
                true
            }
            None => false,
        }
    }

    /// `A⁻¹`; `None` if `A` is singular.
    #[inline]
    pub fn try_inverse(&self) -> Option<OMatrix<Dual<F, T>, D, D>> {
        let shape = self.l.shape_generic();
        let id = OMatrix::<Dual<F, T>, D, D>::identity_generic(shape.0, shape.1);
        self.solve(&id)
    }

    /// Whether `A` is invertible.
    pub fn is_invertible(&self) -> bool {
        self.lu.is_invertible()
    }

    /// `det A`.
    pub fn determinant(&self) -> Dual<F, T> {
        self.over_duals().determinant()
    }

    /// The factor `L`.
    pub fn l(&self) -> OMatrix<Dual<F, T>, D, D> {
        self.over_duals().l()
    }

    /// The factor `U`.
    pub fn u(&self) -> OMatrix<Dual<F, T>, D, D> {
        self.over_duals().u()
    }

    /// The row permutation `P`.
    pub fn p(&self) -> &PermutationSequence<D> {
        self.lu.p()
    }
}

// --- inverse ----------------------------------------------------------------------------

/// What `x.try_inverse()` is called on: a matrix over duals or its LU factorisation.
pub trait TryInverse<S: Mode> {
    /// `Option` of the inverse.
    type Output;
    /// The inverse.
    fn inverse_by_rule(self) -> Self::Output;
}

impl<S: Mode, F: Real + RealField, T: ScalarTangent<F>, D: Dim, St: Storage<Dual<F, T>, D, D>>
    TryInverse<S> for Matrix<Dual<F, T>, D, D, St>
where
    DefaultAllocator: Allocator<D, D>,
{
    type Output = Option<OMatrix<Dual<F, T>, D, D>>;
    #[inline(always)]
    fn inverse_by_rule(self) -> Self::Output {
        matrix_try_inverse::<S, _>(self)
    }
}

impl<S: Mode, F: Real + RealField, T: ScalarTangent<F>, D: Dim, St: Storage<Dual<F, T>, D, D>>
    TryInverse<S> for &Matrix<Dual<F, T>, D, D, St>
where
    DefaultAllocator: Allocator<D, D>,
{
    type Output = Option<OMatrix<Dual<F, T>, D, D>>;
    #[inline(always)]
    fn inverse_by_rule(self) -> Self::Output {
        matrix_try_inverse::<S, _>(self)
    }
}

impl<S: Mode, D: DimMin<D, Output = D>, F: Real + RealField, T: ScalarTangent<F>> TryInverse<S>
    for DualLu<S, D, F, T>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    type Output = Option<OMatrix<Dual<F, T>, D, D>>;
    #[inline(always)]
    fn inverse_by_rule(self) -> Self::Output {
        self.try_inverse()
    }
}

impl<S: Mode, D: DimMin<D, Output = D>, F: Real + RealField, T: ScalarTangent<F>> TryInverse<S>
    for &DualLu<S, D, F, T>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    type Output = Option<OMatrix<Dual<F, T>, D, D>>;
    #[inline(always)]
    fn inverse_by_rule(self) -> Self::Output {
        self.try_inverse()
    }
}

/// `x.try_inverse()` in a derived body: of a matrix over duals (below) or of its LU
/// factorisation ([`DualLu::try_inverse`]).
#[inline(always)]
pub fn try_inverse<S: Mode, M: TryInverse<S>>(m: M) -> M::Output {
    m.inverse_by_rule()
}

/// `a.try_inverse()` of a matrix over duals: nalgebra's `f64` inverse of the primal, with
/// `dA⁻¹ = −A⁻¹ dA A⁻¹` (see the [module docs](self)).
#[inline]
#[allow(clippy::type_complexity)]
fn matrix_try_inverse<S: Mode, M: DualSquare<S>>(
    m: M,
) -> Option<OMatrix<Dual<M::F, M::T>, M::D, M::D>>
where
    DefaultAllocator: Allocator<M::D, M::D>,
{
    let a = m.owned();
    let inv = primal(&a).try_inverse()?;
    let shape = a.shape_generic();
    let id = OMatrix::<Dual<M::F, M::T>, M::D, M::D>::identity_generic(shape.0, shape.1);
    Some(implicit::<S, _, _, _, _, _, _>(Some(&a), &id, &inv, |x| {
        mul_apply(&inv, x)
    }))
}

// --- mixed operations -------------------------------------------------------------------

/// A plain (`f64`, or generic code's `T`) matrix, owned or borrowed: the inactive side of
/// a mixed operation.
pub trait Plain {
    /// The float type.
    type F: Real;
    /// Rows.
    type R: Dim;
    /// Columns.
    type C: Dim;
    /// Storage.
    type St: Storage<Self::F, Self::R, Self::C>;
    /// The matrix.
    fn get(&self) -> &Matrix<Self::F, Self::R, Self::C, Self::St>;
}

impl<F: Real, R: Dim, C: Dim, St: Storage<F, R, C>> Plain for Matrix<F, R, C, St> {
    type F = F;
    type R = R;
    type C = C;
    type St = St;
    #[inline(always)]
    fn get(&self) -> &Self {
        self
    }
}

impl<F: Real, R: Dim, C: Dim, St: Storage<F, R, C>> Plain for &Matrix<F, R, C, St> {
    type F = F;
    type R = R;
    type C = C;
    type St = St;
    #[inline(always)]
    fn get(&self) -> &Matrix<F, R, C, St> {
        self
    }
}

/// A matrix over duals, owned or borrowed: the active side of a mixed operation.
pub trait OverDuals<S: Mode> {
    /// The float type.
    type F: Real;
    /// Its tangent.
    type T: ScalarTangent<Self::F>;
    /// Rows.
    type R: Dim;
    /// Columns.
    type C: Dim;
    /// Storage.
    type St: Storage<Dual<Self::F, Self::T>, Self::R, Self::C>;
    /// The matrix.
    fn get(&self) -> &MatrixOf<S, Self>;
}

impl<S: Mode, F: Real, T: ScalarTangent<F>, R: Dim, C: Dim, St: Storage<Dual<F, T>, R, C>>
    OverDuals<S> for Matrix<Dual<F, T>, R, C, St>
{
    type F = F;
    type T = T;
    type R = R;
    type C = C;
    type St = St;
    #[inline(always)]
    fn get(&self) -> &Self {
        self
    }
}

/// Borrowed, once or more (`&v` of a local `v: &Vector3<_>`, a view of a row borrowed).
impl<S: Mode, A: OverDuals<S>> OverDuals<S> for &A {
    type F = A::F;
    type T = A::T;
    type R = A::R;
    type C = A::C;
    type St = A::St;
    #[inline(always)]
    fn get(&self) -> &Matrix<Dual<A::F, A::T>, A::R, A::C, A::St> {
        (**self).get()
    }
}

/// Borrowed mutably (`q.coords.norm_squared()` of a point over duals, whose field the
/// method call borrows as the receiver).
impl<S: Mode, A: OverDuals<S>> OverDuals<S> for &mut A {
    type F = A::F;
    type T = A::T;
    type R = A::R;
    type C = A::C;
    type St = A::St;
    #[inline(always)]
    fn get(&self) -> &Matrix<Dual<A::F, A::T>, A::R, A::C, A::St> {
        (**self).get()
    }
}

/// The form over duals of a matrix of `A`'s scalar.
type DualsOf<S, A, R, C> = OMatrix<Dual<<A as OverDuals<S>>::F, <A as OverDuals<S>>::T>, R, C>;

/// `a * b`, `a` plain: the primal is nalgebra's product of the primals (the user's bits),
/// the tangent `a · db` (no product with `a`'s zero tangent).
#[inline(always)]
pub fn mixed_mul_pd<S: Mode, A: Plain, B: OverDuals<S, F = A::F>>(
    a: A,
    b: B,
) -> DualsOf<S, B, A::R, B::C>
where
    DefaultAllocator: Allocator<B::R, B::C> + Allocator<A::R, B::C>,
    for<'x, 'y> &'x Matrix<A::F, A::R, A::C, A::St>:
        core::ops::Mul<&'y OMatrix<A::F, B::R, B::C>, Output = OMatrix<A::F, A::R, B::C>>,
{
    let (a, b) = (a.get(), b.get());
    let p = a * &primal(b);
    let n = a.ncols();
    p.map_with_location(|i, c, p| {
        let mut t = b[(0, c)].tangent.scale(a[(i, 0)]);
        for k in 1..n {
            t = t.axpy(a[(i, k)], b[(k, c)].tangent);
        }
        Dual::new(p, t)
    })
}

/// `a * b`, `b` plain: `da · b`.
#[inline(always)]
pub fn mixed_mul_dp<S: Mode, A: OverDuals<S>, B: Plain<F = A::F>>(
    a: A,
    b: B,
) -> DualsOf<S, A, A::R, B::C>
where
    DefaultAllocator: Allocator<A::R, A::C> + Allocator<A::R, B::C>,
    for<'x, 'y> &'x OMatrix<A::F, A::R, A::C>:
        core::ops::Mul<&'y Matrix<A::F, B::R, B::C, B::St>, Output = OMatrix<A::F, A::R, B::C>>,
{
    let (a, b) = (a.get(), b.get());
    let p = &primal(a) * b;
    let n = a.ncols();
    p.map_with_location(|i, c, p| {
        let mut t = a[(i, 0)].tangent.scale(b[(0, c)]);
        for k in 1..n {
            t = t.axpy(b[(k, c)], a[(i, k)].tangent);
        }
        Dual::new(p, t)
    })
}

/// Implements an elementwise mixed operation (`+`, `-`): primal by nalgebra on the plain
/// floats, tangent the active side's (negated where it is subtracted).
macro_rules! mixed_elementwise {
    ($pd:ident, $dp:ident, $Tr:ident, $op:tt, $neg:expr) => {
        /// `a op b`, `a` plain.
        #[inline(always)]
        pub fn $pd<S: Mode, A: Plain, B: OverDuals<S, F = A::F>>(
            a: A,
            b: B,
        ) -> DualsOf<S, B, B::R, B::C>
        where
            DefaultAllocator: Allocator<B::R, B::C>,
            for<'x, 'y> &'x Matrix<A::F, A::R, A::C, A::St>:
                core::ops::$Tr<&'y OMatrix<A::F, B::R, B::C>, Output = OMatrix<A::F, B::R, B::C>>,
        {
            let (a, b) = (a.get(), b.get());
            let p = a $op &primal(b);
            let neg: fn(B::T) -> B::T = $neg;
            p.zip_map(b, |p, d| Dual::new(p, neg(d.tangent)))
        }

        /// `a op b`, `b` plain.
        #[inline(always)]
        pub fn $dp<S: Mode, A: OverDuals<S>, B: Plain<F = A::F>>(
            a: A,
            b: B,
        ) -> DualsOf<S, A, A::R, A::C>
        where
            DefaultAllocator: Allocator<A::R, A::C>,
            for<'x, 'y> &'x OMatrix<A::F, A::R, A::C>:
                core::ops::$Tr<&'y Matrix<A::F, B::R, B::C, B::St>, Output = OMatrix<A::F, A::R, A::C>>,
        {
            let (a, b) = (a.get(), b.get());
            let p = &primal(a) $op b;
            p.zip_map(a, |p, d| Dual::new(p, d.tangent))
        }
    };
}

mixed_elementwise!(mixed_add_pd, mixed_add_dp, Add, +, |t| t);
mixed_elementwise!(mixed_sub_pd, mixed_sub_dp, Sub, -, |t| t.neg());

/// Whether a tangent is exactly zero: a compare in one direction, the branchless
/// `ScalarTangent::is_zero` of a batch (which compares lanes without a branch per lane).
#[inline(always)]
fn is_zero<F: Real, T: ScalarTangent<F>>(t: &T) -> bool {
    if core::mem::size_of::<T>() == core::mem::size_of::<F>() {
        *t == T::zero()
    } else {
        t.is_zero()
    }
}

/// `a * b` of two matrices over duals: the primal is nalgebra's product of the primals
/// (the user's bits), the tangent `da · b + a · db`, each term skipped when its matrix's
/// tangent is zero throughout (a parameter the caller seeds with no direction, as a
/// gradient in the other arguments does): one check per matrix, where a dual product
/// would multiply every zero. Second order keeps nalgebra's product over duals (its mixed
/// term).
#[inline(always)]
pub fn dual_mul<S: Mode, A: OverDuals<S>, B: OverDuals<S, F = A::F, T = A::T>>(
    a: A,
    b: B,
) -> DualsOf<S, A, A::R, B::C>
where
    DefaultAllocator: Allocator<A::R, A::C> + Allocator<B::R, B::C> + Allocator<A::R, B::C>,
    for<'x, 'y> &'x OMatrix<A::F, A::R, A::C>:
        core::ops::Mul<&'y OMatrix<A::F, B::R, B::C>, Output = OMatrix<A::F, A::R, B::C>>,
    for<'x, 'y> &'x Matrix<Dual<A::F, A::T>, A::R, A::C, A::St>: core::ops::Mul<
        &'y Matrix<Dual<A::F, A::T>, B::R, B::C, B::St>,
        Output = DualsOf<S, A, A::R, B::C>,
    >,
{
    let (a, b) = (a.get(), b.get());
    if S::ORDER > 1 {
        return a * b;
    }
    let (ap, bp) = (primal(a), primal(b));
    let p = &ap * &bp;
    let a_moves = !a.iter().all(|d| is_zero(&d.tangent));
    let b_moves = !b.iter().all(|d| is_zero(&d.tangent));
    let n = a.ncols();
    p.map_with_location(|i, c, p| {
        let mut t = A::T::zero();
        if a_moves {
            for k in 0..n {
                t = t.axpy(bp[(k, c)], a[(i, k)].tangent);
            }
        }
        if b_moves {
            for k in 0..n {
                t = t.axpy(ap[(i, k)], b[(k, c)].tangent);
            }
        }
        Dual::new(p, t)
    })
}

// --- norms ------------------------------------------------------------------------------

/// `v.norm()` of a matrix over duals: nalgebra's norm of the primal (the user's bits),
/// tangent `(v · dv) / |v|` in one pass over the entries, and zero at `v = 0` (as
/// `sqrt`'s rule at 0 for a tangent of `|v|²` that is 0 there). Second order keeps
/// nalgebra's norm over duals.
#[inline(always)]
pub fn norm<S: Mode, A: OverDuals<S>>(v: A) -> Dual<A::F, A::T>
where
    A::F: RealField,
    DefaultAllocator: Allocator<A::R, A::C>,
{
    let v = v.get();
    if S::ORDER > 1 {
        return v.norm();
    }
    let p = primal(v).norm();
    if p == <A::F as Zero>::zero() {
        return Dual::new(p, A::T::zero());
    }
    Dual::new(p, primal_dot_tangent(v).scale(<A::F as One>::one() / p))
}

/// `v.norm_squared()` of a matrix over duals: nalgebra's value, tangent `2 v · dv`.
/// Second order keeps nalgebra's over duals.
#[inline(always)]
pub fn norm_squared<S: Mode, A: OverDuals<S>>(v: A) -> Dual<A::F, A::T>
where
    A::F: RealField,
    DefaultAllocator: Allocator<A::R, A::C>,
{
    let v = v.get();
    if S::ORDER > 1 {
        return v.norm_squared();
    }
    let p = primal(v).norm_squared();
    Dual::new(p, primal_dot_tangent(v).scale(A::F::cst(2.0)))
}

/// `v · dv`: the entries' primals against their tangents, in one pass.
#[inline(always)]
fn primal_dot_tangent<
    F: Real,
    T: ScalarTangent<F>,
    R: Dim,
    C: Dim,
    St: Storage<Dual<F, T>, R, C>,
>(
    v: &Matrix<Dual<F, T>, R, C, St>,
) -> T {
    v.iter().fold(T::zero(), |t, d| t.axpy(d.primal, d.tangent))
}

/// A dual over `f64` (the QR factorisation of constant data is `f64`'s).
type D64<S> = Dual<f64, S>;

/// A QR factorisation (Householder) of constant data, `A = QR`, solving for right-hand
/// sides that carry tangents: the primal is nalgebra's `f64` solve, bit for bit, the
/// tangent `dx = R⁻¹ Qᵀ db` through the same factors (`dA = 0`). What a `qr()` of a
/// constant matrix is in a rule (a factorisation of an active matrix is nalgebra's over
/// duals). Its methods are nalgebra's `QR`'s that take or give values.
pub struct DualQr<S: Mode, D: DimMin<D, Output = D>>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    qr: QR<f64, D, D>,
    q: OMatrix<f64, D, D>,
    r: OMatrix<f64, D, D>,
    mode: core::marker::PhantomData<S>,
}

impl<S: Mode, D: DimMin<D, Output = D>> Clone for DualQr<S, D>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    fn clone(&self) -> Self {
        DualQr {
            qr: self.qr.clone(),
            q: self.q.clone(),
            r: self.r.clone(),
            mode: core::marker::PhantomData,
        }
    }
}

impl<S: Mode, D: DimMin<D, Output = D>> DualQr<S, D>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    /// The factorisation of a constant matrix.
    pub fn new(qr: QR<f64, D, D>) -> Self {
        let (q, r) = (qr.q(), qr.r());
        DualQr {
            qr,
            q,
            r,
            mode: core::marker::PhantomData,
        }
    }

    /// Solves `A x = b`; `None` if `A` is singular.
    #[inline]
    pub fn solve<R2: Dim, C2: Dim, St: Storage<D64<S>, R2, C2>>(
        &self,
        b: &Matrix<D64<S>, R2, C2, St>,
    ) -> Option<OMatrix<D64<S>, R2, C2>>
    where
        DefaultAllocator: Allocator<R2, C2>,
        ShapeConstraint: SameNumberOfRows<R2, D>,
    {
        let xp = self.qr.solve(&primal(b))?;
        Some(implicit::<S, _, _, _, _, _, _>(None, b, &xp, |x| {
            qr_apply(&self.q, &self.r, x)
        }))
    }

    /// Solves `A x = b` in place; `false` (and `b` unspecified) if `A` is singular.
    #[inline]
    pub fn solve_mut<R2: Dim, C2: Dim, St: StorageMut<D64<S>, R2, C2>>(
        &self,
        b: &mut Matrix<D64<S>, R2, C2, St>,
    ) -> bool
    where
        DefaultAllocator: Allocator<R2, C2>,
        ShapeConstraint: SameNumberOfRows<R2, D>,
    {
        match self.solve(&*b) {
            Some(x) => {
                b.iter_mut().zip(x.iter()).for_each(|(b, x)| *b = *x);
                true
            }
            None => false,
        }
    }

    /// `A⁻¹` (constant); `None` if `A` is singular.
    pub fn try_inverse(&self) -> Option<OMatrix<D64<S>, D, D>> {
        Some(constant(&self.qr.try_inverse()?))
    }

    /// Whether `A` is invertible.
    pub fn is_invertible(&self) -> bool {
        self.qr.is_invertible()
    }

    /// The orthogonal factor (constant).
    pub fn q(&self) -> OMatrix<D64<S>, D, D> {
        constant(&self.q)
    }

    /// The upper-triangular factor (constant).
    pub fn r(&self) -> OMatrix<D64<S>, D, D> {
        constant(&self.r)
    }
}

/// A constant matrix over duals.
fn constant<S: Mode, R: Dim, C: Dim>(m: &OMatrix<f64, R, C>) -> OMatrix<D64<S>, R, C>
where
    DefaultAllocator: Allocator<R, C>,
{
    m.map(|p| Dual::new(p, S::zero()))
}

/// `x ← R⁻¹ Qᵀ x` on the tangents of each column of `x`.
fn qr_apply<S: Mode, D: Dim, R2: Dim, C2: Dim>(
    q: &OMatrix<f64, D, D>,
    r: &OMatrix<f64, D, D>,
    x: &mut OMatrix<D64<S>, R2, C2>,
) where
    DefaultAllocator: Allocator<D, D> + Allocator<R2, C2>,
{
    let (n, m) = x.shape();
    let mut qtb = Vec::with_capacity(n);
    for c in 0..m {
        qtb.clear();
        qtb.extend(
            (0..n).map(|i| (0..n).fold(S::zero(), |t, j| t.axpy(q[(j, i)], x[(j, c)].tangent))),
        );
        for i in (0..n).rev() {
            let mut t = qtb[i];
            for j in i + 1..n {
                t = t.axpy(-r[(i, j)], x[(j, c)].tangent);
            }
            x[(i, c)].tangent = t.scale(1.0 / r[(i, i)]);
        }
    }
}
