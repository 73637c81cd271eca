//! A coherent part of kurbo's curves (<https://github.com/linebender/kurbo>, commit
//! 11cb7f1; Copyright 2018 the Kurbo Authors; Apache-2.0 OR MIT, whose notices are kept
//! with each file's items below): `Point` and `Vec2` with their operators, the traits
//! `ParamCurve`, `ParamCurveDeriv` (with its associated type) and `ParamCurveArclen`, and
//! `Line`, `QuadBez` and `CubicBez` implementing them, with the Gauss–Legendre tables and
//! the adaptive arclength of a cubic. Verbatim, with `#[fwdad::derive_frule]` on each
//! trait, `impl` and function, and `fwdad::Differentiable` added to each type's derive list.
//! The point and the arclength of a Bézier curve are differentiated with respect to its
//! control points, against closed forms (the Bernstein weights), quadrature of the
//! derivative written out independently, and central differences; primals bit for bit.

// kurbo's `cfg_attr(feature = "serde" | "schemars")` derives, for features this crate does not have.
#![allow(unexpected_cfgs)]

#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports, unused_macros, unexpected_cfgs, missing_docs)]
pub mod kurbo {
    // Copyright 2018 the Kurbo Authors
    // SPDX-License-Identifier: Apache-2.0 OR MIT

    pub mod common {
        //! From `kurbo/src/common.rs`.
        /// Solve an arbitrary function for a zero-crossing.
        ///
        /// This uses the [ITP method], as described in the paper
        /// [An Enhancement of the Bisection Method Average Performance Preserving Minmax Optimality].
        ///
        /// The values of `ya` and `yb` are given as arguments rather than
        /// computed from `f`, as the values may already be known, or they may
        /// be less expensive to compute as special cases.
        ///
        /// It is assumed that `ya < 0.0` and `yb > 0.0`, otherwise unexpected
        /// results may occur.
        ///
        /// The value of `epsilon` must be larger than 2^-63 times `b - a`,
        /// otherwise integer overflow may occur. The `a` and `b` parameters
        /// represent the lower and upper bounds of the bracket searched for a
        /// solution.
        ///
        /// The ITP method has tuning parameters. This implementation hardwires
        /// k2 to 2, both because it avoids an expensive floating point
        /// exponentiation, and because this value has been tested to work well
        /// with curve fitting problems.
        ///
        /// The `n0` parameter controls the relative impact of the bisection and
        /// secant components. When it is 0, the number of iterations is
        /// guaranteed to be no more than the number required by bisection (thus,
        /// this method is strictly superior to bisection). However, when the
        /// function is smooth, a value of 1 gives the secant method more of a
        /// chance to engage, so the average number of iterations is likely
        /// lower, though there can be one more iteration than bisection in the
        /// worst case.
        ///
        /// The `k1` parameter is harder to characterize, and interested users
        /// are referred to the paper, as well as encouraged to do empirical
        /// testing. To match the paper, a value of `0.2 / (b - a)` is
        /// suggested, and this is confirmed to give good results.
        ///
        /// When the function is monotonic, the returned result is guaranteed to
        /// be within `epsilon` of the zero crossing. For more detailed analysis,
        /// again see the paper.
        ///
        /// [ITP method]: https://en.wikipedia.org/wiki/ITP_Method
        /// [An Enhancement of the Bisection Method Average Performance Preserving Minmax Optimality]: https://dl.acm.org/doi/10.1145/3423597
        #[allow(clippy::too_many_arguments)]
        pub fn solve_itp(
            mut f: impl FnMut(f64) -> f64,
            a: f64,
            b: f64,
            epsilon: f64,
            n0: usize,
            k1: f64,
            ya: f64,
            yb: f64,
        ) -> f64 {
            use core::convert::Infallible;
            let (a, b) = solve_itp_fallible(|x| Ok::<_, Infallible>(f(x)), a, b, epsilon, n0, k1, ya, yb)
                .expect("Infallible `f` never returns `Err`");

            // Return the midpoint of the bracket returned by `solve_itp_fallible`. If that found an exact
            // zero, it returns `(a, a)`, and the following will result in exactly `a` (except for harmless
            // negative zero subtlety or when `a + b` overflows ~1e308).
            0.5 * (a + b)
        }

        /// A variant ITP solver that allows fallible functions.
        ///
        /// Another difference: it returns the bracket that contains the root,
        /// which may be important if the function has a discontinuity.
        #[allow(clippy::too_many_arguments)]
        pub(crate) fn solve_itp_fallible<E>(
            mut f: impl FnMut(f64) -> Result<f64, E>,
            mut a: f64,
            mut b: f64,
            epsilon: f64,
            n0: usize,
            k1: f64,
            mut ya: f64,
            mut yb: f64,
        ) -> Result<(f64, f64), E> {
            let n1_2 = (((b - a) / epsilon).log2().ceil() - 1.0).max(0.0) as usize;
            let nmax = n0 + n1_2;
            let mut scaled_epsilon = epsilon * (1u64 << nmax) as f64;
            while b - a > 2.0 * epsilon {
                let x1_2 = 0.5 * (a + b);
                let r = scaled_epsilon - 0.5 * (b - a);
                let xf = (yb * a - ya * b) / (yb - ya);
                let sigma = x1_2 - xf;
                // This has k2 = 2 hardwired for efficiency.
                let delta = k1 * (b - a).powi(2);
                let xt = if delta <= (x1_2 - xf).abs() {
                    xf + delta.copysign(sigma)
                } else {
                    x1_2
                };
                let xitp = if (xt - x1_2).abs() <= r {
                    xt
                } else {
                    x1_2 - r.copysign(sigma)
                };
                let yitp = f(xitp)?;
                if yitp > 0.0 {
                    b = xitp;
                    yb = yitp;
                } else if yitp < 0.0 {
                    a = xitp;
                    ya = yitp;
                } else {
                    return Ok((xitp, xitp));
                }
                scaled_epsilon *= 0.5;
            }
            Ok((a, b))
        }

        pub const GAUSS_LEGENDRE_COEFFS_8: &[(f64, f64)] = &[
            (0.3626837833783620, -0.1834346424956498),
            (0.3626837833783620, 0.1834346424956498),
            (0.3137066458778873, -0.5255324099163290),
            (0.3137066458778873, 0.5255324099163290),
            (0.2223810344533745, -0.7966664774136267),
            (0.2223810344533745, 0.7966664774136267),
            (0.1012285362903763, -0.9602898564975363),
            (0.1012285362903763, 0.9602898564975363),
        ];

        pub const GAUSS_LEGENDRE_COEFFS_8_HALF: &[(f64, f64)] = &[
            (0.3626837833783620, 0.1834346424956498),
            (0.3137066458778873, 0.5255324099163290),
            (0.2223810344533745, 0.7966664774136267),
            (0.1012285362903763, 0.9602898564975363),
        ];

        // Just the positive x_i values.
        pub const GAUSS_LEGENDRE_COEFFS_16_HALF: &[(f64, f64)] = &[
            (0.1894506104550685, 0.0950125098376374),
            (0.1826034150449236, 0.2816035507792589),
            (0.1691565193950025, 0.4580167776572274),
            (0.1495959888165767, 0.6178762444026438),
            (0.1246289712555339, 0.7554044083550030),
            (0.0951585116824928, 0.8656312023878318),
            (0.0622535239386479, 0.9445750230732326),
            (0.0271524594117541, 0.9894009349916499),
        ];

        pub const GAUSS_LEGENDRE_COEFFS_24_HALF: &[(f64, f64)] = &[
            (0.1279381953467522, 0.0640568928626056),
            (0.1258374563468283, 0.1911188674736163),
            (0.1216704729278034, 0.3150426796961634),
            (0.1155056680537256, 0.4337935076260451),
            (0.1074442701159656, 0.5454214713888396),
            (0.0976186521041139, 0.6480936519369755),
            (0.0861901615319533, 0.7401241915785544),
            (0.0733464814110803, 0.8200019859739029),
            (0.0592985849154368, 0.8864155270044011),
            (0.0442774388174198, 0.9382745520027328),
            (0.0285313886289337, 0.9747285559713095),
            (0.0123412297999872, 0.9951872199970213),
        ];
    }

    pub mod vec2 {
        //! From `kurbo/src/vec2.rs`.
        use core::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

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

            /// Linearly interpolate between two vectors.
            #[inline]
            pub fn lerp(self, other: Vec2, t: f64) -> Vec2 {
                self + t * (other - self)
            }

            /// Divides this `Vec2` by a scalar.
            ///
            /// Unlike the division by scalar operator, which multiplies by the
            /// reciprocal for performance, this performs the division
            /// per-component for consistent rounding behavior.
            pub(crate) fn div_exact(self, divisor: f64) -> Vec2 {
                Vec2 {
                    x: self.x / divisor,
                    y: self.y / divisor,
                }
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

    pub mod param_curve {
        //! From `kurbo/src/param_curve.rs`.
        use core::ops::Range;

        use super::{common, Point};

        /// A default value for methods that take an 'accuracy' argument.
        ///
        /// This value is intended to be suitable for general-purpose use, such as
        /// 2d graphics.
        pub const DEFAULT_ACCURACY: f64 = 1e-6;

        #[fwdad::derive_frule]
        /// A curve parameterized by a scalar.
        ///
        /// If the result is interpreted as a point, this represents a curve.
        /// But the result can be interpreted as a vector as well.
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

        #[fwdad::derive_frule]
        /// A differentiable parameterized curve.
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

            /// Estimate arclength using Gaussian quadrature.
            ///
            /// The coefficients are assumed to cover the range (-1..1), which is
            /// traditional.
            #[inline]
            fn gauss_arclen(&self, coeffs: &[(f64, f64)]) -> f64 {
                let d = self.deriv();
                coeffs
                    .iter()
                    .map(|(wi, xi)| wi * d.eval(0.5 * (xi + 1.0)).to_vec2().hypot())
                    .sum::<f64>()
                    * 0.5
            }
        }

        #[fwdad::derive_frule]
        /// A parameterized curve that can have its arc length measured.
        pub trait ParamCurveArclen: ParamCurve {
            /// The arc length of the curve.
            ///
            /// The result is accurate to the given accuracy (subject to
            /// roundoff errors for ridiculously low values). Compute time
            /// may vary with accuracy, if the curve needs to be subdivided.
            fn arclen(&self, accuracy: f64) -> f64;

            /// Solve for the parameter that has the given arc length from the start.
            ///
            /// This implementation uses the IPT method, as provided by
            /// [`common::solve_itp`]. This is as robust as bisection but
            /// typically converges faster. In addition, the method takes
            /// care to compute arc lengths of increasingly smaller segments
            /// of the curve, as that is likely faster than repeatedly
            /// computing the arc length of the segment starting at t=0.
            fn inv_arclen(&self, arclen: f64, accuracy: f64) -> f64 {
                if arclen <= 0.0 {
                    return 0.0;
                }
                let total_arclen = self.arclen(accuracy);
                if arclen >= total_arclen {
                    return 1.0;
                }
                let mut t_last = 0.0;
                let mut arclen_last = 0.0;
                let epsilon = accuracy / total_arclen;
                let n = 1.0 - epsilon.log2().ceil().min(0.0);
                let inner_accuracy = accuracy / n;
                let f = |t: f64| {
                    let (range, dir) = if t > t_last {
                        (t_last..t, 1.0)
                    } else {
                        (t..t_last, -1.0)
                    };
                    let arc = self.subsegment(range).arclen(inner_accuracy);
                    arclen_last += arc * dir;
                    t_last = t;
                    arclen_last - arclen
                };
                common::solve_itp(f, 0.0, 1.0, epsilon, 1, 0.2, -arclen, total_arclen - arclen)
            }
        }
    }

    pub mod line {
        //! From `kurbo/src/line.rs`.
        use core::ops::Range;

        use super::{ParamCurve, ParamCurveArclen, ParamCurveDeriv, Point};

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
        impl ParamCurveArclen for Line {
            #[inline]
            fn arclen(&self, _accuracy: f64) -> f64 {
                (self.p1 - self.p0).hypot()
            }

            #[inline]
            fn inv_arclen(&self, arclen: f64, _accuracy: f64) -> f64 {
                arclen / (self.p1 - self.p0).hypot()
            }
        }

        /// A trivial "curve" that is just a constant.
        #[derive(Clone, Copy, Debug, fwdad::Differentiable)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct ConstPoint(Point);

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
        impl ParamCurveArclen for ConstPoint {
            #[inline(always)]
            fn arclen(&self, _accuracy: f64) -> f64 {
                0.0
            }

            #[inline(always)]
            fn inv_arclen(&self, _arclen: f64, _accuracy: f64) -> f64 {
                0.0
            }
        }
    }

    pub mod quadbez {
        //! From `kurbo/src/quadbez.rs`.
        use core::ops::Range;

        use super::{Line, ParamCurve, ParamCurveArclen, ParamCurveDeriv, Point};

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
        impl ParamCurveArclen for QuadBez {
            /// Arclength of a quadratic Bézier segment.
            ///
            /// This computation is based on an analytical formula. Since that formula suffers
            /// from numerical instability when the curve is very close to a straight line, we
            /// detect that case and fall back to Legendre-Gauss quadrature.
            ///
            /// Accuracy should be better than 1e-13 over the entire range.
            ///
            /// Adapted from <http://www.malczak.linuxpl.com/blog/quadratic-bezier-curve-length/>
            /// with permission.
            fn arclen(&self, _accuracy: f64) -> f64 {
                let d2 = self.p0.to_vec2() - 2.0 * self.p1.to_vec2() + self.p2.to_vec2();
                let a = d2.hypot2();
                let d1 = self.p1 - self.p0;
                let c = d1.hypot2();
                if a < 5e-4 * c {
                    // This case happens for nearly straight Béziers.
                    //
                    // Calculate arclength using Legendre-Gauss quadrature using formula from Behdad
                    // in https://github.com/Pomax/BezierInfo-2/issues/77
                    let v0 = (-0.492943519233745 * self.p0.to_vec2()
                        + 0.430331482911935 * self.p1.to_vec2()
                        + 0.0626120363218102 * self.p2.to_vec2())
                    .hypot();
                    let v1 = ((self.p2 - self.p0) * 0.4444444444444444).hypot();
                    let v2 = (-0.0626120363218102 * self.p0.to_vec2()
                        - 0.430331482911935 * self.p1.to_vec2()
                        + 0.492943519233745 * self.p2.to_vec2())
                    .hypot();
                    return v0 + v1 + v2;
                }
                let b = 2.0 * d2.dot(d1);

                let sabc = (a + b + c).sqrt();
                let a2 = a.powf(-0.5);
                let a32 = a2.powi(3);
                let c2 = 2.0 * c.sqrt();
                let ba_c2 = b * a2 + c2;

                let v0 = 0.25 * a2 * a2 * b * (2.0 * sabc - c2) + sabc;
                // TODO: justify and fine-tune this exact constant.
                // The factor of a2 here is a little arbitrary: we really want
                // to test whether ba_c2 is small, but it's also important for
                // this comparison to be scale-invariant. We chose a2 (instead of,
                // for example, c2 on the rhs) because it's unchanged under
                // reversing the parametrization.
                if ba_c2 * a2 < 1e-13 {
                    // This case happens for Béziers with a sharp kink.
                    v0
                } else {
                    v0 + 0.25
                        * a32
                        * (4.0 * c * a - b * b)
                        * (((2.0 * a + b) * a2 + 2.0 * sabc) / ba_c2).ln()
                }
            }
        }
    }

    pub mod cubicbez {
        //! From `kurbo/src/cubicbez.rs`.
        use core::ops::Range;

        use super::common::{
            GAUSS_LEGENDRE_COEFFS_8, GAUSS_LEGENDRE_COEFFS_8_HALF, GAUSS_LEGENDRE_COEFFS_16_HALF,
            GAUSS_LEGENDRE_COEFFS_24_HALF,
        };
        use super::{ParamCurve, ParamCurveArclen, ParamCurveDeriv, Point, QuadBez, Vec2};

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

        #[fwdad::derive_frule(inactive(coeffs))]
        fn arclen_quadrature_core(coeffs: &[(f64, f64)], dm: Vec2, dm1: Vec2, dm2: Vec2) -> f64 {
            coeffs
                .iter()
                .map(|&(wi, xi)| {
                    let d = dm + dm2 * (xi * xi);
                    let dpx = (d + dm1 * xi).hypot();
                    let dmx = (d - dm1 * xi).hypot();
                    (2.25f64.sqrt() * wi) * (dpx + dmx)
                })
                .sum::<f64>()
        }

        #[fwdad::derive_frule]
        fn arclen_rec(c: &CubicBez, accuracy: f64, depth: usize) -> f64 {
            let d03 = c.p3 - c.p0;
            let d01 = c.p1 - c.p0;
            let d12 = c.p2 - c.p1;
            let d23 = c.p3 - c.p2;
            let lp_lc = d01.hypot() + d12.hypot() + d23.hypot() - d03.hypot();
            let dd1 = d12 - d01;
            let dd2 = d23 - d12;
            // It might be faster to do direct multiplies, the data dependencies would be shorter.
            // The following values don't have the factor of 3 for first deriv
            let dm = 0.25 * (d01 + d23) + 0.5 * d12; // first derivative at midpoint
            let dm1 = 0.5 * (dd2 + dd1); // second derivative at midpoint
            let dm2 = 0.25 * (dd2 - dd1); // 0.5 * (third derivative at midpoint)

            let est = GAUSS_LEGENDRE_COEFFS_8
                .iter()
                .map(|&(wi, xi)| {
                    wi * {
                        let d_norm2 = (dm + dm1 * xi + dm2 * (xi * xi)).hypot2();
                        let dd_norm2 = (dm1 + dm2 * (2.0 * xi)).hypot2();
                        dd_norm2 / d_norm2
                    }
                })
                .sum::<f64>();
            let est_gauss8_error = (est.powi(3) * 2.5e-6).min(3e-2) * lp_lc;
            if est_gauss8_error < accuracy {
                return arclen_quadrature_core(GAUSS_LEGENDRE_COEFFS_8_HALF, dm, dm1, dm2);
            }
            let est_gauss16_error = (est.powi(6) * 1.5e-11).min(9e-3) * lp_lc;
            if est_gauss16_error < accuracy {
                return arclen_quadrature_core(GAUSS_LEGENDRE_COEFFS_16_HALF, dm, dm1, dm2);
            }
            let est_gauss24_error = (est.powi(9) * 3.5e-16).min(3.5e-3) * lp_lc;
            if est_gauss24_error < accuracy || depth >= 20 {
                return arclen_quadrature_core(GAUSS_LEGENDRE_COEFFS_24_HALF, dm, dm1, dm2);
            }
            let (c0, c1) = c.subdivide();
            arclen_rec(&c0, accuracy * 0.5, depth + 1) + arclen_rec(&c1, accuracy * 0.5, depth + 1)
        }

        #[fwdad::derive_frule]
        impl ParamCurveArclen for CubicBez {
            /// Arclength of a cubic Bézier segment.
            ///
            /// This is an adaptive subdivision approach using Legendre-Gauss quadrature
            /// in the base case, and an error estimate to decide when to subdivide.
            fn arclen(&self, accuracy: f64) -> f64 {
                arclen_rec(self, accuracy, 0)
            }
        }
    }

    pub use cubicbez::CubicBez;
    pub use line::{ConstPoint, Line};
    pub use param_curve::{ParamCurve, ParamCurveArclen, ParamCurveDeriv, DEFAULT_ACCURACY};
    pub use point::Point;
    pub use quadbez::QuadBez;
    pub use vec2::Vec2;

}

use crate::kurbo::{
    CubicBez, Line, ParamCurve, ParamCurveArclen, ParamCurveDeriv, Point, QuadBez, Vec2,
};
use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;

/// The point of a cubic Bézier at `t`, from its control points `[x0, y0, .., x3, y3]`.
#[derive_frule]
fn cubic_point(p: &[f64], t: f64) -> [f64; 2] {
    let c = CubicBez::new(
        Point::new(p[0], p[1]),
        Point::new(p[2], p[3]),
        Point::new(p[4], p[5]),
        Point::new(p[6], p[7]),
    );
    let q = c.eval(t);
    [q.x, q.y]
}

/// The arclength of a cubic Bézier from its control points.
#[derive_frule]
fn cubic_arclen(p: &[f64], accuracy: f64) -> f64 {
    let c = CubicBez::new(
        Point::new(p[0], p[1]),
        Point::new(p[2], p[3]),
        Point::new(p[4], p[5]),
        Point::new(p[6], p[7]),
    );
    c.arclen(accuracy)
}

/// Any curve's length over its chord.
#[derive_frule]
fn straightness<C: ParamCurveArclen>(c: &C, accuracy: f64) -> f64 {
    c.arclen(accuracy) / (c.end() - c.start()).hypot()
}

/// The speed of a curve at `t`, through its derivative curve (`ParamCurveDeriv`'s
/// associated type).
#[derive_frule]
fn speed<C: ParamCurveDeriv>(c: &C, t: f64) -> f64 {
    c.deriv().eval(t).to_vec2().hypot()
}

/// The length of a piece of a curve (`subsegment` takes a `Range<f64>`, returns `Self`).
#[derive_frule]
fn piece_length<C: ParamCurveArclen>(c: &C, t0: f64, t1: f64) -> f64 {
    c.subsegment(t0..t1).arclen(1e-12)
}

const P: [f64; 8] = [0.0, 0.0, 1.0, 2.2, 3.1, 2.6, 4.0, 0.4];

fn cubic(p: &[f64]) -> CubicBez {
    CubicBez::new(
        Point::new(p[0], p[1]),
        Point::new(p[2], p[3]),
        Point::new(p[4], p[5]),
        Point::new(p[6], p[7]),
    )
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

fn fd(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * (1.0 + x.abs());
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// `B'(t)` of a cubic with control points `p`, written out.
fn velocity(p: &[f64], t: f64) -> [f64; 2] {
    let mt = 1.0 - t;
    let d = |i: usize, c: usize| p[2 * (i + 1) + c] - p[2 * i + c];
    [0, 1].map(|c| 3.0 * (mt * mt * d(0, c) + 2.0 * mt * t * d(1, c) + t * t * d(2, c)))
}

/// `∂L/∂p` by composite Simpson of `∫ B'/|B'| · ∂B'/∂p dt`, independently of kurbo.
fn arclen_gradient_by_quadrature(p: &[f64]) -> [f64; 8] {
    let n = 20_000;
    let mut g = [0.0; 8];
    for k in 0..=n {
        let t = k as f64 / n as f64;
        let w = if k == 0 || k == n {
            1.0
        } else if k % 2 == 1 {
            4.0
        } else {
            2.0
        };
        let v = velocity(p, t);
        let s = (v[0] * v[0] + v[1] * v[1]).sqrt();
        let mt = 1.0 - t;
        // ∂B'/∂P_i (the same for x and y).
        let db = [
            -3.0 * mt * mt,
            3.0 * mt * mt - 6.0 * mt * t,
            6.0 * mt * t - 3.0 * t * t,
            3.0 * t * t,
        ];
        for i in 0..4 {
            for c in 0..2 {
                g[2 * i + c] += w * v[c] / s * db[i];
            }
        }
    }
    g.map(|x| x / (3.0 * n as f64))
}

#[test]
fn cubic_point_is_bernstein_in_the_control_points() {
    for t in [0.0, 0.2, 0.5, 0.83, 1.0] {
        let (v, j) = jacobian(bind(cubic_point {}, (Wrt, t)), &P);
        let q = cubic(&P).eval(t);
        assert_eq!(
            (v[0].to_bits(), v[1].to_bits()),
            (q.x.to_bits(), q.y.to_bits())
        );
        let mt = 1.0 - t;
        let b = [mt * mt * mt, 3.0 * mt * mt * t, 3.0 * mt * t * t, t * t * t];
        for c in 0..2 {
            for i in 0..4 {
                for c2 in 0..2 {
                    let want = if c == c2 { b[i] } else { 0.0 };
                    assert!(
                        close(j[(c, 2 * i + c2)], want, 1e-15),
                        "t={t}: J[{c},{}]",
                        2 * i + c2
                    );
                }
            }
        }
        // In t: B'(t).
        let (_, d) = derivative(bind(cubic_point {}, (&P[..], Wrt)), t);
        let want = velocity(&P, t);
        assert!(
            close(d[0], want[0], 1e-14) && close(d[1], want[1], 1e-14),
            "{d:?} vs {want:?}"
        );
    }
}

#[test]
fn cubic_arclength_in_the_control_points() {
    // Three curves: two bends and an S.
    for p in [
        P,
        [0.0, 0.0, 0.5, 1.0, 1.5, 1.0, 2.0, 0.0],
        [0.0, 0.0, 2.0, 1.5, -1.0, 1.5, 1.0, 3.0],
    ] {
        let acc = 1e-12;
        let (v, g) = gradient(bind(cubic_arclen {}, (Wrt, acc)), &p);
        assert_eq!(v.to_bits(), cubic(&p).arclen(acc).to_bits());
        let want = arclen_gradient_by_quadrature(&p);
        for i in 0..8 {
            assert!(
                close(g[i], want[i], 1e-8),
                "∂L/∂p{i}: {} vs {}",
                g[i],
                want[i]
            );
            let d = fd(
                |x| {
                    let mut q = p;
                    q[i] = x;
                    cubic(&q).arclen(acc)
                },
                p[i],
            );
            assert!(
                close(g[i], d, 1e-6),
                "∂L/∂p{i}: {} vs differences {d}",
                g[i]
            );
        }
        // One direction: moving every control point along (1, 1) translates the curve.
        let ones = [1.0; 8];
        let r = cubic_arclen_frule(Dual::new(&p[..], &ones[..]), Dual::new(acc, 0.0));
        assert!(r.tangent.abs() < 1e-12, "{}", r.tangent);
        // Second order against differences of the gradient.
        let (_, g2, h) = hessian(bind(cubic_arclen {}, (Wrt, acc)), &p);
        for i in 0..8 {
            assert!(close(g2[i], g[i], 1e-12));
            for j in 0..8 {
                let d = fd(
                    |x| {
                        let mut q = p;
                        q[j] = x;
                        gradient(bind(cubic_arclen {}, (Wrt, acc)), &q).1[i]
                    },
                    p[j],
                );
                assert!(
                    close(h[(i, j)], d, 1e-5),
                    "H[{i},{j}]: {} vs {d}",
                    h[(i, j)]
                );
            }
        }
    }
}

#[test]
fn straight_cubic_has_the_chord_gradient() {
    // Control points evenly on a segment: L = |P3 − P0|, ∂L/∂P3 = −∂L/∂P0 = the unit
    // direction, and the inner points do not change the length to first order.
    let p = [1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0];
    let (v, g) = gradient(bind(cubic_arclen {}, (Wrt, 1e-9)), &p);
    let u = 1.0 / 2f64.sqrt();
    assert!(close(v, 3.0 * 2f64.sqrt(), 1e-12));
    let want = [-u, -u, 0.0, 0.0, 0.0, 0.0, u, u];
    for i in 0..8 {
        assert!(
            (g[i] - want[i]).abs() < 1e-9,
            "∂L/∂p{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
}

#[test]
fn generic_curves_through_their_traits() {
    let c = cubic(&P);
    let q = QuadBez::new(
        Point::new(0.0, 0.0),
        Point::new(1.0, 2.0),
        Point::new(3.0, 0.5),
    );
    let l = Line::new(Point::new(0.5, 0.5), Point::new(2.0, 4.0));
    // Speed through the derivative curve (`QuadBez` for a cubic, `Line` for a quadratic),
    // and its derivative in t: B'·B''/|B'|.
    for t in [0.1, 0.45, 0.9] {
        let (v, d) = derivative(bind(speed {}, (&c, Wrt)), t);
        let b1 = velocity(&P, t);
        assert!(close(v, b1[0].hypot(b1[1]), 1e-14));
        let mt = 1.0 - t;
        let b2 = [0, 1].map(|k| {
            6.0 * (mt * (P[4 + k] - 2.0 * P[2 + k] + P[k])
                + t * (P[6 + k] - 2.0 * P[4 + k] + P[2 + k]))
        });
        let want = (b1[0] * b2[0] + b1[1] * b2[1]) / v;
        assert!(close(d, want, 1e-13), "{d} vs {want}");
        let (_, d) = derivative(bind(speed {}, (&q, Wrt)), t);
        assert!(close(d, fd(|t| speed(&q, t), t), 1e-8));
    }
    // ∂/∂t1 of the length of [t0, t1] is the speed at t1, ∂/∂t0 minus the speed at t0.
    let (t0, t1) = (0.2, 0.7);
    for (v, g, s0, s1, whole) in [
        {
            let (v, g) = gradient(bind(piece_length {}, (&c, Var(0), Var(1))), &[t0, t1]);
            (v, g, speed(&c, t0), speed(&c, t1), piece_length(&c, t0, t1))
        },
        {
            let (v, g) = gradient(bind(piece_length {}, (&q, Var(0), Var(1))), &[t0, t1]);
            (v, g, speed(&q, t0), speed(&q, t1), piece_length(&q, t0, t1))
        },
    ] {
        assert_eq!(v, whole);
        assert!(close(g[1], s1, 1e-9), "{} vs {s1}", g[1]);
        assert!(close(g[0], -s0, 1e-9), "{} vs {}", g[0], -s0);
    }
    // A line is straight whatever its ends; a quadratic's straightness in its control
    // point, against differences (kurbo's closed-form arclength).
    let zero = fwdad::ZeroTangent::zero_tangent(&l);
    let r = straightness_frule(Dual::new(&l, &zero), Dual::new(1e-9, 0.0));
    assert!(close(r.primal, 1.0, 1e-15) && r.tangent == 0.0);
    let r = straightness_frule(
        Dual::new(
            &q,
            &crate::kurbo::quadbez::QuadBezTangent {
                p0: crate::kurbo::point::PointTangent { x: 0.0, y: 0.0 },
                p1: crate::kurbo::point::PointTangent { x: 0.0, y: 1.0 },
                p2: crate::kurbo::point::PointTangent { x: 0.0, y: 0.0 },
            },
        ),
        Dual::new(1e-9, 0.0),
    );
    let want = fd(
        |y| {
            straightness(
                &QuadBez {
                    p1: Point::new(1.0, y),
                    ..q
                },
                1e-9,
            )
        },
        2.0,
    );
    assert_eq!(r.primal, straightness(&q, 1e-9));
    assert!(close(r.tangent, want, 1e-7), "{} vs {want}", r.tangent);
    let _ = Vec2::new(0.0, 0.0);
}
