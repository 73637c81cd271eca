//! glam's `f64` types in derived bodies (feature `glam`): `DVec2`, `DVec3`, `DVec4`,
//! `DQuat`, `DMat3`, `DMat4`.
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
//! Covered: constructors and constants, `+ - * /` (with scalars on either side), unary
//! `-`, `dot`, `cross`, `length`, `length_squared`, `distance`, `normalize`, `lerp`, the
//! componentwise `abs`, `min`, `max`, `clamp`, `powf`, `exp`, `sqrt`, `recip`, `reflect`,
//! element sums and extrema, swizzles, fields; quaternions from an axis and angle or an
//! axis rotation, their products with each other and with vectors, `conjugate`,
//! `inverse`, `normalize`, `slerp`, `lerp`; 3×3 matrices from columns, a quaternion or an
//! axis rotation, `transpose`, `determinant`, products with vectors and matrices; 4×4
//! matrices (view and projection matrices, rigid transforms) and their products and
//! point transforms. Anything else of glam on an active value is a compile error naming
//! the method.

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

/// `glam::DVec4` over duals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DVec4<S: ScalarTangent<f64>> {
    /// `x`.
    pub x: D<S>,
    /// `y`.
    pub y: D<S>,
    /// `z`.
    pub z: D<S>,
    /// `w`.
    pub w: D<S>,
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

/// `glam::DMat4` over duals, by columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DMat4<S: ScalarTangent<f64>> {
    /// The first column.
    pub x_axis: DVec4<S>,
    /// The second column.
    pub y_axis: DVec4<S>,
    /// The third column.
    pub z_axis: DVec4<S>,
    /// The fourth column (the translation of an affine transform).
    pub w_axis: DVec4<S>,
}

/// `max(a, max(b, ..))` with glam's comparison (`if a > b { a } else { b }`), nested to
/// the right as glam's `max_element`.
macro_rules! nest {
    ($op:tt; $a:expr) => { $a };
    ($op:tt; $a:expr, $($rest:expr),+) => {{
        let (a, b) = ($a, nest!($op; $($rest),+));
        if a $op b { a } else { b }
    }};
}

macro_rules! vec_ops {
    ($V:ident { $f0:ident $(, $f:ident)* }) => {
        vec_ops!(@ $V { $f0 $(, $f)* } [$f0 $(, $f)*]);
    };
    (@ $V:ident { $f0:ident $(, $f1:ident)* } [$($f:ident),*]) => {
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
            /// `Σ aᵢ bᵢ`, summed from the first component as glam's.
            #[inline(always)]
            pub fn dot(self, rhs: Self) -> D<S> {
                self.$f0 * rhs.$f0 $(+ self.$f1 * rhs.$f1)*
            }
            /// `Σ aᵢ`.
            #[inline(always)]
            pub fn element_sum(self) -> D<S> {
                self.$f0 $(+ self.$f1)*
            }
            /// `Π aᵢ`.
            #[inline(always)]
            pub fn element_product(self) -> D<S> {
                self.$f0 $(* self.$f1)*
            }
            /// The largest component (glam's comparison, nested to the right).
            #[inline(always)]
            pub fn max_element(self) -> D<S> {
                nest!(>; self.$f0 $(, self.$f1)*)
            }
            /// The smallest component.
            #[inline(always)]
            pub fn min_element(self) -> D<S> {
                nest!(<; self.$f0 $(, self.$f1)*)
            }
            /// Componentwise `|aᵢ|`.
            #[inline(always)]
            pub fn abs(self) -> Self {
                $V { $($f: num_traits::Float::abs(self.$f)),* }
            }
            /// Componentwise minimum (`if a < b { a } else { b }`, as glam's).
            #[inline(always)]
            pub fn min(self, rhs: Self) -> Self {
                $V { $($f: if self.$f < rhs.$f { self.$f } else { rhs.$f }),* }
            }
            /// Componentwise maximum.
            #[inline(always)]
            pub fn max(self, rhs: Self) -> Self {
                $V { $($f: if self.$f > rhs.$f { self.$f } else { rhs.$f }),* }
            }
            /// `self.max(min).min(max)`, as glam's.
            #[inline(always)]
            pub fn clamp(self, min: Self, max: Self) -> Self {
                self.max(min).min(max)
            }
            /// Componentwise `aᵢⁿ`.
            #[inline(always)]
            pub fn powf(self, n: D<S>) -> Self {
                $V { $($f: num_traits::Float::powf(self.$f, n)),* }
            }
            /// Componentwise `e^aᵢ`.
            #[inline(always)]
            pub fn exp(self) -> Self {
                $V { $($f: num_traits::Float::exp(self.$f)),* }
            }
            /// Componentwise `√aᵢ`.
            #[inline(always)]
            pub fn sqrt(self) -> Self {
                $V { $($f: num_traits::Float::sqrt(self.$f)),* }
            }
            /// Componentwise `1 / aᵢ`.
            #[inline(always)]
            pub fn recip(self) -> Self {
                $V { $($f: c::<S>(1.0) / self.$f),* }
            }
            /// `v − 2 (v·n) n`, as glam's.
            #[inline(always)]
            pub fn reflect(self, normal: Self) -> Self {
                self - c::<S>(2.0) * self.dot(normal) * normal
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
            /// `a (1 − s) + b s`, glam's formula.
            #[inline(always)]
            pub fn lerp(self, rhs: Self, s: D<S>) -> Self {
                self * (c::<S>(1.0) - s) + rhs * s
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
        /// Componentwise.
        impl<S: ScalarTangent<f64>> core::ops::Div for $V<S> {
            type Output = Self;
            #[inline(always)]
            fn div(self, r: Self) -> Self {
                $V { $($f: self.$f / r.$f),* }
            }
        }
        impl<S: ScalarTangent<f64>> core::ops::Div<$V<S>> for D<S> {
            type Output = $V<S>;
            #[inline(always)]
            fn div(self, v: $V<S>) -> $V<S> {
                $V { $($f: self / v.$f),* }
            }
        }
        impl<S: ScalarTangent<f64>> Add<D<S>> for $V<S> {
            type Output = Self;
            #[inline(always)]
            fn add(self, k: D<S>) -> Self {
                $V { $($f: self.$f + k),* }
            }
        }
        impl<S: ScalarTangent<f64>> Add<$V<S>> for D<S> {
            type Output = $V<S>;
            #[inline(always)]
            fn add(self, v: $V<S>) -> $V<S> {
                $V { $($f: self + v.$f),* }
            }
        }
        impl<S: ScalarTangent<f64>> Sub<D<S>> for $V<S> {
            type Output = Self;
            #[inline(always)]
            fn sub(self, k: D<S>) -> Self {
                $V { $($f: self.$f - k),* }
            }
        }
        impl<S: ScalarTangent<f64>> Sub<$V<S>> for D<S> {
            type Output = $V<S>;
            #[inline(always)]
            fn sub(self, v: $V<S>) -> $V<S> {
                $V { $($f: self - v.$f),* }
            }
        }
        impl<S: ScalarTangent<f64>> core::ops::DivAssign<D<S>> for $V<S> {
            #[inline(always)]
            fn div_assign(&mut self, k: D<S>) {
                *self = *self / k;
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
vec_ops!(DVec4 { x, y, z, w });

impl<S: ScalarTangent<f64>> DVec2<S> {
    /// `(x, y, z)`.
    #[inline(always)]
    pub fn extend(self, z: D<S>) -> DVec3<S> {
        DVec3::new(self.x, self.y, z)
    }
}

impl<S: ScalarTangent<f64>> DVec3<S> {
    /// `(x, y, z, w)`.
    #[inline(always)]
    pub fn extend(self, w: D<S>) -> DVec4<S> {
        DVec4::new(self.x, self.y, self.z, w)
    }
    /// `(x, y)`.
    #[inline(always)]
    pub fn truncate(self) -> DVec2<S> {
        DVec2::new(self.x, self.y)
    }
    /// The swizzle `(x, y)`.
    #[inline(always)]
    pub fn xy(self) -> DVec2<S> {
        DVec2::new(self.x, self.y)
    }
    /// The swizzle `(x, z)`.
    #[inline(always)]
    pub fn xz(self) -> DVec2<S> {
        DVec2::new(self.x, self.z)
    }
    /// The swizzle `(y, z)`.
    #[inline(always)]
    pub fn yz(self) -> DVec2<S> {
        DVec2::new(self.y, self.z)
    }
}

impl<S: ScalarTangent<f64>> DVec4<S> {
    /// `(x, y, z)`.
    #[inline(always)]
    pub fn truncate(self) -> DVec3<S> {
        DVec3::new(self.x, self.y, self.z)
    }
    /// The swizzle `(x, y, z)`.
    #[inline(always)]
    pub fn xyz(self) -> DVec3<S> {
        DVec3::new(self.x, self.y, self.z)
    }
}

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
    /// `normalize(a (1 − s) + b s)`, glam's `lerp_impl`.
    #[inline(always)]
    fn lerp_impl(self, end: Self, s: D<S>) -> Self {
        (self * (c::<S>(1.0) - s) + end * s).normalize()
    }
    /// The normalised linear interpolation, along the shorter arc (glam's `lerp`).
    #[inline(always)]
    pub fn lerp(self, end: Self, s: D<S>) -> Self {
        let dot = self.dot(end);
        let bias = if dot >= c::<S>(0.0) {
            c::<S>(1.0)
        } else {
            c::<S>(-1.0)
        };
        self.lerp_impl(end * bias, s)
    }
    /// Spherical linear interpolation along the shorter arc, glam's formula (a linear
    /// one where the two are within `f64::EPSILON` of each other).
    #[inline(always)]
    pub fn slerp(self, mut end: Self, s: D<S>) -> Self {
        let mut dot = self.dot(end);
        if dot < c::<S>(0.0) {
            end = -end;
            dot = -dot;
        }
        const DOT_THRESHOLD: f64 = 1.0 - f64::EPSILON;
        if dot > c::<S>(DOT_THRESHOLD) {
            self.lerp_impl(end, s)
        } else {
            let theta = num_traits::Float::acos(num_traits::Float::clamp(dot, c(-1.0), c(1.0)));
            let scale1 = (theta * (c::<S>(1.0) - s)).sin();
            let scale2 = (theta * s).sin();
            let theta_sin = theta.sin();
            ((self * scale1) + (end * scale2)) * (c::<S>(1.0) / theta_sin)
        }
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

impl<S: ScalarTangent<f64>> Mul<D<S>> for DQuat<S> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, k: D<S>) -> Self {
        DQuat::from_xyzw(self.x * k, self.y * k, self.z * k, self.w * k)
    }
}

impl<S: ScalarTangent<f64>> Add for DQuat<S> {
    type Output = Self;
    #[inline(always)]
    fn add(self, r: Self) -> Self {
        DQuat::from_xyzw(self.x + r.x, self.y + r.y, self.z + r.z, self.w + r.w)
    }
}

impl<S: ScalarTangent<f64>> Neg for DQuat<S> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        DQuat::from_xyzw(-self.x, -self.y, -self.z, -self.w)
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

impl<S: ScalarTangent<f64>> DMat4<S> {
    /// From its columns.
    #[inline(always)]
    pub fn from_cols(
        x_axis: DVec4<S>,
        y_axis: DVec4<S>,
        z_axis: DVec4<S>,
        w_axis: DVec4<S>,
    ) -> Self {
        DMat4 {
            x_axis,
            y_axis,
            z_axis,
            w_axis,
        }
    }
    /// The rotation's first three columns, glam's `quat_to_axes`.
    #[inline(always)]
    fn quat_to_axes(q: DQuat<S>) -> (DVec4<S>, DVec4<S>, DVec4<S>) {
        let (x, y, z, w) = (q.x, q.y, q.z, q.w);
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        let (one, zero) = (c::<S>(1.0), c::<S>(0.0));
        (
            DVec4::new(one - (yy + zz), xy + wz, xz - wy, zero),
            DVec4::new(xy - wz, one - (xx + zz), yz + wx, zero),
            DVec4::new(xz + wy, yz - wx, one - (xx + yy), zero),
        )
    }
    /// The rotation by a unit quaternion.
    #[inline(always)]
    pub fn from_quat(rotation: DQuat<S>) -> Self {
        let (x, y, z) = Self::quat_to_axes(rotation);
        Self::from_cols(x, y, z, DVec4::new(c(0.0), c(0.0), c(0.0), c(1.0)))
    }
    /// The translation by `t`.
    #[inline(always)]
    pub fn from_translation(t: DVec3<S>) -> Self {
        let (o, z) = (c::<S>(1.0), c::<S>(0.0));
        Self::from_cols(
            DVec4::new(o, z, z, z),
            DVec4::new(z, o, z, z),
            DVec4::new(z, z, o, z),
            DVec4::new(t.x, t.y, t.z, o),
        )
    }
    /// The rotation, then the translation.
    #[inline(always)]
    pub fn from_rotation_translation(rotation: DQuat<S>, translation: DVec3<S>) -> Self {
        let (x, y, z) = Self::quat_to_axes(rotation);
        Self::from_cols(x, y, z, translation.extend(c(1.0)))
    }
    /// The scaling, the rotation, then the translation.
    #[inline(always)]
    pub fn from_scale_rotation_translation(
        scale: DVec3<S>,
        rotation: DQuat<S>,
        translation: DVec3<S>,
    ) -> Self {
        let (x, y, z) = Self::quat_to_axes(rotation);
        Self::from_cols(
            x * scale.x,
            y * scale.y,
            z * scale.z,
            translation.extend(c(1.0)),
        )
    }
    /// The rotation by `angle` about the z axis.
    #[inline(always)]
    pub fn from_rotation_z(angle: D<S>) -> Self {
        let (sina, cosa) = angle.sin_cos();
        let (o, z) = (c::<S>(1.0), c::<S>(0.0));
        Self::from_cols(
            DVec4::new(cosa, sina, z, z),
            DVec4::new(-sina, cosa, z, z),
            DVec4::new(z, z, o, z),
            DVec4::new(z, z, z, o),
        )
    }
    /// A right-handed view matrix looking along `dir` (unit) from `eye`, glam's formula.
    #[inline(always)]
    pub fn look_to_rh(eye: DVec3<S>, dir: DVec3<S>, up: DVec3<S>) -> Self {
        let f = dir;
        let s = f.cross(up).normalize();
        let u = s.cross(f);
        let z = c::<S>(0.0);
        Self::from_cols(
            DVec4::new(s.x, u.x, -f.x, z),
            DVec4::new(s.y, u.y, -f.y, z),
            DVec4::new(s.z, u.z, -f.z, z),
            DVec4::new(-eye.dot(s), -eye.dot(u), eye.dot(f), c(1.0)),
        )
    }
    /// A right-handed view matrix looking at `center` from `eye`.
    #[inline(always)]
    pub fn look_at_rh(eye: DVec3<S>, center: DVec3<S>, up: DVec3<S>) -> Self {
        Self::look_to_rh(eye, (center - eye).normalize(), up)
    }
    /// A right-handed perspective projection onto `[0, 1]` depth, glam's formula.
    #[inline(always)]
    pub fn perspective_rh(
        fov_y_radians: D<S>,
        aspect_ratio: D<S>,
        z_near: D<S>,
        z_far: D<S>,
    ) -> Self {
        let (sin_fov, cos_fov) = (c::<S>(0.5) * fov_y_radians).sin_cos();
        let h = cos_fov / sin_fov;
        let w = h / aspect_ratio;
        let r = z_far / (z_near - z_far);
        let z = c::<S>(0.0);
        Self::from_cols(
            DVec4::new(w, z, z, z),
            DVec4::new(z, h, z, z),
            DVec4::new(z, z, r, c(-1.0)),
            DVec4::new(z, z, r * z_near, z),
        )
    }
    /// `M v`, summed column by column as glam's.
    #[inline(always)]
    pub fn mul_vec4(self, v: DVec4<S>) -> DVec4<S> {
        let mut res = self.x_axis * v.x;
        res += self.y_axis * v.y;
        res += self.z_axis * v.z;
        res += self.w_axis * v.w;
        res
    }
    /// `M (p, 1)` of an affine `M`, its first three components.
    #[inline(always)]
    pub fn transform_point3(self, p: DVec3<S>) -> DVec3<S> {
        let mut res = self.x_axis * p.x;
        res = self.y_axis * p.y + res;
        res = self.z_axis * p.z + res;
        res = self.w_axis + res;
        res.xyz()
    }
    /// `M (v, 0)` of an affine `M`, its first three components.
    #[inline(always)]
    pub fn transform_vector3(self, v: DVec3<S>) -> DVec3<S> {
        let mut res = self.x_axis * v.x;
        res = self.y_axis * v.y + res;
        res = self.z_axis * v.z + res;
        res.xyz()
    }
    /// `M (p, 1)` divided by its `w`: a projection's normalised device coordinates.
    #[inline(always)]
    pub fn project_point3(self, p: DVec3<S>) -> DVec3<S> {
        let mut res = self.x_axis * p.x;
        res = self.y_axis * p.y + res;
        res = self.z_axis * p.z + res;
        res = self.w_axis + res;
        res = res / res.w;
        res.xyz()
    }
    /// Rows as columns.
    #[inline(always)]
    pub fn transpose(self) -> Self {
        let (a, b, c_, d) = (self.x_axis, self.y_axis, self.z_axis, self.w_axis);
        Self::from_cols(
            DVec4::new(a.x, b.x, c_.x, d.x),
            DVec4::new(a.y, b.y, c_.y, d.y),
            DVec4::new(a.z, b.z, c_.z, d.z),
            DVec4::new(a.w, b.w, c_.w, d.w),
        )
    }
    /// `A B`.
    #[inline(always)]
    pub fn mul_mat4(self, r: Self) -> Self {
        self * r
    }
}

impl<S: ScalarTangent<f64>> Mul<DVec4<S>> for DMat4<S> {
    type Output = DVec4<S>;
    #[inline(always)]
    fn mul(self, v: DVec4<S>) -> DVec4<S> {
        self.mul_vec4(v)
    }
}

impl<S: ScalarTangent<f64>> Mul for DMat4<S> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, r: Self) -> Self {
        Self::from_cols(
            self.mul_vec4(r.x_axis),
            self.mul_vec4(r.y_axis),
            self.mul_vec4(r.z_axis),
            self.mul_vec4(r.w_axis),
        )
    }
}

impl<S: ScalarTangent<f64>> MulAssign for DMat4<S> {
    #[inline(always)]
    fn mul_assign(&mut self, r: Self) {
        *self = *self * r;
    }
}

/// Componentwise, as glam's.
impl<S: ScalarTangent<f64>> Add for DMat4<S> {
    type Output = Self;
    #[inline(always)]
    fn add(self, r: Self) -> Self {
        Self::from_cols(
            self.x_axis + r.x_axis,
            self.y_axis + r.y_axis,
            self.z_axis + r.z_axis,
            self.w_axis + r.w_axis,
        )
    }
}

impl<S: ScalarTangent<f64>> Mul<D<S>> for DMat4<S> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, k: D<S>) -> Self {
        Self::from_cols(
            self.x_axis * k,
            self.y_axis * k,
            self.z_axis * k,
            self.w_axis * k,
        )
    }
}

impl<S: ScalarTangent<f64>> Mul<DMat4<S>> for D<S> {
    type Output = DMat4<S>;
    #[inline(always)]
    fn mul(self, m: DMat4<S>) -> DMat4<S> {
        m * self
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
        /// A local array of values (`let ctrl = [DVec2::new(..), ..]`) passed on as one:
        /// the dual of the array.
        impl<S: Mode, const N: usize> $crate::lift::Unlift<S> for &[$V<S>; N] {
            type Output = Dual<[glam::$G; N], [[S; $n]; N]>;
            #[inline(always)]
            fn unlift(self) -> Self::Output {
                let parts = self.map($crate::lift::Unlift::<S>::unlift);
                Dual::new(parts.map(|d| d.primal), parts.map(|d| d.tangent))
            }
        }
        impl<S: Mode, const N: usize> $crate::lift::Unlift<S> for [$V<S>; N] {
            type Output = Dual<[glam::$G; N], [[S; $n]; N]>;
            #[inline(always)]
            fn unlift(self) -> Self::Output {
                $crate::lift::Unlift::<S>::unlift(&self)
            }
        }
        /// A `Vec` of values, as the dual of the `Vec`.
        impl<S: Mode> $crate::lift::Unlift<S> for &Vec<$V<S>> {
            type Output = Dual<Vec<glam::$G>, Vec<[S; $n]>>;
            fn unlift(self) -> Self::Output {
                let (p, t) = self
                    .iter()
                    .map(|v| $crate::lift::Unlift::<S>::unlift(*v))
                    .map(|d| (d.primal, d.tangent))
                    .unzip();
                Dual::new(p, t)
            }
        }
        impl<S: Mode> $crate::lift::Unlift<S> for Vec<$V<S>> {
            type Output = Dual<Vec<glam::$G>, Vec<[S; $n]>>;
            fn unlift(self) -> Self::Output {
                $crate::lift::Unlift::<S>::unlift(&self)
            }
        }
        /// A slice parameter of values (`ctrl: &[DVec2]`) as values over duals
        /// (`ctrl.to_vec()`).
        impl<'a, S: Mode> $crate::lift::Lift<S> for Dual<&'a [glam::$G], &'a [[S; $n]]> {
            type Output = Vec<$V<S>>;
            fn lift(self) -> Vec<$V<S>> {
                self.primal.iter().zip(self.tangent).map(|(p, t)| $V::from_parts(*p, *t)).collect()
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

glam_type!(
    DVec4,
    DVec4,
    4,
    |g| [g.x, g.y, g.z, g.w],
    |a| DVec4::new(a[0], a[1], a[2], a[3]),
    |m| [m.x, m.y, m.z, m.w],
    glam_vec4_from_array
);
glam_type!(
    DMat4,
    DMat4,
    16,
    |g| [
        g.x_axis.x, g.x_axis.y, g.x_axis.z, g.x_axis.w, g.y_axis.x, g.y_axis.y, g.y_axis.z,
        g.y_axis.w, g.z_axis.x, g.z_axis.y, g.z_axis.z, g.z_axis.w, g.w_axis.x, g.w_axis.y,
        g.w_axis.z, g.w_axis.w
    ],
    |a| DMat4::from_cols(
        DVec4::new(a[0], a[1], a[2], a[3]),
        DVec4::new(a[4], a[5], a[6], a[7]),
        DVec4::new(a[8], a[9], a[10], a[11]),
        DVec4::new(a[12], a[13], a[14], a[15])
    ),
    |m| [
        m.x_axis.x, m.x_axis.y, m.x_axis.z, m.x_axis.w, m.y_axis.x, m.y_axis.y, m.y_axis.z,
        m.y_axis.w, m.z_axis.x, m.z_axis.y, m.z_axis.z, m.z_axis.w, m.w_axis.x, m.w_axis.y,
        m.w_axis.z, m.w_axis.w
    ],
    glam::DMat4::from_cols_array
);

fn glam_vec4_from_array(a: &[f64; 4]) -> glam::DVec4 {
    glam::DVec4::from_array(*a)
}

fn glam_from_array2(a: &[f64; 2]) -> glam::DVec2 {
    glam::DVec2::from_array(*a)
}
fn glam_from_array3(a: &[f64; 3]) -> glam::DVec3 {
    glam::DVec3::from_array(*a)
}
fn glam_from_array4(a: &[f64; 4]) -> glam::DQuat {
    glam::DQuat::from_array(*a)
}
