//! Closures and functions held in a struct's fields (`struct Problem<F: Fn(f64) -> f64> {
//! f: F, a: f64 }`, `rhs: &'a dyn Fn(f64, &[f64], &mut [f64])`, `f: fn(f64) -> f64`,
//! `link: Box<dyn Fn(f64) -> f64>`).
//!
//! A struct cannot hold a closure's differentiated form (a function of duals where the
//! plain struct holds one of floats), so such a struct is never built in a rule. Both
//! sides are rewritten before lowering, for the rule only (the plain items stay as
//! written):
//!
//! * each `&self` method of a `#[derive_frule] impl` of the struct becomes a free function
//!   `Problem_integrate` taking the struct's fields as parameters (the functions as `impl
//!   Fn(..)`, the scalars and references by value, other fields borrowed), its body
//!   reading `self_f`, `self_a` for `self.f`, `self.a` ([`free_fns`]);
//! * in a derived body, a local built by a struct literal, `let p = Problem { f: |t| ..,
//!   a: 0.0 };`, becomes one local per field (the closure a `let` closure), its fields
//!   read as those locals, `(p.f)(x)` a call of the `let` closure and `p.integrate(n)` a
//!   call of `Problem_integrate` with the closure written at the call ([`struct_locals`]).
//!
//! Both read the struct's declaration from the annotated item's file (`source`).

use crate::diag::Diagnostics;
use proc_macro2::Span;
use quote::{format_ident, quote, quote_spanned, ToTokens};
use std::collections::HashSet;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// How a field is handed to the free function of a method.
#[derive(Clone)]
enum Kind {
    /// A function: `impl Fn(..)` (the bound, when the declaration shows it).
    Func(Option<syn::TraitBound>),
    /// A scalar or a shared reference: by value.
    Copy(syn::Type),
    /// Anything else: borrowed.
    Borrowed(syn::Type),
}

#[derive(Clone)]
struct Field {
    name: String,
    kind: Kind,
}

/// Where struct `name` is declared: the file read, and the path a caller in the
/// annotated item's file writes before the names of its module (`problem::` after `use
/// problem::Problem;`, nothing for the file's own struct or a glob's).
struct Home {
    file: std::rc::Rc<crate::source::Parsed>,
    prefix: Vec<String>,
}

/// The file declaring struct `name`: the annotated item's file, when it declares one of
/// that name, or the one file a `use` of it leads to (`mod problem; use
/// problem::Problem;`, or a glob `use problem::*;`), declaring one of that name.
fn home(name: &str) -> Option<Home> {
    use crate::source;
    let here = source::source_file()?;
    let file = source::parse(&here)?;
    let count = |f: &source::Parsed| {
        (f.modules.iter())
            .flat_map(|m| m.structs.iter())
            .filter(|s| s.name == name)
            .count()
    };
    if count(&file) > 0 {
        return Some(Home {
            file,
            prefix: Vec::new(),
        });
    }
    let mut deps = source::Reading::default();
    let modules = source::modules_of(&here, &mut deps);
    let is_struct = |items: &source::Items, n: &str| items.structs.iter().any(|s| s.name == n);
    let mut found: Vec<(source::Module, Vec<String>)> = Vec::new();
    for (at, items) in modules.iter().zip(&file.modules) {
        for (prefix, original, _) in items.named.iter().filter(|(_, _, l)| *l == name) {
            if let Some((m, _)) = source::definition(at, prefix, original, &mut deps, 4, &is_struct)
            {
                found.push((m, prefix.clone()));
            }
        }
        for glob in &items.globs {
            if let Some((m, _)) = source::definition(at, glob, name, &mut deps, 4, &is_struct) {
                found.push((m, Vec::new()));
            }
        }
    }
    let (module, prefix) = found.first()?.clone();
    if found.iter().any(|(m, _)| *m != module) {
        return None;
    }
    let file = deps.file(&module.file)?;
    (count(&file) == 1).then_some(Home { file, prefix })
}

/// The fields of the struct `name` (its file's only item of that name; see [`home`]).
fn all_fields(name: &str, impl_generics: Option<&syn::Generics>) -> Option<Vec<Field>> {
    let file = home(name)?.file;
    let mut found = (file.modules.iter()).flat_map(|m| m.structs.iter().filter(|s| s.name == name));
    let (Some(s), None) = (found.next(), found.next()) else {
        return None;
    };
    // One with `#[derive(Differentiable)]` (its function fields marked `skip`) is a value
    // rules take and build, as before.
    if s.differentiable == Some(true) {
        return None;
    }
    let mut fields = Vec::new();
    for (fname, ty) in &s.fields {
        let ty: syn::Type = syn::parse_str(ty).ok()?;
        let bound_of = |param: &str| -> Option<Option<syn::TraitBound>> {
            if let Some((_, b)) = s.fn_params.iter().find(|(p, _)| p == param) {
                return Some(
                    syn::parse_str::<syn::TraitBound>(b)
                        .ok()
                        .filter(is_fn_bound),
                );
            }
            let g = impl_generics?;
            let tp = g.type_params().find(|t| t.ident == param)?;
            let from_where = (g.where_clause.iter().flat_map(|w| &w.predicates)).filter_map(|p| {
                match p {
                    syn::WherePredicate::Type(t)
                        if matches!(&t.bounded_ty, syn::Type::Path(bp) if bp.path.is_ident(param)) =>
                    {
                        Some(&t.bounds)
                    }
                    _ => None,
                }
            });
            let bounds = std::iter::once(&tp.bounds).chain(from_where).flatten();
            bounds
                .filter_map(|b| match b {
                    syn::TypeParamBound::Trait(t) if is_fn_bound(t) => Some(Some(t.clone())),
                    _ => None,
                })
                .next()
        };
        let kind = match fn_type_bound(&ty) {
            Some(b) => Kind::Func(Some(b)),
            None => match &ty {
                syn::Type::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
                    match p.path.get_ident().and_then(|id| bound_of(&id.to_string())) {
                        Some(b) => Kind::Func(b),
                        None if is_copy(&ty) => Kind::Copy(ty),
                        None => Kind::Borrowed(ty),
                    }
                }
                _ if is_copy(&ty) => Kind::Copy(ty),
                _ => Kind::Borrowed(ty),
            },
        };
        fields.push(Field {
            name: fname.clone(),
            kind,
        });
    }
    Some(fields)
}

/// [`all_fields`], when one of them holds a function.
fn shape_of(name: &str, impl_generics: Option<&syn::Generics>) -> Option<Vec<Field>> {
    let fields = all_fields(name, impl_generics)?;
    fields
        .iter()
        .any(|f| matches!(f.kind, Kind::Func(_)))
        .then_some(fields)
}

fn is_fn_bound(t: &syn::TraitBound) -> bool {
    t.path.segments.last().is_some_and(|s| s.ident == "Fn")
}

/// `fn(f64) -> f64`, `&dyn Fn(f64) -> f64`, `Box<dyn Fn(f64) -> f64>`: the `Fn` bound.
fn fn_type_bound(ty: &syn::Type) -> Option<syn::TraitBound> {
    match ty {
        syn::Type::BareFn(f) if f.variadic.is_none() => {
            let inputs = f.inputs.iter().map(|a| &a.ty);
            let output = &f.output;
            syn::parse2(quote!(Fn(#(#inputs),*) #output)).ok()
        }
        syn::Type::Reference(r) if r.mutability.is_none() => fn_type_bound(&r.elem),
        syn::Type::Paren(p) => fn_type_bound(&p.elem),
        syn::Type::TraitObject(o) => o.bounds.iter().find_map(|b| match b {
            syn::TypeParamBound::Trait(t) if is_fn_bound(t) => Some(t.clone()),
            _ => None,
        }),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            if last.ident != "Box" {
                return None;
            }
            let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                return None;
            };
            match a.args.first()? {
                syn::GenericArgument::Type(t @ syn::Type::TraitObject(_)) => fn_type_bound(t),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `Vec<Box<dyn Fn(f64) -> f64>>`, `[fn(f64) -> f64; 3]`: a list of functions.
fn is_fn_list(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Array(a) => fn_type_bound(&a.elem).is_some(),
        syn::Type::Slice(a) => fn_type_bound(&a.elem).is_some(),
        syn::Type::Reference(r) => is_fn_list(&r.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                return false;
            };
            last.ident == "Vec"
                && matches!(a.args.first(), Some(syn::GenericArgument::Type(t)) if fn_type_bound(t).is_some())
        }
        _ => false,
    }
}

/// The fields of the file's struct `name` holding a list of functions, name and type.
fn fn_list_fields(name: &str) -> Vec<(String, String)> {
    let Some(file) = home(name).map(|h| h.file) else {
        return Vec::new();
    };
    let mut found = (file.modules.iter()).flat_map(|m| m.structs.iter().filter(|s| s.name == name));
    let (Some(s), None) = (found.next(), found.next()) else {
        return Vec::new();
    };
    (s.fields.iter())
        .filter(|(_, t)| syn::parse_str::<syn::Type>(t).is_ok_and(|t| is_fn_list(&t)))
        .cloned()
        .collect()
}

fn list_message(field: &str, ty: &str) -> String {
    let ty = match syn::parse_str::<syn::Type>(ty) {
        Ok(t) => crate::differentiable::type_text(&t),
        Err(_) => ty.to_string(),
    };
    format!("`#[derive_frule]` does not support a list of functions held in a struct's field (`{field}: {ty}`): a struct cannot hold their differentiated forms, and only a field holding one function is passed to the struct's methods; build the list in the differentiated function and walk it there (`let {field}: {ty} = vec![..]; for s in &{field} {{ .. }}`), or give each function a field of its own")
}

/// Errors at the uses of a field holding a list of functions in the methods of `imp`.
pub(crate) fn check_fn_lists(imp: &syn::ItemImpl, ty: &syn::Ident, diag: &mut Diagnostics) {
    let lists = fn_list_fields(&ty.to_string());
    if lists.is_empty() {
        return;
    }
    struct Uses<'a>(&'a [(String, String)], Vec<(Span, String)>);
    impl<'ast> Visit<'ast> for Uses<'_> {
        fn visit_expr_field(&mut self, f: &'ast syn::ExprField) {
            if is_self(&f.base) {
                if let Some((n, t)) =
                    (member_name(&f.member)).and_then(|n| self.0.iter().find(|(l, _)| *l == n))
                {
                    self.1.push((f.member.span(), list_message(n, t)));
                }
            }
            syn::visit::visit_expr_field(self, f);
        }
    }
    let mut uses = Uses(&lists, Vec::new());
    uses.visit_item_impl(imp);
    if let Some((span, msg)) = uses.1.into_iter().next() {
        diag.error(span, msg);
    }
}

fn is_copy(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => r.mutability.is_none(),
        syn::Type::Path(p) => p.qself.is_none() && is_scalar_path(&p.path),
        _ => false,
    }
}

fn is_scalar_path(p: &syn::Path) -> bool {
    const SCALARS: [&str; 16] = [
        "f64", "f32", "bool", "char", "usize", "isize", "u8", "u16", "u32", "u64", "u128", "i8",
        "i16", "i32", "i64", "i128",
    ];
    p.get_ident()
        .is_some_and(|id| SCALARS.iter().any(|s| id == s))
}

/// The free function standing for method `method` of type `ty` (`Problem::integrate`:
/// `problem__integrate`; a lower-case name, which calls read as a function's).
fn free_name(ty: &syn::Ident, method: &syn::Ident) -> syn::Ident {
    let mut snake = String::new();
    for (i, c) in ty.to_string().chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                snake.push('_');
            }
            snake.extend(c.to_lowercase());
        } else {
            snake.push(c);
        }
    }
    format_ident!("{}__{}", snake, method, span = method.span())
}

/// The parameter standing for field `name` in a method's free function.
fn param_name(name: &str) -> syn::Ident {
    format_ident!("self_{}", name)
}

/// The free functions standing for the `&self` methods of an inherent `impl` of a struct
/// holding a function, and the names of the methods they stand for (whose own rules are
/// left out: a rule taking the struct could not call its function). `None` when the
/// file's struct holds no function.
pub(crate) fn free_fns(
    imp: &syn::ItemImpl,
    ty: &syn::Ident,
    diag: &mut Diagnostics,
) -> Option<(Vec<syn::ItemFn>, HashSet<String>)> {
    if imp.trait_.is_some() {
        return None;
    }
    let fields = shape_of(&ty.to_string(), Some(&imp.generics))?;
    let by_ref = |m: &syn::ImplItemFn| {
        matches!(m.sig.receiver(), Some(r) if r.reference.is_some() && r.mutability.is_none()
            && r.colon_token.is_none())
    };
    let methods: HashSet<String> = (imp.items.iter())
        .filter_map(|it| match it {
            syn::ImplItem::Fn(m) if by_ref(m) => Some(m.sig.ident.to_string()),
            _ => None,
        })
        .collect();
    // The type parameters that only type function fields are the `impl Fn` parameters.
    let fn_params: Vec<String> = (fields.iter())
        .filter_map(|f| match &f.kind {
            Kind::Func(_) => None,
            Kind::Copy(t) | Kind::Borrowed(t) => Some(t.to_token_stream().to_string()),
        })
        .collect();
    let mentioned = |p: &syn::Ident| {
        let p = p.to_string();
        fn_params.iter().any(|t| {
            t.split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == p)
        })
    };
    let self_ty = &*imp.self_ty;
    let fn_bounded = |id: &syn::Ident| bounded_by_fn(&imp.generics, id);
    let dropped = |id: &syn::Ident| fn_bounded(id) && !mentioned(id);
    let mut out = Vec::new();
    for it in &imp.items {
        let syn::ImplItem::Fn(m) = it else { continue };
        if !by_ref(m) {
            continue;
        }
        // A lifetime only a function field's type names (`Ode<'a>`'s `&'a dyn Fn`) is
        // named by no parameter of the free function.
        let sig_text = {
            let inputs = &m.sig.inputs;
            let output = &m.sig.output;
            format!(
                "{} {} {}",
                fn_params.join(" "),
                quote!(#inputs),
                quote!(#output)
            )
        };
        let mut generics = syn::Generics::default();
        for p in &imp.generics.params {
            match p {
                syn::GenericParam::Type(t) if dropped(&t.ident) => {}
                syn::GenericParam::Lifetime(l)
                    if !sig_text.contains(&l.lifetime.to_token_stream().to_string()) => {}
                other => generics.params.push(other.clone()),
            }
        }
        generics
            .params
            .extend(m.sig.generics.params.iter().cloned());
        let preds = (imp.generics.where_clause.iter())
            .chain(m.sig.generics.where_clause.iter())
            .flat_map(|w| w.predicates.iter())
            .filter(|p| match p {
                syn::WherePredicate::Type(t) => !matches!(&t.bounded_ty,
                    syn::Type::Path(bp) if bp.path.get_ident().is_some_and(&dropped)),
                _ => true,
            });
        let preds: Vec<_> = preds.cloned().collect();
        if !preds.is_empty() {
            generics.make_where_clause().predicates.extend(preds);
        }
        let mut inputs: Vec<TokenStream2> = Vec::new();
        for f in &fields {
            let p = param_name(&f.name);
            match &f.kind {
                Kind::Func(Some(b)) => inputs.push(quote!(#p: impl #b)),
                Kind::Func(None) => {
                    diag.error_spanned(
                        &m.sig.ident,
                        format!("`#[derive_frule]` cannot tell the signature of the function held in `{ty}`'s field `{}`: bound its type parameter by `Fn(..)` on the struct or the `impl` (`impl<F: Fn(f64) -> f64> {ty}<F>`)", f.name),
                    );
                    return None;
                }
                Kind::Copy(t) => inputs.push(quote!(#p: #t)),
                Kind::Borrowed(t) => inputs.push(quote!(#p: &#t)),
            }
        }
        inputs.extend(
            (m.sig.inputs.iter())
                .filter(|a| matches!(a, syn::FnArg::Typed(_)))
                .map(|a| a.to_token_stream()),
        );
        let mut block = m.block.clone();
        let mut rw = SelfFields {
            ty,
            fields: &fields,
            methods: &methods,
            errors: Vec::new(),
        };
        rw.visit_block_mut(&mut block);
        for (span, msg) in rw.errors {
            diag.error(span, msg);
        }
        let name = free_name(ty, &m.sig.ident);
        let output = &m.sig.output;
        let vis = &m.vis;
        let (g, _, w) = generics.split_for_impl();
        let _ = g;
        let params = &generics.params;
        let attrs = m.attrs.iter().filter(|a| {
            a.path()
                .get_ident()
                .is_some_and(|i| i == "inline" || i == "allow")
        });
        let item = quote! {
            #(#attrs)*
            #[doc(hidden)]
            #[allow(non_snake_case, dead_code, clippy::too_many_arguments, clippy::ptr_arg)]
            #vis fn #name <#params> (#(#inputs),*) #output #w #block
        };
        let Ok(mut func) = syn::parse2::<syn::ItemFn>(item) else {
            continue;
        };
        crate::derive_frule::ReplaceSelfType(self_ty).visit_item_fn_mut(&mut func);
        out.push(func);
    }
    // The other methods (`new`, `&mut self` ones) keep no rule: one would take or build
    // the struct, which a rule cannot hold.
    let all = (imp.items.iter())
        .filter_map(|it| match it {
            syn::ImplItem::Fn(m) => Some(m.sig.ident.to_string()),
            _ => None,
        })
        .collect();
    Some((out, all))
}

/// The struct holding a function that `ty` names (`&Problem<F>`, `Ode<'a>`), if any,
/// with its first function field's name.
fn holder_in(ty: &syn::Type) -> Option<(String, String)> {
    match ty {
        syn::Type::Reference(r) => holder_in(&r.elem),
        syn::Type::Paren(p) => holder_in(&p.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let name = p.path.segments.last()?.ident.to_string();
            let field = first_fn_field(&name)?;
            Some((name, field))
        }
        _ => None,
    }
}

/// The name of the first field of struct `name` holding a function.
fn first_fn_field(name: &str) -> Option<String> {
    let fields = shape_of(name, None)?;
    (fields.into_iter())
        .find(|f| matches!(f.kind, Kind::Func(_)))
        .map(|f| f.name)
}

/// Whether struct `ty`'s file (see [`home`]) has a `#[derive_frule]` inherent `impl` of
/// it with a `&self` method `method`.
fn derived_method(ty: &str, method: &str) -> bool {
    home(ty).is_some_and(|h| {
        (h.file.modules.iter()).any(|m| {
            m.derived_ref_methods
                .contains(&(ty.to_string(), method.to_string()))
        })
    })
}

/// The suffix of the function standing for a `#[derive_frule]` function taking a struct
/// that holds a function (`solve__fields` for `solve`).
const FIELDS_SUFFIX: &str = "__fields";

/// The same for a method (`solve_by_fields`: a method's rule items are named after it,
/// and rustc's `non_snake_case` lint would flag `__`).
const METHOD_SUFFIX: &str = "_by_fields";

/// The struct holding a function that `ty` names (`&Problem<F>`, `Ode<'a>`), if any.
fn holder_name(ty: &syn::Type) -> Option<String> {
    holder_in(ty).map(|(n, _)| n)
}

/// The types of the parameters of the file's `#[derive_frule]` function `name` (one of
/// that name).
fn derived_params(name: &str) -> Option<Vec<String>> {
    let file = crate::source::source_file().and_then(|p| crate::source::parse(&p))?;
    let mut found = (file.modules.iter()).filter_map(|m| m.derived_fn_params.get(name));
    match (found.next(), found.next()) {
        (Some(p), None) => Some(p.clone()),
        _ => None,
    }
}

/// Whether the file's `#[derive_frule]` function `name` (a method: `.name`) takes a
/// struct `ty` holding a function.
fn takes_holder(name: &str, ty: &str) -> bool {
    derived_params(name).is_some_and(|ps| {
        ps.iter().any(|t| {
            syn::parse_str::<syn::Type>(t)
                .ok()
                .and_then(|t| holder_name(&t))
                .is_some_and(|n| n == ty)
        })
    })
}

/// `p: &Problem<F>`'s struct: its path without the name (`geo::`), its name and fields,
/// when it holds a function.
fn holder_param(
    ty: &syn::Type,
    generics: &syn::Generics,
) -> Option<(TokenStream2, syn::Ident, Vec<Field>)> {
    match ty {
        syn::Type::Reference(r) if r.mutability.is_none() => holder_param(&r.elem, generics),
        syn::Type::Paren(p) => holder_param(&p.elem, generics),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let fields = shape_of(&last.ident.to_string(), Some(generics))?;
            let segs: Vec<_> = p.path.segments.iter().map(|s| &s.ident).collect();
            let segs = &segs[..segs.len() - 1];
            let lead = p.path.leading_colon;
            Some((quote!(#lead #(#segs::)*), last.ident.clone(), fields))
        }
        _ => None,
    }
}

/// A field's type with the lifetimes `generics` does not declare elided (`&'a [f64]` of
/// `Data<'a>`: `&'_ [f64]`).
fn elide_lifetimes(ty: &syn::Type, generics: &syn::Generics) -> syn::Type {
    struct Elide<'g>(&'g syn::Generics);
    impl VisitMut for Elide<'_> {
        fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
            let declared = self.0.lifetimes().any(|d| d.lifetime == *l);
            if !declared && l.ident != "static" {
                *l = syn::Lifetime::new("'_", l.span());
            }
        }
    }
    let mut ty = ty.clone();
    Elide(generics).visit_type_mut(&mut ty);
    ty
}

/// A `#[derive_frule]` function taking a struct that holds a function (`fn solve(ode:
/// &Ode<'_>, y0: f64)`): the function standing for it in rules, `solve__fields`, taking
/// each such parameter's fields in its place (the functions as `impl Fn(..)`, as the
/// methods' free functions take them), its body reading them for the parameter's fields
/// and passing them on for the parameter (`p.slope(x)`, `minimise(p, x)`). The function
/// itself gets no rule: a caller's struct literal is never built in a rule, and its call
/// is one of the function standing for it ([`UseFields::holder_call`]). `None` when no
/// parameter holds a function.
pub(crate) fn holder_fn(func: &syn::ItemFn, diag: &mut Diagnostics) -> Option<syn::ItemFn> {
    let generics = &func.sig.generics;
    let holders: Vec<(usize, &syn::PatType)> = (func.sig.inputs.iter().enumerate())
        .filter_map(|(i, a)| match a {
            syn::FnArg::Typed(t) if holder_param(&t.ty, generics).is_some() => Some((i, t)),
            _ => None,
        })
        .collect();
    if holders.is_empty() {
        return None;
    }
    let mut taken = Idents::default();
    taken.visit_item_fn(func);
    let mut inputs: Vec<TokenStream2> = Vec::new();
    // The signature's text but the functions' bounds, for the type parameters it names.
    let mut mentions = String::new();
    let mut locals = Vec::new();
    for (i, arg) in func.sig.inputs.iter().enumerate() {
        let syn::FnArg::Typed(t) = arg else {
            inputs.push(arg.to_token_stream());
            continue;
        };
        if !holders.iter().any(|(h, _)| *h == i) {
            let ty = &t.ty;
            mentions.push_str(&quote!(#ty).to_string());
            mentions.push(' ');
            inputs.push(arg.to_token_stream());
            continue;
        }
        let (prefix, ty, fields) = holder_param(&t.ty, generics)?;
        let name = match &*t.pat {
            syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => pi.ident.clone(),
            other => {
                diag.error_spanned(
                    other,
                    format!("`#[derive_frule]` does not support a pattern for a parameter holding `{ty}`, a struct with a function in a field: name the parameter (`p: &{ty}<..>`) and read its fields in the body (`p.a`)"),
                );
                return None;
            }
        };
        let mut names = Vec::new();
        for f in &fields {
            let mut n = format!("{name}_{}", f.name);
            while taken.0.contains(&n) {
                n.push('_');
            }
            taken.0.insert(n.clone());
            let l = syn::Ident::new(&n, name.span());
            match &f.kind {
                Kind::Func(Some(b)) => inputs.push(quote!(#l: impl #b)),
                Kind::Func(None) => {
                    diag.error_spanned(
                        &t.ty,
                        format!("`#[derive_frule]` cannot tell the signature of the function held in `{ty}`'s field `{}`: bound its type parameter by `Fn(..)` on the struct or the function (`F: Fn(f64) -> f64`)", f.name),
                    );
                    return None;
                }
                Kind::Copy(t) => {
                    let t = elide_lifetimes(t, generics);
                    mentions.push_str(&quote!(#t).to_string());
                    mentions.push(' ');
                    inputs.push(quote!(#l: #t));
                }
                Kind::Borrowed(t) => {
                    let t = elide_lifetimes(t, generics);
                    mentions.push_str(&quote!(#t).to_string());
                    mentions.push(' ');
                    inputs.push(quote!(#l: &#t));
                }
            }
            names.push(l);
        }
        let n = fields.len();
        locals.push(Local {
            name,
            prefix,
            ty,
            fields,
            locals: names,
            values: vec![None; n],
            rebound: vec![false; n],
            param: true,
        });
    }
    let output = &func.sig.output;
    mentions.push_str(&quote!(#output).to_string());
    // The type parameters bounded by `Fn(..)` that the new signature does not name.
    let fn_bounded = |id: &syn::Ident| bounded_by_fn(generics, id);
    let named = |id: &syn::Ident| {
        let id = id.to_string();
        mentions
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| w == id)
    };
    let dropped = |id: &syn::Ident| fn_bounded(id) && !named(id);
    let mut new_generics = syn::Generics::default();
    for p in &generics.params {
        match p {
            syn::GenericParam::Type(t) if dropped(&t.ident) => {}
            other => new_generics.params.push(other.clone()),
        }
    }
    let preds: Vec<syn::WherePredicate> = (generics.where_clause.iter())
        .flat_map(|w| w.predicates.iter())
        .filter(|p| match p {
            syn::WherePredicate::Type(t) => !matches!(&t.bounded_ty,
                syn::Type::Path(bp) if bp.path.get_ident().is_some_and(&dropped)),
            _ => true,
        })
        .cloned()
        .collect();
    if !preds.is_empty() {
        new_generics.make_where_clause().predicates.extend(preds);
    }
    let mut block = (*func.block).clone();
    for local in &locals {
        let mut binds = Binds::default();
        binds.visit_block(&block);
        if let Some(again) = binds.0.iter().find(|b| **b == local.name) {
            diag.error_spanned(
                again,
                format!("`#[derive_frule]` does not support binding `{again}` again in a function taking `{again}`, a `{ty}` holding a function, as a parameter: give the new binding another name", ty = local.ty),
            );
            return None;
        }
        let mut rw = UseFields {
            local,
            errors: Vec::new(),
        };
        rw.visit_block_mut(&mut block);
        for (span, msg) in rw.errors {
            diag.error(span, msg);
        }
    }
    let suffix = match func.sig.receiver() {
        Some(_) => METHOD_SUFFIX,
        None => FIELDS_SUFFIX,
    };
    let name = format_ident!("{}{}", func.sig.ident, suffix, span = func.sig.ident.span());
    let params = &new_generics.params;
    let w = &new_generics.where_clause;
    let vis = &func.vis;
    let attrs = func.attrs.iter().filter(|a| {
        a.path()
            .get_ident()
            .is_some_and(|i| i == "inline" || i == "allow")
    });
    let item = quote! {
        #(#attrs)*
        #[doc(hidden)]
        #[allow(non_snake_case, dead_code, unused_variables, clippy::too_many_arguments, clippy::ptr_arg)]
        #vis fn #name <#params> (#(#inputs),*) #output #w #block
    };
    syn::parse2::<syn::ItemFn>(item).ok()
}

/// The methods of an inherent `impl` taking a struct that holds a function (`fn solve(&self,
/// ode: &Ode<'_>, y0: f64)`): each gets a method `solve__fields` beside it, taking the
/// struct's fields in its place ([`holder_fn`]), which stands for it in rules. Returns
/// the names of the methods it stands for (which get no rule).
pub(crate) fn holder_methods(imp: &mut syn::ItemImpl, diag: &mut Diagnostics) -> HashSet<String> {
    let mut replaced = HashSet::new();
    if imp.trait_.is_some() {
        return replaced;
    }
    let mut added = Vec::new();
    for it in &imp.items {
        let syn::ImplItem::Fn(m) = it else { continue };
        if m.sig.receiver().is_none() {
            continue;
        }
        let func = syn::ItemFn {
            attrs: m.attrs.clone(),
            vis: m.vis.clone(),
            sig: m.sig.clone(),
            block: Box::new(m.block.clone()),
        };
        if let Some(f) = holder_fn(&func, diag) {
            if let Ok(method) = syn::parse2::<syn::ImplItemFn>(f.to_token_stream()) {
                replaced.insert(m.sig.ident.to_string());
                added.push(syn::ImplItem::Fn(method));
            }
        }
    }
    imp.items.extend(added);
    replaced
}

/// A derived function taking a struct that holds a function, or building one with a
/// constructor: errors, as the rule can neither hold nor see into it.
pub(crate) fn check_holders(func: &syn::ItemFn, diag: &mut Diagnostics) {
    for arg in &func.sig.inputs {
        let syn::FnArg::Typed(t) = arg else { continue };
        if let Some((name, field)) = holder_in(&t.ty) {
            diag.error_spanned(
                &t.ty,
                format!("`#[derive_frule]` does not support a parameter holding `{name}`, a struct with a function in its field `{field}`, in a method of a trait's `impl`: its rule is the trait's and cannot take the function's differentiated form along; take the `{name}` in a method of an inherent `impl` or in a free `#[derive_frule]` function (`fn solve(p: &{name}<..>, ..)`), which a differentiated function building it (`let p = {name} {{ {field}: |..| .., .. }};`) can call, or take the function itself as a parameter (`{field}: impl Fn(..)`)"),
            );
        }
    }
    struct Ctors<'d>(&'d mut Diagnostics);
    impl<'ast> Visit<'ast> for Ctors<'_> {
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            if let syn::Expr::Path(p) = strip(&c.func) {
                let segs = &p.path.segments;
                if segs.len() >= 2 {
                    let ty = segs[segs.len() - 2].ident.to_string();
                    let f = &segs[segs.len() - 1].ident;
                    if let Some(field) = first_fn_field(&ty) {
                        self.0.error_spanned(
                            c,
                            format!("`#[derive_frule]` does not support building `{ty}`, a struct with a function in its field `{field}`, by `{ty}::{f}(..)` here: the rule passes the closure of a struct literal to `{ty}`'s methods, and sees into a constructor only bound with `let` (`let p = {ty}::{f}(..);`) and ending in a struct literal (`Self {{ {field}, .. }}`) after statements that check (`assert!(..)`) or bind one new name each (`let h = ..;`), each closure given used once; bind it with `let`, or write the literal here (`let p = {ty} {{ {field}: |..| .., .. }};`)"),
                        );
                    }
                }
            }
            syn::visit::visit_expr_call(self, c);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    Ctors(diag).visit_block(&func.block);
}

type TokenStream2 = proc_macro2::TokenStream;

/// The expression naming the local `id`.
fn path_expr(id: syn::Ident) -> syn::Expr {
    syn::Expr::Path(syn::ExprPath {
        attrs: Vec::new(),
        qself: None,
        path: id.into(),
    })
}

fn is_self(e: &syn::Expr) -> bool {
    matches!(strip(e), syn::Expr::Path(p) if p.qself.is_none() && p.path.is_ident("self"))
}

fn strip(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => strip(&p.expr),
        syn::Expr::Group(g) => strip(&g.expr),
        other => other,
    }
}

fn member_name(m: &syn::Member) -> Option<String> {
    match m {
        syn::Member::Named(n) => Some(n.to_string()),
        syn::Member::Unnamed(_) => None,
    }
}

/// Rewrites a method's body to read its struct's fields from the free function's
/// parameters.
struct SelfFields<'a> {
    ty: &'a syn::Ident,
    fields: &'a [Field],
    methods: &'a HashSet<String>,
    errors: Vec<(Span, String)>,
}

impl SelfFields<'_> {
    fn field(&self, m: &syn::Member) -> Option<&Field> {
        let name = member_name(m)?;
        self.fields.iter().find(|f| f.name == name)
    }
}

impl VisitMut for SelfFields<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        // `&self.xs` of a borrowed field: its reference.
        if let syn::Expr::Reference(r) = e {
            if let syn::Expr::Field(f) = strip(&r.expr) {
                let borrowed = is_self(&f.base)
                    && matches!(
                        self.field(&f.member),
                        Some(Field {
                            kind: Kind::Borrowed(_),
                            ..
                        })
                    );
                if borrowed && r.mutability.is_none() {
                    let inner = (*r.expr).clone();
                    *e = inner;
                }
            }
        }
        match e {
            syn::Expr::Field(f) if is_self(&f.base) => {
                if let Some(field) = self.field(&f.member) {
                    let p = param_name(&field.name);
                    let p = syn::Ident::new(&p.to_string(), f.member.span());
                    // A borrowed field is read through its reference, which indexing and
                    // method calls dereference (`self_xs[i]`, `self_xs.len()`).
                    *e = path_expr(p);
                }
                return;
            }
            syn::Expr::MethodCall(mc) if is_self(&mc.receiver) => {
                let name = mc.method.to_string();
                if self.fields.iter().any(|f| f.name == name) || !self.methods.contains(&name) {
                    self.errors.push((
                        mc.method.span(),
                        format!("`#[derive_frule]` does not support calling `self.{name}(..)` in a method of `{ty}`, a struct holding a function: only its `&self` methods of this `#[derive_frule] impl` can be called on `self` here; move `{name}` into this `impl` and take `&self`", ty = self.ty),
                    ));
                    return;
                }
                for a in mc.args.iter_mut() {
                    self.visit_expr_mut(a);
                }
                let callee = free_name(self.ty, &mc.method);
                let fields = self.fields.iter().map(|f| {
                    let p = param_name(&f.name);
                    match f.kind {
                        Kind::Func(_) => quote!(&#p),
                        _ => quote!(#p),
                    }
                });
                let args = &mc.args;
                if let Ok(call) =
                    syn::parse2(quote_spanned!(mc.method.span()=> #callee(#(#fields,)* #args)))
                {
                    *e = call;
                }
                return;
            }
            syn::Expr::Path(p) if p.qself.is_none() && p.path.is_ident("self") => {
                self.errors.push((
                    p.path.segments[0].ident.span(),
                    format!("`#[derive_frule]` does not support using `self` as a whole in a method of `{ty}`, a struct holding a function: read its fields (`self.a`), call its function (`(self.f)(x)`) or its `&self` methods", ty = self.ty),
                ));
                return;
            }
            _ => {}
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }

    fn visit_macro_mut(&mut self, _: &mut syn::Macro) {}
}

/// A field's value as the function to pass: the closure out of `Box::new(..)` or `&..`.
fn function_value(e: &syn::Expr) -> &syn::Expr {
    match strip(e) {
        syn::Expr::Reference(r) if r.mutability.is_none() => function_value(&r.expr),
        syn::Expr::Call(c) if c.args.len() == 1 => match strip(&c.func) {
            syn::Expr::Path(p)
                if p.qself.is_none()
                    && p.path.segments.len() >= 2
                    && p.path
                        .segments
                        .iter()
                        .rev()
                        .nth(1)
                        .is_some_and(|s| s.ident == "Box")
                    && p.path.segments.last().is_some_and(|s| s.ident == "new") =>
            {
                function_value(&c.args[0])
            }
            _ => e,
        },
        other => other,
    }
}

/// Idents a syntax tree names.
#[derive(Default)]
struct Idents(HashSet<String>);

impl<'ast> Visit<'ast> for Idents {
    fn visit_ident(&mut self, i: &'ast syn::Ident) {
        self.0.insert(i.to_string());
    }
}

/// The names bound by patterns (and closure parameters) in a syntax tree.
#[derive(Default)]
struct Binds(Vec<syn::Ident>);

impl<'ast> Visit<'ast> for Binds {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.push(p.ident.clone());
        syn::visit::visit_pat_ident(self, p);
    }
}

/// A local of a struct holding a function, found at a `let`.
struct Local {
    name: syn::Ident,
    /// The struct's path without the name, for its methods' free functions (`geo::`).
    prefix: TokenStream2,
    ty: syn::Ident,
    fields: Vec<Field>,
    /// Each field's local.
    locals: Vec<syn::Ident>,
    /// The functions the literal gives, by field.
    values: Vec<Option<syn::Expr>>,
    /// A parameter of a function taking the struct (`p: &Problem<F>`), each field a
    /// parameter of its own: the functions `impl Fn(..)`, the other fields by value or
    /// borrowed as the methods' free functions take them.
    param: bool,
    /// By field: its function is a name that later statements bind again.
    rebound: Vec<bool>,
}

/// Rewrites the locals of `block` (at its top level) built by a literal of a struct
/// holding a function into one local per field (see the module's documentation).
pub(crate) fn struct_locals(block: &mut syn::Block, diag: &mut Diagnostics) {
    // Inner blocks first (a loop's body building the struct), then this one's.
    struct Inner<'d>(&'d mut Diagnostics);
    impl VisitMut for Inner<'_> {
        fn visit_block_mut(&mut self, b: &mut syn::Block) {
            syn::visit_mut::visit_block_mut(self, b);
            locals_of(b, self.0);
        }
        fn visit_item_mut(&mut self, _: &mut syn::Item) {}
    }
    for st in &mut block.stmts {
        Inner(diag).visit_stmt_mut(st);
    }
    locals_of(block, diag);
}

fn locals_of(block: &mut syn::Block, diag: &mut Diagnostics) {
    let mut i = 0;
    while i < block.stmts.len() {
        i += by_constructor(block, i);
        if let Some(n) = rewrite_at(block, i, diag) {
            i += n;
        } else {
            i += 1;
        }
    }
}

/// The file's constructor `ty::name` of a struct holding a function, as an `impl` block
/// holding it alone (one of that name).
fn constructor(ty: &str, name: &str) -> Option<(syn::Generics, syn::ImplItemFn)> {
    let file = home(ty)?.file;
    let mut found = (file.modules.iter())
        .flat_map(|m| m.ctors.iter())
        .filter(|(t, n, _)| t == ty && n == name);
    let (Some((_, _, text)), None) = (found.next(), found.next()) else {
        return None;
    };
    let imp: syn::ItemImpl = syn::parse_str(text).ok()?;
    let Some(syn::ImplItem::Fn(f)) = imp.items.into_iter().next() else {
        return None;
    };
    shape_of(ty, Some(&imp.generics))?;
    Some((imp.generics, f))
}

/// `let p = Problem::new(|t| (k * t).sin(), 0.0, x);` of a constructor ending in a struct
/// literal (`fn new(f: F, a: f64, b: f64) -> Self { Self { f, a, b } }`): the literal
/// written in its place, `let p = Problem { f: |t| (k * t).sin(), a: p_a, b: p_b };`, the
/// arguments but functions and names bound first in order (`let p_a = 0.0;`) and the
/// constructor's statements before its literal (`assert!(a < b);`, `let h = (b - a) / n
/// as f64;` with its name renamed `p_h`) kept. Returns how many statements were put
/// before the `let`.
#[inline(never)]
fn by_constructor(block: &mut syn::Block, i: usize) -> usize {
    let syn::Stmt::Local(l) = &block.stmts[i] else {
        return 0;
    };
    let Some(init) = l.init.as_ref().filter(|i| i.diverge.is_none()) else {
        return 0;
    };
    let syn::Expr::Call(c) = strip(&init.expr) else {
        return 0;
    };
    let syn::Expr::Path(fp) = strip(&c.func) else {
        return 0;
    };
    let segs = &fp.path.segments;
    if fp.qself.is_some() || segs.len() < 2 {
        return 0;
    }
    let ty_seg = &segs[segs.len() - 2];
    let name = &segs[segs.len() - 1].ident;
    let Some((_, ctor)) = constructor(&ty_seg.ident.to_string(), &name.to_string()) else {
        return 0;
    };
    let Some(local) = (match &l.pat {
        syn::Pat::Ident(pi) => Some(pi.ident.clone()),
        syn::Pat::Type(t) => match &*t.pat {
            syn::Pat::Ident(pi) => Some(pi.ident.clone()),
            _ => None,
        },
        _ => None,
    }) else {
        return 0;
    };
    let params: Vec<syn::Ident> = (ctor.sig.inputs.iter())
        .filter_map(|a| match a {
            syn::FnArg::Typed(t) => match &*t.pat {
                syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                    Some(pi.ident.clone())
                }
                _ => None,
            },
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    if params.len() != ctor.sig.inputs.len() || params.len() != c.args.len() {
        return 0;
    }
    let stmts = &ctor.block.stmts;
    let Some((syn::Stmt::Expr(syn::Expr::Struct(lit), None), before)) = stmts.split_last() else {
        return 0;
    };
    // The statements before the literal check (`assert!(..);`) or bind a name each with
    // `let` (`let h = (b - a) / n as f64;`), a name bound once, not a parameter's: each
    // is renamed apart from the caller's (`p_h`).
    let mut binds = Binds::default();
    for st in before {
        binds.visit_stmt(st);
    }
    let let_names: Vec<syn::Ident> = (before.iter())
        .filter_map(|st| match st {
            syn::Stmt::Local(l) => match &l.pat {
                syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                    Some(pi.ident.clone())
                }
                syn::Pat::Type(t) => match &*t.pat {
                    syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                        Some(pi.ident.clone())
                    }
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect();
    let distinct: HashSet<String> = let_names.iter().map(|n| n.to_string()).collect();
    if binds.0.len() != let_names.len()
        || distinct.len() != let_names.len()
        || let_names.iter().any(|n| params.contains(n))
        || before.iter().any(|s| matches!(s, syn::Stmt::Item(_)))
    {
        return 0;
    }
    let mut taken = Idents::default();
    taken.visit_block(block);
    let mut lets: Vec<syn::Stmt> = Vec::new();
    let mut with: Vec<(String, syn::Expr)> = Vec::new();
    for (p, a) in params.iter().zip(&c.args) {
        let direct = matches!(
            function_value(a),
            syn::Expr::Closure(_) | syn::Expr::Path(_) | syn::Expr::Lit(_)
        );
        if direct {
            // In parentheses where it is more than a name (`&xs` read as `(&xs).to_vec()`).
            let a = match strip(a) {
                v @ (syn::Expr::Path(_) | syn::Expr::Lit(_)) => v.clone(),
                _ => syn::Expr::Paren(syn::ExprParen {
                    attrs: Vec::new(),
                    paren_token: Default::default(),
                    expr: Box::new(a.clone()),
                }),
            };
            with.push((p.to_string(), a));
            continue;
        }
        let mut n = format!("{local}_{p}");
        while taken.0.contains(&n) {
            n.push('_');
        }
        taken.0.insert(n.clone());
        let id = syn::Ident::new(&n, a.span());
        let Ok(st) = syn::parse2::<syn::Stmt>(quote_spanned!(a.span()=> let #id = #a;)) else {
            return 0;
        };
        lets.push(st);
        with.push((p.to_string(), path_expr(id)));
    }
    let mut renamed = Vec::new();
    for n in &let_names {
        let mut fresh = format!("{local}_{n}");
        while taken.0.contains(&fresh) {
            fresh.push('_');
        }
        taken.0.insert(fresh.clone());
        let id = syn::Ident::new(&fresh, n.span());
        with.push((n.to_string(), path_expr(id.clone())));
        renamed.push((n.to_string(), id));
    }
    struct Subst<'a>(&'a [(String, syn::Expr)], &'a syn::Path);
    impl VisitMut for Subst<'_> {
        fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
            if let syn::Expr::Path(p) = e {
                if let Some((_, v)) = (p.qself.is_none())
                    .then(|| p.path.get_ident())
                    .flatten()
                    .and_then(|id| self.0.iter().find(|(n, _)| id == n))
                {
                    *e = v.clone();
                    return;
                }
            }
            syn::visit_mut::visit_expr_mut(self, e);
        }
        fn visit_field_value_mut(&mut self, f: &mut syn::FieldValue) {
            if f.colon_token.is_none() {
                f.colon_token = Some(Default::default());
            }
            syn::visit_mut::visit_field_value_mut(self, f);
        }
        fn visit_expr_struct_mut(&mut self, s: &mut syn::ExprStruct) {
            if s.path.is_ident("Self") {
                s.path = self.1.clone();
            }
            syn::visit_mut::visit_expr_struct_mut(self, s);
        }
        fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
            // `assert!(a < b, "..")`: its arguments are expressions.
            let parsed = m.parse_body_with(
                syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
            );
            if let Ok(mut args) = parsed {
                for a in args.iter_mut() {
                    self.visit_expr_mut(a);
                }
                m.tokens = args.to_token_stream();
            }
        }
    }
    let mut ty_path = fp.path.clone();
    ty_path.segments.pop();
    let ty_path = syn::Path {
        leading_colon: ty_path.leading_colon,
        segments: ty_path
            .segments
            .into_pairs()
            .map(|p| p.into_value())
            .collect(),
    };
    let mut count = Counts::default();
    for st in stmts {
        count.visit_stmt(st);
    }
    let twice = (params.iter().zip(&c.args)).any(|(p, a)| {
        matches!(function_value(a), syn::Expr::Closure(_)) && count.0.get(&p.to_string()) > Some(&1)
    });
    if twice {
        return 0;
    }
    let mut sub = Subst(&with, &ty_path);
    let mut lit = lit.clone();
    sub.visit_expr_struct_mut(&mut lit);
    let mut checks: Vec<syn::Stmt> = before.to_vec();
    for st in &mut checks {
        sub.visit_stmt_mut(st);
        if let syn::Stmt::Local(l) = st {
            let pat = match &mut l.pat {
                syn::Pat::Type(t) => &mut *t.pat,
                p => p,
            };
            if let syn::Pat::Ident(pi) = pat {
                if let Some((_, id)) = renamed.iter().find(|(n, _)| pi.ident == n) {
                    pi.ident = id.clone();
                }
            }
        }
    }
    let syn::Stmt::Local(l) = &mut block.stmts[i] else {
        return 0;
    };
    if let Some(init) = &mut l.init {
        *init.expr = syn::Expr::Struct(lit);
    }
    let n = lets.len() + checks.len();
    let at = block.stmts.splice(i..i, lets.into_iter().chain(checks));
    drop(at);
    n
}

/// How many times each name is read as a path in a syntax tree.
#[derive(Default)]
struct Counts(std::collections::HashMap<String, usize>);

impl<'ast> Visit<'ast> for Counts {
    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        if let Some(id) = p.path.get_ident() {
            *self.0.entry(id.to_string()).or_default() += 1;
        }
    }
}

/// Rewrites the `let` at `i` if it binds such a struct; returns how many statements
/// stand for it.
fn rewrite_at(block: &mut syn::Block, i: usize, diag: &mut Diagnostics) -> Option<usize> {
    let syn::Stmt::Local(l) = &block.stmts[i] else {
        return None;
    };
    let init = l.init.as_ref().filter(|i| i.diverge.is_none())?;
    let syn::Expr::Struct(s) = strip(&init.expr) else {
        return None;
    };
    if s.qself.is_some() || s.rest.is_some() {
        return None;
    }
    let pat = match &l.pat {
        syn::Pat::Type(t) => &*t.pat,
        p => p,
    };
    let syn::Pat::Ident(pi) = pat else {
        return None;
    };
    if pi.by_ref.is_some() || pi.subpat.is_some() {
        return None;
    }
    let ty = s.path.segments.last()?.ident.clone();
    let lists = fn_list_fields(&ty.to_string());
    if let Some(fv) = (s.fields.iter())
        .find(|fv| member_name(&fv.member).is_some_and(|n| lists.iter().any(|(l, _)| *l == n)))
    {
        let (n, t) = (lists.iter()).find(|(l, _)| Some(l.clone()) == member_name(&fv.member))?;
        diag.error_spanned(&fv.expr, list_message(n, t));
        return None;
    }
    let mut fields = all_fields(&ty.to_string(), None)?;
    // A type parameter the struct does not bound (`struct P<F> { f: F }`), given a closure.
    for fv in &s.fields {
        let name = member_name(&fv.member)?;
        let closure = matches!(function_value(&fv.expr), syn::Expr::Closure(_));
        if let Some(f) = fields.iter_mut().find(|f| f.name == name) {
            if closure && !matches!(f.kind, Kind::Func(_)) {
                f.kind = Kind::Func(None);
            }
        }
    }
    if !fields.iter().any(|f| matches!(f.kind, Kind::Func(_))) {
        return None;
    }
    let name = pi.ident.clone();
    let mutable = pi.mutability;
    // Names already in the function, to keep the fields' locals apart from them.
    let mut taken = Idents::default();
    taken.visit_block(block);
    let locals: Vec<syn::Ident> = (fields.iter())
        .map(|f| {
            let mut n = format!("{name}_{}", f.name);
            while taken.0.contains(&n) {
                n.push('_');
            }
            syn::Ident::new(&n, name.span())
        })
        .collect();
    let mut values = vec![None; fields.len()];
    let mut lets: Vec<syn::Stmt> = Vec::new();
    for fv in &s.fields {
        let fname = member_name(&fv.member)?;
        let k = fields.iter().position(|f| f.name == fname)?;
        let local = &locals[k];
        match &fields[k].kind {
            Kind::Func(bound) => {
                let value = function_value(&fv.expr).clone();
                let value = match (value, bound) {
                    (syn::Expr::Closure(mut c), Some(b)) => {
                        type_closure_params(&mut c, b);
                        syn::Expr::Closure(c)
                    }
                    (v, _) => v,
                };
                values[k] = Some(value.clone());
                lets.push(syn::parse2(quote_spanned!(fv.expr.span()=> let #local = #value;)).ok()?);
            }
            Kind::Copy(t) if matches!(t, syn::Type::Path(p) if is_scalar_path(&p.path)) => {
                let e = &fv.expr;
                lets.push(
                    syn::parse2(quote_spanned!(e.span()=> let #mutable #local: #t = #e;)).ok()?,
                )
            }
            _ => {
                let e = &fv.expr;
                lets.push(syn::parse2(quote_spanned!(e.span()=> let #mutable #local = #e;)).ok()?)
            }
        }
    }
    if values
        .iter()
        .zip(&fields)
        .any(|(v, f)| v.is_none() && matches!(f.kind, Kind::Func(_)))
    {
        return None;
    }
    let prefix = {
        let segs: Vec<_> = s.path.segments.iter().map(|s| &s.ident).collect();
        let lead = s.path.leading_colon;
        let n = segs.len() - 1;
        let segs = &segs[..n];
        match home(&ty.to_string()) {
            Some(h) if n == 0 && lead.is_none() && !h.prefix.is_empty() => {
                let segs = h.prefix.iter().map(|p| format_ident!("{}", p));
                quote!(#(#segs::)*)
            }
            _ => quote!(#lead #(#segs::)*),
        }
    };
    // Later statements: the name must not be bound again (the rewrite would not see
    // which binding a use reads); then check and rewrite its uses.
    let rest = &block.stmts[i + 1..];
    let mut binds = Binds::default();
    for st in rest {
        binds.visit_stmt(st);
    }
    if binds.0.contains(&name) {
        return None;
    }
    let rebound = (values.iter())
        .map(|v| {
            matches!(v, Some(syn::Expr::Path(p)) if p.qself.is_none()
                && p.path.get_ident().is_some_and(|id| binds.0.contains(id)))
        })
        .collect();
    let local = Local {
        name: name.clone(),
        prefix,
        ty,
        fields,
        locals,
        values,
        rebound,
        param: false,
    };
    let mut rw = UseFields {
        local: &local,
        errors: Vec::new(),
    };
    let mut rest: Vec<syn::Stmt> = block.stmts.drain(i + 1..).collect();
    for st in &mut rest {
        rw.visit_stmt_mut(st);
    }
    for (span, msg) in rw.errors {
        diag.error(span, msg);
    }
    let n = lets.len();
    block.stmts.truncate(i);
    block.stmts.extend(lets);
    block.stmts.extend(rest);
    Some(n)
}

/// `|t| ..` under `Fn(f64) -> f64`: `|t: f64| ..` (a `let` closure's parameters typed as
/// the field types them).
fn type_closure_params(c: &mut syn::ExprClosure, b: &syn::TraitBound) {
    let Some(syn::PathArguments::Parenthesized(args)) =
        b.path.segments.last().map(|s| &s.arguments)
    else {
        return;
    };
    if args.inputs.len() != c.inputs.len() {
        return;
    }
    for (p, t) in c.inputs.iter_mut().zip(&args.inputs) {
        if matches!(p, syn::Pat::Type(_)) {
            continue;
        }
        let inner = p.clone();
        *p = syn::Pat::Type(syn::PatType {
            attrs: Vec::new(),
            pat: Box::new(inner),
            colon_token: Default::default(),
            ty: Box::new(t.clone()),
        });
    }
}

use syn::spanned::Spanned;

/// Rewrites the uses of a local of a struct holding a function.
struct UseFields<'a> {
    local: &'a Local,
    errors: Vec<(Span, String)>,
}

impl UseFields<'_> {
    fn is_local(&self, e: &syn::Expr) -> bool {
        matches!(strip(e), syn::Expr::Path(p) if p.qself.is_none() && p.path.is_ident(&self.local.name))
    }
    fn field(&self, m: &syn::Member) -> Option<usize> {
        let name = member_name(m)?;
        self.local.fields.iter().position(|f| f.name == name)
    }

    /// `p` or `&p`, an argument standing for the whole local.
    fn is_local_arg(&self, e: &syn::Expr) -> bool {
        match strip(e) {
            syn::Expr::Reference(r) if r.mutability.is_none() => self.is_local(&r.expr),
            other => self.is_local(other),
        }
    }

    /// The local's fields as the arguments of a free function taking them.
    fn field_args(&self) -> Vec<TokenStream2> {
        let param = self.local.param;
        (self.local.fields.iter().enumerate())
            .map(|(k, f)| {
                let l = &self.local.locals[k];
                match (&f.kind, &self.local.values[k]) {
                    (Kind::Func(_), Some(syn::Expr::Closure(_))) => quote!(#l),
                    // A name bound again after the literal (`let f = ..; Quad { f, .. };
                    // let f = ..;`): the field's local, which holds the first.
                    (Kind::Func(_), Some(_)) if self.local.rebound[k] => quote!(#l),
                    // A function item, or a loop's binding of one, as written.
                    (Kind::Func(_), Some(v)) => quote!(#v),
                    (Kind::Func(_), None) => quote!(&#l),
                    (Kind::Borrowed(_), _) if !param => quote!(&#l),
                    _ => quote!(#l),
                }
            })
            .collect()
    }

    /// `shooter.solve(&ode, y0)` of a method of a `#[derive_frule] impl` taking the
    /// struct: `shooter.solve__fields(ode_rhs, ode_t1, y0)` ([`holder_methods`]).
    #[inline(never)]
    fn holder_method_call(&mut self, e: &mut syn::Expr) -> bool {
        let syn::Expr::MethodCall(mc) = e else {
            return false;
        };
        if self.is_local(&mc.receiver) || !mc.args.iter().any(|a| self.is_local_arg(a)) {
            return false;
        }
        let (name, ty) = (&self.local.name, self.local.ty.to_string());
        let method = mc.method.to_string();
        let renamed = method.strip_suffix(METHOD_SUFFIX);
        let key = format!(".{}", renamed.unwrap_or(&method));
        if !takes_holder(&key, &ty) {
            let at = mc
                .args
                .iter()
                .find(|a| self.is_local_arg(a))
                .map(|a| a.span());
            let m = renamed.unwrap_or(&method);
            self.errors.push((
                at.unwrap_or_else(|| mc.span()),
                format!("`#[derive_frule]` does not support passing `{name}`, a `{ty}` holding a function, to the method `{m}`: only a method of a `#[derive_frule]` inherent `impl` of this file taking a `{ty}` as a parameter (`fn {m}(&self, p: &{ty}<..>, ..)`) takes its function along; annotate its `impl` with `#[derive_frule]`, or pass the fields it needs (`{name}.a`) and call the function here (`({name}.f)(x)`)"),
            ));
            return true;
        }
        self.visit_expr_mut(&mut mc.receiver);
        let mut args: Vec<TokenStream2> = Vec::new();
        let taken: Vec<syn::Expr> = mc.args.iter().cloned().collect();
        for mut a in taken {
            if self.is_local_arg(&a) {
                args.extend(self.field_args());
            } else {
                self.visit_expr_mut(&mut a);
                args.push(a.to_token_stream());
            }
        }
        let callee = match renamed {
            Some(_) => mc.method.clone(),
            None => format_ident!("{}{}", mc.method, METHOD_SUFFIX, span = mc.method.span()),
        };
        let receiver = &mc.receiver;
        if let Ok(call) = syn::parse2(quote_spanned!(mc.span()=> #receiver.#callee(#(#args),*))) {
            *e = call;
        }
        true
    }

    /// `solve(&ode, y0)` of a `#[derive_frule]` function taking the struct: its fields'
    /// function, `solve__fields(ode_rhs, ode_t1, y0)` ([`holder_fn`]).
    #[inline(never)]
    fn holder_call(&mut self, e: &mut syn::Expr) -> bool {
        let syn::Expr::Call(c) = e else { return false };
        let syn::Expr::Path(fp) = strip(&c.func) else {
            return false;
        };
        if fp.qself.is_some() || !c.args.iter().any(|a| self.is_local_arg(a)) {
            return false;
        }
        let (name, ty) = (&self.local.name, self.local.ty.to_string());
        let Some(last) = fp.path.segments.last() else {
            return false;
        };
        let callee = last.ident.to_string();
        let renamed = callee.strip_suffix(FIELDS_SUFFIX);
        if !takes_holder(renamed.unwrap_or(&callee), &ty) {
            let at = c
                .args
                .iter()
                .find(|a| self.is_local_arg(a))
                .map(|a| a.span());
            self.errors.push((
                at.unwrap_or_else(|| c.span()),
                format!("`#[derive_frule]` does not support passing `{name}`, a `{ty}` holding a function, to `{callee}`: only a `#[derive_frule]` function of this file taking a `{ty}` as a parameter (`fn {callee}(p: &{ty}<..>, ..)`) takes its function along; annotate `{callee}` with `#[derive_frule]` (in this file), or pass the fields it needs (`{name}.a`) and call the function here (`({name}.f)(x)`)"),
            ));
            return true;
        }
        let mut path = fp.path.clone();
        if renamed.is_none() {
            if let Some(seg) = path.segments.last_mut() {
                seg.ident =
                    format_ident!("{}{}", seg.ident, FIELDS_SUFFIX, span = seg.ident.span());
                seg.arguments = syn::PathArguments::None;
            }
        }
        let mut args: Vec<TokenStream2> = Vec::new();
        let taken: Vec<syn::Expr> = c.args.iter().cloned().collect();
        for mut a in taken {
            if self.is_local_arg(&a) {
                args.extend(self.field_args());
            } else {
                self.visit_expr_mut(&mut a);
                args.push(a.to_token_stream());
            }
        }
        if let Ok(call) = syn::parse2(quote_spanned!(c.span()=> #path(#(#args),*))) {
            *e = call;
        }
        true
    }
}

impl VisitMut for UseFields<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if self.holder_call(e) || self.holder_method_call(e) {
            return;
        }
        // `&p.xs` of a borrowed field of a parameter: the parameter, a reference.
        if let (true, syn::Expr::Reference(r)) = (self.local.param, &mut *e) {
            if let syn::Expr::Field(f) = strip(&r.expr) {
                let borrowed = self.is_local(&f.base)
                    && self
                        .field(&f.member)
                        .is_some_and(|k| matches!(self.local.fields[k].kind, Kind::Borrowed(_)));
                if borrowed && r.mutability.is_none() {
                    let inner = (*r.expr).clone();
                    *e = inner;
                }
            }
        }
        let (name, ty) = (&self.local.name, &self.local.ty);
        match e {
            // `(p.f)(x)`: the `let` closure.
            syn::Expr::Call(c) => {
                if let syn::Expr::Field(f) = strip(&c.func) {
                    if self.is_local(&f.base) {
                        if let Some(k) = self.field(&f.member) {
                            if matches!(self.local.fields[k].kind, Kind::Func(_)) {
                                let l = &self.local.locals[k];
                                let l = syn::Ident::new(&l.to_string(), f.member.span());
                                *c.func = path_expr(l);
                                for a in c.args.iter_mut() {
                                    self.visit_expr_mut(a);
                                }
                                return;
                            }
                        }
                    }
                }
            }
            syn::Expr::Field(f) if self.is_local(&f.base) => {
                if let Some(k) = self.field(&f.member) {
                    let fld = &self.local.fields[k];
                    if matches!(fld.kind, Kind::Func(_)) {
                        self.errors.push((
                            f.member.span(),
                            format!("`#[derive_frule]` does not support reading the function held in `{name}.{}` as a value: call it, `({name}.{})(..)`, or call a `&self` method of `{ty}` that calls it", fld.name, fld.name),
                        ));
                        return;
                    }
                    let l = &self.local.locals[k];
                    *e = syn::Expr::Path(syn::ExprPath {
                        attrs: Vec::new(),
                        qself: None,
                        path: syn::Ident::new(&l.to_string(), f.member.span()).into(),
                    });
                }
                return;
            }
            syn::Expr::MethodCall(mc) if self.is_local(&mc.receiver) => {
                let method = mc.method.to_string();
                let derived = derived_method(&ty.to_string(), &method);
                if !derived {
                    self.errors.push((
                        mc.method.span(),
                        format!("`#[derive_frule]` does not support calling `{name}.{method}(..)` on `{name}`, a `{ty}` holding a function: only the `&self` methods of a `#[derive_frule] impl {ty}` in this file take its function along; put `{method}` in one (taking `&self`)"),
                    ));
                    return;
                }
                for a in mc.args.iter_mut() {
                    self.visit_expr_mut(a);
                }
                let callee = free_name(ty, &mc.method);
                let prefix = &self.local.prefix;
                let fields = self.field_args();
                let args = &mc.args;
                if let Ok(call) = syn::parse2(
                    quote_spanned!(mc.method.span()=> #prefix #callee(#(#fields,)* #args)),
                ) {
                    *e = call;
                }
                return;
            }
            syn::Expr::Path(p) if p.qself.is_none() && p.path.is_ident(name) => {
                self.errors.push((
                    p.span(),
                    format!("`#[derive_frule]` does not support using `{name}`, a `{ty}` holding a function, as a whole value: the rule cannot build a struct holding the function's differentiated form; read its fields (`{name}.a`), call its function (`({name}.f)(x)`) or its `&self` methods (`{name}.m(..)`), or pass it to a `#[derive_frule]` function taking it (`solve(&{name}, ..)`), where it is built"),
                ));
                return;
            }
            _ => {}
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

/// Whether the type parameter `id` of `generics` is bounded by `Fn(..)`, `FnMut(..)` or
/// `FnOnce(..)`, inline or in the `where` clause.
fn bounded_by_fn(generics: &syn::Generics, id: &syn::Ident) -> bool {
    let inline = (generics.type_params())
        .filter(|t| t.ident == *id)
        .flat_map(|t| t.bounds.iter());
    let from_where = (generics.where_clause.iter().flat_map(|w| &w.predicates))
        .filter_map(|p| match p {
            syn::WherePredicate::Type(t)
                if matches!(&t.bounded_ty, syn::Type::Path(bp) if bp.path.is_ident(id)) =>
            {
                Some(&t.bounds)
            }
            _ => None,
        })
        .flatten();
    inline
        .chain(from_where)
        .any(|b| matches!(b, syn::TypeParamBound::Trait(t) if is_fn_bound(t)))
}
