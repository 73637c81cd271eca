//! lambert_w 2.1.9 (MIT OR Apache-2.0, <https://github.com/JSorngard/lambert_w>): Fukushima's
//! piecewise minimax rational approximations of the Lambert W function's two real branches,
//! at 50 and 24 bits, in `f64` and `f32`, copied from the published crate with
//! `#[fwdad::derive_frule]` on every function (the generic `Float` helpers and the `const fn`
//! Taylor tables included) and nothing else changed. Left out: the complex branches
//! (`all_complex_branches`), the crate's tests, and its crate-level attributes; the modules
//! are inlined here, the root's items copied after them.
//!
//! Checked against W'(z) = W / (z (1 + W)) (at z = 0, 1), which holds independently of the
//! code, and primals bit for bit against the published crate.

#![allow(clippy::excessive_precision, clippy::approx_constant)]

pub use dw0c::lambert_w0;
pub use dwm1c::lambert_wm1;
pub use sw0::sp_lambert_w0;
pub use sw0f::lambert_w0f;
pub use swm1::sp_lambert_wm1;
pub use swm1f::lambert_wm1f;

#[rustfmt::skip]
#[allow(clippy::all)]
mod generic_math {
// Copyright 2024-2026 Johanna Sörngård
// SPDX-License-Identifier: MIT OR Apache-2.0

//! This module contains elementary and rational functions used in the Lambert W function approximations.
//! They are generic over all types that implement the [`Float`] trait.

use num_traits::Float;

// The `inline` annotations are motivated by benchmarks on an AMD 5800X3D processor.
// The `lambert_w0` function is sped up by around 50% when the inline annotations are present.
// The reason it's not `inline(always)` is to let the compiler have more of a say on platforms where
// it might decide that inlining is not a good idea.

/// Evaluate a rational function at `x` using [Horner's method](https://en.wikipedia.org/wiki/Horner%27s_method).
///
/// The coefficients are assumed to be sorted in ascending order by the degree of the associated x-term.
#[inline]
#[fwdad::derive_frule]
pub(crate) fn rational_function<T: Float, const N: usize, const D: usize>(
    x: T,
    numerator_coefficients: [T; N],
    denominator_coefficients: [T; D],
) -> T {
    let numerator = polynomial(x, numerator_coefficients);

    let denominator = polynomial(x, denominator_coefficients);

    numerator / denominator
}

/// Evaluate a polynomial at `x` using [Horner's method](https://en.wikipedia.org/wiki/Horner%27s_method).
///
/// The coefficients are assumed to be sorted in ascending order by the degree of the associated x-term.
#[inline]
#[fwdad::derive_frule]
pub(crate) fn polynomial<T: Float, const N: usize>(x: T, coefficients: [T; N]) -> T {
    coefficients
        .iter()
        .rev()
        .skip(1)
        .fold(*coefficients.last().unwrap_or(&T::zero()), |acc, &c| {
            mul_add(x, acc, c)
        })
}

/// Compute `x*mul + add` and use fused multiply-add instructions when available.
#[inline]
#[fwdad::derive_frule]
fn mul_add<T: Float>(x: T, mul: T, add: T) -> T {
    #[cfg(target_feature = "fma")]
    {
        x.mul_add(mul, add)
    }

    #[cfg(not(target_feature = "fma"))]
    {
        x * mul + add
    }
}

// The functions below are wrappers around the [`num-traits`] crate,
// mainly to ensure that we can always call them regardless of the presence of
// the standard library. I do not just import the trait in the files where the
// lambert w functions are defined because the standard library is available during testing,
// which means that the crate would produce warnings about the unused imports.

/// Compute the square root of `x`.
///
/// Just wraps the [`sqrt`](Float::sqrt) function from [`num_traits`].
#[inline]
#[fwdad::derive_frule]
pub(crate) fn sqrt<T: Float>(x: T) -> T {
    Float::sqrt(x)
}

/// Compute the natural logarithm of `x`.
///
/// Just wraps the [`ln`](Float::ln) function from [`num_traits`].
#[inline]
#[fwdad::derive_frule]
pub(crate) fn ln<T: Float>(x: T) -> T {
    Float::ln(x)
}
}

#[rustfmt::skip]
#[allow(clippy::all)]
mod sw0 {
// Copyright 2024-2026 Johanna Sörngård
// SPDX-License-Identifier: MIT OR Apache-2.0

//! This module contains an implementation of the approximation of the principal
//! branch of the Lambert W function
//! with 24 bits of accuracy from Fukushima's paper.
//! It is based on the Fortran implementation of the name "sw0" by Fukushima.

// The coefficients in these rational minimax functions all have excessive precision.
// By keeping the full precision in the source code we can ensure that there is no confusion
// when comparing with the paper.
#![allow(clippy::excessive_precision)]

use crate::{
    generic_math::{ln, polynomial, rational_function, sqrt},
    w0_taylor_coefficients, NEG_INV_E, NEG_INV_E_CORRECTION,
    PRINCIPAL_BRANCH_APPROXIMATELY_ZERO_THRESHOLD, PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD,
    SMALLEST_F64_IN_DOMAIN,
};

/// The principal branch of the Lambert W function computed to 24 bits of accuracy on 64-bit floats with a method based on Fukushima's[^1].
///
/// The implementation follows the description in Fukushima's paper[^1] except around zero, where the function is implemented in terms of it's Taylor polynomial[^2],
/// and close to the branch point where the value of z + 1/e is corrected by adding back the distance between [`NEG_INV_E`] and the true value of -1/e to reduce cancellation error, as done in FLINT[^3].
///
/// # Examples
///
/// #### Basic usage
///
/// ```
/// use lambert_w::sp_lambert_w0;
/// use approx::assert_abs_diff_eq;
///
/// let Ω = sp_lambert_w0(1.0);
///
/// assert_abs_diff_eq!(Ω, 0.5671432904097839, epsilon = f64::from(f32::EPSILON));
/// ```
///
/// #### Edge cases
///
/// The smallest (most negative) value for which this function returns a valid float is [`SMALLEST_F64_IN_DOMAIN`],
/// the constant [`NEG_INV_E`], which is the next float down, gives [`NAN`](f64::NAN):
///
/// ```
/// use lambert_w::{sp_lambert_w0, NEG_INV_E, SMALLEST_F64_IN_DOMAIN};
///
/// assert!(sp_lambert_w0(NEG_INV_E).is_nan());
/// assert!(!sp_lambert_w0(SMALLEST_F64_IN_DOMAIN).is_nan());
/// ```
///
/// An input of [`INFINITY`](f64::INFINITY) gives [`INFINITY`](f64::INFINITY) and an input of [`NAN`](f64::NAN) results in [`NAN`](f64::NAN):
///
/// ```
/// use lambert_w::sp_lambert_w0;
///
/// assert_eq!(sp_lambert_w0(f64::INFINITY), f64::INFINITY);
/// assert!(sp_lambert_w0(f64::NAN).is_nan());
/// ```
///
/// # References
///
/// [^1]: Toshio Fukushima. **Precise and fast computation of Lambert W function by piecewise minimax rational function approximation with variable transformation**.
/// DOI: [10.13140/RG.2.2.30264.37128](https://doi.org/10.13140/RG.2.2.30264.37128). November 2020.
///
/// [^2]: Equation (5) in section 4.13 of the Digital Library of Math Functions by NIST, [DLMF 4.13.5](https://dlmf.nist.gov/4.13.E5), release 1.2.8 of 2026-09-15.
///
/// [^3]: The FLINT team, ["d_lambertw (double_extras.h)"](https://flintlib.org/doc/double_extras/d_lambertw.html), FLINT: Fast Library for Number Theory, documentation, version 3.7.0-dev, 2026 (generated 2026-10-20, url visited 2026-11-01).
#[must_use = "this is a pure function that only returns a value and has no side effects"]
#[fwdad::derive_frule]
pub fn sp_lambert_w0(z: f64) -> f64 {
    // The critical arguments used in the if statements are related to the numbers in table 3 of the paper, column one.
    // The coefficients in the rational functions are related from the tables 5 through 7 in the paper.
    // The actual numbers are taken from Fukushima's Fortran implementation, where they have higher precision.

    if z < SMALLEST_F64_IN_DOMAIN {
        f64::NAN
    } else if (-PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD..=PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD)
        .contains(&z)
    {
        // Around zero the principal branch of the W function can be expressed as a Taylor polynomial:
        //     W_0(z) = sum_{n >= 1} (-n)^(n-1) z^n / n!
        // Source: equation (5) in section 4.13 of the Digital Library of Mathematical Functions.
        // In the article by Fuskushima he does not do this special near-zero branch.
        // That is because his function takes z + 1/e as an input instead of z, and then you can never get values super-close to zero.
        // We want to take z directly because it makes the API much more intuitive.

        if (-PRINCIPAL_BRANCH_APPROXIMATELY_ZERO_THRESHOLD
            ..=PRINCIPAL_BRANCH_APPROXIMATELY_ZERO_THRESHOLD)
            .contains(&z)
        {
            // The first two terms of the Taylor polynomial in the branch below.
            // All that's needed this close to zero.

            z * polynomial(z, w0_taylor_coefficients::<2>())
        } else {
            z * polynomial(z, w0_taylor_coefficients::<8>())
        }
    } else if z <= 2.702_564_027_724_190_315_7e8 {
        if z <= 4_705.918_954_265_969_037_7 {
            if z <= 30.539_142_109_510_895_244 {
                if z <= 2.008_217_811_584_472_656_3 {
                    // W <= 0.854, X_1

                    rational_function(
                        // Another artifact of taking z instead of z + 1/e as input.
                        // When we add 1/e we introduce a cancellation error.
                        // We compensate for that here.
                        sqrt((z - NEG_INV_E) + NEG_INV_E_CORRECTION),
                        [
                            -0.999_999_940_395_401_883_3,
                            0.055_730_052_161_777_802_73,
                            2.126_973_249_105_317_442_1,
                            0.813_511_236_783_528_788_0,
                            0.016_324_880_146_070_158_165,
                        ],
                        [
                            1.0,
                            2.275_906_559_863_465_118_2,
                            1.367_597_013_868_904_082_9,
                            0.186_158_234_528_316_218_70,
                        ],
                    )
                } else {
                    // W <= 2.502, X_2

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            -0.985_519_709_059_990_933_51,
                            1.077_497_573_381_351_625_9,
                            0.871_751_030_681_774_965_65,
                            0.054_352_728_608_275_766_374,
                        ],
                        [
                            1.0,
                            1.186_101_403_701_543_363_7,
                            0.249_962_984_308_281_622_21,
                            0.006_881_368_648_675_912_400_2,
                        ],
                    )
                }
            } else {
                if z <= 371.669_843_713_757_760_70 {
                    // W <= 4.430, X_3

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            -0.762_397_113_463_688_842_39,
                            1.231_773_161_336_359_583_3,
                            0.243_424_471_130_566_945_10,
                            0.004_320_601_393_878_235_597_4,
                        ],
                        [
                            1.0,
                            0.579_386_215_035_869_076_09,
                            0.046_601_427_736_078_777_155,
                            0.000_435_128_175_674_741_091_42,
                        ],
                    )
                } else {
                    // W <= 6.574, X_4

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            0.085_801_247_434_391_388_025,
                            0.825_397_980_997_483_437_22,
                            0.039_781_960_760_329_074_310,
                            0.000_187_855_789_275_837_990_84,
                        ],
                        [
                            1.0,
                            0.213_380_768_170_801_410_22,
                            0.005_462_672_039_792_693_555_3,
                            0.000_015_449_534_481_294_754_830,
                        ],
                    )
                }
            }
        } else {
            if z <= 965_649.030_871_163_226_41 {
                if z <= 64_640.797_355_310_089_675 {
                    // W <= 8.892, X_5

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            1.621_924_538_347_016_874_2,
                            0.388_691_451_325_166_635_64,
                            0.004_575_064_267_850_351_111_1,
                            5.538_467_214_864_449_887_3e-6,
                        ],
                        [
                            1.0,
                            0.065_219_460_735_182_414_183,
                            0.000_478_827_607_890_225_089_40,
                            3.809_482_814_629_240_109_9e-7,
                        ],
                    )
                } else {
                    // W <= 11.351, X_6

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            3.621_899_608_569_591_996_9,
                            0.148_846_467_548_801_598_69,
                            0.000_424_696_224_099_984_031_46,
                            1.279_017_971_037_421_684_6e-7,
                        ],
                        [
                            1.0,
                            0.017_985_659_319_608_747_571,
                            0.000_035_446_449_757_357_845_802,
                            7.506_249_296_303_704_700_5e-9,
                        ],
                    )
                }
            } else {
                if z <= 1.559_333_422_803_816_549_0e7 {
                    // W <= 13.928, X_7

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            5.907_336_973_960_809_058_9,
                            0.050_053_653_594_737_112_977,
                            0.000_034_072_148_625_204_698_714,
                            2.481_206_469_365_548_349_2e-9,
                        ],
                        [
                            1.0,
                            0.004_655_899_001_684_321_048_8,
                            2.344_944_586_080_881_205_0e-6,
                            1.263_142_996_480_846_114_0e-10,
                        ],
                    )
                } else {
                    // W <= 16.605, X_8

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            8.382_600_584_819_551_267_1,
                            0.015_360_346_475_232_500_605,
                            2.443_338_439_786_936_744_5e-6,
                            4.185_680_326_411_854_963_9e-11,
                        ],
                        [
                            1.0,
                            0.001_150_742_322_378_586_783_0,
                            1.422_142_847_481_351_640_8e-7,
                            1.873_917_202_662_012_263_7e-12,
                        ],
                    )
                }
            }
        }
    } else {
        if z <= 2.393_255_260_235_983_768_7e16 {
            if z <= 2.025_975_385_630_209_968_3e12 {
                if z <= 4.995_018_739_704_194_635_5e9 {
                    // W <= 19.368, X_9

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            10.996_674_803_992_550_975,
                            0.004_394_213_889_867_383_245_6,
                            1.596_666_535_484_677_802_6e-7,
                            6.266_538_284_496_873_224_2e-13,
                        ],
                        [
                            1.0,
                            0.000_273_837_576_757_036_474_31,
                            8.015_706_231_969_030_420_9e-9,
                            2.495_698_215_887_173_000_2e-14,
                        ],
                    )
                } else if z <= 9.791_115_441_672_696_027_7e10 {
                    // W <= 22.207, X_10

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            13.719_833_802_350_861_158,
                            0.001_187_444_380_520_229_142_9,
                            9.630_338_120_016_467_597_1e-9,
                            8.443_452_423_226_162_880_8e-15,
                        ],
                        [
                            1.0,
                            0.000_063_056_372_424_395_349_289,
                            4.235_876_603_109_884_029_1e-10,
                            3.020_540_500_543_447_430_4e-16,
                        ],
                    )
                } else {
                    // W <= 25.114, X_11

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            16.533_119_481_561_616_886,
                            0.000_305_831_257_519_080_406_46,
                            5.411_294_663_372_009_873_1e-10,
                            1.034_713_033_370_471_127_5e-16,
                        ],
                        [
                            1.0,
                            0.000_014_099_161_212_376_339_883,
                            2.112_109_541_235_469_506_3e-11,
                            3.352_692_715_745_246_951_5e-18,
                        ],
                    )
                }
            } else {
                if z <= 4.407_744_425_147_793_893_9e13 {
                    // W <= 28.082, X_12

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            19.423_519_260_478_579_324,
                            0.000_075_559_269_761_977_808_773,
                            2.853_002_312_078_307_598_4e-11,
                            1.162_962_709_646_357_956_9e-18,
                        ],
                        [
                            1.0,
                            3.069_209_278_972_785_565_7e-6,
                            9.986_661_305_031_146_547_5e-13,
                            3.437_671_711_698_391_503_8e-20,
                        ],
                    )
                } else if z <= 1.004_838_215_057_150_448_5e15 {
                    // W <= 31.106, X_13

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            22.381_576_050_041_913_103,
                            0.000_017_994_724_029_162_552_053,
                            1.419_487_642_040_223_025_9e-12,
                            1.207_110_515_438_582_986_7e-20,
                        ],
                        [
                            1.0,
                            6.518_396_280_665_677_034_0e-7,
                            4.495_866_571_281_253_615_0e-14,
                            3.275_542_924_502_358_153_2e-22,
                        ],
                    )
                } else {
                    // W <= 34.182, X_14

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            25.400_105_417_092_068_195,
                            4.146_737_838_657_924_601_5e-6,
                            6.696_269_721_968_179_153_9e-14,
                            1.163_790_515_950_647_608_2e-22,
                        ],
                        [
                            1.0,
                            1.352_980_135_703_041_681_9e-7,
                            1.933_608_178_532_575_035_3e-15,
                            2.914_939_619_981_625_763_6e-24,
                        ],
                    )
                }
            }
        } else {
            if z <= 4.103_565_939_888_539_413_5e20 {
                if z <= 5.939_799_659_746_575_434_6e17 {
                    // W <= 37.306, X_15

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            28.473_455_626_379_917_708,
                            9.274_682_469_309_405_901_9e-7,
                            3.006_899_015_933_680_528_7e-15,
                            1.047_355_759_182_202_785_2e-24,
                        ],
                        [
                            1.0,
                            2.748_648_970_452_172_911_0e-8,
                            7.967_898_707_103_613_339_8e-17,
                            2.433_166_636_706_152_936_6e-26,
                        ],
                    )
                } else if z <= 1.532_693_858_990_176_659_2e19 {
                    // W <= 40.475, X_16

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            31.597_055_437_846_359_378,
                            2.018_422_527_678_632_549_6e-7,
                            1.289_578_819_651_290_889_8e-16,
                            8.836_117_471_410_109_815_9e-27,
                        ],
                        [
                            1.0,
                            5.472_394_512_609_849_720_2e-9,
                            3.153_772_917_992_919_175_8e-18,
                            1.912_203_513_257_167_002_2e-28,
                        ],
                    )
                } else {
                    // W <= 43.687, X_17

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [
                            34.767_124_490_414_517_175,
                            4.283_079_924_069_894_293_2e-8,
                            5.297_588_412_103_653_440_7e-18,
                            7.014_551_539_215_877_537_8e-29,
                        ],
                        [
                            1.0,
                            1.068_930_112_769_633_243_6e-9,
                            1.201_669_906_178_942_295_1e-19,
                            1.419_524_481_080_098_523_5e-30,
                        ],
                    )
                }
            } else {
                if z <= 2.172_370_661_049_060_431_7e141 {
                    // W <= 319.673, U_18

                    rational_function(
                        ln(z),
                        [
                            -0.607_023_733_718_461_924_76,
                            0.698_287_163_225_269_836_51,
                            0.075_795_135_081_824_754_660,
                            0.000_516_692_560_817_372_468_14,
                        ],
                        [
                            1.0,
                            0.079_048_429_972_306_018_289,
                            0.000_517_609_908_992_059_784_68,
                            -4.243_840_393_198_106_978_6e-10,
                        ],
                    )
                } else if z < f64::INFINITY {
                    //    U_19

                    rational_function(
                        ln(z),
                        [
                            -3.132_005_602_886_366_119_2,
                            0.948_894_657_265_326_009_02,
                            0.008_317_815_296_164_439_321_7,
                            5.558_784_815_783_349_289_0e-6,
                        ],
                        [
                            1.0,
                            0.008_365_681_867_773_005_876_9,
                            5.559_715_493_597_327_536_4e-6,
                            -3.748_153_583_315_120_222_2e-14,
                        ],
                    )
                } else {
                    // In this branch the input was either +infinity or NaN,
                    // in both cases the output of the W function happens to match the input.
                    z
                }
            }
        }
    }
}
}

#[rustfmt::skip]
#[allow(clippy::all)]
mod swm1 {
// Copyright 2024-2026 Johanna Sörngård
// SPDX-License-Identifier: MIT OR Apache-2.0

//! This module contains an implementation of the approximation of the secondary
//! branch of the Lambert W function
//! with 24 bits of accuracy from Fukushima's paper.
//! It is based on the Fortran implementation of the name "swm1" by Fukushima.

// The coefficients in these rational minimax functions all have excessive precision.
// By keeping the full precision in the source code we can ensure that there is no confusion
// when comparing with the paper.
#![allow(clippy::excessive_precision)]

use crate::{
    generic_math::{ln, rational_function, sqrt},
    INV_SQRT_E, NEG_INV_E, NEG_INV_E_CORRECTION, SMALLEST_F64_IN_DOMAIN,
};

/// The secondary branch of the Lambert W function computed to 24 bits of accuracy on 64-bit floats with Fukushima's method[^1].
///
/// Close to the branch point the value of z + 1/e is corrected by adding back the distance between [`NEG_INV_E`] and the true value of -1/e to reduce cancellation error, as done in FLINT[^2].
///
/// # Examples
///
/// #### Basic usage
///
/// ```
/// use lambert_w::sp_lambert_wm1;
/// use approx::assert_abs_diff_eq;
///
/// let mln4 = sp_lambert_wm1(-f64::ln(2.0) / 2.0);
///
/// assert_abs_diff_eq!(mln4, -f64::ln(4.0), epsilon = f64::from(f32::EPSILON));
/// ```
///
/// #### Edge cases
///
/// The smallest (most negative) value for which this function returns a valid float is [`SMALLEST_F64_IN_DOMAIN`],
/// the constant [`NEG_INV_E`], which is the next float down, gives [`NAN`](f64::NAN):
///
/// ```
/// use lambert_w::{sp_lambert_wm1, NEG_INV_E, SMALLEST_F64_IN_DOMAIN};
///
/// assert!(sp_lambert_wm1(NEG_INV_E).is_nan());
/// assert!(!sp_lambert_wm1(SMALLEST_F64_IN_DOMAIN).is_nan());
/// ```
///
/// For inputs of 0 the function returns [`NEG_INFINITY`](f64::NEG_INFINITY):
///
/// ```
/// use lambert_w::sp_lambert_wm1;
///
/// assert_eq!(sp_lambert_wm1(0.0), f64::NEG_INFINITY);
/// ```
///
/// Inputs larger than 0, as well as inputs of [`NAN`](f64::NAN), result in [`NAN`](f64::NAN):
///
/// ```
/// use lambert_w::{sp_lambert_wm1, NEG_INV_E};
///
/// assert!(sp_lambert_wm1(f64::MIN_POSITIVE).is_nan());
/// assert!(sp_lambert_wm1(f64::NAN).is_nan());
/// ```
///
/// # Reference
///
/// [^1]: Toshio Fukushima. **Precise and fast computation of Lambert W function by piecewise minimax rational function approximation with variable transformation**.
/// DOI: [10.13140/RG.2.2.30264.37128](https://doi.org/10.13140/RG.2.2.30264.37128). November 2020.
///
/// [^2]: The FLINT team, ["d_lambertw (double_extras.h)"](https://flintlib.org/doc/double_extras/d_lambertw.html), FLINT: Fast Library for Number Theory, documentation, version 3.7.0-dev, 2026 (generated 2026-10-20, url visited 2026-11-01).
#[must_use = "this is a pure function that only returns a value and has no side effects"]
#[fwdad::derive_frule]
pub fn sp_lambert_wm1(z: f64) -> f64 {
    // The critical arguments used in the if statements are related to the numbers in table 4 of the paper, column one.
    // The coefficients in the rational functions are related to the tables 8 and 9 in the paper.
    // The actual numbers are taken from Fukushima's Fortran implementation, where they have higher precision.

    if z < SMALLEST_F64_IN_DOMAIN {
        f64::NAN
    } else if z <= -0.001_367_466_989_250_804_268_7 {
        if z <= -0.020_704_412_621_717_479_786 {
            if z <= -0.207_293_777_640_384_138_99 {
                // W >= -2.483, Y_-1

                rational_function(
                    -z / (INV_SQRT_E + sqrt((z - NEG_INV_E) + NEG_INV_E_CORRECTION)),
                    [
                        -6.383_722_822_801_905_640_2,
                        -74.968_653_259_594_050_421,
                        -19.714_821_552_432_482_711,
                        70.677_326_667_809_236_886,
                    ],
                    [
                        1.0,
                        24.295_836_951_878_692_244,
                        64.112_460_611_386_039_710,
                        17.994_497_369_039_313_585,
                    ],
                )
            } else if z <= -0.071_507_705_083_841_949_275 {
                // W >= -4.032, Y_-2

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -7.723_328_481_229_978_044_5,
                        -352.484_690_970_429_148_66,
                        -1_242.008_890_368_567_715_4,
                        1_171.647_596_062_049_903_3,
                    ],
                    [
                        1.0,
                        77.681_242_588_997_413_555,
                        648.564_312_140_752_460_23,
                        566.701_549_764_361_648_18,
                    ],
                )
            } else {
                // W >= -5.600, Y_-3

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -9.137_773_141_758_154_626_2,
                        -1_644.724_479_150_888_940_7,
                        -28_105.096_098_779_681_470,
                        3_896.079_810_390_921_391_5,
                    ],
                    [
                        1.0,
                        272.375_261_351_239_732_61,
                        7_929.224_261_291_349_736_3,
                        23_980.122_860_821_312_510,
                    ],
                )
            }
        } else {
            if z <= -0.005_480_012_945_209_443_573_3 {
                // W >= -7.178, Y_-4

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -10.603_388_239_566_372_960,
                        -7_733.348_521_498_647_619_3,
                        -575_482.407_079_644_221_74,
                        -2.154_552_604_188_978_313_2e6,
                    ],
                    [
                        1.0,
                        1_021.793_856_606_681_728_7,
                        111_300.229_154_865_209_18,
                        1.261_425_640_008_844_218_6e6,
                    ],
                )
            } else {
                // W >= -8.766, Y_-5

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -12.108_699_273_343_437_997,
                        -36_896.535_108_166_377_289,
                        -1.183_112_672_010_605_357_4e7,
                        -2.756_583_081_394_092_428_6e8,
                    ],
                    [
                        1.0,
                        4_044.975_306_488_070_069_7,
                        1.741_827_761_903_000_471_3e6,
                        7.843_690_738_080_689_728_0e7,
                    ],
                )
            }
        }
    } else {
        if z <= -0.000_074_906_612_036_101_435_088 {
            if z <= -0.000_326_142_267_310_725_659_15 {
                // W >= -10.367, Y_-6

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -13.646_761_936_746_191_398,
                        -179_086.115_857_151_485_53,
                        -2.508_463_493_521_464_102_0e8,
                        -2.934_370_049_483_371_501_9e10,
                    ],
                    [
                        1.0,
                        16_743.826_607_737_142_476,
                        2.980_965_094_601_174_304_7e7,
                        5.573_951_481_695_800_120_2e9,
                    ],
                )
            } else {
                // W >= -11.983, Y_-7

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -15.212_958_142_001_646_273,
                        -884_954.687_981_689_538_07,
                        -5.529_815_437_863_347_537_9e9,
                        -3.093_418_743_531_466_820_3e12,
                    ],
                    [
                        1.0,
                        72_009.255_525_210_120_244,
                        5.505_900_767_187_580_347_0e8,
                        4.432_489_486_700_034_049_5e11,
                    ],
                )
            }
        } else {
            if z <= -1.096_244_452_641_099_391_9e-19 {
                // W >= -47.518, V_-8

                rational_function(
                    ln(-z),
                    [
                        -0.032_401_163_177_791_086_145,
                        2.028_194_214_474_250_266_7,
                        -0.527_524_312_425_927_139_92,
                        0.017_340_294_772_717_582_230,
                    ],
                    [
                        1.0,
                        -0.450_042_744_438_917_372_96,
                        0.017_154_705_753_566_296_216,
                        -5.243_819_620_271_835_822_6e-7,
                    ],
                )
            } else if z <= -2.509_609_929_994_590_145_5e-136 {
                // W >= -317.993, V_-9

                rational_function(
                    ln(-z),
                    [
                        -1.441_124_659_581_209_802_9,
                        1.281_926_963_998_047_809_5,
                        -0.074_979_356_113_812_324_952,
                        0.000_476_363_091_620_691_506_55,
                    ],
                    [
                        1.0,
                        -0.072_000_873_723_868_650_424,
                        0.000_475_489_329_895_970_299_52,
                        -4.171_497_924_754_684_061_9e-10,
                    ],
                )
            } else if z < 0.0 {
                // V_-10

                rational_function(
                    ln(-z),
                    [
                        -3.310_876_091_171_044_755_4,
                        1.050_067_880_993_517_477_5,
                        -0.008_236_749_582_134_320_494_0,
                        5.528_956_159_491_018_844_1e-6,
                    ],
                    [
                        1.0,
                        -0.008_189_272_743_331_551_186_7,
                        5.528_007_600_971_195_403_2e-6,
                        -3.922_277_308_457_406_059_4e-14,
                    ],
                )
            } else if z == 0.0 {
                f64::NEG_INFINITY
            } else {
                f64::NAN
            }
        }
    }
}
}

#[rustfmt::skip]
#[allow(clippy::all)]
mod dw0c {
// Copyright 2024-2026 Johanna Sörngård
// SPDX-License-Identifier: MIT OR Apache-2.0

//! This module contains an implementation of the approximation of the principal
//! branch of the Lambert W function
//! with 50 bits of accuracy from Fukushima's paper.
//! It is based on the Fortran implementation of the name "dw0c" by Fukushima.

// The coefficients in these rational minimax functions all have excessive precision.
// By keeping the full precision in the source code we can ensure that there is no confusion
// when comparing with the paper.
#![allow(clippy::excessive_precision)]

use crate::{
    generic_math::{ln, polynomial, rational_function, sqrt},
    w0_taylor_coefficients, NEG_INV_E, NEG_INV_E_CORRECTION,
    PRINCIPAL_BRANCH_APPROXIMATELY_ZERO_THRESHOLD, PRINCIPAL_BRANCH_MAX_TRICKY_REGION,
    PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD, SMALLEST_F64_IN_DOMAIN,
};

/// The principal branch of the Lambert W function computed to 50 bits of accuracy on 64-bit floats with a method based on Fukushima's[^1].
///
/// The implementation follows the description in Fukushima's paper[^1] except around zero, where the function is implemented in terms of it's Taylor polynomial[^2],
/// and close to the branch point where the value of z + 1/e is corrected by adding back the distance between [`NEG_INV_E`] and the true value of -1/e to reduce cancellation error, as done in FLINT[^3].
///
/// # Examples
///
/// #### Basic usage
///
/// ```
/// use lambert_w::lambert_w0;
/// use approx::assert_abs_diff_eq;
///
/// let Ω = lambert_w0(1.0);
///
/// assert_abs_diff_eq!(Ω, 0.567143290409783873);
/// ```
///
/// #### Edge cases
///
/// The smallest (most negative) value for which this function returns a valid float is [`SMALLEST_F64_IN_DOMAIN`],
/// the constant [`NEG_INV_E`], which is the next float down, gives [`NAN`](f64::NAN):
///
/// ```
/// use lambert_w::{lambert_w0, NEG_INV_E, SMALLEST_F64_IN_DOMAIN};
///
/// assert!(lambert_w0(NEG_INV_E).is_nan());
/// assert!(!lambert_w0(SMALLEST_F64_IN_DOMAIN).is_nan());
/// ```
///
/// An input of [`INFINITY`](f64::INFINITY) gives [`INFINITY`](f64::INFINITY) and an input of [`NAN`](f64::NAN) results in [`NAN`](f64::NAN):
///
/// ```
/// use lambert_w::lambert_w0;
///
/// assert_eq!(lambert_w0(f64::INFINITY), f64::INFINITY);
/// assert!(lambert_w0(f64::NAN).is_nan());
/// ```
///
/// # References
///
/// [^1]: Toshio Fukushima. **Precise and fast computation of Lambert W function by piecewise minimax rational function approximation with variable transformation**.
/// DOI: [10.13140/RG.2.2.30264.37128](https://doi.org/10.13140/RG.2.2.30264.37128). November 2020.
///
/// [^2]: Equation (5) in section 4.13 of the Digital Library of Math Functions by NIST, [DLMF 4.13.5](https://dlmf.nist.gov/4.13.E5), release 1.2.8 of 2026-09-15.
///
/// [^3]: The FLINT team, ["d_lambertw (double_extras.h)"](https://flintlib.org/doc/double_extras/d_lambertw.html), FLINT: Fast Library for Number Theory, documentation, version 3.7.0-dev, 2026 (generated 2026-10-20, url visited 2026-11-01).
#[must_use = "this is a pure function that only returns a value and has no side effects"]
#[fwdad::derive_frule]
pub fn lambert_w0(z: f64) -> f64 {
    // The critical arguments used in the if statements are the numbers in table 3 of the paper, column two, with 1/e added.
    // The coefficients in the rational functions are the ones in tables 10 through 14 in the paper.

    let zc = z - NEG_INV_E;

    if z < SMALLEST_F64_IN_DOMAIN {
        f64::NAN
    } else if (-PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD..=PRINCIPAL_BRANCH_MAX_TRICKY_REGION)
        .contains(&z)
    {
        // Around zero the principal branch of the W function can be expressed as a Taylor polynomial:
        //     W_0(z) = sum_{n >= 1} (-n)^(n-1) z^n / n!
        // Source: equation (5) in section 4.13 of the Digital Library of Mathematical Functions.
        // In the article by Fuskushima he does not do this special near-zero branch.
        // That is because his function takes z + 1/e as an input instead of z, and then you can never get values super-close to zero.
        // We want to take z directly because it makes the API much more intuitive.

        if (-PRINCIPAL_BRANCH_APPROXIMATELY_ZERO_THRESHOLD
            ..=PRINCIPAL_BRANCH_APPROXIMATELY_ZERO_THRESHOLD)
            .contains(&z)
        {
            z * polynomial(z, w0_taylor_coefficients::<2>())
        } else if (-PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD..=PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD)
            .contains(&z)
        {
            z * polynomial(z, w0_taylor_coefficients::<18>())
        } else {
            // Between the near zero threshold and the end of the "tricky region".
            // This part of the domain was found by running a lot of tests on random data.
            // A polynomial of this degree should still be faster than a Halley iteration
            // since that would involve logarithms.
            z * polynomial(z, w0_taylor_coefficients::<32>())
        }
    } else if zc <= 3.557_647_430_800_996_522_5e8 {
        if zc <= 8_049.491_985_075_761_910_9 {
            if zc <= 43.613_924_462_669_367_895 {
                if zc <= 2.549_893_906_503_473_571_6 {
                    // W <= 0.893, X_1

                    rational_function(
                        // Another artifact of taking z instead of z + 1/e as input.
                        // When we add 1/e we introduce a cancellation error.
                        // We compensate for that here.
                        sqrt(zc + NEG_INV_E_CORRECTION),
                        [
                            -0.999_999_999_999_999_889_0,
                            -2.739_966_866_820_365_930_4,
                            0.026_164_207_726_990_399_347,
                            6.370_916_807_894_900_917,
                            7.101_328_651_785_402_668,
                            2.980_082_678_300_685_257_3,
                            0.488_195_968_137_898_650_43,
                            0.023_753_035_787_333_611_915,
                            0.000_077_365_760_093_772_431_00,
                        ],
                        [
                            1.0,
                            5.071_610_848_417_428_005,
                            9.986_838_818_354_528_337,
                            9.660_755_192_207_886_908,
                            4.794_372_899_133_611_905_2,
                            1.162_970_347_770_452_230_0,
                            0.118_494_625_007_337_552_33,
                            0.003_432_652_513_240_222_648_8,
                        ],
                    )
                } else {
                    // W <= 2.754, X_2

                    rational_function(
                        sqrt(zc),
                        [
                            -0.999_978_018_005_789_167_49,
                            -0.704_157_515_904_836_022_72,
                            2.123_226_083_280_252_907_1,
                            2.389_676_070_293_571_834_1,
                            0.777_653_118_050_291_752_44,
                            0.089_686_698_993_644_741_433,
                            0.003_306_248_575_374_640_355_9,
                            0.000_025_106_760_479_132_851_033,
                        ],
                        [
                            1.0,
                            3.035_602_682_808_541_088_4,
                            3.143_453_015_128_677_705_7,
                            1.372_315_656_659_244_727_5,
                            0.258_446_974_157_442_111_42,
                            0.019_551_162_251_819_044_265,
                            0.000_487_759_332_445_301_231_01,
                            2.316_511_684_107_315_271_7e-6,
                        ],
                    )
                }
            } else {
                if zc <= 598.453_533_718_782_769_46 {
                    // W <= 4.821, X_3

                    rational_function(
                        sqrt(zc),
                        [
                            -0.989_674_203_372_735_063_93,
                            0.595_876_806_063_943_827_48,
                            1.422_508_301_815_194_314_8,
                            0.448_828_891_683_238_097_98,
                            0.044_504_943_332_390_033_511,
                            0.001_521_879_483_541_957_855_4,
                            0.000_016_072_263_556_502_220_023,
                            3.372_337_302_030_651_084_3e-8,
                        ],
                        [
                            1.0,
                            1.695_940_239_462_619_805_2,
                            0.809_685_734_155_009_008_96,
                            0.140_020_349_998_170_219_55,
                            0.009_357_187_849_379_016_448_0,
                            0.000_232_514_875_933_897_734_64,
                            1.806_017_075_150_298_864_5e-6,
                            2.575_066_733_701_592_422_4e-9,
                        ],
                    )
                } else {
                    // W <= 7.041, X_4

                    rational_function(
                        sqrt(zc),
                        [
                            -0.773_164_919_972_062_255_17,
                            1.139_133_350_429_670_378_3,
                            0.431_161_172_552_170_744_92,
                            0.035_773_078_319_037_507_449,
                            0.000_964_416_405_805_590_927_40,
                            8.972_385_459_867_586_475_7e-6,
                            2.562_350_314_411_772_321_7e-8,
                            1.434_881_377_841_663_145_3e-11,
                        ],
                        [
                            1.0,
                            0.746_572_874_565_144_180_83,
                            0.126_297_770_334_193_505_76,
                            0.006_974_151_295_956_318_488_1,
                            0.000_140_893_392_443_553_548_92,
                            1.025_743_288_315_294_307_8e-6,
                            2.290_268_719_011_923_094_0e-9,
                            9.279_423_101_326_450_166_4e-13,
                        ],
                    )
                }
            }
        } else {
            if zc <= 1.587_042_981_208_229_711_2e6 {
                if zc <= 111_124.954_121_217_814_20 {
                    // W <= 9.380, X_5

                    rational_function(
                        sqrt(zc),
                        [
                            0.120_071_016_715_536_884_30,
                            0.833_526_408_299_128_228_96,
                            0.070_142_775_916_948_337_582,
                            0.001_484_635_798_547_512_484_9,
                            0.000_010_478_757_366_110_155_290,
                            2.571_589_298_707_103_852_7e-8,
                            1.938_421_447_960_647_474_9e-11,
                            2.844_704_903_913_940_965_2e-15,
                        ],
                        [
                            1.0,
                            0.253_967_388_456_191_266_30,
                            0.012_839_238_907_330_317_393,
                            0.000_202_753_756_325_109_973_71,
                            1.148_295_607_344_914_138_4e-6,
                            2.318_837_060_567_426_364_7e-9,
                            1.427_199_416_574_256_341_9e-12,
                            1.588_483_694_239_479_696_1e-16,
                        ],
                    )
                } else {
                    // W <= 11.809, X_6

                    rational_function(
                        sqrt(zc),
                        [
                            1.722_110_443_993_771_011_2,
                            0.399_195_942_864_842_756_05,
                            0.007_988_554_014_068_502_893_7,
                            0.000_042_889_742_253_257_920_541,
                            7.814_682_818_052_986_498_1e-8,
                            4.981_963_876_435_468_235_9e-11,
                            9.765_088_971_426_529_460_6e-15,
                            3.705_299_728_172_172_443_9e-19,
                        ],
                        [
                            1.0,
                            0.074_007_438_118_020_543_008,
                            0.001_033_350_150_669_774_054_5,
                            4.436_085_803_572_750_850_6e-6,
                            6.782_291_231_637_104_157_0e-9,
                            3.683_435_670_763_949_202_1e-12,
                            6.083_615_956_026_604_116_8e-16,
                            1.814_986_933_598_122_531_6e-20,
                        ],
                    )
                }
            } else {
                if zc <= 2.341_470_840_187_545_950_9e7 {
                    // W <= 14.308, X_7

                    rational_function(
                        sqrt(zc),
                        [
                            3.752_931_402_343_454_425_6,
                            0.154_913_426_903_578_065_25,
                            0.000_756_631_406_759_007_845_05,
                            1.027_160_923_596_997_905_9e-6,
                            4.785_324_767_593_006_615_0e-10,
                            7.832_804_077_027_547_441_0e-14,
                            3.943_303_375_839_103_665_3e-18,
                            3.823_286_220_566_028_397_8e-23,
                        ],
                        [
                            1.0,
                            0.020_112_985_338_854_443_555,
                            0.000_074_712_286_154_830_141_768,
                            8.480_059_800_369_383_746_9e-8,
                            3.418_242_413_037_691_176_2e-11,
                            4.886_625_913_969_095_789_9e-15,
                            2.122_337_362_683_463_417_8e-19,
                            1.664_298_567_126_058_251_5e-24,
                        ],
                    )
                } else {
                    // W <= 16.865, X_8

                    rational_function(
                        sqrt(zc),
                        [
                            6.019_654_205_560_655_557_7,
                            0.053_496_672_841_797_864_762,
                            0.000_064_340_849_275_316_501_519,
                            2.196_909_010_009_596_748_5e-8,
                            2.592_798_893_703_306_107_0e-12,
                            1.077_919_816_180_152_730_8e-16,
                            1.378_042_409_101_789_830_1e-21,
                            3.376_897_315_074_255_280_2e-27,
                        ],
                        [
                            1.0,
                            0.005_280_968_370_423_337_167_5,
                            5.102_050_121_938_955_808_2e-6,
                            1.501_831_229_227_083_210_3e-9,
                            1.567_770_663_641_318_837_9e-13,
                            5.799_204_123_891_187_836_1e-18,
                            6.513_317_077_032_078_025_9e-23,
                            1.320_508_013_921_340_607_1e-28,
                        ],
                    )
                }
            }
        }
    } else {
        if zc <= 7.055_590_147_678_997_240_2e15 {
            if zc <= 1.447_779_186_527_290_281_6e12 {
                if zc <= 5.550_171_629_616_362_785_4e9 {
                    // W <= 19.468, X_9

                    rational_function(
                        sqrt(zc),
                        [
                            8.428_026_850_098_970_159_7,
                            0.017_155_758_546_279_713_315,
                            5.083_662_066_982_932_150_8e-6,
                            4.335_490_369_183_258_180_2e-10,
                            1.284_101_714_564_558_338_5e-14,
                            1.341_910_676_974_588_592_7e-19,
                            4.310_169_845_549_222_575_0e-25,
                            2.642_243_342_208_818_754_9e-31,
                        ],
                        [
                            1.0,
                            0.001_357_200_675_459_530_031_5,
                            3.353_524_348_142_620_369_4e-7,
                            2.520_696_924_642_126_412_8e-11,
                            6.713_622_627_306_053_049_6e-16,
                            6.332_422_668_085_468_657_4e-21,
                            1.812_816_740_001_377_419_4e-26,
                            9.366_203_005_813_679_688_9e-33,
                        ],
                    )
                } else if zc <= 8.867_470_483_965_777_533_1e10 {
                    // W <= 22.112, X_10

                    rational_function(
                        sqrt(zc),
                        [
                            10.931_063_230_472_498_189_,
                            0.005_222_423_454_024_553_298_2,
                            3.799_610_571_181_012_968_2e-7,
                            8.030_579_353_341_035_582_4e-12,
                            5.913_978_562_709_060_586_6e-17,
                            1.538_202_035_953_302_872_4e-22,
                            1.228_894_412_626_810_943_2e-28,
                            1.866_508_927_066_012_239_8e-35,
                        ],
                        [
                            1.,
                            0.000_343_287_025_511_975_777_97,
                            2.139_535_151_853_884_447_6e-8,
                            4.052_417_018_663_159_415_9e-13,
                            2.718_142_431_533_571_042_0e-18,
                            6.453_898_663_835_549_089_4e-24,
                            4.649_461_378_588_898_794_2e-30,
                            6.044_202_436_729_938_761_6e-37,
                        ],
                    )
                } else {
                    // W <= 24.791, X_11

                    rational_function(
                        sqrt(zc),
                        [
                            13.502_943_080_893_871_412,
                            0.001_528_463_650_634_626_457_2,
                            2.715_696_735_826_234_616_6e-8,
                            1.411_039_405_124_216_177_2e-13,
                            2.560_573_431_121_972_846_1e-19,
                            1.642_129_372_442_533_746_3e-25,
                            3.232_494_469_143_584_355_3e-32,
                            1.205_466_264_125_178_315_5e-39,
                        ],
                        [
                            1.0,
                            0.000_085_701_512_879_089_462_255,
                            1.331_124_443_575_269_156_3e-9,
                            6.278_892_444_038_534_726_9e-15,
                            1.048_378_815_225_220_482_4e-20,
                            6.194_349_996_624_916_088_6e-27,
                            1.110_156_786_034_091_729_4e-33,
                            3.589_738_112_830_896_259_0e-41,
                        ],
                    )
                }
            } else {
                if zc <= 2.411_145_863_251_185_193_1e13 {
                    // W <= 27.500, X_12

                    rational_function(
                        sqrt(zc),
                        [
                            16.128_076_167_439_014_775,
                            0.000_433_603_851_764_670_691_31,
                            1.869_640_387_182_091_646_6e-9,
                            2.369_179_576_690_148_604_5e-15,
                            1.050_319_182_696_315_489_3e-21,
                            1.646_192_757_360_676_426_3e-28,
                            7.913_827_608_347_452_293_1e-36,
                            7.184_589_034_370_166_876_0e-44,
                        ],
                        [
                            1.0,
                            0.000_021_154_255_263_102_938_752,
                            8.100_611_544_232_328_053_8e-11,
                            9.415_598_602_216_990_573_8e-17,
                            3.872_512_790_229_530_225_4e-23,
                            5.634_465_111_557_056_506_6e-30,
                            2.486_095_108_421_002_919_1e-37,
                            1.978_830_473_742_778_740_5e-45,
                        ],
                    )
                } else if zc <= 4.089_703_644_260_084_556_4e14 {
                    // W <= 30.236, X_13

                    rational_function(
                        sqrt(zc),
                        [
                            18.796_301_105_534_486_604,
                            0.000_119_894_433_396_464_691_57,
                            1.246_337_752_867_686_325_0e-10,
                            3.821_945_685_801_036_817_2e-17,
                            4.105_569_393_025_208_326_5e-24,
                            1.559_523_145_604_846_424_6e-31,
                            1.815_717_355_307_798_696_2e-39,
                            3.980_799_776_432_616_624_5e-48,
                        ],
                        [
                            1.0,
                            5.169_103_198_835_992_232_9e-6,
                            4.832_557_182_331_371_193_2e-12,
                            1.370_788_874_691_692_810_7e-18,
                            1.375_456_085_002_448_033_7e-25,
                            4.881_188_297_566_180_518_4e-33,
                            5.251_864_182_817_020_189_4e-41,
                            1.019_211_959_313_475_644_0e-49,
                        ],
                    )
                } else {
                    // W <= 32.996, X_14

                    rational_function(
                        sqrt(zc),
                        [
                            21.500_582_830_667_332_906,
                            0.000_032_441_943_237_735_273_768,
                            8.076_496_341_683_755_914_8e-12,
                            5.948_844_550_612_288_352_3e-19,
                            1.536_410_618_721_586_153_1e-26,
                            1.403_323_129_700_238_699_5e-34,
                            3.925_987_271_230_577_043_0e-43,
                            2.062_908_638_225_773_751_7e-52,
                        ],
                        [
                            1.0,
                            1.251_531_764_243_385_019_7e-6,
                            2.831_031_421_481_707_480_6e-13,
                            1.942_366_641_612_363_799_8e-20,
                            4.712_861_600_415_735_971_4e-28,
                            4.043_334_739_183_994_596_0e-36,
                            1.051_514_144_383_118_727_1e-44,
                            4.931_649_093_543_692_730_7e-54,
                        ],
                    )
                }
            }
        } else if zc <= 3.968_539_219_834_401_615_5e19 {
            if zc <= 1.236_660_755_797_672_728_7e17 {
                // W <= 35.779, X_15

                rational_function(
                    sqrt(zc),
                    [
                        24.235_812_532_416_977_267,
                        8.616_150_599_577_680_250_9e-6,
                        5.103_343_156_186_827_369_2e-13,
                        8.964_239_366_584_963_816_4e-21,
                        5.525_436_418_109_742_077_7e-29,
                        1.204_507_272_405_060_579_2e-37,
                        8.037_299_717_652_684_018_4e-47,
                        1.004_914_081_214_649_261_1e-56,
                    ],
                    [
                        1.0,
                        3.004_676_184_474_947_798_7e-7,
                        1.630_910_427_085_546_322_3e-14,
                        2.684_227_103_029_893_132_9e-22,
                        1.561_967_263_245_888_119_5e-30,
                        3.213_168_903_039_798_427_4e-39,
                        2.003_239_624_530_768_413_4e-48,
                        2.252_027_455_467_633_193_8e-58,
                    ],
                )
            } else if zc <= 2.199_937_348_793_099_977_5e18 {
                // W <= 38.582, X_16

                rational_function(
                    sqrt(zc),
                    [
                        26.998_134_347_987_436_511,
                        2.251_225_776_757_228_586_6e-6,
                        3.152_123_075_986_696_394_1e-14,
                        1.311_403_571_979_063_154_1e-22,
                        1.915_678_403_396_236_614_6e-31,
                        9.896_700_305_344_479_916_3e-41,
                        1.564_042_389_844_843_354_8e-50,
                        4.621_619_304_066_487_260_6e-61,
                    ],
                    [
                        1.0,
                        7.157_267_637_090_757_389_8e-8,
                        9.250_050_609_111_576_082_6e-16,
                        3.623_981_958_278_757_303_1e-24,
                        5.018_771_249_380_042_411_8e-33,
                        2.456_586_198_821_806_903_9e-42,
                        3.643_565_843_399_166_028_4e-52,
                        9.743_249_064_015_534_600_4e-63,
                    ],
                )
            } else {
                // W <= 41.404, X_17

                rational_function(
                    sqrt(zc),
                    [
                        29.784_546_702_831_970_770,
                        5.797_176_439_217_132_994_4e-7,
                        1.906_987_279_260_195_080_8e-15,
                        1.866_870_087_085_876_331_2e-24,
                        6.420_051_095_337_094_007_5e-34,
                        7.807_662_465_081_896_855_9e-44,
                        2.902_963_869_695_631_565_4e-54,
                        2.014_187_045_856_617_985_3e-65,
                    ],
                    [
                        1.0,
                        1.692_446_318_046_970_637_2e-8,
                        5.170_393_431_125_454_011_1e-17,
                        4.787_153_272_156_006_909_5e-26,
                        1.566_440_583_254_514_936_8e-35,
                        1.811_313_798_238_133_139_8e-45,
                        6.345_415_028_949_541_952_9e-56,
                        4.007_296_402_524_439_796_7e-67,
                    ],
                )
            }
        } else {
            if zc <= 1.412_707_514_527_465_206_9e104 {
                // W <= 234.358, U_18

                rational_function(
                    ln(zc),
                    [
                        0.744_134_994_601_267_761_43,
                        0.414_032_436_180_059_111_60,
                        0.260_125_641_667_734_161_70,
                        0.021_450_457_095_960_295_520,
                        0.000_518_723_772_647_059_075_77,
                        4.357_469_356_831_997_599_6e-6,
                        1.236_306_605_892_170_671_6e-8,
                        9.019_414_776_630_995_753_7e-12,
                    ],
                    [
                        1.0,
                        0.334_878_110_674_670_109_07,
                        0.023_756_834_394_570_626_395,
                        0.000_542_256_330_089_077_351_60,
                        4.437_898_005_257_962_303_7e-6,
                        1.243_658_549_766_809_933_0e-8,
                        9.022_582_586_763_185_221_5e-12,
                        -4.205_783_627_010_971_665_4e-19,
                    ],
                )
            } else if zc < f64::INFINITY {
                //   U_19

                rational_function(
                    ln(zc),
                    [
                        -0.615_144_128_127_297_615_26,
                        0.679_793_101_336_309_365_80,
                        0.089_685_353_704_585_808_963,
                        0.001_564_494_148_398_937_924_9,
                        7.734_990_187_817_635_116_2e-6,
                        1.289_164_754_669_943_522_9e-8,
                        7.089_032_598_897_381_265_6e-12,
                        9.841_979_033_427_971_145_3e-16,
                    ],
                    [
                        1.0,
                        0.097_300_263_710_401_439_315,
                        0.001_610_367_274_844_205_865_1,
                        7.824_774_100_307_700_001_2e-6,
                        1.294_926_130_897_134_520_9e-8,
                        7.098_691_121_934_282_713_0e-12,
                        9.842_628_504_222_704_497_9e-16,
                        -1.596_014_725_260_605_535_2e-24,
                    ],
                )
            } else {
                // In the branch the input was either +infinity or NaN,
                // in both cases the output of the W function happens to match the input.
                z
            }
        }
    }
}
}

#[rustfmt::skip]
#[allow(clippy::all)]
mod dwm1c {
// Copyright 2024-2026 Johanna Sörngård
// SPDX-License-Identifier: MIT OR Apache-2.0

//! This module contains an implementation of the approximation of the secondary
//! branch of the Lambert W function
//! with 50 bits of accuracy from Fukushima's paper.
//! It is based on the Fortran implementation of the name "dwm1c" by Fukushima.

// The coefficients in these rational minimax functions all have excessive precision.
// By keeping the full precision in the source code we can ensure that there is no confusion
// when comparing with the paper.
#![allow(clippy::excessive_precision)]

use crate::{
    generic_math::{ln, rational_function, sqrt},
    INV_SQRT_E, NEG_INV_E, NEG_INV_E_CORRECTION, SMALLEST_F64_IN_DOMAIN,
};

/// The secondary branch of the Lambert W function computed to 50 bits of accuracy on 64-bit floats with Fukushima's method[^1].
///
/// Close to the branch point the value of z + 1/e is corrected by adding back the distance between [`NEG_INV_E`] and the true value of -1/e to reduce cancellation error, as done in FLINT[^2].
///
/// # Examples
///
/// #### Basic usage
///
/// ```
/// use lambert_w::lambert_wm1;
/// use approx::assert_abs_diff_eq;
///
/// let mln4 = lambert_wm1(-f64::ln(2.0) / 2.0);
///
/// assert_abs_diff_eq!(mln4, -f64::ln(4.0));
/// ```
///
/// #### Edge cases
///
/// The smallest (most negative) value for which this function returns a valid float is [`SMALLEST_F64_IN_DOMAIN`],
/// the constant [`NEG_INV_E`], which is the next float down, gives [`NAN`](f64::NAN):
///
/// ```
/// use lambert_w::{lambert_wm1, NEG_INV_E, SMALLEST_F64_IN_DOMAIN};
///
/// assert!(!lambert_wm1(SMALLEST_F64_IN_DOMAIN).is_nan());
/// assert!(lambert_wm1(NEG_INV_E).is_nan());
/// ```
///
/// For inputs of 0 the function returns [`NEG_INFINITY`](f64::NEG_INFINITY):
///
/// ```
/// use lambert_w::lambert_wm1;
///
/// assert_eq!(lambert_wm1(0.0), f64::NEG_INFINITY);
/// ```
///
/// Inputs larger than 0, as well as inputs of [`NAN`](f64::NAN), result in [`NAN`](f64::NAN):
///
/// ```
/// use lambert_w::{lambert_wm1, NEG_INV_E};
///
/// assert!(lambert_wm1(NEG_INV_E.next_down()).is_nan());
/// assert!(lambert_wm1(f64::MIN_POSITIVE).is_nan());
/// assert!(lambert_wm1(f64::NAN).is_nan());
/// ```
///
/// # Reference
///
/// [^1]: Toshio Fukushima. **Precise and fast computation of Lambert W function by piecewise minimax rational function approximation with variable transformation**.
/// DOI: [10.13140/RG.2.2.30264.37128](https://doi.org/10.13140/RG.2.2.30264.37128). November 2020.
///
/// [^2]: The FLINT team, ["d_lambertw (double_extras.h)"](https://flintlib.org/doc/double_extras/d_lambertw.html), FLINT: Fast Library for Number Theory, documentation, version 3.7.0-dev, 2026 (generated 2026-10-20, url visited 2026-11-01).
#[must_use = "this is a pure function that only returns a value and has no side effects"]
#[fwdad::derive_frule]
pub fn lambert_wm1(z: f64) -> f64 {
    // The critical arguments used in the if statements are the numbers in table 4 of the paper, column two, with 1/e added, as well as equation 20.
    // The coefficients in the rational functions are from tables 15 through 18 in the paper.

    if z < SMALLEST_F64_IN_DOMAIN {
        f64::NAN
    } else if z <= -0.001_200_161_067_219_772_417_3 {
        if z <= -0.060_497_597_226_958_343_647 {
            if z <= -0.354_291_330_944_216_4 {
                // W >= -1.3, X_-1

                rational_function(
                    sqrt((z - NEG_INV_E) + NEG_INV_E_CORRECTION),
                    [
                        -1.000_000_000_000_000_111_0,
                        4.296_301_617_877_712_700_9,
                        -4.099_140_792_400_745_761_2,
                        -6.844_284_220_083_330_972_4,
                        17.084_773_793_345_271_001,
                        -13.015_133_123_886_661_124,
                        3.930_360_862_953_985_104_9,
                        -0.346_367_465_122_474_573_19,
                    ],
                    [
                        1.0,
                        -6.627_945_599_474_762_405_9,
                        17.740_962_374_121_397_994,
                        -24.446_872_319_343_475_890,
                        18.249_006_287_190_617_068,
                        -7.058_075_875_662_479_055_0,
                        1.197_878_676_279_400_354_5,
                        -0.053_875_778_140_352_599_789,
                    ],
                )
            } else if z <= -0.188_726_882_822_894_340_49 {
                // W >= -2.637, Y_-1

                rational_function(
                    -z / (INV_SQRT_E + sqrt((z - NEG_INV_E) + NEG_INV_E_CORRECTION)),
                    [
                        -8.225_315_526_444_684_485_4,
                        -813.207_067_320_014_871_78,
                        -15_270.113_237_678_509_000,
                        -79_971.585_089_674_149_237,
                        -103_667.542_158_083_765_11,
                        42_284.755_505_061_257_427,
                        74_953.525_397_605_484_884,
                        10_554.369_146_366_736_811,
                    ],
                    [
                        1.0,
                        146.363_151_616_695_676_59,
                        3_912.476_137_253_924_071_2,
                        31_912.693_749_754_847_460,
                        92_441.293_717_108_619_527,
                        94_918.733_120_470_346_165,
                        29_531.165_406_571_745_340,
                        1_641.680_896_033_037_098_7,
                    ],
                )
            } else {
                // W >= -4.253, Y_-2

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -9.618_412_744_335_402_429_5,
                        -3_557.856_904_301_800_412_1,
                        -254_015.593_112_843_810_43,
                        -5.392_389_363_067_063_939_1e6,
                        -3.663_825_741_753_689_679_8e7,
                        -6.148_431_948_622_696_621_3e7,
                        3.042_169_037_744_613_445_1e7,
                        3.972_813_905_487_932_045_2e7,
                    ],
                    [
                        1.0,
                        507.405_256_285_233_008_01,
                        46_852.747_159_777_876_192,
                        1.316_830_464_009_143_629_7e6,
                        1.311_169_069_371_241_524_2e7,
                        4.614_211_644_525_801_519_5e7,
                        4.898_226_895_620_883_087_6e7,
                        9.195_910_098_798_385_512_2e6,
                    ],
                )
            }
        } else {
            if z <= -0.017_105_334_740_676_008_194 {
                // W >= -5.832, Y_-3

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -11.038_489_462_297_466_388,
                        -15_575.812_882_656_619_195,
                        -4.249_294_730_489_777_343_3e6,
                        -3.517_024_593_880_342_376_8e8,
                        -9.865_916_303_661_136_464_0e9,
                        -8.619_537_230_330_500_390_8e10,
                        -1.328_633_557_402_761_600_0e11,
                        1.598_954_643_442_066_046_2e11,
                    ],
                    [
                        1.0,
                        1_837.077_069_301_716_681_8,
                        612_840.975_855_950_927_61,
                        6.214_918_139_846_548_303_7e7,
                        2.230_401_131_444_308_396_9e9,
                        2.825_423_248_527_369_802_1e10,
                        1.077_086_663_954_315_616_5e11,
                        7.196_469_887_604_913_199_2e10,
                    ],
                )
            } else if z <= -0.004_595_496_212_794_370_643_3 {
                // W >= -7.382, Y_-4

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -12.474_405_916_395_746_052,
                        -68_180.335_575_543_773_385,
                        -7.184_659_984_562_009_327_8e7,
                        -2.314_268_822_175_918_115_1e10,
                        -2.580_137_833_794_529_513_0e12,
                        -9.518_274_816_138_631_461_6e13,
                        -8.607_325_098_621_032_176_6e14,
                        1.404_194_185_333_996_143_9e14,
                    ],
                    [
                        1.0,
                        6_852.581_373_443_110_097_1,
                        8.515_300_102_546_654_437_9e6,
                        3.214_602_823_968_569_465_5e9,
                        4.292_980_741_745_319_611_3e11,
                        2.023_438_116_163_808_435_9e13,
                        2.869_993_326_823_392_384_2e14,
                        7.121_013_665_152_547_709_6e14,
                    ],
                )
            } else {
                // W >= -8.913, Y_-5

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -13.921_651_376_890_072_595,
                        -298_789.564_823_880_655_26,
                        -1.231_301_993_732_209_233_4e9,
                        -1.555_614_908_189_950_897_0e12,
                        -6.868_534_110_677_270_873_4e14,
                        -1.029_061_627_593_326_683_5e17,
                        -4.140_468_370_161_964_847_1e18,
                        -1.442_330_999_800_636_839_7e19,
                    ],
                    [
                        1.0,
                        26_154.955_236_499_142_433,
                        1.239_308_727_744_204_149_4e8,
                        1.783_292_270_247_076_111_3e11,
                        9.077_260_816_381_085_044_6e13,
                        1.631_473_474_005_425_274_1e16,
                        8.837_132_386_123_350_453_3e17,
                        8.416_662_064_338_501_338_4e18,
                    ],
                )
            }
        }
    } else {
        if z <= -0.000_077_447_159_838_062_184_354 {
            if z <= -0.000_307_288_059_321_914_998_44 {
                // W >= -10.433, Y_-6

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -15.377_894_224_591_557_534,
                        -1.312_231_200_509_697_995_2e6,
                        -2.140_815_702_211_173_788_8e10,
                        -1.071_828_743_155_781_180_8e14,
                        -1.884_935_352_402_773_445_6e17,
                        -1.139_485_860_730_931_199_5e20,
                        -1.926_155_508_872_914_159_0e22,
                        -3.997_845_208_667_690_129_6e23,
                    ],
                    [
                        1.0,
                        101_712.867_717_606_200_46,
                        1.872_854_594_505_038_118_8e9,
                        1.046_961_741_666_440_275_7e13,
                        2.070_434_906_012_044_304_9e16,
                        1.446_490_790_238_607_449_6e19,
                        3.051_043_220_560_890_094_9e21,
                        1.139_758_913_979_073_971_7e23,
                    ],
                )
            } else {
                // W >= -11.946, Y_-7

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [
                        -16.841_701_411_264_981_596,
                        -5.779_082_325_757_713_841_6e6,
                        -3.775_723_079_125_640_411_6e11,
                        -7.571_213_374_258_986_094_1e15,
                        -5.347_933_891_601_146_568_5e19,
                        -1.308_271_173_229_786_547_6e23,
                        -9.146_277_700_452_142_744_0e25,
                        -8.960_276_811_926_362_934_0e27,
                    ],
                    [
                        1.,
                        401_820.466_662_307_253_28,
                        2.921_151_813_690_049_204_6e10,
                        6.445_613_537_341_028_907_9e14,
                        5.031_180_957_649_953_028_1e18,
                        1.387_904_123_971_628_947_8e22,
                        1.157_514_616_751_351_622_5e25,
                        1.719_922_018_594_775_665_4e27,
                    ],
                )
            }
        } else if z < 0.0 {
            if z <= -4.580_811_969_815_817_317_4e-17 {
                // W >= -41.344, V_-8

                rational_function(
                    ln(-z),
                    [
                        -2.083_626_038_401_643_926_5,
                        1.612_243_624_227_149_571_0,
                        5.446_426_495_963_720_761_9,
                        -3.088_633_112_831_716_010_5,
                        0.461_078_291_553_701_378_80,
                        -0.023_553_839_118_456_381_330,
                        0.000_405_389_041_702_534_047_80,
                        -1.794_815_692_251_682_545_8e-6,
                    ],
                    [
                        1.,
                        2.369_964_891_270_301_561_0,
                        -2.124_944_970_740_481_284_7,
                        0.384_809_800_985_884_839_13,
                        -0.021_720_009_380_176_605_969,
                        0.000_394_058_628_906_086_368_76,
                        -1.790_931_206_686_595_790_5e-6,
                        3.115_367_330_813_367_145_2e-12,
                    ],
                )
            } else if z <= -6.107_367_223_659_479_298_2e-79 {
                // W >= -185.316, V_-9

                rational_function(
                    ln(-z),
                    [
                        0.160_453_837_665_705_414_09,
                        2.221_418_252_446_151_402_9,
                        -0.941_196_624_920_508_929_71,
                        0.091_921_523_818_747_869_300,
                        -0.002_906_976_053_317_166_322_4,
                        0.000_032_707_247_990_255_961_149,
                        -1.248_667_233_688_989_301_8e-7,
                        1.224_743_827_986_178_529_1e-10,
                    ],
                    [
                        1.0,
                        -0.702_549_960_878_703_322_89,
                        0.080_974_347_786_703_195_026,
                        -0.002_746_985_002_956_315_393_9,
                        0.000_031_943_362_385_183_657_062,
                        -1.239_062_068_732_166_643_9e-7,
                        1.224_163_611_516_820_199_9e-10,
                        -1.027_571_802_054_676_540_0e-17,
                    ],
                )
            } else {
                // V_-10

                rational_function(
                    ln(-z),
                    [
                        -1.274_217_970_307_544_056_4,
                        1.369_665_880_542_138_376_5,
                        -0.125_193_453_875_587_832_23,
                        0.002_515_572_246_076_384_473_7,
                        -0.000_015_748_033_750_499_977_208,
                        3.431_608_538_691_378_641_0e-8,
                        -2.502_524_288_534_043_853_3e-11,
                        4.642_388_501_409_958_335_1e-15,
                    ],
                    [
                        1.,
                        -0.114_200_064_741_524_656_94,
                        0.002_428_523_383_212_259_594_2,
                        -0.000_015_520_907_512_751_723_152,
                        3.412_053_476_039_600_226_0e-8,
                        -2.498_105_618_645_027_458_7e-11,
                        4.641_976_809_305_970_607_9e-15,
                        -1.360_871_393_694_260_298_5e-23,
                    ],
                )
            }
        } else {
            if z == 0.0 {
                f64::NEG_INFINITY
            } else {
                f64::NAN
            }
        }
    }
}
}

#[rustfmt::skip]
#[allow(clippy::all)]
mod sw0f {
// Copyright 2024-2026 Johanna Sörngård
// SPDX-License-Identifier: MIT OR Apache-2.0

//! This module contains an implementation of the approximation of the principal
//! branch of the Lambert W function
//! with 24 bits of accuracy from Fukushima's paper.
//! It is implemented here on 32-bit floats, which most likely reduces the accuracy in some cases.

use crate::generic_math::{ln, polynomial, rational_function, sqrt};
use crate::{
    w0f_taylor_coefficients, NEG_INV_E_CORRECTION_32_BIT,
    PRINCIPAL_BRANCH_APPROXIMATELY_ZERO_THRESHOLD, PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD,
    SMALLEST_F32_IN_DOMAIN,
};

const NEG_INV_E: f32 = super::NEG_INV_E as f32;

/// The principal branch of the Lambert W function, computed on 32-bit floats with a method based on Fukushima's[^1].
///
/// The implementation follows the description in Fukushima's paper[^1] except around zero, where the function is implemented in terms of it's Taylor polynomial[^2],
/// and close to the branch point where the value of z + 1/e is corrected by adding back the distance between the floating point representation and the true value of 1/e to reduce cancellation error, as done in FLINT[^3].
///
/// Uses the same approximation as [`sp_lambert_w0`](crate::sp_lambert_w0), but computes it with 32-bit floats,
/// which results in reduced accuracy.
/// The function has around 20-23 bits of precision, but degrades as the input approaches the branch point.
/// Results with 14 bits of precision have been observed very close to the branch point.
///
/// # Examples
///
/// #### Basic usage
///
/// ```
/// use lambert_w::lambert_w0f;
/// use approx::assert_abs_diff_eq;
///
/// let Ω = lambert_w0f(1.0);
///
/// assert_abs_diff_eq!(Ω, 0.56714329);
/// ```
///
/// #### Edge cases
///
/// The smallest (most negative) value for which this function returns a valid float is [`SMALLEST_F32_IN_DOMAIN`],
/// the constant `NEG_INV_E as f32`, which is the next float down, gives [`NAN`](f64::NAN):
///
/// ```
/// use lambert_w::{lambert_w0f, NEG_INV_E, SMALLEST_F32_IN_DOMAIN};
///
/// assert!(lambert_w0f(NEG_INV_E as f32).is_nan());
/// assert!(!lambert_w0f(SMALLEST_F32_IN_DOMAIN).is_nan());
/// ```
///
/// An input of [`INFINITY`](f32::INFINITY) gives [`INFINITY`](f32::INFINITY) and an input of [`NAN`](f32::NAN) results in [`NAN`](f32::NAN):
///
/// ```
/// use lambert_w::lambert_w0f;
///
/// assert_eq!(lambert_w0f(f32::INFINITY), f32::INFINITY);
/// assert!(lambert_w0f(f32::NAN).is_nan());
/// ```
///
/// # References
///
/// [^1]: Toshio Fukushima. **Precise and fast computation of Lambert W function by piecewise minimax rational function approximation with variable transformation**.
/// DOI: [10.13140/RG.2.2.30264.37128](https://doi.org/10.13140/RG.2.2.30264.37128). November 2020.
///
/// [^2]: Equation (5) in section 4.13 of the Digital Library of Math Functions by NIST, [DLMF 4.13.5](https://dlmf.nist.gov/4.13.E5), release 1.2.8 of 2026-09-15.
///
/// [^3]: The FLINT team, ["d_lambertw (double_extras.h)"](https://flintlib.org/doc/double_extras/d_lambertw.html), FLINT: Fast Library for Number Theory, documentation, version 3.7.0-dev, 2026 (generated 2026-10-20, url visited 2026-11-01).
#[must_use = "this is a pure function that only returns a value and has no side effects"]
#[fwdad::derive_frule]
pub fn lambert_w0f(z: f32) -> f32 {
    // The critical arguments and coefficients are the same as in the `sw0` module,
    // but their precision has been truncated to fit in 32-bit floats.

    if z < SMALLEST_F32_IN_DOMAIN {
        f32::NAN
    } else if (-PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD as f32
        ..=PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD as f32)
        .contains(&z)
    {
        // Around zero the principal branch of the W function can be expressed as a Taylor polynomial:
        //     W_0(z) = sum_{n >= 1} (-n)^(n-1) z^n / n!
        // Source: equation (5) in section 4.13 of the Digital Library of Mathematical Functions.
        // In the article by Fuskushima he does not do this special near-zero branch.
        // That is because his function takes z + 1/e as an input instead of z, and then you can never get values super-close to zero.
        // We want to take z directly because it makes the API much more intuitive.

        if (-PRINCIPAL_BRANCH_APPROXIMATELY_ZERO_THRESHOLD as f32
            ..=PRINCIPAL_BRANCH_APPROXIMATELY_ZERO_THRESHOLD as f32)
            .contains(&z)
        {
            // The first two terms of the Taylor polynomial in the branch below.
            // All that's needed this close to zero.

            z * polynomial(z, w0f_taylor_coefficients::<2>())
        } else {
            z * polynomial(z, w0f_taylor_coefficients::<8>())
        }
    } else if z <= 4.995_019e9 {
        if z <= 4_705.919 {
            if z <= 30.539_143 {
                if z <= 2.008_217_8 {
                    // W <= 0.854, X_1

                    rational_function(
                        // Another artifact of taking z instead of z + 1/e as input.
                        // When we add 1/e we introduce a cancellation error.
                        // We compensate for that here.
                        sqrt((z - NEG_INV_E) + NEG_INV_E_CORRECTION_32_BIT),
                        [
                            -0.999_999_94,
                            0.055_730_052,
                            2.126_973_2,
                            0.813_511_25,
                            0.016_324_88,
                        ],
                        [1.0, 2.275_906_6, 1.367_597, 0.186_158_24],
                    )
                } else {
                    // W <= 2.502, X_2

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [-0.985_519_7, 1.077_497_6, 0.871_751, 0.054_352_727],
                        [1.0, 1.186_101_4, 0.249_962_99, 0.006_881_369],
                    )
                }
            } else {
                if z <= 371.669_83 {
                    // W <= 4.430, X_3

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [-0.762_397_1, 1.231_773_1, 0.243_424_48, 0.004_320_601_5],
                        [1.0, 0.579_386_23, 0.046_601_43, 0.000_435_128_17],
                    )
                } else {
                    // W <= 6.574, X_4

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [0.085_801_244, 0.825_397_97, 0.039_781_96, 0.000_187_855_8],
                        [1.0, 0.213_380_77, 0.005_462_672, 0.000_015_449_534],
                    )
                }
            }
        } else {
            if z <= 1.559_333_4e7 {
                if z <= 64_640.797 {
                    // W <= 8.892, X_5

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [1.621_924_5, 0.388_691_46, 0.004_575_064_4, 5.538_467e-6],
                        [1.0, 0.065_219_46, 0.000_478_827_6, 3.809_482_8e-7],
                    )
                } else if z <= 965_649.030_871_163_2 {
                    // W <= 11.351, X_6

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [3.621_899_6, 0.148_846_46, 0.000_424_696_22, 1.279_018e-7],
                        [1.0, 0.017_985_659, 0.000_035_446_45, 7.506_249e-9],
                    )
                } else {
                    // W <= 13.928, X_7

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [5.907_337, 0.050_053_652, 0.000_034_072_15, 2.481_206_6e-9],
                        [1.0, 0.004_655_899, 2.344_944_5e-6, 1.263_143e-10],
                    )
                }
            } else {
                if z <= 2.702_564_2e8 {
                    // W <= 16.605, X_8

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [8.382_601, 0.015_360_346, 2.443_338_4e-6, 4.185_680_3e-11],
                        [1.0, 0.001_150_742_3, 1.422_142_9e-7, 1.873_917_3e-12],
                    )
                } else {
                    // W <= 19.368, X_9

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [10.996_675, 0.004_394_213_7, 1.596_666_6e-7, 6.266_538_4e-13],
                        [1.0, 0.000_273_837_56, 8.015_706e-9, 2.495_698_2e-14],
                    )
                }
            }
        }
    } else {
        if z <= 2.393_255_2e16 {
            if z <= 9.791_115e10 {
                // W <= 22.207, X_10

                rational_function(
                    sqrt(z - NEG_INV_E),
                    [13.719_833, 0.001_187_444_4, 9.630_338e-9, 8.443_452e-15],
                    [1.0, 0.000_063_056_37, 4.235_876_6e-10, 3.020_540_4e-16],
                )
            } else if z <= 2.025_975_4e12 {
                // W <= 25.114, X_11

                rational_function(
                    sqrt(z - NEG_INV_E),
                    [16.533_12, 0.000_305_831_26, 5.411_295e-10, 1.034_713e-16],
                    [1.0, 0.000_014_099_161_5, 2.112_109_6e-11, 3.352_692_7e-18],
                )
            } else if z <= 4.407_744_6e13 {
                // W <= 28.082, X_12

                rational_function(
                    sqrt(z - NEG_INV_E),
                    [
                        19.423_52,
                        0.000_075_559_27,
                        2.853_002_4e-11,
                        1.162_962_7e-18,
                    ],
                    [1.0, 3.069_209_2e-6, 9.986_661e-13, 3.437_671_8e-20],
                )
            } else if z <= 1.004_838_2e15 {
                // W <= 31.106, X_13

                rational_function(
                    sqrt(z - NEG_INV_E),
                    [
                        22.381_577,
                        0.000_017_994_724,
                        1.419_487_7e-12,
                        1.207_110_5e-20,
                    ],
                    [1.0, 6.518_396e-7, 4.495_866_6e-14, 3.275_542_8e-22],
                )
            } else {
                // W <= 34.182, X_14

                rational_function(
                    sqrt(z - NEG_INV_E),
                    [25.400_105, 4.146_738e-6, 6.696_27e-14, 1.163_790_5e-22],
                    [1.0, 1.352_980_1e-7, 1.933_608e-15, 2.914_939_7e-24],
                )
            }
        } else {
            if z <= 4.103_566e20 {
                if z <= 5.939_799_6e17 {
                    // W <= 37.306, X_15

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [28.473_455, 9.274_682_5e-7, 3.006_899e-15, 1.047_355_7e-24],
                        [1.0, 2.748_649e-8, 7.967_898_6e-17, 2.433_166_6e-26],
                    )
                } else if z <= 1.532_693_8e19 {
                    // W <= 40.475, X_16

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [31.597_055, 2.018_422_5e-7, 1.289_578_8e-16, 8.836_117e-27],
                        [1.0, 5.472_394_5e-9, 3.153_773e-18, 1.912_203_5e-28],
                    )
                } else {
                    // W <= 43.687, X_17

                    rational_function(
                        sqrt(z - NEG_INV_E),
                        [34.767_124, 4.283_08e-8, 5.297_588_5e-18, 7.014_551_6e-29],
                        [1.0, 1.068_930_2e-9, 1.201_67e-19, 1.419_524_4e-30],
                    )
                }
            } else {
                if z < f32::INFINITY {
                    // W <= 319.673, U_18

                    rational_function(
                        ln(z),
                        [-0.607_023_7, 0.698_287_2, 0.075_795_14, 0.000_516_692_6],
                        [1.0, 0.079_048_43, 0.000_517_609_94, -4.243_840_3e-10],
                    )
                } else {
                    // In the branch the input was either +infinity or NaN,
                    // in both cases the output of the W function happens to match the input.
                    z
                }
            }
        }
    }
}
}

#[rustfmt::skip]
#[allow(clippy::all)]
mod swm1f {
// Copyright 2024-2026 Johanna Sörngård
// SPDX-License-Identifier: MIT OR Apache-2.0

//! This module contains an implementation of the approximation of the secondary
//! branch of the Lambert W function
//! with 24 bits of accuracy from Fukushima's paper.
//! It is implemented here on 32-bit floats, which most likely reduces the accuracy in some cases.

use crate::generic_math::{ln, rational_function, sqrt};
use crate::{NEG_INV_E_CORRECTION_32_BIT, SMALLEST_F32_IN_DOMAIN};

const INV_SQRT_E: f32 = super::INV_SQRT_E as f32;
const NEG_INV_E: f32 = super::NEG_INV_E as f32;

/// The secondary branch of the Lambert W function, computed on 32-bit floats with Fukushima's method[^1].
///
/// Close to the branch point the value of z + 1/e is corrected by adding back the distance between the floating point representation and the true value of -1/e to reduce cancellation error, as done in FLINT[^2].
///
/// Uses the same approximation as [`sp_lambert_wm1`](crate::sp_lambert_wm1), but computes it with 32-bit floats,
/// which results in reduced accuracy.
/// The function has around 20-23 bits of precision, but degrades as the input approaches the branch point.
/// Results with 15 bits of precision have been observed very close to the branch point.
///
/// # Examples
///
/// #### Basic usage
///
/// ```
/// use lambert_w::lambert_wm1f;
/// use approx::assert_abs_diff_eq;
///
/// let mln4 = lambert_wm1f(-f32::ln(2.0) / 2.0);
///
/// assert_abs_diff_eq!(mln4, -f32::ln(4.0));
/// ```
///
/// #### Edge cases
///
/// The smallest (most negative) value for which this function returns a valid float is [`SMALLEST_F32_IN_DOMAIN`],
/// the constant `NEG_INV_E as f32`, which is the next float down, gives [`NAN`](f32::NAN):
///
/// ```
/// use lambert_w::{lambert_wm1f, NEG_INV_E, SMALLEST_F32_IN_DOMAIN};
///
/// assert!(lambert_wm1f(NEG_INV_E as f32).is_nan());
/// assert!(!lambert_wm1f(SMALLEST_F32_IN_DOMAIN).is_nan());
/// ```
///
/// For inputs of 0 the function returns [`NEG_INFINITY`](f32::NEG_INFINITY):
///
/// ```
/// use lambert_w::lambert_wm1f;
///
/// assert_eq!(lambert_wm1f(0.0), f32::NEG_INFINITY);
/// ```
///
/// Inputs larger than 0, as well as inputs of [`NAN`](f32::NAN), result in [`NAN`](f32::NAN):
///
/// ```
/// use lambert_w::{lambert_wm1f, NEG_INV_E};
///
/// assert!(lambert_wm1f(f32::MIN_POSITIVE).is_nan());
/// assert!(lambert_wm1f(f32::NAN).is_nan());
///```
///
/// # Reference
///
/// [^1]: Toshio Fukushima. **Precise and fast computation of Lambert W function by piecewise minimax rational function approximation with variable transformation**.
/// DOI: [10.13140/RG.2.2.30264.37128](https://doi.org/10.13140/RG.2.2.30264.37128). November 2020.
///
/// [^2]: The FLINT team, ["d_lambertw (double_extras.h)"](https://flintlib.org/doc/double_extras/d_lambertw.html), FLINT: Fast Library for Number Theory, documentation, version 3.7.0-dev, 2026 (generated 2026-10-20, url visited 2026-11-01).
#[must_use = "this is a pure function that only returns a value and has no side effects"]
#[fwdad::derive_frule]
pub fn lambert_wm1f(z: f32) -> f32 {
    // The critical arguments and coefficients are the same as in the `swm1` module,
    // but their precision has been truncated to fit in 32-bit floats.

    if z < SMALLEST_F32_IN_DOMAIN {
        f32::NAN
    } else if z <= -0.005_480_013 {
        if z <= -0.071_507_71 {
            if z <= -0.207_293_78 {
                // W >= -2.483, Y_-1

                rational_function(
                    -z / (INV_SQRT_E + sqrt((z - NEG_INV_E) + NEG_INV_E_CORRECTION_32_BIT)),
                    [-6.383_723, -74.968_65, -19.714_82, 70.677_33],
                    [1.0, 24.295_837, 64.112_46, 17.994_497],
                )
            } else {
                // W >= -4.032, Y_-2

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [-7.723_328_6, -352.484_68, -1_242.008_9, 1_171.647_6],
                    [1.0, 77.681_244, 648.564_33, 566.701_54],
                )
            }
        } else {
            if z <= -0.020_704_413 {
                // W >= -5.600, Y_-3

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [-9.137_773_5, -1_644.724_5, -28_105.096, 3_896.079_8],
                    [1.0, 272.375_27, 7_929.224, 23_980.123],
                )
            } else {
                // W >= -7.178, Y_-4

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [-10.603_388, -7_733.348_6, -575_482.44, -2.154_552_5e6],
                    [1.0, 1_021.793_9, 111_300.23, 1.261_425_6e6],
                )
            }
        }
    } else {
        if z <= -0.000_074_906_61 {
            if z <= -0.001_367_467 {
                // W >= -8.766, Y_-5

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [-12.108_699, -36_896.535, -1.183_112_7e7, -2.756_583e8],
                    [1.0, 4_044.975_3, 1.741_827_8e6, 7.843_690_4e7],
                )
            } else if z <= -0.000_326_142_27 {
                // W >= -10.367, Y_-6

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [-13.646_762, -179_086.11, -2.508_463_5e8, -2.934_37e10],
                    [1.0, 16_743.826, 2.980_965e7, 5.573_951_5e9],
                )
            } else {
                // W >= -11.983, Y_-7

                rational_function(
                    -z / (INV_SQRT_E + sqrt(z - NEG_INV_E)),
                    [-15.212_958, -884_954.7, -5.529_815_6e9, -3.093_418_7e12],
                    [1.0, 72_009.26, 5.505_901e8, 4.432_489_3e11],
                )
            }
        } else {
            if z <= -1.096_244_5e-19 {
                // W >= -47.518, V_-8

                rational_function(
                    ln(-z),
                    [-0.032_401_163, 2.028_194_2, -0.527_524_3, 0.017_340_295],
                    [1.0, -0.450_042_75, 0.017_154_707, -5.243_819_6e-7],
                )
            } else if z < 0.0 {
                // W >= -317.993, V_-9

                rational_function(
                    ln(-z),
                    [-1.441_124_7, 1.281_927, -0.074_979_36, 0.000_476_363_1],
                    [1.0, -0.072_000_876, 0.000_475_489_33, -4.171_498e-10],
                )
            } else if z == 0.0 {
                f32::NEG_INFINITY
            } else {
                f32::NAN
            }
        }
    }
}
}

/// The floating point value closest to the negative reciprocal of e (-1/e), the branch point of the W function.
///
/// ```text
/// 64-bit floats:   f--          f-           f+           f++
/// real line:     --|------------|---x--------|------------|-------> z
///                                 -1/e
/// ```
/// f- is this constant and x marks the location of the true value of -1/e.
/// f+ is the constant [`SMALLEST_F64_IN_DOMAIN`].
///
/// # Example
///
/// ```
/// use lambert_w::{lambert_w0, NEG_INV_E};
///
/// assert!(lambert_w0(NEG_INV_E).is_nan());
/// assert!(!lambert_w0(NEG_INV_E.next_up()).is_nan())
/// ```
#[allow(clippy::excessive_precision)]
pub const NEG_INV_E: f64 = -0.367_879_441_171_442_321_595_523_770;

/// The difference between the true value of -1/e and `NEG_INV_E`.
const NEG_INV_E_CORRECTION: f64 = -1.2428753672788363e-17;

/// Same as [`NEG_INV_E_CORRECTION`] but for 32-bit floats.
///
/// The value that this constant corrects is then `NEG_INV_E as f32`, equal to -0.367_879_45.
const NEG_INV_E_CORRECTION_32_BIT: f32 = -9.149_756e-9;

/// This floating point value is the smallest one that is larger than or equal to -1/e.
/// It is *not* the one that is the closest to -1/e, rather this value is one step further in the direction towards positive infinity.
///
/// ```text
/// 64-bit floats:   f--          f-           f+           f++
/// real line:     --|------------|---x--------|------------|-------> z
///                                 -1/e
/// ```
/// f- is the constant [`NEG_INV_E`], f+ is this constant, and x marks the location of the true value of -1/e.
///
/// # Example
///
/// ```
/// use lambert_w::{lambert_w0, SMALLEST_F64_IN_DOMAIN};
///
/// assert!(!lambert_w0(SMALLEST_F64_IN_DOMAIN).is_nan());
/// assert!(lambert_w0(SMALLEST_F64_IN_DOMAIN.next_down()).is_nan());
/// ```
pub const SMALLEST_F64_IN_DOMAIN: f64 = -0.367_879_441_171_442_3;

/// Same as [`SMALLEST_F64_IN_DOMAIN`] but for 32-bit floats.
///
/// ```text
/// 32-bit floats:   f--          f-           f+           f++
/// real line:     --|------------|---x--------|------------|-------> z
///                                 -1/e
/// ```
/// f- is the constant [`NEG_INV_E`] cast to `f32`, f+ is this constant, and x marks the location of the true value of -1/e.
///
/// # Example
///
/// ```
/// use lambert_w::{lambert_w0f, SMALLEST_F32_IN_DOMAIN};
///
/// assert!(!lambert_w0f(SMALLEST_F32_IN_DOMAIN).is_nan());
/// assert!(lambert_w0f(SMALLEST_F32_IN_DOMAIN.next_down()).is_nan());
/// ```
pub const SMALLEST_F32_IN_DOMAIN: f32 = -0.367_879_42;

/// Closer to zero than this we use the Taylor expansion on the principal branch.
///
/// This value was determined empirically.
const PRINCIPAL_BRANCH_NEAR_ZERO_THRESHOLD: f64 = 0.0675;

/// Closer to zero than this we approximate the principal branch as z - z^2.
const PRINCIPAL_BRANCH_APPROXIMATELY_ZERO_THRESHOLD: f64 = 1e-9;

const PRINCIPAL_BRANCH_MAX_TRICKY_REGION: f64 = 0.15;

/// The floating point value closest to 1/sqrt(e).
#[allow(clippy::excessive_precision)]
const INV_SQRT_E: f64 = 0.606_530_659_712_633_423_603_799_535;

/// The floating point value closest to the omega constant (Ω).
///
/// Fulfills the equation Ωe^Ω = 1:
///
/// ```
/// use lambert_w::OMEGA;
/// use approx::assert_abs_diff_eq;
///
/// assert_abs_diff_eq!(OMEGA * f64::exp(OMEGA), 1.0);
/// ```
#[allow(clippy::excessive_precision)]
pub const OMEGA: f64 = 0.567_143_290_409_783_873;

/// The coefficients of the Taylor expansion of the principal branch for |z| < 1/e.
///
/// Source: equation (5) in section 4.13 of the NIST Digital Library of Mathematical Functions.
/// Evaluated with `mpmath` in `python`.
const TAYLOR_COEFFICIENTS: [f64; 99] = [
    1.0,
    -1.0,
    1.5,
    -2.6666666666666665,
    5.208333333333333,
    -10.8,
    23.343055555555555,
    -52.01269841269841,
    118.62522321428571,
    -275.5731922398589,
    649.7871723434745,
    -1551.1605194805195,
    3741.4497029592385,
    -9104.500241158019,
    22324.3085127066,
    -55103.621972903835,
    136808.86090394293,
    -341422.05066583835,
    855992.9659966076,
    -2154990.2060910882,
    5445552.922314462,
    -13807330.002166629,
    35117044.985139236,
    -89568002.56102797,
    229041684.61879498,
    -587103504.1171799,
    1508256053.8577929,
    -3882630161.293189,
    10013943136.654829,
    -25873567362.657608,
    66962097093.58074,
    -173571165959.9198,
    450568046564.2354,
    -1171223178256.4873,
    3048462517882.447,
    -7944240398206.812,
    20726462893727.055,
    -54134309927745.64,
    141537001323842.75,
    -370420141783066.7,
    970343148988291.6,
    -2544149870142830.0,
    6676186549945615.0,
    -1.7533383884497608e+16,
    4.60827878998424e+16,
    -1.2120840403841997e+17,
    3.1903175600194195e+17,
    -8.402903354222312e+17,
    2.21465954871603e+18,
    -5.840571433838374e+18,
    1.5412168778694736e+19,
    -4.069322719765488e+19,
    1.0750309245601006e+20,
    -2.841523479625779e+20,
    7.514576699787185e+20,
    -1.9882580395853338e+21,
    5.263181221319305e+21,
    -1.393875696142799e+22,
    3.6931170823009246e+22,
    -9.789238808348462e+22,
    2.5958848046636118e+23,
    -6.886470406171994e+23,
    1.82758313942499e+24,
    -4.852007501582215e+24,
    1.2886191206597694e+25,
    -3.423588987248066e+25,
    9.098881018831215e+25,
    -2.419018815528663e+26,
    6.433261047507392e+26,
    -1.7114323043280685e+27,
    4.554293613099411e+27,
    -1.21230351895065e+28,
    3.227952889170164e+28,
    -8.597359350864599e+28,
    2.2904550168353216e+29,
    -6.103713000670467e+29,
    1.6269682265597198e+30,
    -4.337842335304133e+30,
    1.1568455628188089e+31,
    -3.085895746764332e+31,
    8.233581124561597e+31,
    -2.1973308306283072e+32,
    5.865416934086536e+32,
    -1.5660180769945114e+33,
    4.182027286033164e+33,
    -1.1170355799760446e+34,
    2.9842494563739106e+34,
    -7.974238176573383e+34,
    2.1312151963492572e+35,
    -5.697017455033175e+35,
    1.523169120402824e+36,
    -4.0731206898104024e+36,
    1.089389810261902e+37,
    -2.914167919306647e+37,
    7.796855402425589e+37,
    -2.0863947853703042e+38,
    5.583983227480016e+38,
    -1.494723567161428e+39,
    4.001708187541245e+39,
];

/// Helper function that returns an array of Taylor coefficients to the given degree.
///
/// Needed because there is no nice short idiom to const convert an array into a smaller one at this MSRV.
#[allow(clippy::indexing_slicing)]
#[fwdad::derive_frule]
const fn w0_taylor_coefficients<const DEGREE: usize>() -> [f64; DEGREE] {
    let mut arr = [0.0; DEGREE];
    let mut i = 0;
    while i < DEGREE {
        arr[i] = TAYLOR_COEFFICIENTS[i];
        i += 1;
    }
    arr
}

/// Same as w0_taylor_coefficients but returns f32 values instead of f64 values.
#[allow(clippy::indexing_slicing)]
#[fwdad::derive_frule]
const fn w0f_taylor_coefficients<const DEGREE: usize>() -> [f32; DEGREE] {
    let mut arr = [0.0; DEGREE];
    let mut i = 0;
    while i < DEGREE {
        arr[i] = TAYLOR_COEFFICIENTS[i] as f32;
        i += 1;
    }
    arr
}

// ---------------------------------------------------------------------------------------
// The tests (not lambert_w's).

#[cfg(test)]
mod tests {
    use super::*;
    use fwdad::prelude::*;

    /// W'(z) = W / (z (1 + W)), and 1 at z = 0 (W(z) ≈ z there).
    fn w_prime(z: f64, w: f64) -> f64 {
        if z == 0.0 {
            1.0
        } else {
            w / (z * (1.0 + w))
        }
    }

    #[test]
    fn principal_branch_at_50_and_24_bits() {
        // Points in the Taylor region near 0, each of Fukushima's intervals, and large z.
        for z in [
            -0.35, -0.3, -0.1, -0.01, 0.0, 1e-12, 0.05, 0.3, 1.0, 2.7, 9.0, 40.0, 1e3, 1e6, 1e12,
        ] {
            let (w, d) = derivative(dw0c::lambert_w0 {}, z);
            assert_eq!(w.to_bits(), lambert_w::lambert_w0(z).to_bits(), "W0({z})");
            let want = w_prime(z, w);
            // The approximation's slope matches the function's to about its own accuracy.
            assert!(
                (d - want).abs() <= 1e-12 * want.abs().max(1.0),
                "W0'({z}) = {d}, want {want}"
            );
            let (w, d) = derivative(sw0::sp_lambert_w0 {}, z);
            assert_eq!(w.to_bits(), lambert_w::sp_lambert_w0(z).to_bits());
            let want = w_prime(z, w);
            assert!(
                (d - want).abs() <= 1e-5 * want.abs().max(1.0),
                "sp W0'({z}) = {d}, want {want}"
            );
        }
    }

    #[test]
    fn lower_branch_at_50_and_24_bits() {
        for z in [-0.367, -0.35, -0.3, -0.2, -0.1, -0.01, -1e-4, -1e-10] {
            let (w, d) = derivative(dwm1c::lambert_wm1 {}, z);
            assert_eq!(w.to_bits(), lambert_w::lambert_wm1(z).to_bits(), "W-1({z})");
            let want = w_prime(z, w);
            assert!(
                (d - want).abs() <= 1e-11 * want.abs(),
                "W-1'({z}) = {d}, want {want}"
            );
            let (w, d) = derivative(swm1::sp_lambert_wm1 {}, z);
            assert_eq!(w.to_bits(), lambert_w::sp_lambert_wm1(z).to_bits());
            let want = w_prime(z, w);
            assert!(
                (d - want).abs() <= 1e-5 * want.abs(),
                "sp W-1'({z}) = {d}, want {want}"
            );
        }
    }

    #[test]
    fn single_precision_and_second_order() {
        for z in [-0.3f32, 0.5, 3.0, 100.0] {
            let d = sw0f::lambert_w0f_frule(Dual::new(z, 1.0f32));
            assert_eq!(d.primal.to_bits(), lambert_w::lambert_w0f(z).to_bits());
            let want = w_prime(z as f64, d.primal as f64) as f32;
            assert!(
                (d.tangent - want).abs() <= 1e-4 * want.abs().max(1.0),
                "W0f'({z})"
            );
        }
        // W'' = −W² (W + 2) / (z² (1 + W)³).
        for z in [0.4f64, 2.0, 15.0] {
            let (w, d1, d2) = fwdad::drivers::second_derivative(dw0c::lambert_w0 {}, z);
            assert!((d1 - w_prime(z, w)).abs() < 1e-12);
            let want = -w * w * (w + 2.0) / (z * z * (1.0 + w).powi(3));
            assert!(
                (d2 - want).abs() <= 1e-10 * want.abs(),
                "W0''({z}) = {d2}, want {want}"
            );
        }
    }
}
