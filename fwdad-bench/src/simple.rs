//! Small kernels: a slice sum, `Σ sin(xᵢ)`, a dense matrix-vector product and a
//! Kronecker-style quadratic form. Each is differentiated along one direction (all inputs
//! perturbed at once: a Jacobian-vector product).

use fwdad::prelude::*;
use num_dual::{Dual64, DualNum};

/// Length of the slices of [`slice_sum`] and [`sum_sin`].
pub const N_SUM: usize = 1000;
/// Size of the matrix of [`matvec`].
pub const N_MATVEC: usize = 8;
/// Size of the factors of [`kron_quad`] (`x` has `N_KRON²` entries).
pub const N_KRON: usize = 5;

// --- slice sum --------------------------------------------------------------------------

/// `Σ xᵢ` as an index loop.
#[derive_frule]
pub fn slice_sum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i];
    }
    s
}

/// `Σ xᵢ` as an iterator chain (`iter().sum()`).
#[derive_frule]
pub fn slice_sum_iter(x: &[f64]) -> f64 {
    x.iter().sum()
}

/// Hand-written: `(Σ xᵢ, Σ dxᵢ)`.
pub fn slice_sum_hand(x: &[f64], dx: &[f64]) -> (f64, f64) {
    let (mut s, mut ds) = (0.0, 0.0);
    for i in 0..x.len() {
        s += x[i];
        ds += dx[i];
    }
    (s, ds)
}

/// Generic for num-dual, as an index loop.
pub fn slice_sum_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut s = D::from(0.0);
    for i in 0..x.len() {
        s += x[i];
    }
    s
}

/// Generic for num-dual, as `iter().sum()`.
pub fn slice_sum_nd_iter<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    x.iter().copied().sum()
}

// --- Σ sin ------------------------------------------------------------------------------

/// `Σ sin(xᵢ)` as an index loop.
#[derive_frule]
pub fn sum_sin(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i].sin();
    }
    s
}

/// `Σ sin(xᵢ)` as `iter().map(..).sum()`.
#[derive_frule]
pub fn sum_sin_iter(x: &[f64]) -> f64 {
    x.iter().map(|v| v.sin()).sum()
}

/// Hand-written: `(Σ sin xᵢ, Σ cos xᵢ · dxᵢ)`.
pub fn sum_sin_hand(x: &[f64], dx: &[f64]) -> (f64, f64) {
    let (mut s, mut ds) = (0.0, 0.0);
    for i in 0..x.len() {
        let (sn, cs) = x[i].sin_cos();
        s += sn;
        ds += cs * dx[i];
    }
    (s, ds)
}

/// Generic for num-dual, as an index loop.
pub fn sum_sin_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut s = D::from(0.0);
    for i in 0..x.len() {
        s += x[i].sin();
    }
    s
}

/// Generic for num-dual, as `iter().map(..).sum()`.
pub fn sum_sin_nd_iter<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    x.iter().map(|v| v.sin()).sum()
}

// --- dense matrix-vector product -----------------------------------------------------------

/// `y = A x` with `A` row-major `y.len() × x.len()`.
#[derive_frule]
pub fn matvec(a: &[f64], x: &[f64], y: &mut [f64]) {
    let n = x.len();
    for i in 0..y.len() {
        let mut s = 0.0;
        for j in 0..n {
            s += a[i * n + j] * x[j];
        }
        y[i] = s;
    }
}

/// Hand-written: `y = A x`, `dy = dA x + A dx`, as an expert writes it: rows walked with
/// `chunks_exact` and `zip`, so that no access is bounds-checked.
pub fn matvec_hand(a: &[f64], da: &[f64], x: &[f64], dx: &[f64], y: &mut [f64], dy: &mut [f64]) {
    let n = x.len();
    let dx = &dx[..n];
    let rows = a.chunks_exact(n).zip(da.chunks_exact(n));
    for ((row, drow), (yi, dyi)) in rows.zip(y.iter_mut().zip(dy.iter_mut())) {
        let (mut s, mut ds) = (0.0, 0.0);
        for ((&aij, &daij), (&xj, &dxj)) in row.iter().zip(drow).zip(x.iter().zip(dx)) {
            s += aij * xj;
            ds += daij * xj + aij * dxj;
        }
        *yi = s;
        *dyi = ds;
    }
}

/// Generic for num-dual.
pub fn matvec_nd<D: DualNum<Primitive = f64> + Copy>(a: &[D], x: &[D], y: &mut [D]) {
    let n = x.len();
    for i in 0..y.len() {
        let mut s = D::from(0.0);
        for j in 0..n {
            s += a[i * n + j] * x[j];
        }
        y[i] = s;
    }
}

// --- Kronecker-style quadratic form -----------------------------------------------------

/// `xᵀ (A ⊗ B) x = Σᵢⱼₖₗ Aᵢⱼ Bₖₗ x[i·n + k] x[j·n + l]` with `A`, `B` row-major `n × n`.
#[derive_frule]
pub fn kron_quad(a: &[f64], b: &[f64], x: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        for j in 0..n {
            let aij = a[i * n + j];
            for k in 0..n {
                let xik = x[i * n + k];
                for l in 0..n {
                    s += aij * b[k * n + l] * xik * x[j * n + l];
                }
            }
        }
    }
    s
}

/// Hand-written: the value and its derivative along `(da, db, dx)`, as an expert writes
/// it: the primal's products in the primal's order (`((aᵢⱼ bₖₗ) xᵢₖ) xⱼₗ`), each followed
/// by its product rule, over row slices zipped (no bounds checks in the inner loop).
pub fn kron_quad_hand(
    a: &[f64],
    da: &[f64],
    b: &[f64],
    db: &[f64],
    x: &[f64],
    dx: &[f64],
    n: usize,
) -> (f64, f64) {
    let (mut s, mut ds) = (0.0, 0.0);
    for i in 0..n {
        for j in 0..n {
            let (aij, daij) = (a[i * n + j], da[i * n + j]);
            let (xj, dxj) = (&x[j * n..j * n + n], &dx[j * n..j * n + n]);
            for k in 0..n {
                let (xik, dxik) = (x[i * n + k], dx[i * n + k]);
                let (bk, dbk) = (&b[k * n..k * n + n], &db[k * n..k * n + n]);
                for ((&bkl, &dbkl), (&xjl, &dxjl)) in bk.iter().zip(dbk).zip(xj.iter().zip(dxj)) {
                    let ab = aij * bkl;
                    let abx = ab * xik;
                    s += abx * xjl;
                    ds += ((daij * bkl + aij * dbkl) * xik + ab * dxik) * xjl + abx * dxjl;
                }
            }
        }
    }
    (s, ds)
}

/// Generic for num-dual.
pub fn kron_quad_nd<D: DualNum<Primitive = f64> + Copy>(a: &[D], b: &[D], x: &[D], n: usize) -> D {
    let mut s = D::from(0.0);
    for i in 0..n {
        for j in 0..n {
            let aij = a[i * n + j];
            for k in 0..n {
                let xik = x[i * n + k];
                for l in 0..n {
                    s += aij * b[k * n + l] * xik * x[j * n + l];
                }
            }
        }
    }
    s
}

/// Duals of num-dual from values and one direction.
pub fn duals(x: &[f64], dx: &[f64]) -> Vec<Dual64> {
    x.iter().zip(dx).map(|(&v, &d)| Dual64::new(v, d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_close, assert_close_tol, FD_TOL};
    use crate::fd;
    use crate::rng::Rng;

    fn pair(n: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
        let mut r = Rng::new(seed);
        (r.vec(n, -2.0, 2.0), r.vec(n, -1.0, 1.0))
    }

    #[test]
    fn slice_sum_derivatives_agree() {
        let (x, dx) = pair(N_SUM, 1);
        let (v, d) = slice_sum_hand(&x, &dx);
        let r = slice_sum_frule(Dual::new(&x[..], &dx[..]));
        assert_eq!(r.primal, slice_sum(&x));
        assert_close("slice_sum rule", &[r.primal, r.tangent], &[v, d]);
        let nd = slice_sum_nd(&duals(&x, &dx));
        assert_close("slice_sum num-dual", &[nd.re, nd.eps], &[v, d]);
        let nd = slice_sum_nd_iter(&duals(&x, &dx));
        assert_close("slice_sum num-dual iter", &[nd.re, nd.eps], &[v, d]);
        let r = slice_sum_iter_frule(Dual::new(&x[..], &dx[..]));
        assert_eq!(r.primal, slice_sum_iter(&x));
        assert_close("slice_sum iter rule", &[r.primal, r.tangent], &[v, d]);
        let mut buf = vec![0.0; x.len()];
        let f = fd::jvp(slice_sum, &x, &dx, &mut buf);
        assert_close_tol("slice_sum fd", &[f], &[d], FD_TOL);
    }

    #[test]
    fn sum_sin_derivatives_agree() {
        let (x, dx) = pair(N_SUM, 2);
        let (v, d) = sum_sin_hand(&x, &dx);
        let r = sum_sin_frule(Dual::new(&x[..], &dx[..]));
        assert_eq!(r.primal, sum_sin(&x));
        assert_close("sum_sin rule", &[r.primal, r.tangent], &[v, d]);
        let nd = sum_sin_nd(&duals(&x, &dx));
        assert_close("sum_sin num-dual", &[nd.re, nd.eps], &[v, d]);
        let nd = sum_sin_nd_iter(&duals(&x, &dx));
        assert_close("sum_sin num-dual iter", &[nd.re, nd.eps], &[v, d]);
        let r = sum_sin_iter_frule(Dual::new(&x[..], &dx[..]));
        assert_eq!(r.primal, sum_sin_iter(&x));
        assert_close("sum_sin iter rule", &[r.primal, r.tangent], &[v, d]);
        let mut buf = vec![0.0; x.len()];
        let f = fd::jvp(sum_sin, &x, &dx, &mut buf);
        assert_close_tol("sum_sin fd", &[f], &[d], FD_TOL);
    }

    #[test]
    fn matvec_derivatives_agree() {
        let n = N_MATVEC;
        let (a, da) = pair(n * n, 3);
        let (x, dx) = pair(n, 4);
        let (mut y, mut dy) = (vec![0.0; n], vec![0.0; n]);
        matvec_hand(&a, &da, &x, &dx, &mut y, &mut dy);
        let (mut ry, mut rdy) = (vec![0.0; n], vec![0.0; n]);
        matvec_frule(
            Dual::new(&a[..], &da[..]),
            Dual::new(&x[..], &dx[..]),
            Dual::new(&mut ry[..], &mut rdy[..]),
        );
        assert_close("matvec rule", &ry, &y);
        assert_close("matvec rule tangent", &rdy, &dy);
        let mut ny = vec![Dual64::from_re(0.0); n];
        matvec_nd(&duals(&a, &da), &duals(&x, &dx), &mut ny);
        let (nv, nd): (Vec<f64>, Vec<f64>) = ny.iter().map(|d| (d.re, d.eps)).unzip();
        assert_close("matvec num-dual", &nv, &y);
        assert_close("matvec num-dual tangent", &nd, &dy);
    }

    #[test]
    fn kron_derivatives_agree() {
        let n = N_KRON;
        let (a, da) = pair(n * n, 5);
        let (b, db) = pair(n * n, 6);
        let (x, dx) = pair(n * n, 7);
        let (v, d) = kron_quad_hand(&a, &da, &b, &db, &x, &dx, n);
        let r = kron_quad_frule(
            Dual::new(&a[..], &da[..]),
            Dual::new(&b[..], &db[..]),
            Dual::new(&x[..], &dx[..]),
            Dual::constant(n),
        );
        assert_eq!(r.primal, kron_quad(&a, &b, &x, n));
        assert_close("kron rule", &[r.primal, r.tangent], &[v, d]);
        let nd = kron_quad_nd(&duals(&a, &da), &duals(&b, &db), &duals(&x, &dx), n);
        assert_close("kron num-dual", &[nd.re, nd.eps], &[v, d]);
    }
}
