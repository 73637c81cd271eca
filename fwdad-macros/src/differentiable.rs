//! `#[derive(Differentiable)]`: the tangent type of a user struct.
//!
//! ```text
//! use fwdad::prelude::*;
//! use fwdad::TangentSpace;
//!
//! #[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
//! pub struct Params {
//!     pub k: f64,
//!     pub n: usize,
//! }
//! // Generated:
//! // pub struct ParamsTangent<S: Mode = f64> { pub k: S, pub n: NoTangent }
//! // impl Differentiable for Params {
//! //     type Tangent = ParamsTangent;              // = ParamsTangent<f64>
//! //     type TangentIn<S: Mode> = ParamsTangent<S>;
//! // }
//!
//! // Tangents are built by hand, like any struct:
//! let p = Dual::new(Params { k: 2.0, n: 3 }, ParamsTangent { k: 1.0, n: NoTangent });
//! assert_eq!(p.tangent.k, 1.0);
//! // ... under any mode: here 4 directions at once.
//! let b: <Params as Differentiable>::TangentIn<Batch<f64, 4>> =
//!     ParamsTangent { k: Batch::unit(2), n: NoTangent };
//! assert_eq!(b.k.0, [0.0, 0.0, 1.0, 0.0]);
//! // Zero (sized from the primal), `Default`, and the tangent-space operations, fieldwise.
//! assert_eq!(Dual::constant(p.primal).tangent, ParamsTangent::default());
//! let mut u = ParamsTangent { k: 1.5, ..Default::default() };
//! u.increment(&p.tangent);
//! u.scale_by(2.0);
//! assert_eq!(u.dot(&p.tangent), 5.0);
//!
//! // No field carries a tangent: named fields get a tangent struct of `NoTangent`s (so
//! // that methods can name them), other structs and fieldless enums the tangent `NoTangent`.
//! #[derive(Differentiable, Clone, Debug)]
//! struct Grid {
//!     nx: usize,
//!     periodic: bool,
//! }
//! let g: Dual<Grid, GridTangent> = Dual::constant(Grid { nx: 8, periodic: true });
//! assert!(g.primal.periodic && g.primal.nx == 8);
//! assert_eq!(g.tangent.nx, NoTangent);
//! #[derive(Differentiable, Clone, Debug)]
//! struct Seed(u64);
//! let s: Dual<Seed, NoTangent> = Dual::constant(Seed(7));
//! assert_eq!(s.primal.0, 7);
//! ```
//!
//! (This example is `tests/derive_differentiable.rs::doc_example`; a proc-macro crate's
//! doctests cannot use the facade.)
//!
//! # What is generated
//!
//! For a struct `Params` (named fields, tuple or unit struct, generic or not):
//!
//! * **`ParamsTangent<S: Mode = f64>`**: the struct's name + `Tangent`, the same field names
//!   (or positions) and visibilities, the struct's visibility. `S` is the differentiation
//!   mode (`f64`: one direction, `Batch<f64, N>`: `N` directions, `Hyper<f64, T>`: second
//!   order), defaulted so that `ParamsTangent` is the one-direction tangent and
//!   `Tangent == TangentIn<f64>` holds. Field types are mapped syntactically where the
//!   result is known, so that a tangent written by hand infers with no annotation:
//!   `f64 → S`; integers, `bool`, `char`, `String`, `&str`, `()`, `PhantomData<_>` →
//!   `NoTangent`; arrays, tuples, `Vec`, `Option`, `Box`, `&'a T`, `&'a [T]`, `&'a mut ..`
//!   elementwise; any other type `Ty` → `<Ty as Differentiable>::TangentIn<S>` (a nested
//!   struct's own tangent). These are the types the projections normalize to.
//! * `impl Differentiable for Params`. If no field carries a tangent, a struct with named
//!   fields still gets its tangent struct, every field `NoTangent` (zero-sized): a derived
//!   method writing `self.state` of `struct Rng { state: u64 }` names the field's tangent.
//!   A tuple or unit struct with no such field, and a fieldless enum, has no tangent struct:
//!   `Tangent` and every `TangentIn<S>` are `NoTangent` (whose `Deref` gives numbered
//!   fields, for `self.0`).
//! * On the tangent struct, written out with "perfect derive" bounds (each holds when the
//!   field tangents allow it, in whatever mode): `Clone`, `Copy`, `Debug`, `PartialEq`,
//!   `Default`, and `TangentSpace` (fieldwise `increment`, `scale_by`, `dot`; `NoTangent`
//!   fields take no part). So `ParamsTangent<S>` is `Copy` whenever its field tangents are
//!   (`f64`, `Batch`, `Hyper`, arrays of them, ...), whether or not `Params` is, and
//!   `Dual<Params, ParamsTangent<S>>` is `Copy` exactly when `Params` is.
//! * On the primal: `ZeroTangent` (when every field is `ZeroTangent`) and
//!   `fwdad::testing::TestTangent` (when the struct is `Clone + Debug` and every field is
//!   `TestTangent`; `PRECISION` is the coarsest field's), so `test_frule` takes the struct
//!   as an argument or a result. These two carry their requirements as where-clauses, so a
//!   struct that does not meet them still derives, without them; a struct whose tangent
//!   borrows (a field `&'a [f64]`) gets neither.
//!
//! * `traits::LaneValue` on the primal (field by field; not for a recursive struct), so
//!   that a method called through a `dyn` trait object takes and returns the struct (its
//!   tangent cut into the lanes the call runs).
//!
//! Generic structs keep the generic parameters that their field tangents mention, with
//! the struct's bounds, and require `Ty: Differentiable` of each type mapped by projection
//! that mentions a parameter: `struct P<T> { x: T, y: f64 }` gets
//! `PTangent<T, S: Mode = f64> where T: Differentiable { x: <T as Differentiable>::TangentIn<S>,
//! y: S }`. Its parameters are the primal's, which the fields do not determine: write
//! `PTangent::<f64> { .. }`, or let an expected type (`Dual<P<f64>>`) fix them. A mode
//! parameter is named `S` unless the struct uses that name (then `M`, ...).
//!
//! Enums whose variants carry data get a tangent enum with the same variants
//! (`enum ShapeTangent<S: Mode = f64> { Circle { r: S }, .. }`); see `enums.rs`.
//!
//! # Attributes
//!
//! * `#[differentiable(crate = path)]` on the struct: the path of the `fwdad` crate, when
//!   it is not a dependency under that name (serde's `crate`).
//! * `#[differentiable(tangent = Name)]` on the struct: the tangent struct's name.
//! * `#[differentiable(skip)]` on a field: the field carries no tangent (`NoTangent`), for
//!   values that are constant under differentiation or have no tangent type (a lookup
//!   table, a function pointer). The testing operations copy it unchanged (and need it to be
//!   `Clone + PartialEq`).
//!
//! # Rejected, with an error at the construct
//!
//! Unions, `#[differentiable]` on an enum variant, a tangent name that the struct itself uses (a parameter or a
//! field type; a clash with another item is rustc's "defined multiple times" at the
//! struct's name), `tangent = ..` where there is no tangent struct, unknown arguments.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use std::collections::BTreeSet;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Data, DeriveInput, Fields, GenericParam, Generics, Ident, Member, Type, WherePredicate};

mod enums;

/// Whether to implement `fwdad::testing::TestTangent` (its `randn_tangent` names
/// `rand::Rng` through `fwdad::__private::Rng`).
const TEST_TANGENT: bool = true;

/// Expands `#[derive(Differentiable)] item`.
pub fn expand(item: TokenStream) -> TokenStream {
    if let Some(out) = crate::nesting::reject("#[derive(Differentiable)]", &item, false) {
        return out;
    }
    let mut input: DeriveInput = match syn::parse2(item) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    // A field holding a function is reported at the field and derived as if skipped, so
    // that the other fields' errors are reported too.
    let function_fields = skip_function_fields(&mut input);
    let queue_fields = skip_queue_fields(&mut input);
    let mut out = match derive(&input) {
        Ok(tokens) => tokens,
        Err(e) => e.to_compile_error(),
    };
    out.extend(function_fields.iter().map(syn::Error::to_compile_error));
    out.extend(queue_fields.iter().map(syn::Error::to_compile_error));
    out
}

/// Every field of `input`: a struct's, or those of all of an enum's variants.
fn fields_mut(input: &mut DeriveInput) -> Vec<&mut syn::Field> {
    match &mut input.data {
        Data::Struct(s) => s.fields.iter_mut().collect(),
        Data::Enum(e) => e
            .variants
            .iter_mut()
            .flat_map(|v| v.fields.iter_mut())
            .collect(),
        Data::Union(_) => Vec::new(),
    }
}

/// The errors for `input`'s fields holding a `std::collections` queue of floats
/// (`delay: VecDeque<f64>`, an FIR filter's delay line), which has no tangent type; each
/// such field is marked `#[differentiable(skip)]`, so that this is the one error.
fn skip_queue_fields(input: &mut DeriveInput) -> Vec<syn::Error> {
    let fields = fields_mut(input);
    let mut errors = Vec::new();
    for f in fields {
        if f.attrs.iter().any(is_ours) {
            continue;
        }
        if let Some(rc) = crate::types::rc_of_trait_object(&f.ty) {
            errors.push(syn::Error::new_spanned(
                rc,
                format!(
                    "`#[derive(Differentiable)]` does not support a field holding `{}`: a trait \
                     object shared by reference counting has no tangent type; hold it in a `Box` \
                     (`Box<dyn ..>`, built with `Box::new(..)`), or mark the field \
                     `#[differentiable(skip)]` if it carries no derivative",
                    type_text(rc)
                ),
            ));
            f.attrs.push(syn::parse_quote!(#[differentiable(skip)]));
            continue;
        }
        let Some(queue) = crate::types::queue_of_floats(&f.ty) else {
            continue;
        };
        errors.push(syn::Error::new_spanned(
            queue,
            format!(
                "`#[derive(Differentiable)]` does not support a field holding a \
                 `std::collections` queue of floats (`{}`): it has no tangent type; keep the \
                 floats in a `Vec` (a delay line: `self.delay.insert(0, x); self.delay.pop();`, \
                 or a ring buffer indexed modulo its length), or mark the field \
                 `#[differentiable(skip)]` if it carries no derivative",
                type_text(queue)
            ),
        ));
        f.attrs.push(syn::parse_quote!(#[differentiable(skip)]));
    }
    errors
}

/// The errors for `input`'s fields holding a function (`f: fn(f64) -> f64`, `Box<dyn
/// Fn(f64) -> f64>`), each such field marked `#[differentiable(skip)]`.
fn skip_function_fields(input: &mut DeriveInput) -> Vec<syn::Error> {
    let fields = fields_mut(input);
    let mut errors = Vec::new();
    for f in fields {
        if !is_function_value(&f.ty) || f.attrs.iter().any(is_ours) {
            continue;
        }
        let field = match &f.ident {
            Some(n) => format!("`{n}: {}`", type_text(&f.ty)),
            None => format!("`{}`", type_text(&f.ty)),
        };
        errors.push(syn::Error::new_spanned(
            &f.ty,
            format!(
                "`#[derive(Differentiable)]` does not support a field holding a function \
                 ({field}): a function has no tangent; a struct holding one needs no \
                 `#[derive(Differentiable)]`: remove it, build the struct with a literal in \
                 the differentiated function and call its `&self` methods of a \
                 `#[derive_frule] impl` there (its fields are passed to them), or mark the \
                 field `#[differentiable(skip)]` if no derived code calls it"
            ),
        ));
        f.attrs.push(syn::parse_quote!(#[differentiable(skip)]));
    }
    errors
}

// --- Attributes ---------------------------------------------------------------------------

/// Accumulated errors: every problem is reported, not only the first.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, e: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }
    fn check(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

/// Container options: `#[differentiable(crate = path, tangent = Name)]`.
#[derive(Default)]
struct Options {
    krate: Option<syn::Path>,
    tangent: Option<Ident>,
}

fn is_ours(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("differentiable")
}

fn parse_options(attrs: &[syn::Attribute], errors: &mut Errors) -> Options {
    let mut opts = Options::default();
    for attr in attrs.iter().filter(|a| is_ours(a)) {
        let res = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let value = meta.value()?;
                let path = if value.peek(syn::LitStr) {
                    value
                        .parse::<syn::LitStr>()?
                        .parse_with(syn::Path::parse_mod_style)?
                } else {
                    value.call(syn::Path::parse_mod_style)?
                };
                if opts.krate.replace(path).is_some() {
                    return Err(meta.error("duplicate `crate` argument"));
                }
                Ok(())
            } else if meta.path.is_ident("tangent") {
                let name: Ident = meta.value()?.parse()?;
                if opts.tangent.replace(name).is_some() {
                    return Err(meta.error("duplicate `tangent` argument"));
                }
                Ok(())
            } else if meta.path.is_ident("skip") {
                Err(meta.error(
                    "`skip` applies to a field: `#[differentiable(skip)] field: Type`",
                ))
            } else {
                Err(meta.error(
                    "unknown `#[differentiable]` argument; expected `crate = path` or `tangent = Name`",
                ))
            }
        });
        if let Err(e) = res {
            errors.push(e);
        }
    }
    opts
}

/// Whether a field has `#[differentiable(skip)]` (errors for other arguments).
fn field_skip(attrs: &[syn::Attribute], errors: &mut Errors) -> bool {
    let mut skip = false;
    for attr in attrs.iter().filter(|a| is_ours(a)) {
        let res = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("skip") {
                skip = true;
                Ok(())
            } else {
                Err(meta.error("unknown `#[differentiable]` field argument; expected `skip`"))
            }
        });
        if let Err(e) = res {
            errors.push(e);
        }
    }
    skip
}

// --- Fields and their tangent types --------------------------------------------------------

/// `ty` as written, for a message (`&'a dyn Fn(f64) -> f64`).
pub(crate) fn type_text(ty: &Type) -> String {
    quote!(#ty)
        .to_string()
        .replace("& '", "&'")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" ,", ",")
        .replace(" < ", "<")
        .replace(" >", ">")
}

/// Whether `ty` is a function value: a `fn(..)` pointer, or a `dyn Fn`/`FnMut`/`FnOnce`
/// behind `&`, `&mut`, `Box`, `Rc` or `Arc`.
fn is_function_value(ty: &Type) -> bool {
    match ty {
        Type::BareFn(_) => true,
        Type::Reference(r) => is_function_value(&r.elem),
        Type::Paren(p) => is_function_value(&p.elem),
        Type::Group(g) => is_function_value(&g.elem),
        Type::TraitObject(t) => t.bounds.iter().any(|b| {
            matches!(b, syn::TypeParamBound::Trait(tb)
            if tb.path.segments.last().is_some_and(|s| {
                s.ident == "Fn" || s.ident == "FnMut" || s.ident == "FnOnce"
            }))
        }),
        Type::Path(tp) if tp.qself.is_none() => {
            let Some(last) = tp.path.segments.last() else {
                return false;
            };
            let holder = last.ident == "Box" || last.ident == "Rc" || last.ident == "Arc";
            match &last.arguments {
                syn::PathArguments::AngleBracketed(a) if holder && a.args.len() == 1 => {
                    matches!(&a.args[0], syn::GenericArgument::Type(t) if is_function_value(t))
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// How a field's tangent is built.
enum Kind {
    /// A real tangent, of the given (mapped) type.
    Tangent(TokenStream),
    /// `NoTangent`: a known non-differentiable type (integers, `bool`, `String`, ...),
    /// copied by `Clone` and compared by `==` in testing.
    Known,
    /// `NoTangent`: `PhantomData`, nothing to copy or compare.
    Phantom,
    /// `NoTangent`: `#[differentiable(skip)]`.
    Skip,
}

struct Field<'a> {
    member: Member,
    vis: &'a syn::Visibility,
    /// The field's type, `Self` replaced by the struct's type.
    ty: Type,
    kind: Kind,
    /// The parts of the type mapped by projection (`T` of `Vec<T>`), except those that
    /// mention the struct itself.
    leaves: Vec<Type>,
    /// The type mentions the struct itself (`Option<Box<Self>>`).
    recursive: bool,
    /// Whether the tangent borrows (`&'a [f64]`): there is no zero or random tangent then.
    borrows: bool,
    /// The field's type is `f64`, which needs no bounds.
    is_f64: bool,
}

impl Field<'_> {
    fn tangent_ty(&self, p: &TokenStream) -> TokenStream {
        match &self.kind {
            Kind::Tangent(t) => t.clone(),
            _ => quote!(#p::NoTangent),
        }
    }
    fn is_tangent(&self) -> bool {
        matches!(self.kind, Kind::Tangent(_))
    }
}

/// What a type's tangent is, syntactically.
enum Mapped {
    No { phantom: bool },
    Ty(TokenStream),
}

/// Maps primal field types to tangent types under the mode parameter `s`, and records the
/// identifiers (and lifetime names) the results mention, to find the generic parameters
/// the tangent struct needs.
struct Mapper<'a> {
    p: &'a TokenStream,
    s: &'a Ident,
    used: BTreeSet<String>,
    leaves: Vec<Type>,
    borrows: bool,
}

const NON_DIFF: &[&str] = &[
    "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128",
    "isize",
];

/// If `path` names `name` (bare, or `std::<module>::name`, `core::..`, `alloc::..`), its
/// last segment's arguments.
fn std_item<'p>(path: &'p syn::Path, name: &str, module: &str) -> Option<&'p syn::PathArguments> {
    let last = path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let prefix: Vec<String> = path
        .segments
        .iter()
        .take(path.segments.len() - 1)
        .map(|s| s.ident.to_string())
        .collect();
    let ok = match prefix.as_slice() {
        [] => path.leading_colon.is_none(),
        [krate, m] => matches!(krate.as_str(), "std" | "core" | "alloc") && m == module,
        _ => false,
    };
    ok.then_some(&last.arguments)
}

/// The single type argument of `Name<T>`.
fn one_type_arg(args: &syn::PathArguments) -> Option<&Type> {
    match args {
        syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => match &a.args[0] {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// Every identifier in `tokens` (lifetimes contribute their name without the `'`).
fn collect_idents(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for tt in tokens {
        match tt {
            TokenTree::Ident(i) => {
                out.insert(i.to_string());
            }
            TokenTree::Group(g) => collect_idents(g.stream(), out),
            _ => {}
        }
    }
}

fn idents_of(tokens: impl ToTokens) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    collect_idents(tokens.into_token_stream(), &mut out);
    out
}

fn mentions(tokens: impl ToTokens, names: &BTreeSet<String>) -> bool {
    !idents_of(tokens).is_disjoint(names)
}

impl Mapper<'_> {
    /// The tangent type of an element (inside a container): `NoTangent` spelled out.
    fn inner(&mut self, ty: &Type) -> TokenStream {
        let p = self.p;
        match self.map(ty) {
            Mapped::No { .. } => quote!(#p::NoTangent),
            Mapped::Ty(t) => t,
        }
    }

    fn leaf(&mut self, ty: &Type) -> Mapped {
        let (p, s) = (self.p, self.s);
        collect_idents(ty.to_token_stream(), &mut self.used);
        self.leaves.push(ty.clone());
        Mapped::Ty(quote_spanned!(ty.span()=> <#ty as #p::Differentiable>::TangentIn<#s>))
    }

    fn map(&mut self, ty: &Type) -> Mapped {
        let s = self.s;
        match ty {
            Type::Group(g) => self.map(&g.elem),
            Type::Paren(p) => self.map(&p.elem),
            Type::Path(tp) if tp.qself.is_none() => {
                let path = &tp.path;
                let bare = |name: &str| {
                    std_item(path, name, "primitive").is_some_and(syn::PathArguments::is_empty)
                };
                if bare("f64") {
                    return Mapped::Ty(quote_spanned!(ty.span()=> #s));
                }
                if NON_DIFF.iter().any(|n| bare(n))
                    || std_item(path, "String", "string").is_some_and(|a| a.is_empty())
                    || path.is_ident("NoTangent")
                {
                    return Mapped::No { phantom: false };
                }
                if std_item(path, "PhantomData", "marker").is_some() {
                    return Mapped::No { phantom: true };
                }
                for (name, module) in [("Vec", "vec"), ("Option", "option"), ("Box", "boxed")] {
                    if let Some(elem) = std_item(path, name, module).and_then(one_type_arg) {
                        let elem = self.inner(elem);
                        // `std::vec::` (trailing `::` kept) + `Vec<elem>`.
                        let mut prefix = path.clone();
                        let container = prefix.segments.pop().expect("matched").into_value().ident;
                        return Mapped::Ty(quote!(#prefix #container<#elem>));
                    }
                }
                self.leaf(ty)
            }
            Type::Array(a) => {
                let elem = self.inner(&a.elem);
                let len = &a.len;
                collect_idents(len.to_token_stream(), &mut self.used);
                Mapped::Ty(quote!([#elem; #len]))
            }
            Type::Tuple(t) if t.elems.is_empty() => Mapped::No { phantom: false },
            Type::Tuple(t) => {
                let elems: Vec<TokenStream> = t.elems.iter().map(|e| self.inner(e)).collect();
                Mapped::Ty(quote!((#(#elems,)*)))
            }
            Type::Reference(r) => {
                if let Type::Path(tp) = &*r.elem {
                    if tp.qself.is_none() && tp.path.is_ident("str") && r.mutability.is_none() {
                        return Mapped::No { phantom: false };
                    }
                }
                self.borrows = true;
                let lifetime = &r.lifetime;
                if let Some(l) = lifetime {
                    self.used.insert(l.ident.to_string());
                }
                let mutability = &r.mutability;
                let elem = match &*r.elem {
                    Type::Slice(sl) => {
                        let e = self.inner(&sl.elem);
                        quote!([#e])
                    }
                    other => self.inner(other),
                };
                Mapped::Ty(quote!(&#lifetime #mutability #elem))
            }
            _ => self.leaf(ty),
        }
    }
}

/// Replaces the type `Self` by the struct's type (in the tangent struct, `Self` would be
/// the tangent).
struct ReplaceSelf(Type);

impl VisitMut for ReplaceSelf {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if let Type::Path(tp) = ty {
            if tp.qself.is_none() && tp.path.is_ident("Self") {
                *ty = self.0.clone();
                return;
            }
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}

/// The fields of a struct, with the member that names each.
fn members(fields: &Fields) -> Vec<(Member, &syn::Field)> {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let member = match &f.ident {
                Some(id) => Member::Named(id.clone()),
                None => Member::Unnamed(syn::Index {
                    index: i as u32,
                    span: f.ty.span(),
                }),
            };
            (member, f)
        })
        .collect()
}

fn param_name(gp: &GenericParam) -> String {
    match gp {
        GenericParam::Lifetime(l) => l.lifetime.ident.to_string(),
        GenericParam::Type(t) => t.ident.to_string(),
        GenericParam::Const(c) => c.ident.to_string(),
    }
}

fn param_arg(gp: &GenericParam) -> TokenStream {
    match gp {
        GenericParam::Lifetime(l) => l.lifetime.to_token_stream(),
        GenericParam::Type(t) => t.ident.to_token_stream(),
        GenericParam::Const(c) => c.ident.to_token_stream(),
    }
}

// --- Bounds --------------------------------------------------------------------------------

/// `ty: bound`, made higher-ranked when `ty` mentions no generic parameter: a bound on a
/// concrete type that does not hold then makes the impl not apply, instead of being an
/// error in the user's crate (rustc rejects trivially false bounds, not higher-ranked ones).
fn pred(ty: impl ToTokens, bound: &TokenStream, generic: &BTreeSet<String>) -> WherePredicate {
    let ty = ty.into_token_stream();
    let higher_ranked = !mentions(&ty, generic);
    verbatim_pred(higher_ranked, ty, bound.clone())
}

/// `ty: bound` (`for<'__fwdad> ty: bound` when `higher_ranked`), built as a tree around the
/// tokens: the user's type is spliced, never parsed again, so no type can make the derive
/// panic (a type rustc rejects in a bound is reported by rustc, at the type).
fn verbatim_pred(higher_ranked: bool, ty: TokenStream, bound: TokenStream) -> WherePredicate {
    let span = ty
        .clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |t| t.span());
    let lifetimes = higher_ranked.then(|| {
        let mut lifetimes = syn::punctuated::Punctuated::new();
        lifetimes.push(GenericParam::Lifetime(syn::LifetimeParam::new(
            syn::Lifetime::new("'__fwdad", Span::call_site()),
        )));
        syn::BoundLifetimes {
            for_token: Default::default(),
            lt_token: Default::default(),
            lifetimes,
            gt_token: Default::default(),
        }
    });
    let mut bounds = syn::punctuated::Punctuated::new();
    bounds.push(syn::TypeParamBound::Verbatim(bound));
    WherePredicate::Type(syn::PredicateType {
        lifetimes,
        bounded_ty: Type::Verbatim(ty),
        colon_token: syn::Token![:](span),
        bounds,
    })
}

/// The bounds that make field `f`'s type implement `bound`: on the whole type when it is
/// concrete; else on the parts mapped by projection (`T` of `Vec<T>`), the rest being the
/// runtime's impls. (A where-clause on a generic type such as `[f64; N]` itself would hide
/// the runtime impl's associated types from the compiler.) Parts that mention the struct
/// itself get no bound: it would be a cycle, and it holds when the others do.
fn field_preds(f: &Field, bound: &TokenStream, generic: &BTreeSet<String>) -> Vec<WherePredicate> {
    if f.is_f64 {
        return Vec::new();
    }
    if !f.recursive && !mentions(&f.ty, generic) {
        return vec![pred(&f.ty, bound, generic)];
    }
    f.leaves
        .iter()
        .map(|leaf| pred(leaf, bound, generic))
        .collect()
}

/// `g` with `preds` added to its where-clause (without duplicates).
fn with_preds(g: &Generics, preds: impl IntoIterator<Item = WherePredicate>) -> Generics {
    let mut g = g.clone();
    let wc = g.make_where_clause();
    let mut seen: BTreeSet<String> = wc
        .predicates
        .iter()
        .map(|p| p.to_token_stream().to_string())
        .collect();
    for p in preds {
        if seen.insert(p.to_token_stream().to_string()) {
            wc.predicates.push(p);
        }
    }
    g
}

/// Generics of the tangent struct: the parameters its fields mention (with the struct's
/// bounds that mention only those), `leaf_preds`, then the mode `S: Mode = f64`.
fn tangent_generics(
    g: &Generics,
    used: &BTreeSet<String>,
    s: &Ident,
    p: &TokenStream,
    leaf_preds: &[WherePredicate],
) -> Generics {
    let dropped: BTreeSet<String> = g
        .params
        .iter()
        .map(param_name)
        .filter(|n| !used.contains(n))
        .collect();
    let mut out = Generics {
        lt_token: Some(Default::default()),
        gt_token: Some(Default::default()),
        ..Default::default()
    };
    for gp in g
        .params
        .iter()
        .filter(|gp| !dropped.contains(&param_name(gp)))
    {
        let mut gp = gp.clone();
        match &mut gp {
            GenericParam::Lifetime(l) => {
                l.bounds = l
                    .bounds
                    .iter()
                    .filter(|b| !dropped.contains(&b.ident.to_string()))
                    .cloned()
                    .collect();
                if l.bounds.is_empty() {
                    l.colon_token = None;
                }
            }
            GenericParam::Type(t) => {
                t.bounds = t
                    .bounds
                    .iter()
                    .filter(|b| !mentions(b, &dropped))
                    .cloned()
                    .collect();
                if t.bounds.is_empty() {
                    t.colon_token = None;
                }
                if t.default.as_ref().is_some_and(|d| mentions(d, &dropped)) {
                    t.default = None;
                    t.eq_token = None;
                }
            }
            GenericParam::Const(_) => {}
        }
        out.params.push(gp);
    }
    let mut bounds = syn::punctuated::Punctuated::new();
    bounds.push(syn::TypeParamBound::Verbatim(quote!(#p::Mode)));
    out.params.push(GenericParam::Type(syn::TypeParam {
        attrs: vec![],
        ident: s.clone(),
        colon_token: Some(Default::default()),
        bounds,
        eq_token: Some(Default::default()),
        default: Some(syn::parse_quote!(::core::primitive::f64)),
    }));
    let wc = out.make_where_clause();
    if let Some(w) = &g.where_clause {
        wc.predicates.extend(
            w.predicates
                .iter()
                .filter(|pr| !mentions(pr, &dropped))
                .cloned(),
        );
    }
    wc.predicates.extend(leaf_preds.iter().cloned());
    out
}

// --- The derive ----------------------------------------------------------------------------

fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let opts = parse_options(&input.attrs, &mut errors);
    let p = match &opts.krate {
        Some(path) => quote!(#path::__private),
        None => quote!(::fwdad::__private),
    };
    // An enum's fields are those of all its variants, in order (`enums::Variant` keeps
    // which are whose).
    let mut variants = None;
    let fields =
        match &input.data {
            Data::Struct(s) => members(&s.fields),
            Data::Enum(e) if e.variants.iter().all(|v| matches!(v.fields, Fields::Unit)) => {
                check_enum(e, &opts, &mut errors);
                errors.check()?;
                return Ok(no_tangent(input, &p, &[], true));
            }
            Data::Enum(e) => {
                let (vs, fields) = enums::variants(e, &mut errors);
                variants = Some(vs);
                fields
            }
            Data::Union(u) => return Err(syn::Error::new_spanned(
                u.union_token,
                "`#[derive(Differentiable)]` does not support unions: which field holds the value \
                 is not known, so neither is its tangent; use a struct or an enum",
            )),
        };
    let name = &input.ident;
    let self_ty = self_type(name, &input.generics);

    // Every name the struct uses, so that generated parameters and the tangent's name
    // cannot capture or shadow one.
    let mut field_tys = Vec::new();
    for (_, f) in &fields {
        let mut ty = f.ty.clone();
        ReplaceSelf(self_ty.clone()).visit_type_mut(&mut ty);
        field_tys.push(ty);
    }
    let mut in_struct = idents_of(&input.generics);
    for ty in &field_tys {
        in_struct.extend(idents_of(ty));
    }
    let own: BTreeSet<String> = [name.to_string()].into();
    let s = ["S", "M", "Mode", "S_", "M_"]
        .iter()
        .find(|n| !in_struct.contains(**n))
        .map(|n| Ident::new(n, Span::call_site()))
        // A struct that uses all the short names gets the reserved one.
        .unwrap_or_else(|| Ident::new("__FwdadMode", Span::call_site()));

    let mut mapper = Mapper {
        p: &p,
        s: &s,
        used: BTreeSet::new(),
        leaves: Vec::new(),
        borrows: false,
    };
    let mut infos = Vec::new();
    for ((member, f), ty) in fields.iter().zip(field_tys) {
        let start = mapper.leaves.len();
        mapper.borrows = false;
        let kind = if field_skip(&f.attrs, &mut errors) {
            Kind::Skip
        } else {
            match mapper.map(&ty) {
                Mapped::No { phantom: true } => Kind::Phantom,
                Mapped::No { phantom: false } => Kind::Known,
                Mapped::Ty(t) => Kind::Tangent(t),
            }
        };
        infos.push(Field {
            member: member.clone(),
            vis: &f.vis,
            is_f64: matches!(&ty, Type::Path(tp) if tp.qself.is_none() && tp.path.is_ident("f64")),
            recursive: mentions(&ty, &own),
            ty,
            leaves: mapper.leaves[start..]
                .iter()
                .filter(|t| !mentions(t, &own))
                .cloned()
                .collect(),
            borrows: mapper.borrows && matches!(kind, Kind::Tangent(_)),
            kind,
        });
    }

    // An enum with data none of which carries a tangent (`enum Steps { Fixed(usize) }`)
    // still gets its tangent enum, of `NoTangent` fields: a `match` on an active value of
    // it reads its bindings' tangents through the same variant patterns. Likewise a struct
    // with named fields (`struct Rng { state: u64 }`): its methods' rules read and write
    // `self.state`'s tangent by name, which `NoTangent` cannot have (numbered fields it
    // can: `struct Lcg(u64)` keeps `NoTangent`).
    let named = matches!(
        &input.data,
        Data::Struct(syn::DataStruct {
            fields: Fields::Named(_),
            ..
        })
    );
    if (variants.is_some() || named) && !infos.iter().any(Field::is_tangent) {
        for f in infos.iter_mut().filter(|f| matches!(f.kind, Kind::Known)) {
            f.kind = Kind::Tangent(quote!(#p::NoTangent));
        }
    }

    // Fields whose tangents do not depend on the mode (`Vec<usize>`: `Vec<NoTangent>`)
    // would leave the tangent struct's mode parameter unused (E0392) if no other field
    // used it: then they name their tangent by projection, which mentions it.
    let mode_name = BTreeSet::from([s.to_string()]);
    if !infos
        .iter()
        .any(|f| matches!(&f.kind, Kind::Tangent(t) if mentions(t, &mode_name)))
    {
        for f in infos.iter_mut().filter(|f| f.is_tangent()) {
            let ty = &f.ty;
            // The projection names all of the field's type (`'a` of `Option<&'a str>`),
            // which the tangent struct must then declare.
            collect_idents(ty.to_token_stream(), &mut mapper.used);
            f.kind = Kind::Tangent(
                quote_spanned!(ty.span()=> <#ty as #p::Differentiable>::TangentIn<#s>),
            );
            if !f.recursive {
                f.leaves.push(ty.clone());
                mapper.leaves.push(ty.clone());
            }
        }
    }

    let has_tangent = infos.iter().any(Field::is_tangent);
    let tname = opts
        .tangent
        .clone()
        .unwrap_or_else(|| format_ident!("{}Tangent", name, span = name.span()));
    let tname_at = opts
        .tangent
        .as_ref()
        .map_or_else(|| name.to_token_stream(), ToTokens::to_token_stream);
    if !has_tangent && opts.tangent.is_some() {
        errors.push(syn::Error::new_spanned(
            &tname_at,
            format!(
                "no field of `{name}` carries a tangent, so its tangent is `NoTangent` and there \
                 is no tangent struct to name; remove `tangent = ..`"
            ),
        ));
    } else if has_tangent && (tname == *name || in_struct.contains(&tname.to_string())) {
        errors.push(syn::Error::new_spanned(
            &tname_at,
            format!(
                "`#[derive(Differentiable)]` would name the tangent of `{name}` `{tname}`, but \
                 `{name}` already uses the name `{tname}`; choose another with \
                 `#[differentiable(tangent = Name)]`"
            ),
        ));
    }
    errors.check()?;
    if !has_tangent {
        return Ok(match &variants {
            Some(_) => no_tangent(input, &p, &[], true),
            None => no_tangent(input, &p, &infos, false),
        });
    }

    let all_params: BTreeSet<String> = input.generics.params.iter().map(param_name).collect();
    let leaves: Vec<&Type> = {
        let mut seen = BTreeSet::new();
        mapper
            .leaves
            .iter()
            .filter(|t| mentions(t, &all_params) && !mentions(t, &own))
            .filter(|t| seen.insert(t.to_token_stream().to_string()))
            .collect()
    };
    let leaf_preds: Vec<WherePredicate> = leaves
        .iter()
        .map(|t| verbatim_pred(false, t.to_token_stream(), quote!(#p::Differentiable)))
        .collect();
    let tgen = tangent_generics(&input.generics, &mapper.used, &s, &p, &leaf_preds);
    // Concrete leaves: their `Differentiable` impl is checked where the tangent struct
    // names them (the error, at the field's type); the impls on the primal assume it, so
    // that a missing impl is reported once, there.
    let concrete_leaf_preds = {
        let mut seen = BTreeSet::new();
        mapper
            .leaves
            .iter()
            .filter(|t| !mentions(t, &all_params) && !mentions(t, &own))
            .filter(|t| seen.insert(t.to_token_stream().to_string()))
            .collect::<Vec<_>>()
    };
    let timpl_gen = with_preds(
        &tgen,
        concrete_leaf_preds
            .iter()
            .map(|t| verbatim_pred(true, t.to_token_stream(), quote!(#p::Differentiable))),
    );
    let pgen = with_preds(
        &input.generics,
        leaf_preds
            .into_iter()
            .chain(concrete_leaf_preds.iter().map(|t| {
                verbatim_pred(
                    true,
                    t.to_token_stream(),
                    quote!(#p::Differentiable<
                        Tangent = <#t as #p::Differentiable>::TangentIn<::core::primitive::f64>,
                    >),
                )
            })),
    );
    let ctx = Ctx {
        input,
        p: &p,
        s: &s,
        tname: &tname,
        infos: &infos,
        tgen: &tgen,
        timpl_gen: &timpl_gen,
        pgen: &pgen,
        generic: all_params,
        tgeneric: idents_of(tgen.params.iter().map(param_arg).collect::<TokenStream>()),
        leaves,
    };

    // A renamed tangent also answers to the default name, where nothing else has it.
    let default_name = opts
        .tangent
        .as_ref()
        .map(|t| default_tangent_name(input, t))
        .unwrap_or_default();
    let by_value = input.generics.params.is_empty() && !infos.iter().any(|f| f.borrows);
    if let Some(vs) = &variants {
        let mut out = enums::expand_enum(&ctx, vs);
        out.extend(default_name);
        if by_value {
            out.extend(value_bind_entry(&input.ident, &p));
        }
        return Ok(out);
    }
    let mut out = default_name;
    out.extend(ctx.tangent_struct());
    out.extend(ctx.tangent_impls());
    out.extend(ctx.differentiable());
    if !infos.iter().any(|f| f.borrows) {
        out.extend(ctx.zero_tangent());
        out.extend(ctx.lane_value());
        if TEST_TANGENT {
            out.extend(ctx.test_tangent());
        }
        if by_value {
            out.extend(value_bind_entry(&input.ident, &p));
        }
    }
    Ok(out)
}

/// `Point`'s tangent renamed `DPoint`, also under the name `PointTangent` that derived
/// bodies give the tangent of a struct literal `Point { .. }` or a pattern `Tool::Blade(l)`
/// (by the naming convention: the macro sees no types). It is re-exported by a glob, which
/// any item or import of that name in the module shadows without a clash: a user's own
/// `PointTangent`, the reason to rename, stays theirs (and a literal of `Point` then fails
/// to compile against it, never silently). The re-export reaches the type through `super`,
/// so a type declared inside a function body cannot have it (its module cannot see the
/// function's items): there, rename nothing, or build the value outside.
fn default_tangent_name(input: &DeriveInput, renamed: &Ident) -> TokenStream {
    let name = &input.ident;
    let default = format_ident!("{}Tangent", name, span = renamed.span());
    let module = format_ident!("__fwdad_tangent_name_{}", name, span = renamed.span());
    // The inner `use` must reach as far as the outer one, seen from one module down.
    let (inner, outer) = match &input.vis {
        syn::Visibility::Public(_) => (quote!(pub), quote!(pub)),
        syn::Visibility::Restricted(r) if r.path.is_ident("crate") => {
            (quote!(pub(crate)), quote!(pub(crate)))
        }
        syn::Visibility::Restricted(r) if r.path.is_ident("super") && r.in_token.is_none() => {
            (quote!(pub(in super::super)), quote!(pub(super)))
        }
        syn::Visibility::Restricted(r)
            if r.path.segments.first().is_some_and(|s| s.ident == "crate") =>
        {
            let v = &input.vis;
            (quote!(#v), quote!(#v))
        }
        _ => (quote!(pub(super)), quote!()),
    };
    quote! {
        #[doc(hidden)]
        #[allow(non_snake_case)]
        mod #module {
            #[allow(unused_imports)]
            #inner use super::#renamed as #default;
        }
        #[allow(unused_imports)]
        #outer use #module::*;
    }
}

fn check_enum(e: &syn::DataEnum, opts: &Options, errors: &mut Errors) {
    for v in &e.variants {
        for attr in v.attrs.iter().filter(|a| is_ours(a)) {
            errors.push(syn::Error::new_spanned(
                attr,
                "`#[differentiable]` is not allowed on enum variants",
            ));
        }
    }
    if let Some(t) = &opts.tangent {
        errors.push(syn::Error::new_spanned(
            t,
            "the tangent of a fieldless enum is `NoTangent`: there is no tangent struct to name",
        ));
    }
}

/// The names a `LaneValue` impl's methods take (`Ctx::lane_value_impl`): the tangent
/// `t`, the lane `k`, the lane's value `v`, and the trait's path.
pub(crate) struct LaneNames {
    pub(crate) t: Ident,
    pub(crate) k: Ident,
    pub(crate) v: Ident,
    pub(crate) bound: TokenStream,
}

/// What the generators of a struct with a tangent struct share.
struct Ctx<'a> {
    input: &'a DeriveInput,
    /// `::fwdad::__private`.
    p: &'a TokenStream,
    /// The mode parameter.
    s: &'a Ident,
    tname: &'a Ident,
    infos: &'a [Field<'a>],
    /// Generics of the tangent struct (ending with the mode).
    tgen: &'a Generics,
    /// The same, for impls on it: with `Leaf: Differentiable` assumed for concrete leaves
    /// (checked once, on the struct).
    timpl_gen: &'a Generics,
    /// The struct's generics, with `Leaf: Differentiable` for generic leaves.
    pgen: &'a Generics,
    /// Names of the struct's generic parameters.
    generic: BTreeSet<String>,
    /// Names of the tangent struct's generic parameters.
    tgeneric: BTreeSet<String>,
    /// Types mapped by projection that mention a generic parameter.
    leaves: Vec<&'a Type>,
}

impl Ctx<'_> {
    fn named(&self) -> bool {
        matches!(
            self.input.data,
            Data::Struct(syn::DataStruct {
                fields: Fields::Named(_),
                ..
            })
        )
    }

    fn members(&self) -> Vec<&Member> {
        self.infos.iter().map(|f| &f.member).collect()
    }

    fn tangent_fields(&self) -> Vec<&Field<'_>> {
        self.infos.iter().filter(|f| f.is_tangent()).collect()
    }

    /// The tangent type under `mode`: `ParamsTangent<'a, T, N, mode>`.
    fn tangent_of(&self, mode: TokenStream) -> TokenStream {
        let tname = self.tname;
        let n = self.tgen.params.len() - 1;
        let args = self.tgen.params.iter().take(n).map(param_arg);
        quote!(#tname<#(#args,)* #mode>)
    }

    /// The tangent struct itself.
    fn tangent_struct(&self) -> TokenStream {
        let (name, tname, s, p) = (&self.input.ident, self.tname, self.s, self.p);
        let vis = &self.input.vis;
        let doc = format!(
            "The tangent of [`{name}`] (from `#[derive(Differentiable)]`): each field holds the \
             tangent of `{name}`'s field of the same name. `{s}` is the differentiation mode: \
             `f64` (the default) for one direction, `Batch<f64, N>` for `N` directions at once, \
             `Hyper<f64, T>` for second order."
        );
        let fields = self.infos.iter().map(|f| {
            let (fvis, t) = (f.vis, f.tangent_ty(p));
            match &f.member {
                Member::Named(i) => {
                    let doc = format!("The tangent of `{name}::{i}`.");
                    quote!(#[doc = #doc] #fvis #i: #t)
                }
                Member::Unnamed(i) => {
                    let doc = format!("The tangent of `{name}.{}`.", i.index);
                    quote!(#[doc = #doc] #fvis #t)
                }
            }
        });
        let params = &self.tgen.params;
        let wc = &self.tgen.where_clause;
        // Spanned at the struct's name: a clash with another item is reported there.
        let at = tname.span();
        let def = if self.named() {
            quote_spanned!(at=> #vis struct #tname<#params> #wc { #(#fields,)* })
        } else {
            quote_spanned!(at=> #vis struct #tname<#params>(#(#fields,)*) #wc;)
        };
        quote_spanned! {at=>
            #[doc = #doc]
            #[allow(dead_code, non_camel_case_types)]
            #def
        }
    }

    /// `Clone`, `Copy`, `Debug`, `PartialEq`, `Default`, `TangentSpace` on the tangent
    /// struct, each bounded by its field tangents.
    fn tangent_impls(&self) -> TokenStream {
        let (tname, p) = (self.tname, self.p);
        let (_, tty, _) = self.tgen.split_for_impl();
        let this = quote!(#tname #tty);
        let tangent_fields = self.tangent_fields();
        let all = self.members();
        let tan: Vec<&Member> = tangent_fields.iter().map(|f| &f.member).collect();
        // `S: Mode` is `Copy + Debug + PartialEq` already. A recursive field gets no bound
        // (it would be a cycle): it holds when the other fields' do.
        let impl_for = |bound: TokenStream, mode_has_it: bool, body: TokenStream| {
            let preds = tangent_fields
                .iter()
                .filter(|f| !f.recursive)
                .filter(|f| !(mode_has_it && f.is_f64))
                .map(|f| pred(f.tangent_ty(p), &bound, &self.tgeneric));
            let g = with_preds(self.timpl_gen, preds);
            let (i, _, w) = g.split_for_impl();
            quote! {
                #[automatically_derived]
                impl #i #bound for #this #w { #body }
            }
        };
        let name_str = tname.to_string();
        let debug = if self.named() {
            let names = all.iter().map(|m| m.to_token_stream().to_string());
            quote!(f.debug_struct(#name_str) #(.field(#names, &self.#all))* .finish())
        } else {
            quote!(f.debug_tuple(#name_str) #(.field(&self.#all))* .finish())
        };
        [
            impl_for(
                quote!(::core::clone::Clone),
                true,
                quote! {
                    #[inline]
                    fn clone(&self) -> Self {
                        Self { #(#all: ::core::clone::Clone::clone(&self.#all),)* }
                    }
                },
            ),
            // A recursive struct holds itself through a pointer: never `Copy`.
            if tangent_fields.iter().any(|f| f.recursive) {
                quote!()
            } else {
                impl_for(quote!(::core::marker::Copy), true, quote!())
            },
            impl_for(
                quote!(::core::fmt::Debug),
                true,
                quote! {
                    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        #debug
                    }
                },
            ),
            impl_for(
                quote!(::core::cmp::PartialEq),
                true,
                quote! {
                    #[inline]
                    fn eq(&self, other: &Self) -> bool {
                        true #(&& ::core::cmp::PartialEq::eq(&self.#tan, &other.#tan))*
                    }
                },
            ),
            impl_for(
                quote!(::core::default::Default),
                false,
                quote! {
                    #[inline]
                    fn default() -> Self {
                        Self { #(#all: ::core::default::Default::default(),)* }
                    }
                },
            ),
            impl_for(
                quote!(#p::TangentSpace),
                false,
                quote! {
                    #[inline]
                    fn increment(&mut self, other: &Self) {
                        #(#p::TangentSpace::increment(&mut self.#tan, &other.#tan);)*
                    }
                    #[inline]
                    fn scale_by(&mut self, a: ::core::primitive::f64) {
                        #(#p::TangentSpace::scale_by(&mut self.#tan, a);)*
                    }
                    #[inline]
                    fn dot(&self, other: &Self) -> ::core::primitive::f64 {
                        0.0 #(+ #p::TangentSpace::dot(&self.#tan, &other.#tan))*
                    }
                },
            ),
            // No float in any field's tangent (a struct of integer-only structs, `Vec`s of
            // integers): a `#[non_differentiable]` function may write it through `&mut`.
            impl_for(quote!(#p::HoldsNoFloat), false, quote!()),
        ]
        .into_iter()
        .collect()
    }

    fn differentiable(&self) -> TokenStream {
        let (name, p, s) = (&self.input.ident, self.p, self.s);
        let (i, ty, w) = self.pgen.split_for_impl();
        let one = self.tangent_of(quote!(::core::primitive::f64));
        let any = self.tangent_of(s.to_token_stream());
        quote! {
            #[automatically_derived]
            impl #i #p::Differentiable for #name #ty #w {
                type Tangent = #one;
                type TangentIn<#s: #p::Mode> = #any;
            }
            #[automatically_derived]
            impl #i #p::traits::UserValue for #name #ty #w {}
        }
    }

    fn zero_tangent(&self) -> TokenStream {
        let (name, p, s, tname) = (&self.input.ident, self.p, self.s, self.tname);
        let bound = quote!(#p::ZeroTangent);
        let preds = self
            .tangent_fields()
            .into_iter()
            .flat_map(|f| field_preds(f, &bound, &self.generic));
        let g = with_preds(self.pgen, preds);
        let (i, ty, w) = g.split_for_impl();
        let fields = self.infos.iter().map(|f| {
            let (m, fty) = (&f.member, &f.ty);
            match f.kind {
                Kind::Tangent(_) => quote!(#m: <#fty as #bound>::zero_tangent_in::<#s>(&self.#m)),
                _ => quote!(#m: #p::NoTangent),
            }
        });
        let constant_ref = self.constant_ref(&g);
        quote! {
            #[automatically_derived]
            impl #i #bound for #name #ty #w {
                #[inline]
                fn zero_tangent(&self) -> <Self as #p::Differentiable>::Tangent {
                    #bound::zero_tangent_in::<::core::primitive::f64>(self)
                }
                #[inline]
                fn zero_tangent_in<#s: #p::Mode>(
                    &self,
                ) -> <Self as #p::Differentiable>::TangentIn<#s> {
                    #tname { #(#fields,)* }
                }
            }
            #constant_ref
        }
    }

    /// `Dual::constant(&s)`: a borrowed value whose zero tangent is known from its type
    /// (`ConstTangent`), built in memory by a rule's entry (`RefTangent`). `g`: the
    /// generics of the `ZeroTangent` impl.
    pub(crate) fn constant_ref(&self, g: &syn::Generics) -> TokenStream {
        let (name, p) = (&self.input.ident, self.p);
        let (_, ty, w) = g.split_for_impl();
        let mut gl = g.clone();
        gl.params.insert(0, syn::parse_quote!('__fwdad_c));
        let (il, _, _) = gl.split_for_impl();
        quote! {
            #[automatically_derived]
            impl #il #p::Constant for &'__fwdad_c #name #ty #w {
                type Primal = &'__fwdad_c #name #ty;
                type Zero = #p::ConstTangent;
                #[inline(always)]
                fn constant(self) -> #p::Dual<&'__fwdad_c #name #ty, #p::ConstTangent> {
                    #p::Dual::new(self, #p::ConstTangent)
                }
            }
        }
    }

    /// `LaneValue` (what a `dyn` call cuts into lanes), field by field; none for a
    /// recursive struct (its `Box<Self>` has no lanes).
    fn lane_value(&self) -> TokenStream {
        let (p, s, tname) = (self.p, self.s, self.tname);
        self.lane_value_impl(|n, f, set| {
            let (bound, t, k, v) = (&n.bound, &n.t, &n.k, &n.v);
            if set {
                let sets = self.tangent_fields().into_iter().map(|fi| {
                    let (m, fty) = (&fi.member, &fi.ty);
                    quote!(<#fty as #bound>::#f::<#s>(&mut #t.#m, #k, &#v.#m);)
                });
                return quote!(#(#sets)*);
            }
            let fields = self.infos.iter().map(|fi| {
                let (m, fty) = (&fi.member, &fi.ty);
                match fi.kind {
                    Kind::Tangent(_) => quote!(#m: <#fty as #bound>::#f::<#s>(&#t.#m, #k)),
                    _ => quote!(#m: #p::NoTangent),
                }
            });
            quote!(#tname { #(#fields,)* })
        })
    }

    /// The `LaneValue` impl of the type (a struct's or an enum's), none for a recursive
    /// one; `body(names, method, is_set)` writes the body of `lane1`/`lane2` (`is_set`
    /// false) and `set_lane1`/`set_lane2` (true) in the impl's names `t`, `k`, `v`.
    pub(crate) fn lane_value_impl(
        &self,
        body: impl Fn(&LaneNames, &Ident, bool) -> TokenStream,
    ) -> TokenStream {
        if self.infos.iter().any(|f| f.recursive) {
            return TokenStream::new();
        }
        let (name, p, s) = (&self.input.ident, self.p, self.s);
        let bound = quote!(#p::traits::LaneValue);
        let preds = self
            .tangent_fields()
            .into_iter()
            .flat_map(|f| field_preds(f, &bound, &self.generic));
        let g = with_preds(self.pgen, preds);
        let (i, ty, w) = g.split_for_impl();
        let n = LaneNames {
            t: Ident::new("t", Span::mixed_site()),
            k: Ident::new("k", Span::mixed_site()),
            v: Ident::new("v", Span::mixed_site()),
            bound: bound.clone(),
        };
        let (t, k, v) = (&n.t, &n.k, &n.v);
        let method = |f: &str| Ident::new(f, Span::call_site());
        let (l1, l2, s1, s2) = (
            body(&n, &method("lane1"), false),
            body(&n, &method("lane2"), false),
            body(&n, &method("set_lane1"), true),
            body(&n, &method("set_lane2"), true),
        );
        let f64_ty = quote!(::core::primitive::f64);
        let usize_ty = quote!(::core::primitive::usize);
        let at = |m: TokenStream| quote!(<Self as #p::Differentiable>::TangentIn<#m>);
        let (ts, t1, t2) = (
            at(quote!(#s)),
            at(f64_ty.clone()),
            at(quote!(#p::Hyper<#f64_ty, #f64_ty>)),
        );
        quote! {
            #[automatically_derived]
            impl #i #bound for #name #ty #w {
                #[inline]
                fn lane1<#s: #p::Mode>(#t: &#ts, #k: #usize_ty) -> #t1 {
                    #l1
                }
                #[inline]
                fn lane2<#s: #p::Mode>(#t: &#ts, #k: #usize_ty) -> #t2 {
                    #l2
                }
                #[inline]
                #[allow(unused_variables)]
                fn set_lane1<#s: #p::Mode>(#t: &mut #ts, #k: #usize_ty, #v: &#t1) {
                    #s1
                }
                #[inline]
                #[allow(unused_variables)]
                fn set_lane2<#s: #p::Mode>(#t: &mut #ts, #k: #usize_ty, #v: &#t2) {
                    #s2
                }
            }
        }
    }

    /// `fwdad::testing::TestTangent`, field by field.
    fn test_tangent(&self) -> TokenStream {
        let (name, p, tname) = (&self.input.ident, self.p, self.tname);
        let tt = quote!(#p::TestTangent);
        let f64_ty = quote!(::core::primitive::f64);
        let (_, ty, _) = self.pgen.split_for_impl();
        let mut preds = vec![pred(
            quote!(#name #ty),
            &quote!(::core::clone::Clone + ::core::fmt::Debug),
            &self.generic,
        )];
        for f in self.infos {
            match f.kind {
                Kind::Tangent(_) => preds.extend(field_preds(f, &tt, &self.generic)),
                Kind::Skip => preds.push(pred(
                    &f.ty,
                    &quote!(::core::clone::Clone + ::core::cmp::PartialEq),
                    &self.generic,
                )),
                Kind::Known | Kind::Phantom => {}
            }
        }
        // For a generic leaf `T` the compiler does not know the invariant
        // `Tangent == TangentIn<f64>`; state it, so that `T::Tangent` fills the field.
        for t in &self.leaves {
            preds.push(verbatim_pred(
                false,
                t.to_token_stream(),
                quote!(#p::Differentiable<Tangent = <#t as #p::Differentiable>::TangentIn<#f64_ty>>),
            ));
        }
        let g = with_preds(self.pgen, preds);
        let (i, _, w) = g.split_for_impl();

        let mk = |s: &str| Ident::new(s, Span::mixed_site());
        let (rng, t, eps, other, ts, k) = (
            mk("rng"),
            mk("t"),
            mk("eps"),
            mk("other"),
            mk("ts"),
            mk("k"),
        );
        let tangent_fields = self.tangent_fields();
        // The precision of a recursive field is that of its other parts.
        let tys = tangent_fields.iter().flat_map(|f| {
            if f.recursive {
                f.leaves.iter().collect()
            } else {
                vec![&f.ty]
            }
        });
        let members = self.members();
        let no = quote!(#p::NoTangent);
        // One expression per field: `tangent` for fields with a tangent, else `none`.
        let per = |tangent: &dyn Fn(&Member, &Type) -> TokenStream,
                   none: &dyn Fn(&Member) -> TokenStream| {
            self.infos
                .iter()
                .map(|f| match f.kind {
                    Kind::Tangent(_) => tangent(&f.member, &f.ty),
                    _ => none(&f.member),
                })
                .collect::<Vec<_>>()
        };
        let no_tangent = |_: &Member| no.clone();
        let randn = per(
            &|m, _| quote!(#tt::randn_tangent(&self.#m, #rng)),
            &no_tangent,
        );
        let add = per(
            &|m, _| quote!(#tt::add_to_primal(&self.#m, &#t.#m, #eps)),
            &|m| quote!(::core::clone::Clone::clone(&self.#m)),
        );
        let diff = per(&|m, _| quote!(#tt::diff(&self.#m, &#other.#m)), &no_tangent);
        let batch = per(
            &|m, fty| quote!(<#fty as #tt>::batch_tangent::<__N>(#ts.map(|#t| &#t.#m))),
            &no_tangent,
        );
        let lane = per(
            &|m, fty| quote!(<#fty as #tt>::lane::<__N>(&#t.#m, #k)),
            &no_tangent,
        );
        let bitwise = self.infos.iter().filter_map(|f| {
            let m = &f.member;
            match f.kind {
                Kind::Tangent(_) => Some(quote!(&& #tt::bitwise_eq(&self.#m, &#other.#m))),
                Kind::Known | Kind::Skip => {
                    Some(quote!(&& ::core::cmp::PartialEq::eq(&self.#m, &#other.#m)))
                }
                Kind::Phantom => None,
            }
        });
        let matches = tangent_fields.iter().map(|f| {
            let m = &f.member;
            quote!(&& #tt::matches_tangent(&self.#m, &#t.#m))
        });
        let tangent = quote!(<Self as #p::Differentiable>::Tangent);
        let batched = quote!(<Self as #p::Differentiable>::TangentIn<#p::Batch<#f64_ty, __N>>);
        quote! {
            #[automatically_derived]
            impl #i #tt for #name #ty #w {
                const PRECISION: #p::Precision =
                    #p::Precision::Discrete #(.coarser(<#tys as #tt>::PRECISION))*;
                fn randn_tangent<__R: #p::Rng + ?::core::marker::Sized>(
                    &self,
                    #rng: &mut __R,
                ) -> #tangent {
                    #tname { #(#members: #randn,)* }
                }
                fn add_to_primal(&self, #t: &#tangent, #eps: #f64_ty) -> Self {
                    Self { #(#members: #add,)* }
                }
                fn diff(&self, #other: &Self) -> #tangent {
                    #tname { #(#members: #diff,)* }
                }
                fn bitwise_eq(&self, #other: &Self) -> bool {
                    true #(#bitwise)*
                }
                fn matches_tangent(&self, #t: &#tangent) -> bool {
                    true #(#matches)*
                }
                fn batch_tangent<const __N: ::core::primitive::usize>(
                    #ts: [&#tangent; __N],
                ) -> #batched {
                    #tname { #(#members: #batch,)* }
                }
                fn lane<const __N: ::core::primitive::usize>(
                    #t: &#batched,
                    #k: ::core::primitive::usize,
                ) -> #tangent {
                    #tname { #(#members: #lane,)* }
                }
            }
        }
    }
}

/// `Differentiable` with tangent `NoTangent` (structs with no field that carries a tangent,
/// fieldless enums), with `ZeroTangent` and `TestTangent`.
fn no_tangent(input: &DeriveInput, p: &TokenStream, infos: &[Field], is_enum: bool) -> TokenStream {
    let name = &input.ident;
    let (i, ty, w) = input.generics.split_for_impl();
    let generic: BTreeSet<String> = input.generics.params.iter().map(param_name).collect();
    let self_ty = quote!(#name #ty);
    let mut preds = vec![pred(
        &self_ty,
        &quote!(::core::clone::Clone + ::core::fmt::Debug),
        &generic,
    )];
    let (this, other) = (
        Ident::new("this", Span::mixed_site()),
        Ident::new("other", Span::mixed_site()),
    );
    let with_data =
        matches!(&input.data, Data::Enum(e) if e.variants.iter().any(|v| !v.fields.is_empty()));
    let eq = if with_data {
        // Variants with data none of which carries a tangent: compared whole.
        preds.push(pred(&self_ty, &quote!(::core::cmp::PartialEq), &generic));
        quote!(::core::cmp::PartialEq::eq(#this, #other))
    } else if is_enum {
        // Fieldless variants are equal exactly when their discriminants are: no
        // `PartialEq` needed.
        quote!(::core::mem::discriminant(#this) == ::core::mem::discriminant(#other))
    } else {
        for f in infos.iter().filter(|f| matches!(f.kind, Kind::Skip)) {
            preds.push(pred(&f.ty, &quote!(::core::cmp::PartialEq), &generic));
        }
        let checks = infos
            .iter()
            .filter(|f| !matches!(f.kind, Kind::Phantom))
            .map(|f| {
                let m = &f.member;
                quote!(&& ::core::cmp::PartialEq::eq(&#this.#m, &#other.#m))
            });
        quote!(true #(#checks)*)
    };
    let tg = with_preds(&input.generics, preds);
    let (ti, _, tw) = tg.split_for_impl();
    let no = quote!(#p::NoTangent);
    let items = quote! {
        #[automatically_derived]
        impl #i #p::Differentiable for #self_ty #w {
            type Tangent = #no;
            type TangentIn<S: #p::Mode> = #no;
        }
        #[automatically_derived]
        impl #i #p::traits::UserValue for #self_ty #w {}
        #[automatically_derived]
        impl #i #p::traits::LaneValue for #self_ty #w {
            #[inline]
            fn lane1<S: #p::Mode>(_: &#no, _: ::core::primitive::usize) -> #no {
                #p::NoTangent
            }
            #[inline]
            fn lane2<S: #p::Mode>(_: &#no, _: ::core::primitive::usize) -> #no {
                #p::NoTangent
            }
            #[inline]
            fn set_lane1<S: #p::Mode>(_: &mut #no, _: ::core::primitive::usize, _: &#no) {}
            #[inline]
            fn set_lane2<S: #p::Mode>(_: &mut #no, _: ::core::primitive::usize, _: &#no) {}
        }
        #[automatically_derived]
        impl #i #p::ZeroTangent for #self_ty #w {
            #[inline]
            fn zero_tangent(&self) -> #no {
                #p::NoTangent
            }
            #[inline]
            fn zero_tangent_in<S: #p::Mode>(&self) -> #no {
                #p::NoTangent
            }
        }
    };
    let test_tangent = quote! {
        #[automatically_derived]
        impl #ti #p::TestTangent for #self_ty #tw {
            const PRECISION: #p::Precision = #p::Precision::Discrete;
            #[inline]
            fn randn_tangent<__R: #p::Rng + ?::core::marker::Sized>(&self, _: &mut __R) -> #no {
                #p::NoTangent
            }
            #[inline]
            fn add_to_primal(&self, _: &#no, _: ::core::primitive::f64) -> Self {
                ::core::clone::Clone::clone(self)
            }
            #[inline]
            fn diff(&self, _: &Self) -> #no {
                #p::NoTangent
            }
            #[inline]
            fn bitwise_eq(&self, #other: &Self) -> bool {
                let #this = self;
                #eq
            }
            #[inline]
            fn matches_tangent(&self, _: &#no) -> bool {
                true
            }
            #[inline]
            fn batch_tangent<const __N: ::core::primitive::usize>(_: [&#no; __N]) -> #no {
                #p::NoTangent
            }
            #[inline]
            fn lane<const __N: ::core::primitive::usize>(
                _: &#no,
                _: ::core::primitive::usize,
            ) -> #no {
                #p::NoTangent
            }
        }
    };
    let bind_entry = match &input.data {
        // Not an empty enum (a type that only selects a trait's functions): no value of it
        // can be bound.
        Data::Enum(e)
            if !with_data && input.generics.params.is_empty() && !e.variants.is_empty() =>
        {
            fieldless_bind_entry(name, e, p)
        }
        _ => TokenStream::new(),
    };
    if TEST_TANGENT {
        quote!(#items #test_tangent #bind_entry)
    } else {
        quote!(#items #bind_entry)
    }
}

/// A fieldless enum of the user's as an entry of the drivers' `bind` (`bind(f {}, (Wrt,
/// Kind::Call))`), a constant as `Const(Kind::Call)` is, passed by value: the value is
/// copied variant by variant, so the enum needs neither `Clone` nor `Copy`.
#[inline(never)]
fn fieldless_bind_entry(name: &Ident, e: &syn::DataEnum, p: &TokenStream) -> TokenStream {
    let arms = e.variants.iter().map(|v| {
        let vi = &v.ident;
        quote!(#name::#vi => #name::#vi,)
    });
    let dual = quote!(#p::Dual<#name, #p::NoTangent>);
    let copy = quote! {
        #[allow(unreachable_code)]
        let value: #name = match *self { #(#arms)* };
        #p::Dual::new(value, #p::NoTangent)
    };
    bind_entry(name, p, [&dual, &dual], &quote!(#p::Mode), copy)
}

/// A struct or enum with data of the user's as an entry of the drivers' `bind` (`bind(f {},
/// (Wrt, body))`), a constant as `Const(body)` is: copied into each call, which needs
/// `Clone` (asked where it is bound, through `BoundByValue`, not of every derived type).
#[inline(never)]
fn value_bind_entry(name: &Ident, p: &TokenStream) -> TokenStream {
    let dual = |t: TokenStream| quote!(#p::Dual<#name, <#name as #p::Differentiable>::#t>);
    let (one, in_mode) = (dual(quote!(Tangent)), dual(quote!(TangentIn<__FwdadS>)));
    let by_value = quote!(#p::drivers::BoundByValue<#name>);
    let copy = quote!(<__FwdadS as #by_value>::constant(self));
    bind_entry(name, p, [&one, &in_mode], &by_value, copy)
}

/// The drivers' traits of one `bind` entry bound by value: `duals` are its one-direction
/// dual and its dual under mode `__FwdadS` (bounded by `mode`), `copy` builds the latter
/// from `self`.
fn bind_entry(
    name: &Ident,
    p: &TokenStream,
    [one, in_mode]: [&TokenStream; 2],
    mode: &TokenStream,
    copy: TokenStream,
) -> TokenStream {
    quote! {
        #p::with_drivers! {
            #[automatically_derived]
            impl #p::drivers::BindEntry for #name {}
            // A value bound as it is is a constant: it marks no point (`bind` needs a `Wrt`).
            #[automatically_derived]
            impl #p::drivers::PointMark for #name {
                type Is = #p::drivers::NoArgumentMarkedWrt;
            }
            #[automatically_derived]
            impl #p::drivers::Settled for #name {
                type Out<__FwdadT> = __FwdadT;
                #[inline(always)]
                fn settle<__FwdadT>(t: &__FwdadT) -> &__FwdadT {
                    t
                }
            }
            #[automatically_derived]
            impl #p::drivers::Fits<#one> for #name {}
            #[automatically_derived]
            impl<'z, __FwdadX, __FwdadY, __FwdadS: #p::Mode, __FwdadD>
                #p::drivers::SlotDual<'z, __FwdadX, __FwdadY, __FwdadS, __FwdadD> for #name
            {
                type Dual = #in_mode;
            }
            #[automatically_derived]
            impl<__FwdadX, __FwdadY, __FwdadS: #mode, __FwdadD>
                #p::drivers::Slot<__FwdadX, __FwdadY, __FwdadS, __FwdadD> for #name
            {
                type Store = ();
                #[inline(always)]
                fn store(&self) {}
                #[inline(always)]
                fn dual<'z>(
                    &'z self,
                    _: &'z mut (),
                    _: __FwdadX,
                    _: &mut ::core::option::Option<__FwdadY>,
                ) -> #in_mode {
                    #copy
                }
            }
        }
    }
}

/// `Name<A, 'b, N>`, the type an impl on the input is for, built as a tree.
fn self_type(name: &Ident, generics: &Generics) -> Type {
    let mut args = syn::punctuated::Punctuated::new();
    for gp in &generics.params {
        args.push(match gp {
            GenericParam::Lifetime(l) => syn::GenericArgument::Lifetime(l.lifetime.clone()),
            GenericParam::Type(t) => syn::GenericArgument::Type(ident_type(&t.ident)),
            GenericParam::Const(c) => syn::GenericArgument::Type(ident_type(&c.ident)),
        });
    }
    let arguments = if args.is_empty() {
        syn::PathArguments::None
    } else {
        syn::PathArguments::AngleBracketed(syn::AngleBracketedGenericArguments {
            colon2_token: None,
            lt_token: Default::default(),
            args,
            gt_token: Default::default(),
        })
    };
    let mut path = syn::Path::from(name.clone());
    path.segments[0].arguments = arguments;
    Type::Path(syn::TypePath { qself: None, path })
}

fn ident_type(ident: &Ident) -> Type {
    Type::Path(syn::TypePath {
        qself: None,
        path: ident.clone().into(),
    })
}

#[cfg(test)]
mod tests {
    use super::expand;
    use quote::quote;

    /// The expansion, pretty-printed (it must parse as items).
    fn pretty(tokens: proc_macro2::TokenStream) -> String {
        let file: syn::File = syn::parse2(expand(tokens)).expect("expansion parses as items");
        prettyplease::unparse(&file)
    }

    /// `pretty`, with whitespace removed, for `contains` checks independent of layout.
    fn flat(tokens: proc_macro2::TokenStream) -> String {
        pretty(tokens).split_whitespace().collect()
    }

    fn has(haystack: &str, needle: &str) -> bool {
        let needle: String = needle.split_whitespace().collect();
        haystack.contains(&needle)
    }

    #[test]
    fn named_struct() {
        let out = flat(quote! {
            pub struct Params { pub k: f64, pub n: usize, inner: Inner }
        });
        for needle in [
            "pub struct ParamsTangent<S: ::fwdad::__private::Mode = ::core::primitive::f64>",
            "pub k: S,",
            "pub n: ::fwdad::__private::NoTangent,",
            "inner: <Inner as ::fwdad::__private::Differentiable>::TangentIn<S>,",
            "type Tangent = ParamsTangent<::core::primitive::f64>;",
            "type TangentIn<S: ::fwdad::__private::Mode> = ParamsTangent<S>;",
            "impl<S: ::fwdad::__private::Mode> ::core::marker::Copy for ParamsTangent<S>",
        ] {
            assert!(has(&out, needle), "missing `{needle}` in\n{}", out);
        }
        assert_eq!(
            has(&out, "impl ::fwdad::__private::TestTangent for Params"),
            super::TEST_TANGENT
        );
        // `f64` fields need no bounds; `S: Mode` is `Copy` already.
        assert!(!has(&out, "f64: ::fwdad::__private::ZeroTangent"));
        assert!(!has(&out, "S: ::core::marker::Copy"));
    }

    #[test]
    fn tuple_generic_and_renamed_mode() {
        let out = flat(quote! {
            pub(crate) struct P<'a, S: Copy, T, const N: usize, U>(pub S, [f64; N], &'a [T], core::marker::PhantomData<U>);
        });
        assert!(has(
            &out,
            "pub(crate) struct PTangent<'a, S: Copy, T, const N: usize, M: ::fwdad::__private::Mode = ::core::primitive::f64,>("
        ), "{out}");
        assert!(has(
            &out,
            "pub <S as ::fwdad::__private::Differentiable>::TangentIn<M>,"
        ));
        assert!(has(&out, "[M; N],"));
        assert!(has(
            &out,
            "&'a [<T as ::fwdad::__private::Differentiable>::TangentIn<M>]"
        ));
        // `U` appears only in `PhantomData`: not a parameter of the tangent.
        assert!(has(
            &out,
            "type TangentIn<M: ::fwdad::__private::Mode> = PTangent<'a, S, T, N, M>;"
        ));
        // Borrowed tangent: no zero or random tangent.
        assert!(!has(&out, "ZeroTangent for"));
        assert!(!has(&out, "TestTangent for"));
    }

    #[test]
    fn no_tangent_struct_when_nothing_carries_one() {
        for item in [
            quote!(
                struct Seed(u64, bool);
            ),
            quote!(
                struct Unit;
            ),
            quote!(
                struct Empty {}
            ),
            quote!(
                enum Method {
                    Euler,
                    Rk4,
                }
            ),
            quote!(
                struct Skipped {
                    #[differentiable(skip)]
                    table: Vec<f64>,
                }
            ),
        ] {
            let out = flat(item);
            assert!(
                has(&out, "type Tangent = ::fwdad::__private::NoTangent;"),
                "{out}"
            );
            assert!(!has(&out, "Tangent<S"), "{out}");
        }
        // Named fields keep their names, for derived methods that write them.
        let out = flat(quote!(
            struct Grid {
                nx: usize,
                flag: bool,
                name: String,
                label: &'static str,
            }
        ));
        assert!(
            has(
                &out,
                "nx: <usize as ::fwdad::__private::Differentiable>::TangentIn<S>,"
            ),
            "{out}"
        );
        assert!(
            has(&out, "type Tangent = GridTangent<::core::primitive::f64>;"),
            "{out}"
        );
    }

    #[test]
    fn crate_path_and_tangent_name() {
        let out = flat(quote! {
            #[differentiable(crate = my::ad, tangent = Dir)]
            struct P { x: f64 }
        });
        assert!(has(&out, "struct Dir<S: my::ad::__private::Mode"), "{out}");
        let out = flat(quote! {
            #[differentiable(crate = "my::ad")]
            struct P { x: f64 }
        });
        assert!(
            has(&out, "my::ad::__private::Differentiable for P"),
            "{out}"
        );
    }

    #[test]
    fn enum_with_data() {
        let out = flat(quote! {
            pub enum Shape<T> {
                Circle { r: T },
                Tagged(usize, f64),
                Empty,
            }
        });
        // The same variants, fields mapped as a struct's; the mode parameter last.
        assert!(
            has(
                &out,
                "pub enum ShapeTangent<T, S: ::fwdad::__private::Mode = ::core::primitive::f64> where T: ::fwdad::__private::Differentiable,"
            ),
            "{out}"
        );
        assert!(
            has(
                &out,
                "{ /// The tangent of `Shape::Circle`. Circle { /// The tangent of `Shape::Circle`'s `r`. r: <T as ::fwdad::__private::Differentiable>::TangentIn<S>, },"
            ),
            "{out}"
        );
        assert!(
            has(
                &out,
                "Tagged(::fwdad::__private::NoTangent, S), /// The tangent of `Shape::Empty`. Empty, }"
            ),
            "{out}"
        );
        // A zero tangent is of the primal's variant.
        assert!(
            has(&out, "Self::Empty {} => ShapeTangent::Empty {},"),
            "{out}"
        );
        // Tangents of two variants never add up to anything.
        assert!(has(&out, "_ => { ::core::panic!("), "{out}");
        // Only integers: a tangent enum of `NoTangent` fields, named by projection so that
        // the mode parameter is used.
        let none = flat(quote!(
            enum Grid {
                Cells(usize),
                Off,
            }
        ));
        assert!(
            has(
                &none,
                "Cells(<usize as ::fwdad::__private::Differentiable>::TangentIn<S>), /// The tangent of `Grid::Off`. Off,"
            ),
            "{none}"
        );
    }

    #[test]
    fn self_in_field_types_is_the_struct() {
        let out = flat(quote!(
            struct Node {
                v: f64,
                next: Option<Box<Self>>,
            }
        ));
        assert!(has(
            &out,
            "next: Option<Box<<Node as ::fwdad::__private::Differentiable>::TangentIn<S>>>"
        ));
    }

    fn error(tokens: proc_macro2::TokenStream) -> String {
        let out = expand(tokens).to_string();
        assert!(
            out.contains("compile_error"),
            "expected an error, got {out}"
        );
        out
    }

    #[test]
    fn errors() {
        assert!(error(quote!(union U { a: f64, b: u64 })).contains("does not support unions"));
        assert!(error(quote!(
            enum E {
                A,
                #[differentiable(skip)]
                B(f64),
            }
        ))
        .contains("not allowed on enum variants"));
        assert!(error(quote!(
            struct P {
                t: PTangent,
                x: f64,
            }
        ))
        .contains("already uses the name"));
        assert!(error(quote!(
            #[differentiable(tangent = P)]
            struct P {
                x: f64,
            }
        ))
        .contains("already uses the name"));
        assert!(error(quote!(
            #[differentiable(tangent = T)]
            struct P(usize);
        ))
        .contains("no tangent struct to name"));
        assert!(error(quote!(
            #[differentiable(foo)]
            struct P {
                x: f64,
            }
        ))
        .contains("unknown"));
        assert!(error(quote!(
            struct P {
                #[differentiable(foo)]
                x: f64,
            }
        ))
        .contains("expected `skip`"));
        // Errors accumulate: both are reported.
        let both = error(quote! {
            #[differentiable(foo)]
            struct P { #[differentiable(bar)] x: f64 }
        });
        assert_eq!(both.matches("compile_error").count(), 2, "{both}");
    }

    /// Whatever the input, the macro returns tokens (items or `compile_error!`), no panic.
    #[test]
    fn robust_on_odd_inputs() {
        for item in [
            quote!(),
            quote!(
                fn f() {}
            ),
            quote!(struct),
            quote!(
                struct P<T>(T)
                where
                    T: Copy;
            ),
            quote!(
                struct P {
                    x: <f64 as Tr>::Assoc,
                    y: dyn Fn(f64),
                    z: *const f64,
                    w: [f64; 2 + 1],
                }
            ),
            quote!(
                struct P {
                    x: (f64,),
                    y: ((f64, f32), [(); 0]),
                    z: Option<Vec<Box<f64>>>,
                }
            ),
            quote!(
                struct P {
                    x: ::std::vec::Vec<f64>,
                    y: std::option::Option<usize>,
                    z: core::primitive::f64,
                }
            ),
            quote!(
                struct P<'a> {
                    x: &'a mut f64,
                    y: &'a str,
                    z: &'a mut [usize],
                }
            ),
            quote!(
                #[differentiable(crate)]
                struct P {
                    x: f64,
                }
            ),
            quote!(
                #[differentiable(crate = )]
                struct P {
                    x: f64,
                }
            ),
            quote!(
                #[differentiable = "x"]
                struct P {
                    x: f64,
                }
            ),
        ] {
            let _ = expand(item);
        }
    }
}
