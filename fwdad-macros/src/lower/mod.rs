//! `lower`: `syn::ItemFn` → [`Function`] (structured SSA).
//!
//! Input: a function the user wrote. Output: IR satisfying [`crate::ir::verify`], where
//! * every subexpression is one instruction, evaluated once, in Rust's order;
//! * `let` binds names to values in a scope stack; shadowing is a new binding;
//! * assigning a local (`x = e`, `x += e`) rebinds its name to a new value, and an `if`
//!   whose branches assign outer locals yields their new values as extra results
//!   (the SSA merge), after which the names are rebound to those results;
//! * `&&`/`||` become `If`s (short-circuit), compound assignment an operator and a store;
//! * an unsupported construct is reported at its span and lowered to a poison value, so
//!   one compile reports every problem.
//!
//! Before:
//! ```ignore
//! fn f(x: f64, n: usize) -> f64 { let mut y = x.sin(); if n > 2 { y = y * x; } y }
//! ```
//! After:
//! ```text
//! fn f(v0: f64, v1: usize) -> f64 {
//!     v2 = method v0.sin() : ?
//!     v3 = lit 2 : int
//!     v4 = gt v1, v3 : bool
//!     v6 = if v4 {
//!         v5 = mul v2, v0 : ?
//!         yield v5
//!     } else {
//!         yield v2
//!     }
//!     return v6
//! }
//! ```

mod autoref;
mod bool_then;
mod combinators;
mod control;
mod deque;
mod exact_len;
mod expr;
mod fn_alias;
mod fn_lists;
mod higher_order;
mod idioms;
mod iter_fns;
mod iterate;
mod library_calls;
mod matching;
mod peekable;
mod place;
mod resolve;
mod stmt;
mod untyped_option;
mod user_iter;
mod user_ops;

pub(crate) use matching::pattern_bindings;
pub(crate) use resolve::is_known_method;

use crate::diag::Diagnostics;
use crate::ir::entity::EntityVec;
use crate::ir::{
    Function, Inst, InstData, InstKind, Param, Region, RegionData, Terminator, Value, ValueDef,
};
use crate::types::TypeHint;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// The type parameters of `sig` that are floats: not function values (`F: Fn(T) -> T`),
/// not bounded by a trait of the user's (`M: Material`), not iterators.
pub(crate) fn float_params(sig: &syn::Signature) -> Vec<syn::Ident> {
    let fns = crate::higher_order::fn_type_params(&sig.generics);
    let traits = crate::traits::trait_params(&sig.generics);
    let iters = crate::derive_frule::iter_type_params(sig);
    sig.generics
        .type_params()
        .map(|t| t.ident.clone())
        .filter(|t| !fns.contains(t) && !traits.iter().any(|(p, _)| p == t) && !iters.contains(t))
        // Also once the parameter of that type reads as a `Vec` of its items.
        .filter(|t| !crate::derive_frule::is_iter_type_param(&sig.generics, t))
        .collect()
}

/// Lowers `item` to IR. Errors go to `diag`; the IR is returned even when there were
/// errors (with poison values), so later checks can still report.
/// `rt` is the path of the runtime items (`::fwdad::__private`), for the few constructs that
/// lower to runtime calls (`assert!` → `rt::fail`).
pub fn lower_fn(
    item: &syn::ItemFn,
    rt: &proc_macro2::TokenStream,
    diag: &mut Diagnostics,
) -> Function {
    let ret = match &item.sig.output {
        syn::ReturnType::Default => syn::parse_quote!(()),
        syn::ReturnType::Type(_, ty) => (**ty).clone(),
    };
    let mut func = Function {
        name: item.sig.ident.clone(),
        params: Vec::new(),
        ret,
        values: EntityVec::new(),
        insts: EntityVec::new(),
        regions: EntityVec::new(),
        body: crate::ir::entity::EntityRef::new(0),
        items: Vec::new(),
        annotations: Default::default(),
        closures: Default::default(),
        fn_sources: Default::default(),
        type_params: item.sig.generics.type_params().next().is_some(),
        float_params: float_params(&item.sig),
        bound_receivers: Default::default(),
        qualified_self: Default::default(),
        box_dyn: Default::default(),
    };
    func.body = func.regions.push(RegionData {
        params: vec![],
        insts: vec![],
        term: Terminator::Yield(vec![]),
    });
    let mut lw = Lowerer {
        func,
        diag,
        scopes: vec![Vec::new()],
        cur: None,
        loops: Vec::new(),
        rt: rt.clone(),
        user: Default::default(),
        written_user: Default::default(),
        lane_views: Default::default(),
        fn_lists: Default::default(),
        untyped_nones: Vec::new(),
        guessed_user: Default::default(),
        user_operand: None,
        cursor_iters: peekable::cursor_iterators(item),
        let_chains: Vec::new(),
        lib_built: Default::default(),
        mut_names: {
            let mut all = PatIdents::default();
            syn::visit::Visit::visit_item_fn(&mut all, item);
            all.0
                .iter()
                .filter(|p| p.mutability.is_some())
                .map(|p| p.ident.to_string())
                .collect()
        },
        trait_bounds: crate::traits::trait_params(&item.sig.generics)
            .into_iter()
            .map(|(p, traits)| {
                let names = traits
                    .iter()
                    .filter_map(|t| t.segments.last().map(|s| s.ident.to_string()))
                    .collect();
                (p.to_string(), names)
            })
            .collect(),
        // A parameter bounded by a trait of the user's (`M: Material`) is not a float.
        type_params: {
            let traits = crate::traits::trait_params(&item.sig.generics);
            item.sig
                .generics
                .type_params()
                .filter(|t| !traits.iter().any(|(p, _)| *p == t.ident))
                .map(|t| t.ident.to_string())
                .collect()
        },
    };
    lw.cur = Some(lw.func.body);

    for (i, input) in item.sig.inputs.iter().enumerate() {
        lw.lower_param(i, input);
    }
    lw.func.bound_receivers = lw
        .func
        .params
        .iter()
        .filter(|p| crate::traits::methods_from_bounds(&p.ty, &item.sig.generics))
        .map(|p| p.value)
        .collect();
    // A parameter of a type parameter bounded by a trait of the user's (`target: &impl
    // Target`, `m: &M` with `M: Model`) has the trait's methods whatever their names
    // (`target.position()` is not `Iterator::position`), as a value typed the user's does.
    let user_bound: Vec<syn::Ident> = crate::traits::trait_params(&item.sig.generics)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    for p in lw.func.params.clone() {
        let mut ty = &p.ty;
        while let syn::Type::Reference(r) = ty {
            ty = &r.elem;
        }
        if matches!(ty, syn::Type::Path(tp) if tp.qself.is_none()
            && user_bound.iter().any(|b| tp.path.is_ident(b)))
        {
            lw.written_user.insert(p.value);
        }
    }
    // A function-valued parameter is the dual function (borrowed as it is: `&f`).
    for p in lw.func.params.clone() {
        if lw.callable(p.value) {
            lw.func.fn_sources.insert(p.value);
        }
    }
    let block = fn_alias::inline_fn_aliases(&item.block, item.sig.inputs.iter());
    let block = deque::deques_as_vecs(&block, item.sig.inputs.iter());
    let block = bool_then::bool_then_as_if(&block);
    let block = iter_fns::iter_fns_as_chains(&block);
    let block = autoref::autoref_subslices(&block);
    let block = reslice_tail(&block, &item.sig.output);
    let first_inst = lw.func.insts.iter().count();
    if let Some(v) = lw.lower_block_stmts(&block.stmts, item.block.span()) {
        let v = lw.unit_if_returns_unit(v, &item.sig.output, item.block.span());
        lw.terminate(Terminator::Return(v));
    }
    // A factory returning a trait object of the user's (`fn make_joint(kind: u8, l: f64)
    // -> Box<dyn Joint>`): the boxes it builds are that object's, carrying their tangents
    // (`Function::box_dyn`), as in a `let` that names it.
    if let syn::ReturnType::Type(_, out) = &item.sig.output {
        if let Some(object) = crate::callee::boxed_user_trait_object(out) {
            lw.note_boxes_to(first_inst, object);
        }
    }
    let written = std::mem::take(&mut lw.written_user);
    resolve::resolve_callees(&mut lw.func, &written);
    lw.func
}

/// A name in scope.
#[derive(Clone, Debug)]
struct Binding {
    name: String,
    value: Value,
    /// For `let f = |..| ..;`: the closure, inlined where it is called.
    closure: Option<std::rc::Rc<ClosureDef>>,
    /// Whether this binding is a variable of its own or stands for another one.
    target: Target,
}

/// What a name's binding refers to. Inlining a closure that borrows its environment
/// (not `move`) must see the variables it saw where it was written: a variable shadowed
/// since then is reached through an [`Target::Alias`] (reads and writes go to it), and a
/// name bound since then is [`Target::Hidden`].
#[derive(Clone, Copy, Debug, PartialEq)]
enum Target {
    Own,
    /// The binding at `(scope, index)`, itself an [`Target::Own`].
    Alias(usize, usize),
    Hidden,
}

/// Every name binding in the patterns a syntax tree visits (`let` and closure patterns,
/// sub-patterns included).
#[derive(Default)]
pub(crate) struct PatIdents(pub(crate) Vec<syn::PatIdent>);

impl<'ast> syn::visit::Visit<'ast> for PatIdents {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.push(p.clone());
        syn::visit::visit_pat_ident(self, p);
    }
}

/// A closure bound by `let`: its syntax and, for `move` closures, the bindings it captured.
/// A `move` closure's captures: each name's value, and its closure if it names one.
pub(crate) type Env = Vec<(String, Value, Option<std::rc::Rc<ClosureDef>>)>;

#[derive(Debug)]
pub(crate) struct ClosureDef {
    pub(crate) expr: syn::ExprClosure,
    pub(crate) env: Env,
    /// For a closure that borrows: where each name it could see was bound
    /// ([`Lowerer::visible`] where it was written).
    pub(crate) visible: Vec<(String, (usize, usize))>,
}

/// An enclosing loop, for `break`/`continue` (see `lower::control`).
#[derive(Clone, Debug)]
pub(crate) struct LoopCtx {
    label: Option<String>,
    /// The loop-carried variables: names and the scope depth where each is bound.
    carried: Vec<(String, usize)>,
    kind: control::LoopKind,
    /// The type of the first `break value` out of it: the loop's value has it.
    value_ty: Option<TypeHint>,
}

pub(crate) struct Lowerer<'d> {
    pub(crate) func: Function,
    pub(crate) diag: &'d mut Diagnostics,
    /// Innermost scope last.
    scopes: Vec<Vec<Binding>>,
    /// The region being appended to; `None` once it has been terminated (dead code).
    cur: Option<Region>,
    loops: Vec<LoopCtx>,
    /// The function's type parameters: floats, so `T::sqrt(x)` is the float method.
    type_params: Vec<String>,
    /// The type parameters bounded by traits of the user's (`F: FloatOps`), with the
    /// traits' names.
    trait_bounds: Vec<(String, Vec<String>)>,
    /// The runtime's path (see [`lower_fn`]).
    rt: proc_macro2::TokenStream,
    /// Values the syntax says are of a user type (see `user_ops.rs`).
    user: std::collections::HashMap<Value, user_ops::UserShape>,
    /// Values whose user type is written (no guess): their methods are the user's.
    written_user: std::collections::HashSet<Value>,
    /// Values taken for a user type only because a method of the user's returned them
    /// (`a.cross(b)`): not enough for an operator to take a user rule.
    guessed_user: std::collections::HashSet<Value>,
    /// The arithmetic expression being lowered as the other operand of a user value's
    /// operator (`k1 * h` in `s + k1 * h`): its operands of unknown type are taken for
    /// user values (see `user_ops::user_binary`). Identified by address.
    user_operand: Option<*const syn::ExprBinary>,
    /// Iterators bound by `let mut it = x.iter()` read only by `it.next()` and `for`
    /// (`peekable::cursor_iterators`): a cursor stands for them.
    cursor_iters: std::collections::HashSet<String>,
    /// The closures of iterator chains a `let` binds (`let b = a.iter().map(..);`),
    /// as token text: a closure in one gets an error saying to read the chain in place.
    let_chains: Vec<String>,
    /// Values a library constructor built (`let mut k = DMatrix::zeros(n, n);`), and the
    /// loop variables carrying them: indexed by a tuple they are the library's, not a user
    /// type's (`k[(i, j)] = ..`), as a value whose library type is written.
    lib_built: std::collections::HashSet<Value>,
    /// The names bound `mut` anywhere in the function: only these can be the receiver of
    /// a `&mut self` method (`seen.push(v)` in a closure passed to a function lends
    /// `seen`; `w.iter()` of a `w` bound without `mut` only reads it).
    mut_names: std::collections::HashSet<String>,
    /// Loop variables bound to a view of a library value's row, column or lane
    /// (`for mut row in m.row_iter_mut()`): `row /= n` writes through the view into the
    /// matrix, so it is lowered as the method `row.div_assign(n)`, not a new value.
    lane_views: std::collections::HashSet<Value>,
    /// The placeholders of lists of closures bound by `let` (`fn_lists.rs`), with the
    /// hidden names their elements are bound to.
    fn_lists: std::collections::HashMap<Value, fn_lists::FnList>,
    /// Locals bound by `let mut prev = None;` without a type, with their binding's place
    /// and value: a later `prev = Some(x)` of a float writes the type the `let` leaves
    /// to inference (`Option<f64>`), which the rule needs where the value is read first
    /// (`prev.take()`, matched before the assignment: E0282 otherwise).
    untyped_nones: Vec<(String, (usize, usize), Value)>,
}

impl Lowerer<'_> {
    fn lower_param(&mut self, index: usize, input: &syn::FnArg) {
        let pat_ty = match input {
            syn::FnArg::Typed(t) => t,
            // Reported by the signature check.
            // A method's `&self` / `&mut self` (`#[derive_frule]` on an `impl` block, whose
            // `Self` is already the type): the parameter `self`.
            syn::FnArg::Receiver(r) => {
                let ty = (*r.ty).clone();
                let value = self
                    .func
                    .new_value(ValueDef::Param(index), TypeHint::from_type(&ty));
                self.note_user_type(value, &ty);
                let name = syn::Ident::new("self", r.self_token.span);
                self.func.values[value].name = Some(name.clone());
                self.func.params.push(Param {
                    value,
                    ty,
                    span: r.span(),
                    inactive: false,
                });
                self.bind(&name, value);
                return;
            }
        };
        let ty = (*pat_ty.ty).clone();
        let hint = TypeHint::from_type(&ty);
        let name = match &*pat_ty.pat {
            syn::Pat::Ident(pi) => pi.ident.clone(),
            _ => quote::format_ident!("__fwdad_arg{}", index),
        };
        let value = self.func.new_value(ValueDef::Param(index), hint);
        self.note_user_type(value, &ty);
        self.func.values[value].name = Some(name.clone());
        self.func.params.push(Param {
            value,
            ty: ty.clone(),
            span: pat_ty.pat.span(),
            inactive: false,
        });
        self.bind_pattern(&pat_ty.pat, value, Some(&ty));
    }

    /// Appends an instruction with one result to the current region.
    pub(crate) fn push(&mut self, kind: InstKind, ty: TypeHint, span: Span) -> Value {
        let inst = self.push_inst(kind, 1, span);
        let result = self.func.insts[inst].results[0];
        self.func.values[result].ty = ty;
        let kind = self.func.insts[inst].kind.clone();
        self.track_user(&kind, result);
        result
    }

    /// Appends an instruction with `n` results.
    pub(crate) fn push_inst(&mut self, kind: InstKind, n: usize, span: Span) -> Inst {
        let inst = self.func.insts.push(InstData {
            kind,
            results: vec![],
            span,
        });
        let results = (0..n)
            .map(|i| {
                self.func
                    .new_value(ValueDef::Inst(inst, i), TypeHint::Unknown)
            })
            .collect();
        self.func.insts[inst].results = results;
        match self.cur {
            Some(r) => self.func.regions[r].insts.push(inst),
            None => {
                // Code after a diverging subexpression, as in `f(return 1.0, x)`: Rust
                // accepts it (and warns); we do not differentiate it.
                let r = self.new_region(vec![]);
                self.func.regions[r].insts.push(inst);
                self.cur = Some(r);
                self.diag.error(span, "`#[derive_frule]` does not support code after an expression that always returns or breaks; remove the unreachable code");
            }
        }
        inst
    }

    pub(crate) fn poison(&mut self, span: Span) -> Value {
        self.push(InstKind::Poison, TypeHint::Unknown, span)
    }

    /// Whether `v` stands for code already reported as an error.
    pub(crate) fn is_poison(&self, v: Value) -> bool {
        matches!(self.func.values[v].def, crate::ir::ValueDef::Inst(i, _)
            if matches!(self.func.insts[i].kind, InstKind::Poison))
    }

    /// Lowers an expression the macro rewrote the user's into (`crate::splice`), or
    /// reports why the rewrite did not parse.
    pub(crate) fn lower_spliced(&mut self, e: syn::Result<syn::Expr>, span: Span) -> Option<Value> {
        match self.diag.handle(e) {
            Some(e) => self.lower_expr(&e),
            None => Some(self.poison(span)),
        }
    }

    pub(crate) fn new_region(&mut self, params: Vec<Value>) -> Region {
        self.func.regions.push(RegionData {
            params,
            insts: vec![],
            term: Terminator::Yield(vec![]),
        })
    }

    /// Ends the current region; what follows is dead until a new region is entered.
    pub(crate) fn terminate(&mut self, term: Terminator) {
        if let Some(r) = self.cur.take() {
            self.func.regions[r].term = term;
        }
    }

    pub(crate) fn is_dead(&self) -> bool {
        self.cur.is_none()
    }

    // ---- scopes -------------------------------------------------------------------------

    pub(crate) fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    /// Drops, at the end of a block that completes (`tail`: its value), the guards bound in
    /// it (`let mut r = rng.borrow_mut();`, [`crate::callee::is_guard_method`]): the
    /// block's instructions join the enclosing region's, where the guard would live on, and
    /// a later `borrow_mut()` of the cell (the next call of a closure that borrows it, the
    /// next statement) panicked in the rule where the function ran. Only a guard that the
    /// block reads in place (a method's receiver, a field, an element, `*r`, a write
    /// through it, a borrow of it) and does not return; one moved elsewhere is the mover's.
    pub(crate) fn drop_guards(&mut self, tail: Option<Value>, span: Span) {
        let Some(scope) = self.scopes.last() else {
            return;
        };
        let guards: Vec<Value> = scope
            .iter()
            .filter(|b| b.target == Target::Own && b.closure.is_none() && Some(b.value) != tail)
            .map(|b| b.value)
            .filter(|v| match self.func.values[*v].def {
                crate::ir::ValueDef::Inst(i, 0) => matches!(
                    &self.func.insts[i].kind,
                    InstKind::MethodCall { method, args, .. }
                        if crate::callee::is_guard_method(method, args.len())
                ),
                _ => false,
            })
            .collect();
        for g in guards {
            let in_place = self.func.insts.iter().all(|(i, data)| match &data.kind {
                InstKind::MethodCall { args, .. } => !args.contains(&g),
                InstKind::Field { .. }
                | InstKind::Index { .. }
                | InstKind::Ref { .. }
                | InstKind::Store { .. }
                | InstKind::Unary {
                    op: crate::ir::UnOp::Deref,
                    ..
                } => true,
                _ => !self.func.operands(i).contains(&g),
            });
            let in_terms = self
                .func
                .regions
                .iter()
                .any(|(r, _)| self.func.term_operands(r).contains(&g));
            if !in_place || in_terms {
                continue;
            }
            // The runtime's `drop`: rustc's lints on `mem::drop` of a `Copy` value or a
            // reference (a user method named `read` returning one) would be the user's.
            let rt = &self.rt;
            let path: syn::Path = match syn::parse2(quote::quote_spanned!(span=> #rt::drop)) {
                Ok(path) => path,
                Err(e) => {
                    self.diag.error(span, e.to_string());
                    return;
                }
            };
            let kind = InstKind::Call {
                func: path,
                args: vec![g],
                callee: crate::callee::PathCallee::Wrap(crate::callee::Wrapper::Drop),
            };
            self.push(kind, TypeHint::Unknown, span);
        }
    }

    pub(crate) fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    pub(crate) fn bind(&mut self, name: &syn::Ident, value: Value) {
        if self.func.values[value].name.is_none() {
            self.func.values[value].name = Some(name.clone());
        }
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Binding {
                name: name.to_string(),
                value,
                closure: None,
                target: Target::Own,
            });
        }
        self.note_untyped_none(name, value);
    }

    /// Binds `name` to a closure (with a unit placeholder value).
    /// Binds `name` to the closure another name is bound to (`let phi = &sq;`).
    pub(crate) fn bind_closure_alias(
        &mut self,
        name: &syn::Ident,
        def: std::rc::Rc<ClosureDef>,
        placeholder: Value,
    ) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Binding {
                name: name.to_string(),
                value: placeholder,
                closure: Some(def),
                target: Target::Own,
            });
        }
    }

    pub(crate) fn bind_closure(&mut self, name: &syn::Ident, def: ClosureDef, placeholder: Value) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Binding {
                name: name.to_string(),
                value: placeholder,
                closure: Some(std::rc::Rc::new(def)),
                target: Target::Own,
            });
        }
    }

    /// The position `(scope, index)` of the variable `name` refers to: its innermost
    /// binding, or what that binding stands for ([`Target`]).
    fn find(&self, name: &str) -> Option<(usize, usize)> {
        let (s, i) = self
            .scopes
            .iter()
            .enumerate()
            .rev()
            .find_map(|(s, scope)| scope.iter().rposition(|b| b.name == name).map(|i| (s, i)))?;
        self.resolve(s, i)
    }

    /// The variable the binding at `(s, i)` refers to (`None`: hidden).
    fn resolve(&self, s: usize, i: usize) -> Option<(usize, usize)> {
        match self.scopes[s][i].target {
            Target::Own => Some((s, i)),
            Target::Alias(s, i) => Some((s, i)),
            Target::Hidden => None,
        }
    }

    /// The closure bound to `name`, if its innermost binding is one.
    pub(crate) fn lookup_closure(&self, name: &str) -> Option<std::rc::Rc<ClosureDef>> {
        let (s, i) = self.find(name)?;
        self.scopes[s][i].closure.clone()
    }

    /// The current bindings (innermost per name), for a `move` closure's capture.
    pub(crate) fn capture_env(&self) -> Env {
        let mut out: Env = self
            .innermost()
            .into_iter()
            .map(|(name, _, (s, i))| {
                let b = &self.scopes[s][i];
                (name, b.value, b.closure.clone())
            })
            .collect();
        out.reverse();
        out
    }

    /// Pushes a scope holding `env`'s bindings (a `move` closure's captures; a captured
    /// closure stays a closure, inlined where the capturing one calls it).
    pub(crate) fn push_env(&mut self, env: &[(String, Value, Option<std::rc::Rc<ClosureDef>>)]) {
        self.scopes.push(
            env.iter()
                .map(|(n, v, c)| Binding {
                    name: n.clone(),
                    value: *v,
                    closure: c.clone(),
                    target: Target::Own,
                })
                .collect(),
        );
    }

    /// The innermost binding of every name, innermost scope first: its name, its scope
    /// and the variable it refers to (hidden names left out).
    fn innermost(&self) -> Vec<(String, usize, (usize, usize))> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (depth, scope) in self.scopes.iter().enumerate().rev() {
            for (i, b) in scope.iter().enumerate().rev() {
                if seen.insert(b.name.as_str()) {
                    if let Some(pos) = self.resolve(depth, i) {
                        out.push((b.name.clone(), depth, pos));
                    }
                }
            }
        }
        out
    }

    /// Every visible name and the variable it refers to: what a closure written here sees.
    pub(crate) fn visible(&self) -> Vec<(String, (usize, usize))> {
        self.innermost()
            .into_iter()
            .map(|(name, _, pos)| (name, pos))
            .collect()
    }

    /// Pushes a scope that restores the view `visible` (see [`Target`]): an alias for each
    /// name bound to another variable now, and a hidden binding for each name bound since.
    pub(crate) fn push_view(&mut self, visible: &[(String, (usize, usize))]) {
        let then: std::collections::HashMap<&str, (usize, usize)> =
            visible.iter().map(|(n, p)| (n.as_str(), *p)).collect();
        let mut scope = Vec::new();
        for (name, now) in self.visible() {
            let target = match then.get(name.as_str()) {
                Some(&pos) if pos == now => continue,
                Some(&(s, i)) => Target::Alias(s, i),
                None => Target::Hidden,
            };
            // Reads and writes follow `target`; `value` is never read.
            let value = self.scopes[now.0][now.1].value;
            scope.push(Binding {
                name,
                value,
                closure: None,
                target,
            });
        }
        self.scopes.push(scope);
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<Value> {
        let (s, i) = self.find(name)?;
        Some(self.scopes[s][i].value)
    }

    /// Rebinds the variable `name` refers to (an assignment). Returns false if unbound.
    pub(crate) fn assign(&mut self, name: &str, value: Value) -> bool {
        match self.find(name) {
            Some((s, i)) => {
                self.scopes[s][i].value = value;
                true
            }
            None => false,
        }
    }

    /// The current value of every visible name, innermost binding per name, outermost
    /// scope first: what a branch or loop may change.
    pub(crate) fn snapshot(&self) -> Vec<(String, usize, Value)> {
        let mut out: Vec<_> = self
            .innermost()
            .into_iter()
            .map(|(name, depth, (s, i))| (name, depth, self.scopes[s][i].value))
            .collect();
        out.reverse();
        out
    }

    /// The variable the binding of `name` at scope `depth` refers to.
    fn find_at(&self, name: &str, depth: usize) -> Option<(usize, usize)> {
        let i = self
            .scopes
            .get(depth)?
            .iter()
            .rposition(|b| b.name == name)?;
        self.resolve(depth, i)
    }

    /// Sets the binding of `name` at scope `depth` (restoring a snapshot).
    pub(crate) fn set_at(&mut self, name: &str, depth: usize, value: Value) {
        if let Some((s, i)) = self.find_at(name, depth) {
            self.scopes[s][i].value = value;
        }
    }

    /// The value of the binding of `name` at scope `depth`.
    pub(crate) fn get_at(&self, name: &str, depth: usize) -> Value {
        self.find_at(name, depth)
            .map(|(s, i)| self.scopes[s][i].value)
            .or_else(|| self.lookup(name))
            .unwrap_or_else(|| crate::ir::entity::EntityRef::new(0))
    }

    pub(crate) fn scopes_len(&self) -> usize {
        self.scopes.len()
    }

    pub(crate) fn truncate_scopes(&mut self, len: usize) {
        self.scopes.truncate(len);
    }
}

/// `block` with its tail `&place` or `path` borrowed whole as a slice, `&place[..]`
/// (`&mut place[..]`), where the function returns `&[T]` (`&mut [T]`): Rust coerces a
/// `&Vec<T>` there (`fn keys(&self) -> &[Key] { &self.0 }` of a `Vec` field, splines
/// 5.0.0's `Spline::keys`), which the rule's dual does not, and re-slicing a slice whole
/// is the slice.
fn reslice_tail(block: &syn::Block, output: &syn::ReturnType) -> syn::Block {
    let syn::ReturnType::Type(_, ty) = output else {
        return block.clone();
    };
    let syn::Type::Reference(r) = &**ty else {
        return block.clone();
    };
    if !matches!(&*r.elem, syn::Type::Slice(_)) {
        return block.clone();
    }
    let mutable = r.mutability.is_some();
    let mut block = block.clone();
    let Some(syn::Stmt::Expr(tail, None)) = block.stmts.last_mut() else {
        return block;
    };
    let place = match &*tail {
        syn::Expr::Reference(e) if e.mutability.is_some() == mutable => match &*e.expr {
            p @ (syn::Expr::Field(_) | syn::Expr::Path(_)) => p.clone(),
            _ => return block,
        },
        p @ syn::Expr::Path(_) => p.clone(),
        _ => return block,
    };
    let span = syn::spanned::Spanned::span(&*tail);
    let full = syn::Expr::Range(syn::ExprRange {
        attrs: Vec::new(),
        start: None,
        limits: syn::RangeLimits::HalfOpen(syn::Token![..](span)),
        end: None,
    });
    let index = syn::Expr::Index(syn::ExprIndex {
        attrs: Vec::new(),
        expr: Box::new(place),
        bracket_token: syn::token::Bracket(span),
        index: Box::new(full),
    });
    *tail = syn::Expr::Reference(syn::ExprReference {
        attrs: Vec::new(),
        and_token: syn::Token![&](span),
        mutability: mutable.then(|| syn::Token![mut](span)),
        expr: Box::new(index),
    });
    block
}

impl Lowerer<'_> {
    /// The function's result where it returns `()`: the unit, whatever the tail
    /// expression's value (`fn clear(&mut self) { self.0.clear() }`, splines 5.0.0's
    /// `Spline::clear`; `v.push(x)` without its `;`), which is `()` in Rust but a method's
    /// result the rule cannot see the type of.
    #[inline(never)]
    fn unit_if_returns_unit(&mut self, v: Value, output: &syn::ReturnType, span: Span) -> Value {
        let unit = match output {
            syn::ReturnType::Default => true,
            syn::ReturnType::Type(_, ty) => {
                matches!(&**ty, syn::Type::Tuple(t) if t.elems.is_empty())
            }
        };
        // A tail the lowering already knows to be `()` (a loop's) is kept.
        match unit && !matches!(self.func.values[v].ty, TypeHint::NonDiff) {
            true => self.unit(span),
            false => v,
        }
    }
}
