//! interp 2.1.2 (MIT OR Apache-2.0, Copyright (c) Lucas Jansen,
//! <https://github.com/staticintlucas/interp-rs>, commit 16cb443): one-dimensional linear
//! interpolation as `numpy.interp` and MATLAB's `interp1` do it, at one point, a slice or
//! an array of points, with the extrapolation modes of `InterpMode<T>`, generic over
//! `T: num_traits::Num + PartialOrd + Copy`. The crate's `src/lib.rs` is copied below
//! (module `verbatim`, under `#[rustfmt::skip]`) with `#[fwdad::derive_frule]` on every
//! function and `fwdad::Differentiable` added to the derive list of `InterpMode`; its
//! crate-level attributes are kept as comments, its crate documentation as plain comments,
//! and its tests left out. The differences, slopes and intercepts are itertools chains:
//! `p.iter().tuple_windows().map(|(&p1, &p2)| p2 - p1)` and `izip!(x, y, m).map(..)`.
//!
//! What this found: `izip!` (a macro of another crate, whose value is an iterator) and
//! `tuple_windows()` had no lowering; both are now read as the `std` chains they are
//! (`lower/iter_fns.rs`).
//!
//! The interpolant is differentiated with respect to the query points (the slope of their
//! segment, and the end segments' or zero outside, by mode), the sample values (the
//! barycentric weights), the knots and a `Constant` mode's value, against closed forms and
//! central differences of the published crate; primals bit for bit against it.

#[allow(dead_code)]
#[rustfmt::skip]
pub mod verbatim {
// An implementation of 1-dimensional linear interpolation in Rust, similar to MATLAB's `interp1`
// or NumPy's `numpy.interp`.
//
// [`numpy.interp`]: https://numpy.org/doc/stable/reference/generated/numpy.interp.html
// [`interp1`]: https://www.mathworks.com/help/matlab/ref/double.interp1.html
//
// # Example
//
// ```
// use interp::{interp, interp_array, interp_slice, InterpMode};
//
// let x = vec![0.0, 0.2, 0.5, 0.8, 1.0];
// let y = vec![0.0, 1.0, 3.0, 3.5, 4.0];
//
// // Interpolate at a single point
// assert_eq!(interp(&x, &y, 0.35, &InterpMode::default()), 2.0);
//
// // Interpolate a slice - alloces a new results Vec<T>
// let xp = vec![0.1, 0.65, 0.9];
// assert_eq!(interp_slice(&x, &y, &xp, &InterpMode::default()), vec![0.5, 3.25, 3.75]);
//
// // Interpolate an array
// let xp = [0.1, 0.65, 0.9];
// assert_eq!(interp_array(&x, &y, &xp, &InterpMode::default()), [0.5, 3.25, 3.75]);
// ```
//
// <div class="warning">
//
// **Warning:** `x` is expected to be strictly increasing, but this is not explicitly enforced.
// However, if `x` is non-increasing, interpolation results are meaningless.
//
// </div>

// #![warn(missing_docs)]
// #![allow(unknown_lints)]
// #![warn(clippy::all, clippy::pedantic, clippy::cargo)]
// #![allow(clippy::many_single_char_names)]

use num_traits::Num;

use itertools::{izip, Itertools};

/// Interpolation method that sets the behaviour of the interpolation functions for points outside
/// the range of sample points.
#[derive(Debug, Clone, Copy, Default, fwdad::Differentiable)]
pub enum InterpMode<T: std::cmp::PartialOrd + Copy> {
    /// Use slope information to linearly extrapolate the value.
    ///
    /// This was the default behaviour in earlier versions of this crate.
    #[default]
    Extrapolate,
    /// Use `y.first()` for `xp <= x.first()`, or `y.last()` for `xp >= x.last()`. This is similar
    /// to the default behaviour or NumPy's [`numpy.interp`] function.
    ///
    /// [`numpy.interp`]: https://numpy.org/doc/stable/reference/generated/numpy.interp.html
    FirstLast,
    /// Use the given constant for values outside the range.
    ///
    /// This is commonly used to return `T::NAN` (assuming `T: Float`) to mirror the MATLAB
    /// [`interp1`] function's behaviour using the `'linear'` method.
    ///
    /// [`interp1`]: https://www.mathworks.com/help/matlab/ref/double.interp1.html
    Constant(T),
}

/// Finds the delta between adjacent entries in the slice `p`.
///
/// Returns a [`Vec<T>`] which is one element shorter than `p.len()` containing the difference
/// between each pair of values.
///
/// If `p.len()` is one or less, returns an empty vector.
///
/// # Example
///
/// ```ignore
/// let p = vec![0.0, 1.0, 3.0, 3.5];
///
/// assert_eq!(deltas(&p), vec![1.0, 2.0, 0.5]);
/// ```
#[inline]
#[fwdad::derive_frule]
fn deltas<T>(p: &[T]) -> Vec<T>
where
    T: Num + Copy,
{
    p.iter().tuple_windows().map(|(&p1, &p2)| p2 - p1).collect()
}

/// Finds the slope of a line segment given two slices containing the x and y deltas.
///
/// Parameters `dx` and `dy` are the differences between adjacent x and y coordinates, respectively.
/// Returns a [`Vec<T>`] containing the slope for each segment.
///
/// If the lengths of `dx` and `dy` are not equal, only the number of elements in the shorter slice
/// are considered; excess elements are ignored.
///
/// # Example
///
/// ```ignore
/// let dx = vec![1.0, 2.0, 0.5];
/// let dy = vec![1.0; 3];
///
/// assert_eq!(slopes(&dx, &dy), vec![1.0, 0.5, 2.0]);
/// ```
#[inline]
#[fwdad::derive_frule]
fn slopes<T>(dx: &[T], dy: &[T]) -> Vec<T>
where
    T: Num + Copy,
{
    izip!(dx, dy).map(|(&dx, &dy)| dy / dx).collect()
}

/// Finds the y-intercept of line segments given by the points `x` and `y`, and slopes `m`.
///
/// Returns a `Vec<T>` of the same length containing each of the intercepts.
///
/// If the lengths of `x`, `y`, and `m` are not equal, only the number of elements in the shortest
/// slice are considered; excess elements are ignored.
///
/// # Example
///
/// ```ignore
/// let x = vec![0.0, 1.0, 3.5];
/// let y = vec![0.0, 1.0, 6.0];
/// let slope = vec![1.0, 2.0, -0.5];
///
/// assert_eq!(intercepts(&x, &y, &slope), vec![0.0, -1.0, 7.75])
/// ```
#[inline]
#[fwdad::derive_frule]
fn intercepts<T>(x: &[T], y: &[T], m: &[T]) -> Vec<T>
where
    T: Num + Copy,
{
    izip!(x, y, m).map(|(&x, &y, &m)| y - x * m).collect()
}

/// Finds the index of the value in `x` just before `xp`.
///
/// If the values in `x` are not strictly increasing, the first possible result is returned.
///
/// Returns 0 if there are no elements in `x` which are less than `xp`.
///
/// # Example
///
/// ```ignore
/// let x = vec![0.0, 1.0, 3.0, 4.5];
///
/// assert_eq!(prev_index(&x, 3.5), 2);
/// ```
#[inline]
#[fwdad::derive_frule]
fn prev_index<T>(x: &[T], xp: T) -> usize
where
    T: Num + PartialOrd + Copy,
{
    x.partition_point(|&probe| probe < xp).saturating_sub(1)
}

/// Linearly interpolate the data points given by the `x` and `y` slices at point `xp`,
/// using the interpolation method provided by `mode`.
///
/// Returns the equivalent y coordinate to the x coordinate given by `xp`.
///
/// If the lengths of `x` and `y` differ, only the number of elements in the shorter slice are
/// considered; excess elements are ignored.
///
/// If the length of either `x` or `y` is 0, 0 is returned. If the length of either is 1, `y[0]` is
/// returned. If both are 2 elements or longer the interpolation is performed as expected.
///
/// # Example
///
/// ```
/// use interp::interp;
/// use interp::InterpMode;
///
/// let x = vec![0.0, 1.0, 2.0, 3.0];
/// let y = vec![1.0, 3.0, 4.0, 2.0];
///
/// assert_eq!(interp(&x, &y, 1.5, &InterpMode::Extrapolate), 3.5);
/// ```
///
/// <div class="warning">
///
/// **Warning:** `x` is expected to be strictly increasing, but this is not explicitly enforced.
/// However, if `x` is non-increasing, interpolation results are meaningless.
///
/// </div>
#[fwdad::derive_frule]
pub fn interp<T>(x: &[T], y: &[T], xp: T, mode: &InterpMode<T>) -> T
where
    T: Num + PartialOrd + Copy,
{
    // The min-length of the x and y vectors. We ignore additional entries in either vec.
    let min_len = std::cmp::min(x.len(), y.len());

    if min_len == 0 {
        T::zero()
    } else if min_len == 1 {
        y[0]
    } else {
        // Difference between subsequent x and y coordinate values
        let dx = deltas(&x[..min_len]);
        let dy = deltas(&y[..min_len]);

        // Slope between subsequent points
        let m = slopes(&dx, &dy);

        // Intercept of the line between adjacent points
        let c = intercepts(x, y, &m);

        // The index of the x coordinate right before xp
        // i = 0 when none found
        let i = prev_index(x, xp).min(min_len - 2);

        let point = m[i] * xp + c[i];
        let x_limits = (&x[0], &x[min_len - 1]);
        let y_limits = (&y[0], &y[min_len - 1]);

        select_outside_point(x_limits, y_limits, &xp, point, mode)
    }
}

/// Linearly interpolate the data points given by the `x` and `y` slices at each of the points in
/// the `xp` slice, using the interpolation method provided by `mode`.
///
/// Returns a `Vec<T>` containing the equivalent y coordinates to each of the x coordinates given
/// by `xp`.
///
/// This is equivalent to running [`interp`] iteratively for each value in `xp`, but more efficient
/// as intermediate calculations are not repeated.
///
/// If the lengths of `x` and `y` differ, only the number of elements in the shorter slice are
/// considered; excess elements are ignored.
///
/// If the length of either `x` or `y` is 0, 0 is returned for each `xp`. If the length of either
/// is 1, `y[0]` is returned. If both are 2 elements or longer the interpolations are performed as
/// expected.
///
/// # Example
///
/// ```
/// use interp::interp_slice;
/// use interp::InterpMode;
///
/// let x = vec![0.0, 1.0, 2.0, 3.0];
/// let y = vec![1.0, 3.0, 4.0, 2.0];
///
/// let xp = vec![0.5, 2.5, 4.0];
///
/// assert_eq!(interp_slice(&x, &y, &xp, &InterpMode::Extrapolate), vec![2.0, 3.0, 0.0]);
///
/// assert_eq!(interp_slice(&x, &y, &xp, &InterpMode::Constant(1e3)), vec![2.0, 3.0, 1e3]);
///
/// assert_eq!(interp_slice(&x, &y, &xp, &InterpMode::FirstLast), vec![2.0, 3.0, 2.0]);
/// ```
///
/// <div class="warning">
///
/// **Warning:** `x` is expected to be strictly increasing, but this is not explicitly enforced.
/// However, if `x` is non-increasing, interpolation results are meaningless.
///
/// </div>
#[fwdad::derive_frule]
pub fn interp_slice<T>(x: &[T], y: &[T], xp: &[T], mode: &InterpMode<T>) -> Vec<T>
where
    T: Num + PartialOrd + Copy,
{
    // The min-length of the x and y vectors. We ignore additional entries in either vec.
    let min_len = std::cmp::min(x.len(), y.len());

    if min_len == 0 {
        vec![T::zero(); xp.len()]
    } else if min_len == 1 {
        vec![y[0]; xp.len()]
    } else {
        // Difference between subsequent x and y coordinate values
        let dx = deltas(&x[..min_len]);
        let dy = deltas(&y[..min_len]);

        // Slope between subsequent points
        let m = slopes(&dx, &dy);

        // Intercept of the line between adjacent points
        let c = intercepts(x, y, &m);

        let x_limits = (&x[0], &x[min_len - 1]);
        let y_limits = (&y[0], &y[min_len - 1]);

        xp.iter()
            .map(|&xp| {
                // The index of the x coordinate right before xp. Use min to ensure we don't go out
                // of m's and c's bounds when xp > x.last()
                let i = prev_index(x, xp).min(min_len - 2);

                let point = m[i] * xp + c[i];

                select_outside_point(x_limits, y_limits, &xp, point, mode)
            })
            .collect()
    }
}

/// Linearly interpolate the data points given by the `x` and `y` slices at each of the points in
/// the `xp` slice, using the interpolation method provided by `mode`.
///
/// Returns a `[T; N]` containing the equivalent y coordinates to each of the x coordinates given
/// by `xp`.
///
/// This is equivalent to running [`interp`] iteratively for each value in `xp`, but more efficient
/// as intermediate calculations are not repeated.
///
/// If the lengths of `x` and `y` differ, only the number of elements in the shorter slice are
/// considered; excess elements are ignored.
///
/// If the length of either `x` or `y` is 0, 0 is returned for each `xp`. If the length of either
/// is 1, `y[0]` is returned. If both are 2 elements or longer the interpolations are performed as
/// expected.
///
/// # Example
///
/// ```
/// use interp::interp_array;
/// use interp::InterpMode;
///
/// let x = [0.0, 1.0, 2.0, 3.0];
/// let y = [1.0, 3.0, 4.0, 2.0];
///
/// let xp = [0.5, 2.5, 4.0];
///
/// assert_eq!(interp_array(&x, &y, &xp, &InterpMode::Extrapolate), [2.0, 3.0, 0.0]);
/// ```
///
/// <div class="warning">
///
/// **Warning:** `x` is expected to be strictly increasing, but this is not explicitly enforced.
/// However, if `x` is non-increasing, interpolation results are meaningless.
///
/// </div>
#[fwdad::derive_frule]
pub fn interp_array<T, const N: usize>(
    x: &[T],
    y: &[T],
    xp: &[T; N],
    mode: &InterpMode<T>,
) -> [T; N]
where
    T: Num + PartialOrd + Copy,
{
    // The min-length of the x and y vectors. We ignore additional entries in either vec.
    let min_len = std::cmp::min(x.len(), y.len());

    if min_len == 0 {
        [T::zero(); N]
    } else if min_len == 1 {
        [y[0]; N]
    } else {
        // Difference between subsequent x and y coordinate values
        let dx = deltas(&x[..min_len]);
        let dy = deltas(&y[..min_len]);

        // Slope between subsequent points
        let m = slopes(&dx, &dy);

        // Intercept of the line between adjacent points
        let c = intercepts(x, y, &m);

        let x_limits = (&x[0], &x[min_len - 1]);
        let y_limits = (&y[0], &y[min_len - 1]);

        xp.map(|xp| {
            // The index of the x coordinate right before xp. Use min to ensure we don't go out
            // of m's and c's bounds when xp > x.last()
            let i = prev_index(x, xp).min(min_len - 2);

            let point = m[i] * xp + c[i];

            select_outside_point(x_limits, y_limits, &xp, point, mode)
        })
    }
}

#[fwdad::derive_frule]
fn select_outside_point<T>(
    x_limits: (&T, &T),
    y_limits: (&T, &T),
    xp: &T,
    default: T,
    mode: &InterpMode<T>,
) -> T
where
    T: Num + PartialOrd + Copy,
{
    if xp == x_limits.0 {
        *y_limits.0
    } else if xp < x_limits.0 {
        match mode {
            InterpMode::Extrapolate => default,
            InterpMode::FirstLast => *y_limits.0,
            InterpMode::Constant(val) => *val,
        }
    } else if xp == x_limits.1 {
        *y_limits.1
    } else if xp > x_limits.1 {
        match mode {
            InterpMode::Extrapolate => default,
            InterpMode::FirstLast => *y_limits.1,
            InterpMode::Constant(val) => *val,
        }
    } else {
        default
    }
}
}

use fwdad::prelude::*;
use verbatim::*;

const X: [f64; 6] = [0.0, 0.2, 0.5, 0.8, 1.0, 1.6];
const Y: [f64; 6] = [0.0, 1.0, 3.0, 3.5, 4.0, 2.5];

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(1.0),
        "{what}: {got} against {want}"
    );
}

fn published_mode(m: &InterpMode<f64>) -> ::interp::InterpMode<f64> {
    match m {
        InterpMode::Extrapolate => ::interp::InterpMode::Extrapolate,
        InterpMode::FirstLast => ::interp::InterpMode::FirstLast,
        InterpMode::Constant(c) => ::interp::InterpMode::Constant(*c),
    }
}

const MODES: [InterpMode<f64>; 3] = [
    InterpMode::Extrapolate,
    InterpMode::FirstLast,
    InterpMode::Constant(-7.5),
];

/// Query points inside, on the knots, at the ends and outside on both sides.
const QUERIES: [f64; 9] = [-0.4, 0.0, 0.1, 0.2, 0.35, 0.93, 1.0, 1.3, 2.2];

#[test]
fn primals_bit_for_bit_against_the_published_crate() {
    for mode in &MODES {
        let pm = published_mode(mode);
        for xp in QUERIES {
            let (v, _) = derivative(bind(interp {}, (&X[..], &Y[..], Var(0), mode)), xp);
            assert_eq!(
                v.to_bits(),
                ::interp::interp(&X, &Y, xp, &pm).to_bits(),
                "{mode:?} at {xp}"
            );
            assert_eq!(interp(&X, &Y, xp, mode).to_bits(), v.to_bits());
        }
        let got = interp_slice(&X, &Y, &QUERIES, mode);
        let want = ::interp::interp_slice(&X, &Y, &QUERIES, &pm);
        assert_eq!(got, want);
        let xp = [0.1, 0.65, 1.9];
        assert_eq!(
            interp_array(&X, &Y, &xp, mode),
            ::interp::interp_array(&X, &Y, &xp, &pm)
        );
    }
    // Fewer than two samples, and `y` shorter than `x`.
    assert_eq!(
        interp(&[], &[], 2.0, &InterpMode::Extrapolate),
        ::interp::interp(&[], &[], 2.0, &::interp::InterpMode::Extrapolate)
    );
    assert_eq!(interp(&[1.0], &[2.0], 3.0, &InterpMode::Extrapolate), 2.0);
    assert_eq!(
        interp(&X, &Y[..4], 0.9, &InterpMode::Extrapolate).to_bits(),
        ::interp::interp(&X, &Y[..4], 0.9, &::interp::InterpMode::Extrapolate).to_bits()
    );
}

/// The slope of the segment the query falls in (the first or last outside), by hand.
fn segment_slope(xp: f64) -> f64 {
    let i = (0..X.len() - 1)
        .rev()
        .find(|&i| X[i] <= xp)
        .unwrap_or(0)
        .min(X.len() - 2);
    (Y[i + 1] - Y[i]) / (X[i + 1] - X[i])
}

#[test]
fn derivative_in_the_query_point_is_the_segments_slope() {
    // Away from the knots, where the slope jumps.
    for xp in [-0.4, 0.1, 0.35, 0.93, 1.3, 2.2] {
        for mode in &MODES {
            let (_, d) = derivative(bind(interp {}, (&X[..], &Y[..], Var(0), mode)), xp);
            let outside = !(X[0]..=X[5]).contains(&xp);
            let want = match (mode, outside) {
                (InterpMode::Extrapolate, _) | (_, false) => segment_slope(xp),
                _ => 0.0,
            };
            assert_eq!(d, want, "{mode:?} at {xp}");
            let pm = published_mode(mode);
            let h = 1e-7;
            let fd = (::interp::interp(&X, &Y, xp + h, &pm)
                - ::interp::interp(&X, &Y, xp - h, &pm))
                / (2.0 * h);
            close(d, fd, 1e-6, "central differences");
        }
    }
    // Many points at once: a diagonal Jacobian.
    let xp = [-0.4, 0.1, 0.35, 0.93, 1.3];
    let (v, j) = jacobian(
        bind(
            interp_slice {},
            (&X[..], &Y[..], Wrt, &InterpMode::Extrapolate),
        ),
        &xp,
    );
    assert_eq!(
        v,
        ::interp::interp_slice(&X, &Y, &xp, &::interp::InterpMode::Extrapolate)
    );
    for r in 0..xp.len() {
        for c in 0..xp.len() {
            let want = if r == c { segment_slope(xp[r]) } else { 0.0 };
            assert_eq!(j[(r, c)], want);
        }
    }
}

#[test]
fn gradient_in_the_samples_is_the_barycentric_weights() {
    for xp in [0.1, 0.35, 0.93, 1.3] {
        let (v, g) = gradient(
            bind(interp {}, (&X[..], Wrt, xp, &InterpMode::Extrapolate)),
            &Y,
        );
        assert_eq!(
            v.to_bits(),
            ::interp::interp(&X, &Y, xp, &::interp::InterpMode::Extrapolate).to_bits()
        );
        let i = (0..X.len() - 1).rev().find(|&i| X[i] <= xp).unwrap();
        let t = (xp - X[i]) / (X[i + 1] - X[i]);
        for (k, gk) in g.iter().enumerate() {
            let want = if k == i {
                1.0 - t
            } else if k == i + 1 {
                t
            } else {
                0.0
            };
            close(*gk, want, 1e-14, &format!("∂/∂y{k} at {xp}"));
        }
    }
}

#[test]
fn gradient_in_the_knots_against_central_differences() {
    for xp in [0.1, 0.35, 0.93, 1.3] {
        let (_, g) = gradient(
            bind(interp {}, (Wrt, &Y[..], xp, &InterpMode::Extrapolate)),
            &X,
        );
        for (k, gk) in g.iter().enumerate() {
            let h = 1e-7;
            let (mut a, mut b) = (X, X);
            a[k] += h;
            b[k] -= h;
            let mode = ::interp::InterpMode::Extrapolate;
            let fd = (::interp::interp(&a, &Y, xp, &mode) - ::interp::interp(&b, &Y, xp, &mode))
                / (2.0 * h);
            close(*gk, fd, 1e-6, &format!("∂/∂x{k} at {xp}"));
        }
    }
}

/// A lookup table clamped to a fill value outside its range, the fill being a parameter.
#[derive_frule]
fn table_or_fill(fill: f64, xp: f64) -> f64 {
    interp(&X, &Y, xp, &InterpMode::Constant(fill))
}

/// The same with the interpolation points in an array.
#[derive_frule]
fn three_lookups(q: [f64; 3]) -> [f64; 3] {
    interp_array(&X, &Y, &q, &InterpMode::FirstLast)
}

#[test]
fn a_constant_modes_value_and_arrays_of_points() {
    let (v, g) = gradient(bind(table_or_fill {}, (Var(0), Var(1))), &[-7.5, 2.2]);
    assert_eq!(v, -7.5);
    assert_eq!(g, [1.0, 0.0]);
    let (v, g) = gradient(bind(table_or_fill {}, (Var(0), Var(1))), &[-7.5, 0.35]);
    assert_eq!(
        v.to_bits(),
        ::interp::interp(&X, &Y, 0.35, &::interp::InterpMode::Constant(-7.5)).to_bits()
    );
    assert_eq!(g, [0.0, segment_slope(0.35)]);
    let q = [0.1, 0.93, 2.0];
    let (v, j) = jacobian_array(bind(three_lookups {}, (Wrt,)), &q);
    assert_eq!(
        v,
        ::interp::interp_array(&X, &Y, &q, &::interp::InterpMode::FirstLast)
    );
    assert_eq!(
        j,
        [
            [segment_slope(0.1), 0.0, 0.0],
            [0.0, segment_slope(0.93), 0.0],
            [0.0, 0.0, 0.0]
        ]
    );
}
