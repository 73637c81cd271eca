//! The Jacobian entry of a rule (`Frule::chain_jacobian`): for a body that is one
//! linearised chain, its outputs' coefficients written as Jacobian entries.
//!
//! A linearised chain assembles each output's tangent as `Σ_r c_r·ṙ` (`crate::linear`,
//! `crate::preacc`). A Jacobian driver seeds the inputs with unit columns, so that sum is
//! `c_r` in lane `col(r)`: one whole-tangent multiply-add per root (2 × 16 of 15 lanes for
//! bundle adjustment's residual) to place a number the chain already has. The entry emits
//! the same body with each output's combination replaced by writes of its coefficients
//! to the columns its roots are elements of, and reads no tangent.
//!
//! [`plan`] decides whether a function has the entry and where every coefficient goes:
//! * *a chain*: the returned floats (a float, or an array or tuple of them built for the
//!   return) are values the batch linearisation materialises, and every root of a
//!   materialised value is a float parameter, an element of one (`x[i]`, through
//!   sub-slices `&x[a..]`), or another materialised value, whose coefficients the entry
//!   multiplies through (`∂out/∂r = Σ_m ∂out/∂m · ∂m/∂r`). Nothing else matters: the
//!   entry runs the linearised body as the rule does (the compiler drops the tangents no
//!   one reads), and a returned float's coefficients are its derivatives with respect to
//!   its roots, whose seeds would be the unit columns;
//! * *a forwarding body*: no chain of its own, and it returns the result of a call of
//!   another rule whose active arguments are its parameters, sub-slices and elements of
//!   them (`ba(&p[0..11], &p[11..14], p[14], fx, fy)`): its entry is the callee's, with
//!   the arguments' columns shifted (`ChainJacobianOf`, called through `call`), available when the callee's
//!   is.
//!
//! Anything else (a returned float computed by a loop, a call, a non-smooth operation, an
//! early `return`) has no entry, and the drivers run seeded passes.

use std::collections::HashMap;

use crate::activity::Activity;
use crate::callee::PathCallee;
use crate::dual::{DualPlan, Form};
use crate::ir::{Function, Inst, InstKind, Region, Terminator, Value, ValueDef};
use crate::linear::Linear;

/// Where an element's coefficient goes: column `cols[param] + Σ offsets` (the offsets are
/// integer values of the body: sub-slice starts and the index).
#[derive(Clone, Debug)]
pub struct Col {
    pub param: usize,
    pub offsets: Vec<Value>,
}

/// The Jacobian entry of a function.
#[derive(Clone, Debug)]
pub struct JacPlan {
    /// The number of output reals (rows).
    pub nrows: usize,
    /// The rows of each returned chain value.
    pub rows: HashMap<Value, Vec<usize>>,
    /// The `array`/`tuple` instruction of the returned floats (not emitted by the entry).
    pub output: Option<Inst>,
    /// The column of every root of the returned values.
    pub cols: HashMap<Value, Col>,
    /// A forwarding body: the call, and its arguments' columns (`None`: a constant).
    pub call: Option<(Inst, Vec<Option<Col>>)>,
}

/// The Jacobian entry of `func`, if it has one (see the module docs). `float_params`: per
/// parameter, whether it is an `f64`, `&[f64]`, `&[f64; N]` or `[f64; N]` taken by the
/// rule with a generic element tangent (the shapes whose elements are columns).
pub fn plan(
    func: &Function,
    active: &Activity,
    plans: &DualPlan,
    lin: Option<&Linear>,
    float_params: &[bool],
) -> Option<JacPlan> {
    if func.type_params {
        return None;
    }
    // Every active parameter is a float of a plain shape (no `&mut`, no struct).
    for (i, p) in func.params.iter().enumerate() {
        if *active.get(p.value) && !float_params.get(i).copied().unwrap_or(false) {
            return None;
        }
    }
    let ret = match &func.regions[func.body].term {
        Terminator::Return(v) => *v,
        Terminator::Yield(vs) if vs.len() == 1 => vs[0],
        _ => return None,
    };
    let uses = use_counts(func);
    // The returned floats: the elements of an array or tuple built for the return, or the
    // value itself.
    let (output, outs) = match func.values[ret].def {
        ValueDef::Inst(i, 0)
            if uses.get(&ret).copied().unwrap_or(0) == 1
                && matches!(plans.get(i).form, Form::Array | Form::Tuple) =>
        {
            match &func.insts[i].kind {
                InstKind::Array(elems) | InstKind::Tuple(elems) => (Some(i), elems.clone()),
                _ => return None,
            }
        }
        _ => (None, vec![ret]),
    };
    // A forwarding body: one call of a rule, returned.
    if let ValueDef::Inst(call, 0) = func.values[ret].def {
        if is_rule_call(func, plans, call) {
            let ok = lin.is_none_or(|l| l.ops.is_empty())
                && returns_once(func, func.body)
                && !func.annotations.contains_key(&ret);
            if !ok {
                return None;
            }
            let mut args = Vec::new();
            for a in func.operands(call) {
                if *active.get(a) {
                    args.push(Some(source(func, plans, a)?));
                } else {
                    args.push(None);
                }
            }
            return Some(JacPlan {
                nrows: 0,
                rows: HashMap::new(),
                output: None,
                cols: HashMap::new(),
                call: Some((call, args)),
            });
        }
    }
    let lin = lin?;
    let mut rows: HashMap<Value, Vec<usize>> = HashMap::new();
    for (k, &v) in outs.iter().enumerate() {
        if lin.def(func, v).is_none() || !lin.materialize.contains(&v) {
            return None;
        }
        rows.entry(v).or_default().push(k);
    }
    if !returns_once(func, func.body) {
        return None;
    }
    // Every root of a value the chain materialises is another such value (whose
    // coefficients the entry composes) or an element of a parameter.
    let mut cols = HashMap::new();
    for v in &lin.materialize {
        if lin.def(func, *v).is_none() {
            continue;
        }
        for &r in lin.roots.get(v).map(Vec::as_slice).unwrap_or_default() {
            if lin.def(func, r).is_none() || !lin.materialize.contains(&r) {
                cols.insert(r, source(func, plans, r)?);
            }
        }
    }
    Some(JacPlan {
        nrows: outs.len(),
        rows,
        output,
        cols,
        call: None,
    })
}

/// Whether `inst` calls a derived or primitive function through its marker
/// (`rt::call(&g {}, ..)`).
fn is_rule_call(func: &Function, plans: &DualPlan, inst: Inst) -> bool {
    matches!(
        &func.insts[inst].kind,
        InstKind::Call { callee, .. }
            if !matches!(callee, PathCallee::UserOp(_) | PathCallee::FnValue | PathCallee::Closure)
    ) && matches!(plans.get(inst).form, Form::Frule)
        && func.inst_regions(inst).is_empty()
}

/// Whether no region nested in `region` returns (the entry's value is a `bool`, written
/// once, at the end of the body).
fn returns_once(func: &Function, region: Region) -> bool {
    func.regions[region].insts.iter().all(|&i| {
        func.inst_regions(i).into_iter().all(|r| {
            !matches!(func.regions[r].term, Terminator::Return(_)) && returns_once(func, r)
        })
    })
}

/// The column of active value `v`: a float parameter, an element of one, through
/// sub-slices and copies.
fn source(func: &Function, plans: &DualPlan, v: Value) -> Option<Col> {
    match func.values[v].def {
        ValueDef::Param(i) => Some(Col {
            param: i,
            offsets: Vec::new(),
        }),
        ValueDef::Inst(i, 0) => match func.insts[i].kind {
            InstKind::Index { base, index } if matches!(plans.get(i).form, Form::Index) => {
                let mut c = source(func, plans, base)?;
                c.offsets.push(index);
                Some(c)
            }
            InstKind::Slice {
                base,
                range,
                mutable: false,
            } if matches!(plans.get(i).form, Form::Slice) => {
                let mut c = source(func, plans, base)?;
                let ValueDef::Inst(r, 0) = func.values[range].def else {
                    return None;
                };
                let InstKind::Range { start, .. } = func.insts[r].kind else {
                    return None;
                };
                c.offsets.extend(start);
                Some(c)
            }
            InstKind::Copy(x) => source(func, plans, x),
            _ => None,
        },
        _ => None,
    }
}

/// How many times each value is used (operands and terminators).
fn use_counts(func: &Function) -> HashMap<Value, usize> {
    let mut uses: HashMap<Value, usize> = HashMap::new();
    for (_, region) in func.regions.iter() {
        for &i in &region.insts {
            for o in func.operands(i) {
                *uses.entry(o).or_default() += 1;
            }
        }
    }
    for (r, _) in func.regions.iter() {
        for o in func.term_operands(r) {
            *uses.entry(o).or_default() += 1;
        }
    }
    uses
}
