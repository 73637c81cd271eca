//! What the tenth corpus (libm 0.2.16's hyperbolic functions, ellip 1.2.3's Carlson
//! integrals, utm 0.1.6) found, in small programs, each checked in every mode against
//! central differences and closed forms.

mod common;

use common::modes::assert_close;
use core::mem::swap;
use fwdad::prelude::*;

/// The absolute value by clearing the sign bit, as C ports write `fabs` inline (libm's
/// `sinh`, `cosh`, `tanh`, `asinh`, `atanh`). Was: `` `f64::from_bits` rebuilds a float
/// from the bits of a value that depends on the differentiated inputs ``; now it is
/// `x.copysign(1.0)`, the same float bit for bit.
#[derive_frule]
fn softened_norm(x: f64, k: f64) -> f64 {
    let a = f64::from_bits(x.to_bits() & 0x7fff_ffff_ffff_ffff);
    k * a * a.sqrt()
}

/// The same through a mutable integer (`ui &= !1 / 2`), read again for a branch, with the
/// sign put back from the bit (an odd function of `x`).
#[derive_frule]
fn odd_cube_root_like(x: f64) -> f64 {
    let mut ui: u64 = f64::to_bits(x);
    let negative = ui >> 63 != 0;
    ui &= !1 / 2;
    let a = f64::from_bits(ui);
    let w = (ui >> 32) as u32;
    let t = if w < 0x3ff00000 {
        a * (1.0 + 0.25 * a)
    } else {
        a.sqrt() + 0.25
    };
    if negative {
        -t
    } else {
        t
    }
}

/// The mask written as `(!0) >> 1` and `-1i64 as u64 >> 1`.
#[derive_frule]
fn masks(p: &[f64]) -> f64 {
    let a = f64::from_bits(p[0].to_bits() & ((!0) >> 1));
    let b = f64::from_bits(p[1].to_bits() & (-1i64 as u64 >> 1));
    a * b + p[2]
}

/// `f32`'s, `x |x|`.
#[derive_frule]
fn signed_square(x: f32) -> f32 {
    f32::from_bits(x.to_bits() & 0x7fff_ffff) * x
}

/// `swap` imported by `use core::mem::swap;` and called by its name, as ellip 1.2.3's
/// Carlson integrals order their arguments (`swap(&mut xn, &mut zn)`). Was: `` `swap` is a
/// function of the crate `core`, which has no forward rules ``.
#[derive_frule]
fn agm_gap(x: f64, y: f64) -> f64 {
    let mut a = x;
    let mut b = y;
    if a < b {
        swap(&mut a, &mut b);
    }
    for _ in 0..4 {
        let t = (a * b).sqrt();
        a = 0.5 * (a + b);
        b = t;
    }
    a - b + x * 1e-3
}

#[test]
fn swap_imported_from_core() {
    for (x, y) in [(2.0, 0.5), (0.5, 2.0), (1.5, 1.2)] {
        crate::check_modes!(
            bind(agm_gap {}, (Var(0), Var(1))),
            |p: &[f64]| agm_gap(p[0], p[1]),
            [x, y]
        );
    }
}

#[test]
fn the_absolute_value_by_the_sign_bit() {
    for (x, k) in [(1.5, 2.0), (-0.7, 0.3), (-3.0, 1.0)] {
        crate::check_modes!(
            bind(softened_norm {}, (Var(0), Var(1))),
            |p: &[f64]| softened_norm(p[0], p[1]),
            [x, k]
        );
        // d/dx k |x|^{3/2} = 1.5 k |x|^{1/2} sign x.
        let (v, d) = derivative(bind(softened_norm {}, (Var(0), k)), x);
        assert_eq!(v.to_bits(), softened_norm(x, k).to_bits());
        assert_close(
            d,
            1.5 * k * x.abs().sqrt() * x.signum(),
            1e-15,
            "d/dx k|x|^1.5",
        );
    }
    for x in [0.3, -0.3, 0.9, -2.0, 5.0] {
        crate::check_modes!(
            bind(odd_cube_root_like {}, (Var(0),)),
            |p: &[f64]| odd_cube_root_like(p[0]),
            [x]
        );
    }
    // At ±0 the bits' branch is `x` at +0 and `−x` at −0, and the sign goes back from the
    // same bit: slope 1 both ways, the odd function's own.
    for x in [0.0, -0.0] {
        let (v, d) = derivative(odd_cube_root_like {}, x);
        assert_eq!(v.to_bits(), odd_cube_root_like(x).to_bits());
        assert_eq!(d, 1.0, "slope at {x}");
    }
    for p in [[0.5, -2.0, 1.25], [-1.5, 0.75, -0.5]] {
        crate::check_modes!(masks {}, masks, p);
    }
    for x in [1.5f32, -0.25, -3.0] {
        // d/dx x|x| = 2|x|.
        let (v, d) = signed_square_frule(Dual::new(x, 1.0f32)).into_parts();
        assert_eq!(v.to_bits(), signed_square(x).to_bits());
        assert_eq!(d, 2.0 * x.abs(), "d/dx x|x| at {x}");
    }
}
