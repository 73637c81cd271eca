//! A local bound to a function item, made the function's name before lowering:
//! `let g = square; g(x)` is `square(x)`, and `let act = f64::tanh;` then
//! `xs.iter().map(|v| act(*v))` calls `f64::tanh`. A function item has no state, so the
//! name and the binding mean the same, and calls by name are what the lowering reads
//! (a local function value can only be a parameter or a call's result there).
//!
//! Only an immutable binding of a path that names no local (a snake_case name, or a path
//! whose last segment is one: `physics::drag`, `f64::sin`) is rewritten, and only when
//! its name is bound nowhere else in the function, so no shadowing can be crossed.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// `block` with the later uses of each such binding in the block replaced by the path. `params` are the function's parameters (names they bind are locals).
pub(super) fn inline_fn_aliases<'a>(
    block: &syn::Block,
    params: impl Iterator<Item = &'a syn::FnArg>,
) -> syn::Block {
    let mut names = super::PatIdents::default();
    for p in params {
        names.visit_fn_arg(p);
    }
    names.visit_block(block);
    let bound: Vec<String> = names.0.iter().map(|p| p.ident.to_string()).collect();
    let mut block = block.clone();
    Aliases { bound }.visit_block_mut(&mut block);
    block
}

struct Aliases {
    /// Every name a pattern binds in the function, once per binding.
    bound: Vec<String>,
}

impl Aliases {
    /// `(name, path)` when `stmt` is `let name = path;` (or `let name: T = path;`) of a
    /// function item.
    fn alias(&self, stmt: &syn::Stmt) -> Option<(syn::Ident, syn::ExprPath)> {
        let syn::Stmt::Local(local) = stmt else {
            return None;
        };
        let init = local.init.as_ref().filter(|i| i.diverge.is_none())?;
        let pat = match &local.pat {
            syn::Pat::Type(pt) => &*pt.pat,
            p => p,
        };
        let syn::Pat::Ident(pi) = pat else {
            return None;
        };
        if pi.by_ref.is_some() || pi.mutability.is_some() || pi.subpat.is_some() {
            return None;
        }
        let syn::Expr::Path(path) = &*init.expr else {
            return None;
        };
        if path.qself.is_some() || !local.attrs.is_empty() {
            return None;
        }
        let last = path.path.segments.last()?;
        let snake = last
            .ident
            .to_string()
            .starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
        let names_local =
            path.path.segments.len() == 1 && self.bound.contains(&last.ident.to_string());
        let name = pi.ident.to_string();
        let once = self.bound.iter().filter(|n| **n == name).count() == 1;
        (snake && !names_local && once).then(|| (pi.ident.clone(), path.clone()))
    }
}

impl VisitMut for Aliases {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        // The binding stays (a macro's tokens may name it); its uses become the path.
        for i in 0..block.stmts.len() {
            if let Some((name, path)) = self.alias(&block.stmts[i]) {
                let mut with = Replace { name, path };
                for s in &mut block.stmts[i + 1..] {
                    with.visit_stmt_mut(s);
                }
            }
        }
        syn::visit_mut::visit_block_mut(self, block);
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// `e` with the path expression `name` replaced by `path` (a function item's), also among
/// macros' tokens.
pub(super) fn replace_name(e: &syn::Expr, name: &syn::Ident, path: &syn::ExprPath) -> syn::Expr {
    let mut e = e.clone();
    Replace {
        name: name.clone(),
        path: path.clone(),
    }
    .visit_expr_mut(&mut e);
    e
}

/// Replaces the path expression `name` by `path`.
struct Replace {
    name: syn::Ident,
    path: syn::ExprPath,
}

impl VisitMut for Replace {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if let syn::Expr::Path(p) = e {
            if p.qself.is_none() && p.path.is_ident(&self.name) {
                let mut path = self.path.clone();
                // Spans of the use, so errors point where the name was written.
                let span = syn::spanned::Spanned::span(&p.path);
                for seg in &mut path.path.segments {
                    seg.ident.set_span(span);
                }
                *e = syn::Expr::Path(path);
                return;
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }

    /// `assert!(g(x) > 0.0)`: the name among a macro's tokens (not after `.` or `::`).
    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        m.tokens = self.replace_tokens(std::mem::take(&mut m.tokens));
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

impl Replace {
    fn replace_tokens(&self, tokens: TokenStream) -> TokenStream {
        let mut out = TokenStream::new();
        let mut after_path_or_dot = false;
        for t in tokens {
            let next_after =
                matches!(&t, TokenTree::Punct(p) if p.as_char() == '.' || p.as_char() == ':');
            match t {
                TokenTree::Ident(i) if i == self.name && !after_path_or_dot => {
                    let mut path = self.path.clone();
                    for seg in &mut path.path.segments {
                        seg.ident.set_span(i.span());
                    }
                    out.extend(path.to_token_stream());
                }
                TokenTree::Group(g) => {
                    let mut inner =
                        proc_macro2::Group::new(g.delimiter(), self.replace_tokens(g.stream()));
                    inner.set_span(g.span());
                    out.extend([TokenTree::Group(inner)]);
                }
                other => out.extend([other]),
            }
            after_path_or_dot = next_after;
        }
        out
    }
}
