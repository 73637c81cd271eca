//! The `std` types whose name tells the macro something: the primitive numbers, `bool`,
//! the non-differentiable text types, and the containers it looks through.

super::names! {
    /// A `std` type known by its name.
    pub enum StdType {
        F32 = "f32",
        F64 = "f64",
        U8 = "u8",
        U16 = "u16",
        U32 = "u32",
        U64 = "u64",
        U128 = "u128",
        Usize = "usize",
        I8 = "i8",
        I16 = "i16",
        I32 = "i32",
        I64 = "i64",
        I128 = "i128",
        Isize = "isize",
        /// `core::num`'s counts that are never zero (gauss-quad holds a rule's degree as a
        /// `NonZeroU32`): integers, read by `get`.
        NonZero = "NonZero",
        NonZeroU8 = "NonZeroU8",
        NonZeroU16 = "NonZeroU16",
        NonZeroU32 = "NonZeroU32",
        NonZeroU64 = "NonZeroU64",
        NonZeroU128 = "NonZeroU128",
        NonZeroUsize = "NonZeroUsize",
        NonZeroI8 = "NonZeroI8",
        NonZeroI16 = "NonZeroI16",
        NonZeroI32 = "NonZeroI32",
        NonZeroI64 = "NonZeroI64",
        NonZeroI128 = "NonZeroI128",
        NonZeroIsize = "NonZeroIsize",
        Bool = "bool",
        Char = "char",
        String = "String",
        Str = "str",
        Vec = "Vec",
        Box = "Box",
        Option = "Option",
        Result = "Result",
        HashMap = "HashMap",
        BTreeMap = "BTreeMap",
        HashSet = "HashSet",
        BTreeSet = "BTreeSet",
        VecDeque = "VecDeque",
        BinaryHeap = "BinaryHeap",
        LinkedList = "LinkedList",
    }
}

/// What a type's name tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeClass {
    Float,
    Int,
    Bool,
    /// No tangent: `char`, `String`, `str`.
    Text,
    /// A container (`Vec<T>`, `Box<T>`, `Option<T>`, `Result<T, E>`).
    Container,
    /// A map or set of `std::collections`, looked up by key, never by position.
    Keyed,
    /// A queue of `std::collections` (`VecDeque`, `BinaryHeap`, `LinkedList`).
    Queue,
}

impl StdType {
    /// The type named by the last segment of `path`.
    pub fn of_path(path: &syn::Path) -> Option<StdType> {
        StdType::from_name(&path.segments.last()?.ident.to_string())
    }

    /// A primitive integer type's width in bits and whether it is signed (`usize` and
    /// `isize` as 64 bits, the targets the project builds for); `None` for other types.
    pub fn int_bits(self) -> Option<(u32, bool)> {
        Some(match self {
            StdType::U8 => (8, false),
            StdType::U16 => (16, false),
            StdType::U32 => (32, false),
            StdType::U64 | StdType::Usize => (64, false),
            StdType::U128 => (128, false),
            StdType::I8 => (8, true),
            StdType::I16 => (16, true),
            StdType::I32 => (32, true),
            StdType::I64 | StdType::Isize => (64, true),
            StdType::I128 => (128, true),
            _ => return None,
        })
    }

    /// What the name tells.
    pub fn class(self) -> TypeClass {
        match self {
            StdType::F32 | StdType::F64 => TypeClass::Float,
            StdType::U8
            | StdType::U16
            | StdType::U32
            | StdType::U64
            | StdType::U128
            | StdType::Usize
            | StdType::I8
            | StdType::I16
            | StdType::I32
            | StdType::I64
            | StdType::I128
            | StdType::Isize
            | StdType::NonZero
            | StdType::NonZeroU8
            | StdType::NonZeroU16
            | StdType::NonZeroU32
            | StdType::NonZeroU64
            | StdType::NonZeroU128
            | StdType::NonZeroUsize
            | StdType::NonZeroI8
            | StdType::NonZeroI16
            | StdType::NonZeroI32
            | StdType::NonZeroI64
            | StdType::NonZeroI128
            | StdType::NonZeroIsize => TypeClass::Int,
            StdType::Bool => TypeClass::Bool,
            StdType::Char | StdType::String | StdType::Str => TypeClass::Text,
            StdType::Vec | StdType::Box | StdType::Option | StdType::Result => TypeClass::Container,
            StdType::HashMap | StdType::BTreeMap | StdType::HashSet | StdType::BTreeSet => {
                TypeClass::Keyed
            }
            StdType::VecDeque | StdType::BinaryHeap | StdType::LinkedList => TypeClass::Queue,
        }
    }
}

/// Another crate's inline vector (`arrayvec::ArrayVec<f64, 3>`, `smallvec::SmallVec<[f64;
/// 4]>`, `tinyvec::ArrayVec`, `TinyVec`), named by the last segment of `path`: no tangent
/// type (fwdad implements `Differentiable` for `Vec`, and the orphan rule keeps you from
/// implementing it for these).
pub fn is_inline_vec(path: &syn::Path) -> bool {
    path.segments.last().is_some_and(|s| {
        matches!(
            s.ident.to_string().as_str(),
            "ArrayVec" | "SmallVec" | "TinyVec"
        )
    })
}
