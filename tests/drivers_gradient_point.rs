//! The one-shot `gradient` at a slice (a `Vec` returned), at a `Vec`, and at an array (an
//! array returned): its one pass of static unit seeds up to 16 inputs (4, 8, 10, 12 or 16
//! lanes), its tuned plans above (one pass of 20 or 32 lanes among them), and a rule whose
//! body is one chain (its Jacobian entry instead of a seeded pass). Every gradient is checked
//! against the formula or central differences, at every width class, at one input, at each
//! width's boundary and at lengths that are no multiple of the width.

// The functions index slices in loops, as their authors write them.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{GradientPlan, JacobianSink, SliceRule};
use fwdad::prelude::*;

#[derive_frule]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = 1.0 - x[i];
        s += 100.0 * t * t + u * u;
    }
    s
}

#[derive_frule]
fn ackley(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mut s2 = 0.0;
    let mut sc = 0.0;
    for i in 0..x.len() {
        s2 += x[i] * x[i];
        sc += (std::f64::consts::TAU * x[i]).cos();
    }
    -20.0 * (-0.2 * (s2 / n).sqrt()).exp() - (sc / n).exp() + 20.0 + std::f64::consts::E
}

/// A stiff spring between two points of the plane, softened past unit stretch, and a
/// gravity term: one straight-line chain with a branch, so its rule has a Jacobian entry.
#[derive_frule]
fn spring_pe(p: &[f64]) -> f64 {
    let dx = p[2] - p[0];
    let dy = p[3] - p[1];
    let s = dx * dx + dy * dy;
    let e = if s > 1.0 { 2.0 * s.sqrt() - 1.0 } else { s };
    0.5 * 40.0 * e + 9.81 * (p[1] + p[3])
}

/// Six atoms in a ring (x, y, z each), harmonic bonds of rest length 1.5 between
/// neighbours, written out bond by bond: straight-line code of 18 inputs, above the
/// one-pass lengths.
#[derive_frule]
fn ring6_energy(r: &[f64]) -> f64 {
    let k = 350.0;
    let l0 = 1.5;
    let b01 = ((r[3] - r[0]).powi(2) + (r[4] - r[1]).powi(2) + (r[5] - r[2]).powi(2)).sqrt();
    let b12 = ((r[6] - r[3]).powi(2) + (r[7] - r[4]).powi(2) + (r[8] - r[5]).powi(2)).sqrt();
    let b23 = ((r[9] - r[6]).powi(2) + (r[10] - r[7]).powi(2) + (r[11] - r[8]).powi(2)).sqrt();
    let b34 = ((r[12] - r[9]).powi(2) + (r[13] - r[10]).powi(2) + (r[14] - r[11]).powi(2)).sqrt();
    let b45 = ((r[15] - r[12]).powi(2) + (r[16] - r[13]).powi(2) + (r[17] - r[14]).powi(2)).sqrt();
    let b50 = ((r[0] - r[15]).powi(2) + (r[1] - r[16]).powi(2) + (r[2] - r[17]).powi(2)).sqrt();
    0.5 * k
        * ((b01 - l0).powi(2)
            + (b12 - l0).powi(2)
            + (b23 - l0).powi(2)
            + (b34 - l0).powi(2)
            + (b45 - l0).powi(2)
            + (b50 - l0).powi(2))
}

/// ∂/∂xᵢ of Rosenbrock, from the formula.
fn rosenbrock_grad(x: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; x.len()];
    for i in 0..x.len().saturating_sub(1) {
        let t = x[i + 1] - x[i] * x[i];
        g[i] += -400.0 * x[i] * t - 2.0 * (1.0 - x[i]);
        g[i + 1] += 200.0 * t;
    }
    g
}

/// ∂/∂xᵢ of Ackley, from the formula.
fn ackley_grad(x: &[f64]) -> Vec<f64> {
    let n = x.len() as f64;
    let tau = std::f64::consts::TAU;
    let s2: f64 = x.iter().map(|v| v * v).sum();
    let sc: f64 = x.iter().map(|v| (tau * v).cos()).sum();
    let r = (s2 / n).sqrt();
    let (e1, e2) = ((-0.2 * r).exp(), (sc / n).exp());
    x.iter()
        .map(|&v| 4.0 * e1 * v / (n * r) + e2 * tau * (tau * v).sin() / n)
        .collect()
}

/// Central differences of `f` at `x`, step `h`.
fn central(f: impl Fn(&[f64]) -> f64, x: &[f64], h: f64) -> Vec<f64> {
    let mut xp = x.to_vec();
    (0..x.len())
        .map(|i| {
            xp[i] = x[i] + h;
            let up = f(&xp);
            xp[i] = x[i] - h;
            let down = f(&xp);
            xp[i] = x[i];
            (up - down) / (2.0 * h)
        })
        .collect()
}

/// A point with no zero entry (Ackley's `√` and `sin` both vary), different entries.
fn point(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 7 + 3) % 11) as f64 / 5.0 - 1.1)
        .collect()
}

fn assert_near(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "{what}, entry {i}: {g} against {w}"
        );
    }
}

/// Every call of `gradient` at a point of `N` inputs, as a slice, a `Vec` and an array (by
/// reference and by value), against the formulas; the array's gradient is an array.
fn check_len<const N: usize>() {
    let v = point(N);
    let a: [f64; N] = v.clone().try_into().expect("N entries");
    let want_r = rosenbrock_grad(&v);
    let want_a = ackley_grad(&v);
    // Above 16 inputs the first 18 to 48 calls of a length time the plans: go past them, and
    // check every call (each plan's gradient).
    let calls = if N > 16 {
        8 * GradientPlan::CANDIDATES.len() + 2
    } else {
        1
    };
    for call in 0..calls {
        let what = |form: &str, f: &str| format!("n = {N}, call {call}, {form}, {f}");
        let (fv, g): (f64, Vec<f64>) = gradient(rosenbrock {}, &v[..]);
        assert_eq!(fv, rosenbrock(&v));
        assert_near(&what("slice", "rosenbrock"), &g, &want_r, 1e-12);
        let (fv, g): (f64, Vec<f64>) = gradient(rosenbrock {}, &v);
        assert_eq!(fv, rosenbrock(&v));
        assert_near(&what("Vec", "rosenbrock"), &g, &want_r, 1e-12);
        let (fv, g): (f64, [f64; N]) = gradient(rosenbrock {}, &a);
        assert_eq!(fv, rosenbrock(&v));
        assert_near(&what("&array", "rosenbrock"), &g, &want_r, 1e-12);
        let (fv, g): (f64, [f64; N]) = gradient(rosenbrock {}, a);
        assert_eq!(fv, rosenbrock(&v));
        assert_near(&what("array", "rosenbrock"), &g, &want_r, 1e-12);

        let (fv, g): (f64, Vec<f64>) = gradient(ackley {}, &v[..]);
        assert_eq!(fv, ackley(&v));
        assert_near(&what("slice", "ackley"), &g, &want_a, 1e-12);
        let (fv, g): (f64, [f64; N]) = gradient(ackley {}, &a);
        assert_eq!(fv, ackley(&v));
        assert_near(&what("&array", "ackley"), &g, &want_a, 1e-12);
    }
}

#[test]
fn one_pass_lengths_at_every_width_and_boundary() {
    // 4 lanes: 1 to 4; 8: 5 to 8; 10: 9, 10; 12: 11, 12; 16: 13 to 16.
    check_len::<1>();
    check_len::<2>();
    check_len::<3>();
    check_len::<4>();
    check_len::<5>();
    check_len::<7>();
    check_len::<8>();
    check_len::<9>();
    check_len::<10>();
    check_len::<11>();
    check_len::<12>();
    check_len::<13>();
    check_len::<15>();
    check_len::<16>();
}

#[test]
fn tuned_lengths_above_sixteen() {
    // One pass of 20 lanes among the plans up to 20 inputs, of 32 up to 32; chunks of 8,
    // 16 or 32 (`Batch` or `MaybeZero`), the last one partly padded, above: seeded from
    // static windows up to 64 inputs, from kept buffers above.
    check_len::<17>();
    check_len::<18>();
    check_len::<20>();
    check_len::<21>();
    check_len::<24>();
    check_len::<25>();
    check_len::<31>();
    check_len::<32>();
    check_len::<33>();
    check_len::<48>();
    check_len::<50>();
    check_len::<64>();
    check_len::<65>();
}

#[test]
fn gradient_of_no_input_is_empty() {
    #[derive_frule]
    fn constant(x: &[f64]) -> f64 {
        let mut s = 2.5;
        for i in 0..x.len() {
            s += x[i];
        }
        s
    }
    let (v, g) = gradient(constant {}, &[]);
    assert_eq!((v, g), (2.5, []));
    let (v, g) = gradient(constant {}, &Vec::new());
    assert_eq!((v, g.len()), (2.5, 0));
}

/// Whether `f`'s rule has a Jacobian entry (a body of one chain), asked as the drivers do.
fn has_jacobian_entry<F: SliceRule<Batch<f64, 4>>>(f: &F, x: &[f64]) -> bool {
    struct Discard;
    impl JacobianSink for Discard {
        fn rows(&mut self, _: usize) {}
        fn value(&mut self, _: usize, _: f64) {}
        fn add(&mut self, _: usize, _: usize, _: f64) {}
    }
    let dx = vec![Batch::<f64, 4>::default(); x.len()];
    f.eval_jacobian(x, &dx, &mut Discard)
}

#[test]
fn straight_line_code_of_eighteen_inputs_at_every_plan() {
    // A slightly distorted hexagon.
    let mut r = [0.0; 18];
    for a in 0..6 {
        let phi = std::f64::consts::FRAC_PI_3 * a as f64;
        r[3 * a] = 1.6 * phi.cos() + 0.03 * a as f64;
        r[3 * a + 1] = 1.4 * phi.sin();
        r[3 * a + 2] = 0.1 * (a % 2) as f64 - 0.05;
    }
    let want = central(ring6_energy, &r, 1e-6);
    // Past the calls that time the plans: every plan's answer.
    for call in 0..8 * GradientPlan::CANDIDATES.len() + 2 {
        let (v, g) = gradient(ring6_energy {}, &r[..]);
        assert_eq!(v, ring6_energy(&r));
        assert_near(&format!("slice, call {call}"), &g, &want, 1e-6);
        let (v, g) = gradient(ring6_energy {}, &r);
        assert_eq!(v, ring6_energy(&r));
        assert_near(&format!("array, call {call}"), &g, &want, 1e-6);
    }
}

#[test]
fn a_rule_of_one_chain_writes_its_gradient_without_seeds() {
    // Both arms of the branch: stretched past unit length, and not.
    for p in [[0.1, 0.2, 1.4, -0.3], [0.1, 0.2, 0.5, 0.4]] {
        assert!(has_jacobian_entry(&spring_pe {}, &p));
        let want = central(spring_pe, &p, 1e-6);
        let (v, g) = gradient(spring_pe {}, &p);
        assert_eq!(v, spring_pe(&p));
        assert_near("array", &g, &want, 1e-8);
        let (v, g) = gradient(spring_pe {}, &p[..]);
        assert_eq!(v, spring_pe(&p));
        assert_near("slice", &g, &want, 1e-8);
        // Called again (nothing kept between the calls of the one pass).
        assert_eq!(gradient(spring_pe {}, p), (v, g.try_into().unwrap()));
    }
}
