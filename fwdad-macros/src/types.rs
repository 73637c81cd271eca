//! What the syntax tells about a value's type, for activity analysis.
//!
//! A proc macro sees no types, only the tokens: parameter types, `let` annotations, `as`
//! targets, literals. That is enough to know that `n: usize`, `x.len()`, `i as usize` and
//! `a < b` can never carry a tangent, so they stay plain primal Rust (Slang's
//! propagation: only values that depend on an active input *and* can hold a derivative
//! are active). Everything not known is `Unknown`, and treated as possibly differentiable.

use crate::callee::{StdType, TypeClass};
/// A value's type as far as the syntax tells.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeHint {
    /// `f32`/`f64` (or a float literal).
    Float,
    /// An integer type or integer literal.
    Int,
    /// `bool`.
    Bool,
    /// Some other type without a tangent: `char`, `String`, `&str`, `()`.
    NonDiff,
    /// A tuple of these.
    Tuple(Vec<TypeHint>),
    /// A slice, array or `Vec` of these.
    Seq(Box<TypeHint>),
    /// A reference to this.
    Ref(Box<TypeHint>),
    /// A range of integers.
    Range,
    /// A `HashMap`/`BTreeMap` whose keys carry no tangent and whose values hold floats
    /// (`HashMap<usize, f64>`): looked up by key and iterated by its own iterator, never
    /// by position. Its key and value types.
    Map(Box<TypeHint>, Box<TypeHint>),
    /// Not known.
    Unknown,
}

impl TypeHint {
    /// Reads a written type.
    pub fn from_type(ty: &syn::Type) -> TypeHint {
        match ty {
            syn::Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else {
                    return TypeHint::Unknown;
                };
                let Some(known) = StdType::of_path(&p.path) else {
                    return TypeHint::Unknown;
                };
                match known.class() {
                    TypeClass::Float => TypeHint::Float,
                    TypeClass::Int => TypeHint::Int,
                    TypeClass::Bool => TypeHint::Bool,
                    TypeClass::Text => TypeHint::NonDiff,
                    TypeClass::Container => match &last.arguments {
                        syn::PathArguments::AngleBracketed(a) => match a.args.first() {
                            Some(syn::GenericArgument::Type(t)) if known == StdType::Vec => {
                                TypeHint::Seq(Box::new(TypeHint::from_type(t)))
                            }
                            _ => TypeHint::Unknown,
                        },
                        _ => TypeHint::Unknown,
                    },
                    TypeClass::Keyed | TypeClass::Queue => keyed_collection(known, last),
                }
            }
            syn::Type::Tuple(t) if t.elems.is_empty() => TypeHint::NonDiff,
            syn::Type::Tuple(t) => {
                TypeHint::Tuple(t.elems.iter().map(TypeHint::from_type).collect())
            }
            syn::Type::Array(a) => TypeHint::Seq(Box::new(TypeHint::from_type(&a.elem))),
            syn::Type::Slice(s) => TypeHint::Seq(Box::new(TypeHint::from_type(&s.elem))),
            syn::Type::Reference(r) => TypeHint::Ref(Box::new(TypeHint::from_type(&r.elem))),
            syn::Type::Paren(p) => TypeHint::from_type(&p.elem),
            syn::Type::Group(g) => TypeHint::from_type(&g.elem),
            _ => TypeHint::Unknown,
        }
    }

    /// Whether a value of this type can never carry a tangent.
    pub fn is_non_differentiable(&self) -> bool {
        match self {
            TypeHint::Int | TypeHint::Bool | TypeHint::NonDiff | TypeHint::Range => true,
            TypeHint::Float | TypeHint::Unknown | TypeHint::Map(..) => false,
            TypeHint::Tuple(ts) => ts.iter().all(TypeHint::is_non_differentiable),
            TypeHint::Seq(t) | TypeHint::Ref(t) => t.is_non_differentiable(),
        }
    }

    /// The type of `self.member`, when known.
    pub fn field(&self, member: &syn::Member) -> TypeHint {
        match (self.deref_all(), member) {
            (TypeHint::Tuple(ts), syn::Member::Unnamed(i)) => ts
                .get(i.index as usize)
                .cloned()
                .unwrap_or(TypeHint::Unknown),
            _ => TypeHint::Unknown,
        }
    }

    /// The element type of `self[i]`, when known.
    pub fn element(&self) -> TypeHint {
        match self.deref_all() {
            TypeHint::Seq(t) => (**t).clone(),
            _ => TypeHint::Unknown,
        }
    }

    /// `*self`.
    pub fn deref(&self) -> TypeHint {
        match self {
            TypeHint::Ref(t) => (**t).clone(),
            _ => TypeHint::Unknown,
        }
    }

    /// The type behind any references.
    pub fn deref_all_pub(&self) -> &TypeHint {
        self.deref_all()
    }

    fn deref_all(&self) -> &TypeHint {
        match self {
            TypeHint::Ref(t) => t.deref_all(),
            other => other,
        }
    }

    /// The type of a literal.
    pub fn of_lit(lit: &syn::Lit) -> TypeHint {
        match lit {
            syn::Lit::Float(_) => TypeHint::Float,
            syn::Lit::Int(i) => match i.suffix() {
                "f32" | "f64" => TypeHint::Float,
                _ => TypeHint::Int,
            },
            syn::Lit::Bool(_) => TypeHint::Bool,
            _ => TypeHint::NonDiff,
        }
    }

    /// A short name for the IR printer.
    pub fn short(&self) -> String {
        match self {
            TypeHint::Float => "float".into(),
            TypeHint::Int => "int".into(),
            TypeHint::Bool => "bool".into(),
            TypeHint::NonDiff => "nondiff".into(),
            TypeHint::Range => "range".into(),
            TypeHint::Unknown => "?".into(),
            TypeHint::Tuple(ts) => {
                format!(
                    "({})",
                    ts.iter()
                        .map(TypeHint::short)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            TypeHint::Seq(t) => format!("[{}]", t.short()),
            TypeHint::Ref(t) => format!("&{}", t.short()),
            TypeHint::Map(k, v) => format!("map<{}, {}>", k.short(), v.short()),
        }
    }
}

/// A map or set of `std::collections` (`HashMap<(i64, i64), Vec<usize>>`, a cell list) whose
/// keys and values cannot carry a tangent: a value without one, iterated by its own
/// iterator, never by position. A map of keys without a tangent to values holding floats
/// is a [`TypeHint::Map`]; of float keys, or of types not written, it is not known.
fn keyed_collection(known: StdType, last: &syn::PathSegment) -> TypeHint {
    let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
        return TypeHint::Unknown;
    };
    let types: Vec<TypeHint> = a
        .args
        .iter()
        .filter_map(|g| match g {
            syn::GenericArgument::Type(t) => Some(TypeHint::from_type(t)),
            _ => None,
        })
        .collect();
    if types.iter().all(TypeHint::is_non_differentiable) {
        return TypeHint::NonDiff;
    }
    match (known, &types[..]) {
        (StdType::HashMap | StdType::BTreeMap, [k, v, ..])
            if k.is_non_differentiable() && !matches!(k, TypeHint::Unknown) =>
        {
            TypeHint::Map(Box::new(k.clone()), Box::new(v.clone()))
        }
        _ => TypeHint::Unknown,
    }
}

/// The element type `T` of a borrowed sequence `&[T]`, `&[T; N]` or `&Vec<T>`, when it
/// is one name.
pub(crate) fn borrowed_sequence_elem(ty: &syn::Type) -> Option<syn::Ident> {
    let syn::Type::Reference(r) = ty else {
        return None;
    };
    let elem = match &*r.elem {
        syn::Type::Slice(s) => &*s.elem,
        syn::Type::Array(a) => &*a.elem,
        syn::Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let seg = &p.path.segments[0];
            match &seg.arguments {
                syn::PathArguments::AngleBracketed(a) if seg.ident == "Vec" => {
                    match a.args.first() {
                        Some(syn::GenericArgument::Type(t)) => t,
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    match elem {
        syn::Type::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
        _ => None,
    }
}

/// A map or set of `std::collections` holding floats whose keys are not known to carry
/// no tangent (`BTreeMap<(Knot, usize), f64>` with a type of the user's, which may hold a
/// float): its type, for the error that says which keys are supported (a key is looked
/// up, never differentiated). A map of discrete keys to floats (`HashMap<usize, f64>`) is
/// a [`TypeHint::Map`].
pub fn map_of_floats(ty: &syn::Type) -> Option<&syn::Type> {
    let floats = collection_of_floats(ty, TypeClass::Keyed)?;
    match TypeHint::from_type(ty) {
        TypeHint::Map(..) => None,
        _ => Some(floats),
    }
}

/// A queue of `std::collections` holding floats (`VecDeque<f64>`): its type, for the
/// error that says to use a `Vec` (a queue has no tangent type).
pub fn queue_of_floats(ty: &syn::Type) -> Option<&syn::Type> {
    collection_of_floats(ty, TypeClass::Queue)
}

/// Another crate's inline vector holding floats (`ArrayVec<f64, 3>`, `SmallVec<[f64; 4]>`),
/// or a reference to one: its type, for the error that says to use a `Vec` (it has no
/// tangent type).
pub fn inline_vec_of_floats(ty: &syn::Type) -> Option<&syn::Type> {
    let p = match ty {
        syn::Type::Reference(r) => return inline_vec_of_floats(&r.elem),
        syn::Type::Path(p) if crate::callee::is_inline_vec(&p.path) => p,
        _ => return None,
    };
    let syn::PathArguments::AngleBracketed(a) = &p.path.segments.last()?.arguments else {
        return None;
    };
    a.args
        .iter()
        .any(|g| matches!(g, syn::GenericArgument::Type(t) if holds_float(&TypeHint::from_type(t))))
        .then_some(ty)
}

/// `std`'s traits whose objects carry no floats of the user's: `Rc<dyn Fn(f64) -> f64>`
/// and `Arc<dyn Error + Send + Sync>` (data in a `Result`) are not [`rc_of_trait_object`].
const STD_OBJECT_TRAITS: &[&str] = &[
    "Fn", "FnMut", "FnOnce", "Error", "Any", "Debug", "Display", "Send", "Sync",
];

/// An `Rc<dyn Trait>` or `Arc<dyn Trait>` of a trait other than those,
/// anywhere in `ty` (`Vec<Rc<dyn Layer>>`, `&[Arc<dyn Layer>]`, `Option<Rc<dyn Layer>>`):
/// the `Rc`/`Arc` type, for the error that says to box the objects (a shared trait object
/// carries no derivative, a boxed one does).
pub fn rc_of_trait_object(ty: &syn::Type) -> Option<&syn::Type> {
    match ty {
        syn::Type::Reference(r) => rc_of_trait_object(&r.elem),
        syn::Type::Slice(s) => rc_of_trait_object(&s.elem),
        syn::Type::Array(a) => rc_of_trait_object(&a.elem),
        syn::Type::Paren(p) => rc_of_trait_object(&p.elem),
        syn::Type::Group(g) => rc_of_trait_object(&g.elem),
        syn::Type::Tuple(t) => t.elems.iter().find_map(rc_of_trait_object),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                return None;
            };
            let types = a.args.iter().filter_map(|g| match g {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            });
            if last.ident == "Rc" || last.ident == "Arc" {
                let object = |t: &syn::Type| match t {
                    syn::Type::TraitObject(o) => o.bounds.iter().any(|b| {
                        matches!(b, syn::TypeParamBound::Trait(tb)
                        if tb.path.segments.last().is_some_and(|s| {
                            !STD_OBJECT_TRAITS.contains(&s.ident.to_string().as_str())
                                && matches!(s.arguments, syn::PathArguments::None)
                        }))
                    }),
                    _ => false,
                };
                return types.into_iter().next().filter(|t| object(t)).map(|_| ty);
            }
            types.into_iter().find_map(rc_of_trait_object)
        }
        _ => None,
    }
}

/// The error at an `Rc<dyn Trait>` or `Arc<dyn Trait>` ([`rc_of_trait_object`]).
pub fn rc_of_trait_object_error(rc: &syn::Type) -> String {
    let text = quote::ToTokens::to_token_stream(rc)
        .to_string()
        .replace(" < ", "<")
        .replace(" >", ">")
        .replace("< ", "<");
    let (holder, object) = match rc {
        syn::Type::Path(p) => {
            let last = p.path.segments.last();
            let holder = last.map(|s| s.ident.to_string()).unwrap_or_default();
            let object = match last.map(|s| &s.arguments) {
                Some(syn::PathArguments::AngleBracketed(a)) => match a.args.first() {
                    Some(syn::GenericArgument::Type(t)) => quote::ToTokens::to_token_stream(t)
                        .to_string()
                        .replace(" < ", "<")
                        .replace(" >", ">"),
                    _ => String::new(),
                },
                _ => String::new(),
            };
            (holder, object)
        }
        _ => (String::new(), String::new()),
    };
    // `&(dyn Layer + Send)`: a reference to an object with more than one bound.
    let lent = match object.contains('+') {
        true => format!("&({object})"),
        false => format!("&{object}"),
    };
    format!(
        "`#[derive_frule]` does not support `{text}`: a trait object shared by reference counting (`{holder}`) has no tangent type, so the derivative of what the object holds would be lost; box the objects instead (`Vec<Box<{object}>>`, built with `Box::new(..)` and lent on as `&layers`), or lend them as `{lent}`"
    )
}

/// `ty` if it names a `std` collection of `class` with a type argument holding a float.
fn collection_of_floats(ty: &syn::Type, class: TypeClass) -> Option<&syn::Type> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    let known = StdType::of_path(&p.path)?;
    let syn::PathArguments::AngleBracketed(a) = &p.path.segments.last()?.arguments else {
        return None;
    };
    let floats = a.args.iter().any(|g| match g {
        syn::GenericArgument::Type(t) => holds_float(&TypeHint::from_type(t)),
        _ => false,
    });
    (known.class() == class && floats).then_some(ty)
}

fn holds_float(t: &TypeHint) -> bool {
    match t {
        TypeHint::Float => true,
        TypeHint::Tuple(ts) => ts.iter().any(holds_float),
        TypeHint::Seq(t) | TypeHint::Ref(t) => holds_float(t),
        _ => false,
    }
}

/// The trait object `dyn Tr` of a type `Box<dyn Tr>` (written with any path to `Box`).
pub(crate) fn boxed_trait_object(ty: &syn::Type) -> Option<&syn::TypeTraitObject> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    if p.qself.is_some()
        || !matches!(
            crate::callee::StdType::of_path(&p.path),
            Some(crate::callee::StdType::Box)
        )
    {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &p.path.segments.last()?.arguments else {
        return None;
    };
    a.args.iter().find_map(|g| match g {
        syn::GenericArgument::Type(syn::Type::TraitObject(o)) => Some(o),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::TypeHint;

    fn hint(s: &str) -> TypeHint {
        TypeHint::from_type(&syn::parse_str(s).expect("type parses"))
    }

    #[test]
    fn reads_written_types() {
        assert_eq!(hint("f64"), TypeHint::Float);
        assert_eq!(hint("&[usize]").element(), TypeHint::Int);
        assert!(hint("&[usize]").is_non_differentiable());
        assert!(!hint("&mut [f64]").is_non_differentiable());
        assert!(hint("(usize, bool)").is_non_differentiable());
        assert!(!hint("(usize, f64)").is_non_differentiable());
        assert!(!hint("Params").is_non_differentiable());
        assert_eq!(hint("Vec<f32>").element(), TypeHint::Float);
        assert_eq!(hint("HashMap<(i64, i64), Vec<usize>>"), TypeHint::NonDiff);
        assert_eq!(hint("BTreeSet<usize>"), TypeHint::NonDiff);
        assert_eq!(
            hint("HashMap<usize, f64>"),
            TypeHint::Map(Box::new(TypeHint::Int), Box::new(TypeHint::Float))
        );
        assert_eq!(hint("BTreeMap<f64, f64>"), TypeHint::Unknown);
        assert_eq!(hint("HashMap<K, f64>"), TypeHint::Unknown);
        let ty = |s: &str| syn::parse_str::<syn::Type>(s).expect("type parses");
        assert!(super::map_of_floats(&ty("HashMap<usize, f64>")).is_none());
        assert!(super::map_of_floats(&ty("BTreeMap<(i64, i64), Vec<f32>>")).is_none());
        assert!(super::map_of_floats(&ty("HashSet<(i64, f64)>")).is_some());
        assert!(super::map_of_floats(&ty("BTreeMap<(f64, usize), f64>")).is_some());
        assert!(super::map_of_floats(&ty("HashMap<(i64, i64), Vec<usize>>")).is_none());
        assert!(super::map_of_floats(&ty("Vec<f64>")).is_none());
    }

    #[test]
    fn finds_shared_trait_objects() {
        let ty = |s: &str| -> syn::Type { syn::parse_str(s).expect("type parses") };
        let found = |s: &str| super::rc_of_trait_object(&ty(s)).is_some();
        assert!(found("Vec<Rc<dyn Layer>>"));
        assert!(found("&[std::sync::Arc<dyn Layer + Send + Sync>]"));
        assert!(found("Option<Rc<dyn Layer>>"));
        assert!(!found("Vec<Box<dyn Layer>>"));
        assert!(!found("Rc<dyn Fn(f64) -> f64>"));
        assert!(!found("Rc<dyn Fn(f64) -> f64 + Send>"));
        assert!(!found("Result<f64, Arc<dyn Error + Send + Sync>>"));
        assert!(!found("Rc<Vec<f64>>"));
    }
}
