//! What the eighth round of crates annotated verbatim found (libm 0.2.16,
//! `tests/libm_verbatim.rs`), in small programs written as libm's authors write them,
//! against closed forms and central differences, in one direction, in batches and at second
//! order; primals bit for bit.
//!
//! - A silent zero derivative: a float taken apart through its bits and rebuilt with
//!   `f64::from_bits` (libm's `log`) carried no tangent. Now an error at `f64::from_bits`
//!   (UI test `float-from-bits-of-input`); bits read to branch, and floats built from
//!   integers that no bits of a differentiated value gave (`2^k`), still work (below).
//! - A macro the macro does not know, naming only locals that carry no derivative, whose
//!   value is a float (libm's `i!(ATANHI, id as usize)`, an unchecked table read) was
//!   rejected as a value that would carry a derivative: it is a constant.
//! - Such a macro as a statement whose value is dropped (`force_eval!(x as f32);`) was
//!   rejected for its float value; and one expanding to statements under `#[cfg]`s
//!   (`select_implementation! { name: .., args: x, }`) was emitted as an expression and did
//!   not find `x`, taken for a path segment after `args:`.
//!
//! And special 0.11.4 (`tests/special_verbatim.rs`):
//! - `#[derive_frule] impl Tr for $kind` inside a `macro_rules!` taking `$kind:ty`
//!   (`implement!(f64)`): the type arrives in an invisible group, and the macro said it
//!   supports `impl` blocks of a named type. Such groups around a path are read through.
//! - A trait of the user's named like one of `std`'s (special's `trait Error`) implemented
//!   for `f64`: taken for `std::error::Error`, the `impl` was rejected, then got no rules
//!   (a panic at run time: "`f64` implements `Error` without `#[derive_frule]`"). A trait
//!   implemented for `f64` without generic arguments is the user's (the orphan rule).
//!
//! And rust-kepler-solver 0.1.0 (`tests/kepler_solver_verbatim.rs`):
//! - A method's float field read in a long expression before a loop
//!   (`EllipseSolver::solve`'s seed, `4.0 * self.eccentricity * m * (PI - m) / (..)`):
//!   the field's type unknown, its arithmetic went through the operators of a user type,
//!   and rustc could not infer the types (E0282, E0308 naming the rule's mode). A named
//!   field the file declares `f64` (every field of that name) is now read as a float.

#![allow(
    unexpected_cfgs,
    clippy::approx_constant,
    clippy::excessive_precision,
    clippy::needless_range_loop
)]

mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;
use fwdad::prelude::*;

/// libm's unchecked table read (its `math/mod.rs`, in release builds).
macro_rules! table {
    ($array:expr, $index:expr) => {
        unsafe { *$array.get_unchecked($index) }
    };
}

/// libm's `force_eval!`: evaluates an expression for its floating-point flags.
macro_rules! force_eval {
    ($e:expr) => {
        unsafe { ::core::ptr::read_volatile(&$e) }
    };
}

/// A dispatch to an architecture's implementation under a `cfg` that is off here, as
/// libm's `select_implementation!` writes it.
macro_rules! select_arch {
    (name: $fn_name:ident, use_arch: $cfg:meta, args: $($arg:ident),+ ,) => {
        #[cfg($cfg)]
        if true {
            return arch::$fn_name($($arg),+);
        }
    };
}

const HI: [f64; 3] = [0.0, 0.4636476090008061, 0.7853981633974483];

/// atan's argument reduction by a table: atan(x) = atan(c) + atan((x − c)/(1 + c x)), the
/// constant read through the macro with an integer index.
#[fwdad::derive_frule]
fn atan_reduced(x: f64) -> f64 {
    let id: i32 = if x < 0.3 {
        0
    } else if x < 0.75 {
        1
    } else {
        2
    };
    let c = [0.0, 0.5, 1.0][id as usize];
    let t = (x - c) / (1.0 + c * x);
    table!(HI, id as usize) + t.atan()
}

/// The exponential by a reduction x = k ln 2 + r and a scaling by `2^k` built from bits
/// (a step function of `x`), after a dispatch that is off and a `force_eval!` statement.
#[fwdad::derive_frule]
fn exp_scaled(x: f64) -> f64 {
    select_arch! {
        name: exp_x87,
        use_arch: x86_no_sse,
        args: x,
    }
    let k = (x * std::f64::consts::LOG2_E).round() as i32;
    if k < -1000 {
        force_eval!(x as f32);
        return 0.0;
    }
    force_eval!(x * 0.5);
    let r = x - k as f64 * std::f64::consts::LN_2;
    let scale = f64::from_bits(((0x3ff + k) as u64) << 52);
    r.exp() * scale
}

/// The sign read from the bits to branch (libm's `atan2` and `exp` read their argument's
/// high word so).
#[fwdad::derive_frule]
fn odd_cube_root(x: f64) -> f64 {
    let hx = (x.to_bits() >> 32) as u32;
    let sign = hx >> 31;
    let ax = if sign != 0 { -x } else { x };
    let y = ax.cbrt();
    if sign != 0 {
        -y
    } else {
        y
    }
}

#[test]
fn a_macro_of_constants_is_a_constant() {
    for x in [0.1, 0.5, 0.9, 2.0] {
        let (v, d) = derivative(atan_reduced {}, x);
        assert_eq!(v.to_bits(), atan_reduced(x).to_bits());
        assert_close(d, 1.0 / (1.0 + x * x), 1e-14, &format!("atan'({x})"));
        check_widths!(
            bind(atan_reduced {}, (Var(0),)),
            |p: &[f64]| atan_reduced(p[0]),
            [x]
        );
    }
}

#[test]
fn macros_whose_values_are_dropped() {
    for x in [-3.0, -0.2, 0.7, 5.5] {
        let (v, d) = derivative(exp_scaled {}, x);
        assert_eq!(v.to_bits(), exp_scaled(x).to_bits());
        assert_close(d, v, 1e-14, &format!("exp'({x}) = exp({x})"));
        check_widths!(
            bind(exp_scaled {}, (Var(0),)),
            |p: &[f64]| exp_scaled(p[0]),
            [x]
        );
    }
    assert_eq!(derivative(exp_scaled {}, -800.0), (0.0, 0.0));
}

#[test]
fn bits_read_to_branch() {
    for x in [-8.0, -0.3, 0.4, 27.0] {
        let (v, d) = derivative(odd_cube_root {}, x);
        assert_eq!(v.to_bits(), odd_cube_root(x).to_bits());
        let want = 1.0 / (3.0 * v * v);
        assert_close(d, want, 1e-14, &format!("cbrt'({x})"));
        check_widths!(
            bind(odd_cube_root {}, (Var(0),)),
            |p: &[f64]| odd_cube_root(p[0]),
            [x]
        );
    }
}

/// special's layout: an extension trait on floats, its `impl` written by a `macro_rules!`
/// for each float type, the type a `ty` fragment; the trait named like `std`'s `Error`.
#[fwdad::derive_frule]
pub trait Error {
    fn logit(self) -> Self;
    fn odds(self) -> Self;
}

macro_rules! implement {
    ($kind:ty) => {
        #[fwdad::derive_frule]
        impl Error for $kind {
            fn logit(self) -> Self {
                let w: $kind = self / (1.0 - self);
                w.ln()
            }
            fn odds(self) -> Self {
                self / (1.0 as $kind - self)
            }
        }
    };
}

implement!(f64);

#[fwdad::derive_frule]
fn log_odds(p: f64, q: f64) -> f64 {
    p.logit() - q.odds()
}

#[test]
fn impls_written_by_a_macro_for_a_trait_named_like_std() {
    for (p, q) in [(0.2, 0.4), (0.5, 0.1), (0.9, 0.75)] {
        let (v, g) = gradient(bind(log_odds {}, (Var(0), Var(1))), &[p, q]);
        assert_eq!(v.to_bits(), log_odds(p, q).to_bits());
        assert_close(g[0], 1.0 / (p * (1.0 - p)), 1e-14, "∂ logit");
        assert_close(g[1], -1.0 / ((1.0 - q) * (1.0 - q)), 1e-14, "∂ odds");
        check_widths!(
            bind(log_odds {}, (Var(0), Var(1))),
            |v: &[f64]| log_odds(v[0], v[1]),
            [p, q]
        );
    }
}

/// Kepler's equation by Newton's method from a seed that reads the field in a long
/// expression, as rust-kepler-solver's `EllipseSolver::solve` does.
#[derive(Debug, Clone, fwdad::Differentiable)]
pub struct Orbit {
    eccentricity: f64,
}

#[fwdad::derive_frule]
impl Orbit {
    pub fn anomaly(&self, m: f64) -> f64 {
        let pi = std::f64::consts::PI;
        let mut e = m
            + (0.999_999 * 4.0 * self.eccentricity * m * (pi - m))
                / (8.0 * self.eccentricity * m
                    + 4.0 * self.eccentricity * (self.eccentricity - pi)
                    + pi.powi(2));
        loop {
            let d = (m - e + self.eccentricity * e.sin()) / (1.0 - self.eccentricity * e.cos());
            if d.abs() < 1e-14 {
                break;
            }
            e += d;
        }
        e
    }
}

#[fwdad::derive_frule]
fn anomaly_of(ecc: f64, m: f64) -> f64 {
    Orbit { eccentricity: ecc }.anomaly(m)
}

#[test]
fn a_float_field_in_a_long_expression() {
    for (ecc, m) in [(0.1, 0.5), (0.6, 2.0), (0.9, 4.0)] {
        let (v, g) = gradient(bind(anomaly_of {}, (Var(0), Var(1))), &[ecc, m]);
        assert_eq!(v.to_bits(), anomaly_of(ecc, m).to_bits());
        let denom = 1.0 - ecc * v.cos();
        assert_close(g[0], v.sin() / denom, 1e-10, "∂E/∂e");
        assert_close(g[1], 1.0 / denom, 1e-10, "∂E/∂M");
    }
}
