//! `match`, `if let`, `while let` and `?`, all lowered to [`InstKind::Match`].
//!
//! * `if let P = e { a } else { b }` is `match e { P => a, _ => b }`;
//! * `while let P = e { body }` is `loop { match e { P => body, _ => break } }`;
//! * `e?` is `match e { Some(v) => v, None => return None }` in a function returning
//!   `Option`, and `match e { Ok(v) => v, Err(err) => return Err(From::from(err)) }` in one
//!   returning `Result` (read off the declared return type).
//!
//! Patterns: literals, ranges, `_`, bindings (also `name @ pattern`), tuples, tuple
//! structs and tuple-like variants (`Some(x)`, `Ok(x)`, `V2(x, y)`,
//! `Activation::LeakyRelu(a)`), struct patterns of structs and variants
//! (`Shape::Rect { w, h }`, `Foo { a, .. }`), unit variants and constants, `&p`, and `|`,
//! nested. The tangent of a user type's binding is read from its `#[derive(Differentiable)]`
//! tangent twin (see `emit::tangent_pattern`). Slice patterns are reported as unsupported.

use super::Lowerer;
use crate::callee::{PathCallee, StdType};
use crate::ir::{Arm, InstKind, Region, Terminator, Value, ValueDef};
use crate::splice::{fill, splice, Hole};
use crate::types::TypeHint;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// A pattern's bindings in order: name, type hint, and whether declared `mut`.
pub(crate) fn pattern_bindings(
    pat: &syn::Pat,
    hint: &TypeHint,
    out: &mut Vec<(syn::Ident, TypeHint)>,
) {
    match pat {
        syn::Pat::Ident(pi) => {
            out.push((pi.ident.clone(), hint.clone()));
            if let Some((_, sub)) = &pi.subpat {
                pattern_bindings(sub, hint, out);
            }
        }
        syn::Pat::Tuple(t) => {
            for (i, p) in t.elems.iter().enumerate() {
                let member = syn::Member::Unnamed(syn::Index {
                    index: i as u32,
                    span: p.span(),
                });
                pattern_bindings(p, &hint.field(&member), out);
            }
        }
        syn::Pat::TupleStruct(ts) => {
            // The error of a `Result` carries no tangent (see the runtime's `Differentiable`).
            let is_err = crate::callee::is_err(&ts.path);
            let hint = if is_err {
                TypeHint::NonDiff
            } else {
                TypeHint::Unknown
            };
            for p in &ts.elems {
                pattern_bindings(p, &hint, out);
            }
        }
        // `Shape::Rect { w, h }`, `Foo { a, .. }`: the fields in the order written.
        syn::Pat::Struct(st) => {
            for fp in &st.fields {
                pattern_bindings(&fp.pat, &TypeHint::Unknown, out);
            }
        }
        syn::Pat::Or(o) => {
            if let Some(first) = o.cases.first() {
                pattern_bindings(first, hint, out);
            }
        }
        syn::Pat::Paren(p) => pattern_bindings(&p.pat, hint, out),
        syn::Pat::Reference(r) => pattern_bindings(&r.pat, &hint.deref(), out),
        syn::Pat::Type(t) => pattern_bindings(&t.pat, &TypeHint::from_type(&t.ty), out),
        syn::Pat::Lit(_)
        | syn::Pat::Range(_)
        | syn::Pat::Wild(_)
        | syn::Pat::Rest(_)
        | syn::Pat::Path(_)
        | syn::Pat::Const(_)
        | syn::Pat::Macro(_)
        | syn::Pat::Slice(_)
        | syn::Pat::Verbatim(_) => {}
        _ => {}
    }
}

/// Turns identifier patterns that name a unit variant or a constant (`None`, a
/// glob-imported `Relu`, `SPECIAL`) into path patterns: Rust tells them from bindings by
/// name resolution, which a macro cannot do, so it follows the naming convention (rustc
/// warns on a capitalised binding). Taken as bindings, they matched everything.
struct NamedConstants;

impl syn::visit_mut::VisitMut for NamedConstants {
    fn visit_pat_mut(&mut self, pat: &mut syn::Pat) {
        if let syn::Pat::Ident(pi) = pat {
            let capitalised = crate::callee::is_capitalised(&pi.ident.to_string());
            if capitalised && pi.by_ref.is_none() && pi.mutability.is_none() && pi.subpat.is_none()
            {
                *pat = syn::Pat::Path(syn::ExprPath {
                    attrs: pi.attrs.clone(),
                    qself: None,
                    path: pi.ident.clone().into(),
                });
                return;
            }
        }
        syn::visit_mut::visit_pat_mut(self, pat);
    }
}

/// Reports pattern forms the match lowering does not support.
fn check_pattern(pat: &syn::Pat, errors: &mut Vec<(Span, &'static str)>) {
    match pat {
        syn::Pat::Ident(pi) => {
            if pi.by_ref.is_some() {
                errors.push((
                    pi.span(),
                    "`#[derive_frule]` does not support `ref` bindings in patterns; bind by value",
                ));
            }
            if let Some((_, sub)) = &pi.subpat {
                check_pattern(sub, errors);
            }
        }
        syn::Pat::Tuple(t) => t.elems.iter().for_each(|p| check_pattern(p, errors)),
        syn::Pat::TupleStruct(ts) => ts.elems.iter().for_each(|p| check_pattern(p, errors)),
        syn::Pat::Or(o) => o.cases.iter().for_each(|p| check_pattern(p, errors)),
        syn::Pat::Paren(p) => check_pattern(&p.pat, errors),
        syn::Pat::Reference(r) => check_pattern(&r.pat, errors),
        syn::Pat::Type(t) => check_pattern(&t.pat, errors),
        syn::Pat::Lit(_)
        | syn::Pat::Range(_)
        | syn::Pat::Wild(_)
        | syn::Pat::Rest(_)
        | syn::Pat::Path(_) => {}
        syn::Pat::Struct(s) => {
            if s.qself.is_some() {
                errors.push((
                    s.span(),
                    "`#[derive_frule]` does not support struct patterns with qualified paths (`<T as Trait>::V { .. }`); name the type or variant",
                ));
            }
            s.fields.iter().for_each(|f| check_pattern(&f.pat, errors));
        }
        syn::Pat::Slice(s) => errors.push((
            s.span(),
            "`#[derive_frule]` does not support slice patterns; index the slice",
        )),
        other => errors.push((
            other.span(),
            "`#[derive_frule]` does not support this pattern",
        )),
    }
}

/// The body of one arm, lowered after its bindings are in scope.
pub(crate) type ArmBody<'e, 'd> = Box<dyn FnOnce(&mut Lowerer<'d>) -> Option<Value> + 'e>;

impl<'d> Lowerer<'d> {
    pub(crate) fn lower_match(&mut self, m: &syn::ExprMatch) -> Option<Value> {
        let pats: Vec<&syn::Pat> = m.arms.iter().map(|a| &a.pat).collect();
        let (expr, through_ref) = deref_scrutinee(&m.expr, &pats);
        let scrutinee = self.lower_expr(expr)?;
        let arms = m
            .arms
            .iter()
            .map(|arm| {
                let body: ArmBody<'_, 'd> =
                    Box::new(move |lw: &mut Lowerer<'d>| lw.lower_expr(&arm.body));
                let pat = if through_ref {
                    ref_pattern(&arm.pat)
                } else {
                    arm.pat.clone()
                };
                (pat, arm.guard.as_ref().map(|(_, g)| &**g), body)
            })
            .collect();
        self.lower_match_arms(scrutinee, arms, m.span())
    }

    /// `if let pat = e { then } else { else_ }`.
    pub(crate) fn lower_if_let(&mut self, i: &syn::ExprIf, l: &syn::ExprLet) -> Option<Value> {
        let (expr, through_ref) = deref_scrutinee(&l.expr, &[&l.pat]);
        let scrutinee = self.lower_expr(expr)?;
        let pat = if through_ref {
            ref_pattern(&l.pat)
        } else {
            (*l.pat).clone()
        };
        let span = i.span();
        let then_body: ArmBody<'_, 'd> =
            Box::new(|lw: &mut Lowerer<'d>| lw.lower_block(&i.then_branch));
        let else_body: ArmBody<'_, 'd> =
            Box::new(move |lw: &mut Lowerer<'d>| match &i.else_branch {
                Some((_, e)) => lw.lower_expr(e),
                None => Some(lw.unit(span)),
            });
        let wild: syn::Pat = syn::parse_quote!(_);
        self.lower_match_arms(
            scrutinee,
            vec![(pat, None, then_body), (wild, None, else_body)],
            span,
        )
    }

    /// `while let pat = e { body }` inside the loop lowering: one iteration's test.
    pub(crate) fn lower_while_let_test(
        &mut self,
        l: &syn::ExprLet,
        body: &syn::Block,
        span: Span,
    ) -> Option<Value> {
        let scrutinee = self.lower_expr(&l.expr)?;
        let run: ArmBody<'_, 'd> = Box::new(|lw: &mut Lowerer<'d>| lw.lower_block(body));
        let stop: ArmBody<'_, 'd> = Box::new(move |lw: &mut Lowerer<'d>| {
            let unit = lw.unit(span);
            lw.break_to(0, Some(unit), span);
            None
        });
        let wild: syn::Pat = syn::parse_quote!(_);
        self.lower_match_arms(
            scrutinee,
            vec![((*l.pat).clone(), None, run), (wild, None, stop)],
            span,
        )?;
        Some(self.unit(span))
    }

    /// `e?`, by the function's declared return type.
    pub(crate) fn lower_try(&mut self, t: &syn::ExprTry) -> Option<Value> {
        let span = t.span();
        let ret = self.func.ret.clone();
        let kind = match &ret {
            syn::Type::Path(p) => StdType::of_path(&p.path),
            _ => None,
        };
        // The body of a closure passed to a function, its return type not written: the
        // runtime's `branch` splits an `Option` or a `Result` alike, and `residual` makes
        // the closure's `None` or `Err(From::from(e))` (as in `combinators.rs`).
        if kind.is_none() && matches!(ret, syn::Type::Infer(_)) {
            let rt = &self.rt;
            let template: syn::Expr = self.diag.handle(splice!(span=>
                match #rt::branch(__fwdad_e) {
                    ::core::result::Result::Ok(__fwdad_q) => __fwdad_q,
                    ::core::result::Result::Err(__fwdad_q) => return #rt::residual(__fwdad_q),
                }
            ))?;
            let desugared = fill(template, &[("__fwdad_e", Hole::Expr(&t.expr))]);
            return self.lower_expr(&desugared);
        }
        let scrutinee = self.lower_expr(&t.expr)?;
        let v = syn::Ident::new("__fwdad_ok", span);
        let e = syn::Ident::new("__fwdad_err", span);
        let take = |name: syn::Ident| -> ArmBody<'_, 'd> {
            Box::new(move |lw: &mut Lowerer<'d>| lw.lookup(&name.to_string()))
        };
        match kind {
            Some(StdType::Option) => {
                let none: ArmBody<'_, 'd> = Box::new(move |lw: &mut Lowerer<'d>| {
                    let path: syn::Path =
                        syn::parse_quote_spanned!(span=> ::core::option::Option::None);
                    let none = lw.push(InstKind::Const(path), TypeHint::Unknown, span);
                    lw.terminate(Terminator::Return(none));
                    None
                });
                let arms = vec![
                    (
                        one_field(
                            syn::parse_quote_spanned!(span=> ::core::option::Option::Some),
                            &v,
                        ),
                        None,
                        take(v.clone()),
                    ),
                    (
                        syn::parse_quote_spanned!(span=> ::core::option::Option::None),
                        None,
                        none,
                    ),
                ];
                self.lower_match_arms(scrutinee, arms, span)
            }
            Some(StdType::Result) => {
                let e2 = e.clone();
                let err: ArmBody<'_, 'd> = Box::new(move |lw: &mut Lowerer<'d>| {
                    let err = lw.lookup(&e2.to_string())?;
                    let from: syn::Path =
                        syn::parse_quote_spanned!(span=> ::core::convert::From::from);
                    let conv = lw.push(
                        InstKind::Call {
                            callee: PathCallee::Unresolved,
                            func: from,
                            args: vec![err],
                        },
                        TypeHint::NonDiff,
                        span,
                    );
                    let ctor: syn::Path =
                        syn::parse_quote_spanned!(span=> ::core::result::Result::Err);
                    let wrapped = lw.push(
                        InstKind::Call {
                            callee: PathCallee::Unresolved,
                            func: ctor,
                            args: vec![conv],
                        },
                        TypeHint::Unknown,
                        span,
                    );
                    lw.terminate(Terminator::Return(wrapped));
                    None
                });
                let arms = vec![
                    (
                        one_field(
                            syn::parse_quote_spanned!(span=> ::core::result::Result::Ok),
                            &v,
                        ),
                        None,
                        take(v.clone()),
                    ),
                    (
                        one_field(
                            syn::parse_quote_spanned!(span=> ::core::result::Result::Err),
                            &e,
                        ),
                        None,
                        err,
                    ),
                ];
                self.lower_match_arms(scrutinee, arms, span)
            }
            _ => {
                self.diag.error(
                    span,
                    "`#[derive_frule]` supports `?` only in functions whose declared return type is `Option<..>` or `Result<..>`",
                );
                Some(self.poison(span))
            }
        }
    }

    /// Lowers arms `(pattern, guard, body)` over `scrutinee` into a `Match`.
    pub(crate) fn lower_match_arms(
        &mut self,
        scrutinee: Value,
        arms: Vec<(syn::Pat, Option<&syn::Expr>, ArmBody<'_, 'd>)>,
        span: Span,
    ) -> Option<Value> {
        let before = self.snapshot();
        let scrutinee_hint = self.func.values[scrutinee].ty.clone();
        let mut ir_arms = Vec::new();
        let mut ends = Vec::new();
        for (mut pat, guard, body) in arms {
            syn::visit_mut::VisitMut::visit_pat_mut(&mut NamedConstants, &mut pat);
            let mut errors = Vec::new();
            check_pattern(&pat, &mut errors);
            for (sp, msg) in errors {
                self.diag.error(sp, msg);
            }
            let mut bindings = Vec::new();
            pattern_bindings(&pat, &scrutinee_hint, &mut bindings);
            let guard_region = guard.map(|g| {
                let r = self.bound_region(&bindings);
                let end = self.lower_arm(r, &before, |lw| {
                    lw.bind_region_params(r, &bindings);
                    lw.lower_expr(g)
                });
                match end {
                    Some(end) if end.env_matches(&before) => {
                        self.func.regions[r].term = Terminator::Yield(vec![end.value()]);
                    }
                    _ => self.diag.error_spanned(&g, "`#[derive_frule]` does not support guards that assign variables, return or break"),
                }
                r
            });
            let body_region = self.bound_region(&bindings);
            let end = self.lower_arm(body_region, &before, |lw| {
                lw.bind_region_params(body_region, &bindings);
                body(lw)
            });
            ends.push((body_region, end));
            ir_arms.push(Arm {
                pat,
                guard: guard_region,
                body: body_region,
            });
        }
        let join = self.close_join(
            InstKind::Match {
                scrutinee,
                arms: ir_arms,
            },
            ends,
            &before,
            span,
        );
        let ty = join.ty();
        let v = join.value?;
        self.func.values[v].ty = ty;
        Some(v)
    }

    /// A fresh region whose parameters are values for `bindings`.
    fn bound_region(&mut self, bindings: &[(syn::Ident, TypeHint)]) -> Region {
        let r = self.new_region(vec![]);
        let params = bindings
            .iter()
            .enumerate()
            .map(|(k, (name, hint))| {
                let v = self
                    .func
                    .new_value(ValueDef::RegionParam(r, k), hint.clone());
                self.func.values[v].name = Some(name.clone());
                v
            })
            .collect();
        self.func.regions[r].params = params;
        r
    }

    /// Binds the pattern's names to the region's parameters, in a new scope.
    fn bind_region_params(&mut self, r: Region, bindings: &[(syn::Ident, TypeHint)]) {
        self.push_scope();
        let params = self.func.regions[r].params.clone();
        for ((name, _), p) in bindings.iter().zip(params) {
            self.bind(name, p);
        }
    }
}

/// `match *s { Shape::Circle { r } => .. }` matches the place `*s` without moving it (a
/// `Shape` need not be `Copy`); the macro reads `*s` as a value, so a scrutinee `*e` whose
/// patterns hold a struct or variant pattern is matched as `e` with `&pat` arms, which binds
/// the same values (and, like the place, cannot move a non-`Copy` field out).
fn deref_scrutinee<'e>(e: &'e syn::Expr, pats: &[&syn::Pat]) -> (&'e syn::Expr, bool) {
    match super::place::strip(e) {
        syn::Expr::Unary(u)
            if matches!(u.op, syn::UnOp::Deref(_))
                && pats.iter().any(|p| holds_data_pattern(p)) =>
        {
            (&u.expr, true)
        }
        _ => (e, false),
    }
}

/// Whether `pat` holds a struct or tuple-struct pattern (`V2(x, y)`, `Foo { a, .. }`).
pub(super) fn holds_data_pattern(pat: &syn::Pat) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_pat(&mut self, p: &'ast syn::Pat) {
            if matches!(p, syn::Pat::Struct(_) | syn::Pat::TupleStruct(_)) {
                self.0 = true;
            }
            syn::visit::visit_pat(self, p);
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_pat(&mut f, pat);
    f.0
}

/// `&pat` (`&(a..=b)`, `&(A | B)` where the pattern needs parentheses).
fn ref_pattern(pat: &syn::Pat) -> syn::Pat {
    let span = pat.span();
    let inner = match pat {
        syn::Pat::Range(_) | syn::Pat::Or(_) => syn::Pat::Paren(syn::PatParen {
            attrs: vec![],
            paren_token: syn::token::Paren(span),
            pat: Box::new(pat.clone()),
        }),
        syn::Pat::Ident(pi) if pi.subpat.is_some() => syn::Pat::Paren(syn::PatParen {
            attrs: vec![],
            paren_token: syn::token::Paren(span),
            pat: Box::new(pat.clone()),
        }),
        other => other.clone(),
    };
    syn::Pat::Reference(syn::PatReference {
        attrs: vec![],
        and_token: syn::Token![&](span),
        mutability: None,
        pat: Box::new(inner),
    })
}

/// The pattern `path(binding)` (`Some(__fwdad_ok)`), built without parsing.
fn one_field(path: syn::Path, binding: &syn::Ident) -> syn::Pat {
    let span = binding.span();
    let mut elems = syn::punctuated::Punctuated::new();
    elems.push(syn::Pat::Ident(syn::PatIdent {
        attrs: vec![],
        by_ref: None,
        mutability: None,
        ident: binding.clone(),
        subpat: None,
    }));
    syn::Pat::TupleStruct(syn::PatTupleStruct {
        attrs: vec![],
        qself: None,
        path,
        paren_token: syn::token::Paren(span),
        elems,
    })
}
