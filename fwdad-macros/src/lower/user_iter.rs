//! Iterators of the user's (`impl Iterator for Linspace`, `#[derive_frule]` on the impl):
//! `for t in Linspace::new(a, b, n)` and `for (k, t) in grid.enumerate()` become
//! `while let Some(t) = it.next()` loops (a counter for `enumerate`), which run the
//! user's `next` rule exactly as the plain loop calls `next`; a chain over one
//! (`Linspace::new(0.0, b, n).map(f).sum()`) gathers the items into a `Vec` first, then
//! runs the chain over it. Gathering reads the iterator to its end, as the chain does,
//! unless a `take(n)` right after it bounds the gathering; a stage or a loop that may stop
//! before the end (`take_while`, `zip`, `any`, a `break` in the body) is an error without
//! that bound, since an endless iterator would never stop being gathered.

use super::place::strip;
use super::user_ops::UserShape;
use super::Lowerer;
use crate::callee::{Adaptor, Consumer};
use crate::ir::{InstKind, Value, ValueDef};
use crate::splice::{fill, Hole};
use crate::types::TypeHint;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// The user's iterator read by a chain: its value, the stage right after it, and how
/// deep in the chain that stage is.
struct Source<'e> {
    /// The iterator value (`Linspace::new(0.0, b, n)`, `grid`).
    base: &'e syn::Expr,
    /// `take(n)` right after it: gathering stops after `n` items.
    bound: Option<&'e syn::Expr>,
    /// How many method calls lie above the stage right after the iterator.
    depth: usize,
}

impl Lowerer<'_> {
    /// Whether `e` is a value of a type of the user's, by what the syntax says: a local
    /// whose type is written as the user's or that `Ty::new(..)` gave, `Ty::new(..)` of a
    /// type `Ty` of the user's, or a struct literal of one.
    fn is_user_iterator_value(&self, e: &syn::Expr) -> bool {
        match strip(e) {
            syn::Expr::Path(p) if p.qself.is_none() => p
                .path
                .get_ident()
                .and_then(|id| self.lookup(&id.to_string()))
                .is_some_and(|v| {
                    // Not a map, a sequence or a library value, whose own iterators
                    // `for` reads.
                    let unknown = self.func.values[v].ty == TypeHint::Unknown;
                    unknown
                        && !self.is_written_lib(v)
                        && (self.written_user.contains(&v) || self.made_by_new(v))
                }),
            syn::Expr::Call(c) => match strip(&c.func) {
                syn::Expr::Path(p) if p.qself.is_none() => self.is_user_new(&p.path),
                _ => false,
            },
            syn::Expr::Struct(s) => self.is_user_type_path(&s.path),
            _ => false,
        }
    }

    /// `Ty::new` of a type of the user's.
    pub(super) fn is_user_new(&self, path: &syn::Path) -> bool {
        // Not `Vec::new()`, `HashMap::new()`, ...: `std`'s types are no user's.
        let mut owner = path.clone();
        owner.segments.pop();
        owner.segments.pop_punct();
        path.segments.len() >= 2
            && crate::callee::is_constructor_name(path)
            && crate::callee::StdType::of_path(&owner).is_none()
            && self.owner_is_user_type(path)
    }

    /// Whether `v` is the result of `Ty::new(..)` of a type of the user's.
    fn made_by_new(&self, v: Value) -> bool {
        let ValueDef::Inst(inst, 0) = self.func.values[v].def else {
            return false;
        };
        match &self.func.insts[inst].kind {
            InstKind::Call { func, .. } => self.is_user_new(func),
            InstKind::Copy(a) => self.made_by_new(*a),
            _ => false,
        }
    }

    /// The user's iterator at the bottom of the chain `e`, read by an adaptor of `std`'s
    /// `Iterator` (`enumerate`, `map`, `take`, ...; not `iter`/`chunks`/`rev`, which a
    /// container of the user's may have), and the stages of the chain.
    fn user_iterator_source<'e>(&self, e: &'e syn::Expr) -> Option<(Source<'e>, Vec<Adaptor>)> {
        let mut stages = Vec::new();
        let mut cur = strip(e);
        let mut depth = 0;
        while let syn::Expr::MethodCall(m) = cur {
            let adaptor = Adaptor::from_name(&m.method.to_string());
            if self.is_user_iterator_value(&m.receiver) {
                let adaptor = adaptor?;
                if matches!(
                    adaptor,
                    Adaptor::Iter
                        | Adaptor::IterMut
                        | Adaptor::IntoIter
                        | Adaptor::Windows
                        | Adaptor::Chunks
                        | Adaptor::ChunksExact
                        | Adaptor::ChunksMut
                        | Adaptor::ChunksExactMut
                        | Adaptor::Rev
                ) {
                    return None;
                }
                let bound = (adaptor == Adaptor::Take && m.args.len() == 1).then(|| &m.args[0]);
                if bound.is_none() {
                    stages.push(adaptor);
                }
                let base = &*m.receiver;
                return Some((Source { base, bound, depth }, stages));
            }
            stages.extend(adaptor);
            depth += 1;
            cur = strip(&m.receiver);
        }
        None
    }

    /// `for pat in it` and `for (k, pat) in it.enumerate()` of the user's iterator `it`: a
    /// `while let` loop calling its `next`; a `for` over another chain over it: its items
    /// gathered first. `None` when the loop reads no iterator of the user's.
    pub(crate) fn lower_for_user_iterator(
        &mut self,
        f: &syn::ExprForLoop,
    ) -> Option<Option<Value>> {
        let span = f.expr.span();
        if self.is_user_iterator_value(&f.expr) {
            let lp: syn::Expr = syn::parse_quote_spanned!(span=>
                while let ::core::option::Option::Some(__fwdad_item) = __fwdad_it.next() {
                    __fwdad_body
                }
            );
            let lp = fill(lp, &[("__fwdad_item", Hole::Pat(&f.pat))]);
            return Some(self.lower_while_next(&f.expr, false, f, lp));
        }
        if let syn::Expr::MethodCall(m) = strip(&f.expr) {
            let enumerates = Adaptor::from_name(&m.method.to_string()) == Some(Adaptor::Enumerate)
                && m.args.is_empty();
            if let (true, syn::Pat::Tuple(t)) = (enumerates, &*f.pat) {
                if t.elems.len() == 2 && self.is_user_iterator_value(&m.receiver) {
                    let lp: syn::Expr = syn::parse_quote_spanned!(span=>
                        while let ::core::option::Option::Some(__fwdad_item) = __fwdad_it.next() {
                            let __fwdad_k = __fwdad_count;
                            __fwdad_count += 1;
                            __fwdad_body
                        }
                    );
                    let lp = fill(
                        lp,
                        &[
                            ("__fwdad_item", Hole::Pat(&t.elems[1])),
                            ("__fwdad_k", Hole::Pat(&t.elems[0])),
                        ],
                    );
                    return Some(self.lower_while_next(&m.receiver, true, f, lp));
                }
            }
        }
        let (source, stages) = self.user_iterator_source(&f.expr)?;
        if source.bound.is_none() && (may_stop_early(&stages) || body_may_leave(&f.body)) {
            return Some(Some(self.stops_early_error(source.base, span)));
        }
        let (mut stmts, rest) = gather(&f.expr, &source)?;
        let mut f = f.clone();
        f.expr = Box::new(rest);
        stmts.push(syn::Stmt::Expr(syn::Expr::ForLoop(f), None));
        Some(self.lower_with_user_iterator(source.base, &stmts, span))
    }

    /// A consumer (`sum`, `fold`, `collect`, ...) of a chain over the user's iterator: its
    /// items gathered first. `None` when the chain reads no iterator of the user's.
    pub(crate) fn lower_consumer_of_user_iterator(
        &mut self,
        m: &syn::ExprMethodCall,
    ) -> Option<Option<Value>> {
        let consumer = Consumer::from_name(&m.method.to_string())?;
        let span = m.span();
        // The consumer right on the iterator (`Steps::new(..).sum::<f64>()`): it reads the
        // gathered items in the iterator's place. Only where the call is `Iterator`'s by its
        // form (a turbofish, a closure, `collect`): a type of the user's may have a method
        // `sum(&self)` or `count(&self)` of its own.
        let iterator_form = m.turbofish.is_some()
            || consumer == Consumer::Collect
            || (consumer.takes_closure()
                && m.args
                    .iter()
                    .any(|a| matches!(strip(a), syn::Expr::Closure(_))));
        let (source, stages) = if iterator_form && self.is_user_iterator_value(&m.receiver) {
            let base = &*m.receiver;
            (
                Source {
                    base,
                    bound: None,
                    depth: 0,
                },
                Vec::new(),
            )
        } else {
            let (source, stages) = self.user_iterator_source(&m.receiver)?;
            // The depth is counted from the consumer's receiver: one more from the consumer.
            let depth = source.depth + 1;
            (Source { depth, ..source }, stages)
        };
        let stops = matches!(consumer, Consumer::Any | Consumer::All) || may_stop_early(&stages);
        if source.bound.is_none() && stops {
            return Some(Some(self.stops_early_error(source.base, span)));
        }
        let (mut stmts, rest) = gather(&syn::Expr::MethodCall(m.clone()), &source)?;
        stmts.push(syn::Stmt::Expr(rest, None));
        Some(self.lower_with_user_iterator(source.base, &stmts, span))
    }

    fn stops_early_error(&mut self, base: &syn::Expr, span: Span) -> Value {
        self.diag.error_spanned(
            base,
            "`#[derive_frule]` reads an iterator of yours in a chain by gathering its items first, and this chain or loop may stop before the iterator ends (`take_while`, `zip`, `any`, `all`, a `break`, `return` or `?` in the loop): bound it with `.take(n)` right after it, or write the loop with the iterator's type written: `let mut it: Schedule = ..;`, then `while let Some(x) = it.next() { .. }`",
        );
        self.poison(span)
    }

    /// `for` over the user's iterator `base` as the `while let` loop `lp` (its body
    /// `__fwdad_body`, its counter `__fwdad_count` from 0 where `counts`).
    fn lower_while_next(
        &mut self,
        base: &syn::Expr,
        counts: bool,
        f: &syn::ExprForLoop,
        lp: syn::Expr,
    ) -> Option<Value> {
        let span = f.expr.span();
        let body = syn::Expr::Block(syn::ExprBlock {
            attrs: Vec::new(),
            label: None,
            block: f.body.clone(),
        });
        let mut lp = fill(lp, &[("__fwdad_body", Hole::Expr(&body))]);
        if let syn::Expr::While(w) = &mut lp {
            w.label = f.label.clone();
        }
        let mut stmts = Vec::new();
        if counts {
            stmts.push(syn::parse_quote_spanned!(span=> let mut __fwdad_count: usize = 0;));
        }
        stmts.push(syn::Stmt::Expr(lp, None));
        self.lower_with_user_iterator(base, &stmts, span)
    }

    /// `let mut __fwdad_it = base;` typed the user's (so that `next` is its rule), then
    /// `stmts`, in one scope.
    fn lower_with_user_iterator(
        &mut self,
        base: &syn::Expr,
        stmts: &[syn::Stmt],
        span: Span,
    ) -> Option<Value> {
        let template: syn::Expr = syn::parse_quote_spanned!(span=> {
            let mut __fwdad_it = __fwdad_base;
        });
        let syn::Expr::Block(b) = fill(template, &[("__fwdad_base", Hole::Expr(base))]) else {
            return None;
        };
        self.push_scope();
        let v = self.lower_block_stmts(&b.block.stmts, span).and_then(|_| {
            let it = self.lookup("__fwdad_it")?;
            self.written_user.insert(it);
            self.user.insert(it, UserShape::Value);
            self.lower_block_stmts(stmts, span)
        });
        self.pop_scope();
        v
    }
}

/// Whether a stage may end the chain before its source ends.
fn may_stop_early(stages: &[Adaptor]) -> bool {
    stages.iter().any(|a| {
        matches!(
            a,
            Adaptor::TakeWhile | Adaptor::MapWhile | Adaptor::Zip | Adaptor::Take
        )
    })
}

/// Whether a loop body may leave the loop before the iterator ends (`break`, `return`, `?`).
fn body_may_leave(body: &syn::Block) -> bool {
    struct Leaves(bool);
    impl<'a> syn::visit::Visit<'a> for Leaves {
        fn visit_expr_break(&mut self, _: &'a syn::ExprBreak) {
            self.0 = true;
        }
        fn visit_expr_return(&mut self, _: &'a syn::ExprReturn) {
            self.0 = true;
        }
        fn visit_expr_try(&mut self, _: &'a syn::ExprTry) {
            self.0 = true;
        }
        // A closure's `return` leaves the closure.
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    }
    let mut v = Leaves(false);
    syn::visit::visit_block(&mut v, body);
    v.0
}

/// The statements gathering the user's iterator `__fwdad_it` into `__fwdad_items` (at
/// most the bound's count), and `e` reading `__fwdad_items.iter().cloned()` in its place.
fn gather(e: &syn::Expr, source: &Source<'_>) -> Option<(Vec<syn::Stmt>, syn::Expr)> {
    let span = source.base.span();
    let template: syn::Expr = match source.bound {
        Some(_) => syn::parse_quote_spanned!(span=> {
            let __fwdad_n: usize = __fwdad_bound;
            let mut __fwdad_items = ::std::vec::Vec::new();
            while __fwdad_items.len() < __fwdad_n {
                match __fwdad_it.next() {
                    ::core::option::Option::Some(__fwdad_x) => __fwdad_items.push(__fwdad_x),
                    ::core::option::Option::None => break,
                }
            }
        }),
        None => syn::parse_quote_spanned!(span=> {
            let mut __fwdad_items = ::std::vec::Vec::new();
            while let ::core::option::Option::Some(__fwdad_x) = __fwdad_it.next() {
                __fwdad_items.push(__fwdad_x);
            }
        }),
    };
    let holes: Vec<_> = source
        .bound
        .map(|b| ("__fwdad_bound", Hole::Expr(b)))
        .into_iter()
        .collect();
    let syn::Expr::Block(gather) = fill(template, &holes) else {
        return None;
    };
    let items: syn::Expr = syn::parse_quote_spanned!(span=> __fwdad_items.iter().cloned());
    let mut out = e.clone();
    replace_at(&mut out, source.depth, source.bound.is_some(), &items)?;
    Some((gather.block.stmts, out))
}

/// In the chain `e`, the method call `depth` calls down: replaced by `with` (`replace`),
/// or its receiver replaced by `with`.
fn replace_at(e: &mut syn::Expr, depth: usize, replace: bool, with: &syn::Expr) -> Option<()> {
    let e = strip_mut(e);
    if depth > 0 {
        let syn::Expr::MethodCall(m) = e else {
            return None;
        };
        return replace_at(&mut m.receiver, depth - 1, replace, with);
    }
    match e {
        syn::Expr::MethodCall(_) if replace => *e = with.clone(),
        syn::Expr::MethodCall(m) => *m.receiver = with.clone(),
        _ => return None,
    }
    Some(())
}

fn strip_mut(e: &mut syn::Expr) -> &mut syn::Expr {
    match e {
        syn::Expr::Paren(p) => strip_mut(&mut p.expr),
        syn::Expr::Group(g) => strip_mut(&mut g.expr),
        other => other,
    }
}
