//! Drivers: value and derivatives in one call (being implemented).

/// Placeholder until the drivers land.
pub fn derivative() {}
/// Placeholder until the drivers land.
pub fn jvp() {}
/// Placeholder until the drivers land.
pub fn gradient() {}
/// Placeholder until the drivers land.
pub fn jacobian() {}
/// Placeholder until the drivers land.
pub fn hessian() {}
/// Placeholder until the drivers land.
pub fn hvp() {}
