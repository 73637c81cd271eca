//! `#[derive_frule(alias(State = SVector<f64, 3>))]`: the user's type aliases of library
//! types, replaced by what they stand for in the function the passes see (the primal keeps
//! the user's names). Library types are recognised by their names (`libtypes`), which an
//! alias hides. The `type` items the macro can see are read from the source: the
//! function's own file, and the module files its `use` items name (`use crate::types::M3;`,
//! `use super::Real;`), found the way rustc finds them (`mod types;` is `types.rs` or
//! `types/mod.rs` beside the parent module's file).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;
use syn::visit_mut::VisitMut;

/// `type` aliases as token text, name and type.
type Aliases = Vec<(String, String)>;

/// The files an answer was read from, with their modification times.
type Deps = Vec<(PathBuf, Option<SystemTime>)>;

/// One reading of the aliases a file sees: the files parsed for it, and their times. The
/// parsed files live no longer than the expansion: their tokens belong to it (a
/// `proc_macro` token kept across expansions is a use-after-free in the compiler).
#[derive(Default)]
struct Reading {
    deps: Deps,
    files: HashMap<PathBuf, Option<Rc<syn::File>>>,
}

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
    /// Each file's array fields, with the file's modification time.
    /// The fields of the source file being expanded declared with one type that names no
    /// type parameter (see [`source_field_type`]).
    static FIELD_TYPES: RefCell<Aliases> = const { RefCell::new(Vec::new()) };
    /// Each file's array fields and field types, with the file's modification time.
    static FILE_FIELDS: RefCell<HashMap<PathBuf, (Option<SystemTime>, FileFields)>> =
        RefCell::new(HashMap::new());
}

/// A file's array fields and its fields' types (see `file_array_fields`).
type FileFields = (Aliases, Aliases);

/// A type of the crate imported alone by name (`use crate::geometry::Vec3;`), as local
/// name and the path of its `#[derive(Differentiable)]` twin (`crate::geometry::Vec3Tangent`)
/// as segments, which the `use` does not bring.
type Imports = Vec<(String, Vec<String>)>;

/// What the macro reads of a source file: its aliases, its functions' result types (as
/// aliases: name and type) and its imported types' tangent paths.
type FileReading = (Aliases, Aliases, Imports);

/// The fields of the structs and enum variants declared in the file at `path` (any module
/// of it) whose name is declared with one type only, as name and type text: the array
/// ones (`q: [f64; 4]` and no other `q`, generic or not), and all whose type names no
/// type parameter of its item (`v: V3`, not `x: T`).
fn file_array_fields(path: &Path) -> FileFields {
    let time = modified(path);
    let cached = FILE_FIELDS.with(|f| {
        f.borrow()
            .get(path)
            .filter(|(t, _)| t.is_some() && *t == time)
            .map(|(_, a)| a.clone())
    });
    if let Some(a) = cached {
        return a;
    }
    #[derive(Default)]
    struct Fields {
        arrays: HashMap<String, Option<String>>,
        types: HashMap<String, Option<String>>,
        generics: Vec<String>,
    }
    fn note(map: &mut HashMap<String, Option<String>>, name: String, text: Option<String>) {
        map.entry(name)
            .and_modify(|t| {
                if *t != text {
                    *t = None;
                }
            })
            .or_insert(text);
    }
    impl Fields {
        fn within(&mut self, generics: &syn::Generics, visit: impl FnOnce(&mut Self)) {
            let outer = self.generics.len();
            self.generics
                .extend(generics.type_params().map(|p| p.ident.to_string()));
            visit(self);
            self.generics.truncate(outer);
        }
    }
    impl<'ast> syn::visit::Visit<'ast> for Fields {
        fn visit_item_struct(&mut self, i: &'ast syn::ItemStruct) {
            self.within(&i.generics, |f| syn::visit::visit_item_struct(f, i));
        }
        fn visit_item_enum(&mut self, i: &'ast syn::ItemEnum) {
            self.within(&i.generics, |f| syn::visit::visit_item_enum(f, i));
        }
        fn visit_field(&mut self, f: &'ast syn::Field) {
            let Some(name) = &f.ident else {
                return;
            };
            let ty = &f.ty;
            let text = quote::quote!(#ty).to_string();
            let generic = text
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| self.generics.iter().any(|g| g == w));
            let array = matches!(ty, syn::Type::Array(_)).then(|| text.clone());
            note(&mut self.arrays, name.to_string(), array);
            note(
                &mut self.types,
                name.to_string(),
                (!generic).then_some(text),
            );
        }
    }
    let mut fields = Fields::default();
    if let Some(file) = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| syn::parse_file(&text).ok())
    {
        syn::visit::Visit::visit_file(&mut fields, &file);
    }
    let known = |map: HashMap<String, Option<String>>| {
        let mut out: Aliases = map.into_iter().filter_map(|(n, t)| Some((n, t?))).collect();
        out.sort();
        out
    };
    let out = (known(fields.arrays), known(fields.types));
    FILE_FIELDS.with(|f| {
        f.borrow_mut()
            .insert(path.to_path_buf(), (time, out.clone()))
    });
    out
}

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

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The file at `path` parsed (`None` when it cannot be read or parsed), noted in the
/// reading's files.
fn parsed(path: &Path, deps: &mut Reading) -> Option<Rc<syn::File>> {
    if let Some(file) = deps.files.get(path) {
        return file.clone();
    }
    deps.deps.push((path.to_path_buf(), modified(path)));
    let file = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| syn::parse_file(&text).ok())
        .map(Rc::new);
    deps.files.insert(path.to_path_buf(), file.clone());
    file
}

/// A module: the file that holds it, the inline modules leading to it inside that file,
/// and the directory in which its `mod name;` items find their files.
#[derive(Clone, PartialEq, Debug)]
struct Module {
    file: PathBuf,
    inline: Vec<String>,
    dir: PathBuf,
}

/// Where cargo keeps crate roots other than `src/lib.rs` and `src/main.rs`: each file
/// directly in them is a crate (`tests/foo.rs`).
fn is_roots_dir(dir: &Path) -> bool {
    let Some(manifest) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        return false;
    };
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    let dir = canon(dir);
    dir.is_some()
        && [
            manifest.join("tests"),
            manifest.join("examples"),
            manifest.join("benches"),
            manifest.join("src").join("bin"),
        ]
        .iter()
        .any(|d| canon(d) == dir)
}

fn is_crate_root(file: &Path) -> bool {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name == "lib.rs" || name == "main.rs" || file.parent().is_some_and(is_roots_dir)
}

/// The module a whole file is.
fn file_module(file: &Path) -> Module {
    let parent = file.parent().unwrap_or(Path::new("")).to_path_buf();
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let dir = if name == "mod.rs" || is_crate_root(file) {
        parent
    } else {
        parent.join(file.file_stem().unwrap_or_default())
    };
    Module {
        file: file.to_path_buf(),
        inline: Vec::new(),
        dir,
    }
}

/// The items of `module`.
fn items_of(module: &Module, deps: &mut Reading) -> Option<Vec<syn::Item>> {
    let file = parsed(&module.file, deps)?;
    let mut items = &file.items;
    for name in &module.inline {
        items = items.iter().find_map(|item| match item {
            syn::Item::Mod(m) if m.ident == name => m.content.as_ref().map(|(_, i)| i),
            _ => None,
        })?;
    }
    Some(items.clone())
}

/// The module that declares `module`; `None` for a crate root, and for a module file
/// whose crate root the directory does not tell (`tests/common/mod.rs` serves every test
/// crate: then the crate being compiled, `tests/<crate>.rs`, is taken).
fn parent(module: &Module) -> Option<Module> {
    if let Some((_, outer)) = module.inline.split_last() {
        return Some(Module {
            file: module.file.clone(),
            inline: outer.to_vec(),
            dir: module.dir.parent()?.to_path_buf(),
        });
    }
    if is_crate_root(&module.file) {
        return None;
    }
    let dir = module.dir.parent()?.to_path_buf();
    let sibling = dir.with_extension("rs");
    let krate = std::env::var("CARGO_CRATE_NAME").unwrap_or_default();
    let candidates = [
        dir.join("mod.rs"),
        sibling,
        dir.join(format!("{krate}.rs")),
        dir.join(format!("{}.rs", krate.replace('_', "-"))),
        dir.join("lib.rs"),
        dir.join("main.rs"),
    ];
    let file = candidates.into_iter().find(|f| f.is_file())?;
    Some(Module {
        file,
        inline: Vec::new(),
        dir,
    })
}

/// The child module `name` of `module`, declared there (`mod name { .. }` or `mod name;`
/// with its file beside). A `#[path]` on the declaration is not followed.
fn child(module: &Module, name: &str, deps: &mut Reading) -> Option<Module> {
    let items = items_of(module, deps)?;
    let decl = items.iter().find_map(|item| match item {
        syn::Item::Mod(m) if m.ident == name => Some(m),
        _ => None,
    })?;
    let dir = module.dir.join(name);
    if decl.content.is_some() {
        let mut inline = module.inline.clone();
        inline.push(name.to_string());
        return Some(Module {
            file: module.file.clone(),
            inline,
            dir,
        });
    }
    if decl.attrs.iter().any(|a| a.path().is_ident("path")) {
        return None;
    }
    let file = [module.dir.join(format!("{name}.rs")), dir.join("mod.rs")]
        .into_iter()
        .find(|f| f.is_file())?;
    Some(Module {
        file,
        inline: Vec::new(),
        dir,
    })
}

/// The module a `use` path's prefix names, from `module` (`crate::a::b`, `super::super`,
/// `self::a`, a child `a::b`); `None` for another crate's path.
fn resolve(module: &Module, prefix: &[String], deps: &mut Reading) -> Option<Module> {
    let mut at = module.clone();
    for (i, seg) in prefix.iter().enumerate() {
        at = match seg.as_str() {
            "crate" if i == 0 => {
                let mut m = at;
                while !(m.inline.is_empty() && is_crate_root(&m.file)) {
                    m = parent(&m)?;
                }
                m
            }
            "self" if i == 0 => at,
            "super" => parent(&at)?,
            name => child(&at, name, deps)?,
        };
    }
    Some(at)
}

/// Collects the imports of a `use` tree: (prefix, name, local name) and glob prefixes.
fn use_tree(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    named: &mut Vec<(Vec<String>, String, String)>,
    globs: &mut Vec<Vec<String>>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_tree(&p.tree, prefix, named, globs);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident != "self" => {
            named.push((prefix.clone(), n.ident.to_string(), n.ident.to_string()))
        }
        syn::UseTree::Rename(r) if r.ident != "self" => {
            named.push((prefix.clone(), r.ident.to_string(), r.rename.to_string()))
        }
        syn::UseTree::Glob(_) => globs.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_tree(t, prefix, named, globs);
            }
        }
        _ => {}
    }
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
    let mut own: Aliases = Vec::new();
    let mut named = Vec::new();
    let mut globs = Vec::new();
    for item in &items {
        match item {
            syn::Item::Type(t) if t.generics.params.is_empty() => {
                let ty = &t.ty;
                own.push((t.ident.to_string(), quote::quote!(#ty).to_string()));
            }
            syn::Item::Use(u) => use_tree(&u.tree, &mut Vec::new(), &mut named, &mut globs),
            _ => {}
        }
    }
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

/// Every module a file holds: the file's and its inline modules', at any depth.
fn modules_of(file: &Path, deps: &mut Reading) -> Vec<Module> {
    fn walk(module: Module, items: &[syn::Item], out: &mut Vec<Module>) {
        for item in items {
            if let syn::Item::Mod(m) = item {
                if let Some((_, inner)) = &m.content {
                    let name = m.ident.to_string();
                    let mut inline = module.inline.clone();
                    inline.push(name.clone());
                    let sub = Module {
                        file: module.file.clone(),
                        inline,
                        dir: module.dir.join(&name),
                    };
                    walk(sub, inner, out);
                }
            }
        }
        out.push(module);
    }
    let mut out = Vec::new();
    if let Some(f) = parsed(file, deps) {
        walk(file_module(file), &f.items, &mut out);
    }
    out
}

/// The aliases visible in the file at `path` (in any of its modules: the macro does not
/// know which one the function is in), leaving out names given two types. Empty when the
/// file cannot be read or parsed.
fn file_aliases(path: &Path) -> FileReading {
    let cached = FILES.with(|f| {
        f.borrow()
            .get(path)
            .filter(|(deps, _)| deps.iter().all(|(p, t)| t.is_some() && modified(p) == *t))
            .map(|(_, r)| r.clone())
    });
    if let Some(r) = cached {
        return r;
    }
    let mut reading = Reading::default();
    let mut all = Vec::new();
    let mut returns = Vec::new();
    let modules = modules_of(path, &mut reading);
    for module in &modules {
        all.extend(visible(module, &mut reading, &mut Vec::new()));
        if let Some(items) = items_of(module, &mut reading) {
            returns.extend(items.iter().filter_map(plain_return));
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

/// A free function's name and written result type, when it has no type or const
/// parameters (whose names would mean nothing in a caller) and its result names no
/// `Self` or `impl Trait`.
fn plain_return(item: &syn::Item) -> Option<(String, String)> {
    let syn::Item::Fn(f) = item else { return None };
    let generic = f
        .sig
        .generics
        .params
        .iter()
        .any(|p| !matches!(p, syn::GenericParam::Lifetime(_)));
    let syn::ReturnType::Type(_, ty) = &f.sig.output else {
        return None;
    };
    let text = quote::quote!(#ty).to_string();
    let opaque = matches!(**ty, syn::Type::ImplTrait(_))
        || text
            .split_whitespace()
            .any(|t| t == "Self" || t == "'_" || t.starts_with('\''));
    (!generic && !opaque).then(|| (f.sig.ident.to_string(), text))
}

/// The result type written for the free function `name` of the source file (any module of
/// it; none when two functions of that name have different ones, or it is generic), its
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

/// Whether `items` define a struct or enum `name`.
fn defines(items: &[syn::Item], name: &str) -> bool {
    items.iter().any(|item| match item {
        syn::Item::Struct(s) => s.ident == name,
        syn::Item::Enum(e) => e.ident == name,
        _ => false,
    })
}

/// The module defining the struct or enum `name` that the `use` path `prefix::name`,
/// written in `from`, leads to, through up to four re-exports (`pub use geometry::Vec3;` or
/// `pub use geometry::*;` at the crate root), and the type's own name there.
fn definition(
    from: &Module,
    prefix: &[String],
    name: &str,
    deps: &mut Reading,
    depth: usize,
) -> Option<(Module, String)> {
    let target = resolve(from, prefix, deps)?;
    let items = items_of(&target, deps)?;
    if defines(&items, name) {
        return Some((target, name.to_string()));
    }
    if depth == 0 {
        return None;
    }
    let (mut named, mut globs) = (Vec::new(), Vec::new());
    for item in &items {
        if let syn::Item::Use(u) = item {
            use_tree(&u.tree, &mut Vec::new(), &mut named, &mut globs);
        }
    }
    if let Some((inner, original, _)) = named.into_iter().find(|(_, _, local)| local == name) {
        return definition(&target, &inner, &original, deps, depth - 1);
    }
    // A glob re-export (`pub use crate::geometry::*;`).
    globs
        .iter()
        .find_map(|glob| definition(&target, glob, name, deps, depth - 1))
}

/// The path of `module` from the crate root (`crate::geometry::shapes`); `None` where
/// the files do not tell it.
fn crate_path(module: &Module) -> Option<Vec<String>> {
    if module.inline.is_empty() && is_crate_root(&module.file) {
        return Some(vec!["crate".to_string()]);
    }
    let name = match module.inline.last() {
        Some(inline) => inline.clone(),
        None => module.dir.file_name()?.to_str()?.to_string(),
    };
    let mut path = crate_path(&parent(module)?)?;
    path.push(name);
    Some(path)
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
        let (mut named, mut globs) = (Vec::new(), Vec::new());
        for item in &items {
            match item {
                syn::Item::Use(u) => use_tree(&u.tree, &mut Vec::new(), &mut named, &mut globs),
                syn::Item::Struct(s) => defined.push((s.ident.to_string(), module.clone())),
                syn::Item::Enum(e) => defined.push((e.ident.to_string(), module.clone())),
                _ => {}
            }
        }
        for (prefix, name, local) in named {
            if prefix.is_empty() || !name.starts_with(|c: char| c.is_ascii_uppercase()) {
                continue;
            }
            found.push((local, definition(module, &prefix, &name, deps, 4)));
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
        if let Some(mut path) = crate_path(module) {
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
    let (fields, types) = file.as_deref().map(file_array_fields).unwrap_or_default();
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
