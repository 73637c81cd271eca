//! Unit tests of the passes (snapshot tests live in `snapshots.rs`).
