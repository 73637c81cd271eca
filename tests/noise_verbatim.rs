//! noise 0.9.0 (Apache-2.0 OR MIT, <https://github.com/Razaekel/noise-rs>, commit fec36c8;
//! Copyright (c) 2017 The Noise-rs Project Developers): the quintic S-curve of its Perlin
//! noise (`math::s_curve::quintic`, the trait and its `f32` and `f64` impls) copied from the
//! repository with `#[fwdad::derive_frule]` on the trait and each `impl`, checked against
//! its derivatives written out by hand, in every mode; primals bit for bit.
//!
//! Copied as well, but without the attribute, since they do not compile under it:
//! `core::perlin::perlin_1d`, whose gradients are a `macro_rules!` written inside the body
//! (a clear error: ``… supports only `const`, `static`, `use`, `fn`, `struct`, `enum` and
//! `impl` items inside a function body``, docs/limits.md), and
//! `math::interpolate::linear<T>`, generic over `T: Mul<f64, Output = T> + Add<Output = T>`
//! (rustc's type errors on the expansion; docs/limits.md). The test differentiates the
//! noise's S-curve and checks `perlin_1d` itself against its derivative by hand through
//! central differences. `permutationtable::NoiseHasher` is as it is; its `PermutationTable`
//! is left out (it draws its permutation with `rand_xorshift`): the test hashes with a
//! fixed permutation of its own.

pub mod permutationtable {
    pub trait NoiseHasher: Send + Sync {
        fn hash(&self, to_hash: &[isize]) -> usize;
    }
}

pub mod math {
    #[allow(unused_imports, dead_code)]
        #[rustfmt::skip]
        pub mod interpolate {
use core::ops::{Add, Mul, Sub};

/// Performs linear interpolation between two values.
#[inline(always)]
pub fn linear<T>(a: T, b: T, alpha: f64) -> T
where
    T: Mul<f64, Output = T> + Add<Output = T>,
{
    b * alpha + a * (1.0 - alpha)
}

        }

    pub mod s_curve {
        #[allow(unused_imports, dead_code)]
            #[rustfmt::skip]
            pub mod quintic {
use num_traits::Float;

/// Quintic Interpolation Trait
///
/// Interpolates the provided value according to the quintic S-curve function
/// 6x<sup>5</sup> - 15x<sup>4</sup> + 10x<sup>3</sup>. This creates a curve with endpoints (0,0)
/// and (1,1), and first and second derivatives of zero at the endpoints, allowing the curves to be
/// combined together without discontinuities.
///
/// Values outside the range of [0, 1] will be clamped to the range before mapping.
#[fwdad::derive_frule]
pub trait Quintic {
    fn map_quintic(&self) -> Self;
}

#[fwdad::derive_frule]
impl Quintic for f32 {
    fn map_quintic(&self) -> Self {
        let x = self.clamp(0.0, 1.0);

        x * x * x * (x * (x * 6.0 - 15.0) + 10.0)
    }
}

#[fwdad::derive_frule]
impl Quintic for f64 {
    fn map_quintic(&self) -> Self {
        let x = self.clamp(0.0, 1.0);

        x * x * x * (x * (x * 6.0 - 15.0) + 10.0)
    }
}
            }
    }
}

pub mod core {
    #[allow(unused_imports, dead_code)]
        #[rustfmt::skip]
        pub mod perlin {
use crate::{
    math::{
        interpolate::linear,
        s_curve::quintic::Quintic,

    },
    permutationtable::NoiseHasher,
};
use core::f64;

#[inline(always)]
pub fn perlin_1d<NH>(point: f64, hasher: &NH) -> f64
where
    NH: NoiseHasher + ?Sized,
{
    // Unscaled range of linearly interpolated perlin noise should be (-sqrt(N)/2, sqrt(N)/2).
    // Need to invert this value and multiply the unscaled result by the value to get a scaled
    // range of (-1, 1).
    //
    // 1/(sqrt(N)/2), N=1 -> 2/sqrt(1) -> 2
    const SCALE_FACTOR: f64 = 2.0;

    let corner = point as isize;
    let distance = point - corner as f64;

    macro_rules! call_gradient(
        ($x_offset:expr) => {
            {
                let offset = distance - $x_offset as f64;
                match hasher.hash(&[corner + $x_offset]) & 0b1 {
                    0 =>  offset, // ( 1 )
                    1 => -offset, // (-1 )
                    _ => unreachable!(),
                }
            }
        }
    );

    let g0 = call_gradient!(0);
    let g1 = call_gradient!(1);

    let curve = distance.map_quintic();

    let result = linear(g0, g1, curve) * SCALE_FACTOR;

    // At this point, we should be really damn close to the (-1, 1) range, but some float errors
    // could have accumulated, so let's just clamp the results to (-1, 1) to cut off any
    // outliers and return it.
    result.clamp(-1.0, 1.0)
}

        }
}

// ---------------------------------------------------------------------------------------
// The tests (not noise's).

#[cfg(test)]
mod tests {
    use super::core::perlin::perlin_1d;
    use super::math::s_curve::quintic::Quintic;
    use super::permutationtable::NoiseHasher;
    use fwdad::prelude::*;

    /// A fixed permutation of 0..256 (multiplication by 167, odd, modulo 256).
    struct Table;

    impl NoiseHasher for Table {
        fn hash(&self, to_hash: &[isize]) -> usize {
            ((to_hash[0] & 0xff) as usize * 167) % 256
        }
    }

    /// The noise's derivative written out: g0 = ±d, g1 = ±(d − 1) by the corners' hashes,
    /// s = 6d⁵ − 15d⁴ + 10d³, noise = 2 (g1 s + g0 (1 − s)).
    fn by_hand(x: f64) -> f64 {
        let corner = x as isize;
        let d = x - corner as f64;
        let sign = |c: isize| if Table.hash(&[c]) & 1 == 0 { 1.0 } else { -1.0 };
        let (s0, s1) = (sign(corner), sign(corner + 1));
        let (g0, g1) = (s0 * d, s1 * (d - 1.0));
        let s = d * d * d * (d * (d * 6.0 - 15.0) + 10.0);
        let ds = 30.0 * d * d * (d - 1.0) * (d - 1.0);
        2.0 * (s1 * s + g1 * ds + s0 * (1.0 - s) - g0 * ds)
    }

    #[test]
    fn perlin_1d_against_its_derivative_by_hand() {
        // The plain noise's central differences against the derivative by hand: the
        // gradients and S-curve the rule below differentiates.
        for x in [0.3, 1.7, 2.25, 5.9, 12.5, 100.01] {
            let h = 1e-6;
            let fd = (perlin_1d(x + h, &Table) - perlin_1d(x - h, &Table)) / (2.0 * h);
            let want = by_hand(x);
            assert!((fd - want).abs() < 1e-6, "noise'({x}) = {fd}, want {want}");
        }
    }

    /// The S-curve as the noise takes it, of a distance `d` in the cell.
    #[derive_frule]
    fn s_curve(d: f64) -> f64 {
        d.map_quintic()
    }

    #[derive_frule]
    fn s_curve_f32(d: f32) -> f32 {
        d.map_quintic()
    }

    #[test]
    fn quintic_s_curve_in_every_mode() {
        // s = 6d⁵ − 15d⁴ + 10d³: s' = 30 d² (d − 1)², s'' = 60 d (d − 1)(2d − 1), both zero
        // at the cell's ends; clamped outside [0, 1].
        for d in [-0.5, 0.0, 0.1, 0.37, 0.5, 0.8, 1.0, 1.5] {
            let (v, d1, d2) = fwdad::drivers::second_derivative(s_curve {}, d);
            assert_eq!(v.to_bits(), s_curve(d).to_bits());
            let inside = (0.0..=1.0).contains(&d);
            let want1 = if inside {
                30.0 * d * d * (d - 1.0) * (d - 1.0)
            } else {
                0.0
            };
            let want2 = if inside {
                60.0 * d * (d - 1.0) * (2.0 * d - 1.0)
            } else {
                0.0
            };
            assert!((d1 - want1).abs() < 1e-12, "s'({d}) = {d1}, want {want1}");
            assert!((d2 - want2).abs() < 1e-12, "s''({d}) = {d2}, want {want2}");
            let (g, dg) = derivative(s_curve {}, d);
            assert_eq!(g.to_bits(), v.to_bits());
            assert_eq!(dg.to_bits(), d1.to_bits());
            let r = s_curve_f32_frule(Dual::new(d as f32, 1.0f32));
            assert_eq!(r.primal.to_bits(), s_curve_f32(d as f32).to_bits());
            assert!((r.tangent as f64 - want1).abs() < 1e-5);
        }
    }
}
