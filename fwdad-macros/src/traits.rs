//! `#[derive_frule]` on a trait definition, and what it asks of the `impl`s, of generic
//! parameters bounded by the trait and of `dyn Trait` parameters (`docs/design.md`,
//! "Traits").
//!
//! For `trait Material { fn stress(&self, s: f64) -> f64; fn energy(..) { .. } }` the
//! trait gets hidden items, all reached through the trait's own name (so wherever a call
//! `m.energy(s)` compiles, its rule is found):
//! * `__fwdad_rule_m(self: &&Self) where Self: Sized`: the dispatch a derived body calls
//!   (`recv.primal.__fwdad_rule_m()`), returning the marker
//!   `__fwdad_dispatch_Material_m<Self>`, whose `Frule` impl calls `Self::__fwdad_frule_m::<S>`
//!   (`&&Self`: rustc takes the trait's methods as inherent methods of `dyn Material`, and
//!   a `&self` one would be ambiguous with the dispatch on `dyn Material` below);
//! * `__fwdad_frule_m::<S>(this, args..)`: the rule in every mode; its default body is the
//!   rule derived from the default method's body (generic over the implementing type), or
//!   unreachable for a required method; `#[derive_frule] impl Material for T` overrides it
//!   with the rule of `T`'s method for each method the impl defines;
//! * `__fwdad_dyn(&self)`: in the vtable; `None` unless the impl is derived, where it gives
//!   the value as `&dyn Any` and the table of its type's rules at the two lane modes
//!   (`__fwdad_table`).
//!
//! Outside the trait: `impl dyn Material { fn __fwdad_rule_m(&self) }`, whose marker runs
//! the table once per lane (`fwdad_runtime::traits`), and `dyn Material: Differentiable`
//! with no tangent: the parameters of a trait object are constants (materials are data;
//! the strains are the variables).

use crate::args::Args;
use crate::derive_frule::{check_signature, emit_items, method_as_fn, pipeline};
use crate::diag::Diagnostics;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

/// How a parameter of a trait method crosses a `dyn` call.
#[derive(Clone)]
enum Kind {
    /// `f64`: its tangent is one lane.
    Float,
    /// `&[f64]`: its tangent is copied lane by lane.
    Slice,
    /// An integer or `bool`: no tangent.
    Plain(Box<syn::Type>),
}

fn kind_of(ty: &syn::Type) -> Option<Kind> {
    match ty {
        syn::Type::Paren(p) => kind_of(&p.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let id = p.path.get_ident()?.to_string();
            match id.as_str() {
                "f64" => Some(Kind::Float),
                "usize" | "isize" | "u8" | "u16" | "u32" | "u64" | "i8" | "i16" | "i32" | "i64"
                | "bool" => Some(Kind::Plain(Box::new(ty.clone()))),
                _ => None,
            }
        }
        syn::Type::Reference(r) if r.mutability.is_none() => match &*r.elem {
            syn::Type::Slice(s) => {
                matches!(kind_of(&s.elem), Some(Kind::Float)).then_some(Kind::Slice)
            }
            _ => None,
        },
        _ => None,
    }
}

/// A trait method's signature as the rules need it.
struct MethodSig {
    name: syn::Ident,
    params: Vec<(syn::Ident, Kind)>,
}

/// Reads a trait method's signature; reports what the trait rules do not support.
fn method_sig(tr: &syn::Ident, sig: &syn::Signature, diag: &mut Diagnostics) -> Option<MethodSig> {
    let name = &sig.ident;
    let mut ok = true;
    if let Some(g) = sig.generics.params.first() {
        diag.error_spanned(g, format!("`#[derive_frule]` on trait `{tr}`: the generic method `{name}` is not supported (a `dyn {tr}` could not call its rule); take concrete types"));
        ok = false;
    }
    match sig.inputs.first() {
        Some(syn::FnArg::Receiver(r))
            if r.reference.is_some() && r.mutability.is_none() && r.colon_token.is_none() => {}
        Some(other) => {
            diag.error_spanned(other, format!("`#[derive_frule]` on trait `{tr}`: `{name}` must take `&self` (a method taking `&mut self`, `self` or no receiver is not supported in a trait with rules)"));
            ok = false;
        }
        None => {
            diag.error_spanned(name, format!("`#[derive_frule]` on trait `{tr}`: `{name}` must take `&self` (associated functions are not supported in a trait with rules)"));
            ok = false;
        }
    }
    let mut params = Vec::new();
    for (i, arg) in sig.inputs.iter().enumerate().skip(1) {
        let syn::FnArg::Typed(t) = arg else { continue };
        let pname = match &*t.pat {
            syn::Pat::Ident(pi) if pi.subpat.is_none() && pi.by_ref.is_none() => pi.ident.clone(),
            _ => format_ident!("arg{}", i, span = Span::mixed_site()),
        };
        match kind_of(&t.ty) {
            Some(k) => params.push((pname, k)),
            None => {
                diag.error_spanned(&t.ty, format!("`#[derive_frule]` on trait `{tr}`: a parameter of a trait method must be `f64`, `&[f64]`, an integer or `bool` (the types a call on `dyn {tr}` passes lane by lane)"));
                ok = false;
            }
        }
    }
    let returns_f64 = matches!(&sig.output, syn::ReturnType::Type(_, t) if matches!(kind_of(t), Some(Kind::Float)));
    if !returns_f64 {
        let span: &dyn quote::ToTokens = match &sig.output {
            syn::ReturnType::Type(_, t) => t,
            syn::ReturnType::Default => name,
        };
        diag.error_spanned(span, format!("`#[derive_frule]` on trait `{tr}`: `{name}` must return `f64` (other results are not supported in a trait with rules)"));
        ok = false;
    }
    ok.then(|| MethodSig {
        name: name.clone(),
        params,
    })
}

fn mode() -> syn::Ident {
    format_ident!("__FwdadS", span = Span::mixed_site())
}

fn lt() -> syn::Lifetime {
    syn::Lifetime::new("'__fwdad_a", Span::mixed_site())
}

/// A parameter's type with its reference given the lifetime `'__fwdad_a` (or elided).
fn param_ty(k: &Kind, named: bool) -> TokenStream {
    let lt = lt();
    match (k, named) {
        (Kind::Float, _) => quote!(f64),
        (Kind::Slice, true) => quote!(&#lt [f64]),
        (Kind::Slice, false) => quote!(&[f64]),
        (Kind::Plain(t), _) => quote!(#t),
    }
}

fn dual(ty: &TokenStream, mode: &TokenStream, rt: &TokenStream) -> TokenStream {
    quote!(#rt::Dual<#ty, <#ty as #rt::Differentiable>::TangentIn<#mode>>)
}

/// `fn __fwdad_frule_m<'a, S: Mode>(this: Dual<&'a Self, ..>, x: Dual<f64, ..>, ..) -> Dual<f64, ..>
/// where Self: Sized + Differentiable`: the same in the trait and in a derived impl.
fn rule_sig(ms: &MethodSig, rt: &TokenStream) -> TokenStream {
    let (s, lt) = (mode(), lt());
    let f = format_ident!("__fwdad_frule_{}", ms.name);
    let sm = quote!(#s);
    let this = dual(&quote!(&#lt Self), &sm, rt);
    let params = ms.params.iter().map(|(n, k)| {
        let d = dual(&param_ty(k, true), &sm, rt);
        quote!(#n: #d)
    });
    let out = dual(&quote!(f64), &sm, rt);
    quote! {
        fn #f<#lt, #s: #rt::Mode>(this: #this, #(#params),*) -> #out
        where
            Self: ::core::marker::Sized + #rt::Differentiable<Tangent = <Self as #rt::Differentiable>::TangentIn<f64>>
    }
}

fn dispatch_marker(tr: &syn::Ident, m: &syn::Ident) -> syn::Ident {
    format_ident!("__fwdad_dispatch_{}_{}", tr, m)
}

fn table_name(tr: &syn::Ident) -> syn::Ident {
    format_ident!("__fwdad_{}_table", tr)
}

/// `#[derive_frule] trait Tr { .. }`.
pub(crate) fn expand_trait(args: TokenStream, tr: syn::ItemTrait) -> TokenStream {
    let mut diag = Diagnostics::new();
    let args = diag.handle(syn::parse2::<Args>(args)).unwrap_or_default();
    let rt = args.runtime_path();
    let name = &tr.ident;
    if let Some(g) = tr.generics.params.first() {
        diag.error_spanned(g, format!("`#[derive_frule]` does not support generic traits (`trait {name}<..>`): its rules would depend on the parameters; write the trait without them"));
    }
    if let Some(w) = &tr.generics.where_clause {
        diag.error_spanned(
            w,
            format!("`#[derive_frule]` does not support a `where` clause on trait `{name}`"),
        );
    }
    if let Some(b) = tr
        .supertraits
        .iter()
        .find(|b| matches!(b, syn::TypeParamBound::Trait(_)))
    {
        diag.error_spanned(b, format!("`#[derive_frule]` does not support supertraits on trait `{name}`: the rules of the supertrait's methods could not be found through `{name}`; call them through a parameter bounded by the supertrait"));
    }
    if let Some(u) = &tr.unsafety {
        diag.error_spanned(
            u,
            format!("`#[derive_frule]` does not support `unsafe trait {name}`"),
        );
    }
    let mut methods = Vec::new();
    for item in &tr.items {
        match item {
            syn::TraitItem::Fn(f) => {
                if let Some(ms) = method_sig(name, &f.sig, &mut diag) {
                    methods.push((ms, f));
                }
            }
            syn::TraitItem::Type(t) => diag.error_spanned(t, format!("`#[derive_frule]` does not support associated types in trait `{name}` (a `dyn {name}` would need them named); use concrete types")),
            syn::TraitItem::Const(c) => diag.error_spanned(c, format!("`#[derive_frule]` does not support associated constants in trait `{name}` (a `dyn {name}` could not hold them); use a method returning the value")),
            other => diag.error_spanned(other, format!("`#[derive_frule]` does not support this item in trait `{name}`")),
        }
    }
    if let Err(e) = diag.finish() {
        let e = e.to_compile_error();
        return quote!(#tr #e);
    }
    let mut diag = Diagnostics::new();
    let vis = &tr.vis;
    let table = table_name(name);
    let s = mode();
    let mut hidden = TokenStream::new();
    let mut outside = TokenStream::new();
    let mut dyn_dispatch = TokenStream::new();
    let mut table_fields = TokenStream::new();
    let mut table_init = TokenStream::new();
    let self_param: syn::Ident = format_ident!("__FwdadSelf");
    for (ms, f) in &methods {
        let m = &ms.name;
        let marker = dispatch_marker(name, m);
        let rule_fn = format_ident!("__fwdad_frule_{}", m);
        let dispatch = format_ident!("__fwdad_rule_{}", m);
        let sig = rule_sig(ms, &rt);
        let pnames: Vec<&syn::Ident> = ms.params.iter().map(|(n, _)| n).collect();
        // The default method's rule, derived from its body with `Self` a type parameter.
        let default_body = match &f.default {
            Some(block) => {
                let as_impl = syn::ImplItemFn {
                    attrs: vec![],
                    vis: syn::Visibility::Inherited,
                    defaultness: None,
                    sig: f.sig.clone(),
                    block: block.clone(),
                };
                let self_ty: syn::Type = syn::Type::Path(syn::TypePath {
                    qself: None,
                    path: self_param.clone().into(),
                });
                let mut generics = syn::Generics::default();
                let mut tp = syn::TypeParam::from(self_param.clone());
                let bound = syn::TraitBound {
                    paren_token: None,
                    modifier: syn::TraitBoundModifier::None,
                    lifetimes: None,
                    path: name.clone().into(),
                };
                tp.bounds.push(syn::TypeParamBound::Trait(bound));
                tp.colon_token = Some(Default::default());
                generics.params.push(syn::GenericParam::Type(tp));
                let func = method_as_fn(&as_impl, &self_ty, name, &generics);
                let fsig = check_signature(&func.sig, &mut diag, true);
                let body = pipeline(&func, &args, &[], &rt, &mut diag);
                if let (Some(fsig), Some(body)) = (fsig, body) {
                    outside.extend(emit_items(&func, &fsig, &body, &rt, false));
                }
                let dm = &func.sig.ident;
                quote!(<#dm as #rt::Frule<_, #s>>::frule(&#dm {}, (this, #(#pnames,)*)))
            }
            None => {
                let msg = format!("the rule of the required method `{name}::{m}` is given by each `#[derive_frule] impl {name}`");
                quote!(::core::unreachable!(#msg))
            }
        };
        hidden.extend(quote! {
            #[doc(hidden)]
            #[inline(always)]
            fn #dispatch(self: &&Self) -> #marker<Self>
            where
                Self: ::core::marker::Sized,
            {
                #marker(::core::marker::PhantomData)
            }
            #[doc(hidden)]
            #[inline]
            #[allow(unused_variables)]
            #sig
            {
                #default_body
            }
        });
        dyn_dispatch.extend(quote! {
            #[doc(hidden)]
            #[inline(always)]
            #vis fn #dispatch(&self) -> #marker<dyn #name + '__fwdad_b> {
                #marker(::core::marker::PhantomData)
            }
        });
        // The table's entries: the rule at one first-order and one second-order lane.
        let (f1, f2) = (format_ident!("{}_1", m), format_ident!("{}_2", m));
        let lane_ty = |mode: TokenStream| {
            let ps: Vec<TokenStream> = ms
                .params
                .iter()
                .map(|(_, k)| dual(&param_ty(k, false), &mode, &rt))
                .collect();
            let out = dual(&quote!(f64), &mode, &rt);
            quote!(fn(&dyn ::core::any::Any, #(#ps),*) -> #out)
        };
        let (t1, t2) = (lane_ty(quote!(f64)), lane_ty(quote!(#rt::Hyper<f64, f64>)));
        table_fields.extend(quote!(pub #f1: #t1, pub #f2: #t2,));
        let lane_fn = |mode: TokenStream| {
            quote! {
                |any, #(#pnames),*| {
                    let this: &Self = match any.downcast_ref::<Self>() {
                        ::core::option::Option::Some(t) => t,
                        ::core::option::Option::None => ::core::unreachable!(),
                    };
                    let zero = <Self as #rt::ZeroTangent>::zero_tangent_in::<#mode>(this);
                    <Self as #name>::#rule_fn::<#mode>(#rt::Dual::new(this, &zero), #(#pnames),*)
                }
            }
        };
        let (c1, c2) = (lane_fn(quote!(f64)), lane_fn(quote!(#rt::Hyper<f64, f64>)));
        table_init.extend(quote!(#f1: #c1, #f2: #c2,));
        // The marker and its rules: for a type, its `__fwdad_frule_m`; for `dyn Tr`, the
        // table's, once per lane.
        let ps_s: Vec<TokenStream> = ms
            .params
            .iter()
            .map(|(_, k)| dual(&param_ty(k, true), &quote!(#s), &rt))
            .collect();
        let out_s = dual(&quote!(f64), &quote!(#s), &rt);
        let lt = lt();
        let this_t = dual(&quote!(&#lt __FwdadT), &quote!(#s), &rt);
        let this_dyn = dual(&quote!(&#lt (dyn #name + '__fwdad_b)), &quote!(#s), &rt);
        let lane_args = |second: bool| -> Vec<TokenStream> {
            ms.params
                .iter()
                .map(|(n, k)| match (k, second) {
                    (Kind::Float, false) => quote!(#rt::Dual::new(#n.primal, #rt::traits::DynLanes::lane1(&#n.tangent, k))),
                    (Kind::Float, true) => quote!(#rt::Dual::new(#n.primal, #rt::traits::DynLanes::lane2(&#n.tangent, k))),
                    (Kind::Slice, false) => quote!(#rt::Dual::new(#n.primal, &#rt::traits::slice_lane1(#n.tangent, k)[..])),
                    (Kind::Slice, true) => quote!(#rt::Dual::new(#n.primal, &#rt::traits::slice_lane2(#n.tangent, k)[..])),
                    (Kind::Plain(_), _) => quote!(#rt::Dual::new(#n.primal, #rt::NoTangent)),
                })
                .collect()
        };
        let (a1, a2) = (lane_args(false), lane_args(true));
        let (tr_s, m_s) = (name.to_string(), m.to_string());
        outside.extend(quote! {
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #vis struct #marker<__FwdadT: ?::core::marker::Sized>(::core::marker::PhantomData<fn() -> *const __FwdadT>);

            #[automatically_derived]
            impl<#lt, __FwdadT: #name + #rt::Differentiable<Tangent = <__FwdadT as #rt::Differentiable>::TangentIn<f64>> + #lt, #s: #rt::Mode>
                #rt::Frule<(#this_t, #(#ps_s,)*), #s> for #marker<__FwdadT>
            {
                type Output = #out_s;
                #[inline(always)]
                fn frule(&self, (this, #(#pnames,)*): (#this_t, #(#ps_s,)*)) -> #out_s {
                    <__FwdadT as #name>::#rule_fn::<#s>(this, #(#pnames),*)
                }
            }

            #[automatically_derived]
            impl<#lt, '__fwdad_b, #s: #rt::Mode>
                #rt::Frule<(#this_dyn, #(#ps_s,)*), #s> for #marker<dyn #name + '__fwdad_b>
            {
                type Output = #out_s;
                #[allow(unused_variables)]
                fn frule(&self, (this, #(#pnames,)*): (#this_dyn, #(#ps_s,)*)) -> #out_s {
                    #rt::traits::check_dyn_mode::<#s>();
                    let (any, table) = match this.primal.__fwdad_dyn() {
                        ::core::option::Option::Some(t) => t,
                        ::core::option::Option::None => #rt::traits::no_dyn_rules(#tr_s, #m_s),
                    };
                    let mut tangent = <#s as #rt::ScalarTangent<f64>>::zero();
                    let mut primal = 0.0;
                    for k in 0..<#s as #rt::traits::DynLanes>::DYN_LANES {
                        if <#s as #rt::traits::DynLanes>::DYN_SECOND {
                            let r = (table.#f2)(any, #(#a2),*);
                            primal = r.primal;
                            #rt::traits::DynLanes::set_lane2(&mut tangent, k, r.tangent);
                        } else {
                            let r = (table.#f1)(any, #(#a1),*);
                            primal = r.primal;
                            #rt::traits::DynLanes::set_lane1(&mut tangent, k, r.tangent);
                        }
                    }
                    #rt::Dual::new(primal, tangent)
                }
            }
        });
    }
    if let Err(e) = diag.finish() {
        let e = e.to_compile_error();
        return quote!(#tr #e);
    }
    let mut tr_out = tr.clone();
    let extra: syn::ItemTrait = match syn::parse2(quote! {
        trait __X {
            #hidden
            #[doc(hidden)]
            fn __fwdad_dyn(&self) -> ::core::option::Option<(&dyn ::core::any::Any, #table)> {
                ::core::option::Option::None
            }
            #[doc(hidden)]
            fn __fwdad_table() -> #table
            where
                Self: ::core::marker::Sized + #rt::ZeroTangent<Tangent = <Self as #rt::Differentiable>::TangentIn<f64>> + 'static,
            {
                #table { #table_init }
            }
        }
    }) {
        Ok(t) => t,
        Err(e) => {
            let e = e.to_compile_error();
            return quote!(#tr #e);
        }
    };
    tr_out.items.extend(extra.items);
    let tr_tokens = quote_spanned!(Span::call_site()=> #tr_out);
    quote! {
        #tr_tokens

        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        #vis struct #table { #table_fields }

        #[automatically_derived]
        impl<'__fwdad_b> #rt::Differentiable for dyn #name + '__fwdad_b {
            type Tangent = #rt::NoTangent;
            type TangentIn<#s: #rt::Mode> = #rt::NoTangent;
        }
        #[automatically_derived]
        impl<'__fwdad_b> #rt::ZeroTangent for dyn #name + '__fwdad_b {
            fn zero_tangent(&self) -> #rt::NoTangent {
                #rt::NoTangent
            }
            fn zero_tangent_in<#s: #rt::Mode>(&self) -> #rt::NoTangent {
                #rt::NoTangent
            }
        }
        // A `&dyn Tr` bound as a constant (`Const(&m as &dyn Tr)`).
        #[automatically_derived]
        impl<'__fwdad_a, '__fwdad_b> #rt::ZeroTangent for &'__fwdad_a (dyn #name + '__fwdad_b) {
            fn zero_tangent(&self) -> &'__fwdad_a #rt::NoTangent {
                &#rt::NoTangent
            }
            fn zero_tangent_in<#s: #rt::Mode>(&self) -> &'__fwdad_a #rt::NoTangent {
                &#rt::NoTangent
            }
        }
        #[automatically_derived]
        impl<'__fwdad_b> #rt::traits::DerivedTrait for dyn #name + '__fwdad_b {}
        #[automatically_derived]
        impl #rt::traits::DynTable for dyn #name {
            type Table = #table;
        }

        impl<'__fwdad_b> dyn #name + '__fwdad_b {
            #dyn_dispatch
        }

        #outside
    }
}

/// Whether `#[derive_frule] impl Tr for T` is of a trait of the user's, whose definition
/// must carry `#[derive_frule]` (not a `std` trait, nor an operator).
pub(crate) fn is_user_trait(path: &syn::Path) -> bool {
    let Some(last) = path.segments.last() else {
        return false;
    };
    let n = last.ident.to_string();
    let std = crate::callee::float_has_trait(&n)
        || crate::callee::is_float_trait(&n)
        || matches!(
            n.as_str(),
            "Iterator"
                | "IntoIterator"
                | "From"
                | "Into"
                | "TryFrom"
                | "TryInto"
                | "Drop"
                | "Deref"
                | "DerefMut"
                | "AsRef"
                | "AsMut"
                | "Borrow"
                | "FromStr"
                | "Hash"
                | "Eq"
                | "Ord"
                | "Extend"
                | "FromIterator"
                | "Fn"
                | "FnMut"
                | "FnOnce"
                | "Any"
                | "Error"
                | "Write"
                | "Read"
        );
    !std
}

/// What `#[derive_frule] impl Tr for Ty` adds for a trait with rules: inside the impl, the
/// rules of the methods it defines (`__fwdad_frule_m`, calling `Ty`'s markers) and, for a
/// non-generic impl, its `dyn` table; outside, `Ty: DerivedImpl<dyn Tr>`.
pub(crate) fn impl_items(
    imp: &syn::ItemImpl,
    ty_ident: &syn::Ident,
    rt: &TokenStream,
) -> (Vec<syn::ImplItem>, TokenStream) {
    let Some((_, path, _)) = &imp.trait_ else {
        return (Vec::new(), TokenStream::new());
    };
    let tr = path.segments.last().map(|s| s.ident.clone());
    let Some(tr) = tr else {
        return (Vec::new(), TokenStream::new());
    };
    let mut items = Vec::new();
    let mut sink = Diagnostics::new();
    let s = mode();
    for item in &imp.items {
        let syn::ImplItem::Fn(m) = item else { continue };
        let Some(ms) = method_sig(&tr, &m.sig, &mut sink) else {
            continue;
        };
        let sig = rule_sig(&ms, rt);
        let marker = format_ident!("__fwdad_{}_{}", ty_ident, ms.name);
        let pnames = ms.params.iter().map(|(n, _)| n);
        let f: syn::ImplItem = match syn::parse2(quote! {
            #[doc(hidden)]
            #[inline(always)]
            #sig
            {
                <#marker as #rt::Frule<_, #s>>::frule(&#marker {}, (this, #(#pnames,)*))
            }
        }) {
            Ok(f) => f,
            Err(_) => continue,
        };
        items.push(f);
    }
    // Errors in the methods' signatures are the trait's to report.
    let _ = sink.finish();
    if imp.generics.params.is_empty() {
        let dyn_fn: syn::ImplItem = match syn::parse2(quote! {
            #[doc(hidden)]
            fn __fwdad_dyn(&self) -> ::core::option::Option<(&dyn ::core::any::Any, <dyn #path as #rt::traits::DynTable>::Table)> {
                ::core::option::Option::Some((self, <Self as #path>::__fwdad_table()))
            }
        }) {
            Ok(f) => f,
            Err(_) => return (items, TokenStream::new()),
        };
        items.push(dyn_fn);
    }
    let self_ty = &imp.self_ty;
    let (impl_generics, _, where_clause) = imp.generics.split_for_impl();
    let outside = quote! {
        #[automatically_derived]
        impl #impl_generics #rt::traits::DerivedImpl<dyn #path> for #self_ty #where_clause {}
    };
    (items, outside)
}

/// The type parameters bounded by a trait of the user's and by no float trait
/// (`M: Material`), each with those traits.
pub(crate) fn trait_params(generics: &syn::Generics) -> Vec<(syn::Ident, Vec<syn::Path>)> {
    let fn_params = crate::higher_order::fn_type_params(generics);
    let mut out = Vec::new();
    for tp in generics.type_params() {
        if fn_params.contains(&tp.ident) {
            continue;
        }
        let mut bounds: Vec<&syn::TypeParamBound> = tp.bounds.iter().collect();
        if let Some(w) = &generics.where_clause {
            for pred in &w.predicates {
                if let syn::WherePredicate::Type(pt) = pred {
                    if matches!(&pt.bounded_ty, syn::Type::Path(p) if p.path.is_ident(&tp.ident)) {
                        bounds.extend(pt.bounds.iter());
                    }
                }
            }
        }
        let paths: Vec<&syn::Path> = bounds
            .iter()
            .filter_map(|b| match b {
                syn::TypeParamBound::Trait(t) => Some(&t.path),
                _ => None,
            })
            .collect();
        let names: Vec<String> = paths
            .iter()
            .filter_map(|p| p.segments.last().map(|s| s.ident.to_string()))
            .collect();
        if names.iter().any(|n| crate::callee::is_float_trait(n)) {
            continue;
        }
        let user: Vec<syn::Path> = paths
            .iter()
            .filter(|p| is_user_trait(p))
            .map(|p| (*p).clone())
            .collect();
        if !user.is_empty() {
            out.push((tp.ident.clone(), user));
        }
    }
    out
}

/// The rule's bounds for the parameters of [`trait_params`]: each is `Differentiable`,
/// its trait has rules, and its `impl` of the trait is derived. (`__FwdadSelf`, the
/// implementing type in a default method's rule, is asked only the first: the trait's
/// own rule calls it.)
pub(crate) fn trait_param_preds(generics: &syn::Generics, rt: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    for (p, traits) in trait_params(generics) {
        out.extend(
            quote!(#p: #rt::Differentiable<Tangent = <#p as #rt::Differentiable>::TangentIn<f64>>,),
        );
        if p == "__FwdadSelf" {
            continue;
        }
        for t in traits {
            out.extend(quote!(#p: #rt::traits::DerivedImpl<dyn #t>,));
        }
    }
    out
}

/// The traits of the trait objects a type mentions (`&dyn Material`, `&[Box<dyn Material>]`),
/// except function traits.
pub(crate) fn dyn_traits(ty: &syn::Type) -> Vec<syn::Path> {
    struct Find(Vec<syn::Path>);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_type_trait_object(&mut self, t: &'ast syn::TypeTraitObject) {
            for b in &t.bounds {
                if let syn::TypeParamBound::Trait(tb) = b {
                    let n = tb
                        .path
                        .segments
                        .last()
                        .map(|s| s.ident.to_string())
                        .unwrap_or_default();
                    if !matches!(n.as_str(), "Fn" | "FnMut" | "FnOnce") && is_user_trait(&tb.path) {
                        self.0.push(tb.path.clone());
                    }
                }
            }
            syn::visit::visit_type_trait_object(self, t);
        }
    }
    let mut f = Find(Vec::new());
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

/// For each trait bounding a type parameter (`M: Material`) or named by a trait object
/// among the parameter types (`&dyn Material`), an item that holds only if the trait has
/// rules (`dyn Material: DerivedTrait`), spanned at the user's trait: a trait without
/// `#[derive_frule]` is named where the user wrote it, with what to do.
pub(crate) fn trait_checks(sig: &syn::Signature, rt: &TokenStream) -> TokenStream {
    let mut paths: Vec<syn::Path> = trait_params(&sig.generics)
        .into_iter()
        .filter(|(p, _)| p != "__FwdadSelf")
        .flat_map(|(_, t)| t)
        .collect();
    for arg in &sig.inputs {
        if let syn::FnArg::Typed(t) = arg {
            paths.extend(dyn_traits(&t.ty));
        }
    }
    let mut out = TokenStream::new();
    for p in paths {
        let span = p
            .segments
            .last()
            .map(|s| s.ident.span())
            .unwrap_or_else(Span::call_site);
        out.extend(quote_spanned! {span=>
            const _: () = {
                #[allow(dead_code, non_snake_case)]
                fn __fwdad_trait_has_rules()
                where
                    dyn #p: #rt::traits::DerivedTrait,
                {
                }
            };
        });
    }
    out
}

/// Reports trait objects behind a reference inside a container (`&[&dyn Material]`):
/// their elements reach the trait's own dispatch, which a trait object cannot call.
pub(crate) fn check_dyn_params(sig: &syn::Signature, diag: &mut Diagnostics) {
    struct Find(Vec<syn::TypeReference>, bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_type_slice(&mut self, t: &'ast syn::TypeSlice) {
            let outer = std::mem::replace(&mut self.1, true);
            syn::visit::visit_type_slice(self, t);
            self.1 = outer;
        }
        fn visit_type_array(&mut self, t: &'ast syn::TypeArray) {
            let outer = std::mem::replace(&mut self.1, true);
            syn::visit::visit_type_array(self, t);
            self.1 = outer;
        }
        fn visit_path_arguments(&mut self, a: &'ast syn::PathArguments) {
            let outer = std::mem::replace(&mut self.1, true);
            syn::visit::visit_path_arguments(self, a);
            self.1 = outer;
        }
        fn visit_type_reference(&mut self, r: &'ast syn::TypeReference) {
            let to_user_object = matches!(&*r.elem, syn::Type::TraitObject(t) if t.bounds.iter().any(|b| matches!(b, syn::TypeParamBound::Trait(tb) if is_user_trait(&tb.path))));
            if self.1 && to_user_object {
                self.0.push(r.clone());
            }
            syn::visit::visit_type_reference(self, r);
        }
    }
    for arg in &sig.inputs {
        if let syn::FnArg::Typed(t) = arg {
            let mut f = Find(Vec::new(), false);
            syn::visit::Visit::visit_type(&mut f, &t.ty);
            for r in f.0 {
                diag.error_spanned(&r, "`#[derive_frule]` does not support references to trait objects inside a slice, array or other type (`&[&dyn Trait]`): box them (`&[Box<dyn Trait>]`), or take the objects one by one (`&dyn Trait`)");
            }
        }
    }
}

/// `fn total(m: &impl Material, ..)` as `fn total<__FwdadImpl0: Material>(m: &__FwdadImpl0, ..)`,
/// for the rule; `None` when no parameter has an `impl Trait` of the user's traits (an
/// `impl Fn(..)` is a function value, `crate::higher_order`).
pub(crate) fn desugar_impl_trait(func: &syn::ItemFn) -> Option<syn::ItemFn> {
    use syn::visit_mut::VisitMut;
    struct Desugar(Vec<syn::TypeParam>);
    impl VisitMut for Desugar {
        fn visit_type_mut(&mut self, ty: &mut syn::Type) {
            if let syn::Type::ImplTrait(it) = ty {
                let all_user = it.bounds.iter().all(|b| match b {
                    syn::TypeParamBound::Trait(tb) => is_user_trait(&tb.path),
                    syn::TypeParamBound::Lifetime(_) => true,
                    _ => false,
                });
                let any_trait = it
                    .bounds
                    .iter()
                    .any(|b| matches!(b, syn::TypeParamBound::Trait(_)));
                if all_user && any_trait {
                    let name = format_ident!("__FwdadImpl{}", self.0.len());
                    let mut tp = syn::TypeParam::from(name.clone());
                    tp.colon_token = Some(Default::default());
                    tp.bounds = it.bounds.clone();
                    self.0.push(tp);
                    *ty = syn::Type::Path(syn::TypePath {
                        qself: None,
                        path: name.into(),
                    });
                    return;
                }
            }
            syn::visit_mut::visit_type_mut(self, ty);
        }
    }
    let mut f = func.clone();
    let mut d = Desugar(Vec::new());
    for arg in f.sig.inputs.iter_mut() {
        if let syn::FnArg::Typed(t) = arg {
            d.visit_type_mut(&mut t.ty);
        }
    }
    if d.0.is_empty() {
        return None;
    }
    f.sig
        .generics
        .params
        .extend(d.0.into_iter().map(syn::GenericParam::Type));
    Some(f)
}
