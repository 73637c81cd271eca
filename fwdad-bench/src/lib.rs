//! # fwdad-bench: fwdad against hand-written derivatives, num-dual and finite differences
//!
//! Each kernel module holds, for one function:
//!
//! * the primal `f64` function, annotated with `#[derive_frule]` (so the module also holds
//!   the derived rule `name_frule` and the marker `name {}`);
//! * a hand-written derivative, written from the math;
//! * the same function written generically over [`num_dual::DualNum`], differentiated by
//!   num-dual;
//! * central finite differences (see [`fd`]).
//!
//! The unit tests check every derivative against the hand-written one with ADBench's
//! criterion ([`check`]); the benches (`benches/suite.rs`, criterion) and the report
//! binary (`cargo run --release -p fwdad-bench --bin report`, which writes
//! `BENCHMARKS.md`) time them. Kernels are written in index/loop style, and the sums also
//! as iterator chains (`iter().sum()`, `iter().map(..).sum()`).
//!
//! ADBench data is read from `../shared/data/adbench` relative to the workspace root
//! ([`data`]); when it is absent, instances of the same shape are generated.

// The kernels are written in index/loop style on purpose: that is the code derived bodies
// are measured on, and the hand-written and num-dual versions mirror it.
#![allow(clippy::needless_range_loop)]

// `cputime.rs` (shared with the binaries through `#[path]`) names this crate.
extern crate self as fwdad_bench;

pub mod ba;
pub mod check;
pub mod data;
pub mod expert;
pub mod expert_report;
pub mod fd;
pub mod gmm;
pub mod hand;
pub mod hand_dense;
#[cfg(feature = "nalgebra")]
pub mod nalgebra_kernels;
pub mod optim;
pub mod probe;
pub mod report;
pub mod rng;
pub mod simple;
pub mod small_drivers;
pub mod sparse;
pub mod timing;
pub mod user_ops;
pub mod user_ops_report;
pub mod width_drivers;
