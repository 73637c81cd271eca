//! Constants passed as duals whose tangent is zero by its type (`Dual::constant(&a[..])`,
//! `ConstTangent`): a derived rule takes them where it takes any dual of its parameter,
//! and gives the derivatives it gives with a zero tangent in memory, with the same data
//! declared `inactive(..)`, and the central finite differences of the plain function, in
//! one direction, in batches and in second order, called directly, from a derived caller
//! and through `bind`.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use fwdad::drivers::{bind, gradient, hessian, inplace, jacobian, Inactive, Out, Wrt};
use fwdad::prelude::*;
use fwdad::{ConstTangent, Hyper};

/// `y = A x`, `A` row-major `y.len() × x.len()`.
#[derive_frule]
fn matvec(a: &[f64], x: &[f64], y: &mut [f64]) {
    let n = x.len();
    for i in 0..y.len() {
        let mut s = 0.0;
        for j in 0..n {
            s += a[i * n + j] * x[j];
        }
        y[i] = s;
    }
}

/// The same with the matrix declared constant.
#[derive_frule(inactive(a))]
fn matvec_inactive(a: &[f64], x: &[f64], y: &mut [f64]) {
    let n = x.len();
    for i in 0..y.len() {
        let mut s = 0.0;
        for j in 0..n {
            s += a[i * n + j] * x[j];
        }
        y[i] = s;
    }
}

/// A quadratic form with a smooth term, `Σᵢⱼ xᵢ Kᵢⱼ xⱼ / 2 + Σᵢ cᵢ sin xᵢ`: `K` and `c`
/// are data; the body reads them in iterator chains and passes them to another rule, so
/// the rule converts them on entry.
#[derive_frule]
fn energy(k: &[f64], c: &[f64], x: &[f64]) -> f64 {
    let n = x.len();
    let mut e = 0.0;
    for i in 0..n {
        let row = &k[i * n..(i + 1) * n];
        let kx: f64 = row.iter().zip(x).map(|(kij, xj)| kij * xj).sum();
        e += 0.5 * x[i] * kx;
    }
    e + dot_sin(c, x)
}

/// `Σᵢ cᵢ sin xᵢ`.
#[derive_frule]
fn dot_sin(c: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += c[i] * x[i].sin();
    }
    s
}

/// A planar two-link arm: the end point for link lengths `l` and joint angles `q`.
#[derive_frule]
fn arm_tip(l: &[f64; 2], q: &[f64; 2]) -> [f64; 2] {
    let a = q[0];
    let b = q[0] + q[1];
    [
        l[0] * a.cos() + l[1] * b.cos(),
        l[0] * a.sin() + l[1] * b.sin(),
    ]
}

/// A damped spring's force, `-k x - c v`, with the coefficients by value.
#[derive_frule]
fn spring_force(coef: [f64; 2], x: f64, v: f64) -> f64 {
    -coef[0] * x - coef[1] * v
}

/// Potential of a spring of stiffness `k` stretched to `x`: `k x² / 2`, and a cubic term.
#[derive_frule]
fn spring_energy(k: f64, x: f64) -> f64 {
    0.5 * k * x * x + 0.1 * k * x * x * x
}

/// A derived caller passing its own parameter on to `matvec` (a call: the parameter is
/// converted on entry) and summing the result.
#[derive_frule]
fn sum_of_product(a: &[f64], x: &[f64]) -> f64 {
    let mut y = vec![0.0; x.len()];
    matvec(a, x, &mut y);
    let mut s = 0.0;
    for v in &y {
        s += v;
    }
    s
}

/// A sum of damped sines with weights read inside the sines: `Σᵢ wᵢ sin(wᵢ xᵢ)`.
#[derive_frule]
fn weighted_sines(w: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * (w[i] * x[i]).sin();
    }
    s
}

/// The same with the weights declared constant.
#[derive_frule(inactive(w))]
fn weighted_sines_inactive(w: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * (w[i] * x[i]).sin();
    }
    s
}

/// A dot product in `f32`.
#[derive_frule]
fn dot32(a: &[f32], x: &[f32]) -> f32 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += a[i] * x[i];
    }
    s
}

fn matrix(n: usize, m: usize) -> Vec<f64> {
    (0..n * m)
        .map(|k| ((k * 7 % 11) as f64 - 5.0) / 4.0)
        .collect()
}

/// Central differences of `f` along `dx`.
fn fd(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], dx: &[f64]) -> Vec<f64> {
    let h = 1e-6;
    let xp: Vec<f64> = x.iter().zip(dx).map(|(a, d)| a + h * d).collect();
    let xm: Vec<f64> = x.iter().zip(dx).map(|(a, d)| a - h * d).collect();
    let (fp, fm) = (f(&xp), f(&xm));
    fp.iter()
        .zip(&fm)
        .map(|(p, m)| (p - m) / (2.0 * h))
        .collect()
}

#[test]
fn matvec_with_a_constant_matrix() {
    let (n, m) = (3, 4);
    let a = matrix(n, m);
    let x = [0.5, -1.0, 2.0, 0.25];
    let dx = [1.0, 0.5, -0.25, 2.0];
    let (mut y, mut dy) = (vec![0.0; n], vec![0.0; n]);
    matvec_frule(
        Dual::constant(&a[..]),
        Dual::new(&x[..], &dx[..]),
        Dual::new(&mut y[..], &mut dy[..]),
    );
    // dy = A dx, written out.
    let want: Vec<f64> = (0..n)
        .map(|i| (0..m).map(|j| a[i * m + j] * dx[j]).sum())
        .collect();
    let mut plain = vec![0.0; n];
    matvec(&a, &x, &mut plain);
    assert_eq!(y, plain);
    for i in 0..n {
        assert_relative_eq!(dy[i], want[i], max_relative = 1e-15);
    }
    // The same bits as with the matrix declared `inactive`, and as with zeros in memory.
    let (mut y2, mut dy2) = (vec![0.0; n], vec![0.0; n]);
    matvec_inactive_frule(
        &a,
        Dual::new(&x[..], &dx[..]),
        Dual::new(&mut y2[..], &mut dy2[..]),
    );
    assert_eq!((&y, &dy), (&y2, &dy2));
    let zeros = vec![0.0; a.len()];
    let (mut y3, mut dy3) = (vec![0.0; n], vec![0.0; n]);
    matvec_frule(
        Dual::new(&a[..], &zeros[..]),
        Dual::new(&x[..], &dx[..]),
        Dual::new(&mut y3[..], &mut dy3[..]),
    );
    assert_eq!((&y, &dy), (&y3, &dy3));
    let f = fd(
        |x| {
            let mut y = vec![0.0; n];
            matvec(&a, x, &mut y);
            y
        },
        &x,
        &dx,
    );
    for i in 0..n {
        assert_relative_eq!(dy[i], f[i], max_relative = 1e-8);
    }
    // A `Vec` borrowed whole is the constant slice.
    let (mut y4, mut dy4) = (vec![0.0; n], vec![0.0; n]);
    matvec_frule(
        Dual::constant(&a),
        Dual::new(&x[..], &dx[..]),
        Dual::new(&mut y4[..], &mut dy4[..]),
    );
    assert_eq!((&y, &dy), (&y4, &dy4));
}

#[test]
fn constant_matrix_in_a_batch_and_through_bind() {
    let (n, m) = (3, 4);
    let a = matrix(n, m);
    let x = [0.5, -1.0, 2.0, 0.25];
    // Four directions at once: the Jacobian `A` itself, column by column.
    let dx: Vec<Batch<f64, 4>> = (0..m).map(Batch::unit).collect();
    let (mut y, mut dy) = (vec![0.0; n], vec![Batch([0.0; 4]); n]);
    <matvec as Frule<_, Batch<f64, 4>>>::frule(
        &matvec {},
        (
            Dual::constant(&a[..]),
            Dual::new(&x[..], &dx[..]),
            Dual::new(&mut y[..], &mut dy[..]),
        ),
    );
    for i in 0..n {
        for j in 0..m {
            assert_eq!(dy[i].0[j], a[i * m + j]);
        }
    }
    let rule = bind(matvec {}, (Dual::constant(&a[..]), Wrt, Out));
    let (yb, jac) = jacobian(inplace(rule, n), &x);
    assert_eq!(yb, y);
    for i in 0..n {
        for j in 0..m {
            assert_eq!(jac[(i, j)], a[i * m + j]);
        }
    }
    let inactive = bind(matvec_inactive {}, (Inactive(&a[..]), Wrt, Out));
    let (_, jac2) = jacobian(inplace(inactive, n), &x);
    assert_eq!(jac.row(2), jac2.row(2));
}

#[test]
fn constants_converted_on_entry() {
    let n = 3;
    let k = [2.0, 0.5, 0.0, 0.5, 3.0, -0.25, 0.0, -0.25, 1.5];
    let c = [0.3, -0.7, 1.1];
    let x = [0.4, -0.2, 1.3];
    let dx = [1.0, -2.0, 0.5];
    let d = energy_frule(
        Dual::constant(&k[..]),
        Dual::constant(&c[..]),
        Dual::new(&x[..], &dx[..]),
    );
    assert_eq!(d.primal, energy(&k, &c, &x));
    // ∇E = K x + c ∘ cos x (K symmetric), along dx.
    let grad: Vec<f64> = (0..n)
        .map(|i| (0..n).map(|j| k[i * n + j] * x[j]).sum::<f64>() + c[i] * x[i].cos())
        .collect();
    let want: f64 = (0..n).map(|i| grad[i] * dx[i]).sum();
    assert_relative_eq!(d.tangent, want, max_relative = 1e-14);
    // Second order: d12 = dxᵀ ∇²E dx with ∇²E = K - diag(c ∘ sin x).
    let hx: Vec<Hyper<f64, f64>> = dx
        .iter()
        .map(|&d| Hyper {
            d1: d,
            d2: d,
            d12: 0.0,
        })
        .collect();
    let h = <energy as Frule<_, Hyper<f64, f64>>>::frule(
        &energy {},
        (
            Dual::constant(&k[..]),
            Dual::constant(&c[..]),
            Dual::new(&x[..], &hx[..]),
        ),
    );
    let mut want2 = 0.0;
    for i in 0..n {
        for j in 0..n {
            let hij = k[i * n + j] - if i == j { c[i] * x[i].sin() } else { 0.0 };
            want2 += dx[i] * hij * dx[j];
        }
    }
    assert_relative_eq!(h.tangent.d12, want2, max_relative = 1e-13);
    // Through `bind`, with the drivers.
    let (e, g) = gradient(
        bind(
            energy {},
            (Dual::constant(&k[..]), Dual::constant(&c[..]), Wrt),
        ),
        &x,
    );
    assert_eq!(e, energy(&k, &c, &x));
    for i in 0..n {
        assert_relative_eq!(g[i], grad[i], max_relative = 1e-14);
    }
    let (_, _, hess) = hessian(
        bind(
            energy {},
            (Dual::constant(&k[..]), Dual::constant(&c[..]), Wrt),
        ),
        &x,
    );
    for i in 0..n {
        for j in 0..n {
            let hij = k[i * n + j] - if i == j { c[i] * x[i].sin() } else { 0.0 };
            assert_relative_eq!(hess[(i, j)], hij, max_relative = 1e-13, epsilon = 1e-15);
        }
    }
    // A derived caller passing a parameter on.
    let a = matrix(3, 3);
    let d = sum_of_product_frule(Dual::constant(&a[..]), Dual::new(&x[..], &dx[..]));
    let want: f64 = (0..3)
        .map(|i| (0..3).map(|j| a[i * 3 + j] * dx[j]).sum::<f64>())
        .sum();
    assert_relative_eq!(d.tangent, want, max_relative = 1e-14);
}

#[test]
fn constant_arrays_and_scalars() {
    let l = [1.0, 0.7];
    let q = [0.3, 0.9];
    let dq = [1.0, -0.5];
    let d = arm_tip_frule(Dual::constant(&l), Dual::new(&q, &dq));
    assert_eq!(d.primal, arm_tip(&l, &q));
    let f = fd(|q| arm_tip(&l, &[q[0], q[1]]).to_vec(), &q, &dq);
    assert_relative_eq!(d.tangent[0], f[0], max_relative = 1e-8);
    assert_relative_eq!(d.tangent[1], f[1], max_relative = 1e-8);
    // The same as the lengths with zero tangents in memory.
    let d0 = arm_tip_frule(Dual::new(&l, &[0.0; 2]), Dual::new(&q, &dq));
    assert_eq!(d.tangent, d0.tangent);
    // Jacobian through `bind`: rows are the tip's coordinates.
    let (_, jac) = jacobian(bind(arm_tip {}, (Dual::constant(&l), Wrt)), &q);
    let b = q[0] + q[1];
    assert_relative_eq!(
        jac[(0, 0)],
        -l[0] * q[0].sin() - l[1] * b.sin(),
        max_relative = 1e-15
    );
    assert_relative_eq!(jac[(1, 1)], l[1] * b.cos(), max_relative = 1e-15);

    // By-value arrays and scalars take `ConstTangent` directly.
    let coef = [4.0, 0.5];
    let d = spring_force_frule(
        Dual::new(coef, [ConstTangent; 2]),
        Dual::new(0.2, 1.0),
        Dual::new(-1.0, 0.0),
    );
    assert_eq!((d.primal, d.tangent), (spring_force(coef, 0.2, -1.0), -4.0));
    let d = spring_energy_frule(Dual::new(3.0, ConstTangent), Dual::new(0.5, 1.0));
    assert_eq!(d.primal, spring_energy(3.0, 0.5));
    assert_relative_eq!(
        d.tangent,
        3.0 * 0.5 + 0.3 * 3.0 * 0.25,
        max_relative = 1e-15
    );
    // Second order in `x` with `k` constant: d²E/dx² = k + 0.6 k x.
    let h = <spring_energy as Frule<_, Hyper<f64, f64>>>::frule(
        &spring_energy {},
        (
            Dual::new(3.0, ConstTangent),
            Dual::new(
                0.5,
                Hyper {
                    d1: 1.0,
                    d2: 1.0,
                    d12: 0.0,
                },
            ),
        ),
    );
    assert_relative_eq!(h.tangent.d12, 3.0 + 0.6 * 3.0 * 0.5, max_relative = 1e-15);
    let (_, dx) = derivative(
        bind(spring_energy {}, (Dual::new(3.0, ConstTangent), Wrt)),
        0.5,
    );
    assert_eq!(dx, d.tangent);
}

#[test]
fn read_only_constants_in_every_mode() {
    let w = [0.5_f64, -1.25, 2.0];
    let x = [0.3, 0.7, -0.4];
    let dx = [1.0, -0.5, 0.25];
    // d/dx Σ wᵢ sin(wᵢ xᵢ) = wᵢ² cos(wᵢ xᵢ); second derivative −wᵢ³ sin(wᵢ xᵢ).
    let g: Vec<f64> = (0..3).map(|i| w[i] * w[i] * (w[i] * x[i]).cos()).collect();
    let h: Vec<f64> = (0..3)
        .map(|i| -w[i] * w[i] * w[i] * (w[i] * x[i]).sin())
        .collect();
    let d = weighted_sines_frule(Dual::constant(&w[..]), Dual::new(&x[..], &dx[..]));
    let di = weighted_sines_inactive_frule(&w, Dual::new(&x[..], &dx[..]));
    assert_eq!(d.primal, weighted_sines(&w, &x));
    assert_eq!((d.primal, d.tangent), (di.primal, di.tangent));
    let want: f64 = (0..3).map(|i| g[i] * dx[i]).sum();
    assert_relative_eq!(d.tangent, want, max_relative = 1e-15);
    let f = fd(|x| vec![weighted_sines(&w, x)], &x, &dx);
    assert_relative_eq!(d.tangent, f[0], max_relative = 1e-8);
    // A batch: each lane a unit direction, the gradient.
    let units: Vec<Batch<f64, 3>> = (0..3).map(Batch::unit).collect();
    let b = <weighted_sines as Frule<_, Batch<f64, 3>>>::frule(
        &weighted_sines {},
        (Dual::constant(&w[..]), Dual::new(&x[..], &units[..])),
    );
    let bi = <weighted_sines_inactive as Frule<_, Batch<f64, 3>>>::frule(
        &weighted_sines_inactive {},
        (&w[..], Dual::new(&x[..], &units[..])),
    );
    assert_eq!(b.tangent, bi.tangent);
    for i in 0..3 {
        assert_relative_eq!(b.tangent.0[i], g[i], max_relative = 1e-15);
    }
    // Second order along dx: Σ hᵢ dxᵢ².
    let hx: Vec<Hyper<f64, f64>> = dx
        .iter()
        .map(|&d| Hyper {
            d1: d,
            d2: d,
            d12: 0.0,
        })
        .collect();
    let s = <weighted_sines as Frule<_, Hyper<f64, f64>>>::frule(
        &weighted_sines {},
        (Dual::constant(&w[..]), Dual::new(&x[..], &hx[..])),
    );
    let si = <weighted_sines_inactive as Frule<_, Hyper<f64, f64>>>::frule(
        &weighted_sines_inactive {},
        (&w[..], Dual::new(&x[..], &hx[..])),
    );
    assert_eq!(s.tangent, si.tangent);
    let want2: f64 = (0..3).map(|i| h[i] * dx[i] * dx[i]).sum();
    assert_relative_eq!(s.tangent.d12, want2, max_relative = 1e-14);
    // `f32` data.
    let a32 = [1.5_f32, -2.0, 0.25];
    let x32 = [0.5_f32, 1.0, 4.0];
    let dx32 = [1.0_f32, 1.0, -1.0];
    let d = dot32_frule(Dual::constant(&a32[..]), Dual::new(&x32[..], &dx32[..]));
    assert_eq!(d.primal, dot32(&a32, &x32));
    assert_eq!(d.tangent, 1.5 - 2.0 - 0.25);
}

/// Mean squared distance from a moving centre to a point cloud (a fitting loss).
#[derive_frule]
fn cloud_spread(centre: &[f64; 3], points: &[[f64; 3]]) -> f64 {
    let mut s = 0.0;
    for p in points {
        let d = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
        s += d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    }
    s / points.len() as f64
}

/// Logistic regression's negative log-likelihood over `f32` feature rows.
#[derive_frule]
fn logistic_nll32(w: &[f32], rows: &[[f32; 2]], labels: &[bool]) -> f32 {
    let mut nll = 0.0f32;
    for (x, &y) in rows.iter().zip(labels) {
        let z = w[0] + w[1] * x[0] + w[2] * x[1];
        let p = 1.0 / (1.0 + (-z).exp());
        nll -= if y { p.ln() } else { (1.0 - p).ln() };
    }
    nll
}

#[test]
fn constant_slices_of_float_arrays() {
    // d/dc mean |p - c|² = 2 (c - mean p): independent of the code.
    let points = vec![
        [1.0, 2.0, 0.5],
        [-0.5, 0.25, 3.0],
        [2.0, -1.0, 1.0],
        [0.0, 0.5, -2.0],
    ];
    let c = [0.3, -0.2, 0.7];
    let mean: Vec<f64> = (0..3)
        .map(|k| points.iter().map(|p| p[k]).sum::<f64>() / 4.0)
        .collect();
    for k in 0..3 {
        let mut dc = [0.0; 3];
        dc[k] = 1.0;
        let d = cloud_spread_frule(Dual::new(&c, &dc), Dual::constant(&points));
        assert_eq!(d.primal, cloud_spread(&c, &points));
        assert_relative_eq!(d.tangent, 2.0 * (c[k] - mean[k]), max_relative = 1e-14);
        let d = cloud_spread_frule(Dual::new(&c, &dc), Dual::constant(&points[1..]));
        let mean_tail = (points[1..].iter().map(|p| p[k]).sum::<f64>()) / 3.0;
        assert_relative_eq!(d.tangent, 2.0 * (c[k] - mean_tail), max_relative = 1e-14);
    }
    // d/dw of the logistic NLL = Σ (p - y) x̃ (x̃ = [1, x0, x1]).
    let rows = [[0.5f32, -1.0], [1.5, 0.2], [-0.7, 0.9]];
    let labels = [true, false, true];
    let w = [0.1f32, -0.2, 0.3];
    for k in 0..3 {
        let mut dw = [0.0f32; 3];
        dw[k] = 1.0;
        let d = logistic_nll32_frule(
            Dual::new(&w[..], &dw[..]),
            Dual::constant(&rows[..]),
            Dual::constant(&labels[..]),
        );
        assert_eq!(d.primal, logistic_nll32(&w, &rows, &labels));
        let expect: f64 = rows
            .iter()
            .zip(labels)
            .map(|(x, y)| {
                let xt = [1.0, x[0] as f64, x[1] as f64];
                let z = w[0] as f64 + w[1] as f64 * xt[1] + w[2] as f64 * xt[2];
                let p = 1.0 / (1.0 + (-z).exp());
                (p - if y { 1.0 } else { 0.0 }) * xt[k]
            })
            .sum();
        assert_relative_eq!(d.tangent as f64, expect, max_relative = 1e-5);
    }
}
