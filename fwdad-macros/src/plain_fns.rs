//! Functions without rules, read from the source files (`source`): a call of one in a
//! derived body has no rule (a derived function's rule is found through the unit struct
//! `#[derive_frule]` defines beside it), and rustc's own error for that is a name lookup's
//! ("expected struct, variant or union type, found function"). With the function seen in
//! the source, the macro says at the call which function to annotate.
//!
//! Only what the files show for certain counts: a module-level `fn` with no attribute that
//! could give it a rule (`#[derive_frule]`, `#[primitive]`, `#[non_differentiable]`, a
//! `cfg_attr`, any attribute not known to be inert), whose name no other item or `use` of
//! its file defines, either
//! * of the annotated function's module, or of an inline module inside it called by path,
//!   when that module (the one module of the file that holds the annotated function) has no
//!   glob imports (other than a `prelude`), which could bring the name's rule from
//!   elsewhere; or
//! * of another module of the crate the call's path leads to through `mod` items and
//!   `use` items the files show (`physics::plain(x)` after `mod physics;`,
//!   `plain(x)` after `use crate::physics::plain;`, `crate::a::b::f(x)`, `super::f(x)`).
//!
//! A call into another crate whose rules cannot exist is said so too: `std`, `core` and
//! `alloc`, and a dependency that does not depend on fwdad (read from `Cargo.lock`), by a
//! path whose first segment nothing of the file defines or imports.

use crate::source::{self, Items, Reading};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Where a function called without a rule is, as far as the files tell.
#[derive(Debug, Clone, PartialEq)]
pub enum Missing {
    /// A plain function of the annotated function's module (or an inline module inside).
    Here,
    /// A plain function of another module of the crate: its name there, and the file that
    /// holds it (relative to the package's directory where it is inside it).
    InFile { name: String, file: String },
    /// A function of another crate, named, that has no rules.
    OtherCrate(String),
}

/// Where `callee`, called with values that depend on the differentiated inputs in the
/// body of `caller`, is a function without a rule, when the files show it for certain.
pub fn missing_rule(caller: &str, callee: &syn::Path) -> Option<Missing> {
    if is_plain_fn(caller, callee) {
        return Some(Missing::Here);
    }
    if callee.segments.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let path = source::source_file()?;
    let file = source::parse(&path)?;
    let home = home_of(&file, caller)?;
    let segs: Vec<String> = callee
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    if callee.leading_colon.is_some() {
        let krate = segs.first()?;
        return (segs.len() >= 2 && without_rules(krate))
            .then(|| Missing::OtherCrate(krate.clone()));
    }
    let mut deps = Reading::default();
    let at = source::modules_of(&path, &mut deps)
        .into_iter()
        .find(|m| m.inline == home.path)?;
    // The path with a `use`d first segment written out (`plain` after `use
    // crate::physics::plain;`, `physics::plain` after `use crate::physics;`).
    let first = segs.first()?;
    let mut imports = home.named.iter().filter(|(_, _, local)| local == first);
    let full: Vec<String> = match (imports.next(), imports.next()) {
        // No `fn` of that name anywhere in the file (one in the derived body would be
        // called instead, and gets its rule by itself).
        (Some((prefix, name, _)), None)
            if !defined_in(home, first) && !file.names.fns.contains_key(first) =>
        {
            let mut full = prefix.clone();
            full.push(name.clone());
            full.extend(segs.iter().skip(1).cloned());
            full
        }
        (None, _) if segs.len() >= 2 => segs.clone(),
        _ => return None,
    };
    let (last, prefix) = full.split_last()?;
    let head = prefix.first()?;
    let of_crate = matches!(head.as_str(), "crate" | "self" | "super")
        || home.mods.iter().any(|m| &m.name == head);
    if !of_crate {
        // Another crate's path: its first segment names nothing of the file, and no glob
        // import could bring a module of that name.
        let named = file.names.others.contains(head) || file.names.fns.contains_key(head);
        return (!named && !glob_may_bring(home, &at, head, &mut deps) && without_rules(head))
            .then(|| Missing::OtherCrate(head.clone()));
    }
    let has_fn = |items: &Items, name: &str| items.fns.iter().any(|f| f.name == name);
    let (module, name) = source::definition(&at, prefix, last, &mut deps, 4, &has_fn)?;
    let items = source::items_of(&module, &mut deps)?;
    let plain =
        (items.fns.iter()).any(|f| f.name == name && f.inert) && items.file_names().one_fn(&name);
    plain.then(|| Missing::InFile {
        file: shown(&module.file),
        name,
    })
}

/// Whether a glob import of `home` (module `at`) may bring an item named `name`: one
/// other than a `prelude`'s, unless it is of an inline module of the same file (`use
/// super::*;`, `use crate::rules::*;`) with no glob import of its own but a `prelude`'s and
/// no `use` of that name (what that module defines, the file's names show).
fn glob_may_bring(home: &Items, at: &source::Module, name: &str, deps: &mut Reading) -> bool {
    if !home.foreign_glob {
        return false;
    }
    home.globs.iter().any(|glob| {
        if glob.last().is_some_and(|l| l == "prelude") {
            return false;
        }
        let local = glob.first().is_some_and(|h| {
            matches!(h.as_str(), "crate" | "self" | "super")
                || home.mods.iter().any(|m| &m.name == h)
        });
        let Some(target) = local.then(|| source::resolve(at, glob, deps)).flatten() else {
            return true;
        };
        if target.file != at.file {
            return true;
        }
        let Some(items) = source::items_of(&target, deps) else {
            return true;
        };
        items.foreign_glob || items.named.iter().any(|(_, _, local)| local == name)
    })
}

/// Whether `Trait::f`, an associated function without `self` of a trait the annotated
/// item's file declares (`trait FloatOps { fn sin(x: f64) -> f64; .. }`, a float backend
/// a function reaches through its type parameter, `F::sin(x)`), is declared to return
/// `f64` or `f32`: every trait of that name in the file says so.
pub fn trait_fn_returns_float(trait_name: &str, f: &str) -> bool {
    let Some(file) = source::source_file().and_then(|p| source::parse(&p)) else {
        return false;
    };
    let key = format!("{trait_name}::{f}");
    let mut found = (file.modules.iter())
        .filter_map(|m| m.trait_fns.get(&key).copied())
        .peekable();
    found.peek().is_some() && found.all(|float| float)
}

/// Whether the generic trait an `impl` names by `path` (`Integrator<f64>`,
/// `traits::Integrator<f64>`) is declared with `#[derive_frule]` (`#[derive_frule] trait
/// Integrator<T: Float>`): in the annotated item's file, or in the module of the crate a
/// `use` of the file leads to (`mod traits;` and `use traits::Integrator;`, `use
/// crate::traits::*;`), or the path's prefix names. An `impl` of it at given arguments then
/// gives the trait's rules, which calls through a type parameter bounded by it find.
pub fn derived_generic_trait(path: &syn::Path) -> bool {
    trait_declared(path, &|items: &Items, n: &str| {
        items.derived_generic_traits.contains(n)
    })
}

/// Whether the trait a bound names by `path` (`Model`, `crate::model::Model`) declares its
/// associated type `assoc` with a float bound (`type Scalar: Float;`), where
/// [`derived_generic_trait`] looks: `M::Scalar` is then a float type.
pub fn float_assoc_type(path: &syn::Path, assoc: &str) -> bool {
    trait_declared(path, &|items: &Items, n: &str| {
        (items.float_assoc_types.iter()).any(|(t, a)| t == n && a == assoc)
    })
}

/// Whether the trait named by `path` is one `derived` recognises (by its module's items
/// and its name), where the annotated item's file declares it or imports it from.
fn trait_declared(path: &syn::Path, derived: &dyn Fn(&Items, &str) -> bool) -> bool {
    let Some(last) = path.segments.last() else {
        return false;
    };
    let name = last.ident.to_string();
    let prefix: Vec<String> = (path.segments.iter().take(path.segments.len() - 1))
        .map(|s| s.ident.to_string())
        .collect();
    let Some(here) = source::source_file() else {
        return false;
    };
    let Some(file) = source::parse(&here) else {
        return false;
    };
    // Declared in the file: by its name, whatever the path (`$crate::interpolate::Interpolate`
    // in a `macro_rules!` of the crate, as splines writes its impls).
    if file.modules.iter().any(|m| derived(m, &name)) {
        return true;
    }
    declared_elsewhere(&here, &file, &prefix, &name, derived)
}

/// Whether an item `name` that `defines` recognises is declared in the module of the crate
/// that the path `prefix::name` written in the file `here` leads to (a module of the file
/// importing it by name or by a glob, or the prefix itself).
fn declared_elsewhere(
    here: &Path,
    file: &source::Parsed,
    prefix: &[String],
    name: &str,
    defines: &dyn Fn(&Items, &str) -> bool,
) -> bool {
    let mut deps = Reading::default();
    let modules = source::modules_of(here, &mut deps);
    for (at, items) in modules.iter().zip(&file.modules) {
        let mut routes: Vec<(Vec<String>, String)> = Vec::new();
        match prefix.split_first() {
            // `traits::Integrator`: from the module, or from what its first segment imports.
            Some((head, rest)) => {
                routes.push((prefix.to_vec(), name.to_string()));
                for (p, original, _) in items.named.iter().filter(|(_, _, l)| l == head) {
                    let mut full = p.clone();
                    full.push(original.clone());
                    full.extend(rest.iter().cloned());
                    routes.push((full, name.to_string()));
                }
            }
            None => {
                for (p, original, _) in items.named.iter().filter(|(_, _, l)| l == name) {
                    routes.push((p.clone(), original.clone()));
                }
                for glob in &items.globs {
                    routes.push((glob.clone(), name.to_string()));
                }
            }
        }
        for (p, n) in routes {
            if source::definition(at, &p, &n, &mut deps, 4, defines).is_some() {
                return true;
            }
        }
    }
    false
}

/// Whether a method named `name` takes `&mut self` in an `impl` for a slice, an array or
/// a `Vec` of the annotated item's file (an extension trait's `fn normalize(&mut self)`),
/// so that a range-indexed receiver (`v[1..].normalize()`) is borrowed `&mut`.
pub fn sequence_method_takes_mut_self(name: &str) -> bool {
    source::source_file()
        .and_then(|p| source::parse(&p))
        .is_some_and(|file| {
            file.modules
                .iter()
                .any(|m| m.sequence_mut_methods.contains(name))
        })
}

/// The self types of the `#[derive_frule] impl`s of the trait `tr` for a slice, an array
/// or a `Vec` in the annotated item's file, in order, as [`source::type_key`] writes them.
pub fn sequence_impls_of(tr: &str) -> Vec<String> {
    let Some(file) = source::source_file().and_then(|p| source::parse(&p)) else {
        return Vec::new();
    };
    (file.modules.iter())
        .flat_map(|m| m.sequence_impls.iter())
        .filter(|(t, _)| t == tr)
        .map(|(_, ty)| ty.clone())
        .collect()
}

/// Whether `home` defines an item named `name` (which a `use` of that name would clash
/// with).
fn defined_in(home: &Items, name: &str) -> bool {
    home.fns.iter().any(|f| f.name == name)
        || home.structs.iter().any(|s| s.name == name)
        || home.enums.iter().any(|e| e == name)
        || home.mods.iter().any(|m| m.name == name)
}

/// `file` as the user knows it: relative to the directory of the package that holds it
/// (`src/physics.rs`), the nearest one above it with a `Cargo.toml`.
fn shown(file: &Path) -> String {
    let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let package = file
        .ancestors()
        .skip(1)
        .find(|d| d.join("Cargo.toml").is_file());
    let relative = package.and_then(|p| file.strip_prefix(p).ok());
    relative.unwrap_or(&file).display().to_string()
}

thread_local! {
    /// Each lock file read: its packages' names and the names they depend on.
    static LOCKS: RefCell<HashMap<PathBuf, (Option<SystemTime>, Lock)>> =
        RefCell::new(HashMap::new());
}

/// A `Cargo.lock`'s packages, name and dependencies' names (each name once per version).
type Lock = Vec<(String, Vec<String>)>;

/// Whether the crate `krate` (as code names it) cannot have forward rules: `std`, `core`,
/// `alloc`, or a package of the lock file whose dependencies, at any depth, hold no fwdad
/// crate (a rule needs fwdad's traits). `false` where the lock file does not tell.
fn without_rules(krate: &str) -> bool {
    if matches!(krate, "std" | "core" | "alloc") {
        return true;
    }
    let Some(lock) = lock() else {
        return false;
    };
    let code = |n: &str| n.replace('-', "_");
    let mut todo: Vec<&String> = lock
        .iter()
        .filter(|(n, _)| code(n) == krate)
        .map(|(n, _)| n)
        .collect();
    if todo.is_empty() {
        return false;
    }
    let mut seen = HashSet::new();
    while let Some(name) = todo.pop() {
        if name.starts_with("fwdad") {
            return false;
        }
        if !seen.insert(name) {
            continue;
        }
        for (_, deps) in lock.iter().filter(|(n, _)| n == name) {
            todo.extend(deps);
        }
    }
    true
}

/// The lock file of the package being compiled (in its directory or a parent's).
fn lock() -> Option<Lock> {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    let path = manifest
        .ancestors()
        .map(|d| d.join("Cargo.lock"))
        .find(|p| p.is_file())?;
    let time = source::modified(&path);
    let cached = LOCKS.with(|l| {
        l.borrow()
            .get(&path)
            .filter(|(t, _)| t.is_some() && *t == time)
            .map(|(_, lock)| lock.clone())
    });
    if let Some(lock) = cached {
        return Some(lock);
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let lock = parse_lock(&text);
    LOCKS.with(|l| l.borrow_mut().insert(path, (time, lock.clone())));
    Some(lock)
}

/// The packages of a `Cargo.lock` (`[[package]]`, `name = ".."`, `dependencies = [..]`).
fn parse_lock(text: &str) -> Lock {
    let unquote = |s: &str| {
        let s = s.trim().trim_end_matches(',').trim().trim_matches('"');
        s.split_whitespace().next().unwrap_or("").to_string()
    };
    let mut out: Lock = Vec::new();
    let mut in_deps = false;
    for line in text.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            out.push((String::new(), Vec::new()));
            in_deps = false;
        } else if let Some(name) = line.strip_prefix("name = ") {
            if let Some(p) = out.last_mut() {
                p.0 = unquote(name);
            }
        } else if line.starts_with("dependencies = [") {
            in_deps = !line.ends_with(']');
        } else if in_deps {
            if line == "]" {
                in_deps = false;
            } else if let Some(p) = out.last_mut() {
                p.1.push(unquote(line));
            }
        } else if line.starts_with('[') {
            in_deps = false;
        }
    }
    out
}

/// Whether `callee` (`f`, or `util::f` through inline modules of the file), called in the
/// body of `caller`, is a plain function of `caller`'s module or of an inline module inside
/// it: one without a rule.
fn is_plain_fn(caller: &str, callee: &syn::Path) -> bool {
    let Some(path) = crate::source::source_file() else {
        return false;
    };
    if callee.leading_colon.is_some() || callee.segments.iter().any(|s| !s.arguments.is_none()) {
        return false;
    }
    let Some(file) = crate::source::parse(&path) else {
        return false;
    };
    let Some(home) = home_of(&file, caller) else {
        return false;
    };
    let mut names: Vec<String> = callee
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let Some(name) = names.pop() else {
        return false;
    };
    let mut inner = home.path.clone();
    inner.extend(names.iter().cloned());
    // Each module on the way is an inline one of the file (not `self`, `super`, `crate`).
    if names
        .iter()
        .any(|n| n == "self" || n == "super" || n == "crate")
    {
        return false;
    }
    let Some(target) = file.modules.iter().find(|m| m.path == inner) else {
        return false;
    };
    let plain = (target.fns.iter()).any(|f| f.name == name && f.inert && file.names.one_fn(&name));
    if !plain {
        return false;
    }
    let mut deps = Reading::default();
    let modules = source::modules_of(&path, &mut deps);
    let module_of = |items: &Items| modules.iter().find(|m| m.inline == items.path).cloned();
    [home, target].iter().all(|items| {
        !items.foreign_glob
            || module_of(items).is_some_and(|m| !globs_may_bring(&m, items, &name, &mut deps, 4))
    })
}

/// The parameters (position and name) that `callee`, called in the body of `caller`,
/// declares `inactive(..)`, when the files show it for certain: a `fn` of the caller's
/// module (or of an inline module inside, by its path) that is the file's only `fn` and
/// only item of that name, with `#[derive_frule(inactive(..))]`, and no glob import that
/// could bring another item of that name. Empty otherwise.
pub fn inactive_params(caller: &str, callee: &syn::Path) -> Vec<(usize, String)> {
    callee_inactive(caller, callee).unwrap_or_default()
}

/// [`inactive_params`], `None` where the files do not show the callee for certain.
pub fn callee_inactive(caller: &str, callee: &syn::Path) -> Option<Vec<(usize, String)>> {
    callee_fn(caller, callee).map(|f| f.inactive)
}

/// The parameters that `callee`, called in the body of `caller`, takes as a shared trait
/// object (`m: &dyn Material`: position, name, type as written), when the files show it
/// for certain (as for [`inactive_params`]). Empty otherwise.
pub fn dyn_params(caller: &str, callee: &syn::Path) -> Vec<(usize, String, String)> {
    callee_fn(caller, callee).map_or_else(Vec::new, |f| f.dyn_params)
}

/// The `fn` that `callee`, called in the body of `caller`, names, when the files show it
/// for certain: a `fn` of the caller's module (or of an inline module inside, by its path)
/// that is the file's only `fn` and only item of that name, and no glob import that could
/// bring another item of that name.
fn callee_fn(caller: &str, callee: &syn::Path) -> Option<source::FnItem> {
    if callee.leading_colon.is_some() || callee.segments.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let mut names: Vec<String> = callee
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let name = names.pop()?;
    fn_at(caller, &names, &name)
}

/// The `fn` named `name` of the module `prefix` names from `caller`'s (its own, or an
/// inline module inside by its path), when the files show it for certain (see
/// [`callee_fn`]).
fn fn_at(caller: &str, names: &[String], name: &str) -> Option<source::FnItem> {
    let none = || None;
    let Some(path) = crate::source::source_file() else {
        return none();
    };
    let Some(file) = crate::source::parse(&path) else {
        return none();
    };
    let Some(home) = home_of(&file, caller) else {
        return none();
    };
    let name = name.to_string();
    if (names.iter()).any(|n| n == "self" || n == "super" || n == "crate") {
        return none();
    }
    let mut inner = home.path.clone();
    inner.extend(names.iter().cloned());
    let Some(target) = file.modules.iter().find(|m| m.path == inner) else {
        return none();
    };
    let Some(f) = (target.fns.iter()).find(|f| f.name == name && file.names.one_fn(&name)) else {
        return none();
    };
    let mut deps = Reading::default();
    let all = source::modules_of(&path, &mut deps);
    let module_of = |items: &Items| all.iter().find(|m| m.inline == items.path).cloned();
    let certain = [home, target].iter().all(|items| {
        !items.foreign_glob
            || module_of(items).is_some_and(|m| !globs_may_bring(&m, items, &name, &mut deps, 4))
    });
    certain.then(|| f.clone())
}

/// Whether `callee`, called in `caller`, is a plain function of the file (see
/// `is_plain_fn`) without type or const parameters: one that takes plain floats only.
pub fn plain_non_generic_fn(caller: &str, callee: &syn::Path) -> bool {
    if !is_plain_fn(caller, callee) {
        return false;
    }
    let (Some(path), Some(last)) = (crate::source::source_file(), callee.segments.last()) else {
        return false;
    };
    let Some(file) = crate::source::parse(&path) else {
        return false;
    };
    let name = last.ident.to_string();
    (file.modules.iter())
        .flat_map(|m| m.fns.iter())
        .any(|f| f.name == name && f.result.is_some())
}

/// The rule `callee` (`square_frule`, `shapes::square_frule`), called in `caller`, names
/// when it is the one an attribute of fwdad's generates beside a `fn` of the file: the
/// `fn` without the suffix (`square`), found for certain in the module the path names
/// (see [`callee_fn`]), carries `#[derive_frule]`, `#[primitive]` or
/// `#[non_differentiable]`, and nothing else in the file has the rule's name (a `fn
/// square_frule` of the user's, a `use` of one from another file or crate). The `fn`'s
/// name and the attribute.
pub fn generated_rule(caller: &str, callee: &syn::Path) -> Option<(String, &'static str)> {
    if callee.leading_colon.is_some() || callee.segments.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let mut names: Vec<String> = (callee.segments.iter())
        .map(|s| s.ident.to_string())
        .collect();
    let written = names.pop()?;
    let stem = written.strip_suffix("_frule").filter(|s| !s.is_empty())?;
    let file = source::source_file().and_then(|p| source::parse(&p))?;
    if file.names.fns.contains_key(&written) || file.names.others.contains(&written) {
        return None;
    }
    let f = fn_at(caller, &names, stem)?;
    Some((f.name, f.rule_attr?))
}

/// The result type of the `fn` that `callee`, called in `caller`, names (for certain, see
/// [`callee_fn`]) when it is written as an array of `f64` or `f32` of a literal length
/// (`-> [f64; 3]`): the call's value is that array.
pub fn array_result(caller: &str, callee: &syn::Path) -> Option<syn::Type> {
    let text = callee_fn(caller, callee)?.result?;
    let ty: syn::Type = syn::parse_str(&text).ok()?;
    let syn::Type::Array(a) = &ty else {
        return None;
    };
    let float = matches!(&*a.elem, syn::Type::Path(p) if p.qself.is_none()
        && (p.path.is_ident("f64") || p.path.is_ident("f32")));
    let literal = matches!(
        &a.len,
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(_),
            ..
        })
    );
    (float && literal).then_some(ty)
}

/// The written type of the field `field` of the struct `name`, the file's only item of that
/// name, without type or lifetime parameters (its field types name nothing of a caller's).
pub fn struct_field_type(name: &str, field: &str) -> Option<syn::Type> {
    let file = source::source_file().and_then(|p| source::parse(&p))?;
    if file.names.structs.get(name) != Some(&1) || file.names.fns.contains_key(name) {
        return None;
    }
    let s = (file.modules.iter())
        .flat_map(|m| m.structs.iter())
        .find(|s| s.name == name)?;
    if s.lifetimes > 0 || !s.fn_params.is_empty() {
        return None;
    }
    let (_, text) = s.fields.iter().find(|(f, _)| f == field)?;
    let ty: syn::Type = syn::parse_str(text).ok()?;
    // A type parameter of the struct's (`a: T`, `a: V2<T>`): a lone capital letter.
    let generic = text
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| w.len() == 1 && w.chars().all(|c| c.is_ascii_uppercase()));
    (!generic).then_some(ty)
}

/// Whether the annotated item's file has a `fn` named `name` (at any depth).
pub fn file_has_fn(name: &str) -> bool {
    let file = crate::source::source_file().and_then(|p| crate::source::parse(&p));
    file.is_some_and(|f| f.names.fns.contains_key(name))
}

/// Whether `name` is a struct of the annotated item's file, the file's only item of that
/// name, declared with `#[derive(Differentiable)]`.
pub fn differentiable_struct(name: &str) -> bool {
    let Some(path) = crate::source::source_file() else {
        return false;
    };
    let Some(file) = crate::source::parse(&path) else {
        return false;
    };
    let mut found = (file.modules.iter()).flat_map(|m| m.structs.iter().filter(|s| s.name == name));
    let (Some(s), None) = (found.next(), found.next()) else {
        return false;
    };
    s.differentiable == Some(true)
        && file.names.structs.get(name) == Some(&1)
        && !file.names.fns.contains_key(name)
}

/// Whether a glob import of `items` (the module `module`) could bring an item named `name`
/// (a rule's unit struct, which would take the place of the plain function's missing rule):
/// a glob of another crate's path could; a glob of a module of this crate the files show
/// brings `name` only if that module defines or imports it, or itself globs something that
/// could (up to `depth` modules deep). A `prelude`'s glob is taken to bring no rule.
fn globs_may_bring(
    module: &source::Module,
    items: &Items,
    name: &str,
    deps: &mut Reading,
    depth: usize,
) -> bool {
    items.globs.iter().any(|glob| {
        if glob.last().is_some_and(|l| l == "prelude") {
            return false;
        }
        if depth == 0 {
            return true;
        }
        let Some(target) = source::resolve(module, glob, deps) else {
            return true;
        };
        let Some(inner) = source::items_of(&target, deps) else {
            return true;
        };
        defined_in(&inner, name)
            || inner.named.iter().any(|(_, _, local)| local == name)
            || (inner.foreign_glob && globs_may_bring(&target, &inner, name, deps, depth - 1))
    })
}

/// Whether values a derived body holds may contain trait objects: a source file of the
/// package being compiled mentions `dyn` (`crate_mentions_dyn`), or the annotated item's
/// file imports from a crate other than `std` and the libraries fwdad knows, whose types
/// it cannot read. `false` only when nothing can build or hand over a trait object (a
/// derived body's `DynLend` guards are then left out).
pub fn may_hold_trait_objects() -> bool {
    let Some(file) = source::source_file().and_then(|f| source::parse(&f)) else {
        return true;
    };
    const KNOWN: &[&str] = &[
        "std",
        "core",
        "alloc",
        "crate",
        "super",
        "self",
        "fwdad",
        "fwdad_runtime",
        "num_traits",
        "num_complex",
        "nalgebra",
        "glam",
        "ndarray",
        "itertools",
        "libm",
    ];
    let known = |first: Option<&String>| first.is_some_and(|f| KNOWN.contains(&f.as_str()));
    file.mentions_dyn
        || crate_mentions_dyn()
        || file.modules.iter().any(|m| {
            m.named
                .iter()
                .any(|(prefix, name, _)| !known(prefix.first().or(Some(name))))
                || m.globs.iter().any(|g| !known(g.first()))
        })
}

/// Whether every method named `name` that the package's `.rs` files declare takes `self`
/// shared (`&self`, `&'a self`, or `self` by value, not `mut self`), and at least one does:
/// a call of it on a value the body holds cannot step objects inside that value through
/// their `&mut self` methods, so it needs no `DynLend` guard (`d.dot(&d)` of the user's
/// `Vec3` in a pair loop). Read once per compilation; `false` when the files cannot be read.
pub fn method_takes_self_shared(name: &str) -> bool {
    thread_local! {
        static FOUND: RefCell<HashMap<PathBuf, Option<SelfMethods>>> = RefCell::new(HashMap::new());
    }
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        return false;
    };
    let found = FOUND.with(|f| f.borrow().get(&dir).cloned());
    let methods = match found {
        Some(m) => m,
        None => {
            let m = self_methods_under(&dir);
            FOUND.with(|f| f.borrow_mut().insert(dir, m.clone()));
            m
        }
    };
    methods.is_some_and(|m| m.shared.contains(name) && !m.other.contains(name))
}

/// The method names of a package's files by receiver: `shared` (`&self`, `self`), `other`
/// (`&mut self`, `mut self`, `self: ..` typed).
#[derive(Clone, Default)]
struct SelfMethods {
    shared: std::collections::HashSet<String>,
    other: std::collections::HashSet<String>,
}

fn self_methods_under(dir: &Path) -> Option<SelfMethods> {
    let mut out = SelfMethods::default();
    package_sources(dir, 0, &mut |text| {
        receivers_in(text, &mut out);
        false
    })?;
    Some(out)
}

/// Calls `f` on the text of each `.rs` file under `dir` (but `target/` and hidden
/// directories) until it returns `true`: `Some(true)` then, `Some(false)` after every file,
/// `None` where a directory or file cannot be read or the tree is deeper than 8.
fn package_sources(dir: &Path, depth: usize, f: &mut dyn FnMut(&str) -> bool) -> Option<bool> {
    if depth > 8 {
        return None;
    }
    for entry in std::fs::read_dir(dir).ok()? {
        let path = entry.ok()?.path();
        if path.is_dir() {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "target" || name.starts_with('.') {
                continue;
            }
            if package_sources(&path, depth + 1, f)? {
                return Some(true);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && f(&std::fs::read_to_string(&path).ok()?)
        {
            return Some(true);
        }
    }
    Some(false)
}

/// Each `fn name<..>(receiver` of `text` by its receiver's text (a scan of the text, not
/// a parse: a `fn` in a comment or string counts too, which can only keep a guard).
fn receivers_in(text: &str, out: &mut SelfMethods) {
    let mut rest = text;
    while let Some(at) = rest.find("fn ") {
        let before_ok = at == 0
            || !rest[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        rest = &rest[at + 3..];
        if !before_ok {
            continue;
        }
        let tail = rest.trim_start();
        let name: String = tail
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        let mut after = tail[name.len()..].trim_start();
        if after.starts_with('<') {
            let mut depth = 0usize;
            let mut end = None;
            let mut prev = ' ';
            for (i, c) in after.char_indices() {
                // The `>` of an arrow in a bound (`<F: Fn(f64) -> f64>`) closes nothing.
                let arrow = prev == '-';
                prev = c;
                match c {
                    '<' => depth += 1,
                    '>' if arrow => {}
                    '>' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            end = Some(i + 1);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(end) = end else { continue };
            after = after[end..].trim_start();
        }
        let Some(params) = after.strip_prefix('(') else {
            continue;
        };
        let raw: String = params
            .chars()
            .take_while(|c| *c != ',' && *c != ')')
            .collect();
        let spaced = raw.replace('&', "& ");
        let toks: Vec<&str> = spaced.split_whitespace().collect();
        match toks.as_slice() {
            ["self"] | ["&", "self"] => {
                out.shared.insert(name);
            }
            ["&", l, "self"] if l.starts_with('\'') => {
                out.shared.insert(name);
            }
            _ if toks.iter().any(|t| t.contains("self")) => {
                out.other.insert(name);
            }
            _ => {}
        }
    }
}

/// Whether a `.rs` file under the package's directory (`CARGO_MANIFEST_DIR`, but
/// `target/`) mentions `dyn`; read once per compilation. `true` when it cannot be read.
fn crate_mentions_dyn() -> bool {
    thread_local! {
        // Per package directory: a proc-macro server may expand for several.
        static FOUND: RefCell<HashMap<PathBuf, bool>> = RefCell::new(HashMap::new());
    }
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        return true;
    };
    if let Some(found) = FOUND.with(|f| f.borrow().get(&dir).copied()) {
        return found;
    }
    let found = package_sources(&dir, 0, &mut |text| text.contains("dyn")).unwrap_or(true);
    FOUND.with(|f| f.borrow_mut().insert(dir, found));
    found
}

/// The one module of the parsed file whose items include `caller` (none when no module or
/// several do).
fn home_of<'a>(file: &'a source::Parsed, caller: &str) -> Option<&'a Items> {
    let mut holding = file.modules.iter().filter(|m| m.callers.contains(caller));
    match (holding.next(), holding.next()) {
        (Some(home), None) => Some(home),
        _ => None,
    }
}

/// Whether the free function `callee` and the function `caller` are in one module of the
/// source file, which declares the struct or enum `ty`: a result type the callee writes
/// `ty` names the same type in the caller (no import of the callee's module involved).
pub fn declared_beside(caller: &str, callee: &str, ty: &str) -> bool {
    let Some(file) = source::source_file().and_then(|f| source::parse(&f)) else {
        return false;
    };
    let Some(home) = home_of(&file, caller) else {
        return false;
    };
    home.fns.iter().any(|f| f.name == callee)
        && (home.structs.iter().any(|s| s.name == ty) || home.enums.iter().any(|e| e == ty))
        && file.names.structs.get(ty).copied().unwrap_or(0) <= 1
}

/// Whether `path` names an enum of units declared without `#[derive(Differentiable)]`
/// (`enum Scheme { Euler, Midpoint }`) in the module of `caller`, the file's only item of
/// that name, with no tangent written by hand and no glob import that could shadow it:
/// such a value holds no float, so as a parameter it can only be constant data.
pub fn unit_enum(caller: &str, path: &syn::Path) -> bool {
    let [seg] = path.segments.iter().collect::<Vec<_>>()[..] else {
        return false;
    };
    if path.leading_colon.is_some() || !seg.arguments.is_none() {
        return false;
    }
    let name = seg.ident.to_string();
    let Some(file) = source::source_file().and_then(|f| source::parse(&f)) else {
        return false;
    };
    let Some(home) = home_of(&file, caller) else {
        return false;
    };
    let declared = (file.modules.iter())
        .map(|m| m.enums.iter().filter(|e| **e == name).count())
        .sum::<usize>();
    home.unit_enums.contains(&name)
        && declared == 1
        && !file.names.structs.contains_key(&name)
        && !file.names.others.contains(&format!("{name}Tangent"))
        && !(file.modules.iter()).any(|m| m.differentiable_impls.contains(&name))
        && !(home.named.iter()).any(|(_, _, local)| *local == name)
}

/// Where the struct that the literal `path { .. }` (or the constructor `path(..)`) builds is
/// declared without `#[derive(Differentiable)]`, when the files show it for certain: one
/// struct of that name in the annotated item's file, or one the file's modules import by
/// name, with no other item of that name, no `impl Differentiable` for it, and no tangent
/// struct (`P2Tangent`) written by hand, nor a glob import in the module of `caller` (the
/// function whose body builds it) that could bring one (a struct that module declares
/// shadows a glob's). The file is given when it is another one.
pub fn not_differentiable(caller: &str, path: &syn::Path) -> Option<Option<String>> {
    let [seg] = path.segments.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    if path.leading_colon.is_some() || !seg.arguments.is_none() {
        return None;
    }
    let name = seg.ident.to_string();
    let here = source::source_file()?;
    let file = source::parse(&here)?;
    let tangent = format!("{name}Tangent");
    let home = home_of(&file, caller)?;
    // A glob import could bring the name, unless the module declares it (its own item
    // shadows a glob's).
    let own_item = home.structs.iter().any(|s| s.name == name);
    if file.names.others.contains(&tangent) || (home.foreign_glob && !own_item) {
        return None;
    }
    let mut deps = Reading::default();
    let modules = source::modules_of(&here, &mut deps);
    // The struct's definitions the file shows: its own, and those its `use`s lead to.
    let mut found = Vec::new();
    let own = (file.modules.iter()).filter(|m| m.structs.iter().any(|s| s.name == name));
    for items in own {
        let at = modules.iter().find(|m| m.inline == items.path)?;
        found.push(Some((at.clone(), name.clone())));
    }
    if found.len() > 1 || file.names.structs.get(&name).copied().unwrap_or(0) != found.len() {
        return None;
    }
    let is_struct = |items: &Items, n: &str| items.structs.iter().any(|s| s.name == n);
    for (at, items) in modules.iter().zip(&file.modules) {
        for (prefix, original, _) in items.named.iter().filter(|(_, _, l)| *l == name) {
            found.push(source::definition(
                at, prefix, original, &mut deps, 4, &is_struct,
            ));
        }
    }
    let (module, name) = found.first()?.clone()?;
    if found
        .iter()
        .any(|d| d.as_ref() != Some(&(module.clone(), name.clone())))
    {
        return None;
    }
    let items = source::items_of(&module, &mut deps)?;
    let names = items.file_names();
    let once =
        names.structs.get(&name) == Some(&1) && !names.others.contains(&format!("{name}Tangent"));
    let plain = (items.structs.iter()).any(|s| s.name == name && s.differentiable == Some(false));
    drop(items);
    // `impl Differentiable for P2` by hand, anywhere in the files read.
    let file_of = deps.file(&module.file)?;
    let by_hand = [&file, &file_of]
        .iter()
        .any(|f| (f.modules.iter()).any(|m| m.differentiable_impls.contains(&name)));
    (once && plain && !by_hand).then(|| (module.file != here).then(|| shown(&module.file)))
}

/// Whether `ty`, a struct the annotated item's file declares without
/// `#[derive(Differentiable)]` (`not_differentiable` of `caller`, in that file), has the
/// method `method` in an inherent `impl` of the file without a rule: neither the `impl` nor
/// the method has an attribute that could give it one, and no other `impl` of the file
/// defines a method of that name for `ty` (an inherent method is the one a call finds,
/// and a second inherent one in another file would be defined twice).
pub fn plain_struct_method(caller: &str, ty: &str, method: &str) -> bool {
    let path = syn::Path::from(syn::Ident::new(ty, proc_macro2::Span::call_site()));
    if not_differentiable(caller, &path) != Some(None) {
        return false;
    }
    let Some(file) = source::source_file().and_then(|p| source::parse(&p)) else {
        return false;
    };
    let mut found = (file.modules.iter())
        .flat_map(|m| m.impl_methods.iter())
        .filter(|(t, m, _)| t == ty && m == method);
    matches!((found.next(), found.next()), (Some((_, _, true)), None))
}

/// `path` written out when it is one name that a `use` of `caller`'s module brings from
/// `std`, `core` or `alloc` (`swap` after `use core::mem::swap;`, as ellip writes it):
/// `core::mem::swap`, which the registry reads by its segments. `None` for any other
/// path, or where the files do not show it for certain (the name also a `fn` of the file).
pub fn imported_from_std(caller: &str, path: &syn::Path) -> Option<syn::Path> {
    let ident = path.get_ident()?;
    let local = ident.to_string();
    let file = source::parse(&source::source_file()?)?;
    if file.names.fns.contains_key(&local) {
        return None;
    }
    let home = home_of(&file, caller)?;
    let mut imports = home.named.iter().filter(|(_, _, l)| *l == local);
    let (prefix, name, _) = match (imports.next(), imports.next()) {
        (Some(one), None) => one,
        _ => return None,
    };
    if !matches!(
        prefix.first().map(String::as_str),
        Some("std" | "core" | "alloc")
    ) {
        return None;
    }
    let mut segments: syn::punctuated::Punctuated<syn::PathSegment, syn::Token![::]> =
        syn::punctuated::Punctuated::new();
    for s in prefix.iter().chain(std::iter::once(name)) {
        segments.push(syn::PathSegment::from(syn::Ident::new(s, ident.span())));
    }
    Some(syn::Path {
        leading_colon: None,
        segments,
    })
}

#[cfg(test)]
mod tests {
    use super::{receivers_in, SelfMethods};

    #[test]
    fn receivers_are_read_by_their_text() {
        let mut m = SelfMethods::default();
        receivers_in(
            "impl V { fn dot(&self, o: &V) -> f64 { 0.0 } fn len<'a>(&'a self) -> f64 { 0.0 }
             fn into_unit(self) -> V { self } fn step(&mut self, dt: f64) {}
             fn grow(mut self) -> V { self } fn pinned(self: &mut Self) {}
             fn scale<T: Into<f64>>( & self , k: T) {}
             fn advance<F: Fn(f64) -> f64>(&mut self, g: F) {} }
             fn free(x: f64) -> f64 { x } trait T { fn step(&self); }
             // notfn dot(&mut self)",
            &mut m,
        );
        for n in ["dot", "len", "into_unit", "scale", "step"] {
            assert!(m.shared.contains(n), "{n}");
        }
        for n in ["step", "grow", "pinned", "advance"] {
            assert!(m.other.contains(n), "{n}");
        }
        assert!(!m.other.contains("dot") && !m.shared.contains("free"));
    }
}
