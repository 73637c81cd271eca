//! Differential fuzzing of fwdad (issue 26.3b).
//!
//! [`gen::generate`] writes random numeric functions twice from one tree: over plain `f64`
//! with `#[derive_frule]`, and generic over num-dual's `DualNum<f64>` as the independent
//! reference. [`check`] runs each at random points through fwdad's three modes (one
//! direction with `jvp`, batched lanes with `gradient`, second order with `hessian`) and
//! compares: the primal bit for bit with the plain function, first and second derivatives
//! with num-dual's `Dual64` and `HyperDual64`.
//!
//! `cargo test -p fwdad-fuzz` runs 40 programs of seed 1; a long run sets
//! `FWDAD_DIFF_SEED`, `FWDAD_DIFF_PROGRAMS` and `FWDAD_DIFF_INPUTS` (see DEVELOPMENT.md).

pub mod gen;

use num_dual::{Dual64, HyperDual64};

/// The value, gradient and Hessian rows of `fwdad::hessian`.
pub type Hessian = (f64, Vec<f64>, Vec<Vec<f64>>);

/// The values and Jacobian rows of `fwdad::jacobian`.
pub type Jacobian = (Vec<f64>, Vec<Vec<f64>>);

/// `d` with its value moved to exactly `primal` (its derivatives unchanged), where
/// num-dual computes a value differently from `f64` (`powi` as `x^(k-3)·x·x·x`, `mul_add`
/// unfused, `hypot` as `√(a² + b²)`): the reference then follows the plain function's
/// values, so rounding differences are not amplified along the program. Both subtractions
/// are exact (Sterbenz): the two values are a few ulps apart.
pub fn fix<D: num_dual::DualNum<Primitive = f64> + Copy>(d: D, primal: f64) -> D {
    d - D::from(d.re() - primal)
}

/// `a / b` for the reference: num-dual divides as `a · (1/b)`, rounded differently.
pub fn div<D: num_dual::DualNum<Primitive = f64> + Copy>(a: D, b: D) -> D {
    fix(a / b, a.re() / b.re())
}

/// `tanh` for the reference: num-dual computes `sinh / cosh`, NaN beyond |x| ≈ 710 (and
/// rounded differently below); this form never overflows and its value is `f64::tanh`'s.
pub fn tanh<D: num_dual::DualNum<Primitive = f64> + Copy>(x: D) -> D {
    let neg = x.re() < 0.0;
    let a = if neg { -x } else { x };
    let e = (a * D::from(-2.0)).exp();
    let t = (D::from(1.0) - e) / (D::from(1.0) + e);
    fix(if neg { -t } else { t }, x.re().tanh())
}

/// One generated program and its entry points.
pub struct Program {
    pub name: &'static str,
    /// Length of the input slice.
    pub n: usize,
    /// Computes in `f32` somewhere: derivatives are compared to [`F32_TOL`].
    pub f32: bool,
    pub plain: fn(&[f64]) -> f64,
    pub jvp: fn(&[f64], &[f64]) -> (f64, f64),
    pub gradient: fn(&[f64]) -> (f64, Vec<f64>),
    pub hessian: fn(&[f64]) -> Hessian,
    pub dual: fn(&[Dual64]) -> Dual64,
    pub hyper: fn(&[HyperDual64]) -> HyperDual64,
}

/// A generated residual `q(x, y)` writing `y` (length `m`) in place.
pub struct VectorProgram {
    pub name: &'static str,
    pub n: usize,
    pub m: usize,
    pub plain: fn(&[f64], &mut [f64]),
    /// `fwdad::jacobian(inplace(q {}, m), x)`: the values and the Jacobian's rows.
    pub jacobian: fn(&[f64]) -> Jacobian,
    pub dual: fn(&[Dual64], &mut [Dual64]),
}

/// What a run compared.
#[derive(Debug, Default)]
pub struct Stats {
    /// Program × input pairs run.
    pub runs: usize,
    /// Pairs skipped because the value or a derivative was not finite or huge (the
    /// generated program overflowed there).
    pub skipped: usize,
    /// Pairs skipped because the reference's value differed from the plain function's
    /// (num-dual rounding a value differently sends it down another branch): its
    /// derivatives are then of another program.
    pub reference_off: usize,
    /// Where the reference was off (program and point): fwdad's primal is not compared
    /// there, so a long run shows them to be looked at.
    pub reference_off_at: Vec<String>,
    /// Individual numbers compared (primals, tangents, gradient and Hessian entries).
    pub compared: usize,
    pub mismatches: Vec<String>,
}

/// Agreement of a derivative with its reference: both are computed with different but
/// exact formulas, so they may differ by rounding only. Relative to the larger of the two,
/// and absolute below one: a small entry is often the difference of terms of order one
/// (the inputs are), and carries their rounding.
fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

/// Second derivatives compose more partials, and the two tools round them differently
/// (num-dual's `tanh''` near saturation loses digits that fwdad's `sech²` form keeps): seed
/// 11's `p43` at `x = [1.811…, 0.467…, -1.773…]` gives `∂²/∂x₂²` = 2.357938541180805 in fwdad,
/// 2.357938541176085 in num-dual, and 2.3579385411808049… in 50-digit arithmetic (mpmath).
/// A wrong second-order rule is off by far more than this.
pub const SECOND_ORDER_TOL: f64 = 1e-9;

/// Tolerance of the derivatives of a program with `f32` parts. fwdad propagates their
/// tangents in `f32` (unit roundoff 6e-8), the reference in `f64` from the unrounded
/// inputs; their difference is that roundoff times the part's condition number. A wrong
/// rule is off by far more.
pub const F32_TOL: f64 = 1e-4;

/// Runs every program at `inputs` random points drawn from `seed`.
pub fn check(programs: &[Program], inputs: usize, seed: u64, tol: f64) -> Stats {
    let mut rng = gen::Rng::new(seed);
    let mut st = Stats::default();
    for p in programs {
        for _ in 0..inputs {
            let x: Vec<f64> = (0..p.n).map(|_| rng.uniform(-2.0, 2.0)).collect();
            let v: Vec<f64> = (0..p.n).map(|_| rng.uniform(-1.0, 1.0)).collect();
            let tol = if p.f32 { F32_TOL.max(tol) } else { tol };
            check_one(p, &x, &v, tol, &mut st);
        }
    }
    st
}

fn check_one(p: &Program, x: &[f64], v: &[f64], tol: f64, st: &mut Stats) {
    st.runs += 1;
    let y = (p.plain)(x);
    // Reference first and second derivatives from num-dual.
    let n = p.n;
    let mut reference_value = Vec::new();
    let grad: Vec<f64> = (0..n)
        .map(|j| {
            let xd: Vec<Dual64> = (0..n)
                .map(|i| Dual64::new(x[i], if i == j { 1.0 } else { 0.0 }))
                .collect();
            let d = (p.dual)(&xd);
            reference_value.push(d.re);
            d.eps
        })
        .collect();
    let hess: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let xh: Vec<HyperDual64> = (0..n)
                        .map(|k| {
                            let e1 = if k == i { 1.0 } else { 0.0 };
                            let e2 = if k == j { 1.0 } else { 0.0 };
                            HyperDual64::new(x[k], e1, e2, 0.0)
                        })
                        .collect();
                    let d = (p.hyper)(&xh);
                    reference_value.push(d.re);
                    d.eps1eps2
                })
                .collect()
        })
        .collect();
    let all = std::iter::once(y)
        .chain(grad.iter().copied())
        .chain(hess.iter().flatten().copied());
    if all.clone().any(|t| !t.is_finite() || t.abs() > 1e12) {
        st.skipped += 1;
        return;
    }
    if let Some(r) = reference_value.iter().find(|r| r.to_bits() != y.to_bits()) {
        st.reference_off += 1;
        st.reference_off_at.push(format!(
            "{} at x = {x:?}: num-dual {r:e}, plain {y:e}",
            p.name
        ));
        // The primals need no reference.
        let got = [
            ((p.jvp)(x, v).0, "jvp"),
            ((p.gradient)(x).0, "gradient"),
            ((p.hessian)(x).0, "hessian"),
        ];
        for (got, mode) in got {
            st.compared += 1;
            if got.to_bits() != y.to_bits() {
                st.mismatches.push(format!(
                    "{} at x = {x:?}: {mode} primal {got:e} != plain {y:e}",
                    p.name
                ));
            }
        }
        return;
    }
    let jvp_ref: f64 = grad.iter().zip(v).map(|(g, v)| g * v).sum();
    let scale: f64 = grad.iter().zip(v).map(|(g, v)| (g * v).abs()).sum();
    let at = |what: &str| format!("{} at x = {x:?}: {what}", p.name);
    let primal = |got: f64, mode: &str, st: &mut Stats| {
        st.compared += 1;
        if got.to_bits() != y.to_bits() {
            st.mismatches
                .push(at(&format!("{mode} primal {got:e} != plain {y:e}")));
        }
    };

    let (y1, t1) = (p.jvp)(x, v);
    primal(y1, "jvp", st);
    st.compared += 1;
    // The directional derivative cancels terms: compare relative to their size.
    if (t1 - jvp_ref).abs() > tol * scale.max(1.0) {
        st.mismatches.push(at(&format!(
            "jvp tangent {t1:e} != num-dual {jvp_ref:e} (v = {v:?})"
        )));
    }

    let (y2, g2) = (p.gradient)(x);
    primal(y2, "gradient", st);
    for (j, (a, b)) in g2.iter().zip(&grad).enumerate() {
        st.compared += 1;
        if !close(*a, *b, tol) {
            st.mismatches
                .push(at(&format!("gradient[{j}] {a:e} != num-dual {b:e}")));
        }
    }

    let (y3, g3, h3) = (p.hessian)(x);
    primal(y3, "hessian", st);
    for (j, (a, b)) in g3.iter().zip(&grad).enumerate() {
        st.compared += 1;
        if !close(*a, *b, tol) {
            st.mismatches.push(at(&format!(
                "hessian's gradient[{j}] {a:e} != num-dual {b:e}"
            )));
        }
    }
    for i in 0..n {
        for j in 0..n {
            st.compared += 1;
            let (a, b) = (h3[i][j], hess[i][j]);
            if !close(a, b, SECOND_ORDER_TOL.max(tol)) {
                st.mismatches
                    .push(at(&format!("hessian[{i}][{j}] {a:e} != num-dual {b:e}")));
            }
        }
    }
}

/// Runs every vector program at `inputs` random points drawn from `seed`: values bit for
/// bit against the plain function, the Jacobian against num-dual column by column.
pub fn check_vector(programs: &[VectorProgram], inputs: usize, seed: u64, tol: f64) -> Stats {
    let mut rng = gen::Rng::new(seed);
    let mut st = Stats::default();
    for p in programs {
        for _ in 0..inputs {
            let x: Vec<f64> = (0..p.n).map(|_| rng.uniform(-2.0, 2.0)).collect();
            st.runs += 1;
            let mut y = vec![0.0; p.m];
            (p.plain)(&x, &mut y);
            let mut off = false;
            let cols: Vec<Vec<f64>> = (0..p.n)
                .map(|j| {
                    let xd: Vec<Dual64> = (0..p.n)
                        .map(|i| Dual64::new(x[i], if i == j { 1.0 } else { 0.0 }))
                        .collect();
                    let mut yd = vec![Dual64::from(0.0); p.m];
                    (p.dual)(&xd, &mut yd);
                    if yd
                        .iter()
                        .zip(&y)
                        .any(|(d, y)| d.re.to_bits() != y.to_bits())
                    {
                        off = true;
                    }
                    yd.iter().map(|d| d.eps).collect()
                })
                .collect();
            let all = y.iter().chain(cols.iter().flatten());
            if all.clone().any(|t| !t.is_finite() || t.abs() > 1e12) {
                st.skipped += 1;
                continue;
            }
            if off {
                st.reference_off += 1;
                continue;
            }
            let at = |what: &str| format!("{} at x = {x:?}: {what}", p.name);
            let (yf, jf) = (p.jacobian)(&x);
            for i in 0..p.m {
                st.compared += 1;
                if yf[i].to_bits() != y[i].to_bits() {
                    st.mismatches
                        .push(at(&format!("y[{i}] {:e} != plain {:e}", yf[i], y[i])));
                }
                for j in 0..p.n {
                    st.compared += 1;
                    if !close(jf[i][j], cols[j][i], tol) {
                        st.mismatches.push(at(&format!(
                            "jacobian[{i}][{j}] {:e} != num-dual {:e}",
                            jf[i][j], cols[j][i]
                        )));
                    }
                }
            }
        }
    }
    st
}
