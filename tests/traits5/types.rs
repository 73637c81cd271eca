//! The crate's array aliases.

use super::Real;

/// A point or direction in space.
pub type Vec3 = [Real; 3];
/// A 3×3 matrix, rows first.
pub type M3 = [[f64; 3]; 3];
/// Joint angles of a three-link arm.
pub type Joints = [Real; 3];
