//! `#[derive_frule(alias(State = SVector<f64, 3>))]`: the user's type aliases of library
//! types, replaced by what they stand for in the function the passes see (the primal keeps
//! the user's names). Library types are recognised by their names (`libtypes`), which an
//! alias hides. The `type` items the macro can see are read from the source (`source`'s
//! one reading of each file): the function's own file, and the module files its `use`
//! items name (`use crate::types::M3;`, `use super::Real;`), found the way rustc finds them
//! (`mod types;` is `types.rs` or `types/mod.rs` beside the parent module's file).

use crate::source::{self, items_of, resolve, Module, Reading};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;
use syn::visit_mut::VisitMut;

/// `type` aliases as token text, name and type.
type Aliases = Vec<(String, String)>;

/// The files an answer was read from, with their modification times.
type Deps = Vec<(PathBuf, Option<SystemTime>)>;

thread_local! {
    /// The type aliases of the source file being expanded (set by the entry point for one
    /// expansion, see [`with_source_aliases`]).
    static SOURCE: RefCell<Aliases> = const { RefCell::new(Vec::new()) };
    /// The result types of the source file's functions (see [`file_return_type`]).
    static SOURCE_RETURNS: RefCell<Aliases> = const { RefCell::new(Vec::new()) };
    /// Each file's visible aliases, its functions' result types and its imported types'
    /// tangent paths, with the files they were read from.
    static FILES: RefCell<HashMap<PathBuf, (Deps, FileReading)>> = RefCell::new(HashMap::new());
    /// The tangent paths of the types the source file imports by name (see [`imported_tangent`]).
    static IMPORTS: RefCell<Imports> = const { RefCell::new(Vec::new()) };
    /// The array fields of the source file being expanded (see [`source_array_field`]).
    static ARRAY_FIELDS: RefCell<Aliases> = const { RefCell::new(Vec::new()) };
    /// The fields of the source file being expanded declared with one type that names no
    /// type parameter (see [`source_field_type`]).
    static FIELD_TYPES: RefCell<Aliases> = const { RefCell::new(Vec::new()) };
}

/// A type of the crate imported alone by name (`use crate::geometry::Vec3;`), as local
/// name and the path of its `#[derive(Differentiable)]` twin (`crate::geometry::Vec3Tangent`)
/// as segments, which the `use` does not bring.
type Imports = Vec<(String, Vec<String>)>;

/// What the macro reads of a source file: its aliases, its functions' result types (as
/// aliases: name and type) and its imported types' tangent paths.
type FileReading = (Aliases, Aliases, Imports);

/// The written type of the source file's struct field `name` when every field of that
/// name in the file is of one array type (`q: [f64; 4]`): `self.q.map(|v| ..)` is then
/// an array's `map`, not an `Option`'s, which the body alone cannot tell.
pub fn source_array_field(name: &str) -> Option<syn::Type> {
    ARRAY_FIELDS.with(|s| {
        s.borrow()
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, t)| syn::parse_str(t).ok())
    })
}

/// The written type of the source file's struct field `name` when every field of that
/// name in the file (of a struct or an enum variant) has that one type and it names no
/// type parameter (`v: V3`): `-self.v` is then `V3`'s `Neg`, which the body alone
/// cannot tell from a float's.
pub fn source_field_type(name: &str) -> Option<syn::Type> {
    let text = FIELD_TYPES.with(|s| {
        s.borrow()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.clone())
    })?;
    // `x: Real` with `type Real = f64;`: what the alias stands for.
    let aliased = SOURCE.with(|s| {
        s.borrow()
            .iter()
            .find(|(n, _)| *n == text)
            .map(|(_, t)| t.clone())
    });
    syn::parse_str(&aliased.unwrap_or(text)).ok()
}

/// The non-generic aliases visible in `module`, written out: its own `type` items and
/// those its `use` items import from modules of the crate (a glob's only where no item or
/// named import takes the name), leaving out names defined twice (`#[cfg]`-chosen
/// definitions, which the macro cannot choose between).
fn visible(module: &Module, deps: &mut Reading, seen: &mut Vec<Module>) -> Aliases {
    if seen.contains(module) || seen.len() > 32 {
        return Vec::new();
    }
    seen.push(module.clone());
    let Some(items) = items_of(module, deps) else {
        seen.pop();
        return Vec::new();
    };
    let mut own: Aliases = items.aliases.clone();
    let named = items.named.clone();
    let globs = items.globs.clone();
    drop(items);
    for (prefix, name, local) in named {
        if let Some(target) = resolve(module, &prefix, deps) {
            let theirs = visible(&target, deps, seen);
            own.extend(
                theirs
                    .into_iter()
                    .filter(|(n, _)| *n == name)
                    .map(|(_, t)| (local.clone(), t)),
            );
        }
    }
    let mut from_globs = Vec::new();
    for prefix in globs {
        if let Some(target) = resolve(module, &prefix, deps) {
            from_globs.extend(visible(&target, deps, seen));
        }
    }
    seen.pop();
    let mut all = once(own);
    let taken: Vec<String> = all.iter().map(|(n, _)| n.clone()).collect();
    all.extend(
        once(from_globs)
            .into_iter()
            .filter(|(n, _)| !taken.contains(n)),
    );
    expand(all)
}

/// `aliases` without the names given two different types.
fn once(aliases: Aliases) -> Aliases {
    let mut out: Aliases = Vec::new();
    for (n, t) in &aliases {
        let twice = aliases.iter().any(|(m, u)| m == n && u != t);
        if !twice && !out.iter().any(|(m, _)| m == n) {
            out.push((n.clone(), t.clone()));
        }
    }
    out
}

/// Each alias's type with the others written out in it (`type Vec3 = [Real; 3];`).
fn expand(aliases: Aliases) -> Aliases {
    let parsed: Vec<(syn::Ident, syn::Type)> = aliases
        .iter()
        .filter_map(|(n, t)| {
            Some((
                syn::parse_str::<syn::Ident>(n).ok()?,
                syn::parse_str::<syn::Type>(t).ok()?,
            ))
        })
        .collect();
    parsed
        .iter()
        .map(|(n, t)| {
            let mut ty = t.clone();
            for _ in 0..8 {
                let before = quote::quote!(#ty).to_string();
                Substitute(&parsed).visit_type_mut(&mut ty);
                if quote::quote!(#ty).to_string() == before {
                    break;
                }
            }
            (n.to_string(), quote::quote!(#ty).to_string())
        })
        .collect()
}

/// The aliases visible in the file at `path` (in any of its modules: the macro does not
/// know which one the function is in), leaving out names given two types. Empty when the
/// file cannot be read or parsed.
fn file_aliases(path: &Path) -> FileReading {
    let cached = FILES.with(|f| {
        f.borrow()
            .get(path)
            .filter(|(deps, _)| {
                deps.iter()
                    .all(|(p, t)| t.is_some() && source::modified(p) == *t)
            })
            .map(|(_, r)| r.clone())
    });
    if let Some(r) = cached {
        return r;
    }
    let mut reading = Reading::default();
    let mut all = Vec::new();
    let mut returns = Vec::new();
    let modules = source::modules_of(path, &mut reading);
    for module in &modules {
        all.extend(visible(module, &mut reading, &mut Vec::new()));
        if let Some(items) = items_of(module, &mut reading) {
            returns.extend(
                (items.fns.iter()).filter_map(|f| Some((f.name.clone(), f.result.clone()?))),
            );
        }
    }
    let all = once(all);
    let returns = once(returns);
    let imports = file_imports(&modules, &mut reading);
    let read = (all, returns, imports);
    FILES.with(|f| {
        f.borrow_mut()
            .insert(path.to_path_buf(), (reading.deps, read.clone()))
    });
    read
}

/// The result type written for the free function `name` of the source file (any module of
/// it; none when two functions of that name have different ones, or it has const or
/// several type parameters; one type parameter is written `source::SCALAR_PLACEHOLDER`,
/// see [`replace_caller_scalar`]), its
/// aliases written out: what `let pose = tool_pose(q);` binds, read as if the type were
/// written (`let pose: Isometry3<f64> = tool_pose(q);`), so that the macro sees a library
/// value there.
pub fn file_return_type(name: &str) -> Option<syn::Type> {
    let text = SOURCE_RETURNS.with(|s| {
        s.borrow()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.clone())
    })?;
    let mut ty = syn::parse_str::<syn::Type>(&text).ok()?;
    let aliases = source_aliases(&[]);
    Substitute(&aliases).visit_type_mut(&mut ty);
    Some(ty)
}

/// A generic callee's result type (see `source::plain_return`) at the caller's float
/// type `scalar`: its type parameter, written `source::SCALAR_PLACEHOLDER`, replaced.
pub fn replace_caller_scalar(ty: &mut syn::Type, scalar: &syn::Ident) {
    struct Replace<'a>(&'a syn::Ident);
    impl VisitMut for Replace<'_> {
        fn visit_ident_mut(&mut self, i: &mut syn::Ident) {
            if i == source::SCALAR_PLACEHOLDER {
                *i = self.0.clone();
            }
        }
    }
    Replace(scalar).visit_type_mut(ty);
}

/// Whether `items` define a struct or enum `name`.
fn defines(items: &source::Items, name: &str) -> bool {
    items.structs.iter().any(|s| s.name == name) || items.enums.iter().any(|e| e == name)
}

/// The types of the crate the file's modules import alone by name, with the paths of
/// their tangent twins from the crate root; left out: a name two modules import from
/// different definitions of the crate, or that the file defines as another type (the
/// macro does not know which of the file's modules the function is in).
fn file_imports(modules: &[Module], deps: &mut Reading) -> Imports {
    let mut found: Vec<(String, Option<(Module, String)>)> = Vec::new();
    let mut defined: Vec<(String, Module)> = Vec::new();
    for module in modules {
        let Some(items) = items_of(module, deps) else {
            continue;
        };
        let named = items.named.clone();
        let names = (items.structs.iter().map(|s| &s.name)).chain(&items.enums);
        defined.extend(names.map(|n| (n.clone(), module.clone())));
        drop(items);
        for (prefix, name, local) in named {
            if prefix.is_empty() || !name.starts_with(|c: char| c.is_ascii_uppercase()) {
                continue;
            }
            found.push((
                local,
                source::definition(module, &prefix, &name, deps, 4, &defines),
            ));
        }
    }
    let mut out: Imports = Vec::new();
    for (local, def) in &found {
        // A name also imported from another crate (`use kurbo::Vec2;` beside the crate's
        // own `Vec2`) has no twin there: a literal of it would fail either way.
        let agreed = found
            .iter()
            .all(|(l, d)| l != local || d.is_none() || d == def);
        let Some((module, name)) = def.as_ref().filter(|_| agreed) else {
            continue;
        };
        let other = defined
            .iter()
            .any(|(n, m)| n == local && (n != name || m != module));
        if other || out.iter().any(|(l, _)| l == local) {
            continue;
        }
        if let Some(mut path) = source::crate_path(module) {
            path.push(format!("{name}Tangent"));
            out.push((local.clone(), path));
        }
    }
    out
}

/// The tangent twin's path of a type the source file imports by name (`Vec3` after `use
/// crate::geometry::Vec3;`: `crate::geometry::Vec3Tangent`), for literals and patterns of
/// it, whose tangents are built by name; `None` for any other name.
pub fn imported_tangent(local: &syn::Ident) -> Option<Vec<String>> {
    IMPORTS.with(|i| {
        i.borrow()
            .iter()
            .find(|(l, _)| local == l)
            .map(|(_, p)| p.clone())
    })
}

/// Runs `f` with the type aliases of `file` (the file of the annotated item, when the
/// compiler tells it) visible to [`source_aliases`]: a function using `type M3 = [[f64;
/// 3]; 3];` or `type State = SVector<f64, 6>;` of its own file is read as if the alias
/// were written out, as `alias(..)` does.
pub fn with_source_aliases<R>(file: Option<PathBuf>, f: impl FnOnce() -> R) -> R {
    let (aliases, returns, imports) = file.as_deref().map(file_aliases).unwrap_or_default();
    let (fields, types) = (file.as_deref().and_then(source::parse))
        .map(|p| (p.array_fields.clone(), p.field_types.clone()))
        .unwrap_or_default();
    let previous = SOURCE.with(|s| std::mem::replace(&mut *s.borrow_mut(), aliases));
    let previous_returns =
        SOURCE_RETURNS.with(|s| std::mem::replace(&mut *s.borrow_mut(), returns));
    let previous_imports = IMPORTS.with(|i| std::mem::replace(&mut *i.borrow_mut(), imports));
    let previous_fields = ARRAY_FIELDS.with(|s| std::mem::replace(&mut *s.borrow_mut(), fields));
    let previous_types = FIELD_TYPES.with(|s| std::mem::replace(&mut *s.borrow_mut(), types));
    let out = f();
    SOURCE.with(|s| *s.borrow_mut() = previous);
    SOURCE_RETURNS.with(|s| *s.borrow_mut() = previous_returns);
    IMPORTS.with(|i| *i.borrow_mut() = previous_imports);
    ARRAY_FIELDS.with(|s| *s.borrow_mut() = previous_fields);
    FIELD_TYPES.with(|s| *s.borrow_mut() = previous_types);
    out
}

/// The source file's aliases not named in `alias(..)` (which wins), parsed.
pub fn source_aliases(named: &[(syn::Ident, syn::Type)]) -> Vec<(syn::Ident, syn::Type)> {
    SOURCE.with(|s| {
        s.borrow()
            .iter()
            .filter(|(n, _)| !named.iter().any(|(m, _)| m == n))
            .filter_map(|(n, t)| {
                let ident = syn::parse_str::<syn::Ident>(n).ok()?;
                Some((ident, syn::parse_str::<syn::Type>(t).ok()?))
            })
            .collect()
    })
}

/// `func` with each alias written out: a type `State` (`x: &State`, `let s: State`,
/// `Vec<State>`) becomes `SVector<f64, 3>`, a path `State::new` becomes
/// `SVector::<f64, 3>::new`.
pub fn substitute(func: &syn::ItemFn, aliases: &[(syn::Ident, syn::Type)]) -> syn::ItemFn {
    let mut func = func.clone();
    if !aliases.is_empty() {
        Substitute(aliases).visit_item_fn_mut(&mut func);
    }
    func
}

struct Substitute<'a>(&'a [(syn::Ident, syn::Type)]);

impl Substitute<'_> {
    fn target(&self, segment: &syn::PathSegment) -> Option<&syn::Type> {
        if !matches!(segment.arguments, syn::PathArguments::None) {
            return None;
        }
        self.0
            .iter()
            .find(|(name, _)| *name == segment.ident)
            .map(|(_, ty)| ty)
    }
}

impl VisitMut for Substitute<'_> {
    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        if let syn::Type::Path(p) = ty {
            if p.qself.is_none() && p.path.segments.len() == 1 {
                if let Some(t) = self.target(&p.path.segments[0]) {
                    *ty = t.clone();
                    return;
                }
            }
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }

    /// `State::new(..)`, `Cov::identity()`: the alias's path with its arguments as a
    /// turbofish (`SVector::<f64, 3>::new`).
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() >= 2 {
            if let Some(syn::Type::Path(t)) = self.target(&path.segments[0]) {
                if t.qself.is_none() {
                    let mut head = t.path.clone();
                    for s in head.segments.iter_mut() {
                        if let syn::PathArguments::AngleBracketed(a) = &mut s.arguments {
                            a.colon2_token.get_or_insert_with(Default::default);
                        }
                    }
                    let rest: Vec<_> = path.segments.iter().skip(1).cloned().collect();
                    head.segments.extend(rest);
                    *path = head;
                }
            }
        }
        syn::visit_mut::visit_path_mut(self, path);
    }
}

/// `func` with nalgebra's real field of each scalar type parameter written as the
/// parameter itself (with the feature `nalgebra`): `T::RealField`,
/// `<T as ComplexField>::RealField` (and `SimdRealField`) become `T` in the signature and
/// the body, `T::RealField::zero()` becomes `T::zero()`. A `T` bounded by `ComplexField`
/// or `RealField` is a float type to the macro, and the rule runs at the real float types,
/// where the real field is the type itself (`f64::RealField = f64`); the primal keeps the
/// user's text.
pub fn real_field_as_scalar(func: &syn::ItemFn) -> syn::ItemFn {
    let mut func = func.clone();
    let generics = &func.sig.generics;
    let params: Vec<syn::Ident> = generics
        .type_params()
        .map(|t| t.ident.clone())
        .filter(|p| bounded_by_field(generics, p))
        .collect();
    let params: Vec<&syn::Ident> = params.iter().collect();
    if cfg!(feature = "nalgebra") && !params.is_empty() {
        RealFieldAsScalar(&params).visit_item_fn_mut(&mut func);
    }
    func
}

/// The type parameters of `generics` bounded by nalgebra's `ComplexField` (with the
/// feature `nalgebra`): the rule runs at the real float types, and says so (`T: RealField`)
/// for nalgebra's methods that ask it of their scalar (`v.norm()` of a `Vector3<T>`).
pub fn complex_field_params(generics: &syn::Generics) -> Vec<syn::Ident> {
    if !cfg!(feature = "nalgebra") {
        return Vec::new();
    }
    generics
        .type_params()
        .map(|t| t.ident.clone())
        .filter(|p| bounded_by_field(generics, p))
        .collect()
}

/// Whether the type parameter `p` of `generics` is bounded by nalgebra's `ComplexField`
/// or `RealField` (inline or in the `where` clause).
fn bounded_by_field(generics: &syn::Generics, p: &syn::Ident) -> bool {
    let is_field = |b: &syn::TypeParamBound| {
        matches!(b, syn::TypeParamBound::Trait(t)
            if t.path.segments.last().is_some_and(|s| s.ident == "ComplexField" || s.ident == "RealField"))
    };
    let inline = generics
        .type_params()
        .any(|t| t.ident == *p && t.bounds.iter().any(is_field));
    let in_where = generics.where_clause.as_ref().is_some_and(|w| {
        w.predicates.iter().any(|pred| match pred {
            syn::WherePredicate::Type(pt) => {
                matches!(&pt.bounded_ty, syn::Type::Path(tp) if tp.qself.is_none() && tp.path.is_ident(p))
                    && pt.bounds.iter().any(is_field)
            }
            _ => false,
        })
    });
    inline || in_where
}

struct RealFieldAsScalar<'a>(&'a [&'a syn::Ident]);

fn is_real_field(s: &syn::PathSegment) -> bool {
    matches!(s.arguments, syn::PathArguments::None)
        && (s.ident == "RealField" || s.ident == "SimdRealField")
}

impl RealFieldAsScalar<'_> {
    /// `T::RealField::rest` as `T::rest`; `<T as ComplexField>::RealField::rest` as
    /// `T::rest` (a `None` qself afterwards).
    fn rewrite(&self, qself: &mut Option<syn::QSelf>, path: &mut syn::Path) {
        match qself {
            None => {
                let head = path.segments.first().map(|s| s.ident.clone());
                let is_param = head.as_ref().is_some_and(|h| {
                    self.0.contains(&h)
                        && matches!(path.segments[0].arguments, syn::PathArguments::None)
                });
                if path.leading_colon.is_none()
                    && is_param
                    && path.segments.len() >= 2
                    && is_real_field(&path.segments[1])
                {
                    let segs: Vec<syn::PathSegment> = path
                        .segments
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != 1)
                        .map(|(_, s)| s.clone())
                        .collect();
                    path.segments = segs.into_iter().collect();
                }
            }
            Some(q) => {
                let param = match &*q.ty {
                    syn::Type::Path(tp) if tp.qself.is_none() => {
                        tp.path.get_ident().filter(|i| self.0.contains(i)).cloned()
                    }
                    _ => None,
                };
                let at = q.position;
                let Some(param) = param else {
                    return;
                };
                if at == 0 || path.segments.len() <= at || !is_real_field(&path.segments[at]) {
                    return;
                }
                let mut segs: Vec<syn::PathSegment> = vec![param.into()];
                segs.extend(path.segments.iter().skip(at + 1).cloned());
                path.segments = segs.into_iter().collect();
                path.leading_colon = None;
                *qself = None;
            }
        }
    }
}

impl VisitMut for RealFieldAsScalar<'_> {
    fn visit_type_path_mut(&mut self, tp: &mut syn::TypePath) {
        self.rewrite(&mut tp.qself, &mut tp.path);
        syn::visit_mut::visit_type_path_mut(self, tp);
    }
    fn visit_expr_path_mut(&mut self, ep: &mut syn::ExprPath) {
        self.rewrite(&mut ep.qself, &mut ep.path);
        syn::visit_mut::visit_expr_path_mut(self, ep);
    }
}

thread_local! {
    /// The type parameters [`assoc_floats_as_params`] added to the function being
    /// expanded: not the user's, so a turbofish (`twice::<Lin>(x, y)`) does not name them.
    static ASSOC_PARAMS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Records the type parameters added for associated types (see [`ASSOC_PARAMS`]).
pub fn set_assoc_params(params: Vec<String>) {
    ASSOC_PARAMS.with(|p| *p.borrow_mut() = params);
}

/// Whether `ident` is a type parameter [`assoc_floats_as_params`] added to the function
/// being expanded.
pub fn is_assoc_param(ident: &syn::Ident) -> bool {
    ASSOC_PARAMS.with(|p| p.borrow().iter().any(|n| ident == n))
}

/// `func` with each float reached through an associated type of a type parameter written
/// as a type parameter of its own (`fn sse<M: Model>(m: &M, x: M::Scalar) -> M::Scalar`
/// as `fn sse<M: Model<Scalar = ScalarOfM>, ScalarOfM: Real>(m: &M, x: ScalarOfM) ->
/// ScalarOfM`): the rule is generic over a float type as for `T: Float`, and the binding
/// ties it to the parameter's. An associated type is a float where the `where` clause says
/// so (`I::Item: Float`, `<V as IntoIterator>::Item: Float`) or where the trait bounding the
/// parameter declares it with a float bound (`type Scalar: Float;`, in the file or in the
/// module a `use` of it leads to). The primal keeps the user's text.
pub fn assoc_floats_as_params(func: &syn::ItemFn, rt: &proc_macro2::TokenStream) -> syn::ItemFn {
    let params: Vec<syn::Ident> = func
        .sig
        .generics
        .type_params()
        .map(|t| t.ident.clone())
        .collect();
    if params.is_empty() {
        return func.clone();
    }
    let mut found = FindProjections {
        params: &params,
        found: Vec::new(),
    };
    syn::visit::Visit::visit_item_fn(&mut found, func);
    let mut chosen: Vec<AssocFloat> = Vec::new();
    for (param, qualified, name) in found.found {
        if chosen.iter().any(|c| c.param == param && c.name == name) {
            continue;
        }
        if let Some(c) = assoc_float(&func.sig.generics, &param, qualified.as_ref(), &name) {
            chosen.push(c);
        }
    }
    if chosen.is_empty() {
        return func.clone();
    }
    set_assoc_params(chosen.iter().map(|c| c.ident.to_string()).collect());
    let mut func = func.clone();
    // The bindings on the bounds (`M: Model<Scalar = ScalarOfM>`).
    for c in &chosen {
        bind_assoc(&mut func.sig.generics, c);
    }
    // Each projection written as the new parameter, then the parameters declared.
    AssocAsParam(&chosen).visit_item_fn_mut(&mut func);
    let at = (func.sig.generics.params.iter())
        .rposition(|g| matches!(g, syn::GenericParam::Type(_)))
        .map_or(0, |i| i + 1);
    for c in chosen.iter().rev() {
        let mut tp = syn::TypeParam::from(c.ident.clone());
        if !c.declared_in_where {
            tp.colon_token = Some(Default::default());
            match syn::parse2::<syn::TypeParamBound>(quote::quote!(#rt::Real)) {
                Ok(b) => tp.bounds.push(b),
                Err(_) => return func,
            }
        }
        func.sig
            .generics
            .params
            .insert(at, syn::GenericParam::Type(tp));
    }
    func
}

/// A float associated type chosen: the parameter, the type's name, the trait whose bound
/// takes the binding (its last segment's name), the new parameter's name, and whether the
/// `where` clause gives it its float bound (`I::Item: Float`).
struct AssocFloat {
    param: syn::Ident,
    name: syn::Ident,
    bound: String,
    ident: syn::Ident,
    declared_in_where: bool,
}

/// The projections `P::Name` and `<P as Tr>::Name` of the function's type parameters.
struct FindProjections<'a> {
    params: &'a [syn::Ident],
    found: Vec<(syn::Ident, Option<syn::Path>, syn::Ident)>,
}

impl FindProjections<'_> {
    fn path(&mut self, qself: Option<&syn::QSelf>, path: &syn::Path) {
        if let Some((p, tr, name)) = projection(self.params, qself, path) {
            self.found.push((p, tr, name));
        }
    }
}

/// `P::Name..` (`P` a parameter of `params`) or `<P as Tr>::Name..`: the parameter, the
/// trait written, the associated type's name. nalgebra's `RealField` is left to
/// [`real_field_as_scalar`].
fn projection(
    params: &[syn::Ident],
    qself: Option<&syn::QSelf>,
    path: &syn::Path,
) -> Option<(syn::Ident, Option<syn::Path>, syn::Ident)> {
    let plain = |s: &syn::PathSegment| matches!(s.arguments, syn::PathArguments::None);
    let (param, tr, name) = match qself {
        None => {
            let segs: Vec<&syn::PathSegment> = path.segments.iter().collect();
            let [p, n, ..] = segs[..] else {
                return None;
            };
            if path.leading_colon.is_some() || !plain(p) || !plain(n) {
                return None;
            }
            (p.ident.clone(), None, n.ident.clone())
        }
        Some(q) => {
            let syn::Type::Path(tp) = &*q.ty else {
                return None;
            };
            let p = tp.path.get_ident().filter(|_| tp.qself.is_none())?;
            let n = path.segments.iter().nth(q.position)?;
            if q.position == 0 || !plain(n) {
                return None;
            }
            let tr = syn::Path {
                leading_colon: path.leading_colon,
                segments: path.segments.iter().take(q.position).cloned().collect(),
            };
            (p.clone(), Some(tr), n.ident.clone())
        }
    };
    // An associated type is named in `CamelCase` (`T::zero()` is a function).
    let camel = name
        .to_string()
        .starts_with(|c: char| c.is_ascii_uppercase());
    let field = name == "RealField" || name == "SimdRealField";
    (params.contains(&param) && camel && !field && name != "Output").then_some((param, tr, name))
}

impl<'ast> syn::visit::Visit<'ast> for FindProjections<'_> {
    fn visit_type_path(&mut self, tp: &'ast syn::TypePath) {
        self.path(tp.qself.as_ref(), &tp.path);
        syn::visit::visit_type_path(self, tp);
    }
    fn visit_expr_path(&mut self, ep: &'ast syn::ExprPath) {
        self.path(ep.qself.as_ref(), &ep.path);
        syn::visit::visit_expr_path(self, ep);
    }
}

/// The trait bounds on `param`, inline and in the `where` clause.
fn bounds_of<'g>(generics: &'g syn::Generics, param: &syn::Ident) -> Vec<&'g syn::TraitBound> {
    let trait_bounds = |b: &'g syn::TypeParamBound| match b {
        syn::TypeParamBound::Trait(t) => Some(t),
        _ => None,
    };
    let mut out: Vec<&syn::TraitBound> = (generics.type_params())
        .filter(|t| t.ident == *param)
        .flat_map(|t| t.bounds.iter().filter_map(trait_bounds))
        .collect();
    if let Some(w) = &generics.where_clause {
        for pred in &w.predicates {
            if let syn::WherePredicate::Type(pt) = pred {
                if matches!(&pt.bounded_ty, syn::Type::Path(tp) if tp.qself.is_none() && tp.path.is_ident(param))
                {
                    out.extend(pt.bounds.iter().filter_map(trait_bounds));
                }
            }
        }
    }
    out
}

/// Whether `param::name` is a float type of the function, and on which bound it binds.
fn assoc_float(
    generics: &syn::Generics,
    param: &syn::Ident,
    qualified: Option<&syn::Path>,
    name: &syn::Ident,
) -> Option<AssocFloat> {
    let last = |p: &syn::Path| p.segments.last().map(|s| s.ident.to_string());
    let bounds = bounds_of(generics, param);
    // Not when a bound binds it already (`M: Model<Scalar = f64>`).
    let binds = |t: &syn::TraitBound| match t.path.segments.last().map(|s| &s.arguments) {
        Some(syn::PathArguments::AngleBracketed(a)) => a.args.iter().any(|g| {
            matches!(g, syn::GenericArgument::AssocType(at) if at.ident == *name)
                || matches!(g, syn::GenericArgument::AssocConst(ac) if ac.ident == *name)
        }),
        _ => false,
    };
    if bounds.iter().any(|t| binds(t)) {
        return None;
    }
    // `where P::Name: Float` (or `<P as Tr>::Name: Float`).
    let in_where = generics.where_clause.as_ref().is_some_and(|w| {
        w.predicates.iter().any(|pred| match pred {
            syn::WherePredicate::Type(pt) => {
                // The projection itself, not a path through it (`P::Name::Inner`).
                let is_it = matches!(&pt.bounded_ty, syn::Type::Path(tp)
                    if tp.path.segments.len() == tp.qself.as_ref().map_or(2, |q| q.position + 1)
                        && projection(std::slice::from_ref(param), tp.qself.as_ref(), &tp.path)
                            .is_some_and(|(_, _, n)| n == *name));
                is_it
                    && pt.bounds.iter().any(|b| {
                        matches!(b, syn::TypeParamBound::Trait(t)
                            if last(&t.path).is_some_and(|l| crate::callee::is_float_trait(&l)))
                    })
            }
            _ => false,
        })
    });
    // The bound that takes the binding: the trait written, the one declaring the type
    // with a float bound, or the one trait bounding the parameter (`I: IntoIterator`).
    let marker = |t: &syn::TraitBound| {
        last(&t.path).is_some_and(|l| {
            matches!(
                l.as_str(),
                "Copy"
                    | "Clone"
                    | "Sized"
                    | "Debug"
                    | "Display"
                    | "Send"
                    | "Sync"
                    | "Default"
                    | "PartialEq"
                    | "PartialOrd"
            )
        })
    };
    let candidates: Vec<&syn::TraitBound> = (bounds.iter().copied())
        .filter(|t| !marker(t))
        .filter(|t| qualified.is_none_or(|q| last(q) == last(&t.path)))
        .collect();
    let declared = (candidates.iter().copied())
        .find(|t| crate::plain_fns::float_assoc_type(&t.path, &name.to_string()));
    let bound = match (declared, in_where, &candidates[..]) {
        (Some(t), _, _) => t,
        (None, true, [one]) => one,
        _ => return None,
    };
    Some(AssocFloat {
        param: param.clone(),
        name: name.clone(),
        bound: last(&bound.path)?,
        ident: quote::format_ident!("{}Of{}", name, param),
        declared_in_where: in_where,
    })
}

/// Adds `Name = NameOfP` to the bound on `c.param` by the trait `c.bound`.
fn bind_assoc(generics: &mut syn::Generics, c: &AssocFloat) {
    let bind = |t: &mut syn::TraitBound| {
        let Some(seg) = t.path.segments.last_mut() else {
            return;
        };
        if seg.ident != c.bound {
            return;
        }
        let arg = syn::GenericArgument::AssocType(syn::AssocType {
            ident: c.name.clone(),
            generics: None,
            eq_token: Default::default(),
            ty: syn::Type::Path(syn::TypePath {
                qself: None,
                path: c.ident.clone().into(),
            }),
        });
        match &mut seg.arguments {
            syn::PathArguments::AngleBracketed(a) => a.args.push(arg),
            syn::PathArguments::None => {
                let mut a = syn::AngleBracketedGenericArguments {
                    colon2_token: None,
                    lt_token: Default::default(),
                    args: Default::default(),
                    gt_token: Default::default(),
                };
                a.args.push(arg);
                seg.arguments = syn::PathArguments::AngleBracketed(a);
            }
            syn::PathArguments::Parenthesized(_) => {}
        }
    };
    let mut done = false;
    for gp in generics.params.iter_mut() {
        if let syn::GenericParam::Type(t) = gp {
            if t.ident == c.param {
                for b in t.bounds.iter_mut() {
                    if let syn::TypeParamBound::Trait(tb) = b {
                        if !done && tb.path.segments.last().is_some_and(|s| s.ident == c.bound) {
                            bind(tb);
                            done = true;
                        }
                    }
                }
            }
        }
    }
    if let Some(w) = &mut generics.where_clause {
        for pred in w.predicates.iter_mut() {
            if let syn::WherePredicate::Type(pt) = pred {
                let on_param = matches!(&pt.bounded_ty, syn::Type::Path(tp) if tp.qself.is_none() && tp.path.is_ident(&c.param));
                for b in pt.bounds.iter_mut() {
                    if let syn::TypeParamBound::Trait(tb) = b {
                        if on_param
                            && !done
                            && tb.path.segments.last().is_some_and(|s| s.ident == c.bound)
                        {
                            bind(tb);
                            done = true;
                        }
                    }
                }
            }
        }
    }
}

/// Writes each chosen projection as its parameter (`M::Scalar::zero()` as
/// `ScalarOfM::zero()`, `<I as IntoIterator>::Item` as `ItemOfI`).
struct AssocAsParam<'a>(&'a [AssocFloat]);

impl AssocAsParam<'_> {
    fn rewrite(&self, qself: &mut Option<syn::QSelf>, path: &mut syn::Path) {
        let params: Vec<syn::Ident> = self.0.iter().map(|c| c.param.clone()).collect();
        let Some((p, _, name)) = projection(&params, qself.as_ref(), path) else {
            return;
        };
        let Some(c) = self.0.iter().find(|c| c.param == p && c.name == name) else {
            return;
        };
        let skip = qself.as_ref().map_or(2, |q| q.position + 1);
        let mut segs: Vec<syn::PathSegment> = vec![c.ident.clone().into()];
        segs.extend(path.segments.iter().skip(skip).cloned());
        path.segments = segs.into_iter().collect();
        path.leading_colon = None;
        *qself = None;
    }
}

impl VisitMut for AssocAsParam<'_> {
    fn visit_type_path_mut(&mut self, tp: &mut syn::TypePath) {
        self.rewrite(&mut tp.qself, &mut tp.path);
        syn::visit_mut::visit_type_path_mut(self, tp);
    }
    fn visit_expr_path_mut(&mut self, ep: &mut syn::ExprPath) {
        self.rewrite(&mut ep.qself, &mut ep.path);
        syn::visit_mut::visit_expr_path_mut(self, ep);
    }
}
