//! The last step of `lower`: every method call and call by path gets its callee from the
//! registry ([`crate::callee`]), once, with everything the syntax tells about its receiver
//! and result (types written on `let`s are known only after the statement is lowered, so
//! this runs after the whole body).

use crate::callee::{FloatOp, MethodCallee, PathCallee, StdMethod};
use crate::ir::{Function, Inst, InstKind, Value, ValueDef};
use crate::types::TypeHint;

/// Resolves every call of `func`.
///
/// `user_typed` are the values whose type is written as a user type (a parameter
/// `s: &Stack`, `let s: Stack`): their methods are the user's whatever their name, but
/// for the few every type has (`clone`, `into`, comparisons).
pub(super) fn resolve_callees(func: &mut Function, user_typed: &std::collections::HashSet<Value>) {
    let insts: Vec<Inst> = func.insts.iter().map(|(i, _)| i).collect();
    for inst in insts {
        let resolved = match &func.insts[inst].kind {
            InstKind::MethodCall {
                receiver, method, ..
            } if user_typed.contains(receiver)
                && crate::callee::is_user_method_on_user_type(&method.to_string()) =>
            {
                Some(Resolved::Method(MethodCallee::User))
            }
            // `(u - v).len()`, `let d = p[j] - p[i]; d.len()`: an operator of the user's
            // gives a value of a user type or a float, never a sequence, so a name without
            // a float row is the user's method (`len` of the user's `Vec2`).
            InstKind::MethodCall {
                receiver, method, ..
            } if user_method_of_operator_result(
                func,
                user_typed,
                *receiver,
                &method.to_string(),
            ) =>
            {
                Some(Resolved::Method(MethodCallee::User))
            }
            InstKind::MethodCall {
                receiver, method, ..
            } => Some(Resolved::Method(method_callee(
                func,
                inst,
                *receiver,
                &method.to_string(),
            ))),
            // Lowering resolves a few calls itself (`T::from(x)` of a type parameter, function
            // values and closures passed to functions).
            InstKind::Call {
                func: path,
                args,
                callee: PathCallee::Unresolved,
            } => Some(Resolved::Path(PathCallee::resolve(path, args.len()))),
            _ => None,
        };
        match (resolved, &mut func.insts[inst].kind) {
            (Some(Resolved::Method(c)), InstKind::MethodCall { callee, .. }) => *callee = c,
            (Some(Resolved::Path(c)), InstKind::Call { callee, .. }) => *callee = c,
            _ => {}
        }
    }
}

/// Whether `recv.name(..)` is the user's method because `recv` is the result of an
/// operator of the user's (or a copy of one) with an operand whose type is written as the
/// user's (`user_typed`), or the result of another such operator: that is a value of a
/// user type or a float, never a sequence, so a name that no float has and not every type
/// has is the user's (`len` of the user's `Vec2`). Operators on values only guessed to be
/// the user's (a method's result) may be float arithmetic: those keep `std`'s reading.
pub(super) fn user_method_of_operator_result(
    func: &Function,
    user_typed: &std::collections::HashSet<Value>,
    recv: Value,
    name: &str,
) -> bool {
    fn from_written(
        func: &Function,
        user_typed: &std::collections::HashSet<Value>,
        v: Value,
        depth: usize,
    ) -> bool {
        let ValueDef::Inst(def, _) = func.values[v].def else {
            return false;
        };
        match &func.insts[def].kind {
            InstKind::Call {
                callee: PathCallee::UserOp(_),
                args,
                ..
            } => args.iter().any(|a| {
                user_typed.contains(a)
                    || (depth < 16 && from_written(func, user_typed, *a, depth + 1))
            }),
            InstKind::Copy(w) if depth < 16 => from_written(func, user_typed, *w, depth + 1),
            _ => false,
        }
    }
    let float_name = FloatOp::method(name).is_some()
        || StdMethod::from_name(name).is_some_and(StdMethod::is_predicate);
    !float_name
        && crate::callee::is_user_method_on_user_type(name)
        && from_written(func, user_typed, recv, 0)
}

enum Resolved {
    Method(MethodCallee),
    Path(PathCallee),
}

/// `recv.name(..)`: a float rule by its name; an integer's method when its result is typed
/// an integer; the user's method when the receiver may be a user type and the name is not
/// reserved by `std`; otherwise the `std` row, or nothing known.
fn method_callee(func: &Function, inst: Inst, receiver: Value, name: &str) -> MethodCallee {
    if let Some(op) = FloatOp::method(name) {
        // `v.hypot()` with no argument is no float's `hypot(self, other)`: a user type's
        // method named like a float one (kurbo's `Vec2::hypot`).
        let n = match &func.insts[inst].kind {
            InstKind::MethodCall { args, .. } => args.len(),
            _ => 0,
        };
        use crate::callee::Shape;
        let arity = match op.shape() {
            Shape::Unary | Shape::SinCos => 0,
            Shape::Binary | Shape::Powi => 1,
            Shape::Ternary => 2,
        };
        let float_recv = is_known_float_recv(func, receiver);
        if (arity == n && !op.is_shared_with_user_types()) || float_recv {
            return MethodCallee::Float(op);
        }
        return MethodCallee::User;
    }
    let std = StdMethod::from_name(name);
    let int_result = func.insts[inst]
        .results
        .first()
        .is_some_and(|&r| func.values[r].ty == TypeHint::Int);
    match std {
        Some(m) if m.is_integer() && int_result => MethodCallee::Std(m),
        // `a.nrows()` of a library matrix: no rule needed, the value's own method.
        None if int_result && crate::libtypes::is_size_method(name) => MethodCallee::Unknown,
        _ if is_user_method(func, receiver, name) => MethodCallee::User,
        Some(m) => MethodCallee::Std(m),
        // `x.sigmoid()` on a float, named like no float method: a method of a trait of the
        // user's implemented for floats (`#[derive_frule] impl Activation for f64`), whose
        // rule the trait's dispatch method gives. A name close to a float method's is taken
        // for a misspelling of it (`x.sinn()`: an error saying `sin`).
        None if is_known_float_recv(func, receiver)
            && !misspelt_float_method(name)
            && !crate::callee::is_std_float_method_without_rule(name) =>
        {
            MethodCallee::User
        }
        // `a.dot(b)` on a slice, an array or a `Vec`, named like no method `std` gives
        // them: a method of an extension trait of the user's (`#[derive_frule] impl
        // VecOps for [f64]`), whose rule the trait's `__fwdad_rule_unsized_dot` gives.
        None if matches!(func.values[receiver].ty.deref_all_pub(), TypeHint::Seq(_))
            && crate::callee::is_user_method_name(name)
            && !crate::callee::is_std_sequence_method(name) =>
        {
            MethodCallee::User
        }
        None => MethodCallee::Unknown,
    }
}

/// Whether `name` is one edit (a letter added, dropped or changed, or two swapped) from a
/// float method's name (`sinn`, `sqr`, `exq`): a misspelling, not a method of the user's.
fn misspelt_float_method(name: &str) -> bool {
    let Some(s) = crate::callee::suggest_float(name) else {
        return false;
    };
    let (a, b): (Vec<char>, Vec<char>) = (name.chars().collect(), s.chars().collect());
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    match long.len() - short.len() {
        0 => {
            let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
            diff.len() <= 1
                || (diff.len() == 2
                    && diff[1] == diff[0] + 1
                    && a[diff[0]] == b[diff[1]]
                    && a[diff[1]] == b[diff[0]])
        }
        1 => (0..long.len()).any(|skip| {
            long.iter()
                .enumerate()
                .filter(|&(i, _)| i != skip)
                .map(|(_, c)| c)
                .eq(short.iter())
        }),
        _ => false,
    }
}

/// Whether the receiver is typed a float.
fn is_known_float_recv(func: &Function, receiver: Value) -> bool {
    matches!(func.values[receiver].ty.deref_all_pub(), TypeHint::Float)
}

/// Whether `name` is a float rule or a `std` method reserved from user types.
pub(crate) fn is_known_method(name: &str) -> bool {
    FloatOp::method(name).is_some() || StdMethod::from_name(name).is_some_and(|m| m.is_reserved())
}

/// Whether `recv.name(..)` calls a method of a user type (one with a derived rule): not a
/// float rule, not a reserved `std` method, on a receiver whose type the syntax does not
/// know (slices, floats and integers have no derived methods).
fn is_user_method(func: &Function, receiver: Value, name: &str) -> bool {
    let known_recv = matches!(
        func.values[receiver].ty.deref_all_pub(),
        TypeHint::Float
            | TypeHint::Int
            | TypeHint::Bool
            | TypeHint::Seq(_)
            | TypeHint::Range
            | TypeHint::NonDiff
            | TypeHint::Map(..)
    );
    // A receiver made by a method duals have (`x.iter()`, `x.to_vec()`) is no user type,
    // except a clone, which has its receiver's type (`p.clone().total()`), and what an
    // `Option` or `Result` a function returned held (`Constants::new(..).unwrap()
    // .propagate(t)`, sgp4's README).
    let from_dual_method = match func.values[receiver].def {
        ValueDef::Inst(i, _) => match &func.insts[i].kind {
            InstKind::MethodCall {
                method,
                receiver: inner,
                ..
            } => match StdMethod::from_name(&method.to_string()) {
                Some(m) if m.clones() => !is_user_method(func, *inner, name),
                // Of a function's result only: a library's (`k.cholesky().unwrap()`) keeps
                // its own methods.
                Some(m) if m.unwraps() => !matches!(func.values[*inner].def,
                    ValueDef::Inst(j, _) if matches!(func.insts[j].kind, InstKind::Call { .. })),
                Some(m) => m.dual_has(),
                None => false,
            },
            _ => false,
        },
        _ => false,
    };
    !is_known_method(name) && !known_recv && !from_dual_method
}
