//! `normalize`: removes instructions whose results are never used and that have no
//! effect: the `()` of every statement, literals and copies nobody reads.
//!
//! Input and output: valid IR (see [`crate::ir::verify`]). Only pure kinds are removed
//! (literals, constants, tuples, arrays, copies, ranges, references, fields, and float or
//! boolean arithmetic); calls, method calls, indexing, stores and control flow stay, since
//! they may panic or write, as in the primal.
//!
//! Before:
//! ```text
//! v16 = tuple () : nondiff
//! v17 = tuple () : nondiff
//! yield v17, v15
//! ```
//! After:
//! ```text
//! v17 = tuple () : nondiff
//! yield v17, v15
//! ```

use crate::ir::{Function, Inst, InstKind, Region};
use crate::types::TypeHint;
use std::collections::HashSet;

/// Removes dead pure instructions until none is left.
pub fn remove_dead(func: &mut Function) {
    loop {
        let used = used_values(func);
        let mut removed = false;
        let regions: Vec<Region> = func.regions.iter().map(|(r, _)| r).collect();
        for r in regions {
            let keep: Vec<Inst> = func.regions[r]
                .insts
                .iter()
                .copied()
                .filter(|&i| {
                    !(is_pure(func, i) && func.insts[i].results.iter().all(|v| !used.contains(v)))
                })
                .collect();
            if keep.len() != func.regions[r].insts.len() {
                removed = true;
                func.regions[r].insts = keep;
            }
        }
        if !removed {
            break;
        }
    }
}

/// Every value read by a placed instruction or a terminator.
fn used_values(func: &Function) -> HashSet<crate::ir::Value> {
    let mut used = HashSet::new();
    for (r, data) in func.regions.iter() {
        for &i in &data.insts {
            used.extend(func.operands(i));
        }
        used.extend(func.term_operands(r));
    }
    used
}

fn is_pure(func: &Function, inst: Inst) -> bool {
    let data = &func.insts[inst];
    let float_or_bool = data.results.first().is_some_and(|v| {
        matches!(
            func.values[*v].ty,
            TypeHint::Float | TypeHint::Bool | TypeHint::NonDiff
        )
    });
    match &data.kind {
        InstKind::Copy(_)
        | InstKind::Lit(_)
        | InstKind::Const(_)
        | InstKind::Tuple(_)
        | InstKind::Array(_)
        | InstKind::Repeat { .. }
        | InstKind::Range { .. }
        | InstKind::Ref { .. }
        | InstKind::Field { .. }
        | InstKind::FieldRef { .. }
        | InstKind::Struct { .. } => true,
        InstKind::Binary { .. } | InstKind::Unary { .. } | InstKind::Cast { .. } => float_or_bool,
        InstKind::VecList(_)
        | InstKind::VecRepeat { .. }
        | InstKind::Index { .. }
        | InstKind::ElemRef { .. }
        | InstKind::Slice { .. }
        | InstKind::MethodCall { .. }
        | InstKind::Call { .. }
        | InstKind::Print { .. }
        | InstKind::Opaque { .. }
        | InstKind::Store { .. }
        | InstKind::If { .. }
        | InstKind::Match { .. }
        | InstKind::Loop { .. }
        | InstKind::For { .. }
        | InstKind::Poison => false,
    }
}
