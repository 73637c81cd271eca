//! What the fifteenth session's error audit found rejected that is ordinary code, as
//! users write it, against closed forms and central differences.
//!
//! - A function of the user's whose name ends in `_frule` (a fuzzy controller's rules,
//!   `cold_frule` for "the fuzzy rule cold"), in another file, called by its module's
//!   path (`fuzzy::cold_frule(t)`) or imported (`use fuzzy::warm_frule;`) from a derived
//!   body whose file also has a `fn cold` or `fn warm`, and a method of the user's named
//!   `..._frule`: the macro took each for the rule it generates for `cold`/`warm` and
//!   reported "`cold_frule` is the rule `#[derive_frule]` generates for `cold`".
//! - `corners(s).map(|v| v * v)` of a `fn corners(..) -> [f64; 3]` of the file: the call's
//!   result was read as an `Option` (`Option::map`), a type error.
//! - `s.a * 0.5` of a parameter `s: Segment` whose struct declares `a: V2`, where another
//!   struct of the file has a field `a: f64`: the macro took the field for a float, a type
//!   error; it now reads the field's type from the parameter's struct.
//! - Newcomer code that works: a tuple struct of `f32` with `#[derive(Differentiable)]`
//!   in `f32` code, `#[derive_frule]` on a `const fn`, on a function returning a `&mut f64`
//!   into one of its arguments, and on one taking its integrand as a `Box<dyn Fn>`.

use fwdad::prelude::*;

mod errors12_fuzzy;

use errors12_fuzzy::warm_frule;

/// Membership of "cold" as the plant model reads it (not the rule base's).
#[derive_frule]
fn cold(t: f64) -> f64 {
    (-(t - 15.0) / 3.0).exp().min(1.0)
}

/// A plain helper named like the rule base's `warm_frule` without the suffix.
fn warm(t: f64) -> f64 {
    t.clamp(15.0, 30.0)
}

/// The heater's power: a weighted average of the rules' outputs (full power when cold,
/// a trickle when warm).
#[derive_frule]
fn heater_power(t: f64) -> f64 {
    let c = errors12_fuzzy::cold_frule(t);
    let w = warm_frule(t);
    (2000.0 * c + 300.0 * w) / (c + w + 1e-9)
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Zone {
    pub gain: f64,
    pub setpoint: f64,
}

#[derive_frule]
impl Zone {
    /// The firing strength of this zone's "too cold" rule.
    pub fn fire_frule(&self, t: f64) -> f64 {
        (self.gain * (self.setpoint - t)).tanh().max(0.0)
    }
}

/// Named like the method without its suffix.
#[derive_frule]
fn fire(t: f64) -> f64 {
    t * 0.5
}

#[derive_frule]
fn zone_demand(z: &Zone, t: f64) -> f64 {
    z.fire_frule(t) * 1500.0 + fire(t)
}

#[derive_frule]
fn corners(s: f64) -> [f64; 3] {
    [s, 2.0 * s, 3.0 * s]
}

#[derive_frule]
fn sum_of_squares(s: f64) -> f64 {
    let q = corners(s).map(|v| v * v);
    q[0] + q[1] + q[2]
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Segment {
    pub a: V2,
    pub b: V2,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Gains {
    pub a: f64,
}

#[derive_frule]
impl std::ops::Mul<f64> for V2 {
    type Output = V2;
    fn mul(self, k: f64) -> V2 {
        V2 {
            x: self.x * k,
            y: self.y * k,
        }
    }
}

#[derive_frule]
fn midpoint_x(s: Segment, g: Gains) -> f64 {
    let m = s.a * 0.5;
    let n = s.b * 0.5;
    g.a * (m.x + n.x)
}

/// A screen-space vector, as graphics code keeps it.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Px(pub f32, pub f32);

#[derive_frule]
fn falloff(p: Px, r: f32) -> f32 {
    let d2 = p.0 * p.0 + p.1 * p.1;
    (-d2 / (r * r)).exp()
}

#[derive_frule]
const fn affine(a: f64, x: f64, b: f64) -> f64 {
    a * x + b
}

/// The larger of two accumulators, for the caller to update.
#[derive_frule]
fn larger<'a>(a: &'a mut f64, b: &'a mut f64) -> &'a mut f64 {
    if *a > *b {
        a
    } else {
        b
    }
}

#[derive_frule]
fn bump_larger(a: f64, b: f64) -> f64 {
    let (mut x, mut y) = (a, b);
    *larger(&mut x, &mut y) *= 3.0;
    x + y
}

#[derive_frule]
fn square(x: f64) -> f64 {
    x * x
}

/// Simpson's rule, its integrand boxed (as a numerics course writes a strategy).
#[derive_frule]
fn simpson(f: Box<dyn Fn(f64) -> f64>, a: f64, b: f64) -> f64 {
    let m = 0.5 * (a + b);
    (b - a) / 6.0 * (f(a) + 4.0 * f(m) + f(b))
}

fn central(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6;
    (f(x + h) - f(x - h)) / (2.0 * h)
}

#[test]
fn own_functions_named_like_rules() {
    let _ = (cold(16.0), warm(16.0));
    for &t in &[14.0, 17.5, 19.0, 21.0, 23.5] {
        let d = heater_power_frule(Dual::new(t, 1.0));
        assert_eq!(d.primal.to_bits(), heater_power(t).to_bits());
        let fd = central(heater_power, t);
        assert!(
            (d.tangent - fd).abs() <= 1e-5 * (1.0 + fd.abs()),
            "t = {t}: {} vs {fd}",
            d.tangent
        );
        // The rule base's own rules, differentiated: closed forms.
        let c = errors12_fuzzy::cold_frule_frule(Dual::new(t, 1.0));
        let s = c.primal;
        assert!((c.tangent - (-s * (1.0 - s) / 1.5)).abs() <= 1e-12);
        let w = errors12_fuzzy::warm_frule_frule(Dual::new(t, 1.0));
        let z = (t - 22.0) / 2.0;
        assert!((w.tangent - (-z / 2.0 * w.primal)).abs() <= 1e-12);
    }
}

#[test]
fn own_method_named_like_a_rule() {
    let z = Zone {
        gain: 0.4,
        setpoint: 20.0,
    };
    for &t in &[16.0, 18.5, 19.9, 21.0] {
        let d = zone_demand_frule(Dual::constant(&z), Dual::new(t, 1.0));
        assert_eq!(d.primal.to_bits(), zone_demand(&z, t).to_bits());
        // Closed form: 1500·(-g)·(1 - tanh²) below the setpoint, 0 above; + 0.5.
        let a = z.gain * (z.setpoint - t);
        let want = if a > 0.0 {
            -1500.0 * z.gain * (1.0 - a.tanh().powi(2)) + 0.5
        } else {
            0.5
        };
        assert!((d.tangent - want).abs() <= 1e-9 * (1.0 + want.abs()));
        let fd = central(|t| zone_demand(&z, t), t);
        assert!((d.tangent - fd).abs() <= 1e-4 * (1.0 + fd.abs()));
    }
}

#[test]
fn array_map_of_a_call() {
    for &s in &[0.5, -1.25, 2.0] {
        let d = sum_of_squares_frule(Dual::new(s, 1.0));
        assert_eq!(d.primal.to_bits(), sum_of_squares(s).to_bits());
        // Closed form: 14 s^2, derivative 28 s.
        assert!((d.tangent - 28.0 * s).abs() <= 1e-12 * (1.0 + s.abs()));
    }
}

#[test]
fn field_of_a_parameters_struct() {
    let s = Segment {
        a: V2 { x: 1.5, y: -0.5 },
        b: V2 { x: 0.25, y: 2.0 },
    };
    let g = Gains { a: 3.0 };
    let d = midpoint_x_frule(
        Dual::new(
            s,
            SegmentTangent {
                a: V2Tangent { x: 1.0, y: 0.0 },
                b: V2Tangent { x: 0.0, y: 0.0 },
            },
        ),
        Dual::new(g, GainsTangent { a: 0.0 }),
    );
    assert_eq!(d.primal.to_bits(), midpoint_x(s, g).to_bits());
    // Closed form: g.a · (a.x + b.x) / 2, so ∂/∂a.x = g.a / 2.
    assert_eq!(d.tangent, 1.5);
    let dg = midpoint_x_frule(
        Dual::new(
            s,
            SegmentTangent {
                a: V2Tangent { x: 0.0, y: 0.0 },
                b: V2Tangent { x: 0.0, y: 0.0 },
            },
        ),
        Dual::new(g, GainsTangent { a: 1.0 }),
    );
    assert_eq!(dg.tangent, 0.5 * (1.5 + 0.25));
}

#[test]
fn tuple_struct_of_f32() {
    let p = Px(0.75, -0.5);
    let r = 1.5f32;
    let d = falloff_frule(Dual::new(p, PxTangent(1.0, 0.0)), Dual::new(r, 0.0f32));
    assert_eq!(d.primal.to_bits(), falloff(p, r).to_bits());
    // Closed form: ∂/∂p.0 = -2 p.0 / r² · f.
    let want = -2.0 * p.0 / (r * r) * d.primal;
    assert!((d.tangent - want).abs() <= 1e-6 * (1.0 + want.abs()));
}

#[test]
fn const_fn() {
    const Y: f64 = affine(2.0, 3.0, 1.0);
    assert_eq!(Y, 7.0);
    let d = affine_frule(
        Dual::new(2.0, 0.0),
        Dual::new(3.0, 1.0),
        Dual::new(1.0, 0.0),
    );
    assert_eq!(d.primal.to_bits(), affine(2.0, 3.0, 1.0).to_bits());
    assert_eq!(d.tangent, 2.0);
}

#[test]
fn mut_reference_returned() {
    for &(a, b) in &[(2.0, 1.0), (0.5, 1.5)] {
        let da = bump_larger_frule(Dual::new(a, 1.0), Dual::new(b, 0.0));
        let db = bump_larger_frule(Dual::new(a, 0.0), Dual::new(b, 1.0));
        assert_eq!(da.primal.to_bits(), bump_larger(a, b).to_bits());
        // Closed form: 3·max + min.
        let (want_a, want_b) = if a > b { (3.0, 1.0) } else { (1.0, 3.0) };
        assert_eq!((da.tangent, db.tangent), (want_a, want_b));
    }
}

#[test]
fn boxed_integrand() {
    let (a, b) = (0.5, 2.0);
    let plain = simpson(Box::new(square), a, b);
    // Simpson's rule is exact for x²: (b³ - a³) / 3.
    assert!((plain - (b * b * b - a * a * a) / 3.0).abs() <= 1e-12);
    // The rule takes the integrand as a function of duals: the rule of `square`.
    let d = simpson_frule(
        Box::new(|x: Dual<f64>| square_frule(x)),
        Dual::new(a, 0.0),
        Dual::new(b, 1.0),
    );
    assert_eq!(d.primal.to_bits(), plain.to_bits());
    let fd = central(|b| simpson(Box::new(square), a, b), b);
    assert!((d.tangent - fd).abs() <= 1e-6 * (1.0 + fd.abs()));
}
