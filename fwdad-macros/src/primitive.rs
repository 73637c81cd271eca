//! `#[primitive]` and `#[non_differentiable]`: register hand-written rules.
//!
//! (Being implemented.)

use proc_macro2::TokenStream;
use quote::quote;

/// Expands `#[primitive(args)] item`.
pub fn expand(_args: TokenStream, item: TokenStream) -> TokenStream {
    quote!(::core::compile_error!("`#[primitive]` is not implemented yet"); #item)
}

/// Expands `#[non_differentiable] item`.
pub fn expand_non_differentiable(_args: TokenStream, item: TokenStream) -> TokenStream {
    quote!(::core::compile_error!("`#[non_differentiable]` is not implemented yet"); #item)
}
