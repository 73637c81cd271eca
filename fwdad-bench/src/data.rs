//! Where the ADBench instances are, and reading their whitespace- and colon-separated
//! numbers.
//!
//! The data lives outside the repository, in `../shared/data/adbench` relative to the
//! workspace root (override with the `ADBENCH_DIR` environment variable). Every loader
//! returns `None` when its file is absent, and each kernel module then generates an
//! instance of the same shape, so a fresh clone builds, tests and benchmarks.

use std::path::PathBuf;

/// The ADBench data directory, when it exists.
pub fn adbench_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("ADBENCH_DIR") {
        Some(d) => PathBuf::from(d),
        // This crate is `<root>/fwdad-bench`; the data is `<root>/../shared/data/adbench`.
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/adbench"),
    };
    dir.is_dir().then_some(dir)
}

/// The contents of `adbench/<rel>`, when present.
pub fn read(rel: &str) -> Option<String> {
    std::fs::read_to_string(adbench_dir()?.join(rel)).ok()
}

/// All numbers of a text, separated by whitespace or `:`.
///
/// # Panics
/// If a token is not a number.
pub fn numbers(text: &str) -> Vec<f64> {
    text.split(|c: char| c.is_whitespace() || c == ':')
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap_or_else(|_| panic!("not a number: {t:?}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_split_on_space_and_colon() {
        assert_eq!(numbers("1 2.5\n-3:4e1 "), [1.0, 2.5, -3.0, 40.0]);
    }
}
