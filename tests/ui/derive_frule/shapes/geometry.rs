// A module of the UI test `struct-literal-imported-without-differentiable`.

/// A point of the plane, without `#[derive(Differentiable)]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct P2 {
    pub x: f64,
    pub y: f64,
}
