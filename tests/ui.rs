//! UI tests (trybuild): what `#[derive_frule]` rejects and how it says so
//! (`tests/ui/derive_frule/*.rs` + `.stderr`), what the drivers reject
//! (`tests/ui/drivers`), and what the macro must accept however the caller's namespace
//! looks (`tests/pass/*.rs`).
//!
//! The `.stderr` files are rustc's exact output, which changes between compiler
//! versions, so the suite is pinned to the one toolchain on our machines (darling's
//! approach). Bless with `TRYBUILD=overwrite cargo test --test ui`, then read every
//! changed `.stderr`: each error must point at the user's construct.

#[rustversion::stable(1.95)]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/derive_frule/*.rs");
    t.compile_fail("tests/ui/drivers/*.rs");
    t.pass("tests/pass/*.rs");
}

#[rustversion::not(stable(1.95))]
#[test]
fn ui() {
    panic!(
        "the UI tests' .stderr files were produced with rustc 1.95 stable, and compiler \
         output differs between versions; on this toolchain, regenerate them with \
         `TRYBUILD=overwrite cargo test --test ui`, review every changed .stderr, and \
         update the `rustversion` pin in tests/ui.rs"
    );
}
