//! UI tests (trybuild) of library types in derived bodies (`tests/ui/libs/*.rs` +
//! `.stderr`): what stays unsupported with the features `nalgebra`, `num-complex`,
//! `glam` and `ndarray`, and how rustc reports it. Bless with
//! `TRYBUILD=overwrite cargo test --features nalgebra,num-complex,glam,ndarray --test ui_libs`,
//! then read every changed `.stderr`. Pinned to rustc 1.95 as `tests/ui.rs` is.

#[rustversion::stable(1.95)]
#[test]
fn ui_libs() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/libs/*.rs");
}

#[rustversion::not(stable(1.95))]
#[test]
fn ui_libs() {
    panic!(
        "the UI tests' .stderr files were produced with rustc 1.95 stable; regenerate them \
         with `TRYBUILD=overwrite cargo test --features nalgebra,num-complex,glam,ndarray --test \
         ui_libs`, review every changed .stderr, and update the `rustversion` pin"
    );
}
