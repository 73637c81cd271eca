//! gauss-quad 0.3.2 (MIT OR Apache-2.0, Copyright 2019-2024 Dominique Dresen, Copyright
//! 2023-2026 Johanna Sörngård, <https://github.com/DominiqueMakowski/gauss-quad>): its
//! trapezoid rule, a struct holding its degree as a `NonZeroU32`, with
//! `integrate<F: FnMut(f64) -> f64>(&self, a, b, integrand: F)` (the closure handed to the
//! crate's own rule) and `change_degree(&mut self, ..)`. Copied here: `src/trapezoid/mod.rs`
//! (inline, as `pub mod trapezoid { .. }`, which `rustfmt` skips), with
//! `#[fwdad::derive_frule]` on `impl Trapezoid` and `fwdad::Differentiable` added to its
//! derive list, and from `src/data_api.rs` the aliases `Node` and `Weight` and the two
//! macros the rule's iterators are written by; left out: the crate's tests, the rest of
//! `src/data_api.rs`, the Gauss rules (Legendre, Jacobi, ..., whose node tables and
//! `libm`/`std` features this copy does not carry), and the midpoint and Simpson rules,
//! whose `integrate` reads `self.iter()` and `self.degree()`, methods the crate's
//! `macro_rules!` writes (`docs/limits.md`).
//!
//! Checked: integrals whose integrand closes over the differentiated parameters and whose
//! ends are differentiated, in every mode, against the same rule applied to the
//! integrand's derivative plus the Leibniz terms, and against central differences of the
//! published crate; primals bit for bit against the published crate.

// The crate's `cfg(feature = "rayon")` and `cfg_attr(feature = "serde", ..)`, features this
// crate does not have; its module's `use crate::__impl_node_rule;` (see below).
#![allow(unexpected_cfgs, unused_imports)]

mod common;

// ---- gauss-quad 0.3.2, src/data_api.rs (two aliases and two macros of it) ----
//
// At this file's root rather than in a `mod data_api` (with `pub use data_api::{Node,
// Weight};` as the crate's `src/lib.rs` has it): in a test crate whose items carry
// attribute macros, rustc takes `#[macro_export]` macros of an inline module for
// macro-expanded ones and refuses `use crate::__impl_node_rule;` of them
// (`macro_expanded_macro_exports_accessed_by_absolute_paths`); at the root, the macros are
// in scope by their text and that `use` unused.

/// A node in a quadrature rule.
pub type Node = f64;
/// A weight in a quadrature rule.
pub type Weight = f64;

/// Implements the [`Iterator`], [`DoubleEndedIterator`], [`ExactSizeIterator`] and [`FusedIterator`](core::iter::FusedIterator) traits for a struct
/// that wraps an iterator that has those traits. Takes in the name of the struct and optionally its lifetime
/// as well as the type returned by the iterator.
#[macro_export]
#[doc(hidden)]
macro_rules! __impl_slice_iterator_newtype_traits {
    ($iterator:ident$(<$a:lifetime>)?, $item:ty) => {
        impl$(<$a>)? ::core::iter::Iterator for $iterator$(<$a>)? {
            type Item = $item;
            #[inline]
            fn next(&mut self) -> ::core::option::Option<Self::Item> {
                self.0.next()
            }

            #[inline]
            fn size_hint(&self) -> (::core::primitive::usize, ::core::option::Option<::core::primitive::usize>) {
                self.0.size_hint()
            }

            // These methods by default call the `next` method a lot to access data.
            // This isn't needed in our case, since the data underlying the iterator is
            // a slice, which has O(1) access to any element.
            // As a result we reimplement them and just delegate to the builtin slice iterator methods.

            #[inline]
            fn nth(&mut self, index: ::core::primitive::usize) -> ::core::option::Option<Self::Item> {
                self.0.nth(index)
            }

            #[inline]
            fn count(self) -> ::core::primitive::usize {
                self.0.count()
            }

            #[inline]
            fn last(mut self) -> ::core::option::Option<Self::Item> {
                self.0.next_back()
            }
        }

        impl$(<$a>)? ::core::iter::DoubleEndedIterator for $iterator$(<$a>)? {
            #[inline]
            fn next_back(&mut self) -> ::core::option::Option<Self::Item> {
                self.0.next_back()
            }

            #[inline]
            fn nth_back(&mut self, n: ::core::primitive::usize) -> ::core::option::Option<Self::Item> {
                self.0.nth_back(n)
            }
        }

        impl$(<$a>)? ::core::iter::ExactSizeIterator for $iterator$(<$a>)? {
            #[inline]
            fn len(&self) -> ::core::primitive::usize {
                self.0.len()
            }
        }
        impl$(<$a>)? ::core::iter::FusedIterator for $iterator$(<$a>)? {}
    };
}

/// This macro implements the data access API for rules that have only nodes and no weights.
/// It takes in the name of the a rule struct that contans a field with the name `degree`
/// of the type `NonZeroU32`. As well as the names it should give the iterator over its
/// nodes and the iterator returned by the [`IntoIterator`] trait.
#[macro_export]
#[doc(hidden)]
macro_rules! __impl_node_rule {
    ($quadrature_rule:ident, $quadrature_rule_iter:ident) => {
        // Lets the user do
        // for node in QuadratureRule::new(...) {
        //    ...
        // }
        impl ::core::iter::IntoIterator for $quadrature_rule {
            type Item = $crate::Node;
            type IntoIter = $quadrature_rule_iter;
            #[inline]
            fn into_iter(self) -> Self::IntoIter {
                self.iter()
            }
        }

        // Lets the user do
        // let rule = QuadratureRule::new(...);
        // for &node in &rule {
        //     ...
        // }
        // rule.integrate(...) // <--- still available
        impl<'a> ::core::iter::IntoIterator for &'a $quadrature_rule {
            type IntoIter = $quadrature_rule_iter;
            type Item = $crate::Node;
            #[inline]
            fn into_iter(self) -> Self::IntoIter {
                self.iter()
            }
        }

        impl $quadrature_rule {
            /// Returns an iterator over the nodes of the rule.
            #[inline]
            pub fn iter(&self) -> $quadrature_rule_iter {
                $quadrature_rule_iter::new((0..self.degree.get()).map(|d| d as $crate::Node))
            }

            /// Returns the degree of the rule.
            #[inline]
            pub fn degree(&self) -> ::core::num::NonZeroU32 {
                self.degree
            }
        }

        // region: QuadratureRuleIter

        /// An iterator of the nodes of the rule.
        #[derive(Debug, Clone)]
        #[must_use = "iterators are lazy and do nothing unless consumed"]
        pub struct $quadrature_rule_iter(
            ::core::iter::Map<core::ops::Range<u32>, fn(u32) -> $crate::Node>,
        );

        impl $quadrature_rule_iter {
            #[inline]
            const fn new(
                iter: ::core::iter::Map<core::ops::Range<u32>, fn(u32) -> $crate::Node>,
            ) -> Self {
                Self(iter)
            }
        }

        $crate::__impl_slice_iterator_newtype_traits! {$quadrature_rule_iter, $crate::Node}

        // endregion: QuadratureRuleIter
    };
}

// ---- gauss-quad 0.3.2, src/trapezoid/mod.rs ----

#[rustfmt::skip]
pub mod trapezoid {
    // Copyright 2019-2024 Dominique Dresen
    // Copyright 2023-2026 Johanna Sörngård
    // SPDX-License-Identifier: MIT OR Apache-2.0

    // Numerical integration using the trapezoid rule.
    //
    // This method approximates the integral of a function by dividing the area under the curve into trapezoids
    // and summing their areas.
    //
    // # Example
    //
    // ```
    // use gauss_quad::Trapezoid;
    // use approx::assert_abs_diff_eq;
    //
    // // initialize a trapezoid rule with 1000 grid points.
    // let rule = Trapezoid::new(1000.try_into().unwrap());
    //
    // // numerically integrate a function from -1.0 to 1.0 using the rule.
    // let integral = rule.integrate(-1.0, 1.0, |x| x * x - 1.0);
    //
    // assert_abs_diff_eq!(integral, -4.0 / 3.0, epsilon = 1e-5);
    // ```

    #[cfg(feature = "rayon")]
    use rayon::iter::{IntoParallelIterator, ParallelIterator};

    use core::num::NonZeroU32;

    use crate::__impl_node_rule;

    /// A trapezoid rule.
    ///
    /// This rule does not allocate anything on the heap.
    ///
    /// # Example
    ///
    /// ```
    /// use gauss_quad::Trapezoid;
    /// # use approx::assert_abs_diff_eq;
    ///
    /// // initialize a trapezoid rule with 1000 grid points.
    /// let rule = Trapezoid::new(1000.try_into().unwrap());
    ///
    /// // numerically integrate a function from -1.0 to 1.0 using the rule.
    /// let integral = rule.integrate(-1.0, 1.0, |x| x * x - 1.0);
    ///
    /// assert_abs_diff_eq!(integral, -4.0 / 3.0, epsilon = 1e-5);
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, fwdad::Differentiable)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct Trapezoid {
        degree: NonZeroU32,
    }

    #[fwdad::derive_frule]
    impl Trapezoid {
        /// Create a new instance of the Trapezoid rule with the given degree.
        pub const fn new(degree: NonZeroU32) -> Self {
            Self { degree }
        }

        /// Integrate a function using the trapezoidal rule.
        ///
        /// # Example
        ///
        /// ```
        /// use gauss_quad::Trapezoid;
        /// # use approx::assert_abs_diff_eq;
        ///
        /// let rule = Trapezoid::new(1000.try_into().unwrap());
        ///
        /// assert_abs_diff_eq!(rule.integrate(1.0, 2.0, |x| x * x), 7.0 / 3.0, epsilon = 1e-6);
        /// ```
        pub fn integrate<F>(&self, a: f64, b: f64, mut integrand: F) -> f64
        where
            F: FnMut(f64) -> f64,
        {
            let degree = self.degree.get();
            let delta_x = (b - a) / f64::from(degree);
            let edge_points = (integrand(a) + integrand(b)) / 2.0;
            let sum: f64 = (1..degree)
                .map(|x| integrand(a + f64::from(x) * delta_x))
                .sum();
            (edge_points + sum) * delta_x
        }

        #[cfg(feature = "rayon")]
        /// Same as [`integrate`](Self::integrate) but runs in parallel.
        pub fn par_integrate<F>(&self, a: f64, b: f64, integrand: F) -> f64
        where
            F: Fn(f64) -> f64 + Sync,
        {
            let degree = self.degree.get();
            let delta_x = (b - a) / f64::from(degree);
            let edge_points = (integrand(a) + integrand(b)) / 2.0;
            let sum: f64 = (1..degree)
                .into_par_iter()
                .map(|x| integrand(a + f64::from(x) * delta_x))
                .sum();
            (edge_points + sum) * delta_x
        }

        /// Sets the degree of the trapezoid rule to a new value.
        pub fn change_degree(&mut self, new_degree: NonZeroU32) {
            self.degree = new_degree;
        }
    }

    __impl_node_rule! {Trapezoid, TrapezoidIter}

    impl From<NonZeroU32> for Trapezoid {
        #[inline]
        fn from(degree: NonZeroU32) -> Self {
            Self { degree }
        }
    }
}

// ---- the checks ----

#[cfg(test)]
mod tests {
    use super::trapezoid::Trapezoid;
    use fwdad::prelude::*;
    use std::num::NonZeroU32;

    fn degree(n: u32) -> NonZeroU32 {
        NonZeroU32::new(n).unwrap()
    }

    /// `∫ₐᵇ sin(k x) e^{-c x} dx` by the trapezoid rule on 64 panels, `p = [a, b, k, c]`.
    #[derive_frule]
    fn damped(p: &[f64]) -> f64 {
        let quad = Trapezoid::new(NonZeroU32::new(64).unwrap());
        quad.integrate(p[0], p[1], |x| (p[2] * x).sin() * (-p[3] * x).exp())
    }

    fn published_damped(p: &[f64]) -> f64 {
        let quad = ::gauss_quad::Trapezoid::new(degree(64));
        quad.integrate(p[0], p[1], |x| (p[2] * x).sin() * (-p[3] * x).exp())
    }

    #[test]
    fn damped_integral_in_every_mode() {
        for p in [[0.0, 2.0, 3.0, 0.5], [-1.0, 0.5, 0.7, 2.0]] {
            assert_eq!(damped(&p).to_bits(), published_damped(&p).to_bits());
            crate::check_modes!(damped {}, published_damped, p);
        }
    }

    #[test]
    fn parameters_inside_the_integrand_against_the_rule_on_its_derivative() {
        // With fixed ends the rule is linear in the integrand: ∂/∂k of the rule is the rule
        // on ∂f/∂k, evaluated here by the published crate.
        let p = [0.2, 1.7, 2.5, 0.8];
        let (_, g) = gradient(damped {}, &p);
        let quad = ::gauss_quad::Trapezoid::new(degree(64));
        let (k, c) = (p[2], p[3]);
        let dk = quad.integrate(p[0], p[1], |x| x * (k * x).cos() * (-c * x).exp());
        let dc = quad.integrate(p[0], p[1], |x| -x * (k * x).sin() * (-c * x).exp());
        assert!(
            (g[2] - dk).abs() <= 1e-13 * dk.abs().max(1.0),
            "{} against {dk}",
            g[2]
        );
        assert!(
            (g[3] - dc).abs() <= 1e-13 * dc.abs().max(1.0),
            "{} against {dc}",
            g[3]
        );
        // The upper end: Leibniz's f(b) to the rule's order.
        let fb = (k * p[1]).sin() * (-c * p[1]).exp();
        assert!((g[1] - fb).abs() < 1e-3, "{} against f(b) = {fb}", g[1]);
    }

    /// `∫₀¹ e^{k x} dx` by Richardson's extrapolation of the trapezoid rule, `(4 T₂ₙ − Tₙ) / 3`,
    /// one rule whose degree `change_degree(&mut self, ..)` doubles.
    #[derive_frule]
    fn richardson(k: f64) -> f64 {
        let mut quad = Trapezoid::new(NonZeroU32::new(16).unwrap());
        let coarse = quad.integrate(0.0, 1.0, |x| (k * x).exp());
        quad.change_degree(NonZeroU32::new(32).unwrap());
        let fine = quad.integrate(0.0, 1.0, |x| (k * x).exp());
        (4.0 * fine - coarse) / 3.0
    }

    fn published_richardson(k: f64) -> f64 {
        let mut quad = ::gauss_quad::Trapezoid::new(degree(16));
        let coarse = quad.integrate(0.0, 1.0, |x| (k * x).exp());
        quad.change_degree(degree(32));
        let fine = quad.integrate(0.0, 1.0, |x| (k * x).exp());
        (4.0 * fine - coarse) / 3.0
    }

    #[test]
    fn richardson_against_the_closed_form() {
        for k in [0.5, 1.0, 2.0] {
            let (v, d) = derivative(richardson {}, k);
            assert_eq!(v.to_bits(), published_richardson(k).to_bits());
            // ∫₀¹ e^{kx} dx = (e^k − 1)/k, whose derivative is (k e^k − e^k + 1)/k².
            let e = k.exp();
            assert!((v - (e - 1.0) / k).abs() < 1e-7 * e, "the integral");
            let want = (k * e - e + 1.0) / (k * k);
            assert!((d - want).abs() < 1e-7 * e, "{d} against {want}");
            let (_, _, h) = hessian(richardson_on {}, &[k]);
            // (e^k (k² − 2k + 2) − 2)/k³.
            let want2 = (e * (k * k - 2.0 * k + 2.0) - 2.0) / (k * k * k);
            assert!(
                (h[(0, 0)] - want2).abs() < 1e-6 * e,
                "{} against {want2}",
                h[(0, 0)]
            );
        }
    }

    #[derive_frule]
    fn richardson_on(k: &[f64]) -> f64 {
        richardson(k[0])
    }
}
