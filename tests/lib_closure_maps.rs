//! Closures passed to the maps of library values (features `ndarray` and `nalgebra`):
//! ndarray's `mapv`, `map`, `mapv_inplace` and nalgebra's `map`, `zip_map`, as a layer of a
//! network or a physics kernel writes them. Derivatives in every mode against central
//! finite differences of the plain functions and the derivatives written out; primals bit
//! for bit.
//!
//! Run with `cargo test --features nalgebra,ndarray --test lib_closure_maps`.
use fwdad::prelude::*;
use fwdad::Hyper;
use nalgebra::{DVector, Vector3};
use ndarray::{Array1, Array2};

/// A dense layer with a softplus activation of sharpness `beta`, summed: the activation
/// mapped over the pre-activations with `mapv`, capturing `beta`.
#[derive_frule]
fn softplus_layer(w: &Array2<f64>, x: &Array1<f64>, beta: f64) -> f64 {
    let z: Array1<f64> = w.dot(x);
    let a = z.mapv(|v| (1.0 + (beta * v).exp()).ln() / beta);
    a.sum()
}

fn softplus_inputs() -> (Array2<f64>, Array1<f64>) {
    let w = Array2::from_shape_vec((3, 2), vec![0.5, -1.2, 0.3, 0.8, -0.7, 0.1]).unwrap();
    let x = Array1::from_vec(vec![0.9, -0.4]);
    (w, x)
}

#[test]
fn ndarray_mapv_of_an_activation() {
    let (w, x) = softplus_inputs();
    let beta = 1.7;
    // A direction in all arguments, against central differences of the plain function.
    let dw = Array2::from_shape_vec((3, 2), vec![0.1, 0.3, -0.2, 0.5, 0.4, -0.6]).unwrap();
    let dx = Array1::from_vec(vec![-0.3, 0.7]);
    let db = 0.4;
    let at = |e: f64| softplus_layer(&(&w + &(&dw * e)), &(&x + &(&dx * e)), beta + db * e);
    let fd = (at(1e-6) - at(-1e-6)) / 2e-6;
    let d = softplus_layer_frule(Dual::new(&w, &dw), Dual::new(&x, &dx), Dual::new(beta, db));
    assert_eq!(d.primal.to_bits(), softplus_layer(&w, &x, beta).to_bits());
    approx::assert_relative_eq!(d.tangent, fd, max_relative = 1e-7);
    // Batched: the lanes are the partials in x₀, x₁ and β, written out below.
    let z = w.dot(&x);
    let sigma = |t: f64| 1.0 / (1.0 + (-t).exp());
    let softplus = |t: f64| (1.0 + (beta * t).exp()).ln() / beta;
    let dbeta: f64 = (0..3)
        .map(|i| z[i] * sigma(beta * z[i]) / beta - softplus(z[i]) / beta)
        .sum();
    let lanes = Array1::from_vec(vec![Batch([1.0, 0.0, 0.0]), Batch([0.0, 1.0, 0.0])]);
    let b = <softplus_layer as Frule<_, Batch<f64, 3>>>::frule(
        &softplus_layer {},
        (
            Dual::new(&w, &Array2::from_elem((3, 2), Batch([0.0; 3]))),
            Dual::new(&x, &lanes),
            Dual::new(beta, Batch([0.0, 0.0, 1.0])),
        ),
    );
    assert_eq!(b.primal.to_bits(), softplus_layer(&w, &x, beta).to_bits());
    for j in 0..2 {
        let expected: f64 = (0..3).map(|i| sigma(beta * z[i]) * w[[i, j]]).sum();
        approx::assert_relative_eq!(b.tangent.0[j], expected, max_relative = 1e-13);
    }
    approx::assert_relative_eq!(b.tangent.0[2], dbeta, max_relative = 1e-12);
    // d/dx_j Σ_i softplus(z_i) = Σ_i σ(β z_i) w_ij, with σ the logistic function.
    let zero_w = Array2::zeros((3, 2));
    for j in 0..2 {
        let mut dx = Array1::zeros(2);
        dx[j] = 1.0;
        let d = softplus_layer_frule(
            Dual::new(&w, &zero_w),
            Dual::new(&x, &dx),
            Dual::new(beta, 0.0),
        );
        assert_eq!(d.primal.to_bits(), softplus_layer(&w, &x, beta).to_bits());
        let expected: f64 = (0..3).map(|i| sigma(beta * z[i]) * w[[i, j]]).sum();
        approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-13);
    }
    // Second order in x₀: Σ_i β σ'(β z_i) w_i0², σ' = σ(1 − σ).
    let mut dx = Array1::from_elem(
        2,
        Hyper {
            d1: 0.0,
            d2: 0.0,
            d12: 0.0,
        },
    );
    dx[0] = Hyper {
        d1: 1.0,
        d2: 1.0,
        d12: 0.0,
    };
    let zero_hw = Array2::from_elem(
        (3, 2),
        Hyper {
            d1: 0.0,
            d2: 0.0,
            d12: 0.0,
        },
    );
    let h = <softplus_layer as Frule<_, Hyper<f64, f64>>>::frule(
        &softplus_layer {},
        (
            Dual::new(&w, &zero_hw),
            Dual::new(&x, &dx),
            Dual::new(
                beta,
                Hyper {
                    d1: 0.0,
                    d2: 0.0,
                    d12: 0.0,
                },
            ),
        ),
    );
    let expected: f64 = (0..3)
        .map(|i| {
            let s = sigma(beta * z[i]);
            beta * s * (1.0 - s) * w[[i, 0]] * w[[i, 0]]
        })
        .sum();
    assert_eq!(h.primal.to_bits(), softplus_layer(&w, &x, beta).to_bits());
    approx::assert_relative_eq!(h.tangent.d12, expected, max_relative = 1e-12);
}

/// Discount factors e^{−r tᵢ} of constant times `t` at an active rate, by `mapv`; a
/// convexity term by `map` (each element lent); tanh-squashed cash flows in place.
#[derive_frule]
fn bond_price(t: &Array1<f64>, cash: &Array1<f64>, rate: f64) -> f64 {
    let discount = t.mapv(|ti| (-rate * ti).exp());
    let convexity = t.map(|ti| 0.5 * ti * ti * rate * rate);
    let mut flows = cash.to_owned();
    flows.mapv_inplace(|c| 100.0 * (c / 100.0).tanh());
    (&flows * &discount).sum() + convexity.sum()
}

#[test]
fn ndarray_map_by_reference_and_in_place() {
    let t = Array1::from_vec(vec![0.5, 1.0, 2.0, 5.0]);
    let cash = Array1::from_vec(vec![3.0, 3.0, 3.0, 103.0]);
    let rate = 0.04;
    // A direction in all arguments, against central differences of the plain function.
    let dt = Array1::from_vec(vec![0.1, -0.2, 0.05, 0.3]);
    let dcash = Array1::from_vec(vec![0.5, -1.0, 2.0, -3.0]);
    let dr = 0.7;
    let at = |e: f64| bond_price(&(&t + &(&dt * e)), &(&cash + &(&dcash * e)), rate + dr * e);
    let fd = (at(1e-6) - at(-1e-6)) / 2e-6;
    let d = bond_price_frule(
        Dual::new(&t, &dt),
        Dual::new(&cash, &dcash),
        Dual::new(rate, dr),
    );
    assert_eq!(d.primal.to_bits(), bond_price(&t, &cash, rate).to_bits());
    approx::assert_relative_eq!(d.tangent, fd, max_relative = 1e-7);
    // Batched, the same direction in one lane and r alone in the other.
    let lane = |v: &Array1<f64>| v.mapv(|e| Batch([e, 0.0]));
    let b = <bond_price as Frule<_, Batch<f64, 2>>>::frule(
        &bond_price {},
        (
            Dual::new(&t, &lane(&dt)),
            Dual::new(&cash, &lane(&dcash)),
            Dual::new(rate, Batch([dr, 1.0])),
        ),
    );
    assert_eq!(b.primal.to_bits(), bond_price(&t, &cash, rate).to_bits());
    approx::assert_relative_eq!(b.tangent.0[0], fd, max_relative = 1e-7);
    // Duration: ∂P/∂r = −Σ tᵢ fᵢ e^{−r tᵢ} + r Σ tᵢ², fᵢ = 100 tanh(cᵢ/100).
    let zeros = Array1::zeros(4);
    let d = bond_price_frule(
        Dual::new(&t, &zeros),
        Dual::new(&cash, &zeros),
        Dual::new(rate, 1.0),
    );
    let f = cash.mapv(|c| 100.0 * (c / 100.0).tanh());
    let expected: f64 = (0..4)
        .map(|i| -t[i] * f[i] * (-rate * t[i]).exp() + rate * t[i] * t[i])
        .sum();
    approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-13);
    approx::assert_relative_eq!(b.tangent.0[1], expected, max_relative = 1e-13);
    // ∂P/∂c₃ = sech²(c₃/100) e^{−r t₃}.
    let mut dc = Array1::zeros(4);
    dc[3] = 1.0;
    let d = bond_price_frule(
        Dual::new(&t, &zeros),
        Dual::new(&cash, &dc),
        Dual::new(rate, 0.0),
    );
    let sech2 = 1.0 / (cash[3] / 100.0).cosh().powi(2);
    approx::assert_relative_eq!(
        d.tangent,
        sech2 * (-rate * t[3]).exp(),
        max_relative = 1e-13
    );
}

/// A Lennard-Jones-like pair energy summed over the components of a displacement, by
/// nalgebra's `map` (capturing `sigma`) and `zip_map` (two vectors elementwise).
#[derive_frule]
fn kernel_energy(p: &Vector3<f64>, q: &Vector3<f64>, sigma: f64) -> f64 {
    let d: Vector3<f64> = p - q;
    let repulsion = d.map(|x| (sigma / (1.0 + x * x)).powi(6));
    let coupling = p.zip_map(q, |a, b| (a * b).sin());
    repulsion.sum() + coupling.sum()
}

#[test]
fn nalgebra_map_and_zip_map() {
    let p = Vector3::new(0.3, -0.8, 1.1);
    let q = Vector3::new(-0.2, 0.4, 0.9);
    let sigma = 0.9;
    // A direction in all arguments, against central differences of the plain function.
    let (dp, dq, ds) = (
        Vector3::new(0.2, 0.5, -0.3),
        Vector3::new(-0.4, 0.1, 0.6),
        0.3,
    );
    let at = |e: f64| kernel_energy(&(p + dp * e), &(q + dq * e), sigma + ds * e);
    let fd = (at(1e-6) - at(-1e-6)) / 2e-6;
    let d = kernel_energy_frule(Dual::new(&p, &dp), Dual::new(&q, &dq), Dual::new(sigma, ds));
    assert_eq!(d.primal.to_bits(), kernel_energy(&p, &q, sigma).to_bits());
    approx::assert_relative_eq!(d.tangent, fd, max_relative = 1e-7);
    // Batched: the lanes are the partials in p₀, p₁, p₂ and σ.
    let lanes = Vector3::new(
        Batch([1.0, 0.0, 0.0, 0.0]),
        Batch([0.0, 1.0, 0.0, 0.0]),
        Batch([0.0, 0.0, 1.0, 0.0]),
    );
    let b = <kernel_energy as Frule<_, Batch<f64, 4>>>::frule(
        &kernel_energy {},
        (
            Dual::new(&p, &lanes),
            Dual::new(&q, &Vector3::from_element(Batch([0.0; 4]))),
            Dual::new(sigma, Batch([0.0, 0.0, 0.0, 1.0])),
        ),
    );
    assert_eq!(b.primal.to_bits(), kernel_energy(&p, &q, sigma).to_bits());
    let dsigma: f64 = (0..3)
        .map(|i| {
            let di: f64 = p[i] - q[i];
            6.0 * sigma.powi(5) / (1.0 + di * di).powi(6)
        })
        .sum();
    approx::assert_relative_eq!(b.tangent.0[3], dsigma, max_relative = 1e-12);
    // ∂E/∂p_i = −12 σ⁶ dᵢ/(1 + dᵢ²)⁷ + q_i cos(p_i q_i), d = p − q.
    let zero = Vector3::zeros();
    for i in 0..3 {
        let mut dp = Vector3::zeros();
        dp[i] = 1.0;
        let e = kernel_energy_frule(
            Dual::new(&p, &dp),
            Dual::new(&q, &zero),
            Dual::new(sigma, 0.0),
        );
        let di = p[i] - q[i];
        let expected =
            -12.0 * sigma.powi(6) * di / (1.0 + di * di).powi(7) + q[i] * (p[i] * q[i]).cos();
        assert_eq!(e.primal.to_bits(), kernel_energy(&p, &q, sigma).to_bits());
        approx::assert_relative_eq!(e.tangent, expected, max_relative = 1e-12);
        approx::assert_relative_eq!(b.tangent.0[i], expected, max_relative = 1e-12);
    }
    // ∂²E/∂σ² = Σ 30 σ⁴/(1 + dᵢ²)⁶.
    let h0 = Hyper {
        d1: 0.0,
        d2: 0.0,
        d12: 0.0,
    };
    let hz = Vector3::from_element(h0);
    let h = <kernel_energy as Frule<_, Hyper<f64, f64>>>::frule(
        &kernel_energy {},
        (
            Dual::new(&p, &hz),
            Dual::new(&q, &hz),
            Dual::new(
                sigma,
                Hyper {
                    d1: 1.0,
                    d2: 1.0,
                    d12: 0.0,
                },
            ),
        ),
    );
    let expected: f64 = (0..3)
        .map(|i| {
            let di: f64 = p[i] - q[i];
            30.0 * sigma.powi(4) / (1.0 + di * di).powi(6)
        })
        .sum();
    approx::assert_relative_eq!(h.tangent.d12, expected, max_relative = 1e-12);
}

/// A smooth ReLU over a dynamic vector, through the gradient driver.
#[derive_frule]
fn smooth_relu_norm(x: &DVector<f64>) -> f64 {
    let y = x.map(|v| 0.5 * (v + (v * v + 0.01).sqrt()));
    y.norm_squared()
}

#[test]
fn nalgebra_dvector_map_through_the_gradient_driver() {
    let x = DVector::from_vec(vec![0.4, -1.3, 0.05, 2.0]);
    let (f, g) = fwdad::na::gradient(bind(smooth_relu_norm {}, (Wrt,)), &x);
    assert_eq!(f.to_bits(), smooth_relu_norm(&x).to_bits());
    // ∂/∂xᵢ Σ yᵢ² = 2 yᵢ · ½ (1 + xᵢ/√(xᵢ² + 0.01)).
    for i in 0..4 {
        let v = x[i];
        let y = 0.5 * (v + (v * v + 0.01).sqrt());
        let expected = 2.0 * y * 0.5 * (1.0 + v / (v * v + 0.01).sqrt());
        approx::assert_relative_eq!(g[i], expected, max_relative = 1e-13);
    }
}

/// A curve whose sample times are a field: the field bound with its type written, then
/// mapped; and a constant array mapped in place by a closure capturing an active rate.
#[derive(Differentiable, Clone, Debug)]
pub struct Curve {
    pub t: Array1<f64>,
}

#[derive_frule]
fn curve_value(c: &Curve, rate: f64) -> f64 {
    let t: &Array1<f64> = &c.t;
    let mut w = Array1::from_elem(3, 1.0);
    w.mapv_inplace(|v| v * rate);
    t.mapv(|ti| (-rate * ti).exp()).sum() + w.sum()
}

#[test]
fn ndarray_map_of_a_typed_field_and_in_place_on_a_constant() {
    let c = Curve {
        t: Array1::from_vec(vec![0.5, 1.0, 4.0]),
    };
    let rate = 0.3;
    let tangent = CurveTangent {
        t: Array1::zeros(3),
    };
    let d = curve_value_frule(Dual::new(&c, &tangent), Dual::new(rate, 1.0));
    assert_eq!(d.primal.to_bits(), curve_value(&c, rate).to_bits());
    // d/dr Σ e^{−r tᵢ} + 3 r = −Σ tᵢ e^{−r tᵢ} + 3.
    let expected: f64 = c.t.iter().map(|ti| -ti * (-rate * ti).exp()).sum::<f64>() + 3.0;
    approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-14);
}
