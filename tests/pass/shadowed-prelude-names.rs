//! Generated code names everything by absolute path: a caller that shadows prelude
//! names, primitive type names and the `core`/`std` crate names still compiles.
#![allow(
    dead_code,
    non_camel_case_types,
    non_upper_case_globals,
    unused_imports
)]

use fwdad::prelude::*;

struct Option;
struct Result;
struct Some;
struct None;
struct Ok;
struct Err;
struct Vec;
struct Box;
struct String;
struct Copy;
struct Clone;
struct Default;
struct Into;
struct From;
struct Iterator;
struct IntoIterator;
struct Fn;
struct Sized;
struct Drop;
mod core {}
mod std {}
mod fwdad_runtime {}
mod __private {}
struct f32;
struct usize;
struct bool;
const Dual: () = ();
const Frule: () = ();
fn unreachable() {}
fn panic() {}
fn frule() {}

// No `f64` shadowing here: the user's own signature names `f64`.

#[derive_frule]
fn helper(x: f64) -> f64 {
    x * x
}

#[derive_frule]
fn body(x: &[f64], k: f64) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        let v = if x[i] > 0.0 { x[i].sin() } else { -x[i] };
        acc += k * v + helper(x[i]);
    }
    let (s, c) = k.sin_cos();
    acc * s + c
}

/// A helper's `Result` and `Option`, written by absolute path as this crate must.
#[derive_frule]
fn checked_root(x: f64) -> ::core::result::Result<f64, ()> {
    if x >= 0.0 {
        ::core::result::Result::Ok(x.sqrt())
    } else {
        ::core::result::Result::Err(())
    }
}

/// Combinators written out as `match`es on the runtime's split, by absolute paths.
#[derive_frule]
fn combinators(x: f64, k: f64) -> f64 {
    let r = checked_root(x).map(|r| k * r).and_then(|r| checked_root(r));
    let o = r.ok().map_or(0.0, |v| v * k);
    o + checked_root(-x).unwrap_or_else(|_| k)
}

fn main() {
    let d = combinators_frule(fwdad::Dual::new(4.0, 1.0), fwdad::Dual::new(9.0, 0.0));
    assert_eq!(d.primal, combinators(4.0, 9.0));
    let x = [0.5, -1.0];
    let dx = [1.0, 0.0];
    let y = body_frule(
        fwdad::Dual::new(&x[..], &dx[..]),
        fwdad::Dual::new(2.0, 0.0),
    );
    assert_eq!(y.primal, body(&x, 2.0));
}
