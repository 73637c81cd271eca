//! `#[derive_frule]` on a trait definition, and what it asks of the `impl`s, of generic
//! parameters bounded by the trait and of `dyn Trait` parameters (`docs/design.md`,
//! "Traits").
//!
//! For `trait Material { fn stress(&self, s: f64) -> f64; fn energy(..) { .. } }` the
//! trait gets hidden items, all reached through the trait's own name (so wherever a call
//! `m.energy(s)` compiles, its rule is found):
//! * `m_forward_rule(self: &&Self) where Self: Sized`: the dispatch a derived body calls
//!   (`recv.primal.m_forward_rule()`), returning the marker
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
//! Outside the trait: `impl dyn Material { fn m_forward_rule(&self) }`, whose marker runs
//! the table once per lane (`fwdad_runtime::traits`), and `dyn Material: Differentiable`
//! with no tangent: the parameters of a trait object passed in are constants (materials
//! are data; the strains are the variables). A value boxed as a trait object in a derived
//! body carries its tangent inside the object instead (`carrier_items`,
//! `box_with_its_derivative`), which `&self` and `&mut self` calls through `dyn` read and
//! write.

use crate::args::Args;
use crate::derive_frule::{check_signature, emit_items, method_as_fn, pipeline};
use crate::diag::Diagnostics;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

/// How a parameter of a trait method crosses a `dyn` call: its tangent is cut into the
/// lanes of the table's modes by `LaneValue` (`fwdad_runtime::traits`), of the type itself
/// or of what it refers to.
#[derive(Clone)]
enum Kind {
    /// An owned value without references (`f64`, `[f64; 3]`, `(f64, f64)`, a struct of the
    /// user's, an integer): cloned per lane, its tangent lane passed.
    Value(Box<syn::Type>),
    /// `&[T]`: the tangent's lane copied into a `Vec`.
    Slice(Box<syn::Type>),
    /// `&T`: the tangent's lane owned and borrowed.
    Ref(Box<syn::Type>),
    /// `&mut [T]`: the primal restored and the lane copied for each lane, the lane written
    /// back after it.
    MutSlice(Box<syn::Type>),
    /// `&mut T`: as `&mut [T]`, for one value.
    MutRef(Box<syn::Type>),
}

impl Kind {
    /// The type whose `LaneValue` the lanes use, and whether it must be `Clone`.
    fn lane_type(&self) -> (&syn::Type, bool) {
        match self {
            Kind::Value(t) | Kind::MutSlice(t) | Kind::MutRef(t) => (t, true),
            Kind::Slice(t) | Kind::Ref(t) => (t, false),
        }
    }
}

fn kind_of(ty: &syn::Type) -> Option<Kind> {
    match ty {
        syn::Type::Paren(p) => kind_of(&p.elem),
        syn::Type::Reference(r) => {
            let (elem, slice) = match &*r.elem {
                syn::Type::Slice(s) => (&*s.elem, true),
                e => (e, false),
            };
            if has_reference(elem) || matches!(elem, syn::Type::Path(p) if p.path.is_ident("str")) {
                return None;
            }
            let elem = Box::new(elem.clone());
            match (r.mutability.is_some(), slice) {
                (false, true) => Some(Kind::Slice(elem)),
                (false, false) => Some(Kind::Ref(elem)),
                (true, true) => Some(Kind::MutSlice(elem)),
                (true, false) => Some(Kind::MutRef(elem)),
            }
        }
        t if !has_reference(t) => Some(Kind::Value(Box::new(t.clone()))),
        _ => None,
    }
}

/// How a trait method takes its receiver.
#[derive(Clone, Copy, PartialEq)]
enum Recv {
    Ref,
    Mut,
    Value,
    /// An associated function (`fn new(..) -> Self`).
    None,
}

/// A trait method's signature as the rules need it.
struct MethodSig {
    name: syn::Ident,
    recv: Recv,
    /// Each parameter with its type, elided lifetimes named `'__fwdad_a`.
    params: Vec<(syn::Ident, syn::Type)>,
    /// The result (`()` when none).
    output: syn::Type,
    /// How the parameters cross a `dyn` call, when a `dyn` value can run the method: it
    /// takes `&self`, owned values, `&T`, `&[T]` or `&mut [T]` of types without references,
    /// and returns a value without references.
    lanes: Option<Vec<Kind>>,
    /// A method taking functions (`fn integrate<F: Fn(f64) -> f64>(&self, f: F, ..)`):
    /// which parameters are function values, passed to the rule as they are (their types
    /// in `params` the rule's, `Fn` over duals in the mode `__FwdadS`), and the rule's extra
    /// generic parameters and `where` predicates (`fn_method_sig`).
    fns: Option<FnValues>,
    /// What the rule asks of a generic trait's parameters (`T: Differentiable<..>,`).
    preds: TokenStream,
}

struct FnValues {
    flags: Vec<bool>,
    params: TokenStream,
    names: Vec<syn::Ident>,
    preds: TokenStream,
}

/// A method of a trait with rules.
enum Method<'t> {
    /// With a rule in every mode (and, if `lanes`, through `dyn`).
    Rules(MethodSig, &'t syn::TraitItemFn),
    /// Without one (its signature or default body is beyond the macro): calls of it in
    /// derived bodies are errors at the call, the trait is accepted. With its signature
    /// when only the default body is: an `impl` overriding it still gives its rule.
    Without(syn::Ident, Recv, Option<MethodSig>),
}

fn receiver(sig: &syn::Signature) -> Option<Recv> {
    match sig.inputs.first() {
        Some(syn::FnArg::Receiver(r)) if r.colon_token.is_none() => {
            Some(match (&r.reference, &r.mutability) {
                (Some(_), None) => Recv::Ref,
                (Some(_), Some(_)) => Recv::Mut,
                (None, _) => Recv::Value,
            })
        }
        // `self: Box<Self>`, `self: &Rc<Self>`.
        Some(syn::FnArg::Receiver(_)) => None,
        _ => Some(Recv::None),
    }
}

/// Whether a type has something no rule can take or give: `impl Trait`, a trait object,
/// a function pointer, a macro, `_`.
fn beyond_rules(ty: &syn::Type) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_type(&mut self, t: &'ast syn::Type) {
            match t {
                syn::Type::ImplTrait(_)
                | syn::Type::TraitObject(_)
                | syn::Type::BareFn(_)
                | syn::Type::Macro(_)
                | syn::Type::Infer(_)
                | syn::Type::Never(_)
                | syn::Type::Ptr(_)
                | syn::Type::Verbatim(_) => self.0 = true,
                _ => syn::visit::visit_type(self, t),
            }
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

fn has_reference(ty: &syn::Type) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_type_reference(&mut self, _: &'ast syn::TypeReference) {
            self.0 = true;
        }
        fn visit_lifetime(&mut self, _: &'ast syn::Lifetime) {
            self.0 = true;
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

/// The type with each elided or anonymous lifetime named `'__fwdad_a`, so the parameter's
/// dual names one lifetime for its primal and its tangent.
fn named_lifetimes(ty: &syn::Type) -> syn::Type {
    use syn::visit_mut::VisitMut;
    struct Name;
    impl VisitMut for Name {
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            if r.lifetime.as_ref().is_none_or(|l| l.ident == "_") {
                r.lifetime = Some(lt());
            }
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
    }
    let mut t = ty.clone();
    Name.visit_type_mut(&mut t);
    t
}

/// Whether the method has `where Self: Sized` (not in a trait object's vtable).
fn sized_only(sig: &syn::Signature) -> bool {
    sig.generics.where_clause.as_ref().is_some_and(|w| {
        w.predicates.iter().any(|p| match p {
            syn::WherePredicate::Type(t) => {
                matches!(&t.bounded_ty, syn::Type::Path(p) if p.path.is_ident("Self"))
                    && t.bounds.iter().any(|b| matches!(b, syn::TypeParamBound::Trait(tb) if tb.path.is_ident("Sized")))
            }
            _ => false,
        })
    })
}

fn mentions_self(ty: &syn::Type) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_path_segment(&mut self, s: &'ast syn::PathSegment) {
            if s.ident == "Self" {
                self.0 = true;
            }
            syn::visit::visit_path_segment(self, s);
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

/// Reads a trait method's signature; `None` when no rule can have it (a generic method,
/// a receiver such as `self: Box<Self>`, `impl Trait` or `dyn` types, a returned
/// reference, `async`, variadics).
fn method_sig(sig: &syn::Signature) -> Option<MethodSig> {
    if !sig.generics.params.is_empty()
        || sig.asyncness.is_some()
        || sig.variadic.is_some()
        || sig.constness.is_some()
    {
        return None;
    }
    let recv = receiver(sig)?;
    let mut params = Vec::new();
    for (i, arg) in sig.inputs.iter().enumerate() {
        let syn::FnArg::Typed(t) = arg else { continue };
        if beyond_rules(&t.ty) {
            return None;
        }
        let pname = match &*t.pat {
            syn::Pat::Ident(pi) if pi.subpat.is_none() && pi.by_ref.is_none() => pi.ident.clone(),
            _ => format_ident!("arg{}", i, span = Span::mixed_site()),
        };
        params.push((pname, named_lifetimes(&t.ty)));
    }
    let output: syn::Type = match &sig.output {
        syn::ReturnType::Type(_, t) => (**t).clone(),
        syn::ReturnType::Default => syn::parse_quote!(()),
    };
    if beyond_rules(&output) || has_reference(&output) {
        return None;
    }
    let lanes = match recv {
        Recv::Ref | Recv::Mut if !sized_only(sig) => params
            .iter()
            .map(|(_, t)| kind_of(t))
            .collect::<Option<Vec<Kind>>>(),
        _ => None,
    };
    Some(MethodSig {
        name: sig.ident.clone(),
        recv,
        params,
        output,
        lanes,
        fns: None,
        preds: TokenStream::new(),
    })
}

/// A required method taking function values and generic over their types only (`fn
/// integrate<F: Fn(f64) -> f64>(&self, f: F, a: f64, b: f64) -> f64`, `f: impl Fn(f64) ->
/// f64`, `f: &dyn Fn(f64) -> f64`): its rule takes the functions as a derived body passes
/// them (closures over duals, through the trait's `__fwdad_fn_arg<i>_m` helpers), as a
/// method of a type does (`higher_order::rule_types`).
fn fn_method_sig(sig: &syn::Signature, rt: &TokenStream) -> Option<MethodSig> {
    let flags = crate::higher_order::fn_value_params(sig);
    if !flags.contains(&true) {
        return None;
    }
    let fn_params = crate::higher_order::fn_type_params(&sig.generics);
    if sig.asyncness.is_some() || sig.variadic.is_some() || sig.constness.is_some() {
        return None;
    }
    if sig.generics.params.iter().any(|p| match p {
        syn::GenericParam::Type(t) => !fn_params.contains(&t.ident),
        _ => true,
    }) {
        return None;
    }
    let recv = receiver(sig)?;
    if !matches!(recv, Recv::Ref | Recv::Mut) {
        return None;
    }
    let s = mode();
    let (generics, types) = crate::higher_order::rule_types(sig, &flags, rt, quote!(#s), true);
    let mut params = Vec::new();
    let mut pflags = Vec::new();
    for (i, arg) in sig.inputs.iter().enumerate() {
        let syn::FnArg::Typed(t) = arg else { continue };
        let pname = match &*t.pat {
            syn::Pat::Ident(pi) if pi.subpat.is_none() && pi.by_ref.is_none() => pi.ident.clone(),
            _ => format_ident!("arg{}", i, span = Span::mixed_site()),
        };
        match (flags.get(i), types.get(i)) {
            (Some(true), Some(Some(ty))) => {
                params.push((pname, named_lifetimes(ty)));
                pflags.push(true);
            }
            (Some(true), _) => return None,
            _ => {
                if beyond_rules(&t.ty) {
                    return None;
                }
                params.push((pname, named_lifetimes(&t.ty)));
                pflags.push(false);
            }
        }
    }
    let output: syn::Type = match &sig.output {
        syn::ReturnType::Type(_, t) => (**t).clone(),
        syn::ReturnType::Default => syn::parse_quote!(()),
    };
    if beyond_rules(&output) || has_reference(&output) {
        return None;
    }
    let tparams: Vec<&syn::TypeParam> = generics.type_params().collect();
    let names = tparams.iter().map(|t| t.ident.clone()).collect();
    let gparams = quote!(#(#tparams,)*);
    let preds = match &generics.where_clause {
        Some(w) => {
            let p = w.predicates.iter();
            quote!(#(#p,)*)
        }
        None => TokenStream::new(),
    };
    Some(MethodSig {
        name: sig.ident.clone(),
        recv,
        params,
        output,
        lanes: None,
        fns: Some(FnValues {
            flags: pflags,
            params: gparams,
            names,
            preds,
        }),
        preds: TokenStream::new(),
    })
}

/// The trait's helpers through which a derived body hands a closure to the method `m`
/// taking function values (`__fwdad_fn_arg<i>_m`, `__fwdad_fn_pass<i>_m`, as a type's
/// `impl` has them: `higher_order::method_helpers`), for a receiver of a type parameter.
fn fn_helpers(sig: &syn::Signature, rt: &TokenStream) -> TokenStream {
    let flags = crate::higher_order::fn_value_params(sig);
    let mut out = TokenStream::new();
    for f in crate::higher_order::method_helpers(sig, &flags, rt, &sig.ident) {
        let Ok(mut f) = syn::parse2::<syn::ImplItemFn>(f) else {
            continue;
        };
        let w = f.sig.generics.make_where_clause();
        w.predicates
            .push(syn::parse_quote!(Self: ::core::marker::Sized));
        let (attrs, sig, block) = (&f.attrs, &f.sig, &f.block);
        out.extend(quote!(#(#attrs)* #sig #block));
    }
    out
}

/// Whether `dyn Tr` is a type: no `Sized` supertrait, associated constant or type, and
/// every method in the vtable or excluded with `where Self: Sized`.
fn dyn_compatible(tr: &syn::ItemTrait) -> bool {
    // A supertrait of the user's may itself require `Sized` (kurbo's `ParamCurveArclen:
    // ParamCurve`, `ParamCurve: Sized`), which this trait cannot see: taken as not dyn
    // compatible. So do the `std` traits that require it (deltae's `Delta: Into<LabValue>`).
    let sized_super = tr.supertraits.iter().any(|b| match b {
        syn::TypeParamBound::Trait(t) => {
            let name = t
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            let unsized_std = matches!(
                name.as_str(),
                "Debug" | "Display" | "Send" | "Sync" | "PartialEq" | "PartialOrd" | "Any"
            );
            let sized_std = matches!(
                name.as_str(),
                "Sized"
                    | "Clone"
                    | "Copy"
                    | "Default"
                    | "From"
                    | "Into"
                    | "TryFrom"
                    | "TryInto"
                    | "FromStr"
                    | "FromIterator"
            );
            sized_std || (is_user_trait(&t.path) && !unsized_std)
        }
        _ => false,
    });
    if sized_super {
        return false;
    }
    tr.items.iter().all(|item| match item {
        syn::TraitItem::Fn(f) => {
            if sized_only(&f.sig) {
                return true;
            }
            let typed = f.sig.inputs.iter().filter_map(|a| match a {
                syn::FnArg::Typed(t) => Some(&*t.ty),
                _ => None,
            });
            let self_elsewhere = typed.chain(match &f.sig.output {
                syn::ReturnType::Type(_, t) => Some(&**t),
                _ => None,
            });
            // `f: impl Fn(f64) -> f64` is a type parameter too.
            let impl_arg = f.sig.inputs.iter().any(
                |a| matches!(a, syn::FnArg::Typed(t) if matches!(&*t.ty, syn::Type::ImplTrait(_))),
            );
            !matches!(receiver(&f.sig), Some(Recv::None))
                && f.sig.generics.type_params().next().is_none()
                && f.sig.generics.const_params().next().is_none()
                && !impl_arg
                && !self_elsewhere.into_iter().any(mentions_self)
        }
        syn::TraitItem::Const(_) | syn::TraitItem::Type(_) => false,
        _ => true,
    })
}

fn mode() -> syn::Ident {
    format_ident!("__FwdadS", span = Span::mixed_site())
}

fn lt() -> syn::Lifetime {
    syn::Lifetime::new("'__fwdad_a", Span::mixed_site())
}

/// The type with the lifetimes `named_lifetimes` gave elided again (a table entry's
/// `fn(..)` type, higher-ranked over them).
fn elided_lifetimes(ty: &syn::Type) -> syn::Type {
    use syn::visit_mut::VisitMut;
    struct Elide;
    impl VisitMut for Elide {
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            if r.lifetime.as_ref().is_some_and(|l| l.ident == "__fwdad_a") {
                r.lifetime = None;
            }
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
    }
    let mut t = ty.clone();
    Elide.visit_type_mut(&mut t);
    t
}

fn dual(ty: &TokenStream, mode: &TokenStream, rt: &TokenStream) -> TokenStream {
    quote!(#rt::Dual<#ty, <#ty as #rt::Differentiable>::TangentIn<#mode>>)
}

/// The receiver's dual type, `None` for an associated function.
fn recv_ty(recv: Recv, self_ty: &TokenStream) -> Option<TokenStream> {
    let lt = lt();
    match recv {
        Recv::Ref => Some(quote!(&#lt #self_ty)),
        Recv::Mut => Some(quote!(&#lt mut #self_ty)),
        Recv::Value => Some(quote!(#self_ty)),
        Recv::None => None,
    }
}

/// The rule's argument types in mode `S` (receiver first), `Self` written as `self_ty`.
fn arg_duals(ms: &MethodSig, self_ty: &syn::Type, rt: &TokenStream) -> Vec<TokenStream> {
    let s = mode();
    let sm = quote!(#s);
    let st = quote!(#self_ty);
    let this = recv_ty(ms.recv, &st).map(|t| dual(&t, &sm, rt));
    let fns = ms.fns.as_ref().map(|f| f.flags.as_slice()).unwrap_or(&[]);
    this.into_iter()
        .chain(ms.params.iter().enumerate().map(|(i, (_, t))| {
            let t = replace_self(t, self_ty);
            match fns.get(i) {
                Some(true) => quote!(#t),
                _ => dual(&quote!(#t), &sm, rt),
            }
        }))
        .collect()
}

fn out_dual(ms: &MethodSig, self_ty: &syn::Type, rt: &TokenStream) -> TokenStream {
    let s = mode();
    let t = replace_self(&ms.output, self_ty);
    dual(&quote!(#t), &quote!(#s), rt)
}

fn replace_self(ty: &syn::Type, self_ty: &syn::Type) -> syn::Type {
    use syn::visit_mut::VisitMut;
    let mut t = ty.clone();
    if !matches!(self_ty, syn::Type::Path(p) if p.path.is_ident("Self")) {
        crate::derive_frule::ReplaceSelfType(self_ty).visit_type_mut(&mut t);
    }
    t
}

fn arg_names(ms: &MethodSig) -> Vec<syn::Ident> {
    let this = (ms.recv != Recv::None).then(|| format_ident!("this"));
    this.into_iter()
        .chain(ms.params.iter().map(|(n, _)| n.clone()))
        .collect()
}

/// `fn __fwdad_frule_m<'a, S: Mode>(this: Dual<&'a Self, ..>, x: Dual<X, ..>, ..) -> Dual<R, ..>
/// where Self: Sized + Differentiable`: the same in the trait and in a derived impl.
fn rule_sig(ms: &MethodSig, rt: &TokenStream) -> TokenStream {
    let (s, lt) = (mode(), lt());
    let f = format_ident!("__fwdad_frule_{}", ms.name);
    let self_ty: syn::Type = syn::parse_quote!(Self);
    let tys = arg_duals(ms, &self_ty, rt);
    let names = arg_names(ms);
    let out = out_dual(ms, &self_ty, rt);
    let (gparams, preds) = match &ms.fns {
        Some(f) => (f.params.clone(), f.preds.clone()),
        None => (TokenStream::new(), TokenStream::new()),
    };
    let tpreds = &ms.preds;
    quote! {
        fn #f<#lt, #s: #rt::Mode, #gparams>(#(#names: #tys),*) -> #out
        where
            #preds
            #tpreds
            Self: ::core::marker::Sized + #rt::Differentiable<Tangent = <Self as #rt::Differentiable>::TangentIn<f64>>
    }
}

/// `recv.m(..)` on a slice, an array or a `Vec` (an extension trait, `#[derive_frule] impl
/// VecOps for [f64]`): `(&*recv.primal).__fwdad_rule_unsized_m()`, a `&self` method found
/// on `[f64]` itself, which the `self: &&Self` dispatch (`Self: Sized`) cannot be. Its
/// marker `m_of_Tr_on_a_slice_array_or_vec` is neither generic nor bounded (the method then
/// keeps the trait dyn compatible); the `impl` for the sequence type gives it the rule of
/// its method (`SequenceRule`, `derive_frule::sequence_rules`), which the call takes
/// through `call_on_sequence`, whose bound's message is the error when there is none.
fn unsized_dispatch(
    name: &syn::Ident,
    ms: &MethodSig,
    vis: &syn::Visibility,
    outside: &mut TokenStream,
) -> TokenStream {
    if !matches!(ms.recv, Recv::Ref | Recv::Mut) {
        return TokenStream::new();
    }
    let marker = unsized_marker(name, &ms.name);
    let dispatch = format_ident!("__fwdad_rule_unsized_{}", ms.name);
    outside.extend(quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #marker;
    });
    quote! {
        #[doc(hidden)]
        #[inline(always)]
        fn #dispatch(&self) -> #marker {
            #marker
        }
    }
}

/// Whether the trait's method `sig` has the dispatch of `unsized_dispatch`.
pub(crate) fn has_unsized_dispatch(sig: &syn::Signature) -> bool {
    method_sig(sig).is_some_and(|ms| matches!(ms.recv, Recv::Ref | Recv::Mut))
}

/// The marker of a method's rule on a sequence type (`unsized_dispatch`), named in words
/// (`norm_of_VecOps_on_a_slice_array_or_vec`): rustc's help line names it as the type
/// without the rule when the `impl` for the sequence type does not define the method.
pub(crate) fn unsized_marker(tr: &syn::Ident, m: &syn::Ident) -> syn::Ident {
    format_ident!("{}_of_{}_on_a_slice_array_or_vec", m, tr)
}

fn dispatch_marker(tr: &syn::Ident, m: &syn::Ident) -> syn::Ident {
    format_ident!("__fwdad_dispatch_{}_{}", tr, m)
}

/// The auto traits a trait object of a trait with rules may add (`dyn Tr + Send`): each
/// combination is its own type, with its own dispatch.
fn dyn_flavors() -> [TokenStream; 4] {
    let (send, sync) = (quote!(::core::marker::Send), quote!(::core::marker::Sync));
    [
        quote!(),
        quote!(+ #send),
        quote!(+ #sync),
        quote!(+ #send + #sync),
    ]
}

fn table_name(tr: &syn::Ident) -> syn::Ident {
    format_ident!("__fwdad_{}_table", tr)
}

/// The key of a trait by its name (`fwdad_runtime::traits::trait_key`, computed here too).
fn trait_key(name: &syn::Ident) -> TokenStream {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.to_string().bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let lit = proc_macro2::Literal::u64_suffixed(h);
    quote!(#lit)
}

/// The key of `Tr` when `ty` is `&dyn Tr` (or `&mut dyn Tr`) of a trait of the user's.
pub(crate) fn dyn_ref_trait_key(ty: &syn::Type) -> Option<TokenStream> {
    let syn::Type::Reference(r) = ty else {
        return match ty {
            syn::Type::Paren(p) => dyn_ref_trait_key(&p.elem),
            syn::Type::Group(g) => dyn_ref_trait_key(&g.elem),
            _ => None,
        };
    };
    let mut elem = &*r.elem;
    while let syn::Type::Paren(p) = elem {
        elem = &p.elem;
    }
    let syn::Type::TraitObject(o) = elem else {
        return None;
    };
    if !crate::callee::names_user_trait_object(o) {
        return None;
    }
    let tr = o.bounds.iter().find_map(|b| match b {
        syn::TypeParamBound::Trait(t) if is_user_trait(&t.path) => t.path.segments.last(),
        _ => None,
    })?;
    Some(trait_key(&tr.ident))
}

/// The arithmetic supertrait of a trait that stands for a number type: `PartialOrd` and an
/// operator of `Self` with itself giving `Self` (`Neg<Output = Self>`, `Div<Output =
/// Self>`), as roots' `FloatType` is; `Mul<f64, Output = Self>` of a vector space is not.
fn number_supertrait(tr: &syn::ItemTrait) -> Option<&syn::PathSegment> {
    let segments = || {
        tr.supertraits.iter().filter_map(|b| match b {
            syn::TypeParamBound::Trait(t) => t.path.segments.last(),
            _ => None,
        })
    };
    if !segments().any(|s| s.ident == "PartialOrd") {
        return None;
    }
    segments().find(|s| {
        let ops = ["Add", "Sub", "Mul", "Div", "Neg"];
        let syn::PathArguments::AngleBracketed(a) = &s.arguments else {
            return false;
        };
        ops.iter().any(|op| s.ident == op)
            && a.args.len() == 1
            && matches!(a.args.first(), Some(syn::GenericArgument::AssocType(t))
                if t.ident == "Output" && matches!(&t.ty, syn::Type::Path(p) if p.path.is_ident("Self")))
    })
}

/// `trait Tr where Self: Sized { .. }` is `trait Tr: Sized { .. }`: a `where` clause
/// bounding only `Self` (deltae's `trait Validate where Self: Sized`) moves into the
/// supertraits, which the rest of the expansion reads.
fn self_bounds_as_supertraits(tr: &mut syn::ItemTrait) {
    let Some(w) = &tr.generics.where_clause else {
        return;
    };
    let self_bounds: Option<Vec<syn::TypeParamBound>> = w
        .predicates
        .iter()
        .map(|p| match p {
            syn::WherePredicate::Type(t)
                if t.lifetimes.is_none()
                    && matches!(&t.bounded_ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("Self")) =>
            {
                Some(t.bounds.iter().cloned())
            }
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .map(|b| b.into_iter().flatten().collect());
    if let Some(bounds) = self_bounds {
        if tr.colon_token.is_none() {
            tr.colon_token = Some(Default::default());
        }
        tr.supertraits.extend(bounds);
        tr.generics.where_clause = None;
    }
}

/// `#[derive_frule] trait Tr { .. }`.
pub(crate) fn expand_trait(args: TokenStream, mut tr: syn::ItemTrait) -> TokenStream {
    self_bounds_as_supertraits(&mut tr);
    let mut diag = Diagnostics::new();
    let args = diag.handle(syn::parse2::<Args>(args)).unwrap_or_default();
    let rt = args.runtime_path();
    let name = &tr.ident;
    if let Some(g) = (tr.generics.params.iter()).find(|g| !matches!(g, syn::GenericParam::Type(_)))
    {
        diag.error_spanned(g, format!("`#[derive_frule]` does not support lifetime or const parameters on a trait (`trait {name}<..>`): its rules would depend on them; take the lifetime or the constant in the methods, or write the trait without them (type parameters are supported: `trait {name}<T: Float>`)"));
    }
    if let Some(op) = number_supertrait(&tr) {
        diag.error_spanned(
            op,
            format!("`#[derive_frule]` does not support a trait of your own standing for a float type (`trait {name}: PartialOrd + {op}<Output = Self> ..`, a stand-in for `f32` and `f64`): a type parameter bounded by it is not read as a float; bound the type parameters by `num_traits::Float` (or `num_traits::real::Real`), which fwdad reads as float types, or write the functions for `f64`", op = op.ident),
        );
    }
    if let Some(u) = &tr.unsafety {
        diag.error_spanned(
            u,
            format!("`#[derive_frule]` does not support `unsafe trait {name}`"),
        );
    }
    for item in &tr.items {
        match item {
            syn::TraitItem::Fn(_) | syn::TraitItem::Const(_) => {}
            syn::TraitItem::Type(t) if t.generics.params.is_empty() => {}
            syn::TraitItem::Type(t) => diag.error_spanned(t, format!("`#[derive_frule]` does not support generic associated types in trait `{name}`; use concrete types")),
            other => diag.error_spanned(other, format!("`#[derive_frule]` does not support this item in trait `{name}`")),
        }
    }
    if let Err(e) = diag.finish() {
        let e = e.to_compile_error();
        return quote!(#tr #e);
    }
    // A `where` clause on the trait (kurbo's `trait ParamCurveCurvature: ParamCurveDeriv
    // where Self::DerivResult: ParamCurveDeriv`) is not implied by a bound `T: Tr`: every
    // item generic over an implementing type restates it, `Self` being that type.
    let where_for = |ty: &syn::Type| -> TokenStream {
        use syn::visit_mut::VisitMut;
        let Some(w) = &tr.generics.where_clause else {
            return TokenStream::new();
        };
        let mut preds = w.predicates.clone();
        for p in preds.iter_mut() {
            crate::derive_frule::ReplaceSelfType(ty).visit_where_predicate_mut(p);
        }
        quote!(#preds)
    };
    // A generic trait (`trait Integrator<T: Float>`, statrs' `ContinuousCDF<K, T>`): its
    // rules are generic over its parameters, named `Tr<T, ..>` wherever the trait is, and
    // its markers carry them. It has no `dyn` dispatch (a `dyn Tr<f64>` per argument).
    let targs: Vec<syn::Ident> = tr.generics.type_params().map(|t| t.ident.clone()).collect();
    let generic = !targs.is_empty();
    let tr_path = match generic {
        true => quote!(#name<#(#targs),*>),
        false => quote!(#name),
    };
    // Outside the trait: each parameter with the trait's bounds on it, and differentiable.
    let tdecls: Vec<TokenStream> = tr
        .generics
        .type_params()
        .map(|tp| {
            let (id, b) = (&tp.ident, tp.bounds.iter());
            quote!(#id: #rt::Differentiable<Tangent = <#id as #rt::Differentiable>::TangentIn<f64>> #(+ #b)*)
        })
        .collect();
    // Inside: the rules ask each parameter to be differentiable.
    let tpreds: TokenStream = targs
        .iter()
        .map(|id| quote!(#id: #rt::Differentiable<Tangent = <#id as #rt::Differentiable>::TangentIn<f64>>,))
        .collect();
    let dyn_ok = dyn_compatible(&tr) && tr.generics.where_clause.is_none() && !generic;
    let vis = &tr.vis;
    let table = table_name(name);
    let key = trait_key(name);
    let s = mode();
    let mut hidden = TokenStream::new();
    let mut outside = TokenStream::new();
    let mut dyn_dispatch = TokenStream::new();
    let mut table_fields = TokenStream::new();
    let mut table_init = TokenStream::new();
    let self_param: syn::Ident = format_ident!("{}", SELF_PARAM);
    let mut methods = Vec::new();
    for item in &tr.items {
        let syn::TraitItem::Fn(f) = item else {
            continue;
        };
        let fn_sig = || fn_method_sig(&f.sig, &rt);
        match method_sig(&f.sig).or_else(fn_sig) {
            Some(mut ms) => {
                ms.preds = tpreds.clone();
                methods.push(Method::Rules(ms, f))
            }
            None => methods.push(Method::Without(
                f.sig.ident.clone(),
                receiver(&f.sig).unwrap_or(Recv::Ref),
                None,
            )),
        }
    }
    // A default method's rule derived from its body, with `Self` a type parameter; a body
    // beyond the macro leaves the method without a rule.
    let mut default_rules = Vec::new();
    for m in methods.iter_mut() {
        let Method::Rules(ms, f) = m else {
            default_rules.push(None);
            continue;
        };
        let Some(block) = &f.default else {
            default_rules.push(None);
            continue;
        };
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
        // The trait's parameters first (`K: Float, T: Float`), then `__FwdadSelf: Tr<K, T>`.
        for tp in tr.generics.type_params() {
            let mut tp = tp.clone();
            tp.eq_token = None;
            tp.default = None;
            generics.params.push(syn::GenericParam::Type(tp));
        }
        let mut tp = syn::TypeParam::from(self_param.clone());
        let Ok(bound_path) = syn::parse2::<syn::Path>(tr_path.clone()) else {
            default_rules.push(None);
            continue;
        };
        let bound = syn::TraitBound {
            paren_token: None,
            modifier: syn::TraitBoundModifier::None,
            lifetimes: None,
            path: bound_path,
        };
        tp.bounds.push(syn::TypeParamBound::Trait(bound));
        tp.colon_token = Some(Default::default());
        generics.params.push(syn::GenericParam::Type(tp));
        generics.where_clause = tr.generics.where_clause.clone();
        let func = method_as_fn(&as_impl, &self_ty, name, &generics);
        let mut scratch = Diagnostics::new();
        let mut fsig = check_signature(&func.sig, &mut scratch, true);
        // A default method taking closures (`fn integrate<F: Fn(f64) -> f64>(&self, f: F,
        // ..) { .. }`): its rule takes them as an `impl`'s method's does.
        if let Some(s) = &mut fsig {
            crate::derive_frule::take_fn_values(&func.sig, s, &rt);
        }
        let body = pipeline(&func, &args, &[], &rt, &mut scratch);
        match (fsig, body, scratch.finish()) {
            (Some(fsig), Some(body), Ok(())) => {
                outside.extend(emit_items(&func, &fsig, &body, &rt, false, None));
                default_rules.push(Some(func.sig.ident.clone()));
            }
            _ => {
                let (name, recv) = (ms.name.clone(), ms.recv);
                let Method::Rules(ms, _) =
                    std::mem::replace(m, Method::Without(name.clone(), recv, None))
                else {
                    continue;
                };
                *m = Method::Without(name, recv, Some(ms));
                default_rules.push(None);
            }
        }
    }
    for (m, default_rule) in methods.iter().zip(default_rules) {
        let (ms, _f) = match m {
            Method::Rules(ms, f) => (ms, f),
            Method::Without(m, recv, sig) => {
                if let Some(ms) = sig {
                    let sig = rule_sig(ms, &rt);
                    let msg = format!("`{name}::{m}` has no forward rule here: its default body is beyond `#[derive_frule]`");
                    hidden.extend(quote! {
                        #[doc(hidden)]
                        #[allow(unused_variables)]
                        #sig
                        {
                            ::core::unreachable!(#msg)
                        }
                    });
                }
                // A closure passed to it (`q.integrate(|x| ..)` through `Q: Quadrature`)
                // goes through `<m>_forward_rule_fn_arg<i>` / `<m>_forward_rule_fn_pass<i>`
                // first: the trait's stand-ins of those carry the same bound, so the first
                // error is the method's (no rule), not rustc's "no method named
                // `m_forward_rule_fn_arg1`".
                let inputs = tr.items.iter().find_map(|item| match item {
                    syn::TraitItem::Fn(f) if f.sig.ident == *m => Some(f.sig.inputs.len()),
                    _ => None,
                });
                for i in 1..inputs.unwrap_or(0) {
                    for base in ["fn_arg", "fn_pass"] {
                        let helper = crate::register::method_helper_name(base, i, m, m.span());
                        hidden.extend(quote! {
                            #[doc(hidden)]
                            #[allow(non_snake_case)]
                            fn #helper<__FwdadS, __FwdadF, __FwdadG>(&self, g: __FwdadG) -> __FwdadG
                            where
                                Self: ::core::marker::Sized + #rt::traits::MethodWithoutRule<#rt::traits::NoRule>,
                            {
                                ::core::unreachable!()
                            }
                        });
                    }
                }
                let marker = dispatch_marker(name, m);
                let dispatch = crate::register::rule_method_name(m, m.span());
                let by_type = crate::register::by_type_rule_name(m);
                outside.extend(quote! {
                    #[doc(hidden)]
                    #[allow(non_camel_case_types)]
                    #vis struct #marker<__FwdadT: ?::core::marker::Sized>(::core::marker::PhantomData<fn() -> *const __FwdadT>);
                });
                // The result type is free: the bound's message is the only error at
                // the call (rustc reports no "type annotations needed" after it).
                hidden.extend(quote! {
                    #[doc(hidden)]
                    fn #dispatch<__FwdadR>(self: &&Self) -> __FwdadR
                    where
                        Self: ::core::marker::Sized + #rt::traits::MethodWithoutRule<#rt::traits::NoRule>,
                    {
                        ::core::unreachable!()
                    }
                    #[doc(hidden)]
                    fn #by_type<__FwdadR>() -> __FwdadR
                    where
                        Self: ::core::marker::Sized + #rt::traits::MethodWithoutRule<#rt::traits::NoRule>,
                    {
                        ::core::unreachable!()
                    }
                });
                if dyn_ok && *recv != Recv::None {
                    dyn_dispatch.extend(quote! {
                        #[doc(hidden)]
                        #vis fn #dispatch<__FwdadR>(&self) -> __FwdadR
                        where
                            Self: #rt::traits::NotOnDyn<#rt::traits::NoRule>,
                        {
                            ::core::unreachable!()
                        }
                    });
                }
                continue;
            }
        };
        let m = &ms.name;
        let marker = dispatch_marker(name, m);
        let rule_fn = format_ident!("__fwdad_frule_{}", m);
        let dispatch = crate::register::rule_method_name(m, m.span());
        let by_type = crate::register::by_type_rule_name(m);
        // A generic trait's default method: its rule, lowered generic over the trait's
        // parameters, takes them as float types (`T: Real`), which the trait's rule and
        // its marker ask too.
        let float_preds: TokenStream = match (generic, &default_rule) {
            (true, Some(_)) => targs
                .iter()
                .map(|t| quote!(#t: #rt::Real, <#t as #rt::Differentiable>::TangentIn<#s>: #rt::ScalarTangent<#t>,))
                .collect(),
            _ => TokenStream::new(),
        };
        let sig = rule_sig(ms, &rt);
        let sig = match float_preds.is_empty() {
            true => sig,
            false => quote!(#sig, #float_preds),
        };
        let names = arg_names(ms);
        let default_body = match default_rule {
            Some(dm) => quote!(<#dm as #rt::Frule<_, #s>>::frule(&#dm {}, (#(#names,)*))),
            None => {
                let msg = format!("the rule of the required method `{name}::{m}` is given by each `#[derive_frule] impl {name}`");
                quote!(::core::unreachable!(#msg))
            }
        };
        // A `self` method's dispatch hands the rule an owned receiver dual.
        let (dispatch_ty, dispatched) = match ms.recv {
            Recv::Value => (
                quote!(#rt::user_ops::SelfByValueOf<#marker<Self #(, #targs)*>, Self>),
                quote!(#rt::user_ops::SelfByValueOf(#marker(::core::marker::PhantomData), ::core::marker::PhantomData)),
            ),
            _ => (
                quote!(#marker<Self #(, #targs)*>),
                quote!(#marker(::core::marker::PhantomData)),
            ),
        };
        let value_bound = (ms.recv == Recv::Value).then(|| quote!(+ ::core::clone::Clone));
        match &ms.fns {
            Some(_) => hidden.extend(fn_helpers(&_f.sig, &rt)),
            None if generic => {}
            None => hidden.extend(unsized_dispatch(name, ms, vis, &mut outside)),
        }
        hidden.extend(quote! {
            #[doc(hidden)]
            #[inline(always)]
            fn #dispatch(self: &&Self) -> #dispatch_ty
            where
                Self: ::core::marker::Sized #value_bound,
            {
                #dispatched
            }
            #[doc(hidden)]
            #[inline(always)]
            fn #by_type() -> #dispatch_ty
            where
                Self: ::core::marker::Sized #value_bound,
            {
                #dispatched
            }
            #[doc(hidden)]
            #[inline]
            #[allow(unused_variables)]
            #sig
            {
                <Self as #tr_path>::__fwdad_assert_derived();
                #default_body
            }
        });
        // The marker's rule: for a type, its `__fwdad_frule_m`.
        let t_ty: syn::Type = syn::parse_quote!(__FwdadT);
        let tys_t = arg_duals(ms, &t_ty, &rt);
        let t_where = where_for(&t_ty);
        let out_t = out_dual(ms, &t_ty, &rt);
        let lt = lt();
        // A method taking functions: the rule's generic parameters (the functions' types).
        let (fn_params, fn_preds, fn_infer) = match &ms.fns {
            Some(f) => {
                let infer = f.names.iter().map(|_| quote!(_));
                (f.params.clone(), f.preds.clone(), quote!(#(, #infer)*))
            }
            None => (TokenStream::new(), TokenStream::new(), TokenStream::new()),
        };
        outside.extend(quote! {
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #vis struct #marker<__FwdadT: ?::core::marker::Sized #(, #targs)*>(::core::marker::PhantomData<(fn() -> *const __FwdadT #(, fn() -> #targs)*)>);

            #[automatically_derived]
            impl<#lt, __FwdadT: #tr_path + #rt::Differentiable<Tangent = <__FwdadT as #rt::Differentiable>::TangentIn<f64>> + #lt, #(#tdecls,)* #s: #rt::Mode, #fn_params>
                #rt::Frule<(#(#tys_t,)*), #s> for #marker<__FwdadT #(, #targs)*>
            where
                #fn_preds
                #float_preds
                #t_where
            {
                type Output = #out_t;
                #[inline(always)]
                fn frule(&self, (#(#names,)*): (#(#tys_t,)*)) -> #out_t {
                    <__FwdadT as #tr_path>::#rule_fn::<#s #fn_infer>(#(#names),*)
                }
            }
        });
        if !dyn_ok {
            continue;
        }
        let Some(kinds) = &ms.lanes else {
            if ms.recv != Recv::None && !sized_only(&_f.sig) {
                dyn_dispatch.extend(quote! {
                    #[doc(hidden)]
                    #vis fn #dispatch<__FwdadR>(&self) -> __FwdadR
                    where
                        Self: #rt::traits::NotOnDyn<#rt::traits::NoRule>,
                    {
                        ::core::unreachable!()
                    }
                });
            }
            continue;
        };
        let pnames: Vec<&syn::Ident> = ms.params.iter().map(|(n, _)| n).collect();
        let out_ty = &ms.output;
        // What the lanes need of the types: `LaneValue` (and `Clone` of what is copied per
        // lane), `ZeroTangent` of the result. Higher-ranked, so that a concrete type
        // without them makes the dispatch not apply (an error at the call, naming the
        // type) rather than fail the trait's expansion.
        let lane_bounds: TokenStream = kinds
            .iter()
            .map(|k| {
                let (t, clone) = k.lane_type();
                let clone = clone.then(|| quote!(+ ::core::clone::Clone));
                quote!(for<'__fwdad_x> #t: #rt::traits::LaneValue #clone,)
            })
            .chain(std::iter::once(
                quote!(for<'__fwdad_x> #out_ty: #rt::traits::LaneValue + #rt::ZeroTangent,),
            ))
            .collect();
        // The trait object's marker is a type of its own: with only the flavours' impls,
        // rustc blames a missing `LaneValue` of the types (as the dispatch's bound does)
        // rather than a `Frule` of the marker, which the type's generic impl would also
        // offer, so a call it rejects names no hidden type.
        let dyn_marker = format_ident!("{}_on_dyn", marker);
        outside.extend(quote! {
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #vis struct #dyn_marker<__FwdadT: ?::core::marker::Sized>(::core::marker::PhantomData<fn() -> *const __FwdadT>);
        });
        dyn_dispatch.extend(quote! {
            #[doc(hidden)]
            #[inline(always)]
            #vis fn #dispatch(&self) -> #dyn_marker<Self>
            where
                #lane_bounds
            {
                #dyn_marker(::core::marker::PhantomData)
            }
        });
        // The table's entries: the rule at one first-order and one second-order lane.
        let (f1, f2) = (format_ident!("{}_1", m), format_ident!("{}_2", m));
        let out_table = quote!(#out_ty);
        // A `&mut self` method: the table's rule takes the value and its lane `&mut`, each
        // lane runs on the value as it was (restored from a copy, `Restore`), and the
        // receiver's lane of a carried object is written in place.
        let mutable = ms.recv == Recv::Mut;
        let lane_ty = |mode: TokenStream| {
            let ps: Vec<TokenStream> = ms
                .params
                .iter()
                .map(|(_, t)| {
                    let t = elided_lifetimes(t);
                    dual(&quote!(#t), &mode, &rt)
                })
                .collect();
            let out = dual(&out_table, &mode, &rt);
            match mutable {
                false => {
                    quote!(fn(&dyn ::core::any::Any, ::core::option::Option<&dyn ::core::any::Any>, #(#ps),*) -> #out)
                }
                true => {
                    quote!(fn(&mut dyn ::core::any::Any, ::core::option::Option<&mut dyn ::core::any::Any>, #(#ps),*) -> #out)
                }
            }
        };
        let (t1, t2) = (lane_ty(quote!(f64)), lane_ty(quote!(#rt::Hyper<f64, f64>)));
        table_fields.extend(quote!(pub #f1: #t1, pub #f2: #t2,));
        // Hygienic names, so that no parameter of the method shadows them.
        let [any, this, zero, k, r, result, tbl, lane_t, restore, side] = [
            "any", "this", "zero", "k", "r", "result", "table", "lane_t", "restore", "side",
        ]
        .map(|n| format_ident!("__fwdad_{}", n, span = Span::mixed_site()));
        // The receiver's tangent: the lane a trait object built from values that depend
        // on the inputs carries (`carrier_items`), zero for a constant one.
        let lane_fn = |mode: TokenStream| {
            if mutable {
                return quote! {
                    |#any, #lane_t, #(#pnames),*| {
                        let #this: &mut __FwdadT = match #any.downcast_mut::<__FwdadT>() {
                            ::core::option::Option::Some(t) => t,
                            ::core::option::Option::None => ::core::unreachable!(),
                        };
                        let mut #zero;
                        let #lane_t = match #lane_t.and_then(|t| t.downcast_mut::<<__FwdadT as #rt::Differentiable>::TangentIn<#mode>>()) {
                            ::core::option::Option::Some(t) => t,
                            ::core::option::Option::None => {
                                #zero = <__FwdadT as #rt::ZeroTangent>::zero_tangent_in::<#mode>(#this);
                                &mut #zero
                            }
                        };
                        <__FwdadT as #name>::#rule_fn::<#mode>(#rt::Dual::new(#this, #lane_t), #(#pnames),*)
                    }
                };
            }
            quote! {
                |#any, #lane_t, #(#pnames),*| {
                    let #this: &__FwdadT = match #any.downcast_ref::<__FwdadT>() {
                        ::core::option::Option::Some(t) => t,
                        ::core::option::Option::None => ::core::unreachable!(),
                    };
                    let #zero;
                    let #lane_t = match #lane_t.and_then(|t| t.downcast_ref::<<__FwdadT as #rt::Differentiable>::TangentIn<#mode>>()) {
                        ::core::option::Option::Some(t) => t,
                        ::core::option::Option::None => {
                            #zero = <__FwdadT as #rt::ZeroTangent>::zero_tangent_in::<#mode>(#this);
                            &#zero
                        }
                    };
                    <__FwdadT as #name>::#rule_fn::<#mode>(#rt::Dual::new(#this, #lane_t), #(#pnames),*)
                }
            }
        };
        let (c1, c2) = (lane_fn(quote!(f64)), lane_fn(quote!(#rt::Hyper<f64, f64>)));
        table_init.extend(quote!(#f1: #c1, #f2: #c2,));
        // For `dyn Tr`, the table's rule, once per lane.
        let ps_s: Vec<TokenStream> = ms
            .params
            .iter()
            .map(|(_, t)| dual(&quote!(#t), &quote!(#s), &rt))
            .collect();
        let out_s = dual(&out_table, &quote!(#s), &rt);
        let lv = quote!(#rt::traits::LaneValue);
        let held: Vec<syn::Ident> = pnames
            .iter()
            .map(|n| format_ident!("__fwdad_lane_{}", n, span = Span::mixed_site()))
            .collect();
        let origs: Vec<syn::Ident> = pnames
            .iter()
            .map(|n| format_ident!("__fwdad_orig_{}", n, span = Span::mixed_site()))
            .collect();
        let pre_name =
            |n: &syn::Ident| format_ident!("__fwdad_pre_{}", n, span = Span::mixed_site());
        // Before the lanes: a copy of each `&mut` argument's primal, restored before each
        // lane, and its tangent's lanes (`PreLanes`).
        let before: TokenStream = kinds
            .iter()
            .zip(&pnames)
            .zip(&origs)
            .filter_map(|((kind, n), o)| match kind {
                Kind::MutSlice(t) => {
                    let pre = pre_name(n);
                    Some(quote! {
                        let #o = #n.primal.to_vec();
                        let mut #pre = #rt::traits::pre_lanes::<#s, _, _>(
                            |#k| #rt::traits::slice_lanes1::<#t, #s>(&*#n.tangent, #k),
                            |#k| #rt::traits::slice_lanes2::<#t, #s>(&*#n.tangent, #k),
                        );
                    })
                }
                Kind::MutRef(t) => {
                    let pre = pre_name(n);
                    Some(quote! {
                        let #o = ::core::clone::Clone::clone(&*#n.primal);
                        let mut #pre = #rt::traits::pre_lanes::<#s, _, _>(
                            |#k| <#t as #lv>::lane1::<#s>(&*#n.tangent, #k),
                            |#k| <#t as #lv>::lane2::<#s>(&*#n.tangent, #k),
                        );
                    })
                }
                _ => None,
            })
            .collect();
        let (tr_s, m_s) = (name.to_string(), m.to_string());
        // One lane: the arguments' lanes, the call, the `&mut [T]` lanes written back.
        let one_lane = |second: bool| -> TokenStream {
            let (lane, set, next) = if second {
                (quote!(lane2), quote!(set_lane2), quote!(next2))
            } else {
                (quote!(lane1), quote!(set_lane1), quote!(next1))
            };
            let (slice_lanes, set_slice, put, entry) = if second {
                (
                    quote!(slice_lanes2),
                    quote!(set_slice_lanes2),
                    quote!(put2),
                    &f2,
                )
            } else {
                (
                    quote!(slice_lanes1),
                    quote!(set_slice_lanes1),
                    quote!(put1),
                    &f1,
                )
            };
            let mut prep = TokenStream::new();
            let mut args = Vec::new();
            let mut after = TokenStream::new();
            for (((kind, n), h), o) in kinds.iter().zip(&pnames).zip(&held).zip(&origs) {
                match kind {
                    Kind::Value(t) => args.push(quote!(#rt::Dual::new(
                        ::core::clone::Clone::clone(&#n.primal),
                        <#t as #lv>::#lane::<#s>(&#n.tangent, #k),
                    ))),
                    Kind::Slice(t) => {
                        prep.extend(
                            quote!(let #h = #rt::traits::#slice_lanes::<#t, #s>(&*#n.tangent, #k);),
                        );
                        args.push(quote!(#rt::Dual::new(#n.primal, &#h[..])));
                    }
                    Kind::Ref(t) => {
                        prep.extend(quote!(let #h = <#t as #lv>::#lane::<#s>(#n.tangent, #k);));
                        args.push(quote!(#rt::Dual::new(#n.primal, &#h)));
                    }
                    Kind::MutSlice(t) => {
                        let pre = pre_name(n);
                        prep.extend(quote! {
                            #n.primal.clone_from_slice(&#o);
                            let mut #h = #pre.#next();
                        });
                        args.push(quote!(#rt::Dual::new(&mut *#n.primal, &mut #h[..])));
                        after.extend(
                            quote!(#rt::traits::#set_slice::<#t, #s>(&mut *#n.tangent, #k, &#h);),
                        );
                    }
                    Kind::MutRef(t) => {
                        let pre = pre_name(n);
                        prep.extend(quote! {
                            *#n.primal = ::core::clone::Clone::clone(&#o);
                            let mut #h = #pre.#next();
                        });
                        args.push(quote!(#rt::Dual::new(&mut *#n.primal, &mut #h)));
                        after.extend(quote!(<#t as #lv>::#set::<#s>(&mut *#n.tangent, #k, &#h);));
                    }
                }
            }
            // A trait object passed in carries no tangent; what a `&mut self` method stored
            // in it while a derived function taking it runs is kept beside it (`SideLane`).
            let fetch = match mutable {
                false => quote! {
                    let #lane_t = #this.primal.__fwdad_dyn_lane(::core::any::TypeId::of::<#s>(), #second, #k);
                    let #side = match #lane_t.is_none() {
                        true => #rt::traits::SideLane::take(#any, ::core::any::TypeId::of::<#s>(), #second, #k),
                        false => ::core::option::Option::None,
                    };
                    let #lane_t = match &#side {
                        ::core::option::Option::Some(s) => s.get(),
                        ::core::option::Option::None => #lane_t,
                    };
                },
                true => quote! {
                    let mut #side = match #this.primal.__fwdad_dyn_lane(::core::any::TypeId::of::<#s>(), #second, #k).is_none() {
                        true => match #this.primal.__fwdad_dyn() {
                            ::core::option::Option::Some((v, _)) => #rt::traits::SideLane::take_or(
                                v,
                                ::core::any::TypeId::of::<#s>(),
                                #second,
                                #k,
                                || #this.primal.__fwdad_zero_lane(#second),
                            ),
                            ::core::option::Option::None => ::core::option::Option::None,
                        },
                        false => ::core::option::Option::None,
                    };
                    let (#any, #lane_t, #tbl) = match #this.primal.__fwdad_dyn_mut(::core::any::TypeId::of::<#s>(), #second, #k) {
                        ::core::option::Option::Some(t) => t,
                        ::core::option::Option::None => #rt::traits::no_dyn_rules(#tr_s, #m_s),
                    };
                    let #tbl: &#table = match #tbl.downcast_ref::<#table>() {
                        ::core::option::Option::Some(t) => t,
                        ::core::option::Option::None => #rt::traits::no_dyn_rules(#tr_s, #m_s),
                    };
                    let #lane_t = match &mut #side {
                        ::core::option::Option::Some(s) => s.get_mut(),
                        ::core::option::Option::None => #lane_t,
                    };
                    if #lane_t.is_none() {
                        #rt::traits::dyn_mut_of_constant(#tr_s, #m_s);
                    }
                    if #k > 0 {
                        if let ::core::option::Option::Some(r) = &#restore {
                            r(&mut *#any);
                        }
                    }
                },
            };
            quote! {
                #prep
                #fetch
                let #r = (#tbl.#entry)(#any, #lane_t, #(#args),*);
                #after
                #result.#put(#k, #r);
            }
        };
        let (lane1, lane2) = (one_lane(false), one_lane(true));
        let lanes_body = quote! {
            #before
            let mut #result = #rt::traits::LaneResult::<#out_ty, #s>::new();
            for #k in 0..<#s as #rt::traits::DynLanes>::DYN_LANES {
                if <#s as #rt::traits::DynLanes>::DYN_SECOND {
                    #lane2
                } else {
                    #lane1
                }
            }
            #result.finish()
        };
        for flavor in dyn_flavors() {
            let this_ref = match mutable {
                false => quote!(&#lt (dyn #name #flavor + '__fwdad_b)),
                true => quote!(&#lt mut (dyn #name #flavor + '__fwdad_b)),
            };
            let this_dyn = dual(&this_ref, &quote!(#s), &rt);
            // Before the lanes: a `&mut self` method snapshots the receiver to restore it
            // between lanes; a `&self` one fetches the impl's table of rules.
            let setup = match mutable {
                true => quote! {
                    let #restore = match <#s as #rt::traits::DynLanes>::DYN_LANES > 1 {
                        true => match #this.primal.__fwdad_dyn_snapshot() {
                            ::core::option::Option::Some(r) => ::core::option::Option::Some(r),
                            ::core::option::Option::None => #rt::traits::dyn_mut_needs_clone(#tr_s, #m_s),
                        },
                        false => ::core::option::Option::None,
                    };
                },
                false => quote! {
                    let (#any, #tbl) = match #this.primal.__fwdad_dyn() {
                        ::core::option::Option::Some(t) => t,
                        ::core::option::Option::None => #rt::traits::no_dyn_rules(#tr_s, #m_s),
                    };
                    let #tbl: &#table = match #tbl.downcast_ref::<#table>() {
                        ::core::option::Option::Some(t) => t,
                        ::core::option::Option::None => #rt::traits::no_dyn_rules(#tr_s, #m_s),
                    };
                },
            };
            let imp = quote! {
                #[automatically_derived]
                impl<#lt, '__fwdad_b, #s: #rt::Mode>
                    #rt::Frule<(#this_dyn, #(#ps_s,)*), #s> for #dyn_marker<dyn #name #flavor + '__fwdad_b>
                where
                    #lane_bounds
                {
                    type Output = #out_s;
                    #[allow(unused_variables)]
                    fn frule(&self, (#this, #(#pnames,)*): (#this_dyn, #(#ps_s,)*)) -> #out_s {
                        #rt::traits::check_dyn_mode::<#s>();
                        #setup
                        #lanes_body
                    }
                }
            };
            // The `&mut self` form snapshots the receiver (`__fwdad_dyn_snapshot`), which
            // exists only with `alloc`.
            outside.extend(match mutable {
                true => quote!(#rt::traits::with_alloc! { #imp }),
                false => imp,
            });
        }
    }
    let (tr_s, holder) = (name.to_string(), format_ident!("__fwdad_{}_tables", name));
    let mut tr_out = tr.clone();
    let extra: syn::ItemTrait = match syn::parse2(quote! {
        trait __X {
            #hidden
            /// What `#[derive_frule]` on an `impl` of this trait looks for first: without
            /// it, the first error names the trait and what to add (rustc's
            /// ``cannot find method or associated constant `add_derive_frule_to_trait_definition` in trait `Tr` ``).
            #[doc(hidden)]
            fn add_derive_frule_to_trait_definition()
            where
                Self: ::core::marker::Sized,
            {
            }
            #[doc(hidden)]
            fn __fwdad_dyn(&self) -> ::core::option::Option<(&dyn ::core::any::Any, &'static dyn ::core::any::Any)> {
                ::core::option::Option::None
            }
            /// The lane `k` of the tangent a trait object built from values that depend on
            /// the inputs carries, in the mode `mode` (`None`: a constant).
            #[doc(hidden)]
            #[inline(always)]
            fn __fwdad_dyn_lane(&self, mode: ::core::any::TypeId, second: bool, k: usize) -> ::core::option::Option<&dyn ::core::any::Any> {
                let _ = (mode, second, k);
                ::core::option::Option::None
            }
            /// The value, the lane `k` of the tangent it carries (`None`: a constant) and its
            /// type's table, for a `&mut self` method called through `dyn`.
            #[doc(hidden)]
            #[inline(always)]
            #[allow(clippy::type_complexity)]
            fn __fwdad_dyn_mut(&mut self, mode: ::core::any::TypeId, second: bool, k: usize) -> ::core::option::Option<(&mut dyn ::core::any::Any, ::core::option::Option<&mut dyn ::core::any::Any>, &'static dyn ::core::any::Any)> {
                let _ = (mode, second, k);
                ::core::option::Option::None
            }
            #rt::traits::with_alloc! {
                /// A copy of the value and how to put it back (`None`: not `Clone`).
                #[doc(hidden)]
                fn __fwdad_dyn_snapshot(&self) -> ::core::option::Option<#rt::traits::Restore> {
                    ::core::option::Option::None
                }
                /// A zero lane of the value's tangent (`None`: no derived `impl`), for a
                /// trait object passed in whose `&mut self` method stores values that
                /// depend on the inputs (`SideLane`).
                #[doc(hidden)]
                fn __fwdad_zero_lane(&self, second: bool) -> ::core::option::Option<#rt::alloc::Box<dyn ::core::any::Any>> {
                    let _ = second;
                    ::core::option::Option::None
                }
            }
            #[doc(hidden)]
            fn __fwdad_table() -> &'static dyn ::core::any::Any
            where
                Self: ::core::marker::Sized + #rt::ZeroTangent<Tangent = <Self as #rt::Differentiable>::TangentIn<f64>> + 'static,
            {
                &#holder::<Self>::TABLE
            }
            /// An `impl` without `#[derive_frule]` has no rules: its methods' rules are the
            /// trait's, which panic.
            #[doc(hidden)]
            #[inline(always)]
            fn __fwdad_assert_derived()
            where
                Self: ::core::marker::Sized,
            {
                #rt::traits::no_derived_impl(#tr_s, ::core::any::type_name::<Self>())
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
    // The associated types of a trait with rules are differentiable (the rules pass them).
    for item in tr_out.items.iter_mut() {
        if let syn::TraitItem::Type(t) = item {
            if t.colon_token.is_none() {
                t.colon_token = Some(Default::default());
            }
            let a = &t.ident;
            if let Ok(b) = syn::parse2::<syn::TypeParamBound>(
                quote!(#rt::Differentiable<Tangent = <Self::#a as #rt::Differentiable>::TangentIn<f64>>),
            ) {
                t.bounds.push(b);
            }
        }
    }
    let tr_tokens = quote_spanned!(Span::call_site()=> #tr_out);
    let holder_where = where_for(&syn::parse_quote!(__FwdadT));
    // A generic trait's table is empty (no `dyn`): its holder asks nothing of the type.
    let holder_bound = (!generic).then(|| quote!(#name +));
    // Lifetimes `'a`, `'b`: the trait has no generics to clash with, and rustc lists
    // these impls by them ("the following other types implement `ZeroTangent`").
    let carrier = dyn_ok.then(|| carrier_items(&tr, &rt)).flatten();
    let carrier_ty = carrier_name(name);
    let dyn_items =
        dyn_ok.then(|| {
            dyn_flavors().into_iter().map(|flavor| {
            // A value that depends on the inputs boxed as this trait object in a derived
            // body: the box of the carrier, whose tangent travels inside the object.
            let no_carry = quote! {
                #rt::traits::with_alloc! {
                    #[doc(hidden)]
                    #vis fn box_with_its_derivative<#s: #rt::Mode, __FwdadP: #rt::Differentiable>(
                        x: #rt::Dual<__FwdadP, <__FwdadP as #rt::Differentiable>::TangentIn<#s>>,
                    ) -> #rt::Dual<#rt::alloc::Box<Self>, #rt::alloc::Box<#rt::NoTangent>>
                    where
                        Self: #rt::traits::CarriedObject<#rt::traits::NoRule>,
                    {
                        let _ = x;
                        ::core::unreachable!()
                    }
                }
            };
            // A constant boxed there: the carrier of a zero tangent (a `&mut self` method
            // may store values that depend on the inputs in it), or, for a trait whose
            // objects cannot carry one, the plain box.
            let carry_const = match carrier.is_some() {
                true => quote! {
                    #rt::traits::with_alloc! {
                        #[doc(hidden)]
                        #[inline]
                        #vis fn box_constant<#s: #rt::Mode, __FwdadP>(
                            x: __FwdadP,
                        ) -> #rt::Dual<#rt::alloc::Box<Self>, #rt::alloc::Box<#rt::NoTangent>>
                        where
                            __FwdadP: #name + #rt::traits::LaneValue + #rt::ZeroTangent + 'static,
                            #carrier_ty<__FwdadP>: #name #flavor + 'b,
                        {
                            let t = #rt::ZeroTangent::zero_tangent_in::<#s>(&x);
                            Self::box_with_its_derivative::<#s, __FwdadP>(#rt::Dual::new(x, t))
                        }
                    }
                },
                false => quote! {
                    #rt::traits::with_alloc! {
                        #[doc(hidden)]
                        #[inline]
                        #vis fn box_constant<#s: #rt::Mode, __FwdadP>(
                            x: __FwdadP,
                        ) -> #rt::Dual<#rt::alloc::Box<Self>, #rt::alloc::Box<#rt::NoTangent>>
                        where
                            __FwdadP: #name #flavor + 'b,
                        {
                            #rt::Dual::new(#rt::alloc::Box::new(x), #rt::alloc::Box::new(#rt::NoTangent))
                        }
                    }
                },
            };
            let carry_fn = carrier.as_ref().map_or(no_carry, |_| quote! {
                #rt::traits::with_alloc! {
                    #[doc(hidden)]
                    #[inline]
                    #vis fn box_with_its_derivative<#s: #rt::Mode, __FwdadP>(
                        x: #rt::Dual<__FwdadP, <__FwdadP as #rt::Differentiable>::TangentIn<#s>>,
                    ) -> #rt::Dual<#rt::alloc::Box<Self>, #rt::alloc::Box<#rt::NoTangent>>
                    where
                        __FwdadP: #name + #rt::traits::LaneValue + 'static,
                        #carrier_ty<__FwdadP>: #name #flavor + 'b,
                    {
                        #rt::Dual::new(
                            #rt::alloc::Box::new(#carrier_ty(#rt::traits::Carried::new::<#s>(x))),
                            #rt::alloc::Box::new(#rt::NoTangent),
                        )
                    }
                }
            });
            quote! {
            #[automatically_derived]
            impl<'b> #rt::Differentiable for dyn #name #flavor + 'b {
                type Tangent = #rt::NoTangent;
                type TangentIn<#s: #rt::Mode> = #rt::NoTangent;
            }
            #[automatically_derived]
            impl<'b> #rt::ZeroTangent for dyn #name #flavor + 'b {
                fn zero_tangent(&self) -> #rt::NoTangent {
                    #rt::NoTangent
                }
                fn zero_tangent_in<#s: #rt::Mode>(&self) -> #rt::NoTangent {
                    #rt::NoTangent
                }
            }
            // A `&dyn Tr` bound as a constant (`Const(&m as &dyn Tr)`).
            #[automatically_derived]
            impl<'a, 'b> #rt::ZeroTangent for &'a (dyn #name #flavor + 'b) {
                fn zero_tangent(&self) -> &'a #rt::NoTangent {
                    &#rt::NoTangent
                }
                fn zero_tangent_in<#s: #rt::Mode>(&self) -> &'a #rt::NoTangent {
                    &#rt::NoTangent
                }
            }
            #[automatically_derived]
            impl<'b> #rt::traits::DerivedTrait for dyn #name #flavor + 'b {}

            // A constant value of an implementing type passed straight to a rule's
            // `&dyn Tr` or `Box<dyn Tr>` parameter (Rust's unsizing coercion, which the
            // rule's generic argument conversion cannot do).
            #[automatically_derived]
            impl<'b, __FwdadP: #name #flavor + #rt::traits::DynImpl<#key> + 'b>
                #rt::traits::UnsizeFrom<'b, __FwdadP> for dyn #name #flavor + 'b
            {
                #[inline(always)]
                fn unsize_ref(p: &'b __FwdadP) -> &'b Self {
                    p
                }
                #rt::traits::with_alloc! {
                    #[inline(always)]
                    fn unsize_box(p: #rt::alloc::Box<__FwdadP>) -> #rt::alloc::Box<Self> {
                        p
                    }
                }
            }

            impl<'b> dyn #name #flavor + 'b {
                #dyn_dispatch
                #carry_fn
                #carry_const
            }

            // A `&dyn Tr` bound as a plain entry of `bind` (`bind(f {}, (Wrt, lens))`): the
            // drivers' `&T` entries for a differentiated parameter are for sized `T` (one
            // for `T: ?Sized` would overlap their slice entries), so each trait object gets
            // its own, a constant, keyed on the parameter's dual (a plain `&dyn Tr`, an
            // `inactive` parameter, takes the drivers' entry for any reference). A rule's
            // `&dyn Tr` parameter is `&'a (dyn Tr + 'a)`: the object's lifetime shortened.
            #rt::with_drivers! {
                #[automatically_derived]
                impl<'p, 'z, 'b> #rt::drivers::Fits<#rt::Dual<&'z (dyn #name #flavor + 'z), &'z #rt::NoTangent>>
                    for &'p (dyn #name #flavor + 'b)
                {
                }
                #[automatically_derived]
                impl<'z, 'p, 'b, 'q, __FwdadX, __FwdadY, #s: #rt::Mode, __FwdadDT>
                    #rt::drivers::SlotDual<'z, __FwdadX, __FwdadY, #s, #rt::Dual<&'q (dyn #name #flavor + 'q), __FwdadDT>>
                    for &'p (dyn #name #flavor + 'b)
                {
                    type Dual = #rt::Dual<&'z (dyn #name #flavor + 'z), &'z #rt::NoTangent>;
                }
                #[automatically_derived]
                impl<'p, 'b, 'q, __FwdadX, __FwdadY, #s: #rt::Mode, __FwdadDT>
                    #rt::drivers::Slot<__FwdadX, __FwdadY, #s, #rt::Dual<&'q (dyn #name #flavor + 'q), __FwdadDT>>
                    for &'p (dyn #name #flavor + 'b)
                {
                    type Store = #rt::NoTangent;
                    #[inline(always)]
                    fn store(&self) -> #rt::NoTangent {
                        #rt::NoTangent
                    }
                    #[inline(always)]
                    fn dual<'z>(
                        &'z self,
                        store: &'z mut #rt::NoTangent,
                        _: __FwdadX,
                        _: &mut ::core::option::Option<__FwdadY>,
                    ) -> #rt::Dual<&'z (dyn #name #flavor + 'z), &'z #rt::NoTangent> {
                        #rt::Dual::new(&**self, &*store)
                    }
                }
            }
        }}).collect::<TokenStream>()
        });
    quote! {
        #tr_tokens

        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        #vis struct #table { #table_fields }

        /// The table of a type's rules at the two lane modes, a constant so that a `dyn`
        /// call borrows it for `'static`.
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #holder<__FwdadT>(::core::marker::PhantomData<__FwdadT>);

        #[automatically_derived]
        impl<__FwdadT: #holder_bound #rt::ZeroTangent<Tangent = <__FwdadT as #rt::Differentiable>::TangentIn<f64>> + 'static> #holder<__FwdadT>
        where
            #holder_where
        {
            const TABLE: #table = #table { #table_init };
        }

        #[automatically_derived]
        impl #rt::traits::TraitRules<#key, #table> for #rt::traits::Traits {}

        #dyn_items

        #carrier

        #outside
    }
}

/// Whether `#[derive_frule] impl Tr for T` is of a trait of the user's, whose definition
/// must carry `#[derive_frule]` (not a `std` trait, nor an operator).
/// Whether a trait's path gives it type arguments (`ContinuousCDF<f64, f64>`, `Min<f64>`):
/// a generic trait, which `#[derive_frule]` does not annotate.
pub(crate) fn has_type_arguments(path: &syn::Path) -> bool {
    path.segments.last().is_some_and(|s| match &s.arguments {
        syn::PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .any(|g| matches!(g, syn::GenericArgument::Type(_))),
        _ => false,
    }) && is_user_trait(path)
}

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
/// rules of the methods it defines (`__fwdad_frule_m`, calling `Ty`'s markers), the mark
/// that it is derived and, for a non-generic impl, its `dyn` table; outside, `Ty:
/// DerivedImpl<KEY>`.
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
    let s = mode();
    for item in &imp.items {
        let syn::ImplItem::Fn(m) = item else { continue };
        let Some(ms) = method_sig(&m.sig).or_else(|| fn_method_sig(&m.sig, rt)) else {
            continue;
        };
        let sig = rule_sig(&ms, rt);
        let marker = format_ident!("__fwdad_{}_{}", ty_ident, ms.name);
        let names = arg_names(&ms);
        let f: syn::ImplItem = match syn::parse2(quote! {
            #[doc(hidden)]
            #[inline(always)]
            #sig
            {
                <#marker as #rt::Frule<_, #s>>::frule(&#marker {}, (#(#names,)*))
            }
        }) {
            Ok(f) => f,
            Err(_) => continue,
        };
        items.push(f);
    }
    let mark: syn::ImplItem = match syn::parse2(quote! {
        #[doc(hidden)]
        #[inline(always)]
        fn __fwdad_assert_derived() {}
    }) {
        Ok(f) => f,
        Err(_) => return (items, TokenStream::new()),
    };
    items.push(mark);
    if imp.generics.params.is_empty() {
        let dyn_fn: syn::ImplItem = match syn::parse2(quote! {
            #[doc(hidden)]
            fn __fwdad_dyn(&self) -> ::core::option::Option<(&dyn ::core::any::Any, &'static dyn ::core::any::Any)> {
                ::core::option::Option::Some((self, <Self as #path>::__fwdad_table()))
            }
        }) {
            Ok(f) => f,
            Err(_) => return (items, TokenStream::new()),
        };
        items.push(dyn_fn);
        let more: syn::ItemImpl = match syn::parse2(quote! {
            impl X {
                #[doc(hidden)]
                #[allow(clippy::type_complexity)]
                fn __fwdad_dyn_mut(&mut self, mode: ::core::any::TypeId, second: bool, k: usize) -> ::core::option::Option<(&mut dyn ::core::any::Any, ::core::option::Option<&mut dyn ::core::any::Any>, &'static dyn ::core::any::Any)> {
                    let _ = (mode, second, k);
                    ::core::option::Option::Some((self, ::core::option::Option::None, <Self as #path>::__fwdad_table()))
                }
                #rt::traits::with_alloc! {
                    #[doc(hidden)]
                    fn __fwdad_dyn_snapshot(&self) -> ::core::option::Option<#rt::traits::Restore> {
                        #[allow(unused_imports)]
                        use #rt::traits::{DynSnapshotClone as _, DynSnapshotNone as _};
                        (&#rt::traits::DynSnapshot(self)).dyn_snapshot()
                    }
                    #[doc(hidden)]
                    fn __fwdad_zero_lane(&self, second: bool) -> ::core::option::Option<#rt::alloc::Box<dyn ::core::any::Any>> {
                        #[allow(unused_imports)]
                        use #rt::traits::{ZeroLaneNone as _, ZeroLaneSome as _};
                        (&#rt::traits::ZeroLaneOf(self)).zero_lane(second)
                    }
                }
            }
        }) {
            Ok(f) => f,
            Err(_) => return (items, TokenStream::new()),
        };
        items.extend(more.items);
    }
    let self_ty = &imp.self_ty;
    let key = trait_key(&tr);
    let (impl_generics, _, where_clause) = imp.generics.split_for_impl();
    // A non-generic impl has a `dyn` table (`__fwdad_dyn` above): its values may be
    // passed straight to a `&dyn Tr` parameter (`traits::UnsizeFrom`).
    let dyn_impl = imp.generics.params.is_empty().then(|| {
        quote! {
            #[automatically_derived]
            impl #rt::traits::DynImpl<#key> for #self_ty {}
        }
    });
    // A generic one has none: a cast of its values to `&dyn Tr` in a derived body is then
    // an error there (`traits::CastCheck`).
    let generic_impl = (!imp.generics.params.is_empty()).then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics #rt::traits::GenericDerivedImpl<#key> for #self_ty #where_clause {}
        }
    });
    let outside = quote! {
        #[automatically_derived]
        impl #impl_generics #rt::traits::DerivedImpl<#key> for #self_ty #where_clause {}
        #dyn_impl
        #generic_impl
    };
    (items, outside)
}

/// The type parameter standing for the implementing type in a default method's rule.
pub(crate) const SELF_PARAM: &str = "__FwdadSelf";

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
            if let Some(last) = t.segments.last() {
                let key = trait_key(&last.ident);
                out.extend(quote!(#p: #rt::traits::DerivedImpl<#key>,));
            }
        }
    }
    out
}

/// Whether a parameter of type `ty` finds its methods through bounds only: a type
/// parameter of `generics` or a trait object, behind references or a `Box` (`m: &M`,
/// `b: &dyn Body`, `Box<dyn Body>`, `&impl Body`).
pub(crate) fn methods_from_bounds(ty: &syn::Type, generics: &syn::Generics) -> bool {
    match ty {
        syn::Type::Reference(r) => methods_from_bounds(&r.elem, generics),
        syn::Type::Paren(t) => methods_from_bounds(&t.elem, generics),
        syn::Type::Group(t) => methods_from_bounds(&t.elem, generics),
        syn::Type::TraitObject(_) | syn::Type::ImplTrait(_) => true,
        syn::Type::Path(tp) if tp.qself.is_none() => {
            let Some(last) = tp.path.segments.last() else {
                return false;
            };
            match &last.arguments {
                syn::PathArguments::None => {
                    tp.path.segments.len() == 1
                        && generics.type_params().any(|t| t.ident == last.ident)
                }
                syn::PathArguments::AngleBracketed(a) if last.ident == "Box" => {
                    matches!(a.args.first(), Some(syn::GenericArgument::Type(t)) if methods_from_bounds(t, generics))
                }
                _ => false,
            }
        }
        _ => false,
    }
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
    let bounds: Vec<syn::Path> = trait_params(&sig.generics)
        .into_iter()
        .filter(|(p, _)| p != "__FwdadSelf")
        .flat_map(|(_, t)| t)
        .collect();
    let mut objects = Vec::new();
    for arg in &sig.inputs {
        if let syn::FnArg::Typed(t) = arg {
            objects.extend(dyn_traits(&t.ty));
        }
    }
    let mut out = TokenStream::new();
    // A bound may be a trait that is not dyn compatible: found by its key.
    for p in bounds {
        let Some(last) = p.segments.last() else {
            continue;
        };
        let (span, key) = (last.ident.span(), trait_key(&last.ident));
        out.extend(quote_spanned! {span=>
            const _: () = {
                #[allow(dead_code, non_snake_case)]
                fn __fwdad_trait_has_rules() {
                    #rt::traits::trait_has_rules::<#key, _>();
                }
            };
        });
    }
    for p in objects {
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
/// their elements reach the trait's own dispatch, which a trait object cannot call; and
/// `?Sized` on a parameter bounded by a trait of the user's.
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
    // `M: Model + ?Sized`: the trait's rules for `M` are the implementing type's, found
    // through a dispatch that needs the type (a trait object's go through its table, which
    // a generic body cannot tell apart).
    let user_params: Vec<syn::Ident> = trait_params(&sig.generics)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let maybe_unsized = |b: &syn::TypeParamBound| {
        matches!(b, syn::TypeParamBound::Trait(t)
            if matches!(t.modifier, syn::TraitBoundModifier::Maybe(_)) && t.path.is_ident("Sized"))
    };
    let mut unsized_bounds: Vec<(syn::Ident, &syn::TypeParamBound)> = Vec::new();
    for tp in sig.generics.type_params() {
        if user_params.contains(&tp.ident) {
            let found = tp.bounds.iter().filter(|b| maybe_unsized(b));
            unsized_bounds.extend(found.map(|b| (tp.ident.clone(), b)));
        }
    }
    if let Some(w) = &sig.generics.where_clause {
        for pred in &w.predicates {
            let syn::WherePredicate::Type(pt) = pred else {
                continue;
            };
            let syn::Type::Path(p) = &pt.bounded_ty else {
                continue;
            };
            let Some(id) = p.path.get_ident().filter(|id| user_params.contains(id)) else {
                continue;
            };
            let found = pt.bounds.iter().filter(|b| maybe_unsized(b));
            unsized_bounds.extend(found.map(|b| (id.clone(), b)));
        }
    }
    for (p, b) in unsized_bounds {
        diag.error_spanned(b, format!("`#[derive_frule]` does not support `?Sized` on `{p}`, a type parameter bounded by a trait of yours: its methods' rules are the implementing type's, which a trait object does not have at compile time; remove `?Sized` (a call with a trait object then takes a `&dyn Trait` parameter, in a function of its own)"));
    }
    for arg in &sig.inputs {
        if let syn::FnArg::Typed(t) = arg {
            let mut f = Find(Vec::new(), false);
            syn::visit::Visit::visit_type(&mut f, &t.ty);
            for r in f.0 {
                diag.error_spanned(&r, "`#[derive_frule]` does not support references to trait objects inside a slice, array or other type (`&[&dyn Trait]`): box them (`&[Box<dyn Trait>]`), or take the objects one by one (`&dyn Trait`)");
            }
            check_generic_trait_objects(&t.ty, diag);
        }
    }
}

/// `s: &dyn Integrator<f64>`: a generic trait has no `dyn` dispatch (`expand_trait`), so a
/// trait object of one is an error at the object, saying to take a type parameter.
#[inline(never)]
fn check_generic_trait_objects(ty: &syn::Type, diag: &mut Diagnostics) {
    struct Find(Vec<syn::TypeTraitObject>);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_type_trait_object(&mut self, t: &'ast syn::TypeTraitObject) {
            let generic = t.bounds.iter().any(
                |b| matches!(b, syn::TypeParamBound::Trait(tb) if has_type_arguments(&tb.path)),
            );
            if generic {
                self.0.push(t.clone());
            }
            syn::visit::visit_type_trait_object(self, t);
        }
    }
    let mut f = Find(Vec::new());
    syn::visit::Visit::visit_type(&mut f, ty);
    for o in f.0 {
        let tr = o.bounds.iter().find_map(|b| match b {
            syn::TypeParamBound::Trait(tb) if has_type_arguments(&tb.path) => Some(&tb.path),
            _ => None,
        });
        let Some(tr) = tr else { continue };
        let text = quote!(#tr)
            .to_string()
            .replace(" < ", "<")
            .replace(" >", ">")
            .replace(" ,", ",");
        diag.error_spanned(&o, format!("`#[derive_frule]` does not support a trait object of a generic trait (`dyn {text}`): the rules of a generic trait are found through the implementing type, which a trait object hides; take a type parameter instead (`fn f<I: {text}>(x: &I, ..)`)"));
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
                // `coefficients: impl IntoIterator<Item = f64>` too: a type parameter
                // generic over an iterator (`derive_frule::iter_type_params`); and `value:
                // impl Float` (keyframe's `as_f64`), a float type parameter.
                let all_user = it.bounds.iter().all(|b| match b {
                    syn::TypeParamBound::Trait(tb) => {
                        is_user_trait(&tb.path)
                            || tb.path.segments.last().is_some_and(|s| {
                                s.ident == "IntoIterator"
                                    || s.ident == "Iterator"
                                    || crate::callee::is_float_trait(&s.ident.to_string())
                            })
                    }
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

/// The name of the type a trait's expansion wraps a value in when it is boxed as a trait
/// object in a derived body from values that depend on the inputs (`carrier_items`).
fn carrier_name(tr: &syn::Ident) -> syn::Ident {
    format_ident!("__fwdad_{}_carried", tr)
}

/// For a dyn-compatible trait whose supertraits are among `Debug`, `Send` and `Sync` and
/// whose methods take `&self`, `&mut self` or `self` (or are `where Self: Sized`): a type
/// holding a value with its tangent's lanes (`fwdad_runtime::traits::Carried`) that
/// implements the trait by delegating each method to the value, and gives a `dyn` call the
/// lane of its tangent (`__fwdad_dyn_lane`). `None` for any other trait: its trait objects
/// are built from constants only.
fn carrier_items(tr: &syn::ItemTrait, rt: &TokenStream) -> Option<TokenStream> {
    let name = &tr.ident;
    let mut debug = false;
    for b in &tr.supertraits {
        match b {
            syn::TypeParamBound::Trait(t) => {
                let last = t.path.segments.last()?.ident.to_string();
                match last.as_str() {
                    "Debug" => debug = true,
                    "Send" | "Sync" => {}
                    _ => return None,
                }
            }
            syn::TypeParamBound::Lifetime(_) => {}
            _ => return None,
        }
    }
    let p = format_ident!("__FwdadP");
    let mut methods = TokenStream::new();
    for item in &tr.items {
        let syn::TraitItem::Fn(f) = item else {
            return None;
        };
        let sig = &f.sig;
        if sig.unsafety.is_some()
            || sig.asyncness.is_some()
            || sig.constness.is_some()
            || sig.variadic.is_some()
            || sig.abi.is_some()
        {
            return None;
        }
        let mut new_sig = sig.clone();
        let mut args = Vec::new();
        for (i, arg) in new_sig.inputs.iter_mut().enumerate() {
            if let syn::FnArg::Typed(t) = arg {
                let n = format_ident!("__fwdad_p{}", i);
                *t.pat = syn::Pat::Ident(syn::PatIdent {
                    attrs: vec![],
                    by_ref: None,
                    mutability: None,
                    ident: n.clone(),
                    subpat: None,
                });
                t.attrs.clear();
                args.push(n);
            }
        }
        let m = &sig.ident;
        if sized_only(sig) {
            if f.default.is_none() {
                // Not in the vtable, and the carrier is only ever behind `dyn`.
                methods.extend(quote! {
                    #[allow(unused_variables)]
                    #new_sig {
                        ::core::unreachable!()
                    }
                });
            }
            continue;
        }
        let recv = match receiver(sig) {
            Some(Recv::Ref) => quote!(&self.0.value),
            Some(Recv::Mut) => quote!(&mut self.0.value),
            Some(Recv::Value) => quote!(self.0.value),
            _ => return None,
        };
        methods.extend(quote! {
            #[inline]
            #new_sig {
                <#p as #name>::#m(#recv, #(#args),*)
            }
        });
    }
    let carrier = carrier_name(name);
    let vis = &tr.vis;
    let debug = debug.then(|| {
        quote! {
            #[automatically_derived]
            impl<#p: #rt::Differentiable + ::core::fmt::Debug> ::core::fmt::Debug for #carrier<#p> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    ::core::fmt::Debug::fmt(&self.0.value, f)
                }
            }
        }
    });
    Some(quote! {
        #rt::traits::with_alloc! {
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #vis struct #carrier<#p: #rt::Differentiable>(#rt::traits::Carried<#p>);

            #debug

            #[automatically_derived]
            impl<#p: #name + #rt::traits::LaneValue + 'static> #name for #carrier<#p> {
                #methods
                #[doc(hidden)]
                fn __fwdad_dyn(&self) -> ::core::option::Option<(&dyn ::core::any::Any, &'static dyn ::core::any::Any)> {
                    <#p as #name>::__fwdad_dyn(&self.0.value)
                }
                #[doc(hidden)]
                fn __fwdad_dyn_lane(
                    &self,
                    mode: ::core::any::TypeId,
                    second: bool,
                    k: usize,
                ) -> ::core::option::Option<&dyn ::core::any::Any> {
                    self.0.lane(mode, second, k)
                }
                #[doc(hidden)]
                #[allow(clippy::type_complexity)]
                fn __fwdad_dyn_mut(&mut self, mode: ::core::any::TypeId, second: bool, k: usize) -> ::core::option::Option<(&mut dyn ::core::any::Any, ::core::option::Option<&mut dyn ::core::any::Any>, &'static dyn ::core::any::Any)> {
                    let (value, lane) = self.0.lane_mut(mode, second, k);
                    match <#p as #name>::__fwdad_dyn_mut(value, mode, second, k) {
                        ::core::option::Option::Some((v, _, t)) => ::core::option::Option::Some((v, lane, t)),
                        ::core::option::Option::None => ::core::option::Option::None,
                    }
                }
                #[doc(hidden)]
                fn __fwdad_dyn_snapshot(&self) -> ::core::option::Option<#rt::traits::Restore> {
                    <#p as #name>::__fwdad_dyn_snapshot(&self.0.value)
                }
                #[doc(hidden)]
                fn __fwdad_zero_lane(&self, second: bool) -> ::core::option::Option<#rt::alloc::Box<dyn ::core::any::Any>> {
                    <#p as #name>::__fwdad_zero_lane(&self.0.value, second)
                }
            }
        }
    })
}
