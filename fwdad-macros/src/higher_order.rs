//! Functions passed as values (issue #28): a parameter `f: F` with `F: Fn(f64) -> f64`
//! (or `impl Fn`, `&dyn Fn`, `&mut dyn FnMut`, `Box<dyn Fn>`, `fn(..)`) and the closures a
//! derived body passes to such a function.
//!
//! * The rule of `fn simpson<F: Fn(f64) -> f64>(f: F, ..)` takes `f` as a function of
//!   duals: every type in the `Fn(..) -> ..` sugar becomes its dual in the mode
//!   (`F: Fn(Dual<f64, S>) -> Dual<f64, S>`), and `f(x)` in the body calls it with duals.
//!   Next to the marker, `simpson::__fwdad_fn_arg<i>::<S, F, _>(g)` hands back `g`
//!   unchanged with that signature, so that a caller's closure gets its parameter types;
//!   `F` is the float type the caller's closure is over (`f64`, or the caller's `T`), which
//!   stands for the callee's float type parameters in the signature.
//! * A closure passed to `simpson` in another derived body is differentiated as a function
//!   of its own (its parameters, then its captures) with the caller's activity of the
//!   captures ([`prepare`]); the emitter wraps that body as a closure, given to
//!   `__fwdad_fn_arg<i>`.

use crate::diag::Diagnostics;
use crate::ir::Function;
use crate::types::TypeHint;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::visit_mut::VisitMut;

/// Whether `b` is an `Fn`/`FnMut`/`FnOnce(..)` bound.
fn is_fn_bound(b: &syn::TypeParamBound) -> bool {
    match b {
        syn::TypeParamBound::Trait(t) => t.path.segments.last().is_some_and(|s| {
            matches!(s.arguments, syn::PathArguments::Parenthesized(_))
                && ["Fn", "FnMut", "FnOnce"].contains(&s.ident.to_string().as_str())
        }),
        _ => false,
    }
}

/// The type parameters of `generics` bounded by `Fn(..)` (in the list or the `where`
/// clause).
pub(crate) fn fn_type_params(generics: &syn::Generics) -> Vec<syn::Ident> {
    let mut out = Vec::new();
    for tp in generics.type_params() {
        let mut fnish = tp.bounds.iter().any(is_fn_bound);
        if let Some(w) = &generics.where_clause {
            for pred in &w.predicates {
                if let syn::WherePredicate::Type(pt) = pred {
                    if matches!(&pt.bounded_ty, syn::Type::Path(p) if p.path.is_ident(&tp.ident)) {
                        fnish |= pt.bounds.iter().any(is_fn_bound);
                    }
                }
            }
        }
        if fnish {
            out.push(tp.ident.clone());
        }
    }
    out
}

/// Whether a parameter of type `ty` is a function value: a type parameter bounded by
/// `Fn(..)`, `impl Fn(..)`, `&dyn Fn(..)`, `&mut dyn FnMut(..)`, `Box<dyn Fn(..)>`, `fn(..)`.
pub(crate) fn is_fn_type(ty: &syn::Type, fn_params: &[syn::Ident]) -> bool {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            if let Some(id) = p.path.get_ident() {
                return fn_params.contains(id);
            }
            let last = p.path.segments.last();
            match last {
                Some(s) if s.ident == "Box" => match &s.arguments {
                    syn::PathArguments::AngleBracketed(a) => match a.args.first() {
                        Some(syn::GenericArgument::Type(t)) => is_fn_type(t, fn_params),
                        _ => false,
                    },
                    _ => false,
                },
                _ => false,
            }
        }
        syn::Type::ImplTrait(it) => it.bounds.iter().any(is_fn_bound),
        syn::Type::TraitObject(o) => o.bounds.iter().any(is_fn_bound),
        // `&dyn Fn(..)`, and `&F` of a type parameter `F: Fn(..)`.
        syn::Type::Reference(r) => {
            let param = matches!(&*r.elem, syn::Type::Path(p) if p.qself.is_none() && p.path.get_ident().is_some());
            (param || matches!(&*r.elem, syn::Type::TraitObject(_) | syn::Type::Paren(_)))
                && is_fn_type(&r.elem, fn_params)
        }
        syn::Type::Paren(p) => is_fn_type(&p.elem, fn_params),
        syn::Type::BareFn(_) => true,
        _ => false,
    }
}

/// One flag per parameter of `sig`: whether it is a function value.
pub(crate) fn fn_value_params(sig: &syn::Signature) -> Vec<bool> {
    let fn_params = fn_type_params(&sig.generics);
    sig.inputs
        .iter()
        .map(|a| match a {
            syn::FnArg::Typed(t) => is_fn_type(&t.ty, &fn_params),
            syn::FnArg::Receiver(_) => false,
        })
        .collect()
}

/// Rewrites every `Fn(A, B) -> R` (and `fn(A) -> R`) it visits into the same sugar over
/// duals in `mode`: `Fn(Dual<A, <A as Differentiable>::TangentIn<mode>>, ..) -> Dual<R, ..>`.
pub(crate) struct Dualize<'a> {
    pub(crate) rt: &'a TokenStream,
    pub(crate) mode: TokenStream,
}

impl Dualize<'_> {
    /// `Dual<ty, ty's tangent in the mode>`, the tangent of `f64`, `&[f64]`, `&mut [f64]`
    /// and `()` written out (the mode, `&[S]`, `&mut [S]`, `NoTangent`): under the
    /// `for<'a>` of an `Fn(&[f64], ..)` bound rustc does not normalise
    /// `<&'a [f64] as Differentiable>::TangentIn<S>`, and a rule passed by name would not
    /// meet a bound written with it.
    fn dual(&self, ty: &syn::Type) -> syn::Type {
        let (rt, mode) = (self.rt, &self.mode);
        let is_f64 = |t: &syn::Type| matches!(t, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("f64"));
        let tangent = match ty {
            t if is_f64(t) => quote!(#mode),
            syn::Type::Reference(r) if matches!(&*r.elem, syn::Type::Slice(sl) if is_f64(&sl.elem)) =>
            {
                let (lt, m) = (&r.lifetime, &r.mutability);
                quote!(&#lt #m [#mode])
            }
            syn::Type::Tuple(t) if t.elems.is_empty() => quote!(#rt::NoTangent),
            _ => quote!(<#ty as #rt::Differentiable>::TangentIn<#mode>),
        };
        syn::parse2(quote!(#rt::Dual<#ty, #tangent>)).unwrap_or_else(|_| ty.clone())
    }
}

impl VisitMut for Dualize<'_> {
    /// `Fn(f64, &[f64])` → `for<'h0> Fn(Dual<f64, S>, Dual<&'h0 [f64], &'h0 [S]>)`: each
    /// elided lifetime named once, so a slice's primal and tangent share it (the sugar
    /// would elide the two separately, and a rule, whose dual slices share one lifetime,
    /// would not be general enough for it). Kept as written when the output borrows.
    fn visit_trait_bound_mut(&mut self, b: &mut syn::TraitBound) {
        let last = b.path.segments.last_mut();
        if let Some(syn::PathArguments::Parenthesized(p)) = last.map(|s| &mut s.arguments) {
            let mut out = NameElided::default();
            if let syn::ReturnType::Type(_, t) = &p.output {
                out.visit_type_mut(&mut (**t).clone());
            }
            if out.0.is_empty() {
                let mut namer = NameElided::default();
                for t in p.inputs.iter_mut() {
                    namer.visit_type_mut(t);
                }
                if !namer.0.is_empty() {
                    let bound = b.lifetimes.get_or_insert_with(|| syn::BoundLifetimes {
                        for_token: Default::default(),
                        lt_token: Default::default(),
                        lifetimes: Default::default(),
                        gt_token: Default::default(),
                    });
                    for l in namer.0 {
                        bound
                            .lifetimes
                            .push(syn::GenericParam::Lifetime(syn::LifetimeParam::new(l)));
                    }
                }
            }
        }
        syn::visit_mut::visit_trait_bound_mut(self, b);
    }
    fn visit_parenthesized_generic_arguments_mut(
        &mut self,
        p: &mut syn::ParenthesizedGenericArguments,
    ) {
        for t in p.inputs.iter_mut() {
            *t = self.dual(t);
        }
        p.output = match &p.output {
            syn::ReturnType::Default => syn::ReturnType::Type(
                Default::default(),
                Box::new(self.dual(&syn::Type::Tuple(syn::TypeTuple {
                    paren_token: Default::default(),
                    elems: Default::default(),
                }))),
            ),
            syn::ReturnType::Type(arrow, t) => {
                syn::ReturnType::Type(*arrow, Box::new(self.dual(t)))
            }
        };
    }
    fn visit_type_bare_fn_mut(&mut self, f: &mut syn::TypeBareFn) {
        for a in f.inputs.iter_mut() {
            a.ty = self.dual(&a.ty);
        }
        if let syn::ReturnType::Type(_, t) = &mut f.output {
            **t = self.dual(t);
        }
    }
}

/// The rule's generics and parameter types for the function values among `sig`'s
/// parameters (`flags`), with `Fn` sugar over duals in `mode`: each `impl Fn(..)`
/// parameter becomes a type parameter `__FwdadFn<i>` (`impl Trait` cannot appear in the
/// `Frule` impl's types). Returns the generics and the rewritten type of each flagged
/// parameter (others `None`).
pub(crate) fn rule_types(
    sig: &syn::Signature,
    flags: &[bool],
    rt: &TokenStream,
    mode: TokenStream,
    impl_to_params: bool,
) -> (syn::Generics, Vec<Option<syn::Type>>) {
    let mut d = Dualize { rt, mode };
    let mut generics = sig.generics.clone();
    let fn_params = fn_type_params(&sig.generics);
    for p in generics.params.iter_mut() {
        if let syn::GenericParam::Type(tp) = p {
            if fn_params.contains(&tp.ident) {
                d.visit_type_param_mut(tp);
            }
        }
    }
    if let Some(w) = &mut generics.where_clause {
        for pred in w.predicates.iter_mut() {
            if let syn::WherePredicate::Type(pt) = pred {
                if pt.bounds.iter().any(is_fn_bound) {
                    d.visit_predicate_type_mut(pt);
                }
            }
        }
    }
    let mut types = Vec::new();
    for (i, (arg, &flag)) in sig.inputs.iter().zip(flags).enumerate() {
        let syn::FnArg::Typed(t) = arg else {
            types.push(None);
            continue;
        };
        if !flag {
            types.push(None);
            continue;
        }
        let mut ty = (*t.ty).clone();
        d.visit_type_mut(&mut ty);
        let bounds = match &ty {
            syn::Type::ImplTrait(it) => {
                let b = &it.bounds;
                Some(quote!(#b))
            }
            // A `fn(..)` pointer: any function of duals (a closure's dual form captures).
            syn::Type::BareFn(f) => {
                let inputs = f.inputs.iter().map(|a| &a.ty);
                let output = &f.output;
                Some(quote!(Fn(#(#inputs),*) #output))
            }
            _ => None,
        };
        if let (true, Some(bounds)) = (impl_to_params, bounds) {
            let name = format_ident!("__FwdadFn{}", i);
            let param: syn::TypeParam = match syn::parse2(quote!(#name: #bounds)) {
                Ok(p) => p,
                Err(_) => {
                    types.push(Some(ty));
                    continue;
                }
            };
            generics.params.push(syn::GenericParam::Type(param));
            ty = syn::Type::Path(syn::TypePath {
                qself: None,
                path: name.into(),
            });
        }
        types.push(Some(ty));
    }
    (generics, types)
}

/// The `Fn` bound of a function-valued parameter type (`F`, `impl Fn`, `&dyn Fn`, ...),
/// already over duals, for `__fwdad_fn_arg<i>`.
fn bound_of(ty: &syn::Type, generics: &syn::Generics) -> Option<TokenStream> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            if let Some(id) = p.path.get_ident() {
                let tp = generics.type_params().find(|t| t.ident == *id)?;
                let mut bounds: Vec<&syn::TypeParamBound> =
                    tp.bounds.iter().filter(|b| is_fn_bound(b)).collect();
                if let Some(w) = &generics.where_clause {
                    for pred in &w.predicates {
                        if let syn::WherePredicate::Type(pt) = pred {
                            if matches!(&pt.bounded_ty, syn::Type::Path(q) if q.path.is_ident(id)) {
                                bounds.extend(pt.bounds.iter().filter(|b| is_fn_bound(b)));
                            }
                        }
                    }
                }
                let b = bounds.first()?;
                return Some(quote!(#b));
            }
            let s = p.path.segments.last()?;
            match &s.arguments {
                syn::PathArguments::AngleBracketed(a) => match a.args.first() {
                    Some(syn::GenericArgument::Type(t)) => bound_of(t, generics),
                    _ => None,
                },
                _ => None,
            }
        }
        syn::Type::ImplTrait(it) => {
            let b = it.bounds.iter().find(|b| is_fn_bound(b))?;
            Some(quote!(#b))
        }
        syn::Type::TraitObject(o) => {
            let b = o.bounds.iter().find(|b| is_fn_bound(b))?;
            Some(quote!(#b))
        }
        syn::Type::Reference(r) => bound_of(&r.elem, generics),
        syn::Type::Paren(p) => bound_of(&p.elem, generics),
        syn::Type::BareFn(f) => {
            let inputs = f.inputs.iter().map(|a| &a.ty);
            let output = &f.output;
            Some(quote!(Fn(#(#inputs),*) #output))
        }
        _ => None,
    }
}

/// `sig` with its float type parameters (those not bounded by `Fn(..)`) replaced by `float`
/// in the function values' bounds, the parameter types and the output.
fn floats_as(sig: &syn::Signature, float: &syn::Ident) -> syn::Signature {
    let fn_params = fn_type_params(&sig.generics);
    let floats: Vec<syn::Ident> = sig
        .generics
        .type_params()
        .map(|t| t.ident.clone())
        .filter(|t| !fn_params.contains(t))
        .collect();
    if floats.is_empty() {
        return sig.clone();
    }
    struct Floats<'a>(Vec<syn::Ident>, &'a syn::Ident);
    impl VisitMut for Floats<'_> {
        fn visit_type_mut(&mut self, ty: &mut syn::Type) {
            if let syn::Type::Path(p) = ty {
                if p.qself.is_none() && p.path.get_ident().is_some_and(|i| self.0.contains(i)) {
                    *ty = syn::Type::Path(syn::TypePath {
                        qself: None,
                        path: self.1.clone().into(),
                    });
                    return;
                }
            }
            syn::visit_mut::visit_type_mut(self, ty);
        }
    }
    let mut out = sig.clone();
    let mut visitor = Floats(floats, float);
    for p in out.generics.params.iter_mut() {
        if let syn::GenericParam::Type(tp) = p {
            if fn_params.contains(&tp.ident) {
                visitor.visit_type_param_mut(tp);
            }
        }
    }
    if let Some(w) = &mut out.generics.where_clause {
        for pred in w.predicates.iter_mut() {
            visitor.visit_where_predicate_mut(pred);
        }
    }
    for arg in out.inputs.iter_mut() {
        if let syn::FnArg::Typed(t) = arg {
            visitor.visit_type_mut(&mut t.ty);
        }
    }
    visitor.visit_return_type_mut(&mut out.output);
    out
}

/// `impl marker { fn __fwdad_fn_arg<i><S, G: bound>(g: G) -> G { g } }` for each function
/// value parameter: a caller's closure given to it gets its parameter types from the
/// bound.
pub(crate) fn signature_helpers(
    sig: &syn::Signature,
    flags: &[bool],
    marker: &TokenStream,
    rt: &TokenStream,
) -> TokenStream {
    let fns = helper_fns(sig, flags, rt, None);
    if fns.is_empty() {
        return TokenStream::new();
    }
    quote! {
        #[automatically_derived]
        #[allow(non_camel_case_types, clippy::all)]
        impl #marker { #(#fns)* }
    }
}

/// The helpers of [`signature_helpers`] for a method `m` of the user's, as methods of its
/// type taking `&self` (`<m>_forward_rule_fn_arg<i>`, ...): a call `recv.m(|x| ..)`
/// reaches them through the receiver, as it reaches the method's rule, since the caller
/// does not know the receiver's type.
pub(crate) fn method_helpers(
    sig: &syn::Signature,
    flags: &[bool],
    rt: &TokenStream,
    method: &syn::Ident,
) -> Vec<TokenStream> {
    let mut fns = helper_fns(sig, flags, rt, Some((method, true)));
    // For calls by path (`Ty::m(&recv, |x| ..)`): `Ty::__fwdad_fn_arg<i>_of_<m>`.
    let of = format_ident!("of_{}", method);
    fns.extend(helper_fns(sig, flags, rt, Some((&of, false))));
    fns
}

/// `__fwdad_fn_arg<i>`, `__fwdad_fn_pass<i>` and `__fwdad_rule_arg<i>` for each function
/// value parameter `i` of `sig`; for a method (`method`) taking `&self` (its flag set),
/// `<method>_forward_rule_fn_arg<i>`, ... ([`crate::register::method_helper_name`]), and
/// for a call by path suffixed `_of_<method>`.
fn helper_fns(
    sig: &syn::Signature,
    flags: &[bool],
    rt: &TokenStream,
    method: Option<(&syn::Ident, bool)>,
) -> Vec<TokenStream> {
    if !flags.contains(&true) {
        return Vec::new();
    }
    let mode = format_ident!("__FwdadMode");
    // In a function generic over its float type (`fn midpoint<T: Float, F: Fn(T) -> T>`),
    // the helpers take the float type a caller's closure is over (`f64`, or the caller's
    // own `T`) as `__FwdadF`, bounded as the rule bounds its floats.
    let float = format_ident!("__FwdadF");
    let sig = &floats_as(sig, &float);
    let float_param = quote!(#float: #rt::Real);
    let (generics, types) = rule_types(sig, flags, rt, quote!(#mode), false);
    let named = |base: &str, i: usize| match method {
        // A method's, called on the receiver: named in words (`m_forward_rule_fn_arg1`).
        Some((m, true)) => {
            let base = base.trim_start_matches("__fwdad_");
            crate::register::method_helper_name(base, i, m, m.span())
        }
        Some((m, false)) => format_ident!("{}{}_{}", base, i, m),
        None => format_ident!("{}{}", base, i),
    };
    let recv = method.and_then(|(_, r)| r.then(|| quote!(&self,)));
    let mut fns = Vec::new();
    for (i, ty) in types.iter().enumerate() {
        let Some(ty) = ty else { continue };
        let Some(bound) = bound_of(ty, &generics) else {
            continue;
        };
        let name = named("__fwdad_fn_arg", i);
        fns.push(quote! {
            #[doc(hidden)]
            #[inline(always)]
            #[allow(non_snake_case, clippy::type_complexity)]
            pub fn #name<#mode: #rt::Mode, #float_param, __FwdadG: #bound>(#recv g: __FwdadG) -> __FwdadG { g }
        });
        // What the caller passes (the closure as it wrote it: `&`, `Box::new`, as it is)
        // converted to the parameter, as a call coerces it (`&closure` to `&dyn Fn`).
        let pass = named("__fwdad_fn_pass", i);
        let original = match sig.inputs.iter().nth(i) {
            Some(syn::FnArg::Typed(t)) => strip_parens(&t.ty).clone(),
            _ => continue,
        };
        fns.push(match &original {
            syn::Type::Reference(r) if matches!(strip_parens(&r.elem), syn::Type::TraitObject(_)) => {
                let m = r.mutability;
                quote! {
                    #[doc(hidden)]
                    #[inline(always)]
                    #[allow(non_snake_case, clippy::type_complexity)]
                    pub fn #pass<'__fwdad_a, #mode: #rt::Mode, #float_param, __FwdadG: #bound + '__fwdad_a>(#recv g: &'__fwdad_a #m __FwdadG) -> &'__fwdad_a #m (dyn #bound + '__fwdad_a) { g }
                }
            }
            syn::Type::Path(p) if p.path.get_ident().is_none() => quote! {
                #[doc(hidden)]
                #[inline(always)]
                #[allow(non_snake_case, clippy::type_complexity)]
                pub fn #pass<#mode: #rt::Mode, #float_param, __FwdadG: #bound + 'static>(#recv g: #rt::alloc::Box<__FwdadG>) -> #rt::alloc::Box<dyn #bound> { g }
            },
            _ => quote! {
                #[doc(hidden)]
                #[inline(always)]
                #[allow(non_snake_case, clippy::type_complexity)]
                pub fn #pass<#mode: #rt::Mode, #float_param, __FwdadG>(#recv g: __FwdadG) -> __FwdadG { g }
            },
        });
        // A function passed by name: its rule as a function of duals (for a method, a
        // method too, reached through the receiver as the closures' helpers are).
        if let Some(f) = rule_helper(
            i,
            sig,
            rt,
            &mode,
            named("__fwdad_rule_arg", i),
            &recv,
            &float_param,
        ) {
            fns.push(f);
        }
    }
    fns
}

/// Differentiates the body of every closure `ir` passes to a function, with the activity
/// of its captures (`active`), and stores the dual body in [`crate::ir::ClosureArg::body`].
pub(crate) fn prepare(
    ir: &mut Function,
    active: &crate::activity::Activity,
    rt: &TokenStream,
    diag: &mut Diagnostics,
) {
    let mut keys: Vec<crate::ir::Value> = ir.closures.keys().copied().collect();
    keys.sort_by_key(|v| crate::ir::entity::EntityRef::index(*v));
    for key in keys {
        let arg = &ir.closures[&key];
        if arg.named.is_some() {
            continue;
        }
        let c = &arg.closure;
        let mut inputs: Vec<TokenStream> = Vec::new();
        for pat in &c.inputs {
            inputs.push(match pat {
                syn::Pat::Type(pt) => quote!(#pt),
                other => quote!(#other: _),
            });
        }
        let n_params = inputs.len();
        let operands = match def_inst(ir, key).map(|i| &ir.insts[i].kind) {
            Some(crate::ir::InstKind::Call { args, .. }) => args.clone(),
            _ => continue,
        };
        // A method's closure capturing `self` (`|x| self.deflection(x)`) reads it as a
        // parameter of another name (the captures are bound by position).
        let self_name = format_ident!("__fwdad_self");
        let mut body = (*c.body).clone();
        if arg.captures.iter().any(|n| n == "self") {
            // Not in a trait's default method: its rule is derived only when the whole
            // body can be, and its callees (`kurbo`'s `solve_itp`) may have no rules.
            if in_default_method(ir) {
                diag.error_spanned(
                    c,
                    "`#[derive_frule]` does not support a closure capturing `self` passed to a function in a trait's default method",
                );
                continue;
            }
            rename_self(&mut body, &self_name);
        }
        for (k, ((name, hint), &m)) in arg
            .captures
            .iter()
            .zip(&arg.hints)
            .zip(&arg.modes)
            .enumerate()
        {
            let name = if name == "self" { &self_name } else { name };
            // A function value it calls: a parameter of a function type, so that the
            // body calls the dual function (`crate::lower`'s `callable`).
            let ty = match arg.fn_values.get(k) {
                Some(true) => quote!(dyn ::core::ops::Fn()),
                _ => written_type(hint),
            };
            inputs.push(match m {
                crate::ir::Capture::LendMut
                | crate::ir::Capture::LendCell
                | crate::ir::Capture::MoveCell => {
                    quote!(#name: &mut #ty)
                }
                crate::ir::Capture::Borrow | crate::ir::Capture::Move => quote!(#name: &#ty),
                crate::ir::Capture::Copy => quote!(#name: #ty),
                // The reference itself, as the function has it.
                crate::ir::Capture::Reborrow { mutable } => {
                    let inner = written_type(&hint.deref());
                    match mutable {
                        true => quote!(#name: &mut #inner),
                        false => quote!(#name: &#inner),
                    }
                }
            });
        }
        let ret = match &c.output {
            syn::ReturnType::Type(_, t) => quote!(#t),
            syn::ReturnType::Default => quote!(_),
        };
        // Over the caller's float types, as its body is (`T::from_f64(2.0)`).
        let floats = &ir.float_params;
        let item = quote!(fn __fwdad_closure<#(#floats),*>(#(#inputs),*) -> #ret { #body });
        let item: syn::ItemFn = match syn::parse2(item) {
            Ok(f) => f,
            Err(e) => {
                diag.error(
                    e.span(),
                    format!(
                        "internal error in `#[derive_frule]`: a closure's body as a function: {e}"
                    ),
                );
                continue;
            }
        };
        let mut flags = vec![false; n_params];
        // A float the closure owns and assigns (`let mut y = 0.0; move |x| { y += a * (x - y); y }`)
        // may take differentiated values at any call: its copy is a dual from the start
        // (`crate::emit` promotes a constant one).
        flags.extend(
            operands
                .iter()
                .enumerate()
                .map(|(k, v)| !*active.get(*v) && !is_owned_float_state(arg, k)),
        );
        let Some(mut passes) = crate::pipeline::run(&item, &flags, rt, diag, None) else {
            continue;
        };
        prepare(&mut passes.ir, &passes.active, rt, diag);
        let mode = format_ident!("__FwdadMode", span = proc_macro2::Span::mixed_site());
        let tokens = crate::emit::emit_body(
            &passes.ir,
            &passes.active,
            &passes.plans,
            passes.linear.as_ref(),
            passes.simplified.as_ref(),
            rt,
            &mode,
        );
        if let Some(arg) = ir.closures.get_mut(&key) {
            arg.body = Some(tokens);
        }
    }
}

/// Whether capture `k` of `arg` is a float the dual closure owns and assigns
/// ([`crate::ir::Capture::MoveCell`]): a dual whatever the caller's activity.
pub(crate) fn is_owned_float_state(arg: &crate::ir::ClosureArg, k: usize) -> bool {
    arg.modes.get(k) == Some(&crate::ir::Capture::MoveCell)
        && matches!(arg.hints.get(k), Some(TypeHint::Float))
}

/// Whether `ir` is a trait's default method (its receiver is of the implementing type's
/// parameter, [`crate::traits::SELF_PARAM`]).
fn in_default_method(ir: &Function) -> bool {
    fn mentions(ts: TokenStream) -> bool {
        ts.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == crate::traits::SELF_PARAM,
            proc_macro2::TokenTree::Group(g) => mentions(g.stream()),
            _ => false,
        })
    }
    ir.params.first().is_some_and(|p| {
        let ty = &p.ty;
        mentions(quote!(#ty))
    })
}

/// Every `self` read in `body` (not in a nested item) made `name`.
fn rename_self(body: &mut syn::Expr, name: &syn::Ident) {
    struct Rename<'a>(&'a syn::Ident);
    impl VisitMut for Rename<'_> {
        fn visit_expr_path_mut(&mut self, p: &mut syn::ExprPath) {
            if p.qself.is_none() && p.path.is_ident("self") {
                let span = p.path.segments[0].ident.span();
                let mut name = self.0.clone();
                name.set_span(span);
                p.path = name.into();
            }
        }
        fn visit_item_mut(&mut self, _: &mut syn::Item) {}
    }
    Rename(name).visit_expr_mut(body);
}

/// The instruction that defines `v` (a closure argument is always an instruction's
/// result, its call's; `None` otherwise, and the closure is left as it is).
fn def_inst(ir: &Function, v: crate::ir::Value) -> Option<crate::ir::Inst> {
    match ir.values[v].def {
        crate::ir::ValueDef::Inst(i, _) => Some(i),
        _ => None,
    }
}

/// A type for a captured value's parameter, from what the syntax told of it (only its
/// hint matters to the passes; the emitted closure binds the value as it is).
fn written_type(hint: &TypeHint) -> TokenStream {
    match hint {
        TypeHint::Float => quote!(f64),
        TypeHint::Int => quote!(usize),
        TypeHint::Bool => quote!(bool),
        TypeHint::Seq(e) => {
            let e = written_type(e);
            quote!(Vec<#e>)
        }
        TypeHint::Ref(inner) => match &**inner {
            TypeHint::Seq(e) => {
                let e = written_type(e);
                quote!(&[#e])
            }
            other => {
                let t = written_type(other);
                quote!(&#t)
            }
        },
        TypeHint::Tuple(ts) => {
            let ts = ts.iter().map(written_type);
            quote!((#(#ts,)*))
        }
        // Read back as the same hint (whichever map kind it was).
        TypeHint::Map(k, v) => {
            let (k, v) = (written_type(k), written_type(v));
            quote!(HashMap<#k, #v>)
        }
        TypeHint::NonDiff | TypeHint::Range | TypeHint::Unknown => quote!(_),
    }
}

/// The `Fn` bound of `sig`'s returned function value, over duals in `mode`.
fn returned_bound(
    sig: &syn::Signature,
    rt: &TokenStream,
    mode: TokenStream,
) -> Option<TokenStream> {
    let syn::ReturnType::Type(_, ty) = &sig.output else {
        return None;
    };
    let fn_params = fn_type_params(&sig.generics);
    if !is_fn_type(ty, &fn_params) {
        return None;
    }
    let mut ty = (**ty).clone();
    Dualize { rt, mode }.visit_type_mut(&mut ty);
    let mut generics = sig.generics.clone();
    Dualize {
        rt,
        mode: quote!(f64),
    }
    .visit_generics_mut(&mut generics);
    bound_of(&ty, &generics)
}

/// The rule's output for a function returning a function value: `Box<dyn Fn(..)>` over
/// duals in `mode` (a trait's associated type cannot be `impl Fn`).
pub(crate) fn fn_output(
    sig: &syn::Signature,
    rt: &TokenStream,
    mode: TokenStream,
) -> Option<syn::Type> {
    let bound = returned_bound(sig, rt, mode)?;
    // The lifetime the user bounds the function by (`+ 'a`: it borrows an argument).
    let lifetime = match &sig.output {
        syn::ReturnType::Type(_, ty) => object_lifetime(ty),
        syn::ReturnType::Default => None,
    };
    let lifetime = lifetime.map(|l| quote!(+ #l));
    syn::parse2(quote!(#rt::alloc::Box<dyn #bound #lifetime>)).ok()
}

/// The lifetime bound of a returned `impl Fn(..) + 'a` or `Box<dyn Fn(..) + 'a>`.
fn object_lifetime(ty: &syn::Type) -> Option<syn::Lifetime> {
    let bounds = match strip_parens(ty) {
        syn::Type::ImplTrait(it) => &it.bounds,
        syn::Type::TraitObject(o) => &o.bounds,
        syn::Type::Path(p) => {
            let s = p.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(a) = &s.arguments else {
                return None;
            };
            return match a.args.first() {
                Some(syn::GenericArgument::Type(t)) => object_lifetime(t),
                _ => None,
            };
        }
        _ => return None,
    };
    bounds.iter().find_map(|b| match b {
        syn::TypeParamBound::Lifetime(l) => Some(l.clone()),
        _ => None,
    })
}

/// `impl marker { fn __fwdad_fn_ret<S, G: bound>(g: G) -> G }` for a function returning a
/// function value: the returned closure gets its parameter types from the bound.
pub(crate) fn return_helper(
    sig: &syn::Signature,
    marker: &TokenStream,
    rt: &TokenStream,
) -> TokenStream {
    let mode = format_ident!("__FwdadMode");
    // Over the float type the function names, as the helpers of `helper_fns`.
    let float = format_ident!("__FwdadF");
    let Some(bound) = returned_bound(&floats_as(sig, &float), rt, quote!(#mode)) else {
        return TokenStream::new();
    };
    quote! {
        #[automatically_derived]
        #[allow(non_camel_case_types, clippy::all)]
        impl #marker {
            #[doc(hidden)]
            #[inline(always)]
            pub fn __fwdad_fn_ret<#mode: #rt::Mode, #float: #rt::Real, __FwdadG: #bound>(g: __FwdadG) -> __FwdadG { g }
        }
    }
}

/// The inputs and output of the `Fn(..) -> ..` sugar of parameter `i` of `sig`, as written.
fn sugar_of(ty: &syn::Type, generics: &syn::Generics) -> Option<(Vec<syn::Type>, syn::Type)> {
    let unit = || {
        syn::Type::Tuple(syn::TypeTuple {
            paren_token: Default::default(),
            elems: Default::default(),
        })
    };
    let from_bound = |b: &syn::TypeParamBound| -> Option<(Vec<syn::Type>, syn::Type)> {
        let syn::TypeParamBound::Trait(t) = b else {
            return None;
        };
        let seg = t.path.segments.last()?;
        let syn::PathArguments::Parenthesized(p) = &seg.arguments else {
            return None;
        };
        let out = match &p.output {
            syn::ReturnType::Default => unit(),
            syn::ReturnType::Type(_, t) => (**t).clone(),
        };
        Some((p.inputs.iter().cloned().collect(), out))
    };
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            if let Some(id) = p.path.get_ident() {
                let tp = generics.type_params().find(|t| t.ident == *id)?;
                let mut found = tp.bounds.iter().find_map(from_bound);
                if let Some(w) = &generics.where_clause {
                    for pred in &w.predicates {
                        if let syn::WherePredicate::Type(pt) = pred {
                            if matches!(&pt.bounded_ty, syn::Type::Path(q) if q.path.is_ident(id)) {
                                found = found.or_else(|| pt.bounds.iter().find_map(from_bound));
                            }
                        }
                    }
                }
                return found;
            }
            let s = p.path.segments.last()?;
            match &s.arguments {
                syn::PathArguments::AngleBracketed(a) => match a.args.first() {
                    Some(syn::GenericArgument::Type(t)) => sugar_of(t, generics),
                    _ => None,
                },
                _ => None,
            }
        }
        syn::Type::ImplTrait(it) => it.bounds.iter().find_map(from_bound),
        syn::Type::TraitObject(o) => o.bounds.iter().find_map(from_bound),
        syn::Type::Reference(r) => sugar_of(&r.elem, generics),
        syn::Type::Paren(p) => sugar_of(&p.elem, generics),
        syn::Type::BareFn(f) => {
            let out = match &f.output {
                syn::ReturnType::Default => unit(),
                syn::ReturnType::Type(_, t) => (**t).clone(),
            };
            Some((f.inputs.iter().map(|a| a.ty.clone()).collect(), out))
        }
        _ => None,
    }
}

/// Names every elided reference lifetime it visits `'__fwdad_h<k>`.
#[derive(Default)]
struct NameElided(Vec<syn::Lifetime>);

impl VisitMut for NameElided {
    fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
        if r.lifetime.is_none() {
            let l = syn::Lifetime::new(
                &format!("'__fwdad_h{}", self.0.len()),
                proc_macro2::Span::call_site(),
            );
            self.0.push(l.clone());
            r.lifetime = Some(l);
        }
        syn::visit_mut::visit_type_reference_mut(self, r);
    }
}

/// `__fwdad_rule_arg<i>::<S, F, _>(my_fn {})` (named `name`, a method taking `recv` for a
/// method's parameter): the rule of a function passed by name to parameter `i`, as a
/// function of duals (`None` when the sugar's output borrows).
fn rule_helper(
    i: usize,
    sig: &syn::Signature,
    rt: &TokenStream,
    mode: &syn::Ident,
    name: syn::Ident,
    recv: &Option<TokenStream>,
    float_param: &TokenStream,
) -> Option<TokenStream> {
    let syn::FnArg::Typed(t) = sig.inputs.iter().nth(i)? else {
        return None;
    };
    let (mut inputs, output) = sugar_of(&t.ty, &sig.generics)?;
    let mut namer = NameElided::default();
    for t in inputs.iter_mut() {
        namer.visit_type_mut(t);
    }
    let mut out_namer = NameElided::default();
    let mut out_check = output.clone();
    out_namer.visit_type_mut(&mut out_check);
    if !out_namer.0.is_empty() {
        return None;
    }
    let d = Dualize {
        rt,
        mode: quote!(#mode),
    };
    let inputs: Vec<syn::Type> = inputs.iter().map(|t| d.dual(t)).collect();
    let output = d.dual(&output);
    let lts = &namer.0;
    let args: Vec<syn::Ident> = (0..inputs.len())
        .map(|k| format_ident!("__fwdad_a{}", k))
        .collect();
    Some(quote! {
        #[doc(hidden)]
        #[inline(always)]
        #[allow(non_snake_case)]
        pub fn #name<#mode: #rt::Mode, #float_param, __FwdadR>(#recv r: __FwdadR) -> impl for<#(#lts),*> Fn(#(#inputs),*) -> #output
        where
            __FwdadR: for<#(#lts),*> #rt::Frule<(#(#inputs,)*), #mode, Output = #output>,
        {
            move |#(#args),*| #rt::Frule::frule(&r, (#(#args,)*))
        }
    })
}

/// `(T)` → `T`.
fn strip_parens(ty: &syn::Type) -> &syn::Type {
    match ty {
        syn::Type::Paren(p) => strip_parens(&p.elem),
        other => other,
    }
}
