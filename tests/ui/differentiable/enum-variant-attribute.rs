use fwdad::Differentiable;

// `skip` belongs on a field of the variant, not on the variant.
#[derive(Differentiable)]
enum Shape {
    Point,
    #[differentiable(skip)]
    Circle { radius: f64 },
    Square(f64),
}

fn main() {}
