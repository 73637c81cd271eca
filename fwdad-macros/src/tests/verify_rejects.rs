//! `ir::verify` on hand-built functions: each test breaks one invariant and checks that
//! the verifier names it. The builder below allocates values with the definitions their
//! positions imply, so a test breaks exactly what it means to.

use crate::ir::entity::{EntityRef, EntityVec};
use crate::ir::{
    verify, BinOp, Function, Inst, InstData, InstKind, Param, Region, RegionData, Terminator,
    Value, ValueDef,
};
use crate::types::TypeHint;
use proc_macro2::Span;

/// `fn f() -> f64` with an empty body ending in `yield`.
fn empty() -> Function {
    let mut func = Function {
        name: quote::format_ident!("f"),
        params: vec![],
        ret: syn::parse_quote!(f64),
        values: EntityVec::new(),
        insts: EntityVec::new(),
        regions: EntityVec::new(),
        body: Region::new(0),
        items: vec![],
        annotations: Default::default(),
        closures: Default::default(),
        fn_sources: Default::default(),
        type_params: false,
        float_params: Vec::new(),
        bound_receivers: Default::default(),
        qualified_self: Default::default(),
        box_dyn: Default::default(),
    };
    func.body = new_region(&mut func, 0);
    func
}

/// A parameter of type `f64`.
fn param(func: &mut Function) -> Value {
    let index = func.params.len();
    let value = func.new_value(ValueDef::Param(index), TypeHint::Float);
    func.params.push(Param {
        value,
        ty: syn::parse_quote!(f64),
        span: proc_macro2::Span::call_site(),
        inactive: false,
    });
    value
}

/// A region with `n` parameters, ending in `yield` (its parameters are allocated).
fn new_region(func: &mut Function, n: usize) -> Region {
    let r = func.regions.push(RegionData {
        params: vec![],
        insts: vec![],
        term: Terminator::Yield(vec![]),
    });
    let params = (0..n)
        .map(|i| func.new_value(ValueDef::RegionParam(r, i), TypeHint::Float))
        .collect();
    func.regions[r].params = params;
    r
}

/// Allocates an instruction with `n` results, not yet placed in a region.
fn make(func: &mut Function, kind: InstKind, n: usize) -> (Inst, Vec<Value>) {
    let inst = func.insts.push(InstData {
        kind,
        results: vec![],
        span: Span::call_site(),
    });
    let results: Vec<Value> = (0..n)
        .map(|i| func.new_value(ValueDef::Inst(inst, i), TypeHint::Float))
        .collect();
    func.insts[inst].results = results.clone();
    (inst, results)
}

/// Appends an instruction with `n` results to `region`.
fn push(func: &mut Function, region: Region, kind: InstKind, n: usize) -> (Inst, Vec<Value>) {
    let (inst, results) = make(func, kind, n);
    func.regions[region].insts.push(inst);
    (inst, results)
}

fn lit(func: &mut Function, region: Region) -> Value {
    push(func, region, InstKind::Lit(syn::parse_quote!(2.0)), 1).1[0]
}

fn mul(lhs: Value, rhs: Value) -> InstKind {
    InstKind::Binary {
        op: BinOp::Mul,
        lhs,
        rhs,
    }
}

fn term(func: &mut Function, region: Region, t: Terminator) {
    func.regions[region].term = t;
}

/// The verifier's error, which must mention every one of `words`.
#[track_caller]
fn assert_rejected(func: &Function, words: &[&str]) {
    match verify(func) {
        Ok(()) => panic!(
            "the verifier accepted invalid IR:\n{}",
            crate::ir::display_fn(func, &|_, _| String::new())
        ),
        Err(e) => {
            for w in words {
                assert!(e.contains(w), "error {e:?} does not mention {w:?}");
            }
        }
    }
}

#[test]
fn accepts_well_formed_straight_line() {
    // fn f(v0) { v1 = lit 2.0; v2 = mul v0, v1; return v2 }
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let two = lit(&mut f, body);
    let (_, y) = push(&mut f, body, mul(x, two), 1);
    term(&mut f, body, Terminator::Return(y[0]));
    assert_eq!(verify(&f), Ok(()));
}

#[test]
fn accepts_well_formed_if_and_loop() {
    // v1 = lit; v3 = if v1 { v2 = mul v0, v0; yield v2 } else { yield v0 }
    // v5, v6 = loop (v4) = (v3) { break.0 v4, v4 }
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let c = lit(&mut f, body);
    let (then_r, else_r) = (new_region(&mut f, 0), new_region(&mut f, 0));
    let (_, sq) = push(&mut f, then_r, mul(x, x), 1);
    term(&mut f, then_r, Terminator::Yield(sq.clone()));
    term(&mut f, else_r, Terminator::Yield(vec![x]));
    let if_kind = InstKind::If {
        cond: c,
        then_region: then_r,
        else_region: else_r,
    };
    let (_, merged) = push(&mut f, body, if_kind, 1);
    let loop_body = new_region(&mut f, 1);
    let p = f.regions[loop_body].params[0];
    term(
        &mut f,
        loop_body,
        Terminator::Break {
            depth: 0,
            values: vec![p, p],
        },
    );
    let loop_kind = InstKind::Loop {
        init: merged,
        body: loop_body,
    };
    let (_, out) = push(&mut f, body, loop_kind, 2);
    term(&mut f, body, Terminator::Return(out[0]));
    assert_eq!(verify(&f), Ok(()));
}

#[test]
fn rejects_use_before_definition() {
    // v2 = mul v0, v3; v3 = lit 2.0
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let (early, _) = make(&mut f, mul(x, x), 1);
    let later = lit(&mut f, body);
    f.insts[early].kind = mul(x, later);
    f.regions[body].insts.insert(0, early);
    assert_rejected(&f, &[&later.to_string(), "does not dominate"]);
}

#[test]
fn rejects_use_of_an_undefined_value() {
    // v1 = mul v0, v7 where v7 was never allocated
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let ghost = Value::new(7);
    push(&mut f, body, mul(x, ghost), 1);
    assert_rejected(&f, &["v7", "does not dominate"]);
}

#[test]
fn rejects_a_value_defined_twice() {
    // Two loops share one body region, so its parameter is defined twice.
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let shared = new_region(&mut f, 1);
    let p = f.regions[shared].params[0];
    term(
        &mut f,
        shared,
        Terminator::Break {
            depth: 0,
            values: vec![p],
        },
    );
    for _ in 0..2 {
        let kind = InstKind::Loop {
            init: vec![x],
            body: shared,
        };
        push(&mut f, body, kind, 1);
    }
    assert_rejected(&f, &[&p.to_string(), "defined twice"]);
}

#[test]
fn rejects_a_value_listed_as_two_results() {
    // v1 = lit; v1 = lit  (the second instruction claims the first one's result)
    let mut f = empty();
    param(&mut f);
    let body = f.body;
    let first = lit(&mut f, body);
    let (second, _) = push(&mut f, body, InstKind::Lit(syn::parse_quote!(1.0)), 1);
    f.insts[second].results = vec![first];
    assert_rejected(&f, &[&first.to_string(), "defined at"]);
}

#[test]
fn rejects_a_definition_that_disagrees_with_its_record() {
    // v1 records `Param(0)` but is the result of an instruction.
    let mut f = empty();
    param(&mut f);
    let body = f.body;
    let v = lit(&mut f, body);
    f.values[v].def = ValueDef::Param(0);
    assert_rejected(&f, &[&v.to_string(), "records"]);
}

#[test]
fn rejects_an_unallocated_result() {
    let mut f = empty();
    param(&mut f);
    let body = f.body;
    let (inst, _) = push(&mut f, body, InstKind::Lit(syn::parse_quote!(1.0)), 1);
    f.insts[inst].results = vec![Value::new(99)];
    assert_rejected(&f, &["v99", "not allocated"]);
}

#[test]
fn rejects_a_value_used_outside_its_region() {
    // v3 = if v1 { v2 = mul v0, v0; yield v2 } else { yield v0 }; return v2
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let c = lit(&mut f, body);
    let (then_r, else_r) = (new_region(&mut f, 0), new_region(&mut f, 0));
    let (_, inner) = push(&mut f, then_r, mul(x, x), 1);
    term(&mut f, then_r, Terminator::Yield(inner.clone()));
    term(&mut f, else_r, Terminator::Yield(vec![x]));
    let kind = InstKind::If {
        cond: c,
        then_region: then_r,
        else_region: else_r,
    };
    push(&mut f, body, kind, 1);
    term(&mut f, body, Terminator::Return(inner[0]));
    assert_rejected(&f, &[&inner[0].to_string(), "terminator"]);
}

#[test]
fn rejects_a_loop_parameter_used_after_the_loop() {
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let lb = new_region(&mut f, 1);
    let p = f.regions[lb].params[0];
    term(
        &mut f,
        lb,
        Terminator::Break {
            depth: 0,
            values: vec![p],
        },
    );
    let kind = InstKind::Loop {
        init: vec![x],
        body: lb,
    };
    push(&mut f, body, kind, 1);
    push(&mut f, body, mul(p, x), 1);
    assert_rejected(&f, &[&p.to_string(), "does not dominate"]);
}

#[test]
fn rejects_break_outside_a_loop() {
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    term(
        &mut f,
        body,
        Terminator::Break {
            depth: 0,
            values: vec![x],
        },
    );
    assert_rejected(&f, &["breaks out of 1 loops", "inside 0"]);
}

#[test]
fn rejects_continue_past_the_outermost_loop() {
    // loop { continue.1 }: only one loop encloses the body.
    let mut f = empty();
    param(&mut f);
    let body = f.body;
    let lb = new_region(&mut f, 0);
    term(
        &mut f,
        lb,
        Terminator::Continue {
            depth: 1,
            values: vec![],
        },
    );
    let kind = InstKind::Loop {
        init: vec![],
        body: lb,
    };
    push(&mut f, body, kind, 1);
    assert_rejected(&f, &["breaks out of 2 loops", "inside 1"]);
}

/// An instruction in no region is dead (`normalize` removes dead code by unplacing it):
/// allowed, but its results must not be used anywhere.
#[test]
fn accepts_an_unplaced_instruction_but_not_a_use_of_it() {
    let mut f = empty();
    let x = param(&mut f);
    let (_, ys) = make(&mut f, mul(x, x), 1);
    assert!(verify(&f).is_ok());
    let body = f.body;
    f.regions[body].term = Terminator::Return(ys[0]);
    assert_rejected(&f, &[&ys[0].to_string(), "does not dominate"]);
}

#[test]
fn rejects_an_instruction_in_two_places() {
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let (inst, _) = push(&mut f, body, mul(x, x), 1);
    f.regions[body].insts.push(inst);
    assert_rejected(&f, &[&inst.to_string(), "two places"]);
}

#[test]
fn rejects_loop_init_arity_mismatch() {
    // loop (v2) = (v0, v0) { .. }
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let lb = new_region(&mut f, 1);
    let kind = InstKind::Loop {
        init: vec![x, x],
        body: lb,
    };
    push(&mut f, body, kind, 1);
    assert_rejected(&f, &["2 inits for 1 loop parameters"]);
}

#[test]
fn rejects_for_without_an_element_parameter() {
    // for () in v1 with (v0): the body needs the element, then one carried value.
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let iter = lit(&mut f, body);
    let lb = new_region(&mut f, 1);
    let kind = InstKind::For {
        iter,
        init: vec![x],
        body: lb,
    };
    push(&mut f, body, kind, 1);
    assert_rejected(&f, &["1 inits for 1 loop parameters"]);
}

/// The module doc of `ir::verify` promises that "the number of values a region yields
/// matches its parent"; the checker does not look at it yet.
#[test]
fn rejects_if_branches_yielding_the_wrong_number_of_values() {
    let mut f = empty();
    let x = param(&mut f);
    let body = f.body;
    let c = lit(&mut f, body);
    let (then_r, else_r) = (new_region(&mut f, 0), new_region(&mut f, 0));
    term(&mut f, then_r, Terminator::Yield(vec![x, x]));
    term(&mut f, else_r, Terminator::Yield(vec![x]));
    let kind = InstKind::If {
        cond: c,
        then_region: then_r,
        else_region: else_r,
    };
    push(&mut f, body, kind, 1);
    assert_rejected(&f, &["yield"]);
}
