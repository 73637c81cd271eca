//! Typed ids and the maps keyed by them (cranelift's `entity` crate, in miniature).
//!
//! Ids are allocated densely in creation order, so printing is deterministic; storage is
//! indexed by the id type, never by a bare `usize`.

use std::marker::PhantomData;

/// A dense id.
pub trait EntityRef: Copy + Eq {
    /// The id with this index.
    fn new(index: usize) -> Self;
    /// This id's index.
    fn index(self) -> usize;
}

/// Declares an id type printed as `<prefix><n>`.
macro_rules! entity {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub struct $name(u32);

        impl $crate::ir::entity::EntityRef for $name {
            fn new(index: usize) -> Self {
                $name(u32::try_from(index).unwrap_or(u32::MAX))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}
pub(crate) use entity;

/// Primary storage: allocates ids (cranelift's `PrimaryMap`).
#[derive(Clone, Debug)]
pub struct EntityVec<K, V> {
    elems: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> EntityVec<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        EntityVec {
            elems: Vec::new(),
            _key: PhantomData,
        }
    }
    /// Stores `v` under a fresh id.
    pub fn push(&mut self, v: V) -> K {
        self.elems.push(v);
        K::new(self.elems.len() - 1)
    }
    /// Whether `k` was allocated here.
    pub fn contains(&self, k: K) -> bool {
        k.index() < self.elems.len()
    }
    /// All `(id, value)` pairs in id order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.elems.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityRef, V> Default for EntityVec<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V> std::ops::Index<K> for EntityVec<K, V> {
    type Output = V;
    fn index(&self, k: K) -> &V {
        &self.elems[k.index()]
    }
}

impl<K: EntityRef, V> std::ops::IndexMut<K> for EntityVec<K, V> {
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.elems[k.index()]
    }
}

/// Side storage for analysis results, with a default for ids never set.
#[derive(Clone, Debug)]
pub struct SecondaryMap<K, V> {
    elems: Vec<V>,
    default: V,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// An empty map whose every entry reads as `default`.
    pub fn with_default(default: V) -> Self {
        SecondaryMap {
            elems: Vec::new(),
            default,
            _key: PhantomData,
        }
    }
    /// The entry for `k`.
    pub fn get(&self, k: K) -> &V {
        self.elems.get(k.index()).unwrap_or(&self.default)
    }
    /// Sets the entry for `k`.
    pub fn set(&mut self, k: K, v: V) {
        if k.index() >= self.elems.len() {
            self.elems.resize(k.index() + 1, self.default.clone());
        }
        self.elems[k.index()] = v;
    }
}

impl<K: EntityRef, V: Clone> std::ops::Index<K> for SecondaryMap<K, V> {
    type Output = V;
    fn index(&self, k: K) -> &V {
        self.get(k)
    }
}
