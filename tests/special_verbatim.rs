//! special 0.11.4 (Apache-2.0 OR MIT, <https://github.com/stainless-steel/special>, crates.io
//! source; Copyright the special developers, Ivan Ukhov and others): `src/beta.rs` (the
//! regularised incomplete beta function by Algorithm AS 63, its inverse by AS 64 and AS 109
//! with Newton steps, ln B) and `src/error.rs` (erf, erfc and the inverse error function
//! by a polynomial and one Halley step), whole but their tests, with `#[fwdad::derive_frule]`
//! added on each trait and on each `impl` that the crate's `macro_rules! implement` writes
//! for `f32` and `f64` (`implement!(f64);`; not for `f32`, see below).
//!
//! What the files use of the rest of the crate is its public API here: `crate::Gamma` and
//! `crate::primitive::Primitive` are `special`'s own (`Primitive::erf` is libm's `erf`,
//! `ln_gamma` libm's `lgamma_r`), and their methods get rules by hand, as a user of the
//! crate gives them (`#[fwdad::primitive(.., method)]`, module `rules`, one `use` added in
//! each file). Two lines are edited: `error` and `compl_error` call `Primitive::erf(self)`
//! and `Primitive::erfc(self)` through the trait's path, which `#[derive_frule]` takes for
//! a type's associated function (rustc: ``expected a type, found a trait``); they read
//! `self.erf()` and `self.erfc()`, the same methods. `src/gamma.rs` itself is not annotated: its `digamma` and `trigamma` evaluate
//! their series through the crate's `evaluate_polynomial!` macro, whose value carries the
//! derivative and which `#[derive_frule]` cannot see into (docs/limits.md, "Macros whose
//! value would carry a derivative").
//!
//! The derivatives are checked against closed forms evaluated with the published crate
//! (d erf⁻¹/dy = √π/2 · exp(erf⁻¹(y)²), ∂I/∂x = x^(p−1)(1−x)^(q−1)/B(p, q), ∂ ln B/∂p =
//! ψ(p) − ψ(p + q), the inverse's slope 1/∂I/∂x) and central differences of the published
//! crate, in one direction, in batches and at second order; primals bit for bit.
//!
//! special's licence is Apache-2.0 OR MIT (its `LICENSE.md`).

#![allow(
    unstable_name_collisions,
    clippy::excessive_precision,
    clippy::needless_range_loop
)]

mod common;

/// `special`'s private `primitive` module, whose trait the crate re-exports: the copied
/// files reach it by their own path.
mod primitive {
    pub use special::Primitive;
}

/// `src/gamma.rs`'s trait, the published one (see above).
use special::Gamma;

/// The rules of `special`'s methods that the copied files call, each the published
/// function: erf' = 2/√π e^(−x²), erfc' = −erf', (ln Γ)' = ψ.
pub mod rules {
    use fwdad::prelude::*;
    use fwdad::{NoTangent, ScalarTangent};

    #[fwdad::primitive(d = core::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp(), method)]
    pub fn erf(x: f64) -> f64 {
        special::Primitive::erf(x)
    }

    #[fwdad::primitive(d = -core::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp(), method)]
    pub fn erfc(x: f64) -> f64 {
        special::Primitive::erfc(x)
    }

    /// ln Γ and its sign, `special`'s (libm's `lgamma_r`); the tangent that of Lanczos'
    /// approximation (g = 7, nine terms) evaluated on the dual, which holds in every mode.
    #[fwdad::primitive(rule = crate::rules::ln_gamma_rule, method)]
    pub fn ln_gamma(x: f64) -> (f64, i32) {
        special::Gamma::ln_gamma(x)
    }

    pub fn ln_gamma_rule<T: ScalarTangent<f64>>(
        x: Dual<f64, T>,
    ) -> Dual<(f64, i32), (T, NoTangent)> {
        let (v, sign) = special::Gamma::ln_gamma(x.primal);
        Dual::new((v, sign), (lanczos_ln_gamma(x).tangent, NoTangent))
    }

    /// ln Γ(x) for x > ½ by Lanczos' series, generic over the float (so over duals).
    fn lanczos_ln_gamma<F: num_traits::Float>(x: F) -> F {
        const C: [f64; 9] = [
            0.99999999999980993,
            676.5203681218851,
            -1259.1392167224028,
            771.32342877765313,
            -176.61502916214059,
            12.507343278686905,
            -0.13857109526572012,
            9.9843695780195716e-6,
            1.5056327351493116e-7,
        ];
        let f = |c: f64| F::from(c).unwrap();
        let x = x - F::one();
        let t = x + f(7.5);
        let mut a = f(C[0]);
        for (i, &c) in C.iter().enumerate().skip(1) {
            a = a + f(c) / (x + f(i as f64));
        }
        f(0.5 * (2.0 * core::f64::consts::PI).ln()) + (x + f(0.5)) * t.ln() - t + a.ln()
    }
}

/// `src/beta.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
pub mod beta {
#![allow(clippy::manual_range_contains)]
#![allow(unstable_name_collisions)]

#[allow(unused_imports)]
use crate::primitive::Primitive;
use crate::Gamma;
use crate::rules::*; // added: the rules of `special`'s methods (below)

/// Beta functions.
#[fwdad::derive_frule]
pub trait Beta {
    /// Compute the regularized incomplete beta function.
    ///
    /// `ln_beta` should be precomputed as `p.ln_beta(q)`.
    ///
    /// The code is based on a [C implementation][1] by John Burkardt. The
    /// original algorithm was published in Applied Statistics and is known as
    /// [Algorithm AS 63][2] and [Algorithm AS 109][3].
    ///
    /// [1]: http://people.sc.fsu.edu/~jburkardt/c_src/asa109/asa109.html
    /// [2]: http://www.jstor.org/stable/2346797
    /// [3]: http://www.jstor.org/stable/2346887
    fn inc_beta(self, p: Self, q: Self, ln_beta: Self) -> Self;

    /// Compute the inverse of the regularized incomplete beta function.
    ///
    /// `ln_beta` should be precomputed as `p.ln_beta(q)`.
    ///
    /// The code is based on a [C implementation][1] by John Burkardt. The
    /// original algorithm was published in Applied Statistics and is known as
    /// [Algorithm AS 64][2] and [Algorithm AS 109][3].
    ///
    /// [1]: http://people.sc.fsu.edu/~jburkardt/c_src/asa109/asa109.html
    /// [2]: http://www.jstor.org/stable/2346798
    /// [3]: http://www.jstor.org/stable/2346887
    fn inv_inc_beta(self, p: Self, q: Self, ln_beta: Self) -> Self;

    /// Compute the natural logarithm of the beta function.
    fn ln_beta(self, other: Self) -> Self;
}

#[rustfmt::skip]
macro_rules! implement { ($kind:ident) => { #[fwdad::derive_frule] impl Beta for $kind {
    fn inc_beta(self, mut p: Self, mut q: Self, ln_beta: Self) -> Self {
        // Algorithm AS 63
        // http://www.jstor.org/stable/2346797
        //
        // The function uses the method discussed by Soper (1921). If p is not
        // less than (p + q)x and the integral part of q + (1 - x)(p + q) is a
        // positive integer, say s, reductions are made up to s times “by parts”
        // using the recurrence relation
        //
        //                 Γ(p + q)
        // I(x, p, q) = ------------- x^p (1 - x)^(q - 1) + I(x, p + 1, q - 1)
        //              Γ(p + 1) Γ(q)
        //
        // and then reductions are continued by “raising p” with the recurrence
        // relation
        //
        //                             Γ(p + q)
        // I(x, p + s, q - s) = --------------------- x^(p + s) (1 - x)^(q - s)
        //                      Γ(p + s + 1) Γ(q - s)
        //
        //                    + I(x, p + s + 1, q - s)
        //
        // If s is not a positive integer, reductions are made only by “raising
        // p.” The process of reduction is terminated when the relative
        // contribution to the integral is not greater than the value of ACU. If
        // p is less than (p + q)x, I(1 - x, q, p) is first calculated by the
        // above procedure and then I(x, p, q) is obtained from the relation
        //
        // I(x, p, q) = 1 - I(1 - x, p, q).
        //
        // Soper (1921) demonstrated that the expansion of I(x, p, q) by “parts”
        // and “raising p” method as described above converges more rapidly than
        // any other series expansions.

        const ACU: $kind = 0.1e-14;

        let x = self;
        debug_assert!(x >= 0.0 && x <= 1.0 && p > 0.0 && q > 0.0);

        if x == 0.0 {
            return 0.0;
        }
        if x == 1.0 {
            return 1.0;
        }

        let mut psq = p + q;

        let pbase;
        let qbase;

        let mut temp;

        let flip = p < psq * x;
        if flip {
            pbase = 1.0 - x;
            qbase = x;
            temp = q;
            q = p;
            p = temp;
        } else {
            pbase = x;
            qbase = 1.0 - x;
        }

        let mut term = 1.0;
        let mut ai = 1.0;

        let mut rx;
        let mut ns = (q + qbase * psq) as isize;
        if ns == 0 {
            rx = pbase;
        } else {
            rx = pbase / qbase;
        }

        let mut a = 1.0;
        temp = q - ai;

        loop {
            term = term * temp * rx / (p + ai);

            a += term;

            temp = if term < 0.0 { -term } else { term };
            if temp <= ACU && temp <= ACU * a {
                break;
            }

            ai += 1.0;
            ns -= 1;

            if 0 < ns {
                temp = q - ai;
            } else if ns == 0 {
                temp = q - ai;
                rx = pbase;
            } else {
                temp = psq;
                psq += 1.0;
            }
        }

        // Remark AS R19 and Algorithm AS 109
        // http://www.jstor.org/stable/2346887
        a = a * (p * pbase.ln() + (q - 1.0) * qbase.ln() - ln_beta).exp() / p;

        if flip {
            1.0 - a
        } else {
            a
        }
    }

    fn inv_inc_beta(self, mut p: Self, mut q: Self, ln_beta: Self) -> Self {
        // Algorithm AS 64
        // http://www.jstor.org/stable/2346798
        //
        // An approximation x₀ to x if found from (cf. Scheffé and Tukey, 1944)
        //
        // 1 + x₀   4p + 2q - 2
        // ------ = -----------
        // 1 - x₀      χ²(α)
        //
        // where χ²(α) is the upper α point of the χ² distribution with 2q
        // degrees of freedom and is obtained from Wilson and Hilferty’s
        // approximation (cf. Wilson and Hilferty, 1931)
        //
        // χ²(α) = 2q (1 - 1 / (9q) + y(α) sqrt(1 / (9q)))^3,
        //
        // y(α) being Hastings’ approximation (cf. Hastings, 1955) for the upper
        // α point of the standard normal distribution. If χ²(α) < 0, then
        //
        // x₀ = 1 - ((1 - α)q B(p, q))^(1 / q).
        //
        // Again if (4p + 2q - 2) / χ²(α) does not exceed 1, x₀ is obtained from
        //
        // x₀ = (αp B(p, q))^(1 / p).
        //
        // The final solution is obtained by the Newton–Raphson method from the
        // relation
        //
        //                    f(x[i - 1])
        // x[i] = x[i - 1] - ------------
        //                   f'(x[i - 1])
        //
        // where
        //
        // f(x) = I(x, p, q) - α.

        // Remark AS R83
        // http://www.jstor.org/stable/2347779
        const SAE: i32 = -30;
        const FPU: $kind = 1e-30; // 10^SAE

        let mut a = self;
        debug_assert!(a >= 0.0 && a <= 1.0 && p > 0.0 && q > 0.0);

        if a == 0.0 {
            return 0.0;
        }
        if a == 1.0 {
            return 1.0;
        }

        let mut x;
        let mut y;

        let flip = 0.5 < a;
        if flip {
            x = p;
            p = q;
            q = x;
            a = 1.0 - a;
        }

        x = (-(a * a).ln()).sqrt();
        y = x - (2.30753 + 0.27061 * x) / (1.0 + (0.99229 + 0.04481 * x) * x);

        if 1.0 < p && 1.0 < q {
            // Remark AS R19 and Algorithm AS 109
            // http://www.jstor.org/stable/2346887
            //
            // For p and q > 1, the approximation given by Carter (1947), which
            // improves the Fisher–Cochran formula, is generally better. For
            // other values of p and q en empirical investigation has shown that
            // the approximation given in AS 64 is adequate.
            let r = (y * y - 3.0) / 6.0;
            let s = 1.0 / (2.0 * p - 1.0);
            let t = 1.0 / (2.0 * q - 1.0);
            let h = 2.0 / (s + t);
            let w = y * (h + r).sqrt() / h - (t - s) * (r + 5.0 / 6.0 - 2.0 / (3.0 * h));
            x = p / (p + q * (2.0 * w).exp());
        } else {
            let mut t = 1.0 / (9.0 * q);
            t = 2.0 * q * (1.0 - t + y * t.sqrt()).powf(3.0);
            if t <= 0.0 {
                x = 1.0 - ((((1.0 - a) * q).ln() + ln_beta) / q).exp();
            } else {
                t = 2.0 * (2.0 * p + q - 1.0) / t;
                if t <= 1.0 {
                    x = (((a * p).ln() + ln_beta) / p).exp();
                } else {
                    x = 1.0 - 2.0 / (t + 1.0);
                }
            }
        }

        if x < 0.0001 {
            x = 0.0001;
        } else if 0.9999 < x {
            x = 0.9999;
        }

        // Remark AS R83
        // http://www.jstor.org/stable/2347779
        let e = (-5.0 / p / p - 1.0 / a.powf(0.2) - 13.0) as i32;
        let acu = if e > SAE { $kind::powi(10.0, e) } else { FPU };

        let mut tx;
        let mut yprev = 0.0;
        let mut sq = 1.0;
        let mut prev = 1.0;

        'outer: loop {
            // Remark AS R19 and Algorithm AS 109
            // http://www.jstor.org/stable/2346887
            y = x.inc_beta(p, q, ln_beta);
            y = (y - a) * (ln_beta + (1.0 - p) * x.ln() + (1.0 - q) * (1.0 - x).ln()).exp();

            // Remark AS R83
            // http://www.jstor.org/stable/2347779
            if y * yprev <= 0.0 {
                prev = if sq > FPU { sq } else { FPU };
            }

            // Remark AS R19 and Algorithm AS 109
            // http://www.jstor.org/stable/2346887
            let mut g = 1.0;
            loop {
                loop {
                    let adj = g * y;
                    sq = adj * adj;

                    if sq < prev {
                        tx = x - adj;
                        if 0.0 <= tx && tx <= 1.0 {
                            break;
                        }
                    }
                    g /= 3.0;
                }

                if prev <= acu || y * y <= acu {
                    x = tx;
                    break 'outer;
                }

                if tx != 0.0 && tx != 1.0 {
                    break;
                }

                g /= 3.0;
            }

            if tx == x {
                break;
            }

            x = tx;
            yprev = y;
        }

        if flip {
            1.0 - x
        } else {
            x
        }
    }

    fn ln_beta(self, other: Self) -> Self {
        debug_assert!(self > 0.0 && other > 0.0);
        self.ln_gamma().0 + other.ln_gamma().0 - (self + other).ln_gamma().0
    }
}}}

// Not `implement!(f32);`: the tests below check `f64`. (An `f32` local declared without
// a value, `let mut temp;`, which once kept `f32` out, has a dual since the thirteenth
// session: `tests/errors10_found.rs`.)
implement!(f64);

}

/// `src/error.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
pub mod error {
use crate::primitive::Primitive;
use crate::rules::*; // added: the rules of `special`'s methods (below)

/// Error functions.
#[fwdad::derive_frule]
pub trait Error {
    /// Compute the error function.
    fn error(self) -> Self;

    /// Compute the complementary error function.
    fn compl_error(self) -> Self;

    /// Compute the inverse of the error function.
    ///
    /// The code is based on a [C implementation][1] by Alijah Ahmed.
    ///
    /// [1]: https://scistatcalc.blogspot.com/2013/09/numerical-estimate-of-inverse-error.html
    fn inv_error(self) -> Self;
}

macro_rules! implement {
    ($kind:ty) => {
        #[fwdad::derive_frule]
        impl Error for $kind {
            #[inline]
            fn error(self) -> Self {
                // Edited: `Primitive::erf(self)` (docs/limits.md, test
                // `call-through-other-crates-trait-path`).
                self.erf()
            }

            #[inline]
            fn compl_error(self) -> Self {
                // Edited: `Primitive::erfc(self)`, likewise.
                self.erfc()
            }

            fn inv_error(self) -> Self {
                const SQRT_PI: $kind = 1.772453850905515881919427556567825376987457275391;

                let mut w: $kind = -((1.0 - self) * (1.0 + self)).ln();
                let mut p: $kind;

                if w < 5.0 {
                    w -= 2.5;
                    p = 2.81022636e-08;
                    p = 3.43273939e-07 + p * w;
                    p = -3.5233877e-06 + p * w;
                    p = -4.39150654e-06 + p * w;
                    p = 0.00021858087 + p * w;
                    p = -0.00125372503 + p * w;
                    p = -0.00417768164 + p * w;
                    p = 0.246640727 + p * w;
                    p = 1.50140941 + p * w;
                } else {
                    w = w.sqrt() - 3.0;
                    p = -0.000200214257;
                    p = 0.000100950558 + p * w;
                    p = 0.00134934322 + p * w;
                    p = -0.00367342844 + p * w;
                    p = 0.00573950773 + p * w;
                    p = -0.0076224613 + p * w;
                    p = 0.00943887047 + p * w;
                    p = 1.00167406 + p * w;
                    p = 2.83297682 + p * w;
                }

                let res_ra = p * self;

                let fx: Self = res_ra.error() - self;
                let df = 2.0 / SQRT_PI as $kind * (-(res_ra * res_ra)).exp();
                let d2f = -2.0 * res_ra * df;

                res_ra - (2.0 * fx * df) / ((2.0 * df * df) - (fx * d2f))
            }
        }
    };
}

// Not `implement!(f32);`: the tests below check `f64`. (An `f32` local declared without
// a value, `let mut temp;`, which once kept `f32` out, has a dual since the thirteenth
// session: `tests/errors10_found.rs`.)
implement!(f64);

}

pub use beta::Beta;
pub use error::Error;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;
use fwdad::prelude::*;

/// The regularised incomplete beta function of `x` at `(p, q)`, as a caller of the crate
/// writes it (ln B computed alongside, as the crate's docs ask).
#[fwdad::derive_frule]
fn beta_cdf(x: f64, p: f64, q: f64) -> f64 {
    x.inc_beta(p, q, p.ln_beta(q))
}

/// Its quantile: the inverse in `alpha`.
#[fwdad::derive_frule]
fn beta_quantile(alpha: f64, p: f64, q: f64) -> f64 {
    alpha.inv_inc_beta(p, q, p.ln_beta(q))
}

/// A probit link: the normal quantile through the inverse error function.
#[fwdad::derive_frule]
fn probit(u: f64) -> f64 {
    core::f64::consts::SQRT_2 * (2.0 * u - 1.0).inv_error()
}

/// The methods one by one, as callers write them.
#[fwdad::derive_frule]
fn inverse_erf(y: f64) -> f64 {
    y.inv_error()
}

#[fwdad::derive_frule]
fn erf_of(x: f64) -> f64 {
    x.error()
}

#[fwdad::derive_frule]
fn erfc_of(x: f64) -> f64 {
    x.compl_error()
}

#[fwdad::derive_frule]
fn regularised(x: f64, p: f64, q: f64, ln_beta: f64) -> f64 {
    x.inc_beta(p, q, ln_beta)
}

#[fwdad::derive_frule]
fn log_beta(p: f64, q: f64) -> f64 {
    p.ln_beta(q)
}

/// The published crate's.
fn published_cdf(x: f64, p: f64, q: f64) -> f64 {
    special::Beta::inc_beta(x, p, q, special::Beta::ln_beta(p, q))
}

fn published_quantile(alpha: f64, p: f64, q: f64) -> f64 {
    special::Beta::inv_inc_beta(alpha, p, q, special::Beta::ln_beta(p, q))
}

/// The beta density, ∂I/∂x.
fn density(x: f64, p: f64, q: f64) -> f64 {
    ((p - 1.0) * x.ln() + (q - 1.0) * (1.0 - x).ln() - special::Beta::ln_beta(p, q)).exp()
}

/// Shapes, none an integer: at an integer `q`, AS 63's series ends on a term that is
/// exactly zero (`temp = q - ai`), so its tail, zero in value, is not summed, and the
/// rule's ∂I/∂q is that of the finite sum, off by about 4e-5 relative at (0.2; 2, 3)
/// (docs/design.md, "Derivatives along the branch taken"; see `where_the_series_stops`).
const SHAPES: [(f64, f64); 5] = [
    (0.7, 1.6),
    (2.2, 3.4),
    (5.5, 1.3),
    (1.5, 12.5),
    (30.5, 40.5),
];

#[test]
fn inverse_error_function() {
    for y in [-0.999, -0.9, -0.5, -0.1, 0.05, 0.3, 0.7, 0.95, 0.9999] {
        let (w, d) = derivative(inverse_erf {}, y);
        let published = special::Error::inv_error(y);
        assert_eq!(w.to_bits(), published.to_bits(), "inv_error({y})");
        // (erf⁻¹)'(y) = √π/2 · exp(w²): the Halley step leaves the value accurate to about
        // 1e-15, its slope to a few 1e-10 near ±1.
        let want = core::f64::consts::PI.sqrt() / 2.0 * (w * w).exp();
        assert_close(d, want, 1e-9, &format!("inv_error'({y})"));
    }
    for x in [-2.0, -0.4, 0.0, 0.8, 3.0] {
        let (v, d) = derivative(erf_of {}, x);
        assert_eq!(v.to_bits(), special::Error::error(x).to_bits());
        assert_close(
            d,
            2.0 / core::f64::consts::PI.sqrt() * (-x * x).exp(),
            1e-15,
            "erf'",
        );
        let (v, d) = derivative(erfc_of {}, x);
        assert_eq!(v.to_bits(), special::Error::compl_error(x).to_bits());
        assert_close(
            d,
            -2.0 / core::f64::consts::PI.sqrt() * (-x * x).exp(),
            1e-15,
            "erfc'",
        );
    }
    for u in [0.1, 0.3, 0.5, 0.8, 0.95] {
        check_widths!(bind(probit {}, (Var(0),)), |p: &[f64]| probit(p[0]), [u]);
    }
}

#[test]
fn incomplete_beta_in_x_against_the_density() {
    for (p, q) in SHAPES {
        let lb = special::Beta::ln_beta(p, q);
        for x in [0.01, 0.1, 0.3, 0.5, 0.62, 0.8, 0.97] {
            let (v, d) = derivative(bind(regularised {}, (Var(0), p, q, lb)), x);
            assert_eq!(
                v.to_bits(),
                special::Beta::inc_beta(x, p, q, lb).to_bits(),
                "I({x}; {p}, {q})"
            );
            let want = density(x, p, q);
            assert!(
                (d - want).abs() <= 1e-10 * want.max(1.0),
                "∂I/∂x at ({x}; {p}, {q}) = {d}, density {want}"
            );
        }
    }
}

#[test]
fn ln_beta_against_digamma() {
    use special::Gamma;
    for (p, q) in SHAPES {
        let (v, g) = gradient(bind(log_beta {}, (Var(0), Var(1))), &[p, q]);
        assert_eq!(v.to_bits(), special::Beta::ln_beta(p, q).to_bits());
        let s = (p + q).digamma();
        assert_close(
            g[0],
            p.digamma() - s,
            1e-12,
            &format!("∂ ln B/∂p at ({p}, {q})"),
        );
        assert_close(
            g[1],
            q.digamma() - s,
            1e-12,
            &format!("∂ ln B/∂q at ({p}, {q})"),
        );
    }
}

#[test]
fn incomplete_beta_in_every_mode() {
    for (p, q) in SHAPES {
        for x in [0.2, 0.55, 0.9] {
            let y = beta_cdf(x, p, q);
            assert_eq!(y.to_bits(), published_cdf(x, p, q).to_bits());
            // The shapes' partials against central differences of the published crate.
            let (_, g) = gradient(bind(beta_cdf {}, (Var(0), Var(1), Var(2))), &[x, p, q]);
            let fd = fd_gradient(&|v: &[f64]| published_cdf(v[0], v[1], v[2]), &[x, p, q]);
            for k in 0..3 {
                assert_close(g[k], fd[k], 1e-6, &format!("∂I/∂{k} at ({x}; {p}, {q})"));
            }
            check_widths!(
                bind(beta_cdf {}, (Var(0), Var(1), Var(2))),
                |v: &[f64]| beta_cdf(v[0], v[1], v[2]),
                [x, p, q]
            );
        }
    }
}

#[test]
fn quantile_against_the_inverse_slope() {
    for (p, q) in SHAPES {
        for alpha in [0.05, 0.3, 0.5, 0.75, 0.95] {
            let (x, d) = derivative(bind(beta_quantile {}, (Var(0), p, q)), alpha);
            assert_eq!(x.to_bits(), published_quantile(alpha, p, q).to_bits());
            // The Newton iterations' tangent converges with the iterate: the slope of the
            // inverse, 1/∂I/∂x, to the iteration's own accuracy.
            let want = 1.0 / density(x, p, q);
            assert_close(d, want, 1e-6, &format!("∂x/∂α at ({alpha}; {p}, {q})"));
        }
    }
    check_widths!(
        bind(beta_quantile {}, (Var(0), Var(1), Var(2))),
        |v: &[f64]| beta_quantile(v[0], v[1], v[2]),
        [0.4, 2.2, 3.4]
    );
}

/// At an integer `q` the series stops on an exact zero term: the value is exact, and so
/// are the derivatives in `x` and `p` (the finite sum's), but ∂I/∂q misses the tail whose
/// terms vanish there with nonzero slopes (the published crate's central differences step
/// off the integer).
#[test]
fn where_the_series_stops() {
    let (x, p, q) = (0.2, 2.0, 3.0);
    let (v, g) = gradient(bind(beta_cdf {}, (Var(0), Var(1), Var(2))), &[x, p, q]);
    assert_eq!(v.to_bits(), published_cdf(x, p, q).to_bits());
    let fd = fd_gradient(&|v: &[f64]| published_cdf(v[0], v[1], v[2]), &[x, p, q]);
    assert_close(g[0], density(x, p, q), 1e-12, "∂I/∂x at an integer q");
    assert_close(g[1], fd[1], 1e-6, "∂I/∂p at an integer q");
    let off = (g[2] - fd[2]).abs() / fd[2].abs();
    assert!(
        off > 1e-5 && off < 1e-4,
        "∂I/∂q at q = 3: {} vs {}",
        g[2],
        fd[2]
    );
}
