//! Iterator chains: the adaptors and consumers `lower::iterate` turns into counted loops,
//! and the searches it writes out as the loops `std` runs.

super::names! {
    /// A stage of an iterator chain.
    pub enum Adaptor {
        Iter = "iter",
        IterMut = "iter_mut",
        IntoIter = "into_iter",
        Enumerate = "enumerate",
        Rev = "rev",
        Copied = "copied",
        Cloned = "cloned",
        Map = "map",
        Windows = "windows",
        Chunks = "chunks",
        ChunksExact = "chunks_exact",
        ChunksMut = "chunks_mut",
        ChunksExactMut = "chunks_exact_mut",
        Chain = "chain",
        Zip = "zip",
        Skip = "skip",
        Take = "take",
        StepBy = "step_by",
        /// `it.cycle()`: element `k` is the inner chain's `k % len`, without end (none if
        /// the inner chain is empty).
        Cycle = "cycle",
        /// Element-wise stages: indices no longer follow the source after them.
        Filter = "filter",
        TakeWhile = "take_while",
        Inspect = "inspect",
        Scan = "scan",
        /// `filter_map(f)`: the closure's `Some(b)` passes `b` on, `None` drops the item.
        FilterMap = "filter_map",
        /// `map_while(f)`: the closure's `Some(b)` passes `b` on, `None` ends the chain.
        MapWhile = "map_while",
        /// `flat_map(|p| inner)`: gathered by nested loops into a `Vec`, then iterated.
        FlatMap = "flat_map",
        /// `flatten()` of a chain of slices, `Vec`s or arrays: `flat_map(|r| r.iter())`.
        Flatten = "flatten",
        /// `skip_while(p)`: items dropped while `p(&item)` holds, a loop-carried flag.
        SkipWhile = "skip_while",
    }
}

super::names! {
    /// itertools' macro and adaptor that `lower::iter_fns` writes as the `std` chains they
    /// are: `izip!(a, b, ..)` and `x.iter().tuple_windows()`.
    pub enum Itertools {
        Izip = "izip",
        TupleWindows = "tuple_windows",
    }
}

impl Itertools {
    /// The macro `path` names, if it is itertools' (`izip!`, `itertools::izip!`).
    pub fn of_macro(path: &syn::Path) -> Option<Itertools> {
        let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let f = match names.as_slice() {
            [f] => f,
            [krate, f] if krate == "itertools" => f,
            _ => return None,
        };
        Itertools::from_name(f).filter(|i| *i == Itertools::Izip)
    }

    /// The adaptor the method `m` is, if it is itertools' `tuple_windows`.
    pub fn of_method(m: &syn::Ident) -> Option<Itertools> {
        Itertools::from_name(&m.to_string()).filter(|i| *i == Itertools::TupleWindows)
    }
}

super::names! {
    /// `x.iter().peekable()` and the methods `lower::peekable` reads as its cursor.
    pub enum PeekableFn {
        Peekable = "peekable",
        Next = "next",
        Peek = "peek",
    }
}

super::names! {
    /// The iterator methods that take `&mut self` besides `next` (and `by_ref`): they read
    /// part of the items and leave the iterator to be read on, so a cursor that stands
    /// for the iterator (`lower::peekable`) would have to move past what they read.
    pub enum PartialRead {
        Nth = "nth",
        NthBack = "nth_back",
        NextBack = "next_back",
        Any = "any",
        All = "all",
        Find = "find",
        FindMap = "find_map",
        Rfind = "rfind",
        Position = "position",
        Rposition = "rposition",
        TryFold = "try_fold",
        TryRfold = "try_rfold",
        TryForEach = "try_for_each",
        AdvanceBy = "advance_by",
        AdvanceBackBy = "advance_back_by",
    }
}

super::names! {
    /// A method that consumes an iterator into a value.
    pub enum Consumer {
        Sum = "sum",
        Product = "product",
        Fold = "fold",
        Count = "count",
        ForEach = "for_each",
        Any = "any",
        All = "all",
        Collect = "collect",
        MaxBy = "max_by",
        MinBy = "min_by",
    }
}

impl Consumer {
    /// Whether it takes a closure (`fold`'s second argument, the others' only one).
    pub fn takes_closure(self) -> bool {
        matches!(
            self,
            Consumer::Fold
                | Consumer::ForEach
                | Consumer::Any
                | Consumer::All
                | Consumer::MaxBy
                | Consumer::MinBy
        )
    }
    /// Whether it produces an accumulated value (rather than `()`).
    pub fn accumulates(self) -> bool {
        self != Consumer::ForEach
    }
}

super::names! {
    /// Searches and reductions written out as the loops `std` runs.
    pub enum Rewrite {
        Position = "position",
        /// `it.rposition(p)`: a forward scan keeping the last match (the same index for a
        /// predicate without side effects; std probes from the back).
        RPosition = "rposition",
        PartitionPoint = "partition_point",
        /// `s.binary_search_by(cmp)`: std's probes written out, the index from the last
        /// probe's `Ordering` (`Ok` on `Equal`, else `Err` with the insertion point).
        BinarySearchBy = "binary_search_by",
        Reduce = "reduce",
        Nth = "nth",
        /// `it.next()` on an iterator chain written in place (`v.iter().rev().next()`): the
        /// loop taking the first item. (A stateful iterator bound to a name is no chain.)
        Next = "next",
        /// `it.last()` on an iterator chain: the loop keeping the latest item.
        Last = "last",
        /// `it.find(p)` on an iterator chain: a scan with `break`.
        Find = "find",
        /// `it.find_map(f)` on an iterator chain: the first `Some` of `f(item)`, a scan
        /// with `break`.
        FindMap = "find_map",
        /// `it.unzip()` on an iterator chain of pairs: a loop pushing into two `Vec`s.
        Unzip = "unzip",
        /// `it.partition(p)` on an iterator chain: a loop pushing each item into one of
        /// two `Vec`s by `p(&item)`.
        Partition = "partition",
        /// `it.try_fold(init, f)` on an iterator chain, `f` returning `Some`/`None` or
        /// `Ok`/`Err` as its body shows: a fold loop that stops at the first `None` or
        /// `Err`.
        TryFold = "try_fold",
        /// `v.sort_by(cmp)`: the indices sorted by `cmp` on the elements (up to 20 an
        /// insertion sort, as `std`'s, else a stable merge sort), then the elements
        /// gathered by them (primal and tangent move together).
        SortBy = "sort_by",
        /// `v.sort_unstable_by(cmp)`: the same sort (up to 20 elements `std`'s unstable
        /// sort is that insertion sort; beyond, equal elements keep their order, which an
        /// unstable sort may also give).
        SortUnstableBy = "sort_unstable_by",
        /// `x.chunks_exact(n).remainder()`: the tail `&x[len - len % n..]`.
        Remainder = "remainder",
        /// `v.extend(iter)` of an iterator chain: a `for` loop that pushes each item.
        Extend = "extend",
        /// `w.append(&mut v)` of a `Vec`: `w.extend_from_slice(&v); v.clear();`.
        Append = "append",
        /// `v.retain(|x| ..)` of a `Vec` local: `v` cleared and the kept elements of a
        /// copy pushed back, in order.
        Retain = "retain",
        /// `v.dedup_by(|a, b| ..)` of a `Vec` local: `v` cleared and each element of a copy
        /// pushed back unless the closure calls it a duplicate of the last one kept (`a`
        /// the element, `b` the last kept, as `std` passes them).
        DedupBy = "dedup_by",
        /// `o.map(f)` on an `Option` or a `Result` (a receiver that is no iterator chain):
        /// a `match` (`lower::combinators`).
        OptionMap = "map",
        /// `o.map_or(d, f)`.
        MapOr = "map_or",
        /// `o.map_or_else(d, f)`.
        MapOrElse = "map_or_else",
        /// `o.and_then(f)`.
        AndThen = "and_then",
        /// `o.unwrap_or_else(d)`.
        UnwrapOrElse = "unwrap_or_else",
        /// `o.unwrap_or_default()`: `o.unwrap_or_else(Default::default)`.
        UnwrapOrDefault = "unwrap_or_default",
        /// `o.or_else(d)`.
        OrElse = "or_else",
        /// `o.filter(p)` of an `Option` (a receiver that is no iterator chain): `Some(v)`
        /// when `p(&v)` holds, else `None`.
        OptionFilter = "filter",
        /// `o.or(d)` of an `Option` or a `Result`: `o` if it holds a value, else `d`.
        Or = "or",
        /// `o.and(d)`: `d` if `o` holds a value, else `o`'s `None` or error.
        And = "and",
        /// `o.xor(d)` of two `Option`s: the one that holds a value, if only one does.
        Xor = "xor",
        /// `a.zip(b)` of two `Option`s (a call's result or a local typed `Option`, not an
        /// iterator): `Some((x, y))` when both hold one.
        OptionZip = "zip",
        /// `r.map_err(f)`.
        MapErr = "map_err",
        /// `o.ok_or(e)`.
        OkOr = "ok_or",
        /// `o.ok_or_else(e)`.
        OkOrElse = "ok_or_else",
        /// `o.is_some_and(p)`.
        IsSomeAnd = "is_some_and",
        /// `o.is_none_or(p)`.
        IsNoneOr = "is_none_or",
        /// `r.is_ok_and(p)`.
        IsOkAnd = "is_ok_and",
        /// `o.take()` of an `Option` local whose type is written:
        /// `std::mem::replace(&mut o, None)`.
        OptionTake = "take",
        /// `o.replace(v)` of an `Option` local whose type is written:
        /// `std::mem::replace(&mut o, Some(v))`.
        OptionReplace = "replace",
        /// `o.get_or_insert_with(f)` of an `Option` place (a typed local or a field, the
        /// cache of a struct): `if o.is_none() { o = Some(f()) }`, then `&mut` its value.
        GetOrInsertWith = "get_or_insert_with",
        /// `o.get_or_insert(v)`: `v` evaluated, then as `get_or_insert_with(|| v)`.
        GetOrInsert = "get_or_insert",
        /// `o.flatten()` of an `Option<Option<T>>` (a receiver that is no iterator chain):
        /// `match o { Some(inner) => inner, None => None }`.
        OptionFlatten = "flatten",
        /// `o.as_mut()` of an `Option` (not a sequence, nor a library's or the user's
        /// type): `match &mut o { Some(v) => Some(v), None => None }`, as sgp4 passes its
        /// optional integrator state on (`self.initial_state().as_mut()`).
        OptionAsMut = "as_mut",
        /// `o.as_ref()`: `match &o { Some(v) => Some(v), None => None }`.
        OptionAsRef = "as_ref",
        /// `a.clone_from(&b)` of a place (a grid's buffer refilled): `a = (*&b).clone()`.
        CloneFrom = "clone_from",
    }
}

super::names! {
    /// A free function of `std::iter` that builds an iterator, read as the chain of
    /// methods it is (see `lower::iter_fns`).
    pub enum IterFn {
        /// `iter::zip(a, b)`: `a.into_iter().zip(b)`.
        Zip = "zip",
        /// `iter::once(v)`: `[v].into_iter()`.
        Once = "once",
        /// `iter::repeat(v)`: `[v].into_iter().cycle()`.
        Repeat = "repeat",
        /// `iter::repeat_n(v, n)`: `[v].into_iter().cycle().take(n)`.
        RepeatN = "repeat_n",
        /// `iter::successors(first, succ)`: a `scan` over `0..` whose state is the next
        /// item, `Option<T>`, advanced by `succ` (the chain ends at its `None`).
        Successors = "successors",
        /// `iter::from_fn(f)`: `(0..).map_while(|_| f())`.
        FromFn = "from_fn",
    }
}

impl IterFn {
    /// The function `path` names: `std::iter::f`, `core::iter::f` or `iter::f`, and a
    /// bare `zip` or `successors` (imported with `use std::iter::zip;`, as is usual; the
    /// other names alone are too likely to be the user's own, or `std::array::from_fn`).
    pub fn of_path(path: &syn::Path) -> Option<IterFn> {
        let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let name = match &segs[..] {
            [root, iter, f] if (root == "std" || root == "core") && iter == "iter" => f,
            [iter, f] if iter == "iter" => f,
            [f] if f == "zip" || f == "successors" => f,
            _ => return None,
        };
        IterFn::from_name(name)
    }

    /// The function `path` names as the argument of a `chain` (`a.chain(once(v))`,
    /// closing a polygon): also a bare `once`, which there is `std::iter::once` imported.
    pub fn of_chain_argument(path: &syn::Path) -> Option<IterFn> {
        match Self::of_path(path) {
            None if path.is_ident("once") => Some(IterFn::Once),
            f => f,
        }
    }

    /// How many arguments it takes.
    pub fn arity(self) -> usize {
        match self {
            IterFn::Zip | IterFn::RepeatN | IterFn::Successors => 2,
            IterFn::Once | IterFn::Repeat | IterFn::FromFn => 1,
        }
    }
}

super::names! {
    /// The methods of a local `VecDeque` that `lower::deque` reads as its `Vec`'s, and the
    /// constructors it rewrites (`VecDeque::new`, `with_capacity`, `from`).
    pub enum DequeFn {
        New = "new",
        WithCapacity = "with_capacity",
        From = "from",
        PushBack = "push_back",
        PushFront = "push_front",
        PopBack = "pop_back",
        PopFront = "pop_front",
        Front = "front",
        Back = "back",
        FrontMut = "front_mut",
        BackMut = "back_mut",
        Len = "len",
        IsEmpty = "is_empty",
        Iter = "iter",
        IterMut = "iter_mut",
        Clear = "clear",
        Truncate = "truncate",
        Get = "get",
        GetMut = "get_mut",
        Swap = "swap",
        Capacity = "capacity",
    }
}

impl DequeFn {
    /// The `Vec` (or slice) method of the same effect, for those that have one of
    /// another name; `pop_front` has none (it is `reverse`, `pop`, `reverse`).
    pub fn vec_method(self) -> Option<&'static str> {
        match self {
            DequeFn::PushBack => Some("push"),
            DequeFn::PopBack => Some("pop"),
            DequeFn::Front => Some("first"),
            DequeFn::Back => Some("last"),
            DequeFn::FrontMut => Some("first_mut"),
            DequeFn::BackMut => Some("last_mut"),
            _ => None,
        }
    }

    /// Whether it is one of the constructors.
    pub fn constructs(self) -> bool {
        matches!(self, DequeFn::New | DequeFn::WithCapacity | DequeFn::From)
    }
}

super::names! {
    /// `bool`'s `then_some(v)` and `then(|| v)`, which `lower::bool_then` writes as the
    /// `if` they are.
    pub enum BoolThen {
        ThenSome = "then_some",
        Then = "then",
    }
}
