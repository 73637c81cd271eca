use fwdad::Differentiable;

// Another item in scope has the tangent's name: rustc's error, at the struct's name.
pub struct ParamsTangent;

#[derive(Differentiable)]
pub struct Params {
    pub k: f64,
}

// The fix: name the tangent.
#[derive(Differentiable)]
#[differentiable(tangent = OtherTangent)]
pub struct Other {
    pub k: f64,
}

fn main() {}
