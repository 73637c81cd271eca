use fwdad::prelude::*;

// A hand-written marker already claims the name in the type namespace.
#[allow(non_camel_case_types)]
struct square {}

#[primitive(d = 2.0 * x)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
