//! Unit tests of the passes.
//!
//! * `snapshots`: per-pass and expansion snapshots of every `testdata/<case>.rs`;
//! * `body_placement`: which rule bodies go out of line (and keep `noalias`);
//! * `verify_rejects`: the IR verifier on hand-built malformed functions;
//! * `type_hints`, `rule_lookup`: the syntax-level type reading and the registry's float
//!   operations;
//! * `reshapes`: which loops may change a local's storage (`ir::Function::reshapes`);
//! * `robustness`: `expand` on unsupported or malformed input reports, never panics.

mod body_placement;
mod layering;
mod reshapes;
mod robustness;
mod rule_lookup;
mod snapshots;
mod spliced_syntax;
mod type_hints;
mod verify_rejects;
