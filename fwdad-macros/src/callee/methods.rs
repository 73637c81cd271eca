//! The `std` methods the macro knows (of slices, `Vec`, `Option`/`Result`, iterators,
//! integers, and the float predicates), one row each: what the method does to its receiver
//! and arguments, what it returns when that is known from the name, how it behaves on
//! duals, and what to write instead when it has no rule.
//!
//! A row's flags:
//!
//! | flag | meaning |
//! |---|---|
//! | `RESERVED` | never taken for a method of the user's own type |
//! | `DUAL` | a dual receiver has it (the runtime's `DualSlice`, `DualVec`, ...) |
//! | `PREDICATE` | its result depends on the primal only (`is_nan`, `partial_cmp`) |
//! | `QUERY` | answered by the dual itself, whatever the activity (`len`, `is_some`) |
//! | `STORES` | stores its arguments into the receiver (`push`, `fill`) |
//! | `WRITES` | writes its receiver, which is borrowed mutably (`swap`, `pop`) |
//! | `LENDS_MUT` | returns a `&mut` element or sub-slice of its receiver (`get_mut`) |
//! | `READ_ONLY` | never changes its receiver's storage or shape |
//! | `BORROWS_ROW` | takes `&self` of a sequence: on an element (a row) it borrows it |
//! | `READS` | takes `&self` of a slice: on a `&mut` variable it borrows the variable shared |
//! | `INTEGER` | an integer method floats do not have (`pow`, `div_ceil`) |
//! | `INT_ARG` | an integer's method when an argument is an integer (`min`, `max`) |
//! | `KEEPS_INT` | on an integer receiver, returns an integer (`abs`, `min`) |
//! | `UNWRAPS` | takes the value out of an `Option` (`unwrap`, `expect`) |
//! | `CLONES` | returns a copy of its receiver, of the receiver's type |
//! | `OR_DEFAULT` | takes a default of the element type (`unwrap_or`) |
//! | `OPTION_CLOSURE` | takes a closure on an `Option`/`Result` (`map`, `and_then`) |

use crate::types::TypeHint;

/// A row's flags (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flags(u32);

#[allow(dead_code)]
impl Flags {
    pub const NONE: Flags = Flags(0);
    pub const RESERVED: Flags = Flags(1 << 0);
    pub const DUAL: Flags = Flags(1 << 1);
    pub const PREDICATE: Flags = Flags(1 << 2);
    pub const QUERY: Flags = Flags(1 << 3);
    pub const STORES: Flags = Flags(1 << 4);
    pub const WRITES: Flags = Flags(1 << 5);
    pub const LENDS_MUT: Flags = Flags(1 << 6);
    pub const READ_ONLY: Flags = Flags(1 << 7);
    pub const BORROWS_ROW: Flags = Flags(1 << 8);
    pub const INTEGER: Flags = Flags(1 << 9);
    pub const INT_ARG: Flags = Flags(1 << 10);
    pub const KEEPS_INT: Flags = Flags(1 << 11);
    pub const UNWRAPS: Flags = Flags(1 << 12);
    pub const CLONES: Flags = Flags(1 << 13);
    pub const OR_DEFAULT: Flags = Flags(1 << 14);
    pub const OPTION_CLOSURE: Flags = Flags(1 << 15);
    pub const READS: Flags = Flags(1 << 16);

    const fn union(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }
    fn has(self, f: Flags) -> bool {
        self.0 & f.0 == f.0
    }
}

/// How a method on a dual receiver uses an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgUse {
    /// Stored into the receiver: a dual (a constant is promoted).
    Stored,
    /// An index, length or count: the primal.
    Index,
}

/// The type of a method's result when the name alone tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ret {
    Int,
    Bool,
    NonDiff,
}

macro_rules! std_methods {
    ($($V:ident = $s:literal: [$($f:ident)*] $(ret $r:ident)? $(args [$($a:ident),*])? $(instead $t:expr)?;)*) => {
        super::names! {
            /// A `std` method the macro knows.
            pub enum StdMethod { $($V = $s),* }
        }
        impl StdMethod {
            fn flags(self) -> Flags {
                match self {
                    $(StdMethod::$V => Flags::NONE $(.union(Flags::$f))*,)*
                }
            }
            fn ret(self) -> Option<Ret> {
                match self {
                    $(StdMethod::$V => { None $(.or(Some(Ret::$r)))? })*
                }
            }
            /// How its arguments are used on a dual receiver (`None`: each as it is, the runtime
            /// method accepting both).
            pub fn arg_uses(self) -> Option<&'static [ArgUse]> {
                match self {
                    $(StdMethod::$V => { None $(.or(Some(&[$(ArgUse::$a),*])))? })*
                }
            }
            /// What to write instead, when it has no rule on values that carry tangents.
            pub fn instead(self) -> Option<&'static str> {
                match self {
                    $(StdMethod::$V => { None $(.or(Some($t)))? })*
                }
            }
        }
    };
}

const SORTING: &str = "sort a variable or a field, or a sub-slice of one (`v.sort_by(|a, b| a.total_cmp(b))`, `v[1..].sort_by(..)`), not another expression: bind it to a variable first (`let mut w = rows[0].clone(); w[1..].sort_by(..)`)";

std_methods! {
    // Conversions and std traits.
    // `num_traits::ToPrimitive` of a float: `Some` of the value as `f64`/`f32`.
    ToF64 = "to_f64": [RESERVED];
    ToF32 = "to_f32": [RESERVED];
    Into = "into": [RESERVED] instead "for a float, write the type it converts to (`let y: f64 = x.into();` or `f64::from(x)`)";
    From = "from": [RESERVED];
    TryInto = "try_into": [RESERVED] instead "write the array type on the `let` (`let p: [f64; 3] = x[0..3].try_into().unwrap();`), or build the array from its elements (`[x[0], x[1], x[2]]`)";
    AsRef = "as_ref": [RESERVED];
    AsMut = "as_mut": [RESERVED];
    Borrow = "borrow": [RESERVED];
    ToOwned = "to_owned": [RESERVED CLONES];
    ToString = "to_string": [RESERVED];
    Clone = "clone": [RESERVED DUAL READ_ONLY BORROWS_ROW CLONES];
    // Slices and `Vec`s.
    Len = "len": [RESERVED DUAL QUERY READ_ONLY BORROWS_ROW READS] ret Int;
    IsEmpty = "is_empty": [RESERVED DUAL QUERY READ_ONLY BORROWS_ROW READS] ret Bool;
    Capacity = "capacity": [READ_ONLY];
    Iter = "iter": [RESERVED DUAL READ_ONLY BORROWS_ROW];
    IterMut = "iter_mut": [RESERVED DUAL WRITES];
    IntoIter = "into_iter": [RESERVED];
    Get = "get": [RESERVED DUAL READ_ONLY BORROWS_ROW READS] args [Index];
    GetMut = "get_mut": [RESERVED DUAL WRITES LENDS_MUT] args [Index];
    First = "first": [RESERVED DUAL READ_ONLY BORROWS_ROW READS];
    Last = "last": [RESERVED DUAL READ_ONLY BORROWS_ROW READS];
    FirstMut = "first_mut": [RESERVED DUAL WRITES LENDS_MUT];
    LastMut = "last_mut": [RESERVED DUAL WRITES LENDS_MUT];
    SplitFirst = "split_first": [RESERVED DUAL READ_ONLY];
    SplitLast = "split_last": [RESERVED DUAL READ_ONLY];
    SplitAt = "split_at": [RESERVED DUAL READ_ONLY] args [Index];
    SplitAtMut = "split_at_mut": [RESERVED DUAL WRITES LENDS_MUT] args [Index];
    Contains = "contains": [RESERVED PREDICATE READ_ONLY BORROWS_ROW] ret Bool;
    AsSlice = "as_slice": [READ_ONLY];
    ToVec = "to_vec": [RESERVED DUAL READ_ONLY BORROWS_ROW];
    Windows = "windows": [RESERVED READ_ONLY];
    Chunks = "chunks": [RESERVED READ_ONLY];
    ChunksExact = "chunks_exact": [READ_ONLY];
    Rchunks = "rchunks": [READ_ONLY];
    BinarySearch = "binary_search": [READ_ONLY];
    StartsWith = "starts_with": [READ_ONLY];
    EndsWith = "ends_with": [READ_ONLY];
    Push = "push": [RESERVED DUAL STORES WRITES] args [Stored];
    Pop = "pop": [RESERVED DUAL WRITES];
    Fill = "fill": [RESERVED DUAL STORES WRITES] args [Stored];
    CopyFromSlice = "copy_from_slice": [RESERVED DUAL STORES WRITES] args [Stored];
    ExtendFromSlice = "extend_from_slice": [RESERVED DUAL STORES WRITES] args [Stored];
    Insert = "insert": [RESERVED DUAL STORES WRITES] args [Index, Stored];
    Resize = "resize": [RESERVED DUAL STORES WRITES] args [Index, Stored];
    Swap = "swap": [RESERVED DUAL WRITES] args [Index, Index];
    Truncate = "truncate": [RESERVED DUAL WRITES] args [Index];
    // Not reserved: maps and sets of the user's have a `remove` of their own.
    Remove = "remove": [DUAL WRITES] args [Index];
    SwapRemove = "swap_remove": [RESERVED DUAL WRITES] args [Index];
    Clear = "clear": [RESERVED DUAL WRITES];
    Reverse = "reverse": [RESERVED DUAL WRITES];
    RotateLeft = "rotate_left": [RESERVED DUAL WRITES] args [Index];
    RotateRight = "rotate_right": [RESERVED DUAL WRITES] args [Index];
    CopyWithin = "copy_within": [RESERVED DUAL WRITES] args [Index, Index];
    Extend = "extend": [] instead "`push` the items in a `for` loop (`for t in x.iter() { v.push(t * t); }`), or `extend_from_slice` a slice or a collected `Vec`";
    ByRef = "by_ref": [] instead "it is supported as `it.by_ref().take(n)` read to its end (`.sum()`, `.fold(..)`, `.collect()`, ...) on `let mut it = x.iter();` read only by `next` and chains; otherwise index the slice with a cursor of your own (`let head: f64 = x[..3].iter().sum();`, then `x[3..]`)";
    Append = "append": [] instead "write `w.extend_from_slice(&v)` (and `v.clear()` if `v` must be left empty)";
    SplitOff = "split_off": [] instead "copy the tail with `v[at..].to_vec()` and `v.truncate(at)`";
    Drain = "drain": [] instead "copy the range with `v[a..b].to_vec()`; remove elements with `truncate` or by rebuilding the `Vec`";
    Retain = "retain": [] instead "it is supported on a `Vec` variable with a closure of one parameter (`v.retain(|x| x.abs() < tol)`); otherwise build the kept elements with `filter(..).collect::<Vec<_>>()` or a `for` loop with `push` (of a map: collect the keys to drop, then `remove` each)";
    Dedup = "dedup": [] instead SORTING;
    DedupBy = "dedup_by": [] instead "it is supported on a `Vec` variable with a closure of two parameters (`v.dedup_by(|a, b| (*a - *b).abs() < tol)`); otherwise a `for` loop that pushes an element unless it is a duplicate of the last one pushed";
    Sort = "sort": [RESERVED] instead SORTING;
    SortBy = "sort_by": [RESERVED] instead SORTING;
    SortUnstableBy = "sort_unstable_by": [] instead SORTING;
    SelectNthUnstableBy = "select_nth_unstable_by": [] instead "`select_nth_unstable_by` leaves the other elements in `std`'s own order, which the rule cannot reproduce; sort instead (`r.sort_by(|a, b| a.partial_cmp(b).unwrap());` then `r[k]`)";
    SelectNthUnstable = "select_nth_unstable": [] instead "`select_nth_unstable` leaves the other elements in `std`'s own order, which the rule cannot reproduce; sort instead (`r.sort_by(|a, b| a.partial_cmp(b).unwrap());` then `r[k]`)";
    // Maps of `std::collections` (`HashMap`, `BTreeMap`): by key, never by position. Not
    // reserved: a type of the user's may have methods of these names.
    ContainsKey = "contains_key": [PREDICATE READ_ONLY READS] ret Bool;
    Values = "values": [DUAL READ_ONLY];
    ValuesMut = "values_mut": [DUAL WRITES];
    Keys = "keys": [PREDICATE READ_ONLY] ret NonDiff;
    // `m.entry(k).or_insert(v)`, `.or_default()`: a `&mut` value of the map.
    Entry = "entry": [DUAL WRITES LENDS_MUT] args [Index];
    OrInsert = "or_insert": [DUAL STORES WRITES LENDS_MUT] args [Stored];
    OrDefault = "or_default": [DUAL WRITES LENDS_MUT];
    OrInsertWith = "or_insert_with": [] instead "it takes a closure without `return` or `?` on the entry of a map that is a variable or a field (`*m.entry(k).or_insert_with(|| x.exp()) += w`); otherwise write `.or_insert(value)` (or `.or_default()` for a zero)";
    AndModify = "and_modify": [] instead "it takes a closure of one parameter without `return` or `?` on the entry of a map that is a variable or a field, followed by `or_insert`, `or_default` or `or_insert_with`; otherwise write `if let Some(v) = m.get_mut(&k) { *v += w } else { m.insert(k, init); }`";
    // `ts.range(a..b)` of a `BTreeMap`: its entries with keys in the range, in key order.
    Range = "range": [DUAL READ_ONLY];
    // `Option` and `Result`.
    IsSome = "is_some": [RESERVED DUAL QUERY] ret Bool;
    IsNone = "is_none": [RESERVED DUAL QUERY] ret Bool;
    IsOk = "is_ok": [RESERVED PREDICATE] ret Bool;
    IsErr = "is_err": [RESERVED PREDICATE] ret Bool;
    Unwrap = "unwrap": [RESERVED DUAL UNWRAPS];
    Expect = "expect": [RESERVED DUAL UNWRAPS];
    UnwrapOr = "unwrap_or": [RESERVED DUAL OR_DEFAULT] args [Stored];
    UnwrapOrElse = "unwrap_or_else": [RESERVED OPTION_CLOSURE];
    Map = "map": [RESERVED OPTION_CLOSURE];
    MapOr = "map_or": [OPTION_CLOSURE];
    MapOrElse = "map_or_else": [OPTION_CLOSURE];
    AndThen = "and_then": [RESERVED OPTION_CLOSURE];
    IsSomeAnd = "is_some_and": [OPTION_CLOSURE];
    IsNoneOr = "is_none_or": [OPTION_CLOSURE];
    Ok = "ok": [RESERVED DUAL];
    Err = "err": [RESERVED];
    Copied = "copied": [RESERVED DUAL];
    Cloned = "cloned": [RESERVED DUAL];
    // Iterators (the chains themselves are lowered by `lower::iterate`).
    Next = "next": [RESERVED];
    Sum = "sum": [RESERVED];
    Product = "product": [RESERVED];
    Fold = "fold": [RESERVED];
    Count = "count": [RESERVED];
    MaxBy = "max_by": [RESERVED];
    MinBy = "min_by": [RESERVED];
    Chain = "chain": [RESERVED];
    Position = "position": [RESERVED];
    SizeHint = "size_hint": [];
    FlatMap = "flat_map": [] instead "its closure must return an iterator chain over a slice, a range or an array (`|r| r.iter()`, `|i| (0..i).map(..)`, `|v| [v, 2.0 * v]`), in a chain that starts from a slice or range method; otherwise write nested `for` loops";
    SkipWhile = "skip_while": [] instead "use it in a chain that starts from a slice or range method (`x.iter().skip_while(..)`), or find the first index to keep with `position` and iterate `x[k..]`";
    // Float predicates.
    IsNan = "is_nan": [RESERVED PREDICATE] ret Bool;
    IsFinite = "is_finite": [RESERVED PREDICATE] ret Bool;
    IsInfinite = "is_infinite": [RESERVED PREDICATE] ret Bool;
    IsNormal = "is_normal": [RESERVED PREDICATE] ret Bool;
    IsSignPositive = "is_sign_positive": [RESERVED PREDICATE] ret Bool;
    IsSignNegative = "is_sign_negative": [RESERVED PREDICATE] ret Bool;
    IsSubnormal = "is_subnormal": [RESERVED PREDICATE] ret Bool;
    // num-traits' `Zero::is_zero` (nalgebra's generic code, `if !v[1].is_zero()`); a type
    // of the user's may have its own, found on a receiver the syntax shows is one.
    IsZero = "is_zero": [RESERVED PREDICATE] ret Bool;
    // Not reserved: a type of the user's may have a `classify` (a classifier's).
    Classify = "classify": [PREDICATE] ret NonDiff;
    ToBits = "to_bits": [PREDICATE] ret NonDiff;
    PartialCmp = "partial_cmp": [RESERVED PREDICATE] ret NonDiff;
    TotalCmp = "total_cmp": [RESERVED PREDICATE] ret NonDiff;
    // `num_traits::ToPrimitive` to integers (`x.floor().to_usize().unwrap()` in generic
    // code): `Option`s of integers, on the primal.
    ToI32 = "to_i32": [RESERVED PREDICATE] ret NonDiff;
    ToI64 = "to_i64": [RESERVED PREDICATE] ret NonDiff;
    ToIsize = "to_isize": [RESERVED PREDICATE] ret NonDiff;
    ToU32 = "to_u32": [RESERVED PREDICATE] ret NonDiff;
    ToU64 = "to_u64": [RESERVED PREDICATE] ret NonDiff;
    ToUsize = "to_usize": [RESERVED PREDICATE] ret NonDiff;
    // Integers (and the float methods of the same name on an integer receiver).
    Max = "max": [RESERVED INT_ARG KEEPS_INT];
    Min = "min": [RESERVED INT_ARG KEEPS_INT];
    Clamp = "clamp": [INT_ARG KEEPS_INT];
    Abs = "abs": [KEEPS_INT];
    Signum = "signum": [KEEPS_INT];
    RemEuclid = "rem_euclid": [KEEPS_INT];
    DivEuclid = "div_euclid": [KEEPS_INT];
    IsPowerOfTwo = "is_power_of_two": [] ret Bool;
    Pow = "pow": [INTEGER KEEPS_INT];
    Isqrt = "isqrt": [INTEGER];
    Ilog = "ilog": [INTEGER];
    Ilog2 = "ilog2": [INTEGER];
    Ilog10 = "ilog10": [INTEGER];
    SaturatingAdd = "saturating_add": [INTEGER];
    SaturatingSub = "saturating_sub": [INTEGER];
    SaturatingMul = "saturating_mul": [INTEGER];
    SaturatingPow = "saturating_pow": [INTEGER];
    WrappingAdd = "wrapping_add": [INTEGER];
    WrappingSub = "wrapping_sub": [INTEGER];
    WrappingMul = "wrapping_mul": [INTEGER];
    WrappingPow = "wrapping_pow": [INTEGER];
    AbsDiff = "abs_diff": [INTEGER];
    DivCeil = "div_ceil": [INTEGER];
    NextMultipleOf = "next_multiple_of": [INTEGER];
    NextPowerOfTwo = "next_power_of_two": [INTEGER];
    CountOnes = "count_ones": [INTEGER];
    CountZeros = "count_zeros": [INTEGER];
    LeadingZeros = "leading_zeros": [INTEGER];
    TrailingZeros = "trailing_zeros": [INTEGER];
}

impl StdMethod {
    /// Never taken for a method of the user's own type.
    pub fn is_reserved(self) -> bool {
        self.flags().has(Flags::RESERVED)
    }
    /// A dual receiver has it (or it reads the primal only).
    pub fn dual_has(self) -> bool {
        self.flags().has(Flags::DUAL) || self.is_predicate()
    }
    /// Its result depends on the primal only.
    pub fn is_predicate(self) -> bool {
        self.flags().has(Flags::PREDICATE)
    }
    /// Answered by the dual itself, whatever the activity.
    pub fn is_query(self) -> bool {
        self.flags().has(Flags::QUERY)
    }
    /// Stores its arguments into the receiver.
    pub fn stores(self) -> bool {
        self.flags().has(Flags::STORES)
    }
    /// Writes its receiver (borrowed mutably).
    pub fn writes(self) -> bool {
        self.flags().has(Flags::WRITES)
    }
    /// Returns a `&mut` element or sub-slice of its receiver.
    pub fn lends_mut(self) -> bool {
        self.flags().has(Flags::LENDS_MUT)
    }
    /// Splits its (shared) receiver into two halves at its argument: a half of constant
    /// data is promoted as its part of the receiver's zero tangent.
    pub fn splits_shared(self) -> bool {
        matches!(self, StdMethod::SplitAt)
    }
    /// Splits its receiver into two sub-slices (`split_at`, `split_at_mut`).
    pub fn splits(self) -> bool {
        matches!(self, StdMethod::SplitAt | StdMethod::SplitAtMut)
    }
    /// Never changes its receiver's storage.
    pub fn is_read_only(self) -> bool {
        self.flags().has(Flags::READ_ONLY)
    }
    /// Takes `&self` of a sequence.
    pub fn borrows_row(self) -> bool {
        self.flags().has(Flags::BORROWS_ROW)
    }
    /// Takes `&self` of a slice (`len`, `get`, `first`): on a `&mut` variable it borrows the
    /// variable shared, so other reads may overlap.
    pub fn reads_shared(self) -> bool {
        self.flags().has(Flags::READS)
    }
    /// An integer method floats do not have.
    pub fn is_integer(self) -> bool {
        self.flags().has(Flags::INTEGER)
    }
    /// An integer's method when an argument is an integer.
    pub fn takes_int_arg(self) -> bool {
        self.flags().has(Flags::INT_ARG)
    }
    /// On an integer receiver, returns an integer.
    pub fn keeps_int(self) -> bool {
        self.flags().has(Flags::KEEPS_INT)
    }
    /// Takes the value out of an `Option`.
    pub fn unwraps(self) -> bool {
        self.flags().has(Flags::UNWRAPS)
    }
    /// Returns a copy of its receiver.
    pub fn clones(self) -> bool {
        self.flags().has(Flags::CLONES)
    }
    /// Takes a default of the element type.
    pub fn or_default(self) -> bool {
        self.flags().has(Flags::OR_DEFAULT)
    }
    /// `x.to_f64()`, `x.to_f32()` (`num_traits::ToPrimitive`): the float type it converts
    /// a float to (`Some(x as f64)`), as a type.
    pub fn float_conversion_target(self, span: proc_macro2::Span) -> Option<syn::Type> {
        let name = match self {
            StdMethod::ToF64 => "f64",
            StdMethod::ToF32 => "f32",
            _ => return None,
        };
        Some(syn::Type::Path(syn::TypePath {
            qself: None,
            path: syn::Ident::new(name, span).into(),
        }))
    }
    /// `x.to_f64()`, `x.to_f32()`.
    pub fn is_float_conversion(self) -> bool {
        matches!(self, StdMethod::ToF64 | StdMethod::ToF32)
    }
    /// Takes a closure on an `Option` or `Result`.
    pub fn takes_option_closure(self) -> bool {
        self.flags().has(Flags::OPTION_CLOSURE)
    }
    /// The type of its result when the name tells it (`len`: an integer).
    pub fn result_type(self) -> Option<TypeHint> {
        self.ret().map(|r| match r {
            Ret::Int => TypeHint::Int,
            Ret::Bool => TypeHint::Bool,
            Ret::NonDiff => TypeHint::NonDiff,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::StdMethod;

    #[test]
    fn names_round_trip() {
        for m in StdMethod::ALL {
            assert_eq!(StdMethod::from_name(m.name()), Some(*m));
        }
        assert_eq!(StdMethod::from_name("frobnicate"), None);
    }

    #[test]
    fn storing_methods_write_and_have_argument_uses() {
        for m in StdMethod::ALL
            .iter()
            .filter(|m| m.stores() || m.lends_mut())
        {
            assert!(
                m.writes(),
                "{} stores or lends but does not write",
                m.name()
            );
            assert!(!m.is_read_only(), "{}", m.name());
        }
        for m in StdMethod::ALL.iter().filter(|m| m.stores()) {
            assert!(m.arg_uses().is_some(), "{}", m.name());
        }
    }
}
