//! Random programs through the macro, checked against num-dual in every mode (issue 26).

#[allow(unused, unused_parens, unused_mut, clippy::all)]
mod corpus {
    include!(concat!(env!("OUT_DIR"), "/corpus.rs"));
}

#[test]
fn random_programs_match_num_dual() {
    let inputs = inputs();
    let programs = corpus::programs();
    let st = fwdad_fuzz::check(&programs, inputs, 0x5eed, 1e-12);
    println!(
        "differential fuzz: {} programs x {inputs} inputs = {} runs, {} skipped (overflow), {} skipped (reference off), {} numbers compared, {} mismatches",
        programs.len(),
        st.runs,
        st.skipped,
        st.reference_off,
        st.compared,
        st.mismatches.len()
    );
    for m in st.mismatches.iter().take(20) {
        println!("  {m}");
    }
    assert!(
        st.mismatches.is_empty(),
        "{} mismatches",
        st.mismatches.len()
    );
    // The corpus must exercise the checks, not skip its way past them.
    assert!(
        st.runs - st.skipped - st.reference_off >= st.runs * 3 / 4,
        "{st:?}"
    );
}

#[test]
fn random_residuals_match_num_dual() {
    let inputs = inputs();
    let programs = corpus::vector_programs();
    let st = fwdad_fuzz::check_vector(&programs, inputs, 0x5eed, 1e-12);
    println!(
        "differential fuzz (residuals): {} programs x {inputs} inputs = {} runs, {} skipped (overflow), {} skipped (reference off), {} numbers compared, {} mismatches",
        programs.len(),
        st.runs,
        st.skipped,
        st.reference_off,
        st.compared,
        st.mismatches.len()
    );
    for m in st.mismatches.iter().take(20) {
        println!("  {m}");
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

fn inputs() -> usize {
    std::env::var("FWDAD_DIFF_INPUTS")
        .ok()
        .map(|v| v.parse().expect("FWDAD_DIFF_INPUTS must be a number"))
        .unwrap_or(10)
}
