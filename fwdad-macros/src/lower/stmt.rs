//! Statements, blocks and patterns.

use super::Lowerer;
use crate::callee::{StdMacro, StdMethod, StdType, TypeClass};
use crate::ir::{InstKind, Value};
use crate::splice::splice;
use crate::types::TypeHint;
use proc_macro2::Span;
use syn::punctuated::Pair;
use syn::spanned::Spanned;

impl Lowerer<'_> {
    /// Lowers `stmts` in a new scope; returns the block's value, or `None` if it diverges.
    pub(crate) fn lower_block(&mut self, block: &syn::Block) -> Option<Value> {
        self.push_scope();
        let v = self.lower_block_stmts(&block.stmts, block.span());
        if v.is_some() {
            self.drop_guards(v, block.span());
        }
        self.pop_scope();
        v
    }

    /// Lowers statements in the current scope (the function body's own scope included).
    pub(crate) fn lower_block_stmts(&mut self, stmts: &[syn::Stmt], span: Span) -> Option<Value> {
        for (i, stmt) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            // `let it = x.chunks_exact(4);` read where `it` is used.
            if let Some(rest) = super::idioms::inline_iterator_binding(stmt, &stmts[i + 1..]) {
                return self.lower_block_stmts(&rest, span);
            }
            match stmt {
                syn::Stmt::Local(local) => {
                    self.lower_local(local)?;
                    self.infer_integer_local(local, &stmts[i + 1..]);
                    self.note_constructed_local(local);
                }
                syn::Stmt::Item(item) => self.lower_item(item),
                // A block ending in a diverging statement (`panic!(..);`) has the type
                // of whatever it must be, as if the statement were its tail.
                // `m.entry(k).and_modify(|t| ..).or_default();`: the entry's reference
                // dropped in the statement.
                syn::Stmt::Expr(syn::Expr::MethodCall(m), Some(_))
                    if super::idioms::desugar_entry_closures(m, true).is_some() =>
                {
                    let e = super::idioms::desugar_entry_closures(m, true)?;
                    self.lower_expr(&e)?;
                }
                syn::Stmt::Expr(e, semi) => {
                    let v = self.lower_expr(e)?;
                    if last && (semi.is_none() || diverges(e)) {
                        return Some(v);
                    }
                }
                syn::Stmt::Macro(m) => {
                    let v = self.lower_macro(&m.mac, m.span())?;
                    if last && (m.semi_token.is_none() || diverging_macro(&m.mac)) {
                        return Some(v);
                    }
                }
            }
        }
        Some(self.unit(span))
    }

    /// `let mut it = Linspace::new(..);` of a type of the user's: a value of that type, as
    /// if written (`let mut it: Linspace = ..`), so that its methods are the user's,
    /// `it.next()` of its `impl Iterator` too (`new` returns `Self` by convention).
    fn note_constructed_local(&mut self, local: &syn::Local) {
        let syn::Pat::Ident(p) = &local.pat else {
            return;
        };
        let Some(init) = &local.init else {
            return;
        };
        let syn::Expr::Call(c) = super::place::strip(&init.expr) else {
            return;
        };
        let syn::Expr::Path(f) = super::place::strip(&c.func) else {
            return;
        };
        if f.qself.is_some() || !self.is_user_new(&f.path) {
            return;
        }
        if let Some(v) = self.lookup(&p.ident.to_string()) {
            if self.func.values[v].ty == TypeHint::Unknown {
                self.written_user.insert(v);
                self.user.insert(v, super::user_ops::UserShape::Value);
            }
        }
    }

    /// `let mut i = self.i;` of a field whose type the macro cannot see, read later as an
    /// integer (`while i > 0`, `i % 2`, `i /= 2`, `0..n`): Rust gives an integer literal
    /// no float type, so `i` is an integer, computed on primals like one whose type is
    /// written (a loop carrying it, `i % self.base`). Not when a later pattern binds the
    /// name again (the evidence could be the other binding's).
    fn infer_integer_local(&mut self, local: &syn::Local, rest: &[syn::Stmt]) {
        let syn::Pat::Ident(p) = &local.pat else {
            return;
        };
        let Some(init) = &local.init else {
            return;
        };
        if !matches!(super::place::strip(&init.expr), syn::Expr::Field(_)) || init.diverge.is_some()
        {
            return;
        }
        let Some(v) = self.lookup(&p.ident.to_string()) else {
            return;
        };
        if self.func.values[v].ty != TypeHint::Unknown || !used_as_integer(&p.ident, rest) {
            return;
        }
        self.func.values[v].ty = TypeHint::Int;
    }

    /// `()`.
    pub(crate) fn unit(&mut self, span: Span) -> Value {
        self.push(InstKind::Tuple(vec![]), TypeHint::NonDiff, span)
    }

    fn lower_item(&mut self, item: &syn::Item) {
        match item {
            // A local `struct`/`enum` gets its tangent type in the rule's copy, and a local
            // `impl` its rules (see `derive_frule::give_nested_fns_rules`).
            syn::Item::Const(_)
            | syn::Item::Use(_)
            | syn::Item::Fn(_)
            | syn::Item::Static(_)
            | syn::Item::Struct(_)
            | syn::Item::Enum(_)
            | syn::Item::Impl(_) => {
                self.func.items.push(item.clone());
            }
            other => self.diag.error_spanned(&other,
                "`#[derive_frule]` supports only `const`, `static`, `use`, `fn`, `struct`, `enum` and `impl` items inside a function body; move this item out of the function",
            ),
        }
    }

    pub(crate) fn lower_local(&mut self, local: &syn::Local) -> Option<()> {
        // `let b = a.iter().map(|x| ..);`: its closures, for the error if it stays lazy.
        if let Some(init) = &local.init {
            if let syn::Expr::MethodCall(m) = super::place::strip(&init.expr) {
                if crate::callee::Adaptor::from_name(&m.method.to_string()).is_some() {
                    self.let_chains.extend(super::expr::closures_of_chain(m));
                }
            }
        }
        // `let mut it = x.iter().peekable();`: a cursor over the slice (`peekable.rs`).
        if let Some(lets) = self.peekable_lets(local) {
            for l in &lets {
                self.lower_local(l)?;
            }
            return Some(());
        }
        let Some(init) = &local.init else {
            // `let (y, z);`, `let (y, z): (f64, f64);`: a declaration per name.
            if let Some(parts) = split_declaration(&local.pat, None) {
                for part in parts {
                    self.lower_local(&part)?;
                }
                return Some(());
            }
            // `let mut p;`, assigned later: Rust proves every read comes after an
            // assignment, so the value it starts with (the runtime's `undef()`) reaches
            // only merges nothing reads (an `if` that assigns `p` in one arm).
            let (syn::Pat::Ident(_) | syn::Pat::Type(_)) = &local.pat else {
                self.diag.error_spanned(&local,
                    "`#[derive_frule]` does not support `let` with a pattern and no initial value; declare each variable with its own `let`, or initialise them where they are declared",
                );
                return Some(());
            };
            let span = local.span();
            // At the declaration, so that an error about the type's value points there.
            let rt: proc_macro2::TokenStream = self
                .rt
                .clone()
                .into_iter()
                .map(|mut t| {
                    t.set_span(span);
                    t
                })
                .collect();
            let undef = match syn::parse2::<syn::Expr>(quote::quote_spanned!(span=> #rt::undef())) {
                Ok(e) => e,
                Err(e) => {
                    self.diag.error(span, e.to_string());
                    return Some(());
                }
            };
            let mut with_init = local.clone();
            with_init.init = Some(syn::LocalInit {
                eq_token: Default::default(),
                expr: Box::new(undef),
                diverge: None,
            });
            return self.lower_local(&with_init);
        };
        // `let [a, b] = p;` with `p: &mut [f64; 2]` (or `let [a, .., z] = x else { .. };`
        // with `x: &mut [f64]`): each name borrows its element, split off in turn
        // (`split_at_mut`), so that they borrow disjoint parts as in Rust.
        if let Some(sl) = self.slice_pattern_through_mut(&local.pat, &init.expr) {
            if let Some((_, diverge)) = &init.diverge {
                let span = local.span();
                let test = super::matching::slice_length_test(&init.expr, sl)
                    .and_then(|test| splice!(span=> if !(#test) { #diverge }));
                let test: syn::Expr = self.diag.handle(test)?;
                self.lower_expr(&test)?;
            }
            let lets = self
                .diag
                .handle(super::matching::split_mut_lets(&init.expr, sl))?;
            for l in lets {
                self.lower_local(&l)?;
            }
            return Some(());
        }
        if let Some((_, diverge)) = &init.diverge {
            let desugared = self
                .diag
                .handle(let_else(&local.pat, &init.expr, Some(diverge)));
            return match desugared {
                Some(desugared) => self.lower_local(&desugared),
                None => Some(()),
            };
        }
        // `let V2(x, y) = v;`, `let Foo { a, .. } = f;`: the one-arm `match` it is.
        // `let [first, .., last] = a;`: the `match` of a slice pattern.
        if array_rest_pattern(&local.pat) {
            let desugared = self.diag.handle(let_else(&local.pat, &init.expr, None));
            return match desugared {
                Some(desugared) => self.lower_local(&desugared),
                None => Some(()),
            };
        }
        // `let (first, .., last) = t;` too: the `match` knows the tuple's arity.
        if super::matching::holds_data_pattern(&local.pat) || names_after_rest(&local.pat) {
            let desugared = self.diag.handle(let_else(&local.pat, &init.expr, None));
            return match desugared {
                Some(desugared) => self.lower_local(&desugared),
                None => Some(()),
            };
        }
        // `let ref y = x;` is `let y = &x;`, `let ref mut y = x;` is `let y = &mut x;`.
        if let Some(borrowed) = ref_binding_as_borrow(local, init) {
            return self.lower_local(&borrowed);
        }
        // `let pose = tool_pose(q);` of a function of the file returning a library value:
        // read as `let pose: Isometry3<f64> = tool_pose(q);`, as the user would write it.
        if let Some(typed) = self.typed_by_callee(local, init) {
            return self.lower_local(&typed);
        }
        let (pat, ty) = match &local.pat {
            syn::Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            other => (other, None),
        };
        // `let basis = vec![Box::new(|t| ..), ..];`: each closure bound by a `let` of its own.
        if self.lower_fn_list_let(local).is_some() {
            return Some(());
        }
        // `let phi = &sq;` of a closure bound by `let`: the same closure.
        if let (syn::Pat::Ident(pi), syn::Expr::Path(p)) = (pat, strip_ref(&init.expr)) {
            if let Some(def) = p
                .path
                .get_ident()
                .and_then(|id| self.lookup_closure(&id.to_string()))
            {
                if pi.by_ref.is_none() && pi.subpat.is_none() {
                    let placeholder = self.unit(init.expr.span());
                    self.bind_closure_alias(&pi.ident, def, placeholder);
                    return Some(());
                }
            }
        }
        // `let f = match kind { 0 => |v| v.tanh(), _ => |v| v.max(0.0) };`: one error at the
        // `match` (not one per closure), saying to choose inside one closure.
        if let (Some(first), syn::Pat::Ident(pi)) = (closure_arm(&init.expr), pat) {
            let what = match super::place::strip(&init.expr) {
                syn::Expr::If(_) => "an `if`",
                _ => "a `match`",
            };
            self.diag.error_spanned(
                first,
                format!("`#[derive_frule]` does not support a closure chosen by {what}: choose inside one closure (`let {id} = |v: f64| match kind {{ 0 => v.tanh(), _ => v.max(0.0) }};`), or call functions by name in the arms", id = pi.ident),
            );
            let poison = self.poison(init.expr.span());
            self.bind(&pi.ident, poison);
            return Some(());
        }
        // `let f = |..| ..;`: remembered and inlined where it is called or iterated.
        if let (syn::Expr::Closure(c), syn::Pat::Ident(pi)) = (super::place::strip(&init.expr), pat)
        {
            if self.check_closure(c) {
                let (env, visible) = if c.capture.is_some() {
                    (self.capture_env(), Vec::new())
                } else {
                    (Vec::new(), self.visible())
                };
                let placeholder = self.unit(c.span());
                self.bind_closure(
                    &pi.ident,
                    super::ClosureDef {
                        expr: c.clone(),
                        env,
                        visible,
                    },
                    placeholder,
                );
            }
            return Some(());
        }
        // `let f = make(p[0]);` of a closure bound by `let` that returns a closure: the
        // returned closure, remembered as one bound by `let`.
        if let (syn::Expr::Call(call), syn::Pat::Ident(pi)) = (super::place::strip(&init.expr), pat)
        {
            if let Some(def) = self.returned_closure(call) {
                match def {
                    Some(def) => {
                        let placeholder = self.unit(call.span());
                        self.bind_closure(&pi.ident, def, placeholder);
                    }
                    None => {
                        let poison = self.poison(call.span());
                        self.bind(&pi.ident, poison);
                    }
                }
                return Some(());
            }
        }
        // `let s: Complex64 = it.map(..).sum();`: a sum or product of library values.
        if let (Some(ty), Some(m)) = (ty, reduction_of(&init.expr)) {
            match self.library_reduction(m, ty) {
                Some(Some(e)) => {
                    let mut desugared = local.clone();
                    if let Some(init) = &mut desugared.init {
                        *init.expr = e;
                    }
                    return self.lower_local(&desugared);
                }
                Some(None) => return Some(()),
                None => {}
            }
        }
        // `let c: Vec3 = it.map(..).sum();`: a sum or product into a type of the user's.
        if let Some(ty) = ty {
            if self.user_shape_of_type(ty) == Some(super::user_ops::UserShape::Value) {
                if let Some(m) = reduction_of(&init.expr) {
                    let mut desugared = local.clone();
                    if let Some(init) = &mut desugared.init {
                        *init.expr = self.user_reduction(m, ty)?;
                    }
                    return self.lower_local(&desugared);
                }
            }
        }
        if let Some(rc) = ty.and_then(crate::types::rc_of_trait_object) {
            self.diag
                .error_spanned(rc, crate::types::rc_of_trait_object_error(rc));
            return Some(());
        }
        if let Some(v) = ty.and_then(crate::types::inline_vec_of_floats) {
            self.diag.error_spanned(v, crate::derive_frule::INLINE_VEC);
            return Some(());
        }
        if let Some(queue) = ty.and_then(crate::types::queue_of_floats) {
            self.diag.error_spanned(
                queue,
                "`#[derive_frule]` does not support a `std::collections` queue (`VecDeque`, `BinaryHeap`, `LinkedList`) holding floats: it has no tangent type; keep the floats in a `Vec` (`push`/`pop` at the end, `remove(0)` at the front, or a ring buffer indexed modulo its length)",
            );
            return Some(());
        }
        if let Some(map) = ty.and_then(crate::types::map_of_floats) {
            self.diag.error_spanned(
                map,
                "`#[derive_frule]` supports a `HashMap` or `BTreeMap` holding floats when its key type is one the macro sees carries no tangent (integers, `bool`, `char`, `String`, `&str`, and tuples and arrays of those): a key is looked up, never differentiated, and one of a type of your own may hold floats; key the map by an integer (the index your type wraps, `HashMap<usize, f64>`) or a string",
            );
            return Some(());
        }
        let try_into = self.desugar_try_into_array(ty, &init.expr);
        // `let m: &dyn Material = &Steel { .. };`: the unsizing coercion Rust makes there is
        // the cast `&Steel { .. } as &dyn Material`, which the rule makes on the primal.
        let to_object = ty
            .filter(|ty| crate::callee::is_user_trait_object(ty))
            .map(|ty| cast_each_result(&init.expr, ty));
        let init_expr = try_into
            .as_ref()
            .or(to_object.as_ref())
            .unwrap_or(&init.expr);
        let numcast = ty.and_then(|ty| self.numcast_from(ty, init_expr));
        let init_expr = numcast.as_ref().unwrap_or(init_expr);
        let into_map = ty.and_then(|ty| super::idioms::collect_into_map(ty, init_expr));
        let init_expr = into_map.as_ref().unwrap_or(init_expr);
        let into = ty.and_then(|ty| float_into(ty, init_expr).or_else(|| user_into(ty, init_expr)));
        let first_inst = self.func.insts.iter().count();
        let value = match into {
            Some(call) => self.lower_expr(&call)?,
            None => self.lower_expr(init_expr)?,
        };
        if let Some(object) = ty.and_then(crate::callee::boxed_user_trait_object) {
            self.note_boxes_to(first_inst, object);
        }
        let value = self.copy_if_local(init_expr, value);
        if let Some(ty) = ty {
            self.annotate(value, ty);
        }
        self.bind_pattern(pat, value, ty);
        Some(())
    }

    /// `vec![x; n]` and `vec![a, b, ..]`.
    fn lower_vec(&mut self, mac: &syn::Macro, span: Span) -> Option<Value> {
        use syn::parse::Parser;
        let repeat = |input: syn::parse::ParseStream| -> syn::Result<(syn::Expr, syn::Expr)> {
            let e: syn::Expr = input.parse()?;
            input.parse::<syn::Token![;]>()?;
            let n: syn::Expr = input.parse()?;
            Ok((e, n))
        };
        if let Ok((e, n)) = repeat.parse2(mac.tokens.clone()) {
            let elem = self.lower_expr(&e)?;
            let len = self.lower_expr(&n)?;
            let ty = TypeHint::Seq(Box::new(self.func.values[elem].ty.clone()));
            return Some(self.push(InstKind::VecRepeat { elem, len }, ty, span));
        }
        match macro_args(mac) {
            Ok(elems) => {
                let vs = self.lower_exprs(elems.iter())?;
                let elem = vs
                    .first()
                    .map(|v| self.func.values[*v].ty.clone())
                    .unwrap_or(TypeHint::Unknown);
                Some(self.push(InstKind::VecList(vs), TypeHint::Seq(Box::new(elem)), span))
            }
            Err(e) => {
                self.diag.handle::<()>(Err(e));
                Some(self.poison(span))
            }
        }
    }

    /// A `Copy` of `value` when `expr` names a local (`let y = x;`): binding the same value
    /// would make `y` change when `x` is later mutated in place.
    pub(crate) fn copy_if_local(&mut self, expr: &syn::Expr, value: Value) -> Value {
        let is_local = matches!(super::place::strip(expr), syn::Expr::Path(p) if p.path.get_ident().is_some_and(|id| self.lookup(&id.to_string()) == Some(value)));
        if !is_local {
            return value;
        }
        let ty = self.func.values[value].ty.clone();
        self.push(InstKind::Copy(value), ty, expr.span())
    }

    /// Records the `Box::new(..)` calls lowered since instruction `first` as boxes of the
    /// trait object `object` (`Function::box_dyn`).
    pub(crate) fn note_boxes_to(&mut self, first: usize, object: &syn::Type) {
        let boxes: Vec<Value> = self
            .func
            .insts
            .iter()
            .skip(first)
            .filter(|(_, d)| {
                matches!(&d.kind, crate::ir::InstKind::Call { func, .. } if crate::callee::is_box_new(func))
            })
            .filter_map(|(_, d)| d.results.first().copied())
            .collect();
        for b in boxes {
            self.func.box_dyn.insert(b, object.clone());
        }
    }

    /// Records a written type on a value (kept in the emitted `let` for inference).
    pub(crate) fn annotate(&mut self, value: Value, ty: &syn::Type) {
        let hint = TypeHint::from_type(ty);
        self.note_user_type(value, ty);
        let data = &mut self.func.values[value];
        if hint != TypeHint::Unknown || data.ty == TypeHint::Unknown {
            data.ty = hint;
        }
        self.func.annotations.insert(value, ty.clone());
    }

    /// Gives `to`, a later SSA value of the same variable (a merge, a carried value), the
    /// type written for `from`, so that an arm's `s = &array` merges into
    /// `let mut s: &[f64]` with the same coercion.
    pub(crate) fn inherit_annotation(&mut self, from: Value, to: Value) {
        self.inherit_user(from, to);
        if self.is_written_lib(from) {
            self.lib_built.insert(to);
        }
        if let Some(t) = self.func.annotations.get(&from).cloned() {
            self.func.annotations.insert(to, t);
        }
    }

    /// The part of the tuple `value` that the element pattern `p` at `member` matches. A
    /// tuple pattern through a reference binds references to the fields (`filter(|(i, _)|
    /// *i % 2 == 0)`: `i: &usize`), as Rust's default binding mode does; a `&` pattern
    /// there matches the field itself, whose own reference it strips (`filter(|(_r, &v)| v <
    /// 0.)` over `zip` of two slices: `v: f64`, as in Rust before the 2024 edition, which
    /// rejects the pattern).
    #[inline(never)]
    fn tuple_pattern_field(&mut self, value: Value, member: syn::Member, p: &syn::Pat) -> Value {
        match &self.func.values[value].ty {
            TypeHint::Ref(inner) if !matches!(p, syn::Pat::Reference(_)) => {
                let hint = TypeHint::Ref(Box::new(inner.field(&member)));
                self.push(
                    InstKind::FieldRef {
                        base: value,
                        member,
                        mutable: false,
                    },
                    hint,
                    p.span(),
                )
            }
            outer => {
                let hint = outer.deref_all_pub().field(&member);
                self.push(
                    InstKind::Field {
                        base: value,
                        member,
                    },
                    hint,
                    p.span(),
                )
            }
        }
    }

    /// Binds the names of `pat` to (parts of) `value`.
    pub(crate) fn bind_pattern(&mut self, pat: &syn::Pat, value: Value, ty: Option<&syn::Type>) {
        match pat {
            syn::Pat::Ident(pi) => {
                if let Some((_, sub)) = &pi.subpat {
                    self.diag.error_spanned(&sub, "`#[derive_frule]` does not support `name @ pattern` bindings");
                }
                // `let (ref a, b) = t;`: `a` borrows its part (a `ref mut` part would have
                // to write back into `t`).
                let value = match (pi.by_ref, &pi.mutability) {
                    (None, _) => value,
                    (Some(_), None) => self.borrow(value, false, pi.span()),
                    (Some(_), Some(_)) => {
                        self.diag.error_spanned(&pi, "`#[derive_frule]` does not support `ref mut` bindings inside a pattern; borrow the part with `&mut` (`let a = &mut t.0;`)");
                        value
                    }
                };
                self.bind(&pi.ident, value);
            }
            syn::Pat::Wild(_) => {}
            syn::Pat::Type(pt) => {
                self.annotate(value, &pt.ty);
                self.bind_pattern(&pt.pat, value, Some(&pt.ty));
            }
            syn::Pat::Paren(p) => self.bind_pattern(&p.pat, value, ty),
            syn::Pat::Reference(r) => {
                let inner = self.deref(value, r.span());
                self.bind_pattern(&r.pat, inner, None);
            }
            syn::Pat::Tuple(t) => {
                let arity = match ty {
                    Some(syn::Type::Tuple(tt)) => Some(tt.elems.len()),
                    _ => match self.func.values[value].ty.deref_all_pub() {
                        TypeHint::Tuple(ts) => Some(ts.len()),
                        _ => None,
                    },
                };
                // `(first, .., last)`: the elements after `..` counted from the end.
                let Some(positions) = tuple_positions(&t.elems, arity).into_iter().collect::<Option<Vec<_>>>() else {
                    self.diag.error_spanned(&t, "`#[derive_frule]` cannot see how many elements this tuple has, so it cannot place the names after `..`; write the tuple's type on the `let` (`let (a, .., z): (f64, f64, f64) = ..;`) or name every element (use `_` to skip one)");
                    return;
                };
                let elem_tys: Vec<Option<syn::Type>> = match ty {
                    Some(syn::Type::Tuple(tt)) => tt.elems.iter().cloned().map(Some).collect(),
                    _ => vec![None; arity.unwrap_or(t.elems.len())],
                };
                for (p, i) in t.elems.iter().zip(positions) {
                    if matches!(p, syn::Pat::Wild(_) | syn::Pat::Rest(_)) {
                        continue;
                    }
                    let member = syn::Member::Unnamed(syn::Index { index: i as u32, span: p.span() });
                    let field = self.tuple_pattern_field(value, member, p);
                    let sub_ty = elem_tys.get(i).cloned().flatten();
                    match &sub_ty {
                        Some(st) => self.annotate(field, st),
                        None => self.note_opaque_part(value, field),
                    }
                    self.bind_pattern(p, field, sub_ty.as_ref());
                }
            }
            // `let [a, b, c] = p;` (and `fn f([a, b]: [f64; 2])`): each name bound to its
            // element, by value, or borrowed through a reference as Rust's binding mode does.
            syn::Pat::Slice(sl) => {
                if self.func.is_mut_ref(value) {
                    self.diag.error_spanned(&sl, "`#[derive_frule]` does not support array patterns through `&mut` (they would borrow every element mutably at once); write through the elements by index (`p[0] *= k`)");
                    return;
                }
                if sl.elems.iter().any(|p| matches!(p, syn::Pat::Rest(_))) {
                    self.diag.error_spanned(&sl, "`#[derive_frule]` does not support `..` in array patterns; name every element (use `_` to skip one)");
                    return;
                }
                let elem_ty = match ty {
                    Some(syn::Type::Array(a)) => Some((*a.elem).clone()),
                    _ => None,
                };
                for (i, p) in sl.elems.iter().enumerate() {
                    if matches!(p, syn::Pat::Wild(_)) {
                        continue;
                    }
                    let lit = syn::LitInt::new(&format!("{i}usize"), p.span());
                    let index = self.push(InstKind::Lit(lit.into()), TypeHint::Int, p.span());
                    let hint = self.func.values[value].ty.element();
                    let elem = match &self.func.values[value].ty {
                        TypeHint::Ref(_) => self.push(
                            InstKind::ElemRef { base: value, index, mutable: false },
                            TypeHint::Ref(Box::new(hint)),
                            p.span(),
                        ),
                        _ => self.push(InstKind::Index { base: value, index }, hint, p.span()),
                    };
                    match &elem_ty {
                        Some(et) => self.annotate(elem, et),
                        None => self.note_opaque_part(value, elem),
                    }
                    self.bind_pattern(p, elem, elem_ty.as_ref());
                }
            }
            other => self.diag.error_spanned(&other,
                "`#[derive_frule]` supports only names, `_`, tuples and arrays in `let` patterns and parameters; destructure in separate `let`s",
            ),
        }
    }

    /// `assert!(c, ..)` as `if !(c) { rt::fail(msg) }`, `assert_eq!(a, b)` as the test
    /// `a == b`, `debug_assert*!` also behind `rt::debug_assertions()`, and `panic!`,
    /// `unreachable!`, `todo!`, `unimplemented!` as `rt::fail(msg)`: the message is the
    /// macro's format string as written (its arguments are not printed). `None` for other
    /// macros, or arguments that do not parse.
    fn assertion_as_expr(
        &self,
        name: &str,
        mac: &syn::Macro,
        span: Span,
    ) -> Option<syn::Result<syn::Expr>> {
        let args = macro_args(mac).ok()?;
        let args: Vec<&syn::Expr> = args.iter().collect();
        let rt = &self.rt;
        let text = |e: &syn::Expr| quote::ToTokens::to_token_stream(e).to_string();
        let message = |k: usize, default: String| match args.get(k) {
            Some(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            })) => s.value(),
            _ => default,
        };
        let kind = StdMacro::from_name(name)?;
        let (debug, base) = match kind.debug_of() {
            Some(b) => (true, b),
            None => (false, kind),
        };
        let (test, msg): (syn::Result<syn::Expr>, String) = match (base, args.as_slice()) {
            (StdMacro::Assert, [c, ..]) => (
                splice!(span=> (#c)),
                message(1, format!("assertion failed: {}", text(c))),
            ),
            (StdMacro::AssertEq | StdMacro::AssertNe, [a, b, ..]) => {
                let test = if base == StdMacro::AssertEq {
                    splice!(span=> ((#a) == (#b)))
                } else {
                    splice!(span=> ((#a) != (#b)))
                };
                let op = if base == StdMacro::AssertEq {
                    "=="
                } else {
                    "!="
                };
                (
                    test,
                    message(
                        2,
                        format!(
                            "assertion `left {op} right` failed: {} {op} {}",
                            text(a),
                            text(b)
                        ),
                    ),
                )
            }
            (_, _) if !debug && base.default_message().is_some() => {
                let default = base.default_message().unwrap_or_default();
                let msg = message(0, default.to_string());
                return Some(splice!(span=> #rt::fail(#msg)));
            }
            _ => return None,
        };
        let test = match test {
            Ok(test) => test,
            Err(e) => return Some(Err(e)),
        };
        let fails = if debug {
            quote::quote_spanned!(span=> #rt::debug_assertions() && !#test)
        } else {
            quote::quote_spanned!(span=> !#test)
        };
        Some(splice!(span=> if #fails { #rt::fail(#msg) }))
    }

    /// Macros in statement or expression position.
    pub(crate) fn lower_macro(&mut self, mac: &syn::Macro, span: Span) -> Option<Value> {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let kind = StdMacro::from_name(&name);
        if kind == Some(StdMacro::Vec) {
            return self.lower_vec(mac, span);
        }
        if let Some(e) = self.assertion_as_expr(&name, mac, span) {
            return self.lower_spliced(e, span);
        }
        if kind.is_some_and(StdMacro::formats) {
            return self.lower_print(mac, span);
        }
        if kind == Some(StdMacro::Dbg) {
            return self.lower_dbg(mac, span);
        }
        if kind == Some(StdMacro::Matches) {
            if let Some(e) = matches_as_expr(mac, span) {
                return self.lower_spliced(e, span);
            }
        }
        if kind.is_some_and(StdMacro::lends_first_arg) {
            return Some(self.lower_opaque_macro(mac, span, true));
        }
        // A `std` macro without a lowering here (inline assembly): rejected, as `unsafe` is.
        if kind.is_some() {
            self.diag.error(
                span,
                format!(
                    "`#[derive_frule]` does not support the macro `{name}!` in a differentiated body; move it into a helper function (with `#[non_differentiable]` if it returns no derivative)"
                ),
            );
            return Some(self.poison(span));
        }
        // ndarray's `azip!((a in &mut a, &b in &b) ..)`: the loop over the elements; its
        // other forms (`index i`) would run the closure on primals alone.
        if crate::libtypes::is_ndarray_zip_macro(&mac.path) {
            if let Some(e) = super::library_calls::desugar_azip(mac) {
                return self.lower_expr(&e);
            }
            self.diag.error(
                span,
                crate::libtypes::NDARRAY_ZIP_ADVICE.replace("{what}", "`azip!`"),
            );
            return Some(self.poison(span));
        }
        if self.file_macro_escapes(mac) {
            return Some(self.poison(span));
        }
        Some(self.lower_opaque_macro(mac, span, false))
    }

    /// Reports a `macro_rules!` of the file whose expansion declares locals
    /// (`crate::source::MacroEffects`): run as written on plain values, as macros the
    /// macro does not know are, its locals would be unknown to the rest of the body (whose
    /// assignments to them were ``can only assign local variables; `t` is not one``).
    #[inline(never)]
    fn file_macro_escapes(&mut self, mac: &syn::Macro) -> bool {
        let Some(name) = mac.path.get_ident() else {
            return false;
        };
        let Some(effects) = crate::source::file_macro(&name.to_string()) else {
            return false;
        };
        if !effects.declares {
            return false;
        }
        self.diag.error_spanned(
            &mac.path,
            format!("`#[derive_frule]` does not expand the macro `{name}!`, which declares local variables (its `macro_rules!` expands to `let`s): it runs the macros it does not know as written on plain values, so the rest of the body could not see them; write the `let`s that `{name}!` expands to in the function"),
        );
        true
    }

    /// A macro of another crate (`ulps_eq!(x, 1.0)`, `log::debug!("{x}")`): an
    /// [`InstKind::Opaque`] over the locals its tokens name, inline format arguments
    /// (`"{x}"`) included.
    /// With `lend_first` (`write!(out, ..)`), a destination that is a local's name comes
    /// first among the captures, lent `&mut` so that the write reaches it.
    fn lower_opaque_macro(&mut self, mac: &syn::Macro, span: Span, lend_first: bool) -> Value {
        let mut names: Vec<syn::Ident> = Vec::new();
        collect_local_names(mac.tokens.clone(), &mut names);
        let (mut captures, mut args): (Vec<syn::Ident>, Vec<Value>) = (Vec::new(), Vec::new());
        let mut lent = false;
        if lend_first {
            let mut tokens = mac.tokens.clone().into_iter();
            if let (
                Some(proc_macro2::TokenTree::Ident(id)),
                Some(proc_macro2::TokenTree::Punct(p)),
            ) = (tokens.next(), tokens.next())
            {
                if p.as_char() == ',' {
                    if let Some(v) = self.lookup(&id.to_string()) {
                        captures.push(id);
                        args.push(v);
                        lent = true;
                    }
                }
            }
        }
        for id in names {
            if captures.contains(&id) {
                continue;
            }
            if let Some(v) = self.lookup(&id.to_string()) {
                captures.push(id);
                args.push(v);
            }
        }
        // A macro that names no local (`pi_2!()`, `inf!()`, `env!(..)`) cannot read the
        // differentiated inputs (macro_rules! are hygienic): its value, a float too, is a
        // constant.
        let hint = if args.is_empty() && !crate::libtypes::is_slice_macro(&mac.path) {
            TypeHint::Unknown
        } else {
            TypeHint::NonDiff
        };
        self.push(
            InstKind::Opaque {
                mac: mac.clone(),
                captures,
                args,
                lent,
            },
            hint,
            span,
        )
    }
}

/// The identifiers in `tokens` that may name a local: not a field or method (after `.`),
/// not a path segment (before or after `::`), not a macro (before `!`), and the names
/// captured inline by format strings (`"{x:.3}"`), with the literal's span.
fn collect_local_names(tokens: proc_macro2::TokenStream, out: &mut Vec<syn::Ident>) {
    use proc_macro2::TokenTree;
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    let punct =
        |t: Option<&TokenTree>, c: char| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c);
    for (i, t) in tts.iter().enumerate() {
        match t {
            TokenTree::Group(g) => collect_local_names(g.stream(), out),
            TokenTree::Ident(id) => {
                let before = i.checked_sub(1).and_then(|j| tts.get(j));
                let after = tts.get(i + 1);
                // `a::x`, `x::a` (a path), not `name: x` (a macro's named argument,
                // `select_implementation! { args: x, .. }`) nor `x: T`.
                let joint = |t: Option<&TokenTree>| {
                    matches!(t, Some(TokenTree::Punct(p))
                        if p.as_char() == ':' && p.spacing() == proc_macro2::Spacing::Joint)
                };
                let in_path = (punct(before, ':')
                    && joint(i.checked_sub(2).and_then(|j| tts.get(j))))
                    || joint(after);
                if !(punct(before, '.') || in_path || punct(after, '!')) {
                    out.push(id.clone());
                }
            }
            TokenTree::Literal(lit) => {
                if let syn::Lit::Str(s) = syn::Lit::new(lit.clone()) {
                    for name in inline_format_names(&s.value()) {
                        if let Ok(id) = syn::parse_str::<syn::Ident>(&name) {
                            out.push(syn::Ident::new(&id.to_string(), lit.span()));
                        }
                    }
                }
            }
            TokenTree::Punct(_) => {}
        }
    }
}

/// A macro's arguments read as comma-separated expressions (`format!`, `vec!`, `assert!`).
pub(crate) fn macro_args(mac: &syn::Macro) -> syn::Result<Vec<syn::Expr>> {
    use syn::punctuated::Punctuated;
    mac.parse_body_with(Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
        .map(|args| args.into_iter().collect())
}

impl Lowerer<'_> {
    /// [`macro_args`] of the macro `name!`, or an error saying it could not be read and
    /// the poisoned value to return instead.
    fn read_macro_args(
        &mut self,
        mac: &syn::Macro,
        name: impl std::fmt::Display,
        span: Span,
    ) -> Result<Vec<syn::Expr>, Value> {
        macro_args(mac).map_err(|e| {
            self.diag.error(
                e.span(),
                format!("`#[derive_frule]` could not read this `{name}!`: {e}"),
            );
            self.poison(span)
        })
    }

    /// `dbg!(e)`: `e`'s value, printed to stderr as `dbg!` prints it (`[file:line:col] e =
    /// {:#?}` of the primal). A [`InstKind::Print`] named `dbg` carrying the expression's
    /// tokens (`shown`); `dbg!(a, b)` is `(dbg!(a), dbg!(b))`, and `dbg!()` prints the
    /// location.
    fn lower_dbg(&mut self, mac: &syn::Macro, span: Span) -> Option<Value> {
        let exprs = match self.read_macro_args(mac, StdMacro::Dbg.name(), span) {
            Ok(exprs) => exprs,
            Err(poison) => return Some(poison),
        };
        let print = |lw: &mut Self, shown: Option<&syn::Expr>, args: Vec<Value>| {
            let kind = InstKind::Print {
                mac: StdMacro::Dbg,
                fmt: syn::LitStr::new("", span),
                shown: shown.map(quote::ToTokens::to_token_stream),
                names: vec![None; args.len()],
                args,
            };
            lw.push(kind, TypeHint::NonDiff, span)
        };
        match exprs.as_slice() {
            [] => {
                print(self, None, Vec::new());
                Some(self.unit(span))
            }
            [e] => {
                let v = self.lower_expr(e)?;
                print(self, Some(e), vec![v]);
                Some(v)
            }
            many => {
                // Each at the macro's own location, as `dbg!` reports them.
                let parts = many.iter().map(|e| quote::quote_spanned!(span=> dbg!(#e)));
                let tuple = splice!(span=> (#(#parts,)*));
                self.lower_spliced(tuple, span)
            }
        }
    }

    /// `println!(fmt, args..)` and its siblings, and `format!`: the arguments are lowered
    /// (formatted as their primal values); names captured inline (`{x}`, `{x:.3}`, `{:w$}`)
    /// become named arguments.
    fn lower_print(&mut self, mac: &syn::Macro, span: Span) -> Option<Value> {
        let Some(last) = mac.path.segments.last() else {
            return Some(self.poison(span));
        };
        let name = last.ident.clone();
        let Some(kind) = StdMacro::from_name(&name.to_string()).filter(|m| m.formats()) else {
            return Some(self.poison(span));
        };
        let exprs = match self.read_macro_args(mac, &name, span) {
            Ok(exprs) => exprs,
            Err(poison) => return Some(poison),
        };
        let fmt = match exprs.first() {
            Some(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            })) => s.clone(),
            // `println!()`: an empty line.
            None => syn::LitStr::new("", span),
            Some(other) => {
                self.diag
                    .error_spanned(other, format!("`{name}!` takes a string literal first"));
                return Some(self.poison(span));
            }
        };
        let (mut names, mut args) = (Vec::new(), Vec::new());
        for e in exprs.iter().skip(1) {
            match e {
                syn::Expr::Assign(a) => {
                    let syn::Expr::Path(p) = &*a.left else {
                        self.diag
                            .error_spanned(&a.left, "expected an argument name");
                        return Some(self.poison(span));
                    };
                    let Some(id) = p.path.get_ident() else {
                        self.diag
                            .error_spanned(&a.left, "expected an argument name");
                        return Some(self.poison(span));
                    };
                    names.push(Some(id.clone()));
                    args.push(self.lower_expr(&a.right)?);
                }
                _ => {
                    names.push(None);
                    args.push(self.lower_expr(e)?);
                }
            }
        }
        for id in inline_format_names(&fmt.value()) {
            if names.iter().flatten().any(|n| *n == id) {
                continue;
            }
            let ident = syn::Ident::new(&id, fmt.span());
            let path = crate::splice::path_expr(&ident);
            names.push(Some(ident));
            args.push(self.lower_expr(&path)?);
        }
        Some(self.push(
            InstKind::Print {
                mac: kind,
                fmt,
                shown: None,
                names,
                args,
            },
            TypeHint::NonDiff,
            span,
        ))
    }
}

/// `matches!(e, PAT)` / `matches!(e, PAT if guard)` as `match e { PAT if guard => true,
/// _ => false }`. `None` if the arguments do not parse.
fn matches_as_expr(mac: &syn::Macro, span: Span) -> Option<syn::Result<syn::Expr>> {
    struct Args(syn::Expr, syn::Pat, Option<syn::Expr>);
    impl syn::parse::Parse for Args {
        fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
            let e = input.parse()?;
            input.parse::<syn::Token![,]>()?;
            let pat = syn::Pat::parse_multi_with_leading_vert(input)?;
            let guard = if input.peek(syn::Token![if]) {
                input.parse::<syn::Token![if]>()?;
                Some(input.parse()?)
            } else {
                None
            };
            let _ = input.parse::<Option<syn::Token![,]>>()?;
            Ok(Args(e, pat, guard))
        }
    }
    let Args(e, pat, guard) = mac.parse_body().ok()?;
    let guard = guard.map(|g| quote::quote!(if #g));
    Some(splice!(span=> match (#e) { #pat #guard => true, _ => false }))
}

/// Whether `name` is one identifier (a keyword too): `syn::Ident::new` panics on
/// alphanumeric text that is not (`x²`, whose `²` is numeric but no identifier character),
/// which a format string may hold; rustc reports such a string on the plain function.
fn is_identifier(name: &str) -> bool {
    use syn::ext::IdentExt;
    syn::parse::Parser::parse_str(syn::Ident::parse_any, name).is_ok()
}

/// The names a format string captures inline: `x` in `{x}`, `{x:.3}`, `{x:?}`, and `w`,
/// `p` in `{:w$.p$}` (not `{}`, `{0}`, `{:1$}`, `{{`).
fn inline_format_names(fmt: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
            }
            '{' => {
                let mut inner = String::new();
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                    inner.push(d);
                }
                let (arg, spec) = inner.split_once(':').unwrap_or((&inner, ""));
                // The argument, and the width or precision named by `name$` in the spec.
                let dollar_names = spec.split('$').rev().skip(1).map(|before| {
                    // After the last character that is not part of a name (a fill
                    // character may take several bytes: `{:€w$}`).
                    let start = before
                        .char_indices()
                        .rev()
                        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
                        .map_or(0, |(i, c)| i + c.len_utf8());
                    // Flags and a zero pad before the name (`{:0w$}`).
                    before[start..].trim_start_matches(|c: char| c.is_ascii_digit())
                });
                for name in std::iter::once(arg.trim()).chain(dollar_names) {
                    let is_name = name
                        .chars()
                        .next()
                        .is_some_and(|f| f.is_alphabetic() || f == '_')
                        && name.chars().all(|d| d.is_alphanumeric() || d == '_')
                        && is_identifier(name);
                    if is_name && !out.iter().any(|o| o == name) {
                        out.push(name.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// `let PAT = e else { d };` as `let (a, b, ..) = match e { PAT => (a, b, ..), _ => d };`,
/// `a, b, ..` the names `PAT` binds (with their `mut`). A type on the pattern
/// (`let Some(a): Option<&f64> = ..`) is dropped: a `match` arm cannot hold it, and the
/// scrutinee's type is inferred as in the user's `let`.
///
/// Without `else` (`diverge` is `None`), an irrefutable struct pattern:
/// `let V2(x, y) = v;` as `let (x, y) = match v { V2(x, y) => (x, y) };`.
fn let_else(
    pat: &syn::Pat,
    init: &syn::Expr,
    diverge: Option<&syn::Expr>,
) -> syn::Result<syn::Local> {
    let pat = match pat {
        syn::Pat::Type(pt) => &*pt.pat,
        other => other,
    };
    let mut names = super::PatIdents::default();
    syn::visit::Visit::visit_pat(&mut names, pat);
    // A capitalised name is a unit variant or a constant (`None`, `MAX`).
    names.0.retain(|p| {
        (p.subpat.is_none()
            || diverge.is_none()
            || p.subpat
                .as_ref()
                .is_some_and(|(_, s)| matches!(**s, syn::Pat::Rest(_))))
            && !crate::callee::is_capitalised(&p.ident.to_string())
    });
    let bound: Vec<syn::Pat> = (names.0.iter().cloned())
        .map(|mut p| {
            p.subpat = None;
            syn::Pat::Ident(p)
        })
        .collect();
    let idents = names.0.iter().map(|p| &p.ident);
    let span = pat.span();
    let arm_pat = strip_mut(pat);
    let expr: syn::Expr = match diverge {
        Some(diverge) => splice!(span=>
            match (#init) { #arm_pat => (#(#idents,)*), _ => #diverge }
        )?,
        None => splice!(span=> match (#init) { #arm_pat => (#(#idents,)*) })?,
    };
    Ok(syn::Local {
        attrs: vec![],
        let_token: syn::Token![let](span),
        pat: syn::Pat::Tuple(syn::PatTuple {
            attrs: vec![],
            paren_token: syn::token::Paren(span),
            elems: bound
                .into_iter()
                .flat_map(|p| [Pair::Punctuated(p, syn::Token![,](span))])
                .collect(),
        }),
        init: Some(syn::LocalInit {
            eq_token: syn::Token![=](span),
            expr: Box::new(expr),
            diverge: None,
        }),
        semi_token: syn::Token![;](span),
    })
}

/// `let ref y = x;` as `let y = &x;` and `let ref mut y: T = x;` as `let y: &mut T = &mut x;`
/// (the same borrow, of the place or of a temporary that lives as long as `y`).
fn ref_binding_as_borrow(local: &syn::Local, init: &syn::LocalInit) -> Option<syn::Local> {
    let (pi, ty) = match &local.pat {
        syn::Pat::Ident(pi) => (pi, None),
        syn::Pat::Type(pt) => match &*pt.pat {
            syn::Pat::Ident(pi) => (pi, Some(pt)),
            _ => return None,
        },
        _ => return None,
    };
    let by_ref = pi.by_ref?;
    if pi.subpat.is_some() || init.diverge.is_some() {
        return None;
    }
    let span = by_ref.span;
    let mutability = pi.mutability.map(|_| syn::Token![mut](span));
    let mut name = pi.clone();
    name.by_ref = None;
    name.mutability = None;
    let pat = match ty {
        Some(pt) => syn::Pat::Type(syn::PatType {
            pat: Box::new(syn::Pat::Ident(name)),
            ty: Box::new(syn::Type::Reference(syn::TypeReference {
                and_token: syn::Token![&](span),
                lifetime: None,
                mutability,
                elem: pt.ty.clone(),
            })),
            ..pt.clone()
        }),
        None => syn::Pat::Ident(name),
    };
    let expr = syn::Expr::Reference(syn::ExprReference {
        attrs: vec![],
        and_token: syn::Token![&](span),
        mutability,
        expr: match &*init.expr {
            e @ (syn::Expr::Path(_)
            | syn::Expr::Field(_)
            | syn::Expr::Index(_)
            | syn::Expr::Call(_)
            | syn::Expr::MethodCall(_)
            | syn::Expr::Paren(_)
            | syn::Expr::Lit(_)) => Box::new(e.clone()),
            e => Box::new(syn::Expr::Paren(syn::ExprParen {
                attrs: vec![],
                paren_token: syn::token::Paren(span),
                expr: Box::new(e.clone()),
            })),
        },
    });
    Some(syn::Local {
        pat,
        init: Some(syn::LocalInit {
            expr: Box::new(expr),
            ..init.clone()
        }),
        ..local.clone()
    })
}

/// `let (y, (z, _)): (f64, (f64, f64));` as `let y: f64; let z: f64;`: the declarations of a
/// tuple pattern's names without a value, each with its type when written. `None` for a
/// pattern that is not a tuple of names (or a tuple with `..`).
fn split_declaration(pat: &syn::Pat, ty: Option<&syn::Type>) -> Option<Vec<syn::Local>> {
    match pat {
        syn::Pat::Type(pt) => split_declaration(&pt.pat, Some(&pt.ty)),
        syn::Pat::Paren(p) => split_declaration(&p.pat, ty),
        syn::Pat::Tuple(t) => {
            let tys: Vec<Option<&syn::Type>> = match ty {
                Some(syn::Type::Tuple(tt)) if tt.elems.len() == t.elems.len() => {
                    tt.elems.iter().map(Some).collect()
                }
                Some(_) => return None,
                None => vec![None; t.elems.len()],
            };
            let mut out = Vec::new();
            for (p, ty) in t.elems.iter().zip(tys) {
                match p {
                    syn::Pat::Wild(_) => {}
                    syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                        let span = pi.span();
                        let pat = match ty {
                            Some(ty) => syn::Pat::Type(syn::PatType {
                                attrs: vec![],
                                pat: Box::new(p.clone()),
                                colon_token: syn::Token![:](span),
                                ty: Box::new(ty.clone()),
                            }),
                            None => p.clone(),
                        };
                        out.push(syn::Local {
                            attrs: vec![],
                            let_token: syn::Token![let](span),
                            pat,
                            init: None,
                            semi_token: syn::Token![;](span),
                        });
                    }
                    _ => out.extend(split_declaration(p, ty)?),
                }
            }
            Some(out)
        }
        _ => None,
    }
}

/// Whether `pat` is an array pattern with `..` (`[first, .., last]`, `[a, rest @ ..]`).
fn array_rest_pattern(pat: &syn::Pat) -> bool {
    match pat {
        syn::Pat::Type(t) => array_rest_pattern(&t.pat),
        syn::Pat::Paren(p) => array_rest_pattern(&p.pat),
        syn::Pat::Reference(r) => array_rest_pattern(&r.pat),
        syn::Pat::Slice(sl) => sl.elems.iter().any(|p| match p {
            syn::Pat::Rest(_) => true,
            syn::Pat::Ident(pi) => pi
                .subpat
                .as_ref()
                .is_some_and(|(_, sub)| matches!(**sub, syn::Pat::Rest(_))),
            _ => false,
        }),
        _ => false,
    }
}

/// Whether a tuple pattern names an element after its `..` (`(first, .., last)`) with no
/// tuple type written around it.
fn names_after_rest(pat: &syn::Pat) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_pat_type(&mut self, _: &'ast syn::PatType) {}
        fn visit_pat_tuple(&mut self, t: &'ast syn::PatTuple) {
            let rest = t.elems.iter().position(|p| matches!(p, syn::Pat::Rest(_)));
            if rest.is_some_and(|r| r + 1 < t.elems.len()) {
                self.0 = true;
            }
            syn::visit::visit_pat_tuple(self, t);
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_pat(&mut f, pat);
    f.0
}

/// The position of each element of a tuple pattern in a tuple of `arity` elements: those
/// after a `..` count from the end (`(a, .., z)` of three is `0, _, 2`), and are `None`
/// when the arity is unknown.
pub(crate) fn tuple_positions(
    elems: &syn::punctuated::Punctuated<syn::Pat, syn::Token![,]>,
    arity: Option<usize>,
) -> Vec<Option<usize>> {
    let n = elems.len();
    let rest = elems.iter().position(|p| matches!(p, syn::Pat::Rest(_)));
    (0..n)
        .map(|i| match rest {
            Some(r) if i > r => arity.filter(|&a| a + 1 >= n).map(|a| a + i - n),
            _ => Some(i),
        })
        .collect()
}

/// `pat` without `mut` on its bindings (they are rebound, with `mut`, outside the match).
fn strip_mut(pat: &syn::Pat) -> syn::Pat {
    struct Strip;
    impl syn::visit_mut::VisitMut for Strip {
        fn visit_pat_ident_mut(&mut self, p: &mut syn::PatIdent) {
            p.mutability = None;
            syn::visit_mut::visit_pat_ident_mut(self, p);
        }
    }
    let mut pat = pat.clone();
    syn::visit_mut::VisitMut::visit_pat_mut(&mut Strip, &mut pat);
    pat
}

/// `panic!`, `unreachable!`, `todo!`, `unimplemented!`: macros whose value is `!`.
fn diverging_macro(mac: &syn::Macro) -> bool {
    StdMacro::of_path(&mac.path).is_some_and(|m| m.default_message().is_some())
}

/// A diverging macro, or `std::process::exit(..)` (also `process::exit`).
fn diverges(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Macro(m) => diverging_macro(&m.mac),
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => crate::callee::is_process_exit(&p.path),
            _ => false,
        },
        _ => false,
    }
}

impl Lowerer<'_> {
    /// `let y: T = num_traits::cast(x).unwrap();` and `let y: T = NumCast::from(x)?;`,
    /// as num-traits code converts to a float type parameter `T` (or `f64`, `f32`): the
    /// written type is the target, so the call is `T::from(x)` (`Some(x as f64)` for a
    /// concrete float), which lowering knows; the `unwrap`, `expect` or `?` stay.
    fn numcast_from(&self, ty: &syn::Type, init: &syn::Expr) -> Option<syn::Expr> {
        let syn::Type::Path(tp) = ty else {
            return None;
        };
        let target = tp.path.get_ident()?;
        let concrete = StdType::of_path(&tp.path).map(StdType::class) == Some(TypeClass::Float);
        if !concrete && !self.type_params.contains(&target.to_string()) {
            return None;
        }
        numcast_call(init, &|call| {
            let arg = call.args.first()?;
            let span = call.span();
            let template: syn::Expr = match concrete {
                true => syn::parse_quote_spanned!(span=> Some(__fwdad_arg as f64)),
                false => syn::parse_quote_spanned!(span=> T::from(__fwdad_arg)),
            };
            let mut e =
                crate::splice::fill(template, &[("__fwdad_arg", crate::splice::Hole::Expr(arg))]);
            // The written target in place of the template's `f64` / `T`.
            if let syn::Expr::Call(c) = &mut e {
                match (&mut *c.func, c.args.first_mut()) {
                    (syn::Expr::Path(p), _) if !concrete => {
                        p.path.segments[0].ident = target.clone();
                    }
                    (_, Some(syn::Expr::Cast(cast))) => *cast.ty = ty.clone(),
                    _ => return None,
                }
            }
            Some(e)
        })
    }
}

/// `init` with its num-traits conversion call (`cast(x)`, possibly under `unwrap()`,
/// `expect(..)`, `?` or parentheses) replaced by `rewrite`'s expression.
fn numcast_call(
    init: &syn::Expr,
    rewrite: &dyn Fn(&syn::ExprCall) -> Option<syn::Expr>,
) -> Option<syn::Expr> {
    match init {
        syn::Expr::Call(c) if c.args.len() == 1 => match &*c.func {
            syn::Expr::Path(p) if p.qself.is_none() && crate::callee::is_numcast(&p.path) => {
                rewrite(c)
            }
            _ => None,
        },
        syn::Expr::MethodCall(m)
            if matches!(
                StdMethod::from_name(&m.method.to_string()),
                Some(StdMethod::Unwrap | StdMethod::Expect)
            ) && m.turbofish.is_none() =>
        {
            let mut m = m.clone();
            *m.receiver = numcast_call(&m.receiver, rewrite)?;
            Some(syn::Expr::MethodCall(m))
        }
        syn::Expr::Try(t) => {
            let mut t = t.clone();
            *t.expr = numcast_call(&t.expr, rewrite)?;
            Some(syn::Expr::Try(t))
        }
        syn::Expr::Paren(p) => {
            let mut p = p.clone();
            *p.expr = numcast_call(&p.expr, rewrite)?;
            Some(syn::Expr::Paren(p))
        }
        _ => None,
    }
}

/// `let y: f64 = x.into();` (or `f32`): the conversion `f64::from(x)`, whose target the
/// written type tells (`.into()` alone does not), lowered as `x as f64` on a dual.
///
/// ```text
/// let x1: f64 = param[0].into();   // param: &[T; 2], T: Into<f64>
/// // lowered as `f64::from(param[0])`, emitted `Into::<f64>::into(..)` on a constant
/// ```
pub(super) fn float_into(ty: &syn::Type, init: &syn::Expr) -> Option<syn::Expr> {
    let syn::Type::Path(tp) = ty else {
        return None;
    };
    let is_float = StdType::of_path(&tp.path).map(StdType::class) == Some(TypeClass::Float);
    let float = tp.path.get_ident().filter(|_| is_float)?;
    let syn::Expr::MethodCall(m) = super::place::strip(init) else {
        return None;
    };
    let into = StdMethod::from_name(&m.method.to_string()) == Some(StdMethod::Into);
    if !into || !m.args.is_empty() || m.turbofish.is_some() {
        return None;
    }
    let span = m.span();
    let mut path: syn::Path = syn::parse_quote_spanned!(span=> f64::from);
    path.segments[0].ident = float.clone();
    let func = syn::Expr::Path(syn::ExprPath {
        attrs: Vec::new(),
        qself: None,
        path,
    });
    let mut args = syn::punctuated::Punctuated::new();
    args.push((*m.receiver).clone());
    Some(syn::Expr::Call(syn::ExprCall {
        attrs: Vec::new(),
        func: Box::new(func),
        paren_token: m.paren_token,
        args,
    }))
}

/// `let xyz: XyzValue = lab.into();` of a type of the user's: the conversion
/// `XyzValue::from(lab)`, whose rule is that of the user's `impl From<LabValue> for
/// XyzValue` (`.into()` alone names no target). Not for a struct literal of the target type
/// itself (`Into<T> for T`), nor a target with generic arguments or a library type.
pub(super) fn user_into(ty: &syn::Type, init: &syn::Expr) -> Option<syn::Expr> {
    let syn::Type::Path(tp) = ty else {
        return None;
    };
    let last = tp.path.segments.last()?;
    let plain_path = tp.qself.is_none()
        && tp
            .path
            .segments
            .iter()
            .all(|s| matches!(s.arguments, syn::PathArguments::None));
    if !plain_path
        || !crate::callee::names_user_type(&tp.path)
        || crate::libtypes::is_lib_name(&last.ident)
    {
        return None;
    }
    let syn::Expr::MethodCall(m) = super::place::strip(init) else {
        return None;
    };
    let into = StdMethod::from_name(&m.method.to_string()) == Some(StdMethod::Into);
    if !into || !m.args.is_empty() || m.turbofish.is_some() {
        return None;
    }
    if let syn::Expr::Struct(lit) = super::place::strip(&m.receiver) {
        if lit.path.segments.last().map(|s| &s.ident) == Some(&last.ident) {
            return None;
        }
    }
    let mut path = tp.path.clone();
    path.segments.push(syn::PathSegment::from(syn::Ident::new(
        "from",
        m.method.span(),
    )));
    let mut args = syn::punctuated::Punctuated::new();
    args.push((*m.receiver).clone());
    Some(syn::Expr::Call(syn::ExprCall {
        attrs: Vec::new(),
        func: Box::new(syn::Expr::Path(syn::ExprPath {
            attrs: Vec::new(),
            qself: None,
            path,
        })),
        paren_token: m.paren_token,
        args,
    }))
}

/// `e as ty`, the cast moved into each result of a branching `e` (`if`, `match`, a block's
/// tail), where Rust's expected type coerces each arm on its own (`if c { &A } else { &B }`
/// to `&dyn Tr`: the arms have different types, the `if` as a whole none).
fn cast_each_result(e: &syn::Expr, ty: &syn::Type) -> syn::Expr {
    let mut e = e.clone();
    match &mut e {
        syn::Expr::Paren(p) => *p.expr = cast_each_result(&p.expr, ty),
        syn::Expr::Block(b) => cast_tail(&mut b.block, ty),
        syn::Expr::If(i) => {
            cast_tail(&mut i.then_branch, ty);
            if let Some((_, els)) = &mut i.else_branch {
                **els = cast_each_result(els, ty);
            }
        }
        syn::Expr::Match(m) => {
            for arm in &mut m.arms {
                *arm.body = cast_each_result(&arm.body, ty);
            }
        }
        _ => {
            let at = e.span();
            return syn::Expr::Cast(syn::ExprCast {
                attrs: Vec::new(),
                expr: Box::new(syn::Expr::Paren(syn::ExprParen {
                    attrs: Vec::new(),
                    paren_token: syn::token::Paren(at),
                    expr: Box::new(e),
                })),
                as_token: syn::Token![as](at),
                ty: Box::new(ty.clone()),
            });
        }
    }
    e
}

/// The cast of [`cast_each_result`] on a block's tail expression, if it has one.
fn cast_tail(b: &mut syn::Block, ty: &syn::Type) {
    if let Some(syn::Stmt::Expr(tail, None)) = b.stmts.last_mut() {
        *tail = cast_each_result(tail, ty);
    }
}

/// The `sum()`/`product()` call `e` ends with, if any.
fn reduction_of(e: &syn::Expr) -> Option<&syn::ExprMethodCall> {
    match super::place::strip(e) {
        syn::Expr::MethodCall(m)
            if matches!(
                crate::callee::Consumer::from_name(&m.method.to_string()),
                Some(crate::callee::Consumer::Sum | crate::callee::Consumer::Product)
            ) =>
        {
            Some(m)
        }
        _ => None,
    }
}

/// Whether the statements read `name` as an integer (compared with, combined with or
/// assigned an integer literal, or bounding a range with one) and bind no other `name`.
fn used_as_integer(name: &syn::Ident, rest: &[syn::Stmt]) -> bool {
    struct Uses<'a> {
        name: &'a syn::Ident,
        integer: bool,
        rebound: bool,
    }
    impl Uses<'_> {
        fn is_name(&self, e: &syn::Expr) -> bool {
            matches!(super::place::strip(e), syn::Expr::Path(p) if p.qself.is_none() && p.path.is_ident(self.name))
        }
    }
    fn is_int_lit(e: &syn::Expr) -> bool {
        match super::place::strip(e) {
            syn::Expr::Lit(l) => match &l.lit {
                syn::Lit::Int(i) => {
                    StdType::from_name(i.suffix()).map(StdType::class) != Some(TypeClass::Float)
                }
                _ => false,
            },
            _ => false,
        }
    }
    impl<'a> syn::visit::Visit<'a> for Uses<'_> {
        fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
            if p.ident == *self.name {
                self.rebound = true;
            }
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_expr_binary(&mut self, b: &'a syn::ExprBinary) {
            if (self.is_name(&b.left) && is_int_lit(&b.right))
                || (is_int_lit(&b.left) && self.is_name(&b.right))
            {
                self.integer = true;
            }
            syn::visit::visit_expr_binary(self, b);
        }
        fn visit_expr_range(&mut self, r: &'a syn::ExprRange) {
            let (start, end) = (r.start.as_deref(), r.end.as_deref());
            let pair = |a: Option<&syn::Expr>, b: Option<&syn::Expr>| {
                a.is_some_and(|a| self.is_name(a)) && b.is_none_or(is_int_lit)
            };
            if pair(start, end) || pair(end, start) {
                self.integer = true;
            }
            syn::visit::visit_expr_range(self, r);
        }
    }
    let mut uses = Uses {
        name,
        integer: false,
        rebound: false,
    };
    for stmt in rest {
        syn::visit::visit_stmt(&mut uses, stmt);
    }
    uses.integer && !uses.rebound
}

/// The first closure that is an arm's value of the `match` or `if` `e`, if every arm's
/// value is a closure (or diverges).
/// The closure of `Box::new(|..| ..)`.
fn boxed_closure(call: &syn::ExprCall) -> Option<&syn::ExprClosure> {
    let syn::Expr::Path(p) = super::place::strip(&call.func) else {
        return None;
    };
    let boxed = p.qself.is_none() && crate::callee::is_box_new(&p.path);
    match (
        boxed,
        call.args.len(),
        call.args.first().map(super::place::strip),
    ) {
        (true, 1, Some(syn::Expr::Closure(c))) => Some(c),
        _ => None,
    }
}

fn closure_arm(e: &syn::Expr) -> Option<&syn::ExprClosure> {
    fn value(e: &syn::Expr) -> Option<&syn::Expr> {
        match super::place::strip(e) {
            syn::Expr::Block(b) => match b.block.stmts.last() {
                Some(syn::Stmt::Expr(e, None)) => value(e),
                _ => None,
            },
            e => Some(e),
        }
    }
    fn block_value(b: &syn::Block) -> Option<&syn::Expr> {
        match b.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => value(e),
            _ => None,
        }
    }
    let arms: Vec<&syn::Expr> = match super::place::strip(e) {
        syn::Expr::Match(m) => m.arms.iter().filter_map(|a| value(&a.body)).collect(),
        syn::Expr::If(i) => {
            let mut out: Vec<&syn::Expr> = block_value(&i.then_branch).into_iter().collect();
            let mut rest = i.else_branch.as_ref().map(|(_, e)| &**e);
            while let Some(r) = rest {
                match r {
                    syn::Expr::If(i) => {
                        out.extend(block_value(&i.then_branch));
                        rest = i.else_branch.as_ref().map(|(_, e)| &**e);
                    }
                    e => {
                        out.extend(value(e));
                        rest = None;
                    }
                }
            }
            out
        }
        _ => return None,
    };
    // A closure, or one boxed as a trait object (`Box::new(|v| v.tanh())`, with the `let`
    // typed `Box<dyn Fn(f64) -> f64>`).
    let closures: Vec<&syn::ExprClosure> = arms
        .iter()
        .filter_map(|a| match a {
            syn::Expr::Closure(c) => Some(c),
            syn::Expr::Call(call) => boxed_closure(call),
            _ => None,
        })
        .collect();
    let diverging = |a: &&syn::Expr| {
        matches!(
            a,
            syn::Expr::Return(_)
                | syn::Expr::Break(_)
                | syn::Expr::Continue(_)
                | syn::Expr::Macro(_)
        )
    };
    let all = arms.iter().all(|a| {
        matches!(a, syn::Expr::Closure(_))
            || matches!(a, syn::Expr::Call(c) if boxed_closure(c).is_some())
            || diverging(a)
    });
    if all {
        closures.first().copied()
    } else {
        None
    }
}

/// `e` without parentheses and shared borrows (`&sq`, `(&sq)`).
fn strip_ref(e: &syn::Expr) -> &syn::Expr {
    match super::place::strip(e) {
        syn::Expr::Reference(r) if r.mutability.is_none() => strip_ref(&r.expr),
        other => other,
    }
}

impl Lowerer<'_> {
    /// `let x = f(..);` (no type written) where `f` is a function of the source file, not
    /// a local, whose written result is a library type (`aliases::file_return_type`): the
    /// `let` with that type written, so that the value is a library value as it is with
    /// `let x: Vector3<f64> = f(..);`; or a struct or enum of the user's declared in the
    /// module of both (elsewhere the callee may name it by an import the caller lacks).
    fn typed_by_callee(&self, local: &syn::Local, init: &syn::LocalInit) -> Option<syn::Local> {
        let syn::Pat::Ident(pi) = &local.pat else {
            return None;
        };
        if pi.by_ref.is_some() || pi.subpat.is_some() {
            return None;
        }
        let syn::Expr::Call(call) = &*init.expr else {
            return None;
        };
        let syn::Expr::Path(p) = &*call.func else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        let name = p.path.get_ident()?.to_string();
        if self.lookup(&name).is_some() || self.lookup_closure(&name).is_some() {
            return None;
        }
        let mut ty = crate::aliases::file_return_type(&name)?;
        // A library type, or a struct or enum of the user's declared beside the caller and
        // the callee (`let a0 = accel(p, k);` of `fn accel(..) -> Vec3`: `a0 + a1` is
        // `Vec3`'s `Add`, as with the type written).
        let user = match &ty {
            syn::Type::Path(tp) if tp.qself.is_none() => tp.path.get_ident().is_some_and(|t| {
                crate::plain_fns::declared_beside(
                    &self.func.name.to_string(),
                    &name,
                    &t.to_string(),
                )
            }),
            _ => false,
        };
        if !user && !crate::libtypes::names_type(&ty, crate::libtypes::is_lib_name) {
            return None;
        }
        // A generic callee's scalar (`fn helix<T: RealField>(t: T) -> Vector3<T>`): the
        // caller's float type, as for a library constant whose scalar is not written.
        let scalar = match self.func.float_params.as_slice() {
            [] => syn::Ident::new("f64", p.path.span()),
            [t] => t.clone(),
            _ => return None,
        };
        crate::aliases::replace_caller_scalar(&mut ty, &scalar);
        let mut typed = local.clone();
        typed.pat = syn::Pat::Type(syn::PatType {
            attrs: Vec::new(),
            pat: Box::new(local.pat.clone()),
            colon_token: Default::default(),
            ty: Box::new(ty),
        });
        Some(typed)
    }
}
