//! What `#[derive_frule]` and `#[primitive]` generate the same way when they register a
//! rule: the generated parameter names, the marker struct through which calls find the
//! rule, and the one-direction wrapper `name_frule` (or its `unreachable!()` stub when the
//! function had errors). Each macro builds the `Frule` impl between them its own way.
//!
//! A generated function takes one parameter per parameter of the user's function. A
//! plain binding (`x`, `mut x`) keeps its name, so the rule's documented signature reads
//! like the user's; a pattern (`(a, b): (f64, f64)`) gets `argN` and a receiver `this`,
//! both at `Span::mixed_site()`: hygienic, so they never clash with a parameter the user
//! named `arg0` or `this`.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};

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

/// The function that builds `name`'s marker from a turbofish (see
/// [`Registration::marker_fn`]).
pub(crate) fn marker_fn_name(name: &syn::Ident) -> syn::Ident {
    format_ident!("__fwdad_marker_{}", name)
}

/// `Ty::m(..)`'s rule, `Ty::add_derive_frule_to_the_impl_of_m()`: named so that rustc's
/// "no associated item named .. found for struct `Ty`", when `m`'s `impl` has no
/// `#[derive_frule]`, says what to write.
pub(crate) fn by_type_rule_name(method: &syn::Ident) -> syn::Ident {
    format_ident!(
        "add_derive_frule_to_the_impl_of_{}",
        method,
        span = method.span()
    )
}

/// `recv.m(..)`'s rule, the hidden method `recv.m_forward_rule()` that a derived body
/// calls on the receiver (an inherent method of a `#[derive_frule] impl`, a trait's
/// dispatch, a library type's rule, or the stand-in of a type without one). Named in
/// words: when `m` has no rule, rustc's note ``required by a bound in
/// `f_calls_m_without_a_rule::m_forward_rule` `` reads in the user's terms.
pub(crate) fn rule_method_name(method: &syn::Ident, span: Span) -> syn::Ident {
    format_ident!("{}_forward_rule", method, span = span)
}

/// The helper of method `m` for its `i`-th argument, `base` one of `fn_arg` (a closure
/// given its parameter's dual type), `fn_pass` (a closure or function value passed on
/// as the parameter takes it) and `rule_arg` (a function passed by name, as its rule):
/// `m_forward_rule_fn_arg1`. Named in words for the same reason as
/// [`rule_method_name`].
pub(crate) fn method_helper_name(
    base: &str,
    i: usize,
    method: &syn::Ident,
    span: Span,
) -> syn::Ident {
    format_ident!("{}_forward_rule_{}{}", method, base, i, span = span)
}

fn receiver_name() -> syn::Ident {
    syn::Ident::new("this", Span::mixed_site())
}

/// The public face of a registered rule.
pub(crate) struct Registration<'a> {
    /// The attribute that registers it (`derive_frule`, `primitive`), for the docs.
    pub attr: &'static str,
    /// The function's visibility and name.
    pub vis: &'a syn::Visibility,
    pub name: &'a syn::Ident,
    /// The function's generics (the wrapper's, with its `where` clause built by the caller).
    pub generics: &'a syn::Generics,
    /// The wrapper's parameters (see [`param_name`]) and their types (`Dual<T>`, or `T` for
    /// an `inactive` parameter).
    pub names: &'a [syn::Ident],
    pub inputs: Vec<TokenStream>,
    /// The wrapper's return type, `Dual<R>`.
    pub output: TokenStream,
    /// The wrapper's `where` clause.
    pub where_clause: TokenStream,
    /// Added to the wrapper's doc after "takes each argument as a `Dual` (value and tangent".
    pub doc_note: &'static str,
    /// Type parameters of the wrapper beyond the function's, with their bounds (the
    /// element tangents of `crate::const_args`).
    pub extra_generics: Vec<TokenStream>,
    /// Statements the wrapper runs before calling the rule (a constant's tangent of a
    /// borrowed value of the user's built in memory: `RefTangent`).
    pub preamble: TokenStream,
}

impl Registration<'_> {
    /// The marker struct `name` (generic over `phantom`: the type and const parameters
    /// that no parameter type names, which the `Frule` impl could not constrain otherwise),
    /// and its type (`name` or `name<A, K>`).
    pub fn marker(&self, phantom: &[&syn::GenericParam]) -> (TokenStream, TokenStream) {
        let (vis, name) = (self.vis, self.name);
        let doc = format!(
            "The forward rule of [`{name}`], registered by `#[{}]` (see `{name}_frule`).",
            self.attr
        );
        if phantom.is_empty() {
            let decl = quote! {
                #[doc = #doc]
                #[allow(non_camel_case_types)]
                #[derive(Clone, Copy, Debug, Default)]
                #vis struct #name {}
            };
            return (decl, quote!(#name));
        }
        let decls: Vec<TokenStream> = phantom
            .iter()
            .map(|p| match p {
                syn::GenericParam::Const(c) => {
                    let (ident, ty) = (&c.ident, &c.ty);
                    quote!(const #ident: #ty)
                }
                syn::GenericParam::Type(t) => t.ident.to_token_stream(),
                syn::GenericParam::Lifetime(l) => l.lifetime.to_token_stream(),
            })
            .collect();
        let args: Vec<&syn::Ident> = phantom
            .iter()
            .filter_map(|p| match p {
                syn::GenericParam::Const(c) => Some(&c.ident),
                syn::GenericParam::Type(t) => Some(&t.ident),
                syn::GenericParam::Lifetime(_) => None,
            })
            .collect();
        let types: Vec<&syn::Ident> = phantom
            .iter()
            .filter_map(|p| match p {
                syn::GenericParam::Type(t) => Some(&t.ident),
                _ => None,
            })
            .collect();
        let ty = quote!(#name<#(#args),*>);
        // Const parameters alone need no field, so a call written without a turbofish
        // (`diagonal(x, a)`, emitted `diagonal {}`) builds the marker and infers them.
        let fields = match types.is_empty() {
            true => TokenStream::new(),
            false => quote!(__fwdad_phantom: ::core::marker::PhantomData<fn() -> (#(#types,)*)>,),
        };
        let init = match types.is_empty() {
            true => TokenStream::new(),
            false => quote!(__fwdad_phantom: ::core::marker::PhantomData),
        };
        let decl = quote! {
            #[doc = #doc]
            #[allow(non_camel_case_types)]
            #vis struct #name<#(#decls),*> {
                #fields
            }
            impl<#(#decls),*> ::core::clone::Clone for #ty {
                fn clone(&self) -> Self {
                    *self
                }
            }
            impl<#(#decls),*> ::core::marker::Copy for #ty {}
            impl<#(#decls),*> ::core::default::Default for #ty {
                fn default() -> Self {
                    Self { #init }
                }
            }
            impl<#(#decls),*> ::core::fmt::Debug for #ty {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(::core::stringify!(#name))
                }
            }
        };
        (decl, ty)
    }

    /// `fn __fwdad_marker_name<T, const K: usize>() -> marker_ty`, for a function with type
    /// or const parameters: a call written with a turbofish (`scale::<2>(x)`) builds the
    /// marker through it, so the arguments reach a marker that is generic over them (and
    /// are dropped where it is not). Nothing for a function without such parameters.
    pub fn marker_fn(&self, marker_ty: &TokenStream, generic_marker: bool) -> TokenStream {
        let params: Vec<TokenStream> = self
            .generics
            .params
            .iter()
            .filter_map(|p| match p {
                // A float of an associated type (`ScalarOfM`) is inferred, not written.
                syn::GenericParam::Type(t) if crate::aliases::is_assoc_param(&t.ident) => None,
                syn::GenericParam::Type(t) => Some(t.ident.to_token_stream()),
                syn::GenericParam::Const(c) => {
                    let (ident, ty) = (&c.ident, &c.ty);
                    Some(quote!(const #ident: #ty))
                }
                syn::GenericParam::Lifetime(_) => None,
            })
            .collect();
        if params.is_empty() {
            return TokenStream::new();
        }
        let (vis, f) = (self.vis, marker_fn_name(self.name));
        let marker = match generic_marker {
            false => quote!(#marker_ty {}),
            true => quote!(<#marker_ty as ::core::default::Default>::default()),
        };
        quote! {
            #[doc(hidden)]
            #[allow(non_snake_case, dead_code)]
            #[inline(always)]
            #vis fn #f<#(#params),*>() -> #marker_ty {
                #marker
            }
        }
    }

    /// `fn name_frule(x: Dual<T>, ..) -> Dual<R>`: the one-direction rule, calling the rule
    /// of `marker_ty` (a plain marker is built as `name {}`, a generic one by `Default`).
    pub fn wrapper(
        &self,
        marker_ty: &TokenStream,
        generic_marker: bool,
        rt: &TokenStream,
    ) -> TokenStream {
        let names = self.names;
        let marker = match generic_marker {
            false => quote!(#marker_ty {}),
            true => quote!(<#marker_ty as ::core::default::Default>::default()),
        };
        let preamble = &self.preamble;
        self.wrapper_with(quote! {
            #preamble
            <#marker_ty as #rt::Frule<_, f64>>::frule(&#marker, (#(#names,)*))
        })
    }

    /// The wrapper's signature with an `unreachable!()` body: what callers see when the
    /// function had errors, so that only the real errors show.
    pub fn stub(&self) -> TokenStream {
        self.wrapper_with(quote!(::core::unreachable!()))
    }

    fn wrapper_with(&self, body: TokenStream) -> TokenStream {
        let (vis, name) = (self.vis, self.name);
        let wrapper = format_ident!("{}_frule", name);
        let (names, inputs, output) = (self.names, &self.inputs, &self.output);
        let (impl_generics, _, _) = self.generics.split_for_impl();
        let impl_generics = match self.extra_generics.is_empty() {
            true => impl_generics.into_token_stream(),
            false => {
                let (params, extra) = (self.generics.params.iter(), &self.extra_generics);
                quote!(<#(#params,)* #(#extra,)*>)
            }
        };
        let where_clause = &self.where_clause;
        let doc = format!(
            "Forward rule of [`{name}`] (registered by `#[{}]`): takes each argument as a `Dual` (value and tangent{}) and returns the value of `{name}` with its directional derivative.",
            self.attr, self.doc_note
        );
        let span = name.span();
        // `#[inline]`: a one-line forward to the rule, which callers in other crates
        // inline (with the rule) as they inline a generic function. `private_interfaces`:
        // the rule of a `pub fn` of a private type is a free function (its method is not
        // reachable, the function is).
        quote_spanned! {span=>
            #[doc = #doc]
            #[allow(dead_code, unused_variables, non_snake_case, private_interfaces, clippy::too_many_arguments, clippy::multiple_bound_locations)]
            #[inline]
            #vis fn #wrapper #impl_generics (#(#names: #inputs),*) -> #output #where_clause {
                #body
            }
        }
    }
}
