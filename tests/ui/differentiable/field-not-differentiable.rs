use fwdad::Differentiable;

pub struct Table(Vec<f64>);

#[derive(Differentiable)]
pub struct Params {
    pub k: f64,
    pub table: Table,
    pub f: fn(f64) -> f64,
}

// The fix: mark them constant.
#[derive(Differentiable)]
pub struct Fixed {
    pub k: f64,
    #[differentiable(skip)]
    pub table: Table,
    #[differentiable(skip)]
    pub f: fn(f64) -> f64,
}

fn main() {}
