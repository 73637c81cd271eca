//! deltae 0.3.2 (MIT, Copyright 2019 Ryan O'Beirne, <https://gitlab.com/ryanobeirne/deltae>):
//! colour differences between CIE L\*a\*b\* colours (CIEDE2000, CMC l:c, CIE94, CIE76) and
//! the conversions between Lab, LCh and XYZ (D50), all in `f32`. The crate is copied here
//! as the module `deltae`, its `src/lib.rs` with each `mod name;` replaced by the file
//! `src/name.rs` inlined (the test module `src/tests.rs` left out; CRLF as LF), with
//! `#[fwdad::derive_frule]` on every numeric free function (the four colour differences,
//! `get_h_prime`, `xyz_to_lab_map`, `round_to`), on `impl LabValue`, `impl LchValue`, `impl
//! XyzValue`, on the traits `Round` and `Validate` (`where Self: Sized`) and their impls,
//! and on all ten `impl From` between the colour types, and `fwdad::Differentiable` added
//! to the derive lists of the colour types, `DeltaE` and `DEMethod`. One line is added:
//! `pub use self::deltae::*;` at this file's root, where the crate's `use crate::*;` looks
//! for its items.
//!
//! Left plain, as the macro does not take it (docs/limits.md): the trait `Delta` with its
//! blanket `impl<T: Into<LabValue>> Delta for T {}` (a blanket `impl`), and with it `impl
//! DeltaE`, whose `new` calls `Delta::delta`. So the colour differences compile through the
//! macro but no derived code outside their private module reaches them. Left plain as not
//! numeric: the parsers (`FromStr`, `TryFrom`), `Display`, `eq.rs`'s comparisons.
//!
//! What this found (`tests/derive_corpus3_found.rs`): `f32` fields beside literals,
//! `(lab_0.l + lab_1.l)/2.0` (no rule for `f32 / f64`); several `impl From` for one type
//! (colliding rules); `where Self: Sized` on a trait (rejected); `let y: Xyz = lab.into()`
//! (taken for the identity); the tangent enum of `DEMethod` undocumented under the crate's
//! `#![warn(missing_docs)]`.
//!
//! The conversions are differentiated in every mode against their closed forms (gradients
//! and Hessians of chroma, hue, Y, X and b*, the Jacobian of LCh to Lab, a round trip),
//! through `LabValue::new`'s validation, and `round_to` (flat) and `hue_radians`; primals
//! bit for bit against the published crate.

#![allow(clippy::excessive_precision)]

pub use self::deltae::*;

#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports, unused_macros, missing_docs)]
pub mod deltae {
    #![warn(missing_docs)]
    //! Calculate [Delta E](http://www.colorwiki.com/wiki/Delta_E:_The_Color_Difference)
    //! (color difference) between two colors in CIE Lab space.
    //!
    //! # Examples
    //!
    //! ```
    //! use std::error::Error;
    //! use deltae::*;
    //!
    //! fn main() -> Result<(), Box<dyn Error>>{
    //!     // Lab from a string
    //!     let lab0: LabValue = "89.73, 1.88, -6.96".parse()?;
    //!     // Lab directly from values
    //!     let lab1 = LabValue {
    //!         l: 95.08,
    //!         a: -0.17,
    //!         b: -10.81,
    //!     }.validate()?; // Validate that the values are in range
    //!
    //!     // Create your own Lab type
    //!     #[derive(Clone, Copy)]
    //!     struct MyLab(f32, f32, f32);
    //!
    //!     // Types that implement Into<LabValue> also implement the Delta trait
    //!     impl From<MyLab> for LabValue {
    //!         fn from(mylab: MyLab) -> Self {
    //!             LabValue { l: mylab.0, a: mylab.1, b: mylab.2 }
    //!         }
    //!     }
    //!     let mylab = MyLab(95.08, -0.17, -10.81);
    //!
    //!     // Implement DeltaEq for your own types
    //!     impl<D: Delta + Copy> DeltaEq<D> for MyLab {}
    //!
    //!     // Assert that colors are equivalent within a tolerance
    //!     assert_delta_eq!(mylab, lab1, DE2000, 0.0, "mylab is not equal to lab1!");
    //!
    //!     // Calculate DeltaE between two lab values
    //!     let de0 = DeltaE::new(lab0, lab1, DE2000);
    //!     // Use the Delta trait
    //!     let de1 = lab0.delta(lab1, DE2000);
    //!     assert_eq!(de0, de1);
    //!
    //!     // Convert to other color types
    //!     let lch0 = LchValue::from(lab0);
    //!     let xyz0 = XyzValue::from(lab1);
    //!     // If DE2000 is less than 1.0, the colors are considered equivalent
    //!     assert!(lch0.delta_eq(lab0, DE2000, 1.0));
    //!     assert!(xyz0.delta_eq(lab1, DE2000, 1.0));
    //!
    //!     // Calculate DeltaE between different color types
    //!     let de2 = lch0.delta(xyz0, DE2000);
    //!     assert_eq!(de2.round_to(4), de0.round_to(4));
    //!     // There is some loss of accuracy in the conversion.
    //!     // Usually rounding to 4 decimal places is more than enough.
    //!
    //!     // Recalculate DeltaE with different method
    //!     let de3 = de2.with_method(DE1976);
    //!
    //!     println!("{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n",
    //!         lab0, // [L:89.73, a:1.88, b:-6.96]
    //!         lab1, // [L:95.08, a:-0.17, b:-10.81]
    //!         lch0, // [L:89.73, c:7.2094383, h:285.11572]
    //!         xyz0, // [X:0.84574246, Y:0.8780792, Z:0.8542397]
    //!         de0,  // 5.316941
    //!         de1,  // 5.316941
    //!         de2,  // 5.316937
    //!         de3,  // 6.902717
    //!     );
    //!
    //!     Ok(())
    //! }
    //! ```

    pub mod color {
        // ---- src/color.rs ----
        //! Manipulate and convert CIE L\*a\*b\* and Lch colors.
        //!
        //! # Examples
        //!
        //! ```
        //! use deltae::*;
        //!
        //! let lab0: LabValue = "95.08, -0.17, -10.81".parse().unwrap();
        //! let lch0 = LchValue {
        //!     l: 95.08,
        //!     c: 10.811337,
        //!     h: 269.09903,
        //! };
        //!
        //! assert!(lab0.delta_eq(&lch0, DE2000, 0.01));
        //!
        //! let lch0 = LchValue::from(lab0);
        //! let lab2 = LabValue::from(lch0);
        //!
        //! println!("{}", lch0); // [L:89.73, c:7.2094, h:285.1157]
        //!
        //! assert_eq!(lab0.round_to(4), lab2.round_to(4));
        //! ```

        use std::fmt;
        use std::error::Error;

        use crate::*;

        /// # CIEL\*a\*b\*
        ///
        /// The [`LabValue`] is the key component in calculating [`DeltaE`]
        ///
        /// | `Value` | `Color`               | `Range`              |
        /// |:-------:|:---------------------:|:--------------------:|
        /// | `L*`    | `Light <---> Dark`    | `0.0 <---> 100.0`    |
        /// | `a*`    | `Green <---> Magenta` | `-128.0 <---> 128.0` |
        /// | `b*`    | `Blue  <---> Yellow`  | `-128.0 <---> 128.0` |
        ///
        #[derive(Debug, Clone, Copy, PartialEq, fwdad::Differentiable)]
        pub struct LabValue {
            /// Lightness
            pub l: f32,
            /// Green - Magenta
            pub a: f32,
            /// Blue - Yellow
            pub b: f32,
        }

        #[fwdad::derive_frule]
        impl LabValue {
            /// Returns a result of a LabValue from 3 `f32`s.
            /// Will return `Err()` if the values are out of range as determined by the [`Validate`] trait.
            pub fn new(l: f32, a: f32, b: f32) -> ValueResult<LabValue> {
                LabValue {l, a, b}.validate()
            }
        }

        impl Default for LabValue {
            fn default() -> LabValue {
                LabValue { l: 0.0, a: 0.0, b: 0.0 }
            }
        }

        impl fmt::Display for LabValue {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "[L:{}, a:{}, b:{}]", self.l, self.a, self.b)
            }
        }

        /// # Lch: Luminance, Chroma, Hue
        ///
        /// | `Value` | `Color`                    | `Range`                |
        /// |:-------:|:--------------------------:|:----------------------:|
        /// | `L*`    | `Light <---> Dark`         | `0.0 <---> 100.0`      |
        /// | `c`     | `Chroma (Amount of color)` | `0.0 <---> 181.0139`   |
        /// | `h`     | `Hue (Degrees)`            | `0.0 <---> 360.0°`     |
        ///
        #[derive(Debug, Clone, Copy, PartialEq, fwdad::Differentiable)]
        pub struct LchValue {
            /// Lightness
            pub l: f32,
            /// Chroma
            pub c: f32,
            /// Hue (in degrees)
            pub h: f32,
        }

        #[fwdad::derive_frule]
        impl LchValue {
            /// Returns a result of an LchValue from 3 `f32`s.
            /// Will return `Err()` if the values are out of range as determined by the [`Validate`] trait.
            pub fn new(l: f32, c: f32, h: f32) -> ValueResult<LchValue> {
                LchValue { l, c, h }.validate()
            }

            /// Returns the Hue as radians rather than degrees
            pub fn hue_radians(&self) -> f32 {
                self.h.to_radians()
            }
        }

        impl Default for LchValue {
            fn default() -> LchValue {
                LchValue { l: 0.0, c: 0.0, h: 0.0 }
            }
        }

        impl fmt::Display for LchValue {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "[L:{}, c:{}, h:{}]", self.l, self.c, self.h)
            }
        }

        /// # CIE 1931 XYZ
        ///
        /// Further Reading: [https://en.wikipedia.org/wiki/CIE_1931_color_space](https://en.wikipedia.org/wiki/CIE_1931_color_space)
        ///
        /// | `Value` | `Color`     | `Range`         |
        /// |:-------:|:-----------:|:---------------:|
        /// | `X`     | `RGB`       | `0.0 <---> 1.0` |
        /// | `Y`     | `Luminance` | `0.0 <---> 1.0` |
        /// | `Z`     | `Blue`      | `0.0 <---> 1.0` |
        ///
        #[derive(Debug, Clone, Copy, PartialEq, fwdad::Differentiable)]
        pub struct XyzValue {
            /// X Value
            pub x: f32,
            /// Y Value
            pub y: f32,
            /// Z Value
            pub z: f32,
        }

        #[fwdad::derive_frule]
        impl XyzValue {
            /// Returns a result of an XyzValue from 3 `f32`s.
            /// Will return `Err()` if the values are out of range as determined by the [`Validate`] trait.
            pub fn new(x: f32, y: f32, z:f32) -> ValueResult<XyzValue> {
                XyzValue {x, y, z}.validate()
            }
        }

        impl Default for XyzValue {
            fn default() -> XyzValue {
                XyzValue { x: 0.0, y: 0.0, z: 0.0 }
            }
        }

        impl fmt::Display for XyzValue {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "[X:{}, Y:{}, Z:{}]", self.x, self.y, self.z)
            }
        }

        #[derive(Debug)]
        /// Value validation Error type
        pub enum ValueError {
            /// The value is outside the acceptable range
            OutOfBounds,
            /// The value is formatted incorrectly
            BadFormat,
        }

        impl fmt::Display for ValueError {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "{}", self.description())
            }
        }

        impl ValueError {
            fn description(&self) -> &str {
                match self {
                    ValueError::OutOfBounds => "Value is out of range!",
                    ValueError::BadFormat   => "Value is malformed!",
                }
            }
        }

        impl Error for ValueError {}
    }
    mod convert {
        // ---- src/convert.rs ----
        use super::*;
        use std::convert::TryFrom;
        use std::error::Error;
        use std::num::ParseFloatError;
        use std::str::FromStr;

        // To Lab /////////////////////////////////////////////////////////////////////
        #[fwdad::derive_frule]
        impl From<LchValue> for LabValue {
            fn from(lch: LchValue) -> LabValue {
                LabValue {
                    l: lch.l,
                    a: lch.c * lch.h.to_radians().cos(),
                    b: lch.c * lch.h.to_radians().sin(),
                }
            }
        }

        #[fwdad::derive_frule]
        impl From<&LchValue> for LabValue {
            fn from(lch: &LchValue) -> LabValue {
                LabValue::from(*lch)
            }
        }

        #[fwdad::derive_frule]
        impl From<&LabValue> for LabValue {
            fn from(lab: &LabValue) -> LabValue {
                *lab
            }
        }

        #[fwdad::derive_frule]
        impl From<XyzValue> for LabValue {
            fn from(xyz: XyzValue) -> LabValue {
                let x = xyz_to_lab_map(xyz.x / 0.9642);
                let y = xyz_to_lab_map(xyz.y);
                let z = xyz_to_lab_map(xyz.z / 0.8251);

                LabValue {
                    l: (116.0 * y) - 16.0,
                    a: 500.0 * (x - y),
                    b: 200.0 * (y - z),
                }
            }
        }

        #[fwdad::derive_frule]
        impl From<&XyzValue> for LabValue {
            fn from(xyz: &XyzValue) -> LabValue {
                LabValue::from(*xyz)
            }
        }

        impl TryFrom<&[f32; 3]> for LabValue {
            type Error = ValueError;
            fn try_from(slice: &[f32; 3]) -> ValueResult<LabValue> {
                LabValue {
                    l: slice[0],
                    a: slice[1],
                    b: slice[2]
                }.validate()
            }
        }

        impl TryFrom<(f32, f32, f32)> for LabValue {
            type Error = ValueError;
            fn try_from(tuple: (f32, f32, f32)) -> ValueResult<LabValue> {
                LabValue {
                    l: tuple.0,
                    a: tuple.1,
                    b: tuple.2,
                }.validate()
            }
        }

        impl TryFrom<&(f32, f32, f32)> for LabValue {
            type Error = ValueError;
            fn try_from(tuple: &(f32, f32, f32)) -> ValueResult<LabValue> {
                LabValue {
                    l: tuple.0,
                    a: tuple.1,
                    b: tuple.2,
                }.validate()
            }
        }

        // To Lch /////////////////////////////////////////////////////////////////////
        #[fwdad::derive_frule]
        impl From<LabValue> for LchValue {
            fn from(lab: LabValue) -> LchValue {
                LchValue {
                    l: lab.l,
                    c: ( lab.a.powi(2) + lab.b.powi(2) ).sqrt(),
                    h: get_h_prime(lab.a, lab.b),
                }
            }
        }

        #[fwdad::derive_frule]
        impl From<&LabValue> for LchValue {
            fn from(lab: &LabValue) -> LchValue {
                LchValue::from(*lab)
            }
        }

        #[fwdad::derive_frule]
        impl From<XyzValue> for LchValue {
            fn from(xyz: XyzValue) -> LchValue {
                LchValue::from(LabValue::from(xyz))
            }
        }

        #[fwdad::derive_frule]
        impl From<&XyzValue> for LchValue {
            fn from(xyz: &XyzValue) -> LchValue {
                LchValue::from(*xyz)
            }
        }

        impl TryFrom<&[f32; 3]> for LchValue {
            type Error = ValueError;
            fn try_from(slice: &[f32; 3]) -> ValueResult<LchValue> {
                LchValue {
                    l: slice[0],
                    c: slice[1],
                    h: slice[2]
                }.validate()
            }
        }

        impl TryFrom<(f32, f32, f32)> for LchValue {
            type Error = ValueError;
            fn try_from(tuple: (f32, f32, f32)) -> ValueResult<LchValue> {
                LchValue {
                    l: tuple.0,
                    c: tuple.1,
                    h: tuple.2,
                }.validate()
            }
        }

        impl TryFrom<&(f32, f32, f32)> for LchValue {
            type Error = ValueError;
            fn try_from(tuple: &(f32, f32, f32)) -> ValueResult<LchValue> {
                LchValue {
                    l: tuple.0,
                    c: tuple.1,
                    h: tuple.2,
                }.validate()
            }
        }

        // To Xyz /////////////////////////////////////////////////////////////////////
        #[fwdad::derive_frule]
        impl From<LabValue> for XyzValue {
            fn from(lab: LabValue) -> XyzValue {
                let fy = (lab.l + 16.0) / 116.0;
                let fx = (lab.a / 500.0) + fy;
                let fz = fy - (lab.b / 200.0);
                let xr = if fx > CBRT_EPSILON as f32 {
                    fx.powi(3)
                } else {
                    ((fx * 116.0) - 16.0) / KAPPA
                };
                let yr = if lab.l > EPSILON * KAPPA {
                    fy.powi(3)
                } else {
                    lab.l / KAPPA
                };
                let zr = if fz > CBRT_EPSILON as f32 {
                    fz.powi(3)
                } else {
                    ((fz * 116.0) - 16.0) / KAPPA
                };

                XyzValue {
                    x: xr * 0.9642,
                    y: yr,
                    z: zr * 0.8251,
                }
            }
        }

        #[fwdad::derive_frule]
        impl From<&LabValue> for XyzValue {
            fn from(lab: &LabValue) -> XyzValue {
                XyzValue::from(*lab)
            }
        }

        #[fwdad::derive_frule]
        impl From<LchValue> for XyzValue {
            fn from(lch: LchValue) -> XyzValue {
                XyzValue::from(LabValue::from(lch))
            }
        }

        #[fwdad::derive_frule]
        impl From<&LchValue> for XyzValue {
            fn from(lch: &LchValue) -> XyzValue {
                XyzValue::from(*lch)
            }
        }

        impl TryFrom<&[f32; 3]> for XyzValue {
            type Error = ValueError;
            fn try_from(slice: &[f32; 3]) -> ValueResult<XyzValue> {
                XyzValue {
                    x: slice[0],
                    y: slice[1],
                    z: slice[2]
                }.validate()
            }
        }

        impl TryFrom<(f32, f32, f32)> for XyzValue {
            type Error = ValueError;
            fn try_from(tuple: (f32, f32, f32)) -> ValueResult<XyzValue> {
                XyzValue {
                    x: tuple.0,
                    y: tuple.1,
                    z: tuple.2,
                }.validate()
            }
        }

        impl TryFrom<&(f32, f32, f32)> for XyzValue {
            type Error = ValueError;
            fn try_from(tuple: &(f32, f32, f32)) -> ValueResult<XyzValue> {
                XyzValue {
                    x: tuple.0,
                    y: tuple.1,
                    z: tuple.2,
                }.validate()
            }
        }

        // FromStr ////////////////////////////////////////////////////////////////////
        impl FromStr for DEMethod {
            type Err = ParseDEMethodError;
            fn from_str(s: &str) -> Result<DEMethod, Self::Err> {
                Ok(match s.to_lowercase().trim() {
                    "de2000"  | "de00"  | "2000"  | "00"  => DEMethod::DE2000,
                    "de1976"  | "de76"  | "1976"  | "76"  => DEMethod::DE1976,
                    "de1994"  | "de94"  | "1994"  | "94" |
                    "de1994g" | "de94g" | "1994g" | "94g" => DEMethod::DE1994G,
                    "de1994t" | "de94t" | "1994t" | "94t" => DEMethod::DE1994T,
                    "decmc"   | "decmc1"| "cmc1"  | "cmc" => DEMethod::DECMC(1.0, 1.0),
                    "decmc2"  | "cmc2"                    => DEMethod::DECMC(2.0, 1.0),
                    method => if method.contains("cmc") {
                        let mut split = method
                            .split('c')
                            .nth(2)
                            .ok_or(Self::Err::Other)?
                            .split(':')
                            .map(|word| word.replace(['(', ')'], ""));
                        let tl = split.next()
                            .ok_or(Self::Err::MissingTlValue)?
                            .parse()
                            .map_err(Self::Err::InvalidValue)?;
                        let tc = split.next()
                            .ok_or(Self::Err::MissingTcValue)?
                            .parse()
                            .map_err(Self::Err::InvalidValue)?;
                        DECMC(tl, tc)
                    } else {
                        return Err(Self::Err::Other);
                    }
                })
            }
        }

        #[test]
        fn parse_cmc_method() {
            let cmc_methods = [
                "decmc", "decmc1", "decmc2", "cmc1", "cmc2", "cmc", "cmc1:1", "cmc2:1",
                "cmc(2.0:2.0)", "cmc(1:2)", "cmc(1.5:2.5)",
            ];

            for i in cmc_methods {
                let method = i.parse().unwrap();
                matches!(method, DEMethod::DECMC(_,_));
            }
        }

        #[derive(Debug)]
        pub enum ParseDEMethodError {
            MissingTlValue,
            MissingTcValue,
            InvalidValue(ParseFloatError),
            Other,
        }

        impl Error for ParseDEMethodError {}

        impl fmt::Display for ParseDEMethodError {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    Self::MissingTlValue => write!(f, "CMC missing lightness tolerance"),
                    Self::MissingTcValue => write!(f, "CMC missing chroma tolerance"),
                    Self::InvalidValue(e) => write!(f, "invalid value: {e}"),
                    Self::Other => write!(f, "unable to parse DEMethod"),
                }
            }
        }

        impl FromStr for LabValue {
            type Err = ValueError;
            fn from_str(s: &str) -> ValueResult<LabValue> {
                let split = parse_str_to_vecf32(s, 3)?;

                LabValue {
                    l: split[0],
                    a: split[1],
                    b: split[2],
                }.validate()
            }
        }

        impl FromStr for LchValue {
            type Err = ValueError;
            fn from_str(s: &str) -> ValueResult<LchValue> {
                let split = parse_str_to_vecf32(s, 3)?;

                LchValue {
                    l: split[0],
                    c: split[1],
                    h: split[2],
                }.validate()
            }
        }

        impl FromStr for XyzValue {
            type Err = ValueError;
            fn from_str(s: &str) -> ValueResult<XyzValue> {
                let split = parse_str_to_vecf32(s, 3)?;

                XyzValue {
                    x: split[0],
                    y: split[1],
                    z: split[2],
                }.validate()
            }

        }

        // Helper Functions ////////////////////////////////////////////////////////////
        const KAPPA: f32 = 24389.0 / 27.0; // CIE Standard: 903.3
        const EPSILON: f32 = 216.0 / 24389.0; // CIE Standard: 0.008856
        const CBRT_EPSILON: f64 = 0.20689655172413796;

        #[fwdad::derive_frule]
        pub fn get_h_prime(a: f32, b: f32) -> f32 {
            let h_prime = b.atan2(a).to_degrees();
            if h_prime < 0.0 {
                h_prime + 360.0
            } else {
                h_prime
            }
        }

        // Validate and convert strings to `LabValue`.
        // Split string by comma (92.5,33.5,-18.8).
        fn parse_str_to_vecf32(s: &str, length: usize) -> ValueResult<Vec<f32>> {
            let collection: Vec<&str> = s.split(',').collect();

            // Allow extraneous whitespace ("92.5, 33.5, -18.8")
            let mut v: Vec<&str> = Vec::new();
            for item in collection.iter() {
                if !item.is_empty() {
                    v.push(item.trim());
                }
            }
            // Parse the f32's into a Vec
            let split: Vec<f32> = v.iter().filter_map(|s| s.parse().ok()).collect();

            // Check if it's the right number of items
            if v.len() != length || split.len() != length {
                return Err(ValueError::BadFormat);
            }

            Ok(split)
        }

        #[inline]
        #[fwdad::derive_frule]
        fn xyz_to_lab_map(c: f32) -> f32 {
            if c > EPSILON {
                c.powf(1.0/3.0)
            } else {
                (KAPPA * c + 16.0) / 116.0
            }
        }
    }
    mod delta {
        // ---- src/delta.rs ----
        use super::*;

        /// Trait to determine color difference between various types.
        /// As long as the type can be converted to Lab, we can calculate DeltaE.
        pub trait Delta: Into<LabValue> {
            /// Calculate DeltaE between 2 types
            /// ```
            /// use deltae::*;
            ///
            /// let lch = LchValue::new(60.3, 89.2, 270.0).unwrap();
            /// let xyz = XyzValue::new(0.347, 0.912, 0.446).unwrap();
            /// let de  = lch.delta(xyz, DE1976);
            /// assert_eq!(de, 180.18364);
            /// ```
            #[inline]
            fn delta<L: Into<LabValue>>(self, other: L, method: DEMethod) -> DeltaE {
                let reference: LabValue = self.into();
                let sample: LabValue = other.into();
                let value = match method {
                    DEMethod::DE1976 => delta_e_1976(&reference, &sample),
                    DEMethod::DE1994T => delta_e_1994(&reference, &sample, true),
                    DEMethod::DE1994G => delta_e_1994(&reference, &sample, false),
                    DEMethod::DE2000 => delta_e_2000(&reference, &sample),
                    DEMethod::DECMC(t_l, t_c) => delta_e_cmc(&reference, &sample, t_l, t_c),
                };

                DeltaE { value, method, reference, sample }
            }
        }

        impl<T: Into<LabValue>> Delta for T {}

        /// DeltaE 1976. Basic euclidian distance formula.
        #[inline]
        #[fwdad::derive_frule]
        fn delta_e_1976(lab_0: &LabValue, lab_1: &LabValue) -> f32 {
            ( (lab_0.l - lab_1.l).powi(2) + (lab_0.a - lab_1.a).powi(2) + (lab_0.b - lab_1.b).powi(2) ).sqrt()
        }

        /// DeltaE 1994. Weighted for textiles (`true`) or graphics (`false`)
        #[inline]
        #[fwdad::derive_frule]
        fn delta_e_1994(lab_0: &LabValue, lab_1: &LabValue, textiles: bool) -> f32 {
            let delta_l = lab_0.l - lab_1.l;
            let chroma_0 = (lab_0.a.powi(2) + lab_0.b.powi(2)).sqrt();
            let chroma_1 = (lab_1.a.powi(2) + lab_1.b.powi(2)).sqrt();
            let delta_chroma = chroma_0 - chroma_1;
            let delta_a = lab_0.a - lab_1.a;
            let delta_b = lab_0.b - lab_1.b;
            let delta_hue = (delta_a.powi(2) + delta_b.powi(2) - delta_chroma.powi(2)).sqrt();

            let (kl, k1, k2) = match textiles {
                true => (2.0, 0.048, 0.014),
                false => (1.0, 0.045, 0.015),
            };

            let s_l = 1.0;
            let s_c = 1.0 + k1 * chroma_0;
            let s_h = 1.0 + k2 * chroma_0;

            ((delta_l / kl * s_l).powi(2) + (delta_chroma / s_c).powi(2) + (delta_hue / s_h).powi(2)).sqrt()
        }

        /// DeltaE 2000. This is a ridiculously complicated formula.
        #[inline]
        #[fwdad::derive_frule]
        fn delta_e_2000(lab_0: &LabValue, lab_1: &LabValue) -> f32 {
            let chroma_0 = (lab_0.a.powi(2) + lab_0.b.powi(2)).sqrt();
            let chroma_1 = (lab_1.a.powi(2) + lab_1.b.powi(2)).sqrt();

            let c_bar = (chroma_0 + chroma_1) / 2.0;

            let g = 0.5 * (1.0 - ( c_bar.powi(7) / (c_bar.powi(7) + 25_f32.powi(7)) ).sqrt());

            let a_prime_0 = lab_0.a * (1.0 + g);
            let a_prime_1 = lab_1.a * (1.0 + g);

            let c_prime_0 = (a_prime_0.powi(2) + lab_0.b.powi(2)).sqrt();
            let c_prime_1 = (a_prime_1.powi(2) + lab_1.b.powi(2)).sqrt();

            let l_bar_prime = (lab_0.l + lab_1.l)/2.0;
            let c_bar_prime = (c_prime_0 + c_prime_1) / 2.0;

            let h_prime_0 = convert::get_h_prime(a_prime_0, lab_0.b);
            let h_prime_1 = convert::get_h_prime(a_prime_1, lab_1.b);

            let h_bar_prime = if (h_prime_0 - h_prime_1).abs() > 180.0 {
                if (h_prime_0 - h_prime_1) < 360.0 {
                    (h_prime_0 + h_prime_1 + 360.0) / 2.0
                } else {
                    (h_prime_0 + h_prime_1 - 360.0) / 2.0
                }
            } else {
                (h_prime_0 + h_prime_1) / 2.0
            };

            let t = 1.0 - 0.17 * ((      h_bar_prime - 30.0).to_radians()).cos()
                        + 0.24 * ((2.0 * h_bar_prime       ).to_radians()).cos()
                        + 0.32 * ((3.0 * h_bar_prime +  6.0).to_radians()).cos()
                        - 0.20 * ((4.0 * h_bar_prime - 63.0).to_radians()).cos();

            let mut delta_h = h_prime_1 - h_prime_0;
            if delta_h > 180.0 && h_prime_1 <= h_prime_0 {
                delta_h += 360.0;
            } else if delta_h > 180.0 {
                delta_h -= 360.0;
            };

            let delta_l_prime = lab_1.l - lab_0.l;
            let delta_c_prime = c_prime_1 - c_prime_0;
            let delta_h_prime = 2.0 * (c_prime_0 * c_prime_1).sqrt() * (delta_h.to_radians() / 2.0).sin();

            let s_l = 1.0 + (
                      (0.015 * (l_bar_prime - 50.0).powi(2))
                    / (20.00 + (l_bar_prime - 50.0).powi(2)).sqrt()
                );
            let s_c = 1.0 + 0.045 * c_bar_prime;
            let s_h = 1.0 + 0.015 * c_bar_prime * t;

            let delta_theta = 30.0 * (-((h_bar_prime - 275.0)/25.0).powi(2)).exp();
            let r_c =  2.0 * (c_bar_prime.powi(7)/(c_bar_prime.powi(7) + 25_f32.powi(7))).sqrt();
            let r_t = -(r_c * (2.0 * delta_theta.to_radians()).sin());

            let k_l = 1.0;
            let k_c = 1.0;
            let k_h = 1.0;

            (
                (delta_l_prime/(k_l*s_l)).powi(2)
              + (delta_c_prime/(k_c*s_c)).powi(2)
              + (delta_h_prime/(k_h*s_h)).powi(2)
              + (r_t * (delta_c_prime/(k_c*s_c)) * (delta_h_prime/(k_h*s_h)))
            ).sqrt()
        }

        /// Custom weighted DeltaE formula
        #[inline]
        #[fwdad::derive_frule]
        fn delta_e_cmc(lab0: &LabValue, lab1: &LabValue, tolerance_l: f32, tolerance_c: f32) -> f32 {
            let chroma_0 = (lab0.a.powi(2) + lab0.b.powi(2)).sqrt();
            let chroma_1 = (lab1.a.powi(2) + lab1.b.powi(2)).sqrt();
            let delta_c = chroma_0 - chroma_1;

            let delta_l = lab0.l - lab1.l;
            let delta_a = lab0.a - lab1.a;
            let delta_b = lab0.b - lab1.b;

            let delta_h = (delta_a.powi(2) + delta_b.powi(2) - delta_c.powi(2)).sqrt();

            let s_l = if lab0.l < 16.0 {
                0.511
            } else {
                (0.040975 * lab0.l) / (1.0 + (0.01765 * lab0.l))
            };

            let s_c = ((0.0638 * chroma_0) / (1.0 + (0.0131 * chroma_0))) + 0.638;

            let h = lab0.b.atan2(lab0.a).to_degrees();

            let h_1 = if h >= 0.0 { h } else { h + 360.0 };

            let f = (chroma_0.powi(4) / (chroma_0.powi(4) + 1900.0)).sqrt();

            let t = if (164.0..345.0).contains(&h_1) {
                0.56 + (0.2 * (h_1 + 168.0).to_radians().cos()).abs()
            } else {
                0.36 + (0.4 * (h_1 + 35.0).to_radians().cos()).abs()
            };

            let s_h = s_c * (f * t + 1.0 - f);

            (
                (delta_l / (tolerance_l * s_l)).powi(2)
              + (delta_c / (tolerance_c * s_c)).powi(2)
              + (delta_h / s_h).powi(2)
            )
            .sqrt()
        }
    }
    pub mod eq {
        // ---- src/eq.rs ----
        //! ## `Tolerance` and `DeltaEq` traits
        //!
        //! This module deals with comparing two colors by [`DeltaE`] within a certain [`Tolerance`].
        //!
        //! See also: [`assert_delta_eq`]
        //!
        //! ### Implementing `Tolerance` and `DeltaEq`
        //!
        //! ```
        //! use deltae::*;
        //!
        //! struct MyTolerance(f32);
        //!
        //! impl Tolerance for MyTolerance {
        //!     fn tolerance(self) -> f32 {
        //!         self.0
        //!     }
        //! }
        //!
        //! #[derive(Copy, Clone)]
        //! struct MyLab(f32, f32, f32);
        //!
        //! // Types that implement Into<Lab> also implement the Delta trait
        //! impl From<MyLab> for LabValue {
        //!     fn from(mylab: MyLab) -> LabValue {
        //!         LabValue {
        //!             l: mylab.0,
        //!             a: mylab.1,
        //!             b: mylab.2,
        //!         }
        //!     }
        //! }
        //!
        //! impl<D: Delta + Copy> DeltaEq<D> for MyLab {}
        //!
        //! let mylab = MyLab(89.73, 1.88, -6.96);
        //! let lab = LabValue::new(89.73, 1.88, -6.96).unwrap();
        //! let de2000 = mylab.delta(lab, DEMethod::DE2000);
        //! assert!(mylab.delta_eq(&lab, DE1976, 0.0));
        //! ```
        use crate::*;

        /// Trait to determine whether two values are within a certain tolerance of [`DeltaE`]. Types that
        /// implement Into<[`LabValue`]> implicitly implement [`Delta`]. Types that implement [`Delta`] and
        /// [`Copy`] may also implement DeltaEq for other types that also implement [`Delta`] and [`Copy`].
        /// ```
        /// use deltae::*;
        ///
        /// #[derive(Copy, Clone)]
        /// struct MyLab(f32, f32, f32);
        ///
        /// // Types that implement Into<Lab> implicitly implement the Delta trait
        /// impl From<MyLab> for LabValue {
        ///     fn from(mylab: MyLab) -> LabValue {
        ///         LabValue {
        ///             l: mylab.0,
        ///             a: mylab.1,
        ///             b: mylab.2,
        ///         }
        ///     }
        /// }
        ///
        /// // Types that implement Delta and Copy may also implement DeltaEq for other types that also
        /// // implement Delta and Copy
        /// impl<D: Delta + Copy> DeltaEq<D> for MyLab {}
        ///
        /// let mylab = MyLab(89.73, 1.88, -6.96);
        /// let lab = LabValue::new(89.73, 1.88, -6.96).unwrap();
        /// let de2000 = mylab.delta(lab, DEMethod::DE2000);
        /// assert!(mylab.delta_eq(&lab, DE1976, 0.0));
        /// ```
        pub trait DeltaEq<D: Delta + Copy>: Delta + Copy {
            /// Return true if the value is less than or equal to the [`Tolerance`]
            fn delta_eq<T: Tolerance>(&self, other: D, method: DEMethod, tolerance: T) -> bool {
                self.delta(other, method).value() <= &tolerance.tolerance()
            }
        }

        /// Convenience macro for asserting two values are equivalent within a tolerance
        /// ```
        /// use deltae::*;
        ///
        /// let lab0 = LabValue::new(50.0, 0.0, 0.0).unwrap();
        /// let lab1 = LabValue::new(50.1, 0.1, 0.1).unwrap();
        ///
        /// // Assert that the difference between lab0 and lab1 is less than 1.0 DE2000
        /// assert_delta_eq!(lab0, lab1, DE2000, 1.0);
        /// ```
        #[macro_export]
        macro_rules! assert_delta_eq {
            ($reference:expr, $sample:expr, $method:expr, $tolerance:expr) => {
                assert!($reference.delta_eq($sample, $method, $tolerance))
            };
            ($reference:expr, $sample:expr, $method:expr, $tolerance:expr, $($message:tt)*) => {
                assert!($reference.delta_eq($sample, $method, $tolerance), $($message)*)
            };
        }

        /// Convenience macro for asserting two values are not equivalent within a tolerance
        /// ```
        /// use deltae::*;
        ///
        /// let lab0 = LabValue::new(50.0, 0.0, 0.0).unwrap();
        /// let lab1 = LabValue::new(50.1, 1.0, 1.0).unwrap();
        ///
        /// // Assert that the difference between lab0 and lab1 is greater than 1.0 DE2000
        /// assert_delta_ne!(lab0, lab1, DE2000, 1.0);
        /// ```
        #[macro_export]
        macro_rules! assert_delta_ne {
            ($reference:expr, $sample:expr, $method:expr, $tolerance:expr) => {
                assert!(!$reference.delta_eq($sample, $method, $tolerance))
            };
            ($reference:expr, $sample:expr, $method:expr, $tolerance:expr, $($message:tt)*) => {
                assert!(!$reference.delta_eq($sample, $method, $tolerance), $($message)*)
            };
        }

        /// Trait to define a tolerance value for the [`DeltaEq`] trait
        pub trait Tolerance {
            /// Return a tolerance value
            fn tolerance(self) -> f32;
        }

        impl Tolerance for f32 {
            fn tolerance(self) -> f32 {
                self
            }
        }

        impl Tolerance for f64 {
            fn tolerance(self) -> f32 {
                self as f32
            }
        }

        impl Tolerance for DeltaE {
            fn tolerance(self) -> f32 {
                self.value
            }
        }

        macro_rules! impl_delta_eq {
            ($t:ty) => {
                impl<D: Delta + Copy> DeltaEq<D> for $t {}
            }
        }

        impl_delta_eq!(LabValue);
        impl_delta_eq!(LchValue);
        impl_delta_eq!(XyzValue);
    }
    mod round {
        // ---- src/round.rs ----
        use super::*;

        /// Trait for rounding values to a number of decimal places
        #[fwdad::derive_frule]
        pub trait Round {
            /// Rounds the value to a number of decimal places
            fn round_to(self, places: i32) -> Self;
        }

        // Round an f32 to a number of decimal places
        #[fwdad::derive_frule]
        fn round_to(val: f32, places: i32) -> f32 {
            let mult = 10_f32.powi(places);
            (val * mult).round() / mult
        }

        #[fwdad::derive_frule]
        impl Round for DeltaE {
            fn round_to(self, places: i32) -> Self {
                Self {
                    value: round_to(self.value, places),
                    ..self
                }
            }
        }

        #[fwdad::derive_frule]
        impl Round for LabValue {
            fn round_to(self, places: i32) -> LabValue {
                Self {
                    l: round_to(self.l, places),
                    a: round_to(self.a, places),
                    b: round_to(self.b, places),
                }
            }
        }

        #[fwdad::derive_frule]
        impl Round for LchValue {
            fn round_to(self, places: i32) -> LchValue {
                Self {
                    l: round_to(self.l, places),
                    c: round_to(self.c, places),
                    h: round_to(self.h, places),
                }
            }
        }

        #[fwdad::derive_frule]
        impl Round for XyzValue {
            fn round_to(self, places: i32) -> XyzValue {
                Self {
                    x: round_to(self.x, places),
                    y: round_to(self.y, places),
                    z: round_to(self.z, places),
                }
            }
        }

        #[test]
        fn round() {
            let val = 1.2345679;
            let rnd = round::round_to(val, 4);
            assert_eq!(rnd, 1.2346);
            assert_ne!(rnd, val);
        }
    }
    mod validate {
        // ---- src/validate.rs ----
        use super::*;

        /// Trait to validate whether a type has appropriate values
        #[fwdad::derive_frule]
        pub trait Validate where Self: Sized {
            /// Return `Err()` if the values are invalid
            fn validate(self) -> ValueResult<Self>;
        }

        const RANGE_PCT: std::ops::RangeInclusive<f32> = 0.0..=100.0;
        const RANGE_I8: std::ops::RangeInclusive<f32> = -128.0..=128.0;
        const RANGE_CHROMA: std::ops::RangeInclusive<f32> = 0.0..=181.01933;
        const RANGE_360: std::ops::RangeInclusive<f32> = 0.0..=360.0;
        const RANGE_01: std::ops::RangeInclusive<f32> = 0.0..=1.0;

        #[fwdad::derive_frule]
        impl Validate for LabValue {
            fn validate(self) -> ValueResult<Self> {
                if RANGE_PCT.contains(&self.l)
                    && RANGE_I8.contains(&self.a)
                    && RANGE_I8.contains(&self.b)
                {
                    Ok(self)
                } else {
                    Err(ValueError::OutOfBounds)
                }
            }
        }

        #[fwdad::derive_frule]
        impl Validate for LchValue {
            fn validate(self) -> ValueResult<Self> {
                if RANGE_PCT.contains(&self.l)
                    && RANGE_CHROMA.contains(&self.c)
                    && RANGE_360.contains(&self.h)
                {
                    Ok(self)
                } else {
                    Err(ValueError::OutOfBounds)
                }
            }
        }

        #[fwdad::derive_frule]
        impl Validate for XyzValue {
            fn validate(self) -> ValueResult<Self> {
                if RANGE_01.contains(&self.x)
                    && RANGE_01.contains(&self.y)
                    && RANGE_01.contains(&self.z)
                {
                    Ok(self)
                } else {
                    Err(ValueError::OutOfBounds)
                }
            }
        }
    }

    // #[cfg(test)] (left out)
    // mod tests; (left out)

    pub use DEMethod::*;
    pub use color::*;
    pub use delta::*;
    pub use eq::*;
    pub use round::*;
    pub use validate::*;

    use std::fmt;

    pub(crate) type ValueResult<T> = Result<T, color::ValueError>;

    /// ## The measured difference between two colors
    ///
    /// There are many different methods of calculating color difference. Different methods have a
    /// specific purpose, mainly in determining the level of tolerance for describing the difference
    /// between two colors. Regardless of the [`DEMethod`] used, [`DeltaE`] is always calculated based on the
    /// [`LabValue`]s of the two colors.
    #[derive(Debug, Clone, Copy, fwdad::Differentiable)]
    pub struct DeltaE {
        /// The mathematical method used for calculating color difference
        method: DEMethod,
        /// The calculated Delta E value
        value: f32,
        /// The reference color
        reference: LabValue,
        /// The sample color
        sample: LabValue,
    }

    impl DeltaE {
        /// New [`DeltaE`] from two colors and a [`DEMethod`].
        /// ```
        /// use deltae::{LabValue, DeltaE, DEMethod::DE2000};
        ///
        /// let lab0 = LabValue::new(89.73, 1.88, -6.96).unwrap();
        /// let lab1 = LabValue::new(95.08, -0.17, -10.81).unwrap();
        /// let de0 = DeltaE::new(&lab0, &lab1, DE2000);
        /// assert_eq!(de0, 5.316941);
        /// ```
        #[inline]
        pub fn new<A, B>(a: A, b: B, method: DEMethod) -> DeltaE
        where A: Delta, B: Delta {
            a.delta(b, method)
        }

        /// Recalculate [`DeltaE`] with another [`DEMethod`]
        /// ```
        /// use deltae::{Delta, DeltaE, LabValue, DEMethod};
        ///
        /// let lab0 = LabValue::new(89.73, 1.88, -6.96).unwrap();
        /// let lab1 = LabValue::new(95.08, -0.17, -10.81).unwrap();
        /// let de2000 = lab0.delta(lab1, DEMethod::DE2000);
        /// let de1976 = de2000.with_method(DEMethod::DE1976);
        /// assert_eq!(de1976, 6.902716);
        /// ```
        #[inline]
        pub fn with_method(self, method: DEMethod) -> Self {
            self.reference.delta(self.sample, method)
        }

        /// Return a reference to the [`DeltaE`] method used in the calculation
        pub fn method(&self) -> &DEMethod {
            &self.method
        }

        /// Return a reference to the [`DeltaE`] value
        pub fn value(&self) -> &f32 {
            &self.value
        }

        /// Return a reference to the reference [`LabValue`] used in the calculation. A reference color
        /// is the base color to which the sample color is being compared.
        pub fn reference(&self) -> &LabValue {
            &self.reference
        }

        /// Return a reference to the sample [`LabValue`] used in the calculation. A sample color is
        /// the color being compared to the reference color.
        pub fn sample(&self) -> &LabValue {
            &self.sample
        }
    }

    impl fmt::Display for DeltaE {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "{}", &self.value)
        }
    }

    impl PartialEq<f32> for DeltaE {
        fn eq(&self, f: &f32) -> bool {
            &self.value == f
        }
    }

    impl PartialEq for DeltaE {
        fn eq(&self, other: &Self) -> bool {
            self.value == other.value
        }
    }

    /// One should be careful when ordering DeltaE. A `DE2000:1.0` value is not
    /// necessarily the same amount of color difference as a amount of color
    /// difference `DE1976:1.0` value.
    impl PartialOrd for DeltaE {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            self.value.partial_cmp(&other.value)
        }
    }

    /// The most common DeltaE methods
    #[derive(Debug, PartialEq, Clone, Copy, Default, fwdad::Differentiable)]
    pub enum DEMethod{
        /// The defacto standard DeltaE method, weighted to account for human color vision tolerances
        #[default]
        DE2000,
        /// An implementation of DeltaE with separate tolerances for Lightness and Chroma
        DECMC(
            /// Lightness tolerance
            f32,
            /// Chroma tolerance
            f32,
        ),
        /// CIE94 DeltaE implementation, weighted with a tolerance for graphics
        DE1994G,
        /// CIE94 DeltaE implementation, weighted with a tolerance for textiles
        DE1994T,
        /// The original DeltaE implementation, a basic euclidian distance formula
        DE1976,
    }

    /// DeltaE CMC (1:1)
    pub const DECMC1: DEMethod = DECMC(1.0, 1.0);
    /// DeltaE CMC (2:1)
    pub const DECMC2: DEMethod = DECMC(2.0, 1.0);

    impl Eq for DEMethod {}

    impl fmt::Display for DEMethod {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            match self {
                DECMC(tl, tc) => {
                    if (tl, tc) == (&1.0, &1.0) {
                        write!(f, "DECMC1")
                    } else if (tl, tc) == (&2.0, &1.0) {
                        write!(f, "DECMC2")
                    } else {
                        write!(f, "DECMC({:0.2}:{:0.2})", tl, tc)
                    }
                }
                _ => write!(f, "{:?}", self)
            }
        }
    }
}

// ---- the checks ----

#[cfg(test)]
mod tests {
    use super::*;
    use fwdad::prelude::*;

    /// `|got − want| ≤ tol (|want| + floor)`: the rules compute in `f32`.
    fn near(got: f64, want: f64, tol: f64, floor: f64, what: &str) {
        assert!(
            (got - want).abs() <= tol * (want.abs() + floor),
            "{what}: {got}, want {want}"
        );
    }

    /// A rule's gradient in every mode (one direction per input, batches of four and one,
    /// `gradient`, second order) against `want`, each primal bit for bit `y`; the Hessian
    /// against `hess`.
    macro_rules! every_mode {
        ($rule:expr, $x:expr, $y:expr, $want:expr, $hess:expr) => {{
            let x: &[f64] = &$x;
            let want: Vec<f64> = $want;
            let hess: Vec<Vec<f64>> = $hess;
            let mut modes: Vec<(&str, f64, Vec<f64>)> = Vec::new();
            let mut one = Vec::new();
            for k in 0..x.len() {
                let mut e = vec![0.0; x.len()];
                e[k] = 1.0;
                let (v, d): (f64, f64) = fwdad::drivers::jvp($rule, x, &e);
                assert_eq!(v.to_bits(), $y.to_bits(), "one direction: primal");
                one.push(d);
            }
            modes.push(("one direction", $y, one));
            let (v, g) = fwdad::drivers::gradient_with::<4>($rule, x);
            modes.push(("batch of 4", v, g));
            let (v, g) = fwdad::drivers::gradient_with::<1>($rule, x);
            modes.push(("batch of 1", v, g));
            let (v, g) = gradient($rule, x);
            modes.push(("gradient", v, g));
            let (v, g, h) = fwdad::drivers::hessian_with::<2>($rule, x);
            modes.push(("second order", v, g));
            for (mode, v, g) in modes {
                assert_eq!(v.to_bits(), $y.to_bits(), "{mode}: primal");
                for k in 0..x.len() {
                    near(g[k], want[k], 1e-5, 1e-3, &format!("{mode}: d/dx{k}"));
                }
            }
            for i in 0..x.len() {
                for j in 0..x.len() {
                    near(h[(i, j)], hess[i][j], 1e-4, 1e-3, &format!("d2/dx{i}dx{j}"));
                }
            }
        }};
    }

    /// Lab colours whose coordinates `f32` holds exactly.
    const LABS: [[f64; 3]; 3] = [
        [60.25, -34.0, 36.5],
        [22.75, 20.125, -46.75],
        [89.5, 1.875, -7.0],
    ];

    /// The chroma of a Lab colour, through the crate's LCh conversion.
    #[derive_frule]
    fn chroma(x: &[f64]) -> f64 {
        let lch = LchValue::from(LabValue {
            l: x[0] as f32,
            a: x[1] as f32,
            b: x[2] as f32,
        });
        lch.c as f64
    }

    /// Its hue angle in degrees, [0, 360).
    #[derive_frule]
    fn hue(x: &[f64]) -> f64 {
        let lch = LchValue::from(LabValue {
            l: x[0] as f32,
            a: x[1] as f32,
            b: x[2] as f32,
        });
        lch.h as f64
    }

    #[test]
    fn chroma_and_hue_against_their_closed_forms() {
        // c = √(a² + b²): ∇ = (0, a, b) / c, ∇² = [[0, 0, 0], [0, b², −ab], [0, −ab, a²]] / c³;
        // h = atan2(b, a) in degrees: ∇ = (0, −b, a) / c² · 180/π,
        // ∇² = [[0, 0, 0], [0, 2ab, b² − a²], [0, b² − a², −2ab]] / c⁴ · 180/π.
        let deg = 180.0 / std::f64::consts::PI;
        for x in LABS {
            let (a, b) = (x[1], x[2]);
            let c = a.hypot(b);
            let lab = ::deltae::LabValue {
                l: x[0] as f32,
                a: a as f32,
                b: b as f32,
            };
            let published = ::deltae::LchValue::from(lab);

            let y = chroma(&x);
            assert_eq!(y.to_bits(), (published.c as f64).to_bits());
            let c3 = c * c * c;
            every_mode!(
                chroma {},
                x,
                y,
                vec![0.0, a / c, b / c],
                vec![
                    vec![0.0; 3],
                    vec![0.0, b * b / c3, -a * b / c3],
                    vec![0.0, -a * b / c3, a * a / c3],
                ]
            );

            let y = hue(&x);
            assert_eq!(y.to_bits(), (published.h as f64).to_bits());
            let (c2, c4) = (c * c, c * c * c * c);
            every_mode!(
                hue {},
                x,
                y,
                vec![0.0, -b / c2 * deg, a / c2 * deg],
                vec![
                    vec![0.0; 3],
                    vec![0.0, 2.0 * a * b / c4 * deg, (b * b - a * a) / c4 * deg],
                    vec![0.0, (b * b - a * a) / c4 * deg, -2.0 * a * b / c4 * deg],
                ]
            );
        }
    }

    /// The relative luminance Y of a Lab colour (D50), through the crate's XYZ conversion.
    #[derive_frule]
    fn luminance(x: &[f64]) -> f64 {
        let lab = LabValue {
            l: x[0] as f32,
            a: x[1] as f32,
            b: x[2] as f32,
        };
        XyzValue::from(lab).y as f64
    }

    /// X of a Lab colour.
    #[derive_frule]
    fn tristimulus_x(x: &[f64]) -> f64 {
        let xyz: XyzValue = LabValue {
            l: x[0] as f32,
            a: x[1] as f32,
            b: x[2] as f32,
        }
        .into();
        xyz.x as f64
    }

    #[test]
    fn lab_to_xyz_against_its_closed_form() {
        // Above the linear toe: Y = f_y³, X = 0.9642 f_x³, f_y = (L + 16) / 116,
        // f_x = f_y + a / 500.
        for x in LABS {
            let lab = ::deltae::LabValue {
                l: x[0] as f32,
                a: x[1] as f32,
                b: x[2] as f32,
            };
            let published = ::deltae::XyzValue::from(lab);
            let fy = (x[0] + 16.0) / 116.0;
            let y = luminance(&x);
            assert_eq!(y.to_bits(), (published.y as f64).to_bits());
            let d = 6.0 * fy / (116.0 * 116.0);
            every_mode!(
                luminance {},
                x,
                y,
                vec![3.0 * fy * fy / 116.0, 0.0, 0.0],
                vec![vec![d, 0.0, 0.0], vec![0.0; 3], vec![0.0; 3]]
            );
            let fx = fy + x[1] / 500.0;
            let y = tristimulus_x(&x);
            assert_eq!(y.to_bits(), (published.x as f64).to_bits());
            let (dl, da) = (1.0 / 116.0, 1.0 / 500.0);
            let k = 0.9642 * 6.0 * fx;
            every_mode!(
                tristimulus_x {},
                x,
                y,
                vec![
                    0.9642 * 3.0 * fx * fx * dl,
                    0.9642 * 3.0 * fx * fx * da,
                    0.0
                ],
                vec![
                    vec![k * dl * dl, k * dl * da, 0.0],
                    vec![k * dl * da, k * da * da, 0.0],
                    vec![0.0; 3],
                ]
            );
        }
    }

    /// CIE b* of an XYZ colour (D50), through the crate's Lab conversion.
    #[derive_frule]
    fn b_star(x: &[f64]) -> f64 {
        LabValue::from(XyzValue {
            x: x[0] as f32,
            y: x[1] as f32,
            z: x[2] as f32,
        })
        .b as f64
    }

    #[test]
    fn xyz_to_lab_against_its_closed_form() {
        // b* = 200 (∛Y − ∛(Z / 0.8251)) above the toe: ∂/∂Y = 200 / (3 Y^⅔),
        // ∂²/∂Y² = −400 / (9 Y^{5/3}), likewise for Z / 0.8251 with the opposite sign.
        for x in [[0.25, 0.28125, 0.0625], [0.5, 0.375, 0.75]] {
            let xyz = ::deltae::XyzValue {
                x: x[0] as f32,
                y: x[1] as f32,
                z: x[2] as f32,
            };
            let y = b_star(&x);
            assert_eq!(
                y.to_bits(),
                (::deltae::LabValue::from(xyz).b as f64).to_bits()
            );
            let zr = x[2] / 0.8251;
            let g = |t: f64| 200.0 / (3.0 * t.powf(2.0 / 3.0));
            let h = |t: f64| -400.0 / (9.0 * t.powf(5.0 / 3.0));
            every_mode!(
                b_star {},
                x,
                y,
                vec![0.0, g(x[1]), -g(zr) / 0.8251],
                vec![
                    vec![0.0; 3],
                    vec![0.0, h(x[1]), 0.0],
                    vec![0.0, 0.0, -h(zr) / (0.8251 * 0.8251)],
                ]
            );
        }
    }

    /// The luminance of a colour given in Lab, or −1 when `LabValue::new` finds it out of
    /// range (through `Validate`, a trait with a `where Self: Sized` clause).
    #[derive_frule]
    fn validated_luminance(x: &[f64]) -> f64 {
        match LabValue::new(x[0] as f32, x[1] as f32, x[2] as f32) {
            Ok(lab) => XyzValue::from(lab).y as f64,
            Err(_) => -1.0,
        }
    }

    #[test]
    fn validated_colours_and_the_out_of_range_ones() {
        let x = [60.25, -34.0, 36.5];
        let fy = (x[0] + 16.0) / 116.0;
        let (y, g) = gradient(validated_luminance {}, &x);
        assert_eq!(y.to_bits(), luminance(&x).to_bits());
        near(g[0], 3.0 * fy * fy / 116.0, 1e-5, 1e-3, "∂Y/∂L");
        assert_eq!((g[1], g[2]), (0.0, 0.0));
        let (y, g) = gradient(validated_luminance {}, &[101.0, 0.0, 0.0]);
        assert_eq!((y, g), (-1.0, [0.0; 3]));
        assert!(::deltae::LabValue::new(101.0, 0.0, 0.0).is_err());
    }

    /// The hue of an LCh colour in radians, and it rounded to two places in Lab.
    #[derive_frule]
    fn hue_radians_and_rounded(x: &[f64]) -> [f64; 2] {
        let lch = LchValue {
            l: x[0] as f32,
            c: x[1] as f32,
            h: x[2] as f32,
        };
        let lab = LabValue {
            l: x[0] as f32,
            a: x[1] as f32,
            b: x[2] as f32,
        }
        .round_to(2);
        [lch.hue_radians() as f64, lab.b as f64]
    }

    #[test]
    fn hue_in_radians_and_rounding() {
        let x = [50.0, 30.0, 123.456];
        let (v, jac) = jacobian(hue_radians_and_rounded {}, &x);
        let lch = ::deltae::LchValue {
            l: 50.0,
            c: 30.0,
            h: 123.456,
        };
        use ::deltae::Round as _;
        let lab = ::deltae::LabValue {
            l: 50.0,
            a: 30.0,
            b: 123.456,
        }
        .round_to(2);
        assert_eq!(v, vec![lch.hue_radians() as f64, lab.b as f64]);
        near(
            jac[(0, 2)],
            std::f64::consts::PI / 180.0,
            1e-6,
            0.0,
            "∂h/∂h°",
        );
        for j in 0..3 {
            assert_eq!(jac[(1, j)], 0.0, "rounding is flat");
        }
    }

    /// Lab of an LCh colour, through `LabValue::from(&lch)` (which calls `From<LchValue>`).
    #[derive_frule]
    fn lch_to_lab(x: &[f64]) -> [f64; 3] {
        let lch = LchValue {
            l: x[0] as f32,
            c: x[1] as f32,
            h: x[2] as f32,
        };
        let lab = LabValue::from(&lch);
        [lab.l as f64, lab.a as f64, lab.b as f64]
    }

    /// The luminance of an LCh colour, through `XyzValue::from(lch)` (through Lab).
    #[derive_frule]
    fn lch_luminance(x: &[f64]) -> f64 {
        let lch = LchValue {
            l: x[0] as f32,
            c: x[1] as f32,
            h: x[2] as f32,
        };
        XyzValue::from(lch).y as f64
    }

    /// The chroma of a Lab colour taken to XYZ and from there to LCh.
    #[derive_frule]
    fn round_trip_chroma(x: &[f64]) -> f64 {
        let xyz = XyzValue::from(LabValue {
            l: x[0] as f32,
            a: x[1] as f32,
            b: x[2] as f32,
        });
        LchValue::from(&xyz).c as f64
    }

    #[test]
    fn every_conversion_into_one_type() {
        // a = c cos h°, b = c sin h°; Y = ((L + 16) / 116)³; the round trip Lab → XYZ →
        // LCh is Lab → LCh, so its chroma's gradient is (0, a, b) / c.
        let rad = std::f64::consts::PI / 180.0;
        for x in [[60.25, 49.75, 133.5], [22.75, 50.5, 293.25]] {
            let (l, c, h) = (x[0], x[1], x[2] * rad);
            let (v, jac) = jacobian(lch_to_lab {}, &x);
            let lch = ::deltae::LchValue {
                l: x[0] as f32,
                c: x[1] as f32,
                h: x[2] as f32,
            };
            let published = ::deltae::LabValue::from(&lch);
            assert_eq!(
                v,
                vec![published.l as f64, published.a as f64, published.b as f64]
            );
            let want = [
                [1.0, 0.0, 0.0],
                [0.0, h.cos(), -c * h.sin() * rad],
                [0.0, h.sin(), c * h.cos() * rad],
            ];
            for i in 0..3 {
                for j in 0..3 {
                    near(
                        jac[(i, j)],
                        want[i][j],
                        1e-5,
                        1e-3,
                        &format!("∂lab{i}/∂lch{j}"),
                    );
                }
            }
            let y = lch_luminance(&x);
            assert_eq!(
                y.to_bits(),
                (::deltae::XyzValue::from(lch).y as f64).to_bits()
            );
            let fy = (l + 16.0) / 116.0;
            every_mode!(
                lch_luminance {},
                x,
                y,
                vec![3.0 * fy * fy / 116.0, 0.0, 0.0],
                vec![
                    vec![6.0 * fy / (116.0 * 116.0), 0.0, 0.0],
                    vec![0.0; 3],
                    vec![0.0; 3]
                ]
            );
        }
        for x in LABS {
            let (a, b) = (x[1], x[2]);
            let c = a.hypot(b);
            let (y, g) = gradient(round_trip_chroma {}, &x);
            let xyz = ::deltae::XyzValue::from(::deltae::LabValue {
                l: x[0] as f32,
                a: a as f32,
                b: b as f32,
            });
            assert_eq!(
                y.to_bits(),
                (::deltae::LchValue::from(&xyz).c as f64).to_bits()
            );
            let want = [0.0, a / c, b / c];
            for k in 0..3 {
                near(
                    g[k],
                    want[k],
                    1e-4,
                    1e-2,
                    &format!("round trip: ∂c/∂lab{k}"),
                );
            }
        }
    }
}
