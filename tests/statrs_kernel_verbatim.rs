//! statrs 0.19.1's smoothing kernels (`statrs::function::kernel`, MIT licensed,
//! <https://github.com/statrs-dev/statrs>) as the crate writes them, with
//! `#[fwdad::derive_frule]` on `trait Kernel` and on each `impl Kernel for ..`, and
//! `fwdad::Differentiable` added to each kernel's derive list (the rules take the kernel as
//! a dual, with no tangent for a unit struct); nothing else changed. The trait has a method
//! returning `Option<(f64, f64)>` (`support`), which a generic parameter `K: Kernel` calls
//! and differentiates through; a `dyn Kernel` runs `evaluate` and the default
//! `evaluate_with_bandwidth` lane by lane. Derivatives against the kernels' closed-form
//! derivatives and central differences of the published crate; primals bit for bit
//! against it.

#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports, unused_macros, deprecated, unexpected_cfgs)]
pub mod kernel {
    //! Kernel functions for use in kernel-based methods such as
    //! kernel density estimation (KDE), local regression, and smoothing.
    //!
    //! Each kernel maps a normalized distance `x` (often `|x_i - x_0| / h`)
    //! to a nonnegative weight. Kernels with bounded support return zero
    //! outside a finite interval (e.g., `[-1, 1]`).
    //!
    //! # Implemented Kernels
    //! | Kernel | Formula | Support |
    //! |---------|----------|----------|
    //! | Gaussian | `exp(-0.5 * x²) / √(2π)` | (-∞, ∞) |
    //! | Epanechnikov | `0.75 * (1 - x²)` | [-1, 1] |
    //! | Triangular | `1 - |x|` | [-1, 1] |
    //! | Tricube | `(1 - |x|³)³` | [-1, 1] |
    //! | Quartic (biweight) | `(15/16) * (1 - x²)²` | [-1, 1] |
    //! | Uniform | `0.5` | [-1, 1] |
    //! | Cosine | `(π/4) * cos(πx/2)` | [-1, 1] |
    //! | Logistic | `1 / (2 + exp(x) + exp(-x))` | (-∞, ∞) |
    //! | Sigmoid | `(2 / π) * (1 / (exp(πx) + exp(-πx)))` | (-∞, ∞) |
    //!
    //! # Example
    //! ```
    //! use statrs::function::kernel::{Kernel, Gaussian, Epanechnikov};
    //!
    //! let g = Gaussian;
    //! let e = Epanechnikov;
    //! assert!((g.evaluate(0.0) - 0.39894).abs() < 1e-5);
    //! assert!((e.evaluate(0.0) - 0.75).abs() < 1e-12);
    //! ```

    use core::f64::consts::{FRAC_PI_2, PI};
    #[cfg(not(feature = "std"))]
    use num_traits::Float as _;

    /// Common interface for kernel functions used in KDE and smoothing.
    #[fwdad::derive_frule]
    pub trait Kernel {
        /// Evaluate the kernel at normalized distance `x`.
        fn evaluate(&self, x: f64) -> f64;

        /// Evaluate the kernel with bandwidth scaling.
        ///
        /// The result is scaled by `1 / bandwidth` to ensure
        /// that the kernel integrates to 1 after scaling.
        fn evaluate_with_bandwidth(&self, x: f64, bandwidth: f64) -> f64 {
            self.evaluate(x / bandwidth) / bandwidth
        }

        /// Returns the support of the kernel if bounded (e.g. `[-1, 1]`).
        fn support(&self) -> Option<(f64, f64)> {
            None
        }
    }

    /// Gaussian kernel: (1 / √(2π)) * exp(-0.5 * x²)
    #[derive(Debug, Clone, Copy, Default, PartialEq, fwdad::Differentiable)]
    pub struct Gaussian;

    #[fwdad::derive_frule]
    impl Kernel for Gaussian {
        fn evaluate(&self, x: f64) -> f64 {
            (-(x * x) / 2.0).exp() / (2.0 * PI).sqrt()
        }
    }

    /// Epanechnikov kernel: ¾(1 - x²) for |x| ≤ 1
    #[derive(Debug, Clone, Copy, Default, PartialEq, fwdad::Differentiable)]
    pub struct Epanechnikov;

    #[fwdad::derive_frule]
    impl Kernel for Epanechnikov {
        fn evaluate(&self, x: f64) -> f64 {
            let a = x.abs();
            if a <= 1.0 { 0.75 * (1.0 - a * a) } else { 0.0 }
        }

        fn support(&self) -> Option<(f64, f64)> {
            Some((-1.0, 1.0))
        }
    }

    /// Triangular kernel: (1 - |x|) for |x| ≤ 1
    #[derive(Debug, Clone, Copy, Default, PartialEq, fwdad::Differentiable)]
    pub struct Triangular;

    #[fwdad::derive_frule]
    impl Kernel for Triangular {
        fn evaluate(&self, x: f64) -> f64 {
            let a = x.abs();
            if a <= 1.0 { 1.0 - a } else { 0.0 }
        }

        fn support(&self) -> Option<(f64, f64)> {
            Some((-1.0, 1.0))
        }
    }

    /// Tricube kernel: (1 - |x|³)³ for |x| ≤ 1
    #[derive(Debug, Clone, Copy, Default, PartialEq, fwdad::Differentiable)]
    pub struct Tricube;

    #[fwdad::derive_frule]
    impl Kernel for Tricube {
        fn evaluate(&self, x: f64) -> f64 {
            let a = x.abs();
            if a <= 1.0 {
                let t = 1.0 - a.powi(3);
                t.powi(3)
            } else {
                0.0
            }
        }

        fn support(&self) -> Option<(f64, f64)> {
            Some((-1.0, 1.0))
        }
    }

    /// Quartic (biweight) kernel: (15/16) * (1 - x²)² for |x| ≤ 1
    #[derive(Debug, Clone, Copy, Default, PartialEq, fwdad::Differentiable)]
    pub struct Quartic;

    #[fwdad::derive_frule]
    impl Kernel for Quartic {
        fn evaluate(&self, x: f64) -> f64 {
            let a = x.abs();
            if a <= 1.0 {
                let t = 1.0 - a * a;
                (15.0 / 16.0) * t * t
            } else {
                0.0
            }
        }

        fn support(&self) -> Option<(f64, f64)> {
            Some((-1.0, 1.0))
        }
    }

    /// Uniform (rectangular) kernel: 0.5 for |x| ≤ 1, 0 otherwise
    #[derive(Debug, Clone, Copy, Default, PartialEq, fwdad::Differentiable)]
    pub struct Uniform;

    #[fwdad::derive_frule]
    impl Kernel for Uniform {
        fn evaluate(&self, x: f64) -> f64 {
            if x.abs() <= 1.0 { 0.5 } else { 0.0 }
        }

        fn support(&self) -> Option<(f64, f64)> {
            Some((-1.0, 1.0))
        }
    }

    /// Cosine kernel: (π/4) * cos(πx/2) for |x| ≤ 1, 0 otherwise
    ///
    /// This kernel integrates to 1 over [-1, 1].
    #[derive(Debug, Clone, Copy, Default, PartialEq, fwdad::Differentiable)]
    pub struct Cosine;

    #[fwdad::derive_frule]
    impl Kernel for Cosine {
        fn evaluate(&self, x: f64) -> f64 {
            let a = x.abs();
            if a <= 1.0 {
                (PI / 4.0) * (FRAC_PI_2 * a).cos()
            } else {
                0.0
            }
        }

        fn support(&self) -> Option<(f64, f64)> {
            Some((-1.0, 1.0))
        }
    }

    /// Logistic kernel: 1 / (2 + exp(x) + exp(-x))
    #[derive(Debug, Clone, Copy, Default, PartialEq, fwdad::Differentiable)]
    pub struct Logistic;

    #[fwdad::derive_frule]
    impl Kernel for Logistic {
        fn evaluate(&self, x: f64) -> f64 {
            1.0 / (2.0 + x.exp() + (-x).exp())
        }
    }

    /// Sigmoid kernel: (1 / (π * cosh(πx))) ≈ (2 / π) * (1 / (exp(πx) + exp(-πx)))
    ///
    /// Note: Integrates to 1/π over (-∞, ∞).
    #[derive(Debug, Clone, Copy, Default, PartialEq, fwdad::Differentiable)]
    pub struct Sigmoid;

    #[fwdad::derive_frule]
    impl Kernel for Sigmoid {
        fn evaluate(&self, x: f64) -> f64 {
            (2.0 / PI) * 1.0 / ((PI * x).exp() + (-PI * x).exp())
        }
    }
}

use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;
use fwdad::Const;
use kernel::{
    Cosine, Epanechnikov, Gaussian, Kernel, Logistic, Quartic, Sigmoid, Triangular, Tricube,
    Uniform,
};
use std::f64::consts::PI;

/// A kernel density estimate at `x0` from samples `xs` with bandwidth `h`.
#[derive_frule]
fn kde<K: Kernel>(k: &K, xs: &[f64], x0: f64, h: f64) -> f64 {
    let mut s = 0.0;
    for &xi in xs {
        s += k.evaluate_with_bandwidth(x0 - xi, h);
    }
    s / xs.len() as f64
}

/// The same through a trait object.
#[derive_frule]
fn kde_dyn(k: &dyn Kernel, xs: &[f64], x0: f64, h: f64) -> f64 {
    let mut s = 0.0;
    for &xi in xs {
        s += k.evaluate_with_bandwidth(x0 - xi, h);
    }
    s / xs.len() as f64
}

/// A mixture of kernels, one weight each.
#[derive_frule]
fn mixture(ks: &[Box<dyn Kernel>], w: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    for (k, wi) in ks.iter().zip(w) {
        s += wi * k.evaluate(x);
    }
    s
}

/// The width of the window a kernel of bandwidth `h` sees: its support scaled, or the
/// given cut-off for a kernel of unbounded support.
#[derive_frule]
fn window<K: Kernel>(k: &K, h: f64, cutoff: f64) -> f64 {
    match k.support() {
        Some((lo, hi)) => (hi - lo) * h,
        None => cutoff * h,
    }
}

/// The kernel's support as a value: `Option<(f64, f64)>` through a generic call.
#[derive_frule]
fn scaled_support<K: Kernel>(k: &K, h: f64) -> Option<(f64, f64)> {
    k.support().map(|(lo, hi)| (lo * h, hi * h))
}

const SAMPLES: [f64; 6] = [-0.9, -0.35, 0.1, 0.2, 0.75, 1.4];

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

fn fd(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * (1.0 + x.abs());
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// Each kernel's derivative, written out from its formula.
fn dk(name: &str, x: f64) -> f64 {
    let a = x.abs();
    let s = x.signum();
    match name {
        "gaussian" => -x * (-(x * x) / 2.0).exp() / (2.0 * PI).sqrt(),
        "epanechnikov" if a <= 1.0 => -1.5 * x,
        "triangular" if a <= 1.0 => -s,
        "tricube" if a <= 1.0 => 3.0 * (1.0 - a.powi(3)).powi(2) * (-3.0 * a * a * s),
        "quartic" if a <= 1.0 => (15.0 / 16.0) * 2.0 * (1.0 - x * x) * (-2.0 * x),
        "cosine" if a <= 1.0 => -(PI / 4.0) * (PI / 2.0) * (PI / 2.0 * a).sin() * s,
        "logistic" => {
            let d = 2.0 + x.exp() + (-x).exp();
            -(x.exp() - (-x).exp()) / (d * d)
        }
        "sigmoid" => {
            let d = (PI * x).exp() + (-PI * x).exp();
            -(2.0 / PI) * PI * ((PI * x).exp() - (-PI * x).exp()) / (d * d)
        }
        _ => 0.0,
    }
}

/// The derivative of a KDE in `x0` from the kernels' derivatives: `Σ k'((x0 − xᵢ)/h) / (n h²)`.
fn kde_dx0(name: &str, xs: &[f64], x0: f64, h: f64) -> f64 {
    xs.iter().map(|xi| dk(name, (x0 - xi) / h)).sum::<f64>() / (xs.len() as f64 * h * h)
}

/// The crate's kernels, boxed, with their names.
fn crates_kernels() -> Vec<(&'static str, Box<dyn statrs::function::kernel::Kernel>)> {
    use statrs::function::kernel as sk;
    vec![
        ("gaussian", Box::new(sk::Gaussian)),
        ("epanechnikov", Box::new(sk::Epanechnikov)),
        ("triangular", Box::new(sk::Triangular)),
        ("tricube", Box::new(sk::Tricube)),
        ("quartic", Box::new(sk::Quartic)),
        ("uniform", Box::new(sk::Uniform)),
        ("cosine", Box::new(sk::Cosine)),
        ("logistic", Box::new(sk::Logistic)),
        ("sigmoid", Box::new(sk::Sigmoid)),
    ]
}

fn ours() -> Vec<Box<dyn Kernel>> {
    vec![
        Box::new(Gaussian),
        Box::new(Epanechnikov),
        Box::new(Triangular),
        Box::new(Tricube),
        Box::new(Quartic),
        Box::new(Uniform),
        Box::new(Cosine),
        Box::new(Logistic),
        Box::new(Sigmoid),
    ]
}

/// `kde` at one kernel type through the generic rule: value, `∂/∂x0` and `∂/∂h`.
macro_rules! generic_kde {
    ($k:expr, $name:expr, $crate_k:expr) => {{
        let (k, name, crate_k) = (&$k, $name, $crate_k);
        let h = 0.83;
        for x0 in [-1.3, -0.2, 0.05, 0.6, 1.1] {
            let (v, g) = gradient(bind(kde {}, (k, &SAMPLES[..], Var(0), Var(1))), &[x0, h]);
            // The crate's own estimate, the same operations in the same order.
            let mut s = 0.0;
            for &xi in &SAMPLES {
                s += crate_k.evaluate_with_bandwidth(x0 - xi, h);
            }
            let want = s / SAMPLES.len() as f64;
            assert_eq!(v.to_bits(), want.to_bits(), "{name}: kde({x0})");
            assert_eq!(v.to_bits(), kde(k, &SAMPLES, x0, h).to_bits());
            let dx0 = kde_dx0(name, &SAMPLES, x0, h);
            assert!(
                close(g[0], dx0, 1e-12),
                "{name}: ∂kde/∂x0 at {x0}: {} vs {dx0}",
                g[0]
            );
            let fd_h = fd(
                |h| {
                    SAMPLES
                        .iter()
                        .map(|xi| crate_k.evaluate_with_bandwidth(x0 - xi, h))
                        .sum::<f64>()
                        / SAMPLES.len() as f64
                },
                h,
            );
            assert!(
                close(g[1], fd_h, 1e-7),
                "{name}: ∂kde/∂h at {x0}: {} vs {fd_h}",
                g[1]
            );
        }
    }};
}

#[test]
fn generic_kde_of_every_kernel_against_its_derivative() {
    let ks = crates_kernels();
    generic_kde!(Gaussian, "gaussian", &*ks[0].1);
    generic_kde!(Epanechnikov, "epanechnikov", &*ks[1].1);
    generic_kde!(Triangular, "triangular", &*ks[2].1);
    generic_kde!(Tricube, "tricube", &*ks[3].1);
    generic_kde!(Quartic, "quartic", &*ks[4].1);
    generic_kde!(Uniform, "uniform", &*ks[5].1);
    generic_kde!(Cosine, "cosine", &*ks[6].1);
    generic_kde!(Logistic, "logistic", &*ks[7].1);
    generic_kde!(Sigmoid, "sigmoid", &*ks[8].1);
}

#[test]
fn dyn_kde_in_every_mode() {
    let h = 0.83;
    for ((name, crate_k), k) in crates_kernels().iter().zip(ours()) {
        for x0 in [-1.3, -0.2, 0.05, 0.6, 1.1] {
            let k: &dyn Kernel = &*k;
            // One direction.
            let r = kde_dyn_frule(
                Dual::constant(k),
                Dual::constant(&SAMPLES[..]),
                Dual::new(x0, 1.0),
                Dual::new(h, 0.0),
            );
            let mut s = 0.0;
            for &xi in &SAMPLES {
                s += crate_k.evaluate_with_bandwidth(x0 - xi, h);
            }
            assert_eq!(r.primal.to_bits(), (s / SAMPLES.len() as f64).to_bits());
            let dx0 = kde_dx0(name, &SAMPLES, x0, h);
            assert!(
                close(r.tangent, dx0, 1e-12),
                "{name}: {} vs {dx0}",
                r.tangent
            );
            // Batched (two directions) and second order.
            let (v, g) = gradient(
                bind(kde_dyn {}, (Const(k), &SAMPLES[..], Var(0), Var(1))),
                &[x0, h],
            );
            assert_eq!(v, r.primal);
            assert!(close(g[0], dx0, 1e-12));
            let (_, g2, hess) = hessian(
                bind(kde_dyn {}, (Const(k), &SAMPLES[..], Var(0), Var(1))),
                &[x0, h],
            );
            for i in 0..2 {
                assert!(close(g2[i], g[i], 1e-14));
            }
            // The Hessian against central differences of the gradient.
            let e = 1e-5;
            for j in 0..2 {
                let (mut p, mut q) = ([x0, h], [x0, h]);
                p[j] += e;
                q[j] -= e;
                let (_, gp) = gradient(
                    bind(kde_dyn {}, (Const(k), &SAMPLES[..], Var(0), Var(1))),
                    &p,
                );
                let (_, gq) = gradient(
                    bind(kde_dyn {}, (Const(k), &SAMPLES[..], Var(0), Var(1))),
                    &q,
                );
                for i in 0..2 {
                    let want = (gp[i] - gq[i]) / (2.0 * e);
                    // Kinks of the compact kernels inside the stencil: skip those points.
                    let near_kink = SAMPLES.iter().any(|xi| {
                        let u = ((x0 - xi) / h).abs();
                        (u - 1.0).abs() < 1e-3 || u < 1e-3
                    });
                    if !near_kink {
                        assert!(
                            close(hess[(i, j)], want, 1e-5),
                            "{name}: H[{i},{j}] at {x0}: {} vs {want}",
                            hess[(i, j)]
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn gaussian_second_derivative_closed_form() {
    // d²/dx0² of (1/n) Σ φ((x0 − xᵢ)/h)/h = (1/(n h³)) Σ (u² − 1) φ(u).
    let h = 0.7;
    for x0 in [-0.4, 0.3, 1.2] {
        let want: f64 = SAMPLES
            .iter()
            .map(|xi| {
                let u = (x0 - xi) / h;
                (u * u - 1.0) * (-(u * u) / 2.0).exp() / (2.0 * PI).sqrt()
            })
            .sum::<f64>()
            / (SAMPLES.len() as f64 * h * h * h);
        let (_, _, d2) =
            fwdad::drivers::second_derivative(bind(kde {}, (&Gaussian, &SAMPLES[..], Wrt, h)), x0);
        assert!(close(d2, want, 1e-12), "{d2} vs {want}");
        let (_, _, d2) = fwdad::drivers::second_derivative(
            bind(
                kde_dyn {},
                (Const(&Gaussian as &dyn Kernel), &SAMPLES[..], Wrt, h),
            ),
            x0,
        );
        assert!(close(d2, want, 1e-12), "dyn: {d2} vs {want}");
    }
}

#[test]
fn boxed_mixture_against_the_kernels_derivatives() {
    let ks = ours();
    let names: Vec<&str> = crates_kernels().iter().map(|(n, _)| *n).collect();
    let w = [0.3, 0.1, 0.05, 0.2, 0.1, 0.05, 0.05, 0.1, 0.05];
    for x in [-0.7, 0.15, 0.55] {
        let (v, g) = gradient(bind(mixture {}, (&ks[..], Wrt, x)), &w);
        assert_eq!(v, mixture(&ks, &w, x));
        // ∂/∂wᵢ is kernel i at x.
        for (i, c) in crates_kernels().iter().enumerate() {
            assert_eq!(g[i], c.1.evaluate(x), "{}", names[i]);
        }
        let (_, d) = derivative(bind(mixture {}, (&ks[..], &w[..], Wrt)), x);
        let want: f64 = names.iter().zip(&w).map(|(n, wi)| wi * dk(n, x)).sum();
        assert!(close(d, want, 1e-12), "{d} vs {want}");
    }
}

#[test]
fn support_through_a_generic_parameter() {
    // Bounded kernels: the window is 2h, so ∂/∂h = 2; the Gaussian's is the cut-off.
    let (v, d) = derivative(bind(window {}, (&Epanechnikov, Wrt, 5.0)), 0.4);
    assert_eq!(v, (1.0 - -1.0) * 0.4);
    assert_eq!(v, window(&Epanechnikov, 0.4, 5.0));
    assert_eq!(d, 2.0);
    let (v, d) = derivative(bind(window {}, (&Gaussian, Wrt, 5.0)), 0.4);
    assert_eq!(v, 5.0 * 0.4);
    assert_eq!(d, 5.0);
    let (v, d) = derivative(bind(window {}, (&Cosine, 0.4, Wrt)), 5.0);
    assert_eq!((v, d), (0.8, 0.0));
    // The `Option<(f64, f64)>` itself as a result: (−h, h), tangent (−1, 1).
    let zero = fwdad::ZeroTangent::zero_tangent(&Tricube);
    let r = scaled_support_frule(Dual::new(&Tricube, &zero), Dual::new(0.25, 1.0));
    let (p, t) = (r.primal.unwrap(), r.tangent.unwrap());
    assert_eq!(p, (-0.25, 0.25));
    assert_eq!(Some(p), scaled_support(&Tricube, 0.25));
    assert_eq!(t, (-1.0, 1.0));
    let zero = fwdad::ZeroTangent::zero_tangent(&Logistic);
    let r = scaled_support_frule(Dual::new(&Logistic, &zero), Dual::new(0.25, 1.0));
    assert!(r.primal.is_none() && r.tangent.is_none());
}
