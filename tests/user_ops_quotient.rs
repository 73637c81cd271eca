//! Quotients of struct fields (`self.x / self.y` in a method of the user's type, which the
//! macro cannot see as floats and sends through the operators' float rows): first order
//! takes `(ȧ - y·ḃ)/b` with one reciprocal, second order the quotient rule's partials.
//! Checked against the analytic derivatives of `x/y` and `(x/y)/z` in one direction, in a
//! batch and at second order, primals bit for bit.
use fwdad::prelude::*;

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Ratio {
    pub num: f64,
    pub den: f64,
}

#[derive_frule]
impl Ratio {
    pub fn value(&self) -> f64 {
        self.num / self.den
    }
}

/// `(a/b)/c`: a quotient of a quotient, the first through the field path.
#[derive_frule]
fn nested(x: &[f64]) -> f64 {
    let r = Ratio {
        num: x[0],
        den: x[1],
    };
    r.value() / x[2]
}

fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-13 * (1.0 + want.abs()),
        "{what}: {got} vs {want}"
    );
}

#[test]
fn field_quotient_in_one_direction_and_in_a_batch() {
    let (a, b, c) = (1.7, -0.45, 2.3);
    let x = [a, b, c];
    let want = [1.0 / (b * c), -a / (b * b * c), -a / (b * c * c)];
    for j in 0..3 {
        let mut dx = [0.0; 3];
        dx[j] = 1.0;
        let y = nested_frule(Dual::new(&x[..], &dx[..]));
        assert_eq!(y.primal.to_bits(), nested(&x).to_bits());
        close(y.tangent, want[j], &format!("∂/∂x{j}"));
    }
    let (v, g) = gradient(nested {}, &x);
    assert_eq!(v.to_bits(), nested(&x).to_bits());
    for j in 0..3 {
        close(g[j], want[j], &format!("gradient {j}"));
    }
}

#[test]
fn field_quotient_at_second_order() {
    let (a, b, c) = (1.7, -0.45, 2.3);
    let x = [a, b, c];
    let (v, g, h) = hessian(nested {}, &x);
    assert_eq!(v.to_bits(), nested(&x).to_bits());
    close(g[1], -a / (b * b * c), "gradient");
    // f = a b⁻¹ c⁻¹.
    let want = [
        [0.0, -1.0 / (b * b * c), -1.0 / (b * c * c)],
        [
            -1.0 / (b * b * c),
            2.0 * a / (b * b * b * c),
            a / (b * b * c * c),
        ],
        [
            -1.0 / (b * c * c),
            a / (b * b * c * c),
            2.0 * a / (b * c * c * c),
        ],
    ];
    for i in 0..3 {
        for j in 0..3 {
            close(h[(i, j)], want[i][j], &format!("H[{i}, {j}]"));
        }
    }
}

#[test]
fn a_zero_tangent_stays_zero_where_the_reciprocal_overflows() {
    // `1/den` is infinite for a subnormal denominator: the quotient falls back to the
    // rule's partials, whose strong zeros keep a direction that moves only `num` finite.
    let x = [1e-300, 1e-310, 1.0];
    let y = nested_frule(Dual::new(&x[..], &[0.0, 0.0, 1.0][..]));
    assert_eq!(y.primal.to_bits(), nested(&x).to_bits());
    close(y.tangent, -nested(&x), "∂/∂c");
}
