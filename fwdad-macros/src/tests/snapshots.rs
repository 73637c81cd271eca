//! Per-pass snapshot tests (D6): every `testdata/<case>.rs` holds one function as a user
//! writes it; `snapshots_of_every_pass` runs the pipeline on every case and compares each
//! stage with its checked-in snapshot in `snapshots/<stage>__<case>.snap`:
//!
//! | snapshot | what it shows |
//! |---|---|
//! | `lower__<case>` | the IR `lower` builds |
//! | `normalize__<case>` | the IR after `normalize` removed dead pure instructions |
//! | `activity__<case>` | the IR annotated `active`/`const` |
//! | `dual__<case>` | activity `=>` the plan of every instruction (the transform's after view) |
//! | `linear__<case>` | which chains are linearised: each value's roots, absorbed or materialised |
//! | `expand__<case>` | the whole `#[derive_frule]` output, pretty-printed |
//!
//! Every case must be valid: the harness also asserts that lowering reports no error,
//! that `ir::verify` accepts the IR, and that the expansion holds no `compile_error!`.
//! Bless with `INSTA_UPDATE=always cargo test -p fwdad-macros` (see `DEVELOPMENT.md`).

use crate::derive_frule;
use crate::diag::Diagnostics;
use crate::pipeline::{self, Stage};
use quote::quote;
use std::path::Path;

/// One case run through every pass.
struct Stages {
    /// The function, as parsed from the test data (without its `#[derive_frule]`).
    item: syn::ItemFn,
    /// The arguments of its `#[derive_frule(..)]`, if any.
    args: proc_macro2::TokenStream,
    /// Each pass's printed IR, in order.
    shown: Vec<(Stage, String)>,
}

/// Reads `path` (one function, possibly after comments) as a `syn::ItemFn`.
fn read_case(path: &Path) -> syn::ItemFn {
    let src = std::fs::read_to_string(path).expect("test data is readable");
    let file: syn::File =
        syn::parse_file(&src).unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
    match <[syn::Item; 1]>::try_from(file.items) {
        Ok([syn::Item::Fn(f)]) => f,
        _ => panic!("{} must hold exactly one `fn`", path.display()),
    }
}

/// Runs the production pipeline (`pipeline::run`, every pass verified), asserting that
/// nothing is reported. A case may carry `#[derive_frule(args)]` (taken off the item,
/// its arguments passed to the macro as the attribute would).
fn run(path: &Path) -> Stages {
    let mut item = read_case(path);
    let args = match item
        .attrs
        .iter()
        .position(|a| a.path().is_ident("derive_frule"))
    {
        Some(k) => match &item.attrs.remove(k).meta {
            syn::Meta::List(list) => list.tokens.clone(),
            _ => quote!(),
        },
        None => quote!(),
    };
    let mut diag = Diagnostics::new();
    let parsed: crate::args::Args = syn::parse2(args.clone())
        .unwrap_or_else(|e| panic!("{}: bad attribute arguments: {e}", path.display()));
    let inactive = derive_frule::resolve_inactive(&item.sig, &parsed.inactive, &mut diag);
    let mut shown = Vec::new();
    let mut record = |stage: Stage, text: String| shown.push((stage, text));
    let passes = pipeline::run(
        &item,
        &inactive,
        &quote::quote!(::fwdad::__private),
        &mut diag,
        Some(&mut record),
    );
    if let Err(e) = diag.finish() {
        panic!("{}: unexpected error: {e}", path.display());
    }
    assert!(passes.is_some(), "{}: the passes failed", path.display());
    Stages { item, args, shown }
}

/// `derive_frule::expand` on the case, pretty-printed.
fn expand(stages: &Stages, path: &Path) -> String {
    let item = &stages.item;
    let tokens = derive_frule::expand(stages.args.clone(), quote!(#item));
    let file: syn::File = syn::parse2(tokens.clone()).unwrap_or_else(|e| {
        panic!(
            "{}: the expansion is not a valid file: {e}\n{tokens}",
            path.display()
        )
    });
    let text = prettyplease::unparse(&file);
    assert!(
        !text.contains("compile_error"),
        "{}: the expansion reports an error:\n{text}",
        path.display()
    );
    text
}

/// Asserts `text` against `snapshots/<stage>__<case>.snap`.
///
/// `glob!` names snapshots `<module>__<name>@<file>.snap`; this drops the module prefix
/// and the `@<file>` suffix, so the files group by pass and read `lower__tuples.snap`.
fn assert_stage(stage: &str, description: &str, path: &Path, text: &str) {
    let case = path
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("test data file name is UTF-8");
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.remove_snapshot_suffix();
    settings.set_description(description);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(format!("{stage}__{case}"), text));
}

/// One test for all stages: insta's `glob!` counts failures on a process-wide stack, so
/// two `glob!` tests running in parallel would report each other's failures.
#[test]
fn snapshots_of_every_pass() {
    insta::glob!("testdata/*.rs", |path| {
        let s = run(path);
        for (stage, text) in &s.shown {
            let description = match stage {
                Stage::Lower => "IR after `lower`",
                Stage::Normalize => "IR after `normalize` (dead pure instructions removed)",
                Stage::Activity => "IR after `activity` (`active`/`const` per result)",
                Stage::Dual => "IR after `dual`: activity => emitted form [operand coercions]",
                Stage::Linear => {
                    "IR after `linear`: linearised values, their roots, absorbed or materialised"
                }
            };
            assert_stage(stage.name(), description, path, text);
        }
        let expanded = expand(&s, path);
        assert_stage(
            "expand",
            "`#[derive_frule]` expansion, pretty-printed",
            path,
            &expanded,
        );
    });
}

/// `INSTA_UPDATE=always` never deletes a snapshot: one whose test data file was renamed
/// or removed must be deleted by hand, or it would linger, unchecked, forever.
#[test]
fn every_snapshot_has_its_test_data() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tests");
    let mut orphans = Vec::new();
    for entry in std::fs::read_dir(dir.join("snapshots")).expect("snapshots/ exists") {
        let name = entry.expect("readable directory").file_name();
        let name = name.to_string_lossy();
        let Some(stem) = name.strip_suffix(".snap") else {
            continue; // `.snap.new` files are pending reviews, not snapshots
        };
        let known = match stem.split_once("__") {
            Some((stage, case)) => {
                ["lower", "normalize", "activity", "dual", "linear", "expand"].contains(&stage)
                    && dir.join("testdata").join(format!("{case}.rs")).is_file()
            }
            None => false,
        };
        if !known {
            orphans.push(name.into_owned());
        }
    }
    assert!(
        orphans.is_empty(),
        "snapshots without a test case in testdata/ (delete them): {orphans:?}"
    );
}
