//! Plain functions of the annotated item's own module, read from its source file: a call
//! of one in a derived body has no rule (a derived function's rule is found through the
//! unit struct `#[derive_frule]` defines beside it), and rustc's own error for that is a
//! name lookup's ("expected struct, variant or union type, found function"). With the
//! function seen in the source, the macro says at the call which function to annotate.
//!
//! Only what the file shows for certain counts: a module-level `fn` (of the annotated
//! function's module, or of an inline module inside it called by path) with no attribute that
//! could give it a rule (`#[derive_frule]`, `#[primitive]`, `#[non_differentiable]`, a
//! `cfg_attr`, any attribute not known to be inert), whose name no other item or `use` of
//! the file defines, in the one module that holds the annotated function, a module without
//! glob imports (other than a `prelude`), which could bring the name's rule from elsewhere.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;
use syn::visit::Visit;

/// One module of the file: the functions and methods it defines, and its plain functions.
#[derive(Default, Clone)]
struct Module {
    /// The inline modules leading to it in the file (empty for the file's own).
    path: Vec<String>,
    /// Names of the module's `fn` items and of the methods of its `impl` blocks.
    callers: HashSet<String>,
    /// Its `fn` items without rules, named by no other item of the file.
    plain: HashSet<String>,
    /// A glob import that could bring a rule of the same name.
    glob: bool,
    /// `Trait::f` of each associated function (no `self`) of the module's traits, with
    /// whether its declared result is `f64` or `f32`.
    trait_fns: HashMap<String, bool>,
}

/// A file's modules, with the file's modification time when they were read.
type Reading = (Option<SystemTime>, Vec<Module>);

thread_local! {
    /// The file of the annotated item (set by the entry point for one expansion).
    static FILE: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
    /// Each file's modules, with the file's modification time.
    static CACHE: RefCell<HashMap<PathBuf, Reading>> = RefCell::new(HashMap::new());
}

/// Runs `f` with `file` as the annotated item's source file.
pub fn with_source_file<R>(file: Option<PathBuf>, f: impl FnOnce() -> R) -> R {
    let previous = FILE.with(|s| std::mem::replace(&mut *s.borrow_mut(), file));
    let out = f();
    FILE.with(|s| *s.borrow_mut() = previous);
    out
}

/// Whether `callee` (`f`, or `util::f` through inline modules of the file), called in the
/// body of `caller`, is a plain function of `caller`'s module or of an inline module inside
/// it: one without a rule.
pub fn is_plain_fn(caller: &str, callee: &syn::Path) -> bool {
    let Some(path) = FILE.with(|f| f.borrow().clone()) else {
        return false;
    };
    if callee.leading_colon.is_some() || callee.segments.iter().any(|s| !s.arguments.is_none()) {
        return false;
    }
    let modules = modules(&path);
    let mut holding = modules.iter().filter(|m| m.callers.contains(caller));
    let (Some(home), None) = (holding.next(), holding.next()) else {
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
    let Some(target) = modules.iter().find(|m| m.path == inner) else {
        return false;
    };
    !home.glob && !target.glob && target.plain.contains(&name)
}

/// Whether `Trait::f`, an associated function without `self` of a trait the annotated
/// item's file declares (`trait FloatOps { fn sin(x: f64) -> f64; .. }`, a float backend
/// a function reaches through its type parameter, `F::sin(x)`), is declared to return
/// `f64` or `f32`: every trait of that name in the file says so.
pub fn trait_fn_returns_float(trait_name: &str, f: &str) -> bool {
    let Some(path) = FILE.with(|f| f.borrow().clone()) else {
        return false;
    };
    let key = format!("{trait_name}::{f}");
    let mut found = modules(&path)
        .into_iter()
        .filter_map(|m| m.trait_fns.get(&key).copied())
        .peekable();
    found.peek().is_some() && found.all(|float| float)
}

/// Whether a declared result is `f64` or `f32`.
fn returns_float(output: &syn::ReturnType) -> bool {
    match output {
        syn::ReturnType::Type(_, ty) => match &**ty {
            syn::Type::Path(p) => {
                p.qself.is_none() && (p.path.is_ident("f64") || p.path.is_ident("f32"))
            }
            _ => false,
        },
        syn::ReturnType::Default => false,
    }
}

fn modules(path: &Path) -> Vec<Module> {
    let time = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let cached = CACHE.with(|c| {
        c.borrow()
            .get(path)
            .filter(|(t, _)| t.is_some() && *t == time)
            .map(|(_, m)| m.clone())
    });
    if let Some(m) = cached {
        return m;
    }
    let file = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| syn::parse_file(&text).ok());
    let out = file.map(|f| read(&f)).unwrap_or_default();
    CACHE.with(|c| {
        c.borrow_mut()
            .insert(path.to_path_buf(), (time, out.clone()))
    });
    out
}

/// Attributes that give a function no rule and change nothing a call sees.
fn inert(attr: &syn::Attribute) -> bool {
    let p = attr.path();
    [
        "doc",
        "inline",
        "allow",
        "warn",
        "deny",
        "expect",
        "must_use",
        "cold",
        "track_caller",
    ]
    .iter()
    .any(|n| p.is_ident(n))
}

/// Every name an item or a `use` of the file defines, at any depth, with how many `fn`
/// items have it.
#[derive(Default)]
struct Names {
    fns: HashMap<String, usize>,
    others: HashSet<String>,
}

impl<'a> Visit<'a> for Names {
    fn visit_item(&mut self, item: &'a syn::Item) {
        let other = match item {
            syn::Item::Fn(f) => {
                *self.fns.entry(f.sig.ident.to_string()).or_default() += 1;
                None
            }
            syn::Item::Struct(s) => Some(&s.ident),
            syn::Item::Enum(e) => Some(&e.ident),
            syn::Item::Union(u) => Some(&u.ident),
            syn::Item::Type(t) => Some(&t.ident),
            syn::Item::Const(c) => Some(&c.ident),
            syn::Item::Static(s) => Some(&s.ident),
            syn::Item::Trait(t) => Some(&t.ident),
            syn::Item::Mod(m) => Some(&m.ident),
            syn::Item::ExternCrate(e) => Some(e.rename.as_ref().map_or(&e.ident, |(_, r)| r)),
            syn::Item::Macro(m) => m.ident.as_ref(),
            _ => None,
        };
        if let Some(id) = other {
            self.others.insert(id.to_string());
        }
        syn::visit::visit_item(self, item);
    }
    fn visit_use_name(&mut self, n: &'a syn::UseName) {
        self.others.insert(n.ident.to_string());
    }
    fn visit_use_rename(&mut self, r: &'a syn::UseRename) {
        self.others.insert(r.rename.to_string());
    }
    fn visit_foreign_item_fn(&mut self, f: &'a syn::ForeignItemFn) {
        self.others.insert(f.sig.ident.to_string());
    }
}

fn read(file: &syn::File) -> Vec<Module> {
    let mut names = Names::default();
    names.visit_file(file);
    let mut out = Vec::new();
    walk(&file.items, Vec::new(), &names, &mut out);
    out
}

fn walk(items: &[syn::Item], path: Vec<String>, names: &Names, out: &mut Vec<Module>) {
    let mut module = Module {
        path: path.clone(),
        ..Module::default()
    };
    for item in items {
        match item {
            syn::Item::Fn(f) => {
                let name = f.sig.ident.to_string();
                module.callers.insert(name.clone());
                let once = names.fns.get(&name) == Some(&1) && !names.others.contains(&name);
                if once && f.attrs.iter().all(inert) {
                    module.plain.insert(name);
                }
            }
            syn::Item::Impl(i) => {
                // A method's body is derived as the function `__fwdad_<Type>_<method>`.
                let ty = match &*i.self_ty {
                    syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                    _ => None,
                };
                for it in &i.items {
                    if let syn::ImplItem::Fn(m) = it {
                        module.callers.insert(m.sig.ident.to_string());
                        if let Some(ty) = &ty {
                            module
                                .callers
                                .insert(format!("__fwdad_{ty}_{}", m.sig.ident));
                        }
                    }
                }
            }
            syn::Item::Trait(t) => {
                for it in &t.items {
                    if let syn::TraitItem::Fn(m) = it {
                        module.callers.insert(m.sig.ident.to_string());
                        if m.sig.receiver().is_none() {
                            let key = format!("{}::{}", t.ident, m.sig.ident);
                            module.trait_fns.insert(key, returns_float(&m.sig.output));
                        }
                    }
                }
            }
            syn::Item::Use(u) if has_glob(&u.tree) => module.glob = true,
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    let mut path = path.clone();
                    path.push(m.ident.to_string());
                    walk(inner, path, names, out);
                }
            }
            _ => {}
        }
    }
    out.push(module);
}

/// A glob import other than a `prelude`'s.
fn has_glob(tree: &syn::UseTree) -> bool {
    fn walk(tree: &syn::UseTree, last: Option<&syn::Ident>) -> bool {
        match tree {
            syn::UseTree::Path(p) => walk(&p.tree, Some(&p.ident)),
            syn::UseTree::Group(g) => g.items.iter().any(|t| walk(t, last)),
            syn::UseTree::Glob(_) => last.is_none_or(|l| l != "prelude"),
            _ => false,
        }
    }
    walk(tree, None)
}
