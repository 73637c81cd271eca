//! Solvers holding the function they work on, declared in files of their own.

pub mod ode;
pub mod quad;
