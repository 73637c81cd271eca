//! glam's `f64` types in derived bodies (feature `glam`): `DVec2`, `DVec3`, `DQuat`,
//! `DMat3`.
//!
//! glam is not generic over its scalar (`DVec3` holds three `f64`s), so its code cannot
//! run on duals. An active glam value in a `#[derive_frule]` body is the type of the same
//! name in this module, which holds dual components, and a call of one of glam's
//! associated functions (`DQuat::from_axis_angle(axis, angle)`) is emitted as a call of
//! this module's function of that name. Each function is glam's formula written once over
//! dual scalars in glam's order of operations, whose arithmetic and methods are the rules
//! every mode uses ([`crate::num`]): the primal is glam's value, bit for bit (glam's `f64`
//! types are scalar code), and the tangent is the derivative of glam's formula.
//!
//! Covered: constructors and constants, `+ - *` (with scalars on either side), unary
//! `-`, `dot`, `cross`, `length`, `length_squared`, `distance`, `normalize`, fields;
//! quaternions from an axis and angle or an axis rotation, their products with each
//! other and with vectors, `conjugate`, `inverse`, `normalize`; 3×3 matrices from
//! columns, a quaternion or an axis rotation, `transpose`, `determinant`, products with
//! vectors and matrices. Anything else of glam on an active value is a compile error
//! naming the method.

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::tangent::{Mode, ScalarTangent};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

type D<S> = Dual<f64, S>;

#[inline(always)]
fn c<S: ScalarTangent<f64>>(x: f64) -> D<S> {
    Dual::new(x, S::zero())
}

/// `glam::DVec2` over duals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DVec2<S: ScalarTangent<f64>> {
    /// `x`.
    pub x: D<S>,
    /// `y`.
    pub y: D<S>,
}

/// `glam::DVec3` over duals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DVec3<S: ScalarTangent<f64>> {
    /// `x`.
    pub x: D<S>,
    /// `y`.
    pub y: D<S>,
    /// `z`.
    pub z: D<S>,
}

/// `glam::DQuat` over duals: `x i + y j + z k + w`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DQuat<S: ScalarTangent<f64>> {
    /// `x`.
    pub x: D<S>,
    /// `y`.
    pub y: D<S>,
    /// `z`.
    pub z: D<S>,
    /// `w`.
    pub w: D<S>,
}

/// `glam::DMat3` over duals, by columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DMat3<S: ScalarTangent<f64>> {
    /// The first column.
    pub x_axis: DVec3<S>,
    /// The second column.
    pub y_axis: DVec3<S>,
    /// The third column.
    pub z_axis: DVec3<S>,
}

macro_rules! vec_ops {
    ($V:ident { $($f:ident),* }) => {
        impl<S: ScalarTangent<f64>> $V<S> {
            /// A vector from its components.
            #[inline(always)]
            pub fn new($($f: D<S>),*) -> Self {
                $V { $($f),* }
            }
            /// All components `v`.
            #[inline(always)]
            pub fn splat(v: D<S>) -> Self {
                $V { $($f: v),* }
            }
            /// `Σ aᵢ bᵢ`.
            #[inline(always)]
            pub fn dot(self, rhs: Self) -> D<S> {
                let mut s = c(0.0);
                $(s += self.$f * rhs.$f;)*
                s
            }
            /// `|v|²`.
            #[inline(always)]
            pub fn length_squared(self) -> D<S> {
                self.dot(self)
            }
            /// `|v|`.
            #[inline(always)]
            pub fn length(self) -> D<S> {
                self.dot(self).sqrt()
            }
            /// `1 / |v|`.
            #[inline(always)]
            pub fn length_recip(self) -> D<S> {
                self.length().recip()
            }
            /// `|a − b|`.
            #[inline(always)]
            pub fn distance(self, rhs: Self) -> D<S> {
                (self - rhs).length()
            }
            /// `|a − b|²`.
            #[inline(always)]
            pub fn distance_squared(self, rhs: Self) -> D<S> {
                (self - rhs).length_squared()
            }
            /// `v / |v|`.
            #[inline(always)]
            pub fn normalize(self) -> Self {
                self * self.length_recip()
            }
            /// `self * a + b` componentwise, each with one rounding, as glam's.
            #[inline(always)]
            pub fn mul_add(self, a: Self, b: Self) -> Self {
                $V { $($f: num_traits::Float::mul_add(self.$f, a.$f, b.$f)),* }
            }
            /// `a + (b − a) s`.
            #[inline(always)]
            pub fn lerp(self, rhs: Self, s: D<S>) -> Self {
                self + (rhs - self) * s
            }
        }
        impl<S: ScalarTangent<f64>> Add for $V<S> {
            type Output = Self;
            #[inline(always)]
            fn add(self, r: Self) -> Self {
                $V { $($f: self.$f + r.$f),* }
            }
        }
        impl<S: ScalarTangent<f64>> Sub for $V<S> {
            type Output = Self;
            #[inline(always)]
            fn sub(self, r: Self) -> Self {
                $V { $($f: self.$f - r.$f),* }
            }
        }
        impl<S: ScalarTangent<f64>> Neg for $V<S> {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                $V { $($f: -self.$f),* }
            }
        }
        /// Componentwise, as glam's `DVec3 * DVec3`.
        impl<S: ScalarTangent<f64>> Mul for $V<S> {
            type Output = Self;
            #[inline(always)]
            fn mul(self, r: Self) -> Self {
                $V { $($f: self.$f * r.$f),* }
            }
        }
        impl<S: ScalarTangent<f64>> Mul<D<S>> for $V<S> {
            type Output = Self;
            #[inline(always)]
            fn mul(self, k: D<S>) -> Self {
                $V { $($f: self.$f * k),* }
            }
        }
        impl<S: ScalarTangent<f64>> Mul<$V<S>> for D<S> {
            type Output = $V<S>;
            #[inline(always)]
            fn mul(self, v: $V<S>) -> $V<S> {
                $V { $($f: self * v.$f),* }
            }
        }
        impl<S: ScalarTangent<f64>> core::ops::Div<D<S>> for $V<S> {
            type Output = Self;
            #[inline(always)]
            fn div(self, k: D<S>) -> Self {
                $V { $($f: self.$f / k),* }
            }
        }
        impl<S: ScalarTangent<f64>> AddAssign for $V<S> {
            #[inline(always)]
            fn add_assign(&mut self, r: Self) {
                *self = *self + r;
            }
        }
        impl<S: ScalarTangent<f64>> SubAssign for $V<S> {
            #[inline(always)]
            fn sub_assign(&mut self, r: Self) {
                *self = *self - r;
            }
        }
        impl<S: ScalarTangent<f64>> MulAssign<D<S>> for $V<S> {
            #[inline(always)]
            fn mul_assign(&mut self, k: D<S>) {
                *self = *self * k;
            }
        }
    };
}
vec_ops!(DVec2 { x, y });
vec_ops!(DVec3 { x, y, z });

impl<S: ScalarTangent<f64>> DVec3<S> {
    /// `a × b`.
    #[inline(always)]
    pub fn cross(self, r: Self) -> Self {
        DVec3 {
            x: self.y * r.z - r.y * self.z,
            y: self.z * r.x - r.z * self.x,
            z: self.x * r.y - r.x * self.y,
        }
    }
}

impl<S: ScalarTangent<f64>> DQuat<S> {
    /// From its components.
    #[inline(always)]
    pub fn from_xyzw(x: D<S>, y: D<S>, z: D<S>, w: D<S>) -> Self {
        DQuat { x, y, z, w }
    }
    /// The rotation by `angle` about the unit vector `axis`.
    #[inline(always)]
    pub fn from_axis_angle(axis: DVec3<S>, angle: D<S>) -> Self {
        let (s, co) = (angle * 0.5).sin_cos();
        let v = axis * s;
        DQuat {
            x: v.x,
            y: v.y,
            z: v.z,
            w: co,
        }
    }
    /// The rotation by `angle` about the x axis.
    #[inline(always)]
    pub fn from_rotation_x(angle: D<S>) -> Self {
        let (s, co) = (angle * 0.5).sin_cos();
        DQuat::from_xyzw(s, c(0.0), c(0.0), co)
    }
    /// The rotation by `angle` about the y axis.
    #[inline(always)]
    pub fn from_rotation_y(angle: D<S>) -> Self {
        let (s, co) = (angle * 0.5).sin_cos();
        DQuat::from_xyzw(c(0.0), s, c(0.0), co)
    }
    /// The rotation by `angle` about the z axis.
    #[inline(always)]
    pub fn from_rotation_z(angle: D<S>) -> Self {
        let (s, co) = (angle * 0.5).sin_cos();
        DQuat::from_xyzw(c(0.0), c(0.0), s, co)
    }
    /// `(−x, −y, −z, w)`.
    #[inline(always)]
    pub fn conjugate(self) -> Self {
        DQuat::from_xyzw(-self.x, -self.y, -self.z, self.w)
    }
    /// The inverse of a unit quaternion (its conjugate, as glam's `inverse`).
    #[inline(always)]
    pub fn inverse(self) -> Self {
        self.conjugate()
    }
    /// `Σ aᵢ bᵢ` of the four components.
    #[inline(always)]
    pub fn dot(self, r: Self) -> D<S> {
        self.x * r.x + self.y * r.y + self.z * r.z + self.w * r.w
    }
    /// `|q|`.
    #[inline(always)]
    pub fn length(self) -> D<S> {
        self.dot(self).sqrt()
    }
    /// `q / |q|`.
    #[inline(always)]
    pub fn normalize(self) -> Self {
        let k = self.length().recip();
        DQuat::from_xyzw(self.x * k, self.y * k, self.z * k, self.w * k)
    }
    /// The vector part `(x, y, z)`.
    #[inline(always)]
    pub fn xyz(self) -> DVec3<S> {
        DVec3::new(self.x, self.y, self.z)
    }
    /// `q v q*` for a unit quaternion, glam's formula:
    /// `v (w² − |b|²) + b (2 v·b) + (b × v) 2w`, `b = (x, y, z)`.
    #[inline(always)]
    pub fn mul_vec3(self, v: DVec3<S>) -> DVec3<S> {
        let w = self.w;
        let b = self.xyz();
        let b2 = b.dot(b);
        v * (w * w - b2) + b * (v.dot(b) * 2.0) + b.cross(v) * (w * 2.0)
    }
}

/// The Hamilton product (`a * b` rotates by `b` first).
impl<S: ScalarTangent<f64>> Mul for DQuat<S> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, r: Self) -> Self {
        let (a, b) = (self, r);
        DQuat {
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        }
    }
}

impl<S: ScalarTangent<f64>> Mul<DVec3<S>> for DQuat<S> {
    type Output = DVec3<S>;
    #[inline(always)]
    fn mul(self, v: DVec3<S>) -> DVec3<S> {
        self.mul_vec3(v)
    }
}

impl<S: ScalarTangent<f64>> MulAssign for DQuat<S> {
    #[inline(always)]
    fn mul_assign(&mut self, r: Self) {
        *self = *self * r;
    }
}

impl<S: ScalarTangent<f64>> DMat3<S> {
    /// From its three columns.
    #[inline(always)]
    pub fn from_cols(x_axis: DVec3<S>, y_axis: DVec3<S>, z_axis: DVec3<S>) -> Self {
        DMat3 {
            x_axis,
            y_axis,
            z_axis,
        }
    }
    /// The rotation matrix of a unit quaternion.
    #[inline(always)]
    pub fn from_quat(q: DQuat<S>) -> Self {
        let one = c::<S>(1.0);
        let (x2, y2, z2) = (q.x + q.x, q.y + q.y, q.z + q.z);
        let (xx, xy, xz) = (q.x * x2, q.x * y2, q.x * z2);
        let (yy, yz, zz) = (q.y * y2, q.y * z2, q.z * z2);
        let (wx, wy, wz) = (q.w * x2, q.w * y2, q.w * z2);
        DMat3::from_cols(
            DVec3::new(one - (yy + zz), xy + wz, xz - wy),
            DVec3::new(xy - wz, one - (xx + zz), yz + wx),
            DVec3::new(xz + wy, yz - wx, one - (xx + yy)),
        )
    }
    /// The rotation by `angle` about the unit vector `axis`.
    #[inline(always)]
    pub fn from_axis_angle(axis: DVec3<S>, angle: D<S>) -> Self {
        DMat3::from_quat(DQuat::from_axis_angle(axis, angle))
    }
    /// The rotation by `angle` about the x axis.
    #[inline(always)]
    pub fn from_rotation_x(angle: D<S>) -> Self {
        let (s, co) = angle.sin_cos();
        let (zero, one) = (c::<S>(0.0), c::<S>(1.0));
        DMat3::from_cols(
            DVec3::new(one, zero, zero),
            DVec3::new(zero, co, s),
            DVec3::new(zero, -s, co),
        )
    }
    /// The rotation by `angle` about the y axis.
    #[inline(always)]
    pub fn from_rotation_y(angle: D<S>) -> Self {
        let (s, co) = angle.sin_cos();
        let (zero, one) = (c::<S>(0.0), c::<S>(1.0));
        DMat3::from_cols(
            DVec3::new(co, zero, -s),
            DVec3::new(zero, one, zero),
            DVec3::new(s, zero, co),
        )
    }
    /// The rotation by `angle` about the z axis.
    #[inline(always)]
    pub fn from_rotation_z(angle: D<S>) -> Self {
        let (s, co) = angle.sin_cos();
        let (zero, one) = (c::<S>(0.0), c::<S>(1.0));
        DMat3::from_cols(
            DVec3::new(co, s, zero),
            DVec3::new(-s, co, zero),
            DVec3::new(zero, zero, one),
        )
    }
    /// `Mv`.
    #[inline(always)]
    pub fn mul_vec3(self, v: DVec3<S>) -> DVec3<S> {
        self.x_axis * v.x + self.y_axis * v.y + self.z_axis * v.z
    }
    /// `Mᵀ`.
    #[inline(always)]
    pub fn transpose(self) -> Self {
        let (a, b, d) = (self.x_axis, self.y_axis, self.z_axis);
        DMat3::from_cols(
            DVec3::new(a.x, b.x, d.x),
            DVec3::new(a.y, b.y, d.y),
            DVec3::new(a.z, b.z, d.z),
        )
    }
    /// `det M = c₂ · (c₀ × c₁)`.
    #[inline(always)]
    pub fn determinant(self) -> D<S> {
        self.z_axis.dot(self.x_axis.cross(self.y_axis))
    }
}

impl<S: ScalarTangent<f64>> Mul<DVec3<S>> for DMat3<S> {
    type Output = DVec3<S>;
    #[inline(always)]
    fn mul(self, v: DVec3<S>) -> DVec3<S> {
        self.mul_vec3(v)
    }
}

impl<S: ScalarTangent<f64>> Mul for DMat3<S> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, r: Self) -> Self {
        DMat3::from_cols(
            self.mul_vec3(r.x_axis),
            self.mul_vec3(r.y_axis),
            self.mul_vec3(r.z_axis),
        )
    }
}

impl<S: ScalarTangent<f64>> MulAssign for DMat3<S> {
    #[inline(always)]
    fn mul_assign(&mut self, r: Self) {
        *self = *self * r;
    }
}

// ---------------------------------------------------------------------------------------
// glam's types as parameters: tangents and lifting.
// ---------------------------------------------------------------------------------------

macro_rules! glam_type {
    ($G:ident, $V:ident, $n:literal, |$g:ident| [$($get:expr),*], |$a:ident| $make:expr, |$m:ident| [$($part:expr),*], $from:path) => {
        /// The whole value's dual: what a derived function returns.
        impl<S: Mode> $crate::lift::Unlift<S> for $V<S> {
            type Output = Dual<glam::$G, [S; $n]>;
            #[inline(always)]
            fn unlift(self) -> Dual<glam::$G, [S; $n]> {
                let $m = self;
                let parts: [D<S>; $n] = [$($part),*];
                Dual::new($from(&parts.map(|d| d.primal)), parts.map(|d| d.tangent))
            }
        }
        impl<S: Mode> $crate::lift::Unlift<S> for &$V<S> {
            type Output = Dual<glam::$G, [S; $n]>;
            #[inline(always)]
            fn unlift(self) -> Dual<glam::$G, [S; $n]> {
                $crate::lift::Unlift::unlift(*self)
            }
        }
        /// Its tangent: one per component, in glam's component order.
        impl Differentiable for glam::$G {
            type Tangent = [f64; $n];
            type TangentIn<S: Mode> = [S; $n];
        }
        impl $crate::traits::UserValue for glam::$G {}
        impl ZeroTangent for glam::$G {
            #[inline(always)]
            fn zero_tangent(&self) -> [f64; $n] {
                [0.0; $n]
            }
            #[inline(always)]
            fn zero_tangent_in<S: Mode>(&self) -> [S; $n] {
                [S::zero(); $n]
            }
        }
        impl<S: Mode> $V<S> {
            /// From glam's value and its tangent, component by component.
            #[inline(always)]
            fn from_parts($g: glam::$G, t: [S; $n]) -> Self {
                let p = [$($get),*];
                let $a: [D<S>; $n] = core::array::from_fn(|i| Dual::new(p[i], t[i]));
                $make
            }
        }
        /// A constant.
        impl<S: Mode> $crate::lift::Lift<S> for glam::$G {
            type Output = $V<S>;
            #[inline(always)]
            fn lift(self) -> $V<S> {
                $V::from_parts(self, [S::zero(); $n])
            }
        }
        /// A constant.
        impl<S: Mode> $crate::lift::Lift<S> for &glam::$G {
            type Output = $V<S>;
            #[inline(always)]
            fn lift(self) -> $V<S> {
                $V::from_parts(*self, [S::zero(); $n])
            }
        }
        impl<S: Mode> $crate::lift::Lift<S> for $V<S> {
            type Output = $V<S>;
            #[inline(always)]
            fn lift(self) -> $V<S> {
                self
            }
        }
        impl<S: Mode> $crate::lift::Lift<S> for &$V<S> {
            type Output = $V<S>;
            #[inline(always)]
            fn lift(self) -> $V<S> {
                *self
            }
        }
        /// A parameter taken by value.
        impl<S: Mode> $crate::lift::Lift<S> for Dual<glam::$G, [S; $n]> {
            type Output = $V<S>;
            #[inline(always)]
            fn lift(self) -> $V<S> {
                $V::from_parts(self.primal, self.tangent)
            }
        }
        /// A parameter taken by reference.
        impl<'a, S: Mode> $crate::lift::Lift<S> for Dual<&'a glam::$G, &'a [S; $n]> {
            type Output = $V<S>;
            #[inline(always)]
            fn lift(self) -> $V<S> {
                $V::from_parts(*self.primal, *self.tangent)
            }
        }
    };
}
glam_type!(
    DVec2,
    DVec2,
    2,
    |g| [g.x, g.y],
    |a| DVec2::new(a[0], a[1]),
    |m| [m.x, m.y],
    glam_from_array2
);
glam_type!(
    DVec3,
    DVec3,
    3,
    |g| [g.x, g.y, g.z],
    |a| DVec3::new(a[0], a[1], a[2]),
    |m| [m.x, m.y, m.z],
    glam_from_array3
);
glam_type!(
    DQuat,
    DQuat,
    4,
    |g| [g.x, g.y, g.z, g.w],
    |a| DQuat::from_xyzw(a[0], a[1], a[2], a[3]),
    |m| [m.x, m.y, m.z, m.w],
    glam_from_array4
);
glam_type!(
    DMat3,
    DMat3,
    9,
    |g| [
        g.x_axis.x, g.x_axis.y, g.x_axis.z, g.y_axis.x, g.y_axis.y, g.y_axis.z, g.z_axis.x,
        g.z_axis.y, g.z_axis.z
    ],
    |a| DMat3::from_cols(
        DVec3::new(a[0], a[1], a[2]),
        DVec3::new(a[3], a[4], a[5]),
        DVec3::new(a[6], a[7], a[8])
    ),
    |m| [
        m.x_axis.x, m.x_axis.y, m.x_axis.z, m.y_axis.x, m.y_axis.y, m.y_axis.z, m.z_axis.x,
        m.z_axis.y, m.z_axis.z
    ],
    glam::DMat3::from_cols_array
);

fn glam_from_array2(a: &[f64; 2]) -> glam::DVec2 {
    glam::DVec2::from_array(*a)
}
fn glam_from_array3(a: &[f64; 3]) -> glam::DVec3 {
    glam::DVec3::from_array(*a)
}
fn glam_from_array4(a: &[f64; 4]) -> glam::DQuat {
    glam::DQuat::from_array(*a)
}
