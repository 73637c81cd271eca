//! What `#[derive_frule]` and `#[primitive]` generate the same way when they register a
//! rule (issue 25, item 3): today the generated parameter names.
//!
//! A generated function takes one parameter per parameter of the user's function. A
//! plain binding (`x`, `mut x`) keeps its name, so the rule's documented signature reads
//! like the user's; a pattern (`(a, b): (f64, f64)`) gets `argN` and a receiver `this`,
//! both at `Span::mixed_site()`: hygienic, so they never clash with a parameter the user
//! named `arg0` or `this`.

use proc_macro2::Span;
use quote::format_ident;

/// The name of the generated parameter standing for the user's `i`-th parameter.
pub(crate) fn param_name(i: usize, arg: &syn::FnArg) -> syn::Ident {
    match arg {
        syn::FnArg::Typed(t) => match &*t.pat {
            syn::Pat::Ident(pi) if pi.ident == "self" => receiver_name(),
            syn::Pat::Ident(pi) if pi.subpat.is_none() && pi.by_ref.is_none() => pi.ident.clone(),
            _ => format_ident!("arg{}", i, span = Span::mixed_site()),
        },
        syn::FnArg::Receiver(_) => receiver_name(),
    }
}

fn receiver_name() -> syn::Ident {
    syn::Ident::new("this", Span::mixed_site())
}
