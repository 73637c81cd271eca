//! Closures passed on from code generic over its float type, as a library author writes
//! it: a Simpson rule and a bisection over `T`, a beam model `impl<T> Beam<T>` whose
//! mean deflection integrates its own method through a closure, a generic body handing a
//! closure to a generic quadrature (by value and as `&dyn Fn(T) -> T`), a method of a
//! generic `impl` taking a function value, and a generic body calling an `f64`-only
//! quadrature. Every mode against central differences (`check_modes!`, primals bit for
//! bit) and against closed forms, at `f64` and at `f32`.

#[macro_use]
mod common;

use fwdad::prelude::*;
use num_traits::{Float, FromPrimitive};

/// Composite Simpson's rule on [a, b] with `n` panels (rounded up to even).
#[derive_frule]
pub fn simpson<T: Float + FromPrimitive, F: Fn(T) -> T>(f: F, a: T, b: T, n: usize) -> T {
    let n = if n % 2 == 1 { n + 1 } else { n };
    let h = (b - a) / T::from_usize(n).unwrap();
    let mut s = f(a) + f(b);
    for i in 1..n {
        let x = a + h * T::from_usize(i).unwrap();
        let w = if i % 2 == 1 {
            T::from_f64(4.0).unwrap()
        } else {
            T::from_f64(2.0).unwrap()
        };
        s = s + w * f(x);
    }
    s * h / T::from_f64(3.0).unwrap()
}

/// Bisection for a sign change of `f` in [lo, hi], down to `tol`.
#[derive_frule]
pub fn bisect<T: Float, F: Fn(T) -> T>(f: F, mut lo: T, mut hi: T, tol: T) -> T {
    let two = T::one() + T::one();
    let mut flo = f(lo);
    while hi - lo > tol {
        let mid = (lo + hi) / two;
        let fm = f(mid);
        if (fm < T::zero()) == (flo < T::zero()) {
            lo = mid;
            flo = fm;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / two
}

/// A simply supported beam of length `length`, bending stiffness `stiffness` (EI), under
/// a uniform load `load` per length.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Beam<T> {
    pub length: T,
    pub stiffness: T,
    pub load: T,
}

#[derive_frule]
impl<T: Float + FromPrimitive> Beam<T> {
    /// Deflection at x: w(x) = q x (L³ − 2 L x² + x³) / (24 EI).
    pub fn deflection(&self, x: T) -> T {
        let l = self.length;
        let c = self.load / (T::from_f64(24.0).unwrap() * self.stiffness);
        c * x * (l.powi(3) - T::from_f64(2.0).unwrap() * l * x * x + x.powi(3))
    }

    /// The mean deflection over the span, by Simpson's rule.
    pub fn mean_deflection(&self) -> T {
        simpson(|x| self.deflection(x), T::zero(), self.length, 64) / self.length
    }
}

/// The newcomer's design metric: the mean deflection (in mm for a length in m), plus where
/// the deflection first reaches half of it.
#[derive_frule]
pub fn design_metric(p: &[f64]) -> f64 {
    let beam = Beam {
        length: p[0],
        stiffness: p[1],
        load: p[2],
    };
    let mean = beam.mean_deflection();
    let x_half = bisect(
        |x| beam.deflection(x) - 0.5 * mean,
        0.0,
        0.5 * beam.length,
        1e-13,
    );
    mean * 1e3 + x_half
}

/// The mean deflection of a beam, for any float type.
#[derive_frule]
pub fn mean_deflection_of<T: Float + FromPrimitive>(length: T, stiffness: T, load: T) -> T {
    let beam = Beam {
        length,
        stiffness,
        load,
    };
    beam.mean_deflection()
}

#[derive_frule]
fn beam_mean(p: &[f64]) -> f64 {
    mean_deflection_of(p[0], p[1], p[2])
}

/// Simpson's rule on a quartic is exact up to its known error term: for w above,
/// w⁗ = q/EI, so S = ∫ + L h⁴ w⁗ / 180 and the mean is (q L⁴ / EI)(1/120 + 1/(180·64⁴)).
fn simpson_mean_closed_form(l: f64, ei: f64, q: f64) -> (f64, [f64; 3]) {
    let k = 1.0 / 120.0 + 1.0 / (180.0 * 64f64.powi(4));
    let m = q * l.powi(4) / ei * k;
    (m, [4.0 * m / l, -m / ei, m / q])
}

#[test]
fn mean_deflection_of_a_generic_beam_through_a_generic_quadrature() {
    let p = [3.0, 2.0e3, 5.0];
    check_modes!(beam_mean {}, |x: &[f64]| beam_mean(x), p);
    let (m, dm) = simpson_mean_closed_form(p[0], p[1], p[2]);
    let (v, g) = fwdad::drivers::gradient(beam_mean {}, &p);
    assert_eq!(v.to_bits(), beam_mean(&p).to_bits());
    approx::assert_relative_eq!(v, m, max_relative = 1e-12);
    for k in 0..3 {
        approx::assert_relative_eq!(g[k], dm[k], max_relative = 1e-10);
    }
}

#[test]
fn mean_deflection_at_f32() {
    let (l, ei, q) = (3.0f32, 2.0e3f32, 5.0f32);
    let r = mean_deflection_of_frule(Dual::new(l, 1.0f32), Dual::new(ei, 0.0), Dual::new(q, 0.0));
    assert_eq!(r.primal.to_bits(), mean_deflection_of(l, ei, q).to_bits());
    let (_, dm) = simpson_mean_closed_form(l as f64, ei as f64, q as f64);
    approx::assert_relative_eq!(r.tangent as f64, dm[0], max_relative = 1e-4);
}

#[test]
fn the_newcomers_design_metric() {
    // The bisection's result is piecewise linear in the parameters (a branch per halving),
    // so its derivative is checked on the mean alone, and the whole metric's primal bit for
    // bit and its derivative against the sum of the mean's closed form and the bisection's.
    let p = [3.0, 2.0e3, 5.0];
    let (v, g) = fwdad::drivers::gradient(design_metric {}, &p);
    assert_eq!(v.to_bits(), design_metric(&p).to_bits());
    let (_, dm) = simpson_mean_closed_form(p[0], p[1], p[2]);
    // x_half solves w(x) = mean/2 with w and the mean both linear in q/EI: it depends on L
    // alone, and is proportional to it.
    let x_half = design_metric(&p) - 1e3 * beam_mean(&p);
    approx::assert_relative_eq!(g[0], 1e3 * dm[0] + x_half / p[0], max_relative = 1e-6);
    approx::assert_relative_eq!(g[1], 1e3 * dm[1], max_relative = 1e-6);
    approx::assert_relative_eq!(g[2], 1e3 * dm[2], max_relative = 1e-6);
}

// ---------------------------------------------------------------------------------------
// A generic body handing closures to generic code in each form
// ---------------------------------------------------------------------------------------

/// The composite trapezoid rule on [a, b], taking the integrand as a trait object.
#[derive_frule]
pub fn trapezoid<T: Float + FromPrimitive>(f: &dyn Fn(T) -> T, a: T, b: T, n: usize) -> T {
    let h = (b - a) / T::from_usize(n).unwrap();
    let mut s = (f(a) + f(b)) / T::from_f64(2.0).unwrap();
    for i in 1..n {
        s = s + f(a + h * T::from_usize(i).unwrap());
    }
    s * h
}

/// Simpson's rule refined once by Richardson extrapolation, lending its integrand on.
#[derive_frule]
pub fn romberg2<T: Float + FromPrimitive, F: Fn(T) -> T>(f: F, a: T, b: T) -> T {
    let coarse = trapezoid(&f, a, b, 32);
    let fine = trapezoid(&f, a, b, 64);
    fine + (fine - coarse) / T::from_f64(3.0).unwrap()
}

/// The unnormalised mass of a Gaussian of width `s` centred at `c` on [−1, 1], by three
/// rules: a closure by value, one as `&dyn Fn`, and one lent on through another function.
#[derive_frule]
pub fn gauss_masses<T: Float + FromPrimitive>(s: T, c: T) -> (T, T, T) {
    let two = T::from_f64(2.0).unwrap();
    let by_simpson = simpson(
        |x| (-(x - c) * (x - c) / (two * s * s)).exp(),
        -T::one(),
        T::one(),
        200,
    );
    let by_trapezoid = trapezoid(
        &|x: T| (-(x - c) * (x - c) / (two * s * s)).exp(),
        -T::one(),
        T::one(),
        400,
    );
    let by_romberg = romberg2(
        |x| (-(x - c) * (x - c) / (two * s * s)).exp(),
        -T::one(),
        T::one(),
    );
    (by_simpson, by_trapezoid, by_romberg)
}

#[derive_frule]
fn gauss_masses_f64(p: &[f64]) -> f64 {
    let (a, b, c) = gauss_masses(p[0], p[1]);
    a + 2.0 * b + 3.0 * c
}

/// M = ∫₋₁¹ g, g(x) = e^{−(x−c)²/2s²}, and its partials: M = s√(π/2) [erf((1−c)/(s√2)) +
/// erf((1+c)/(s√2))], ∂M/∂c = g(−1) − g(1), and (∂g/∂s = g (x−c)²/s³, by parts with
/// (x−c) g = −s² g′) ∂M/∂s = (M − (1−c) g(1) − (1+c) g(−1)) / s.
fn gauss_mass_closed_form(s: f64, c: f64) -> (f64, f64, f64) {
    let g = |x: f64| (-(x - c) * (x - c) / (2.0 * s * s)).exp();
    let erf = statrs::function::erf::erf;
    let r2 = std::f64::consts::SQRT_2;
    let m = s
        * (std::f64::consts::PI / 2.0).sqrt()
        * (erf((1.0 - c) / (s * r2)) + erf((1.0 + c) / (s * r2)));
    (
        m,
        (m - (1.0 - c) * g(1.0) - (1.0 + c) * g(-1.0)) / s,
        g(-1.0) - g(1.0),
    )
}

#[test]
fn a_generic_body_passes_closures_by_value_by_dyn_and_lent_on() {
    let p = [0.6, 0.2];
    check_modes!(gauss_masses_f64 {}, |x: &[f64]| gauss_masses_f64(x), p);
    // Each rule against the closed form, to its quadrature error.
    let (m, dms, dmc) = gauss_mass_closed_form(p[0], p[1]);
    let d = gauss_masses_frule(Dual::new(p[0], 1.0), Dual::new(p[1], 0.0));
    let e = gauss_masses_frule(Dual::new(p[0], 0.0), Dual::new(p[1], 1.0));
    let plain = gauss_masses(p[0], p[1]);
    let (v, ds, dc) = (
        [plain.0, plain.1, plain.2],
        [d.tangent.0, d.tangent.1, d.tangent.2],
        [e.tangent.0, e.tangent.1, e.tangent.2],
    );
    for (k, got) in [d.primal, e.primal].iter().enumerate() {
        let got = [got.0, got.1, got.2];
        for r in 0..3 {
            assert_eq!(
                got[r].to_bits(),
                v[r].to_bits(),
                "direction {k}, rule {r}: primal"
            );
        }
    }
    for r in 0..3 {
        approx::assert_relative_eq!(v[r], m, max_relative = 1e-5);
        approx::assert_relative_eq!(ds[r], dms, max_relative = 1e-4);
        approx::assert_relative_eq!(dc[r], dmc, max_relative = 1e-4);
    }
}

#[test]
fn a_generic_body_passes_closures_at_f32() {
    let (s, c) = (0.6f32, 0.2f32);
    let d = gauss_masses_frule(Dual::new(s, 0.0f32), Dual::new(c, 1.0f32));
    let plain = gauss_masses(s, c);
    assert_eq!(d.primal.0.to_bits(), plain.0.to_bits());
    assert_eq!(d.primal.1.to_bits(), plain.1.to_bits());
    assert_eq!(d.primal.2.to_bits(), plain.2.to_bits());
    let (_, _, dmc) = gauss_mass_closed_form(s as f64, c as f64);
    for t in [d.tangent.0, d.tangent.1, d.tangent.2] {
        approx::assert_relative_eq!(t as f64, dmc, max_relative = 1e-3);
    }
}

// ---------------------------------------------------------------------------------------
// Methods of a generic `impl` taking function values; an `f64`-only callee
// ---------------------------------------------------------------------------------------

/// A uniform grid on [lo, hi] with midpoint weights.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Grid<T> {
    pub lo: T,
    pub hi: T,
}

#[derive_frule]
impl<T: Float + FromPrimitive> Grid<T> {
    /// The midpoint rule over the grid with `n` cells.
    pub fn integrate<F: Fn(T) -> T>(&self, f: F, n: usize) -> T {
        let h = (self.hi - self.lo) / T::from_usize(n).unwrap();
        let half = T::from_f64(0.5).unwrap();
        let mut s = T::zero();
        for i in 0..n {
            s = s + f(self.lo + (T::from_usize(i).unwrap() + half) * h);
        }
        s * h
    }

    /// The mean of `f` over the grid, through `integrate`.
    pub fn mean_of(&self, f: &dyn Fn(T) -> T) -> T {
        self.integrate(f, 256) / (self.hi - self.lo)
    }

    /// The second moment of e^{−k x} over the grid, by method syntax and by path.
    pub fn moments(&self, k: T) -> (T, T) {
        let by_method = self.integrate(|x| x * x * (-k * x).exp(), 256);
        let by_path = Grid::<T>::integrate(self, |x| x * x * (-k * x).exp(), 256);
        (by_method, by_path)
    }
}

/// The second moment of e^{−k x} on [0, b], and the mean of sin(k x) there, over T.
#[derive_frule]
pub fn grid_moments<T: Float + FromPrimitive>(k: T, b: T) -> T {
    let grid = Grid {
        lo: T::zero(),
        hi: b,
    };
    let (m1, m2) = grid.moments(k);
    let mean = grid.mean_of(&|x| (k * x).sin());
    m1 + m2 + mean
}

#[derive_frule]
fn grid_moments_f64(p: &[f64]) -> f64 {
    let grid = Grid { lo: 0.0, hi: p[1] };
    // From `f64` code too, as before.
    let direct = grid.integrate(|x| (p[0] * x).cos(), 128);
    grid_moments(p[0], p[1]) + direct
}

/// ∫₀ᵇ x² e^{−kx} dx = 2/k³ − e^{−kb} (b²/k + 2b/k² + 2/k³).
fn second_moment(k: f64, b: f64) -> f64 {
    2.0 / k.powi(3) - (-k * b).exp() * (b * b / k + 2.0 * b / (k * k) + 2.0 / k.powi(3))
}

#[test]
fn methods_of_a_generic_impl_take_closures_from_generic_and_f64_code() {
    let p = [0.8, 2.5];
    check_modes!(grid_moments_f64 {}, |x: &[f64]| grid_moments_f64(x), p);
    // Closed forms: the midpoint rule's error is O(h²), h = b/256 (b/128 for the cosine).
    let (k, b) = (p[0], p[1]);
    let want = |k: f64, b: f64| {
        2.0 * second_moment(k, b) + (1.0 - (k * b).cos()) / (k * b) + (k * b).sin() / k
    };
    let (v, g) = fwdad::drivers::gradient(grid_moments_f64 {}, &p);
    assert_eq!(v.to_bits(), grid_moments_f64(&p).to_bits());
    approx::assert_relative_eq!(v, want(k, b), max_relative = 1e-4);
    // ∂/∂b of ∫₀ᵇ is the integrand at b; ∂/∂k by differences of the closed form.
    let dk = (want(k + 1e-6, b) - want(k - 1e-6, b)) / 2e-6;
    let db = 2.0 * b * b * (-k * b).exp() + (k * b).sin() / b - (1.0 - (k * b).cos()) / (k * b * b)
        + (k * b).cos();
    approx::assert_relative_eq!(g[0], dk, max_relative = 1e-4);
    approx::assert_relative_eq!(g[1], db, max_relative = 1e-4);
}

#[test]
fn methods_of_a_generic_impl_at_f32() {
    let (k, b) = (0.8f32, 2.5f32);
    let r = grid_moments_frule(Dual::new(k, 0.0f32), Dual::new(b, 1.0f32));
    assert_eq!(r.primal.to_bits(), grid_moments(k, b).to_bits());
    let (kd, bd) = (k as f64, b as f64);
    let db = 2.0 * bd * bd * (-kd * bd).exp() + (kd * bd).sin() / bd
        - (1.0 - (kd * bd).cos()) / (kd * bd * bd);
    approx::assert_relative_eq!(r.tangent as f64, db, max_relative = 1e-3);
}

/// A quadrature written for `f64` only.
#[derive_frule]
pub fn gauss_legendre3(f: &dyn Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    let (m, r) = ((a + b) / 2.0, (b - a) / 2.0);
    let x = (0.6f64).sqrt();
    r * (5.0 * f(m - r * x) + 8.0 * f(m) + 5.0 * f(m + r * x)) / 9.0
}

/// A generic body calling the `f64`-only quadrature with a closure over `f64` (its `T`
/// only converts the result).
#[derive_frule]
pub fn scaled_quartic_area<T: Float>(scale: T, b: f64) -> T {
    let area = gauss_legendre3(&|x| x * x * x * x, 0.0, b);
    scale * T::from(area).unwrap()
}

#[derive_frule]
fn scaled_quartic_area_f64(p: &[f64]) -> f64 {
    scaled_quartic_area(p[0], p[1])
}

#[test]
fn a_generic_body_calls_an_f64_quadrature_with_a_closure() {
    let p = [1.7, 1.3];
    check_modes!(
        scaled_quartic_area_f64 {},
        |x: &[f64]| scaled_quartic_area_f64(x),
        p
    );
    // Three-point Gauss–Legendre is exact for quartics: s b⁵/5, gradient (b⁵/5, s b⁴).
    let (v, g) = fwdad::drivers::gradient(scaled_quartic_area_f64 {}, &p);
    approx::assert_relative_eq!(v, p[0] * p[1].powi(5) / 5.0, max_relative = 1e-12);
    approx::assert_relative_eq!(g[0], p[1].powi(5) / 5.0, max_relative = 1e-12);
    approx::assert_relative_eq!(g[1], p[0] * p[1].powi(4), max_relative = 1e-12);
}

// ---------------------------------------------------------------------------------------
// Every form of function value, from a generic body
// ---------------------------------------------------------------------------------------

/// Takes a function pointer.
#[derive_frule]
pub fn by_pointer<T: Float>(f: fn(T) -> T, x: T) -> T {
    f(x) * x
}

/// Takes `impl Fn`.
#[derive_frule]
pub fn by_impl<T: Float>(f: impl Fn(T) -> T, x: T) -> T {
    f(x) + f(x + x)
}

/// Takes a boxed closure.
#[derive_frule]
pub fn by_box<T: Float>(f: Box<dyn Fn(T) -> T>, x: T) -> T {
    f(x) - x
}

#[derive_frule]
pub fn square<T: Float>(x: T) -> T {
    x * x
}

/// Returns a closure over `T`.
#[derive_frule]
pub fn affine<T: Float>(a: T, b: T) -> impl Fn(T) -> T {
    move |x| a * x + b
}

/// A closure of each kind, a generic function by name and `T::sin`, from a generic body
/// (`'static` for the boxed closures, as Rust asks).
#[derive_frule]
pub fn exact_forms<T: Float + FromPrimitive + 'static>(w: T, c: T) -> T {
    let by_impl = by_impl(|x| x * c, w);
    let boxed = by_box(Box::new(move |x| x * c), w) + by_box(Box::new(T::sin), w);
    let nested = simpson(
        |x| simpson(|y| x * y * c, T::zero(), T::one(), 2),
        T::zero(),
        T::one(),
        2,
    );
    let by_name = by_pointer(square, w) + simpson(square, T::zero(), w, 2);
    let line = affine(c, w);
    by_impl + boxed + nested + by_name + line(w)
}

#[derive_frule]
fn exact_forms_f64(v: &[f64]) -> f64 {
    exact_forms(v[0], v[1])
}

/// 3wc (by impl) + wc − w + sin w − w (boxed) + c/4 (Simpson is exact on x y) + w³ + w³/3
/// (by name; Simpson exact on x²) + cw + w (the returned line).
fn exact_forms_closed_form(w: f64, c: f64) -> (f64, f64, f64) {
    let v = 5.0 * w * c - w + w.sin() + c / 4.0 + 4.0 / 3.0 * w.powi(3);
    (v, 5.0 * c - 1.0 + w.cos() + 4.0 * w * w, 5.0 * w + 0.25)
}

#[test]
fn every_form_of_function_value_from_a_generic_body() {
    let v = [0.7, 1.3];
    check_modes!(exact_forms_f64 {}, |x: &[f64]| exact_forms_f64(x), v);
    let (want, dw, dc) = exact_forms_closed_form(v[0], v[1]);
    let (value, g) = fwdad::drivers::gradient(exact_forms_f64 {}, &v);
    approx::assert_relative_eq!(value, want, max_relative = 1e-14);
    approx::assert_relative_eq!(g[0], dw, max_relative = 1e-14);
    approx::assert_relative_eq!(g[1], dc, max_relative = 1e-14);
    let r = exact_forms_frule(Dual::new(0.7f32, 1.0), Dual::new(1.3f32, 0.0));
    assert_eq!(r.primal.to_bits(), exact_forms(0.7f32, 1.3).to_bits());
    approx::assert_relative_eq!(r.tangent as f64, dw, max_relative = 1e-5);
}

/// A `let`-bound closure over `T`, passed by value and by reference.
#[derive_frule]
pub fn bump_twice<T: Float + FromPrimitive>(w: T) -> T {
    let bump = |x: T| (-x * x / w).exp();
    simpson(bump, -T::one(), T::one(), 100) + trapezoid(&bump, -T::one(), T::one(), 400)
}

#[derive_frule]
fn bump_twice_f64(v: &[f64]) -> f64 {
    bump_twice(v[0])
}

#[test]
fn a_let_bound_closure_from_a_generic_body() {
    let w = 0.8;
    check_modes!(bump_twice_f64 {}, |x: &[f64]| bump_twice_f64(x), [w]);
    // ∫₋₁¹ e^{−x²/w} dx = √(πw) erf(1/√w); d/dw = √π erf(1/√w)/(2√w) − e^{−1/w}/w.
    let erf = statrs::function::erf::erf;
    let pi = std::f64::consts::PI;
    let m = (pi * w).sqrt() * erf(1.0 / w.sqrt());
    let dm = pi.sqrt() * erf(1.0 / w.sqrt()) / (2.0 * w.sqrt()) - (-1.0 / w).exp() / w;
    let (value, g) = fwdad::drivers::gradient(bump_twice_f64 {}, &[w]);
    approx::assert_relative_eq!(value, 2.0 * m, max_relative = 1e-5);
    approx::assert_relative_eq!(g[0], 2.0 * dm, max_relative = 1e-5);
}

// ---------------------------------------------------------------------------------------
// Other float bounds: num_traits::real::Real, nalgebra's RealField
// ---------------------------------------------------------------------------------------

mod real_bound {
    use fwdad::prelude::*;
    use num_traits::real::Real;

    /// Gauss–Legendre with two points on [a, b], over any `Real`.
    #[derive_frule]
    pub fn gauss2<T: Real, F: Fn(T) -> T>(f: F, a: T, b: T) -> T {
        let two = T::one() + T::one();
        let (m, r) = ((a + b) / two, (b - a) / two);
        let x = r / (two + T::one()).sqrt();
        r * (f(m - x) + f(m + x))
    }

    /// ∫₀ᵇ k x³ dx through it, from a body bounded by `Real`.
    #[derive_frule]
    pub fn cubic_area<T: Real>(k: T, b: T) -> T {
        gauss2(|x| k * x * x * x, T::zero(), b)
    }
}

#[derive_frule]
fn cubic_area_f64(v: &[f64]) -> f64 {
    real_bound::cubic_area(v[0], v[1])
}

#[test]
fn a_closure_from_a_body_bounded_by_num_traits_real() {
    let v = [1.5, 1.2];
    check_modes!(cubic_area_f64 {}, |x: &[f64]| cubic_area_f64(x), v);
    // Two-point Gauss–Legendre is exact for cubics: k b⁴/4, gradient (b⁴/4, k b³).
    let (value, g) = fwdad::drivers::gradient(cubic_area_f64 {}, &v);
    approx::assert_relative_eq!(value, v[0] * v[1].powi(4) / 4.0, max_relative = 1e-14);
    approx::assert_relative_eq!(g[0], v[1].powi(4) / 4.0, max_relative = 1e-14);
    approx::assert_relative_eq!(g[1], v[0] * v[1].powi(3), max_relative = 1e-14);
    let r = real_bound::cubic_area_frule(Dual::new(1.5f32, 0.0), Dual::new(1.2f32, 1.0));
    assert_eq!(
        r.primal.to_bits(),
        real_bound::cubic_area(1.5f32, 1.2).to_bits()
    );
    approx::assert_relative_eq!(r.tangent, 1.5 * 1.2f32.powi(3), max_relative = 1e-5);
}

#[cfg(feature = "nalgebra")]
mod realfield_bound {
    use fwdad::prelude::*;
    use nalgebra::RealField;

    /// The midpoint rule over `T: RealField`, as nalgebra code bounds its scalars.
    #[derive_frule]
    pub fn midpoint_rf<T: RealField + Copy, F: Fn(T) -> T>(f: F, a: T, b: T, n: usize) -> T {
        let h = (b - a) / T::from_usize(n).unwrap();
        let half = T::from_f64(0.5).unwrap();
        let mut s = T::zero();
        for i in 0..n {
            s += f(a + (T::from_usize(i).unwrap() + half) * h);
        }
        s * h
    }

    /// ∫₀ᵇ cos(k x) dx.
    #[derive_frule]
    pub fn cos_area<T: RealField + Copy>(k: T, b: T) -> T {
        midpoint_rf(|x| (k * x).cos(), T::zero(), b, 200)
    }
}

#[cfg(feature = "nalgebra")]
#[derive_frule]
fn cos_area_f64(v: &[f64]) -> f64 {
    realfield_bound::cos_area(v[0], v[1])
}

#[cfg(feature = "nalgebra")]
#[test]
fn a_closure_from_a_body_bounded_by_realfield() {
    let v = [1.1, 2.0];
    check_modes!(cos_area_f64 {}, |x: &[f64]| cos_area_f64(x), v);
    // ∫₀ᵇ cos kx dx = sin(kb)/k: ∂/∂k = b cos(kb)/k − sin(kb)/k², ∂/∂b = cos(kb).
    let (k, b) = (v[0], v[1]);
    let (_, g) = fwdad::drivers::gradient(cos_area_f64 {}, &v);
    approx::assert_relative_eq!(
        g[0],
        b * (k * b).cos() / k - (k * b).sin() / (k * k),
        max_relative = 1e-4
    );
    approx::assert_relative_eq!(g[1], (k * b).cos(), max_relative = 1e-4);
}

// ---------------------------------------------------------------------------------------
// A closure assigning what it captures, from a generic body
// ---------------------------------------------------------------------------------------

/// Calls `f` at the n + 1 nodes of a uniform grid on [a, b].
#[derive_frule]
pub fn visit_nodes<T: Float + FromPrimitive, F: FnMut(T)>(mut f: F, a: T, b: T, n: usize) {
    let h = (b - a) / T::from_usize(n).unwrap();
    for i in 0..=n {
        f(a + h * T::from_usize(i).unwrap());
    }
}

/// The mean of w x² over the nodes, accumulated by the closure (with a counter).
#[derive_frule]
pub fn node_mean<T: Float + FromPrimitive>(w: T, b: T) -> T {
    let mut total = T::zero();
    let mut calls = 0usize;
    visit_nodes(
        |x| {
            total = total + w * x * x;
            calls += 1;
        },
        T::zero(),
        b,
        4,
    );
    total / T::from_usize(calls).unwrap()
}

#[derive_frule]
fn node_mean_f64(v: &[f64]) -> f64 {
    node_mean(v[0], v[1])
}

#[test]
fn a_closure_assigning_its_captures_from_a_generic_body() {
    let v = [0.7, 1.6];
    check_modes!(node_mean_f64 {}, |x: &[f64]| node_mean_f64(x), v);
    // Nodes b·(0, 1/4, 1/2, 3/4, 1): Σ x² = b² · 15/8, so the mean is 3 w b²/8.
    let (w, b) = (v[0], v[1]);
    let (_, g) = fwdad::drivers::gradient(node_mean_f64 {}, &v);
    approx::assert_relative_eq!(g[0], 3.0 * b * b / 8.0, max_relative = 1e-14);
    approx::assert_relative_eq!(g[1], 3.0 * w * b / 4.0, max_relative = 1e-14);
    let r = node_mean_frule(Dual::new(0.7f32, 1.0), Dual::new(1.6f32, 0.0));
    assert_eq!(r.primal.to_bits(), node_mean(0.7f32, 1.6).to_bits());
    approx::assert_relative_eq!(r.tangent, 3.0 * 1.6f32 * 1.6 / 8.0, max_relative = 1e-6);
}
