//! Maps holding floats: `HashMap<K, V>` and `BTreeMap<K, V>` (a sparse vector, a
//! histogram, edge weights, parameters by name).
//!
//! The tangent of a map is a map of the same kind with the same keys and the values'
//! tangents (`HashMap<K, f64>` → `HashMap<K, S>`): one tangent type per primal type, and
//! every operation applies the primal's to the primal map and the same one to the tangent
//! map, so the two always hold the same keys. Reading by key (`get`, `m[&k]`, `entry`)
//! looks the key up in both. Iterating walks the primal map in its own order, so the
//! primal computes exactly what the plain function computes; a `BTreeMap`'s tangent walks
//! the same keys in the same order beside it, a `HashMap`'s is looked up by key for each
//! item (two `HashMap`s with the same keys need not iterate in the same order: each has
//! its own `RandomState`, and the order depends on its history).

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::{Batch, Mode, NoTangent, ScalarTangent, TangentSpace};
use crate::testing::{Precision, Rng, TestTangent};
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::{collections::BTreeMap, vec::Vec};
use core::borrow::Borrow;
#[cfg(feature = "std")]
use std::collections::{BTreeMap, HashMap};
#[cfg(feature = "std")]
use std::hash::{BuildHasher, Hash};

/// The value `entry(k).or_default()` inserts, with its tangent, by the tangent's type: a
/// float's zero, an integer's, an empty `Vec` (`m.entry(id).or_default().push(r)`, a
/// bucket per key), and tuples and arrays of those (`(f64, f64)` of running sums).
#[diagnostic::on_unimplemented(
    message = "`#[derive_frule]` supports `or_default()` on a map whose values are floats, integers, `Vec`s, or tuples and arrays of them",
    label = "values of another type",
    note = "insert the value yourself: `.or_insert(..)`, `.or_insert_with(|| ..)` (`.or_insert(Stats::default())` for a struct of yours)"
)]
pub trait DefaultValue<V>: Sized {
    /// The default value and its tangent.
    fn default_value() -> (V, Self);
}

// Not recommended: for values of another type the error is `DefaultValue`'s, not that
// the value is no float.
#[diagnostic::do_not_recommend]
impl<V: Real, TV: ScalarTangent<V>> DefaultValue<V> for TV {
    #[inline(always)]
    fn default_value() -> (V, TV) {
        (V::zero(), TV::zero())
    }
}

impl<P, T> DefaultValue<Vec<P>> for Vec<T> {
    #[inline(always)]
    fn default_value() -> (Vec<P>, Vec<T>) {
        (Vec::new(), Vec::new())
    }
}

// A count beside the sums (`(usize, f64)`, a histogram's bin): zero, with no tangent.
macro_rules! default_count {
    ($($t:ty),*) => {$(
        impl DefaultValue<$t> for NoTangent {
            #[inline(always)]
            fn default_value() -> ($t, NoTangent) {
                (0, NoTangent)
            }
        }
    )*};
}
default_count!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

// Running sums kept together (`(f64, f64)` of a sum and a sum of squares, `[f64; 3]` of a
// centroid): each part's default.
impl<A, B, TA: DefaultValue<A>, TB: DefaultValue<B>> DefaultValue<(A, B)> for (TA, TB) {
    #[inline(always)]
    fn default_value() -> ((A, B), (TA, TB)) {
        let (a, ta) = TA::default_value();
        let (b, tb) = TB::default_value();
        ((a, b), (ta, tb))
    }
}

impl<A, B, C, TA: DefaultValue<A>, TB: DefaultValue<B>, TC: DefaultValue<C>> DefaultValue<(A, B, C)>
    for (TA, TB, TC)
{
    #[inline(always)]
    fn default_value() -> ((A, B, C), (TA, TB, TC)) {
        let (a, ta) = TA::default_value();
        let (b, tb) = TB::default_value();
        let (c, tc) = TC::default_value();
        ((a, b, c), (ta, tb, tc))
    }
}

impl<P, T: DefaultValue<P>, const N: usize> DefaultValue<[P; N]> for [T; N] {
    #[inline(always)]
    fn default_value() -> ([P; N], [T; N]) {
        (
            core::array::from_fn(|_| T::default_value().0),
            core::array::from_fn(|_| T::default_value().1),
        )
    }
}

/// The primal types whose [`DefaultValue`] `or_default()` inserts: floats, integers,
/// `Vec`s, and tuples and arrays of them. `or_default`'s check is on the map's value type
/// (`V: DefaultPrimal`), and the tangent's bound is written through `V::Same<TV>` (= `TV`),
/// which does not normalise for a `V` without the impl: rustc then reports `V`'s error
/// alone, in the user's type, rather than the bound on its tangent in the mode.
#[diagnostic::on_unimplemented(
    message = "`#[derive_frule]` supports `or_default()` on a map whose values are floats, integers, `Vec`s, or tuples and arrays of them, not `{Self}`",
    label = "values of another type",
    note = "insert the value yourself: `.or_insert(..)`, `.or_insert_with(|| ..)` (`.or_insert(Stats::default())` for a struct of yours)"
)]
pub trait DefaultPrimal {
    /// `T` itself, for every `T` (a projection that normalises only when `Self` has the
    /// impl).
    type Same<T>;
}

macro_rules! default_primal {
    ($($t:ty),*) => {$(
        impl DefaultPrimal for $t {
            type Same<T> = T;
        }
    )*};
}
default_primal!(f32, f64, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl<P> DefaultPrimal for Vec<P> {
    type Same<T> = T;
}

impl<A: DefaultPrimal, B: DefaultPrimal> DefaultPrimal for (A, B) {
    type Same<T> = T;
}

impl<A: DefaultPrimal, B: DefaultPrimal, C: DefaultPrimal> DefaultPrimal for (A, B, C) {
    type Same<T> = T;
}

impl<P: DefaultPrimal, const N: usize> DefaultPrimal for [P; N] {
    type Same<T> = T;
}

/// The tangent of a key: none (keys are discrete).
const KEY: NoTangent = NoTangent;

/// A key of a map dual: a type without floats (integers, strings, tuples of those, a type
/// of your own whose tangent holds no float). A key is looked up, never differentiated,
/// so one holding a float would silently drop its derivative.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the key of a map holding floats: its tangent holds floats",
    label = "a key holding floats",
    note = "a key is looked up, never differentiated: key the map by integers or strings (the index of the float in a `Vec`, or its bits `x.to_bits()`)"
)]
pub trait MapKey: Differentiable + Clone {}
// Not recommended: the error is this trait's message on the key's type, not the bound
// below (`HoldsNoFloat`, whose message is about `#[non_differentiable]` functions).
#[diagnostic::do_not_recommend]
impl<K: Differentiable + Clone> MapKey for K where K::Tangent: crate::HoldsNoFloat {}

#[cfg(feature = "std")]
impl<K, V: Differentiable, H> Differentiable for HashMap<K, V, H> {
    type Tangent = HashMap<K, V::Tangent, H>;
    type TangentIn<S: Mode> = HashMap<K, V::TangentIn<S>, H>;
}

#[cfg(feature = "std")]
impl<K: Clone + Eq + Hash, V: ZeroTangent, H: BuildHasher + Default> ZeroTangent
    for HashMap<K, V, H>
{
    fn zero_tangent(&self) -> Self::Tangent {
        self.iter()
            .map(|(k, v)| (k.clone(), v.zero_tangent()))
            .collect()
    }
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
        self.iter()
            .map(|(k, v)| (k.clone(), v.zero_tangent_in::<S>()))
            .collect()
    }
}

impl<K, V: Differentiable> Differentiable for BTreeMap<K, V> {
    type Tangent = BTreeMap<K, V::Tangent>;
    type TangentIn<S: Mode> = BTreeMap<K, V::TangentIn<S>>;
}

impl<K: Clone + Ord, V: ZeroTangent> ZeroTangent for BTreeMap<K, V> {
    fn zero_tangent(&self) -> Self::Tangent {
        self.iter()
            .map(|(k, v)| (k.clone(), v.zero_tangent()))
            .collect()
    }
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
        self.iter()
            .map(|(k, v)| (k.clone(), v.zero_tangent_in::<S>()))
            .collect()
    }
}

/// Keyed: a missing key in one operand counts as a zero tangent.
#[cfg(feature = "std")]
impl<K: Clone + Eq + Hash, T: TangentSpace + Clone, H: BuildHasher> TangentSpace
    for HashMap<K, T, H>
{
    fn increment(&mut self, other: &Self) {
        for (k, t) in other {
            match self.get_mut(k) {
                Some(s) => s.increment(t),
                None => {
                    self.insert(k.clone(), t.clone());
                }
            }
        }
    }
    fn scale_by(&mut self, a: f64) {
        self.values_mut().for_each(|t| t.scale_by(a));
    }
    fn dot(&self, other: &Self) -> f64 {
        self.iter()
            .filter_map(|(k, t)| other.get(k).map(|o| t.dot(o)))
            .sum()
    }
}

/// Keyed: a missing key in one operand counts as a zero tangent.
impl<K: Clone + Ord, T: TangentSpace + Clone> TangentSpace for BTreeMap<K, T> {
    fn increment(&mut self, other: &Self) {
        for (k, t) in other {
            match self.get_mut(k) {
                Some(s) => s.increment(t),
                None => {
                    self.insert(k.clone(), t.clone());
                }
            }
        }
    }
    fn scale_by(&mut self, a: f64) {
        self.values_mut().for_each(|t| t.scale_by(a));
    }
    fn dot(&self, other: &Self) -> f64 {
        self.iter()
            .filter_map(|(k, t)| other.get(k).map(|o| t.dot(o)))
            .sum()
    }
}

/// The two maps of a map dual (owned, `&mut` or `&`), read.
#[doc(hidden)]
pub trait DualMap {
    /// The primal map.
    type P;
    /// The tangent map.
    type T;
    /// Both maps.
    fn maps(&self) -> (&Self::P, &Self::T);
}

/// The two maps of a map dual (owned or `&mut`), written.
#[doc(hidden)]
pub trait DualMapMut: DualMap {
    /// Both maps, mutably.
    fn maps_mut(&mut self) -> (&mut Self::P, &mut Self::T);
}

/// A key missing from the tangent map that the primal map holds: a rule that changed one
/// map and not the other (a bug), never a silently dropped derivative.
#[cold]
#[inline(never)]
fn missing() -> ! {
    panic!("fwdad: a map's tangent lacks a key its primal holds (a map dual built by hand with other keys?)")
}

/// `entry(k)` of a map dual: the key and both maps, until `or_insert`/`or_default`.
pub struct Entry<'m, K, P, T> {
    key: K,
    primal: &'m mut P,
    tangent: &'m mut T,
}

/// Everything a map dual does, once per map kind (`$M`: `HashMap` or `BTreeMap`, with
/// its key bounds `$kb`, its extra type parameters `$h` and their bounds `$hb`, and the
/// bounds `$qb` of a borrowed key). `$zip` says whether the tangent map iterates in the
/// primal's order (a `BTreeMap`) or is looked up per item (a `HashMap`).
macro_rules! dual_maps {
    ($M:ident, [$($kb:tt)*], [$($h:ident: $($hb:path)|*),*], [$($qb:tt)*], $zip:tt) => {
        impl<K, V: Differentiable, TV $(, $h)*> DualMap for Dual<$M<K, V $(, $h)*>, $M<K, TV $(, $h)*>> {
            type P = $M<K, V $(, $h)*>;
            type T = $M<K, TV $(, $h)*>;
            #[inline(always)]
            fn maps(&self) -> (&Self::P, &Self::T) {
                (&self.primal, &self.tangent)
            }
        }
        impl<K, V: Differentiable, TV $(, $h)*> DualMapMut for Dual<$M<K, V $(, $h)*>, $M<K, TV $(, $h)*>> {
            #[inline(always)]
            fn maps_mut(&mut self) -> (&mut Self::P, &mut Self::T) {
                (&mut self.primal, &mut self.tangent)
            }
        }
        impl<'a, K, V: Differentiable, TV $(, $h)*> DualMap for Dual<&'a mut $M<K, V $(, $h)*>, &'a mut $M<K, TV $(, $h)*>> {
            type P = $M<K, V $(, $h)*>;
            type T = $M<K, TV $(, $h)*>;
            #[inline(always)]
            fn maps(&self) -> (&Self::P, &Self::T) {
                (&*self.primal, &*self.tangent)
            }
        }
        impl<'a, K, V: Differentiable, TV $(, $h)*> DualMapMut for Dual<&'a mut $M<K, V $(, $h)*>, &'a mut $M<K, TV $(, $h)*>> {
            #[inline(always)]
            fn maps_mut(&mut self) -> (&mut Self::P, &mut Self::T) {
                (&mut *self.primal, &mut *self.tangent)
            }
        }
        impl<'a, K, V: Differentiable, TV $(, $h)*> DualMap for Dual<&'a $M<K, V $(, $h)*>, &'a $M<K, TV $(, $h)*>> {
            type P = $M<K, V $(, $h)*>;
            type T = $M<K, TV $(, $h)*>;
            #[inline(always)]
            fn maps(&self) -> (&Self::P, &Self::T) {
                (self.primal, self.tangent)
            }
        }

        dual_maps!(@read $M, [$($kb)*], [$($h: $($hb)|*),*], [$($qb)*], $zip, Dual<$M<K, V $(, $h)*>, $M<K, TV $(, $h)*>>);
        dual_maps!(@read $M, [$($kb)*], [$($h: $($hb)|*),*], [$($qb)*], $zip, Dual<&'a mut $M<K, V $(, $h)*>, &'a mut $M<K, TV $(, $h)*>>);
        dual_maps!(@read $M, [$($kb)*], [$($h: $($hb)|*),*], [$($qb)*], $zip, Dual<&'a $M<K, V $(, $h)*>, &'a $M<K, TV $(, $h)*>>);
        dual_maps!(@write $M, [$($kb)*], [$($h: $($hb)|*),*], [$($qb)*], $zip, Dual<$M<K, V $(, $h)*>, $M<K, TV $(, $h)*>>);
        dual_maps!(@write $M, [$($kb)*], [$($h: $($hb)|*),*], [$($qb)*], $zip, Dual<&'a mut $M<K, V $(, $h)*>, &'a mut $M<K, TV $(, $h)*>>);

        impl<'m, K: $($kb)*, V: Differentiable, TV $(, $h: $($hb +)*)*> Entry<'m, K, $M<K, V $(, $h)*>, $M<K, TV $(, $h)*>> {
            /// `.or_insert(v)`: the entry's value, `v` inserted if the key was missing.
            #[inline(always)]
            pub fn or_insert(self, v: Dual<V, TV>) -> Dual<&'m mut V, &'m mut TV> {
                let Entry { key, primal, tangent } = self;
                let p = primal.entry(key.clone()).or_insert(v.primal);
                let t = tangent.entry(key).or_insert(v.tangent);
                Dual::new(p, t)
            }
            /// `.or_default()` of a float value (zero with a zero tangent) or a `Vec` (an
            /// empty one, a bucket pushed to).
            #[inline(always)]
            pub fn or_default(self) -> Dual<&'m mut V, &'m mut TV>
            where
                V: DefaultPrimal,
                V::Same<TV>: DefaultValue<V> + Into<TV>,
            {
                let (v, t) = <V::Same<TV> as DefaultValue<V>>::default_value();
                self.or_insert(Dual::new(v, t.into()))
            }
        }

        /// `for (k, v) in &m`: each key with its value's dual, in the primal's order.
        impl<'s, K: $($kb)*, V: Differentiable, TV $(, $h: $($hb +)*)*> IntoIterator for &'s Dual<$M<K, V $(, $h)*>, $M<K, TV $(, $h)*>> {
            type Item = Dual<(&'s K, &'s V), (&'static NoTangent, &'s TV)>;
            type IntoIter = alloc::boxed::Box<dyn Iterator<Item = Self::Item> + 's>;
            fn into_iter(self) -> Self::IntoIter {
                alloc::boxed::Box::new(self.iter())
            }
        }
        /// `for (k, v) in m` of a borrowed map (a `&HashMap` parameter).
        impl<'a, K: $($kb)*, V: Differentiable, TV $(, $h: $($hb +)*)*> IntoIterator for Dual<&'a $M<K, V $(, $h)*>, &'a $M<K, TV $(, $h)*>> {
            type Item = Dual<(&'a K, &'a V), (&'static NoTangent, &'a TV)>;
            type IntoIter = alloc::boxed::Box<dyn Iterator<Item = Self::Item> + 'a>;
            fn into_iter(self) -> Self::IntoIter {
                let (p, t) = (self.primal, self.tangent);
                alloc::boxed::Box::new(dual_maps!(@pairs $zip, p, t))
            }
        }
        /// `for (k, v) in &m` of a borrowed map.
        impl<'s, 'a, K: $($kb)*, V: Differentiable, TV $(, $h: $($hb +)*)*> IntoIterator for &'s Dual<&'a $M<K, V $(, $h)*>, &'a $M<K, TV $(, $h)*>> {
            type Item = Dual<(&'a K, &'a V), (&'static NoTangent, &'a TV)>;
            type IntoIter = alloc::boxed::Box<dyn Iterator<Item = Self::Item> + 'a>;
            fn into_iter(self) -> Self::IntoIter {
                (*self).into_iter()
            }
        }
        /// `for (k, v) in &mut m`: each key with its value's dual, written through.
        impl<'s, K: $($kb)*, V: Differentiable, TV $(, $h: $($hb +)*)*> IntoIterator for &'s mut Dual<$M<K, V $(, $h)*>, $M<K, TV $(, $h)*>> {
            type Item = Dual<(&'s K, &'s mut V), (&'static NoTangent, &'s mut TV)>;
            type IntoIter = alloc::vec::IntoIter<Self::Item>;
            fn into_iter(self) -> Self::IntoIter {
                self.iter_mut().collect::<Vec<_>>().into_iter()
            }
        }
        /// `for (k, v) in &mut m` of a `&mut` map (a parameter, or `&mut m` of a local).
        impl<'a, K: $($kb)*, V: Differentiable, TV $(, $h: $($hb +)*)*> IntoIterator for Dual<&'a mut $M<K, V $(, $h)*>, &'a mut $M<K, TV $(, $h)*>> {
            type Item = Dual<(&'a K, &'a mut V), (&'static NoTangent, &'a mut TV)>;
            type IntoIter = alloc::vec::IntoIter<Self::Item>;
            fn into_iter(self) -> Self::IntoIter {
                let (p, t) = (self.primal, self.tangent);
                dual_maps!(@pairs_mut $zip, p, t).collect::<Vec<_>>().into_iter()
            }
        }
        /// `for (k, v) in m` of an owned map, consumed.
        impl<K: $($kb)*, V: Differentiable, TV $(, $h: $($hb +)*)*> IntoIterator for Dual<$M<K, V $(, $h)*>, $M<K, TV $(, $h)*>> {
            type Item = Dual<(K, V), (NoTangent, TV)>;
            type IntoIter = alloc::vec::IntoIter<Self::Item>;
            fn into_iter(mut self) -> Self::IntoIter {
                let keys: Vec<K> = self.primal.keys().cloned().collect();
                keys.into_iter()
                    .map(|k| {
                        let (k, v) = self.primal.remove_entry(&k).unwrap_or_else(|| missing());
                        let t = self.tangent.remove(&k).unwrap_or_else(|| missing());
                        Dual::new((k, v), (KEY, t))
                    })
                    .collect::<Vec<_>>()
                    .into_iter()
            }
        }
    };
    (@pairs true, $p:ident, $t:ident) => {{
        assert_eq!($p.len(), $t.len(), "fwdad: a map's tangent holds other keys than its primal");
        $p.iter().zip($t.values()).map(|((k, v), t)| Dual::new((k, v), (&KEY, t)))
    }};
    (@pairs false, $p:ident, $t:ident) => {
        $p.iter().map(move |(k, v)| Dual::new((k, v), (&KEY, $t.get(k).unwrap_or_else(|| missing()))))
    };
    (@read $M:ident, [$($kb:tt)*], [$($h:ident: $($hb:path)|*),*], [$($qb:tt)*], $zip:tt, $D:ty) => {
        #[allow(clippy::len_without_is_empty)]
        impl<'a, K: $($kb)*, V: Differentiable, TV $(, $h: $($hb +)*)*> $D {
            /// `m.len()`.
            #[inline(always)]
            pub fn len(&self) -> usize {
                self.maps().0.len()
            }
            /// `m.is_empty()`.
            #[inline(always)]
            pub fn is_empty(&self) -> bool {
                self.maps().0.is_empty()
            }
            /// `m.contains_key(&k)`.
            #[inline(always)]
            pub fn contains_key<Q: $($qb)*>(&self, k: &Q) -> bool
            where
                K: Borrow<Q>,
            {
                self.maps().0.contains_key(k)
            }
            /// `m.get(&k)`: the value's dual, or `None`.
            #[inline(always)]
            pub fn get<Q: $($qb)*>(&self, k: &Q) -> Dual<Option<&V>, Option<&TV>>
            where
                K: Borrow<Q>,
            {
                let (p, t) = self.maps();
                match p.get(k) {
                    Some(v) => Dual::new(Some(v), Some(t.get(k).unwrap_or_else(|| missing()))),
                    None => Dual::new(None, None),
                }
            }
            /// `m[&k]`: the value's dual.
            ///
            /// # Panics
            /// If the key is missing, as the primal's indexing would.
            #[inline(always)]
            pub fn at_key<Q: $($qb)*>(&self, k: &Q) -> Dual<&V, &TV>
            where
                K: Borrow<Q>,
            {
                let (p, t) = self.maps();
                Dual::new(&p[k], t.get(k).unwrap_or_else(|| missing()))
            }
            /// `m.iter()`: each key with its value's dual, in the primal's order.
            #[inline(always)]
            pub fn iter(&self) -> impl Iterator<Item = Dual<(&K, &V), (&'static NoTangent, &TV)>> + '_ {
                let (p, t) = self.maps();
                dual_maps!(@pairs $zip, p, t)
            }
            /// `m.values()`: the values' duals, in the primal's order.
            #[inline(always)]
            pub fn values(&self) -> impl Iterator<Item = Dual<&V, &TV>> + '_ {
                self.iter().map(|d| Dual::new(d.primal.1, d.tangent.1))
            }
            /// `m.keys()`: the primal's keys (a key has no tangent).
            #[inline(always)]
            pub fn keys(&self) -> impl Iterator<Item = &K> + '_ {
                self.maps().0.keys()
            }
        }
    };
    (@write $M:ident, [$($kb:tt)*], [$($h:ident: $($hb:path)|*),*], [$($qb:tt)*], $zip:tt, $D:ty) => {
        impl<'a, K: $($kb)*, V: Differentiable, TV $(, $h: $($hb +)*)*> $D {
            /// `m.insert(k, v)`: the value the key held, with its tangent.
            #[inline(always)]
            pub fn insert(&mut self, k: K, v: Dual<V, TV>) -> Dual<Option<V>, Option<TV>> {
                let (p, t) = self.maps_mut();
                let old = p.insert(k.clone(), v.primal);
                let old_t = t.insert(k, v.tangent);
                Dual::new(old, old_t)
            }
            /// `m.remove(&k)`: the value, with its tangent.
            #[inline(always)]
            pub fn remove<Q: $($qb)*>(&mut self, k: &Q) -> Dual<Option<V>, Option<TV>>
            where
                K: Borrow<Q>,
            {
                let (p, t) = self.maps_mut();
                Dual::new(p.remove(k), t.remove(k))
            }
            /// `m.clear()`.
            #[inline(always)]
            pub fn clear(&mut self) {
                let (p, t) = self.maps_mut();
                p.clear();
                t.clear();
            }
            /// `m.get_mut(&k)`: the value's dual, written through, or `None`.
            #[inline(always)]
            pub fn get_mut<Q: $($qb)*>(&mut self, k: &Q) -> Dual<Option<&mut V>, Option<&mut TV>>
            where
                K: Borrow<Q>,
            {
                let (p, t) = self.maps_mut();
                match p.get_mut(k) {
                    Some(v) => Dual::new(Some(v), Some(t.get_mut(k).unwrap_or_else(|| missing()))),
                    None => Dual::new(None, None),
                }
            }
            /// `&mut m[&k]` (what `*m.get_mut(&k).unwrap() += ..` and `m.entry(k)` give).
            ///
            /// # Panics
            /// If the key is missing.
            #[inline(always)]
            pub fn at_key_mut<Q: $($qb)*>(&mut self, k: &Q) -> Dual<&mut V, &mut TV>
            where
                K: Borrow<Q>,
            {
                let (p, t) = self.maps_mut();
                let v = p.get_mut(k).expect("fwdad: no entry for the key");
                Dual::new(v, t.get_mut(k).unwrap_or_else(|| missing()))
            }
            /// `m.entry(k)`, for `or_insert(..)` and `or_default()`.
            #[inline(always)]
            pub fn entry(&mut self, key: K) -> Entry<'_, K, $M<K, V $(, $h)*>, $M<K, TV $(, $h)*>> {
                let (primal, tangent) = self.maps_mut();
                Entry { key, primal, tangent }
            }
            /// `m.iter_mut()`: each key with its value's dual, written through, in the
            /// primal's order.
            pub fn iter_mut(&mut self) -> impl Iterator<Item = Dual<(&K, &mut V), (&'static NoTangent, &mut TV)>> + '_ {
                let (p, t) = self.maps_mut();
                dual_maps!(@pairs_mut $zip, p, t)
            }
            /// `m.values_mut()`: the values' duals, written through.
            pub fn values_mut(&mut self) -> impl Iterator<Item = Dual<&mut V, &mut TV>> + '_ {
                self.iter_mut().map(|d| Dual::new(d.primal.1, d.tangent.1))
            }
        }

    };
    (@pairs_mut true, $p:ident, $t:ident) => {{
        assert_eq!($p.len(), $t.len(), "fwdad: a map's tangent holds other keys than its primal");
        $p.iter_mut().zip($t.values_mut()).map(|((k, v), t)| Dual::new((k, v), (&KEY, t)))
    }};
    (@pairs_mut false, $p:ident, $t:ident) => {{
        // The tangents in the primal's order, by key: each `&mut` lent once.
        let mut ts: HashMap<&K, &mut TV> = $t.iter_mut().collect();
        $p.iter_mut()
            .map(|(k, v)| {
                let t = ts.remove(k).unwrap_or_else(|| missing());
                Dual::new((k, v), (&KEY, t))
            })
            .collect::<Vec<_>>()
            .into_iter()
    }};
}

#[cfg(feature = "std")]
dual_maps!(HashMap, [MapKey + Eq + Hash], [H: BuildHasher | Default], [?Sized + Hash + Eq], false);
dual_maps!(BTreeMap, [MapKey + Ord], [], [?Sized + Ord], true);

/// `TestTangent` of a map, key by key (so that `test_frule` takes maps of floats): a
/// missing key in a tangent leaves the value unchanged, as a shorter tangent of a `Vec`
/// does.
macro_rules! test_tangent_map {
    ($M:ident, [$($kb:tt)*], [$($h:ident: $($hb:path)|*),*]) => {
        impl<K: $($kb)* + core::fmt::Debug, V: TestTangent $(, $h: $($hb +)* Clone)*> TestTangent
            for $M<K, V $(, $h)*>
        {
            const PRECISION: Precision = V::PRECISION;
            fn randn_tangent<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::Tangent {
                self.iter().map(|(k, v)| (k.clone(), v.randn_tangent(rng))).collect()
            }
            fn add_to_primal(&self, t: &Self::Tangent, eps: f64) -> Self {
                self.iter()
                    .map(|(k, v)| {
                        let moved = match t.get(k) {
                            Some(t) => v.add_to_primal(t, eps),
                            None => v.clone(),
                        };
                        (k.clone(), moved)
                    })
                    .collect()
            }
            fn diff(&self, other: &Self) -> Self::Tangent {
                self.iter()
                    .map(|(k, v)| (k.clone(), v.diff(other.get(k).unwrap_or(v))))
                    .collect()
            }
            fn bitwise_eq(&self, other: &Self) -> bool {
                self.len() == other.len()
                    && self.iter().all(|(k, v)| other.get(k).is_some_and(|o| v.bitwise_eq(o)))
            }
            fn matches_tangent(&self, t: &Self::Tangent) -> bool {
                self.len() == t.len()
                    && self.iter().all(|(k, v)| t.get(k).is_some_and(|t| v.matches_tangent(t)))
            }
            fn batch_tangent<const N: usize>(
                ts: [&Self::Tangent; N],
            ) -> Self::TangentIn<Batch<f64, N>> {
                let Some(first) = ts.first() else {
                    return Default::default();
                };
                first
                    .keys()
                    .map(|k| {
                        let lanes = ts.map(|t| t.get(k).expect("batched map tangents hold the same keys"));
                        (k.clone(), V::batch_tangent(lanes))
                    })
                    .collect()
            }
            fn lane<const N: usize>(t: &Self::TangentIn<Batch<f64, N>>, k: usize) -> Self::Tangent {
                t.iter().map(|(key, e)| (key.clone(), V::lane(e, k))).collect()
            }
        }
    };
}
#[cfg(feature = "std")]
test_tangent_map!(HashMap, [Differentiable + Clone + Eq + Hash], [H: BuildHasher | Default]);
test_tangent_map!(BTreeMap, [Differentiable + Clone + Ord], []);

/// `ts.range(a..b)` of a `BTreeMap` dual: the entries with keys in the range, in key order.
macro_rules! btree_range {
    ($D:ty) => {
        impl<'a, K: MapKey + Ord, V: Differentiable, TV> $D {
            /// `m.range(r)`: each key in `r` with its value's dual, in key order.
            #[inline(always)]
            pub fn range<Q: ?Sized + Ord, R: core::ops::RangeBounds<Q> + Clone>(
                &self,
                r: R,
            ) -> impl Iterator<Item = Dual<(&K, &V), (&'static NoTangent, &TV)>> + '_
            where
                K: Borrow<Q>,
            {
                let (p, t) = self.maps();
                p.range(r.clone())
                    .zip(t.range(r))
                    .map(|((k, v), (_, t))| Dual::new((k, v), (&KEY, t)))
            }
        }
    };
}
btree_range!(Dual<BTreeMap<K, V>, BTreeMap<K, TV>>);
btree_range!(Dual<&'a mut BTreeMap<K, V>, &'a mut BTreeMap<K, TV>>);
btree_range!(Dual<&'a BTreeMap<K, V>, &'a BTreeMap<K, TV>>);
