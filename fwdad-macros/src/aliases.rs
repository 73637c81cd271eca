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
