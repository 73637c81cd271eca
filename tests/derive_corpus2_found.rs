//! Constructs the second verbatim corpus (`tests/geographiclib_verbatim.rs`,
//! `tests/map_3d_verbatim.rs`) found, each in a small program written the way those crates
//! write it, against closed forms, primals bit for bit: a factor chosen by an `if` (or a
//! `match`) between float literals, multiplied by a parameter or by a field
//! (geographiclib's Newton test `v.abs() < if tripn { 8.0 } else { 1.0 } * self.tol0_`),
//! whose literals rustc could not type (E0282); a method called on a field of `self` that
//! is a reference to a differentiable struct (geographiclib's `PolygonArea<'a>` calling
//! `self.geoid._gen_inverse(..)` with `geoid: &'a Geodesic`, from `&self` and `&mut self`
//! methods: the `&&Geodesic` receiver had no conversion); a method taking `self` by value
//! in an `impl` with a lifetime (`impl<'a> PolygonArea<'a> { fn compute(mut self, ..) }`,
//! whose rule named `'a` out of its scope, E0261).

mod common;

use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Solver {
    tol: f64,
    gain: f64,
}

/// One Newton step for √2 unless the residual is below a tolerance that a flag scales
/// (geographiclib's test), the tolerance a parameter.
#[derive_frule]
fn newton_step(x: f64, tripn: bool, tol: f64) -> f64 {
    let v = x * x - 2.0;
    if v.abs() < if tripn { 8.0 } else { 1.0 } * tol {
        x
    } else {
        x - v / (2.0 * x)
    }
}

/// The same with the tolerance a field, and a gain chosen by a `match` between literals.
#[derive_frule]
fn damped_step(s: &Solver, x: f64, tripn: bool, mode: usize) -> f64 {
    let v = x * x - 2.0;
    if v.abs() < if tripn { 8.0 } else { 1.0 } * s.tol {
        return x;
    }
    let g = match mode {
        0 => 0.5,
        1 => 1.0,
        _ => 2.0,
    } * s.gain;
    x - g * v / (2.0 * x)
}

#[test]
fn if_between_literals_times_a_parameter() {
    // x − (x² − 2)/(2x) = x/2 + 1/x has the derivative ½ − 1/x²; below the tolerance, 1.
    for (x, tripn, tol) in [(1.5, false, 1e-3), (1.5, true, 0.05), (1.414, true, 1e-3)] {
        let (v, d) = derivative(bind(newton_step {}, (Var(0), tripn, tol)), x);
        assert_eq!(v.to_bits(), newton_step(x, tripn, tol).to_bits());
        let small = (x * x - 2.0f64).abs() < if tripn { 8.0 } else { 1.0 } * tol;
        let want = if small { 1.0 } else { 0.5 - 1.0 / (x * x) };
        assert!((d - want).abs() < 1e-15, "d/dx at {x}: {d}, want {want}");
    }
}

#[test]
fn if_and_match_between_literals_times_fields() {
    // x − g (x² − 2)/(2x): d/dx = 1 − g (½ + 1/x²), d/dgain = −k (x² − 2)/(2x) with
    // g = k·gain, k = ½, 1 or 2.
    let s = Solver {
        tol: 1e-3,
        gain: 0.7,
    };
    for (x, mode) in [(1.5, 0), (0.9, 1), (3.0, 2)] {
        let k = [0.5, 1.0, 2.0][mode];
        let g = k * s.gain;
        let (y, d) = derivative(bind(damped_step {}, (&s, Var(0), true, mode)), x);
        assert_eq!(y.to_bits(), damped_step(&s, x, true, mode).to_bits());
        let want = 1.0 - g * (0.5 + 1.0 / (x * x));
        assert!((d - want).abs() < 1e-15, "d/dx: {d}, want {want}");
        let ds = damped_step_frule(
            Dual::new(
                &s,
                &SolverTangent {
                    tol: 0.0,
                    gain: 1.0,
                },
            ),
            Dual::new(x, 0.0),
            Dual::constant(true),
            Dual::constant(mode),
        );
        let want = -k * (x * x - 2.0) / (2.0 * x);
        assert!(
            (ds.tangent - want).abs() < 1e-15,
            "d/dgain: {}, want {want}",
            ds.tangent
        );
    }
}

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Ellipsoid {
    a: f64,
    f: f64,
}

#[derive_frule]
impl Ellipsoid {
    /// A radius at latitude `lat` (radians), flattened towards the poles.
    fn radius(&self, lat: f64) -> f64 {
        self.a * (1.0 - self.f * lat.sin().powi(2))
    }
}

/// A track along a meridian, accumulated point by point on a borrowed body.
#[derive(Debug, Clone, fwdad::Differentiable)]
pub struct Track<'a> {
    body: &'a Ellipsoid,
    length: f64,
    last: f64,
    n: usize,
}

#[derive_frule]
impl<'a> Track<'a> {
    pub fn new(body: &'a Ellipsoid) -> Self {
        Track {
            body,
            length: 0.0,
            last: 0.0,
            n: 0,
        }
    }

    pub fn add(&mut self, lat: f64) {
        if self.n > 0 {
            let mid = 0.5 * (lat + self.last);
            self.length += self.body.radius(mid) * (lat - self.last);
        }
        self.last = lat;
        self.n += 1;
    }

    pub fn in_equatorial_radii(&self) -> f64 {
        self.length / self.body.radius(0.0)
    }

    pub fn finish(mut self, lat: f64) -> (f64, usize) {
        self.add(lat);
        (self.length, self.n)
    }
}

/// The track's length through all the latitudes, plus its length in equatorial radii
/// before the last point.
#[derive_frule]
fn track(body: &Ellipsoid, lats: &[f64]) -> f64 {
    let mut t = Track::new(body);
    for &lat in &lats[..lats.len() - 1] {
        t.add(lat);
    }
    let before = t.in_equatorial_radii();
    t.finish(lats[lats.len() - 1]).0 + before
}

#[test]
fn methods_on_a_reference_field_and_by_value_self_with_a_lifetime() {
    // L = Σ R(mᵢ) Δᵢ with mᵢ the midpoints, Δᵢ the steps, R(x) = a (1 − f sin² x):
    // ∂(R(m) Δ)/∂ (end) = R'(m) Δ / 2 ± R(m), R'(x) = −a f sin 2x; the part before the last
    // point counts again over R(0) = a.
    let body = Ellipsoid { a: 2.0, f: 0.1 };
    let lats = [0.1, 0.4, 0.9, 1.2];
    let (v, g) = gradient(bind(track {}, (&body, Wrt)), &lats);
    assert_eq!(v.to_bits(), track(&body, &lats).to_bits());
    let r = |x: f64| body.a * (1.0 - body.f * x.sin().powi(2));
    let dr = |x: f64| -body.a * body.f * (2.0 * x).sin();
    let mut want = [0.0; 4];
    for i in 0..3 {
        let (m, d) = (0.5 * (lats[i] + lats[i + 1]), lats[i + 1] - lats[i]);
        let w = if i < 2 { 1.0 + 1.0 / body.a } else { 1.0 };
        want[i] += w * (0.5 * dr(m) * d - r(m));
        want[i + 1] += w * (0.5 * dr(m) * d + r(m));
    }
    for k in 0..4 {
        assert!(
            (g[k] - want[k]).abs() < 1e-13,
            "∂/∂lat{k}: {}, want {}",
            g[k],
            want[k]
        );
    }
    crate::check_modes!(
        bind(track {}, (&body, Wrt)),
        |x: &[f64]| track(&body, x),
        lats
    );
}
