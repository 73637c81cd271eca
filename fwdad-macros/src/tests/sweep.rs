//! Never-panic sweep over other people's code: every free function, `impl` block and
//! trait of the `.rs` files under `FWDAD_SWEEP_DIR` (crate sources such as statrs, argmin,
//! nalgebra) goes through `derive_frule` and `Differentiable` inside `catch_unwind`.
//! Most of it is not differentiable code, so errors are expected; a panic never is.
//!
//! `FWDAD_SWEEP_DIR=/path/to/sources cargo test -p fwdad-macros sweep -- --ignored --nocapture`
//! (`FWDAD_SWEEP_VERBOSE=1` names each file first; `FWDAD_SWEEP_STACK_MIB` sets the stack).

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The items of a file worth annotating, nested modules included.
fn items(items: &[syn::Item], out: &mut Vec<(bool, TokenStream)>) {
    for item in items {
        match item {
            syn::Item::Fn(_) | syn::Item::Impl(_) | syn::Item::Trait(_) => {
                out.push((false, item.to_token_stream()))
            }
            syn::Item::Struct(_) | syn::Item::Enum(_) => out.push((true, item.to_token_stream())),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    self::items(inner, out);
                }
            }
            _ => {}
        }
    }
}

#[test]
#[ignore = "needs FWDAD_SWEEP_DIR"]
fn sweep() {
    // rustc runs proc macros on a thread with an 8 MiB stack; tests get 2 MiB.
    std::thread::Builder::new()
        .stack_size(
            std::env::var("FWDAD_SWEEP_STACK_MIB")
                .ok()
                .and_then(|s| s.parse::<usize>().ok())
                .unwrap_or(8)
                << 20,
        )
        .spawn(sweep_on_rustc_stack)
        .unwrap()
        .join()
        .unwrap();
}

fn sweep_on_rustc_stack() {
    let Ok(dir) = std::env::var("FWDAD_SWEEP_DIR") else {
        return;
    };
    let verbose = std::env::var_os("FWDAD_SWEEP_VERBOSE").is_some();
    let mut files = Vec::new();
    rust_files(Path::new(&dir), &mut files);
    files.sort();
    std::panic::set_hook(Box::new(|_| {}));
    let (mut seen, mut panics) = (0usize, Vec::new());
    for f in &files {
        if verbose {
            eprintln!("sweep: {}", f.display());
        }
        let Ok(src) = std::fs::read_to_string(f) else {
            continue;
        };
        let Ok(file) = syn::parse_file(&src) else {
            continue;
        };
        let mut found = Vec::new();
        items(&file.items, &mut found);
        for (is_type, ts) in found {
            seen += 1;
            let r = catch_unwind(AssertUnwindSafe(|| {
                if is_type {
                    crate::differentiable::expand(ts.clone())
                } else {
                    crate::derive_frule::expand(TokenStream::new(), ts.clone())
                }
            }));
            if r.is_err() {
                let text = ts.to_string();
                panics.push(format!("{}: {}", f.display(), &text[..text.len().min(160)]));
            }
        }
    }
    let _ = std::panic::take_hook();
    println!(
        "sweep: {} files, {seen} items, {} panics",
        files.len(),
        panics.len()
    );
    for p in &panics {
        println!("PANIC {p}");
    }
    assert!(
        panics.is_empty(),
        "{} items made the macro panic",
        panics.len()
    );
}
