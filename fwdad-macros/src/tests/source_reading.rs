//! `source`'s one reading of the crate's files, and what `plain_fns` answers from it: a
//! small crate written to a temporary directory (`src/lib.rs`, `src/physics.rs`), read as
//! the macro reads it when it expands a function of `src/lib.rs`.

use crate::plain_fns::{missing_rule, not_differentiable, Missing};
use std::path::PathBuf;

const LIB: &str = r#"
use fwdad::prelude::*;

mod physics;
mod shapes;

use physics::drag;
use shapes::P3;

pub struct P2 {
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Copy, Differentiable)]
pub struct Q2 {
    pub x: f64,
}

#[cfg_attr(feature = "ad", derive(Differentiable))]
pub struct R2 {
    pub x: f64,
}

#[derive_frule]
fn energy(v: f64, c: f64) -> f64 {
    physics::lift(v) + drag(v, c) + physics::ruled(v) + physics::twice(v)
        + crate::physics::lift(c) + core::hint::black_box(v) + ::std::hint::black_box(c)
}
"#;

const PHYSICS: &str = r#"
use fwdad::prelude::*;

pub fn lift(v: f64) -> f64 {
    0.6 * v * v
}

pub fn drag(v: f64, c: f64) -> f64 {
    c * v * v.abs()
}

#[derive_frule]
pub fn ruled(v: f64) -> f64 {
    v.sin()
}

#[cfg(feature = "fast")]
pub fn twice(v: f64) -> f64 {
    2.0 * v
}

#[cfg(not(feature = "fast"))]
pub fn twice(v: f64) -> f64 {
    v + v
}
"#;

const SHAPES: &str = r#"
#[derive(Clone, Copy)]
pub struct P3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}
"#;

/// The crate written to a fresh directory; the path of its `src/lib.rs`.
fn write_crate(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fwdad-source-{name}-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"demo\"\n").unwrap();
    std::fs::write(src.join("lib.rs"), LIB).unwrap();
    std::fs::write(src.join("physics.rs"), PHYSICS).unwrap();
    std::fs::write(src.join("shapes.rs"), SHAPES).unwrap();
    src.join("lib.rs")
}

fn path(text: &str) -> syn::Path {
    syn::parse_str(text).unwrap()
}

#[test]
fn functions_of_other_files_and_crates() {
    let lib = write_crate("fns");
    crate::source::with_source_file(Some(lib), || {
        let missing = |p: &str| missing_rule("energy", &path(p));
        let in_physics = |name: &str| Missing::InFile {
            name: name.to_string(),
            file: "src/physics.rs".to_string(),
        };
        assert_eq!(missing("physics::lift"), Some(in_physics("lift")));
        assert_eq!(missing("crate::physics::lift"), Some(in_physics("lift")));
        assert_eq!(missing("drag"), Some(in_physics("drag")));
        // A rule, or two definitions (`cfg`), or no such function: rustc's lookup speaks.
        assert_eq!(missing("physics::ruled"), None);
        assert_eq!(missing("physics::twice"), None);
        assert_eq!(missing("physics::absent"), None);
        assert_eq!(missing("absent"), None);
        assert_eq!(
            missing("core::hint::black_box"),
            Some(Missing::OtherCrate("core".to_string()))
        );
        assert_eq!(
            missing("::std::hint::black_box"),
            Some(Missing::OtherCrate("std".to_string()))
        );
        // Not called from a function of the file.
        assert_eq!(missing_rule("elsewhere", &path("physics::lift")), None);
    });
}

#[test]
fn structs_without_the_derive() {
    let lib = write_crate("structs");
    crate::source::with_source_file(Some(lib), || {
        assert_eq!(not_differentiable("energy", &path("P2")), Some(None));
        assert_eq!(
            not_differentiable("energy", &path("P3")),
            Some(Some("src/shapes.rs".to_string()))
        );
        assert_eq!(not_differentiable("energy", &path("Q2")), None);
        assert_eq!(not_differentiable("energy", &path("R2")), None);
        assert_eq!(not_differentiable("energy", &path("Absent")), None);
        assert_eq!(not_differentiable("energy", &path("shapes::P3")), None);
        // Not built in a function of the file.
        assert_eq!(not_differentiable("elsewhere", &path("P2")), None);
    });
}

#[test]
fn each_file_is_parsed_once() {
    let lib = write_crate("once");
    let first = crate::source::parse(&lib).unwrap();
    let again = crate::source::parse(&lib).unwrap();
    assert!(std::rc::Rc::ptr_eq(&first, &again));
    assert!(first.modules.iter().any(|m| m.callers.contains("energy")));
}
