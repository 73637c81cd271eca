//! Writes the random programs of `FWDAD_DIFF_SEED` (default 1) to `$OUT_DIR/corpus.rs`:
//! `FWDAD_DIFF_PROGRAMS` of them (default 40). `tests/differential.rs` includes them.

#[path = "src/gen.rs"]
#[allow(dead_code)]
mod gen;

fn main() {
    println!("cargo:rerun-if-changed=src/gen.rs");
    println!("cargo:rerun-if-env-changed=FWDAD_DIFF_SEED");
    println!("cargo:rerun-if-env-changed=FWDAD_DIFF_PROGRAMS");
    let var = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .map(|v| {
                v.parse()
                    .unwrap_or_else(|_| panic!("{name} must be a number"))
            })
            .unwrap_or(default)
    };
    let seed = var("FWDAD_DIFF_SEED", 1);
    let programs = var("FWDAD_DIFF_PROGRAMS", 40) as usize;
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("corpus.rs");
    std::fs::write(out, gen::generate(seed, programs)).unwrap();
}
