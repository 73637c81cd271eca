//! The IR: structured SSA (MLIR's `scf` style) over Rust expressions.
//!
//! Invariants (checked by [`verify`]):
//! * every [`Value`] is defined exactly once: by a parameter, an instruction result, or a
//!   region parameter, and is used only where its definition dominates (earlier in the same
//!   region, or in an enclosing region);
//! * control flow is structured: an `If` owns two regions, a `Loop` one; a region ends in a
//!   [`Terminator`] (`Yield` its results to the parent, `Return` from the function,
//!   `Break`/`Continue` to an enclosing loop), so emission is a tree walk back to Rust's
//!   `if`/`loop` and the rule's control flow is the primal's;
//! * mutable locals are not memory: each assignment makes a new value, and values that
//!   change in a branch or a loop flow out through region results and loop parameters;
//! * writes through `&mut` (buffers) are instructions with effects ([`InstKind::Store`]);
//! * every instruction keeps the span of the source expression it came from.

pub mod display;
pub mod entity;
pub mod verify;

pub use display::display_fn;
use entity::{entity, EntityVec};
use proc_macro2::Span;
pub use verify::verify;

use crate::callee::{MethodCallee, PathCallee};
use crate::types::TypeHint;

entity!(
    /// An SSA value.
    Value, "v"
);
entity!(
    /// An instruction.
    Inst, "i"
);
entity!(
    /// A region: a straight-line list of instructions ending in a terminator.
    Region, "r"
);

/// A function in IR form.
#[derive(Clone, Debug)]
pub struct Function {
    /// The function's name.
    pub name: syn::Ident,
    /// Its parameters, in order.
    pub params: Vec<Param>,
    /// The declared return type (`()` when omitted).
    pub ret: syn::Type,
    /// Value definitions.
    pub values: EntityVec<Value, ValueData>,
    /// Instruction definitions.
    pub insts: EntityVec<Inst, InstData>,
    /// Region definitions.
    pub regions: EntityVec<Region, RegionData>,
    /// The body region (its `Yield` is the function's result).
    pub body: Region,
    /// Items declared inside the body (`const`, `use`, nested `fn`), emitted verbatim.
    pub items: Vec<syn::Item>,
    /// Types the user wrote on `let` bindings, kept so the emitted code infers as theirs.
    pub annotations: std::collections::HashMap<Value, syn::Type>,
    /// The closures passed to functions (`call [closure]` instructions), by result.
    pub closures: std::collections::HashMap<Value, ClosureArg>,
    /// Results of calls that are called later as functions (`let obj = objective(mu);
    /// obj(x)`): always computed by the rule, which returns the dual function; and the
    /// function-valued parameters.
    pub fn_sources: std::collections::HashSet<Value>,
    /// Whether the function (with its `impl`'s) has type parameters: a field's float may
    /// then be of one, which the emitted code cannot name.
    pub type_params: bool,
    /// The function's float type parameters (its `impl`'s first): a callee's helpers that
    /// type a closure's dual form are named at the one there is (`f64` when none).
    pub float_params: Vec<syn::Ident>,
    /// Parameters typed with a type parameter or a trait object (`m: &M`, `b: &dyn Body`,
    /// `Box<dyn Body>`): their methods come from their bounds or their trait, whose own
    /// errors say what to annotate, so `emit` gives their calls no stand-in rule.
    pub bound_receivers: std::collections::HashSet<Value>,
    /// The `Self` type of an associated call written through its trait,
    /// `<Decay as Model>::new(a, b)`, by result: its `func` is the trait's path
    /// (`Model::new`), and a function without `self` needs the type to be found.
    pub qualified_self: std::collections::HashMap<Value, syn::Type>,
    /// Results of `Box::new(..)` inside the initialiser of a `let` typed with a box of a
    /// trait object of the user's (`let shapes: Vec<Box<dyn Sdf>> = vec![Box::new(..)]`),
    /// with that trait object (`dyn Sdf`): a value that depends on the inputs is boxed
    /// with its tangent (`<dyn Sdf>::box_with_its_derivative`).
    pub box_dyn: std::collections::HashMap<Value, syn::Type>,
}

/// [`ClosureArg::index`] of a closure the function returns.
pub const RETURNED: usize = usize::MAX;

/// How a closure is passed to a function: as it is, `&`, `&mut` or `Box::new(..)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgWrap {
    Plain,
    Ref,
    RefMut,
    Boxed,
}

/// A closure passed to a user's function (`simpson(|x| x * mu, ..)`): its syntax, where it
/// goes, and what it captures (the `call [closure]` instruction's operands, in order).
#[derive(Clone, Debug)]
pub struct ClosureArg {
    /// The closure as written.
    pub closure: syn::ExprClosure,
    /// The argument position in the callee.
    pub index: usize,
    /// How it is passed.
    pub wrap: ArgWrap,
    /// The captured variables' names.
    pub captures: Vec<syn::Ident>,
    /// What the syntax tells of their types.
    pub hints: Vec<TypeHint>,
    /// How the dual closure holds each capture, as Rust's closure would.
    pub modes: Vec<Capture>,
    /// Whether each capture is a function value the closure calls (`f(t)` after `let f =
    /// make_scaler(k);`): the dual function, taken by reference and called by name.
    pub fn_values: Vec<bool>,
    /// The dual body (statements binding `__fwdad_arg<i>` for the parameters, then the
    /// captures), once the caller's activity is known (`crate::higher_order::prepare`).
    pub body: Option<proc_macro2::TokenStream>,
    /// A function passed by name (`simpson(my_fn, ..)`): its path; it has a rule, so
    /// there is no body to differentiate.
    pub named: Option<syn::Path>,
    /// What it is passed to.
    pub target: ClosureTarget,
}

/// How a [`ClosureArg`] holds a captured variable: as Rust's closures do, by reference
/// unless it is `move`, so that a capture need not be `Clone` and is never copied per call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    /// A float, integer, `bool`, shared reference or tuple of those: copied, as reading
    /// it through a borrow would.
    Copy,
    /// Another value, in a closure that is not `move`: the operand is `ref` of the
    /// variable, and the body, which takes `&T`, reads it as `(*name)`.
    Borrow,
    /// Another value, in a `move` (or returned) closure: moved into the dual closure and
    /// lent `&` to its body at each call, read as `(*name)`.
    Move,
    /// A variable the closure assigns (`calls += 1`): lent `&mut` (the operand is
    /// `ref_mut` of the variable), read as `(*name)`.
    LendMut,
    /// A capture bound `mut` on which the closure calls a method of the user's
    /// (`rng.uniform()`), which may take it `&mut` or `&`: lent as [`Capture::LendMut`],
    /// held in a `RefCell` so that the dual closure stays `Fn` when the method only reads.
    LendCell,
    /// A capture a `move` (or returned) closure assigns or calls a method of the user's on:
    /// the closure's own copy, moved into a `RefCell` in the dual closure and lent `&mut`
    /// at each call, read as `(*name)`; the caller's variable keeps its value, as in Rust.
    MoveCell,
    /// A `&mut` parameter (`log: &mut Vec<String>`): reborrowed, `&mut` when the closure
    /// writes through it (`log.push(..)`), else shared; the body takes the reference as
    /// the function does, so its uses stay as written.
    Reborrow { mutable: bool },
}

/// What a [`ClosureArg`] is passed to, which decides where its dual form gets its
/// parameter types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClosureTarget {
    /// A function by path (the `call [closure]`'s `func`): its marker's helpers.
    Function,
    /// A method of the user's (`solver.solve(|x| ..)`) on `receiver`: the helpers the
    /// method's `impl` puts on the receiver's type.
    Method { receiver: Value },
    /// A method of the user's called by path (`Solver::solve(&s, |x| ..)`, the
    /// `call [closure]`'s `func`): the helpers on the type the path names.
    Assoc,
    /// A library's map (`a.mapv(|x| ..)`, `v.map(..)`, `v.zip_map(&w, ..)`) on `receiver`:
    /// the closure's parameters are the mode's scalar duals.
    Library {
        receiver: Value,
        method: syn::Ident,
        map: crate::libtypes::LibraryMap,
    },
}

/// A function parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// The parameter's value.
    pub value: Value,
    /// The declared type.
    pub ty: syn::Type,
    /// The parameter's span (generated code that uses it points here).
    pub span: Span,
    /// Declared constant by `#[derive_frule(inactive(..))]` (always a shared reference):
    /// never seeded, taken by the rule as the plain reference.
    pub inactive: bool,
}

impl Param {
    /// Whether the parameter is declared `&mut`.
    pub fn is_mut_ref(&self) -> bool {
        matches!(&self.ty, syn::Type::Reference(r) if r.mutability.is_some())
    }
}

/// What defines a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// The `n`-th function parameter.
    Param(usize),
    /// The `n`-th result of an instruction.
    Inst(Inst, usize),
    /// The `n`-th parameter of a region (a loop-carried value).
    RegionParam(Region, usize),
}

/// A value's definition and what is known of its type.
#[derive(Clone, Debug)]
pub struct ValueData {
    /// Where it is defined.
    pub def: ValueDef,
    /// Its type, as far as the syntax tells.
    pub ty: TypeHint,
    /// The user's variable name, when the value was bound by `let` (for readable output).
    pub name: Option<syn::Ident>,
}

/// An instruction: its kind, results and source span.
#[derive(Clone, Debug)]
pub struct InstData {
    /// What it does.
    pub kind: InstKind,
    /// Its results (one for expressions, one per merged value for `If`/`Loop`).
    pub results: Vec<Value>,
    /// The source expression's span.
    pub span: Span,
}

/// Binary operators. Short-circuit `&&`/`||` are lowered to `If`; compound assignment to
/// an operator and an assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinOp {
    /// Whether the operator compares (its result is a `bool` read off primals).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
    /// The runtime rule of `+ - * / %` on floats.
    pub fn float_op(self) -> Option<crate::callee::FloatOp> {
        use crate::callee::FloatOp;
        Some(match self {
            BinOp::Add => FloatOp::Add,
            BinOp::Sub => FloatOp::Sub,
            BinOp::Mul => FloatOp::Mul,
            BinOp::Div => FloatOp::Div,
            BinOp::Rem => FloatOp::Rem,
            BinOp::BitAnd
            | BinOp::BitOr
            | BinOp::BitXor
            | BinOp::Shl
            | BinOp::Shr
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge => return None,
        })
    }
    /// The printed name.
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "div",
            BinOp::Rem => "rem",
            BinOp::BitAnd => "bitand",
            BinOp::BitOr => "bitor",
            BinOp::BitXor => "bitxor",
            BinOp::Shl => "shl",
            BinOp::Shr => "shr",
            BinOp::Eq => "eq",
            BinOp::Ne => "ne",
            BinOp::Lt => "lt",
            BinOp::Le => "le",
            BinOp::Gt => "gt",
            BinOp::Ge => "ge",
        }
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `!x`
    Not,
    /// `*x`
    Deref,
}

/// The instruction kinds. Every pass matches on this exhaustively (no `_ =>`), so a new
/// kind fails to compile until every pass handles it.
#[derive(Clone, Debug)]
pub enum InstKind {
    /// `let y = x;` / `y = x;` where `x` is a local: a copy (or move), so that mutating
    /// `x` in place afterwards leaves `y` as it was, as in Rust.
    Copy(Value),
    /// A literal: `2.0`, `3`, `true`.
    Lit(syn::Lit),
    /// A path that is not a local: a `const`, a `static`, `f64::consts::PI`, a unit struct.
    Const(syn::Path),
    /// `lhs op rhs`.
    Binary { op: BinOp, lhs: Value, rhs: Value },
    /// `op arg`.
    Unary { op: UnOp, arg: Value },
    /// `&arg` / `&mut arg`.
    Ref { mutable: bool, arg: Value },
    /// `arg as ty`.
    Cast { arg: Value, ty: syn::Type },
    /// `(a, b, ..)`; `()` is the empty tuple.
    Tuple(Vec<Value>),
    /// `[a, b, ..]`.
    Array(Vec<Value>),
    /// `[elem; len]`.
    Repeat { elem: Value, len: syn::Expr },
    /// `vec![a, b, ..]`.
    VecList(Vec<Value>),
    /// `vec![elem; len]` (`len` evaluated at run time).
    VecRepeat { elem: Value, len: Value },
    /// `Path { field: value, .., ..base }`: a struct literal. For a dual, the tangent is the
    /// struct named `PathTangent` with the same fields (the `#[derive(Differentiable)]`
    /// contract).
    Struct {
        path: syn::Path,
        fields: Vec<(syn::Member, Value)>,
        base: Option<Value>,
    },
    /// `&base.member` / `&mut base.member`: a borrowed field (a field used as a place:
    /// `p.w[i]`, `p.w.len()`, `&p.w`), so that reading through it does not move it.
    FieldRef {
        base: Value,
        member: syn::Member,
        mutable: bool,
    },
    /// `base.member` read by value.
    Field { base: Value, member: syn::Member },
    /// `base[index]` read by value (`index` an integer).
    Index { base: Value, index: Value },
    /// `&base[index]` / `&mut base[index]`: a borrowed element (what iterating a slice
    /// yields).
    ElemRef {
        base: Value,
        index: Value,
        mutable: bool,
    },
    /// `&base[range]` / `&mut base[range]`: a borrowed sub-slice.
    Slice {
        base: Value,
        range: Value,
        mutable: bool,
    },
    /// `start..end`, `start..=end`, `..`, ... (integer bounds).
    Range {
        start: Option<Value>,
        end: Option<Value>,
        closed: bool,
    },
    /// `receiver.method::<..>(args)`; `callee`: what the name resolved to (by `lower`).
    MethodCall {
        receiver: Value,
        method: syn::Ident,
        turbofish: Option<syn::AngleBracketedGenericArguments>,
        args: Vec<Value>,
        callee: MethodCallee,
    },
    /// `path(args)`: a call to a function item; `callee`: what the path resolved to.
    Call {
        func: syn::Path,
        args: Vec<Value>,
        callee: PathCallee,
    },
    /// `*place = value` or `base[index] = value` on a `&mut` place: a write with effects.
    Store { place: Place, value: Value },
    /// `if cond { then } else { else_ }`, results merged from both regions' `Yield`s.
    If {
        cond: Value,
        then_region: Region,
        else_region: Region,
    },
    /// `loop { body }` with loop-carried values: `init` seeds the body's parameters, the
    /// body's `Yield` feeds the next iteration; `Break` gives the results: the loop's
    /// value (`break v`), then the carried values.
    Loop { init: Vec<Value>, body: Region },
    /// `for elem in iter { body }`: the body's parameters are the element, then the
    /// carried values (seeded by `init`); the results are the carried values at exit.
    For {
        iter: Value,
        init: Vec<Value>,
        body: Region,
    },
    /// `match scrutinee { pat if guard => body, .. }`: each arm's guard and body regions
    /// take the pattern's bindings as parameters (in [`crate::lower::pattern_bindings`]
    /// order); a guard yields one `bool`; the bodies' `Yield`s are merged as for `If`.
    Match { scrutinee: Value, arms: Vec<Arm> },
    /// `println!`/`print!`/`eprintln!`/`eprint!`/`format!`: the format string with the
    /// primal values of `args` (`names`: `name = ` for a named or inline-captured argument);
    /// its value is the macro's (`()`, or the `String`).
    Print {
        mac: crate::callee::StdMacro,
        fmt: syn::LitStr,
        /// `dbg!`'s expression as written (printed with `stringify!`, as `dbg!` does).
        shown: Option<proc_macro2::TokenStream>,
        names: Vec<Option<syn::Ident>>,
        args: Vec<Value>,
    },
    /// A macro the registry does not know (`ulps_eq!(x, 1.0)`, `log::debug!("{x}")`), run
    /// as written on the primal values of the locals it names (`captures`, bound to
    /// `args`' primals under their own names). Its value must carry no derivative, which
    /// the emitted code checks.
    Opaque {
        mac: syn::Macro,
        captures: Vec<syn::Ident>,
        args: Vec<Value>,
        /// The first capture is lent `&mut` rather than copied: `write!(out, ..)`'s
        /// destination.
        lent: bool,
    },
    /// A construct that failed to lower (an error was reported); never reaches emission.
    Poison,
}

/// One arm of a [`InstKind::Match`].
#[derive(Clone, Debug)]
pub struct Arm {
    /// The pattern as written.
    pub pat: syn::Pat,
    /// The guard's region, if any.
    pub guard: Option<Region>,
    /// The body's region.
    pub body: Region,
}

/// A place written by [`InstKind::Store`].
#[derive(Clone, Debug)]
pub enum Place {
    /// `*target` where `target: &mut T`.
    Deref(Value),
    /// `target[index]` where `target` is a `&mut` slice, array or `Vec` (or a local one).
    Index(Value, Value),
    /// `target.member` where `target` is a `&mut` struct (or a local one).
    Field(Value, syn::Member),
}

/// How a region ends.
#[derive(Clone, Debug)]
pub enum Terminator {
    /// Hands values to the parent instruction (`If` results, next loop iteration).
    Yield(Vec<Value>),
    /// Returns from the function.
    Return(Value),
    /// Leaves the enclosing loop `depth` levels out (0 = innermost), with the loop results.
    Break { depth: usize, values: Vec<Value> },
    /// Starts the next iteration of the enclosing loop `depth` levels out.
    Continue { depth: usize, values: Vec<Value> },
    /// Never reached: the region's last instruction is an `if` or a `match` none of whose
    /// arms reaches its end (each returns, breaks or continues), so it hands nothing on.
    Unreachable,
}

/// A region: parameters (loop-carried values), instructions, terminator.
#[derive(Clone, Debug)]
pub struct RegionData {
    /// Values bound on entry.
    pub params: Vec<Value>,
    /// Instructions in order.
    pub insts: Vec<Inst>,
    /// How it ends.
    pub term: Terminator,
}

impl Function {
    /// A new value.
    pub fn new_value(&mut self, def: ValueDef, ty: TypeHint) -> Value {
        self.values.push(ValueData {
            def,
            ty,
            name: None,
        })
    }

    /// Every value an instruction reads (not counting its regions' contents).
    pub fn operands(&self, inst: Inst) -> Vec<Value> {
        match &self.insts[inst].kind {
            InstKind::Lit(_) | InstKind::Const(_) | InstKind::Poison => vec![],
            InstKind::Binary { lhs, rhs, .. } => vec![*lhs, *rhs],
            InstKind::Copy(arg)
            | InstKind::Unary { arg, .. }
            | InstKind::Ref { arg, .. }
            | InstKind::Cast { arg, .. }
            | InstKind::Repeat { elem: arg, .. }
            | InstKind::Field { base: arg, .. } => vec![*arg],
            InstKind::Tuple(vs) | InstKind::Array(vs) | InstKind::VecList(vs) => vs.clone(),
            InstKind::Struct { fields, base, .. } => fields
                .iter()
                .map(|(_, v)| *v)
                .chain(base.iter().copied())
                .collect(),
            InstKind::FieldRef { base, .. } => vec![*base],
            InstKind::VecRepeat { elem, len } => vec![*elem, *len],
            InstKind::Index { base, index } | InstKind::ElemRef { base, index, .. } => {
                vec![*base, *index]
            }
            InstKind::Slice { base, range, .. } => vec![*base, *range],
            InstKind::Range { start, end, .. } => start.iter().chain(end.iter()).copied().collect(),
            InstKind::MethodCall { receiver, args, .. } => std::iter::once(*receiver)
                .chain(args.iter().copied())
                .collect(),
            InstKind::Call { args, .. }
            | InstKind::Print { args, .. }
            | InstKind::Opaque { args, .. } => args.clone(),
            InstKind::Store { place, value } => match place {
                Place::Deref(t) | Place::Field(t, _) => vec![*t, *value],
                Place::Index(t, i) => vec![*t, *i, *value],
            },
            InstKind::If { cond, .. } => vec![*cond],
            InstKind::Match { scrutinee, .. } => vec![*scrutinee],
            InstKind::Loop { init, .. } => init.clone(),
            InstKind::For { iter, init, .. } => {
                std::iter::once(*iter).chain(init.iter().copied()).collect()
            }
        }
    }

    /// The regions an instruction owns.
    pub fn inst_regions(&self, inst: Inst) -> Vec<Region> {
        match &self.insts[inst].kind {
            InstKind::If {
                then_region,
                else_region,
                ..
            } => vec![*then_region, *else_region],
            InstKind::Loop { body, .. } | InstKind::For { body, .. } => vec![*body],
            InstKind::Match { arms, .. } => arms
                .iter()
                .flat_map(|a| a.guard.into_iter().chain([a.body]))
                .collect(),
            InstKind::Copy(_)
            | InstKind::Print { .. }
            | InstKind::Opaque { .. }
            | InstKind::Lit(_)
            | InstKind::Const(_)
            | InstKind::Binary { .. }
            | InstKind::Unary { .. }
            | InstKind::Ref { .. }
            | InstKind::Cast { .. }
            | InstKind::Tuple(_)
            | InstKind::Array(_)
            | InstKind::Repeat { .. }
            | InstKind::VecList(_)
            | InstKind::VecRepeat { .. }
            | InstKind::Struct { .. }
            | InstKind::FieldRef { .. }
            | InstKind::Field { .. }
            | InstKind::Index { .. }
            | InstKind::ElemRef { .. }
            | InstKind::Slice { .. }
            | InstKind::Range { .. }
            | InstKind::MethodCall { .. }
            | InstKind::Call { .. }
            | InstKind::Store { .. }
            | InstKind::Poison => vec![],
        }
    }

    /// Whether `v` is a number literal (`0.5`, `2`), a copy of one, or the value of an
    /// `if`/`match` each of whose arms that yields gives one (`if c { 8.0 } else { 1.0 }`):
    /// a value whose type comes from what it meets, as a literal's does.
    pub fn is_number_literal(&self, v: Value) -> bool {
        let ValueDef::Inst(i, k) = self.values[v].def else {
            return false;
        };
        let regions = match &self.insts[i].kind {
            InstKind::Lit(syn::Lit::Float(_) | syn::Lit::Int(_)) => return k == 0,
            InstKind::Copy(w) => return self.is_number_literal(*w),
            InstKind::If {
                then_region,
                else_region,
                ..
            } => vec![*then_region, *else_region],
            InstKind::Match { arms, .. } => arms.iter().map(|a| a.body).collect(),
            _ => return false,
        };
        let yields: Vec<Value> = regions
            .iter()
            .filter_map(|r| match &self.regions[*r].term {
                Terminator::Yield(vs) => vs.get(k).copied(),
                _ => None,
            })
            .collect();
        !yields.is_empty() && yields.iter().all(|&y| self.is_number_literal(y))
    }

    /// Where a value comes from in the source: its parameter, or the expression (or the
    /// loop/match) that defines it. Generated code naming the value carries this span, so
    /// errors about it point at the user's code.
    pub fn value_span(&self, v: Value) -> Span {
        match self.values[v].def {
            ValueDef::Param(i) => self
                .params
                .get(i)
                .map(|p| p.span)
                .unwrap_or_else(Span::call_site),
            ValueDef::Inst(inst, _) => self.insts[inst].span,
            ValueDef::RegionParam(r, _) => self
                .insts
                .iter()
                .find(|(i, _)| self.inst_regions(*i).contains(&r))
                .map(|(_, d)| d.span)
                .unwrap_or_else(Span::call_site),
        }
    }

    /// Whether a loop (`loop`, `while`, `for`), at any depth, writes through a place
    /// (`buf[i] = v`, `*r = v`).
    pub fn stores_in_loop(&self) -> bool {
        self.loop_stores(|_| true)
    }

    /// Whether a loop, at any depth, writes through a place that is not a parameter itself
    /// (`buf[i] = v` into a local buffer, or through a reference the body derived).
    pub fn stores_in_loop_off_params(&self) -> bool {
        self.loop_stores(|place| {
            let (Place::Deref(t) | Place::Index(t, _) | Place::Field(t, _)) = place;
            !matches!(self.values[*t].def, ValueDef::Param(_))
        })
    }

    /// Whether a loop, at any depth, holds a `Store` whose place `pick` accepts.
    fn loop_stores(&self, pick: impl Fn(&Place) -> bool) -> bool {
        let mut todo = vec![(self.body, false)];
        while let Some((r, in_loop)) = todo.pop() {
            for &inst in &self.regions[r].insts {
                let kind = &self.insts[inst].kind;
                if let (true, InstKind::Store { place, .. }) = (in_loop, kind) {
                    if pick(place) {
                        return true;
                    }
                }
                let inner = in_loop || matches!(kind, InstKind::Loop { .. } | InstKind::For { .. });
                todo.extend(self.inst_regions(inst).into_iter().map(|r| (r, inner)));
            }
        }
        false
    }

    /// Whether `v` is `x.get_mut(i)`, `x.first_mut()` or `x.last_mut()`: an `Option` of a
    /// `&mut` element, whose `Some(d)` binds a `&mut`.
    fn is_mut_element_option(&self, v: Value) -> bool {
        matches!(
            self.values[v].def,
            ValueDef::Inst(inst, 0) if matches!(
                &self.insts[inst].kind,
                InstKind::MethodCall { callee, .. } if callee.std().is_some_and(|m| m.lends_mut())
            )
        )
    }

    /// Whether `v` is an `Option` of a `&mut`: the result of a `match` whose arms each
    /// yield `Some(r)` of a mutable reference or `None` (`o.as_mut()` of an `Option`
    /// local, `match &mut o { Some(v) => Some(v), None => None }`).
    #[inline(never)]
    fn is_mut_ref_option(&self, v: Value) -> bool {
        let ValueDef::Inst(inst, k) = self.values[v].def else {
            return false;
        };
        let InstKind::Match { arms, .. } = &self.insts[inst].kind else {
            return false;
        };
        let mut lends = false;
        for arm in arms {
            let Terminator::Yield(ys) = &self.regions[arm.body].term else {
                continue;
            };
            let Some(&y) = ys.get(k) else {
                return false;
            };
            let ValueDef::Inst(yi, 0) = self.values[y].def else {
                return false;
            };
            match &self.insts[yi].kind {
                InstKind::Call {
                    callee: PathCallee::Wrap(crate::callee::Wrapper::Some),
                    args,
                    ..
                } if args.len() == 1 && self.is_mut_ref(args[0]) => lends = true,
                InstKind::Const(p) if crate::callee::is_none(p) => {}
                _ => return false,
            }
        }
        lends
    }

    /// Whether `v` is a pair of `&mut` sub-slices lent by its receiver (`x.split_at_mut(m)`:
    /// of the methods that lend `&mut` parts, the one whose result has fields).
    fn is_mut_pair(&self, v: Value) -> bool {
        matches!(
            self.values[v].def,
            ValueDef::Inst(inst, 0) if matches!(
                &self.insts[inst].kind,
                InstKind::MethodCall { callee: MethodCallee::Std(m), .. } if m.lends_mut()
            )
        )
    }

    /// Whether `v` is `x.get_mut(i).unwrap()` (or `.expect(..)`, of `first_mut`/`last_mut`
    /// too): a `&mut` element of `x`.
    fn unwraps_mut_element(&self, v: Value) -> bool {
        matches!(
            self.values[v].def,
            ValueDef::Inst(inst, 0) if matches!(
                &self.insts[inst].kind,
                InstKind::MethodCall { callee, receiver, .. }
                    if callee.std().is_some_and(|m| m.unwraps())
                        && (self.is_mut_element_option(*receiver) || self.is_mut_ref_option(*receiver))
            )
        )
    }

    /// The `match` arm whose body or guard is `region`, with the match's scrutinee.
    pub fn arm_of(&self, region: Region) -> Option<(Value, &Arm)> {
        self.insts.iter().find_map(|(_, data)| match &data.kind {
            InstKind::Match { scrutinee, arms } => arms
                .iter()
                .find(|a| a.body == region || a.guard == Some(region))
                .map(|a| (*scrutinee, a)),
            _ => None,
        })
    }

    /// Whether `v` is a mutable reference: a `&mut` parameter, `&mut x`, `&mut x[i]`,
    /// `&mut x.f`, `&mut x[a..b]`, a value annotated `&mut T` (`let r: &mut f64 = pick(..)`),
    /// or a binding of a `match` on a mutable reference (`if let Some(d) = &mut s.opt`:
    /// Rust's default binding mode makes `d` a `&mut`) whose pattern has no `&`/`mut`/`ref`
    /// of its own. Emission reborrows and dereferences these; linearisation snapshots them
    /// afresh at each read (a write through one changes what it reads).
    pub fn is_mut_ref(&self, v: Value) -> bool {
        if let Some(syn::Type::Reference(r)) = self.annotations.get(&v) {
            if r.mutability.is_some() {
                return true;
            }
        }
        match self.values[v].def {
            ValueDef::Param(i) => self.params[i].is_mut_ref(),
            ValueDef::Inst(inst, 0) => match self.insts[inst].kind {
                // `let q = p;` of a `&mut` moves it.
                InstKind::Copy(src) => self.is_mut_ref(src),
                InstKind::Ref { mutable, .. }
                | InstKind::Slice { mutable, .. }
                | InstKind::ElemRef { mutable, .. }
                | InstKind::FieldRef { mutable, .. } => mutable,
                // An element of a tuple built in the body (`(v, o)` passed on by a `map`
                // closure) is the value put there.
                InstKind::Field { base, ref member } => match self.tuple_elem(base, member) {
                    Some(e) => self.is_mut_ref(e),
                    // The value of `(k, v)` of `for (k, v) in m.iter_mut()` of a map.
                    None if self.map_item_lent_mut(base) == Some(true) => {
                        matches!(member, syn::Member::Unnamed(i) if i.index == 1)
                    }
                    // A half of `x.split_at_mut(m)`: `let (left, right) = x.split_at_mut(m);`.
                    None => self.is_mut_pair(base),
                },
                _ => self.unwraps_mut_element(v),
            },
            // `v` of `for v in m.values_mut()`.
            ValueDef::RegionParam(..) if self.map_item_lent_mut(v) == Some(false) => true,
            ValueDef::RegionParam(region, _) => self.arm_of(region).is_some_and(|(s, arm)| {
                arm.body == region
                    && (self.is_mut_ref(s)
                        || self.is_mut_element_option(s)
                        || self.is_mut_ref_option(s))
                    && binds_plainly(&arm.pat)
            }),
            ValueDef::Inst(..) => false,
        }
    }

    /// Whether `item` is the item of a `for` loop lending a map's values `&mut`: `Some(false)`
    /// for `m.values_mut()` (the item is a `&mut` value), `Some(true)` for `m.iter_mut()`,
    /// `&mut m` or a `&mut` map parameter (a key and a `&mut` value).
    fn map_item_lent_mut(&self, item: Value) -> Option<bool> {
        let ValueDef::RegionParam(body, 0) = self.values[item].def else {
            return None;
        };
        let iter = self.insts.iter().find_map(|(_, d)| match &d.kind {
            InstKind::For { iter, body: b, .. } if *b == body => Some(*iter),
            _ => None,
        })?;
        let is_map = |v: Value| matches!(self.values[v].ty.deref_all_pub(), TypeHint::Map(..));
        match self.values[iter].def {
            ValueDef::Inst(inst, 0) => match &self.insts[inst].kind {
                InstKind::MethodCall {
                    receiver, callee, ..
                } if is_map(*receiver) => match callee.std() {
                    Some(crate::callee::StdMethod::ValuesMut) => Some(false),
                    Some(crate::callee::StdMethod::IterMut) => Some(true),
                    _ => None,
                },
                InstKind::Ref { arg, mutable: true } if is_map(*arg) => Some(true),
                _ => None,
            },
            ValueDef::Param(i) if is_map(iter) && self.params[i].is_mut_ref() => Some(true),
            _ => None,
        }
    }

    /// `t.k` of a tuple `t = (a, b, ..)` built in the body: its `k`-th element.
    fn tuple_elem(&self, t: Value, member: &syn::Member) -> Option<Value> {
        let syn::Member::Unnamed(k) = member else {
            return None;
        };
        match self.values[t].def {
            ValueDef::Inst(inst, 0) => match &self.insts[inst].kind {
                InstKind::Tuple(vs) => vs.get(k.index as usize).copied(),
                _ => None,
            },
            _ => None,
        }
    }

    /// The value whose storage a place expression reaches: through references,
    /// dereferences, fields and indexing, back to a local, parameter or loop value.
    pub fn place_root(&self, v: Value) -> Value {
        match self.values[v].def {
            ValueDef::Inst(inst, 0) => match &self.insts[inst].kind {
                // `t.1` of a tuple built in the body holding a borrow: the borrow's place.
                InstKind::Field { base, member } if self.tuple_elem(*base, member).is_some() => {
                    self.tuple_elem(*base, member)
                        .map_or(v, |e| self.place_root(e))
                }
                InstKind::Ref { arg, .. }
                | InstKind::Unary {
                    op: UnOp::Deref,
                    arg,
                }
                | InstKind::Field { base: arg, .. }
                | InstKind::Index { base: arg, .. }
                | InstKind::ElemRef { base: arg, .. }
                | InstKind::FieldRef { base: arg, .. }
                | InstKind::Slice { base: arg, .. } => self.place_root(*arg),
                // `v[i] = x` through a user type's `IndexMut` borrows into `v`.
                InstKind::Call {
                    callee: PathCallee::UserOp(crate::callee::UserOp::IndexMut),
                    args,
                    ..
                } if !args.is_empty() => self.place_root(args[0]),
                // `v.get_mut(i)` borrows into `v`; so does `v.get_mut(i).unwrap()`.
                InstKind::MethodCall {
                    receiver, callee, ..
                } if callee.std().is_some_and(|m| m.lends_mut()) || self.unwraps_mut_element(v) => {
                    self.place_root(*receiver)
                }
                _ => v,
            },
            ValueDef::Inst(..) | ValueDef::Param(_) | ValueDef::RegionParam(..) => v,
        }
    }

    /// Whether `region` (with the regions nested in it) may change the storage of `root`
    /// in place, and so the shape of its zero tangent: a store into it, a `&mut` borrow of
    /// it, or a method called on `root` itself other than a `std` one known to be read-only
    /// (`push`, `resize`, a user's method, ...; a method of an element read by value,
    /// `c[0].abs()`, changes nothing).
    pub fn reshapes(&self, region: Region, root: Value) -> bool {
        let mut todo = vec![region];
        while let Some(r) = todo.pop() {
            for &inst in &self.regions[r].insts {
                let hit = match &self.insts[inst].kind {
                    InstKind::Store { place, .. } => {
                        let (Place::Deref(t) | Place::Index(t, _) | Place::Field(t, _)) = place;
                        self.place_root(*t) == root
                    }
                    InstKind::Ref { arg, mutable: true } => self.place_root(*arg) == root,
                    InstKind::Slice {
                        base,
                        mutable: true,
                        ..
                    }
                    | InstKind::ElemRef {
                        base,
                        mutable: true,
                        ..
                    }
                    | InstKind::FieldRef {
                        base,
                        mutable: true,
                        ..
                    } => self.place_root(*base) == root,
                    InstKind::MethodCall {
                        receiver, callee, ..
                    } => *receiver == root && !callee.std().is_some_and(|m| m.is_read_only()),
                    _ => false,
                };
                if hit {
                    return true;
                }
                todo.extend(self.inst_regions(inst));
            }
        }
        false
    }

    /// The values a terminator reads.
    pub fn term_operands(&self, region: Region) -> Vec<Value> {
        match &self.regions[region].term {
            Terminator::Yield(vs)
            | Terminator::Break { values: vs, .. }
            | Terminator::Continue { values: vs, .. } => vs.clone(),
            Terminator::Return(v) => vec![*v],
            Terminator::Unreachable => vec![],
        }
    }
}

/// Whether `pat` binds only by the default binding mode: no `&`/`&mut` pattern, no `mut`,
/// `ref` or `@` binding.
fn binds_plainly(pat: &syn::Pat) -> bool {
    struct Plain(bool);
    impl<'ast> syn::visit::Visit<'ast> for Plain {
        fn visit_pat_reference(&mut self, _: &'ast syn::PatReference) {
            self.0 = false;
        }
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            if p.by_ref.is_some() || p.mutability.is_some() || p.subpat.is_some() {
                self.0 = false;
            }
        }
    }
    let mut v = Plain(true);
    syn::visit::Visit::visit_pat(&mut v, pat);
    v.0
}
