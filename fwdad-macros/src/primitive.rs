//! `#[primitive]` and `#[non_differentiable]`: register hand-written forward rules.
//!
//! Every form registers its rule exactly as `#[derive_frule]` does, so calls in derived
//! bodies (same crate or downstream, by path or through `use`) find it: next to the
//! untouched function `name` it emits
//! * `struct name {}`: the marker (type namespace), implementing
//!   `Frule<(Dual<P1, <P1 as Differentiable>::TangentIn<M>>, ..), M>` for every mode `M`;
//! * `fn name_frule(..)`: the one-direction rule on plain `Dual`s, same visibility.
//!
//! The three forms differ in where the rule's body comes from.
//!
//! **Scalar partials** (ChainRules' `@scalar_rule`), for `f64` functions of `f64`
//! arguments (integer and `bool` arguments allowed, they carry no tangent):
//! ```text
//! #[primitive(d = (x - y).exp())]            // ∂/∂x; `y` is the result
//! fn log1p_exp(x: f64) -> f64 { .. }
//! #[primitive(d = ((a - y).exp(), (b - y).exp()))]   // one partial per `f64` argument
//! fn log_add_exp(a: f64, b: f64) -> f64 { .. }
//! ```
//! expands to a private type holding the partials twice, once on `f64` (`d`) and once on
//! `Dual<f64, T>` (`d_dual`, which gives second-order modes `f''`), implementing the
//! runtime's `Unary<f64>` (one argument) or `Binary<f64>` (two), and a `Frule` impl that
//! goes through `ScalarTangent::chain1` / `rules::binary`: one rule for every tangent
//! representation, accepting active duals or inactive plain `f64`s in any mix (an
//! inactive argument costs nothing). Three or more arguments sum `chain1` over the active
//! ones, with a `d_dual` that reads every argument's first-order part (see [`nary_items`]).
//! The dual copy of the partials is the user's expression with float literals made
//! constant duals, comparisons made on primals, `f64::m(x)` calls made methods
//! ([`DualRewrite`]), and each partial lifted at its value positions ([`lift_tails`]).
//!
//! **Full rule**: `#[primitive(rule = dot_rule)] fn dot(..)`: the author's `dot_rule`,
//! generic over the tangent type, is called with the argument duals. The impl coerces it to
//! the exact fn-pointer type the primal's signature implies, at the user's `dot_rule`
//! tokens, so a wrong arity, argument or return type is a type error there that prints the
//! expected signature.
//!
//! **`#[non_differentiable]`**: the rule calls the function on the primals and returns
//! the result with a zero tangent (`constant_in::<M, _>`).
//!
//! Every failure is a spanned `syn::Error`, accumulated; on error the function is emitted
//! unchanged with the errors and, when its signature was understood, a marker whose rule is
//! `unreachable!()`, so callers see only the real errors.

use crate::diag::Diagnostics;
use crate::lifetimes::{self, LifetimeNamer};
use crate::register::Registration;
use crate::splice::{call_expr, paren};
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

/// Which attribute is being expanded (for messages).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Attr {
    Primitive,
    NonDifferentiable,
}

impl Attr {
    fn name(self) -> &'static str {
        match self {
            Attr::Primitive => "#[primitive]",
            Attr::NonDifferentiable => "#[non_differentiable]",
        }
    }
}

/// Expands `#[primitive(args)] item`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    if let Some(out) = crate::nesting::reject("#[primitive]", &item, true) {
        return out;
    }
    let mut diag = Diagnostics::new();
    let args = diag.handle(syn::parse2::<PrimitiveArgs>(args));
    let rt = runtime_path(args.as_ref().and_then(|a| a.krate.as_ref()));
    let Some(func) = parse_fn(Attr::Primitive, &item, &mut diag) else {
        return fallback(item, diag, None, &rt, true);
    };
    let sig = check_signature(Attr::Primitive, &func, &mut diag);
    let method = match (&args, &sig) {
        (Some(a), Some(sig)) => a
            .method
            .as_ref()
            .and_then(|m| method_of(&func, sig, m, &mut diag)),
        _ => None,
    };
    let form = args.and_then(|a| a.into_form(&mut diag));
    // A rule named like the generated wrapper is reported by `full_rule`; no stub then.
    let wrapper_name = format!("{}_frule", func.sig.ident);
    let stub_wrapper = !matches!(&form, Some(Form::Rule(p)) if p.qself.is_none() && p.path.is_ident(&wrapper_name));
    if let (Some(sig), Some(Form::Partials(_))) = (&sig, &form) {
        reject_fn_values(Attr::Primitive, &func, sig, &mut diag);
    }
    let body = match (&sig, form) {
        (Some(sig), Some(Form::Partials(p))) => scalar_rule(&func, sig, &p, &rt, &mut diag),
        (Some(sig), Some(Form::Rule(path))) => full_rule(&func, sig, &path, &rt, &mut diag),
        _ => None,
    };
    match (diag.has_errors(), sig, body) {
        (false, Some(sig), Some(body)) => {
            let _ = diag.finish();
            let dispatch = method.map(|m| method_dispatch(&func, &sig, &m, &rt));
            let mut out = finish(&func, &sig, body, &rt);
            out.extend(dispatch);
            out
        }
        (_, sig, _) => fallback(
            func.to_token_stream(),
            diag,
            sig.map(|s| (func, s)),
            &rt,
            stub_wrapper,
        ),
    }
}

/// Expands `#[non_differentiable(args)] item`.
pub fn expand_non_differentiable(args: TokenStream, item: TokenStream) -> TokenStream {
    if let Some(out) = crate::nesting::reject("#[non_differentiable]", &item, true) {
        return out;
    }
    let mut diag = Diagnostics::new();
    let args = diag.handle(syn::parse2::<NonDiffArgs>(args));
    let rt = runtime_path(args.as_ref().and_then(|a| a.krate.as_ref()));
    let Some(func) = parse_fn(Attr::NonDifferentiable, &item, &mut diag) else {
        return fallback(item, diag, None, &rt, true);
    };
    let sig = check_signature(Attr::NonDifferentiable, &func, &mut diag);
    if let Some(sig) = &sig {
        check_no_float_writes(sig, &mut diag);
        reject_fn_values(Attr::NonDifferentiable, &func, sig, &mut diag);
    }
    match (diag.has_errors(), sig) {
        (false, Some(sig)) => {
            let _ = diag.finish();
            let body = non_differentiable_rule(&func, &sig, &rt);
            finish(&func, &sig, body, &rt)
        }
        (_, sig) => fallback(
            func.to_token_stream(),
            diag,
            sig.map(|s| (func, s)),
            &rt,
            true,
        ),
    }
}

/// Function values are taken only by a full rule (`#[primitive(rule = ..)]`).
fn reject_fn_values(attr: Attr, func: &syn::ItemFn, sig: &Sig, diag: &mut Diagnostics) {
    for (arg, &f) in func.sig.inputs.iter().zip(&sig.fn_values) {
        if let (true, syn::FnArg::Typed(t)) = (f, arg) {
            error_at(diag, &t.ty,
                format!("`{}` does not take function values in this form; write the rule on `Dual`s with `#[primitive(rule = ..)]`, which takes this parameter as a function of duals", attr.name()),
            );
        }
    }
}

/// Records an error spanning all of `tokens` (on stable, `syn::Error::new_spanned` is the
/// way to underline more than the first token).
fn error_at(diag: &mut Diagnostics, tokens: &dyn ToTokens, msg: impl std::fmt::Display) {
    let _ = diag.handle::<()>(Err(syn::Error::new_spanned(tokens.to_token_stream(), msg)));
}

/// A type as a reader writes it (`&mut [f64]`, not `& mut [f64]`).
fn type_text(ty: &syn::Type) -> String {
    let Ok(file) = syn::parse2::<syn::File>(quote!(type __T = #ty;)) else {
        return ty.to_token_stream().to_string();
    };
    let text = prettyplease::unparse(&file);
    text.trim()
        .strip_prefix("type __T = ")
        .and_then(|t| t.strip_suffix(';'))
        .map_or_else(|| ty.to_token_stream().to_string(), str::to_string)
}

fn runtime_path(krate: Option<&syn::Path>) -> TokenStream {
    match krate {
        Some(p) => quote!(#p::__private),
        None => quote!(::fwdad::__private),
    }
}

// ---------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------

/// `#[primitive(d = .., result = y, crate = path)]` or `#[primitive(rule = path, ..)]`.
#[derive(Default)]
struct PrimitiveArgs {
    /// `d = expr`: the partial derivative(s).
    d: Option<(syn::Ident, syn::Expr)>,
    /// `rule = path`: a hand-written rule.
    rule: Option<(syn::Ident, syn::ExprPath)>,
    /// `result = name`: what the partials call the primal result (default `y`).
    result: Option<(syn::Ident, syn::Ident)>,
    /// `crate = path`: the `fwdad` crate.
    krate: Option<syn::Path>,
    /// `order = 1`: the partials are evaluated on plain floats only (they call a plain
    /// function, `d = digamma(x)`), so the rule has no second order.
    order: Option<(syn::Ident, syn::LitInt)>,
    /// `method` or `method = name`: the rule is also that of the method `name` (by default
    /// the function's own name) called on a value of the first parameter's type, as another
    /// crate's extension trait on floats gives it (`x.error()` with `use special::Error;`).
    method: Option<(syn::Ident, Option<syn::Ident>)>,
}

/// The rule's source, once the arguments are validated.
enum Form {
    Partials(Partials),
    Rule(syn::ExprPath),
}

/// The scalar-partials form's arguments.
struct Partials {
    expr: syn::Expr,
    /// The result's name inside `expr`, and whether the user chose it.
    result: Option<(syn::Ident, bool)>,
    /// `order = 1`: no evaluation of the partials on duals (second order panics).
    first_order: bool,
}

const PRIMITIVE_EXPECTED: &str =
    "expected `d = ..` (partial derivatives), `rule = path` (a hand-written rule), `result = name`, `order = 1`, `method = name` or `crate = path`";

/// Parses `key = value` pairs, calling `value` for each key.
fn parse_pairs(
    input: ParseStream,
    mut value: impl FnMut(&syn::Ident, ParseStream) -> syn::Result<()>,
) -> syn::Result<()> {
    while !input.is_empty() {
        let key: syn::Ident = if input.peek(syn::Token![crate]) {
            let k: syn::Token![crate] = input.parse()?;
            syn::Ident::new("crate", k.span)
        } else {
            input.call(syn::ext::IdentExt::parse_any)?
        };
        value(&key, input)?;
        if !input.is_empty() {
            input.parse::<syn::Token![,]>()?;
        }
    }
    Ok(())
}

fn duplicate(key: &syn::Ident) -> syn::Error {
    syn::Error::new(key.span(), format!("duplicate argument `{key}`"))
}

fn eq(key: &syn::Ident, input: ParseStream) -> syn::Result<()> {
    if input.peek(syn::Token![=]) {
        input.parse::<syn::Token![=]>()?;
        Ok(())
    } else {
        Err(syn::Error::new(
            key.span(),
            format!("expected `{key} = ..`"),
        ))
    }
}

impl Parse for PrimitiveArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut args = PrimitiveArgs::default();
        parse_pairs(input, |key, input| {
            match key.to_string().as_str() {
                "d" => {
                    eq(key, input)?;
                    if args.d.is_some() {
                        return Err(duplicate(key));
                    }
                    args.d = Some((key.clone(), input.parse()?));
                }
                "rule" => {
                    eq(key, input)?;
                    if args.rule.is_some() {
                        return Err(duplicate(key));
                    }
                    let e: syn::Expr = input.parse()?;
                    match e {
                        syn::Expr::Path(p) => args.rule = Some((key.clone(), p)),
                        other => return Err(syn::Error::new(
                            other.span(),
                            "`rule` takes the path of the rule function, e.g. `rule = dot_rule`",
                        )),
                    }
                }
                "result" => {
                    eq(key, input)?;
                    if args.result.is_some() {
                        return Err(duplicate(key));
                    }
                    args.result = Some((key.clone(), input.parse()?));
                }
                "order" => {
                    eq(key, input)?;
                    if args.order.is_some() {
                        return Err(duplicate(key));
                    }
                    let n: syn::LitInt = input.parse()?;
                    if !matches!(n.base10_digits(), "1" | "2") {
                        return Err(syn::Error::new(
                            n.span(),
                            "`order` is `1` (a first-order rule: the partials are evaluated on plain floats only) or `2` (the default)",
                        ));
                    }
                    args.order = Some((key.clone(), n));
                }
                "method" => {
                    if args.method.is_some() {
                        return Err(duplicate(key));
                    }
                    let name = match input.peek(syn::Token![=]) {
                        true => {
                            input.parse::<syn::Token![=]>()?;
                            Some(input.call(syn::ext::IdentExt::parse_any)?)
                        }
                        false => None,
                    };
                    args.method = Some((key.clone(), name));
                }
                "crate" => {
                    eq(key, input)?;
                    if args.krate.is_some() {
                        return Err(duplicate(key));
                    }
                    args.krate = Some(input.call(syn::Path::parse_mod_style)?);
                }
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("unknown `#[primitive]` argument `{other}`; {PRIMITIVE_EXPECTED}"),
                    ))
                }
            }
            Ok(())
        })?;
        Ok(args)
    }
}

impl PrimitiveArgs {
    fn into_form(self, diag: &mut Diagnostics) -> Option<Form> {
        match (self.d, self.rule) {
            (Some(_), Some((key, _))) => {
                error_at(diag, &key,
                    "`d` and `rule` are alternatives: give the partial derivatives (`d = ..`) or a hand-written rule (`rule = path`), not both",
                );
                None
            }
            (None, None) => {
                diag.error(
                    Span::call_site(),
                    "`#[primitive]` needs its rule: `#[primitive(d = ..)]` with the partial derivatives of a scalar function, or `#[primitive(rule = path)]` naming a hand-written rule; for a function whose result carries no tangent, use `#[non_differentiable]`",
                );
                None
            }
            (Some((_, expr)), None) => Some(Form::Partials(Partials {
                expr,
                first_order: self
                    .order
                    .as_ref()
                    .is_some_and(|(_, n)| n.base10_digits() == "1"),
                result: Some(match self.result {
                    Some((_, name)) => (name, true),
                    None => (syn::Ident::new("y", Span::call_site()), false),
                }),
            })),
            (None, Some((_, path))) => {
                if let Some((key, _)) = self.order {
                    error_at(diag, &key,
                        "`order` belongs to `d = ..`: a hand-written `rule` gives second order itself, or not",
                    );
                    return None;
                }
                if let Some((key, _)) = self.result {
                    error_at(diag, &key,
                        "`result` names the primal result inside `d = ..`; a hand-written `rule` has no use for it",
                    );
                    return None;
                }
                Some(Form::Rule(path))
            }
        }
    }
}

/// `#[non_differentiable(crate = path)]`.
#[derive(Default)]
struct NonDiffArgs {
    krate: Option<syn::Path>,
}

impl Parse for NonDiffArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut args = NonDiffArgs::default();
        parse_pairs(input, |key, input| {
            if key == "crate" {
                eq(key, input)?;
                if args.krate.is_some() {
                    return Err(duplicate(key));
                }
                args.krate = Some(input.call(syn::Path::parse_mod_style)?);
                Ok(())
            } else {
                Err(syn::Error::new(
                    key.span(),
                    format!("unknown `#[non_differentiable]` argument `{key}`; the only argument is `crate = path`"),
                ))
            }
        })?;
        Ok(args)
    }
}

// ---------------------------------------------------------------------------------------
// The annotated item and its signature
// ---------------------------------------------------------------------------------------

/// Parses the item as a free function, or reports what it is instead.
///
/// ```text
/// #[primitive(d = 1.0)] struct S;          // error: applies to a function
/// #[primitive(d = 1.0)] #[derive_frule] fn f(x: f64) -> f64  // error: two rules
/// ```
fn parse_fn(attr: Attr, item: &TokenStream, diag: &mut Diagnostics) -> Option<syn::ItemFn> {
    let name = attr.name();
    match syn::parse2::<syn::Item>(item.clone()) {
        Ok(syn::Item::Fn(f)) => {
            check_other_rules(attr, &f, diag);
            Some(f)
        }
        Ok(syn::Item::ForeignMod(_)) => {
            diag.error(
                Span::call_site(),
                format!("`{name}` applies to a function with a body, not to an `extern` block: declare a safe Rust function that calls the foreign one, and annotate that"),
            );
            None
        }
        Ok(syn::Item::Impl(_)) => {
            diag.error(
                Span::call_site(),
                format!("`{name}` applies to a free function; methods and `impl` blocks are not supported: write a free function and annotate it"),
            );
            None
        }
        Ok(other) => {
            diag.error(
                Span::call_site(),
                format!(
                    "`{name}` applies to a function (`fn`), not to {}",
                    item_kind(&other)
                ),
            );
            None
        }
        Err(_) => {
            diag.error(
                Span::call_site(),
                format!("`{name}` applies to a function (`fn`)"),
            );
            None
        }
    }
}

fn item_kind(item: &syn::Item) -> &'static str {
    match item {
        syn::Item::Const(_) => "a `const`",
        syn::Item::Enum(_) => "an `enum`",
        syn::Item::Mod(_) => "a module",
        syn::Item::Static(_) => "a `static`",
        syn::Item::Struct(_) => "a `struct`",
        syn::Item::Trait(_) => "a trait",
        syn::Item::Type(_) => "a type alias",
        syn::Item::Union(_) => "a `union`",
        syn::Item::Use(_) => "a `use` declaration",
        syn::Item::Macro(_) => "a macro invocation",
        _ => "this item",
    }
}

/// One function, one rule: another rule attribute on the same function is an error at it.
///
/// ```text
/// #[primitive(d = 2.0 * x)]
/// #[derive_frule]            // error: `f` would get two forward rules
/// fn f(x: f64) -> f64 { x * x }
/// ```
fn check_other_rules(attr: Attr, func: &syn::ItemFn, diag: &mut Diagnostics) {
    for a in &func.attrs {
        let Some(last) = a.path().segments.last() else {
            continue;
        };
        let other = match last.ident.to_string().as_str() {
            "primitive" => "#[primitive]",
            "non_differentiable" => "#[non_differentiable]",
            "derive_frule" => "#[derive_frule]",
            _ => continue,
        };
        let fname = &func.sig.ident;
        let msg = if other == attr.name() {
            format!("`{other}` given twice: `{fname}` can have only one forward rule")
        } else {
            format!(
                "`{fname}` can have only one forward rule, but both `{}` and `{other}` register one; keep one of them",
                attr.name()
            )
        };
        error_at(diag, &a, msg);
    }
}

/// The parts of the signature every form needs.
struct Sig {
    /// Parameter names (`crate::register::param_name`).
    names: Vec<syn::Ident>,
    /// Parameter types as written (for the `_frule` wrapper and the scalar form).
    inputs: Vec<syn::Type>,
    /// Parameter types with every elided lifetime named (for the impl).
    named_inputs: Vec<syn::Type>,
    /// Return type as written (`()` when omitted).
    output: syn::Type,
    /// The return type with its lifetimes named.
    named_output: syn::Type,
    /// Lifetimes the impl declares.
    lifetimes: Vec<syn::Lifetime>,
    /// The impl's mode parameter: `T`, unless the signature mentions a `T`.
    mode: syn::Ident,
    /// One flag per parameter that is a function value (`&dyn Fn(f64) -> f64`, `fn(..)`):
    /// the rule takes it as a function of duals (`crate::higher_order`), only in the
    /// `rule = ..` form.
    fn_values: Vec<bool>,
}

/// Checks what every form needs of the signature, accumulating errors.
///
/// ```text
/// #[primitive(rule = r)] fn f<T>(x: T) -> T   // error: generic functions
/// #[primitive(rule = r)] async fn f() {}      // error: `async fn`
/// ```
fn check_signature(attr: Attr, func: &syn::ItemFn, diag: &mut Diagnostics) -> Option<Sig> {
    let name = attr.name();
    let sig = &func.sig;
    let before = diag.has_errors();
    if let Some(a) = &sig.asyncness {
        error_at(diag, &a, format!("`{name}` does not support `async fn`"));
    }
    if let Some(u) = &sig.unsafety {
        error_at(diag, &u,
            format!("`{name}` does not support `unsafe fn`: wrap the call in a safe function and annotate that"),
        );
    }
    if let Some(v) = &sig.variadic {
        error_at(
            diag,
            &v,
            format!("`{name}` does not support variadic functions"),
        );
    }
    for p in &sig.generics.params {
        match p {
            syn::GenericParam::Lifetime(_) => {}
            syn::GenericParam::Type(t) => error_at(
                diag,
                &t,
                format!(
                    "`{name}` does not support generic functions; write the function for `f64`"
                ),
            ),
            syn::GenericParam::Const(c) => error_at(
                diag,
                &c,
                format!("`{name}` does not support const generic parameters"),
            ),
        }
    }
    if let Some(w) = &sig.generics.where_clause {
        error_at(
            diag,
            &w,
            format!("`{name}` does not support `where` clauses"),
        );
    }
    let mut namer = LifetimeNamer::default();
    for l in sig.generics.lifetimes() {
        namer.declared.push(l.lifetime.clone());
    }
    namer.reserved = lifetimes::written_in(&sig.generics);
    let (mut names, mut inputs, mut named_inputs) = (Vec::new(), Vec::new(), Vec::new());
    for (i, arg) in sig.inputs.iter().enumerate() {
        match arg {
            syn::FnArg::Receiver(r) => error_at(
                diag,
                &r,
                format!("`{name}` does not support methods (`self`); write a free function"),
            ),
            syn::FnArg::Typed(t) => {
                if let syn::Type::ImplTrait(it) = &*t.ty {
                    error_at(diag, &it,
                        format!("`{name}` does not support `impl Trait` parameters; use a concrete type"),
                    );
                }
                names.push(crate::register::param_name(i, arg));
                inputs.push((*t.ty).clone());
                let mut ty = (*t.ty).clone();
                namer.visit_type_mut(&mut ty);
                named_inputs.push(ty);
            }
        }
    }
    let output: syn::Type = match &sig.output {
        syn::ReturnType::Default => syn::parse_quote!(()),
        syn::ReturnType::Type(_, t) => (**t).clone(),
    };
    if let syn::Type::ImplTrait(it) = &output {
        error_at(
            diag,
            &it,
            format!("`{name}` does not support returning `impl Trait`; return a concrete type"),
        );
    }
    let mut lifetimes = namer.declared.clone();
    lifetimes.extend(namer.fresh.iter().cloned());
    let mut named_output = output.clone();
    if let Err(span) = lifetimes::name_output(&named_inputs, &mut named_output) {
        diag.error(
            span,
            "cannot tell which argument the returned reference borrows from; name the lifetime, e.g. `fn f<'a>(x: &'a [f64], y: &[f64]) -> &'a f64`",
        );
    }
    if diag.has_errors() && !before {
        return None;
    }
    let mode = mode_ident(sig);
    let fn_values = crate::higher_order::fn_value_params(sig);
    Some(Sig {
        names,
        inputs,
        named_inputs,
        output,
        named_output,
        lifetimes,
        mode,
        fn_values,
    })
}

/// The mode parameter's name: `T` reads best in error messages (it is the tangent type of
/// an `f64` argument), unless the signature already mentions a `T` (or an `M`).
fn mode_ident(sig: &syn::Signature) -> syn::Ident {
    fn mentions(ts: TokenStream, name: &str) -> bool {
        ts.into_iter().any(|tt| match tt {
            TokenTree::Ident(i) => i == name,
            TokenTree::Group(g) => mentions(g.stream(), name),
            _ => false,
        })
    }
    let ts = sig.to_token_stream();
    ["T", "M"]
        .into_iter()
        .find(|n| !mentions(ts.clone(), n))
        .map(|n| syn::Ident::new(n, Span::call_site()))
        .unwrap_or_else(|| format_ident!("__FwdadMode", span = Span::mixed_site()))
}

/// The tangent type of `ty` under mode `m`, written the way a reader would: `f64` → `T`,
/// `&'a [f64]` → `&'a [T]`, `usize` → `NoTangent`, elementwise through references, slices,
/// arrays, tuples and `Vec`/`Option`/`Box`; anything else as the projection
/// `<ty as Differentiable>::TangentIn<T>`. It always names the same type as that
/// projection (the runtime's `Differentiable` table), so it is only about legible errors.
fn tangent_ty(ty: &syn::Type, m: &syn::Ident, rt: &TokenStream) -> TokenStream {
    let projection = || quote!(<#ty as #rt::Differentiable>::TangentIn<#m>);
    match ty {
        syn::Type::Paren(p) => tangent_ty(&p.elem, m, rt),
        syn::Type::Group(g) => tangent_ty(&g.elem, m, rt),
        syn::Type::Tuple(t) if t.elems.is_empty() => quote!(#rt::NoTangent),
        syn::Type::Tuple(t) => {
            let elems = t.elems.iter().map(|e| tangent_ty(e, m, rt));
            quote!((#(#elems,)*))
        }
        syn::Type::Array(a) => {
            let (e, len) = (tangent_ty(&a.elem, m, rt), &a.len);
            quote!([#e; #len])
        }
        syn::Type::Slice(s) => {
            let e = tangent_ty(&s.elem, m, rt);
            quote!([#e])
        }
        syn::Type::Reference(r) => {
            if is_ident(&r.elem, "str") {
                return quote!(#rt::NoTangent);
            }
            let (lt, mutability) = (&r.lifetime, &r.mutability);
            let e = tangent_ty(&r.elem, m, rt);
            quote!(&#lt #mutability #e)
        }
        syn::Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let seg = &p.path.segments[0];
            let id = seg.ident.to_string();
            match (&seg.arguments, id.as_str()) {
                (syn::PathArguments::None, "f64") => m.to_token_stream(),
                (syn::PathArguments::None, "f32") => {
                    quote!(<#m as #rt::Mode>::Of<f32>)
                }
                (syn::PathArguments::None, i) if is_nondiff_scalar(i) => quote!(#rt::NoTangent),
                (syn::PathArguments::AngleBracketed(a), "Vec" | "Option" | "Box")
                    if a.args.len() == 1 =>
                {
                    match &a.args[0] {
                        syn::GenericArgument::Type(inner) => {
                            let (c, e) = (&seg.ident, tangent_ty(inner, m, rt));
                            quote!(#c<#e>)
                        }
                        _ => projection(),
                    }
                }
                _ => projection(),
            }
        }
        _ => projection(),
    }
}

fn is_ident(ty: &syn::Type, name: &str) -> bool {
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident(name))
}

/// Primitive types whose tangent is `NoTangent` (the runtime's `non_differentiable!` list).
fn is_nondiff_scalar(name: &str) -> bool {
    matches!(
        name,
        "bool"
            | "char"
            | "u8"
            | "u16"
            | "u32"
            | "u64"
            | "u128"
            | "usize"
            | "i8"
            | "i16"
            | "i32"
            | "i64"
            | "i128"
            | "isize"
    )
}

/// `Dual<ty, tangent>` under the mode.
fn dual_ty(ty: &syn::Type, m: &syn::Ident, rt: &TokenStream) -> TokenStream {
    let t = tangent_ty(ty, m, rt);
    quote!(#rt::Dual<#ty, #t>)
}

// ---------------------------------------------------------------------------------------
// `method = name`: the rule of another crate's method on a float
// ---------------------------------------------------------------------------------------

/// The method `method = name` names (the function's own name by default), after checking
/// that the first parameter can be its receiver: a value, not a reference.
///
/// ```text
/// #[primitive(d = .., method)] fn error(x: f64) -> f64 { special::Error::error(x) }
/// #[primitive(d = .., method)] fn f() -> f64        // error: no receiver
/// #[primitive(d = .., method)] fn f(x: &f64) -> f64 // error: a reference receiver
/// ```
fn method_of(
    func: &syn::ItemFn,
    sig: &Sig,
    (key, name): &(syn::Ident, Option<syn::Ident>),
    diag: &mut Diagnostics,
) -> Option<syn::Ident> {
    use syn::ext::IdentExt;
    const RECEIVER: &str = "`method` makes this function the rule of a method called on its first argument (`x.error()` for `fn error(x: f64) -> f64`), which it takes by value";
    match sig.inputs.first() {
        None => {
            error_at(
                diag,
                key,
                format!("{RECEIVER}; this function has no parameter"),
            );
            None
        }
        Some(syn::Type::Reference(r)) => {
            error_at(diag, r, format!("{RECEIVER}; a method taking `&self` or `&mut self` gets its rule from `#[derive_frule]` on its `impl` block"));
            None
        }
        Some(_) => Some(name.clone().unwrap_or_else(|| {
            syn::Ident::new(&func.sig.ident.unraw().to_string(), func.sig.ident.span())
        })),
    }
}

/// `#[primitive(.., method = m)] fn name(x: f64, ..)`: a trait `__fwdad_method_name`,
/// implemented for the first parameter's type, whose `m_forward_rule` is the dispatch a
/// derived body calls for `recv.m(..)` on a receiver of that type (`emit`'s user-method
/// call, as for an extension trait of the user's with `#[derive_frule]`), returning the
/// function's marker with the receiver taken by value. The trait has the function's
/// visibility: a derived body in another module brings it into scope with the function
/// (`use rules::*;`).
fn method_dispatch(
    func: &syn::ItemFn,
    sig: &Sig,
    method: &syn::Ident,
    rt: &TokenStream,
) -> TokenStream {
    use syn::ext::IdentExt;
    let (vis, name) = (&func.vis, &func.sig.ident);
    let span = method.span();
    let trait_name = format_ident!("__fwdad_method_{}", name.unraw(), span = span);
    let dispatch = crate::register::rule_method_name(method, span);
    let recv = &sig.inputs[0];
    quote_spanned! {span=>
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis trait #trait_name {
            fn #dispatch(self: &&Self) -> #rt::user_ops::SelfByValueOf<#name, #recv>;
        }
        impl #trait_name for #recv {
            #[inline(always)]
            fn #dispatch(self: &&Self) -> #rt::user_ops::SelfByValueOf<#name, #recv> {
                #rt::user_ops::SelfByValueOf(#name {}, ::core::marker::PhantomData)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Output common to every form
// ---------------------------------------------------------------------------------------

/// The function, the marker, the rule (`body`: the `Frule` impl and its helpers), the
/// wrapper.
fn finish(func: &syn::ItemFn, sig: &Sig, body: TokenStream, rt: &TokenStream) -> TokenStream {
    let face = registration(func, sig, rt);
    let (marker, marker_ty) = face.marker(&[]);
    let wrapper = face.wrapper(&marker_ty, false, rt);
    let marker_fn = face.marker_fn(&marker_ty, false);
    // A caller's closure passed to a function value parameter gets its types here.
    let helpers = crate::higher_order::signature_helpers(&func.sig, &sig.fn_values, &marker_ty, rt);
    quote! {
        #func
        #marker
        #marker_fn
        #helpers
        const _: () = {
            #body
        };
        #wrapper
    }
}

/// The rule's public face (marker struct, `name_frule` wrapper), shared with
/// `#[derive_frule]`.
fn registration<'a>(func: &'a syn::ItemFn, sig: &'a Sig, rt: &TokenStream) -> Registration<'a> {
    let inputs = sig
        .inputs
        .iter()
        .enumerate()
        .map(
            |(i, t)| match sig.fn_values.get(i).copied().unwrap_or(false) {
                true => fn_of_duals(t, quote!(f64), rt),
                false => quote!(#rt::Dual<#t>),
            },
        )
        .collect();
    let output = &sig.output;
    let where_clause = func.sig.generics.where_clause.to_token_stream();
    Registration {
        attr: "primitive",
        vis: &func.vis,
        name: &func.sig.ident,
        generics: &func.sig.generics,
        names: &sig.names,
        inputs,
        output: quote!(#rt::Dual<#output>),
        where_clause,
        doc_note: "",
        extra_generics: Vec::new(),
        preamble: TokenStream::new(),
    }
}

/// The `Frule` impl header for duals of the signature's types: `(header, args, output)`.
fn dual_impl_parts(sig: &Sig, rt: &TokenStream) -> (TokenStream, Vec<TokenStream>, TokenStream) {
    let m = &sig.mode;
    let lts = &sig.lifetimes;
    // A function value is taken as a function of duals.
    let args: Vec<_> = sig
        .named_inputs
        .iter()
        .enumerate()
        .map(
            |(i, t)| match sig.fn_values.get(i).copied().unwrap_or(false) {
                true => fn_of_duals(t, quote!(#m), rt),
                false => dual_ty(t, m, rt),
            },
        )
        .collect();
    let out = dual_ty(&sig.named_output, m, rt);
    let header = quote!(impl<#(#lts,)* #m: #rt::Mode>);
    (header, args, out)
}

/// A function-value parameter's type with its `Fn(..)` sugar over duals in `mode`.
fn fn_of_duals(ty: &syn::Type, mode: TokenStream, rt: &TokenStream) -> TokenStream {
    let mut ty = ty.clone();
    syn::visit_mut::VisitMut::visit_type_mut(
        &mut crate::higher_order::Dualize { rt, mode },
        &mut ty,
    );
    quote!(#ty)
}

fn arg_idents(n: usize) -> Vec<syn::Ident> {
    (0..n)
        .map(|i| format_ident!("__fwdad_a{}", i, span = Span::mixed_site()))
        .collect()
}

/// On error: the function unchanged, the errors, and (when the signature was understood)
/// the marker with an `unreachable!()` rule and the wrapper stub, so that callers compile
/// and only the real errors show.
fn fallback(
    item: TokenStream,
    diag: Diagnostics,
    understood: Option<(syn::ItemFn, Sig)>,
    rt: &TokenStream,
    stub_wrapper: bool,
) -> TokenStream {
    let errors = diag.finish().err().map(|e| e.to_compile_error());
    let stub = understood.and_then(|(func, sig)| {
        // Another rule attribute on the function registers its own marker.
        let other_rule = func.attrs.iter().any(|a| {
            a.path().segments.last().is_some_and(|s| {
                s.ident == "primitive"
                    || s.ident == "non_differentiable"
                    || s.ident == "derive_frule"
            })
        });
        if other_rule {
            return None;
        }
        let name = &func.sig.ident;
        let (header, args, out) = dual_impl_parts(&sig, rt);
        let m = &sig.mode;
        let face = registration(&func, &sig, rt);
        let (marker, marker_ty) = face.marker(&[]);
        let marker_fn = face.marker_fn(&marker_ty, false);
        let wrapper = stub_wrapper.then(|| face.stub());
        Some(quote! {
            #marker
            #marker_fn
            const _: () = {
                #header #rt::Frule<(#(#args,)*), #m> for #name {
                    type Output = #out;
                    fn frule(&self, _: (#(#args,)*)) -> #out {
                        ::core::unreachable!()
                    }
                }
            };
            #wrapper
        })
    });
    quote!(#item #errors #stub)
}

// ---------------------------------------------------------------------------------------
// #[non_differentiable]
// ---------------------------------------------------------------------------------------

/// A non-differentiable function must not write floats through its arguments: their
/// tangents would keep describing the old values.
///
/// ```text
/// #[non_differentiable]
/// fn fill_noise(out: &mut [f64]) { .. }   // error: write a full rule instead
/// ```
fn check_no_float_writes(sig: &Sig, diag: &mut Diagnostics) {
    for ty in &sig.inputs {
        if let syn::Type::Reference(r) = ty {
            if r.mutability.is_some() && holds_float(&r.elem) {
                error_at(diag, &ty,
                    format!(
                        "`#[non_differentiable]` functions must not write floats through their arguments: the tangents of `{}` would be left describing the old values; return the values instead, or write a full rule with `#[primitive(rule = ..)]`",
                        type_text(ty)
                    ),
                );
            }
        }
    }
}

/// The referents `X` of every `&mut X` in `ty` (not looking inside them: the check of `X`
/// covers what it holds).
fn mut_referents<'t>(ty: &'t syn::Type, out: &mut Vec<&'t syn::Type>) {
    match ty {
        syn::Type::Reference(r) if r.mutability.is_some() => out.push(&r.elem),
        syn::Type::Reference(r) => mut_referents(&r.elem, out),
        syn::Type::Paren(p) => mut_referents(&p.elem, out),
        syn::Type::Group(g) => mut_referents(&g.elem, out),
        syn::Type::Tuple(t) => t.elems.iter().for_each(|e| mut_referents(e, out)),
        syn::Type::Array(a) => mut_referents(&a.elem, out),
        syn::Type::Slice(s) => mut_referents(&s.elem, out),
        syn::Type::Path(p) => {
            for seg in &p.path.segments {
                if let syn::PathArguments::AngleBracketed(a) = &seg.arguments {
                    for arg in &a.args {
                        if let syn::GenericArgument::Type(t) = arg {
                            mut_referents(t, out);
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// Whether the type syntactically contains `f64` or `f32`.
fn holds_float(ty: &syn::Type) -> bool {
    fn walk(ts: TokenStream) -> bool {
        ts.into_iter().any(|tt| match tt {
            TokenTree::Ident(i) => i == "f64" || i == "f32",
            TokenTree::Group(g) => walk(g.stream()),
            _ => false,
        })
    }
    walk(ty.to_token_stream())
}

/// `constant_in::<M, _>(name(a.primal, ..))`; and, for each `&mut X` in a parameter's
/// type, a check that `X`'s tangent holds no float (`rt::holds_no_float`):
/// [`check_no_float_writes`] sees only the spelling, not a struct's or an alias's floats.
fn non_differentiable_rule(func: &syn::ItemFn, sig: &Sig, rt: &TokenStream) -> TokenStream {
    let name = &func.sig.ident;
    let (header, args, out) = dual_impl_parts(sig, rt);
    let m = &sig.mode;
    let a = arg_idents(args.len());
    let span = sig.output.span();
    let value = quote_spanned!(span=> #rt::constant_in::<#m, _>(#name(#(#a.primal),*)));
    // Every `&mut X` in a parameter's type (`&mut S`, `(&mut f64, u32)`, `Option<&mut T>`):
    // `X`'s tangent must hold no float. Checked on a binding whose one token is at the
    // parameter's type, where the error then shows (a mixed-span expression would be
    // reported at the attribute).
    // At the one-direction mode: the error then names the float (`f64`), not a parameter.
    let one_direction = syn::Ident::new("f64", Span::call_site());
    let mut checks = Vec::new();
    for (named, written) in sig.named_inputs.iter().zip(&sig.inputs) {
        let mut written_through = Vec::new();
        mut_referents(named, &mut written_through);
        for x in written_through {
            let t = tangent_ty(x, &one_direction, rt);
            let v = syn::Ident::new("__fwdad_written", written.span());
            checks.push(quote! {{
                let #v: ::core::option::Option<&#t> = ::core::option::Option::None;
                #rt::holds_no_float(#v);
            }});
        }
    }
    quote! {
        #[automatically_derived]
        #header #rt::Frule<(#(#args,)*), #m> for #name {
            type Output = #out;
            #[inline]
            fn frule(&self, (#(#a,)*): (#(#args,)*)) -> #out {
                #(#checks)*
                #value
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// #[primitive(rule = path)]
// ---------------------------------------------------------------------------------------

/// The impl calls the user's rule through the fn-pointer type the primal's signature
/// implies, written at the user's path: a mismatch is one type error there, printing the
/// expected signature.
///
/// ```text
/// #[primitive(rule = dot_rule)]
/// fn dot(a: &[f64], b: &[f64]) -> f64 { .. }
/// // impl<'a, 'b, T: Mode> Frule<(Dual<&'a [f64], &'a [T]>, Dual<&'b [f64], &'b [T]>), T> for dot {
/// //     fn frule(&self, (a0, a1): ..) -> Dual<f64, T> {
/// //         let rule: fn(Dual<&'a [f64], &'a [T]>, Dual<&'b [f64], &'b [T]>) -> Dual<f64, T> = dot_rule;
/// //         rule(a0, a1)
/// //     }
/// // }
/// ```
fn full_rule(
    func: &syn::ItemFn,
    sig: &Sig,
    path: &syn::ExprPath,
    rt: &TokenStream,
    diag: &mut Diagnostics,
) -> Option<TokenStream> {
    let name = &func.sig.ident;
    let wrapper = format_ident!("{}_frule", name);
    if path.qself.is_none() && path.path.is_ident(&wrapper) {
        error_at(diag, &path,
            format!("the rule cannot be called `{wrapper}`: `#[primitive]` generates `{wrapper}` (the one-direction rule); rename yours, e.g. `{name}_rule`"),
        );
        return None;
    }
    if path.qself.is_none() && path.path.is_ident(name) {
        error_at(diag, &path,
            format!("`rule = {name}` names the function itself; name the function that computes its rule on `Dual`s"),
        );
        return None;
    }
    let (header, args, out) = dual_impl_parts(sig, rt);
    let m = &sig.mode;
    let a = arg_idents(args.len());
    let span = path.span();
    let rule = format_ident!("__fwdad_rule", span = Span::mixed_site());
    let bind = quote_spanned! {span=>
        let #rule: fn(#(#args),*) -> #out = #path;
    };
    Some(quote! {
        #[automatically_derived]
        #header #rt::Frule<(#(#args,)*), #m> for #name {
            type Output = #out;
            #[inline]
            fn frule(&self, (#(#a,)*): (#(#args,)*)) -> #out {
                #bind
                #rule(#(#a),*)
            }
        }
    })
}

// ---------------------------------------------------------------------------------------
// #[primitive(d = ..)]
// ---------------------------------------------------------------------------------------

/// A parameter of a scalar-partials primitive.
struct ScalarParam {
    name: syn::Ident,
    ty: syn::Type,
    /// `f64`: has a partial; otherwise an integer or `bool` that carries no tangent.
    active: bool,
}

/// Checks the scalar form's signature: `f64` result, `f64` (active) and integer/`bool`
/// (inactive) parameters, at least one active, one partial per active parameter.
///
/// ```text
/// #[primitive(d = 1.0)] fn f(x: &[f64]) -> f64    // error: the scalar form takes `f64`s
/// #[primitive(d = (1.0, 2.0))] fn g(x: f64) -> f64 // error: 2 partials for 1 argument
/// ```
fn scalar_params(
    func: &syn::ItemFn,
    sig: &Sig,
    p: &Partials,
    diag: &mut Diagnostics,
) -> Option<Vec<ScalarParam>> {
    let before = diag.has_errors();
    let fname = &func.sig.ident;
    let mut params = Vec::new();
    for ((name, ty), arg) in sig.names.iter().zip(&sig.inputs).zip(&func.sig.inputs) {
        // The parameter as the user wrote it (a pattern's generated name means nothing to them).
        let written = match arg {
            syn::FnArg::Typed(t) => t.pat.to_token_stream().to_string(),
            syn::FnArg::Receiver(_) => "self".to_string(),
        };
        let active = is_ident(ty, "f64");
        let inactive = matches!(ty, syn::Type::Path(tp) if tp.qself.is_none()
            && tp.path.get_ident().is_some_and(|i| is_nondiff_scalar(&i.to_string())));
        if !active && !inactive {
            error_at(diag, &ty,
                format!(
                    "`#[primitive(d = ..)]` is for scalar functions: parameter `{written}` has type `{}`, but partial derivatives are taken with respect to `f64` parameters (integer and `bool` parameters are allowed and carry no tangent); for other types, write a full rule with `#[primitive(rule = ..)]`",
                    type_text(ty)
                ),
            );
        }
        params.push(ScalarParam {
            name: name.clone(),
            ty: ty.clone(),
            active,
        });
    }
    if !is_ident(&sig.output, "f64") {
        let span = match &func.sig.output {
            syn::ReturnType::Type(_, t) => t.span(),
            syn::ReturnType::Default => func.sig.ident.span(),
        };
        diag.error(
            span,
            format!(
                "`#[primitive(d = ..)]` is for functions returning `f64`, and `{fname}` returns `{}`; for other results, write a full rule with `#[primitive(rule = ..)]`",
                type_text(&sig.output)
            ),
        );
    }
    let active: Vec<_> = params.iter().filter(|p| p.active).collect();
    if active.is_empty() && !diag.has_errors() {
        diag.error(
            func.sig.ident.span(),
            format!("`{fname}` has no `f64` parameter to take partial derivatives with respect to; if its result carries no tangent, use `#[non_differentiable]`"),
        );
    }
    if let Some((result, chosen)) = &p.result {
        if let Some(clash) = params.iter().find(|q| q.name == *result) {
            if *chosen {
                error_at(diag, &result,
                    format!("`result = {result}` clashes with the parameter `{}`; choose another name for the result", clash.name),
                );
            }
        }
    }
    let scalars: Vec<&syn::Ident> = params
        .iter()
        .map(|q| &q.name)
        .chain(p.result.as_ref().map(|(r, _)| r))
        .collect();
    let param_errors = diag.has_errors() != before;
    if let (Some(n), false) = (tuple_arity(&p.expr, &scalars), param_errors) {
        let k = active.len();
        if n != k && k > 0 {
            let names: Vec<String> = active.iter().map(|q| format!("`{}`", q.name)).collect();
            error_at(diag, &p.expr,
                format!(
                    "`d` gives {n} partial derivative{}, but `{fname}` has {k} `f64` parameter{} ({}): give one partial per `f64` parameter, in order{}",
                    if n == 1 { "" } else { "s" },
                    if k == 1 { "" } else { "s" },
                    names.join(", "),
                    if k == 1 { ", e.g. `d = 2.0 * x`".to_string() } else { format!(", as a tuple `d = ({})`", vec!["..";k].join(", ")) },
                ),
            );
        }
    }
    (diag.has_errors() == before).then_some(params)
}

/// The number of partials an expression visibly gives: a tuple's length, through blocks
/// and parentheses; 1 for arithmetic, casts, literals and the names of scalars (`scalars`:
/// the parameters and the result); `None` when it cannot be seen (a call returning a tuple).
fn tuple_arity(e: &syn::Expr, scalars: &[&syn::Ident]) -> Option<usize> {
    match e {
        syn::Expr::Tuple(t) => Some(t.elems.len()),
        syn::Expr::Paren(p) => tuple_arity(&p.expr, scalars).or(Some(1)),
        syn::Expr::Block(b) if b.label.is_none() => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(tail, None)) => tuple_arity(tail, scalars),
            _ => None,
        },
        syn::Expr::Lit(_) | syn::Expr::Binary(_) | syn::Expr::Unary(_) | syn::Expr::Cast(_) => {
            Some(1)
        }
        syn::Expr::Path(p) if p.path.get_ident().is_some_and(|i| scalars.contains(&i)) => Some(1),
        _ => None,
    }
}

/// A call in the partials to a plain function of the file that takes plain floats
/// (`d = sigmoid(x)` with `fn sigmoid(x: f64) -> f64`): the partials are evaluated on
/// duals too (second order), where rustc would report `expected f64, found Dual<..>` at
/// the argument. Reported at the call with what to write instead. Whether it reported one.
#[inline(never)]
fn plain_calls_in_partials(func: &syn::ItemFn, expr: &syn::Expr, diag: &mut Diagnostics) -> bool {
    struct Calls<'a>(Vec<&'a syn::ExprCall>);
    impl<'a> syn::visit::Visit<'a> for Calls<'a> {
        fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
            self.0.push(c);
            syn::visit::visit_expr_call(self, c);
        }
        // A closure or an item in the partials is the user's own code.
        fn visit_item(&mut self, _: &'a syn::Item) {}
    }
    let mut calls = Calls(Vec::new());
    syn::visit::Visit::visit_expr(&mut calls, expr);
    let caller = func.sig.ident.to_string();
    let mut found = false;
    for c in calls.0 {
        let syn::Expr::Path(p) = &*c.func else {
            continue;
        };
        if p.qself.is_some() || !crate::plain_fns::plain_non_generic_fn(&caller, &p.path) {
            continue;
        }
        let written = quote::ToTokens::to_token_stream(&p.path)
            .to_string()
            .replace(' ', "");
        diag.error_spanned(
            &p.path,
            format!("`{written}` is a plain function of `f64`s, and the partials of `#[primitive(d = ..)]` are evaluated on duals too (for second derivatives): write `#[primitive(d = .., order = 1)]` for a first-order rule (partials on plain floats only), or make `{written}` generic over its float type (`fn {written}<T: Float>(x: T) -> T`), which duals implement"),
        );
        found = true;
    }
    found
}

/// The scalar-partials rule: the partials type, its `Unary`/`Binary` impl (or the n-ary
/// adapter), and the `Frule` impl.
fn scalar_rule(
    func: &syn::ItemFn,
    sig: &Sig,
    p: &Partials,
    rt: &TokenStream,
    diag: &mut Diagnostics,
) -> Option<TokenStream> {
    let params = scalar_params(func, sig, p, diag)?;
    if !p.first_order && plain_calls_in_partials(func, &p.expr, diag) {
        return None;
    }
    let name = &func.sig.ident;
    let m = &sig.mode;
    let k = params.iter().filter(|q| q.active).count();
    let ps = format_ident!("__FwdadPartials", span = Span::mixed_site());
    let inactive: Vec<_> = params.iter().filter(|q| !q.active).collect();
    let (in_names, in_tys): (Vec<_>, Vec<_>) = inactive.iter().map(|q| (&q.name, &q.ty)).unzip();
    let active_names: Vec<_> = params
        .iter()
        .filter(|q| q.active)
        .map(|q| &q.name)
        .collect();
    // The result's binding: `y` unless a parameter has that name (then the parameter wins).
    let result = p
        .result
        .as_ref()
        .filter(|(r, _)| !params.iter().any(|q| q.name == *r))
        .map(|(r, _)| r.clone());

    let xs = format_ident!("__fwdad_x", span = Span::mixed_site());
    let ys = format_ident!("__fwdad_y", span = Span::mixed_site());
    let tp = format_ident!("__FwdadT", span = Span::mixed_site());
    let bind_result = result.as_ref().map(|r| quote!(let #r = #ys;));

    // The partials on plain f64 ...
    let plain = partials_tuple(&p.expr, k, &quote!(::core::primitive::f64), rt);
    // ... and on duals (literals lifted, comparisons on primals).
    let mut dual_expr = p.expr.clone();
    let mut lifter = DualRewrite {
        rt: rt.clone(),
        t: tp.clone(),
        compares: false,
    };
    lifter.visit_expr_mut(&mut dual_expr);
    let dual_t = quote!(#rt::Dual<::core::primitive::f64, #tp>);
    let dual = if p.first_order {
        let msg = format!(
            "`{}` has a first-order rule only (`#[primitive(.., order = 1)]`): it has no second derivative (Hessians, `Hyper` modes)",
            func.sig.ident
        );
        quote!(::core::panic!(#msg))
    } else {
        partials_tuple(&dual_expr, k, &dual_t, rt)
    };
    let cmp_trait = lifter.compares.then(|| primal_of_trait(rt));

    let partials = quote! {
        struct #ps {
            #(#in_names: #in_tys,)*
        }
        #cmp_trait
        impl #ps {
            #[inline(always)]
            #[allow(unused_variables, unused_parens, unused_braces, clippy::all)]
            fn d(&self, #xs: [::core::primitive::f64; #k], #ys: ::core::primitive::f64) -> [::core::primitive::f64; #k] {
                let [#(#active_names),*] = #xs;
                #(let #in_names = self.#in_names;)*
                #bind_result
                #plain
            }
            #[inline(always)]
            #[allow(unused_variables, unused_parens, unused_braces, clippy::all)]
            fn d_dual<#tp: #rt::ScalarTangent<::core::primitive::f64>>(
                &self,
                #xs: [#dual_t; #k],
                #ys: #dual_t,
            ) -> [#dual_t; #k] {
                let [#(#active_names),*] = #xs;
                #(let #in_names = self.#in_names;)*
                #bind_result
                #dual
            }
        }
    };

    // The Frule impl: active parameters take a `ScalarOperand` (active dual or plain f64).
    let a = arg_idents(params.len());
    let mut generics = Vec::new();
    let mut arg_tys = Vec::new();
    let mut active_args = Vec::new();
    let mut active_tys = Vec::new();
    for (q, ai) in params.iter().zip(&a) {
        if q.active {
            let g = format_ident!("__FwdadX{}", active_args.len(), span = Span::mixed_site());
            generics.push(quote!(#g: #rt::ScalarOperand<::core::primitive::f64, #m>));
            arg_tys.push(g.to_token_stream());
            active_args.push(ai.clone());
            active_tys.push(g);
        } else {
            arg_tys.push(dual_ty(&q.ty, m, rt));
        }
    }
    let primals: Vec<_> = params
        .iter()
        .zip(&a)
        .map(|(q, ai)| {
            if q.active {
                quote!(#rt::Operand::<::core::primitive::f64, #m>::primal(&#ai))
            } else {
                quote!(#ai.primal)
            }
        })
        .collect();
    let fields: Vec<_> = params
        .iter()
        .zip(&a)
        .filter(|(q, _)| !q.active)
        .map(|(q, ai)| {
            let n = &q.name;
            quote!(#n: #ai.primal)
        })
        .collect();
    let rule = format_ident!("__fwdad_rule", span = Span::mixed_site());
    let y = format_ident!("__fwdad_y", span = Span::mixed_site());
    let (adapter, tangent) = match k {
        1 => {
            let (x, g) = (&active_args[0], &active_tys[0]);
            let adapter = quote! {
                impl #rt::Unary<::core::primitive::f64> for #ps {
                    #[inline(always)]
                    fn d(&self, x: ::core::primitive::f64, y: ::core::primitive::f64) -> ::core::primitive::f64 {
                        #ps::d(self, [x], y)[0]
                    }
                    #[inline(always)]
                    fn d_dual<#tp: #rt::ScalarTangent<::core::primitive::f64>>(&self, x: #dual_t, y: #dual_t) -> #dual_t {
                        #ps::d_dual(self, [x], y)[0]
                    }
                }
            };
            let tangent = quote! {
                if <#g as #rt::Operand<::core::primitive::f64, #m>>::ACTIVE {
                    <#m as #rt::ScalarTangent<::core::primitive::f64>>::chain1(
                        &#rule,
                        #rt::Operand::<::core::primitive::f64, #m>::primal(&#x),
                        #y,
                        #rt::Operand::<::core::primitive::f64, #m>::tangent(&#x),
                    )
                } else {
                    <#m as #rt::ScalarTangent<::core::primitive::f64>>::zero()
                }
            };
            (adapter, tangent)
        }
        2 => {
            let (x1, x2) = (&active_args[0], &active_args[1]);
            let adapter = quote! {
                impl #rt::Binary<::core::primitive::f64> for #ps {
                    #[inline(always)]
                    fn d(&self, a: ::core::primitive::f64, b: ::core::primitive::f64, y: ::core::primitive::f64) -> (::core::primitive::f64, ::core::primitive::f64) {
                        let [da, db] = #ps::d(self, [a, b], y);
                        (da, db)
                    }
                    #[inline(always)]
                    fn d_dual<#tp: #rt::ScalarTangent<::core::primitive::f64>>(&self, a: #dual_t, b: #dual_t, y: #dual_t) -> (#dual_t, #dual_t) {
                        let [da, db] = #ps::d_dual(self, [a, b], y);
                        (da, db)
                    }
                }
            };
            let tangent = quote!(#rt::binary(&#rule, #x1, #x2, #y).tangent);
            (adapter, tangent)
        }
        _ => nary_items(name, &ps, k, &active_args, &active_tys, m, rt),
    };
    let header_generics = quote!(<#m: #rt::Mode, #(#generics),*>);
    let out = quote!(#rt::Dual<::core::primitive::f64, #m>);
    Some(quote! {
        #partials
        #adapter
        #[automatically_derived]
        impl #header_generics #rt::Frule<(#(#arg_tys,)*), #m> for #name {
            type Output = #out;
            #[inline]
            #[allow(unused_variables)]
            fn frule(&self, (#(#a,)*): (#(#arg_tys,)*)) -> #out {
                let #y = #name(#(#primals),*);
                let #rule = #ps { #(#fields,)* };
                #rt::Dual::new(#y, #tangent)
            }
        }
    })
}

/// `[lift(p0), lift(p1), ..]` from the partials expression, evaluated at type `ty`.
///
/// Each partial is lifted at its *value positions* (see [`lift_tails`]); a block whose
/// tail is the tuple of partials keeps its statements and ends in the array instead.
fn partials_tuple(e: &syn::Expr, k: usize, ty: &TokenStream, rt: &TokenStream) -> TokenStream {
    let tuple_tail = matches!(e, syn::Expr::Block(b) if b.label.is_none()
        && matches!(b.block.stmts.last(), Some(syn::Stmt::Expr(syn::Expr::Tuple(t), None)) if t.elems.len() == k));
    match e {
        syn::Expr::Tuple(t) if t.elems.len() == k => {
            let items = t.elems.iter().map(|x| lift_tails(x, ty, rt));
            quote!([#(#items),*])
        }
        syn::Expr::Block(b) if tuple_tail && k > 1 => {
            let mut b = b.clone();
            if let Some(syn::Stmt::Expr(syn::Expr::Tuple(t), None)) = b.block.stmts.last() {
                let items = t.elems.iter().map(|x| lift_tails(x, ty, rt));
                let tail = syn::Expr::Verbatim(quote!([#(#items),*]));
                b.block.stmts.pop();
                b.block.stmts.push(syn::Stmt::Expr(tail, None));
            }
            b.to_token_stream()
        }
        _ if k == 1 && !matches!(e, syn::Expr::Tuple(_)) => {
            let l = lift_tails(e, ty, rt);
            quote!([#l])
        }
        _ => {
            let ps: Vec<_> = (0..k)
                .map(|i| format_ident!("__fwdad_p{}", i, span = Span::mixed_site()))
                .collect();
            let items = ps.iter().map(|x| lift(&x.to_token_stream(), ty, rt));
            let span = e.span();
            quote_spanned! {span=>
                let (#(#ps,)*) = #e;
                [#(#items),*]
            }
        }
    }
}

/// `LiftTo::<ty>::lift(x)`, spanned at `x`.
fn lift(x: &TokenStream, ty: &TokenStream, rt: &TokenStream) -> TokenStream {
    let span = x
        .clone()
        .into_iter()
        .next()
        .map_or(Span::call_site(), |t| t.span());
    quote_spanned!(span=> #rt::LiftTo::<#ty>::lift(#x))
}

/// Lifts a partial at each place its value comes from: the tails of `if`/`else` branches,
/// `match` arms and blocks, so that on duals `if c { 0.0 } else { k as f64 }` has one type
/// in both branches (a plain `f64` becomes a constant dual).
///
/// Before/After:
/// ```text
/// if a > b { 1.0 } else { k as f64 }
/// if a > b { lift(1.0) } else { lift(k as f64) }
/// ```
fn lift_tails(e: &syn::Expr, ty: &TokenStream, rt: &TokenStream) -> TokenStream {
    fn walk(e: &mut syn::Expr, ty: &TokenStream, rt: &TokenStream) {
        match e {
            syn::Expr::If(i) => {
                walk_block(&mut i.then_branch, ty, rt);
                if let Some((_, els)) = &mut i.else_branch {
                    walk(els, ty, rt);
                }
            }
            syn::Expr::Block(b) if b.label.is_none() => walk_block(&mut b.block, ty, rt),
            syn::Expr::Match(m) => {
                for arm in &mut m.arms {
                    walk(&mut arm.body, ty, rt);
                }
            }
            syn::Expr::Paren(p) => walk(&mut p.expr, ty, rt),
            other => {
                let lifted = lift(&other.to_token_stream(), ty, rt);
                *other = syn::Expr::Verbatim(lifted);
            }
        }
    }
    fn walk_block(b: &mut syn::Block, ty: &TokenStream, rt: &TokenStream) {
        if let Some(syn::Stmt::Expr(tail, None)) = b.stmts.last_mut() {
            walk(tail, ty, rt);
        }
    }
    let mut e = e.clone();
    walk(&mut e, ty, rt);
    e.to_token_stream()
}

/// Three or more active arguments. The runtime's `ScalarTangent` has `chain1` and
/// `chain2`; the tangent of `f(x1, .., xk)` is the sum over active arguments of `chain1`
/// with `∂f/∂xi` ("`Nth`"). That is exact in first-order modes. A second-order mode also
/// needs, for each `i`, the first-order variation of `∂f/∂xi` along *all* arguments, which
/// `chain1` hands to `d_dual` only for `xi`; so `Nth::d_dual` reads the other arguments'
/// first-order parts from the duals it holds. The only second-order representation is
/// `Hyper<f64, T>`, whose `chain1` calls `d_dual::<T>` with first-order part `T`: the
/// held `[Dual<f64, M>; k]` is then a `[Dual<f64, Hyper<f64, T>>; k]`, recovered with
/// `Any` (`M: 'static`); the check folds away after monomorphisation.
fn nary_items(
    name: &syn::Ident,
    ps: &syn::Ident,
    k: usize,
    active_args: &[syn::Ident],
    active_tys: &[syn::Ident],
    m: &syn::Ident,
    rt: &TokenStream,
) -> (TokenStream, TokenStream) {
    let nth = format_ident!("__FwdadNth", span = Span::mixed_site());
    let tp = format_ident!("__FwdadT", span = Span::mixed_site());
    let mp = format_ident!("__FwdadM", span = Span::mixed_site());
    let f64t = quote!(::core::primitive::f64);
    let msg = format!(
        "the rule of `{name}` (`#[primitive]` with {k} partials) supports first-order tangents and `Hyper` second-order tangents; this tangent representation is neither"
    );
    let adapter = quote! {
        struct #nth<'r, #mp> {
            partials: &'r #ps,
            xs: &'r [#rt::Dual<#f64t, #mp>; #k],
            ps: &'r [#f64t; #k],
            i: usize,
        }
        impl<#mp: #rt::Mode> #rt::Unary<#f64t> for #nth<'_, #mp> {
            // `d_dual` reads every argument's tangent, not only the one it is given.
            const LOCAL_TANGENT: bool = false;
            #[inline(always)]
            fn d(&self, _: #f64t, _: #f64t) -> #f64t {
                self.ps[self.i]
            }
            #[inline(always)]
            fn d_dual<#tp: #rt::ScalarTangent<#f64t>>(
                &self,
                _: #rt::Dual<#f64t, #tp>,
                y: #rt::Dual<#f64t, #tp>,
            ) -> #rt::Dual<#f64t, #tp> {
                let any: &dyn ::core::any::Any = self.xs;
                let ::core::option::Option::Some(xs) = any.downcast_ref::<[#rt::Dual<#f64t, #rt::Hyper<#f64t, #tp>>; #k]>() else {
                    ::core::panic!(#msg)
                };
                let xs: [#rt::Dual<#f64t, #tp>; #k] =
                    ::core::array::from_fn(|j| #rt::Dual::new(xs[j].primal, xs[j].tangent.d1));
                let mut dy = <#tp as #rt::ScalarTangent<#f64t>>::zero();
                for j in 0..#k {
                    dy = #rt::ScalarTangent::add(dy, #rt::ScalarTangent::scale_strong(xs[j].tangent, self.ps[j]));
                }
                self.partials.d_dual(xs, #rt::Dual::new(y.primal, dy))[self.i]
            }
        }
    };
    let op = |x: &syn::Ident, f: &str| {
        let f = format_ident!("{}", f);
        quote!(#rt::Operand::<#f64t, #m>::#f(&#x))
    };
    let duals = active_args.iter().map(|x| {
        let (p, t) = (op(x, "primal"), op(x, "tangent"));
        quote!(#rt::Dual::new(#p, #t))
    });
    let y = format_ident!("__fwdad_y", span = Span::mixed_site());
    let rule = format_ident!("__fwdad_rule", span = Span::mixed_site());
    let terms = active_tys.iter().enumerate().map(|(i, g)| {
        quote! {
            if <#g as #rt::Operand<#f64t, #m>>::ACTIVE {
                let term = <#m as #rt::ScalarTangent<#f64t>>::chain1(
                    &#nth { partials: &#rule, xs: &xs, ps: &ps, i: #i },
                    xs[#i].primal,
                    #y,
                    xs[#i].tangent,
                );
                t = #rt::ScalarTangent::add(t, term);
            }
        }
    });
    let tangent = quote! {{
        let xs: [#rt::Dual<#f64t, #m>; #k] = [#(#duals),*];
        let ps = #rule.d(::core::array::from_fn(|j| xs[j].primal), #y);
        let mut t = <#m as #rt::ScalarTangent<#f64t>>::zero();
        #(#terms)*
        t
    }};
    (adapter, tangent)
}

/// A local trait giving comparisons in the dual copy of the partials a primal to compare:
/// `x > 0.0` on duals compares `x.primal` (as the primal code does).
fn primal_of_trait(rt: &TokenStream) -> TokenStream {
    let tr = format_ident!("__FwdadPrimalOf", span = Span::mixed_site());
    let tp = format_ident!("__FwdadT", span = Span::mixed_site());
    let plain = [
        "f64", "f32", "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
        "i32", "i64", "i128", "isize",
    ]
    .map(|t| format_ident!("{}", t));
    quote! {
        trait #tr {
            type P: ::core::cmp::PartialOrd;
            fn __fwdad_primal(self) -> Self::P;
        }
        impl<#tp: #rt::ScalarTangent<::core::primitive::f64>> #tr for #rt::Dual<::core::primitive::f64, #tp> {
            type P = ::core::primitive::f64;
            #[inline(always)]
            fn __fwdad_primal(self) -> ::core::primitive::f64 {
                self.primal
            }
        }
        #(
            impl #tr for ::core::primitive::#plain {
                type P = Self;
                #[inline(always)]
                fn __fwdad_primal(self) -> Self {
                    self
                }
            }
        )*
    }
}

/// Replaces every `f64` in a type written in the partials by `_`: in the dual copy a value
/// so typed may be a dual or a plain float, and inference tells which.
struct FloatsInferred;

impl VisitMut for FloatsInferred {
    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        match ty {
            syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("f64") => {
                *ty = syn::parse_quote_spanned!(p.span()=> _);
            }
            _ => syn::visit_mut::visit_type_mut(self, ty),
        }
    }
}

/// Rewrites the dual copy of the partials so it evaluates on `Dual<f64, T>`:
/// * float literals become constant duals, so `if x > 0.0 { 1.0 } else { x.exp() }`
///   has one type in both branches;
/// * comparisons compare primals (`Dual` is not `PartialOrd`);
/// * `f64::sqrt(x)`-style calls become method calls, which `Dual` has.
///
/// Before/After (`T` the tangent type):
/// ```text
/// if x > 0.0 { 1.0 } else { f64::exp(x) }
/// if P(x) > P(0.0) { Dual::<f64, T>::new(1.0, T::zero()) } else { (x).exp() }
/// ```
struct DualRewrite {
    rt: TokenStream,
    t: syn::Ident,
    compares: bool,
}

impl VisitMut for DualRewrite {
    /// `let g: f64 = ..` (a typed `let` in a block of partials) may hold a dual here (when
    /// its value depends on a float argument or a literal) or a plain float (`n as f64`):
    /// every `f64` of its type is left to inference (`_`).
    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        if let syn::Pat::Type(pt) = &mut l.pat {
            FloatsInferred.visit_type_mut(&mut pt.ty);
        }
        syn::visit_mut::visit_local_mut(self, l);
    }

    /// A closure's typed parameters and result (`|t: f64| -> f64 { .. }`), likewise. A
    /// written result type becomes `_`, which a closure with a block body accepts.
    fn visit_expr_closure_mut(&mut self, c: &mut syn::ExprClosure) {
        for input in &mut c.inputs {
            if let syn::Pat::Type(pt) = input {
                FloatsInferred.visit_type_mut(&mut pt.ty);
            }
        }
        if let syn::ReturnType::Type(_, ty) = &mut c.output {
            FloatsInferred.visit_type_mut(ty);
        }
        syn::visit_mut::visit_expr_closure_mut(self, c);
    }

    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, e);
        let (rt, t) = (&self.rt, &self.t);
        match e {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Float(f),
                ..
            }) if f.suffix().is_empty() || f.suffix() == "f64" => {
                let span = f.span();
                let (new, zero) = (
                    quote_spanned!(span=> #rt::Dual::<::core::primitive::f64, #t>::new),
                    quote_spanned!(span=> <#t as #rt::ScalarTangent<::core::primitive::f64>>::zero()),
                );
                let lit = syn::Expr::Lit(syn::ExprLit {
                    attrs: vec![],
                    lit: syn::Lit::Float(f.clone()),
                });
                *e = call_expr(syn::Expr::Verbatim(new), [lit, syn::Expr::Verbatim(zero)]);
            }
            syn::Expr::Binary(b)
                if matches!(
                    b.op,
                    syn::BinOp::Lt(_)
                        | syn::BinOp::Le(_)
                        | syn::BinOp::Gt(_)
                        | syn::BinOp::Ge(_)
                        | syn::BinOp::Eq(_)
                        | syn::BinOp::Ne(_)
                ) =>
            {
                self.compares = true;
                let tr = format_ident!("__FwdadPrimalOf", span = Span::mixed_site());
                let primal = |x: &syn::Expr| {
                    let mut f = syn::Path::from(tr.clone());
                    f.segments.push(format_ident!("__fwdad_primal").into());
                    call_expr(
                        syn::Expr::Path(syn::ExprPath {
                            attrs: vec![],
                            qself: None,
                            path: f,
                        }),
                        [x.clone()],
                    )
                };
                *e = paren(syn::Expr::Binary(syn::ExprBinary {
                    attrs: vec![],
                    left: Box::new(primal(&b.left)),
                    op: b.op,
                    right: Box::new(primal(&b.right)),
                }));
            }
            syn::Expr::Call(c) if !c.args.is_empty() => {
                if let syn::Expr::Path(p) = &*c.func {
                    let segs = &p.path.segments;
                    if p.qself.is_none()
                        && segs.len() == 2
                        && segs[0].ident == "f64"
                        && segs[1].arguments.is_none()
                    {
                        let method = segs[1].ident.clone();
                        let mut args = c.args.iter().cloned();
                        if let Some(recv) = args.next() {
                            *e = syn::Expr::MethodCall(syn::ExprMethodCall {
                                attrs: vec![],
                                receiver: Box::new(paren(recv)),
                                dot_token: syn::Token![.](method.span()),
                                method,
                                turbofish: None,
                                paren_token: Default::default(),
                                args: args.collect(),
                            });
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pretty(ts: &TokenStream) -> String {
        match syn::parse2::<syn::File>(ts.clone()) {
            Ok(f) => prettyplease::unparse(&f),
            Err(e) => panic!("expansion does not parse: {e}\n{ts}"),
        }
    }

    #[test]
    fn expansions_parse() {
        let cases: &[(TokenStream, TokenStream)] = &[
            (
                quote!(d = 1.0 / (1.0 + (-x).exp())),
                quote!(
                    pub fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(d = (b, a)),
                quote!(
                    fn g(a: f64, b: f64) -> f64 {
                        a * b
                    }
                ),
            ),
            (
                quote!(d = (y / r, x / r, z / r), result = r),
                quote!(
                    fn h(x: f64, y: f64, z: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(d = if x > 0.0 { 1.0 } else { 0.0 }),
                quote!(
                    fn k(n: i32, x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(rule = dot_rule),
                quote!(
                    pub fn dot(a: &[f64], b: &[f64]) -> f64 {
                        0.0
                    }
                ),
            ),
        ];
        for (args, item) in cases {
            let out = expand(args.clone(), item.clone());
            let text = pretty(&out);
            assert!(!text.contains("compile_error"), "{text}");
        }
        let out = expand_non_differentiable(
            quote!(),
            quote!(
                fn n(x: &[f64]) -> usize {
                    0
                }
            ),
        );
        assert!(!pretty(&out).contains("compile_error"));
    }

    /// Malformed input never panics and always yields an error (and parseable output).
    #[test]
    fn errors_do_not_panic() {
        let cases: &[(TokenStream, TokenStream)] = &[
            (
                quote!(),
                quote!(
                    fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(d),
                quote!(
                    fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(d = ),
                quote!(
                    fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(d = 1.0, rule = r),
                quote!(
                    fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(foo = 1),
                quote!(
                    fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(d = (1.0, 2.0)),
                quote!(
                    fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(d = 1.0),
                quote!(
                    fn f(x: &[f64]) -> f64 {
                        x[0]
                    }
                ),
            ),
            (
                quote!(d = 1.0),
                quote!(
                    fn f(x: f64) -> f32 {
                        x as f32
                    }
                ),
            ),
            (
                quote!(d = 1.0),
                quote!(
                    struct S;
                ),
            ),
            (quote!(d = 1.0), quote!(impl S { fn f(&self) {} })),
            (
                quote!(d = 1.0),
                quote!(
                    fn f<T>(x: T) -> T {
                        x
                    }
                ),
            ),
            (
                quote!(rule = 1 + 2),
                quote!(
                    fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(rule = f_frule),
                quote!(
                    fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(rule = r, result = z),
                quote!(
                    fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (
                quote!(d = 1.0),
                quote!(
                    #[derive_frule]
                    fn f(x: f64) -> f64 {
                        x
                    }
                ),
            ),
            (quote!(d = 1.0), quote!(garbage tokens)),
        ];
        for (args, item) in cases {
            let out = expand(args.clone(), item.clone());
            assert!(
                out.to_string().contains("compile_error"),
                "{args} / {item}: {out}"
            );
        }
        let out = expand_non_differentiable(
            quote!(x),
            quote!(
                fn n() -> usize {
                    0
                }
            ),
        );
        assert!(out.to_string().contains("compile_error"));
        let out = expand_non_differentiable(
            quote!(),
            quote!(
                fn n(o: &mut [f64]) {}
            ),
        );
        assert!(out.to_string().contains("compile_error"));
    }
}
