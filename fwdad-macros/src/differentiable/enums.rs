//! `#[derive(Differentiable)]` on an enum whose variants carry data: a tangent enum with
//! the same variants.
//!
//! ```text
//! #[derive(Differentiable, Clone, Debug)]
//! enum Shape { Circle { r: f64 }, Rect { w: f64, h: f64 }, Empty, Tagged(usize, f64) }
//! // Generated:
//! // enum ShapeTangent<S: Mode = f64> {
//! //     Circle { r: S }, Rect { w: S, h: S }, Empty, Tagged(NoTangent, S),
//! // }
//! ```
//!
//! Fields map to tangent types exactly as a struct's do (see the parent module), over the
//! fields of every variant: `#[differentiable(skip)]`, integers as `NoTangent`, generic
//! parameters by projection. A tangent describes a value of *one* variant: every operation
//! that meets a tangent of another variant than its primal (or two tangents of different
//! variants) panics with [`MISMATCH`], never reads it as a zero. `Default` is not
//! implemented: a zero tangent needs the primal's variant (`ZeroTangent` has it).
//!
//! Every generated match binds fields by their member, `Shape::Tagged { 0: a, 1: b }`, so
//! named, tuple and unit variants are written one way.

use super::{field_preds, pred, verbatim_pred, with_preds, Ctx, Errors, Field, Kind, TEST_TANGENT};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::{Fields, Ident, Member};

/// The message of every variant mismatch.
const MISMATCH: &str =
    "fwdad: a tangent of an enum must be of its primal's variant (and tangents added together of the same variant)";

/// One variant: its name, whether its fields are named, and its fields' range in the
/// derive's flat field list.
pub(super) struct Variant {
    ident: Ident,
    named: bool,
    fields: std::ops::Range<usize>,
}

/// The variants of `e` and the flat list of their fields (member and field).
pub(super) fn variants<'a>(
    e: &'a syn::DataEnum,
    errors: &mut Errors,
) -> (Vec<Variant>, Vec<(Member, &'a syn::Field)>) {
    let mut vs = Vec::new();
    let mut fields = Vec::new();
    for v in &e.variants {
        for attr in v.attrs.iter().filter(|a| super::is_ours(a)) {
            errors.push(syn::Error::new_spanned(
                attr,
                "`#[differentiable]` is not allowed on enum variants; put `#[differentiable(skip)]` on a field of the variant",
            ));
        }
        let start = fields.len();
        fields.extend(super::members(&v.fields));
        vs.push(Variant {
            ident: v.ident.clone(),
            named: matches!(v.fields, Fields::Named(_)),
            fields: start..fields.len(),
        });
    }
    (vs, fields)
}

/// Everything generated for an enum with a tangent enum.
pub(super) fn expand_enum(ctx: &Ctx, vs: &[Variant]) -> TokenStream {
    let e = EnumCtx { ctx, vs };
    let mut out = e.tangent_enum();
    out.extend(e.tangent_impls());
    out.extend(ctx.differentiable());
    if !ctx.infos.iter().any(|f| f.borrows) {
        out.extend(e.zero_tangent());
        out.extend(e.lane_value());
        if TEST_TANGENT {
            out.extend(e.test_tangent());
        }
    }
    out
}

struct EnumCtx<'c, 'a> {
    ctx: &'c Ctx<'a>,
    vs: &'c [Variant],
}

/// The binding of field `k` in the `n`-th of several values matched together.
fn bind(prefix: &str, k: usize) -> Ident {
    format_ident!("__fwdad_{}{}", prefix, k, span = Span::mixed_site())
}

impl EnumCtx<'_, '_> {
    fn fields(&self, v: &Variant) -> &[Field<'_>] {
        &self.ctx.infos[v.fields.clone()]
    }

    /// `Ty::V { m0: __fwdad_a0, m1: __fwdad_a1 }`, binding (or building from) `value(k, f)`
    /// for each field `k`, `f` of the variant.
    fn shape(
        &self,
        ty: &TokenStream,
        v: &Variant,
        value: &dyn Fn(usize, &Field) -> TokenStream,
    ) -> TokenStream {
        let vi = &v.ident;
        let parts = v.fields.clone().zip(self.fields(v)).map(|(k, f)| {
            let m = &f.member;
            let val = value(k, f);
            quote!(#m: #val)
        });
        quote!(#ty::#vi { #(#parts,)* })
    }

    /// `ty` with every field bound to `prefix<k>` (fields without a tangent to `_` when
    /// `tangents_only`).
    fn pat(&self, ty: &TokenStream, v: &Variant, prefix: &str, tangents_only: bool) -> TokenStream {
        self.shape(ty, v, &|k, f| {
            if tangents_only && !f.is_tangent() {
                quote!(_)
            } else {
                bind(prefix, k).into_token_stream()
            }
        })
    }

    fn tname(&self) -> TokenStream {
        self.ctx.tname.to_token_stream()
    }

    fn pname(&self) -> TokenStream {
        quote!(Self)
    }

    /// The tangent enum.
    fn tangent_enum(&self) -> TokenStream {
        let c = self.ctx;
        let (name, tname, s, p) = (&c.input.ident, c.tname, c.s, c.p);
        let vis = &c.input.vis;
        let doc = format!(
            "The tangent of [`{name}`] (from `#[derive(Differentiable)]`): the same variants, \
             each field holding the tangent of the field of the same name. A tangent is of \
             its primal's variant. `{s}` is the differentiation mode: `f64` (the default) for \
             one direction, `Batch<f64, N>` for `N` directions at once, `Hyper<f64, T>` for \
             second order."
        );
        // Each variant and named field documented, as the struct's tangent fields are: a
        // crate under `#![warn(missing_docs)]` (deltae's `DEMethod`) sees them.
        let variants = self.vs.iter().map(|v| {
            let vi = &v.ident;
            let vdoc = format!("The tangent of `{name}::{vi}`.");
            let fields = self.fields(v).iter().map(|f| {
                let t = f.tangent_ty(p);
                match &f.member {
                    Member::Named(i) => {
                        let fdoc = format!("The tangent of `{name}::{vi}`'s `{i}`.");
                        quote!(#[doc = #fdoc] #i: #t)
                    }
                    Member::Unnamed(_) => t,
                }
            });
            if v.fields.is_empty() {
                quote!(#[doc = #vdoc] #vi)
            } else if v.named {
                quote!(#[doc = #vdoc] #vi { #(#fields,)* })
            } else {
                quote!(#[doc = #vdoc] #vi(#(#fields,)*))
            }
        });
        let params = &c.tgen.params;
        let wc = &c.tgen.where_clause;
        let at = tname.span();
        quote_spanned! {at=>
            #[doc = #doc]
            #[allow(dead_code, non_camel_case_types)]
            #vis enum #tname<#params> #wc { #(#variants,)* }
        }
    }

    /// `Clone`, `Copy`, `Debug`, `PartialEq`, `TangentSpace`, `HoldsNoFloat` on the tangent
    /// enum, bounded by the field tangents as the struct's are.
    fn tangent_impls(&self) -> TokenStream {
        let c = self.ctx;
        let (tname, p) = (c.tname, c.p);
        let (_, tty, _) = c.tgen.split_for_impl();
        let this = quote!(#tname #tty);
        let t = quote!(Self);
        let tangent_fields = c.tangent_fields();
        let impl_for = |bound: TokenStream, mode_has_it: bool, body: TokenStream| {
            let preds = tangent_fields
                .iter()
                .filter(|f| !f.recursive)
                .filter(|f| !(mode_has_it && f.is_f64))
                .map(|f| pred(f.tangent_ty(p), &bound, &c.tgeneric));
            let g = with_preds(c.timpl_gen, preds);
            let (i, _, w) = g.split_for_impl();
            quote! {
                #[automatically_derived]
                #[allow(unreachable_patterns)]
                impl #i #bound for #this #w { #body }
            }
        };
        let each = |f: &dyn Fn(&Variant) -> TokenStream| -> Vec<TokenStream> {
            self.vs.iter().map(f).collect()
        };
        let clone = each(&|v| {
            let pat = self.pat(&t, v, "a", false);
            let out = self.shape(&t, v, &|k, _| {
                let a = bind("a", k);
                quote!(::core::clone::Clone::clone(#a))
            });
            quote!(#pat => #out,)
        });
        let debug = each(&|v| {
            let pat = self.pat(&t, v, "a", false);
            let vs = v.ident.to_string();
            let fields: Vec<_> = v.fields.clone().map(|k| bind("a", k)).collect();
            let body = if v.fields.is_empty() {
                quote!(f.write_str(#vs))
            } else if v.named {
                let names = self
                    .fields(v)
                    .iter()
                    .map(|f| f.member.to_token_stream().to_string());
                quote!(f.debug_struct(#vs) #(.field(#names, #fields))* .finish())
            } else {
                quote!(f.debug_tuple(#vs) #(.field(#fields))* .finish())
            };
            quote!(#pat => #body,)
        });
        // Two tangents of the same variant, fieldwise; `op(a, b)` for each tangent field.
        let pairs = |op: &dyn Fn(&Ident, &Ident) -> TokenStream| {
            each(&|v| {
                let pa = self.pat(&t, v, "a", true);
                let pb = self.pat(&t, v, "b", true);
                let ops = v
                    .fields
                    .clone()
                    .zip(self.fields(v))
                    .filter(|(_, f)| f.is_tangent())
                    .map(|(k, _)| op(&bind("a", k), &bind("b", k)));
                quote!((#pa, #pb) => { #(#ops)* })
            })
        };
        let eq = pairs(&|a, b| quote!(if !::core::cmp::PartialEq::eq(#a, #b) { return false; }));
        let inc = pairs(&|a, b| quote!(#p::TangentSpace::increment(#a, #b);));
        let dot = pairs(&|a, b| quote!(d += #p::TangentSpace::dot(#a, #b);));
        let scale = each(&|v| {
            let pa = self.pat(&t, v, "a", true);
            let ops = v
                .fields
                .clone()
                .zip(self.fields(v))
                .filter(|(_, f)| f.is_tangent())
                .map(|(k, _)| {
                    let a = bind("a", k);
                    quote!(#p::TangentSpace::scale_by(#a, a);)
                });
            quote!(#pa => { #(#ops)* })
        });
        [
            impl_for(
                quote!(::core::clone::Clone),
                true,
                quote! {
                    #[inline]
                    fn clone(&self) -> Self {
                        match self { #(#clone)* }
                    }
                },
            ),
            if tangent_fields.iter().any(|f| f.recursive) {
                quote!()
            } else {
                impl_for(quote!(::core::marker::Copy), true, quote!())
            },
            impl_for(
                quote!(::core::fmt::Debug),
                true,
                quote! {
                    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        match self { #(#debug)* }
                    }
                },
            ),
            impl_for(
                quote!(::core::cmp::PartialEq),
                true,
                quote! {
                    #[inline]
                    fn eq(&self, other: &Self) -> bool {
                        match (self, other) {
                            #(#eq)*
                            _ => return false,
                        }
                        true
                    }
                },
            ),
            impl_for(
                quote!(#p::TangentSpace),
                false,
                quote! {
                    #[inline]
                    fn increment(&mut self, other: &Self) {
                        match (self, other) {
                            #(#inc)*
                            _ => ::core::panic!(#MISMATCH),
                        }
                    }
                    #[inline]
                    fn scale_by(&mut self, a: ::core::primitive::f64) {
                        match self { #(#scale)* }
                    }
                    #[inline]
                    fn dot(&self, other: &Self) -> ::core::primitive::f64 {
                        let mut d = 0.0;
                        match (self, other) {
                            #(#dot)*
                            _ => ::core::panic!(#MISMATCH),
                        }
                        d
                    }
                },
            ),
            impl_for(quote!(#p::HoldsNoFloat), false, quote!()),
        ]
        .into_iter()
        .collect()
    }

    fn zero_tangent(&self) -> TokenStream {
        let c = self.ctx;
        let (name, p, s) = (&c.input.ident, c.p, c.s);
        let bound = quote!(#p::ZeroTangent);
        let preds = c
            .tangent_fields()
            .into_iter()
            .flat_map(|f| field_preds(f, &bound, &c.generic));
        let g = with_preds(c.pgen, preds);
        let (i, ty, w) = g.split_for_impl();
        let (pn, tn) = (self.pname(), self.tname());
        let arms = self.vs.iter().map(|v| {
            let pat = self.pat(&pn, v, "a", true);
            let out = self.shape(&tn, v, &|k, f| {
                let (a, fty) = (bind("a", k), &f.ty);
                match f.kind {
                    Kind::Tangent(_) => quote!(<#fty as #bound>::zero_tangent_in::<#s>(#a)),
                    _ => quote!(#p::NoTangent),
                }
            });
            quote!(#pat => #out,)
        });
        let constant_ref = c.constant_ref(&g);
        quote! {
            #constant_ref
            #[automatically_derived]
            impl #i #bound for #name #ty #w {
                #[inline]
                fn zero_tangent(&self) -> <Self as #p::Differentiable>::Tangent {
                    #bound::zero_tangent_in::<::core::primitive::f64>(self)
                }
                #[inline]
                fn zero_tangent_in<#s: #p::Mode>(
                    &self,
                ) -> <Self as #p::Differentiable>::TangentIn<#s> {
                    match self { #(#arms)* }
                }
            }
        }
    }

    /// `LaneValue` (what a `dyn` call cuts into lanes), variant by variant and field by
    /// field; none for a recursive enum (its `Box<Self>` has no lanes).
    fn lane_value(&self) -> TokenStream {
        let (p, s) = (self.ctx.p, self.ctx.s);
        let tn = self.tname();
        self.ctx.lane_value_impl(|n, f, set| {
            let (bound, t, k, v) = (&n.bound, &n.t, &n.k, &n.v);
            if set {
                let arms = self.vs.iter().map(|var| {
                    let (pa, pb) = (self.pat(&tn, var, "a", true), self.pat(&tn, var, "b", true));
                    let sets = var
                        .fields
                        .clone()
                        .zip(self.fields(var))
                        .filter(|(_, fi)| fi.is_tangent())
                        .map(|(j, fi)| {
                            let (a, b, fty) = (bind("a", j), bind("b", j), &fi.ty);
                            quote!(<#fty as #bound>::#f::<#s>(#a, #k, #b);)
                        });
                    quote!((#pa, #pb) => { #(#sets)* })
                });
                return quote! {
                    #[allow(unreachable_patterns)]
                    match (#t, #v) {
                        #(#arms)*
                        _ => ::core::panic!(#MISMATCH),
                    }
                };
            }
            let arms = self.vs.iter().map(|var| {
                let pat = self.pat(&tn, var, "a", true);
                let out = self.shape(&tn, var, &|j, fi| {
                    let (a, fty) = (bind("a", j), &fi.ty);
                    match fi.kind {
                        Kind::Tangent(_) => quote!(<#fty as #bound>::#f::<#s>(#a, #k)),
                        _ => quote!(#p::NoTangent),
                    }
                });
                quote!(#pat => #out,)
            });
            quote!(match #t { #(#arms)* })
        })
    }

    /// `fwdad::testing::TestTangent`, variant by variant and field by field.
    fn test_tangent(&self) -> TokenStream {
        let c = self.ctx;
        let (name, p) = (&c.input.ident, c.p);
        let tt = quote!(#p::TestTangent);
        let f64_ty = quote!(::core::primitive::f64);
        let (_, ty, _) = c.pgen.split_for_impl();
        let mut preds = vec![pred(
            quote!(#name #ty),
            &quote!(::core::clone::Clone + ::core::fmt::Debug),
            &c.generic,
        )];
        for f in c.infos {
            match f.kind {
                Kind::Tangent(_) => preds.extend(field_preds(f, &tt, &c.generic)),
                Kind::Skip | Kind::Known => preds.push(pred(
                    &f.ty,
                    &quote!(::core::clone::Clone + ::core::cmp::PartialEq),
                    &c.generic,
                )),
                Kind::Phantom => {}
            }
        }
        for t in &c.leaves {
            preds.push(verbatim_pred(
                false,
                t.to_token_stream(),
                quote!(#p::Differentiable<Tangent = <#t as #p::Differentiable>::TangentIn<#f64_ty>>),
            ));
        }
        let g = with_preds(c.pgen, preds);
        let (i, _, w) = g.split_for_impl();

        let mk = |s: &str| Ident::new(s, Span::mixed_site());
        let (rng, t, eps, other, ts, lane_k) = (
            mk("rng"),
            mk("t"),
            mk("eps"),
            mk("other"),
            mk("ts"),
            mk("k"),
        );
        let tangent_fields = c.tangent_fields();
        let tys = tangent_fields.iter().flat_map(|f| {
            if f.recursive {
                f.leaves.iter().collect()
            } else {
                vec![&f.ty]
            }
        });
        let (pn, tn) = (self.pname(), self.tname());
        let no = quote!(#p::NoTangent);
        let each = |f: &dyn Fn(&Variant) -> TokenStream| -> Vec<TokenStream> {
            self.vs.iter().map(f).collect()
        };
        // The primal's variant, built as a tangent: `tangent(a_k, field)` per tangent field.
        let from_primal = |tangent: &dyn Fn(&Ident, &Field) -> TokenStream| {
            each(&|v| {
                let pat = self.pat(&pn, v, "a", true);
                let out = self.shape(&tn, v, &|k, f| match f.kind {
                    Kind::Tangent(_) => tangent(&bind("a", k), f),
                    _ => no.clone(),
                });
                quote!(#pat => #out,)
            })
        };
        let randn = from_primal(&|a, _| quote!(#tt::randn_tangent(#a, #rng)));
        let add = each(&|v| {
            let pa = self.pat(&pn, v, "a", false);
            let pb = self.pat(&tn, v, "b", true);
            let out = self.shape(&pn, v, &|k, f| {
                let (a, b) = (bind("a", k), bind("b", k));
                match f.kind {
                    Kind::Tangent(_) => quote!(#tt::add_to_primal(#a, #b, #eps)),
                    _ => quote!(::core::clone::Clone::clone(#a)),
                }
            });
            quote!((#pa, #pb) => #out,)
        });
        let diff = each(&|v| {
            let pa = self.pat(&pn, v, "a", true);
            let pb = self.pat(&pn, v, "b", true);
            let out = self.shape(&tn, v, &|k, f| match f.kind {
                Kind::Tangent(_) => {
                    let (a, b) = (bind("a", k), bind("b", k));
                    quote!(#tt::diff(#a, #b))
                }
                _ => no.clone(),
            });
            quote!((#pa, #pb) => #out,)
        });
        let bitwise = each(&|v| {
            let pa = self.pat(&pn, v, "a", false);
            let pb = self.pat(&pn, v, "b", false);
            let checks = v.fields.clone().zip(self.fields(v)).filter_map(|(k, f)| {
                let (a, b) = (bind("a", k), bind("b", k));
                match f.kind {
                    Kind::Tangent(_) => Some(quote!(&& #tt::bitwise_eq(#a, #b))),
                    Kind::Known | Kind::Skip => Some(quote!(&& ::core::cmp::PartialEq::eq(#a, #b))),
                    Kind::Phantom => None,
                }
            });
            quote!((#pa, #pb) => true #(#checks)*,)
        });
        let matches = each(&|v| {
            let pa = self.pat(&pn, v, "a", true);
            let pb = self.pat(&tn, v, "b", true);
            let checks = v
                .fields
                .clone()
                .zip(self.fields(v))
                .filter(|(_, f)| f.is_tangent())
                .map(|(k, _)| {
                    let (a, b) = (bind("a", k), bind("b", k));
                    quote!(&& #tt::matches_tangent(#a, #b))
                });
            quote!((#pa, #pb) => true #(#checks)*,)
        });
        // Batched: the variant of the first direction; every direction must share it.
        let batch = each(&|v| {
            let head = self.shape(&tn, v, &|_, _| quote!(_));
            let out = self.shape(&tn, v, &|k, f| match f.kind {
                Kind::Tangent(_) => {
                    let (fty, b) = (&f.ty, bind("b", k));
                    let one = self.pat(&tn, v, "b", true);
                    quote!(<#fty as #tt>::batch_tangent::<__N>(#ts.map(|#t| match #t {
                        #one => #b,
                        _ => ::core::panic!(#MISMATCH),
                    })))
                }
                _ => no.clone(),
            });
            quote!(#head => #out,)
        });
        let lane = each(&|v| {
            let pa = self.pat(&tn, v, "a", true);
            let out = self.shape(&tn, v, &|k, f| match f.kind {
                Kind::Tangent(_) => {
                    let (fty, a) = (&f.ty, bind("a", k));
                    quote!(<#fty as #tt>::lane::<__N>(#a, #lane_k))
                }
                _ => no.clone(),
            });
            quote!(#pa => #out,)
        });
        let tangent = quote!(<Self as #p::Differentiable>::Tangent);
        let batched = quote!(<Self as #p::Differentiable>::TangentIn<#p::Batch<#f64_ty, __N>>);
        quote! {
            #[automatically_derived]
            #[allow(unreachable_patterns)]
            impl #i #tt for #name #ty #w {
                const PRECISION: #p::Precision =
                    #p::Precision::Discrete #(.coarser(<#tys as #tt>::PRECISION))*;
                fn randn_tangent<__R: #p::Rng + ?::core::marker::Sized>(
                    &self,
                    #rng: &mut __R,
                ) -> #tangent {
                    match self { #(#randn)* }
                }
                fn add_to_primal(&self, #t: &#tangent, #eps: #f64_ty) -> Self {
                    match (self, #t) {
                        #(#add)*
                        _ => ::core::panic!(#MISMATCH),
                    }
                }
                fn diff(&self, #other: &Self) -> #tangent {
                    match (self, #other) {
                        #(#diff)*
                        _ => ::core::panic!("fwdad: the value changed variant between the points of a finite difference"),
                    }
                }
                fn bitwise_eq(&self, #other: &Self) -> bool {
                    match (self, #other) {
                        #(#bitwise)*
                        _ => false,
                    }
                }
                fn matches_tangent(&self, #t: &#tangent) -> bool {
                    match (self, #t) {
                        #(#matches)*
                        _ => false,
                    }
                }
                fn batch_tangent<const __N: ::core::primitive::usize>(
                    #ts: [&#tangent; __N],
                ) -> #batched {
                    match #ts[0] { #(#batch)* }
                }
                fn lane<const __N: ::core::primitive::usize>(
                    #t: &#batched,
                    #lane_k: ::core::primitive::usize,
                ) -> #tangent {
                    match #t { #(#lane)* }
                }
            }
        }
    }
}
