//! Shared helpers of the rule-family tests (`rules_*.rs`): deterministic input points from a
//! domain, and table macros that check a rule with `test_frule` in every configuration.
//!
//! Each table line names a test, the domain of each input (Mooncake's `rand_inputs`: `ln`
//! gets positive inputs, `asin` `|x| < 1`, ...), the plain expression, and the rule forms to
//! check against it. Every line becomes one `#[test]` that, for a few points drawn from the
//! domains, runs [`test_frule`] for `f32` and `f64` and [`test_frule_batched`] with
//! [`W`] lanes for both, on every requested activity pattern of the operands (active duals,
//! or inactive constants captured by the closures).
//!
//! The plain expression is the reference: the rules are never consulted to build expected
//! values.

#![allow(dead_code, unused_macros)] // each test crate uses a subset

use rand::{Rng, SeedableRng};

/// The batch width of batched checks.
pub const W: usize = 4;

/// Points checked per rule and activity pattern.
pub const POINTS: usize = 3;

/// Deterministic points drawn uniformly from the open interval `(lo, hi)`, different for
/// each `salt` (the test's name), so that the rules of a table are not all checked at the
/// same inputs.
pub fn points((lo, hi): (f64, f64), salt: &str) -> Vec<f64> {
    // FNV-1a of the salt: stable across runs and platforms.
    let seed = salt.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..POINTS)
        .map(|_| lo + (hi - lo) * rng.random_range(0.02..0.98))
        .collect()
}

/// Runs `test_frule` and `test_frule_batched::<W>` for one activity pattern.
///
/// `$args` is the owned state (the active inputs); `$bind_p` rebuilds every operand from it
/// as a plain float (`$t: &mut Args`), `$bind_d` as a dual (`$dt`: the tangents) or an
/// inactive constant. `$rule` is checked against `$primal`.
macro_rules! run_form {
    (
        $args:expr;
        |$t:ident| $bind_p:expr;
        |$dt:ident| $bind_d:expr;
        ($($v:ident),+) => $primal:expr;
        $rule:expr
    ) => {
        ::fwdad_runtime::testing::test_frule(
            $args,
            |$t| {
                let ($($v,)+) = $bind_p;
                $primal
            },
            |$t, $dt| {
                let ($($v,)+) = $bind_d;
                $rule
            },
        );
        ::fwdad_runtime::testing::test_frule_batched::<{ $crate::common::W }, _, _>(
            $args,
            |$t| {
                let ($($v,)+) = $bind_p;
                $primal
            },
            |$t, $dt| {
                let ($($v,)+) = $bind_d;
                $rule
            },
        );
    };
}

/// A table of unary rules, one `#[test]` per line:
///
/// ```ignore
/// unary_rules! {
///     ln: x in (0.1, 10.0) => x.ln(), ops::ln(x);
/// }
/// ```
/// checks, for `x` drawn from the domain, every listed form *and the plain expression
/// itself evaluated on a dual* (the method/operator form) against the plain expression.
macro_rules! unary_rules {
    ($($name:ident : $x:ident in $dom:expr => $primal:expr $(, $rule:expr)* ;)*) => {$(
        #[test]
        fn $name() {
            for p in $crate::common::points($dom, stringify!($name)) {
                unary_rules!(@ty f32, p as f32, $x => $primal; $primal $(, $rule)*);
                unary_rules!(@ty f64, p, $x => $primal; $primal $(, $rule)*);
            }
        }
    )*};
    (@ty $F:ty, $p:expr, $x:ident => $primal:expr; $($rule:expr),+) => {{
        let p: $F = $p;
        $(
            run_form!(
                p;
                |t| (*t,);
                |dt| (::fwdad_runtime::Dual::new(*t, *dt),);
                ($x) => $primal;
                $rule
            );
        )+
    }};
}

/// A table of binary rules, one `#[test]` per line:
///
/// ```ignore
/// binary_rules! {
///     powf: (a, b) in ((0.2, 3.0), (-2.0, 2.0)) => a.powf(b),
///         all [ops::powf(a, b)], lhs [a.powf(b)];
/// }
/// ```
/// `all` forms are checked with both operands active, only `a`, and only `b` (the other a
/// captured constant); `lhs` forms (methods, compound assignment) only while `a` is active.
macro_rules! binary_rules {
    ($(
        $name:ident : ($a:ident, $b:ident) in ($da:expr, $db:expr) => $primal:expr
        $(, all [$($r:expr),+ $(,)?])?
        $(, lhs [$($l:expr),+ $(,)?])? ;
    )*) => {$(
        #[test]
        fn $name() {
            let pa = $crate::common::points($da, concat!(stringify!($name), "/a"));
            let pb = $crate::common::points($db, concat!(stringify!($name), "/b"));
            for (pa, pb) in pa.into_iter().zip(pb) {
                binary_rules!(@ty f32, pa as f32, pb as f32, ($a, $b) => $primal;
                    [$($($r),+)?] [$($($l),+)?]);
                binary_rules!(@ty f64, pa, pb, ($a, $b) => $primal;
                    [$($($r),+)?] [$($($l),+)?]);
            }
        }
    )*};
    (@ty $F:ty, $pa:expr, $pb:expr, ($a:ident, $b:ident) => $primal:expr;
        [$($r:expr),*] [$($l:expr),*]) => {{
        let (pa, pb): ($F, $F) = ($pa, $pb);
        use ::fwdad_runtime::Dual;
        $(
            run_form!((pa, pb); |t| (t.0, t.1);
                |dt| (Dual::new(t.0, dt.0), Dual::new(t.1, dt.1)); ($a, $b) => $primal; $r);
            run_form!(pa; |t| (*t, pb); |dt| (Dual::new(*t, *dt), pb); ($a, $b) => $primal; $r);
            run_form!(pb; |t| (pa, *t); |dt| (pa, Dual::new(*t, *dt)); ($a, $b) => $primal; $r);
        )*
        $(
            run_form!((pa, pb); |t| (t.0, t.1);
                |dt| (Dual::new(t.0, dt.0), Dual::new(t.1, dt.1)); ($a, $b) => $primal; $l);
            run_form!(pa; |t| (*t, pb); |dt| (Dual::new(*t, *dt), pb); ($a, $b) => $primal; $l);
        )*
    }};
}

/// The ternary counterpart of [`binary_rules!`]: `all` forms on the seven patterns with at
/// least one active operand, `lhs` forms on the four where `a` is active.
macro_rules! ternary_rules {
    ($(
        $name:ident : ($a:ident, $b:ident, $c:ident) in ($da:expr, $db:expr, $dc:expr)
            => $primal:expr
        $(, all [$($r:expr),+ $(,)?])?
        $(, lhs [$($l:expr),+ $(,)?])? ;
    )*) => {$(
        #[test]
        fn $name() {
            let pa = $crate::common::points($da, concat!(stringify!($name), "/a"));
            let pb = $crate::common::points($db, concat!(stringify!($name), "/b"));
            let pc = $crate::common::points($dc, concat!(stringify!($name), "/c"));
            for ((pa, pb), pc) in pa.into_iter().zip(pb).zip(pc) {
                ternary_rules!(@ty f32, pa as f32, pb as f32, pc as f32, ($a, $b, $c) => $primal;
                    [$($($r),+)?] [$($($l),+)?]);
                ternary_rules!(@ty f64, pa, pb, pc, ($a, $b, $c) => $primal;
                    [$($($r),+)?] [$($($l),+)?]);
            }
        }
    )*};
    (@ty $F:ty, $pa:expr, $pb:expr, $pc:expr, ($a:ident, $b:ident, $c:ident) => $primal:expr;
        [$($r:expr),*] [$($l:expr),*]) => {{
        let (pa, pb, pc): ($F, $F, $F) = ($pa, $pb, $pc);
        use ::fwdad_runtime::Dual;
        $(
            ternary_rules!(@lhs_active pa, pb, pc, ($a, $b, $c) => $primal; $r);
            // `a` inactive: (C, D, D), (C, D, C), (C, C, D).
            run_form!((pb, pc); |t| (pa, t.0, t.1);
                |dt| (pa, Dual::new(t.0, dt.0), Dual::new(t.1, dt.1));
                ($a, $b, $c) => $primal; $r);
            run_form!(pb; |t| (pa, *t, pc); |dt| (pa, Dual::new(*t, *dt), pc);
                ($a, $b, $c) => $primal; $r);
            run_form!(pc; |t| (pa, pb, *t); |dt| (pa, pb, Dual::new(*t, *dt));
                ($a, $b, $c) => $primal; $r);
        )*
        $(
            ternary_rules!(@lhs_active pa, pb, pc, ($a, $b, $c) => $primal; $l);
        )*
    }};
    // The four patterns with `a` active: (D, D, D), (D, D, C), (D, C, D), (D, C, C).
    (@lhs_active $pa:ident, $pb:ident, $pc:ident, ($a:ident, $b:ident, $c:ident) => $primal:expr;
        $r:expr) => {
        run_form!(($pa, $pb, $pc); |t| (t.0, t.1, t.2);
            |dt| (Dual::new(t.0, dt.0), Dual::new(t.1, dt.1), Dual::new(t.2, dt.2));
            ($a, $b, $c) => $primal; $r);
        run_form!(($pa, $pb); |t| (t.0, t.1, $pc);
            |dt| (Dual::new(t.0, dt.0), Dual::new(t.1, dt.1), $pc);
            ($a, $b, $c) => $primal; $r);
        run_form!(($pa, $pc); |t| (t.0, $pb, t.1);
            |dt| (Dual::new(t.0, dt.0), $pb, Dual::new(t.1, dt.1));
            ($a, $b, $c) => $primal; $r);
        run_form!($pa; |t| (*t, $pb, $pc); |dt| (Dual::new(*t, *dt), $pb, $pc);
            ($a, $b, $c) => $primal; $r);
    };
}
