//! `let mut it = x.iter().peekable();` read by `it.next()` and `it.peek()` (a tokenizer's
//! loop, `while let Some(x) = it.next() { if let Some(&y) = it.peek() { .. } }`): a cursor
//! over the slice. The `let` becomes
//!
//! ```text
//! let __fwdad_peek_src_it = &x[..];
//! let mut __fwdad_peek_k_it: usize = 0;
//! let mut __fwdad_peek_slot_it = __fwdad_peek_src_it.get(0);   // items by reference
//! ```
//!
//! `it.next()` is `{ let n = src.get(k); k += 1; n }` (`.cloned()` for `.copied()` or
//! `.cloned()` items), and `it.peek()` is `src.get(k)`, or for items by reference
//! `{ slot = src.get(k); slot.as_ref() }`: a `&&f64`, as `Peekable::peek` gives, held by
//! a local that lives as long as the iterator. The cursor's locals are found by name, so
//! they follow Rust's scopes.

use super::Lowerer;
use crate::callee::{Adaptor, PeekableFn};
use crate::splice::{fill, path_expr, Hole};
use quote::format_ident;

/// The generated names of the cursor of the iterator `name`.
struct Cursor {
    src: syn::Ident,
    k: syn::Ident,
    slot: syn::Ident,
}

fn cursor(name: &syn::Ident) -> Cursor {
    Cursor {
        src: format_ident!("__fwdad_peek_src_{}", name),
        k: format_ident!("__fwdad_peek_k_{}", name),
        slot: format_ident!("__fwdad_peek_slot_{}", name),
    }
}

/// The cursor's locals `it.next()` or `it.peek()` assigns, if `it` is a `peekable()`
/// iterator: loop-carried where the call is in a loop (an over-approximation: names not
/// bound outside the loop are no candidates).
pub(crate) fn cursor_names(m: &syn::ExprMethodCall) -> Vec<String> {
    let syn::Expr::Path(p) = super::place::strip(&m.receiver) else {
        return Vec::new();
    };
    match (
        p.path.get_ident(),
        PeekableFn::from_name(&m.method.to_string()),
    ) {
        (Some(name), Some(PeekableFn::Next | PeekableFn::Peek)) => {
            let c = cursor(name);
            vec![c.k.to_string(), c.slot.to_string()]
        }
        _ => Vec::new(),
    }
}

fn pat(ident: &syn::Ident, mutable: bool) -> syn::Pat {
    syn::Pat::Ident(syn::PatIdent {
        attrs: vec![],
        by_ref: None,
        mutability: mutable.then(Default::default),
        ident: ident.clone(),
        subpat: None,
    })
}

/// `x.iter().peekable()` (`true`: items by reference) or `x.iter().copied().peekable()` /
/// `.cloned()` (`false`), with its slice `x`.
fn peekable_of(e: &syn::Expr) -> Option<(&syn::Expr, bool)> {
    let syn::Expr::MethodCall(p) = super::place::strip(e) else {
        return None;
    };
    if PeekableFn::from_name(&p.method.to_string()) != Some(PeekableFn::Peekable)
        || !p.args.is_empty()
    {
        return None;
    }
    fn iter(e: &syn::Expr) -> Option<&syn::Expr> {
        match super::place::strip(e) {
            syn::Expr::MethodCall(m)
                if Adaptor::from_name(&m.method.to_string()) == Some(Adaptor::Iter)
                    && m.args.is_empty() =>
            {
                Some(&*m.receiver)
            }
            _ => None,
        }
    }
    if let Some(src) = iter(&p.receiver) {
        return Some((src, true));
    }
    match super::place::strip(&p.receiver) {
        syn::Expr::MethodCall(c)
            if matches!(
                Adaptor::from_name(&c.method.to_string()),
                Some(Adaptor::Copied | Adaptor::Cloned)
            ) && c.args.is_empty() =>
        {
            iter(&c.receiver).map(|src| (src, false))
        }
        _ => None,
    }
}

impl Lowerer<'_> {
    /// The `let`s of the cursor that stands for `let it = x.iter().peekable();`.
    pub(super) fn peekable_lets(&self, local: &syn::Local) -> Option<Vec<syn::Local>> {
        let syn::Pat::Ident(pi) = &local.pat else {
            return None;
        };
        let init = local.init.as_ref().filter(|i| i.diverge.is_none())?;
        let (src, refs) = peekable_of(&init.expr)?;
        let c = cursor(&pi.ident);
        let stmt = |template: syn::Expr, name: &syn::Ident, mutable: bool| syn::Local {
            attrs: vec![],
            let_token: Default::default(),
            pat: pat(name, mutable),
            init: Some(syn::LocalInit {
                eq_token: Default::default(),
                expr: Box::new(template),
                diverge: None,
            }),
            semi_token: Default::default(),
        };
        let slice = fill(
            syn::parse_quote!(&__fwdad_src[..]),
            &[("__fwdad_src", Hole::Expr(src))],
        );
        let mut lets = vec![
            stmt(slice, &c.src, false),
            stmt(syn::parse_quote!(0usize), &c.k, true),
        ];
        if refs {
            let first = fill(
                syn::parse_quote!(__fwdad_src.get(0)),
                &[("__fwdad_src", Hole::Expr(&path_expr(&c.src)))],
            );
            lets.push(stmt(first, &c.slot, true));
        }
        Some(lets)
    }

    /// Whether `m` is a method of an iterator [`peekable_lets`] stands for.
    pub(super) fn is_peekable_call(&self, m: &syn::ExprMethodCall) -> bool {
        match super::place::strip(&m.receiver) {
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|name| self.lookup(&cursor(name).k.to_string()).is_some()),
            _ => false,
        }
    }

    /// `it.next()` or `it.peek()` of an iterator [`peekable_lets`] stands for, read on its
    /// cursor; another method of it is an error.
    pub(super) fn desugar_peekable(&mut self, m: &syn::ExprMethodCall) -> Option<syn::Expr> {
        let syn::Expr::Path(p) = super::place::strip(&m.receiver) else {
            return None;
        };
        let name = p.path.get_ident()?;
        let c = cursor(name);
        self.lookup(&c.k.to_string())?;
        let refs = self.lookup(&c.slot.to_string()).is_some();
        let holes = [
            ("__fwdad_src", Hole::Expr(&path_expr(&c.src))),
            ("__fwdad_k", Hole::Expr(&path_expr(&c.k))),
            ("__fwdad_slot", Hole::Expr(&path_expr(&c.slot))),
        ];
        let method = PeekableFn::from_name(&m.method.to_string());
        let template: syn::Expr = match (method, m.args.is_empty(), refs) {
            (Some(PeekableFn::Next), true, true) => syn::parse_quote!({
                let __fwdad_next = __fwdad_src.get(__fwdad_k);
                __fwdad_k += 1;
                __fwdad_next
            }),
            (Some(PeekableFn::Next), true, false) => syn::parse_quote!({
                let __fwdad_next = __fwdad_src.get(__fwdad_k).cloned();
                __fwdad_k += 1;
                __fwdad_next
            }),
            (Some(PeekableFn::Peek), true, true) => syn::parse_quote!({
                __fwdad_slot = __fwdad_src.get(__fwdad_k);
                __fwdad_slot.as_ref()
            }),
            (Some(PeekableFn::Peek), true, false) => syn::parse_quote!(__fwdad_src.get(__fwdad_k)),
            _ => {
                let other = &m.method;
                self.diag.error_spanned(
                    &m.method,
                    format!("`#[derive_frule]` supports a `peekable()` iterator through `next()` and `peek()` only, not `{other}`: index the slice with a cursor of your own (`while k < x.len() {{ let v = x[k]; k += 1; .. }}`)"),
                );
                return None;
            }
        };
        Some(fill(template, &holes))
    }
}
