//! A crate's geometry module, in its own file: types the other modules import alone by
//! name (`use crate::imported_types::shapes::{Shape, Vec3};`).
pub mod shapes;
