//! `rule!(Model::loss)`: the rule handle of a method of `#[derive_frule] impl Model`, for
//! the drivers (`gradient(bind(rule!(Model::loss), (&model, Wrt)), &w)`).
//!
//! A free function's handle is its marker struct, `loss {}`; a method has no marker a
//! path can name (`Model::loss {}` is rustc's E0223, an associated type), so the handle is
//! the hidden associated function each annotated method gets on its type,
//! `Model::add_derive_frule_to_the_impl_of_loss()`, whose name rustc's error repeats when
//! the `impl` is not annotated.

use proc_macro2::TokenStream;
use quote::quote;

/// The hint every error of `rule!` ends with.
const SPELLING: &str = "write `rule!(Model::loss)` for the method `loss` of `#[derive_frule] impl Model` (`rule!(Vec2::<f64>::norm)` for a generic type), and the marker `f {}` for a free function `f`";

/// Expands `rule!(Ty::m)` (`rule!(path::to::Ty::m)`, `rule!(Ty::<f64>::m)`,
/// `rule!(<Ty as Trait>::m)`) to the rule handle of the method `m`.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match handle(input) {
        Ok(t) => t,
        Err(e) => e.to_compile_error(),
    }
}

fn handle(input: TokenStream) -> syn::Result<TokenStream> {
    let span = proc_macro2::Span::call_site();
    if input.is_empty() {
        return Err(syn::Error::new(
            span,
            format!("`rule!` takes the path of a method: {SPELLING}"),
        ));
    }
    let path: syn::ExprPath = syn::parse2(input.clone()).map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("`rule!` takes the path of a method, not an expression: {SPELLING}"),
        )
    })?;
    let mut segments = path.path.segments.clone();
    let method = match segments.pop() {
        Some(last) => last.into_value(),
        None => return Err(syn::Error::new(span, SPELLING)),
    };
    if !method.arguments.is_none() {
        return Err(syn::Error::new_spanned(
            &method.arguments,
            format!("`rule!` does not take generic arguments on the method: {SPELLING}"),
        ));
    }
    // `rule!(loss)`: a free function, whose handle is its marker.
    if segments.is_empty() && path.qself.is_none() {
        return Err(syn::Error::new_spanned(
            &method.ident,
            format!(
                "`rule!` takes a method's path (`Type::{0}`); the handle of a free function `{0}` is its marker, `{0} {{}}`",
                method.ident
            ),
        ));
    }
    // `Model::` with its trailing `::` popped (`Punctuated::pop` keeps it).
    let mut ty = path.clone();
    ty.path.segments = segments;
    if ty.path.segments.trailing_punct() {
        let last = ty.path.segments.pop().map(|p| p.into_value());
        if let Some(last) = last {
            ty.path.segments.push_value(last);
        }
    }
    let entry = crate::register::by_type_rule_name(&method.ident);
    // The type's own spelling (`a::Ty`, `Ty::<f64>`), then the hidden entry; of
    // `<Ty as Trait>::m`, the type's (the entry is on the type, not the trait).
    Ok(match &ty.qself {
        Some(q) => {
            let q = &q.ty;
            quote!(<#q>::#entry())
        }
        None => quote!(#ty::#entry()),
    })
}
