//! The Jacobian entry (`Frule::chain_jacobian`): a rule whose body is one linearised chain
//! writes its outputs' coefficients as Jacobian entries, and the drivers use it instead of
//! seeded passes. Its Jacobian must equal the seeded pass's (`Batch` lanes seeded with
//! unit columns) to rounding and central differences, its values the function's bit for
//! bit; at points taking each arm of the `if`s; through `bind` (`Wrt`, `Var`), a
//! forwarding body (sub-slices passed to another rule) and the block driver, on bundle
//! adjustment at ADBench's instance when `../shared/data` has it.

use fwdad::drivers::{jacobian_with, FlatOutput, JacobianSink, Matrix, SliceRule};
use fwdad::prelude::*;
use fwdad::sparse::{BlockLayout, SparseJacobianWorkspace};

/// ADBench's bundle-adjustment reprojection residual (`fwdad-bench/src/ba.rs`): Rodrigues'
/// rotation (its first-order form at a zero rotation), a pinhole with radial distortion.
#[derive_frule]
fn ba_residual(cam: &[f64], x: &[f64], w: f64, fx: f64, fy: f64) -> [f64; 2] {
    let r0 = cam[0];
    let r1 = cam[1];
    let r2 = cam[2];
    let xo0 = x[0] - cam[3];
    let xo1 = x[1] - cam[4];
    let xo2 = x[2] - cam[5];
    let sqtheta = r0 * r0 + r1 * r1 + r2 * r2;
    let (xc0, xc1, xc2) = if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let st = theta.sin();
        let ct = theta.cos();
        let w0 = r0 / theta;
        let w1 = r1 / theta;
        let w2 = r2 / theta;
        let wx0 = w1 * xo2 - w2 * xo1;
        let wx1 = w2 * xo0 - w0 * xo2;
        let wx2 = w0 * xo1 - w1 * xo0;
        let tmp = (w0 * xo0 + w1 * xo1 + w2 * xo2) * (1.0 - ct);
        (
            xo0 * ct + wx0 * st + w0 * tmp,
            xo1 * ct + wx1 * st + w1 * tmp,
            xo2 * ct + wx2 * st + w2 * tmp,
        )
    } else {
        (
            xo0 + (r1 * xo2 - r2 * xo1),
            xo1 + (r2 * xo0 - r0 * xo2),
            xo2 + (r0 * xo1 - r1 * xo0),
        )
    };
    let px = xc0 / xc2;
    let py = xc1 / xc2;
    let rsq = px * px + py * py;
    let l = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    let projx = px * l * cam[6] + cam[7];
    let projy = py * l * cam[6] + cam[8];
    [w * (projx - fx), w * (projy - fy)]
}

/// One observation's 15 parameters packed as a block driver gathers them: camera, point,
/// weight.
#[derive_frule]
fn ba_packed(p: &[f64], fx: f64, fy: f64) -> [f64; 2] {
    ba_residual(&p[0..11], &p[11..14], p[14], fx, fy)
}

/// A saturating spring force in the plane: linear up to unit stretch, then `1/√s`.
#[derive_frule]
fn soft_spring(p: &[f64], k: f64) -> [f64; 2] {
    let dx = p[2] - p[0];
    let dy = p[3] - p[1];
    let s = dx * dx + dy * dy;
    let g = if s > 1.0 {
        k / s.sqrt()
    } else {
        k * (1.5 - 0.5 * s)
    };
    [g * dx, g * dy - 0.1 * p[1]]
}

/// Lift and drag of a flat plate at angle of attack `a` (speed `v`, density `rho`): a
/// function of three scalars, bound with `Var`.
#[derive_frule]
fn plate(v: f64, rho: f64, a: f64) -> (f64, f64) {
    let q = 0.5 * rho * v * v;
    let cl = if a.abs() < 0.25 {
        2.0 * std::f64::consts::PI * a
    } else {
        1.2 * a.sin()
    };
    (q * cl, q * (0.02 + 0.1 * cl * cl))
}

/// A running product: a loop, so no Jacobian entry (seeded passes).
#[derive_frule]
fn cumprod(x: &[f64]) -> [f64; 3] {
    let mut out = [0.0; 3];
    let mut p = 1.0;
    for i in 0..3 {
        p *= x[i];
        out[i] = p;
    }
    out
}

/// The index of the largest element: an integer, no derivative.
#[non_differentiable]
fn argmax(x: &[f64]) -> usize {
    let mut k = 0;
    for i in 1..x.len() {
        if x[i] > x[k] {
            k = i;
        }
    }
    k
}

/// The square of the peak: a root indexed by another rule's (integer) result.
#[derive_frule]
fn peak_energy(x: &[f64]) -> f64 {
    let i = argmax(x);
    0.5 * x[i] * x[i]
}

/// The entry's values and Jacobian, written into a dense sink.
struct Dense {
    values: Vec<f64>,
    jac: Matrix,
}

impl JacobianSink for Dense {
    fn rows(&mut self, m: usize) {
        self.values = vec![f64::NAN; m];
        self.jac = Matrix::zeros(m, self.jac.ncols());
    }
    fn value(&mut self, i: usize, v: f64) {
        self.values[i] = v;
    }
    fn add(&mut self, i: usize, j: usize, d: f64) {
        self.jac[(i, j)] += d;
    }
}

type B = Batch<f64, 16>;

/// The rule's Jacobian entry at `x`, if it has one.
fn entry<F>(f: &F, x: &[f64]) -> Option<(Vec<f64>, Matrix)>
where
    F: SliceRule<B>,
{
    let seeds = vec![B::default(); x.len()];
    let mut sink = Dense {
        values: Vec::new(),
        jac: Matrix::zeros(0, x.len()),
    };
    f.eval_jacobian(x, &seeds, &mut sink)
        .then_some((sink.values, sink.jac))
}

/// One seeded pass: input `j` seeded with the unit column `e_j` (`x.len() ≤ 16`).
fn seeded<F>(f: &F, x: &[f64]) -> (Vec<f64>, Matrix)
where
    F: SliceRule<B, Output: FlatOutput<B>>,
{
    let seeds: Vec<B> = (0..x.len()).map(Batch::unit).collect();
    let y = f.eval(x, &seeds);
    let values: Vec<f64> = (0..y.len()).map(|i| y.value(i)).collect();
    let mut jac = Matrix::zeros(y.len(), x.len());
    for i in 0..y.len() {
        for j in 0..x.len() {
            jac[(i, j)] = y.tangent(i).0[j];
        }
    }
    (values, jac)
}

/// Central differences of `f` at `x`.
fn central(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Matrix {
    let m = f(x).len();
    let mut jac = Matrix::zeros(m, x.len());
    for j in 0..x.len() {
        let h = 1e-6 * x[j].abs().max(1.0);
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[j] += h;
        xm[j] -= h;
        let (fp, fm) = (f(&xp), f(&xm));
        for i in 0..m {
            jac[(i, j)] = (fp[i] - fm[i]) / (2.0 * h);
        }
    }
    jac
}

/// The entry of rule `f` at `x` against the seeded pass (to rounding) and central
/// differences of `plain` (to `tol`, relative to the entry's size), its values bit for bit
/// against `plain`'s.
fn check<F>(f: F, plain: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], tol: f64)
where
    F: SliceRule<B, Output: FlatOutput<B>>,
{
    let (values, jac) = entry(&f, x).expect("the rule has a Jacobian entry");
    let (seeded_values, seeded_jac) = seeded(&f, x);
    let want = plain(x);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&values), bits(&want), "values at {x:?}");
    assert_eq!(bits(&seeded_values), bits(&want), "seeded values at {x:?}");
    let fd = central(&plain, x);
    for i in 0..values.len() {
        for j in 0..x.len() {
            let (a, s, d) = (jac[(i, j)], seeded_jac[(i, j)], fd[(i, j)]);
            assert!(
                (a - s).abs() <= 1e-14 * a.abs().max(s.abs()),
                "({i}, {j}) at {x:?}: entry {a:e}, seeded {s:e}"
            );
            assert!(
                (a - d).abs() <= tol * (1.0 + a.abs()),
                "({i}, {j}) at {x:?}: entry {a:e}, finite differences {d:e}"
            );
        }
    }
    // And the drivers take it: the dense `jacobian` returns the entry's values.
    let (v, j) = jacobian_with::<16>(f, x);
    assert_eq!(bits(&v), bits(&want));
    assert_eq!(j, jac);
}

/// Observations of bundle adjustment: ADBench's (its one camera, point, weight and
/// feature, replicated in the file), and the same moved: another rotation, a zero
/// rotation (the `else` arm), a negative weight.
fn ba_points() -> Vec<([f64; 15], [f64; 2])> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/adbench/ba/ba1_n49_m7776_p31843.txt"
    );
    let (p, feat) = match std::fs::read_to_string(path) {
        Ok(text) => {
            let v: Vec<f64> = text
                .split_whitespace()
                .skip(3)
                .take(17)
                .map(|t| t.parse().unwrap())
                .collect();
            (<[f64; 15]>::try_from(&v[..15]).unwrap(), [v[15], v[16]])
        }
        // Without the data: an observation of the same kind.
        Err(_) => (
            [
                -0.76, -1.11, -0.85, 34.6, 39.7, 53.9, 419.2, 5.86, -8.52, 0.088, 0.0027, 7.2,
                0.0011, 3.02, 0.417,
            ],
            [271.8, 834.2],
        ),
    };
    let mut turned = p;
    turned[..3].copy_from_slice(&[0.3, -0.2, 0.1]);
    let mut still = p;
    still[..3].copy_from_slice(&[0.0, 0.0, 0.0]);
    let mut negative = turned;
    negative[14] = -0.8;
    vec![
        (p, feat),
        (turned, feat),
        (still, [-3.0, 2.0]),
        (negative, feat),
    ]
}

#[test]
fn bundle_adjustment_entry_equals_seeded_pass_and_finite_differences() {
    for (p, [fx, fy]) in ba_points() {
        let plain = |q: &[f64]| ba_residual(&q[0..11], &q[11..14], q[14], fx, fy).to_vec();
        // Forwarding body (sub-slices and an element passed on), through `bind`.
        check(bind(ba_packed {}, (Wrt, fx, fy)), plain, &p, 1e-5);
    }
}

#[test]
fn branches_both_ways() {
    for p in [
        [0.0, 0.0, 0.3, 0.4],
        [0.0, 0.0, 2.0, -1.5],
        [1.0, -1.0, 1.1, -1.2],
    ] {
        let plain = |q: &[f64]| soft_spring(q, 2.5).to_vec();
        check(bind(soft_spring {}, (Wrt, 2.5)), plain, &p, 1e-6);
    }
    // `Var`: columns in the order the point lists the variables.
    for [a, v] in [[0.1, 30.0], [0.6, 25.0], [-0.4, 10.0]] {
        let plain = |q: &[f64]| {
            let (l, d) = plate(q[1], 1.2, q[0]);
            vec![l, d]
        };
        check(bind(plate {}, (Var(1), 1.2, Var(0))), plain, &[a, v], 1e-6);
    }
}

#[test]
fn an_index_computed_by_another_rule() {
    for x in [[0.5, 3.0, 1.0], [2.0, -1.0, 1.5]] {
        check(peak_energy {}, |q: &[f64]| vec![peak_energy(q)], &x, 1e-6);
        let (_, j) = jacobian_with::<16>(peak_energy {}, &x);
        let k = argmax(&x);
        for c in 0..3 {
            assert_eq!(j[(0, c)], if c == k { x[k] } else { 0.0 });
        }
    }
}

#[test]
fn a_loop_has_no_entry_and_the_drivers_seed() {
    let x = [1.5, -2.0, 0.5];
    assert!(entry(&cumprod {}, &x).is_none());
    let (v, j) = jacobian_with::<16>(cumprod {}, &x);
    assert_eq!(v, cumprod(&x));
    assert_eq!(j.row(2), [-1.0, 0.75, -3.0]);
}

#[test]
fn block_driver_takes_the_entry() {
    // Two observations of three cameras' and points' parameters: the blocks' rows against
    // each block's seeded pass.
    let obs = ba_points();
    let ncols = 15 * obs.len();
    let x: Vec<f64> = obs.iter().flat_map(|(p, _)| *p).collect();
    let mut layout = BlockLayout::new(ncols);
    let g = layout.group(obs.len(), 2, |b| 15 * b..15 * b + 15);
    let mut ws = layout.workspace::<16>();
    ws.eval(g, &x, |b| {
        bind(ba_packed {}, (Wrt, obs[b].1[0], obs[b].1[1]))
    });
    for (b, (p, [fx, fy])) in obs.iter().enumerate() {
        let (v, jac) = seeded(&bind(ba_packed {}, (Wrt, *fx, *fy)), p);
        for i in 0..2 {
            assert_eq!(ws.values()[2 * b + i].to_bits(), v[i].to_bits());
            for j in 0..15 {
                let (a, s) = (ws.jacobian().get(2 * b + i, 15 * b + j), jac[(i, j)]);
                assert!(
                    (a - s).abs() <= 1e-14 * a.abs().max(s.abs()),
                    "block {b} ({i}, {j}): driver {a:e}, seeded {s:e}"
                );
            }
        }
    }
}

#[test]
fn sparse_workspace_takes_the_entry() {
    // The pattern detected at one point; values at two points where the branch goes the
    // same way, against the seeded pass.
    let p0 = [0.0, 0.0, 0.3, 0.4];
    let rule = bind(soft_spring {}, (Wrt, 2.5));
    let mut ws = SparseJacobianWorkspace::new(rule, &p0);
    for p in [p0, [0.1, -0.2, 0.35, 0.5]] {
        let (_, jac) = seeded(&rule, &p);
        let (v, j) = ws.jacobian(&p);
        assert_eq!(v, soft_spring(&p, 2.5));
        let j = j.to_dense();
        for r in 0..2 {
            for c in 0..4 {
                let (a, s) = (j[(r, c)], jac[(r, c)]);
                assert!(
                    (a - s).abs() <= 1e-14 * a.abs().max(s.abs()),
                    "({r}, {c}) at {p:?}: sparse {a:e}, seeded {s:e}"
                );
            }
        }
    }
}
