//! glam's types in derived bodies (feature `glam`): the `f64` `DVec2`, `DVec3`, `DVec4`,
//! `DQuat`, `DMat3`, `DMat4`, and the `f32` `Vec2`, `Vec3`, `Vec3A`, `Vec4`, `Quat`, `Mat3`,
//! `Mat4` (which the macro recognises with `glam-f32`).
//!
//! glam is not generic (a type per scalar), so its code cannot run on duals. An active
//! glam value in a `#[derive_frule]` body is this module's mirror of its type, which holds
//! dual components; a call of one of glam's associated functions
//! (`Quat::from_axis_angle(axis, angle)`) is emitted as a call of the mirror's. The mirror
//! is written once over the scalar (`GVec3<F, T>` is both `DVec3` and `Vec3`, named by the
//! aliases below): each function is glam's formula over dual scalars in glam's order of
//! operations (SSE2's for the `f32` `Vec3A`, `Vec4`, `Quat`: [`GlamFloat`]), whose
//! arithmetic and methods are the rules every mode uses ([`crate::num`]): the primal is
//! glam's value, bit for bit (but the `f32` `Quat::slerp`, see its docs), and the tangent
//! is the derivative of glam's formula.
//!
//! Covered: constructors and constants, `+ - * /` (with scalars on either side), unary
//! `-`, `dot`, `cross`, `length`, `length_squared`, `distance`, `normalize`, `lerp`, the
//! componentwise `abs`, `min`, `max`, `clamp`, `powf`, `exp`, `sqrt`, `recip`, `reflect`,
//! element sums and extrema, swizzles, fields; quaternions from an axis and angle or an
//! axis rotation, their products with each other and with vectors, `conjugate`,
//! `inverse`, `normalize`, `slerp`, `lerp`; 3×3 matrices from columns, a quaternion or an
//! axis rotation, `transpose`, `determinant`, products with vectors and matrices; 4×4
//! matrices (view and projection matrices, rigid transforms) and their products and
//! point transforms and `DMat4`'s inverse; `DMat2`, `DMat3` inverses; the affine
//! transforms `DAffine2` and `DAffine3` (constructors, view transforms, point and vector
//! transforms, products, inverses); rotations read back (`to_euler`, `to_axis_angle`,
//! `angle_between`, a quaternion from a matrix, `to_scale_rotation_translation`). Anything else of glam on an active value is a compile
//! error naming the method.

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::{Mode, ScalarTangent};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

type D<F, T> = Dual<F, T>;

#[inline(always)]
fn c<F: Real, T: ScalarTangent<F>>(x: f64) -> D<F, T> {
    Dual::new(F::cst(x), T::zero())
}

/// glam's scalars, with how glam computes on them. glam's `f32` `Vec4`, `Quat` and
/// `Vec3A` are SSE2 code on x86 and x86_64 (its default there), which sums a 4-lane dot
/// product pairwise (`(x₀x₁ + z₀z₁) + (y₀y₁ + w₀w₁)`), normalises by dividing by the
/// length, and groups the quaternion product's terms in pairs; its `f64` types and the
/// `f32` `Vec2`, `Vec3`, `Mat3` are scalar code. The mirror follows the same order, so the
/// primal is glam's bit for bit.
pub trait GlamFloat: Real {
    /// Whether glam's 4-lane types of this scalar are SSE2 code.
    const SSE2: bool;
}
impl GlamFloat for f64 {
    const SSE2: bool = false;
}
impl GlamFloat for f32 {
    const SSE2: bool = cfg!(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    ));
}

/// A scalar operand of a glam value over duals of `F`: a dual of `F`, or an `f64`
/// constant (a literal next to an `f32` value, which lifting types `f64`), rounded to `F`.
pub trait GlamScalar<F: Real, T: ScalarTangent<F>>: Copy {
    /// The operand as a dual of `F`.
    fn dual(self) -> D<F, T>;
}
impl<F: Real, T: ScalarTangent<F>> GlamScalar<F, T> for Dual<F, T> {
    #[inline(always)]
    fn dual(self) -> D<F, T> {
        self
    }
}
impl<S: Mode> GlamScalar<f32, S::Of<f32>> for Dual<f64, S> {
    #[inline(always)]
    fn dual(self) -> D<f32, S::Of<f32>> {
        Dual::new(self.primal as f32, S::narrow::<f32>(self.tangent))
    }
}

/// `Σ aᵢ` in glam's order: from the first lane, or pairwise for a 4-lane SSE2 value.
#[inline(always)]
fn lane_sum<F: GlamFloat, T: ScalarTangent<F>, const N: usize>(
    p: [D<F, T>; N],
    sse2: bool,
) -> D<F, T> {
    if sse2 && N == 4 {
        (p[0] + p[2]) + (p[1] + p[3])
    } else {
        p[1..].iter().fold(p[0], |s, x| s + *x)
    }
}

/// glam's `DVec2` and `Vec2` over duals (of `f64` and `f32`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GVec2<F: Real, T: ScalarTangent<F>> {
    /// `x`.
    pub x: D<F, T>,
    /// `y`.
    pub y: D<F, T>,
}

/// glam's `DVec3` and `Vec3` over duals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GVec3<F: Real, T: ScalarTangent<F>> {
    /// `x`.
    pub x: D<F, T>,
    /// `y`.
    pub y: D<F, T>,
    /// `z`.
    pub z: D<F, T>,
}

/// glam's `Vec3A` over duals: a `Vec3` computed as SSE2 code (it normalises by dividing).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GVec3A<F: Real, T: ScalarTangent<F>> {
    /// `x`.
    pub x: D<F, T>,
    /// `y`.
    pub y: D<F, T>,
    /// `z`.
    pub z: D<F, T>,
}

/// glam's `DVec4` and `Vec4` over duals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GVec4<F: Real, T: ScalarTangent<F>> {
    /// `x`.
    pub x: D<F, T>,
    /// `y`.
    pub y: D<F, T>,
    /// `z`.
    pub z: D<F, T>,
    /// `w`.
    pub w: D<F, T>,
}

/// glam's `DQuat` and `Quat` over duals: `x i + y j + z k + w`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GQuat<F: Real, T: ScalarTangent<F>> {
    /// `x`.
    pub x: D<F, T>,
    /// `y`.
    pub y: D<F, T>,
    /// `z`.
    pub z: D<F, T>,
    /// `w`.
    pub w: D<F, T>,
}

/// glam's `DMat3` and `Mat3` over duals, by columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GMat3<F: Real, T: ScalarTangent<F>> {
    /// The first column.
    pub x_axis: GVec3<F, T>,
    /// The second column.
    pub y_axis: GVec3<F, T>,
    /// The third column.
    pub z_axis: GVec3<F, T>,
}

/// glam's `DMat4` and `Mat4` over duals, by columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GMat4<F: Real, T: ScalarTangent<F>> {
    /// The first column.
    pub x_axis: GVec4<F, T>,
    /// The second column.
    pub y_axis: GVec4<F, T>,
    /// The third column.
    pub z_axis: GVec4<F, T>,
    /// The fourth column (the translation of an affine transform).
    pub w_axis: GVec4<F, T>,
}

/// glam's names in a mode `S`: the `f64` types over `S`, the `f32` ones over `S`'s `f32`
/// tangent. A rule names them (`glam::Vec3::<S>::new(..)`).
macro_rules! aliases {
    ($($d:ident, $s:ident => $G:ident;)*) => {$(
        #[doc = concat!("glam's `", stringify!($d), "` over duals in mode `S`.")]
        pub type $d<S> = $G<f64, S>;
        #[doc = concat!("glam's `", stringify!($s), "` over duals in mode `S`.")]
        pub type $s<S> = $G<f32, <S as Mode>::Of<f32>>;
    )*};
}
aliases! {
    DVec2, Vec2 => GVec2;
    DVec3, Vec3 => GVec3;
    DVec4, Vec4 => GVec4;
    DQuat, Quat => GQuat;
    DMat3, Mat3 => GMat3;
    DMat4, Mat4 => GMat4;
}
/// glam's `Vec3A` over duals in mode `S`.
pub type Vec3A<S> = GVec3A<f32, <S as Mode>::Of<f32>>;

/// `max(a, max(b, ..))` with glam's comparison (`if a > b { a } else { b }`), nested to
/// the right as glam's `max_element`.
macro_rules! nest {
    ($op:tt; $a:expr) => { $a };
    ($op:tt; $a:expr, $($rest:expr),+) => {{
        let (a, b) = ($a, nest!($op; $($rest),+));
        if a $op b { a } else { b }
    }};
}

/// A scalar on the right of a glam value's operator: a dual of its scalar, or an `f64`
/// constant next to an `f32` value (see [`GlamScalar`]). `$V::each` applies the operator.
macro_rules! scalar_rhs {
    ($V:ident: $($Op:ident $op:ident),*) => {$(
        impl<F: GlamFloat, T: ScalarTangent<F>> core::ops::$Op<D<F, T>> for $V<F, T> {
            type Output = $V<F, T>;
            #[inline(always)]
            fn $op(self, k: D<F, T>) -> $V<F, T> {
                self.each(k, |x, k| core::ops::$Op::$op(x, k))
            }
        }
        impl<S: Mode> core::ops::$Op<D<f64, S>> for $V<f32, S::Of<f32>> {
            type Output = $V<f32, S::Of<f32>>;
            #[inline(always)]
            fn $op(self, k: D<f64, S>) -> $V<f32, S::Of<f32>> {
                core::ops::$Op::$op(self, GlamScalar::<f32, S::Of<f32>>::dual(k))
            }
        }
    )*};
}

/// A scalar on the left of a glam value's operator: a dual of its scalar, or an `f64`
/// constant next to an `f32` value (see [`GlamScalar`]).
macro_rules! scalar_lhs {
    ($V:ident: $($Op:ident $op:ident),*) => {$(
        impl<F: GlamFloat, T: ScalarTangent<F>> core::ops::$Op<$V<F, T>> for D<F, T> {
            type Output = $V<F, T>;
            #[inline(always)]
            fn $op(self, v: $V<F, T>) -> $V<F, T> {
                v.lanes_with(self, |k, x| core::ops::$Op::$op(k, x))
            }
        }
        impl<S: Mode> core::ops::$Op<$V<f32, S::Of<f32>>> for D<f64, S> {
            type Output = $V<f32, S::Of<f32>>;
            #[inline(always)]
            fn $op(self, v: $V<f32, S::Of<f32>>) -> $V<f32, S::Of<f32>> {
                core::ops::$Op::$op(GlamScalar::<f32, S::Of<f32>>::dual(self), v)
            }
        }
    )*};
}

macro_rules! vec_ops {
    ($V:ident { $f0:ident $(, $f:ident)* }, sse2: $sse2:expr) => {
        vec_ops!(@ $V { $f0 $(, $f)* } [$f0 $(, $f)*], $sse2);
    };
    (@ $V:ident { $f0:ident $(, $f1:ident)* } [$($f:ident),*], $sse2:expr) => {
        impl<F: GlamFloat, T: ScalarTangent<F>> $V<F, T> {
            /// Whether glam computes this type as SSE2 code.
            const SSE2: bool = $sse2;
            /// A vector from its components.
            #[inline(always)]
            pub fn new($($f: impl GlamScalar<F, T>),*) -> Self {
                $V { $($f: $f.dual()),* }
            }
            /// All components `v`.
            #[inline(always)]
            pub fn splat(v: impl GlamScalar<F, T>) -> Self {
                let v = v.dual();
                $V { $($f: v),* }
            }
            /// `k op vᵢ` for each component.
            #[inline(always)]
            fn lanes_with(self, k: D<F, T>, op: impl Fn(D<F, T>, D<F, T>) -> D<F, T>) -> Self {
                $V { $($f: op(k, self.$f)),* }
            }
            /// `Σ aᵢ bᵢ`, summed in glam's order.
            #[inline(always)]
            pub fn dot(self, rhs: Self) -> D<F, T> {
                lane_sum([$(self.$f * rhs.$f),*], Self::SSE2)
            }
            /// `Σ aᵢ`.
            #[inline(always)]
            pub fn element_sum(self) -> D<F, T> {
                self.$f0 $(+ self.$f1)*
            }
            /// `Π aᵢ`.
            #[inline(always)]
            pub fn element_product(self) -> D<F, T> {
                self.$f0 $(* self.$f1)*
            }
            /// The largest component (glam's comparison, nested to the right).
            #[inline(always)]
            pub fn max_element(self) -> D<F, T> {
                nest!(>; self.$f0 $(, self.$f1)*)
            }
            /// The smallest component.
            #[inline(always)]
            pub fn min_element(self) -> D<F, T> {
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
            pub fn powf(self, n: impl GlamScalar<F, T>) -> Self {
                let n = n.dual();
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
                $V { $($f: c::<F, T>(1.0) / self.$f),* }
            }
            /// `v − 2 (v·n) n`, as glam's.
            #[inline(always)]
            pub fn reflect(self, normal: Self) -> Self {
                self - c::<F, T>(2.0) * self.dot(normal) * normal
            }
            /// `|v|²`.
            #[inline(always)]
            pub fn length_squared(self) -> D<F, T> {
                self.dot(self)
            }
            /// `|v|`.
            #[inline(always)]
            pub fn length(self) -> D<F, T> {
                self.dot(self).sqrt()
            }
            /// `1 / |v|`.
            #[inline(always)]
            pub fn length_recip(self) -> D<F, T> {
                self.length().recip()
            }
            /// `|a − b|`.
            #[inline(always)]
            pub fn distance(self, rhs: Self) -> D<F, T> {
                (self - rhs).length()
            }
            /// `|a − b|²`.
            #[inline(always)]
            pub fn distance_squared(self, rhs: Self) -> D<F, T> {
                (self - rhs).length_squared()
            }
            /// `v / |v|`: times `1 / |v|` as glam's scalar code, divided by `|v|` as its
            /// SSE2 code.
            #[inline(always)]
            pub fn normalize(self) -> Self {
                if Self::SSE2 {
                    self / self.length()
                } else {
                    self * self.length_recip()
                }
            }
            /// `self * a + b` componentwise, each with one rounding, as glam's.
            #[inline(always)]
            pub fn mul_add(self, a: Self, b: Self) -> Self {
                $V { $($f: num_traits::Float::mul_add(self.$f, a.$f, b.$f)),* }
            }
            /// `a (1 − s) + b s`, glam's formula.
            #[inline(always)]
            pub fn lerp(self, rhs: Self, s: impl GlamScalar<F, T>) -> Self {
                let s = s.dual();
                self * (c::<F, T>(1.0) - s) + rhs * s
            }
        }
        impl<F: GlamFloat, T: ScalarTangent<F>> Add for $V<F, T> {
            type Output = Self;
            #[inline(always)]
            fn add(self, r: Self) -> Self {
                $V { $($f: self.$f + r.$f),* }
            }
        }
        impl<F: GlamFloat, T: ScalarTangent<F>> Sub for $V<F, T> {
            type Output = Self;
            #[inline(always)]
            fn sub(self, r: Self) -> Self {
                $V { $($f: self.$f - r.$f),* }
            }
        }
        impl<F: GlamFloat, T: ScalarTangent<F>> Neg for $V<F, T> {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                $V { $($f: -self.$f),* }
            }
        }
        /// Componentwise, as glam's `DVec3 * DVec3`.
        impl<F: GlamFloat, T: ScalarTangent<F>> Mul for $V<F, T> {
            type Output = Self;
            #[inline(always)]
            fn mul(self, r: Self) -> Self {
                $V { $($f: self.$f * r.$f),* }
            }
        }
        /// Componentwise.
        impl<F: GlamFloat, T: ScalarTangent<F>> core::ops::Div for $V<F, T> {
            type Output = Self;
            #[inline(always)]
            fn div(self, r: Self) -> Self {
                $V { $($f: self.$f / r.$f),* }
            }
        }
        impl<F: GlamFloat, T: ScalarTangent<F>> $V<F, T> {
            /// `vᵢ op k` for each component.
            #[inline(always)]
            fn each(self, k: D<F, T>, op: impl Fn(D<F, T>, D<F, T>) -> D<F, T>) -> Self {
                $V { $($f: op(self.$f, k)),* }
            }
        }
        scalar_rhs!($V: Mul mul, Div div, Add add, Sub sub);
        scalar_lhs!($V: Mul mul, Div div, Add add, Sub sub);
        impl<F: GlamFloat, T: ScalarTangent<F>, K: GlamScalar<F, T>> core::ops::DivAssign<K> for $V<F, T>
        where
            Self: core::ops::Div<K, Output = Self>,
        {
            #[inline(always)]
            fn div_assign(&mut self, k: K) {
                *self = *self / k;
            }
        }
        impl<F: GlamFloat, T: ScalarTangent<F>> AddAssign for $V<F, T> {
            #[inline(always)]
            fn add_assign(&mut self, r: Self) {
                *self = *self + r;
            }
        }
        impl<F: GlamFloat, T: ScalarTangent<F>> SubAssign for $V<F, T> {
            #[inline(always)]
            fn sub_assign(&mut self, r: Self) {
                *self = *self - r;
            }
        }
        impl<F: GlamFloat, T: ScalarTangent<F>, K: GlamScalar<F, T>> MulAssign<K> for $V<F, T>
        where
            Self: Mul<K, Output = Self>,
        {
            #[inline(always)]
            fn mul_assign(&mut self, k: K) {
                *self = *self * k;
            }
        }
    };
}
vec_ops!(GVec2 { x, y }, sse2: false);
vec_ops!(GVec3 { x, y, z }, sse2: false);
vec_ops!(GVec3A { x, y, z }, sse2: F::SSE2);
vec_ops!(GVec4 { x, y, z, w }, sse2: F::SSE2);

impl<F: GlamFloat, T: ScalarTangent<F>> GVec2<F, T> {
    /// `(x, y, z)`.
    #[inline(always)]
    pub fn extend(self, z: impl GlamScalar<F, T>) -> GVec3<F, T> {
        let z = z.dual();
        GVec3::new(self.x, self.y, z)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GVec3<F, T> {
    /// A unit vector orthogonal to this unit vector, glam's formula (Duff et al.'s
    /// orthonormal basis).
    #[inline(always)]
    pub fn any_orthonormal_vector(&self) -> Self {
        let sign = num_traits::Float::signum(self.z);
        let a = c::<F, T>(-1.0) / (sign + self.z);
        let b = self.x * self.y * a;
        GVec3::new(b, sign + self.y * self.y * a, -self.y)
    }
    /// `(x, y, z, w)`.
    #[inline(always)]
    pub fn extend(self, w: impl GlamScalar<F, T>) -> GVec4<F, T> {
        let w = w.dual();
        GVec4::new(self.x, self.y, self.z, w)
    }
    /// `(x, y)`.
    #[inline(always)]
    pub fn truncate(self) -> GVec2<F, T> {
        GVec2::new(self.x, self.y)
    }
    /// The swizzle `(x, y)`.
    #[inline(always)]
    pub fn xy(self) -> GVec2<F, T> {
        GVec2::new(self.x, self.y)
    }
    /// The swizzle `(x, z)`.
    #[inline(always)]
    pub fn xz(self) -> GVec2<F, T> {
        GVec2::new(self.x, self.z)
    }
    /// The swizzle `(y, z)`.
    #[inline(always)]
    pub fn yz(self) -> GVec2<F, T> {
        GVec2::new(self.y, self.z)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GVec4<F, T> {
    /// `(x, y, z)`.
    #[inline(always)]
    pub fn truncate(self) -> GVec3<F, T> {
        GVec3::new(self.x, self.y, self.z)
    }
    /// The swizzle `(x, y, z)`.
    #[inline(always)]
    pub fn xyz(self) -> GVec3<F, T> {
        GVec3::new(self.x, self.y, self.z)
    }
}

/// `a × b` (glam's SSE2 `Vec3A::cross` groups the same products the same way).
macro_rules! cross {
    ($($V:ident),*) => {$(
        impl<F: GlamFloat, T: ScalarTangent<F>> $V<F, T> {
            /// `a × b`.
            #[inline(always)]
            pub fn cross(self, r: Self) -> Self {
                $V {
                    x: self.y * r.z - r.y * self.z,
                    y: self.z * r.x - r.z * self.x,
                    z: self.x * r.y - r.x * self.y,
                }
            }
        }
    )*};
}
cross!(GVec3, GVec3A);

impl<F: GlamFloat, T: ScalarTangent<F>> GQuat<F, T> {
    /// From its components.
    #[inline(always)]
    pub fn from_xyzw(
        x: impl GlamScalar<F, T>,
        y: impl GlamScalar<F, T>,
        z: impl GlamScalar<F, T>,
        w: impl GlamScalar<F, T>,
    ) -> Self {
        let (x, y, z, w) = (x.dual(), y.dual(), z.dual(), w.dual());
        GQuat { x, y, z, w }
    }
    /// The rotation by `angle` about the unit vector `axis`.
    #[inline(always)]
    pub fn from_axis_angle(axis: GVec3<F, T>, angle: impl GlamScalar<F, T>) -> Self {
        let angle = angle.dual();
        let (s, co) = (angle * c::<F, T>(0.5)).sin_cos();
        let v = axis * s;
        GQuat {
            x: v.x,
            y: v.y,
            z: v.z,
            w: co,
        }
    }
    /// The shortest rotation taking the unit vector `from` to the unit vector `to`,
    /// glam's formula: `(from × to, 1 + from·to)` normalised, the identity where the two
    /// are within `2ε` of each other, half a turn about `from.any_orthonormal_vector()`
    /// where they are within `2ε` of opposite (branches taken on the primals). Where glam
    /// gives the identity, the tangent is the formula's, which is the identity there too:
    /// the rotation turns with `to` (`dq = (from × dto, 0) / 2` at `to = from`), as the
    /// finite differences of glam's own function do.
    #[inline(always)]
    pub fn from_rotation_arc(from: GVec3<F, T>, to: GVec3<F, T>) -> Self {
        let one_minus_eps = Dual::new(F::one() - (F::epsilon() + F::epsilon()), T::zero());
        let dot = from.dot(to);
        if dot > one_minus_eps {
            let cr = from.cross(to);
            let arc = GQuat::from_xyzw(cr.x, cr.y, cr.z, c::<F, T>(1.0) + dot).normalize();
            GQuat {
                x: Dual::new(F::zero(), arc.x.tangent),
                y: Dual::new(F::zero(), arc.y.tangent),
                z: Dual::new(F::zero(), arc.z.tangent),
                w: Dual::new(F::one(), arc.w.tangent),
            }
        } else if dot < -one_minus_eps {
            GQuat::from_axis_angle(
                from.any_orthonormal_vector(),
                c::<F, T>(core::f64::consts::PI),
            )
        } else {
            let cr = from.cross(to);
            GQuat::from_xyzw(cr.x, cr.y, cr.z, c::<F, T>(1.0) + dot).normalize()
        }
    }
    /// The rotation by `angle` about the x axis.
    #[inline(always)]
    pub fn from_rotation_x(angle: impl GlamScalar<F, T>) -> Self {
        let angle = angle.dual();
        let (s, co) = (angle * c::<F, T>(0.5)).sin_cos();
        GQuat::from_xyzw(s, c(0.0), c(0.0), co)
    }
    /// The rotation by `angle` about the y axis.
    #[inline(always)]
    pub fn from_rotation_y(angle: impl GlamScalar<F, T>) -> Self {
        let angle = angle.dual();
        let (s, co) = (angle * c::<F, T>(0.5)).sin_cos();
        GQuat::from_xyzw(c(0.0), s, c(0.0), co)
    }
    /// The rotation by `angle` about the z axis.
    #[inline(always)]
    pub fn from_rotation_z(angle: impl GlamScalar<F, T>) -> Self {
        let angle = angle.dual();
        let (s, co) = (angle * c::<F, T>(0.5)).sin_cos();
        GQuat::from_xyzw(c(0.0), c(0.0), s, co)
    }
    /// `(−x, −y, −z, w)`.
    #[inline(always)]
    pub fn conjugate(self) -> Self {
        GQuat::from_xyzw(-self.x, -self.y, -self.z, self.w)
    }
    /// The inverse of a unit quaternion (its conjugate, as glam's `inverse`).
    #[inline(always)]
    pub fn inverse(self) -> Self {
        self.conjugate()
    }
    /// `Σ aᵢ bᵢ` of the four components, in glam's order (its `Vec4`'s).
    #[inline(always)]
    pub fn dot(self, r: Self) -> D<F, T> {
        lane_sum(
            [self.x * r.x, self.y * r.y, self.z * r.z, self.w * r.w],
            F::SSE2,
        )
    }
    /// `|q|`.
    #[inline(always)]
    pub fn length(self) -> D<F, T> {
        self.dot(self).sqrt()
    }
    /// `q / |q|`.
    #[inline(always)]
    pub fn normalize(self) -> Self {
        if F::SSE2 {
            let l = self.length();
            GQuat::from_xyzw(self.x / l, self.y / l, self.z / l, self.w / l)
        } else {
            let k = self.length().recip();
            GQuat::from_xyzw(self.x * k, self.y * k, self.z * k, self.w * k)
        }
    }
    /// `normalize(a (1 − s) + b s)`, glam's `lerp_impl`.
    #[inline(always)]
    fn lerp_impl(self, end: Self, s: D<F, T>) -> Self {
        (self * (c::<F, T>(1.0) - s) + end * s).normalize()
    }
    /// The normalised linear interpolation, along the shorter arc (glam's `lerp`).
    #[inline(always)]
    pub fn lerp(self, end: Self, s: impl GlamScalar<F, T>) -> Self {
        let s = s.dual();
        let dot = self.dot(end);
        let bias = if dot >= c::<F, T>(0.0) {
            c::<F, T>(1.0)
        } else {
            c::<F, T>(-1.0)
        };
        self.lerp_impl(end * bias, s)
    }
    /// Spherical linear interpolation along the shorter arc, glam's formula (a linear
    /// one where the two are within `F::EPSILON` of each other). glam's `f32` `Quat`
    /// takes its own approximations of `acos` and (SSE2) `sin` here, so its primal differs
    /// from this exact formula's by a few ulps.
    #[inline(always)]
    pub fn slerp(self, mut end: Self, s: impl GlamScalar<F, T>) -> Self {
        let s = s.dual();
        let mut dot = self.dot(end);
        if dot < c::<F, T>(0.0) {
            end = -end;
            dot = -dot;
        }
        let threshold = Dual::new(F::one() - F::epsilon(), T::zero());
        if dot > threshold {
            self.lerp_impl(end, s)
        } else {
            let theta = num_traits::Float::acos(num_traits::Float::clamp(dot, c(-1.0), c(1.0)));
            let scale1 = (theta * (c::<F, T>(1.0) - s)).sin();
            let scale2 = (theta * s).sin();
            let theta_sin = theta.sin();
            ((self * scale1) + (end * scale2)) * (c::<F, T>(1.0) / theta_sin)
        }
    }
    /// The vector part `(x, y, z)`.
    #[inline(always)]
    pub fn xyz(self) -> GVec3<F, T> {
        GVec3::new(self.x, self.y, self.z)
    }
    /// `q v q*` for a unit quaternion, glam's formula:
    /// `v (w² − |b|²) + b (2 v·b) + (b × v) 2w`, `b = (x, y, z)`.
    #[inline(always)]
    pub fn mul_vec3(self, v: GVec3<F, T>) -> GVec3<F, T> {
        let w = self.w;
        let b = self.xyz();
        let b2 = b.dot(b);
        v * (w * w - b2) + b * (v.dot(b) * c::<F, T>(2.0)) + b.cross(v) * (w * c::<F, T>(2.0))
    }
}

/// The Hamilton product (`a * b` rotates by `b` first).
impl<F: GlamFloat, T: ScalarTangent<F>> Mul for GQuat<F, T> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, r: Self) -> Self {
        let (a, b) = (self, r);
        if F::SSE2 {
            // glam's SSE2 `mul_quat`: two lanes of pairs, added.
            return GQuat {
                x: (a.w * b.x + a.x * b.w) + (a.y * b.z - a.z * b.y),
                y: (a.w * b.y - a.x * b.z) + (a.y * b.w + a.z * b.x),
                z: (a.w * b.z + a.x * b.y) + (a.z * b.w - a.y * b.x),
                w: (a.w * b.w - a.x * b.x) - (a.y * b.y + a.z * b.z),
            };
        }
        GQuat {
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        }
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> Mul<GVec3<F, T>> for GQuat<F, T> {
    type Output = GVec3<F, T>;
    #[inline(always)]
    fn mul(self, v: GVec3<F, T>) -> GVec3<F, T> {
        self.mul_vec3(v)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GQuat<F, T> {
    /// `qᵢ op k` for each component.
    #[inline(always)]
    fn each(self, k: D<F, T>, op: impl Fn(D<F, T>, D<F, T>) -> D<F, T>) -> Self {
        GQuat::from_xyzw(op(self.x, k), op(self.y, k), op(self.z, k), op(self.w, k))
    }
}
scalar_rhs!(GQuat: Mul mul);

impl<F: GlamFloat, T: ScalarTangent<F>> Add for GQuat<F, T> {
    type Output = Self;
    #[inline(always)]
    fn add(self, r: Self) -> Self {
        GQuat::from_xyzw(self.x + r.x, self.y + r.y, self.z + r.z, self.w + r.w)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> Neg for GQuat<F, T> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        GQuat::from_xyzw(-self.x, -self.y, -self.z, -self.w)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> MulAssign for GQuat<F, T> {
    #[inline(always)]
    fn mul_assign(&mut self, r: Self) {
        *self = *self * r;
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GMat3<F, T> {
    /// From its three columns.
    #[inline(always)]
    pub fn from_cols(x_axis: GVec3<F, T>, y_axis: GVec3<F, T>, z_axis: GVec3<F, T>) -> Self {
        GMat3 {
            x_axis,
            y_axis,
            z_axis,
        }
    }
    /// The rotation matrix of a unit quaternion.
    #[inline(always)]
    pub fn from_quat(q: GQuat<F, T>) -> Self {
        let one = c::<F, T>(1.0);
        let (x2, y2, z2) = (q.x + q.x, q.y + q.y, q.z + q.z);
        let (xx, xy, xz) = (q.x * x2, q.x * y2, q.x * z2);
        let (yy, yz, zz) = (q.y * y2, q.y * z2, q.z * z2);
        let (wx, wy, wz) = (q.w * x2, q.w * y2, q.w * z2);
        GMat3::from_cols(
            GVec3::new(one - (yy + zz), xy + wz, xz - wy),
            GVec3::new(xy - wz, one - (xx + zz), yz + wx),
            GVec3::new(xz + wy, yz - wx, one - (xx + yy)),
        )
    }
    /// The rotation by `angle` about the unit vector `axis`: glam's formula (Rodrigues',
    /// entry by entry; not the matrix of `DQuat::from_axis_angle`, which rounds
    /// differently).
    #[inline(always)]
    pub fn from_axis_angle(axis: GVec3<F, T>, angle: impl GlamScalar<F, T>) -> Self {
        let (sin, cos) = angle.dual().sin_cos();
        let (xsin, ysin, zsin) = (axis.x * sin, axis.y * sin, axis.z * sin);
        let (x, y, z) = (axis.x, axis.y, axis.z);
        let (x2, y2, z2) = (axis.x * axis.x, axis.y * axis.y, axis.z * axis.z);
        let omc = c::<F, T>(1.0) - cos;
        let xyomc = x * y * omc;
        let xzomc = x * z * omc;
        let yzomc = y * z * omc;
        GMat3::from_cols(
            GVec3::new(x2 * omc + cos, xyomc + zsin, xzomc - ysin),
            GVec3::new(xyomc - zsin, y2 * omc + cos, yzomc + xsin),
            GVec3::new(xzomc + ysin, yzomc - xsin, z2 * omc + cos),
        )
    }
    /// The rotation by `angle` about the x axis.
    #[inline(always)]
    pub fn from_rotation_x(angle: impl GlamScalar<F, T>) -> Self {
        let angle = angle.dual();
        let (s, co) = angle.sin_cos();
        let (zero, one) = (c::<F, T>(0.0), c::<F, T>(1.0));
        GMat3::from_cols(
            GVec3::new(one, zero, zero),
            GVec3::new(zero, co, s),
            GVec3::new(zero, -s, co),
        )
    }
    /// The rotation by `angle` about the y axis.
    #[inline(always)]
    pub fn from_rotation_y(angle: impl GlamScalar<F, T>) -> Self {
        let angle = angle.dual();
        let (s, co) = angle.sin_cos();
        let (zero, one) = (c::<F, T>(0.0), c::<F, T>(1.0));
        GMat3::from_cols(
            GVec3::new(co, zero, -s),
            GVec3::new(zero, one, zero),
            GVec3::new(s, zero, co),
        )
    }
    /// The rotation by `angle` about the z axis.
    #[inline(always)]
    pub fn from_rotation_z(angle: impl GlamScalar<F, T>) -> Self {
        let angle = angle.dual();
        let (s, co) = angle.sin_cos();
        let (zero, one) = (c::<F, T>(0.0), c::<F, T>(1.0));
        GMat3::from_cols(
            GVec3::new(co, s, zero),
            GVec3::new(-s, co, zero),
            GVec3::new(zero, zero, one),
        )
    }
    /// `Mv`.
    #[inline(always)]
    pub fn mul_vec3(self, v: GVec3<F, T>) -> GVec3<F, T> {
        self.x_axis * v.x + self.y_axis * v.y + self.z_axis * v.z
    }
    /// `Mᵀ`.
    #[inline(always)]
    pub fn transpose(self) -> Self {
        let (a, b, d) = (self.x_axis, self.y_axis, self.z_axis);
        GMat3::from_cols(
            GVec3::new(a.x, b.x, d.x),
            GVec3::new(a.y, b.y, d.y),
            GVec3::new(a.z, b.z, d.z),
        )
    }
    /// `det M = c₂ · (c₀ × c₁)`.
    #[inline(always)]
    pub fn determinant(self) -> D<F, T> {
        self.z_axis.dot(self.x_axis.cross(self.y_axis))
    }
    /// `M⁻¹`, glam's formula: the columns' cross products scaled by `1 / det`, transposed.
    #[inline(always)]
    pub fn inverse(self) -> Self {
        let tmp0 = self.y_axis.cross(self.z_axis);
        let tmp1 = self.z_axis.cross(self.x_axis);
        let tmp2 = self.x_axis.cross(self.y_axis);
        let det = self.z_axis.dot(tmp2);
        let inv_det = c::<F, T>(1.0) / det;
        GMat3::from_cols(tmp0 * inv_det, tmp1 * inv_det, tmp2 * inv_det).transpose()
    }
    /// The diagonal matrix of `d`.
    #[inline(always)]
    pub fn from_diagonal(d: GVec3<F, T>) -> Self {
        let z = c::<F, T>(0.0);
        GMat3::from_cols(
            GVec3::new(d.x, z, z),
            GVec3::new(z, d.y, z),
            GVec3::new(z, z, d.z),
        )
    }
    /// `A B`.
    #[inline(always)]
    pub fn mul_mat3(self, r: Self) -> Self {
        self * r
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> Mul<GVec3<F, T>> for GMat3<F, T> {
    type Output = GVec3<F, T>;
    #[inline(always)]
    fn mul(self, v: GVec3<F, T>) -> GVec3<F, T> {
        self.mul_vec3(v)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> Mul for GMat3<F, T> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, r: Self) -> Self {
        GMat3::from_cols(
            self.mul_vec3(r.x_axis),
            self.mul_vec3(r.y_axis),
            self.mul_vec3(r.z_axis),
        )
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> MulAssign for GMat3<F, T> {
    #[inline(always)]
    fn mul_assign(&mut self, r: Self) {
        *self = *self * r;
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GMat4<F, T> {
    /// From its columns.
    #[inline(always)]
    pub fn from_cols(
        x_axis: GVec4<F, T>,
        y_axis: GVec4<F, T>,
        z_axis: GVec4<F, T>,
        w_axis: GVec4<F, T>,
    ) -> Self {
        GMat4 {
            x_axis,
            y_axis,
            z_axis,
            w_axis,
        }
    }
    /// The rotation's first three columns, glam's `quat_to_axes`.
    #[inline(always)]
    fn quat_to_axes(q: GQuat<F, T>) -> (GVec4<F, T>, GVec4<F, T>, GVec4<F, T>) {
        let (x, y, z, w) = (q.x, q.y, q.z, q.w);
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        let (one, zero) = (c::<F, T>(1.0), c::<F, T>(0.0));
        (
            GVec4::new(one - (yy + zz), xy + wz, xz - wy, zero),
            GVec4::new(xy - wz, one - (xx + zz), yz + wx, zero),
            GVec4::new(xz + wy, yz - wx, one - (xx + yy), zero),
        )
    }
    /// The rotation by a unit quaternion.
    #[inline(always)]
    pub fn from_quat(rotation: GQuat<F, T>) -> Self {
        let (x, y, z) = Self::quat_to_axes(rotation);
        Self::from_cols(x, y, z, GVec4::new(c(0.0), c(0.0), c(0.0), c(1.0)))
    }
    /// The translation by `t`.
    #[inline(always)]
    pub fn from_translation(t: GVec3<F, T>) -> Self {
        let (o, z) = (c::<F, T>(1.0), c::<F, T>(0.0));
        Self::from_cols(
            GVec4::new(o, z, z, z),
            GVec4::new(z, o, z, z),
            GVec4::new(z, z, o, z),
            GVec4::new(t.x, t.y, t.z, o),
        )
    }
    /// The rotation, then the translation.
    #[inline(always)]
    pub fn from_rotation_translation(rotation: GQuat<F, T>, translation: GVec3<F, T>) -> Self {
        let (x, y, z) = Self::quat_to_axes(rotation);
        Self::from_cols(x, y, z, translation.extend(c(1.0)))
    }
    /// The scaling, the rotation, then the translation.
    #[inline(always)]
    pub fn from_scale_rotation_translation(
        scale: GVec3<F, T>,
        rotation: GQuat<F, T>,
        translation: GVec3<F, T>,
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
    pub fn from_rotation_z(angle: impl GlamScalar<F, T>) -> Self {
        let angle = angle.dual();
        let (sina, cosa) = angle.sin_cos();
        let (o, z) = (c::<F, T>(1.0), c::<F, T>(0.0));
        Self::from_cols(
            GVec4::new(cosa, sina, z, z),
            GVec4::new(-sina, cosa, z, z),
            GVec4::new(z, z, o, z),
            GVec4::new(z, z, z, o),
        )
    }
    /// The rotation by `angle` about the x axis.
    #[inline(always)]
    pub fn from_rotation_x(angle: impl GlamScalar<F, T>) -> Self {
        let (sina, cosa) = angle.dual().sin_cos();
        let (o, z) = (c::<F, T>(1.0), c::<F, T>(0.0));
        Self::from_cols(
            GVec4::new(o, z, z, z),
            GVec4::new(z, cosa, sina, z),
            GVec4::new(z, -sina, cosa, z),
            GVec4::new(z, z, z, o),
        )
    }
    /// The rotation by `angle` about the y axis.
    #[inline(always)]
    pub fn from_rotation_y(angle: impl GlamScalar<F, T>) -> Self {
        let (sina, cosa) = angle.dual().sin_cos();
        let (o, z) = (c::<F, T>(1.0), c::<F, T>(0.0));
        Self::from_cols(
            GVec4::new(cosa, z, -sina, z),
            GVec4::new(z, o, z, z),
            GVec4::new(sina, z, cosa, z),
            GVec4::new(z, z, z, o),
        )
    }
    /// A right-handed view matrix looking along `dir` (unit) from `eye`, glam's formula.
    #[inline(always)]
    pub fn look_to_rh(eye: GVec3<F, T>, dir: GVec3<F, T>, up: GVec3<F, T>) -> Self {
        let f = dir;
        let s = f.cross(up).normalize();
        let u = s.cross(f);
        let z = c::<F, T>(0.0);
        Self::from_cols(
            GVec4::new(s.x, u.x, -f.x, z),
            GVec4::new(s.y, u.y, -f.y, z),
            GVec4::new(s.z, u.z, -f.z, z),
            GVec4::new(-eye.dot(s), -eye.dot(u), eye.dot(f), c(1.0)),
        )
    }
    /// A right-handed view matrix looking at `center` from `eye`.
    #[inline(always)]
    pub fn look_at_rh(eye: GVec3<F, T>, center: GVec3<F, T>, up: GVec3<F, T>) -> Self {
        Self::look_to_rh(eye, (center - eye).normalize(), up)
    }
    /// A right-handed perspective projection onto `[0, 1]` depth, glam's formula.
    #[inline(always)]
    pub fn perspective_rh(
        fov_y_radians: impl GlamScalar<F, T>,
        aspect_ratio: impl GlamScalar<F, T>,
        z_near: impl GlamScalar<F, T>,
        z_far: impl GlamScalar<F, T>,
    ) -> Self {
        let fov_y_radians = fov_y_radians.dual();
        let aspect_ratio = aspect_ratio.dual();
        let z_near = z_near.dual();
        let z_far = z_far.dual();
        let (sin_fov, cos_fov) = (c::<F, T>(0.5) * fov_y_radians).sin_cos();
        let h = cos_fov / sin_fov;
        let w = h / aspect_ratio;
        let r = z_far / (z_near - z_far);
        let z = c::<F, T>(0.0);
        Self::from_cols(
            GVec4::new(w, z, z, z),
            GVec4::new(z, h, z, z),
            GVec4::new(z, z, r, c(-1.0)),
            GVec4::new(z, z, r * z_near, z),
        )
    }
    /// `M v`, summed column by column as glam's.
    #[inline(always)]
    pub fn mul_vec4(self, v: GVec4<F, T>) -> GVec4<F, T> {
        let mut res = self.x_axis * v.x;
        res += self.y_axis * v.y;
        res += self.z_axis * v.z;
        res += self.w_axis * v.w;
        res
    }
    /// `M (p, 1)` of an affine `M`, its first three components.
    #[inline(always)]
    pub fn transform_point3(self, p: GVec3<F, T>) -> GVec3<F, T> {
        let mut res = self.x_axis * p.x;
        res = self.y_axis * p.y + res;
        res = self.z_axis * p.z + res;
        res = self.w_axis + res;
        res.xyz()
    }
    /// `M (v, 0)` of an affine `M`, its first three components.
    #[inline(always)]
    pub fn transform_vector3(self, v: GVec3<F, T>) -> GVec3<F, T> {
        let mut res = self.x_axis * v.x;
        res = self.y_axis * v.y + res;
        res = self.z_axis * v.z + res;
        res.xyz()
    }
    /// `M (p, 1)` divided by its `w`: a projection's normalised device coordinates.
    #[inline(always)]
    pub fn project_point3(self, p: GVec3<F, T>) -> GVec3<F, T> {
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
            GVec4::new(a.x, b.x, c_.x, d.x),
            GVec4::new(a.y, b.y, c_.y, d.y),
            GVec4::new(a.z, b.z, c_.z, d.z),
            GVec4::new(a.w, b.w, c_.w, d.w),
        )
    }
    /// `A B`.
    #[inline(always)]
    pub fn mul_mat4(self, r: Self) -> Self {
        self * r
    }
}

/// glam's `f64` `DMat4::inverse` (its `f32` `Mat4` is SSE2 code, in another order: not
/// mirrored).
impl<T: ScalarTangent<f64>> GMat4<f64, T> {
    /// `M⁻¹` by cofactors, glam's formula and order of operations.
    #[inline(always)]
    pub fn inverse(self) -> Self {
        let (m00, m01, m02, m03) = (self.x_axis.x, self.x_axis.y, self.x_axis.z, self.x_axis.w);
        let (m10, m11, m12, m13) = (self.y_axis.x, self.y_axis.y, self.y_axis.z, self.y_axis.w);
        let (m20, m21, m22, m23) = (self.z_axis.x, self.z_axis.y, self.z_axis.z, self.z_axis.w);
        let (m30, m31, m32, m33) = (self.w_axis.x, self.w_axis.y, self.w_axis.z, self.w_axis.w);

        let coef00 = m22 * m33 - m32 * m23;
        let coef02 = m12 * m33 - m32 * m13;
        let coef03 = m12 * m23 - m22 * m13;
        let coef04 = m21 * m33 - m31 * m23;
        let coef06 = m11 * m33 - m31 * m13;
        let coef07 = m11 * m23 - m21 * m13;
        let coef08 = m21 * m32 - m31 * m22;
        let coef10 = m11 * m32 - m31 * m12;
        let coef11 = m11 * m22 - m21 * m12;
        let coef12 = m20 * m33 - m30 * m23;
        let coef14 = m10 * m33 - m30 * m13;
        let coef15 = m10 * m23 - m20 * m13;
        let coef16 = m20 * m32 - m30 * m22;
        let coef18 = m10 * m32 - m30 * m12;
        let coef19 = m10 * m22 - m20 * m12;
        let coef20 = m20 * m31 - m30 * m21;
        let coef22 = m10 * m31 - m30 * m11;
        let coef23 = m10 * m21 - m20 * m11;

        let fac0 = GVec4::new(coef00, coef00, coef02, coef03);
        let fac1 = GVec4::new(coef04, coef04, coef06, coef07);
        let fac2 = GVec4::new(coef08, coef08, coef10, coef11);
        let fac3 = GVec4::new(coef12, coef12, coef14, coef15);
        let fac4 = GVec4::new(coef16, coef16, coef18, coef19);
        let fac5 = GVec4::new(coef20, coef20, coef22, coef23);

        let vec0 = GVec4::new(m10, m00, m00, m00);
        let vec1 = GVec4::new(m11, m01, m01, m01);
        let vec2 = GVec4::new(m12, m02, m02, m02);
        let vec3 = GVec4::new(m13, m03, m03, m03);

        let inv0 = vec1 * fac0 - vec2 * fac1 + vec3 * fac2;
        let inv1 = vec0 * fac0 - vec2 * fac3 + vec3 * fac4;
        let inv2 = vec0 * fac1 - vec1 * fac3 + vec3 * fac5;
        let inv3 = vec0 * fac2 - vec1 * fac4 + vec2 * fac5;

        let (p, m) = (c::<f64, T>(1.0), c::<f64, T>(-1.0));
        let sign_a = GVec4::new(p, m, p, m);
        let sign_b = GVec4::new(m, p, m, p);
        let inverse = Self::from_cols(inv0 * sign_a, inv1 * sign_b, inv2 * sign_a, inv3 * sign_b);

        let col0 = GVec4::new(
            inverse.x_axis.x,
            inverse.y_axis.x,
            inverse.z_axis.x,
            inverse.w_axis.x,
        );
        let dot0 = self.x_axis * col0;
        let dot1 = dot0.x + dot0.y + dot0.z + dot0.w;
        let rcp_det = c::<f64, T>(1.0) / dot1;
        inverse * rcp_det
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> Mul<GVec4<F, T>> for GMat4<F, T> {
    type Output = GVec4<F, T>;
    #[inline(always)]
    fn mul(self, v: GVec4<F, T>) -> GVec4<F, T> {
        self.mul_vec4(v)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> Mul for GMat4<F, T> {
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

impl<F: GlamFloat, T: ScalarTangent<F>> MulAssign for GMat4<F, T> {
    #[inline(always)]
    fn mul_assign(&mut self, r: Self) {
        *self = *self * r;
    }
}

/// Componentwise, as glam's.
impl<F: GlamFloat, T: ScalarTangent<F>> Add for GMat4<F, T> {
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

scalar_rhs!(GMat4: Mul mul);

impl<F: GlamFloat, T: ScalarTangent<F>> GMat4<F, T> {
    /// `mᵢⱼ op k` for each entry (glam's `Mat4 * f32` is `mul_scalar`).
    #[inline(always)]
    fn each(self, k: D<F, T>, op: impl Fn(D<F, T>, D<F, T>) -> D<F, T>) -> Self {
        let col = |v: GVec4<F, T>| v.each(k, &op);
        Self::from_cols(
            col(self.x_axis),
            col(self.y_axis),
            col(self.z_axis),
            col(self.w_axis),
        )
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> Mul<GMat4<F, T>> for D<F, T> {
    type Output = GMat4<F, T>;
    #[inline(always)]
    fn mul(self, m: GMat4<F, T>) -> GMat4<F, T> {
        m * self
    }
}

/// glam's Euler-angle sequence `euler` as Shoemake's order (glam's private `Order`): the
/// axes `(i, j, k)` of the three angles, whether the parity is even, whether the first
/// axis repeats, and whether the frame is static (intrinsic in glam's naming).
fn euler_order(euler: glam::EulerRot) -> ((usize, usize, usize), bool, bool, bool) {
    use glam::EulerRot as E;
    // (initial axis, parity even, initial repeated, frame static)
    let (i, even, rep, stat) = match euler {
        E::XYZ => (0, true, false, true),
        E::XYX => (0, true, true, true),
        E::XZY => (0, false, false, true),
        E::XZX => (0, false, true, true),
        E::YZX => (1, true, false, true),
        E::YZY => (1, true, true, true),
        E::YXZ => (1, false, false, true),
        E::YXY => (1, false, true, true),
        E::ZXY => (2, true, false, true),
        E::ZXZ => (2, true, true, true),
        E::ZYX => (2, false, false, true),
        E::ZYZ => (2, false, true, true),
        E::ZYXEx => (0, true, false, false),
        E::XYXEx => (0, true, true, false),
        E::YZXEx => (0, false, false, false),
        E::XZXEx => (0, false, true, false),
        E::XZYEx => (1, true, false, false),
        E::YZYEx => (1, true, true, false),
        E::ZXYEx => (1, false, false, false),
        E::YXYEx => (1, false, true, false),
        E::YXZEx => (2, true, false, false),
        E::ZXZEx => (2, true, true, false),
        E::XYZEx => (2, false, false, false),
        E::ZYZEx => (2, false, true, false),
    };
    let (next, prev) = ((i + 1) % 3, if i > 0 { i - 1 } else { 2 });
    let (j, k) = if even { (next, prev) } else { (prev, next) };
    ((i, j, k), even, rep, stat)
}

/// What glam's `from_euler` of a quaternion and of a matrix share: the sequence's order
/// (`euler_order`), the angles in it, their sines and cosines, and the products of the
/// first and third angle's (`cc`, `cs`, `sc`, `ss` in Shoemake's names).
struct EulerSinCos<F: Real, T: ScalarTangent<F>> {
    /// The axes `(i, j, k)` of the three angles.
    axes: (usize, usize, usize),
    /// Whether the parity is even.
    even: bool,
    /// Whether the first axis repeats.
    rep: bool,
    /// `(sin, cos)` of each angle, in the sequence's order.
    sin_cos: [(D<F, T>, D<F, T>); 3],
    /// `[ci·ch, ci·sh, si·ch, si·sh]`.
    products: [D<F, T>; 4],
}

impl<F: GlamFloat, T: ScalarTangent<F>> EulerSinCos<F, T> {
    /// Of the angles `abc` about the axes of `euler`, each first through `prepare` (given
    /// the angles in the sequence's order and whether its parity is even).
    #[inline(always)]
    fn new(
        euler: glam::EulerRot,
        abc: [D<F, T>; 3],
        prepare: impl FnOnce([D<F, T>; 3], bool) -> [D<F, T>; 3],
    ) -> Self {
        let (axes, even, rep, stat) = euler_order(euler);
        let [x, y, z] = abc;
        let angles = prepare(if stat { [x, y, z] } else { [z, y, x] }, even);
        let sin_cos = angles.map(|t| t.sin_cos());
        let [(si, ci), _, (sh, ch)] = sin_cos;
        let products = [ci * ch, ci * sh, si * ch, si * sh];
        EulerSinCos {
            axes,
            even,
            rep,
            sin_cos,
            products,
        }
    }
}

/// The Euler-angle constructors, glam's `from_euler` (Shoemake's formulas in glam's
/// order of operations, so the primals are glam's bit for bit).
impl<F: GlamFloat, T: ScalarTangent<F>> GQuat<F, T> {
    /// The rotation by the angles `a`, `b`, `c` about the axes of the sequence `euler`.
    #[inline(always)]
    pub fn from_euler(
        euler: glam::EulerRot,
        a: impl GlamScalar<F, T>,
        b: impl GlamScalar<F, T>,
        cc: impl GlamScalar<F, T>,
    ) -> Self {
        // Half angles, the middle one negated for an even parity.
        let e = EulerSinCos::new(
            euler,
            [a.dual(), b.dual(), cc.dual()],
            |mut angles, even| {
                if even {
                    angles[1] = -angles[1];
                }
                let half = c::<F, T>(0.5);
                angles.map(|x| x * half)
            },
        );
        let (i, j, k) = e.axes;
        let [_, (sj, cj), _] = e.sin_cos;
        let [cc, cs, sc, ss] = e.products;
        let (even, rep) = (e.even, e.rep);
        let parity = c::<F, T>(if !even { 1.0 } else { -1.0 });
        let mut q = [c::<F, T>(0.0); 4];
        if rep {
            q[i] = cj * (cs + sc);
            q[j] = sj * (cc + ss) * parity;
            q[k] = sj * (cs - sc);
            q[3] = cj * (cc - ss);
        } else {
            q[i] = cj * sc - sj * cs;
            q[j] = (cj * ss + sj * cc) * parity;
            q[k] = cj * cs - sj * sc;
            q[3] = cj * cc + sj * ss;
        }
        GQuat::from_xyzw(q[0], q[1], q[2], q[3])
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GMat3<F, T> {
    /// The rotation by the angles `a`, `b`, `c` about the axes of the sequence `euler`.
    #[inline(always)]
    pub fn from_euler(
        euler: glam::EulerRot,
        a: impl GlamScalar<F, T>,
        b: impl GlamScalar<F, T>,
        cc: impl GlamScalar<F, T>,
    ) -> Self {
        // Every angle negated for an even parity.
        let e = EulerSinCos::new(euler, [a.dual(), b.dual(), cc.dual()], |angles, even| {
            if even {
                angles.map(|x| -x)
            } else {
                angles
            }
        });
        let (i, j, k) = e.axes;
        let [(si, ci), (sj, cj), (sh, ch)] = e.sin_cos;
        let [cc, cs, sc, ss] = e.products;
        let rep = e.rep;
        // `m[col][row]`, as glam's `from_cols_array_2d`.
        let mut m = [[c::<F, T>(0.0); 3]; 3];
        if rep {
            m[i][i] = cj;
            m[i][j] = sj * si;
            m[i][k] = sj * ci;
            m[j][i] = sj * sh;
            m[j][j] = -cj * ss + cc;
            m[j][k] = -cj * cs - sc;
            m[k][i] = -sj * ch;
            m[k][j] = cj * sc + cs;
            m[k][k] = cj * cc - ss;
        } else {
            m[i][i] = cj * ch;
            m[i][j] = sj * sc - cs;
            m[i][k] = sj * cc + ss;
            m[j][i] = cj * sh;
            m[j][j] = sj * ss + cc;
            m[j][k] = sj * cs - sc;
            m[k][i] = -sj;
            m[k][j] = cj * si;
            m[k][k] = cj * ci;
        }
        let col = |v: [D<F, T>; 3]| GVec3::new(v[0], v[1], v[2]);
        GMat3::from_cols(col(m[0]), col(m[1]), col(m[2]))
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GMat4<F, T> {
    /// The rotation by the angles `a`, `b`, `c` about the axes of the sequence `euler`
    /// (glam's `DMat4::from_mat3` of `DMat3::from_euler`).
    #[inline(always)]
    pub fn from_euler(
        euler: glam::EulerRot,
        a: impl GlamScalar<F, T>,
        b: impl GlamScalar<F, T>,
        cc: impl GlamScalar<F, T>,
    ) -> Self {
        let m = GMat3::from_euler(euler, a, b, cc);
        let (o, z) = (c::<F, T>(1.0), c::<F, T>(0.0));
        Self::from_cols(
            m.x_axis.extend(z),
            m.y_axis.extend(z),
            m.z_axis.extend(z),
            GVec4::new(z, z, z, o),
        )
    }
}

/// The angles back from a rotation, glam's `to_euler` (Shoemake's formulas in glam's order
/// of operations, so the primals are glam's bit for bit): the angles about the axes of the
/// sequence `euler` that `from_euler` turns back into the rotation. Near gimbal lock (the
/// middle angle's cosine, or for a repeated axis its sine, below `16 ε`) glam sets the third
/// angle to zero and reads the first from the other entries; so does this, and the
/// derivative is that of the branch taken.
impl<F: GlamFloat, T: ScalarTangent<F>> GMat3<F, T> {
    /// Entry `row` of column `col` (glam's `self.col(col)[row]`).
    #[inline(always)]
    fn entry(&self, col: usize, row: usize) -> D<F, T> {
        let v = match col {
            0 => self.x_axis,
            1 => self.y_axis,
            _ => self.z_axis,
        };
        match row {
            0 => v.x,
            1 => v.y,
            _ => v.z,
        }
    }

    /// The angles of the sequence `euler` of this rotation matrix.
    #[inline(always)]
    pub fn to_euler(self, euler: glam::EulerRot) -> (D<F, T>, D<F, T>, D<F, T>) {
        let ((i, j, k), even, rep, stat) = euler_order(euler);
        let m = |col: usize, row: usize| self.entry(col, row);
        let limit = Dual::new(F::cst(16.0) * F::epsilon(), T::zero());
        let zero = c::<F, T>(0.0);
        let (mut x, mut y, mut z) = if rep {
            let sy = (m(i, j) * m(i, j) + m(i, k) * m(i, k)).sqrt();
            if sy > limit {
                (
                    m(i, j).atan2(m(i, k)),
                    sy.atan2(m(i, i)),
                    m(j, i).atan2(-m(k, i)),
                )
            } else {
                ((-m(j, k)).atan2(m(j, j)), sy.atan2(m(i, i)), zero)
            }
        } else {
            let cy = (m(i, i) * m(i, i) + m(j, i) * m(j, i)).sqrt();
            if cy > limit {
                (
                    m(k, j).atan2(m(k, k)),
                    (-m(k, i)).atan2(cy),
                    m(j, i).atan2(m(i, i)),
                )
            } else {
                ((-m(j, k)).atan2(m(j, j)), (-m(k, i)).atan2(cy), zero)
            }
        };
        if even {
            (x, y, z) = (-x, -y, -z);
        }
        if !stat {
            (x, z) = (z, x);
        }
        (x, y, z)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GQuat<F, T> {
    /// The angles of the sequence `euler` of this rotation (glam's `to_euler`, through the
    /// rotation matrix as glam computes it).
    #[inline(always)]
    pub fn to_euler(self, euler: glam::EulerRot) -> (D<F, T>, D<F, T>, D<F, T>) {
        GMat3::from_quat(self).to_euler(euler)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GMat4<F, T> {
    /// The angles of the sequence `euler` of this matrix's rotation part (glam's
    /// `to_euler`, of `DMat3::from_mat4`).
    #[inline(always)]
    pub fn to_euler(self, euler: glam::EulerRot) -> (D<F, T>, D<F, T>, D<F, T>) {
        GMat3::from_cols(
            self.x_axis.truncate(),
            self.y_axis.truncate(),
            self.z_axis.truncate(),
        )
        .to_euler(euler)
    }
}

/// Axes, angles and decompositions back from rotations and transforms, glam's formulas in
/// glam's order of operations (`f64`: the primals are glam's bit for bit; glam's `f32`
/// `acos` in `angle_between` is its own approximation, a few ulps off this exact one).
impl<F: GlamFloat, T: ScalarTangent<F>> GQuat<F, T> {
    /// The rotation by `v.length()` about `v.normalize()` (the identity for a zero `v`).
    #[inline(always)]
    pub fn from_scaled_axis(v: GVec3<F, T>) -> Self {
        let length = v.length();
        if length.primal == F::zero() {
            let (z, o) = (c::<F, T>(0.0), c::<F, T>(1.0));
            Self::from_xyzw(z, z, z, o)
        } else {
            Self::from_axis_angle(v / length, length)
        }
    }
    /// glam's `from_rotation_axes` (DirectXMath's `XMQuaternionRotationMatrix`): the
    /// quaternion of the rotation matrix with these columns, by its largest component.
    #[inline(always)]
    fn from_rotation_axes(x_axis: GVec3<F, T>, y_axis: GVec3<F, T>, z_axis: GVec3<F, T>) -> Self {
        let (m00, m01, m02) = (x_axis.x, x_axis.y, x_axis.z);
        let (m10, m11, m12) = (y_axis.x, y_axis.y, y_axis.z);
        let (m20, m21, m22) = (z_axis.x, z_axis.y, z_axis.z);
        let (zero, one, half) = (c::<F, T>(0.0), c::<F, T>(1.0), c::<F, T>(0.5));
        if m22 <= zero {
            let dif10 = m11 - m00;
            let omm22 = one - m22;
            if dif10 <= zero {
                let four_xsq = omm22 - dif10;
                let inv4x = half / four_xsq.sqrt();
                Self::from_xyzw(
                    four_xsq * inv4x,
                    (m01 + m10) * inv4x,
                    (m02 + m20) * inv4x,
                    (m12 - m21) * inv4x,
                )
            } else {
                let four_ysq = omm22 + dif10;
                let inv4y = half / four_ysq.sqrt();
                Self::from_xyzw(
                    (m01 + m10) * inv4y,
                    four_ysq * inv4y,
                    (m12 + m21) * inv4y,
                    (m20 - m02) * inv4y,
                )
            }
        } else {
            let sum10 = m11 + m00;
            let opm22 = one + m22;
            if sum10 <= zero {
                let four_zsq = opm22 - sum10;
                let inv4z = half / four_zsq.sqrt();
                Self::from_xyzw(
                    (m02 + m20) * inv4z,
                    (m12 + m21) * inv4z,
                    four_zsq * inv4z,
                    (m01 - m10) * inv4z,
                )
            } else {
                let four_wsq = opm22 + sum10;
                let inv4w = half / four_wsq.sqrt();
                Self::from_xyzw(
                    (m12 - m21) * inv4w,
                    (m20 - m02) * inv4w,
                    (m01 - m10) * inv4w,
                    four_wsq * inv4w,
                )
            }
        }
    }
    /// The quaternion of a rotation matrix.
    #[inline(always)]
    pub fn from_mat3(mat: &GMat3<F, T>) -> Self {
        Self::from_rotation_axes(mat.x_axis, mat.y_axis, mat.z_axis)
    }
    /// The quaternion of the rotation part of a 4×4 matrix.
    #[inline(always)]
    pub fn from_mat4(mat: &GMat4<F, T>) -> Self {
        Self::from_rotation_axes(
            mat.x_axis.truncate(),
            mat.y_axis.truncate(),
            mat.z_axis.truncate(),
        )
    }
    /// The unit axis and the angle of the rotation (`(X, 0)` near the identity, as glam).
    #[inline(always)]
    pub fn to_axis_angle(self) -> (GVec3<F, T>, D<F, T>) {
        let v = GVec3::new(self.x, self.y, self.z);
        let length = v.length();
        if length.primal >= F::cst(1.0e-8) {
            let angle = c::<F, T>(2.0) * length.atan2(self.w);
            (v / length, angle)
        } else {
            let (z, o) = (c::<F, T>(0.0), c::<F, T>(1.0));
            (GVec3::new(o, z, z), z)
        }
    }
    /// The axis scaled by the angle.
    #[inline(always)]
    pub fn to_scaled_axis(self) -> GVec3<F, T> {
        let (axis, angle) = self.to_axis_angle();
        axis * angle
    }
    /// The angle of the rotation from `self` to `rhs` (both unit).
    #[inline(always)]
    pub fn angle_between(self, rhs: Self) -> D<F, T> {
        let d = num_traits::Float::abs(self.dot(rhs));
        num_traits::Float::acos(num_traits::Float::clamp(d, c(-1.0), c(1.0))) * c::<F, T>(2.0)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GVec3<F, T> {
    /// The angle between two non-zero vectors, in `[0, π]`.
    #[inline(always)]
    pub fn angle_between(self, rhs: Self) -> D<F, T> {
        let cos = self.dot(rhs) / (self.length_squared() * rhs.length_squared()).sqrt();
        num_traits::Float::acos(num_traits::Float::clamp(cos, c(-1.0), c(1.0)))
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> GMat4<F, T> {
    /// The determinant, glam's cofactor expansion.
    #[inline(always)]
    pub fn determinant(&self) -> D<F, T> {
        let (m00, m01, m02, m03) = (self.x_axis.x, self.x_axis.y, self.x_axis.z, self.x_axis.w);
        let (m10, m11, m12, m13) = (self.y_axis.x, self.y_axis.y, self.y_axis.z, self.y_axis.w);
        let (m20, m21, m22, m23) = (self.z_axis.x, self.z_axis.y, self.z_axis.z, self.z_axis.w);
        let (m30, m31, m32, m33) = (self.w_axis.x, self.w_axis.y, self.w_axis.z, self.w_axis.w);
        let a2323 = m22 * m33 - m23 * m32;
        let a1323 = m21 * m33 - m23 * m31;
        let a1223 = m21 * m32 - m22 * m31;
        let a0323 = m20 * m33 - m23 * m30;
        let a0223 = m20 * m32 - m22 * m30;
        let a0123 = m20 * m31 - m21 * m30;
        m00 * (m11 * a2323 - m12 * a1323 + m13 * a1223)
            - m01 * (m10 * a2323 - m12 * a0323 + m13 * a0223)
            + m02 * (m10 * a1323 - m11 * a0323 + m13 * a0123)
            - m03 * (m10 * a1223 - m11 * a0223 + m12 * a0123)
    }
    /// The 4×4 matrix of a 3×3 linear map (no translation).
    #[inline(always)]
    pub fn from_mat3(m: GMat3<F, T>) -> Self {
        let (z, o) = (c::<F, T>(0.0), c::<F, T>(1.0));
        Self::from_cols(
            m.x_axis.extend(z),
            m.y_axis.extend(z),
            m.z_axis.extend(z),
            GVec4::new(z, z, z, o),
        )
    }
    /// The scale, rotation and translation of an affine matrix (the scale's first component
    /// carries the determinant's sign).
    #[inline(always)]
    pub fn to_scale_rotation_translation(&self) -> (GVec3<F, T>, GQuat<F, T>, GVec3<F, T>) {
        let det = self.determinant();
        let sign = c::<F, T>(if det.primal.is_nan() {
            f64::NAN
        } else if det.primal.is_sign_negative() {
            -1.0
        } else {
            1.0
        });
        let scale = GVec3::new(
            self.x_axis.length() * sign,
            self.y_axis.length(),
            self.z_axis.length(),
        );
        let inv_scale = scale.recip();
        let rotation = GQuat::from_rotation_axes(
            (self.x_axis * inv_scale.x).xyz(),
            (self.y_axis * inv_scale.y).xyz(),
            (self.z_axis * inv_scale.z).xyz(),
        );
        (scale, rotation, self.w_axis.xyz())
    }
}

/// An Euler-angle sequence passed to `from_euler`: no float, as it is.
impl<S: Mode> crate::lift::Lift<S> for glam::EulerRot {
    type Output = glam::EulerRot;
    #[inline(always)]
    fn lift(self) -> glam::EulerRot {
        self
    }
}

/// glam's `DMat2` over duals, by columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GMat2<F: Real, T: ScalarTangent<F>> {
    /// The first column.
    pub x_axis: GVec2<F, T>,
    /// The second column.
    pub y_axis: GVec2<F, T>,
}

/// glam's `DMat2` over duals in mode `S`.
pub type DMat2<S> = GMat2<f64, S>;

/// glam's `DMat2` functions (its `f32` `Mat2` is SIMD code: not mirrored).
impl<F: GlamFloat, T: ScalarTangent<F>> GMat2<F, T> {
    /// From its two columns.
    #[inline(always)]
    pub fn from_cols(x_axis: GVec2<F, T>, y_axis: GVec2<F, T>) -> Self {
        GMat2 { x_axis, y_axis }
    }
    #[inline(always)]
    fn new(m00: D<F, T>, m01: D<F, T>, m10: D<F, T>, m11: D<F, T>) -> Self {
        Self::from_cols(GVec2::new(m00, m01), GVec2::new(m10, m11))
    }
    /// The diagonal matrix of `d`.
    #[inline(always)]
    pub fn from_diagonal(d: GVec2<F, T>) -> Self {
        let z = c::<F, T>(0.0);
        Self::new(d.x, z, z, d.y)
    }
    /// The rotation by `angle`.
    #[inline(always)]
    pub fn from_angle(angle: impl GlamScalar<F, T>) -> Self {
        let (sin, cos) = angle.dual().sin_cos();
        Self::new(cos, sin, -sin, cos)
    }
    /// The scaling by `scale`, then the rotation by `angle`.
    #[inline(always)]
    pub fn from_scale_angle(scale: GVec2<F, T>, angle: impl GlamScalar<F, T>) -> Self {
        let (sin, cos) = angle.dual().sin_cos();
        Self::new(cos * scale.x, sin * scale.x, -sin * scale.y, cos * scale.y)
    }
    /// The upper-left 2×2 block of a 3×3 matrix.
    #[inline(always)]
    pub fn from_mat3(m: GMat3<F, T>) -> Self {
        Self::from_cols(m.x_axis.xy(), m.y_axis.xy())
    }
    /// `Mᵀ`.
    #[inline(always)]
    pub fn transpose(self) -> Self {
        Self::new(self.x_axis.x, self.y_axis.x, self.x_axis.y, self.y_axis.y)
    }
    /// `det M`.
    #[inline(always)]
    pub fn determinant(self) -> D<F, T> {
        self.x_axis.x * self.y_axis.y - self.x_axis.y * self.y_axis.x
    }
    /// `M⁻¹`, glam's formula.
    #[inline(always)]
    pub fn inverse(self) -> Self {
        let inv_det = c::<F, T>(1.0) / self.determinant();
        Self::new(
            self.y_axis.y * inv_det,
            self.x_axis.y * -inv_det,
            self.y_axis.x * -inv_det,
            self.x_axis.x * inv_det,
        )
    }
    /// `M v`, as glam's.
    #[inline(always)]
    pub fn mul_vec2(self, rhs: GVec2<F, T>) -> GVec2<F, T> {
        GVec2::new(
            (self.x_axis.x * rhs.x) + (self.y_axis.x * rhs.y),
            (self.x_axis.y * rhs.x) + (self.y_axis.y * rhs.y),
        )
    }
    /// `A B`.
    #[inline(always)]
    pub fn mul_mat2(self, rhs: Self) -> Self {
        self * rhs
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> Mul<GVec2<F, T>> for GMat2<F, T> {
    type Output = GVec2<F, T>;
    #[inline(always)]
    fn mul(self, v: GVec2<F, T>) -> GVec2<F, T> {
        self.mul_vec2(v)
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> Mul for GMat2<F, T> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, r: Self) -> Self {
        Self::from_cols(self.mul_vec2(r.x_axis), self.mul_vec2(r.y_axis))
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> MulAssign for GMat2<F, T> {
    #[inline(always)]
    fn mul_assign(&mut self, r: Self) {
        *self = *self * r;
    }
}

/// glam's `DAffine2` over duals: `x ↦ M x + t` in the plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GAffine2<F: Real, T: ScalarTangent<F>> {
    /// The linear part `M`.
    pub matrix2: GMat2<F, T>,
    /// The translation `t`.
    pub translation: GVec2<F, T>,
}

/// glam's `DAffine2` over duals in mode `S`.
pub type DAffine2<S> = GAffine2<f64, S>;

/// glam's `DAffine2` functions, each glam's formula.
impl<F: GlamFloat, T: ScalarTangent<F>> GAffine2<F, T> {
    #[inline(always)]
    fn of(matrix2: GMat2<F, T>, translation: GVec2<F, T>) -> Self {
        GAffine2 {
            matrix2,
            translation,
        }
    }
    #[inline(always)]
    fn zero2() -> GVec2<F, T> {
        let z = c::<F, T>(0.0);
        GVec2::new(z, z)
    }
    /// From the columns of the linear part and the translation.
    #[inline(always)]
    pub fn from_cols(x_axis: GVec2<F, T>, y_axis: GVec2<F, T>, z_axis: GVec2<F, T>) -> Self {
        Self::of(GMat2::from_cols(x_axis, y_axis), z_axis)
    }
    /// The scaling by `scale`.
    #[inline(always)]
    pub fn from_scale(scale: GVec2<F, T>) -> Self {
        Self::of(GMat2::from_diagonal(scale), Self::zero2())
    }
    /// The rotation by `angle`.
    #[inline(always)]
    pub fn from_angle(angle: impl GlamScalar<F, T>) -> Self {
        Self::of(GMat2::from_angle(angle), Self::zero2())
    }
    /// The translation by `translation`.
    #[inline(always)]
    pub fn from_translation(translation: GVec2<F, T>) -> Self {
        let one = c::<F, T>(1.0);
        Self::of(GMat2::from_diagonal(GVec2::new(one, one)), translation)
    }
    /// The linear map `matrix2`.
    #[inline(always)]
    pub fn from_mat2(matrix2: GMat2<F, T>) -> Self {
        Self::of(matrix2, Self::zero2())
    }
    /// `matrix2`, then the translation.
    #[inline(always)]
    pub fn from_mat2_translation(matrix2: GMat2<F, T>, translation: GVec2<F, T>) -> Self {
        Self::of(matrix2, translation)
    }
    /// The scaling, the rotation, then the translation.
    #[inline(always)]
    pub fn from_scale_angle_translation(
        scale: GVec2<F, T>,
        angle: impl GlamScalar<F, T>,
        translation: GVec2<F, T>,
    ) -> Self {
        let rotation = GMat2::from_angle(angle);
        Self::of(
            GMat2::from_cols(rotation.x_axis * scale.x, rotation.y_axis * scale.y),
            translation,
        )
    }
    /// The rotation, then the translation.
    #[inline(always)]
    pub fn from_angle_translation(angle: impl GlamScalar<F, T>, translation: GVec2<F, T>) -> Self {
        Self::of(GMat2::from_angle(angle), translation)
    }
    /// The affine transform of a 3×3 homogeneous matrix.
    #[inline(always)]
    pub fn from_mat3(m: GMat3<F, T>) -> Self {
        Self::of(
            GMat2::from_cols(m.x_axis.xy(), m.y_axis.xy()),
            m.z_axis.xy(),
        )
    }
    /// `M p + t`.
    #[inline(always)]
    pub fn transform_point2(self, rhs: GVec2<F, T>) -> GVec2<F, T> {
        self.matrix2 * rhs + self.translation
    }
    /// `M v`.
    #[inline(always)]
    pub fn transform_vector2(self, rhs: GVec2<F, T>) -> GVec2<F, T> {
        self.matrix2 * rhs
    }
    /// The inverse transform: `M⁻¹` and `−M⁻¹ t`.
    #[inline(always)]
    pub fn inverse(self) -> Self {
        let matrix2 = self.matrix2.inverse();
        let translation = -(matrix2 * self.translation);
        Self::of(matrix2, translation)
    }
}

/// `A B`: `B` first.
impl<F: GlamFloat, T: ScalarTangent<F>> Mul for GAffine2<F, T> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::of(
            self.matrix2 * rhs.matrix2,
            self.matrix2 * rhs.translation + self.translation,
        )
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> MulAssign for GAffine2<F, T> {
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}

/// glam's `DAffine3` over duals: a linear part and a translation, `x ↦ M x + t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GAffine3<F: Real, T: ScalarTangent<F>> {
    /// The linear part `M`.
    pub matrix3: GMat3<F, T>,
    /// The translation `t`.
    pub translation: GVec3<F, T>,
}

/// glam's `DAffine3` over duals in mode `S`.
pub type DAffine3<S> = GAffine3<f64, S>;
/// glam's `Affine3A` over duals in mode `S`. glam computes it on `Mat3A` and `Vec3A` (SSE2
/// on x86-64), but what it computes is componentwise products and sums, cross and dot
/// products summed from the first lane, and (`look_to_rh`) `Vec3`'s normalisation: the
/// same operations in the same order as `Affine3`'s over `f32`, so one mirror is both.
pub type Affine3A<S> = GAffine3<f32, <S as Mode>::Of<f32>>;

/// glam's `DAffine3` functions, each glam's formula in its order of operations.
impl<F: GlamFloat, T: ScalarTangent<F>> GAffine3<F, T> {
    #[inline(always)]
    fn of(matrix3: GMat3<F, T>, translation: GVec3<F, T>) -> Self {
        GAffine3 {
            matrix3,
            translation,
        }
    }
    #[inline(always)]
    fn zero3() -> GVec3<F, T> {
        let z = c::<F, T>(0.0);
        GVec3::new(z, z, z)
    }
    #[inline(always)]
    fn identity3() -> GMat3<F, T> {
        let one = c::<F, T>(1.0);
        GMat3::from_diagonal(GVec3::new(one, one, one))
    }
    /// From the columns of the linear part and the translation.
    #[inline(always)]
    pub fn from_cols(
        x_axis: GVec3<F, T>,
        y_axis: GVec3<F, T>,
        z_axis: GVec3<F, T>,
        w_axis: GVec3<F, T>,
    ) -> Self {
        Self::of(GMat3::from_cols(x_axis, y_axis, z_axis), w_axis)
    }
    /// The scaling by `scale`.
    #[inline(always)]
    pub fn from_scale(scale: GVec3<F, T>) -> Self {
        Self::of(GMat3::from_diagonal(scale), Self::zero3())
    }
    /// The rotation by a unit quaternion.
    #[inline(always)]
    pub fn from_quat(rotation: GQuat<F, T>) -> Self {
        Self::of(GMat3::from_quat(rotation), Self::zero3())
    }
    /// The rotation by `angle` about the unit vector `axis`.
    #[inline(always)]
    pub fn from_axis_angle(axis: GVec3<F, T>, angle: impl GlamScalar<F, T>) -> Self {
        Self::of(GMat3::from_axis_angle(axis, angle), Self::zero3())
    }
    /// The rotation by `angle` about the x axis.
    #[inline(always)]
    pub fn from_rotation_x(angle: impl GlamScalar<F, T>) -> Self {
        Self::of(GMat3::from_rotation_x(angle), Self::zero3())
    }
    /// The rotation by `angle` about the y axis.
    #[inline(always)]
    pub fn from_rotation_y(angle: impl GlamScalar<F, T>) -> Self {
        Self::of(GMat3::from_rotation_y(angle), Self::zero3())
    }
    /// The rotation by `angle` about the z axis.
    #[inline(always)]
    pub fn from_rotation_z(angle: impl GlamScalar<F, T>) -> Self {
        Self::of(GMat3::from_rotation_z(angle), Self::zero3())
    }
    /// The translation by `translation`.
    #[inline(always)]
    pub fn from_translation(translation: GVec3<F, T>) -> Self {
        Self::of(Self::identity3(), translation)
    }
    /// The linear map `mat3`.
    #[inline(always)]
    pub fn from_mat3(mat3: GMat3<F, T>) -> Self {
        Self::of(mat3, Self::zero3())
    }
    /// `mat3`, then the translation.
    #[inline(always)]
    pub fn from_mat3_translation(mat3: GMat3<F, T>, translation: GVec3<F, T>) -> Self {
        Self::of(mat3, translation)
    }
    /// The scaling, the rotation, then the translation.
    #[inline(always)]
    pub fn from_scale_rotation_translation(
        scale: GVec3<F, T>,
        rotation: GQuat<F, T>,
        translation: GVec3<F, T>,
    ) -> Self {
        let rotation = GMat3::from_quat(rotation);
        Self::of(
            GMat3::from_cols(
                rotation.x_axis * scale.x,
                rotation.y_axis * scale.y,
                rotation.z_axis * scale.z,
            ),
            translation,
        )
    }
    /// The rotation, then the translation.
    #[inline(always)]
    pub fn from_rotation_translation(rotation: GQuat<F, T>, translation: GVec3<F, T>) -> Self {
        Self::of(GMat3::from_quat(rotation), translation)
    }
    /// The affine part of a 4×4 matrix: its columns' first three components.
    #[inline(always)]
    pub fn from_mat4(m: GMat4<F, T>) -> Self {
        Self::of(
            GMat3::from_cols(m.x_axis.xyz(), m.y_axis.xyz(), m.z_axis.xyz()),
            m.w_axis.xyz(),
        )
    }
    /// A right-handed view transform looking along `dir` (normalised here, as glam's
    /// `DAffine3` does) from `eye`.
    #[inline(always)]
    pub fn look_to_rh(eye: GVec3<F, T>, dir: GVec3<F, T>, up: GVec3<F, T>) -> Self {
        let f = dir.normalize();
        let s = f.cross(up).normalize();
        let u = s.cross(f);
        Self::of(
            GMat3::from_cols(
                GVec3::new(s.x, u.x, -f.x),
                GVec3::new(s.y, u.y, -f.y),
                GVec3::new(s.z, u.z, -f.z),
            ),
            GVec3::new(-eye.dot(s), -eye.dot(u), eye.dot(f)),
        )
    }
    /// A left-handed view transform looking along `dir`.
    #[inline(always)]
    pub fn look_to_lh(eye: GVec3<F, T>, dir: GVec3<F, T>, up: GVec3<F, T>) -> Self {
        Self::look_to_rh(eye, -dir, up)
    }
    /// A right-handed view transform looking at `center` from `eye`.
    #[inline(always)]
    pub fn look_at_rh(eye: GVec3<F, T>, center: GVec3<F, T>, up: GVec3<F, T>) -> Self {
        Self::look_to_rh(eye, center - eye, up)
    }
    /// A left-handed view transform looking at `center` from `eye`.
    #[inline(always)]
    pub fn look_at_lh(eye: GVec3<F, T>, center: GVec3<F, T>, up: GVec3<F, T>) -> Self {
        Self::look_to_lh(eye, center - eye, up)
    }
    /// `M p + t`, summed as glam's.
    #[inline(always)]
    pub fn transform_point3(self, rhs: GVec3<F, T>) -> GVec3<F, T> {
        (self.matrix3.x_axis * rhs.x)
            + (self.matrix3.y_axis * rhs.y)
            + (self.matrix3.z_axis * rhs.z)
            + self.translation
    }
    /// `M v`.
    #[inline(always)]
    pub fn transform_vector3(self, rhs: GVec3<F, T>) -> GVec3<F, T> {
        (self.matrix3.x_axis * rhs.x)
            + (self.matrix3.y_axis * rhs.y)
            + (self.matrix3.z_axis * rhs.z)
    }
    /// `M p + t` of a `Vec3A` (`Affine3A`'s).
    #[inline(always)]
    pub fn transform_point3a(self, rhs: GVec3A<F, T>) -> GVec3A<F, T> {
        let p = self.transform_point3(GVec3::new(rhs.x, rhs.y, rhs.z));
        GVec3A {
            x: p.x,
            y: p.y,
            z: p.z,
        }
    }
    /// `M v` of a `Vec3A` (`Affine3A`'s).
    #[inline(always)]
    pub fn transform_vector3a(self, rhs: GVec3A<F, T>) -> GVec3A<F, T> {
        let v = self.transform_vector3(GVec3::new(rhs.x, rhs.y, rhs.z));
        GVec3A {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
    /// The inverse transform: `M⁻¹` and `−M⁻¹ t`.
    #[inline(always)]
    pub fn inverse(self) -> Self {
        let matrix3 = self.matrix3.inverse();
        let translation = -(matrix3 * self.translation);
        Self::of(matrix3, translation)
    }
}

/// `A B`: `B` first.
impl<F: GlamFloat, T: ScalarTangent<F>> Mul for GAffine3<F, T> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::of(
            self.matrix3 * rhs.matrix3,
            self.matrix3 * rhs.translation + self.translation,
        )
    }
}

impl<F: GlamFloat, T: ScalarTangent<F>> MulAssign for GAffine3<F, T> {
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}

/// The 4×4 matrix of an affine transform (glam's `DMat4::from(affine)`).
impl<F: GlamFloat, T: ScalarTangent<F>> From<GAffine3<F, T>> for GMat4<F, T> {
    #[inline(always)]
    fn from(m: GAffine3<F, T>) -> Self {
        let (z, o) = (c::<F, T>(0.0), c::<F, T>(1.0));
        GMat4::from_cols(
            m.matrix3.x_axis.extend(z),
            m.matrix3.y_axis.extend(z),
            m.matrix3.z_axis.extend(z),
            m.translation.extend(o),
        )
    }
}

/// `A M` as 4×4 matrices.
impl<F: GlamFloat, T: ScalarTangent<F>> Mul<GMat4<F, T>> for GAffine3<F, T> {
    type Output = GMat4<F, T>;
    #[inline(always)]
    fn mul(self, rhs: GMat4<F, T>) -> GMat4<F, T> {
        GMat4::from(self) * rhs
    }
}

/// `M A` as 4×4 matrices.
impl<F: GlamFloat, T: ScalarTangent<F>> Mul<GAffine3<F, T>> for GMat4<F, T> {
    type Output = GMat4<F, T>;
    #[inline(always)]
    fn mul(self, rhs: GAffine3<F, T>) -> GMat4<F, T> {
        self * GMat4::from(rhs)
    }
}

// ---------------------------------------------------------------------------------------
// glam's types as parameters: tangents and lifting.
// ---------------------------------------------------------------------------------------

/// glam's value and its tangent in mode `S` as the mirror over duals, component by
/// component.
trait WithTangent<S: Mode> {
    type Tangent;
    type Mirror;
    fn with_tangent(self, t: Self::Tangent) -> Self::Mirror;
}

macro_rules! glam_type {
    ($G:ident, $V:ident, $F:ident, $T:ty, $n:literal, |$g:ident| [$($get:expr),*], |$a:ident| $make:expr, |$m:ident| [$($part:expr),*], |$arr:ident| $from:expr) => {
        /// The whole value's dual: what a derived function returns.
        impl<S: Mode> $crate::lift::Unlift<S> for $V<S> {
            type Output = Dual<glam::$G, [$T; $n]>;
            #[inline(always)]
            fn unlift(self) -> Dual<glam::$G, [$T; $n]> {
                let $m = self;
                let parts: [D<$F, $T>; $n] = [$($part),*];
                let $arr = parts.map(|d| d.primal);
                Dual::new($from, parts.map(|d| d.tangent))
            }
        }
        impl<S: Mode> $crate::lift::Unlift<S> for &$V<S> {
            type Output = Dual<glam::$G, [$T; $n]>;
            #[inline(always)]
            fn unlift(self) -> Dual<glam::$G, [$T; $n]> {
                $crate::lift::Unlift::<S>::unlift(*self)
            }
        }
        /// A local array of values (`let ctrl = [DVec2::new(..), ..]`) passed on as one:
        /// the dual of the array.
        impl<S: Mode, const N: usize> $crate::lift::Unlift<S> for &[$V<S>; N] {
            type Output = Dual<[glam::$G; N], [[$T; $n]; N]>;
            #[inline(always)]
            fn unlift(self) -> Self::Output {
                let parts = self.map($crate::lift::Unlift::<S>::unlift);
                Dual::new(parts.map(|d| d.primal), parts.map(|d| d.tangent))
            }
        }
        impl<S: Mode, const N: usize> $crate::lift::Unlift<S> for [$V<S>; N] {
            type Output = Dual<[glam::$G; N], [[$T; $n]; N]>;
            #[inline(always)]
            fn unlift(self) -> Self::Output {
                $crate::lift::Unlift::<S>::unlift(&self)
            }
        }
        /// A `Vec` of values, as the dual of the `Vec`.
        impl<S: Mode> $crate::lift::Unlift<S> for &Vec<$V<S>> {
            type Output = Dual<Vec<glam::$G>, Vec<[$T; $n]>>;
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
            type Output = Dual<Vec<glam::$G>, Vec<[$T; $n]>>;
            fn unlift(self) -> Self::Output {
                $crate::lift::Unlift::<S>::unlift(&self)
            }
        }
        /// A slice parameter of values (`ctrl: &[DVec2]`) as values over duals
        /// (`ctrl.to_vec()`).
        impl<'a, S: Mode> $crate::lift::Lift<S> for Dual<&'a [glam::$G], &'a [[$T; $n]]> {
            type Output = Vec<$V<S>>;
            fn lift(self) -> Vec<$V<S>> {
                self.primal.iter().zip(self.tangent).map(|(p, t)| WithTangent::<S>::with_tangent(*p, *t)).collect()
            }
        }
        /// Its tangent: one per component, in glam's component order.
        impl Differentiable for glam::$G {
            type Tangent = [$F; $n];
            type TangentIn<S: Mode> = [$T; $n];
        }
        impl $crate::traits::UserValue for glam::$G {}
        /// Through a `dyn` call: the components' lanes.
        impl $crate::traits::LaneValue for glam::$G {
            #[inline]
            fn lane1<S: Mode>(t: &[$T; $n], k: usize) -> <Self as Differentiable>::TangentIn<f64> {
                <[$F; $n] as $crate::traits::LaneValue>::lane1::<S>(t, k)
            }
            #[inline]
            fn lane2<S: Mode>(
                t: &[$T; $n],
                k: usize,
            ) -> <Self as Differentiable>::TangentIn<$crate::Hyper<f64, f64>> {
                <[$F; $n] as $crate::traits::LaneValue>::lane2::<S>(t, k)
            }
            #[inline]
            fn set_lane1<S: Mode>(
                t: &mut [$T; $n],
                k: usize,
                v: &<Self as Differentiable>::TangentIn<f64>,
            ) {
                <[$F; $n] as $crate::traits::LaneValue>::set_lane1::<S>(t, k, v)
            }
            #[inline]
            fn set_lane2<S: Mode>(
                t: &mut [$T; $n],
                k: usize,
                v: &<Self as Differentiable>::TangentIn<$crate::Hyper<f64, f64>>,
            ) {
                <[$F; $n] as $crate::traits::LaneValue>::set_lane2::<S>(t, k, v)
            }
        }
        impl ZeroTangent for glam::$G {
            #[inline(always)]
            fn zero_tangent(&self) -> [$F; $n] {
                [0.0; $n]
            }
            #[inline(always)]
            fn zero_tangent_in<S: Mode>(&self) -> [$T; $n] {
                [<$T as ScalarTangent<$F>>::zero(); $n]
            }
        }
        impl<S: Mode> WithTangent<S> for glam::$G {
            type Tangent = [$T; $n];
            type Mirror = $V<S>;
            #[inline(always)]
            fn with_tangent(self, t: [$T; $n]) -> $V<S> {
                let $g = self;
                let p = [$($get),*];
                let $a: [D<$F, $T>; $n] = core::array::from_fn(|i| Dual::new(p[i], t[i]));
                $make
            }
        }
        /// A constant.
        impl<S: Mode> $crate::lift::Lift<S> for glam::$G {
            type Output = $V<S>;
            #[inline(always)]
            fn lift(self) -> $V<S> {
                WithTangent::<S>::with_tangent(self, [<$T as ScalarTangent<$F>>::zero(); $n])
            }
        }
        /// A constant.
        impl<S: Mode> $crate::lift::Lift<S> for &glam::$G {
            type Output = $V<S>;
            #[inline(always)]
            fn lift(self) -> $V<S> {
                WithTangent::<S>::with_tangent(*self, [<$T as ScalarTangent<$F>>::zero(); $n])
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
        impl<S: Mode> $crate::lift::Lift<S> for Dual<glam::$G, [$T; $n]> {
            type Output = $V<S>;
            #[inline(always)]
            fn lift(self) -> $V<S> {
                WithTangent::<S>::with_tangent(self.primal, self.tangent)
            }
        }
        /// A parameter taken by reference.
        impl<'a, S: Mode> $crate::lift::Lift<S> for Dual<&'a glam::$G, &'a [$T; $n]> {
            type Output = $V<S>;
            #[inline(always)]
            fn lift(self) -> $V<S> {
                WithTangent::<S>::with_tangent(*self.primal, *self.tangent)
            }
        }
    };
}
/// glam's `f64` type `$D` and `f32` type `$F32`, both mirrored by `$M`.
macro_rules! glam_types {
    ($($D:ident, $F32:ident => $M:ident, $n:literal, |$g:ident| [$($get:expr),*], |$a:ident| $make:expr, |$m:ident| [$($part:expr),*], |$arr:ident| $from:ident($($pre:tt)*);)*) => {$(
        glam_type!($D, $D, f64, S, $n, |$g| [$($get),*], |$a| $make, |$m| [$($part),*], |$arr| glam::$D::$from($($pre)* $arr));
        glam_type!($F32, $F32, f32, S::Of<f32>, $n, |$g| [$($get),*], |$a| $make, |$m| [$($part),*], |$arr| glam::$F32::$from($($pre)* $arr));
    )*};
}
glam_types! {
    DVec2, Vec2 => GVec2, 2, |g| [g.x, g.y], |a| GVec2::new(a[0], a[1]), |m| [m.x, m.y],
        |p| from_array();
    DVec3, Vec3 => GVec3, 3, |g| [g.x, g.y, g.z], |a| GVec3::new(a[0], a[1], a[2]),
        |m| [m.x, m.y, m.z], |p| from_array();
    DVec4, Vec4 => GVec4, 4, |g| [g.x, g.y, g.z, g.w], |a| GVec4::new(a[0], a[1], a[2], a[3]),
        |m| [m.x, m.y, m.z, m.w], |p| from_array();
    DQuat, Quat => GQuat, 4, |g| [g.x, g.y, g.z, g.w],
        |a| GQuat::from_xyzw(a[0], a[1], a[2], a[3]), |m| [m.x, m.y, m.z, m.w], |p| from_array();
    DMat3, Mat3 => GMat3, 9,
        |g| [
            g.x_axis.x, g.x_axis.y, g.x_axis.z, g.y_axis.x, g.y_axis.y, g.y_axis.z, g.z_axis.x,
            g.z_axis.y, g.z_axis.z
        ],
        |a| GMat3::from_cols(
            GVec3::new(a[0], a[1], a[2]),
            GVec3::new(a[3], a[4], a[5]),
            GVec3::new(a[6], a[7], a[8])
        ),
        |m| [
            m.x_axis.x, m.x_axis.y, m.x_axis.z, m.y_axis.x, m.y_axis.y, m.y_axis.z, m.z_axis.x,
            m.z_axis.y, m.z_axis.z
        ],
        |p| from_cols_array(&);
    DMat4, Mat4 => GMat4, 16,
        |g| [
            g.x_axis.x, g.x_axis.y, g.x_axis.z, g.x_axis.w, g.y_axis.x, g.y_axis.y, g.y_axis.z,
            g.y_axis.w, g.z_axis.x, g.z_axis.y, g.z_axis.z, g.z_axis.w, g.w_axis.x, g.w_axis.y,
            g.w_axis.z, g.w_axis.w
        ],
        |a| GMat4::from_cols(
            GVec4::new(a[0], a[1], a[2], a[3]),
            GVec4::new(a[4], a[5], a[6], a[7]),
            GVec4::new(a[8], a[9], a[10], a[11]),
            GVec4::new(a[12], a[13], a[14], a[15])
        ),
        |m| [
            m.x_axis.x, m.x_axis.y, m.x_axis.z, m.x_axis.w, m.y_axis.x, m.y_axis.y, m.y_axis.z,
            m.y_axis.w, m.z_axis.x, m.z_axis.y, m.z_axis.z, m.z_axis.w, m.w_axis.x, m.w_axis.y,
            m.w_axis.z, m.w_axis.w
        ],
        |p| from_cols_array(&);
}
glam_type!(
    DMat2,
    DMat2,
    f64,
    S,
    4,
    |g| [g.x_axis.x, g.x_axis.y, g.y_axis.x, g.y_axis.y],
    |a| GMat2::from_cols(GVec2::new(a[0], a[1]), GVec2::new(a[2], a[3])),
    |m| [m.x_axis.x, m.x_axis.y, m.y_axis.x, m.y_axis.y],
    |p| glam::DMat2::from_cols_array(&p)
);
glam_type!(
    DAffine2,
    DAffine2,
    f64,
    S,
    6,
    |g| [
        g.matrix2.x_axis.x,
        g.matrix2.x_axis.y,
        g.matrix2.y_axis.x,
        g.matrix2.y_axis.y,
        g.translation.x,
        g.translation.y
    ],
    |a| GAffine2::from_cols(
        GVec2::new(a[0], a[1]),
        GVec2::new(a[2], a[3]),
        GVec2::new(a[4], a[5])
    ),
    |m| [
        m.matrix2.x_axis.x,
        m.matrix2.x_axis.y,
        m.matrix2.y_axis.x,
        m.matrix2.y_axis.y,
        m.translation.x,
        m.translation.y
    ],
    |p| glam::DAffine2::from_cols_array(&p)
);
glam_type!(
    DAffine3,
    DAffine3,
    f64,
    S,
    12,
    |g| [
        g.matrix3.x_axis.x,
        g.matrix3.x_axis.y,
        g.matrix3.x_axis.z,
        g.matrix3.y_axis.x,
        g.matrix3.y_axis.y,
        g.matrix3.y_axis.z,
        g.matrix3.z_axis.x,
        g.matrix3.z_axis.y,
        g.matrix3.z_axis.z,
        g.translation.x,
        g.translation.y,
        g.translation.z
    ],
    |a| GAffine3::from_cols(
        GVec3::new(a[0], a[1], a[2]),
        GVec3::new(a[3], a[4], a[5]),
        GVec3::new(a[6], a[7], a[8]),
        GVec3::new(a[9], a[10], a[11])
    ),
    |m| [
        m.matrix3.x_axis.x,
        m.matrix3.x_axis.y,
        m.matrix3.x_axis.z,
        m.matrix3.y_axis.x,
        m.matrix3.y_axis.y,
        m.matrix3.y_axis.z,
        m.matrix3.z_axis.x,
        m.matrix3.z_axis.y,
        m.matrix3.z_axis.z,
        m.translation.x,
        m.translation.y,
        m.translation.z
    ],
    |p| glam::DAffine3::from_cols_array(&p)
);
glam_type!(
    Affine3A,
    Affine3A,
    f32,
    S::Of<f32>,
    12,
    |g| [
        g.matrix3.x_axis.x,
        g.matrix3.x_axis.y,
        g.matrix3.x_axis.z,
        g.matrix3.y_axis.x,
        g.matrix3.y_axis.y,
        g.matrix3.y_axis.z,
        g.matrix3.z_axis.x,
        g.matrix3.z_axis.y,
        g.matrix3.z_axis.z,
        g.translation.x,
        g.translation.y,
        g.translation.z
    ],
    |a| GAffine3::from_cols(
        GVec3::new(a[0], a[1], a[2]),
        GVec3::new(a[3], a[4], a[5]),
        GVec3::new(a[6], a[7], a[8]),
        GVec3::new(a[9], a[10], a[11])
    ),
    |m| [
        m.matrix3.x_axis.x,
        m.matrix3.x_axis.y,
        m.matrix3.x_axis.z,
        m.matrix3.y_axis.x,
        m.matrix3.y_axis.y,
        m.matrix3.y_axis.z,
        m.matrix3.z_axis.x,
        m.matrix3.z_axis.y,
        m.matrix3.z_axis.z,
        m.translation.x,
        m.translation.y,
        m.translation.z
    ],
    |p| glam::Affine3A::from_cols_array(&p)
);
glam_type!(
    Vec3A,
    Vec3A,
    f32,
    S::Of<f32>,
    3,
    |g| [g.x, g.y, g.z],
    |a| GVec3A {
        x: a[0],
        y: a[1],
        z: a[2]
    },
    |m| [m.x, m.y, m.z],
    |p| glam::Vec3A::from_array(p)
);

/// A scalar beside an `f32` glam value in a rule, as an `f32` dual: an `f32` dual as it
/// is, a plain `f32` as a constant, and a literal (typed `f64` by rustc's fallback, as it
/// is left open here) rounded to `f32`.
pub trait F32Scalar<S: Mode> {
    /// The scalar as an `f32` dual.
    fn f32_dual(self) -> D<f32, S::Of<f32>>;
}
impl<S: Mode> F32Scalar<S> for D<f32, S::Of<f32>> {
    #[inline(always)]
    fn f32_dual(self) -> D<f32, S::Of<f32>> {
        self
    }
}
impl<S: Mode> F32Scalar<S> for &D<f32, S::Of<f32>> {
    #[inline(always)]
    fn f32_dual(self) -> D<f32, S::Of<f32>> {
        *self
    }
}
impl<'a, S: Mode> F32Scalar<S> for Dual<&'a f32, &'a S::Of<f32>> {
    #[inline(always)]
    fn f32_dual(self) -> D<f32, S::Of<f32>> {
        self.copied()
    }
}
impl<S: Mode> F32Scalar<S> for f32 {
    #[inline(always)]
    fn f32_dual(self) -> D<f32, S::Of<f32>> {
        Dual::new(self, <S::Of<f32> as ScalarTangent<f32>>::zero())
    }
}
impl<S: Mode> F32Scalar<S> for &f32 {
    #[inline(always)]
    fn f32_dual(self) -> D<f32, S::Of<f32>> {
        F32Scalar::<S>::f32_dual(*self)
    }
}
impl<S: Mode> F32Scalar<S> for f64 {
    #[inline(always)]
    fn f32_dual(self) -> D<f32, S::Of<f32>> {
        F32Scalar::<S>::f32_dual(self as f32)
    }
}

/// `x` as an `f32` dual in mode `S` (see [`F32Scalar`]).
#[inline(always)]
pub fn f32_scalar<S: Mode, X: F32Scalar<S>>(x: X) -> D<f32, S::Of<f32>> {
    x.f32_dual()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::EulerRot as E;

    const ORDERS: [E; 24] = [
        E::XYZ,
        E::XYX,
        E::XZY,
        E::XZX,
        E::YZX,
        E::YZY,
        E::YXZ,
        E::YXY,
        E::ZXY,
        E::ZXZ,
        E::ZYX,
        E::ZYZ,
        E::ZYXEx,
        E::XYXEx,
        E::YZXEx,
        E::XZXEx,
        E::XZYEx,
        E::YZYEx,
        E::ZXYEx,
        E::YXYEx,
        E::YXZEx,
        E::ZXZEx,
        E::XYZEx,
        E::ZYZEx,
    ];
    const ANGLES: [f64; 3] = [0.7, -0.4, 1.3];

    /// The three angles as duals along direction `k` (the unit tangent on angle `k`).
    fn duals(k: usize) -> [D<f64, f64>; 3] {
        core::array::from_fn(|i| Dual::new(ANGLES[i], if i == k { 1.0 } else { 0.0 }))
    }

    /// `∂f/∂angle_k` by central differences of glam's own function.
    fn central<const N: usize>(f: impl Fn([f64; 3]) -> [f64; N], k: usize) -> [f64; N] {
        let h = 1e-6;
        let (mut p, mut m) = (ANGLES, ANGLES);
        p[k] += h;
        m[k] -= h;
        let (fp, fm) = (f(p), f(m));
        core::array::from_fn(|i| (fp[i] - fm[i]) / (2.0 * h))
    }

    fn check<const N: usize>(
        order: E,
        what: &str,
        primal: [f64; N],
        plain: [f64; N],
        t: [f64; N],
        fd: [f64; N],
    ) {
        for i in 0..N {
            assert_eq!(
                primal[i].to_bits(),
                plain[i].to_bits(),
                "{what} {order:?}[{i}]: primal"
            );
            assert!(
                (t[i] - fd[i]).abs() < 1e-7,
                "{what} {order:?}[{i}]: {} vs {}",
                t[i],
                fd[i]
            );
        }
    }

    #[test]
    fn from_euler_matches_glam_and_finite_differences() {
        for order in ORDERS {
            let [a, b, c] = ANGLES;
            let quat = |x: [f64; 3]| glam::DQuat::from_euler(order, x[0], x[1], x[2]).to_array();
            let mat3 =
                |x: [f64; 3]| glam::DMat3::from_euler(order, x[0], x[1], x[2]).to_cols_array();
            let mat4 =
                |x: [f64; 3]| glam::DMat4::from_euler(order, x[0], x[1], x[2]).to_cols_array();
            for k in 0..3 {
                let [x, y, z] = duals(k);
                let q = GQuat::from_euler(order, x, y, z);
                let q = [q.x, q.y, q.z, q.w];
                let (p, t) = (q.map(|d| d.primal), q.map(|d| d.tangent));
                check(order, "DQuat", p, quat([a, b, c]), t, central(quat, k));
                let m = GMat3::from_euler(order, x, y, z);
                let m: Vec<D<f64, f64>> = [m.x_axis, m.y_axis, m.z_axis]
                    .iter()
                    .flat_map(|v| [v.x, v.y, v.z])
                    .collect();
                let p: [f64; 9] = core::array::from_fn(|i| m[i].primal);
                let t: [f64; 9] = core::array::from_fn(|i| m[i].tangent);
                check(order, "DMat3", p, mat3([a, b, c]), t, central(mat3, k));
                let m = GMat4::from_euler(order, x, y, z);
                let m: Vec<D<f64, f64>> = [m.x_axis, m.y_axis, m.z_axis, m.w_axis]
                    .iter()
                    .flat_map(|v| [v.x, v.y, v.z, v.w])
                    .collect();
                let p: [f64; 16] = core::array::from_fn(|i| m[i].primal);
                let t: [f64; 16] = core::array::from_fn(|i| m[i].tangent);
                check(order, "DMat4", p, mat4([a, b, c]), t, central(mat4, k));
            }
        }
    }
}
