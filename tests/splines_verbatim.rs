//! splines 5.0.0 (BSD-3-Clause, Copyright (c) 2019–2024 Dimitri Sabadie,
//! <https://git.sr.ht/~hadronized/splines>, as published on crates.io): splines through
//! keys of any value type `V: Interpolate<T>` sampled at any `T: Interpolator`, the
//! interpolations (step, linear, cosine, cubic Hermite of Catmull-Rom, quadratic, cubic and
//! mirrored Bézier) written for `f32` and `f64` by the crate's `macro_rules!`
//! (`impl_Interpolate!`), the segment found by `binary_search_by`. `src/interpolate.rs`,
//! `src/interpolation.rs`, `src/iter.rs`, `src/key.rs` and `src/spline.rs` copied whole,
//! module by module under the crate's own paths, with `src/lib.rs`'s re-exports;
//! `#[fwdad::derive_frule]` added on the traits `Interpolator` and `Interpolate<T>` and on
//! the `impl`s `impl_Interpolator!` and `impl_Interpolate!` write. The `cfg`s on the
//! crate's feature `std` (on by default) are taken as on, each left as a comment.
//!
//! Walls (docs/limits.md): `impl<T, V> Spline<T, V>` (`sample`, `clamped_sample`, ..),
//! `impl<T, V> Key<T, V>` and `search_lower_cp` stay plain: their `T` and `V` are not
//! float types but a time bounded by `Interpolator` and a value bounded by
//! `Interpolate<T>`, which a derived function's type parameters cannot be
//! (`tests/ui/derive_frule/generic-value-type-param.rs`); `impl_InterpolateT!`'s `impl
//! Interpolate<f32> for f64` stays plain too, a second derived `impl` of the generic trait
//! for `f64` (`generic-trait-implemented-twice`).
//!
//! The interpolations' derivatives in the keys, their times and the sampling parameter,
//! called as a user of the trait calls them (`<f64 as Interpolate<f64>>::cubic_hermite`),
//! are checked against the Hermite and Bernstein bases and their slopes and central
//! differences of the published crate's (a dev-dependency) `Interpolate` for `f64`, and
//! the published `Spline::sample` of the same keys, in one direction, in batches and at
//! second order; primals bit for bit against the published crate.

#![allow(
    clippy::all,
    unexpected_cfgs,
    dead_code,
    unused_imports,
    mismatched_lifetime_syntaxes
)]

mod common;

// `src/lib.rs`'s modules and re-exports (its `cgmath`, `glam` and `nalgebra` modules are
// behind features off by default).
pub use crate::interpolate::Interpolate;
pub use crate::interpolation::Interpolation;
pub use crate::key::Key;
pub use crate::spline::Spline;

/// `src/interpolate.rs`.
#[rustfmt::skip]
pub mod interpolate {
//! The [`Interpolate`] trait and associated symbols.
//!
//! The [`Interpolate`] trait is the central concept of the crate. It enables a spline to be
//! sampled at by interpolating in between control points.
//!
//! In order for a type to be used in [`Spline<K, V>`], some properties must be met about the `K`
//! type must implementing several traits:
//!
//!   - [`One`], giving a neutral element for the multiplication monoid.
//!   - [`Additive`], making the type additive (i.e. one can add or subtract with it).
//!   - [`Linear`], unlocking linear combinations, required for interpolating.
//!   - [`Trigo`], a trait giving *π* and *cosine*, required for e.g. cosine interpolation.
//!
//! Feel free to have a look at current implementors for further help.
//!
//! > *Why doesn’t this crate use [num-traits] instead of
//! > defining its own traits?*
//!
//! The reason for this is quite simple: this crate provides a `no_std` support, which is not
//! currently available easily with [num-traits]. Also, if something changes in [num-traits] with
//! those traits, it would make this whole crate unstable.
//!
//! [`Interpolate`]: crate::interpolate::Interpolate
//! [`Spline<K, V>`]: crate::spline::Spline
//! [`One`]: crate::interpolate::One
//! [`Additive`]: crate::interpolate::Additive
//! [`Linear`]: crate::interpolate::Linear
//! [`Trigo`]: crate::interpolate::Trigo
//! [num-traits]: https://crates.io/crates/num-traits

/// Types that can be used as interpolator in splines.
///
/// An interpolator value is like the fabric on which control keys (and sampled values) live on.
#[fwdad::derive_frule]
pub trait Interpolator: Sized + Copy + PartialOrd {
  /// Normalize the interpolator.
  fn normalize(self, start: Self, end: Self) -> Self;
}

macro_rules! impl_Interpolator {
  ($t:ty) => {
    #[fwdad::derive_frule]
    impl Interpolator for $t {
      fn normalize(self, start: Self, end: Self) -> Self {
        (self - start) / (end - start)
      }
    }
  };
}

impl_Interpolator!(f32);
impl_Interpolator!(f64);

/// Values that can be interpolated. Implementing this trait is required to perform sampling on splines.
///
/// `T` is the interpolator used to sample with. Typical implementations use [`f32`] or [`f64`].
#[fwdad::derive_frule]
pub trait Interpolate<T>: Sized + Copy {
  /// Step interpolation.
  fn step(t: T, threshold: T, a: Self, b: Self) -> Self;

  /// Linear interpolation.
  fn lerp(t: T, a: Self, b: Self) -> Self;

  /// Cosine interpolation.
  fn cosine(t: T, a: Self, b: Self) -> Self;

  /// Cubic hermite interpolation.
  fn cubic_hermite(t: T, x: (T, Self), a: (T, Self), b: (T, Self), y: (T, Self)) -> Self;

  /// Quadratic Bézier interpolation.
  ///
  /// `a` is the first point; `b` is the second point and `u` is the tangent of `a` to the curve.
  fn quadratic_bezier(t: T, a: Self, u: Self, b: Self) -> Self;

  /// Cubic Bézier interpolation.
  ///
  /// `a` is the first point; `b` is the second point; `u` is the output tangent of `a` to the curve and `v` is the
  /// input tangent of `b` to the curve.
  fn cubic_bezier(t: T, a: Self, u: Self, v: Self, b: Self) -> Self;

  /// Cubic Bézier interpolation – special case for non-explicit second tangent.
  ///
  /// This version does the same computation as [`Interpolate::cubic_bezier`] but computes the second tangent by
  /// inversing it (typical when the next point uses a Bézier interpolation, where input and output tangents are
  /// mirrored for the same key).
  fn cubic_bezier_mirrored(t: T, a: Self, u: Self, v: Self, b: Self) -> Self;
}

#[macro_export]
macro_rules! impl_Interpolate {
  ($t:ty, $v:ty, $pi:expr) => {
    // prevents implementing Interpolate if none of "std" or "num-traits" is provided
    // `#[cfg(any(feature = "std", feature = "num-traits"))]`: on, the crate's default feature `std`.
    #[fwdad::derive_frule]
    impl $crate::interpolate::Interpolate<$t> for $v {
      fn step(t: $t, threshold: $t, a: Self, b: Self) -> Self {
        if t < threshold { a } else { b }
      }

      fn cosine(t: $t, a: Self, b: Self) -> Self {
        // `#[cfg(feature = "std")]`: on.
        let cos_nt = (1. - (t * $pi).cos()) * 0.5;
        #[cfg(all(not(feature = "std"), feature = "num-traits"))]
        let cos_nt = (1. - num_traits::Float::cos(t * $pi)) * 0.5;
        <Self as $crate::interpolate::Interpolate<$t>>::lerp(cos_nt, a, b)
      }

      fn lerp(t: $t, a: Self, b: Self) -> Self {
        a * (1. - t) + b * t
      }

      fn cubic_hermite(t: $t, x: ($t, Self), a: ($t, Self), b: ($t, Self), y: ($t, Self)) -> Self {
        // sampler stuff
        let two_t = t * 2.;
        let three_t = t * 3.;
        let t2 = t * t;
        let t3 = t2 * t;
        let two_t3 = t2 * two_t;
        let two_t2 = t * two_t;
        let three_t2 = t * three_t;

        // tangents
        let m0 = (b.1 - x.1) / (b.0 - x.0) * (b.0 - a.0);
        let m1 = (y.1 - a.1) / (y.0 - a.0) * (b.0 - a.0);

        a.1 * (two_t3 - three_t2 + 1.)
          + m0 * (t3 - two_t2 + t)
          + b.1 * (three_t2 - two_t3)
          + m1 * (t3 - t2)
      }

      fn quadratic_bezier(t: $t, a: Self, u: Self, b: Self) -> Self {
        let one_t = 1. - t;
        let one_t2 = one_t * one_t;

        u + (a - u) * one_t2 + (b - u) * t * t
      }

      fn cubic_bezier(t: $t, a: Self, u: Self, v: Self, b: Self) -> Self {
        let one_t = 1. - t;
        let one_t2 = one_t * one_t;
        let one_t3 = one_t2 * one_t;
        let t2 = t * t;

        a * one_t3 + (u * one_t2 * t + v * one_t * t2) * 3. + b * t2 * t
      }

      fn cubic_bezier_mirrored(t: $t, a: Self, u: Self, v: Self, b: Self) -> Self {
        <Self as $crate::interpolate::Interpolate<$t>>::cubic_bezier(t, a, u, b + b - v, b)
      }
    }
  };
}

#[macro_export]
macro_rules! impl_InterpolateT {
  ($t:ty, $v:ty, $pi:expr) => {
    // prevents implementing Interpolate of none of "std" or "num-traits" is provided
    // `#[cfg(any(feature = "std", feature = "num-traits"))]`: on, the crate's default feature `std`.
    impl $crate::interpolate::Interpolate<$t> for $v {
      fn step(t: $t, threshold: $t, a: Self, b: Self) -> Self {
        if t < threshold { a } else { b }
      }

      fn cosine(t: $t, a: Self, b: Self) -> Self {
        // `#[cfg(feature = "std")]`: on.
        let cos_nt = (1. - (t * $pi).cos()) * 0.5;
        #[cfg(all(not(feature = "std"), feature = "num-traits"))]
        let cos_nt = (1. - num_traits::Float::cos(t * $pi)) * 0.5;
        <Self as $crate::interpolate::Interpolate<$t>>::lerp(cos_nt, a, b)
      }

      fn lerp(t: $t, a: Self, b: Self) -> Self {
        let t = Self::from(t);
        a * (1. - t) + b * t
      }

      fn cubic_hermite(t: $t, x: ($t, Self), a: ($t, Self), b: ($t, Self), y: ($t, Self)) -> Self {
        // sampler stuff
        let t = Self::from(t);
        let two_t = t * 2.;
        let three_t = t * 3.;
        let t2 = t * t;
        let t3 = t2 * t;
        let two_t3 = t2 * two_t;
        let two_t2 = t * two_t;
        let three_t2 = t * three_t;

        // tangents
        let m0 = (b.1 - x.1) / (Self::from(b.0 - x.0)) * (Self::from(b.0 - a.0));
        let m1 = (y.1 - a.1) / (Self::from(y.0 - a.0)) * (Self::from(b.0 - a.0));

        a.1 * (two_t3 - three_t2 + 1.)
          + m0 * (t3 - two_t2 + t)
          + b.1 * (three_t2 - two_t3)
          + m1 * (t3 - t2)
      }

      fn quadratic_bezier(t: $t, a: Self, u: Self, b: Self) -> Self {
        let t = Self::from(t);
        let one_t = 1. - t;
        let one_t2 = one_t * one_t;

        u + (a - u) * one_t2 + (b - u) * t * t
      }

      fn cubic_bezier(t: $t, a: Self, u: Self, v: Self, b: Self) -> Self {
        let t = Self::from(t);
        let one_t = 1. - t;
        let one_t2 = one_t * one_t;
        let one_t3 = one_t2 * one_t;
        let t2 = t * t;

        a * one_t3 + (u * one_t2 * t + v * one_t * t2) * 3. + b * t2 * t
      }

      fn cubic_bezier_mirrored(t: $t, a: Self, u: Self, v: Self, b: Self) -> Self {
        <Self as $crate::interpolate::Interpolate<$t>>::cubic_bezier(t, a, u, b + b - v, b)
      }
    }
  };
}

impl_Interpolate!(f32, f32, core::f32::consts::PI);
impl_Interpolate!(f64, f64, core::f64::consts::PI);
impl_InterpolateT!(f32, f64, core::f32::consts::PI);
}

/// `src/interpolation.rs`.
#[rustfmt::skip]
pub mod interpolation {
//! Available interpolation modes.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Available kind of interpolations.
///
/// Feel free to visit each variant for more documentation.
#[non_exhaustive]
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
#[cfg_attr(
  feature = "serde",
  derive(Deserialize, Serialize),
  serde(rename_all = "snake_case")
)]
pub enum Interpolation<T, V> {
  /// Hold a [`Key`] until the sampling value passes the normalized step threshold, in which
  /// case the next key is used.
  ///
  /// > Note: if you set the threshold to `0.5`, the first key will be used until half the time
  /// > between the two keys; the second key will be in used afterwards. If you set it to `1.0`, the
  /// > first key will be kept until the next key. Set it to `0.` and the first key will never be
  /// > used.
  ///
  /// [`Key`]: crate::key::Key
  Step(T),

  /// Linear interpolation between a key and the next one.
  Linear,

  /// Cosine interpolation between a key and the next one.
  Cosine,

  /// Catmull-Rom interpolation, performing a cubic Hermite interpolation using four keys.
  ///
  /// # Notes
  ///
  /// Given four keys `P0`, `P1`, `P2` and `P3`, interpolated values are only possible between
  /// `P1` and `P2`. Trying to sample before `P1` and after `P2` will result with no values, as
  /// four keys (one before the beginning key, the beginning key, the end key and one after the
  /// end key) are required to perform interpolation.
  ///
  /// This requires uniform spacing.
  CatmullRom,

  /// Bézier interpolation.
  ///
  /// A control point that uses such an interpolation is associated with an extra point. The segment
  /// connecting both is called the _tangent_ at this point. The part of the spline defined between
  /// this control point and the next one will be interpolated across with Bézier interpolation. Two
  /// cases are possible:
  ///
  /// - The next control point also has a Bézier interpolation mode. In this case, its tangent is
  ///   used for the interpolation process. This is called _cubic Bézier interpolation_ and it
  ///   kicks ass.
  /// - The next control point doesn’t have a Bézier interpolation mode set. In this case, the
  ///   tangent used for the next control point is defined as the segment connecting that control
  ///   point and the current control point’s associated point. This is called _quadratic Bézer
  ///   interpolation_ and it kicks ass too, but a bit less than cubic.
  Bezier(V),

  /// A special Bézier interpolation using an _input tangent_ and an _output tangent_.
  ///
  /// With this kind of interpolation, a control point has an input tangent, which has the same role
  /// as the one defined by [`Interpolation::Bezier`], and an output tangent, which has the same
  /// role defined by the next key’s [`Interpolation::Bezier`] if present, normally.
  ///
  /// What it means is that instead of setting the output tangent as the next key’s Bézier tangent,
  /// this interpolation mode allows you to manually set the output tangent. That will yield more
  /// control on the tangents but might generate discontinuities. Use with care.
  ///
  /// Stroke Bézier interpolation is always a cubic Bézier interpolation by default.
  StrokeBezier(V, V),
}

impl<T, V> Default for Interpolation<T, V> {
  /// [`Interpolation::Linear`] is the default.
  fn default() -> Self {
    Interpolation::Linear
  }
}
}

/// `src/iter.rs`.
#[rustfmt::skip]
pub mod iter {
//! Spline [`Iterator`], in a nutshell.
//!
//! You can iterate over a [`Spline<K, V>`]’s keys with the [`IntoIterator`] trait on
//! `&Spline<K, V>`. This gives you iterated [`Key<K, V>`] keys.
//!
//! [`Spline<K, V>`]: crate::spline::Spline
//! [`Key<K, V>`]: crate::key::Key

use crate::{Key, Spline};

/// Iterator over spline keys.
///
/// This iterator type is guaranteed to iterate over sorted keys.
pub struct Iter<'a, T, V>
where
  T: 'a,
  V: 'a,
{
  spline: &'a Spline<T, V>,
  i: usize,
}

impl<'a, T, V> Iterator for Iter<'a, T, V> {
  type Item = &'a Key<T, V>;

  fn next(&mut self) -> Option<Self::Item> {
    let r = self.spline.0.get(self.i);

    if r.is_some() {
      self.i += 1;
    }

    r
  }
}

impl<'a, T, V> IntoIterator for &'a Spline<T, V> {
  type Item = &'a Key<T, V>;
  type IntoIter = Iter<'a, T, V>;

  fn into_iter(self) -> Self::IntoIter {
    Self::IntoIter { spline: self, i: 0 }
  }
}
}

/// `src/key.rs`.
#[rustfmt::skip]
pub mod key {
//! Spline control points.
//!
//! A control point associates to a “sampling value” (a.k.a. time) a carried value that can be
//! interpolated along the curve made by the control points.
//!
//! Splines constructed with this crate have the property that it’s possible to change the
//! interpolation mode on a key-based way, allowing you to implement and encode complex curves.

use crate::interpolation::Interpolation;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A spline control point.
///
/// This type associates a value at a given interpolation parameter value. It also contains an
/// interpolation mode used to determine how to interpolate values on the segment defined by this
/// key and the next one – if existing. Have a look at [`Interpolation`] for further details.
///
/// [`Interpolation`]: crate::interpolation::Interpolation
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
#[cfg_attr(
  feature = "serde",
  derive(Deserialize, Serialize),
  serde(rename_all = "snake_case")
)]
pub struct Key<T, V> {
  /// Interpolation parameter at which the [`Key`] should be reached.
  pub t: T,
  /// Carried value.
  pub value: V,
  /// Interpolation mode.
  pub interpolation: Interpolation<T, V>,
}

impl<T, V> Key<T, V> {
  /// Create a new key.
  pub fn new(t: T, value: V, interpolation: Interpolation<T, V>) -> Self {
    Key {
      t,
      value,
      interpolation,
    }
  }
}
}

/// `src/spline.rs`.
#[rustfmt::skip]
pub mod spline {
//! Spline curves and operations.

use crate::interpolate::{Interpolate, Interpolator};
use crate::interpolation::Interpolation;
use crate::key::Key;
// `#[cfg(not(feature = "std"))] use alloc::vec::Vec;`: off, the crate's default feature `std`.
use core::cmp::Ordering;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Spline curve used to provide interpolation between control points (keys).
///
/// Splines are made out of control points ([`Key`]). When creating a [`Spline`] with
/// [`Spline::from_vec`] or [`Spline::from_iter`], the keys don’t have to be sorted (they are sorted
/// automatically by the sampling value).
///
/// You can sample from a spline with several functions:
///
///   - [`Spline::sample`]: allows you to sample from a spline. If not enough keys are available
///     for the required interpolation mode, you get `None`.
///   - [`Spline::clamped_sample`]: behaves like [`Spline::sample`] but will return either the first
///     or last key if out of bound; it will return `None` if not enough key.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(Deserialize, Serialize))]
pub struct Spline<T, V>(pub(crate) Vec<Key<T, V>>);

impl<T, V> Spline<T, V> {
  /// Internal sort to ensure invariant of sorting keys is valid.
  fn internal_sort(&mut self)
  where
    T: PartialOrd,
  {
    self
      .0
      .sort_by(|k0, k1| k0.t.partial_cmp(&k1.t).unwrap_or(Ordering::Less));
  }

  /// Create a new spline out of keys. The keys don’t have to be sorted even though it’s recommended
  /// to provide ascending sorted ones (for performance purposes).
  pub fn from_vec(keys: Vec<Key<T, V>>) -> Self
  where
    T: PartialOrd,
  {
    let mut spline = Spline(keys);
    spline.internal_sort();
    spline
  }

  /// Clear the spline by removing all keys. Keeps the underlying allocated storage, so adding
  /// new keys should be faster than creating a new [`Spline`]
  #[inline]
  pub fn clear(&mut self) {
    self.0.clear()
  }

  /// Retrieve the keys of a spline.
  pub fn keys(&self) -> &[Key<T, V>] {
    &self.0
  }

  /// Number of keys.
  #[inline(always)]
  pub fn len(&self) -> usize {
    self.0.len()
  }

  /// Check whether the spline has no key.
  #[inline(always)]
  pub fn is_empty(&self) -> bool {
    self.0.is_empty()
  }

  /// Sample a spline at a given time, returning the interpolated value along with its associated
  /// key.
  ///
  /// The current implementation, based on immutability, cannot perform in constant time. This means
  /// that sampling’s processing complexity is currently *O(log n)*. It’s possible to achieve *O(1)*
  /// performance by using a slightly different spline type. If you are interested by this feature,
  /// an implementation for a dedicated type is foreseen yet not started yet.
  ///
  /// # Return
  ///
  /// `None` if you try to sample a value at a time that has no key associated with. That can also
  /// happen if you try to sample between two keys with a specific interpolation mode that makes the
  /// sampling impossible. For instance, [`Interpolation::CatmullRom`] requires *four* keys. If
  /// you’re near the beginning of the spline or its end, ensure you have enough keys around to make
  /// the sampling.
  pub fn sample_with_key(&self, t: T) -> Option<SampledWithKey<V>>
  where
    T: Interpolator,
    V: Interpolate<T>,
  {
    let keys = &self.0;
    let i = search_lower_cp(keys, t)?;
    let cp0 = &keys[i];

    let value = match cp0.interpolation {
      Interpolation::Step(threshold) => {
        let cp1 = &keys[i + 1];
        let nt = t.normalize(cp0.t, cp1.t);
        let value = V::step(nt, threshold, cp0.value, cp1.value);

        Some(value)
      }

      Interpolation::Linear => {
        let cp1 = &keys[i + 1];
        let nt = t.normalize(cp0.t, cp1.t);
        let value = V::lerp(nt, cp0.value, cp1.value);

        Some(value)
      }

      Interpolation::Cosine => {
        let cp1 = &keys[i + 1];
        let nt = t.normalize(cp0.t, cp1.t);
        let value = V::cosine(nt, cp0.value, cp1.value);

        Some(value)
      }

      Interpolation::CatmullRom => {
        // We need at least four points for Catmull Rom; ensure we have them, otherwise, return
        // None.
        if i == 0 || i >= keys.len() - 2 {
          None
        } else {
          let cp1 = &keys[i + 1];
          let cpm0 = &keys[i - 1];
          let cpm1 = &keys[i + 2];
          let nt = t.normalize(cp0.t, cp1.t);
          let value = V::cubic_hermite(
            nt,
            (cpm0.t, cpm0.value),
            (cp0.t, cp0.value),
            (cp1.t, cp1.value),
            (cpm1.t, cpm1.value),
          );

          Some(value)
        }
      }

      Interpolation::Bezier(u) | Interpolation::StrokeBezier(_, u) => {
        // We need to check the next control point to see whether we want quadratic or cubic Bezier.
        let cp1 = &keys[i + 1];
        let nt = t.normalize(cp0.t, cp1.t);

        let value = match cp1.interpolation {
          Interpolation::Bezier(v) => V::cubic_bezier_mirrored(nt, cp0.value, u, v, cp1.value),

          Interpolation::StrokeBezier(v, _) => V::cubic_bezier(nt, cp0.value, u, v, cp1.value),

          _ => V::quadratic_bezier(nt, cp0.value, u, cp1.value),
        };

        Some(value)
      }
    };

    value.map(|value| SampledWithKey { value, key: i })
  }

  /// Sample a spline at a given time.
  ///
  pub fn sample(&self, t: T) -> Option<V>
  where
    T: Interpolator,
    V: Interpolate<T>,
  {
    self.sample_with_key(t).map(|sampled| sampled.value)
  }

  /// Sample a spline at a given time with clamping, returning the interpolated value along with its
  /// associated key.
  ///
  /// # Return
  ///
  /// If you sample before the first key or after the last one, return the first key or the last
  /// one, respectively. Otherwise, behave the same way as [`Spline::sample`].
  ///
  /// # Error
  ///
  /// This function returns [`None`] if you have no key.
  pub fn clamped_sample_with_key(&self, t: T) -> Option<SampledWithKey<V>>
  where
    T: Interpolator,
    V: Interpolate<T>,
  {
    if self.0.is_empty() {
      return None;
    }

    self.sample_with_key(t).or_else(move || {
      let first = self.0.first().unwrap();

      if t <= first.t {
        let sampled = SampledWithKey {
          value: first.value,
          key: 0,
        };
        Some(sampled)
      } else {
        let last = self.0.last().unwrap();

        if t >= last.t {
          let sampled = SampledWithKey {
            value: last.value,
            key: self.0.len() - 1,
          };
          Some(sampled)
        } else {
          None
        }
      }
    })
  }

  /// Sample a spline at a given time with clamping.
  pub fn clamped_sample(&self, t: T) -> Option<V>
  where
    T: Interpolator,
    V: Interpolate<T>,
  {
    self.clamped_sample_with_key(t).map(|sampled| sampled.value)
  }

  /// Add a key into the spline.
  pub fn add(&mut self, key: Key<T, V>)
  where
    T: PartialOrd,
  {
    self.0.push(key);
    self.internal_sort();
  }

  /// Remove a key from the spline.
  pub fn remove(&mut self, index: usize) -> Option<Key<T, V>> {
    if index >= self.0.len() {
      None
    } else {
      Some(self.0.remove(index))
    }
  }

  /// Update a key and return the key already present.
  ///
  /// The key is updated — if present — with the provided function.
  ///
  /// # Notes
  ///
  /// That function makes sense only if you want to change the interpolator (i.e. [`Key::t`]) of
  /// your key. If you just want to change the interpolation mode or the carried value, consider
  /// using the [`Spline::get_mut`] method instead as it will be way faster.
  pub fn replace<F>(&mut self, index: usize, f: F) -> Option<Key<T, V>>
  where
    F: FnOnce(&Key<T, V>) -> Key<T, V>,
    T: PartialOrd,
  {
    let key = self.remove(index)?;
    self.add(f(&key));
    Some(key)
  }

  /// Get a key at a given index.
  pub fn get(&self, index: usize) -> Option<&Key<T, V>> {
    self.0.get(index)
  }

  /// Mutably get a key at a given index.
  pub fn get_mut(&mut self, index: usize) -> Option<KeyMut<T, V>> {
    self.0.get_mut(index).map(|key| KeyMut {
      value: &mut key.value,
      interpolation: &mut key.interpolation,
    })
  }
}

impl<T, V> FromIterator<Key<T, V>> for Spline<T, V>
where
  T: PartialOrd,
{
  fn from_iter<I: IntoIterator<Item = Key<T, V>>>(iter: I) -> Self {
    Self::from_vec(iter.into_iter().collect())
  }
}

/// A sampled value along with its key index.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
pub struct SampledWithKey<V> {
  /// Sampled value.
  pub value: V,

  /// Key index.
  pub key: usize,
}

/// A mutable [`Key`].
///
/// Mutable keys allow to edit the carried values and the interpolation mode but not the actual
/// interpolator value as it would invalidate the internal structure of the [`Spline`]. If you
/// want to achieve this, you’re advised to use [`Spline::replace`].
#[derive(Debug)]
pub struct KeyMut<'a, T, V> {
  /// Carried value.
  pub value: &'a mut V,
  /// Interpolation mode to use for that key.
  pub interpolation: &'a mut Interpolation<T, V>,
}

// Find the lower control point corresponding to a given time.
// It has the property to have a timestamp smaller or equal to t
fn search_lower_cp<T, V>(cps: &[Key<T, V>], t: T) -> Option<usize>
where
  T: PartialOrd,
{
  let len = cps.len();
  if len < 2 {
    return None;
  }
  match cps.binary_search_by(|key| key.t.partial_cmp(&t).unwrap()) {
    Err(i) if i >= len => None,
    Err(0) => None,
    Err(i) => Some(i - 1),
    Ok(i) if i == len - 1 => None,
    Ok(i) => Some(i),
  }
}
}

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;
use fwdad::prelude::*;
use interpolate::Interpolator;

/// The Catmull-Rom segment between the keys `(1, p[1])` and `(2, p[2])` of four keys at
/// the times `p[4..8]`, at the normalised time of `p[8]`, as a user of the trait samples a
/// segment: the time normalised by `Interpolator`, then the cubic Hermite.
#[fwdad::derive_frule]
fn catmull_rom(p: &[f64]) -> f64 {
    let nt = p[8].normalize(p[5], p[6]);
    <f64 as Interpolate<f64>>::cubic_hermite(
        nt,
        (p[4], p[0]),
        (p[5], p[1]),
        (p[6], p[2]),
        (p[7], p[3]),
    )
}

/// Bézier segments from `a` to `b` with tangent points `u` and `v`, at `t`: the cubic, the
/// mirrored cubic and the quadratic (through `u`), summed with weights to test each.
#[fwdad::derive_frule]
fn beziers(q: &[f64]) -> f64 {
    let (t, a, u, v, b) = (q[0], q[1], q[2], q[3], q[4]);
    let cubic = <f64 as Interpolate<f64>>::cubic_bezier(t, a, u, v, b);
    let mirrored = <f64 as Interpolate<f64>>::cubic_bezier_mirrored(t, a, u, v, b);
    let quadratic = <f64 as Interpolate<f64>>::quadratic_bezier(t, a, u, b);
    cubic + 0.5 * mirrored - 2.0 * quadratic
}

/// Linear, cosine and step from `a` to `b` at `t`.
#[fwdad::derive_frule]
fn blends(q: &[f64]) -> f64 {
    let (t, a, b) = (q[0], q[1], q[2]);
    <f64 as Interpolate<f64>>::lerp(t, a, b)
        + 3.0 * <f64 as Interpolate<f64>>::cosine(t, a, b)
        + <f64 as Interpolate<f64>>::step(t, 0.5, a, b)
}

fn published_catmull_rom(p: &[f64]) -> f64 {
    let nt = splines::interpolate::Interpolator::normalize(p[8], p[5], p[6]);
    <f64 as splines::Interpolate<f64>>::cubic_hermite(
        nt,
        (p[4], p[0]),
        (p[5], p[1]),
        (p[6], p[2]),
        (p[7], p[3]),
    )
}

fn published_beziers(q: &[f64]) -> f64 {
    use splines::Interpolate as I;
    <f64 as I<f64>>::cubic_bezier(q[0], q[1], q[2], q[3], q[4])
        + 0.5 * <f64 as I<f64>>::cubic_bezier_mirrored(q[0], q[1], q[2], q[3], q[4])
        - 2.0 * <f64 as I<f64>>::quadratic_bezier(q[0], q[1], q[2], q[4])
}

fn published_blends(q: &[f64]) -> f64 {
    use splines::Interpolate as I;
    <f64 as I<f64>>::lerp(q[0], q[1], q[2])
        + 3.0 * <f64 as I<f64>>::cosine(q[0], q[1], q[2])
        + <f64 as I<f64>>::step(q[0], 0.5, q[1], q[2])
}

/// Values at the times 0, 1, 2, 3 and the sampling time.
fn keys_at(t: f64) -> [f64; 9] {
    [0.5, 1.7, 1.1, -0.4, 0.0, 1.0, 2.0, 3.0, t]
}

/// The published crate's spline through the same keys samples the same value.
#[test]
fn catmull_rom_is_the_published_splines_sample() {
    for t in [1.0, 1.3, 1.75] {
        let p = keys_at(t);
        let (v, _) = gradient(catmull_rom {}, &p[..]);
        let spline = splines::Spline::from_vec(
            (0..4)
                .map(|k| splines::Key::new(p[4 + k], p[k], splines::Interpolation::CatmullRom))
                .collect(),
        );
        assert_eq!(v.to_bits(), spline.sample(t).unwrap().to_bits(), "at {t}");
        assert_eq!(v.to_bits(), published_catmull_rom(&p).to_bits());
    }
}

/// Uniform keys: the Hermite basis at s = t − 1 with the tangents m₀ = (v₂ − v₀)/2,
/// m₁ = (v₃ − v₁)/2, and its slope in t.
#[test]
fn catmull_rom_against_the_hermite_basis() {
    for t in [1.0, 1.3, 1.75, 1.999] {
        let p = keys_at(t);
        let (_, g) = gradient(catmull_rom {}, &p[..]);
        let s = t - 1.0;
        let h00 = 2.0 * s.powi(3) - 3.0 * s * s + 1.0;
        let h10 = s.powi(3) - 2.0 * s * s + s;
        let h01 = 3.0 * s * s - 2.0 * s.powi(3);
        let h11 = s.powi(3) - s * s;
        let want = [-h10 / 2.0, h00 - h11 / 2.0, h01 + h10 / 2.0, h11 / 2.0];
        for k in 0..4 {
            assert_close(g[k], want[k], 1e-14, &format!("∂/∂v{k} at {t}"));
        }
        let (m0, m1) = ((p[2] - p[0]) / 2.0, (p[3] - p[1]) / 2.0);
        let slope = p[1] * (6.0 * s * s - 6.0 * s)
            + m0 * (3.0 * s * s - 4.0 * s + 1.0)
            + p[2] * (6.0 * s - 6.0 * s * s)
            + m1 * (3.0 * s * s - 2.0 * s);
        assert_close(g[8], slope, 1e-13, &format!("∂/∂t at {t}"));
        // The keys' times move the tangents and the normalised time: central differences
        // of the published crate.
        let want = fd_gradient(&|q: &[f64]| published_catmull_rom(q), &p);
        for k in 4..8 {
            assert_close(g[k], want[k], 1e-7, &format!("∂/∂time{} at {t}", k - 4));
        }
    }
}

/// The Bernstein bases of the cubic (a, u, v, b), the mirrored cubic (a, u, 2b − v, b) and
/// the quadratic u + (a − u)(1 − t)² + (b − u)t².
#[test]
fn beziers_against_the_bernstein_basis() {
    for t in [0.0, 0.3, 0.8, 1.0] {
        let q = [t, 0.2, 1.5, -0.7, 0.9];
        let (y, g) = gradient(beziers {}, &q[..]);
        assert_eq!(y.to_bits(), published_beziers(&q).to_bits());
        let b = [
            (1.0 - t).powi(3),
            3.0 * (1.0 - t).powi(2) * t,
            3.0 * (1.0 - t) * t * t,
            t.powi(3),
        ];
        let quad = [(1.0 - t).powi(2), 1.0 - (1.0 - t).powi(2) - t * t, t * t];
        let want_a = b[0] + 0.5 * b[0] - 2.0 * quad[0];
        let want_u = b[1] + 0.5 * b[1] - 2.0 * quad[1];
        let want_v = b[2] - 0.5 * b[2];
        let want_b = b[3] + 0.5 * (2.0 * b[2] + b[3]) - 2.0 * quad[2];
        for (k, want) in [(1, want_a), (2, want_u), (3, want_v), (4, want_b)] {
            assert_close(g[k], want, 1e-14, &format!("∂/∂q{k} at {t}"));
        }
        let (a, u, v, bb) = (q[1], q[2], q[3], q[4]);
        let cubic = |v: f64| {
            3.0 * (1.0 - t).powi(2) * (u - a)
                + 6.0 * (1.0 - t) * t * (v - u)
                + 3.0 * t * t * (bb - v)
        };
        let quad_slope = -2.0 * (1.0 - t) * (a - u) + 2.0 * t * (bb - u);
        let slope = cubic(v) + 0.5 * cubic(2.0 * bb - v) - 2.0 * quad_slope;
        assert_close(g[0], slope, 1e-13, &format!("∂/∂t at {t}"));
    }
}

/// lerp: a(1 − t) + bt; cosine: the same at w = (1 − cos πt)/2; step: a below 0.5, b from
/// it on, flat in t.
#[test]
fn blends_against_their_weights() {
    for t in [0.1, 0.45, 0.7] {
        let q = [t, 2.0, -1.0];
        let (y, g) = gradient(blends {}, &q[..]);
        assert_eq!(y.to_bits(), published_blends(&q).to_bits());
        let w = (1.0 - (std::f64::consts::PI * t).cos()) * 0.5;
        let dw = 0.5 * std::f64::consts::PI * (std::f64::consts::PI * t).sin();
        let step_b = if t < 0.5 { 0.0 } else { 1.0 };
        assert_close(g[0], (q[2] - q[1]) * (1.0 + 3.0 * dw), 1e-14, "∂/∂t");
        assert_close(
            g[1],
            (1.0 - t) + 3.0 * (1.0 - w) + (1.0 - step_b),
            1e-14,
            "∂/∂a",
        );
        assert_close(g[2], t + 3.0 * w + step_b, 1e-14, "∂/∂b");
    }
}

#[test]
fn every_mode() {
    check_widths!(
        catmull_rom {},
        |p: &[f64]| published_catmull_rom(p),
        keys_at(1.35)
    );
    check_widths!(
        catmull_rom {},
        |p: &[f64]| published_catmull_rom(p),
        [0.5, 1.7, 1.1, -0.4, -0.2, 1.1, 1.9, 3.4, 1.6]
    );
    check_widths!(
        beziers {},
        |q: &[f64]| published_beziers(q),
        [0.35, 0.2, 1.5, -0.7, 0.9]
    );
    check_widths!(blends {}, |q: &[f64]| published_blends(q), [0.3, 2.0, -1.0]);
}
