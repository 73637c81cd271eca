//! `derive_frule::expand` never panics: on input it cannot handle it returns tokens with
//! a `compile_error!` (and the user's item, so nothing else breaks), whatever the input.

use crate::derive_frule::expand;
use proc_macro2::TokenStream;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;

/// What a case must produce besides not panicking.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    /// A `compile_error!`.
    Error,
    /// No `compile_error!`: the input is supported.
    Fine,
    /// Either, as long as it does not panic.
    Either,
}

/// Items `#[derive_frule]` must reject.
const REJECTED_ITEMS: &[&str] = &[
    // Unsupported signatures.
    "async fn f(x: f64) -> f64 { x }",
    "unsafe fn f(x: f64) -> f64 { x }",
    "extern \"C\" fn f(x: f64) -> f64 { x }",
    // A single method takes `&self` or `&mut self` (by value: on the `impl` block).
    "fn f(self) -> f64 { 1.0 }",
    "fn f<T>(&self, x: f64) -> f64 { x }",
    "fn f(x: impl Into<f64>) -> f64 { x.into() }",
    "fn f(x: f64) -> impl Copy { x }",
    "fn f<T>(a: T, k: f64) -> T where T: std::ops::Mul<f64, Output = T> { a * k }",
    "fn f(x: &[f64], y: &[f64]) -> &f64 { &x[0] }",
    // Not a function at all, or not Rust.
    "struct S { x: f64 }",
    "mod m {}",
    "",
    "42",
    "fn fn fn",
    "fn f(x: f64) -> f64 { x + }",
    "fn f(x: f64) -> f64",
    "fn (x: f64) -> f64 { x }",
    "{ { ( [ ] ) } }",
];

/// Bodies of `fn f(x: f64) -> f64` that `#[derive_frule]` must reject.
const REJECTED_BODIES: &[&str] = &[
    "async { x }; x",
    "unsafe { x }",
    "core::arch::asm!(\"nop\"); x",
    "break; x",
    "loop { continue 'nowhere; }",
    "for i in 0..3 { break 1.0; } x",
    "<[f64]>::len(&[x]) as f64",
    "trait Twice { fn twice(self) -> f64; } x",
    "match [x, 1.0] { [a, rest @ ..] => a + rest[0] }",
    "let (ref mut a, b) = (x, 1.0); *a + b",
    "let f = match 1 { 0 => |v: f64| v.tanh(), _ => |v: f64| v }; f(x)",
    "let f = if x > 0.0 { |v: f64| v } else { |v: f64| -v }; f(x)",
];

/// Bodies of `fn f(x: f64) -> f64` that are not valid Rust, where the macro may report
/// the problem or leave it to rustc: either way, no panic.
const ILL_TYPED_BODIES: &[&str] = &[
    "let v: Option<f64> = None; v?",
    "x + true",
    "let y: usize = x; y as f64",
    // An extension trait's method on a float (the `special` crate's `Gamma`): rustc's
    // error where no `#[primitive(.., method)]` rule is in scope.
    "x.ln_gamma().0",
    // The fuzzer's mutation of `tests/derive_closures.rs`' `from_i8_min` (fifteenth
    // session): a float sum turbofished to an integer, beside a linearised term; the
    // accumulator's power-of-two scale was read before it was set (`emit/linear.rs`).
    "(-128i8..=-127).map(|k| k as f64 * x).sum::<i32>() + -(2.5) * x",
];

/// Bodies of `fn f(x: f64) -> f64` that `#[derive_frule]` supports.
const SUPPORTED_BODIES: &[&str] = &[
    "let w = const { 1.0 / 3.0 }; w * x",
    "f64::clone(&x) * Clone::clone(&x) + <f64 as Clone>::clone(&x)",
    "std::convert::identity(x) * 2.0",
    "use std::fmt::Write; let mut s = String::new(); write!(s, \"{x}\").unwrap(); x",
    "use std::fmt::Write; let mut s = String::new(); writeln!(s).unwrap(); x",
    "let g = |y: f64| y * 2.0; g(x)",
    "let g = |y: f64| { if y < 0.0 { return -y; } y }; g(x)",
    "let g = f64::sin; g(x)",
    "let v = [x, 2.0]; std::iter::zip(v, v).map(|(a, b)| a * b).sum()",
    "std::iter::once(x).chain(std::iter::repeat(1.0).take(2)).sum()",
    "let mut v = vec![x, 1.0, -x]; v[1..].sort_by(|a, b| a.total_cmp(b)); v[1]",
    "let p = Point { x, y: 1.0 }; p.x",
    "vec![x][0]",
    "match x > 0.0 { true => x, false => -x }",
    "match x { y if y > 0.0 => y, _ => -x }",
    "if let Some(y) = Some(x) { y } else { 0.0 }",
    "if let (a, 1) = (x, 2) { a } else { x }",
    "while let Some(y) = None::<f64> { return y; } x",
    "let (a, b); a = x; b = x; a + b",
    "<f64 as Default>::default() + x",
    "let ref y = x; *y",
    "let (a, ..) = (x, 1.0, 2.0); a",
    "let (a, .., z) = (x, 1.0, 2.0); a * z",
    "struct S { k: f64 } impl S { fn g(&self, y: f64) -> f64 { self.k * y } } S { k: 2.0 }.g(x)",
    "let [a, ..] = [x, 1.0]; a",
    "match &[x, 1.0][..] { [a, rest @ ..] => a + rest[0], [] => x }",
    "match (x, 1.0) { (ref a, _) => *a }",
    // `cfg`s inside the body: one expansion per configuration (`cfg_split`), or, when a
    // condition is malformed or there are more than five, the body as written.
    "#[cfg(test)] let y = x; #[cfg(not(test))] let y = 2.0 * x; y",
    "#[cfg(any(feature = \"a\", all(unix, not(test))))] { x } #[cfg(not(any(feature = \"a\", all(unix, not(test)))))] { 1.0 }",
    "#[cfg()] let y = x; #[cfg(not(a = 1 = 2))] let z = x; x",
    "#[cfg(a)] let y = x; #[cfg(b)] let y = x; #[cfg(c)] let y = x; #[cfg(d)] let y = x; #[cfg(e)] let y = x; #[cfg(g)] let y = x; x",
    "let s = S { #[cfg(test)] k: x, #[cfg(not(test))] k: 1.0 }; match 1 { #[cfg(test)] 1 => s.k, _ => x }",
];

/// Odd items `#[derive_frule]` supports.
const SUPPORTED_ITEMS: &[&str] = &[
    // A `const fn` keeps `const`; its rule is an ordinary function.
    "const fn f(x: f64) -> f64 { x * x }",
    // A single method of a plain `impl` block.
    "fn f(&self, x: f64) -> f64 { x }",
    "fn f(&mut self, x: f64) { }",
    "impl S { fn f(&self) -> f64 { 1.0 } }",
    "fn f<T>(x: T) -> T { x }",
    "fn f<const N: usize>(x: [f64; N]) -> f64 { x[0] }",
    "fn f(x: f64) -> f64 where f64: Copy { x }",
    "fn f() {}",
    "fn f() -> f64 { 1.0 }",
    "fn f(_: f64) -> f64 { 0.0 }",
    "fn f(x: f64) -> f64 { { x } }",
    "fn f(x: f64) -> f64 { let x = x; let x = x * x; x }",
    "fn f(x: f64) -> f64 { fn g(y: f64) -> f64 { y } g(x) }",
    "pub(crate) fn f<'a>(x: &'a [f64]) -> &'a [f64] { x }",
    // Code after a `return` is unreachable: rustc warns, and it is not differentiated.
    "fn f(x: f64) -> f64 { return 1.0; x * 2.0 }",
    "fn f(x: f64) -> f64 { g(return 1.0, x * 2.0) }",
];

/// Attribute arguments that must be rejected (on a supported function).
const REJECTED_ARGS: &[&str] = &[
    "bogus",
    "dump = 1",
    "crate",
    "crate =",
    "crate = 1",
    "crate = a::b, , ,",
    "(dump)",
    "dump dump",
];

/// Deeply nested but supported bodies of `fn f(x: f64) -> f64`.
fn nested_bodies() -> Vec<String> {
    let parens = format!("{}x{}", "(".repeat(48), " + 1.0)".repeat(48));
    let ops = (0..64).fold("x".to_string(), |e, i| {
        format!("({e} {} {i}.5)", ["+", "*", "-", "/"][i % 4])
    });
    let ifs = (0..24).fold("x".to_string(), |e, i| {
        format!("if x > {i}.0 {{ {e} }} else {{ x * {i}.0 }}")
    });
    let blocks = format!("{}x{}", "{ ".repeat(40), " }".repeat(40));
    let loops = (0..12).fold("s += x;".to_string(), |body, i| {
        format!("for i{i} in 0..2 {{ {body} }}")
    });
    vec![
        parens,
        ops,
        ifs,
        blocks,
        format!("let mut s = 0.0; {loops} s"),
    ]
}

/// `(attribute arguments, item, expectation)`.
fn cases() -> Vec<(String, String, Expect)> {
    let fx = |body: &str| format!("fn f(x: f64) -> f64 {{ {body} }}");
    let mut cases = Vec::new();
    let mut add = |args: &str, item: String, expect| cases.push((args.to_string(), item, expect));
    for item in REJECTED_ITEMS {
        add("", item.to_string(), Expect::Error);
    }
    for body in REJECTED_BODIES {
        add("", fx(body), Expect::Error);
    }
    for body in ILL_TYPED_BODIES {
        add("", fx(body), Expect::Either);
    }
    for body in SUPPORTED_BODIES {
        add("", fx(body), Expect::Fine);
    }
    for item in SUPPORTED_ITEMS {
        add("", item.to_string(), Expect::Fine);
    }
    for body in nested_bodies() {
        add("", fx(&body), Expect::Fine);
    }
    for args in REJECTED_ARGS {
        add(args, fx("x * x"), Expect::Error);
    }
    add("crate = ::my::fwdad", fx("x * x"), Expect::Fine);
    cases
}

fn tokens(s: &str) -> TokenStream {
    TokenStream::from_str(s).unwrap_or_else(|e| panic!("test input {s:?} does not lex: {e}"))
}

#[test]
fn expand_reports_errors_and_never_panics() {
    let mut failures = Vec::new();
    let all = cases();
    assert!(all.len() >= 30);
    for (args, item, expect) in &all {
        let (args_ts, item_ts) = (tokens(args), tokens(item));
        let result = catch_unwind(AssertUnwindSafe(|| expand(args_ts, item_ts)));
        let out = match result {
            Ok(out) => out.to_string(),
            Err(_) => {
                failures.push(format!("panicked on #[derive_frule({args})] {item}"));
                continue;
            }
        };
        let has_error = out.contains("compile_error");
        match (expect, has_error) {
            (Expect::Error, false) => failures.push(format!(
                "no `compile_error!` for #[derive_frule({args})] {item}\n  got: {out}"
            )),
            (Expect::Fine, true) => failures.push(format!(
                "unexpected error for #[derive_frule({args})] {item}\n  got: {out}"
            )),
            (Expect::Error, true) | (Expect::Fine, false) | (Expect::Either, _) => {}
        }
        // The fallback keeps the user's item, so callers see only the real errors.
        if let Ok(syn::Item::Fn(f)) = syn::parse_str::<syn::Item>(item) {
            let name = f.sig.ident.to_string();
            assert!(
                out.contains(&format!("fn {name}")),
                "the user's fn is lost: {out}"
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A fallback for a function whose signature is understood still declares `<name>_frule`
/// (with an `unreachable!()` body), so calls to it raise no second error.
#[test]
fn fallback_keeps_the_item_and_a_rule_stub() {
    let out = expand(
        TokenStream::new(),
        tokens("fn f(x: f64) -> f64 { let g = async { x }; x }"),
    )
    .to_string();
    assert!(out.contains("compile_error"), "{out}");
    assert!(out.contains("fn f ("), "{out}");
    assert!(out.contains("fn f_frule"), "{out}");
    assert!(out.contains("unreachable"), "{out}");
}

/// Every unsupported construct in a body is reported, not only the first.
#[test]
fn reports_every_unsupported_construct() {
    let out = expand(
        TokenStream::new(),
        tokens("fn f(x: f64) -> f64 { trait T {} let b = async { x }; let c = unsafe { x }; x }"),
    )
    .to_string();
    assert!(out.matches("compile_error").count() >= 3, "{out}");
}
