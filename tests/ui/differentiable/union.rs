use fwdad::Differentiable;

#[derive(Differentiable)]
union Bits {
    f: f64,
    u: u64,
}

fn main() {}
