//! UI tests (trybuild) of `#[primitive]` and `#[non_differentiable]`: what they reject and
//! how they say so (`tests/ui/primitive/*.rs` + `.stderr`), and what they must accept
//! however the caller's namespace looks (`tests/ui/primitive/pass/*.rs`).
//!
//! The `.stderr` files are rustc's exact output, which changes between compiler versions,
//! so the suite is pinned to the one toolchain on our machines (darling's approach), as
//! `tests/ui.rs` is. Bless with `TRYBUILD=overwrite cargo test --test ui_primitive`, then
//! read every changed `.stderr`: each error must point at the user's tokens and say what
//! is expected.

#[rustversion::stable(1.95)]
#[test]
fn ui_primitive() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/primitive/*.rs");
    t.pass("tests/ui/primitive/pass/*.rs");
}

#[rustversion::not(stable(1.95))]
#[test]
fn ui_primitive() {
    panic!(
        "the UI tests' .stderr files were produced with rustc 1.95 stable, and compiler \
         output differs between versions; on this toolchain, regenerate them with \
         `TRYBUILD=overwrite cargo test --test ui_primitive`, review every changed .stderr, \
         and update the `rustversion` pin in tests/ui_primitive.rs"
    );
}
