//! Never-panic fuzzing of every entry point (issue 26, item 3a).
//!
//! The seeds are the project's own annotated items: the snapshot test data and every
//! `#[derive_frule]`, `#[primitive]`, `#[non_differentiable]` item and
//! `#[derive(Differentiable)]` type in `tests/`, `examples/` and `fwdad-special/`. Each
//! input is a seed with one to four mutations applied to its syntax tree (statements
//! deleted, duplicated, swapped or inserted, operators, literals and types changed,
//! expressions replaced by others from the corpus or by unusual constructs, wrapped in
//! parentheses, blocks, casts, references, closures), or to its tokens (a token deleted,
//! duplicated or moved, which usually leaves no valid Rust). Every input goes through
//! every entry point (`derive_frule` with the seed's arguments and with none,
//! `primitive`, `non_differentiable`, `Differentiable`) inside `catch_unwind`: none may
//! panic, whatever it returns.
//!
//! `cargo test -p fwdad-macros fuzz` runs 300 inputs on a fixed seed.
//! `FWDAD_FUZZ_ITERS=100000 cargo test --release -p fwdad-macros fuzz -- --nocapture`
//! runs more (`FWDAD_FUZZ_SEED` picks another sequence); record the count in
//! DEVELOPMENT.md ("Fuzzing").

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use std::panic::{catch_unwind, AssertUnwindSafe};
use syn::visit_mut::VisitMut;

/// SplitMix64: small, seedable, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Which entry point a seed was written for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Entry {
    DeriveFrule,
    Primitive,
    NonDifferentiable,
    Differentiable,
}

/// An annotated item of the project: its entry point, attribute arguments, and the item
/// without that attribute.
#[derive(Clone)]
struct Seed {
    entry: Entry,
    args: TokenStream,
    item: syn::Item,
}

/// The annotated items of one source file (`#[cfg(test)]` modules and function bodies
/// are searched too: tests declare their items there).
fn seeds_in(text: &str, out: &mut Vec<Seed>) {
    let Ok(file) = syn::parse_file(text) else {
        return;
    };
    fn walk(items: &[syn::Item], out: &mut Vec<Seed>) {
        for item in items {
            let mut item = item.clone();
            let attrs = match &mut item {
                syn::Item::Fn(f) => {
                    let inner: Vec<syn::Item> = f
                        .block
                        .stmts
                        .iter()
                        .filter_map(|s| match s {
                            syn::Stmt::Item(i) => Some(i.clone()),
                            _ => None,
                        })
                        .collect();
                    walk(&inner, out);
                    &mut f.attrs
                }
                syn::Item::Impl(i) => &mut i.attrs,
                syn::Item::Struct(s) => &mut s.attrs,
                syn::Item::Enum(e) => &mut e.attrs,
                syn::Item::Mod(m) => {
                    if let Some((_, items)) = &m.content {
                        walk(items, out);
                    }
                    continue;
                }
                _ => continue,
            };
            let mut found = None;
            attrs.retain(|a| {
                let name = a.path().segments.last().map(|s| s.ident.to_string());
                let entry = match name.as_deref() {
                    Some("derive_frule") => Entry::DeriveFrule,
                    Some("primitive") => Entry::Primitive,
                    Some("non_differentiable") => Entry::NonDifferentiable,
                    Some("derive")
                        if a.meta
                            .to_token_stream()
                            .to_string()
                            .contains("Differentiable") =>
                    {
                        found = Some((Entry::Differentiable, TokenStream::new()));
                        return true;
                    }
                    _ => return true,
                };
                let args = match &a.meta {
                    syn::Meta::List(l) => l.tokens.clone(),
                    _ => TokenStream::new(),
                };
                found = Some((entry, args));
                false
            });
            if let Some((entry, args)) = found {
                out.push(Seed { entry, args, item });
            }
        }
    }
    walk(&file.items, out);
}

/// Every seed of the workspace.
fn corpus() -> Vec<Seed> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    walk(&root.join("src/tests/testdata"), &mut files);
    for dir in ["tests", "examples", "fwdad-special/src"] {
        walk(&root.join("..").join(dir), &mut files);
    }
    files.sort();
    let mut seeds = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable source");
        let before = seeds.len();
        seeds_in(&text, &mut seeds);
        // Test data holds bare functions, written for `#[derive_frule]`.
        if path.starts_with(root.join("src/tests/testdata")) && seeds.len() == before {
            if let Ok(file) = syn::parse_file(&text) {
                for item in file.items {
                    seeds.push(Seed {
                        entry: Entry::DeriveFrule,
                        args: TokenStream::new(),
                        item,
                    });
                }
            }
        }
    }
    seeds
}

/// Expressions harvested from the corpus, plus constructs seldom seen in it.
fn expression_pool(seeds: &[Seed]) -> Vec<syn::Expr> {
    struct Harvest(Vec<syn::Expr>);
    impl<'ast> syn::visit::Visit<'ast> for Harvest {
        fn visit_expr(&mut self, e: &'ast syn::Expr) {
            self.0.push(e.clone());
            syn::visit::visit_expr(self, e);
        }
    }
    let mut h = Harvest(Vec::new());
    for s in seeds {
        syn::visit::Visit::visit_item(&mut h, &s.item);
    }
    let odd = [
        "panic!(\"too large\")",
        "unreachable!()",
        "todo!()",
        "std::process::exit(1)",
        "loop {}",
        "return",
        "break",
        "continue",
        "'a: { break 'a 1.0 }",
        "matches!(P { a: x }, P { a } if a > 0.0)",
        "V { v: x }.v.iter().position(|a| *a > 0.0)",
        "V { v: x }.v.iter().copied().reduce(|a, b| a.min(b))",
        "x.iter().scan(0.0, |s, &a| { *s += a; Some(*s) }).sum::<f64>()",
        "{ 1.0 } - x",
        "if let Some(a) = x.first() { *a } else { panic!() }",
        "match x { _ if true => 1.0, _ => unreachable!() }",
        "|| x",
        "move |a: f64| a * x",
        "async { x }",
        "unsafe { x }",
        "x as usize as f64",
        "&mut x",
        "*x",
        "x?",
        "x.0",
        "x[..]",
        "x[1..]",
        "(x, x)",
        "[x; 3]",
        "vec![x; 2]",
        "format!(\"{x}\")",
        "S { ..Default::default() }",
        "<f64 as Trait>::f(x)",
        "x.f::<f64>()",
        "1e300",
        "-0.0",
        "f64::NAN",
        "usize::MAX",
        "()",
        "!x",
        "x..=x",
        "..",
        "let _ = x",
        "while let Some(a) = it.next() { s += a; }",
        "for (i, a) in x.iter().enumerate().rev() { }",
        "x.split_at(1).0",
        "out.iter().map(|v| v * out.len() as f64).sum::<f64>()",
        "Self::new(x)",
        "self.x",
        "crate::f(x)",
        "super::g(x)",
    ];
    h.0.extend(odd.iter().filter_map(|s| syn::parse_str(s).ok()));
    h.0
}

const TYPES: &[&str] = &[
    "f64",
    "f32",
    "usize",
    "i32",
    "bool",
    "&f64",
    "&mut f64",
    "&[f64]",
    "&mut [f64]",
    "Vec<f64>",
    "[f64; 3]",
    "(f64, f64)",
    "Option<f64>",
    "Result<f64, String>",
    "()",
    "!",
    "impl Fn(f64) -> f64",
    "Box<dyn Fn(f64) -> f64>",
    "Self",
    "T",
    "_",
    "&'a [f64]",
    "String",
];

const STMTS: &[&str] = &[
    "panic!(\"too large\");",
    "unreachable!();",
    "return 0.0;",
    "let y = x;",
    "let mut s = 0.0;",
    "s += 1.0;",
    "let Some(first): Option<&f64> = x.first() else { return 0.0 };",
    "for v in out.iter() { s += v * out.len() as f64; }",
    "if x > 1e300 { panic!(\"too large\"); }",
    "assert!(x > 0.0, \"positive\");",
    "debug_assert_eq!(x, x);",
    "println!(\"{x:?}\");",
    "let f = |a: f64| a * 2.0;",
    "fn inner(a: f64) -> f64 { a }",
    "struct Local;",
    "use std::f64::consts::PI;",
    "let _ = dbg!(x);",
    "break;",
    "continue;",
    "x;",
    ";",
];

const BINOPS: &[&str] = &[
    "+", "-", "*", "/", "%", "&&", "||", "^", "&", "|", "<<", ">>", "==", "<", "<=", "!=", ">=",
    ">", "+=", "-=", "*=", "/=", "%=",
];

/// Applies `f` to the `target`-th node of one kind (pre-order) of a tree.
struct At<'f, F> {
    target: usize,
    seen: usize,
    f: &'f mut F,
}

impl<F> At<'_, F> {
    /// Whether this node is the target (and counts it).
    fn hit(&mut self) -> bool {
        self.seen += 1;
        self.seen - 1 == self.target
    }
}

macro_rules! at_visitor {
    ($name:ident, $node:ty, $visit:ident) => {
        struct $name<'f, F>(At<'f, F>);
        impl<F: FnMut(&mut $node)> VisitMut for $name<'_, F> {
            fn $visit(&mut self, n: &mut $node) {
                if self.0.hit() {
                    (self.0.f)(n);
                    return;
                }
                syn::visit_mut::$visit(self, n);
            }
        }
    };
}
at_visitor!(AtExpr, syn::Expr, visit_expr_mut);
at_visitor!(AtBlock, syn::Block, visit_block_mut);
at_visitor!(AtType, syn::Type, visit_type_mut);

/// Number of expressions, blocks and types in `item`.
fn counts(item: &mut syn::Item) -> (usize, usize, usize) {
    let (mut e, mut b, mut t) = (
        |_: &mut syn::Expr| {},
        |_: &mut syn::Block| {},
        |_: &mut syn::Type| {},
    );
    let mut ve = AtExpr(At {
        target: usize::MAX,
        seen: 0,
        f: &mut e,
    });
    ve.visit_item_mut(item);
    let mut vb = AtBlock(At {
        target: usize::MAX,
        seen: 0,
        f: &mut b,
    });
    vb.visit_item_mut(item);
    let mut vt = AtType(At {
        target: usize::MAX,
        seen: 0,
        f: &mut t,
    });
    vt.visit_item_mut(item);
    (ve.0.seen, vb.0.seen, vt.0.seen)
}

fn parse_or<T: syn::parse::Parse>(s: &str) -> Option<T> {
    syn::parse_str(s).ok()
}

/// One mutation of `item`'s syntax tree.
fn mutate_tree(item: &mut syn::Item, rng: &mut Rng, pool: &[syn::Expr]) {
    let (n_expr, n_block, n_type) = counts(item);
    let choice = rng.below(9);
    if matches!(choice, 0..=3) && n_block > 0 {
        let target = rng.below(n_block);
        let (a, b, op) = (rng.next() as usize, rng.next() as usize, choice);
        let stmt: Option<syn::Stmt> = parse_or::<syn::Stmt>(rng.pick::<&str>(STMTS));
        let mut f = |blk: &mut syn::Block| {
            let n = blk.stmts.len();
            match (op, n) {
                (0, n) if n > 0 => {
                    blk.stmts.remove(a % n);
                }
                (1, n) if n > 0 => {
                    let s = blk.stmts[a % n].clone();
                    blk.stmts.insert(b % (n + 1), s);
                }
                (2, n) if n > 1 => blk.stmts.swap(a % n, b % n),
                _ => {
                    if let Some(s) = stmt.clone() {
                        blk.stmts.insert(a % (n + 1), s);
                    }
                }
            }
        };
        AtBlock(At {
            target,
            seen: 0,
            f: &mut f,
        })
        .visit_item_mut(item);
    } else if choice == 4 && n_type > 0 {
        let target = rng.below(n_type);
        if let Some(ty) = parse_or::<syn::Type>(rng.pick::<&str>(TYPES)) {
            let mut f = |t: &mut syn::Type| *t = ty.clone();
            AtType(At {
                target,
                seen: 0,
                f: &mut f,
            })
            .visit_item_mut(item);
        }
    } else if n_expr > 0 {
        let target = rng.below(n_expr);
        let replacement = rng.pick(pool).clone();
        let (op, k) = (choice, rng.next() as usize);
        let binop: Option<syn::BinOp> = parse_or(BINOPS[k % BINOPS.len()]);
        let mut f = |e: &mut syn::Expr| match (op, &mut *e) {
            (5, syn::Expr::Binary(b)) if binop.is_some() => b.op = binop.unwrap_or(b.op),
            (5, syn::Expr::Lit(l)) => {
                let lits = [
                    "0", "1", "0.0", "-1.5", "1e300", "2usize", "1_f32", "true", "'c'", "\"s\"",
                ];
                if let Some(lit) = parse_or(lits[k % lits.len()]) {
                    l.lit = lit;
                }
            }
            (6, _) => *e = replacement.clone(),
            _ => {
                let inner = e.to_token_stream();
                let wraps = [
                    quote::quote!((#inner)),
                    quote::quote!({ #inner }),
                    quote::quote!(-#inner),
                    quote::quote!(#inner as f64),
                    quote::quote!(&#inner),
                    quote::quote!(*#inner),
                    quote::quote!(#inner.sin()),
                    quote::quote!(Some(#inner)),
                    quote::quote!([#inner]),
                    quote::quote!((#inner, #inner)),
                    quote::quote!(|| #inner),
                    quote::quote!(if true { #inner } else { panic!() }),
                    quote::quote!(match 0 { 0 => #inner, _ => unreachable!() }),
                    quote::quote!(#inner?),
                    quote::quote!(#inner.iter().copied().sum::<f64>()),
                ];
                if let Ok(w) = syn::parse2(wraps[k % wraps.len()].clone()) {
                    *e = w;
                }
            }
        };
        AtExpr(At {
            target,
            seen: 0,
            f: &mut f,
        })
        .visit_item_mut(item);
    }
}

/// One mutation of a token stream: a token deleted, duplicated or moved, at any depth.
fn mutate_tokens(ts: TokenStream, rng: &mut Rng) -> TokenStream {
    let mut tts: Vec<TokenTree> = ts.into_iter().collect();
    if tts.is_empty() {
        return TokenStream::new();
    }
    let k = rng.below(tts.len());
    // Descend into a group half of the time.
    if let TokenTree::Group(g) = &tts[k] {
        if rng.below(2) == 0 {
            let inner = mutate_tokens(g.stream(), rng);
            let mut ng = proc_macro2::Group::new(g.delimiter(), inner);
            ng.set_span(g.span());
            tts[k] = TokenTree::Group(ng);
            return tts.into_iter().collect();
        }
    }
    match rng.below(3) {
        0 => {
            tts.remove(k);
        }
        1 => {
            let t = tts[k].clone();
            tts.insert(k, t);
        }
        _ => {
            let t = tts.remove(k);
            let j = rng.below(tts.len() + 1);
            tts.insert(j, t);
        }
    }
    tts.into_iter().collect()
}

/// Runs `input` through every entry point; the names of those that panicked.
fn run_all(seed: &Seed, args: &TokenStream, item: &TokenStream) -> Vec<&'static str> {
    let mut panicked = Vec::new();
    let mut run = |name, f: &dyn Fn() -> TokenStream| {
        if catch_unwind(AssertUnwindSafe(f)).is_err() {
            panicked.push(name);
        }
    };
    let (a, i) = (args.clone(), item.clone());
    match seed.entry {
        Entry::DeriveFrule => run("derive_frule(args)", &|| {
            crate::derive_frule::expand(a.clone(), i.clone())
        }),
        Entry::Primitive => run("primitive(args)", &|| {
            crate::primitive::expand(a.clone(), i.clone())
        }),
        Entry::NonDifferentiable => run("non_differentiable(args)", &|| {
            crate::primitive::expand_non_differentiable(a.clone(), i.clone())
        }),
        Entry::Differentiable => {}
    }
    // With no arguments (the same call again when the seed has none).
    if seed.entry != Entry::DeriveFrule || !args.is_empty() {
        run("derive_frule", &|| {
            crate::derive_frule::expand(TokenStream::new(), i.clone())
        });
    }
    run("primitive", &|| {
        crate::primitive::expand(TokenStream::new(), i.clone())
    });
    run("non_differentiable", &|| {
        crate::primitive::expand_non_differentiable(TokenStream::new(), i.clone())
    });
    run("Differentiable", &|| {
        crate::differentiable::expand(i.clone())
    });
    panicked
}

/// Runs `iters` fuzzed inputs from `seed_value`; the number of panics and the first
/// twenty, described. Reports its progress every 10,000 inputs (with `--nocapture`).
fn fuzz(iters: usize, seed_value: u64) -> (usize, Vec<String>) {
    let seeds = corpus();
    assert!(seeds.len() >= 300, "only {} seeds found", seeds.len());
    for entry in [
        Entry::DeriveFrule,
        Entry::Primitive,
        Entry::NonDifferentiable,
        Entry::Differentiable,
    ] {
        assert!(
            seeds.iter().any(|s| s.entry == entry),
            "no seed for {entry:?}"
        );
    }
    let pool = expression_pool(&seeds);
    let mut rng = Rng(seed_value);
    let (mut panics, mut failures) = (0, Vec::new());
    for k in 0..iters {
        if k > 0 && k % 10_000 == 0 {
            eprintln!("fuzz: {k} inputs, {panics} panics so far");
        }
        let seed = rng.pick(&seeds);
        let mut item = seed.item.clone();
        let mut args = seed.args.clone();
        for _ in 0..1 + rng.below(4) {
            mutate_tree(&mut item, &mut rng, &pool);
        }
        let mut tokens = item.to_token_stream();
        match rng.below(10) {
            0 => tokens = mutate_tokens(tokens, &mut rng),
            1 => args = mutate_tokens(args, &mut rng),
            _ => {}
        }
        for entry in run_all(seed, &args, &tokens) {
            panics += 1;
            if failures.len() < 20 {
                failures.push(format!(
                    "{entry} panicked on args `{args}`, item:\n{tokens}"
                ));
            }
        }
    }
    (panics, failures)
}

#[test]
fn fuzzed_inputs_never_panic() {
    let iters = std::env::var("FWDAD_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let seed = std::env::var("FWDAD_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_f00d);
    // rustc runs proc macros on a thread with a large stack; so does this test.
    let (panics, failures) = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || fuzz(iters, seed))
        .expect("spawn the fuzzing thread")
        .join()
        .expect("the fuzzing thread itself does not panic");
    eprintln!("fuzz: {iters} inputs, seed {seed:#x}, {panics} panics");
    assert!(
        failures.is_empty(),
        "{panics} panics; the first ones:\n{}",
        failures.join("\n\n")
    );
}
