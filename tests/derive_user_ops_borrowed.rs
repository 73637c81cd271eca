//! Operators written on references, as code that avoids copying a non-`Copy` state writes
//! them (`&s + &(&k1 * (0.5 * h))`, `-&s`, `s -= &d`), with assignment operators and
//! `IndexMut`, on values a function returned bound without their type (`let k1 =
//! deriv(&s, k);`). A newcomer's program (a midpoint integrator of two coupled
//! oscillators), annotated unmodified except that `self.q.map(|v| v * s)` (an array's
//! `map` on a field, a documented limit) is written out. Checked in every mode against
//! central differences, primal bit for bit.
#![allow(
    clippy::needless_range_loop,
    clippy::op_ref,
    clippy::needless_lifetimes
)]

mod common;

use fwdad::prelude::*;
use std::ops::{Add, Div, DivAssign, Index, IndexMut, Mul, MulAssign, Neg, Sub, SubAssign};

#[derive(Clone, Debug, PartialEq, Differentiable)]
pub struct State {
    pub q: [f64; 4],
}

#[derive_frule]
impl<'a> Add<&'a State> for &'a State {
    type Output = State;
    fn add(self, o: &State) -> State {
        let mut q = [0.0; 4];
        for i in 0..4 {
            q[i] = self.q[i] + o.q[i];
        }
        State { q }
    }
}
#[derive_frule]
impl<'a> Sub<&'a State> for &'a State {
    type Output = State;
    fn sub(self, o: &State) -> State {
        let mut q = [0.0; 4];
        for i in 0..4 {
            q[i] = self.q[i] - o.q[i];
        }
        State { q }
    }
}
#[derive_frule]
impl<'a> Mul<f64> for &'a State {
    type Output = State;
    fn mul(self, s: f64) -> State {
        State {
            q: [self.q[0] * s, self.q[1] * s, self.q[2] * s, self.q[3] * s],
        }
    }
}
#[derive_frule]
impl Div<f64> for State {
    type Output = State;
    fn div(self, s: f64) -> State {
        State {
            q: [self.q[0] / s, self.q[1] / s, self.q[2] / s, self.q[3] / s],
        }
    }
}
#[derive_frule]
impl MulAssign<f64> for State {
    fn mul_assign(&mut self, s: f64) {
        for v in self.q.iter_mut() {
            *v *= s;
        }
    }
}
#[derive_frule]
impl DivAssign<f64> for State {
    fn div_assign(&mut self, s: f64) {
        for v in &mut self.q {
            *v /= s;
        }
    }
}
#[derive_frule]
impl SubAssign<&State> for State {
    fn sub_assign(&mut self, o: &State) {
        for i in 0..4 {
            self.q[i] -= o.q[i];
        }
    }
}
#[derive_frule]
impl Neg for &State {
    type Output = State;
    fn neg(self) -> State {
        State {
            q: [-self.q[0], -self.q[1], -self.q[2], -self.q[3]],
        }
    }
}
#[derive_frule]
impl Index<usize> for State {
    type Output = f64;
    fn index(&self, i: usize) -> &f64 {
        &self.q[i]
    }
}
#[derive_frule]
impl IndexMut<usize> for State {
    fn index_mut(&mut self, i: usize) -> &mut f64 {
        &mut self.q[i]
    }
}

#[derive_frule]
fn deriv(s: &State, k: f64) -> State {
    // two coupled oscillators
    let mut d = State { q: [0.0; 4] };
    d[0] = s[2];
    d[1] = s[3];
    d[2] = -k * s[0] + 0.3 * (s[1] - s[0]);
    d[3] = -k * s[1] - 0.3 * (s[1] - s[0]);
    d
}

#[derive_frule]
pub fn integrate(params: &[f64]) -> f64 {
    let k = params[0];
    let mut s = State {
        q: [params[1], 0.0, 0.0, 0.0],
    };
    let h = 0.05;
    for _ in 0..100 {
        let k1 = deriv(&s, k);
        let mid = &s + &(&k1 * (0.5 * h));
        let k2 = deriv(&mid, k);
        let mut step = &k2 * h;
        step *= 1.0;
        s = &s + &step;
        let mut damp = -&s;
        damp /= 1000.0;
        s -= &(&damp * -1.0);
    }
    let e = (&s - &State { q: [0.0; 4] }) / 1.0;
    e[0] * e[0] + e[1] * e[1]
}

#[test]
fn borrowed_operands_of_values_a_function_returned() {
    check_modes!(integrate {}, integrate, [2.0, 1.0]);
    check_modes!(integrate {}, integrate, [0.7, -0.4]);
}

#[derive_frule]
fn scaled(x: &[f64]) -> f64 {
    let y = x[0].sin() + 2.0;
    let w = x[1].cos() + 2.0;
    let a = &y * x[1] + &y * 0.5 - &w / &y;
    &a * &a + &w
}

/// A float borrowed for arithmetic goes through the operators' float rows: still right.
#[test]
fn borrowed_floats() {
    check_modes!(scaled {}, scaled, [0.3, 1.7]);
}
