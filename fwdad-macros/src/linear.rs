//! `linear`: which straight-line scalar chains to linearise (Slang's linearisation, applied
//! locally; the runtime side is `fwdad_runtime::linear`).
//!
//! A *chain* is a run of scalar float operations with a smooth rule (`+ - * /`, negation,
//! `sin`, `exp`, `sqrt`, ...) in one region. In modes where it pays (batches of first-order
//! directions), a chain is emitted on primals plus, for each value, the scalar partial
//! derivatives with respect to its *roots*: the active values the chain reads (parameters,
//! elements, loop-carried values, results of other rules). A tangent is assembled, as one
//! combination `Σ cᵣ·ṙ`, only for a value that leaves the chain (*materialised*): used by
//! any other instruction, by a terminator, or in another region.
//!
//! Cost guards: a value whose combination would exceed [`MAX_ROOTS`] roots is materialised
//! and becomes a root, and so is a value (with more than one root) that two materialised
//! values would otherwise both expand. Two reads of the same element (`x[i]` in `x[i] *
//! x[i]`) with nothing that could write in between are one root.
//!
//! A chain continues through an `if` whose arms are chains ([`Phi`]): each value the `if`
//! yields becomes one linearised value whose partials, with respect to what the arms read
//! from before the `if`, the arm taken computes and yields with the primal.
//!
//! Output: [`Linear`], or `None` when linearising would change nothing (then no linearised
//! copy of the body is emitted).

use std::collections::{HashMap, HashSet};

use crate::activity::Activity;
use crate::callee::FloatOp;
use crate::dual::{DualPlan, Form};
use crate::ir::{Function, Inst, InstKind, Place, Region, Terminator, UnOp, Value, ValueDef};
use crate::types::TypeHint;

/// Above this many roots a value's combination costs more than the tangent updates it
/// replaces; the value is materialised instead.
pub const MAX_ROOTS: usize = 8;

/// The operation of a linearised instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `-x`.
    Neg,
    /// `a * b` / `a / b`: partials from the runtime rule.
    Binary(FloatOp),
    /// `x.f()`: the partial from the runtime rule `f` (`sq`: `x * x`).
    Unary(FloatOp),
    /// A value an `if` yields ([`Phi`]): its partials are the coefficients the taken arm
    /// yields with its primal.
    Phi,
}

/// A value an `if` yields, linearised through it: each arm's chain computes the yielded
/// value's coefficients with respect to the values it reads from before the `if` (its
/// *operands*), and the arm taken along the primal yields them with the primal, as the
/// partials of one instruction with many operands. The instruction is the `if` itself
/// (one result) or a `field` read of the tuple it yields (`let (a, b) = if ..`).
#[derive(Clone, Debug)]
pub struct Phi {
    /// The value each arm yields for it (`then`, `else`).
    pub arms: [Value; 2],
    /// The values from before the `if` the arms' chains read (canonical, first seen first).
    pub operands: Vec<Value>,
    /// The `operands` each arm reads: a root that one arm does not reach has a zero
    /// coefficient where that arm is taken, whatever its tangent ([`Linear::selected`]).
    pub read: [Vec<Value>; 2],
}

/// An `if` whose arms are linearised chains ([`Phi`]).
#[derive(Clone, Debug)]
pub struct LinIf {
    /// The instructions of the values it yields, in order (one per read of a result).
    pub phis: Vec<Inst>,
    /// The `tuple` instruction each arm yields, if it yields a tuple (not emitted: its
    /// elements are yielded as primals and coefficients).
    pub tuples: [Option<Inst>; 2],
}

impl LinOp {
    /// Whether the partial derivative costs more than a multiply (`sin`, `exp`, a division).
    /// A term whose coefficient has such a factor tests its root's tangent for zero first,
    /// which saves the partial and the lane update in a chunked gradient, where most inputs
    /// carry zero tangents; for a cheap coefficient the test costs about what it saves.
    pub fn is_costly(&self) -> bool {
        match self {
            LinOp::Add | LinOp::Sub | LinOp::Neg | LinOp::Phi => false,
            LinOp::Binary(op) | LinOp::Unary(op) => op.is_costly(),
        }
    }

    /// Whether the partial may be infinite or NaN where the value is finite (`sqrt` at 0):
    /// the runtime's `unbounded` rules. A coefficient with such a factor multiplies its
    /// root's tangent keeping zero lanes zero (`lin::ax_strong`), as the rule does in one
    /// direction, so a kink does not put NaN into directions that do not move the root.
    pub fn is_unbounded(&self) -> bool {
        match self {
            // A phi's coefficients are unbounded where an arm's are (`root_sets`).
            LinOp::Add | LinOp::Sub | LinOp::Neg | LinOp::Phi => false,
            LinOp::Binary(op) | LinOp::Unary(op) => op.is_unbounded(),
        }
    }

    /// Whether the partial may be infinite where the value is finite and an operand's
    /// coefficient is zero (a kink: `sqrt` at 0 of `x·x`, `asin` at 1, `powf`, `hypot` and
    /// `atan2` at 0): such a partial multiplies coefficients strongly (`lin::strong`, zero
    /// where the coefficient is), as the rule multiplies a tangent, so that `√(x·x)` at 0
    /// has `∂/∂x = 0` in batches as in one direction (where `∞·0` gave NaN). Division and
    /// `recip` are left out: their partial is infinite where their value is (or by
    /// overflow), and their plain products keep BA's Jacobian 9 % faster.
    pub fn kinks(&self) -> bool {
        match self {
            LinOp::Binary(FloatOp::Div) | LinOp::Unary(FloatOp::Recip) => false,
            _ => self.is_unbounded(),
        }
    }
}

/// The linearisation of a function.
#[derive(Debug, Default)]
pub struct Linear {
    /// The linearised instructions and their operations.
    pub ops: HashMap<Inst, LinOp>,
    /// Linearised values whose tangent is assembled where they are defined.
    pub materialize: HashSet<Value>,
    /// Each linearised value's roots, in first-seen order.
    pub roots: HashMap<Value, Vec<Value>>,
    /// `(v, r)` whose coefficient `∂v/∂r` is `±1` (reached through `+`, `-` only).
    pub units: HashSet<(Value, Value)>,
    /// Roots with a costly coefficient ([`LinOp::is_costly`]) in some materialised value:
    /// every term of theirs tests their tangent for zero first (the tests of one root
    /// compute the same thing, so they cost one).
    pub sparse: HashSet<Value>,
    /// `(v, r)` whose coefficient `∂v/∂r` has an unbounded factor ([`LinOp::is_unbounded`]).
    pub unbounded: HashSet<(Value, Value)>,
    /// `(v, r)` whose coefficient `∂v/∂r` has a factor of a kink ([`LinOp::kinks`]).
    pub kinked: HashSet<(Value, Value)>,
    /// `(v, r)` whose coefficient `∂v/∂r` passed through a phi one of whose arms does not
    /// reach `r` ([`Phi::read`]), and whose `ṙ` may be NaN or infinite ([`may_not_be_finite`]): a
    /// zero coefficient is that arm's, and the term is zero whatever `ṙ` (`lin::ax_select`),
    /// as in one direction, where the arm taken never meets `ṙ`. (`if a.is_nan() { 0.0 }
    /// else { a }` with `a = √(x₀ − x₁)` below 0 had NaN in batches.)
    pub selected: HashSet<(Value, Value)>,
    /// Values a `&mut` borrow may change in place: a root among them is read afresh at each
    /// use (a snapshot taken before the write would be stale after it).
    pub mutated: HashSet<Value>,
    /// A re-read of an element → the first read of it (one root).
    pub alias: HashMap<Value, Value>,
    /// The region each instruction is in.
    pub region_of: HashMap<Inst, Region>,
    /// The instruction that owns each nested region (a branch, a loop body).
    pub owner_of: HashMap<Region, Inst>,
    /// Instructions of the chains whose coefficients are accumulated backwards, from each
    /// materialised value through its absorbed cone ([`crate::preacc`]).
    pub backward: HashSet<Inst>,
    /// The values yielded by `if`s, by their instruction.
    pub phis: HashMap<Inst, Phi>,
    /// The `if`s whose arms are linearised chains.
    pub lin_ifs: HashMap<Inst, LinIf>,
    /// The values the arms of those `if`s yield: never materialised (the arms assemble no
    /// tangent), their coefficients are yielded.
    pub phi_inputs: HashSet<Value>,
    /// Every linearised value in the arms of those `if`s (never materialised).
    pub in_arms: HashSet<Value>,
    /// One direction ([`crate::simplify::deferrable`]): materialised values whose tangent
    /// may be held divided by a power of two, the factor applied in their readers'
    /// coefficients instead (`ṅ = 2·Σ dᵢ·ḋᵢ` held as `Σ dᵢ·ḋᵢ`).
    pub deferrable: HashSet<Value>,
    /// One direction: a `for` loop's carried accumulator (the body's parameter) → the sum
    /// that updates it (`e += u`), whose tangent may be carried divided by a power of two
    /// through the loop and multiplied once after it.
    pub accumulators: HashMap<Value, Inst>,
    /// Batches: loop-invariant roots of a `for` loop's accumulator update, by loop
    /// ([`hoists`]): their coefficients are summed as a scalar in the loop and applied to
    /// the accumulator's tangent once after it.
    pub hoists: HashMap<Inst, Vec<Hoist>>,
}

/// A root `root` of the update `update` (`s += ..`) of a `for` loop's accumulator `param`
/// defined outside the loop (`mx` in `s += (v[i] - mx).exp()`): every iteration's term
/// `c·ṁx` is the same tangent times another scalar, so the loop sums `c` as a scalar and
/// the accumulator's tangent takes `(Σc)·ṁx` once after the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hoist {
    /// The body's carried parameter (the accumulator).
    pub param: Value,
    /// The sum that updates it, carried to the next iteration.
    pub update: Value,
    /// The loop-invariant root.
    pub root: Value,
}

impl Linear {
    /// The root that stands for active value `v` (itself, or the first read of its element).
    pub fn canonical(&self, v: Value) -> Value {
        self.alias.get(&v).copied().unwrap_or(v)
    }

    /// The linearised instruction that defines `v`, if any.
    pub fn def(&self, func: &Function, v: Value) -> Option<Inst> {
        match func.values[v].def {
            ValueDef::Inst(i, 0) if self.ops.contains_key(&i) => Some(i),
            _ => None,
        }
    }

    /// The operands of linearised `inst`: a phi's operands, or the instruction's.
    pub fn raw_operands(&self, func: &Function, inst: Inst) -> Vec<Value> {
        match self.phis.get(&inst) {
            Some(phi) => phi.operands.clone(),
            None => func.operands(inst),
        }
    }

    /// Whether `user` expands operand `o`'s coefficients (`o` is absorbed and defined in
    /// the same region); otherwise `o` is a root of `user`. An arm of a linearised `if`
    /// reads the absorbed values before it as roots: the `if` then yields the coefficients
    /// with respect to them, which its phi expands.
    pub fn expands(&self, func: &Function, user: Inst, o: Value) -> bool {
        self.absorbed(o)
            && self
                .def(func, o)
                .is_some_and(|d| self.region_of.get(&d) == self.region_of.get(&user))
    }

    /// Whether linearised operand `o` of `user` is defined in `user`'s region.
    pub fn same_region(&self, func: &Function, user: Inst, o: Value) -> bool {
        self.def(func, o)
            .is_some_and(|d| self.region_of.get(&d) == self.region_of.get(&user))
    }

    /// The instructions of the absorbed values that `inst`'s combination expands: its
    /// absorbed operands, theirs, and so on (not `inst` itself).
    fn absorbed_cone(&self, func: &Function, inst: Inst) -> Vec<Inst> {
        let mut cone: Vec<Inst> = Vec::new();
        let mut stack = vec![inst];
        while let Some(i) = stack.pop() {
            for o in self.raw_operands(func, i) {
                if let Some(d) = self.def(func, o).filter(|_| self.expands(func, i, o)) {
                    if !cone.contains(&d) {
                        cone.push(d);
                        stack.push(d);
                    }
                }
            }
        }
        cone
    }

    /// Whether `v` is linearised and not materialised (its tangent exists only as
    /// coefficients).
    pub fn absorbed(&self, v: Value) -> bool {
        self.roots.contains_key(&v) && !self.materialize.contains(&v)
    }
}

/// Plans the linearisation; `None` when it would change nothing.
pub fn analyze(func: &Function, active: &Activity, plans: &DualPlan) -> Option<Linear> {
    let mut lin = chains(func, active, plans, true)?;
    let mutated = lin.mutated.clone();
    let required = lin.materialize.clone();
    // Root sets, then materialise values that two materialised values would both expand,
    // until nothing changes (each round only adds to `materialize`).
    let accumulators = loop_accumulators(func, &lin);
    loop {
        root_sets(func, active, &mut lin);
        // The terms a loop's accumulator update will hoist cost nothing per iteration.
        let hoisted: HashSet<(Value, Value)> = hoists(func, &lin, &accumulators)
            .into_values()
            .flatten()
            .map(|h| (h.update, h.root))
            .collect();
        let mut grow = reads_mutated_roots(&lin, &mutated);
        if grow.is_empty() {
            grow = shared_values(func, &lin);
        }
        if grow.is_empty() {
            grow = unprofitable(func, active, &lin, &hoisted);
        }
        if grow.is_empty() {
            grow = root_differences(func, active, &lin, &hoisted);
        }
        if grow.is_empty() {
            grow = kink_operands(func, active, &lin);
        }
        // The arms of a linearised `if` assemble no tangent: their cost is in the phis.
        grow.retain(|v| !lin.in_arms.contains(v));
        if grow.is_empty() {
            break;
        }
        lin.materialize.extend(grow);
    }
    crate::preacc::choose(func, active, &mut lin, required);
    lin.hoists = hoists(func, &lin, &accumulators);
    let absorbs = lin.ops.keys().any(|i| {
        let v = func.insts[*i].results[0];
        lin.absorbed(v)
    });
    let merges_reads = lin.ops.keys().any(|i| {
        lin_operands(func, active, &lin, *i)
            .iter()
            .any(|o| lin.alias.contains_key(o))
    });
    (absorbs || merges_reads).then_some(lin)
}

/// The chains before any cost guard: the linearised instructions, the values that escape
/// them (materialised), element aliases, regions; `None` when there is no chain. (Root
/// sets are not computed yet.) With `through_if`, chains continue through `if`s whose arms
/// are chains ([`Phi`]).
pub(crate) fn chains(
    func: &Function,
    active: &Activity,
    plans: &DualPlan,
    through_if: bool,
) -> Option<Linear> {
    let mut lin = Linear::default();
    let mut region_of: HashMap<Inst, Region> = HashMap::new();
    for (r, data) in func.regions.iter() {
        for &inst in &data.insts {
            region_of.insert(inst, r);
            for owned in func.inst_regions(inst) {
                lin.owner_of.insert(owned, inst);
            }
        }
    }
    lin.region_of = region_of.clone();
    // A value a `&mut` borrow may change (`std::mem::swap(&mut lo, &mut hi)`) lives in its
    // dual: linearised, its later readers would use the primal cached by its chain.
    let mutated = mutated_in_place(func);
    lin.mutated = mutated.clone();
    for (inst, data) in func.insts.iter() {
        let Some(&v) = data.results.first() else {
            continue;
        };
        if !*active.get(v) || mutated.contains(&v) {
            continue;
        }
        if let Some(op) = lin_op(func, plans, inst) {
            lin.ops.insert(inst, op);
        }
    }
    if lin.ops.is_empty() {
        return None;
    }
    lin.alias = element_aliases(func, active, plans);
    if through_if {
        find_lin_ifs(func, active, &mut lin);
    }
    // Escapes: any use that is not a linearised instruction of the same region (an arm of
    // a linearised `if` reads the values before it through its phis, and yields its own).
    let arm_of = |r: Region| {
        lin.owner_of
            .get(&r)
            .filter(|o| lin.lin_ifs.contains_key(o))
            .copied()
    };
    let mut escapes: Vec<Value> = Vec::new();
    for (r, data) in func.regions.iter() {
        let lin_if = arm_of(r);
        for &user in &data.insts {
            if lin_if.is_some_and(|i| lin.lin_ifs[&i].tuples.contains(&Some(user))) {
                continue;
            }
            // A comparison reads the primal only (`theta_sq != 0.0`), which the chain has.
            let compares = matches!(
                &func.insts[user].kind,
                InstKind::Binary { op, .. } if op.is_comparison()
            ) && matches!(plans.get(user).form, Form::Primal { .. });
            if compares {
                continue;
            }
            for o in lin.raw_operands(func, user) {
                let Some(d) = lin.def(func, o) else {
                    continue;
                };
                let before_if = lin_if.is_some_and(|i| region_of.get(&i) == region_of.get(&d));
                if !lin.ops.contains_key(&user) || (region_of.get(&d) != Some(&r) && !before_if) {
                    escapes.push(o);
                }
            }
        }
        if lin_if.is_some() {
            continue;
        }
        for o in func.term_operands(r) {
            if lin.def(func, o).is_some() {
                escapes.push(o);
            }
        }
    }
    lin.materialize.extend(escapes);
    for o in func.annotations.keys() {
        if lin.def(func, *o).is_some() {
            lin.materialize.insert(*o);
        }
    }
    Some(lin)
}

/// Where a value is used: by an instruction, or by the terminator of a region.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    Inst(Inst),
    Term(Region),
}

/// The `if`s a chain continues through ([`Phi`]): an `if` yielding one float, or a tuple of
/// floats read field by field, whose arms hold only linearised instructions (and inactive
/// ones: literals), read active values only from before the `if` and use their values only
/// in the arm or in what they yield. The `if`'s values become phis, its arms' values
/// `in_arms`.
fn find_lin_ifs(func: &Function, active: &Activity, lin: &mut Linear) {
    let mut uses: HashMap<Value, Vec<Use>> = HashMap::new();
    for (r, data) in func.regions.iter() {
        for &i in &data.insts {
            for o in func.operands(i) {
                uses.entry(o).or_default().push(Use::Inst(i));
            }
        }
        for o in func.term_operands(r) {
            uses.entry(o).or_default().push(Use::Term(r));
        }
    }
    let defined_in = |v: Value, r: Region| match func.values[v].def {
        ValueDef::Inst(i, _) => lin.region_of.get(&i) == Some(&r),
        ValueDef::RegionParam(p, _) => p == r,
        ValueDef::Param(_) => false,
    };
    let is = |v: Value| *active.get(v);
    let float_like =
        |v: Value| !is(v) || lin.def(func, v).is_some() || func.values[v].ty == TypeHint::Float;
    /// An `if` found linearisable: its plan, its phis, its arms' linearised values.
    type Found = (Inst, LinIf, Vec<(Inst, Phi)>, Vec<Value>);
    let mut found: Vec<Found> = Vec::new();
    for (inst, data) in func.insts.iter() {
        let InstKind::If {
            then_region,
            else_region,
            ..
        } = data.kind
        else {
            continue;
        };
        let [result] = data.results.as_slice() else {
            continue;
        };
        if !is(*result) || lin.mutated.contains(result) {
            continue;
        }
        let arms = [then_region, else_region];
        // What each arm yields, position by position (a tuple's elements).
        let mut tuples: [Option<Inst>; 2] = [None, None];
        let mut ys: [Vec<Value>; 2] = [Vec::new(), Vec::new()];
        let mut ok = true;
        for (a, &r) in arms.iter().enumerate() {
            let Terminator::Yield(vs) = &func.regions[r].term else {
                ok = false;
                break;
            };
            let [y] = vs.as_slice() else {
                ok = false;
                break;
            };
            ys[a] = vec![*y];
            if let ValueDef::Inst(t, 0) = func.values[*y].def {
                if let InstKind::Tuple(elems) = &func.insts[t].kind {
                    let only_yielded = uses.get(y).map(Vec::as_slice) == Some(&[Use::Term(r)]);
                    if defined_in(*y, r) && only_yielded {
                        tuples[a] = Some(t);
                        ys[a] = elems.clone();
                    }
                }
            }
        }
        if !ok || ys[0].len() != ys[1].len() {
            continue;
        }
        // The phis: the `if` itself, or one field read of its tuple per use.
        let phis: Vec<(Inst, usize)> = match tuples {
            [None, None] => vec![(inst, 0)],
            [Some(_), Some(_)] => {
                let mut phis = Vec::new();
                for u in uses.get(result).map(Vec::as_slice).unwrap_or_default() {
                    let Use::Inst(f) = u else {
                        ok = false;
                        break;
                    };
                    match &func.insts[*f].kind {
                        InstKind::Field {
                            member: syn::Member::Unnamed(k),
                            ..
                        } if (k.index as usize) < ys[0].len() => {
                            let fv = func.insts[*f].results[0];
                            ok &= is(fv) && !lin.mutated.contains(&fv);
                            phis.push((*f, k.index as usize));
                        }
                        _ => ok = false,
                    }
                }
                let read = |k: usize| phis.iter().any(|(_, j)| *j == k);
                ok &= (0..ys[0].len()).all(read);
                phis
            }
            _ => continue,
        };
        // Worth it only where the chain goes on after the `if`: a phi read by a chain
        // operation (a value only returned or stored is as well assembled in the arm).
        let continues = phis.iter().any(|(p, _)| {
            let v = func.insts[*p].results[0];
            uses.get(&v)
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .any(|u| matches!(u, Use::Inst(j) if lin.ops.contains_key(j)))
        });
        if !ok || phis.is_empty() || !continues {
            continue;
        }
        if func.annotations.contains_key(result) && tuples[0].is_some() {
            continue;
        }
        // Each arm: linearised instructions whose values stay in the arm (or are
        // yielded), inactive ones, the yielded tuple.
        let mut in_arms: Vec<Value> = Vec::new();
        for (a, &r) in arms.iter().enumerate() {
            let region = &func.regions[r];
            ok &= region.params.is_empty();
            for &i in &region.insts {
                if tuples[a] == Some(i) {
                    continue;
                }
                let ops = func.operands(i);
                if lin.ops.contains_key(&i) {
                    let v = func.insts[i].results[0];
                    let stays = uses
                        .get(&v)
                        .map(Vec::as_slice)
                        .unwrap_or_default()
                        .iter()
                        .all(|u| match u {
                            Use::Inst(j) => {
                                lin.region_of.get(j) == Some(&r)
                                    && (lin.ops.contains_key(j) || tuples[a] == Some(*j))
                            }
                            Use::Term(t) => *t == r,
                        });
                    let reads_ok = ops
                        .iter()
                        .all(|o| !is(*o) || defined_in(*o, r) || !lin.mutated.contains(o));
                    ok &= stays && reads_ok && !func.annotations.contains_key(&v);
                    in_arms.push(v);
                } else {
                    let inactive = func.insts[i].results.iter().all(|v| !is(*v))
                        && ops.iter().all(|o| !is(*o));
                    ok &= inactive && func.inst_regions(i).is_empty();
                }
            }
            for &y in &ys[a] {
                ok &= float_like(y) && !(is(y) && lin.mutated.contains(&y));
            }
        }
        ok &= !arms.iter().any(|r| arm_kink_cancels(func, active, lin, *r));
        if !ok {
            continue;
        }
        // A phi's operands: the values from before the `if` its arms' chains read.
        let mut lin_if = LinIf {
            phis: Vec::new(),
            tuples,
        };
        let mut new_phis: Vec<(Inst, Phi)> = Vec::new();
        for (p, k) in phis {
            let mut operands: Vec<Value> = Vec::new();
            let mut read: [Vec<Value>; 2] = Default::default();
            for (a, &r) in arms.iter().enumerate() {
                let mut stack = vec![ys[a][k]];
                let mut seen: HashSet<Value> = HashSet::new();
                while let Some(v) = stack.pop() {
                    if !is(v) || !seen.insert(v) {
                        continue;
                    }
                    if !defined_in(v, r) {
                        let c = lin.canonical(v);
                        if !read[a].contains(&c) {
                            read[a].push(c);
                        }
                        if !operands.contains(&c) {
                            operands.push(c);
                        }
                        continue;
                    }
                    if let Some(d) = lin.def(func, v) {
                        // Reverse, so that operands come out first-read first.
                        stack.extend(func.operands(d).into_iter().rev());
                    }
                }
            }
            lin_if.phis.push(p);
            new_phis.push((
                p,
                Phi {
                    arms: [ys[0][k], ys[1][k]],
                    operands,
                    read,
                },
            ));
        }
        found.push((inst, lin_if, new_phis, in_arms));
    }
    for (inst, lin_if, phis, in_arms) in found {
        for (p, phi) in phis {
            for y in phi.arms {
                if in_arms.contains(&y) {
                    lin.phi_inputs.insert(y);
                }
            }
            lin.ops.insert(p, LinOp::Phi);
            lin.phis.insert(p, phi);
        }
        lin.in_arms.extend(in_arms);
        lin.lin_ifs.insert(inst, lin_if);
    }
}

/// The linearised operation of `inst`, if it has one: a scalar rule with partials.
fn lin_op(func: &Function, plans: &DualPlan, inst: Inst) -> Option<LinOp> {
    let Form::Op(op) = plans.get(inst).form else {
        return None;
    };
    match (&func.insts[inst].kind, op) {
        (InstKind::Binary { .. }, FloatOp::Add) => Some(LinOp::Add),
        (InstKind::Binary { .. }, FloatOp::Sub) => Some(LinOp::Sub),
        (InstKind::Binary { .. }, FloatOp::Mul | FloatOp::Div) => Some(LinOp::Binary(op)),
        (InstKind::Binary { .. }, FloatOp::Sq) => Some(LinOp::Unary(op)),
        (InstKind::Unary { op: UnOp::Neg, .. }, FloatOp::Neg) => Some(LinOp::Neg),
        (InstKind::MethodCall { args, .. }, op) if args.is_empty() && op.is_smooth_unary() => {
            Some(LinOp::Unary(op))
        }
        (InstKind::Call { args, .. }, op) if args.len() == 1 && op.is_smooth_unary() => {
            Some(LinOp::Unary(op))
        }
        _ => None,
    }
}

/// The active operands of a linearised instruction (`x * x` counts `x` once per side; a
/// phi's are the values its arms read from before the `if`).
pub fn lin_operands(func: &Function, active: &Activity, lin: &Linear, inst: Inst) -> Vec<Value> {
    lin.raw_operands(func, inst)
        .into_iter()
        .filter(|v| *active.get(*v))
        .collect()
}

/// For every linearised value, its roots: the union of its operands' roots, an operand that
/// is a root (not absorbed) standing for itself. A value that would exceed [`MAX_ROOTS`]
/// is materialised (it becomes a root for its users).
pub(crate) fn root_sets(func: &Function, active: &Activity, lin: &mut Linear) {
    let mut roots: HashMap<Value, Vec<Value>> = HashMap::new();
    let mut units: HashSet<(Value, Value)> = HashSet::new();
    let mut costly: HashSet<(Value, Value)> = HashSet::new();
    let mut unbounded: HashSet<(Value, Value)> = HashSet::new();
    let mut kinked: HashSet<(Value, Value)> = HashSet::new();
    let mut selected: HashSet<(Value, Value)> = HashSet::new();
    // Whether each linearised value's tangent may be NaN or infinite ([`may_not_be_finite`]).
    let mut unbounded_tangent: HashMap<Value, bool> = HashMap::new();
    // Linearised operands are defined earlier in the same region (any other use
    // materialises them), and an `if`'s arms come before its phis: one walk in program
    // order sees them first.
    {
        for inst in nested_order(func)
            .into_iter()
            .filter(|i| lin.ops.contains_key(i))
        {
            let v = func.insts[inst].results[0];
            let sums = matches!(lin.ops[&inst], LinOp::Add | LinOp::Sub | LinOp::Neg);
            let mut op_costly = lin.ops[&inst].is_costly();
            let mut op_unbounded = lin.ops[&inst].is_unbounded();
            let mut op_kinks = lin.ops[&inst].kinks();
            if let Some(phi) = lin.phis.get(&inst) {
                // Coarse: any costly or unbounded coefficient of an arm's value.
                let arm =
                    |set: &HashSet<(Value, Value)>| set.iter().any(|(a, _)| phi.arms.contains(a));
                op_costly = arm(&costly);
                op_unbounded = arm(&unbounded);
                op_kinks = arm(&kinked);
            }
            let mut set: Vec<Value> = Vec::new();
            let mut contributions: HashMap<Value, (usize, bool)> = HashMap::new();
            let phi_read = lin.phis.get(&inst).map(|phi| &phi.read);
            let mut arm_roots: [HashSet<Value>; 2] = Default::default();
            for o in lin_operands(func, active, lin, inst) {
                let from: Vec<(Value, bool, bool, bool, bool)> = match roots.get(&o) {
                    Some(rs) if lin.same_region(func, inst, o) && !lin.materialize.contains(&o) => {
                        rs.iter()
                            .map(|r| {
                                let k = (o, *r);
                                let (unit, dear) = (units.contains(&k), costly.contains(&k));
                                (*r, unit, dear, unbounded.contains(&k), kinked.contains(&k))
                            })
                            .collect()
                    }
                    _ => vec![(lin.canonical(o), true, false, false, false)],
                };
                for (r, unit, dear, unb, kink) in from {
                    for (a, reached) in arm_roots.iter_mut().enumerate() {
                        if phi_read.is_some_and(|read| read[a].contains(&o)) {
                            reached.insert(r);
                        }
                    }
                    if selected.contains(&(o, r)) {
                        selected.insert((v, r));
                    }
                    if op_costly || dear {
                        costly.insert((v, r));
                    }
                    if op_unbounded || unb {
                        unbounded.insert((v, r));
                    }
                    if op_kinks || kink {
                        kinked.insert((v, r));
                    }
                    if !set.contains(&r) {
                        set.push(r);
                    }
                    let c = contributions.entry(r).or_insert((0, true));
                    c.0 += 1;
                    c.1 &= unit;
                }
            }
            for (r, (n, unit)) in contributions {
                if sums && n == 1 && unit {
                    units.insert((v, r));
                }
            }
            if phi_read.is_some() {
                for &r in &set {
                    if !(arm_roots[0].contains(&r) && arm_roots[1].contains(&r))
                        && may_not_be_finite(func, &unbounded_tangent, r)
                    {
                        selected.insert((v, r));
                    }
                }
            }
            let wild = set.iter().any(|r| {
                unbounded.contains(&(v, *r)) || may_not_be_finite(func, &unbounded_tangent, *r)
            });
            unbounded_tangent.insert(v, wild);
            roots.insert(v, set);
        }
    }
    lin.sparse = costly
        .into_iter()
        .filter(|(v, r)| lin.materialize.contains(v) && element_in_loop(func, lin, *r))
        .map(|(_, r)| r)
        .collect();
    lin.roots = roots;
    lin.units = units;
    lin.unbounded = unbounded;
    lin.kinked = kinked;
    lin.selected = selected;
}

/// Whether root `r`'s tangent may be NaN or infinite: not where it is a parameter or an
/// element read of one (seeds are finite), nor a linearised value whose coefficients are
/// bounded and whose roots' tangents are finite (`linearised`, filled in program order);
/// anything else may (a kink's materialised value, a call's result, a loop-carried value).
fn may_not_be_finite(func: &Function, linearised: &HashMap<Value, bool>, r: Value) -> bool {
    let is_param = |v: Value| matches!(func.values[v].def, ValueDef::Param(_));
    match func.values[r].def {
        ValueDef::Param(_) => false,
        _ if linearised.contains_key(&r) => linearised[&r],
        ValueDef::Inst(i, _) => {
            !matches!(func.insts[i].kind, InstKind::Index { base, .. } if is_param(base))
        }
        ValueDef::RegionParam(..) => true,
    }
}

/// Absorbed sums and differences of two roots read nowhere else (`dx = x[3i] - x[3j]`)
/// that a materialised value reaches with a coefficient other than `±1`: materialised, the
/// difference costs one whole-tangent subtraction and its readers one multiply-add, where
/// its two roots cost two multiply-adds (and, for elements read in a loop behind a costly
/// coefficient, two zero tests). The spring energy's `dx, dy, dz`: three subtractions and
/// three multiply-adds per spring instead of six, as an expert writes `c·(d·ḋ)`.
///
/// Not a difference with a root that an accumulator's update hoists (`v[i] - mx` in `s +=
/// (v[i] - mx).exp()`): absorbed, it costs one multiply-add per iteration and a scalar
/// addition, where materialised it costs a subtraction and a multiply-add.
fn root_differences(
    func: &Function,
    active: &Activity,
    lin: &Linear,
    hoisted: &HashSet<(Value, Value)>,
) -> HashSet<Value> {
    let mut uses: HashMap<Value, usize> = HashMap::new();
    for (r, data) in func.regions.iter() {
        for &i in &data.insts {
            for o in func.operands(i) {
                *uses.entry(o).or_default() += 1;
            }
        }
        for o in func.term_operands(r) {
            *uses.entry(o).or_default() += 1;
        }
    }
    let aliased: HashSet<Value> = lin.alias.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let mut out = HashSet::new();
    for (&inst, op) in &lin.ops {
        if !matches!(op, LinOp::Add | LinOp::Sub)
            || lin.in_arms.contains(&func.insts[inst].results[0])
        {
            continue;
        }
        let v = func.insts[inst].results[0];
        if !lin.absorbed(v) {
            continue;
        }
        let ops = lin_operands(func, active, lin, inst);
        let [a, b] = ops.as_slice() else {
            continue;
        };
        let single = |o: &Value| {
            !lin.expands(func, inst, *o)
                && !aliased.contains(o)
                && !lin.mutated.contains(o)
                && uses.get(o) == Some(&1)
        };
        if a == b || !single(a) || !single(b) {
            continue;
        }
        if hoisted.iter().any(|(_, r)| r == a || r == b) {
            continue;
        }
        let scaled = lin.materialize.iter().any(|m| {
            lin.roots.get(m).is_some_and(|rs| rs.contains(a)) && !lin.units.contains(&(*m, *a))
        });
        if scaled {
            out.insert(v);
        }
    }
    out
}

/// Absorbed operands of a kink (`sqrt`, `asin`, ...: [`LinOp::kinks`]) with two roots or
/// more: materialised, so that the kink multiplies their assembled tangent strongly, as
/// the rule does in one direction.
///
/// - Correctness: absorbed, each root's coefficient would be the kink's infinite partial
///   times the root's own, and two such terms cancel (`∞ − ∞`, NaN) where the operand's
///   tangent is zero but the roots' are not: `√(d² + a·d)` with `d = x[i] − x[j]` and
///   `i = j`, whose two reads of one element carry one tangent. (A sum of squares is zero
///   only where each square is, so its absorbed coefficients are all zero there.)
/// - Speed (outside `if` arms, sums of squares too): absorbed, the coefficients would each
///   pass through the kink's strong product (a multiply, a compare and a select per root),
///   and every later coefficient once per root, with a finiteness test per root where the
///   tangent is assembled; materialised, the operand's tangent is a combination of cheap
///   coefficients and the chain after the kink has one root. The lane updates are as many;
///   the scalar work is a third. The flat spring energy in 8 lanes: 1.68 → 1.14 × the
///   `Vec3` expert.
fn kink_operands(func: &Function, active: &Activity, lin: &Linear) -> HashSet<Value> {
    let chain = |v: Value| lin.def(func, v).filter(|_| lin.absorbed(v));
    let mut out = HashSet::new();
    for (&inst, op) in &lin.ops {
        if !op.kinks() {
            continue;
        }
        let in_arm = lin.in_arms.contains(&func.insts[inst].results[0]);
        let phi = lin.phis.contains_key(&inst);
        for o in lin_operands(func, active, lin, inst) {
            let several = lin.roots.get(&o).is_some_and(|rs| rs.len() > 1);
            if !(lin.expands(func, inst, o) && several) {
                continue;
            }
            if !in_arm || !phi && !scaled_sum_of_squares(func, active, lin, o, &chain) {
                out.insert(o);
            }
        }
    }
    out
}

/// Whether an arm `r` of an `if` holds a kink whose operand [`kink_operands`] would
/// materialise: an arm's values are never materialised (the `if` yields coefficients), so
/// such an `if` is not linearised through (`asin(1 + a·q − a·p)` in an arm, with `p` and
/// `q` one element's two reads, had NaN in batches). Before root sets: the operand's roots
/// are the distinct leaves of its chain in the arm.
fn arm_kink_cancels(func: &Function, active: &Activity, lin: &Linear, r: Region) -> bool {
    let chain = |v: Value| {
        lin.def(func, v)
            .filter(|d| lin.region_of.get(d) == Some(&r))
    };
    let leaves = |v: Value| {
        let (mut seen, mut stack, mut leaves) = (HashSet::new(), vec![v], HashSet::new());
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            match chain(v) {
                Some(d) => stack.extend(func.operands(d).into_iter().filter(|o| *active.get(*o))),
                None => {
                    leaves.insert(lin.canonical(v));
                }
            }
        }
        leaves.len()
    };
    func.regions[r].insts.iter().any(|i| {
        lin.ops.get(i).is_some_and(LinOp::kinks)
            && lin_operands(func, active, lin, *i).into_iter().any(|o| {
                chain(o).is_some()
                    && leaves(o) > 1
                    && !scaled_sum_of_squares(func, active, lin, o, &chain)
            })
    })
}

/// Whether `v`, linearised in the chain `chain` gives the instructions of (`None`: a
/// root), is `k·(s₁ + s₂ + ...)`, each `sᵢ` a square (`t * t`, `t.powi(2)`) and `k`
/// constant: zero only where every `sᵢ` is. (Squares scaled one by one are left out: `s₁
/// − 2·s₂` is zero where neither square is.)
fn scaled_sum_of_squares(
    func: &Function,
    active: &Activity,
    lin: &Linear,
    v: Value,
    chain: &dyn Fn(Value) -> Option<Inst>,
) -> bool {
    // A square may be a root (its tangent `2t·ṫ` is zero where it is).
    let is_square = |v: Value| {
        lin.def(func, v).is_some_and(|d| match lin.ops[&d] {
            LinOp::Unary(FloatOp::Sq) => true,
            LinOp::Binary(FloatOp::Mul) => {
                let ops = func.operands(d);
                ops.len() == 2
                    && ops.iter().all(|o| *active.get(*o))
                    && lin.canonical(ops[0]) == lin.canonical(ops[1])
            }
            _ => false,
        })
    };
    fn sum(
        func: &Function,
        lin: &Linear,
        v: Value,
        square: &dyn Fn(Value) -> bool,
        chain: &dyn Fn(Value) -> Option<Inst>,
    ) -> bool {
        if square(v) {
            return true;
        }
        let Some(d) = chain(v) else {
            return false;
        };
        lin.ops[&d] == LinOp::Add
            && func
                .operands(d)
                .iter()
                .all(|o| sum(func, lin, *o, square, chain))
    }
    let Some(d) = chain(v) else {
        return false;
    };
    let scale = matches!(
        lin.ops[&d],
        LinOp::Binary(FloatOp::Mul) | LinOp::Binary(FloatOp::Div)
    );
    let ops = func.operands(d);
    if scale && !is_square(v) {
        // `k·s`, `s·k`, `s / k` with `k` constant.
        let (actives, consts): (Vec<Value>, Vec<Value>) =
            ops.iter().partition(|o| *active.get(**o));
        let divisor_const = lin.ops[&d] == LinOp::Binary(FloatOp::Mul) || consts.contains(&ops[1]);
        return actives.len() == 1
            && divisor_const
            && sum(func, lin, actives[0], &is_square, chain);
    }
    sum(func, lin, v, &is_square, chain)
}

/// Every instruction in program order: a region's instructions in order, the regions an
/// instruction owns right after it.
pub fn nested_order(func: &Function) -> Vec<Inst> {
    fn walk(func: &Function, r: Region, out: &mut Vec<Inst>) {
        for &inst in &func.regions[r].insts {
            out.push(inst);
            for owned in func.inst_regions(inst) {
                walk(func, owned, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(func, func.body, &mut out);
    out
}

/// Whether `r` is an element read (`x[i]`, a `for` element) inside a loop: the roots worth a
/// zero test. A chunked gradient seeds a few elements of a slice it loops over, so most
/// reads there see zero tangents; values read outside loops (a camera's few parameters)
/// are usually all seeded, and a test there would never skip (it costs BA's Jacobian 15 %).
fn element_in_loop(func: &Function, lin: &Linear, r: Value) -> bool {
    let is_loop = |i: Inst| {
        matches!(
            func.insts[i].kind,
            InstKind::Loop { .. } | InstKind::For { .. }
        )
    };
    let region = match func.values[r].def {
        ValueDef::Inst(i, _) if matches!(func.insts[i].kind, InstKind::Index { .. }) => {
            lin.region_of.get(&i).copied()
        }
        // A `for` body's first parameter is its element (the others are carried).
        ValueDef::RegionParam(region, 0)
            if lin
                .owner_of
                .get(&region)
                .is_some_and(|o| matches!(func.insts[*o].kind, InstKind::For { .. })) =>
        {
            Some(region)
        }
        _ => None,
    };
    let mut owner = region.and_then(|rg| lin.owner_of.get(&rg).copied());
    while let Some(o) = owner {
        if is_loop(o) {
            return true;
        }
        owner = lin
            .region_of
            .get(&o)
            .and_then(|rg| lin.owner_of.get(rg))
            .copied();
    }
    false
}

/// Materialised values whose combination costs at least as many tangent updates as the
/// chain it replaces (counted in whole-tangent operations, the cost that grows with the
/// batch width): their chains are emitted line by line (every value materialised).
/// A term an accumulator's update hoists out of its loop costs nothing.
fn unprofitable(
    func: &Function,
    active: &Activity,
    lin: &Linear,
    hoisted: &HashSet<(Value, Value)>,
) -> HashSet<Value> {
    let mut out = HashSet::new();
    for &m in &lin.materialize {
        let Some(inst) = lin.def(func, m) else {
            continue;
        };
        let mut cone = lin.absorbed_cone(func, inst);
        cone.push(inst);
        if cone.len() == 1 {
            continue;
        }
        let direct: usize = cone
            .iter()
            .map(|i| direct_cost(func, active, lin, *i))
            .sum();
        let roots = lin.roots.get(&m).map(Vec::as_slice).unwrap_or_default();
        let combination: usize = roots
            .iter()
            .map(|r| match () {
                _ if hoisted.contains(&(m, *r)) => 0,
                _ if lin.units.contains(&(m, *r)) => 1,
                _ => 2,
            })
            .sum::<usize>()
            .saturating_sub(1);
        if combination >= direct {
            out.extend(
                cone.iter()
                    .map(|i| func.insts[*i].results[0])
                    .filter(|v| !lin.materialize.contains(v)),
            );
        }
    }
    out
}

/// Whole-tangent operations of `inst` emitted line by line (its runtime rule).
fn direct_cost(func: &Function, active: &Activity, lin: &Linear, inst: Inst) -> usize {
    let ops = func.operands(inst);
    let is = |k: usize| ops.get(k).is_some_and(|v| *active.get(*v));
    let both = is(0) && is(1);
    match &lin.ops[&inst] {
        LinOp::Add => usize::from(both),
        LinOp::Sub => usize::from(is(1)),
        LinOp::Neg | LinOp::Unary(_) => 1,
        LinOp::Binary(_) if both => 3,
        LinOp::Binary(_) => 1,
        // Each operand's tangent times its coefficient, summed.
        LinOp::Phi => (2 * lin_operands(func, active, lin, inst).len()).saturating_sub(1),
    }
}

/// Absorbed values with more than one root that the combinations of two or more
/// materialised values would each expand (computing the same coefficients twice).
/// Values whose storage a `&mut` borrow may change (`let r = &mut a; *r = ..`,
/// `std::mem::swap(&mut a, &mut b)`): SSA names them once, but their tangent changes in place.
///
/// The `&mut` references themselves too (`r` in `r.sin(); *r = x; r.cos()`, an `iter_mut`
/// element, a `&mut f64` parameter): SSA names each once, but a write through it, or by a
/// callee it is lent to, changes what it reads.
fn mutated_in_place(func: &Function) -> HashSet<Value> {
    let mut out = HashSet::new();
    for (_, data) in func.insts.iter() {
        match &data.kind {
            InstKind::Ref { mutable: true, arg } => {
                out.insert(*arg);
            }
            InstKind::Store {
                place: Place::Deref(target),
                ..
            } => {
                out.insert(*target);
            }
            _ => {}
        }
    }
    out.extend(
        func.values
            .iter()
            .map(|(v, _)| v)
            .filter(|&v| func.is_mut_ref(v)),
    );
    out
}

/// Absorbed values with a root in `mutated`: materialised where they are defined, so that
/// their tangent reads the root's before a write through a `&mut` can change it (a deferred
/// combination would read the new one against the old value's coefficient).
pub(crate) fn reads_mutated_roots(lin: &Linear, mutated: &HashSet<Value>) -> HashSet<Value> {
    lin.roots
        .iter()
        .filter(|(v, roots)| {
            !lin.materialize.contains(v) && roots.iter().any(|r| mutated.contains(r))
        })
        .map(|(v, _)| *v)
        .collect()
}

fn shared_values(func: &Function, lin: &Linear) -> HashSet<Value> {
    let mut count: HashMap<Value, usize> = HashMap::new();
    for &m in &lin.materialize {
        let Some(inst) = lin.def(func, m) else {
            continue;
        };
        for d in lin.absorbed_cone(func, inst) {
            *count.entry(func.insts[d].results[0]).or_default() += 1;
        }
    }
    let mut out: HashSet<Value> = count
        .into_iter()
        .filter(|(v, n)| *n > 1 && lin.roots.get(v).is_some_and(|rs| rs.len() > 1))
        .map(|(v, _)| v)
        .collect();
    // Values over the root limit.
    for (v, rs) in &lin.roots {
        if rs.len() > MAX_ROOTS && !lin.materialize.contains(v) {
            out.insert(*v);
        }
    }
    out
}

/// Re-reads of an active element (`x[i]` again, same base and index values) with only pure
/// instructions in between, per region: each maps to the first read.
fn element_aliases(func: &Function, active: &Activity, plans: &DualPlan) -> HashMap<Value, Value> {
    let mut alias = HashMap::new();
    for (_, data) in func.regions.iter() {
        let mut seen: HashMap<(Value, Value), Value> = HashMap::new();
        for &inst in &data.insts {
            let d = &func.insts[inst];
            match &d.kind {
                InstKind::Index { base, index } if *active.get(*base) => {
                    let v = d.results[0];
                    match seen.get(&(*base, *index)) {
                        Some(&first) => {
                            alias.insert(v, first);
                        }
                        None => {
                            seen.insert((*base, *index), v);
                        }
                    }
                }
                InstKind::Lit(_)
                | InstKind::Const(_)
                | InstKind::Binary { .. }
                | InstKind::Unary { .. }
                | InstKind::Cast { .. }
                | InstKind::Copy(_)
                | InstKind::Index { .. }
                | InstKind::Field { .. }
                | InstKind::Range { .. } => {}
                InstKind::MethodCall { .. } | InstKind::Call { .. }
                    if matches!(plans.get(inst).form, Form::Op(_)) => {}
                _ => seen.clear(),
            }
        }
    }
    alias
}

/// A one-line description of an instruction's linearisation, for the IR dump.
pub fn note(lin: &Linear, func: &Function, inst: Inst) -> String {
    let Some(op) = lin.ops.get(&inst) else {
        return String::new();
    };
    let v = func.insts[inst].results[0];
    let roots: Vec<String> = lin
        .roots
        .get(&v)
        .map(|rs| rs.iter().map(|r| r.to_string()).collect())
        .unwrap_or_default();
    let how = match (lin.materialize.contains(&v), lin.backward.contains(&inst)) {
        (true, false) => "materialised",
        (false, false) => "absorbed",
        (true, true) => "materialised (backward)",
        (false, true) => "absorbed (backward)",
    };
    let op = match op {
        LinOp::Add => "add".to_string(),
        LinOp::Sub => "sub".to_string(),
        LinOp::Neg => "neg".to_string(),
        LinOp::Binary(n) | LinOp::Unary(n) => n.name().to_string(),
        LinOp::Phi => {
            let ops: Vec<String> = lin
                .raw_operands(func, inst)
                .iter()
                .map(|o| o.to_string())
                .collect();
            format!("phi of [{}]", ops.join(", "))
        }
    };
    let sparse: Vec<String> = lin
        .roots
        .get(&v)
        .filter(|_| lin.materialize.contains(&v))
        .map(|rs| {
            rs.iter()
                .filter(|r| lin.sparse.contains(r))
                .map(|r| r.to_string())
                .collect()
        })
        .unwrap_or_default();
    let sparse = if sparse.is_empty() {
        String::new()
    } else {
        format!(", zero-tested [{}]", sparse.join(", "))
    };
    let hoisted: Vec<String> = lin
        .hoists
        .values()
        .flatten()
        .filter(|h| h.update == v)
        .map(|h| h.root.to_string())
        .collect();
    let hoisted = if hoisted.is_empty() {
        String::new()
    } else {
        format!(", hoisted out of the loop [{}]", hoisted.join(", "))
    };
    format!(
        "linear {op}, {how}, roots [{}]{sparse}{hoisted}",
        roots.join(", ")
    )
}

/// Where each value is used: by an instruction, or (`None`) by a region's terminator.
pub(crate) fn uses(func: &Function) -> HashMap<Value, Vec<Option<Inst>>> {
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
    uses
}

/// The accumulators of `for` loops, as `(loop, param, update)`: a body's carried parameter
/// read only by the sum that updates it (`e += u`), that sum materialised and carried to
/// the next iteration by the body's end only (no `continue` or `break` of the loop).
pub(crate) fn loop_accumulators(func: &Function, lin: &Linear) -> Vec<(Inst, Value, Inst)> {
    let uses = uses(func);
    let mut out = Vec::new();
    for (_, data) in func.regions.iter() {
        for &l in &data.insts {
            let InstKind::For { body, .. } = func.insts[l].kind else {
                continue;
            };
            let Terminator::Yield(next) = &func.regions[body].term else {
                continue;
            };
            if jumps_to(func, body, 0) {
                continue;
            }
            let params = &func.regions[body].params;
            for (k, &p) in params.iter().enumerate().skip(1) {
                let Some(&e) = next.get(k - 1) else { continue };
                let Some(add) = lin.def(func, e) else {
                    continue;
                };
                let reads = |v: Value| uses.get(&v).map_or(0, Vec::len);
                let ok = lin.ops[&add] == LinOp::Add
                    && func.regions[body].insts.contains(&add)
                    && lin.materialize.contains(&e)
                    && !lin.mutated.contains(&e)
                    && !lin.mutated.contains(&p)
                    && lin.canonical(p) == p
                    && func.operands(add).iter().filter(|o| **o == p).count() == 1
                    && uses.get(&p).is_some_and(|us| us == &[Some(add)])
                    && reads(e) == 1
                    && next.iter().filter(|v| **v == e).count() == 1
                    && matches!(func.values[p].def, ValueDef::RegionParam(..));
                if ok {
                    out.push((l, p, add));
                }
            }
        }
    }
    out
}

/// Whether a `break` or `continue` in `region` or the regions nested in it targets the loop
/// `depth` loops out of `region` (0: the loop whose body `region` is).
pub(crate) fn jumps_to(func: &Function, region: Region, depth: usize) -> bool {
    if let Terminator::Break { depth: d, .. } | Terminator::Continue { depth: d, .. } =
        func.regions[region].term
    {
        if d == depth {
            return true;
        }
    }
    func.regions[region].insts.iter().any(|&i| {
        let inner = match func.insts[i].kind {
            InstKind::Loop { .. } | InstKind::For { .. } => depth + 1,
            _ => depth,
        };
        func.inst_regions(i)
            .into_iter()
            .any(|r| jumps_to(func, r, inner))
    })
}

/// Whether `v` is defined in `region` or a region nested in it.
fn defined_in(func: &Function, lin: &Linear, v: Value, region: Region) -> bool {
    let mut at = match func.values[v].def {
        ValueDef::Param(_) => None,
        ValueDef::Inst(i, _) => lin.region_of.get(&i).copied(),
        ValueDef::RegionParam(r, _) => Some(r),
    };
    while let Some(r) = at {
        if r == region {
            return true;
        }
        at = lin
            .owner_of
            .get(&r)
            .and_then(|o| lin.region_of.get(o))
            .copied();
    }
    false
}

/// The loop-invariant roots of each accumulator's update ([`Hoist`]), by loop: defined
/// outside the loop and not changed in place, with a plain coefficient (not zero-tested,
/// not behind a kink, not selected by an arm of an `if`), in a chain carried forward.
/// Each saves one whole-tangent update per iteration for a scalar addition.
fn hoists(
    func: &Function,
    lin: &Linear,
    accumulators: &[(Inst, Value, Inst)],
) -> HashMap<Inst, Vec<Hoist>> {
    let mut out: HashMap<Inst, Vec<Hoist>> = HashMap::new();
    for &(l, param, add) in accumulators {
        let InstKind::For { body, .. } = func.insts[l].kind else {
            continue;
        };
        let update = func.insts[add].results[0];
        if lin.backward.contains(&add) || !lin.materialize.contains(&update) {
            continue;
        }
        for &root in lin.roots.get(&update).into_iter().flatten() {
            let invariant = root != param
                && !defined_in(func, lin, root, body)
                && !lin.mutated.contains(&root)
                && !lin.sparse.contains(&root)
                && !lin.kinked.contains(&(update, root))
                && !lin.selected.contains(&(update, root));
            if invariant {
                out.entry(l).or_default().push(Hoist {
                    param,
                    update,
                    root,
                });
            }
        }
    }
    out
}
