//! `dual`: the dual transformation, as a plan per instruction (Mooncake's line-by-line
//! transform: every operation becomes a call to its rule).
//!
//! Input: IR + activity. Output: for each instruction a [`Plan`]: the [`Form`] it is
//! emitted in, and for each operand whether it must be a dual ([`Need::Dual`]: inactive
//! values are promoted to constant duals), a primal ([`Need::Primal`]: active values are
//! read through `.primal`), or is taken as it is ([`Need::AsIs`]: the runtime rule accepts
//! both, so a constant operand never has a zero tangent multiplied).
//!
//! | instruction | all operands inactive | some operand active |
//! |---|---|---|
//! | `mul a, b` | `a * b` | `ops::mul(a, b)` (mixes allowed) |
//! | `lt a, b` | `a < b` | `a.primal < b` |
//! | `method x.sin()` | `x.sin()` | `ops::sin(x)` |
//! | `call f(a, b)` | `f(a, b)` | `<f as Frule<_, S>>::frule(&f {}, (a, dual(b)))` |
//! | `if c {..}` | `if c {..}` | `if c.primal {..}`, yields promoted to the merge's activity |
//! | `store t[i] = v` | `t[i] = v` | `store_index(&mut t, i, dual(v))` |
//!
//! An instruction whose result is active although every operand is inactive (a local
//! buffer that later receives an active store) is computed on primals and promoted where
//! it is defined.

use crate::activity::Activity;
use crate::callee::{ArgUse, FloatOp, MethodCallee, PathCallee, Shape, StdMethod, Wrapper};
use crate::ir::entity::SecondaryMap;
use crate::ir::{BinOp, Function, Inst, InstKind, Place, UnOp, Value};

/// What an operand must be at its use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Whatever it is.
    AsIs,
    /// A dual (promote if inactive).
    Dual,
    /// A primal (read `.primal` if active).
    Primal,
}

/// How an instruction is emitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// The source operation on primal operands; `promote`: wrap the result as a constant
    /// dual (its storage will receive tangents).
    Primal { promote: bool },
    /// `let y = x;`: the value as it is (dual or primal).
    Copy,
    /// `ops::<rule>(operands..)`.
    Op(FloatOp),
    /// `ops::sin_cos_dual(x)`: the pair as one dual.
    SinCos,
    /// Through the `Frule` trait.
    Frule,
    /// `Some(x)` / `Ok(x)` of a dual, `std::mem::swap(a, b)` of duals, ...: the runtime's
    /// structural function.
    Wrap(Wrapper),
    /// `recv.m(args)` of a method with a derived rule (`#[derive_frule] impl Ty`): the rule
    /// is found through `recv.primal.m_forward_rule()`.
    UserMethod,
    /// `Ty::m(args)`: the rule is `Ty::add_derive_frule_to_the_impl_of_m()`.
    AssocFrule,
    /// `receiver.method(args)` on a dual receiver (slice methods such as `len`).
    Method,
    /// A float-to-float `as` cast of a dual.
    Cast,
    /// `(a, b)` / `[a, b]` / `[a; n]` of duals, as one dual.
    Tuple,
    /// See [`Form::Tuple`].
    Array,
    /// See [`Form::Tuple`].
    Repeat,
    /// `vec![a, b]` of duals.
    VecList,
    /// `a..b` of dual floats: the range of the primals and the range of the tangents.
    Range,
    /// A struct literal of duals: the struct and its `..Tangent` struct.
    Struct,
    /// `&base.member` of a dual.
    FieldRef,
    /// `vec![x; n]` of a dual.
    VecRepeat,
    /// `base.member` of a dual.
    Field,
    /// `base[index]` of a dual (by value).
    Index,
    /// `&base[range]` of a dual.
    Slice,
    /// `&base[index]` / `&mut base[index]` of a dual.
    ElemRef,
    /// `&x` / `&mut x` of a dual.
    Ref,
    /// `*x` of a dual reference.
    Deref,
    /// A store into a dual buffer.
    Store,
    /// `if`, `loop`, `for`: regions emitted recursively.
    Control,
    /// An operation on a library value (`b - a`, `v.norm()`, `Vector3::new(x, y, z)`),
    /// emitted as written with every operand lifted to the library's type over duals
    /// (`crate::libtypes`).
    Lib,
}

/// The plan for one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// How it is emitted.
    pub form: Form,
    /// One entry per operand, in [`Function::operands`] order.
    pub needs: Vec<Need>,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            form: Form::Primal { promote: false },
            needs: vec![],
        }
    }
}

/// The plans of all instructions.
pub type DualPlan = SecondaryMap<Inst, Plan>;

/// Plans every instruction.
pub fn transform(func: &Function, active: &Activity) -> DualPlan {
    let mut plans = SecondaryMap::with_default(Plan::default());
    let lib = crate::libtypes::lib_values(func);
    for (inst, _) in func.insts.iter() {
        let plan = match lib_plan(func, active, &lib, inst) {
            Some(plan) => plan,
            None => transform_inst(func, active, inst),
        };
        plans.set(inst, plan);
    }
    plans
}

/// The plan of an active operation on a library value: [`Form::Lib`].
fn lib_plan(
    func: &Function,
    active: &Activity,
    lib: &SecondaryMap<Value, bool>,
    inst: Inst,
) -> Option<Plan> {
    let is_lib = |v: &Value| *lib.get(*v);
    let data = &func.insts[inst];
    let result_active = data.results.first().is_some_and(|r| *active.get(*r));
    // The counter of `for (i, mut row) in m.row_iter_mut().enumerate()`: read off the item
    // (a library value in the rule's form, not a dual) as written.
    let counter = matches!(&data.kind, InstKind::Field { base, .. }
        if is_lib(base) && *active.get(*base) && !crate::libtypes::is_param(func, *base))
        && data
            .results
            .first()
            .is_some_and(|r| func.values[*r].ty == crate::types::TypeHint::Int);
    if !result_active && !counter {
        return None;
    }
    let involved = match &data.kind {
        InstKind::Binary { op, lhs, rhs } => !op.is_comparison() && (is_lib(lhs) || is_lib(rhs)),
        InstKind::Unary {
            op: UnOp::Neg | UnOp::Deref,
            arg,
        }
        | InstKind::Ref { arg, .. } => is_lib(arg),
        InstKind::MethodCall {
            receiver, method, ..
        } => is_lib(receiver) || crate::libtypes::copies_glam_seq(func, *receiver, method),
        InstKind::Call { func: path, .. } => crate::libtypes::is_lib_ctor(path),
        InstKind::Field { base, .. } | InstKind::Index { base, .. } => is_lib(base),
        // A borrowed field that is itself a library value (`&mut iso.rotation`), or a
        // scalar field of a value over duals (`p.x` as a method's receiver, read by value);
        // a parameter's scalar field is read from its dual.
        InstKind::FieldRef { base, .. } => {
            is_lib(base)
                && (data.results.first().is_some_and(is_lib)
                    || !crate::libtypes::is_param(func, *base))
        }
        // A borrowed element of a local array of library values (`&pts[i]`).
        InstKind::ElemRef { base, .. } => is_lib(base) && data.results.first().is_some_and(is_lib),
        // A local array of library values (`[Point3::new(x[0], ..), ..]`).
        InstKind::Array(elems) => elems.iter().any(is_lib),
        InstKind::Repeat { elem, .. } => is_lib(elem),
        // A tuple of views (`(m.row_mut(0), n.column_mut(1))`), kept in the library's form.
        InstKind::Tuple(_) => data.results.first().is_some_and(is_lib),
        _ => false,
    };
    involved.then(|| Plan {
        form: Form::Lib,
        needs: vec![Need::AsIs; func.operands(inst).len()],
    })
}

/// Whether `inst` is a method call or call on a library value ([`Form::Lib`]'s, which
/// `check` leaves to the library).
fn is_lib_inst(func: &Function, lib: &SecondaryMap<Value, bool>, inst: Inst) -> bool {
    match &func.insts[inst].kind {
        InstKind::MethodCall {
            receiver, method, ..
        } => *lib.get(*receiver) || crate::libtypes::copies_glam_seq(func, *receiver, method),
        InstKind::Call { func: path, .. } => crate::libtypes::is_lib_ctor(path),
        _ => false,
    }
}

fn transform_inst(func: &Function, active: &Activity, inst: Inst) -> Plan {
    let is = |v: Value| *active.get(v);
    let ops = func.operands(inst);
    let result_active = func.insts[inst].results.first().is_some_and(|r| is(*r));
    let any_active = ops.iter().any(|v| is(*v));
    let all = |n: Need| vec![n; ops.len()];
    // Inactive result from inactive operands: plain Rust. Active result from inactive
    // operands: plain Rust, promoted.
    let primal = Plan {
        form: Form::Primal {
            promote: result_active,
        },
        needs: all(Need::Primal),
    };
    if !any_active
        && !matches!(
            func.insts[inst].kind,
            InstKind::If { .. }
                | InstKind::Loop { .. }
                | InstKind::For { .. }
                | InstKind::Call {
                    callee: PathCallee::Closure | PathCallee::FnValue,
                    ..
                }
        )
        && !func.insts[inst]
            .results
            .first()
            .is_some_and(|r| func.fn_sources.contains(r) || func.box_dyn.contains_key(r))
    {
        return primal;
    }
    let plan = |form: Form, needs: Vec<Need>| Plan { form, needs };
    match &func.insts[inst].kind {
        InstKind::Range { .. } if result_active => plan(Form::Range, all(Need::Dual)),
        InstKind::Lit(_) | InstKind::Const(_) | InstKind::Range { .. } | InstKind::Poison => primal,
        // Prints the primal values.
        InstKind::Print { .. } | InstKind::Opaque { .. } => primal,
        InstKind::Copy(_) => plan(Form::Copy, all(Need::AsIs)),
        InstKind::Binary {
            op: BinOp::Mul,
            lhs,
            rhs,
        } if result_active && lhs == rhs => {
            // `x * x`: one rule, one tangent update.
            plan(Form::Op(FloatOp::Sq), vec![Need::AsIs, Need::AsIs])
        }
        InstKind::Binary { op, .. } => match op.float_op() {
            Some(rule) if result_active => plan(Form::Op(rule), all(Need::AsIs)),
            _ => primal,
        },
        InstKind::Unary { op, arg } => match (op, result_active) {
            (UnOp::Neg, true) if is(*arg) => plan(Form::Op(FloatOp::Neg), all(Need::AsIs)),
            (UnOp::Deref, true) if is(*arg) => plan(Form::Deref, all(Need::AsIs)),
            (UnOp::Neg | UnOp::Deref | UnOp::Not, _) => primal,
        },
        InstKind::Ref { .. } if result_active => plan(Form::Ref, all(Need::AsIs)),
        InstKind::Cast { .. } if result_active => plan(Form::Cast, all(Need::AsIs)),
        InstKind::Tuple(_) if result_active => plan(Form::Tuple, all(Need::Dual)),
        InstKind::Array(_) if result_active => plan(Form::Array, all(Need::Dual)),
        InstKind::Repeat { .. } if result_active => plan(Form::Repeat, all(Need::Dual)),
        InstKind::VecList(_) if result_active => plan(Form::VecList, all(Need::Dual)),
        InstKind::Struct { .. } if result_active => plan(Form::Struct, all(Need::Dual)),
        InstKind::FieldRef { base, .. } if is(*base) && result_active => {
            plan(Form::FieldRef, all(Need::AsIs))
        }
        InstKind::VecRepeat { .. } if result_active => {
            plan(Form::VecRepeat, vec![Need::Dual, Need::Primal])
        }
        InstKind::Field { base, .. } if is(*base) && result_active => {
            plan(Form::Field, all(Need::AsIs))
        }
        InstKind::Index { base, .. } if is(*base) && result_active => {
            plan(Form::Index, vec![Need::AsIs, Need::Primal])
        }
        InstKind::Slice { base, .. } if is(*base) => {
            plan(Form::Slice, vec![Need::AsIs, Need::Primal])
        }
        InstKind::ElemRef { base, .. } if is(*base) => {
            plan(Form::ElemRef, vec![Need::AsIs, Need::Primal])
        }
        InstKind::Ref { .. }
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
        | InstKind::Slice { .. } => primal,
        InstKind::MethodCall {
            receiver,
            args,
            callee,
            ..
        } => {
            let int_result = (func.insts[inst].results.first())
                .is_some_and(|&r| func.values[r].ty == crate::types::TypeHint::Int);
            match *callee {
                MethodCallee::Float(op) if result_active => float_rule_plan(op, args.len() + 1),
                MethodCallee::Float(_) => primal,
                MethodCallee::Std(m) if m.is_query() => plan(Form::Method, all(Need::AsIs)),
                // `x.to_f64()` of a dual float: `Some(x as f64)`, as `T::from_f64(x)`.
                MethodCallee::Std(m) if is(*receiver) && m.is_float_conversion() => {
                    plan(Form::Wrap(Wrapper::FloatFrom), vec![Need::AsIs])
                }
                // Predicates of the value (`is_nan`, `partial_cmp`, ...) read primals.
                MethodCallee::Std(m) if !result_active && m.is_predicate() => primal,
                // An integer's method (`c.n.pow(2)` on a field whose type is not written).
                MethodCallee::Std(m) if !result_active && m.is_integer() && int_result => primal,
                MethodCallee::User => {
                    let mut needs = vec![Need::AsIs];
                    needs.extend(std::iter::repeat_n(Need::Dual, args.len()));
                    plan(Form::UserMethod, needs)
                }
                // `o.unwrap_or(x)`: a constant `Option` with an active default is promoted.
                MethodCallee::Std(m) if m.or_default() && !is(*receiver) && result_active => {
                    plan(Form::Method, vec![Need::Dual, Need::Dual])
                }
                MethodCallee::Std(_) | MethodCallee::Unknown | MethodCallee::Unresolved
                    if is(*receiver) =>
                {
                    plan(Form::Method, method_needs(callee.std(), args.len()))
                }
                MethodCallee::Std(_) | MethodCallee::Unknown | MethodCallee::Unresolved
                    if result_active =>
                {
                    plan(Form::Method, all(Need::AsIs))
                }
                MethodCallee::Std(_) | MethodCallee::Unknown | MethodCallee::Unresolved => primal,
            }
        }
        InstKind::Call { args, callee, .. } => match *callee {
            // `Vec::with_capacity(self.n)`: a size, read as the primal it is (a field of an
            // active struct is active to the analysis, which does not know its type).
            PathCallee::CapacityCtor => primal,
            // A chain's range element (`rt::range_at`/`range_from_at`), an integer.
            PathCallee::RangeElem => primal,
            // `let p;` before its first assignment.
            PathCallee::Undef => primal,
            PathCallee::Wrap(w) if w.takes_plain() && !result_active => primal,
            PathCallee::Wrap(w) => plan(Form::Wrap(w), all(Need::Dual)),
            PathCallee::Assoc => plan(Form::AssocFrule, all(Need::Dual)),
            PathCallee::Float(op) if result_active => float_rule_plan(op, args.len()),
            PathCallee::Float(_) => primal,
            // An operator on a user type: a float constant stays plain (a float rule then
            // multiplies no zero tangent); anything else is a dual, as the user's rule takes.
            PathCallee::UserOp(op) if result_active || any_active => {
                let needs = args
                    .iter()
                    .enumerate()
                    .map(|(i, &a)| {
                        let place = i == 0 && op.is_assign();
                        match func.values[a].ty == crate::types::TypeHint::Float && !place {
                            true => Need::AsIs,
                            false => Need::Dual,
                        }
                    })
                    .collect();
                plan(Form::Frule, needs)
            }
            PathCallee::UserOp(_) => primal,
            // The dual function, called with duals; a closure's dual form, built from its
            // captures as they are.
            PathCallee::FnValue => {
                let mut needs = all(Need::Dual);
                if let Some(first) = needs.first_mut() {
                    *first = Need::AsIs;
                }
                plan(Form::Frule, needs)
            }
            PathCallee::Closure => plan(Form::Frule, all(Need::AsIs)),
            // An error's payload, built on primals (`activity::error_payloads`).
            PathCallee::Ctor if !result_active => primal,
            PathCallee::UnknownFloat
            | PathCallee::Ctor
            | PathCallee::Function
            | PathCallee::Unresolved => {
                if result_active || any_active {
                    plan(Form::Frule, own_call_needs(func, inst, &is))
                } else {
                    primal
                }
            }
        },
        InstKind::Store { place, .. } => {
            let target = match place {
                Place::Deref(t) | Place::Index(t, _) | Place::Field(t, _) => *t,
            };
            if is(target) {
                let needs = match place {
                    Place::Deref(_) | Place::Field(..) => vec![Need::AsIs, Need::Dual],
                    Place::Index(..) => vec![Need::AsIs, Need::Primal, Need::Dual],
                };
                plan(Form::Store, needs)
            } else {
                primal
            }
        }
        InstKind::If { .. } => plan(Form::Control, vec![Need::Primal]),
        InstKind::Match { .. } => plan(Form::Control, all(Need::AsIs)),
        InstKind::Loop { .. } => plan(Form::Control, all(Need::AsIs)),
        InstKind::For { .. } => plan(Form::Control, all(Need::AsIs)),
    }
}

/// What the arguments of a call with a rule must be: duals, but for a call of the function
/// itself (recursion, an expression tree's `eval(a, x)` on a child) a constant argument of a
/// parameter declared `inactive` is passed plain, as the rule takes it (a child bound by a
/// `match` on the parameter is no reference `Promoted` knows).
fn own_call_needs(func: &Function, inst: Inst, is: &dyn Fn(Value) -> bool) -> Vec<Need> {
    let InstKind::Call {
        func: path,
        args,
        callee: PathCallee::Function,
    } = &func.insts[inst].kind
    else {
        return vec![Need::Dual; func.operands(inst).len()];
    };
    let own = path.get_ident() == Some(&func.name) && args.len() == func.params.len();
    args.iter()
        .zip(&func.params)
        .map(|(&a, p)| match own && p.inactive && !is(a) {
            true => Need::Primal,
            false => Need::Dual,
        })
        .chain(std::iter::repeat(Need::Dual))
        .take(func.operands(inst).len())
        .collect()
}

/// What the arguments of a method on a dual receiver must be: elements stored into the
/// receiver are duals (a constant is promoted), indices and lengths are primals.
fn method_needs(m: Option<StdMethod>, n_args: usize) -> Vec<Need> {
    let args: Vec<Need> = match m.and_then(StdMethod::arg_uses) {
        Some(uses) => uses
            .iter()
            .map(|u| match u {
                ArgUse::Stored => Need::Dual,
                ArgUse::Index => Need::Primal,
            })
            .collect(),
        None => vec![Need::AsIs; n_args],
    };
    std::iter::once(Need::AsIs).chain(args).collect()
}

fn float_rule_plan(op: FloatOp, n: usize) -> Plan {
    match op.shape() {
        Shape::Unary | Shape::Binary | Shape::Ternary => Plan {
            form: Form::Op(op),
            needs: vec![Need::AsIs; n],
        },
        Shape::Powi => {
            let mut needs = vec![Need::AsIs];
            needs.extend(std::iter::repeat_n(Need::Primal, n.saturating_sub(1)));
            Plan {
                form: Form::Op(op),
                needs,
            }
        }
        Shape::SinCos => Plan {
            form: Form::SinCos,
            needs: vec![Need::AsIs; n],
        },
    }
}

/// Reports `f64::from_bits` (and `f32`'s) of bits taken from a value that carries a
/// derivative (`activity::float_bits`): the float rebuilt depends on the inputs, but the
/// integers between carry no tangent, so its derivative would silently be lost (libm's
/// `log`, a hand-written `frexp`).
#[inline(never)]
fn check_float_bits(func: &Function, active: &Activity, diag: &mut crate::diag::Diagnostics) {
    let mut bits = None;
    for (_, data) in func.insts.iter() {
        let InstKind::Call {
            func: path, args, ..
        } = &data.kind
        else {
            continue;
        };
        if !crate::callee::is_float_from_bits(path) {
            continue;
        }
        let bits = bits.get_or_insert_with(|| crate::activity::float_bits(func, active));
        if args.iter().any(|a| *bits.get(*a)) {
            let written = quote::ToTokens::to_token_stream(path)
                .to_string()
                .replace(' ', "");
            diag.error_spanned(
                path,
                format!("`{written}` rebuilds a float from the bits of a value that depends on the differentiated inputs (`to_bits`), and no derivative flows through integers, so the result would silently carry none: give the function that takes the float apart a rule written by hand with `#[primitive]` (its derivative in closed form), or compute the value with float operations (`x / 2f64.powi(k)`, `x.abs()`, `x.copysign(s)`)"),
            );
        }
    }
}

/// Reports operations on differentiated values that have no rule, before emission turns
/// them into an obscure type error: unknown float methods and `f64::` functions (with a
/// "did you mean"), unknown methods, and constructors of structs or variants.
pub fn check(func: &Function, active: &Activity, diag: &mut crate::diag::Diagnostics) {
    check_float_bits(func, active, diag);
    let is = |v: &Value| *active.get(*v);
    let lib = crate::libtypes::lib_values(func);
    let glam = crate::libtypes::glam_values(func);
    for (inst, data) in func.insts.iter() {
        // A method of glam's that the runtime's mirror over duals does not have: rustc
        // would name the mirror's type.
        if let InstKind::MethodCall {
            receiver, method, ..
        } = &data.kind
        {
            let result_active = data.results.first().is_some_and(is);
            if result_active && *glam.get(*receiver) && !crate::libtypes::glam_has(method) {
                diag.error(
                    method.span(),
                    format!("`#[derive_frule]` has no rule for glam's method `{method}` on values that depend on the differentiated inputs: write it with the methods it has rules for (`dot`, `cross`, `length`, `length_squared`, `normalize`, `distance`, `lerp`, `reflect`, `min`, `max`, `abs`, `clamp`, ... listed in docs/libraries.md) and arithmetic on the vectors or their fields (`v.x`)"),
                );
                continue;
            }
            // A method of nalgebra's factorisations that the runtime's has not.
            if is(receiver) {
                if let Some(made) = crate::libtypes::factorisation_without(func, *receiver, method)
                {
                    diag.error(
                        method.span(),
                        format!("`#[derive_frule]` has no rule for the method `{method}` of a factorisation (`{made}()`) of a matrix that depends on the differentiated inputs: it has `solve`, `solve_mut`, `inverse` (`try_inverse`), `determinant`, and the factors (`l`, `u`, `p`, `q`, `r`, `unpack`); for an update, factorise the updated matrix (`(a + v * v.transpose()).cholesky()`)"),
                    );
                    continue;
                }
            }
        }
        if is_lib_inst(func, &lib, inst) {
            continue;
        }
        // A library's map (`mapv`, `map`, `zip_map`) on a value the syntax does not show
        // is a library's.
        if let InstKind::Call {
            callee: PathCallee::Closure,
            ..
        } = &data.kind
        {
            let closure = data.results.first().and_then(|r| func.closures.get(r));
            if let Some(crate::ir::ClosureArg {
                closure,
                target:
                    crate::ir::ClosureTarget::Library {
                        receiver, method, ..
                    },
                ..
            }) = closure
            {
                if !*lib.get(*receiver) {
                    diag.error_spanned(
                        closure,
                        format!("`#[derive_frule]` does not support a closure passed to `{method}` here: closures are supported in iterator chains that start from a slice or range method (`x.iter().map(..)`, `a.iter().zip(b).map(..)`, `(0..n).map(..)`), as `let` bindings called later, and in the maps of a library value whose type is written (`let t: &Array1<f64> = &c.t;`, then `t.mapv(|x| ..)`)"),
                    );
                }
            }
            continue;
        }
        // nalgebra's free functions but `distance`, `distance_squared`, `center`, `clamp`
        // (which lowering writes out) on values that carry derivatives.
        if let InstKind::Call {
            func: path, args, ..
        } = &data.kind
        {
            if crate::libtypes::is_nalgebra_free_fn(path) && args.iter().any(is) {
                let name = quote::ToTokens::to_token_stream(path)
                    .to_string()
                    .replace(' ', "");
                diag.error(
                    data.span,
                    format!("`#[derive_frule]` has no rule for nalgebra's free function `{name}` on values that depend on the differentiated inputs (it supports `distance`, `distance_squared`, `center` and `clamp`): write the computation with the methods and operators of its arguments (`(b - a).norm()`, `p + v`)"),
                );
                continue;
            }
        }
        if hand_written_dual_call(func, &data.kind, diag) {
            continue;
        }
        if inactive_by_value(func, &data.kind, &is, diag) {
            continue;
        }
        match &data.kind {
            InstKind::MethodCall {
                receiver,
                method,
                args,
                callee,
                ..
            } => {
                let name = method.to_string();
                let std = callee.std();
                let int_result = (data.results.first())
                    .is_some_and(|&r| func.values[r].ty == crate::types::TypeHint::Int);
                if *callee == MethodCallee::User
                    && args.iter().any(is)
                    && plain_struct_method(func, *receiver, method, diag)
                {
                    continue;
                }
                let skip = match callee {
                    MethodCallee::Float(_) | MethodCallee::User => true,
                    // An integer's method (`c.n.pow(2)`) is computed on primals.
                    MethodCallee::Std(m) => {
                        m.is_predicate()
                            || m.is_float_conversion()
                            || (m.or_default() && !is(receiver))
                            || (m.is_integer() && int_result)
                    }
                    MethodCallee::Unknown | MethodCallee::Unresolved => false,
                };
                if skip || !(is(receiver) || args.iter().any(is)) {
                    continue;
                }
                // A field's type is not written where it is read: a method of the user's
                // type named like a `std` one is taken for the `std` one.
                let on_field = is(receiver)
                    && std.is_some()
                    && matches!(func.values[*receiver].def, crate::ir::ValueDef::Inst(i, 0)
                        if matches!(func.insts[i].kind, InstKind::Field { .. } | InstKind::FieldRef { .. }));
                let field_msg = || {
                    format!("`#[derive_frule]` read `.{name}()` on this field as the `std` method of that name, which has no rule on values that depend on the differentiated inputs; if the field is of a type of yours with a method `{name}`, bind the field with its type written first (`let p: &Pos = &b.pos;`, then `p.{name}(..)`), or rename the method")
                };
                let no_rule = func.values[*receiver].ty != crate::types::TypeHint::Float
                    && !std.is_some_and(StdMethod::dual_has);
                if let Some(instead) = std.and_then(StdMethod::instead) {
                    let or_yours = match on_field {
                        true => format!("; or, if this field is of a type of yours with its own `{name}`, bind the field with its type written first (`let p: &Pos = &b.pos;`, then `p.{name}(..)`)"),
                        false => String::new(),
                    };
                    diag.error(
                        method.span(),
                        format!("`#[derive_frule]` has no rule for the method `{name}` on values that depend on the differentiated inputs: {instead}{or_yours}"),
                    );
                } else if on_field && no_rule {
                    diag.error(method.span(), field_msg());
                } else if !is(receiver) {
                    diag.error(
                        method.span(),
                        format!("no forward rule for method `{name}` with an argument that depends on the differentiated inputs; annotate its `impl` block with `#[derive_frule]`"),
                    );
                } else if func.values[*receiver].ty == crate::types::TypeHint::Float
                    && std != Some(StdMethod::Clone)
                {
                    let instead = crate::callee::float_instead_of_integer_method(&name);
                    let hint = match (instead, crate::callee::suggest_float(&name)) {
                        // The integers' `pow` (`x.pow(2)`): floats have two.
                        (Some(i), _) => format!("; {i}"),
                        (None, Some(s)) => format!("; did you mean `{s}`?"),
                        (None, None) => "; write its rule with `#[primitive]`".to_string(),
                    };
                    diag.error(
                        method.span(),
                        format!("no forward rule for the float method `{name}`{hint}"),
                    );
                } else if !std.is_some_and(StdMethod::dual_has) {
                    // `it.sum()` on an iterator of the user's reads as a method of its own.
                    use crate::callee::Consumer;
                    // Not on a chain's result (`x.iter().flat_map(f).sum()`).
                    let on_chain = matches!(func.values[*receiver].def,
                        crate::ir::ValueDef::Inst(i, 0) if matches!(func.insts[i].kind, InstKind::MethodCall { .. }));
                    let consumer = match Consumer::from_name(&name) {
                        Some(Consumer::Sum | Consumer::Product) if !on_chain => format!("; if the receiver is an iterator of yours (`#[derive_frule] impl Iterator for ..`), write `{name}` with its item type (`it.{name}::<f64>()`) or read it in a `for` loop"),
                        _ => String::new(),
                    };
                    diag.error(
                        method.span(),
                        format!("`#[derive_frule]` has no rule for the method `{name}` on a value that depends on the differentiated inputs; use indexing and `for` loops (or the supported iterator chains), or, for a method of your own type, annotate its `impl` block with `#[derive_frule]` and write the receiver's type where it is bound (`let s: MyType = MyType::new(..);`){consumer}"),
                    );
                }
            }
            // A struct the files show without `#[derive(Differentiable)]`: rustc would
            // report the missing tangent struct (`P2Tangent`) by name first.
            InstKind::Struct { path, .. } if data.results.first().is_some_and(is) => {
                if let Some(file) =
                    crate::plain_fns::not_differentiable(&func.name.to_string(), path)
                {
                    let name = quote::ToTokens::to_token_stream(path).to_string();
                    let at = file.map(|f| format!(" in {f}")).unwrap_or_default();
                    diag.error_spanned(
                        path,
                        format!("`{name}` needs `#[derive(Differentiable)]` (on `struct {name}`{at}): it is built here from values that depend on the differentiated inputs, and its derivative is a `{name}Tangent` that the derive generates; or pass its `f64` fields as separate values"),
                    );
                }
            }
            // A trait object is constant data (its type's rule runs on constant fields): an
            // unsizing cast would drop the value's tangent.
            InstKind::Cast { arg, ty }
                if is(arg)
                    && crate::callee::is_user_trait_object(ty)
                    && !func.box_dyn.contains_key(arg) =>
            {
                diag.error(
                    data.span,
                    "`#[derive_frule]` takes a trait object's fields as constants, and this value depends on the differentiated inputs (its derivative would be lost): pass the value itself through a generic parameter (`fn f<M: Trait>(m: &M, ..)`), or build the trait object from constants",
                );
            }
            InstKind::Call {
                func: path,
                args,
                callee,
            } if args.iter().any(is) => {
                let last = path
                    .segments
                    .last()
                    .map(|s| s.ident.to_string())
                    .unwrap_or_default();
                match callee {
                    PathCallee::UnknownFloat => {
                        let hint = match crate::callee::suggest_float(&last) {
                            Some(s) => format!("; did you mean `{s}`?"),
                            None => String::new(),
                        };
                        diag.error_spanned(
                            path,
                            format!("no forward rule for the float function `{last}`{hint}"),
                        );
                    }
                    // A box's dual would carry its value's tangent, but a trait object made
                    // from it (`Vec<Box<dyn Joint>>`, the common case) takes its fields as
                    // constants, and a box of a concrete type has no rule yet.
                    // Boxed as a trait object of the user's written on the `let`, it
                    // carries its tangent (`Function::box_dyn`).
                    PathCallee::Assoc
                        if crate::callee::is_box_new(path)
                            && !args.iter().any(|a| func.closures.contains_key(a))
                            && !data
                                .results
                                .first()
                                .is_some_and(|r| func.box_dyn.contains_key(r)) =>
                    {
                        diag.error_spanned(
                            path,
                            "`#[derive_frule]` does not support `Box::new` of a value that depends on the differentiated inputs here: a box of a concrete type has no rule, and a trait object carries its derivative only when it is boxed in a `let` that names it (`let shapes: Vec<Box<dyn Sdf>> = vec![Box::new(Sphere { r }), ..];`, `let b: Box<dyn Sdf> = Box::new(..);`) or in a function returning it (`fn make(r: f64) -> Box<dyn Sdf>`); box the value there, or use the value itself, of its concrete type or through a generic parameter (`fn f<T: Trait>(t: &T, ..)`); a tree of boxes of a type of yours built from the inputs (`Box::new(Expr::Num(p[0]))`) is built by the caller and passed in (`fn model(e: &Expr, x: f64)`, the type `#[derive(Differentiable)]`: its tangent carries the derivative)",
                        );
                    }
                    // A function without a rule, seen in the source files: rustc would
                    // report the missing rule as a failed name lookup of the rule's type.
                    PathCallee::Function => {
                        use crate::plain_fns::Missing;
                        if inactive_argument(func, path, args, &is, diag) {
                            continue;
                        }
                        if dyn_argument(func, path, args, &is, diag) {
                            continue;
                        }
                        let Some(missing) =
                            crate::plain_fns::missing_rule(&func.name.to_string(), path)
                        else {
                            continue;
                        };
                        let written = quote::ToTokens::to_token_stream(path)
                            .to_string()
                            .replace(' ', "");
                        let msg = match missing {
                            // A rule written by hand under the rule's name, not registered.
                            Missing::Here if crate::plain_fns::file_has_fn(&format!("{last}_frule")) => format!("`{written}` has no forward rule, and it is called here with values that depend on the differentiated inputs: a hand-written `fn {last}_frule` is not found by its name; register it with `#[primitive(rule = {last}_frule)]` on `fn {last}` (or give `fn {last}` `#[derive_frule]` and remove `{last}_frule`)"),
                            Missing::Here => format!("`{written}` has no forward rule, and it is called here with values that depend on the differentiated inputs: add `#[derive_frule]` to `fn {last}` (or register a rule for it with `#[primitive]`, or mark it `#[non_differentiable]` if its result carries no derivative)"),
                            Missing::InFile { name, file } => format!("`{written}` has no forward rule, and it is called here with values that depend on the differentiated inputs: add `#[derive_frule]` to `fn {name}` in {file} (or register a rule for it with `#[primitive]`, or mark it `#[non_differentiable]` if its result carries no derivative)"),
                            Missing::OtherCrate(krate) => format!("`{written}` is a function of the crate `{krate}`, which has no forward rules, and it is called here with values that depend on the differentiated inputs: wrap it in a function of your own with `#[primitive]` (which calls `{written}` for the value and gives its derivative), or with `#[non_differentiable]` if its result carries no derivative"),
                        };
                        diag.error_spanned(path, msg);
                    }
                    // An error's payload is built on primals.
                    PathCallee::Ctor if !data.results.first().is_some_and(is) => {}
                    PathCallee::Ctor => {
                        diag.error_spanned(
                            path,
                            format!("`#[derive_frule]` cannot construct `{last}` from values that depend on the differentiated inputs yet (data-carrying enum variants; `Some`, `Ok`, `Err` and structs are supported); pass the values separately"),
                        );
                    }
                    PathCallee::Float(_)
                    | PathCallee::Wrap(_)
                    | PathCallee::CapacityCtor
                    | PathCallee::RangeElem
                    | PathCallee::Undef
                    | PathCallee::Assoc
                    | PathCallee::UserOp(_)
                    | PathCallee::FnValue
                    | PathCallee::Closure
                    | PathCallee::Unresolved => {}
                }
            }
            _ => {}
        }
    }
}

/// A parameter declared `inactive(..)` and taken by value, of a struct the file declares
/// with `#[derive(Differentiable)]` (`tip: V`), passed to a call that goes through a rule
/// (one of its operands may carry a derivative): the rule takes it as a dual, and the
/// runtime promotes constants to duals only from references and floats. Reported at the
/// call, naming the parameter, instead of the promotion's failed bound at the attribute.
/// Whether it reported one.
#[inline(never)]
fn inactive_by_value(
    func: &Function,
    kind: &InstKind,
    is: &dyn Fn(&Value) -> bool,
    diag: &mut crate::diag::Diagnostics,
) -> bool {
    // A function's parameters it declares `inactive` take the value plain: only a
    // function the files show, at its other positions (methods take no `inactive`).
    let mut plain = Vec::new();
    let (receiver, args, at) = match kind {
        InstKind::Call {
            func: path,
            args,
            callee: PathCallee::Function,
        } => {
            let Some(inactive) = crate::plain_fns::callee_inactive(&func.name.to_string(), path)
            else {
                return false;
            };
            plain = inactive.into_iter().map(|(i, _)| i).collect();
            (None, args, quote::ToTokens::to_token_stream(path))
        }
        InstKind::MethodCall {
            receiver,
            method,
            args,
            callee: MethodCallee::User | MethodCallee::Unknown,
            ..
        } => (
            Some(receiver),
            args,
            quote::ToTokens::to_token_stream(method),
        ),
        _ => return false,
    };
    if !(receiver.is_some_and(is) || args.iter().any(is)) {
        return false;
    }
    let found = args.iter().enumerate().find_map(|(k, a)| {
        let crate::ir::ValueDef::Param(i) = func.values[*a].def else {
            return None;
        };
        if plain.contains(&k) {
            return None;
        }
        let p = func.params.get(i).filter(|p| p.inactive)?;
        let syn::Type::Path(tp) = &p.ty else {
            return None;
        };
        let [seg] = tp.path.segments.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let ty = seg.ident.to_string();
        let certain = tp.qself.is_none()
            && seg.arguments.is_none()
            && crate::plain_fns::differentiable_struct(&ty);
        certain.then(|| (func.values[*a].name.clone(), ty))
    });
    let Some((name, ty)) = found else {
        return false;
    };
    let (name, by_ref) = match &name {
        Some(n) => (
            format!("`{n}`"),
            format!("`{n}: &{ty}`, and pass `*{n}` on"),
        ),
        None => (
            "this argument".to_string(),
            format!("`&{ty}`, and pass the value on"),
        ),
    };
    diag.error_spanned(
        &at,
        format!("{name} is declared `inactive` and taken by value (a `{ty}`), and it is passed here to a function that differentiates it: a constant of a type of yours can be passed on only borrowed; take it by reference ({by_ref}), or leave it out of `inactive(..)`"),
    );
    true
}

/// `ch.discharge(y)` with values that depend on the inputs, on a struct the files show
/// declared without `#[derive(Differentiable)]` (a parameter `ch: &Channel` or a literal
/// `Channel { .. }` bound in the body) whose `impl` has the method without a rule
/// (`plain_fns::plain_struct_method`): reported at the call, saying to annotate the
/// `impl`, instead of the receiver's failed promotion at the attribute. Whether it
/// reported one.
#[inline(never)]
fn plain_struct_method(
    func: &Function,
    receiver: Value,
    method: &syn::Ident,
    diag: &mut crate::diag::Diagnostics,
) -> bool {
    // Through copies (`for ch in reaches` binds the element by a copy).
    let mut receiver = receiver;
    while let crate::ir::ValueDef::Inst(i, 0) = func.values[receiver].def {
        match &func.insts[i].kind {
            InstKind::Copy(v) => receiver = *v,
            _ => break,
        }
    }
    let ty = match func.values[receiver].def {
        crate::ir::ValueDef::Param(i) => match func.params.get(i).map(|p| &p.ty) {
            Some(syn::Type::Reference(r)) => match &*r.elem {
                syn::Type::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
                _ => None,
            },
            Some(syn::Type::Path(p)) if p.qself.is_none() => p.path.get_ident().cloned(),
            _ => None,
        },
        crate::ir::ValueDef::Inst(i, 0) => match &func.insts[i].kind {
            InstKind::Struct { path, .. } => path.get_ident().cloned(),
            // `&reaches[i]`, `reaches[i]`: an element of a parameter.
            InstKind::ElemRef { base, .. } | InstKind::Index { base, .. } => {
                param_element_type(func, *base)
            }
            _ => None,
        },
        crate::ir::ValueDef::RegionParam(region, 0) => loop_element_type(func, region),
        _ => None,
    };
    let Some(ty) = ty else {
        return false;
    };
    let (ty, name) = (ty.to_string(), method.to_string());
    if !crate::plain_fns::plain_struct_method(&func.name.to_string(), &ty, &name) {
        return false;
    }
    diag.error(
        method.span(),
        format!("`{ty}::{name}` has no forward rule, and it is called here with values that depend on the differentiated inputs: add `#[derive_frule]` to `impl {ty}` (the struct needs no `#[derive(Differentiable)]`: its methods take it as constant data)"),
    );
    true
}

/// The element type `T` of a `for c in chans` (or `chans.iter()`) loop whose body is
/// `region`, over a parameter `chans: &[T]`, `&[T; N]` or `&Vec<T>` (one name, `T`).
#[inline(never)]
fn loop_element_type(func: &Function, region: crate::ir::Region) -> Option<syn::Ident> {
    let iter = func.insts.iter().find_map(|(_, d)| match &d.kind {
        InstKind::For { iter, body, .. } if *body == region => Some(*iter),
        _ => None,
    })?;
    param_element_type(func, iter)
}

/// The element type `T` of `source`, a parameter `chans: &[T]`, `&[T; N]` or `&Vec<T>`
/// (one name, `T`), or `&chans`, `chans.iter()` of one, through copies.
#[inline(never)]
fn param_element_type(func: &Function, source: Value) -> Option<syn::Ident> {
    let mut source = source;
    while let crate::ir::ValueDef::Inst(i, 0) = func.values[source].def {
        source = match &func.insts[i].kind {
            InstKind::Copy(v) | InstKind::Ref { arg: v, .. } => *v,
            InstKind::MethodCall {
                receiver,
                callee: MethodCallee::Std(StdMethod::Iter),
                ..
            } => *receiver,
            _ => return None,
        };
    }
    let crate::ir::ValueDef::Param(i) = func.values[source].def else {
        return None;
    };
    crate::types::borrowed_sequence_elem(&func.params.get(i)?.ty)
}

/// A value that may carry a derivative passed to a parameter that the callee, a derived
/// function the files show, declares `inactive(..)` (`plain_fns::inactive_params`):
/// reported at the call, naming the parameter, instead of the argument conversion's
/// failed bound in the rule. Whether it reported one.
#[inline(never)]
fn inactive_argument(
    func: &Function,
    path: &syn::Path,
    args: &[Value],
    is: &dyn Fn(&Value) -> bool,
    diag: &mut crate::diag::Diagnostics,
) -> bool {
    let params = crate::plain_fns::inactive_params(&func.name.to_string(), path);
    let Some((i, param)) = params.iter().find(|(i, _)| {
        args.get(*i)
            .is_some_and(|a| is(a) && !func.closures.contains_key(a))
    }) else {
        return false;
    };
    let written = quote::ToTokens::to_token_stream(path)
        .to_string()
        .replace(' ', "");
    let arg = match &func.values[args[*i]].name {
        Some(name) => format!("the argument `{name}`"),
        None => format!("argument {} passed to it here", i + 1),
    };
    diag.error_spanned(
        path,
        format!("`{written}` declares its parameter `{param}` `inactive` (constant data), and {arg} depends on the differentiated inputs: its derivative would be lost; declare the caller's parameter it comes from `inactive` too (`#[derive_frule(inactive(..))]`), or remove `{param}` from `{written}`'s `inactive(..)`"),
    );
    true
}

/// A derived body written on duals by hand: `Dual::new(x, 1.0)` (a seed set inside the
/// function), or a call of the rule `#[derive_frule]` generated for a function of the file
/// (`square_frule(x)` for `square`; only where the files show that the path names that
/// rule, `plain_fns::generated_rule`: not a `fn x_frule` of the user's, imported or in
/// another file, nor a method). The body is the plain function, and the caller chooses
/// the seeds; reported at the path, with what to write, instead of rustc's
/// mismatched `Dual` types and the rule's missing name. Whether it reported one.
#[inline(never)]
fn hand_written_dual_call(
    func: &Function,
    kind: &InstKind,
    diag: &mut crate::diag::Diagnostics,
) -> bool {
    let InstKind::Call { func: path, .. } = kind else {
        return false;
    };
    let written = quote::ToTokens::to_token_stream(path)
        .to_string()
        .replace(' ', "");
    if crate::callee::is_dual_fn(path) {
        diag.error_spanned(
            path,
            format!("`{written}` in a function with `#[derive_frule]`: write the function on plain floats, and seed its derivative where you call the rule it generates (`f_frule(Dual::new(x, 1.0))` for ∂f/∂x), or with a driver (`derivative(f {{}}, x)`)"),
        );
        return true;
    }
    let caller = func.name.to_string();
    let Some((stem, attr)) = crate::plain_fns::generated_rule(&caller, path) else {
        return false;
    };
    diag.error_spanned(
        path,
        format!("`{written}` is the rule `#[{attr}]` generates for `{stem}`, on `Dual`s: in a function with `#[derive_frule]`, call `{stem}(..)` on plain values, and the derivative goes through its rule"),
    );
    true
}

/// A value that may carry a derivative, of a struct of the file's (`&Linear { e }`, a
/// parameter `m: &Linear`), passed to a parameter that the callee, a function the files
/// show, takes as a shared trait object (`m: &dyn Material`): a rule takes a trait
/// object's fields as constants, so the derivative would be lost. Reported at the call,
/// naming the parameter and the struct, instead of the argument conversion's failed bound
/// in the rule. Whether it reported one.
#[inline(never)]
fn dyn_argument(
    func: &Function,
    path: &syn::Path,
    args: &[Value],
    is: &dyn Fn(&Value) -> bool,
    diag: &mut crate::diag::Diagnostics,
) -> bool {
    let params = crate::plain_fns::dyn_params(&func.name.to_string(), path);
    let Some((param, bounds, arg, name)) = params.iter().find_map(|(i, param, bounds)| {
        let arg = *args.get(*i)?;
        if !is(&arg) || func.closures.contains_key(&arg) {
            return None;
        }
        let name = struct_of(func, arg, 4)?;
        crate::plain_fns::differentiable_struct(&name).then_some((param, bounds, arg, name))
    }) else {
        return false;
    };
    let written = quote::ToTokens::to_token_stream(path)
        .to_string()
        .replace(' ', "");
    let arg = match &func.values[arg].name {
        Some(n) => format!("the argument `{n}` (a `{name}`)"),
        None => format!("this `{name}`"),
    };
    diag.error_spanned(
        path,
        format!("`{written}` takes its parameter `{param}` as a trait object (`&dyn {bounds}`), whose fields a rule takes as constants, and {arg} depends on the differentiated inputs: its derivative would be lost; take it through a generic parameter (`fn {written}<M: {bounds}>({param}: &M, ..)`), or build it from constants here"),
    );
    true
}

/// The struct (its name) that `v` is or borrows, when the function shows it: a struct
/// literal, or a parameter declared of it, through up to `depth` borrows.
fn struct_of(func: &Function, v: Value, depth: usize) -> Option<String> {
    match &func.values[v].def {
        crate::ir::ValueDef::Inst(i, 0) => match &func.insts[*i].kind {
            InstKind::Struct { path, .. } => Some(path.segments.last()?.ident.to_string()),
            InstKind::Ref { arg, .. } if depth > 0 => struct_of(func, *arg, depth - 1),
            _ => None,
        },
        crate::ir::ValueDef::Param(i) => {
            let mut ty = &func.params.get(*i)?.ty;
            while let syn::Type::Reference(r) = ty {
                ty = &r.elem;
            }
            let syn::Type::Path(tp) = ty else {
                return None;
            };
            let [seg] = tp.path.segments.iter().collect::<Vec<_>>()[..] else {
                return None;
            };
            tp.qself.is_none().then(|| seg.ident.to_string())
        }
        _ => None,
    }
}

/// Prints plans as the IR annotation column (the "after" view of the transform).
pub fn note<'a>(
    active: &'a Activity,
    plans: &'a DualPlan,
) -> impl Fn(&Function, Inst) -> String + 'a {
    move |func, inst| {
        let act = crate::activity::note(active)(func, inst);
        let plan = plans.get(inst);
        let needs: Vec<String> = func
            .operands(inst)
            .iter()
            .zip(&plan.needs)
            .filter(|(_, n)| **n != Need::AsIs)
            .map(|(v, n)| format!("{}({v})", if *n == Need::Dual { "dual" } else { "primal" }))
            .collect();
        let form = match &plan.form {
            Form::Primal { promote: false } => "primal".to_string(),
            Form::Primal { promote: true } => "primal+promote".to_string(),
            Form::Op(op) => format!("ops::{}", op.name()),
            other => format!("{other:?}").to_lowercase(),
        };
        let needs = if needs.is_empty() {
            String::new()
        } else {
            format!(" [{}]", needs.join(", "))
        };
        if act.is_empty() {
            format!("{form}{needs}")
        } else {
            format!("{act} => {form}{needs}")
        }
    }
}
