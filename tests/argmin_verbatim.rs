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
//! Only the crate's `#[cfg(test)]` modules and its `*_derivative`/`*_hessian` functions
//! (used from the crate itself as the reference) are left out; each module's imports are
//! kept as written, so those that only the left-out functions used are allowed unused, and
//! `rustfmt` leaves the copies as the crate formats them.

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
}

#[allow(unused_imports)]
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
