//! A crate laid out in module files, for `derive_traits5`: the scalar type in the parent
//! module, matrix and vector aliases in `types.rs`, kinematics in `arm.rs` importing them
//! (`use super::types::{M3, Vec3};`, `use crate::traits5::Real;`).

pub mod arm;
pub mod types;

/// The scalar the crate computes in.
pub type Real = f64;
