//! A limit on how deeply an item's tokens nest, checked before anything parses them.
//!
//! Parsing and lowering recurse once per nested expression, on the stack of the thread
//! rustc runs the macro on (8 MiB): a few hundred nested `if`, `match`, blocks or closures
//! (which generated code reaches) would overflow it and crash rustc, while the plain
//! function compiles. Past [`MAX_DEPTH`] nested delimiters the entry points instead
//! report an error at the innermost group too deep and give back the item unchanged.
//! Measured in a debug build of the macros on an 8 MiB stack: 250 levels of each
//! construct expand (`tests/nesting.rs`, whose `stack_probe` measures the stack one needs;
//! the figures are there): at most 5.7 MiB (nested closures). `emit::Emitter::inst`, on
//! the recursion of every nested `if`, `match` and loop, and `lower::Lowerer::lower_expr`,
//! on that of every nested expression, keep frames of a few hundred bytes by handling
//! each family in a function of its own: keep code out of them.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::quote_spanned;

/// The deepest nesting of delimiters (`()`, `[]`, `{}`) an entry point accepts.
pub(crate) const MAX_DEPTH: usize = 256;

/// The span of the first group nested deeper than `limit`, if any (iteratively, so
/// however deep `tokens` nest).
pub(crate) fn too_deep(tokens: &TokenStream, limit: usize) -> Option<Span> {
    let mut stack = vec![tokens.clone().into_iter()];
    while let Some(top) = stack.last_mut() {
        match top.next() {
            Some(TokenTree::Group(g)) => {
                if stack.len() > limit {
                    return Some(g.span());
                }
                stack.push(g.stream().into_iter());
            }
            Some(_) => {}
            None => {
                stack.pop();
            }
        }
    }
    None
}

/// For an item nested too deeply: a `compile_error!` at the place, followed by the item
/// as it was when `keep_item` (an attribute macro replaces its item; rustc compiles it, or
/// reports the nesting itself), not for a derive.
pub(crate) fn reject(attr: &str, item: &TokenStream, keep_item: bool) -> Option<TokenStream> {
    let span = too_deep(item, MAX_DEPTH)?;
    let msg = format!(
        "`{attr}` supports at most {MAX_DEPTH} nested brackets, blocks or parentheses; split this function into smaller ones"
    );
    let mut out = quote_spanned!(span=> ::core::compile_error! { #msg });
    if keep_item {
        out.extend(item.clone());
    }
    Some(out)
}
