//! Deeply nested items (issue 26, item 4): expanded on a stack the size of rustc's
//! (8 MiB), they either expand or get a clear error, and never overflow it.

use proc_macro2::TokenStream;

/// An attribute macro's `expand`.
type Expand = fn(TokenStream, TokenStream) -> TokenStream;

/// `fn deep(x: f64, k: usize) -> f64` whose body nests `n` levels of `kind`.
fn deep_fn(kind: &str, n: usize) -> String {
    let body = match kind {
        "if" => (0..n).fold("x".to_string(), |e, i| {
            format!("if x > {i}.0 {{ {e} }} else {{ x * {i}.0 }}")
        }),
        "match" => (0..n).fold("x".to_string(), |e, i| {
            format!("match k {{ {i} => x * {i}.0, _ => {e} }}")
        }),
        "closure" => format!("{}x{}", "(|| ".repeat(n), ")()".repeat(n)),
        _ => format!("{}x{}", "-(".repeat(n), ")".repeat(n)),
    };
    format!("fn deep(x: f64, k: usize) -> f64 {{ {body} }}")
}

/// `expand` of `item` on a thread with rustc's 8 MiB stack.
fn expand_on_rustc_stack(expand: Expand, item: String) -> String {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let item: TokenStream = item.parse().expect("test input lexes");
            expand(TokenStream::new(), item).to_string()
        })
        .expect("spawn")
        .join()
        .expect("no panic")
}

#[test]
fn hundreds_of_nested_levels_get_a_clear_error() {
    let entries: [(&str, Expand); 3] = [
        ("#[derive_frule]", crate::derive_frule::expand),
        ("#[primitive]", crate::primitive::expand),
        (
            "#[non_differentiable]",
            crate::primitive::expand_non_differentiable,
        ),
    ];
    for kind in ["if", "match", "closure", "neg"] {
        for (attr, expand) in entries {
            let out = expand_on_rustc_stack(expand, deep_fn(kind, 600));
            let expected = format!("`{attr}` supports at most 256 nested");
            assert!(out.contains(&expected), "{attr} on {kind}: {out:.300}");
            // The user's function is given back as it was.
            assert!(
                out.contains("fn deep (x : f64"),
                "{attr} on {kind}: the item is lost"
            );
        }
    }
    let item = format!(
        "struct S {{ a: [f64; {}1{}] }}",
        "(".repeat(600),
        ")".repeat(600)
    );
    let out = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || crate::differentiable::expand(item.parse().expect("lexes")).to_string())
        .expect("spawn")
        .join()
        .expect("no panic");
    assert!(out.contains("supports at most 256 nested"), "{out:.300}");
}

#[test]
fn nesting_up_to_the_limit_expands() {
    for kind in ["if", "match", "neg"] {
        let out = expand_on_rustc_stack(crate::derive_frule::expand, deep_fn(kind, 250));
        assert!(!out.contains("compile_error"), "{kind}: {out:.300}");
        assert!(out.contains("fn deep_frule"), "{kind}");
    }
}

#[test]
fn depth_is_measured_on_delimiters() {
    let ts = |s: &str| s.parse::<TokenStream>().expect("lexes");
    assert!(crate::nesting::too_deep(&ts("a (b [c {d}])"), 3).is_none());
    assert!(crate::nesting::too_deep(&ts("a (b [c {d}])"), 2).is_some());
    assert!(crate::nesting::too_deep(&ts("(a) (b) (c)"), 1).is_none());
}
