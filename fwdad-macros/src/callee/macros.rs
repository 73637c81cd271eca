//! The `std` macros a derived body may use, each with a lowering of its own, and the ones
//! it rejects (inline assembly). Any other macro runs as written on primal values
//! (`InstKind::Opaque`).

super::names! {
    /// A `std` macro with a lowering.
    pub enum StdMacro {
        Vec = "vec",
        Assert = "assert",
        AssertEq = "assert_eq",
        AssertNe = "assert_ne",
        DebugAssert = "debug_assert",
        DebugAssertEq = "debug_assert_eq",
        DebugAssertNe = "debug_assert_ne",
        Panic = "panic",
        Unreachable = "unreachable",
        Todo = "todo",
        Unimplemented = "unimplemented",
        Println = "println",
        Print = "print",
        Eprintln = "eprintln",
        Eprint = "eprint",
        Format = "format",
        Dbg = "dbg",
        Matches = "matches",
        Write = "write",
        Writeln = "writeln",
        // Inline assembly: rejected in a derived body, as `unsafe` is.
        Asm = "asm",
        GlobalAsm = "global_asm",
        NakedAsm = "naked_asm",
    }
}

impl StdMacro {
    /// The macro named by the last segment of `path` (`vec!`, `std::println!`).
    pub fn of_path(path: &syn::Path) -> Option<StdMacro> {
        StdMacro::from_name(&path.segments.last()?.ident.to_string())
    }
    /// `debug_assert*!`: checked only with debug assertions, as its `assert*!`.
    pub fn debug_of(self) -> Option<StdMacro> {
        match self {
            StdMacro::DebugAssert => Some(StdMacro::Assert),
            StdMacro::DebugAssertEq => Some(StdMacro::AssertEq),
            StdMacro::DebugAssertNe => Some(StdMacro::AssertNe),
            _ => None,
        }
    }
    /// `write!(out, ..)`, `writeln!(out, ..)`: run as written, their destination lent `&mut`.
    pub fn lends_first_arg(self) -> bool {
        matches!(self, StdMacro::Write | StdMacro::Writeln)
    }
    /// `println!`, `print!`, `eprintln!`, `eprint!`, `format!`: formatting macros.
    pub fn formats(self) -> bool {
        matches!(
            self,
            StdMacro::Println
                | StdMacro::Print
                | StdMacro::Eprintln
                | StdMacro::Eprint
                | StdMacro::Format
        )
    }
    /// The panic message of a diverging macro (`panic!`, `unreachable!`, `todo!`,
    /// `unimplemented!`) without arguments, as `std` words it; `None` for the others.
    pub fn default_message(self) -> Option<&'static str> {
        match self {
            StdMacro::Panic => Some("explicit panic"),
            StdMacro::Unreachable => Some("internal error: entered unreachable code"),
            StdMacro::Todo => Some("not yet implemented"),
            StdMacro::Unimplemented => Some("not implemented"),
            _ => None,
        }
    }
}

/// Whether `path` is the runtime's `fail` (`::fwdad::__private::fail`), which `lower` emits
/// for `panic!(..)`, `unreachable!(..)` and failed assertions: a call whose value is `!`.
pub fn is_runtime_fail(path: &syn::Path) -> bool {
    path.segments.last().is_some_and(|s| s.ident == "fail")
        && path.segments.iter().any(|s| s.ident == "__private")
}
