use fwdad::Differentiable;

// Nothing carries a tangent: the tangent is `NoTangent`, there is no struct to name.
#[derive(Differentiable)]
#[differentiable(tangent = GridTangent)]
pub struct Grid {
    pub nx: usize,
}

#[derive(Differentiable)]
#[differentiable(tangent = MethodTangent)]
pub enum Method {
    Euler,
    #[differentiable(skip)]
    Rk4,
}

fn main() {}
