//! `#[derive_frule]` on `impl Sum for Vec3` and `impl Product for Vec3` (also over
//! references, `impl<'a> Sum<&'a Vec3> for Vec3`): the trait's method takes an iterator,
//! which a rule cannot take. The `impl` is kept as written, and beside it an inherent
//! associated function with the same body over a slice of the items
//! (`Vec3::sum_for_this_type(iter: &[Vec3])`, the body's `iter` read as `iter.iter().cloned()`,
//! or `iter.iter()` for references), derived as any. A derived body's `it.sum::<Vec3>()`
//! collects the items and calls it (`lower::user_ops`): the same additions in the same
//! order, so the primal is the `impl`'s bit for bit. Without the attribute on the `impl`,
//! rustc's error names `add_derive_frule_to_the_impl_of_sum_for_this_type`.

use proc_macro2::Span;
use syn::visit_mut::VisitMut;

/// The name of the associated function that stands for a `Sum` or `Product` impl, read
/// in rustc's error when the `impl` has no rule (`add_derive_frule_to_the_impl_of_..`).
pub(crate) fn fn_name(product: bool, refs: bool, span: Span) -> syn::Ident {
    let name = match (product, refs) {
        (false, false) => "sum_for_this_type",
        (false, true) => "sum_of_refs_for_this_type",
        (true, false) => "product_for_this_type",
        (true, true) => "product_of_refs_for_this_type",
    };
    syn::Ident::new(name, span)
}

/// For `impl Sum for Vec3 { fn sum<I: Iterator<Item = Vec3>>(iter: I) -> Vec3 { .. } }`
/// (or `Product`), the inherent `impl` that stands for it (see the module docs); `None`
/// for any other `impl`.
pub(crate) fn standin_impl(imp: &syn::ItemImpl) -> Option<syn::Result<syn::ItemImpl>> {
    let (_, tr, _) = imp.trait_.as_ref()?;
    let seg = tr.segments.last()?;
    let product = match seg.ident.to_string().as_str() {
        "Sum" => false,
        "Product" => true,
        _ => return None,
    };
    let refs = match &seg.arguments {
        syn::PathArguments::AngleBracketed(a) => matches!(
            a.args.first(),
            Some(syn::GenericArgument::Type(syn::Type::Reference(_)))
        ),
        _ => false,
    };
    let method = imp.items.iter().find_map(|i| match i {
        syn::ImplItem::Fn(f) if f.sig.ident == if product { "product" } else { "sum" } => Some(f),
        _ => None,
    })?;
    let [syn::FnArg::Typed(param)] = method.sig.inputs.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let syn::Pat::Ident(pi) = &*param.pat else {
        return None;
    };
    let span = method.sig.ident.span();
    let name = fn_name(product, refs, span);
    let items = pi.ident.clone();
    let mut body = method.block.clone();
    let head: syn::Expr = match refs {
        true => syn::parse_quote!(__fwdad_items.iter()),
        false => syn::parse_quote!(__fwdad_items.iter().cloned()),
    };
    let head = crate::splice::fill(
        head,
        &[(
            "__fwdad_items",
            crate::splice::Hole::Expr(&crate::splice::path_expr(&items)),
        )],
    );
    ReadAs {
        name: &items,
        head: &head,
    }
    .visit_block_mut(&mut body);
    // Lifetimes of the trait's argument (`Sum<&'a Vec3>`) that the type does not name
    // would be unconstrained on an inherent `impl`.
    let mut generics = imp.generics.clone();
    let ty_tokens = quote::ToTokens::to_token_stream(&imp.self_ty).to_string();
    generics.params = generics
        .params
        .into_iter()
        .filter(|p| match p {
            syn::GenericParam::Lifetime(l) => ty_tokens.contains(&l.lifetime.to_string()),
            _ => true,
        })
        .collect();
    let (ig, _, wc) = generics.split_for_impl();
    let (self_ty, ret) = (&imp.self_ty, &method.sig.output);
    let attrs = method.attrs.iter().filter(|a| !a.path().is_ident("inline"));
    Some(crate::splice::splice!(span=>
        impl #ig #self_ty #wc {
            #(#attrs)*
            #[doc(hidden)]
            #[allow(dead_code)]
            pub fn #name(#items: &[Self]) #ret #body
        }
    ))
}

/// Replaces the iterator parameter's uses by the iterator over the slice.
struct ReadAs<'a> {
    name: &'a syn::Ident,
    head: &'a syn::Expr,
}

impl VisitMut for ReadAs<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if let syn::Expr::Path(p) = e {
            if p.qself.is_none() && p.path.is_ident(self.name) {
                *e = self.head.clone();
                return;
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}
