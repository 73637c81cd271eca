//! color_space 0.5.4 (MIT, Copyright (c) 2020 Chevy Ray Johnston,
//! <https://github.com/ChevyRay/color_space>), a port of berendeanicolae's ColorSpace:
//! conversions between RGB and CMY, CMYK, HSL, HSV, Hunter Lab, CIE L\*a\*b\*, LCh, L\*u\*v\*,
//! XYZ and Yxy, each a struct of `f64`s with the traits `FromRgb` (`fn from_rgb(rgb: &Rgb)
//! -> Self`, no `self`) and `ToRgb` (`fn to_rgb(&self) -> Rgb`), and colour differences.
//! The crate's `src/lib.rs` is copied here as this file's root, each module inline as the
//! crate formats it (`#[rustfmt::skip]`), with `#[fwdad::derive_frule]` on the traits
//! `FromRgb` and `ToRgb`, on every `impl FromRgb`/`impl ToRgb` and inherent `impl` (the
//! constructors, `Rgb::from_hex`), and on `xyz::srgb_to_linear` and `compare`'s helpers
//! (`sqr`, `dist`, `deg_to_rad`, `rad_to_deg`), and `fwdad::Differentiable` added to every
//! colour's derive list; nothing left out. One path is changed, not for fwdad: the root's
//! `pub(crate) use approx::approx;` (the module `approx` and its function) is written
//! `use self::approx::approx;`, since this test crate depends on the `approx` crate too and
//! the 2018 edition's `use approx::..` would be ambiguous between the two. `rustfmt` sorts
//! the root's `use` lines.
//!
//! Left plain: the generic trait `FromColor<T: ToRgb>` with the `impl_from!` macro's `impl
//! FromColor<Rgb> for Lab` (and the other 120), and the colour differences, the generic
//! traits `CompareEuclidean<T>`, `CompareCie1976<T>`, `CompareCie2000<T>` and
//! `CompareCmc<T>` with their blanket `impl<T, U> CompareCie2000<U> for T where T: ToRgb,
//! Lab: FromColor<T>, ..`: `docs/limits.md` (a generic trait). The `PartialEq` impls (a
//! relative tolerance, `bool`) are plain too.
//!
//! Checked: every `from_rgb` and `to_rgb` (Jacobians with respect to the three or four
//! components) against central differences of the published crate, each primal bit for
//! bit against it; CMY and XYZ from RGB against their closed forms (the sRGB transfer
//! curve's derivative), the HSV and HSL round trips against the identity, L\*a\*b\*'s
//! lightness against the CIE formula's derivative; second order in every mode on a chain
//! of conversions (RGB → L\*a\*b\* → LCh → RGB).

// The crate's modules keep their own imports, some unused here; its `approx` reads
// `std::f64::EPSILON` and `std::f64::MAX`.
#![allow(dead_code, unused_imports, clippy::legacy_numeric_constants)]

mod common;

// ---- color_space 0.5.4, src/lib.rs (its crate documentation is kept as comments) ----

// A library for converting between color spaces and comparing colors, ported from https://github.com/berendeanicolae/ColorSpace.
//
// ## Color Conversion
// You can convert between any supported color spaces using the `from` trait method:
// ```rust
// use color_space::{Rgb, Hsv};
// let rgb = Rgb::new(0.0, 255.0, 0.0);
// let hsv = Hsv::from(rgb);
// assert_eq!(hsv, Hsv::new(120.0, 1.0, 1.0));
// ```
//
// You can also do this generically with the `from_color` method:
// ```rust
// use color_space::{Rgb, Hsv, FromColor};
// let rgb = Rgb::new(0.0, 0.0, 255.0);
// let hsv = Hsv::from_color(&rgb);
// assert_eq!(hsv, Hsv::new(240.0, 1.0, 1.0));
// ```
//
// ## Comparing Colors
// You can compare colors by using the `compare_*` methods:
// ```rust
// use color_space::{Rgb, Hsv, CompareCie2000};
// let rgb = Rgb::new(255.0, 0.0, 0.0);
// let hsv = Hsv::new(0.0, 1.0, 1.0);
// let diff = rgb.compare_cie2000(&hsv);
// assert_eq!(diff, 0.0);
// // these two colors are the same, so the difference is zero
// ```

// ---- src/cmy.rs ----
#[rustfmt::skip]
mod cmy {
    use crate::{ Rgb, FromRgb, ToRgb, approx };

    /// A CMY color (cyan, magenta, yellow).
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct Cmy {
        pub c: f64,
        pub m: f64,
        pub y: f64,
    }

    #[fwdad::derive_frule]
    impl Cmy {
        /// Create a new CYM color.
        /// 
        /// `c`: cyan component (0 to 1)
        /// 
        /// `m`: magenta component (0 to 1)
        /// 
        /// `y`: yellow component (0 to 1)
        #[inline]
        pub fn new(c: f64, m: f64, y: f64) -> Self {
            Self { c, m, y }
        }
    }

    impl PartialEq for Cmy {
        fn eq(&self, other: &Self) -> bool {
            approx(self.c, other.c) &&
            approx(self.m, other.m) &&
            approx(self.y, other.y)
        }
    }

    #[fwdad::derive_frule]
    impl FromRgb for Cmy {
        fn from_rgb(rgb: &Rgb) -> Self {
            Self::new(
                1.0 - rgb.r / 255.0,
                1.0 - rgb.g / 255.0,
                1.0 - rgb.b / 255.0
            )
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for Cmy {
        fn to_rgb(&self) -> Rgb {
            Rgb::new(
                (1.0 - self.c) * 255.0,
                (1.0 - self.m) * 255.0,
                (1.0 - self.y) * 255.0
            )
        }
    }
}
// ---- src/cmyk.rs ----
#[rustfmt::skip]
mod cmyk {
    use crate::{ Rgb, FromRgb, ToRgb, Cmy, approx };

    /// A CMYK color (cyan, magenta, yellow, key).
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct Cmyk {
        pub c: f64,
        pub m: f64,
        pub y: f64,
        pub k: f64,
    }

    #[fwdad::derive_frule]
    impl Cmyk {
        /// Create a new CYMK color.
        /// 
        /// `c`: cyan component (0 to 1)
        /// 
        /// `m`: magenta component (0 to 1)
        /// 
        /// `y`: yellow component (0 to 1)
        /// 
        /// `k`: key (black) component (0 to 1)
        #[inline]
        pub fn new(c: f64, m: f64, y: f64, k: f64) -> Self {
            Self { c, m, y, k }
        }
    }

    impl PartialEq for Cmyk {
        fn eq(&self, other: &Self) -> bool {
            approx(self.c, other.c) &&
            approx(self.m, other.m) &&
            approx(self.y, other.y) &&
            approx(self.k, other.k) 
        }
    }

    #[fwdad::derive_frule]
    impl FromRgb for Cmyk {
        fn from_rgb(rgb: &Rgb) -> Self {
            let cmy = Cmy::from_rgb(rgb);
            let k = cmy.c.min(cmy.m.min(cmy.y.min(1.0)));
            match (k - 1.0).abs() < 1e-3 {
                true => Self::new(0.0, 0.0, 0.0, k),
                false => Self::new(
                    (cmy.c - k) / (1.0 - k),
                    (cmy.m - k) / (1.0 - k),
                    (cmy.y - k) / (1.0 - k),
                    k
                )
            }
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for Cmyk {
        fn to_rgb(&self) -> Rgb {
            Cmy::new(
                self.c * (1.0 - self.k) + self.k,
                self.m * (1.0 - self.k) + self.k,
                self.y * (1.0 - self.k) + self.k
            ).to_rgb()
        }
    }
}
// ---- src/hsl.rs ----
#[rustfmt::skip]
mod hsl {
    use crate::{approx, FromRgb, Rgb, ToRgb};

    /// An HSL color (hue, saturation, light).
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct Hsl {
        pub h: f64,
        pub s: f64,
        pub l: f64,
    }

    #[fwdad::derive_frule]
    impl Hsl {
        /// Create a new HSL color.
        ///
        /// `h`: hue component (0 to 360)
        ///
        /// `s`: saturation component (0 to 1)
        ///
        /// `l`: light component (0 to 1)
        #[inline]
        pub fn new(h: f64, s: f64, l: f64) -> Self {
            Self { h, s, l }
        }
    }

    impl PartialEq for Hsl {
        fn eq(&self, other: &Self) -> bool {
            approx(self.h, other.h) && approx(self.s, other.s) && approx(self.l, other.l)
        }
    }

    #[fwdad::derive_frule]
    impl FromRgb for Hsl {
        fn from_rgb(rgb: &Rgb) -> Self {
            let red = rgb.r / 255.0;
            let green = rgb.g / 255.0;
            let blue = rgb.b / 255.0;
            let min = red.min(green).min(blue);
            let max = red.max(green).max(blue);
            let chroma = max - min;
            let lightness = (max + min) / 2.0;

            let hue = if chroma == 0.0 {
                0.0
            } else if max == red {
                (green - blue) / chroma % 6.0
            } else if max == green {
                (blue - red) / chroma + 2.0
            } else {
                (red - green) / chroma + 4.0
            } * 60.0;

            let saturation = if chroma == 0.0 || lightness == 0.0 || lightness == 1.0 {
                0.0
            } else {
                (max - lightness) / lightness.min(1.0 - lightness)
            };

            Self::new(hue, saturation, lightness)
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for Hsl {
        fn to_rgb(&self) -> Rgb {
            let (hue, saturation, lightness) = (self.h, self.s, self.l);

            let mut chroma = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation * 255.0;
            let mut x = chroma * (1.0 - (hue / 60.0 % 2.0 - 1.0).abs());
            let min = lightness * 255.0 - chroma / 2.0;
            chroma += min;
            x += min;

            let (red, green, blue) = if hue <= 60.0 {
                (chroma, x, min)
            } else if hue <= 120.0 {
                (x, chroma, min)
            } else if hue <= 180.0 {
                (min, chroma, x)
            } else if hue <= 240.0 {
                (min, x, chroma)
            } else if hue <= 300.0 {
                (x, min, chroma)
            } else {
                (chroma, min, x)
            };

            Rgb::new(red, green, blue)
        }
    }
}
// ---- src/hsv.rs ----
#[rustfmt::skip]
mod hsv {
    use crate::{ Rgb, FromRgb, ToRgb, approx };

    /// An HSV color (hue, saturation, value).
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct Hsv {
        pub h: f64,
        pub s: f64,
        pub v: f64,
    }

    #[fwdad::derive_frule]
    impl Hsv {
        /// Create a new HSV color.
        /// 
        /// `h`: hue component (0 to 360)
        /// 
        /// `s`: saturation component (0 to 1)
        /// 
        /// `v`: value component (0 to 1)
        #[inline]
        pub fn new(h: f64, s: f64, v: f64) -> Self {
            Self { h, s, v }
        }
    }

    impl PartialEq for Hsv {
        fn eq(&self, other: &Self) -> bool {
            approx(self.h, other.h) &&
            approx(self.s, other.s) &&
            approx(self.v, other.v)
        }
    }

    #[fwdad::derive_frule]
    impl FromRgb for Hsv {
        fn from_rgb(rgb: &Rgb) -> Self {
            let r = rgb.r / 255.0;
            let g = rgb.g / 255.0;
            let b = rgb.b / 255.0;

            let min = r.min(g.min(b));
            let max = r.max(g.max(b));
            let delta = max - min;

            let v = max;
            let s = match max > 1e-3 {
                true => delta / max,
                false => 0.0,
            };
            let h = match delta == 0.0 {
                true => 0.0,
                false => {
                    if r == max {
                        (g - b) / delta
                    } else if g == max {
                        2.0 + (b - r) / delta
                    } else {
                        4.0 + (r - g) / delta
                    }
                }
            };
            let h2 = ((h * 60.0) + 360.0) % 360.0;

            Self::new(h2, s, v)
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for Hsv {
        fn to_rgb(&self) -> Rgb {
            let range = (self.h / 60.0) as u8;
            let c = self.v * self.s;
            let x = c * (1.0 - (((self.h / 60.0) % 2.0) - 1.0).abs());
            let m = self.v - c;

            match range {
                0 => Rgb::new((c + m) * 255.0, (x + m) * 255.0, m * 255.0),
                1 => Rgb::new((x + m) * 255.0, (c + m) * 255.0, m * 255.0),
                2 => Rgb::new(m * 255.0, (c + m) * 255.0, (x + m) * 255.0),
                3 => Rgb::new(m * 255.0, (x + m) * 255.0, (c + m) * 255.0),
                4 => Rgb::new((x + m) * 255.0, m * 255.0, (c + m) * 255.0),
                _ => Rgb::new((c + m) * 255.0, m * 255.0, (x + m) * 255.0),
            }
        }
    }
}
// ---- src/hunter_lab.rs ----
#[rustfmt::skip]
mod hunter_lab {
    use crate::{ Rgb, FromRgb, ToRgb, Xyz, approx };

    /// A Hunter Lab color.
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct HunterLab {
        pub l: f64,
        pub a: f64,
        pub b: f64,
    }

    #[fwdad::derive_frule]
    impl HunterLab {
        /// Create a new HunterLab color.
        /// 
        /// `l`: lightness component (0 to 100)
        /// 
        /// `a`: green (negative) and red (positive) component.
        /// 
        /// `b`: blue (negative) and yellow (positive) component.
        #[inline]
        pub fn new(l: f64, a: f64, b: f64) -> Self {
            Self { l, a, b }
        }
    }

    impl PartialEq for HunterLab {
        fn eq(&self, other: &Self) -> bool {
            approx(self.l, other.l) &&
            approx(self.a, other.a) &&
            approx(self.b, other.b)
        }
    }

    #[fwdad::derive_frule]
    impl FromRgb for HunterLab {
        fn from_rgb(rgb: &Rgb) -> Self {
            let xyz = Xyz::from_rgb(rgb);
            let sqrt_y = xyz.y.sqrt();
            match xyz.y != 0.0 {
                true => Self::new(
                    sqrt_y * 10.0,
                    17.5 * (1.02 * xyz.x - xyz.y) / sqrt_y,
                    7.0 * (xyz.y - 0.847 * xyz.z) / sqrt_y
                ),
                false => Self::new(
                    sqrt_y * 10.0,
                    0.0,
                    0.0
                )
            }
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for HunterLab {
        fn to_rgb(&self) -> Rgb {
            let x = (self.a / 17.5) * (self.l / 10.0);
            let y = self.l * self.l / 100.0;
            let z = self.b / 7.0 * self.l / 10.0;
            Xyz::new(
                (x + y) / 1.02,
                y,
                -(z - y) / 0.847
            ).to_rgb()
        }
    }
}
// ---- src/lab.rs ----
#[rustfmt::skip]
mod lab {
    use crate::{ Rgb, FromRgb, ToRgb, Xyz, approx };

    /// A CIELAB color.
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct Lab {
        pub l: f64,
        pub a: f64,
        pub b: f64,
    }

    #[fwdad::derive_frule]
    impl Lab {
        /// Create a new CIELAB color.
        /// 
        /// `l`: lightness component (0 to 100)
        /// 
        /// `a`: green (negative) and red (positive) component.
        /// 
        /// `b`: blue (negative) and yellow (positive) component.
        #[inline]
        pub fn new(l: f64, a: f64, b: f64) -> Self {
            Self { l, a, b }
        }
    }

    impl PartialEq for Lab {
        fn eq(&self, other: &Self) -> bool {
            approx(self.l, other.l) &&
            approx(self.a, other.a) &&
            approx(self.b, other.b)
        }
    }

    #[fwdad::derive_frule]
    impl FromRgb for Lab {
        fn from_rgb(rgb: &Rgb) -> Self {
            let xyz = Xyz::from_rgb(rgb);
            let x = xyz.x / 95.047;
            let y = xyz.y / 100.0;
            let z = xyz.z / 108.883;
            let x = if x > 0.008856 { x.cbrt() } else { 7.787 * x + 16.0 / 116.0 };
            let y = if y > 0.008856 { y.cbrt() } else { 7.787 * y + 16.0 / 116.0 };
            let z = if z > 0.008856 { z.cbrt() } else { 7.787 * z + 16.0 / 116.0 };
            Self::new(
                (116.0 * y) - 16.0,
                500.0 * (x - y),
                200.0 * (y - z)
            )
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for Lab {
        fn to_rgb(&self) -> Rgb {
            let y = (self.l + 16.0) / 116.0;
    		let x = self.a / 500.0 + y;
            let z = y - self.b / 200.0;
            let x3 = x.powf(3.0);
            let y3 = y.powf(3.0);
            let z3 = z.powf(3.0);
            let x = 95.047 * if x3 > 0.008856 { x3 } else { (x - 16.0 / 116.0) / 7.787 };
            let y = 100.0 * if y3 > 0.008856 { y3 } else { (y - 16.0 / 116.0) / 7.787 };
            let z = 108.883 * if z3 > 0.008856 { z3 } else { (z - 16.0 / 116.0) / 7.787 };
            Xyz::new(x, y, z).to_rgb()
        }
    }
}
// ---- src/lch.rs ----
#[rustfmt::skip]
mod lch {
    use crate::{ Rgb, FromRgb, ToRgb, Lab, approx };
    use std::f64::consts::PI;

    /// An LCH color (luminance, chroma, hue).
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct Lch {
        pub l: f64,
        pub c: f64,
        pub h: f64,
    }

    #[fwdad::derive_frule]
    impl Lch {
        /// Create a new CIELAB color.
        /// 
        /// `l`: luminance component (0 to 100).
        /// 
        /// `c`: chroma component (0 to 100).
        /// 
        /// `h`: hue component (0 to 360).
        #[inline]
        pub fn new(l: f64, c: f64, h: f64) -> Self {
            Self { l, c, h }
        }
    }

    impl PartialEq for Lch {
        fn eq(&self, other: &Self) -> bool {
            approx(self.l, other.l) &&
            approx(self.c, other.c) &&
            approx(self.h, other.h)
        }
    }

    #[fwdad::derive_frule]
    impl FromRgb for Lch {
        fn from_rgb(rgb: &Rgb) -> Self {
            let lab = Lab::from_rgb(rgb);
            let c = (lab.a * lab.a + lab.b * lab.b).sqrt();
            let h = lab.b.atan2(lab.a) * (180.0 / PI);
            Self::new(lab.l, c, (h + 360.0) % 360.0)
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for Lch {
        fn to_rgb(&self) -> Rgb {
            let h = (self.h * PI) / 180.0;
            Lab::new(
                self.l,
                h.cos() * self.c,
                h.sin() * self.c
            ).to_rgb()
        }
    }
}
// ---- src/luv.rs ----
#[rustfmt::skip]
mod luv {
    use crate::{ Rgb, FromRgb, ToRgb, Xyz, approx };

    /// A CIELUV color (luminance, )
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct Luv {
        pub l: f64,
        pub u: f64,
        pub v: f64,
    }

    #[fwdad::derive_frule]
    impl Luv {
        /// Create a new CIELUV color.
        /// 
        /// `l`: luminance component (0 to 100).
        /// 
        /// `u`: coordinate (-134 to 220).
        /// 
        /// `v`: coordinate (-140 to 122).
        #[inline]
        pub fn new(l: f64, u: f64, v: f64) -> Self {
            Self { l, u, v }
        }
    }

    impl PartialEq for Luv {
        fn eq(&self, other: &Self) -> bool {
            approx(self.l, other.l) &&
            approx(self.u, other.u) &&
            approx(self.v, other.v)
        }
    }

    const EPS: f64 = 216.0 / 24389.0;
    const KAPPA: f64 = 24389.0 / 27.0;
    const WHITE: Xyz = Xyz{ x: 95.047, y: 100.000, z: 108.883 };

    #[fwdad::derive_frule]
    impl FromRgb for Luv {
        fn from_rgb(rgb: &Rgb) -> Self {

            let xyz = Xyz::from_rgb(rgb);
            let y = xyz.y / WHITE.y;
            let temp = xyz.x + 15.0 * xyz.y + 3.0 * xyz.z;
            let tempr = WHITE.x + 15.0 * WHITE.y + 3.0 * WHITE.z;

            let l = match y > EPS {
                true => 116.0 * y.cbrt() - 16.0,
                false => KAPPA * y
            };

            let (u, v) = match temp > 1e-3 {
                true => (xyz.x / temp, xyz.y / temp),
                false => (0.0, 0.0),
            };

            Self::new(
                l,
                52.0 * l * (u - WHITE.x / tempr),
                117.0 * l * (v - WHITE.y / tempr)
            )
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for Luv {
        fn to_rgb(&self) -> Rgb {
            let y = match self.l > EPS * KAPPA {
                true => ((self.l + 16.0) / 116.0).powf(3.0),
                false => self.l / KAPPA,
            };
            let tempr = WHITE.x + 15.0 * WHITE.y + 3.0 * WHITE.z;
            let up = 4.0 * WHITE.x / tempr;
            let vp = 9.0 * WHITE.y / tempr;
            let a = 1.0 / 3.0 * (52.0 * self.l / (self.u + 13.0 * self.l * up) - 1.0);
            let b = y * -5.0;
            let x = (y * (39.0 * self.l / (self.v + 13.0 * self.l * vp) - 5.0) - b) / (a + 1.0 / 3.0);
            let z = x * a + b;
            Xyz::new(x * 100.0, y * 100.0, z * 100.0).to_rgb()
        }
    }
}
// ---- src/rgb.rs ----
#[rustfmt::skip]
mod rgb {
    use crate::{ FromRgb, ToRgb, approx };

    /// An RGB color (red, green, blue).
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct Rgb {
        pub r: f64,
        pub g: f64,
        pub b: f64,
    }

    #[fwdad::derive_frule]
    impl Rgb {
        /// Create a new RGB color.
        /// 
        /// `r`: red component (0 to 255).
        /// 
        /// `g`: green component (0 to 255).
        /// 
        /// `b`: blue component (0 to 255).
        #[inline]
        pub fn new(r: f64, g: f64, b: f64) -> Self {
            Self { r, g, b }
        }

        /// Create a new RGB color from the `hex` value.
        /// 
        /// ```let cyan = Rgb::from_hex(0x00ffff);```
        pub fn from_hex(hex: u32) -> Self {
            Self {
                r: (((hex >> 16) & 0xff) as f64),
                g: (((hex >> 8) & 0xff) as f64),
                b: ((hex & 0xff) as f64)
            }
        }
    }

    impl PartialEq for Rgb {
        fn eq(&self, other: &Self) -> bool {
            approx(self.r, other.r) &&
            approx(self.g, other.g) &&
            approx(self.b, other.b)
        }
    }

    #[fwdad::derive_frule]
    impl FromRgb for Rgb {
        fn from_rgb(rgb: &Rgb) -> Self {
            *rgb
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for Rgb {
        fn to_rgb(&self) -> Rgb {
            *self
        }
    }
}
// ---- src/xyz.rs ----
#[rustfmt::skip]
mod xyz {
    use crate::{ FromRgb, ToRgb, approx };
    use crate::rgb::Rgb;

    /// A CIE 1931 XYZ color.
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct Xyz {
        pub x: f64,
        pub y: f64,
        pub z: f64,
    }

    #[fwdad::derive_frule]
    impl Xyz {
        #[inline]
        pub fn new(x: f64, y: f64, z: f64) -> Self {
            Self { x, y, z }
        }
    }

    impl PartialEq for Xyz {
        fn eq(&self, other: &Self) -> bool {
            approx(self.x, other.x) &&
            approx(self.y, other.y) &&
            approx(self.z, other.z)
        }
    }

    #[fwdad::derive_frule]
    fn srgb_to_linear(val: f64) -> f64 {
        if val <= 0.04045 {
            val / 12.92
        } else {
            ((val + 0.055) / 1.055).powf(2.4)
        }
    }

    #[fwdad::derive_frule]
    impl FromRgb for Xyz {
        fn from_rgb(rgb: &Rgb) -> Self {
            let r = srgb_to_linear(rgb.r / 255.0);
            let g = srgb_to_linear(rgb.g / 255.0);
            let b = srgb_to_linear(rgb.b / 255.0);
            Self::new(
                (0.4124 * r + 0.3576 * g + 0.1805 * b) * 100.0,
                (0.2126 * r + 0.7152 * g + 0.0722 * b) * 100.0,
                (0.0193 * r + 0.1192 * g + 0.9505 * b) * 100.0
            )
            /*let r = rgb.r / 255.0;
            let g = rgb.g / 255.0;
            let b = rgb.b / 255.0;
            let r = 100.0 * if r > 0.04045 { ((r + 0.055) / 1.055).powf(2.4) } else { r / 12.92 };
            let g = 100.0 * if g > 0.04045 { ((g + 0.055) / 1.055).powf(2.4) } else { g / 12.92 };
            let b = 100.0 * if b > 0.04045 { ((b + 0.055) / 1.055).powf(2.4) } else { b / 12.92 };
            Self::new(
                r * 0.4124564 + g * 0.3575761 + b * 0.1804375,
                r * 0.2126729 + g * 0.7151522 + b * 0.0721750,
                r * 0.0193339 + g * 0.1191920 + b * 0.9503041
            )*/
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for Xyz {
        fn to_rgb(&self) -> Rgb {
            let x = self.x / 100.0;
            let y = self.y / 100.0;
            let z = self.z / 100.0;
            let r = x * 3.2404542 + y * -1.5371385 + z * -0.4985314;
            let g = x * -0.9692660 + y * 1.8760108 + z * 0.0415560;
            let b = x * 0.0556434 + y * -0.2040259 + z * 1.0572252;
            let r = 255.0 * if r > 0.0031308 { 1.055 * r.powf(1.0 / 2.4) - 0.055 } else { 12.92 * r };
            let g = 255.0 * if g > 0.0031308 { 1.055 * g.powf(1.0 / 2.4) - 0.055 } else { 12.92 * g };
            let b = 255.0 * if b > 0.0031308 { 1.055 * b.powf(1.0 / 2.4) - 0.055 } else { 12.92 * b };
            Rgb::new(r, g, b)
        }
    }
}
// ---- src/yxy.rs ----
#[rustfmt::skip]
mod yxy {
    use crate::{ Rgb, FromRgb, ToRgb, Xyz, approx };

    /// A CIE YXY color.
    #[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
    pub struct Yxy {
        pub y1: f64,
        pub x: f64,
        pub y2: f64,
    }

    #[fwdad::derive_frule]
    impl Yxy {
        #[inline]
        pub fn new(y1: f64, x: f64, y2: f64) -> Self {
            Self { y1, x, y2 }
        }
    }

    impl PartialEq for Yxy {
        fn eq(&self, other: &Self) -> bool {
            approx(self.y1, other.y1) &&
            approx(self.x, other.x) &&
            approx(self.y2, other.y2)
        }
    }

    #[fwdad::derive_frule]
    impl FromRgb for Yxy {
        fn from_rgb(rgb: &Rgb) -> Self {
            let xyz = Xyz::from_rgb(rgb);
            let temp = xyz.x + xyz.y + xyz.z;
            match temp == 0.0 {
                true => Yxy::new(xyz.y, 0.0, 0.0),
                false => Yxy::new(xyz.y, xyz.x / temp, xyz.y / temp),
            }
        }
    }

    #[fwdad::derive_frule]
    impl ToRgb for Yxy {
        fn to_rgb(&self) -> Rgb {
            Xyz::new(
                self.x * (self.y1 / self.y2),
                self.y1,
                (1.0 - self.x - self.y2) * (self.y1 / self.y2)
            ).to_rgb()
        }
    }
}
// ---- src/approx.rs ----
#[rustfmt::skip]
mod approx {
    pub fn approx(a: f64, b: f64) -> bool {
        if a == b {
            return true;
        }
        let eps = 1e-2;
        let abs_a = a.abs();
        let abs_b = b.abs();
        let diff = (abs_a - abs_b).abs();
        if a == 0.0 || b == 0.0 || abs_a + abs_b < std::f64::EPSILON {
            diff < eps * std::f64::EPSILON
        } else {
            diff / (abs_a + abs_b).min(std::f64::MAX) < eps
        }
    }
}
// ---- src/compare.rs ----
#[rustfmt::skip]
mod compare {
    use crate::{ ToRgb, FromColor, Lab, Lch };
    use std::f64::consts::PI;

    pub trait CompareEuclidean<T> {
        /// Compare colors based on their RGB distance.
        fn compare_euclidean(&self, color: &T) -> f64;
    }

    pub trait CompareCie1976<T> {
        /// Compare colors based on their CIE 1976 distance.
        fn compare_cie1976(&self, color: &T) -> f64;
    }

    pub trait CompareCie2000<T> {
        /// Compare colors based on their CIE 2000 distance.
        fn compare_cie2000(&self, color: &T) -> f64;
    }

    pub trait CompareCmc<T> {
        /// Compare colors based on their CMC distance.
        fn compare_cmc(&self, color: &T) -> f64;
    }

    #[inline]
    #[fwdad::derive_frule]
    fn sqr(x: f64) -> f64 {
        x * x
    }

    #[inline]
    #[fwdad::derive_frule]
    fn dist(a: f64, b: f64) -> f64 {
        (a * a + b * b).sqrt()
    }

    #[inline]
    #[fwdad::derive_frule]
    fn deg_to_rad(deg: f64) -> f64 {
        (deg * PI) / 180.0
    }

    #[inline]
    #[fwdad::derive_frule]
    fn rad_to_deg(rad: f64) -> f64 {
        (rad * 180.0) / PI
    }

    impl<T: ToRgb, U: ToRgb> CompareEuclidean<U> for T {
        fn compare_euclidean(&self, color: &U) -> f64 {
            let a = self.to_rgb();
            let b = color.to_rgb();
            (
                (a.r - b.r) * (a.r - b.r) +
                (a.g - b.g) * (a.g - b.g) +
                (a.b - b.b) * (a.b - b.b)
            ).sqrt()
        }
    }

    impl<T, U> CompareCie1976<U> for T
    where
        T: ToRgb,
        U: ToRgb,
        Lab: FromColor<T>,
        Lab: FromColor<U>,
    {
        fn compare_cie1976(&self, color: &U) -> f64 {
            let a = Lab::from_color(self);
            let b = Lab::from_color(color);
            (
                (a.l - b.l) * (a.l - b.l) +
                (a.a - b.a) * (a.a - b.a) +
                (a.b - b.b) * (a.b - b.b)
            ).sqrt()
        }
    }

    impl<T, U> CompareCie2000<U> for T
    where
        T: ToRgb,
        U: ToRgb,
        Lab: FromColor<T>,
        Lab: FromColor<U>,
    {
        fn compare_cie2000(&self, color: &U) -> f64 {
            let eps: f64 = 1e-5;
            let pi2 = PI * 2.0;

            let lab_a = Lab::from_color(self);
            let lab_b = Lab::from_color(color);

            let c1 = dist(lab_a.a, lab_a.b);
            let c2 = dist(lab_b.a, lab_b.b);
            let mean_c = (c1 + c2) / 2.0;
            let mean_c7 = mean_c.powf(7.0);

            let g = 0.5 * (1.0 - (mean_c7 / (mean_c7 + 6103515625.0)).sqrt());
            let a1p = lab_a.a * (1.0 + g);
            let a2p = lab_b.a * (1.0 + g);

            let c1 = dist(a1p, lab_a.b);
            let c2 = dist(a2p, lab_b.b);
            let h1 = (lab_a.b.atan2(a1p) + pi2) % pi2;
            let h2 = (lab_b.b.atan2(a2p) + pi2) % pi2;

            let delta_l = lab_b.l - lab_a.l;
            let delta_c = c2 - c1;
            let delta_h = if c1 * c2 < eps {
                0.0
            } else if (h2 - h1).abs() <= PI {
                h2 - h1
            } else if h2 > h1 {
                h2 - h1 - pi2
            } else {
                h2 - h1 + pi2
            };
            let delta_h = 2.0 * (c1 * c2).sqrt() * (delta_h / 2.0).sin();

            let mean_l = (lab_a.l + lab_b.l) / 2.0;
            let mean_c = (c1 + c2) / 2.0;
            let mean_c7 = mean_c.powf(7.0);
            let mean_h = if c1*c2 < eps {
                h1 + h2
            } else if (h1 - h2).abs() <= PI + eps {
                (h1 + h2) / 2.0
            } else if h1 + h2 < pi2 {
                (h1 + h2 + pi2) / 2.0
            } else {
                (h1 + h2 - pi2) / 2.0
            };

            let t = 1.0
                - 0.17 * (mean_h - deg_to_rad(30.0)).cos()
                + 0.24 * (2.0 * mean_h).cos()
                + 0.32 * (3.0 * mean_h + deg_to_rad(6.0)).cos()
                - 0.2 * (4.0 * mean_h - deg_to_rad(63.0)).cos();

            let sl = 1.0 + (0.015 * sqr(mean_l - 50.0)) / (20.0 + sqr(mean_l - 50.0).sqrt());
            let sc = 1.0 + 0.045 * mean_c;
            let sh = 1.0 + 0.015 * mean_c * t;
            let rc = 2.0 * (mean_c7 / (mean_c7 + 6103515625.0)).sqrt();
            let rt = -(deg_to_rad(60.0 * (-sqr((rad_to_deg(mean_h) - 275.0) / 25.0)).exp())).sin() * rc;
            (
                sqr(delta_l / sl) +
                sqr(delta_c / sc) +
                sqr(delta_h / sh) +
                rt * delta_c / sc * delta_h / sh
            ).sqrt()
        }
    }

    impl<T, U> CompareCmc<U> for T
    where
        T: ToRgb,
        U: ToRgb,
        Lch: FromColor<T>,
        Lch: FromColor<U>,
    {
        fn compare_cmc(&self, color: &U) -> f64 {
            let lch_a = Lch::from_color(self);
            let lch_b = Lch::from_color(color);

            let delta_l = lch_a.l - lch_b.l;
            let delta_c = lch_a.c - lch_b.c;
            let delta_h = lch_a.h - lch_b.h;

            let f = (lch_a.c.powf(4.0) / (lch_a.c.powf(4.0) + 1900.0)).sqrt();
            let t = match 164.0 <= lch_a.h && lch_a.h <= 345.0 {
                true => 0.56 + (0.2 * (lch_a.h + 168.0).cos()).abs(),
                false => 0.36 + (0.4 * (lch_a.h + 35.0).cos()).abs()
            };
            let sl = match lch_a.l < 16.0 {
                true => 0.511,
                false => 0.040975 * lch_a.l / (1.0 + 0.01765 * lch_a.l)
            };
            let sc = 0.0638 * lch_a.c / (1.0 + 0.0131 * lch_a.c) + 0.638;
            let sh = sc * (f * t + 1.0 - f);

            (
                sqr(delta_l / (2.0 * sl)) +
                sqr(delta_c / (1.0 * sc)) +
                sqr(delta_h / sh)
            ).sqrt()
        }
    }
}

pub(crate) use self::approx::approx; // the crate: `use approx::approx;` (see the top)
pub use cmy::Cmy;
pub use cmyk::Cmyk;
pub use compare::{CompareCie1976, CompareCie2000, CompareCmc, CompareEuclidean};
pub use hsl::Hsl;
pub use hsv::Hsv;
pub use hunter_lab::HunterLab;
pub use lab::Lab;
pub use lch::Lch;
pub use luv::Luv;
pub use rgb::Rgb;
pub use xyz::Xyz;
pub use yxy::Yxy;

#[fwdad::derive_frule]
pub trait FromRgb {
    /// Convert from an `Rgb` color.
    fn from_rgb(rgb: &Rgb) -> Self;
}

#[fwdad::derive_frule]
pub trait ToRgb {
    /// Convert into an `Rgb` color.
    fn to_rgb(&self) -> Rgb;
}

pub trait FromColor<T: ToRgb> {
    /// Convert from another color space `T`.
    fn from_color(color: &T) -> Self;
}

macro_rules! impl_from {
    ($from_type:ty, $($to_type:ty), *) => {
        impl FromColor<$from_type> for $from_type {
            #[inline]
            fn from_color(color: &Self) -> Self {
                *color
            }
        }
        $(
            impl FromColor<$from_type> for $to_type {
                #[inline]
                fn from_color(color: &$from_type) -> Self {
                    let rgb = color.to_rgb();
                    Self::from_rgb(&rgb)
                }
            }
            impl From<$from_type> for $to_type {
                #[inline]
                fn from(color: $from_type) -> Self {
                    Self::from_color(&color)
                }
            }
        )*
    };
}

impl_from!(Cmy, Cmyk, Hsl, Hsv, HunterLab, Lab, Lch, Luv, Rgb, Xyz, Yxy);
impl_from!(Cmyk, Hsl, Hsv, HunterLab, Lab, Lch, Luv, Rgb, Xyz, Yxy, Cmy);
impl_from!(Hsl, Hsv, HunterLab, Lab, Lch, Luv, Rgb, Xyz, Yxy, Cmy, Cmyk);
impl_from!(Hsv, HunterLab, Lab, Lch, Luv, Rgb, Xyz, Yxy, Cmy, Cmyk, Hsl);
impl_from!(HunterLab, Lab, Lch, Luv, Rgb, Xyz, Yxy, Cmy, Cmyk, Hsl, Hsv);
impl_from!(Lab, Lch, Luv, Rgb, Xyz, Yxy, Cmy, Cmyk, Hsl, Hsv, HunterLab);
impl_from!(Lch, Luv, Rgb, Xyz, Yxy, Cmy, Cmyk, Hsl, Hsv, HunterLab, Lab);
impl_from!(Luv, Rgb, Xyz, Yxy, Cmy, Cmyk, Hsl, Hsv, HunterLab, Lab, Lch);
impl_from!(Rgb, Xyz, Yxy, Cmy, Cmyk, Hsl, Hsv, HunterLab, Lab, Lch, Luv);
impl_from!(Xyz, Yxy, Cmy, Cmyk, Hsl, Hsv, HunterLab, Lab, Lch, Luv, Rgb);
impl_from!(Yxy, Cmy, Cmyk, Hsl, Hsv, HunterLab, Lab, Lch, Luv, Rgb, Xyz);

// ---- the checks ----

#[cfg(test)]
mod checks {
    use super::*;
    use fwdad::prelude::*;

    fn close(got: f64, want: f64, tol: f64, what: &str) {
        assert!(
            (got - want).abs() <= tol * want.abs().max(1.0),
            "{what}: {got}, want {want}"
        );
    }

    /// ∂fᵢ/∂xₖ by central differences, `h` relative to each coordinate.
    fn fd_jacobian(f: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64], h: f64) -> Vec<Vec<f64>> {
        let m = f(x).len();
        (0..m)
            .map(|i| {
                (0..x.len())
                    .map(|k| {
                        let hk = h * x[k].abs().max(1.0);
                        let (mut p, mut q) = (x.to_vec(), x.to_vec());
                        p[k] += hk;
                        q[k] -= hk;
                        (f(&p)[i] - f(&q)[i]) / (2.0 * hk)
                    })
                    .collect()
            })
            .collect()
    }

    /// For each colour type: `$from(rgb) -> components` and `$to(components) -> rgb`, derived
    /// here through the copied crate, and `$pfrom`/`$pto`, the same through the published one.
    macro_rules! conversions {
        ($($ty:ident { $($f:ident),+ } => $from:ident, $to:ident, $pfrom:ident, $pto:ident;)*) => {$(
            #[fwdad::derive_frule]
            fn $from(p: &[f64]) -> Vec<f64> {
                let c = $ty::from_rgb(&Rgb::new(p[0], p[1], p[2]));
                vec![$(c.$f),+]
            }

            #[fwdad::derive_frule]
            fn $to(p: &[f64]) -> Vec<f64> {
                let mut i = 0;
                let c = $ty { $($f: { i += 1; p[i - 1] }),+ };
                let rgb = c.to_rgb();
                vec![rgb.r, rgb.g, rgb.b]
            }

            fn $pfrom(p: &[f64]) -> Vec<f64> {
                let c = <::color_space::$ty as ::color_space::FromRgb>::from_rgb(
                    &::color_space::Rgb::new(p[0], p[1], p[2]),
                );
                vec![$(c.$f),+]
            }

            fn $pto(p: &[f64]) -> Vec<f64> {
                let mut i = 0;
                let c = ::color_space::$ty { $($f: { i += 1; p[i - 1] }),+ };
                let rgb = ::color_space::ToRgb::to_rgb(&c);
                vec![rgb.r, rgb.g, rgb.b]
            }
        )*};
    }

    conversions! {
        Cmy { c, m, y } => cmy_from, cmy_to, cmy_from_pub, cmy_to_pub;
        Cmyk { c, m, y, k } => cmyk_from, cmyk_to, cmyk_from_pub, cmyk_to_pub;
        Hsl { h, s, l } => hsl_from, hsl_to, hsl_from_pub, hsl_to_pub;
        Hsv { h, s, v } => hsv_from, hsv_to, hsv_from_pub, hsv_to_pub;
        HunterLab { l, a, b } => hunter_from, hunter_to, hunter_from_pub, hunter_to_pub;
        Lab { l, a, b } => lab_from, lab_to, lab_from_pub, lab_to_pub;
        Lch { l, c, h } => lch_from, lch_to, lch_from_pub, lch_to_pub;
        Luv { l, u, v } => luv_from, luv_to, luv_from_pub, luv_to_pub;
        Rgb { r, g, b } => rgb_from, rgb_to, rgb_from_pub, rgb_to_pub;
        Xyz { x, y, z } => xyz_from, xyz_to, xyz_from_pub, xyz_to_pub;
        Yxy { y1, x, y2 } => yxy_from, yxy_to, yxy_from_pub, yxy_to_pub;
    }

    /// Red, green and blue each the largest (the hue formula's three arms), all three above
    /// the sRGB curve's linear toe (0.04045 · 255 ≈ 10.3), and one dark colour on the toe.
    const RGBS: [[f64; 3]; 5] = [
        [200.0, 120.0, 40.0],
        [30.5, 180.0, 90.0],
        [60.0, 70.25, 220.0],
        [128.0, 64.0, 96.0],
        [8.0, 5.0, 9.5],
    ];

    /// The Jacobian of `rule` at `x` against central differences of `published`, the values
    /// bit for bit.
    fn check(
        rule: impl fwdad::drivers::JacobianRule,
        published: fn(&[f64]) -> Vec<f64>,
        x: &[f64],
        tol: f64,
        what: &str,
    ) {
        let (y, j) = jacobian(rule, x);
        let want = published(x);
        assert_eq!(y.len(), want.len(), "{what}: length");
        for (a, b) in y.iter().zip(&want) {
            assert_eq!(a.to_bits(), b.to_bits(), "{what}: {y:?} against {want:?}");
        }
        let fd = fd_jacobian(&published, x, 1e-6);
        for (i, row) in fd.iter().enumerate() {
            for (k, d) in row.iter().enumerate() {
                close(j[(i, k)], *d, tol, &format!("{what}: ∂y{i}/∂x{k} at {x:?}"));
            }
        }
    }

    #[test]
    fn from_rgb_against_the_published_crate() {
        for p in RGBS {
            check(cmy_from {}, cmy_from_pub, &p, 1e-7, "Cmy::from_rgb");
            check(cmyk_from {}, cmyk_from_pub, &p, 1e-7, "Cmyk::from_rgb");
            check(hsl_from {}, hsl_from_pub, &p, 1e-6, "Hsl::from_rgb");
            check(hsv_from {}, hsv_from_pub, &p, 1e-6, "Hsv::from_rgb");
            check(
                hunter_from {},
                hunter_from_pub,
                &p,
                1e-6,
                "HunterLab::from_rgb",
            );
            check(lab_from {}, lab_from_pub, &p, 1e-6, "Lab::from_rgb");
            check(lch_from {}, lch_from_pub, &p, 1e-6, "Lch::from_rgb");
            check(luv_from {}, luv_from_pub, &p, 1e-6, "Luv::from_rgb");
            check(rgb_from {}, rgb_from_pub, &p, 1e-7, "Rgb::from_rgb");
            check(xyz_from {}, xyz_from_pub, &p, 1e-6, "Xyz::from_rgb");
            check(yxy_from {}, yxy_from_pub, &p, 1e-6, "Yxy::from_rgb");
        }
    }

    #[test]
    fn to_rgb_against_the_published_crate() {
        for p in RGBS {
            // Each colour as the published crate converts the RGB point, then back.
            check(
                cmy_to {},
                cmy_to_pub,
                &cmy_from_pub(&p),
                1e-6,
                "Cmy::to_rgb",
            );
            check(
                cmyk_to {},
                cmyk_to_pub,
                &cmyk_from_pub(&p),
                1e-6,
                "Cmyk::to_rgb",
            );
            check(
                hsl_to {},
                hsl_to_pub,
                &hsl_from_pub(&p),
                1e-6,
                "Hsl::to_rgb",
            );
            check(
                hsv_to {},
                hsv_to_pub,
                &hsv_from_pub(&p),
                1e-6,
                "Hsv::to_rgb",
            );
            check(
                hunter_to {},
                hunter_to_pub,
                &hunter_from_pub(&p),
                1e-6,
                "HunterLab::to_rgb",
            );
            check(
                lab_to {},
                lab_to_pub,
                &lab_from_pub(&p),
                1e-6,
                "Lab::to_rgb",
            );
            check(
                lch_to {},
                lch_to_pub,
                &lch_from_pub(&p),
                1e-6,
                "Lch::to_rgb",
            );
            check(
                luv_to {},
                luv_to_pub,
                &luv_from_pub(&p),
                1e-6,
                "Luv::to_rgb",
            );
            check(rgb_to {}, rgb_to_pub, &p, 1e-7, "Rgb::to_rgb");
            check(
                xyz_to {},
                xyz_to_pub,
                &xyz_from_pub(&p),
                1e-6,
                "Xyz::to_rgb",
            );
            check(
                yxy_to {},
                yxy_to_pub,
                &yxy_from_pub(&p),
                1e-6,
                "Yxy::to_rgb",
            );
        }
    }

    #[test]
    fn cmy_and_xyz_against_closed_forms() {
        // CMY = 1 − RGB/255; XYZ = 100 M lin(RGB/255), lin(v) = ((v + 0.055)/1.055)^2.4
        // above 0.04045 and v/12.92 below, so ∂XYZ/∂RGB = 100 M diag(lin'(v)/255).
        let m = [
            [0.4124, 0.3576, 0.1805],
            [0.2126, 0.7152, 0.0722],
            [0.0193, 0.1192, 0.9505],
        ];
        for p in RGBS {
            let (_, j) = jacobian(cmy_from {}, &p);
            for i in 0..3 {
                for k in 0..3 {
                    let want = if i == k { -1.0 / 255.0 } else { 0.0 };
                    assert_eq!(j[(i, k)], want, "∂CMY/∂RGB");
                }
            }
            let dlin = |c: f64| {
                let v = c / 255.0;
                if v <= 0.04045 {
                    1.0 / 12.92 / 255.0
                } else {
                    2.4 / 1.055 * ((v + 0.055) / 1.055).powf(1.4) / 255.0
                }
            };
            let (_, j) = jacobian(xyz_from {}, &p);
            for i in 0..3 {
                for k in 0..3 {
                    close(j[(i, k)], 100.0 * m[i][k] * dlin(p[k]), 1e-12, "∂XYZ/∂RGB");
                }
            }
        }
    }

    #[test]
    fn lab_lightness_against_the_cie_formula() {
        // L* = 116 (Y/100)^(1/3) − 16 with Y = 100 (0.2126 lin r + 0.7152 lin g + 0.0722 lin b)
        // above the toe: ∂L*/∂Y = 116/3 (Y/100)^(−2/3) / 100.
        for p in &RGBS[..4] {
            let (y, j) = jacobian(lab_from {}, p);
            let (xyz, jx) = jacobian(xyz_from {}, p);
            let yy = xyz[1] / 100.0;
            assert!(yy > 0.008856);
            close(y[0], 116.0 * yy.cbrt() - 16.0, 1e-12, "L*");
            for k in 0..3 {
                let want = 116.0 / 3.0 * yy.powf(-2.0 / 3.0) / 100.0 * jx[(1, k)];
                close(j[(0, k)], want, 1e-10, "∂L*/∂RGB");
            }
        }
    }

    #[test]
    fn hsv_and_hsl_round_trips_are_the_identity() {
        // to_rgb ∘ from_rgb is the identity inside each hue sector: its Jacobian is I.
        #[fwdad::derive_frule]
        fn through_hsv(p: &[f64]) -> Vec<f64> {
            let rgb = Hsv::from_rgb(&Rgb::new(p[0], p[1], p[2])).to_rgb();
            vec![rgb.r, rgb.g, rgb.b]
        }
        #[fwdad::derive_frule]
        fn through_hsl(p: &[f64]) -> Vec<f64> {
            let rgb = Hsl::from_rgb(&Rgb::new(p[0], p[1], p[2])).to_rgb();
            vec![rgb.r, rgb.g, rgb.b]
        }
        // Not at [128, 64, 96]: red largest with blue above green gives HSL a negative
        // hue (−30°, the `%` keeps the sign), which the crate's `to_rgb` reads as the first
        // sector: its round trip gives [128, 32, 64], the published crate's too.
        let odd = hsl_to_pub(&hsl_from_pub(&[128.0, 64.0, 96.0]));
        for (got, want) in odd.iter().zip([128.0, 32.0, 64.0]) {
            close(
                *got,
                want,
                1e-12,
                "the published HSL round trip at a negative hue",
            );
        }
        for p in &RGBS[..3] {
            for (name, (y, j)) in [
                ("HSV", jacobian(through_hsv {}, p)),
                ("HSL", jacobian(through_hsl {}, p)),
            ] {
                for i in 0..3 {
                    close(y[i], p[i], 1e-12, name);
                    for k in 0..3 {
                        let want = if i == k { 1.0 } else { 0.0 };
                        close(j[(i, k)], want, 1e-12, &format!("{name}: ∂/∂x{k} of {i}"));
                    }
                }
            }
        }
    }

    /// The lightness after RGB → L*a*b* → LCh → (hue turned by `p[3]` degrees) → RGB,
    /// summed: a chain of six of the crate's conversions.
    #[fwdad::derive_frule]
    fn turned_hue(p: &[f64]) -> f64 {
        let mut lch = Lch::from_rgb(&Rgb::new(p[0], p[1], p[2]));
        lch.h += p[3];
        let rgb = lch.to_rgb();
        let lab = Lab::from_rgb(&rgb);
        lab.l + rgb.r / 255.0 + rgb.g / 255.0 + rgb.b / 255.0
    }

    #[test]
    fn a_chain_of_conversions_in_every_mode() {
        crate::check_modes!(turned_hue {}, turned_hue, [200.0, 120.0, 40.0, 10.0]);
        crate::check_modes!(turned_hue {}, turned_hue, [60.0, 70.25, 220.0, -25.0]);
    }

    #[test]
    fn from_hex_and_constructors() {
        // No float input: the constructors' rules pass tangents through.
        let c = Rgb::from_hex(0x00ff_80c0);
        let p = ::color_space::Rgb::from_hex(0x00ff_80c0);
        assert_eq!((c.r, c.g, c.b), (p.r, p.g, p.b));
        let (v, d) = derivative(cmyk_k {}, 0.25);
        assert_eq!(v, 0.25);
        assert_eq!(d, 1.0);
    }

    #[fwdad::derive_frule]
    fn cmyk_k(k: f64) -> f64 {
        Cmyk::new(0.1, 0.2, 0.3, k).k
    }
}
