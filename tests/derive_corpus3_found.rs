//! Constructs the third verbatim corpus (`tests/sun_verbatim.rs`, `tests/pid_verbatim.rs`,
//! `tests/deltae_verbatim.rs`) found, each in a small program written the way those crates
//! write it, against closed forms, primals bit for bit: setters and constructors taking
//! `gain: impl Into<T>` of the impl's float type `T` (or `impl Into<f64>`) and storing
//! `gain.into()` (pid's builder `pid.p(10.0, 100.0).i(..)`), which had no rule for `into`
//! on a float whose target the body does not write; `f32` struct fields beside float
//! literals, `(lab_0.l + lab_1.l) / 2.0` and `let s_l = 1.0;` then `x / s_l` (deltae's
//! CIEDE2000), where the rule typed the literal `f64` (no rule for `f32 / f64`); a trait
//! with `where Self: Sized` (deltae's `Validate`), rejected; `let xyz: Xyz = lab.into();`
//! between two types of the user's, taken for the identity (mismatched types); two
//! derived `impl From<_>` for one type (deltae's `From<LchValue>`, `From<&LchValue>`,
//! `From<XyzValue>` for `LabValue`), whose rules, named by the type and `from` alone,
//! collided (E0428).

use fwdad::prelude::*;
use num_traits::float::FloatCore;

/// A first-order low-pass filter generic over its float type, configured pid-style.
#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct LowPass<T: FloatCore> {
    pub alpha: T,
    pub gain: T,
    state: T,
}

#[fwdad::derive_frule]
impl<T> LowPass<T>
where
    T: FloatCore,
{
    pub fn new(alpha: impl Into<T>) -> Self {
        Self {
            alpha: alpha.into(),
            gain: T::one(),
            state: T::zero(),
        }
    }

    pub fn gain(&mut self, gain: impl Into<T>) -> &mut Self {
        self.gain = gain.into();
        self
    }

    pub fn next_output(&mut self, input: T) -> T {
        self.state = self.state + self.alpha * (input - self.state);
        self.state * self.gain
    }
}

/// The filter's output after two samples, `p = [alpha, gain, x0, x1]`.
#[derive_frule]
fn two_samples(p: &[f64]) -> f64 {
    let mut f = LowPass::new(p[0]);
    f.gain(p[1]);
    f.next_output(p[2]);
    f.next_output(p[3])
}

#[test]
fn into_of_the_impls_float_type_in_a_builder() {
    // s₁ = a x₀, s₂ = s₁ + a (x₁ − s₁) = a x₁ + a (1 − a) x₀; y = g s₂.
    let p = [0.3, 2.0, 1.5, -0.5];
    let (a, g, x0, x1) = (p[0], p[1], p[2], p[3]);
    let (y, grad) = gradient(two_samples {}, &p);
    assert_eq!(y.to_bits(), two_samples(&p).to_bits());
    let s2 = a * x1 + a * (1.0 - a) * x0;
    let want = [
        g * (x1 + (1.0 - 2.0 * a) * x0),
        s2,
        g * a * (1.0 - a),
        g * a,
    ];
    for k in 0..4 {
        assert!(
            (grad[k] - want[k]).abs() < 1e-14,
            "∂y/∂p{k}: {} against {}",
            grad[k],
            want[k]
        );
    }
}

/// The same with a concrete float type, `impl Into<f64>`.
#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Spring {
    k: f64,
}

#[fwdad::derive_frule]
impl Spring {
    pub fn new(k: impl Into<f64>) -> Self {
        Spring { k: k.into() }
    }

    pub fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

#[derive_frule]
fn spring_energy(p: &[f64]) -> f64 {
    Spring::new(p[0]).energy(p[1])
}

#[test]
fn into_of_f64_in_a_constructor() {
    let p = [3.0, 0.4];
    let (e, g) = gradient(spring_energy {}, &p);
    assert_eq!(e.to_bits(), spring_energy(&p).to_bits());
    assert_eq!(g, [0.5 * p[1] * p[1], p[0] * p[1]]);
}

/// A CIE L*a*b* colour in `f32`, as colour crates store it.
#[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
pub struct Lab32 {
    pub l: f32,
    pub a: f32,
    pub b: f32,
}

/// A lightness difference weighted CIE94/CIEDE2000-style: literals beside `f32` fields
/// and beside locals computed from them, constants bound by `let` and by a tuple.
#[fwdad::derive_frule]
fn weighted_lightness(lab_0: &Lab32, lab_1: &Lab32) -> f32 {
    let l_bar = (lab_0.l + lab_1.l) / 2.0;
    let s_l = 1.0 + (0.015 * (l_bar - 50.0).powi(2)) / (20.0 + (l_bar - 50.0).powi(2)).sqrt();
    let (k_l, k_a) = (2.0, 0.048);
    let delta_l = lab_0.l - lab_1.l;
    (delta_l / (k_l * s_l)).powi(2) + k_a * lab_0.a * 0.5
}

#[fwdad::derive_frule]
fn weighted_lightness_of(x: &[f64]) -> f64 {
    let r = Lab32 {
        l: x[0] as f32,
        a: x[1] as f32,
        b: 0.0,
    };
    let s = Lab32 {
        l: x[2] as f32,
        a: 0.0,
        b: 0.0,
    };
    weighted_lightness(&r, &s) as f64
}

#[test]
fn f32_fields_beside_float_literals() {
    // w = (ΔL / (2 S_L))² + 0.024 a₀, S_L = 1 + 0.015 m² / √(20 + m²), m = L̄ − 50:
    // ∂w/∂L₀ = 2 w_L (1/(2 S_L) − ΔL S_L' / (4 S_L²)), with w_L = ΔL / (2 S_L), and
    // S_L' = dS_L/dL₀ = ½ dS_L/dm.
    let x = [62.5, 12.25, 48.75];
    let (w, g) = gradient(weighted_lightness_of {}, &x);
    let r = Lab32 {
        l: 62.5,
        a: 12.25,
        b: 0.0,
    };
    let s = Lab32 {
        l: 48.75,
        a: 0.0,
        b: 0.0,
    };
    assert_eq!(w.to_bits(), (weighted_lightness(&r, &s) as f64).to_bits());
    let (l0, l1) = (x[0], x[2]);
    let m = (l0 + l1) / 2.0 - 50.0;
    let q = (20.0 + m * m).sqrt();
    let s_l = 1.0 + 0.015 * m * m / q;
    let ds_dm = 0.015 * (2.0 * m / q - m * m * m / (q * q * q));
    let dl = l0 - l1;
    let w_l = dl / (2.0 * s_l);
    let dw = |sign: f64| 2.0 * w_l * (sign / (2.0 * s_l) - dl * 0.5 * ds_dm / (2.0 * s_l * s_l));
    let want = [dw(1.0), 0.024, dw(-1.0)];
    for k in 0..3 {
        assert!(
            (g[k] - want[k]).abs() < 1e-5 * (want[k].abs() + 1e-3),
            "∂w/∂x{k}: {} against {}",
            g[k],
            want[k]
        );
    }
}

/// A trait whose `Sized` bound is a `where` clause, as deltae's `Validate` writes it.
#[fwdad::derive_frule]
pub trait ToGamut
where
    Self: Sized,
{
    fn to_gamut(self) -> Self;
}

#[fwdad::derive_frule]
impl ToGamut for Lab32 {
    fn to_gamut(self) -> Self {
        Lab32 {
            l: self.l.clamp(0.0, 100.0),
            a: self.a.clamp(-128.0, 128.0),
            b: self.b.clamp(-128.0, 128.0),
        }
    }
}

/// CIE XYZ in `f32`.
#[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
pub struct Xyz32 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

#[fwdad::derive_frule]
impl From<Lab32> for Xyz32 {
    fn from(lab: Lab32) -> Xyz32 {
        let fy = (lab.l + 16.0) / 116.0;
        Xyz32 {
            x: 0.9642 * (fy + lab.a / 500.0).powi(3),
            y: fy.powi(3),
            z: 0.8251 * (fy - lab.b / 200.0).powi(3),
        }
    }
}

/// The luminance of a colour brought into gamut, converted by `.into()`.
#[fwdad::derive_frule]
fn gamut_luminance(x: &[f64]) -> f64 {
    let lab = Lab32 {
        l: x[0] as f32,
        a: x[1] as f32,
        b: x[2] as f32,
    }
    .to_gamut();
    let xyz: Xyz32 = lab.into();
    xyz.y as f64
}

#[test]
fn a_where_sized_trait_and_into_between_types_of_ones_own() {
    // Y = ((L + 16) / 116)³ inside the gamut; past L = 100 the clamp holds it.
    for (x, dy) in [
        (
            [60.25, -34.0, 36.5],
            3.0 * (76.25f64 / 116.0).powi(2) / 116.0,
        ),
        ([104.0, 10.0, 0.0], 0.0),
    ] {
        let (y, g) = gradient(gamut_luminance {}, &x);
        let lab = Lab32 {
            l: x[0] as f32,
            a: x[1] as f32,
            b: x[2] as f32,
        };
        assert_eq!(
            y.to_bits(),
            (Xyz32::from(lab.to_gamut()).y as f64).to_bits()
        );
        assert!((g[0] - dy).abs() < 1e-6, "∂Y/∂L: {} against {dy}", g[0]);
        assert_eq!((g[1], g[2]), (0.0, 0.0));
    }
}

/// The same colour in LCh.
#[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
pub struct Lch32 {
    pub l: f32,
    pub c: f32,
    pub h: f32,
}

#[fwdad::derive_frule]
impl From<Lch32> for Lab32 {
    fn from(lch: Lch32) -> Lab32 {
        Lab32 {
            l: lch.l,
            a: lch.c * lch.h.to_radians().cos(),
            b: lch.c * lch.h.to_radians().sin(),
        }
    }
}

#[fwdad::derive_frule]
impl From<&Lch32> for Lab32 {
    fn from(lch: &Lch32) -> Lab32 {
        Lab32::from(*lch)
    }
}

#[fwdad::derive_frule]
impl From<Xyz32> for Lab32 {
    fn from(xyz: Xyz32) -> Lab32 {
        let fy = xyz.y.cbrt();
        Lab32 {
            l: 116.0 * fy - 16.0,
            a: 500.0 * ((xyz.x / 0.9642).cbrt() - fy),
            b: 200.0 * (fy - (xyz.z / 0.8251).cbrt()),
        }
    }
}

/// b* of an LCh colour (by value and by reference) plus L* of an XYZ one: three
/// conversions into `Lab32`, each found by its source type.
#[fwdad::derive_frule]
fn three_conversions(x: &[f64]) -> f64 {
    let lch = Lch32 {
        l: 50.0,
        c: x[0] as f32,
        h: x[1] as f32,
    };
    let by_value = Lab32::from(lch);
    let by_ref = Lab32::from(&lch);
    let lab: Lab32 = Xyz32 {
        x: 0.3,
        y: x[2] as f32,
        z: 0.2,
    }
    .into();
    (by_value.b + by_ref.b + lab.l) as f64
}

#[test]
fn several_conversions_into_one_type() {
    // 2 c sin h° + 116 ∛Y − 16: ∂/∂c = 2 sin h°, ∂/∂h = 2 c cos h° π/180,
    // ∂/∂Y = 116 / (3 Y^⅔).
    let x = [40.5, 60.25, 0.375];
    let (y, g) = gradient(three_conversions {}, &x);
    assert_eq!(y.to_bits(), three_conversions(&x).to_bits());
    let h = x[1].to_radians();
    let want = [
        2.0 * h.sin(),
        2.0 * x[0] * h.cos() * std::f64::consts::PI / 180.0,
        116.0 / (3.0 * x[2].powf(2.0 / 3.0)),
    ];
    for k in 0..3 {
        assert!(
            (g[k] - want[k]).abs() < 1e-5 * (want[k].abs() + 1e-2),
            "∂/∂x{k}: {} against {}",
            g[k],
            want[k]
        );
    }
}
