//! `callee`: the one registry of the names the macro knows.
//!
//! A proc macro sees no types, so it must know what every `std` name means: which float
//! operations have a runtime rule (and of what shape), which methods of slices, `Vec`,
//! `Option`, iterators and integers exist and how they treat their receiver and
//! arguments, which iterator adaptors and consumers the chains support, which macros and
//! `std` paths have a lowering of their own. That knowledge lives here and nowhere else:
//! one row per name.
//!
//! `lower` resolves each method call and each call by path exactly once, with
//! [`MethodCallee`] and [`PathCallee`], and stores the result in the IR
//! ([`crate::ir::InstKind::MethodCall`], [`crate::ir::InstKind::Call`]); the printer shows it
//! (`method v0.sin() [float sin]`). Every later pass matches on those enums and on the
//! rows' properties; none compares a name with a string. Adding a `std` method is one row
//! in [`methods`] plus its runtime rule.
//!
//! The registry depends on nothing but `syn` and [`crate::types`]; passes depend on it.

mod float;
mod iter;
mod macros;
mod methods;
mod ops;
mod paths;
mod types;

pub use float::{FloatOp, Shape};
pub use iter::{
    Adaptor, BoolThen, Consumer, DequeFn, IterFn, Itertools, PartialRead, PeekableFn, Rewrite,
};
pub use macros::{is_runtime_fail, StdMacro};
pub use methods::{ArgUse, StdMethod};
pub use ops::{
    boxed_type, boxed_user_trait_object, is_constructor_name, is_guard_method,
    is_std_named_user_method, is_trait_self_param, is_unchecked_index, is_user_method_name,
    is_user_method_on_user_type, is_user_trait_object, names_user_trait_object, names_user_type,
    std_name_hash, UserOp,
};
pub use paths::{
    array_from_fn_rule, clone_or_identity, float_from, float_from_bits_width, float_has_trait,
    float_into_path, float_path_call, is_box_new, is_capitalised, is_empty_vec_ctor, is_err,
    is_euclid_path, is_float_conversion_name, is_float_from_bits, is_float_to_bits, is_float_trait,
    is_none, is_numcast, is_process_exit, is_std_float_method_without_rule, is_std_sequence_method,
    is_tuple_ctor, is_vec_from, is_vec_type, map_ctor, variant_type, AssocCall, CloneOrIdentity,
    MapCtor, PathCallee, Wrapper,
};
pub use types::{is_inline_vec, StdType, TypeClass};

/// Defines a `Copy` enum whose variants are named by string literals, with `name()`,
/// `from_name()` and `ALL`.
macro_rules! names {
    ($(#[$m:meta])* $vis:vis enum $E:ident { $($(#[$vm:meta])* $V:ident = $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $E { $($(#[$vm])* $V),* }
        #[allow(dead_code)]
        impl $E {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$E] = &[$($E::$V),*];
            /// The name as written in Rust source.
            pub fn name(self) -> &'static str {
                match self { $($E::$V => $s),* }
            }
            /// The variant named `name`, if there is one.
            pub fn from_name(name: &str) -> Option<Self> {
                match name { $($s => Some($E::$V),)* _ => None }
            }
            /// The name as an identifier at `span`.
            pub fn ident(self, span: proc_macro2::Span) -> syn::Ident {
                syn::Ident::new(self.name(), span)
            }
        }
    };
}
pub(crate) use names;

/// What a method call `recv.m(args)` resolves to, decided once by `lower`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodCallee {
    /// A float operation with a runtime rule (`x.sin()`, `x.atan2(y)`); on an integer
    /// receiver (`n.min(m)`) it stays the integer's method.
    Float(FloatOp),
    /// A method of `std` (slices, `Vec`, `Option`, iterators, integers, float predicates).
    Std(StdMethod),
    /// A method of the user's own type, whose rule is found through the receiver's type
    /// (`#[derive_frule] impl Ty`).
    User,
    /// A name the registry does not know, on a receiver that is no user type (a float, a
    /// slice, an integer): it has no rule.
    Unknown,
    /// Not resolved yet: only between building the instruction and the end of `lower`
    /// (`ir::verify` rejects it).
    Unresolved,
}

impl MethodCallee {
    /// The `std` row, if the call resolved to one.
    pub fn std(self) -> Option<StdMethod> {
        match self {
            MethodCallee::Std(m) => Some(m),
            MethodCallee::Float(_)
            | MethodCallee::User
            | MethodCallee::Unknown
            | MethodCallee::Unresolved => None,
        }
    }
}

impl std::fmt::Display for MethodCallee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MethodCallee::Float(op) => write!(f, "float {}", op.name()),
            MethodCallee::Std(m) => write!(f, "std {}", m.name()),
            MethodCallee::User => f.write_str("user"),
            MethodCallee::Unknown => f.write_str("unknown"),
            MethodCallee::Unresolved => f.write_str("unresolved"),
        }
    }
}

/// Names that a user writes but that mean nothing to the registry, with the closest known
/// float operation (`sinn` → `sin`), for "did you mean" hints.
pub fn suggest_float(name: &str) -> Option<&'static str> {
    FloatOp::ALL
        .iter()
        .filter(|op| op.is_method())
        .map(|op| (distance(name, op.name()), op.name()))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, c)| c)
}

/// What to write instead of an integer method called on a float (`x.pow(2)`), when the
/// floats have no method of that name.
pub fn float_instead_of_integer_method(name: &str) -> Option<&'static str> {
    match name {
        "pow" => Some("floats have `powi` (an `i32` exponent: `x.powi(2)`) and `powf` (a float one: `x.powf(1.5)`)"),
        _ => None,
    }
}

/// Whether `path` names an associated function of fwdad's `Dual` (`Dual::new`,
/// `fwdad::Dual::constant`, `Dual::<f64>::new`): code written on duals by hand.
pub fn is_dual_fn(path: &syn::Path) -> bool {
    let segs: Vec<&syn::Ident> = path.segments.iter().map(|s| &s.ident).collect();
    let n = segs.len();
    n >= 2 && segs[n - 2] == "Dual" && (n == 2 || segs[0] == "fwdad")
}

/// Levenshtein distance.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
