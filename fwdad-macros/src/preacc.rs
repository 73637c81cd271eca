//! Statement-level preaccumulation (ADIFOR, Tapenade) for linearised chains: which chains
//! get their coefficients by a backward sweep instead of forward (see [`crate::linear`]).
//!
//! Forward, a chain carries `∂v/∂r` for every value `v` and every root `r` it depends on:
//! about `Σᵥ |roots(v)|` scalar operations, and a chain with many roots is cut by the cost
//! guards (`MAX_ROOTS`, values shared by two outputs, line-by-line fallbacks), each cut a
//! tangent assembled in the middle of the chain. Backward, each *output* (a materialised
//! value) sweeps the adjoints `∂out/∂v` through its absorbed cone in reverse, one scalar
//! multiply-add per operand: `|cone| × outputs` scalar operations, whatever the number of
//! roots, and no cut is needed. BA's residual (2 outputs, 15 roots) is the case it is for.
//!
//! The choice is per chain (a connected set of linearised values, connected through
//! absorbed operands once only the necessary values are materialised), by an operation
//! count: backward when it needs fewer whole-tangent operations (the part that grows with
//! the batch width) and fewer operations in all, scalar ones plus [`LANE_WEIGHT`] per
//! whole-tangent one. Coefficients are plain floats, so this, like all of `linear`, only
//! ever runs in first-order batch modes.

use std::collections::{HashMap, HashSet};

use crate::activity::Activity;
use crate::ir::{Function, Inst, Value};
use crate::linear::{lin_operands, root_sets, LinOp, Linear};

/// What one whole-tangent update (`acc + c·ṙ`, `N` lanes) costs, in scalar operations.
/// Batches are usually 8 to 16 lanes wide and go two lanes per instruction: about 4 to 8.
pub const LANE_WEIGHT: usize = 4;

/// The cost of one chain: scalar coefficient operations and whole-tangent operations.
#[derive(Clone, Copy, Debug)]
struct Cost {
    scalar: usize,
    lanes: usize,
}

impl Cost {
    fn total(self) -> usize {
        self.scalar + LANE_WEIGHT * self.lanes
    }

    /// Whether backward (`self`) beats `forward`: it must save whole-tangent operations (the
    /// cuts of the forward plan), the cost that grows with the batch width, and cost less
    /// overall. Where the two plans combine the same tangents (Rosenbrock's one output),
    /// the scalar counts are too close to call and the chain stays forward.
    /// The arms of a linearised `if` combine no tangent (their coefficients are yielded):
    /// there the scalar count decides.
    fn beats(self, forward: Cost) -> bool {
        if self.lanes == 0 && forward.lanes == 0 {
            return self.scalar < forward.scalar;
        }
        self.lanes < forward.lanes && self.total() < forward.total()
    }
}

/// Chooses forward or backward for every chain. `lin` holds the forward plan (after the
/// cost guards); `required` the values that must be materialised whatever the direction
/// (uses outside the chain, terminators, annotations). On return `lin` holds the merged
/// plan, its root sets recomputed, and `lin.backward` the instructions of the chains that
/// are accumulated backwards.
pub fn choose(func: &Function, active: &Activity, lin: &mut Linear, required: HashSet<Value>) {
    let fwd = Plan::of(lin);
    // The backward plan: only what must leave the chain is materialised, and what a write
    // through a `&mut` forces (see `reads_mutated_roots`).
    lin.materialize = required;
    close_over_mutations(func, active, lin);
    let bwd = Plan::of(lin);

    let mut backward: HashSet<Inst> = HashSet::new();
    for chain in chains(func, active, lin) {
        let f = forward_cost(func, active, lin, &chain, &fwd);
        let b = backward_cost(func, active, lin, &chain, &bwd);
        // Through a kink (`sqrt` at 0) the forward coefficients multiply strongly, zero
        // where the operand's is; a backward sweep's adjoints cannot know that (`∞·0`
        // there): such chains stay forward.
        let kinks = chain.iter().any(|i| lin.ops[i].kinks());
        if b.beats(f) && !kinks {
            backward.extend(chain);
        }
    }
    let mut merged: HashSet<Value> = HashSet::new();
    for &inst in lin.ops.keys() {
        let v = func.insts[inst].results[0];
        let plan = if backward.contains(&inst) { &bwd } else { &fwd };
        if plan.materialize.contains(&v) {
            merged.insert(v);
        }
    }
    // Values that are not linearised keep whatever the forward plan said (none are there).
    merged.extend(
        fwd.materialize
            .iter()
            .filter(|v| lin.def(func, **v).is_none()),
    );
    lin.materialize = merged;
    close_over_mutations(func, active, lin);
    lin.backward = backward;
}

/// Root sets for `lin.materialize`, materialising absorbed values with a root a `&mut`
/// may change until none is left.
fn close_over_mutations(func: &Function, active: &Activity, lin: &mut Linear) {
    loop {
        root_sets(func, active, lin);
        let grow = crate::linear::reads_mutated_roots(lin, &lin.mutated);
        if grow.is_empty() {
            break;
        }
        lin.materialize.extend(grow);
    }
}

/// The chains of the current plan: linearised instructions connected through absorbed
/// operands (union-find), each in program order.
fn chains(func: &Function, active: &Activity, lin: &Linear) -> Vec<Vec<Inst>> {
    let order = program_order(func, lin);
    let mut parent: HashMap<Inst, Inst> = HashMap::new();
    fn find(parent: &mut HashMap<Inst, Inst>, i: Inst) -> Inst {
        let mut r = i;
        while let Some(&p) = parent.get(&r).filter(|p| **p != r) {
            r = p;
        }
        parent.insert(i, r);
        r
    }
    for &inst in &order {
        parent.insert(inst, inst);
        for o in lin_operands(func, active, lin, inst) {
            if let Some(d) = lin.def(func, o).filter(|_| lin.expands(func, inst, o)) {
                let (a, b) = (find(&mut parent, inst), find(&mut parent, d));
                parent.insert(a, b);
            }
        }
    }
    let mut groups: HashMap<Inst, Vec<Inst>> = HashMap::new();
    let mut firsts: Vec<Inst> = Vec::new();
    for &inst in &order {
        let r = find(&mut parent, inst);
        let g = groups.entry(r).or_default();
        if g.is_empty() {
            firsts.push(r);
        }
        g.push(inst);
    }
    firsts
        .into_iter()
        .filter_map(|r| groups.remove(&r))
        .collect()
}

/// The linearised instructions in program order (regions in their order, instructions in
/// theirs).
pub fn program_order(func: &Function, lin: &Linear) -> Vec<Inst> {
    func.regions
        .iter()
        .flat_map(|(_, data)| data.insts.iter().copied())
        .filter(|i| lin.ops.contains_key(i))
        .collect()
}

/// One plan's materialised values, root sets and unit coefficients.
struct Plan {
    materialize: HashSet<Value>,
    roots: HashMap<Value, Vec<Value>>,
    units: HashSet<(Value, Value)>,
}

impl Plan {
    fn of(lin: &Linear) -> Plan {
        Plan {
            materialize: lin.materialize.clone(),
            roots: lin.roots.clone(),
            units: lin.units.clone(),
        }
    }

    /// Whole-tangent operations of `m`'s combination (`ṙ` added: 1, `c·ṙ`: 2, the first
    /// term one fewer), as the forward plan's own guard counts them: a value emitted line
    /// by line costs what its rule does (`a·b`: 3, `a - 1`: 0).
    fn combination(&self, m: Value) -> usize {
        let roots = self.roots.get(&m).map(Vec::as_slice).unwrap_or_default();
        roots
            .iter()
            .map(|r| if self.units.contains(&(m, *r)) { 1 } else { 2 })
            .sum::<usize>()
            .saturating_sub(1)
    }
}

/// Whether `inst`'s partials are units (`+`, `-`, negation: carrying or sweeping through
/// it multiplies nothing).
fn sums(lin: &Linear, inst: Inst) -> bool {
    matches!(lin.ops[&inst], LinOp::Add | LinOp::Sub | LinOp::Neg)
}

/// The forward plan's cost for `chain`: each value's coefficients (a multiply per root of
/// each absorbed operand of a product, quotient or function) and each materialised value's
/// combination.
fn forward_cost(
    func: &Function,
    active: &Activity,
    lin: &Linear,
    chain: &[Inst],
    plan: &Plan,
) -> Cost {
    let (mut scalar, mut lanes) = (0, 0);
    for &inst in chain {
        let v = func.insts[inst].results[0];
        if !sums(lin, inst) {
            for o in lin_operands(func, active, lin, inst) {
                if lin.same_region(func, inst, o) && !plan.materialize.contains(&o) {
                    scalar += plan.roots.get(&o).map_or(1, Vec::len);
                }
            }
        }
        if plan.materialize.contains(&v) {
            lanes += plan.combination(v);
        }
    }
    Cost { scalar, lanes }
}

/// The backward plan's cost for `chain`: each output sweeps its cone (a multiply per
/// operand of a product, quotient or function) and combines its roots.
fn backward_cost(
    func: &Function,
    active: &Activity,
    lin: &Linear,
    chain: &[Inst],
    plan: &Plan,
) -> Cost {
    let (mut scalar, mut lanes) = (0, 0);
    for &inst in chain {
        let v = func.insts[inst].results[0];
        if !plan.materialize.contains(&v) && !lin.phi_inputs.contains(&v) {
            continue;
        }
        let mut cone = cone(func, active, lin, inst);
        cone.push(inst);
        scalar += cone
            .iter()
            .filter(|i| !sums(lin, **i))
            .map(|i| lin_operands(func, active, lin, *i).len())
            .sum::<usize>();
        if plan.materialize.contains(&v) {
            lanes += plan.combination(v);
        }
    }
    Cost { scalar, lanes }
}

/// The instructions of the absorbed values `inst`'s value depends on (not `inst` itself),
/// in program order: what a backward sweep from it visits, in reverse.
pub fn cone(func: &Function, active: &Activity, lin: &Linear, inst: Inst) -> Vec<Inst> {
    let mut seen: HashSet<Inst> = HashSet::new();
    let mut stack = vec![inst];
    while let Some(i) = stack.pop() {
        for o in lin_operands(func, active, lin, i) {
            if let Some(d) = lin.def(func, o).filter(|_| lin.expands(func, i, o)) {
                if seen.insert(d) {
                    stack.push(d);
                }
            }
        }
    }
    // Absorbed operands are in the same region as their user, before it.
    let Some(region) = lin.region_of.get(&inst) else {
        return Vec::new();
    };
    func.regions[*region]
        .insts
        .iter()
        .copied()
        .filter(|i| seen.contains(i))
        .collect()
}
