//! The registry's float operations: names, shapes, path calls, "did you mean"
//! suggestions, and agreement with the runtime's rules.

use crate::callee::{float_path_call, suggest_float as suggest, FloatOp, Shape};

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
    let shape = |name: &str| FloatOp::method(name).map(FloatOp::shape);
    assert_eq!(shape("sin"), Some(Shape::Unary));
    assert_eq!(shape("to_radians"), Some(Shape::Unary));
    assert_eq!(shape("atan2"), Some(Shape::Binary));
    assert_eq!(shape("log"), Some(Shape::Binary));
    assert_eq!(shape("clamp"), Some(Shape::Ternary));
    assert_eq!(shape("powi"), Some(Shape::Powi));
    assert_eq!(shape("sin_cos"), Some(Shape::SinCos));
    // The operators' rules are no methods.
    for none in [
        "len", "ln_gamma", "to_bits", "is_nan", "Sin", "", "add", "sq", "neg",
    ] {
        assert_eq!(shape(none), None, "{none}");
    }
}

#[test]
fn float_functions_by_path() {
    let call = |s: &str| float_path_call(&syn::parse_str(s).expect("path parses"));
    assert_eq!(call("f64::sin"), Some(FloatOp::Sin));
    assert_eq!(call("f32::max"), Some(FloatOp::Max));
    assert_eq!(call("std::primitive::f64::mul_add"), Some(FloatOp::MulAdd));
    assert_eq!(call("::core::primitive::f64::powi"), Some(FloatOp::Powi));
    // Not a float method by path.
    for none in [
        "sin",
        "f64::ln_gamma",
        "i32::max",
        "num::Float::sin",
        "f64::consts::PI",
        "f64::add",
    ] {
        assert_eq!(call(none), None, "{none}");
    }
}

/// The runtime's rule sources (and `structural.rs`, which builds `sin_cos`'s pair), code
/// only (the module docs show examples).
fn runtime_rules() -> String {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fwdad-runtime/src");
    let mut files = vec![src.join("structural.rs")];
    for entry in std::fs::read_dir(src.join("rules")).expect("the runtime's rules directory") {
        files.push(entry.expect("an entry").path());
    }
    files
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .expect("a source")
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The registry's unbounded rules (coefficients tested in linearised code) are the rules
/// the runtime declares `scalar_rule!(unbounded ..)`.
#[test]
fn unbounded_rules_match_the_runtime() {
    let code = runtime_rules();
    let mut declared: Vec<String> = code
        .split("unbounded y = ")
        .skip(1)
        .map(|part| {
            part.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect();
    declared.sort();
    let mut listed: Vec<String> = FloatOp::ALL
        .iter()
        .filter(|op| op.is_unbounded())
        .map(|op| op.name().to_string())
        .collect();
    listed.sort();
    assert_eq!(declared, listed);
}

/// Every float operation of the registry has its rule function in the runtime.
#[test]
fn every_operation_has_a_runtime_rule() {
    let code = runtime_rules();
    // `locally_constant!(floor, ceil, ..)` declares the rules of locally constant functions.
    let locally_constant: Vec<String> = code
        .split("locally_constant!(")
        .skip(1)
        .flat_map(|part| {
            part.split(");")
                .next()
                .unwrap_or("")
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    for op in FloatOp::ALL {
        // `sin_cos` returns a pair: its dual is built by `sin_cos_dual`.
        let name = match op {
            FloatOp::SinCos => "sin_cos_dual",
            _ => op.name(),
        };
        let declared = code.contains(&format!("pub fn {name}<"))
            || code.contains(&format!("pub fn {name}("))
            || code.contains(&format!("y = {name}("))
            || locally_constant.iter().any(|n| n == name);
        assert!(declared, "no runtime rule for `{name}`");
    }
}

/// The macro's list of the methods of the runtime's glam mirror (`libtypes::GLAM_METHODS`,
/// whose absence is a first error naming glam's method) holds every `pub fn` of
/// `fwdad_runtime::glam`: a method the mirror gains is not refused.
#[test]
fn the_glam_method_list_covers_the_runtime_mirror() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fwdad-runtime/src/glam.rs");
    let text = std::fs::read_to_string(path).expect("the runtime's glam mirror");
    let mut missing = Vec::new();
    for piece in text.split("pub fn ").skip(1) {
        let name: String = piece
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        // Associated functions (`DVec3::new`, `from_*`) are called by path, not as methods.
        let assoc = piece.split_once('(').is_some_and(|(_, params)| {
            !params.trim_start().starts_with("self")
                && !params.trim_start().starts_with("&self")
                && !params.trim_start().starts_with("&mut self")
        });
        if !assoc && !crate::libtypes::GLAM_METHODS.contains(&name.as_str()) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "methods of the glam mirror missing from GLAM_METHODS: {missing:?}"
    );
    assert!(crate::libtypes::GLAM_METHODS.contains(&"dot"));
}
