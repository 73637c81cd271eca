//! Rule lookup: which source operations have a runtime rule, and its path.
//!
//! Float methods (`x.sin()`, `x.atan2(y)`) and their path forms (`f64::sin(x)`) map to the
//! runtime's `ops::<name>`, which accepts any mix of active duals and inactive scalars.
//! Everything else that is called goes through the `Frule` trait (derived or primitive).

/// The shape of a float method's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatRule {
    /// `x.f()`.
    Unary,
    /// `x.f(y)`: both operands may be active.
    Binary,
    /// `x.f(y, z)`: `mul_add`, `clamp`.
    Ternary,
    /// `x.powi(n)`: the integer exponent is never active.
    Powi,
    /// `x.sin_cos()`: returns a pair.
    SinCos,
}

/// Rules whose partials may be infinite or NaN where the function is finite: those the
/// runtime declares `unbounded` (`scalar_rule!(unbounded ..)`); keep the two lists in step
/// (`tests/derive_edges.rs` checks one of each family through a batch). `powi` is not a
/// linearised rule; the runtime decides by its exponent.
pub const UNBOUNDED: &[&str] = &[
    "sqrt", "cbrt", "asin", "acos", "acosh", "powf", "hypot", "atan2", "div", "recip", "ln",
    "log2", "log10", "log",
];

/// Unary float methods whose runtime rule is a `scalar_rule!`: smooth, with a partial
/// derivative that `linear` can read.
pub const SMOOTH_UNARY: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "exp_m1",
    "ln",
    "log2",
    "log10",
    "ln_1p",
    "sqrt",
    "cbrt",
    "recip",
    "to_degrees",
    "to_radians",
];
/// Unary float methods with piecewise rules (kinks and jumps, written by hand).
const PIECEWISE_UNARY: &[&str] = &["abs", "signum", "floor", "ceil", "round", "trunc", "fract"];
const BINARY: &[&str] = &[
    "atan2",
    "powf",
    "hypot",
    "copysign",
    "min",
    "max",
    "log",
    "rem_euclid",
    "div_euclid",
];
const TERNARY: &[&str] = &["mul_add", "clamp"];

/// The rule of float method `name`, if it has one.
pub fn float_method(name: &str) -> Option<FloatRule> {
    if SMOOTH_UNARY.contains(&name) || PIECEWISE_UNARY.contains(&name) {
        Some(FloatRule::Unary)
    } else if BINARY.contains(&name) {
        Some(FloatRule::Binary)
    } else if TERNARY.contains(&name) {
        Some(FloatRule::Ternary)
    } else if name == "powi" {
        Some(FloatRule::Powi)
    } else if name == "sin_cos" {
        Some(FloatRule::SinCos)
    } else {
        None
    }
}

/// `f64::sin(x)`, `f32::max(a, b)`, `std::primitive::f64::sqrt(x)`: the method name and
/// its rule, when `path` names a float method by path.
pub fn float_path_call(path: &syn::Path) -> Option<(syn::Ident, FloatRule)> {
    let n = path.segments.len();
    if n < 2 {
        return None;
    }
    let ty = &path.segments[n - 2];
    let method = &path.segments[n - 1];
    let is_float = ty.ident == "f64" || ty.ident == "f32";
    if !is_float || !matches!(ty.arguments, syn::PathArguments::None) {
        return None;
    }
    float_method(&method.ident.to_string()).map(|r| (method.ident.clone(), r))
}

/// Levenshtein-ish closeness, for "did you mean" hints.
pub fn suggest(name: &str) -> Option<&'static str> {
    let all = SMOOTH_UNARY
        .iter()
        .chain(PIECEWISE_UNARY)
        .chain(BINARY)
        .chain(TERNARY)
        .chain(&["powi", "sin_cos"]);
    all.copied()
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, c)| c)
}

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

/// `Some(x)` / `Ok(x)`: enum constructors whose dual is built structurally
/// (`Dual<Option<P>, Option<T>>` from `Dual<P, T>`); the runtime helper's name.
pub fn variant_ctor(path: &syn::Path) -> Option<&'static str> {
    let last = path.segments.last()?;
    match last.ident.to_string().as_str() {
        "Some" => Some("some"),
        "Ok" => Some("ok"),
        _ => None,
    }
}

/// Whether `name` is capitalised: by Rust's naming convention a type, a variant or a
/// constant, never a local binding or a function (rustc warns otherwise).
pub fn is_capitalised(name: &str) -> bool {
    name.starts_with(char::is_uppercase)
}

/// The traits whose bound makes a type parameter a float type (`T: Float`).
pub const FLOAT_TRAITS: &[&str] = &["Float", "FloatCore", "Real"];

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

/// `Vec::with_capacity(n)` (also `String`, `VecDeque`): an empty container from a size.
pub fn is_capacity_ctor(path: &syn::Path) -> bool {
    let n = path.segments.len();
    n >= 2
        && path.segments[n - 1].ident == "with_capacity"
        && ["Vec", "String", "VecDeque"]
            .iter()
            .any(|t| path.segments[n - 2].ident == t)
}

/// `Vec::from` (also `std::vec::Vec::from`).
pub fn is_vec_from(path: &syn::Path) -> bool {
    let n = path.segments.len();
    n >= 2 && path.segments[n - 1].ident == "from" && path.segments[n - 2].ident == "Vec"
}

/// What to write instead of a `Vec` or slice method that has no rule, when there is a
/// supported equivalent.
pub fn std_method_instead(name: &str) -> Option<&'static str> {
    Some(match name {
        "extend" => "`push` the items in a `for` loop (`for t in x.iter() { v.push(t * t); }`), or `extend_from_slice` a slice or a collected `Vec`",
        "append" => "write `w.extend_from_slice(&v)` (and `v.clear()` if `v` must be left empty)",
        "split_off" => "copy the tail with `v[at..].to_vec()` and `v.truncate(at)`",
        "drain" => "copy the range with `v[a..b].to_vec()`; remove elements with `truncate` or by rebuilding the `Vec`",
        "retain" => "build the kept elements with `filter(..).collect::<Vec<_>>()` or a `for` loop with `push`",
        "dedup" | "sort" | "sort_by" | "sort_unstable_by" => {
            "sorting moves elements by comparing values: compute the permutation on the primal values (with `#[non_differentiable]`) and gather the elements with it"
        }
        _ => return None,
    })
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

/// `std::mem::swap` / `replace` / `take` (also through `core`): the runtime function that
/// does the same on duals (`swap`, `mem_replace`, `mem_take`).
pub fn mem_fn(path: &syn::Path) -> Option<&'static str> {
    let n = path.segments.len();
    if n < 2 || path.segments[n - 2].ident != "mem" {
        return None;
    }
    match path.segments[n - 1].ident.to_string().as_str() {
        "swap" => Some("swap"),
        "replace" => Some("mem_replace"),
        "take" => Some("mem_take"),
        _ => None,
    }
}

/// Methods of the integer types, returning integers, that `f32`/`f64` do not have: a receiver whose type is not
/// written (a struct's field) calling one is an integer.
pub(crate) const INTEGER_METHODS: &[&str] = &[
    "pow",
    "isqrt",
    "ilog",
    "ilog2",
    "ilog10",
    "saturating_add",
    "saturating_sub",
    "saturating_mul",
    "saturating_pow",
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
    "wrapping_pow",
    "abs_diff",
    "div_ceil",
    "next_multiple_of",
    "next_power_of_two",
    "count_ones",
    "count_zeros",
    "leading_zeros",
    "trailing_zeros",
];

/// `min`, `max`, `clamp`: integer methods too, taken for an integer's when an argument is
/// an integer (Rust has no mixed integer-float calls).
pub(crate) const INT_ARG_METHODS: &[&str] = &["min", "max", "clamp"];

/// Slice methods returning `&mut` elements or sub-slices (`x.get_mut(i)`, an `Option`;
/// `x.split_at_mut(m)`, a pair), which borrow into their receiver.
pub(crate) const MUT_ELEMENT_METHODS: &[&str] =
    &["get_mut", "first_mut", "last_mut", "split_at_mut"];
