use fwdad::Differentiable;

#[derive(Differentiable)]
enum Shape {
    Point,
    Circle { radius: f64 },
    Square(f64),
}

fn main() {}
