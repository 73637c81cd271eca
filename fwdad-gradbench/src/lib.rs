//! # fwdad-gradbench: fwdad as a [GradBench](https://github.com/gradbench/gradbench) tool
//!
//! The binary `fwdad-gradbench` speaks GradBench's protocol ([`protocol`]) on stdin and
//! stdout. Each eval's functions ([`evals`]) are written from the eval's specification as
//! plain `f64` Rust and differentiated by `#[derive_frule]` and fwdad's drivers; there is no
//! hand-written derivative. See `README.md` for how to run it under GradBench.

// The objectives are written in index/loop style, as the specifications state them.
#![allow(clippy::needless_range_loop)]

pub mod evals;
pub mod input;
pub mod protocol;
