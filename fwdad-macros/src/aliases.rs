//! `#[derive_frule(alias(State = SVector<f64, 3>))]`: the user's type aliases of library
//! types, replaced by what they stand for in the function the passes see (the primal keeps
//! the user's names). Library types are recognised by their names (`libtypes`), which an
//! alias hides; the macro cannot see the `type` item itself.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use syn::visit_mut::VisitMut;

/// `type` aliases as token text, name and type.
type Aliases = Vec<(String, String)>;

thread_local! {
    /// The type aliases of the source file being expanded (set by the entry point for one
    /// expansion, see [`with_source_aliases`]).
    static SOURCE: RefCell<Aliases> = const { RefCell::new(Vec::new()) };
    /// Each file's aliases, read once per modification time.
    static FILES: RefCell<HashMap<PathBuf, (std::time::SystemTime, Aliases)>> =
        RefCell::new(HashMap::new());
}

/// The non-generic `type Name = Type;` items of the file at `path` (at any depth of
/// inline modules), as token text, leaving out names defined twice (which one a function
/// sees depends on its module). Empty when the file cannot be read or parsed.
fn file_aliases(path: &Path) -> Aliases {
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    if let Some(m) = modified {
        let cached = FILES.with(|f| {
            f.borrow()
                .get(path)
                .filter(|(t, _)| *t == m)
                .map(|(_, a)| a.clone())
        });
        if let Some(a) = cached {
            return a;
        }
    }
    let Some(file) = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| syn::parse_file(&text).ok())
    else {
        return Vec::new();
    };
    fn collect(items: &[syn::Item], out: &mut Vec<(String, String)>) {
        for item in items {
            match item {
                syn::Item::Type(t) if t.generics.params.is_empty() => {
                    let ty = &t.ty;
                    out.push((t.ident.to_string(), quote::quote!(#ty).to_string()));
                }
                syn::Item::Mod(m) => {
                    if let Some((_, items)) = &m.content {
                        collect(items, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut all = Vec::new();
    collect(&file.items, &mut all);
    let once: Aliases = all
        .iter()
        .filter(|(n, _)| all.iter().filter(|(m, _)| m == n).count() == 1)
        .cloned()
        .collect();
    if let Some(m) = modified {
        FILES.with(|f| f.borrow_mut().insert(path.to_path_buf(), (m, once.clone())));
    }
    once
}

/// Runs `f` with the type aliases of `file` (the file of the annotated item, when the
/// compiler tells it) visible to [`source_aliases`]: a function using `type M3 = [[f64;
/// 3]; 3];` or `type State = SVector<f64, 6>;` of its own file is read as if the alias
/// were written out, as `alias(..)` does.
pub fn with_source_aliases<R>(file: Option<PathBuf>, f: impl FnOnce() -> R) -> R {
    let aliases = file.as_deref().map(file_aliases).unwrap_or_default();
    let previous = SOURCE.with(|s| std::mem::replace(&mut *s.borrow_mut(), aliases));
    let out = f();
    SOURCE.with(|s| *s.borrow_mut() = previous);
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
