//! A small library whose functions carry forward rules, used from other crates' derived
//! code: what a library author ships.
//!
//! Each kind of rule a library can ship appears here once:
//!
//! | item | how its rule is made |
//! |---|---|
//! | [`softplus`], [`geometry::norm3`] | `#[derive_frule]`: the body is differentiated |
//! | [`log1p_exp`], [`logistic`], [`log_add_exp`], [`hypot3`], [`chebyshev`] | `#[primitive(d = ..)]`: scalar partial derivatives |
//! | [`kepler`] | `#[primitive(d = ..)]` from the implicit-function theorem: a root solver whose iterations are not differentiated |
//! | [`linalg::dot`], [`linalg::gemv`] | `#[primitive(rule = ..)]`: a hand-written rule on slices, writing into a buffer |
//! | [`lookup::argmax`], [`lookup::bucket`], [`random::uniform`] | `#[non_differentiable]`: the result carries no tangent |
//!
//! A downstream crate calls them from its own `#[derive_frule]` functions exactly like
//! plain functions (`fwdad_special::log1p_exp(x)`, `use fwdad_special::linalg::dot;`), in
//! every mode: one direction, batches (`Batch<f64, N>`) and second order (`Hyper`). Every
//! rule here is checked by `fwdad::testing::test_frule` in the workspace's
//! `tests/primitive_*.rs`; see `docs/writing-rules.md` for the guide.

use fwdad::prelude::*;

/// `log(1 + exp(x))`, computed stably.
#[derive_frule]
pub fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x
    } else {
        x.exp().ln_1p()
    }
}

/// `log(1 + exp(x))` (softplus), accurate for every `x`: `max(x, 0) + log1p(exp(-|x|))`.
///
/// A primitive with its derivative, the logistic function, written through the result
/// `y`: `σ(x) = exp(x - y)`, one `exp` and no overflow (the derived rule would
/// differentiate `max`, `abs` and `ln_1p` one by one).
///
/// ```
/// use fwdad::Dual;
/// let d = fwdad_special::log1p_exp_frule(Dual::new(0.0, 1.0));
/// assert_eq!(d.primal, 2f64.ln());
/// assert_eq!(d.tangent, 0.5);
/// ```
#[primitive(d = (x - y).exp())]
pub fn log1p_exp(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// The logistic function `1 / (1 + exp(-x))`; its derivative `y (1 - y)` reuses the
/// result.
#[primitive(d = y * (1.0 - y))]
pub fn logistic(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `log(exp(a) + exp(b))` without overflow. Partial derivatives, one per argument, as a
/// tuple: `(exp(a - y), exp(b - y))` (a softmax of `(a, b)`).
#[primitive(d = ((a - y).exp(), (b - y).exp()))]
pub fn log_add_exp(a: f64, b: f64) -> f64 {
    let m = a.max(b);
    if m == f64::NEG_INFINITY {
        return m;
    }
    m + ((a - m).exp() + (b - m).exp()).ln()
}

/// `sqrt(x² + y² + z²)`, scaled to avoid overflow and underflow.
///
/// A parameter is called `y`, so the result is named `r` with `result = r`.
#[primitive(d = (x / r, y / r, z / r), result = r)]
pub fn hypot3(x: f64, y: f64, z: f64) -> f64 {
    let s = x.abs().max(y.abs()).max(z.abs());
    if s == 0.0 || s.is_infinite() {
        return s;
    }
    let (a, b, c) = (x / s, y / s, z / s);
    s * (a * a + b * b + c * c).sqrt()
}

/// The Chebyshev polynomial `T_n(x)`, by the three-term recurrence.
///
/// The degree `n` carries no tangent. The partial `T_n'(x) = n U_{n-1}(x)` (Chebyshev
/// polynomials of the second kind) is a block with its own loop: partial expressions are
/// ordinary Rust, evaluated on `f64` and, for second order, on duals.
#[primitive(d = {
    // U_{n-1}(x) by U_{k+1} = 2x U_k - U_{k-1}, from U_{-1} = 0, U_0 = 1.
    let (mut u_prev, mut u) = (0.0, 1.0);
    for _ in 1..n {
        let next = 2.0 * x * u - u_prev;
        u_prev = u;
        u = next;
    }
    n as f64 * u
})]
pub fn chebyshev(n: u32, x: f64) -> f64 {
    let (mut t_prev, mut t) = (1.0, x);
    if n == 0 {
        return 1.0;
    }
    for _ in 1..n {
        let next = 2.0 * x * t - t_prev;
        t_prev = t;
        t = next;
    }
    t
}

/// The eccentric anomaly `E` solving Kepler's equation `E - e sin E = M`, for mean anomaly
/// `m` and eccentricity `0 <= e < 1`, by Newton's method.
///
/// The rule does not differentiate the iterations: with `g(E; M, e) = E - e sin E - M`,
/// the implicit-function theorem gives `dE = -(g_M dM + g_e de) / g_E`, that is
/// `∂E/∂M = 1 / (1 - e cos E)` and `∂E/∂e = sin E / (1 - e cos E)`, evaluated at the
/// solution `y = E`. The shared denominator is bound once in a block. Because the partials
/// are ordinary expressions in `(m, e, y)`, second-order modes differentiate them too,
/// which is the implicit function's second derivative.
#[primitive(d = {
    let g_y = 1.0 - e * y.cos();
    (1.0 / g_y, y.sin() / g_y)
})]
pub fn kepler(m: f64, e: f64) -> f64 {
    let mut x = if e < 0.8 {
        m
    } else {
        core::f64::consts::PI.copysign(m)
    };
    for _ in 0..50 {
        let g = x - e * x.sin() - m;
        let step = g / (1.0 - e * x.cos());
        x -= step;
        if step.abs() <= 1e-15 * (1.0 + x.abs()) {
            break;
        }
    }
    x
}

/// Geometry helpers.
pub mod geometry {
    use fwdad::prelude::*;

    /// Euclidean norm of a 3-vector.
    #[derive_frule]
    pub fn norm3(v: &[f64; 3]) -> f64 {
        (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
    }
}

/// Dense kernels with hand-written rules (the full-rule form).
///
/// The primal of each rule is the kernel itself, called on the primals, so it is
/// bit-identical to a plain call; the tangents are computed with `Dual` arithmetic, which
/// is right in every mode (in second order, the product `a_i b_i` contributes
/// `da_i db_i`, which `ScalarTangent::scale` with a constant coefficient would drop).
pub mod linalg {
    use fwdad::prelude::*;
    use fwdad::ScalarTangent;

    /// `Σ a_i b_i`, with four independent accumulators (what makes a kernel fast, and what
    /// a derived rule would have to follow step by step).
    ///
    /// # Panics
    /// If the lengths differ.
    #[primitive(rule = dot_rule)]
    pub fn dot(a: &[f64], b: &[f64]) -> f64 {
        assert_eq!(a.len(), b.len(), "dot: length mismatch");
        let mut acc = [0.0; 4];
        let chunks = a.len() / 4;
        for c in 0..chunks {
            for l in 0..4 {
                acc[l] += a[4 * c + l] * b[4 * c + l];
            }
        }
        let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
        for i in 4 * chunks..a.len() {
            s += a[i] * b[i];
        }
        s
    }

    /// The rule of [`dot`]: generic over the tangent type `T` (one direction `f64`, a batch,
    /// or second order), so every mode uses it.
    pub fn dot_rule<T: ScalarTangent<f64>>(
        a: Dual<&[f64], &[T]>,
        b: Dual<&[f64], &[T]>,
    ) -> Dual<f64, T> {
        let y = dot(a.primal, b.primal);
        let mut acc = Dual::new(0.0, T::zero());
        for i in 0..a.len() {
            acc += a.at(i).copied() * b.at(i).copied();
        }
        Dual::new(y, acc.tangent)
    }

    /// `y ← alpha · A x + beta · y` (BLAS `gemv`), with `A` row-major of `y.len()` rows and
    /// `x.len()` columns: the result goes into a buffer the caller allocated, as in
    /// Mooncake's pre-allocated matrix multiply.
    ///
    /// # Panics
    /// If `a.len() != y.len() * x.len()`.
    #[primitive(rule = gemv_rule)]
    pub fn gemv(alpha: f64, a: &[f64], x: &[f64], beta: f64, y: &mut [f64]) {
        let n = x.len();
        assert_eq!(
            a.len(),
            y.len() * n,
            "gemv: `a` is not `y.len()` × `x.len()`"
        );
        for (i, yi) in y.iter_mut().enumerate() {
            let ax = dot(&a[i * n..(i + 1) * n], x);
            *yi = alpha * ax + beta * *yi;
        }
    }

    /// The rule of [`gemv`]. The contract of a rule for a function that writes through
    /// `&mut`: leave the primal buffer exactly as the function does, and write the
    /// buffer's tangent (here `dy ← dα A x + α (dA x + A dx) + dβ y + β dy`, from the old
    /// `y` and `dy`, so the tangents are computed before the kernel overwrites `y`).
    pub fn gemv_rule<T: ScalarTangent<f64>>(
        alpha: Dual<f64, T>,
        a: Dual<&[f64], &[T]>,
        x: Dual<&[f64], &[T]>,
        beta: Dual<f64, T>,
        y: Dual<&mut [f64], &mut [T]>,
    ) -> Dual<(), NoTangent> {
        let n = x.len();
        assert_eq!(
            a.len(),
            y.primal.len() * n,
            "gemv: `a` is not `y.len()` × `x.len()`"
        );
        for i in 0..y.primal.len() {
            let ax = dot_rule(a.slice(i * n..(i + 1) * n), x);
            let yi = Dual::new(y.primal[i], y.tangent[i]);
            y.tangent[i] = (alpha * ax + beta * yi).tangent;
        }
        gemv(alpha.primal, a.primal, x.primal, beta.primal, y.primal);
        Dual::new((), NoTangent)
    }
}

/// Index lookups: results that carry no tangent (`#[non_differentiable]`).
pub mod lookup {
    use fwdad::prelude::*;

    /// The index of the largest element (the first one on ties).
    ///
    /// # Panics
    /// If `x` is empty.
    #[non_differentiable]
    pub fn argmax(x: &[f64]) -> usize {
        assert!(!x.is_empty(), "argmax of an empty slice");
        let mut k = 0;
        for i in 1..x.len() {
            if x[i] > x[k] {
                k = i;
            }
        }
        k
    }

    /// The bucket of `x` among sorted bin edges: the number of edges `<= x`.
    #[non_differentiable]
    pub fn bucket(x: f64, edges: &[f64]) -> usize {
        edges.partition_point(|&e| e <= x)
    }
}

/// Random draws: their values do not depend on the inputs, so they carry no tangent.
pub mod random {
    use fwdad::prelude::*;
    use fwdad::Mode;

    /// A small xorshift generator (not for cryptography).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Rng {
        state: u64,
    }

    impl Rng {
        /// A generator from a seed (any value; zero is remapped).
        pub fn new(seed: u64) -> Self {
            Rng { state: seed.max(1) }
        }
    }

    /// The generator's state is not differentiable: its tangent is `NoTangent`, so a
    /// derived function can take `&mut Rng` (with a `&mut NoTangent` tangent).
    impl Differentiable for Rng {
        type Tangent = NoTangent;
        type TangentIn<S: Mode> = NoTangent;
    }

    impl ZeroTangent for Rng {
        fn zero_tangent(&self) -> NoTangent {
            NoTangent
        }
        fn zero_tangent_in<S: Mode>(&self) -> NoTangent {
            NoTangent
        }
    }

    /// A uniform draw in `[0, 1)`; advances the generator. A derived caller gets the
    /// value with a zero tangent, and the generator advances exactly as in a plain call.
    #[non_differentiable]
    pub fn uniform(rng: &mut Rng) -> f64 {
        let mut s = rng.state;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        rng.state = s;
        (s >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// The guide `docs/writing-rules.md`, whose examples are compiled and run as doctests of
/// this crate (`cargo test -p fwdad-special --doc`).
#[cfg(doctest)]
#[doc = include_str!("../../docs/writing-rules.md")]
pub struct WritingRulesGuide;
