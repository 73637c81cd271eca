//! fwdad facade.
pub use fwdad_runtime::*;
