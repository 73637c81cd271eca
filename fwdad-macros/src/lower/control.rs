//! Loops: `loop`, `while`, `for`, `break`, `continue`.
//!
//! A loop's carried values are the outer locals its body (or `while` condition) assigns,
//! found by a syntactic pre-scan. They become the body region's parameters, seeded by
//! their values before the loop; the body's end yields their next values; `break` and
//! `continue` pass the values current at that point; after the loop the names are rebound
//! to the loop's results. A `while` is `loop { if cond { body } else { break } }`.
//!
//! Before:
//! ```ignore
//! let mut acc = 0.0;
//! for i in 0..n { acc += x[i]; }
//! ```
//! After:
//! ```text
//! v1 = lit 0.0 : float
//! v3 = range v2..v0 : range
//! v7 = for (v4, v5) in v3 with (v1) {
//!     v6 = index x[v4] : ?
//!     v7' = add v5, v6
//!     yield v7'
//! }
//! ```

use super::{LoopCtx, Lowerer};
use crate::callee::StdMethod;
use crate::ir::{InstKind, Terminator, Value, ValueDef};
use crate::types::TypeHint;
use proc_macro2::Span;
use std::collections::HashSet;
use syn::spanned::Spanned;
use syn::visit::Visit;

/// Whether a loop gives a value (`loop`) or not (`for`, `while`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LoopKind {
    /// `loop`, results: value, then carried.
    Loop,
    /// `for`/`while`, results: carried.
    For,
    /// A labelled block, as a `loop` that runs once (results as `Loop`); only a `break`
    /// with its label reaches it: an unlabelled `continue` inside goes to the loop around.
    Block,
}

impl Lowerer<'_> {
    pub(crate) fn lower_loop(&mut self, l: &syn::ExprLoop) -> Option<Value> {
        let label = l.label.as_ref().map(|l| l.name.ident.to_string());
        let assigned = self.loop_assigned(&l.body);
        self.lower_loop_with(label, LoopKind::Loop, None, assigned, l.span(), |lw, _| {
            lw.lower_block(&l.body)
        })
    }

    /// `'a: { stmts; tail }` as `'a: loop { stmts; break 'a tail; }` (a [`LoopKind::Block`]):
    /// `break 'a v` inside leaves it with `v`.
    pub(crate) fn lower_labelled_block(
        &mut self,
        label: &syn::Label,
        block: &syn::Block,
    ) -> Option<Value> {
        let mut body = block.clone();
        let tail = match body.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => Some(e.clone()),
            _ => None,
        };
        if tail.is_some() {
            body.stmts.pop();
        }
        let name = &label.name;
        let span = match &tail {
            Some(e) => e.span(),
            None => block.brace_token.span.close(),
        };
        let exit = syn::Stmt::Expr(
            syn::Expr::Break(syn::ExprBreak {
                attrs: vec![],
                break_token: syn::Token![break](span),
                label: Some(name.clone()),
                expr: tail.map(Box::new),
            }),
            Some(syn::Token![;](span)),
        );
        body.stmts.push(exit);
        let assigned = self.loop_assigned(&body);
        let label = Some(name.ident.to_string());
        self.lower_loop_with(
            label,
            LoopKind::Block,
            None,
            assigned,
            block.span(),
            |lw, _| lw.lower_block(&body),
        )
    }

    pub(crate) fn lower_while(&mut self, w: &syn::ExprWhile) -> Option<Value> {
        let label = w.label.as_ref().map(|l| l.name.ident.to_string());
        let mut assigned = self.loop_assigned(&w.body);
        assigned.extend(self.expr_assigned(&w.cond));
        let span = w.span();
        if let syn::Expr::Let(l) = &*w.cond {
            return self.lower_loop_with(label, LoopKind::Loop, None, assigned, span, |lw, _| {
                lw.lower_while_let_test(l, &w.body, span)
            });
        }
        self.lower_loop_with(label, LoopKind::Loop, None, assigned, span, |lw, _| {
            let cond = lw.lower_expr(&w.cond)?;
            let join = lw.lower_branches(
                cond,
                span,
                |lw| lw.lower_block(&w.body),
                |lw| {
                    let unit = lw.unit(span);
                    lw.break_to(0, Some(unit), span);
                    None
                },
            );
            join.value.map(|_| lw.unit(span))
        })
    }

    pub(crate) fn lower_for(&mut self, f: &syn::ExprForLoop) -> Option<Value> {
        // `for phi in &basis` of a list of closures: a loop over the positions.
        if let Some(e) = self.desugar_fn_list_for(f) {
            return self.lower_expr(&e);
        }
        // `for v in it` of an iterator a cursor stands for: the items left (`peekable.rs`).
        if let Some(rest) = self.cursor_chain(&f.expr) {
            let mut f = f.clone();
            *f.expr = rest;
            return self.lower_for(&f);
        }
        // `for v in x.iter().flat_map(..)`: the items gathered first, then iterated.
        if let Some((mut stmts, expr)) = self.desugar_flat_map(&f.expr) {
            let span = f.span();
            let mut f = f.clone();
            f.expr = Box::new(expr);
            stmts.push(syn::Stmt::Expr(syn::Expr::ForLoop(f), None));
            return self.lower_stmts_in_scope(&stmts, span);
        }
        if let Some(e) = self.desugar_enumerate_map_mut(f) {
            return self.lower_expr(&e);
        }
        if let Some(method) = self.map_mut_chain(&f.expr) {
            self.diag
                .error(method.span(), super::idioms::map_mut_chain_message(method));
            return Some(self.poison(f.span()));
        }
        // `for h in hist.values().map(..)`: the map's values gathered first.
        if let Some((mut stmts, expr)) = self.desugar_map_values(&f.expr) {
            let span = f.span();
            let mut f = f.clone();
            f.expr = Box::new(expr);
            stmts.push(syn::Stmt::Expr(syn::Expr::ForLoop(f), None));
            return self.lower_stmts_in_scope(&stmts, span);
        }
        // `for t in Linspace::new(..)` of an iterator of the user's.
        if let Some(v) = self.lower_for_user_iterator(f) {
            return v;
        }
        if let Some(v) = self.try_lower_for_chain(f) {
            return v;
        }
        let label = f.label.as_ref().map(|l| l.name.ident.to_string());
        let iter = self.lower_expr(&f.expr)?;
        let assigned = self.loop_assigned(&f.body);
        let pat = &*f.pat;
        let view = crate::libtypes::lane_view_binding(&f.expr, pat);
        self.lower_loop_with(
            label,
            LoopKind::For,
            Some(iter),
            assigned,
            f.span(),
            |lw, elem| {
                if let Some(elem) = elem {
                    lw.bind_pattern(pat, elem, None);
                }
                if let Some(v) = view.as_ref().and_then(|name| lw.lookup(&name.to_string())) {
                    lw.lane_views.insert(v);
                    // `for (i, mut row) in m.row_iter_mut().enumerate()`: `i` counts.
                    if let syn::Pat::Tuple(t) = pat {
                        if let Some(syn::Pat::Ident(i)) = t.elems.first() {
                            if let Some(i) = lw.lookup(&i.ident.to_string()) {
                                lw.func.values[i].ty = TypeHint::Int;
                            }
                        }
                    }
                }
                lw.lower_block(&f.body)
            },
        )
    }

    /// A `for` loop over the already lowered iterator `iter`.
    pub(crate) fn lower_for_over(
        &mut self,
        label: Option<String>,
        iter: Value,
        assigned: HashSet<String>,
        span: Span,
        body: impl FnOnce(&mut Self, Option<Value>) -> Option<Value>,
    ) -> Option<Value> {
        self.lower_loop_with(label, LoopKind::For, Some(iter), assigned, span, body)
    }

    /// The item of `for (k, v) in &m` (or `m.iter()`, `m.iter_mut()`, `m.range(..)`,
    /// `&mut m`, `m`) of a map of floats (`iter` of type `ty`): a key without a tangent and
    /// a value, so that the key stays plain Rust; of `m.values()`/`m.values_mut()` a
    /// reference to a value; otherwise not known.
    fn map_item(&self, iter: Value, ty: &TypeHint) -> TypeHint {
        // A key never carries a tangent (a float is neither `Hash` nor `Ord`).
        let key = |k: &TypeHint| match k {
            TypeHint::Unknown => TypeHint::NonDiff,
            k => k.clone(),
        };
        let pair = |k: &TypeHint, v: &TypeHint| {
            TypeHint::Tuple(vec![
                TypeHint::Ref(Box::new(key(k))),
                TypeHint::Ref(Box::new(v.clone())),
            ])
        };
        match ty {
            TypeHint::Ref(m) => match &**m {
                TypeHint::Map(k, v) => pair(k, v),
                _ => TypeHint::Unknown,
            },
            TypeHint::Map(k, v) => TypeHint::Tuple(vec![key(k), (**v).clone()]),
            _ => match self.func.values[iter].def {
                ValueDef::Inst(i, _) => match &self.func.insts[i].kind {
                    InstKind::MethodCall {
                        receiver, method, ..
                    } if matches!(
                        StdMethod::from_name(&method.to_string()),
                        Some(StdMethod::Iter | StdMethod::IterMut | StdMethod::Range)
                    ) =>
                    {
                        match self.func.values[*receiver].ty.deref_all_pub() {
                            TypeHint::Map(k, v) => pair(k, v),
                            _ => TypeHint::Unknown,
                        }
                    }
                    // `for v in m.values_mut()`: a reference to a value.
                    InstKind::MethodCall {
                        receiver, method, ..
                    } if matches!(
                        StdMethod::from_name(&method.to_string()),
                        Some(StdMethod::Values | StdMethod::ValuesMut)
                    ) =>
                    {
                        match self.func.values[*receiver].ty.deref_all_pub() {
                            TypeHint::Map(_, v) => TypeHint::Ref(v.clone()),
                            _ => TypeHint::Unknown,
                        }
                    }
                    _ => TypeHint::Unknown,
                },
                _ => TypeHint::Unknown,
            },
        }
    }

    /// The shared loop lowering; `body` lowers the body given the element parameter.
    fn lower_loop_with(
        &mut self,
        label: Option<String>,
        kind: LoopKind,
        iter: Option<Value>,
        assigned: HashSet<String>,
        span: Span,
        body: impl FnOnce(&mut Self, Option<Value>) -> Option<Value>,
    ) -> Option<Value> {
        let before = self.snapshot();
        let carried: Vec<(String, usize, Value)> = before
            .into_iter()
            .filter(|(name, _, _)| assigned.contains(name))
            .collect();
        let init: Vec<Value> = carried.iter().map(|c| c.2).collect();

        let body_r = self.new_region(vec![]);
        let mut params = Vec::new();
        let elem = iter.map(|it| {
            let hint = match &self.func.values[it].ty {
                TypeHint::Range => TypeHint::Int,
                other => self.map_item(it, other),
            };
            let p = self.func.new_value(ValueDef::RegionParam(body_r, 0), hint);
            params.push(p);
            p
        });
        for (name, depth, v) in &carried {
            let p = self.func.new_value(
                ValueDef::RegionParam(body_r, params.len()),
                self.func.values[*v].ty.clone(),
            );
            self.func.values[p].name = Some(crate::splice::ident(name, span));
            self.inherit_annotation(*v, p);
            params.push(p);
            self.set_at(name, *depth, p);
        }
        self.func.regions[body_r].params = params;

        let parent = self.cur;
        let scopes = self.scopes_len();
        self.cur = Some(body_r);
        self.loops.push(LoopCtx {
            label,
            carried: carried.iter().map(|(n, d, _)| (n.clone(), *d)).collect(),
            kind,
            value_ty: None,
        });
        self.push_scope();
        let reached_end = body(self, elem).is_some() && !self.is_dead();
        self.truncate_scopes(scopes);
        if reached_end {
            let next = carried.iter().map(|(n, d, _)| self.get_at(n, *d)).collect();
            self.terminate(Terminator::Yield(next));
        }
        let value_ty = self.loops.pop().and_then(|ctx| ctx.value_ty);
        self.cur = parent;

        let (kind_inst, extra) = match (kind, iter) {
            (LoopKind::For, Some(iter)) => (
                InstKind::For {
                    iter,
                    init,
                    body: body_r,
                },
                0,
            ),
            _ => (InstKind::Loop { init, body: body_r }, 1),
        };
        let inst = self.push_inst(kind_inst, extra + carried.len(), span);
        let results = self.func.insts[inst].results.clone();
        for (j, (name, depth, v)) in carried.iter().enumerate() {
            let r = results[extra + j];
            self.func.values[r].ty = self.func.values[*v].ty.clone();
            self.func.values[r].name = Some(crate::splice::ident(name, span));
            self.inherit_annotation(*v, r);
            self.set_at(name, *depth, r);
        }
        match extra {
            0 => Some(self.unit(span)),
            _ => {
                if let Some(ty) = value_ty {
                    self.func.values[results[0]].ty = ty;
                }
                Some(results[0])
            }
        }
    }

    pub(crate) fn lower_break(&mut self, b: &syn::ExprBreak) -> Option<Value> {
        let span = b.span();
        let depth = self.loop_depth(b.label.as_ref(), span)?;
        let value = match &b.expr {
            Some(e) => Some(self.lower_expr(e)?),
            None => None,
        };
        self.break_to(depth, value, span);
        None
    }

    pub(crate) fn lower_continue(&mut self, c: &syn::ExprContinue) -> Option<Value> {
        let span = c.span();
        let depth = self.loop_depth(c.label.as_ref(), span)?;
        let ctx = self.loops[self.loops.len() - 1 - depth].clone();
        let values = ctx
            .carried
            .iter()
            .map(|(n, d)| self.get_at(n, *d))
            .collect();
        self.terminate(Terminator::Continue { depth, values });
        None
    }

    /// Ends the current region with a `break` out of the loop `depth` levels up.
    pub(crate) fn break_to(&mut self, depth: usize, value: Option<Value>, span: Span) {
        let Some(at) = self.loops.len().checked_sub(1 + depth) else {
            self.diag.error(span, "`break` outside of a loop");
            return;
        };
        let ctx = self.loops[at].clone();
        if let Some(v) = value {
            let ty = self.func.values[v].ty.clone();
            self.loops[at].value_ty.get_or_insert(ty);
        }
        let mut values = Vec::new();
        match ctx.kind {
            LoopKind::Loop | LoopKind::Block => {
                values.push(value.unwrap_or_else(|| self.unit(span)))
            }
            LoopKind::For => {
                if value.is_some() {
                    self.diag
                        .error(span, "`break` with a value is only allowed in `loop`");
                }
            }
        }
        values.extend(ctx.carried.iter().map(|(n, d)| self.get_at(n, *d)));
        self.terminate(Terminator::Break { depth, values });
    }

    /// How many loops out a `break`/`continue` with this label goes (0 = innermost).
    fn loop_depth(&mut self, label: Option<&syn::Lifetime>, span: Span) -> Option<usize> {
        let found = match label {
            // Labelled blocks are skipped: only their label reaches them.
            None => self
                .loops
                .iter()
                .rev()
                .position(|c| c.kind != LoopKind::Block),
            Some(l) => {
                let name = l.ident.to_string();
                self.loops
                    .iter()
                    .rev()
                    .position(|c| c.label.as_deref() == Some(name.as_str()))
            }
        };
        if found.is_none() {
            self.diag.error(
                span,
                "`break`/`continue` outside of a loop, or with an unknown label",
            );
        }
        found
    }

    /// The names a loop over `block` may assign, its candidates for carried values: those
    /// assigned in `block` and those assigned by the closures in scope it mentions (a
    /// closure is inlined where it is called, so `add(v)` with `let mut add = |v| acc += v`
    /// rebinds `acc` there), following closures that mention other closures.
    pub(crate) fn loop_assigned(&self, block: &syn::Block) -> HashSet<String> {
        let mut paths = Paths::default();
        paths.visit_block(block);
        self.with_called_closures(assigned_names(block), paths)
    }

    /// The names a closure inlined in a loop (an adaptor's, `|_| take(2)`) may assign: its
    /// own assignments and those of the closures in scope it calls, as [`loop_assigned`].
    ///
    /// [`loop_assigned`]: Self::loop_assigned
    pub(crate) fn closure_assigned(&self, c: &syn::ExprClosure) -> HashSet<String> {
        let mut paths = Paths::default();
        paths.visit_expr_closure(c);
        self.with_called_closures(assigned_in_closure(c), paths)
    }

    /// The names evaluating `e` may assign (a `while` condition, `while next() < k` with
    /// `next` a closure in scope that advances `offset`), as [`loop_assigned`].
    ///
    /// [`loop_assigned`]: Self::loop_assigned
    pub(crate) fn expr_assigned(&self, e: &syn::Expr) -> HashSet<String> {
        let mut scan = AssignScan::default();
        scan.visit_expr(e);
        let mut paths = Paths::default();
        paths.visit_expr(e);
        self.with_called_closures(scan.names, paths)
    }

    /// `names` with the assignments of every closure in scope that `paths` mention,
    /// following closures that mention other closures.
    fn with_called_closures(
        &self,
        mut names: HashSet<String>,
        mut paths: Paths,
    ) -> HashSet<String> {
        let mut seen = HashSet::new();
        while let Some(name) = paths.0.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            if let Some(def) = self.lookup_closure(&name) {
                names.extend(assigned_in_closure(&def.expr));
                paths.visit_expr_closure(&def.expr);
            }
        }
        names
    }
}

/// The single-identifier paths visited (variables and called closures).
#[derive(Default)]
struct Paths(Vec<String>);

impl<'ast> Visit<'ast> for Paths {
    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        if let Some(id) = p.path.get_ident() {
            self.0.push(id.to_string());
        }
    }
}

/// The captures a closure passed to a function writes, which are lent to its dual form
/// `&mut`: those it assigns, arrays and `Vec`s it writes elements of (`acc[i] += v`),
/// those it lends `&mut` itself (`inc(&mut calls)`, `mem::swap(&mut a, &mut b)`), and
/// receivers among `mut_names` (the names bound `mut`) of methods it calls for their
/// effect (`seen.push(v);`) or that write their receiver (`let k = stack.pop()`).
pub(crate) fn written_in_closure(
    c: &syn::ExprClosure,
    mut_names: &HashSet<String>,
) -> HashSet<String> {
    let mut scan = AssignScan {
        index_roots: true,
        ..AssignScan::default()
    };
    scan.visit_expr_closure(c);
    let receivers = scan.receivers.intersection(mut_names).cloned();
    scan.names.extend(receivers.collect::<Vec<_>>());
    scan.names
}

/// The `&mut` parameters among `refs` that `c` writes through: as
/// [`written_in_closure`], and by `*total += v` (the reference's target assigned).
pub(crate) fn written_through_in_closure(
    c: &syn::ExprClosure,
    refs: &HashSet<String>,
) -> HashSet<String> {
    let mut scan = AssignScan {
        index_roots: true,
        derefs: true,
        ..AssignScan::default()
    };
    scan.visit_expr_closure(c);
    let receivers = scan.receivers.intersection(refs).cloned();
    scan.names.extend(receivers.collect::<Vec<_>>());
    scan.names
}

/// The locals a closure may change besides those it assigns: arrays and `Vec`s whose
/// elements it writes, those it lends `&mut`, references it writes through (`*total +=
/// v`), receivers of methods it calls for their effect or that write their receiver, and
/// receivers of methods of the user's.
pub(crate) fn closure_effects(c: &syn::ExprClosure) -> HashSet<String> {
    let mut scan = AssignScan {
        index_roots: true,
        derefs: true,
        ..AssignScan::default()
    };
    scan.visit_expr_closure(c);
    let mut out = scan.names;
    out.extend(scan.receivers);
    out.extend(user_method_receivers(c));
    out
}

/// The roots of receivers of methods that neither `std` nor the float rules know
/// (`rng` of `rng.uniform()`, wherever its value goes): a method of the user's, which may
/// take its receiver `&mut`.
pub(crate) fn user_method_receivers(c: &syn::ExprClosure) -> HashSet<String> {
    let mut scan = AssignScan {
        index_roots: true,
        user_methods: true,
        ..AssignScan::default()
    };
    scan.visit_expr_closure(c);
    scan.receivers
}

/// Names assigned by the body of `c` (the locals it mutates when inlined).
pub(crate) fn assigned_in_closure(c: &syn::ExprClosure) -> HashSet<String> {
    let mut scan = AssignScan::default();
    scan.visit_expr_closure(c);
    scan.names
}

/// Names assigned (`x = ..`, `x += ..`) anywhere in `block`, closures written in it
/// included (a closure passed to `map`, `scan`, .. is inlined in the loop): candidates
/// for loop-carried values. Over-approximating is harmless: an unchanged carried value
/// passes through, and a name not bound outside the loop is no candidate.
pub(crate) fn assigned_names(block: &syn::Block) -> HashSet<String> {
    let mut scan = AssignScan::default();
    scan.visit_block(block);
    scan.names
}

/// Collects assigned names, inside closures too (their assignments mutate captured
/// locals where they are inlined).
#[derive(Default)]
struct AssignScan {
    names: HashSet<String>,
    /// Whether `a[i] = ..` and `&mut a` assign `a` (for a closure passed to a function,
    /// whose writes must reach the capture itself, not a copy).
    index_roots: bool,
    /// With `index_roots`: the roots of receivers of methods called for their effect
    /// (`seen` of `seen.push(v);`).
    receivers: HashSet<String>,
    /// Instead: the roots of receivers of methods of the user's, wherever their value goes
    /// ([`user_method_receivers`]).
    user_methods: bool,
    /// Whether `*r = ..` assigns `r` (for a `&mut` parameter written through).
    derefs: bool,
}

impl AssignScan {
    fn note_receiver(&mut self, receiver: &syn::Expr) {
        if self.index_roots {
            let mut root = AssignScan {
                index_roots: true,
                ..AssignScan::default()
            };
            root.place_names(receiver);
            self.receivers.extend(root.names);
        }
    }

    /// The locals an assignment to `place` rebinds: `x`, each of `(a, b)` and `[a, b]`
    /// (destructuring assignment), the root of `s.f.g`, and of `a[i][j]` if `index_roots`.
    fn place_names(&mut self, place: &syn::Expr) {
        match super::place::strip(place) {
            syn::Expr::Path(p) => {
                if let Some(id) = p.path.get_ident() {
                    self.names.insert(id.to_string());
                }
            }
            syn::Expr::Tuple(t) => t.elems.iter().for_each(|e| self.place_names(e)),
            syn::Expr::Array(a) => a.elems.iter().for_each(|e| self.place_names(e)),
            syn::Expr::Field(f) => self.place_names(&f.base),
            // `acc[i] += v`: the local holding the element, when asked for (a captured
            // array a closure writes is lent to it; a loop writes it in place).
            syn::Expr::Index(i) if self.index_roots => self.place_names(&i.expr),
            syn::Expr::Unary(u) if self.derefs && matches!(u.op, syn::UnOp::Deref(_)) => {
                self.place_names(&u.expr)
            }
            _ => {}
        }
    }
}

impl<'ast> Visit<'ast> for AssignScan {
    fn visit_expr_assign(&mut self, e: &'ast syn::ExprAssign) {
        self.place_names(&e.left);
        syn::visit::visit_expr_assign(self, e);
    }

    fn visit_expr_reference(&mut self, e: &'ast syn::ExprReference) {
        if self.index_roots && e.mutability.is_some() {
            self.place_names(&e.expr);
        }
        syn::visit::visit_expr_reference(self, e);
    }

    /// `seen.push(v);`, `r.update(v);`: a method called for its effect (its value
    /// dropped) may take its receiver `&mut`; one whose value is used (`w.iter()`,
    /// `v.hypot(..)`) is taken for a read, so a `Fn` closure stays `Fn`.
    fn visit_stmt(&mut self, st: &'ast syn::Stmt) {
        if self.user_methods {
            return syn::visit::visit_stmt(self, st);
        }
        if let syn::Stmt::Expr(syn::Expr::MethodCall(m), Some(_)) = st {
            self.note_receiver(&m.receiver);
        }
        syn::visit::visit_stmt(self, st);
    }

    /// `let k = stack.pop()`: a `std` method the registry knows writes its receiver
    /// (`pop`, `push`, `remove`, `iter_mut`, ...) takes it `&mut` wherever its value goes.
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let name = m.method.to_string();
        let std = crate::callee::StdMethod::from_name(&name);
        if self.user_methods {
            if std.is_none() && crate::callee::FloatOp::method(&name).is_none() {
                self.note_receiver(&m.receiver);
            }
            return syn::visit::visit_expr_method_call(self, m);
        }
        if std.is_some_and(crate::callee::StdMethod::writes) {
            self.note_receiver(&m.receiver);
        }
        // `*acc.get_or_insert(1.0) *= v`: the idiom assigns its `Option` place when it is
        // empty (`lower::idioms`), so a loop carries it.
        // `best.clone_from(&cand)`: rewritten as `best = cand.clone()`, an assignment too.
        if let (
            Some(
                crate::callee::Rewrite::GetOrInsert
                | crate::callee::Rewrite::GetOrInsertWith
                | crate::callee::Rewrite::CloneFrom,
            ),
            1,
        ) = (crate::callee::Rewrite::from_name(&name), m.args.len())
        {
            self.place_names(&m.receiver);
        }
        // `it.next()` of a `peekable()` iterator moves its cursor (`peekable.rs`).
        self.names.extend(super::peekable::cursor_names(m));
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_binary(&mut self, e: &'ast syn::ExprBinary) {
        use syn::BinOp as B;
        let compound = matches!(
            e.op,
            B::AddAssign(_)
                | B::SubAssign(_)
                | B::MulAssign(_)
                | B::DivAssign(_)
                | B::RemAssign(_)
                | B::BitAndAssign(_)
                | B::BitOrAssign(_)
                | B::BitXorAssign(_)
                | B::ShlAssign(_)
                | B::ShrAssign(_)
        );
        if compound {
            self.place_names(&e.left);
        }
        syn::visit::visit_expr_binary(self, e);
    }

    /// A macro's arguments, when they are expressions (`format!("{}", { acc *= x; acc })`,
    /// `vec![..]`, `assert!(..)`): lowering reads them as such.
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if let Ok(args) = super::stmt::macro_args(m) {
            for a in &args {
                self.visit_expr(a);
            }
        }
    }
}
