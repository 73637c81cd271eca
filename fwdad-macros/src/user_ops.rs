//! `#[derive_frule]` on an operator's `impl` (`impl Add for Vec3`, `impl Mul<f64> for
//! Vec3`, `impl Mul<Vec3> for f64`, `impl Neg for Vec3`, `impl AddAssign for Vec3`): the
//! method's rule is registered as for any method, under a marker named after the operand
//! types, and tied to the operator by `user_ops::OpRule<Op, Rhs> for Lhs` (see the
//! runtime's `user_ops.rs`). No method is added to the type: `f64` cannot have one
//! (E0390), and `Mul<f64>` and `Mul<Vec3>` of one type would both want `mul`.

use crate::callee::UserOp;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, ToTokens};
use syn::visit_mut::VisitMut;

/// An operator's impl: which operator, and its right-hand side type (`()` for `Neg`).
pub(crate) struct OperatorImpl {
    op: UserOp,
    rhs: syn::Type,
}

/// The operator an `impl` block implements, if it is one of `std::ops`' arithmetic traits.
pub(crate) fn operator_of(imp: &syn::ItemImpl) -> Option<OperatorImpl> {
    let (_, path, _) = imp.trait_.as_ref()?;
    let last = path.segments.last()?;
    let op = UserOp::from_trait(&last.ident.to_string())?;
    let written = match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
            syn::GenericArgument::Type(t) => Some(t.clone()),
            _ => None,
        }),
        _ => None,
    };
    let rhs = match (op.is_unary(), written) {
        (false, None) if matches!(op, UserOp::Index | UserOp::IndexMut) => return None,
        (true, _) => syn::Type::Tuple(syn::TypeTuple {
            paren_token: Default::default(),
            elems: Default::default(),
        }),
        (false, Some(t)) => t,
        // `impl Add for Vec3`: `Rhs = Self`.
        (false, None) => (*imp.self_ty).clone(),
    };
    Some(OperatorImpl { op, rhs })
}

impl OperatorImpl {
    /// `__fwdad_Vec3_mul_f64`: the type, the method and the right-hand side, so that
    /// `Mul<f64>` and `Mul<Vec3>` of one type get different markers.
    pub(crate) fn marker_name(&self, ty: &syn::Ident, method: &syn::Ident) -> syn::Ident {
        marker_name(ty, method, &self.rhs)
    }

    /// `impl OpRule<Op, Rhs> for Lhs { type Rule = marker; .. }`, with the impl's generics,
    /// and how the marker takes an operand (`TakeArg`: as a dual, a constant promoted).
    pub(crate) fn rule_impl(
        &self,
        imp: &syn::ItemImpl,
        marker: &syn::Ident,
        rt: &TokenStream,
    ) -> TokenStream {
        let (impl_generics, _, where_clause) = imp.generics.split_for_impl();
        let tag = self.op.tag(marker.span());
        let (lhs, rhs) = (&imp.self_ty, &self.rhs);
        quote! {
            impl #impl_generics #rt::user_ops::OpRule<#rt::user_ops::#tag, #rhs> for #lhs #where_clause {
                type Rule = #marker;
                #[inline(always)]
                fn rule() -> #marker {
                    #marker {}
                }
            }
            impl<__FwdadX: #rt::user_ops::OpArg<__FwdadS>, __FwdadS: #rt::Mode> #rt::user_ops::TakeArg<__FwdadX, __FwdadS> for #marker {
                type Arg = __FwdadX::Dual;
                #[inline(always)]
                fn take(x: __FwdadX) -> __FwdadX::Dual {
                    x.dual()
                }
            }
        }
    }
}

/// `__fwdad_Vec3_mul_f64`: the type, the method and the other operand's type (`unit` for
/// none), so that `Mul<f64>` and `Mul<Vec3>` of one type, or `From<Lch>` and `From<Xyz>`,
/// get different markers.
fn marker_name(ty: &syn::Ident, method: &syn::Ident, other: &syn::Type) -> syn::Ident {
    let other: Vec<String> = other
        .to_token_stream()
        .into_iter()
        .filter_map(|t| match t {
            // `r#V` as `V`: `__fwdad_V_add_r#V` is no identifier.
            proc_macro2::TokenTree::Ident(i) => Some(syn::ext::IdentExt::unraw(&i).to_string()),
            proc_macro2::TokenTree::Punct(p) if p.as_char() == '&' => Some("ref".into()),
            _ => None,
        })
        .collect();
    let other = match other.is_empty() {
        true => "unit".to_string(),
        false => other.join("_"),
    };
    format_ident!("__fwdad_{}_{}_{}", ty, method, other, span = method.span())
}

/// `#[derive_frule] impl From<Src> for Ty`: its `from`'s rule is found by the source type
/// (`FromRule<Src>`, through `ConvertTo<Ty>` at `Ty::from(x)`), as an operator's is by the
/// operand types, since a type may have several conversions.
pub(crate) struct ConversionImpl {
    src: syn::Type,
}

pub(crate) fn conversion_of(imp: &syn::ItemImpl) -> Option<ConversionImpl> {
    let (_, path, _) = imp.trait_.as_ref()?;
    let last = path.segments.last()?;
    if last.ident != "From" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
        return None;
    };
    match a.args.iter().collect::<Vec<_>>()[..] {
        [syn::GenericArgument::Type(t)] => Some(ConversionImpl { src: t.clone() }),
        _ => None,
    }
}

impl ConversionImpl {
    /// `__fwdad_LabValue_from_LchValue`.
    pub(crate) fn marker_name(&self, ty: &syn::Ident, method: &syn::Ident) -> syn::Ident {
        marker_name(ty, method, &self.src)
    }

    /// `impl FromRule<Src> for Ty { type Rule = marker; .. }`, with the impl's generics,
    /// and how the marker takes its argument (as a dual).
    pub(crate) fn rule_impl(
        &self,
        imp: &syn::ItemImpl,
        marker: &syn::Ident,
        rt: &TokenStream,
    ) -> TokenStream {
        let (impl_generics, _, where_clause) = imp.generics.split_for_impl();
        let (ty, src) = (&imp.self_ty, &self.src);
        quote! {
            impl #impl_generics #rt::user_ops::FromRule<#src> for #ty #where_clause {
                type Rule = #marker;
                #[inline(always)]
                fn rule() -> #marker {
                    #marker {}
                }
            }
            impl<__FwdadX: #rt::user_ops::OpArg<__FwdadS>, __FwdadS: #rt::Mode> #rt::user_ops::TakeArg<__FwdadX, __FwdadS> for #marker {
                type Arg = __FwdadX::Dual;
                #[inline(always)]
                fn take(x: __FwdadX) -> __FwdadX::Dual {
                    x.dual()
                }
            }
        }
    }
}

/// `Self::Output` (any associated type the impl defines) replaced by its definition in a
/// method's signature and body: the method becomes a free function, where `Self::Output`
/// would be ambiguous.
/// In `impl IndexMut<I> for T`, `Self::Output` is `Index`'s: `<T as Index<I>>::Output`.
pub(crate) fn replace_assoc_types(imp: &syn::ItemImpl, m: &mut syn::ImplItemFn) {
    let mut defs: Vec<(syn::Ident, syn::Type)> = imp
        .items
        .iter()
        .filter_map(|i| match i {
            syn::ImplItem::Type(t) => Some((t.ident.clone(), t.ty.clone())),
            _ => None,
        })
        .collect();
    if let Some(op) = operator_of(imp).filter(|o| o.op == UserOp::IndexMut) {
        let (ty, idx) = (&imp.self_ty, &op.rhs);
        let span = syn::spanned::Spanned::span(&imp.self_ty);
        let output = quote::quote_spanned!(span=> <#ty as ::core::ops::Index<#idx>>::Output);
        if let Ok(output) = syn::parse2::<syn::Type>(output) {
            defs.push((syn::Ident::new("Output", span), output));
        }
    }
    if !defs.is_empty() {
        ReplaceAssoc(&defs).visit_impl_item_fn_mut(m);
    }
}

struct ReplaceAssoc<'d>(&'d [(syn::Ident, syn::Type)]);

impl VisitMut for ReplaceAssoc<'_> {
    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        if let syn::Type::Path(p) = ty {
            let segs = &p.path.segments;
            if p.qself.is_none()
                && segs.len() == 2
                && segs[0].ident == "Self"
                && segs[1].arguments.is_empty()
            {
                if let Some((_, def)) = self.0.iter().find(|(n, _)| *n == segs[1].ident) {
                    *ty = def.clone();
                    return;
                }
            }
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}

/// In an operator's `impl`, the operator's methods called by name on `self` are the
/// operators (`*self = self.mul(other)` in kurbo's `impl MulAssign for Affine`,
/// `self.mul_assign(other.recip())` in its `impl DivAssign<f64> for Vec2`): rewritten so
/// (`*self * other`, `*self *= other.recip()`), the rule is found by the operands' types
/// as any operator's is. Only on `self` in an operator's `impl`, where such a name is the
/// operator's: elsewhere a method `add` may be the type's own (`track.add(step)`).
pub(crate) fn self_operator_calls(m: &mut syn::ImplItemFn) {
    let by_ref =
        matches!(m.sig.inputs.first(), Some(syn::FnArg::Receiver(r)) if r.reference.is_some());
    SelfOperatorCalls { by_ref }.visit_block_mut(&mut m.block);
}

struct SelfOperatorCalls {
    by_ref: bool,
}

impl VisitMut for SelfOperatorCalls {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, e);
        if let Some(op) = self.operator_call(e) {
            *e = op;
        }
    }
    // A closure or nested item has a `self` of its own context: left alone.
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

impl SelfOperatorCalls {
    fn operator_call(&self, e: &syn::Expr) -> Option<syn::Expr> {
        use syn::{BinOp as B, Token};
        let syn::Expr::MethodCall(m) = e else {
            return None;
        };
        let syn::Expr::Path(p) = &*m.receiver else {
            return None;
        };
        if m.turbofish.is_some() || !p.path.is_ident("self") {
            return None;
        }
        let op = UserOp::from_method(&m.method.to_string())?;
        let span = m.method.span();
        let recv = match self.by_ref {
            true => syn::Expr::Unary(syn::ExprUnary {
                attrs: vec![],
                op: syn::UnOp::Deref(Token![*](span)),
                expr: m.receiver.clone(),
            }),
            false => (*m.receiver).clone(),
        };
        if op.is_unary() {
            return m.args.is_empty().then(|| {
                syn::Expr::Unary(syn::ExprUnary {
                    attrs: vec![],
                    op: syn::UnOp::Neg(Token![-](span)),
                    expr: Box::new(recv),
                })
            });
        }
        let [arg] = m.args.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let op = match op {
            UserOp::Add => B::Add(Token![+](span)),
            UserOp::Sub => B::Sub(Token![-](span)),
            UserOp::Mul => B::Mul(Token![*](span)),
            UserOp::Div => B::Div(Token![/](span)),
            UserOp::Rem => B::Rem(Token![%](span)),
            UserOp::AddAssign => B::AddAssign(Token![+=](span)),
            UserOp::SubAssign => B::SubAssign(Token![-=](span)),
            UserOp::MulAssign => B::MulAssign(Token![*=](span)),
            UserOp::DivAssign => B::DivAssign(Token![/=](span)),
            UserOp::RemAssign => B::RemAssign(Token![%=](span)),
            UserOp::Neg | UserOp::Index | UserOp::IndexMut => return None,
        };
        Some(syn::Expr::Binary(syn::ExprBinary {
            attrs: vec![],
            left: Box::new(recv),
            op,
            right: Box::new(arg.clone()),
        }))
    }
}
