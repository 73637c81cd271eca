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
//!
//! A plain `let mut it = x.iter();` (or `.copied()`, `.cloned()`) gets the same cursor
//! when the function reads `it` only through `it.next()` and as a `for` loop's iterable
//! (`let first = it.next().unwrap(); for v in it { .. }`): the loop runs over
//! `src[k..]` (`cursor_iterators` checks every use of the name).
//!
//! So does `let mut gates = z.chunks(h);` (also `chunks_exact(h)`, `windows(h)`), read by
//! `gates.next()` (an LSTM's four gates, `while let Some(w) = frames.next()`), with a third
//! local, the size, named by the method (`__fwdad_chunks_gates`): `next()` cuts the piece
//! `&src[k..end]` and moves `k` past it (by one for `windows`), and the rest is
//! `src[k..].chunks(h)`.

use super::Lowerer;
use crate::callee::{Adaptor, PartialRead, PeekableFn};
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

/// The iterators of pieces of a slice a cursor stands for (`x.chunks(h)`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pieces {
    Chunks,
    ChunksExact,
    Windows,
}

impl Pieces {
    const ALL: [Pieces; 3] = [Pieces::Chunks, Pieces::ChunksExact, Pieces::Windows];

    fn of(a: Adaptor) -> Option<Pieces> {
        match a {
            Adaptor::Chunks => Some(Pieces::Chunks),
            Adaptor::ChunksExact => Some(Pieces::ChunksExact),
            Adaptor::Windows => Some(Pieces::Windows),
            _ => None,
        }
    }

    /// The cursor's local that holds the size, by the method.
    fn size_local(self, name: &syn::Ident) -> syn::Ident {
        match self {
            Pieces::Chunks => format_ident!("__fwdad_chunks_{}", name),
            Pieces::ChunksExact => format_ident!("__fwdad_chunks_exact_{}", name),
            Pieces::Windows => format_ident!("__fwdad_windows_{}", name),
        }
    }
}

/// `x.chunks(h)`, `x.chunks_exact(h)`, `x.windows(h)`: the slice, the method and the size.
fn pieces_of(e: &syn::Expr) -> Option<(&syn::Expr, Pieces, &syn::Expr)> {
    match super::place::strip(e) {
        syn::Expr::MethodCall(m) if m.args.len() == 1 => {
            let kind = Pieces::of(Adaptor::from_name(&m.method.to_string())?)?;
            Some((&m.receiver, kind, &m.args[0]))
        }
        _ => None,
    }
}

/// The orders other than front to back one by one in which a cursor takes a slice's items:
/// `x.iter().step_by(k)` and `x.iter().rev()`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    StepBy,
    Rev,
}

impl Order {
    const ALL: [Order; 2] = [Order::StepBy, Order::Rev];

    /// The cursor's local that holds the step (for `rev`, a marker), by the method.
    fn local(self, name: &syn::Ident) -> syn::Ident {
        match self {
            Order::StepBy => format_ident!("__fwdad_step_by_{}", name),
            Order::Rev => format_ident!("__fwdad_rev_{}", name),
        }
    }
}

/// `x.iter().step_by(k)` / `x.iter().rev()` (also after `.copied()`, `.cloned()`): the
/// slice, whether items are by reference, the order and the step.
fn ordered_of(e: &syn::Expr) -> Option<(&syn::Expr, bool, Order, Option<&syn::Expr>)> {
    let syn::Expr::MethodCall(m) = super::place::strip(e) else {
        return None;
    };
    let (order, step) = match (Adaptor::from_name(&m.method.to_string())?, m.args.len()) {
        (Adaptor::StepBy, 1) => (Order::StepBy, Some(&m.args[0])),
        (Adaptor::Rev, 0) => (Order::Rev, None),
        _ => return None,
    };
    let (src, refs) = iter_of(&m.receiver)?;
    Some((src, refs, order, step))
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
/// `.cloned()` (`false`), with its slice `x`; with `plain`, also without `.peekable()`.
fn peekable_of(e: &syn::Expr, plain: bool) -> Option<(&syn::Expr, bool)> {
    let syn::Expr::MethodCall(p) = super::place::strip(e) else {
        return None;
    };
    if PeekableFn::from_name(&p.method.to_string()) != Some(PeekableFn::Peekable)
        || !p.args.is_empty()
    {
        return if plain { iter_of(e) } else { None };
    }
    iter_of(&p.receiver)
}

/// `x.iter()` (`true`) or `x.iter().copied()` / `.cloned()` (`false`), with its slice.
fn iter_of(e: &syn::Expr) -> Option<(&syn::Expr, bool)> {
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
    if let Some(src) = iter(e) {
        return Some((src, true));
    }
    match super::place::strip(e) {
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
        let plain = self.cursor_iters.contains(&pi.ident.to_string());
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
        // `let mut gates = z.chunks(h);`: the slice, the cursor, and the size (checked as
        // the method checks it, once).
        if let Some((src, kind, size)) = pieces_of(&init.expr).filter(|_| plain) {
            let slice = fill(
                syn::parse_quote!(&__fwdad_src[..]),
                &[("__fwdad_src", Hole::Expr(src))],
            );
            let check: syn::Expr = match kind {
                Pieces::Windows => syn::parse_quote!({
                    let __fwdad_size: usize = __fwdad_n;
                    ::core::assert!(__fwdad_size != 0, "window size must be non-zero");
                    __fwdad_size
                }),
                Pieces::Chunks | Pieces::ChunksExact => syn::parse_quote!({
                    let __fwdad_size: usize = __fwdad_n;
                    ::core::assert!(__fwdad_size != 0, "chunk size must be non-zero");
                    __fwdad_size
                }),
            };
            let check = fill(check, &[("__fwdad_n", Hole::Expr(size))]);
            return Some(vec![
                stmt(slice, &c.src, false),
                stmt(syn::parse_quote!(0usize), &c.k, true),
                stmt(check, &kind.size_local(&pi.ident), false),
            ]);
        }
        // `let mut it = x.iter().step_by(k);` (`rev()`): the slice, the cursor, the step
        // (checked as `step_by` checks it, once; for `rev`, a marker), and the slot of
        // items by reference.
        if let Some((src, refs, order, step)) = ordered_of(&init.expr).filter(|_| plain) {
            let slice = fill(
                syn::parse_quote!(&__fwdad_src[..]),
                &[("__fwdad_src", Hole::Expr(src))],
            );
            let third: syn::Expr = match step {
                Some(step) => fill(
                    syn::parse_quote!({
                        let __fwdad_step: usize = __fwdad_n;
                        ::core::assert!(__fwdad_step != 0, "assertion failed: step != 0");
                        __fwdad_step
                    }),
                    &[("__fwdad_n", Hole::Expr(step))],
                ),
                None => syn::parse_quote!(0usize),
            };
            let mut lets = vec![
                stmt(slice, &c.src, false),
                stmt(syn::parse_quote!(0usize), &c.k, true),
                stmt(third, &order.local(&pi.ident), false),
            ];
            if refs {
                lets.push(stmt(syn::parse_quote!(0usize), &c.slot, false));
            }
            return Some(lets);
        }
        let (src, refs) = peekable_of(&init.expr, plain)?;
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

    /// `e` with the iterator a cursor stands for, at the root of its chain, replaced by
    /// the items `next()` has not taken (`for v in it`, `it.enumerate()`, `it.sum()`);
    /// `None` if there is none, or the root's method is the cursor's own (`next`, `peek`).
    pub(super) fn cursor_chain(&self, e: &syn::Expr) -> Option<syn::Expr> {
        match super::place::strip(e) {
            syn::Expr::Path(_) => self.cursor_rest(e),
            syn::Expr::MethodCall(m) if self.cursor_count(m).is_some() => self.cursor_count(m),
            syn::Expr::MethodCall(m) => {
                if matches!(super::place::strip(&m.receiver), syn::Expr::Path(_))
                    && PeekableFn::from_name(&m.method.to_string()).is_some()
                {
                    return None;
                }
                let mut m = m.clone();
                m.receiver = Box::new(self.cursor_chain(&m.receiver)?);
                Some(syn::Expr::MethodCall(m))
            }
            _ => None,
        }
    }

    /// `it.by_ref().take(n)` read to its end by a consumer (`it.by_ref().take(3).sum()`,
    /// `it` a cursor's): the block that moves the cursor past the `n` items (fewer at the
    /// end) and runs the chain over them. `None` for any other expression.
    pub(super) fn cursor_by_ref_take(&self, e: &syn::Expr) -> Option<syn::Expr> {
        use crate::callee::Consumer;
        let syn::Expr::MethodCall(top) = super::place::strip(e) else {
            return None;
        };
        let consumer = Consumer::from_name(&top.method.to_string())?;
        if matches!(consumer, Consumer::Any | Consumer::All) {
            return None;
        }
        // Down the chain to `take(n)` on `it.by_ref()`, with how deep it is.
        let mut depth = 0;
        let mut cur = &*top.receiver;
        let (name, n) = loop {
            let syn::Expr::MethodCall(m) = super::place::strip(cur) else {
                return None;
            };
            if Adaptor::from_name(&m.method.to_string()) == Some(Adaptor::Take) && m.args.len() == 1
            {
                if let syn::Expr::MethodCall(r) = super::place::strip(&m.receiver) {
                    if is_by_ref(&r.method) && r.args.is_empty() {
                        let syn::Expr::Path(p) = super::place::strip(&r.receiver) else {
                            return None;
                        };
                        break (p.path.get_ident()?.clone(), &m.args[0]);
                    }
                }
            }
            // Only adaptors between the take and the consumer: each reads every item.
            Adaptor::from_name(&m.method.to_string()).filter(|a| {
                matches!(
                    a,
                    Adaptor::Map | Adaptor::Copied | Adaptor::Cloned | Adaptor::Enumerate
                )
            })?;
            depth += 1;
            cur = &m.receiver;
        };
        if !self.cursor_iters.contains(&name.to_string())
            || self.pieces(&name).is_some()
            || self.order(&name).is_some()
        {
            return None;
        }
        let c = cursor(&name);
        self.lookup(&c.k.to_string())?;
        let refs = self.cursor_has(&name, &c.slot);
        let items: syn::Expr = match refs {
            true => syn::parse_quote!(__fwdad_src[__fwdad_from..__fwdad_k].iter()),
            false => syn::parse_quote!(__fwdad_src[__fwdad_from..__fwdad_k].iter().copied()),
        };
        let holes = [
            ("__fwdad_src", Hole::Expr(&path_expr(&c.src))),
            ("__fwdad_k", Hole::Expr(&path_expr(&c.k))),
        ];
        let items = fill(items, &holes);
        let mut chain = syn::Expr::MethodCall(top.clone());
        replace_take(&mut chain, depth + 1, &items)?;
        let block: syn::Expr = syn::parse_quote!({
            let __fwdad_from: usize = __fwdad_k;
            __fwdad_k = ::core::cmp::min(__fwdad_k.saturating_add(__fwdad_n), __fwdad_src.len());
            __fwdad_chain
        });
        let more = [
            ("__fwdad_src", Hole::Expr(&path_expr(&c.src))),
            ("__fwdad_k", Hole::Expr(&path_expr(&c.k))),
            ("__fwdad_n", Hole::Expr(n)),
            ("__fwdad_chain", Hole::Expr(&chain)),
        ];
        Some(fill(block, &more))
    }

    /// The method `by_ref` of `it.by_ref()` in the chain `e`, `it` a cursor's iterator.
    pub(super) fn cursor_by_ref<'e>(&self, e: &'e syn::Expr) -> Option<&'e syn::Ident> {
        let mut cur = super::place::strip(e);
        while let syn::Expr::MethodCall(m) = cur {
            if let syn::Expr::Path(p) = super::place::strip(&m.receiver) {
                let name = p.path.get_ident()?;
                let cursor_ok = self.cursor_iters.contains(&name.to_string())
                    && self.lookup(&cursor(name).k.to_string()).is_some();
                return (is_by_ref(&m.method) && cursor_ok).then_some(&m.method);
            }
            cur = super::place::strip(&m.receiver);
        }
        None
    }

    /// `src[k..].iter()` (`.copied()` for items by value) for `it`, if a cursor stands for
    /// it: the items `next()` has not taken.
    fn cursor_rest(&self, iterable: &syn::Expr) -> Option<syn::Expr> {
        let syn::Expr::Path(p) = super::place::strip(iterable) else {
            return None;
        };
        // Not a `peekable()` one: its other methods are errors (`desugar_peekable`).
        let name = p.path.get_ident()?;
        if !self.cursor_iters.contains(&name.to_string()) {
            return None;
        }
        let c = cursor(name);
        self.lookup(&c.k.to_string())?;
        if let Some((kind, size)) = self.pieces(name) {
            let template: syn::Expr = match kind {
                Pieces::Chunks => syn::parse_quote!((&__fwdad_src[__fwdad_k..]).chunks(__fwdad_n)),
                Pieces::ChunksExact => {
                    syn::parse_quote!((&__fwdad_src[__fwdad_k..]).chunks_exact(__fwdad_n))
                }
                Pieces::Windows => {
                    syn::parse_quote!((&__fwdad_src[__fwdad_k..]).windows(__fwdad_n))
                }
            };
            return Some(fill(
                template,
                &[
                    ("__fwdad_src", Hole::Expr(&path_expr(&c.src))),
                    ("__fwdad_k", Hole::Expr(&path_expr(&c.k))),
                    ("__fwdad_n", Hole::Expr(&path_expr(&size))),
                ],
            ));
        }
        let refs = self.cursor_has(name, &c.slot);
        if let Some((order, local)) = self.order(name) {
            let template: syn::Expr = match (order, refs) {
                (Order::StepBy, true) => syn::parse_quote!(__fwdad_src
                    [::core::cmp::min(__fwdad_k, __fwdad_src.len())..]
                    .iter()
                    .step_by(__fwdad_n)),
                (Order::StepBy, false) => syn::parse_quote!(__fwdad_src
                    [::core::cmp::min(__fwdad_k, __fwdad_src.len())..]
                    .iter()
                    .copied()
                    .step_by(__fwdad_n)),
                (Order::Rev, true) => syn::parse_quote!(__fwdad_src
                    [..__fwdad_src.len() - ::core::cmp::min(__fwdad_k, __fwdad_src.len())]
                    .iter()
                    .rev()),
                (Order::Rev, false) => syn::parse_quote!(__fwdad_src
                    [..__fwdad_src.len() - ::core::cmp::min(__fwdad_k, __fwdad_src.len())]
                    .iter()
                    .copied()
                    .rev()),
            };
            return Some(fill(
                template,
                &[
                    ("__fwdad_src", Hole::Expr(&path_expr(&c.src))),
                    ("__fwdad_k", Hole::Expr(&path_expr(&c.k))),
                    ("__fwdad_n", Hole::Expr(&path_expr(&local))),
                ],
            ));
        }
        let template = match refs {
            true => syn::parse_quote!(__fwdad_src[__fwdad_k..].iter()),
            false => syn::parse_quote!(__fwdad_src[__fwdad_k..].iter().copied()),
        };
        Some(fill(
            template,
            &[
                ("__fwdad_src", Hole::Expr(&path_expr(&c.src))),
                ("__fwdad_k", Hole::Expr(&path_expr(&c.k))),
            ],
        ))
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
        let refs = self.cursor_has(name, &c.slot);
        let holes = [
            ("__fwdad_src", Hole::Expr(&path_expr(&c.src))),
            ("__fwdad_k", Hole::Expr(&path_expr(&c.k))),
            ("__fwdad_slot", Hole::Expr(&path_expr(&c.slot))),
        ];
        let method = PeekableFn::from_name(&m.method.to_string());
        if let Some((kind, size)) = self.pieces(name) {
            return self.desugar_pieces(m, kind, &c, &size);
        }
        if let Some((order, local)) = self.order(name) {
            return self.desugar_ordered(m, order, refs, &c, &local);
        }
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

impl Lowerer<'_> {
    /// `it.len()` of a cursor's iterator (`ExactSizeIterator`): the items it has left,
    /// from the slice's length and the cursor; and `it.remainder()` of `x.chunks_exact(n)`'s,
    /// the tail no chunk takes. `None` for any other call.
    fn cursor_count(&self, m: &syn::ExprMethodCall) -> Option<syn::Expr> {
        use crate::callee::{Rewrite, StdMethod};
        let syn::Expr::Path(p) = super::place::strip(&m.receiver) else {
            return None;
        };
        let name = p.path.get_ident()?;
        if !m.args.is_empty() || !self.cursor_iters.contains(&name.to_string()) {
            return None;
        }
        let c = cursor(name);
        self.lookup(&c.k.to_string())?;
        let method = m.method.to_string();
        let len = StdMethod::from_name(&method) == Some(StdMethod::Len);
        let remainder = Rewrite::from_name(&method) == Some(Rewrite::Remainder);
        let (template, n): (syn::Expr, Option<syn::Ident>) = match (
            self.pieces(name),
            self.order(name),
        ) {
            (Some((Pieces::ChunksExact, size)), _) if remainder => (
                syn::parse_quote!(
                    &__fwdad_src[__fwdad_src.len() - __fwdad_src.len() % __fwdad_n..]
                ),
                Some(size),
            ),
            _ if !len => return None,
            (Some((Pieces::Chunks, size)), _) => (
                syn::parse_quote!((__fwdad_src.len() - __fwdad_k + __fwdad_n - 1) / __fwdad_n),
                Some(size),
            ),
            (Some((Pieces::ChunksExact, size)), _) => (
                syn::parse_quote!((__fwdad_src.len() - __fwdad_k) / __fwdad_n),
                Some(size),
            ),
            (Some((Pieces::Windows, size)), _) => (
                syn::parse_quote!((__fwdad_src.len() - __fwdad_k + 1).saturating_sub(__fwdad_n)),
                Some(size),
            ),
            (None, Some((Order::StepBy, step))) => (
                syn::parse_quote!(
                    (__fwdad_src.len().saturating_sub(__fwdad_k) + __fwdad_n - 1) / __fwdad_n
                ),
                Some(step),
            ),
            (None, _) => (
                syn::parse_quote!(__fwdad_src.len().saturating_sub(__fwdad_k)),
                None,
            ),
        };
        let n = n.map(|n| path_expr(&n));
        let (src, k) = (path_expr(&c.src), path_expr(&c.k));
        let mut holes = vec![
            ("__fwdad_src", Hole::Expr(&src)),
            ("__fwdad_k", Hole::Expr(&k)),
        ];
        if let Some(n) = &n {
            holes.push(("__fwdad_n", Hole::Expr(n)));
        }
        Some(fill(template, &holes))
    }

    /// The method and the size's local of the cursor of `name`, if it stands for
    /// `x.chunks(h)` (`chunks_exact`, `windows`).
    fn pieces(&self, name: &syn::Ident) -> Option<(Pieces, syn::Ident)> {
        Pieces::ALL.into_iter().find_map(|kind| {
            let size = kind.size_local(name);
            self.cursor_has(name, &size).then_some((kind, size))
        })
    }

    /// The order and the step's local of the cursor of `name`, if it stands for
    /// `x.iter().step_by(k)` or `x.iter().rev()`.
    fn order(&self, name: &syn::Ident) -> Option<(Order, syn::Ident)> {
        Order::ALL.into_iter().find_map(|order| {
            let local = order.local(name);
            self.cursor_has(name, &local).then_some((order, local))
        })
    }

    /// `it.next()` of `let mut it = x.iter().step_by(k);` (the item at the cursor, which
    /// moves `k` on) or of `x.iter().rev()` (the `k`-th from the back).
    fn desugar_ordered(
        &mut self,
        m: &syn::ExprMethodCall,
        order: Order,
        refs: bool,
        c: &Cursor,
        local: &syn::Ident,
    ) -> Option<syn::Expr> {
        if PeekableFn::from_name(&m.method.to_string()) != Some(PeekableFn::Next)
            || !m.args.is_empty()
        {
            let other = &m.method;
            self.diag.error_spanned(
                &m.method,
                format!("`#[derive_frule]` supports an iterator `x.iter().step_by(k)` or `x.iter().rev()` bound by `let mut` through `next()`, `for` loops and chains over the rest, not `{other}`: index the slice with a cursor of your own (`x[k]`, `k += step`)"),
            );
            return None;
        }
        let template: syn::Expr = match order {
            Order::StepBy => syn::parse_quote!({
                let __fwdad_next = __fwdad_src.get(__fwdad_k);
                __fwdad_k = __fwdad_k.saturating_add(__fwdad_n);
                __fwdad_next
            }),
            Order::Rev => syn::parse_quote!({
                let __fwdad_next = if __fwdad_k < __fwdad_src.len() {
                    __fwdad_src.get(__fwdad_src.len() - 1 - __fwdad_k)
                } else {
                    ::core::option::Option::None
                };
                __fwdad_k = __fwdad_k.saturating_add(1);
                __fwdad_next
            }),
        };
        let template = match refs {
            true => template,
            false => fill(
                syn::parse_quote!(__fwdad_items.cloned()),
                &[("__fwdad_items", Hole::Expr(&template))],
            ),
        };
        Some(fill(
            template,
            &[
                ("__fwdad_src", Hole::Expr(&path_expr(&c.src))),
                ("__fwdad_k", Hole::Expr(&path_expr(&c.k))),
                ("__fwdad_n", Hole::Expr(&path_expr(local))),
            ],
        ))
    }

    /// Whether `local` (a size or a slot) is a local of the cursor bound to `name` now:
    /// bound after its position. A name bound again to another cursor (`let mut it =
    /// x.chunks(3);`, later `let mut it = y.windows(3);`) leaves the first one's locals in
    /// scope, under their own names; they are older than the second one's position.
    fn cursor_has(&self, name: &syn::Ident, local: &syn::Ident) -> bool {
        match (
            self.find(&cursor(name).k.to_string()),
            self.find(&local.to_string()),
        ) {
            (Some(k), Some(l)) => l > k,
            _ => false,
        }
    }

    /// `gates.next()` of `let mut gates = z.chunks(h);`: the next piece, cut from the
    /// slice at the cursor, which moves past it (by one for `windows`).
    fn desugar_pieces(
        &mut self,
        m: &syn::ExprMethodCall,
        kind: Pieces,
        c: &Cursor,
        size: &syn::Ident,
    ) -> Option<syn::Expr> {
        if PeekableFn::from_name(&m.method.to_string()) != Some(PeekableFn::Next)
            || !m.args.is_empty()
        {
            let other = &m.method;
            self.diag.error_spanned(
                &m.method,
                format!("`#[derive_frule]` supports an iterator of pieces of a slice (`chunks`, `chunks_exact`, `windows`) bound by `let mut` through `next()`, `for` loops and chains over the rest, not `{other}`: index the slice with a cursor of your own (`&x[k..k + h]`, `k += h`)"),
            );
            return None;
        }
        let template: syn::Expr = match kind {
            Pieces::Chunks => syn::parse_quote!({
                if __fwdad_k < __fwdad_src.len() {
                    let __fwdad_end: usize =
                        ::core::cmp::min(__fwdad_k.saturating_add(__fwdad_n), __fwdad_src.len());
                    let __fwdad_piece = &__fwdad_src[__fwdad_k..__fwdad_end];
                    __fwdad_k = __fwdad_end;
                    ::core::option::Option::Some(__fwdad_piece)
                } else {
                    ::core::option::Option::None
                }
            }),
            Pieces::ChunksExact => syn::parse_quote!({
                if __fwdad_n <= __fwdad_src.len() - __fwdad_k {
                    let __fwdad_end: usize = __fwdad_k + __fwdad_n;
                    let __fwdad_piece = &__fwdad_src[__fwdad_k..__fwdad_end];
                    __fwdad_k = __fwdad_end;
                    ::core::option::Option::Some(__fwdad_piece)
                } else {
                    ::core::option::Option::None
                }
            }),
            Pieces::Windows => syn::parse_quote!({
                if __fwdad_n <= __fwdad_src.len() - __fwdad_k {
                    let __fwdad_piece = &__fwdad_src[__fwdad_k..__fwdad_k + __fwdad_n];
                    __fwdad_k += 1;
                    ::core::option::Option::Some(__fwdad_piece)
                } else {
                    ::core::option::Option::None
                }
            }),
        };
        Some(fill(
            template,
            &[
                ("__fwdad_src", Hole::Expr(&path_expr(&c.src))),
                ("__fwdad_k", Hole::Expr(&path_expr(&c.k))),
                ("__fwdad_n", Hole::Expr(&path_expr(size))),
            ],
        ))
    }
}

/// The names bound by `let mut it = x.iter()` (`.copied()`, `.cloned()`) that the function
/// reads only as `it.next()`, as a `for` loop's iterable and as the root of a chain of other
/// methods (`it.enumerate()`, `it.map(..).sum()`): those a cursor can stand for.
/// Any other use of the name anywhere (passed on, another adaptor, a shadowing binding
/// read otherwise) keeps the iterator as it is.
pub(crate) fn cursor_iterators(item: &syn::ItemFn) -> std::collections::HashSet<String> {
    use syn::visit::Visit;
    #[derive(Default)]
    struct Scan {
        candidates: std::collections::HashSet<String>,
        ok_uses: std::collections::HashMap<String, usize>,
        all_uses: std::collections::HashMap<String, usize>,
    }
    fn name(e: &syn::Expr) -> Option<String> {
        match super::place::strip(e) {
            syn::Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
            _ => None,
        }
    }
    impl<'a> Visit<'a> for Scan {
        fn visit_local(&mut self, l: &'a syn::Local) {
            if let (syn::Pat::Ident(pi), Some(init)) = (&l.pat, &l.init) {
                if pi.mutability.is_some()
                    && (iter_of(&init.expr).is_some()
                        || pieces_of(&init.expr).is_some()
                        || ordered_of(&init.expr).is_some())
                {
                    self.candidates.insert(pi.ident.to_string());
                }
            }
            syn::visit::visit_local(self, l);
        }
        fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
            // `it.next()`, or the root of a chain over the rest (`it.enumerate()`,
            // `it.sum()`), which `cursor_chain` rewrites; not `peek` (no `peekable()`), nor
            // a method that reads part of the items and leaves `it` to be read on
            // (`it.nth(1)`, `it.find(..)`: the cursor would not move past them).
            let method = PeekableFn::from_name(&m.method.to_string());
            let partial = PartialRead::from_name(&m.method.to_string()).is_some();
            if method == Some(PeekableFn::Next) && m.args.is_empty() || method.is_none() && !partial
            {
                if let Some(n) = name(&m.receiver) {
                    *self.ok_uses.entry(n).or_default() += 1;
                }
            }
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_for_loop(&mut self, f: &'a syn::ExprForLoop) {
            if let Some(n) = name(&f.expr) {
                *self.ok_uses.entry(n).or_default() += 1;
            }
            syn::visit::visit_expr_for_loop(self, f);
        }
        fn visit_expr_path(&mut self, p: &'a syn::ExprPath) {
            if let Some(i) = p.path.get_ident() {
                *self.all_uses.entry(i.to_string()).or_default() += 1;
            }
        }
        fn visit_macro(&mut self, m: &'a syn::Macro) {
            // A name inside a macro's tokens is a use the scan cannot classify.
            for t in m.tokens.clone() {
                if let proc_macro2::TokenTree::Ident(i) = t {
                    *self.all_uses.entry(i.to_string()).or_default() += 2;
                }
            }
        }
    }
    let mut scan = Scan::default();
    scan.visit_item_fn(item);
    scan.candidates
        .into_iter()
        .filter(|n| {
            let ok = scan.ok_uses.get(n).copied().unwrap_or(0);
            ok > 0 && scan.all_uses.get(n).copied().unwrap_or(0) == ok
        })
        .collect()
}

/// In the chain `e`, the call `depth` calls down (the `take(n)`) replaced by `with`.
fn replace_take(e: &mut syn::Expr, depth: usize, with: &syn::Expr) -> Option<()> {
    let mut e = e;
    while let syn::Expr::Paren(p) = e {
        e = &mut p.expr;
    }
    if depth == 0 {
        *e = with.clone();
        return Some(());
    }
    let syn::Expr::MethodCall(m) = e else {
        return None;
    };
    replace_take(&mut m.receiver, depth - 1, with)
}

/// `Iterator::by_ref`, by the registry's name.
fn is_by_ref(method: &syn::Ident) -> bool {
    crate::callee::StdMethod::from_name(&method.to_string())
        == Some(crate::callee::StdMethod::ByRef)
}
