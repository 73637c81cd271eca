//! `TypeHint`: what the syntax tells about types, beyond the tests in `types.rs`.

use crate::types::TypeHint;

fn hint(s: &str) -> TypeHint {
    TypeHint::from_type(&syn::parse_str(s).expect("type parses"))
}

fn lit(s: &str) -> TypeHint {
    TypeHint::of_lit(&syn::parse_str(s).expect("literal parses"))
}

#[test]
fn primitive_types_by_their_last_segment() {
    for f in ["f32", "f64", "std::primitive::f64", "core::primitive::f32"] {
        assert_eq!(hint(f), TypeHint::Float, "{f}");
    }
    for i in [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ] {
        assert_eq!(hint(i), TypeHint::Int, "{i}");
    }
    assert_eq!(hint("bool"), TypeHint::Bool);
    for n in ["char", "String", "str", "()", "std::string::String"] {
        assert_eq!(hint(n), TypeHint::NonDiff, "{n}");
    }
}

#[test]
fn compound_types() {
    assert_eq!(
        hint("(f64, usize)"),
        TypeHint::Tuple(vec![TypeHint::Float, TypeHint::Int])
    );
    assert_eq!(hint("[f64; 3]"), TypeHint::Seq(Box::new(TypeHint::Float)));
    assert_eq!(
        hint("&mut [f32]"),
        TypeHint::Ref(Box::new(TypeHint::Seq(Box::new(TypeHint::Float))))
    );
    assert_eq!(
        hint("Vec<Vec<f64>>"),
        TypeHint::Seq(Box::new(TypeHint::Seq(Box::new(TypeHint::Float))))
    );
    assert_eq!(hint("((f64))"), TypeHint::Float);
    assert_eq!(hint("&str"), TypeHint::Ref(Box::new(TypeHint::NonDiff)));
}

#[test]
fn unknown_types_stay_possibly_differentiable() {
    for u in [
        "Params",
        "Option<f64>",
        "Box<f64>",
        "Vec",
        "<T as Trait>::Assoc",
        "impl Fn(f64) -> f64",
        "fn(f64) -> f64",
        "*const f64",
    ] {
        assert_eq!(hint(u), TypeHint::Unknown, "{u}");
        assert!(!hint(u).is_non_differentiable(), "{u}");
    }
}

#[test]
fn differentiability() {
    for nd in [
        "usize",
        "bool",
        "&[usize]",
        "&&[i32]",
        "[bool; 4]",
        "(usize, (bool, char))",
        "Vec<u8>",
        "&str",
        "()",
    ] {
        assert!(hint(nd).is_non_differentiable(), "{nd}");
    }
    for d in [
        "f64",
        "&f64",
        "&mut f32",
        "[f64; 2]",
        "Vec<f64>",
        "(usize, f64)",
        "(bool, (char, f32))",
        "&[Params]",
    ] {
        assert!(!hint(d).is_non_differentiable(), "{d}");
    }
    assert!(TypeHint::Range.is_non_differentiable());
}

#[test]
fn fields_elements_and_derefs() {
    let pair = hint("(f64, usize)");
    assert_eq!(pair.field(&syn::parse_quote!(0)), TypeHint::Float);
    assert_eq!(pair.field(&syn::parse_quote!(1)), TypeHint::Int);
    assert_eq!(pair.field(&syn::parse_quote!(2)), TypeHint::Unknown);
    assert_eq!(pair.field(&syn::parse_quote!(x)), TypeHint::Unknown);
    // Through references, as auto-deref does.
    assert_eq!(
        hint("&&(bool, f32)").field(&syn::parse_quote!(1)),
        TypeHint::Float
    );
    assert_eq!(hint("&&[usize]").element(), TypeHint::Int);
    assert_eq!(hint("f64").element(), TypeHint::Unknown);
    assert_eq!(hint("&f64").deref(), TypeHint::Float);
    assert_eq!(hint("f64").deref(), TypeHint::Unknown);
    assert_eq!(
        hint("&&f64").deref(),
        TypeHint::Ref(Box::new(TypeHint::Float))
    );
}

#[test]
fn literals() {
    assert_eq!(lit("1.5"), TypeHint::Float);
    assert_eq!(lit("1e-12"), TypeHint::Float);
    assert_eq!(lit("2f64"), TypeHint::Float);
    assert_eq!(lit("2_f32"), TypeHint::Float);
    assert_eq!(lit("3"), TypeHint::Int);
    assert_eq!(lit("3usize"), TypeHint::Int);
    assert_eq!(lit("0x1f"), TypeHint::Int);
    assert_eq!(lit("true"), TypeHint::Bool);
    assert_eq!(lit("'c'"), TypeHint::NonDiff);
    assert_eq!(lit("\"s\""), TypeHint::NonDiff);
}

#[test]
fn short_names_for_the_printer() {
    assert_eq!(hint("f64").short(), "float");
    assert_eq!(hint("usize").short(), "int");
    assert_eq!(hint("bool").short(), "bool");
    assert_eq!(hint("char").short(), "nondiff");
    assert_eq!(hint("Params").short(), "?");
    assert_eq!(TypeHint::Range.short(), "range");
    assert_eq!(hint("(f64, &[usize])").short(), "(float, &[int])");
    assert_eq!(hint("&mut Vec<f32>").short(), "&[float]");
}
