//! Float parameters whose tangent may be a type-level zero (`ConstTangent`).
//!
//! A derived rule is generic over the element tangent of each float parameter of a plain
//! shape (`f64`, `&[f64]`, `&[f64; N]`, `[f64; N]`, and the same of `f32`): the mode's
//! tangent, or the runtime's `ConstTangent`, which `Dual::constant(&a[..])` pairs a slice
//! with. Where the body only reads the parameter's elements (or its value) into scalar
//! operations, which accept a constant operand (`Operand::ACTIVE` is then false), and its
//! length, the body itself is generic: monomorphised for a constant, every such operation is
//! the inactive one, the code `inactive(a)` produces. Any other use (a call, a store, a
//! merge, an iterator) needs a dual of the mode, so the rule converts the parameter on entry
//! (`active_slice` and friends: the identity for a tangent of the mode, a zero tangent built
//! for a constant). One body either way: the choice is a type, not a copy.
//!
//! This module decides, per parameter, which of the two the body takes ([`generic_in_body`])
//! and what shape the parameter has ([`shape`]); `derive_frule` emits the signature.

use crate::callee::{MethodCallee, StdMethod};
use crate::dual::{DualPlan, Form, Need};
use crate::ir::{Function, InstKind, Region, Value};
use std::collections::HashSet;

/// The shape of a float parameter whose tangent may be constant.
#[derive(Clone, Debug)]
pub(crate) enum Shape {
    /// `x: f64`.
    Scalar,
    /// `x: &[f64]`.
    Slice,
    /// `x: &[f64; N]`.
    ArrayRef,
    /// `x: [f64; N]`.
    Array,
    /// `m: &dyn Tr` of a trait of the user's: the whole tangent is generic, the trait
    /// object's own (`&NoTangent`) or `DynConst`, what a constant of an implementing type
    /// passed straight to it comes with (`traits::UnsizeFrom` in the runtime).
    DynRef,
    /// `m: Box<dyn Tr>`, as [`Shape::DynRef`].
    DynBox,
}

/// A parameter whose tangent may be constant: its shape and float type (`f64`, `f32`; for
/// a trait object, the trait's name, which nothing reads).
#[derive(Clone, Debug)]
pub(crate) struct ConstParam {
    pub shape: Shape,
    pub float: syn::Ident,
}

impl Shape {
    /// Whether the parameter is a trait object, whose whole tangent is generic.
    pub(crate) fn is_dyn(&self) -> bool {
        matches!(self, Shape::DynRef | Shape::DynBox)
    }
}

/// The trait of `dyn Tr` (one trait, lifetimes, `Send`/`Sync`; no function trait), if
/// `ty` is one.
fn dyn_trait(ty: &syn::Type) -> Option<syn::Ident> {
    let syn::Type::TraitObject(o) = ty else {
        return match ty {
            syn::Type::Paren(p) => dyn_trait(&p.elem),
            _ => None,
        };
    };
    // `+ Send`, `+ Sync`: the trait's expansion gives those objects rules too.
    let auto = |t: &syn::TraitBound| {
        t.path
            .segments
            .last()
            .is_some_and(|s| s.ident == "Send" || s.ident == "Sync")
    };
    let mut traits = o.bounds.iter().filter_map(|b| match b {
        syn::TypeParamBound::Trait(t) if !auto(t) => Some(t),
        _ => None,
    });
    let (t, None) = (traits.next()?, traits.next()) else {
        return None;
    };
    let last = t.path.segments.last()?;
    let function = matches!(last.ident.to_string().as_str(), "Fn" | "FnMut" | "FnOnce");
    (!function && matches!(last.arguments, syn::PathArguments::None)).then(|| last.ident.clone())
}

/// The shape of a `&dyn Tr` or `Box<dyn Tr>` parameter type.
fn dyn_shape(ty: &syn::Type) -> Option<ConstParam> {
    match ty {
        syn::Type::Reference(r) if r.mutability.is_none() => Some(ConstParam {
            shape: Shape::DynRef,
            float: dyn_trait(&r.elem)?,
        }),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                return None;
            };
            match (last.ident == "Box", a.args.len(), a.args.first()) {
                (true, 1, Some(syn::GenericArgument::Type(t))) => Some(ConstParam {
                    shape: Shape::DynBox,
                    float: dyn_trait(t)?,
                }),
                _ => None,
            }
        }
        syn::Type::Paren(p) => dyn_shape(&p.elem),
        _ => None,
    }
}

/// The shape of parameter type `ty`, if it is one of [`Shape`]'s (shared references only).
pub(crate) fn shape(ty: &syn::Type) -> Option<ConstParam> {
    fn float(ty: &syn::Type) -> Option<syn::Ident> {
        match ty {
            syn::Type::Path(p) if p.qself.is_none() => p
                .path
                .get_ident()
                .filter(|id| *id == "f64" || *id == "f32")
                .cloned(),
            syn::Type::Paren(p) => float(&p.elem),
            _ => None,
        }
    }
    if let Some(d) = dyn_shape(ty) {
        return Some(d);
    }
    let (shape, float) = match ty {
        syn::Type::Reference(r) if r.mutability.is_none() => match &*r.elem {
            syn::Type::Slice(s) => (Shape::Slice, float(&s.elem)?),
            syn::Type::Array(a) => (Shape::ArrayRef, float(&a.elem)?),
            _ => return None,
        },
        syn::Type::Array(a) => (Shape::Array, float(&a.elem)?),
        syn::Type::Paren(p) => return shape(&p.elem),
        other => (Shape::Scalar, float(other)?),
    };
    Some(ConstParam { shape, float })
}

/// The type a parameter `&Ty` borrows when `Ty` is a type of the user's or a library's
/// owned value (a path whose name is capitalised and is not a `std` type's nor a library's
/// view, without lifetime arguments,
/// which the entry's bound `RefTangent<Ty>` could not name): a rule's one-direction entry
/// takes its tangent as the value's or as `ConstTangent` (`Dual::constant(&s)`), a zero
/// built on entry (the runtime's `RefTangent`).
pub(crate) fn user_ref(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Reference(r) = ty else {
        return None;
    };
    let syn::Type::Path(p) = &*r.elem else {
        return None;
    };
    let last = p.path.segments.last()?;
    let name = last.ident.to_string();
    const STD: &[&str] = &[
        "String", "Vec", "HashMap", "BTreeMap", "HashSet", "BTreeSet", "VecDeque", "Option",
        "Result", "Box", "Rc", "Arc", "Cell", "RefCell", "Range", "Self",
    ];
    // A lifetime argument (`&Labelled<'_>`) could not be named in the entry's bound.
    let lifetimes = p.path.segments.iter().any(|seg| {
        matches!(&seg.arguments, syn::PathArguments::AngleBracketed(a)
            if a.args.iter().any(|g| matches!(g, syn::GenericArgument::Lifetime(_))))
    });
    // `&Obs` of the file's `struct Obs<'a>`: its lifetime elided, named no better.
    let elided = !lifetimes && crate::source::struct_lifetimes(&name) > 0;
    let user = p.qself.is_none()
        && !lifetimes
        && !elided
        && r.mutability.is_none()
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && !STD.contains(&name.as_str())
        // A library's view borrows (`DVectorView<f64>`, `ArrayView1<f64>`): its lifetime,
        // hidden in the name, could not be named in the entry's bound either.
        && !(crate::libtypes::is_lib_type(&r.elem) && (name.contains("View") || name.contains("Slice")));
    user.then_some(&*r.elem)
}

/// `&Self` of a method given the attribute alone (its entry is inside the user's inherent
/// `impl`, where `Self` is the user's type): the receiver `Ty::m_frule(Dual::constant(&s),
/// ..)` takes as a `#[derive_frule] impl`'s entry does.
pub(crate) fn self_ref(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Reference(r) = ty else {
        return None;
    };
    let syn::Type::Path(p) = &*r.elem else {
        return None;
    };
    (r.mutability.is_none() && p.qself.is_none() && p.path.is_ident("Self")).then_some(&*r.elem)
}

/// `ty` with its float element type replaced by `tangent`: the parameter's tangent type
/// (`&'a [f64]` → `&'a [T]`, `f64` → `T`); a trait object's is `T` whole.
pub(crate) fn tangent_type(ty: &syn::Type, tangent: &syn::Ident) -> syn::Type {
    if dyn_shape(ty).is_some() {
        return syn::Type::Path(syn::TypePath {
            qself: None,
            path: tangent.clone().into(),
        });
    }
    let mut ty = ty.clone();
    fn replace(ty: &mut syn::Type, tangent: &syn::Ident) {
        match ty {
            syn::Type::Reference(r) => replace(&mut r.elem, tangent),
            syn::Type::Slice(s) => replace(&mut s.elem, tangent),
            syn::Type::Array(a) => replace(&mut a.elem, tangent),
            syn::Type::Paren(p) => replace(&mut p.elem, tangent),
            other => {
                *other = syn::Type::Path(syn::TypePath {
                    qself: None,
                    path: tangent.clone().into(),
                })
            }
        }
    }
    replace(&mut ty, tangent);
    ty
}

/// For each parameter, whether the body can take its tangent as the generic element
/// tangent (a `ConstTangent` then costs nothing), rather than converted on entry to the
/// mode's. Only reads feed the body: the parameter's `len`/`is_empty`, its elements read by
/// value or borrowed, each element (or a scalar parameter itself) an operand of scalar
/// rules, and primal reads (comparisons, indices).
pub(crate) fn generic_in_body(func: &Function, plans: &DualPlan) -> Vec<bool> {
    func.params
        .iter()
        .map(|p| !p.inactive && dyn_shape(&p.ty).is_none() && reads_only(func, plans, p.value))
        .collect()
}

fn reads_only(func: &Function, plans: &DualPlan, param: Value) -> bool {
    // The parameter and its elements; grows as element reads are found (an element is
    // defined after its base, so one walk in program order sees it before its uses).
    let mut elems: HashSet<Value> = HashSet::new();
    walk(func, plans, func.body, param, &mut elems)
}

fn walk(
    func: &Function,
    plans: &DualPlan,
    region: Region,
    param: Value,
    elems: &mut HashSet<Value>,
) -> bool {
    for &inst in &func.regions[region].insts {
        let plan = plans.get(inst);
        let kind = &func.insts[inst].kind;
        for (k, v) in func.operands(inst).into_iter().enumerate() {
            let is_param = v == param;
            if !is_param && !elems.contains(&v) {
                continue;
            }
            let need = plan.needs.get(k).copied().unwrap_or(Need::AsIs);
            if need == Need::Primal {
                continue;
            }
            let ok = match (&plan.form, kind) {
                (Form::Op(_), _) => need == Need::AsIs,
                (Form::Index, InstKind::Index { base, .. })
                | (
                    Form::ElemRef,
                    InstKind::ElemRef {
                        base,
                        mutable: false,
                        ..
                    },
                ) if is_param && *base == v && k == 0 => {
                    elems.extend(func.insts[inst].results.iter().copied());
                    true
                }
                (
                    Form::Method,
                    InstKind::MethodCall {
                        receiver,
                        callee: MethodCallee::Std(StdMethod::Len | StdMethod::IsEmpty),
                        ..
                    },
                ) => is_param && *receiver == v,
                _ => false,
            };
            if !ok {
                return false;
            }
        }
        for r in func.inst_regions(inst) {
            if !walk(func, plans, r, param, elems) {
                return false;
            }
        }
    }
    // Yielded, returned, carried to a `break`/`continue`: merged with other duals.
    !func
        .term_operands(region)
        .iter()
        .any(|v| *v == param || elems.contains(v))
}
