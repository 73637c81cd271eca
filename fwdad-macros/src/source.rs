//! The macro's one reading of the crate's source files. A derived body is tokens, not
//! types: what the file around it shows (type aliases, functions' result types, imported
//! types, struct fields, plain functions, structs without `#[derive(Differentiable)]`) is
//! read from the annotated item's source file and the module files its paths lead to,
//! found the way rustc finds them (`mod types;` is `types.rs` or `types/mod.rs` beside the
//! parent module's file).
//!
//! Each file is parsed once per compilation into a [`Parsed`] summary of owned strings,
//! cached with the file's modification time, which `aliases` (aliases, result types,
//! imported types, array fields) and `plain_fns` (functions and structs without rules)
//! read. The summary keeps no token of the parse: a `proc_macro` token kept across
//! expansions is a use-after-free in the compiler.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;
use syn::visit::Visit;

/// `name = text` pairs (a `type` alias, a function's result type, a field's type).
pub type Named = Vec<(String, String)>;

/// A `use` item's named import: (prefix, name, local name).
pub type Import = (Vec<String>, String, String);

/// What the macro reads of one source file.
#[derive(Default)]
pub struct Parsed {
    /// The file's modules and its inline modules', at any depth, inner ones before the
    /// module holding them (the file's own last).
    pub modules: Vec<Items>,
    /// Every name an item or a `use` of the file defines, at any depth.
    pub names: Names,
    /// Whether the file's text mentions `dyn` anywhere (a trait object type, also inside a
    /// macro's tokens or a comment).
    pub mentions_dyn: bool,
    /// The file's `macro_rules!` (any module), by name, with what their expansions do to
    /// the function that calls them ([`MacroEffects`]).
    pub macros: HashMap<String, MacroEffects>,
    /// The fields of the file's structs (any module) whose name is declared with one array
    /// type only (`q: [f64; 4]` and no other `q`), as name and type text.
    pub array_fields: Named,
    /// The fields of the file's structs and enum variants (any module) whose name is
    /// declared with one type only, a type that names no type parameter of its item
    /// (`v: V3`, not `x: T`), as name and type text.
    pub field_types: Named,
}

/// The items of one module, as the macro reads them.
#[derive(Default, Clone)]
pub struct Items {
    /// The inline modules leading to it in the file (empty for the file's own).
    pub path: Vec<String>,
    /// Its non-generic `type` aliases, name and type text.
    pub aliases: Named,
    /// Its `fn` items.
    pub fns: Vec<FnItem>,
    /// Its structs.
    pub structs: Vec<StructItem>,
    /// Its enums' names.
    pub enums: Vec<String>,
    /// Its enums whose variants all are units (`enum Scheme { Euler, Midpoint }`) and whose
    /// attributes are known and derive no `Differentiable`: they hold no float.
    pub unit_enums: Vec<String>,
    /// Its `use` items' named imports.
    pub named: Vec<Import>,
    /// Its `use` items' glob prefixes.
    pub globs: Vec<Vec<String>>,
    /// A glob import other than a `prelude`'s.
    pub foreign_glob: bool,
    /// Names of its `fn` items, of the methods of its `impl` blocks and traits, and the
    /// names a method's derived body goes by (`__fwdad_<Type>_<method>`).
    pub callers: HashSet<String>,
    /// Its `mod` items, in order.
    pub mods: Vec<ModDecl>,
    /// The types it implements `Differentiable` for by hand (`impl Differentiable for P`).
    pub differentiable_impls: Vec<String>,
    /// `Trait::f` of each associated function (no `self`) of its traits, with whether its
    /// declared result is `f64` or `f32`.
    pub trait_fns: HashMap<String, bool>,
    /// The methods taking `&mut self` of its `impl`s for a slice, an array or a `Vec`
    /// (an extension trait's `fn normalize(&mut self)` on `[f64]`).
    pub sequence_mut_methods: HashSet<String>,
    /// Its `#[derive_frule] impl Trait for` a slice, an array or a `Vec`, in order: the
    /// trait's name and the type's text without spaces (`[f64]`, `Vec<f64>`).
    pub sequence_impls: Vec<(String, String)>,
    /// The names of its generic traits with `#[derive_frule]` (`trait Integrator<T>`),
    /// whose `#[derive_frule] impl`s give the trait's rules rather than the type's only.
    pub derived_generic_traits: HashSet<String>,
    /// Each associated type of its traits declared with a float bound (`trait Model {
    /// type Scalar: Float; .. }`), as the trait's name and the type's.
    pub float_assoc_types: HashSet<(String, String)>,
    /// The `&self` methods of its `#[derive_frule]` inherent `impl`s, as type and method.
    pub derived_ref_methods: HashSet<(String, String)>,
    /// The parameters' types of its `#[derive_frule]` `fn` items, by name, and of the
    /// methods of its `#[derive_frule]` inherent `impl`s, by `.name` (a struct holding a
    /// function taken as one: `fn_fields`).
    pub derived_fn_params: HashMap<String, Vec<String>>,
    /// The associated functions without `self` of its inherent `impl`s whose body ends in
    /// a struct literal (`fn new(f: F, a: f64) -> Self { Self { f, a } }`): the type's
    /// name, the function's name and its text (constructors of a struct holding a
    /// function: `fn_fields`).
    pub ctors: Vec<(String, String, String)>,
    /// The methods of its `impl`s (inherent or of a trait), as type and method, with
    /// whether the `impl` is inherent and neither it nor the method has an attribute that
    /// could give the method a rule (see [`inert`]).
    pub impl_methods: Vec<(String, String, bool)>,
}

/// A `fn` item.
#[derive(Clone)]
pub struct FnItem {
    pub name: String,
    /// Its written result type, when it has no const parameters and at most one type
    /// parameter, and its result names no `Self` or `impl Trait` (see [`plain_return`]).
    pub result: Option<String>,
    /// Whether every attribute on it is one that gives no rule and changes nothing a call
    /// sees (`doc`, `inline`, `allow`, ...).
    pub inert: bool,
    /// The parameters (position and name) a `#[derive_frule(inactive(..))]` on it lists.
    pub inactive: Vec<(usize, String)>,
    /// The parameters taken as a shared trait object (`m: &dyn Material`): position,
    /// name and the trait object's bounds as written (`Material`; see [`dyn_params`]).
    pub dyn_params: Vec<(usize, String, String)>,
    /// The attribute of fwdad's on it that generates the rule `name_frule` beside it
    /// (`derive_frule`, `primitive`, `non_differentiable`; any path ending in the name).
    pub rule_attr: Option<&'static str>,
}

/// A struct.
#[derive(Clone)]
pub struct StructItem {
    pub name: String,
    /// `Some(true)`: a `derive` lists `Differentiable`; `Some(false)`: none does and every
    /// attribute is known (`doc`, `derive`, `repr`, lints); `None`: another attribute
    /// (`cfg_attr`, a macro) could give it one.
    pub differentiable: Option<bool>,
    /// How many lifetime parameters it declares (`struct Data<'a>`: 1).
    pub lifetimes: usize,
    /// Its named fields in order, name and type text (empty for a tuple or unit struct).
    pub fields: Vec<(String, String)>,
    /// Its type parameters bounded by `Fn`, `FnMut` or `FnOnce` (inline or in its `where`
    /// clause), with the text of that bound (`F`, `Fn(f64) -> f64`).
    pub fn_params: Vec<(String, String)>,
}

/// A `mod` item.
#[derive(Clone)]
pub struct ModDecl {
    pub name: String,
    /// `mod name { .. }`.
    pub inline: bool,
    /// `#[path = ".."]` on it (not followed).
    pub path_attr: bool,
}

/// Every name an item or a `use` of a file defines, at any depth, with how many `fn`
/// items have it.
#[derive(Default)]
pub struct Names {
    pub fns: HashMap<String, usize>,
    pub others: HashSet<String>,
    /// How many structs have each name.
    pub structs: HashMap<String, usize>,
}

/// A file's reading, with the file's modification time when it was read.
type Cached = (Option<SystemTime>, Option<Rc<Parsed>>);

thread_local! {
    /// The file of the annotated item (set by the entry point for one expansion).
    static FILE: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
    /// Each file read, with its modification time.
    static CACHE: RefCell<HashMap<PathBuf, Cached>> = RefCell::new(HashMap::new());
}

/// Runs `f` with `file` as the annotated item's source file.
pub fn with_source_file<R>(file: Option<PathBuf>, f: impl FnOnce() -> R) -> R {
    let previous = FILE.with(|s| std::mem::replace(&mut *s.borrow_mut(), file));
    let out = f();
    FILE.with(|s| *s.borrow_mut() = previous);
    out
}

/// The annotated item's source file, when the compiler tells it.
pub fn source_file() -> Option<PathBuf> {
    FILE.with(|f| f.borrow().clone())
}

pub fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The file at `path` read (`None` when it cannot be read or parsed): parsed once, then
/// served from the cache while its modification time is the same.
pub fn parse(path: &Path) -> Option<Rc<Parsed>> {
    let time = modified(path);
    let cached = CACHE.with(|c| {
        c.borrow()
            .get(path)
            .filter(|(t, _)| t.is_some() && *t == time)
            .map(|(_, p)| p.clone())
    });
    if let Some(p) = cached {
        return p;
    }
    let parsed = std::fs::read_to_string(path).ok().and_then(|text| {
        let file = syn::parse_file(&text).ok()?;
        let mut parsed = read(&file);
        parsed.mentions_dyn = text.contains("dyn");
        Some(Rc::new(parsed))
    });
    CACHE.with(|c| {
        c.borrow_mut()
            .insert(path.to_path_buf(), (time, parsed.clone()))
    });
    parsed
}

/// What a `macro_rules!` of the file may do to the function that calls it, read from its
/// transcribers' tokens. (A `return` in one is not read: libm's `select_implementation!`
/// returns only under a `cfg` its callers leave off.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MacroEffects {
    /// A transcriber declares a local outside any block of its own (ellip's `declare!(mut
    /// [xn = x, yn = y])` expanding to `let mut xn = x; let mut yn = y;`).
    pub declares: bool,
}

/// The `macro_rules!` items of `file`, at any depth, with their [`MacroEffects`].
fn file_macros(file: &syn::File) -> HashMap<String, MacroEffects> {
    struct Macros(HashMap<String, MacroEffects>);
    impl<'ast> Visit<'ast> for Macros {
        fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
            if let (Some(name), true) = (&m.ident, m.mac.path.is_ident("macro_rules")) {
                let effects = macro_effects(m.mac.tokens.clone());
                let e = self.0.entry(name.to_string()).or_default();
                e.declares |= effects.declares;
            }
        }
    }
    let mut m = Macros(HashMap::new());
    m.visit_file(file);
    m.0
}

/// The effects of one `macro_rules!`'s rules, `(pattern) => { transcriber } ; ..`.
fn macro_effects(rules: proc_macro2::TokenStream) -> MacroEffects {
    use proc_macro2::{Delimiter, TokenTree};
    // A `let` of the transcriber itself, or of a repetition `$( .. )*` in it, but not of
    // a block (`{{ let mut count = 0; .. }}`), whose locals stay inside.
    fn declares(tokens: proc_macro2::TokenStream) -> bool {
        tokens.into_iter().any(|t| match t {
            TokenTree::Ident(i) => i == "let",
            TokenTree::Group(g) => g.delimiter() != Delimiter::Brace && declares(g.stream()),
            TokenTree::Punct(_) | TokenTree::Literal(_) => false,
        })
    }
    let mut effects = MacroEffects::default();
    let tts: Vec<TokenTree> = rules.into_iter().collect();
    for (i, t) in tts.iter().enumerate() {
        let arrow = i >= 2
            && matches!(&tts[i - 1], TokenTree::Punct(p) if p.as_char() == '>')
            && matches!(&tts[i - 2], TokenTree::Punct(p) if p.as_char() == '=');
        if let (true, TokenTree::Group(g)) = (arrow, t) {
            effects.declares |= declares(g.stream());
        }
    }
    effects
}

/// The effects of the `macro_rules!` named `name` of the annotated item's file, when it
/// defines one.
pub fn file_macro(name: &str) -> Option<MacroEffects> {
    parse(&source_file()?)?.macros.get(name).copied()
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

/// The summary of a parsed file.
fn read(file: &syn::File) -> Parsed {
    let mut names = Names::default();
    names.visit_file(file);
    let mut modules = Vec::new();
    walk(&file.items, Vec::new(), &mut modules);
    let (array_fields, field_types) = fields(file);
    Parsed {
        modules,
        names,
        // Set from the text by `parse`; `true` until then, the safe side.
        mentions_dyn: true,
        macros: file_macros(file),
        array_fields,
        field_types,
    }
}

fn walk(items: &[syn::Item], path: Vec<String>, out: &mut Vec<Items>) {
    let mut module = Items {
        path: path.clone(),
        ..Items::default()
    };
    for item in items {
        match item {
            syn::Item::Type(t) if t.generics.params.is_empty() => {
                let ty = &t.ty;
                module
                    .aliases
                    .push((t.ident.to_string(), quote::quote!(#ty).to_string()));
            }
            syn::Item::Fn(f) => {
                let name = f.sig.ident.to_string();
                module.callers.insert(name.clone());
                if f.attrs
                    .iter()
                    .any(|a| (a.path().segments.last()).is_some_and(|s| s.ident == "derive_frule"))
                {
                    let params = (f.sig.inputs.iter())
                        .filter_map(|a| match a {
                            syn::FnArg::Typed(t) => {
                                let ty = &t.ty;
                                Some(quote::quote!(#ty).to_string())
                            }
                            syn::FnArg::Receiver(_) => None,
                        })
                        .collect();
                    module.derived_fn_params.insert(name.clone(), params);
                }
                module.fns.push(FnItem {
                    name,
                    result: plain_return(f),
                    inert: f.attrs.iter().all(inert),
                    inactive: inactive_params(f),
                    dyn_params: dyn_params(f),
                    rule_attr: rule_attr(&f.attrs),
                });
            }
            syn::Item::Struct(s) => module.structs.push(StructItem {
                name: s.ident.to_string(),
                differentiable: derives_differentiable(&s.attrs),
                lifetimes: s.generics.lifetimes().count(),
                fields: named_fields(&s.fields),
                fn_params: fn_params(&s.generics),
            }),
            syn::Item::Enum(e) => {
                module.enums.push(e.ident.to_string());
                let units = (e.variants.iter()).all(|v| matches!(v.fields, syn::Fields::Unit));
                if units
                    && e.generics.params.is_empty()
                    && derives_differentiable(&e.attrs) == Some(false)
                {
                    module.unit_enums.push(e.ident.to_string());
                }
            }
            syn::Item::Use(u) => {
                use_tree(
                    &u.tree,
                    &mut Vec::new(),
                    &mut module.named,
                    &mut module.globs,
                );
                module.foreign_glob |= has_glob(&u.tree);
            }
            syn::Item::Impl(i) => {
                // A method's body is derived as the function `__fwdad_<Type>_<method>`.
                let ty = match &*i.self_ty {
                    syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                    _ => None,
                };
                let differentiable = i.trait_.as_ref().is_some_and(|(_, t, _)| {
                    t.segments
                        .last()
                        .is_some_and(|s| s.ident == "Differentiable")
                });
                if let (true, Some(ty)) = (differentiable, &ty) {
                    module.differentiable_impls.push(ty.clone());
                }
                let sequence = match &*i.self_ty {
                    syn::Type::Slice(_) | syn::Type::Array(_) => true,
                    syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Vec"),
                    _ => false,
                };
                let derived = i.attrs.iter().any(|a| {
                    a.path()
                        .segments
                        .last()
                        .is_some_and(|s| s.ident == "derive_frule")
                });
                if let (true, true, Some((_, t, _))) = (sequence, derived, &i.trait_) {
                    if let Some(tr) = t.segments.last() {
                        module
                            .sequence_impls
                            .push((tr.ident.to_string(), type_key(&i.self_ty)));
                    }
                }
                for it in &i.items {
                    if let (syn::ImplItem::Fn(m), None, Some(ty)) = (it, &i.trait_, &ty) {
                        let literal = matches!(
                            m.block.stmts.last(),
                            Some(syn::Stmt::Expr(syn::Expr::Struct(_), None))
                        );
                        if m.sig.receiver().is_none() && literal {
                            let (g, self_ty) = (&i.generics, &i.self_ty);
                            let w = &g.where_clause;
                            module.ctors.push((
                                ty.clone(),
                                m.sig.ident.to_string(),
                                quote::quote!(impl #g #self_ty #w { #m }).to_string(),
                            ));
                        }
                    }
                    if let (syn::ImplItem::Fn(m), Some(ty)) = (it, &ty) {
                        let plain = i.trait_.is_none()
                            && i.attrs.iter().all(inert)
                            && m.attrs.iter().all(inert);
                        module
                            .impl_methods
                            .push((ty.clone(), m.sig.ident.to_string(), plain));
                    }
                    if let syn::ImplItem::Fn(m) = it {
                        let by_ref = matches!(m.sig.receiver(),
                            Some(r) if r.reference.is_some() && r.mutability.is_none());
                        if let (true, None) = (derived, &i.trait_) {
                            let params = (m.sig.inputs.iter())
                                .filter_map(|a| match a {
                                    syn::FnArg::Typed(t) => {
                                        let ty = &t.ty;
                                        Some(quote::quote!(#ty).to_string())
                                    }
                                    syn::FnArg::Receiver(_) => None,
                                })
                                .collect();
                            module
                                .derived_fn_params
                                .insert(format!(".{}", m.sig.ident), params);
                        }
                        if let (true, true, None, Some(ty)) = (by_ref, derived, &i.trait_, &ty) {
                            module
                                .derived_ref_methods
                                .insert((ty.clone(), m.sig.ident.to_string()));
                        }
                        let by_mut = matches!(m.sig.receiver(),
                            Some(r) if r.reference.is_some() && r.mutability.is_some());
                        if sequence && by_mut {
                            module.sequence_mut_methods.insert(m.sig.ident.to_string());
                        }
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
                let derived = t.attrs.iter().any(|a| {
                    a.path()
                        .segments
                        .last()
                        .is_some_and(|s| s.ident == "derive_frule")
                });
                if derived && t.generics.type_params().next().is_some() {
                    module.derived_generic_traits.insert(t.ident.to_string());
                }
                for it in &t.items {
                    if let syn::TraitItem::Type(ty) = it {
                        let float = ty.bounds.iter().any(|b| {
                            matches!(b, syn::TypeParamBound::Trait(tb)
                                if tb.path.segments.last().is_some_and(|s| crate::callee::is_float_trait(&s.ident.to_string())))
                        });
                        if float {
                            (module.float_assoc_types)
                                .insert((t.ident.to_string(), ty.ident.to_string()));
                        }
                    }
                    if let syn::TraitItem::Fn(m) = it {
                        module.callers.insert(m.sig.ident.to_string());
                        if m.sig.receiver().is_none() {
                            let key = format!("{}::{}", t.ident, m.sig.ident);
                            module.trait_fns.insert(key, returns_float(&m.sig.output));
                        }
                    }
                }
            }
            syn::Item::Mod(m) => {
                module.mods.push(ModDecl {
                    name: m.ident.to_string(),
                    inline: m.content.is_some(),
                    path_attr: m.attrs.iter().any(|a| a.path().is_ident("path")),
                });
                if let Some((_, inner)) = &m.content {
                    let mut path = path.clone();
                    path.push(m.ident.to_string());
                    walk(inner, path, out);
                }
            }
            _ => {}
        }
    }
    out.push(module);
}

/// The parameters of `f` taken as a shared trait object, `name: &dyn Trait` (`&(dyn A +
/// Send)` too), by position, name and the bounds' text (`Material`, `Material + Send`): a
/// rule takes such an argument's fields as constants.
fn dyn_params(f: &syn::ItemFn) -> Vec<(usize, String, String)> {
    let params = f.sig.inputs.iter().enumerate();
    params
        .filter_map(|(i, arg)| {
            let syn::FnArg::Typed(t) = arg else {
                return None;
            };
            let syn::Pat::Ident(p) = &*t.pat else {
                return None;
            };
            let syn::Type::Reference(r) = &*t.ty else {
                return None;
            };
            let mut elem = &*r.elem;
            while let syn::Type::Paren(inner) = elem {
                elem = &inner.elem;
            }
            let syn::Type::TraitObject(o) = elem else {
                return None;
            };
            if r.mutability.is_some() {
                return None;
            }
            let bounds = &o.bounds;
            let text = quote::quote!(#bounds).to_string().replace(" :: ", "::");
            Some((i, p.ident.to_string(), text))
        })
        .collect()
}

/// The parameters of `f` that its `#[derive_frule(inactive(..))]` (any path ending in
/// `derive_frule`) lists, by position and name, read from the attribute's tokens (a
/// malformed list gives none: the macro reports it at the function).
fn inactive_params(f: &syn::ItemFn) -> Vec<(usize, String)> {
    use proc_macro2::TokenTree;
    let mut names = Vec::new();
    for attr in &f.attrs {
        let last = attr.path().segments.last();
        if last.is_none_or(|s| s.ident != "derive_frule") {
            continue;
        }
        let syn::Meta::List(list) = &attr.meta else {
            continue;
        };
        let tokens: Vec<TokenTree> = list.tokens.clone().into_iter().collect();
        for pair in tokens.windows(2) {
            let (TokenTree::Ident(kw), TokenTree::Group(g)) = (&pair[0], &pair[1]) else {
                continue;
            };
            if kw != "inactive" || g.delimiter() != proc_macro2::Delimiter::Parenthesis {
                continue;
            }
            for t in g.stream() {
                if let TokenTree::Ident(id) = t {
                    names.push(id.to_string());
                }
            }
        }
    }
    let params = f.sig.inputs.iter().enumerate();
    params
        .filter_map(|(i, arg)| match arg {
            syn::FnArg::Typed(t) => match &*t.pat {
                syn::Pat::Ident(p) if names.contains(&p.ident.to_string()) => {
                    Some((i, p.ident.to_string()))
                }
                _ => None,
            },
            syn::FnArg::Receiver(_) => None,
        })
        .collect()
}

/// The attribute of fwdad's among `attrs` that generates a function's rule `name_frule`.
fn rule_attr(attrs: &[syn::Attribute]) -> Option<&'static str> {
    attrs.iter().find_map(|a| {
        let last = a.path().segments.last()?;
        ["derive_frule", "primitive", "non_differentiable"]
            .into_iter()
            .find(|n| last.ident == n)
    })
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

/// Whether a struct's attributes derive `Differentiable` (see [`StructItem`]).
/// A struct's named fields, name and type text.
fn named_fields(fields: &syn::Fields) -> Vec<(String, String)> {
    let syn::Fields::Named(named) = fields else {
        return Vec::new();
    };
    (named.named.iter())
        .filter_map(|f| {
            let ty = &f.ty;
            Some((
                f.ident.as_ref()?.to_string(),
                quote::quote!(#ty).to_string(),
            ))
        })
        .collect()
}

/// The type parameters of `generics` bounded by a function trait, with that bound's text.
fn fn_params(generics: &syn::Generics) -> Vec<(String, String)> {
    fn fn_bound<'a>(bounds: impl IntoIterator<Item = &'a syn::TypeParamBound>) -> Option<String> {
        bounds.into_iter().find_map(|b| match b {
            syn::TypeParamBound::Trait(t)
                if t.path
                    .segments
                    .last()
                    .is_some_and(|s| ["Fn", "FnMut", "FnOnce"].iter().any(|f| s.ident == f)) =>
            {
                Some(quote::quote!(#t).to_string())
            }
            _ => None,
        })
    }
    let mut out = Vec::new();
    for p in generics.type_params() {
        if let Some(b) = fn_bound(&p.bounds) {
            out.push((p.ident.to_string(), b));
        }
    }
    for pred in generics.where_clause.iter().flat_map(|w| &w.predicates) {
        let syn::WherePredicate::Type(t) = pred else {
            continue;
        };
        let syn::Type::Path(p) = &t.bounded_ty else {
            continue;
        };
        if let (Some(id), Some(b)) = (p.path.get_ident(), fn_bound(&t.bounds)) {
            out.push((id.to_string(), b));
        }
    }
    out
}

fn derives_differentiable(attrs: &[syn::Attribute]) -> Option<bool> {
    let mut known = true;
    for attr in attrs {
        let p = attr.path();
        if p.is_ident("derive") {
            let listed = attr
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
                )
                .ok()?;
            if listed.iter().any(|d| {
                d.segments
                    .last()
                    .is_some_and(|s| s.ident == "Differentiable")
            }) {
                return Some(true);
            }
        } else if ![
            "doc",
            "repr",
            "allow",
            "warn",
            "deny",
            "expect",
            "must_use",
            "non_exhaustive",
        ]
        .iter()
        .any(|n| p.is_ident(n))
        {
            known = false;
        }
    }
    known.then_some(false)
}

impl<'a> Visit<'a> for Names {
    fn visit_item(&mut self, item: &'a syn::Item) {
        let other = match item {
            syn::Item::Fn(f) => {
                *self.fns.entry(f.sig.ident.to_string()).or_default() += 1;
                None
            }
            syn::Item::Struct(s) => {
                *self.structs.entry(s.ident.to_string()).or_default() += 1;
                Some(&s.ident)
            }
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

impl Names {
    /// Whether `name` is the name of one `fn` of the file and of nothing else.
    pub fn one_fn(&self, name: &str) -> bool {
        self.fns.get(name) == Some(&1) && !self.others.contains(name)
    }
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

/// The array fields and the field types of a file (see [`Parsed::array_fields`] and
/// [`Parsed::field_types`]).
fn fields(file: &syn::File) -> (Named, Named) {
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
    impl<'ast> Visit<'ast> for Fields {
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
    fields.visit_file(file);
    let known = |map: HashMap<String, Option<String>>| {
        let mut out: Named = map.into_iter().filter_map(|(n, t)| Some((n, t?))).collect();
        out.sort();
        out
    };
    (known(fields.arrays), known(fields.types))
}

/// A free function's written result type, when it has no type or const parameters (whose
/// names would mean nothing in a caller) and its result names no `Self` or `impl Trait`.
/// A function generic over one type parameter and no const parameter (`fn helix<T:
/// RealField>(t: T) -> Vector3<T>`) gives its result with that parameter written
/// [`SCALAR_PLACEHOLDER`], which the caller replaces by its own float type (the argument
/// the call infers: the scalar of a caller's `f64` values, or its float type parameter).
fn plain_return(f: &syn::ItemFn) -> Option<String> {
    let syn::ReturnType::Type(_, ty) = &f.sig.output else {
        return None;
    };
    let generics = &f.sig.generics;
    let consts = generics.const_params().count();
    let types: Vec<String> = generics
        .type_params()
        .map(|t| t.ident.to_string())
        .collect();
    let text = quote::quote!(#ty).to_string();
    let opaque = matches!(**ty, syn::Type::ImplTrait(_))
        || text
            .split_whitespace()
            .any(|t| t == "Self" || t == "'_" || t.starts_with('\''));
    if opaque || consts > 0 || types.len() > 1 {
        return None;
    }
    match types.first() {
        None => Some(text),
        // The parameter stands alone as a token (`Vector3 < T >`), never as a path's
        // first segment (`T :: Output`, which names no float).
        Some(t) => {
            let tokens: Vec<&str> = text.split_whitespace().collect();
            let assoc = tokens
                .windows(2)
                .any(|w| w[0] == t.as_str() && w[1] == "::");
            (!assoc).then(|| {
                tokens
                    .iter()
                    .map(|w| {
                        if *w == t.as_str() {
                            SCALAR_PLACEHOLDER
                        } else {
                            w
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        }
    }
}

/// What a generic function's result type has for its type parameter (see
/// [`plain_return`]).
pub const SCALAR_PLACEHOLDER: &str = "__FwdadCallerScalar";

/// Collects the imports of a `use` tree: (prefix, name, local name) and glob prefixes.
fn use_tree(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    named: &mut Vec<Import>,
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

/// The files one answer was read from, with their modification times, and the files
/// themselves (each read once per answer).
#[derive(Default)]
pub struct Reading {
    pub deps: Vec<(PathBuf, Option<SystemTime>)>,
    files: HashMap<PathBuf, Option<Rc<Parsed>>>,
}

impl Reading {
    /// The file at `path` read, noted in the reading's files.
    pub fn file(&mut self, path: &Path) -> Option<Rc<Parsed>> {
        if let Some(file) = self.files.get(path) {
            return file.clone();
        }
        self.deps.push((path.to_path_buf(), modified(path)));
        let file = parse(path);
        self.files.insert(path.to_path_buf(), file.clone());
        file
    }
}

/// A module: the file that holds it, the inline modules leading to it inside that file,
/// and the directory in which its `mod name;` items find their files.
#[derive(Clone, PartialEq, Debug)]
pub struct Module {
    pub file: PathBuf,
    pub inline: Vec<String>,
    pub dir: PathBuf,
}

/// A module's items: the file read and the module in it.
pub struct ModuleItems(Rc<Parsed>, usize);

impl std::ops::Deref for ModuleItems {
    type Target = Items;
    fn deref(&self) -> &Items {
        &self.0.modules[self.1]
    }
}

impl ModuleItems {
    /// The names the module's whole file defines.
    pub fn file_names(&self) -> &Names {
        &self.0.names
    }
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

/// How many lifetime parameters the source file's struct `name` declares (any module of
/// the file; 0 when the file shows none, or two of that name that differ): what a
/// parameter typed `&Data` elides, which the rule's `impl` must name.
pub fn struct_lifetimes(name: &str) -> usize {
    let Some(file) = source_file().and_then(|here| parse(&here)) else {
        return 0;
    };
    let mut counts = (file.modules.iter())
        .flat_map(|m| m.structs.iter())
        .filter(|s| s.name == name)
        .map(|s| s.lifetimes);
    match counts.next() {
        Some(n) if counts.all(|m| m == n) => n,
        _ => 0,
    }
}

/// Whether `file` is a crate's root: `lib.rs`, `main.rs`, a file of `tests/`,
/// `examples/`, `benches/`, `src/bin/`, or the file the package's manifest gives the crate
/// being compiled (`[[bin]] name = "sim"`, `path = "src/sim.rs"`, as trybuild lays out its
/// cases).
pub fn is_crate_root(file: &Path) -> bool {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name == "lib.rs" || name == "main.rs" || file.parent().is_some_and(is_roots_dir) {
        return true;
    }
    declared_root().is_some_and(|root| std::fs::canonicalize(file).ok() == Some(root))
}

/// A manifest, its modification time, and the root file it declares for the crate.
type ManifestRoot = (PathBuf, Option<SystemTime>, Option<PathBuf>);

thread_local! {
    /// The manifest read for [`declared_root`], with its modification time and answer.
    static MANIFEST: RefCell<Option<ManifestRoot>> = const { RefCell::new(None) };
}

/// The root file the manifest (`CARGO_MANIFEST_DIR/Cargo.toml`) declares for the crate being
/// compiled (`CARGO_CRATE_NAME`), by a target section's `name` and `path`, canonical.
fn declared_root() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    let krate = std::env::var("CARGO_CRATE_NAME").ok()?;
    let manifest = dir.join("Cargo.toml");
    let time = modified(&manifest);
    let cached = MANIFEST.with(|m| {
        m.borrow()
            .as_ref()
            .filter(|(p, t, _)| *p == manifest && t.is_some() && *t == time)
            .map(|(_, _, root)| root.clone())
    });
    if let Some(root) = cached {
        return root;
    }
    let text = std::fs::read_to_string(&manifest).ok()?;
    let value = |line: &str, key: &str| {
        let rest = line.strip_prefix(key)?.trim_start().strip_prefix('=')?;
        Some(rest.trim().trim_matches('"').to_string())
    };
    let (mut target, mut name, mut path): (bool, Option<String>, Option<String>) =
        (false, None, None);
    let mut root = None;
    for line in text.lines().map(str::trim).chain(["[end]"]) {
        if line.starts_with('[') {
            if let (true, Some(n), Some(p)) = (target, name.take(), path.take()) {
                if n.replace('-', "_") == krate {
                    root = std::fs::canonicalize(dir.join(p)).ok();
                }
            }
            target = matches!(
                line,
                "[lib]" | "[[bin]]" | "[[test]]" | "[[example]]" | "[[bench]]"
            );
            (name, path) = (None, None);
        } else if target {
            name = value(line, "name").or(name);
            path = value(line, "path").or(path);
        }
    }
    MANIFEST.with(|m| *m.borrow_mut() = Some((manifest, time, root.clone())));
    root
}

/// The module a whole file is.
pub fn file_module(file: &Path) -> Module {
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
pub fn items_of(module: &Module, deps: &mut Reading) -> Option<ModuleItems> {
    let file = deps.file(&module.file)?;
    let at = file.modules.iter().position(|m| m.path == module.inline)?;
    Some(ModuleItems(file, at))
}

/// The module that declares `module`; `None` for a crate root, and for a module file
/// whose crate root the directory does not tell (`tests/common/mod.rs` serves every test
/// crate: then the crate being compiled, `tests/<crate>.rs`, is taken).
pub fn parent(module: &Module) -> Option<Module> {
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
pub fn child(module: &Module, name: &str, deps: &mut Reading) -> Option<Module> {
    let items = items_of(module, deps)?;
    let decl = items.mods.iter().find(|m| m.name == name)?;
    let dir = module.dir.join(name);
    if decl.inline {
        let mut inline = module.inline.clone();
        inline.push(name.to_string());
        return Some(Module {
            file: module.file.clone(),
            inline,
            dir,
        });
    }
    if decl.path_attr {
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
pub fn resolve(module: &Module, prefix: &[String], deps: &mut Reading) -> Option<Module> {
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

/// The path of `module` from the crate root (`crate::geometry::shapes`); `None` where
/// the files do not tell it.
pub fn crate_path(module: &Module) -> Option<Vec<String>> {
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

/// Every module a file holds: the file's and its inline modules', at any depth (inner
/// ones first).
pub fn modules_of(file: &Path, deps: &mut Reading) -> Vec<Module> {
    let Some(parsed) = deps.file(file) else {
        return Vec::new();
    };
    let top = file_module(file);
    parsed
        .modules
        .iter()
        .map(|m| Module {
            file: top.file.clone(),
            inline: m.path.clone(),
            dir: m.path.iter().fold(top.dir.clone(), |d, n| d.join(n)),
        })
        .collect()
}

/// The module defining the item `name` (as `defines` tells) that the `use` path
/// `prefix::name`, written in `from`, leads to, through up to `depth` re-exports (`pub use
/// geometry::Vec3;` or `pub use geometry::*;` at the crate root), and the item's own name
/// there.
pub fn definition(
    from: &Module,
    prefix: &[String],
    name: &str,
    deps: &mut Reading,
    depth: usize,
    defines: &dyn Fn(&Items, &str) -> bool,
) -> Option<(Module, String)> {
    let target = resolve(from, prefix, deps)?;
    let items = items_of(&target, deps)?;
    if defines(&items, name) {
        return Some((target, name.to_string()));
    }
    if depth == 0 {
        return None;
    }
    let (named, globs) = (items.named.clone(), items.globs.clone());
    drop(items);
    if let Some((inner, original, _)) = named.into_iter().find(|(_, _, local)| local == name) {
        return definition(&target, &inner, &original, deps, depth - 1, defines);
    }
    // A glob re-export (`pub use crate::geometry::*;`).
    globs
        .iter()
        .find_map(|glob| definition(&target, glob, name, deps, depth - 1, defines))
}

/// A type's text without spaces (`Vec<f64>`, `[f64;3]`), as [`Items::sequence_impls`]
/// keys it.
pub fn type_key(ty: &syn::Type) -> String {
    quote::ToTokens::to_token_stream(ty)
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}
