//! The pipeline's layering, checked on the sources: no pass keeps a table of names or
//! compares an identifier with a string literal (what a name means is decided once, in
//! `callee/`), and no pass imports a later pass.

use std::path::{Path, PathBuf};

/// The passes in pipeline order, each with its source files (relative to `src/`). `ir`
/// comes first: every pass may use it.
const PASSES: &[(&str, &[&str])] = &[
    ("ir", &["ir"]),
    ("lower", &["lower"]),
    ("normalize", &["normalize.rs"]),
    ("activity", &["activity.rs"]),
    ("dual", &["dual.rs"]),
    ("linear", &["linear.rs"]),
    ("emit", &["emit.rs", "emit"]),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The `.rs` files under `path` (a file or a directory).
fn files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(path).expect("a source directory") {
        out.extend(files(&entry.expect("an entry").path()));
    }
    out
}

/// The code of a file: comment lines and trailing `//` comments removed (string literals
/// holding `//` are rare enough in these files to be written without it).
fn code(path: &Path) -> String {
    std::fs::read_to_string(path)
        .expect("a source file")
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| match l.find(" // ") {
            Some(k) => &l[..k],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lines of `text` that keep a table of names or compare a name with a literal.
fn name_lookups(text: &str) -> Vec<(usize, &str)> {
    let forbidden = [
        "&[&str]",
        "[&str;",
        "== \"",
        "!= \"",
        "is_ident(\"",
        ".contains(&\"",
    ];
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let arm = line.trim_start().starts_with('"')
                && (line.contains("\" =>") || line.contains("\" |"));
            forbidden.iter().any(|f| line.contains(f)) || arm
        })
        .collect()
}

#[test]
fn passes_keep_no_tables_of_names_and_compare_no_names() {
    let mut found = Vec::new();
    for (_, paths) in PASSES {
        for p in paths.iter().flat_map(|p| files(&src().join(p))) {
            let text = code(&p);
            for (n, line) in name_lookups(&text) {
                found.push(format!("{}:{}: {}", p.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "name tables or name comparisons in passes (move them to `callee/`):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_pass_imports_a_later_pass() {
    let mut found = Vec::new();
    for (k, (pass, paths)) in PASSES.iter().enumerate() {
        let later: Vec<&str> = PASSES[k + 1..].iter().map(|(name, _)| *name).collect();
        for p in paths.iter().flat_map(|p| files(&src().join(p))) {
            let text = code(&p);
            for l in &later {
                if text.contains(&format!("crate::{l}::")) || text.contains(&format!("crate::{l};"))
                {
                    found.push(format!("{pass} ({}) uses `{l}`", p.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:?}");
}

/// The check itself finds what it looks for (it is not vacuous).
#[test]
fn the_check_sees_name_tables_and_comparisons() {
    let sample = r#"
const STD: &[&str] = &["len"];
fn f(name: &str) -> bool {
    if name == "len" { return true; }
    match name {
        "push" => true,
        "pop" | "clear" => true,
        _ => ["swap"].contains(&"x"),
    }
}
let label = format!("{name}");
"#;
    let hits: Vec<usize> = name_lookups(sample).iter().map(|(n, _)| *n).collect();
    assert_eq!(hits, vec![1, 3, 5, 6, 7]);
}
