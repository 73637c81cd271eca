//! Operators on the user's types (`a + b` of two `Vec3`): which `std::ops` trait each
//! operator calls, and the runtime's tag and primal helper for it (`user_ops::Add`,
//! `user_ops::add`). `lower` emits one as a call whose callee is
//! [`super::PathCallee::UserOp`] when the syntax names a user type for an operand (see
//! `lower/user_ops.rs` and `docs/design.md`, "Operators on user types").

use proc_macro2::Span;

/// An operator that a user type can overload, as the macro calls its rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UserOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Neg,
    AddAssign,
    SubAssign,
    MulAssign,
    DivAssign,
    RemAssign,
    /// `v[i]` read (`Index`): the rule takes `&v` and returns a reference.
    Index,
    /// `v[i] = x`, `v[i] += x` (`IndexMut`): the rule takes `&mut v` and returns a `&mut`
    /// reference, through which the place is written.
    IndexMut,
}

impl UserOp {
    /// The operator's `std::ops` trait, as the user writes it in `impl Add for Vec3`.
    pub fn from_trait(name: &str) -> Option<UserOp> {
        Some(match name {
            "Add" => UserOp::Add,
            "Sub" => UserOp::Sub,
            "Mul" => UserOp::Mul,
            "Div" => UserOp::Div,
            "Rem" => UserOp::Rem,
            "Neg" => UserOp::Neg,
            "AddAssign" => UserOp::AddAssign,
            "SubAssign" => UserOp::SubAssign,
            "MulAssign" => UserOp::MulAssign,
            "DivAssign" => UserOp::DivAssign,
            "RemAssign" => UserOp::RemAssign,
            "Index" => UserOp::Index,
            "IndexMut" => UserOp::IndexMut,
            _ => return None,
        })
    }

    /// The arithmetic operator whose trait method is `name` (`mul` → `Mul`, `mul_assign`
    /// → `MulAssign`, `neg` → `Neg`), for an operator's method called by its name
    /// (`self.mul(other)`); not `index`/`index_mut`.
    pub fn from_method(name: &str) -> Option<UserOp> {
        use UserOp::*;
        [
            Add, Sub, Mul, Div, Rem, Neg, AddAssign, SubAssign, MulAssign, DivAssign, RemAssign,
        ]
        .into_iter()
        .find(|op| op.method_name() == name)
    }

    /// The trait's name (also the runtime's tag type, `user_ops::Add`).
    pub fn trait_name(self) -> &'static str {
        match self {
            UserOp::Add => "Add",
            UserOp::Sub => "Sub",
            UserOp::Mul => "Mul",
            UserOp::Div => "Div",
            UserOp::Rem => "Rem",
            UserOp::Neg => "Neg",
            UserOp::AddAssign => "AddAssign",
            UserOp::SubAssign => "SubAssign",
            UserOp::MulAssign => "MulAssign",
            UserOp::DivAssign => "DivAssign",
            UserOp::RemAssign => "RemAssign",
            UserOp::Index => "Index",
            UserOp::IndexMut => "IndexMut",
        }
    }

    /// The trait's method (also the runtime's primal helper, `user_ops::add`).
    pub fn method_name(self) -> &'static str {
        match self {
            UserOp::Add => "add",
            UserOp::Sub => "sub",
            UserOp::Mul => "mul",
            UserOp::Div => "div",
            UserOp::Rem => "rem",
            UserOp::Neg => "neg",
            UserOp::AddAssign => "add_assign",
            UserOp::SubAssign => "sub_assign",
            UserOp::MulAssign => "mul_assign",
            UserOp::DivAssign => "div_assign",
            UserOp::RemAssign => "rem_assign",
            UserOp::Index => "index",
            UserOp::IndexMut => "index_mut",
        }
    }

    /// `a op= b`: the rule takes `&mut a` and the emitted value is `a` afterwards.
    pub fn is_assign(self) -> bool {
        matches!(
            self,
            UserOp::AddAssign
                | UserOp::SubAssign
                | UserOp::MulAssign
                | UserOp::DivAssign
                | UserOp::RemAssign
        )
    }

    /// `-a`: one operand.
    pub fn is_unary(self) -> bool {
        self == UserOp::Neg
    }

    /// The compound-assignment form of a binary operator (`+` → `+=`).
    pub fn assign_form(self) -> Option<UserOp> {
        Some(match self {
            UserOp::Add => UserOp::AddAssign,
            UserOp::Sub => UserOp::SubAssign,
            UserOp::Mul => UserOp::MulAssign,
            UserOp::Div => UserOp::DivAssign,
            UserOp::Rem => UserOp::RemAssign,
            _ => return None,
        })
    }

    /// The runtime's tag type, at `span`.
    pub fn tag(self, span: Span) -> syn::Ident {
        syn::Ident::new(self.trait_name(), span)
    }

    /// The runtime's primal helper, at `span`.
    pub fn helper(self, span: Span) -> syn::Ident {
        match self {
            UserOp::Index => syn::Ident::new("index_primal", span),
            UserOp::IndexMut => syn::Ident::new("index_mut_primal", span),
            _ => syn::Ident::new(self.method_name(), span),
        }
    }
}

/// Whether `path` is `Ty::new`, the constructor a type of the user's is read to return
/// (`Linspace::new(a, b, n)` iterated by a `for` loop).
pub fn is_constructor_name(path: &syn::Path) -> bool {
    path.segments.last().is_some_and(|s| s.ident == "new")
}

/// Whether `path` names a type of the user's: capitalised (`Vec3`, `geom::Vec3<T>`), not
/// `Self` (already replaced by the impl's type) and not a `std` scalar or text type.
pub fn names_user_type(path: &syn::Path) -> bool {
    let Some(last) = path.segments.last() else {
        return false;
    };
    // A path through `std`/`core`/`alloc` (`::core::convert::Into`) is never the user's.
    let std_path = path
        .segments
        .first()
        .is_some_and(|s| matches!(s.ident.to_string().as_str(), "std" | "core" | "alloc"));
    super::is_capitalised(&last.ident.to_string())
        && last.ident != "Self"
        && !std_path
        && !super::is_float_trait(&last.ident.to_string())
        && !matches!(
            super::StdType::of_path(path).map(|t| t.class()),
            Some(
                super::TypeClass::Float
                    | super::TypeClass::Int
                    | super::TypeClass::Bool
                    | super::TypeClass::Text
            )
        )
}

/// Whether `path` is the implementing type of a trait's default method, as
/// `crate::traits` lowers it (`__FwdadSelf`).
pub fn is_trait_self_param(path: &syn::Path) -> bool {
    path.is_ident("__FwdadSelf")
}

/// The `T` of `Box<T>`.
pub fn boxed_type(path: &syn::Path) -> Option<&syn::Type> {
    let last = path.segments.last()?;
    if last.ident != "Box" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => match a.args.first()? {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a trait object is of a trait of the user's (`dyn Material`), not a function
/// trait (`dyn Fn(f64) -> f64`).
pub fn names_user_trait_object(t: &syn::TypeTraitObject) -> bool {
    t.bounds.iter().any(|b| {
        matches!(b, syn::TypeParamBound::Trait(tb) if crate::traits::is_user_trait(&tb.path)
            && !tb.path.segments.last().is_some_and(|s| matches!(s.ident.to_string().as_str(), "Fn" | "FnMut" | "FnOnce")))
    })
}

/// `&dyn Tr`, `&mut dyn Tr` or `Box<dyn Tr>` of a trait of the user's (not `dyn Fn`).
pub fn is_user_trait_object(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => is_user_trait_object(&r.elem),
        syn::Type::Paren(p) => is_user_trait_object(&p.elem),
        syn::Type::Group(g) => is_user_trait_object(&g.elem),
        syn::Type::TraitObject(t) => names_user_trait_object(t),
        syn::Type::Path(p) if p.qself.is_none() => boxed_type(&p.path).is_some_and(
            |inner| matches!(inner, syn::Type::TraitObject(t) if names_user_trait_object(t)),
        ),
        _ => false,
    }
}

/// The trait object of the user's a type boxes, anywhere in it (`dyn Sdf` in
/// `Vec<Box<dyn Sdf>>`, `[Box<dyn Sdf>; 2]`, `Box<dyn Sdf + Send>`).
pub fn boxed_user_trait_object(ty: &syn::Type) -> Option<&syn::Type> {
    match ty {
        syn::Type::Reference(r) => boxed_user_trait_object(&r.elem),
        syn::Type::Paren(p) => boxed_user_trait_object(&p.elem),
        syn::Type::Group(g) => boxed_user_trait_object(&g.elem),
        syn::Type::Array(a) => boxed_user_trait_object(&a.elem),
        syn::Type::Slice(s) => boxed_user_trait_object(&s.elem),
        syn::Type::Tuple(t) => t.elems.iter().find_map(boxed_user_trait_object),
        syn::Type::Path(p) if p.qself.is_none() => {
            if let Some(inner @ syn::Type::TraitObject(t)) = boxed_type(&p.path) {
                return names_user_trait_object(t).then_some(inner);
            }
            let last = p.path.segments.last()?;
            match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                    syn::GenericArgument::Type(t) => boxed_user_trait_object(t),
                    _ => None,
                }),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `get_unchecked`, `get_unchecked_mut`: indexing without the bounds check (`unsafe`).
pub fn is_unchecked_index(name: &str) -> bool {
    matches!(name, "get_unchecked" | "get_unchecked_mut")
}

/// Whether a method named `name` can only be the user's: no float rule and no `std` row
/// has that name.
pub fn is_user_method_name(name: &str) -> bool {
    super::FloatOp::method(name).is_none()
        && super::StdMethod::from_name(name).is_none()
        && super::Adaptor::from_name(name).is_none()
        && super::Consumer::from_name(name).is_none()
}

/// Whether `recv.name(..)` on a value whose type is written as the user's is the user's
/// method: every name but the few that every type has from `std`'s traits (`clone`,
/// `to_owned`, `into`, `as_ref`, `to_string`, comparisons and the float predicates).
pub fn is_user_method_on_user_type(name: &str) -> bool {
    !matches!(
        name,
        "clone"
            | "clone_from"
            | "to_owned"
            | "into"
            | "try_into"
            | "as_ref"
            | "as_mut"
            | "borrow"
            | "borrow_mut"
            | "to_string"
            | "eq"
            | "ne"
            | "partial_cmp"
            | "cmp"
            | "lt"
            | "le"
            | "gt"
            | "ge"
            | "hash"
            | "fmt"
    )
}

/// Whether `recv.name()` (no arguments) makes a guard whose drop ends a borrow or a lock:
/// `RefCell`'s `borrow`, `borrow_mut` and their `try_` forms, `Mutex`'s and `RwLock`'s
/// `lock`, `read`, `write` and theirs. The rule drops such a temporary where the user's
/// statement ends, and one the user binds where the user's block ends, as Rust does.
pub fn is_guard_method(name: &syn::Ident, args: usize) -> bool {
    args == 0
        && matches!(
            name.to_string().as_str(),
            "borrow"
                | "borrow_mut"
                | "try_borrow"
                | "try_borrow_mut"
                | "lock"
                | "try_lock"
                | "read"
                | "write"
                | "try_read"
                | "try_write"
        )
}

/// Whether a method of the user's named `name` shares its name with a `std` method (not a
/// float one, nor one every type has): where the macro cannot see a receiver's type, such
/// a call is read as the `std` method, and the runtime's `ShadowsStd` then names the
/// user's type in the error.
pub fn is_std_named_user_method(name: &str) -> bool {
    !is_user_method_name(name)
        && super::FloatOp::method(name).is_none()
        && is_user_method_on_user_type(name)
}

/// The method name as the runtime's `ShadowsStd<NAME>` and `StdProbe<_, NAME>` carry it
/// (64-bit FNV-1a: the same on both sides of a call, whichever crate each is in).
pub fn std_name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::UserOp;

    #[test]
    fn traits_and_methods_round_trip() {
        for name in [
            "Add",
            "Sub",
            "Mul",
            "Div",
            "Rem",
            "Neg",
            "AddAssign",
            "SubAssign",
            "MulAssign",
            "DivAssign",
            "RemAssign",
        ] {
            let op = UserOp::from_trait(name).expect("an operator trait");
            assert_eq!(op.trait_name(), name);
            assert_eq!(op.is_assign(), name.ends_with("Assign"));
        }
        assert_eq!(UserOp::from_trait("IndexMut"), Some(UserOp::IndexMut));
        assert_eq!(UserOp::from_trait("Deref"), None);
        assert_eq!(UserOp::Add.assign_form(), Some(UserOp::AddAssign));
        assert_eq!(UserOp::Mul.method_name(), "mul");
        for user in ["len", "push", "sum", "max", "pow", "sqrt", "energy"] {
            assert!(super::is_user_method_on_user_type(user), "{user}");
        }
        for every_type in ["clone", "to_owned", "into", "to_string", "partial_cmp"] {
            assert!(
                !super::is_user_method_on_user_type(every_type),
                "{every_type}"
            );
        }
    }
}
