//! The gradient-descent solver of the `particle` and `saddle` evals (GradBench's `gd.hpp`,
//! which all tools share): steps of `η` along `−∇f` while they decrease `f`; `η` halves
//! after a failed step and doubles after ten successful ones; it stops when `‖∇f‖` or the
//! step is at most `10⁻⁵`.
//!
//! This is the outer solver, on plain values. The inner solvers run inside functions that
//! are themselves differentiated, so they are written out there, in the same steps.

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// `argmin f` from `start`, with `objective` and its `gradient`.
pub fn argmin(
    objective: impl Fn(&[f64]) -> f64,
    gradient: impl Fn(&[f64]) -> Vec<f64>,
    start: &[f64],
) -> Vec<f64> {
    let mut x = start.to_vec();
    let mut fx = objective(&x);
    let mut gx = gradient(&x);
    let mut successes = 0;
    let mut eta = 1e-5;
    loop {
        if norm(&gx) <= 1e-5 {
            return x;
        } else if successes == 10 {
            eta *= 2.0;
            successes = 0;
        } else {
            let next: Vec<f64> = x.iter().zip(&gx).map(|(x, g)| x - eta * g).collect();
            let step: Vec<f64> = x.iter().zip(&next).map(|(a, b)| a - b).collect();
            if norm(&step) <= 1e-5 {
                return x;
            }
            let f_next = objective(&next);
            if f_next < fx {
                x = next;
                fx = f_next;
                gx = gradient(&x);
                successes += 1;
            } else {
                eta /= 2.0;
                successes = 0;
            }
        }
    }
}
