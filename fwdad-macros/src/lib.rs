//! Procedural macros of fwdad.
