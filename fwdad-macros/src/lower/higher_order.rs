//! Functions as values: a closure (or a `let`-bound one) passed to a function of the
//! user's, and a call of a local function value (`f(x)` where `f: F`, `F: Fn(f64) -> f64`).
//!
//! A closure argument becomes one instruction, `call [closure]`, whose operands are the
//! values it captures; `derive_frule` differentiates its body as a function of its own
//! (parameters, then captures) once the caller's activity is known, and the emitter
//! builds the dual closure from that body and the captures' duals
//! ([`crate::higher_order`]).

use super::place::strip;
use super::Lowerer;
use crate::callee::PathCallee;
use crate::ir::{ArgWrap, Capture, ClosureArg, ClosureTarget, InstKind, Value};
use crate::libtypes::LibraryMap;
use crate::types::TypeHint;
use syn::spanned::Spanned;

/// A closure written as an argument, with how it is passed.
pub(crate) struct FnArg {
    pub(crate) closure: syn::ExprClosure,
    pub(crate) wrap: ArgWrap,
    /// For a `let`-bound closure: its definition (what it captured where it was written).
    pub(crate) def: Option<std::rc::Rc<super::ClosureDef>>,
    /// A function passed by name (`simpson(my_fn, ..)`): its path (the closure is empty).
    pub(crate) named: Option<syn::Path>,
}

/// `|| ()`, the closure of a function passed by name (never differentiated).
fn empty_closure() -> syn::ExprClosure {
    syn::ExprClosure {
        attrs: Vec::new(),
        lifetimes: None,
        constness: None,
        movability: None,
        asyncness: None,
        capture: None,
        or1_token: Default::default(),
        inputs: Default::default(),
        or2_token: Default::default(),
        output: syn::ReturnType::Default,
        body: Box::new(syn::Expr::Tuple(syn::ExprTuple {
            attrs: Vec::new(),
            paren_token: Default::default(),
            elems: Default::default(),
        })),
    }
}

impl Lowerer<'_> {
    /// Whether the function returns a function value (`-> impl Fn(..)`, `Box<dyn Fn(..)>`).
    pub(crate) fn returns_fn(&self) -> bool {
        crate::higher_order::is_fn_type(&self.func.ret, &[])
    }

    /// Whether the local `v` can be called as a function: a parameter of a function type,
    /// or what a call returned (a function returning `impl Fn`).
    pub(crate) fn callable(&self, v: Value) -> bool {
        match self.func.values[v].def {
            crate::ir::ValueDef::Param(i) => {
                // Not a float type parameter (`c: T`, which a closure may borrow).
                let generics: Vec<syn::Ident> = self
                    .type_params
                    .iter()
                    .map(|n| crate::splice::ident(n, proc_macro2::Span::call_site()))
                    .filter(|n| !self.func.float_params.contains(n))
                    .collect();
                crate::higher_order::is_fn_type(&self.func.params[i].ty, &generics)
            }
            crate::ir::ValueDef::Inst(i, _) => matches!(
                &self.func.insts[i].kind,
                InstKind::Call {
                    callee: PathCallee::Unresolved,
                    ..
                }
            ),
            crate::ir::ValueDef::RegionParam(..) => false,
        }
    }

    /// Whether `v` is a parameter of a `&mut` type (`log: &mut Vec<String>`, `&mut self`).
    fn is_mut_ref_param(&self, v: Value) -> bool {
        match self.func.values[v].def {
            crate::ir::ValueDef::Param(i) => matches!(
                &self.func.params[i].ty,
                syn::Type::Reference(r) if r.mutability.is_some()
            ),
            _ => false,
        }
    }

    /// `e` as a function argument: a closure literal, `&|x| ..`, `&mut |x| ..`,
    /// `Box::new(|x| ..)`, or the name of a `let`-bound closure (or a reference to it).
    pub(crate) fn fn_arg(&self, e: &syn::Expr) -> Option<FnArg> {
        let (inner, wrap) = match strip(e) {
            syn::Expr::Reference(r) if r.mutability.is_some() => (strip(&r.expr), ArgWrap::RefMut),
            syn::Expr::Reference(r) => (strip(&r.expr), ArgWrap::Ref),
            syn::Expr::Call(c)
                if c.args.len() == 1
                    && matches!(strip(&c.func), syn::Expr::Path(p) if crate::callee::is_box_new(&p.path)) =>
            {
                (strip(&c.args[0]), ArgWrap::Boxed)
            }
            other => (other, ArgWrap::Plain),
        };
        match inner {
            syn::Expr::Closure(c) => Some(FnArg {
                closure: c.clone(),
                wrap,
                def: None,
                named: None,
            }),
            syn::Expr::Path(p) if p.qself.is_none() => {
                if let Some(id) = p.path.get_ident() {
                    if let Some(def) = self.lookup_closure(&id.to_string()) {
                        return Some(FnArg {
                            closure: def.expr.clone(),
                            wrap,
                            def: Some(def),
                            named: None,
                        });
                    }
                    if self.lookup(&id.to_string()).is_some() {
                        return None;
                    }
                }
                // `f64::sin` (or `T::sin` of a float type parameter): the closure
                // `|a| f64::sin(a)`, whose dual calls the rule.
                let of_param = || match (p.path.leading_colon, p.path.segments.len()) {
                    (None, 2) => {
                        let (t, m) = (&p.path.segments[0], &p.path.segments[1]);
                        let float = self.func.float_params.contains(&t.ident);
                        let plain = t.arguments.is_none() && m.arguments.is_none();
                        (float && plain)
                            .then(|| crate::callee::FloatOp::method(&m.ident.to_string()))
                            .flatten()
                    }
                    _ => None,
                };
                if let Some(op) = crate::callee::float_path_call(&p.path).or_else(of_param) {
                    let arity: usize = match op.shape() {
                        crate::callee::Shape::Unary | crate::callee::Shape::SinCos => 1,
                        crate::callee::Shape::Binary | crate::callee::Shape::Powi => 2,
                        crate::callee::Shape::Ternary => 3,
                    };
                    let span = p.span();
                    let names: Vec<syn::Ident> = (0..arity)
                        .map(|k| quote::format_ident!("__fwdad_a{}", k, span = span))
                        .collect();
                    let call = crate::splice::call_expr(
                        inner.clone(),
                        names.iter().map(crate::splice::path_expr),
                    );
                    let closure = syn::ExprClosure {
                        attrs: Vec::new(),
                        lifetimes: None,
                        constness: None,
                        movability: None,
                        asyncness: None,
                        capture: None,
                        or1_token: Default::default(),
                        inputs: names
                            .into_iter()
                            .map(|n| {
                                syn::Pat::Ident(syn::PatIdent {
                                    attrs: Vec::new(),
                                    by_ref: None,
                                    mutability: None,
                                    ident: n,
                                    subpat: None,
                                })
                            })
                            .collect(),
                        or2_token: Default::default(),
                        output: syn::ReturnType::Default,
                        body: Box::new(call),
                    };
                    return Some(FnArg {
                        closure,
                        wrap,
                        def: None,
                        named: None,
                    });
                }
                // `my_fn`: its rule, wrapped by the callee as a function of duals.
                match PathCallee::resolve(&p.path, 0) {
                    PathCallee::Function => Some(FnArg {
                        closure: empty_closure(),
                        wrap,
                        def: None,
                        named: Some(p.path.clone()),
                    }),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The closure `arg`, passed as argument `index` of `callee`: a `call [closure]` of
    /// the values it captures.
    pub(crate) fn lower_fn_arg(
        &mut self,
        arg: FnArg,
        callee: &syn::Path,
        index: usize,
    ) -> Option<Value> {
        self.lower_fn_arg_to(arg, callee, index, ClosureTarget::Function)
    }

    /// The closure `arg`, passed as argument `index` of `target` (`callee` names the
    /// function or method).
    pub(crate) fn lower_fn_arg_to(
        &mut self,
        arg: FnArg,
        callee: &syn::Path,
        index: usize,
        target: ClosureTarget,
    ) -> Option<Value> {
        let span = match &arg.named {
            Some(p) => p.span(),
            None => arg.closure.span(),
        };
        // The helpers that type a closure's dual form take one float type, the caller's.
        if self.func.float_params.len() > 1 && arg.named.is_none() && index != crate::ir::RETURNED {
            self.diag.error_spanned(
                &arg.closure,
                "`#[derive_frule]` does not support a closure passed to a function or method from a function generic over more than one float type; give the function one float type parameter",
            );
            return Some(self.poison(span));
        }
        let mut arg = arg;
        let mut inlined = Vec::new();
        if arg.named.is_none() {
            (arg.closure, inlined) = self.with_let_closures(&arg.closure, arg.def.as_deref());
        }
        let names = free_names(&arg.closure);
        // Resolve the names as the closure sees them: where it was written, for a
        // `let`-bound one.
        let depth = self.scopes_len();
        match &arg.def {
            Some(def) if def.expr.capture.is_some() => self.push_env(&def.env),
            Some(def) => self.push_view(&def.visible),
            None => {}
        }
        let mut captures = Vec::new();
        let mut values = Vec::new();
        let mut nested = None;
        for name in names {
            if self.lookup_closure(&name).is_some() {
                if !inlined.contains(&name) {
                    nested = Some(name);
                }
                continue;
            }
            if let Some(v) = self.lookup(&name) {
                captures.push(crate::splice::ident(&name, span));
                values.push(v);
            }
        }
        self.truncate_scopes(depth);
        // A capture the closure assigns (a counter, an accumulator) is lent to its dual
        // form `&mut`, and read through it: `calls` is `(*calls)` in the body.
        let assigned = super::control::written_in_closure(&arg.closure, &self.mut_names);
        // A `&mut` parameter is reborrowed; written through when the closure assigns
        // through it or calls a method on it as a statement (`log.push(..);`).
        let mut_refs: std::collections::HashSet<String> = captures
            .iter()
            .zip(&values)
            .filter(|(_, v)| self.is_mut_ref_param(**v))
            .map(|(c, _)| c.to_string())
            .collect();
        let written_refs = match mut_refs.is_empty() {
            true => Default::default(),
            false => super::control::written_through_in_closure(&arg.closure, &mut_refs),
        };
        // A method of the user's on a capture bound `mut` (`rng.uniform()`) is taken to
        // write it, unless the capture is a float, integer or reference (a copy: an
        // extension trait's `x.sigmoid()` reads).
        let user_receivers = super::control::user_method_receivers(&arg.closure);
        // The others are borrowed as Rust borrows them (moved by a `move` closure or one
        // the function returns), unless a copy is free.
        let moves = arg.closure.capture.is_some() || index == crate::ir::RETURNED;
        let modes: Vec<Capture> = captures
            .iter()
            .zip(&values)
            .map(|(c, v)| {
                let name = c.to_string();
                if mut_refs.contains(&name) {
                    Capture::Reborrow {
                        mutable: written_refs.contains(&name),
                    }
                } else if assigned.contains(&name) {
                    match moves {
                        true => Capture::MoveCell,
                        false => Capture::LendMut,
                    }
                } else if user_receivers.contains(&name)
                    && self.mut_names.contains(&name)
                    && !copied(&self.func.values[*v].ty)
                {
                    match moves {
                        true => Capture::MoveCell,
                        false => Capture::LendCell,
                    }
                } else if copied(&self.func.values[*v].ty) {
                    Capture::Copy
                } else if moves {
                    Capture::Move
                } else {
                    Capture::Borrow
                }
            })
            .collect();
        // A `&mut` held in a local (`let r = &mut total;`), which the closure would copy:
        // its writes through it would not reach `total` as the body reads it afterwards.
        let held_mut = captures
            .iter()
            .zip(&values)
            .zip(&modes)
            .find(|((_, v), m)| {
                **m == Capture::Copy
                    && matches!(self.func.values[**v].def, crate::ir::ValueDef::Inst(i, _)
                if matches!(self.func.insts[i].kind,
                    InstKind::Ref { mutable: true, .. }
                    | InstKind::Slice { mutable: true, .. }
                    | InstKind::ElemRef { mutable: true, .. }
                    | InstKind::FieldRef { mutable: true, .. }))
            });
        if let Some(((name, _), _)) = held_mut {
            self.diag.error_spanned(
                &arg.closure,
                format!("`#[derive_frule]` does not support a closure passed to a function that captures `{name}`, a `&mut` reference held in a local; write through the variable it borrows (`total += ..`) or return the value from the closure"),
            );
            return Some(self.poison(span));
        }
        let fn_values = self.captured_fn_values(&values, &modes);
        let by_ref: Vec<String> = captures
            .iter()
            .zip(&modes)
            .zip(&fn_values)
            .filter(|((_, m), is_fn)| {
                matches!(
                    m,
                    Capture::Borrow
                        | Capture::Move
                        | Capture::LendMut
                        | Capture::LendCell
                        | Capture::MoveCell
                ) && !**is_fn
            })
            .map(|((c, _), _)| c.to_string())
            .collect();
        if !by_ref.is_empty() {
            arg.closure = deref_names(&arg.closure, &by_ref);
        }
        if let Some(name) = nested {
            self.diag.error_spanned(
                &arg.closure,
                format!("`#[derive_frule]` does not support a closure passed to a function that calls the closure `{name}` bound outside it when a variable `{name}` reads has changed since `{name}` was written; write `{name}`'s body in it, or make `{name}` a `#[derive_frule]` function"),
            );
            return Some(self.poison(span));
        }
        let hints = values
            .iter()
            .map(|v| self.func.values[*v].ty.clone())
            .collect();
        for (v, m) in values.iter_mut().zip(&modes) {
            match m {
                Capture::LendMut | Capture::LendCell => *v = self.borrow(*v, true, span),
                Capture::Borrow => *v = self.borrow(*v, false, span),
                Capture::Copy | Capture::Move | Capture::MoveCell | Capture::Reborrow { .. } => {}
            }
        }
        let v = self.push(
            InstKind::Call {
                func: callee.clone(),
                args: values,
                callee: PathCallee::Closure,
            },
            TypeHint::Unknown,
            span,
        );
        self.func.closures.insert(
            v,
            ClosureArg {
                closure: arg.closure,
                index,
                wrap: arg.wrap,
                captures,
                hints,
                modes,
                fn_values,
                body: None,
                named: arg.named,
                target,
            },
        );
        Some(v)
    }
}

impl Lowerer<'_> {
    /// For each capture of a closure passed to a function (`values`, held as `modes`):
    /// whether it is a function-valued parameter of the caller, borrowed or copied
    /// (`core(|x| f(c * x + d), ..)` with `f: F`, `F: Fn(f64) -> f64`): the body calls it
    /// as it is (`&F` is a function too), not through `(*f)`.
    #[inline(never)]
    fn captured_fn_values(&self, values: &[Value], modes: &[Capture]) -> Vec<bool> {
        values
            .iter()
            .zip(modes)
            .map(|(v, m)| {
                matches!(m, Capture::Borrow | Capture::Copy)
                    && matches!(self.func.values[*v].def, crate::ir::ValueDef::Param(_))
                    && self.callable(*v)
            })
            .collect()
    }

    /// Whether `m` is `a.mapv(|x| ..)`, `v.map(..)`, `v.zip_map(&w, ..)` of a library value,
    /// lowered as the method call with the closure as a `call [closure]` whose dual form
    /// takes scalar duals (the library maps it over the elements it holds, duals in the
    /// rule). `map`, whose name `Option` and arrays share, only on a variable the syntax
    /// shows is a library value; `dual::check` reports the others whose receiver is not
    /// one.
    pub(crate) fn is_library_map(&self, m: &syn::ExprMethodCall) -> bool {
        let Some(map) = LibraryMap::of_method(&m.method) else {
            return false;
        };
        let Some(last) = m.args.last() else {
            return false;
        };
        if !matches!(self.fn_arg(last), Some(f) if f.named.is_none() && f.wrap == ArgWrap::Plain) {
            return false;
        }
        if !map.shared_name() {
            return true;
        }
        self.is_lib_matrix_expr(&m.receiver)
    }

    /// Whether `e` is a variable the syntax shows is a library value, or what a method
    /// returning a matrix makes of one (`chol.l().diagonal()`: `libtypes::returns_matrix`).
    fn is_lib_matrix_expr(&self, e: &syn::Expr) -> bool {
        match strip(e) {
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|id| self.lookup(&id.to_string()))
                .is_some_and(|v| {
                    self.lane_views.contains(&v)
                        || self.is_written_lib(v)
                        || *crate::libtypes::lib_values(&self.func).get(v)
                }),
            syn::Expr::MethodCall(inner) => {
                crate::libtypes::returns_matrix(&inner.method)
                    && self.is_lib_matrix_expr(&inner.receiver)
            }
            _ => false,
        }
    }

    /// Lowers a call [`Self::is_library_map`] accepts.
    pub(crate) fn lower_library_map(&mut self, m: &syn::ExprMethodCall) -> Option<Value> {
        let map = LibraryMap::of_method(&m.method)?;
        let name = m.method.to_string();
        let span = m.span();
        let receiver = match map.in_place() {
            true => self.lower_place(&m.receiver, true),
            false => self.lower_receiver(&m.receiver, &name, false),
        };
        let receiver = receiver?;
        let mut args = Vec::new();
        let path: syn::Path = m.method.clone().into();
        for (i, a) in m.args.iter().enumerate() {
            let v = match self.fn_arg(a) {
                Some(f) => {
                    let target = ClosureTarget::Library {
                        receiver,
                        method: m.method.clone(),
                        map,
                    };
                    self.lower_fn_arg_to(f, &path, i, target)
                }
                None => self.lower_expr(a),
            };
            args.push(v?);
        }
        Some(self.push_method_call(m, receiver, args, span))
    }

    /// `c` with the closures bound by `let` that it calls (`sq` in `|t| sq(t) * k`, and
    /// those they call) bound again at the start of its body, so its dual form inlines
    /// them as the function does. Only where each name such a closure reads means the same
    /// where it was written and where `c` sees it (`def`: `c`'s own definition, when it is
    /// bound by `let`); otherwise `c` is left as it is, and reported where it is lowered.
    fn with_let_closures(
        &mut self,
        c: &syn::ExprClosure,
        def: Option<&super::ClosureDef>,
    ) -> (syn::ExprClosure, Vec<String>) {
        let depth = self.scopes_len();
        match def {
            Some(def) if def.expr.capture.is_some() => self.push_env(&def.env),
            Some(def) => self.push_view(&def.visible),
            None => {}
        }
        let mut c = c.clone();
        let mut inlined: Vec<String> = Vec::new();
        loop {
            let next = free_names(&c).into_iter().find_map(|n| {
                if inlined.contains(&n) {
                    return None;
                }
                self.lookup_closure(&n).map(|d| (n, d))
            });
            let Some((name, inner)) = next else { break };
            if !self.sees_as_written(&inner) {
                break;
            }
            let span = inner.expr.span();
            let ident = crate::splice::ident(&name, span);
            let stmt = syn::Stmt::Local(syn::Local {
                attrs: Vec::new(),
                let_token: syn::Token![let](span),
                pat: syn::Pat::Ident(syn::PatIdent {
                    attrs: Vec::new(),
                    by_ref: None,
                    mutability: None,
                    ident,
                    subpat: None,
                }),
                init: Some(syn::LocalInit {
                    eq_token: syn::Token![=](span),
                    expr: Box::new(syn::Expr::Closure(inner.expr.clone())),
                    diverge: None,
                }),
                semi_token: syn::Token![;](span),
            });
            let body_span = c.body.span();
            let mut block = match *c.body {
                syn::Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => b.block,
                other => syn::Block {
                    brace_token: syn::token::Brace(body_span),
                    stmts: vec![syn::Stmt::Expr(other, None)],
                },
            };
            block.stmts.insert(0, stmt);
            c.body = Box::new(syn::Expr::Block(syn::ExprBlock {
                attrs: Vec::new(),
                label: None,
                block,
            }));
            inlined.push(name);
        }
        self.truncate_scopes(depth);
        (c, inlined)
    }

    /// Whether every name the `let`-bound closure `def` reads has the value here that it
    /// had where the closure was written (a `move` closure: its captured value).
    fn sees_as_written(&mut self, def: &super::ClosureDef) -> bool {
        let names = free_names(&def.expr);
        let here: Vec<Option<Value>> = names.iter().map(|n| self.lookup(n)).collect();
        let depth = self.scopes_len();
        match def.expr.capture {
            Some(_) => self.push_env(&def.env),
            None => self.push_view(&def.visible),
        }
        let there: Vec<Option<Value>> = names.iter().map(|n| self.lookup(n)).collect();
        self.truncate_scopes(depth);
        here == there
    }

    /// `recv.m(|x| ..)` of a method of the user's: the method call with each closure as a
    /// `call [closure]`, typed by the helpers the method's `impl` puts on its type. `None`
    /// when no argument is a closure (or all are functions passed by name).
    pub(crate) fn lower_user_method_closures(
        &mut self,
        m: &syn::ExprMethodCall,
    ) -> Option<Option<Value>> {
        let name = m.method.to_string();
        // Not a name `std` or the float rules know (their closures are chain adaptors,
        // `Option` combinators, or errors that say what to write).
        if super::is_known_method(&name)
            || crate::callee::StdMethod::from_name(&name).is_some()
            || crate::callee::Adaptor::from_name(&name).is_some()
            || crate::callee::Consumer::from_name(&name).is_some()
            || crate::callee::Rewrite::from_name(&name).is_some()
            || LibraryMap::of_method(&m.method).is_some()
        {
            return None;
        }
        let span = m.span();
        let closures = m.args.iter().filter(|a| self.fn_arg(a).is_some()).count();
        if closures == 0 {
            return None;
        }
        let Some(receiver) = self.lower_receiver(&m.receiver, &name, false) else {
            return Some(None);
        };
        let path: syn::Path = m.method.clone().into();
        let mut args = Vec::new();
        for (i, a) in m.args.iter().enumerate() {
            // The method's parameter `i + 1` (after the receiver).
            let v = match self.fn_arg(a) {
                Some(f) => {
                    self.lower_fn_arg_to(f, &path, i + 1, ClosureTarget::Method { receiver })
                }
                None => self.lower_expr(a),
            };
            let Some(v) = v else {
                return Some(None);
            };
            args.push(v);
        }
        Some(Some(self.push_method_call(m, receiver, args, span)))
    }
}

/// Whether a capture of this type is copied rather than borrowed: a float, integer,
/// `bool`, range, shared reference, or a tuple of those (copying costs what reading
/// through a reference does).
fn copied(hint: &TypeHint) -> bool {
    match hint {
        TypeHint::Float | TypeHint::Int | TypeHint::Bool | TypeHint::Range | TypeHint::Ref(_) => {
            true
        }
        TypeHint::Tuple(ts) => ts.iter().all(copied),
        TypeHint::NonDiff | TypeHint::Seq(_) | TypeHint::Map(..) | TypeHint::Unknown => false,
    }
}

/// `c` with each read and write of `names` made through the reference it is lent as:
/// `calls += 1` → `(*calls) += 1`. Scoped: where the closure binds one of the names again
/// (`let w = ..`, a pattern, a nested closure's parameter), the new binding is left alone.
fn deref_names(c: &syn::ExprClosure, names: &[String]) -> syn::ExprClosure {
    struct Deref(Vec<String>);
    /// The names `pat` binds.
    fn bound(pat: &syn::Pat) -> Vec<String> {
        let mut ids = super::PatIdents::default();
        syn::visit::Visit::visit_pat(&mut ids, pat);
        ids.0.iter().map(|p| p.ident.to_string()).collect()
    }
    /// The names the `let`s of an `if`/`while` condition bind (`if let Some(w) = ..`).
    fn let_bound(cond: &syn::Expr) -> Vec<String> {
        match cond {
            syn::Expr::Let(l) => bound(&l.pat),
            syn::Expr::Binary(b) => {
                let mut out = let_bound(&b.left);
                out.extend(let_bound(&b.right));
                out
            }
            syn::Expr::Paren(p) => let_bound(&p.expr),
            _ => Vec::new(),
        }
    }
    impl Deref {
        fn lent(&self, e: &syn::Expr) -> bool {
            matches!(e, syn::Expr::Path(p) if p.qself.is_none()
                && p.path.get_ident().is_some_and(|id| self.0.contains(&id.to_string())))
        }
        /// `acc[i][j]`, `s.total`, `pair.0` and `seen.push(v)` of a lent `acc`, `s`,
        /// `pair`, `seen` stay as written: indexing, field access and method calls reach
        /// through the `&mut` (a `(*acc)` would read a copy and write into that).
        fn visit_base(&mut self, base: &mut syn::Expr) {
            match base {
                e if self.lent(e) => {}
                syn::Expr::Index(inner) => self.visit_index(inner),
                syn::Expr::Field(f) => self.visit_base(&mut f.base),
                e => syn::visit_mut::VisitMut::visit_expr_mut(self, e),
            }
        }
        fn visit_index(&mut self, ix: &mut syn::ExprIndex) {
            self.visit_base(&mut ix.expr);
            syn::visit_mut::VisitMut::visit_expr_mut(self, &mut ix.index);
        }
        /// Runs `f` with `names` no longer lent (bound again in its scope).
        fn shadowed(&mut self, names: &[String], f: impl FnOnce(&mut Self)) {
            let saved = self.0.clone();
            self.0.retain(|n| !names.contains(n));
            f(self);
            self.0 = saved;
        }
    }
    impl syn::visit_mut::VisitMut for Deref {
        fn visit_block_mut(&mut self, b: &mut syn::Block) {
            let saved = self.0.clone();
            for st in b.stmts.iter_mut() {
                match st {
                    syn::Stmt::Local(l) => {
                        if let Some(init) = &mut l.init {
                            self.visit_expr_mut(&mut init.expr);
                            if let Some((_, d)) = &mut init.diverge {
                                self.visit_expr_mut(d);
                            }
                        }
                        let names = bound(&l.pat);
                        self.0.retain(|n| !names.contains(n));
                    }
                    other => self.visit_stmt_mut(other),
                }
            }
            self.0 = saved;
        }
        fn visit_expr_closure_mut(&mut self, c: &mut syn::ExprClosure) {
            let names: Vec<String> = c.inputs.iter().flat_map(bound).collect();
            self.shadowed(&names, |s| s.visit_expr_mut(&mut c.body));
        }
        fn visit_arm_mut(&mut self, a: &mut syn::Arm) {
            self.shadowed(&bound(&a.pat), |s| {
                if let Some((_, g)) = &mut a.guard {
                    s.visit_expr_mut(g);
                }
                s.visit_expr_mut(&mut a.body);
            });
        }
        fn visit_expr_for_loop_mut(&mut self, f: &mut syn::ExprForLoop) {
            self.visit_expr_mut(&mut f.expr);
            self.shadowed(&bound(&f.pat), |s| s.visit_block_mut(&mut f.body));
        }
        fn visit_expr_if_mut(&mut self, i: &mut syn::ExprIf) {
            self.visit_expr_mut(&mut i.cond);
            self.shadowed(&let_bound(&i.cond), |s| {
                s.visit_block_mut(&mut i.then_branch)
            });
            if let Some((_, e)) = &mut i.else_branch {
                self.visit_expr_mut(e);
            }
        }
        fn visit_expr_while_mut(&mut self, w: &mut syn::ExprWhile) {
            self.visit_expr_mut(&mut w.cond);
            self.shadowed(&let_bound(&w.cond), |s| s.visit_block_mut(&mut w.body));
        }
        fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
            match e {
                syn::Expr::Index(ix) => return self.visit_index(ix),
                syn::Expr::Field(f) => return self.visit_base(&mut f.base),
                syn::Expr::MethodCall(m) => {
                    self.visit_base(&mut m.receiver);
                    return m.args.iter_mut().for_each(|a| self.visit_expr_mut(a));
                }
                _ => {}
            }
            if self.lent(e) {
                let inner = e.clone();
                *e = syn::Expr::Paren(syn::ExprParen {
                    attrs: Vec::new(),
                    paren_token: Default::default(),
                    expr: Box::new(syn::Expr::Unary(syn::ExprUnary {
                        attrs: Vec::new(),
                        op: syn::UnOp::Deref(Default::default()),
                        expr: Box::new(inner),
                    })),
                });
                return;
            }
            syn::visit_mut::visit_expr_mut(self, e);
        }
    }
    let mut out = c.clone();
    syn::visit_mut::VisitMut::visit_expr_mut(&mut Deref(names.to_vec()), &mut out.body);
    out
}

/// The names a closure's body reads that are not its parameters, in order of first use:
/// the variables it may capture (names of functions and constants are dropped later, as
/// no local answers to them).
fn free_names(c: &syn::ExprClosure) -> Vec<String> {
    struct Paths(Vec<String>);
    impl<'ast> syn::visit::Visit<'ast> for Paths {
        fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
            if let (None, Some(id)) = (&p.qself, p.path.get_ident()) {
                let name = id.to_string();
                if !self.0.contains(&name) {
                    self.0.push(name);
                }
            }
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            // `println!("{x}", y)`: every identifier of the arguments may be a capture.
            fn idents(ts: proc_macro2::TokenStream, out: &mut Vec<String>) {
                for t in ts {
                    match t {
                        proc_macro2::TokenTree::Ident(i) => {
                            let name = i.to_string();
                            if !out.contains(&name) {
                                out.push(name);
                            }
                        }
                        proc_macro2::TokenTree::Group(g) => idents(g.stream(), out),
                        _ => {}
                    }
                }
            }
            idents(m.tokens.clone(), &mut self.0);
        }
    }
    // Only the parameters: a name a `let` inside binds may also be captured before it.
    let mut own = super::PatIdents::default();
    for p in &c.inputs {
        syn::visit::Visit::visit_pat(&mut own, p);
    }
    let own: Vec<String> = own.0.iter().map(|p| p.ident.to_string()).collect();
    let mut paths = Paths(Vec::new());
    syn::visit::Visit::visit_expr(&mut paths, &c.body);
    paths.0.retain(|n| !own.contains(n));
    paths.0
}
