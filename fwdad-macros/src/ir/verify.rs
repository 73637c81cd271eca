//! The IR invariant checker, run after every pass in debug builds and in tests.
//!
//! Checks: each value is defined once, at the place its `ValueDef` says; each use is
//! dominated by its definition (earlier in the region, or in an enclosing one); each
//! instruction appears in at most one region (none: removed as dead); every call's callee
//! is resolved; `Break`/`Continue` are inside enough loops;
//! the number of values a region yields matches its parent.

use super::{Function, InstKind, Region, Terminator, Value, ValueDef};
use crate::callee::{MethodCallee, PathCallee};
use crate::ir::entity::EntityRef;
use std::collections::HashSet;

/// Checks `func`'s invariants; the error names the first violation.
pub fn verify(func: &Function) -> Result<(), String> {
    let mut v = Verifier {
        func,
        defined: HashSet::new(),
        placed: HashSet::new(),
    };
    for (i, p) in func.params.iter().enumerate() {
        v.define(p.value, ValueDef::Param(i))?;
    }
    v.region(func.body, &mut Vec::new(), 0)?;
    // Instructions in no region are dead (removed by `normalize`); their results cannot be
    // used, since a use would not be dominated by a definition.
    Ok(())
}

struct Verifier<'f> {
    func: &'f Function,
    defined: HashSet<Value>,
    placed: HashSet<usize>,
}

impl Verifier<'_> {
    fn define(&mut self, value: Value, def: ValueDef) -> Result<(), String> {
        if !self.func.values.contains(value) {
            return Err(format!("{value} is not allocated"));
        }
        if self.func.values[value].def != def {
            return Err(format!(
                "{value} is defined at {def:?} but records {:?}",
                self.func.values[value].def
            ));
        }
        if !self.defined.insert(value) {
            return Err(format!("{value} is defined twice"));
        }
        Ok(())
    }

    fn used(&self, scope: &[Value], value: Value, at: &str) -> Result<(), String> {
        if scope.contains(&value) || self.func.params.iter().any(|p| p.value == value) {
            Ok(())
        } else {
            Err(format!(
                "{value} is used in {at} where its definition does not dominate"
            ))
        }
    }

    /// `scope`: the values visible here; `loops`: how many loops enclose this region.
    fn region(
        &mut self,
        region: Region,
        scope: &mut Vec<Value>,
        loops: usize,
    ) -> Result<(), String> {
        let mark = scope.len();
        let data = &self.func.regions[region];
        for (i, &p) in data.params.iter().enumerate() {
            self.define(p, ValueDef::RegionParam(region, i))?;
            scope.push(p);
        }
        for &inst in &data.insts {
            if !self.placed.insert(inst.index()) {
                return Err(format!("{inst} appears in two places"));
            }
            for op in self.func.operands(inst) {
                self.used(scope, op, &inst.to_string())?;
            }
            match &self.func.insts[inst].kind {
                InstKind::MethodCall {
                    callee: MethodCallee::Unresolved,
                    ..
                }
                | InstKind::Call {
                    callee: PathCallee::Unresolved,
                    ..
                } => return Err(format!("{inst}: the callee was not resolved")),
                _ => {}
            }
            let inner_loops = match &self.func.insts[inst].kind {
                InstKind::Loop { init, body } => {
                    if init.len() != self.func.regions[*body].params.len() {
                        return Err(format!(
                            "{inst}: {} inits for {} loop parameters",
                            init.len(),
                            self.func.regions[*body].params.len()
                        ));
                    }
                    loops + 1
                }
                InstKind::For { init, body, .. } => {
                    if init.len() + 1 != self.func.regions[*body].params.len() {
                        return Err(format!(
                            "{inst}: {} inits for {} loop parameters",
                            init.len(),
                            self.func.regions[*body].params.len()
                        ));
                    }
                    loops + 1
                }
                _ => loops,
            };
            for r in self.func.inst_regions(inst) {
                self.region(r, scope, inner_loops)?;
            }
            self.yield_counts(inst)?;
            for (i, &res) in self.func.insts[inst].results.iter().enumerate() {
                self.define(res, ValueDef::Inst(inst, i))?;
                scope.push(res);
            }
        }
        for op in self.func.term_operands(region) {
            self.used(scope, op, &format!("the terminator of {region}"))?;
        }
        match &data.term {
            Terminator::Break { depth, .. } | Terminator::Continue { depth, .. }
                if *depth >= loops =>
            {
                return Err(format!(
                    "{region} breaks out of {} loops but is inside {loops}",
                    depth + 1
                ));
            }
            Terminator::Yield(_)
            | Terminator::Return(_)
            | Terminator::Break { .. }
            | Terminator::Continue { .. }
            | Terminator::Unreachable => {}
        }
        scope.truncate(mark);
        Ok(())
    }

    /// Each region of `inst` that hands values back to it yields as many as it takes: an
    /// `If`'s branches and a `match`'s arms one per result (a guard one `bool`), a loop
    /// body one per loop parameter (a `for` body's first parameter is the element).
    fn yield_counts(&self, inst: super::Inst) -> Result<(), String> {
        let data = &self.func.insts[inst];
        let expect: Vec<(Region, usize)> = match &data.kind {
            InstKind::If {
                then_region,
                else_region,
                ..
            } => vec![
                (*then_region, data.results.len()),
                (*else_region, data.results.len()),
            ],
            InstKind::Match { arms, .. } => arms
                .iter()
                .flat_map(|a| {
                    a.guard
                        .map(|g| (g, 1))
                        .into_iter()
                        .chain([(a.body, data.results.len())])
                })
                .collect(),
            InstKind::Loop { body, .. } => {
                vec![(*body, self.func.regions[*body].params.len())]
            }
            InstKind::For { body, .. } => {
                let carried = self.func.regions[*body].params.len().saturating_sub(1);
                vec![(*body, carried)]
            }
            _ => vec![],
        };
        for (r, n) in expect {
            if let Terminator::Yield(vs) = &self.func.regions[r].term {
                if vs.len() != n {
                    return Err(format!(
                        "{r} yields {} values to {inst}, which takes {n}",
                        vs.len()
                    ));
                }
            }
        }
        Ok(())
    }
}
