use fwdad::Differentiable;

// Nothing carries a tangent: the tangent of a tuple struct is then `NoTangent`, there is no
// struct to name (named fields get one, of `NoTangent` fields).
#[derive(Differentiable)]
#[differentiable(tangent = GridTangent)]
pub struct Grid(pub usize);

#[derive(Differentiable)]
#[differentiable(tangent = MethodTangent)]
pub enum Method {
    Euler,
    #[differentiable(skip)]
    Rk4,
}

fn main() {}
