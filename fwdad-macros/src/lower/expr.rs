//! Expressions. Each `lower_*` returns the expression's value, or `None` when control
//! cannot continue past it (`return`, `break`, `continue`, or a diverging `if`).

use super::Lowerer;
use crate::callee::{Adaptor, FloatOp, MethodCallee, StdMethod};
use crate::ir::{BinOp, InstKind, Terminator, UnOp, Value};
use crate::types::TypeHint;
use proc_macro2::Span;
use syn::spanned::Spanned;

impl Lowerer<'_> {
    pub(crate) fn lower_expr(&mut self, e: &syn::Expr) -> Option<Value> {
        match e {
            // Each family out of line: `lower_expr` recurses once per nested expression
            // (twice for `-(..)`), so its frame is kept small (see `crate::nesting`).
            syn::Expr::Path(p) => Some(self.lower_path(p)),
            syn::Expr::Paren(p) => self.lower_expr(&p.expr),
            syn::Expr::Group(g) => self.lower_expr(&g.expr),
            syn::Expr::Binary(b) => self.lower_binary(b),
            syn::Expr::Reference(r) => self.lower_reference(r),
            syn::Expr::Call(c) => self.lower_call(c),
            syn::Expr::Block(b) => match &b.label {
                Some(label) => self.lower_labelled_block(label, &b.block),
                None => self.lower_block(&b.block),
            },
            syn::Expr::If(i) => self.lower_if(i),
            syn::Expr::MethodCall(_) => self.lower_method_call_expr(e),
            syn::Expr::Lit(_)
            | syn::Expr::Unary(_)
            | syn::Expr::Cast(_)
            | syn::Expr::Tuple(_)
            | syn::Expr::Array(_)
            | syn::Expr::Repeat(_)
            | syn::Expr::Field(_)
            | syn::Expr::Index(_)
            | syn::Expr::Range(_)
            | syn::Expr::Return(_) => self.lower_operator_expr(e),
            other => self.lower_expr_rest(other),
        }
    }

    /// A literal, an operator's expression (unary, cast, field, index, range), a tuple, an
    /// array or a `return` ([`Self::lower_expr`]).
    #[inline(never)]
    fn lower_operator_expr(&mut self, e: &syn::Expr) -> Option<Value> {
        let span = e.span();
        match e {
            syn::Expr::Lit(l) => {
                Some(self.push(InstKind::Lit(l.lit.clone()), TypeHint::of_lit(&l.lit), span))
            }
            // `-128i8`: one literal, as Rust reads it (a negation of `128i8` overflows).
            syn::Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Neg(_),
                expr,
                ..
            }) if matches!(
                super::place::strip(expr),
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(_) | syn::Lit::Float(_),
                    ..
                })
            ) =>
            {
                let syn::Expr::Lit(l) = super::place::strip(expr) else {
                    return Some(self.poison(span));
                };
                let lit = match &l.lit {
                    syn::Lit::Int(i) => syn::Lit::Int(syn::LitInt::new(&format!("-{i}"), i.span())),
                    syn::Lit::Float(f) => {
                        syn::Lit::Float(syn::LitFloat::new(&format!("-{f}"), f.span()))
                    }
                    other => other.clone(),
                };
                let ty = TypeHint::of_lit(&lit);
                Some(self.push(InstKind::Lit(lit), ty, span))
            }
            syn::Expr::Unary(u) => {
                let arg = self.lower_expr(&u.expr)?;
                if matches!(u.op, syn::UnOp::Neg(_)) {
                    if let Some(v) = self.user_neg(arg, span) {
                        return Some(v);
                    }
                }
                let (op, ty) = match u.op {
                    syn::UnOp::Neg(_) => (UnOp::Neg, self.func.values[arg].ty.clone()),
                    syn::UnOp::Not(_) => (UnOp::Not, self.func.values[arg].ty.clone()),
                    syn::UnOp::Deref(_) => (UnOp::Deref, self.func.values[arg].ty.deref()),
                    _ => {
                        self.diag.error(
                            span,
                            "`#[derive_frule]` does not support this unary operator",
                        );
                        return Some(self.poison(span));
                    }
                };
                Some(self.push(InstKind::Unary { op, arg }, ty, span))
            }
            syn::Expr::Cast(c) => {
                let arg = self.lower_expr(&c.expr)?;
                Some(self.push(
                    InstKind::Cast {
                        arg,
                        ty: (*c.ty).clone(),
                    },
                    TypeHint::from_type(&c.ty),
                    span,
                ))
            }
            syn::Expr::Tuple(t) => {
                let vs = self.lower_exprs(t.elems.iter())?;
                let ty = if vs.is_empty() {
                    TypeHint::NonDiff
                } else {
                    TypeHint::Tuple(vs.iter().map(|v| self.func.values[*v].ty.clone()).collect())
                };
                Some(self.push(InstKind::Tuple(vs), ty, span))
            }
            syn::Expr::Array(a) => {
                let vs = self.lower_exprs(a.elems.iter())?;
                let elem = vs
                    .first()
                    .map(|v| self.func.values[*v].ty.clone())
                    .unwrap_or(TypeHint::Unknown);
                Some(self.push(InstKind::Array(vs), TypeHint::Seq(Box::new(elem)), span))
            }
            syn::Expr::Repeat(r) => {
                let elem = self.lower_expr(&r.expr)?;
                let ty = TypeHint::Seq(Box::new(self.func.values[elem].ty.clone()));
                Some(self.push(
                    InstKind::Repeat {
                        elem,
                        len: (*r.len).clone(),
                    },
                    ty,
                    span,
                ))
            }
            syn::Expr::Field(f) => {
                let base = self.lower_place(&f.base, false)?;
                let ty = self.func.values[base].ty.field(&f.member);
                let ty = declared_float_field(ty, &f.member);
                Some(self.push(
                    InstKind::Field {
                        base,
                        member: f.member.clone(),
                    },
                    ty,
                    span,
                ))
            }
            syn::Expr::Index(ix) => {
                if matches!(&*ix.index, syn::Expr::Range(_)) {
                    self.diag.error(span, "`#[derive_frule]` supports sub-slices only behind a reference: write `&x[a..b]`");
                    return Some(self.poison(span));
                }
                let base = self.lower_place(&ix.expr, false)?;
                let index = self.lower_expr(&ix.index)?;
                if let Some(v) = self.user_index(base, index, span) {
                    return Some(v);
                }
                let ty = self.func.values[base].ty.element();
                Some(self.push(InstKind::Index { base, index }, ty, span))
            }
            syn::Expr::Range(r) => {
                let start = match &r.start {
                    Some(s) => Some(self.lower_expr(s)?),
                    None => None,
                };
                let end = match &r.end {
                    Some(s) => Some(self.lower_expr(s)?),
                    None => None,
                };
                let closed = matches!(r.limits, syn::RangeLimits::Closed(_));
                // `t0..t1` of floats is a value with tangents (a curve's `subsegment`).
                let floats = [start, end]
                    .iter()
                    .flatten()
                    .any(|v| matches!(self.func.values[*v].ty, TypeHint::Float));
                let ty = match floats {
                    true => TypeHint::Unknown,
                    false => TypeHint::Range,
                };
                Some(self.push(InstKind::Range { start, end, closed }, ty, span))
            }
            syn::Expr::Return(r) => {
                let v = match &r.expr {
                    Some(e) => self.lower_expr(e)?,
                    None => self.unit(span),
                };
                self.terminate(Terminator::Return(v));
                None
            }
            other => self.lower_expr_rest(other),
        }
    }

    /// A method call ([`Self::lower_expr`]): the idioms and chains it may head first.
    #[inline(never)]
    fn lower_method_call_expr(&mut self, e: &syn::Expr) -> Option<Value> {
        let span = e.span();
        match e {
            // `basis.len()` of a list of closures; a chain over one is reported at the list.
            syn::Expr::MethodCall(m) if self.fn_list_len(m).is_some() => {
                let len = self.fn_list_len(m)?;
                self.lower_expr(&len)
            }
            syn::Expr::MethodCall(m) if self.is_fn_list_chain(m) => self.lower_fn_list_chain(m),
            // `xs.iter().step_by(3).len()`, `xs.chunks(h).len()`: the count, from lengths.
            syn::Expr::MethodCall(m) if self.desugar_exact_len(m).is_some() => {
                let e = self.desugar_exact_len(m)?;
                self.lower_expr(&e)
            }
            syn::Expr::MethodCall(_) if self.fn_list_chain(e).is_some() => {
                let list = self.fn_list_chain(e)?;
                self.lower_expr(&list)
            }
            // `.flat_map(..)` anywhere in the chain: its items gathered first.
            syn::Expr::MethodCall(_) if self.desugar_flat_map(e).is_some() => {
                let (mut stmts, rest) = self.desugar_flat_map(e)?;
                stmts.push(syn::Stmt::Expr(rest, None));
                self.lower_stmts_in_scope(&stmts, span)
            }
            // ndarray's `a.map_inplace(|v| *v = ..)`, as `mapv_inplace`.
            syn::Expr::MethodCall(m) if super::library_calls::desugar_map_inplace(m).is_some() => {
                let e = super::library_calls::desugar_map_inplace(m)?;
                self.lower_expr(&e)
            }
            // `it.by_ref().take(n).sum()` of a cursor's iterator: the cursor moves past them.
            syn::Expr::MethodCall(_) if self.cursor_by_ref_take(e).is_some() => {
                let e = self.cursor_by_ref_take(e)?;
                self.lower_expr(&e)
            }
            // `it.by_ref()` of a cursor's iterator read otherwise (`it.by_ref().find(..)`).
            syn::Expr::MethodCall(_) if self.cursor_by_ref(e).is_some() => {
                let by_ref = self.cursor_by_ref(e)?;
                let instead = StdMethod::ByRef.instead().unwrap_or_default();
                self.diag.error(
                    by_ref.span(),
                    format!("`#[derive_frule]` does not support `by_ref` here: {instead}"),
                );
                Some(self.poison(span))
            }
            // A chain over what a cursor has not taken (`it.enumerate()`, `it.sum()`).
            syn::Expr::MethodCall(_) if self.cursor_chain(e).is_some() => {
                let e = self.cursor_chain(e)?;
                self.lower_expr(&e)
            }
            // `it.next()`, `it.peek()` of `let mut it = x.iter().peekable();`.
            syn::Expr::MethodCall(m) if self.is_peekable_call(m) => {
                let e = self.desugar_peekable(m)?;
                self.lower_expr(&e)
            }
            // ndarray's `Zip::from(&mut a).and(&b).for_each(|a, &b| ..)`, as a loop.
            syn::Expr::MethodCall(m) if super::library_calls::desugar_zip(m).is_some() => {
                let e = super::library_calls::desugar_zip(m)?;
                self.lower_expr(&e)
            }
            // Before the consumers: a library value's `fold` is the library's.
            syn::Expr::MethodCall(m) if self.is_library_map(m) => self.lower_library_map(m),
            // A reduction of a library `map`'s result (`d.map(|x| x.ln()).sum()`): the
            // library's, not an iterator chain's over an `Option`'s `map`.
            syn::Expr::MethodCall(m)
                if matches!(super::place::strip(&m.receiver), syn::Expr::MethodCall(r)
                    if crate::libtypes::LibraryMap::of_method(&r.method)
                        == Some(crate::libtypes::LibraryMap::Map)
                        && self.is_library_map(r)) =>
            {
                self.lower_method_call(m)
            }
            syn::Expr::MethodCall(m) if super::iterate::is_consumer(m) => {
                if let Some(method) = self.map_mut_chain(e) {
                    self.diag
                        .error(method.span(), super::idioms::map_mut_chain_message(method));
                    return Some(self.poison(span));
                }
                if let Some((mut stmts, e)) = self.desugar_map_values(e) {
                    stmts.push(syn::Stmt::Expr(e, None));
                    return self.lower_stmts_in_scope(&stmts, m.span());
                }
                if let Some(v) = self.lower_consumer_of_user_iterator(m) {
                    return v;
                }
                match self.try_lower_consumer(m) {
                    Some(result) => result,
                    None => self.lower_method_call(m),
                }
            }
            syn::Expr::MethodCall(m) => {
                match super::iterate::desugar_method(m).or_else(|| self.desugar_idiom(m)) {
                    Some(e) => self.lower_expr(&e),
                    None => self.lower_method_call(m),
                }
            }
            other => self.lower_expr_rest(other),
        }
    }

    /// `a.map(f)` of an array `a` (a local or parameter known to be an array or a
    /// reference to one, or an array literal) with a closure `f` of one argument: a copy
    /// of the array whose elements are mapped in place, in order, as `[T; N]::map` calls
    /// `f`. The closure maps an element to a value of the same type (floats to floats);
    /// another result type is a type error at the call.
    ///
    /// ```text
    /// let [x1, x2] = param.map(|x| n4 * x - n2);       // param: &[T; 2]
    /// // { let f = |x| n4 * x - n2; let mut a = param.clone();
    /// //   for k in 0..a.len() { a[k] = f(a[k]); } a }
    /// ```
    fn desugar_array_map(&self, m: &syn::ExprMethodCall) -> Option<syn::Expr> {
        use super::place::strip;
        let [f] = m.args.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        // A field declared an array in the source file (`self.q` of `q: [f64; 4]`), bound
        // with that type, as the user would write it (`let q: [f64; 4] = self.q;`).
        let field_ty = super::idioms::array_field_type(&m.receiver)
            .or_else(|| self.array_call_result(&m.receiver));
        let is_array = self.is_sequence(&m.receiver) || field_ty.is_some();
        let one_arg = matches!(strip(f), syn::Expr::Closure(c) if c.inputs.len() == 1);
        // `a.map(f64::exp)`, `a.map(soft)`: a function by name, called in the loop.
        let by_name = matches!(strip(f), syn::Expr::Path(p) if p.qself.is_none());
        let map = Adaptor::from_name(&m.method.to_string()) == Some(Adaptor::Map);
        if !map || !is_array || !(one_arg || by_name) {
            return None;
        }
        let span = m.method.span();
        let template = match by_name {
            true => syn::parse_quote_spanned!(span=> {
                let mut __fwdad_arr = __fwdad_recv.clone();
                for __fwdad_k in 0..__fwdad_arr.len() {
                    __fwdad_arr[__fwdad_k] = __fwdad_arg(__fwdad_arr[__fwdad_k]);
                }
                __fwdad_arr
            }),
            false => syn::parse_quote_spanned!(span=> {
                let __fwdad_f = __fwdad_arg;
                let mut __fwdad_arr = __fwdad_recv.clone();
                for __fwdad_k in 0..__fwdad_arr.len() {
                    __fwdad_arr[__fwdad_k] = __fwdad_f(__fwdad_arr[__fwdad_k]);
                }
                __fwdad_arr
            }),
        };
        let mut e = crate::splice::fill(
            template,
            &[
                ("__fwdad_recv", crate::splice::Hole::Expr(&m.receiver)),
                ("__fwdad_arg", crate::splice::Hole::Expr(f)),
            ],
        );
        if let (Some(ty), syn::Expr::Block(b)) = (field_ty, &mut e) {
            for stmt in &mut b.block.stmts {
                if let syn::Stmt::Local(l) = stmt {
                    // The template's one `let mut`, the copy.
                    if matches!(&l.pat, syn::Pat::Ident(p) if p.mutability.is_some()) {
                        l.pat = syn::Pat::Type(syn::PatType {
                            attrs: Vec::new(),
                            pat: Box::new(l.pat.clone()),
                            colon_token: Default::default(),
                            ty: Box::new(ty.clone()),
                        });
                    }
                }
            }
        }
        Some(e)
    }

    /// The written array type of `e`'s value when `e` is a call of a `fn` of the file whose
    /// result type is written as an array of floats of a literal length (`corners(s)` of
    /// `fn corners(s: f64) -> [f64; 3]`), found for certain (`plain_fns::array_result`).
    #[inline(never)]
    pub(super) fn array_call_result(&self, e: &syn::Expr) -> Option<syn::Type> {
        let syn::Expr::Call(c) = super::place::strip(e) else {
            return None;
        };
        let syn::Expr::Path(p) = super::place::strip(&c.func) else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        crate::plain_fns::array_result(&self.func.name.to_string(), &p.path)
    }

    /// `receiver.method(args)`.
    pub(crate) fn lower_method_call(&mut self, m: &syn::ExprMethodCall) -> Option<Value> {
        // `shapes.push(Box::new(Sphere { r }))` onto a local whose `let` named a box of a
        // trait object of the user's: the box becomes that trait object
        // (`Function::box_dyn`), as in the `let` itself.
        let object = matches!(
            StdMethod::from_name(&m.method.to_string()),
            Some(StdMethod::Push | StdMethod::Insert)
        )
        .then(|| match super::place::strip(&m.receiver) {
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|id| self.lookup(&id.to_string())),
            _ => None,
        })
        .flatten()
        .and_then(|v| self.func.annotations.get(&v))
        .and_then(crate::callee::boxed_user_trait_object)
        .cloned();
        let first = self.func.insts.iter().count();
        let v = self.lower_method_call_inner(m);
        if let Some(object) = object {
            self.note_boxes_to(first, &object);
        }
        v
    }

    fn lower_method_call_inner(&mut self, m: &syn::ExprMethodCall) -> Option<Value> {
        use super::place::strip;
        let span = m.span();
        let name = m.method.to_string();
        let std = StdMethod::from_name(&name);
        // `v.extend(x.iter().map(..))`: the closure would be reported as misplaced, but what
        // is missing is `extend` of an iterator.
        if let Some(instead) = std
            .filter(|m2| *m2 == StdMethod::Extend && m.args.iter().any(has_closure))
            .and_then(StdMethod::instead)
        {
            self.diag.error(
                m.method.span(),
                format!(
                    "`#[derive_frule]` does not support `extend` with an iterator chain: {instead}"
                ),
            );
            return Some(self.poison(span));
        }
        // `a.map(|x| ..)` of an array: a loop that maps each element in place.
        if let Some(e) = self.desugar_array_map(m) {
            // The mapped copy is an array like the receiver (so that its own `.map(..)`
            // is an array's too).
            let v = self.lower_expr(&e)?;
            if matches!(self.func.values[v].ty, TypeHint::Unknown) {
                let ty = match strip(&m.receiver) {
                    syn::Expr::Path(p) => p
                        .path
                        .get_ident()
                        .and_then(|id| self.lookup(&id.to_string()))
                        .map(|r| match &self.func.values[r].ty {
                            TypeHint::Ref(inner) => (**inner).clone(),
                            ty => ty.clone(),
                        }),
                    _ => None,
                };
                if let Some(ty @ TypeHint::Seq(_)) = ty {
                    self.func.values[v].ty = ty;
                }
            }
            return Some(v);
        }
        if let Some(v) = self.lower_user_method_closures(m) {
            return v;
        }
        // A closure given to a method that is not an adaptor of a supported chain
        // (`opt.map(|v| ..)`, `o.map_or(d, |v| ..)`, `zip(a, b).map(..)`): name the method.
        if let Some(c) = m
            .args
            .iter()
            .find(|a| matches!(strip(a), syn::Expr::Closure(_)))
        {
            // ndarray's `Zip::from(&mut a).and(&b).for_each(|a, &b| ..)`.
            if zip_root(&m.receiver) {
                let advice =
                    crate::libtypes::NDARRAY_ZIP_ADVICE.replace("{what}", "ndarray's `Zip`");
                self.diag.error_spanned(m, advice);
                return Some(self.poison(span));
            }
            if let Some(instead) = std.and_then(StdMethod::instead) {
                // The entry API's closures are rewritten where they can be
                // (`idioms::desugar_entry_closures`): this one could not.
                let which = match std {
                    Some(StdMethod::OrInsertWith | StdMethod::AndModify) => "this",
                    _ => "a",
                };
                self.diag.error(
                    m.method.span(),
                    format!(
                        "`#[derive_frule]` does not support `{name}` with {which} closure: {instead}"
                    ),
                );
                return Some(self.poison(span));
            }
            // The chain of `successors` or `from_fn` (`iter_fns`) under an adaptor that
            // needs indices: say so in the user's terms, not the rewrite's.
            if let syn::Expr::Closure(g) = strip(c) {
                let generated = g.inputs.iter().any(|p| {
                    matches!(p, syn::Pat::Ident(i) if i.ident == super::iter_fns::GENERATOR_INDEX)
                });
                if generated {
                    self.diag
                        .error_spanned(c, super::iter_fns::GENERATOR_POSITIONS);
                    return Some(self.poison(span));
                }
            }
            // `Option`'s and `Result`'s combinators are written out before this
            // (`combinators`), on every receiver that is no iterator chain.
            let hint = if std.is_some_and(StdMethod::takes_option_closure) {
                format!("; `{name}` with a closure on an `Option` or a `Result` is supported too")
            } else {
                String::new()
            };
            // A chain that starts from a slice method, bound by `let` to be read later
            // (`let b = a.iter().map(..);`): say how to write it.
            let bound_by_let = || {
                let text = quote::ToTokens::to_token_stream(c).to_string();
                self.let_chains.contains(&text)
            };
            if starts_from_slice_method(&m.receiver) && bound_by_let() {
                self.diag.error_spanned(c, format!("`#[derive_frule]` does not support an iterator chain with a closure (here `{name}`'s) bound by `let` unless one use reads it, with nothing it reads changed before: write the chain where it is read (`for (x, y) in a.iter().map(..).zip(c)`, `a.iter().map(..).sum::<f64>()`), or collect it first (`let b: Vec<f64> = a.iter().map(..).collect();`)"));
                return Some(self.poison(span));
            }
            self.diag.error_spanned(c, format!("`#[derive_frule]` does not support a closure passed to `{name}` here: closures are supported in iterator chains that start from a slice or range method or from `std::iter`'s `zip`, `once` or `repeat` (`x.iter().map(..)`, `iter::zip(a, b).map(..)`, `(0..n).map(..)`) and as `let` bindings called later{hint}"));
            return Some(self.poison(span));
        }
        let receiver = match strip(&m.receiver) {
            // `x[a..b].method()` auto-borrows the sub-slice, mutably for methods that write.
            syn::Expr::Index(ix) if matches!(strip(&ix.index), syn::Expr::Range(_)) => {
                self.lower_sub_slice(ix, writes_receiver(&name), ix.span())?
            }
            // A method of the user's on a field or element (`self.a.add(x)`, `v[i].add(x)`)
            // may take `&mut self`: the place is borrowed mutably where its root allows it,
            // after the arguments (which may read the same root, as Rust's two-phase borrows
            // allow).
            _ if self.user_method_on_mutable_place(m) => {
                let args = self.lower_exprs(m.args.iter())?;
                let receiver = self.lower_place(&m.receiver, true)?;
                return Some(self.push_method_call(m, receiver, args, span));
            }
            _ => self.lower_receiver(&m.receiver, &name, writes_receiver(&name))?,
        };
        // `p.into()` of a value of the user's type, in a rule whose parameter `p: impl
        // Into<Point>` takes the target itself (`derive_frule::method_as_fn`): `p`.
        if std == Some(StdMethod::Into)
            && m.args.is_empty()
            && m.turbofish.is_none()
            && self.written_user.contains(&receiver)
        {
            return Some(self.push(InstKind::Copy(receiver), TypeHint::Unknown, span));
        }
        let args = self.lower_exprs(m.args.iter())?;
        Some(self.push_method_call(m, receiver, args, span))
    }

    /// Whether `m` is a possible user method (no known rule) on a field or element place
    /// whose root may be borrowed mutably: a local, an owned parameter, a `&mut` parameter
    /// or `&mut self` (not a shared reference, through which `&mut` would not compile).
    fn user_method_on_mutable_place(&self, m: &syn::ExprMethodCall) -> bool {
        use super::place::strip;
        let place = matches!(
            strip(&m.receiver),
            syn::Expr::Field(_) | syn::Expr::Index(_)
        );
        if !place || super::is_known_method(&m.method.to_string()) {
            return false;
        }
        let mut cur = strip(&m.receiver);
        loop {
            match cur {
                syn::Expr::Field(f) => cur = strip(&f.base),
                syn::Expr::Index(ix) if !matches!(strip(&ix.index), syn::Expr::Range(_)) => {
                    cur = strip(&ix.expr)
                }
                _ => break,
            }
        }
        let syn::Expr::Path(p) = cur else {
            return false;
        };
        let Some(root) = p.path.get_ident() else {
            return false;
        };
        // An argument lent from the same variable (`ps[i].dist(&ps[j])`): the method takes
        // `&self`, as Rust accepts nothing else, and the place stays shared.
        if m.args.iter().any(|a| lends(a, root)) {
            return false;
        }
        let Some(v) = self.lookup(&root.to_string()) else {
            return false;
        };
        match self.func.values[v].def {
            // An owned parameter is a variable of the rule's own.
            crate::ir::ValueDef::Param(i) => {
                let p = &self.func.params[i];
                !matches!(p.ty, syn::Type::Reference(_)) || p.is_mut_ref()
            }
            // A value computed here (a struct literal, a copy, `vec!`) is a variable of its
            // own; a pattern's binding of a type not written may be a shared reference
            // (`if let Some(q) = bs.first()`), which `&mut` would not compile through.
            crate::ir::ValueDef::Inst(..) => !matches!(self.func.values[v].ty, TypeHint::Ref(_)),
            crate::ir::ValueDef::RegionParam(..) => matches!(
                self.func.values[v].ty,
                TypeHint::Float
                    | TypeHint::Int
                    | TypeHint::Bool
                    | TypeHint::Seq(_)
                    | TypeHint::Tuple(_)
            ),
        }
    }

    /// Whether `v` is a struct's field (`c.n`, read or borrowed).
    fn is_field(&self, v: Value) -> bool {
        matches!(
            self.func.values[v].def,
            crate::ir::ValueDef::Inst(i, _) if matches!(
                self.func.insts[i].kind,
                InstKind::Field { .. } | InstKind::FieldRef { .. }
            )
        )
    }

    /// The method call instruction, typed by the method's name.
    pub(crate) fn push_method_call(
        &mut self,
        m: &syn::ExprMethodCall,
        receiver: Value,
        args: Vec<Value>,
        span: proc_macro2::Span,
    ) -> Value {
        let name = m.method.to_string();
        let std = StdMethod::from_name(&name);
        let float = FloatOp::method(&name);
        let recv_ty = self.func.values[receiver].ty.clone();
        let int_arg = args
            .iter()
            .any(|&a| self.func.values[a].ty == TypeHint::Int);
        let user_recv = (self.written_user.contains(&receiver)
            && crate::callee::is_user_method_on_user_type(&name))
            || super::resolve::user_method_of_operator_result(
                &self.func,
                &self.written_user,
                receiver,
                &name,
            );
        let ty = match (std, float) {
            // `line.len()` of the user's `Polyline`: its own method, of unknown type.
            _ if user_recv => TypeHint::Unknown,
            (Some(m), _) if m.result_type().is_some() => {
                m.result_type().unwrap_or(TypeHint::Unknown)
            }
            // `a.nrows()` of a library matrix, `t.len_of(Axis(2))` of an array.
            (None, None) if crate::libtypes::is_size_method(&name) => TypeHint::Int,
            // `let (w1, w2) = x.split_at(k)`: two sub-slices of the receiver's elements,
            // so `w1.iter().zip(w2)` starts a chain like `x.iter()` does.
            (Some(m), _) if m.splits() => {
                let seq = match &recv_ty {
                    TypeHint::Ref(inner) => inner.as_ref(),
                    ty => ty,
                };
                match seq {
                    TypeHint::Seq(_) => {
                        let half = TypeHint::Ref(Box::new(seq.clone()));
                        TypeHint::Tuple(vec![half.clone(), half])
                    }
                    _ => TypeHint::Unknown,
                }
            }
            // `let w = v.to_vec();`, `m.clone()`: a sequence like the receiver, so that
            // `w.into_iter().map(..)` starts a chain as `v.iter()` does.
            (Some(m), _) if m == StdMethod::ToVec || m.clones() => match recv_ty.deref_all_pub() {
                TypeHint::Seq(elem) => TypeHint::Seq(elem.clone()),
                _ => TypeHint::Unknown,
            },
            // `n.min(m)`, `k.abs()` on integers stay integers.
            (Some(m), _) if recv_ty == TypeHint::Int && m.keeps_int() => TypeHint::Int,
            // A method floats do not have, on a struct's field whose type is not written
            // (`c.n.pow(2)`), is an integer's (a variable of a user type keeps its methods).
            (Some(m), _) if m.is_integer() && self.is_field(receiver) => TypeHint::Int,
            // Rust has no mixed integer-float calls: with an integer argument, `min`, `max`
            // and `clamp` are an integer's (`c.n.min(x.len())`).
            (Some(m), _) if m.takes_int_arg() && int_arg => TypeHint::Int,
            (_, Some(FloatOp::SinCos)) => TypeHint::Tuple(vec![TypeHint::Float, TypeHint::Float]),
            (_, Some(_)) => TypeHint::Float,
            (_, None) => TypeHint::Unknown,
        };
        let kind = InstKind::MethodCall {
            callee: MethodCallee::Unresolved,
            receiver,
            method: m.method.clone(),
            turbofish: m.turbofish.clone(),
            args,
        };
        self.push(kind, ty, span)
    }

    /// The expression kinds not handled in [`Self::lower_expr`]'s first match.
    fn lower_expr_rest(&mut self, e: &syn::Expr) -> Option<Value> {
        let span = e.span();
        match e {
            // A closure the function returns (`-> impl Fn(f64) -> f64`): its dual form.
            syn::Expr::Closure(c) if self.returns_fn() => {
                let arg = super::higher_order::FnArg {
                    closure: c.clone(),
                    wrap: crate::ir::ArgWrap::Boxed,
                    def: None,
                    named: None,
                };
                let own: syn::Path = self.func.name.clone().into();
                self.lower_fn_arg(arg, &own, crate::ir::RETURNED)
            }
            syn::Expr::Assign(a) => self.lower_assign(&a.left, None, &a.right, span),
            syn::Expr::Macro(m) => self.lower_macro(&m.mac, span),
            syn::Expr::Struct(st) => self.lower_struct(st),
            syn::Expr::While(w) => self.lower_while(w),
            syn::Expr::Loop(l) => self.lower_loop(l),
            syn::Expr::ForLoop(f) => self.lower_for(f),
            syn::Expr::Break(b) => self.lower_break(b),
            syn::Expr::Continue(c) => self.lower_continue(c),
            syn::Expr::Match(m) => self.lower_match(m),
            syn::Expr::Try(t) => self.lower_try(t),
            // `const { 1.0 / 3.0 }` cannot read a local: a constant, emitted as written.
            syn::Expr::Const(_) => Some(self.qualified_constant(e)),
            // `unsafe { *v.get_unchecked(i) }`: the indexing it skips the check of.
            syn::Expr::Unsafe(u) if calls_get_unchecked(&u.block) => {
                self.diag.error_spanned(e, "`#[derive_frule]` does not support `unsafe` blocks: index with `v[i]` (or `&mut v[i]`) instead of `get_unchecked`, or move the unsafe code into a function with a `#[primitive]` rule");
                Some(self.poison(span))
            }
            other => {
                let what = unsupported_name(other);
                self.diag
                    .error_spanned(other, format!("`#[derive_frule]` does not support {what}"));
                Some(self.poison(span))
            }
        }
    }

    /// Lowers expressions left to right.
    pub(crate) fn lower_exprs<'e>(
        &mut self,
        es: impl Iterator<Item = &'e syn::Expr>,
    ) -> Option<Vec<Value>> {
        let mut out = Vec::new();
        for e in es {
            out.push(self.lower_expr(e)?);
        }
        Some(out)
    }

    pub(crate) fn lower_path(&mut self, p: &syn::ExprPath) -> Value {
        if p.qself.is_none() && p.path.segments.len() == 1 && p.path.leading_colon.is_none() {
            let seg = &p.path.segments[0];
            if self.lookup_closure(&seg.ident.to_string()).is_some() {
                self.diag.error_spanned(
                    p,
                    "`#[derive_frule]` supports closures that are called, or passed to `map`, `filter`, `scan`, `fold`, `for_each`, `any`, `all` and the other iterator adaptors; this one is used as a value (returned, stored or passed to a function)",
                );
                return self.poison(p.span());
            }
            if let (Some(v), syn::PathArguments::None) =
                (self.lookup(&seg.ident.to_string()), &seg.arguments)
            {
                if self.is_fn_list(v) {
                    self.diag.error_spanned(
                        p,
                        format!("`#[derive_frule]` supports a list of closures written in the body only walked by a `for` loop (`for phi in &{id}`, `for (k, phi) in {id}.iter().enumerate()`, `for (phi, w) in {id}.iter().zip(weights)`) by a chain ending in `.map(..)` and `.sum()`, `.product()` or `.collect()`, called by position (`{id}[k](x)`), and by its `len()`; write the loop", id = seg.ident),
                    );
                    return self.poison(p.span());
                }
                return v;
            }
        }
        if p.qself.is_some() {
            return self.qualified_constant(&syn::Expr::Path(p.clone()));
        }
        self.push(InstKind::Const(p.path.clone()), TypeHint::Unknown, p.span())
    }

    /// `<f64 as Scale>::K`, `<f64 as Default>::default()`: a qualified path, or a call of
    /// one without arguments, which cannot read the inputs: a constant, emitted as written
    /// (through the runtime's `constant!`, as the IR's paths have no `<T as Trait>` part).
    pub(crate) fn qualified_constant(&mut self, p: &syn::Expr) -> Value {
        let span = p.span();
        let rt = &self.rt;
        let path = match syn::parse2(quote::quote_spanned!(span=> #rt::constant)) {
            Ok(path) => path,
            Err(e) => {
                self.diag.error(span, e.to_string());
                return self.poison(span);
            }
        };
        let mac = syn::Macro {
            path,
            bang_token: syn::Token![!](span),
            delimiter: syn::MacroDelimiter::Paren(syn::token::Paren(span)),
            tokens: quote::ToTokens::to_token_stream(p),
        };
        let kind = InstKind::Opaque {
            mac,
            captures: vec![],
            args: vec![],
            lent: false,
        };
        self.push(kind, TypeHint::Unknown, span)
    }

    fn lower_binary(&mut self, b: &syn::ExprBinary) -> Option<Value> {
        let span = b.span();
        let op = match b.op {
            syn::BinOp::Add(_) => BinOp::Add,
            syn::BinOp::Sub(_) => BinOp::Sub,
            syn::BinOp::Mul(_) => BinOp::Mul,
            syn::BinOp::Div(_) => BinOp::Div,
            syn::BinOp::Rem(_) => BinOp::Rem,
            syn::BinOp::BitAnd(_) => BinOp::BitAnd,
            syn::BinOp::BitOr(_) => BinOp::BitOr,
            syn::BinOp::BitXor(_) => BinOp::BitXor,
            syn::BinOp::Shl(_) => BinOp::Shl,
            syn::BinOp::Shr(_) => BinOp::Shr,
            syn::BinOp::Eq(_) => BinOp::Eq,
            syn::BinOp::Ne(_) => BinOp::Ne,
            syn::BinOp::Lt(_) => BinOp::Lt,
            syn::BinOp::Le(_) => BinOp::Le,
            syn::BinOp::Gt(_) => BinOp::Gt,
            syn::BinOp::Ge(_) => BinOp::Ge,
            syn::BinOp::And(_) | syn::BinOp::Or(_) => return self.lower_short_circuit(b),
            syn::BinOp::AddAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Add), &b.right, span)
            }
            syn::BinOp::SubAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Sub), &b.right, span)
            }
            syn::BinOp::MulAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Mul), &b.right, span)
            }
            syn::BinOp::DivAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Div), &b.right, span)
            }
            syn::BinOp::RemAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Rem), &b.right, span)
            }
            syn::BinOp::BitAndAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::BitAnd), &b.right, span)
            }
            syn::BinOp::BitOrAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::BitOr), &b.right, span)
            }
            syn::BinOp::BitXorAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::BitXor), &b.right, span)
            }
            syn::BinOp::ShlAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Shl), &b.right, span)
            }
            syn::BinOp::ShrAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Shr), &b.right, span)
            }
            _ => {
                self.diag.error(
                    span,
                    "`#[derive_frule]` does not support this binary operator",
                );
                return Some(self.poison(span));
            }
        };
        // In `s + k1 * h` with `s` of a user type, `k1 * h` is an operand of a user value's
        // operator: its operand of unknown type (`let k1 = f(&s);`) is taken for a user
        // value (see `user_binary_in`).
        let user_operand = self.user_operand.take() == Some(b as *const _);
        let arith = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
        // A user value's operand's operands may be too (`(k1 + k2 * 2.0) * (dt / 6.0)`);
        // taking a float for one costs speed, not correctness.
        if user_operand && arith {
            self.user_operand = arith_operand(&b.left);
        }
        let lhs = self.lower_expr(&b.left)?;
        self.user_operand = None;
        if arith && (self.is_user_value(lhs) || user_operand) {
            self.user_operand = arith_operand(&b.right);
        }
        let rhs = self.lower_expr(&b.right)?;
        self.user_operand = None;
        if let Some(v) = self.user_binary_in(op, lhs, rhs, false, span, user_operand) {
            return Some(v);
        }
        if self.xor_of_floats(op, lhs, rhs, &b.op)
            || self.integer_literal_with_float(op, lhs, rhs, b)
        {
            return Some(self.poison(span));
        }
        Some(self.binary(op, lhs, rhs, span))
    }

    /// `3 * x` of a float `x`: an integer literal in float arithmetic, which Rust does not
    /// convert. Reported at the literal with the float literal to write, before rustc's
    /// ``cannot multiply `{integer}` by `f64` ``. Only an unsuffixed integer literal beside
    /// an operand the macro knows is a float.
    #[inline(never)]
    fn integer_literal_with_float(
        &mut self,
        op: BinOp,
        lhs: Value,
        rhs: Value,
        b: &syn::ExprBinary,
    ) -> bool {
        if !matches!(
            op,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
        ) {
            return false;
        }
        let int_lit = |e: &syn::Expr| match e {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) if i.suffix().is_empty() => Some(i.clone()),
            _ => None,
        };
        let lit = match (int_lit(&b.left), int_lit(&b.right)) {
            (Some(l), None) if self.certainly_float(rhs, 8) => l,
            (None, Some(r)) if self.certainly_float(lhs, 8) => r,
            _ => return false,
        };
        self.diag.error(
            lit.span(),
            format!("an integer literal in float arithmetic: Rust does not convert `{}` to a float; write `{}.0`", lit.base10_digits(), lit.base10_digits()),
        );
        true
    }

    /// Whether `v` is a float for certain, as the syntax shows it (a value's hint may be a
    /// guess: `d.abs()` is hinted a float for an integer `d` of a type not written): a float
    /// literal, a parameter declared `f64` or `f32` (or a reference to one), a float
    /// method of such a value, and arithmetic of such values, up to `depth` deep.
    fn certainly_float(&self, v: Value, depth: usize) -> bool {
        if depth == 0 {
            return false;
        }
        match &self.func.values[v].def {
            crate::ir::ValueDef::Param(i) => {
                let Some(p) = self.func.params.get(*i) else {
                    return false;
                };
                let mut ty = &p.ty;
                while let syn::Type::Reference(r) = ty {
                    ty = &r.elem;
                }
                TypeHint::from_type(ty) == TypeHint::Float
            }
            crate::ir::ValueDef::Inst(i, 0) => match &self.func.insts[*i].kind {
                InstKind::Lit(syn::Lit::Float(_)) => true,
                InstKind::Binary {
                    op: BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem,
                    lhs,
                    rhs,
                } => self.certainly_float(*lhs, depth - 1) && self.certainly_float(*rhs, depth - 1),
                InstKind::Unary { op: UnOp::Neg, arg } => self.certainly_float(*arg, depth - 1),
                InstKind::MethodCall {
                    receiver, method, ..
                } => {
                    FloatOp::method(&method.to_string()).is_some()
                        && self.func.values[v].ty == TypeHint::Float
                        && self.certainly_float(*receiver, depth - 1)
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// `v ^ 2.0` of a float: `^` written for a power (as in maths, Python's `**`), which in
    /// Rust is the bitwise exclusive or floats do not have. Reported at the operator with
    /// what to write, before rustc's ``no implementation for `f64 ^ {float}` ``. Only when
    /// the macro knows one operand is a float and the other a float or an integer (a user
    /// type's `impl BitXor<f64>` keeps its operator).
    #[inline(never)]
    fn xor_of_floats(&mut self, op: BinOp, lhs: Value, rhs: Value, at: &syn::BinOp) -> bool {
        let floats = self.certainly_float(lhs, 8) || self.certainly_float(rhs, 8);
        if op != BinOp::BitXor || !floats {
            return false;
        }
        self.diag.error_spanned(
            at,
            "`^` is the bitwise exclusive or in Rust, not a power, and floats have no bitwise operators: write `x.powi(2)` for an integer exponent, `x.powf(p)` for a float one (`x * x` for a square)",
        );
        true
    }

    pub(crate) fn binary(&mut self, op: BinOp, lhs: Value, rhs: Value, span: Span) -> Value {
        let (lt, rt) = (&self.func.values[lhs].ty, &self.func.values[rhs].ty);
        let ty = if op.is_comparison() {
            TypeHint::Bool
        } else if *lt == TypeHint::Float || *rt == TypeHint::Float {
            TypeHint::Float
        } else if *lt == TypeHint::Int || *rt == TypeHint::Int {
            // Rust has no mixed integer-float arithmetic: with one side an integer (a
            // literal `1`, a `usize` parameter), both are (`p.n + 1` on a struct's field).
            TypeHint::Int
        } else if *lt == TypeHint::Bool && *rt == TypeHint::Bool {
            TypeHint::Bool
        } else {
            TypeHint::Unknown
        };
        self.push(InstKind::Binary { op, lhs, rhs }, ty, span)
    }

    /// `a && b` is `if a { b } else { false }`; `a || b` is `if a { true } else { b }`.
    fn lower_short_circuit(&mut self, b: &syn::ExprBinary) -> Option<Value> {
        let span = b.span();
        let is_and = matches!(b.op, syn::BinOp::And(_));
        let cond = self.lower_expr(&b.left)?;
        let lit: syn::Lit = syn::LitBool::new(!is_and, span).into();
        let rhs = &*b.right;
        let join = self.lower_branches(
            cond,
            span,
            |lw| {
                if is_and {
                    lw.lower_expr(rhs)
                } else {
                    Some(lw.push(InstKind::Lit(lit.clone()), TypeHint::Bool, span))
                }
            },
            |lw| {
                if is_and {
                    Some(lw.push(InstKind::Lit(lit.clone()), TypeHint::Bool, span))
                } else {
                    lw.lower_expr(rhs)
                }
            },
        );
        self.join_value(join, TypeHint::Bool)
    }

    fn lower_if(&mut self, i: &syn::ExprIf) -> Option<Value> {
        let span = i.span();
        if let syn::Expr::Let(l) = &*i.cond {
            return self.lower_if_let(i, l);
        }
        let cond = self.lower_expr(&i.cond)?;
        let join = self.lower_branches(
            cond,
            span,
            |lw| lw.lower_block(&i.then_branch),
            |lw| match &i.else_branch {
                Some((_, e)) => lw.lower_expr(e),
                None => Some(lw.unit(span)),
            },
        );
        let ty = join.ty();
        self.join_value(join, ty)
    }

    /// The value of a lowered `if` (`None` if both branches diverged), typed `ty`.
    pub(crate) fn join_value(&mut self, join: Join, ty: TypeHint) -> Option<Value> {
        let v = join.value?;
        self.func.values[v].ty = ty;
        Some(v)
    }

    /// Lowers `if cond { then } else { else_ }` with the SSA merge of every outer local
    /// that either branch assigns.
    pub(crate) fn lower_branches(
        &mut self,
        cond: Value,
        span: Span,
        then_f: impl FnOnce(&mut Self) -> Option<Value>,
        else_f: impl FnOnce(&mut Self) -> Option<Value>,
    ) -> Join {
        let before = self.snapshot();
        let then_r = self.new_region(vec![]);
        let then_end = self.lower_arm(then_r, &before, then_f);
        let else_r = self.new_region(vec![]);
        let else_end = self.lower_arm(else_r, &before, else_f);
        let kind = InstKind::If {
            cond,
            then_region: then_r,
            else_region: else_r,
        };
        self.close_join(
            kind,
            vec![(then_r, then_end), (else_r, else_end)],
            &before,
            span,
        )
    }

    /// Lowers one arm of a join into `region` (whose parameters the caller has bound):
    /// returns its value and the locals at its end, or `None` if it diverges. The
    /// bindings of the outer locals are restored afterwards for the next arm.
    pub(crate) fn lower_arm(
        &mut self,
        region: crate::ir::Region,
        before: &[(String, usize, Value)],
        f: impl FnOnce(&mut Self) -> Option<Value>,
    ) -> Option<ArmEnd> {
        let scopes = self.scopes_len();
        let parent = self.cur;
        self.cur = Some(region);
        let v = f(self);
        self.truncate_scopes(scopes);
        let end = match (self.cur, v) {
            (Some(_), Some(v)) => Some(ArmEnd {
                value: v,
                env: self.snapshot(),
            }),
            _ => None,
        };
        for (name, depth, v) in before {
            self.set_at(name, *depth, *v);
        }
        self.cur = parent;
        end
    }

    /// Pushes the joining instruction `kind` (an `If` or `Match` whose regions were
    /// lowered by [`Self::lower_arm`]): every outer local that an arm reaching the join
    /// changed becomes an extra result, and the names are rebound to the results.
    pub(crate) fn close_join(
        &mut self,
        kind: InstKind,
        arms: Vec<(crate::ir::Region, Option<ArmEnd>)>,
        before: &[(String, usize, Value)],
        span: Span,
    ) -> Join {
        let changed: Vec<usize> = (0..before.len())
            .filter(|&k| {
                arms.iter()
                    .any(|(_, end)| matches!(end, Some(e) if e.env[k].2 != before[k].2))
            })
            .collect();
        let types: Vec<TypeHint> = arms
            .iter()
            .filter_map(|(_, end)| end.as_ref().map(|e| self.func.values[e.value].ty.clone()))
            .collect();
        for (region, end) in &arms {
            if let Some(e) = end {
                let mut ys = vec![e.value];
                ys.extend(changed.iter().map(|&k| e.env[k].2));
                self.func.regions[*region].term = Terminator::Yield(ys);
            }
        }
        let reaches = arms.iter().any(|(_, end)| end.is_some());
        let n = if reaches { 1 + changed.len() } else { 0 };
        let inst = self.push_inst(kind, n, span);
        if !reaches {
            // No arm reaches the join: what follows is dead, and the region hands nothing
            // to the `if`, `match` or loop around it (the function's body yields nothing
            // where it returns from its arms).
            if self.cur == Some(self.func.body) {
                self.cur = None;
            } else {
                self.terminate(Terminator::Unreachable);
            }
            return Join { value: None, types };
        }
        let results = self.func.insts[inst].results.clone();
        let arm_values: Vec<Value> = arms
            .iter()
            .filter_map(|(_, end)| end.as_ref().map(|e| e.value))
            .collect();
        self.join_user(&arm_values, results[0]);
        for (j, &k) in changed.iter().enumerate() {
            let (name, depth, old) = &before[k];
            let r = results[1 + j];
            self.func.values[r].ty = self.func.values[*old].ty.clone();
            self.func.values[r].name = self.func.values[*old].name.clone();
            self.inherit_annotation(*old, r);
            self.set_at(name, *depth, r);
        }
        Join {
            value: Some(results[0]),
            types,
        }
    }
}

/// Where an arm of a join ends: its value and the locals then.
pub(crate) struct ArmEnd {
    value: Value,
    env: Vec<(String, usize, Value)>,
}

impl ArmEnd {
    /// The arm's value.
    pub(crate) fn value(&self) -> Value {
        self.value
    }
    /// Whether no outer local changed in the arm.
    pub(crate) fn env_matches(&self, before: &[(String, usize, Value)]) -> bool {
        self.env.iter().zip(before).all(|(a, b)| a.2 == b.2)
    }
}

/// The outcome of lowering a join (`if`, `match`).
pub(crate) struct Join {
    /// The joined value, or `None` if no arm reaches the join.
    pub(crate) value: Option<Value>,
    /// The value types of the arms that reach it.
    types: Vec<TypeHint>,
}

impl Join {
    /// The joined type: the arms' common type, ignoring unknown ones.
    pub(crate) fn ty(&self) -> TypeHint {
        let known: Vec<&TypeHint> = self
            .types
            .iter()
            .filter(|t| **t != TypeHint::Unknown)
            .collect();
        match known.first() {
            Some(first) if known.iter().all(|t| t == first) => (*first).clone(),
            _ => TypeHint::Unknown,
        }
    }
}

/// Whether `e` contains a closure.
fn has_closure(e: &syn::Expr) -> bool {
    struct Finder(bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {
            self.0 = true;
        }
    }
    let mut f = Finder(false);
    syn::visit::Visit::visit_expr(&mut f, e);
    f.0
}

/// Whether `b` calls `get_unchecked` or `get_unchecked_mut`.
fn calls_get_unchecked(b: &syn::Block) -> bool {
    struct Finder(bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            self.0 |= crate::callee::is_unchecked_index(&m.method.to_string());
            syn::visit::visit_expr_method_call(self, m);
        }
    }
    let mut f = Finder(false);
    syn::visit::Visit::visit_block(&mut f, b);
    f.0
}

/// What to call an unsupported expression in an error message.
fn unsupported_name(e: &syn::Expr) -> &'static str {
    match e {
        syn::Expr::Closure(_) => {
            "closures here: a closure can be bound with `let` and called, or passed to `map`, `filter`, `take_while`, `inspect`, `scan`, `fold`, `for_each`, `any`, `all`, `max_by` or `min_by` of an iterator over a slice or range (index adaptors such as `enumerate`, `take` or `skip` cannot follow `filter`, `take_while`, `inspect` or `scan`); otherwise write its body as a `#[derive_frule]` function"
        }
        syn::Expr::Async(_) => "`async` blocks: differentiate the synchronous computation instead",
        syn::Expr::Await(_) => "`.await`: differentiate the synchronous computation instead",
        syn::Expr::Unsafe(_) => {
            "`unsafe` blocks: move the unsafe code into a function with a `#[primitive]` rule; a `static mut` read in it (a gain, a counter) is passed as a parameter instead, or declared `const`"
        }
        syn::Expr::Let(_) => "`let` expressions outside `if let`",
        syn::Expr::Yield(_) => "`yield`",
        syn::Expr::TryBlock(_) => "`try` blocks",
        syn::Expr::Infer(_) => "`_` as an expression",
        _ => "this expression",
    }
}

/// Whether the known method `name` writes its receiver (`push`, `swap`, `pop`, ...), which
/// is then borrowed mutably.
fn writes_receiver(name: &str) -> bool {
    StdMethod::from_name(name).is_some_and(StdMethod::writes)
}

/// Whether `e` lends (borrows) something reached from the variable `root`: `&root..`, or a
/// method call on it that may return a reference.
fn lends(e: &syn::Expr, root: &syn::Ident) -> bool {
    struct Finder<'r> {
        root: &'r syn::Ident,
        found: bool,
    }
    impl<'ast> syn::visit::Visit<'ast> for Finder<'_> {
        fn visit_expr_reference(&mut self, r: &'ast syn::ExprReference) {
            let mut names = Mentions(self.root, false);
            syn::visit::visit_expr(&mut names, &r.expr);
            self.found |= names.1;
            syn::visit::visit_expr_reference(self, r);
        }
    }
    struct Mentions<'r>(&'r syn::Ident, bool);
    impl<'ast> syn::visit::Visit<'ast> for Mentions<'_> {
        fn visit_ident(&mut self, i: &'ast syn::Ident) {
            self.1 |= i == self.0;
        }
    }
    let mut f = Finder { root, found: false };
    syn::visit::visit_expr(&mut f, e);
    // `self.dot(self)`: the bare root passed on.
    f.found || matches!(super::place::strip(e), syn::Expr::Path(p) if p.path.is_ident(root))
}

/// Whether a method chain starts at ndarray's `Zip::from(..)` (`Zip::from(&mut a).and(&b)`).
fn zip_root(e: &syn::Expr) -> bool {
    use super::place::strip;
    match strip(e) {
        syn::Expr::MethodCall(m) => zip_root(&m.receiver),
        syn::Expr::Call(c) => matches!(strip(&c.func), syn::Expr::Path(p)
            if p.qself.is_none() && crate::libtypes::is_ndarray_zip(&p.path)),
        _ => false,
    }
}

/// `e` (through parentheses) if it is an arithmetic operator expression, by address.
pub(super) fn arith_operand(e: &syn::Expr) -> Option<*const syn::ExprBinary> {
    match e {
        syn::Expr::Paren(p) => arith_operand(&p.expr),
        syn::Expr::Binary(b) => matches!(
            b.op,
            syn::BinOp::Add(_) | syn::BinOp::Sub(_) | syn::BinOp::Mul(_) | syn::BinOp::Div(_)
        )
        .then_some(b as *const _),
        _ => None,
    }
}

/// Whether the chain `e` starts from a slice method (`a.iter()`, `v.windows(2)`, ...).
fn starts_from_slice_method(e: &syn::Expr) -> bool {
    let mut cur = super::place::strip(e);
    while let syn::Expr::MethodCall(m) = cur {
        if matches!(
            Adaptor::from_name(&m.method.to_string()),
            Some(
                Adaptor::Iter
                    | Adaptor::IterMut
                    | Adaptor::IntoIter
                    | Adaptor::Windows
                    | Adaptor::Chunks
                    | Adaptor::ChunksExact
            )
        ) && !matches!(super::place::strip(&m.receiver), syn::Expr::MethodCall(_))
        {
            return true;
        }
        cur = super::place::strip(&m.receiver);
    }
    false
}

/// The closures passed to the methods of the chain `m`, as token text.
pub(super) fn closures_of_chain(m: &syn::ExprMethodCall) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = Some(m);
    while let Some(m) = cur {
        for a in &m.args {
            if let syn::Expr::Closure(_) = super::place::strip(a) {
                out.push(quote::ToTokens::to_token_stream(a).to_string());
            }
        }
        cur = match super::place::strip(&m.receiver) {
            syn::Expr::MethodCall(r) => Some(r),
            _ => None,
        };
    }
    out
}

/// A named field's read whose type the body does not show, where the file declares every
/// field of that name `f64` or `f32` (`self.eccentricity` of `struct EllipseSolver {
/// eccentricity: f64 }`): a float, so that arithmetic on it is the float's (rust-kepler-solver
/// 0.1.0's seed `4.0 * self.eccentricity * m * (PI - m) / (..)` before a loop).
#[inline(never)]
fn declared_float_field(ty: TypeHint, member: &syn::Member) -> TypeHint {
    match (&ty, member) {
        (TypeHint::Unknown, syn::Member::Named(name)) => {
            match crate::aliases::source_field_type(&name.to_string())
                .map(|t| TypeHint::from_type(&t))
            {
                Some(TypeHint::Float) => TypeHint::Float,
                _ => ty,
            }
        }
        _ => ty,
    }
}
