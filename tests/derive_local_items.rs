//! Types and `impl`s declared inside a differentiated function, as users write them: an
//! accumulator struct with methods, an enum of modes, a tuple struct. Each derivative
//! against central differences in every mode (`check_modes!`), primals bit for bit.
use fwdad::prelude::*;

mod common;

/// Welford's running mean and variance, its state a local struct with a method.
#[derive_frule]
fn running_variance(x: &[f64]) -> f64 {
    #[derive(Clone, Copy)]
    struct Acc {
        n: usize,
        mean: f64,
        m2: f64,
    }
    impl Acc {
        fn push(&mut self, v: f64) {
            self.n += 1;
            let d = v - self.mean;
            self.mean += d / self.n as f64;
            self.m2 += d * (v - self.mean);
        }
    }
    let mut acc = Acc {
        n: 0,
        mean: 0.0,
        m2: 0.0,
    };
    for &v in x {
        acc.push(v);
    }
    acc.m2 / (acc.n - 1) as f64
}

/// A local enum of integration rules, chosen by the caller's flag.
#[derive_frule]
fn integrate(x: &[f64]) -> f64 {
    #[derive(Clone, Copy, PartialEq)]
    enum Rule {
        Left,
        Trapezoid,
    }
    let rule = if x.len() > 3 {
        Rule::Trapezoid
    } else {
        Rule::Left
    };
    let mut s = 0.0;
    for w in x.windows(2) {
        s += match rule {
            Rule::Left => w[0],
            Rule::Trapezoid => 0.5 * (w[0] + w[1]),
        };
    }
    s
}

/// A local tuple struct holding a float.
#[derive_frule]
fn scaled_sum(x: &[f64]) -> f64 {
    #[derive(Clone, Copy)]
    struct Scale(f64);
    let s = Scale(x[0].exp());
    x.iter().map(|v| v * s.0).sum::<f64>()
}

#[test]
fn local_items() {
    check_modes!(running_variance {}, running_variance, [0.7, 1.1, -0.4, 2.0]);
    check_modes!(integrate {}, integrate, [0.7, 1.1, -0.4, 2.0]);
    check_modes!(integrate {}, integrate, [0.7, 1.1, -0.4]);
    check_modes!(scaled_sum {}, scaled_sum, [0.7, 1.1, -0.4]);
}
