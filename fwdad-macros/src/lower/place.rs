//! Assignments, references and calls.

use super::Lowerer;
use crate::callee::{FloatOp, PathCallee, StdMethod, StdType, TypeClass, Wrapper};
use crate::ir::{BinOp, InstKind, Place, UnOp, Value};
use crate::splice::splice;
use crate::types::TypeHint;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// What a local value is to compound assignment ([`Lowerer::view_kind`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum View {
    /// Not a view: `x op= y` rebinds `x`.
    No,
    /// A view the assignment writes through.
    Bound,
}

impl Lowerer<'_> {
    /// Whether local value `v` is a mutable view of a library value, which compound
    /// assignment writes through (`r /= n`): a lane of `for mut r in m.row_iter_mut()`, the
    /// result of `m.row_mut(i)` (`libtypes::is_view_mut_method`), a part of a tuple of views
    /// (`let (mut ci, mut cj) = m.columns_range_pair_mut(i, j);`, `a.view_mut().split_at(..)`,
    /// `(m.row_mut(0), n.column_mut(1))`), a copy of a view (`let mut q = r;`), or an
    /// `if`'s or a `match`'s result whose every arm yields a view. Anything else assigned
    /// by `r /= n` is rebound to a new value.
    pub(crate) fn view_kind(&self, v: Value) -> View {
        use crate::ir::ValueDef;
        if self.lane_views.contains(&v) {
            return View::Bound;
        }
        let ValueDef::Inst(inst, k) = self.func.values[v].def else {
            return View::No;
        };
        // What the arms that yield give at `k` (an arm that leaves, by `return` or
        // `break`, yields nothing here): all views, or not a view.
        let arms = |regions: &[crate::ir::Region]| {
            let kinds: Vec<View> = regions
                .iter()
                .filter_map(|r| match &self.func.regions[*r].term {
                    crate::ir::Terminator::Yield(vs) => {
                        Some(vs.get(k).map_or(View::No, |y| self.view_kind(*y)))
                    }
                    _ => None,
                })
                .collect();
            if !kinds.is_empty() && kinds.iter().all(|k| *k == View::Bound) {
                View::Bound
            } else {
                View::No
            }
        };
        match &self.func.insts[inst].kind {
            InstKind::MethodCall { method, .. }
                if k == 0 && crate::libtypes::is_view_mut_method(method) =>
            {
                View::Bound
            }
            InstKind::Copy(src) => self.view_kind(*src),
            InstKind::Field {
                base,
                member: syn::Member::Unnamed(i),
            } => {
                let ValueDef::Inst(b, 0) = self.func.values[*base].def else {
                    return View::No;
                };
                let split = match &self.func.insts[b].kind {
                    InstKind::MethodCall {
                        receiver, method, ..
                    } => {
                        crate::libtypes::splits_view(method)
                            && (self.is_written_lib(*receiver)
                                || self.view_kind(*receiver) != View::No)
                    }
                    InstKind::Tuple(elems) => elems
                        .get(i.index as usize)
                        .is_some_and(|e| self.view_kind(*e) != View::No),
                    _ => false,
                };
                if split {
                    View::Bound
                } else {
                    View::No
                }
            }
            InstKind::If {
                then_region,
                else_region,
                ..
            } => arms(&[*then_region, *else_region]),
            InstKind::Match { arms: a, .. } => {
                let bodies: Vec<crate::ir::Region> = a.iter().map(|a| a.body).collect();
                arms(&bodies)
            }
            _ => View::No,
        }
    }

    /// `left = right`, or `left op= right` when `op` is given.
    ///
    /// A local is rebound to the new value (SSA); `*r` and `a[i]` on a `&mut` target
    /// become a [`InstKind::Store`]. Compound assignment reads the place first.
    pub(crate) fn lower_assign(
        &mut self,
        left: &syn::Expr,
        op: Option<BinOp>,
        right: &syn::Expr,
        span: Span,
    ) -> Option<Value> {
        match strip(left) {
            syn::Expr::Path(p) if p.path.get_ident().is_some() && p.qself.is_none() => {
                let name = p
                    .path
                    .get_ident()
                    .map(|i| i.to_string())
                    .unwrap_or_default();
                let Some(old) = self.lookup(&name) else {
                    self.diag.error_spanned(&left, format!("`#[derive_frule]` can only assign local variables; `{name}` is not one"));
                    return Some(self.poison(span));
                };
                // `row /= n` of a view of a matrix's row: the view's own operator, which
                // writes through it (`DivAssign::div_assign(&mut row, n)` in the rule).
                let view = op.map_or(View::No, |_| self.view_kind(old));
                if let (Some(op), View::Bound) = (op, view) {
                    if let Some(method) = crate::libtypes::assign_method(op) {
                        let mut call = crate::splice::fill(
                            syn::parse_quote_spanned!(span=> __fwdad_view.__fwdad_op(__fwdad_rhs)),
                            &[
                                ("__fwdad_view", crate::splice::Hole::Expr(left)),
                                ("__fwdad_rhs", crate::splice::Hole::Expr(right)),
                            ],
                        );
                        if let syn::Expr::MethodCall(m) = &mut call {
                            m.method = syn::Ident::new(method, span);
                        }
                        self.lower_expr(&call)?;
                        return Some(self.unit(span));
                    }
                }
                // `s += k * dt` on a user value: `k * dt` is its operator's operand.
                if op.is_some() && self.is_user_value(old) {
                    self.user_operand = super::expr::arith_operand(right);
                }
                let rhs = self.lower_expr(right)?;
                self.user_operand = None;
                let new = match op {
                    Some(op) => self.binary_or_assign(op, old, rhs, span),
                    None => self.copy_if_local(right, rhs),
                };
                // The new value is this variable now (`let mut x = a; x = ..;` names it `x`).
                if let Some(id) = p.path.get_ident() {
                    self.func.values[new].name = Some(id.clone());
                }
                self.type_untyped_none(&name, new);
                self.assign(&name, new);
                Some(self.unit(span))
            }
            // Rust evaluates the assigned value before the assignee place (for compound
            // assignment of primitives too), so the place's borrow starts after it.
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                let rhs = self.lower_expr(right)?;
                let target = self.lower_expr(&u.expr)?;
                let ty = self.func.values[target].ty.deref();
                let read = InstKind::Unary {
                    op: UnOp::Deref,
                    arg: target,
                };
                self.store(Place::Deref(target), (read, ty), op, rhs, left.span(), span)
            }
            syn::Expr::Field(f) => {
                // `b.vel += a * dt` with `vel: V3`: `a * dt` is its operator's operand.
                if op.is_some() && self.is_user_field_place(f) {
                    self.user_operand = super::expr::arith_operand(right);
                }
                let rhs = self.lower_expr(right)?;
                self.user_operand = None;
                let target = self.lower_place(&f.base, true)?;
                let ty = self.func.values[target].ty.field(&f.member);
                let read = InstKind::Field {
                    base: target,
                    member: f.member.clone(),
                };
                let place = Place::Field(target, f.member.clone());
                self.store(place, (read, ty), op, rhs, left.span(), span)
            }
            syn::Expr::Index(ix) => {
                let rhs = self.lower_expr(right)?;
                let target = self.lower_place(&ix.expr, true)?;
                let index = self.lower_expr(&ix.index)?;
                // A user type's `IndexMut`: the element's `&mut`, written through.
                if let Some(elem) = self.user_index_mut(target, index, ix.span()) {
                    let read = InstKind::Unary {
                        op: UnOp::Deref,
                        arg: elem,
                    };
                    let place = Place::Deref(elem);
                    return self.store(
                        place,
                        (read, TypeHint::Unknown),
                        op,
                        rhs,
                        left.span(),
                        span,
                    );
                }
                let ty = self.func.values[target].ty.element();
                let read = InstKind::Index {
                    base: target,
                    index,
                };
                self.store(
                    Place::Index(target, index),
                    (read, ty),
                    op,
                    rhs,
                    left.span(),
                    span,
                )
            }
            syn::Expr::Tuple(t) if op.is_none() => {
                // `(a, b) = (b, a)`: the right side is evaluated first, then each place.
                let rhs = self.lower_expr(right)?;
                for (i, place) in t.elems.iter().enumerate() {
                    if matches!(strip(place), syn::Expr::Infer(_)) {
                        continue;
                    }
                    let member = syn::Member::Unnamed(syn::Index {
                        index: i as u32,
                        span: place.span(),
                    });
                    let hint = self.func.values[rhs].ty.field(&member);
                    let part = self.push(InstKind::Field { base: rhs, member }, hint, place.span());
                    self.assign_value(place, part, span)?;
                }
                Some(self.unit(span))
            }
            syn::Expr::Array(places) if op.is_none() => {
                let block = self.desugar_array_assign(places, right);
                self.lower_expr(&block)
            }
            other => {
                self.diag.error_spanned(
                    &other,
                    "`#[derive_frule]` can assign only to local variables, `*reference`, `slice[index]` and tuples of these; assign to a local and copy it",
                );
                Some(self.poison(span))
            }
        }
    }

    /// `place = rhs`, or `place op= rhs` reading the place through `read` first (Rust has
    /// already evaluated `rhs`).
    fn store(
        &mut self,
        place: Place,
        read: (InstKind, TypeHint),
        op: Option<BinOp>,
        rhs: Value,
        read_span: Span,
        span: Span,
    ) -> Option<Value> {
        let value = match op {
            Some(op) => {
                let old = self.push(read.0, read.1, read_span);
                self.binary_or_assign(op, old, rhs, span)
            }
            None => rhs,
        };
        self.push(InstKind::Store { place, value }, TypeHint::NonDiff, span);
        Some(self.unit(span))
    }

    /// Assigns an already lowered value to a place (a local, `*r`, `x[i]`).
    fn assign_value(&mut self, place: &syn::Expr, value: Value, span: Span) -> Option<()> {
        match strip(place) {
            syn::Expr::Path(p) if p.path.get_ident().is_some() => {
                let id = p.path.get_ident().cloned()?;
                if !self.assign(&id.to_string(), value) {
                    self.diag.error_spanned(
                        place,
                        format!(
                            "`#[derive_frule]` can only assign local variables; `{id}` is not one"
                        ),
                    );
                }
            }
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                let target = self.lower_expr(&u.expr)?;
                self.push(
                    InstKind::Store {
                        place: Place::Deref(target),
                        value,
                    },
                    TypeHint::NonDiff,
                    span,
                );
            }
            syn::Expr::Index(ix) => {
                let target = self.lower_place(&ix.expr, true)?;
                let index = self.lower_expr(&ix.index)?;
                let place = match self.user_index_mut(target, index, ix.span()) {
                    Some(elem) => Place::Deref(elem),
                    None => Place::Index(target, index),
                };
                self.push(InstKind::Store { place, value }, TypeHint::NonDiff, span);
            }
            other => self
                .diag
                .error_spanned(other, "`#[derive_frule]` cannot assign to this place"),
        }
        Some(())
    }

    /// An expression in place context (the base of `[]` or `.field`, an assignment
    /// target's base, a mutating method's receiver): a field or an element is borrowed
    /// ([`InstKind::FieldRef`], [`InstKind::ElemRef`]) rather than copied out, as Rust does
    /// for places. So `a[i][j] = v` and `w[i].x += v` write into `a` and `w`, and
    /// `rows[i][j]` reads a `Vec<Vec<f64>>` without copying its row.
    pub(crate) fn lower_place(&mut self, e: &syn::Expr, mutable: bool) -> Option<Value> {
        match strip(e) {
            syn::Expr::Field(f) => {
                let base = self.lower_place(&f.base, mutable)?;
                let ty = TypeHint::Ref(Box::new(self.func.values[base].ty.field(&f.member)));
                Some(self.push(
                    InstKind::FieldRef {
                        base,
                        member: f.member.clone(),
                        mutable,
                    },
                    ty,
                    f.span(),
                ))
            }
            syn::Expr::Index(ix) if !matches!(strip(&ix.index), syn::Expr::Range(_)) => {
                let base = self.lower_place(&ix.expr, mutable)?;
                let index = self.lower_expr(&ix.index)?;
                let ty = TypeHint::Ref(Box::new(self.func.values[base].ty.element()));
                Some(self.push(
                    InstKind::ElemRef {
                        base,
                        index,
                        mutable,
                    },
                    ty,
                    ix.span(),
                ))
            }
            _ => self.lower_expr(e),
        }
    }

    /// A method's receiver: a place ([`Self::lower_place`]), except that an element
    /// `x[i]` is read by value for a known method that does not mutate it (`x[i].abs()`
    /// calls the rule of `f64::abs`). A method of a user type may take `&mut self`, so its
    /// element is borrowed: a copy would take the write and lose it.
    pub(crate) fn lower_receiver(
        &mut self,
        e: &syn::Expr,
        method: &str,
        mutable: bool,
    ) -> Option<Value> {
        match strip(e) {
            // A known method reads an element (`x[i].sin()`, `k[i].into()`), but for those
            // that borrow a row (`m[i].len()`, `m[i].clone()`), as Rust's auto-ref does.
            syn::Expr::Index(_)
                if !mutable
                    && super::is_known_method(method)
                    && !StdMethod::from_name(method).is_some_and(StdMethod::borrows_row) =>
            {
                self.lower_expr(e)
            }
            // A field that is itself a reference (`a.1` of an `enumerate()` item, `&f64`)
            // is the receiver as it is, as Rust's method lookup takes it: borrowed again,
            // `a.1.partial_cmp(b.1)` would resolve on `&f64` and want `&&f64`.
            syn::Expr::Field(f) if !mutable => {
                let base = self.lower_place(&f.base, false)?;
                let field_ty = self.func.values[base].ty.field(&f.member);
                let (kind, ty) = if matches!(field_ty, TypeHint::Ref(_)) {
                    let kind = InstKind::Field {
                        base,
                        member: f.member.clone(),
                    };
                    (kind, field_ty)
                } else {
                    let kind = InstKind::FieldRef {
                        base,
                        member: f.member.clone(),
                        mutable: false,
                    };
                    (kind, TypeHint::Ref(Box::new(field_ty)))
                };
                Some(self.push(kind, ty, f.span()))
            }
            _ => self.lower_place(e, mutable),
        }
    }

    /// `Path { a: x, b, ..base }`.
    pub(crate) fn lower_struct(&mut self, s: &syn::ExprStruct) -> Option<Value> {
        let span = s.span();
        if s.qself.is_some() {
            self.diag.error_spanned(
                s,
                "`#[derive_frule]` does not support struct literals with qualified paths",
            );
            return Some(self.poison(span));
        }
        let mut fields = Vec::new();
        for fv in &s.fields {
            // `Integrator { f: |t, y| .., h }`: a closure has no tangent type to store.
            if let Some(f) = self.fn_arg(&fv.expr).filter(|f| f.named.is_none()) {
                let name = match &fv.member {
                    syn::Member::Named(n) => n.to_string(),
                    syn::Member::Unnamed(_) => "f".to_string(),
                };
                let bound = fn_bound(f.closure.inputs.len());
                self.diag.error_spanned(
                    &fv.expr,
                    format!("`#[derive_frule]` does not support a closure or function stored in a struct's field (`{name}`) here: a struct cannot hold its differentiated form; bind the literal with `let` in the differentiated function (`let p = S {{ {name}: |..| .., .. }};`), of a struct declared in this crate without `#[derive(Differentiable)]`, and read its fields, call `(p.{name})(..)`, its `&self` methods of a `#[derive_frule] impl` or a `#[derive_frule]` function taking it there; or pass the function to the method that calls it, as a parameter (`{name}: impl {bound}`)"),
                );
                return Some(self.poison(span));
            }
            let v = self.lower_expr(&fv.expr)?;
            fields.push((fv.member.clone(), v));
        }
        let base = match &s.rest {
            Some(r) => Some(self.lower_expr(r)?),
            None => None,
        };
        Some(self.push(
            InstKind::Struct {
                path: s.path.clone(),
                fields,
                base,
            },
            TypeHint::Unknown,
            span,
        ))
    }

    /// `V2(a, b)`: a tuple struct's constructor, lowered as the struct literal
    /// `V2 { 0: a, 1: b }` it is equivalent to.
    fn lower_tuple_ctor(&mut self, p: &syn::ExprPath, c: &syn::ExprCall) -> Option<Value> {
        let mut fields = Vec::new();
        for (i, a) in c.args.iter().enumerate() {
            let v = self.lower_expr(a)?;
            let index = syn::Index {
                index: i as u32,
                span: a.span(),
            };
            fields.push((syn::Member::Unnamed(index), v));
        }
        Some(self.push(
            InstKind::Struct {
                path: p.path.clone(),
                fields,
                base: None,
            },
            TypeHint::Unknown,
            c.span(),
        ))
    }

    /// `x[a..b]` borrowed (`&x[a..b]`, `&mut x[a..b]`, or iterated): an
    /// [`InstKind::Slice`] of the place `x`.
    pub(crate) fn lower_sub_slice(
        &mut self,
        ix: &syn::ExprIndex,
        mutable: bool,
        span: Span,
    ) -> Option<Value> {
        let base = self.lower_place(&ix.expr, mutable)?;
        let range = self.lower_expr(&ix.index)?;
        let ty = match self.func.values[base].ty.element() {
            TypeHint::Unknown => TypeHint::Unknown,
            elem => TypeHint::Ref(Box::new(TypeHint::Seq(Box::new(elem)))),
        };
        let kind = InstKind::Slice {
            base,
            range,
            mutable,
        };
        Some(self.push(kind, ty, span))
    }

    /// `&e`, `&mut e`; `&x[a..b]` becomes a [`InstKind::Slice`].
    pub(crate) fn lower_reference(&mut self, r: &syn::ExprReference) -> Option<Value> {
        let span = r.span();
        let mutable = r.mutability.is_some();
        if let Some(ix) = sub_slice(&r.expr) {
            return self.lower_sub_slice(ix, mutable, span);
        }
        match strip(&r.expr) {
            // `&x[i]`, `&s.f`: a borrowed place, not a reference to a copy.
            syn::Expr::Field(_) | syn::Expr::Index(_) => return self.lower_place(&r.expr, mutable),
            // `&*r`, `&mut *r`: a reborrow, which is how every use of a reference is
            // emitted; a call converts `&mut` to a shared parameter as Rust does.
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                if self.lends_boxed_object(r, &u.expr) {
                    return Some(self.poison(span));
                }
                let inner = self.lower_expr(&u.expr)?;
                if let TypeHint::Ref(_) = self.func.values[inner].ty {
                    return Some(inner);
                }
                let arg = self.deref(inner, r.expr.span());
                return Some(self.borrow(arg, mutable, span));
            }
            _ => {}
        }
        let arg = self.lower_expr(&r.expr)?;
        Some(self.borrow(arg, mutable, span))
    }

    /// `&mut *b` (`&*b`) of a local or parameter written `Box<dyn Body>`: the object lent
    /// by hand, which has no dual reference to lend; reported (`true`) with what to write.
    #[inline(never)]
    fn lends_boxed_object(&mut self, r: &syn::ExprReference, boxed: &syn::Expr) -> bool {
        let Some(object) = self
            .written_type(boxed)
            .and_then(crate::types::boxed_trait_object)
        else {
            return false;
        };
        let (object, b) = (
            quote::ToTokens::to_token_stream(object),
            quote::ToTokens::to_token_stream(boxed),
        );
        let (amp, param) = match r.mutability.is_some() {
            true => ("&mut ", "&mut Box"),
            false => ("&", "&Box"),
        };
        self.diag.error_spanned(
            r,
            format!(
                "`#[derive_frule]` does not support lending a boxed trait object by hand (`{amp}*{b}` of a `Box<{object}>`): pass the box itself, `{amp}{b}`, to a function that takes it (`fn f(b: {param}<{object}>, ..)`), or call its methods on the box (`{b}.method(..)`)"
            ),
        );
        true
    }

    /// `*arg`, typed as what `arg`'s type refers to.
    pub(crate) fn deref(&mut self, arg: Value, span: Span) -> Value {
        let ty = self.func.values[arg].ty.deref();
        self.push(
            InstKind::Unary {
                op: UnOp::Deref,
                arg,
            },
            ty,
            span,
        )
    }

    /// `&arg` (`&mut arg`), typed as a reference to `arg`'s type.
    pub(crate) fn borrow(&mut self, arg: Value, mutable: bool, span: Span) -> Value {
        let ty = TypeHint::Ref(Box::new(self.func.values[arg].ty.clone()));
        self.push(InstKind::Ref { mutable, arg }, ty, span)
    }

    /// `T::sqrt(x)`, `Float::max(a, b)`, `<T as Float>::sin(x)`, `<f64>::abs(x)`: a float
    /// method called by path through a type parameter, a float trait or the float type, as the method call it is
    /// (`(x).sqrt()`), so it finds the method's rule. (`f64::sqrt(x)` has its own path.)
    fn float_method_by_path(
        &self,
        p: &syn::ExprPath,
        c: &syn::ExprCall,
    ) -> Option<syn::ExprMethodCall> {
        let segs = &p.path.segments;
        let method = &segs.last()?.ident;
        FloatOp::method(&method.to_string())?;
        let first = c.args.first()?;
        let prefix: Vec<String> = segs
            .iter()
            .take(segs.len() - 1)
            .map(|s| s.ident.to_string())
            .collect();
        let float_trait = |names: &[String]| {
            names
                .last()
                .is_some_and(|n| crate::callee::is_float_trait(n))
        };
        let by_param = |names: &[String]| names.len() == 1 && self.type_params.contains(&names[0]);
        // `<f64>::abs`, `<T>::sqrt`: the float type (or a type parameter) itself.
        let float_self = |ty: &syn::Type| match ty {
            syn::Type::Path(tp) if tp.qself.is_none() => {
                matches!(
                    StdType::of_path(&tp.path).map(StdType::class),
                    Some(TypeClass::Float)
                ) || tp
                    .path
                    .get_ident()
                    .is_some_and(|id| self.type_params.contains(&id.to_string()))
            }
            _ => false,
        };
        // `Euclid::rem_euclid(&x, &m)` (num_traits' `Euclid`, as sgp4 writes it without
        // `std`): the float's own `rem_euclid`/`div_euclid`, which take their operands by
        // value where the trait takes them by reference.
        let euclid =
            p.qself.is_none() && crate::callee::is_euclid_path(&p.path) && c.args.len() == 2;
        let ok = match &p.qself {
            // `<T as Float>::sin`: the trait is the path's prefix.
            Some(q) if q.position == 0 => prefix.is_empty() && float_self(&q.ty),
            Some(q) => q.position == prefix.len() && float_trait(&prefix),
            None => by_param(&prefix) || float_trait(&prefix) || euclid,
        };
        if !ok || segs.iter().any(|s| !s.arguments.is_none()) {
            return None;
        }
        let by_value = |e: &syn::Expr| -> syn::Expr {
            match strip(e) {
                syn::Expr::Reference(r) if euclid && r.mutability.is_none() => (*r.expr).clone(),
                _ if euclid => syn::Expr::Unary(syn::ExprUnary {
                    attrs: Vec::new(),
                    op: syn::UnOp::Deref(Default::default()),
                    expr: Box::new(paren(e.clone())),
                }),
                _ => e.clone(),
            }
        };
        Some(syn::ExprMethodCall {
            attrs: c.attrs.clone(),
            receiver: Box::new(paren(by_value(first))),
            dot_token: Default::default(),
            method: method.clone(),
            turbofish: None,
            paren_token: c.paren_token,
            args: c.args.iter().skip(1).map(by_value).collect(),
        })
    }

    /// `T::max`, `Float::min`, `num_traits::Float::sqrt` (a float method through a type
    /// parameter or a float trait, without arguments on the path): an adaptor's function
    /// called on its first argument, as [`Lowerer::float_method_by_path`] makes the call
    /// written out. `f64::max` is a float function by path already.
    pub(crate) fn is_float_method_path(&self, path: &syn::Path) -> bool {
        let segs = &path.segments;
        let Some(last) = segs.last() else {
            return false;
        };
        if FloatOp::method(&last.ident.to_string()).is_none()
            || segs.iter().any(|s| !s.arguments.is_none())
        {
            return false;
        }
        let prefix: Vec<String> = segs
            .iter()
            .take(segs.len() - 1)
            .map(|s| s.ident.to_string())
            .collect();
        match prefix.as_slice() {
            [t] if self.type_params.contains(t) => true,
            [.., t] => crate::callee::is_float_trait(t),
            [] => false,
        }
    }

    /// `F::sin` of a type parameter `F` bounded by a trait of the user's whose associated
    /// function `sin` (no `self`) the file declares to return `f64` or `f32` (spa's
    /// `trait FloatOps { fn sin(x: f64) -> f64; .. }`, a float backend chosen by the type
    /// parameter): its result is a float, not a value of the implementing type.
    pub(crate) fn is_float_trait_fn(&self, path: &syn::Path) -> bool {
        let [t, f] = match (path.leading_colon, path.segments.len()) {
            (None, 2) => [&path.segments[0], &path.segments[1]],
            _ => return false,
        };
        if !t.arguments.is_none() || !f.arguments.is_none() {
            return false;
        }
        let (param, name) = (t.ident.to_string(), f.ident.to_string());
        self.trait_bounds
            .iter()
            .filter(|(p, _)| *p == param)
            .flat_map(|(_, traits)| traits)
            .any(|tr| crate::plain_fns::trait_fn_returns_float(tr, &name))
    }

    /// `T::from`, `T::from_f64`, `T::from_f32` of a type parameter `T` (a float): the
    /// conversions `num_traits` gives a float from another float.
    fn is_type_param_conversion(&self, path: &syn::Path) -> bool {
        match (path.leading_colon, path.segments.len()) {
            (None, 2) => {
                let (t, f) = (&path.segments[0], &path.segments[1]);
                t.arguments.is_none()
                    && f.arguments.is_none()
                    && self.type_params.contains(&t.ident.to_string())
                    && crate::callee::is_float_conversion_name(&f.ident)
            }
            _ => false,
        }
    }

    /// `path(args)`. Calls through anything but a path are not supported.
    /// An iterator chain passed to a function of the user's (`energy(frame.iter().copied())`
    /// with `samples: impl Iterator<Item = f64>`): a derived function takes an iterator
    /// parameter's items as constants, and an iterator has no tangent to carry theirs.
    #[inline(never)]
    fn report_iterator_argument(&mut self, f: &syn::Path, arg: &syn::Expr) {
        let text = |e: &syn::Expr| {
            quote::ToTokens::to_token_stream(e)
                .to_string()
                .replace(" . ", ".")
                .replace(" (", "(")
                .replace("( ", "(")
                .replace(" )", ")")
        };
        let name = quote::ToTokens::to_token_stream(f)
            .to_string()
            .replace(' ', "");
        // The chain's source (`frame` of `frame.iter().copied()`), for the slice to pass.
        let mut root = strip(arg);
        while let syn::Expr::MethodCall(m) = root {
            root = strip(&m.receiver);
        }
        let (root, chain) = (text(root), text(arg));
        self.diag.error_spanned(
            arg,
            format!("`#[derive_frule]` does not support passing an iterator to `{name}`: an iterator has no tangent, and a derived function takes the items of an iterator parameter as constants; take the items as a slice in `{name}` (`&[f64]`) and pass the slice (`&{root}[..]`), or a `Vec` collected from the chain (`&{chain}.collect::<Vec<f64>>()`); for constant items, pass an array or a `Vec` to a parameter `I: IntoIterator<Item = f64>`"),
        );
    }

    pub(crate) fn lower_call(&mut self, c: &syn::ExprCall) -> Option<Value> {
        let span = c.span();
        // `make(k)(x)`: the closure a `let` closure returns, called at once.
        if let syn::Expr::Call(inner) = strip(&c.func) {
            if let Some(def) = self.returned_closure(inner) {
                let def = match def {
                    Some(def) => def,
                    None => return Some(self.poison(span)),
                };
                let args = self.lower_exprs(c.args.iter())?;
                let shapes = args.into_iter().map(super::iterate::Shape::Val).collect();
                return self.inline_closure(&def.expr, Some(&def), shapes, span);
            }
        }
        // `basis[k](x)` of a list of functions written in the body.
        if let Some(e) = self.desugar_fn_list_call(c) {
            return self.lower_expr(&e);
        }
        let syn::Expr::Path(p) = strip(&c.func) else {
            let message = match strip(&c.func) {
                // `(self.f)(t, y)`: a closure held by a struct.
                syn::Expr::Field(f) => {
                    let name = match &f.member {
                        syn::Member::Named(n) => n.to_string(),
                        syn::Member::Unnamed(_) => "f".to_string(),
                    };
                    let base = &f.base;
                    let bound = fn_bound(c.args.len());
                    format!("`#[derive_frule]` does not support calling a function held in a field (`({}.{name})(..)`) here: a struct cannot hold its differentiated form; supported are a `&self` method of a `#[derive_frule] impl` of a struct declared in this crate without `#[derive(Differentiable)]`, a `#[derive_frule]` function taking such a struct, and a local the differentiated function builds with a struct literal; otherwise take the function as a parameter of the method that calls it (`{name}: impl {bound}`) and call it `{name}(..)`", quote::quote!(#base).to_string().replace(" . ", "."))
                }
                _ => "`#[derive_frule]` can only call functions by path (`f(x)`, `m::f(x)`); calling a closure or a function value is not supported".to_string(),
            };
            self.diag.error_spanned(&c.func, message);
            return Some(self.poison(span));
        };
        if let Some(m) = self.float_method_by_path(p, c) {
            return self.lower_method_call(&m);
        }
        // `Clone::clone(&x)`, `f64::clone(&x)`: `x.clone()`; `convert::identity(x)`: `x`.
        if let Some(e) = clone_or_identity_call(p, c) {
            return self.lower_expr(&e);
        }
        // ndarray's `Zip::from(&mut a).and(&b).for_each(|a, &b| ..)`.
        if p.qself.is_none() && crate::libtypes::is_ndarray_zip(&p.path) {
            let advice = crate::libtypes::NDARRAY_ZIP_ADVICE.replace("{what}", "ndarray's `Zip`");
            self.diag.error_spanned(c, advice);
            return Some(self.poison(span));
        }
        // `f64::sin(x.into())`: the float function's first argument is of its type, so
        // the conversion is `f64::from(x)`.
        if let Some(e) = float_path_of_into(p, c) {
            return self.lower_expr(&e);
        }
        // `<Vec3 as Norm>::norm(&v)`, `<T as Norm>::norm(v)`: the trait's function, whose
        // `Self` the first argument gives (`Norm::norm(&v)`).
        if let Some((call, qself)) = trait_path_call(p, c) {
            let v = self.lower_call(&call)?;
            if let Some(ty) = qself {
                self.func.qualified_self.insert(v, ty);
            }
            return Some(v);
        }
        // `<f64 as Default>::default()`: without arguments, a constant.
        if p.qself.is_some() && c.args.is_empty() {
            return Some(self.qualified_constant(&syn::Expr::Call(c.clone())));
        }
        if let Some(v) = self.lower_library_call(c) {
            return v;
        }
        if p.qself.is_some() {
            self.diag.error_spanned(&p, "`#[derive_frule]` does not support calls through this qualified path; call the function through its trait (`Trait::f(x)`) or its type (`Ty::f(x)`)");
            return Some(self.poison(span));
        }
        if let Some(path) = crate::libtypes::glam_ctor_fn(&p.path) {
            let func = syn::Expr::Path(syn::ExprPath { path, ..p.clone() });
            let call = syn::ExprCall {
                func: Box::new(func),
                ..c.clone()
            };
            return self.lower_call(&call);
        }
        if let Some(id) = p.path.get_ident() {
            if let Some(def) = self.lookup_closure(&id.to_string()) {
                let args = self.lower_exprs(c.args.iter())?;
                let shapes = args.into_iter().map(super::iterate::Shape::Val).collect();
                return self.inline_closure(&def.expr, Some(&def), shapes, c.span());
            }
            // A function value (`f: F` with `F: Fn(f64) -> f64`, `g: &dyn Fn(..)`, a
            // closure a call returned): in the rule, the dual function.
            if let Some(f) = self.lookup(&id.to_string()) {
                // Reported where it was bound.
                if self.is_poison(f) {
                    return Some(self.poison(span));
                }
                if !self.callable(f) {
                    self.diag.error_spanned(
                        &c.func,
                        format!("`#[derive_frule]` cannot call `{id}`: calls of a local value are supported for a parameter of a function type (`F: Fn(f64) -> f64`, `impl Fn`, `&dyn Fn`, `fn(..)`) and for a function a call returned, not for one taken out of a collection (`for phi in &basis`, `fs.iter().map(|f| f(x))`); call the function by name, or call each function a factory returns where it is made (`for i in 0..n {{ let f = make(i, k); s += f(x); }}`)"),
                    );
                    return Some(self.poison(span));
                }
                if matches!(self.func.values[f].def, crate::ir::ValueDef::Inst(..)) {
                    self.func.fn_sources.insert(f);
                }
                let mut args = vec![f];
                args.extend(self.lower_exprs(c.args.iter())?);
                return Some(self.push(
                    InstKind::Call {
                        callee: PathCallee::FnValue,
                        func: p.path.clone(),
                        args,
                    },
                    TypeHint::Unknown,
                    span,
                ));
            }
        }
        // `Box::new(|x| ..)` returned (`-> Box<dyn Fn(f64) -> f64>`).
        if crate::callee::is_box_new(&p.path) && c.args.len() == 1 && self.returns_fn() {
            if let syn::Expr::Closure(cl) = strip(&c.args[0]) {
                let arg = super::higher_order::FnArg {
                    closure: cl.clone(),
                    wrap: crate::ir::ArgWrap::Boxed,
                    def: None,
                    named: None,
                };
                let own: syn::Path = self.func.name.clone().into();
                return self.lower_fn_arg(arg, &own, crate::ir::RETURNED);
            }
        }
        // An iterator chain given to a library's constructor as a value
        // (`DVector::from_iterator(n, x.iter().map(|v| ..))`): its items collected into a
        // `Vec` first, which the constructor takes as well (the primal is the same).
        if crate::libtypes::is_lib_ctor(&p.path) {
            let is_chain = |a: &syn::Expr| {
                matches!(strip(a), syn::Expr::MethodCall(m)
                    if crate::callee::Adaptor::from_name(&m.method.to_string()).is_some())
            };
            if c.args.iter().any(is_chain) {
                let mut collected = c.clone();
                for a in collected.args.iter_mut().filter(|a| is_chain(a)) {
                    let span = a.span();
                    let chain = a.clone();
                    match self
                        .diag
                        .handle(splice!(span=> (#chain).collect::<::std::vec::Vec<_>>()))
                    {
                        Some(e) => *a = e,
                        None => return Some(self.poison(span)),
                    }
                }
                return self.lower_call(&collected);
            }
        }
        // A closure given to a library's constructor other than those `lower_library_call`
        // writes out (`Array3::from_shape_fn(.., |(i, j, k)| ..)`): the library would call
        // it with indices and store what it returns, which no rule maps yet.
        if crate::libtypes::is_lib_ctor(&p.path) {
            if let Some(a) = c.args.iter().find(|a| self.fn_arg(a).is_some()) {
                let ctor = quote::ToTokens::to_token_stream(&p.path)
                    .to_string()
                    .replace(' ', "");
                self.diag.error_spanned(
                    a,
                    format!("`#[derive_frule]` does not support a closure passed to the library constructor `{ctor}` (nalgebra's `from_fn` and ndarray's `Array1::from_shape_fn`, `Array2::from_shape_fn`, `Array3::from_shape_fn` take closures): name the array's dimension (`Array2::from_shape_fn`), or build the value with `zeros` and fill it in loops (`let mut k = Array2::zeros((n, n));`, then `k[[i, j]] = ..;`)"),
                );
                return Some(self.poison(span));
            }
        }
        // `std::array::from_fn(|i| ..)`: the runtime's rule, called as a derived function
        // taking a closure is.
        if let Some(rule) = crate::callee::array_from_fn_rule(&p.path) {
            if c.args.len() == 1 && self.fn_arg(&c.args[0]).is_some() {
                let mut call = c.clone();
                *call.func = syn::Expr::Path(syn::ExprPath {
                    attrs: Vec::new(),
                    qself: None,
                    path: rule,
                });
                return self.lower_call(&call);
            }
        }
        // Closures passed to a function of the user's, or to a method of the user's called
        // by path (`Solver::solve(&s, |x| ..)`): their dual forms.
        let resolved = PathCallee::resolve(&p.path, c.args.len());
        let assoc = resolved == PathCallee::Assoc;
        if resolved == PathCallee::Function || assoc {
            if let Some(a) = c.args.iter().find(|a| iterator_argument(a)) {
                self.report_iterator_argument(&p.path, a);
                return Some(self.poison(span));
            }
        }
        if (resolved == PathCallee::Function || assoc)
            && c.args.iter().any(|a| self.fn_arg(a).is_some())
        {
            let mut args = Vec::new();
            for (i, a) in c.args.iter().enumerate() {
                match self.fn_arg(a) {
                    Some(f) if assoc => args.push(self.lower_fn_arg_to(
                        f,
                        &p.path,
                        i,
                        crate::ir::ClosureTarget::Assoc,
                    )?),
                    Some(f) if !assoc => args.push(self.lower_fn_arg(f, &p.path, i)?),
                    _ => args.push(self.lower_expr(a)?),
                }
            }
            return Some(self.push(
                InstKind::Call {
                    callee: PathCallee::Unresolved,
                    func: p.path.clone(),
                    args,
                },
                TypeHint::Unknown,
                span,
            ));
        }
        // `Vec::from(x)` of a slice, array or `Vec`: the same elements, as `x.to_vec()`.
        if crate::callee::is_vec_from(&p.path) && c.args.len() == 1 {
            let arg = &c.args[0];
            let template = syn::parse_quote_spanned!(span=> __fwdad_arg.to_vec());
            let e =
                crate::splice::fill(template, &[("__fwdad_arg", crate::splice::Hole::Expr(arg))]);
            return self.lower_expr(&e);
        }
        if crate::callee::is_tuple_ctor(&p.path) && !c.args.is_empty() {
            return self.lower_tuple_ctor(p, c);
        }
        let map_ctor = crate::callee::map_ctor(&p.path, c.args.len());
        // `BTreeMap::from([(0, a), (1, b)])`: an empty map and an `insert` per pair.
        if map_ctor == Some(crate::callee::MapCtor::From) {
            let mut new = p.clone();
            if let Some(last) = new.path.segments.last_mut() {
                last.ident = syn::Ident::new("new", last.ident.span());
                last.arguments = syn::PathArguments::None;
            }
            let new = syn::Expr::Path(new);
            let template = syn::parse_quote_spanned!(span=> {
                let mut __fwdad_map = __fwdad_new();
                for (__fwdad_key, __fwdad_value) in __fwdad_pairs {
                    __fwdad_map.insert(__fwdad_key, __fwdad_value);
                }
                __fwdad_map
            });
            let e = crate::splice::fill(
                template,
                &[
                    ("__fwdad_new", crate::splice::Hole::Expr(&new)),
                    ("__fwdad_pairs", crate::splice::Hole::Expr(&c.args[0])),
                ],
            );
            return self.lower_expr(&e);
        }
        let args = self.lower_exprs(c.args.iter())?;
        // `HashMap::new()`: a map, whose keys carry no tangent, even where its type is not
        // written (`let mut m = HashMap::new();`).
        if map_ctor == Some(crate::callee::MapCtor::Empty) {
            let ty = TypeHint::Map(Box::new(TypeHint::NonDiff), Box::new(TypeHint::Unknown));
            return Some(self.push(
                InstKind::Call {
                    callee: PathCallee::Unresolved,
                    func: p.path.clone(),
                    args,
                },
                ty,
                span,
            ));
        }
        // `f64::from(x)`: `x as f64`, for a generic `x` too; on a constant the call
        // `Into::<f64>::into(x)`, which also compiles where `x: T` with `T: Into<f64>`.
        if let (Some(float), [arg]) = (crate::callee::float_from(&p.path), &args[..]) {
            if self.func.values[*arg].ty != TypeHint::Bool {
                return Some(self.push(
                    InstKind::Call {
                        callee: PathCallee::Wrap(Wrapper::FloatInto),
                        func: crate::callee::float_into_path(float),
                        args,
                    },
                    TypeHint::Float,
                    span,
                ));
            }
        }
        if let Some(v) = self.float_to_bits_by_path(&p.path, &args, span) {
            return Some(v);
        }
        // `T::from(x)`, `T::from_f64(x)` of the float type parameter `T`: `Some(x as T)`.
        if let [_] = &args[..] {
            if self.is_type_param_conversion(&p.path) {
                return Some(self.push(
                    InstKind::Call {
                        callee: PathCallee::Wrap(Wrapper::FloatFrom),
                        func: p.path.clone(),
                        args,
                    },
                    TypeHint::Unknown,
                    span,
                ));
            }
        }
        let ty = match crate::callee::float_path_call(&p.path) {
            Some(_) => TypeHint::Float,
            None if self.is_float_trait_fn(&p.path) => TypeHint::Float,
            None => TypeHint::Unknown,
        };
        // `swap(&mut a, &mut b)` after `use core::mem::swap;`: the path written out.
        let func = crate::plain_fns::imported_from_std(&self.func.name.to_string(), &p.path)
            .unwrap_or_else(|| p.path.clone());
        Some(self.push(
            InstKind::Call {
                callee: PathCallee::Unresolved,
                func,
                args,
            },
            ty,
            span,
        ))
    }
}

/// Looks through parentheses and invisible groups.
pub(crate) fn strip(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => strip(&p.expr),
        syn::Expr::Group(g) => strip(&g.expr),
        other => other,
    }
}

/// `x[a..b]`: an index by a range.
pub(crate) fn sub_slice(e: &syn::Expr) -> Option<&syn::ExprIndex> {
    match strip(e) {
        syn::Expr::Index(ix) if matches!(strip(&ix.index), syn::Expr::Range(_)) => Some(ix),
        _ => None,
    }
}

/// `<Ty as Trait>::f(a, ..)` as `Trait::f(a, ..)` with `Ty` beside it (the rule is then
/// `<Ty as Trait>`'s: a function without `self`, `<Decay as Model>::new(a, b)`, has no
/// argument that says `Self`), and `<Ty>::f(a, ..)` as `Ty::f(a, ..)`. `None` for other
/// paths, or a call without arguments.
fn trait_path_call(
    p: &syn::ExprPath,
    c: &syn::ExprCall,
) -> Option<(syn::ExprCall, Option<syn::Type>)> {
    let q = p.qself.as_ref()?;
    if c.args.is_empty() {
        return None;
    }
    let (path, qself) = match (q.position, &*q.ty) {
        (0, syn::Type::Path(tp)) if tp.qself.is_none() => {
            // `<Vec3>::norm(&v)`: `Vec3::norm(&v)`.
            let mut path = tp.path.clone();
            path.segments.extend(p.path.segments.iter().cloned());
            (path, None)
        }
        (0, _) => return None,
        _ => (p.path.clone(), Some((*q.ty).clone())),
    };
    let mut call = c.clone();
    call.func = Box::new(syn::Expr::Path(syn::ExprPath {
        attrs: p.attrs.clone(),
        qself: None,
        path,
    }));
    Some((call, qself))
}

impl Lowerer<'_> {
    /// `f64::to_bits(x)` (libm's `sinh` and `tanh` write it so): the method `x.to_bits()`,
    /// so that what reads a float's bits (`activity::float_bits`, `normalize::abs_by_bits`)
    /// sees one form.
    #[inline(never)]
    fn float_to_bits_by_path(
        &mut self,
        path: &syn::Path,
        args: &[Value],
        span: Span,
    ) -> Option<Value> {
        let [x] = args else { return None };
        if !crate::callee::is_float_to_bits(path) {
            return None;
        }
        let bits = crate::callee::StdMethod::ToBits;
        Some(self.push(
            InstKind::MethodCall {
                receiver: *x,
                method: bits.ident(span),
                turbofish: None,
                args: vec![],
                callee: crate::callee::MethodCallee::Std(bits),
            },
            TypeHint::NonDiff,
            span,
        ))
    }
}

/// `f64::sin(x.into())` as `f64::sin(f64::from(x))`: the first argument of a float function
/// by path (`f64::`/`f32::`) has that float type, which tells `.into()` its target.
fn float_path_of_into(p: &syn::ExprPath, c: &syn::ExprCall) -> Option<syn::Expr> {
    crate::callee::float_path_call(&p.path)?;
    let segs = &p.path.segments;
    let float = &segs[segs.len() - 2].ident;
    let ty = syn::Type::Path(syn::TypePath {
        qself: None,
        path: float.clone().into(),
    });
    let first = super::stmt::float_into(&ty, c.args.first()?)?;
    let mut call = c.clone();
    call.args[0] = first;
    Some(syn::Expr::Call(call))
}

/// `(e)`: an expression parenthesised, as a method call's receiver.
fn paren(e: syn::Expr) -> syn::Expr {
    syn::Expr::Paren(syn::ExprParen {
        attrs: Vec::new(),
        paren_token: Default::default(),
        expr: Box::new(e),
    })
}

/// `Clone::clone(&e)` and `f64::clone(&e)` (or `f32::`) as `e.clone()`, `Clone::clone(r)`
/// as `r.clone()` (`r: &T` clones the `T`, as the function does); `convert::identity(e)` as
/// `e`.
fn clone_or_identity_call(p: &syn::ExprPath, c: &syn::ExprCall) -> Option<syn::Expr> {
    let segs = &p.path.segments;
    if p.qself.is_some() || c.args.len() != 1 || segs.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let arg = c.args.first()?;
    match crate::callee::clone_or_identity(&p.path)? {
        crate::callee::CloneOrIdentity::Identity => Some(paren(arg.clone())),
        crate::callee::CloneOrIdentity::Clone => {
            let receiver = match strip(arg) {
                syn::Expr::Reference(r) if r.mutability.is_none() => (*r.expr).clone(),
                _ => arg.clone(),
            };
            Some(syn::Expr::MethodCall(syn::ExprMethodCall {
                attrs: c.attrs.clone(),
                receiver: Box::new(paren(receiver)),
                dot_token: Default::default(),
                method: segs.last()?.ident.clone(),
                turbofish: None,
                paren_token: c.paren_token,
                args: Default::default(),
            }))
        }
    }
}

/// `Fn(f64, ..) -> f64` of `n` arguments, for messages.
fn fn_bound(n: usize) -> String {
    format!("Fn({}) -> f64", vec!["f64"; n].join(", "))
}

/// Whether `e` is an iterator chain passed as a value (`x.iter()`, `v.iter().copied()`,
/// `a.iter().map(|v| ..)`, `[0.5, 2.0].into_iter()`), not a range (`0..n`, a value of its
/// own) nor an `Option`'s method named like an adaptor (`o.map(..)`, `cache.take()`).
fn iterator_argument(e: &syn::Expr) -> bool {
    let syn::Expr::MethodCall(m) = strip(e) else {
        return false;
    };
    let counted = matches!(
        crate::callee::Adaptor::from_name(&m.method.to_string()),
        Some(
            crate::callee::Adaptor::Take
                | crate::callee::Adaptor::Skip
                | crate::callee::Adaptor::StepBy
        )
    );
    if counted && m.args.len() != 1 {
        return false;
    }
    super::idioms::is_iterator(e)
}
