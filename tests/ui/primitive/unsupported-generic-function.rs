use fwdad::prelude::*;

#[primitive(rule = id_rule)]
fn id<F: Copy>(x: F) -> F {
    x
}

#[non_differentiable]
async fn fetch() -> usize {
    1
}

#[non_differentiable]
unsafe fn raw(p: *const f64) -> usize {
    p as usize
}

fn main() {}
