//! `let mut prev = None;` without a type, given one by the float a later `prev = Some(x)`
//! stores.
//!
//! ```text
//! let mut prev = None;                       // let mut prev: Option<f64> = None;
//! for &x in xs {
//!     if let Some(p) = prev.take() { acc += (x - p) * (x - p); }
//!     prev = Some(x);
//! }
//! ```
//!
//! Rust infers the plain function's `Option<f64>` from the assignment after the loop body
//! has read the value; the rule reads the dual's parts where the value is first taken
//! (`take()`, a `match`), before the assignment that would tell rustc their types, so
//! without the type written it is E0282. The type is the function's float (`f64`, `f32`
//! of a function whose parameters are `f32`, or its float type parameter).

use super::Lowerer;
use crate::callee::{PathCallee, Wrapper};
use crate::ir::{InstKind, Value, ValueDef};
use crate::types::TypeHint;

impl Lowerer<'_> {
    /// `name` is bound to `value` (a `let`, a pattern): remembered when it is an untyped
    /// `None` (`let mut prev = None;`), forgotten when it shadows one.
    pub(crate) fn note_untyped_none(&mut self, name: &syn::Ident, value: Value) {
        let text = name.to_string();
        self.untyped_nones.retain(|(n, _, _)| *n != text);
        if self.func.annotations.contains_key(&value) {
            return;
        }
        let ValueDef::Inst(inst, 0) = self.func.values[value].def else {
            return;
        };
        let InstKind::Const(path) = &self.func.insts[inst].kind else {
            return;
        };
        if !crate::callee::is_none(path) {
            return;
        }
        if let Some(place) = self.find(&text) {
            self.untyped_nones.push((text, place, value));
        }
    }

    /// `name = new` (a local assigned): when `name` is an untyped `None` bound by a `let`
    /// and `new` is `Some(x)` of a float, the `let` is given the type `Option<float>`.
    #[inline(never)]
    pub(crate) fn type_untyped_none(&mut self, name: &str, new: Value) {
        let Some(place) = self.find(name) else {
            return;
        };
        let Some(&(_, _, declared)) = self
            .untyped_nones
            .iter()
            .find(|(n, p, _)| n == name && *p == place)
        else {
            return;
        };
        let ValueDef::Inst(inst, 0) = self.func.values[new].def else {
            return;
        };
        let InstKind::Call { func, args, .. } = &self.func.insts[inst].kind else {
            return;
        };
        let some = PathCallee::resolve(func, args.len()) == PathCallee::Wrap(Wrapper::Some);
        if !some || args.len() != 1 || self.func.values[args[0]].ty != TypeHint::Float {
            return;
        }
        if self.func.annotations.contains_key(&declared) {
            return;
        }
        let span = self.func.insts[inst].span;
        let Some(float) = self
            .written_float(args[0], span)
            .or_else(|| self.scalar_type(span))
        else {
            return;
        };
        let ty = syn::Type::Path(syn::TypePath {
            qself: None,
            path: syn::Path {
                leading_colon: Some(Default::default()),
                segments: ["core", "option"]
                    .iter()
                    .map(|s| syn::PathSegment::from(syn::Ident::new(s, span)))
                    .chain(std::iter::once(syn::PathSegment {
                        ident: syn::Ident::new("Option", span),
                        arguments: syn::PathArguments::AngleBracketed(
                            syn::AngleBracketedGenericArguments {
                                colon2_token: None,
                                lt_token: Default::default(),
                                args: std::iter::once(syn::GenericArgument::Type(float)).collect(),
                                gt_token: Default::default(),
                            },
                        ),
                    }))
                    .collect(),
            },
        });
        self.func.annotations.insert(declared, ty);
    }

    /// The float type written where `v` comes from: a cast (`x as f64`), or a parameter
    /// of floats (`xs: &[f32]`) read through copies, dereferences and indexing.
    fn written_float(&self, v: Value, span: proc_macro2::Span) -> Option<syn::Type> {
        let ty = match self.func.values[v].def {
            ValueDef::Param(i) => &self.func.params[i].ty,
            ValueDef::Inst(inst, 0) => match &self.func.insts[inst].kind {
                InstKind::Cast { ty, .. } => ty,
                InstKind::Copy(a)
                | InstKind::Unary {
                    op: crate::ir::UnOp::Deref,
                    arg: a,
                }
                | InstKind::Index { base: a, .. }
                | InstKind::ElemRef { base: a, .. } => return self.written_float(*a, span),
                _ => return None,
            },
            _ => return None,
        };
        let floats: Vec<String> = ["f64", "f32"]
            .into_iter()
            .map(str::to_string)
            .chain(self.func.float_params.iter().map(|t| t.to_string()))
            .filter(|f| mentions_ident(ty, f))
            .collect();
        match floats.as_slice() {
            [f] => Some(syn::Type::Path(syn::TypePath {
                qself: None,
                path: syn::Ident::new(f, span).into(),
            })),
            _ => None,
        }
    }

    /// The function's float type: its float type parameter (`T`), `f32` when its
    /// parameters name `f32` and not `f64`, else `f64`; `None` (the `let` left untyped)
    /// when its parameters name two float types, or a float type parameter beside one.
    fn scalar_type(&self, span: proc_macro2::Span) -> Option<syn::Type> {
        let names = |f: &str| self.func.params.iter().any(|p| mentions_ident(&p.ty, f));
        let (f32, f64) = (names("f32"), names("f64"));
        let ident = match self.func.float_params.as_slice() {
            [t] if !f32 && !f64 => t.clone(),
            [] if !(f32 && f64) => syn::Ident::new(if f32 { "f32" } else { "f64" }, span),
            _ => return None,
        };
        Some(syn::Type::Path(syn::TypePath {
            qself: None,
            path: ident.into(),
        }))
    }
}

/// Whether `ty` names the identifier `name` anywhere (`&[f32]`, `[[f32; 3]]`).
fn mentions_ident(ty: &syn::Type, name: &str) -> bool {
    struct Find<'a>(&'a str, bool);
    impl<'ast> syn::visit::Visit<'ast> for Find<'_> {
        fn visit_ident(&mut self, i: &'ast syn::Ident) {
            self.1 |= i == self.0;
        }
    }
    let mut f = Find(name, false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.1
}
