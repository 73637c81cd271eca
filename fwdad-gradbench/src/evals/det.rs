//! `det`: the determinant of an `ℓ × ℓ` matrix by expansion by minors (cmpad's
//! `det_by_minor`, `O(ℓ!)`), and its gradient in the `ℓ²` entries.

use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use serde_json::Value;

/// The determinant of the minor of `a` (`n × n`, row-major) whose `m` rows and columns
/// are linked lists: `r[n]`, `c[n]` are the first row and column, `r[i]` the row after
/// row `i` (likewise `c`). Rows and columns are struck out by relinking, and restored
/// before returning.
#[derive_frule]
fn det_of_minor(a: &[f64], n: usize, m: usize, r: &mut [usize], c: &mut [usize]) -> f64 {
    let r0 = r[n];
    let mut cj = c[n];
    if m == 1 {
        return a[r0 * n + cj];
    }
    let mut det = 0.0;
    let mut sign = 1;
    // Strike out the minor's first row.
    r[n] = r[r0];
    let mut previous = n;
    for _ in 0..m {
        let m0j = a[r0 * n + cj];
        // Strike out column cj, expand, restore it.
        c[previous] = c[cj];
        let det_sub = det_of_minor(a, n, m - 1, r, c);
        c[previous] = cj;
        if sign > 0 {
            det += m0j * det_sub;
        } else {
            det -= m0j * det_sub;
        }
        previous = cj;
        cj = c[cj];
        sign = -sign;
    }
    r[n] = r0;
    det
}

/// `det A` for `A` `ell × ell`, row-major.
#[derive_frule]
pub fn det(a: &[f64], ell: usize) -> f64 {
    let mut r = vec![0; ell + 1];
    let mut c = vec![0; ell + 1];
    for i in 0..ell {
        r[i] = i + 1;
        c[i] = i + 1;
    }
    det_of_minor(a, ell, ell, &mut r, &mut c)
}

pub fn det_gradient(a: &[f64], ell: usize) -> Vec<f64> {
    gradient(bind(det {}, (Wrt, ell)), a).1
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let a = input::floats(input, "A")?;
    let ell = input::int(input, "ell")?;
    if a.len() != ell * ell || ell == 0 {
        return Err(format!(
            "`A` has {} entries, not ell² = {}",
            a.len(),
            ell * ell
        ));
    }
    let runs = Runs::of(input);
    match function {
        "primal" => Ok(runs.measure(|| det(&a, ell), Value::from)),
        "gradient" => Ok(runs.measure(|| det_gradient(&a, ell), Value::from)),
        _ => Err(format!("`det` has no function `{function}`")),
    }
}
