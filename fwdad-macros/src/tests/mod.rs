//! Unit tests of the passes.
//!
//! * `snapshots`: per-pass and expansion snapshots of every `testdata/<case>.rs`;
//! * `body_placement`: which rule bodies go out of line (and keep `noalias`);
//! * `verify_rejects`: the IR verifier on hand-built malformed functions;
//! * `type_hints`, `rule_lookup`: the syntax-level type reading and the registry's float
//!   operations;
//! * `reshapes`: which loops may change a local's storage (`ir::Function::reshapes`);
//! * `robustness`: `expand` on unsupported or malformed input reports, never panics;
//! * `spliced_syntax`: user syntax inside generated templates never makes a parse panic
//!   (regression cases, and a lint over the sources);
//! * `fuzz`: every entry point on mutated project items, inside `catch_unwind`;
//! * `traits`: `#[derive_frule]` on trait definitions, supported and rejected forms.
//! * `source_reading`: the one reading of the crate's source files, and the functions and
//!   structs without rules it shows.
//! * `sweep` (ignored): every item of other crates' sources under `FWDAD_SWEEP_DIR`, inside `catch_unwind`.

mod body_placement;
mod fuzz;
mod layering;
mod nesting;
mod registration;
mod reshapes;
mod robustness;
mod rule_lookup;
mod snapshots;
mod source_reading;
mod spliced_syntax;
mod sweep;
mod traits;
mod type_hints;
mod user_syntax;
mod verify_rejects;
