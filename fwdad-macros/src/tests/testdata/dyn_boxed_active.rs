// Values that depend on the inputs boxed as trait objects in a `let` that names them:
// each `Box::new` carries its value's tangent (`<dyn Sdf>::box_with_its_derivative`), and the smooth
// minimum over the boxes reads it through the `dyn` calls.
fn blobs(x: &[f64], p: [f64; 3], k: f64) -> f64 {
    let shapes: Vec<Box<dyn Sdf>> = vec![
        Box::new(Ball {
            c: [x[0], x[1], 0.5],
            r: x[2],
        }),
        Box::new(Plane { h: -0.3 }),
    ];
    let s: f64 = shapes.iter().map(|s| (-k * s.dist(p)).exp()).sum();
    -s.ln() / k
}
