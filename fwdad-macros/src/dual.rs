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
use crate::ir::entity::SecondaryMap;
use crate::ir::{BinOp, Function, Inst, InstKind, Place, UnOp, Value};
use crate::rules::{float_method, float_path_call, FloatRule};

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
    Op(String),
    /// `ops::sin_cos_dual(x)`: the pair as one dual.
    SinCos,
    /// Through the `Frule` trait.
    Frule,
    /// `Some(x)` / `Ok(x)` of a dual: the runtime's structural constructor.
    Wrap(String),
    /// `recv.m(args)` of a method with a derived rule (`#[derive_frule] impl Ty`): the rule
    /// is found through `recv.primal.__fwdad_rule_m()`.
    UserMethod,
    /// `Ty::m(args)`: the rule is `Ty::__fwdad_rules_of_m()`.
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
    for (inst, _) in func.insts.iter() {
        plans.set(inst, transform_inst(func, active, inst));
    }
    plans
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
            InstKind::If { .. } | InstKind::Loop { .. } | InstKind::For { .. }
        )
    {
        return primal;
    }
    let plan = |form: Form, needs: Vec<Need>| Plan { form, needs };
    match &func.insts[inst].kind {
        InstKind::Lit(_) | InstKind::Const(_) | InstKind::Range { .. } | InstKind::Poison => primal,
        // Prints the primal values.
        InstKind::Print { .. } => primal,
        InstKind::Copy(_) => plan(Form::Copy, all(Need::AsIs)),
        InstKind::Binary {
            op: BinOp::Mul,
            lhs,
            rhs,
        } if result_active && lhs == rhs => {
            // `x * x`: one rule, one tangent update.
            plan(Form::Op("sq".into()), vec![Need::AsIs, Need::AsIs])
        }
        InstKind::Binary { op, .. } => {
            if result_active && op.is_arithmetic() {
                plan(Form::Op(op.name().to_string()), all(Need::AsIs))
            } else {
                primal
            }
        }
        InstKind::Unary { op, arg } => match (op, result_active) {
            (UnOp::Neg, true) if is(*arg) => plan(Form::Op("neg".into()), all(Need::AsIs)),
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
            method,
            args,
            ..
        } => {
            let name = method.to_string();
            match float_method(&name) {
                Some(rule) if result_active => float_rule_plan(rule, &name, args.len() + 1),
                Some(_) => primal,
                None if ["len", "is_empty", "is_some", "is_none"].contains(&name.as_str()) => {
                    plan(Form::Method, all(Need::AsIs))
                }
                // Predicates of the value (`is_nan`, `partial_cmp`, ...) read primals.
                None if !result_active && PRIMAL_PREDICATES.contains(&name.as_str()) => primal,
                // An integer's method (`c.n.pow(2)` on a field whose type is not written).
                None if !result_active
                    && crate::rules::INTEGER_METHODS.contains(&name.as_str())
                    && (func.insts[inst].results.first())
                        .is_some_and(|&r| func.values[r].ty == crate::types::TypeHint::Int) =>
                {
                    primal
                }
                None if is_user_method(func, *receiver, &name) => {
                    let mut needs = vec![Need::AsIs];
                    needs.extend(std::iter::repeat_n(Need::Dual, args.len()));
                    plan(Form::UserMethod, needs)
                }
                // `o.unwrap_or(x)`: a constant `Option` with an active default is promoted.
                None if name == "unwrap_or" && !is(*receiver) && result_active => {
                    plan(Form::Method, vec![Need::Dual, Need::Dual])
                }
                None if is(*receiver) => plan(Form::Method, method_needs(&name, args.len())),
                None if result_active => plan(Form::Method, all(Need::AsIs)),
                None => primal,
            }
        }
        // `Vec::with_capacity(self.n)`: a size, read as the primal it is (a field of an
        // active struct is active to the analysis, which does not know its type).
        InstKind::Call { func: path, .. } if crate::rules::is_capacity_ctor(path) => primal,
        // A chain's range element (`rt::range_at`/`range_from_at`, never a user's
        // function), an integer.
        InstKind::Call { func: path, .. }
            if path
                .segments
                .last()
                .is_some_and(|s| s.ident == "range_at" || s.ident == "range_from_at")
                && path.segments.iter().any(|s| s.ident == "__private") =>
        {
            primal
        }
        InstKind::Call { func: path, args }
            if crate::rules::variant_ctor(path).is_some() && args.len() == 1 =>
        {
            match crate::rules::variant_ctor(path) {
                Some(name) if result_active => plan(Form::Wrap(name.to_string()), all(Need::Dual)),
                _ => primal,
            }
        }
        InstKind::Call { func: path, .. }
            if is_assoc_call(path) && float_path_call(path).is_none() =>
        {
            plan(Form::AssocFrule, all(Need::Dual))
        }
        InstKind::Call { func: path, args } => {
            match (crate::rules::mem_fn(path), float_path_call(path)) {
                (Some(name), _) => plan(Form::Wrap(name.into()), all(Need::Dual)),
                (None, Some((name, rule))) if result_active => {
                    float_rule_plan(rule, &name.to_string(), args.len())
                }
                (None, Some(_)) => primal,
                (None, None) if result_active || any_active => plan(Form::Frule, all(Need::Dual)),
                (None, None) => primal,
            }
        }
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

/// Whether `recv.name(..)` calls a method of a user type (one with a derived rule): not a
/// float rule, not a method duals have, on a receiver whose type the syntax does not know
/// (slices, floats and integers have no derived methods).
pub(crate) fn is_user_method(func: &Function, receiver: Value, name: &str) -> bool {
    use crate::types::TypeHint;
    let known_recv = matches!(
        func.values[receiver].ty.deref_all_pub(),
        TypeHint::Float
            | TypeHint::Int
            | TypeHint::Bool
            | TypeHint::Seq(_)
            | TypeHint::Range
            | TypeHint::NonDiff
    );
    // A receiver made by a method duals have (`x.iter()`, `x.to_vec()`) is no user type,
    // except a clone, which has its receiver's type (`p.clone().total()`).
    let from_dual_method = match func.values[receiver].def {
        crate::ir::ValueDef::Inst(i, _) => match &func.insts[i].kind {
            InstKind::MethodCall {
                method,
                receiver: inner,
                ..
            } if method == "clone" || method == "to_owned" => !is_user_method(func, *inner, name),
            InstKind::MethodCall { method, .. } => dual_has_method(&method.to_string()),
            _ => false,
        },
        _ => false,
    };
    !is_known_method(name) && !known_recv && !from_dual_method
}

/// Whether `name` is a float rule, a method duals have or a std method: never a method of
/// a user type.
pub(crate) fn is_known_method(name: &str) -> bool {
    float_method(name).is_some() || dual_has_method(name) || STD_METHODS.contains(&name)
}

/// Methods of std traits and types that are never derived methods of a user type.
const STD_METHODS: &[&str] = &[
    "into",
    "from",
    "try_into",
    "as_ref",
    "as_mut",
    "borrow",
    "to_owned",
    "to_string",
    "next",
    "get",
    "get_mut",
    "split_at_mut",
    "first",
    "last",
    "map",
    "and_then",
    "unwrap_or_else",
    "ok",
    "err",
    "iter",
    "into_iter",
    "sum",
    "product",
    "fold",
    "count",
    "max",
    "min",
    "max_by",
    "min_by",
    "windows",
    "chunks",
    "chain",
    "sort",
    "sort_by",
    "reverse",
    "contains",
    "position",
];

/// `Ty::m(..)`: a call of an associated function by a type path (its second-to-last
/// segment names a type, by Rust's naming convention: `Spring::energy`, not `m::energy`).
pub(crate) fn is_assoc_call(path: &syn::Path) -> bool {
    let n = path.segments.len();
    n >= 2
        && path.segments[n - 2]
            .ident
            .to_string()
            .starts_with(|c: char| c.is_ascii_uppercase())
        && path.segments[n - 1]
            .ident
            .to_string()
            .starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && crate::rules::variant_ctor(path).is_none()
}

/// What the arguments of a method on a dual receiver must be: elements stored into the
/// receiver are duals (a constant is promoted), indices and lengths are primals.
fn method_needs(name: &str, n_args: usize) -> Vec<Need> {
    let args: Vec<Need> = match name {
        "push" | "fill" | "extend_from_slice" | "copy_from_slice" | "unwrap_or" => vec![Need::Dual],
        "insert" | "resize" => vec![Need::Primal, Need::Dual],
        "swap" => vec![Need::Primal, Need::Primal],
        "truncate" | "get" | "get_mut" | "split_at" | "split_at_mut" => vec![Need::Primal],
        _ => vec![Need::AsIs; n_args],
    };
    std::iter::once(Need::AsIs).chain(args).collect()
}

fn float_rule_plan(rule: FloatRule, name: &str, n: usize) -> Plan {
    match rule {
        FloatRule::Unary | FloatRule::Binary | FloatRule::Ternary => Plan {
            form: Form::Op(name.to_string()),
            needs: vec![Need::AsIs; n],
        },
        FloatRule::Powi => {
            let mut needs = vec![Need::AsIs];
            needs.extend(std::iter::repeat_n(Need::Primal, n.saturating_sub(1)));
            Plan {
                form: Form::Op("powi".into()),
                needs,
            }
        }
        FloatRule::SinCos => Plan {
            form: Form::SinCos,
            needs: vec![Need::AsIs; n],
        },
    }
}

/// Methods whose result depends on the primal only; on a dual they read `.primal`.
const PRIMAL_PREDICATES: &[&str] = &[
    "is_nan",
    "is_finite",
    "is_infinite",
    "is_normal",
    "is_sign_positive",
    "is_sign_negative",
    "partial_cmp",
    "total_cmp",
    "is_ok",
    "is_err",
];

/// Methods a dual receiver has (slices, `Vec`s, `Option`s; see the runtime), besides the
/// float rules and `PRIMAL_PREDICATES`: calling them on a differentiated value is fine.
const DUAL_METHODS: &[&str] = &[
    "len",
    "is_empty",
    "iter",
    "iter_mut",
    "to_vec",
    "push",
    "pop",
    "fill",
    "copy_from_slice",
    "swap",
    "insert",
    "truncate",
    "clear",
    "resize",
    "extend_from_slice",
    "clone",
    "is_some",
    "is_none",
    "unwrap",
    "unwrap_or",
    "copied",
    "cloned",
    "expect",
    "first",
    "last",
    "get",
    "split_first",
    "split_last",
    "split_at",
    "reverse",
    "get_mut",
    "first_mut",
    "last_mut",
    "split_at_mut",
];

/// Whether a dual receiver has the method `name` (its own, or a primal predicate).
fn dual_has_method(name: &str) -> bool {
    DUAL_METHODS.contains(&name) || PRIMAL_PREDICATES.contains(&name)
}

/// Reports operations on differentiated values that have no rule, before emission turns
/// them into an obscure type error: unknown float methods and `f64::` functions (with a
/// "did you mean"), unknown methods, and constructors of structs or variants.
pub fn check(func: &Function, active: &Activity, diag: &mut crate::diag::Diagnostics) {
    let is = |v: &Value| *active.get(*v);
    for (_, data) in func.insts.iter() {
        match &data.kind {
            InstKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                let name = method.to_string();
                if float_method(&name).is_some()
                    || PRIMAL_PREDICATES.contains(&name.as_str())
                    || !(is(receiver) || args.iter().any(is))
                    || (name == "unwrap_or"
                        && !is(receiver)
                        && !is_user_method(func, *receiver, &name))
                {
                    continue;
                }
                if is_user_method(func, *receiver, &name) {
                    // Found through the receiver's type (`#[derive_frule] impl Ty`).
                } else if let Some(instead) = crate::rules::std_method_instead(&name) {
                    diag.error(
                        method.span(),
                        format!("`#[derive_frule]` has no rule for the method `{name}` on values that depend on the differentiated inputs: {instead}"),
                    );
                } else if !is(receiver) {
                    diag.error(
                        method.span(),
                        format!("no forward rule for method `{name}` with an argument that depends on the differentiated inputs; annotate its `impl` block with `#[derive_frule]`"),
                    );
                } else if func.values[*receiver].ty == crate::types::TypeHint::Float {
                    let hint = match crate::rules::suggest(&name) {
                        Some(s) => format!("; did you mean `{s}`?"),
                        None => "; write its rule with `#[primitive]`".to_string(),
                    };
                    diag.error(
                        method.span(),
                        format!("no forward rule for the float method `{name}`{hint}"),
                    );
                } else if !dual_has_method(&name) {
                    diag.error(
                        method.span(),
                        format!("`#[derive_frule]` has no rule for the method `{name}` on a value that depends on the differentiated inputs; use indexing and `for` loops (or the supported iterator chains), or, for a method of your own type, annotate its `impl` block with `#[derive_frule]`"),
                    );
                }
            }
            InstKind::Call { func: path, args } if args.iter().any(is) => {
                let last = path
                    .segments
                    .last()
                    .map(|s| s.ident.to_string())
                    .unwrap_or_default();
                let n = path.segments.len();
                let float_path = n >= 2
                    && ["f64", "f32"].contains(&path.segments[n - 2].ident.to_string().as_str());
                if float_path && float_path_call(path).is_none() {
                    let hint = match crate::rules::suggest(&last) {
                        Some(s) => format!("; did you mean `{s}`?"),
                        None => String::new(),
                    };
                    diag.error_spanned(
                        path,
                        format!("no forward rule for the float function `{last}`{hint}"),
                    );
                } else if crate::rules::is_capitalised(&last)
                    && crate::rules::variant_ctor(path).is_none()
                {
                    diag.error_spanned(
                        path,
                        format!("`#[derive_frule]` cannot construct `{last}` from values that depend on the differentiated inputs yet (`Err` and data-carrying enum variants; `Some`, `Ok` and structs are supported); pass the values separately"),
                    );
                }
            }
            _ => {}
        }
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
            Form::Op(name) => format!("ops::{name}"),
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
