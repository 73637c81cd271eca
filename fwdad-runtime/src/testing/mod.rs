//! Test utilities for forward rules (`test_frule`, `randn_tangent`, `add_to_primal`, `diff`).
