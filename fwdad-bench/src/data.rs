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

/// The ADBench files, when present: parsed, and the derivatives of a few of their
/// blocks checked (small enough for a debug build).
#[cfg(test)]
mod adbench_files {
    use crate::check::assert_close;
    use crate::{ba, gmm, hand};

    #[test]
    fn ba_blocks_of_the_first_instance() {
        let Some(inst) = ba::Instance::load("ba1_n49_m7776_p31843.txt") else {
            return;
        };
        assert_eq!((inst.n, inst.m, inst.p), (49, 7776, 31843));
        let seeds = ba::Seeds::default();
        for i in [0, 1, 31842] {
            assert_close(
                "ba1 block",
                &ba::block_rule(&inst, i, &seeds),
                &ba::block_hand(&inst, i),
            );
        }
    }

    #[test]
    fn gmm_gradient_of_the_smallest_instance() {
        let Some(inst) = gmm::Instance::load("gmm_d2_K5.txt") else {
            return;
        };
        assert_eq!((inst.d, inst.k, inst.npoints()), (2, 5, 1000));
        let mut g = vec![0.0; inst.nparams()];
        inst.grad_hand(&mut g);
        assert_close("gmm d2 K5", &gmm::gradient_rule(&inst).1, &g);
    }

    #[test]
    fn hand_jacobians_of_the_first_instances() {
        for variant in ["simple_small", "complicated_small"] {
            let Some(inst) = hand::Instance::load(variant, "hand1_t26_c100.txt") else {
                return;
            };
            assert_eq!((inst.parents.len(), inst.corr.len()), (22, 100));
            assert_eq!(inst.complicated(), variant.starts_with("complicated"));
            let rows = inst.nerr();
            let (mut a, mut b) = (vec![0.0; rows * 28], vec![0.0; rows * 28]);
            if inst.complicated() {
                hand::jacobian_rule::<28>(&inst, &mut hand::RuleWork::new(&inst), &mut a);
                hand::jacobian_nd::<28>(&inst, &mut b);
            } else {
                hand::jacobian_rule::<26>(
                    &inst,
                    &mut hand::RuleWork::new(&inst),
                    &mut a[..rows * 26],
                );
                hand::jacobian_nd::<26>(&inst, &mut b[..rows * 26]);
            }
            assert_close("hand rule vs num-dual", &a, &b);
            let mut err = vec![0.0; rows];
            let mut h = vec![0.0; rows * 28];
            let cols = if inst.complicated() { 28 } else { 26 };
            hand::jacobian_hand(&inst, &mut err, &mut h[..rows * cols]);
            assert_close("hand rule vs hand-derived", &a, &h);
        }
    }
}
