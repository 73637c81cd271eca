//! Rust's auto-referencing of a sub-slice receiver, made explicit before lowering:
//! `x[1..].iter()`, `x[..n].chunks(2)`, `out[a..b].fill(0.0)` are `(&x[1..]).iter()`,
//! `(&x[..n]).chunks(2)` and `(&mut out[a..b]).fill(0.0)`, the form the lowering reads.

use crate::callee::StdMethod;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

/// `block` with every method call on a range-indexed receiver borrowing it.
pub(super) fn autoref_subslices(block: &syn::Block) -> syn::Block {
    let mut block = block.clone();
    AutoRef.visit_block_mut(&mut block);
    block
}

struct AutoRef;

impl VisitMut for AutoRef {
    fn visit_expr_method_call_mut(&mut self, m: &mut syn::ExprMethodCall) {
        syn::visit_mut::visit_expr_method_call_mut(self, m);
        let syn::Expr::Index(ix) = &*m.receiver else {
            return;
        };
        if !matches!(&*ix.index, syn::Expr::Range(_)) {
            return;
        }
        let span = m.receiver.span();
        let receiver = std::mem::replace(&mut *m.receiver, syn::Expr::Verbatim(Default::default()));
        let reference = syn::Expr::Reference(syn::ExprReference {
            attrs: Vec::new(),
            and_token: syn::Token![&](span),
            mutability: borrows_mutably(&m.method).then(|| syn::Token![mut](span)),
            expr: Box::new(receiver),
        });
        *m.receiver = syn::Expr::Paren(syn::ExprParen {
            attrs: Vec::new(),
            paren_token: syn::token::Paren(span),
            expr: Box::new(reference),
        });
    }
}

/// Whether the slice method takes `&mut self` (`iter_mut`, `fill`, `sort_by`, ..., or an
/// extension trait's method the file declares so).
fn borrows_mutably(method: &syn::Ident) -> bool {
    let name = method.to_string();
    name.ends_with("_mut")
        || name.starts_with("sort")
        || StdMethod::from_name(&name).is_some_and(|m| m.writes() || m.lends_mut())
        || crate::plain_fns::sequence_method_takes_mut_self(&name)
}
