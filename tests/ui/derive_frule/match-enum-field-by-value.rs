// A field of a non-`Copy` enum matched by value through `&self` (its `f64`s bound by
// copy in Rust): the rule moves the field's dual, a type error at `&self`. Instead: match
// a reference (`match &self.spread { Spread::Fixed(v) => *v, .. }`) or derive `Copy`.
use fwdad::prelude::*;

#[derive(Differentiable, Clone, Debug)]
pub enum Spread {
    Fixed(f64),
    Learned { var: f64, floor: f64 },
}

#[derive(Differentiable, Clone, Debug)]
pub struct Component {
    mean: f64,
    spread: Spread,
}

#[derive_frule]
impl Component {
    fn variance(&self) -> f64 {
        match self.spread {
            Spread::Fixed(v) => v,
            Spread::Learned { var, floor } => var.max(floor),
        }
    }
}

fn main() {}
