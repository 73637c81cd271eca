//! Associated functions without a receiver on generic types (`Mat::<N>::identity()`,
//! `V2::<T>::zero()`), as a numerics user writes a small matrix or vector type: the impl's
//! parameter appears in no argument, only in `Self`. Their rules used to fail to compile
//! (E0207: the rule's marker did not carry `N`/`T`). Derivatives against closed forms.
// Index loops and a method named `add`, as numerics code writes them.
#![allow(clippy::needless_range_loop, clippy::should_implement_trait)]
use fwdad::drivers::{derivative, gradient, gradient_with, hessian};
use fwdad::prelude::*;
use num_traits::Float;
use std::ops::Mul;

/// A square matrix of fixed size.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Mat<const N: usize>(pub [[f64; N]; N]);

#[derive_frule]
impl<const N: usize> Mul for Mat<N> {
    type Output = Mat<N>;
    fn mul(self, o: Mat<N>) -> Mat<N> {
        let mut r = [[0.0; N]; N];
        for i in 0..N {
            for j in 0..N {
                for k in 0..N {
                    r[i][j] += self.0[i][k] * o.0[k][j];
                }
            }
        }
        Mat(r)
    }
}

#[derive_frule]
impl<const N: usize> Mat<N> {
    pub fn identity() -> Self {
        let mut r = [[0.0; N]; N];
        for i in 0..N {
            r[i][i] = 1.0;
        }
        Mat(r)
    }
    pub fn zeros() -> Self {
        Mat([[0.0; N]; N])
    }
    pub fn diag(d: [f64; N]) -> Self {
        let mut m = Self::zeros();
        for i in 0..N {
            m.0[i][i] = d[i];
        }
        m
    }
    pub fn scale(self, s: f64) -> Self {
        let mut r = self.0;
        for row in r.iter_mut() {
            for v in row.iter_mut() {
                *v *= s;
            }
        }
        Mat(r)
    }
    pub fn plus(self, o: Self) -> Self {
        let mut r = self.0;
        for i in 0..N {
            for j in 0..N {
                r[i][j] += o.0[i][j];
            }
        }
        Mat(r)
    }
    /// Scaling and squaring with a 12-term Taylor series.
    pub fn expm(self) -> Self {
        let s = 6;
        let a = self.scale(1.0 / (1u32 << s) as f64);
        let mut term = Mat::identity();
        let mut sum = Mat::identity();
        for k in 1..12 {
            term = (term * a).scale(1.0 / k as f64);
            sum = sum.plus(term);
        }
        for _ in 0..s {
            sum = sum * sum;
        }
        sum
    }
}

/// expm(t·diag(a, b, c)) summed on the diagonal: e^{at} + e^{bt} + e^{ct}.
#[derive_frule]
fn trace_expm_diag(t: f64) -> f64 {
    let e = Mat::diag([0.5, -1.0, 0.25]).scale(t).expm();
    e.0[0][0] + e.0[1][1] + e.0[2][2]
}

/// A shear `I + t·E₀₁` built from `identity()` and `zeros()`.
#[derive_frule]
fn shear_entry(t: f64) -> f64 {
    let mut e = Mat::<2>::zeros();
    e.0[0][1] = 1.0;
    let m = Mat::identity().plus(e.scale(t));
    let m2 = m * m;
    m2.0[0][1] * m2.0[0][0]
}

/// A 2-vector generic over the float.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V2<T> {
    pub x: T,
    pub y: T,
}

#[derive_frule]
impl<T: Float> V2<T> {
    pub fn zero() -> Self {
        V2 {
            x: T::zero(),
            y: T::zero(),
        }
    }
    pub fn unit_x() -> Self {
        V2 {
            x: T::one(),
            y: T::zero(),
        }
    }
    pub fn add(self, o: Self) -> Self {
        V2 {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
    pub fn scale(self, s: T) -> Self {
        V2 {
            x: self.x * s,
            y: self.y * s,
        }
    }
    pub fn dot(self, o: Self) -> T {
        self.x * o.x + self.y * o.y
    }
}

/// Σᵢ (pᵢ·e_x + pᵢ²·e_y) dotted with (1, 1), from a zero start: Σ pᵢ + pᵢ².
#[derive_frule]
fn accumulate(p: &[f64]) -> f64 {
    let mut acc = V2::zero();
    for &v in p {
        acc = acc.add(V2::unit_x().scale(v)).add(V2 { x: 0.0, y: v * v });
    }
    acc.dot(V2 { x: 1.0, y: 1.0 })
}

#[test]
fn const_generic_constructors_in_expm() {
    for t in [0.3, 1.0, 2.5] {
        let (v, d) = derivative(trace_expm_diag {}, t);
        assert_eq!(v.to_bits(), trace_expm_diag(t).to_bits());
        let want = 0.5 * (0.5 * t).exp() - (-t).exp() + 0.25 * (0.25 * t).exp();
        assert!(
            (d - want).abs() < 1e-12 * want.abs().max(1.0),
            "{t}: {d} vs {want}"
        );
    }
}

#[test]
fn const_generic_constructors_with_turbofish() {
    // (I + tE)² = I + 2tE: entry (0,1) is 2t, (0,0) is 1; the product's derivative is 2.
    for t in [-1.0, 0.0, 0.7] {
        let (v, d) = derivative(shear_entry {}, t);
        assert_eq!(v.to_bits(), shear_entry(t).to_bits());
        assert_eq!(d, 2.0);
    }
}

#[test]
fn generic_float_constructors_every_mode() {
    let p = [0.5, -1.25, 2.0, 0.1, 3.0];
    let want: Vec<f64> = p.iter().map(|v| 1.0 + 2.0 * v).collect();
    let (v, g) = gradient(accumulate {}, &p[..]);
    assert_eq!(v.to_bits(), accumulate(&p).to_bits());
    assert_eq!(g, want);
    let (v4, g4) = gradient_with::<4>(accumulate {}, &p[..]);
    assert_eq!(v4.to_bits(), v.to_bits());
    assert_eq!(g4, want);
    let (_, _, h) = hessian(accumulate {}, &p[..]);
    for i in 0..p.len() {
        for j in 0..p.len() {
            assert_eq!(h[(i, j)], if i == j { 2.0 } else { 0.0 });
        }
    }
}
