//! A list of closures written in the body and iterated by a `for` loop: basis functions
//! summed with weights, the activations of a network's layers.
//!
//! ```text
//! let basis: Vec<Box<dyn Fn(f64) -> f64>> = vec![Box::new(|t| 1.0), Box::new(|t| t.sin())];
//! for (phi, wk) in basis.iter().zip(w) { y += wk * phi(t); }
//! ```
//!
//! A closure has no tangent type, so the list is never built: each element is bound as a
//! `let` closure where the list is written (`let <hidden k> = |t| ..;`, with what it
//! borrows there), and the loop runs over the positions, binding the loop's name to the
//! element of each position in an arm of a `match` (a `let` closure called where it is
//! called, as Rust calls it). The loop keeps its `break`, `continue` and label. A call of
//! an element by its position (`basis[k](x)`) is a `match` on the position calling each
//! element in its arm. Other uses of the list than these, the chains ending in a sum, a
//! product or a `collect`, and `len()` are reported at the use.

use super::place::strip;
use super::Lowerer;
use crate::callee::{Adaptor, Consumer, StdMacro, StdMethod, StdType, TypeClass};
use crate::ir::Value;
use crate::splice::{fill, path_expr, Hole};
use syn::spanned::Spanned;

/// The elements of a list bound by `let`, in order.
pub(crate) type FnList = Vec<FnElem>;

/// An element of a list of functions: a closure, bound by a `let` of its own (the hidden
/// name), or a function item named by its path (`f64::sin`, `g`), which has no state and is
/// called by its path where the loop calls the element.
#[derive(Clone)]
pub(crate) enum FnElem {
    Closure(syn::Ident),
    Item(syn::ExprPath),
}

/// An element of a list as written: a closure, or a function item's path.
enum Written {
    Closure(syn::ExprClosure),
    Item(syn::ExprPath),
}

/// The element `e` of a list of functions: a closure, or `Box::new` of one, cast or not;
/// or the path of a function item (`f64::sin`, `physics::drag`, `g`: a snake_case last
/// segment, with no generic arguments), which `[fn(f64) -> f64; 3]` holds as a pointer.
fn element(e: &syn::Expr) -> Option<Written> {
    if let syn::Expr::Path(p) = strip(e) {
        let last = p.path.segments.last()?;
        let snake = last
            .ident
            .to_string()
            .starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
        let plain = p.qself.is_none()
            && p.attrs.is_empty()
            && p.path
                .segments
                .iter()
                .all(|s| matches!(s.arguments, syn::PathArguments::None));
        return (snake && plain).then(|| Written::Item(p.clone()));
    }
    element_closure(e).cloned().map(Written::Closure)
}

/// The element `e` of a list of closures: a closure, or `Box::new` of one, cast or not.
fn element_closure(e: &syn::Expr) -> Option<&syn::ExprClosure> {
    match strip(e) {
        syn::Expr::Closure(c) => Some(c),
        // `Box::new(|t| ..) as Box<dyn Fn(f64) -> f64>`, which types an array of them.
        syn::Expr::Cast(c) => element_closure(&c.expr),
        syn::Expr::Call(call) if call.args.len() == 1 => match strip(&call.func) {
            syn::Expr::Path(p) if p.qself.is_none() && crate::callee::is_box_new(&p.path) => {
                element_closure(&call.args[0])
            }
            _ => None,
        },
        _ => None,
    }
}

/// The ways a `for` loop walks a list of closures.
enum Walk<'a> {
    /// `for phi in &basis`, `basis.iter()`.
    Each,
    /// `for (k, phi) in basis.iter().enumerate()`.
    Enumerate,
    /// `for (phi, w) in basis.iter().zip(other)`: the other iterable.
    ZipAfter(&'a syn::Expr),
    /// `for (w, phi) in other.zip(&basis)`: the other iterator.
    ZipBefore(&'a syn::Expr),
}

impl Lowerer<'_> {
    /// `let basis = vec![Box::new(|t| ..), ..];` (or an array of closures, typed or not):
    /// each closure bound by a `let` of its own, and `basis` bound to a placeholder the
    /// loops over it recognise. `None` when `local` is no such list.
    pub(crate) fn lower_fn_list_let(&mut self, local: &syn::Local) -> Option<()> {
        let init = local.init.as_ref()?;
        if init.diverge.is_some() {
            return None;
        }
        let pat = match &local.pat {
            syn::Pat::Type(pt) => &*pt.pat,
            other => other,
        };
        let syn::Pat::Ident(pi) = pat else {
            return None;
        };
        if pi.mutability.is_some() || pi.by_ref.is_some() || pi.subpat.is_some() {
            return None;
        }
        let elems: Vec<Written> = match strip(&init.expr) {
            syn::Expr::Macro(m) if StdMacro::of_path(&m.mac.path) == Some(StdMacro::Vec) => m
                .mac
                .parse_body_with(
                    syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
                )
                .ok()?
                .iter()
                .map(element)
                .collect::<Option<_>>()?,
            syn::Expr::Array(a) => a.elems.iter().map(element).collect::<Option<_>>()?,
            _ => return None,
        };
        // At least one closure or function item (a list of locals' names is data), and no
        // path that names a local.
        let names_local = |p: &syn::ExprPath| {
            p.path
                .get_ident()
                .is_some_and(|i| self.lookup(&i.to_string()).is_some())
        };
        if elems.is_empty()
            || elems
                .iter()
                .any(|e| matches!(e, Written::Item(p) if names_local(p)))
        {
            return None;
        }
        let mut names = Vec::new();
        for (k, w) in elems.into_iter().enumerate() {
            let c = match w {
                Written::Closure(c) => c,
                Written::Item(p) => {
                    names.push(FnElem::Item(p));
                    continue;
                }
            };
            let name = quote::format_ident!("__fwdad_fn_{}_{}", pi.ident, k, span = c.span());
            let local = syn::Local {
                attrs: Vec::new(),
                let_token: Default::default(),
                pat: syn::Pat::Ident(syn::PatIdent {
                    attrs: Vec::new(),
                    by_ref: None,
                    mutability: None,
                    ident: name.clone(),
                    subpat: None,
                }),
                init: Some(syn::LocalInit {
                    eq_token: Default::default(),
                    expr: Box::new(syn::Expr::Closure(c)),
                    diverge: None,
                }),
                semi_token: Default::default(),
            };
            self.lower_local(&local)?;
            names.push(FnElem::Closure(name));
        }
        let placeholder = self.unit(init.expr.span());
        self.fn_lists.insert(placeholder, names);
        self.bind(&pi.ident, placeholder);
        Some(())
    }

    /// The list of closures `e` names (`basis`, `&basis`, `basis.iter()`,
    /// `(&basis).into_iter()`), if it names one.
    fn fn_list_of(&self, e: &syn::Expr) -> Option<&FnList> {
        match strip(e) {
            syn::Expr::Reference(r) => self.fn_list_of(&r.expr),
            syn::Expr::MethodCall(m)
                if m.args.is_empty()
                    && matches!(
                        Adaptor::from_name(&m.method.to_string()),
                        Some(Adaptor::Iter | Adaptor::IntoIter)
                    ) =>
            {
                self.fn_list_of(&m.receiver)
            }
            syn::Expr::Path(p) if p.qself.is_none() => {
                let v = self.lookup(&p.path.get_ident()?.to_string())?;
                self.fn_lists.get(&v)
            }
            _ => None,
        }
    }

    /// Whether `v` is the placeholder of a list of closures.
    pub(crate) fn is_fn_list(&self, v: Value) -> bool {
        self.fn_lists.contains_key(&v)
    }

    /// `basis.len()` of a list of closures: its length, a constant.
    pub(crate) fn fn_list_len(&self, m: &syn::ExprMethodCall) -> Option<syn::Expr> {
        if StdMethod::from_name(&m.method.to_string()) != Some(StdMethod::Len) || !m.args.is_empty()
        {
            return None;
        }
        let list = self.fn_list_of(&m.receiver)?;
        Some(syn::Expr::Lit(syn::ExprLit {
            attrs: vec![],
            lit: syn::Lit::Int(syn::LitInt::new(
                &format!("{}usize", list.len()),
                m.method.span(),
            )),
        }))
    }

    /// The list of closures at the root of an iterator chain (`basis.iter().zip(w).map(..)`),
    /// which only a `for` loop walks: the path naming it, whose lowering reports it
    /// before the chain's closures are.
    pub(crate) fn fn_list_chain(&self, e: &syn::Expr) -> Option<syn::Expr> {
        let mut at = strip(e);
        while let syn::Expr::MethodCall(m) = at {
            at = strip(&m.receiver);
        }
        let root = match at {
            syn::Expr::Reference(r) => strip(&r.expr),
            other => other,
        };
        let syn::Expr::Path(p) = root else {
            return None;
        };
        let v = self.lookup(&p.path.get_ident()?.to_string())?;
        self.fn_lists.contains_key(&v).then(|| root.clone())
    }

    /// A `for` loop over a list of closures (see the module docs), as a loop over the
    /// positions whose body binds the element in a `match`. `None` for any other loop.
    pub(crate) fn desugar_fn_list_for(&self, f: &syn::ExprForLoop) -> Option<syn::Expr> {
        let (list, walk) = self.fn_list_walk(&f.expr)?;
        let span = f.for_token.span;
        // The loop's pattern: the element's name, and the index's or the other item's.
        let tuple = |p: &syn::Pat| match p {
            syn::Pat::Tuple(t) if t.elems.len() == 2 => {
                Some((t.elems[0].clone(), t.elems[1].clone()))
            }
            syn::Pat::Paren(p) => match &*p.pat {
                syn::Pat::Tuple(t) if t.elems.len() == 2 => {
                    Some((t.elems[0].clone(), t.elems[1].clone()))
                }
                _ => None,
            },
            _ => None,
        };
        let (elem, other): (syn::Pat, Option<syn::Pat>) = match &walk {
            Walk::Each => ((*f.pat).clone(), None),
            Walk::Enumerate => {
                let (k, e) = tuple(&f.pat)?;
                (e, Some(k))
            }
            Walk::ZipAfter(_) => {
                let (e, o) = tuple(&f.pat)?;
                (e, Some(o))
            }
            Walk::ZipBefore(_) => {
                let (o, e) = tuple(&f.pat)?;
                (e, Some(o))
            }
        };
        // The element is called by its name: bound to a name, nothing else.
        let syn::Pat::Ident(pi) = &elem else {
            return None;
        };
        if pi.by_ref.is_some() || pi.subpat.is_some() {
            return None;
        }
        let n = list.len();
        let len = syn::Expr::Lit(syn::ExprLit {
            attrs: vec![],
            lit: syn::Lit::Int(syn::LitInt::new(&format!("{n}usize"), span)),
        });
        let body = syn::Expr::Block(syn::ExprBlock {
            attrs: Vec::new(),
            label: None,
            block: f.body.clone(),
        });
        let mut arms: Vec<syn::Arm> = Vec::new();
        for (k, el) in list.iter().enumerate() {
            let name = match el {
                FnElem::Closure(name) => name,
                FnElem::Item(path) => {
                    let arm_body = item_arm(&walk, &other, &pi.ident, path, &body, span)?;
                    arms.push(arm(k, arm_body, span));
                    continue;
                }
            };
            let template: syn::Expr = match (&walk, &other) {
                (Walk::Enumerate, Some(_)) => syn::parse_quote_spanned!(span=> {
                    let __fwdad_other = __fwdad_k;
                    let __fwdad_elem = &__fwdad_fn;
                    __fwdad_body
                }),
                _ => syn::parse_quote_spanned!(span=> {
                    let __fwdad_elem = &__fwdad_fn;
                    __fwdad_body
                }),
            };
            let fn_path = path_expr(name);
            let mut holes = vec![
                ("__fwdad_elem", Hole::Pat(&elem)),
                ("__fwdad_fn", Hole::Expr(&fn_path)),
                ("__fwdad_body", Hole::Expr(&body)),
            ];
            if let (Walk::Enumerate, Some(o)) = (&walk, &other) {
                holes.push(("__fwdad_other", Hole::Pat(o)));
            }
            let arm_body = fill(template, &holes);
            arms.push(arm(k, arm_body, span));
        }
        let mut dispatch: syn::ExprMatch = syn::parse_quote_spanned!(span=>
            match __fwdad_k {
                _ => ::core::unreachable!(),
            }
        );
        let fallback = dispatch.arms.pop()?;
        dispatch.arms.extend(arms);
        dispatch.arms.push(fallback);
        let dispatch = syn::Expr::Match(dispatch);
        let mut rewritten: syn::ExprForLoop = match &walk {
            Walk::Each | Walk::Enumerate => syn::parse_quote_spanned!(span=>
                for __fwdad_k in 0..__fwdad_len {
                    __fwdad_dispatch;
                }
            ),
            Walk::ZipAfter(_) | Walk::ZipBefore(_) => syn::parse_quote_spanned!(span=>
                for (__fwdad_k, __fwdad_other) in __fwdad_iter.enumerate().take(__fwdad_len) {
                    __fwdad_dispatch;
                }
            ),
        };
        rewritten.label = f.label.clone();
        let iter: Option<syn::Expr> = match &walk {
            Walk::ZipAfter(o) => Some(match strip(o) {
                // `zip(w)` of a slice or a `Vec` (`&w` too): its items, borrowed.
                syn::Expr::Path(_) => fill(
                    syn::parse_quote_spanned!(span=> __fwdad_src.iter()),
                    &[("__fwdad_src", Hole::Expr(o))],
                ),
                syn::Expr::Reference(r) if r.mutability.is_none() => fill(
                    syn::parse_quote_spanned!(span=> __fwdad_src.iter()),
                    &[("__fwdad_src", Hole::Expr(&r.expr))],
                ),
                syn::Expr::MethodCall(_) => (*o).clone(),
                _ => return None,
            }),
            Walk::ZipBefore(o) => Some((*o).clone()),
            _ => None,
        };
        let mut holes = vec![
            ("__fwdad_len", Hole::Expr(&len)),
            ("__fwdad_dispatch", Hole::Expr(&dispatch)),
        ];
        let other_pat = other.clone();
        if let (Some(iter), Some(o)) = (&iter, &other_pat) {
            holes.push(("__fwdad_iter", Hole::Expr(iter)));
            holes.push(("__fwdad_other", Hole::Pat(o)));
        }
        Some(fill(syn::Expr::ForLoop(rewritten), &holes))
    }

    /// Whether `m` is a chain [`Self::desugar_fn_list_chain`] rewrites (out of line: the
    /// rewritten syntax stays out of `lower_expr`'s frame, which deep nesting repeats).
    #[inline(never)]
    pub(crate) fn is_fn_list_chain(&self, m: &syn::ExprMethodCall) -> bool {
        self.fn_list_chain_root(m) && self.desugar_fn_list_chain(m).is_some()
    }

    /// Whether the chain `m` starts at a list of closures (cheap, checked first).
    fn fn_list_chain_root(&self, m: &syn::ExprMethodCall) -> bool {
        let mut at = strip(&m.receiver);
        while let syn::Expr::MethodCall(inner) = at {
            // `w.iter().zip(&basis)`: the list on the other side of a `zip`.
            if Adaptor::from_name(&inner.method.to_string()) == Some(Adaptor::Zip)
                && inner.args.len() == 1
                && self.fn_list_of(&inner.args[0]).is_some()
            {
                return true;
            }
            at = strip(&inner.receiver);
        }
        self.fn_list_of(at).is_some()
    }

    /// The chain `m` lowered as the loop [`Self::desugar_fn_list_chain`] gives.
    #[inline(never)]
    pub(crate) fn lower_fn_list_chain(&mut self, m: &syn::ExprMethodCall) -> Option<Value> {
        let e = self.desugar_fn_list_chain(m)?;
        self.lower_expr(&e)
    }

    /// A chain that maps a list of closures and sums, multiplies or collects the results
    /// (`basis.iter().map(|phi| phi(x)).collect()`, `basis.iter().zip(&w).map(|(phi, wk)| wk
    /// * phi(x)).sum::<f64>()`), as the `for` loop over the list it means, in a block that
    /// gives the result. `None` for any other chain, or a closure that could leave the
    /// function (`return`, `?`) if it were a loop's body.
    pub(crate) fn desugar_fn_list_chain(&self, m: &syn::ExprMethodCall) -> Option<syn::Expr> {
        let consumer = Consumer::from_name(&m.method.to_string())?;
        let turbofish_ok = match &m.turbofish {
            None => true,
            Some(t) => t.args.len() == 1,
        };
        if !m.args.is_empty() || !turbofish_ok {
            return None;
        }
        let syn::Expr::MethodCall(map) = strip(&m.receiver) else {
            return None;
        };
        if Adaptor::from_name(&map.method.to_string()) != Some(Adaptor::Map) || map.args.len() != 1
        {
            return None;
        }
        let syn::Expr::Closure(c) = strip(&map.args[0]) else {
            return None;
        };
        let [param] = c.inputs.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let param = match param {
            syn::Pat::Type(pt) => (*pt.pat).clone(),
            other => other.clone(),
        };
        if super::combinators::has_exits(c) {
            return None;
        }
        self.fn_list_walk(&map.receiver)?;
        let span = m.method.span();
        let template: syn::Expr = match consumer {
            // From `-0.0`, as `Sum for f64` starts: a sum of `-0.0`s is `-0.0`.
            Consumer::Sum => syn::parse_quote_spanned!(span=> {
                let mut __fwdad_acc = -0.0;
                for __fwdad_pat in __fwdad_walk {
                    __fwdad_acc += __fwdad_body;
                }
                __fwdad_acc
            }),
            Consumer::Product => syn::parse_quote_spanned!(span=> {
                let mut __fwdad_acc = 1.0;
                for __fwdad_pat in __fwdad_walk {
                    __fwdad_acc *= __fwdad_body;
                }
                __fwdad_acc
            }),
            Consumer::Collect => syn::parse_quote_spanned!(span=> {
                let mut __fwdad_acc = ::std::vec::Vec::new();
                for __fwdad_pat in __fwdad_walk {
                    __fwdad_acc.push(__fwdad_body);
                }
                __fwdad_acc
            }),
            _ => return None,
        };
        // Only a float's sum or product starts at a float literal.
        if let (Some(t), Consumer::Sum | Consumer::Product) = (&m.turbofish, consumer) {
            let float = match t.args.first() {
                Some(syn::GenericArgument::Type(syn::Type::Path(p))) if p.qself.is_none() => {
                    StdType::of_path(&p.path).is_some_and(|t| t.class() == TypeClass::Float)
                }
                _ => false,
            };
            if !float {
                return None;
            }
        }
        Some(fill(
            template,
            &[
                ("__fwdad_pat", Hole::Pat(&param)),
                ("__fwdad_walk", Hole::Expr(&map.receiver)),
                ("__fwdad_body", Hole::Expr(&c.body)),
            ],
        ))
    }

    /// `basis[k](x)`: a call of the element at `k` of a list of functions, as a `match`
    /// on the index whose arm `j` calls the `j`th element (its hidden `let` closure, or
    /// the function item by its path) with the arguments as written. The index is
    /// evaluated first, then the arguments, as Rust evaluates them; an index past the
    /// list panics, as indexing does. `None` for any other call.
    #[inline(never)]
    pub(crate) fn desugar_fn_list_call(&self, c: &syn::ExprCall) -> Option<syn::Expr> {
        let syn::Expr::Index(ix) = strip(&c.func) else {
            return None;
        };
        let list = self.fn_list_of(&ix.expr)?;
        let span = c.span();
        let n = list.len();
        let mut arms: Vec<syn::Arm> = Vec::new();
        for (k, el) in list.iter().enumerate() {
            let func = match el {
                FnElem::Closure(name) => path_expr(name),
                FnElem::Item(path) => syn::Expr::Path(path.clone()),
            };
            let call = syn::Expr::Call(syn::ExprCall {
                attrs: Vec::new(),
                func: Box::new(func),
                paren_token: c.paren_token,
                args: c.args.clone(),
            });
            arms.push(arm(k, call, span));
        }
        // The position past the list: Rust's panic of the indexing (its message names
        // the length; the macro's `panic!` prints no arguments).
        let message = format!("index out of bounds: the len is {n}");
        let fallback: syn::Arm = crate::splice::splice!(span=>
            _ => ::core::panic!(#message),
        )
        .ok()?;
        let mut dispatch: syn::ExprMatch = syn::parse_quote_spanned!(span=>
            match __fwdad_ix {}
        );
        dispatch.arms.extend(arms);
        dispatch.arms.push(fallback);
        Some(fill(
            syn::Expr::Match(dispatch),
            &[("__fwdad_ix", Hole::Expr(&ix.index))],
        ))
    }

    /// The list a loop walks and how.
    fn fn_list_walk<'e>(&self, e: &'e syn::Expr) -> Option<(&FnList, Walk<'e>)> {
        if let Some(list) = self.fn_list_of(e) {
            return Some((list, Walk::Each));
        }
        let syn::Expr::MethodCall(m) = strip(e) else {
            return None;
        };
        match (Adaptor::from_name(&m.method.to_string())?, m.args.len()) {
            (Adaptor::Enumerate, 0) => Some((self.fn_list_of(&m.receiver)?, Walk::Enumerate)),
            (Adaptor::Zip, 1) => match self.fn_list_of(&m.receiver) {
                Some(list) => Some((list, Walk::ZipAfter(&m.args[0]))),
                None => Some((self.fn_list_of(&m.args[0])?, Walk::ZipBefore(&m.receiver))),
            },
            _ => None,
        }
    }
}

/// The arm `k => body` of a loop's dispatch.
fn arm(k: usize, body: syn::Expr, span: proc_macro2::Span) -> syn::Arm {
    syn::Arm {
        attrs: Vec::new(),
        pat: syn::Pat::Lit(syn::ExprLit {
            attrs: vec![],
            lit: syn::Lit::Int(syn::LitInt::new(&format!("{k}usize"), span)),
        }),
        guard: None,
        fat_arrow_token: Default::default(),
        body: Box::new(body),
        comma: Some(Default::default()),
    }
}

/// The body of the arm of a function item `path` in a loop over a list: the loop's body
/// with the element's name `elem` replaced by the path (a function item has no state, so
/// the two mean the same), after the index's or the other item's binding. `None` when the
/// body binds `elem` again (a shadowing the replacement would cross).
fn item_arm(
    walk: &Walk<'_>,
    other: &Option<syn::Pat>,
    elem: &syn::Ident,
    path: &syn::ExprPath,
    body: &syn::Expr,
    span: proc_macro2::Span,
) -> Option<syn::Expr> {
    use syn::visit::Visit;
    let mut bound = super::PatIdents::default();
    bound.visit_expr(body);
    if bound.0.iter().any(|p| p.ident == *elem) {
        return None;
    }
    let body = super::fn_alias::replace_name(body, elem, path);
    Some(match (walk, other) {
        (Walk::Enumerate, Some(o)) => fill(
            syn::parse_quote_spanned!(span=> {
                let __fwdad_other = __fwdad_k;
                __fwdad_body
            }),
            &[
                ("__fwdad_other", Hole::Pat(o)),
                ("__fwdad_body", Hole::Expr(&body)),
            ],
        ),
        _ => body,
    })
}
