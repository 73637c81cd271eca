use fwdad::Differentiable;

#[derive(Differentiable)]
#[differentiable(rename = ParamsDirection)]
pub struct Params {
    #[differentiable(constant)]
    pub k: f64,
}

#[derive(Differentiable)]
#[differentiable(skip)]
pub struct Skipped {
    pub k: f64,
}

#[derive(Differentiable)]
#[differentiable(crate = fwdad, crate = fwdad)]
pub struct Twice {
    pub k: f64,
}

fn main() {}
