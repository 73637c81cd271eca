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

/// The fields of the file's struct `name` (the file's only item of that name).
fn all_fields(name: &str, impl_generics: Option<&syn::Generics>) -> Option<Vec<Field>> {
    let path = crate::source::source_file()?;
    let file = crate::source::parse(&path)?;
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
    let Some(file) = crate::source::source_file().and_then(|p| crate::source::parse(&p)) else {
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
    let fn_bounded = |id: &syn::Ident| {
        let g = &imp.generics;
        let inline = (g.type_params())
            .filter(|t| t.ident == *id)
            .flat_map(|t| t.bounds.iter());
        let from_where = (g.where_clause.iter().flat_map(|w| &w.predicates))
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
    };
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

/// A derived function taking a struct that holds a function, or building one with a
/// constructor: errors, as the rule can neither hold nor see into it.
pub(crate) fn check_holders(func: &syn::ItemFn, diag: &mut Diagnostics) {
    for arg in &func.sig.inputs {
        let syn::FnArg::Typed(t) = arg else { continue };
        if let Some((name, field)) = holder_in(&t.ty) {
            diag.error_spanned(
                &t.ty,
                format!("`#[derive_frule]` does not support a parameter holding `{name}`, a struct with a function in its field `{field}`: the caller built that function over floats, and it has no differentiated form; build the `{name}` inside the differentiated function with a struct literal from the closure (`let p = {name} {{ {field}: |..| .., .. }};`) and call its `&self` methods there, or take the function itself as a parameter (`{field}: impl Fn(..)`)"),
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
                            format!("`#[derive_frule]` does not support building `{ty}`, a struct with a function in its field `{field}`, by `{ty}::{f}(..)`: the rule passes the closure of a struct literal to `{ty}`'s methods and cannot see into `{f}`; write the literal here (`let p = {ty} {{ {field}: |..| .., .. }};`)"),
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
        if let Some(n) = rewrite_at(block, i, diag) {
            i += n;
        } else {
            i += 1;
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
        quote!(#lead #(#segs::)*)
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
}

impl VisitMut for UseFields<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
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
                let derived = crate::plain_fns::derived_ref_method(&ty.to_string(), &method);
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
                let fields = (self.local.fields.iter().enumerate()).map(|(k, f)| {
                    let l = &self.local.locals[k];
                    match (&f.kind, &self.local.values[k]) {
                        (Kind::Func(_), Some(syn::Expr::Closure(_))) => quote!(#l),
                        // A name bound again after the literal (`let f = ..; Quad { f, .. };
                        // let f = ..;`): the field's local, which holds the first.
                        (Kind::Func(_), Some(_)) if self.local.rebound[k] => quote!(#l),
                        // A function item, or a loop's binding of one, as written.
                        (Kind::Func(_), Some(v)) => quote!(#v),
                        (Kind::Borrowed(_), _) => quote!(&#l),
                        _ => quote!(#l),
                    }
                });
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
                    format!("`#[derive_frule]` does not support using `{name}`, a `{ty}` holding a function, as a whole value: the rule cannot build a struct holding the function's differentiated form; read its fields (`{name}.a`), call its function (`({name}.f)(x)`) or its `&self` methods (`{name}.m(..)`) where it is built"),
                ));
                return;
            }
            _ => {}
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}
