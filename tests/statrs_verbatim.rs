//! statrs 0.19.1's special functions (`src/function/`), every function annotated with
//! `#[derive_frule]` and nothing else changed, as the crate writes them (MIT licensed,
//! <https://github.com/statrs-dev/statrs>): the error function and its inverse by rational
//! approximations over coefficient tables, the gamma and beta families with continued
//! fractions and series, digamma, the exponential integral, harmonic numbers, logistic
//! functions and the smoothing kernels. The derivatives are checked against identities
//! that hold independently of the code (d erf/dx = 2/√π e^(−x²), d ln Γ/dx = ψ, the
//! densities of the regularised incomplete functions, ...), evaluated with the published
//! crate, and against central differences; primals bit for bit against the crate.
//!
//! Only the crate's `#[cfg(test)]` modules are left out; `crate::consts` and `crate::prec`
//! are the crate's own modules, copied verbatim too.

// statrs' `#[cfg(not(feature = "std"))]` imports, for a feature this crate does not have.
#![allow(unexpected_cfgs)]

#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
pub mod consts {
    //! Defines mathematical expressions commonly used when computing distribution
    //! values as constants

    /// Constant value for `sqrt(2 * pi)`
    pub const SQRT_2PI: f64 = 2.5066282746310005024157652848110452530069867406099;

    /// Constant value for `ln(pi)`
    pub const LN_PI: f64 = 1.1447298858494001741434273513530587116472948129153;

    /// Constant value for `ln(sqrt(2 * pi))`
    pub const LN_SQRT_2PI: f64 = 0.91893853320467274178032973640561763986139747363778;

    /// Constant value for `ln(sqrt(2 * pi * e))`
    pub const LN_SQRT_2PIE: f64 = 1.4189385332046727417803297364056176398613974736378;

    /// Constant value for `ln(2 * sqrt(e / pi))`
    pub const LN_2_SQRT_E_OVER_PI: f64 = 0.6207822376352452223455184457816472122518527279025978;

    /// Constant value for `2 * sqrt(e / pi)`
    pub const TWO_SQRT_E_OVER_PI: f64 = 1.8603827342052657173362492472666631120594218414085755;

    /// Constant value for Euler-Masheroni constant `lim(n -> inf) { sum(k=1 -> n)
    /// { 1/k - ln(n) } }`
    pub const EULER_MASCHERONI: f64 =
        0.5772156649015328606065120900824024310421593359399235988057672348849;
}

#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
pub mod prec {
    #![allow(unused_macros, unused_imports)]
    //! Provides utility functions for working with floating point precision.
    //!
    //! This module is intended for internal use within the `statrs` crate to ensure consistent
    //! precision checking across all statistical computations. While it is currently public
    //! for historical reasons, it will be made private in a future breaking release.
    //!
    //! # Usage
    //!
    //! The module provides three main types of precision checks:
    //!
    //! 1. Absolute difference checks (`abs_diff_eq!`) - Use when comparing values that should
    //!    be close in absolute terms, e.g., when checking if a value is close to zero
    //!
    //! 2. Relative difference checks (`relative_eq!`) - Use when comparing values that scale
    //!    with the input, e.g., when comparing probability densities or statistical moments
    //!
    //! 3. ULPs (Units in Last Place) checks (`ulps_eq!`) - Use for comparing values that
    //!    should be close in terms of floating-point representation
    //!
    //! Each check type has both a non-asserting version (e.g., `abs_diff_eq!`) and an
    //! asserting version (e.g., `assert_abs_diff_eq!`).
    //!
    //! # Default Precision Levels
    //!
    //! The module defines default precision levels that are carefully chosen to balance
    //! correctness and performance:
    //!
    //! - `DEFAULT_RELATIVE_ACC`: 1e-14 for relative comparisons
    //! - `DEFAULT_EPS`: 1e-9 for absolute comparisons
    //! - `DEFAULT_ULPS`: 5 for ULPs comparisons
    //!
    //! These defaults should be used unless there is a specific reason to use different
    //! precision levels.
    //!
    //! # Module-Specific Precision
    //!
    //! Some modules may require different precision levels than the crate defaults. In such
    //! cases, the module should define its own precision constants using the same names as
    //! defined here (e.g., `MODULE_RELATIVE_ACC`, `MODULE_EPS`) to maintain consistency
    //! and searchability.
    //!
    //! # Deprecated Functionality
    //!
    //! The following items are deprecated and will be removed in a future release:
    //! - `almost_eq` function - Use `abs_diff_eq!` macro instead
    //! - `assert_almost_eq!` macro - Use `assert_abs_diff_eq!` macro instead

    /// Standard epsilon, maximum relative precision of IEEE 754 double-precision
    /// floating point numbers (64 bit) e.g. `2^-53`
    pub const F64_PREC: f64 = 0.00000000000000011102230246251565;

    /// Default accuracy for `f64`, equivalent to `0.0 * F64_PREC`
    pub const DEFAULT_F64_ACC: f64 = 0.0000000000000011102230246251565;

    /// Default and target relative accuracy for f64 operations
    pub const DEFAULT_RELATIVE_ACC: f64 = 1e-14;

    /// Default and target absolute accuracy for f64 operations
    pub const DEFAULT_EPS: f64 = 1e-9;

    /// Default and target ULPs accuracy for f64 operations
    pub const DEFAULT_ULPS: u32 = 5;

    /// Compares if two floats are close via `approx::abs_diff_eq`
    /// using a maximum absolute difference (epsilon) of `acc`.
    #[deprecated(since = "0.19.0", note = "Use abs_diff_eq! macro instead")]
    pub fn almost_eq(a: f64, b: f64, acc: f64) -> bool {
        use approx::AbsDiffEq;
        if a.is_infinite() && b.is_infinite() {
            return a == b;
        }
        a.abs_diff_eq(&b, acc)
    }

    /// Compares if two floats are close via `prec::relative_eq!`
    /// Updates first argument to value of second argument
    pub(crate) fn convergence(x: &mut f64, x_new: f64) -> bool {
        let res = relative_eq!(*x, x_new);
        *x = x_new;
        res
    }

    macro_rules! redefine_one_opt_approx_macro {
        (
            $approx_macro:ident,
            { epsilon: $default_eps:expr }
        ) => {
            macro_rules! $approx_macro {
                // Caller provides an override for epsilon.
                ($a:expr, $b:expr, epsilon = $user_eps:expr) => {
                    approx::$approx_macro!($a, $b, epsilon = $user_eps)
                };
                // No override: use default.
                ($a:expr, $b:expr) => {
                    approx::$approx_macro!($a, $b, epsilon = $default_eps)
                };
            }
        };
    }

    macro_rules! redefine_two_opt_approx_macro {
        (
            $approx_macro:ident,
            { epsilon: $default_eps:expr, $second_key:ident: $default_second:expr }
        ) => {
            macro_rules! $approx_macro {
                // Caller provides both options.
                ($a:expr, $b:expr, epsilon = $user_eps:expr, $second_key = $user_second:expr) => {
                    approx::$approx_macro!($a, $b, epsilon = $user_eps, $second_key = $user_second)
                };
                // Caller provides epsilon only; use default for second.
                ($a:expr, $b:expr, epsilon = $user_eps:expr) => {
                    approx::$approx_macro!($a, $b, epsilon = $user_eps, $second_key = $default_second)
                };
                // Caller provides the second option only; use default for epsilon.
                ($a:expr, $b:expr, $second_key = $user_second:expr) => {
                    approx::$approx_macro!($a, $b, epsilon = $default_eps, $second_key = $user_second)
                };
                // Caller provides neither: use both defaults.
                ($a:expr, $b:expr) => {
                    approx::$approx_macro!(
                        $a,
                        $b,
                        epsilon = $default_eps,
                        $second_key = $default_second
                    )
                };
            }
        };
    }
    mod macros {
        pub(crate) use redefine_one_opt_approx_macro;
        pub(crate) use redefine_two_opt_approx_macro;

        // Non-asserting wrappers:
        redefine_one_opt_approx_macro!(
            abs_diff_eq,
            { epsilon: crate::prec::DEFAULT_EPS }
        );
        redefine_two_opt_approx_macro!(
            relative_eq,
            { epsilon: crate::prec::DEFAULT_EPS, max_relative: crate::prec::DEFAULT_RELATIVE_ACC }
        );
        redefine_two_opt_approx_macro!(
            ulps_eq,
            { epsilon: crate::prec::DEFAULT_EPS, max_ulps: crate::prec::DEFAULT_ULPS }
        );

        pub(crate) use abs_diff_eq;
        pub(crate) use relative_eq;
        pub(crate) use ulps_eq;

        // Asserting wrappers:
        redefine_one_opt_approx_macro!(
            assert_abs_diff_eq,
            { epsilon: crate::prec::DEFAULT_EPS }
        );
        redefine_two_opt_approx_macro!(
            assert_relative_eq,
            { epsilon: crate::prec::DEFAULT_EPS, max_relative: crate::prec::DEFAULT_RELATIVE_ACC }
        );
        redefine_two_opt_approx_macro!(
            assert_ulps_eq,
            { epsilon: crate::prec::DEFAULT_EPS, max_ulps: crate::prec::DEFAULT_ULPS }
        );

        pub(crate) use assert_abs_diff_eq;
        pub(crate) use assert_relative_eq;
        pub(crate) use assert_ulps_eq;

        #[deprecated(since = "0.19.0", note = "Use assert_abs_diff_eq! macro instead")]
        macro_rules! assert_almost_eq {
            ($a:expr, $b:expr, $eps:expr $(,)?) => {
                approx::assert_abs_diff_eq!($a, $b, epsilon = $eps)
            };
        }
    }

    pub(crate) use macros::*;
}

pub mod function {
    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    pub mod beta {
        //! Provides the [beta](https://en.wikipedia.org/wiki/Beta_function) and related
        //! function
        //!
        //! This module sets the default precision more tightly than crate defaults for `DEFAULT_EPS`

        use crate::function::gamma;
        use crate::prec;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// sample case of module level precision
        const MODULE_EPS: f64 = 1e-15;

        /// Represents the errors that can occur when computing the natural logarithm
        /// of the beta function or the regularized lower incomplete beta function.
        #[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
        #[non_exhaustive]
        pub enum BetaFuncError {
            /// `a` is zero or less than zero.
            ANotGreaterThanZero,

            /// `b` is zero or less than zero.
            BNotGreaterThanZero,

            /// `x` is not in `[0, 1]`.
            XOutOfRange,
        }

        impl core::fmt::Display for BetaFuncError {
            fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                match self {
                    BetaFuncError::ANotGreaterThanZero => write!(f, "a is zero or less than zero"),
                    BetaFuncError::BNotGreaterThanZero => write!(f, "b is zero or less than zero"),
                    BetaFuncError::XOutOfRange => write!(f, "x is not in [0, 1]"),
                }
            }
        }

        impl core::error::Error for BetaFuncError {}

        /// Computes the natural logarithm
        /// of the beta function
        /// where `a` is the first beta parameter
        /// and `b` is the second beta parameter
        /// and `a > 0`, `b > 0`.
        ///
        /// # Panics
        ///
        /// if `a <= 0.0` or `b <= 0.0`
        #[fwdad::derive_frule]
        pub fn ln_beta(a: f64, b: f64) -> f64 {
            checked_ln_beta(a, b).unwrap()
        }

        /// Computes the natural logarithm
        /// of the beta function
        /// where `a` is the first beta parameter
        /// and `b` is the second beta parameter
        /// and `a > 0`, `b > 0`.
        ///
        /// # Errors
        ///
        /// if `a <= 0.0` or `b <= 0.0`
        #[fwdad::derive_frule]
        pub fn checked_ln_beta(a: f64, b: f64) -> Result<f64, BetaFuncError> {
            if a <= 0.0 {
                Err(BetaFuncError::ANotGreaterThanZero)
            } else if b <= 0.0 {
                Err(BetaFuncError::BNotGreaterThanZero)
            } else {
                Ok(gamma::ln_gamma(a) + gamma::ln_gamma(b) - gamma::ln_gamma(a + b))
            }
        }

        /// Computes the beta function
        /// where `a` is the first beta parameter
        /// and `b` is the second beta parameter.
        ///
        ///
        /// # Panics
        ///
        /// if `a <= 0.0` or `b <= 0.0`
        #[fwdad::derive_frule]
        pub fn beta(a: f64, b: f64) -> f64 {
            checked_beta(a, b).unwrap()
        }

        /// Computes the beta function
        /// where `a` is the first beta parameter
        /// and `b` is the second beta parameter.
        ///
        ///
        /// # Errors
        ///
        /// if `a <= 0.0` or `b <= 0.0`
        #[fwdad::derive_frule]
        pub fn checked_beta(a: f64, b: f64) -> Result<f64, BetaFuncError> {
            checked_ln_beta(a, b).map(|x| x.exp())
        }

        /// Computes the lower incomplete (unregularized) beta function
        /// `B(a,b,x) = int(t^(a-1)*(1-t)^(b-1),t=0..x)` for `a > 0, b > 0, 1 >= x >= 0`
        /// where `a` is the first beta parameter, `b` is the second beta parameter, and
        /// `x` is the upper limit of the integral
        ///
        /// # Panics
        ///
        /// If `a <= 0.0`, `b <= 0.0`, `x < 0.0`, or `x > 1.0`
        #[fwdad::derive_frule]
        pub fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
            checked_beta_inc(a, b, x).unwrap()
        }

        /// Computes the lower incomplete (unregularized) beta function
        /// `B(a,b,x) = int(t^(a-1)*(1-t)^(b-1),t=0..x)` for `a > 0, b > 0, 1 >= x >= 0`
        /// where `a` is the first beta parameter, `b` is the second beta parameter, and
        /// `x` is the upper limit of the integral
        ///
        /// # Errors
        ///
        /// If `a <= 0.0`, `b <= 0.0`, `x < 0.0`, or `x > 1.0`
        #[fwdad::derive_frule]
        pub fn checked_beta_inc(a: f64, b: f64, x: f64) -> Result<f64, BetaFuncError> {
            checked_beta_reg(a, b, x).and_then(|x| checked_beta(a, b).map(|y| x * y))
        }

        /// Computes the regularized lower incomplete beta function
        /// `I_x(a,b) = 1/Beta(a,b) * int(t^(a-1)*(1-t)^(b-1), t=0..x)`
        /// `a > 0`, `b > 0`, `1 >= x >= 0` where `a` is the first beta parameter,
        /// `b` is the second beta parameter, and `x` is the upper limit of the
        /// integral.
        ///
        /// # Panics
        ///
        /// if `a <= 0.0`, `b <= 0.0`, `x < 0.0`, or `x > 1.0`
        #[fwdad::derive_frule]
        pub fn beta_reg(a: f64, b: f64, x: f64) -> f64 {
            checked_beta_reg(a, b, x).unwrap()
        }

        /// Computes the regularized lower incomplete beta function
        /// `I_x(a,b) = 1/Beta(a,b) * int(t^(a-1)*(1-t)^(b-1), t=0..x)`
        /// `a > 0`, `b > 0`, `1 >= x >= 0` where `a` is the first beta parameter,
        /// `b` is the second beta parameter, and `x` is the upper limit of the
        /// integral.
        ///
        /// # Errors
        ///
        /// if `a <= 0.0`, `b <= 0.0`, `x < 0.0`, or `x > 1.0`
        #[fwdad::derive_frule]
        pub fn checked_beta_reg(a: f64, b: f64, x: f64) -> Result<f64, BetaFuncError> {
            if a <= 0.0 {
                return Err(BetaFuncError::ANotGreaterThanZero);
            }

            if b <= 0.0 {
                return Err(BetaFuncError::BNotGreaterThanZero);
            }

            if !(0.0..=1.0).contains(&x) {
                return Err(BetaFuncError::XOutOfRange);
            }

            let bt = if x == 0.0 || crate::prec::ulps_eq!(x, 1.0, epsilon = MODULE_EPS) {
                0.0
            } else {
                (gamma::ln_gamma(a + b) - gamma::ln_gamma(a) - gamma::ln_gamma(b)
                    + a * x.ln()
                    + b * (1.0 - x).ln())
                .exp()
            };
            let symm_transform = x >= (a + 1.0) / (a + b + 2.0);
            let eps = prec::F64_PREC;
            let fpmin = f64::MIN_POSITIVE / eps;

            let mut a = a;
            let mut b = b;
            let mut x = x;
            if symm_transform {
                let swap = a;
                x = 1.0 - x;
                a = b;
                b = swap;
            }

            let qab = a + b;
            let qap = a + 1.0;
            let qam = a - 1.0;
            let mut c = 1.0;
            let mut d = 1.0 - qab * x / qap;

            if d.abs() < fpmin {
                d = fpmin;
            }
            d = 1.0 / d;
            let mut h = d;

            for m in 1..141 {
                let m = f64::from(m);
                let m2 = m * 2.0;
                let mut aa = m * (b - m) * x / ((qam + m2) * (a + m2));
                d = 1.0 + aa * d;

                if d.abs() < fpmin {
                    d = fpmin;
                }

                c = 1.0 + aa / c;
                if c.abs() < fpmin {
                    c = fpmin;
                }

                d = 1.0 / d;
                h = h * d * c;
                aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
                d = 1.0 + aa * d;

                if d.abs() < fpmin {
                    d = fpmin;
                }

                c = 1.0 + aa / c;

                if c.abs() < fpmin {
                    c = fpmin;
                }

                d = 1.0 / d;
                let del = d * c;
                h *= del;

                if (del - 1.0).abs() <= eps {
                    return if symm_transform {
                        Ok(1.0 - bt * h / a)
                    } else {
                        Ok(bt * h / a)
                    };
                }
            }

            if symm_transform {
                Ok(1.0 - bt * h / a)
            } else {
                Ok(bt * h / a)
            }
        }

        /// Computes the inverse of the regularized incomplete beta function
        // This code is based on the implementation in the ["special"][1] crate,
        // which in turn is based on a [C implementation][2] by John Burkardt. The
        // original algorithm was published in Applied Statistics and is known as
        // [Algorithm AS 64][3] and [Algorithm AS 109][4].
        //
        // [1]: https://docs.rs/special/0.8.1/
        // [2]: http://people.sc.fsu.edu/~jburkardt/c_src/asa109/asa109.html
        // [3]: http://www.jstor.org/stable/2346798
        // [4]: http://www.jstor.org/stable/2346887
        //
        // > Copyright 2014–2019 The special Developers
        // >
        // > Permission is hereby granted, free of charge, to any person obtaining a copy of
        // > this software and associated documentation files (the "Software"), to deal in
        // > the Software without restriction, including without limitation the rights to
        // > use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of
        // > the Software, and to permit persons to whom the Software is furnished to do so,
        // > subject to the following conditions:
        // >
        // > The above copyright notice and this permission notice shall be included in all
        // > copies or substantial portions of the Software.
        // >
        // > THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
        // > IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS
        // > FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR
        // > COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER
        // > IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
        // > CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
        #[fwdad::derive_frule]
        pub fn inv_beta_reg(mut a: f64, mut b: f64, mut x: f64) -> f64 {
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
            // degrees of freedom and is obtained from Wilson and Hilferty's
            // approximation (cf. Wilson and Hilferty, 1931)
            //
            // χ²(α) = 2q (1 - 1 / (9q) + y(α) sqrt(1 / (9q)))^3,
            //
            // y(α) being Hastings' approximation (cf. Hastings, 1955) for the upper
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
            let ln_beta = ln_beta(a, b);

            // Remark AS R83
            // http://www.jstor.org/stable/2347779
            const SAE: i32 = -30;
            const FPU: f64 = 1e-30; // 10^SAE

            debug_assert!((0.0..=1.0).contains(&x) && a > 0.0 && b > 0.0);

            if x == 0.0 {
                return 0.0;
            }
            if x == 1.0 {
                return 1.0;
            }

            let mut p;
            let mut q;

            let flip = 0.5 < x;
            if flip {
                p = a;
                a = b;
                b = p;
                x = 1.0 - x;
            }

            p = (-(x * x).ln()).sqrt();
            q = p - (2.30753 + 0.27061 * p) / (1.0 + (0.99229 + 0.04481 * p) * p);

            if 1.0 < a && 1.0 < b {
                // Remark AS R19 and Algorithm AS 109
                // http://www.jstor.org/stable/2346887
                //
                // For a and b > 1, the approximation given by Carter (1947), which
                // improves the Fisher–Cochran formula, is generally better. For
                // other values of a and b en empirical investigation has shown that
                // the approximation given in AS 64 is adequate.
                let r = (q * q - 3.0) / 6.0;
                let s = 1.0 / (2.0 * a - 1.0);
                let t = 1.0 / (2.0 * b - 1.0);
                let h = 2.0 / (s + t);
                let w = q * (h + r).sqrt() / h - (t - s) * (r + 5.0 / 6.0 - 2.0 / (3.0 * h));
                p = a / (a + b * (2.0 * w).exp());
            } else {
                let mut t = 1.0 / (9.0 * b);
                t = 2.0 * b * (1.0 - t + q * t.sqrt()).powf(3.0);
                if t <= 0.0 {
                    p = 1.0 - ((((1.0 - x) * b).ln() + ln_beta) / b).exp();
                } else {
                    t = 2.0 * (2.0 * a + b - 1.0) / t;
                    if t <= 1.0 {
                        p = (((x * a).ln() + ln_beta) / a).exp();
                    } else {
                        p = 1.0 - 2.0 / (t + 1.0);
                    }
                }
            }

            p = p.clamp(0.0001, 0.9999);

            // Remark AS R83
            // http://www.jstor.org/stable/2347779
            let e = (-5.0 / a / a - 1.0 / x.powf(0.2) - 13.0) as i32;
            let acu = if e > SAE { f64::powi(10.0, e) } else { FPU };

            let mut pnext;
            let mut qprev = 0.0;
            let mut sq = 1.0;
            let mut prev = 1.0;

            'outer: loop {
                // Remark AS R19 and Algorithm AS 109
                // http://www.jstor.org/stable/2346887
                q = beta_reg(a, b, p);
                q = (q - x) * (ln_beta + (1.0 - a) * p.ln() + (1.0 - b) * (1.0 - p).ln()).exp();

                // Remark AS R83
                // http://www.jstor.org/stable/2347779
                if q * qprev <= 0.0 {
                    prev = if sq > FPU { sq } else { FPU };
                }

                // Remark AS R19 and Algorithm AS 109
                // http://www.jstor.org/stable/2346887
                let mut g = 1.0;
                loop {
                    loop {
                        let adj = g * q;
                        sq = adj * adj;

                        if sq < prev {
                            pnext = p - adj;
                            if (0.0..=1.0).contains(&pnext) {
                                break;
                            }
                        }
                        g /= 3.0;
                    }

                    if prev <= acu || q * q <= acu {
                        p = pnext;
                        break 'outer;
                    }

                    if pnext != 0.0 && pnext != 1.0 {
                        break;
                    }

                    g /= 3.0;
                }

                if pnext == p {
                    break;
                }

                p = pnext;
                qprev = q;
            }

            if flip { 1.0 - p } else { p }
        }
    }

    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    pub mod erf {
        //! Provides the [error](https://en.wikipedia.org/wiki/Error_function) and
        //! related functions

        use crate::function::evaluate;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// `erf` calculates the error function at `x`.
        #[fwdad::derive_frule]
        pub fn erf(x: f64) -> f64 {
            if x.is_nan() {
                f64::NAN
            } else if x >= 0.0 && x.is_infinite() {
                1.0
            } else if x <= 0.0 && x.is_infinite() {
                -1.0
            } else if x == 0.0 {
                0.0
            } else {
                erf_impl(x, false)
            }
        }

        /// `erf_inv` calculates the inverse error function
        /// at `x`.
        #[fwdad::derive_frule]
        pub fn erf_inv(x: f64) -> f64 {
            if x == 0.0 {
                0.0
            } else if x >= 1.0 {
                f64::INFINITY
            } else if x <= -1.0 {
                f64::NEG_INFINITY
            } else if x < 0.0 {
                erf_inv_impl(-x, 1.0 + x, -1.0)
            } else {
                erf_inv_impl(x, 1.0 - x, 1.0)
            }
        }

        /// `erfc` calculates the complementary error function
        /// at `x`.
        #[fwdad::derive_frule]
        pub fn erfc(x: f64) -> f64 {
            if x.is_nan() {
                f64::NAN
            } else if x == f64::INFINITY {
                0.0
            } else if x == f64::NEG_INFINITY {
                2.0
            } else {
                erf_impl(x, true)
            }
        }

        /// `erfc_inv` calculates the complementary inverse
        /// error function at `x`.
        #[fwdad::derive_frule]
        pub fn erfc_inv(x: f64) -> f64 {
            if x <= 0.0 {
                f64::INFINITY
            } else if x >= 2.0 {
                f64::NEG_INFINITY
            } else if x > 1.0 {
                erf_inv_impl(-1.0 + x, 2.0 - x, -1.0)
            } else {
                erf_inv_impl(1.0 - x, x, 1.0)
            }
        }

        // **********************************************************
        // ********** Coefficients for erf_impl polynomial **********
        // **********************************************************

        /// Polynomial coefficients for a numerator of `erf_impl`
        /// in the interval [1e-10, 0.5].
        const ERF_IMPL_AN: &[f64] = &[
            0.00337916709551257388990745,
            -0.00073695653048167948530905,
            -0.374732337392919607868241,
            0.0817442448733587196071743,
            -0.0421089319936548595203468,
            0.0070165709512095756344528,
            -0.00495091255982435110337458,
            0.000871646599037922480317225,
        ];

        /// Polynomial coefficients for a denominator of `erf_impl`
        /// in the interval [1e-10, 0.5]
        const ERF_IMPL_AD: &[f64] = &[
            1.0,
            -0.218088218087924645390535,
            0.412542972725442099083918,
            -0.0841891147873106755410271,
            0.0655338856400241519690695,
            -0.0120019604454941768171266,
            0.00408165558926174048329689,
            -0.000615900721557769691924509,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [0.5, 0.75].
        const ERF_IMPL_BN: &[f64] = &[
            -0.0361790390718262471360258,
            0.292251883444882683221149,
            0.281447041797604512774415,
            0.125610208862766947294894,
            0.0274135028268930549240776,
            0.00250839672168065762786937,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [0.5, 0.75].
        const ERF_IMPL_BD: &[f64] = &[
            1.0,
            1.8545005897903486499845,
            1.43575803037831418074962,
            0.582827658753036572454135,
            0.124810476932949746447682,
            0.0113724176546353285778481,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [0.75, 1.25].
        const ERF_IMPL_CN: &[f64] = &[
            -0.0397876892611136856954425,
            0.153165212467878293257683,
            0.191260295600936245503129,
            0.10276327061989304213645,
            0.029637090615738836726027,
            0.0046093486780275489468812,
            0.000307607820348680180548455,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [0.75, 1.25].
        const ERF_IMPL_CD: &[f64] = &[
            1.0,
            1.95520072987627704987886,
            1.64762317199384860109595,
            0.768238607022126250082483,
            0.209793185936509782784315,
            0.0319569316899913392596356,
            0.00213363160895785378615014,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [1.25, 2.25].
        const ERF_IMPL_DN: &[f64] = &[
            -0.0300838560557949717328341,
            0.0538578829844454508530552,
            0.0726211541651914182692959,
            0.0367628469888049348429018,
            0.00964629015572527529605267,
            0.00133453480075291076745275,
            0.778087599782504251917881e-4,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [1.25, 2.25].
        const ERF_IMPL_DD: &[f64] = &[
            1.0,
            1.75967098147167528287343,
            1.32883571437961120556307,
            0.552528596508757581287907,
            0.133793056941332861912279,
            0.0179509645176280768640766,
            0.00104712440019937356634038,
            -0.106640381820357337177643e-7,
        ];

        ///  Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [2.25, 3.5].
        const ERF_IMPL_EN: &[f64] = &[
            -0.0117907570137227847827732,
            0.014262132090538809896674,
            0.0202234435902960820020765,
            0.00930668299990432009042239,
            0.00213357802422065994322516,
            0.00025022987386460102395382,
            0.120534912219588189822126e-4,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [2.25, 3.5].
        const ERF_IMPL_ED: &[f64] = &[
            1.0,
            1.50376225203620482047419,
            0.965397786204462896346934,
            0.339265230476796681555511,
            0.0689740649541569716897427,
            0.00771060262491768307365526,
            0.000371421101531069302990367,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [3.5, 5.25].
        const ERF_IMPL_FN: &[f64] = &[
            -0.00546954795538729307482955,
            0.00404190278731707110245394,
            0.0054963369553161170521356,
            0.00212616472603945399437862,
            0.000394984014495083900689956,
            0.365565477064442377259271e-4,
            0.135485897109932323253786e-5,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [3.5, 5.25].
        const ERF_IMPL_FD: &[f64] = &[
            1.0,
            1.21019697773630784832251,
            0.620914668221143886601045,
            0.173038430661142762569515,
            0.0276550813773432047594539,
            0.00240625974424309709745382,
            0.891811817251336577241006e-4,
            -0.465528836283382684461025e-11,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [5.25, 8].
        const ERF_IMPL_GN: &[f64] = &[
            -0.00270722535905778347999196,
            0.0013187563425029400461378,
            0.00119925933261002333923989,
            0.00027849619811344664248235,
            0.267822988218331849989363e-4,
            0.923043672315028197865066e-6,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [5.25, 8].
        const ERF_IMPL_GD: &[f64] = &[
            1.0,
            0.814632808543141591118279,
            0.268901665856299542168425,
            0.0449877216103041118694989,
            0.00381759663320248459168994,
            0.000131571897888596914350697,
            0.404815359675764138445257e-11,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [8, 11.5].
        const ERF_IMPL_HN: &[f64] = &[
            -0.00109946720691742196814323,
            0.000406425442750422675169153,
            0.000274499489416900707787024,
            0.465293770646659383436343e-4,
            0.320955425395767463401993e-5,
            0.778286018145020892261936e-7,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [8, 11.5].
        const ERF_IMPL_HD: &[f64] = &[
            1.0,
            0.588173710611846046373373,
            0.139363331289409746077541,
            0.0166329340417083678763028,
            0.00100023921310234908642639,
            0.24254837521587225125068e-4,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [11.5, 17].
        const ERF_IMPL_IN: &[f64] = &[
            -0.00056907993601094962855594,
            0.000169498540373762264416984,
            0.518472354581100890120501e-4,
            0.382819312231928859704678e-5,
            0.824989931281894431781794e-7,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [11.5, 17].
        const ERF_IMPL_ID: &[f64] = &[
            1.0,
            0.339637250051139347430323,
            0.043472647870310663055044,
            0.00248549335224637114641629,
            0.535633305337152900549536e-4,
            -0.117490944405459578783846e-12,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [17, 24].
        const ERF_IMPL_JN: &[f64] = &[
            -0.000241313599483991337479091,
            0.574224975202501512365975e-4,
            0.115998962927383778460557e-4,
            0.581762134402593739370875e-6,
            0.853971555085673614607418e-8,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [17, 24].
        const ERF_IMPL_JD: &[f64] = &[
            1.0,
            0.233044138299687841018015,
            0.0204186940546440312625597,
            0.000797185647564398289151125,
            0.117019281670172327758019e-4,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [24, 38].
        const ERF_IMPL_KN: &[f64] = &[
            -0.000146674699277760365803642,
            0.162666552112280519955647e-4,
            0.269116248509165239294897e-5,
            0.979584479468091935086972e-7,
            0.101994647625723465722285e-8,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [24, 38].
        const ERF_IMPL_KD: &[f64] = &[
            1.0,
            0.165907812944847226546036,
            0.0103361716191505884359634,
            0.000286593026373868366935721,
            0.298401570840900340874568e-5,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [38, 60].
        const ERF_IMPL_LN: &[f64] = &[
            -0.583905797629771786720406e-4,
            0.412510325105496173512992e-5,
            0.431790922420250949096906e-6,
            0.993365155590013193345569e-8,
            0.653480510020104699270084e-10,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [38, 60].
        const ERF_IMPL_LD: &[f64] = &[
            1.0,
            0.105077086072039915406159,
            0.00414278428675475620830226,
            0.726338754644523769144108e-4,
            0.477818471047398785369849e-6,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [60, 85].
        const ERF_IMPL_MN: &[f64] = &[
            -0.196457797609229579459841e-4,
            0.157243887666800692441195e-5,
            0.543902511192700878690335e-7,
            0.317472492369117710852685e-9,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [60, 85].
        const ERF_IMPL_MD: &[f64] = &[
            1.0,
            0.052803989240957632204885,
            0.000926876069151753290378112,
            0.541011723226630257077328e-5,
            0.535093845803642394908747e-15,
        ];

        /// Polynomial coefficients for a numerator in `erf_impl`
        /// in the interval [85, 110].
        const ERF_IMPL_NN: &[f64] = &[
            -0.789224703978722689089794e-5,
            0.622088451660986955124162e-6,
            0.145728445676882396797184e-7,
            0.603715505542715364529243e-10,
        ];

        /// Polynomial coefficients for a denominator in `erf_impl`
        /// in the interval [85, 110].
        const ERF_IMPL_ND: &[f64] = &[
            1.0,
            0.0375328846356293715248719,
            0.000467919535974625308126054,
            0.193847039275845656900547e-5,
        ];

        // **********************************************************
        // ********** Coefficients for erf_inv_impl polynomial ******
        // **********************************************************

        /// Polynomial coefficients for a numerator of `erf_inv_impl`
        /// in the interval [0, 0.5].
        const ERF_INV_IMPL_AN: &[f64] = &[
            -0.000508781949658280665617,
            -0.00836874819741736770379,
            0.0334806625409744615033,
            -0.0126926147662974029034,
            -0.0365637971411762664006,
            0.0219878681111168899165,
            0.00822687874676915743155,
            -0.00538772965071242932965,
        ];

        /// Polynomial coefficients for a denominator of `erf_inv_impl`
        /// in the interval [0, 0.5].
        const ERF_INV_IMPL_AD: &[f64] = &[
            1.0,
            -0.970005043303290640362,
            -1.56574558234175846809,
            1.56221558398423026363,
            0.662328840472002992063,
            -0.71228902341542847553,
            -0.0527396382340099713954,
            0.0795283687341571680018,
            -0.00233393759374190016776,
            0.000886216390456424707504,
        ];

        /// Polynomial coefficients for a numerator of `erf_inv_impl`
        /// in the interval [0.5, 0.75].
        const ERF_INV_IMPL_BN: &[f64] = &[
            -0.202433508355938759655,
            0.105264680699391713268,
            8.37050328343119927838,
            17.6447298408374015486,
            -18.8510648058714251895,
            -44.6382324441786960818,
            17.445385985570866523,
            21.1294655448340526258,
            -3.67192254707729348546,
        ];

        /// Polynomial coefficients for a denominator of `erf_inv_impl`
        /// in the interval [0.5, 0.75].
        const ERF_INV_IMPL_BD: &[f64] = &[
            1.0,
            6.24264124854247537712,
            3.9713437953343869095,
            -28.6608180499800029974,
            -20.1432634680485188801,
            48.5609213108739935468,
            10.8268667355460159008,
            -22.6436933413139721736,
            1.72114765761200282724,
        ];

        /// Polynomial coefficients for a numerator of `erf_inv_impl`
        /// in the interval [0.75, 1] with x less than 3.
        const ERF_INV_IMPL_CN: &[f64] = &[
            -0.131102781679951906451,
            -0.163794047193317060787,
            0.117030156341995252019,
            0.387079738972604337464,
            0.337785538912035898924,
            0.142869534408157156766,
            0.0290157910005329060432,
            0.00214558995388805277169,
            -0.679465575181126350155e-6,
            0.285225331782217055858e-7,
            -0.681149956853776992068e-9,
        ];

        /// Polynomial coefficients for a denominator of `erf_inv_impl`
        /// in the interval [0.75, 1] with x less than 3.
        const ERF_INV_IMPL_CD: &[f64] = &[
            1.0,
            3.46625407242567245975,
            5.38168345707006855425,
            4.77846592945843778382,
            2.59301921623620271374,
            0.848854343457902036425,
            0.152264338295331783612,
            0.01105924229346489121,
        ];

        /// Polynomial coefficients for a numerator of `erf_inv_impl`
        /// in the interval [0.75, 1] with x between 3 and 6.
        const ERF_INV_IMPL_DN: &[f64] = &[
            -0.0350353787183177984712,
            -0.00222426529213447927281,
            0.0185573306514231072324,
            0.00950804701325919603619,
            0.00187123492819559223345,
            0.000157544617424960554631,
            0.460469890584317994083e-5,
            -0.230404776911882601748e-9,
            0.266339227425782031962e-11,
        ];

        /// Polynomial coefficients for a denominator of `erf_inv_impl`
        /// in the interval [0.75, 1] with x between 3 and 6.
        const ERF_INV_IMPL_DD: &[f64] = &[
            1.0,
            1.3653349817554063097,
            0.762059164553623404043,
            0.220091105764131249824,
            0.0341589143670947727934,
            0.00263861676657015992959,
            0.764675292302794483503e-4,
        ];

        /// Polynomial coefficients for a numerator of `erf_inv_impl`
        /// in the interval [0.75, 1] with x between 6 and 18.
        const ERF_INV_IMPL_EN: &[f64] = &[
            -0.0167431005076633737133,
            -0.00112951438745580278863,
            0.00105628862152492910091,
            0.000209386317487588078668,
            0.149624783758342370182e-4,
            0.449696789927706453732e-6,
            0.462596163522878599135e-8,
            -0.281128735628831791805e-13,
            0.99055709973310326855e-16,
        ];

        /// Polynomial coefficients for a denominator of `erf_inv_impl`
        /// in the interval [0.75, 1] with x between 6 and 18.
        const ERF_INV_IMPL_ED: &[f64] = &[
            1.0,
            0.591429344886417493481,
            0.138151865749083321638,
            0.0160746087093676504695,
            0.000964011807005165528527,
            0.275335474764726041141e-4,
            0.282243172016108031869e-6,
        ];

        /// Polynomial coefficients for a numerator of `erf_inv_impl`
        /// in the interval [0.75, 1] with x between 18 and 44.
        const ERF_INV_IMPL_FN: &[f64] = &[
            -0.0024978212791898131227,
            -0.779190719229053954292e-5,
            0.254723037413027451751e-4,
            0.162397777342510920873e-5,
            0.396341011304801168516e-7,
            0.411632831190944208473e-9,
            0.145596286718675035587e-11,
            -0.116765012397184275695e-17,
        ];

        /// Polynomial coefficients for a denominator of `erf_inv_impl`
        /// in the interval [0.75, 1] with x between 18 and 44.
        const ERF_INV_IMPL_FD: &[f64] = &[
            1.0,
            0.207123112214422517181,
            0.0169410838120975906478,
            0.000690538265622684595676,
            0.145007359818232637924e-4,
            0.144437756628144157666e-6,
            0.509761276599778486139e-9,
        ];

        /// Polynomial coefficients for a numerator of `erf_inv_impl`
        /// in the interval [0.75, 1] with x greater than 44.
        const ERF_INV_IMPL_GN: &[f64] = &[
            -0.000539042911019078575891,
            -0.28398759004727721098e-6,
            0.899465114892291446442e-6,
            0.229345859265920864296e-7,
            0.225561444863500149219e-9,
            0.947846627503022684216e-12,
            0.135880130108924861008e-14,
            -0.348890393399948882918e-21,
        ];

        /// Polynomial coefficients for a denominator of `erf_inv_impl`
        /// in the interval [0.75, 1] with x greater than 44.
        const ERF_INV_IMPL_GD: &[f64] = &[
            1.0,
            0.0845746234001899436914,
            0.00282092984726264681981,
            0.468292921940894236786e-4,
            0.399968812193862100054e-6,
            0.161809290887904476097e-8,
            0.231558608310259605225e-11,
        ];

        /// `erf_impl` computes the error function at `z`.
        /// If `inv` is true, `1 - erf` is calculated as opposed to `erf`
        #[fwdad::derive_frule]
        fn erf_impl(z: f64, inv: bool) -> f64 {
            if z < 0.0 {
                if !inv {
                    return -erf_impl(-z, false);
                }
                if z < -0.5 {
                    return 2.0 - erf_impl(-z, true);
                }
                return 1.0 + erf_impl(-z, false);
            }

            let result = if z < 0.5 {
                if z < 1e-10 {
                    z * 1.125 + z * 0.003379167095512573896158903121545171688
                } else {
                    z * 1.125
                        + z * evaluate::polynomial(z, ERF_IMPL_AN) / evaluate::polynomial(z, ERF_IMPL_AD)
                }
            } else if z < 110.0 {
                let (r, b) = if z < 0.75 {
                    (
                        evaluate::polynomial(z - 0.5, ERF_IMPL_BN)
                            / evaluate::polynomial(z - 0.5, ERF_IMPL_BD),
                        0.3440242112,
                    )
                } else if z < 1.25 {
                    (
                        evaluate::polynomial(z - 0.75, ERF_IMPL_CN)
                            / evaluate::polynomial(z - 0.75, ERF_IMPL_CD),
                        0.419990927,
                    )
                } else if z < 2.25 {
                    (
                        evaluate::polynomial(z - 1.25, ERF_IMPL_DN)
                            / evaluate::polynomial(z - 1.25, ERF_IMPL_DD),
                        0.4898625016,
                    )
                } else if z < 3.5 {
                    (
                        evaluate::polynomial(z - 2.25, ERF_IMPL_EN)
                            / evaluate::polynomial(z - 2.25, ERF_IMPL_ED),
                        0.5317370892,
                    )
                } else if z < 5.25 {
                    (
                        evaluate::polynomial(z - 3.5, ERF_IMPL_FN)
                            / evaluate::polynomial(z - 3.5, ERF_IMPL_FD),
                        0.5489973426,
                    )
                } else if z < 8.0 {
                    (
                        evaluate::polynomial(z - 5.25, ERF_IMPL_GN)
                            / evaluate::polynomial(z - 5.25, ERF_IMPL_GD),
                        0.5571740866,
                    )
                } else if z < 11.5 {
                    (
                        evaluate::polynomial(z - 8.0, ERF_IMPL_HN)
                            / evaluate::polynomial(z - 8.0, ERF_IMPL_HD),
                        0.5609807968,
                    )
                } else if z < 17.0 {
                    (
                        evaluate::polynomial(z - 11.5, ERF_IMPL_IN)
                            / evaluate::polynomial(z - 11.5, ERF_IMPL_ID),
                        0.5626493692,
                    )
                } else if z < 24.0 {
                    (
                        evaluate::polynomial(z - 17.0, ERF_IMPL_JN)
                            / evaluate::polynomial(z - 17.0, ERF_IMPL_JD),
                        0.5634598136,
                    )
                } else if z < 38.0 {
                    (
                        evaluate::polynomial(z - 24.0, ERF_IMPL_KN)
                            / evaluate::polynomial(z - 24.0, ERF_IMPL_KD),
                        0.5638477802,
                    )
                } else if z < 60.0 {
                    (
                        evaluate::polynomial(z - 38.0, ERF_IMPL_LN)
                            / evaluate::polynomial(z - 38.0, ERF_IMPL_LD),
                        0.5640528202,
                    )
                } else if z < 85.0 {
                    (
                        evaluate::polynomial(z - 60.0, ERF_IMPL_MN)
                            / evaluate::polynomial(z - 60.0, ERF_IMPL_MD),
                        0.5641309023,
                    )
                } else {
                    (
                        evaluate::polynomial(z - 85.0, ERF_IMPL_NN)
                            / evaluate::polynomial(z - 85.0, ERF_IMPL_ND),
                        0.5641584396,
                    )
                };
                let g = (-z * z).exp() / z;
                g * b + g * r
            } else {
                0.0
            };

            if inv && z >= 0.5 {
                result
            } else if z >= 0.5 || inv {
                1.0 - result
            } else {
                result
            }
        }

        // `erf_inv_impl` computes the inverse error function where
        // `p`,`q`, and `s` are the first, second, and third intermediate
        // parameters respectively
        #[fwdad::derive_frule]
        fn erf_inv_impl(p: f64, q: f64, s: f64) -> f64 {
            let result = if p <= 0.5 {
                let y = 0.0891314744949340820313;
                let g = p * (p + 10.0);
                let r = evaluate::polynomial(p, ERF_INV_IMPL_AN) / evaluate::polynomial(p, ERF_INV_IMPL_AD);
                g * y + g * r
            } else if q >= 0.25 {
                let y = 2.249481201171875;
                let g = (-2.0 * q.ln()).sqrt();
                let xs = q - 0.25;
                let r =
                    evaluate::polynomial(xs, ERF_INV_IMPL_BN) / evaluate::polynomial(xs, ERF_INV_IMPL_BD);
                g / (y + r)
            } else {
                let x = (-q.ln()).sqrt();
                if x < 3.0 {
                    let y = 0.807220458984375;
                    let xs = x - 1.125;
                    let r = evaluate::polynomial(xs, ERF_INV_IMPL_CN)
                        / evaluate::polynomial(xs, ERF_INV_IMPL_CD);
                    y * x + r * x
                } else if x < 6.0 {
                    let y = 0.93995571136474609375;
                    let xs = x - 3.0;
                    let r = evaluate::polynomial(xs, ERF_INV_IMPL_DN)
                        / evaluate::polynomial(xs, ERF_INV_IMPL_DD);
                    y * x + r * x
                } else if x < 18.0 {
                    let y = 0.98362827301025390625;
                    let xs = x - 6.0;
                    let r = evaluate::polynomial(xs, ERF_INV_IMPL_EN)
                        / evaluate::polynomial(xs, ERF_INV_IMPL_ED);
                    y * x + r * x
                } else if x < 44.0 {
                    let y = 0.99714565277099609375;
                    let xs = x - 18.0;
                    let r = evaluate::polynomial(xs, ERF_INV_IMPL_FN)
                        / evaluate::polynomial(xs, ERF_INV_IMPL_FD);
                    y * x + r * x
                } else {
                    let y = 0.99941349029541015625;
                    let xs = x - 44.0;
                    let r = evaluate::polynomial(xs, ERF_INV_IMPL_GN)
                        / evaluate::polynomial(xs, ERF_INV_IMPL_GD);
                    y * x + r * x
                }
            };
            s * result
        }
    }

    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    pub mod evaluate {
        //! Provides functions that don't have a numerical solution and must
        //! be solved computationally (e.g. evaluation of a polynomial)

        /// evaluates a polynomial at `z` where `coeff` are the coeffecients
        /// to a polynomial of order `k` where `k` is the length of `coeff` and the
        /// coeffecient
        /// to the `k`th power is the `k`th element in coeff. E.g. [3,-1,2] equates to
        /// `2z^2 - z + 3`
        ///
        /// # Remarks
        ///
        /// Returns 0 for a 0 length coefficient slice
        #[fwdad::derive_frule]
        pub fn polynomial(z: f64, coeff: &[f64]) -> f64 {
            coeff.iter().rev().fold(0_f64, |acc, val| acc * z + val)
        }
    }

    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    pub mod exponential {
        //! Provides functions related to exponential calculations

        use crate::consts;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Computes the generalized Exponential Integral function
        /// where `x` is the argument and `n` is the integer power of the
        /// denominator term.
        ///
        /// Returns `None` if `x < 0.0` or the computation could not
        /// converge after 100 iterations
        ///
        /// # Remarks
        ///
        /// This implementation follows the derivation in
        ///
        /// _"Handbook of Mathematical Functions, Applied Mathematics Series, Volume
        /// 55"_ - Abramowitz, M., and Stegun, I.A 1964
        ///
        /// AND
        ///
        /// _"Advanced mathematical methods for scientists and engineers"_ - Bender,
        /// Carl M.; Steven A. Orszag (1978). page 253
        ///
        /// The continued fraction approach is used for `x > 1.0` while the taylor
        /// series expansions is used for `0.0 < x <= 1`.
        // TODO: Add examples
        #[fwdad::derive_frule]
        pub fn integral(x: f64, n: u64) -> Option<f64> {
            let eps = 0.00000000000000001;
            let max_iter = 100;
            let nf64 = n as f64;
            let near_f64min = 1e-100; // needs very small value that is not quite as small as f64 min

            // special cases
            if n == 0 {
                return Some((-x).exp() / x);
            }
            if x == 0.0 {
                return Some(1.0 / (nf64 - 1.0));
            }

            if x > 1.0 {
                let mut b = x + nf64;
                let mut c = 1.0 / near_f64min;
                let mut d = 1.0 / b;
                let mut h = d;
                for i in 1..max_iter + 1 {
                    let a = -(i as f64) * (nf64 - 1.0 + i as f64);
                    b += 2.0;
                    d = 1.0 / (a * d + b);
                    c = b + a / c;
                    let del = c * d;
                    h *= del;
                    if (del - 1.0).abs() < eps {
                        return Some(h * (-x).exp());
                    }
                }
                None
            } else {
                let mut factorial = 1.0;
                let mut result = if n - 1 != 0 {
                    1.0 / (nf64 - 1.0)
                } else {
                    -x.ln() - consts::EULER_MASCHERONI
                };
                for i in 1..max_iter + 1 {
                    factorial *= -x / i as f64;
                    let del = if i != n - 1 {
                        -factorial / (i as f64 - nf64 + 1.0)
                    } else {
                        let mut psi = -consts::EULER_MASCHERONI;
                        for ii in 1..n {
                            psi += 1.0 / ii as f64;
                        }
                        factorial * (-x.ln() + psi)
                    };
                    result += del;
                    if del.abs() < result.abs() * eps {
                        return Some(result);
                    }
                }
                None
            }
        }
    }

    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    pub mod factorial {
        //! Provides functions related to factorial calculations (e.g. binomial
        //! coefficient, factorial, multinomial)

        use crate::function::gamma;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// The maximum factorial representable
        /// by a 64-bit floating point without
        /// overflowing
        pub const MAX_FACTORIAL: usize = 170;

        /// Computes the factorial function `x -> x!` for
        /// `170 >= x >= 0`. All factorials larger than `170!`
        /// will overflow an `f64`.
        ///
        /// # Remarks
        ///
        /// Returns `f64::INFINITY` if `x > 170`
        #[fwdad::derive_frule]
        pub fn factorial(x: u64) -> f64 {
            let x = x as usize;
            FCACHE.get(x).map_or(f64::INFINITY, |&fac| fac)
        }

        /// Computes the logarithmic factorial function `x -> ln(x!)`
        /// for `x >= 0`.
        ///
        /// # Remarks
        ///
        /// Returns `0.0` if `x <= 1`
        #[fwdad::derive_frule]
        pub fn ln_factorial(x: u64) -> f64 {
            let x = x as usize;
            FCACHE
                .get(x)
                .map_or_else(|| gamma::ln_gamma(x as f64 + 1.0), |&fac| fac.ln())
        }

        /// Computes the binomial coefficient `n choose k`
        /// where `k` and `n` are non-negative values.
        ///
        /// # Remarks
        ///
        /// Returns `0.0` if `k > n`
        #[fwdad::derive_frule]
        pub fn binomial(n: u64, k: u64) -> f64 {
            if k > n {
                0.0
            } else {
                (0.5 + (ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k)).exp()).floor()
            }
        }

        /// Computes the natural logarithm of the binomial coefficient
        /// `ln(n choose k)` where `k` and `n` are non-negative values
        ///
        /// # Remarks
        ///
        /// Returns `f64::NEG_INFINITY` if `k > n`
        #[fwdad::derive_frule]
        pub fn ln_binomial(n: u64, k: u64) -> f64 {
            if k > n {
                f64::NEG_INFINITY
            } else {
                ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k)
            }
        }

        /// Computes the multinomial coefficient: `n choose n1, n2, n3, ...`
        ///
        /// # Panics
        ///
        /// If the elements in `ni` do not sum to `n`
        #[fwdad::derive_frule]
        pub fn multinomial(n: u64, ni: &[u64]) -> f64 {
            checked_multinomial(n, ni).unwrap()
        }

        /// Computes the multinomial coefficient: `n choose n1, n2, n3, ...`
        ///
        /// Returns `None` if the elements in `ni` do not sum to `n`.
        #[fwdad::derive_frule]
        pub fn checked_multinomial(n: u64, ni: &[u64]) -> Option<f64> {
            let (sum, ret) = ni.iter().fold((0, ln_factorial(n)), |acc, &x| {
                (acc.0 + x, acc.1 - ln_factorial(x))
            });

            if sum == n {
                Some((0.5 + ret.exp()).floor())
            } else {
                None
            }
        }

        // Initialization for pre-computed cache of 171 factorial
        // values 0!...170!
        const FCACHE: [f64; MAX_FACTORIAL + 1] = {
            let mut fcache = [1.0; MAX_FACTORIAL + 1];

            // `const` only allow while loops
            let mut i = 1;
            while i < MAX_FACTORIAL + 1 {
                fcache[i] = fcache[i - 1] * i as f64;
                i += 1;
            }

            fcache
        };
    }

    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    pub mod gamma {
        //! Provides the [gamma](https://en.wikipedia.org/wiki/Gamma_function) and
        //! related functions

        use crate::consts;
        use crate::prec;
        use core::f64::consts as f64_consts;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Represents the errors that can occur when computing any of the incomplete
        /// gamma functions.
        #[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
        #[non_exhaustive]
        pub enum GammaFuncError {
            /// `a` is infinite, zero or less than zero.
            AInvalid,

            /// `x` is infinite, zero or less than zero.
            XInvalid,
        }

        impl core::fmt::Display for GammaFuncError {
            fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                match self {
                    GammaFuncError::AInvalid => write!(f, "a is infinite, zero or less than zero"),
                    GammaFuncError::XInvalid => write!(f, "x is infinite, zero or less than zero"),
                }
            }
        }

        impl core::error::Error for GammaFuncError {}

        /// Auxiliary variable when evaluating the `gamma_ln` function
        const GAMMA_R: f64 = 10.900511;

        /// Polynomial coefficients for approximating the `gamma_ln` function
        const GAMMA_DK: &[f64] = &[
            2.48574089138753565546e-5,
            1.05142378581721974210,
            -3.45687097222016235469,
            4.51227709466894823700,
            -2.98285225323576655721,
            1.05639711577126713077,
            -1.95428773191645869583e-1,
            1.70970543404441224307e-2,
            -5.71926117404305781283e-4,
            4.63399473359905636708e-6,
            -2.71994908488607703910e-9,
        ];

        /// Computes the logarithm of the gamma function
        /// with an accuracy of 16 floating point digits.
        /// The implementation is derived from
        /// "An Analysis of the Lanczos Gamma Approximation",
        /// Glendon Ralph Pugh, 2004 p. 116
        #[fwdad::derive_frule]
        pub fn ln_gamma(x: f64) -> f64 {
            if x < 0.5 {
                let s = GAMMA_DK
                    .iter()
                    .enumerate()
                    .skip(1)
                    .fold(GAMMA_DK[0], |s, t| s + t.1 / (t.0 as f64 - x));

                consts::LN_PI
                    - (f64_consts::PI * x).sin().ln()
                    - s.ln()
                    - consts::LN_2_SQRT_E_OVER_PI
                    - (0.5 - x) * ((0.5 - x + GAMMA_R) / f64_consts::E).ln()
            } else {
                let s = GAMMA_DK
                    .iter()
                    .enumerate()
                    .skip(1)
                    .fold(GAMMA_DK[0], |s, t| s + t.1 / (x + t.0 as f64 - 1.0));

                s.ln()
                    + consts::LN_2_SQRT_E_OVER_PI
                    + (x - 0.5) * ((x - 0.5 + GAMMA_R) / f64_consts::E).ln()
            }
        }

        /// Computes the gamma function with an accuracy
        /// of 16 floating point digits. The implementation
        /// is derived from "An Analysis of the Lanczos Gamma Approximation",
        /// Glendon Ralph Pugh, 2004 p. 116
        #[fwdad::derive_frule]
        pub fn gamma(x: f64) -> f64 {
            if x < 0.5 {
                let s = GAMMA_DK
                    .iter()
                    .enumerate()
                    .skip(1)
                    .fold(GAMMA_DK[0], |s, t| s + t.1 / (t.0 as f64 - x));

                f64_consts::PI
                    / ((f64_consts::PI * x).sin()
                        * s
                        * consts::TWO_SQRT_E_OVER_PI
                        * ((0.5 - x + GAMMA_R) / f64_consts::E).powf(0.5 - x))
            } else {
                let s = GAMMA_DK
                    .iter()
                    .enumerate()
                    .skip(1)
                    .fold(GAMMA_DK[0], |s, t| s + t.1 / (x + t.0 as f64 - 1.0));

                s * consts::TWO_SQRT_E_OVER_PI * ((x - 0.5 + GAMMA_R) / f64_consts::E).powf(x - 0.5)
            }
        }

        /// Computes the upper incomplete gamma function
        /// `Gamma(a,x) = int(exp(-t)t^(a-1), t=0..x) for a > 0, x > 0`
        /// where `a` is the argument for the gamma function and
        /// `x` is the lower intergral limit.
        ///
        /// # Panics
        ///
        /// if `a` or `x` are not in `(0, +inf)`
        #[fwdad::derive_frule]
        pub fn gamma_ui(a: f64, x: f64) -> f64 {
            checked_gamma_ui(a, x).unwrap()
        }

        /// Computes the upper incomplete gamma function
        /// `Gamma(a,x) = int(exp(-t)t^(a-1), t=0..x) for a > 0, x > 0`
        /// where `a` is the argument for the gamma function and
        /// `x` is the lower intergral limit.
        ///
        /// # Errors
        ///
        /// if `a` or `x` are not in `(0, +inf)`
        #[fwdad::derive_frule]
        pub fn checked_gamma_ui(a: f64, x: f64) -> Result<f64, GammaFuncError> {
            checked_gamma_ur(a, x).map(|x| x * gamma(a))
        }

        /// Computes the lower incomplete gamma function
        /// `gamma(a,x) = int(exp(-t)t^(a-1), t=0..x) for a > 0, x > 0`
        /// where `a` is the argument for the gamma function and `x`
        /// is the upper integral limit.
        ///
        ///
        /// # Panics
        ///
        /// if `a` or `x` are not in `(0, +inf)`
        #[fwdad::derive_frule]
        pub fn gamma_li(a: f64, x: f64) -> f64 {
            checked_gamma_li(a, x).unwrap()
        }

        /// Computes the lower incomplete gamma function
        /// `gamma(a,x) = int(exp(-t)t^(a-1), t=0..x) for a > 0, x > 0`
        /// where `a` is the argument for the gamma function and `x`
        /// is the upper integral limit.
        ///
        ///
        /// # Errors
        ///
        /// if `a` or `x` are not in `(0, +inf)`
        #[fwdad::derive_frule]
        pub fn checked_gamma_li(a: f64, x: f64) -> Result<f64, GammaFuncError> {
            checked_gamma_lr(a, x).map(|x| x * gamma(a))
        }

        /// Computes the upper incomplete regularized gamma function
        /// `Q(a,x) = 1 / Gamma(a) * int(exp(-t)t^(a-1), t=0..x) for a > 0, x > 0`
        /// where `a` is the argument for the gamma function and
        /// `x` is the lower integral limit.
        ///
        /// # Remarks
        ///
        /// Returns `f64::NAN` if either argument is `f64::NAN`
        ///
        /// # Panics
        ///
        /// if `a` or `x` are not in `(0, +inf)`
        #[fwdad::derive_frule]
        pub fn gamma_ur(a: f64, x: f64) -> f64 {
            checked_gamma_ur(a, x).unwrap()
        }

        /// Computes the upper incomplete regularized gamma function
        /// `Q(a,x) = 1 / Gamma(a) * int(exp(-t)t^(a-1), t=0..x) for a > 0, x > 0`
        /// where `a` is the argument for the gamma function and
        /// `x` is the lower integral limit.
        ///
        /// # Remarks
        ///
        /// Returns `f64::NAN` if either argument is `f64::NAN`
        ///
        /// # Errors
        ///
        /// if `a` or `x` are not in `(0, +inf)`
        #[fwdad::derive_frule]
        pub fn checked_gamma_ur(a: f64, x: f64) -> Result<f64, GammaFuncError> {
            if a.is_nan() || x.is_nan() {
                return Ok(f64::NAN);
            }
            if a <= 0.0 || a == f64::INFINITY {
                return Err(GammaFuncError::AInvalid);
            }
            if x <= 0.0 || x == f64::INFINITY {
                return Err(GammaFuncError::XInvalid);
            }

            let eps = 0.000000000000001;
            let big = 4503599627370496.0;
            let big_inv = 2.22044604925031308085e-16;

            if x < 1.0 || x <= a {
                return Ok(1.0 - gamma_lr(a, x));
            }

            let mut ax = a * x.ln() - x - ln_gamma(a);
            if ax < -709.78271289338399 {
                return if a < x { Ok(0.0) } else { Ok(1.0) };
            }

            ax = ax.exp();
            let mut y = 1.0 - a;
            let mut z = x + y + 1.0;
            let mut c = 0.0;
            let mut pkm2 = 1.0;
            let mut qkm2 = x;
            let mut pkm1 = x + 1.0;
            let mut qkm1 = z * x;
            let mut ans = pkm1 / qkm1;
            loop {
                y += 1.0;
                z += 2.0;
                c += 1.0;
                let yc = y * c;
                let pk = pkm1 * z - pkm2 * yc;
                let qk = qkm1 * z - qkm2 * yc;

                pkm2 = pkm1;
                pkm1 = pk;
                qkm2 = qkm1;
                qkm1 = qk;

                if pk.abs() > big {
                    pkm2 *= big_inv;
                    pkm1 *= big_inv;
                    qkm2 *= big_inv;
                    qkm1 *= big_inv;
                }

                if qk != 0.0 {
                    let r = pk / qk;
                    let t = ((ans - r) / r).abs();
                    ans = r;

                    if t <= eps {
                        break;
                    }
                }
            }
            Ok(ans * ax)
        }

        /// Computes the lower incomplete regularized gamma function
        /// `P(a,x) = 1 / Gamma(a) * int(exp(-t)t^(a-1), t=0..x) for real a > 0, x > 0`
        /// where `a` is the argument for the gamma function and `x` is the upper
        /// integral limit.
        ///
        /// # Remarks
        ///
        /// Returns `f64::NAN` if either argument is `f64::NAN`
        ///
        /// # Panics
        ///
        /// if `a` or `x` are not in `(0, +inf)`
        #[fwdad::derive_frule]
        pub fn gamma_lr(a: f64, x: f64) -> f64 {
            checked_gamma_lr(a, x).unwrap()
        }

        /// Computes the lower incomplete regularized gamma function
        /// `P(a,x) = 1 / Gamma(a) * int(exp(-t)t^(a-1), t=0..x) for real a > 0, x > 0`
        /// where `a` is the argument for the gamma function and `x` is the upper
        /// integral limit.
        ///
        /// # Remarks
        ///
        /// Returns `f64::NAN` if either argument is `f64::NAN`
        ///
        /// # Errors
        ///
        /// if `a` or `x` are not in `(0, +inf)`
        #[fwdad::derive_frule]
        pub fn checked_gamma_lr(a: f64, x: f64) -> Result<f64, GammaFuncError> {
            if a.is_nan() || x.is_nan() {
                return Ok(f64::NAN);
            }
            if a <= 0.0 || a == f64::INFINITY {
                return Err(GammaFuncError::AInvalid);
            }
            if x <= 0.0 || x == f64::INFINITY {
                return Err(GammaFuncError::XInvalid);
            }

            let eps = 0.000000000000001;
            let big = 4503599627370496.0;
            let big_inv = 2.22044604925031308085e-16;

            if prec::ulps_eq!(a, 0.0, epsilon = 0.0) {
                return Ok(1.0);
            }
            if prec::ulps_eq!(x, 0.0, epsilon = 0.0) {
                return Ok(0.0);
            }

            let ax = a * x.ln() - x - ln_gamma(a);
            if ax < -709.78271289338399 {
                if a < x {
                    return Ok(1.0);
                }
                return Ok(0.0);
            }
            if x <= 1.0 || x <= a {
                let mut r2 = a;
                let mut c2 = 1.0;
                let mut ans2 = 1.0;
                loop {
                    r2 += 1.0;
                    c2 *= x / r2;
                    ans2 += c2;

                    if c2 / ans2 <= eps {
                        break;
                    }
                }
                return Ok(ax.exp() * ans2 / a);
            }

            let mut y = 1.0 - a;
            let mut z = x + y + 1.0;
            let mut c = 0;

            let mut p3 = 1.0;
            let mut q3 = x;
            let mut p2 = x + 1.0;
            let mut q2 = z * x;
            let mut ans = p2 / q2;

            loop {
                y += 1.0;
                z += 2.0;
                c += 1;
                let yc = y * f64::from(c);

                let p = p2 * z - p3 * yc;
                let q = q2 * z - q3 * yc;

                p3 = p2;
                p2 = p;
                q3 = q2;
                q2 = q;

                if p.abs() > big {
                    p3 *= big_inv;
                    p2 *= big_inv;
                    q3 *= big_inv;
                    q2 *= big_inv;
                }

                if q != 0.0 {
                    let nextans = p / q;
                    let error = ((ans - nextans) / nextans).abs();
                    ans = nextans;

                    if error <= eps {
                        break;
                    }
                }
            }
            Ok(1.0 - ax.exp() * ans)
        }

        /// Computes the Digamma function which is defined as the derivative of
        /// the log of the gamma function. The implementation is based on
        /// "Algorithm AS 103", Jose Bernardo, Applied Statistics, Volume 25, Number 3
        /// 1976, pages 315 - 317
        #[fwdad::derive_frule]
        pub fn digamma(x: f64) -> f64 {
            let c = 12.0;
            let d1 = -0.57721566490153286;
            let d2 = 1.6449340668482264365;
            let s = 1e-6;
            let s3 = 1.0 / 12.0;
            let s4 = 1.0 / 120.0;
            let s5 = 1.0 / 252.0;
            let s6 = 1.0 / 240.0;
            let s7 = 1.0 / 132.0;

            if x == f64::NEG_INFINITY || x.is_nan() {
                return f64::NAN;
            }
            if x <= 0.0 && x.floor() == x {
                return f64::NEG_INFINITY;
            }
            if x < 0.0 {
                return digamma(1.0 - x) + f64_consts::PI / (-f64_consts::PI * x).tan();
            }
            if x <= s {
                return d1 - 1.0 / x + d2 * x;
            }

            let mut result = 0.0;
            let mut z = x;
            while z < c {
                result -= 1.0 / z;
                z += 1.0;
            }

            if z >= c {
                let mut r = 1.0 / z;
                result += z.ln() - 0.5 * r;
                r *= r;

                result -= r * (s3 - r * (s4 - r * (s5 - r * (s6 - r * s7))));
            }
            result
        }

        #[fwdad::derive_frule]
        pub fn inv_digamma(x: f64) -> f64 {
            if x.is_nan() {
                return f64::NAN;
            }
            if x == f64::NEG_INFINITY {
                return 0.0;
            }
            if x == f64::INFINITY {
                return f64::INFINITY;
            }
            let mut y = x.exp();
            let mut i = 1.0;
            while i > 1e-15 {
                y += i * signum(x - digamma(y));
                i /= 2.0;
            }
            y
        }

        // modified signum that returns 0.0 if x == 0.0. Used
        // by inv_digamma, may consider extracting into a public
        // method
        #[fwdad::derive_frule]
        fn signum(x: f64) -> f64 {
            if x == 0.0 { 0.0 } else { x.signum() }
        }
    }

    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    pub mod harmonic {
        //! Provides functions for calculating
        //! [harmonic](https://en.wikipedia.org/wiki/Harmonic_number)
        //! numbers

        use crate::consts;
        use crate::function::gamma;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Computes the `t`-th harmonic number
        ///
        /// # Remarks
        ///
        /// Returns `1` as a special case when `t == 0`
        #[fwdad::derive_frule]
        pub fn harmonic(t: u64) -> f64 {
            match t {
                0 => 1.0,
                _ => consts::EULER_MASCHERONI + gamma::digamma(t as f64 + 1.0),
            }
        }

        /// Computes the generalized harmonic number of  order `n` of `m`
        /// e.g. `(1 + 1/2^m + 1/3^m + ... + 1/n^m)`
        ///
        /// # Remarks
        ///
        /// Returns `1` as a special case when `n == 0`
        #[fwdad::derive_frule]
        pub fn gen_harmonic(n: u64, m: f64) -> f64 {
            match n {
                0 => 1.0,
                _ => (0..n).fold(0.0, |acc, x| acc + (x as f64 + 1.0).powf(-m)),
            }
        }
    }

    // Not annotated: `trait Kernel` has a method returning `Option<(f64, f64)>`, which a
    // derived trait cannot have yet (see `docs/limits.md`).
    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    pub mod kernel {
        //! Kernel functions for use in kernel-based methods such as
        //! kernel density estimation (KDE), local regression, and smoothing.
        //!
        //! Each kernel maps a normalized distance `x` (often `|x_i - x_0| / h`)
        //! to a nonnegative weight. Kernels with bounded support return zero
        //! outside a finite interval (e.g., `[-1, 1]`).
        //!
        //! # Implemented Kernels
        //! | Kernel | Formula | Support |
        //! |---------|----------|----------|
        //! | Gaussian | `exp(-0.5 * x²) / √(2π)` | (-∞, ∞) |
        //! | Epanechnikov | `0.75 * (1 - x²)` | [-1, 1] |
        //! | Triangular | `1 - |x|` | [-1, 1] |
        //! | Tricube | `(1 - |x|³)³` | [-1, 1] |
        //! | Quartic (biweight) | `(15/16) * (1 - x²)²` | [-1, 1] |
        //! | Uniform | `0.5` | [-1, 1] |
        //! | Cosine | `(π/4) * cos(πx/2)` | [-1, 1] |
        //! | Logistic | `1 / (2 + exp(x) + exp(-x))` | (-∞, ∞) |
        //! | Sigmoid | `(2 / π) * (1 / (exp(πx) + exp(-πx)))` | (-∞, ∞) |
        //!
        //! # Example
        //! ```
        //! use statrs::function::kernel::{Kernel, Gaussian, Epanechnikov};
        //!
        //! let g = Gaussian;
        //! let e = Epanechnikov;
        //! assert!((g.evaluate(0.0) - 0.39894).abs() < 1e-5);
        //! assert!((e.evaluate(0.0) - 0.75).abs() < 1e-12);
        //! ```

        use core::f64::consts::{FRAC_PI_2, PI};
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Common interface for kernel functions used in KDE and smoothing.
        pub trait Kernel {
            /// Evaluate the kernel at normalized distance `x`.
            fn evaluate(&self, x: f64) -> f64;

            /// Evaluate the kernel with bandwidth scaling.
            ///
            /// The result is scaled by `1 / bandwidth` to ensure
            /// that the kernel integrates to 1 after scaling.
            fn evaluate_with_bandwidth(&self, x: f64, bandwidth: f64) -> f64 {
                self.evaluate(x / bandwidth) / bandwidth
            }

            /// Returns the support of the kernel if bounded (e.g. `[-1, 1]`).
            fn support(&self) -> Option<(f64, f64)> {
                None
            }
        }

        /// Gaussian kernel: (1 / √(2π)) * exp(-0.5 * x²)
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Gaussian;

        impl Kernel for Gaussian {
            fn evaluate(&self, x: f64) -> f64 {
                (-(x * x) / 2.0).exp() / (2.0 * PI).sqrt()
            }
        }

        /// Epanechnikov kernel: ¾(1 - x²) for |x| ≤ 1
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Epanechnikov;

        impl Kernel for Epanechnikov {
            fn evaluate(&self, x: f64) -> f64 {
                let a = x.abs();
                if a <= 1.0 { 0.75 * (1.0 - a * a) } else { 0.0 }
            }

            fn support(&self) -> Option<(f64, f64)> {
                Some((-1.0, 1.0))
            }
        }

        /// Triangular kernel: (1 - |x|) for |x| ≤ 1
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Triangular;

        impl Kernel for Triangular {
            fn evaluate(&self, x: f64) -> f64 {
                let a = x.abs();
                if a <= 1.0 { 1.0 - a } else { 0.0 }
            }

            fn support(&self) -> Option<(f64, f64)> {
                Some((-1.0, 1.0))
            }
        }

        /// Tricube kernel: (1 - |x|³)³ for |x| ≤ 1
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Tricube;

        impl Kernel for Tricube {
            fn evaluate(&self, x: f64) -> f64 {
                let a = x.abs();
                if a <= 1.0 {
                    let t = 1.0 - a.powi(3);
                    t.powi(3)
                } else {
                    0.0
                }
            }

            fn support(&self) -> Option<(f64, f64)> {
                Some((-1.0, 1.0))
            }
        }

        /// Quartic (biweight) kernel: (15/16) * (1 - x²)² for |x| ≤ 1
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Quartic;

        impl Kernel for Quartic {
            fn evaluate(&self, x: f64) -> f64 {
                let a = x.abs();
                if a <= 1.0 {
                    let t = 1.0 - a * a;
                    (15.0 / 16.0) * t * t
                } else {
                    0.0
                }
            }

            fn support(&self) -> Option<(f64, f64)> {
                Some((-1.0, 1.0))
            }
        }

        /// Uniform (rectangular) kernel: 0.5 for |x| ≤ 1, 0 otherwise
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Uniform;

        impl Kernel for Uniform {
            fn evaluate(&self, x: f64) -> f64 {
                if x.abs() <= 1.0 { 0.5 } else { 0.0 }
            }

            fn support(&self) -> Option<(f64, f64)> {
                Some((-1.0, 1.0))
            }
        }

        /// Cosine kernel: (π/4) * cos(πx/2) for |x| ≤ 1, 0 otherwise
        ///
        /// This kernel integrates to 1 over [-1, 1].
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Cosine;

        impl Kernel for Cosine {
            fn evaluate(&self, x: f64) -> f64 {
                let a = x.abs();
                if a <= 1.0 {
                    (PI / 4.0) * (FRAC_PI_2 * a).cos()
                } else {
                    0.0
                }
            }

            fn support(&self) -> Option<(f64, f64)> {
                Some((-1.0, 1.0))
            }
        }

        /// Logistic kernel: 1 / (2 + exp(x) + exp(-x))
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Logistic;

        impl Kernel for Logistic {
            fn evaluate(&self, x: f64) -> f64 {
                1.0 / (2.0 + x.exp() + (-x).exp())
            }
        }

        /// Sigmoid kernel: (1 / (π * cosh(πx))) ≈ (2 / π) * (1 / (exp(πx) + exp(-πx)))
        ///
        /// Note: Integrates to 1/π over (-∞, ∞).
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Sigmoid;

        impl Kernel for Sigmoid {
            fn evaluate(&self, x: f64) -> f64 {
                (2.0 / PI) * 1.0 / ((PI * x).exp() + (-PI * x).exp())
            }
        }
    }

    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    pub mod logistic {
        //! Provides the [logistic](http://en.wikipedia.org/wiki/Logistic_function) and
        //! related functions

        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Computes the logistic function
        #[fwdad::derive_frule]
        pub fn logistic(p: f64) -> f64 {
            1.0 / ((-p).exp() + 1.0)
        }

        /// Computes the logit function
        ///
        /// # Panics
        ///
        /// If `p < 0.0` or `p > 1.0`
        #[fwdad::derive_frule]
        pub fn logit(p: f64) -> f64 {
            checked_logit(p).unwrap()
        }

        /// Computes the logit function, returning `None` if `p < 0.0` or `p > 1.0`.
        #[fwdad::derive_frule]
        pub fn checked_logit(p: f64) -> Option<f64> {
            if (0.0..=1.0).contains(&p) {
                Some((p / (1.0 - p)).ln())
            } else {
                None
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------

use function::{beta, erf, exponential, gamma, harmonic, logistic};
use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;

const SQRT_PI: f64 = 1.772_453_850_905_516;

fn close(got: f64, want: f64, rel: f64) -> bool {
    (got - want).abs() <= rel * want.abs().max(1e-300) || (got - want).abs() < 1e-300
}

/// Central difference of `f` at `x` with a step scaled to `x`.
fn fd(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * (1.0 + x.abs());
    (f(x + h) - f(x - h)) / (2.0 * h)
}

#[test]
fn primals_are_the_crates() {
    for x in [-3.2f64, -0.6, 0.1, 0.49, 0.8, 1.7, 2.9, 5.5, 12.0] {
        assert_eq!(
            erf::erf(x).to_bits(),
            statrs::function::erf::erf(x).to_bits()
        );
        assert_eq!(
            erf::erfc(x).to_bits(),
            statrs::function::erf::erfc(x).to_bits()
        );
        if x > 0.0 {
            assert_eq!(gamma::ln_gamma(x), statrs::function::gamma::ln_gamma(x));
            assert_eq!(gamma::digamma(x), statrs::function::gamma::digamma(x));
        }
    }
    let (v, _) = derivative(erf::erf {}, 0.8);
    assert_eq!(v, statrs::function::erf::erf(0.8));
}

#[test]
fn erf_family_against_the_gaussian() {
    // Points in each of erf_impl's intervals (z < 0.5, 0.75, 1.25, 2.25, 3.5, 5.25, 8,
    // 11.5, 17, 24, 38, 60, 85, 110, and beyond).
    for x in [
        -4.0f64, -1.1, -0.3, 1e-11, 0.2, 0.6, 1.0, 1.8, 3.0, 4.5, 6.0, 9.0, 14.0, 20.0,
    ] {
        // The rational approximations' own derivatives: close to the Gaussian (to the
        // approximations' accuracy in slope) and to central differences of the crate.
        let gauss = 2.0 / SQRT_PI * (-x * x).exp();
        let (_, d) = derivative(erf::erf {}, x);
        assert!(close(d, gauss, 1e-8), "erf'({x}) = {d}, want {gauss}");
        let f = fd(statrs::function::erf::erf, x);
        assert!(
            (d - f).abs() < 1e-8 * (1.0 + gauss),
            "erf'({x}) = {d}, differences {f}"
        );
        let (_, d) = derivative(erf::erfc {}, x);
        assert!(close(d, -gauss, 1e-8), "erfc'({x}) = {d}, want {}", -gauss);
    }
    // The inverses: d erf⁻¹/dx = √π/2 · e^(y²) with y = erf⁻¹(x).
    for x in [-0.95f64, -0.5, 0.01, 0.3, 0.7, 0.999] {
        let y = statrs::function::erf::erf_inv(x);
        let want = SQRT_PI / 2.0 * (y * y).exp();
        let (_, d) = derivative(erf::erf_inv {}, x);
        assert!(close(d, want, 1e-12), "erf_inv'({x}) = {d}, want {want}");
        let yc = statrs::function::erf::erfc_inv(1.0 - x);
        let (_, d) = derivative(erf::erfc_inv {}, 1.0 - x);
        assert!(
            close(d, -SQRT_PI / 2.0 * (yc * yc).exp(), 1e-12),
            "erfc_inv'({})",
            1.0 - x
        );
    }
}

#[test]
fn gamma_family_against_digamma_and_densities() {
    use statrs::function::gamma::{digamma, gamma as gamma_fn, ln_gamma};
    for x in [0.3f64, 1.5, 2.5, 7.25, 30.0] {
        let (_, d) = derivative(gamma::ln_gamma {}, x);
        assert!(
            close(d, digamma(x), 1e-12),
            "ln_gamma'({x}) = {d}, want {}",
            digamma(x)
        );
        let (_, d) = derivative(gamma::gamma {}, x);
        assert!(close(d, gamma_fn(x) * digamma(x), 1e-12), "gamma'({x})");
        // digamma' is trigamma: against central differences of the crate's digamma.
        let (_, d) = derivative(gamma::digamma {}, x);
        assert!(close(d, fd(digamma, x), 1e-6), "digamma'({x})");
        // Second order: ln Γ'' = ψ'.
        let (_, _, d2) = fwdad::drivers::second_derivative(gamma::ln_gamma {}, x);
        assert!(close(d2, fd(digamma, x), 1e-6), "ln_gamma''({x}) = {d2}");
    }
    // The incomplete functions in x: ±x^(a−1) e^(−x) / Γ(a) (regularised), and in a
    // against central differences.
    for (a, x) in [(0.5f64, 0.2f64), (2.0, 1.5), (3.5, 6.0), (12.0, 9.0)] {
        let dens = ((a - 1.0) * f64::ln(x) - x - ln_gamma(a)).exp();
        let (_, g) = gradient(bind(gamma::gamma_lr {}, (Var(0), Var(1))), &[a, x]);
        assert!(
            close(g[1], dens, 1e-10),
            "gamma_lr x ({a}, {x}): {} vs {dens}",
            g[1]
        );
        let fa = fd(|a| statrs::function::gamma::gamma_lr(a, x), a);
        assert!(
            close(g[0], fa, 1e-6),
            "gamma_lr a ({a}, {x}): {} vs {fa}",
            g[0]
        );
        let (_, g) = gradient(bind(gamma::gamma_ur {}, (Var(0), Var(1))), &[a, x]);
        assert!(close(g[1], -dens, 1e-10), "gamma_ur x ({a}, {x})");
    }
    // inv_digamma bisects: y = eˣ ± 1 ± 1/2 ± ... with signs that are piecewise constant
    // in x, so the derivative of the code as written is eˣ (that of its first guess), not
    // the inverse function's 1/ψ'(y): forward mode differentiates the algorithm.
    for x in [-1.2f64, 0.3, 2.0] {
        let (y, d) = derivative(gamma::inv_digamma {}, x);
        assert_eq!(y, statrs::function::gamma::inv_digamma(x));
        assert_eq!(d, x.exp());
    }
}

#[test]
fn beta_family_against_digamma_and_densities() {
    use statrs::function::beta::{beta as beta_fn, beta_reg, inv_beta_reg};
    use statrs::function::gamma::digamma;
    for (a, b) in [(0.5f64, 0.5f64), (2.0, 3.0), (5.5, 1.25), (30.0, 40.0)] {
        let (_, g) = gradient(bind(beta::ln_beta {}, (Var(0), Var(1))), &[a, b]);
        assert!(
            close(g[0], digamma(a) - digamma(a + b), 1e-11),
            "ln_beta a ({a}, {b})"
        );
        assert!(
            close(g[1], digamma(b) - digamma(a + b), 1e-11),
            "ln_beta b ({a}, {b})"
        );
        let bab = beta_fn(a, b);
        for x in [0.05f64, 0.3, 0.5, 0.8, 0.97] {
            let dens = x.powf(a - 1.0) * (1.0 - x).powf(b - 1.0) / bab;
            let (_, g) = gradient(
                bind(beta::beta_reg {}, (Var(0), Var(1), Var(2))),
                &[a, b, x],
            );
            assert!(
                close(g[2], dens, 1e-9),
                "beta_reg x ({a}, {b}, {x}): {} vs {dens}",
                g[2]
            );
            // Central differences of a value near 0 or 1 lose digits: absolute tolerance.
            let fb = fd(|b| beta_reg(a, b, x), b);
            assert!(
                (g[1] - fb).abs() < 1e-5 * fb.abs() + 1e-9,
                "beta_reg b ({a}, {b}, {x}): {} vs {fb}",
                g[1]
            );
            // The inverse in its probability: 1 / density at the quantile.
            let y = inv_beta_reg(a, b, x);
            let (q, d) = derivative(bind(beta::inv_beta_reg {}, (a, b, Wrt)), x);
            assert_eq!(q, y);
            let dens_y = y.powf(a - 1.0) * (1.0 - y).powf(b - 1.0) / bab;
            assert!(
                close(d, 1.0 / dens_y, 1e-8),
                "inv_beta_reg' ({a}, {b}, {x}): {d} vs {}",
                1.0 / dens_y
            );
        }
    }
}

#[test]
fn logistic_exponential_integral_and_harmonic_numbers() {
    for p in [0.1f64, 0.5, 0.93] {
        let (_, d) = derivative(logistic::logit {}, p);
        assert!(close(d, 1.0 / (p * (1.0 - p)), 1e-13));
        let x = 4.0 * p - 2.0;
        let l = statrs::function::logistic::logistic(x);
        let (_, d) = derivative(logistic::logistic {}, x);
        assert!(close(d, l * (1.0 - l), 1e-13));
    }
    // d E_n/dx = −E_(n−1)(x), and E_0(x) = e^(−x)/x.
    for x in [0.3f64, 1.0, 2.5, 8.0] {
        for n in 1..5u64 {
            let (_, d) = derivative(bind(exponential::integral {}, (Wrt, n)), x);
            let d = d.expect("E_n is defined for x > 0");
            let want = if n == 1 {
                -(-x).exp() / x
            } else {
                -statrs::function::exponential::integral(x, n - 1).unwrap()
            };
            assert!(close(d, want, 1e-9), "E_{n}'({x}) = {d}, want {want}");
        }
    }
    // d/dm of the generalised harmonic number H(n, m) = Σ k^(−m): −Σ ln k · k^(−m).
    for (n, m) in [(5u64, 1.5f64), (40, 2.0), (3, -0.5)] {
        let (_, d) = derivative(bind(harmonic::gen_harmonic {}, (n, Wrt)), m);
        let want: f64 = (1..=n)
            .map(|k| -(k as f64).ln() * (k as f64).powf(-m))
            .sum();
        assert!(close(d, want, 1e-12), "H({n}, {m})' = {d}, want {want}");
    }
}

/// The functions built with `Result` combinators on a helper's result
/// (`checked_ln_beta(a, b).map(|x| x.exp())`, `checked_beta_reg(..).and_then(|x|
/// checked_beta(a, b).map(|y| x * y))`, `checked_gamma_lr(a, x).map(|x| x * gamma(a))`)
/// and the functions unwrapping them: primals bit for bit against the crate, derivatives
/// against the integrands and digamma, in one direction, batched and second order.
#[test]
fn beta_and_incomplete_gamma_through_result_combinators() {
    use statrs::function::beta::{beta as beta_fn, beta_inc};
    use statrs::function::gamma::{digamma, gamma as gamma_fn, gamma_li, gamma_ui};
    for (a, b) in [(0.5f64, 0.5f64), (2.0, 3.0), (5.5, 1.25), (30.0, 40.0)] {
        // d/da B(a, b) = B(a, b) (ψ(a) − ψ(a + b)): a gradient of two lanes.
        let (v, g) = gradient(bind(beta::beta {}, (Var(0), Var(1))), &[a, b]);
        assert_eq!(v.to_bits(), beta_fn(a, b).to_bits());
        let bab = beta_fn(a, b);
        assert!(close(g[0], bab * (digamma(a) - digamma(a + b)), 1e-11));
        assert!(close(g[1], bab * (digamma(b) - digamma(a + b)), 1e-11));
        // The `Result` itself, in one direction.
        let (r, d) = derivative(bind(beta::checked_beta {}, (Wrt, b)), a);
        assert_eq!(r.unwrap().to_bits(), bab.to_bits());
        assert!(close(
            d.unwrap(),
            bab * (digamma(a) - digamma(a + b)),
            1e-11
        ));
        for x in [0.05f64, 0.3, 0.5, 0.8, 0.97] {
            // d/dx B(a, b, x) = x^(a−1) (1−x)^(b−1); in a and b, central differences of
            // the crate.
            let (v, g) = gradient(
                bind(beta::beta_inc {}, (Var(0), Var(1), Var(2))),
                &[a, b, x],
            );
            assert_eq!(v.to_bits(), beta_inc(a, b, x).to_bits());
            let dens = x.powf(a - 1.0) * (1.0 - x).powf(b - 1.0);
            assert!(
                close(g[2], dens, 1e-9),
                "beta_inc x ({a}, {b}, {x}): {} vs {dens}",
                g[2]
            );
            let fa = fd(|a| beta_inc(a, b, x), a);
            assert!(
                (g[0] - fa).abs() < 1e-5 * fa.abs() + 1e-9,
                "beta_inc a ({a}, {b}, {x}): {} vs {fa}",
                g[0]
            );
            let (r, d) = derivative(bind(beta::checked_beta_inc {}, (a, b, Wrt)), x);
            assert_eq!(r.unwrap().to_bits(), beta_inc(a, b, x).to_bits());
            assert!(close(d.unwrap(), dens, 1e-9));
            // Second order: d²/dx² = x^(a−2) (1−x)^(b−2) ((a−1)(1−x) − (b−1)x).
            let (_, _, d2) =
                fwdad::drivers::second_derivative(bind(beta::beta_inc {}, (a, b, Wrt)), x);
            let want =
                x.powf(a - 2.0) * (1.0 - x).powf(b - 2.0) * ((a - 1.0) * (1.0 - x) - (b - 1.0) * x);
            assert!(
                (d2 - want).abs() < 1e-8 * want.abs() + 1e-8,
                "beta_inc'' ({a}, {b}, {x}): {d2} vs {want}"
            );
        }
    }
    // Out of the domain the error comes through `map` and `and_then` unchanged.
    let (r, _) = derivative(bind(beta::checked_beta {}, (Wrt, 2.0)), -1.0);
    assert_eq!(r, Err(beta::BetaFuncError::ANotGreaterThanZero));
    let (r, _) = derivative(bind(beta::checked_beta_inc {}, (2.0, 3.0, Wrt)), 1.5);
    assert_eq!(r, Err(beta::BetaFuncError::XOutOfRange));
    let (r, _) = derivative(bind(beta::checked_beta_inc {}, (2.0, Wrt, 0.5)), -3.0);
    assert_eq!(r, Err(beta::BetaFuncError::BNotGreaterThanZero));

    // The unregularised incomplete gamma functions: d/dx γ(a, x) = x^(a−1) e^(−x) = −d/dx
    // Γ(a, x); in a, central differences of the crate.
    for (a, x) in [(0.5f64, 0.2f64), (2.0, 1.5), (3.5, 6.0), (12.0, 9.0)] {
        let dens = x.powf(a - 1.0) * (-x).exp();
        let (v, g) = gradient(bind(gamma::gamma_li {}, (Var(0), Var(1))), &[a, x]);
        assert_eq!(v.to_bits(), gamma_li(a, x).to_bits());
        assert!(
            close(g[1], dens, 1e-10),
            "gamma_li x ({a}, {x}): {} vs {dens}",
            g[1]
        );
        let fa = fd(|a| gamma_li(a, x), a);
        assert!(
            close(g[0], fa, 1e-6),
            "gamma_li a ({a}, {x}): {} vs {fa}",
            g[0]
        );
        let (v, g) = gradient(bind(gamma::gamma_ui {}, (Var(0), Var(1))), &[a, x]);
        assert_eq!(v.to_bits(), gamma_ui(a, x).to_bits());
        assert!(close(g[1], -dens, 1e-10), "gamma_ui x ({a}, {x})");
        let fa = fd(|a| gamma_ui(a, x), a);
        assert!(
            close(g[0], fa, 1e-6),
            "gamma_ui a ({a}, {x}): {} vs {fa}",
            g[0]
        );
        // γ(a, x) + Γ(a, x) = Γ(a): their a-derivatives add up to Γ(a) ψ(a).
        let (_, gl) = gradient(bind(gamma::gamma_li {}, (Var(0), Var(1))), &[a, x]);
        assert!(close(gl[0] + g[0], gamma_fn(a) * digamma(a), 1e-9));
        let (r, d) = derivative(bind(gamma::checked_gamma_li {}, (a, Wrt)), x);
        assert_eq!(r.unwrap().to_bits(), gamma_li(a, x).to_bits());
        assert!(close(d.unwrap(), dens, 1e-10));
        let (r, d) = derivative(bind(gamma::checked_gamma_ui {}, (a, Wrt)), x);
        assert_eq!(r.unwrap().to_bits(), gamma_ui(a, x).to_bits());
        assert!(close(d.unwrap(), -dens, 1e-10));
        // Second order: d²/dx² γ(a, x) = x^(a−2) e^(−x) (a − 1 − x).
        let (_, _, d2) = fwdad::drivers::second_derivative(bind(gamma::gamma_li {}, (a, Wrt)), x);
        let want = x.powf(a - 2.0) * (-x).exp() * (a - 1.0 - x);
        assert!(
            (d2 - want).abs() < 1e-9 * want.abs() + 1e-12,
            "gamma_li'' ({a}, {x}): {d2} vs {want}"
        );
    }
    let (r, _) = derivative(bind(gamma::checked_gamma_ui {}, (Wrt, 1.0)), -2.0);
    assert_eq!(r, Err(gamma::GammaFuncError::AInvalid));
}

/// ψ'(z) for z > 0, written out independently: the recurrence ψ'(z) = ψ'(z + 1) + 1/z²
/// up to z ≥ 10, then the asymptotic series.
fn trigamma(mut z: f64) -> f64 {
    let mut acc = 0.0;
    while z < 10.0 {
        acc += 1.0 / (z * z);
        z += 1.0;
    }
    let r = 1.0 / z;
    let r2 = r * r;
    acc + r + r2 / 2.0 + r * r2 * (1.0 / 6.0 - r2 * (1.0 / 30.0 - r2 * (1.0 / 42.0 - r2 / 30.0)))
}

/// Full Hessians and batched gradients: ln B(a, b)'s Hessian is ψ'(a) − ψ'(a + b) on the
/// diagonal and −ψ'(a + b) off it; the regularised incomplete beta's Hessian in (a, b, x)
/// against central differences of the gradient, and its x-row against the density's
/// derivatives; the batch driver at widths 2 and 4 against the default.
#[test]
fn hessians_and_batched_gradients() {
    use statrs::function::beta::beta as beta_fn;
    use statrs::function::gamma::digamma;
    for (a, b) in [(0.5f64, 0.5f64), (2.0, 3.0), (5.5, 1.25), (30.0, 40.0)] {
        let (v, g, h) = hessian(bind(beta::ln_beta {}, (Var(0), Var(1))), &[a, b]);
        assert_eq!(v.to_bits(), statrs::function::beta::ln_beta(a, b).to_bits());
        assert!(close(g[0], digamma(a) - digamma(a + b), 1e-11));
        let tab = trigamma(a + b);
        let want = [[trigamma(a) - tab, -tab], [-tab, trigamma(b) - tab]];
        for i in 0..2 {
            for j in 0..2 {
                assert!(
                    close(h[(i, j)], want[i][j], 1e-9),
                    "ln_beta H[{i},{j}] ({a}, {b}): {} vs {}",
                    h[(i, j)],
                    want[i][j]
                );
            }
        }
        let (_, g2) =
            fwdad::drivers::gradient_with::<2>(bind(beta::ln_beta {}, (Var(0), Var(1))), &[a, b]);
        assert!(g2[0] == g[0] && g2[1] == g[1]);
    }
    // Non-integer parameters: at an integer `b` (after the symmetry swap, an integer `a`)
    // the continued fraction has a zero partial numerator `m (b − m)`, its value is exact
    // there and the loop stops, while its derivative in that parameter still needs the
    // tail: the rule differentiates the code as written, and its ∂I/∂a at (2, 3, 0.5) is
    // −0.1952827 where the function's is −0.1952887 (the stopping test looks at the value
    // only, as `inv_digamma`'s bisection above).
    for (a, b) in [(0.5f64, 0.5f64), (2.5, 3.5), (5.5, 1.25)] {
        let bab = beta_fn(a, b);
        for x in [0.3f64, 0.5, 0.8] {
            let p = [a, b, x];
            let rule = || bind(beta::beta_reg {}, (Var(0), Var(1), Var(2)));
            let (_, g) = gradient(rule(), &p);
            let (_, g4) = fwdad::drivers::gradient_with::<4>(rule(), &p);
            let (_, g3, h) = hessian(rule(), &p);
            for i in 0..3 {
                assert!(close(g4[i], g[i], 1e-14) && close(g3[i], g[i], 1e-14));
            }
            // ∂²I/∂x² = density · ((a − 1)/x − (b − 1)/(1 − x)).
            let dens = x.powf(a - 1.0) * (1.0 - x).powf(b - 1.0) / bab;
            let want = dens * ((a - 1.0) / x - (b - 1.0) / (1.0 - x));
            assert!(
                (h[(2, 2)] - want).abs() < 1e-8 * want.abs() + 1e-9,
                "beta_reg I_xx ({a}, {b}, {x}): {} vs {want}",
                h[(2, 2)]
            );
            // ∂²I/∂x∂a = density · (ln x − ψ(a) + ψ(a + b)).
            let want = dens * (x.ln() - digamma(a) + digamma(a + b));
            assert!(
                (h[(2, 0)] - want).abs() < 1e-8 * want.abs() + 1e-9,
                "beta_reg I_xa ({a}, {b}, {x}): {} vs {want}",
                h[(2, 0)]
            );
            for i in 0..3 {
                for j in 0..3 {
                    assert!(
                        (h[(i, j)] - h[(j, i)]).abs() <= 1e-10 * (1.0 + h[(i, j)].abs()),
                        "symmetry"
                    );
                    let d = fd(
                        |t| {
                            let mut q = p;
                            q[j] = t;
                            gradient(rule(), &q).1[i]
                        },
                        p[j],
                    );
                    assert!(
                        (h[(i, j)] - d).abs() < 1e-5 * d.abs() + 1e-6,
                        "beta_reg H[{i},{j}] ({a}, {b}, {x}): {} vs {d}",
                        h[(i, j)]
                    );
                }
            }
        }
    }
}
