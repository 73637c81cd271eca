//! Where `#[derive_frule]` puts a rule's body (`derive_frule::out_of_line`): in a function
//! of its own when a loop writes memory and a float reference is taken (so the references
//! keep `noalias`), never inlined unless those loops store only into parameters
//! (`derive_frule::body_inlinable`), or as the user's `#[inline(..)]` on the primal says.

use crate::derive_frule::expand;
use proc_macro2::TokenStream;
use std::str::FromStr;

/// Whether the expansion of `item` has an out-of-line body function.
fn out_of_line(item: &str) -> bool {
    let out = expand(
        TokenStream::new(),
        TokenStream::from_str(item).expect("valid tokens"),
    );
    let text = out.to_string();
    assert!(!text.contains("compile_error"), "{item}: {text}");
    text.contains("fn __fwdad_body")
}

#[test]
fn loops_writing_memory_with_float_references_go_out_of_line() {
    let cases = [
        // A loop storing into an output slice, into a local buffer, through `&mut`.
        ("fn f(x: &[f64], y: &mut [f64]) { for i in 0..x.len() { y[i] = x[i]; } }", true),
        ("fn f(x: &[f64]) -> f64 { let mut b = vec![0.0; 2]; for i in 0..2 { b[i] = x[i]; } b[0] }", true),
        ("fn f(x: &[f64], s: &mut f64) { for i in 0..2 { *s = x[i]; } }", true),
        ("fn f<T: Float>(x: &[T], y: &mut [T]) { for i in 0..2 { y[i] = x[i]; } }", true),
        ("fn f(x: &[[f64; 2]], y: &mut [f64]) { for i in 0..2 { y[i] = x[i][0]; } }", true),
        // Loops that only read, a store outside any loop, no float reference.
        ("fn f(x: &[f64]) -> f64 { let mut s = 0.0; for v in x { s += v; } s }", false),
        ("fn f(x: &[f64], y: &mut [f64]) { y[0] = x[0]; }", false),
        ("fn f(x: f64) -> f64 { let mut b = [0.0; 2]; for i in 0..2 { b[i] = x; } b[1] }", false),
        ("fn f(x: &Vec<f64>) -> f64 { let mut b = [0.0; 2]; for i in 0..2 { b[i] = x[i]; } b[1] }", false),
        // The user's attribute decides.
        ("#[inline(never)] fn f(x: &[f64]) -> f64 { x[0] }", true),
        ("#[inline] fn f(x: &[f64], y: &mut [f64]) { for i in 0..2 { y[i] = x[i]; } }", false),
        ("#[inline(always)] fn f(x: &[f64], y: &mut [f64]) { for i in 0..2 { y[i] = x[i]; } }", false),
    ];
    for (item, want) in cases {
        assert_eq!(out_of_line(item), want, "{item}");
    }
}

/// The `#[inline(..)]` attribute before `fn name` in the expansion of `item`.
fn inline_before(item: &str, name: &str) -> String {
    let out = expand(
        TokenStream::new(),
        TokenStream::from_str(item).expect("valid tokens"),
    );
    let text = out.to_string();
    let at = text
        .find(&format!("fn {name}"))
        .unwrap_or_else(|| panic!("no `fn {name}` in the expansion"));
    let attr = text[..at].rfind("# [inline").expect("an inline attribute");
    text[attr..]
        .split(']')
        .next()
        .unwrap_or_default()
        .to_string()
        + "]"
}

/// The `#[inline(..)]` attribute on the `Frule` impl's `frule` in the expansion of `item`.
fn frule_inline(item: &str) -> String {
    inline_before(item, "frule")
}

/// The user's `#[inline(always)]` holds for the rule as well (a large batched rule with
/// several callers is otherwise left out of line by LLVM); anything else leaves the
/// usual hint.
#[test]
fn the_users_inline_always_holds_for_the_rule() {
    let cases = [
        (
            "#[inline(always)] fn f(x: f64) -> f64 { x * x }",
            "# [inline (always)]",
        ),
        ("#[inline] fn f(x: f64) -> f64 { x * x }", "# [inline]"),
        ("fn f(x: f64) -> f64 { x * x }", "# [inline]"),
        (
            "#[inline(never)] fn f(x: &[f64]) -> f64 { x[0] }",
            "# [inline]",
        ),
    ];
    for (item, want) in cases {
        assert_eq!(frule_inline(item), want, "{item}");
    }
}

/// The `#[inline(..)]` attribute on the out-of-line body of `item`'s rule.
fn body_inline(item: &str) -> String {
    inline_before(item, "__fwdad_body")
}

/// An out-of-line body whose loops store only into parameters may be inlined (their
/// `noalias` survives as scoped metadata, and the body sees the caller's constants); a
/// store into a local buffer or a derived reference keeps it apart, as does the user's
/// `#[inline(never)]`.
#[test]
fn bodies_storing_only_into_parameters_may_be_inlined() {
    let cases = [
        (
            "fn f(x: &[f64], y: &mut [f64]) { for i in 0..x.len() { y[i] = x[i]; } }",
            "# [inline]",
        ),
        (
            "fn f(x: &[f64], s: &mut f64) { for i in 0..2 { *s = x[i]; } }",
            "# [inline]",
        ),
        (
            "fn f(x: &[f64]) -> f64 { let mut b = vec![0.0; 2]; for i in 0..2 { b[i] = x[i]; } b[0] }",
            "# [inline (never)]",
        ),
        (
            "fn f(x: &[f64], y: &mut [f64]) { let z = &mut y[1..]; for i in 0..2 { z[i] = x[i]; } }",
            "# [inline (never)]",
        ),
        (
            "#[inline(never)] fn f(x: &[f64], y: &mut [f64]) { for i in 0..2 { y[i] = x[i]; } }",
            "# [inline (never)]",
        ),
    ];
    for (item, want) in cases {
        assert_eq!(body_inline(item), want, "{item}");
    }
}
