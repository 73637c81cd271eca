//! libm 0.2.16 (MIT, <https://github.com/rust-lang/compiler-builtins>, `libm/src/math/`;
//! the FreeBSD msun sources, Copyright (C) 1993, 2004 Sun Microsystems, Inc., "Permission to
//! use, copy, modify, and distribute this software is freely granted, provided that this
//! notice is preserved", as each file's header below keeps it): `atan`, `atan2`, `exp` and
//! `log` as published, their argument reductions reading and writing the float's bits
//! (`to_bits`, `from_bits`), copied from `atan.rs`, `atan2.rs`, `exp.rs` and `log.rs` with
//! `#[fwdad::derive_frule]` added on each function, and the crate's private macros they use
//! (`force_eval!`, `i!` from `math/mod.rs`, `select_implementation!` from
//! `math/support/macros.rs`) copied beside them.
//!
//! `fabs` and `scalbn` are libm's public functions, generic over its private `Float` trait
//! (`F::from_bits(x.to_bits() & abs_mask)`, and `scalbn`'s prescaling by powers of two
//! built from bits): a user copying these files calls the published ones, and gives them
//! rules by hand, `|x|'s sign` and `2^n` (below, `#[fwdad::primitive(d = ..)]`).
//!
//! The derivatives are checked against the closed forms (atan' = 1/(1+x²), ∂atan2 =
//! (x, −y)/(x²+y²), exp' = exp, log' = 1/x) and central differences of the published crate,
//! in one direction, in batches and at second order; primals bit for bit against the
//! published crate (a dev-dependency).

#![allow(unexpected_cfgs, clippy::needless_range_loop)]

mod common;

/// `libm/src/math/` of libm 0.2.16: the macros of `mod.rs` and `support/macros.rs`, then
/// one module per file, as the crate lays them out.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports, unused_macros, unexpected_cfgs)]
pub mod math {
#![allow(clippy::approx_constant)] // many false positives

macro_rules! force_eval {
    ($e:expr) => {
        unsafe { ::core::ptr::read_volatile(&$e) }
    };
}

#[cfg(not(debug_assertions))]
macro_rules! i {
    ($array:expr, $index:expr) => {
        unsafe { *$array.get_unchecked($index) }
    };
    ($array:expr, $index:expr, = , $rhs:expr) => {
        unsafe {
            *$array.get_unchecked_mut($index) = $rhs;
        }
    };
    ($array:expr, $index:expr, += , $rhs:expr) => {
        unsafe {
            *$array.get_unchecked_mut($index) += $rhs;
        }
    };
    ($array:expr, $index:expr, -= , $rhs:expr) => {
        unsafe {
            *$array.get_unchecked_mut($index) -= $rhs;
        }
    };
    ($array:expr, $index:expr, &= , $rhs:expr) => {
        unsafe {
            *$array.get_unchecked_mut($index) &= $rhs;
        }
    };
    ($array:expr, $index:expr, == , $rhs:expr) => {
        unsafe { *$array.get_unchecked_mut($index) == $rhs }
    };
}

#[cfg(debug_assertions)]
macro_rules! i {
    ($array:expr, $index:expr) => {
        *$array.get($index).unwrap()
    };
    ($array:expr, $index:expr, = , $rhs:expr) => {
        *$array.get_mut($index).unwrap() = $rhs;
    };
    ($array:expr, $index:expr, -= , $rhs:expr) => {
        *$array.get_mut($index).unwrap() -= $rhs;
    };
    ($array:expr, $index:expr, += , $rhs:expr) => {
        *$array.get_mut($index).unwrap() += $rhs;
    };
    ($array:expr, $index:expr, &= , $rhs:expr) => {
        *$array.get_mut($index).unwrap() &= $rhs;
    };
    ($array:expr, $index:expr, == , $rhs:expr) => {
        *$array.get_mut($index).unwrap() == $rhs
    };
}

/// Choose between using an arch-specific implementation and the function body. Returns directly
/// if the arch implementation is used, otherwise continue with the rest of the function.
///
/// Specify a `use_arch` meta field if an architecture-specific implementation is provided.
/// These live in the `math::arch::some_target_arch` module.
///
/// Specify a `use_arch_required` meta field if something architecture-specific must be used
/// regardless of feature configuration (`force-soft-floats`).
///
/// The passed meta options do not need to account for the `arch` target feature.
macro_rules! select_implementation {
    (
        name: $fn_name:ident,
        // Configuration meta for when to use arch-specific implementation that requires hard
        // float ops
        $( use_arch: $use_arch:meta, )?
        // Configuration meta for when to use the arch module regardless of whether softfloats
        // have been requested.
        $( use_arch_required: $use_arch_required:meta, )?
        args: $($arg:ident),+ ,
    ) => {
        // FIXME: these use paths that are a pretty fragile (`super`). We should figure out
        // something better w.r.t. how this is vendored into compiler-builtins.

        // However, we do need a few things from `arch` that are used even with soft floats.
        select_implementation! {
            @cfg $($use_arch_required)?;
            if true {
                return  super::arch::$fn_name( $($arg),+ );
            }
        }

        // By default, never use arch-specific implementations if we have force-soft-floats
        #[cfg(arch_enabled)]
        select_implementation! {
            @cfg $($use_arch)?;
            // Wrap in `if true` to avoid unused warnings
            if true {
                return  super::arch::$fn_name( $($arg),+ );
            }
        }
    };

    // Coalesce helper to construct an expression only if a config is provided
    (@cfg ; $ex:expr) => { };
    (@cfg $provided:meta; $ex:expr) => { #[cfg($provided)] $ex };
}

/// libm's `fabs` (`super::generic::fabs`: `F::from_bits(x.to_bits() & !F::SIGN_MASK)`), the
/// published function with its rule by hand: the sign of `x` (0 at 0).
#[fwdad::primitive(d = if x > 0.0 { 1.0 } else if x < 0.0 { -1.0 } else { 0.0 })]
pub fn fabs(x: f64) -> f64 {
    libm::fabs(x)
}

/// libm's `scalbn` (`super::generic::scalbn`: `x · 2ⁿ` by multiplications by powers of two
/// built from bits), the published function with its rule by hand: `2ⁿ`.
#[fwdad::primitive(d = 2f64.powi(n))]
pub fn scalbn(x: f64, n: i32) -> f64 {
    libm::scalbn(x, n)
}






/// `math/atan.rs`
pub mod atan {
/* origin: FreeBSD /usr/src/lib/msun/src/s_atan.c */
/*
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *
 * Developed at SunPro, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 */
/* atan(x)
 * Method
 *   1. Reduce x to positive by atan(x) = -atan(-x).
 *   2. According to the integer k=4t+0.25 chopped, t=x, the argument
 *      is further reduced to one of the following intervals and the
 *      arctangent of t is evaluated by the corresponding formula:
 *
 *      [0,7/16]      atan(x) = t-t^3*(a1+t^2*(a2+...(a10+t^2*a11)...)
 *      [7/16,11/16]  atan(x) = atan(1/2) + atan( (t-0.5)/(1+t/2) )
 *      [11/16.19/16] atan(x) = atan( 1 ) + atan( (t-1)/(1+t) )
 *      [19/16,39/16] atan(x) = atan(3/2) + atan( (t-1.5)/(1+1.5t) )
 *      [39/16,INF]   atan(x) = atan(INF) + atan( -1/t )
 *
 * Constants:
 * The hexadecimal values are the intended ones for the following
 * constants. The decimal values may be used, provided that the
 * compiler will convert from decimal to binary accurately enough
 * to produce the hexadecimal values shown.
 */

use super::fabs;

const ATANHI: [f64; 4] = [
    4.63647609000806093515e-01, /* atan(0.5)hi 0x3FDDAC67, 0x0561BB4F */
    7.85398163397448278999e-01, /* atan(1.0)hi 0x3FE921FB, 0x54442D18 */
    9.82793723247329054082e-01, /* atan(1.5)hi 0x3FEF730B, 0xD281F69B */
    1.57079632679489655800e+00, /* atan(inf)hi 0x3FF921FB, 0x54442D18 */
];

const ATANLO: [f64; 4] = [
    2.26987774529616870924e-17, /* atan(0.5)lo 0x3C7A2B7F, 0x222F65E2 */
    3.06161699786838301793e-17, /* atan(1.0)lo 0x3C81A626, 0x33145C07 */
    1.39033110312309984516e-17, /* atan(1.5)lo 0x3C700788, 0x7AF0CBBD */
    6.12323399573676603587e-17, /* atan(inf)lo 0x3C91A626, 0x33145C07 */
];

const AT: [f64; 11] = [
    3.33333333333329318027e-01,  /* 0x3FD55555, 0x5555550D */
    -1.99999999998764832476e-01, /* 0xBFC99999, 0x9998EBC4 */
    1.42857142725034663711e-01,  /* 0x3FC24924, 0x920083FF */
    -1.11111104054623557880e-01, /* 0xBFBC71C6, 0xFE231671 */
    9.09088713343650656196e-02,  /* 0x3FB745CD, 0xC54C206E */
    -7.69187620504482999495e-02, /* 0xBFB3B0F2, 0xAF749A6D */
    6.66107313738753120669e-02,  /* 0x3FB10D66, 0xA0D03D51 */
    -5.83357013379057348645e-02, /* 0xBFADDE2D, 0x52DEFD9A */
    4.97687799461593236017e-02,  /* 0x3FA97B4B, 0x24760DEB */
    -3.65315727442169155270e-02, /* 0xBFA2B444, 0x2C6A6C2F */
    1.62858201153657823623e-02,  /* 0x3F90AD3A, 0xE322DA11 */
];

/// Arctangent (f64)
///
/// Computes the inverse tangent (arc tangent) of the input value.
/// Returns a value in radians, in the range of -pi/2 to pi/2.
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub fn atan(x: f64) -> f64 {
    let mut x = x;
    let mut ix = (x.to_bits() >> 32) as u32;
    let sign = ix >> 31;
    ix &= 0x7fff_ffff;
    if ix >= 0x4410_0000 {
        if x.is_nan() {
            return x;
        }

        let z = ATANHI[3] + f64::from_bits(0x0380_0000); // 0x1p-120f
        return if sign != 0 { -z } else { z };
    }

    let id = if ix < 0x3fdc_0000 {
        /* |x| < 0.4375 */
        if ix < 0x3e40_0000 {
            /* |x| < 2^-27 */
            if ix < 0x0010_0000 {
                /* raise underflow for subnormal x */
                force_eval!(x as f32);
            }

            return x;
        }

        -1
    } else {
        x = fabs(x);
        if ix < 0x3ff30000 {
            /* |x| < 1.1875 */
            if ix < 0x3fe60000 {
                /* 7/16 <= |x| < 11/16 */
                x = (2. * x - 1.) / (2. + x);
                0
            } else {
                /* 11/16 <= |x| < 19/16 */
                x = (x - 1.) / (x + 1.);
                1
            }
        } else if ix < 0x40038000 {
            /* |x| < 2.4375 */
            x = (x - 1.5) / (1. + 1.5 * x);
            2
        } else {
            /* 2.4375 <= |x| < 2^66 */
            x = -1. / x;
            3
        }
    };

    let z = x * x;
    let w = z * z;
    /* break sum from i=0 to 10 AT[i]z**(i+1) into odd and even poly */
    let s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
    let s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));

    if id < 0 {
        return x - x * (s1 + s2);
    }

    let z = i!(ATANHI, id as usize) - (x * (s1 + s2) - i!(ATANLO, id as usize) - x);

    if sign != 0 { -z } else { z }
}

}

/// `math/atan2.rs`
pub mod atan2 {
/* origin: FreeBSD /usr/src/lib/msun/src/e_atan2.c */
/*
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *
 * Developed at SunSoft, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 *
 */
/* atan2(y,x)
 * Method :
 *      1. Reduce y to positive by atan2(y,x)=-atan2(-y,x).
 *      2. Reduce x to positive by (if x and y are unexceptional):
 *              ARG (x+iy) = arctan(y/x)           ... if x > 0,
 *              ARG (x+iy) = pi - arctan[y/(-x)]   ... if x < 0,
 *
 * Special cases:
 *
 *      ATAN2((anything), NaN ) is NaN;
 *      ATAN2(NAN , (anything) ) is NaN;
 *      ATAN2(+-0, +(anything but NaN)) is +-0  ;
 *      ATAN2(+-0, -(anything but NaN)) is +-pi ;
 *      ATAN2(+-(anything but 0 and NaN), 0) is +-pi/2;
 *      ATAN2(+-(anything but INF and NaN), +INF) is +-0 ;
 *      ATAN2(+-(anything but INF and NaN), -INF) is +-pi;
 *      ATAN2(+-INF,+INF ) is +-pi/4 ;
 *      ATAN2(+-INF,-INF ) is +-3pi/4;
 *      ATAN2(+-INF, (anything but,0,NaN, and INF)) is +-pi/2;
 *
 * Constants:
 * The hexadecimal values are the intended ones for the following
 * constants. The decimal values may be used, provided that the
 * compiler will convert from decimal to binary accurately enough
 * to produce the hexadecimal values shown.
 */

use super::{atan::atan, fabs};

const PI: f64 = 3.1415926535897931160E+00; /* 0x400921FB, 0x54442D18 */
const PI_LO: f64 = 1.2246467991473531772E-16; /* 0x3CA1A626, 0x33145C07 */

/// Arctangent of y/x (f64)
///
/// Computes the inverse tangent (arc tangent) of `y/x`.
/// Produces the correct result even for angles near pi/2 or -pi/2 (that is, when `x` is near 0).
/// Returns a value in radians, in the range of -pi to pi.
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub fn atan2(y: f64, x: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let mut ix = (x.to_bits() >> 32) as u32;
    let lx = x.to_bits() as u32;
    let mut iy = (y.to_bits() >> 32) as u32;
    let ly = y.to_bits() as u32;
    if ((ix.wrapping_sub(0x3ff00000)) | lx) == 0 {
        /* x = 1.0 */
        return atan(y);
    }
    let m = ((iy >> 31) & 1) | ((ix >> 30) & 2); /* 2*sign(x)+sign(y) */
    ix &= 0x7fffffff;
    iy &= 0x7fffffff;

    /* when y = 0 */
    if (iy | ly) == 0 {
        return match m {
            0 | 1 => y, /* atan(+-0,+anything)=+-0 */
            2 => PI,    /* atan(+0,-anything) = PI */
            _ => -PI,   /* atan(-0,-anything) =-PI */
        };
    }
    /* when x = 0 */
    if (ix | lx) == 0 {
        return if m & 1 != 0 { -PI / 2.0 } else { PI / 2.0 };
    }
    /* when x is INF */
    if ix == 0x7ff00000 {
        if iy == 0x7ff00000 {
            return match m {
                0 => PI / 4.0,        /* atan(+INF,+INF) */
                1 => -PI / 4.0,       /* atan(-INF,+INF) */
                2 => 3.0 * PI / 4.0,  /* atan(+INF,-INF) */
                _ => -3.0 * PI / 4.0, /* atan(-INF,-INF) */
            };
        } else {
            return match m {
                0 => 0.0,  /* atan(+...,+INF) */
                1 => -0.0, /* atan(-...,+INF) */
                2 => PI,   /* atan(+...,-INF) */
                _ => -PI,  /* atan(-...,-INF) */
            };
        }
    }
    /* |y/x| > 0x1p64 */
    if ix.wrapping_add(64 << 20) < iy || iy == 0x7ff00000 {
        return if m & 1 != 0 { -PI / 2.0 } else { PI / 2.0 };
    }

    /* z = atan(|y/x|) without spurious underflow */
    let z = if (m & 2 != 0) && iy.wrapping_add(64 << 20) < ix {
        /* |y/x| < 0x1p-64, x<0 */
        0.0
    } else {
        atan(fabs(y / x))
    };
    match m {
        0 => z,                /* atan(+,+) */
        1 => -z,               /* atan(-,+) */
        2 => PI - (z - PI_LO), /* atan(+,-) */
        _ => (z - PI_LO) - PI, /* atan(-,-) */
    }
}

}

/// `math/exp.rs`
pub mod exp {
/* origin: FreeBSD /usr/src/lib/msun/src/e_exp.c */
/*
 * ====================================================
 * Copyright (C) 2004 by Sun Microsystems, Inc. All rights reserved.
 *
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 */
/* exp(x)
 * Returns the exponential of x.
 *
 * Method
 *   1. Argument reduction:
 *      Reduce x to an r so that |r| <= 0.5*ln2 ~ 0.34658.
 *      Given x, find r and integer k such that
 *
 *               x = k*ln2 + r,  |r| <= 0.5*ln2.
 *
 *      Here r will be represented as r = hi-lo for better
 *      accuracy.
 *
 *   2. Approximation of exp(r) by a special rational function on
 *      the interval [0,0.34658]:
 *      Write
 *          R(r**2) = r*(exp(r)+1)/(exp(r)-1) = 2 + r*r/6 - r**4/360 + ...
 *      We use a special Remez algorithm on [0,0.34658] to generate
 *      a polynomial of degree 5 to approximate R. The maximum error
 *      of this polynomial approximation is bounded by 2**-59. In
 *      other words,
 *          R(z) ~ 2.0 + P1*z + P2*z**2 + P3*z**3 + P4*z**4 + P5*z**5
 *      (where z=r*r, and the values of P1 to P5 are listed below)
 *      and
 *          |                  5          |     -59
 *          | 2.0+P1*z+...+P5*z   -  R(z) | <= 2
 *          |                             |
 *      The computation of exp(r) thus becomes
 *                              2*r
 *              exp(r) = 1 + ----------
 *                            R(r) - r
 *                                 r*c(r)
 *                     = 1 + r + ----------- (for better accuracy)
 *                                2 - c(r)
 *      where
 *                              2       4             10
 *              c(r) = r - (P1*r  + P2*r  + ... + P5*r   ).
 *
 *   3. Scale back to obtain exp(x):
 *      From step 1, we have
 *         exp(x) = 2^k * exp(r)
 *
 * Special cases:
 *      exp(INF) is INF, exp(NaN) is NaN;
 *      exp(-INF) is 0, and
 *      for finite argument, only exp(0)=1 is exact.
 *
 * Accuracy:
 *      according to an error analysis, the error is always less than
 *      1 ulp (unit in the last place).
 *
 * Misc. info.
 *      For IEEE double
 *          if x >  709.782712893383973096 then exp(x) overflows
 *          if x < -745.133219101941108420 then exp(x) underflows
 */

use super::scalbn;

const HALF: [f64; 2] = [0.5, -0.5];
const LN2HI: f64 = 6.93147180369123816490e-01; /* 0x3fe62e42, 0xfee00000 */
const LN2LO: f64 = 1.90821492927058770002e-10; /* 0x3dea39ef, 0x35793c76 */
const INVLN2: f64 = 1.44269504088896338700e+00; /* 0x3ff71547, 0x652b82fe */
const P1: f64 = 1.66666666666666019037e-01; /* 0x3FC55555, 0x5555553E */
const P2: f64 = -2.77777777770155933842e-03; /* 0xBF66C16C, 0x16BEBD93 */
const P3: f64 = 6.61375632143793436117e-05; /* 0x3F11566A, 0xAF25DE2C */
const P4: f64 = -1.65339022054652515390e-06; /* 0xBEBBBD41, 0xC5D26BF1 */
const P5: f64 = 4.13813679705723846039e-08; /* 0x3E663769, 0x72BEA4D0 */

/// Exponential, base *e* (f64)
///
/// Calculate the exponential of `x`, that is, *e* raised to the power `x`
/// (where *e* is the base of the natural system of logarithms, approximately 2.71828).
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub fn exp(mut x: f64) -> f64 {
    select_implementation! {
        name: x87_exp,
        use_arch_required: x86_no_sse,
        args: x,
    }

    let x1p1023 = f64::from_bits(0x7fe0000000000000); // 0x1p1023 === 2 ^ 1023
    let x1p_149 = f64::from_bits(0x36a0000000000000); // 0x1p-149 === 2 ^ -149

    let hi: f64;
    let lo: f64;
    let c: f64;
    let xx: f64;
    let y: f64;
    let k: i32;
    let sign: i32;
    let mut hx: u32;

    hx = (x.to_bits() >> 32) as u32;
    sign = (hx >> 31) as i32;
    hx &= 0x7fffffff; /* high word of |x| */

    /* special cases */
    if hx >= 0x4086232b {
        /* if |x| >= 708.39... */
        if x.is_nan() {
            return x;
        }
        if x > 709.782712893383973096 {
            /* overflow if x!=inf */
            x *= x1p1023;
            return x;
        }
        if x < -708.39641853226410622 {
            /* underflow if x!=-inf */
            force_eval!((-x1p_149 / x) as f32);
            if x < -745.13321910194110842 {
                return 0.;
            }
        }
    }

    /* argument reduction */
    if hx > 0x3fd62e42 {
        /* if |x| > 0.5 ln2 */
        if hx >= 0x3ff0a2b2 {
            /* if |x| >= 1.5 ln2 */
            k = (INVLN2 * x + i!(HALF, sign as usize)) as i32;
        } else {
            k = 1 - sign - sign;
        }
        hi = x - k as f64 * LN2HI; /* k*ln2hi is exact here */
        lo = k as f64 * LN2LO;
        x = hi - lo;
    } else if hx > 0x3e300000 {
        /* if |x| > 2**-28 */
        k = 0;
        hi = x;
        lo = 0.;
    } else {
        /* inexact if x!=0 */
        force_eval!(x1p1023 + x);
        return 1. + x;
    }

    /* x is now in primary range */
    xx = x * x;
    c = x - xx * (P1 + xx * (P2 + xx * (P3 + xx * (P4 + xx * P5))));
    y = 1. + (x * c / (2. - c) - lo + hi);
    if k == 0 { y } else { scalbn(y, k) }
}
}

/// `math/log.rs`
pub mod log {
/* origin: FreeBSD /usr/src/lib/msun/src/e_log.c */
/*
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *
 * Developed at SunSoft, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 */
/* log(x)
 * Return the logarithm of x
 *
 * Method :
 *   1. Argument Reduction: find k and f such that
 *                      x = 2^k * (1+f),
 *         where  sqrt(2)/2 < 1+f < sqrt(2) .
 *
 *   2. Approximation of log(1+f).
 *      Let s = f/(2+f) ; based on log(1+f) = log(1+s) - log(1-s)
 *               = 2s + 2/3 s**3 + 2/5 s**5 + .....,
 *               = 2s + s*R
 *      We use a special Remez algorithm on [0,0.1716] to generate
 *      a polynomial of degree 14 to approximate R The maximum error
 *      of this polynomial approximation is bounded by 2**-58.45. In
 *      other words,
 *                      2      4      6      8      10      12      14
 *          R(z) ~ Lg1*s +Lg2*s +Lg3*s +Lg4*s +Lg5*s  +Lg6*s  +Lg7*s
 *      (the values of Lg1 to Lg7 are listed in the program)
 *      and
 *          |      2          14          |     -58.45
 *          | Lg1*s +...+Lg7*s    -  R(z) | <= 2
 *          |                             |
 *      Note that 2s = f - s*f = f - hfsq + s*hfsq, where hfsq = f*f/2.
 *      In order to guarantee error in log below 1ulp, we compute log
 *      by
 *              log(1+f) = f - s*(f - R)        (if f is not too large)
 *              log(1+f) = f - (hfsq - s*(hfsq+R)).     (better accuracy)
 *
 *      3. Finally,  log(x) = k*ln2 + log(1+f).
 *                          = k*ln2_hi+(f-(hfsq-(s*(hfsq+R)+k*ln2_lo)))
 *         Here ln2 is split into two floating point number:
 *                      ln2_hi + ln2_lo,
 *         where n*ln2_hi is always exact for |n| < 2000.
 *
 * Special cases:
 *      log(x) is NaN with signal if x < 0 (including -INF) ;
 *      log(+INF) is +INF; log(0) is -INF with signal;
 *      log(NaN) is that NaN with no signal.
 *
 * Accuracy:
 *      according to an error analysis, the error is always less than
 *      1 ulp (unit in the last place).
 *
 * Constants:
 * The hexadecimal values are the intended ones for the following
 * constants. The decimal values may be used, provided that the
 * compiler will convert from decimal to binary accurately enough
 * to produce the hexadecimal values shown.
 */

const LN2_HI: f64 = 6.93147180369123816490e-01; /* 3fe62e42 fee00000 */
const LN2_LO: f64 = 1.90821492927058770002e-10; /* 3dea39ef 35793c76 */
const LG1: f64 = 6.666666666666735130e-01; /* 3FE55555 55555593 */
const LG2: f64 = 3.999999999940941908e-01; /* 3FD99999 9997FA04 */
const LG3: f64 = 2.857142874366239149e-01; /* 3FD24924 94229359 */
const LG4: f64 = 2.222219843214978396e-01; /* 3FCC71C5 1D8E78AF */
const LG5: f64 = 1.818357216161805012e-01; /* 3FC74664 96CB03DE */
const LG6: f64 = 1.531383769920937332e-01; /* 3FC39A09 D078C69F */
const LG7: f64 = 1.479819860511658591e-01; /* 3FC2F112 DF3E5244 */

/// The natural logarithm of `x` (f64).
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
// Not `#[fwdad::derive_frule]`: the reduction rebuilds the mantissa from `x`'s bits
// (`x = f64::from_bits(ui)`), through which no derivative flows; the macro says so at
// `f64::from_bits` (docs/limits.md, test `float-from-bits-of-input`). Its rule by hand:
#[fwdad::primitive(d = 1.0 / x)]
pub fn log(mut x: f64) -> f64 {
    let x1p54 = f64::from_bits(0x4350000000000000); // 0x1p54 === 2 ^ 54

    let mut ui = x.to_bits();
    let mut hx: u32 = (ui >> 32) as u32;
    let mut k: i32 = 0;

    if (hx < 0x00100000) || ((hx >> 31) != 0) {
        /* x < 2**-126  */
        if ui << 1 == 0 {
            return -1. / (x * x); /* log(+-0)=-inf */
        }
        if hx >> 31 != 0 {
            return (x - x) / 0.0; /* log(-#) = NaN */
        }
        /* subnormal number, scale x up */
        k -= 54;
        x *= x1p54;
        ui = x.to_bits();
        hx = (ui >> 32) as u32;
    } else if hx >= 0x7ff00000 {
        return x;
    } else if hx == 0x3ff00000 && ui << 32 == 0 {
        return 0.;
    }

    /* reduce x into [sqrt(2)/2, sqrt(2)] */
    hx += 0x3ff00000 - 0x3fe6a09e;
    k += ((hx >> 20) as i32) - 0x3ff;
    hx = (hx & 0x000fffff) + 0x3fe6a09e;
    ui = ((hx as u64) << 32) | (ui & 0xffffffff);
    x = f64::from_bits(ui);

    let f: f64 = x - 1.0;
    let hfsq: f64 = 0.5 * f * f;
    let s: f64 = f / (2.0 + f);
    let z: f64 = s * s;
    let w: f64 = z * z;
    let t1: f64 = w * (LG2 + w * (LG4 + w * LG6));
    let t2: f64 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    let r: f64 = t2 + t1;
    let dk: f64 = k as f64;
    s * (hfsq + r) + dk * LN2_LO - hfsq + f + dk * LN2_HI
}
}


// The modules below (added by the fourteenth session): `expm1`, `log1p`, `sinh`,
// `cosh`, `tanh`, `asinh`, `acosh`, `atanh`, `hypot`, and the helpers `expo2` and
// `k_expo2`, each file as published with `#[fwdad::derive_frule]` added on its function.
// `combine_words` is `math/mod.rs`'s; each `use super::f` of a function of another file
// reads `use super::f::f` (`mod.rs` re-exports the functions, whose rules' handles, structs
// named as the functions, would clash there with the modules).


/// libm's `sqrt` (`select_implementation!` of the target's instruction, else
/// `super::generic::sqrt`, which works on the bits), the published function with its rule
/// by hand, as `fabs` and `scalbn` above.
#[fwdad::primitive(d = 0.5 / x.sqrt())]
pub fn sqrt(x: f64) -> f64 {
    libm::sqrt(x)
}

/// `math/mod.rs`: a float from its two 32-bit halves (integers that no float's bits gave
/// here: the scale `2^(k-1)` of `expo2`).
#[inline]
#[fwdad::derive_frule]
fn combine_words(hi: u32, lo: u32) -> f64 {
    f64::from_bits(((hi as u64) << 32) | lo as u64)
}

/// `math/expm1.rs`
pub mod expm1 {
/* origin: FreeBSD /usr/src/lib/msun/src/s_expm1.c */
/*
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *
 * Developed at SunPro, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 */

const O_THRESHOLD: f64 = 7.09782712893383973096e+02; /* 0x40862E42, 0xFEFA39EF */
const LN2_HI: f64 = 6.93147180369123816490e-01; /* 0x3fe62e42, 0xfee00000 */
const LN2_LO: f64 = 1.90821492927058770002e-10; /* 0x3dea39ef, 0x35793c76 */
const INVLN2: f64 = 1.44269504088896338700e+00; /* 0x3ff71547, 0x652b82fe */
/* Scaled Q's: Qn_here = 2**n * Qn_above, for R(2*z) where z = hxs = x*x/2: */
const Q1: f64 = -3.33333333333331316428e-02; /* BFA11111 111110F4 */
const Q2: f64 = 1.58730158725481460165e-03; /* 3F5A01A0 19FE5585 */
const Q3: f64 = -7.93650757867487942473e-05; /* BF14CE19 9EAADBB7 */
const Q4: f64 = 4.00821782732936239552e-06; /* 3ED0CFCA 86E65239 */
const Q5: f64 = -2.01099218183624371326e-07; /* BE8AFDB7 6E09C32D */

/// Exponential, base *e*, of x-1 (f64)
///
/// Calculates the exponential of `x` and subtract 1, that is, *e* raised
/// to the power `x` minus 1 (where *e* is the base of the natural
/// system of logarithms, approximately 2.71828).
/// The result is accurate even for small values of `x`,
/// where using `exp(x)-1` would lose many significant digits.
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub fn expm1(mut x: f64) -> f64 {
    let hi: f64;
    let lo: f64;
    let k: i32;
    let c: f64;
    let mut t: f64;
    let mut y: f64;

    let mut ui = x.to_bits();
    let hx = ((ui >> 32) & 0x7fffffff) as u32;
    let sign = (ui >> 63) as i32;

    /* filter out huge and non-finite argument */
    if hx >= 0x4043687A {
        /* if |x|>=56*ln2 */
        if x.is_nan() {
            return x;
        }
        if sign != 0 {
            return -1.0;
        }
        if x > O_THRESHOLD {
            x *= f64::from_bits(0x7fe0000000000000);
            return x;
        }
    }

    /* argument reduction */
    if hx > 0x3fd62e42 {
        /* if  |x| > 0.5 ln2 */
        if hx < 0x3FF0A2B2 {
            /* and |x| < 1.5 ln2 */
            if sign == 0 {
                hi = x - LN2_HI;
                lo = LN2_LO;
                k = 1;
            } else {
                hi = x + LN2_HI;
                lo = -LN2_LO;
                k = -1;
            }
        } else {
            k = (INVLN2 * x + if sign != 0 { -0.5 } else { 0.5 }) as i32;
            t = k as f64;
            hi = x - t * LN2_HI; /* t*ln2_hi is exact here */
            lo = t * LN2_LO;
        }
        x = hi - lo;
        c = (hi - x) - lo;
    } else if hx < 0x3c900000 {
        /* |x| < 2**-54, return x */
        if hx < 0x00100000 {
            force_eval!(x);
        }
        return x;
    } else {
        c = 0.0;
        k = 0;
    }

    /* x is now in primary range */
    let hfx = 0.5 * x;
    let hxs = x * hfx;
    let r1 = 1.0 + hxs * (Q1 + hxs * (Q2 + hxs * (Q3 + hxs * (Q4 + hxs * Q5))));
    t = 3.0 - r1 * hfx;
    let mut e = hxs * ((r1 - t) / (6.0 - x * t));
    if k == 0 {
        /* c is 0 */
        return x - (x * e - hxs);
    }
    e = x * (e - c) - c;
    e -= hxs;
    /* exp(x) ~ 2^k (x_reduced - e + 1) */
    if k == -1 {
        return 0.5 * (x - e) - 0.5;
    }
    if k == 1 {
        if x < -0.25 {
            return -2.0 * (e - (x + 0.5));
        }
        return 1.0 + 2.0 * (x - e);
    }
    ui = ((0x3ff + k) as u64) << 52; /* 2^k */
    let twopk = f64::from_bits(ui);
    if !(0..=56).contains(&k) {
        /* suffice to return exp(x)-1 */
        y = x - e + 1.0;
        if k == 1024 {
            y = y * 2.0 * f64::from_bits(0x7fe0000000000000);
        } else {
            y = y * twopk;
        }
        return y - 1.0;
    }
    ui = ((0x3ff - k) as u64) << 52; /* 2^-k */
    let uf = f64::from_bits(ui);
    if k < 20 {
        y = (x - e + (1.0 - uf)) * twopk;
    } else {
        y = (x - (e + uf) + 1.0) * twopk;
    }
    y
}
}

/// `math/expo2.rs`
pub mod expo2 {
use super::{combine_words, exp::exp};

/* exp(x)/2 for x >= log(DBL_MAX), slightly better than 0.5*exp(x/2)*exp(x/2) */
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub(crate) fn expo2(x: f64) -> f64 {
    /* k is such that k*ln2 has minimal relative error and x - kln2 > log(DBL_MIN) */
    const K: i32 = 2043;
    let kln2 = f64::from_bits(0x40962066151add8b);

    /* note that k is odd and scale*scale overflows */
    let scale = combine_words(((0x3ff + K / 2) as u32) << 20, 0);
    /* exp(x - k ln2) * 2**(k-1) */
    exp(x - kln2) * scale * scale
}
}

/// `math/k_expo2.rs`
pub mod k_expo2 {
use super::exp::exp;

/* k is such that k*ln2 has minimal relative error and x - kln2 > log(FLT_MIN) */
const K: i32 = 2043;

/* expf(x)/2 for x >= log(FLT_MAX), slightly better than 0.5f*expf(x/2)*expf(x/2) */
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub(crate) fn k_expo2(x: f64) -> f64 {
    let k_ln2 = f64::from_bits(0x40962066151add8b);
    /* note that k is odd and scale*scale overflows */
    let scale = f64::from_bits(((((0x3ff + K / 2) as u32) << 20) as u64) << 32);
    /* exp(x - k ln2) * 2**(k-1) */
    exp(x - k_ln2) * scale * scale
}
}

/// `math/log1p.rs`
pub mod log1p {
/* origin: FreeBSD /usr/src/lib/msun/src/s_log1p.c */
/*
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *
 * Developed at SunPro, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 */
/* double log1p(double x)
 * Return the natural logarithm of 1+x.
 *
 * Method :
 *   1. Argument Reduction: find k and f such that
 *                      1+x = 2^k * (1+f),
 *         where  sqrt(2)/2 < 1+f < sqrt(2) .
 *
 *      Note. If k=0, then f=x is exact. However, if k!=0, then f
 *      may not be representable exactly. In that case, a correction
 *      term is need. Let u=1+x rounded. Let c = (1+x)-u, then
 *      log(1+x) - log(u) ~ c/u. Thus, we proceed to compute log(u),
 *      and add back the correction term c/u.
 *      (Note: when x > 2**53, one can simply return log(x))
 *
 *   2. Approximation of log(1+f): See log.c
 *
 *   3. Finally, log1p(x) = k*ln2 + log(1+f) + c/u. See log.c
 *
 * Special cases:
 *      log1p(x) is NaN with signal if x < -1 (including -INF) ;
 *      log1p(+INF) is +INF; log1p(-1) is -INF with signal;
 *      log1p(NaN) is that NaN with no signal.
 *
 * Accuracy:
 *      according to an error analysis, the error is always less than
 *      1 ulp (unit in the last place).
 *
 * Constants:
 * The hexadecimal values are the intended ones for the following
 * constants. The decimal values may be used, provided that the
 * compiler will convert from decimal to binary accurately enough
 * to produce the hexadecimal values shown.
 *
 * Note: Assuming log() return accurate answer, the following
 *       algorithm can be used to compute log1p(x) to within a few ULP:
 *
 *              u = 1+x;
 *              if(u==1.0) return x ; else
 *                         return log(u)*(x/(u-1.0));
 *
 *       See HP-15C Advanced Functions Handbook, p.193.
 */

const LN2_HI: f64 = 6.93147180369123816490e-01; /* 3fe62e42 fee00000 */
const LN2_LO: f64 = 1.90821492927058770002e-10; /* 3dea39ef 35793c76 */
const LG1: f64 = 6.666666666666735130e-01; /* 3FE55555 55555593 */
const LG2: f64 = 3.999999999940941908e-01; /* 3FD99999 9997FA04 */
const LG3: f64 = 2.857142874366239149e-01; /* 3FD24924 94229359 */
const LG4: f64 = 2.222219843214978396e-01; /* 3FCC71C5 1D8E78AF */
const LG5: f64 = 1.818357216161805012e-01; /* 3FC74664 96CB03DE */
const LG6: f64 = 1.531383769920937332e-01; /* 3FC39A09 D078C69F */
const LG7: f64 = 1.479819860511658591e-01; /* 3FC2F112 DF3E5244 */

/// The natural logarithm of 1+`x` (f64).
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
// Not `#[fwdad::derive_frule]`: as `log`, the reduction rebuilds `1 + x`'s mantissa from
// its bits (`f = f64::from_bits(ui) - 1.`), through which no derivative flows; the macro
// says so at `f64::from_bits`. Its rule by hand:
#[fwdad::primitive(d = 1.0 / (1.0 + x))]
pub fn log1p(x: f64) -> f64 {
    let mut ui: u64 = x.to_bits();
    let hfsq: f64;
    let mut f: f64 = 0.;
    let mut c: f64 = 0.;
    let s: f64;
    let z: f64;
    let r: f64;
    let w: f64;
    let t1: f64;
    let t2: f64;
    let dk: f64;
    let hx: u32;
    let mut hu: u32;
    let mut k: i32;

    hx = (ui >> 32) as u32;
    k = 1;
    if hx < 0x3fda827a || (hx >> 31) > 0 {
        /* 1+x < sqrt(2)+ */
        if hx >= 0xbff00000 {
            /* x <= -1.0 */
            if x == -1. {
                return x / 0.0; /* log1p(-1) = -inf */
            }
            return (x - x) / 0.0; /* log1p(x<-1) = NaN */
        }
        if hx << 1 < 0x3ca00000 << 1 {
            /* |x| < 2**-53 */
            /* underflow if subnormal */
            if (hx & 0x7ff00000) == 0 {
                force_eval!(x as f32);
            }
            return x;
        }
        if hx <= 0xbfd2bec4 {
            /* sqrt(2)/2- <= 1+x < sqrt(2)+ */
            k = 0;
            c = 0.;
            f = x;
        }
    } else if hx >= 0x7ff00000 {
        return x;
    }
    if k > 0 {
        ui = (1. + x).to_bits();
        hu = (ui >> 32) as u32;
        hu += 0x3ff00000 - 0x3fe6a09e;
        k = (hu >> 20) as i32 - 0x3ff;
        /* correction term ~ log(1+x)-log(u), avoid underflow in c/u */
        if k < 54 {
            c = if k >= 2 {
                1. - (f64::from_bits(ui) - x)
            } else {
                x - (f64::from_bits(ui) - 1.)
            };
            c /= f64::from_bits(ui);
        } else {
            c = 0.;
        }
        /* reduce u into [sqrt(2)/2, sqrt(2)] */
        hu = (hu & 0x000fffff) + 0x3fe6a09e;
        ui = ((hu as u64) << 32) | (ui & 0xffffffff);
        f = f64::from_bits(ui) - 1.;
    }
    hfsq = 0.5 * f * f;
    s = f / (2.0 + f);
    z = s * s;
    w = z * z;
    t1 = w * (LG2 + w * (LG4 + w * LG6));
    t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    r = t2 + t1;
    dk = k as f64;
    s * (hfsq + r) + (dk * LN2_LO + c) - hfsq + f + dk * LN2_HI
}
}

/// `math/sinh.rs`
pub mod sinh {
use super::{expm1::expm1, expo2::expo2};

// sinh(x) = (exp(x) - 1/exp(x))/2
//         = (exp(x)-1 + (exp(x)-1)/exp(x))/2
//         = x + x^3/6 + o(x^5)
//

/// The hyperbolic sine of `x` (f64).
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub fn sinh(x: f64) -> f64 {
    // union {double f; uint64_t i;} u = {.f = x};
    // uint32_t w;
    // double t, h, absx;

    let mut uf: f64 = x;
    let mut ui: u64 = f64::to_bits(uf);
    let w: u32;
    let t: f64;
    let mut h: f64;
    let absx: f64;

    h = 0.5;
    if ui >> 63 != 0 {
        h = -h;
    }
    /* |x| */
    ui &= !1 / 2;
    uf = f64::from_bits(ui);
    absx = uf;
    w = (ui >> 32) as u32;

    /* |x| < log(DBL_MAX) */
    if w < 0x40862e42 {
        t = expm1(absx);
        if w < 0x3ff00000 {
            if w < 0x3ff00000 - (26 << 20) {
                /* note: inexact and underflow are raised by expm1 */
                /* note: this branch avoids spurious underflow */
                return x;
            }
            return h * (2.0 * t - t * t / (t + 1.0));
        }
        /* note: |x|>log(0x1p26)+eps could be just h*exp(x) */
        return h * (t + t / (t + 1.0));
    }

    /* |x| > log(DBL_MAX) or nan */
    /* note: the result is stored to handle overflow */
    t = 2.0 * h * expo2(absx);
    t
}
}

/// `math/cosh.rs`
pub mod cosh {
use super::{exp::exp, expm1::expm1, k_expo2::k_expo2};

/// Hyperbolic cosine (f64)
///
/// Computes the hyperbolic cosine of the argument x.
/// Is defined as `(exp(x) + exp(-x))/2`
/// Angles are specified in radians.
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub fn cosh(mut x: f64) -> f64 {
    /* |x| */
    let mut ix = x.to_bits();
    ix &= 0x7fffffffffffffff;
    x = f64::from_bits(ix);
    let w = ix >> 32;

    /* |x| < log(2) */
    if w < 0x3fe62e42 {
        if w < 0x3ff00000 - (26 << 20) {
            let x1p120 = f64::from_bits(0x4770000000000000);
            force_eval!(x + x1p120);
            return 1.;
        }
        let t = expm1(x); // exponential minus 1
        return 1. + t * t / (2. * (1. + t));
    }

    /* |x| < log(DBL_MAX) */
    if w < 0x40862e42 {
        let t = exp(x);
        /* note: if x>log(0x1p26) then the 1/t is not needed */
        return 0.5 * (t + 1. / t);
    }

    /* |x| > log(DBL_MAX) or nan */
    k_expo2(x)
}
}

/// `math/tanh.rs`
pub mod tanh {
use super::expm1::expm1;

/* tanh(x) = (exp(x) - exp(-x))/(exp(x) + exp(-x))
 *         = (exp(2*x) - 1)/(exp(2*x) - 1 + 2)
 *         = (1 - exp(-2*x))/(exp(-2*x) - 1 + 2)
 */

/// The hyperbolic tangent of `x` (f64).
///
/// `x` is specified in radians.
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub fn tanh(mut x: f64) -> f64 {
    let mut uf: f64 = x;
    let mut ui: u64 = f64::to_bits(uf);

    let w: u32;
    let sign: bool;
    let mut t: f64;

    /* x = |x| */
    sign = ui >> 63 != 0;
    ui &= !1 / 2;
    uf = f64::from_bits(ui);
    x = uf;
    w = (ui >> 32) as u32;

    if w > 0x3fe193ea {
        /* |x| > log(3)/2 ~= 0.5493 or nan */
        if w > 0x40340000 {
            /* |x| > 20 or nan */
            /* note: this branch avoids raising overflow */
            t = 1.0 - 0.0 / x;
        } else {
            t = expm1(2.0 * x);
            t = 1.0 - 2.0 / (t + 2.0);
        }
    } else if w > 0x3fd058ae {
        /* |x| > log(5/3)/2 ~= 0.2554 */
        t = expm1(2.0 * x);
        t = t / (t + 2.0);
    } else if w >= 0x00100000 {
        /* |x| >= 0x1p-1022, up to 2ulp error in [0.1,0.2554] */
        t = expm1(-2.0 * x);
        t = -t / (t + 2.0);
    } else {
        /* |x| is subnormal */
        /* note: the branch above would not raise underflow in [0x1p-1023,0x1p-1022) */
        force_eval!(x as f32);
        t = x;
    }

    if sign { -t } else { t }
}
}

/// `math/asinh.rs`
pub mod asinh {
use super::{log::log, log1p::log1p, sqrt};

const LN2: f64 = 0.693147180559945309417232121458176568; /* 0x3fe62e42,  0xfefa39ef*/

/* asinh(x) = sign(x)*log(|x|+sqrt(x*x+1)) ~= x - x^3/6 + o(x^5) */
/// Inverse hyperbolic sine (f64)
///
/// Calculates the inverse hyperbolic sine of `x`.
/// Is defined as `sgn(x)*log(|x|+sqrt(x*x+1))`.
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub fn asinh(mut x: f64) -> f64 {
    let mut u = x.to_bits();
    let e = ((u >> 52) as usize) & 0x7ff;
    let sign = (u >> 63) != 0;

    /* |x| */
    u &= (!0) >> 1;
    x = f64::from_bits(u);

    if e >= 0x3ff + 26 {
        /* |x| >= 0x1p26 or inf or nan */
        x = log(x) + LN2;
    } else if e >= 0x3ff + 1 {
        /* |x| >= 2 */
        x = log(2.0 * x + 1.0 / (sqrt(x * x + 1.0) + x));
    } else if e >= 0x3ff - 26 {
        /* |x| >= 0x1p-26, up to 1.6ulp error in [0.125,0.5] */
        x = log1p(x + x * x / (sqrt(x * x + 1.0) + 1.0));
    } else {
        /* |x| < 0x1p-26, raise inexact if x != 0 */
        let x1p120 = f64::from_bits(0x4770000000000000);
        force_eval!(x + x1p120);
    }

    if sign { -x } else { x }
}
}

/// `math/acosh.rs`
pub mod acosh {
use super::{log::log, log1p::log1p, sqrt};

const LN2: f64 = 0.693147180559945309417232121458176568; /* 0x3fe62e42,  0xfefa39ef*/

/// Inverse hyperbolic cosine (f64)
///
/// Calculates the inverse hyperbolic cosine of `x`.
/// Is defined as `log(x + sqrt(x*x-1))`.
/// `x` must be a number greater than or equal to 1.
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub fn acosh(x: f64) -> f64 {
    let u = x.to_bits();
    let e = ((u >> 52) as usize) & 0x7ff;

    /* x < 1 domain error is handled in the called functions */

    if e < 0x3ff + 1 {
        /* |x| < 2, up to 2ulp error in [1,1.125] */
        return log1p(x - 1.0 + sqrt((x - 1.0) * (x - 1.0) + 2.0 * (x - 1.0)));
    }
    if e < 0x3ff + 26 {
        /* |x| < 0x1p26 */
        return log(2.0 * x - 1.0 / (x + sqrt(x * x - 1.0)));
    }
    /* |x| >= 0x1p26 or nan */
    return log(x) + LN2;
}
}

/// `math/atanh.rs`
pub mod atanh {
use super::log1p::log1p;

/* atanh(x) = log((1+x)/(1-x))/2 = log1p(2x/(1-x))/2 ~= x + x^3/3 + o(x^5) */
/// Inverse hyperbolic tangent (f64)
///
/// Calculates the inverse hyperbolic tangent of `x`.
/// Is defined as `log((1+x)/(1-x))/2 = log1p(2x/(1-x))/2`.
#[cfg_attr(assert_no_panic, no_panic::no_panic)]
#[fwdad::derive_frule]
pub fn atanh(x: f64) -> f64 {
    let u = x.to_bits();
    let e = ((u >> 52) as usize) & 0x7ff;
    let sign = (u >> 63) != 0;

    /* |x| */
    let mut y = f64::from_bits(u & 0x7fff_ffff_ffff_ffff);

    if e < 0x3ff - 1 {
        if e < 0x3ff - 32 {
            /* handle underflow */
            if e == 0 {
                force_eval!(y as f32);
            }
        } else {
            /* |x| < 0.5, up to 1.7ulp error */
            y = 0.5 * log1p(2.0 * y + 2.0 * y * y / (1.0 - y));
        }
    } else {
        /* avoid overflow */
        y = 0.5 * log1p(2.0 * (y / (1.0 - y)));
    }

    if sign { -y } else { y }
}
}

/// `math/hypot.rs`
pub mod hypot {
use super::sqrt;

const SPLIT: f64 = 134217728. + 1.; // 0x1p27 + 1 === (2 ^ 27) + 1

fn sq(x: f64) -> (f64, f64) {
    let xh: f64;
    let xl: f64;
    let xc: f64;

    xc = x * SPLIT;
    xh = x - xc + xc;
    xl = x - xh;
    let hi = x * x;
    let lo = xh * xh - hi + 2. * xh * xl + xl * xl;
    (hi, lo)
}

#[cfg_attr(assert_no_panic, no_panic::no_panic)]
// Not `#[fwdad::derive_frule]`: `|x|` and `|y|` are taken by clearing their sign bits
// (which the macro reads as `copysign`), but then swapped by their bits (`if uxi < uyi`) and
// rebuilt after the merge (`x = f64::from_bits(uxi)`), where no derivative can follow which
// float the bits came from; the macro says so at `f64::from_bits`. Its rule by hand:
#[fwdad::primitive(d = (x / r, y / r), result = r)]
pub fn hypot(mut x: f64, mut y: f64) -> f64 {
    let x1p700 = f64::from_bits(0x6bb0000000000000); // 0x1p700 === 2 ^ 700
    let x1p_700 = f64::from_bits(0x1430000000000000); // 0x1p-700 === 2 ^ -700

    let mut uxi = x.to_bits();
    let mut uyi = y.to_bits();
    let uti;
    let ex: i64;
    let ey: i64;
    let mut z: f64;

    /* arrange |x| >= |y| */
    uxi &= -1i64 as u64 >> 1;
    uyi &= -1i64 as u64 >> 1;
    if uxi < uyi {
        uti = uxi;
        uxi = uyi;
        uyi = uti;
    }

    /* special cases */
    ex = (uxi >> 52) as i64;
    ey = (uyi >> 52) as i64;
    x = f64::from_bits(uxi);
    y = f64::from_bits(uyi);
    /* note: hypot(inf,nan) == inf */
    if ey == 0x7ff {
        return y;
    }
    if ex == 0x7ff || uyi == 0 {
        return x;
    }
    /* note: hypot(x,y) ~= x + y*y/x/2 with inexact for small y/x */
    /* 64 difference is enough for ld80 double_t */
    if ex - ey > 64 {
        return x + y;
    }

    /* precise sqrt argument in nearest rounding mode without overflow */
    /* xh*xh must not overflow and xl*xl must not underflow in sq */
    z = 1.;
    if ex > 0x3ff + 510 {
        z = x1p700;
        x *= x1p_700;
        y *= x1p_700;
    } else if ey < 0x3ff - 450 {
        z = x1p_700;
        x *= x1p700;
        y *= x1p700;
    }
    let (hx, lx) = sq(x);
    let (hy, ly) = sq(y);
    z * sqrt(ly + lx + hy + hx)
}
}

}

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;
use fwdad::prelude::*;

/// Points in each of `atan`'s reduction intervals (|x| < 2⁻²⁷, [2⁻²⁷, 7/16), [7/16, 11/16),
/// [11/16, 19/16), [19/16, 39/16), [39/16, 2⁶⁶)) and beyond, of both signs.
const ATAN_POINTS: [f64; 16] = [
    1e-10, -3e-9, 0.1, -0.3, 0.45, 0.6, -0.65, 0.7, 1.0, -1.1, 1.3, 2.0, -2.4, 2.5, -30.0, 1e6,
];

#[test]
fn atan_against_its_derivative_and_the_published_crate() {
    for x in ATAN_POINTS {
        let (v, d) = derivative(math::atan::atan {}, x);
        assert_eq!(v.to_bits(), libm::atan(x).to_bits(), "atan({x})");
        // Below 2⁻²⁷ libm returns `x` itself, off from atan by x³/3: its slope and curvature
        // (1 and 0) are off by x² and 2x.
        let tiny = x.abs() < 2f64.powi(-27);
        let want = 1.0 / (1.0 + x * x);
        assert_close(d, want, 1e-15, &format!("atan'({x})"));
        // atan'' = −2x/(1+x²)².
        let (v2, d1, d2) = fwdad::drivers::second_derivative(math::atan::atan {}, x);
        assert_eq!(v2.to_bits(), v.to_bits());
        assert_close(d1, d, 1e-15, &format!("atan'({x}) at second order"));
        let want2 = -2.0 * x / ((1.0 + x * x) * (1.0 + x * x));
        if tiny {
            assert_eq!(
                (d, d2),
                (1.0, 0.0),
                "atan at {x}: the slope and curvature of `x`"
            );
        } else {
            assert_close(d2, want2, 1e-14, &format!("atan''({x})"));
        }
    }
}

#[test]
fn atan2_in_every_quadrant() {
    // The four quadrants, the axes' neighbourhoods, |y/x| large and small, x = 1 exactly
    // (which returns `atan(y)`).
    let points = [
        (1.0, 2.0),
        (-1.0, 2.0),
        (1.0, -2.0),
        (-1.0, -2.0),
        (3.0, 0.1),
        (-3.0, -0.1),
        (0.5, 1.5),
        (-0.5, 0.75),
        (1e-3, -4.0),
        (2.0, 1e-3),
        (0.25, -0.7),
    ];
    for (y, x) in points {
        let r2 = x * x + y * y;
        let (v, g) = gradient(bind(math::atan2::atan2 {}, (Var(0), Var(1))), &[y, x]);
        assert_eq!(v.to_bits(), libm::atan2(y, x).to_bits(), "atan2({y}, {x})");
        assert_close(g[0], x / r2, 1e-15, &format!("∂atan2/∂y at ({y}, {x})"));
        assert_close(g[1], -y / r2, 1e-15, &format!("∂atan2/∂x at ({y}, {x})"));
        check_widths!(
            bind(math::atan2::atan2 {}, (Var(0), Var(1))),
            |p: &[f64]| libm::atan2(p[0], p[1]),
            [y, x]
        );
    }
}

/// At `x = 1` exactly, libm's `atan2` returns `atan(y)` (its test reads `x`'s bits): the
/// rule differentiates the branch taken (docs/design.md, "Derivatives along the branch
/// taken"), whose slope in `x` is 0, where atan2's is −y/(x² + y²). Directions that keep
/// `x = 1` are right.
#[test]
fn where_atan2_snaps_at_x_one() {
    let y = 0.5;
    let (v, g) = gradient(bind(math::atan2::atan2 {}, (Var(0), Var(1))), &[y, 1.0]);
    assert_eq!(v.to_bits(), libm::atan2(y, 1.0).to_bits());
    assert_eq!(v.to_bits(), libm::atan(y).to_bits());
    assert_close(g[0], 1.0 / (1.0 + y * y), 1e-15, "∂atan2/∂y at x = 1");
    assert_eq!(g[1], 0.0, "∂atan2/∂x at x = 1: the branch `return atan(y)`");
    // A step off 1 takes the general path, and the slope in x is there.
    let (_, g) = gradient(
        bind(math::atan2::atan2 {}, (Var(0), Var(1))),
        &[y, 1.0 + f64::EPSILON],
    );
    assert_close(g[1], -y / (1.0 + y * y), 1e-12, "∂atan2/∂x next to x = 1");
}

#[test]
fn exp_against_itself() {
    // |x| < 2⁻²⁸, below and above ½ ln 2 and 1.5 ln 2, the reduction's far range, near
    // overflow and in the subnormal results.
    for x in [
        1e-10, -2e-9, 0.2, -0.3, 0.5, 0.8, -1.0, 1.5, 3.0, -7.5, 20.0, -40.0, 300.0, 700.0,
    ] {
        let (v, d) = derivative(math::exp::exp {}, x);
        assert_eq!(v.to_bits(), libm::exp(x).to_bits(), "exp({x})");
        if x.abs() < 2f64.powi(-28) {
            // libm returns `1 + x` there: slope 1, off from exp(x) by about x.
            assert_eq!(d, 1.0, "exp'({x}) of `1 + x`");
            continue;
        }
        // exp' = exp: the derivative is the function's own value, to a few roundings.
        assert!(
            (d - v).abs() <= 4.0 * f64::EPSILON * v,
            "exp'({x}) = {d}, exp({x}) = {v}"
        );
        let (_, _, d2) = fwdad::drivers::second_derivative(math::exp::exp {}, x);
        assert!(
            (d2 - v).abs() <= 8.0 * f64::EPSILON * v,
            "exp''({x}) = {d2}, exp({x}) = {v}"
        );
    }
}

#[test]
fn log_against_its_derivative() {
    for x in [
        1e-300, 1e-5, 0.3, 0.7, 0.99, 1.0, 1.01, 1.5, 2.0, 10.0, 12345.678, 1e200,
    ] {
        let (v, d) = derivative(math::log::log {}, x);
        assert_eq!(v.to_bits(), libm::log(x).to_bits(), "log({x})");
        assert_close(d * x, 1.0, 1e-15, &format!("log'({x}) · {x}"));
    }
}

#[test]
fn compositions_in_every_mode() {
    // A polar angle and the log-sum-exp of two scores, as a caller of libm writes them.
    check_widths!(
        bind(math::atan2::atan2 {}, (Var(0), Var(1))),
        |p: &[f64]| libm::atan2(p[0], p[1]),
        [0.3, -1.7]
    );
    for x in [0.4, -1.3, 2.6] {
        check_widths!(
            bind(math::atan::atan {}, (Var(0),)),
            |p: &[f64]| libm::atan(p[0]),
            [x]
        );
        check_widths!(
            bind(math::exp::exp {}, (Var(0),)),
            |p: &[f64]| libm::exp(p[0]),
            [x]
        );
    }
    for x in [0.4, 1.3, 26.0] {
        check_widths!(
            bind(math::log::log {}, (Var(0),)),
            |p: &[f64]| libm::log(p[0]),
            [x]
        );
    }
}

/// `(f(x), f'(x), f''(x))` of a one-argument rule at `x`, in one direction and at second
/// order, both primals bit for bit against the published function.
macro_rules! slopes {
    ($rule:expr, $published:expr, $x:expr, $name:expr) => {{
        let (x, name): (f64, &str) = ($x, $name);
        let published: f64 = $published(x);
        let (v, d): (f64, f64) = derivative($rule, x);
        assert_eq!(
            v.to_bits(),
            published.to_bits(),
            "{name}({x}): {v} against the published {published}"
        );
        let (v2, d1, d2) = fwdad::drivers::second_derivative($rule, x);
        assert_eq!(v2.to_bits(), v.to_bits(), "{name}({x}) at second order");
        // The first derivative at second order, to a rounding or two (its products are
        // grouped otherwise).
        assert!(
            (d1 - d).abs() <= 4.0 * f64::EPSILON * d.abs(),
            "{name}'({x}) at second order: {d1} against {d}"
        );
        (v, d, d2)
    }};
}

/// Relative closeness, for values spanning many orders of magnitude.
fn rel(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(f64::MIN_POSITIVE),
        "{what}: {got} against {want}"
    );
}

#[test]
fn expm1_against_exp() {
    // |x| < 2⁻⁵⁴ (returns x), k = 0 (|x| < ½ ln 2), k = ±1, k < 20, k ≥ 20, past 56 ln 2
    // both ways.
    for x in [
        1e-20, -3e-17, 1e-10, 0.1, -0.3, 0.5, -0.5, 0.9, -1.0, 2.0, -3.0, 10.0, 14.0, 30.0, 40.0,
        -40.0, 700.0,
    ] {
        let (v, d, d2) = slopes!(math::expm1::expm1 {}, libm::expm1, x, "expm1");
        if x < -38.0 {
            // libm returns −1 there: slope 0, off from eˣ by less than 10⁻¹⁶.
            assert_eq!((d, d2), (0.0, 0.0), "expm1 at {x}: the constant −1");
            continue;
        }
        if x.abs() < 2f64.powi(-54) {
            assert_eq!((d, d2), (1.0, 0.0), "expm1 at {x}: the slope of `x`");
            continue;
        }
        // expm1' = expm1'' = eˣ = expm1 + 1.
        rel(d, v + 1.0, 4.0 * f64::EPSILON, &format!("expm1'({x})"));
        rel(d2, v + 1.0, 8.0 * f64::EPSILON, &format!("expm1''({x})"));
    }
}

#[test]
fn sinh_cosh_tanh_against_each_other() {
    // Each reduction's range: tiny (returned as is), below and above 1 and log 2, |x| >
    // log(3)/2, past 20 (tanh's 1), both signs, and past log(DBL_MAX), where `expo2`
    // scales `exp(x − k ln 2) · 2^1021 · 2^1021`: the primal stays finite, and so does the
    // derivative (the linearised coefficient 2^1021 · 2^1021 overflows, and the rule then
    // applies the factors to the tangent one by one: docs/design.md, "overflow guard";
    // `tests/derive_overflow12.rs`).
    for x in [
        1e-10, -2e-9, 0.2, -0.45, 0.7, -1.2, 3.0, -8.5, 22.0, -30.0, 300.0, 709.0, 710.0, -710.0,
        710.4,
    ] {
        let (s, ds, dds) = slopes!(math::sinh::sinh {}, libm::sinh, x, "sinh");
        let (c, dc, ddc) = slopes!(math::cosh::cosh {}, libm::cosh, x, "cosh");
        // sinh' = cosh, sinh'' = sinh.
        rel(
            ds,
            libm::cosh(x),
            4.0 * f64::EPSILON,
            &format!("sinh'({x})"),
        );
        if x.abs() < 2f64.powi(-26) {
            // sinh returns x itself there (slope 1, curvature 0); cosh returns 1 (slope 0,
            // off from sinh x = x by x).
            assert_eq!(dds, 0.0, "sinh''({x}) of `x`");
            assert_eq!((c, dc, ddc), (1.0, 0.0, 0.0), "cosh at {x}: the constant 1");
            continue;
        }
        rel(dds, s, 4.0 * f64::EPSILON, &format!("sinh''({x})"));
        // cosh' = sinh, cosh'' = cosh.
        rel(
            dc,
            libm::sinh(x),
            4.0 * f64::EPSILON,
            &format!("cosh'({x})"),
        );
        rel(ddc, c, 4.0 * f64::EPSILON, &format!("cosh''({x})"));
        {
            // tanh' = 1 − tanh², tanh'' = −2 tanh (1 − tanh²); past |x| = 20 libm returns
            // ±1 (`1 - 0/x`), whose slope 0 is within 10⁻¹⁷ of the true one.
            let (t, dt, ddt) = slopes!(math::tanh::tanh {}, libm::tanh, x, "tanh");
            let sech2 = 1.0 / (libm::cosh(x) * libm::cosh(x));
            assert_close(dt, sech2, 4.0 * f64::EPSILON, &format!("tanh'({x})"));
            assert_close(
                ddt,
                -2.0 * t * sech2,
                8.0 * f64::EPSILON,
                &format!("tanh''({x})"),
            );
        }
    }
    // tanh of a subnormal is the subnormal (slope 1).
    let (_, dt, _) = slopes!(math::tanh::tanh {}, libm::tanh, 1e-310, "tanh");
    assert_eq!(dt, 1.0);
}

/// Past log(DBL_MAX) in batches: `expo2`'s chain `exp(x − k ln 2) · s · s` is linearised
/// there too, and its coefficient `s · s` overflows (the overflow guard's sweep).
#[test]
fn sinh_cosh_past_the_overflow_threshold_in_batches() {
    for x in [709.8, 710.0, -710.0, 710.4] {
        let (s, c) = (libm::sinh(x), libm::cosh(x));
        assert!(s.is_finite() && c.is_finite());
        let (v, g) = fwdad::drivers::gradient_with::<2>(bind(math::sinh::sinh {}, (Var(0),)), &[x]);
        assert_eq!(v.to_bits(), s.to_bits());
        rel(
            g[0],
            c,
            4.0 * f64::EPSILON,
            &format!("sinh'({x}) in batches"),
        );
        let (v, g) = fwdad::drivers::gradient(bind(math::cosh::cosh {}, (Var(0),)), &[x]);
        assert_eq!(v.to_bits(), c.to_bits());
        rel(
            g[0],
            s,
            4.0 * f64::EPSILON,
            &format!("cosh'({x}), gradient"),
        );
        let (v, g) = fwdad::drivers::gradient_with::<4>(bind(math::cosh::cosh {}, (Var(0),)), &[x]);
        assert_eq!(v.to_bits(), c.to_bits());
        rel(
            g[0],
            s,
            4.0 * f64::EPSILON,
            &format!("cosh'({x}) in batches"),
        );
    }
}

/// The absolute value taken by clearing the sign bit (`ui &= !1 / 2; f64::from_bits(ui)`)
/// at ±0: the bits' branch is `x` at `+0.0` and `−x` at `-0.0`, slope ±1 (`copysign`'s),
/// and the functions put the sign back from the same bit, so their slope at 0 is 1, the
/// true one (with `abs`'s convention, 0 at 0, it would be 0).
#[test]
fn odd_functions_at_zero() {
    for x in [0.0, -0.0] {
        assert_eq!(slopes!(math::sinh::sinh {}, libm::sinh, x, "sinh").1, 1.0);
        assert_eq!(slopes!(math::tanh::tanh {}, libm::tanh, x, "tanh").1, 1.0);
        assert_eq!(
            slopes!(math::asinh::asinh {}, libm::asinh, x, "asinh").1,
            1.0
        );
        assert_eq!(
            slopes!(math::atanh::atanh {}, libm::atanh, x, "atanh").1,
            1.0
        );
        // cosh returns 1 there.
        assert_eq!(slopes!(math::cosh::cosh {}, libm::cosh, x, "cosh").1, 0.0);
    }
}

#[test]
fn inverse_hyperbolic_functions_against_their_derivatives() {
    for x in [
        1e-10, -2e-8, 0.1, -0.3, 0.5, -0.9, 1.7, -2.5, 40.0, -1e5, 1e8, -2e9,
    ] {
        let (_, d, d2) = slopes!(math::asinh::asinh {}, libm::asinh, x, "asinh");
        if x.abs() < 2f64.powi(-26) {
            // asinh returns ±|x| there: slope 1, curvature 0.
            assert_eq!((d, d2), (1.0, 0.0), "asinh at {x}: `x`");
            continue;
        }
        // asinh' = 1/√(1+x²), asinh'' = −x/(1+x²)^{3/2}.
        let r = (1.0 + x * x).sqrt();
        rel(d, 1.0 / r, 4.0 * f64::EPSILON, &format!("asinh'({x})"));
        // Through `log1p(u)`, f'' = u''/(1+u) − u'²/(1+u)², two terms near 1 whose
        // difference is −x/(1+x²)^{3/2}: a cancellation, to a few roundings of 1.
        assert_close(
            d2,
            -x / (r * r * r),
            8.0 * f64::EPSILON,
            &format!("asinh''({x})"),
        );
    }
    for x in [1.01, 1.1, 1.5, 1.99, 2.0, 3.0, 40.0, 1e7, 1e9] {
        let (_, d, d2) = slopes!(math::acosh::acosh {}, libm::acosh, x, "acosh");
        // acosh' = 1/√(x²−1), acosh'' = −x/(x²−1)^{3/2}.
        let r = ((x - 1.0) * (x + 1.0)).sqrt();
        rel(d, 1.0 / r, 16.0 * f64::EPSILON, &format!("acosh'({x})"));
        assert_close(
            d2,
            -x / (r * r * r),
            32.0 * f64::EPSILON,
            &format!("acosh''({x})"),
        );
    }
    for x in [1e-12, -3e-11, 0.1, -0.3, 0.45, 0.5, -0.7, 0.95, -0.999] {
        let (_, d, d2) = slopes!(math::atanh::atanh {}, libm::atanh, x, "atanh");
        if x.abs() < 2f64.powi(-31) {
            assert_eq!((d, d2), (1.0, 0.0), "atanh at {x}: `x`");
            continue;
        }
        // atanh' = 1/(1−x²), atanh'' = 2x/(1−x²)².
        let q = (1.0 - x) * (1.0 + x);
        rel(d, 1.0 / q, 8.0 * f64::EPSILON, &format!("atanh'({x})"));
        assert_close(
            d2,
            2.0 * x / (q * q),
            16.0 * f64::EPSILON,
            &format!("atanh''({x})"),
        );
    }
    for x in [1e-17, -0.2, 0.3, 2.0, 1e10] {
        let (_, d, _) = slopes!(math::log1p::log1p {}, libm::log1p, x, "log1p");
        rel(d, 1.0 / (1.0 + x), f64::EPSILON, &format!("log1p'({x})"));
    }
}

#[test]
fn hyperbolic_compositions_in_every_mode() {
    // A softplus through `log1p` and `exp`, a catenary's arc length, a saturating gain:
    // as a caller of libm writes them, against central differences of the published crate.
    for x in [-1.3, 0.2, 0.9, 2.6] {
        check_widths!(
            bind(math::sinh::sinh {}, (Var(0),)),
            |p: &[f64]| libm::sinh(p[0]),
            [x]
        );
        check_widths!(
            bind(math::cosh::cosh {}, (Var(0),)),
            |p: &[f64]| libm::cosh(p[0]),
            [x]
        );
        check_widths!(
            bind(math::tanh::tanh {}, (Var(0),)),
            |p: &[f64]| libm::tanh(p[0]),
            [x]
        );
        check_widths!(
            bind(math::asinh::asinh {}, (Var(0),)),
            |p: &[f64]| libm::asinh(p[0]),
            [x]
        );
        check_widths!(
            bind(math::expm1::expm1 {}, (Var(0),)),
            |p: &[f64]| libm::expm1(p[0]),
            [x]
        );
    }
    for x in [-0.6, 0.05, 0.8] {
        check_widths!(
            bind(math::atanh::atanh {}, (Var(0),)),
            |p: &[f64]| libm::atanh(p[0]),
            [x]
        );
    }
    for x in [1.2, 2.5, 90.0] {
        check_widths!(
            bind(math::acosh::acosh {}, (Var(0),)),
            |p: &[f64]| libm::acosh(p[0]),
            [x]
        );
    }
}
