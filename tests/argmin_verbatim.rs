//! argmin_testfunctions 0.3.0, every objective copied verbatim with `#[derive_frule]` on
//! each function (nothing else changed), checked against the crate's own analytic
//! `*_derivative` and `*_hessian` functions (the crate is a dev-dependency, pinned to
//! `=0.3.0`): gradients and Hessians to 1e-8 relative, primals bit-identical.
//!
//! The modules below are copied from argmin_testfunctions 0.3.0
//! (https://github.com/argmin-rs/argmin, `crates/argmin-testfunctions/src/`):
//!
//! Copyright 2018-2024 argmin developers
//!
//! Licensed under the Apache License, Version 2.0 <LICENSE-APACHE or
//! http://apache.org/licenses/LICENSE-2.0> or the MIT license <LICENSE-MIT or
//! http://opensource.org/licenses/MIT>, at your option. This file may not be
//! copied, modified, or distributed except according to those terms.
//!
//! Every function of every module is here, with `#[derive_frule]`: the objectives, and the
//! crate's own `*_derivative` and `*_hessian` functions, whose rules are checked too (the
//! derivative of a `*_derivative` against the crate's Hessian, of a `*_hessian` against
//! central differences of the crate's). Only the crate's
//! `#[cfg(test)]` modules are left out; `rustfmt` leaves the copies as the crate formats
//! them.

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod ackley {
    //! # Ackley test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1, x_2, ..., x_n) = -a\exp\left(-b\sqrt{\frac{1}{n}\sum_{i=1}^{n}x_i^2}\right) -
    //! \exp\left(\frac{1}{n}\sum_{i=1}^{n}\cos(cx_i)\right) + a + \exp(1)
    //! $$
    //!
    //! where $x_i \in [-32.768,\\,32.768]$ and usually $a = 20$, $b = 0.2$ and $c = 2\pi$.
    //!
    //! The global minimum is at $f(x_1, x_2, ..., x_n) = f(0, 0, ..., 0) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};
    use std::f64::consts::PI;
    use std::iter::Sum;

    /// Ackley test function
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1, x_2, ..., x_n) = -a\exp\left(-b\sqrt{\frac{1}{n}\sum_{i=1}^{n}x_i^2}\right) -
    /// \exp\left(\frac{1}{n}\sum_{i=1}^{n}\cos(cx_i)\right) + a + \exp(1)
    /// $$
    ///
    /// where $x_i \in [-32.768,\\,32.768]$ and usually $a = 20$, $b = 0.2$ and $c = 2\pi$.
    ///
    /// The global minimum is at $f(x_1, x_2, ..., x_n) = f(0, 0, ..., 0) = 0$.
    #[derive_frule]
    pub fn ackley<T>(param: &[T]) -> T
    where
        T: Float + FromPrimitive + Sum,
    {
        ackley_abc(
            param,
            T::from_f64(20.0).unwrap(),
            T::from_f64(0.2).unwrap(),
            T::from_f64(2.0 * PI).unwrap(),
        )
    }

    /// Ackley test function
    ///
    /// The same as [`ackley`]; however, it allows to set the parameters $a$, $b$ and $c$.
    #[derive_frule]
    pub fn ackley_abc<T>(param: &[T], a: T, b: T, c: T) -> T
    where
        T: Float + FromPrimitive + Sum,
    {
        let num1 = T::from_f64(1.0).unwrap();
        let n = T::from_usize(param.len()).unwrap();
        -a * (-b * ((num1 / n) * param.iter().map(|x| x.powi(2)).sum()).sqrt()).exp()
            - ((num1 / n) * param.iter().map(|x| (c * *x).cos()).sum()).exp()
            + a
            + num1.exp()
    }

    /// Derivative of Ackley test function
    ///
    /// Calls [`ackley_abc_derivative`] with $a = 20$, $b = 0.2$ and $c = 2\pi$.
    #[derive_frule]
    pub fn ackley_derivative<T>(param: &[T]) -> Vec<T>
    where
        T: Float + FromPrimitive + Sum,
    {
        ackley_abc_derivative(
            param,
            T::from_f64(20.0).unwrap(),
            T::from_f64(0.2).unwrap(),
            T::from_f64(2.0 * PI).unwrap(),
        )
    }

    /// Derivative of Ackley test function
    ///
    /// The same as [`ackley_derivative`]; however, it allows to set the parameters $a$, $b$ and $c$.
    #[derive_frule]
    pub fn ackley_abc_derivative<T>(param: &[T], a: T, b: T, c: T) -> Vec<T>
    where
        T: Float + FromPrimitive + Sum,
    {
        let d = T::from_usize(param.len()).unwrap();
        let n0 = T::from_f64(0.0).unwrap();
        let eps = T::epsilon();

        let norm = param.iter().map(|x| x.powi(2)).sum::<T>().sqrt();

        let f1 = (c * (param.iter().map(|&x| (c * x).cos()).sum::<T>() / d).exp()) / d;
        let f2 = if norm <= eps {
            n0
        } else {
            (a * b * (-b * norm / d.sqrt()).exp()) / (d.sqrt() * norm)
        };

        param
            .iter()
            .map(|&x| ((c * x).sin() * f1) + x * f2)
            .collect()
    }

    /// Derivative of Ackley test function
    ///
    /// Calls [`ackley_abc_derivative_const`] with $a = 20$, $b = 0.2$ and $c = 2\pi$.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn ackley_derivative_const<const N: usize, T>(param: &[T; N]) -> [T; N]
    where
        T: Float + FromPrimitive + Sum,
    {
        ackley_abc_derivative_const(
            param,
            T::from_f64(20.0).unwrap(),
            T::from_f64(0.2).unwrap(),
            T::from_f64(2.0 * PI).unwrap(),
        )
    }

    /// Derivative of Ackley test function
    ///
    /// The same as [`ackley_derivative`]; however, it allows to set the parameters $a$, $b$ and $c$.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn ackley_abc_derivative_const<const N: usize, T>(param: &[T; N], a: T, b: T, c: T) -> [T; N]
    where
        T: Float + FromPrimitive + Sum,
    {
        let d = T::from_usize(param.len()).unwrap();
        let n0 = T::from_f64(0.0).unwrap();
        let eps = T::epsilon();

        let norm = param.iter().map(|x| x.powi(2)).sum::<T>().sqrt();

        let f1 = (c * (param.iter().map(|&x| (c * x).cos()).sum::<T>() / d).exp()) / d;
        let f2 = if norm <= eps {
            n0
        } else {
            (a * b * (-b * norm / d.sqrt()).exp()) / (d.sqrt() * norm)
        };

        let mut out = [n0; N];
        param
            .iter()
            .zip(out.iter_mut())
            .map(|(&x, o)| *o = ((c * x).sin() * f1) + x * f2)
            .count();

        out
    }

    /// Hessian of Ackley test function
    ///
    /// Calls [`ackley_abc_hessian`] with $a = 20$, $b = 0.2$ and $c = 2\pi$.
    #[derive_frule]
    pub fn ackley_hessian<T>(param: &[T]) -> Vec<Vec<T>>
    where
        T: Float + FromPrimitive + Sum + std::fmt::Debug,
    {
        ackley_abc_hessian(
            param,
            T::from_f64(20.0).unwrap(),
            T::from_f64(0.2).unwrap(),
            T::from_f64(2.0 * PI).unwrap(),
        )
    }

    /// Hessian of Ackley test function
    ///
    /// The same as [`ackley_hessian`]; however, it allows to set the parameters $a$, $b$ and $c$.
    #[derive_frule]
    pub fn ackley_abc_hessian<T>(param: &[T], a: T, b: T, c: T) -> Vec<Vec<T>>
    where
        T: Float + FromPrimitive + Sum,
    {
        let du = param.len();
        assert!(du >= 1);
        let d = T::from_usize(du).unwrap();
        let n0 = T::from_f64(0.0).unwrap();
        let eps = T::epsilon();

        // rename for convenience
        let x = param;

        let sqsum = param.iter().map(|x| x.powi(2)).sum::<T>();
        let norm = sqsum.sqrt();
        let nexp = (-b * norm / d.sqrt()).exp();

        let f1 = -c.powi(2) * (x.iter().map(|&x| (c * x).cos()).sum::<T>() / d).exp();
        let f2 = (a * b.powi(2) * nexp) / (d * sqsum);
        let f3 = (a * b * nexp) / (d.sqrt() * norm.powi(3));
        let f4 = (a * b * nexp) / (d.sqrt() * norm);
        let f5 = (a * b.powi(2) * nexp) / (d * sqsum);
        let f6 = (a * b * nexp) / (d.sqrt() * norm.powi(3));

        let mut out = vec![vec![n0; du]; du];
        for i in 0..du {
            for j in 0..du {
                if i == j {
                    out[i][j] = (c * x[i]).sin().powi(2) * f1 / d.powi(2)
                        - (c * x[i]).cos() * f1 / d
                        - if norm <= eps {
                            n0
                        } else {
                            x[i].powi(2) * (f2 + f3) - f4
                        };
                } else {
                    let tmp = (c * x[i]).sin() * (c * x[j]).sin() * f1 / d.powi(2)
                        + x[i] * x[j] * if norm <= eps { n0 } else { -f5 - f6 };
                    out[i][j] = tmp;
                    out[j][i] = tmp;
                };
            }
        }

        out
    }

    /// Hessian of Ackley test function
    ///
    /// Calls [`ackley_abc_hessian`] with $a = 20$, $b = 0.2$ and $c = 2\pi$.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn ackley_hessian_const<const N: usize, T>(param: &[T; N]) -> [[T; N]; N]
    where
        T: Float + FromPrimitive + Sum,
    {
        ackley_abc_hessian_const(
            param,
            T::from_f64(20.0).unwrap(),
            T::from_f64(0.2).unwrap(),
            T::from_f64(2.0 * PI).unwrap(),
        )
    }

    /// Hessian of Ackley test function
    ///
    /// The same as [`ackley_hessian`]; however, it allows to set the parameters $a$, $b$ and $c$.
    #[derive_frule]
    pub fn ackley_abc_hessian_const<const N: usize, T>(param: &[T; N], a: T, b: T, c: T) -> [[T; N]; N]
    where
        T: Float + FromPrimitive + Sum,
    {
        assert!(N >= 1);
        let d = T::from_usize(N).unwrap();
        let n0 = T::from_f64(0.0).unwrap();
        let eps = T::epsilon();

        // rename for convenience
        let x = param;

        let sqsum = param.iter().map(|x| x.powi(2)).sum::<T>();
        let norm = sqsum.sqrt();
        let nexp = (-b * norm / d.sqrt()).exp();

        let f1 = -c.powi(2) * (x.iter().map(|&x| (c * x).cos()).sum::<T>() / d).exp();
        let f2 = (a * b.powi(2) * nexp) / (d * sqsum);
        let f3 = (a * b * nexp) / (d.sqrt() * norm.powi(3));
        let f4 = (a * b * nexp) / (d.sqrt() * norm);
        let f5 = (a * b.powi(2) * nexp) / (d * sqsum);
        let f6 = (a * b * nexp) / (d.sqrt() * norm.powi(3));

        let mut out = [[n0; N]; N];
        for i in 0..N {
            for j in 0..N {
                if i == j {
                    out[i][j] = (c * x[i]).sin().powi(2) * f1 / d.powi(2)
                        - (c * x[i]).cos() * f1 / d
                        - if norm <= eps {
                            n0
                        } else {
                            x[i].powi(2) * (f2 + f3) - f4
                        };
                } else {
                    let tmp = (c * x[i]).sin() * (c * x[j]).sin() * f1 / d.powi(2)
                        + x[i] * x[j] * if norm <= eps { n0 } else { -f5 - f6 };
                    out[i][j] = tmp;
                    out[j][i] = tmp;
                };
            }
        }

        out
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod beale {
    //! # Beale test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1, x_2) = (1.5 - x_1 + x_1 x_2)^2 + (2.25 - x_1 + x_1 x_2^2)^2 +
    //!               (2.625 - x_1 + x_1 x_2^3)^2
    //! $$
    //!
    //! where $x_i \in [-4.5,\\,4.5]$.
    //!
    //! The global minimum is at $f(x_1, x_2) = f(3, 0.5) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Beale test function
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1, x_2) = (1.5 - x_1 + x_1 x_2)^2 + (2.25 - x_1 + x_1 x_2^2)^2 +
    ///               (2.625 - x_1 + x_1 x_2^3)^2
    /// $$
    ///
    /// where $x_i \in [-4.5,\\,4.5]$.
    ///
    /// The global minimum is at $f(x_1, x_2) = f(3, 0.5) = 0$.
    #[derive_frule]
    pub fn beale<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;
        (T::from_f64(1.5).unwrap() - x1 + x1 * x2).powi(2)
            + (T::from_f64(2.25).unwrap() - x1 + x1 * (x2.powi(2))).powi(2)
            + (T::from_f64(2.625).unwrap() - x1 + x1 * (x2.powi(3))).powi(2)
    }

    /// Derivative of Beale test function
    #[derive_frule]
    pub fn beale_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let n0_5 = T::from_f64(0.5).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        let n1_5 = T::from_f64(1.5).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n2_625 = T::from_f64(2.625).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n4_5 = T::from_f64(4.5).unwrap();
        let n5_25 = T::from_f64(5.25).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let n12_75 = T::from_f64(12.75).unwrap();

        let [x1, x2] = *param;

        let x2p2 = x2.powi(2);
        let x2p3 = x2.powi(3);
        let x2p4 = x2.powi(4);
        let x2p5 = x2.powi(5);
        let x2p6 = x2.powi(6);

        [
            n5_25 * x2p3
                + n4_5 * x2p2
                + n3 * x2
                + n2 * x1 * (x2p6 + x2p4 - n2 * x2p3 - x2p2 - n2 * x2 + n3)
                - n12_75,
            n6 * x1
                * (n2_625 * x2p2
                    + n1_5 * x2
                    + x1 * (x2p5 + (n2 / n3) * x2p3 - x2p2 - (n1 / n3) * (x2 + n1))
                    + n0_5),
        ]
    }

    /// Hessian of Beale test function
    #[derive_frule]
    pub fn beale_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();
        let n9 = T::from_f64(9.0).unwrap();
        let n12 = T::from_f64(12.0).unwrap();
        let n15_75 = T::from_f64(15.75).unwrap();
        let n30 = T::from_f64(30.0).unwrap();
        let n31_5 = T::from_f64(31.5).unwrap();

        let [x1, x2] = *param;

        let x1p2 = x1.powi(2);
        let x2p2 = x2.powi(2);
        let x2p3 = x2.powi(3);
        let x2p4 = x2.powi(4);
        let x2p5 = x2.powi(5);
        let x2p6 = x2.powi(6);

        let offdiag = n12 * x1 * x2p5 + n8 * x1 * x2p3 - n12 * x1 * x2p2 + n15_75 * x2p2 - n4 * x1 * x2
            + n9 * x2
            - n4 * x1
            + n3;

        [
            [
                n2 * (x2p6 + x2p4 - n2 * x2p3 - x2p2 - n2 * x2 + n3),
                offdiag,
            ],
            [
                offdiag,
                n30 * x1p2 * x2p4 + n12 * x1p2 * x2p2 - n12 * x1p2 * x2 + n31_5 * x1 * x2 - n2 * x1p2
                    + n9 * x1,
            ],
        ]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod booth {
    //! # Booth test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1, x_2) = (x_1 + 2x_2 - 7)^2 + (2x_1 + x_2 - 5)^2
    //! $$
    //!
    //! where $x_i \in [-10,\\,10]$.
    //!
    //! The global minimum is at $f(x_1, x_2) = f(1, 3) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Booth test function
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1, x_2) = (x_1 + 2x_2 - 7)^2 + (2x_1 + x_2 - 5)^2
    /// $$
    ///
    /// where $x_i \in [-10,\\,10]$.
    ///
    /// The global minimum is at $f(x_1, x_2) = f(1, 3) = 0$.
    #[derive_frule]
    pub fn booth<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let n2 = T::from_f64(2.0).unwrap();
        let n5 = T::from_f64(5.0).unwrap();
        let n7 = T::from_f64(7.0).unwrap();

        let [x1, x2] = *param;
        (x1 + n2 * x2 - n7).powi(2) + (n2 * x1 + x2 - n5).powi(2)
    }

    /// Derivative of Booth test function
    #[derive_frule]
    pub fn booth_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let n8 = T::from_f64(8.0).unwrap();
        let n10 = T::from_f64(10.0).unwrap();
        let n34 = T::from_f64(34.0).unwrap();
        let n38 = T::from_f64(38.0).unwrap();

        let [x1, x2] = *param;

        [n10 * x1 + n8 * x2 - n34, n8 * x1 + n10 * x2 - n38]
    }

    /// Hessian of Booth test function
    ///
    /// Returns $\left(\begin{matrix}10 & 8\\\\8 & 10\end{matrix}\right)$ for every input.
    #[derive_frule]
    pub fn booth_hessian<T>(_param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let n8 = T::from_f64(8.0).unwrap();
        let n10 = T::from_f64(10.0).unwrap();

        [[n10, n8], [n8, n10]]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod bukin {
    //! # Bukin test function No. 6
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1, x_2) = 100\sqrt{\left|x_2 - 0.01x_1^2\right|} + 0.01\left|x_1 + 10\right|
    //! $$
    //!
    //! where $x_1 \in [-15,\\,-5]$ and $x_2 \in [-3,\\,3]$.
    //!
    //! The global minimum is at $f(x_1, x_2) = f(-10, 1) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Bukin test function No. 6
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1, x_2) = 100\sqrt{\left|x_2 - 0.01x_1^2\right|} + 0.01\left|x_1 + 10\right|
    /// $$
    ///
    /// where $x_1 \in [-15,\\,-5]$ and $x_2 \in [-3,\\,3]$.
    ///
    /// The global minimum is at $f(x_1, x_2) = f(-10, 1) = 0$.
    #[derive_frule]
    pub fn bukin_n6<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;
        let n001 = T::from_f64(0.01).unwrap();
        let n10 = T::from_f64(10.0).unwrap();
        let n100 = T::from_f64(100.0).unwrap();
        n100 * (x2 - n001 * x1.powi(2)).abs().sqrt() + n001 * (x1 + n10).abs()
    }

    /// Derivative of Bukin test function No. 6
    #[derive_frule]
    pub fn bukin_n6_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n0 = T::from_f64(0.0).unwrap();
        let n0_01 = T::from_f64(0.01).unwrap();
        let n10 = T::from_f64(10.0).unwrap();
        let n50 = T::from_f64(50.0).unwrap();
        let eps = T::epsilon();

        let denom = (x2 - n0_01 * x1.powi(2)).abs().powi(3).sqrt();
        let tmp = x2 - n0_01 * x1.powi(2);

        if denom.abs() <= eps {
            // Deriviative is actually not defined at optimum. Therefore, as soon as we get close,
            // we'll set the derivative to 0
            [n0, n0]
        } else {
            [
                n0_01 * (x1 + n10).signum() - x1 * tmp / denom,
                n50 * tmp / denom,
            ]
        }
    }

    /// Hessian of Bukin test function No. 6
    #[derive_frule]
    pub fn bukin_n6_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n0 = T::from_f64(0.0).unwrap();
        let n0_01 = T::from_f64(0.01).unwrap();
        let n0_02 = T::from_f64(0.02).unwrap();
        let n0_0001 = T::from_f64(0.0001).unwrap();
        let n0_5 = T::from_f64(0.5).unwrap();
        let n25 = T::from_f64(25.0).unwrap();
        let eps = T::epsilon() * T::from_f64(1e-4).unwrap();

        let tmp = x2 - n0_01 * x1.powi(2);
        let denom = tmp.abs().powi(7).sqrt();

        if denom.abs() <= eps {
            // Hessian is actually not defined at optimum. Therefore, as soon as we get close,
            // we'll set the Hessian to 0
            [[n0, n0], [n0, n0]]
        } else {
            let offdiag = n0_5 * x1 * tmp.powi(2) / denom;
            [
                [
                    x2 * (-n0_0001 * x1.powi(4) + n0_02 * x2 * x1.powi(2) - x2.powi(2)) / denom,
                    offdiag,
                ],
                [offdiag, -n25 * tmp.powi(2) / denom],
            ]
        }
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod crossintray {
    //! # Cross-in-tray test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1, x_2) = -0.0001\left(\left|\sin(x_1)\sin(x_2)
    //!               \exp\left(\left| 100 - \frac{\sqrt{x_1^2+x_2^2}}{\pi} \right|\right)\right| +
    //!               1\right)^{0.1}
    //! $$
    //!
    //! where $x_i \in [-10,\\,10]$.
    //!
    //! The global minima are at
    //!  * $f(x_1, x_2) = f(1.34941, 1.34941) = -2.06261$.
    //!  * $f(x_1, x_2) = f(1.34941, -1.34941) = -2.06261$.
    //!  * $f(x_1, x_2) = f(-1.34941, 1.34941) = -2.06261$.
    //!  * $f(x_1, x_2) = f(-1.34941, -1.34941) = -2.06261$.

    use fwdad::derive_frule;

    use std::f64::consts::PI;

    use num::{Float, FromPrimitive};

    /// Cross-in-tray test function
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1, x_2) = -0.0001\left(\left|\sin(x_1)\sin(x_2)
    ///               \exp\left(\left| 100 - \frac{\sqrt{x_1^2+x_2^2}}{\pi} \right|\right)\right| +
    ///               1\right)^{0.1}
    /// $$
    ///
    /// where $x_i \in [-10,\\,10]$.
    ///
    /// The global minima are at
    ///  * $f(x_1, x_2) = f(1.34941, 1.34941) = -2.06261$.
    ///  * $f(x_1, x_2) = f(1.34941, -1.34941) = -2.06261$.
    ///  * $f(x_1, x_2) = f(-1.34941, 1.34941) = -2.06261$.
    ///  * $f(x_1, x_2) = f(-1.34941, -1.34941) = -2.06261$.
    ///
    /// Note: Even if the input parameters are [`f32`], internal computations will be performed in [`f64`].
    #[derive_frule]
    pub fn cross_in_tray<T>(param: &[T; 2]) -> T
    where
        T: Float + Into<f64> + FromPrimitive,
    {
        let x1: f64 = param[0].into();
        let x2: f64 = param[1].into();
        T::from_f64(
            -0.0001
                * ((x1.sin() * x2.sin() * (100.0 - (x1.powi(2) + x2.powi(2)).sqrt() / PI).abs().exp())
                    .abs()
                    + 1.0)
                    .powf(0.1),
        )
        .unwrap()
    }

    /// Derivative of Cross-in-tray test function
    ///
    /// Note: Even if the input parameters are [`f32`], internal computations will be performed in [`f64`].
    #[derive_frule]
    pub fn cross_in_tray_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + Into<f64> + FromPrimitive,
    {
        let x1: f64 = param[0].into();
        let x2: f64 = param[1].into();

        let a = (x1.powi(2) + x2.powi(2)).sqrt();
        let b = a / PI - 100.0;
        let c = b.abs().exp();
        let x2sin = x2.sin();
        let x2sinabs = x2sin.abs();
        let x1sin = x1.sin();
        let x1sinabs = x1sin.abs();
        let x1cos = x1.cos();
        let x2cos = x2.cos();
        let denom = PI * a * b.abs();

        [
            T::from_f64({
                -1e-5
                    * (if denom.abs() <= f64::EPSILON {
                        0.0
                    } else {
                        (x2sinabs * x1 * b * c * x1sinabs) / denom
                    } + if x1sinabs <= f64::EPSILON {
                        0.0
                    } else {
                        (x2sinabs * x1sin * x1cos * c) / x1sinabs
                    })
                    / (x2sinabs * x1sinabs * c + 1.0).powf(0.9)
            })
            .unwrap(),
            T::from_f64({
                -1e-5
                    * (if denom.abs() <= f64::EPSILON {
                        0.0
                    } else {
                        (x2sinabs * x2 * b * c * x1sinabs) / denom
                    } + if x2sinabs <= f64::EPSILON {
                        0.0
                    } else {
                        (x1sinabs * x2sin * x2cos * c) / x2sinabs
                    })
                    / (x2sinabs * x1sinabs * c + 1.0).powf(0.9)
            })
            .unwrap(),
        ]
    }

    /// Hessian of Cross-in-tray test function
    ///
    /// This function may return [NAN][f64::NAN] or [INFINITY][f64::INFINITY].
    ///
    /// Note: Even if the input parameters are [`f32`], internal computations will be performed in [`f64`].
    #[derive_frule]
    pub fn cross_in_tray_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + Into<f64> + FromPrimitive,
    {
        let x1: f64 = param[0].into();
        let x2: f64 = param[1].into();

        let a = (x1.powi(2) + x2.powi(2)).sqrt();
        let b = a / PI - 100.0;
        let c = b.abs().exp();
        let x2sin = x2.sin();
        let x2sinabs = x2sin.abs();
        let x1sin = x1.sin();
        let x1sinabs = x1sin.abs();
        let x1cos = x1.cos();
        let x2cos = x2.cos();
        let denom = PI * a * b.abs();
        let d = x1sinabs * x2sinabs * b * c / denom;

        let h1 = T::from_f64({
            9.0 * 1e-6 * (d * x1 + (x1sin * x1cos * x2sinabs * c) / x1sinabs).powi(2)
                / (x1sinabs * x2sinabs * c + 1.0).powf(1.9)
                - 1e-5
                    * (d - x1.powi(2)
                        * ((x1sinabs * x2sinabs * b * c) / (PI * a.powi(3) * b.abs())
                            - (x1sinabs * x2sinabs * c) / (PI.powi(2) * (x1.powi(2) + x2.powi(2))))
                        - x2sinabs * x1sinabs * c
                        + (2.0 * x1sin * x1cos * x2sinabs * x1 * b * c) / (denom * x1sinabs))
                    / (x1sinabs * x2sinabs * c + 1.0).powf(0.9)
        })
        .unwrap();

        let h2 = T::from_f64({
            9.0 * 1e-6 * (d * x2 + (x2sin * x2cos * x1sinabs * c) / x2sinabs).powi(2)
                / (x1sinabs * x2sinabs * c + 1.0).powf(1.9)
                - 1e-5
                    * (d - x2.powi(2)
                        * ((x1sinabs * x2sinabs * b * c) / (PI * a.powi(3) * b.abs())
                            - (x1sinabs * x2sinabs * c) / (PI.powi(2) * (x1.powi(2) + x2.powi(2))))
                        - x2sinabs * x1sinabs * c
                        + (2.0 * x2sin * x2cos * x1sinabs * x2 * b * c) / (denom * x2sinabs))
                    / (x1sinabs * x2sinabs * c + 1.0).powf(0.9)
        })
        .unwrap();

        let offdiag = T::from_f64({
            (9.0 * 1e-6
                * (x1 * d + (x1sin * x1cos * x2sinabs * c) / x1sinabs)
                * (x2 * d + (x2sin * x2cos * x1sinabs * c) / x2sinabs))
                / (x1sinabs * x2sinabs * c + 1.0).powf(1.9)
                - ((x2 * x1sin * x1cos * x2sinabs * b * c) / (PI * x1sinabs * a * b.abs())
                    - (x1 * x2 * x1sinabs * x2sinabs * b * c) / (PI * a.powi(3) * b.abs())
                    + (x1 * x2 * x1sinabs * x2sinabs * c) / (PI.powi(2) * (x1.powi(2) + x2.powi(2)))
                    + (x1 * x2sin * x2cos * x1sinabs * b * c) / (PI * a * b.abs() * x2sinabs)
                    + (x1sin * x1cos * x2sin * x2cos * c) / (x1sinabs * x2sinabs))
                    / (100_000.0 * (x1sinabs * x2sinabs * c + 1.0).powf(0.9))
        })
        .unwrap();

        [[h1, offdiag], [offdiag, h2]]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod easom {
    //! # Easom test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1, x_2) = - \cos(x_1)\cos(x_2)\exp\left(-(x_1 - \pi)^2 - (x_2 - \pi)^2\right)
    //! $$
    //!
    //! where $x_i \in [-100,\\,100]$.
    //!
    //! The global minimum is at $f(x_1, x_2) = f(\pi, \pi) = -1$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};
    use std::f64::consts::PI;

    /// Easom test function
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1, x_2) = - \cos(x_1)\cos(x_2)\exp\left(-(x_1 - \pi)^2 - (x_2 - \pi)^2\right)
    /// $$
    ///
    /// where $x_i \in [-100,\\,100]$.
    ///
    /// The global minimum is at $f(x_1, x_2) = f(\pi, \pi) = -1$.
    #[derive_frule]
    pub fn easom<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;
        let pi = T::from_f64(PI).unwrap();
        -x1.cos() * x2.cos() * (-(x1 - pi).powi(2) - (x2 - pi).powi(2)).exp()
    }

    /// Derivative of Easom test function
    #[derive_frule]
    pub fn easom_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let pi = T::from_f64(PI).unwrap();
        let n2 = T::from_f64(2.0).unwrap();

        let factor = (-(x1 - pi).powi(2) - (x2 - pi).powi(2)).exp();

        [
            factor * x2.cos() * (x1.sin() + n2 * x1 * x1.cos() - n2 * pi * x1.cos()),
            factor * x1.cos() * (x2.sin() + n2 * x2 * x2.cos() - n2 * pi * x2.cos()),
        ]
    }

    /// Hessian of Easom test function
    #[derive_frule]
    pub fn easom_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let pi = T::from_f64(PI).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();

        let x1cos = x1.cos();
        let x1sin = x1.sin();
        let x2cos = x2.cos();
        let x2sin = x2.sin();
        let factor = (-(x1 - pi).powi(2) - (x2 - pi).powi(2)).exp();
        let offdiag = factor * (x1sin + n2 * (x1 - pi) * x1cos) * (n2 * (pi - x2) * x2cos - x2sin);

        [
            [
                factor
                    * x2cos
                    * (n4 * (pi - x1) * x1sin
                        + (-n4 * x1.powi(2) + n8 * pi * x1 - n4 * pi.powi(2) + n3) * x1cos),
                offdiag,
            ],
            [
                offdiag,
                factor
                    * x1cos
                    * (n4 * (pi - x2) * x2sin
                        + (-n4 * x2.powi(2) + n8 * pi * x2 - n4 * pi.powi(2) + n3) * x2cos),
            ],
        ]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod eggholder {
    //! # Eggholder test function.
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1, x_2) = -(x_2 + 47) \cdot \sin\left( \sqrt{\left| x_2 + \frac{x_1}{2} + 47 \right|} \right) -
    //!                x_1 \cdot \sin\left(\sqrt{\left|x_1 - (x_2 + 47)\right|}\right)
    //! $$
    //!
    //! where $x_i \in [-512,\\,512]$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2) = f(512,\\,404.2319) = -959.6407$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Eggholder test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1, x_2) = -(x_2 + 47) \cdot \sin\left( \sqrt{\left| x_2 + \frac{x_1}{2} + 47 \right|} \right) -
    ///                x_1 \cdot \sin\left(\sqrt{\left|x_1 - (x_2 + 47)\right|}\right)
    /// $$
    ///
    /// where $x_i \in [-512,\\,512]$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2) = f(512,\\,404.2319) = -959.6407$.
    #[derive_frule]
    pub fn eggholder<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;
        let n47 = T::from_f64(47.0).unwrap();
        -(x2 + n47)
            * (x2 + x1 / T::from_f64(2.0).unwrap() + n47)
                .abs()
                .sqrt()
                .sin()
            - x1 * (x1 - (x2 + n47)).abs().sqrt().sin()
    }

    /// Derivative of Eggholder test function.
    #[derive_frule]
    pub fn eggholder_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let eps = T::epsilon();
        let n0 = T::from_f64(0.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n47 = T::from_f64(47.0).unwrap();

        let x1mx2m47 = x1 - x2 - n47;
        let x1mx2m47abs = x1mx2m47.abs();
        let x1mx2m47abssqrt = x1mx2m47abs.sqrt();
        let x1mx2m47abssqrtsin = x1mx2m47abssqrt.sin();
        let x1mx2m47abssqrtcos = x1mx2m47abssqrt.cos();
        let x1hpx2p47 = x1 / n2 + x2 + n47;
        let x1hpx2p47abs = x1hpx2p47.abs();
        let x1hpx2p47abssqrt = x1hpx2p47abs.sqrt();
        let x1hpx2p47abssqrtsin = x1hpx2p47abssqrt.sin();
        let x1hpx2p47abssqrtcos = x1hpx2p47abssqrt.cos();
        let x2mx1p47 = x2 - x1 + n47;
        let x2mx1p47abs = x2mx1p47.abs();
        let x2mx1p47abssqrt = x2mx1p47abs.sqrt();
        let x2mx1p47abssqrtcos = x2mx1p47abssqrt.cos();

        [
            -x1mx2m47abssqrtsin
                - if x1mx2m47abs <= eps {
                    n0
                } else {
                    (x1 * x1mx2m47 * x1mx2m47abssqrtcos) / (n2 * x1mx2m47abssqrt.powi(3))
                }
                - if x1hpx2p47abs <= eps {
                    n0
                } else {
                    ((x2 + n47) * x1hpx2p47abssqrtcos * x1hpx2p47) / (n4 * x1hpx2p47abssqrt.powi(3))
                },
            -x1hpx2p47abssqrtsin
                - if x1hpx2p47abs <= eps {
                    n0
                } else {
                    ((x2 + n47) * x1hpx2p47 * x1hpx2p47abssqrtcos) / (n2 * x1hpx2p47abssqrt.powi(3))
                }
                - if x2mx1p47abs <= eps {
                    n0
                } else {
                    (x1 * x2mx1p47 * x2mx1p47abssqrtcos) / (n2 * x2mx1p47abssqrt.powi(3))
                },
        ]
    }

    /// Hessian of Eggholder test function.
    ///
    /// This function can return [`NaN`](num::Float::nan)-valued elements under the following conditions:
    ///
    /// * $|x_1 - x_2 - 47| <= \epsilon$ and $x_1 \neq 0$
    /// * $|x_2 - x_1 + 47| <= \epsilon$ and $x_1 \neq 0$
    /// * $\left|\frac{x_1}{2} + x_2 + 47\right| <= \epsilon$ and $|x_2 + 47| \neq 0$
    ///
    /// where $\epsilon$ is `T`'s [epsilon](num::Float::epsilon).
    #[derive_frule]
    pub fn eggholder_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let eps = T::epsilon();
        let n0 = T::from_f64(0.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();
        let n16 = T::from_f64(16.0).unwrap();
        let n47 = T::from_f64(47.0).unwrap();

        let x1mx2m47 = x1 - x2 - n47;
        let x1mx2m47abs = x1mx2m47.abs();
        let x1mx2m47abssqrt = x1mx2m47abs.sqrt();
        let x1mx2m47abssqrtsin = x1mx2m47abssqrt.sin();
        let x1mx2m47abssqrtcos = x1mx2m47abssqrt.cos();
        let x1hpx2p47 = x1 / n2 + x2 + n47;
        let x1hpx2p47abs = x1hpx2p47.abs();
        let x1hpx2p47abssqrt = x1hpx2p47abs.sqrt();
        let x1hpx2p47abssqrtsin = x1hpx2p47abssqrt.sin();
        let x1hpx2p47abssqrtcos = x1hpx2p47abssqrt.cos();
        let x2mx1p47 = x2 - x1 + n47;
        let x2mx1p47abs = x2mx1p47.abs();
        let x2mx1p47abssqrt = x2mx1p47abs.sqrt();
        let x2mx1p47abssqrtcos = x2mx1p47abssqrt.cos();
        let x2mx1p47abssqrtsin = x2mx1p47abssqrt.sin();

        let a = if x1mx2m47abs <= eps {
            n0
        } else {
            (x1 * x1mx2m47abssqrtsin) / (n4 * x1mx2m47abs)
                - (x1mx2m47 * x1mx2m47abssqrtcos) / (x1mx2m47abssqrt.powi(3))
                + (n3 * x1 * x1mx2m47.powi(2) * x1mx2m47abssqrtcos) / (n4 * x1mx2m47abssqrt.powi(7))
        } + if x1mx2m47abs <= eps && x1.abs() <= eps {
            n0
        } else {
            -(x1 * x1mx2m47abssqrtcos) / (n2 * x1mx2m47abssqrt.powi(3))
        } + if x1hpx2p47abs <= eps {
            n0
        } else {
            (n3 * (x2 + n47) * x1hpx2p47abssqrtcos * x1hpx2p47.powi(2))
                / (n16 * x1hpx2p47abssqrt.powi(7))
                + ((x2 + n47) * x1hpx2p47abssqrtsin) / (n16 * x1hpx2p47abs)
        } - if x1hpx2p47abs <= eps && (x1 + n47).abs() <= eps {
            n0
        } else {
            ((x2 + n47) * x1hpx2p47abssqrtcos) / (n8 * x1hpx2p47abssqrt.powi(3))
        };

        let b = if x1hpx2p47abs <= eps {
            n0
        } else {
            ((x2 + n47) * x1hpx2p47abssqrtsin) / (n4 * x1hpx2p47abs)
                - (x1hpx2p47 * x1hpx2p47abssqrtcos) / (x1hpx2p47abssqrt.powi(3))
                + (n3 * (x2 + n47) * x1hpx2p47.powi(2) * x1hpx2p47abssqrtcos)
                    / (n4 * x1hpx2p47abssqrt.powi(7))
        } - if x1hpx2p47abs <= eps && (x2 + n47).abs() <= eps {
            n0
        } else {
            ((x2 + n47) * x1hpx2p47abssqrtcos) / (n2 * x1hpx2p47abssqrt.powi(3))
        } + if x2mx1p47abs <= eps {
            n0
        } else {
            (x1 * x2mx1p47abssqrtsin) / (n4 * x2mx1p47abs)
                + (n3 * x1 * x2mx1p47.powi(2) * x2mx1p47abssqrtcos) / (n4 * x2mx1p47abssqrt.powi(7))
        } - if x2mx1p47abs <= eps && x1.abs() <= eps {
            n0
        } else {
            (x1 * x2mx1p47abssqrtcos) / (n2 * x2mx1p47abssqrt.powi(3))
        };

        let offdiag = if x1hpx2p47abs <= eps {
            n0
        } else {
            ((x2 + n47) * x1hpx2p47abssqrtsin) / (n8 * x1hpx2p47abs)
                - (x1hpx2p47 * x1hpx2p47abssqrtcos) / (n4 * x1hpx2p47abssqrt.powi(3))
                + (n3 * (x2 + n47) * x1hpx2p47.powi(2) * x1hpx2p47abssqrtcos)
                    / (n8 * x1hpx2p47abssqrt.powi(7))
        } - if x1hpx2p47abs <= eps && (x2 + n47).abs() <= eps {
            n0
        } else {
            ((x2 + n47) * x1hpx2p47abssqrtcos) / (n4 * x1hpx2p47abssqrt.powi(3))
        } + if x2mx1p47abs <= eps {
            n0
        } else {
            -(x1 * x2mx1p47 * x2mx1p47abssqrtsin) / (n4 * x2mx1p47 * x2mx1p47abs)
                - (x2mx1p47 * x2mx1p47abssqrtcos) / (n2 * x2mx1p47abssqrt.powi(3))
                - (n3 * x1 * x2mx1p47.powi(2) * x2mx1p47abssqrtcos) / (n4 * x2mx1p47abssqrt.powi(7))
        } + if x2mx1p47abs <= eps && x1.abs() <= eps {
            n0
        } else {
            (x1 * x2mx1p47abssqrtcos) / (n2 * x2mx1p47abssqrt.powi(3))
        };

        [[a, offdiag], [offdiag, b]]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod goldsteinprice {
    //! # Goldstein-Price test function.
    //!
    //! Defined as
    //!
    //! $$
    //! \begin{aligned}
    //! f(x_1,\\,x_2) &= [1 + (x_1 + x_2 + 1)^2(19 - 14 x_1 + 3 x_1^2 - 14 x_2 + 6 x_1 x_2 + 3 x_2^2)] \\\\
    //!                &\times [30 + (2 x_1 - 3 x_2)^2(18 - 32 x_1 + 12 x_1^2 + 48 x_2 -
    //!                   36x_1 x_2 + 27 x_2^2) ]
    //! \end{aligned}
    //! $$
    //!
    //! where $x_i \in [-2,\\,2]$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2) = f(0,\\,-1) = 3$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Goldstein-Price test function.
    ///
    /// Defined as
    ///
    /// $$
    /// \begin{aligned}
    /// f(x_1,\\,x_2) &= [1 + (x_1 + x_2 + 1)^2(19 - 14 x_1 + 3 x_1^2 - 14 x_2 + 6 x_1 x_2 + 3 x_2^2)] \\\\
    ///                &\times [30 + (2 x_1 - 3 x_2)^2(18 - 32 x_1 + 12 x_1^2 + 48 x_2 -
    ///                   36x_1 x_2 + 27 x_2^2) ]
    /// \end{aligned}
    /// $$
    ///
    /// where $x_i \in [-2,\\,2]$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2) = f(0,\\,-1) = 3$.
    #[derive_frule]
    pub fn goldsteinprice<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;
        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let n12 = T::from_f64(12.0).unwrap();
        let n14 = T::from_f64(14.0).unwrap();
        let n18 = T::from_f64(18.0).unwrap();
        let n19 = T::from_f64(19.0).unwrap();
        let n27 = T::from_f64(27.0).unwrap();
        let n30 = T::from_f64(30.0).unwrap();
        let n32 = T::from_f64(32.0).unwrap();
        let n36 = T::from_f64(36.0).unwrap();
        let n48 = T::from_f64(48.0).unwrap();
        (n1 + (x1 + x2 + n1).powi(2)
            * (n19 - n14 * (x1 + x2) + n3 * (x1.powi(2) + x2.powi(2)) + n6 * x1 * x2))
            * (n30
                + (n2 * x1 - n3 * x2).powi(2)
                    * (n18 - n32 * x1 + n12 * x1.powi(2) + n48 * x2 - n36 * x1 * x2 + n27 * x2.powi(2)))
    }

    /// Derivative of Goldstein-Price test function.
    #[derive_frule]
    pub fn goldsteinprice_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let n12 = T::from_f64(12.0).unwrap();
        let n14 = T::from_f64(14.0).unwrap();
        let n18 = T::from_f64(18.0).unwrap();
        let n19 = T::from_f64(19.0).unwrap();
        let n24 = T::from_f64(24.0).unwrap();
        let n27 = T::from_f64(27.0).unwrap();
        let n30 = T::from_f64(30.0).unwrap();
        let n32 = T::from_f64(32.0).unwrap();
        let n36 = T::from_f64(36.0).unwrap();
        let n48 = T::from_f64(48.0).unwrap();
        let n54 = T::from_f64(54.0).unwrap();

        let x1s = x1.powi(2);
        let x2s = x2.powi(2);

        [
            (n2 * (x1 + x2 + n1) * (n3 * x1s + n6 * x2 * x1 - n14 * x1 + n3 * x2s - n14 * x2 + n19)
                + (x1 + x2 + n1).powi(2) * (n6 * x1 + n6 * x2 - n14))
                * ((n2 * x1 - n3 * x2).powi(2)
                    * (n12 * x1s - n36 * x2 * x1 - n32 * x1 + n27 * x2s + n48 * x2 + n18)
                    + n30)
                + ((x1 + x2 + n1).powi(2)
                    * (n3 * x1s + n6 * x2 * x1 - n14 * x1 + n3 * x2s - n14 * x2 + n19)
                    + n1)
                    * (n4
                        * (n2 * x1 - n3 * x2)
                        * (n12 * x1s - n36 * x2 * x1 - n32 * x1 + n27 * x2s + n48 * x2 + n18)
                        + (n2 * x1 - n3 * x2).powi(2) * (n24 * x1 - n36 * x2 - n32)),
            ((x2 + x1 + n1).powi(2) * (n3 * x2s + n6 * x1 * x2 - n14 * x2 + n3 * x1s - n14 * x1 + n19)
                + n1)
                * ((n2 * x1 - n3 * x2).powi(2) * (n54 * x2 - n36 * x1 + n48)
                    - n6 * (n2 * x1 - n3 * x2)
                        * (n27 * x2s - n36 * x1 * x2 + n48 * x2 + n12 * x1s - n32 * x1 + n18))
                + (n2
                    * (x2 + x1 + n1)
                    * (n3 * x2s + n6 * x1 * x2 - n14 * x2 + n3 * x1s - n14 * x1 + n19)
                    + (x2 + x1 + n1).powi(2) * (n6 * x2 + n6 * x1 - n14))
                    * ((n2 * x1 - n3 * x2).powi(2)
                        * (n27 * x2s - n36 * x1 * x2 + n48 * x2 + n12 * x1s - n32 * x1 + n18)
                        + n30),
        ]
    }

    /// Hessian of Goldstein-Price test function.
    #[derive_frule]
    pub fn goldsteinprice_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n840 = T::from_f64(840.0).unwrap();
        let n1296 = T::from_f64(1296.0).unwrap();
        let n2016 = T::from_f64(2016.0).unwrap();
        let n2520 = T::from_f64(2520.0).unwrap();
        let n2916 = T::from_f64(2916.0).unwrap();
        let n3360 = T::from_f64(3360.0).unwrap();
        let n4680 = T::from_f64(4680.0).unwrap();
        let n5184 = T::from_f64(5184.0).unwrap();
        let n5940 = T::from_f64(5940.0).unwrap();
        let n6120 = T::from_f64(6120.0).unwrap();
        let n6432 = T::from_f64(6432.0).unwrap();
        let n6804 = T::from_f64(6804.0).unwrap();
        let n7344 = T::from_f64(7344.0).unwrap();
        let n7440 = T::from_f64(7440.0).unwrap();
        let n7776 = T::from_f64(7776.0).unwrap();
        let n8064 = T::from_f64(8064.0).unwrap();
        let n10080 = T::from_f64(10080.0).unwrap();
        let n10740 = T::from_f64(10740.0).unwrap();
        let n11016 = T::from_f64(11016.0).unwrap();
        let n11160 = T::from_f64(11160.0).unwrap();
        let n11664 = T::from_f64(11664.0).unwrap();
        let n12096 = T::from_f64(12096.0).unwrap();
        let n14688 = T::from_f64(14688.0).unwrap();
        let n15552 = T::from_f64(15552.0).unwrap();
        let n15660 = T::from_f64(15660.0).unwrap();
        let n17352 = T::from_f64(17352.0).unwrap();
        let n17460 = T::from_f64(17460.0).unwrap();
        let n17496 = T::from_f64(17496.0).unwrap();
        let n18360 = T::from_f64(18360.0).unwrap();
        let n19440 = T::from_f64(19440.0).unwrap();
        let n19680 = T::from_f64(19680.0).unwrap();
        let n20880 = T::from_f64(20880.0).unwrap();
        let n23760 = T::from_f64(23760.0).unwrap();
        let n24480 = T::from_f64(24480.0).unwrap();
        let n25920 = T::from_f64(25920.0).unwrap();
        let n26880 = T::from_f64(26880.0).unwrap();
        let n27216 = T::from_f64(27216.0).unwrap();
        let n27540 = T::from_f64(27540.0).unwrap();
        let n28560 = T::from_f64(28560.0).unwrap();
        let n29448 = T::from_f64(29448.0).unwrap();
        let n30240 = T::from_f64(30240.0).unwrap();
        let n30720 = T::from_f64(30720.0).unwrap();
        let n31104 = T::from_f64(31104.0).unwrap();
        let n32256 = T::from_f64(32256.0).unwrap();
        let n34704 = T::from_f64(34704.0).unwrap();
        let n36720 = T::from_f64(36720.0).unwrap();
        let n38592 = T::from_f64(38592.0).unwrap();
        let n38880 = T::from_f64(38880.0).unwrap();
        let n40320 = T::from_f64(40320.0).unwrap();
        let n40824 = T::from_f64(40824.0).unwrap();
        let n41760 = T::from_f64(41760.0).unwrap();
        let n42960 = T::from_f64(42960.0).unwrap();
        let n43740 = T::from_f64(43740.0).unwrap();
        let n47520 = T::from_f64(47520.0).unwrap();
        let n48960 = T::from_f64(48960.0).unwrap();
        let n51840 = T::from_f64(51840.0).unwrap();
        let n58320 = T::from_f64(58320.0).unwrap();
        let n59040 = T::from_f64(59040.0).unwrap();
        let n64440 = T::from_f64(64440.0).unwrap();
        let n69840 = T::from_f64(69840.0).unwrap();
        let n70848 = T::from_f64(70848.0).unwrap();
        let n73440 = T::from_f64(73440.0).unwrap();
        let n73728 = T::from_f64(73728.0).unwrap();
        let n92160 = T::from_f64(92160.0).unwrap();
        let n104760 = T::from_f64(104760.0).unwrap();
        let n132840 = T::from_f64(132840.0).unwrap();
        let n142560 = T::from_f64(142560.0).unwrap();
        let n141696 = T::from_f64(141696.0).unwrap();
        let n172152 = T::from_f64(172152.0).unwrap();

        let x1p2 = x1.powi(2);
        let x1p3 = x1.powi(3);
        let x1p4 = x1.powi(4);
        let x1p5 = x1.powi(5);
        let x1p6 = x1.powi(6);
        let x2p2 = x2.powi(2);
        let x2p3 = x2.powi(3);
        let x2p4 = x2.powi(4);
        let x2p5 = x2.powi(5);
        let x2p6 = x2.powi(6);

        let a = n8064 * x1p6
            + (-n12096 * x2 - n32256) * x1p5
            + (-n19440 * x2p2 + n40320 * x2 + n28560) * x1p4
            + (n24480 * x2p3 + n51840 * x2p2 - n3360 * x2 + n26880) * x1p3
            + (n15660 * x2p4 - n48960 * x2p3 - n64440 * x2p2 - n92160 * x2 - n29448) * x1p2
            + (-n11016 * x2p5 - n20880 * x2p4 + n7440 * x2p3 + n59040 * x2p2 + n34704 * x2 - n6432)
                * x1
            - n2916 * x2p6
            + n7344 * x2p5
            + n17460 * x2p4
            + n10080 * x2p3
            + n15552 * x2p2
            + n14688 * x2
            + n2520;

        let b = n40824 * x2p6
            + (n40824 * x1 - n27216) * x2p5
            + (-n43740 * x1p2 + n58320 * x1 - n132840) * x2p4
            + (-n36720 * x1p3 + n73440 * x1p2 - n23760 * x1 + n38880) * x2p3
            + (n15660 * x1p4 - n41760 * x1p3 + n104760 * x1p2 - n142560 * x1 + n172152) * x2p2
            + (n7344 * x1p5 - n24480 * x1p4 + n7440 * x1p3 + n30240 * x1p2 - n141696 * x1 + n73728)
                * x2
            - n1296 * x1p6
            + n5184 * x1p5
            - n10740 * x1p4
            + n19680 * x1p3
            + n15552 * x1p2
            - n38592 * x1
            + n6120;

        let offdiag = n6804 * x2p6
            + (n11664 - n17496 * x1) * x2p5
            + (-n27540 * x1p2 + n36720 * x1 - n5940) * x2p4
            + (n20880 * x1p3 - n41760 * x1p2 + n69840 * x1 - n47520) * x2p3
            + (n18360 * x1p4 - n48960 * x1p3 + n11160 * x1p2 + n30240 * x1 - n70848) * x2p2
            + (-n7776 * x1p5 + n25920 * x1p4 - n42960 * x1p3 + n59040 * x1p2 + n31104 * x1 - n38592)
                * x2
            - n2016 * x1p6
            + n8064 * x1p5
            - n840 * x1p4
            - n30720 * x1p3
            + n17352 * x1p2
            + n14688 * x1
            - n4680;

        [[a, offdiag], [offdiag, b]]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod himmelblau {
    //! # Himmelblau's test function.
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2) = (x_1^2 + x_2 - 11)^2 + (x_1 + x_2^2 - 7)^2
    //! $$
    //!
    //! where $x_i \in [-5,\\,5]$.
    //!
    //! The global minima are at
    //!  * $f(x_1,\\,x_2) = f(3,\\,2) = 0$.
    //!  * $f(x_1,\\,x_2) = f(-2.805118,\\,3.131312) = 0$.
    //!  * $f(x_1,\\,x_2) = f(-3.779310,\\,-3.283186) = 0$.
    //!  * $f(x_1,\\,x_2) = f(3.584428,\\,-1.848126) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Himmelblau's test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2) = (x_1^2 + x_2 - 11)^2 + (x_1 + x_2^2 - 7)^2
    /// $$
    ///
    /// where $x_i \in [-5,\\,5]$.
    ///
    /// The global minima are at
    ///  * $f(x_1,\\,x_2) = f(3,\\,2) = 0$.
    ///  * $f(x_1,\\,x_2) = f(-2.805118,\\,3.131312) = 0$.
    ///  * $f(x_1,\\,x_2) = f(-3.779310,\\,-3.283186) = 0$.
    ///  * $f(x_1,\\,x_2) = f(3.584428,\\,-1.848126) = 0$.
    #[derive_frule]
    pub fn himmelblau<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;
        let n7 = T::from_f64(7.0).unwrap();
        let n11 = T::from_f64(11.0).unwrap();
        (x1.powi(2) + x2 - n11).powi(2) + (x1 + x2.powi(2) - n7).powi(2)
    }

    /// Derivative of Himmelblau's test function.
    #[derive_frule]
    pub fn himmelblau_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n7 = T::from_f64(7.0).unwrap();
        let n11 = T::from_f64(11.0).unwrap();

        [
            n4 * x1 * (x1.powi(2) + x2 - n11) + n2 * (x1 + x2.powi(2) - n7),
            n4 * x2 * (x2.powi(2) + x1 - n7) + n2 * (x2 + x1.powi(2) - n11),
        ]
    }

    /// Hessian of Himmelblau's test function.
    #[derive_frule]
    pub fn himmelblau_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n7 = T::from_f64(7.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();
        let n11 = T::from_f64(11.0).unwrap();

        let offdiag = n4 * (x1 + x2);

        [
            [n4 * (x1.powi(2) + x2 - n11) + n8 * x1.powi(2) + n2, offdiag],
            [offdiag, n4 * (x2.powi(2) + x1 - n7) + n8 * x2.powi(2) + n2],
        ]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod holdertable {
    //! # Holder table test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2) = -\left|\sin(x_1)\cos(x_2)\exp\left(\left|1- \frac{\sqrt{x_1^2+x_2^2}}{\pi}\right|\right)\right|
    //! $$
    //!
    //! where $x_i \in [-10,\\,10]$.
    //!
    //! The global minima are at
    //!  * $f(x_1,\\,x_2) = f(8.05502,\\,9.66459) = -19.2085$.
    //!  * $f(x_1,\\,x_2) = f(8.05502,\\,-9.66459) = -19.2085$.
    //!  * $f(x_1,\\,x_2) = f(-8.05502,\\,9.66459) = -19.2085$.
    //!  * $f(x_1,\\,x_2) = f(-8.05502,\\,-9.66459) = -19.2085$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};
    use std::f64::consts::PI;

    /// Holder table test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2) = -\left|\sin(x_1)\cos(x_2)\exp\left(\left|1- \frac{\sqrt{x_1^2+x_2^2}}{\pi}\right|\right)\right|
    /// $$
    ///
    /// where $x_i \in [-10,\\,10]$.
    ///
    /// The global minima are at
    ///  * $f(x_1,\\,x_2) = f(8.05502,\\,9.66459) = -19.2085$.
    ///  * $f(x_1,\\,x_2) = f(8.05502,\\,-9.66459) = -19.2085$.
    ///  * $f(x_1,\\,x_2) = f(-8.05502,\\,9.66459) = -19.2085$.
    ///  * $f(x_1,\\,x_2) = f(-8.05502,\\,-9.66459) = -19.2085$.
    #[derive_frule]
    pub fn holder_table<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;
        let pi = T::from_f64(PI).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        -(x1.sin() * x2.cos() * (n1 - (x1.powi(2) + x2.powi(2)).sqrt() / pi).abs().exp()).abs()
    }

    /// Derivative of the Holder table test function.
    ///
    /// The test function has a discontinuity at $\sqrt{x_1^2+x_2^2} = \pi$,
    /// hence the derivative can be [NaN](num::Float::nan)-valued.
    #[derive_frule]
    pub fn holder_table_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let pi = T::from_f64(PI).unwrap();
        let n0 = T::from_f64(0.0).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        let eps = T::epsilon();

        let x1sin = x1.sin();
        let x2sin = x2.sin();
        let x1cos = x1.cos();
        let x2cos = x2.cos();
        let x1sinabs = x1sin.abs();
        let x2cosabs = x2cos.abs();
        let a = (x1.powi(2) + x2.powi(2)).sqrt();
        let b = a / pi - n1;
        let c = b.abs();
        let d = c.exp();

        if a <= eps {
            [n0, n0]
        } else {
            [
                -(x1 * x1sinabs * x2cosabs * b * d) / (pi * a * c)
                    - if x1sinabs <= eps {
                        n0
                    } else {
                        (x1sin * x1cos * x2cosabs * d) / (x1sinabs)
                    },
                -(x2 * x1sinabs * x2cosabs * b * d) / (pi * a * c)
                    + if x2cosabs <= eps {
                        n0
                    } else {
                        (x2sin * x2cos * x1sinabs * d) / (x2cosabs)
                    },
            ]
        }
    }

    /// Hessian of the Holder table test function.
    ///
    /// The test function has a discontinuity at $\sqrt{x_1^2+x_2^2} = \pi$,
    /// hence the Hessian can be [NaN](num::Float::nan)-valued.
    #[derive_frule]
    pub fn holder_table_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let pi = T::from_f64(PI).unwrap();
        let n0 = T::from_f64(0.0).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let eps = T::epsilon();

        let x1sin = x1.sin();
        let x2sin = x2.sin();
        let x1cos = x1.cos();
        let x2cos = x2.cos();
        let x1sinabs = x1sin.abs();
        let x2cosabs = x2cos.abs();
        let a = (x1.powi(2) + x2.powi(2)).sqrt();
        let b = a / pi - n1;
        let c = b.abs();
        let d = c.exp();

        let d1 = (x1sinabs * x2cosabs * d)
            * (if a <= eps {
                n0
            } else {
                -b / (pi * a * c) + (x1.powi(2) * b) / (pi * a.powi(3) * c)
                    - (x1.powi(2)) / (pi.powi(2) * (x1.powi(2) + x2.powi(2)))
            } + n1)
            - if x1sinabs <= eps || a <= eps {
                n0
            } else {
                (n2 * x1 * x1sin * x1cos * x2cosabs * b * d) / (pi * a * c * x1sinabs)
            };

        let d2 = (x1sinabs * x2cosabs * d)
            * (if a <= eps {
                n0
            } else {
                -b / (pi * a * c) + (x2.powi(2) * b) / (pi * a.powi(3) * c)
                    - (x2.powi(2)) / (pi.powi(2) * (x1.powi(2) + x2.powi(2)))
            } + n1)
            + if x2cosabs <= eps || a <= eps {
                n0
            } else {
                (n2 * x2 * x2sin * x2cos * x1sinabs * b * d) / (pi * a * c * x2cosabs)
            };

        let offdiag = if a <= eps || x1sinabs <= eps || x2cosabs <= eps {
            n0
        } else {
            d * (-(x2 * x1sin * x1cos * x2cosabs * b) / (pi * x1sinabs * a * c)
                + (x1 * x2 * x1sinabs * x2cosabs * b) / (pi * a.powi(3) * c)
                - (x1 * x2 * x1sinabs * x2cosabs) / (pi.powi(2) * (x1.powi(2) + x2.powi(2)))
                + (x1 * x1sinabs * x2sin * x2cos * b) / (pi * a * c * x2cosabs)
                + (x1sin * x1cos * x2sin * x2cos) / (x1sinabs * x2cosabs))
        };

        [[d1, offdiag], [offdiag, d2]]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod levy {
    //! # Levy test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2,\\,\ldots,\\,x_d) = \sin^2(\pi w_1) + \sum_{i=1}^{d-1}(w_i -1)^2 \left[1+10\sin^2(\pi w_i+1)\right] +
    //! (w_d - 1)^2\left[1 + \sin^2(2\pi w_d)\right]
    //! $$
    //!
    //! where $w_i = 1 + \frac{x_i - 1}{4}$ and $x_i \in [-10, 10]$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2,\\,\ldots,\\,x_d) = f(1,\\,1,\\,\ldots,\\,1) = 0$.
    //!
    //! # Levy test function No. 13
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2) = \sin^2(3\pi x_1) + (x_1 - 1)^2\left[1 + \sin^2(3\pi x_2)\right] + (x_2 - 1)^2
    //! \left[1 + \sin^2(2\pi x_2)\right]
    //! $$
    //!
    //! where $x_i \in [-10, 10]$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2) = f(1,\\,1) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};
    use std::f64::consts::PI;
    use std::iter::Sum;

    /// Levy test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2,\\,\ldots,\\,x_d) = \sin^2(\pi w_1) + \sum_{i=1}^{d-1}(w_i -1)^2 \left[1+10\sin^2(\pi w_i+1)\right] +
    /// (w_d - 1)^2\left[1 + \sin^2(2\pi w_d)\right]
    /// $$
    ///
    /// where $w_i = 1 + \frac{x_i - 1}{4}$ and $x_i \in [-10, 10]$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2,\\,\ldots,\\,x_d) = f(1,\\,1,\\,\ldots,\\,1) = 0$.
    #[derive_frule]
    pub fn levy<T>(param: &[T]) -> T
    where
        T: Float + FromPrimitive + Sum,
    {
        let plen = param.len();
        assert!(plen >= 2);

        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n10 = T::from_f64(10.0).unwrap();
        let pi = T::from_f64(PI).unwrap();

        let w = |x: T| n1 + (x - n1) / n4;

        (pi * w(param[0])).sin().powi(2)
            + param[1..(plen - 1)]
                .iter()
                .map(|x| w(*x))
                .map(|wi: T| (wi - n1).powi(2) * (n1 + n10 * (pi * wi + n1).sin().powi(2)))
                .sum()
            + (w(param[plen - 1]) - n1).powi(2) * (n1 + (n2 * pi * w(param[plen - 1])).sin().powi(2))
    }

    /// Derivative of Levy test function.
    #[derive_frule]
    pub fn levy_derivative<T>(param: &[T]) -> Vec<T>
    where
        T: Float + FromPrimitive + Sum,
    {
        let d = param.len();
        assert!(d >= 2);

        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n5 = T::from_f64(5.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();
        let n10 = T::from_f64(10.0).unwrap();
        let n16 = T::from_f64(16.0).unwrap();
        let pi = T::from_f64(PI).unwrap();

        param
            .iter()
            .enumerate()
            .map(|(i, x)| (i, x, pi * ((*x - n1) / n4 + n1)))
            .map(|(i, &x, wp)| {
                if i == 0 {
                    pi / n2 * wp.cos() * wp.sin()
                } else if i == d - 1 {
                    ((n2 * wp).sin().powi(2) + n1) * (x - n1) / n8
                        + pi / n16 * (n2 * wp).cos() * (n2 * wp).sin() * (x - n1).powi(2)
                } else {
                    (n10 * (wp + n1).sin().powi(2) + n1) * (x - n1) / n8
                        + n5 / n16 * pi * (wp + n1).cos() * (wp + n1).sin() * (x - n1).powi(2)
                }
            })
            .collect()
    }

    /// Derivative of Levy test function.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn levy_derivative_const<const N: usize, T>(param: &[T; N]) -> [T; N]
    where
        T: Float + FromPrimitive + Sum,
    {
        assert!(N >= 2);

        let n1 = T::from_f64(1.0).unwrap();
        let n0 = T::from_f64(0.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n5 = T::from_f64(5.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();
        let n10 = T::from_f64(10.0).unwrap();
        let n16 = T::from_f64(16.0).unwrap();
        let pi = T::from_f64(PI).unwrap();

        let mut out = [n0; N];

        param
            .iter()
            .zip(out.iter_mut())
            .enumerate()
            .map(|(i, (x, o))| (i, x, pi * ((*x - n1) / n4 + n1), o))
            .map(|(i, &x, wp, o)| {
                *o = if i == 0 {
                    pi / n2 * wp.cos() * wp.sin()
                } else if i == N - 1 {
                    ((n2 * wp).sin().powi(2) + n1) * (x - n1) / n8
                        + pi / n16 * (n2 * wp).cos() * (n2 * wp).sin() * (x - n1).powi(2)
                } else {
                    (n10 * (wp + n1).sin().powi(2) + n1) * (x - n1) / n8
                        + n5 / n16 * pi * (wp + n1).cos() * (wp + n1).sin() * (x - n1).powi(2)
                }
            })
            .count();
        out
    }

    /// Hessian of Levy test function.
    #[derive_frule]
    pub fn levy_hessian<T>(param: &[T]) -> Vec<Vec<T>>
    where
        T: Float + FromPrimitive + Sum,
    {
        let d = param.len();
        assert!(d >= 2);

        let x = param;

        let n0 = T::from_f64(0.0).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n5 = T::from_f64(5.0).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();
        let n10 = T::from_f64(10.0).unwrap();
        let n32 = T::from_f64(32.0).unwrap();
        let n64 = T::from_f64(64.0).unwrap();
        let pi = T::from_f64(PI).unwrap();
        let pi2 = T::from_f64(PI.powi(2)).unwrap();

        let mut out = vec![vec![n0; d]; d];

        for i in 0..d {
            let xin1 = x[i] - n1;
            let wp = pi * (xin1 / n4 + n1);
            out[i][i] = if i == 0 {
                pi2 / n8 * (wp.cos().powi(2) - wp.sin().powi(2))
            } else if i == d - 1 {
                -(n4 * pi * xin1 * (pi * x[i]).sin() + (pi2 * xin1.powi(2) - n2) * (pi * x[i]).cos()
                    - n6)
                    / n32
            } else {
                let wp1cos = (wp + n1).cos();
                let wp1sin = (wp + n1).sin();
                n5 / n4 * pi * wp1cos * wp1sin * xin1
                    + n5 / n64 * pi2 * xin1.powi(2) * (wp1cos.powi(2) - wp1sin.powi(2))
                    + (n10 * wp1sin.powi(2) + n1) / n8
            }
        }

        out
    }

    /// Hessian of Levy test function.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn levy_hessian_const<const N: usize, T>(param: &[T; N]) -> [[T; N]; N]
    where
        T: Float + FromPrimitive + Sum,
    {
        assert!(N >= 2);

        let x = param;

        let n0 = T::from_f64(0.0).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n5 = T::from_f64(5.0).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();
        let n10 = T::from_f64(10.0).unwrap();
        let n32 = T::from_f64(32.0).unwrap();
        let n64 = T::from_f64(64.0).unwrap();
        let pi = T::from_f64(PI).unwrap();
        let pi2 = T::from_f64(PI.powi(2)).unwrap();

        let mut out = [[n0; N]; N];

        for i in 0..N {
            let xin1 = x[i] - n1;
            let wp = pi * (xin1 / n4 + n1);
            out[i][i] = if i == 0 {
                pi2 / n8 * (wp.cos().powi(2) - wp.sin().powi(2))
            } else if i == N - 1 {
                -(n4 * pi * xin1 * (pi * x[i]).sin() + (pi2 * xin1.powi(2) - n2) * (pi * x[i]).cos()
                    - n6)
                    / n32
            } else {
                let wp1cos = (wp + n1).cos();
                let wp1sin = (wp + n1).sin();
                n5 / n4 * pi * wp1cos * wp1sin * xin1
                    + n5 / n64 * pi2 * xin1.powi(2) * (wp1cos.powi(2) - wp1sin.powi(2))
                    + (n10 * wp1sin.powi(2) + n1) / n8
            }
        }

        out
    }

    /// Levy test function No. 13.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2) = \sin^2(3\pi x_1) + (x_1 - 1)^2\left[1 + \sin^2(3\pi x_2)\right] + (x_2 - 1)^2
    /// \left[1 + \sin^2(2\pi x_2)\right]
    /// $$
    ///
    /// where $x_i \in [-10, 10]$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2) = f(1,\\,1) = 0$.
    #[derive_frule]
    pub fn levy_n13<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive + Sum,
    {
        let [x1, x2] = *param;

        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let pi = T::from_f64(PI).unwrap();

        (n3 * pi * x1).sin().powi(2)
            + (x1 - n1).powi(2) * (n1 + (n3 * pi * x2).sin().powi(2))
            + (x2 - n1).powi(2) * (n1 + (n2 * pi * x2).sin().powi(2))
    }

    /// Derivative of Levy test function No. 13.
    #[derive_frule]
    pub fn levy_n13_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive + Sum,
    {
        let [x1, x2] = *param;

        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let pi = T::from_f64(PI).unwrap();

        let x1t3 = n3 * pi * x1;
        let x2t3 = n3 * pi * x2;
        let x2t2 = n2 * pi * x2;
        let x1t3s = x1t3.sin();
        let x1t3c = x1t3.cos();
        let x2t3s = x2t3.sin();
        let x2t3c = x2t3.cos();
        let x2t3s2 = x2t3s.powi(2);
        let x2t2s = x2t2.sin();
        let x2t2c = x2t2.cos();
        let x2t2s2 = x2t2s.powi(2);

        [
            n6 * pi * x1t3c * x1t3s + n2 * (x2t3s2 + n1) * (x1 - n1),
            n6 * pi * (x1 - n1).powi(2) * x2t3c * x2t3s
                + n2 * (x2 - n1) * (x2t2s2 + n1)
                + n4 * pi * (x2 - n1).powi(2) * x2t2c * x2t2s,
        ]
    }

    /// Hessian of Levy test function No. 13.
    #[derive_frule]
    pub fn levy_n13_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive + Sum,
    {
        let [x1, x2] = *param;

        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();
        let n12 = T::from_f64(12.0).unwrap();
        let n16 = T::from_f64(16.0).unwrap();
        let n18 = T::from_f64(18.0).unwrap();
        let pi = T::from_f64(PI).unwrap();
        let pi2 = T::from_f64(PI.powi(2)).unwrap();

        let x1t3 = n3 * pi * x1;
        let x2t3 = n3 * pi * x2;
        let x2t2 = n2 * pi * x2;
        let x1t3s = x1t3.sin();
        let x1t3c = x1t3.cos();
        let x2t3s = x2t3.sin();
        let x2t3c = x2t3.cos();
        let x1t3s2 = x1t3s.powi(2);
        let x1t3c2 = x1t3c.powi(2);
        let x2t3s2 = x2t3s.powi(2);
        let x2t3c2 = x2t3c.powi(2);
        let x2t2s = x2t2.sin();
        let x2t2c = x2t2.cos();
        let x2t2s2 = x2t2s.powi(2);
        let x2t2c2 = x2t2c.powi(2);

        let a = n18 * pi2 * (-x1t3s2 + x1t3c2) + n2 * (x2t3s2 + n1);
        let b = n18 * pi2 * (x1 - n1).powi(2) * (-x2t3s2 + x2t3c2)
            + n2 * (x2t2s2 + n1)
            + n8 * pi2 * (x2 - n1).powi(2) * (-x2t2s2 + x2t2c2)
            + n16 * pi * (x2 - n1) * x2t2s * x2t2c;
        let offdiag = n12 * pi * (x1 - n1) * x2t3c * x2t3s;

        [[a, offdiag], [offdiag, b]]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod matyas {
    //! # Matyas test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2) = 0.26 (x_1^2 + x_2^2) - 0.48 x_1 x_2
    //! $$
    //!
    //! where $x_i \in [-10,\\,10]$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2) = f(0,\\,0) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Matyas test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2) = 0.26 (x_1^2 + x_2^2) - 0.48 x_1 x_2
    /// $$
    ///
    /// where $x_i \in [-10,\\,10]$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2) = f(0,\\,0) = 0$.
    #[derive_frule]
    pub fn matyas<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n026 = T::from_f64(0.26).unwrap();
        let n048 = T::from_f64(0.48).unwrap();

        n026 * (x1.powi(2) + x2.powi(2)) - n048 * x1 * x2
    }

    /// Derivative of Matyas test function.
    #[derive_frule]
    pub fn matyas_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n0_52 = T::from_f64(0.52).unwrap();
        let n0_48 = T::from_f64(0.48).unwrap();

        [n0_52 * x1 - n0_48 * x2, n0_52 * x2 - n0_48 * x1]
    }

    /// Hessian of Matyas test function.
    ///
    /// Returns
    /// $$
    /// \left(
    /// \begin{matrix}
    /// 0.52 & -0.48 \\\\
    /// -0.48 & 0.52
    /// \end{matrix}
    /// \right)
    /// $$
    /// for any input.
    #[derive_frule]
    pub fn matyas_hessian<T>(_param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let n0_52 = T::from_f64(0.52).unwrap();
        let n0_48 = T::from_f64(0.48).unwrap();

        [[n0_52, -n0_48], [-n0_48, n0_52]]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod mccormick {
    //! # McCormick test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2) = \sin(x_1 + x_2) + (x_1 - x_2)^2 - 1.5x_1 + 2.5x_2 + 1
    //! $$
    //!
    //! where $x_1 \in [-1.5,\\,4]$ and $x_2 \in [-3,\\,4]$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2) = f(-0.54719,\\,-1.54719) = -1.913228$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// McCormick test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2) = \sin(x_1 + x_2) + (x_1 - x_2)^2 - 1.5x_1 + 2.5x_2 + 1
    /// $$
    ///
    /// where $x_1 \in [-1.5,\\,4]$ and $x_2 \in [-3,\\,4]$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2) = f(-0.54719,\\,-1.54719) = -1.913228$.
    #[derive_frule]
    pub fn mccormick<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;
        (x1 + x2).sin() + (x1 - x2).powi(2) - T::from_f64(1.5).unwrap() * x1
            + T::from_f64(2.5).unwrap() * x2
            + T::from_f64(1.0).unwrap()
    }

    /// Derivative of McCormick test function.
    #[derive_frule]
    pub fn mccormick_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n5 = T::from_f64(5.0).unwrap();

        [
            (x1 + x2).cos() + n2 * (x1 - x2) - n3 / n2,
            (x1 + x2).cos() - n2 * (x1 - x2) + n5 / n2,
        ]
    }

    /// Hessian of McCormick test function.
    #[derive_frule]
    pub fn mccormick_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n2 = T::from_f64(2.0).unwrap();

        let a = (x1 + x2).sin();

        let diag = n2 - a;
        let offdiag = -n2 - a;

        [[diag, offdiag], [offdiag, diag]]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod picheny {
    //! # Picheny test function
    //!
    //! Variation of the Goldstein-Price test function.
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2) = \frac{1}{2.427}\biggl[
    //!                    \log\Bigl[\bigl(1 + (\bar{x}_1 + \bar{x}_2 + 1)^2(19 - 14\bar{x}_1 +
    //!                    3\bar{x}_1^2 - 14\bar{x}_2 + 6\bar{x}_1\bar{x}_2 + 3\bar{x}_2^2)\bigr) \\\\
    //!                    \times\bigl(30 + (2\bar{x}_1 - 3\bar{x}_2)^2(18 - 32\bar{x}_1 + 12\bar{x}_1^2 +
    //!                    48\bar{x}_2 - 36\bar{x}_1\bar{x}_2 + 27\bar{x}_2^2)\bigr)\Bigr]
    //!                 - 8.693\biggr]
    //! $$
    //!
    //! where $\bar{x}_i = 4x_i - 2$ and $x_i \in [0, 1]$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2) = f(0.5,\\,0.25) = 3.3851993182036826$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Picheny test function.
    ///
    /// Variation on the [Goldstein-Price test function](crate::goldsteinprice::goldsteinprice) introduced by [Picheny et al. (2012)](https://hal.science/hal-00658212).
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2) = \frac{1}{2.427}\biggl[
    ///                    \log\Bigl[\bigl(1 + (\bar{x}_1 + \bar{x}_2 + 1)^2(19 - 14\bar{x}_1 +
    ///                    3\bar{x}_1^2 - 14\bar{x}_2 + 6\bar{x}_1\bar{x}_2 + 3\bar{x}_2^2)\bigr) \\\\
    ///                    \times\bigl(30 + (2\bar{x}_1 - 3\bar{x}_2)^2(18 - 32\bar{x}_1 + 12\bar{x}_1^2 +
    ///                    48\bar{x}_2 - 36\bar{x}_1\bar{x}_2 + 27\bar{x}_2^2)\bigr)\Bigr]
    ///                 - 8.693\biggr]
    /// $$
    ///
    /// where $\bar{x}_i = 4x_i - 2$ and $x_i \in [0, 1]$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2) = f(0.5,\\,0.25) = 3.3851993182036826$.
    #[derive_frule]
    pub fn picheny<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let n12 = T::from_f64(12.0).unwrap();
        let n14 = T::from_f64(14.0).unwrap();
        let n18 = T::from_f64(18.0).unwrap();
        let n19 = T::from_f64(19.0).unwrap();
        let n27 = T::from_f64(27.0).unwrap();
        let n30 = T::from_f64(30.0).unwrap();
        let n32 = T::from_f64(32.0).unwrap();
        let n36 = T::from_f64(36.0).unwrap();
        let n48 = T::from_f64(48.0).unwrap();

        let [x1, x2] = param.map(|x| n4 * x - n2);

        T::from_f64(1.0 / 2.427).unwrap()
            * (((n1
                + (x1 + x2 + n1).powi(2)
                    * (n19 - n14 * (x1 + x2) + n3 * (x1.powi(2) + x2.powi(2)) + n6 * x1 * x2))
                * (n30
                    + (n2 * x1 - n3 * x2).powi(2)
                        * (n18 - n32 * x1 + n12 * x1.powi(2) + n48 * x2 - n36 * x1 * x2
                            + n27 * x2.powi(2))))
            .log10()
                - T::from_f64(8.693).unwrap())
    }
    /// Derivative of Picheny test function.
    #[derive_frule]
    pub fn picheny_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();
        let n10 = T::from_f64(10.0).unwrap();
        let n12 = T::from_f64(12.0).unwrap();
        let n14 = T::from_f64(14.0).unwrap();
        let n16 = T::from_f64(16.0).unwrap();
        let n18 = T::from_f64(18.0).unwrap();
        let n19 = T::from_f64(19.0).unwrap();
        let n24 = T::from_f64(24.0).unwrap();
        let n27 = T::from_f64(27.0).unwrap();
        let n30 = T::from_f64(30.0).unwrap();
        let n32 = T::from_f64(32.0).unwrap();
        let n36 = T::from_f64(36.0).unwrap();
        let n48 = T::from_f64(48.0).unwrap();
        let n56 = T::from_f64(56.0).unwrap();
        let n96 = T::from_f64(96.0).unwrap();
        let n128 = T::from_f64(128.0).unwrap();
        let n144 = T::from_f64(144.0).unwrap();
        let n192 = T::from_f64(192.0).unwrap();
        let n216 = T::from_f64(216.0).unwrap();
        let factor = T::from_f64(1.0 / 2.427).unwrap();

        let [x1, x2] = *param;

        let a = (factor
            * ((n8
                * (n4 * x1 + n4 * x2 - n3)
                * (n3 * (n4 * x1 - n2).powi(2) + n6 * (n4 * x2 - n2) * (n4 * x1 - n2)
                    - n14 * (n4 * x1 - n2)
                    + n3 * (n4 * x2 - n2).powi(2)
                    - n14 * (n4 * x2 - n2)
                    + n19)
                + (n4 * x1 + n4 * x2 - n3).powi(2)
                    * (n24 * (n4 * x1 - n2) + n24 * (n4 * x2 - n2) - n56))
                * ((n2 * (n4 * x1 - n2) - n3 * (n4 * x2 - n2)).powi(2)
                    * (n12 * (n4 * x1 - n2).powi(2)
                        - n36 * (n4 * x2 - n2) * (n4 * x1 - n2)
                        - n32 * (n4 * x1 - n2)
                        + n27 * (n4 * x2 - n2).powi(2)
                        + n48 * (n4 * x2 - n2)
                        + n18)
                    + n30)
                + ((n4 * x1 + n4 * x2 - n3).powi(2)
                    * (n3 * (n4 * x1 - n2).powi(2) + n6 * (n4 * x2 - n2) * (n4 * x1 - n2)
                        - n14 * (n4 * x1 - n2)
                        + n3 * (n4 * x2 - n2).powi(2)
                        - n14 * (n4 * x2 - n2)
                        + n19)
                    + n1)
                    * (n16
                        * (n2 * (n4 * x1 - n2) - n3 * (n4 * x2 - n2))
                        * (n12 * (n4 * x1 - n2).powi(2)
                            - n36 * (n4 * x2 - n2) * (n4 * x1 - n2)
                            - n32 * (n4 * x1 - n2)
                            + n27 * (n4 * x2 - n2).powi(2)
                            + n48 * (n4 * x2 - n2)
                            + n18)
                        + (n2 * (n4 * x1 - n2) - n3 * (n4 * x2 - n2)).powi(2)
                            * (n96 * (n4 * x1 - n2) - n144 * (n4 * x2 - n2) - n128))))
            / (n10.ln()
                * ((n4 * x1 + n4 * x2 - n3).powi(2)
                    * (n3 * (n4 * x1 - n2).powi(2) + n6 * (n4 * x2 - n2) * (n4 * x1 - n2)
                        - n14 * (n4 * x1 - n2)
                        + n3 * (n4 * x2 - n2).powi(2)
                        - n14 * (n4 * x2 - n2)
                        + n19)
                    + n1)
                * ((n2 * (n4 * x1 - n2) - n3 * (n4 * x2 - n2)).powi(2)
                    * (n12 * (n4 * x1 - n2).powi(2)
                        - n36 * (n4 * x2 - n2) * (n4 * x1 - n2)
                        - n32 * (n4 * x1 - n2)
                        + n27 * (n4 * x2 - n2).powi(2)
                        + n48 * (n4 * x2 - n2)
                        + n18)
                    + n30));

        let b = (factor
            * ((n8
                * (n4 * x2 + n4 * x1 - n3)
                * (n3 * (n4 * x2 - n2).powi(2) + n6 * (n4 * x1 - n2) * (n4 * x2 - n2)
                    - n14 * (n4 * x2 - n2)
                    + n3 * (n4 * x1 - n2).powi(2)
                    - n14 * (n4 * x1 - n2)
                    + n19)
                + (n4 * x2 + n4 * x1 - n3).powi(2)
                    * (n24 * (n4 * x2 - n2) + n24 * (n4 * x1 - n2) - n56))
                * ((n2 * (n4 * x1 - n2) - n3 * (n4 * x2 - n2)).powi(2)
                    * (n27 * (n4 * x2 - n2).powi(2) - n36 * (n4 * x1 - n2) * (n4 * x2 - n2)
                        + n48 * (n4 * x2 - n2)
                        + n12 * (n4 * x1 - n2).powi(2)
                        - n32 * (n4 * x1 - n2)
                        + n18)
                    + n30)
                + ((n4 * x2 + n4 * x1 - n3).powi(2)
                    * (n3 * (n4 * x2 - n2).powi(2) + n6 * (n4 * x1 - n2) * (n4 * x2 - n2)
                        - n14 * (n4 * x2 - n2)
                        + n3 * (n4 * x1 - n2).powi(2)
                        - n14 * (n4 * x1 - n2)
                        + n19)
                    + n1)
                    * ((n2 * (n4 * x1 - n2) - n3 * (n4 * x2 - n2)).powi(2)
                        * (n216 * (n4 * x2 - n2) - n144 * (n4 * x1 - n2) + n192)
                        - n24
                            * (n2 * (n4 * x1 - n2) - n3 * (n4 * x2 - n2))
                            * (n27 * (n4 * x2 - n2).powi(2) - n36 * (n4 * x1 - n2) * (n4 * x2 - n2)
                                + n48 * (n4 * x2 - n2)
                                + n12 * (n4 * x1 - n2).powi(2)
                                - n32 * (n4 * x1 - n2)
                                + n18))))
            / (n10.ln()
                * ((n4 * x2 + n4 * x1 - n3).powi(2)
                    * (n3 * (n4 * x2 - n2).powi(2) + n6 * (n4 * x1 - n2) * (n4 * x2 - n2)
                        - n14 * (n4 * x2 - n2)
                        + n3 * (n4 * x1 - n2).powi(2)
                        - n14 * (n4 * x1 - n2)
                        + n19)
                    + n1)
                * ((n2 * (n4 * x1 - n2) - n3 * (n4 * x2 - n2)).powi(2)
                    * (n27 * (n4 * x2 - n2).powi(2) - n36 * (n4 * x1 - n2) * (n4 * x2 - n2)
                        + n48 * (n4 * x2 - n2)
                        + n12 * (n4 * x1 - n2).powi(2)
                        - n32 * (n4 * x1 - n2)
                        + n18)
                    + n30));

        [a, b]
    }

    /// Hessian of Picheny test function.
    #[derive_frule]
    pub fn picheny_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        // oh dear...
        let n2 = T::from_f64(2.0).unwrap();
        let n3 = T::from_f64(3.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n5 = T::from_f64(5.0).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let n10 = T::from_f64(10.0).unwrap();
        let n11 = T::from_f64(11.0).unwrap();
        let n96 = T::from_f64(96.0).unwrap();
        let n144 = T::from_f64(144.0).unwrap();
        let n192 = T::from_f64(192.0).unwrap();
        let n277 = T::from_f64(277.0).unwrap();
        let n432 = T::from_f64(432.0).unwrap();
        let n576 = T::from_f64(576.0).unwrap();
        let n768 = T::from_f64(768.0).unwrap();
        let n864 = T::from_f64(864.0).unwrap();
        let n896 = T::from_f64(896.0).unwrap();
        let n1080 = T::from_f64(1080.0).unwrap();
        let n1152 = T::from_f64(1152.0).unwrap();
        let n1167 = T::from_f64(1167.0).unwrap();
        let n1512 = T::from_f64(1512.0).unwrap();
        let n1603 = T::from_f64(1603.0).unwrap();
        let n2048 = T::from_f64(2048.0).unwrap();
        let n2304 = T::from_f64(2304.0).unwrap();
        let n2688 = T::from_f64(2688.0).unwrap();
        let n3024 = T::from_f64(3024.0).unwrap();
        let n5376 = T::from_f64(5376.0).unwrap();
        let n5594 = T::from_f64(5594.0).unwrap();
        let n5874 = T::from_f64(5874.0).unwrap();
        let n6144 = T::from_f64(6144.0).unwrap();
        let n6912 = T::from_f64(6912.0).unwrap();
        let n9216 = T::from_f64(9216.0).unwrap();
        let n13824 = T::from_f64(13824.0).unwrap();
        let n20736 = T::from_f64(20736.0).unwrap();
        let n21546 = T::from_f64(21546.0).unwrap();
        let n24576 = T::from_f64(24576.0).unwrap();
        let n27648 = T::from_f64(27648.0).unwrap();
        let n31104 = T::from_f64(31104.0).unwrap();
        let n36864 = T::from_f64(36864.0).unwrap();
        let n77456 = T::from_f64(77456.0).unwrap();
        let n82944 = T::from_f64(82944.0).unwrap();
        let n85088 = T::from_f64(85088.0).unwrap();
        let n98304 = T::from_f64(98304.0).unwrap();
        let n118688 = T::from_f64(118688.0).unwrap();
        let n124416 = T::from_f64(124416.0).unwrap();
        let n127904 = T::from_f64(127904.0).unwrap();
        let n155024 = T::from_f64(155024.0).unwrap();
        let n163936 = T::from_f64(163936.0).unwrap();
        let n165888 = T::from_f64(165888.0).unwrap();
        let n248832 = T::from_f64(248832.0).unwrap();
        let n255264 = T::from_f64(255264.0).unwrap();
        let n255808 = T::from_f64(255808.0).unwrap();
        let n327872 = T::from_f64(327872.0).unwrap();
        let n331776 = T::from_f64(331776.0).unwrap();
        let n393216 = T::from_f64(393216.0).unwrap();
        let n442368 = T::from_f64(442368.0).unwrap();
        let n497664 = T::from_f64(497664.0).unwrap();
        let n516096 = T::from_f64(516096.0).unwrap();
        let n679936 = T::from_f64(679936.0).unwrap();
        let n688128 = T::from_f64(688128.0).unwrap();
        let n705280 = T::from_f64(705280.0).unwrap();
        let n995328 = T::from_f64(995328.0).unwrap();
        let n1057536 = T::from_f64(1057536.0).unwrap();
        let n1057920 = T::from_f64(1057920.0).unwrap();
        let n1136640 = T::from_f64(1136640.0).unwrap();
        let n1253376 = T::from_f64(1253376.0).unwrap();
        let n1290240 = T::from_f64(1290240.0).unwrap();
        let n1298688 = T::from_f64(1298688.0).unwrap();
        let n1327104 = T::from_f64(1327104.0).unwrap();
        let n1435136 = T::from_f64(1435136.0).unwrap();
        let n1441280 = T::from_f64(1441280.0).unwrap();
        let n1490944 = T::from_f64(1490944.0).unwrap();
        let n1515520 = T::from_f64(1515520.0).unwrap();
        let n1556736 = T::from_f64(1556736.0).unwrap();
        let n1781760 = T::from_f64(1781760.0).unwrap();
        let n1854464 = T::from_f64(1854464.0).unwrap();
        let n1880064 = T::from_f64(1880064.0).unwrap();
        let n1990656 = T::from_f64(1990656.0).unwrap();
        let n2088960 = T::from_f64(2088960.0).unwrap();
        let n2161920 = T::from_f64(2161920.0).unwrap();
        let n2322432 = T::from_f64(2322432.0).unwrap();
        let n2363520 = T::from_f64(2363520.0).unwrap();
        let n2520320 = T::from_f64(2520320.0).unwrap();
        let n2550112 = T::from_f64(2550112.0).unwrap();
        let n2580480 = T::from_f64(2580480.0).unwrap();
        let n2654208 = T::from_f64(2654208.0).unwrap();
        let n2752512 = T::from_f64(2752512.0).unwrap();
        let n2985984 = T::from_f64(2985984.0).unwrap();
        let n3113472 = T::from_f64(3113472.0).unwrap();
        let n3133440 = T::from_f64(3133440.0).unwrap();
        let n3896064 = T::from_f64(3896064.0).unwrap();
        let n4079616 = T::from_f64(4079616.0).unwrap();
        let n4231680 = T::from_f64(4231680.0).unwrap();
        let n4323840 = T::from_f64(4323840.0).unwrap();
        let n4523520 = T::from_f64(4523520.0).unwrap();
        let n4546560 = T::from_f64(4546560.0).unwrap();
        let n5040640 = T::from_f64(5040640.0).unwrap();
        let n5287680 = T::from_f64(5287680.0).unwrap();
        let n5492736 = T::from_f64(5492736.0).unwrap();
        let n5971968 = T::from_f64(5971968.0).unwrap();
        let n6266880 = T::from_f64(6266880.0).unwrap();
        let n6785280 = T::from_f64(6785280.0).unwrap();
        let n6850560 = T::from_f64(6850560.0).unwrap();
        let n7127040 = T::from_f64(7127040.0).unwrap();
        let n7175680 = T::from_f64(7175680.0).unwrap();
        let n7399680 = T::from_f64(7399680.0).unwrap();
        let n7728640 = T::from_f64(7728640.0).unwrap();
        let n8515584 = T::from_f64(8515584.0).unwrap();
        let n9089280 = T::from_f64(9089280.0).unwrap();
        let n9134080 = T::from_f64(9134080.0).unwrap();
        let n9400320 = T::from_f64(9400320.0).unwrap();
        let n9454080 = T::from_f64(9454080.0).unwrap();
        let n10081280 = T::from_f64(10081280.0).unwrap();
        let n13284864 = T::from_f64(13284864.0).unwrap();
        let n13570560 = T::from_f64(13570560.0).unwrap();
        let n13731840 = T::from_f64(13731840.0).unwrap();
        let n13934592 = T::from_f64(13934592.0).unwrap();
        let n14799360 = T::from_f64(14799360.0).unwrap();
        let n23185920 = T::from_f64(23185920.0).unwrap();
        let n27463680 = T::from_f64(27463680.0).unwrap();
        let n29598720 = T::from_f64(29598720.0).unwrap();
        let n27402240 = T::from_f64(27402240.0).unwrap();

        let factor = T::from_f64(9.88875154511743).unwrap();

        let [x_1, x_2] = *param;

        let offdiag = -(factor
            * (n768 * x_2.powi(3) + x_1 * (n2304 * x_2.powi(2) - n5376 * x_2 + n3024)
                - n2688 * x_2.powi(2)
                + x_1.powi(2) * (n2304 * x_2 - n2688)
                + n3024 * x_2
                + n768 * x_1.powi(3)
                - n1080)
            * (n331776 * x_2.powi(7) - n497664 * x_2.powi(6)
                + x_1
                    * (-n995328 * x_2.powi(6) + n5492736 * x_2.powi(5) - n7399680 * x_2.powi(4)
                        + n1441280 * x_2.powi(3)
                        + n1556736 * x_2.powi(2)
                        - n255808 * x_2
                        + n5594)
                - n1057536 * x_2.powi(5)
                + x_1.powi(2)
                    * (-n1880064 * x_2.powi(5) + n1136640 * x_2.powi(4) + n7728640 * x_2.powi(3)
                        - n6785280 * x_2.powi(2)
                        - n255264 * x_2
                        + n77456)
                + x_1.powi(3)
                    * (n1781760 * x_2.powi(4) - n9134080 * x_2.powi(3)
                        + n5040640 * x_2.powi(2)
                        + n4231680 * x_2
                        - n118688)
                + n2363520 * x_2.powi(4)
                + x_1.powi(4)
                    * (n2088960 * x_2.powi(3) + n1290240 * x_2.powi(2) - n7175680 * x_2 - n705280)
                - n1298688 * x_2.powi(3)
                + n163936 * x_2.powi(2)
                + x_1.powi(5) * (-n1327104 * x_2.powi(2) + n4079616 * x_2 + n1854464)
                + n5874 * x_2
                + x_1.powi(6) * (-n688128 * x_2 - n1490944)
                + n393216 * x_1.powi(7)
                - n1603))
            / (n10.ln()
                * (n192 * x_2.powi(4)
                    + x_1 * (n768 * x_2.powi(3) - n2688 * x_2.powi(2) + n3024 * x_2 - n1080)
                    - n896 * x_2.powi(3)
                    + x_1.powi(2) * (n1152 * x_2.powi(2) - n2688 * x_2 + n1512)
                    + n1512 * x_2.powi(2)
                    + x_1.powi(3) * (n768 * x_2 - n896)
                    - n1080 * x_2
                    + n192 * x_1.powi(4)
                    + n277)
                    .powi(2)
                * (n31104 * x_2.powi(4) - n6912 * x_2.powi(3)
                    + x_1 * (-n82944 * x_2.powi(3) + n13824 * x_2.powi(2) + n576 * x_2 - n96)
                    + x_1.powi(2) * (n82944 * x_2.powi(2) - n9216 * x_2 - n192)
                    - n432 * x_2.powi(2)
                    + n144 * x_2
                    + x_1.powi(3) * (n2048 - n36864 * x_2)
                    + n6144 * x_1.powi(4)
                    + n11))
            - (factor
                * (n124416 * x_2.powi(3) - n20736 * x_2.powi(2)
                    + x_1 * (-n248832 * x_2.powi(2) + n27648 * x_2 + n576)
                    + x_1.powi(2) * (n165888 * x_2 - n9216)
                    - n864 * x_2
                    - n36864 * x_1.powi(3)
                    + n144)
                * (n331776 * x_2.powi(7) - n497664 * x_2.powi(6)
                    + x_1
                        * (-n995328 * x_2.powi(6) + n5492736 * x_2.powi(5) - n7399680 * x_2.powi(4)
                            + n1441280 * x_2.powi(3)
                            + n1556736 * x_2.powi(2)
                            - n255808 * x_2
                            + n5594)
                    - n1057536 * x_2.powi(5)
                    + x_1.powi(2)
                        * (-n1880064 * x_2.powi(5) + n1136640 * x_2.powi(4) + n7728640 * x_2.powi(3)
                            - n6785280 * x_2.powi(2)
                            - n255264 * x_2
                            + n77456)
                    + x_1.powi(3)
                        * (n1781760 * x_2.powi(4) - n9134080 * x_2.powi(3)
                            + n5040640 * x_2.powi(2)
                            + n4231680 * x_2
                            - n118688)
                    + n2363520 * x_2.powi(4)
                    + x_1.powi(4)
                        * (n2088960 * x_2.powi(3) + n1290240 * x_2.powi(2)
                            - n7175680 * x_2
                            - n705280)
                    - n1298688 * x_2.powi(3)
                    + n163936 * x_2.powi(2)
                    + x_1.powi(5) * (-n1327104 * x_2.powi(2) + n4079616 * x_2 + n1854464)
                    + n5874 * x_2
                    + x_1.powi(6) * (-n688128 * x_2 - n1490944)
                    + n393216 * x_1.powi(7)
                    - n1603))
                / (n10.ln()
                    * (n192 * x_2.powi(4)
                        + x_1 * (n768 * x_2.powi(3) - n2688 * x_2.powi(2) + n3024 * x_2 - n1080)
                        - n896 * x_2.powi(3)
                        + x_1.powi(2) * (n1152 * x_2.powi(2) - n2688 * x_2 + n1512)
                        + n1512 * x_2.powi(2)
                        + x_1.powi(3) * (n768 * x_2 - n896)
                        - n1080 * x_2
                        + n192 * x_1.powi(4)
                        + n277)
                    * (n31104 * x_2.powi(4) - n6912 * x_2.powi(3)
                        + x_1 * (-n82944 * x_2.powi(3) + n13824 * x_2.powi(2) + n576 * x_2 - n96)
                        + x_1.powi(2) * (n82944 * x_2.powi(2) - n9216 * x_2 - n192)
                        - n432 * x_2.powi(2)
                        + n144 * x_2
                        + x_1.powi(3) * (n2048 - n36864 * x_2)
                        + n6144 * x_1.powi(4)
                        + n11)
                        .powi(2))
            + (factor
                * (n2322432 * x_2.powi(6) - n2985984 * x_2.powi(5)
                    + x_1
                        * (-n5971968 * x_2.powi(5) + n27463680 * x_2.powi(4)
                            - n29598720 * x_2.powi(3)
                            + n4323840 * x_2.powi(2)
                            + n3113472 * x_2
                            - n255808)
                    - n5287680 * x_2.powi(4)
                    + x_1.powi(2)
                        * (-n9400320 * x_2.powi(4)
                            + n4546560 * x_2.powi(3)
                            + n23185920 * x_2.powi(2)
                            - n13570560 * x_2
                            - n255264)
                    + x_1.powi(3)
                        * (n7127040 * x_2.powi(3) - n27402240 * x_2.powi(2)
                            + n10081280 * x_2
                            + n4231680)
                    + n9454080 * x_2.powi(3)
                    + x_1.powi(4) * (n6266880 * x_2.powi(2) + n2580480 * x_2 - n7175680)
                    - n3896064 * x_2.powi(2)
                    + n327872 * x_2
                    + x_1.powi(5) * (n4079616 - n2654208 * x_2)
                    - n688128 * x_1.powi(6)
                    + n5874))
                / (n10.ln()
                    * (n192 * x_2.powi(4)
                        + x_1 * (n768 * x_2.powi(3) - n2688 * x_2.powi(2) + n3024 * x_2 - n1080)
                        - n896 * x_2.powi(3)
                        + x_1.powi(2) * (n1152 * x_2.powi(2) - n2688 * x_2 + n1512)
                        + n1512 * x_2.powi(2)
                        + x_1.powi(3) * (n768 * x_2 - n896)
                        - n1080 * x_2
                        + n192 * x_1.powi(4)
                        + n277)
                    * (n31104 * x_2.powi(4) - n6912 * x_2.powi(3)
                        + x_1 * (-n82944 * x_2.powi(3) + n13824 * x_2.powi(2) + n576 * x_2 - n96)
                        + x_1.powi(2) * (n82944 * x_2.powi(2) - n9216 * x_2 - n192)
                        - n432 * x_2.powi(2)
                        + n144 * x_2
                        + x_1.powi(3) * (n2048 - n36864 * x_2)
                        + n6144 * x_1.powi(4)
                        + n11));

        let b = -(factor
            * (n768 * x_2.powi(3)
                + n3 * (n768 * x_1 - n896) * x_2.powi(2)
                + n2 * (n1152 * x_1.powi(2) - n2688 * x_1 + n1512) * x_2
                + n768 * x_1.powi(3)
                - n2688 * x_1.powi(2)
                + n3024 * x_1
                - n1080)
            * (n1990656 * x_2.powi(7)
                + (n2322432 * x_1 - n8515584) * x_2.powi(6)
                + (-n2985984 * x_1.powi(2) - n2985984 * x_1 + n13284864) * x_2.powi(5)
                + (-n3133440 * x_1.powi(3) + n13731840 * x_1.powi(2) - n5287680 * x_1 - n9089280)
                    * x_2.powi(4)
                + (n1781760 * x_1.powi(4) + n1515520 * x_1.powi(3) - n14799360 * x_1.powi(2)
                    + n9454080 * x_1
                    + n2550112)
                    * x_2.powi(3)
                + (n1253376 * x_1.powi(5) - n6850560 * x_1.powi(4)
                    + n7728640 * x_1.powi(3)
                    + n2161920 * x_1.powi(2)
                    - n3896064 * x_1
                    - n155024)
                    * x_2.powi(2)
                + (-n442368 * x_1.powi(6) + n516096 * x_1.powi(5) + n2520320 * x_1.powi(4)
                    - n4523520 * x_1.powi(3)
                    + n1556736 * x_1.powi(2)
                    + n327872 * x_1
                    - n21546)
                    * x_2
                - n98304 * x_1.powi(7)
                + n679936 * x_1.powi(6)
                - n1435136 * x_1.powi(5)
                + n1057920 * x_1.powi(4)
                - n85088 * x_1.powi(3)
                - n127904 * x_1.powi(2)
                + n5874 * x_1
                + n1167))
            / (n10.ln()
                * (n192 * x_2.powi(4)
                    + (n768 * x_1 - n896) * x_2.powi(3)
                    + (n1152 * x_1.powi(2) - n2688 * x_1 + n1512) * x_2.powi(2)
                    + (n768 * x_1.powi(3) - n2688 * x_1.powi(2) + n3024 * x_1 - n1080) * x_2
                    + n192 * x_1.powi(4)
                    - n896 * x_1.powi(3)
                    + n1512 * x_1.powi(2)
                    - n1080 * x_1
                    + n277)
                    .powi(2)
                * (n31104 * x_2.powi(4)
                    + (-n82944 * x_1 - n6912) * x_2.powi(3)
                    + (n82944 * x_1.powi(2) + n13824 * x_1 - n432) * x_2.powi(2)
                    + (-n36864 * x_1.powi(3) - n9216 * x_1.powi(2) + n576 * x_1 + n144) * x_2
                    + n6144 * x_1.powi(4)
                    + n2048 * x_1.powi(3)
                    - n192 * x_1.powi(2)
                    - n96 * x_1
                    + n11))
            - (factor
                * (n124416 * x_2.powi(3)
                    + n3 * (-n82944 * x_1 - n6912) * x_2.powi(2)
                    + n2 * (n82944 * x_1.powi(2) + n13824 * x_1 - n432) * x_2
                    - n36864 * x_1.powi(3)
                    - n9216 * x_1.powi(2)
                    + n576 * x_1
                    + n144)
                * (n1990656 * x_2.powi(7)
                    + (n2322432 * x_1 - n8515584) * x_2.powi(6)
                    + (-n2985984 * x_1.powi(2) - n2985984 * x_1 + n13284864) * x_2.powi(5)
                    + (-n3133440 * x_1.powi(3) + n13731840 * x_1.powi(2) - n5287680 * x_1 - n9089280)
                        * x_2.powi(4)
                    + (n1781760 * x_1.powi(4) + n1515520 * x_1.powi(3) - n14799360 * x_1.powi(2)
                        + n9454080 * x_1
                        + n2550112)
                        * x_2.powi(3)
                    + (n1253376 * x_1.powi(5) - n6850560 * x_1.powi(4)
                        + n7728640 * x_1.powi(3)
                        + n2161920 * x_1.powi(2)
                        - n3896064 * x_1
                        - n155024)
                        * x_2.powi(2)
                    + (-n442368 * x_1.powi(6) + n516096 * x_1.powi(5) + n2520320 * x_1.powi(4)
                        - n4523520 * x_1.powi(3)
                        + n1556736 * x_1.powi(2)
                        + n327872 * x_1
                        - n21546)
                        * x_2
                    - n98304 * x_1.powi(7)
                    + n679936 * x_1.powi(6)
                    - n1435136 * x_1.powi(5)
                    + n1057920 * x_1.powi(4)
                    - n85088 * x_1.powi(3)
                    - n127904 * x_1.powi(2)
                    + n5874 * x_1
                    + n1167))
                / (n10.ln()
                    * (n192 * x_2.powi(4)
                        + (n768 * x_1 - n896) * x_2.powi(3)
                        + (n1152 * x_1.powi(2) - n2688 * x_1 + n1512) * x_2.powi(2)
                        + (n768 * x_1.powi(3) - n2688 * x_1.powi(2) + n3024 * x_1 - n1080) * x_2
                        + n192 * x_1.powi(4)
                        - n896 * x_1.powi(3)
                        + n1512 * x_1.powi(2)
                        - n1080 * x_1
                        + n277)
                    * (n31104 * x_2.powi(4)
                        + (-n82944 * x_1 - n6912) * x_2.powi(3)
                        + (n82944 * x_1.powi(2) + n13824 * x_1 - n432) * x_2.powi(2)
                        + (-n36864 * x_1.powi(3) - n9216 * x_1.powi(2) + n576 * x_1 + n144) * x_2
                        + n6144 * x_1.powi(4)
                        + n2048 * x_1.powi(3)
                        - n192 * x_1.powi(2)
                        - n96 * x_1
                        + n11)
                        .powi(2))
            + (factor
                * (n13934592 * x_2.powi(6)
                    + n6 * (n2322432 * x_1 - n8515584) * x_2.powi(5)
                    + n5 * (-n2985984 * x_1.powi(2) - n2985984 * x_1 + n13284864) * x_2.powi(4)
                    + n4 * (-n3133440 * x_1.powi(3) + n13731840 * x_1.powi(2)
                        - n5287680 * x_1
                        - n9089280)
                        * x_2.powi(3)
                    + n3 * (n1781760 * x_1.powi(4) + n1515520 * x_1.powi(3)
                        - n14799360 * x_1.powi(2)
                        + n9454080 * x_1
                        + n2550112)
                        * x_2.powi(2)
                    + n2 * (n1253376 * x_1.powi(5) - n6850560 * x_1.powi(4)
                        + n7728640 * x_1.powi(3)
                        + n2161920 * x_1.powi(2)
                        - n3896064 * x_1
                        - n155024)
                        * x_2
                    - n442368 * x_1.powi(6)
                    + n516096 * x_1.powi(5)
                    + n2520320 * x_1.powi(4)
                    - n4523520 * x_1.powi(3)
                    + n1556736 * x_1.powi(2)
                    + n327872 * x_1
                    - n21546))
                / (n10.ln()
                    * (n192 * x_2.powi(4)
                        + (n768 * x_1 - n896) * x_2.powi(3)
                        + (n1152 * x_1.powi(2) - n2688 * x_1 + n1512) * x_2.powi(2)
                        + (n768 * x_1.powi(3) - n2688 * x_1.powi(2) + n3024 * x_1 - n1080) * x_2
                        + n192 * x_1.powi(4)
                        - n896 * x_1.powi(3)
                        + n1512 * x_1.powi(2)
                        - n1080 * x_1
                        + n277)
                    * (n31104 * x_2.powi(4)
                        + (-n82944 * x_1 - n6912) * x_2.powi(3)
                        + (n82944 * x_1.powi(2) + n13824 * x_1 - n432) * x_2.powi(2)
                        + (-n36864 * x_1.powi(3) - n9216 * x_1.powi(2) + n576 * x_1 + n144) * x_2
                        + n6144 * x_1.powi(4)
                        + n2048 * x_1.powi(3)
                        - n192 * x_1.powi(2)
                        - n96 * x_1
                        + n11));

        let a = -(factor
            * (n768 * x_1.powi(3)
                + n3 * (n768 * x_2 - n896) * x_1.powi(2)
                + n2 * (n1152 * x_2.powi(2) - n2688 * x_2 + n1512) * x_1
                + n768 * x_2.powi(3)
                - n2688 * x_2.powi(2)
                + n3024 * x_2
                - n1080)
            * (n393216 * x_1.powi(7)
                + (-n688128 * x_2 - n1490944) * x_1.powi(6)
                + (-n1327104 * x_2.powi(2) + n4079616 * x_2 + n1854464) * x_1.powi(5)
                + (n2088960 * x_2.powi(3) + n1290240 * x_2.powi(2) - n7175680 * x_2 - n705280)
                    * x_1.powi(4)
                + (n1781760 * x_2.powi(4) - n9134080 * x_2.powi(3)
                    + n5040640 * x_2.powi(2)
                    + n4231680 * x_2
                    - n118688)
                    * x_1.powi(3)
                + (-n1880064 * x_2.powi(5) + n1136640 * x_2.powi(4) + n7728640 * x_2.powi(3)
                    - n6785280 * x_2.powi(2)
                    - n255264 * x_2
                    + n77456)
                    * x_1.powi(2)
                + (-n995328 * x_2.powi(6) + n5492736 * x_2.powi(5) - n7399680 * x_2.powi(4)
                    + n1441280 * x_2.powi(3)
                    + n1556736 * x_2.powi(2)
                    - n255808 * x_2
                    + n5594)
                    * x_1
                + n331776 * x_2.powi(7)
                - n497664 * x_2.powi(6)
                - n1057536 * x_2.powi(5)
                + n2363520 * x_2.powi(4)
                - n1298688 * x_2.powi(3)
                + n163936 * x_2.powi(2)
                + n5874 * x_2
                - n1603))
            / (n10.ln()
                * (n192 * x_1.powi(4)
                    + (n768 * x_2 - n896) * x_1.powi(3)
                    + (n1152 * x_2.powi(2) - n2688 * x_2 + n1512) * x_1.powi(2)
                    + (n768 * x_2.powi(3) - n2688 * x_2.powi(2) + n3024 * x_2 - n1080) * x_1
                    + n192 * x_2.powi(4)
                    - n896 * x_2.powi(3)
                    + n1512 * x_2.powi(2)
                    - n1080 * x_2
                    + n277)
                    .powi(2)
                * (n6144 * x_1.powi(4)
                    + (n2048 - n36864 * x_2) * x_1.powi(3)
                    + (n82944 * x_2.powi(2) - n9216 * x_2 - n192) * x_1.powi(2)
                    + (-n82944 * x_2.powi(3) + n13824 * x_2.powi(2) + n576 * x_2 - n96) * x_1
                    + n31104 * x_2.powi(4)
                    - n6912 * x_2.powi(3)
                    - n432 * x_2.powi(2)
                    + n144 * x_2
                    + n11))
            - (factor
                * (n24576 * x_1.powi(3)
                    + n3 * (n2048 - n36864 * x_2) * x_1.powi(2)
                    + n2 * (n82944 * x_2.powi(2) - n9216 * x_2 - n192) * x_1
                    - n82944 * x_2.powi(3)
                    + n13824 * x_2.powi(2)
                    + n576 * x_2
                    - n96)
                * (n393216 * x_1.powi(7)
                    + (-n688128 * x_2 - n1490944) * x_1.powi(6)
                    + (-n1327104 * x_2.powi(2) + n4079616 * x_2 + n1854464) * x_1.powi(5)
                    + (n2088960 * x_2.powi(3) + n1290240 * x_2.powi(2) - n7175680 * x_2 - n705280)
                        * x_1.powi(4)
                    + (n1781760 * x_2.powi(4) - n9134080 * x_2.powi(3)
                        + n5040640 * x_2.powi(2)
                        + n4231680 * x_2
                        - n118688)
                        * x_1.powi(3)
                    + (-n1880064 * x_2.powi(5) + n1136640 * x_2.powi(4) + n7728640 * x_2.powi(3)
                        - n6785280 * x_2.powi(2)
                        - n255264 * x_2
                        + n77456)
                        * x_1.powi(2)
                    + (-n995328 * x_2.powi(6) + n5492736 * x_2.powi(5) - n7399680 * x_2.powi(4)
                        + n1441280 * x_2.powi(3)
                        + n1556736 * x_2.powi(2)
                        - n255808 * x_2
                        + n5594)
                        * x_1
                    + n331776 * x_2.powi(7)
                    - n497664 * x_2.powi(6)
                    - n1057536 * x_2.powi(5)
                    + n2363520 * x_2.powi(4)
                    - n1298688 * x_2.powi(3)
                    + n163936 * x_2.powi(2)
                    + n5874 * x_2
                    - n1603))
                / (n10.ln()
                    * (n192 * x_1.powi(4)
                        + (n768 * x_2 - n896) * x_1.powi(3)
                        + (n1152 * x_2.powi(2) - n2688 * x_2 + n1512) * x_1.powi(2)
                        + (n768 * x_2.powi(3) - n2688 * x_2.powi(2) + n3024 * x_2 - n1080) * x_1
                        + n192 * x_2.powi(4)
                        - n896 * x_2.powi(3)
                        + n1512 * x_2.powi(2)
                        - n1080 * x_2
                        + n277)
                    * (n6144 * x_1.powi(4)
                        + (n2048 - n36864 * x_2) * x_1.powi(3)
                        + (n82944 * x_2.powi(2) - n9216 * x_2 - n192) * x_1.powi(2)
                        + (-n82944 * x_2.powi(3) + n13824 * x_2.powi(2) + n576 * x_2 - n96) * x_1
                        + n31104 * x_2.powi(4)
                        - n6912 * x_2.powi(3)
                        - n432 * x_2.powi(2)
                        + n144 * x_2
                        + n11)
                        .powi(2))
            + (factor
                * (n2752512 * x_1.powi(6)
                    + n6 * (-n688128 * x_2 - n1490944) * x_1.powi(5)
                    + n5 * (-n1327104 * x_2.powi(2) + n4079616 * x_2 + n1854464) * x_1.powi(4)
                    + n4 * (n2088960 * x_2.powi(3) + n1290240 * x_2.powi(2)
                        - n7175680 * x_2
                        - n705280)
                        * x_1.powi(3)
                    + n3 * (n1781760 * x_2.powi(4) - n9134080 * x_2.powi(3)
                        + n5040640 * x_2.powi(2)
                        + n4231680 * x_2
                        - n118688)
                        * x_1.powi(2)
                    + n2 * (-n1880064 * x_2.powi(5)
                        + n1136640 * x_2.powi(4)
                        + n7728640 * x_2.powi(3)
                        - n6785280 * x_2.powi(2)
                        - n255264 * x_2
                        + n77456)
                        * x_1
                    - n995328 * x_2.powi(6)
                    + n5492736 * x_2.powi(5)
                    - n7399680 * x_2.powi(4)
                    + n1441280 * x_2.powi(3)
                    + n1556736 * x_2.powi(2)
                    - n255808 * x_2
                    + n5594))
                / (n10.ln()
                    * (n192 * x_1.powi(4)
                        + (n768 * x_2 - n896) * x_1.powi(3)
                        + (n1152 * x_2.powi(2) - n2688 * x_2 + n1512) * x_1.powi(2)
                        + (n768 * x_2.powi(3) - n2688 * x_2.powi(2) + n3024 * x_2 - n1080) * x_1
                        + n192 * x_2.powi(4)
                        - n896 * x_2.powi(3)
                        + n1512 * x_2.powi(2)
                        - n1080 * x_2
                        + n277)
                    * (n6144 * x_1.powi(4)
                        + (n2048 - n36864 * x_2) * x_1.powi(3)
                        + (n82944 * x_2.powi(2) - n9216 * x_2 - n192) * x_1.powi(2)
                        + (-n82944 * x_2.powi(3) + n13824 * x_2.powi(2) + n576 * x_2 - n96) * x_1
                        + n31104 * x_2.powi(4)
                        - n6912 * x_2.powi(3)
                        - n432 * x_2.powi(2)
                        + n144 * x_2
                        + n11));

        [[a, offdiag], [offdiag, b]]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod rastrigin {
    //! # Rastrigin test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2,\\,\ldots,\\,x_d) = a\cdot d + \sum_{i=1}^{d} \left[ x_i^2 - a\cos(2\pi x_i) \right]
    //! $$
    //!
    //! where $x_i \in [-5.12,\\,5.12]$ and $a = 10$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2,\\,\ldots,\\,x_d) = f(0,\\,0,\\,\ldots,\\,0) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};
    use std::f64::consts::PI;
    use std::iter::Sum;

    /// Rastrigin test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2,\\,\ldots,\\,x_d) = a\cdot d + \sum_{i=1}^{d} \left[ x_i^2 - a\cos(2\pi x_i) \right]
    /// $$
    ///
    /// where $x_i \in [-5.12,\\,5.12]$ and $a = 10$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2,\\,\ldots,\\,x_d) = f(0,\\,0,\\,\ldots,\\,0) = 0$.
    ///
    /// See [`rastrigin_a`] for a variant where the parameter `a` can be chosen freely.
    #[derive_frule]
    pub fn rastrigin<T>(param: &[T]) -> T
    where
        T: Float + FromPrimitive + Sum,
    {
        rastrigin_a(param, T::from_f64(10.0).unwrap())
    }

    /// Rastrigin test function.
    ///
    /// The same as [`rastrigin`]; however, it allows to set the parameter a.
    #[derive_frule]
    pub fn rastrigin_a<T>(param: &[T], a: T) -> T
    where
        T: Float + FromPrimitive + Sum,
    {
        a * T::from_usize(param.len()).unwrap()
            + param
                .iter()
                .map(|&x| x.powi(2) - a * (T::from_f64(2.0 * PI).unwrap() * x).cos())
                .sum()
    }

    /// Derivative of Rastrigin test function where the parameter `a` can be chosen freely.
    #[derive_frule]
    pub fn rastrigin_a_derivative<T>(param: &[T], a: T) -> Vec<T>
    where
        T: Float + FromPrimitive + Sum + Into<f64>,
    {
        let npi2 = T::from_f64(2.0 * PI).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        param
            .iter()
            .map(|x| n2 * *x + npi2 * a * T::from_f64(f64::sin((npi2 * *x).into())).unwrap())
            .collect()
    }

    /// Derivative of Rastrigin test function with `a = 10`.
    #[derive_frule]
    pub fn rastrigin_derivative<T>(param: &[T]) -> Vec<T>
    where
        T: Float + FromPrimitive + Sum + Into<f64>,
    {
        rastrigin_a_derivative(param, T::from_f64(10.0).unwrap())
    }

    /// Derivative of Rastrigin test function where the parameter `a` can be chosen freely.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn rastrigin_a_derivative_const<const N: usize, T>(param: &[T; N], a: T) -> [T; N]
    where
        T: Float + FromPrimitive + Sum + Into<f64>,
    {
        let npi2 = T::from_f64(2.0 * PI).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let mut result = [T::from_f64(0.0).unwrap(); N];
        for i in 0..N {
            result[i] =
                n2 * param[i] + npi2 * a * T::from_f64(f64::sin((npi2 * param[i]).into())).unwrap();
        }
        result
    }

    /// Derivative of Rastrigin test function with `a = 10`.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn rastrigin_derivative_const<const N: usize, T>(param: &[T; N]) -> [T; N]
    where
        T: Float + FromPrimitive + Sum + Into<f64>,
    {
        rastrigin_a_derivative_const(param, T::from_f64(10.0).unwrap())
    }

    /// Hessian of Rastrigin test function where the parameter `a` can be chosen freely.
    #[derive_frule]
    pub fn rastrigin_a_hessian<T>(param: &[T], a: T) -> Vec<Vec<T>>
    where
        T: Float + FromPrimitive + Sum + Into<f64>,
    {
        let npi2 = T::from_f64(2.0 * PI).unwrap();
        let n4pisq = T::from_f64(4.0 * PI.powi(2)).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n0 = T::from_f64(0.0).unwrap();

        let n = param.len();
        let mut hessian = vec![vec![n0; n]; n];

        for i in 0..n {
            hessian[i][i] = n2 + n4pisq * a * T::from_f64(f64::cos((npi2 * param[i]).into())).unwrap();
        }
        hessian
    }

    /// Hessian of Rastrigin test function with `a = 10`.
    #[derive_frule]
    pub fn rastrigin_hessian<T>(param: &[T]) -> Vec<Vec<T>>
    where
        T: Float + FromPrimitive + Sum + Into<f64>,
    {
        rastrigin_a_hessian(param, T::from_f64(10.0).unwrap())
    }

    /// Hessian of Rastrigin test function where `a` can be chosen freely.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn rastrigin_a_hessian_const<const N: usize, T>(param: &[T], a: T) -> [[T; N]; N]
    where
        T: Float + FromPrimitive + Sum + Into<f64>,
    {
        let npi2 = T::from_f64(2.0 * PI).unwrap();
        let n4pisq = T::from_f64(4.0 * PI.powi(2)).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n0 = T::from_f64(0.0).unwrap();

        let mut hessian = [[n0; N]; N];

        for i in 0..N {
            hessian[i][i] = n2 + n4pisq * a * T::from_f64(f64::cos((npi2 * param[i]).into())).unwrap();
        }
        hessian
    }

    /// Hessian of Rastrigin test function with `a = 10`.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn rastrigin_hessian_const<const N: usize, T>(param: &[T; N]) -> [[T; N]; N]
    where
        T: Float + FromPrimitive + Sum + Into<f64>,
    {
        rastrigin_a_hessian_const(param, T::from_f64(10.0).unwrap())
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod rosenbrock {
    //! # Rosenbrock function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2,\\,\ldots,\\,x_d) = \sum_{i=1}^{d-1} \left[ (a - x_i)^2 + b(x_{i+1} - x_i^2)^2 \right]
    //! $$
    //!
    //! where $x_i \in (-\infty, \infty)$. Typically, $a = 1$ and $b = 100$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2,\\,\ldots,\\, x_d) = f(1,\\,1,\\,\ldots,\\,1) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};
    use std::{iter::Sum, ops::AddAssign};

    /// Multidimensional Rosenbrock test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2,\\,\ldots,\\,x_d) = \sum_{i=1}^{d-1} \left[ (a - x_i)^2 + b(x_{i+1} - x_i^2)^2 \right]
    /// $$
    ///
    /// where $x_i \in (-\infty, \infty)$, $a = 1$, and $b = 100$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2,\\,\ldots,\\, x_d) = f(1,\\,1,\\,\ldots,\\,1) = 0$.
    ///
    /// See [`rosenbrock_ab`] for a variant that allows choosing `a` and `b` freely.
    #[derive_frule]
    pub fn rosenbrock<T>(param: &[T]) -> T
    where
        T: Float + FromPrimitive + Sum,
    {
        rosenbrock_ab(
            param,
            T::from_f64(1.0).unwrap(),
            T::from_f64(100.0).unwrap(),
        )
    }

    /// Multidimensional Rosenbrock test function.
    ///
    /// Same as [`rosenbrock`] but with free choice of the parameters `a` and `b`.
    #[derive_frule]
    pub fn rosenbrock_ab<T>(param: &[T], a: T, b: T) -> T
    where
        T: Float + FromPrimitive + Sum,
    {
        param
            .iter()
            .zip(param.iter().skip(1))
            .map(|(&xi, &xi1)| (a - xi).powi(2) + b * (xi1 - xi.powi(2)).powi(2))
            .sum()
    }
    /// Derivative of the multidimensional Rosenbrock test function.
    ///
    /// The parameters `a` and `b` are set to `1.0` and `100.0`, respectively.
    #[derive_frule]
    pub fn rosenbrock_derivative<T>(param: &[T]) -> Vec<T>
    where
        T: Float + FromPrimitive + AddAssign,
    {
        rosenbrock_ab_derivative(
            param,
            T::from_f64(1.0).unwrap(),
            T::from_f64(100.0).unwrap(),
        )
    }

    /// Derivative of the multidimensional Rosenbrock test function.
    ///
    /// The parameters `a` and `b` can be chosen freely.
    #[derive_frule]
    pub fn rosenbrock_ab_derivative<T>(param: &[T], a: T, b: T) -> Vec<T>
    where
        T: Float + FromPrimitive + AddAssign,
    {
        let n0 = T::from_f64(0.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();

        let n = param.len();

        let mut result = vec![n0; n];

        for i in 0..(n - 1) {
            let xi = param[i];
            let xi1 = param[i + 1];

            let t1 = -n4 * b * xi * (xi1 - xi.powi(2));
            let t2 = n2 * b * (xi1 - xi.powi(2));

            result[i] += t1 + n2 * (xi - a);
            result[i + 1] += t2;
        }
        result
    }

    /// Hessian of the multidimensional Rosenbrock test function.
    ///
    /// The parameters `a` and `b` are set to `1.0` and `100.0`, respectively.
    #[derive_frule]
    pub fn rosenbrock_hessian<T>(param: &[T]) -> Vec<Vec<T>>
    where
        T: Float + FromPrimitive + AddAssign,
    {
        rosenbrock_ab_hessian(
            param,
            T::from_f64(1.0).unwrap(),
            T::from_f64(100.0).unwrap(),
        )
    }

    /// Hessian of the multidimensional Rosenbrock test function.
    ///
    /// The parameters `a` and `b` can be chosen freely.
    #[derive_frule]
    pub fn rosenbrock_ab_hessian<T>(param: &[T], a: T, b: T) -> Vec<Vec<T>>
    where
        T: Float + FromPrimitive + AddAssign,
    {
        let n0 = T::from_f64(0.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n12 = T::from_f64(12.0).unwrap();

        let n = param.len();
        let mut hessian = vec![vec![n0; n]; n];

        for i in 0..n - 1 {
            let xi = param[i];
            let xi1 = param[i + 1];

            hessian[i][i] += n12 * b * xi.powi(2) - n4 * b * xi1 + n2 * a;
            hessian[i + 1][i + 1] = n2 * b;
            hessian[i][i + 1] = -n4 * b * xi;
            hessian[i + 1][i] = -n4 * b * xi;
        }
        hessian
    }

    /// Derivative of the multidimensional Rosenbrock test function.
    ///
    /// The parameters `a` and `b` are set to `1.0` and `100.0`, respectively.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn rosenbrock_derivative_const<const N: usize, T>(param: &[T; N]) -> [T; N]
    where
        T: Float + FromPrimitive + AddAssign,
    {
        rosenbrock_ab_derivative_const(
            param,
            T::from_f64(1.0).unwrap(),
            T::from_f64(100.0).unwrap(),
        )
    }

    /// Derivative of the multidimensional Rosenbrock test function.
    ///
    /// The parameters `a` and `b` can be chosen freely.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn rosenbrock_ab_derivative_const<const N: usize, T>(param: &[T; N], a: T, b: T) -> [T; N]
    where
        T: Float + FromPrimitive + AddAssign,
    {
        let n0 = T::from_f64(0.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();

        let mut result = [n0; N];

        for i in 0..(N - 1) {
            let xi = param[i];
            let xi1 = param[i + 1];

            let t1 = -n4 * b * xi * (xi1 - xi.powi(2));
            let t2 = n2 * b * (xi1 - xi.powi(2));

            result[i] += t1 + n2 * (xi - a);
            result[i + 1] += t2;
        }
        result
    }

    /// Hessian of the multidimensional Rosenbrock test function.
    ///
    /// The parameters `a` and `b` are set to `1.0` and `100.0`, respectively.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn rosenbrock_hessian_const<const N: usize, T>(param: &[T; N]) -> [[T; N]; N]
    where
        T: Float + FromPrimitive + AddAssign,
    {
        rosenbrock_ab_hessian_const(
            param,
            T::from_f64(1.0).unwrap(),
            T::from_f64(100.0).unwrap(),
        )
    }

    /// Hessian of the multidimensional Rosenbrock test function.
    ///
    /// The parameters `a` and `b` can be chosen freely.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn rosenbrock_ab_hessian_const<const N: usize, T>(x: &[T; N], a: T, b: T) -> [[T; N]; N]
    where
        T: Float + FromPrimitive + AddAssign,
    {
        let n0 = T::from_f64(0.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n12 = T::from_f64(12.0).unwrap();

        let mut hessian = [[n0; N]; N];

        for i in 0..(N - 1) {
            let xi = x[i];
            let xi1 = x[i + 1];

            hessian[i][i] += n12 * b * xi.powi(2) - n4 * b * xi1 + n2 * a;
            hessian[i + 1][i + 1] = n2 * b;
            hessian[i][i + 1] = -n4 * b * xi;
            hessian[i + 1][i] = -n4 * b * xi;
        }
        hessian
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod schaffer {
    //! # Schaffer test function No. 2
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2) = 0.5 + \frac{\sin^2(x_1^2 - x_2^2) - 0.5}{\left[1 + 0.001(x_1^2 + x_2^2)\right]^2}
    //! $$
    //!
    //! where $x_i \in [-100, 100]$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2) = f(0,\\,0) = 0$.
    //!
    //! # Schaffer test function No. 4
    //!

    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2) = 0.5 + \frac{\cos^2(\sin(\left|x_1^2 - x_2^2\right|)) - 0.5}{\left[1 + 0.001(x_1^2 + x_2^2)\right]^2}
    //! $$
    //!
    //! where $x_i \in [-100, 100]$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2) = f(0,\\,1.25313) = 0.291992$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Schaffer test function No. 2.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2) = 0.5 + \frac{\sin^2(x_1^2 - x_2^2) - 0.5}{\left[1 + 0.001(x_1^2 + x_2^2)\right]^2}
    /// $$
    ///
    /// where $x_i \in [-100, 100]$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2) = f(0,\\,0) = 0$.
    #[derive_frule]
    pub fn schaffer_n2<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n0_001 = T::from_f64(0.001).unwrap();
        let n0_5 = T::from_f64(0.5).unwrap();
        let n1 = T::from_f64(1.0).unwrap();

        n0_5 + ((x1.powi(2) - x2.powi(2)).sin().powi(2) - n0_5)
            / (n1 + n0_001 * (x1.powi(2) + x2.powi(2))).powi(2)
    }

    /// Derivative of Schaffer test function No. 2
    #[derive_frule]
    pub fn schaffer_n2_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n0_001 = T::from_f64(0.001).unwrap();
        let n0_004 = T::from_f64(0.004).unwrap();
        let n0_5 = T::from_f64(0.5).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();

        let x1spx2s = x1.powi(2) + x2.powi(2);
        let x1smx2s = x1.powi(2) - x2.powi(2);
        let x2smx1s = x2.powi(2) - x1.powi(2);
        let tmp = n0_001 * x1spx2s + n1;
        let denom2 = tmp.powi(2);
        let denom3 = tmp.powi(3);
        let a = x1smx2s.sin() * x1smx2s.cos();
        let a2 = x2smx1s.sin() * x2smx1s.cos();
        let b = n0_004 * (x1smx2s.sin().powi(2) - n0_5);

        [
            (n4 * x1 * a) / denom2 - (x1 * b) / denom3,
            (n4 * x2 * a2) / denom2 - (x2 * b) / denom3,
        ]
    }

    /// Hessian of Schaffer test function No. 2
    #[derive_frule]
    pub fn schaffer_n2_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n0_001 = T::from_f64(0.001).unwrap();
        let n0_004 = T::from_f64(0.004).unwrap();
        let n0_006 = T::from_f64(0.006).unwrap();
        let n0_032 = T::from_f64(0.032).unwrap();
        let n0_5 = T::from_f64(0.5).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();

        let x1s = x1.powi(2);
        let x2s = x2.powi(2);
        let x1spx2s = x1s + x2s;
        let x1smx2s = x1s - x2s;
        let x2smx1s = x2s - x1s;
        let x1smx2ssin2 = x1smx2s.sin().powi(2);
        let x2smx1ssin2 = x2smx1s.sin().powi(2);
        let x1smx2scos2 = x1smx2s.cos().powi(2);
        let x2smx1scos2 = x2smx1s.cos().powi(2);
        let tmp = n0_001 * x1spx2s + n1;
        let denom2 = tmp.powi(2);
        let denom3 = tmp.powi(3);
        let denom4 = tmp.powi(4);
        let a = x1smx2s.sin() * x1smx2s.cos();
        let a2 = x2smx1s.sin() * x2smx1s.cos();
        let b = n0_004 * (x1smx2ssin2 - n0_5);

        let offdiag =
            (n8 * x1 * x2 * (x1smx2ssin2 - x1smx2scos2)) / denom2 + (n0_006 * x1 * x2 * b) / denom4;

        [
            [
                (-(n8 * x1s * x1smx2ssin2) + (n4 * a) + (n8 * x1s * x1smx2scos2)) / denom2
                    - (b + (n0_032 * x1s * a)) / denom3
                    + (n0_006 * x1s * b) / denom4,
                offdiag,
            ],
            [
                offdiag,
                (-(n8 * x2s * x2smx1ssin2) + (n4 * a2) + (n8 * x2s * x2smx1scos2)) / denom2
                    - (b + (n0_032 * x2s * a2)) / denom3
                    + (n0_006 * x2s * b) / denom4,
            ],
        ]
    }

    /// Schaffer test function No. 4
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2) = 0.5 + \frac{\cos^2(\sin(\left|x_1^2 - x_2^2\right|)) - 0.5}{\left[1 + 0.001(x_1^2 + x_2^2)\right]^2}
    /// $$
    ///
    /// where $x_i \in [-100, 100]$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2) = f(0,\\,1.25313) = 0.291992$.
    #[derive_frule]
    pub fn schaffer_n4<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;
        let n05 = T::from_f64(0.5).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        let n0001 = T::from_f64(0.001).unwrap();
        n05 + ((x1.powi(2) - x2.powi(2)).abs().sin().cos().powi(2) - n05)
            / (n1 + n0001 * (x1.powi(2) + x2.powi(2))).powi(2)
    }

    /// Derivative of Schaffer test function No. 4
    #[derive_frule]
    pub fn schaffer_n4_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;
        let n0_5 = T::from_f64(0.5).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        let n0_001 = T::from_f64(0.001).unwrap();
        let n0_004 = T::from_f64(0.004).unwrap();
        let n4 = T::from_f64(4.0).unwrap();

        let x1smx2s = x1.powi(2) - x2.powi(2);
        let x2smx1s = x2.powi(2) - x1.powi(2);
        let x1spx2s = x1.powi(2) + x2.powi(2);
        let x1smx2scos = x1smx2s.cos();
        let x2smx1scos = x2smx1s.cos();
        let x1smx2sabs = x1smx2s.abs();
        let x1smx2sabssin = x1smx2sabs.sin();
        let x2smx1sabssin = x1smx2sabs.sin();
        let x1smx2sabssincos = x1smx2sabssin.cos();
        let x1smx2sabssinsin = x1smx2sabssin.sin();
        let x1smx2sabssincos2 = x1smx2sabssin.cos().powi(2);
        let x2smx1sabssincos = x2smx1sabssin.cos();
        let x2smx1sabssinsin = x2smx1sabssin.sin();
        let x2smx1sabssincos2 = x2smx1sabssin.cos().powi(2);
        let denom_a = (n0_001 * x1spx2s + n1).powi(2);
        let denom_b = (n0_001 * x1spx2s + n1).powi(3);

        [
            -(n4 * x1 * x1smx2s * x1smx2scos * x1smx2sabssincos * x1smx2sabssinsin)
                / (denom_a * x1smx2sabs)
                - (n0_004 * x1 * (x1smx2sabssincos2 - n0_5)) / denom_b,
            -(n4 * x2 * x2smx1s * x2smx1scos * x2smx1sabssincos * x2smx1sabssinsin)
                / (denom_a * x1smx2sabs)
                - (n0_004 * x2 * (x2smx1sabssincos2 - n0_5)) / denom_b,
        ]
    }

    /// Hessian of Schaffer test function No. 4
    #[derive_frule]
    pub fn schaffer_n4_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let eps = T::epsilon();
        let n0_5 = T::from_f64(0.5).unwrap();
        let n0 = T::from_f64(0.0).unwrap();
        let n1 = T::from_f64(1.0).unwrap();
        let n0_001 = T::from_f64(0.001).unwrap();
        let n0_004 = T::from_f64(0.004).unwrap();
        let n0_006 = T::from_f64(0.006).unwrap();
        let n0_016 = T::from_f64(0.016).unwrap();
        let n0_032 = T::from_f64(0.032).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n8 = T::from_f64(8.0).unwrap();

        let x1s = x1.powi(2);
        let x2s = x2.powi(2);
        let x1smx2s = x1s - x2s;
        let x2smx1s = x2s - x1s;
        let x1spx2s = x1s + x2s;
        let x1smx2scos = x1smx2s.cos();
        let x1smx2ssin = x1smx2s.sin();
        let x2smx1ssin = x2smx1s.sin();
        let x2smx1scos = x2smx1s.cos();
        let x1smx2scos2 = x1smx2scos.powi(2);
        let x2smx1scos2 = x2smx1scos.powi(2);
        let x1smx2sabs = x1smx2s.abs();
        let x1smx2sabssin = x1smx2sabs.sin();
        let x2smx1sabssin = x1smx2sabs.sin();
        let x1smx2sabssincos = x1smx2sabssin.cos();
        let x1smx2sabssinsin = x1smx2sabssin.sin();
        let x2smx1sabssinsin = x2smx1sabssin.sin();
        let x1smx2sabssinsin2 = x1smx2sabssinsin.powi(2);
        let x2smx1sabssinsin2 = x2smx1sabssinsin.powi(2);
        let x1smx2sabssincos2 = x1smx2sabssin.cos().powi(2);
        let x2smx1sabssincos = x2smx1sabssin.cos();
        let x2smx1sabssinsin = x2smx1sabssin.sin();
        let x2smx1sabssincos2 = x2smx1sabssin.cos().powi(2);
        let denom_a = (n0_001 * x1spx2s + n1).powi(2);
        let denom_b = (n0_001 * x1spx2s + n1).powi(3);
        let denom_c = (n0_001 * x1spx2s + n1).powi(4);

        if x1smx2sabs <= eps {
            [[n0, n0], [n0, n0]]
        } else {
            let a = (n8 * x1s * x1smx2scos2 * x1smx2sabssinsin2
                - n8 * x1s * x1smx2scos2 * x1smx2sabssincos2)
                / denom_a
                + ((n8 * x1s * x1smx2s * x1smx2ssin * x1smx2sabssincos * x1smx2sabssinsin)
                    - (n4 * x1smx2s * x1smx2scos * x1smx2sabssincos * x1smx2sabssinsin))
                    / (denom_a * x1smx2sabs)
                + (n0_032 * x1s * x1smx2s * x1smx2scos * x1smx2sabssincos * x1smx2sabssinsin)
                    / (denom_b * x1smx2sabs)
                + (-n0_004 * (x1smx2sabssincos2 - n0_5)) / denom_b
                + (n0_006 * n0_004 * x1s * (x1smx2sabssincos2 - n0_5)) / denom_c;

            let b = (n8 * x2s * x2smx1scos2 * x2smx1sabssinsin2
                - n8 * x2s * x2smx1scos2 * x2smx1sabssincos2)
                / denom_a
                + ((n8 * x2s * x2smx1s * x2smx1ssin * x2smx1sabssincos * x2smx1sabssinsin)
                    - (n4 * x2smx1s * x2smx1scos * x2smx1sabssincos * x2smx1sabssinsin))
                    / (denom_a * x1smx2sabs)
                + (n0_032 * x2s * x2smx1s * x2smx1scos * x2smx1sabssincos * x2smx1sabssinsin)
                    / (denom_b * x1smx2sabs)
                + (-n0_004 * (x2smx1sabssincos2 - n0_5)) / denom_b
                + (n0_006 * n0_004 * x2s * (x2smx1sabssincos2 - n0_5)) / denom_c;

            let offdiag = (n8 * x1 * x2 * x1smx2s * x2smx1scos2 * x2smx1sabssinsin2)
                / (x2smx1s * denom_a)
                + (n8 * x1 * x2 * x1smx2s * x2smx1ssin * x2smx1sabssincos * x2smx1sabssinsin)
                    / (x1smx2sabs * denom_a)
                + (n8 * x1 * x2 * x1smx2s * x2smx1scos * x2smx1sabssincos * x2smx1sabssinsin)
                    / (x2smx1s * denom_a * x1smx2sabs)
                + (n8 * x1 * x2 * x2smx1scos * x2smx1sabssincos * x2smx1sabssinsin)
                    / (denom_a * x1smx2sabs)
                + (n0_016 * x1 * x2 * x2smx1s * x2smx1scos * x2smx1sabssincos * x2smx1sabssinsin)
                    / (denom_b * x1smx2sabs)
                + (n0_016 * x1 * x2 * x1smx2s * x2smx1scos * x2smx1sabssincos * x2smx1sabssinsin)
                    / (denom_b * x1smx2sabs)
                + (-n8 * x1 * x2 * x1smx2s * x2smx1scos2 * x2smx1sabssincos2) / (denom_a * x2smx1s)
                + (n0_006 * n0_004 * x1 * x2 * (x2smx1sabssincos2 - n0_5)) / denom_c;

            [[a, offdiag], [offdiag, b]]
        }
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod sphere {
    //! # Sphere function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2,\\,\ldots,\\,x_d) = \sum_{i=1}^d x_i^2
    //! $$
    //!
    //! where $x_i \in (-\infty, \infty)$ and $d > 0$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2,\\,\ldots,\\,x_d) = f(0,\\,0,\\,\ldots,\\,0) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};
    use std::iter::Sum;

    /// Sphere test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2,\\,\ldots,\\,x_d) = \sum_{i=1}^d x_i^2
    /// $$
    ///
    /// where $x_i \in (-\infty, \infty)$ and $d > 0$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2,\\,\ldots,\\,x_d) = f(0,\\,0,\\,\ldots,\\,0) = 0$.
    #[derive_frule]
    pub fn sphere<T>(param: &[T]) -> T
    where
        T: Float + FromPrimitive + Sum,
    {
        param.iter().map(|x| x.powi(2)).sum()
    }

    /// Derivative of sphere test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2,\\,\ldots,\\,x_d) = (2x_1,\\,2x_2,\\,\ldots,\\,2x_d)
    /// $$
    ///
    /// where $x_i \in (-\infty, \infty)$ and $d > 0$.
    #[derive_frule]
    pub fn sphere_derivative<T>(param: &[T]) -> Vec<T>
    where
        T: Float + FromPrimitive,
    {
        let num2 = T::from_f64(2.0).unwrap();
        param.iter().map(|x| num2 * *x).collect()
    }

    /// Derivative of sphere test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2,\\,\ldots,\\,x_d) = (2x_1,\\,2x_2,\\,\ldots,\\,2x_d)
    /// $$
    ///
    /// where $x_i \in (-\infty, \infty)$ and $d > 0$.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn sphere_derivative_const<const N: usize, T>(param: &[T; N]) -> [T; N]
    where
        T: Float + FromPrimitive,
    {
        let num2 = T::from_f64(2.0).unwrap();
        let mut deriv = [T::from_f64(0.0).unwrap(); N];
        for i in 0..N {
            deriv[i] = num2 * param[i];
        }
        deriv
    }

    /// Hessian of sphere test function.
    #[derive_frule]
    pub fn sphere_hessian<T>(param: &[T]) -> Vec<Vec<T>>
    where
        T: Float + FromPrimitive,
    {
        let n = param.len();
        let mut hessian = vec![vec![T::from_f64(0.0).unwrap(); n]; n];
        for (i, row) in hessian.iter_mut().enumerate().take(n) {
            row[i] = T::from_f64(2.0).unwrap();
        }
        hessian
    }

    /// Hessian of sphere test function.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn sphere_hessian_const<const N: usize, T>(_param: &[T; N]) -> [[T; N]; N]
    where
        T: Float + FromPrimitive,
    {
        let mut hessian = [[T::from_f64(0.0).unwrap(); N]; N];
        for (i, row) in hessian.iter_mut().enumerate().take(N) {
            row[i] = T::from_f64(2.0).unwrap();
        }
        hessian
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod styblinskitang {
    //! # Styblinski-Tang test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2,\\,\ldots,\\,x_d) = \frac{1}{2}\sum_{i=1}^{d} \left(x_i^4 - 16x_i^2 + 5x_i\right)
    //! $$
    //!
    //! where $x_i \in [-5, 5]$.
    //!
    //! The global minimum is at $f(x_1, x_2, ..., x_d) = f(-2.903534,\\,-2.903534,\\,\ldots,\\,-2.903534) =
    //! -39.16616d$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};
    use std::iter::Sum;

    /// Styblinski-Tang test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2,\\,\ldots,\\,x_d) = \frac{1}{2}\sum_{i=1}^{d} \left(x_i^4 - 16x_i^2 + 5x_i\right)
    /// $$
    ///
    /// where $x_i \in [-5, 5]$.
    ///
    /// The global minimum is at $f(x_1, x_2, ..., x_d) = f(-2.903534,\\,-2.903534,\\,\ldots,\\,-2.903534) =
    /// -39.16616d$.
    #[derive_frule]
    pub fn styblinski_tang<T>(param: &[T]) -> T
    where
        T: Float + FromPrimitive + Sum,
    {
        T::from_f64(0.5).unwrap()
            * param
                .iter()
                .map(|x| {
                    x.powi(4) - T::from_f64(16.0).unwrap() * x.powi(2) + T::from_f64(5.0).unwrap() * *x
                })
                .sum()
    }

    /// Derivative of Styblinski-Tang test function.
    #[derive_frule]
    pub fn styblinski_tang_derivative<T>(param: &[T]) -> Vec<T>
    where
        T: Float + FromPrimitive + Sum,
    {
        let n2 = T::from_f64(2.0).unwrap();
        let n2_5 = T::from_f64(2.5).unwrap();
        let n16 = T::from_f64(16.0).unwrap();

        param
            .iter()
            .map(|x| n2 * x.powi(3) - n16 * *x + n2_5)
            .collect()
    }

    /// Derivative of Styblinski-Tang test function.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn styblinski_tang_derivative_const<const N: usize, T>(param: &[T; N]) -> [T; N]
    where
        T: Float + FromPrimitive + Sum,
    {
        let n0 = T::from_f64(0.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n2_5 = T::from_f64(2.5).unwrap();
        let n16 = T::from_f64(16.0).unwrap();

        let mut out = [n0; N];

        param
            .iter()
            .zip(out.iter_mut())
            .map(|(x, o)| *o = n2 * x.powi(3) - n16 * *x + n2_5)
            .count();

        out
    }

    /// Hessian of Styblinski-Tang test function.
    #[derive_frule]
    pub fn styblinski_tang_hessian<T>(param: &[T]) -> Vec<Vec<T>>
    where
        T: Float + FromPrimitive + Sum,
    {
        let n0 = T::from_f64(0.0).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let n16 = T::from_f64(16.0).unwrap();

        let n = param.len();
        let mut out = vec![vec![n0; n]; n];

        param
            .iter()
            .enumerate()
            .map(|(i, x)| out[i][i] = n6 * x.powi(2) - n16)
            .count();

        out
    }

    /// Hessian of Styblinski-Tang test function.
    ///
    /// This is the const generics version, which requires the number of parameters to be known
    /// at compile time.
    #[derive_frule]
    pub fn styblinski_tang_hessian_const<const N: usize, T>(param: &[T; N]) -> [[T; N]; N]
    where
        T: Float + FromPrimitive + Sum,
    {
        let n0 = T::from_f64(0.0).unwrap();
        let n6 = T::from_f64(6.0).unwrap();
        let n16 = T::from_f64(16.0).unwrap();

        let mut out = [[n0; N]; N];

        param
            .iter()
            .enumerate()
            .map(|(i, x)| out[i][i] = n6 * x.powi(2) - n16)
            .count();

        out
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod threehumpcamel {
    //! # Three-hump camel test function
    //!
    //! Defined as
    //!
    //! $$
    //! f(x_1,\\,x_2) = 2x_1^2 - 1.05x_1^4 + \frac{x_1^6}{6} + x_1x_2 + x_2^2
    //! $$
    //!
    //! where $x_i \in [-5, 5]$.
    //!
    //! The global minimum is at $f(x_1,\\,x_2) = f(0,\\,0) = 0$.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Three-hump camel test function.
    ///
    /// Defined as
    ///
    /// $$
    /// f(x_1,\\,x_2) = 2x_1^2 - 1.05x_1^4 + \frac{x_1^6}{6} + x_1x_2 + x_2^2
    /// $$
    ///
    /// where $x_i \in [-5, 5]$.
    ///
    /// The global minimum is at $f(x_1,\\,x_2) = f(0,\\,0) = 0$.
    #[derive_frule]
    pub fn threehumpcamel<T>(param: &[T; 2]) -> T
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        T::from_f64(2.0).unwrap() * x1.powi(2) - T::from_f64(1.05).unwrap() * x1.powi(4)
            + x1.powi(6) / T::from_f64(6.0).unwrap()
            + x1 * x2
            + x2.powi(2)
    }

    /// Derivative of Three-hump camel test function.
    #[derive_frule]
    pub fn threehumpcamel_derivative<T>(param: &[T; 2]) -> [T; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, x2] = *param;

        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n4_2 = T::from_f64(4.2).unwrap();

        [x1.powi(5) - n4_2 * x1.powi(3) + n4 * x1 + x2, n2 * x2 + x1]
    }

    /// Hessian of Three-hump camel test function.
    #[derive_frule]
    pub fn threehumpcamel_hessian<T>(param: &[T; 2]) -> [[T; 2]; 2]
    where
        T: Float + FromPrimitive,
    {
        let [x1, _] = *param;

        let n1 = T::from_f64(1.0).unwrap();
        let n2 = T::from_f64(2.0).unwrap();
        let n4 = T::from_f64(4.0).unwrap();
        let n5 = T::from_f64(5.0).unwrap();
        let n12_6 = T::from_f64(12.6).unwrap();

        let a = n5 * x1.powi(4) - n12_6 * x1.powi(2) + n4;
        let b = n2;
        let offdiag = n1;

        [[a, offdiag], [offdiag, b]]
    }
}

// The plain copies are not all called: their rules are (and compute the same values).
#[allow(dead_code)]
#[rustfmt::skip]
mod zero {
    //! # Zero
    //!
    //! Always returns `0.0`. This is only for performance tests.

    use fwdad::derive_frule;

    use num::{Float, FromPrimitive};

    /// Zero test function.
    ///
    /// Always returns `0.0`. This is only for performance tests.
    #[derive_frule]
    pub fn zero<T>(_param: &[T]) -> T
    where
        T: Float + FromPrimitive,
    {
        T::from_f64(0.0).unwrap()
    }

    /// Derivative of zero test function.
    ///
    /// Always returns a vector with the length of param, full of `0.0`. This is only for performance
    /// tests.
    #[derive_frule]
    pub fn zero_derivative<T>(param: &[T]) -> Vec<T>
    where
        T: Float + FromPrimitive,
    {
        vec![T::from_f64(0.0).unwrap(); param.len()]
    }

    /// Derivative of zero test function (const version).
    ///
    /// Always returns an array with the length of param, full of `0.0`. This is only for performance
    /// tests.
    #[derive_frule]
    pub fn zero_derivative_const<const N: usize, T>(_param: &[T; N]) -> [T; N]
    where
        T: Float + FromPrimitive,
    {
        [T::from_f64(0.0).unwrap(); N]
    }

    /// Hessian of zero test function.
    ///
    /// Always returns a matrix with size `N` by `N`, full of `0.0`. This is only for performance tests.
    #[derive_frule]
    pub fn zero_hessian<T>(param: &[T]) -> Vec<Vec<T>>
    where
        T: Float + FromPrimitive,
    {
        vec![vec![T::from_f64(0.0).unwrap(); param.len()]; param.len()]
    }

    /// Hessian of zero test function (const version).
    ///
    /// Always returns a matrix with size `N` by `N`, full of `0.0`. This is only for performance tests.
    #[derive_frule]
    pub fn zero_hessian_const<const N: usize, T>(_param: &[T; N]) -> [[T; N]; N]
    where
        T: Float + FromPrimitive,
    {
        [[T::from_f64(0.0).unwrap(); N]; N]
    }
}
// ---------------------------------------------------------------------------------------
// The checks: the crate (`argmin_testfunctions`) is the reference
// ---------------------------------------------------------------------------------------

use argmin_testfunctions as crate_ref;
use fwdad::prelude::*;

/// Points of the plane, none on a kink of the objectives that have one (`abs` at zero).
const POINTS_2D: [[f64; 2]; 5] = [
    [0.3, -0.7],
    [1.2, 0.4],
    [-1.5, 2.1],
    [2.7, -1.3],
    [-0.45, -2.35],
];

/// Points of dimension 2, 3 and 5 (Levy needs at least two coordinates), away from the
/// origin (Ackley's gradient is not defined there).
fn points_nd() -> Vec<Vec<f64>> {
    let mut out = Vec::new();
    for n in [2usize, 3, 5] {
        for k in 0..3 {
            let x = (0..n)
                .map(|i| {
                    let sign = if (i + k) % 2 == 0 { 1.0 } else { -1.0 };
                    sign * (0.35 + 0.4 * i as f64) + 0.15 * k as f64
                })
                .collect();
            out.push(x);
        }
    }
    out
}

/// Every entry within `1e-8` of the reference, relative to the reference's largest
/// entry (so a component that cancels to near zero is not held to its own tiny size).
#[track_caller]
fn assert_close(what: &str, x: &[f64], got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what} at {x:?}: lengths differ");
    let scale = want.iter().fold(0.0f64, |m, w| m.max(w.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-8 * scale,
            "{what} at {x:?}, entry {i}: fwdad {g:e}, argmin_testfunctions {w:e} (scale {scale:e})"
        );
    }
}

/// The value (bit for bit), gradient and Hessian of a derived rule of `x: &[f64]` against
/// the crate's function, `*_derivative` and `*_hessian` at `x`.
macro_rules! check_at {
    ($name:literal, $rule:expr, $x:expr, $value:expr, $grad:expr, $hess:expr) => {{
        let x: &[f64] = $x;
        let (value, grad) = gradient($rule, x);
        let want: f64 = $value;
        assert_eq!(
            value.to_bits(),
            want.to_bits(),
            "{} at {x:?}: value {value:e} against {want:e}",
            $name
        );
        assert_close(concat!($name, " gradient"), x, &grad, &$grad);
        let (h_value, h_grad, h) = hessian($rule, x);
        assert_eq!(
            h_value.to_bits(),
            want.to_bits(),
            "{} at {x:?}: value of the Hessian pass",
            $name
        );
        assert_close(
            concat!($name, " gradient (Hessian pass)"),
            x,
            &h_grad,
            &$grad,
        );
        let want_h: Vec<f64> = $hess.into_iter().flatten().collect();
        let got_h: Vec<f64> = h.to_rows().into_iter().flatten().collect();
        assert_close(concat!($name, " Hessian"), x, &got_h, &want_h);
    }};
}

/// A 2-D objective (`param: &[T; 2]`) through its slice adapter, at every point of
/// `POINTS_2D`, against `$f`, `$df` and `$hf` of the crate.
macro_rules! check_2d {
    ($name:literal, $rule:expr, $f:path, $df:path, $hf:path) => {
        for p in POINTS_2D {
            check_at!($name, $rule, &p, $f(&p), $df(&p), $hf(&p));
        }
    };
}

/// An n-D objective (`param: &[T]`), at every point of `points_nd()`.
macro_rules! check_nd {
    ($name:literal, $rule:expr, $f:path, $df:path, $hf:path) => {
        for p in points_nd() {
            check_at!($name, $rule, &p, $f(&p), $df(&p), $hf(&p));
        }
    };
}

/// The objective instantiated at `f32` at `x` (a `&[f32; 2]` or a `&[f32]`), along `dx`:
/// the copy's value and its rule's value bit for bit the crate's `f32` value, and the
/// rule's directional derivative the crate's `f32` gradient along `dx`, to `f32` rounding
/// (`1e-3` of `Σ |∂ᵢf dxᵢ|`).
macro_rules! check_f32 {
    ($name:literal, $copy:path, $frule:path, $f:path, $df:path, $x:expr, $dx:expr) => {{
        let (x, dx) = ($x, $dx);
        let want: f32 = $f(x);
        assert_eq!(
            $copy(x).to_bits(),
            want.to_bits(),
            "{} (f32) at {x:?}",
            $name
        );
        let d = $frule(Dual::new(x, dx));
        assert_eq!(
            d.primal.to_bits(),
            want.to_bits(),
            "{} (f32 rule) at {x:?}",
            $name
        );
        let grad = $df(x);
        let along: f32 = grad.iter().zip(dx.iter()).map(|(g, d)| g * d).sum();
        let scale: f32 = grad.iter().zip(dx.iter()).map(|(g, d)| (g * d).abs()).sum();
        assert!(
            (d.tangent - along).abs() <= 1e-3 * scale,
            "{} (f32) at {x:?}: fwdad {:e}, argmin_testfunctions {along:e}",
            $name,
            d.tangent
        );
    }};
}

/// A 2-D objective at `f32`, at every point of `POINTS_2D`.
macro_rules! check_2d_f32 {
    ($name:literal, $copy:path, $frule:path, $f:path, $df:path) => {
        for p in POINTS_2D {
            check_f32!(
                $name,
                $copy,
                $frule,
                $f,
                $df,
                &p.map(|v| v as f32),
                &[1.0f32, -0.75]
            );
        }
    };
}

/// An n-D objective at `f32`, at every point of `points_nd()`.
macro_rules! check_nd_f32 {
    ($name:literal, $copy:path, $frule:path, $f:path, $df:path) => {
        for p in points_nd() {
            let x: Vec<f32> = p.iter().map(|&v| v as f32).collect();
            let dx: Vec<f32> = (0..x.len()).map(|i| 1.0 - 0.75 * i as f32).collect();
            check_f32!($name, $copy, $frule, $f, $df, &x[..], &dx[..]);
        }
    };
}

// The drivers differentiate functions of a slice: each 2-D objective is called through
// one, as a user would adapt it.

#[derive_frule]
fn beale_xy(x: &[f64]) -> f64 {
    beale::beale(&[x[0], x[1]])
}

#[derive_frule]
fn booth_xy(x: &[f64]) -> f64 {
    booth::booth(&[x[0], x[1]])
}

#[derive_frule]
fn bukin_n6_xy(x: &[f64]) -> f64 {
    bukin::bukin_n6(&[x[0], x[1]])
}

#[derive_frule]
fn cross_in_tray_xy(x: &[f64]) -> f64 {
    crossintray::cross_in_tray(&[x[0], x[1]])
}

#[derive_frule]
fn easom_xy(x: &[f64]) -> f64 {
    easom::easom(&[x[0], x[1]])
}

#[derive_frule]
fn eggholder_xy(x: &[f64]) -> f64 {
    eggholder::eggholder(&[x[0], x[1]])
}

#[derive_frule]
fn goldsteinprice_xy(x: &[f64]) -> f64 {
    goldsteinprice::goldsteinprice(&[x[0], x[1]])
}

#[derive_frule]
fn himmelblau_xy(x: &[f64]) -> f64 {
    himmelblau::himmelblau(&[x[0], x[1]])
}

#[derive_frule]
fn holder_table_xy(x: &[f64]) -> f64 {
    holdertable::holder_table(&[x[0], x[1]])
}

#[derive_frule]
fn levy_n13_xy(x: &[f64]) -> f64 {
    levy::levy_n13(&[x[0], x[1]])
}

#[derive_frule]
fn matyas_xy(x: &[f64]) -> f64 {
    matyas::matyas(&[x[0], x[1]])
}

#[derive_frule]
fn mccormick_xy(x: &[f64]) -> f64 {
    mccormick::mccormick(&[x[0], x[1]])
}

#[derive_frule]
fn picheny_xy(x: &[f64]) -> f64 {
    picheny::picheny(&[x[0], x[1]])
}

#[derive_frule]
fn schaffer_n2_xy(x: &[f64]) -> f64 {
    schaffer::schaffer_n2(&[x[0], x[1]])
}

#[derive_frule]
fn schaffer_n4_xy(x: &[f64]) -> f64 {
    schaffer::schaffer_n4(&[x[0], x[1]])
}

#[derive_frule]
fn threehumpcamel_xy(x: &[f64]) -> f64 {
    threehumpcamel::threehumpcamel(&[x[0], x[1]])
}

#[test]
fn two_dimensional_objectives_match_the_crate() {
    check_2d!(
        "beale",
        beale_xy {},
        crate_ref::beale,
        crate_ref::beale_derivative,
        crate_ref::beale_hessian
    );
    check_2d!(
        "booth",
        booth_xy {},
        crate_ref::booth,
        crate_ref::booth_derivative,
        crate_ref::booth_hessian
    );
    check_2d!(
        "bukin_n6",
        bukin_n6_xy {},
        crate_ref::bukin_n6,
        crate_ref::bukin_n6_derivative,
        crate_ref::bukin_n6_hessian
    );
    check_2d!(
        "cross_in_tray",
        cross_in_tray_xy {},
        crate_ref::cross_in_tray,
        crate_ref::cross_in_tray_derivative,
        crate_ref::cross_in_tray_hessian
    );
    check_2d!(
        "easom",
        easom_xy {},
        crate_ref::easom,
        crate_ref::easom_derivative,
        crate_ref::easom_hessian
    );
    check_2d!(
        "eggholder",
        eggholder_xy {},
        crate_ref::eggholder,
        crate_ref::eggholder_derivative,
        crate_ref::eggholder_hessian
    );
    check_2d!(
        "goldsteinprice",
        goldsteinprice_xy {},
        crate_ref::goldsteinprice,
        crate_ref::goldsteinprice_derivative,
        crate_ref::goldsteinprice_hessian
    );
    check_2d!(
        "himmelblau",
        himmelblau_xy {},
        crate_ref::himmelblau,
        crate_ref::himmelblau_derivative,
        crate_ref::himmelblau_hessian
    );
    check_2d!(
        "holder_table",
        holder_table_xy {},
        crate_ref::holder_table,
        crate_ref::holder_table_derivative,
        crate_ref::holder_table_hessian
    );
    check_2d!(
        "levy_n13",
        levy_n13_xy {},
        crate_ref::levy_n13,
        crate_ref::levy_n13_derivative,
        crate_ref::levy_n13_hessian
    );
    check_2d!(
        "matyas",
        matyas_xy {},
        crate_ref::matyas,
        crate_ref::matyas_derivative,
        crate_ref::matyas_hessian
    );
    check_2d!(
        "mccormick",
        mccormick_xy {},
        crate_ref::mccormick,
        crate_ref::mccormick_derivative,
        crate_ref::mccormick_hessian
    );
    check_2d!(
        "picheny",
        picheny_xy {},
        crate_ref::picheny,
        crate_ref::picheny_derivative,
        crate_ref::picheny_hessian
    );
    check_2d!(
        "schaffer_n2",
        schaffer_n2_xy {},
        crate_ref::schaffer_n2,
        crate_ref::schaffer_n2_derivative,
        crate_ref::schaffer_n2_hessian
    );
    check_2d!(
        "schaffer_n4",
        schaffer_n4_xy {},
        crate_ref::schaffer_n4,
        crate_ref::schaffer_n4_derivative,
        crate_ref::schaffer_n4_hessian
    );
    check_2d!(
        "threehumpcamel",
        threehumpcamel_xy {},
        crate_ref::threehumpcamel,
        crate_ref::threehumpcamel_derivative,
        crate_ref::threehumpcamel_hessian
    );
}

#[test]
fn n_dimensional_objectives_match_the_crate() {
    check_nd!(
        "ackley",
        ackley::ackley {},
        crate_ref::ackley,
        crate_ref::ackley_derivative,
        crate_ref::ackley_hessian
    );
    check_nd!(
        "levy",
        levy::levy {},
        crate_ref::levy,
        crate_ref::levy_derivative,
        crate_ref::levy_hessian
    );
    check_nd!(
        "rastrigin",
        rastrigin::rastrigin {},
        crate_ref::rastrigin,
        crate_ref::rastrigin_derivative,
        crate_ref::rastrigin_hessian
    );
    check_nd!(
        "rosenbrock",
        rosenbrock::rosenbrock {},
        crate_ref::rosenbrock,
        crate_ref::rosenbrock_derivative,
        crate_ref::rosenbrock_hessian
    );
    check_nd!(
        "sphere",
        sphere::sphere {},
        crate_ref::sphere,
        crate_ref::sphere_derivative,
        crate_ref::sphere_hessian
    );
    check_nd!(
        "styblinski_tang",
        styblinskitang::styblinski_tang {},
        crate_ref::styblinski_tang,
        crate_ref::styblinski_tang_derivative,
        crate_ref::styblinski_tang_hessian
    );
    check_nd!(
        "zero",
        zero::zero {},
        crate_ref::zero,
        crate_ref::zero_derivative,
        crate_ref::zero_hessian
    );
}

/// The objectives with parameters (`ackley_abc`, `rastrigin_a`, `rosenbrock_ab`) at other
/// parameters than their defaults, bound with `bind`.
#[test]
fn objectives_with_parameters_match_the_crate() {
    let (a, b, c) = (15.0, 0.3, 1.7);
    for p in points_nd() {
        check_at!(
            "ackley_abc",
            bind(ackley::ackley_abc {}, (Wrt, a, b, c)),
            &p,
            crate_ref::ackley_abc(&p, a, b, c),
            crate_ref::ackley_abc_derivative(&p, a, b, c),
            crate_ref::ackley_abc_hessian(&p, a, b, c)
        );
        check_at!(
            "rastrigin_a",
            bind(rastrigin::rastrigin_a {}, (Wrt, 7.5)),
            &p,
            crate_ref::rastrigin_a(&p, 7.5),
            crate_ref::rastrigin_a_derivative(&p, 7.5),
            crate_ref::rastrigin_a_hessian(&p, 7.5)
        );
        // The crate's `rosenbrock_ab_hessian` adds `2a` to the diagonal where the
        // second derivative of `(a - xᵢ)²` is `2` (right only at the default `a = 1`,
        // which `n_dimensional_objectives_match_the_crate` checks): at `a = 2` the
        // Hessian is checked against the formula written out below instead.
        check_at!(
            "rosenbrock_ab",
            bind(rosenbrock::rosenbrock_ab {}, (Wrt, 2.0, 30.0)),
            &p,
            crate_ref::rosenbrock_ab(&p, 2.0, 30.0),
            crate_ref::rosenbrock_ab_derivative(&p, 2.0, 30.0),
            rosenbrock_ab_hessian_by_hand(&p, 30.0)
        );
    }
}

/// The Hessian of `Σᵢ (a - xᵢ)² + b (xᵢ₊₁ - xᵢ²)²`, by hand: the term `i` contributes
/// `2 - 4b xᵢ₊₁ + 12b xᵢ²` at `(i, i)`, `-4b xᵢ` at `(i, i+1)` and `(i+1, i)`, and `2b`
/// at `(i+1, i+1)`; `a` does not appear.
fn rosenbrock_ab_hessian_by_hand(x: &[f64], b: f64) -> Vec<Vec<f64>> {
    let n = x.len();
    let mut h = vec![vec![0.0; n]; n];
    for i in 0..n - 1 {
        h[i][i] += 2.0 - 4.0 * b * x[i + 1] + 12.0 * b * x[i] * x[i];
        h[i][i + 1] -= 4.0 * b * x[i];
        h[i + 1][i] -= 4.0 * b * x[i];
        h[i + 1][i + 1] += 2.0 * b;
    }
    h
}

#[test]
fn rosenbrock_ab_hessian_of_the_crate_adds_2a_on_the_diagonal() {
    // Not fwdad's: documents why `rosenbrock_ab`'s Hessian is checked by hand above.
    let (x, a, b) = ([0.35, -0.75, 1.1], 2.0, 30.0);
    let by_hand = rosenbrock_ab_hessian_by_hand(&x, b);
    let theirs = crate_ref::rosenbrock_ab_hessian(&x, a, b);
    for i in 0..3 {
        let extra = if i < 2 { 2.0 * a - 2.0 } else { 0.0 };
        approx::assert_relative_eq!(theirs[i][i], by_hand[i][i] + extra, max_relative = 1e-14);
    }
}

/// Every objective instantiated at `f32` (the rule is generic as the function is): values
/// bit for bit, directional derivatives against the crate's `f32` gradients.
#[test]
fn objectives_at_f32_match_the_crate() {
    check_2d_f32!(
        "beale",
        beale::beale,
        beale::beale_frule,
        crate_ref::beale,
        crate_ref::beale_derivative
    );
    check_2d_f32!(
        "booth",
        booth::booth,
        booth::booth_frule,
        crate_ref::booth,
        crate_ref::booth_derivative
    );
    check_2d_f32!(
        "bukin_n6",
        bukin::bukin_n6,
        bukin::bukin_n6_frule,
        crate_ref::bukin_n6,
        crate_ref::bukin_n6_derivative
    );
    check_2d_f32!(
        "cross_in_tray",
        crossintray::cross_in_tray,
        crossintray::cross_in_tray_frule,
        crate_ref::cross_in_tray,
        crate_ref::cross_in_tray_derivative
    );
    check_2d_f32!(
        "easom",
        easom::easom,
        easom::easom_frule,
        crate_ref::easom,
        crate_ref::easom_derivative
    );
    check_2d_f32!(
        "eggholder",
        eggholder::eggholder,
        eggholder::eggholder_frule,
        crate_ref::eggholder,
        crate_ref::eggholder_derivative
    );
    check_2d_f32!(
        "goldsteinprice",
        goldsteinprice::goldsteinprice,
        goldsteinprice::goldsteinprice_frule,
        crate_ref::goldsteinprice,
        crate_ref::goldsteinprice_derivative
    );
    check_2d_f32!(
        "himmelblau",
        himmelblau::himmelblau,
        himmelblau::himmelblau_frule,
        crate_ref::himmelblau,
        crate_ref::himmelblau_derivative
    );
    check_2d_f32!(
        "holder_table",
        holdertable::holder_table,
        holdertable::holder_table_frule,
        crate_ref::holder_table,
        crate_ref::holder_table_derivative
    );
    check_2d_f32!(
        "levy_n13",
        levy::levy_n13,
        levy::levy_n13_frule,
        crate_ref::levy_n13,
        crate_ref::levy_n13_derivative
    );
    check_2d_f32!(
        "matyas",
        matyas::matyas,
        matyas::matyas_frule,
        crate_ref::matyas,
        crate_ref::matyas_derivative
    );
    check_2d_f32!(
        "mccormick",
        mccormick::mccormick,
        mccormick::mccormick_frule,
        crate_ref::mccormick,
        crate_ref::mccormick_derivative
    );
    check_2d_f32!(
        "picheny",
        picheny::picheny,
        picheny::picheny_frule,
        crate_ref::picheny,
        crate_ref::picheny_derivative
    );
    check_2d_f32!(
        "schaffer_n2",
        schaffer::schaffer_n2,
        schaffer::schaffer_n2_frule,
        crate_ref::schaffer_n2,
        crate_ref::schaffer_n2_derivative
    );
    check_2d_f32!(
        "schaffer_n4",
        schaffer::schaffer_n4,
        schaffer::schaffer_n4_frule,
        crate_ref::schaffer_n4,
        crate_ref::schaffer_n4_derivative
    );
    check_2d_f32!(
        "threehumpcamel",
        threehumpcamel::threehumpcamel,
        threehumpcamel::threehumpcamel_frule,
        crate_ref::threehumpcamel,
        crate_ref::threehumpcamel_derivative
    );
    check_nd_f32!(
        "ackley",
        ackley::ackley,
        ackley::ackley_frule,
        crate_ref::ackley,
        crate_ref::ackley_derivative
    );
    check_nd_f32!(
        "levy",
        levy::levy,
        levy::levy_frule,
        crate_ref::levy,
        crate_ref::levy_derivative
    );
    check_nd_f32!(
        "rastrigin",
        rastrigin::rastrigin,
        rastrigin::rastrigin_frule,
        crate_ref::rastrigin,
        crate_ref::rastrigin_derivative
    );
    check_nd_f32!(
        "rosenbrock",
        rosenbrock::rosenbrock,
        rosenbrock::rosenbrock_frule,
        crate_ref::rosenbrock,
        crate_ref::rosenbrock_derivative
    );
    check_nd_f32!(
        "sphere",
        sphere::sphere,
        sphere::sphere_frule,
        crate_ref::sphere,
        crate_ref::sphere_derivative
    );
    check_nd_f32!(
        "styblinski_tang",
        styblinskitang::styblinski_tang,
        styblinskitang::styblinski_tang_frule,
        crate_ref::styblinski_tang,
        crate_ref::styblinski_tang_derivative
    );
    check_nd_f32!(
        "zero",
        zero::zero,
        zero::zero_frule,
        crate_ref::zero,
        crate_ref::zero_derivative
    );
}

/// `ackley_abc`, `rastrigin_a` and `rosenbrock_ab` called as written in the crate
/// (`f64`), each against the crate's value bit for bit.
#[test]
fn copies_compute_the_crates_values() {
    for p in points_nd() {
        let (a, b, c) = (15.0, 0.3, 1.7);
        assert_eq!(
            ackley::ackley_abc(&p, a, b, c).to_bits(),
            crate_ref::ackley_abc(&p, a, b, c).to_bits()
        );
        assert_eq!(
            rastrigin::rastrigin_a(&p, 7.5).to_bits(),
            crate_ref::rastrigin_a(&p, 7.5).to_bits()
        );
        assert_eq!(
            rosenbrock::rosenbrock_ab(&p, 2.0, 30.0).to_bits(),
            crate_ref::rosenbrock_ab(&p, 2.0, 30.0).to_bits()
        );
    }
}

// ---------------------------------------------------------------------------------------
// The crate's `*_derivative` and `*_hessian` functions, annotated too
// ---------------------------------------------------------------------------------------

/// The direction of the checks below.
fn direction(n: usize) -> Vec<f64> {
    (0..n).map(|i| 0.6 - 0.55 * i as f64).collect()
}

/// `x + t·v`.
fn shifted(x: &[f64], t: f64, v: &[f64]) -> Vec<f64> {
    x.iter().zip(v).map(|(a, b)| a + t * b).collect()
}

/// A derivative function's rule at `x` along `v`: its value bit for bit the crate's
/// derivative, its tangent the crate's Hessian times `v` (to `1e-8` of `Σⱼ |Hᵢⱼ vⱼ|`).
#[track_caller]
fn assert_derivative_rule(
    name: &str,
    x: &[f64],
    v: &[f64],
    (primal, tangent): (&[f64], &[f64]),
    derivative: &[f64],
    hessian: &[Vec<f64>],
) {
    for (i, (p, w)) in primal.iter().zip(derivative).enumerate() {
        assert_eq!(
            p.to_bits(),
            w.to_bits(),
            "{name} at {x:?}, entry {i}: value {p:e} against {w:e}"
        );
    }
    assert_eq!(
        tangent.len(),
        hessian.len(),
        "{name} at {x:?}: lengths differ"
    );
    for (i, (t, row)) in tangent.iter().zip(hessian).enumerate() {
        let hv: f64 = row.iter().zip(v).map(|(h, v)| h * v).sum();
        let scale: f64 = row.iter().zip(v).map(|(h, v)| (h * v).abs()).sum();
        assert!(
            (t - hv).abs() <= 1e-8 * scale,
            "{name} at {x:?} along {v:?}, entry {i}: fwdad {t:e}, the crate's Hessian times v {hv:e}"
        );
    }
}

/// A Hessian function's rule at `x` along `v`: its value bit for bit the crate's Hessian,
/// its tangent the central difference of the crate's Hessian along `v` (step `1e-5`; to
/// `1e-6` of the largest entry, the differences' truncation and rounding errors being
/// far below that at these points).
#[track_caller]
fn assert_hessian_rule(
    name: &str,
    x: &[f64],
    (primal, tangent): (&[f64], &[f64]),
    hessian: &[f64],
    (above, below): (&[f64], &[f64]),
) {
    for (i, (p, w)) in primal.iter().zip(hessian).enumerate() {
        assert_eq!(
            p.to_bits(),
            w.to_bits(),
            "{name} at {x:?}, entry {i}: value {p:e} against {w:e}"
        );
    }
    let fd: Vec<f64> = above
        .iter()
        .zip(below)
        .map(|(a, b)| (a - b) / 2e-5)
        .collect();
    let scale = fd.iter().fold(1.0f64, |m, d| m.max(d.abs()));
    for (i, (t, d)) in tangent.iter().zip(&fd).enumerate() {
        assert!(
            (t - d).abs() <= 1e-6 * scale,
            "{name} at {x:?}, entry {i}: fwdad {t:e}, central difference {d:e}"
        );
    }
}

/// Rows of a 2 × 2 Hessian.
fn rows2(h: [[f64; 2]; 2]) -> Vec<Vec<f64>> {
    h.iter().map(|r| r.to_vec()).collect()
}

macro_rules! check_derivative_2d {
    ($name:literal, $frule:path, $df:path, $hf:path) => {
        for x in POINTS_2D {
            let v = [0.6, -0.55];
            let d = $frule(Dual::new(&x, &v));
            assert_derivative_rule(
                $name,
                &x,
                &v,
                (&d.primal, &d.tangent),
                &$df(&x),
                &rows2($hf(&x)),
            );
        }
    };
}

macro_rules! check_derivative_nd {
    ($name:literal, $frule:path, $df:path, $hf:path) => {
        for x in points_nd() {
            let v = direction(x.len());
            let d = $frule(Dual::new(&x[..], &v[..]));
            assert_derivative_rule($name, &x, &v, (&d.primal, &d.tangent), &$df(&x), &$hf(&x));
        }
    };
}

/// The `_const` (array) versions at the points of dimension 3.
macro_rules! check_derivative_const {
    ($name:literal, $frule:path, $df:path, $hf:path) => {
        for p in points_nd().into_iter().filter(|p| p.len() == 3) {
            let x = [p[0], p[1], p[2]];
            let v = [0.6, 0.05, -0.5];
            let d = $frule(Dual::new(&x, &v));
            assert_derivative_rule(
                $name,
                &x,
                &v,
                (&d.primal, &d.tangent),
                &$df(&x),
                &$hf(&x[..]),
            );
        }
    };
}

macro_rules! check_hessian_2d {
    ($name:literal, $frule:path, $hf:path) => {
        for x in POINTS_2D {
            let v = [0.6, -0.55];
            let d = $frule(Dual::new(&x, &v));
            let flat = |h: [[f64; 2]; 2]| h.into_iter().flatten().collect::<Vec<f64>>();
            let (up, down) = (shifted(&x, 1e-5, &v), shifted(&x, -1e-5, &v));
            assert_hessian_rule(
                $name,
                &x,
                (&flat(d.primal), &flat(d.tangent)),
                &flat($hf(&x)),
                (&flat($hf(&[up[0], up[1]])), &flat($hf(&[down[0], down[1]]))),
            );
        }
    };
}

macro_rules! check_hessian_nd {
    ($name:literal, $frule:path, $hf:path) => {
        for x in points_nd() {
            let v = direction(x.len());
            let d = $frule(Dual::new(&x[..], &v[..]));
            let flat = |h: Vec<Vec<f64>>| h.into_iter().flatten().collect::<Vec<f64>>();
            let (up, down) = (shifted(&x, 1e-5, &v), shifted(&x, -1e-5, &v));
            assert_hessian_rule(
                $name,
                &x,
                (&flat(d.primal), &flat(d.tangent)),
                &flat($hf(&x)),
                (&flat($hf(&up)), &flat($hf(&down))),
            );
        }
    };
}

macro_rules! check_hessian_const {
    ($name:literal, $frule:path, $hf:path) => {
        for p in points_nd().into_iter().filter(|p| p.len() == 3) {
            let x = [p[0], p[1], p[2]];
            let v = [0.6, 0.05, -0.5];
            let d = $frule(Dual::new(&x, &v));
            let flat = |h: [[f64; 3]; 3]| h.into_iter().flatten().collect::<Vec<f64>>();
            let (up, down) = (shifted(&x, 1e-5, &v), shifted(&x, -1e-5, &v));
            assert_hessian_rule(
                $name,
                &x,
                (&flat(d.primal), &flat(d.tangent)),
                &flat($hf(&x)),
                (
                    &flat($hf(&[up[0], up[1], up[2]])),
                    &flat($hf(&[down[0], down[1], down[2]])),
                ),
            );
        }
    };
}

/// The rule of each `*_derivative` (and `_const`) function: its tangent along `v` is the
/// crate's Hessian times `v`.
#[test]
fn derivative_functions_differentiate_to_the_crates_hessians() {
    check_derivative_nd!(
        "ackley_derivative",
        ackley::ackley_derivative_frule,
        crate_ref::ackley_derivative,
        crate_ref::ackley_hessian
    );
    check_derivative_const!(
        "ackley_derivative_const",
        ackley::ackley_derivative_const_frule,
        crate_ref::ackley_derivative_const,
        crate_ref::ackley_hessian
    );
    check_derivative_2d!(
        "beale_derivative",
        beale::beale_derivative_frule,
        crate_ref::beale_derivative,
        crate_ref::beale_hessian
    );
    check_derivative_2d!(
        "booth_derivative",
        booth::booth_derivative_frule,
        crate_ref::booth_derivative,
        crate_ref::booth_hessian
    );
    check_derivative_2d!(
        "bukin_n6_derivative",
        bukin::bukin_n6_derivative_frule,
        crate_ref::bukin_n6_derivative,
        crate_ref::bukin_n6_hessian
    );
    check_derivative_2d!(
        "cross_in_tray_derivative",
        crossintray::cross_in_tray_derivative_frule,
        crate_ref::cross_in_tray_derivative,
        crate_ref::cross_in_tray_hessian
    );
    check_derivative_2d!(
        "easom_derivative",
        easom::easom_derivative_frule,
        crate_ref::easom_derivative,
        crate_ref::easom_hessian
    );
    check_derivative_2d!(
        "eggholder_derivative",
        eggholder::eggholder_derivative_frule,
        crate_ref::eggholder_derivative,
        crate_ref::eggholder_hessian
    );
    check_derivative_2d!(
        "goldsteinprice_derivative",
        goldsteinprice::goldsteinprice_derivative_frule,
        crate_ref::goldsteinprice_derivative,
        crate_ref::goldsteinprice_hessian
    );
    check_derivative_2d!(
        "himmelblau_derivative",
        himmelblau::himmelblau_derivative_frule,
        crate_ref::himmelblau_derivative,
        crate_ref::himmelblau_hessian
    );
    check_derivative_2d!(
        "holder_table_derivative",
        holdertable::holder_table_derivative_frule,
        crate_ref::holder_table_derivative,
        crate_ref::holder_table_hessian
    );
    check_derivative_nd!(
        "levy_derivative",
        levy::levy_derivative_frule,
        crate_ref::levy_derivative,
        crate_ref::levy_hessian
    );
    check_derivative_const!(
        "levy_derivative_const",
        levy::levy_derivative_const_frule,
        crate_ref::levy_derivative_const,
        crate_ref::levy_hessian
    );
    check_derivative_2d!(
        "levy_n13_derivative",
        levy::levy_n13_derivative_frule,
        crate_ref::levy_n13_derivative,
        crate_ref::levy_n13_hessian
    );
    check_derivative_2d!(
        "matyas_derivative",
        matyas::matyas_derivative_frule,
        crate_ref::matyas_derivative,
        crate_ref::matyas_hessian
    );
    check_derivative_2d!(
        "mccormick_derivative",
        mccormick::mccormick_derivative_frule,
        crate_ref::mccormick_derivative,
        crate_ref::mccormick_hessian
    );
    check_derivative_2d!(
        "picheny_derivative",
        picheny::picheny_derivative_frule,
        crate_ref::picheny_derivative,
        crate_ref::picheny_hessian
    );
    check_derivative_nd!(
        "rastrigin_derivative",
        rastrigin::rastrigin_derivative_frule,
        crate_ref::rastrigin_derivative,
        crate_ref::rastrigin_hessian
    );
    check_derivative_const!(
        "rastrigin_derivative_const",
        rastrigin::rastrigin_derivative_const_frule,
        crate_ref::rastrigin_derivative_const,
        crate_ref::rastrigin_hessian
    );
    check_derivative_nd!(
        "rosenbrock_derivative",
        rosenbrock::rosenbrock_derivative_frule,
        crate_ref::rosenbrock_derivative,
        crate_ref::rosenbrock_hessian
    );
    check_derivative_const!(
        "rosenbrock_derivative_const",
        rosenbrock::rosenbrock_derivative_const_frule,
        crate_ref::rosenbrock_derivative_const,
        crate_ref::rosenbrock_hessian
    );
    check_derivative_2d!(
        "schaffer_n2_derivative",
        schaffer::schaffer_n2_derivative_frule,
        crate_ref::schaffer_n2_derivative,
        crate_ref::schaffer_n2_hessian
    );
    check_derivative_2d!(
        "schaffer_n4_derivative",
        schaffer::schaffer_n4_derivative_frule,
        crate_ref::schaffer_n4_derivative,
        crate_ref::schaffer_n4_hessian
    );
    check_derivative_nd!(
        "sphere_derivative",
        sphere::sphere_derivative_frule,
        crate_ref::sphere_derivative,
        crate_ref::sphere_hessian
    );
    check_derivative_const!(
        "sphere_derivative_const",
        sphere::sphere_derivative_const_frule,
        crate_ref::sphere_derivative_const,
        crate_ref::sphere_hessian
    );
    check_derivative_nd!(
        "styblinski_tang_derivative",
        styblinskitang::styblinski_tang_derivative_frule,
        crate_ref::styblinski_tang_derivative,
        crate_ref::styblinski_tang_hessian
    );
    check_derivative_const!(
        "styblinski_tang_derivative_const",
        styblinskitang::styblinski_tang_derivative_const_frule,
        crate_ref::styblinski_tang_derivative_const,
        crate_ref::styblinski_tang_hessian
    );
    check_derivative_2d!(
        "threehumpcamel_derivative",
        threehumpcamel::threehumpcamel_derivative_frule,
        crate_ref::threehumpcamel_derivative,
        crate_ref::threehumpcamel_hessian
    );
    check_derivative_nd!(
        "zero_derivative",
        zero::zero_derivative_frule,
        crate_ref::zero_derivative,
        crate_ref::zero_hessian
    );
    check_derivative_const!(
        "zero_derivative_const",
        zero::zero_derivative_const_frule,
        crate_ref::zero_derivative_const,
        crate_ref::zero_hessian
    );
}

/// The rule of each `*_hessian` (and `_const`) function against central differences of
/// the crate's Hessian.
#[test]
fn hessian_functions_differentiate_to_differences_of_the_crates() {
    check_hessian_nd!(
        "ackley_hessian",
        ackley::ackley_hessian_frule,
        crate_ref::ackley_hessian
    );
    check_hessian_const!(
        "ackley_hessian_const",
        ackley::ackley_hessian_const_frule,
        crate_ref::ackley_hessian_const
    );
    check_hessian_2d!(
        "beale_hessian",
        beale::beale_hessian_frule,
        crate_ref::beale_hessian
    );
    check_hessian_2d!(
        "booth_hessian",
        booth::booth_hessian_frule,
        crate_ref::booth_hessian
    );
    check_hessian_2d!(
        "bukin_n6_hessian",
        bukin::bukin_n6_hessian_frule,
        crate_ref::bukin_n6_hessian
    );
    check_hessian_2d!(
        "cross_in_tray_hessian",
        crossintray::cross_in_tray_hessian_frule,
        crate_ref::cross_in_tray_hessian
    );
    check_hessian_2d!(
        "easom_hessian",
        easom::easom_hessian_frule,
        crate_ref::easom_hessian
    );
    check_hessian_2d!(
        "eggholder_hessian",
        eggholder::eggholder_hessian_frule,
        crate_ref::eggholder_hessian
    );
    check_hessian_2d!(
        "goldsteinprice_hessian",
        goldsteinprice::goldsteinprice_hessian_frule,
        crate_ref::goldsteinprice_hessian
    );
    check_hessian_2d!(
        "himmelblau_hessian",
        himmelblau::himmelblau_hessian_frule,
        crate_ref::himmelblau_hessian
    );
    check_hessian_2d!(
        "holder_table_hessian",
        holdertable::holder_table_hessian_frule,
        crate_ref::holder_table_hessian
    );
    check_hessian_nd!(
        "levy_hessian",
        levy::levy_hessian_frule,
        crate_ref::levy_hessian
    );
    check_hessian_const!(
        "levy_hessian_const",
        levy::levy_hessian_const_frule,
        crate_ref::levy_hessian_const
    );
    check_hessian_2d!(
        "levy_n13_hessian",
        levy::levy_n13_hessian_frule,
        crate_ref::levy_n13_hessian
    );
    check_hessian_2d!(
        "matyas_hessian",
        matyas::matyas_hessian_frule,
        crate_ref::matyas_hessian
    );
    check_hessian_2d!(
        "mccormick_hessian",
        mccormick::mccormick_hessian_frule,
        crate_ref::mccormick_hessian
    );
    // Not `picheny_hessian`: its rule (some 600 lines of straight-line code) compiles,
    // but instantiating it crashes rustc 1.95 in a debug build (a stack overflow in LLVM's
    // debug-info emission, `DwarfCompileUnit::constructVariableDIE`); see docs/limits.md.
    check_hessian_nd!(
        "rastrigin_hessian",
        rastrigin::rastrigin_hessian_frule,
        crate_ref::rastrigin_hessian
    );
    check_hessian_const!(
        "rastrigin_hessian_const",
        rastrigin::rastrigin_hessian_const_frule,
        crate_ref::rastrigin_hessian_const
    );
    // `N` only in the result: the turbofish names it, as for the crate's function.
    fn hessian_a(x: &[f64; 3]) -> [[f64; 3]; 3] {
        crate_ref::rastrigin_a_hessian_const::<3, f64>(x, 7.5)
    }
    fn hessian_a_frule(x: Dual<&[f64; 3], &[f64; 3]>) -> Dual<[[f64; 3]; 3], [[f64; 3]; 3]> {
        let (p, t): (&[f64], &[f64]) = (x.primal, x.tangent);
        rastrigin::rastrigin_a_hessian_const_frule::<3, f64>(Dual::new(p, t), Dual::new(7.5, 0.0))
    }
    check_hessian_const!("rastrigin_a_hessian_const", hessian_a_frule, hessian_a);
    check_hessian_nd!(
        "rosenbrock_hessian",
        rosenbrock::rosenbrock_hessian_frule,
        crate_ref::rosenbrock_hessian
    );
    check_hessian_const!(
        "rosenbrock_hessian_const",
        rosenbrock::rosenbrock_hessian_const_frule,
        crate_ref::rosenbrock_hessian_const
    );
    check_hessian_2d!(
        "schaffer_n2_hessian",
        schaffer::schaffer_n2_hessian_frule,
        crate_ref::schaffer_n2_hessian
    );
    check_hessian_2d!(
        "schaffer_n4_hessian",
        schaffer::schaffer_n4_hessian_frule,
        crate_ref::schaffer_n4_hessian
    );
    check_hessian_nd!(
        "sphere_hessian",
        sphere::sphere_hessian_frule,
        crate_ref::sphere_hessian
    );
    check_hessian_const!(
        "sphere_hessian_const",
        sphere::sphere_hessian_const_frule,
        crate_ref::sphere_hessian_const
    );
    check_hessian_nd!(
        "styblinski_tang_hessian",
        styblinskitang::styblinski_tang_hessian_frule,
        crate_ref::styblinski_tang_hessian
    );
    check_hessian_const!(
        "styblinski_tang_hessian_const",
        styblinskitang::styblinski_tang_hessian_const_frule,
        crate_ref::styblinski_tang_hessian_const
    );
    check_hessian_2d!(
        "threehumpcamel_hessian",
        threehumpcamel::threehumpcamel_hessian_frule,
        crate_ref::threehumpcamel_hessian
    );
    check_hessian_nd!(
        "zero_hessian",
        zero::zero_hessian_frule,
        crate_ref::zero_hessian
    );
    check_hessian_const!(
        "zero_hessian_const",
        zero::zero_hessian_const_frule,
        crate_ref::zero_hessian_const
    );
}

/// The `_const` functions whose `N` the arguments do not all fix, called plain as in the
/// crate: their values are the crate's.
#[test]
fn const_copies_compute_the_crates_values() {
    let x = [0.35, -0.75, 1.1];
    assert_eq!(
        levy::levy_derivative_const(&x),
        crate_ref::levy_derivative_const(&x)
    );
    assert_eq!(
        rastrigin::rastrigin_a_hessian_const::<3, f64>(&x, 7.5),
        crate_ref::rastrigin_a_hessian_const::<3, f64>(&x, 7.5)
    );
    assert_eq!(
        rastrigin::rastrigin_hessian_const(&x),
        crate_ref::rastrigin_hessian_const(&x)
    );
}
