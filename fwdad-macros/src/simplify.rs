//! `simplify`: the chains worth linearising in one direction (issue 30).
//!
//! With one direction a tangent is one float, so a chain's coefficient `∂v/∂r` costs what
//! the tangent update it replaces costs, once per root: a value of two roots costs twice
//! its line-by-line update. A value of one root costs at most as much, and less where an
//! operation reads the root itself (its coefficient is the partial, nothing multiplied):
//! Horner's `p = p·x + c` costs one multiply-add for `∂p/∂x` where the product rule takes
//! two multiplies and an add, and `100·t·t` costs `∂/∂t = 2·(100·t)` (one addition,
//! folded by the emitter) where the rule takes three multiplies and an add.
//!
//! So this pass starts from the chains [`linear::chains`] finds (before the batch cost
//! guards of [`linear::analyze`]) and materialises, in order, every
//! value whose coefficients would reach more than one root: it becomes a root of its
//! users, whose chains then restart from it. In Rosenbrock's
//! `t = x[i+1] - x[i]·x[i]; s += 100·t·t + (1 - x[i])²`, `t` is materialised
//! (`ṫ = ẋᵢ₊₁ - 2xᵢ·ẋᵢ`), `100·t·t` has the coefficient `2·(100·t)` on `t`, and the sum
//! `ṡ + c·ṫ + c'·ẋᵢ`: the expert's `200·t·ṫ - 2u·ẋᵢ`.
//!
//! An operand of a rule whose partial may be infinite (`sqrt`, `/`) is materialised too,
//! so that a coefficient never multiplies an infinite partial by a zero one where the
//! line-by-line rule, which sees the zero tangent first, gives `0` (`√(x·x)` at `x = 0`).
//!
//! The emitted body is chosen by `<S as Mode>::LINEARIZE_SINGLE_ROOT` (true for `f64` and
//! `Batch<f64, 1>` tangents only); batches keep [`linear`]'s plan, second order the
//! line-by-line rule. The `linear__*` snapshots show the batch plan; the one-direction
//! body is in `expand__*`, under `LINEARIZE_SINGLE_ROOT`.

use std::collections::{HashMap, HashSet};

use crate::activity::Activity;
use crate::dual::DualPlan;
use crate::ir::{Function, Inst, Value};
use crate::linear::{self, lin_operands, LinOp, Linear};

/// Plans the one-direction linearisation; `None` when no value would be absorbed.
pub fn analyze(func: &Function, active: &Activity, plans: &DualPlan) -> Option<Linear> {
    let mut lin = linear::chains(func, active, plans, false)?;
    loop {
        let mut grow = multi_root(func, active, &lin);
        if grow.is_empty() {
            grow = shared_partials(func, active, &lin);
        }
        if grow.is_empty() {
            break;
        }
        lin.materialize.extend(grow);
    }
    loop {
        linear::root_sets(func, active, &mut lin);
        let grow = linear::reads_mutated_roots(&lin, &lin.mutated);
        if grow.is_empty() {
            break;
        }
        lin.materialize.extend(grow);
    }
    let absorbs = lin
        .ops
        .keys()
        .any(|i| lin.absorbed(func.insts[*i].results[0]));
    if absorbs {
        (lin.deferrable, lin.accumulators) = deferrable(func, active, &lin);
    }
    absorbs.then_some(lin)
}

/// Where a constant factor of a tangent may wait (issue 30: hoist constant factors out of
/// accumulators). A power of two common to a materialised value's coefficients (a square's
/// 2, `c·t·t`'s 2) need not be multiplied into its tangent when every reader multiplies the
/// tangent by a coefficient of its own anyway: the readers take the factor into their
/// coefficients, symbolically, where it meets other powers of two. A loop's accumulator
/// (`e += u`) carries `u`'s factor through the loop and applies it once after it: the
/// spring energy's `ė += 4·(½k·s·½/r)·(d·ḋ)` per spring becomes `ė' += (½k·s·½/r)·(d·ḋ)`
/// and `ė = 4·ė'` after the loop, the expert's `Σ (k·s/r)·(d·ḋ)` in flops. Tangents are
/// scaled by powers of two only: exact but for subnormals and overflow (re-associated).
///
/// Returned: the values whose tangent may be held scaled (read only once, as a root of a
/// chain instruction that multiplies it by a coefficient: not a quotient's one-division
/// tangent, not a phi, not inside a linearised `if`'s arms; or only by their loop's next
/// iteration, as an accumulator's update), and the accumulators (a `for` body's carried
/// parameter read only by the sum that updates it, that sum carried to the next iteration
/// by the body's end and by no `continue` or `break` of the loop).
fn deferrable(
    func: &Function,
    active: &Activity,
    lin: &Linear,
) -> (HashSet<Value>, HashMap<Value, Inst>) {
    let uses = linear::uses(func);
    let mut accumulators: HashMap<Value, Inst> = HashMap::new();
    let mut carried: HashSet<Value> = HashSet::new();
    for (_, p, add) in linear::loop_accumulators(func, lin) {
        accumulators.insert(p, add);
        carried.insert(func.insts[add].results[0]);
    }
    let read_as_root = |v: Value, user: Inst| {
        lin.ops.get(&user).is_some_and(|op| {
            !matches!(op, LinOp::Phi | LinOp::Binary(crate::callee::FloatOp::Div))
                && !lin.in_arms.contains(&func.insts[user].results[0])
                && lin_operands(func, active, lin, user).contains(&v)
                && !lin.expands(func, user, v)
        })
    };
    let deferrable = lin
        .materialize
        .iter()
        .copied()
        .filter(|&v| {
            let Some(def) = lin.def(func, v) else {
                return false;
            };
            if lin.mutated.contains(&v)
                || lin.in_arms.contains(&v)
                || lin.phi_inputs.contains(&v)
                || lin.backward.contains(&def)
                || lin.alias.values().any(|a| *a == v)
            {
                return false;
            }
            if carried.contains(&v) {
                return true;
            }
            // One reader: the factor then costs at most one multiply there, where the
            // value would have paid one.
            uses.get(&v)
                .is_some_and(|us| matches!(us.as_slice(), [Some(u)] if read_as_root(v, *u)))
        })
        .collect();
    (deferrable, accumulators)
}

/// One walk over the chains in order: values that would reach more than one root, and
/// absorbed operands of unbounded rules. Each is taken for materialised as soon as it is
/// found, so its users see it as their root.
fn multi_root(func: &Function, active: &Activity, lin: &Linear) -> HashSet<Value> {
    let mut roots: HashMap<Value, Vec<Value>> = HashMap::new();
    let mut out: HashSet<Value> = HashSet::new();
    let users = single_users(func, lin);
    for (_, data) in func.regions.iter() {
        for &inst in data.insts.iter().filter(|i| lin.ops.contains_key(i)) {
            let v = func.insts[inst].results[0];
            let unbounded = lin.ops[&inst].is_unbounded();
            let mut set: Vec<Value> = Vec::new();
            for o in lin_operands(func, active, lin, inst) {
                let absorbed =
                    roots.contains_key(&o) && !lin.materialize.contains(&o) && !out.contains(&o);
                let from = if absorbed && !unbounded {
                    roots[&o].clone()
                } else {
                    if absorbed {
                        out.insert(o);
                    }
                    vec![lin.canonical(o)]
                };
                for r in from {
                    if !set.contains(&r) {
                        set.push(r);
                    }
                }
            }
            if set.len() > 1
                && !lin.materialize.contains(&v)
                && !absorbs_cheaply(func, active, lin, &roots, &out, &users, v, &set)
            {
                out.insert(v);
            }
            roots.insert(v, set);
        }
    }
    out
}

/// The chain values used exactly once, by another chain instruction of their region: the
/// user, by value.
fn single_users(func: &Function, lin: &Linear) -> HashMap<Value, Inst> {
    let mut uses: HashMap<Value, Vec<Option<Inst>>> = HashMap::new();
    for (r, data) in func.regions.iter() {
        for &i in &data.insts {
            for o in func.operands(i) {
                uses.entry(o).or_default().push(Some(i));
            }
        }
        for o in func.term_operands(r) {
            uses.entry(o).or_default().push(None);
        }
    }
    uses.into_iter()
        .filter_map(|(v, us)| match us.as_slice() {
            [Some(u)] if lin.ops.contains_key(u) && lin.same_region(func, *u, v) => Some((v, *u)),
            _ => None,
        })
        .collect()
}

/// Whether `v` (roots `set`, more than one) costs no more absorbed into its single user
/// than materialised: the user's other operands, already planned, reach all of `v`'s roots
/// but one, so the user's combination has no more roots with `v` absorbed than with `v` as
/// a root of its own, and `v`'s combination is saved. The spring energy's `(½k·s)·s`: `½k·s`
/// reaches `k` and `n = d·d` (through `s = √n - L`), the other factor `s` reaches `n`, so
/// the product has the roots `k` and `n` either way; absorbed, its coefficient on `n` is
/// `2·(½k·s)·∂s/∂n` (the emitter's square fold), and on `k` a term that a constant `k`
/// (`ConstTangent`) drops at compile time.
#[allow(clippy::too_many_arguments)]
fn absorbs_cheaply(
    func: &Function,
    active: &Activity,
    lin: &Linear,
    roots: &HashMap<Value, Vec<Value>>,
    out: &HashSet<Value>,
    users: &HashMap<Value, Inst>,
    v: Value,
    set: &[Value],
) -> bool {
    let Some(&user) = users.get(&v) else {
        return false;
    };
    if lin.ops[&user].is_unbounded() || matches!(lin.ops[&user], LinOp::Phi) {
        return false;
    }
    // A quotient keeps its one-division tangent (`lin::quotient`), and an unbounded
    // partial stays out of its user's coefficients (no strong-zero tests there).
    let Some(def) = lin.def(func, v).filter(|d| !lin.ops[d].is_unbounded()) else {
        return false;
    };
    // A sum read by a sum: its terms join the user's (`dx² + dy²` in `+ dz²`: one
    // combination `2·(dx·ḋx + dy·ḋy + dz·ḋz)`), one term fewer than with `v` assembled.
    // Only a sum that absorbs a product or a function: of roots alone (`a + b + c`) it
    // saves nothing.
    let sums = |op: &LinOp| matches!(op, LinOp::Add | LinOp::Sub | LinOp::Neg);
    let scaled = lin_operands(func, active, lin, def).into_iter().any(|o| {
        lin.def(func, o).is_some_and(|d| !sums(&lin.ops[&d]))
            && lin.same_region(func, def, o)
            && !lin.materialize.contains(&o)
            && !out.contains(&o)
    });
    // Not into a loop's accumulator (`s += 100·t·t + u·u`): measured, Rosenbrock's JVP went
    // from 0.92 to 1.08 × the expert with the update's terms joined to `ṡ`.
    let accumulates = func
        .operands(user)
        .iter()
        .any(|o| matches!(func.values[*o].def, crate::ir::ValueDef::RegionParam(..)));
    if scaled && !accumulates && sums(&lin.ops[&def]) && sums(&lin.ops[&user]) {
        return true;
    }
    let mut others: Vec<Value> = Vec::new();
    for o in lin_operands(func, active, lin, user) {
        if o == v {
            continue;
        }
        let absorbed = lin.def(func, o).is_some()
            && lin.same_region(func, user, o)
            && !lin.materialize.contains(&o)
            && !out.contains(&o);
        if absorbed {
            // Defined after `v` (not planned yet): no decision on what it reaches.
            let Some(rs) = roots.get(&o) else {
                return false;
            };
            others.extend(rs.iter().copied());
        } else {
            others.push(lin.canonical(o));
        }
    }
    set.iter().filter(|r| !others.contains(r)).count() <= 1
}

/// Absorbed values with a partial of their own (a product, a quotient, a function) that two
/// or more products, quotients or functions read: absorbed, each reader multiplies its
/// partial by the value's coefficient before the root's tangent (two multiplies a use);
/// materialised, the value's tangent is formed once and each reader multiplies it once.
/// BA's `cos θ`, read by `x₀·cos θ`, `x₁·cos θ`, `x₂·cos θ`: `ċ = -sin θ · θ̇` once, as
/// an expert writes it.
fn shared_partials(func: &Function, active: &Activity, lin: &Linear) -> HashSet<Value> {
    let mut readers: HashMap<Value, usize> = HashMap::new();
    for (&inst, op) in &lin.ops {
        if matches!(op, LinOp::Add | LinOp::Sub | LinOp::Neg) {
            continue;
        }
        let mut ops = lin_operands(func, active, lin, inst);
        ops.dedup();
        for o in ops {
            // Absorbed so far (root sets are not computed yet).
            if lin.same_region(func, inst, o) && !lin.materialize.contains(&o) {
                *readers.entry(o).or_default() += 1;
            }
        }
    }
    readers
        .into_iter()
        .filter(|(v, n)| {
            *n > 1
                && lin
                    .def(func, *v)
                    .is_some_and(|d| matches!(lin.ops[&d], LinOp::Binary(_) | LinOp::Unary(_)))
        })
        .map(|(v, _)| v)
        .collect()
}
