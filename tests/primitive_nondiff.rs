//! `#[non_differentiable]`: index lookups and random draws (`fwdad_special`, another
//! crate, and one defined here) return their value with a zero tangent, leave their
//! arguments as a plain call does, and let derived code index and branch on them.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};
use fwdad::Hyper;
use fwdad_special::lookup::{argmax, bucket};
use fwdad_special::random::{uniform, Rng};

#[test]
fn lookups_return_their_value_with_no_tangent() {
    let x = [0.5, 3.0, -1.0, 3.0];
    let dx = [1.0; 4];
    let k = fwdad_special::lookup::argmax_frule(Dual::new(&x[..], &dx[..]));
    assert_eq!(k.primal, 1);
    assert_eq!(k.tangent, NoTangent);
    let edges = [0.0, 1.0, 2.5];
    let b = <bucket as Frule<_, Batch<f64, 4>>>::frule(
        &bucket {},
        (
            Dual::new(1.7, Batch([1.0; 4])),
            Dual::new(&edges[..], &[Batch([0.0; 4]); 3][..]),
        ),
    );
    assert_eq!(b.primal, 2);
    test_frule(
        (1.7, edges.to_vec()),
        |p| bucket(p.0, &p.1),
        |p, dp| {
            fwdad_special::lookup::bucket_frule(
                Dual::new(p.0, dp.0),
                Dual::new(&p.1[..], &dp.1[..]),
            )
        },
    );
}

#[test]
fn a_random_draw_advances_the_generator_and_has_zero_tangent() {
    let mut plain = Rng::new(42);
    let mut ruled = Rng::new(42);
    let mut t = NoTangent;
    for _ in 0..5 {
        let u = uniform(&mut plain);
        let d = <uniform as Frule<_, Hyper<f64, f64>>>::frule(
            &uniform {},
            (Dual::new(&mut ruled, &mut t),),
        );
        assert_eq!(d.primal.to_bits(), u.to_bits());
        assert_eq!(
            d.tangent,
            Hyper {
                d1: 0.0,
                d2: 0.0,
                d12: 0.0
            }
        );
        assert_eq!(ruled, plain);
    }
}

/// Derived code that picks an element by a non-differentiable index, and adds noise.
#[derive_frule]
fn peak_energy(x: &[f64], k: f64, rng: &mut Rng) -> f64 {
    let i = argmax(x);
    let noise = uniform(rng);
    let b = bucket(k, x);
    let shift = if b > 2 { 1.0 } else { 0.0 };
    k * x[i] * x[i] + noise * k + shift
}

#[test]
fn derived_code_uses_non_differentiable_functions() {
    let x = [0.5, 3.0, -1.0, 2.0];
    let k = 0.7;
    // d/dx1 (k x1²) = 2 k x1; d/dk = x1² + noise (the bucket count is piecewise constant).
    let mut rng = Rng::new(7);
    let noise = uniform(&mut rng.clone());
    let mut t = NoTangent;
    let dx = [0.0, 1.0, 0.0, 0.0];
    let out = peak_energy_frule(
        Dual::new(&x[..], &dx[..]),
        Dual::new(k, 0.0),
        Dual::new(&mut rng, &mut t),
    );
    assert_eq!(out.tangent, 2.0 * k * 3.0);
    let mut rng2 = Rng::new(7);
    assert_eq!(
        out.primal.to_bits(),
        peak_energy(&x, k, &mut rng2).to_bits()
    );
    assert_eq!(rng, rng2, "the generator advanced as in a plain call");
    let dk = peak_energy_frule(
        Dual::new(&x[..], &[0.0; 4][..]),
        Dual::new(k, 1.0),
        Dual::new(&mut Rng::new(7), &mut t),
    );
    approx::assert_relative_eq!(dk.tangent, 9.0 + noise, max_relative = 1e-15);
}

/// A counter: mutable integer state, integer result.
#[non_differentiable]
fn next_id(counter: &mut u64) -> u64 {
    *counter += 1;
    *counter
}

#[derive_frule]
fn tagged(x: f64, counter: &mut u64) -> f64 {
    let id = next_id(counter);
    x * id as f64
}

#[test]
fn local_non_differentiable_function() {
    test_frule(
        (1.5, 3u64),
        |p| tagged(p.0, &mut p.1),
        |p, dp| tagged_frule(Dual::new(p.0, dp.0), Dual::new(&mut p.1, &mut dp.1)),
    );
    test_frule_batched::<2, _, _>(
        (1.5, 3u64),
        |p| tagged(p.0, &mut p.1),
        |p, dp| {
            <tagged as Frule<_, Batch<f64, 2>>>::frule(
                &tagged {},
                (Dual::new(p.0, dp.0), Dual::new(&mut p.1, &mut dp.1)),
            )
        },
    );
}

/// An index from a non-differentiable function, computed with as an integer once its type
/// is written (the rule keeps the call's value; without the type it is a `Dual`).
#[derive_frule]
fn neighbours_of_peak(x: &[f64]) -> f64 {
    let i: usize = argmax(x);
    let n = x.len();
    x[(i + 1) % n] * x[(i + n - 1) % n]
}

/// The same without the type: an integer operand (`1`, `x.len()`) makes `i + 1` integer
/// arithmetic, which reads the call's value.
#[derive_frule]
fn after_peak(x: &[f64]) -> f64 {
    let i = argmax(x);
    x[(i + 1) % x.len()] - x[i]
}

#[test]
fn an_integer_result_is_an_integer_in_integer_arithmetic() {
    let x = [0.5, 3.0, 1.5, -2.0];
    let dx = [1.0, 7.0, 0.25, 9.0];
    let r = after_peak_frule(Dual::new(&x[..], &dx[..]));
    assert_eq!(r.primal, after_peak(&x));
    assert_eq!((r.primal, r.tangent), (1.5 - 3.0, 0.25 - 7.0));
}

#[test]
fn an_integer_result_with_its_type_written_is_an_integer() {
    // The peak is x[1]: the product of x[2] and x[0], derivative dx[2]·x[0] + x[2]·dx[0].
    let x = [0.5, 3.0, 1.5, -2.0];
    let dx = [1.0, 7.0, 0.25, 9.0];
    let r = neighbours_of_peak_frule(Dual::new(&x[..], &dx[..]));
    assert_eq!(r.primal, neighbours_of_peak(&x));
    assert_eq!(r.primal, 1.5 * 0.5);
    assert_eq!(r.tangent, 0.25 * 0.5 + 1.5 * 1.0);
}
