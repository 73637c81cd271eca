//! statrs 0.19.1's continuous distributions as structs with methods (MIT licensed,
//! <https://github.com/statrs-dev/statrs>): `Normal`, `LogNormal`, `Exp`, `Cauchy`,
//! `Laplace`, `Weibull` and `Gamma` with their `Continuous` (`pdf`, `ln_pdf`),
//! `ContinuousCDF` (`cdf`, `sf`, `inverse_cdf`: the normal's through `erfc_inv`, the
//! gamma's by a safeguarded Newton iteration over its own `cdf` and `pdf`) and
//! `Distribution` (`mean`, `variance`, `entropy`, .. as `Option`s) implementations, and
//! the free functions `pdf_unchecked`, `cdf_unchecked`, .. they call. Copied here:
//! `src/distribution/{normal,log_normal,exponential,cauchy,laplace,weibull,gamma}.rs`
//! without their tests; from `src/distribution/mod.rs` the traits `ContinuousCDF` and
//! `Continuous` and `InverseCdfError`; `src/statistics/traits.rs` (as `statistics`, the
//! module re-exporting it); and the special functions they call (`erf`, `evaluate`,
//! `gamma`), `consts` and `prec` as `tests/statrs_verbatim.rs` copies them. Annotated:
//! `#[fwdad::derive_frule]` on each distribution's inherent `impl` and its `impl`s of the
//! crate's traits at `f64` (`impl ContinuousCDF<f64, f64> for Normal`, ..), on the free
//! functions, and on `prec::convergence` (the gamma quantile's iteration writes through
//! it); `fwdad::Differentiable` added to each distribution's derive list. `Weibull`'s
//! `impl Distribution<f64>` stays plain: its `skewness` calls the trait's default
//! `std_dev`, which has no rule (`docs/limits.md`). The traits
//! themselves stay plain: they are generic (`trait ContinuousCDF<K: Float, T: Float>`),
//! which `#[derive_frule]` does not take (`docs/limits.md`), so their default methods
//! (`ContinuousCDF::inverse_cdf` by bisection, `Distribution::std_dev`) have no rules.
//!
//! Checked: densities, distribution functions and quantiles in each distribution's
//! parameters and argument, in every mode, against central differences of the published
//! crate and identities evaluated with it (`d cdf/dx = pdf`, `dQ/dp = 1/pdf(Q)`, the
//! normal likelihood's score); primals bit for bit against the published crate.

// statrs' `#[cfg(not(feature = "std"))]` and `cfg(feature = "rand")` items, for features this
// crate does not have.
#![allow(unexpected_cfgs)]

mod common;

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
    #[fwdad::derive_frule]
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
}

#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
pub mod statistics {
    // src/statistics/mod.rs: `pub use self::traits::*;` (the other modules left out)
    pub use self::traits::*;

    mod traits {
        use ::num_traits::float::Float;

        /// The `Min` trait specifies than an object has a minimum value
        pub trait Min<T> {
            /// Returns the minimum value in the domain of a given distribution
            /// if it exists, otherwise `None`.
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::statistics::Min;
            /// use statrs::distribution::Uniform;
            ///
            /// let n = Uniform::new(0.0, 1.0).unwrap();
            /// assert_eq!(0.0, n.min());
            /// ```
            fn min(&self) -> T;
        }

        /// The `Max` trait specifies that an object has a maximum value
        pub trait Max<T> {
            /// Returns the maximum value in the domain of a given distribution
            /// if it exists, otherwise `None`.
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::statistics::Max;
            /// use statrs::distribution::Uniform;
            ///
            /// let n = Uniform::new(0.0, 1.0).unwrap();
            /// assert_eq!(1.0, n.max());
            /// ```
            fn max(&self) -> T;
        }
        pub trait DiscreteDistribution<T: Float> {
            /// Returns the mean, if it exists.
            fn mean(&self) -> Option<T> {
                None
            }
            /// Returns the variance, if it exists.
            fn variance(&self) -> Option<T> {
                None
            }
            /// Returns the standard deviation, if it exists.
            fn std_dev(&self) -> Option<T> {
                self.variance().map(|var| var.sqrt())
            }
            /// Returns the entropy, if it exists.
            fn entropy(&self) -> Option<T> {
                None
            }
            /// Returns the skewness, if it exists.
            fn skewness(&self) -> Option<T> {
                None
            }
        }

        pub trait Distribution<T: Float> {
            /// Returns the mean, if it exists.
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::statistics::Distribution;
            /// use statrs::distribution::Uniform;
            ///
            /// let n = Uniform::new(0.0, 1.0).unwrap();
            /// assert_eq!(0.5, n.mean().unwrap());
            /// ```
            fn mean(&self) -> Option<T> {
                None
            }
            /// Returns the variance, if it exists.
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::statistics::Distribution;
            /// use statrs::distribution::Uniform;
            ///
            /// let n = Uniform::new(0.0, 1.0).unwrap();
            /// assert_eq!(1.0 / 12.0, n.variance().unwrap());
            /// ```
            fn variance(&self) -> Option<T> {
                None
            }
            /// Returns the standard deviation, if it exists.
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::statistics::Distribution;
            /// use statrs::distribution::Uniform;
            ///
            /// let n = Uniform::new(0.0, 1.0).unwrap();
            /// assert_eq!((1f64 / 12f64).sqrt(), n.std_dev().unwrap());
            /// ```
            fn std_dev(&self) -> Option<T> {
                self.variance().map(|var| var.sqrt())
            }
            /// Returns the entropy, if it exists.
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::statistics::Distribution;
            /// use statrs::distribution::Uniform;
            ///
            /// let n = Uniform::new(0.0, 1.0).unwrap();
            /// assert_eq!(0.0, n.entropy().unwrap());
            /// ```
            fn entropy(&self) -> Option<T> {
                None
            }
            /// Returns the skewness, if it exists.
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::statistics::Distribution;
            /// use statrs::distribution::Uniform;
            ///
            /// let n = Uniform::new(0.0, 1.0).unwrap();
            /// assert_eq!(0.0, n.skewness().unwrap());
            /// ```
            fn skewness(&self) -> Option<T> {
                None
            }
        }

        /// The `Mean` trait implements the calculation of a mean.
        // TODO: Clarify the traits of multidimensional distributions
        pub trait MeanN<T> {
            fn mean(&self) -> Option<T>;
        }

        // TODO: Clarify the traits of multidimensional distributions
        pub trait VarianceN<T> {
            fn variance(&self) -> Option<T>;
        }

        /// The `Median` trait returns the median of the distribution.
        pub trait Median<T> {
            /// Returns the median.
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::statistics::Median;
            /// use statrs::distribution::Uniform;
            ///
            /// let n = Uniform::new(0.0, 1.0).unwrap();
            /// assert_eq!(0.5, n.median());
            /// ```
            fn median(&self) -> T;
        }

        /// The `Mode` trait specifies that an object has a closed form solution
        /// for its mode(s)
        pub trait Mode<T> {
            /// Returns the mode, if one exists.
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::statistics::Mode;
            /// use statrs::distribution::Uniform;
            ///
            /// let n = Uniform::new(0.0, 1.0).unwrap();
            /// assert_eq!(Some(0.5), n.mode());
            /// ```
            fn mode(&self) -> T;
        }
    }
}

#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
pub mod distribution {
    //! Defines common interfaces for interacting with statistical distributions
    //! and provides
    //! concrete implementations for a variety of distributions.
    use super::statistics::{Max, Min};
    use ::num_traits::{Float, Num};
    use num_traits::NumAssignOps;

    /// Represents the errors that can occur when computing [`ContinuousCDF::try_inverse_cdf`].
    #[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
    #[non_exhaustive]
    pub enum InverseCdfError {
        /// The argument `p` is outside the closed interval `[0, 1]`.
        ArgumentOutOfRange,
    }

    impl core::fmt::Display for InverseCdfError {
        #[cfg_attr(coverage_nightly, coverage(off))]
        fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
            match self {
                InverseCdfError::ArgumentOutOfRange => write!(f, "argument is outside [0, 1]"),
            }
        }
    }

    impl core::error::Error for InverseCdfError {}

    /// The `ContinuousCDF` trait is used to specify an interface for univariate
    /// distributions for which cdf float arguments are sensible.
    pub trait ContinuousCDF<K: Float, T: Float>: Min<K> + Max<K> {
        /// Returns the cumulative distribution function calculated
        /// at `x` for a given distribution. May panic depending
        /// on the implementor.
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{ContinuousCDF, Uniform};
        ///
        /// let n = Uniform::new(0.0, 1.0).unwrap();
        /// assert_eq!(0.5, n.cdf(0.5));
        /// ```
        fn cdf(&self, x: K) -> T;

        /// Returns the survival function calculated
        /// at `x` for a given distribution. May panic depending
        /// on the implementor.
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{ContinuousCDF, Uniform};
        ///
        /// let n = Uniform::new(0.0, 1.0).unwrap();
        /// assert_eq!(0.5, n.sf(0.5));
        /// ```
        fn sf(&self, x: K) -> T {
            T::one() - self.cdf(x)
        }

        /// Due to issues with rounding and floating-point accuracy the default
        /// implementation may be ill-behaved.
        /// Specialized inverse cdfs should be used whenever possible.
        /// Performs a binary search on the domain of `cdf` to obtain an approximation
        /// of `F^-1(p) := inf { x | F(x) >= p }`. Needless to say, performance may
        /// be lacking.
        #[doc(alias = "quantile function")]
        #[doc(alias = "quantile")]
        fn inverse_cdf(&self, p: T) -> K {
            if p == T::zero() {
                return self.min();
            };
            if p == T::one() {
                return self.max();
            };
            let two = K::one() + K::one();

            // Bracket the root, preferring the distribution's own domain bounds and
            // only doubling outward from ±2 when a bound is not finite.
            let mut low = self.min();
            if !low.is_finite() {
                low = -two;
                while self.cdf(low) > p {
                    low = low + low;
                }
            }
            let mut high = self.max();
            if !high.is_finite() {
                high = two;
                while self.cdf(high) < p {
                    high = high + high;
                }
            }

            // In the upper half invert the survival function instead of the cdf:
            // as `cdf` saturates to one it loses the resolution needed to place the
            // quantile, whereas `sf` keeps that tail well conditioned.
            let upper = p > T::one() / (T::one() + T::one());
            let target = if upper { T::one() - p } else { p };

            // Bisect until the bracket agrees to the crate's relative accuracy. A
            // fixed iteration count cannot approach this when the bracket is wide or
            // the quantile lies deep in a tail, where the search would otherwise
            // return the bracket midpoint rather than the true value.
            let accuracy = K::from(crate::prec::DEFAULT_RELATIVE_ACC).unwrap();
            for _ in 0..100 {
                let mid = low + (high - low) / two;
                if mid <= low || mid >= high {
                    break;
                }
                let above = if upper {
                    self.sf(mid) <= target
                } else {
                    self.cdf(mid) >= target
                };
                if above {
                    high = mid;
                } else {
                    low = mid;
                }
                if (high - low).abs() <= accuracy * low.abs().max(high.abs()) {
                    break;
                }
            }
            low + (high - low) / two
        }

        /// Due to issues with rounding and floating-point accuracy the default
        /// implementation may be ill-behaved.
        /// Specialized inverse cdfs should be used whenever possible.
        /// Performs a binary search on the domain of `cdf` to obtain an approximation
        /// of `F^-1(p) := inf { x | F(x) >= p }`. Needless to say, performance may
        /// may be lacking.
        #[doc(alias = "quantile function")]
        #[doc(alias = "quantile")]
        fn try_inverse_cdf(&self, p: T) -> Result<K, InverseCdfError> {
            Ok(self.inverse_cdf(p))
        }
    }


    /// The `Continuous` trait  provides an interface for interacting with
    /// continuous statistical distributions
    ///
    /// # Remarks
    ///
    /// All methods provided by the `Continuous` trait are unchecked, meaning
    /// they can panic if in an invalid state or encountering invalid input
    /// depending on the implementing distribution.
    pub trait Continuous<K, T> {
        /// Returns the probability density function calculated at `x` for a given
        /// distribution.
        /// May panic depending on the implementor.
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{Continuous, Uniform};
        ///
        /// let n = Uniform::new(0.0, 1.0).unwrap();
        /// assert_eq!(1.0, n.pdf(0.5));
        /// ```
        fn pdf(&self, x: K) -> T;

        /// Returns the log of the probability density function calculated at `x`
        /// for a given distribution.
        /// May panic depending on the implementor.
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{Continuous, Uniform};
        ///
        /// let n = Uniform::new(0.0, 1.0).unwrap();
        /// assert_eq!(0.0, n.ln_pdf(0.5));
        /// ```
        fn ln_pdf(&self, x: K) -> T;
    }


    // src/distribution/mod.rs's re-exports and modules of these seven.
    pub use self::normal::{Normal, NormalError};
    pub use self::log_normal::{LogNormal, LogNormalError};
    pub use self::exponential::{Exp, ExpError};
    pub use self::cauchy::{Cauchy, CauchyError};
    pub use self::laplace::{Laplace, LaplaceError};
    pub use self::weibull::{Weibull, WeibullError};
    pub use self::gamma::{Gamma, GammaError};

    // ---- src/distribution/normal.rs ----
    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    mod normal {
        use crate::consts;
        use crate::distribution::{Continuous, ContinuousCDF};
        use crate::function::erf;
        use crate::statistics::*;
        use core::f64::consts as f64_consts;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Implements the [Normal](https://en.wikipedia.org/wiki/Normal_distribution)
        /// distribution
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{Normal, Continuous};
        /// use statrs::statistics::Distribution;
        ///
        /// let n = Normal::new(0.0, 1.0).unwrap();
        /// assert_eq!(n.mean().unwrap(), 0.0);
        /// assert_eq!(n.pdf(1.0), 0.2419707245191433497978);
        /// ```
        #[derive(Copy, Clone, PartialEq, Debug, fwdad::Differentiable)]
        pub struct Normal {
            mean: f64,
            std_dev: f64,
        }

        /// Represents the errors that can occur when creating a [`Normal`].
        #[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
        #[non_exhaustive]
        pub enum NormalError {
            /// The mean is NaN.
            MeanInvalid,

            /// The standard deviation is NaN, zero or less than zero.
            StandardDeviationInvalid,
        }

        impl core::fmt::Display for NormalError {
            #[cfg_attr(coverage_nightly, coverage(off))]
            fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                match self {
                    NormalError::MeanInvalid => write!(f, "Mean is NaN"),
                    NormalError::StandardDeviationInvalid => {
                        write!(f, "Standard deviation is NaN, zero or less than zero")
                    }
                }
            }
        }

        impl core::error::Error for NormalError {}

        #[fwdad::derive_frule]
        impl Normal {
            ///  Constructs a new normal distribution with a mean of `mean`
            /// and a standard deviation of `std_dev`
            ///
            /// # Errors
            ///
            /// Returns an error if `mean` or `std_dev` are `NaN` or if
            /// `std_dev <= 0.0`
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Normal;
            ///
            /// let mut result = Normal::new(0.0, 1.0);
            /// assert!(result.is_ok());
            ///
            /// result = Normal::new(0.0, 0.0);
            /// assert!(result.is_err());
            /// ```
            pub fn new(mean: f64, std_dev: f64) -> Result<Normal, NormalError> {
                if mean.is_nan() {
                    return Err(NormalError::MeanInvalid);
                }

                if std_dev.is_nan() || std_dev <= 0.0 {
                    return Err(NormalError::StandardDeviationInvalid);
                }

                Ok(Normal { mean, std_dev })
            }

            /// Constructs a new standard normal distribution with a mean of 0
            /// and a standard deviation of 1.
            ///
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Normal;
            ///
            /// let mut result = Normal::standard();
            /// ```
            pub fn standard() -> Normal {
                Normal {
                    mean: 0.0,
                    std_dev: 1.0,
                }
            }
        }

        impl core::fmt::Display for Normal {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "N({},{})", self.mean, self.std_dev)
            }
        }

        #[cfg(feature = "rand")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
        impl ::rand::distr::Distribution<f64> for Normal {
            fn sample<R: ::rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
                sample_unchecked(rng, self.mean, self.std_dev)
            }
        }

        #[fwdad::derive_frule]
        impl ContinuousCDF<f64, f64> for Normal {
            /// Calculates the cumulative distribution function for the
            /// normal distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / 2) * (1 + erf((x - μ) / (σ * sqrt(2))))
            /// ```
            ///
            /// where `μ` is the mean, `σ` is the standard deviation, and
            /// `erf` is the error function
            fn cdf(&self, x: f64) -> f64 {
                cdf_unchecked(x, self.mean, self.std_dev)
            }

            /// Calculates the survival function for the
            /// normal distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / 2) * (1 + erf(-(x - μ) / (σ * sqrt(2))))
            /// ```
            ///
            /// where `μ` is the mean, `σ` is the standard deviation, and
            /// `erf` is the error function
            ///
            /// note that this calculates the complement due to flipping
            /// the sign of the argument error function with respect to the cdf.
            ///
            /// the normal cdf Φ (and internal error function) as the following property:
            /// ```text
            ///  Φ(-x) + Φ(x) = 1
            ///  Φ(-x)        = 1 - Φ(x)
            /// ```
            fn sf(&self, x: f64) -> f64 {
                sf_unchecked(x, self.mean, self.std_dev)
            }

            /// Calculates the inverse cumulative distribution function for the
            /// normal distribution at `x`.
            /// In other languages, such as R, this is known as the the quantile function.
            ///
            /// # Panics
            ///
            /// If `x < 0.0` or `x > 1.0`
            ///
            /// # Formula
            ///
            /// ```text
            /// μ - sqrt(2) * σ * erfc_inv(2x)
            /// ```
            ///
            /// where `μ` is the mean, `σ` is the standard deviation and `erfc_inv` is
            /// the inverse of the complementary error function
            fn inverse_cdf(&self, x: f64) -> f64 {
                if !(0.0..=1.0).contains(&x) {
                    panic!("x must be in [0, 1]");
                } else {
                    self.mean - (self.std_dev * f64_consts::SQRT_2 * erf::erfc_inv(2.0 * x))
                }
            }
        }

        #[fwdad::derive_frule]
        impl Min<f64> for Normal {
            /// Returns the minimum value in the domain of the
            /// normal distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// f64::NEG_INFINITY
            /// ```
            fn min(&self) -> f64 {
                f64::NEG_INFINITY
            }
        }

        #[fwdad::derive_frule]
        impl Max<f64> for Normal {
            /// Returns the maximum value in the domain of the
            /// normal distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// f64::INFINITY
            /// ```
            fn max(&self) -> f64 {
                f64::INFINITY
            }
        }

        #[fwdad::derive_frule]
        impl Distribution<f64> for Normal {
            /// Returns the mean of the normal distribution
            ///
            /// # Remarks
            ///
            /// This is the same mean used to construct the distribution
            fn mean(&self) -> Option<f64> {
                Some(self.mean)
            }

            /// Returns the variance of the normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// σ^2
            /// ```
            ///
            /// where `σ` is the standard deviation
            fn variance(&self) -> Option<f64> {
                Some(self.std_dev * self.std_dev)
            }

            /// Returns the standard deviation of the normal distribution
            /// # Remarks
            /// This is the same standard deviation used to construct the distribution
            fn std_dev(&self) -> Option<f64> {
                Some(self.std_dev)
            }

            /// Returns the entropy of the normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / 2) * ln(2σ^2 * π * e)
            /// ```
            ///
            /// where `σ` is the standard deviation
            fn entropy(&self) -> Option<f64> {
                Some(self.std_dev.ln() + consts::LN_SQRT_2PIE)
            }

            /// Returns the skewness of the normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// 0
            /// ```
            fn skewness(&self) -> Option<f64> {
                Some(0.0)
            }
        }

        #[fwdad::derive_frule]
        impl Median<f64> for Normal {
            /// Returns the median of the normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// μ
            /// ```
            ///
            /// where `μ` is the mean
            fn median(&self) -> f64 {
                self.mean
            }
        }

        #[fwdad::derive_frule]
        impl Mode<Option<f64>> for Normal {
            /// Returns the mode of the normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// μ
            /// ```
            ///
            /// where `μ` is the mean
            fn mode(&self) -> Option<f64> {
                Some(self.mean)
            }
        }

        #[fwdad::derive_frule]
        impl Continuous<f64, f64> for Normal {
            /// Calculates the probability density function for the normal distribution
            /// at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / sqrt(2σ^2 * π)) * e^(-(x - μ)^2 / 2σ^2)
            /// ```
            ///
            /// where `μ` is the mean and `σ` is the standard deviation
            fn pdf(&self, x: f64) -> f64 {
                pdf_unchecked(x, self.mean, self.std_dev)
            }

            /// Calculates the log probability density function for the normal
            /// distribution
            /// at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// ln((1 / sqrt(2σ^2 * π)) * e^(-(x - μ)^2 / 2σ^2))
            /// ```
            ///
            /// where `μ` is the mean and `σ` is the standard deviation
            fn ln_pdf(&self, x: f64) -> f64 {
                ln_pdf_unchecked(x, self.mean, self.std_dev)
            }
        }

        /// performs an unchecked cdf calculation for a normal distribution
        /// with the given mean and standard deviation at x
        #[fwdad::derive_frule]
        pub fn cdf_unchecked(x: f64, mean: f64, std_dev: f64) -> f64 {
            0.5 * erf::erfc((mean - x) / (std_dev * f64_consts::SQRT_2))
        }

        /// performs an unchecked sf calculation for a normal distribution
        /// with the given mean and standard deviation at x
        #[fwdad::derive_frule]
        pub fn sf_unchecked(x: f64, mean: f64, std_dev: f64) -> f64 {
            0.5 * erf::erfc((x - mean) / (std_dev * f64_consts::SQRT_2))
        }

        /// performs an unchecked pdf calculation for a normal distribution
        /// with the given mean and standard deviation at x
        #[fwdad::derive_frule]
        pub fn pdf_unchecked(x: f64, mean: f64, std_dev: f64) -> f64 {
            let d = (x - mean) / std_dev;
            (-0.5 * d * d).exp() / (consts::SQRT_2PI * std_dev)
        }

        /// performs an unchecked log(pdf) calculation for a normal distribution
        /// with the given mean and standard deviation at x
        #[fwdad::derive_frule]
        pub fn ln_pdf_unchecked(x: f64, mean: f64, std_dev: f64) -> f64 {
            let d = (x - mean) / std_dev;
            (-0.5 * d * d) - consts::LN_SQRT_2PI - std_dev.ln()
        }

        #[cfg(feature = "rand")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
        /// draws a sample from a normal distribution using the Box-Muller algorithm
        pub fn sample_unchecked<R: ::rand::Rng + ?Sized>(rng: &mut R, mean: f64, std_dev: f64) -> f64 {
            use crate::distribution::ziggurat;

            mean + std_dev * ziggurat::sample_std_normal(rng)
        }

        impl core::default::Default for Normal {
            /// Returns the standard normal distribution with a mean of 0
            /// and a standard deviation of 1.
            fn default() -> Self {
                Self::standard()
            }
        }
    }

    // ---- src/distribution/log_normal.rs ----
    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    mod log_normal {
        use crate::consts;
        use crate::distribution::{Continuous, ContinuousCDF};
        use crate::function::erf;
        use crate::statistics::*;
        use core::f64::consts as f64_consts;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Implements the
        /// [Log-normal](https://en.wikipedia.org/wiki/Log-normal_distribution)
        /// distribution
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{LogNormal, Continuous};
        /// use statrs::statistics::Distribution;
        /// use approx::assert_abs_diff_eq;
        ///
        /// let n = LogNormal::new(0.0, 1.0).unwrap();
        /// assert_eq!(n.mean().unwrap(), (0.5f64).exp());
        /// assert_abs_diff_eq!(n.pdf(1.0), 0.3989422804014326779399, epsilon = 1e-16);
        /// ```
        #[derive(Copy, Clone, PartialEq, Debug, fwdad::Differentiable)]
        pub struct LogNormal {
            location: f64,
            scale: f64,
        }

        /// Represents the errors that can occur when creating a [`LogNormal`].
        #[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
        #[non_exhaustive]
        pub enum LogNormalError {
            /// The location is NaN.
            LocationInvalid,

            /// The scale is NaN, zero or less than zero.
            ScaleInvalid,
        }

        impl core::fmt::Display for LogNormalError {
            #[cfg_attr(coverage_nightly, coverage(off))]
            fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                match self {
                    LogNormalError::LocationInvalid => write!(f, "Location is NaN"),
                    LogNormalError::ScaleInvalid => write!(f, "Scale is NaN, zero or less than zero"),
                }
            }
        }

        impl core::error::Error for LogNormalError {}

        #[fwdad::derive_frule]
        impl LogNormal {
            /// Constructs a new log-normal distribution with a location of `location`
            /// and a scale of `scale`
            ///
            /// # Errors
            ///
            /// Returns an error if `location` or `scale` are `NaN`.
            /// Returns an error if `scale <= 0.0`
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::LogNormal;
            ///
            /// let mut result = LogNormal::new(0.0, 1.0);
            /// assert!(result.is_ok());
            ///
            /// result = LogNormal::new(0.0, 0.0);
            /// assert!(result.is_err());
            /// ```
            pub fn new(location: f64, scale: f64) -> Result<LogNormal, LogNormalError> {
                if location.is_nan() {
                    return Err(LogNormalError::LocationInvalid);
                }

                if scale.is_nan() || scale <= 0.0 {
                    return Err(LogNormalError::ScaleInvalid);
                }

                Ok(LogNormal { location, scale })
            }

            /// Returns the location of the log-normal distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::LogNormal;
            ///
            /// let n = LogNormal::new(0.0, 1.0).unwrap();
            /// assert_eq!(n.location(), 0.0);
            /// ```
            pub fn location(&self) -> f64 {
                self.location
            }

            /// Returns the scale of the log-normal distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::LogNormal;
            ///
            /// let n = LogNormal::new(0.0, 1.0).unwrap();
            /// assert_eq!(n.scale(), 1.0);
            /// ```
            pub fn scale(&self) -> f64 {
                self.scale
            }
        }

        impl core::fmt::Display for LogNormal {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "LogNormal({}, {}^2)", self.location, self.scale)
            }
        }

        #[cfg(feature = "rand")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
        impl ::rand::distr::Distribution<f64> for LogNormal {
            fn sample<R: ::rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
                super::normal::sample_unchecked(rng, self.location, self.scale).exp()
            }
        }

        #[fwdad::derive_frule]
        impl ContinuousCDF<f64, f64> for LogNormal {
            /// Calculates the cumulative distribution function for the log-normal
            /// distribution
            /// at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / 2) + (1 / 2) * erf((ln(x) - μ) / sqrt(2) * σ)
            /// ```
            ///
            /// where `μ` is the location, `σ` is the scale, and `erf` is the
            /// error function
            fn cdf(&self, x: f64) -> f64 {
                if x <= 0.0 {
                    0.0
                } else if x.is_infinite() {
                    1.0
                } else {
                    0.5 * erf::erfc((self.location - x.ln()) / (self.scale * f64_consts::SQRT_2))
                }
            }

            /// Calculates the survival function for the log-normal
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / 2) + (1 / 2) * erf(-(ln(x) - μ) / sqrt(2) * σ)
            /// ```
            ///
            /// where `μ` is the location, `σ` is the scale, and `erf` is the
            /// error function
            ///
            /// note that this calculates the complement due to flipping
            /// the sign of the argument error function with respect to the cdf.
            ///
            /// the normal cdf Φ (and internal error function) as the following property:
            /// ```text
            ///  Φ(-x) + Φ(x) = 1
            ///  Φ(-x)        = 1 - Φ(x)
            /// ```
            fn sf(&self, x: f64) -> f64 {
                if x <= 0.0 {
                    1.0
                } else if x.is_infinite() {
                    0.0
                } else {
                    0.5 * erf::erfc((x.ln() - self.location) / (self.scale * f64_consts::SQRT_2))
                }
            }

            /// Calculates the inverse cumulative distribution function for the
            /// log-normal distribution at `p`
            ///
            /// # Panics
            ///
            /// If `p < 0.0` or `p > 1.0`
            ///
            /// # Formula
            ///
            /// ```text
            /// μ - σ * sqrt(2) * erfc_inv(2p)
            /// ```
            ///
            /// where `μ` is the location, `σ` is the scale and `erfc_inv` is
            /// the inverse of the complementary error function
            fn inverse_cdf(&self, p: f64) -> f64 {
                if p == 0.0 {
                    0.0
                } else if p < 1.0 {
                    (self.location - (self.scale * f64_consts::SQRT_2 * erf::erfc_inv(2.0 * p))).exp()
                } else if p == 1.0 {
                    f64::INFINITY
                } else {
                    panic!("p must be within [0.0, 1.0]");
                }
            }
        }

        #[fwdad::derive_frule]
        impl Min<f64> for LogNormal {
            /// Returns the minimum value in the domain of the log-normal
            /// distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// 0
            /// ```
            fn min(&self) -> f64 {
                0.0
            }
        }

        #[fwdad::derive_frule]
        impl Max<f64> for LogNormal {
            /// Returns the maximum value in the domain of the log-normal
            /// distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// f64::INFINITY
            /// ```
            fn max(&self) -> f64 {
                f64::INFINITY
            }
        }

        #[fwdad::derive_frule]
        impl Distribution<f64> for LogNormal {
            /// Returns the mean of the log-normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// e^(μ + σ^2 / 2)
            /// ```
            ///
            /// where `μ` is the location and `σ` is the scale
            fn mean(&self) -> Option<f64> {
                Some((self.location + self.scale * self.scale / 2.0).exp())
            }

            /// Returns the variance of the log-normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// (e^(σ^2) - 1) * e^(2μ + σ^2)
            /// ```
            ///
            /// where `μ` is the location and `σ` is the scale
            fn variance(&self) -> Option<f64> {
                let sigma2 = self.scale * self.scale;
                Some((sigma2.exp() - 1.0) * (self.location + self.location + sigma2).exp())
            }

            /// Returns the entropy of the log-normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// ln(σe^(μ + 1 / 2) * sqrt(2π))
            /// ```
            ///
            /// where `μ` is the location and `σ` is the scale
            fn entropy(&self) -> Option<f64> {
                Some(0.5 + self.scale.ln() + self.location + consts::LN_SQRT_2PI)
            }

            /// Returns the skewness of the log-normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// (e^(σ^2) + 2) * sqrt(e^(σ^2) - 1)
            /// ```
            ///
            /// where `μ` is the location and `σ` is the scale
            fn skewness(&self) -> Option<f64> {
                let expsigma2 = (self.scale * self.scale).exp();
                Some((expsigma2 + 2.0) * (expsigma2 - 1.0).sqrt())
            }
        }

        #[fwdad::derive_frule]
        impl Median<f64> for LogNormal {
            /// Returns the median of the log-normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// e^μ
            /// ```
            ///
            /// where `μ` is the location
            fn median(&self) -> f64 {
                self.location.exp()
            }
        }

        #[fwdad::derive_frule]
        impl Mode<Option<f64>> for LogNormal {
            /// Returns the mode of the log-normal distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// e^(μ - σ^2)
            /// ```
            ///
            /// where `μ` is the location and `σ` is the scale
            fn mode(&self) -> Option<f64> {
                Some((self.location - self.scale * self.scale).exp())
            }
        }

        #[fwdad::derive_frule]
        impl Continuous<f64, f64> for LogNormal {
            /// Calculates the probability density function for the log-normal
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / xσ * sqrt(2π)) * e^(-((ln(x) - μ)^2) / 2σ^2)
            /// ```
            ///
            /// where `μ` is the location and `σ` is the scale
            fn pdf(&self, x: f64) -> f64 {
                if x <= 0.0 || x.is_infinite() {
                    0.0
                } else {
                    let d = (x.ln() - self.location) / self.scale;
                    (-0.5 * d * d).exp() / (x * consts::SQRT_2PI * self.scale)
                }
            }

            /// Calculates the log probability density function for the log-normal
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// ln((1 / xσ * sqrt(2π)) * e^(-((ln(x) - μ)^2) / 2σ^2))
            /// ```
            ///
            /// where `μ` is the location and `σ` is the scale
            fn ln_pdf(&self, x: f64) -> f64 {
                if x <= 0.0 || x.is_infinite() {
                    f64::NEG_INFINITY
                } else {
                    let d = (x.ln() - self.location) / self.scale;
                    (-0.5 * d * d) - consts::LN_SQRT_2PI - (x * self.scale).ln()
                }
            }
        }
    }

    // ---- src/distribution/exponential.rs ----
    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    mod exponential {
        use crate::distribution::{Continuous, ContinuousCDF};
        use crate::statistics::*;
        use core::f64::consts as f64_consts;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Implements the
        /// [Exp](https://en.wikipedia.org/wiki/Exp_distribution)
        /// distribution and is a special case of the
        /// [Gamma](https://en.wikipedia.org/wiki/Gamma_distribution) distribution
        /// (referenced [here](./struct.Gamma.html))
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{Exp, Continuous};
        /// use statrs::statistics::Distribution;
        ///
        /// let n = Exp::new(1.0).unwrap();
        /// assert_eq!(n.mean().unwrap(), 1.0);
        /// assert_eq!(n.pdf(1.0), 0.3678794411714423215955);
        /// ```
        #[derive(Copy, Clone, PartialEq, Debug, fwdad::Differentiable)]
        pub struct Exp {
            rate: f64,
        }

        /// Represents the errors that can occur when creating a [`Exp`].
        #[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
        #[non_exhaustive]
        pub enum ExpError {
            /// The rate is NaN, zero or less than zero.
            RateInvalid,
        }

        impl core::fmt::Display for ExpError {
            #[cfg_attr(coverage_nightly, coverage(off))]
            fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                match self {
                    ExpError::RateInvalid => write!(f, "Rate is NaN, zero or less than zero"),
                }
            }
        }

        impl core::error::Error for ExpError {}

        #[fwdad::derive_frule]
        impl Exp {
            /// Constructs a new exponential distribution with a
            /// rate (λ) of `rate`.
            ///
            /// # Errors
            ///
            /// Returns an error if rate is `NaN` or `rate <= 0.0`.
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Exp;
            ///
            /// let mut result = Exp::new(1.0);
            /// assert!(result.is_ok());
            ///
            /// result = Exp::new(-1.0);
            /// assert!(result.is_err());
            /// ```
            pub fn new(rate: f64) -> Result<Exp, ExpError> {
                if rate.is_nan() || rate <= 0.0 {
                    Err(ExpError::RateInvalid)
                } else {
                    Ok(Exp { rate })
                }
            }

            /// Returns the rate of the exponential distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Exp;
            ///
            /// let n = Exp::new(1.0).unwrap();
            /// assert_eq!(n.rate(), 1.0);
            /// ```
            pub fn rate(&self) -> f64 {
                self.rate
            }
        }

        impl core::fmt::Display for Exp {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "Exp({})", self.rate)
            }
        }

        #[cfg(feature = "rand")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
        impl ::rand::distr::Distribution<f64> for Exp {
            fn sample<R: ::rand::Rng + ?Sized>(&self, r: &mut R) -> f64 {
                use crate::distribution::ziggurat;

                ziggurat::sample_exp_1(r) / self.rate
            }
        }

        #[fwdad::derive_frule]
        impl ContinuousCDF<f64, f64> for Exp {
            /// Calculates the cumulative distribution function for the
            /// exponential distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// 1 - e^(-λ * x)
            /// ```
            ///
            /// where `λ` is the rate
            fn cdf(&self, x: f64) -> f64 {
                if x < 0.0 {
                    0.0
                } else {
                    1.0 - (-self.rate * x).exp()
                }
            }

            /// Calculates the cumulative distribution function for the
            /// exponential distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// e^(-λ * x)
            /// ```
            ///
            /// where `λ` is the rate
            fn sf(&self, x: f64) -> f64 {
                if x < 0.0 { 1.0 } else { (-self.rate * x).exp() }
            }

            /// Calculates the inverse cumulative distribution function.
            ///
            /// # Formula
            ///
            /// ```text
            /// -ln(1 - p) / λ
            /// ```
            ///
            /// where `p` is the probability and `λ` is the rate
            fn inverse_cdf(&self, p: f64) -> f64 {
                -(-p).ln_1p() / self.rate
            }
        }

        #[fwdad::derive_frule]
        impl Min<f64> for Exp {
            /// Returns the minimum value in the domain of the exponential
            /// distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// 0
            /// ```
            fn min(&self) -> f64 {
                0.0
            }
        }

        #[fwdad::derive_frule]
        impl Max<f64> for Exp {
            /// Returns the maximum value in the domain of the exponential
            /// distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// f64::INFINITY
            /// ```
            fn max(&self) -> f64 {
                f64::INFINITY
            }
        }

        #[fwdad::derive_frule]
        impl Distribution<f64> for Exp {
            /// Returns the mean of the exponential distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// 1 / λ
            /// ```
            ///
            /// where `λ` is the rate
            fn mean(&self) -> Option<f64> {
                Some(1.0 / self.rate)
            }

            /// Returns the variance of the exponential distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// 1 / λ^2
            /// ```
            ///
            /// where `λ` is the rate
            fn variance(&self) -> Option<f64> {
                Some(1.0 / (self.rate * self.rate))
            }

            /// Returns the entropy of the exponential distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// 1 - ln(λ)
            /// ```
            ///
            /// where `λ` is the rate
            fn entropy(&self) -> Option<f64> {
                Some(1.0 - self.rate.ln())
            }

            /// Returns the skewness of the exponential distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// 2
            /// ```
            fn skewness(&self) -> Option<f64> {
                Some(2.0)
            }
        }

        #[fwdad::derive_frule]
        impl Median<f64> for Exp {
            /// Returns the median of the exponential distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / λ) * ln2
            /// ```
            ///
            /// where `λ` is the rate
            fn median(&self) -> f64 {
                f64_consts::LN_2 / self.rate
            }
        }

        #[fwdad::derive_frule]
        impl Mode<Option<f64>> for Exp {
            /// Returns the mode of the exponential distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// 0
            /// ```
            fn mode(&self) -> Option<f64> {
                Some(0.0)
            }
        }

        #[fwdad::derive_frule]
        impl Continuous<f64, f64> for Exp {
            /// Calculates the probability density function for the exponential
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// λ * e^(-λ * x)
            /// ```
            ///
            /// where `λ` is the rate
            fn pdf(&self, x: f64) -> f64 {
                if x < 0.0 {
                    0.0
                } else {
                    self.rate * (-self.rate * x).exp()
                }
            }

            /// Calculates the log probability density function for the exponential
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// ln(λ * e^(-λ * x))
            /// ```
            ///
            /// where `λ` is the rate
            fn ln_pdf(&self, x: f64) -> f64 {
                if x < 0.0 {
                    f64::NEG_INFINITY
                } else {
                    self.rate.ln() - self.rate * x
                }
            }
        }
    }

    // ---- src/distribution/cauchy.rs ----
    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    mod cauchy {
        use crate::distribution::{Continuous, ContinuousCDF};
        use crate::statistics::*;
        use core::f64::consts as f64_consts;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Implements the [Cauchy](https://en.wikipedia.org/wiki/Cauchy_distribution)
        /// distribution, also known as the Lorentz distribution.
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{Cauchy, Continuous};
        /// use statrs::statistics::Mode;
        ///
        /// let n = Cauchy::new(0.0, 1.0).unwrap();
        /// assert_eq!(n.mode().unwrap(), 0.0);
        /// assert_eq!(n.pdf(1.0), 0.1591549430918953357689);
        /// ```
        #[derive(Copy, Clone, PartialEq, Debug, fwdad::Differentiable)]
        pub struct Cauchy {
            location: f64,
            scale: f64,
        }

        /// Represents the errors that can occur when creating a [`Cauchy`].
        #[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
        #[non_exhaustive]
        pub enum CauchyError {
            /// The location is NaN.
            LocationInvalid,

            /// The scale is NaN, zero or less than zero.
            ScaleInvalid,
        }

        impl core::fmt::Display for CauchyError {
            #[cfg_attr(coverage_nightly, coverage(off))]
            fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                match self {
                    CauchyError::LocationInvalid => write!(f, "Location is NaN"),
                    CauchyError::ScaleInvalid => write!(f, "Scale is NaN, zero or less than zero"),
                }
            }
        }

        impl core::error::Error for CauchyError {}

        #[fwdad::derive_frule]
        impl Cauchy {
            /// Constructs a new cauchy distribution with the given
            /// location and scale.
            ///
            /// # Errors
            ///
            /// Returns an error if location or scale are `NaN` or `scale <= 0.0`
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Cauchy;
            ///
            /// let mut result = Cauchy::new(0.0, 1.0);
            /// assert!(result.is_ok());
            ///
            /// result = Cauchy::new(0.0, -1.0);
            /// assert!(result.is_err());
            /// ```
            pub fn new(location: f64, scale: f64) -> Result<Cauchy, CauchyError> {
                if location.is_nan() {
                    return Err(CauchyError::LocationInvalid);
                }

                if scale.is_nan() || scale <= 0.0 {
                    return Err(CauchyError::ScaleInvalid);
                }

                Ok(Cauchy { location, scale })
            }

            /// Returns the location of the cauchy distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Cauchy;
            ///
            /// let n = Cauchy::new(0.0, 1.0).unwrap();
            /// assert_eq!(n.location(), 0.0);
            /// ```
            pub fn location(&self) -> f64 {
                self.location
            }

            /// Returns the scale of the cauchy distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Cauchy;
            ///
            /// let n = Cauchy::new(0.0, 1.0).unwrap();
            /// assert_eq!(n.scale(), 1.0);
            /// ```
            pub fn scale(&self) -> f64 {
                self.scale
            }
        }

        impl core::fmt::Display for Cauchy {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "Cauchy({}, {})", self.location, self.scale)
            }
        }

        #[cfg(feature = "rand")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
        impl ::rand::distr::Distribution<f64> for Cauchy {
            fn sample<R: ::rand::Rng + ?Sized>(&self, r: &mut R) -> f64 {
                let x = ::rand::RngExt::random::<f64>(r);
                self.location + self.scale * (f64_consts::PI * (x - 0.5)).tan()
            }
        }

        #[fwdad::derive_frule]
        impl ContinuousCDF<f64, f64> for Cauchy {
            /// Calculates the cumulative distribution function for the
            /// cauchy distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / π) * arctan((x - x_0) / γ) + 0.5
            /// ```
            ///
            /// where `x_0` is the location and `γ` is the scale
            fn cdf(&self, x: f64) -> f64 {
                (1.0 / f64_consts::PI) * ((x - self.location) / self.scale).atan() + 0.5
            }

            /// Calculates the survival function for the
            /// cauchy distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / π) * arctan(-(x - x_0) / γ) + 0.5
            /// ```
            ///
            /// where `x_0` is the location and `γ` is the scale.
            /// note that this is identical to the cdf except for
            /// the negative argument to the arctan function
            fn sf(&self, x: f64) -> f64 {
                (1.0 / f64_consts::PI) * ((self.location - x) / self.scale).atan() + 0.5
            }

            /// Calculates the inverse cumulative distribution function for the
            /// cauchy distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// x_0 + γ tan((x - 0.5) π)
            /// ```
            ///
            /// where `x_0` is the location and `γ` is the scale
            fn inverse_cdf(&self, x: f64) -> f64 {
                if !(0.0..=1.0).contains(&x) {
                    panic!("x must be in [0, 1]");
                } else {
                    self.location + self.scale * (f64_consts::PI * (x - 0.5)).tan()
                }
            }
        }

        #[fwdad::derive_frule]
        impl Min<f64> for Cauchy {
            /// Returns the minimum value in the domain of the cauchy
            /// distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// NEG_INF
            /// ```
            fn min(&self) -> f64 {
                f64::NEG_INFINITY
            }
        }

        #[fwdad::derive_frule]
        impl Max<f64> for Cauchy {
            /// Returns the maximum value in the domain of the cauchy
            /// distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// f64::INFINITY
            /// ```
            fn max(&self) -> f64 {
                f64::INFINITY
            }
        }

        #[fwdad::derive_frule]
        impl Distribution<f64> for Cauchy {
            /// Returns the entropy of the cauchy distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// ln(γ) + ln(4π)
            /// ```
            ///
            /// where `γ` is the scale
            fn entropy(&self) -> Option<f64> {
                Some((4.0 * f64_consts::PI * self.scale).ln())
            }
        }

        #[fwdad::derive_frule]
        impl Median<f64> for Cauchy {
            /// Returns the median of the cauchy distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// x_0
            /// ```
            ///
            /// where `x_0` is the location
            fn median(&self) -> f64 {
                self.location
            }
        }

        #[fwdad::derive_frule]
        impl Mode<Option<f64>> for Cauchy {
            /// Returns the mode of the cauchy distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// x_0
            /// ```
            ///
            /// where `x_0` is the location
            fn mode(&self) -> Option<f64> {
                Some(self.location)
            }
        }

        #[fwdad::derive_frule]
        impl Continuous<f64, f64> for Cauchy {
            /// Calculates the probability density function for the cauchy
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// 1 / (πγ * (1 + ((x - x_0) / γ)^2))
            /// ```
            ///
            /// where `x_0` is the location and `γ` is the scale
            fn pdf(&self, x: f64) -> f64 {
                1.0 / (f64_consts::PI
                    * self.scale
                    * (1.0 + ((x - self.location) / self.scale) * ((x - self.location) / self.scale)))
            }

            /// Calculates the log probability density function for the cauchy
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// ln(1 / (πγ * (1 + ((x - x_0) / γ)^2)))
            /// ```
            ///
            /// where `x_0` is the location and `γ` is the scale
            fn ln_pdf(&self, x: f64) -> f64 {
                -(f64_consts::PI
                    * self.scale
                    * (1.0 + ((x - self.location) / self.scale) * ((x - self.location) / self.scale)))
                    .ln()
            }
        }
    }

    // ---- src/distribution/laplace.rs ----
    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    mod laplace {
        use crate::distribution::{Continuous, ContinuousCDF};
        use crate::statistics::{Distribution, Max, Median, Min, Mode};
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Implements the [Laplace](https://en.wikipedia.org/wiki/Laplace_distribution)
        /// distribution.
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{Laplace, Continuous};
        /// use statrs::statistics::Mode;
        ///
        /// let n = Laplace::new(0.0, 1.0).unwrap();
        /// assert_eq!(n.mode().unwrap(), 0.0);
        /// assert_eq!(n.pdf(1.0), 0.18393972058572117);
        /// ```
        #[derive(Copy, Clone, PartialEq, Debug, fwdad::Differentiable)]
        pub struct Laplace {
            location: f64,
            scale: f64,
        }

        /// Represents the errors that can occur when creating a [`Laplace`].
        #[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
        #[non_exhaustive]
        pub enum LaplaceError {
            /// The location is NaN.
            LocationInvalid,

            /// The scale is NaN, zero or less than zero.
            ScaleInvalid,
        }

        impl core::fmt::Display for LaplaceError {
            #[cfg_attr(coverage_nightly, coverage(off))]
            fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                match self {
                    LaplaceError::LocationInvalid => write!(f, "Location is NaN"),
                    LaplaceError::ScaleInvalid => write!(f, "Scale is NaN, zero or less than zero"),
                }
            }
        }

        impl core::error::Error for LaplaceError {}

        #[fwdad::derive_frule]
        impl Laplace {
            /// Constructs a new laplace distribution with the given
            /// location and scale.
            ///
            /// # Errors
            ///
            /// Returns an error if location or scale are `NaN` or `scale <= 0.0`
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Laplace;
            ///
            /// let mut result = Laplace::new(0.0, 1.0);
            /// assert!(result.is_ok());
            ///
            /// result = Laplace::new(0.0, -1.0);
            /// assert!(result.is_err());
            /// ```
            pub fn new(location: f64, scale: f64) -> Result<Laplace, LaplaceError> {
                if location.is_nan() {
                    return Err(LaplaceError::LocationInvalid);
                }

                if scale.is_nan() || scale <= 0.0 {
                    return Err(LaplaceError::ScaleInvalid);
                }

                Ok(Laplace { location, scale })
            }

            /// Returns the location of the laplace distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Laplace;
            ///
            /// let n = Laplace::new(0.0, 1.0).unwrap();
            /// assert_eq!(n.location(), 0.0);
            /// ```
            pub fn location(&self) -> f64 {
                self.location
            }

            /// Returns the scale of the laplace distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Laplace;
            ///
            /// let n = Laplace::new(0.0, 1.0).unwrap();
            /// assert_eq!(n.scale(), 1.0);
            /// ```
            pub fn scale(&self) -> f64 {
                self.scale
            }
        }

        impl core::fmt::Display for Laplace {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "Laplace({}, {})", self.location, self.scale)
            }
        }

        #[cfg(feature = "rand")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
        impl ::rand::distr::Distribution<f64> for Laplace {
            fn sample<R: ::rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
                let x: f64 = ::rand::RngExt::random_range(rng, -0.5..0.5);
                self.location - self.scale * x.signum() * (1. - 2. * x.abs()).ln()
            }
        }

        #[fwdad::derive_frule]
        impl ContinuousCDF<f64, f64> for Laplace {
            /// Calculates the cumulative distribution function for the
            /// laplace distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / 2) * (1 + signum(x - μ)) - signum(x - μ) * exp(-|x - μ| / b)
            /// ```
            ///
            /// where `μ` is the location, `b` is the scale
            fn cdf(&self, x: f64) -> f64 {
                let y = (-(x - self.location).abs() / self.scale).exp() / 2.;
                if x >= self.location { 1. - y } else { y }
            }

            /// Calculates the survival function for the
            /// laplace distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// 1 - [(1 / 2) * (1 + signum(x - μ)) - signum(x - μ) * exp(-|x - μ| / b)]
            /// ```
            ///
            /// where `μ` is the location, `b` is the scale
            fn sf(&self, x: f64) -> f64 {
                let y = (-(x - self.location).abs() / self.scale).exp() / 2.;
                if x >= self.location { y } else { 1. - y }
            }

            /// Calculates the inverse cumulative distribution function for the
            /// laplace distribution at `p`
            ///
            /// # Formula
            ///
            /// if p <= 1/2
            /// ```text
            /// μ + b * ln(2p)
            /// ```
            /// if p >= 1/2
            /// ```text
            /// μ - b * ln(2 - 2p)
            /// ```
            ///
            /// where `μ` is the location, `b` is the scale
            fn inverse_cdf(&self, p: f64) -> f64 {
                if p <= 0. || 1. <= p {
                    panic!("p must be in [0, 1]");
                };
                if p <= 0.5 {
                    self.location + self.scale * (2. * p).ln()
                } else {
                    self.location - self.scale * (2. - 2. * p).ln()
                }
            }
        }

        #[fwdad::derive_frule]
        impl Min<f64> for Laplace {
            /// Returns the minimum value in the domain of the laplace
            /// distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// NEG_INF
            /// ```
            fn min(&self) -> f64 {
                f64::NEG_INFINITY
            }
        }

        #[fwdad::derive_frule]
        impl Max<f64> for Laplace {
            /// Returns the maximum value in the domain of the laplace
            /// distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// f64::INFINITY
            /// ```
            fn max(&self) -> f64 {
                f64::INFINITY
            }
        }

        #[fwdad::derive_frule]
        impl Distribution<f64> for Laplace {
            /// Returns the mode of the laplace distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// μ
            /// ```
            ///
            /// where `μ` is the location
            fn mean(&self) -> Option<f64> {
                Some(self.location)
            }

            /// Returns the variance of the laplace distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// 2*b^2
            /// ```
            ///
            /// where `b` is the scale
            fn variance(&self) -> Option<f64> {
                Some(2. * self.scale * self.scale)
            }

            /// Returns the entropy of the laplace distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// ln(2be)
            /// ```
            ///
            /// where `b` is the scale
            fn entropy(&self) -> Option<f64> {
                Some((2. * self.scale).ln() + 1.)
            }

            /// Returns the skewness of the laplace distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// 0
            /// ```
            fn skewness(&self) -> Option<f64> {
                Some(0.)
            }
        }

        #[fwdad::derive_frule]
        impl Median<f64> for Laplace {
            /// Returns the median of the laplace distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// μ
            /// ```
            ///
            /// where `μ` is the location
            fn median(&self) -> f64 {
                self.location
            }
        }

        #[fwdad::derive_frule]
        impl Mode<Option<f64>> for Laplace {
            /// Returns the mode of the laplace distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// μ
            /// ```
            ///
            /// where `μ` is the location
            fn mode(&self) -> Option<f64> {
                Some(self.location)
            }
        }

        #[fwdad::derive_frule]
        impl Continuous<f64, f64> for Laplace {
            /// Calculates the probability density function for the laplace
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / 2b) * exp(-|x - μ| / b)
            /// ```
            /// where `μ` is the location and `b` is the scale
            fn pdf(&self, x: f64) -> f64 {
                (-(x - self.location).abs() / self.scale).exp() / (2. * self.scale)
            }

            /// Calculates the log probability density function for the laplace
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// ln((1 / 2b) * exp(-|x - μ| / b))
            /// ```
            ///
            /// where `μ` is the location and `b` is the scale
            fn ln_pdf(&self, x: f64) -> f64 {
                ((-(x - self.location).abs() / self.scale).exp() / (2. * self.scale)).ln()
            }
        }
    }

    // ---- src/distribution/weibull.rs ----
    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    mod weibull {
        use crate::consts;
        use crate::distribution::{Continuous, ContinuousCDF};
        use crate::function::gamma;
        use crate::statistics::*;
        use core::f64::consts as f64_consts;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Implements the [Weibull](https://en.wikipedia.org/wiki/Weibull_distribution)
        /// distribution
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{Weibull, Continuous};
        /// use statrs::statistics::Distribution;
        /// use approx::assert_abs_diff_eq;
        ///
        /// let n = Weibull::new(10.0, 1.0).unwrap();
        /// assert_abs_diff_eq!(n.mean().unwrap(),
        /// 0.95135076986687318362924871772654021925505786260884, epsilon = 1e-15);
        /// assert_abs_diff_eq!(n.pdf(1.0), 3.6787944117144232159552377016146086744581113103177);
        /// ```
        #[derive(Copy, Clone, PartialEq, Debug, fwdad::Differentiable)]
        pub struct Weibull {
            shape: f64,
            scale: f64,
            scale_pow_shape_inv: f64,
        }

        /// Represents the errors that can occur when creating a [`Weibull`].
        #[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
        #[non_exhaustive]
        pub enum WeibullError {
            /// The shape is NaN, zero or less than zero.
            ShapeInvalid,

            /// The scale is NaN, zero or less than zero.
            ScaleInvalid,
        }

        impl core::fmt::Display for WeibullError {
            #[cfg_attr(coverage_nightly, coverage(off))]
            fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                match self {
                    WeibullError::ShapeInvalid => write!(f, "Shape is NaN, zero or less than zero."),
                    WeibullError::ScaleInvalid => write!(f, "Scale is NaN, zero or less than zero."),
                }
            }
        }

        impl core::error::Error for WeibullError {}

        #[fwdad::derive_frule]
        impl Weibull {
            /// Constructs a new weibull distribution with a shape (k) of `shape`
            /// and a scale (λ) of `scale`
            ///
            /// # Errors
            ///
            /// Returns an error if `shape` or `scale` are `NaN`.
            /// Returns an error if `shape <= 0.0` or `scale <= 0.0`
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Weibull;
            ///
            /// let mut result = Weibull::new(10.0, 1.0);
            /// assert!(result.is_ok());
            ///
            /// result = Weibull::new(0.0, 0.0);
            /// assert!(result.is_err());
            /// ```
            pub fn new(shape: f64, scale: f64) -> Result<Weibull, WeibullError> {
                if shape.is_nan() || shape <= 0.0 {
                    return Err(WeibullError::ShapeInvalid);
                }

                if scale.is_nan() || scale <= 0.0 {
                    return Err(WeibullError::ScaleInvalid);
                }

                Ok(Weibull {
                    shape,
                    scale,
                    scale_pow_shape_inv: scale.powf(-shape),
                })
            }

            /// Returns the shape of the weibull distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Weibull;
            ///
            /// let n = Weibull::new(10.0, 1.0).unwrap();
            /// assert_eq!(n.shape(), 10.0);
            /// ```
            pub fn shape(&self) -> f64 {
                self.shape
            }

            /// Returns the scale of the weibull distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Weibull;
            ///
            /// let n = Weibull::new(10.0, 1.0).unwrap();
            /// assert_eq!(n.scale(), 1.0);
            /// ```
            pub fn scale(&self) -> f64 {
                self.scale
            }
        }

        impl core::fmt::Display for Weibull {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "Weibull({},{})", self.scale, self.shape)
            }
        }

        #[cfg(feature = "rand")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
        impl ::rand::distr::Distribution<f64> for Weibull {
            fn sample<R: ::rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
                let x: f64 = ::rand::RngExt::random(rng);
                self.scale * (-x.ln()).powf(1.0 / self.shape)
            }
        }

        #[fwdad::derive_frule]
        impl ContinuousCDF<f64, f64> for Weibull {
            /// Calculates the cumulative distribution function for the weibull
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// 1 - e^-((x/λ)^k)
            /// ```
            ///
            /// where `k` is the shape and `λ` is the scale
            fn cdf(&self, x: f64) -> f64 {
                if x < 0.0 {
                    0.0
                } else {
                    -(-x.powf(self.shape) * self.scale_pow_shape_inv).exp_m1()
                }
            }

            /// Calculates the survival function for the weibull
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// e^-((x/λ)^k)
            /// ```
            ///
            /// where `k` is the shape and `λ` is the scale
            fn sf(&self, x: f64) -> f64 {
                if x < 0.0 {
                    1.0
                } else {
                    (-x.powf(self.shape) * self.scale_pow_shape_inv).exp()
                }
            }

            /// Calculates the inverse cumulative distribution function for the weibull
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// λ (-ln(1 - x))^(1 / k)
            /// ```
            ///
            /// where `k` is the shape and `λ` is the scale
            fn inverse_cdf(&self, p: f64) -> f64 {
                if !(0.0..=1.0).contains(&p) {
                    panic!("x must be in [0, 1]");
                }

                (-((-p).ln_1p() / self.scale_pow_shape_inv)).powf(1.0 / self.shape)
            }
        }

        #[fwdad::derive_frule]
        impl Min<f64> for Weibull {
            /// Returns the minimum value in the domain of the weibull
            /// distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// 0
            /// ```
            fn min(&self) -> f64 {
                0.0
            }
        }

        #[fwdad::derive_frule]
        impl Max<f64> for Weibull {
            /// Returns the maximum value in the domain of the weibull
            /// distribution representable by a double precision float
            ///
            /// # Formula
            ///
            /// ```text
            /// f64::INFINITY
            /// ```
            fn max(&self) -> f64 {
                f64::INFINITY
            }
        }

        impl Distribution<f64> for Weibull {
            /// Returns the mean of the weibull distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// λΓ(1 + 1 / k)
            /// ```
            ///
            /// where `k` is the shape, `λ` is the scale, and `Γ` is
            /// the gamma function
            fn mean(&self) -> Option<f64> {
                Some(self.scale * gamma::gamma(1.0 + 1.0 / self.shape))
            }

            /// Returns the variance of the weibull distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// λ^2 * (Γ(1 + 2 / k) - Γ(1 + 1 / k)^2)
            /// ```
            ///
            /// where `k` is the shape, `λ` is the scale, and `Γ` is
            /// the gamma function
            fn variance(&self) -> Option<f64> {
                let mean = self.mean()?;
                Some(self.scale * self.scale * gamma::gamma(1.0 + 2.0 / self.shape) - mean * mean)
            }

            /// Returns the entropy of the weibull distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// γ(1 - 1 / k) + ln(λ / k) + 1
            /// ```
            ///
            /// where `k` is the shape, `λ` is the scale, and `γ` is
            /// the Euler-Mascheroni constant
            fn entropy(&self) -> Option<f64> {
                let entr = consts::EULER_MASCHERONI * (1.0 - 1.0 / self.shape)
                    + (self.scale / self.shape).ln()
                    + 1.0;
                Some(entr)
            }

            /// Returns the skewness of the weibull distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// (Γ(1 + 3 / k) * λ^3 - 3μσ^2 - μ^3) / σ^3
            /// ```
            ///
            /// where `k` is the shape, `λ` is the scale, and `Γ` is
            /// the gamma function, `μ` is the mean of the distribution.
            /// and `σ` the standard deviation of the distribution
            fn skewness(&self) -> Option<f64> {
                let mu = self.mean()?;
                let sigma = self.std_dev()?;
                let sigma2 = sigma * sigma;
                let sigma3 = sigma2 * sigma;
                let skew = (self.scale * self.scale * self.scale * gamma::gamma(1.0 + 3.0 / self.shape)
                    - 3.0 * sigma2 * mu
                    - (mu * mu * mu))
                    / sigma3;
                Some(skew)
            }
        }

        #[fwdad::derive_frule]
        impl Median<f64> for Weibull {
            /// Returns the median of the weibull distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// λ(ln(2))^(1 / k)
            /// ```
            ///
            /// where `k` is the shape and `λ` is the scale
            fn median(&self) -> f64 {
                self.scale * f64_consts::LN_2.powf(1.0 / self.shape)
            }
        }

        #[fwdad::derive_frule]
        impl Mode<Option<f64>> for Weibull {
            /// Returns the median of the weibull distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// if k == 1 {
            ///     0
            /// } else {
            ///     λ((k - 1) / k)^(1 / k)
            /// }
            /// ```
            ///
            /// where `k` is the shape and `λ` is the scale
            fn mode(&self) -> Option<f64> {
                let mode = if self.shape <= 1.0 {
                    0.0
                } else {
                    self.scale * ((self.shape - 1.0) / self.shape).powf(1.0 / self.shape)
                };
                Some(mode)
            }
        }

        #[fwdad::derive_frule]
        impl Continuous<f64, f64> for Weibull {
            /// Calculates the probability density function for the weibull
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (k / λ) * (x / λ)^(k - 1) * e^(-(x / λ)^k)
            /// ```
            ///
            /// where `k` is the shape and `λ` is the scale
            fn pdf(&self, x: f64) -> f64 {
                if x < 0.0 {
                    0.0
                } else if x == 0.0 && self.shape == 1.0 {
                    1.0 / self.scale
                } else if x.is_infinite() {
                    0.0
                } else {
                    self.shape
                        * (x / self.scale).powf(self.shape - 1.0)
                        * (-(x.powf(self.shape)) * self.scale_pow_shape_inv).exp()
                        / self.scale
                }
            }

            /// Calculates the log probability density function for the weibull
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// ln((k / λ) * (x / λ)^(k - 1) * e^(-(x / λ)^k))
            /// ```
            ///
            /// where `k` is the shape and `λ` is the scale
            fn ln_pdf(&self, x: f64) -> f64 {
                if x < 0.0 {
                    f64::NEG_INFINITY
                } else if x == 0.0 && self.shape == 1.0 {
                    0.0 - self.scale.ln()
                } else if x.is_infinite() {
                    f64::NEG_INFINITY
                } else {
                    self.shape.ln() + (self.shape - 1.0) * (x / self.scale).ln()
                        - x.powf(self.shape) * self.scale_pow_shape_inv
                        - self.scale.ln()
                }
            }
        }
    }

    // ---- src/distribution/gamma.rs ----
    #[rustfmt::skip]
    #[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated)]
    mod gamma {
        use crate::distribution::{Continuous, ContinuousCDF};
        use crate::function::gamma;
        use crate::prec;
        use crate::statistics::*;
        #[cfg(not(feature = "std"))]
        use num_traits::Float as _;

        /// Implements the [Gamma](https://en.wikipedia.org/wiki/Gamma_distribution)
        /// distribution
        ///
        /// # Examples
        ///
        /// ```
        /// use statrs::distribution::{Gamma, Continuous};
        /// use statrs::statistics::Distribution;
        /// use statrs::prec;
        /// use approx::assert_abs_diff_eq;
        ///
        /// let n = Gamma::new(3.0, 1.0).unwrap();
        /// assert_eq!(n.mean().unwrap(), 3.0);
        /// assert_abs_diff_eq!(n.pdf(2.0), 0.270670566473225383788, epsilon = 1e-15);
        /// ```
        #[derive(Copy, Clone, PartialEq, Debug, fwdad::Differentiable)]
        pub struct Gamma {
            shape: f64,
            rate: f64,
        }

        /// Represents the errors that can occur when creating a [`Gamma`].
        #[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
        #[non_exhaustive]
        pub enum GammaError {
            /// The shape is NaN, zero or less than zero.
            ShapeInvalid,

            /// The rate is NaN, zero or less than zero.
            RateInvalid,

            /// The shape and rate are both infinite.
            ShapeAndRateInfinite,
        }

        impl core::fmt::Display for GammaError {
            #[cfg_attr(coverage_nightly, coverage(off))]
            fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                match self {
                    GammaError::ShapeInvalid => write!(f, "Shape is NaN zero, or less than zero."),
                    GammaError::RateInvalid => write!(f, "Rate is NaN zero, or less than zero."),
                    GammaError::ShapeAndRateInfinite => write!(f, "Shape and rate are infinite"),
                }
            }
        }

        impl core::error::Error for GammaError {}

        #[fwdad::derive_frule]
        impl Gamma {
            /// Constructs a new gamma distribution with a shape (α)
            /// of `shape` and a rate (β) of `rate`
            ///
            /// # Errors
            ///
            /// Returns an error if `shape` is 'NaN' or inf or `rate` is `NaN` or inf.
            /// Also returns an error if `shape <= 0.0` or `rate <= 0.0`
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Gamma;
            ///
            /// let mut result = Gamma::new(3.0, 1.0);
            /// assert!(result.is_ok());
            ///
            /// result = Gamma::new(0.0, 0.0);
            /// assert!(result.is_err());
            /// ```
            pub fn new(shape: f64, rate: f64) -> Result<Gamma, GammaError> {
                if shape.is_nan() || shape <= 0.0 {
                    return Err(GammaError::ShapeInvalid);
                }

                if rate.is_nan() || rate <= 0.0 {
                    return Err(GammaError::RateInvalid);
                }

                if shape.is_infinite() && rate.is_infinite() {
                    return Err(GammaError::ShapeAndRateInfinite);
                }

                Ok(Gamma { shape, rate })
            }

            /// Returns the shape (α) of the gamma distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Gamma;
            ///
            /// let n = Gamma::new(3.0, 1.0).unwrap();
            /// assert_eq!(n.shape(), 3.0);
            /// ```
            pub fn shape(&self) -> f64 {
                self.shape
            }

            /// Returns the rate (β) of the gamma distribution
            ///
            /// # Examples
            ///
            /// ```
            /// use statrs::distribution::Gamma;
            ///
            /// let n = Gamma::new(3.0, 1.0).unwrap();
            /// assert_eq!(n.rate(), 1.0);
            /// ```
            pub fn rate(&self) -> f64 {
                self.rate
            }
        }

        impl core::fmt::Display for Gamma {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "Γ({}, {})", self.shape, self.rate)
            }
        }

        #[cfg(feature = "rand")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
        impl ::rand::distr::Distribution<f64> for Gamma {
            fn sample<R: ::rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
                sample_unchecked(rng, self.shape, self.rate)
            }
        }

        #[fwdad::derive_frule]
        impl ContinuousCDF<f64, f64> for Gamma {
            /// Calculates the cumulative distribution function for the gamma
            /// distribution
            /// at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / Γ(α)) * γ(α, β * x)
            /// ```
            ///
            /// where `α` is the shape, `β` is the rate, `Γ` is the gamma function,
            /// and `γ` is the lower incomplete gamma function
            fn cdf(&self, x: f64) -> f64 {
                if x <= 0.0 {
                    0.0
                } else if x == self.shape && self.rate.is_infinite() {
                    1.0
                } else if self.rate.is_infinite() {
                    0.0
                } else if x.is_infinite() {
                    1.0
                } else {
                    gamma::gamma_lr(self.shape, x * self.rate)
                }
            }

            /// Calculates the survival function for the gamma
            /// distribution at `x`
            ///
            /// # Formula
            ///
            /// ```text
            /// (1 / Γ(α)) * γ(α, β * x)
            /// ```
            ///
            /// where `α` is the shape, `β` is the rate, `Γ` is the gamma function,
            /// and `γ` is the upper incomplete gamma function
            fn sf(&self, x: f64) -> f64 {
                if x <= 0.0 {
                    1.0
                } else if x == self.shape && self.rate.is_infinite() {
                    0.0
                } else if self.rate.is_infinite() {
                    1.0
                } else if x.is_infinite() {
                    0.0
                } else {
                    gamma::gamma_ur(self.shape, x * self.rate)
                }
            }

            fn inverse_cdf(&self, p: f64) -> f64 {
                if !(0.0..=1.0).contains(&p) {
                    panic!("default inverse_cdf implementation should be provided probability on [0,1]")
                }
                if p == 0.0 {
                    return self.min();
                };
                if p == 1.0 {
                    return self.max();
                };

                // Bracket the quantile so that `cdf(low) <= p <= cdf(high)`.
                let mut high = 2.0;
                let mut low = 1.0;
                while self.cdf(low) > p {
                    low /= 2.0;
                }
                while self.cdf(high) < p {
                    high *= 2.0;
                }

                // Safeguarded Newton–Raphson (cf. Numerical Recipes' `rtsafe`): keep the
                // bracket `[low, high]` as an invariant, taking a bisection step whenever a
                // Newton step is non-finite or would leave the bracket. Without this guard the
                // quantile of a shape < 1 distribution, which lies extremely close to 0, makes
                // the first Newton step overshoot below the support (where `pdf == 0`); the
                // iteration then diverges to NaN (#361, #373).
                const MAX_ITERATIONS: usize = 100;
                let mut x = (high + low) / 2.0;
                for _ in 0..MAX_ITERATIONS {
                    let value = self.cdf(x);
                    if value >= p {
                        high = x;
                    } else {
                        low = x;
                    }
                    let mut next = x - (value - p) / self.pdf(x);
                    if !next.is_finite() || next <= low || next >= high {
                        next = (high + low) / 2.0;
                    }
                    if prec::convergence(&mut x, next) {
                        break;
                    }
                }

                x
            }
        }

        #[fwdad::derive_frule]
        impl Min<f64> for Gamma {
            /// Returns the minimum value in the domain of the
            /// gamma distribution representable by a double precision
            /// float
            ///
            /// # Formula
            ///
            /// ```text
            /// 0
            /// ```
            fn min(&self) -> f64 {
                0.0
            }
        }

        #[fwdad::derive_frule]
        impl Max<f64> for Gamma {
            /// Returns the maximum value in the domain of the
            /// gamma distribution representable by a double precision
            /// float
            ///
            /// # Formula
            ///
            /// ```text
            /// f64::INFINITY
            /// ```
            fn max(&self) -> f64 {
                f64::INFINITY
            }
        }

        #[fwdad::derive_frule]
        impl Distribution<f64> for Gamma {
            /// Returns the mean of the gamma distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// α / β
            /// ```
            ///
            /// where `α` is the shape and `β` is the rate
            fn mean(&self) -> Option<f64> {
                Some(self.shape / self.rate)
            }

            /// Returns the variance of the gamma distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// α / β^2
            /// ```
            ///
            /// where `α` is the shape and `β` is the rate
            fn variance(&self) -> Option<f64> {
                Some(self.shape / (self.rate * self.rate))
            }

            /// Returns the entropy of the gamma distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// α - ln(β) + ln(Γ(α)) + (1 - α) * ψ(α)
            /// ```
            ///
            /// where `α` is the shape, `β` is the rate, `Γ` is the gamma function,
            /// and `ψ` is the digamma function
            fn entropy(&self) -> Option<f64> {
                let entr = self.shape - self.rate.ln()
                    + gamma::ln_gamma(self.shape)
                    + (1.0 - self.shape) * gamma::digamma(self.shape);
                Some(entr)
            }

            /// Returns the skewness of the gamma distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// 2 / sqrt(α)
            /// ```
            ///
            /// where `α` is the shape
            fn skewness(&self) -> Option<f64> {
                Some(2.0 / self.shape.sqrt())
            }
        }

        #[fwdad::derive_frule]
        impl Mode<Option<f64>> for Gamma {
            /// Returns the mode for the gamma distribution
            ///
            /// # Formula
            ///
            /// ```text
            /// (α - 1) / β, where α≥1
            /// ```
            ///
            /// where `α` is the shape and `β` is the rate
            fn mode(&self) -> Option<f64> {
                if self.shape < 1.0 {
                    None
                } else {
                    Some((self.shape - 1.0) / self.rate)
                }
            }
        }

        #[fwdad::derive_frule]
        impl Continuous<f64, f64> for Gamma {
            /// Calculates the probability density function for the gamma distribution
            /// at `x`
            ///
            /// # Remarks
            ///
            /// Returns `NAN` if any of `shape` or `rate` are `f64::INFINITY`
            /// or if `x` is `f64::INFINITY`
            ///
            /// # Formula
            ///
            /// ```text
            /// (β^α / Γ(α)) * x^(α - 1) * e^(-β * x)
            /// ```
            ///
            /// where `α` is the shape, `β` is the rate, and `Γ` is the gamma function
            fn pdf(&self, x: f64) -> f64 {
                if x < 0.0 {
                    0.0
                } else if self.shape == 1.0 {
                    self.rate * (-self.rate * x).exp()
                } else if self.shape > 160.0 {
                    self.ln_pdf(x).exp()
                } else if x.is_infinite() {
                    0.0
                } else {
                    self.rate.powf(self.shape) * x.powf(self.shape - 1.0) * (-self.rate * x).exp()
                        / gamma::gamma(self.shape)
                }
            }

            /// Calculates the log probability density function for the gamma
            /// distribution
            /// at `x`
            ///
            /// # Remarks
            ///
            /// Returns `NAN` if any of `shape` or `rate` are `f64::INFINITY`
            /// or if `x` is `f64::INFINITY`
            ///
            /// # Formula
            ///
            /// ```text
            /// ln((β^α / Γ(α)) * x^(α - 1) * e ^(-β * x))
            /// ```
            ///
            /// where `α` is the shape, `β` is the rate, and `Γ` is the gamma function
            fn ln_pdf(&self, x: f64) -> f64 {
                if x < 0.0 {
                    f64::NEG_INFINITY
                } else if self.shape == 1.0 {
                    self.rate.ln() - self.rate * x
                } else if x.is_infinite() {
                    f64::NEG_INFINITY
                } else {
                    self.shape * self.rate.ln() + (self.shape - 1.0) * x.ln()
                        - self.rate * x
                        - gamma::ln_gamma(self.shape)
                }
            }
        }
        /// Samples from a gamma distribution with a shape of `shape` and a
        /// rate of `rate` using `rng` as the source of randomness. Implementation from:
        ///
        /// _"A Simple Method for Generating Gamma Variables"_ - Marsaglia & Tsang
        ///
        /// ACM Transactions on Mathematical Software, Vol. 26, No. 3, September 2000,
        /// Pages 363-372
        #[cfg(feature = "rand")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
        pub fn sample_unchecked<R: ::rand::Rng + ?Sized>(rng: &mut R, shape: f64, rate: f64) -> f64 {
            let mut a = shape;
            let mut afix = 1.0;
            if shape < 1.0 {
                a = shape + 1.0;
                afix = ::rand::RngExt::random::<f64>(rng).powf(1.0 / shape);
            }

            let d = a - 1.0 / 3.0;
            let c = 1.0 / (9.0 * d).sqrt();
            loop {
                let mut x;
                let mut v;
                loop {
                    x = super::normal::sample_unchecked(rng, 0.0, 1.0);
                    v = 1.0 + c * x;
                    if v > 0.0 {
                        break;
                    };
                }

                v = v * v * v;
                x = x * x;
                let u: f64 = ::rand::RngExt::random(rng);
                if u < 1.0 - 0.0331 * x * x || u.ln() < 0.5 * x + d * (1.0 - v + v.ln()) {
                    return afix * d * v / rate;
                }
            }
        }
    }
}

// ---- the checks ----

#[cfg(test)]
mod tests {
    use super::distribution::{
        Cauchy, Continuous, ContinuousCDF, Exp, Gamma, Laplace, LogNormal, Normal, Weibull,
    };
    use super::statistics::Distribution;
    use fwdad::prelude::*;
    use statrs::distribution as published;
    use statrs::distribution::{Continuous as _, ContinuousCDF as _};
    use statrs::statistics::Distribution as _;

    fn close(got: f64, want: f64, rel: f64) -> bool {
        (got - want).abs() <= rel * want.abs().max(1.0)
    }

    fn fd(f: impl Fn(f64) -> f64, x: f64) -> f64 {
        let h = 1e-6 * x.abs().max(1.0);
        (f(x + h) - f(x - h)) / (2.0 * h)
    }

    /// The negative log-likelihood of a normal sample, `params = [mean, std_dev]`.
    #[derive_frule]
    fn normal_nll(params: &[f64], data: &[f64]) -> f64 {
        let n = Normal::new(params[0], params[1]).unwrap();
        -data.iter().map(|&x| n.ln_pdf(x)).sum::<f64>()
    }

    const SAMPLE: [f64; 6] = [1.2, 0.4, 2.9, 1.7, -0.3, 2.2];

    fn published_nll(params: &[f64]) -> f64 {
        let n = published::Normal::new(params[0], params[1]).unwrap();
        -SAMPLE.iter().map(|&x| n.ln_pdf(x)).sum::<f64>()
    }

    #[test]
    fn normal_likelihood_in_every_mode_and_its_score() {
        for p in [[1.0, 0.8], [1.3, 1.1]] {
            assert_eq!(
                normal_nll(&p, &SAMPLE).to_bits(),
                published_nll(&p).to_bits()
            );
            crate::check_modes!(bind(normal_nll {}, (Wrt, &SAMPLE[..])), published_nll, p);
            // The score: ∂/∂μ = −Σ (x − μ)/σ², ∂/∂σ = Σ (1/σ − (x − μ)²/σ³).
            let (mu, s) = (p[0], p[1]);
            let dmu: f64 = -SAMPLE.iter().map(|x| (x - mu) / (s * s)).sum::<f64>();
            let ds: f64 = SAMPLE
                .iter()
                .map(|x| 1.0 / s - (x - mu).powi(2) / s.powi(3))
                .sum();
            let (_, g) = gradient(bind(normal_nll {}, (Wrt, &SAMPLE[..])), &p);
            assert!(close(g[0], dmu, 1e-13), "{} against {dmu}", g[0]);
            assert!(close(g[1], ds, 1e-13), "{} against {ds}", g[1]);
        }
    }

    /// A censored (Tobit) normal log-likelihood: observed values by their density, values
    /// censored at `limit` by the survival function. `params = [mean, std_dev]`.
    #[derive_frule]
    fn censored_ll(params: &[f64], observed: &[f64], n_censored: usize, limit: f64) -> f64 {
        let n = Normal::new(params[0], params[1]).unwrap();
        let mut ll = 0.0;
        for &x in observed {
            ll += n.ln_pdf(x);
        }
        ll + n_censored as f64 * n.sf(limit).ln()
    }

    fn published_censored(params: &[f64]) -> f64 {
        let n = published::Normal::new(params[0], params[1]).unwrap();
        let mut ll = 0.0;
        for &x in &SAMPLE {
            ll += n.ln_pdf(x);
        }
        ll + 3.0 * n.sf(3.0).ln()
    }

    #[test]
    fn censored_likelihood_in_every_mode() {
        for p in [[1.4, 1.0], [2.0, 1.6]] {
            let rule = bind(censored_ll {}, (Wrt, &SAMPLE[..], 3usize, 3.0));
            assert_eq!(
                censored_ll(&p, &SAMPLE, 3, 3.0).to_bits(),
                published_censored(&p).to_bits()
            );
            crate::check_modes!(rule, published_censored, p);
        }
    }

    // One function per distribution and method, `p = [parameter 1, parameter 2, x]` (`Exp`:
    // `[rate, x]`), each against the published crate.
    macro_rules! two_parameter {
        ($($name:ident, $plain:ident: $ty:ident . $method:ident;)*) => {$(
            #[derive_frule]
            fn $name(p: &[f64]) -> f64 {
                let d = $ty::new(p[0], p[1]).unwrap();
                d.$method(p[2])
            }

            fn $plain(p: &[f64]) -> f64 {
                let d = published::$ty::new(p[0], p[1]).unwrap();
                d.$method(p[2])
            }
        )*};
    }

    two_parameter! {
        normal_cdf, published_normal_cdf: Normal.cdf;
        normal_pdf, published_normal_pdf: Normal.pdf;
        normal_quantile, published_normal_quantile: Normal.inverse_cdf;
        log_normal_cdf, published_log_normal_cdf: LogNormal.cdf;
        log_normal_ln_pdf, published_log_normal_ln_pdf: LogNormal.ln_pdf;
        cauchy_cdf, published_cauchy_cdf: Cauchy.cdf;
        cauchy_quantile, published_cauchy_quantile: Cauchy.inverse_cdf;
        laplace_cdf, published_laplace_cdf: Laplace.cdf;
        laplace_ln_pdf, published_laplace_ln_pdf: Laplace.ln_pdf;
        weibull_cdf, published_weibull_cdf: Weibull.cdf;
        weibull_pdf, published_weibull_pdf: Weibull.pdf;
        gamma_cdf, published_gamma_cdf: Gamma.cdf;
        gamma_pdf, published_gamma_pdf: Gamma.pdf;
        gamma_ln_pdf, published_gamma_ln_pdf: Gamma.ln_pdf;
        gamma_quantile, published_gamma_quantile: Gamma.inverse_cdf;
    }

    #[derive_frule]
    fn exp_sf(p: &[f64]) -> f64 {
        Exp::new(p[0]).unwrap().sf(p[1])
    }

    fn published_exp_sf(p: &[f64]) -> f64 {
        published::Exp::new(p[0]).unwrap().sf(p[1])
    }

    #[test]
    fn densities_and_distribution_functions_in_every_mode() {
        crate::check_modes!(normal_cdf {}, published_normal_cdf, [0.5, 1.3, 1.1]);
        crate::check_modes!(normal_pdf {}, published_normal_pdf, [0.5, 1.3, 1.1]);
        crate::check_modes!(log_normal_cdf {}, published_log_normal_cdf, [0.2, 0.6, 1.7]);
        crate::check_modes!(
            log_normal_ln_pdf {},
            published_log_normal_ln_pdf,
            [0.2, 0.6, 1.7]
        );
        crate::check_modes!(cauchy_cdf {}, published_cauchy_cdf, [-0.4, 0.9, 0.8]);
        crate::check_modes!(laplace_cdf {}, published_laplace_cdf, [0.3, 1.2, 1.4]);
        crate::check_modes!(laplace_cdf {}, published_laplace_cdf, [0.3, 1.2, -0.6]);
        crate::check_modes!(
            laplace_ln_pdf {},
            published_laplace_ln_pdf,
            [0.3, 1.2, -0.6]
        );
        crate::check_modes!(weibull_cdf {}, published_weibull_cdf, [1.7, 2.2, 1.3]);
        crate::check_modes!(weibull_pdf {}, published_weibull_pdf, [1.7, 2.2, 1.3]);
        crate::check_modes!(gamma_cdf {}, published_gamma_cdf, [2.5, 1.5, 1.2]);
        crate::check_modes!(gamma_pdf {}, published_gamma_pdf, [2.5, 1.5, 1.2]);
        crate::check_modes!(gamma_ln_pdf {}, published_gamma_ln_pdf, [2.5, 1.5, 1.2]);
        crate::check_modes!(exp_sf {}, published_exp_sf, [0.7, 2.0]);
        for (rule, plain, p) in [
            (
                normal_cdf(&[0.5, 1.3, 1.1]),
                published_normal_cdf(&[0.5, 1.3, 1.1]),
                0,
            ),
            (
                weibull_pdf(&[1.7, 2.2, 1.3]),
                published_weibull_pdf(&[1.7, 2.2, 1.3]),
                1,
            ),
            (
                gamma_cdf(&[2.5, 1.5, 1.2]),
                published_gamma_cdf(&[2.5, 1.5, 1.2]),
                2,
            ),
        ] {
            assert_eq!(rule.to_bits(), plain.to_bits(), "primal {p}");
        }
    }

    #[test]
    fn the_distribution_functions_derivative_is_the_published_density() {
        let cases: [(&str, f64, f64, f64); 6] = [
            ("normal", 0.5, 1.3, 1.1),
            ("log-normal", 0.2, 0.6, 1.7),
            ("cauchy", -0.4, 0.9, 0.8),
            ("laplace", 0.3, 1.2, -0.6),
            ("weibull", 1.7, 2.2, 1.3),
            ("gamma", 2.5, 1.5, 1.2),
        ];
        for (name, a, b, x) in cases {
            let p = [a, b, x];
            let (d, pdf) = match name {
                "normal" => (
                    jvp(normal_cdf {}, &p, &[0.0, 0.0, 1.0]).1,
                    published::Normal::new(a, b).unwrap().pdf(x),
                ),
                "log-normal" => (
                    jvp(log_normal_cdf {}, &p, &[0.0, 0.0, 1.0]).1,
                    published::LogNormal::new(a, b).unwrap().pdf(x),
                ),
                "cauchy" => (
                    jvp(cauchy_cdf {}, &p, &[0.0, 0.0, 1.0]).1,
                    published::Cauchy::new(a, b).unwrap().pdf(x),
                ),
                "laplace" => (
                    jvp(laplace_cdf {}, &p, &[0.0, 0.0, 1.0]).1,
                    published::Laplace::new(a, b).unwrap().pdf(x),
                ),
                "weibull" => (
                    jvp(weibull_cdf {}, &p, &[0.0, 0.0, 1.0]).1,
                    published::Weibull::new(a, b).unwrap().pdf(x),
                ),
                _ => (
                    jvp(gamma_cdf {}, &p, &[0.0, 0.0, 1.0]).1,
                    published::Gamma::new(a, b).unwrap().pdf(x),
                ),
            };
            assert!(
                close(d, pdf, 1e-12),
                "{name}: d cdf/dx = {d} against pdf {pdf}"
            );
        }
    }

    #[test]
    fn quantiles_against_the_inverse_functions_derivative() {
        // dQ/dp = 1/pdf(Q); in a parameter θ, dQ/dθ = −(∂F/∂θ)(Q)/pdf(Q), ∂F/∂θ by central
        // differences of the published cdf.
        for p in [0.05, 0.3, 0.8] {
            let (mean, sd) = (0.5, 1.3);
            let (q, g) = gradient(normal_quantile {}, &[mean, sd, p]);
            let n = published::Normal::new(mean, sd).unwrap();
            assert_eq!(q.to_bits(), n.inverse_cdf(p).to_bits());
            assert!(
                close(g[2], 1.0 / n.pdf(q), 1e-9),
                "{} against {}",
                g[2],
                1.0 / n.pdf(q)
            );
            // Q = μ + σ z: ∂Q/∂μ = 1, ∂Q/∂σ = (Q − μ)/σ.
            assert!(close(g[0], 1.0, 1e-12));
            assert!(close(g[1], (q - mean) / sd, 1e-9));

            let (loc, scale) = (-0.4, 0.9);
            let (q, g) = gradient(cauchy_quantile {}, &[loc, scale, p]);
            let c = published::Cauchy::new(loc, scale).unwrap();
            assert_eq!(q.to_bits(), c.inverse_cdf(p).to_bits());
            assert!(
                close(g[2], 1.0 / c.pdf(q), 1e-9),
                "{} against {}",
                g[2],
                1.0 / c.pdf(q)
            );

            let (shape, rate) = (2.5, 1.5);
            let (q, g) = gradient(gamma_quantile {}, &[shape, rate, p]);
            let gd = published::Gamma::new(shape, rate).unwrap();
            assert_eq!(q.to_bits(), gd.inverse_cdf(p).to_bits());
            let pdf = gd.pdf(q);
            assert!(
                close(g[2], 1.0 / pdf, 1e-8),
                "gamma dQ/dp: {} against {}",
                g[2],
                1.0 / pdf
            );
            let df_dshape = fd(|a| published::Gamma::new(a, rate).unwrap().cdf(q), shape);
            let df_drate = fd(|r| published::Gamma::new(shape, r).unwrap().cdf(q), rate);
            assert!(
                close(g[0], -df_dshape / pdf, 1e-6),
                "gamma dQ/dshape: {} against {}",
                g[0],
                -df_dshape / pdf
            );
            assert!(
                close(g[1], -df_drate / pdf, 1e-6),
                "gamma dQ/drate: {} against {}",
                g[1],
                -df_drate / pdf
            );
        }
        crate::check_modes!(
            normal_quantile {},
            published_normal_quantile,
            [0.5, 1.3, 0.3]
        );
        crate::check_modes!(
            cauchy_quantile {},
            published_cauchy_quantile,
            [-0.4, 0.9, 0.7]
        );
        // The gamma quantile comes out of a Newton iteration that stops at the crate's
        // tolerance: central differences of the published quantile carry that tolerance
        // over their step (about 1e-4 here), so its other modes are checked against the
        // implicit function theorem's values above, and its second derivative in `p`
        // against d²Q/dp² = −pdf′(Q)/pdf(Q)³, pdf′(x) = pdf(x) ((a − 1)/x − rate).
        let (shape, rate) = (2.5, 1.5);
        let p = [shape, rate, 0.3];
        let (q, g1) = gradient(gamma_quantile {}, &p);
        assert_eq!(q.to_bits(), published_gamma_quantile(&p).to_bits());
        let (v4, g4) = fwdad::drivers::gradient_with::<4>(gamma_quantile {}, &p);
        let (v2, g2, h) = fwdad::drivers::hessian_with::<2>(gamma_quantile {}, &p);
        assert_eq!(v4.to_bits(), q.to_bits());
        assert_eq!(v2.to_bits(), q.to_bits());
        for k in 0..3 {
            assert!(
                close(g4[k], g1[k], 1e-12),
                "batch: {} against {}",
                g4[k],
                g1[k]
            );
            assert!(
                close(g2[k], g1[k], 1e-12),
                "second order: {} against {}",
                g2[k],
                g1[k]
            );
        }
        let pdf = published::Gamma::new(shape, rate).unwrap().pdf(q);
        let want = -((shape - 1.0) / q - rate) / (pdf * pdf);
        assert!(
            close(h[(2, 2)], want, 1e-7),
            "d²Q/dp²: {} against {want}",
            h[(2, 2)]
        );
    }

    /// The entropy and variance of a gamma distribution, as `Option`s of the
    /// `Distribution` trait, `p = [shape, rate]`.
    #[derive_frule]
    fn gamma_moments(p: &[f64]) -> f64 {
        let g = Gamma::new(p[0], p[1]).unwrap();
        g.entropy().unwrap() + g.variance().unwrap()
    }

    fn published_gamma_moments(p: &[f64]) -> f64 {
        let g = published::Gamma::new(p[0], p[1]).unwrap();
        g.entropy().unwrap() + g.variance().unwrap()
    }

    #[test]
    fn gamma_entropy_and_variance_in_every_mode() {
        for p in [[2.5, 1.5], [0.7, 3.0]] {
            assert_eq!(
                gamma_moments(&p).to_bits(),
                published_gamma_moments(&p).to_bits()
            );
            crate::check_modes!(gamma_moments {}, published_gamma_moments, p);
        }
    }
}
