//! Random programs through the macro, checked against num-dual in every mode (issue 26).

#[allow(unused, unused_parens, unused_mut, clippy::all)]
mod corpus {
    include!(concat!(env!("OUT_DIR"), "/corpus.rs"));
}

use fwdad_fuzz::Stats;

#[test]
fn random_programs_match_num_dual() {
    let programs = corpus::programs();
    let st = fwdad_fuzz::check(&programs, inputs(), 0x5eed, 1e-12);
    judge("", programs.len(), &st);
}

#[test]
fn random_residuals_match_num_dual() {
    let programs = corpus::vector_programs();
    let st = fwdad_fuzz::check_vector(&programs, inputs(), 0x5eed, 1e-12);
    judge(" (residuals)", programs.len(), &st);
}

/// Points per program: `FWDAD_DIFF_INPUTS`, 10 by default.
fn inputs() -> usize {
    std::env::var("FWDAD_DIFF_INPUTS")
        .ok()
        .map(|v| v.parse().expect("FWDAD_DIFF_INPUTS must be a number"))
        .unwrap_or(10)
}

/// Prints the counts (the long runs in DEVELOPMENT.md quote this line) and fails on any
/// mismatch, or when the corpus skipped its way past the checks.
fn judge(what: &str, programs: usize, st: &Stats) {
    println!(
        "differential fuzz{what}: {programs} programs x {} inputs = {} runs, {} skipped (overflow), {} skipped (reference off), {} numbers compared, {} mismatches",
        inputs(),
        st.runs,
        st.skipped,
        st.reference_off,
        st.compared,
        st.mismatches.len()
    );
    for m in st.mismatches.iter().take(20) {
        println!("  {m}");
    }
    for m in st.reference_off_at.iter().take(5) {
        println!("  reference off: {m}");
    }
    assert!(
        st.mismatches.is_empty(),
        "{} mismatches",
        st.mismatches.len()
    );
    assert!(
        st.runs - st.skipped - st.reference_off >= st.runs * 3 / 4,
        "{st:?}"
    );
}
