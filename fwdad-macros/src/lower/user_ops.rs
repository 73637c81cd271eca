//! Operators on the user's types: `a + b`, `-a`, `p[i] += d` where the syntax names a
//! user type for an operand.
//!
//! The macro sees no types, so it decides by what the syntax names (see `docs/design.md`,
//! "Operators on user types"). A value is *of a user type* when it comes from a written
//! type that is neither `std`'s nor one of the function's type parameters (`v: Vec3`,
//! `p: &mut [Vec3]` and its elements, `let d: Vec3 = ..`), from a struct literal or an
//! associated function of such a type (`Vec3 { .. }`, `Vec3::new(..)`), or from another
//! such operator, or the result of a method of the user's (`a.cross(b)`). An operator with such an operand becomes a call of its rule
//! ([`PathCallee::UserOp`]); every other operator stays the float operation it was, so
//! the code emitted for float arithmetic never changes. A guess that is wrong the other
//! way (`type Real = f64; x: Real`) is harmless: the runtime has the float operators'
//! rules too.

use super::Lowerer;
use crate::callee::{PathCallee, StdType, UserOp};
use crate::ir::{BinOp, InstKind, UnOp, Value, ValueDef};
use crate::splice::Hole;
use crate::types::TypeHint;
use proc_macro2::Span;

/// What a value of a user type is, as far as the syntax tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UserShape {
    /// A value (or reference to one) of a user type.
    Value,
    /// A slice, array or `Vec` of them (or a reference to one).
    Seq,
    /// Of a type the syntax does not show at all: an element of a tuple or array a
    /// function returned (`let (p, v) = unpack(q);`), or a part of one. It may be a float,
    /// a value of a user type or a sequence, so its operators and indexing go through the
    /// runtime's `OpRule`, where rustc picks the float row, the user's `impl` or the
    /// sequence's by the value's type.
    Opaque,
}

impl Lowerer<'_> {
    /// The user shape of a written type.
    pub(crate) fn user_shape_of_type(&self, ty: &syn::Type) -> Option<UserShape> {
        match ty {
            syn::Type::Reference(r) => self.user_shape_of_type(&r.elem),
            syn::Type::Paren(p) => self.user_shape_of_type(&p.elem),
            syn::Type::Group(g) => self.user_shape_of_type(&g.elem),
            syn::Type::Slice(s) => self.elem_seq(&s.elem),
            syn::Type::Array(a) => self.elem_seq(&a.elem),
            syn::Type::Path(p) if p.qself.is_none() => {
                let last = p.path.segments.last()?;
                // `Box<dyn Material>`: the trait's methods, as on `&dyn Material`.
                if let Some(inner) = crate::callee::boxed_type(&p.path) {
                    if matches!(inner, syn::Type::TraitObject(_)) {
                        return self.user_shape_of_type(inner);
                    }
                }
                match StdType::of_path(&p.path) {
                    Some(StdType::Vec) => match &last.arguments {
                        syn::PathArguments::AngleBracketed(a) => match a.args.first() {
                            Some(syn::GenericArgument::Type(t)) => self.elem_seq(t),
                            _ => None,
                        },
                        _ => None,
                    },
                    Some(_) => None,
                    None if p.path.segments.len() == 1
                        && self.type_params.contains(&last.ident.to_string()) =>
                    {
                        None
                    }
                    None if self.is_user_type_path(&p.path) => Some(UserShape::Value),
                    // The implementing type in a trait's default method (`traits.rs`).
                    None if crate::callee::is_trait_self_param(&p.path) => Some(UserShape::Value),
                    None => None,
                }
            }
            // `&dyn Material`: the trait's methods, whatever their names.
            syn::Type::TraitObject(t) if crate::callee::names_user_trait_object(t) => {
                Some(UserShape::Value)
            }
            _ => None,
        }
    }

    fn elem_seq(&self, elem: &syn::Type) -> Option<UserShape> {
        (self.user_shape_of_type(elem) == Some(UserShape::Value)).then_some(UserShape::Seq)
    }

    /// A library type its feature recognises (`Complex`, `Vector3`) is the library's:
    /// its operators are the library's own, on dual scalars (`libtypes`).
    pub(super) fn is_user_type_path(&self, path: &syn::Path) -> bool {
        crate::callee::names_user_type(path)
            && !path
                .segments
                .last()
                .is_some_and(|s| crate::libtypes::is_lib_name(&s.ident))
    }

    /// Records what the syntax tells about `value`'s type being the user's, from a written
    /// type (a parameter, a `let` annotation).
    pub(crate) fn note_user_type(&mut self, value: Value, ty: &syn::Type) {
        match self.user_shape_of_type(ty) {
            Some(shape) => {
                self.user.insert(value, shape);
                if shape == UserShape::Value {
                    self.written_user.insert(value);
                }
            }
            // A written type that is not the user's overrides a guess
            // (`let e: Vec<f64> = x.iter().map(..).collect();`).
            None => {
                self.user.remove(&value);
                self.written_user.remove(&value);
            }
        }
    }

    /// Follows user types through the instruction that defined `result`.
    pub(crate) fn track_user(&mut self, kind: &InstKind, result: Value) {
        // A written type's value, as it is (no guess).
        let written = match kind {
            InstKind::Copy(v)
            | InstKind::Unary {
                op: UnOp::Deref,
                arg: v,
            }
            | InstKind::Ref { arg: v, .. } => self.written_user.contains(v),
            InstKind::Index { base, .. } | InstKind::ElemRef { base, .. } => {
                self.user.get(base) == Some(&UserShape::Seq)
            }
            // `Polyline { .. }`: the literal names its type (not a guess), so its methods
            // are the user's (`line.len()`) as on a typed variable.
            InstKind::Struct { path, .. } => self.is_user_type_path(path),
            // `p.clone()`: the receiver's type.
            InstKind::MethodCall {
                receiver, method, ..
            } => {
                self.written_user.contains(receiver)
                    && crate::callee::StdMethod::from_name(&method.to_string())
                        .is_some_and(crate::callee::StdMethod::clones)
            }
            _ => false,
        };
        if written {
            self.user.insert(result, UserShape::Value);
        }
        if written {
            self.written_user.insert(result);
        }
        let shape = |v: &Value| self.user.get(v).copied();
        let found = match kind {
            InstKind::Copy(v)
            | InstKind::Unary {
                op: UnOp::Deref,
                arg: v,
            }
            | InstKind::Ref { arg: v, .. } => shape(v),
            InstKind::Index { base, .. } | InstKind::ElemRef { base, .. } => match shape(base) {
                Some(UserShape::Seq) => Some(UserShape::Value),
                Some(UserShape::Opaque) => Some(UserShape::Opaque),
                _ => None,
            },
            // `&bodies[i + 1..]`: a part of a sequence of them is one.
            InstKind::Slice { base, .. } => match shape(base) {
                Some(UserShape::Seq) => Some(UserShape::Seq),
                _ => None,
            },
            InstKind::Repeat { elem, .. } | InstKind::VecRepeat { elem, .. } => {
                (shape(elem) == Some(UserShape::Value)).then_some(UserShape::Seq)
            }
            InstKind::Array(vs) | InstKind::VecList(vs) => vs
                .first()
                .filter(|v| shape(v) == Some(UserShape::Value))
                .map(|_| UserShape::Seq),
            // A method of the user's (a name with no float or `std` row): a guess (see the
            // module doc), so that `m * a.cross(b)` finds the operator's rule.
            // Only on a receiver of a user type: a library value's `d.norm()` is the
            // library's.
            // Also on a field of a user value (`self.p1.to_vec2()`): a method only a user
            // type has says the field is one.
            InstKind::MethodCall {
                receiver, method, ..
            } => (crate::callee::is_user_method_name(&method.to_string())
                && (matches!(
                    self.user.get(receiver),
                    Some(UserShape::Value | UserShape::Opaque)
                ) || self.is_field_of_user(*receiver)))
            .then_some(UserShape::Value),
            InstKind::Struct { path, .. } => {
                self.is_user_type_path(path).then_some(UserShape::Value)
            }
            // `self.v` of a user value, where the file declares every field `v` as one
            // type of the user's (`v: V3`): `-self.v` is `V3`'s `Neg`.
            InstKind::Field {
                base,
                member: syn::Member::Named(name),
            }
            | InstKind::FieldRef {
                base,
                member: syn::Member::Named(name),
                ..
            } if self.user.get(base) == Some(&UserShape::Value)
                || self.is_field_of_user(*base)
                || self.is_unknown_value(*base) =>
            {
                self.declared_field_type(*base, name)
                    .or_else(|| crate::aliases::source_field_type(&name.to_string()))
                    .and_then(|t| self.user_shape_of_type(&t))
            }
            // `V3::ZERO`, `Spring::K`: an associated constant of a user type may be a value
            // of it or a float (`out[i] = ..` on `let mut out = V3::ZERO;`).
            InstKind::Const(path) if path.segments.len() >= 2 => {
                self.owner_is_user_type(path).then_some(UserShape::Opaque)
            }
            InstKind::Call {
                callee: PathCallee::UserOp(_),
                ..
            } => Some(UserShape::Value),
            // `accel(p, k) + g` of the file's `fn accel(..) -> Vec3`: its written result
            // (the call is resolved after the body, so it is still `Unresolved` here;
            // `field(p, w) - field(p, 2.0 * w)`: `V3`'s `Sub`).
            InstKind::Call {
                callee: PathCallee::Function | PathCallee::Unresolved,
                func,
                args,
            } if func.segments.len() == 1 => self.file_fn_user_result(func, args.len()),
            // `Vec3::new(..)`, `Vec3::zero()`: a guess (see the module doc).
            // Not `F::sin(x)` of a float backend's trait, declared to return a float.
            InstKind::Call { func, .. } if func.segments.len() >= 2 => {
                (self.owner_is_user_type(func) && self.func.values[result].ty != TypeHint::Float)
                    .then_some(UserShape::Value)
            }
            _ => None,
        };
        if let Some(s) = found {
            self.user.insert(result, s);
        }
        // A user type known only from a method's result, or copied from one.
        let guessed = match kind {
            InstKind::MethodCall { .. } => found.is_some(),
            // A field's type read from the file, not from the body: literals beside it
            // are typed as beside a method's result (`3.0 * (self.p1 - self.p0)`).
            InstKind::Field { .. } | InstKind::FieldRef { .. } => found.is_some(),
            InstKind::Call {
                callee: PathCallee::UserOp(_),
                args,
                ..
            } => args
                .iter()
                .all(|a| !self.user.contains_key(a) || self.guessed_user.contains(a)),
            InstKind::Copy(v)
            | InstKind::Unary {
                op: UnOp::Deref,
                arg: v,
            }
            | InstKind::Ref { arg: v, .. } => self.guessed_user.contains(v),
            InstKind::Index { .. } | InstKind::ElemRef { .. } | InstKind::Const(_) => {
                found == Some(UserShape::Opaque)
            }
            _ => false,
        };
        if guessed {
            self.guessed_user.insert(result);
        }
    }

    /// The user shape of what the file's function `func` (one segment, not a local)
    /// returns, when its written result is a type of the user's declared beside the
    /// caller and the callee (as `let a0 = accel(p, k);` is typed by the callee).
    #[inline(never)]
    fn file_fn_user_result(&self, func: &syn::Path, nargs: usize) -> Option<UserShape> {
        let name = func.get_ident()?.to_string();
        if self.lookup(&name).is_some()
            || self.lookup_closure(&name).is_some()
            || PathCallee::resolve(func, nargs) != PathCallee::Function
        {
            return None;
        }
        let ty = crate::aliases::file_return_type(&name)?;
        let syn::Type::Path(tp) = &ty else {
            return None;
        };
        let declared = tp.qself.is_none()
            && tp.path.get_ident().is_some_and(|t| {
                crate::plain_fns::declared_beside(
                    &self.func.name.to_string(),
                    &name,
                    &t.to_string(),
                )
            });
        declared
            .then(|| self.user_shape_of_type(&ty))
            .flatten()
            .filter(|s| *s == UserShape::Value)
    }

    /// `to` is a later SSA value of `from`'s variable (a loop-carried value).
    pub(crate) fn inherit_user(&mut self, from: Value, to: Value) {
        if let Some(s) = self.user.get(&from).copied() {
            self.user.insert(to, s);
            if self.guessed_user.contains(&from) {
                self.guessed_user.insert(to);
            }
        }
    }

    /// The value of an `if` or `match` is of a user type when an arm's value is (`let a =
    /// match drag { Drag::None => g, Drag::Linear(k) => g - k * v, .. }`): a guess only if
    /// every such arm's is.
    pub(crate) fn join_user(&mut self, arms: &[Value], to: Value) {
        let users: Vec<Value> = arms
            .iter()
            .copied()
            .filter(|a| self.user.contains_key(a))
            .collect();
        let Some(&first) = users.first() else {
            return;
        };
        self.inherit_user(first, to);
        if users.iter().any(|a| !self.guessed_user.contains(a)) {
            self.guessed_user.remove(&to);
        }
    }

    /// `it.sum::<Vec3>()` (or bound as `let c: Vec3 = it.sum();`): the user's `Sum` impl
    /// takes an iterator, which a rule cannot take; its stand-in (`crate::reductions`)
    /// takes the items collected, in order:
    /// `{ let items: Vec<Vec3> = it.collect(); Vec3::sum_for_this_type(&items) }` (over
    /// references, each item cloned and `sum_of_refs_for_this_type`). `None` (with an error)
    /// for a type that is not a path.
    pub(crate) fn user_reduction(
        &mut self,
        m: &syn::ExprMethodCall,
        ty: &syn::Type,
    ) -> Option<syn::Expr> {
        let product = crate::callee::Consumer::from_name(&m.method.to_string())
            == Some(crate::callee::Consumer::Product);
        let refs = self
            .chain_yields_refs(&m.receiver)
            .unwrap_or_else(|| yields_refs(&m.receiver));
        let syn::Type::Path(tp) = ty else {
            let (name, ty) = (&m.method, quote::ToTokens::to_token_stream(ty));
            self.diag.error_spanned(
                &m.method,
                format!("`#[derive_frule]` does not support `{name}()` into `{ty}`: name the type by its path (`Vec3`), or accumulate in a loop"),
            );
            return None;
        };
        let mut path = tp.path.clone();
        for seg in &mut path.segments {
            if let syn::PathArguments::AngleBracketed(a) = &mut seg.arguments {
                a.colon2_token = Some(Default::default());
            }
        }
        path.segments
            .push(crate::reductions::fn_name(product, refs, m.method.span()).into());
        let call = syn::Expr::Path(syn::ExprPath {
            attrs: vec![],
            qself: tp.qself.clone(),
            path,
        });
        let chain: syn::Expr = match refs {
            // `.cloned()` after a `filter` is no chain lowering reads; a `map` is.
            true => syn::parse_quote!(__fwdad_chain.map(|__fwdad_item| __fwdad_item.clone())),
            false => syn::parse_quote!(__fwdad_chain),
        };
        let template: syn::Expr = syn::parse_quote!({
            let __fwdad_items: Vec<_> = __fwdad_collected;
            __fwdad_call(&__fwdad_items)
        });
        let collect: syn::Expr = syn::parse_quote!(__fwdad_chain_.collect());
        let chain = crate::splice::fill(chain, &[("__fwdad_chain", Hole::Expr(&m.receiver))]);
        let collect = crate::splice::fill(collect, &[("__fwdad_chain_", Hole::Expr(&chain))]);
        let mut e = crate::splice::fill(
            template,
            &[
                ("__fwdad_collected", Hole::Expr(&collect)),
                ("__fwdad_call", Hole::Expr(&call)),
            ],
        );
        // The items' type, as written (`Vec<Vec3>`), for the `collect`.
        if let syn::Expr::Block(b) = &mut e {
            if let Some(syn::Stmt::Local(l)) = b.block.stmts.first_mut() {
                if let syn::Pat::Type(pt) = &mut l.pat {
                    if let syn::Type::Path(v) = &mut *pt.ty {
                        if let Some(seg) = v.path.segments.last_mut() {
                            if let syn::PathArguments::AngleBracketed(a) = &mut seg.arguments {
                                a.args = std::iter::once(syn::GenericArgument::Type(ty.clone()))
                                    .collect();
                            }
                        }
                    }
                }
            }
        }
        Some(e)
    }

    /// `it.sum::<Complex64>()` (or `let s: Complex64 = it.sum();`) of library values: the
    /// fold from the type's start value, `it.fold(Complex64::new(0.0, 0.0), |a, z| a +
    /// z)`, as the library's `Sum` computes it (`libtypes::reduction_start`). `None` when
    /// the type is no library's; `Some(None)` when it is one whose start the macro cannot
    /// write (a `DVector`, an ndarray array: their size is the items'), reported.
    pub(crate) fn library_reduction(
        &mut self,
        m: &syn::ExprMethodCall,
        ty: &syn::Type,
    ) -> Option<Option<syn::Expr>> {
        if !crate::libtypes::is_lib_type(ty) || matches!(ty, syn::Type::Reference(_)) {
            return None;
        }
        let product = crate::callee::Consumer::from_name(&m.method.to_string())
            == Some(crate::callee::Consumer::Product);
        if !product
            && crate::libtypes::reduction_start(ty, product).is_none()
            && crate::libtypes::sum_from_first(ty)
        {
            let refs = self
                .chain_yields_refs(&m.receiver)
                .unwrap_or_else(|| yields_refs(&m.receiver));
            return Some(self.diag.handle(sum_from_first(&m.receiver, ty, refs)));
        }
        let Some(start) = crate::libtypes::reduction_start(ty, product) else {
            let name = &m.method;
            // As a reader writes it (`DVector<f64>`, not `DVector < f64 >`).
            let ty = syn::parse2::<syn::File>(quote::quote!(type __T = #ty;))
                .ok()
                .map(|f| prettyplease::unparse(&f))
                .and_then(|t| {
                    let t = t.trim().strip_prefix("type __T = ")?.strip_suffix(';')?;
                    Some(t.to_string())
                })
                .unwrap_or_else(|| quote::ToTokens::to_token_stream(ty).to_string());
            self.diag.error_spanned(
                &m.method,
                format!("`#[derive_frule]` does not support `{name}()` into `{ty}` in an iterator chain: the macro cannot write the value it starts from (its size is the items'); accumulate in a loop from the value you start with, `let mut acc = DVector::zeros(n); for v in &items {{ acc += v; }}` (a fixed-size type, `Vector3<f64>`, `Complex64`, glam's `DVec3`, is summed as written)"),
            );
            return Some(None);
        };
        let template: syn::Expr = if product {
            syn::parse_quote!(
                __fwdad_chain.fold(__fwdad_start, |__fwdad_acc, __fwdad_item| {
                    __fwdad_acc * __fwdad_item
                })
            )
        } else {
            syn::parse_quote!(
                __fwdad_chain.fold(__fwdad_start, |__fwdad_acc, __fwdad_item| {
                    __fwdad_acc + __fwdad_item
                })
            )
        };
        Some(Some(crate::splice::fill(
            template,
            &[
                ("__fwdad_chain", Hole::Expr(&m.receiver)),
                ("__fwdad_start", Hole::Expr(&start)),
            ],
        )))
    }

    /// Whether `e` is a local whose type is written as the user's (`line` of
    /// `line: &Polyline`).
    pub(crate) fn is_written_user_receiver(&self, e: &syn::Expr) -> bool {
        match super::place::strip(e) {
            syn::Expr::Path(p) if p.qself.is_none() => p
                .path
                .get_ident()
                .and_then(|id| self.lookup(&id.to_string()))
                .is_some_and(|v| self.written_user.contains(&v)),
            _ => false,
        }
    }

    /// Whether `e` names a local whose written type is a library type (`a.sum()` with
    /// `a: &Array1<f64>` is ndarray's `sum`, not a slice's).
    pub(crate) fn is_written_lib_receiver(&self, e: &syn::Expr) -> bool {
        match super::place::strip(e) {
            syn::Expr::Path(p) if p.qself.is_none() => p
                .path
                .get_ident()
                .and_then(|id| self.lookup(&id.to_string()))
                .is_some_and(|v| self.is_written_lib(v)),
            _ => false,
        }
    }

    /// Whether `Ty::item`'s `Ty` is a user type (not a type parameter of the function).
    pub(super) fn owner_is_user_type(&self, path: &syn::Path) -> bool {
        let mut ty = path.clone();
        ty.segments.pop();
        ty.segments.pop_punct();
        let single =
            ty.segments.len() == 1 && self.type_params.contains(&ty.segments[0].ident.to_string());
        !single && self.is_user_type_path(&ty)
    }

    /// Whether `v` is a field read (or borrow) of a value of a user type.
    fn is_field_of_user(&self, v: Value) -> bool {
        let crate::ir::ValueDef::Inst(inst, _) = self.func.values[v].def else {
            return false;
        };
        match &self.func.insts[inst].kind {
            InstKind::Field { base, .. } | InstKind::FieldRef { base, .. } => {
                self.user.get(base) == Some(&UserShape::Value) || self.is_field_of_user(*base)
            }
            InstKind::Copy(a) | InstKind::Ref { arg: a, .. } => self.is_field_of_user(*a),
            _ => false,
        }
    }

    /// Whether the place `base.member` is a field of a user value (a local, or a field
    /// of one, as `b.vel` or `self.state.vel`) that the file declares with a type of the
    /// user's (`vel: V3`), seen before the place is lowered.
    pub(crate) fn is_user_field_place(&self, f: &syn::ExprField) -> bool {
        let syn::Member::Named(name) = &f.member else {
            return false;
        };
        let base_is_user = match super::place::strip(&f.base) {
            syn::Expr::Path(p) if p.qself.is_none() => p
                .path
                .get_ident()
                .and_then(|id| self.lookup(&id.to_string()))
                .is_some_and(|v| self.user.get(&v) == Some(&UserShape::Value)),
            syn::Expr::Field(inner) => self.is_user_field_place(inner),
            _ => false,
        };
        base_is_user
            && crate::aliases::source_field_type(&name.to_string())
                .is_some_and(|t| self.user_shape_of_type(&t) == Some(UserShape::Value))
    }

    /// The type the file's struct declares for its field `name`, where `base` is a
    /// parameter or a `let` whose written type names that struct, non-generic (`s:
    /// Segment`, `s: &Segment`; `plain_fns::struct_field_type`): `s.a` of `struct Segment
    /// { a: V2, .. }` is a `V2` though another struct of the file has an `a: f64`.
    #[inline(never)]
    fn declared_field_type(&self, base: Value, name: &syn::Ident) -> Option<syn::Type> {
        let param = self.func.params.iter().find(|p| p.value == base);
        let mut ty = param
            .map(|p| &p.ty)
            .or_else(|| self.func.annotations.get(&base))?;
        while let syn::Type::Reference(r) = ty {
            ty = &r.elem;
        }
        let syn::Type::Path(p) = ty else {
            return None;
        };
        let last = p.path.segments.last()?;
        if p.qself.is_some() || p.path.segments.len() != 1 || !last.arguments.is_none() {
            return None;
        }
        crate::plain_fns::struct_field_type(&last.ident.to_string(), &name.to_string())
    }

    /// Whether nothing is known of `v`'s type (a `match` arm's binding of a call's result,
    /// `Some(h) => h`): a field of it that the file declares only with a type of the
    /// user's (`normal: V3`) is taken to be of that type, a guess as for a method's result.
    fn is_unknown_value(&self, v: Value) -> bool {
        !self.user.contains_key(&v)
            && matches!(self.func.values[v].ty.deref_all_pub(), TypeHint::Unknown)
    }

    /// Whether `v` is `&x` written in the source, of an `x` whose type is unknown.
    fn is_unknown_borrow(&self, v: Value) -> bool {
        let ValueDef::Inst(inst, 0) = self.func.values[v].def else {
            return false;
        };
        matches!(&self.func.insts[inst].kind, InstKind::Ref { mutable: false, arg }
            if matches!(self.func.values[*arg].ty.deref_all_pub(), TypeHint::Unknown))
    }

    pub(crate) fn is_user_value(&self, v: Value) -> bool {
        self.user.get(&v) == Some(&UserShape::Value)
    }

    fn is_opaque(&self, v: Value) -> bool {
        self.user.get(&v) == Some(&UserShape::Opaque)
    }

    /// Marks `part`, a part of `whole` bound by a tuple or array pattern with no type
    /// written (`let (p, v) = unpack(q);`), as of a type the syntax does not show, when
    /// `whole` is what a function or a method of the user's returned (or a part of it).
    pub(crate) fn note_opaque_part(&mut self, whole: Value, part: Value) {
        if self.func.values[part].ty != TypeHint::Unknown || self.user.contains_key(&part) {
            return;
        }
        // A view of a library value split in parts (`let (mut ci, mut cj) =
        // m.columns_range_pair_mut(i, j);`): the library's, indexed as the library's.
        if let ValueDef::Inst(inst, 0) = self.func.values[whole].def {
            if let InstKind::MethodCall {
                receiver, method, ..
            } = &self.func.insts[inst].kind
            {
                if crate::libtypes::splits_view(method) && self.is_written_lib(*receiver) {
                    self.lib_built.insert(part);
                    return;
                }
            }
        }
        if self.is_opaque(whole) || self.is_call_result(whole) {
            self.user.insert(part, UserShape::Opaque);
            self.guessed_user.insert(part);
        }
    }

    /// Whether `v` (through copies) is the result of a call of a function (`unpack(q)`,
    /// `m::f(x)`, `Ty::f(x)`) or of a method of the user's (`s.split()`), or what a `?`,
    /// `unwrap()` or `match` took out of one (`bracket(f, a, b)?`).
    fn is_call_result(&self, v: Value) -> bool {
        let ValueDef::Inst(inst, 0) = self.func.values[v].def else {
            return false;
        };
        match &self.func.insts[inst].kind {
            InstKind::Copy(a) => self.is_call_result(*a),
            InstKind::Match { scrutinee, .. } => self.is_call_result(*scrutinee),
            InstKind::MethodCall {
                receiver, method, ..
            } if crate::callee::StdMethod::from_name(&method.to_string())
                .is_some_and(crate::callee::StdMethod::unwraps) =>
            {
                self.is_call_result(*receiver)
            }
            // Not a library's constructor (ndarray's `arr2(..)`, a free function).
            InstKind::Call {
                func,
                args,
                callee: PathCallee::Unresolved,
            } => {
                matches!(
                    PathCallee::resolve(func, args.len()),
                    PathCallee::Function | PathCallee::Assoc
                ) && !crate::libtypes::is_lib_ctor(func)
            }
            InstKind::Call {
                callee: PathCallee::FnValue,
                ..
            } => true,
            InstKind::MethodCall { method, .. } => {
                crate::callee::is_user_method_name(&method.to_string())
            }
            _ => false,
        }
    }

    /// Whether `v` is a value whose written type is a library type (a parameter or an
    /// annotated `let`, through copies and borrows): `m[(i, j)]` on it is the library's
    /// indexing, not a user type's `Index`.
    pub(crate) fn is_written_lib(&self, v: Value) -> bool {
        if let Some(ty) = self.func.annotations.get(&v) {
            return crate::libtypes::is_lib_type(ty);
        }
        if self.lib_built.contains(&v) {
            return true;
        }
        match self.func.values[v].def {
            crate::ir::ValueDef::Param(i) => crate::libtypes::is_lib_type(&self.func.params[i].ty),
            crate::ir::ValueDef::Inst(inst, _) => match &self.func.insts[inst].kind {
                InstKind::Copy(a)
                | InstKind::Ref { arg: a, .. }
                | InstKind::Unary {
                    op: UnOp::Deref,
                    arg: a,
                } => self.is_written_lib(*a),
                InstKind::Call { func, .. } => crate::libtypes::is_lib_ctor(func),
                // A copy or product of one (`let mut w = scores.clone();`).
                InstKind::MethodCall { receiver, .. } => self.is_written_lib(*receiver),
                // Arithmetic with one (`h * p * h.transpose() + r`).
                InstKind::Binary { op, lhs, rhs } => {
                    !op.is_comparison() && (self.is_written_lib(*lhs) || self.is_written_lib(*rhs))
                }
                _ => false,
            },
            crate::ir::ValueDef::RegionParam(..) => false,
        }
    }

    /// `lhs op rhs` where an operand is of a user type: the operator's rule; `None` when
    /// no operand is (the float operation, lowered by the caller).
    pub(crate) fn user_binary(
        &mut self,
        op: BinOp,
        lhs: Value,
        rhs: Value,
        assign: bool,
        span: Span,
    ) -> Option<Value> {
        self.user_binary_in(op, lhs, rhs, assign, span, false)
    }

    /// [`Self::user_binary`], where `user_operand` says the result is an operand of a
    /// user value's `+`/`-` or the other operand of its operator (`k1 * h` in `s + k1 *
    /// h`): an operand of unknown type (what a function returned, bound without its type)
    /// is then taken for a user value. A float taken so is still right: the rule's float
    /// rows serve it.
    pub(crate) fn user_binary_in(
        &mut self,
        op: BinOp,
        lhs: Value,
        rhs: Value,
        assign: bool,
        span: Span,
        user_operand: bool,
    ) -> Option<Value> {
        // A constant of a user type beside a literal (`Self::G * 0.5`) is float (or
        // integer) arithmetic, whose literal takes the constant's type (`f32` too).
        let literal = [lhs, rhs].iter().any(|v| self.is_number_literal(*v));
        let opaque = [lhs, rhs]
            .iter()
            .any(|v| self.is_opaque(*v) && !(literal && self.is_const(*v)));
        // `self.p1 - self.p0`: two fields of user values of unknown types may be user
        // values themselves (points) or floats; the operator's rule picked by their types
        // serves both.
        // `b.pos + b.vel * dt`, `s.k * x`: a field of a user value beside a value that is
        // not a literal may be a user value too (`vel: Vec3`) or a float, likewise.
        // Beside a literal, or a local bound to one (`let h = 0.5;`), it stays float (or
        // integer) arithmetic (`0.5 * s.k`, `g.n + 1`), where the literal takes the
        // field's type (`f32` too), which the rule's rows would not infer.
        let unknown_field = |v: &Value| {
            self.is_field_of_user(*v)
                && matches!(self.func.values[*v].ty.deref_all_pub(), TypeHint::Unknown)
        };
        // `&k1 * h`, `&s + &d`: an explicit borrow of a value of unknown type (what a
        // function returned) is how operators on non-`Copy` types are written; a float
        // is seldom borrowed for arithmetic, and the rule's float rows serve one anyway
        // (beside a literal too: `&k1 * 0.5`).
        let arith = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
        // (A field of unknown type keeps the rule above: beside a literal it is a float.)
        let unknown = |v: &Value| {
            matches!(self.func.values[*v].ty.deref_all_pub(), TypeHint::Unknown)
                && !self.is_number_literal(*v)
                && !self.is_field_of_user(*v)
                && !self.user.contains_key(v)
        };
        let fields = arith
            && ([lhs, rhs].iter().any(unknown_field) && !literal
                || [lhs, rhs].iter().any(|v| self.is_unknown_borrow(*v))
                || user_operand && [lhs, rhs].iter().any(unknown));
        if !(self.is_user_value(lhs) || self.is_user_value(rhs) || opaque || fields) {
            return None;
        }
        // Beside a library value (`self.b1 * z1` with `z1 = Complex::from_polar(..)`, a
        // field read into a typed `let z: Complex<f64> = self.z;`, `p.rho * p.sigma * i`
        // with `i` a `Complex64`) it is the library's arithmetic, as a float's is: no
        // operator of a user type takes a library value.
        // (Inside a loop's body, not yet in the function the analysis walks, by the
        // syntax: `a.dot(&s) + &b` with `a = arr2(..)`.)
        let lib = crate::libtypes::lib_values(&self.func);
        if *lib.get(lhs) || *lib.get(rhs) || self.is_written_lib(lhs) || self.is_written_lib(rhs) {
            return None;
        }
        // A method's result is only a guess (`a.dot(b) * k` is as common as `k *
        // a.cross(b)`): the operator's rule is then picked by the operands' types, and a
        // float literal beside a guess is typed `f64`, or the choice would stay open and
        // rustc could not infer what follows (`a.dot(b) + 1.0`).
        let guess = fields || self.guessed_user.contains(&lhs) || self.guessed_user.contains(&rhs);
        let (lhs, rhs) = match guess {
            true => (self.typed_literal(lhs, span), self.typed_literal(rhs, span)),
            false => (lhs, rhs),
        };
        let base = match op {
            BinOp::Add => UserOp::Add,
            BinOp::Sub => UserOp::Sub,
            BinOp::Mul => UserOp::Mul,
            BinOp::Div => UserOp::Div,
            BinOp::Rem => UserOp::Rem,
            _ => return None,
        };
        let op = match assign {
            true => base.assign_form()?,
            false => base,
        };
        Some(self.user_op_call(op, vec![lhs, rhs], span))
    }

    /// Whether `v` is a path constant (`V3::ZERO`).
    fn is_const(&self, v: Value) -> bool {
        let ValueDef::Inst(inst, 0) = self.func.values[v].def else {
            return false;
        };
        matches!(&self.func.insts[inst].kind, InstKind::Const(_))
    }

    /// Whether `v` is a number literal (`0.5`, `2`), or an `if`/`match` between them
    /// (`if tripn { 8.0 } else { 1.0 } * self.tol0_`).
    fn is_number_literal(&self, v: Value) -> bool {
        self.func.is_number_literal(v)
    }

    /// `v` as an `f64` if it is an unsuffixed float literal (`2.0 as f64`), else `v`.
    fn typed_literal(&mut self, v: Value, span: Span) -> Value {
        let ValueDef::Inst(inst, 0) = self.func.values[v].def else {
            return v;
        };
        match &self.func.insts[inst].kind {
            InstKind::Lit(syn::Lit::Float(f)) if f.suffix().is_empty() => {
                let ty: syn::Type = syn::Type::Path(syn::TypePath {
                    qself: None,
                    path: syn::Ident::new("f64", span).into(),
                });
                self.push(InstKind::Cast { arg: v, ty }, TypeHint::Float, span)
            }
            _ => v,
        }
    }

    /// `base[index]` read on a value of a user type: `*index_rule(&base, index)`.
    /// Also on a base of unknown type indexed by a tuple (`inertia[(i, j)]`), which no
    /// slice, array or `Vec` accepts.
    pub(crate) fn user_index(&mut self, base: Value, index: Value, span: Span) -> Option<Value> {
        let by_tuple = matches!(self.func.values[index].ty, TypeHint::Tuple(_));
        let opaque = self.opaque_indexed(base, index);
        if !self.is_user_value(base) && !opaque && (!by_tuple || self.is_written_lib(base)) {
            return None;
        }
        // A borrowed element (`p[i][c]` of `p: Vec<Vec3>`, `&p[i]`) is passed as it is.
        let r = match self.func.values[base].ty {
            TypeHint::Ref(_) => base,
            _ => self.push(
                InstKind::Ref {
                    mutable: false,
                    arg: base,
                },
                TypeHint::Unknown,
                span,
            ),
        };
        let elem = self.user_op_call(UserOp::Index, vec![r, index], span);
        // The element is not the user type (a guess either way; `Vec3[i]` is a float);
        // an element of a value of unknown type is of unknown type.
        self.user.remove(&elem);
        if opaque {
            self.user.insert(elem, UserShape::Opaque);
            self.guessed_user.insert(elem);
        }
        Some(self.push(
            InstKind::Unary {
                op: UnOp::Deref,
                arg: elem,
            },
            TypeHint::Unknown,
            span,
        ))
    }

    /// `base[index]` as a place written (`v[i] = x`, `v[i] += x`) on a value of a user
    /// type, or indexed by a tuple (`m[(i, j)] += ..`): `index_mut_rule(&mut base, index)`,
    /// a `&mut` element through which the caller stores. `None` for every other base.
    pub(crate) fn user_index_mut(
        &mut self,
        base: Value,
        index: Value,
        span: Span,
    ) -> Option<Value> {
        let by_tuple = matches!(self.func.values[index].ty, TypeHint::Tuple(_));
        let opaque = self.opaque_indexed(base, index);
        if !self.is_user_value(base) && !opaque && (!by_tuple || self.is_written_lib(base)) {
            return None;
        }
        // A `&mut Vec3` (a parameter, an element `&mut p[k]`) is reborrowed as it is passed.
        let r = match self.func.is_mut_ref(base) {
            true => base,
            false => self.push(
                InstKind::Ref {
                    mutable: true,
                    arg: base,
                },
                TypeHint::Unknown,
                span,
            ),
        };
        let elem = self.user_op_call(UserOp::IndexMut, vec![r, index], span);
        self.user.remove(&elem);
        if opaque {
            self.user.insert(elem, UserShape::Opaque);
            self.guessed_user.insert(elem);
        }
        Some(elem)
    }

    /// `base[index]` on a value of unknown type by an integer (not a range): a `Vec`, an
    /// array or a user type's `Index`, which the runtime's `OpRule` tells apart.
    fn opaque_indexed(&self, base: Value, index: Value) -> bool {
        self.is_opaque(base)
            && matches!(
                self.func.values[index].ty,
                TypeHint::Int | TypeHint::Unknown
            )
    }

    /// `-arg` of a user type: the `Neg` rule.
    pub(crate) fn user_neg(&mut self, arg: Value, span: Span) -> Option<Value> {
        (self.is_user_value(arg) || self.is_opaque(arg))
            .then(|| self.user_op_call(UserOp::Neg, vec![arg], span))
    }

    fn user_op_call(&mut self, op: UserOp, args: Vec<Value>, span: Span) -> Value {
        let rt = &self.rt;
        let helper = op.helper(span);
        let Ok(func) = syn::parse2::<syn::Path>(quote::quote!(#rt::user_ops::#helper)) else {
            return self.poison(span);
        };
        self.push(
            InstKind::Call {
                func,
                args,
                callee: PathCallee::UserOp(op),
            },
            TypeHint::Unknown,
            span,
        )
    }

    /// `old op= rhs` read-modify-write (a local or a place): the `*Assign` rule for a user
    /// type, the float operation otherwise.
    pub(crate) fn binary_or_assign(
        &mut self,
        op: BinOp,
        old: Value,
        rhs: Value,
        span: Span,
    ) -> Value {
        match self.user_binary(op, old, rhs, true, span) {
            Some(v) => v,
            None => self.binary(op, old, rhs, span),
        }
    }
}

/// Whether the iterator chain `e` yields references (`v.iter()`, then adaptors that keep
/// the items: `filter`, `skip`, `rev`, ..), as far as the syntax tells.
fn yields_refs(e: &syn::Expr) -> bool {
    use crate::callee::Adaptor as A;
    match super::place::strip(e) {
        syn::Expr::MethodCall(m) => match A::from_name(&m.method.to_string()) {
            Some(A::Iter | A::IterMut) => true,
            Some(
                A::Filter
                | A::Skip
                | A::Take
                | A::Rev
                | A::StepBy
                | A::SkipWhile
                | A::TakeWhile
                | A::Chain
                | A::Inspect
                | A::Cycle,
            ) => yields_refs(&m.receiver),
            _ => false,
        },
        _ => false,
    }
}

/// `chain.sum::<DVector<f64>>()` as nalgebra sums a matrix of a dynamic size: from the
/// first item, each next one added (`first + x₂ + x₃ ..`; `+=` adds the same elements
/// in the same order), and its panic when there is none. The items are collected first,
/// so that the sum is a library value the body reads on.
fn sum_from_first(chain: &syn::Expr, ty: &syn::Type, refs: bool) -> syn::Result<syn::Expr> {
    let span = syn::spanned::Spanned::span(ty);
    let template: syn::Expr = crate::splice::splice!(span=> {
        let __fwdad_items: Vec<#ty> = __fwdad_chain.collect();
        ::core::assert!(
            !__fwdad_items.is_empty(),
            "Cannot compute `sum` of empty iterator."
        );
        let mut __fwdad_total: #ty = __fwdad_items[0].clone();
        for __fwdad_item in &__fwdad_items[1..] {
            __fwdad_total += __fwdad_item;
        }
        __fwdad_total
    })?;
    // Items by reference (`Sum<&DVector<f64>>`) are cloned into the collection.
    let chain = match refs {
        true => crate::splice::fill(
            syn::parse_quote!(__fwdad_chain.map(|__fwdad_item| __fwdad_item.clone())),
            &[("__fwdad_chain", Hole::Expr(chain))],
        ),
        false => chain.clone(),
    };
    Ok(crate::splice::fill(
        template,
        &[("__fwdad_chain", Hole::Expr(&chain))],
    ))
}
