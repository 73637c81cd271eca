//! UI tests (trybuild) of `#[derive(Differentiable)]`: what it rejects and how it says so
//! (`tests/ui/differentiable/*.rs` + `.stderr`).
//!
//! The `.stderr` files are rustc's exact output, which changes between compiler versions,
//! so the suite is pinned to the one toolchain on our machines, like `tests/ui.rs`. Bless
//! with `TRYBUILD=overwrite cargo test --test ui_differentiable`, then read every changed
//! `.stderr`: each error must point at the user's construct.

#[rustversion::stable(1.95)]
#[test]
fn ui_differentiable() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/differentiable/*.rs");
}

#[rustversion::not(stable(1.95))]
#[test]
fn ui_differentiable() {
    panic!(
        "the UI tests' .stderr files were produced with rustc 1.95 stable, and compiler \
         output differs between versions; on this toolchain, regenerate them with \
         `TRYBUILD=overwrite cargo test --test ui_differentiable`, review every changed \
         .stderr, and update the `rustversion` pin in tests/ui_differentiable.rs"
    );
}
