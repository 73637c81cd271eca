//! `MaybeZero`: a known zero adds nothing, scales to a known zero, and skips a rule's
//! partial derivative; a live tangent computes what `T` computes. Expected values are
//! written out by hand.

use fwdad_runtime::rules::exp_log;
use fwdad_runtime::{Batch, Dual, Hyper, Lanes, MaybeZero, ScalarTangent, TangentSpace};

type B = Batch<f64, 3>;
type Z = MaybeZero<B>;

fn live(l: [f64; 3]) -> Z {
    MaybeZero::new(Batch(l))
}

#[test]
fn a_known_zero_adds_nothing() {
    let a = live([1.0, -2.0, 0.5]);
    let z = Z::zero();
    assert!(z.is_known_zero() && z.is_zero() && !a.is_zero());
    for r in [a.add(z), z.add(a), a.sub(z), a.axpy(7.0, z)] {
        assert_eq!(r.get().0, [1.0, -2.0, 0.5]);
        assert!(!r.is_known_zero());
    }
    assert_eq!(z.sub(a).get().0, [-1.0, 2.0, -0.5]);
    assert_eq!(z.axpy(2.0, a).get().0, [2.0, -4.0, 1.0]);
    for r in [
        z.add(z),
        z.neg(),
        z.scale(3.0),
        z.scale(f64::NAN),
        z.scale_strong(f64::INFINITY),
        z.axpy(f64::INFINITY, z),
    ] {
        assert!(r.is_known_zero());
        assert_eq!(r.get().0, [0.0; 3]);
    }
}

#[test]
fn live_tangents_compute_what_the_batch_computes() {
    let (a, b) = ([1.0, -2.0, 0.5], [0.25, 4.0, -8.0]);
    let (za, zb) = (live(a), live(b));
    assert_eq!(za.add(zb).get().0, [1.25, 2.0, -7.5]);
    assert_eq!(za.sub(zb).get().0, [0.75, -6.0, 8.5]);
    assert_eq!(za.neg().get().0, [-1.0, 2.0, -0.5]);
    assert_eq!(za.scale(2.0).get().0, [2.0, -4.0, 1.0]);
    assert_eq!(za.axpy(2.0, zb).get().0, [1.5, 6.0, -15.5]);
    // A live tangent whose lanes cancelled is zero as a value, not a known zero.
    let c = za.sub(za);
    assert!(!c.is_known_zero());
    assert_eq!(c, Z::zero());
    assert_ne!(za, Z::zero());
}

#[test]
fn rules_skip_the_partial_of_a_known_zero() {
    // d/dx √x at 0 is infinite: a known-zero direction stays zero, not 0·∞ = NaN.
    let y = ScalarTangent::chain1(&exp_log::sqrt {}, 0.0, 0.0, Z::zero());
    assert!(y.is_known_zero());
    let y = Dual::new(0.0, Z::zero()).sqrt();
    assert!(y.tangent.is_known_zero());
    // A live direction: cos(0.5) times it.
    let y = Dual::new(0.5, live([1.0, 0.0, -2.0])).sin();
    let c = 0.5_f64.cos();
    assert_eq!(y.tangent.get().0, [c, 0.0, -2.0 * c]);
    // Both arguments known zero: a known zero; one: the other's partial.
    let p = Dual::new(3.0, Z::zero()) * Dual::new(5.0, Z::zero());
    assert!(p.tangent.is_known_zero());
    let p = Dual::new(3.0, Z::zero()) * Dual::new(5.0, live([1.0, 2.0, 0.0]));
    assert_eq!(p.tangent.get().0, [3.0, 6.0, 0.0]);
}

#[test]
fn second_order_over_known_zeros() {
    // f(x) = x³ at x = 2 with d1 = (1, 0, 0) (lane 0 live), d2 = 1: d12 = f''·d1 = 12.
    let x = Dual::new(
        2.0,
        Hyper {
            d1: live([1.0, 0.0, 0.0]),
            d2: 1.0,
            d12: Z::zero(),
        },
    );
    let y = x * x * x;
    assert_eq!(y.tangent.d1.get().0, [12.0, 0.0, 0.0]);
    assert_eq!(y.tangent.d2, 12.0);
    assert_eq!(y.tangent.d12.get().0, [12.0, 0.0, 0.0]);
    // A first-order direction that is a known zero: d1 and d12 stay known zeros.
    let x = Dual::new(
        2.0,
        Hyper {
            d1: Z::zero(),
            d2: 1.0,
            d12: Z::zero(),
        },
    );
    let y = x.exp();
    assert!(y.tangent.d1.is_known_zero() && y.tangent.d12.is_known_zero());
    assert_eq!(y.tangent.d2, 2.0_f64.exp());
}

#[test]
fn lanes_and_tangent_space() {
    assert!(Z::from_lanes(|_| 0.0).is_known_zero());
    let u = Z::from_lanes(|k| if k == 1 { 1.0 } else { 0.0 });
    assert!(!u.is_known_zero());
    assert_eq!((u.lane(0), u.lane(1), u.lane(2)), (0.0, 1.0, 0.0));
    let mut t = Z::zero();
    t.increment(&Z::zero());
    assert!(t.is_known_zero());
    t.increment(&live([1.0, 2.0, 3.0]));
    t.scale_by(2.0);
    assert_eq!(t.get().0, [2.0, 4.0, 6.0]);
    assert_eq!(t.dot(&live([1.0, 1.0, 1.0])), 12.0);
    assert_eq!(t.dot(&Z::zero()), 0.0);
    assert_eq!(Z::default(), Z::zero());
}

#[test]
fn storing_keeps_the_value_in_the_slot() {
    let a = live([1.0, -2.0, 0.5]);
    // A live value is written, flag and lanes.
    let mut slot = Z::zero();
    ScalarTangent::store(&mut slot, a);
    assert!(!slot.is_known_zero());
    assert_eq!(slot.get().0, [1.0, -2.0, 0.5]);
    // A known zero over a live slot makes it a known zero with zero lanes: later reads
    // of its lanes (`get`) see no stale direction.
    ScalarTangent::store(&mut slot, Z::zero());
    assert!(slot.is_known_zero());
    assert_eq!(slot.get().0, [0.0; 3]);
    // A known zero over a known zero leaves it one.
    ScalarTangent::store(&mut slot, Z::zero());
    assert!(slot.is_known_zero());
    assert_eq!(slot.get().0, [0.0; 3]);
    // A live value whose lanes are zero stays live (it is not tested).
    ScalarTangent::store(&mut slot, live([0.0; 3]));
    assert!(!slot.is_known_zero());
    // Through a dual buffer, as generated code writes `buf[i] = v`.
    let mut buf = Dual::new(vec![0.0; 2], vec![Z::zero(); 2]);
    fwdad_runtime::structural::store_index_real(&mut buf, 1, Dual::new(3.0, a));
    fwdad_runtime::structural::store_index_real(&mut buf, 0, Dual::new(4.0, Z::zero()));
    assert_eq!(buf.primal, [4.0, 3.0]);
    assert!(buf.tangent[0].is_known_zero());
    assert_eq!(buf.tangent[1].get().0, [1.0, -2.0, 0.5]);
    fwdad_runtime::structural::store_index_real(&mut buf, 1, Dual::new(-1.0, Z::zero()));
    assert_eq!(buf.primal, [4.0, -1.0]);
    assert!(buf.tangent[1].is_known_zero());
    assert_eq!(buf.tangent[1].get().0, [0.0; 3]);
}
