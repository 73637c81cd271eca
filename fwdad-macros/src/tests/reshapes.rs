//! `ir::Function::reshapes`: whether a loop may change a local's storage in place, which
//! decides whether a promoted constant's zero-tangent cell is made fresh in each iteration
//! (`emit`, design.md §1). Too few hits let a cell outlive its referent's shape (an
//! out-of-bounds tangent after `push`); too many put a carried reference's cell inside the
//! loop (E0716).

use crate::diag::Diagnostics;
use crate::ir::InstKind;
use crate::lower;

/// Whether the first top-level loop of `item` reshapes the local named `name`.
fn loop_reshapes(src: &str, name: &str) -> bool {
    let item: syn::ItemFn = syn::parse_str(src).expect("a function");
    let mut diag = Diagnostics::new();
    let func = lower::lower_fn(&item, &quote::quote!(::fwdad::__private), &mut diag);
    if let Err(e) = diag.finish() {
        panic!("{src}: lowering reported {e}");
    }
    let body = func.regions[func.body]
        .insts
        .iter()
        .find_map(|&i| match &func.insts[i].kind {
            InstKind::Loop { body, .. } | InstKind::For { body, .. } => Some(*body),
            _ => None,
        })
        .expect("a loop at the top level");
    let root = func
        .values
        .iter()
        .find(|(_, v)| v.name.as_ref().is_some_and(|n| n == name))
        .map(|(v, _)| func.place_root(v))
        .expect("a value with that name");
    func.reshapes(body, root)
}

#[test]
fn writes_borrows_and_growing_methods_reshape() {
    let cases = [
        "fn f(x: f64) -> f64 { let mut c = vec![x]; for _ in 0..3 { c.push(x); } c[0] }",
        "fn f(x: f64) -> f64 { let mut c = vec![0.0; 3]; for i in 0..3 { c[i] = x; } c[0] }",
        "fn f(x: f64) -> f64 { let mut c = vec![0.0; 3]; for _ in 0..3 { fill(&mut c, x); } c[0] }",
        "fn f(x: f64) -> f64 { let mut c = vec![0.0; 3]; for i in 0..3 { let r = &mut c[i..]; r[0] = x; } c[0] }",
        "fn f(x: f64) -> f64 { let mut c = vec![0.0; 3]; for i in 0..3 { if x > 0.0 { c.truncate(i); } } x }",
        "fn f(x: f64) -> f64 { let mut c = vec![0.0; 3]; let mut i = 0; while i < 3 { c.resize(i, x); i += 1; } x }",
    ];
    for item in cases {
        assert!(loop_reshapes(item, "c"), "{item}");
    }
}

#[test]
fn reads_elements_and_other_buffers_do_not() {
    let cases = [
        "fn f(x: f64) -> f64 { let c = vec![x; 3]; let mut s = 0.0; for i in 0..c.len() { s += c[i]; } s }",
        "fn f(x: f64) -> f64 { let c = vec![x; 3]; let mut s = 0.0; for i in 0..3 { s += c[i].abs(); } s }",
        "fn f(x: f64) -> f64 { let c = vec![x; 3]; let mut s = 0.0; for _ in 0..3 { s += c.iter().sum::<f64>(); } s }",
        "fn f(x: f64) -> f64 { let c = vec![x; 3]; let mut s = 0.0; for _ in 0..3 { if c.contains(&x) { s += x; } } s }",
        "fn f(x: f64) -> f64 { let c = vec![x; 3]; let mut s = 0.0; for i in 1..3 { let w = &c[i - 1..=i]; s += w[0]; } s }",
        "fn f(x: f64) -> f64 { let c = vec![x; 3]; let mut d = vec![0.0; 3]; for i in 0..3 { d[i] = c[i]; } d[0] }",
        "fn f(x: f64) -> f64 { let mut c = vec![x; 3]; c.push(x); for i in 0..3 { let _ = c.len() + i; } c[0] }",
    ];
    for item in cases {
        assert!(!loop_reshapes(item, "c"), "{item}");
    }
}
