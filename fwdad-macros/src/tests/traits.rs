//! `#[derive_frule]` on trait definitions: the supported forms expand without errors,
//! the unsupported ones give a `compile_error!` naming the trait and keep it; none panics.

use crate::derive_frule::expand;
use proc_macro2::TokenStream;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;

const SUPPORTED: &[&str] = &[
    "trait Material { fn stress(&self, s: f64) -> f64; fn energy(&self, s: f64) -> f64 { 0.5 * s * self.stress(s) } }",
    "pub trait Chain { fn link(&self, x: f64) -> f64; fn sum(&self, xs: &[f64], n: usize) -> f64 { let mut s = 0.0; for i in 0..n { s += self.link(xs[i]); } s } }",
    "pub(crate) trait Empty {}",
    // Wider signatures, associated items and supertraits (not dyn compatible, some of them).
    "trait Material { type P; fn stress(&self, s: f64) -> f64; }",
    "trait Material { const K: f64; fn stress(&self, s: f64) -> f64 { Self::K * s } }",
    "trait Material: Clone + Named { fn stress(&self, s: f64) -> f64; }",
    "trait Material: Sized { fn new(k: f64) -> Self; fn stiffer(&self, f: f64) -> Self; }",
    // A `where` clause bounding `Self` is a supertrait (deltae's `where Self: Sized`).
    "trait Material where Self: Sized + Clone { fn new(k: f64) -> Self; }",
    "trait Material { fn advance(&mut self, dt: f64); fn into_energy(self) -> f64 where Self: Sized; }",
    // Other `where` clauses are restated on every item generic over an implementing type
    // (kurbo's `ParamCurveCurvature: ParamCurveDeriv where Self::DerivResult: ParamCurveDeriv`).
    "trait Material where Self::P: Copy { type P; fn stress(&self, s: f64) -> f64; fn twice(&self, s: f64) -> f64 { 2.0 * self.stress(s) } }",
    "trait Material { fn stress(&self, s: Vec<f64>) -> f64; fn pair(&self) -> (f64, f64); fn arr(&self, s: f64) -> [f64; 2]; }",
    "trait Material { fn support(&self) -> Option<(f64, f64)> { None } fn reset(&self, s: f64); }",
    // A method no rule can have is accepted; only its calls are errors.
    "trait Material { fn stress<P>(&self, s: f64) -> f64; fn at(&self, f: impl Fn(f64) -> f64) -> f64; fn r(&self) -> &f64; }",
    // Generic over types: the rules are generic over the parameters (no `dyn`).
    "trait Material<T: Float> { fn stress(&self, s: T) -> T; fn energy(&self, s: T) -> T { s * self.stress(s) } }",
    "trait System<T, V> { fn system(&self, x: T, y: &V, dy: &mut V); fn solout(&mut self, _x: T, _y: &V) -> bool { false } }",
];

const REJECTED: &[&str] = &[
    "trait Material<const N: usize> { fn stress(&self, s: f64) -> f64; }",
    "trait Material<'a> { fn stress(&self, s: &'a [f64]) -> f64; }",
    "unsafe trait Material { fn stress(&self, s: f64) -> f64; }",
    "trait Material { type P<'a>; fn stress(&self, s: f64) -> f64; }",
];

fn run(src: &str) -> String {
    let item = TokenStream::from_str(src).expect("test input tokenizes");
    catch_unwind(AssertUnwindSafe(|| {
        expand(TokenStream::new(), item).to_string()
    }))
    .unwrap_or_else(|_| panic!("expand panicked on {src}"))
}

#[test]
fn supported_trait_forms_expand_cleanly() {
    for src in SUPPORTED {
        let out = run(src);
        assert!(!out.contains("compile_error"), "{src}\n=> {out}");
        assert!(out.contains("TraitRules"), "{src}: no rules registered");
    }
}

#[test]
fn unsupported_trait_forms_are_reported_at_the_trait() {
    for src in REJECTED {
        let out = run(src);
        assert!(out.contains("compile_error"), "{src} was accepted");
        assert!(
            out.contains("Material"),
            "{src}: the error does not name the trait"
        );
        // The user's trait is kept, so nothing else breaks.
        assert!(
            out.contains("trait Material"),
            "{src}: the trait was dropped"
        );
    }
}
