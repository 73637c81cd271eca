//! `#[derive(Differentiable)]` structs as parameters of `#[derive_frule]` functions.

use fwdad::prelude::*;

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub k: f64,
    pub n: usize,
}

#[derive_frule]
fn f(p: &Params, x: f64) -> f64 {
    p.k * x * x
}

#[test]
fn derived_rule_reads_struct_fields() {
    let p = Params { k: 2.0, n: 3 };
    let x = 1.5;
    // d/dk and d/dx.
    let dk = f_frule(
        Dual::new(
            &p,
            &ParamsTangent {
                k: 1.0,
                n: NoTangent,
            },
        ),
        Dual::new(x, 0.0),
    );
    assert_eq!(dk.primal, f(&p, x));
    assert_eq!(dk.tangent, x * x);
    let dp = Dual::constant(p).tangent;
    let dx = f_frule(Dual::new(&p, &dp), Dual::new(x, 1.0));
    assert_eq!(dx.tangent, 2.0 * p.k * x);
    // Both at once, batched.
    let db = ParamsTangent {
        k: Batch([1.0, 0.0]),
        n: NoTangent,
    };
    let b = <f as Frule<_, Batch<f64, 2>>>::frule(
        &f {},
        (Dual::new(&p, &db), Dual::new(x, Batch([0.0, 1.0]))),
    );
    assert_eq!(b.tangent.0, [dk.tangent, dx.tangent]);
}

/// The same rule through `test_frule`.
#[test]
fn derived_rule_passes_test_frule() {
    use fwdad::testing::{test_frule, test_frule_batched};
    let args = (Params { k: 2.0, n: 3 }, 1.5);
    test_frule(
        args,
        |a| f(&a.0, a.1),
        |a, da| f_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| f(&a.0, a.1),
        |a, da| {
            <f as Frule<_, Batch<f64, 4>>>::frule(
                &f {},
                (Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
            )
        },
    );
}
