//! `#[derive_frule]`: parses the attribute, runs the passes ([`crate::pipeline`]), emits the
//! rule and registers it.
//!
//! For `fn f(x: f64, y: &[f64]) -> f64` it emits, next to the untouched `f`:
//! * `struct f {}`: the rule's marker (type namespace; found through the same paths and
//!   `use`s as the function), implementing
//!   `Frule<(Dual<f64, <f64 as Differentiable>::TangentIn<S>>, Dual<&[f64], ..>), S>` for
//!   every mode `S`, so one derived rule serves one direction, batches and second order;
//! * `fn f_frule(x: Dual<f64>, y: Dual<&[f64]>) -> Dual<f64>`: the one-direction rule,
//!   with plain types so a call needs no annotations.
//!
//! On any error: the user's function unchanged, every error as `compile_error!`, and the
//! `f_frule` signature with an `unreachable!()` body, so callers see only the real errors.

use crate::args::Args;
use crate::diag::Diagnostics;
use crate::lifetimes::{self, LifetimeNamer};
use crate::register::Registration;
use crate::{dual, emit, ir};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

/// The item with the invisible groups a `macro_rules!` puts around a type or expression
/// fragment (`$kind:ty` in special's `macro_rules! implement { ($kind:ty) => { impl Error
/// for $kind { .. } } }`, then `implement!(f64)`) taken away where they hold a path or a
/// single token (`f64`, `core::f64::consts::PI`), which reads the same without them: the
/// macro reads `impl Error for f64`, `let w: f64`, `x as f64` as written out. Groups around
/// anything else are kept (`$e * 2` of `$e = a + b` needs one).
fn ungroup_paths(ts: TokenStream) -> TokenStream {
    use proc_macro2::{Delimiter, Group, TokenTree};
    let plain = |inner: &TokenStream| {
        let tts: Vec<TokenTree> = inner.clone().into_iter().collect();
        match tts.as_slice() {
            [TokenTree::Literal(_)] => true,
            [] => false,
            _ => tts.iter().all(|t| match t {
                TokenTree::Ident(_) => true,
                TokenTree::Punct(p) => p.as_char() == ':',
                _ => false,
            }),
        }
    };
    ts.into_iter()
        .flat_map(|tt| match tt {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None && plain(&g.stream()) => {
                g.stream().into_iter().collect::<Vec<_>>()
            }
            TokenTree::Group(g) => {
                let mut out = Group::new(g.delimiter(), ungroup_paths(g.stream()));
                out.set_span(g.span());
                vec![TokenTree::Group(out)]
            }
            other => vec![other],
        })
        .collect()
}

/// Expands `#[derive_frule(args)] item`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    if let Some(out) = crate::nesting::reject("#[derive_frule]", &item, true) {
        return out;
    }
    let item = ungroup_paths(item);
    crate::aliases::set_assoc_params(Vec::new());
    // `#[cfg(..)]` inside the item: one expansion per configuration, rustc keeps its own.
    if let Some(out) = crate::cfg_split::split(&item, |it| expand(args.clone(), it)) {
        return out;
    }
    if let Ok(imp) = syn::parse2::<syn::ItemImpl>(item.clone()) {
        return expand_impl(args, imp);
    }
    if let Ok(tr) = syn::parse2::<syn::ItemTrait>(item.clone()) {
        return crate::traits::expand_trait(args, tr);
    }
    let func: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            if let Some(out) = on_closure(&item) {
                return out;
            }
            let err = not_a_function(&item).to_compile_error();
            return quote!(#err #item);
        }
    };
    // A method with a receiver, annotated alone inside a plain `impl` block.
    if func.sig.receiver().is_some() {
        return expand_method(args, func);
    }
    // An associated function without `self` annotated alone (`fn new(k: f64) -> Self`):
    // only its use of `Self` tells it is in an `impl`, where the rule's marker struct and
    // its `impl`s cannot go.
    if let Some(at) = self_path(&func) {
        let err = syn::Error::new(
            at,
            "`#[derive_frule]` on a single associated function without `self` is not supported; put the attribute on the `impl` block (`#[derive_frule] impl Ty { .. }`)",
        )
        .to_compile_error();
        return quote!(#func #err);
    }
    // `m: &impl Material` is a type parameter `M: Material` in the rule (the primal keeps
    // the user's signature).
    let primal = func.clone();
    let mut diag = Diagnostics::new();
    let raw_args = args.clone();
    let args = diag.handle(syn::parse2::<Args>(args)).unwrap_or_default();
    // `fn solve(ode: &Ode<'_>, ..)`, a struct holding a function taken: the rule is the
    // function taking its fields (`fn_fields`).
    let erred = diag.has_errors();
    if let Some(by_fields) = crate::fn_fields::holder_fn(&func, &mut diag) {
        let rest = expand(raw_args, quote!(#by_fields));
        let err = diag.finish().err().map(|e| e.to_compile_error());
        return quote!(#primal #err #rest);
    }
    if !erred && diag.has_errors() {
        let err = diag.finish().err().map(|e| e.to_compile_error());
        return quote!(#primal #err);
    }
    // `let p = Problem { f: |t| .., a };`: one local per field (`fn_fields`).
    let mut func = func;
    crate::fn_fields::struct_locals(&mut func.block, &mut diag);
    crate::fn_fields::check_holders(&func, &mut diag);
    // `alias(..)` and the file's own `type` aliases written out.
    let mut aliases = args.aliases.clone();
    aliases.extend(crate::aliases::source_aliases(&args.aliases));
    let func = crate::aliases::substitute(&func, &aliases);
    let func = crate::aliases::real_field_as_scalar(&func);
    let func = crate::aliases::assoc_floats_as_params(&func, &args.runtime_path());
    let func = crate::traits::desugar_impl_trait(&func).unwrap_or(func);
    let mut func = static_unconstrained_lifetimes(func);
    // A `const fn`'s rule is an ordinary function (the primal stays `const`).
    func.sig.constness = None;
    // The marker struct takes the function's name: `f64`/`f32` would shadow the types.
    let fname = func.sig.ident.to_string();
    if [
        "f64", "f32", "bool", "char", "str", "usize", "isize", "u8", "u16", "u32", "u64", "u128",
        "i8", "i16", "i32", "i64", "i128",
    ]
    .contains(&fname.as_str())
    {
        diag.error_spanned(
            &func.sig.ident,
            format!("`#[derive_frule]` cannot register a rule for a function named `{fname}`: its rule type would shadow the primitive type `{fname}`; rename the function"),
        );
    }
    // One rule per function: another rule attribute below this one would register a second.
    for attr in &func.attrs {
        let last = attr
            .path()
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if ["derive_frule", "primitive", "non_differentiable"].contains(&last.as_str()) {
            // Only the error and the item: the other attribute's expansion registers its
            // rule, a second one here would only add rustc's ``the name `f_frule` is
            // defined multiple times`` before this error.
            let err = syn::Error::new_spanned(
                attr,
                format!("`{name}` would get two forward rules: `#[derive_frule]` and `#[{last}]` cannot both annotate one function; keep one", name = func.sig.ident),
            )
            .to_compile_error();
            return quote!(#err #primal);
        }
    }
    let rt = args.runtime_path();
    check_lib_scalar_unwritten(&func, &mut diag);
    let mut sig = check_signature(&func.sig, &mut diag, false);
    let mut inactive = resolve_inactive(&func.sig, &args.inactive, &mut diag);
    if check_lib_views(&func.sig, &inactive, &mut diag) {
        // No stub: its types would only add rustc's errors to the one reported.
        sig = None;
    }
    // A parameter generic over an iterator (`coefficients: I`) is constant data.
    let iters = iter_param_positions(&func.sig, &iter_type_params(&func.sig));
    if iters.contains(&true) {
        inactive.resize(iters.len(), false);
        for (flag, &it) in inactive.iter_mut().zip(&iters) {
            *flag |= it;
        }
    }
    // Borrowed data of a struct the file declares without `#[derive(Differentiable)]`
    // (`doses: &[Dose]`, `cfg: &Config`) is constant data, as if declared `inactive(..)`.
    let plain = plain_data_params(&func.sig);
    if plain.contains(&true) {
        inactive.resize(plain.len(), false);
        for (flag, &p) in inactive.iter_mut().zip(&plain) {
            *flag |= p;
        }
    }
    // A function value is taken as the function of duals it is in the rule: its type is
    // not wrapped in `Dual` (as for an `inactive` parameter), and the body sees it as an
    // active value (called with duals, passed on as it is).
    if let Some(sig) = &mut sig {
        sig.inactive = inactive.clone();
        take_fn_values(&func.sig, sig, &rt);
    }
    if let Some(sig) = &mut sig {
        sig.consts = const_params(&func.sig, sig);
        sig.const_refs = const_refs(&func.sig, sig, &sig.consts);
    }
    let expanded = pipeline(
        &with_iter_params_as_vecs(&func),
        &args,
        &inactive,
        &rt,
        &mut diag,
    );
    match (diag.finish(), sig, expanded) {
        (Ok(()), Some(sig), Some(body)) => {
            let out = emit_items(&func, &sig, &body, &rt, true, None);
            if args.dump || dump_requested(&func.sig.ident) {
                eprintln!("==== emitted ====\n{}", pretty(&out));
            }
            quote!(#primal #out)
        }
        (result, sig, _) => {
            let errors = result
                .err()
                .map(|e| e.to_compile_error())
                .unwrap_or_default();
            let stub = sig.map(|s| emit_stub(&func, &s, &rt)).unwrap_or_default();
            quote!(#primal #errors #stub)
        }
    }
}

/// A lifetime parameter that no parameter names (`fn f<'a>(t: f64) -> Result<f64, &'a
/// str>`, astro's error strings) would be unconstrained in the rule's `Frule` impl (E0207).
/// The function gives its caller a `&'a` for every `'a` from no borrowed input, so it is
/// `'static` data: the rule's is `'static` (the primal keeps the user's signature).
fn static_unconstrained_lifetimes(mut func: syn::ItemFn) -> syn::ItemFn {
    struct Named(Vec<syn::Ident>);
    impl<'ast> syn::visit::Visit<'ast> for Named {
        fn visit_lifetime(&mut self, l: &'ast syn::Lifetime) {
            self.0.push(l.ident.clone());
        }
    }
    let mut named = Named(Vec::new());
    for arg in &func.sig.inputs {
        syn::visit::Visit::visit_fn_arg(&mut named, arg);
    }
    let free: Vec<syn::Ident> = func
        .sig
        .generics
        .lifetimes()
        .map(|l| l.lifetime.ident.clone())
        .filter(|l| !named.0.contains(l))
        .collect();
    if free.is_empty() {
        return func;
    }
    struct Static<'a>(&'a [syn::Ident]);
    impl VisitMut for Static<'_> {
        fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
            if self.0.contains(&l.ident) {
                l.ident = syn::Ident::new("static", l.ident.span());
            }
        }
        // Items nested in the body have lifetimes of their own.
        fn visit_item_mut(&mut self, _: &mut syn::Item) {}
    }
    let generics = &mut func.sig.generics;
    generics.params = std::mem::take(&mut generics.params)
        .into_pairs()
        .filter(|p| !matches!(p.value(), syn::GenericParam::Lifetime(l) if free.contains(&l.lifetime.ident)))
        .collect();
    if let Some(w) = &mut generics.where_clause {
        w.predicates = std::mem::take(&mut w.predicates)
            .into_pairs()
            .filter(|p| !matches!(p.value(), syn::WherePredicate::Lifetime(l) if free.contains(&l.lifetime.ident)))
            .collect();
    }
    let mut st = Static(&free);
    st.visit_signature_mut(&mut func.sig);
    st.visit_block_mut(&mut func.block);
    func
}

/// Where `func`'s signature or body names `Self` (outside items nested in the body), if
/// it does.
fn self_path(func: &syn::ItemFn) -> Option<Span> {
    struct Find(Option<Span>);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if self.0.is_none() && p.segments.first().is_some_and(|s| s.ident == "Self") {
                self.0 = Some(p.span());
            }
            syn::visit::visit_path(self, p);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut find = Find(None);
    syn::visit::Visit::visit_signature(&mut find, &func.sig);
    syn::visit::Visit::visit_block(&mut find, &func.block);
    find.0
}

/// A function value is taken as the function of duals it is in the rule: its type is
/// not wrapped in `Dual` (as for an `inactive` parameter), and the body sees it as an
/// active value (called with duals, passed on as it is). Rewrites `sig` for the function
/// values among `fsig`'s parameters and for a returned one.
pub(crate) fn take_fn_values(fsig: &syn::Signature, sig: &mut Sig, rt: &TokenStream) {
    let mode = mode_ident();
    let fn_values = crate::higher_order::fn_value_params(fsig);
    if fn_values.contains(&true) {
        sig.inactive.resize(fn_values.len(), false);
        for (flag, &f) in sig.inactive.iter_mut().zip(&fn_values) {
            *flag |= f;
        }
    }
    // In the `Frule` impl, the output with its elided lifetimes named as the impl names
    // its inputs' (`+ '_` → `+ 'a`); the wrapper `name_frule` elides them as the user did.
    let mut named = fsig.clone();
    if let syn::ReturnType::Type(_, t) = &mut named.output {
        **t = sig.named_output.clone();
    }
    sig.fn_output = crate::higher_order::fn_output(&named, rt, quote!(#mode))
        .zip(crate::higher_order::fn_output(fsig, rt, quote!(f64)));
    if fn_values.contains(&true) {
        let (_, impl_tys) =
            crate::higher_order::rule_types(fsig, &fn_values, rt, quote!(#mode), true);
        let (_, wrapper_tys) =
            crate::higher_order::rule_types(fsig, &fn_values, rt, quote!(f64), false);
        for (i, (a, b)) in impl_tys.into_iter().zip(wrapper_tys).enumerate() {
            if let (Some(a), Some(b)) = (a, b) {
                sig.named_inputs[i] = a;
                sig.inputs[i] = b;
            }
        }
        sig.fn_values = fn_values;
    }
}

/// Whether a blanket `impl<T: ..> Tr for T` of a trait of the user's bounds `T` by traits
/// of the user's only (`impl<T: Shape> Area for T`): its methods' rules are generic over
/// `T` as a default method's are over `Self`, and found through `Tr`'s dispatch.
fn blanket_over_user_traits(imp: &syn::ItemImpl, t: &syn::Ident) -> bool {
    let user_trait = imp
        .trait_
        .as_ref()
        .is_some_and(|(_, p, _)| crate::traits::is_user_trait(p));
    let bounds: Vec<&syn::TypeParamBound> = imp
        .generics
        .type_params()
        .filter(|p| p.ident == *t)
        .flat_map(|p| p.bounds.iter())
        .collect();
    user_trait
        && imp.generics.params.len() == 1
        && imp.generics.where_clause.is_none()
        && !bounds.is_empty()
        && bounds.iter().all(|b| match b {
            syn::TypeParamBound::Trait(tb) => {
                matches!(tb.modifier, syn::TraitBoundModifier::None)
                    && tb
                        .path
                        .segments
                        .last()
                        .is_some_and(|s| s.arguments.is_none())
                    && crate::traits::is_user_trait(&tb.path)
            }
            _ => false,
        })
}

/// The error for a blanket `impl<T: ..> Trait for T`, saying what to write instead by what
/// `T` stands for: the float types (`T: Float`), or types of the user's (`T: Into<Lab>`,
/// `T: Shape`), each of which takes an `impl` of its own.
fn blanket_impl_message(imp: &syn::ItemImpl, t: &syn::Ident) -> String {
    let bounds: Vec<&syn::TraitBound> = imp
        .generics
        .type_params()
        .filter(|p| p.ident == *t)
        .flat_map(|p| p.bounds.iter())
        .chain(
            imp.generics
                .where_clause
                .iter()
                .flat_map(|w| w.predicates.iter())
                .filter_map(|p| match p {
                    syn::WherePredicate::Type(pt)
                        if matches!(&pt.bounded_ty, syn::Type::Path(tp) if tp.path.is_ident(t)) =>
                    {
                        Some(pt.bounds.iter())
                    }
                    _ => None,
                })
                .flatten(),
        )
        .filter_map(|b| match b {
            syn::TypeParamBound::Trait(tb) => Some(tb),
            _ => None,
        })
        .collect();
    let last = |b: &syn::TraitBound| b.path.segments.last().map(|s| s.ident.to_string());
    let floaty = bounds.iter().any(|b| {
        matches!(
            last(b).as_deref(),
            Some("Float" | "Real" | "FloatCore" | "Num" | "NumCast")
        )
    });
    let head = format!("`#[derive_frule]` does not support a blanket `impl` for every type `{t}`");
    if bounds.is_empty() || floaty {
        return format!("{head}: implement the trait for `f64` (and `f32`) with `#[derive_frule]` on each `impl`, or write its methods as generic free functions (`fn softplus<T: Float>(x: T) -> T`)");
    }
    let trait_name = imp
        .trait_
        .as_ref()
        .and_then(|(_, p, _)| p.segments.last())
        .map(|s| s.ident.to_string())
        .unwrap_or_else(|| "the trait".to_string());
    // `T: Into<Lab>`: `Lab` is a type the trait is implemented for.
    let into_target = bounds.iter().find_map(|b| {
        let seg = b.path.segments.last()?;
        if seg.ident != "Into" {
            return None;
        }
        match &seg.arguments {
            syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                syn::GenericArgument::Type(ty) => Some(quote!(#ty).to_string().replace(' ', "")),
                _ => None,
            }),
            _ => None,
        }
    });
    // An empty `impl` takes the trait's default methods, whose names it does not show.
    let method = imp
        .items
        .iter()
        .find_map(|i| match i {
            syn::ImplItem::Fn(f) => Some(f.sig.ident.to_string()),
            _ => None,
        })
        .unwrap_or_else(|| trait_name.to_lowercase());
    let instead = match &into_target {
        // A conversion bound: the target type is the one to implement for and to take.
        Some(target) => format!("implement `{trait_name}` for each type you differentiate through, with `#[derive_frule]` on each `impl` (`#[derive_frule] impl {trait_name} for {target} {{ .. }}`), or write its methods as free functions taking `{target}` (`fn {method}(x: {target}, ..)`, called with `c.into()`)"),
        // Bounds of the user's traits: a generic function over them has rules.
        None => {
            let bound_text = bounds
                .iter()
                .map(|b| quote!(#b).to_string().replace(" < ", "<").replace(" >", ">").replace(" :: ", "::"))
                .collect::<Vec<_>>()
                .join(" + ");
            format!("implement `{trait_name}` for each type you differentiate through, with `#[derive_frule]` on each `impl` (`#[derive_frule] impl {trait_name} for <each type> {{ .. }}`), or write its methods as generic free functions (`fn {method}<{t}: {bound_text}>(x: &{t}, ..)`, with `#[derive_frule]` on the traits bounding `{t}`)")
        }
    };
    format!("{head}: {instead}")
}

/// `#[derive_frule] impl Ty { fn m(&self, ..) {..} .. }`: for each method, a rule marker
/// `__fwdad_Ty_m` (the method lowered with `self` as its first parameter and `Self` as
/// `Ty`), and on `Ty` the hidden dispatch methods through which calls find it
/// (`recv.m(..)` → `recv.primal.m_forward_rule()`, `Ty::m(..)` → `Ty::add_derive_frule_to_the_impl_of_m()`)
/// and the one-direction `Ty::m_frule`.
fn expand_impl(args: TokenStream, imp: syn::ItemImpl) -> TokenStream {
    // `impl Sum for Vec3`: kept as written, its rule on a stand-in (`reductions`).
    match crate::reductions::standin_impl(&imp) {
        Some(Ok(standin)) => {
            let rules = expand_impl(args, standin);
            return quote!(#imp #rules);
        }
        Some(Err(e)) => {
            let e = e.to_compile_error();
            return quote!(#e #imp);
        }
        None => {}
    }
    let mut diag = Diagnostics::new();
    let raw_args = args.clone();
    let args = diag.handle(syn::parse2::<Args>(args)).unwrap_or_default();
    // `fn solve(&self, ode: &Ode<'_>, ..)`, a struct holding a function taken: the method
    // `solve__fields` taking its fields stands for it in rules (`fn_fields`).
    let mut imp = imp;
    let by_fields = crate::fn_fields::holder_methods(&mut imp, &mut diag);
    let rt = args.runtime_path();
    if let Some(name) = args.inactive.first() {
        diag.error_spanned(
            name,
            "`inactive(..)` is supported on free functions only, not on `impl` blocks: move the computation into a function with `#[derive_frule(inactive(..))]` and call it from the method",
        );
    }
    if let Some((name, _)) = args.aliases.first() {
        diag.error_spanned(
            name,
            "`alias(..)` is supported on free functions only, not on `impl` blocks: write the library's name in the method (`x: &SVector<f64, 3>`)",
        );
    }
    // An operator's impl may take borrowed operands (`impl<'a> Add<&'a V> for &'a V`).
    let operator_impl = crate::user_ops::operator_of(&imp).is_some();
    let self_ty = (*imp.self_ty).clone();
    const EXTENSION_ON_SEQUENCE: &str = "`#[derive_frule]` does not support a trait of yours implemented for a slice, an array or a `Vec` of a type parameter (`impl<T: Tween, const N: usize> Tween for [T; N]`): implement it for the element type you use (`impl Tween for [f64; N]`, `impl VecOps for [f64]`), or write its methods as functions with `#[derive_frule]`";
    // `impl VecOps for [f64]` (or `[f64; 3]`, `Vec<f64>`): an extension trait on a
    // sequence, its rules found through the trait (`sequence_rules`).
    let sequence = match (&imp.trait_, operator_impl) {
        // Not over a type parameter (keyframe's `impl<T: CanTween, const N: usize>
        // CanTween for [T; N]`): its rules would need the elements' tangents.
        (Some((_, p, _)), false)
            if crate::traits::is_user_trait(p) && imp.generics.type_params().next().is_none() =>
        {
            sequence_self(&self_ty, p)
        }
        _ => None,
    };
    // A second `impl` of the trait for a sequence type: its error first, before any of
    // its methods' (`sequence_rules` then leaves out its rules' markers).
    if let (Some((_, is_slice)), Some((_, p, _))) = (&sequence, &imp.trait_) {
        if let Some(tr) = p.segments.last() {
            if let Some(message) = second_sequence_impl(&imp, &tr.ident, *is_slice) {
                diag.error_spanned(&imp.self_ty, message);
            }
        }
    }
    let ty_ident = match &self_ty {
        _ if sequence.is_some() => sequence.as_ref().map(|(id, _)| id.clone()),
        // `impl VecOps for Vec<f64>`: an extension trait on a `std` sequence.
        syn::Type::Path(p)
            if p.qself.is_none()
                && imp.trait_.is_some()
                && !operator_impl
                && matches!(
                    crate::callee::StdType::of_path(&p.path),
                    Some(crate::callee::StdType::Vec)
                ) =>
        {
            diag.error_spanned(&self_ty, EXTENSION_ON_SEQUENCE);
            None
        }
        syn::Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.clone()),
        // `impl<'a> Sub<&'a P2> for &'a P2`: an operator on borrowed operands.
        syn::Type::Reference(r) if operator_impl => match &*r.elem {
            syn::Type::Path(p) if p.qself.is_none() => p
                .path
                .segments
                .last()
                .map(|s| format_ident!("ref_{}", s.ident)),
            _ => None,
        },
        other => {
            let msg = match (&imp.trait_, other) {
                // `impl VecOps for [f64]`: an extension trait on slices or arrays.
                (Some(_), syn::Type::Slice(_) | syn::Type::Array(_) | syn::Type::Reference(_)) => {
                    EXTENSION_ON_SEQUENCE
                }
                _ => "`#[derive_frule]` supports `impl` blocks of a named type (`impl Spring`)",
            };
            diag.error_spanned(other, msg);
            None
        }
    };
    // `impl Activation for f64`: the rules' dispatch items live on the type, which a
    // primitive cannot take (operators, `impl Mul<Vec3> for f64`, go by operand types).
    // A trait of the user's implemented for `f64` (an extension trait, `x.sigmoid()`) gets
    // its rules through the trait's dispatch methods, as for any type.
    // A trait without generic arguments implemented for `f64` in the user's crate is
    // theirs whatever its name (the orphan rule forbids `std`'s): special's `trait Error`.
    let user_trait_for_float = ty_ident.as_ref().is_some_and(|t| t == "f64" || t == "f32")
        && imp.trait_.as_ref().is_some_and(|(_, p, _)| {
            crate::traits::is_user_trait(p)
                || p.segments.last().is_some_and(|s| s.arguments.is_empty())
        });
    // `impl<T: Float> Smooth for T`: no type of the user's to hang the rules on, and the
    // runtime's impls for `T` would break the orphan rules.
    let blanket = ty_ident
        .as_ref()
        .filter(|t| imp.generics.type_params().any(|p| p.ident == **t))
        .cloned();
    if let Some(t) = blanket
        .as_ref()
        .filter(|t| !blanket_over_user_traits(&imp, t))
    {
        // After any error in the attribute's arguments (`diag` must be finished).
        diag.error_spanned(&imp.self_ty, blanket_impl_message(&imp, t));
        let err = diag.finish().err().map(|e| e.to_compile_error());
        return quote!(#err #imp);
    }
    // `impl<T: Shape> Area for T`: its rules are derived as a default method's are, generic
    // over the implementing type `__FwdadSelf` (whose `impl` of `Shape` the trait's rules
    // check when they run, as no `DerivedImpl` can be written for every `T`), and named
    // after the trait (`__fwdad_Area_blanket_area`).
    let original = imp.clone();
    let (imp, self_ty, ty_ident) = match &blanket {
        Some(t) => {
            struct Rename<'a>(&'a syn::Ident);
            impl syn::visit_mut::VisitMut for Rename<'_> {
                fn visit_ident_mut(&mut self, i: &mut syn::Ident) {
                    if i == self.0 {
                        *i = syn::Ident::new(crate::traits::SELF_PARAM, i.span());
                    }
                }
            }
            let mut renamed = imp.clone();
            syn::visit_mut::VisitMut::visit_item_impl_mut(&mut Rename(t), &mut renamed);
            let tr = renamed
                .trait_
                .as_ref()
                .and_then(|(_, p, _)| p.segments.last())
                .map(|s| s.ident.clone());
            let named = tr.map(|tr| format_ident!("{}_blanket", tr));
            let self_ty = (*renamed.self_ty).clone();
            (renamed, self_ty, named)
        }
        None => (imp, self_ty, ty_ident),
    };
    if let Some(prim) = ty_ident.as_ref().filter(|t| {
        !operator_impl
            && !user_trait_for_float
            && [
                "f64", "f32", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32",
                "u64", "u128", "usize", "bool",
            ]
            .iter()
            .any(|p| *t == p)
    }) {
        let trait_name = imp
            .trait_
            .as_ref()
            .and_then(|(_, p, _)| p.segments.last())
            .map(|s| s.ident.to_string())
            .unwrap_or_else(|| "its trait".to_string());
        diag.error_spanned(
            &imp.self_ty,
            format!("`#[derive_frule]` does not support an `impl` for `{prim}` (`{trait_name}`'s methods called on floats, `x.method()`): write each method as a free function with `#[derive_frule]` (`fn sigmoid(x: {prim}) -> {prim}`) and call it as `sigmoid(x)`"),
        );
        let err = diag.finish().err().map(|e| e.to_compile_error());
        return quote!(#err #imp);
    }
    let mut items = TokenStream::new();
    let mut on_type = TokenStream::new();
    let mut imp_out = original.clone();
    // `impl Add for Vec3`, `impl Mul<Vec3> for f64`: the operator's rule, found by the
    // operand types (`user_ops.rs`), not by a method on the type.
    let operator = crate::user_ops::operator_of(&imp);
    // `impl From<Src> for Ty`: likewise found by the source type.
    let conversion = crate::user_ops::conversion_of(&imp);
    // A struct holding a function: its `&self` methods' rules are free functions taking
    // its fields (`fn_fields`).
    if let Some(t) = &ty_ident {
        crate::fn_fields::check_fn_lists(&imp, t, &mut diag);
    }
    let field_fns = match (&ty_ident, &operator, &conversion, &blanket) {
        (Some(t), None, None, None) => crate::fn_fields::free_fns(&imp, t, &mut diag),
        _ => None,
    };
    let mut replaced = match field_fns {
        Some((fns, replaced)) => {
            for f in fns {
                items.extend(expand(raw_args.clone(), quote!(#f)));
            }
            replaced
        }
        None => Default::default(),
    };
    replaced.extend(by_fields);
    if let Some(ty_ident) = &ty_ident {
        for item in &imp.items {
            let syn::ImplItem::Fn(m) = item else { continue };
            if replaced.contains(&m.sig.ident.to_string()) {
                continue;
            }
            // A trait impl's methods are as visible as the trait: their rules (on an
            // inherent impl of the type, found by method calls as the inherent ones are)
            // are public.
            let mut m = m.clone();
            crate::fn_fields::struct_locals(&mut m.block, &mut diag);
            if imp.trait_.is_some() {
                m.vis = syn::parse_quote!(pub);
            }
            crate::user_ops::replace_assoc_types(&imp, &mut m);
            if operator.is_some() {
                crate::user_ops::self_operator_calls(&mut m);
            }
            let m = &m;
            let mut func = method_as_fn(m, &self_ty, ty_ident, &imp.generics);
            crate::fn_fields::check_holders(&func, &mut diag);
            if let Some(op) = &operator {
                func.sig.ident = op.marker_name(ty_ident, &m.sig.ident);
                // An operator's rule is always inlined unless the user says otherwise: in a
                // batch its lanes make the body several times the primal's size, and LLVM
                // then called `Quat * Quat` out of line, its dual operands and result
                // copied through the stack (a chain of 8 joints in `Batch<f64, 8>`: 3.6 ×
                // the expert JVP).
                if user_inline(&func).is_none() {
                    func.attrs.push(syn::parse_quote!(#[inline(always)]));
                }
                let sig = check_signature(&func.sig, &mut diag, true);
                let body = pipeline(&func, &args, &[], &rt, &mut diag);
                if let (Some(sig), Some(body)) = (sig, body) {
                    items.extend(emit_items(&func, &sig, &body, &rt, false, None));
                    items.extend(op.rule_impl(&imp, &func.sig.ident, &rt));
                }
                continue;
            }
            if let Some(conv) = &conversion {
                func.sig.ident = conv.marker_name(ty_ident, &m.sig.ident);
                let sig = check_signature(&func.sig, &mut diag, true);
                let body = pipeline(&func, &args, &[], &rt, &mut diag);
                if let (Some(sig), Some(body)) = (sig, body) {
                    items.extend(emit_items(&func, &sig, &body, &rt, false, None));
                    items.extend(conv.rule_impl(&imp, &func.sig.ident, &rt));
                }
                continue;
            }
            if plain_self_result(&imp, &func) {
                continue;
            }
            let inactive = plain_impl_inactive(&imp, &func, &mut diag);
            let mut sig = check_signature(&func.sig, &mut diag, true);
            if let Some(sig) = &mut sig {
                sig.inactive = inactive.clone();
                take_fn_values(&func.sig, sig, &rt);
            }
            let body = pipeline(&func, &args, &inactive, &rt, &mut diag);
            if let (Some(sig), Some(body)) = (sig, body) {
                // In a generic `impl`, `Ty::m(..)` infers the type's parameters from
                // the arguments through the rule (`AssocOf`).
                let generic = imp
                    .generics
                    .params
                    .iter()
                    .any(|p| !matches!(p, syn::GenericParam::Lifetime(_)));
                let self_of = generic.then_some(&self_ty);
                items.extend(emit_items(&func, &sig, &body, &rt, false, self_of));
                // A blanket `impl<T: Shape> Area for T` has no type to hang inherent
                // items on: its calls go through the trait's dispatch.
                if blanket.is_none() {
                    on_type.extend(emit_method_entry(m, &func, &sig, &rt, &imp.generics));
                }
                if takes_self_by_value(m) && imp.generics.params.is_empty() {
                    // `SelfByValue` converts the receiver to the owned `Self` dual (an
                    // `impl` with parameters, `impl<'a> Polygon<'a>`, names `Self` on the
                    // type instead: `#self_ty` would name `'a` out of its scope).
                    let marker = &func.sig.ident;
                    items.extend(quote! {
                        impl #rt::MethodOf for #marker { type SelfTy = #self_ty; }
                    });
                }
            }
        }
    }
    // A trait of the user's: its rules for the methods this impl defines (`traits.rs`).
    // A generic trait's `impl` at given arguments (statrs' `impl ContinuousCDF<f64, f64> for
    // Normal`): the trait cannot carry rules (`#[derive_frule]` rejects generic traits), so
    // the methods get the type's entries only, and calls on the type reach them.
    // A generic trait the file declares with `#[derive_frule]` carries rules as the others
    // do (`traits::expand_trait`).
    let generic_trait = imp.trait_.as_ref().is_some_and(|(_, p, _)| {
        crate::traits::has_type_arguments(p) && !crate::plain_fns::derived_generic_trait(p)
    });
    // First in the output: rustc reports the names defined twice in their order.
    let once = match generic_trait {
        true => generic_trait_once_marker(&imp, ty_ident.as_ref()),
        false => TokenStream::new(),
    };
    let user_trait = !generic_trait
        && (user_trait_for_float
            || imp
                .trait_
                .as_ref()
                .is_some_and(|(_, p, _)| crate::traits::is_user_trait(p)));
    if let (true, None, Some(ty_ident)) = (user_trait, &operator, &ty_ident) {
        let (extra, outside) = crate::traits::impl_items(&imp, ty_ident, &rt);
        // `f64` can take no marker impl of the runtime's (E0117): an extension trait's
        // methods are called on floats, never through a bounded type parameter; nor can
        // every `T` of a blanket `impl`.
        let (extra, outside) = match &sequence {
            Some((_, is_slice)) => sequence_rules(&imp, ty_ident, *is_slice, &rt, extra),
            None => (extra, outside),
        };
        let outside = match user_trait_for_float || blanket.is_some() {
            true => TokenStream::new(),
            false => outside,
        };
        // First, an item that a trait has only with `#[derive_frule]` on it, named at the
        // trait's path: without it, the first error (rustc's E0407, in the order of the
        // items) names the trait and what to add, not one of the items after it.
        if let Some((_, path, _)) = &imp.trait_ {
            let at = path.span();
            // `[f64]` cannot meet the trait's `Self: Sized` (E0277): the impl's item omits it.
            let sized = match &sequence {
                Some((_, true)) => None,
                _ => Some(quote!(where Self: ::core::marker::Sized)),
            };
            let unused = match &sequence {
                Some((_, true)) => Some(quote!(#[allow(dead_code)])),
                _ => None,
            };
            let first: Option<syn::ImplItem> = syn::parse2(quote_spanned! {at=>
                #[doc(hidden)]
                #unused
                fn add_derive_frule_to_trait_definition() #sized {}
            })
            .ok();
            imp_out.items.splice(0..0, first);
        }
        imp_out.items.extend(extra);
        items.extend(outside);
        if blanket.is_none() && !user_trait_for_float {
            check_float_generic_trait_impl(&imp, &mut diag);
        }
    }
    let (impl_generics, _, where_clause) = imp.generics.split_for_impl();
    // A method named like a `std` one, on an inherent `impl`: registered, so that a call
    // the macro reads as the `std` method (its receiver's type not shown) is an error
    // naming the type (a trait's method could be defined twice for a type, and is not).
    if imp.trait_.is_none() && operator.is_none() {
        for item in &imp.items {
            let syn::ImplItem::Fn(m) = item else { continue };
            let name = m.sig.ident.to_string();
            if !crate::callee::is_std_named_user_method(&name) {
                continue;
            }
            let h = crate::callee::std_name_hash(&name);
            let (g, lt) = with_lifetime(&imp.generics);
            let (g, _, w) = g.split_for_impl();
            items.extend(quote! {
                impl #impl_generics #rt::user_ops::ShadowsStd<#h> for #self_ty #where_clause {
                    type Type = #self_ty;
                }
                impl #g #rt::user_ops::ShadowsStd<#h> for &#lt #self_ty #w {
                    type Type = #self_ty;
                }
                impl #g #rt::user_ops::ShadowsStd<#h> for &#lt mut #self_ty #w {
                    type Type = #self_ty;
                }
            });
        }
    }
    // An operator's impl adds nothing to the type (`f64` could not have it: E0390), nor
    // does a blanket one (it has no type).
    let on_type = match (on_type.is_empty() && (operator.is_some() || conversion.is_some()))
        || user_trait_for_float
        || sequence.is_some()
        || blanket.is_some()
    {
        true => TokenStream::new(),
        false => quote!(impl #impl_generics #self_ty #where_clause { #on_type }),
    };
    match diag.finish() {
        Ok(()) => quote! {
            #once
            #imp_out
            #items
            #on_type
        },
        Err(e) => {
            let e = e.to_compile_error();
            quote!(#original #e)
        }
    }
}

/// The implementing type of an extension trait on a sequence, `[T]`, `[T; N]` or `Vec<T>`:
/// the name its rules are lowered under (`VecOps_for_slice_f64`, with the trait's name,
/// as two traits may have methods of one name) and whether it is is_slice (a slice).
fn sequence_self(ty: &syn::Type, tr: &syn::Path) -> Option<(syn::Ident, bool)> {
    let tr = &tr.segments.last()?.ident;
    let (kind, is_slice) = match ty {
        syn::Type::Slice(_) => ("slice", true),
        syn::Type::Array(_) => ("array", false),
        syn::Type::Path(p)
            if p.qself.is_none()
                && matches!(
                    crate::callee::StdType::of_path(&p.path),
                    Some(crate::callee::StdType::Vec)
                ) =>
        {
            ("Vec", false)
        }
        _ => return None,
    };
    let spelled: String = quote!(#ty)
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let spelled: Vec<&str> = spelled.split('_').filter(|s| !s.is_empty()).collect();
    let name = format!("{}_for_{}_{}", tr, kind, spelled.join("_"));
    Some((format_ident!("{}", name), is_slice))
}

/// The trait's items of an `impl` for a sequence type (`sequence_self`), and the rule of
/// each method as its `m_of_Tr_on_a_slice_array_or_vec` gives it (`SequenceRule`: what
/// `v.dot(w)` on a slice, an array or a `Vec` finds, `traits::unsized_dispatch`). A sized
/// type (`[f64; 3]`, `Vec<f64>`) keeps the rules a type parameter bounded by the trait
/// reaches (`extra`, from `traits::impl_items`); none of the runtime's marker impls (the
/// orphan rules forbid them for `std` types), as for `impl Activation for f64`. A slice
/// keeps none of the trait's items, all of which need `Self: Sized`.
fn sequence_rules(
    imp: &syn::ItemImpl,
    ty_ident: &syn::Ident,
    is_slice: bool,
    rt: &TokenStream,
    extra: Vec<syn::ImplItem>,
) -> (Vec<syn::ImplItem>, TokenStream) {
    let extra = if is_slice { Vec::new() } else { extra };
    let Some((_, path, _)) = &imp.trait_ else {
        return (extra, TokenStream::new());
    };
    let Some(tr) = path.segments.last().map(|s| s.ident.clone()) else {
        return (extra, TokenStream::new());
    };
    // Reported at the `impl`'s type (`expand_impl`).
    if second_sequence_impl(imp, &tr, is_slice).is_some() {
        return (extra, TokenStream::new());
    }
    let mut out = TokenStream::new();
    for item in &imp.items {
        let syn::ImplItem::Fn(m) = item else { continue };
        if !crate::traits::has_unsized_dispatch(&m.sig) {
            continue;
        }
        let beside = |ident: syn::Ident| {
            let mut p = path.clone();
            if let Some(last) = p.segments.last_mut() {
                last.ident = ident;
                last.arguments = syn::PathArguments::None;
            }
            p
        };
        let marker = beside(crate::traits::unsized_marker(&tr, &m.sig.ident));
        let rule = format_ident!("__fwdad_{}_{}", ty_ident, m.sig.ident);
        out.extend(quote! {
            #[automatically_derived]
            impl<__FwdadA, __FwdadS: #rt::Mode> #rt::traits::SequenceRule<__FwdadA, __FwdadS> for #marker
            where
                #rule: #rt::Frule<__FwdadA, __FwdadS>,
            {
                type Rule = #rule;
                #[inline(always)]
                fn rule() -> #rule {
                    #rule {}
                }
            }
        });
    }
    (extra, out)
}

/// The error at a second `#[derive_frule] impl` of one trait for a sequence type (`impl
/// VecOps for Vec<f64>` beside `impl VecOps for [f64]` in the file): a trait's methods
/// have one rule marker each on sequences (`traits::unsized_dispatch`, which keeps the
/// trait dyn compatible), so a second `impl` would give it a second rule (rustc's E0119 on
/// the hidden marker). At the `impl` for a sized type when the file has one for the
/// slice (which serves it, as Rust's auto-deref does), else at the later one.
#[inline(never)]
fn second_sequence_impl(imp: &syn::ItemImpl, tr: &syn::Ident, is_slice: bool) -> Option<String> {
    if is_slice {
        return None;
    }
    let key = crate::source::type_key(&imp.self_ty);
    let others = crate::plain_fns::sequence_impls_of(&tr.to_string());
    let is_slice_key = |t: &str| t.starts_with('[') && !t.contains(';');
    if let Some(slice) = others.iter().find(|t| is_slice_key(t)) {
        return Some(format!("`#[derive_frule]` supports one `impl` of a trait of yours for a slice, an array or a `Vec`, and this file has `impl {tr} for {slice}`, which serves `{key}` too: a method called on a `{key}` reaches it by auto-deref, as Rust calls it when there is no `impl` for `{key}`; remove this `impl`"));
    }
    let at = others.iter().position(|t| *t == key)?;
    let earlier = others[..at].iter().find(|t| **t != key)?;
    Some(format!("`#[derive_frule]` supports one `impl` of a trait of yours for a slice, an array or a `Vec`, and this file has `impl {tr} for {earlier}` already: implement `{tr}` once, for `[f64]`, which serves slices, arrays and `Vec`s (a method called on them reaches it by auto-deref)"))
}

/// `#[derive_frule]` on one method (`&self` or `&mut self`) inside a plain `impl` block.
/// The attribute can add only items of that `impl` (it does not know the type's name), so
/// instead of a marker struct the rule is a closure, returned as `impl Frule` by the hidden
/// dispatch methods the calls in derived bodies use (`recv.primal.m_forward_rule()`,
/// `Ty::add_derive_frule_to_the_impl_of_m()`; the mode is inferred from the call), next to `m_frule`.
fn expand_method(args: TokenStream, m: syn::ItemFn) -> TokenStream {
    let mut diag = Diagnostics::new();
    let args = diag.handle(syn::parse2::<Args>(args)).unwrap_or_default();
    let rt = args.runtime_path();
    if let Some(name) = args.inactive.first() {
        diag.error_spanned(
            name,
            "`inactive(..)` is supported on free functions only, not on methods: move the computation into a function with `#[derive_frule(inactive(..))]` and call it from the method",
        );
    }
    if let Some((name, _)) = args.aliases.first() {
        diag.error_spanned(
            name,
            "`alias(..)` is supported on free functions only, not on methods: write the library's name in the method (`x: &SVector<f64, 3>`)",
        );
    }
    if let Some(syn::FnArg::Receiver(r)) = m.sig.inputs.first() {
        if r.reference.is_none() {
            diag.error_spanned(
                r,
                "`#[derive_frule]` on a single method supports `&self` and `&mut self`; for `self` by value put the attribute on the `impl` block (`#[derive_frule] impl Ty { .. }`)",
            );
        }
    }
    if !m.sig.generics.params.is_empty() {
        diag.error_spanned(
            &m.sig.generics,
            "`#[derive_frule]` on a single method does not support generic methods; put the attribute on the `impl` block (`#[derive_frule] impl Ty { .. }`)",
        );
    }
    let fn_values = crate::higher_order::fn_value_params(&m.sig);
    for (arg, _) in m.sig.inputs.iter().zip(&fn_values).filter(|(_, f)| **f) {
        if let syn::FnArg::Typed(t) = arg {
            diag.error_spanned(
                &t.ty,
                "`#[derive_frule]` on a single method does not support function-value parameters; put the attribute on the `impl` block (`#[derive_frule] impl Ty { .. }`)",
            );
        }
    }
    // A value or pattern built with `Self` (`Self { .. }`, `Self(..)`) has its tangent
    // built by the tangent struct's name, which here only the type's own name gives.
    struct SelfLiterals(Vec<Span>);
    impl<'ast> syn::visit::Visit<'ast> for SelfLiterals {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if p.is_ident("Self") {
                self.0.push(p.span());
            }
            syn::visit::visit_path(self, p);
        }
        // `let v: Self = ..` is fine: only values and patterns need the tangent's name.
        fn visit_type(&mut self, _: &'ast syn::Type) {}
    }
    let mut lits = SelfLiterals(Vec::new());
    syn::visit::Visit::visit_block(&mut lits, &m.block);
    for at in lits.0 {
        diag.error(
            at,
            "`#[derive_frule]` on a single method cannot build a value or pattern with `Self` (its tangent is named after the type, which the attribute does not see): write the type's name (`Spring { .. }`), or put the attribute on the `impl` block",
        );
    }
    let method = syn::ImplItemFn {
        attrs: m.attrs.clone(),
        vis: m.vis.clone(),
        defaultness: None,
        sig: m.sig.clone(),
        block: (*m.block).clone(),
    };
    let self_ty: syn::Type = syn::parse_quote!(Self);
    let func = method_as_fn(
        &method,
        &self_ty,
        &format_ident!("Self"),
        &syn::Generics::default(),
    );
    let sig = if diag.has_errors() {
        None
    } else {
        check_signature(&func.sig, &mut diag, true)
    };
    let body = sig
        .as_ref()
        .and_then(|_| pipeline(&func, &args, &[], &rt, &mut diag));
    let (sig, body) = match (diag.finish(), sig, body) {
        (Ok(()), Some(sig), Some(body)) => (sig, body),
        (result, _, _) => {
            let errors = result
                .err()
                .map(|e| e.to_compile_error())
                .unwrap_or_default();
            return quote!(#m #errors);
        }
    };
    let mode = mode_ident();
    let dual_in = |ty: &syn::Type| {
        let span = ty.span();
        quote_spanned!(span=> #rt::Dual<#ty, <#ty as #rt::Differentiable>::TangentIn<#mode>>)
    };
    let arg_tys: Vec<_> = sig.named_inputs.iter().map(dual_in).collect();
    let out_ty = dual_in(&sig.named_output);
    let lts = &sig.lifetimes;
    let params: Vec<_> = (0..sig.named_inputs.len()).map(emit::param_ident).collect();
    let tokens = &body.tokens;
    let vis = &m.vis;
    let name = &m.sig.ident;
    let by_value = crate::register::rule_method_name(name, name.span());
    let by_type = crate::register::by_type_rule_name(name);
    let entry = format_ident!("{}_frule", name);
    let rule_local = format_ident!("__fwdad_rule", span = Span::mixed_site());
    let rule_ty = quote! {
        impl #rt::Frule<(#(#arg_tys,)*), #mode, Output = #out_ty>
    };
    let rule = quote! {
        #rt::FnRule::new(
            #[allow(unused_mut, unused_variables, unused_parens, unused_braces, unreachable_code, unreachable_patterns, non_snake_case, clippy::all)]
            |__fwdad_args: (#(#arg_tys,)*)| -> #out_ty {
                let (#(#params,)*) = __fwdad_args;
                #tokens
            },
        )
    };
    let (names, inputs, output) = (&sig.names, &sig.inputs, &sig.output);
    let (const_generics, const_types, const_entry) = method_entry_consts(&func.sig, &sig, &rt);
    let inputs: Vec<_> = inputs
        .iter()
        .zip(&const_types)
        .map(|(t, c)| c.clone().unwrap_or_else(|| quote!(#rt::Dual<#t>)))
        .collect();
    let doc = format!("Forward rule of the method `{name}` (generated by `#[derive_frule]`): the receiver and each argument as a `Dual`.");
    // Emitted first: in `impl Trait for T`, where a method cannot take the attribute alone,
    // rustc's first error (E0407, "method .. is not a member of trait") names this item,
    // whose name says what to write.
    let hint = format_ident!(
        "derive_frule_goes_on_the_trait_and_its_impl_block_not_on_{}",
        name,
        span = name.span()
    );
    quote! {
        #m
        #[doc(hidden)]
        #[allow(dead_code)]
        fn #hint() {}
        #[doc(hidden)]
        #[inline(always)]
        #vis fn #by_value<#(#lts,)* #mode: #rt::Mode>(&self) -> #rule_ty {
            Self::#by_type()
        }
        #[doc(hidden)]
        #[inline(always)]
        #vis fn #by_type<#(#lts,)* #mode: #rt::Mode>() -> #rule_ty {
            #rule
        }
        #[doc = #doc]
        #[allow(dead_code)]
        #vis fn #entry<#(#const_generics),*>(#(#names: #inputs),*) -> #rt::Dual<#output> {
            #const_entry
            // A local, not a temporary of the tail: the rule may capture the lifetimes of
            // the zero tangents `#const_entry` lends, and a tail temporary outlives them.
            let #rule_local = Self::#by_type::<f64>();
            #rt::Frule::<_, f64>::frule(&#rule_local, (#(#names,)*))
        }
    }
}

/// A method as a free function named after its rule marker: `&self` becomes the first
/// parameter `self: &Ty` (`&mut self`, `self` likewise), and `Self` is `Ty` throughout.
/// The impl's generic parameters and bounds come first in the function's.
pub(crate) fn method_as_fn(
    m: &syn::ImplItemFn,
    self_ty: &syn::Type,
    ty_ident: &syn::Ident,
    impl_generics: &syn::Generics,
) -> syn::ItemFn {
    let mut sig = m.sig.clone();
    let own = std::mem::take(&mut sig.generics.params);
    sig.generics.params = impl_generics.params.iter().cloned().chain(own).collect();
    if let Some(w) = &impl_generics.where_clause {
        let clause = sig.generics.make_where_clause();
        let own = std::mem::take(&mut clause.predicates);
        clause.predicates = w.predicates.iter().cloned().chain(own).collect();
    }
    sig.ident = format_ident!("__fwdad_{}_{}", ty_ident, m.sig.ident);
    let converted = into_params_at_target(&mut sig);
    // A `const fn`'s rule is an ordinary function (the primal stays `const`).
    sig.constness = None;
    let mut func = syn::ItemFn {
        attrs: vec![],
        vis: m.vis.clone(),
        sig,
        block: Box::new(m.block.clone()),
    };
    ReplaceSelfType(self_ty).visit_item_fn_mut(&mut func);
    IntoOfConverted::rewrite_body(converted, &mut func.block);
    // `impl<T: ComplexField> Ty<T>`'s `-> T::RealField`: `T` (see `aliases`).
    crate::aliases::real_field_as_scalar(&func)
}

/// `p.into()` of a parameter `into_params_at_target` took at its target is `p` itself
/// (`Into<T> for T` is the identity), so that `setpoint: impl Into<T>` of a float type
/// `T` needs no rule for `into` on a float, whose target the body does not write. A `let`
/// of the body's own statements that binds the name again (`let hz = hz.into();`, as
/// biquad's `Hertz::from_hz` writes it) still reads the parameter in its initialiser and
/// shadows it in the statements after it; names bound anywhere else (a nested block's
/// `let`, a closure's `|p|`, a pattern) are left alone throughout.
struct IntoOfConverted(Vec<syn::Ident>);

impl IntoOfConverted {
    fn rewrite_body(converted: Vec<syn::Ident>, body: &mut syn::Block) {
        let mut nested = crate::lower::PatIdents::default();
        for stmt in &body.stmts {
            match stmt {
                syn::Stmt::Local(l) => {
                    if let Some(init) = &l.init {
                        syn::visit::Visit::visit_local_init(&mut nested, init);
                    }
                }
                other => syn::visit::Visit::visit_stmt(&mut nested, other),
            }
        }
        let rebound = |id: &syn::Ident| nested.0.iter().any(|p| p.ident == *id);
        let mut this = Self(converted.into_iter().filter(|id| !rebound(id)).collect());
        for stmt in &mut body.stmts {
            let syn::Stmt::Local(l) = stmt else {
                this.visit_stmt_mut(stmt);
                continue;
            };
            if let Some(init) = &mut l.init {
                this.visit_local_init_mut(init);
            }
            let mut binds = crate::lower::PatIdents::default();
            syn::visit::Visit::visit_pat(&mut binds, &l.pat);
            this.0.retain(|id| !binds.0.iter().any(|p| p.ident == *id));
        }
    }
}

impl VisitMut for IntoOfConverted {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if let syn::Expr::MethodCall(m) = e {
            let of_converted = || match &*m.receiver {
                syn::Expr::Path(p) if p.qself.is_none() => {
                    self.0.iter().any(|id| p.path.is_ident(id))
                }
                _ => false,
            };
            if m.method == "into" && m.args.is_empty() && m.turbofish.is_none() && of_converted() {
                *e = (*m.receiver).clone();
                return;
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

/// A constructor's parameters `p: impl Into<Point>` or `p: V` with `V: Into<Point>` (and
/// no other bound) take `Point` in the rule: what a derived body passes (a conversion from
/// another type, a tuple, has no rule). `p.into()` is then `Point`'s own. Returns the
/// parameters so taken.
fn into_params_at_target(sig: &mut syn::Signature) -> Vec<syn::Ident> {
    fn into_target(
        bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>,
    ) -> Option<syn::Type> {
        let mut traits = bounds.iter().filter_map(|b| match b {
            syn::TypeParamBound::Trait(t) => Some(t),
            _ => None,
        });
        let t = traits.next()?;
        if traits.next().is_some() {
            return None;
        }
        let last = t.path.segments.last()?;
        if last.ident != "Into" {
            return None;
        }
        match &last.arguments {
            syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => match &a.args[0] {
                syn::GenericArgument::Type(ty) => Some(ty.clone()),
                _ => None,
            },
            _ => None,
        }
    }
    let mut by_param: Vec<(syn::Ident, syn::Type)> = Vec::new();
    let has_where = |id: &syn::Ident, sig: &syn::Signature| {
        sig.generics.where_clause.as_ref().is_some_and(|w| {
            w.predicates.iter().any(|p| matches!(p, syn::WherePredicate::Type(t) if matches!(&t.bounded_ty, syn::Type::Path(p) if p.path.is_ident(id))))
        })
    };
    for tp in sig.generics.type_params() {
        if let Some(target) = into_target(&tp.bounds) {
            if !has_where(&tp.ident, sig) {
                by_param.push((tp.ident.clone(), target));
            }
        }
    }
    let mut converted = Vec::new();
    for arg in sig.inputs.iter_mut() {
        let syn::FnArg::Typed(t) = arg else { continue };
        let target = match &*t.ty {
            syn::Type::ImplTrait(it) => into_target(&it.bounds),
            syn::Type::Path(p) if p.qself.is_none() => by_param
                .iter()
                .find(|(id, _)| p.path.is_ident(id))
                .map(|(_, target)| target.clone()),
            _ => None,
        };
        if let Some(target) = target {
            *t.ty = target;
            if let syn::Pat::Ident(p) = &*t.pat {
                converted.push(p.ident.clone());
            }
        }
    }
    if by_param.is_empty() {
        return converted;
    }
    let used_elsewhere = |id: &syn::Ident, sig: &syn::Signature| {
        let out = match &sig.output {
            syn::ReturnType::Type(_, t) => quote!(#t).to_string(),
            syn::ReturnType::Default => String::new(),
        };
        let ins: Vec<String> = sig.inputs.iter().map(|a| quote!(#a).to_string()).collect();
        let id = id.to_string();
        out.split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| w == id)
            || ins.iter().any(|s| {
                s.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|w| w == id)
            })
    };
    let keep: Vec<syn::GenericParam> = sig
        .generics
        .params
        .iter()
        .filter(|g| match g {
            syn::GenericParam::Type(tp) => {
                !by_param.iter().any(|(id, _)| *id == tp.ident) || used_elsewhere(&tp.ident, sig)
            }
            _ => true,
        })
        .cloned()
        .collect();
    sig.generics.params = keep.into_iter().collect();
    converted
}

/// Replaces the `Self` type in paths (`Self`, `Self::new`, `Self { .. }`) by the impl's type.
pub(crate) struct ReplaceSelfType<'t>(pub(crate) &'t syn::Type);

impl VisitMut for ReplaceSelfType<'_> {
    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        if let syn::Type::Path(p) = ty {
            if p.qself.is_none() && p.path.is_ident("Self") {
                *ty = self.0.clone();
                return;
            }
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if path.segments.first().is_some_and(|s| s.ident == "Self") {
            if let syn::Type::Path(tp) = self.0 {
                let rest: Vec<_> = path.segments.iter().skip(1).cloned().collect();
                let mut p = tp.path.clone();
                // `Spring::<T>` is valid both as a type and in an expression.
                for seg in p.segments.iter_mut() {
                    if let syn::PathArguments::AngleBracketed(a) = &mut seg.arguments {
                        a.colon2_token = Some(Default::default());
                    }
                }
                p.segments.extend(rest);
                *path = p;
                return;
            }
        }
        syn::visit_mut::visit_path_mut(self, path);
    }
}

/// Whether the method's receiver is `self` (or `mut self`) by value.
fn takes_self_by_value(m: &syn::ImplItemFn) -> bool {
    matches!(m.sig.inputs.first(), Some(syn::FnArg::Receiver(r)) if r.reference.is_none())
}

/// On the method's type: the dispatch methods and `m_frule`.
/// For `#[derive_frule] impl Tr<A> for Ty` of a generic trait: an item named after the
/// trait and the type, so that a second such `impl` for `Ty` (geographiclib's eight `impl
/// InverseGeodesic<..> for Geodesic`), whose methods would be `Ty`'s under the same names,
/// is reported first by that name (E0428) rather than by a rule's.
#[inline(never)]
fn generic_trait_once_marker(imp: &syn::ItemImpl, ty: Option<&syn::Ident>) -> TokenStream {
    let (Some((_, path, _)), Some(ty)) = (&imp.trait_, ty) else {
        return TokenStream::new();
    };
    let Some(tr) = path.segments.last() else {
        return TokenStream::new();
    };
    let name = format_ident!(
        "{}_for_{}_takes_derive_frule_on_one_impl_only",
        tr.ident,
        ty,
        span = path.span()
    );
    quote_spanned! {path.span()=>
        #[allow(non_camel_case_types, dead_code)]
        #[doc(hidden)]
        struct #name;
    }
}

fn emit_method_entry(
    m: &syn::ImplItemFn,
    func: &syn::ItemFn,
    sig: &Sig,
    rt: &TokenStream,
    impl_generics: &syn::Generics,
) -> TokenStream {
    let vis = &m.vis;
    let name = &func.sig.ident;
    // The marker carries the impl's parameters its arguments do not name (`emit_items`).
    let generic_impl = impl_generics
        .params
        .iter()
        .any(|p| !matches!(p, syn::GenericParam::Lifetime(_)));
    let phantom: Vec<&syn::Ident> = match generic_impl {
        true => phantom_params(func, sig, true),
        false => Vec::new(),
    }
    .into_iter()
    .filter_map(|p| match p {
        syn::GenericParam::Type(t) => Some(&t.ident),
        syn::GenericParam::Const(c) => Some(&c.ident),
        syn::GenericParam::Lifetime(_) => None,
    })
    .collect();
    let (marker, marker_value) = match phantom.is_empty() {
        true => (quote!(#name), quote!(#name {})),
        false => (
            quote!(#name<#(#phantom),*>),
            quote!(<#name<#(#phantom),*> as ::core::default::Default>::default()),
        ),
    };
    // The rule needs `T: Real` of each of the impl's type parameters (as for generic fns).
    let by_value = crate::register::rule_method_name(&m.sig.ident, m.sig.ident.span());
    let by_type = crate::register::by_type_rule_name(&m.sig.ident);
    let entry = format_ident!("{}_frule", m.sig.ident);
    // `recv.m(..)` passes `&mut recv`; a `self` method takes a clone of it.
    // In a generic `impl`, the receiver's type (`V2<T>`) is named here, where `Self` is it.
    let generic = generic_impl;
    let (dispatch_ty, dispatched) = match takes_self_by_value(m) {
        true if !impl_generics.params.is_empty() => (
            quote!(#rt::user_ops::SelfByValueOf<#marker, Self>),
            quote!(#rt::user_ops::SelfByValueOf(#marker_value, ::core::marker::PhantomData)),
        ),
        true => (
            quote!(#rt::SelfByValue<#marker>),
            quote!(#rt::SelfByValue(#marker_value)),
        ),
        false => (quote!(#marker), marker_value.clone()),
    };
    let (by_type_ty, by_type_value) = match generic {
        true => (
            quote!(#rt::user_ops::AssocOf<#marker, Self>),
            quote!(#rt::user_ops::AssocOf(#marker_value, ::core::marker::PhantomData)),
        ),
        false => (quote!(#marker), marker_value.clone()),
    };
    let names = &sig.names;
    let (const_generics, const_types, const_entry) = method_entry_consts(&func.sig, sig, rt);
    // A function value is taken as a function of duals, as it is (see `take_fn_values`).
    let inputs: Vec<_> = sig
        .inputs
        .iter()
        .enumerate()
        .map(
            |(i, t)| match sig.fn_values.get(i).copied().unwrap_or(false) || sig.is_inactive(i) {
                true => quote!(#t),
                false => match const_types.get(i).cloned().flatten() {
                    Some(c) => c,
                    None => quote!(#rt::Dual<#t>),
                },
            },
        )
        .collect();
    let output = &sig.output;
    let doc = format!("Forward rule of the method `{}` (generated by `#[derive_frule]`): the receiver and each argument as a `Dual`.", m.sig.ident);
    // The method's own generic parameters (its function values' types), over one-direction
    // duals; and, for calls passing closures, the helpers that give them their types.
    let (own_generics, fn_helpers) = match sig.fn_values.contains(&true) {
        true => {
            let own = crate::higher_order::fn_value_params(&m.sig);
            let generics = crate::higher_order::rule_types(&m.sig, &own, rt, quote!(f64), false).0;
            let helpers =
                crate::higher_order::method_helpers(&func.sig, &sig.fn_values, rt, &m.sig.ident);
            (generics, helpers)
        }
        // A method generic over its own float type (`fn eval<T: Float>(&self, x: T)`).
        false => (m.sig.generics.clone(), Vec::new()),
    };
    let own_params = &own_generics.params;
    let own_preds = own_generics.where_clause.as_ref().map(|w| {
        let p = w.predicates.iter();
        quote!(#(#p,)*)
    });
    // A parameter bounded by a trait of the user's (`impl<F: System> Rk4<F>`) is a value
    // with rules, not a float: it gets the trait's bounds, as in a generic function.
    let trait_params: Vec<syn::Ident> = crate::traits::trait_params(impl_generics)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let float_params = impl_generics
        .type_params()
        .map(|t| &t.ident)
        .filter(|t| !trait_params.contains(t));
    let trait_preds = crate::traits::trait_param_preds(impl_generics, rt);
    let own_floats = crate::lower::float_params(&m.sig);
    let entry_where = quote!(where #own_preds #trait_preds #(#float_params: #rt::Real,)* #(#own_floats: #rt::Real,)*);
    quote! {
        #(#fn_helpers)*
        #[doc(hidden)]
        #[inline(always)]
        #vis fn #by_value(&self) -> #dispatch_ty {
            #dispatched
        }
        #[doc(hidden)]
        #[inline(always)]
        #vis fn #by_type() -> #by_type_ty {
            #by_type_value
        }
        #[doc = #doc]
        #[allow(dead_code, clippy::type_complexity, clippy::multiple_bound_locations)]
        #vis fn #entry<#own_params #(#const_generics),*>(#(#names: #inputs),*) -> #rt::Dual<#output> #entry_where {
            #const_entry
            <#marker as #rt::Frule<_, f64>>::frule(&#marker_value, (#(#names,)*))
        }
    }
}

/// `#[derive_frule]` on a closure (`let sq = #[derive_frule] |x: f64| x * x;`, which rustc
/// feature-gates but still expands): the error says to write a function, and the closure is
/// given back as the block's value, so the code around it type-checks as written (the item
/// put back as an item was rustc's parse error, "expected identifier").
#[inline(never)]
fn on_closure(item: &TokenStream) -> Option<TokenStream> {
    let c = syn::parse2::<syn::ExprClosure>(item.clone()).ok()?;
    let (open, close) = (&c.or1_token, &c.or2_token);
    let err = syn::Error::new_spanned(
        quote!(#open #close),
        "`#[derive_frule]` applies to a function, not a closure: write the closure as a function with the attribute (`#[derive_frule] fn square(x: f64) -> f64 { x * x }`), and call it by name or pass `square` where the closure went; its rule is `square_frule`, its handle for the drivers `square {}`",
    )
    .to_compile_error();
    Some(quote!({ #err; #item }))
}

/// The tokens that name an item (its keyword and name), for errors about the whole item.
/// The error for an item `#[derive_frule]` does not apply to: an `extern` block's
/// declarations and a trait's method declared without a body are named with what to write
/// instead.
#[inline(never)]
fn not_a_function(item: &TokenStream) -> syn::Error {
    let msg = "`#[derive_frule]` applies to a function (`fn`), an `impl` block or a trait";
    if let Ok(m) = syn::parse2::<syn::TraitItemFn>(item.clone()) {
        if m.default.is_none() {
            let name = &m.sig.ident;
            return syn::Error::new_spanned(
                &m.sig,
                format!(
                    "`#[derive_frule]` on a trait's method declared without a body (`{name}`): put \
                     `#[derive_frule]` on the trait (`#[derive_frule] trait Name {{ .. }}`) and on each \
                     `impl` of it for a type you differentiate through it"
                ),
            );
        }
    }
    match syn::parse2::<syn::Item>(item.clone()) {
        Ok(syn::Item::ForeignMod(m)) => syn::Error::new_spanned(
            &m.abi,
            "`#[derive_frule]` cannot see into an `extern` block: its functions have no body to \
             differentiate; write a Rust function that calls one (`fn cbrt(x: f64) -> f64 { unsafe { ffi::cbrt(x) } }`) \
             and give it a rule with `#[primitive(d = ..)]` or `#[primitive(rule = ..)]`",
        ),
        Ok(syn::Item::Mod(m)) => syn::Error::new_spanned(
            {
                let (k, n) = (&m.mod_token, &m.ident);
                quote!(#k #n)
            },
            format!(
                "`#[derive_frule]` applies to one function, `impl` block or trait at a time, not to a module (`mod {}`): put `#[derive_frule]` on each function of it to differentiate, and on its `impl` blocks and traits",
                m.ident
            ),
        ),
        Ok(it) => syn::Error::new_spanned(item_head(&it), msg),
        Err(_) => syn::Error::new(Span::call_site(), msg),
    }
}

fn item_head(item: &syn::Item) -> TokenStream {
    match item {
        syn::Item::Struct(s) => {
            let (k, n) = (&s.struct_token, &s.ident);
            quote!(#k #n)
        }
        syn::Item::Enum(e) => {
            let (k, n) = (&e.enum_token, &e.ident);
            quote!(#k #n)
        }
        syn::Item::Impl(i) => {
            let (k, t) = (&i.impl_token, &i.self_ty);
            quote!(#k #t)
        }
        other => quote!(#other),
    }
}

/// Whether `FWDAD_DUMP` names this function (or is `1`/`all`).
fn dump_requested(name: &syn::Ident) -> bool {
    match std::env::var("FWDAD_DUMP") {
        Ok(v) => v == "1" || v == "all" || v.split(',').any(|n| *name == n.trim()),
        Err(_) => false,
    }
}

fn pretty(ts: &TokenStream) -> String {
    match syn::parse2::<syn::File>(ts.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(_) => ts.to_string(),
    }
}

/// Which parameters `inactive(..)` names, one flag per parameter. Only borrowed data can
/// be inactive (`&[f64]`, `&T`: the rule takes it as the plain reference); reports names
/// that are not parameters, repeated names, and parameters of any other kind.
pub(crate) fn resolve_inactive(
    sig: &syn::Signature,
    names: &[syn::Ident],
    diag: &mut Diagnostics,
) -> Vec<bool> {
    let params: Vec<Option<(&syn::Ident, &syn::Type)>> = sig
        .inputs
        .iter()
        .map(|arg| match arg {
            syn::FnArg::Typed(t) => match &*t.pat {
                syn::Pat::Ident(pi) => Some((&pi.ident, &*t.ty)),
                _ => None,
            },
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let mut flags = vec![false; params.len()];
    if let (Some(name), syn::ReturnType::Type(_, ret)) = (names.first(), &sig.output) {
        if contains_reference(ret) {
            diag.error_spanned(
                name,
                "`inactive(..)` is not supported on a function that returns a reference: a returned dual would borrow its tangent from a buffer local to the rule; return an owned value",
            );
            return flags;
        }
    }
    for name in names {
        let Some(i) = params
            .iter()
            .position(|p| p.is_some_and(|(n, _)| n == name))
        else {
            let list: Vec<String> = params
                .iter()
                .flatten()
                .map(|(n, _)| format!("`{n}`"))
                .collect();
            let list = match list.is_empty() {
                true => "it has no parameters named by an identifier".to_string(),
                false => format!("its parameters are {}", list.join(", ")),
            };
            diag.error_spanned(
                name,
                format!("`inactive({name})`: `{}` has no parameter `{name}`; {list} (a pattern parameter such as `(a, b): (f64, f64)` cannot be named)", sig.ident),
            );
            continue;
        };
        if flags[i] {
            diag.error_spanned(name, format!("`{name}` is named twice in `inactive(..)`"));
            continue;
        }
        flags[i] = true;
        let Some((_, ty)) = params[i] else { continue };
        let ty = peel_parens(ty);
        match ty {
            syn::Type::Reference(r) if r.mutability.is_some() => diag.error_spanned(
                name,
                format!("`{name}` is a `&mut` parameter and cannot be `inactive`: what the function writes through it must carry tangents; pass it as an ordinary parameter"),
            ),
            // Data without a tangent (`&[usize]`) and by-value constants are inactive
            // already or cheaply: naming them costs nothing and says what the user means.
            _ => {}
        }
    }
    flags
}

/// One flag per parameter: a shared reference to a struct the source file declares
/// without `#[derive(Differentiable)]` (`plain_fns::not_differentiable`), or to a slice,
/// array or `Vec` of them; an enum of units without it (`plain_fns::unit_enum`), by
/// value or borrowed. Such a value has no tangent, so it can only be constant data;
/// not on a function returning a reference (see `resolve_inactive`).
#[inline(never)]
fn plain_data_params(sig: &syn::Signature) -> Vec<bool> {
    if let syn::ReturnType::Type(_, ret) = &sig.output {
        if contains_reference(ret) {
            return Vec::new();
        }
    }
    let caller = sig.ident.to_string();
    let plain = |ty: &syn::Type| match peel_parens(ty) {
        syn::Type::Path(p) if p.qself.is_none() => {
            crate::plain_fns::not_differentiable(&caller, &p.path).is_some()
                || crate::plain_fns::unit_enum(&caller, &p.path)
        }
        _ => false,
    };
    let elem = |ty: &syn::Type| -> bool {
        match peel_parens(ty) {
            syn::Type::Slice(s) => plain(&s.elem),
            syn::Type::Array(a) => plain(&a.elem),
            syn::Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
                let seg = &p.path.segments[0];
                match (&seg.arguments, seg.ident == "Vec") {
                    (syn::PathArguments::AngleBracketed(a), true) => match a.args.first() {
                        Some(syn::GenericArgument::Type(t)) if a.args.len() == 1 => plain(t),
                        _ => false,
                    },
                    _ => plain(ty),
                }
            }
            _ => false,
        }
    };
    sig.inputs
        .iter()
        .map(|arg| match arg {
            syn::FnArg::Typed(t) => match (&*t.pat, peel_parens(&t.ty)) {
                (syn::Pat::Ident(_), syn::Type::Reference(r)) if r.mutability.is_none() => {
                    elem(&r.elem)
                }
                // An enum of units by value (`scheme: Scheme`) holds no float.
                (syn::Pat::Ident(_), syn::Type::Path(p)) if p.qself.is_none() => {
                    crate::plain_fns::unit_enum(&caller, &p.path)
                }
                _ => false,
            },
            syn::FnArg::Receiver(_) => false,
        })
        .collect()
}

/// In an inherent `impl` of a struct the files show declared without
/// `#[derive(Differentiable)]` (`plain_fns::not_differentiable`; a parameter struct,
/// `impl Channel { fn discharge(&self, y: f64) -> f64 }`), one flag per parameter of the
/// method `func` (`method_as_fn`): its `&self` is constant data, taken by the rule as the
/// plain reference, as a free function's `ch: &Channel` is (`plain_data_params`, which
/// gives the other parameters' flags, in any inherent `impl`). A `&mut self` or `self`
/// of such a struct is reported at the receiver. Empty in a trait's `impl`, whose rules
/// take what the trait's do.
#[inline(never)]
fn plain_impl_inactive(
    imp: &syn::ItemImpl,
    func: &syn::ItemFn,
    diag: &mut Diagnostics,
) -> Vec<bool> {
    if imp.trait_.is_some() {
        return Vec::new();
    }
    let mut flags = plain_data_params(&func.sig);
    let Some(syn::FnArg::Receiver(r)) = func.sig.inputs.first() else {
        return flags;
    };
    let ty = match &*imp.self_ty {
        syn::Type::Path(p) if p.qself.is_none() => p,
        _ => return flags,
    };
    let caller = func.sig.ident.to_string();
    if crate::plain_fns::not_differentiable(&caller, &ty.path).is_none() {
        return flags;
    }
    let name = quote!(#ty).to_string();
    // At the receiver as written (its type is the `impl`'s, `method_as_fn`).
    let (amp, self_token) = (r.reference.as_ref().map(|(a, _)| a), &r.self_token);
    let (lt, mutability) = (
        r.reference.as_ref().and_then(|(_, l)| l.as_ref()),
        &r.mutability,
    );
    let r = quote!(#amp #lt #mutability #self_token);
    match (amp, mutability) {
        (Some(_), None) => {
            flags.resize(func.sig.inputs.len(), false);
            flags[0] = true;
        }
        (Some(_), Some(_)) => diag.error_spanned(
            &r,
            format!("a `&mut self` method of `{name}`, which is declared without `#[derive(Differentiable)]`: fwdad takes such a struct as constant data, which a method cannot write; add `#[derive(Differentiable)]` to `{name}` (its fields then carry derivatives), or take `&self` and return the new values"),
        ),
        (None, _) => diag.error_spanned(
            &r,
            format!("a method of `{name}` taking `self` by value, and `{name}` is declared without `#[derive(Differentiable)]`: fwdad takes such a struct as constant data, borrowed; take `&self`, or add `#[derive(Clone, Differentiable)]` to `{name}`"),
        ),
    }
    flags
}

/// Whether `func`, a method of an inherent `impl` of a struct the files show declared
/// without `#[derive(Differentiable)]`, returns that struct (`fn new(..) -> Self`, `fn
/// widened(&self, b: f64) -> Channel`): a value without a tangent, so it gets no rule
/// and stays the plain method, which derived bodies call on constants
/// (`Channel::new(3.0, 1.5).discharge(y)`).
#[inline(never)]
fn plain_self_result(imp: &syn::ItemImpl, func: &syn::ItemFn) -> bool {
    let (None, syn::Type::Path(ty), syn::ReturnType::Type(_, out)) =
        (&imp.trait_, &*imp.self_ty, &func.sig.output)
    else {
        return false;
    };
    let Some(name) = ty.path.get_ident().filter(|_| ty.qself.is_none()) else {
        return false;
    };
    let names_it = mentions_ident(out, name);
    names_it
        && crate::plain_fns::not_differentiable(&func.sig.ident.to_string(), &ty.path).is_some()
}

/// Whether `ty` names the type `name` (one segment, anywhere inside).
fn mentions_ident(ty: &syn::Type, name: &syn::Ident) -> bool {
    struct Find<'a>(&'a syn::Ident, bool);
    impl<'ast> syn::visit::Visit<'ast> for Find<'_> {
        fn visit_type_path(&mut self, p: &'ast syn::TypePath) {
            self.1 |= p.qself.is_none() && p.path.is_ident(self.0);
            syn::visit::visit_type_path(self, p);
        }
    }
    let mut f = Find(name, false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.1
}

/// `(T)` → `T`, recursively.
fn peel_parens(ty: &syn::Type) -> &syn::Type {
    match ty {
        syn::Type::Paren(p) => peel_parens(&p.elem),
        syn::Type::Group(g) => peel_parens(&g.elem),
        other => other,
    }
}

/// Whether `ty` mentions a reference type.
fn contains_reference(ty: &syn::Type) -> bool {
    // A `&'static` reference (financial 1.1.5's `Result<f64, &'static str>`) borrows from
    // no buffer of the rule.
    mentions(ty, |t| match t {
        syn::Type::Reference(r) => r.lifetime.as_ref().is_none_or(|l| l.ident != "static"),
        _ => false,
    })
}

/// Whether `ty` or a type nested in it satisfies `pred`.
fn mentions(ty: &syn::Type, pred: fn(&syn::Type) -> bool) -> bool {
    struct Find(bool, fn(&syn::Type) -> bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_type(&mut self, t: &'ast syn::Type) {
            self.0 |= (self.1)(t);
            syn::visit::visit_type(self, t);
        }
    }
    let mut f = Find(false, pred);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

/// Runs the passes; returns the emitted body statements. `inactive`: one flag per
/// parameter declared constant (empty: none).
/// A `fn` nested in the body and called with active arguments gets a rule of its own
/// (`#[derive_frule]` on its copy in the rule), since the rule calls it through its marker
/// struct as it calls any function. Nested functions called only on constants stay plain.
/// Likewise a local `struct`/`enum` gets its tangent type (`#[derive(Differentiable)]`) and
/// a local inherent `impl` its rules in the rule's copy.
fn give_nested_fns_rules(ir: &mut ir::Function, plans: &dual::DualPlan, args: &Args) {
    let mut called: std::collections::HashSet<String> = ir
        .insts
        .iter()
        .filter(|(inst, _)| matches!(plans.get(*inst).form, dual::Form::Frule))
        .filter_map(|(_, data)| match &data.kind {
            ir::InstKind::Call { func, .. } => func.get_ident().map(|i| i.to_string()),
            _ => None,
        })
        .collect();
    // A nested fn called by one that gets a rule needs one too (`dist` calling `sq`).
    let nested: Vec<&syn::ItemFn> = ir
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Fn(f) => Some(f),
            _ => None,
        })
        .collect();
    loop {
        let mut calls = CalledNames::default();
        for f in nested
            .iter()
            .filter(|f| called.contains(&f.sig.ident.to_string()))
        {
            syn::visit::visit_block(&mut calls, &f.block);
        }
        let new: Vec<String> = nested
            .iter()
            .map(|f| f.sig.ident.to_string())
            .filter(|n| calls.0.contains(n) && !called.contains(n))
            .collect();
        if new.is_empty() {
            break;
        }
        called.extend(new);
    }
    // `#[::fwdad::__private::derive_frule(crate = ..)]`, built as a tree (no parsing).
    let mut path = match &args.krate {
        Some(p) => p.clone(),
        None => syn::parse_quote!(::fwdad),
    };
    path.segments
        .push(syn::Ident::new("__private", Span::call_site()).into());
    path.segments
        .push(syn::Ident::new("derive_frule", Span::call_site()).into());
    let attr = syn::Attribute {
        pound_token: Default::default(),
        style: syn::AttrStyle::Outer,
        bracket_token: Default::default(),
        meta: syn::Meta::List(syn::MetaList {
            path,
            delimiter: syn::MacroDelimiter::Paren(Default::default()),
            tokens: args
                .krate
                .as_ref()
                .map(|p| quote!(crate = #p))
                .unwrap_or_default(),
        }),
    };
    for item in &mut ir.items {
        match item {
            // Called in the body: the rule's copy calls its rule, and a generic one's copy
            // is then never used (the plain function's is).
            syn::Item::Fn(f) if called.contains(&f.sig.ident.to_string()) => {
                f.attrs.push(allow_dead_code());
                f.attrs.push(attr.clone());
            }
            // A local `impl Acc { .. }`: its methods get rules as a `#[derive_frule] impl`
            // (the rule's copy calls those, not the plain methods). A local `impl Trait for
            // Acc` stays plain: only the trait's own `#[derive_frule]` gives it rules.
            syn::Item::Impl(i) if i.trait_.is_none() && !has_attr(&i.attrs, "derive_frule") => {
                i.attrs.push(allow_dead_code());
                i.attrs.push(attr.clone());
            }
            // A local `struct Acc { s: f64 }`: its tangent type, as `#[derive(Differentiable)]`
            // makes it.
            syn::Item::Struct(syn::ItemStruct { attrs, .. })
            | syn::Item::Enum(syn::ItemEnum { attrs, .. })
                if !derives_differentiable(attrs) =>
            {
                let mut derive = match &args.krate {
                    Some(p) => p.clone(),
                    None => syn::parse_quote!(::fwdad),
                };
                derive
                    .segments
                    .push(syn::Ident::new("Differentiable", Span::call_site()).into());
                let list = |name: &str, tokens: TokenStream| syn::Attribute {
                    pound_token: Default::default(),
                    style: syn::AttrStyle::Outer,
                    bracket_token: Default::default(),
                    meta: syn::Meta::List(syn::MetaList {
                        path: syn::Ident::new(name, Span::call_site()).into(),
                        delimiter: syn::MacroDelimiter::Paren(Default::default()),
                        tokens,
                    }),
                };
                attrs.push(allow_dead_code());
                attrs.push(list("derive", quote!(#derive)));
                if let Some(p) = &args.krate {
                    attrs.push(list("differentiable", quote!(crate = #p)));
                }
            }
            _ => {}
        }
    }
}

/// `#[allow(dead_code)]`, built as a tree.
fn allow_dead_code() -> syn::Attribute {
    syn::Attribute {
        pound_token: Default::default(),
        style: syn::AttrStyle::Outer,
        bracket_token: Default::default(),
        meta: syn::Meta::List(syn::MetaList {
            path: syn::Ident::new("allow", Span::call_site()).into(),
            delimiter: syn::MacroDelimiter::Paren(Default::default()),
            tokens: quote!(dead_code),
        }),
    }
}

/// Whether `attrs` holds `#[name]` or `#[path::name(..)]`.
fn has_attr(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs
        .iter()
        .any(|a| a.path().segments.last().is_some_and(|s| s.ident == name))
}

/// Whether `attrs` holds a `#[derive(.., Differentiable, ..)]`.
fn derives_differentiable(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|a| {
            let mut found = false;
            let _ = a.parse_nested_meta(|m| {
                found |= m
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "Differentiable");
                Ok(())
            });
            found
        })
}

/// The single-name paths a syntax tree calls (`sq(x)`).
#[derive(Default)]
struct CalledNames(std::collections::HashSet<String>);

impl<'ast> syn::visit::Visit<'ast> for CalledNames {
    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*c.func {
            if let Some(id) = p.path.get_ident() {
                self.0.insert(id.to_string());
            }
        }
        syn::visit::visit_expr_call(self, c);
    }
}

pub(crate) fn pipeline(
    func: &syn::ItemFn,
    args: &Args,
    inactive: &[bool],
    rt: &TokenStream,
    diag: &mut Diagnostics,
) -> Option<Body> {
    let dump = args.dump || dump_requested(&func.sig.ident);
    let name = &func.sig.ident;
    let mut print = |stage: crate::pipeline::Stage, text: String| {
        eprintln!("==== {name}: IR after {} ====\n{text}", stage.name());
    };
    let show: crate::pipeline::Show<'_> = if dump { Some(&mut print) } else { None };
    let mut passes = crate::pipeline::run(func, inactive, rt, diag, show)?;
    crate::higher_order::prepare(&mut passes.ir, &passes.active, rt, diag);
    give_nested_fns_rules(&mut passes.ir, &passes.plans, args);
    let mode = mode_ident();
    let tokens = emit::emit_body(
        &passes.ir,
        &passes.active,
        &passes.plans,
        passes.linear.as_ref(),
        passes.simplified.as_ref(),
        rt,
        &mode,
    );
    // The Jacobian entry, for a body that is one chain (`crate::chainjac`).
    let float_params: Vec<bool> = passes
        .ir
        .params
        .iter()
        .map(|p| !p.inactive && crate::const_args::shape(&p.ty).is_some_and(|c| c.float == "f64"))
        .collect();
    let chain_jacobian = crate::chainjac::plan(
        &passes.ir,
        &passes.active,
        &passes.plans,
        passes.linear.as_ref(),
        &float_params,
    )
    .map(|plan| {
        emit::emit_chain_jacobian(
            &passes.ir,
            &passes.active,
            &passes.plans,
            passes.linear.as_ref(),
            &plan,
            rt,
            &mode,
        )
    });
    Some(Body {
        tokens,
        out_of_line: out_of_line(func, &passes.ir),
        inlinable: body_inlinable(func, &passes.ir),
        wide: wide_entry(func, &passes.ir),
        generic: crate::const_args::generic_in_body(&passes.ir, &passes.plans),
        chain_jacobian,
    })
}

/// The emitted body statements and where they go.
pub(crate) struct Body {
    tokens: TokenStream,
    /// Whether they go in a function of their own (`out_of_line`).
    out_of_line: bool,
    /// Whether that function may be inlined (`body_inlinable`).
    inlinable: bool,
    /// Whether the rule gets an entry compiled for AVX2 and FMA (`wide_entry`).
    wide: bool,
    /// Per parameter, whether the body takes a constant tangent as it comes
    /// (`crate::const_args::generic_in_body`); the others are converted on entry.
    generic: Vec<bool>,
    /// The statements of the Jacobian entry (`Frule::chain_jacobian`), if it has one.
    chain_jacobian: Option<TokenStream>,
}

/// Whether the rule's body is a function of its own, never inlined, that takes each float
/// reference argument's primal and tangent as separate parameters: when the user marked
/// the primal `#[inline(never)]`, or, unless they marked it `#[inline]`, when a loop of
/// the body writes memory and the function takes a reference to floats. The point is
/// `noalias`: a reference parameter tells LLVM that nothing else in the body aliases it,
/// as the primal function's parameters do, where references inside `frule`'s argument
/// tuple tell it nothing. A loop storing into a local buffer or an output slice while
/// reading an argument slice is otherwise vectorised behind run-time overlap checks of
/// every primal and tangent pointer (GMM in one direction: 1.15 → 1.10 of num-dual at
/// d = 10, 1.05 → 0.96 at d = 20). The body must stay out of line: inlined, LLVM keeps
/// `noalias` only as scoped metadata on the accesses it can trace to an identified object,
/// which excludes local buffers (`vec!` returns their heap pointers through memory). Other
/// bodies stay inline: nothing to gain, and a call and the caller's constants to lose
/// (Rosenbrock's gradient at n = 10 ran 1.3× slower with every looping body out of line).
fn out_of_line(func: &syn::ItemFn, ir: &ir::Function) -> bool {
    if let Some(hint) = user_inline(func) {
        return hint.is_some_and(|arg| arg == "never");
    }
    let float_params: Vec<&syn::Ident> =
        func.sig.generics.type_params().map(|t| &t.ident).collect();
    let takes_floats = func.sig.inputs.iter().any(|arg| match arg {
        syn::FnArg::Receiver(_) => false,
        syn::FnArg::Typed(t) => float_reference(&t.ty, &float_params),
    });
    takes_floats && ir.stores_in_loop()
}

/// Whether the rule gets a second entry compiled with `#[target_feature(enable =
/// "avx2,fma")]`, into which its body is inlined in `Fused` mode, and which `frule` takes
/// for batches of four lanes or more when the CPU has both (runtime dispatch,
/// `fwdad_runtime::dispatch`; issue 30): a free function without generics of `f64`s and
/// `&[f64]`s returning `f64` or `[f64; N]`, with at least `WIDE_OPS` operations (a
/// second instantiation of a small body costs compile time for little: the wide entry
/// pays where many lane updates follow few scalar partials, BA's 2×15 Jacobian block).
/// The user's `#[inline(never)]` keeps the rule as it is.
fn wide_entry(func: &syn::ItemFn, ir: &ir::Function) -> bool {
    const WIDE_OPS: usize = 48;
    let is_f64 = |ty: &syn::Type| matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("f64"));
    let input = |ty: &syn::Type| {
        is_f64(ty)
            || matches!(ty, syn::Type::Reference(r) if r.mutability.is_none()
                && matches!(&*r.elem, syn::Type::Slice(s) if is_f64(&s.elem)))
    };
    let output = match &func.sig.output {
        syn::ReturnType::Type(_, ty) => {
            is_f64(ty) || matches!(&**ty, syn::Type::Array(a) if is_f64(&a.elem))
        }
        syn::ReturnType::Default => false,
    };
    let never = user_inline(func).is_some_and(|hint| hint.is_some_and(|arg| arg == "never"));
    let plain = func.sig.generics.params.is_empty()
        && func.sig.asyncness.is_none()
        && func.sig.constness.is_none()
        && func.sig.variadic.is_none()
        && func.sig.inputs.iter().all(|arg| match arg {
            syn::FnArg::Typed(t) => input(&t.ty),
            syn::FnArg::Receiver(_) => false,
        });
    let ops = ir
        .insts
        .iter()
        .filter(|(_, i)| {
            matches!(
                i.kind,
                ir::InstKind::Binary { .. }
                    | ir::InstKind::Unary { .. }
                    | ir::InstKind::MethodCall { .. }
                    | ir::InstKind::Call { .. }
            )
        })
        .count();
    plain && output && !never && ops >= WIDE_OPS
}

/// Whether an `out_of_line` body may still be inlined into `frule` (`#[inline]` rather
/// than `#[inline(never)]`): when its loops store only into parameters (`y[i] = s` into an
/// output slice), whose `noalias` LLVM keeps on inlining, as scoped metadata on the
/// accesses through them; a store into a local buffer (or a reference the body derives)
/// loses it. Inlined, the body sees the caller's constants: a matrix-vector product into
/// an 8-element array unrolls its rows as the primal's call does (issue 30, 8 × 8: 0.96 of
/// the expert JVP, against 1.0 kept apart). The user's `#[inline(never)]` keeps it apart.
fn body_inlinable(func: &syn::ItemFn, ir: &ir::Function) -> bool {
    let never = user_inline(func).is_some_and(|hint| hint.is_some_and(|arg| arg == "never"));
    !never && !ir.stores_in_loop_off_params()
}

/// The user's `#[inline]` on the primal, if any, with its argument (`always`, `never`).
fn user_inline(func: &syn::ItemFn) -> Option<Option<syn::Ident>> {
    let attr = func.attrs.iter().find(|a| a.path().is_ident("inline"))?;
    Some(attr.parse_args::<syn::Ident>().ok())
}

pub(crate) fn mode_ident() -> syn::Ident {
    format_ident!("__FwdadMode", span = Span::mixed_site())
}

/// The parts of the signature the emitted items need.
pub(crate) struct Sig {
    /// Parameter types with every lifetime named (for the `Frule` impl).
    named_inputs: Vec<syn::Type>,
    /// The return type with its lifetimes named.
    named_output: syn::Type,
    /// Lifetimes to declare on the impl.
    lifetimes: Vec<syn::Lifetime>,
    /// Parameter names for the `_frule` wrapper.
    names: Vec<syn::Ident>,
    /// Parameter types as written.
    inputs: Vec<syn::Type>,
    /// Return type as written.
    output: syn::Type,
    /// One flag per parameter declared `inactive(..)` (a shared reference, taken as it is;
    /// empty: none).
    inactive: Vec<bool>,
    /// One flag per parameter that is a function value (`crate::higher_order`; empty:
    /// none).
    fn_values: Vec<bool>,
    /// For a function returning a function value (`-> impl Fn(f64) -> f64`): the rule's
    /// output, a boxed function of duals, in the mode and in one direction.
    fn_output: Option<(syn::Type, syn::Type)>,
    /// Per parameter, its shape if its tangent may be a constant's (`ConstTangent`), the
    /// rule then generic over it (`crate::const_args`; empty: none).
    consts: Vec<Option<crate::const_args::ConstParam>>,
    /// Per parameter, whether it borrows a value of a type of the user's that the
    /// one-direction entry takes with a constant's tangent too (`Dual::constant(&s)`,
    /// `crate::const_args::user_ref`; empty: none).
    const_refs: Vec<bool>,
}

impl Sig {
    /// Whether parameter `i` is declared `inactive(..)`.
    fn is_inactive(&self, i: usize) -> bool {
        self.inactive.get(i).copied().unwrap_or(false)
    }

    /// Parameter `i`'s shape if its tangent may be a constant's.
    fn const_param(&self, i: usize) -> Option<&crate::const_args::ConstParam> {
        self.consts.get(i).and_then(Option::as_ref)
    }
}

/// The element tangent type parameter of parameter `i` (`crate::const_args`).
fn tangent_param(i: usize) -> syn::Ident {
    format_ident!("__FwdadT{}", i, span = Span::mixed_site())
}

/// The element tangent parameters of a rule (`crate::const_args`): one per parameter whose
/// tangent may be a constant's, with its bound, and the conversions on entry of those the
/// body needs as duals of the mode.
struct ConstArgs {
    /// `__FwdadT<i>`, one per such parameter.
    idents: Vec<syn::Ident>,
    /// Their bounds (`ArgTangent` of the parameter's float type under the mode).
    preds: Vec<TokenStream>,
    /// Per parameter: `Some(generic in body)` for such a parameter.
    kinds: Vec<Option<bool>>,
    /// The mode's tangent of each such parameter's float type.
    tangents: Vec<Option<TokenStream>>,
    rt: TokenStream,
}

impl ConstArgs {
    /// `with_dyn`: whether trait object parameters get a generic tangent too (the rule's
    /// impl; the one-direction wrapper takes them as they are).
    fn new(
        sig: &Sig,
        generic: &[bool],
        rt: &TokenStream,
        mode: &TokenStream,
        with_dyn: bool,
    ) -> Self {
        let mut this = ConstArgs {
            idents: Vec::new(),
            preds: Vec::new(),
            kinds: Vec::new(),
            tangents: Vec::new(),
            rt: rt.clone(),
        };
        for i in 0..sig.named_inputs.len() {
            let Some(c) = sig.const_param(i).filter(|c| with_dyn || !c.shape.is_dyn()) else {
                this.kinds.push(None);
                this.tangents.push(None);
                continue;
            };
            let in_body = generic.get(i).copied().unwrap_or(false) && !c.shape.is_dyn();
            let (t, float) = (tangent_param(i), &c.float);
            // A trait object's tangent written out (`&'a NoTangent`, `Box<NoTangent>`),
            // not through `Differentiable`: for a trait without rules the first error
            // stays the one naming the trait.
            let mt = match &c.shape {
                crate::const_args::Shape::DynRef => {
                    let lt = match &sig.named_inputs[i] {
                        syn::Type::Reference(r) => r.lifetime.clone(),
                        _ => None,
                    };
                    quote!(&#lt #rt::NoTangent)
                }
                crate::const_args::Shape::DynBox => quote!(#rt::alloc::Box<#rt::NoTangent>),
                _ => quote!(<#float as #rt::Differentiable>::TangentIn<#mode>),
            };
            let bound = match (in_body, &c.shape) {
                (_, s) if s.is_dyn() => quote!(#rt::traits::DynArgTangent<#mt>),
                (false, crate::const_args::Shape::Slice) => quote!(#rt::SliceTangent<#float, #mt>),
                _ => quote!(#rt::ArgTangent<#float, #mt>),
            };
            this.preds.push(quote!(#t: #bound));
            this.idents.push(t);
            this.kinds.push(Some(in_body));
            this.tangents.push(Some(mt));
        }
        this
    }

    /// Whether parameter `i` reaches the body with its element tangent as it comes.
    fn generic(&self, i: usize) -> bool {
        self.kinds.get(i).copied().flatten().unwrap_or(false)
    }

    /// The body function's tangent parameters and their bounds: those of the parameters
    /// it takes as they come.
    fn body_generics(&self) -> (Vec<syn::Ident>, Vec<TokenStream>) {
        let (mut idents, mut preds) = (Vec::new(), Vec::new());
        for (k, in_body) in self.kinds.iter().flatten().enumerate() {
            if *in_body {
                idents.push(self.idents[k].clone());
                preds.push(self.preds[k].clone());
            }
        }
        (idents, preds)
    }

    /// The conversions on entry, to the mode's dual, of the parameters the body does not
    /// take as they come.
    fn entry(&self, sig: &Sig, params: &[syn::Ident]) -> TokenStream {
        let rt = &self.rt;
        let mut out = TokenStream::new();
        for (i, param) in params.iter().enumerate() {
            let (Some(false), Some(c), Some(Some(mt))) = (
                self.kinds.get(i).copied().flatten(),
                sig.const_param(i),
                self.tangents.get(i),
            ) else {
                continue;
            };
            let float = &c.float;
            let cell = format_ident!("__fwdad_zero{}", i, span = Span::mixed_site());
            out.extend(match c.shape {
                crate::const_args::Shape::Scalar => quote! {
                    let #param = #rt::active_scalar::<#float, #mt, _>(#param);
                },
                crate::const_args::Shape::Array => quote! {
                    let #param = #rt::active_array::<#float, #mt, _, _>(#param);
                },
                crate::const_args::Shape::ArrayRef => quote! {
                    let #cell = ::core::cell::OnceCell::new();
                    let #param = #rt::active_array_ref::<#float, #mt, _, _>(#param, &#cell);
                },
                crate::const_args::Shape::Slice => quote! {
                    let #cell = #rt::ZeroCell::<#mt>::new();
                    let #param = #rt::active_slice::<#float, #mt, _>(#param, &#cell);
                },
                crate::const_args::Shape::DynRef | crate::const_args::Shape::DynBox => quote! {
                    let #param = #rt::traits::dyn_arg::<_, #mt, _>(#param);
                },
            });
        }
        out
    }
}

/// A scope for the tangents of trait objects passed in through a parameter that lends them
/// mutably (`&mut dyn Body`, `&mut [Box<dyn Body>]`, `&mut Vec<Box<dyn Body>>`, or a type
/// of the user's that may hold them, `&mut World`): a `&mut self` method called on one
/// through `dyn` keeps what it stores beside the object while the scope is open
/// (`fwdad_runtime::traits::DynScope`).
fn dyn_scope(sig: &Sig, rt: &TokenStream) -> TokenStream {
    let lends = sig.named_inputs.iter().any(|ty| {
        mentions(ty, |t| {
            let syn::Type::Reference(r) = t else {
                return false;
            };
            let user_type = match &*r.elem {
                syn::Type::Path(p) if p.qself.is_none() => {
                    (p.path.segments.last()).is_some_and(|s| {
                        s.ident.to_string().starts_with(char::is_uppercase)
                            && !matches!(s.ident.to_string().as_str(), "Vec" | "Option" | "String")
                    })
                }
                _ => false,
            };
            r.mutability.is_some()
                && (user_type || mentions(&r.elem, |t| matches!(t, syn::Type::TraitObject(_))))
        })
    });
    let owned = owned_objects(sig, rt);
    match lends {
        true => {
            let guard = format_ident!("__fwdad_dyn_scope", span = Span::mixed_site());
            quote!(#owned let #guard = #rt::traits::DynScope::enter();)
        }
        false => owned,
    }
}

/// Whether `ty` names a struct of the annotated item's file a field of which writes `dyn`
/// (or names such a struct, a few levels deep): a value of it moved in holds trait objects.
#[inline(never)]
fn declared_with_objects(ty: &syn::Type) -> bool {
    fn names(ty: &syn::Type) -> Vec<String> {
        struct Find(Vec<String>);
        impl<'ast> syn::visit::Visit<'ast> for Find {
            fn visit_path_segment(&mut self, s: &'ast syn::PathSegment) {
                self.0.push(s.ident.to_string());
                syn::visit::visit_path_segment(self, s);
            }
        }
        let mut f = Find(Vec::new());
        syn::visit::Visit::visit_type(&mut f, ty);
        f.0
    }
    let Some(file) = crate::source::source_file().and_then(|f| crate::source::parse(&f)) else {
        return false;
    };
    let mut todo = names(ty);
    let mut seen = std::collections::HashSet::new();
    while let Some(n) = todo.pop() {
        if seen.len() > 16 || !seen.insert(n.clone()) {
            continue;
        }
        for st in (file.modules.iter()).flat_map(|m| m.structs.iter().filter(|s| s.name == n)) {
            for (_, fty) in &st.fields {
                let Ok(fty) = syn::parse_str::<syn::Type>(fty) else {
                    continue;
                };
                if mentions(&fty, |t| matches!(t, syn::Type::TraitObject(_))) {
                    return true;
                }
                todo.extend(names(&fty));
            }
        }
    }
    false
}

/// A guard for trait objects a parameter takes by value (`bodies: Vec<Box<dyn Body>>`,
/// `b: Box<dyn Body>`): the function owns them, and what their `&mut self` calls store
/// beside them must not outlive them (`fwdad_runtime::traits::DynOwned`). Opened before
/// the function's own `DynScope`, so that it sees whether a caller's scope is open.
#[inline(never)]
fn owned_objects(sig: &Sig, rt: &TokenStream) -> TokenStream {
    let dyn_in = |t: &syn::Type| mentions(t, |t| matches!(t, syn::Type::TraitObject(_)));
    // Also a struct of the file whose fields hold trait objects (`fn run(mut w: Arena, ..)`
    // with `struct Arena { bodies: Vec<Box<dyn Body>>, .. }`).
    let owns = (sig.named_inputs.iter()).any(|ty| {
        !matches!(ty, syn::Type::Reference(_)) && (dyn_in(ty) || declared_with_objects(ty))
    });
    if !owns {
        return TokenStream::new();
    }
    // A result that may hold the objects: anything but floats, integers, `bool` and `()`
    // (and tuples, arrays and `Vec`s of them).
    fn plain(ty: &syn::Type) -> bool {
        match ty {
            syn::Type::Tuple(t) => t.elems.iter().all(plain),
            syn::Type::Array(a) => plain(&a.elem),
            syn::Type::Paren(p) => plain(&p.elem),
            syn::Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else {
                    return false;
                };
                match &last.arguments {
                    syn::PathArguments::None => matches!(
                        last.ident.to_string().as_str(),
                        "f64" | "f32" | "usize" | "isize" | "i32" | "i64" | "u32" | "u64" | "bool"
                    ),
                    syn::PathArguments::AngleBracketed(a) if last.ident == "Vec" => a
                        .args
                        .iter()
                        .all(|g| matches!(g, syn::GenericArgument::Type(t) if plain(t))),
                    _ => false,
                }
            }
            _ => false,
        }
    }
    let keeps = !plain(&sig.output);
    let guard = format_ident!("__fwdad_dyn_owned", span = Span::mixed_site());
    quote!(let #guard = #rt::traits::DynOwned::enter(#keeps);)
}

/// Each float slice parameter's tangent cut to its primal's length on entry (`fit`), so
/// that the body's accesses cost the primal's bounds checks only.
fn fit_slices(sig: &Sig, params: &[syn::Ident], rt: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, (ty, param)) in sig.named_inputs.iter().zip(params).enumerate() {
        // Float slices only: a slice of integers may come with an empty `NoTangent` slice.
        let slice = matches!(ty, syn::Type::Reference(r) if matches!(&*r.elem,
            syn::Type::Slice(s) if matches!(&*s.elem,
                syn::Type::Path(p) if p.path.is_ident("f64") || p.path.is_ident("f32"))));
        let fn_value = sig.fn_values.get(i).copied().unwrap_or(false);
        if slice && !sig.is_inactive(i) && !fn_value {
            out.extend(quote!(let #param = #rt::fit(#param);));
        }
    }
    out
}

/// The parameters of a free function whose tangent may be a constant's: those of a plain
/// float shape (`crate::const_args::shape`), not `inactive`, in a function without type
/// or const parameters or function values that returns no reference (its result may
/// borrow from an argument, and a constant's tangent converted on entry lives in the rule
/// only).
fn const_params(sig: &syn::Signature, checked: &Sig) -> Vec<Option<crate::const_args::ConstParam>> {
    // No type or const parameters: a caller naming them (`scale_frule::<3>(..)`) would
    // have to name the element tangents too. (Their one-direction entry takes constants
    // by `impl` argument types instead: `generic_entry_consts`.)
    let plain = sig.generics.type_params().next().is_none()
        && sig.generics.const_params().next().is_none()
        && !checked.fn_values.contains(&true)
        && checked.fn_output.is_none()
        && !mentions(&checked.output, |t| matches!(t, syn::Type::Reference(_)));
    if !plain {
        return Vec::new();
    }
    sig.inputs
        .iter()
        .enumerate()
        .map(|(i, arg)| match arg {
            // A pattern parameter (`[a, b]: [f64; 2]`) is destructured as the mode's dual.
            syn::FnArg::Typed(t)
                if !checked.is_inactive(i) && matches!(&*t.pat, syn::Pat::Ident(_)) =>
            {
                crate::const_args::shape(&t.ty)
            }
            _ => None,
        })
        .collect()
}

/// The parameters borrowing a value of a type of the user's whose tangent the
/// one-direction entry (`f_frule`, `Ty::m_frule`) takes as a constant's too
/// (`Dual::constant(&s)`): in the functions [`const_params`] takes (`consts`, its
/// result), the parameters named (a method's receiver too), not `inactive`.
fn const_refs(
    sig: &syn::Signature,
    checked: &Sig,
    consts: &[Option<crate::const_args::ConstParam>],
) -> Vec<bool> {
    if consts.is_empty() && !sig.inputs.is_empty() {
        // Not a plain function (see `const_params`), or one without parameters.
        return Vec::new();
    }
    // A result that may borrow from an argument (`fn new(body: &'a Ellipsoid) -> Self`
    // of `Track<'a>`) would borrow the tangent built on entry.
    let lifetime = |t: &syn::Type| {
        struct Find(bool);
        impl<'ast> syn::visit::Visit<'ast> for Find {
            fn visit_lifetime(&mut self, _: &'ast syn::Lifetime) {
                self.0 = true;
            }
        }
        let mut f = Find(false);
        syn::visit::Visit::visit_type(&mut f, t);
        f.0
    };
    if lifetime(&checked.output) {
        return Vec::new();
    }
    sig.inputs
        .iter()
        .enumerate()
        .map(|(i, arg)| match arg {
            syn::FnArg::Typed(t) => {
                !checked.is_inactive(i)
                    && matches!(&*t.pat, syn::Pat::Ident(_))
                    && !lifetime(&t.ty)
                    && crate::const_args::user_ref(&t.ty).is_some()
            }
            // A method's `&self`, as `self: &Ty` (`method_as_fn`).
            syn::FnArg::Receiver(r) => {
                !checked.is_inactive(i)
                    && !lifetime(&r.ty)
                    && (crate::const_args::user_ref(&r.ty))
                        .or_else(|| crate::const_args::self_ref(&r.ty))
                        .is_some()
            }
        })
        .collect()
}

/// A method's entry (`Ty::m_frule`) takes, for each parameter of a plain float shape, a
/// constant's tangent too (`Dual::constant(&y[..])`, `Dual::new(k, ConstTangent)`), as a
/// free function's rule does (`crate::const_args`): converted on entry to the
/// one-direction dual the method's rule takes. Gives the entry's generic parameters with
/// their bounds, each parameter's type (`None`: `Dual<T>` as written) and the conversions.
fn method_entry_consts(
    func_sig: &syn::Signature,
    sig: &Sig,
    rt: &TokenStream,
) -> (Vec<TokenStream>, Vec<Option<TokenStream>>, TokenStream) {
    let (mut generics, mut types, mut convert) = (Vec::new(), Vec::new(), TokenStream::new());
    let consts = const_params(func_sig, sig);
    let refs = const_refs(func_sig, sig, &consts);
    for (i, (ty, name)) in sig.inputs.iter().zip(&sig.names).enumerate() {
        // `Ty::m_frule(Dual::constant(&s), ..)`: a borrowed value of the user's type (the
        // receiver too) with a constant's tangent, built in memory on entry.
        if let Some(elem) = refs.get(i).filter(|r| **r).and_then(|_| {
            crate::const_args::user_ref(ty).or_else(|| crate::const_args::self_ref(ty))
        }) {
            let (t, cell) = (
                tangent_param(i),
                format_ident!("__fwdad_zero{}", i, span = Span::mixed_site()),
            );
            generics.push(quote!(#t: #rt::RefTangent<#elem>));
            types.push(Some(quote!(#rt::Dual<#ty, #t>)));
            convert.extend(quote! {
                let #cell = ::core::cell::OnceCell::new();
                let #name = #rt::active_ref(#name, &#cell);
            });
            continue;
        }
        let Some(c) = consts
            .get(i)
            .cloned()
            .flatten()
            .filter(|c| !c.shape.is_dyn())
        else {
            types.push(None);
            continue;
        };
        let (t, float) = (tangent_param(i), &c.float);
        let mt = quote!(<#float as #rt::Differentiable>::TangentIn<f64>);
        let cell = format_ident!("__fwdad_zero{}", i, span = Span::mixed_site());
        let (bound, conversion) = match c.shape {
            crate::const_args::Shape::Slice => (
                quote!(#rt::SliceTangent<#float, #mt>),
                quote! {
                    let #cell = #rt::ZeroCell::<#mt>::new();
                    let #name = #rt::active_slice::<#float, #mt, _>(#name, &#cell);
                },
            ),
            crate::const_args::Shape::Scalar => (
                quote!(#rt::ArgTangent<#float, #mt>),
                quote!(let #name = #rt::active_scalar::<#float, #mt, _>(#name);),
            ),
            crate::const_args::Shape::Array => (
                quote!(#rt::ArgTangent<#float, #mt>),
                quote!(let #name = #rt::active_array::<#float, #mt, _, _>(#name);),
            ),
            crate::const_args::Shape::ArrayRef => (
                quote!(#rt::ArgTangent<#float, #mt>),
                quote! {
                    let #cell = ::core::cell::OnceCell::new();
                    let #name = #rt::active_array_ref::<#float, #mt, _, _>(#name, &#cell);
                },
            ),
            crate::const_args::Shape::DynRef | crate::const_args::Shape::DynBox => continue,
        };
        let tty = crate::const_args::tangent_type(ty, &t);
        generics.push(quote!(#t: #bound));
        types.push(Some(quote!(#rt::Dual<#ty, #tty>)));
        convert.extend(conversion);
    }
    (generics, types, convert)
}

/// Checks what the rule's signature needs; reports what is not supported.
/// The error at another crate's inline vector of floats in a signature or on a `let`.
pub(crate) const INLINE_VEC: &str = "`#[derive_frule]` does not support another crate's inline vector (`ArrayVec`, `SmallVec`, `TinyVec`) holding floats: it has no tangent type; use a `Vec` (`Vec::with_capacity(n)`, `push`), or an array with the count of its elements in use (`([f64; 3], usize)`)";

/// A parameter or result written as fwdad's `Dual` (`x: Dual<f64>`, `&[Dual<f64>]`): the
/// function was written on duals by hand and annotated, while `#[derive_frule]` derives
/// the dual version from the plain function. Reported at the type, with what to write.
#[inline(never)]
fn dual_in_signature(sig: &syn::Signature, diag: &mut Diagnostics) {
    fn dual_type(ty: &syn::Type) -> Option<&syn::TypePath> {
        match ty {
            syn::Type::Reference(r) => dual_type(&r.elem),
            syn::Type::Slice(s) => dual_type(&s.elem),
            syn::Type::Array(a) => dual_type(&a.elem),
            syn::Type::Paren(p) => dual_type(&p.elem),
            syn::Type::Tuple(t) => t.elems.iter().find_map(dual_type),
            syn::Type::Path(p) if p.qself.is_none() => {
                let segs = &p.path.segments;
                let last = segs.last()?;
                let ours = segs.len() == 1 || segs.first().is_some_and(|s| s.ident == "fwdad");
                (ours && last.ident == "Dual").then_some(p)
            }
            _ => None,
        }
    }
    let name = syn::ext::IdentExt::unraw(&sig.ident);
    let types = sig.inputs.iter().filter_map(|a| match a {
        syn::FnArg::Typed(t) => Some(&*t.ty),
        syn::FnArg::Receiver(_) => None,
    });
    let output = match &sig.output {
        syn::ReturnType::Type(_, t) => Some(&**t),
        syn::ReturnType::Default => None,
    };
    if let Some(d) = types.chain(output).find_map(dual_type) {
        diag.error_spanned(
            d,
            format!("`#[derive_frule]` derives the `Dual` version of the function itself: write `{name}` on plain floats (`f64` where it has `Dual<f64>`), and call the generated `{name}_frule(Dual::new(x, 1.0))` for its derivative; a rule written by hand on `Dual`s is registered with `#[primitive(rule = {name}_frule)]` on the plain function"),
        );
    }
}

pub(crate) fn check_signature(
    sig: &syn::Signature,
    diag: &mut Diagnostics,
    method: bool,
) -> Option<Sig> {
    let before = diag.has_errors();
    if let Some(a) = &sig.asyncness {
        diag.error(a.span(), "`#[derive_frule]` does not support `async fn`: differentiate the synchronous computation");
    }
    if let Some(u) = &sig.unsafety {
        diag.error(
            u.span(),
            "`#[derive_frule]` does not support `unsafe fn`: write its rule with `#[primitive]`",
        );
    }
    if let Some(c) = &sig.constness {
        diag.error(
            c.span(),
            "`#[derive_frule]` does not support `const fn`; remove `const`",
        );
    }
    if let Some(abi) = &sig.abi {
        diag.error(abi.span(), "`#[derive_frule]` does not support `extern` functions: write their rule with `#[primitive]`");
    }
    if let Some(v) = &sig.variadic {
        diag.error(
            v.span(),
            "`#[derive_frule]` does not support variadic functions",
        );
    }
    // Type parameters are float types (`fn f<T: Float>(x: T) -> T`): the rule adds the
    // bound `T: fwdad::Real` (f32 or f64). Const parameters pass through.
    check_float_params(sig, diag, method);
    dual_in_signature(sig, diag);
    crate::traits::check_dyn_params(sig, diag);
    let fn_values = crate::higher_order::fn_value_params(sig);
    let mut namer = LifetimeNamer::default();
    for l in sig.generics.lifetimes() {
        namer.declared.push(l.lifetime.clone());
    }
    namer.reserved = lifetimes::written_in(&sig.generics);
    let mut names = Vec::new();
    let mut inputs = Vec::new();
    let mut named_inputs = Vec::new();
    for (i, arg) in sig.inputs.iter().enumerate() {
        match arg {
            syn::FnArg::Typed(t) if fn_values.get(i).copied().unwrap_or(false) => {
                names.push(crate::register::param_name(i, arg));
                inputs.push((*t.ty).clone());
                let mut ty = (*t.ty).clone();
                namer.visit_type_mut(&mut ty);
                named_inputs.push(ty);
            }
            syn::FnArg::Typed(t) => {
                if let syn::Type::ImplTrait(it) = &*t.ty {
                    diag.error_spanned(it, "`#[derive_frule]` does not support `impl Trait` parameters; use a concrete type");
                }
                if contains_fn_value(&t.ty) {
                    diag.error_spanned(
                        &t.ty,
                        "`#[derive_frule]` does not support function values as parameters (`dyn Fn`, `impl Fn`, `fn(..)`): a derived body can only call functions by path; call the function directly, or pass its result",
                    );
                }
                if let Some(v) = crate::types::inline_vec_of_floats(&t.ty) {
                    diag.error_spanned(v, INLINE_VEC);
                }
                if let Some(rc) = crate::types::rc_of_trait_object(&t.ty) {
                    diag.error_spanned(rc, crate::types::rc_of_trait_object_error(rc));
                }
                if contains_raw_pointer(&t.ty) {
                    diag.error_spanned(&t.ty, "`#[derive_frule]` does not support raw pointers; use references, or write the rule with `#[primitive]`");
                }
                names.push(crate::register::param_name(i, arg));
                inputs.push((*t.ty).clone());
                let mut ty = (*t.ty).clone();
                namer.visit_type_mut(&mut ty);
                named_inputs.push(ty);
            }
            syn::FnArg::Receiver(r) if !method => diag.error_spanned(
                r,
                "`#[derive_frule]` on a method: put the attribute on the `impl` block instead (`#[derive_frule] impl Ty { .. }`); to differentiate only this method, move it into an `impl` block of its own (a type can have several), since a macro on a method cannot define the rule type and trait impl outside the `impl`",
            ),
            // A method's receiver (`#[derive_frule]` on an `impl` block): `self: &Ty`.
            syn::FnArg::Receiver(r) => {
                names.push(crate::register::param_name(i, arg));
                inputs.push((*r.ty).clone());
                let mut ty = (*r.ty).clone();
                namer.visit_type_mut(&mut ty);
                named_inputs.push(ty);
            }
        }
    }
    let output: syn::Type = match &sig.output {
        syn::ReturnType::Default => syn::parse_quote!(()),
        syn::ReturnType::Type(_, t) => (**t).clone(),
    };
    let fn_output = crate::higher_order::is_fn_type(
        &output,
        &crate::higher_order::fn_type_params(&sig.generics),
    );
    if let Some(v) = crate::types::inline_vec_of_floats(&output) {
        diag.error_spanned(v, INLINE_VEC);
    }
    if let Some(rc) = crate::types::rc_of_trait_object(&output) {
        diag.error_spanned(rc, crate::types::rc_of_trait_object_error(rc));
    }
    if let (false, syn::Type::ImplTrait(it)) = (fn_output, &output) {
        let iterator = it.bounds.iter().any(|b| {
            matches!(b, syn::TypeParamBound::Trait(t) if t.path.segments.last()
                .is_some_and(|s| s.ident == "Iterator" || s.ident == "IntoIterator"))
        });
        diag.error(
            it.span(),
            match iterator {
                true => "`#[derive_frule]` does not support returning `impl Iterator`: collect the items and return a `Vec` (`-> Vec<f64>`, the chain ending in `.collect()`)",
                false => "`#[derive_frule]` does not support returning `impl Trait`; return a concrete type",
            },
        );
    }
    let mut named_output = output.clone();
    let input_lifetimes = namer.fresh.clone();
    let all_input: Vec<syn::Lifetime> = namer
        .declared
        .iter()
        .chain(&input_lifetimes)
        .cloned()
        .collect();
    // A function value is returned as a boxed function of duals (see `Sig::fn_output`),
    // whose `+ '_` names the input it borrows from as a reference does.
    if let Err(span) = lifetimes::name_output(&named_inputs, &mut named_output) {
        diag.error(
            span,
            "`#[derive_frule]` cannot tell which input the returned reference borrows from; name the lifetime, e.g. `fn f<'a>(x: &'a [f64], y: &[f64]) -> &'a f64`",
        );
    }
    if diag.has_errors() && !before {
        // The signature itself is not supported: no stub, which would only add errors.
        return None;
    }
    let lifetimes = all_input;
    Some(Sig {
        named_inputs,
        named_output,
        lifetimes,
        names,
        inputs,
        output,
        inactive: Vec::new(),
        fn_values: Vec::new(),
        fn_output: None,
        consts: Vec::new(),
        const_refs: Vec::new(),
    })
}

/// A view of a library value (`MatrixViewMut<..>`, `ArrayView1<f64>`) as the result or an
/// active parameter: the rule's values are matrices of duals, a view into them cannot be
/// lifted or handed back, and rustc would report missing tangent types at the attribute.
/// Reported at the type, with what to write instead; whether one was.
fn check_lib_views(sig: &syn::Signature, inactive: &[bool], diag: &mut Diagnostics) -> bool {
    let mut found = false;
    struct Find(Option<syn::Ident>);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_path_segment(&mut self, seg: &'ast syn::PathSegment) {
            if self.0.is_none() && crate::libtypes::is_view_type_name(&seg.ident) {
                self.0 = Some(seg.ident.clone());
            }
            syn::visit::visit_path_segment(self, seg);
        }
    }
    let find = |ty: &syn::Type| {
        let mut f = Find(None);
        syn::visit::Visit::visit_type(&mut f, ty);
        f.0
    };
    for (i, arg) in sig.inputs.iter().enumerate() {
        let syn::FnArg::Typed(t) = arg else { continue };
        if inactive.get(i).copied().unwrap_or(false) {
            continue;
        }
        if let Some(view) = find(&t.ty) {
            found = true;
            diag.error_spanned(
                &t.ty,
                format!("`#[derive_frule]` does not support a view of a library value (`{view}`) as a parameter: pass the matrix or array it views (`&mut Matrix3<f64>`, `&Array2<f64>`) with the row's or range's index, and take the view in the body (`m.row_mut(i)`)"),
            );
        }
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        if let Some(view) = find(ty) {
            found = true;
            diag.error_spanned(
                ty,
                format!("`#[derive_frule]` does not support returning a view of a library value (`{view}`): its writes could not reach the matrix through the rule; take the view where it is written (`let mut r = m.row_mut(0); r /= n;`), or return an owned copy (`m.row(0).into_owned()`)"),
            );
        }
    }
    found
}

/// A library constant whose scalar is not written (`Vector3::zeros()`,
/// `Matrix3::identity()`) in a function generic over more than one float type: the rule
/// names the scalar of such a constant, the function's float type when it has one
/// (`libtypes::default_scalar`), and with two it cannot tell which. Reported once, at the
/// first, instead of rustc's mismatch between the two float types.
fn check_lib_scalar_unwritten(func: &syn::ItemFn, diag: &mut Diagnostics) {
    /// Library constructors that take no float, whose scalar only the use tells.
    const FLOAT_FREE: &[&str] = &[
        "zeros", "identity", "x_axis", "y_axis", "z_axis", "x", "y", "z", "origin", "default",
    ];
    struct Find {
        found: Option<syn::Path>,
    }
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            if let syn::Expr::Path(p) = &*call.func {
                let n = p.path.segments.len();
                let float_free =
                    n >= 2 && FLOAT_FREE.iter().any(|f| p.path.segments[n - 1].ident == f);
                if self.found.is_none()
                    && float_free
                    && crate::libtypes::default_scalar(&p.path, None).is_some()
                {
                    self.found = Some(p.path.clone());
                }
            }
            syn::visit::visit_expr_call(self, call);
        }
    }
    let floats = crate::lower::float_params(&func.sig);
    if floats.len() < 2 {
        return;
    }
    let mut find = Find { found: None };
    syn::visit::Visit::visit_block(&mut find, &func.block);
    let Some(path) = find.found else {
        return;
    };
    let n = path.segments.len();
    let (ty, f) = (&path.segments[n - 2].ident, &path.segments[n - 1].ident);
    let names = floats
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let first = &floats[0];
    diag.error_spanned(
        &path,
        format!("`#[derive_frule]` cannot tell the scalar of `{ty}::{f}` in a function generic over several float types ({names}): write it, `{ty}::<{first}>::{f}(..)`"),
    );
}

/// A type parameter bounded by a trait of the user's and by no float trait (`C: Count`) is
/// not a float: report it at the parameter, rather than letting the rule's `T: Real` bound
/// fail at a call or a method inside. (`T: MyFloat` with `Float` as a supertrait needs
/// `+ Float` spelled out.)
fn check_float_params(sig: &syn::Signature, diag: &mut Diagnostics, method: bool) {
    let generics = &sig.generics;
    let fn_params = crate::higher_order::fn_type_params(generics);
    // A free function's parameter of a type bounded by `IntoIterator`/`Iterator` is
    // constant data (`iter_params`).
    let iter_params = match method {
        true => Vec::new(),
        false => iter_type_params(sig),
    };
    let trait_params: Vec<syn::Ident> = crate::traits::trait_params(generics)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    for tp in generics.type_params() {
        if fn_params.contains(&tp.ident)
            || trait_params.contains(&tp.ident)
            || iter_params.contains(&tp.ident)
        {
            continue;
        }
        let mut bounds: Vec<&syn::TypeParamBound> = tp.bounds.iter().collect();
        if let Some(w) = &generics.where_clause {
            for pred in &w.predicates {
                if let syn::WherePredicate::Type(pt) = pred {
                    let is_tp =
                        matches!(&pt.bounded_ty, syn::Type::Path(p) if p.path.is_ident(&tp.ident));
                    if is_tp {
                        bounds.extend(pt.bounds.iter());
                    }
                }
            }
        }
        let names: Vec<String> = bounds
            .iter()
            .filter_map(|b| match b {
                syn::TypeParamBound::Trait(t) => {
                    t.path.segments.last().map(|s| s.ident.to_string())
                }
                _ => None,
            })
            .collect();
        let floaty = names.iter().any(|n| crate::callee::is_float_trait(n));
        // `T: Mul<f64, Output = T> + Add<Output = T>` (noise's `linear`): an operator
        // bound with a float on its other side says `T` is something a float scales, not a
        // float; the rule would mix `T`'s tangent with the float's.
        if !floaty {
            if let Some(op) = bounds.iter().find_map(|b| operator_with_float_operand(b)) {
                diag.error(
                    tp.ident.span(),
                    format!("`#[derive_frule]` takes every type parameter to be a float type, and `{id}` is bounded by operator traits alone (`{op}`), which say that a float scales it, not that it is one: bound `{id}: Float` (`num_traits::Float`) if `{id}` is a float type, or write the function for the concrete type (`f64`, or your own type with `#[derive(Differentiable)]`)", id = tp.ident),
                );
                continue;
            }
        }
        let foreign = names
            .iter()
            .find(|n| !crate::callee::float_has_trait(n) && !crate::callee::is_float_trait(n));
        if let (false, Some(t)) = (floaty, foreign) {
            if matches!(t.as_str(), "IntoIterator" | "Iterator") {
                let what = match method {
                    true => "on a method: take the elements as a slice (`&[f64]`) or an array, or move the computation into a free function",
                    false => "that no parameter has as its type (`coefficients: I`): take the elements as a slice (`&[f64]`) or an array instead",
                };
                diag.error(
                    tp.ident.span(),
                    format!("`#[derive_frule]` does not support a type parameter bounded by `{t}` (`{}`) {what}", tp.ident),
                );
                continue;
            }
            diag.error(
                tp.ident.span(),
                format!("`#[derive_frule]` takes every type parameter to be a float type, and `{}: {t}` is not bounded by `Float`: other type parameters are not supported yet; use the concrete type (or, if `{}` is a float type, add `Float` to its bounds)", tp.ident, tp.ident),
            );
        }
    }
}

/// `Mul<f64, ..>` (an arithmetic operator trait whose right-hand side is written `f32` or
/// `f64`), as written, for the error.
fn operator_with_float_operand(b: &syn::TypeParamBound) -> Option<String> {
    let syn::TypeParamBound::Trait(t) = b else {
        return None;
    };
    let last = t.path.segments.last()?;
    let op = matches!(
        last.ident.to_string().as_str(),
        "Add"
            | "Sub"
            | "Mul"
            | "Div"
            | "Rem"
            | "AddAssign"
            | "SubAssign"
            | "MulAssign"
            | "DivAssign"
    );
    let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
        return None;
    };
    let float_rhs = a.args.iter().any(|g| {
        matches!(g, syn::GenericArgument::Type(syn::Type::Path(p))
            if p.path.is_ident("f64") || p.path.is_ident("f32"))
    });
    (op && float_rhs).then(|| {
        let args: Vec<String> = a
            .args
            .iter()
            .map(|g| quote::ToTokens::to_token_stream(g).to_string())
            .collect();
        format!("{}<{}>", last.ident, args.join(", "))
    })
}

/// The type parameters bounded by `IntoIterator` or `Iterator` (in the list or the `where`
/// clause) that a parameter has as its whole type (`coefficients: I`): a free function takes
/// such a parameter as constant data (its rule, any `ConstIter` argument; `tests/
/// generic_iterators.rs`). The elements carry no derivative.
pub(crate) fn iter_type_params(sig: &syn::Signature) -> Vec<syn::Ident> {
    let generics = &sig.generics;
    generics
        .type_params()
        .filter(|tp| iter_item(generics, &tp.ident).is_some())
        .filter(|tp| iter_param_positions(sig, std::slice::from_ref(&tp.ident)).contains(&true))
        .map(|tp| tp.ident.clone())
        .collect()
}

/// `sig` as the body is differentiated: each parameter generic over an iterator
/// (`coefficients: I` with `I: IntoIterator<Item = f64>`) is a `Vec` of its items, which
/// the rule collects on entry (the chains the body runs on it index their source).
fn with_iter_params_as_vecs(func: &syn::ItemFn) -> syn::ItemFn {
    let params = iter_type_params(&func.sig);
    if params.is_empty() {
        return func.clone();
    }
    let mut out = func.clone();
    for arg in out.sig.inputs.iter_mut() {
        let syn::FnArg::Typed(t) = arg else { continue };
        let syn::Type::Path(p) = &*t.ty else { continue };
        let Some(ident) = p.path.get_ident().filter(|i| params.contains(i)) else {
            continue;
        };
        let Some(item) = iter_item(&func.sig.generics, ident) else {
            continue;
        };
        let span = t.ty.span();
        let mut vec: syn::Type = syn::parse_quote_spanned!(span=> ::std::vec::Vec<f64>);
        if let syn::Type::Path(v) = &mut vec {
            if let Some(syn::PathArguments::AngleBracketed(a)) =
                v.path.segments.last_mut().map(|s| &mut s.arguments)
            {
                a.args[0] = syn::GenericArgument::Type(item);
            }
        }
        *t.ty = vec;
    }
    out
}

/// Whether the type parameter `ident` is bounded by `IntoIterator<Item = ..>` or
/// `Iterator<Item = ..>`: not a float type, also once the parameter that has it as its type
/// is read as a `Vec` of its items (`with_iter_params_as_vecs`).
pub(crate) fn is_iter_type_param(generics: &syn::Generics, ident: &syn::Ident) -> bool {
    iter_item(generics, ident).is_some()
}

/// The `Item` of the `IntoIterator`/`Iterator` bound on the type parameter `ident`.
fn iter_item(generics: &syn::Generics, ident: &syn::Ident) -> Option<syn::Type> {
    let tp = generics.type_params().find(|t| t.ident == *ident)?;
    let preds = generics.where_clause.iter().flat_map(|w| {
        w.predicates.iter().filter_map(|p| match p {
            syn::WherePredicate::Type(pt)
                if matches!(&pt.bounded_ty, syn::Type::Path(p) if p.path.is_ident(ident)) =>
            {
                Some(pt.bounds.iter())
            }
            _ => None,
        })
    });
    tp.bounds
        .iter()
        .chain(preds.flatten())
        .find_map(|b| match b {
            syn::TypeParamBound::Trait(t) => {
                let last = t.path.segments.last()?;
                if last.ident != "IntoIterator" && last.ident != "Iterator" {
                    return None;
                }
                let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                    return None;
                };
                a.args.iter().find_map(|g| match g {
                    syn::GenericArgument::AssocType(at) if at.ident == "Item" => {
                        Some(at.ty.clone())
                    }
                    _ => None,
                })
            }
            _ => None,
        })
}

/// One flag per parameter: whether its type is one of `params` (`coefficients: I`).
pub(crate) fn iter_param_positions(sig: &syn::Signature, params: &[syn::Ident]) -> Vec<bool> {
    sig.inputs
        .iter()
        .map(|a| match a {
            syn::FnArg::Typed(t) => {
                matches!(&*t.ty, syn::Type::Path(p) if p.qself.is_none() && params.iter().any(|i| p.path.is_ident(i)))
            }
            syn::FnArg::Receiver(_) => false,
        })
        .collect()
}

/// Whether `ty` mentions a trait object or a function pointer (a function value).
fn contains_fn_value(ty: &syn::Type) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_type_trait_object(&mut self, t: &'ast syn::TypeTraitObject) {
            // A trait object of a trait of the user's (`&dyn Material`, also `+ Send`) is
            // data.
            let auto = |tb: &syn::TraitBound| {
                tb.path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "Send" || s.ident == "Sync")
            };
            self.0 |= t.bounds.iter().any(|b| match b {
                syn::TypeParamBound::Trait(tb) if auto(tb) => false,
                syn::TypeParamBound::Trait(tb) => {
                    !crate::traits::is_user_trait(&tb.path)
                        || tb.path.segments.last().is_some_and(|s| {
                            s.ident == "Fn" || s.ident == "FnMut" || s.ident == "FnOnce"
                        })
                }
                _ => false,
            });
        }
        fn visit_type_bare_fn(&mut self, _: &'ast syn::TypeBareFn) {
            self.0 = true;
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

fn contains_raw_pointer(ty: &syn::Type) -> bool {
    mentions(ty, |t| matches!(t, syn::Type::Ptr(_)))
}

/// A trait's `impl` generic over a float type (`impl<T: Float> Kernel for Gaussian<T>`):
/// the rule methods it must hold (their signatures fixed by the trait, generic over the
/// mode only) cannot carry the bounds its methods' rules need of `T` in each mode (`T:
/// Real`, and `T`'s tangent in that mode a scalar tangent of `T`), so it is an error at
/// `T`, saying to implement the trait for the float type, or to write the methods in an
/// inherent `impl` (generic ones work). Const parameters are fine.
#[inline(never)]
fn check_float_generic_trait_impl(imp: &syn::ItemImpl, diag: &mut Diagnostics) {
    let fn_params = crate::higher_order::fn_type_params(&imp.generics);
    let trait_params: Vec<syn::Ident> = crate::traits::trait_params(&imp.generics)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let Some(t) = imp
        .generics
        .type_params()
        .find(|t| !fn_params.contains(&t.ident) && !trait_params.contains(&t.ident))
    else {
        return;
    };
    let Some((_, path, _)) = &imp.trait_ else {
        return;
    };
    let tr = path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    let ty = &imp.self_ty;
    let concrete = quote!(#ty)
        .to_string()
        .replace(' ', "")
        .replace(&format!("<{}>", t.ident), "<f64>")
        .replace(&format!("<{},", t.ident), "<f64,")
        .replace(&format!(",{}>", t.ident), ",f64>")
        .replace(&format!(",{},", t.ident), ",f64,");
    let ty = quote!(#ty).to_string().replace(' ', "");
    diag.error(
        t.ident.span(),
        format!("`#[derive_frule]` does not support an `impl` of a trait of yours generic over a float type (`impl<{t}: Float> {tr} for {ty}`): implement `{tr}` for the float type you differentiate at (`impl {tr} for {concrete}`), or write the methods in an inherent `impl<{t}: Float> {ty}` (which may be generic) or as generic free functions", t = t.ident),
    );
}

/// The function with num-traits' `Real` taken off its type parameters' bounds, for its
/// rule: the rule bounds each float type by the runtime's `Real`, whose `Float` implies
/// num-traits' `Real` (its blanket impl), and with both in the bounds `T::epsilon()` or
/// `T::max_value()` in the body would be ambiguous between `Float`'s and `Real`'s.
fn without_num_real_bounds(func: &syn::ItemFn) -> syn::ItemFn {
    fn is_num_real(b: &syn::TypeParamBound) -> bool {
        let syn::TypeParamBound::Trait(t) = b else {
            return false;
        };
        let segs: Vec<String> = t
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        match segs.as_slice() {
            [one] => one == "Real",
            [.., real, last] => last == "Real" && real == "real",
            [] => false,
        }
    }
    fn strip(bounds: &mut syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>) {
        if bounds.iter().any(is_num_real) {
            *bounds = std::mem::take(bounds)
                .into_iter()
                .filter(|b| !is_num_real(b))
                .collect();
        }
    }
    let mut func = func.clone();
    let params: Vec<syn::Ident> = func
        .sig
        .generics
        .type_params()
        .map(|t| t.ident.clone())
        .collect();
    for tp in func.sig.generics.type_params_mut() {
        strip(&mut tp.bounds);
    }
    if let Some(w) = &mut func.sig.generics.where_clause {
        for pred in w.predicates.iter_mut() {
            if let syn::WherePredicate::Type(pt) = pred {
                let own = matches!(&pt.bounded_ty, syn::Type::Path(p)
                    if p.path.get_ident().is_some_and(|i| params.contains(i)));
                if own {
                    strip(&mut pt.bounds);
                }
            }
        }
    }
    func
}

/// The marker struct, the `Frule` impl, and the `_frule` wrapper; `free` for a free
/// function (not a method); `self_of`: the `impl`'s type when the `impl` is generic (see
/// `MethodSelf`).
pub(crate) fn emit_items(
    func: &syn::ItemFn,
    sig: &Sig,
    body: &Body,
    rt: &TokenStream,
    free: bool,
    self_of: Option<&syn::Type>,
) -> TokenStream {
    let func = &without_num_real_bounds(func);
    let name = &func.sig.ident;
    let mode = mode_ident();
    let type_params: Vec<&syn::Ident> = func.sig.generics.type_params().map(|t| &t.ident).collect();
    // Spanned at the user's type, so "`T` has no tangent type" points at the parameter.
    // `&'a M` of a type parameter takes the tangent `&'a <M as ..>::TangentIn<S>`, written
    // as a reference: the projection on `&'a M` cannot be normalised while `M` is being
    // inferred from a caller's constant `&value`, which would then fit a `dyn` parameter's
    // `DynConst` tangent as well (two conversions, no inference).
    let dual_in = |ty: &syn::Type| {
        let span = ty.span();
        match ty {
            syn::Type::Reference(r)
                if r.mutability.is_none()
                    && matches!(&*r.elem, syn::Type::Path(p) if p.qself.is_none()
                        && p.path.get_ident().is_some_and(|id| type_params.contains(&id))) =>
            {
                let (lt, elem) = (&r.lifetime, &r.elem);
                quote_spanned!(span=> #rt::Dual<#ty, &#lt <#elem as #rt::Differentiable>::TangentIn<#mode>>)
            }
            _ => {
                quote_spanned!(span=> #rt::Dual<#ty, <#ty as #rt::Differentiable>::TangentIn<#mode>>)
            }
        }
    };
    // A borrowed `inactive(..)` parameter is taken as its plain reference; a float
    // parameter of a plain shape with a generic element tangent (`crate::const_args`).
    let arg_tys: Vec<_> = sig
        .named_inputs
        .iter()
        .enumerate()
        .map(|(i, ty)| match (sig.is_inactive(i), sig.const_param(i)) {
            (true, _) => quote!(#ty),
            (false, Some(_)) => {
                let tty = crate::const_args::tangent_type(ty, &tangent_param(i));
                let span = ty.span();
                quote_spanned!(span=> #rt::Dual<#ty, #tty>)
            }
            (false, None) => dual_in(ty),
        })
        .collect();
    // A parameter generic over an iterator (`coefficients: I`) takes any `ConstIter`
    // argument (the iterable, or a constant dual of it), converted on entry.
    let iters = match free {
        true => iter_param_positions(&func.sig, &iter_type_params(&func.sig)),
        false => Vec::new(),
    };
    let iter_idents: Vec<syn::Ident> = (0..sig.named_inputs.len())
        .filter(|&i| iters.get(i).copied().unwrap_or(false))
        .map(|i| format_ident!("__FwdadIter{}", i))
        .collect();
    let iter_preds: Vec<TokenStream> = sig
        .named_inputs
        .iter()
        .enumerate()
        .filter(|&(i, _)| iters.get(i).copied().unwrap_or(false))
        .map(|(i, ty)| {
            let it = format_ident!("__FwdadIter{}", i);
            quote!(#it: #rt::ConstIter<Iter = #ty>)
        })
        .collect();
    let header_tys: Vec<TokenStream> = arg_tys
        .iter()
        .enumerate()
        .map(|(i, t)| match iters.get(i).copied().unwrap_or(false) {
            true => format_ident!("__FwdadIter{}", i).to_token_stream(),
            false => t.clone(),
        })
        .collect();
    let iter_entry =
        iters.contains(&true).then(|| {
            let params: Vec<_> = (0..sig.named_inputs.len()).map(emit::param_ident).collect();
            let converted = params.iter().enumerate().map(|(i, p)| {
                match iters.get(i).copied().unwrap_or(false) {
                    true => quote!(#rt::const_iter_vec(#rt::ConstIter::into_const(#p))),
                    false => quote!(#p),
                }
            });
            quote! {
                let __fwdad_args = {
                    let (#(#params,)*) = __fwdad_args;
                    (#(#converted,)*)
                };
            }
        });
    let consts = ConstArgs::new(sig, &body.generic, rt, &quote!(#mode), true);
    let body_generic = body.generic.clone();
    let out_ty = match &sig.fn_output {
        Some((ty, _)) => quote!(#ty),
        None => dual_in(&sig.named_output),
    };
    let lts = &sig.lifetimes;
    let params: Vec<_> = (0..sig.named_inputs.len()).map(emit::param_ident).collect();
    // The user's type and const parameters, with the bounds the rules need on each float
    // type `T`: `T: Real`, and `T`'s tangent in this mode is a scalar tangent of `T`.
    // Function values take functions of duals (`crate::higher_order`).
    let rule_generics = match sig.fn_values.contains(&true) {
        true => {
            crate::higher_order::rule_types(&func.sig, &sig.fn_values, rt, quote!(#mode), true).0
        }
        false => func.sig.generics.clone(),
    };
    let generics = &rule_generics;
    let fn_params = crate::higher_order::fn_type_params(generics);
    let type_params: Vec<_> = generics
        .params
        .iter()
        .filter(|p| !matches!(p, syn::GenericParam::Lifetime(_)))
        .collect();
    let trait_params: Vec<syn::Ident> = crate::traits::trait_params(generics)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let iter_params = match free {
        true => iter_type_params(&func.sig),
        false => Vec::new(),
    };
    let float_params: Vec<&syn::Ident> = generics
        .type_params()
        .map(|t| &t.ident)
        .filter(|t| !fn_params.contains(t) && !trait_params.contains(t) && !iter_params.contains(t))
        .collect();
    let user_preds = generics.where_clause.as_ref().map(|w| {
        let p = w.predicates.iter();
        quote!(#(#p,)*)
    });
    let trait_preds = crate::traits::trait_param_preds(generics, rt);
    // A free function's only: a method's `impl` block does not restate it.
    let field_params: Vec<syn::Ident> = crate::aliases::complex_field_params(generics)
        .into_iter()
        .filter(|p| free && float_params.contains(&p))
        .collect();
    let base_where = quote! {
        where
            #user_preds
            #trait_preds
            #(#iter_preds,)*
            #(#float_params: #rt::Real,
              <#float_params as #rt::Differentiable>::TangentIn<#mode>: #rt::ScalarTangent<#float_params>,)*
            // After `T: Real`, whose message is the first error at a call with a non-float.
            #(#field_params: #rt::NaRealField,)*
    };
    let tangent_preds = &consts.preds;
    let where_clause = quote!(#base_where #(#tangent_preds,)*);
    // Calls in other derived bodies go to the marker struct; a mention from the (always
    // live) impl keeps rustc from calling a free function that is otherwise only
    // differentiated never used. Generic ones would need their parameters named.
    let mentions_primal = (free
        && type_params.is_empty()
        && !func.sig.inputs.iter().any(|a| match a {
            syn::FnArg::Typed(t) => mentions(&t.ty, |t| matches!(t, syn::Type::ImplTrait(_))),
            syn::FnArg::Receiver(_) => true,
        }))
    .then(|| {
        // A `#[deprecated]` function is not deprecated for its own rule.
        let deprecated = func.attrs.iter().any(|a| a.path().is_ident("deprecated"));
        let allow = deprecated.then(|| quote!(#[allow(deprecated)]));
        quote!(#allow let _ = #name;)
    });
    let entry = consts.entry(sig, &params);
    let fits = fit_slices(sig, &params, rt);
    let scope = dyn_scope(sig, rt);
    let fits = quote!(#fits #scope);
    let jac_body = body.chain_jacobian.clone();
    // Runtime dispatch (`wide_entry`): free functions whose rule is not generic over
    // anything but the mode and its tangents.
    let wide = body.wide
        && free
        && self_of.is_none()
        && type_params.is_empty()
        && !sig.fn_values.contains(&true)
        && !iters.contains(&true);
    let body = match body.out_of_line || wide {
        true => emit_body_fn(
            sig,
            body,
            wide,
            &params,
            &arg_tys,
            &type_params,
            &float_params,
            &base_where,
            &out_ty,
            rt,
            &consts,
            &entry,
            &fits,
        ),
        false => {
            let tokens = &body.tokens;
            quote!(let (#(#params,)*) = __fwdad_args; #entry #fits #tokens)
        }
    };
    // The user's `#[inline(always)]` holds for the rule too; otherwise a hint, as for any
    // generic function.
    let inline = match user_inline(func) {
        Some(Some(arg)) if arg == "always" => quote!(#[inline(always)]),
        _ => quote!(#[inline]),
    };
    // A method of a generic `impl` is reached through the type's dispatch functions, which
    // build its marker by `Default`: a parameter in its return type only may go there too.
    let phantom = match (free, self_of) {
        (true, _) => phantom_params(func, sig, false),
        (false, Some(_)) => phantom_params(func, sig, true),
        (false, None) => Vec::new(),
    };
    // The wrapper's function values take functions of one-direction duals.
    let mut wrapper_func = func.clone();
    if sig.fn_values.contains(&true) {
        wrapper_func.sig.generics =
            crate::higher_order::rule_types(&func.sig, &sig.fn_values, rt, quote!(f64), false).0;
    }
    let face = registration(&wrapper_func, sig, rt, &body_generic, free);
    let tangent_idents = &consts.idents;
    let (marker_decl, marker_ty) = face.marker(&phantom);
    let wrapper = face.wrapper(&marker_ty, !phantom.is_empty(), rt);
    // Its function values are spelled over duals, which clippy finds complex.
    let wrapper = match sig.fn_values.contains(&true) {
        true => quote!(#[allow(clippy::type_complexity)] #wrapper),
        false => wrapper,
    };
    let marker_fn = match free {
        true => face.marker_fn(&marker_ty, !phantom.is_empty()),
        false => TokenStream::new(),
    };
    let helpers = match free && phantom.is_empty() {
        true => crate::higher_order::signature_helpers(&func.sig, &sig.fn_values, &marker_ty, rt)
            .into_iter()
            .chain(crate::higher_order::return_helper(
                &func.sig, &marker_ty, rt,
            ))
            .collect(),
        false => TokenStream::new(),
    };
    let trait_checks = crate::traits::trait_checks(&func.sig, rt);
    // The Jacobian entry (free functions: a method's receiver has no column).
    let chain_jacobian = jac_body.as_ref().filter(|_| free).map(|tokens| {
        let (cols, sink) = (emit::jac_ident("cols"), emit::jac_ident("out"));
        quote! {
            #inline
            #[allow(unused_mut, unused_variables, unused_parens, unused_braces, unreachable_code, unreachable_patterns, non_snake_case, clippy::all)]
            fn chain_jacobian<__FwdadSink: #rt::JacobianSink>(
                &self,
                __fwdad_args: (#(#header_tys,)*),
                #cols: &[::core::option::Option<usize>],
                #sink: &mut __FwdadSink,
            ) -> bool {
                #iter_entry
                // Only where the seeded pass is linearised too, so that the two agree to
                // rounding (one direction and second order keep their own forms).
                if !<#mode as #rt::Mode>::LINEARIZE {
                    return false;
                }
                let (#(#params,)*) = __fwdad_args; #entry #fits
                #tokens
            }
        }
    });
    let method_self = self_of.map(|self_ty| {
        quote! {
            #[automatically_derived]
            #[allow(clippy::multiple_bound_locations)]
            impl<#(#lts,)* #(#type_params,)* #mode: #rt::Mode, #(#tangent_idents,)*> #rt::user_ops::MethodSelf<(#(#arg_tys,)*), #mode> for #marker_ty
            #where_clause
            {
                type SelfTy = #self_ty;
            }
        }
    });
    quote! {
        #marker_decl
        #marker_fn
        #trait_checks

        #[automatically_derived]
        #[allow(clippy::multiple_bound_locations)]
        impl<#(#lts,)* #(#type_params,)* #mode: #rt::Mode, #(#tangent_idents,)* #(#iter_idents,)*> #rt::Frule<(#(#header_tys,)*), #mode> for #marker_ty
        #where_clause
        {
            type Output = #out_ty;
            #inline
            #[allow(unused_mut, unused_variables, unused_parens, unused_braces, unreachable_code, unreachable_patterns, non_snake_case, clippy::all)]
            fn frule(&self, __fwdad_args: (#(#header_tys,)*)) -> #out_ty {
                #iter_entry
                #mentions_primal
                #body
            }
            #chain_jacobian
        }

        #method_self

        // Rebuild when `FWDAD_DUMP` changes, so the dump is never stale.
        const _: ::core::option::Option<&str> = ::core::option_env!("FWDAD_DUMP");

        #helpers

        #wrapper
    }
}

/// The type and const parameters of `func` that the `Frule` impl could not constrain
/// (E0207; its `Output` does not constrain), so the marker struct carries them: a `const
/// K: usize` no parameter type names (used in the body or only in the return type; a call
/// without a turbofish infers it), a type named by no parameter or return type (used only
/// in the `where` clause). A type only in the return type is left to E0207 at its
/// definition: its marker would need a field, which a call without a turbofish (`f {}`)
/// could not fill.
///
/// `method`: the function is a method of a generic `impl` (`impl<const N: usize> Mat<N> {
/// fn identity() -> Self }`), whose marker the type's dispatch functions build by
/// `Default`, so a type in the return type only is carried as well.
pub(crate) fn phantom_params<'f>(
    func: &'f syn::ItemFn,
    sig: &Sig,
    method: bool,
) -> Vec<&'f syn::GenericParam> {
    fn names(ts: TokenStream, ident: &syn::Ident) -> bool {
        ts.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == *ident,
            proc_macro2::TokenTree::Group(g) => names(g.stream(), ident),
            _ => false,
        })
    }
    let inputs: TokenStream = {
        let inputs = &sig.inputs;
        quote!(#(#inputs)*)
    };
    let output = {
        let output = &sig.output;
        quote!(#output)
    };
    func.sig
        .generics
        .params
        .iter()
        .filter(|p| match p {
            syn::GenericParam::Type(t) => {
                !names(inputs.clone(), &t.ident) && (method || !names(output.clone(), &t.ident))
            }
            syn::GenericParam::Const(c) => !names(inputs.clone(), &c.ident),
            syn::GenericParam::Lifetime(_) => false,
        })
        .collect()
}

/// `frule`'s statements for an `out_of_line` body: `fn __fwdad_body`, nested, whose
/// parameters are the arguments with each float reference's primal and tangent apart (and
/// `noalias`), and the call to it. Other arguments are passed as they come, typed as in
/// `frule` (`arg_tys`): rebuilding their duals would report a type that is not
/// `Differentiable` once more.
#[allow(clippy::too_many_arguments)]
fn emit_body_fn(
    sig: &Sig,
    body: &Body,
    wide: bool,
    params: &[syn::Ident],
    arg_tys: &[TokenStream],
    type_params: &[&syn::GenericParam],
    float_params: &[&syn::Ident],
    where_clause: &TokenStream,
    out_ty: &TokenStream,
    rt: &TokenStream,
    consts: &ConstArgs,
    entry: &TokenStream,
    fits: &TokenStream,
) -> TokenStream {
    let mode = mode_ident();
    let (mut fn_params, mut args, mut rebuild) = (Vec::new(), Vec::new(), Vec::new());
    // The wide entry's arguments to the body, its tangents seen in `Fused` mode.
    let mut wide_args = Vec::new();
    // The wide entry's parameters, names and types, and what `frule` passes for them: a
    // float's dual as its primal and a reference to its tangent, anything else as the body
    // takes it.
    let mut pairs: Vec<(TokenStream, TokenStream)> = Vec::new();
    let mut wide_call = Vec::new();
    // The fallback entry's arguments to the body: its own parameters, a borrowed dual copied.
    let mut fallback_args = Vec::new();
    // The tangent parameters of the floats the wide entry borrows.
    let mut by_ref = Vec::new();
    // The body's parameter names (`__fwdad_narrow` passes them on).
    let mut body_names = Vec::new();
    let wide_lt = syn::Lifetime::new("'__fwdad_w", Span::mixed_site());
    let float_tangent = quote!(<f64 as #rt::Differentiable>::TangentIn<#mode>);
    for (i, ((ty, arg_ty), param)) in sig.named_inputs.iter().zip(arg_tys).zip(params).enumerate() {
        // A parameter converted on entry (`crate::const_args`) reaches the body as the
        // mode's dual; one the body takes as it comes keeps its element tangent type.
        let generic = sig.const_param(i).is_some() && consts.generic(i);
        let converted = sig.const_param(i).is_some() && !generic;
        let tp = tangent_param(i);
        if !sig.is_inactive(i) && float_reference(ty, float_params) {
            let (p, t) = (
                format_ident!("__fwdad_p{}", i, span = Span::mixed_site()),
                format_ident!("__fwdad_t{}", i, span = Span::mixed_site()),
            );
            wide_args.push(match generic {
                true => {
                    quote!(#p, <#tp as #rt::ArgTangent<f64, #float_tangent>>::__fused_slice(#t))
                }
                false => quote!(#p, #rt::dispatch::fused_slice(#t)),
            });
            let tty = match generic {
                true => {
                    let tty = crate::const_args::tangent_type(ty, &tangent_param(i));
                    quote!(#tty)
                }
                false => quote!(<#ty as #rt::Differentiable>::TangentIn<#mode>),
            };
            fn_params.push(quote!(#p: #ty, #t: #tty));
            body_names.push(quote!(#p, #t));
            pairs.push((quote!(#p), quote!(#ty)));
            pairs.push((quote!(#t), tty.clone()));
            args.push(quote!(#param.primal, #param.tangent));
            wide_call.push(quote!(#param.primal, #param.tangent));
            fallback_args.push(quote!(#p, #t));
            rebuild.push(quote!(let #param = #rt::Dual::new(#p, #t);));
        } else if converted {
            fn_params.push(
                quote!(#param: #rt::Dual<#ty, <#ty as #rt::Differentiable>::TangentIn<#mode>>),
            );
            body_names.push(quote!(#param));
            pairs.push((
                quote!(#param),
                quote!(#rt::Dual<#ty, <#ty as #rt::Differentiable>::TangentIn<#mode>>),
            ));
            args.push(quote!(#param));
            wide_call.push(quote!(#param));
            fallback_args.push(quote!(#param));
            wide_args.push(quote!(#rt::Dual::new(#param.primal, #rt::Fused(#param.tangent))));
        } else if !sig.is_inactive(i) && generic {
            // A float's dual: the wide entry takes its primal and borrows its tangent
            // (`dispatch::TangentRef`).
            let (p, t) = (
                format_ident!("__fwdad_p{}", i, span = Span::mixed_site()),
                format_ident!("__fwdad_t{}", i, span = Span::mixed_site()),
            );
            fn_params.push(quote!(#param: #arg_ty));
            body_names.push(quote!(#param));
            pairs.push((quote!(#p), quote!(#ty)));
            pairs.push((quote!(#t), quote!(&#wide_lt #tp)));
            args.push(quote!(#param));
            wide_call.push(quote!(#param.primal, &#param.tangent));
            fallback_args.push(quote!(#rt::Dual::new(#p, *#t)));
            wide_args.push(quote!(#rt::Dual::new(
                #p,
                <#tp as #rt::ArgTangent<f64, #float_tangent>>::__fused_ref(#t),
            )));
            by_ref.push(tp);
        } else {
            fn_params.push(quote!(#param: #arg_ty));
            body_names.push(quote!(#param));
            pairs.push((quote!(#param), quote!(#arg_ty)));
            args.push(quote!(#param));
            wide_call.push(quote!(#param));
            fallback_args.push(quote!(#param));
            wide_args.push(match sig.is_inactive(i) {
                true => quote!(#param),
                false => quote!(#rt::Dual::new(#param.primal, #rt::Fused(#param.tangent))),
            });
        }
    }
    let (body_tangents, body_preds) = consts.body_generics();
    // Type and const parameters by name; lifetimes are inferred.
    let type_args = type_params.iter().filter_map(|p| match p {
        syn::GenericParam::Type(t) => Some(&t.ident),
        syn::GenericParam::Const(c) => Some(&c.ident),
        syn::GenericParam::Lifetime(_) => None,
    });
    let (lts, tokens) = (&sig.lifetimes, &body.tokens);
    // The wide entry takes its arguments one by one (`dispatch::WideFn`, up to 16).
    let wide = wide && pairs.len() <= 16;
    let inline = match (wide, body.inlinable) {
        // The body is `frule`'s and the wide entry's: inlined into both.
        (true, _) => quote!(#[inline(always)]),
        (false, true) => quote!(#[inline]),
        (false, false) => quote!(#[inline(never)]),
    };
    let type_args: Vec<_> = type_args.collect();
    let dispatch = wide.then(|| {
        // Each generic element tangent in `Fused` mode (a constant's stays one), borrowed
        // for a float passed by value.
        let wide_tangents = body_tangents.iter().map(|t| match by_ref.contains(t) {
            true => quote!(<#t as #rt::ArgTangent<f64, #float_tangent>>::__FusedRef<#wide_lt>),
            false => quote!(<#t as #rt::ArgTangent<f64, #float_tangent>>::__Fused),
        });
        let (pats, arg_tys): (Vec<_>, Vec<_>) = pairs.iter().cloned().unzip();
        let holes = pats.iter().map(|_| quote!(_));
        // Compiled for AVX2 and FMA unless the whole crate is (then `Batch` updates are
        // fused already) or the target is not x86-64; elsewhere never called.
        let on = quote!(all(target_arch = "x86_64", not(all(target_feature = "avx2", target_feature = "fma"))));
        quote! {
            #[cfg(#on)]
            #[target_feature(enable = "avx2,fma")]
            #[allow(unused_mut, unused_variables, unused_parens, unused_braces, unreachable_code, unreachable_patterns, non_snake_case, clippy::all)]
            fn __fwdad_wide<#(#lts,)* #wide_lt, #mode: #rt::Mode, #(#body_tangents,)*>(#(#pats: #arg_tys,)*) -> #out_ty
            #where_clause
            #(#body_preds,)*
            {
                let __fwdad_y = __fwdad_body::<#rt::Fused<#mode>, #(#wide_tangents,)*>(#(#wide_args,)*);
                #rt::Dual::new(__fwdad_y.primal, #rt::Unfuse::unfuse(__fwdad_y.tangent))
            }
            #[cfg(not(#on))]
            #[allow(unused_mut, unused_variables, non_snake_case, clippy::all)]
            fn __fwdad_wide<#(#lts,)* #wide_lt, #mode: #rt::Mode, #(#body_tangents,)*>(#(#pats: #arg_tys,)*) -> #out_ty
            #where_clause
            #(#body_preds,)*
            {
                __fwdad_body::<#mode, #(#body_tangents,)*>(#(#fallback_args,)*)
            }
            // The default-target body out of line where the wide entry may be taken, so
            // that the caller's frame holds the wide entry's arguments and result only.
            #[inline(never)]
            #[allow(unused_mut, unused_variables, non_snake_case, clippy::all)]
            fn __fwdad_narrow<#(#lts,)* #mode: #rt::Mode, #(#body_tangents,)*>(#(#fn_params,)*) -> #out_ty
            #where_clause
            #(#body_preds,)*
            {
                __fwdad_body::<#mode, #(#body_tangents,)*>(#(#body_names,)*)
            }
            if ::core::cfg!(#on) && <#mode as #rt::Mode>::__WIDE {
                if #rt::dispatch::wide() {
                    return #rt::dispatch::call_wide(
                        __fwdad_wide::<#mode, #(#body_tangents,)*> as unsafe fn(#(#holes),*) -> _,
                        (#(#wide_call,)*),
                    );
                }
                return __fwdad_narrow::<#mode, #(#body_tangents,)*>(#(#args,)*);
            }
        }
    });
    quote! {
        #inline
        #[allow(unused_mut, unused_variables, unused_parens, unused_braces, unreachable_code, unreachable_patterns, non_snake_case, clippy::all)]
        fn __fwdad_body<#(#lts,)* #(#type_params,)* #mode: #rt::Mode, #(#body_tangents,)*>(#(#fn_params,)*) -> #out_ty
        #where_clause
        #(#body_preds,)*
        {
            #(#rebuild)*
            #fits
            #tokens
        }
        let (#(#params,)*) = __fwdad_args;
        #entry
        #dispatch
        __fwdad_body::<#(#type_args,)* #mode, #(#body_tangents,)*>(#(#args,)*)
    }
}

/// Whether `ty` is a reference to floats: `&f64`, `&mut [T]` for a float parameter `T`,
/// `&[[f64; 3]]`.
fn float_reference(ty: &syn::Type, float_params: &[&syn::Ident]) -> bool {
    fn floats(ty: &syn::Type, float_params: &[&syn::Ident]) -> bool {
        match ty {
            syn::Type::Path(p) if p.qself.is_none() => p
                .path
                .get_ident()
                .is_some_and(|id| id == "f64" || id == "f32" || float_params.contains(&id)),
            syn::Type::Slice(s) => floats(&s.elem, float_params),
            syn::Type::Array(a) => floats(&a.elem, float_params),
            syn::Type::Paren(p) => floats(&p.elem, float_params),
            _ => false,
        }
    }
    matches!(ty, syn::Type::Reference(r) if floats(&r.elem, float_params))
}

/// Whether `t` is a `std` integer type written by its name (`usize`, `i32`).
fn is_std_int(t: &syn::Type) -> bool {
    match t {
        syn::Type::Path(p) if p.qself.is_none() => crate::callee::StdType::of_path(&p.path)
            .is_some_and(|k| k.class() == crate::callee::TypeClass::Int),
        _ => false,
    }
}

/// The rule's public face (marker struct, `name_frule` wrapper), shared with `#[primitive]`.
fn registration<'a>(
    func: &'a syn::ItemFn,
    sig: &'a Sig,
    rt: &TokenStream,
    generic: &[bool],
    free: bool,
) -> Registration<'a> {
    // Each `Dual<T>` spanned at the user's `T`, so errors about a type point at it.
    let inputs: Vec<TokenStream> = sig
        .inputs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let span = t.span();
            if sig.const_refs.get(i).copied().unwrap_or(false) {
                let tp = tangent_param(i);
                return quote_spanned!(span=> #rt::Dual<#t, #tp>);
            }
            match (
                sig.is_inactive(i),
                sig.const_param(i).filter(|c| !c.shape.is_dyn()),
            ) {
                (true, _) => quote_spanned!(span=> #t),
                (false, Some(_)) => {
                    let tty = crate::const_args::tangent_type(t, &tangent_param(i));
                    quote_spanned!(span=> #rt::Dual<#t, #tty>)
                }
                // An integer (`n: usize`) as it is or as its dual (`IntArgument`).
                (false, None) if is_std_int(t) => quote_spanned!(span=> impl #rt::IntArgument<#t>),
                (false, None) => quote_spanned!(span=> #rt::Dual<#t>),
            }
        })
        .collect();
    // A generic function's floats (or a function value's callee's) with a constant's
    // tangent too, converted on entry (`generic_entry_consts`).
    let (generic_types, generic_entry) = generic_entry_consts(func, sig, rt);
    let inputs: Vec<TokenStream> = inputs
        .into_iter()
        .zip(generic_types)
        .map(|(t, g)| g.unwrap_or(t))
        .collect();
    // The wrapper is the rule in one direction: each element tangent is `f64`'s (`f32`'s)
    // or a constant's.
    let consts = ConstArgs::new(sig, generic, rt, &quote!(f64), false);
    let mut extra_generics = consts.preds.clone();
    // A borrowed value of the user's type whose tangent may be a constant's: converted to
    // one in memory before the rule (which takes the mode's tangent) is called.
    let mut preamble = generic_entry;
    for (i, (t, name)) in sig.inputs.iter().zip(&sig.names).enumerate() {
        let Some(elem) = sig
            .const_refs
            .get(i)
            .filter(|r| **r)
            .and_then(|_| crate::const_args::user_ref(t))
        else {
            continue;
        };
        let (tp, cell) = (
            tangent_param(i),
            format_ident!("__fwdad_zero{}", i, span = Span::mixed_site()),
        );
        extra_generics.push(quote!(#tp: #rt::RefTangent<#elem>));
        preamble.extend(quote! {
            let #cell = ::core::cell::OnceCell::new();
            let #name = #rt::active_ref(#name, &#cell);
        });
    }
    for (i, (t, name)) in sig.inputs.iter().zip(&sig.names).enumerate() {
        let plain = sig.is_inactive(i) || sig.const_refs.get(i).copied().unwrap_or(false);
        if !plain && sig.const_param(i).is_none() && is_std_int(t) {
            preamble.extend(quote!(let #name = #rt::IntArgument::into_dual(#name);));
        }
    }
    let output = match &sig.fn_output {
        Some((_, ty)) => quote!(#ty),
        None => {
            let t = &sig.output;
            let span = t.span();
            quote_spanned!(span=> #rt::Dual<#t>)
        }
    };
    let generics = &func.sig.generics;
    let fn_params = crate::higher_order::fn_type_params(generics);
    let trait_params: Vec<syn::Ident> = crate::traits::trait_params(generics)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let iter_params = iter_type_params(&func.sig);
    let float_params: Vec<&syn::Ident> = generics
        .type_params()
        .map(|t| &t.ident)
        .filter(|t| !fn_params.contains(t) && !trait_params.contains(t) && !iter_params.contains(t))
        .collect();
    let user_preds = generics.where_clause.as_ref().map(|w| {
        let p = w.predicates.iter();
        quote!(#(#p,)*)
    });
    let trait_preds = crate::traits::trait_param_preds(generics, rt);
    let iter_preds = iter_params
        .iter()
        .map(|i| quote!(#i: #rt::ConstIter<Iter = #i>,));
    Registration {
        attr: "derive_frule",
        vis: &func.vis,
        name: &func.sig.ident,
        generics,
        names: &sig.names,
        inputs,
        output,
        where_clause: {
            let field_params = crate::aliases::complex_field_params(generics)
                .into_iter()
                .filter(|p| free && float_params.contains(&p));
            quote!(where #user_preds #trait_preds #(#iter_preds)* #(#float_params: #rt::Real,)* #(#field_params: #rt::NaRealField,)*)
        },
        doc_note: match sig.inactive.contains(&true) {
            true => "; a parameter declared `inactive` as its plain value",
            false => "",
        },
        extra_generics,
        preamble,
    }
}

/// The one-direction entry (`f_frule`) of a function whose rule takes no constant's
/// tangent (`const_params`: it has type or const parameters, or function values) takes,
/// for each parameter of a float shape (`f64`, `f32` or a float type parameter: `x: T`,
/// `c: &[T]`, `&[T; N]`, `[T; N]`), a constant's tangent too (`Dual::constant(&c[..])`,
/// `Dual::new(k, ConstTangent)`), converted on entry to the dual the rule takes. The
/// element tangent is an `impl` argument type, so that a caller naming the function's
/// own parameters (`poly_frule::<f64>(..)`) names no more. Gives each parameter's type
/// (`None`: as before) and the conversions. Not for a function returning a reference or
/// a function value, whose result could borrow the tangent built on entry.
#[inline(never)]
fn generic_entry_consts(
    func: &syn::ItemFn,
    sig: &Sig,
    rt: &TokenStream,
) -> (Vec<Option<TokenStream>>, TokenStream) {
    let mut types = vec![None; sig.inputs.len()];
    let mut convert = TokenStream::new();
    let generics = &func.sig.generics;
    let not_plain = generics.type_params().next().is_some()
        || generics.const_params().next().is_some()
        || sig.fn_values.contains(&true);
    if !not_plain
        || !sig.consts.is_empty()
        || sig.fn_output.is_some()
        || mentions(&sig.output, |t| matches!(t, syn::Type::Reference(_)))
        || sig.inputs.len() != func.sig.inputs.len()
    {
        return (types, convert);
    }
    let floats = crate::lower::float_params(&func.sig);
    for (i, (ty, arg)) in sig.inputs.iter().zip(&func.sig.inputs).enumerate() {
        let syn::FnArg::Typed(pt) = arg else {
            continue;
        };
        if sig.is_inactive(i)
            || sig.fn_values.get(i).copied().unwrap_or(false)
            || sig.const_refs.get(i).copied().unwrap_or(false)
            || !matches!(&*pt.pat, syn::Pat::Ident(_))
        {
            continue;
        }
        let Some((shape, float)) = float_shape(ty, &floats) else {
            continue;
        };
        let (Some(name), span) = (sig.names.get(i), ty.span()) else {
            continue;
        };
        let cell = format_ident!("__fwdad_zero{}", i, span = Span::mixed_site());
        use crate::const_args::Shape;
        let (bound, conversion) = match shape {
            Shape::Slice => (
                quote!(#rt::SliceTangent<#float, #float>),
                quote! {
                    let #cell = #rt::ZeroCell::<#float>::new();
                    let #name = #rt::active_slice::<#float, #float, _>(#name, &#cell);
                },
            ),
            Shape::Scalar => (
                quote!(#rt::ArgTangent<#float, #float>),
                quote!(let #name = #rt::active_scalar::<#float, #float, _>(#name);),
            ),
            Shape::Array => (
                quote!(#rt::ArgTangent<#float, #float>),
                quote!(let #name = #rt::active_array::<#float, #float, _, _>(#name);),
            ),
            Shape::ArrayRef => (
                quote!(#rt::ArgTangent<#float, #float>),
                quote! {
                    let #cell = ::core::cell::OnceCell::new();
                    let #name = #rt::active_array_ref::<#float, #float, _, _>(#name, &#cell);
                },
            ),
            Shape::DynRef | Shape::DynBox => continue,
        };
        let tangent = element_replaced(ty, syn::Type::Verbatim(quote!(impl #bound)));
        types[i] = Some(quote_spanned!(span=> #rt::Dual<#ty, #tangent>));
        convert.extend(conversion);
    }
    (types, convert)
}

/// The shape of a parameter type of floats (`f64`, `f32`, or one of `floats`, the
/// function's float type parameters) whose tangent may be a constant's, and the float.
fn float_shape(
    ty: &syn::Type,
    floats: &[syn::Ident],
) -> Option<(crate::const_args::Shape, syn::Ident)> {
    use crate::const_args::Shape;
    let float = |t: &syn::Type| match t {
        syn::Type::Path(p) if p.qself.is_none() => p
            .path
            .get_ident()
            .filter(|id| *id == "f64" || *id == "f32" || floats.contains(id))
            .cloned(),
        _ => None,
    };
    match ty {
        syn::Type::Reference(r) if r.mutability.is_none() => match &*r.elem {
            syn::Type::Slice(s) => Some((Shape::Slice, float(&s.elem)?)),
            syn::Type::Array(a) => Some((Shape::ArrayRef, float(&a.elem)?)),
            _ => None,
        },
        syn::Type::Array(a) => Some((Shape::Array, float(&a.elem)?)),
        other => Some((Shape::Scalar, float(other)?)),
    }
}

/// `ty` with its float element (under references, slices and arrays) replaced by `with`.
fn element_replaced(ty: &syn::Type, with: syn::Type) -> syn::Type {
    let mut ty = ty.clone();
    let mut at = &mut ty;
    loop {
        match at {
            syn::Type::Reference(r) => at = &mut r.elem,
            syn::Type::Slice(s) => at = &mut s.elem,
            syn::Type::Array(a) => at = &mut a.elem,
            other => {
                *other = with;
                return ty;
            }
        }
    }
}

/// The fallback `_frule` with an `unreachable!()` body.
fn emit_stub(func: &syn::ItemFn, sig: &Sig, rt: &TokenStream) -> TokenStream {
    registration(func, sig, rt, &[], false).stub()
}

/// `generics` with a fresh lifetime `'__fwdad_r` added (for the impls on `&'__fwdad_r T`).
fn with_lifetime(generics: &syn::Generics) -> (syn::Generics, syn::Lifetime) {
    let lt = syn::Lifetime::new("'__fwdad_r", proc_macro2::Span::call_site());
    let mut g = generics.clone();
    g.params.insert(
        0,
        syn::GenericParam::Lifetime(syn::LifetimeParam::new(lt.clone())),
    );
    (g, lt)
}
