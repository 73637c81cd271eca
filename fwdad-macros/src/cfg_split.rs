//! `#[cfg(..)]` inside an annotated item: one expansion per configuration.
//!
//! An attribute macro receives its item before `cfg` is evaluated, so a statement under
//! `#[cfg(feature = "std")]` and its `#[cfg(not(feature = "std"))]` twin (sgp4's
//! `rem_euclid`, lambert_w's `mul_add` under `target_feature = "fma"`) would both reach the
//! pipeline, and the rule would compute whichever comes last. A proc macro cannot evaluate
//! a `cfg` itself; rustc can. So the item is expanded once for each truth assignment of
//! the conditions it mentions, with the statements (match arms, struct-literal fields,
//! `impl` and trait items) that the assignment turns off removed, and each expansion's
//! items are put under `#[cfg(all(..))]` of that assignment: rustc keeps exactly the one
//! of its configuration, whose primal is the user's item as rustc strips it.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::punctuated::Punctuated;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// At most this many distinct conditions (2⁵ expansions).
const MAX_ATOMS: usize = 5;

/// A `cfg` predicate.
enum Pred {
    /// `test`, `feature = "std"`, `target_feature = "fma"`: an index into the atoms.
    Atom(usize),
    All(Vec<Pred>),
    Any(Vec<Pred>),
    Not(Box<Pred>),
}

impl Pred {
    fn eval(&self, truth: &[bool]) -> bool {
        match self {
            Pred::Atom(i) => truth[*i],
            Pred::All(ps) => ps.iter().all(|p| p.eval(truth)),
            Pred::Any(ps) => ps.iter().any(|p| p.eval(truth)),
            Pred::Not(p) => !p.eval(truth),
        }
    }
}

/// The atoms of the conditions met so far, by their tokens.
#[derive(Default)]
struct Atoms {
    atoms: Vec<TokenStream>,
    keys: Vec<String>,
    malformed: bool,
}

impl Atoms {
    fn pred(&mut self, meta: &syn::Meta) -> Option<Pred> {
        if let syn::Meta::List(l) = meta {
            let name = l.path.get_ident()?.to_string();
            if matches!(name.as_str(), "all" | "any" | "not") {
                let nested = l
                    .parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
                    .ok()?;
                let ps = nested
                    .iter()
                    .map(|m| self.pred(m))
                    .collect::<Option<Vec<_>>>()?;
                return match name.as_str() {
                    "all" => Some(Pred::All(ps)),
                    "any" => Some(Pred::Any(ps)),
                    _ => {
                        let mut ps = ps;
                        (ps.len() == 1).then(|| Pred::Not(Box::new(ps.remove(0))))
                    }
                };
            }
        }
        let tokens = meta.to_token_stream();
        let key = tokens.to_string();
        let i = match self.keys.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                self.keys.push(key);
                self.atoms.push(tokens);
                self.atoms.len() - 1
            }
        };
        Some(Pred::Atom(i))
    }

    /// The predicate of `attrs`' `cfg` attributes (all of them must hold), if any.
    fn of_attrs(&mut self, attrs: &[syn::Attribute]) -> Option<Pred> {
        let mut ps = Vec::new();
        for a in attrs.iter().filter(|a| a.path().is_ident("cfg")) {
            match a.parse_args::<syn::Meta>().ok().and_then(|m| self.pred(&m)) {
                Some(p) => ps.push(p),
                None => self.malformed = true,
            }
        }
        (!ps.is_empty()).then_some(Pred::All(ps))
    }
}

/// The attributes of a statement (`let`, an item, a macro, an expression statement).
fn stmt_attrs(s: &syn::Stmt) -> &[syn::Attribute] {
    match s {
        syn::Stmt::Local(l) => &l.attrs,
        syn::Stmt::Macro(m) => &m.attrs,
        syn::Stmt::Item(_) => &[], // an item nested in the body: rustc strips it itself
        syn::Stmt::Expr(e, _) => expr_attrs(e),
    }
}

fn expr_attrs(e: &syn::Expr) -> &[syn::Attribute] {
    match e {
        syn::Expr::Block(b) => &b.attrs,
        syn::Expr::If(i) => &i.attrs,
        syn::Expr::Match(m) => &m.attrs,
        syn::Expr::Loop(l) => &l.attrs,
        syn::Expr::While(w) => &w.attrs,
        syn::Expr::ForLoop(f) => &f.attrs,
        syn::Expr::Unsafe(u) => &u.attrs,
        syn::Expr::Call(c) => &c.attrs,
        syn::Expr::MethodCall(m) => &m.attrs,
        syn::Expr::Assign(a) => &a.attrs,
        syn::Expr::Binary(b) => &b.attrs,
        syn::Expr::Macro(m) => &m.attrs,
        syn::Expr::Path(p) => &p.attrs,
        syn::Expr::Return(r) => &r.attrs,
        syn::Expr::Struct(s) => &s.attrs,
        syn::Expr::Tuple(t) => &t.attrs,
        syn::Expr::Unary(u) => &u.attrs,
        syn::Expr::Lit(l) => &l.attrs,
        syn::Expr::Paren(p) => &p.attrs,
        _ => &[],
    }
}

fn impl_item_attrs(i: &syn::ImplItem) -> &[syn::Attribute] {
    match i {
        syn::ImplItem::Fn(f) => &f.attrs,
        syn::ImplItem::Const(c) => &c.attrs,
        syn::ImplItem::Type(t) => &t.attrs,
        syn::ImplItem::Macro(m) => &m.attrs,
        _ => &[],
    }
}

fn trait_item_attrs(i: &syn::TraitItem) -> &[syn::Attribute] {
    match i {
        syn::TraitItem::Fn(f) => &f.attrs,
        syn::TraitItem::Const(c) => &c.attrs,
        syn::TraitItem::Type(t) => &t.attrs,
        syn::TraitItem::Macro(m) => &m.attrs,
        _ => &[],
    }
}

/// Collects the atoms of every `cfg` the item's contents carry.
struct Collect<'a>(&'a mut Atoms);

impl<'ast> Visit<'ast> for Collect<'_> {
    fn visit_stmt(&mut self, s: &'ast syn::Stmt) {
        self.0.of_attrs(stmt_attrs(s));
        syn::visit::visit_stmt(self, s);
    }
    fn visit_arm(&mut self, a: &'ast syn::Arm) {
        self.0.of_attrs(&a.attrs);
        syn::visit::visit_arm(self, a);
    }
    fn visit_field_value(&mut self, f: &'ast syn::FieldValue) {
        self.0.of_attrs(&f.attrs);
        syn::visit::visit_field_value(self, f);
    }
    fn visit_impl_item(&mut self, i: &'ast syn::ImplItem) {
        self.0.of_attrs(impl_item_attrs(i));
        syn::visit::visit_impl_item(self, i);
    }
    fn visit_trait_item(&mut self, i: &'ast syn::TraitItem) {
        self.0.of_attrs(trait_item_attrs(i));
        syn::visit::visit_trait_item(self, i);
    }
    // An item nested in a body (`fn helper`) is expanded by rustc with its own `cfg`s.
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// Removes what an assignment turns off (and the `cfg`s of what it keeps).
struct Strip<'a> {
    atoms: &'a mut Atoms,
    truth: &'a [bool],
}

impl Strip<'_> {
    fn keep(&mut self, attrs: &[syn::Attribute]) -> bool {
        self.atoms
            .of_attrs(attrs)
            .is_none_or(|p| p.eval(self.truth))
    }
}

fn drop_cfgs(attrs: &mut Vec<syn::Attribute>) {
    attrs.retain(|a| !a.path().is_ident("cfg"));
}

impl VisitMut for Strip<'_> {
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        b.stmts.retain(|s| {
            let attrs = stmt_attrs(s).to_vec();
            self.keep(&attrs)
        });
        for s in &mut b.stmts {
            match s {
                syn::Stmt::Local(l) => drop_cfgs(&mut l.attrs),
                syn::Stmt::Macro(m) => drop_cfgs(&mut m.attrs),
                syn::Stmt::Expr(e, _) => {
                    if let Some(attrs) = expr_attrs_mut(e) {
                        drop_cfgs(attrs);
                    }
                }
                syn::Stmt::Item(_) => {}
            }
        }
        syn::visit_mut::visit_block_mut(self, b);
    }
    fn visit_expr_match_mut(&mut self, m: &mut syn::ExprMatch) {
        m.arms.retain(|a| {
            let attrs = a.attrs.clone();
            self.keep(&attrs)
        });
        for a in &mut m.arms {
            drop_cfgs(&mut a.attrs);
        }
        syn::visit_mut::visit_expr_match_mut(self, m);
    }
    fn visit_expr_struct_mut(&mut self, s: &mut syn::ExprStruct) {
        let fields = std::mem::take(&mut s.fields);
        for mut pair in fields.into_pairs() {
            let attrs = pair.value().attrs.clone();
            if self.keep(&attrs) {
                drop_cfgs(&mut pair.value_mut().attrs);
                let (v, p) = pair.into_tuple();
                s.fields.push_value(v);
                if let Some(p) = p {
                    s.fields.push_punct(p);
                }
            }
        }
        syn::visit_mut::visit_expr_struct_mut(self, s);
    }
    fn visit_item_impl_mut(&mut self, i: &mut syn::ItemImpl) {
        i.items.retain(|it| {
            let attrs = impl_item_attrs(it).to_vec();
            self.keep(&attrs)
        });
        for it in &mut i.items {
            if let Some(attrs) = impl_item_attrs_mut(it) {
                drop_cfgs(attrs);
            }
        }
        syn::visit_mut::visit_item_impl_mut(self, i);
    }
    fn visit_item_trait_mut(&mut self, t: &mut syn::ItemTrait) {
        t.items.retain(|it| {
            let attrs = trait_item_attrs(it).to_vec();
            self.keep(&attrs)
        });
        for it in &mut t.items {
            if let Some(attrs) = trait_item_attrs_mut(it) {
                drop_cfgs(attrs);
            }
        }
        syn::visit_mut::visit_item_trait_mut(self, t);
    }
    fn visit_stmt_mut(&mut self, s: &mut syn::Stmt) {
        // Items nested in a body keep their own `cfg`s.
        if !matches!(s, syn::Stmt::Item(_)) {
            syn::visit_mut::visit_stmt_mut(self, s);
        }
    }
}

fn impl_item_attrs_mut(i: &mut syn::ImplItem) -> Option<&mut Vec<syn::Attribute>> {
    Some(match i {
        syn::ImplItem::Fn(f) => &mut f.attrs,
        syn::ImplItem::Const(c) => &mut c.attrs,
        syn::ImplItem::Type(t) => &mut t.attrs,
        syn::ImplItem::Macro(m) => &mut m.attrs,
        _ => return None,
    })
}

fn trait_item_attrs_mut(i: &mut syn::TraitItem) -> Option<&mut Vec<syn::Attribute>> {
    Some(match i {
        syn::TraitItem::Fn(f) => &mut f.attrs,
        syn::TraitItem::Const(c) => &mut c.attrs,
        syn::TraitItem::Type(t) => &mut t.attrs,
        syn::TraitItem::Macro(m) => &mut m.attrs,
        _ => return None,
    })
}

fn expr_attrs_mut(e: &mut syn::Expr) -> Option<&mut Vec<syn::Attribute>> {
    Some(match e {
        syn::Expr::Block(b) => &mut b.attrs,
        syn::Expr::If(i) => &mut i.attrs,
        syn::Expr::Match(m) => &mut m.attrs,
        syn::Expr::Loop(l) => &mut l.attrs,
        syn::Expr::While(w) => &mut w.attrs,
        syn::Expr::ForLoop(f) => &mut f.attrs,
        syn::Expr::Unsafe(u) => &mut u.attrs,
        syn::Expr::Call(c) => &mut c.attrs,
        syn::Expr::MethodCall(m) => &mut m.attrs,
        syn::Expr::Assign(a) => &mut a.attrs,
        syn::Expr::Binary(b) => &mut b.attrs,
        syn::Expr::Macro(m) => &mut m.attrs,
        syn::Expr::Path(p) => &mut p.attrs,
        syn::Expr::Return(r) => &mut r.attrs,
        syn::Expr::Struct(s) => &mut s.attrs,
        syn::Expr::Tuple(t) => &mut t.attrs,
        syn::Expr::Unary(u) => &mut u.attrs,
        syn::Expr::Lit(l) => &mut l.attrs,
        syn::Expr::Paren(p) => &mut p.attrs,
        _ => return None,
    })
}

/// `expand` run once per configuration of the `cfg`s inside `item`, each output under its
/// configuration; `None` when the item has no `cfg` inside (or one this does not read, or
/// too many: then it expands as written).
pub fn split(
    item: &TokenStream,
    expand: impl Fn(TokenStream) -> TokenStream,
) -> Option<TokenStream> {
    let item: syn::Item = syn::parse2(item.clone()).ok()?;
    let mut atoms = Atoms::default();
    match &item {
        syn::Item::Fn(f) => Collect(&mut atoms).visit_block(&f.block),
        syn::Item::Impl(i) => i
            .items
            .iter()
            .for_each(|it| Collect(&mut atoms).visit_impl_item(it)),
        syn::Item::Trait(t) => t
            .items
            .iter()
            .for_each(|it| Collect(&mut atoms).visit_trait_item(it)),
        _ => return None,
    }
    let n = atoms.atoms.len();
    if n == 0 || n > MAX_ATOMS || atoms.malformed {
        return None;
    }
    let mut out = TokenStream::new();
    for bits in 0..1u32 << n {
        let truth: Vec<bool> = (0..n).map(|i| bits & (1 << i) != 0).collect();
        let mut stripped = item.clone();
        let mut strip = Strip {
            atoms: &mut atoms,
            truth: &truth,
        };
        match &mut stripped {
            syn::Item::Fn(f) => strip.visit_block_mut(&mut f.block),
            other => strip.visit_item_mut(other),
        }
        let conds =
            atoms.atoms.iter().zip(&truth).map(
                |(a, &t)| {
                    if t {
                        quote!(#a)
                    } else {
                        quote!(not(#a))
                    }
                },
            );
        let cfg = quote!(#[cfg(all(#(#conds),*))]);
        let expanded = expand(stripped.into_token_stream());
        let file: syn::File = syn::parse2(expanded).ok()?;
        for it in file.items {
            out.extend(quote!(#cfg #it));
        }
    }
    Some(out)
}
