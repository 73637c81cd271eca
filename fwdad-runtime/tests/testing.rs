//! `fwdad_runtime::testing`: the `TestTangent` operations, and `test_frule` itself — it must
//! accept correct rules (slices, mutation, integers, f32, batches) and reject wrong ones
//! with the right check.

use fwdad_runtime::testing::{
    check_frule, check_frule_batched, randn, test_frule, test_frule_batched, test_frule_with,
    Check, Precision, TestConfig, TestTangent,
};
use fwdad_runtime::{ops, Batch, Dual, NoTangent, ScalarTangent};
use rand::rngs::StdRng;
use rand::SeedableRng;

// ---------------------------------------------------------------------------------------
// Functions under test, with hand-written rules (generic over the tangent representation,
// so the same rule is checked in single and batch mode).

/// `k · Σ xᵢ²`.
fn energy(x: &[f64], k: f64) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * v;
    }
    k * s
}

fn energy_frule<T: ScalarTangent<f64>>(x: Dual<&[f64], &[T]>, k: Dual<f64, T>) -> Dual<f64, T> {
    let mut s = Dual::new(0.0, T::zero());
    for i in 0..x.len() {
        let v = x.at(i).copied();
        s += v * v;
    }
    k * s
}

/// `x ← a·x` in place, plus the number of elements (an integer result).
fn scale(x: &mut [f64], a: f64) -> usize {
    for v in x.iter_mut() {
        *v *= a;
    }
    x.len()
}

fn scale_frule<T: ScalarTangent<f64>>(
    x: Dual<&mut [f64], &mut [T]>,
    a: Dual<f64, T>,
) -> Dual<usize, NoTangent> {
    for (v, dv) in x.primal.iter_mut().zip(x.tangent.iter_mut()) {
        let y = Dual::new(*v, *dv) * a;
        *v = y.primal;
        *dv = y.tangent;
    }
    Dual::new(x.primal.len(), NoTangent)
}

/// `out[i] = sin(x[i])^n` for an integer power `n` (an output buffer, an integer argument).
fn sin_pow(x: &[f32], n: i32, out: &mut [f32]) {
    for (o, v) in out.iter_mut().zip(x) {
        *o = v.sin().powi(n);
    }
}

fn sin_pow_frule<T: ScalarTangent<f32>>(
    x: Dual<&[f32], &[T]>,
    n: Dual<i32, NoTangent>,
    out: Dual<&mut [f32], &mut [T]>,
) -> Dual<(), NoTangent> {
    for i in 0..x.len() {
        let y = ops::powi(ops::sin(x.at(i).copied()), n.primal);
        out.primal[i] = y.primal;
        out.tangent[i] = y.tangent;
    }
    Dual::new((), NoTangent)
}

// ---------------------------------------------------------------------------------------
// Correct rules pass.

#[test]
fn slice_argument_and_scalar() {
    let args = (vec![0.3, -1.2, 2.5], 1.7);
    test_frule(
        args.clone(),
        |a| energy(&a.0, a.1),
        |a, da| energy_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
    test_frule_batched::<3, _, _>(
        args,
        |a| energy(&a.0, a.1),
        |a, da| energy_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
}

#[test]
fn mutated_buffer_and_integer_result() {
    let args = (vec![0.3, -1.2, 2.5, 4.0], -0.8);
    test_frule(
        args.clone(),
        |a| scale(&mut a.0, a.1),
        |a, da| scale_frule(Dual::new(&mut a.0[..], &mut da.0[..]), Dual::new(a.1, da.1)),
    );
    test_frule_batched::<5, _, _>(
        args,
        |a| scale(&mut a.0, a.1),
        |a, da| scale_frule(Dual::new(&mut a.0[..], &mut da.0[..]), Dual::new(a.1, da.1)),
    );
}

#[test]
fn f32_output_buffer_and_integer_argument() {
    let args = (vec![0.3_f32, -1.2, 2.5], 3_i32, vec![0.0_f32; 3]);
    assert_eq!(<(Vec<f32>, i32, Vec<f32>)>::PRECISION, Precision::F32);
    test_frule(
        args.clone(),
        |a| sin_pow(&a.0, a.1, &mut a.2),
        |a, da| {
            sin_pow_frule(
                Dual::new(&a.0[..], &da.0[..]),
                Dual::new(a.1, da.1),
                Dual::new(&mut a.2[..], &mut da.2[..]),
            )
        },
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| sin_pow(&a.0, a.1, &mut a.2),
        |a, da| {
            sin_pow_frule(
                Dual::new(&a.0[..], &da.0[..]),
                Dual::new(a.1, da.1),
                Dual::new(&mut a.2[..], &mut da.2[..]),
            )
        },
    );
}

#[test]
fn composite_result() {
    // (x, y) ↦ ([x·y, x/y], x + y): an array and a scalar in a tuple.
    let f = |a: &mut (f64, f64)| ([a.0 * a.1, a.0 / a.1], a.0 + a.1);
    test_frule((1.5, -0.7), f, |a, da| {
        let (x, y) = (Dual::new(a.0, da.0), Dual::new(a.1, da.1));
        let (p, q, s) = (x * y, x / y, x + y);
        Dual::new(
            ([p.primal, q.primal], s.primal),
            ([p.tangent, q.tangent], s.tangent),
        )
    });
}

/// A custom configuration (more draws, another seed) is honoured.
#[test]
fn custom_config() {
    let config = TestConfig {
        draws: 10,
        seed: 7,
        ..TestConfig::f64()
    };
    test_frule_with(
        &config,
        0.4_f64,
        |x| x.tanh(),
        |x, dx| ops::tanh(Dual::new(*x, *dx)),
    );
}

// ---------------------------------------------------------------------------------------
// Wrong rules fail, with the right check.

#[test]
fn wrong_derivative_fails_output_tangent() {
    // cos' = -sin, not sin.
    let err = check_frule(
        &TestConfig::f64(),
        0.9_f64,
        |x| x.cos(),
        |x, dx| Dual::new(x.cos(), x.sin() * *dx),
    )
    .unwrap_err();
    assert_eq!(err.check, Check::OutputTangent);
    assert!(err.to_string().contains("output tangent"), "{err}");

    // Off by a little (1e-4 relative): still caught in f64.
    let err = check_frule(
        &TestConfig::f64(),
        0.9_f64,
        |x| x.exp(),
        |x, dx| Dual::new(x.exp(), x.exp() * (1.0 + 1e-4) * *dx),
    )
    .unwrap_err();
    assert_eq!(err.check, Check::OutputTangent);
}

#[test]
#[should_panic(expected = "output tangent")]
fn wrong_derivative_panics() {
    test_frule(
        0.9_f64,
        |x| x.cos(),
        |x, dx| Dual::new(x.cos(), x.sin() * *dx),
    );
}

#[test]
fn wrong_f32_derivative_fails() {
    let err = check_frule(
        &TestConfig::f32(),
        0.9_f32,
        |x| x.exp(),
        |x, dx| Dual::new(x.exp(), x.exp() * 1.01 * *dx),
    )
    .unwrap_err();
    assert_eq!(err.check, Check::OutputTangent);
}

#[test]
fn rule_that_mutates_differently_fails_argument_state() {
    // The rule scales by `a` twice.
    let err = check_frule(
        &TestConfig::f64(),
        (vec![1.0, 2.0], 3.0),
        |a| scale(&mut a.0, a.1),
        |a, da| {
            scale_frule(Dual::new(&mut a.0[..], &mut da.0[..]), Dual::new(a.1, da.1));
            scale_frule(Dual::new(&mut a.0[..], &mut da.0[..]), Dual::new(a.1, da.1))
        },
    )
    .unwrap_err();
    assert_eq!(err.check, Check::ArgumentState);

    // The rule forgets to write the primal of the buffer (only the tangent).
    let err = check_frule(
        &TestConfig::f64(),
        (vec![1.0, 2.0], 3.0),
        |a| scale(&mut a.0, a.1),
        |a, da| {
            for dv in da.0.iter_mut() {
                *dv *= a.1;
            }
            Dual::new(a.0.len(), NoTangent)
        },
    )
    .unwrap_err();
    assert_eq!(err.check, Check::ArgumentState);
}

#[test]
fn wrong_tangent_in_mutated_buffer_fails_argument_tangent() {
    // Scales the primal but leaves the tangent as it came in (forgets `dx·a + x·da`).
    let err = check_frule(
        &TestConfig::f64(),
        (vec![1.0, 2.0], 3.0),
        |a| scale(&mut a.0, a.1),
        |a, _da| Dual::new(scale(&mut a.0, a.1), NoTangent),
    )
    .unwrap_err();
    assert_eq!(err.check, Check::ArgumentTangent);

    // Propagates `a·dx` but forgets the `x·da` term.
    let err = check_frule(
        &TestConfig::f64(),
        (vec![1.0, 2.0], 3.0),
        |a| scale(&mut a.0, a.1),
        |a, da| {
            for dv in da.0.iter_mut() {
                *dv *= a.1;
            }
            Dual::new(scale(&mut a.0, a.1), NoTangent)
        },
    )
    .unwrap_err();
    assert_eq!(err.check, Check::ArgumentTangent);
}

#[test]
fn rule_that_writes_an_unmutated_arguments_tangent_fails() {
    // `energy` does not mutate `x`; a rule that zeroes `dx` breaks "unmutated arguments keep
    // their input tangent".
    let err = check_frule(
        &TestConfig::f64(),
        (vec![1.0, 2.0], 3.0),
        |a| energy(&a.0, a.1),
        |a, da| {
            let y = energy_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1));
            da.0.iter_mut().for_each(|t| *t = 0.0);
            y
        },
    )
    .unwrap_err();
    assert_eq!(err.check, Check::ArgumentTangent);
}

#[test]
fn primal_that_is_not_bit_identical_fails_output_primal() {
    // `x * x` instead of `x.powi(2)`: equal in value mostly, but the check is bitwise, so
    // use an expression that differs in the last bit at this point.
    let x0 = 0.1_f64;
    assert_ne!((x0 * 3.0) / 3.0, x0, "the test needs a rounding difference");
    let err = check_frule(
        &TestConfig::f64(),
        x0,
        |x| *x,
        |x, dx| Dual::new((*x * 3.0) / 3.0, *dx),
    )
    .unwrap_err();
    assert_eq!(err.check, Check::OutputPrimal);
}

#[test]
fn tangent_of_the_wrong_shape_fails() {
    let err = check_frule(
        &TestConfig::f64(),
        vec![1.0, 2.0],
        |x| x.clone(),
        |x, _| Dual::new(x.clone(), vec![0.0]),
    )
    .unwrap_err();
    assert_eq!(err.check, Check::TangentShape);
}

#[test]
fn empty_step_grid_is_reported_not_panicked() {
    let config = TestConfig {
        steps: vec![],
        ..TestConfig::f64()
    };
    let err = check_frule(&config, 1.0, |x| *x, |x, dx| Dual::new(*x, *dx)).unwrap_err();
    assert!(err.message.contains("steps"), "{err}");
}

#[test]
fn batched_rule_with_one_wrong_lane_fails() {
    // Lanes 0..3 correct; lane 3 gets twice the derivative.
    let err = check_frule_batched::<4, _, _>(
        &TestConfig::f64(),
        0.7_f64,
        |x| x.sin(),
        |x, dx| {
            let mut y = ops::sin(Dual::new(*x, *dx));
            y.tangent.0[3] *= 2.0;
            y
        },
    )
    .unwrap_err();
    assert_eq!(err.check, Check::OutputTangent);
    assert!(err.message.contains("batch lane 3"), "{err}");
}

#[test]
fn batched_rule_that_mixes_lanes_fails() {
    let err = check_frule_batched::<2, _, _>(
        &TestConfig::f64(),
        (0.7_f64, -0.3_f64),
        |a| a.0 * a.1,
        |a, da| {
            // Swaps the lanes of `da.1`.
            let db = Batch([da.1 .0[1], da.1 .0[0]]);
            Dual::new(a.0, da.0) * Dual::new(a.1, db)
        },
    )
    .unwrap_err();
    assert_eq!(err.check, Check::OutputTangent);
}

/// The draws are seeded: the same configuration fails with the same message.
#[test]
fn failures_are_deterministic() {
    let run = || {
        check_frule(
            &TestConfig::f64(),
            (0.9, 0.2),
            |a| a.0 * a.1,
            |a, da| Dual::new(a.0 * a.1, da.0 * a.1),
        )
        .unwrap_err()
    };
    assert_eq!(run(), run());
}

// ---------------------------------------------------------------------------------------
// `TestTangent` operations.

#[test]
fn randn_is_standard_normal() {
    let mut rng = StdRng::seed_from_u64(1);
    let n = 20_000;
    let xs: Vec<f64> = (0..n).map(|_| randn(&mut rng)).collect();
    let mean = xs.iter().sum::<f64>() / n as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    // Standard errors: 1/√n ≈ 0.007 for the mean, √(2/n) ≈ 0.01 for the variance.
    assert!(mean.abs() < 0.03, "mean {mean}");
    assert!((var - 1.0).abs() < 0.05, "variance {var}");
    assert!(xs.iter().all(|x| x.is_finite()));
}

#[test]
fn randn_tangent_has_the_primal_shape() {
    let mut rng = StdRng::seed_from_u64(2);
    let x = (
        vec![1.0_f64; 5],
        [2.0_f32; 3],
        Some(3_u8),
        None::<f64>,
        Box::new(4.0),
    );
    let t = x.randn_tangent(&mut rng);
    assert_eq!(t.0.len(), 5);
    assert_eq!(t.2, Some(NoTangent));
    assert_eq!(t.3, None);
    assert!(x.matches_tangent(&t));
    // Entries are not all equal (they are random).
    assert!(t.0.windows(2).any(|w| w[0] != w[1]));
    // Seeded: the same seed gives the same tangent.
    let t2 = x.randn_tangent(&mut StdRng::seed_from_u64(2));
    assert_eq!(t.0, t2.0);
    assert_eq!(t.1, t2.1);
}

#[test]
fn add_to_primal_and_diff() {
    let x = (vec![1.0, -2.0], 3.5_f32, 7_i64, true);
    let t = (vec![0.5, 4.0], 2.0_f32, NoTangent, NoTangent);
    let y = x.add_to_primal(&t, 0.25);
    assert_eq!(y, (vec![1.125, -1.0], 4.0, 7, true));
    let d = y.diff(&x);
    assert_eq!(d, (vec![0.125, 1.0], 0.5, NoTangent, NoTangent));
    // Options of different variants: the primal is unchanged; the difference has the shape
    // of `self`, and is zero.
    assert_eq!(Some(1.0).add_to_primal(&None, 1.0), Some(1.0));
    assert_eq!(Some(1.0).diff(&None), Some(0.0));
    assert_eq!(None::<f64>.diff(&Some(1.0)), None);
    assert_eq!(Some(3.0).diff(&Some(1.0)), Some(2.0));
    // A `Vec` that grew: the extra elements have a zero difference.
    assert_eq!(vec![3.0, 5.0].diff(&vec![1.0]), vec![2.0, 0.0]);
}

#[test]
fn bitwise_eq_compares_bits() {
    assert!(f64::NAN.bitwise_eq(&f64::NAN));
    assert!(!0.0_f64.bitwise_eq(&-0.0));
    assert!(!(-0.0_f32).bitwise_eq(&0.0));
    assert!(1.0_f32.bitwise_eq(&1.0));
    assert!(
        !f64::from_bits(0x7ff8_0000_0000_0001).bitwise_eq(&f64::from_bits(0x7ff8_0000_0000_0000))
    );
    assert!(vec![1.0, f64::NAN].bitwise_eq(&vec![1.0, f64::NAN]));
    assert!(!vec![1.0].bitwise_eq(&vec![1.0, 2.0]));
    assert!(!(1.0, 2_u8).bitwise_eq(&(1.0, 3_u8)));
    assert!(!Some(1.0).bitwise_eq(&None));
    assert!("a".to_string().bitwise_eq(&"a".to_string()));
}

#[test]
fn batch_tangent_and_lane_round_trip() {
    type X = (Vec<f64>, [f32; 2], u32, Option<f64>);
    let ts: [<X as fwdad_runtime::Differentiable>::Tangent; 3] = [
        (vec![1.0, 2.0], [3.0, 4.0], NoTangent, Some(5.0)),
        (vec![6.0, 7.0], [8.0, 9.0], NoTangent, Some(10.0)),
        (vec![11.0, 12.0], [13.0, 14.0], NoTangent, Some(15.0)),
    ];
    let b = X::batch_tangent(ts.each_ref());
    assert_eq!(b.0, vec![Batch([1.0, 6.0, 11.0]), Batch([2.0, 7.0, 12.0])]);
    assert_eq!(b.1, [Batch([3.0_f32, 8.0, 13.0]), Batch([4.0, 9.0, 14.0])]);
    assert_eq!(b.3, Some(Batch([5.0, 10.0, 15.0])));
    for (k, t) in ts.iter().enumerate() {
        assert_eq!(&X::lane::<3>(&b, k), t);
    }
    // An `Option` batch is `Some` only if every direction is.
    let b = Option::<f64>::batch_tangent([&Some(1.0), &None]);
    assert_eq!(b, None);
}

#[test]
fn precision_is_the_coarsest_leaf() {
    assert_eq!(<u8>::PRECISION, Precision::Discrete);
    assert_eq!(<f64>::PRECISION, Precision::F64);
    assert_eq!(<(f64, Vec<f32>)>::PRECISION, Precision::F32);
    assert_eq!(<(usize, Box<[f64; 2]>)>::PRECISION, Precision::F64);
    assert_eq!(
        TestConfig::for_types::<(f64, i32), f32>(),
        TestConfig::f32()
    );
    assert_eq!(TestConfig::for_types::<(f64, i32), ()>(), TestConfig::f64());
}
