//! nalgebra's geometry types in derived bodies (feature `nalgebra`): points, translations,
//! rotations, unit vectors, quaternions, unit complex numbers, isometries, and the
//! projections `Perspective3`, `Orthographic3` (tangent: their homogeneous `Matrix4`).
//!
//! nalgebra writes them generically over `T: RealField`, so, as its matrices, an active one
//! is the same type over dual scalars (`UnitQuaternion<Dual<f64, S>>`) and nalgebra's own
//! code (`from_axis_angle`, `q * v`, `iso.inverse()`, `slerp`, `euler_angles`, ...)
//! computes its tangents: no rule per method.
//!
//! **Tangent: the ambient coordinates.** Each type is stored as a few numbers (a point's
//! `coords`, a rotation's matrix, a unit quaternion's four components `[i, j, k, w]`, a
//! unit complex's `[re, im]`, an isometry's rotation components followed by its
//! translation), and its tangent is a nalgebra matrix of those numbers' tangents
//! ([`Coordinates::Coords`]): `Point3<f64>` has tangent `Vector3<f64>`,
//! `UnitQuaternion<f64>` `Vector4<f64>`, `Rotation3<f64>` `Matrix3<f64>`, `Isometry3<f64>`
//! `SVector<f64, 7>` (`IsometryMatrix3<f64>` 12: the matrix by columns, then the
//! translation; `Similarity3<f64>` 8: the isometry's 7, then the scaling). The tangent of a value computed in a body is the derivative of its
//! components, so it lies in the tangent space of the group (`dR = R·[ω]ₓ`, `dq ⟂ q`). A
//! tangent passed in for a parameter is taken as given and not projected: pass one
//! tangent to the group (for a unit quaternion `q` and angular velocity `ω` in the body
//! frame, `dq = q ⊗ (ω/2, 0)`) for a derivative along the group, or pass the parameter as
//! a constant (`Dual::constant(&iso)`).
//!
//! Conversions copy components: the primal of a lifted value, and of an unlifted result,
//! is bit for bit the `f64` value.
//!
//! ```
//! use fwdad_runtime::lift::{lift, unlift};
//! use fwdad_runtime::Dual;
//! use nalgebra::{Quaternion, UnitQuaternion, Vector3, Vector4};
//!
//! // An orientation turning at body rate ω: dq = q ⊗ (ω/2, 0), given by its components.
//! let q = UnitQuaternion::from_euler_angles(0.3, -0.2, 0.9);
//! let w = Vector3::new(0.5, -1.0, 0.25);
//! let dq: Vector4<f64> = (q.into_inner() * Quaternion::from_imag(w / 2.0)).coords;
//! let qd: UnitQuaternion<Dual<f64>> = lift::<f64, _>(Dual::new(&q, &dq));
//! let v = Vector3::new(1.0, 2.0, -0.5);
//! // nalgebra's own `q * v` over duals; back to the dual of the whole vector.
//! let r: Dual<Vector3<f64>, Vector3<f64>> = unlift(qd * v.map(Dual::constant));
//! assert_eq!(r.primal, q * v); // bit for bit
//! // By hand: d(R v) = R (ω × v).
//! assert!((r.tangent - q * w.cross(&v)).norm() < 1e-15);
//! ```

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::nalgebra::DualIn;
use crate::real::Real;
use crate::tangent::{Mode, ScalarTangent};
use nalgebra::{
    ArrayStorage, Complex, Isometry, Orthographic3, Perspective3, Point, Quaternion, Rotation,
    SMatrix, SVector, Scalar, Similarity, Translation, Unit, UnitComplex, UnitQuaternion,
};
use simba::scalar::RealField;

/// A geometry type over any nalgebra scalar `T`, as the matrix of its components.
pub trait Coordinates<T: Scalar> {
    /// The components (`Vector3<T>` for a point, `Vector4<T>` for a unit quaternion).
    type Coords;
    /// The value's components, copied.
    fn to_coords(&self) -> Self::Coords;
    /// The value with these components, as they are (a unit type is not renormalised).
    fn from_coords(c: Self::Coords) -> Self;
}

/// Implements [`Coordinates`] for a geometry type generic over its scalar `T`, from the
/// expressions that take the components out (`|x| ..`) and put them back (`|c| ..`).
macro_rules! coordinates {
    ($([$($g:tt)*] $ty:ty, $coords:ty, |$x:ident| $to:expr, |$c:ident| $from:expr;)*) => {$(
        impl<T: RealField + Copy, $($g)*> Coordinates<T> for $ty {
            type Coords = $coords;
            #[inline(always)]
            fn to_coords(&self) -> $coords {
                let $x = self;
                $to
            }
            #[inline(always)]
            fn from_coords($c: $coords) -> Self {
                $from
            }
        }
    )*};
}

coordinates! {
    [const D: usize] Point<T, D>, SVector<T, D>, |p| p.coords, |c| Point::from(c);
    [const D: usize] Translation<T, D>, SVector<T, D>, |t| t.vector, |c| Translation::from(c);
    [const D: usize] Rotation<T, D>, SMatrix<T, D, D>, |r| *r.matrix(), |c| Rotation::from_matrix_unchecked(c);
    [const D: usize] Unit<SVector<T, D>>, SVector<T, D>, |u| u.into_inner(), |c| Unit::new_unchecked(c);
    [] Quaternion<T>, SVector<T, 4>, |q| q.coords, |c| Quaternion::from(c);
    [] UnitQuaternion<T>, SVector<T, 4>, |q| q.coords, |c| Unit::new_unchecked(Quaternion::from(c));
    [] UnitComplex<T>, SVector<T, 2>, |z| SVector::<T, 2>::new(z.re, z.im), |c| Unit::new_unchecked(Complex::new(c[0], c[1]));
    // The rotation's components, then the translation (then the scaling).
    [] Isometry<T, UnitQuaternion<T>, 3>, SVector<T, 7>,
        |i| concat(&[i.rotation.coords.as_slice(), i.translation.vector.as_slice()]),
        |c| Isometry::from_parts(
            Translation::from(c.fixed_rows::<3>(4).into_owned()),
            Unit::new_unchecked(Quaternion::from(c.fixed_rows::<4>(0).into_owned())),
        );
    [] Isometry<T, UnitComplex<T>, 2>, SVector<T, 4>,
        |i| concat(&[&[i.rotation.re, i.rotation.im], i.translation.vector.as_slice()]),
        |c| Isometry::from_parts(
            Translation::from(c.fixed_rows::<2>(2).into_owned()),
            Unit::new_unchecked(Complex::new(c[0], c[1])),
        );
    [] Isometry<T, Rotation<T, 3>, 3>, SVector<T, 12>,
        |i| concat(&[i.rotation.matrix().as_slice(), i.translation.vector.as_slice()]),
        |c| Isometry::from_parts(
            Translation::from(c.fixed_rows::<3>(9).into_owned()),
            Rotation::from_matrix_unchecked(SMatrix::<T, 3, 3>::from_column_slice(&c.as_slice()[..9])),
        );
    [] Isometry<T, Rotation<T, 2>, 2>, SVector<T, 6>,
        |i| concat(&[i.rotation.matrix().as_slice(), i.translation.vector.as_slice()]),
        |c| Isometry::from_parts(
            Translation::from(c.fixed_rows::<2>(4).into_owned()),
            Rotation::from_matrix_unchecked(SMatrix::<T, 2, 2>::from_column_slice(&c.as_slice()[..4])),
        );
    [] Similarity<T, UnitQuaternion<T>, 3>, SVector<T, 8>,
        |s| concat(&[s.isometry.to_coords().as_slice(), &[s.scaling()]]),
        |c| Similarity::from_isometry(
            Isometry::from_coords(c.fixed_rows::<7>(0).into_owned()),
            c[7],
        );
    // A camera's projection, as its homogeneous matrix.
    [] Perspective3<T>, SMatrix<T, 4, 4>, |p| *p.as_matrix(), |c| Perspective3::from_matrix_unchecked(c);
    [] Orthographic3<T>, SMatrix<T, 4, 4>, |p| *p.as_matrix(), |c| Orthographic3::from_matrix_unchecked(c);
    [] Similarity<T, UnitComplex<T>, 2>, SVector<T, 5>,
        |s| concat(&[s.isometry.to_coords().as_slice(), &[s.scaling()]]),
        |c| Similarity::from_isometry(
            Isometry::from_coords(c.fixed_rows::<4>(0).into_owned()),
            c[4],
        );
}

/// The components of `parts`, one after the other.
#[inline(always)]
fn concat<T: Scalar + Copy, const N: usize>(parts: &[&[T]]) -> SVector<T, N> {
    SVector::from_iterator(parts.iter().flat_map(|p| p.iter().copied()))
}

/// `Differentiable`, `ZeroTangent`, `Lift` and `Unlift` of a geometry type over a float
/// type `F` (`$ty`, generic over `$g` besides; `f64`, or a function's `T: RealField`) whose
/// form over duals is `$dual` and whose components are `SMatrix<_, $r, $k>`: the tangent
/// is the components' matrix.
macro_rules! geometry_type {
    ($([$($g:tt)*] $ty:ty, $dual:ty, $r:expr, $k:expr;)*) => {$(
        impl<F: Real + RealField, $($g)*> Differentiable for $ty {
            type Tangent = SMatrix<F, { $r }, { $k }>;
            type TangentIn<S: Mode> = SMatrix<F::TangentIn<S>, { $r }, { $k }>;
        }
        impl<F: Real + RealField, $($g)*> $crate::traits::UserValue for $ty {}

        impl<'__fwdad_c, F: Real + RealField, $($g)*> $crate::constant::Constant for &'__fwdad_c $ty {
            type Primal = &'__fwdad_c $ty;
            type Zero = $crate::constant::ConstTangent;
            #[inline(always)]
            fn constant(self) -> Dual<&'__fwdad_c $ty, $crate::constant::ConstTangent> {
                Dual::new(self, $crate::constant::ConstTangent)
            }
        }

        impl<F: Real + RealField, $($g)*> ZeroTangent for $ty {
            #[inline(always)]
            fn zero_tangent(&self) -> SMatrix<F, { $r }, { $k }> {
                SMatrix::from_data(ArrayStorage([[F::zero(); $r]; $k]))
            }
            #[inline(always)]
            fn zero_tangent_in<S: Mode>(&self) -> SMatrix<F::TangentIn<S>, { $r }, { $k }> {
                SMatrix::<F, { $r }, { $k }>::from_data(ArrayStorage([[F::zero(); $r]; $k])).zero_tangent_in::<S>()
            }
        }

        crate::nalgebra::lift_generic_float_type!(
            [F: Real + RealField, $($g)*]
            $ty,
            SMatrix<F::TangentIn<S>, { $r }, { $k }>,
            $dual,
            |p, t| <$dual>::from_coords(p.to_coords().zip_map(&t, Dual::new)),
            |c| <$dual>::from_coords(c.to_coords().map(|x| Dual::new(x, x.zero_tangent_in::<S>()))),
            |d| {
                let c = d.to_coords();
                Dual::new(<$ty>::from_coords(c.map(|x| x.primal)), c.map(|x| x.tangent))
            }
        );
    )*};
}

/// Through a `dyn` call (`f64` values): the components' lanes.
macro_rules! geometry_lanes {
    ($([$($g:tt)*] $ty:ty, $r:expr, $k:expr;)*) => {$(
        impl<$($g)*> $crate::traits::LaneValue for $ty {
            #[inline]
            fn lane1<S: Mode>(t: &SMatrix<S, { $r }, { $k }>, k: usize) -> SMatrix<f64, { $r }, { $k }> {
                <SMatrix<f64, { $r }, { $k }> as $crate::traits::LaneValue>::lane1::<S>(t, k)
            }
            #[inline]
            fn lane2<S: Mode>(
                t: &SMatrix<S, { $r }, { $k }>,
                k: usize,
            ) -> SMatrix<$crate::Hyper<f64, f64>, { $r }, { $k }> {
                <SMatrix<f64, { $r }, { $k }> as $crate::traits::LaneValue>::lane2::<S>(t, k)
            }
            #[inline]
            fn set_lane1<S: Mode>(
                t: &mut SMatrix<S, { $r }, { $k }>,
                k: usize,
                v: &SMatrix<f64, { $r }, { $k }>,
            ) {
                <SMatrix<f64, { $r }, { $k }> as $crate::traits::LaneValue>::set_lane1::<S>(t, k, v)
            }
            #[inline]
            fn set_lane2<S: Mode>(
                t: &mut SMatrix<S, { $r }, { $k }>,
                k: usize,
                v: &SMatrix<$crate::Hyper<f64, f64>, { $r }, { $k }>,
            ) {
                <SMatrix<f64, { $r }, { $k }> as $crate::traits::LaneValue>::set_lane2::<S>(t, k, v)
            }
        }
    )*};
}

geometry_type! {
    [const D: usize] Point<F, D>, Point<DualIn<F, S>, D>, D, 1;
    [const D: usize] Translation<F, D>, Translation<DualIn<F, S>, D>, D, 1;
    [const D: usize] Rotation<F, D>, Rotation<DualIn<F, S>, D>, D, D;
    [const D: usize] Unit<SVector<F, D>>, Unit<SVector<DualIn<F, S>, D>>, D, 1;
    [] Quaternion<F>, Quaternion<DualIn<F, S>>, 4, 1;
    [] UnitQuaternion<F>, UnitQuaternion<DualIn<F, S>>, 4, 1;
    [] UnitComplex<F>, UnitComplex<DualIn<F, S>>, 2, 1;
    [] Isometry<F, UnitQuaternion<F>, 3>, Isometry<DualIn<F, S>, UnitQuaternion<DualIn<F, S>>, 3>, 7, 1;
    [] Isometry<F, UnitComplex<F>, 2>, Isometry<DualIn<F, S>, UnitComplex<DualIn<F, S>>, 2>, 4, 1;
    [] Isometry<F, Rotation<F, 3>, 3>, Isometry<DualIn<F, S>, Rotation<DualIn<F, S>, 3>, 3>, 12, 1;
    [] Isometry<F, Rotation<F, 2>, 2>, Isometry<DualIn<F, S>, Rotation<DualIn<F, S>, 2>, 2>, 6, 1;
    [] Similarity<F, UnitQuaternion<F>, 3>, Similarity<DualIn<F, S>, UnitQuaternion<DualIn<F, S>>, 3>, 8, 1;
    [] Similarity<F, UnitComplex<F>, 2>, Similarity<DualIn<F, S>, UnitComplex<DualIn<F, S>>, 2>, 5, 1;
    [] Perspective3<F>, Perspective3<DualIn<F, S>>, 4, 4;
    [] Orthographic3<F>, Orthographic3<DualIn<F, S>>, 4, 4;
}

geometry_lanes! {
    [const D: usize] Point<f64, D>, D, 1;
    [const D: usize] Translation<f64, D>, D, 1;
    [const D: usize] Rotation<f64, D>, D, D;
    [const D: usize] Unit<SVector<f64, D>>, D, 1;
    [] Quaternion<f64>, 4, 1;
    [] UnitQuaternion<f64>, 4, 1;
    [] UnitComplex<f64>, 2, 1;
    [] Isometry<f64, UnitQuaternion<f64>, 3>, 7, 1;
    [] Isometry<f64, UnitComplex<f64>, 2>, 4, 1;
    [] Isometry<f64, Rotation<f64, 3>, 3>, 12, 1;
    [] Isometry<f64, Rotation<f64, 2>, 2>, 6, 1;
    [] Similarity<f64, UnitQuaternion<f64>, 3>, 8, 1;
    [] Similarity<f64, UnitComplex<f64>, 2>, 5, 1;
    [] Perspective3<f64>, 4, 4;
    [] Orthographic3<f64>, 4, 4;
}
