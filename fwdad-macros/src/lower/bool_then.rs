//! `bool::then_some` and `bool::then` on a condition written in place, made the `if`
//! they are before lowering:
//!
//! ```text
//! (t > EPS).then_some(t)     { let c = t > EPS; let v = t; if c { Some(v) } else { None } }
//! (d < r).then(|| r - d)     if d < r { Some(r - d) } else { None }
//! ```
//!
//! `then_some` evaluates its argument whether or not the condition holds, after it, as
//! the rewrite does; `then` calls its closure only when it holds, as the `if` runs its
//! branch. Only a receiver that is a comparison, `&&`, `||` or `!` (parenthesised or not)
//! is rewritten, so a method of that name on a type of the user's is left alone, and only
//! a `then` closure without parameters, `return` or `?` (which would leave the function
//! from the `if`).

use crate::callee::BoolThen;
use crate::splice::{fill, Hole};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// `block` with each such call written as an `if`.
pub(super) fn bool_then_as_if(block: &syn::Block) -> syn::Block {
    let mut block = block.clone();
    Then.visit_block_mut(&mut block);
    block
}

/// Whether `e` is written as a `bool`: a comparison, `&&`, `||` or `!`.
fn is_condition(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Paren(p) => is_condition(&p.expr),
        syn::Expr::Unary(u) => matches!(u.op, syn::UnOp::Not(_)),
        syn::Expr::Binary(b) => matches!(
            b.op,
            syn::BinOp::Lt(_)
                | syn::BinOp::Le(_)
                | syn::BinOp::Gt(_)
                | syn::BinOp::Ge(_)
                | syn::BinOp::Eq(_)
                | syn::BinOp::Ne(_)
                | syn::BinOp::And(_)
                | syn::BinOp::Or(_)
        ),
        _ => false,
    }
}

/// Whether a closure body leaves its closure early (`return`, `?`).
struct Exits(bool);

impl<'ast> Visit<'ast> for Exits {
    fn visit_expr_return(&mut self, _: &'ast syn::ExprReturn) {
        self.0 = true;
    }
    fn visit_expr_try(&mut self, _: &'ast syn::ExprTry) {
        self.0 = true;
    }
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

struct Then;

impl VisitMut for Then {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, e);
        let syn::Expr::MethodCall(m) = e else {
            return;
        };
        if m.turbofish.is_some() || m.args.len() != 1 || !is_condition(&m.receiver) {
            return;
        }
        match BoolThen::from_name(&m.method.to_string()) {
            Some(BoolThen::ThenSome) => {
                let template: syn::Expr = syn::parse_quote!({
                    let __fwdad_cond = __fwdad_c;
                    let __fwdad_some = __fwdad_v;
                    if __fwdad_cond {
                        ::core::option::Option::Some(__fwdad_some)
                    } else {
                        ::core::option::Option::None
                    }
                });
                *e = fill(
                    template,
                    &[
                        ("__fwdad_c", Hole::Expr(&m.receiver)),
                        ("__fwdad_v", Hole::Expr(&m.args[0])),
                    ],
                );
            }
            Some(BoolThen::Then) => {
                let syn::Expr::Closure(c) = &m.args[0] else {
                    return;
                };
                let mut exits = Exits(false);
                exits.visit_expr(&c.body);
                if !c.inputs.is_empty() || exits.0 || c.asyncness.is_some() {
                    return;
                }
                let template: syn::Expr = syn::parse_quote!(if __fwdad_c {
                    ::core::option::Option::Some(__fwdad_v)
                } else {
                    ::core::option::Option::None
                });
                *e = fill(
                    template,
                    &[
                        ("__fwdad_c", Hole::Expr(&m.receiver)),
                        ("__fwdad_v", Hole::Expr(&c.body)),
                    ],
                );
            }
            None => {}
        }
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
