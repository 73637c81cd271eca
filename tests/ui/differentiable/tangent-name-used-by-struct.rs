use fwdad::Differentiable;

// The struct's own fields already use the name the tangent would get.
pub struct ParamsTangent(f64);

#[derive(Differentiable)]
pub struct Params {
    pub k: f64,
    pub hint: ParamsTangent,
}

fn main() {}
