//! Deeply nested items (issue 26, item 4): expanded on a stack the size of rustc's
//! (8 MiB), they either expand or get a clear error, and never overflow it.
//!
//! The stack `#[derive_frule]` needs for 250 nested levels (`deep_fn`), in a debug build,
//! bisected with `stack_probe` to 16 KiB (`RUST_MIN_STACK` unset), of rustc's 8192 KiB:
//!
//! | 250 levels of | before (`Emitter::inst` 28 KiB, `lower_expr` 15 KiB) | `inst` split (280 B) | `lower_expr` split too |
//! |---|---|---|---|
//! | `match` | 8184 KiB (8 KiB to spare) | 6313 KiB | 3756 KiB |
//! | `if` | 7640 KiB | 5083 KiB | 5083 KiB |
//! | `-(..)` | 7448 KiB | 7448 KiB | 3500 KiB |
//! | closures | 5850 KiB | 5850 KiB | 5850 KiB |
//!
//! The tightest is now nested closures (2.3 MiB to spare); a nested `if` takes about 20 KiB
//! a level.

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

/// The stack `#[derive_frule]` needs for one deeply nested function, for measuring it
/// (not run by default). `FWDAD_NEST_PROBE=<kind>:<levels>:<stack KiB>` expands
/// `deep_fn(kind, levels)` on a thread of that stack; the process aborts with a stack
/// overflow if it is too small, so bisect the size by running the test binary itself
/// (the toolchain's `libstd` on the library path):
///
/// ```text
/// export LD_LIBRARY_PATH=$(rustc --print target-libdir)
/// FWDAD_NEST_PROBE=match:250:6000 target/debug/deps/fwdad_macros-<hash> \
///     tests::nesting::stack_probe --ignored --exact
/// ```
#[test]
#[ignore = "a measurement, run by hand with FWDAD_NEST_PROBE"]
fn stack_probe() {
    let Ok(spec) = std::env::var("FWDAD_NEST_PROBE") else {
        return;
    };
    let parts: Vec<&str> = spec.split(':').collect();
    let [kind, levels, kib] = parts[..] else {
        panic!("FWDAD_NEST_PROBE=<kind>:<levels>:<stack KiB>, not {spec}");
    };
    let (levels, kib): (usize, usize) = (levels.parse().unwrap(), kib.parse().unwrap());
    let item = deep_fn(kind, levels);
    let out = std::thread::Builder::new()
        .stack_size(kib << 10)
        .spawn(move || {
            let item: TokenStream = item.parse().expect("test input lexes");
            crate::derive_frule::expand(TokenStream::new(), item).to_string()
        })
        .expect("spawn")
        .join()
        .expect("no panic");
    assert!(out.contains("fn deep_frule"), "{kind}");
}
