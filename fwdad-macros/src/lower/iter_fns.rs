//! The free iterator constructors of `std::iter`, written as the method chains they are
//! before lowering, so the chain lowering reads them as it reads any chain:
//!
//! ```text
//! iter::zip(a, b)        (a).into_iter().zip(b)
//! iter::once(v)          [v].into_iter()
//! iter::repeat(v)        [v].into_iter().cycle()
//! iter::repeat_n(v, n)   [v].into_iter().cycle().take(n)
//! ```
//!
//! Each yields the same items in the same order (`repeat` clones its value, as cycling a
//! one-element array does), so primals are unchanged.

use crate::callee::IterFn;
use crate::splice::{fill, Hole};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

/// `block` with every call of such a constructor written as its chain.
pub(super) fn iter_fns_as_chains(block: &syn::Block) -> syn::Block {
    let mut block = block.clone();
    let mut chains = Chains { bare_zip: false };
    chains.visit_block_mut(&mut block);
    if chains.bare_zip {
        AllowUnused.visit_block_mut(&mut block);
    }
    block
}

struct Chains {
    /// Whether a bare `zip(a, b)` was rewritten: its `use std::iter::zip;` in the body is
    /// then unused in the rule.
    bare_zip: bool,
}

/// Marks the body's `use` items that import a `zip` `#[allow(unused_imports)]`.
struct AllowUnused;

impl VisitMut for AllowUnused {
    fn visit_item_mut(&mut self, item: &mut syn::Item) {
        if let syn::Item::Use(u) = item {
            if quote::ToTokens::to_token_stream(&u.tree)
                .to_string()
                .contains("zip")
            {
                u.attrs.push(syn::parse_quote!(#[allow(unused_imports)]));
            }
        }
    }
}

impl VisitMut for Chains {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, e);
        let syn::Expr::Call(c) = e else {
            return;
        };
        let syn::Expr::Path(p) = &*c.func else {
            return;
        };
        let Some(f) = IterFn::of_path(&p.path).filter(|f| f.arity() == c.args.len()) else {
            return;
        };
        if p.qself.is_some() {
            return;
        }
        self.bare_zip |= p.path.segments.len() == 1;
        let span = c.func.span();
        let template: syn::Expr = match f {
            IterFn::Zip => syn::parse_quote_spanned!(span=> (__fwdad_a).into_iter().zip(__fwdad_b)),
            IterFn::Once => syn::parse_quote_spanned!(span=> [__fwdad_a].into_iter()),
            IterFn::Repeat => syn::parse_quote_spanned!(span=> [__fwdad_a].into_iter().cycle()),
            IterFn::RepeatN => {
                syn::parse_quote_spanned!(span=> [__fwdad_a].into_iter().cycle().take(__fwdad_b))
            }
        };
        let mut holes = vec![("__fwdad_a", Hole::Expr(&c.args[0]))];
        if let Some(b) = c.args.get(1) {
            holes.push(("__fwdad_b", Hole::Expr(b)));
        }
        *e = fill(template, &holes);
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
