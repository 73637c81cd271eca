//! `#[derive(Differentiable)]`: the tangent type of a user struct (being implemented).

use proc_macro2::TokenStream;
use quote::quote;

/// Expands `#[derive(Differentiable)] item`.
pub fn expand(_item: TokenStream) -> TokenStream {
    quote!(::core::compile_error!("`#[derive(Differentiable)]` is not implemented yet");)
}
