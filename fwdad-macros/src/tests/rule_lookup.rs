//! `rules`: the float-method table, path calls, and "did you mean" suggestions.

use crate::rules::{float_method, float_path_call, suggest, FloatRule};

#[test]
fn suggests_the_closest_rule() {
    assert_eq!(suggest("sine"), Some("sin"));
    assert_eq!(suggest("sqr"), Some("sqrt"));
    assert_eq!(suggest("atan_2"), Some("atan2"));
    assert_eq!(suggest("pow"), Some("powf"));
    assert_eq!(suggest("expm1"), Some("exp_m1"));
    assert_eq!(suggest("ln1p"), Some("ln_1p"));
    assert_eq!(suggest("sincos"), Some("sin_cos"));
    assert_eq!(suggest("muladd"), Some("mul_add"));
    assert_eq!(suggest("tanhh"), Some("tanh"));
}

#[test]
fn an_exact_name_suggests_itself() {
    for name in ["sin", "powi", "sin_cos", "mul_add", "hypot"] {
        assert_eq!(suggest(name), Some(name));
    }
}

#[test]
fn far_names_suggest_nothing() {
    for name in [
        "ln_gamma",
        "erf_complement",
        "gamma_fn",
        "to_bits",
        "foobarbaz",
    ] {
        assert_eq!(suggest(name), None, "{name}");
    }
}

#[test]
fn ties_break_alphabetically() {
    // `sinh` and `sin` are both one edit from `sinx`; the table order must not matter.
    assert_eq!(suggest("sinx"), Some("sin"));
}

#[test]
fn float_method_shapes() {
    assert_eq!(float_method("sin"), Some(FloatRule::Unary));
    assert_eq!(float_method("to_radians"), Some(FloatRule::Unary));
    assert_eq!(float_method("atan2"), Some(FloatRule::Binary));
    assert_eq!(float_method("log"), Some(FloatRule::Binary));
    assert_eq!(float_method("clamp"), Some(FloatRule::Ternary));
    assert_eq!(float_method("powi"), Some(FloatRule::Powi));
    assert_eq!(float_method("sin_cos"), Some(FloatRule::SinCos));
    for none in ["len", "ln_gamma", "to_bits", "is_nan", "Sin", ""] {
        assert_eq!(float_method(none), None, "{none}");
    }
}

#[test]
fn float_functions_by_path() {
    let call = |s: &str| {
        float_path_call(&syn::parse_str(s).expect("path parses")).map(|(m, r)| (m.to_string(), r))
    };
    assert_eq!(call("f64::sin"), Some(("sin".into(), FloatRule::Unary)));
    assert_eq!(call("f32::max"), Some(("max".into(), FloatRule::Binary)));
    assert_eq!(
        call("std::primitive::f64::mul_add"),
        Some(("mul_add".into(), FloatRule::Ternary))
    );
    assert_eq!(
        call("::core::primitive::f64::powi"),
        Some(("powi".into(), FloatRule::Powi))
    );
    // Not a float method by path.
    for none in [
        "sin",
        "f64::ln_gamma",
        "i32::max",
        "num::Float::sin",
        "f64::consts::PI",
    ] {
        assert_eq!(call(none), None, "{none}");
    }
}

/// The macro's list of unbounded rules (coefficients tested in linearised code) is the set
/// of rules the runtime declares `scalar_rule!(unbounded ..)`: read from its sources.
#[test]
fn unbounded_rules_match_the_runtime() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fwdad-runtime/src/rules");
    let mut declared: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the runtime's rules directory") {
        let text = std::fs::read_to_string(entry.expect("an entry").path()).expect("a source");
        // Code only: the module docs show an example.
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for part in code.split("unbounded y = ").skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            declared.push(name);
        }
    }
    declared.sort();
    let mut listed: Vec<String> = crate::rules::UNBOUNDED
        .iter()
        .map(|s| s.to_string())
        .collect();
    listed.sort();
    assert_eq!(declared, listed);
}
