//! A local `VecDeque` (a delay line, a moving-average window, the lags of an ARMA
//! filter) read as the `Vec` of the same elements before lowering, since a queue has no
//! tangent type and a `Vec` does:
//!
//! ```text
//! let mut w: VecDeque<f64> = VecDeque::with_capacity(n);   let mut w: Vec<f64> = Vec::with_capacity(n);
//! VecDeque::new(), VecDeque::from(vec![..]), ::from(a)     Vec::new(), vec![..], (a).to_vec()
//! w.push_back(x), w.pop_back()                             w.push(x), w.pop()
//! w.push_front(x)                                          w.insert(0, x)
//! w.pop_front()                                            { w.reverse(); let f = w.pop(); w.reverse(); f }
//! w.front(), w.back(), w.front_mut(), w.back_mut()          w.first(), w.last(), ..
//! w.len(), w.iter(), w[i], for v in &w, ...                 the same
//! ```
//!
//! The elements are the same, in the same order, so every primal is the queue's bit for
//! bit (the front operations cost a pass over the elements instead of none). Only a local
//! the function binds once, by a `let` of a written `VecDeque` type or of a `VecDeque`
//! constructor, and uses only through those methods, indexing and `for` loops, is
//! rewritten; any other use (passed to a function, returned, `remove`, `rotate_left`,
//! `extend`) keeps it a queue, and a queue holding floats is then the error that says to
//! use a `Vec`.

use crate::callee::{Consumer, DequeFn, StdType};
use crate::splice::{fill, Hole};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// `block` with each such queue written as a `Vec`. `params` are the function's
/// parameters (names they bind are bound once more).
pub(super) fn deques_as_vecs<'a>(
    block: &syn::Block,
    params: impl Iterator<Item = &'a syn::FnArg>,
) -> syn::Block {
    let mut names = super::PatIdents::default();
    for p in params {
        names.visit_fn_arg(p);
    }
    names.visit_block(block);
    let bound: Vec<String> = names.0.iter().map(|p| p.ident.to_string()).collect();
    let mut found = Candidates(Vec::new());
    found.visit_block(block);
    let deques: Vec<String> = found
        .0
        .into_iter()
        .filter(|name| bound.iter().filter(|n| *n == name).count() == 1)
        .filter(|name| {
            let mut uses = Uses { name, ok: true };
            uses.visit_block(block);
            uses.ok
        })
        .collect();
    if deques.is_empty() {
        return block.clone();
    }
    let mut block = block.clone();
    Rewrite { deques }.visit_block_mut(&mut block);
    block
}

/// Whether `path` names the `VecDeque` type (`VecDeque`, `std::collections::VecDeque`).
fn is_deque_type_path(path: &syn::Path) -> bool {
    path.segments
        .last()
        .is_some_and(|s| StdType::from_name(&s.ident.to_string()) == Some(StdType::VecDeque))
}

/// The constructor `VecDeque::new()`, `VecDeque::with_capacity(n)`, `VecDeque::from(e)`.
fn deque_ctor(e: &syn::Expr) -> Option<DequeFn> {
    let syn::Expr::Call(call) = e else {
        return None;
    };
    let syn::Expr::Path(p) = &*call.func else {
        return None;
    };
    let segs = &p.path.segments;
    if p.qself.is_some() || segs.len() < 2 {
        return None;
    }
    if StdType::from_name(&segs[segs.len() - 2].ident.to_string()) != Some(StdType::VecDeque) {
        return None;
    }
    DequeFn::from_name(&segs[segs.len() - 1].ident.to_string()).filter(|f| f.constructs())
}

/// `iter.collect()` without a turbofish: it collects into the written type.
fn plain_collect(e: &syn::Expr) -> bool {
    matches!(e, syn::Expr::MethodCall(m)
        if m.turbofish.is_none()
            && Consumer::from_name(&m.method.to_string()) == Some(Consumer::Collect))
}

/// The name a `let` binds and its written type, when it binds one name.
fn let_name(local: &syn::Local) -> Option<(&syn::PatIdent, Option<&syn::Type>)> {
    let (pat, ty) = match &local.pat {
        syn::Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
        p => (p, None),
    };
    match pat {
        syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => Some((pi, ty)),
        _ => None,
    }
}

/// Whether `local` makes a queue this module rewrites: a written `VecDeque` type with a
/// constructor or a `collect()`, or an untyped constructor.
fn makes_deque(local: &syn::Local) -> Option<&syn::Ident> {
    let (pi, ty) = let_name(local)?;
    let init = local.init.as_ref().filter(|i| i.diverge.is_none())?;
    let typed = match ty {
        Some(syn::Type::Path(tp)) if tp.qself.is_none() && is_deque_type_path(&tp.path) => true,
        Some(_) => return None,
        None => false,
    };
    let ok = deque_ctor(&init.expr).is_some() || (typed && plain_collect(&init.expr));
    (ok && local.attrs.is_empty()).then_some(&pi.ident)
}

struct Candidates(Vec<String>);

impl<'ast> Visit<'ast> for Candidates {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let Some(name) = makes_deque(local) {
            self.0.push(name.to_string());
        }
        syn::visit::visit_local(self, local);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

fn is_name(e: &syn::Expr, name: &str) -> bool {
    matches!(e, syn::Expr::Path(p) if p.qself.is_none() && p.path.is_ident(name))
}

/// Whether every use of the queue `name` is one the `Vec` has the same meaning for.
struct Uses<'n> {
    name: &'n str,
    ok: bool,
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        match e {
            syn::Expr::MethodCall(m) if is_name(&m.receiver, self.name) => {
                let known =
                    DequeFn::from_name(&m.method.to_string()).is_some_and(|f| !f.constructs());
                if !known || m.turbofish.is_some() {
                    self.ok = false;
                }
                for a in &m.args {
                    self.visit_expr(a);
                }
            }
            syn::Expr::Index(ix) if is_name(&ix.expr, self.name) => self.visit_expr(&ix.index),
            syn::Expr::ForLoop(f) => {
                let iterable = match &*f.expr {
                    syn::Expr::Reference(r) => &*r.expr,
                    other => other,
                };
                if !is_name(iterable, self.name) {
                    self.visit_expr(&f.expr);
                }
                self.visit_block(&f.body);
            }
            e if is_name(e, self.name) => self.ok = false,
            _ => syn::visit::visit_expr(self, e),
        }
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// Writes each queue of `deques` as a `Vec`.
struct Rewrite {
    deques: Vec<String>,
}

impl Rewrite {
    fn is_deque(&self, e: &syn::Expr) -> bool {
        self.deques.iter().any(|n| is_name(e, n))
    }

    /// The constructor's `Vec` form.
    fn vec_ctor(&self, e: &syn::Expr) -> Option<syn::Expr> {
        let f = deque_ctor(e)?;
        let syn::Expr::Call(call) = e else {
            return None;
        };
        let span = call.func.span();
        match f {
            DequeFn::New | DequeFn::WithCapacity => {
                let mut call = call.clone();
                if let syn::Expr::Path(p) = &mut *call.func {
                    let last = p.path.segments.last()?.clone();
                    let mut vec =
                        syn::PathSegment::from(syn::Ident::new(StdType::Vec.name(), span));
                    vec.arguments = p.path.segments[p.path.segments.len() - 2].arguments.clone();
                    p.path.leading_colon = None;
                    p.path.segments = [vec, last].into_iter().collect();
                }
                Some(syn::Expr::Call(call))
            }
            DequeFn::From => {
                let arg = call.args.first()?;
                if matches!(arg, syn::Expr::Macro(_)) {
                    return Some(arg.clone());
                }
                let template: syn::Expr = syn::parse_quote!((__fwdad_a).to_vec());
                Some(fill(template, &[("__fwdad_a", Hole::Expr(arg))]))
            }
            _ => None,
        }
    }
}

impl VisitMut for Rewrite {
    fn visit_local_mut(&mut self, local: &mut syn::Local) {
        let rewrite = makes_deque(local).is_some_and(|n| self.deques.contains(&n.to_string()));
        syn::visit_mut::visit_local_mut(self, local);
        if !rewrite {
            return;
        }
        if let syn::Pat::Type(pt) = &mut local.pat {
            if let syn::Type::Path(tp) = &mut *pt.ty {
                if let Some(last) = tp.path.segments.last().cloned() {
                    let mut vec = last;
                    vec.ident = syn::Ident::new(StdType::Vec.name(), vec.ident.span());
                    tp.path.leading_colon = None;
                    tp.path.segments = std::iter::once(vec).collect();
                }
            }
        }
        if let Some(init) = &mut local.init {
            if let Some(e) = self.vec_ctor(&init.expr) {
                *init.expr = e;
            }
        }
    }

    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, e);
        let syn::Expr::MethodCall(m) = e else {
            return;
        };
        if !self.is_deque(&m.receiver) {
            return;
        }
        let Some(f) = DequeFn::from_name(&m.method.to_string()) else {
            return;
        };
        let span = m.method.span();
        if let Some(name) = f.vec_method() {
            m.method = syn::Ident::new(name, span);
        } else if f == DequeFn::PushFront {
            m.method = syn::Ident::new(crate::callee::StdMethod::Insert.name(), span);
            let zero = syn::Expr::Lit(syn::ExprLit {
                attrs: Vec::new(),
                lit: syn::Lit::Int(syn::LitInt::new("0", span)),
            });
            m.args.insert(0, zero);
        } else if f == DequeFn::PopFront {
            let template: syn::Expr = syn::parse_quote!({
                __fwdad_q.reverse();
                let __fwdad_front = __fwdad_q.pop();
                __fwdad_q.reverse();
                __fwdad_front
            });
            *e = fill(template, &[("__fwdad_q", Hole::Expr(&m.receiver))]);
        }
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
