//! Calls by path: the `std` paths with a lowering or a rule of their own (`f64::sin`,
//! `Some`, `std::mem::swap`, `Vec::with_capacity`, `f64::from`), the runtime helpers the
//! macro itself calls, and how a path names a user's function, associated function or
//! constructor (by Rust's naming conventions: the macro sees no types).

use super::FloatOp;

super::names! {
    /// A runtime function that builds a dual structurally (the name is the runtime's).
    pub enum Wrapper {
        /// `Some(x)` of a dual.
        Some = "some",
        /// `Ok(x)` of a dual.
        Ok = "ok",
        /// The runtime's `branch(o)`, which lowering writes for the combinators of `Option`
        /// and `Result`: either one as `Ok(value)` or `Err(residual)`.
        Branch = "branch",
        /// The runtime's `rebuild(r)`: a `branch`ed value put back into its kind.
        Rebuild = "rebuild",
        /// The runtime's `else_call(r, f)`: a combinator's default given as a function path,
        /// called with the error of a `Result` or nothing for an `Option` (its value is a
        /// constant: it sees neither the receiver's value nor the inputs).
        ElseCall = "else_call",
        /// `std::mem::swap(a, b)` of duals.
        Swap = "swap",
        /// `std::mem::replace(a, b)` of duals.
        MemReplace = "mem_replace",
        /// `std::mem::take(a)` of a dual (a zero tangent in the mode).
        MemTake = "mem_take",
        /// `drop(x)`, `std::mem::drop(x)`: ends a borrow (a `RefCell`'s guard) where the
        /// user does; lowering also drops a guard bound in a block at the block's end.
        Drop = "drop",
        /// `T::from(x)`, `T::from_f64(x)`, `T::from_f32(x)` of a float type parameter `T`:
        /// `Some(x as T)` (lowering gives it the callee; the path is kept as written).
        FloatFrom = "float_from",
        /// `f64::from(x)`, `f32::from(x)` and `let y: f64 = x.into();`: `x as f64`, for
        /// generic `x` too (the path is `::core::convert::Into::<f64>::into`).
        FloatInto = "cast",
    }
}

impl Wrapper {
    /// Whether it builds an aggregate (`Some(d)` moves a `&mut` in, as Rust does).
    pub fn is_constructor(self) -> bool {
        matches!(self, Wrapper::Some | Wrapper::Ok)
    }

    /// Whether a constant's call is plain Rust (the call as written): a constructor, a
    /// conversion, `branch` and `rebuild` (which take plain values as well as duals).
    pub fn takes_plain(self) -> bool {
        self.is_constructor()
            || self.is_conversion()
            || matches!(
                self,
                Wrapper::Branch | Wrapper::Rebuild | Wrapper::ElseCall | Wrapper::Drop
            )
    }

    /// Whether it is a float conversion: plain Rust (the call as written) on a constant.
    pub fn is_conversion(self) -> bool {
        matches!(self, Wrapper::FloatFrom | Wrapper::FloatInto)
    }

    /// The type a conversion converts to: `T` of `T::from_f64`, `f64` of
    /// `Into::<f64>::into`.
    pub fn conversion_target(self, path: &syn::Path) -> Option<syn::Type> {
        let n = path.segments.len();
        match self {
            Wrapper::FloatFrom => {
                let t = &path.segments[n.checked_sub(2)?].ident;
                Some(syn::Type::Path(syn::TypePath {
                    qself: None,
                    path: t.clone().into(),
                }))
            }
            Wrapper::FloatInto => match &path.segments[n.checked_sub(2)?].arguments {
                syn::PathArguments::AngleBracketed(a) => match a.args.first()? {
                    syn::GenericArgument::Type(t) => Some(t.clone()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }
}

/// `T::from`, `T::from_f64`, `T::from_f32`: the names of the conversions `num_traits`
/// gives a float type from another float (a path's last segment; lowering checks that
/// `T` is a type parameter).
pub fn is_float_conversion_name(name: &syn::Ident) -> bool {
    matches!(name.to_string().as_str(), "from" | "from_f64" | "from_f32")
}

/// `::core::convert::Into::<f64>::into` (or `f32`): the path of a float conversion
/// (`f64::from(x)`, `let y: f64 = x.into();`), which compiles for a generic `x: T` with
/// `T: Into<f64>` as well as for `f32`.
pub fn float_into_path(float: &syn::Ident) -> syn::Path {
    let span = float.span();
    let mut path: syn::Path = syn::parse_quote_spanned!(span=> ::core::convert::Into::into);
    let ty = syn::Type::Path(syn::TypePath {
        qself: None,
        path: float.clone().into(),
    });
    let mut args = syn::punctuated::Punctuated::new();
    args.push(syn::GenericArgument::Type(ty));
    path.segments[2].arguments =
        syn::PathArguments::AngleBracketed(syn::AngleBracketedGenericArguments {
            colon2_token: Some(Default::default()),
            lt_token: Default::default(),
            args,
            gt_token: Default::default(),
        });
    path
}

/// What a call `path(args)` resolves to, decided once by `lower`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathCallee {
    /// `f64::sin(x)`, `T::max(a, b)` lowered as methods elsewhere; here `f64::sin(x)`.
    Float(FloatOp),
    /// `f64::frobnicate(x)`: a float path the registry has no rule for.
    UnknownFloat,
    /// `Some(x)`, `Ok(x)`, `std::mem::swap(a, b)`, ...: a structural runtime function.
    Wrap(Wrapper),
    /// `Vec::with_capacity(n)` (also `String`, `VecDeque`, `HashMap`, `HashSet`): a size,
    /// read as the primal.
    CapacityCtor,
    /// The runtime's `range_at`/`range_from_at`, which lowering emits for a chain's range
    /// element: an integer.
    RangeElem,
    /// The runtime's `undef()`, which lowering emits for the value of `let p;` before its
    /// first assignment: a constant nothing reads.
    Undef,
    /// `Ty::m(args)`: an associated function of a user type, whose rule is
    /// `Ty::add_derive_frule_to_the_impl_of_m()`.
    Assoc,
    /// `Err(e)`, `Shape::Circle(r)`: a constructor of a variant (capitalised name).
    Ctor,
    /// Any other function item: its rule is found through its `Frule` impl.
    Function,
    /// `a + b`, `-a`, `a += b` where the syntax names a user type for an operand: the
    /// operator's rule, registered by `#[derive_frule]` on the user's `impl Add for Ty`
    /// (the call's path is the runtime's primal helper, `user_ops::add`).
    UserOp(super::UserOp),
    /// `f(x)` where `f` is a local function value (a parameter `f: F` with `F: Fn(..)`,
    /// `&dyn Fn`, a closure a call returned): in the rule it is the dual function, called
    /// with duals. The first argument is the function value.
    FnValue,
    /// A closure (or a named function) passed to the function `func`: in the rule, its dual
    /// form (`crate::higher_order`). The arguments are its captured values.
    Closure,
    /// Not resolved yet (only inside `lower`; `ir::verify` rejects it).
    Unresolved,
}

/// What an associated function call of a user type, `Ty::m(args)` ([`PathCallee::Assoc`]),
/// finds its rule by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssocCall {
    /// `Ty::from(x)`: the rule of `Ty`'s `impl From` for `x`'s type, of which a type may
    /// have several (the runtime's `FromRule<Src>`).
    Conversion,
    /// Any other: the method's rule on the type, `Ty::add_derive_frule_to_the_impl_of_m()`.
    Method,
}

impl AssocCall {
    /// The call of `method` with `n_args` arguments.
    pub fn of(method: &syn::Ident, n_args: usize) -> AssocCall {
        match (method == "from", n_args) {
            (true, 1) => AssocCall::Conversion,
            _ => AssocCall::Method,
        }
    }
}

impl PathCallee {
    /// Resolves a call of `path` with `n_args` arguments.
    pub fn resolve(path: &syn::Path, n_args: usize) -> PathCallee {
        let n = path.segments.len();
        let last = path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let prev = (n >= 2).then(|| path.segments[n - 2].ident.to_string());
        if let (Some(ty), "with_capacity") = (prev.as_deref(), last.as_str()) {
            if matches!(ty, "Vec" | "String" | "VecDeque" | "HashMap" | "HashSet") {
                return PathCallee::CapacityCtor;
            }
        }
        if matches!(last.as_str(), "range_at" | "range_from_at")
            && path.segments.iter().any(|s| s.ident == "__private")
        {
            return PathCallee::RangeElem;
        }
        let runtime = path.segments.iter().any(|s| s.ident == "__private");
        if last == "undef" && runtime {
            return PathCallee::Undef;
        }
        match last.as_str() {
            // The prelude's `drop` (as `std::mem::drop` below).
            "drop" if n == 1 && n_args == 1 => return PathCallee::Wrap(Wrapper::Drop),
            "branch" if runtime => return PathCallee::Wrap(Wrapper::Branch),
            "rebuild" if runtime => return PathCallee::Wrap(Wrapper::Rebuild),
            "else_call" if runtime => return PathCallee::Wrap(Wrapper::ElseCall),
            _ => {}
        }
        let variant = match last.as_str() {
            "Some" => Some(Wrapper::Some),
            "Ok" => Some(Wrapper::Ok),
            _ => None,
        };
        if let Some(w) = variant {
            return if n_args == 1 {
                PathCallee::Wrap(w)
            } else {
                PathCallee::Function
            };
        }
        if let Some(op) = float_path_call(path) {
            return PathCallee::Float(op);
        }
        if prev.as_deref().is_some_and(|p| p == "f64" || p == "f32") {
            return PathCallee::UnknownFloat;
        }
        let lower_start = last.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
        // A type's path, or `Self` in a trait's default method, which its rule names
        // as the type parameter `__FwdadSelf` (`Self::new(..)`).
        if prev.as_deref().is_some_and(|p| {
            p.starts_with(|c: char| c.is_ascii_uppercase()) || p == crate::traits::SELF_PARAM
        }) && lower_start
        {
            return PathCallee::Assoc;
        }
        if prev.as_deref() == Some("mem") {
            match last.as_str() {
                "swap" => return PathCallee::Wrap(Wrapper::Swap),
                "replace" => return PathCallee::Wrap(Wrapper::MemReplace),
                "take" => return PathCallee::Wrap(Wrapper::MemTake),
                "drop" => return PathCallee::Wrap(Wrapper::Drop),
                _ => {}
            }
        }
        if is_capitalised(&last) {
            return PathCallee::Ctor;
        }
        PathCallee::Function
    }
}

impl std::fmt::Display for PathCallee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathCallee::Float(op) => write!(f, "float {}", op.name()),
            PathCallee::UnknownFloat => f.write_str("unknown float"),
            PathCallee::Wrap(w) => write!(f, "wrap {}", w.name()),
            PathCallee::CapacityCtor => f.write_str("capacity"),
            PathCallee::RangeElem => f.write_str("range element"),
            PathCallee::Undef => f.write_str("undef"),
            PathCallee::Assoc => f.write_str("assoc"),
            PathCallee::Ctor => f.write_str("ctor"),
            PathCallee::Function => f.write_str("fn"),
            PathCallee::UserOp(op) => write!(f, "user op {}", op.trait_name()),
            PathCallee::FnValue => f.write_str("fn value"),
            PathCallee::Closure => f.write_str("closure"),
            PathCallee::Unresolved => f.write_str("unresolved"),
        }
    }
}

/// `f64::from_bits(u)` or `f32::from_bits(u)`: the float whose bits `u` holds. (The other
/// way, `x.to_bits()`, is the method row `StdMethod::ToBits`.)
pub fn is_float_from_bits(path: &syn::Path) -> bool {
    let n = path.segments.len();
    n >= 2
        && matches!(path.segments[n - 2].arguments, syn::PathArguments::None)
        && (path.segments[n - 2].ident == "f64" || path.segments[n - 2].ident == "f32")
        && path.segments[n - 1].ident == "from_bits"
}

/// The width in bits of the float `f64::from_bits` (64) or `f32::from_bits` (32) rebuilds.
pub fn float_from_bits_width(path: &syn::Path) -> Option<u32> {
    if !is_float_from_bits(path) {
        return None;
    }
    let n = path.segments.len();
    Some(if path.segments[n - 2].ident == "f64" {
        64
    } else {
        32
    })
}

/// `f64::to_bits(x)` or `f32::to_bits(x)`: the method `x.to_bits()` written by path, as
/// libm's `sinh` and `tanh` write it.
pub fn is_float_to_bits(path: &syn::Path) -> bool {
    let n = path.segments.len();
    n >= 2
        && matches!(path.segments[n - 2].arguments, syn::PathArguments::None)
        && (path.segments[n - 2].ident == "f64" || path.segments[n - 2].ident == "f32")
        && path.segments[n - 1].ident == "to_bits"
}

/// `f64::sin(x)`, `f32::max(a, b)`, `std::primitive::f64::sqrt(x)`: the float operation,
/// when `path` names a float method by path.
pub fn float_path_call(path: &syn::Path) -> Option<FloatOp> {
    let n = path.segments.len();
    if n < 2 {
        return None;
    }
    let ty = &path.segments[n - 2];
    let is_float = ty.ident == "f64" || ty.ident == "f32";
    if !is_float || !matches!(ty.arguments, syn::PathArguments::None) {
        return None;
    }
    FloatOp::method(&path.segments[n - 1].ident.to_string())
}

/// `Box::new`: a closure passed boxed (`Box::new(|x| ..)`).
pub fn is_box_new(path: &syn::Path) -> bool {
    let n = path.segments.len();
    n >= 2 && path.segments[n - 2].ident == "Box" && path.segments[n - 1].ident == "new"
}

/// Whether `name` is capitalised: by Rust's naming convention a type, a variant or a
/// constant, never a local binding or a function (rustc warns otherwise).
pub fn is_capitalised(name: &str) -> bool {
    name.starts_with(char::is_uppercase)
}

/// `Euclid::rem_euclid`, `num_traits::Euclid::div_euclid`: a method of num_traits'
/// `Euclid`, which takes both operands by reference; on floats, the float's own method.
pub fn is_euclid_path(path: &syn::Path) -> bool {
    let n = path.segments.len();
    n >= 2
        && path.segments[n - 2].ident == "Euclid"
        && matches!(
            path.segments[n - 1].ident.to_string().as_str(),
            "rem_euclid" | "div_euclid"
        )
}

/// Whether `name` is a trait whose bound makes a type parameter a float type (`T: Float`).
pub fn is_float_trait(name: &str) -> bool {
    // nalgebra's `RealField`, which its users bound their float parameter by alone: the
    // rule's `T` is a float type (`f64`, `f32`) as for `Float`, and each has both traits.
    // Likewise its `ComplexField`, of scalar code that runs on reals too: the rule runs
    // at the real float types (its complex scalars are not differentiated).
    matches!(name, "Float" | "FloatCore" | "Real")
        || (cfg!(feature = "nalgebra") && matches!(name, "RealField" | "ComplexField"))
}

/// Whether `f32`/`f64` implement the trait `name` anyway (`Copy`, `PartialOrd`, `Num`,
/// `AddAssign`, ...): a bound by it does not make a type parameter a non-float.
pub fn float_has_trait(name: &str) -> bool {
    matches!(
        name,
        "Copy"
            | "Clone"
            | "Debug"
            | "Display"
            | "Default"
            | "PartialEq"
            | "PartialOrd"
            | "Send"
            | "Sync"
            | "Sized"
            | "Sum"
            | "Product"
            | "FloatConst"
            | "NumCast"
            | "FromPrimitive"
            | "ToPrimitive"
            | "Num"
            | "NumAssign"
            | "NumAssignOps"
            | "NumOps"
            | "Signed"
            | "Zero"
            | "One"
            | "ConstZero"
            | "ConstOne"
            | "Bounded"
            | "AddAssign"
            | "SubAssign"
            | "MulAssign"
            | "DivAssign"
            | "Add"
            | "Sub"
            | "Mul"
            | "Div"
            | "Neg"
            | "Rem"
            | "LowerExp"
            | "UpperExp"
            | "Into"
            | "From"
            | "Unpin"
    )
}

/// `V2(a, b)`, `Self(a)`: a call through a capitalised name is a tuple struct's (or tuple
/// variant's) constructor, by Rust's naming convention; `Some`/`Ok`/`Err` have their own
/// handling.
pub fn is_tuple_ctor(path: &syn::Path) -> bool {
    let Some(last) = path.segments.last() else {
        return false;
    };
    let name = last.ident.to_string();
    is_capitalised(&name)
        && !matches!(name.as_str(), "Some" | "Ok" | "Err")
        && last.arguments.is_none()
}

/// Whether `path` names the type `Vec` (`Vec`, `std::vec::Vec`, `Vec<f64>`).
pub fn is_vec_type(path: &syn::Path) -> bool {
    path.segments.last().is_some_and(|s| s.ident == "Vec")
}

/// Whether `path(..)` with `n_args` arguments makes an empty `Vec`: `Vec::new()` (also
/// `std::vec::Vec::new()`, which lowering writes for a `collect`'s accumulator) or
/// `Vec::with_capacity(n)`.
pub fn is_empty_vec_ctor(path: &syn::Path, n_args: usize) -> bool {
    let n = path.segments.len();
    if n < 2 || path.segments[n - 2].ident != "Vec" {
        return false;
    }
    let f = &path.segments[n - 1].ident;
    (f == "new" && n_args == 0) || (f == "with_capacity" && n_args == 1)
}

/// What a call of a map type's constructor makes (`HashMap::new()`, `BTreeMap::from(..)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapCtor {
    /// `HashMap::new()`, `HashMap::with_capacity(n)`, `HashMap::default()`,
    /// `BTreeMap::new()`, `BTreeMap::default()`: an empty map.
    Empty,
    /// `HashMap::from(pairs)`, `BTreeMap::from_iter(pairs)`: a map of the pairs.
    From,
}

/// The map constructor `path(..)` with `n_args` arguments calls, if it is one.
pub fn map_ctor(path: &syn::Path, n_args: usize) -> Option<MapCtor> {
    let n = path.segments.len();
    let ty = super::StdType::from_name(&path.segments.get(n.checked_sub(2)?)?.ident.to_string())?;
    if !matches!(ty, super::StdType::HashMap | super::StdType::BTreeMap) {
        return None;
    }
    match (path.segments[n - 1].ident.to_string().as_str(), n_args) {
        ("new" | "default", 0) | ("with_capacity", 1) => Some(MapCtor::Empty),
        ("from" | "from_iter", 1) => Some(MapCtor::From),
        _ => None,
    }
}

/// Whether `path` is `std::process::exit` (also `process::exit`): a call that never
/// returns.
pub fn is_process_exit(path: &syn::Path) -> bool {
    let n = path.segments.len();
    n >= 2 && path.segments[n - 2].ident == "process" && path.segments[n - 1].ident == "exit"
}

/// Whether `path` names `None` (`None`, `Option::None`).
pub fn is_none(path: &syn::Path) -> bool {
    path.segments.last().is_some_and(|s| s.ident == "None")
}

/// Whether `path` names the variant `Err`.
pub fn is_err(path: &syn::Path) -> bool {
    path.segments.last().is_some_and(|s| s.ident == "Err")
}

/// The type whose variant `path` names: `Some`/`None` an `Option`, `Ok`/`Err` a `Result`.
pub fn variant_type(path: &syn::Path) -> Option<super::StdType> {
    match path.segments.last()?.ident.to_string().as_str() {
        "Some" | "None" => Some(super::StdType::Option),
        "Ok" | "Err" => Some(super::StdType::Result),
        _ => None,
    }
}

/// `std::array::from_fn` (also `core::array::from_fn`, and `array::from_fn` after `use
/// std::array;`), whose rule is the runtime's `array_from_fn`: the path the call takes
/// instead, with the user's span.
pub fn array_from_fn_rule(path: &syn::Path) -> Option<syn::Path> {
    let n = path.segments.len();
    let is = n >= 2
        && path.segments[n - 1].ident == "from_fn"
        && path.segments[n - 2].ident == "array"
        && (n == 2
            || matches!(
                path.segments[n - 3].ident.to_string().as_str(),
                "std" | "core"
            ));
    let span = syn::spanned::Spanned::span(path);
    is.then(|| syn::parse_quote_spanned!(span=> ::fwdad::__private::array_from_fn))
}

/// `Vec::from` (also `std::vec::Vec::from`).
pub fn is_vec_from(path: &syn::Path) -> bool {
    let n = path.segments.len();
    n >= 2 && path.segments[n - 1].ident == "from" && path.segments[n - 2].ident == "Vec"
}

/// `f64::from(x)` / `f32::from(x)`: the float type converted to. Every `From` impl of a
/// float is lossless, so it is `x as f64` (a `bool`, which `as` does not take, excepted by
/// the caller).
pub fn float_from(path: &syn::Path) -> Option<&syn::Ident> {
    let n = path.segments.len();
    (n == 2
        && path.segments[1].ident == "from"
        && path.segments[1].arguments.is_none()
        && (path.segments[0].ident == "f64" || path.segments[0].ident == "f32"))
        .then(|| &path.segments[0].ident)
}

/// num-traits' `cast` function (`num_traits::cast`, `cast::cast`, `num::cast`, `cast`
/// imported) or `NumCast::from`, called without a turbofish: a conversion to the type the
/// `let` it initialises writes (`let c: T = num_traits::cast(c).unwrap();`).
pub fn is_numcast(path: &syn::Path) -> bool {
    let n = path.segments.len();
    let plain = path.segments.iter().all(|s| s.arguments.is_none());
    let last = &path.segments[n - 1].ident;
    let before = (n >= 2).then(|| &path.segments[n - 2].ident);
    plain
        && ((last == "cast"
            && before.is_none_or(|b| b == "num_traits" || b == "num" || b == "cast"))
            || (last == "from" && before.is_some_and(|b| b == "NumCast")))
}

/// `std`'s stable float methods that have no rule (`next_up`, `next_down`): on a float
/// they are these, not a method of an extension trait. (`f64::gamma`, `ln_gamma`, `erf` and
/// `erfc` are unstable: on stable Rust, `x.gamma()` is an extension trait's, the `special`
/// crate's `Gamma`, whose rule `#[primitive(.., method)]` gives.)
pub fn is_std_float_method_without_rule(name: &str) -> bool {
    matches!(name, "next_up" | "next_down")
}

/// Whether `name` is a method `std` gives slices, arrays or `Vec`s (with or without a
/// rule here): on a sequence, a name outside this list is a method of an extension trait
/// of the user's (`#[derive_frule] impl VecOps for [f64]`, `a.dot(b)`).
pub fn is_std_sequence_method(name: &str) -> bool {
    matches!(
        name,
        "len"
            | "is_empty"
            | "first"
            | "last"
            | "first_mut"
            | "last_mut"
            | "get"
            | "get_mut"
            | "get_unchecked"
            | "get_unchecked_mut"
            | "iter"
            | "iter_mut"
            | "into_iter"
            | "windows"
            | "chunks"
            | "chunks_mut"
            | "chunks_exact"
            | "chunks_exact_mut"
            | "rchunks"
            | "rchunks_mut"
            | "rchunks_exact"
            | "rchunks_exact_mut"
            | "chunk_by"
            | "chunk_by_mut"
            | "as_chunks"
            | "as_rchunks"
            | "array_chunks"
            | "array_windows"
            | "split_at"
            | "split_at_mut"
            | "split_at_checked"
            | "split_at_mut_checked"
            | "split_at_unchecked"
            | "split_first"
            | "split_first_mut"
            | "split_last"
            | "split_last_mut"
            | "split_first_chunk"
            | "split_last_chunk"
            | "first_chunk"
            | "last_chunk"
            | "split"
            | "split_mut"
            | "split_inclusive"
            | "rsplit"
            | "splitn"
            | "rsplitn"
            | "contains"
            | "starts_with"
            | "ends_with"
            | "strip_prefix"
            | "strip_suffix"
            | "binary_search"
            | "binary_search_by"
            | "binary_search_by_key"
            | "partition_point"
            | "sort"
            | "sort_by"
            | "sort_by_key"
            | "sort_by_cached_key"
            | "sort_unstable"
            | "sort_unstable_by"
            | "sort_unstable_by_key"
            | "sort_floats"
            | "select_nth_unstable"
            | "select_nth_unstable_by"
            | "select_nth_unstable_by_key"
            | "is_sorted"
            | "is_sorted_by"
            | "is_sorted_by_key"
            | "reverse"
            | "rotate_left"
            | "rotate_right"
            | "fill"
            | "fill_with"
            | "clone_from_slice"
            | "copy_from_slice"
            | "copy_within"
            | "swap"
            | "swap_with_slice"
            | "to_vec"
            | "into_vec"
            | "repeat"
            | "concat"
            | "join"
            | "connect"
            | "as_ptr"
            | "as_mut_ptr"
            | "as_ptr_range"
            | "as_mut_ptr_range"
            | "as_slice"
            | "as_mut_slice"
            | "align_to"
            | "align_to_mut"
            | "escape_ascii"
            | "is_ascii"
            | "to_ascii_uppercase"
            | "to_ascii_lowercase"
            | "map"
            | "each_ref"
            | "each_mut"
            | "zip"
            | "push"
            | "pop"
            | "insert"
            | "remove"
            | "swap_remove"
            | "truncate"
            | "clear"
            | "extend"
            | "extend_from_slice"
            | "extend_from_within"
            | "append"
            | "drain"
            | "retain"
            | "retain_mut"
            | "dedup"
            | "dedup_by"
            | "dedup_by_key"
            | "resize"
            | "resize_with"
            | "split_off"
            | "capacity"
            | "reserve"
            | "reserve_exact"
            | "try_reserve"
            | "shrink_to"
            | "shrink_to_fit"
            | "leak"
            | "splice"
            | "extract_if"
            | "spare_capacity_mut"
            | "into_boxed_slice"
            | "pop_if"
            | "push_within_capacity"
            | "clone"
            | "clone_from"
            | "to_owned"
            | "into"
            | "try_into"
            | "as_ref"
            | "as_mut"
            | "borrow"
            | "borrow_mut"
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
            | "iter_sum"
            | "sum"
            | "product"
            | "max"
            | "min"
            | "default"
            | "deref"
            | "deref_mut"
            | "index"
            | "index_mut"
    )
}

/// `convert::identity` or `Clone::clone` called by path (`Clone::clone(&x)`,
/// `f64::clone(&x)`, `std::clone::Clone::clone(&x)`): the lowering writes them as the value
/// and as `x.clone()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloneOrIdentity {
    Identity,
    Clone,
}

/// Which of the two `path` names, if either (not a bare `identity`, which may be the
/// user's: an identity matrix).
pub fn clone_or_identity(path: &syn::Path) -> Option<CloneOrIdentity> {
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    match names.as_slice() {
        [.., "convert", "identity"] => Some(CloneOrIdentity::Identity),
        ["Clone" | "f64" | "f32", "clone"] | [.., "clone", "Clone", "clone"] => {
            Some(CloneOrIdentity::Clone)
        }
        _ => None,
    }
}
