//! The combinators of `Option` and `Result` (`map`, `and_then`, `map_or`, `map_or_else`,
//! `unwrap_or_else`, `or_else`, `map_err`, `ok_or`, `ok_or_else`, `is_some_and`,
//! `is_ok_and`) written out as a `match`, the same for both types.
//!
//! The macro cannot tell an `Option` from a `Result` where no type is written
//! (`checked_ln_beta(a, b).map(|x| x.exp())`), so the `match` is not on `Some`/`None` or
//! `Ok`/`Err` of the receiver but on the runtime's `branch` of it, which splits either
//! into `Ok(value)` or `Err(residual)`; a combinator whose result is of the receiver's kind
//! puts it back with `rebuild` (see `fwdad_runtime::fallible`). The closure is bound to a
//! local and called in its arm, so it is inlined as every closure is: it may capture
//! active values and call derived functions, in every mode.
//!
//! Before / after (`o.map(f)`):
//! ```text
//! o.map(|x| x.exp())
//! { let o = o; let f = |x| x.exp();
//!   rt::rebuild(match rt::branch(o) { Ok(v) => Ok(f(v)), Err(r) => Err(r) }) }
//! ```
//! The closures of `unwrap_or_else`, `map_or_else` and `or_else` take no argument on an
//! `Option` and the error on a `Result`: a closure with one parameter is given the
//! residual's error (`rt::err_of(r)`), one without none; a function path is called by
//! the runtime's `else_call`, with what the residual holds.

use super::place::strip;
use super::Lowerer;
use crate::callee::Rewrite;
use crate::splice::{fill, splice, Hole};

/// Rewrites the exits of a closure's body, `e?` and `return e`, to leave the labelled
/// block `'__fwdad_closure: { body }` instead of the function the closure is inlined in:
/// `return e` is `break '__fwdad_closure e`, and `e?` is
/// `match branch(e) { Ok(v) => v, Err(r) => break '__fwdad_closure residual(r) }`, where
/// the runtime's `residual` makes `None` or `Err(From::from(err))` of the closure's result
/// type, as `?` does. Nested closures and items keep their own exits.
struct Exits<'a> {
    branch: &'a syn::Expr,
    residual: &'a syn::Expr,
    label: syn::Lifetime,
    found: bool,
}

impl syn::visit_mut::VisitMut for Exits<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        match e {
            syn::Expr::Closure(_) | syn::Expr::Async(_) => {}
            syn::Expr::Try(t) => {
                self.visit_expr_mut(&mut t.expr);
                let span = t.question_token.span;
                let template: syn::Expr = syn::parse_quote_spanned!(span=>
                    match __fwdad_branch(__fwdad_e) {
                        ::core::result::Result::Ok(__fwdad_q) => __fwdad_q,
                        ::core::result::Result::Err(__fwdad_q) => {
                            break '__fwdad_closure __fwdad_residual(__fwdad_q)
                        }
                    }
                );
                let inner = (*t.expr).clone();
                *e = fill(
                    template,
                    &[
                        ("__fwdad_e", Hole::Expr(&inner)),
                        ("__fwdad_branch", Hole::Expr(self.branch)),
                        ("__fwdad_residual", Hole::Expr(self.residual)),
                    ],
                );
                self.found = true;
            }
            syn::Expr::Return(r) => {
                if let Some(v) = &mut r.expr {
                    self.visit_expr_mut(v);
                }
                *e = syn::Expr::Break(syn::ExprBreak {
                    attrs: std::mem::take(&mut r.attrs),
                    break_token: syn::Token![break](r.return_token.span),
                    label: Some(self.label.clone()),
                    expr: r.expr.take(),
                });
                self.found = true;
            }
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// Whether `c`'s body has a `return` or a `?` of its own (not a nested closure's).
pub(crate) fn has_exits(c: &syn::ExprClosure) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_expr_return(&mut self, _: &'ast syn::ExprReturn) {
            self.0 = true;
        }
        fn visit_expr_try(&mut self, _: &'ast syn::ExprTry) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_expr(&mut f, &c.body);
    f.0
}

/// `arg` with its exits rewritten (see [`Exits`]) when it is a closure that has some.
fn with_exits(arg: &syn::Expr, branch: &syn::Expr, residual: &syn::Expr) -> syn::Expr {
    let syn::Expr::Closure(c) = strip(arg) else {
        return arg.clone();
    };
    match closure_with_exits(c, branch, residual) {
        Some(c) => syn::Expr::Closure(c),
        None => arg.clone(),
    }
}

/// `c` with its exits rewritten (see [`Exits`]) and its body wrapped in the block they
/// leave, or `None` when it has none.
fn closure_with_exits(
    c: &syn::ExprClosure,
    branch: &syn::Expr,
    residual: &syn::Expr,
) -> Option<syn::ExprClosure> {
    let mut c = c.clone();
    let span = c.or1_token.span;
    let mut exits = Exits {
        branch,
        residual,
        label: syn::Lifetime::new("'__fwdad_closure", span),
        found: false,
    };
    syn::visit_mut::VisitMut::visit_expr_mut(&mut exits, &mut c.body);
    if !exits.found {
        return None;
    }
    let block = match *c.body {
        syn::Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => b.block,
        other => syn::Block {
            brace_token: Default::default(),
            stmts: vec![syn::Stmt::Expr(other, None)],
        },
    };
    c.body = Box::new(syn::Expr::Block(syn::ExprBlock {
        attrs: vec![],
        label: Some(syn::Label {
            name: exits.label,
            colon_token: Default::default(),
        }),
        block,
    }));
    Some(c)
}

impl Lowerer<'_> {
    /// A closure about to be inlined with its `return`s and `?`s leaving its own body
    /// (a labelled block) rather than the function it is inlined in; `None` when it has
    /// none, or when the runtime's path cannot be written (reported).
    pub(crate) fn closure_exits(&mut self, c: &syn::ExprClosure) -> Option<syn::ExprClosure> {
        if !has_exits(c) {
            return None;
        }
        let span = c.or1_token.span;
        let rt = &self.rt;
        let branch: syn::Expr = self.diag.handle(splice!(span=> #rt::branch))?;
        let residual: syn::Expr = self.diag.handle(splice!(span=> #rt::residual))?;
        closure_with_exits(c, &branch, &residual)
    }

    /// Whether the default of `unwrap_or_else`, `map_or_else` or `or_else` takes the error
    /// (a closure of one parameter, written there or bound with `let`: the `Result` form).
    fn takes_error(&self, arg: &syn::Expr) -> bool {
        match strip(arg) {
            syn::Expr::Closure(c) => c.inputs.len() == 1,
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|id| self.lookup_closure(&id.to_string()))
                .is_some_and(|def| def.expr.inputs.len() == 1),
            _ => false,
        }
    }

    /// Whether `e` names a function by path (`on_error`, `Err`, `f64::default`), not a
    /// local or a `let`-bound closure.
    fn is_function_path(&self, e: &syn::Expr) -> bool {
        let syn::Expr::Path(p) = strip(e) else {
            return false;
        };
        match p.path.get_ident() {
            Some(id) => {
                let name = id.to_string();
                self.lookup(&name).is_none() && self.lookup_closure(&name).is_none()
            }
            None => p.qself.is_none(),
        }
    }

    /// The `match` a combinator of `Option` or `Result` is written as, or `None` when
    /// `m` is not one (another method, the wrong number of arguments, or a receiver that
    /// may be an iterator chain or an array: see `may_be_fallible`).
    pub(crate) fn desugar_combinator(
        &mut self,
        m: &syn::ExprMethodCall,
        rewrite: Rewrite,
    ) -> Option<syn::Expr> {
        let (recv, span) = (&*m.receiver, m.method.span());
        // Each template: the receiver, then the arguments in order, bound to locals (Rust's
        // order of evaluation), then the `match` on the split receiver.
        let template: syn::Expr = match (rewrite, m.args.len()) {
            (Rewrite::OptionMap, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_f = __fwdad_fn;
                __fwdad_rebuild(match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => ::core::result::Result::Ok(__fwdad_f(__fwdad_v)),
                    ::core::result::Result::Err(__fwdad_r) => ::core::result::Result::Err(__fwdad_r),
                })
            }),
            (Rewrite::AndThen, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_f = __fwdad_fn;
                __fwdad_rebuild(match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => __fwdad_branch(__fwdad_f(__fwdad_v)),
                    ::core::result::Result::Err(__fwdad_r) => ::core::result::Result::Err(__fwdad_r),
                })
            }),
            (Rewrite::IsSomeAnd | Rewrite::IsOkAnd, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_f = __fwdad_fn;
                match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => __fwdad_f(__fwdad_v),
                    ::core::result::Result::Err(_) => false,
                }
            }),
            (Rewrite::IsNoneOr, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_f = __fwdad_fn;
                match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => __fwdad_f(__fwdad_v),
                    ::core::result::Result::Err(_) => true,
                }
            }),
            (Rewrite::MapOr, 2) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_d = __fwdad_arg0;
                let __fwdad_f = __fwdad_fn;
                match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => __fwdad_f(__fwdad_v),
                    ::core::result::Result::Err(_) => __fwdad_d,
                }
            }),
            (Rewrite::MapOrElse, 2) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_g = __fwdad_arg0;
                let __fwdad_f = __fwdad_fn;
                match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => __fwdad_f(__fwdad_v),
                    ::core::result::Result::Err(__fwdad_r) => __fwdad_else,
                }
            }),
            (Rewrite::UnwrapOrElse, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_g = __fwdad_arg0;
                match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => __fwdad_v,
                    ::core::result::Result::Err(__fwdad_r) => __fwdad_else,
                }
            }),
            (Rewrite::OrElse, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_g = __fwdad_arg0;
                __fwdad_rebuild(match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => ::core::result::Result::Ok(__fwdad_v),
                    ::core::result::Result::Err(__fwdad_r) => __fwdad_branch(__fwdad_else),
                })
            }),
            (Rewrite::OptionFilter, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_f = __fwdad_fn;
                match __fwdad_o {
                    ::core::option::Option::Some(__fwdad_v) => {
                        if __fwdad_f(&__fwdad_v) {
                            ::core::option::Option::Some(__fwdad_v)
                        } else {
                            ::core::option::Option::None
                        }
                    }
                    ::core::option::Option::None => ::core::option::Option::None,
                }
            }),
            (Rewrite::Or, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_d = __fwdad_arg0;
                __fwdad_rebuild(match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => ::core::result::Result::Ok(__fwdad_v),
                    ::core::result::Result::Err(_) => __fwdad_branch(__fwdad_d),
                })
            }),
            (Rewrite::And, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_d = __fwdad_arg0;
                __fwdad_rebuild(match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(_) => __fwdad_branch(__fwdad_d),
                    ::core::result::Result::Err(__fwdad_r) => ::core::result::Result::Err(__fwdad_r),
                })
            }),
            (Rewrite::Xor, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_d = __fwdad_arg0;
                match (__fwdad_o, __fwdad_d) {
                    (::core::option::Option::Some(__fwdad_v), ::core::option::Option::None)
                    | (::core::option::Option::None, ::core::option::Option::Some(__fwdad_v)) => {
                        ::core::option::Option::Some(__fwdad_v)
                    }
                    _ => ::core::option::Option::None,
                }
            }),
            (Rewrite::OptionZip, 1) if self.is_option_source(recv) => {
                syn::parse_quote_spanned!(span=> {
                    let __fwdad_o = __fwdad_recv;
                    let __fwdad_d = __fwdad_arg0;
                    match (__fwdad_o, __fwdad_d) {
                        (::core::option::Option::Some(__fwdad_v), ::core::option::Option::Some(__fwdad_w)) => {
                            ::core::option::Option::Some((__fwdad_v, __fwdad_w))
                        }
                        _ => ::core::option::Option::None,
                    }
                })
            }
            (Rewrite::MapErr, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_f = __fwdad_fn;
                __fwdad_rebuild(match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => ::core::result::Result::Ok(__fwdad_v),
                    ::core::result::Result::Err(__fwdad_r) => ::core::result::Result::Err(
                        __fwdad_err_from(__fwdad_f(__fwdad_err_of(__fwdad_r))),
                    ),
                })
            }),
            (Rewrite::OkOr, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_e = __fwdad_arg0;
                match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => ::core::result::Result::Ok(__fwdad_v),
                    ::core::result::Result::Err(_) => ::core::result::Result::Err(__fwdad_e),
                }
            }),
            (Rewrite::OkOrElse, 1) => syn::parse_quote_spanned!(span=> {
                let __fwdad_o = __fwdad_recv;
                let __fwdad_g = __fwdad_arg0;
                match __fwdad_branch(__fwdad_o) {
                    ::core::result::Result::Ok(__fwdad_v) => ::core::result::Result::Ok(__fwdad_v),
                    ::core::result::Result::Err(_) => ::core::result::Result::Err(__fwdad_g()),
                }
            }),
            _ => return None,
        };
        if !self.may_be_fallible(recv) {
            return None;
        }
        let rt = &self.rt;
        let runtime = |f: &str| {
            let f = syn::Ident::new(f, span);
            splice!(span=> #rt::#f)
        };
        let helpers: Vec<(&str, syn::Expr)> = [
            ("__fwdad_branch", "branch"),
            ("__fwdad_rebuild", "rebuild"),
            ("__fwdad_err_of", "err_of"),
            ("__fwdad_err_from", "err_from"),
            ("__fwdad_residual", "residual"),
            ("__fwdad_else_call", "else_call"),
        ]
        .into_iter()
        .filter_map(|(hole, f)| Some((hole, self.diag.handle(runtime(f))?)))
        .collect();
        let [(_, branch), _, _, _, (_, residual), _] = &helpers[..] else {
            return None;
        };
        let written: Vec<syn::Expr> = m
            .args
            .iter()
            .map(|a| with_exits(a, branch, residual))
            .collect();
        let args: Vec<&syn::Expr> = written.iter().collect();
        // The residual handed to a default that takes the error; a function path is
        // called by the runtime with what the residual holds.
        let else_call: syn::Expr = match args.first() {
            Some(g) if self.takes_error(g) => {
                syn::parse_quote_spanned!(span=> __fwdad_g(__fwdad_err_of(__fwdad_r)))
            }
            Some(g) if self.is_function_path(g) => {
                syn::parse_quote_spanned!(span=> __fwdad_else_call(__fwdad_r, __fwdad_g))
            }
            _ => syn::parse_quote_spanned!(span=> __fwdad_g()),
        };
        let mut template = fill(template, &[("__fwdad_else", Hole::Expr(&else_call))]);
        let mut holes = vec![("__fwdad_recv", Hole::Expr(recv))];
        holes.extend(helpers.iter().map(|(h, e)| (*h, Hole::Expr(e))));
        if let Some(a) = args.first() {
            // A function path is called by name (a local bound to it could not be
            // called), a closure through a local bound to it.
            holes.extend(super::idioms::call_by_name(&mut template, "__fwdad_g", a));
            holes.push(("__fwdad_arg0", Hole::Expr(a)));
        }
        if let Some(f) = args.last() {
            holes.extend(super::idioms::call_by_name(&mut template, "__fwdad_f", f));
            holes.push(("__fwdad_fn", Hole::Expr(f)));
        }
        Some(fill(template, &holes))
    }
}
