//! User syntax spliced into a template the macro parses again must never make it panic.
//!
//! Each case is an ordinary function that once made `#[derive_frule]` panic ("custom
//! attribute panicked") because a `parse_quote!` template around the user's expression
//! no longer parsed. `no_panicking_parse_on_spliced_syntax` keeps the pattern out of the
//! sources.

use crate::derive_frule::expand;
use proc_macro2::TokenStream;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;

/// Functions that once panicked. Each is supported: the expansion has no error.
const ONCE_PANICKED: &[(&str, &str)] = &[
    (
        "matches! with a struct literal and a struct pattern",
        "fn f(x: f64) -> f64 { if matches!(P { a: x }, P { a } if a > 0.0) { x } else { -x } }",
    ),
    (
        "matches! with a struct literal",
        "fn f(x: f64) -> f64 { if matches!(P { a: x }.a, a if a > 0.0) { x } else { -x } }",
    ),
    (
        "typed let-else",
        "fn f(x: &[f64]) -> f64 { let Some(first): Option<&f64> = x.first() else { return 0.0 }; *first * 2.0 }",
    ),
    (
        "iterator chain headed by a struct literal (position)",
        "fn f(x: &[f64]) -> usize { V { v: x }.v.iter().position(|&a| a > 1.0).unwrap_or(0) }",
    ),
    (
        "iterator chain headed by a struct literal (reduce)",
        "fn f(x: &[f64]) -> f64 { V { v: x }.v.iter().copied().reduce(|a, b| a + b).unwrap_or(0.0) }",
    ),
    (
        "scan closure whose body starts with a block",
        "fn f(x: &[f64]) -> f64 { x.iter().scan(0.0, |s, &a| { *s += a; Some(*s) }).sum() }",
    ),
    (
        "scan closure body: a block followed by an operator",
        "fn f(x: &[f64]) -> f64 { x.iter().scan(0.0, |s, &a| { { *s += a; } Some(*s * 1.0) }).sum::<f64>() }",
    ),
];

fn tokens(s: &str) -> TokenStream {
    TokenStream::from_str(s).unwrap_or_else(|e| panic!("test input {s:?} does not lex: {e}"))
}

#[test]
fn spliced_user_syntax_does_not_panic() {
    let mut failures = Vec::new();
    for (what, item) in ONCE_PANICKED {
        let result = catch_unwind(AssertUnwindSafe(|| {
            expand(TokenStream::new(), tokens(item))
        }));
        match result {
            Err(_) => failures.push(format!("{what}: panicked on {item}")),
            Ok(out) if out.to_string().contains("compile_error") => {
                failures.push(format!("{what}: unexpected error on {item}\n  got: {out}"))
            }
            Ok(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Where the sources parse something that can panic: `parse_quote!` or
/// `parse_quote_spanned!` with anything interpolated (`#x`, `#(..)*`), or a parse
/// (`syn::parse2`, `parse_str`, `.parse()`, `parse_body`, ..) unwrapped or expected.
/// Items under `#[cfg(test)]` are skipped. Each finding is `(enclosing fn, what)`.
fn panicking_parses(source: &str) -> Vec<(String, String)> {
    use proc_macro2::TokenTree;
    use syn::visit::Visit;

    fn interpolates(tokens: TokenStream) -> bool {
        let tts: Vec<TokenTree> = tokens.into_iter().collect();
        tts.iter().enumerate().any(|(k, tt)| match tt {
            TokenTree::Punct(p) if p.as_char() == '#' => matches!(
                tts.get(k + 1),
                Some(TokenTree::Ident(_))
                    | Some(TokenTree::Group(_)) if !matches!(
                        tts.get(k + 1),
                        Some(TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Bracket
                    )
            ),
            TokenTree::Group(g) => interpolates(g.stream()),
            _ => false,
        })
    }
    const PARSES: &[&str] = &[
        "parse",
        "parse2",
        "parse_str",
        "parse_file",
        "parse_body",
        "parse_body_with",
        "parse_args",
        "parse_args_with",
    ];
    fn is_parse(e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Call(c) => match &*c.func {
                syn::Expr::Path(p) => p
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| PARSES.iter().any(|n| s.ident == n)),
                _ => false,
            },
            syn::Expr::MethodCall(m) => PARSES.iter().any(|n| m.method == n),
            _ => false,
        }
    }
    #[derive(Default)]
    struct Finder {
        found: Vec<(String, String)>,
        fns: Vec<String>,
    }
    impl Finder {
        fn report(&mut self, what: String) {
            let at = self.fns.last().cloned().unwrap_or_default();
            self.found.push((at, what));
        }
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_signature(&mut self, s: &'ast syn::Signature) {
            // Called first for each fn and method: its name encloses what follows.
            self.fns.push(s.ident.to_string());
        }
        fn visit_item(&mut self, i: &'ast syn::Item) {
            let attrs = match i {
                syn::Item::Mod(m) => &m.attrs,
                syn::Item::Fn(f) => &f.attrs,
                syn::Item::Impl(m) => &m.attrs,
                _ => return syn::visit::visit_item(self, i),
            };
            let cfg_test = attrs.iter().any(|a| {
                a.path().is_ident("cfg") && a.meta.to_token_stream().to_string().contains("test")
            });
            if !cfg_test {
                syn::visit::visit_item(self, i);
            }
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            let name = m.path.segments.last().map(|s| s.ident.to_string());
            let name = name.unwrap_or_default();
            if (name == "parse_quote" || name == "parse_quote_spanned")
                && interpolates(m.tokens.clone())
            {
                self.report(format!("`{name}!` with interpolation"));
            }
            // Statements and expressions inside other macros (`quote!`) are not parsed
            // by syn; a `parse_quote!` in a `vec![..]` would be missed, which the
            // sources do not do.
        }
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            if (m.method == "unwrap" || m.method == "expect") && is_parse(&m.receiver) {
                self.report(format!("a parse followed by `.{}()`", m.method));
            }
            syn::visit::visit_expr_method_call(self, m);
        }
    }
    use quote::ToTokens;
    let file = syn::parse_file(source).unwrap_or_else(|e| panic!("source does not parse: {e}"));
    let mut finder = Finder::default();
    finder.visit_file(&file);
    finder.found
}

/// Every source file of the crate outside `src/tests/`.
fn crate_sources() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                if !path.ends_with("tests") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut out,
    );
    out.sort();
    out
}

#[test]
fn no_panicking_parse_on_spliced_syntax() {
    let sources = crate_sources();
    assert!(sources.len() >= 20, "found only {sources:?}");
    let mut findings = Vec::new();
    for path in &sources {
        let text = std::fs::read_to_string(path).expect("readable source");
        for (at, what) in panicking_parses(&text) {
            findings.push(format!("{} (in `{at}`): {what}", path.display()));
        }
    }
    assert!(
        findings.is_empty(),
        "a template with user syntax spliced in must not panic when it does not parse: \
         build the tree (`crate::splice::fill`) or use `splice!`\n{}",
        findings.join("\n")
    );
}

/// The lint above finds what it looks for, and only that.
#[test]
fn panicking_parse_lint_finds_each_form() {
    let bad = r#"
        fn a(e: &syn::Expr) -> syn::Expr { syn::parse_quote!((#e).abs()) }
        fn b(e: &syn::Expr, s: Span) -> syn::Expr { syn::parse_quote_spanned!(s=> f(#(#e),*)) }
        fn c(t: TokenStream) -> syn::Expr { syn::parse2(t).unwrap() }
        fn d(s: &str) -> syn::Type { syn::parse_str(s).expect("a type") }
        fn e(m: &syn::Macro) -> syn::Expr { m.parse_body().unwrap() }
    "#;
    let at: Vec<String> = panicking_parses(bad).into_iter().map(|(f, _)| f).collect();
    assert_eq!(at, ["a", "b", "c", "d", "e"]);
    let fine = r#"
        fn a(s: Span) -> syn::Expr { syn::parse_quote_spanned!(s=> ::core::option::Option::None) }
        fn b() -> syn::Attribute { syn::parse_quote!(#[inline]) }
        fn c(t: TokenStream) -> syn::Result<syn::Expr> { syn::parse2(t) }
        #[cfg(test)]
        mod tests { fn d() { let _: syn::Expr = syn::parse_str("1").unwrap(); } }
    "#;
    assert_eq!(panicking_parses(fine), []);
}
