//! Model code driven by names: terms chosen by `match name { "linear" => .. }` on a
//! `&str`, the names passed as a `&[&str]` and handed one by one to a helper (the deref
//! coercion `&&str → &str`), a `Result<f64, String>` with `?` and `format!` on the error
//! path, a named-parameter list searched with `find`. Checked against derivatives
//! written out and central differences in every mode, primals bit for bit.
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

#[derive_frule]
fn term(name: &str, p: &[f64], x: f64) -> Result<f64, String> {
    match name {
        "linear" => Ok(p[0] * x),
        "quad" => Ok(p[1] * x * x),
        "exp" => Ok(p[2] * (-x).exp()),
        other => Err(format!("unknown term {other}")),
    }
}

#[derive_frule]
fn model(p: &[f64], xs: &[f64], terms: &[&str]) -> Result<f64, String> {
    let mut total = 0.0;
    for &x in xs {
        let mut y = 0.0;
        for t in terms {
            y += term(t, p, x)?;
        }
        total += y * y;
    }
    let named: Vec<(&str, f64)> = vec![("a", p[0]), ("b", p[1]), ("c", p[2])];
    let b = named
        .iter()
        .find(|(n, _)| *n == "b")
        .map(|(_, v)| *v)
        .unwrap_or(0.0);
    Ok(total + 0.1 * b * b)
}

#[derive_frule]
fn loss(p: &[f64]) -> f64 {
    let xs = [0.1, 0.5, 1.0, 1.7];
    model(p, &xs, &["linear", "quad", "exp"]).unwrap_or(f64::NAN)
}

#[derive_frule]
fn loss_unknown_term(p: &[f64]) -> f64 {
    model(p, &[0.5], &["linear", "cubic"]).unwrap_or(-1.0)
}

#[test]
fn terms_named_by_strings() {
    let p = [0.3, -0.2, 0.8];
    check_modes!(loss {}, loss, p);
    let (v, g) = fwdad::gradient(loss {}, &p);
    assert_eq!(v.to_bits(), loss(&p).to_bits());
    for (i, gi) in g.iter().enumerate() {
        let mut want = 0.0;
        for x in [0.1f64, 0.5, 1.0, 1.7] {
            let y = p[0] * x + p[1] * x * x + p[2] * (-x).exp();
            want += 2.0 * y * [x, x * x, (-x).exp()][i];
        }
        if i == 1 {
            want += 0.2 * p[1];
        }
        assert_close(*gi, want, 1e-13, &format!("d/dp{i}"));
    }
    let (v, g) = fwdad::gradient(loss_unknown_term {}, &p);
    assert_eq!((v, g), (-1.0, [0.0, 0.0, 0.0]));
}
