//! `TangentSpace` (`increment`, `scale_by`, `dot`) on every tangent shape: scalars, `Vec`,
//! arrays, slices through `&mut`, tuples, `Option`, `Batch`, `NoTangent`, `()`; expected
//! values written out by hand.

use fwdad_runtime::{Batch, NoTangent, TangentSpace};

#[test]
fn scalars() {
    let mut x = 1.5_f64;
    x.increment(&2.0);
    assert_eq!(x, 3.5);
    x.scale_by(-2.0);
    assert_eq!(x, -7.0);
    assert_eq!(x.dot(&0.5), -3.5);

    let mut y = 1.5_f32;
    y.increment(&2.0);
    y.scale_by(0.5);
    assert_eq!(y, 1.75);
    // The inner product is accumulated in f64.
    assert_eq!(1e30_f32.dot(&1e30_f32), 1e30_f32 as f64 * 1e30_f32 as f64);
}

#[test]
fn vectors_and_arrays() {
    let mut v = vec![1.0, 2.0, 3.0];
    v.increment(&vec![10.0, 20.0, 30.0]);
    assert_eq!(v, [11.0, 22.0, 33.0]);
    v.scale_by(0.5);
    assert_eq!(v, [5.5, 11.0, 16.5]);
    assert_eq!(v.dot(&vec![2.0, 0.0, -1.0]), 11.0 - 16.5);

    let mut a = [1.0_f32, -1.0];
    a.increment(&[0.5, 0.5]);
    a.scale_by(4.0);
    assert_eq!(a, [6.0, -2.0]);
    assert_eq!(a.dot(&[1.0, 1.0]), 4.0);

    // Through a mutable borrow of a buffer (how rules hold mutated tangents): the impl for
    // `&mut [f64]` itself, named explicitly so that auto-deref does not pick `[f64]`'s.
    let mut buf = [1.0, 2.0];
    let mut other_buf = [3.0, 4.0];
    let mut r: &mut [f64] = &mut buf;
    let other: &mut [f64] = &mut other_buf;
    <&mut [f64] as TangentSpace>::increment(&mut r, &other);
    <&mut [f64] as TangentSpace>::scale_by(&mut r, 2.0);
    assert_eq!(
        <&mut [f64] as TangentSpace>::dot(&r, &other),
        8.0 * 3.0 + 12.0 * 4.0
    );
    assert_eq!(buf, [8.0, 12.0]);

    // Nested: a Vec of arrays.
    let nested = vec![[1.0, 2.0], [3.0, 4.0]];
    assert_eq!(nested.dot(&nested), 1.0 + 4.0 + 9.0 + 16.0);

    // Empty.
    assert_eq!(Vec::<f64>::new().dot(&Vec::new()), 0.0);
}

#[test]
#[should_panic(expected = "tangent length mismatch")]
fn vector_length_mismatch_panics_in_dot() {
    let _ = vec![1.0, 2.0].dot(&vec![1.0]);
}

#[test]
#[should_panic(expected = "tangent length mismatch")]
fn vector_length_mismatch_panics_in_increment() {
    vec![1.0, 2.0].increment(&vec![1.0]);
}

#[test]
fn tuples() {
    let mut t = (1.0_f64, vec![1.0, 2.0], NoTangent, [0.5_f32]);
    t.increment(&(1.0, vec![1.0, 1.0], NoTangent, [0.5]));
    assert_eq!(t, (2.0, vec![2.0, 3.0], NoTangent, [1.0]));
    t.scale_by(3.0);
    assert_eq!(t, (6.0, vec![6.0, 9.0], NoTangent, [3.0]));
    let s = (1.0, vec![1.0, -1.0], NoTangent, [2.0_f32]);
    assert_eq!(t.dot(&s), 6.0 + 6.0 - 9.0 + 6.0);
    // The largest arity.
    let mut big = (
        1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0,
    );
    big.scale_by(2.0);
    assert_eq!(big.11, 24.0);
    assert_eq!(
        big.dot(&(1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)),
        26.0
    );
}

#[test]
fn options() {
    let mut o = Some(2.0);
    o.increment(&Some(1.0));
    o.scale_by(2.0);
    assert_eq!(o, Some(6.0));
    assert_eq!(o.dot(&Some(0.5)), 3.0);
    // A missing side contributes nothing.
    assert_eq!(o.dot(&None), 0.0);
    let mut n: Option<f64> = None;
    n.increment(&Some(1.0));
    assert_eq!(n, None);
}

#[test]
fn batches() {
    let mut b = Batch([1.0, 2.0, 3.0, 4.0]);
    b.increment(&Batch([1.0; 4]));
    assert_eq!(b, Batch([2.0, 3.0, 4.0, 5.0]));
    b.scale_by(-1.0);
    assert_eq!(b, Batch([-2.0, -3.0, -4.0, -5.0]));
    // The Euclidean inner product over all lanes.
    assert_eq!(b.dot(&Batch([1.0, 0.0, 0.0, 1.0])), -7.0);

    let mut f = Batch([1.0_f32, 2.0]);
    f.scale_by(0.25);
    assert_eq!(f, Batch([0.25, 0.5]));
    assert_eq!(f.dot(&f), 0.0625 + 0.25);
    // Batches inside composites.
    let v = vec![Batch([1.0, 2.0]), Batch([3.0, 4.0])];
    assert_eq!(v.dot(&v), 30.0);
}

#[test]
fn no_tangent_and_unit() {
    let mut n = NoTangent;
    n.increment(&NoTangent);
    n.scale_by(5.0);
    assert_eq!(n, NoTangent);
    assert_eq!(n.dot(&NoTangent), 0.0);
    let mut u = ();
    u.increment(&());
    u.scale_by(2.0);
    assert_eq!(u.dot(&()), 0.0);
}
