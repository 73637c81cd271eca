//! smoke
use fwdad::prelude::*;
use glam::{Mat4, Quat, Vec3};

#[derive_frule]
fn brightness(c: Vec3, k: f32) -> f32 {
    (c * k).length()
}

#[derive_frule]
fn shade(n: Vec3, l: Vec3, k: f32) -> f32 {
    let n = n.normalize();
    let h = (l + Vec3::Y).normalize();
    n.dot(h).max(0.0).powf(k) * 0.5 + 2.0 * n.dot(l)
}

#[derive_frule]
fn proj(eye: Vec3, fov: f32) -> Vec3 {
    let view = Mat4::look_at_rh(eye, Vec3::ZERO, Vec3::Y);
    let proj = Mat4::perspective_rh(fov, 1.5, 0.1, 100.0);
    let q = Quat::from_axis_angle(Vec3::new(0.0, 1.0, 0.0), fov) * Quat::from_rotation_x(0.3);
    (proj * view).project_point3(q * Vec3::new(0.3, 0.2, -0.4))
}

#[test]
fn smoke() {
    let c = Vec3::new(0.3, 0.4, 1.2);
    let d = brightness_frule(Dual::new(c, [1.0f32, 0.0, 0.0]), Dual::new(2.0f32, 0.0));
    assert_eq!(d.primal.to_bits(), brightness(c, 2.0).to_bits());
    let d = shade_frule(
        Dual::new(c, [1.0f32, 0.0, 0.0]),
        Dual::new(c, [0.0f32; 3]),
        Dual::new(2.0f32, 0.0),
    );
    assert_eq!(d.primal.to_bits(), shade(c, c, 2.0).to_bits());
    let d = proj_frule(Dual::new(c, [1.0f32, 0.0, 0.0]), Dual::new(0.9f32, 0.0));
    assert_eq!(d.primal, proj(c, 0.9));
}
