//! kurbo 0.13.1's affine maps and shapes (<https://github.com/linebender/kurbo>; Copyright
//! 2018-2020 the Kurbo Authors; Apache-2.0 OR MIT, whose notices are kept below): `Vec2`
//! and `Point` with their operators, `Affine` (rotations, scalings, reflections about a
//! point, composition, inverse, its singular values by the closed form of `svd`),
//! `Circle` and `Ellipse` (its perimeter by Kummer's series or the arithmetic-geometric
//! mean) with the `Shape` measures, and `Line`, `QuadBez` and `CubicBez` with their signed
//! areas, a segment's nearest point, the crossing of two lines and the curvature (the
//! default method of `ParamCurveCurvature`, through the derivative curves' associated
//! types). Each item is copied verbatim from the published crate's `src/` (the file is
//! named on each module; items that need types left out, `Rect`, `BezPath`, `ArrayVec`,
//! are left out with them), with `#[fwdad::derive_frule]` on each trait, `impl` and free
//! function, and `fwdad::Differentiable` added to each type's derive list.
//!
//! Derivatives are checked against closed forms (rotations about a point, the singular
//! value's `u vᵀ`, the cofactor of the determinant, the projection onto a segment, Green's
//! area as Gauss-Legendre quadrature of the Bernstein basis, the derivative of curvature
//! written out, the perimeter as the periodic trapezoid rule of `∫ |E'(t)| dt`) and central
//! differences; primals bit for bit against the published crate, in every mode.
//!
//! Not reachable: kurbo's root finders (`solve_quadratic`, `solve_cubic`) return
//! `arrayvec::ArrayVec`, which has no tangent type, so `QuadBez::nearest`,
//! `ParamCurveExtrema` and `bounding_box` stay out (see the report in `docs/limits.md`).

// kurbo's `cfg_attr(feature = "serde" | "schemars")` derives, for features this crate does not have;
// index loops over Jacobian and Hessian entries, as the closed forms are written.
#![allow(unexpected_cfgs, clippy::needless_range_loop)]

#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports, unused_macros, unexpected_cfgs, missing_docs)]
pub mod verbatim {
    // Copyright 2018 the Kurbo Authors
    // SPDX-License-Identifier: Apache-2.0 OR MIT

    pub mod vec2 {
        //! From `kurbo/src/vec2.rs`.
        use core::iter::Sum;
        use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};
        
        use super::Point;

        /// A 2D vector.
        ///
        /// This is intended primarily for a vector in the mathematical sense,
        /// but it can be interpreted as a translation, and converted to and
        /// from a [`Point`] (vector relative to the origin) and [`Size`].
        #[derive(Clone, Copy, Default, Debug, PartialEq, fwdad::Differentiable)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct Vec2 {
            /// The x-coordinate.
            pub x: f64,
            /// The y-coordinate.
            pub y: f64,
        }

        #[fwdad::derive_frule]
        impl Vec2 {
            /// The vector (0, 0).
            pub const ZERO: Vec2 = Vec2::new(0., 0.);

            /// Create a new vector.
            #[inline(always)]
            pub const fn new(x: f64, y: f64) -> Vec2 {
                Vec2 { x, y }
            }

            /// Convert this vector into a [`Point`].
            #[inline(always)]
            pub const fn to_point(self) -> Point {
                Point::new(self.x, self.y)
            }

            /// Create a vector with the same value for `x` and `y`.
            #[inline(always)]
            pub const fn splat(v: f64) -> Self {
                Vec2 { x: v, y: v }
            }

            /// Dot product of two vectors.
            #[inline]
            pub const fn dot(self, other: Vec2) -> f64 {
                self.x * other.x + self.y * other.y
            }

            /// Cross product of two vectors.
            ///
            /// This is signed so that `(1, 0) × (0, 1) = 1`.
            ///
            /// The following relations hold:
            ///
            /// `u.cross(v) = -v.cross(u)`
            ///
            /// `v.cross(v) = 0.0`
            #[inline]
            pub const fn cross(self, other: Vec2) -> f64 {
                self.x * other.y - self.y * other.x
            }

            /// Magnitude of vector.
            ///
            /// See [`Point::distance`] for the same operation on [`Point`].
            ///
            /// # Examples
            ///
            /// ```
            /// use kurbo::Vec2;
            /// let v = Vec2::new(3.0, 4.0);
            /// assert_eq!(v.hypot(), 5.0);
            /// ```
            #[inline]
            pub fn hypot(self) -> f64 {
                // Avoid f64::hypot as it calls a slow library function.
                self.hypot2().sqrt()
            }

            /// Magnitude of vector.
            ///
            /// This is an alias for [`Vec2::hypot`].
            #[inline]
            pub fn length(self) -> f64 {
                self.hypot()
            }

            /// Magnitude squared of vector.
            ///
            /// See [`Point::distance_squared`] for the same operation on [`Point`].
            ///
            /// # Examples
            ///
            /// ```
            /// use kurbo::Vec2;
            /// let v = Vec2::new(3.0, 4.0);
            /// assert_eq!(v.hypot2(), 25.0);
            /// ```
            #[inline]
            pub const fn hypot2(self) -> f64 {
                self.dot(self)
            }

            /// Magnitude squared of vector.
            ///
            /// This is an alias for [`Vec2::hypot2`].
            #[inline]
            pub const fn length_squared(self) -> f64 {
                self.hypot2()
            }

            /// Find the angle in radians between this vector and the vector `Vec2 { x: 1.0, y: 0.0 }`
            /// in the positive `y` direction.
            ///
            /// If the vector is interpreted as a complex number, this is the argument.
            /// The angle is expressed in radians.
            #[inline]
            pub fn atan2(self) -> f64 {
                self.y.atan2(self.x)
            }

            /// Find the angle in radians between this vector and the vector `Vec2 { x: 1.0, y: 0.0 }`
            /// in the positive `y` direction.
            ///
            /// This is an alias for [`Vec2::atan2`].
            #[inline]
            pub fn angle(self) -> f64 {
                self.atan2()
            }

            /// A unit vector of the given angle.
            ///
            /// With `th` at zero, the result is the positive X unit vector, and
            /// at π/2, it is the positive Y unit vector. The angle is expressed
            /// in radians.
            ///
            /// Thus, in a Y-down coordinate system (as is common for graphics),
            /// it is a clockwise rotation, and in Y-up (traditional for math), it
            /// is anti-clockwise. This convention is consistent with
            /// [`Affine::rotate`].
            ///
            /// [`Affine::rotate`]: crate::Affine::rotate
            #[inline]
            pub fn from_angle(th: f64) -> Vec2 {
                let (th_sin, th_cos) = th.sin_cos();
                Vec2 {
                    x: th_cos,
                    y: th_sin,
                }
            }

            /// Linearly interpolate between two vectors.
            #[inline]
            pub fn lerp(self, other: Vec2, t: f64) -> Vec2 {
                self + t * (other - self)
            }

            /// Returns a vector of [magnitude] 1.0 with the same angle as `self`; i.e.
            /// a unit/direction vector.
            ///
            /// This produces `NaN` values when the magnitude is `0`.
            ///
            /// [magnitude]: Self::hypot
            #[inline]
            pub fn normalize(self) -> Vec2 {
                self / self.hypot()
            }

            /// Is this `Vec2` [finite]?
            ///
            /// [finite]: f64::is_finite
            #[inline]
            pub const fn is_finite(self) -> bool {
                self.x.is_finite() && self.y.is_finite()
            }

            /// Is this `Vec2` [`NaN`]?
            ///
            /// [`NaN`]: f64::is_nan
            #[inline]
            pub const fn is_nan(self) -> bool {
                self.x.is_nan() || self.y.is_nan()
            }

            /// Turn by 90 degrees.
            ///
            /// The rotation is clockwise in a Y-down coordinate system. The following relations hold:
            ///
            /// `u.dot(v) = u.cross(v.turn_90())`
            ///
            /// `u.cross(v) = u.turn_90().dot(v)`
            #[inline]
            pub const fn turn_90(self) -> Vec2 {
                Vec2::new(-self.y, self.x)
            }

            /// Combine two vectors interpreted as rotation and scaling.
            ///
            /// Interpret both vectors as a rotation and a scale, and combine
            /// their effects.  by adding the angles and multiplying the magnitudes.
            /// This operation is equivalent to multiplication when the vectors
            /// are interpreted as complex numbers. It is commutative.
            #[inline]
            pub const fn rotate_scale(self, rhs: Vec2) -> Vec2 {
                Vec2::new(
                    self.x * rhs.x - self.y * rhs.y,
                    self.x * rhs.y + self.y * rhs.x,
                )
            }
        }

        #[fwdad::derive_frule]
        impl From<(f64, f64)> for Vec2 {
            #[inline(always)]
            fn from(v: (f64, f64)) -> Vec2 {
                Vec2 { x: v.0, y: v.1 }
            }
        }

        #[fwdad::derive_frule]
        impl Add for Vec2 {
            type Output = Vec2;

            #[inline]
            fn add(self, other: Vec2) -> Vec2 {
                Vec2 {
                    x: self.x + other.x,
                    y: self.y + other.y,
                }
            }
        }

        #[fwdad::derive_frule]
        impl AddAssign for Vec2 {
            #[inline]
            fn add_assign(&mut self, other: Vec2) {
                *self = Vec2 {
                    x: self.x + other.x,
                    y: self.y + other.y,
                }
            }
        }

        #[fwdad::derive_frule]
        impl Sum for Vec2 {
            fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
                iter.fold(Vec2::ZERO, |sum, v| sum + v)
            }
        }

        #[fwdad::derive_frule]
        impl Sub for Vec2 {
            type Output = Vec2;

            #[inline]
            fn sub(self, other: Vec2) -> Vec2 {
                Vec2 {
                    x: self.x - other.x,
                    y: self.y - other.y,
                }
            }
        }

        #[fwdad::derive_frule]
        impl SubAssign for Vec2 {
            #[inline]
            fn sub_assign(&mut self, other: Vec2) {
                *self = Vec2 {
                    x: self.x - other.x,
                    y: self.y - other.y,
                }
            }
        }

        #[fwdad::derive_frule]
        impl Mul<f64> for Vec2 {
            type Output = Vec2;

            #[inline]
            fn mul(self, other: f64) -> Vec2 {
                Vec2 {
                    x: self.x * other,
                    y: self.y * other,
                }
            }
        }

        #[fwdad::derive_frule]
        impl MulAssign<f64> for Vec2 {
            #[inline]
            fn mul_assign(&mut self, other: f64) {
                *self = Vec2 {
                    x: self.x * other,
                    y: self.y * other,
                };
            }
        }

        #[fwdad::derive_frule]
        impl Mul<Vec2> for f64 {
            type Output = Vec2;

            #[inline]
            fn mul(self, other: Vec2) -> Vec2 {
                other * self
            }
        }

        #[fwdad::derive_frule]
        impl Div<f64> for Vec2 {
            type Output = Vec2;

            /// Note: division by a scalar is implemented by multiplying by the reciprocal.
            ///
            /// This is more efficient but has different roundoff behavior than division.
            #[inline]
            #[allow(clippy::suspicious_arithmetic_impl)]
            fn div(self, other: f64) -> Vec2 {
                self * other.recip()
            }
        }

        #[fwdad::derive_frule]
        impl DivAssign<f64> for Vec2 {
            #[inline]
            fn div_assign(&mut self, other: f64) {
                self.mul_assign(other.recip());
            }
        }

        #[fwdad::derive_frule]
        impl Neg for Vec2 {
            type Output = Vec2;

            #[inline]
            fn neg(self) -> Vec2 {
                Vec2 {
                    x: -self.x,
                    y: -self.y,
                }
            }
        }
    }

    pub mod point {
        //! From `kurbo/src/point.rs`.
        use core::fmt;
        use core::ops::{Add, AddAssign, Sub, SubAssign};
        
        use super::Vec2;

        /// A 2D point.
        ///
        /// This type represents a point in 2D space. It has the same layout as [`Vec2`], but
        /// its meaning is different: `Vec2` represents a change in location (for example velocity).
        ///
        /// In general, `kurbo` overloads math operators where it makes sense, for example implementing
        /// `Affine * Point` as the point under the affine transformation. However `Point + Point` and
        /// `f64 * Point` are not implemented, because the operations do not make geometric sense. If you
        /// need to apply these operations, then 1) check what you're doing makes geometric sense, then 2)
        /// use [`Point::to_vec2`] to convert the point to a `Vec2`.
        #[derive(Clone, Copy, Default, PartialEq, fwdad::Differentiable)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct Point {
            /// The x coordinate.
            pub x: f64,
            /// The y coordinate.
            pub y: f64,
        }

        #[fwdad::derive_frule]
        impl Point {
            /// The point (0, 0).
            pub const ZERO: Point = Point::new(0., 0.);

            /// The point at the origin; (0, 0).
            pub const ORIGIN: Point = Point::new(0., 0.);

            /// Create a new `Point` with the provided `x` and `y` coordinates.
            #[inline(always)]
            pub const fn new(x: f64, y: f64) -> Self {
                Point { x, y }
            }

            /// Convert this point into a `Vec2`.
            #[inline(always)]
            pub const fn to_vec2(self) -> Vec2 {
                Vec2::new(self.x, self.y)
            }

            /// Linearly interpolate between two points.
            #[inline]
            pub fn lerp(self, other: Point, t: f64) -> Point {
                self.to_vec2().lerp(other.to_vec2(), t).to_point()
            }

            /// Determine the midpoint of two points.
            #[inline]
            pub const fn midpoint(self, other: Point) -> Point {
                Point::new(0.5 * (self.x + other.x), 0.5 * (self.y + other.y))
            }

            /// Euclidean distance.
            ///
            /// See [`Vec2::hypot`] for the same operation on [`Vec2`].
            #[inline]
            pub fn distance(self, other: Point) -> f64 {
                (self - other).hypot()
            }

            /// Squared Euclidean distance.
            ///
            /// See [`Vec2::hypot2`] for the same operation on [`Vec2`].
            #[inline]
            pub fn distance_squared(self, other: Point) -> f64 {
                (self - other).hypot2()
            }

            /// Is this point [finite]?
            ///
            /// [finite]: f64::is_finite
            #[inline]
            pub const fn is_finite(self) -> bool {
                self.x.is_finite() && self.y.is_finite()
            }

            /// Is this point [`NaN`]?
            ///
            /// [`NaN`]: f64::is_nan
            #[inline]
            pub const fn is_nan(self) -> bool {
                self.x.is_nan() || self.y.is_nan()
            }
        }

        #[fwdad::derive_frule]
        impl From<(f64, f64)> for Point {
            #[inline(always)]
            fn from(v: (f64, f64)) -> Point {
                Point { x: v.0, y: v.1 }
            }
        }

        #[fwdad::derive_frule]
        impl Add<Vec2> for Point {
            type Output = Point;

            #[inline]
            fn add(self, other: Vec2) -> Self {
                Point::new(self.x + other.x, self.y + other.y)
            }
        }

        #[fwdad::derive_frule]
        impl AddAssign<Vec2> for Point {
            #[inline]
            fn add_assign(&mut self, other: Vec2) {
                *self = Point::new(self.x + other.x, self.y + other.y);
            }
        }

        #[fwdad::derive_frule]
        impl Sub<Vec2> for Point {
            type Output = Point;

            #[inline]
            fn sub(self, other: Vec2) -> Self {
                Point::new(self.x - other.x, self.y - other.y)
            }
        }

        #[fwdad::derive_frule]
        impl SubAssign<Vec2> for Point {
            #[inline]
            fn sub_assign(&mut self, other: Vec2) {
                *self = Point::new(self.x - other.x, self.y - other.y);
            }
        }

        #[fwdad::derive_frule]
        impl Sub<Point> for Point {
            type Output = Vec2;

            #[inline]
            fn sub(self, other: Point) -> Vec2 {
                Vec2::new(self.x - other.x, self.y - other.y)
            }
        }

        impl fmt::Debug for Point {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "({:?}, {:?})", self.x, self.y)
            }
        }
    }

    pub mod affine {
        //! From `kurbo/src/affine.rs`.
        use core::ops::{Mul, MulAssign};
        
        use super::{Point, Vec2};

        /// A 2D affine transform.
        #[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct Affine([f64; 6]);

        #[fwdad::derive_frule]
        impl Affine {
            /// The identity transform.
            pub const IDENTITY: Affine = Affine::scale(1.0);

            /// A transform that is flipped on the y-axis. Useful for converting between
            /// y-up and y-down spaces.
            pub const FLIP_Y: Affine = Affine::new([1.0, 0., 0., -1.0, 0., 0.]);

            /// A transform that is flipped on the x-axis.
            pub const FLIP_X: Affine = Affine::new([-1.0, 0., 0., 1.0, 0., 0.]);

            /// Construct an affine transform from coefficients.
            ///
            /// If the coefficients are `(a, b, c, d, e, f)`, then the resulting
            /// transformation represents this augmented matrix:
            ///
            /// ```text
            /// | a c e |
            /// | b d f |
            /// | 0 0 1 |
            /// ```
            ///
            /// Note that this convention is transposed from PostScript and
            /// Direct2D, but is consistent with the
            /// [Wikipedia](https://en.wikipedia.org/wiki/Affine_transformation)
            /// formulation of affine transformation as augmented matrix. The
            /// idea is that `(A * B) * v == A * (B * v)`, where `*` is the
            /// [`Mul`] trait.
            #[inline(always)]
            pub const fn new(c: [f64; 6]) -> Affine {
                Affine(c)
            }

            /// An affine transform representing uniform scaling.
            #[inline(always)]
            pub const fn scale(s: f64) -> Affine {
                Affine([s, 0.0, 0.0, s, 0.0, 0.0])
            }

            /// An affine transform representing non-uniform scaling
            /// with different scale values for x and y
            #[inline(always)]
            pub const fn scale_non_uniform(s_x: f64, s_y: f64) -> Affine {
                Affine([s_x, 0.0, 0.0, s_y, 0.0, 0.0])
            }

            /// An affine transform representing a scale of `scale` about `center`.
            ///
            /// Useful for a view transform that zooms at a specific point,
            /// while keeping that point fixed in the result space.
            ///
            /// See [`Affine::scale()`] for more info.
            #[inline]
            pub fn scale_about(s: f64, center: impl Into<Point>) -> Affine {
                let center = center.into().to_vec2();
                Self::translate(-center)
                    .then_scale(s)
                    .then_translate(center)
            }

            /// An affine transform representing rotation.
            ///
            /// The convention for rotation is that a positive angle rotates a
            /// positive X direction into positive Y. Thus, in a Y-down coordinate
            /// system (as is common for graphics), it is a clockwise rotation, and
            /// in Y-up (traditional for math), it is anti-clockwise.
            ///
            /// The angle, `th`, is expressed in radians.
            #[inline]
            pub fn rotate(th: f64) -> Affine {
                let (s, c) = th.sin_cos();
                Affine([c, s, -s, c, 0.0, 0.0])
            }

            /// An affine transform representing a rotation of `th` radians about `center`.
            ///
            /// See [`Affine::rotate()`] for more info.
            #[inline]
            pub fn rotate_about(th: f64, center: impl Into<Point>) -> Affine {
                let center = center.into().to_vec2();
                Self::translate(-center)
                    .then_rotate(th)
                    .then_translate(center)
            }

            /// An affine transform representing translation.
            #[inline(always)]
            pub fn translate<V: Into<Vec2>>(p: V) -> Affine {
                let p = p.into();
                Affine([1.0, 0.0, 0.0, 1.0, p.x, p.y])
            }

            /// An affine transformation representing a skew.
            ///
            /// The `skew_x` and `skew_y` parameters represent skew factors for the
            /// horizontal and vertical directions, respectively.
            ///
            /// This is commonly used to generate a faux oblique transform for
            /// font rendering. In this case, you can slant the glyph 20 degrees
            /// clockwise in the horizontal direction (assuming a Y-up coordinate
            /// system):
            ///
            /// ```
            /// let oblique_transform = kurbo::Affine::skew(20f64.to_radians().tan(), 0.0);
            /// ```
            #[inline(always)]
            pub const fn skew(skew_x: f64, skew_y: f64) -> Affine {
                Affine([1.0, skew_y, skew_x, 1.0, 0.0, 0.0])
            }

            /// Create an affine transform that represents reflection about the line `point + direction * t, t in (-infty, infty)`
            ///
            /// # Examples
            ///
            /// ```
            /// # use kurbo::{Point, Vec2, Affine};
            /// # fn assert_near(p0: Point, p1: Point) {
            /// #     assert!((p1 - p0).hypot() < 1e-9, "{p0:?} != {p1:?}");
            /// # }
            /// let point = Point::new(1., 0.);
            /// let vec = Vec2::new(1., 1.);
            /// let map = Affine::reflect(point, vec);
            /// assert_near(map * Point::new(1., 0.), Point::new(1., 0.));
            /// assert_near(map * Point::new(2., 1.), Point::new(2., 1.));
            /// assert_near(map * Point::new(2., 2.), Point::new(3., 1.));
            /// ```
            #[inline]
            #[must_use]
            pub fn reflect(point: impl Into<Point>, direction: impl Into<Vec2>) -> Self {
                let point = point.into();
                let direction = direction.into();

                let n = Vec2 {
                    x: direction.y,
                    y: -direction.x,
                }
                .normalize();

                // Compute Householder reflection matrix
                let x2 = n.x * n.x;
                let xy = n.x * n.y;
                let y2 = n.y * n.y;
                // Here we also add in the post translation, because it doesn't require any further calc.
                let aff = Affine::new([
                    1. - 2. * x2,
                    -2. * xy,
                    -2. * xy,
                    1. - 2. * y2,
                    point.x,
                    point.y,
                ]);
                aff.pre_translate(-point.to_vec2())
            }

            /// A [rotation] by `th` followed by `self`.
            ///
            /// Equivalent to `self * Affine::rotate(th)`
            ///
            /// [rotation]: Affine::rotate
            #[inline]
            #[must_use]
            pub fn pre_rotate(self, th: f64) -> Self {
                self * Affine::rotate(th)
            }

            /// A [rotation] by `th` about `center` followed by `self`.
            ///
            /// Equivalent to `self * Affine::rotate_about(th, center)`
            ///
            /// [rotation]: Affine::rotate_about
            #[inline]
            #[must_use]
            pub fn pre_rotate_about(self, th: f64, center: impl Into<Point>) -> Self {
                self * Affine::rotate_about(th, center)
            }

            /// A [scale] by `scale` followed by `self`.
            ///
            /// Equivalent to `self * Affine::scale(scale)`
            ///
            /// [scale]: Affine::scale
            #[inline]
            #[must_use]
            pub fn pre_scale(self, scale: f64) -> Self {
                self * Affine::scale(scale)
            }

            /// A [scale] by `(scale_x, scale_y)` followed by `self`.
            ///
            /// Equivalent to `self * Affine::scale_non_uniform(scale_x, scale_y)`
            ///
            /// [scale]: Affine::scale_non_uniform
            #[inline]
            #[must_use]
            pub fn pre_scale_non_uniform(self, scale_x: f64, scale_y: f64) -> Self {
                self * Affine::scale_non_uniform(scale_x, scale_y)
            }

            /// A [translation] of `trans` followed by `self`.
            ///
            /// Equivalent to `self * Affine::translate(trans)`
            ///
            /// [translation]: Affine::translate
            #[inline]
            #[must_use]
            pub fn pre_translate(self, trans: Vec2) -> Self {
                self * Affine::translate(trans)
            }

            /// A [skew] of `(skew_x, skew_y)` followed by `self`.
            ///
            /// Equivalent to `self * Affine::skew(skew_x, skew_y)`
            ///
            /// [skew]: Affine::skew
            #[inline]
            #[must_use]
            pub fn pre_skew(self, skew_x: f64, skew_y: f64) -> Self {
                self * Affine::skew(skew_x, skew_y)
            }

            /// A [reflection] about the line through `point` in `direction` followed by `self`.
            ///
            /// Equivalent to `self * Affine::reflect(point, direction)`
            ///
            /// [reflection]: Affine::reflect
            #[inline]
            #[must_use]
            pub fn pre_reflect(self, point: impl Into<Point>, direction: impl Into<Vec2>) -> Self {
                self * Affine::reflect(point, direction)
            }

            /// `self` followed by a [rotation] of `th`.
            ///
            /// Equivalent to `Affine::rotate(th) * self`
            ///
            /// [rotation]: Affine::rotate
            #[inline]
            #[must_use]
            pub fn then_rotate(self, th: f64) -> Self {
                Affine::rotate(th) * self
            }

            /// `self` followed by a [rotation] of `th` about `center`.
            ///
            /// Equivalent to `Affine::rotate_about(th, center) * self`
            ///
            /// [rotation]: Affine::rotate_about
            #[inline]
            #[must_use]
            pub fn then_rotate_about(self, th: f64, center: impl Into<Point>) -> Self {
                Affine::rotate_about(th, center) * self
            }

            /// `self` followed by a [scale] of `scale`.
            ///
            /// Equivalent to `Affine::scale(scale) * self`
            ///
            /// [scale]: Affine::scale
            #[inline]
            #[must_use]
            pub fn then_scale(self, scale: f64) -> Self {
                Affine::scale(scale) * self
            }

            /// `self` followed by a [scale] of `(scale_x, scale_y)`.
            ///
            /// Equivalent to `Affine::scale_non_uniform(scale_x, scale_y) * self`
            ///
            /// [scale]: Affine::scale_non_uniform
            #[inline]
            #[must_use]
            pub fn then_scale_non_uniform(self, scale_x: f64, scale_y: f64) -> Self {
                Affine::scale_non_uniform(scale_x, scale_y) * self
            }

            /// `self` followed by a [scale] of `scale` about `center`.
            ///
            /// Equivalent to `Affine::scale_about(scale) * self`
            ///
            /// [scale]: Affine::scale_about
            #[inline]
            #[must_use]
            pub fn then_scale_about(self, scale: f64, center: impl Into<Point>) -> Self {
                Affine::scale_about(scale, center) * self
            }

            /// `self` followed by a [skew] of `(skew_x, skew_y)`.
            ///
            /// Equivalent to `Affine::skew(skew_x, skew_y) * self`
            ///
            /// [skew]: Affine::skew
            #[inline]
            #[must_use]
            pub fn then_skew(self, skew_x: f64, skew_y: f64) -> Self {
                Affine::skew(skew_x, skew_y) * self
            }

            /// `self` followed by a [reflection] about the line through `point` in `direction`.
            ///
            /// Equivalent to `Affine::reflect(point, direction) * self`
            ///
            /// [reflection]: Affine::reflect
            #[inline]
            #[must_use]
            pub fn then_reflect(self, point: impl Into<Point>, direction: impl Into<Vec2>) -> Self {
                Affine::reflect(point, direction) * self
            }

            /// `self` followed by a translation of `trans`.
            ///
            /// Equivalent to `Affine::translate(trans) * self`
            ///
            /// [translation]: Affine::translate
            #[inline]
            #[must_use]
            pub const fn then_translate(mut self, trans: Vec2) -> Self {
                self.0[4] += trans.x;
                self.0[5] += trans.y;
                self
            }

            /// Get the coefficients of the transform.
            #[inline(always)]
            pub const fn as_coeffs(self) -> [f64; 6] {
                self.0
            }

            /// Compute the determinant of this transform.
            ///
            /// # Geometric interpretation
            ///
            /// Consider a region transformed by this affine. The transformed region's area is the area of
            /// the original region scaled by the absolute value of the determinant. A negative determinant
            /// indicates orientation reversal.
            #[inline]
            pub const fn determinant(self) -> f64 {
                self.0[0] * self.0[3] - self.0[1] * self.0[2]
            }

            /// Compute the square of the nuclear norm of this transform.
            ///
            /// This is the square of the [Schatten p-norm][schatten] with `p=1`, also known as the "trace norm."
            ///
            /// Returns the squared norm for efficiency; take the square root as necessary.
            ///
            /// # Geometric interpretation
            ///
            /// Consider a unit circle transformed by this affine. The nuclear norm is the sum of the
            /// resulting ellipse's radii (semi axes). That sum multiplied by π is a first-order
            /// approximation of the ellipse's perimeter.
            ///
            /// [schatten]: <https://en.wikipedia.org/w/index.php?title=Matrix_norm&oldid=1348997593#Schatten_norms>
            #[inline]
            pub const fn nuclear_norm_squared(self) -> f64 {
                self.frobenius_norm_squared() + 2. * self.determinant().abs()
            }

            /// Compute the square of the Frobenius norm of this transform.
            ///
            /// This is the square of the [Schatten p-norm][schatten] with `p=2`.
            ///
            /// Returns the squared norm for efficiency; take the square root as necessary.
            ///
            /// # Geometric interpretation
            ///
            /// Consider a unit circle transformed by this affine. The squared Frobenius norm is twice the
            /// mean squared radius of the resulting ellipse. Alternatively, it is equal to the squared
            /// distance from the ellipse's center to a corner of the rectangle spanned by the ellipse's
            /// axes.
            ///
            /// [schatten]: <https://en.wikipedia.org/w/index.php?title=Matrix_norm&oldid=1348997593#Schatten_norms>
            #[inline]
            pub const fn frobenius_norm_squared(self) -> f64 {
                let [a, b, c, d, _, _] = self.as_coeffs();
                a * a + b * b + c * c + d * d
            }

            /// Compute the spectral norm of this transform.
            ///
            /// This is the [Schatten p-norm][schatten] with `p=∞`.
            ///
            /// # Geometric interpretation
            ///
            /// Consider a unit circle transformed by this affine. The spectral norm is the major radius
            /// (semi-major axis) of the Ellipse.
            ///
            /// [schatten]: <https://en.wikipedia.org/w/index.php?title=Matrix_norm&oldid=1348997593#Schatten_norms>
            #[inline]
            pub fn spectral_norm(self) -> f64 {
                // Note a different calculation, returning the `_squared` form like our nuclear and
                // Frobenius norms, could be `0.5 (frob^2 + sqrt(frob^4 - 4 det^2))`. In terms of operations
                // it's a wash: one fewer sqrt if the user actually wants the squared form, but it uses more
                // muls. More importantly, that form has worse numeric conditioning.
                self.svd().0.x
            }

            /// Compute the inverse transform.
            ///
            /// Produces NaN values when the determinant is zero.
            pub const fn inverse(self) -> Affine {
                let inv_det = self.determinant().recip();
                Affine([
                    inv_det * self.0[3],
                    -inv_det * self.0[1],
                    -inv_det * self.0[2],
                    inv_det * self.0[0],
                    inv_det * (self.0[2] * self.0[5] - self.0[3] * self.0[4]),
                    inv_det * (self.0[1] * self.0[4] - self.0[0] * self.0[5]),
                ])
            }

            /// Is this map [finite]?
            ///
            /// [finite]: f64::is_finite
            #[inline]
            pub const fn is_finite(&self) -> bool {
                self.0[0].is_finite()
                    && self.0[1].is_finite()
                    && self.0[2].is_finite()
                    && self.0[3].is_finite()
                    && self.0[4].is_finite()
                    && self.0[5].is_finite()
            }

            /// Is this map [NaN]?
            ///
            /// [NaN]: f64::is_nan
            #[inline]
            pub const fn is_nan(&self) -> bool {
                self.0[0].is_nan()
                    || self.0[1].is_nan()
                    || self.0[2].is_nan()
                    || self.0[3].is_nan()
                    || self.0[4].is_nan()
                    || self.0[5].is_nan()
            }

            #[inline(always)]
            pub(crate) fn svd(self) -> (Vec2, f64) {
                let [a, b, c, d, _, _] = self.0;
                let a2 = a * a;
                let b2 = b * b;
                let c2 = c * c;
                let d2 = d * d;
                let ab = a * b;
                let cd = c * d;
                let angle = 0.5 * (2.0 * (ab + cd)).atan2(a2 - b2 + c2 - d2);

                // Given matrix A = [ a c ]
                //                  [ b d ]
                //
                // The two singular values σ1, σ2 of A are the square roots of the two eigen values λ1, λ2
                // of M = A^T A. The common formula for 2x2 eigenvalues requires evaluating a square root,
                // but we'd like to compute the singular values of the matrix without nested square roots.
                //
                // M = A^T A = [ aa+cc   ab+cd ]
                //             [ ab+cd   bb+dd ]
                //
                // We have
                // λ = 1/2 (tr(M) ± sqrt(tr(M)^2 - 4 det(M))).
                //
                // Note det(M) = det(A^T A) = det(A)^2.
                // => 2λ = tr(M) ± sqrt(tr(M)^2 - 4 det(A)^2)
                // => 2λ = tr(M) ± sqrt[(a^2+b^2+c^2+d^2)^2 - 4 (ad-bc)^2]
                // By factorizing the inner term,
                // => 2λ = tr(M) ± sqrt[((a+d)^2 + (b-c)^2) ((a-d)^2 + (b+c)^2)]
                // => 2λ = tr(M) ± sqrt[(a+d)^2 + (b-c)^2] sqrt[(a-d)^2 + (b+c)^2]
                //
                // Define S1 = sqrt[(a+d)^2 + (b-c)^2]
                //        S2 = sqrt[(a-d)^2 + (b+c)^2].
                //
                // => 2λ = tr(M) ± S1 S2
                // => 2λ = 1/2 (S1^2 + S2^2) ± S1 S2
                // => λ = 1/4 (S1^2 + S2^2 ± 2 S1 S2)
                // => λ = 1/4 (S1 ± S2)^2
                //
                // Note we're interested in
                // σ = sqrt(λ).
                //
                // => σ1 = 1/2 (S1 + S2)
                // and similarly σ2 = 1/2 |S1 - S2|
                let s1 = ((a + d).powi(2) + (b - c).powi(2)).sqrt();
                let s2 = ((a - d).powi(2) + (b + c).powi(2)).sqrt();
                (
                    Vec2 {
                        x: 0.5 * (s1 + s2),
                        y: 0.5 * (s1 - s2).abs(),
                    },
                    angle,
                )
            }

            /// Returns the translation part of this affine map (`(self.0[4], self.0[5])`).
            #[inline(always)]
            pub const fn translation(self) -> Vec2 {
                Vec2 {
                    x: self.0[4],
                    y: self.0[5],
                }
            }

            /// Replaces the translation portion of this affine map
            ///
            /// The translation can be seen as being applied after the linear part of the map.
            #[must_use]
            #[inline(always)]
            pub const fn with_translation(mut self, trans: Vec2) -> Affine {
                self.0[4] = trans.x;
                self.0[5] = trans.y;
                self
            }
        }

        #[fwdad::derive_frule]
        impl Default for Affine {
            #[inline(always)]
            fn default() -> Affine {
                Affine::IDENTITY
            }
        }

        #[fwdad::derive_frule]
        impl Mul<Point> for Affine {
            type Output = Point;

            #[inline]
            fn mul(self, other: Point) -> Point {
                Point::new(
                    self.0[0] * other.x + self.0[2] * other.y + self.0[4],
                    self.0[1] * other.x + self.0[3] * other.y + self.0[5],
                )
            }
        }

        #[fwdad::derive_frule]
        impl Mul for Affine {
            type Output = Affine;

            #[inline]
            fn mul(self, other: Affine) -> Affine {
                Affine([
                    self.0[0] * other.0[0] + self.0[2] * other.0[1],
                    self.0[1] * other.0[0] + self.0[3] * other.0[1],
                    self.0[0] * other.0[2] + self.0[2] * other.0[3],
                    self.0[1] * other.0[2] + self.0[3] * other.0[3],
                    self.0[0] * other.0[4] + self.0[2] * other.0[5] + self.0[4],
                    self.0[1] * other.0[4] + self.0[3] * other.0[5] + self.0[5],
                ])
            }
        }

        #[fwdad::derive_frule]
        impl MulAssign for Affine {
            #[inline]
            fn mul_assign(&mut self, other: Affine) {
                *self = self.mul(other);
            }
        }

        #[fwdad::derive_frule]
        impl Mul<Affine> for f64 {
            type Output = Affine;

            #[inline]
            fn mul(self, other: Affine) -> Affine {
                Affine([
                    self * other.0[0],
                    self * other.0[1],
                    self * other.0[2],
                    self * other.0[3],
                    self * other.0[4],
                    self * other.0[5],
                ])
            }
        }
    }

    pub mod shape {
        //! From `kurbo/src/shape.rs`, the trait's `area`, `perimeter`, `winding` and `contains`.
        use super::Point;

        /// A generic trait for open and closed shapes.
        ///
        /// This trait provides conversion from shapes to [`BezPath`]s, as well as
        /// general geometry functionality like computing [`area`], [`bounding_box`]es,
        /// and [`winding`] number.
        ///
        /// [`area`]: Shape::area
        /// [`bounding_box`]: Shape::bounding_box
        /// [`winding`]: Shape::winding
        #[fwdad::derive_frule]
        pub trait Shape {
            /// Signed area.
            ///
            /// This method only produces meaningful results with closed shapes.
            ///
            /// The convention for positive area is that y increases when x is
            /// positive. Thus, it is clockwise when down is increasing y (the
            /// usual convention for graphics), and anticlockwise when
            /// up is increasing y (the usual convention for math).
            fn area(&self) -> f64;

            /// Total length of perimeter.
            //FIXME: document the accuracy param
            fn perimeter(&self, accuracy: f64) -> f64;

            /// The [winding number] of a point.
            ///
            /// This method only produces meaningful results with closed shapes.
            ///
            /// The sign of the winding number is consistent with that of [`area`],
            /// meaning it is +1 when the point is inside a positive area shape
            /// and -1 when it is inside a negative area shape. Of course, greater
            /// magnitude values are also possible when the shape is more complex.
            ///
            /// [`area`]: Shape::area
            /// [winding number]: https://mathworld.wolfram.com/ContourWindingNumber.html
            fn winding(&self, pt: Point) -> i32;

            /// Returns `true` if the [`Point`] is inside this shape.
            ///
            /// This is only meaningful for closed shapes. Some shapes may have specialized
            /// implementations of this function or of [`winding`] determination.
            ///
            /// The default implementation uses the non-zero winding rule.
            ///
            /// To determine containment using the even-odd winding rule, check the
            /// [`winding`] directly.
            ///
            /// [`winding`]: Self::winding
            fn contains(&self, pt: Point) -> bool {
                self.winding(pt) != 0
            }
        }
    }

    pub mod circle {
        //! From `kurbo/src/circle.rs`, and its `Shape` impl's `area`, `perimeter` and `winding`.
        use core::{
            f64::consts::PI,
            ops::{Add, Mul, Sub},
        };
        
        use super::{Affine, Ellipse, Point, Shape, Vec2};

        /// A circle.
        #[derive(Clone, Copy, Default, Debug, PartialEq, fwdad::Differentiable)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct Circle {
            /// The center.
            pub center: Point,
            /// The radius.
            pub radius: f64,
        }

        #[fwdad::derive_frule]
        impl Circle {
            /// A new circle from center and radius.
            #[inline(always)]
            pub fn new(center: impl Into<Point>, radius: f64) -> Circle {
                Circle {
                    center: center.into(),
                    radius,
                }
            }

            /// Is this circle [finite]?
            ///
            /// [finite]: f64::is_finite
            #[inline]
            pub fn is_finite(&self) -> bool {
                self.center.is_finite() && self.radius.is_finite()
            }

            /// Is this circle [NaN]?
            ///
            /// [NaN]: f64::is_nan
            #[inline]
            pub fn is_nan(&self) -> bool {
                self.center.is_nan() || self.radius.is_nan()
            }
        }

        #[fwdad::derive_frule]
        impl Add<Vec2> for Circle {
            type Output = Circle;

            #[inline]
            fn add(self, v: Vec2) -> Circle {
                Circle {
                    center: self.center + v,
                    radius: self.radius,
                }
            }
        }

        #[fwdad::derive_frule]
        impl Sub<Vec2> for Circle {
            type Output = Circle;

            #[inline]
            fn sub(self, v: Vec2) -> Circle {
                Circle {
                    center: self.center - v,
                    radius: self.radius,
                }
            }
        }

        #[fwdad::derive_frule]
        impl Mul<Circle> for Affine {
            type Output = Ellipse;
            fn mul(self, other: Circle) -> Self::Output {
                self * Ellipse::from(other)
            }
        }

        #[fwdad::derive_frule]
        impl Shape for Circle {
            #[inline]
            fn area(&self) -> f64 {
                PI * self.radius.powi(2)
            }

            #[inline]
            fn perimeter(&self, _accuracy: f64) -> f64 {
                (2.0 * PI * self.radius).abs()
            }

            fn winding(&self, pt: Point) -> i32 {
                if (pt - self.center).hypot2() < self.radius.powi(2) {
                    1
                } else {
                    0
                }
            }
        }
    }

    pub mod ellipse {
        //! From `kurbo/src/ellipse.rs`, but for `from_rect` and the `Shape` impl's path and bounding box.
        use core::f64::consts::PI;
        use core::ops::{Add, Mul, Sub};
        
        use super::{Affine, Circle, Point, Shape, Vec2};

        /// An ellipse.
        #[derive(Clone, Copy, Default, Debug, PartialEq, fwdad::Differentiable)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct Ellipse {
            /// All ellipses can be represented as an affine map of the unit circle,
            /// centred at (0, 0). Therefore we can store the ellipse as an affine map,
            /// with the implication that it be applied to the unit circle to recover the
            /// actual shape.
            inner: Affine,
        }

        #[fwdad::derive_frule]
        impl Ellipse {
            /// Create A new ellipse with a given center, radii, and rotation.
            ///
            /// The returned ellipse will be the result of taking a circle, stretching
            /// it by the `radii` along the x and y axes, then rotating it from the
            /// x axis by `rotation` radians, before finally translating the center
            /// to `center`.
            ///
            /// Rotation is clockwise in a y-down coordinate system. For more on
            /// rotation, see [`Affine::rotate`].
            #[inline]
            pub fn new(center: impl Into<Point>, radii: impl Into<Vec2>, x_rotation: f64) -> Ellipse {
                let Point { x: cx, y: cy } = center.into();
                let Vec2 { x: rx, y: ry } = radii.into();
                Ellipse::private_new(Vec2 { x: cx, y: cy }, rx, ry, x_rotation)
            }

            /// Create an ellipse from an affine transformation of the unit circle.
            #[inline(always)]
            pub const fn from_affine(affine: Affine) -> Self {
                Ellipse { inner: affine }
            }

            /// Create a new `Ellipse` centered on the provided point.
            #[inline]
            #[must_use]
            pub fn with_center(self, new_center: impl Into<Point>) -> Ellipse {
                let Point { x: cx, y: cy } = new_center.into();
                Ellipse {
                    inner: self.inner.with_translation(Vec2 { x: cx, y: cy }),
                }
            }

            /// Create a new `Ellipse` with the provided radii.
            #[inline]
            #[must_use]
            pub fn with_radii(self, new_radii: Vec2) -> Ellipse {
                let rotation = self.inner.svd().1;
                let translation = self.inner.translation();
                Ellipse::private_new(translation, new_radii.x, new_radii.y, rotation)
            }

            /// Create a new `Ellipse`, with the rotation replaced by `rotation`
            /// radians.
            ///
            /// The rotation is clockwise, for a y-down coordinate system. For more
            /// on rotation, See [`Affine::rotate`].
            #[inline]
            #[must_use]
            pub fn with_rotation(self, rotation: f64) -> Ellipse {
                let scale = self.inner.svd().0;
                let translation = self.inner.translation();
                Ellipse::private_new(translation, scale.x, scale.y, rotation)
            }

            /// This gives us an internal method without any type conversions.
            #[inline]
            fn private_new(center: Vec2, scale_x: f64, scale_y: f64, x_rotation: f64) -> Ellipse {
                // Since the circle is symmetric about the x and y axes, using absolute values for the
                // radii results in the same ellipse. For simplicity we make this change here.
                Ellipse {
                    inner: Affine::translate(center)
                        * Affine::rotate(x_rotation)
                        * Affine::scale_non_uniform(scale_x.abs(), scale_y.abs()),
                }
            }

            /// Returns the center of this ellipse.
            #[inline(always)]
            pub fn center(&self) -> Point {
                self.inner.translation().to_point()
            }

            /// Returns the two radii of this ellipse.
            ///
            /// The first number is the horizontal radius and the second is the vertical
            /// radius, before rotation.
            ///
            /// If you are only interested in the value of the greatest or smallest radius of this ellipse,
            /// consider using [`Ellipse::major_radius`] or [`Ellipse::minor_radius`] instead.
            #[inline]
            pub fn radii(&self) -> Vec2 {
                self.inner.svd().0
            }

            /// Returns the major radius of this ellipse.
            ///
            /// This metric is also known as the semi-major axis.
            #[inline]
            pub fn major_radius(&self) -> f64 {
                self.inner.svd().0.x
            }

            /// Returns the minor radius of this ellipse.
            ///
            /// This metric is also known as the semi-minor axis.
            #[inline]
            pub fn minor_radius(&self) -> f64 {
                self.inner.svd().0.y
            }

            /// The ellipse's rotation, in radians.
            ///
            /// This allows all possible ellipses to be drawn by always starting with
            /// an ellipse with the two radii on the x and y axes.
            #[inline]
            pub fn rotation(&self) -> f64 {
                self.inner.svd().1
            }

            /// Returns the radii and the rotation of this ellipse.
            ///
            /// Equivalent to `(self.radii(), self.rotation())` but more efficient.
            #[inline]
            pub fn radii_and_rotation(&self) -> (Vec2, f64) {
                self.inner.svd()
            }

            /// Is this ellipse [finite]?
            ///
            /// [finite]: f64::is_finite
            #[inline]
            pub const fn is_finite(&self) -> bool {
                self.inner.is_finite()
            }

            /// Is this ellipse [NaN]?
            ///
            /// [NaN]: f64::is_nan
            #[inline]
            pub const fn is_nan(&self) -> bool {
                self.inner.is_nan()
            }
        }

        #[fwdad::derive_frule]
        impl Add<Vec2> for Ellipse {
            type Output = Ellipse;

            /// In this context adding a `Vec2` applies the corresponding translation to the ellipse.
            #[inline]
            #[allow(clippy::suspicious_arithmetic_impl)]
            fn add(self, v: Vec2) -> Ellipse {
                Ellipse {
                    inner: Affine::translate(v) * self.inner,
                }
            }
        }

        #[fwdad::derive_frule]
        impl Sub<Vec2> for Ellipse {
            type Output = Ellipse;

            /// In this context subtracting a `Vec2` applies the corresponding translation to the ellipse.
            #[inline]
            fn sub(self, v: Vec2) -> Ellipse {
                Ellipse {
                    inner: Affine::translate(-v) * self.inner,
                }
            }
        }

        #[fwdad::derive_frule]
        impl Mul<Ellipse> for Affine {
            type Output = Ellipse;
            #[inline]
            fn mul(self, other: Ellipse) -> Self::Output {
                Ellipse {
                    inner: self * other.inner,
                }
            }
        }

        #[fwdad::derive_frule]
        impl From<Circle> for Ellipse {
            #[inline]
            fn from(circle: Circle) -> Self {
                Ellipse::new(circle.center, Vec2::splat(circle.radius), 0.0)
            }
        }

        #[fwdad::derive_frule]
        impl Shape for Ellipse {
            /// The area of the ellipse.
            ///
            /// This is always positive if the result is finite.
            ///
            /// If non-finite, this will be [`f64::INFINITY`] or [`f64::NAN`] depending on whether the
            /// inner affine's [determinant](Affine::determinant) is [`f64::INFINITY`] (either positive or
            /// negative) or [`f64::NAN`].
            #[inline]
            fn area(&self) -> f64 {
                // `Ellipse` is represented as a unit circle transformed by `Affine`. The transformed area
                // of a region is `area * |det(affine)|`, see
                // <https://en.wikipedia.org/w/index.php?title=Determinant&oldid=1344268205#Geometric_meaning>.
                //
                // A unit circle has area `PI`. Therefore, the area of this ellipse is PI multiplied by the
                // affine's determinant.
                PI * self.inner.determinant().abs()
            }

            /// Approximate the ellipse perimeter.
            ///
            /// This uses a numerical approximation. The absolute error between the calculated perimeter
            /// and the true perimeter is bounded by `accuracy` (modulo floating point rounding errors).
            ///
            /// For circular ellipses (equal horizontal and vertical radii), the calculated perimeter is
            /// exact.
            #[inline]
            fn perimeter(&self, accuracy: f64) -> f64 {
                let radii = self.radii();

                // Note: the radii are calculated from an inner affine map (`self.inner`), and may be NaN.
                // Currently, constructing an ellipse with infinite radii will produce an ellipse whose
                // calculated radii are NaN.
                if !radii.is_finite() {
                    return f64::NAN;
                }

                // Check for the trivial case where the ellipse has one of its radii equal to 0, i.e.,
                // where it describes a line, as the numerical method used breaks down with this extreme.
                if radii.x == 0. || radii.y == 0. {
                    return 4. * f64::max(radii.x, radii.y);
                }

                // Evaluate an approximation based on a truncated infinite series. If it returns a good
                // enough value, we do not need to iterate.
                if kummer_elliptic_perimeter_range(radii) <= accuracy {
                    return kummer_elliptic_perimeter(radii);
                }

                agm_elliptic_perimeter(accuracy, radii)
            }

            #[inline]
            fn winding(&self, pt: Point) -> i32 {
                // Strategy here is to apply the inverse map to the point and see if it is in the unit
                // circle.
                let inv = self.inner.inverse();
                if (inv * pt).to_vec2().hypot2() < 1.0 {
                    1
                } else {
                    0
                }
            }
        }

        #[fwdad::derive_frule]
        /// Calculates circumference C of an ellipse with radii (x, y) as the infinite series
        ///
        /// C = pi (x+y) * ∑ binom(1/2, n)^2 * h^n from n = 0 to inf
        /// with h = (x - y)^2 / (x + y)^2
        /// and binom(.,.) the binomial coefficient
        ///
        /// as described by Kummer ("Über die Hypergeometrische Reihe", 1837) and rediscovered by
        /// Linderholm and Segal ("An Overlooked Series for the Elliptic Perimeter", 1995).
        ///
        /// The series converges very quickly for ellipses with only moderate eccentricity (`h` not close
        /// to 1).
        ///
        /// The series is truncated to the sixth power, meaning a lower bound on the true value is
        /// returned. Adding the value of [`kummer_elliptic_perimeter_range`] to the value returned by this
        /// function calculates an upper bound on the true value.
        #[inline]
        fn kummer_elliptic_perimeter(radii: Vec2) -> f64 {
            let Vec2 { x, y } = radii;
            let h = ((x - y) / (x + y)).powi(2);
            let h2 = h * h;
            let h3 = h2 * h;
            let h4 = h3 * h;
            let h5 = h4 * h;
            let h6 = h5 * h;

            let lower = PI
                + h * (PI / 4.)
                + h2 * (PI / 64.)
                + h3 * (PI / 256.)
                + h4 * (PI * 25. / 16384.)
                + h5 * (PI * 49. / 65536.)
                + h6 * (PI * 441. / 1048576.);

            (x + y) * lower
        }

        #[fwdad::derive_frule]
        /// This calculates the error range of [`kummer_elliptic_perimeter`]. That function returns a lower
        /// bound on the true value, and though we do not know what the remainder of the infinite series
        /// sums to, we can calculate an upper bound:
        ///
        /// ∑ binom(1/2, n)^2 for n = 0 to inf
        ///   = 1 + (1 / 2!!)^2 + (1!! / 4!!)^2 + (3!! / 6!!)^2 + (5!! / 8!!)^2 + ..
        ///   = 4 / pi
        ///   with !! the double factorial
        /// (equation 274 in "Summation of Series", L. B. W. Jolley, 1961).
        ///
        /// This means the remainder of the infinite series for C, assuming the series was truncated to the
        /// mth term and h = 1, sums to
        /// 4 / pi - ∑ binom(1/2, n)^2 for n = 0 to m-1
        ///
        /// As 0 ≤ h ≤ 1, this is an upper bound.
        #[inline]
        fn kummer_elliptic_perimeter_range(radii: Vec2) -> f64 {
            let Vec2 { x, y } = radii;
            let h = ((x - y) / (x + y)).powi(2);

            const BINOM_SQUARED_REMAINDER: f64 = 0.00101416479131503;
            // = 4. / PI - (1. + 1. / 4. + 1. / 64. + 1. / 256. + 25. / 16384. + 49. / 65536. + 441. / 1048576.)

            PI * BINOM_SQUARED_REMAINDER * h.powi(7) * (x + y)
        }

        #[fwdad::derive_frule]
        /// Calculates circumference C of an ellipse with radii (x, y) using the arithmetic-geometric mean,
        /// as described in equation 19.8.6 of
        /// <https://web.archive.org/web/20240926233336/https://dlmf.nist.gov/19.8#i>.
        fn agm_elliptic_perimeter(accuracy: f64, radii: Vec2) -> f64 {
            let Vec2 { x, y } = if radii.x >= radii.y {
                radii
            } else {
                Vec2::new(radii.y, radii.x)
            };

            let accuracy = accuracy / (2. * PI * x);

            let mut sum = 1.;
            let mut a = 1.;
            let mut g = y / x;
            let mut c = (1. - g.powi(2)).sqrt();
            let mut mul = 0.5;

            loop {
                let c2 = c.powi(2);
                // term = 2^(n-1) c_n^2
                let term = mul * c2;
                sum -= term;

                // We have c_(n+1) ≤ 1/2 c_n
                // (for a derivation, see e.g. section 2.1 of  "Elliptic integrals, the
                // arithmetic-geometric mean and the Brent-Salamin algorithm for π" by G.J.O. Jameson:
                // <https://web.archive.org/web/20241002140956/https://www.maths.lancs.ac.uk/jameson/ellagm.pdf>)
                //
                // Therefore
                // ∑ 2^(i-1) c_i^2 from i = 1 ≤ ∑ 2^(i-1) ((1/2)^i c_0)^2 from i = 1
                //                            = ∑ 2^-(i+1) c_0^2          from i = 1
                //                            = 1/2 c_0^2
                //
                // or, for arbitrary starting point i = n+1:
                // ∑ 2^(i-1) c_i^2 from i = n+1 ≤ ∑ 2^(i-1) ((1/2)^(i-n) c_n)^2 from i = n+1
                //                              = ∑ 2^(2n - i - 1) c_n^2        from i = n+1
                //                              = 2^(2n) ∑ 2^(-(i+1)) c_n^2     from i = n+1
                //                              = 2^(2n) 2^(-(n+1)) c_n^2
                //                              = 2^(n-1) c_n^2
                //
                // Therefore, the remainder of the series sums to less than or equal to 2^(n-1) c_n^2,
                // which is exactly the value of the nth term.
                //
                // Furthermore, a_m ≥ g_n, and g_n ≤ 1, for all m, n.
                if term <= accuracy * g {
                    // `sum` currently overestimates the true value - subtract the upper bound of the
                    // remaining series. We will then underestimate the true value, but by no more than
                    // `accuracy`.
                    sum -= term;
                    break;
                }

                mul *= 2.;
                // This is equal to c_next = c^2 / (4 * a_next)
                c = (a - g) / 2.;
                let a_next = (a + g) / 2.;
                g = (a * g).sqrt();
                a = a_next;
            }

            2. * PI * x / a * sum
        }
    }

    pub mod param_curve {
        //! From `kurbo/src/param_curve.rs`: `ParamCurve`, `ParamCurveDeriv` (without its `gauss_arclen`), `ParamCurveArea`, `ParamCurveNearest` and `ParamCurveCurvature`.
        use core::ops::Range;
        
        use super::Point;

        /// A curve parameterized by a scalar.
        ///
        /// If the result is interpreted as a point, this represents a curve.
        /// But the result can be interpreted as a vector as well.
        #[fwdad::derive_frule]
        pub trait ParamCurve: Sized {
            /// Evaluate the curve at parameter `t`.
            ///
            /// Generally `t` is in the range [0..1].
            fn eval(&self, t: f64) -> Point;

            /// Get a subsegment of the curve for the given parameter range.
            fn subsegment(&self, range: Range<f64>) -> Self;

            /// Subdivide into (roughly) halves.
            #[inline]
            fn subdivide(&self) -> (Self, Self) {
                (self.subsegment(0.0..0.5), self.subsegment(0.5..1.0))
            }

            /// The start point.
            fn start(&self) -> Point {
                self.eval(0.0)
            }

            /// The end point.
            fn end(&self) -> Point {
                self.eval(1.0)
            }
        }

        /// A differentiable parameterized curve.
        #[fwdad::derive_frule]
        pub trait ParamCurveDeriv {
            /// The parametric curve obtained by taking the derivative of this one.
            type DerivResult: ParamCurve;

            /// The derivative of the curve.
            ///
            /// Note that the type of the return value is somewhat inaccurate, as
            /// the derivative of a curve (mapping of param to point) is a mapping
            /// of param to vector. We choose to accept this rather than have a
            /// more complex type scheme.
            fn deriv(&self) -> Self::DerivResult;
        }

        /// A parameterized curve that can have its signed area measured.
        #[fwdad::derive_frule]
        pub trait ParamCurveArea {
            /// Compute the signed area under the curve.
            ///
            /// For a closed path, the signed area of the path is the sum of signed
            /// areas of the segments. This is a variant of the "shoelace formula."
            /// See:
            /// <https://github.com/Pomax/bezierinfo/issues/44> and
            /// <http://ich.deanmcnamee.com/graphics/2016/03/30/CurveArea.html>
            ///
            /// This can be computed exactly for Béziers thanks to Green's theorem,
            /// and also for simple curves such as circular arcs. For more exotic
            /// curves, it's probably best to subdivide to cubics. We leave that
            /// to the caller, which is why we don't give an accuracy param here.
            fn signed_area(&self) -> f64;
        }

        /// The nearest position on a curve to some point.
        ///
        /// This is returned by [`ParamCurveNearest::nearest`]
        #[derive(Debug, Clone, Copy, fwdad::Differentiable)]
        pub struct Nearest {
            /// The square of the distance from the nearest position on the curve
            /// to the given point.
            pub distance_sq: f64,
            /// The position on the curve of the nearest point, as a parameter.
            ///
            /// To resolve this to a [`Point`], use [`ParamCurve::eval`].
            pub t: f64,
        }

        /// A parameterized curve that reports the nearest point.
        #[fwdad::derive_frule]
        pub trait ParamCurveNearest {
            /// Find the position on the curve that is nearest to the given point.
            ///
            /// This returns a [`Nearest`] struct that contains information about
            /// the position.
            fn nearest(&self, p: Point, accuracy: f64) -> Nearest;
        }

        /// A parameterized curve that reports its curvature.
        #[fwdad::derive_frule]
        pub trait ParamCurveCurvature: ParamCurveDeriv
        where
            Self::DerivResult: ParamCurveDeriv,
        {
            /// Compute the signed curvature at parameter `t`.
            #[inline]
            fn curvature(&self, t: f64) -> f64 {
                let deriv = self.deriv();
                let deriv2 = deriv.deriv();
                let d = deriv.eval(t).to_vec2();
                let d2 = deriv2.eval(t).to_vec2();
                // TODO: What's the convention for sign? I think it should match signed
                // area - a positive area curve should have positive curvature.
                d2.cross(d) * d.hypot2().powf(-1.5)
            }
        }
    }

    pub mod line {
        //! From `kurbo/src/line.rs`, but for `length` and the traits `ParamCurveArclen`, `ParamCurveExtrema` and `Shape`.
        use core::ops::{Add, Mul, Range, Sub};
        
        use super::{
            Affine, Nearest, ParamCurve, ParamCurveArea, ParamCurveCurvature, ParamCurveDeriv,
            ParamCurveNearest, Point, Vec2,
        };

        /// A single line.
        #[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct Line {
            /// The line's start point.
            pub p0: Point,
            /// The line's end point.
            pub p1: Point,
        }

        #[fwdad::derive_frule]
        impl Line {
            /// Create a new line.
            #[inline(always)]
            pub fn new(p0: impl Into<Point>, p1: impl Into<Point>) -> Line {
                Line {
                    p0: p0.into(),
                    p1: p1.into(),
                }
            }

            /// Returns a copy of this `Line` with the end points swapped so that it
            /// points in the opposite direction.
            #[must_use]
            #[inline(always)]
            pub const fn reversed(&self) -> Line {
                Self {
                    p0: self.p1,
                    p1: self.p0,
                }
            }

            /// The midpoint of the line.
            ///
            /// This is the same as calling [`Point::midpoint`] with
            /// the endpoints of this line.
            #[must_use]
            #[inline]
            pub fn midpoint(&self) -> Point {
                self.p0.midpoint(self.p1)
            }

            /// Computes the point where two lines, if extended to infinity, would cross.
            pub fn crossing_point(self, other: Line) -> Option<Point> {
                let ab = self.p1 - self.p0;
                let cd = other.p1 - other.p0;
                let pcd = ab.cross(cd);
                if pcd == 0.0 {
                    return None;
                }
                let h = ab.cross(self.p0 - other.p0) / pcd;
                Some(other.p0 + cd * h)
            }

            /// Is this line `finite`?
            ///
            /// [finite]: f64::is_finite
            #[inline]
            pub const fn is_finite(self) -> bool {
                self.p0.is_finite() && self.p1.is_finite()
            }

            /// Is this line `NaN`?
            ///
            /// [NaN]: f64::is_nan
            #[inline]
            pub const fn is_nan(self) -> bool {
                self.p0.is_nan() || self.p1.is_nan()
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurve for Line {
            #[inline]
            fn eval(&self, t: f64) -> Point {
                self.p0.lerp(self.p1, t)
            }

            #[inline]
            fn subsegment(&self, range: Range<f64>) -> Line {
                Line {
                    p0: self.eval(range.start),
                    p1: self.eval(range.end),
                }
            }

            #[inline(always)]
            fn start(&self) -> Point {
                self.p0
            }

            #[inline(always)]
            fn end(&self) -> Point {
                self.p1
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveDeriv for Line {
            type DerivResult = ConstPoint;

            #[inline]
            fn deriv(&self) -> ConstPoint {
                ConstPoint((self.p1 - self.p0).to_point())
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveArea for Line {
            #[inline]
            fn signed_area(&self) -> f64 {
                self.p0.to_vec2().cross(self.p1.to_vec2()) * 0.5
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveNearest for Line {
            #[inline]
            fn nearest(&self, p: Point, _accuracy: f64) -> Nearest {
                let d = self.p1 - self.p0;
                let v = p - self.p0;

                // Calculate projection parameter `t` of the point onto the line segment s(t), with
                // s(t) = (1-t) * p0 + t * p1.
                //
                // Note when the segment has 0 length, this will be positive or negative infinity or NaN;
                // see the clamping below.
                let t = d.dot(v) / d.hypot2();

                // Clamp the parameter to be on the line segment. This clamps negative infinity and NaN to
                // `0.`, and positive infinity to `1.`.
                #[expect(
                    clippy::manual_clamp,
                    reason = "`clamp` uses slightly more instructions than chained `max` and `min` on x86 and aarch64"
                )]
                let t = { t.max(0.).min(1.) };

                // Calculate ||p - s(t)||^2.
                let distance_sq = (v - t * d).hypot2();

                Nearest { distance_sq, t }
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveCurvature for Line {
            #[inline(always)]
            fn curvature(&self, _t: f64) -> f64 {
                0.0
            }
        }

        /// A trivial "curve" that is just a constant.
        #[derive(Clone, Copy, Debug, fwdad::Differentiable)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct ConstPoint(Point);

        #[fwdad::derive_frule]
        impl ConstPoint {
            /// Is this point [finite]?
            ///
            /// [finite]: f64::is_finite
            #[inline]
            pub const fn is_finite(self) -> bool {
                self.0.is_finite()
            }

            /// Is this point [NaN]?
            ///
            /// [NaN]: f64::is_nan
            #[inline]
            pub const fn is_nan(self) -> bool {
                self.0.is_nan()
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurve for ConstPoint {
            #[inline(always)]
            fn eval(&self, _t: f64) -> Point {
                self.0
            }

            #[inline(always)]
            fn subsegment(&self, _range: Range<f64>) -> ConstPoint {
                *self
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveDeriv for ConstPoint {
            type DerivResult = ConstPoint;

            #[inline(always)]
            fn deriv(&self) -> ConstPoint {
                ConstPoint(Point::new(0.0, 0.0))
            }
        }

        #[fwdad::derive_frule]
        impl Mul<Line> for Affine {
            type Output = Line;

            #[inline]
            fn mul(self, other: Line) -> Line {
                Line {
                    p0: self * other.p0,
                    p1: self * other.p1,
                }
            }
        }

        #[fwdad::derive_frule]
        impl Add<Vec2> for Line {
            type Output = Line;

            #[inline]
            fn add(self, v: Vec2) -> Line {
                Line::new(self.p0 + v, self.p1 + v)
            }
        }

        #[fwdad::derive_frule]
        impl Sub<Vec2> for Line {
            type Output = Line;

            #[inline]
            fn sub(self, v: Vec2) -> Line {
                Line::new(self.p0 - v, self.p1 - v)
            }
        }
    }

    pub mod quadbez {
        //! From `kurbo/src/quadbez.rs`: the curve, its `raise` to a cubic, derivative, signed area, curvature and affine image.
        use core::ops::{Mul, Range};
        
        use super::{
            Affine, CubicBez, Line, ParamCurve, ParamCurveArea, ParamCurveCurvature, ParamCurveDeriv,
            Point,
        };

        /// A single quadratic Bézier segment.
        #[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[allow(missing_docs)]
        pub struct QuadBez {
            pub p0: Point,
            pub p1: Point,
            pub p2: Point,
        }

        #[fwdad::derive_frule]
        impl QuadBez {
            /// Create a new quadratic Bézier segment.
            #[inline]
            pub fn new<V: Into<Point>>(p0: V, p1: V, p2: V) -> QuadBez {
                QuadBez {
                    p0: p0.into(),
                    p1: p1.into(),
                    p2: p2.into(),
                }
            }

            /// Raise the order by 1.
            ///
            /// Returns a cubic Bézier segment that exactly represents this quadratic.
            #[inline]
            pub fn raise(&self) -> CubicBez {
                CubicBez::new(
                    self.p0,
                    self.p0 + (2.0 / 3.0) * (self.p1 - self.p0),
                    self.p2 + (2.0 / 3.0) * (self.p1 - self.p2),
                    self.p2,
                )
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurve for QuadBez {
            #[inline]
            fn eval(&self, t: f64) -> Point {
                let mt = 1.0 - t;
                (self.p0.to_vec2() * (mt * mt)
                    + (self.p1.to_vec2() * (mt * 2.0) + self.p2.to_vec2() * t) * t)
                    .to_point()
            }

            fn subsegment(&self, range: Range<f64>) -> QuadBez {
                let (t0, t1) = (range.start, range.end);
                let p0 = self.eval(t0);
                let p2 = self.eval(t1);
                let p1 = p0 + (self.p1 - self.p0).lerp(self.p2 - self.p1, t0) * (t1 - t0);
                QuadBez { p0, p1, p2 }
            }

            /// Subdivide into halves, using de Casteljau.
            #[inline]
            fn subdivide(&self) -> (QuadBez, QuadBez) {
                let pm = self.eval(0.5);
                (
                    QuadBez::new(self.p0, self.p0.midpoint(self.p1), pm),
                    QuadBez::new(pm, self.p1.midpoint(self.p2), self.p2),
                )
            }

            #[inline]
            fn start(&self) -> Point {
                self.p0
            }

            #[inline]
            fn end(&self) -> Point {
                self.p2
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveDeriv for QuadBez {
            type DerivResult = Line;

            #[inline]
            fn deriv(&self) -> Line {
                Line::new(
                    (2.0 * (self.p1.to_vec2() - self.p0.to_vec2())).to_point(),
                    (2.0 * (self.p2.to_vec2() - self.p1.to_vec2())).to_point(),
                )
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveArea for QuadBez {
            #[inline]
            fn signed_area(&self) -> f64 {
                (self.p0.x * (2.0 * self.p1.y + self.p2.y) + 2.0 * self.p1.x * (self.p2.y - self.p0.y)
                    - self.p2.x * (self.p0.y + 2.0 * self.p1.y))
                    * (1.0 / 6.0)
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveCurvature for QuadBez {}

        #[fwdad::derive_frule]
        impl Mul<QuadBez> for Affine {
            type Output = QuadBez;

            #[inline]
            fn mul(self, other: QuadBez) -> QuadBez {
                QuadBez {
                    p0: self * other.p0,
                    p1: self * other.p1,
                    p2: self * other.p2,
                }
            }
        }
    }

    pub mod cubicbez {
        //! From `kurbo/src/cubicbez.rs`: the curve, its derivative, signed area, curvature and affine image.
        use core::ops::{Mul, Range};
        
        use super::{
            Affine, ParamCurve, ParamCurveArea, ParamCurveCurvature, ParamCurveDeriv, Point, QuadBez,
        };

        /// A single cubic Bézier segment.
        #[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[allow(missing_docs)]
        pub struct CubicBez {
            pub p0: Point,
            pub p1: Point,
            pub p2: Point,
            pub p3: Point,
        }

        #[fwdad::derive_frule]
        impl CubicBez {
            /// Create a new cubic Bézier segment.
            #[inline(always)]
            pub fn new<P: Into<Point>>(p0: P, p1: P, p2: P, p3: P) -> CubicBez {
                CubicBez {
                    p0: p0.into(),
                    p1: p1.into(),
                    p2: p2.into(),
                    p3: p3.into(),
                }
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurve for CubicBez {
            #[inline]
            fn eval(&self, t: f64) -> Point {
                let mt = 1.0 - t;
                let v = self.p0.to_vec2() * (mt * mt * mt)
                    + (self.p1.to_vec2() * (mt * mt * 3.0)
                        + (self.p2.to_vec2() * (mt * 3.0) + self.p3.to_vec2() * t) * t)
                        * t;
                v.to_point()
            }

            fn subsegment(&self, range: Range<f64>) -> CubicBez {
                let (t0, t1) = (range.start, range.end);
                let p0 = self.eval(t0);
                let p3 = self.eval(t1);
                let d = self.deriv();
                let scale = (t1 - t0) * (1.0 / 3.0);
                let p1 = p0 + scale * d.eval(t0).to_vec2();
                let p2 = p3 - scale * d.eval(t1).to_vec2();
                CubicBez { p0, p1, p2, p3 }
            }

            /// Subdivide into halves, using de Casteljau.
            #[inline]
            fn subdivide(&self) -> (CubicBez, CubicBez) {
                let pm = self.eval(0.5);
                (
                    CubicBez::new(
                        self.p0,
                        self.p0.midpoint(self.p1),
                        ((self.p0.to_vec2() + self.p1.to_vec2() * 2.0 + self.p2.to_vec2()) * 0.25)
                            .to_point(),
                        pm,
                    ),
                    CubicBez::new(
                        pm,
                        ((self.p1.to_vec2() + self.p2.to_vec2() * 2.0 + self.p3.to_vec2()) * 0.25)
                            .to_point(),
                        self.p2.midpoint(self.p3),
                        self.p3,
                    ),
                )
            }

            #[inline(always)]
            fn start(&self) -> Point {
                self.p0
            }

            #[inline(always)]
            fn end(&self) -> Point {
                self.p3
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveDeriv for CubicBez {
            type DerivResult = QuadBez;

            #[inline]
            fn deriv(&self) -> QuadBez {
                QuadBez::new(
                    (3.0 * (self.p1 - self.p0)).to_point(),
                    (3.0 * (self.p2 - self.p1)).to_point(),
                    (3.0 * (self.p3 - self.p2)).to_point(),
                )
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveArea for CubicBez {
            #[inline]
            fn signed_area(&self) -> f64 {
                (self.p0.x * (6.0 * self.p1.y + 3.0 * self.p2.y + self.p3.y)
                    + 3.0
                        * (self.p1.x * (-2.0 * self.p0.y + self.p2.y + self.p3.y)
                            - self.p2.x * (self.p0.y + self.p1.y - 2.0 * self.p3.y))
                    - self.p3.x * (self.p0.y + 3.0 * self.p1.y + 6.0 * self.p2.y))
                    * (1.0 / 20.0)
            }
        }

        #[fwdad::derive_frule]
        impl ParamCurveCurvature for CubicBez {}

        #[fwdad::derive_frule]
        impl Mul<CubicBez> for Affine {
            type Output = CubicBez;

            #[inline]
            fn mul(self, c: CubicBez) -> CubicBez {
                CubicBez {
                    p0: self * c.p0,
                    p1: self * c.p1,
                    p2: self * c.p2,
                    p3: self * c.p3,
                }
            }
        }
    }
    pub use affine::Affine;
    pub use circle::Circle;
    pub use cubicbez::CubicBez;
    pub use ellipse::Ellipse;
    pub use line::{ConstPoint, Line};
    pub use param_curve::{
        Nearest, NearestTangent, ParamCurve, ParamCurveArea, ParamCurveCurvature, ParamCurveDeriv,
        ParamCurveNearest,
    };
    pub use point::{Point, PointTangent};
    pub use quadbez::QuadBez;
    pub use shape::Shape;
    pub use vec2::{Vec2, Vec2Tangent};
}

use fwdad::drivers::{bind, gradient_with};
use fwdad::prelude::*;
use verbatim::{
    Affine, Circle, CubicBez, Ellipse, Line, ParamCurveArea, ParamCurveCurvature,
    ParamCurveNearest, Point, QuadBez, Shape, Vec2,
};

// ---- Functions a user writes with kurbo's types, annotated ----

/// A sprite's corner: turned by `th` about `c`, then scaled by `s` about the origin.
#[derive_frule]
fn place(p: &[f64; 2], th: f64, c: &[f64; 2], s: f64) -> [f64; 2] {
    let a = Affine::rotate_about(th, Point::new(c[0], c[1])).then_scale(s);
    let q = a * Point::new(p[0], p[1]);
    [q.x, q.y]
}

/// A point mirrored in the line through `o` along `dir`, mapped back by the inverse.
#[derive_frule]
fn reflect_round_trip(p: &[f64; 2], o: &[f64; 2], dir: &[f64; 2]) -> [f64; 2] {
    let m = Affine::reflect(Point::new(o[0], o[1]), Vec2::new(dir[0], dir[1]));
    let q = m.inverse() * (m * Point::new(p[0], p[1]));
    [q.x, q.y]
}

/// The largest stretch of a linear map `[a, b, c, d, e, f]`.
#[derive_frule]
fn spectral_norm(m: &[f64; 6]) -> f64 {
    Affine::new(*m).spectral_norm()
}

/// The area of the ellipse a map makes of the unit circle.
#[derive_frule]
fn ellipse_area(m: &[f64; 6]) -> f64 {
    Ellipse::from_affine(Affine::new(*m)).area()
}

/// An ellipse's perimeter from its radii and rotation.
#[derive_frule]
fn ellipse_perimeter(radii: &[f64; 2], rotation: f64, accuracy: f64) -> f64 {
    let e = Ellipse::new(
        Point::new(1.0, -2.0),
        Vec2::new(radii[0], radii[1]),
        rotation,
    );
    e.perimeter(accuracy)
}

/// A circle stretched by `s` along the axes: an ellipse of radii `(s₀ r, s₁ r)`.
#[derive_frule]
fn stretched_circle_perimeter(s: &[f64; 2], r: f64) -> f64 {
    let e = Affine::scale_non_uniform(s[0], s[1]) * Circle::new(Point::new(0.5, 0.5), r);
    e.perimeter(1e-12)
}

/// A collision penalty: the squared depth of `q` inside the circle `(cx, cy, r)`.
#[derive_frule]
fn penetration(c: &[f64; 3], q: &[f64; 2]) -> f64 {
    let circle = Circle::new(Point::new(c[0], c[1]), c[2]);
    let pt = Point::new(q[0], q[1]);
    if circle.contains(pt) {
        (circle.radius - pt.distance(circle.center)).powi(2)
    } else {
        0.0
    }
}

/// The distance from `p` to the segment `seg = [x0, y0, x1, y1]`.
#[derive_frule]
fn distance_to_segment(seg: &[f64; 4], p: &[f64; 2]) -> f64 {
    let line = Line::new(Point::new(seg[0], seg[1]), Point::new(seg[2], seg[3]));
    line.nearest(Point::new(p[0], p[1]), 1e-9)
        .distance_sq
        .sqrt()
}

/// Where two lines cross.
#[derive_frule]
fn crossing(a: &[f64; 4], b: &[f64; 4]) -> [f64; 2] {
    let l1 = Line::new(Point::new(a[0], a[1]), Point::new(a[2], a[3]));
    let l2 = Line::new(Point::new(b[0], b[1]), Point::new(b[2], b[3]));
    match l1.crossing_point(l2) {
        Some(p) => [p.x, p.y],
        None => [f64::NAN, f64::NAN],
    }
}

/// The signed area under a cubic (Green's theorem), from its control points.
#[derive_frule]
fn cubic_area(p: &[f64; 8]) -> f64 {
    CubicBez::new(
        Point::new(p[0], p[1]),
        Point::new(p[2], p[3]),
        Point::new(p[4], p[5]),
        Point::new(p[6], p[7]),
    )
    .signed_area()
}

/// The signed area of a quadratic raised to a cubic, turned by `th` and scaled by `s`.
#[derive_frule]
fn moved_quad_area(p: &[f64; 6], th: f64, s: f64) -> f64 {
    let q = QuadBez::new(
        Point::new(p[0], p[1]),
        Point::new(p[2], p[3]),
        Point::new(p[4], p[5]),
    );
    (Affine::rotate(th).then_scale(s) * q.raise()).signed_area()
}

/// A cubic's signed curvature at `t`.
#[derive_frule]
fn cubic_curvature(p: &[f64; 8], t: f64) -> f64 {
    CubicBez::new(
        Point::new(p[0], p[1]),
        Point::new(p[2], p[3]),
        Point::new(p[4], p[5]),
        Point::new(p[6], p[7]),
    )
    .curvature(t)
}

// ---- The published crate, for the primals ----

mod published {
    use kurbo::{
        Affine, Circle, CubicBez, Ellipse, Line, ParamCurveArea, ParamCurveCurvature,
        ParamCurveNearest, Point, QuadBez, Shape, Vec2,
    };

    pub fn place(p: &[f64; 2], th: f64, c: &[f64; 2], s: f64) -> [f64; 2] {
        let a = Affine::rotate_about(th, Point::new(c[0], c[1])).then_scale(s);
        let q = a * Point::new(p[0], p[1]);
        [q.x, q.y]
    }
    pub fn spectral_norm(m: &[f64; 6]) -> f64 {
        Affine::new(*m).spectral_norm()
    }
    pub fn ellipse_area(m: &[f64; 6]) -> f64 {
        Ellipse::from_affine(Affine::new(*m)).area()
    }
    pub fn ellipse_perimeter(radii: &[f64; 2], rotation: f64, accuracy: f64) -> f64 {
        let e = Ellipse::new(
            Point::new(1.0, -2.0),
            Vec2::new(radii[0], radii[1]),
            rotation,
        );
        e.perimeter(accuracy)
    }
    pub fn stretched_circle_perimeter(s: &[f64; 2], r: f64) -> f64 {
        let e = Affine::scale_non_uniform(s[0], s[1]) * Circle::new(Point::new(0.5, 0.5), r);
        e.perimeter(1e-12)
    }
    pub fn penetration(c: &[f64; 3], q: &[f64; 2]) -> f64 {
        let circle = Circle::new(Point::new(c[0], c[1]), c[2]);
        let pt = Point::new(q[0], q[1]);
        if circle.contains(pt) {
            (circle.radius - pt.distance(circle.center)).powi(2)
        } else {
            0.0
        }
    }
    pub fn distance_to_segment(seg: &[f64; 4], p: &[f64; 2]) -> f64 {
        let line = Line::new(Point::new(seg[0], seg[1]), Point::new(seg[2], seg[3]));
        line.nearest(Point::new(p[0], p[1]), 1e-9)
            .distance_sq
            .sqrt()
    }
    pub fn crossing(a: &[f64; 4], b: &[f64; 4]) -> [f64; 2] {
        let l1 = Line::new(Point::new(a[0], a[1]), Point::new(a[2], a[3]));
        let l2 = Line::new(Point::new(b[0], b[1]), Point::new(b[2], b[3]));
        match l1.crossing_point(l2) {
            Some(p) => [p.x, p.y],
            None => [f64::NAN, f64::NAN],
        }
    }
    pub fn cubic_area(p: &[f64; 8]) -> f64 {
        CubicBez::new(
            Point::new(p[0], p[1]),
            Point::new(p[2], p[3]),
            Point::new(p[4], p[5]),
            Point::new(p[6], p[7]),
        )
        .signed_area()
    }
    pub fn moved_quad_area(p: &[f64; 6], th: f64, s: f64) -> f64 {
        let q = QuadBez::new(
            Point::new(p[0], p[1]),
            Point::new(p[2], p[3]),
            Point::new(p[4], p[5]),
        );
        (Affine::rotate(th).then_scale(s) * q.raise()).signed_area()
    }
    pub fn cubic_curvature(p: &[f64; 8], t: f64) -> f64 {
        CubicBez::new(
            Point::new(p[0], p[1]),
            Point::new(p[2], p[3]),
            Point::new(p[4], p[5]),
            Point::new(p[6], p[7]),
        )
        .curvature(t)
    }
}

// ---- Independent references ----

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

fn fd(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * (1.0 + x.abs());
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// Central differences of `f` in coordinate `i` of `x`.
fn fd_at<const N: usize>(f: impl Fn(&[f64; N]) -> f64, x: &[f64; N], i: usize) -> f64 {
    fd(
        |v| {
            let mut y = *x;
            y[i] = v;
            f(&y)
        },
        x[i],
    )
}

/// The cubic Bernstein basis and its derivative at `t`.
fn bernstein3(t: f64) -> ([f64; 4], [f64; 4]) {
    let s = 1.0 - t;
    (
        [s * s * s, 3.0 * s * s * t, 3.0 * s * t * t, t * t * t],
        [
            -3.0 * s * s,
            3.0 * s * s - 6.0 * s * t,
            6.0 * s * t - 3.0 * t * t,
            3.0 * t * t,
        ],
    )
}

/// Five-point Gauss-Legendre on [0, 1]: exact for the degree-5 integrands of Green's area.
fn gauss5(f: impl Fn(f64) -> f64) -> f64 {
    let x = [0.0, 0.538_469_310_105_683_1, 0.906_179_845_938_664];
    let w = [
        0.568_888_888_888_888_9,
        0.478_628_670_499_366_5,
        0.236_926_885_056_189_1,
    ];
    let mut s = w[0] * f(0.5);
    for k in 1..3 {
        s += w[k] * (f(0.5 * (1.0 + x[k])) + f(0.5 * (1.0 - x[k])));
    }
    0.5 * s
}

/// Green's area ½∫(x y' − y x') dt of a cubic, its gradient and (constant) Hessian, by
/// quadrature of the Bernstein basis: ∂A/∂xᵢ = ½∫(Bᵢ y' − y Bᵢ'), ∂²A/∂xᵢ∂yⱼ = ½∫(Bᵢ Bⱼ' − Bⱼ Bᵢ').
fn green_area(p: &[f64; 8]) -> (f64, [f64; 8], [[f64; 8]; 8]) {
    let xy = |t: f64| {
        let (b, db) = bernstein3(t);
        let mut r = [0.0; 4];
        for i in 0..4 {
            r[0] += b[i] * p[2 * i];
            r[1] += b[i] * p[2 * i + 1];
            r[2] += db[i] * p[2 * i];
            r[3] += db[i] * p[2 * i + 1];
        }
        r
    };
    let a = gauss5(|t| {
        let [x, y, dx, dy] = xy(t);
        0.5 * (x * dy - y * dx)
    });
    let mut g = [0.0; 8];
    let mut h = [[0.0; 8]; 8];
    for i in 0..4 {
        g[2 * i] = gauss5(|t| {
            let (b, db) = bernstein3(t);
            let [_, y, _, dy] = xy(t);
            0.5 * (b[i] * dy - y * db[i])
        });
        g[2 * i + 1] = gauss5(|t| {
            let (b, db) = bernstein3(t);
            let [x, _, dx, _] = xy(t);
            0.5 * (x * db[i] - b[i] * dx)
        });
        for j in 0..4 {
            let hxy = gauss5(|t| {
                let (b, db) = bernstein3(t);
                0.5 * (b[i] * db[j] - b[j] * db[i])
            });
            h[2 * i][2 * j + 1] = hxy;
            h[2 * j + 1][2 * i] = hxy;
        }
    }
    (a, g, h)
}

/// An ellipse's perimeter ∫₀^{2π} √(a² sin²t + b² cos²t) dt and its partials in a and b,
/// by the trapezoid rule, which converges geometrically for a smooth periodic integrand.
fn perimeter_by_trapezoid(a: f64, b: f64) -> (f64, f64, f64) {
    let n = 4000;
    let (mut p, mut pa, mut pb) = (0.0, 0.0, 0.0);
    for k in 0..n {
        let t = 2.0 * std::f64::consts::PI * k as f64 / n as f64;
        let (s, c) = t.sin_cos();
        let r = (a * a * s * s + b * b * c * c).sqrt();
        p += r;
        pa += a * s * s / r;
        pb += b * c * c / r;
    }
    let w = 2.0 * std::f64::consts::PI / n as f64;
    (p * w, pa * w, pb * w)
}

const CUBIC: [f64; 8] = [0.0, 0.0, 1.0, 2.2, 3.1, 2.6, 4.0, 0.4];

// ---- Tests ----

#[test]
fn placement_is_a_rotation_about_the_centre_then_a_scale() {
    let (p, c, th, s) = ([2.0, -1.0], [0.5, 0.25], 0.7_f64, 1.5);
    let (sn, cs) = th.sin_cos();
    let (dx, dy) = (p[0] - c[0], p[1] - c[1]);
    // In the point: s R.
    let (v, j) = jacobian(bind(place {}, (Wrt, th, &c, s)), &p);
    let want = published::place(&p, th, &c, s);
    assert_eq!(
        (v[0].to_bits(), v[1].to_bits()),
        (want[0].to_bits(), want[1].to_bits())
    );
    let r = [[cs, -sn], [sn, cs]];
    for a in 0..2 {
        for b in 0..2 {
            assert!(close(j[(a, b)], s * r[a][b], 1e-15), "J[{a},{b}]");
        }
    }
    // In the angle, one direction: s R'(θ)(p − c).
    let (_, d) = derivative(bind(place {}, (&p, Wrt, &c, s)), th);
    assert!(close(d[0], s * (-sn * dx - cs * dy), 1e-14), "{d:?}");
    assert!(close(d[1], s * (cs * dx - sn * dy), 1e-14), "{d:?}");
    // In the centre: s (I − R).
    let (_, jc) = jacobian(bind(place {}, (&p, th, Wrt, s)), &c);
    for a in 0..2 {
        for b in 0..2 {
            let i = if a == b { 1.0 } else { 0.0 };
            assert!(close(jc[(a, b)], s * (i - r[a][b]), 1e-14), "Jc[{a},{b}]");
        }
    }
    // In the scale: R (p − c) + c.
    let (_, ds) = derivative(bind(place {}, (&p, th, &c, Wrt)), s);
    assert!(close(ds[0], cs * dx - sn * dy + c[0], 1e-14));
    assert!(close(ds[1], sn * dx + cs * dy + c[1], 1e-14));
}

#[test]
fn a_reflection_undone_by_its_inverse_is_the_identity() {
    let (p, o, dir) = ([1.5, -0.5], [0.3, 0.8], [1.0, 2.0]);
    // In the point: I; in the mirror line: 0 (to rounding).
    let (v, j) = jacobian(bind(reflect_round_trip {}, (Wrt, &o, &dir)), &p);
    assert!(
        close(v[0], p[0], 1e-14) && close(v[1], p[1], 1e-14),
        "{v:?}"
    );
    for a in 0..2 {
        for b in 0..2 {
            let i = if a == b { 1.0 } else { 0.0 };
            assert!(close(j[(a, b)], i, 1e-14), "J[{a},{b}] = {}", j[(a, b)]);
        }
    }
    let (_, jo) = jacobian(bind(reflect_round_trip {}, (&p, Wrt, &dir)), &o);
    let (_, jd) = jacobian(bind(reflect_round_trip {}, (&p, &o, Wrt)), &dir);
    for a in 0..2 {
        for b in 0..2 {
            assert!(jo[(a, b)].abs() < 1e-14 && jd[(a, b)].abs() < 1e-14);
        }
    }
}

#[test]
fn spectral_norm_has_the_singular_vectors_as_gradient() {
    for m in [
        [2.0, 0.5, -0.3, 1.2, 7.0, -1.0],
        [0.4, -1.1, 0.9, 0.2, 0.0, 0.0],
        [3.0, 0.0, 0.0, 1.0, 1.0, 2.0],
    ] {
        let (v, g) = gradient(bind(spectral_norm {}, (Wrt,)), &m);
        assert_eq!(v.to_bits(), published::spectral_norm(&m).to_bits());
        // A = [[a, c], [b, d]]; v₁ the top eigenvector of AᵀA, u₁ = A v₁ / σ₁, ∇σ₁ = u₁ v₁ᵀ.
        let [a, b, c, d, _, _] = m;
        let (p, q, r) = (a * a + b * b, a * c + b * d, c * c + d * d);
        let lam = 0.5 * (p + r) + (0.25 * (p - r).powi(2) + q * q).sqrt();
        let (v0, v1) = if q.abs() > 1e-300 {
            (q, lam - p)
        } else if p >= r {
            (1.0, 0.0)
        } else {
            (0.0, 1.0)
        };
        let n = v0.hypot(v1);
        let (v0, v1) = (v0 / n, v1 / n);
        let sigma = lam.sqrt();
        let (u0, u1) = ((a * v0 + c * v1) / sigma, (b * v0 + d * v1) / sigma);
        let want = [u0 * v0, u1 * v0, u0 * v1, u1 * v1, 0.0, 0.0];
        assert!(close(v, sigma, 1e-14));
        for i in 0..6 {
            assert!(
                close(g[i], want[i], 1e-13),
                "∂σ/∂m{i}: {} vs {}",
                g[i],
                want[i]
            );
        }
        // The batch driver at another width, and second order against differences.
        let (_, g4) = gradient_with::<4>(bind(spectral_norm {}, (Wrt,)), &m);
        let (_, _, h) = hessian(bind(spectral_norm {}, (Wrt,)), &m);
        for i in 0..6 {
            assert!(close(g4[i], g[i], 1e-15));
            for k in 0..6 {
                let want = fd_at(|y| gradient(bind(spectral_norm {}, (Wrt,)), y).1[i], &m, k);
                assert!(
                    close(h[(i, k)], want, 1e-6),
                    "H[{i},{k}]: {} vs {want}",
                    h[(i, k)]
                );
            }
        }
    }
}

#[test]
fn ellipse_area_is_pi_times_the_determinant() {
    for m in [
        [2.0, 0.5, -0.3, 1.2, 7.0, -1.0],
        [0.4, -1.1, 0.9, 0.2, 0.0, 0.0],
    ] {
        let (v, g) = gradient(bind(ellipse_area {}, (Wrt,)), &m);
        assert_eq!(v.to_bits(), published::ellipse_area(&m).to_bits());
        let det = m[0] * m[3] - m[1] * m[2];
        let k = std::f64::consts::PI * det.signum();
        let want = [k * m[3], -k * m[2], -k * m[1], k * m[0], 0.0, 0.0];
        for i in 0..6 {
            assert!(
                close(g[i], want[i], 1e-15),
                "∂A/∂m{i}: {} vs {}",
                g[i],
                want[i]
            );
        }
    }
}

#[test]
fn ellipse_perimeter_by_kummer_and_by_the_agm() {
    // (2, 1.5) is summed by Kummer's series, (5, 0.5) and (0.8, 3) by the AGM.
    for (radii, rot) in [([2.0, 1.5], 0.3), ([5.0, 0.5], -1.1), ([0.8, 3.0], 2.0)] {
        let acc = 1e-11;
        let (v, g) = gradient(bind(ellipse_perimeter {}, (Wrt, rot, acc)), &radii);
        assert_eq!(
            v.to_bits(),
            published::ellipse_perimeter(&radii, rot, acc).to_bits()
        );
        let (p, pa, pb) = perimeter_by_trapezoid(radii[0], radii[1]);
        assert!(close(v, p, 1e-10), "{v} vs {p}");
        assert!(close(g[0], pa, 1e-9), "∂P/∂a: {} vs {pa}", g[0]);
        assert!(close(g[1], pb, 1e-9), "∂P/∂b: {} vs {pb}", g[1]);
        // Euler: P is homogeneous of degree one in the radii.
        assert!(close(radii[0] * g[0] + radii[1] * g[1], v, 1e-9));
        // The rotation does not change the perimeter.
        let (_, dr) = derivative(bind(ellipse_perimeter {}, (&radii, Wrt, acc)), rot);
        assert!(dr.abs() < 1e-9, "∂P/∂θ = {dr}");
        // Second order against differences of the gradient.
        let (_, _, h) = hessian(bind(ellipse_perimeter {}, (Wrt, rot, acc)), &radii);
        for i in 0..2 {
            for k in 0..2 {
                let want = fd_at(
                    |y| gradient(bind(ellipse_perimeter {}, (Wrt, rot, acc)), y).1[i],
                    &radii,
                    k,
                );
                assert!(
                    close(h[(i, k)], want, 1e-5),
                    "H[{i},{k}]: {} vs {want}",
                    h[(i, k)]
                );
            }
        }
    }
}

#[test]
fn a_stretched_circle_has_the_ellipse_perimeter() {
    let (s, r) = ([1.5, 0.6], 2.0);
    let (v, g) = gradient(bind(stretched_circle_perimeter {}, (Wrt, r)), &s);
    assert_eq!(
        v.to_bits(),
        published::stretched_circle_perimeter(&s, r).to_bits()
    );
    let (p, pa, pb) = perimeter_by_trapezoid(s[0] * r, s[1] * r);
    assert!(close(v, p, 1e-10));
    assert!(
        close(g[0], r * pa, 1e-9) && close(g[1], r * pb, 1e-9),
        "{g:?}"
    );
    let (_, dr) = derivative(bind(stretched_circle_perimeter {}, (&s, Wrt)), r);
    assert!(close(dr, p / r, 1e-9), "{dr} vs {}", p / r);
}

#[test]
fn penetration_depth_inside_and_outside_a_circle() {
    let c = [1.0, 2.0, 1.5];
    for q in [[1.5, 2.5], [0.2, 1.1], [3.0, 3.0]] {
        let (v, g) = gradient(bind(penetration {}, (Wrt, &q)), &c);
        assert_eq!(v.to_bits(), published::penetration(&c, &q).to_bits());
        let (dx, dy) = (q[0] - c[0], q[1] - c[1]);
        let dist = dx.hypot(dy);
        let want = if dist < c[2] {
            let k = 2.0 * (c[2] - dist);
            [k * dx / dist, k * dy / dist, k]
        } else {
            [0.0; 3]
        };
        for i in 0..3 {
            assert!(
                close(g[i], want[i], 1e-14),
                "{q:?}: {} vs {}",
                g[i],
                want[i]
            );
        }
        let (_, gq) = gradient_with::<2>(bind(penetration {}, (&c, Wrt)), &q);
        for i in 0..2 {
            assert!(close(gq[i], -want[i], 1e-14));
        }
        let (_, _, h) = hessian(bind(penetration {}, (Wrt, &q)), &c);
        for i in 0..3 {
            for k in 0..3 {
                let want = fd_at(|y| gradient(bind(penetration {}, (Wrt, &q)), y).1[i], &c, k);
                assert!(
                    close(h[(i, k)], want, 1e-6),
                    "H[{i},{k}]: {} vs {want}",
                    h[(i, k)]
                );
            }
        }
    }
}

#[test]
fn distance_to_a_segment_is_the_projection() {
    let seg = [0.0, 0.0, 4.0, 1.0];
    // Beside the segment, past its end, and before its start.
    for p in [[1.0, 2.0], [5.5, 0.0], [-1.0, -0.5]] {
        let (v, g) = gradient(bind(distance_to_segment {}, (Wrt, &p)), &seg);
        assert_eq!(
            v.to_bits(),
            published::distance_to_segment(&seg, &p).to_bits()
        );
        let (ex, ey) = (seg[2] - seg[0], seg[3] - seg[1]);
        let t =
            (((p[0] - seg[0]) * ex + (p[1] - seg[1]) * ey) / (ex * ex + ey * ey)).clamp(0.0, 1.0);
        let (sx, sy) = (seg[0] + t * ex, seg[1] + t * ey);
        let dist = (p[0] - sx).hypot(p[1] - sy);
        let (ux, uy) = ((p[0] - sx) / dist, (p[1] - sy) / dist);
        let want = [-(1.0 - t) * ux, -(1.0 - t) * uy, -t * ux, -t * uy];
        assert!(close(v, dist, 1e-14));
        for i in 0..4 {
            assert!(
                close(g[i], want[i], 1e-14),
                "{p:?}: ∂/∂seg{i} {} vs {}",
                g[i],
                want[i]
            );
        }
        let r = distance_to_segment_frule(Dual::constant(&seg), Dual::new(&p, &[1.0, 0.0]));
        assert!(close(r.tangent, ux, 1e-14));
    }
}

#[test]
fn crossing_of_two_lines_against_differences() {
    let (a, b) = ([0.0, 0.0, 2.0, 1.0], [0.0, 3.0, 1.0, -1.0]);
    let (v, j) = jacobian(bind(crossing {}, (Wrt, &b)), &a);
    let want = published::crossing(&a, &b);
    assert_eq!(
        (v[0].to_bits(), v[1].to_bits()),
        (want[0].to_bits(), want[1].to_bits())
    );
    for c in 0..2 {
        for i in 0..4 {
            let d = fd_at(|y| published::crossing(y, &b)[c], &a, i);
            assert!(
                close(j[(c, i)], d, 1e-8),
                "J[{c},{i}]: {} vs {d}",
                j[(c, i)]
            );
        }
    }
    // The crossing stays on the first line whatever moves: cross(p1 − p0, X − p0) = 0.
    let (_, jb) = jacobian(bind(crossing {}, (&a, Wrt)), &b);
    for i in 0..4 {
        let along = (a[2] - a[0]) * jb[(1, i)] - (a[3] - a[1]) * jb[(0, i)];
        assert!(along.abs() < 1e-14, "{along}");
    }
}

#[test]
fn signed_area_is_greens_integral() {
    let (v, g) = gradient(bind(cubic_area {}, (Wrt,)), &CUBIC);
    assert_eq!(v.to_bits(), published::cubic_area(&CUBIC).to_bits());
    let (a, ga, ha) = green_area(&CUBIC);
    assert!(close(v, a, 1e-14), "{v} vs {a}");
    for i in 0..8 {
        assert!(close(g[i], ga[i], 1e-14), "∂A/∂p{i}: {} vs {}", g[i], ga[i]);
    }
    let (_, g8) = gradient_with::<8>(bind(cubic_area {}, (Wrt,)), &CUBIC);
    let (_, _, h) = hessian(bind(cubic_area {}, (Wrt,)), &CUBIC);
    for i in 0..8 {
        assert!(close(g8[i], g[i], 1e-15));
        for k in 0..8 {
            assert!(
                close(h[(i, k)], ha[i][k], 1e-14),
                "H[{i},{k}]: {} vs {}",
                h[(i, k)],
                ha[i][k]
            );
        }
    }
}

#[test]
fn a_raised_quadratic_keeps_its_area_under_rotation_and_scales_as_its_square() {
    let p = [0.0, 0.0, 1.0, 2.0, 3.0, 0.5];
    let (th, s) = (0.4, 1.7);
    let (v, g) = gradient(bind(moved_quad_area {}, (Wrt, th, s)), &p);
    assert_eq!(v.to_bits(), published::moved_quad_area(&p, th, s).to_bits());
    // The quadratic's area as a cubic with control points 2/3 of the way to p1.
    let c = [
        p[0],
        p[1],
        p[0] + 2.0 / 3.0 * (p[2] - p[0]),
        p[1] + 2.0 / 3.0 * (p[3] - p[1]),
        p[4] + 2.0 / 3.0 * (p[2] - p[4]),
        p[5] + 2.0 / 3.0 * (p[3] - p[5]),
        p[4],
        p[5],
    ];
    let (a, ga, _) = green_area(&c);
    // A rotation about the origin keeps the area; the scale multiplies it by s².
    assert!(close(v, s * s * a, 1e-14));
    let (_, dth) = derivative(bind(moved_quad_area {}, (&p, Wrt, s)), th);
    assert!(dth.abs() < 1e-13, "∂A/∂θ = {dth}");
    let (_, ds) = derivative(bind(moved_quad_area {}, (&p, th, Wrt)), s);
    assert!(close(ds, 2.0 * s * a, 1e-14));
    // The chain rule through the raise: ∂/∂p = s² Σ ∂A/∂c ∂c/∂p.
    let want = [
        ga[0] + ga[2] / 3.0,
        ga[1] + ga[3] / 3.0,
        2.0 / 3.0 * (ga[2] + ga[4]),
        2.0 / 3.0 * (ga[3] + ga[5]),
        ga[6] + ga[4] / 3.0,
        ga[7] + ga[5] / 3.0,
    ];
    for i in 0..6 {
        assert!(
            close(g[i], s * s * want[i], 1e-13),
            "∂A/∂p{i}: {} vs {}",
            g[i],
            s * s * want[i]
        );
    }
}

#[test]
fn curvature_through_the_derivative_curves() {
    for t in [0.1, 0.45, 0.9] {
        let (v, dt) = derivative(bind(cubic_curvature {}, (&CUBIC, Wrt)), t);
        assert_eq!(v.to_bits(), published::cubic_curvature(&CUBIC, t).to_bits());
        // B', B'', B''' written out; κ = (B'' × B') / |B'|³ (kurbo's sign), and
        // dκ/dt = (B''' × B') / |B'|³ − 3 (B'' × B') (B'·B'') / |B'|⁵.
        let p = |i: usize| [CUBIC[2 * i], CUBIC[2 * i + 1]];
        let (s, u) = (1.0 - t, t);
        let d1: [f64; 2] = std::array::from_fn(|k| {
            3.0 * (s * s * (p(1)[k] - p(0)[k])
                + 2.0 * s * u * (p(2)[k] - p(1)[k])
                + u * u * (p(3)[k] - p(2)[k]))
        });
        let d2: [f64; 2] = std::array::from_fn(|k| {
            6.0 * (s * (p(2)[k] - 2.0 * p(1)[k] + p(0)[k])
                + u * (p(3)[k] - 2.0 * p(2)[k] + p(1)[k]))
        });
        let d3: [f64; 2] =
            std::array::from_fn(|k| 6.0 * (p(3)[k] - 3.0 * p(2)[k] + 3.0 * p(1)[k] - p(0)[k]));
        let cross = |a: [f64; 2], b: [f64; 2]| a[0] * b[1] - a[1] * b[0];
        let n2 = d1[0] * d1[0] + d1[1] * d1[1];
        let kappa = cross(d2, d1) / n2.powf(1.5);
        assert!(close(v, kappa, 1e-13), "{v} vs {kappa}");
        let want = cross(d3, d1) / n2.powf(1.5)
            - 3.0 * cross(d2, d1) * (d1[0] * d2[0] + d1[1] * d2[1]) / n2.powf(2.5);
        assert!(close(dt, want, 1e-12), "dκ/dt: {dt} vs {want}");
        // One direction each: a translation leaves κ, a dilation p → (1 + ε) p gives −κ.
        let r = cubic_curvature_frule(
            Dual::new(&CUBIC, &[1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]),
            Dual::constant(t),
        );
        assert!(r.tangent.abs() < 1e-13, "{}", r.tangent);
        let r = cubic_curvature_frule(Dual::new(&CUBIC, &CUBIC), Dual::constant(t));
        assert!(
            close(r.tangent, -kappa, 1e-13),
            "{} vs {}",
            r.tangent,
            -kappa
        );
        // The gradient in the control points, by a batch of 4 and against differences.
        let (_, g) = gradient_with::<4>(bind(cubic_curvature {}, (Wrt, t)), &CUBIC);
        for i in 0..8 {
            let d = fd_at(|y| published::cubic_curvature(y, t), &CUBIC, i);
            assert!(close(g[i], d, 1e-7), "∂κ/∂p{i}: {} vs {d}", g[i]);
        }
    }
}

#[test]
fn values_pass_through_unchanged() {
    // The annotated types are kurbo's: a few methods against the published crate.
    let a = Affine::new([2.0, 0.5, -0.3, 1.2, 7.0, -1.0])
        .then_rotate(0.3)
        .pre_skew(0.1, 0.2);
    let b = kurbo::Affine::new([2.0, 0.5, -0.3, 1.2, 7.0, -1.0])
        .then_rotate(0.3)
        .pre_skew(0.1, 0.2);
    assert_eq!(
        a.as_coeffs().map(f64::to_bits),
        b.as_coeffs().map(f64::to_bits)
    );
    let e = Ellipse::new((1.0, 2.0), (3.0, 0.7), 0.4);
    let f = kurbo::Ellipse::new((1.0, 2.0), (3.0, 0.7), 0.4);
    assert_eq!(e.rotation().to_bits(), f.rotation().to_bits());
    assert_eq!(e.radii().x.to_bits(), f.radii().x.to_bits());
    assert_eq!(
        e.winding(Point::new(1.5, 2.1)),
        kurbo::Shape::winding(&f, kurbo::Point::new(1.5, 2.1))
    );
}

/// A view composed in place (`*=` on `Affine`, whose `MulAssign` calls `self.mul(..)`),
/// applied to an offset halved in place (`/=` on `Vec2`, whose `DivAssign` calls
/// `self.mul_assign(..)`).
#[derive_frule]
fn composed_view(th: f64, n: usize, v: &[f64; 2]) -> [f64; 2] {
    let mut view = Affine::IDENTITY;
    for _ in 0..n {
        view *= Affine::rotate(th);
    }
    let mut d = Vec2::new(v[0], v[1]);
    d /= 2.0;
    let q = view * d.to_point();
    [q.x, q.y]
}

#[test]
fn a_view_composed_in_place() {
    let (th, n, v) = (0.3_f64, 5, [1.0, -2.0]);
    let (r, d) = derivative(bind(composed_view {}, (Wrt, n, &v)), th);
    let mut view = kurbo::Affine::IDENTITY;
    for _ in 0..n {
        view *= kurbo::Affine::rotate(th);
    }
    let mut dv = kurbo::Vec2::new(v[0], v[1]);
    dv /= 2.0;
    let q = view * dv.to_point();
    assert_eq!(
        (r[0].to_bits(), r[1].to_bits()),
        (q.x.to_bits(), q.y.to_bits())
    );
    // R(nθ) v / 2, and its derivative n R'(nθ) v / 2.
    let (s, c) = (n as f64 * th).sin_cos();
    let (hx, hy) = (v[0] / 2.0, v[1] / 2.0);
    let k = n as f64;
    assert!(close(d[0], k * (-s * hx - c * hy), 1e-14), "{d:?}");
    assert!(close(d[1], k * (c * hx - s * hy), 1e-14), "{d:?}");
}
